/* neighbor.c: Verlet list of pebble pairs, built on a spatial hash of cells.
 *
 * Component spheres ("pebbles") p < q of different grains whose spheres come within
 * `skin` (|c_p - c_q| < a_p + a_q + skin), and whose grains' bounding spheres (eq. 48)
 * come within `skin`, are listed in row p (a half list: each pair's force is evaluated
 * once, and the sweep of contact.c adds it to both grains).  Listing pebbles rather than
 * grains makes a clump cost about what its pebbles would as free spheres: a grain pair's
 * 16 component pairs (eq. 49) shrink to the few that are near.  The list stays valid while
 * no pebble has moved more than skin/2; the integrator adds up a bound on the largest
 * pebble displacement of each free motion (x moves by h v, a pebble at most by
 * h|v| + 2|exp(h w)| |s| more) in nl->drift, so no reference positions are stored.
 *
 * Cells of edge 2 a_max + skin are hashed into >= npeb buckets: memory and time are O(N)
 * whatever the container's shape (tall columns, sparse gases).  Each row is sorted, so
 * the order in which contact forces are summed does not depend on when the list was
 * rebuilt: results are bit-identical for any rebuild schedule and any thread count. */
#include "internal.h"
#include <stdlib.h>

void pala_nlist_free(pala_nlist *nl)
{
    free(nl->start); free(nl->nbr); free(nl->row); free(nl->head); free(nl->next);
    nl->start = nl->nbr = nl->row = nl->head = nl->next = NULL;
    nl->cap = 0;
}

static unsigned cell_hash(long ix, long iy, long iz, int mask)
{
    unsigned long h = (unsigned long)ix * 73856093ul ^ (unsigned long)iy * 19349663ul ^ (unsigned long)iz * 83492791ul;
    return (unsigned)(h & (unsigned long)mask);
}

static inline pala_vec3 peb_pos(const pala_world *w, int p) { return w->pc ? w->pc[p] : w->x[p]; }
static inline double peb_rad(const pala_world *w, int p) { return w->work->prad[p]; }

static void sort_row(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

/* Row of pebble p: counted (out == NULL) or written to out.  Returns its length. */
static int row(const pala_world *w, int p, int *out)
{
    const pala_nlist *nl = &w->nl;
    double inv = 1.0 / (2 * nl->amax + nl->skin);
    pala_vec3 x = peb_pos(w, p);
    double ap = peb_rad(w, p);
    int gp = pala_peb_grain(w, p);
    long c[3] = {(long)floor(x.x * inv), (long)floor(x.y * inv), (long)floor(x.z * inv)};
    unsigned bk[27];
    int nbk = 0, m = 0, zr = w->dim == 2 ? 0 : 1;
    for (int dz = -zr; dz <= zr; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                unsigned b = cell_hash(c[0] + dx, c[1] + dy, c[2] + dz, nl->nbucket - 1);
                int dup = 0;   /* two cells in one bucket: scan it once */
                for (int i = 0; i < nbk; i++) dup |= bk[i] == b;
                if (dup) continue;
                bk[nbk++] = b;
                for (int q = nl->head[b]; q >= 0; q = nl->next[q]) {
                    int gq = pala_peb_grain(w, q);
                    if (q <= p || gq == gp) continue;
                    if (w->pg) {
                        /* eq. (48) first: grains whose bounding spheres stay apart by more
                         * than the skin have no component pair to list */
                        double rb = w->tmpl[w->tid[gp]].bound_radius + w->tmpl[w->tid[gq]].bound_radius + nl->skin;
                        if (pala_vnorm2(pala_vsub(w->x[gp], w->x[gq])) >= rb * rb) continue;
                    }
                    double rc = ap + peb_rad(w, q) + nl->skin;
                    if (pala_vnorm2(pala_vsub(x, peb_pos(w, q))) >= rc * rc) continue;
                    if (out) out[m] = q;
                    m++;
                }
            }
    if (out) sort_row(out, m);
    return m;
}

static inline int blk_peb0(const pala_world *w, int b)
{
    int k = b * PALA_BLOCK;
    if (k > w->n) k = w->n;
    return w->p0 ? w->p0[k] : k;
}

static void count_job(pala_world *w, int b0, int b1)
{
    for (int p = blk_peb0(w, b0); p < blk_peb0(w, b1); p++) w->nl.start[p + 1] = row(w, p, NULL);
}

static void fill_job(pala_world *w, int b0, int b1)
{
    for (int p = blk_peb0(w, b0); p < blk_peb0(w, b1); p++) {
        row(w, p, w->nl.nbr + w->nl.start[p]);
        for (int s = w->nl.start[p]; s < w->nl.start[p + 1]; s++) w->nl.row[s] = p;
    }
}

static void nlist_build(pala_world *w)
{
    pala_nlist *nl = &w->nl;
    int n = w->npeb;
    double inv = 1.0 / (2 * nl->amax + nl->skin);
    int nb = 16;
    while (nb < n) nb *= 2;
    if (nb != nl->nbucket || !nl->head) { PALA_GROW(nl->head, nb); nl->nbucket = nb; }
    if (!nl->next || nl->nalloc != n) {   /* sized once per pebble count: no allocation per rebuild */
        PALA_GROW(nl->next, n);
        PALA_GROW(nl->start, n + 1);
        nl->nalloc = n;
    }
    for (int b = 0; b < nb; b++) nl->head[b] = -1;
    for (int p = n - 1; p >= 0; p--) {   /* chains in increasing order */
        pala_vec3 x = peb_pos(w, p);
        unsigned b = cell_hash((long)floor(x.x * inv), (long)floor(x.y * inv), (long)floor(x.z * inv), nb - 1);
        nl->next[p] = nl->head[b];
        nl->head[b] = p;
    }
    nl->start[0] = 0;
    pala_world_par(w, count_job);
    for (int p = 0; p < n; p++) nl->start[p + 1] += nl->start[p];
    long m = nl->start[n];
    if (m > nl->cap || !nl->nbr) {
        nl->cap = m + m / 8 + 16;
        PALA_GROW(nl->nbr, nl->cap);
        PALA_GROW(nl->row, nl->cap);
    }
    pala_world_par(w, fill_job);
    nl->drift = 0;
    nl->builds++;
    pala_sweep_setup(w);
}

void pala_nlist_update(pala_world *w)
{
    pala_nlist *nl = &w->nl;
    /* 0.45 rather than 0.5: room for the rounding of the displacement bounds */
    if (nl->builds > 0 && nl->drift <= 0.45 * nl->skin) return;
    nlist_build(w);
}

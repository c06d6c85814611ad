/* neighbor.c: Verlet list of pebble pairs, built on a spatial hash of cells.
 *
 * Component spheres ("pebbles") p < q of different grains whose spheres come within
 * `skin` (|c_p - c_q| < a_p + a_q + skin), and whose grains' bounding spheres (eq. 48)
 * come within `skin`, are listed in row p (a half list: each pair's force is evaluated
 * once, and the sweep of force_pass.c adds it to both grains).  Listing pebbles rather than
 * grains makes a clump cost about what its pebbles would as free spheres: a grain pair's
 * 16 component pairs (eq. 49) shrink to the few that are near.  The list stays valid while
 * no pebble has moved more than skin/2; the integrator adds up a bound on the largest
 * pebble displacement of each free motion (x moves by h v, a pebble at most by
 * h|v| + 2|exp(h w)| |s| more) in nl->drift, so no reference positions are stored.
 * A pair's relative displacement is the same in any frame, so the pairs' bound, nl->rdrift,
 * counts h|v - u| instead, u the velocity of a frame chosen at each build (the centre of the
 * grains' velocities): grains that fall together, in a pour, then move little in it, and the
 * list is built less often; the walls' candidates (force_pass.c), against walls that do not
 * move with the frame, are listed again when nl->drift, the bound at rest, reaches the same
 * limit.
 *
 * Cells of edge 2 a_max + skin: a dense grid over the pebbles' bounding box when it has at
 * most two cells per pebble, else hashed into >= 4 npeb buckets, so memory and time are O(N)
 * whatever the container's shape (tall columns, sparse gases).  Each row is sorted, so
 * the order in which contact forces are summed does not depend on when the list was
 * rebuilt: results are bit-identical for any rebuild schedule and any thread count. */
#include "neighbor.h"
#include "alloc.h"
#include "grain.h"
#include "threads.h"
#include "vec4.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Arc grains are listed by their arcs' bounding circles, not their circles (a side's is
 * far larger than the grain), each widened by a quarter of the skin: two touching arcs'
 * bounding circles are apart by at most their overlap (each holds its arc's point of the
 * contact), so a pair stays listed while its overlap is below 0.6 skin (0.1 skin without
 * the margin, the displacement bound taking 0.9). */
#define ARC_MARGIN 0.25

void pala_nlist_free(pala_nlist *nl)
{
    if (!nl) return;
    free(nl->start); free(nl->nbr); free(nl->row); free(nl->head); free(nl->next); free(nl->prad); free(nl->trad); free(nl->hs); free(nl->hl);
    free(nl->lev); free(nl->look); free(nl->rc); free(nl->rev); free(nl->areach); free(nl->apeb); free(nl->ashape); free(nl->kst); free(nl->kq); free(nl->fk); free(nl->gk); free(nl->reach);
    for (int t = 0; t < nl->nrows; t++) { free(nl->rows[t].buf); free(nl->rows[t].rbuf); }
    free(nl->rows);
    free(nl);
}

/* ---- Levels ----------------------------------------------------------------------------
 * One grid of cells of edge 2 a_max + skin lists every pair within 27 cells (9 in 2D), but
 * when the components differ much in size a cell of the largest holds many of the smallest:
 * a sphere 25 times the size of the others puts about 25^3 of them in each cell.  So
 * when the cells the smallest and the largest components need differ by more than a factor
 * of two, the pebbles are sorted into levels, a hierarchical grid after MercuryDPM's HGrid:
 * level L has cells of edge h_L = (2 a_min + skin) 2^L, and a pebble lives in the finest
 * level whose cells are at least 2 a + skin wide.  A pair of the same level is found in the
 * cells next to one of them, as with one grid.  A pair of two levels is found by one side
 * only: the pebbles of one level search the cells of the other within a_p + a_max(level) +
 * skin fmax of them (fmax: the spheres' largest skin factor, sphere_skins), and which side
 * searches is chosen per pair of levels by the number of cells it visits in all (a few large spheres search the cells of the small ones around them
 * rather than every small sphere searching theirs).  A pair found from its larger pebble's
 * side still belongs to the row of its smaller index: it is handed over (rc, rev) and merged
 * into that row, which stays sorted, so the list is the same whichever side found it. */
/* The cells: a dense grid over the pebbles' bounding box when it has at most 2 cells per
 * pebble (dense packings: no hash collisions, no duplicates in a row), else a hash of the cell
 * coordinates into >= 4 npeb buckets (sparse gases, tall columns: O(N) memory whatever the
 * shape).  nl->head[c] .. nl->head[c + 1] are the pebbles of bucket c in nl->next, in
 * increasing order. */
typedef struct cellgrid { double inv; pala_vec3 lo; long nx, ny, nz; int dense; int nbucket; } cellgrid;

enum { MAX_LEVELS = 24 };   /* size ratios up to 2^23: beyond, the last level takes the rest */
typedef struct nl_level {
    double h, inv;         /* cell edge, m, and 1/h */
    double amax;           /* largest radius of its pebbles, m */
    int count;             /* its pebbles */
    cellgrid g;            /* its cells (lo: the least corner of its pebbles' centres) */
    pala_vec3 hi;          /* the largest corner */
    int b0;                /* its buckets are head[b0 ..], nl->next[head[b0] ..] */
    long most;             /* pebbles of its fullest bucket */
} nl_level;

/* The level of a pebble of radius a: the finest whose cells are 2 a + skin wide or more. */
static inline int level_of(const pala_nlist *nl, double a)
{
    int L = 0;
    while (L + 1 < nl->nlev && 2 * a + nl->skin > nl->lev[L].h) L++;
    return L;
}

/* The default skin (neighbor_skin = 0), amed the median component radius (of the templates
 * before there are grains).  The list is on components, so the skin scales with them: a
 * skin of a clump's bounding radius would list many pairs of its pebbles that never touch,
 * and the median rather than the largest, since with a few large spheres among many small
 * ones a skin of the large would list ~(7/2.2)^3 times more pairs of small ones.  But a
 * pebble moves with its grain, whose speed and time step scale with the grain, not with
 * its pebbles: small pebbles on a large grain (bench/poly-clumps.txt: 0.05 mm on a core of
 * 2.5 mm) cross 0.2 of their radius in a few steps, and the list is built again every few
 * steps.  So the skin is 0.2 x the median component radius, and at least 0.1 x the median
 * bounding radius (eq. 48) of the grains: a grain then moves 0.045 of its size between two
 * builds.  A sphere's bounding radius is its radius, so spheres keep 0.2 x the median
 * radius exactly, and so do compact clumps of a few pebbles (bounding radius under twice
 * the pebble's: the benchmark bed's tetrahedra, 1.73; at 0.2 x their bounding radius the
 * settled bed lists 22 % more pairs, 5.5 % more instructions).  Arc grains keep 0.2 x the
 * median radius of their arcs' bounding circles. */
double pala_nlist_default_skin(const pala_world *w, double amed)
{
    double skin = 0.2 * amed;
    double bmin, bmax, bmed;
    pala_grain_radii(w, 1, &bmin, &bmax, &bmed);
    if (bmed == 0)   /* no grains yet: the largest template's */
        for (int t = 0; t < w->ntmpl; t++) bmed = fmax(bmed, w->tmpl[t].bound_radius);
    return fmax(skin, 0.1 * bmed);
}

void pala_points_bounds(const pala_vec3 *X, int n, pala_vec3 *lo, pala_vec3 *hi)
{
    *lo = *hi = n ? X[0] : pala_v(0, 0, 0);
    for (int k = 1; k < n; k++) {
        *lo = pala_v(fmin(lo->x, X[k].x), fmin(lo->y, X[k].y), fmin(lo->z, X[k].z));
        *hi = pala_v(fmax(hi->x, X[k].x), fmax(hi->y, X[k].y), fmax(hi->z, X[k].z));
    }
}

double pala_nlist_cells_across(const pala_world *w)
{
    if (!w->nl || w->n == 0) return 0;
    pala_vec3 lo, hi;
    pala_points_bounds(w->x, w->n, &lo, &hi);
    return fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z) / (2 * w->nl->amax + w->nl->skin);   /* cell_edge without factors */
}

void pala_nlist_prepare(pala_world *w)
{
    if (!w->nl) {
        w->nl = pala_xrealloc(NULL, sizeof *w->nl);
        memset(w->nl, 0, sizeof *w->nl);
    }
    pala_nlist *nl = w->nl;
    if (nl->nalloc != w->npeb) nl->hvalid = 0;   /* other pebbles: their states are dropped */
    nl->builds = 0;
    nl->sk = 0;   /* the factors were of the grains before (sorted again, or others came): none until the build */
    double amin, amax, amed;
    pala_grain_radii(w, 0, &amin, &amax, &amed);
    if (amax == 0)   /* no grains yet: the templates' */
        for (int i = 0; i < w->nshape; i++) amax = amed = fmax(amax, w->arc ? w->arc[i].br : w->shape_r[i]);
    nl->amax = amax;
    nl->skin = w->skin > 0 ? w->skin : pala_nlist_default_skin(w, amed);
    if (w->arc) PALA_GROW(nl->ashape, w->nshape + 1);   /* the arcs' filter's constants (arc_faces) */
    if (w->arc) { amin += ARC_MARGIN * nl->skin; amax += ARC_MARGIN * nl->skin; nl->amax = amax; }   /* the arcs' bounding circles, widened (peb_rad) */
    /* levels: one grid unless the cells of the largest and the smallest differ by more than 2 */
    double h0 = 2 * amin + nl->skin, H = 2 * amax + nl->skin;
    nl->nlev = 1;
    if (amin > 0 && H > 2 * h0)
        for (double h = h0; h < H && nl->nlev < MAX_LEVELS; h *= 2) nl->nlev++;
    free(nl->lev);
    nl->lev = NULL;
    if (nl->nlev > 1) {
        /* h0, 2 h0, ... up to the first >= H */
        nl->lev = pala_xrealloc(NULL, (size_t)nl->nlev * sizeof *nl->lev);
        memset(nl->lev, 0, (size_t)nl->nlev * sizeof *nl->lev);
        double h = h0;
        for (int L = 0; L < nl->nlev; L++, h *= 2) {
            nl->lev[L].h = L + 1 < nl->nlev ? h : fmax(h, H);   /* the last holds the largest */
            nl->lev[L].inv = 1.0 / nl->lev[L].h;
        }
        PALA_GROW(nl->look, nl->nlev * nl->nlev);
    }
    if (!w->pg) {   /* spheres: pebble k is grain k, of one component */
        free(nl->prad);
        nl->prad = NULL;
        PALA_GROW(nl->trad, w->ntmpl + 1);
        for (int t = 0; t < w->ntmpl; t++) nl->trad[t] = w->shape_r[w->tmpl[t].comp0];
        nl->trad1 = w->ntmpl > 0 ? nl->trad[0] : 0;
        for (int t = 1; t < w->ntmpl; t++) nl->trad1 = nl->trad[t] == nl->trad1 ? nl->trad1 : 0;
        return;
    }
    PALA_GROW(nl->prad, w->npeb + 1);
    for (int k = 0; k < w->n; k++) {
        const pala_template *tp = &w->tmpl[w->tid[k]];
        int p0 = pala_grain_peb0(w, k);
        for (int i = 0; i < tp->ncomp; i++) nl->prad[p0 + i] = w->shape_r[tp->comp0 + i];
    }
}

/* The bucket of a cell in a hashed grid: a row of cells along x into consecutive buckets
 * (around() reads the three cells of a row as one range of buckets), the rows spread by a
 * hash of (iy, iz). */
static unsigned long row_hash(long iy, long iz) { return (unsigned long)iy * 19349663ul ^ (unsigned long)iz * 83492791ul; }
static unsigned cell_hash(long ix, long iy, long iz, int mask)
{
    return (unsigned)((row_hash(iy, iz) + (unsigned long)ix) & (unsigned long)mask);
}

static inline pala_vec3 peb_pos(const pala_world *w, int p)
{
    return w->parc ? pala_v(w->parc[p].bx, w->parc[p].by, 0) : w->pc ? w->pc[p] : w->x[p];
}
static inline double peb_rad(const pala_world *w, int p)
{
    return w->parc ? w->parc[p].br + ARC_MARGIN * w->nl->skin : pala_nlist_rad(w->nl, w->tid, p);
}

static void sort_row(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

/* A sorted row with each entry once; returns its length. */
static int unique(int *a, int n)
{
    int u = 0;
    for (int i = 0; i < n; i++)
        if (u == 0 || a[i] != a[u - 1]) a[u++] = a[i];
    return u;
}

/* The cell of coordinate x; clamped, so a position far out of range (a run gone unstable:
 * nlist_build says so) never converts out of the range of long. */
static inline long cell_of(const cellgrid *g, double x, double lo)
{
    double c = floor((x - lo) * g->inv);
    return c < 1e15 && c > -1e15 ? (long)c : c < 0 ? -1000000000000000L : 1000000000000000L;   /* NaN: the top */
}

static inline int bucket(const cellgrid *g, long ix, long iy, long iz)
{
    return g->dense ? (int)(ix + g->nx * (iy + g->ny * iz)) : (int)cell_hash(ix, iy, iz, g->nbucket - 1);
}

/* Pebble q belongs in the list with pebble p (of grain gp, at x, of radius ap): another
 * grain's, and the two spheres within the skin. */
static inline int near(const pala_world *w, int gp, pala_vec3 x, double ap, int q)
{
    const pala_nlist *nl = w->nl;
    int gq = pala_peb_grain(w, q);
    if (gq == gp) return 0;
    if (w->pg) {
        /* eq. (48) first: grains whose bounding spheres stay apart by more
         * than the skin have no component pair to list */
        double rb = w->tmpl[w->tid[gp]].bound_radius + w->tmpl[w->tid[gq]].bound_radius + nl->skin;
        if (pala_vnorm2(pala_vsub(w->x[gp], w->x[gq])) >= rb * rb) return 0;
    }
    /* spheres with skins of their own (pebble p is grain gp): reach_p + reach_q, as keep_spheres' */
    double rc = nl->sk ? nl->reach[gp] + nl->reach[q] : ap + peb_rad(w, q) + nl->skin;
    return pala_vnorm2(pala_vsub(x, peb_pos(w, q))) < rc * rc;
}

/* The pebbles of the 27 cells (9 in 2D) around the point x that exist: ranges [b[u], e[u])
 * of the cells' list (next); returns their number.  The three cells along x of each row are
 * one range (9 ranges, not 27 loops of 0 to 2 pebbles, whose ends were mispredicted): in a
 * dense grid they are consecutive cells, in a hashed one consecutive buckets (cell_hash;
 * two ranges where they wrap around). */
static int around(const pala_world *w, const cellgrid *g, pala_vec3 x, int b[27], int e[27])
{
    const int *cs = w->nl->head;
    long c[3] = {cell_of(g, x.x, g->lo.x), cell_of(g, x.y, g->lo.y), cell_of(g, x.z, g->lo.z)};
    long zr = w->dim == 2 ? 0 : 1, lo[3] = {c[0] - 1, c[1] - 1, c[2] - zr}, hi[3] = {c[0] + 1, c[1] + 1, c[2] + zr};
    int m = 0;
    if (g->dense) {   /* the cells that exist: the ranges clipped once, not each of the 27 tested */
        const long n[3] = {g->nx, g->ny, g->nz};
        for (int a = 0; a < 3; a++) {
            lo[a] = lo[a] < 0 ? 0 : lo[a];
            hi[a] = hi[a] > n[a] - 1 ? n[a] - 1 : hi[a];
        }
        for (long iz = lo[2]; iz <= hi[2]; iz++)
            for (long iy = lo[1]; iy <= hi[1]; iy++) {
                int r = (int)(g->nx * (iy + g->ny * iz));
                b[m] = cs[r + lo[0]];
                e[m++] = cs[r + hi[0] + 1];
            }
        return m;
    }
    const unsigned long mask = (unsigned long)g->nbucket - 1;
    for (long iz = lo[2]; iz <= hi[2]; iz++)
        for (long iy = lo[1]; iy <= hi[1]; iy++) {   /* the row's three buckets: one range, or two where they wrap */
            unsigned long h = row_hash(iy, iz);
            int k0 = (int)((h + (unsigned long)lo[0]) & mask), k2 = (int)((h + (unsigned long)hi[0]) & mask);
            if (k0 <= k2) {
                b[m] = cs[k0];
                e[m++] = cs[k2 + 1];
            } else {
                b[m] = cs[k0];
                e[m++] = cs[mask + 1];
                b[m] = cs[0];
                e[m++] = cs[k2 + 1];
            }
        }
    return m;
}

/* Spheres (pebble p is grain p, at x, of radius ap): of the candidates next[b .. e), those q > p
 * that near() keeps, appended to out from m; returns the new count.  near()'s test without
 * branches (a candidate is kept or not about as often, so the branches were mispredicted:
 * 40 % of the drum's mispredictions): every candidate is written, the count moves only for
 * those kept.  sk (a constant in each caller's instance): skins of their own, the pair's
 * reach a_p + a_q + skin (f_p + f_q)/2 = reach_p + reach_q. */
static inline __attribute__((always_inline)) int keep_spheres(const pala_world *w, int p, pala_vec3 x, double ap, int b, int e, int *out, int m,
                                                             const int sk)
{
    const pala_nlist *nl = w->nl;
    const int *cp = nl->next;
    const double rp = sk ? nl->reach[p] : ap;
    for (int i = b; i < e; i++) {
        int q = cp[i];
        double rc = sk ? rp + nl->reach[q] : rp + pala_nlist_rad(nl, w->tid, q) + nl->skin;
        out[m] = q;
        m += (q > p) & (pala_vnorm2(pala_vsub(x, w->x[q])) < rc * rc);
    }
    return m;
}

/* Row of pebble p into out (room for any row); returns its length. */
static int row(const pala_world *w, const cellgrid *g, int p, int *out)
{
    const pala_nlist *nl = w->nl;
    const int *cp = nl->next;
    pala_vec3 x = peb_pos(w, p);
    double ap = peb_rad(w, p);
    int gp = pala_peb_grain(w, p), cb[27], ce[27], nc = around(w, g, x, cb, ce), m = 0;
    if (!w->pg && !w->pc && !w->parc && nl->sk)
        for (int u = 0; u < nc; u++) m = keep_spheres(w, p, x, ap, cb[u], ce[u], out, m, 1);
    else if (!w->pg && !w->pc && !w->parc)
        for (int u = 0; u < nc; u++) m = keep_spheres(w, p, x, ap, cb[u], ce[u], out, m, 0);
    else
        for (int u = 0; u < nc; u++)
            for (int i = cb[u]; i < ce[u]; i++) {
                int q = cp[i];
                if (q <= p || !near(w, gp, x, ap, q)) continue;
                out[m++] = q;
            }
    sort_row(out, m);
    if (g->dense) return m;
    /* hashed: two of the cells in one bucket list its pebbles twice, next to each other
     * once sorted; kept once (cheaper than checking 27 buckets against each other, 351
     * comparisons a pebble, when collisions are rare) */
    return unique(out, m);
}

static inline int blk_peb0(const pala_world *w, int b)
{
    int k = b * PALA_BLOCK;
    if (k > w->n) k = w->n;
    return w->p0 ? w->p0[k] : k;
}

/* The edge of one grid's cells: the largest pair's reach, its skin at most skin fmax when the
 * spheres have factors of their own (sphere_skins). */
static double cell_edge(const pala_nlist *nl) { return 2 * nl->amax + nl->skin * (nl->sk ? nl->fmax : 1); }

static cellgrid the_grid(const pala_world *w)
{
    cellgrid g;
    g.lo = w->nl->glo;
    g.inv = 1.0 / cell_edge(w->nl);
    g.nx = w->nl->gn[0]; g.ny = w->nl->gn[1]; g.nz = w->nl->gn[2];
    g.dense = w->nl->dense;
    g.nbucket = w->nl->nbucket;
    return g;
}

/* Rows of thread t's pebbles into its buffer, or, for the rows that start the list, into
 * nbr itself (no second copy of them; only this thread touches nbr now); start[p + 1] = row
 * length. */
static void rows_job(void *ctx, int t, int b0, int b1)
{
    const pala_world *w = ctx;
    pala_nlist *nl = w->nl;
    struct nl_rows *S = &nl->rows[t];
    cellgrid g = the_grid(w);
    long n = 0;
    S->direct = b0 == 0;
    int **buf = S->direct ? &nl->nbr : &S->buf;
    long *cap = S->direct ? &nl->cap : &S->cap;
    for (int p = blk_peb0(w, b0); p < blk_peb0(w, b1); p++) {
        if (*cap - n < nl->maxrow || !*buf) { *cap = 2 * *cap + nl->maxrow + 1024; PALA_GROW(*buf, *cap); }
        int m = row(w, &g, p, *buf + n);
        nl->start[p + 1] = m;
        n += m;
    }
    S->n = n;
}

/* Thread t's new rows: in nbr, or in its buffer. */
static const int *rows_of(const pala_nlist *nl, int t) { return nl->rows[t].direct ? nl->nbr : nl->rows[t].buf; }

/* Thread t's rows into the list. */
static void copy_job(void *ctx, int t, int b0, int b1)
{
    const pala_world *w = ctx;
    const struct nl_rows *S = &w->nl->rows[t];
    int p0 = blk_peb0(w, b0), p1 = blk_peb0(w, b1);
    if (p1 <= p0) return;
    if (!S->direct) memcpy(w->nl->nbr + w->nl->start[p0], S->buf, (size_t)S->n * sizeof *S->buf);
    for (int p = p0; p < p1; p++)
        for (int s = w->nl->start[p]; s < w->nl->start[p + 1]; s++) w->nl->row[s] = p;
}

/* ---- contact history ------------------------------------------------------------------- */
void pala_nlist_history(pala_world *w, int hn)
{
    pala_nlist *nl = w->nl;
    if (hn == nl->hn) return;
    nl->hn = hn;
    free(nl->hs);
    free(nl->hl);
    nl->hs = NULL;
    nl->hl = NULL;
    nl->hcap = 0;
    nl->builds = 0;   /* rebuilt, with room for the states */
    nl->hvalid = 0;
}

void pala_nlist_history_room(pala_world *w, long nc)
{
    pala_nlist *nl = w->nl;
    if (nc + 1 > nl->hcap) {
        nl->hcap = nc + 16;
        PALA_GROW(nl->hs, nl->hcap * nl->hn);
        PALA_GROW(nl->hl, nl->hcap);
    }
    if (2 * nc > nl->rcap || !nl->row) {   /* the pairs, two ints each */
        nl->rcap = 2 * nc + 16;
        PALA_GROW(nl->row, nl->rcap);
    }
    nl->builds = 0;   /* the next step rebuilds, and places them */
}

/* Before a rebuild: the non-zero states moved to the front of hs in slot order (in place:
 * the write index never passes the read index), their pairs (p, q) to row[2c], row[2c + 1]
 * (p from start, q from nbr: row itself is not read, and nbr is free for the new rows).
 * Returns their number. */
static long compact_states(pala_nlist *nl, int npeb)
{
    if (nl->hpend) {   /* put back from a checkpoint: compacted already */
        long c = nl->hpend;
        nl->hpend = 0;
        return c;
    }
    if (!nl->hvalid || !nl->hs) return 0;
    const int hn = nl->hn;
    long c = 0, m = nl->start[npeb];
    if (2 * m > nl->rcap) {   /* room for every pair (only what is written is resident) */
        nl->rcap = 2 * m + 16;
        PALA_GROW(nl->row, nl->rcap);
    }
    for (int p = 0; p < npeb; p++)
        for (long s = nl->start[p]; s < nl->start[p + 1]; s++) {
            const double *x = nl->hs + s * hn;
            if (pala_state_zero(x, hn)) continue;
            if (c != s) memmove(nl->hs + c * hn, x, (size_t)hn * sizeof *x);
            nl->row[2 * c] = p;
            nl->row[2 * c + 1] = nl->nbr[s];
            c++;
        }
    return c;
}

/* After the new rows are built (rows_of, or in nbr if final) and start[] holds the new offsets: each
 * compacted state c (pair row[2c], row[2c + 1]) moves to its pair's new slot s >= c, found by
 * a binary search of the sorted new row; from the last to the first, so no state is
 * overwritten before it moves; the slots between get zeros.  Every pair that touched at
 * the last evaluation is in the new list (it is within the skin), so none is lost; a
 * state whose pair is missing (the grains were moved by the caller) is dropped. */
static void expand_states(pala_world *w, long nc, int final)
{
    pala_nlist *nl = w->nl;
    const int hn = nl->hn, n = w->npeb;
    long m = nl->start[n];
    if (m + 1 > nl->hcap) {
        nl->hcap = m + m / 8 + 16;
        PALA_GROW(nl->hs, nl->hcap * hn);
        PALA_GROW(nl->hl, nl->hcap);
    }
    memset(nl->hl, 0, (size_t)m);
    int t = pala_team_size(w->team) - 1;
    long hi = m, kept = 0;   /* slots [hi, m) are final */
    for (long c = nc - 1; c >= 0; c--) {
        int p = nl->row[2 * c], q = nl->row[2 * c + 1];
        if (p < 0 || p >= n) continue;
        while (!final && t > 0 && blk_peb0(w, w->team->split[t]) > p) t--;
        const int *r = final ? nl->nbr + nl->start[p] : rows_of(nl, t) + (nl->start[p] - nl->start[blk_peb0(w, w->team->split[t])]);
        long lo = 0, len = nl->start[p + 1] - nl->start[p];
        while (len > 0) {   /* the first entry >= q */
            long h = len / 2;
            if (r[lo + h] < q) { lo += h + 1; len -= h + 1; } else len = h;
        }
        if (nl->start[p] + lo >= nl->start[p + 1] || r[lo] != q) continue;
        long s = nl->start[p] + lo;
        if (s + 1 < hi) memset(nl->hs + (s + 1) * hn, 0, (size_t)(hi - s - 1) * hn * sizeof *nl->hs);
        if (s != c) memmove(nl->hs + s * hn, nl->hs + c * hn, (size_t)hn * sizeof *nl->hs);
        nl->hl[s] = 1;
        hi = s;
        kept++;
    }
    if (hi > 0) memset(nl->hs, 0, (size_t)hi * hn * sizeof *nl->hs);
    nl->hkept = kept;
}

/* Positions beyond any sane range (1e12 cells across, or not finite): the run is unstable,
 * the step says so (the cells are still built, clamped). */
static int out_of_range(pala_world *w, int finite, pala_vec3 lo, pala_vec3 hi, const double ext[3])
{
    int bad = !finite || !(ext[0] < 1e12 && ext[1] < 1e12 && ext[2] < 1e12);
    if (bad && !w->why[0])
        snprintf(w->why, sizeof w->why,
                 "grains left any sane range at t = %.6g s (step %ld): they spread over %.3g m, %.3g cells of the "
                 "neighbour search; the time step is far too large for the velocities and forces: reduce dt",
                 w->t, w->step, fmax(fmax(hi.x - lo.x, hi.y - lo.y), hi.z - lo.z), fmax(fmax(ext[0], ext[1]), ext[2]));
    return bad;
}

/* Buckets of a grid of ncell cells for n pebbles: the cells themselves if dense (at most
 * `per` cells a pebble), else a hash of >= 4 n (a power of 2, at least 16): each pebble
 * scans 27 buckets, and with about one bucket a pebble many of them hold another cell's
 * pebbles, each a distance computed in vain (bench/pour: 4 n buckets, 8 % fewer
 * instructions than n; 8 n 0.6 % fewer again). */
static int buckets(cellgrid *g, int bad, double ncell, int n, const double ext[3], double per)
{
    g->dense = !bad && ncell <= per * n + 16;
    if (g->dense) {
        g->nx = (long)ext[0]; g->ny = (long)ext[1]; g->nz = (long)ext[2];
        return g->nbucket = (int)ncell;
    }
    int nb = 16;
    while (nb < 4L * n && nb < 1 << 30) nb *= 2;
    return g->nbucket = nb;
}

/* Counting sort of the pebbles by bucket (bof[p]; each bucket in increasing order) into
 * head (nb + 1 starts) and next. */
static void sort_buckets(pala_nlist *nl, const int *bof, int n, int nb)
{
    int *cs = nl->head, *cp = nl->next;
    for (int b = 0; b < nb; b++) cs[b + 1] += cs[b];
    for (int p = 0; p < n; p++) cp[cs[bof[p]]++] = p;
    for (int b = nb; b > 0; b--) cs[b] = cs[b - 1];
    cs[0] = 0;
}

/* Cells of edge 1/inv over the points X[0 .. n) (pebbles, or an arc world's grains), dense over
 * their bounding box if it has at most 2 cells per point, else hashed: head, next (the points
 * by bucket), glo, gn, dense, nbucket; bad if a point (or, finite = 0, the caller's) is not
 * finite.  Returns the most points of one bucket. */
static long fill_cells(pala_world *w, const pala_vec3 *X, int n, double inv, int finite)
{
    pala_nlist *nl = w->nl;
    pala_vec3 lo = n ? X[0] : pala_v(0, 0, 0), hi = lo;
    for (int p = 0; p < n; p++) {
        pala_vec3 x = X[p];
        finite &= isfinite(x.x) && isfinite(x.y) && isfinite(x.z);
        lo = pala_v(fmin(lo.x, x.x), fmin(lo.y, x.y), fmin(lo.z, x.z));
        hi = pala_v(fmax(hi.x, x.x), fmax(hi.y, x.y), fmax(hi.z, x.z));
    }
    double ext[3] = {floor((hi.x - lo.x) * inv) + 1, floor((hi.y - lo.y) * inv) + 1, floor((hi.z - lo.z) * inv) + 1};
    nl->bad = out_of_range(w, finite, lo, hi, ext);
    nl->glo = lo;
    cellgrid g = {0};
    int nb = buckets(&g, nl->bad, ext[0] * ext[1] * ext[2], n, ext, 2);
    nl->dense = g.dense;
    nl->gn[0] = g.nx; nl->gn[1] = g.ny; nl->gn[2] = g.nz;
    if (nb + 1 > nl->capb || !nl->head) { nl->capb = nb + 1; PALA_GROW(nl->head, nl->capb); }
    nl->nbucket = nb;
    g.lo = lo;
    g.inv = inv;
    int *cs = nl->head, *bof = nl->start;   /* start holds the buckets for now */
    memset(cs, 0, (size_t)(nb + 1) * sizeof *cs);
    for (int p = 0; p < n; p++) {
        pala_vec3 x = X[p];
        bof[p] = bucket(&g, cell_of(&g, x.x, lo.x), cell_of(&g, x.y, lo.y), cell_of(&g, x.z, lo.z));
        cs[bof[p] + 1]++;
    }
    sort_buckets(nl, bof, n, nb);
    long most = 0;
    for (int b = 0; b < nb; b++) most = cs[b + 1] - cs[b] > most ? cs[b + 1] - cs[b] : most;
    return most;
}

/* One grid: cells of edge 2 a_max + skin, dense over the bounding box if it has at most 2
 * cells per pebble.  Sets head, next, maxrow. */
static void one_grid(pala_world *w)
{
    pala_nlist *nl = w->nl;
    long most = fill_cells(w, w->pc ? w->pc : w->x, w->npeb, 1.0 / cell_edge(nl), 1);
    /* the longest possible row: the pebbles of the 27 (9 in 2D) buckets around one */
    nl->maxrow = (w->dim == 2 ? 9 : 27) * most;
}

/* ---- arc grains: the rows from the grains' cells ----------------------------------------
 * An arc world lists the same pairs as near() does (the grains' bounding circles within the
 * skin, then the arcs' bounding circles), but finds them as the seed does (Potapov and
 * Campbell: grains by their bounding circles, then their arcs pairwise): cells of grains,
 * edge 2 b_max + skin, and for pebble p of grain k the pebbles of the grains j > k near k, in
 * increasing order, so each row comes out sorted.  A pebble's cells held 8 grains' 48 arcs
 * of two sizes (levels); grain k's hold its few neighbours (bench/arcs/triangle.txt: the
 * build 3x fewer instructions). */
static double grain_cell(const pala_world *w)
{
    double b = 0;
    for (int t = 0; t < w->ntmpl; t++) b = fmax(b, w->tmpl[t].bound_radius);
    return 2 * b + w->nl->skin * w->nl->fmax;   /* a pair's skin is at most skin fmax (arc_skins) */
}

/* ---- The arcs' faces: the angular filter of the build ------------------------------------
 * Two listed arcs p (of grain k) and q (of grain j) touch only if the line between their
 * circles' centres lies within both arcs' ranges (eq. A5).  The build lists a pair within
 * the skin only if that can hold at some evaluation before the next build; the argument is
 * docs/physics.md's ("Arc grains", "The arcs' faces at the build"), in short:
 *  - the list is used while nl->rdrift <= 0.45 skin, and each half step adds to it, for
 *    every grain, h|v - u| + 2|q| s_max, the grain turning by 2 atan|q| <= 2|q| about z; so
 *    until the next build (D = 0.5 skin) grain k turns by at most Theta_k = D / s_max(k)
 *    (th) and a point at |s| from x_k moves by at most D max(1, |s| / s_max(k)) (D_p);
 *  - in the frame of grain k, c_p and m_p stay put and c_q moves by at most
 *    E_p = D max(1, |c_q - x_k| / s_max(k)) + D_q, so the line from c_p to c_q turns by at
 *    most asin(E_p / |d|) against m_p: (A8) on p's side (side_apart), likewise on q's;
 *  - and the circles cannot overlap while |d| - D_p - D_q >= a_p + a_q (eq. 49).
 * Margins of 1e-6 (rad, relative) cover the rounding.  A pair that holds a contact state
 * (it touched at the last evaluation, before the build: kq) is listed whatever the test, so
 * its end is seen and counted as before (force_pass.c, pair_ended).  Positions and angles
 * are those of x and r now (a grain that was not live has stale pebbles, force_pass.c);
 * a world with a grain turned off the plane is not filtered. */
typedef struct pala_arcpeb arcpeb;
#define ARC_TURN 0.5   /* D / skin: the displacement bound the list's tests rely on */

/* The filter's data of every pebble (nl->apeb; nl->afilt) and the pairs that hold a state
 * (nl->kst, nl->kq: the nc compacted pairs row[2c], row[2c + 1], by p). */
static void arc_faces(pala_world *w, long nc)
{
    pala_nlist *nl = w->nl;
    nl->afilt = w->dim == 2;
    for (int k = 0; k < w->n && nl->afilt; k++) nl->afilt = w->r[k].x == 0 && w->r[k].y == 0;
    if (!nl->afilt) return;
    if (nc + 1 > nl->kqcap) { nl->kqcap = nc + nc / 8 + 16; PALA_GROW(nl->kq, nl->kqcap); }
    const double D = ARC_TURN * nl->skin;
    nl->adisp = D * (1 + 1e-6);   /* with the margins of rounding, as th and D_p */
    for (int t = 0; t < w->ntmpl; t++) {   /* per component of each template: cos b, sin b, D_p */
        const pala_template *tp = &w->tmpl[t];
        double sm = 0;
        for (int i = 0; i < tp->ncomp && tp->ncomp > 1; i++) sm = fmax(sm, hypot(w->arc[tp->comp0 + i].bx, w->arc[tp->comp0 + i].by));
        for (int i = 0; i < tp->ncomp; i++) {
            const pala_arcrange *a = &w->arc[tp->comp0 + i];
            double b = tp->ncomp > 1 && sm > 0 && a->ch > -1 ? acos(fmin(a->ch, 1.0)) + 1e-6 : PALA_PI;   /* h_p */
            arcpeb *o = &nl->ashape[tp->comp0 + i];
            o->cb = b < 0.5 * PALA_PI ? cos(b) : -2;
            o->sb = b < 0.5 * PALA_PI ? sin(b) : 0;
            o->th = sm > 0 ? D / sm * (1 + 1e-6) : 0;   /* Theta_k (unused on a side not filtered) */
            o->D = D * (sm > 0 ? fmax(1.0, hypot(w->shape[tp->comp0 + i].x, w->shape[tp->comp0 + i].y) / sm) : 1.0) * (1 + 1e-6);
            o->T = nl->adisp;
        }
    }
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        const pala_vec3 r = w->r[k], x = w->x[k];
        const double rho = r.z * r.z, c = 2.0 / (1.0 + rho), cs = c * 0.5 * (1.0 - rho), sn = c * r.z;   /* eqs. (11)-(13) about z */
        const double f = nl->fk[k];   /* D_k = f_k D: its turn, its path and its pebbles' (arc_skins) */
        for (int i = 0; i < t->ncomp; i++) {
            const pala_vec3 s = w->shape[t->comp0 + i];
            const pala_arcrange *a = &w->arc[t->comp0 + i];
            arcpeb *o = &nl->apeb[w->p0[k] + i];
            *o = nl->ashape[t->comp0 + i];
            o->th *= f;
            o->D *= f;
            o->T *= f;
            o->cx = x.x + cs * s.x - sn * s.y;
            o->cy = x.y + sn * s.x + cs * s.y;
            o->mx = cs * a->mx - sn * a->my;
            o->my = sn * a->mx + cs * a->my;
        }
    }
    int *ks = nl->kst;   /* counting sort of the kept pairs by p */
    memset(ks, 0, (size_t)(w->npeb + 2) * sizeof *ks);
    for (long c = 0; c < nc; c++) {
        int p = nl->row[2 * c];
        if (p >= 0 && p < w->npeb) ks[p + 2]++;
    }
    for (int p = 0; p < w->npeb; p++) ks[p + 2] += ks[p + 1];
    for (long c = 0; c < nc; c++) {
        int p = nl->row[2 * c];
        if (p >= 0 && p < w->npeb) nl->kq[ks[p + 1]++] = nl->row[2 * c + 1];
    }
}

/* (A8) on p's side, for four pairs at once (lane by lane): the line from c_p to c_q (d = c_p
 * - c_q, L2 = |d|^2 at the build) stays off p's range until the next build; the other
 * circle's centre c_q moves, in the frame of p's grain k (centre xk, yk), by at most
 * D max(1, |c_q - x_k| / s_max(k)) + D_q (see above).  P and Q: the pebbles' arcpeb fields
 * as columns (ARC_CX ...); all ones where apart. */
enum { ARC_CX, ARC_CY, ARC_MX, ARC_MY, ARC_CB, ARC_SB, ARC_D, ARC_TH, ARC_T, ARC_NF };
static inline v4l side_apart(const v4d P[ARC_NF], const v4d Q[ARC_NF], v4d xk, v4d yk, v4d dx, v4d dy, v4d L2)
{
    const v4d rx = Q[ARC_CX] - xk, ry = Q[ARC_CY] - yk, e = sqrt4(rx * rx + ry * ry) * P[ARC_TH];
    const v4d E = sel4((v4l)(e > P[ARC_T]), e, P[ARC_T]) + Q[ARC_D], E2 = E * E;
    return (v4l)(P[ARC_CB] > -1) & (v4l)(L2 > E2) & (v4l)(-(dx * P[ARC_MX] + dy * P[ARC_MY]) + P[ARC_SB] * E < P[ARC_CB] * sqrt4(L2 - E2));   /* (A8); cb = -2: a side not filtered */
}

/* Of the pebble pairs (pp[i], qq[i]), i in [0, n), that the list's distance test passed: far[i]
 * = 1 if they cannot touch until the next build (eq. (49) with the bounds D_p + D_q, or (A8)
 * on either side; see above), four pairs at a time, without a branch (a pair's tests went
 * either way: about 2 in 5 pass the first facing test).  Whether the pair holds a state is
 * the caller's (rows_job_arcs). */
static void arcs_apart(const pala_world *w, const int *pp, const int *qq, int n, unsigned char *far)
{
    const pala_nlist *nl = w->nl;
    for (int i = 0; i < n; i += 4) {
        v4d P[ARC_NF], Q[ARC_NF], rp = bc4(0), rq = rp, xp = rp, yp = rp, xq = rp, yq = rp;
        for (int l = 0; l < 4; l++) {   /* past n: the last pair again, its answer not kept */
            const int p = pp[i + l < n ? i + l : n - 1], q = qq[i + l < n ? i + l : n - 1];
            const arcpeb *a = &nl->apeb[p], *b = &nl->apeb[q];
            const double fa[ARC_NF] = {a->cx, a->cy, a->mx, a->my, a->cb, a->sb, a->D, a->th, a->T};
            const double fb[ARC_NF] = {b->cx, b->cy, b->mx, b->my, b->cb, b->sb, b->D, b->th, b->T};
            for (int f = 0; f < ARC_NF; f++) { P[f][l] = fa[f]; Q[f][l] = fb[f]; }
            rp[l] = nl->prad[p];
            rq[l] = nl->prad[q];
            const pala_vec3 x = w->x[w->pg[p]], y = w->x[w->pg[q]];
            xp[l] = x.x; yp[l] = x.y; xq[l] = y.x; yq[l] = y.y;
        }
        const v4d dx = P[ARC_CX] - Q[ARC_CX], dy = P[ARC_CY] - Q[ARC_CY], L2 = dx * dx + dy * dy, E = P[ARC_D] + Q[ARC_D];
        const v4d sr = (rp + rq) * (1 + 1e-6) + E;
        const v4l apart = (v4l)(L2 > sr * sr) |                     /* eq. (49): |d| - E > a_p + a_q */
                          side_apart(P, Q, xp, yp, dx, dy, L2) |    /* (A8), p's side */
                          side_apart(Q, P, xq, yq, -dx, -dy, L2);   /* q's */
        for (int l = 0; l < 4 && i + l < n; l++) far[i + l] = apart[l] != 0;
    }
}

/* ---- Skins of their own: the arc grains' factors f_k ---------------------------------------
 * A settled bed is seldom quite at rest: a few grains still rattle, and the list's bound
 * follows the fastest (bench/arcs/triangle.txt at step 46,900: one grain moves 0.46 skin
 * between two builds, 7 more than 0.2 skin, the rest less than 0.1; a build every 14 steps,
 * against every 77 for the round grains' box).  So each grain k takes a skin factor f_k >= 1
 * at the build, from how fast it moves then, and the argument of the list holds per grain:
 *  - a pair of grains k, j is listed with the skin S_kj = skin (f_k + f_j)/2 in each test
 *    (the grains' bounding circles, the arcs', areach), and each grain k may move by
 *    0.45 skin f_k until the next build, so the two by 0.9 S_kj, as two grains of f = 1 by
 *    0.9 skin before;
 *  - the end of the step adds to the list's bounds (nl->rdrift, nl->drift) each grain's
 *    displacement bound divided by f_k (integrator.c, end_planar; the other paths add it
 *    whole, which is larger), so the bound 0.45 skin on the sum holds grain k's path to
 *    0.45 skin f_k;
 *  - the arcs' faces (arc_faces, side_apart) take D_k = f_k D for grain k's turn and path;
 *  - the walls' candidates are those within the bounding radius and skin f_k
 *    (force_pass.c, candidates_job).
 * The listed pairs that touch are the same whatever the factors, summed in the same order,
 * so the results are the same bits.  f_k = v_k / v_ref, at most ARC_FMAX, for the grains
 * faster than v_ref, the speed of the ARC_FAST-th part of the grains that move fastest
 * (v_k = |v_k - u| + |omega_k| b_k, u the list's frame, b_k the bounding radius): a few
 * fast grains list more pairs (few: the arcs' faces), and the list lives until the rest or
 * they have moved their part. */
enum { ARC_FAST = 20 };   /* v_ref: the speed of the fastest 1/20 of the grains */
#define ARC_FMAX 4.0      /* the largest f_k */

/* The element of rank r (in increasing order) of a[0 .. n), which it reorders (Hoare's
 * selection: the same for the same a). */
static double select_rank(double *a, int n, int r)
{
    int lo = 0, hi = n - 1;
    while (lo < hi) {
        const double piv = a[lo + (hi - lo) / 2];
        int i = lo, j = hi;
        while (i <= j) {
            while (a[i] < piv) i++;
            while (a[j] > piv) j--;
            if (i <= j) { double t = a[i]; a[i] = a[j]; a[j] = t; i++; j--; }
        }
        if (r <= j) hi = j;
        else if (r >= i) lo = i;
        else break;
    }
    return a[r];
}

/* Grain k's speed in the frame moving at u, m/s: with turn (its pebbles turn with it: arcs)
 * |v - u| + |omega| b, b its bounding radius; a sphere's pebble is its centre. */
static inline double grain_speed(const pala_world *w, int k, pala_vec3 u, const int turn)
{
    return pala_vnorm(pala_vsub(w->v[k], u)) + (turn ? pala_vnorm(w->w[k]) * w->tmpl[w->tid[k]].bound_radius : 0);
}

/* Each grain's skin factor f_k (nl->fk), 1/f_k (nl->gk) and the largest (nl->fmax), from the
 * grains' speeds in the list's frame (nl->frame) now: v_ref the speed of rank `rank` in
 * increasing order, f_k = v_k / v_ref for the faster grains, at most fcap; turn: a grain's
 * pebbles turn with it (v_k takes |omega_k| b_k; a sphere's pebble is its centre). */
static void grain_skins(pala_world *w, int rank, double fcap, const int turn)
{
    pala_nlist *nl = w->nl;
    const int n = w->n;
    if (nl->nfk < n + 1) { nl->nfk = n + 1; PALA_GROW(nl->fk, nl->nfk); PALA_GROW(nl->gk, nl->nfk); }
    const pala_vec3 u = nl->frame;
    for (int k = 0; k < n; k++) {
        double v = grain_speed(w, k, u, turn);
        nl->fk[k] = nl->gk[k] = v < HUGE_VAL ? v : 0;   /* not finite: f_k = 1 (the step says so) */
    }
    const double vref = n > 0 ? select_rank(nl->gk, n, rank) : 0;
    nl->fmax = 1;
    for (int k = 0; k < n; k++) {
        const double v = nl->fk[k], f = v > vref ? (v < fcap * vref ? v / vref : fcap) : 1;
        nl->fk[k] = f;
        nl->gk[k] = 1 / f;
        nl->fmax = f > nl->fmax ? f : nl->fmax;
    }
}

/* Fast grains among slow ones (docs/physics.md, "Neighbour list": "Skins of their own,
 * spheres"): a pour's or a hopper's few falling grains, not the bed they fall on, set how
 * long the list lives.  While the fastest grain would end the list within FAST_STEPS steps
 * (0.45 skin at its speed in the list's frame), v_ref is the median speed, so a minority of
 * fast grains (fewer than half) takes factors up to FAST_FMAX, and the list is counted at
 * rest rather than in the frame of the velocities' box when that grows its bound more
 * slowly (max(v_ref, v_max / FAST_FMAX)): under falling grains a bed at rest would move in
 * that frame.  Returns 0, having changed nothing, when the list lives longer than that (a
 * bed at rest, a drum whose list lives about 48 steps). */
#define FAST_FMAX 4.0
#define FAST_STEPS 30.0

/* The largest and the median speed of the grains in the frame moving at u, m/s (a: the
 * speeds' room, reordered). */
static void speeds(const pala_world *w, pala_vec3 u, const int turn, double *a, double *vmax, double *vmed)
{
    double m = 0;
    for (int k = 0; k < w->n; k++) {
        const double v = grain_speed(w, k, u, turn);
        a[k] = v < HUGE_VAL ? v : 0;   /* not finite: as grain_skins takes it (the step says so) */
        m = a[k] > m ? a[k] : m;
    }
    *vmax = m;
    *vmed = select_rank(a, w->n, (w->n - 1) / 2);
}

static int fast_skins(pala_world *w, const int turn)
{
    pala_nlist *nl = w->nl;
    const double L = 0.45 * nl->skin / (w->dt * FAST_STEPS);   /* m/s */
    double v2 = 0;   /* the fastest, squared, in the list's frame: spheres' without a root each */
    for (int k = 0; k < w->n; k++) {
        const double v = turn ? grain_speed(w, k, nl->frame, 1) : 0, a = turn ? v * v : pala_vnorm2(pala_vsub(w->v[k], nl->frame));
        v2 = a > v2 ? a : v2;
    }
    if (!(v2 > L * L)) return 0;
    if (nl->nfk < w->n + 1) { nl->nfk = w->n + 1; PALA_GROW(nl->fk, nl->nfk); PALA_GROW(nl->gk, nl->nfk); }
    const pala_vec3 rest = pala_v(0, 0, 0);
    double m0, d0, m1, d1;
    speeds(w, nl->frame, turn, nl->gk, &m0, &d0);
    speeds(w, rest, turn, nl->gk, &m1, &d1);
    if (fmax(d1, m1 / FAST_FMAX) < fmax(d0, m0 / FAST_FMAX)) nl->frame = rest;
    grain_skins(w, (w->n - 1) / 2, FAST_FMAX, turn);
    return 1;
}

/* An arc world's factors: fast_skins's, or the fastest twentieth's (a few rattlers in a
 * settled bed). */
static void arc_skins(pala_world *w)
{
    if (!fast_skins(w, 1)) grain_skins(w, w->n - 1 - w->n / ARC_FAST, ARC_FMAX, 1);
}

/* A world of spheres (discs in 2D), of one grid or of levels of cells: fast_skins's factors,
 * else none.  The cells grow by the largest factor (cell_edge; a level's search reaches by
 * it, reach); a mesh lists the faces near a sphere within its skin f_k
 * (surface.c).  nl->sk: some factor exceeds 1 (else fk is all ones, and the build, the sweep
 * and the end of the step are those without factors); nl->reach: each sphere's radius and
 * half its skin. */
static void sphere_skins(pala_world *w)
{
    pala_nlist *nl = w->nl;
    int on = !w->pg && !w->pc && !w->parc && w->n > 0 && !nl->nosk;
    nl->sk = 0;
    if (!on || !fast_skins(w, 0)) {
        /* factors of an earlier build (which the walls' candidates and the meshes read while
         * fk is there), for fewer grains perhaps (an inserter's since), of a world that
         * qualified then */
        if (nl->fk) {
            if (nl->nfk < w->n + 1) { nl->nfk = w->n + 1; PALA_GROW(nl->fk, nl->nfk); PALA_GROW(nl->gk, nl->nfk); }
            for (int k = 0; k < w->n; k++) nl->fk[k] = nl->gk[k] = 1;
        }
        nl->fmax = 1;
        return;
    }
    if (!(nl->fmax > 1)) return;
    nl->sk = 1;
    if (nl->nreach < w->n + 1) { nl->nreach = w->n + 1; PALA_GROW(nl->reach, nl->nreach); }
    for (int k = 0; k < w->n; k++) nl->reach[k] = pala_nlist_rad(nl, w->tid, k) + 0.5 * nl->skin * nl->fk[k];
}

/* The grains into cells (head, next), as one_grid the pebbles; maxrow; the filter's data
 * (arc_faces, nc compacted states). */
static void grain_grid(pala_world *w, long nc)
{
    pala_nlist *nl = w->nl;
    int n = w->n;
    arc_skins(w);
    double inv = 1.0 / grain_cell(w);
    pala_world_arc_bounds(w);   /* the arcs' bounding circles, which rows_job_arcs reads (grain.h) */
    PALA_GROW(nl->areach, w->ntmpl + 1);
    for (int t = 0; t < w->ntmpl; t++) {   /* the farthest reach of a template's widened bounding circles */
        const pala_template *tp = &w->tmpl[t];
        nl->areach[t] = 0;
        for (int i = 0; i < tp->ncomp; i++) {
            const pala_arcrange *a = &w->arc[tp->comp0 + i];
            nl->areach[t] = fmax(nl->areach[t], hypot(a->bx, a->by) + a->br + ARC_MARGIN * nl->skin);
        }
    }
    arc_faces(w, nc);
    int finite = 1;   /* the arcs' bounding circles, placed just now (fill_cells checks the grains) */
    for (int p = 0; p < w->npeb; p++) finite &= isfinite(w->parc[p].bx) && isfinite(w->parc[p].by);
    long most = fill_cells(w, w->x, n, inv, finite), comp = 1;
    for (int t = 0; t < w->ntmpl; t++) comp = w->tmpl[t].ncomp > comp ? w->tmpl[t].ncomp : comp;
    nl->maxrow = (w->dim == 2 ? 9 : 27) * most * comp;
}

/* The grains j > k whose bounding spheres come within the skin of grain k's (near()'s
 * test, the same operations), in increasing order, into out; returns their number. */
static int grains_near(const pala_world *w, const cellgrid *g, int k, int *out)
{
    const pala_nlist *nl = w->nl;
    const int *cp = nl->next;
    pala_vec3 x = w->x[k];
    double bk = w->tmpl[w->tid[k]].bound_radius, fk = nl->fk[k];
    int cb[27], ce[27], nc = around(w, g, x, cb, ce), m = 0;
    for (int u = 0; u < nc; u++)
        for (int i = cb[u]; i < ce[u]; i++) {
            int j = cp[i];
            double rb = bk + w->tmpl[w->tid[j]].bound_radius + 0.5 * nl->skin * (fk + nl->fk[j]);   /* the pair's skin (arc_skins) */
            if (j > k && pala_vnorm2(pala_vsub(x, w->x[j])) < rb * rb) out[m++] = j;
        }
    sort_row(out, m);
    return g->dense ? m : unique(out, m);
}

/* Rows of thread t's pebbles (as rows_job), grain by grain: each pebble of grain k against
 * the pebbles of the grains near it (grains_near), near() past the grains' test. */
static void rows_job_arcs(void *ctx, int t, int b0, int b1)
{
    const pala_world *w = ctx;
    pala_nlist *nl = w->nl;
    struct nl_rows *S = &nl->rows[t];
    cellgrid g = the_grid(w);
    g.inv = 1.0 / grain_cell(w);
    long n = 0;
    S->direct = b0 == 0;
    int **buf = S->direct ? &nl->nbr : &S->buf;
    long *cap = S->direct ? &nl->cap : &S->cap;
    int comp = 1;   /* the most pebbles of a grain */
    for (int u = 0; u < w->ntmpl; u++) comp = w->tmpl[u].ncomp > comp ? w->tmpl[u].ncomp : comp;
    const long C = (long)comp * nl->maxrow;   /* room for a grain's candidates */
    if (S->rcap < nl->maxrow + 2 * C || !S->rbuf) { S->rcap = nl->maxrow + 2 * C + 1024; PALA_GROW(S->rbuf, S->rcap); }   /* the grains near k, then the candidates' p and answers */
    int *cp = S->rbuf + nl->maxrow;   /* the candidates' own pebbles */
    unsigned char *far = (unsigned char *)(cp + C);
    const double skin = nl->skin, *fk = nl->fk;
    const int filt = nl->afilt, kept = filt && nl->kst[w->npeb] > 0;   /* kept: some pair holds a state (arc_faces) */
    for (int k = b0 * PALA_BLOCK; k < pala_block_end(w->n, b1 - 1) && b1 > b0; k++) {
        int ng = grains_near(w, &g, k, S->rbuf);
        if (*cap - n < C || !*buf) { *cap = 2 * *cap + C + 1024; PALA_GROW(*buf, *cap); }
        int *out = *buf + n, m = 0;
        /* the candidates of grain k's rows, p by p: each pebble of a grain near k whose
         * bounding circle comes within the pair's skin of p's (written past the end of the
         * run of candidates, which moves on only if it does: no branch per pebble) */
        for (int p = w->p0[k]; p < w->p0[k + 1]; p++) {
            const int m0 = m;
            const pala_vec3 x = peb_pos(w, p);
            const double ap = peb_rad(w, p);
            for (int i = 0; i < ng; i++) {
                const int j = S->rbuf[i];
                const double sk = 0.5 * skin * (fk[k] + fk[j]);   /* the pair's skin (arc_skins) */
                /* none of grain j's pebbles if p's circle stays off the circle about x_j that
                 * holds them all (nl->areach: a pebble q passing the test below is within
                 * ap + a_q + sk of p, so x_j within ap + |b_q| + a_q + sk) */
                double rj = (ap + nl->areach[w->tid[j]] + sk) * (1 + 1e-9);
                if (pala_vnorm2(pala_vsub(x, w->x[j])) >= rj * rj) continue;
                for (int q = w->p0[j]; q < w->p0[j + 1]; q++) {
                    double rc = ap + peb_rad(w, q) + sk;
                    out[m] = q;
                    cp[m] = p;
                    m += pala_vnorm2(pala_vsub(x, peb_pos(w, q))) < rc * rc;
                }
            }
            nl->start[p + 1] = m - m0;
        }
        if (filt) {   /* then the arcs' faces, of all grain k's candidates at once; those listed closed up */
            arcs_apart(w, cp, out, m, far);
            int c = 0;
            for (int i = 0; i < m; i++) {
                const int p = cp[i], q = out[i];
                int apart = far[i];
                for (int u = kept ? nl->kst[p] : 0; u < (kept ? nl->kst[p + 1] : 0) && apart; u++) apart = nl->kq[u] != q;   /* a pair that holds a state is listed (see above) */
                out[c] = q;
                c += !apart;
                nl->start[p + 1] -= apart;
            }
            m = c;
        }
        n += m;
    }
    S->n = n;
}

/* ---- the levels' cells and rows (see "Levels" above) ----------------------------------- */
/* The reach of a search from a pebble of level a (radius up to its amax) into level b: the
 * centre distance within which a pair may be listed, with room for rounding. */
static inline double reach(const pala_nlist *nl, double ap, const nl_level *b) { return (ap + b->amax + nl->skin * nl->fmax) * (1 + 1e-9); }

/* The most cells of level b a pebble of level a visits. */
static double cells_visited(const pala_world *w, const nl_level *a, const nl_level *b)
{
    double r = reach(w->nl, a->amax, b), c = 1;
    const long gn[3] = {b->g.nx, b->g.ny, b->g.nz};
    for (int i = 0; i < (w->dim == 2 ? 2 : 3); i++) {
        double k = floor(2 * r * b->inv) + 2;
        c *= b->g.dense && k > (double)gn[i] ? (double)gn[i] : k;
    }
    return c;
}

/* The levels' grids (each dense or hashed as one grid is), their buckets one after another in
 * head; which level searches which (look: the side that visits fewer cells in all); maxrow. */
static void level_grids(pala_world *w)
{
    pala_nlist *nl = w->nl;
    int n = w->npeb, nlev = nl->nlev, finite = 1;
    for (int L = 0; L < nlev; L++) { nl->lev[L].count = 0; nl->lev[L].amax = 0; nl->lev[L].most = 0; }
    int *bof = nl->start;   /* each pebble's level for now, then its bucket */
    for (int p = 0; p < n; p++) {
        pala_vec3 x = peb_pos(w, p);
        double a = peb_rad(w, p);
        int L = level_of(nl, a);
        nl_level *lv = &nl->lev[L];
        bof[p] = L;
        finite &= isfinite(x.x) && isfinite(x.y) && isfinite(x.z);
        if (lv->count++ == 0) lv->g.lo = lv->hi = x;
        lv->g.lo = pala_v(fmin(lv->g.lo.x, x.x), fmin(lv->g.lo.y, x.y), fmin(lv->g.lo.z, x.z));
        lv->hi = pala_v(fmax(lv->hi.x, x.x), fmax(lv->hi.y, x.y), fmax(lv->hi.z, x.z));
        lv->amax = fmax(lv->amax, a);
    }
    double ext[MAX_LEVELS][3];
    nl->bad = 0;
    for (int L = 0; L < nlev; L++) {
        nl_level *lv = &nl->lev[L];
        for (int i = 0; i < 3; i++) ext[L][i] = 1;
        if (!lv->count) continue;
        pala_vec3 lo = lv->g.lo, hi = lv->hi;
        ext[L][0] = floor((hi.x - lo.x) * lv->inv) + 1; ext[L][1] = floor((hi.y - lo.y) * lv->inv) + 1; ext[L][2] = floor((hi.z - lo.z) * lv->inv) + 1;
        nl->bad |= out_of_range(w, finite, lo, hi, ext[L]);
    }
    int nb = 0;
    for (int L = 0; L < nlev; L++) {   /* when any level is out of range, all are hashed */
        nl_level *lv = &nl->lev[L];
        lv->g.inv = lv->inv;
        lv->b0 = nb;
        nb += lv->count ? buckets(&lv->g, nl->bad, ext[L][0] * ext[L][1] * ext[L][2], lv->count, ext[L], 8) : (lv->g.nbucket = 0);
    }
    if (nb + 1 > nl->capb || !nl->head) { nl->capb = nb + 1; PALA_GROW(nl->head, nl->capb); }
    nl->nbucket = nb;
    nl->dense = nl->lev[0].g.dense;
    int *cs = nl->head;
    memset(cs, 0, (size_t)(nb + 1) * sizeof *cs);
    for (int p = 0; p < n; p++) {
        const nl_level *lv = &nl->lev[bof[p]];
        pala_vec3 x = peb_pos(w, p);
        bof[p] = lv->b0 + bucket(&lv->g, cell_of(&lv->g, x.x, lv->g.lo.x), cell_of(&lv->g, x.y, lv->g.lo.y), cell_of(&lv->g, x.z, lv->g.lo.z));
        cs[bof[p] + 1]++;
    }
    sort_buckets(nl, bof, n, nb);
    for (int L = 0; L < nlev; L++)
        for (int b = nl->lev[L].b0; b < nl->lev[L].b0 + nl->lev[L].g.nbucket; b++)
            if (cs[b + 1] - cs[b] > nl->lev[L].most) nl->lev[L].most = cs[b + 1] - cs[b];
    /* which side of each pair of levels searches: the one that visits fewer cells in all;
     * the longest row a pebble may gather: at most the pebbles of the cells it visits */
    nl->maxrow = 0;
    for (int a = 0; a < nlev; a++) {
        const nl_level *la = &nl->lev[a];
        double row = 0;
        for (int b = 0; b < nlev; b++) {
            const nl_level *lb = &nl->lev[b];
            double ab = (double)la->count * cells_visited(w, la, lb), ba = (double)lb->count * cells_visited(w, lb, la);
            nl->look[a * nlev + b] = a != b && (ab < ba || (ab == ba && a < b));
            /* a dense level's cells are distinct; a hash's may share buckets, visited once per
             * cell, unless they outnumber the buckets (then every pebble once, row_levels) */
            double c = cells_visited(w, la, lb);
            if (la->count && lb->count && (a == b || nl->look[a * nlev + b]))
                row += lb->g.dense ? fmin(c * (double)lb->most, (double)lb->count) : fmax((double)lb->count, fmin(c, lb->g.nbucket) * (double)lb->most);
        }
        if (row > (double)nl->maxrow) nl->maxrow = (long)row;
    }
}

static int cmp_int(const void *x, const void *y) { int a = *(const int *)x, b = *(const int *)y; return (a > b) - (a < b); }

/* Everything pebble p finds (another grain's pebbles within the skin): in its own level those
 * of higher index, in each level it searches (look) all, sorted, each once; returns their
 * number.  The cells of a level are those within reach of p; in a hash two of them may
 * share a bucket, so the row is made unique after sorting. */
static int row_levels(const pala_world *w, int p, int *out)
{
    const pala_nlist *nl = w->nl;
    const int *cs = nl->head, *cp = nl->next;
    pala_vec3 x = peb_pos(w, p);
    double ap = peb_rad(w, p);
    int gp = pala_peb_grain(w, p), lp = level_of(nl, ap), m = 0;
    for (int L = 0; L < nl->nlev; L++) {
        const nl_level *lv = &nl->lev[L];
        if (!lv->count || (L != lp && !nl->look[lp * nl->nlev + L])) continue;
        const cellgrid *g = &lv->g;
        double r = reach(nl, ap, lv);
        long c0[3] = {cell_of(g, x.x - r, g->lo.x), cell_of(g, x.y - r, g->lo.y), cell_of(g, x.z - r, g->lo.z)};
        long c1[3] = {cell_of(g, x.x + r, g->lo.x), cell_of(g, x.y + r, g->lo.y), cell_of(g, x.z + r, g->lo.z)};
        if (w->dim == 2) c0[2] = c1[2] = cell_of(g, x.z, g->lo.z);
        if (g->dense) {
            const long gn[3] = {g->nx, g->ny, g->nz};
            for (int i = 0; i < 3; i++) { c0[i] = c0[i] < 0 ? 0 : c0[i]; c1[i] = c1[i] >= gn[i] ? gn[i] - 1 : c1[i]; }
            if (!w->pg && !w->pc && L == lp) {
                /* spheres in their own level, as row() (most of a gas's pebbles are here; near()'s
                 * branches went either way): each row of cells along x one range of buckets */
                for (long iz = c0[2]; iz <= c1[2]; iz++)
                    for (long iy = c0[1]; iy <= c1[1]; iy++) {
                        const int b = cs[lv->b0 + bucket(g, c0[0], iy, iz)], e = cs[lv->b0 + bucket(g, c1[0], iy, iz) + 1];
                        m = nl->sk ? keep_spheres(w, p, x, ap, b, e, out, m, 1) : keep_spheres(w, p, x, ap, b, e, out, m, 0);
                    }
                continue;
            }
        } else if ((double)(c1[0] - c0[0] + 1) * (double)(c1[1] - c0[1] + 1) * (double)(c1[2] - c0[2] + 1) > g->nbucket) {
            /* more cells than the hash has buckets (a large pebble over a sparse level): every
             * pebble of the level once */
            for (int i = cs[lv->b0]; i < cs[lv->b0 + g->nbucket]; i++) {
                int q = cp[i];
                if ((L == lp && q <= p) || !near(w, gp, x, ap, q)) continue;
                out[m++] = q;
            }
            continue;
        }
        for (long iz = c0[2]; iz <= c1[2]; iz++)
            for (long iy = c0[1]; iy <= c1[1]; iy++)
                for (long ix = c0[0]; ix <= c1[0]; ix++) {
                    int b = lv->b0 + bucket(g, ix, iy, iz);
                    for (int i = cs[b]; i < cs[b + 1]; i++) {
                        int q = cp[i];
                        if ((L == lp && q <= p) || !near(w, gp, x, ap, q)) continue;
                        out[m++] = q;
                    }
                }
    }
    if (m > 32) qsort(out, (size_t)m, sizeof *out, cmp_int);
    else sort_row(out, m);
    return unique(out, m);
}

/* Rows of thread t's pebbles into its buffer, each pebble's own (the pebbles of higher
 * index); what it found of lower index q goes to rbuf as the pair (q, p), for row q. */
static void rows_job_levels(void *ctx, int t, int b0, int b1)
{
    const pala_world *w = ctx;
    pala_nlist *nl = w->nl;
    struct nl_rows *S = &nl->rows[t];
    long n = 0;
    S->direct = 0;
    S->rn = 0;
    for (int p = blk_peb0(w, b0); p < blk_peb0(w, b1); p++) {
        if (S->cap - n < nl->maxrow || !S->buf) { S->cap = 2 * S->cap + nl->maxrow + 1024; PALA_GROW(S->buf, S->cap); }
        if (S->rcap - S->rn < 2 * nl->maxrow || !S->rbuf) { S->rcap = 2 * S->rcap + 2 * nl->maxrow + 1024; PALA_GROW(S->rbuf, S->rcap); }
        int *r = S->buf + n, m = row_levels(w, p, r), k = 0;
        for (; k < m && r[k] < p; k++) { S->rbuf[S->rn++] = r[k]; S->rbuf[S->rn++] = p; }
        memmove(r, r + k, (size_t)(m - k) * sizeof *r);
        nl->start[p + 1] = m - k;
        n += m - k;
    }
    S->n = n;
}

/* The pairs handed over: rev[rc[q] .. rc[q + 1]) are the pebbles that found q, in increasing
 * order (the threads' ranges and each thread's pebbles are in increasing order); each row
 * grows by its count (start[p + 1] holds row lengths). */
static void hand_over(pala_world *w)
{
    pala_nlist *nl = w->nl;
    int n = w->npeb, nth = pala_team_size(w->team);
    int *rc = nl->rc;
    memset(rc, 0, (size_t)(n + 1) * sizeof *rc);
    long R = 0;
    for (int t = 0; t < nth; t++) {
        const struct nl_rows *S = &nl->rows[t];
        for (long i = 0; i < S->rn; i += 2) rc[S->rbuf[i] + 1]++;
        R += S->rn / 2;
    }
    if (R + 1 > nl->revcap || !nl->rev) { nl->revcap = R + R / 8 + 16; PALA_GROW(nl->rev, nl->revcap); }
    for (int p = 0; p < n; p++) rc[p + 1] += rc[p];
    for (int t = 0; t < nth; t++) {
        const struct nl_rows *S = &nl->rows[t];
        for (long i = 0; i < S->rn; i += 2) nl->rev[rc[S->rbuf[i]]++] = S->rbuf[i + 1];
    }
    for (int p = n; p > 0; p--) rc[p] = rc[p - 1];
    rc[0] = 0;
    for (int p = 0; p < n; p++) nl->start[p + 1] += rc[p + 1] - rc[p];
}

/* Thread t's rows into nbr, each merged with the pairs handed over to it (both sorted). */
static void copy_job_levels(void *ctx, int t, int b0, int b1)
{
    const pala_world *w = ctx;
    const pala_nlist *nl = w->nl;
    const int *src = nl->rows[t].buf;
    for (int p = blk_peb0(w, b0); p < blk_peb0(w, b1); p++) {
        int *dst = nl->nbr + nl->start[p];
        const int *h = nl->rev + nl->rc[p], *he = nl->rev + nl->rc[p + 1];
        const int *se = src + (nl->start[p + 1] - nl->start[p]) - (he - h);
        while (src < se && h < he) *dst++ = *src < *h ? *src++ : *h++;
        while (src < se) *dst++ = *src++;
        while (h < he) *dst++ = *h++;
    }
}

/* row[s] = p for the slots of thread t's rows. */
static void slots_job(void *ctx, int t, int b0, int b1)
{
    (void)t;
    const pala_world *w = ctx;
    for (int p = blk_peb0(w, b0); p < blk_peb0(w, b1); p++)
        for (int s = w->nl->start[p]; s < w->nl->start[p + 1]; s++) w->nl->row[s] = p;
}

/* The frame of nl->rdrift until the next build: the centre of the box that bounds the grains'
 * velocities, or rest when that is no nearer to all of them (the largest |v - u| is then no
 * larger than the largest |v|: the list is never built more often than at rest). */
static pala_vec3 list_frame(const pala_world *w)
{
    if (w->n == 0) return pala_v(0, 0, 0);
    pala_vec3 lo = w->v[0], hi = lo;
    for (int k = 1; k < w->n; k++) {
        pala_vec3 v = w->v[k];
        lo = pala_v(v.x < lo.x ? v.x : lo.x, v.y < lo.y ? v.y : lo.y, v.z < lo.z ? v.z : lo.z);
        hi = pala_v(v.x > hi.x ? v.x : hi.x, v.y > hi.y ? v.y : hi.y, v.z > hi.z ? v.z : hi.z);
    }
    pala_vec3 u = pala_vscale(0.5, pala_vadd(lo, hi));
    double at_rest = 0, moving = 0;
    for (int k = 0; k < w->n; k++) {
        double a = pala_vnorm2(w->v[k]), b = pala_vnorm2(pala_vsub(w->v[k], u));
        at_rest = a > at_rest ? a : at_rest;
        moving = b > moving ? b : moving;
    }
    return moving < at_rest ? u : pala_v(0, 0, 0);   /* NaN velocities: at rest */
}

static void nlist_build(pala_world *w)
{
    pala_nlist *nl = w->nl;
    int n = w->npeb, levels = nl->nlev > 1 && !w->parc;
    long nc = nl->hn ? compact_states(nl, n) : 0;   /* before start[] is reused below */
    if (!nl->next || nl->nalloc != n || (levels && !nl->rc) || (w->parc && !nl->apeb)) {   /* sized once per pebble count: no allocation per rebuild */
        PALA_GROW(nl->next, n + 1);
        PALA_GROW(nl->start, n + 1);
        if (levels) PALA_GROW(nl->rc, n + 1);
        if (w->parc) { PALA_GROW(nl->apeb, n + 1); PALA_GROW(nl->kst, n + 2); }   /* the arcs' filter (arc_faces) */
        nl->nalloc = n;
    }
    nl->frame = list_frame(w);   /* arc_skins and sphere_skins read it */
    if (!w->parc) sphere_skins(w);
    if (w->parc) grain_grid(w, nc);
    else if (levels) level_grids(w);
    else one_grid(w);
    /* rows, each thread into its buffer; then the offsets and one copy per thread */
    nl->start[0] = 0;
    int nth = pala_team_size(w->team);
    if (nl->nrows < nth) {
        PALA_GROW(nl->rows, nth);
        memset(nl->rows + nl->nrows, 0, (size_t)(nth - nl->nrows) * sizeof *nl->rows);
        nl->nrows = nth;
    }
    pala_team_run(w->team, levels ? rows_job_levels : w->parc ? rows_job_arcs : rows_job, w);
    if (levels) hand_over(w);
    for (int p = 0; p < n; p++) nl->start[p + 1] += nl->start[p];
    long m = nl->start[n];
    if (m > nl->cap || !nl->nbr) {   /* the first thread's rows are in it already */
        nl->cap = m + m / 8 + 16;
        PALA_GROW(nl->nbr, nl->cap);
    }
    if (m > nl->rcap || !nl->row) {   /* it may still hold the compacted pairs */
        nl->rcap = m + m / 8 + 16;
        PALA_GROW(nl->row, nl->rcap);
    }
    if (levels) {   /* the merged rows, then the states (which read row) and the slots' rows */
        pala_team_run(w->team, copy_job_levels, w);
        if (nl->hn) expand_states(w, nc, 1);
        pala_team_run(w->team, slots_job, w);
    } else {
        if (nl->hn) expand_states(w, nc, 0);
        pala_team_run(w->team, copy_job, w);
    }
    nl->hvalid = 1;
    nl->drift = nl->rdrift = 0;
    nl->builds++;
}

int pala_nlist_update(pala_world *w)
{
    pala_nlist *nl = w->nl;
    /* 0.45 rather than 0.5: room for the rounding of the displacement bounds */
    if (nl->builds > 0 && nl->rdrift <= 0.45 * nl->skin) {
        if (nl->drift <= 0.45 * nl->skin) return 0;
        nl->drift = 0;   /* the pairs hold; the walls' candidates are listed again */
        return 1;
    }
    nlist_build(w);
    return 2;
}

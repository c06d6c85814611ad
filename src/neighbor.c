/* neighbor.c: Verlet list of grain pairs, built on a spatial hash of cells.
 *
 * Pairs (i, j > i) whose bounding spheres (eq. 32) come within `skin` are listed; the list
 * stays valid until some grain has moved more than skin/2.  The bounding sphere is about
 * the centre of mass, so rotation never invalidates the list.  Cells of edge
 * 2 r_max + skin are hashed into ~2N buckets: memory and time are O(N) whatever the
 * container's shape (tall columns, sparse gases).  Each row is sorted by j, so the order
 * in which contact forces are summed does not depend on when the list was rebuilt:
 * results are bit-identical for any rebuild schedule. */
#include "internal.h"
#include <stdlib.h>

void pala_nlist_free(pala_nlist *nl)
{
    free(nl->start); free(nl->nbr); free(nl->xref); free(nl->head); free(nl->next);
    nl->start = nl->nbr = nl->head = nl->next = NULL;
    nl->xref = NULL;
    nl->cap = 0;
}

static unsigned cell_hash(long ix, long iy, long iz, int mask)
{
    unsigned long h = (unsigned long)ix * 73856093ul ^ (unsigned long)iy * 19349663ul ^ (unsigned long)iz * 83492791ul;
    return (unsigned)(h & (unsigned long)mask);
}

static void cell_of(pala_vec3 x, double inv, long c[3])
{
    c[0] = (long)floor(x.x * inv);
    c[1] = (long)floor(x.y * inv);
    c[2] = (long)floor(x.z * inv);
}

static void sort_row(int *a, int n)
{
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) { a[j + 1] = a[j]; j--; }
        a[j + 1] = v;
    }
}

static void nlist_build(pala_world *w)
{
    pala_nlist *nl = &w->nl;
    int n = w->n;
    double h = 2 * nl->rmax + nl->skin, inv = 1.0 / h;
    int nb = 16;
    while (nb < 2 * n) nb *= 2;
    if (nb != nl->nbucket || !nl->head) { PALA_GROW(nl->head, nb); nl->nbucket = nb; }
    PALA_GROW(nl->next, n);
    PALA_GROW(nl->start, n + 1);
    if (!nl->xref) PALA_GROW(nl->xref, n);
    for (int b = 0; b < nb; b++) nl->head[b] = -1;
    for (int i = n - 1; i >= 0; i--) {
        long c[3];
        cell_of(w->x[i], inv, c);
        unsigned b = cell_hash(c[0], c[1], c[2], nb - 1);
        nl->next[i] = nl->head[b];
        nl->head[b] = i;
    }
    if (nl->cap == 0) { nl->cap = 8L * n + 16; PALA_GROW(nl->nbr, nl->cap); }
    long m = 0;
    int zr = w->dim == 2 ? 0 : 1;
    for (int i = 0; i < n; i++) {
        nl->start[i] = (int)m;
        long ci[3];
        cell_of(w->x[i], inv, ci);
        double ri = w->tmpl[w->tid[i]].bound_radius;
        for (int dz = -zr; dz <= zr; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    long cx = ci[0] + dx, cy = ci[1] + dy, cz = ci[2] + dz;
                    for (int j = nl->head[cell_hash(cx, cy, cz, nb - 1)]; j >= 0; j = nl->next[j]) {
                        if (j <= i) continue;
                        long cj[3];
                        cell_of(w->x[j], inv, cj);
                        if (cj[0] != cx || cj[1] != cy || cj[2] != cz) continue; /* hash collision */
                        double rc = ri + w->tmpl[w->tid[j]].bound_radius + nl->skin;
                        if (pala_vnorm2(pala_vsub(w->x[i], w->x[j])) >= rc * rc) continue;
                        if (m == nl->cap) { nl->cap *= 2; PALA_GROW(nl->nbr, nl->cap); }
                        nl->nbr[m++] = j;
                    }
                }
        sort_row(nl->nbr + nl->start[i], (int)(m - nl->start[i]));
    }
    nl->start[n] = (int)m;
    for (int i = 0; i < n; i++) nl->xref[i] = w->x[i];
    nl->builds++;
}

void pala_nlist_update(pala_world *w)
{
    pala_nlist *nl = &w->nl;
    if (nl->xref && nl->builds > 0) {
        double lim = 0.25 * nl->skin * nl->skin;   /* (skin/2)^2 */
        int i;
        for (i = 0; i < w->n; i++)
            if (pala_vnorm2(pala_vsub(w->x[i], nl->xref[i])) > lim) break;
        if (i == w->n) return;
    }
    nlist_build(w);
}

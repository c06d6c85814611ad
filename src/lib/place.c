/* place.c: initial placement of a group of grains: random without overlap of bounding
 * spheres inside a region, on a cubic lattice, or from an explicit list; then initial
 * orientation and velocities.  Centres of mass are placed; for random and lattice
 * placement the bounding sphere (eq. 32) must lie inside every wall (the container, clear of
 * a membrane's bars), for a list the centre must lie inside, and no component may start
 * deeper in a wall than max_overlap allows.  The grains of an inserter are placed during a
 * run as random placement places them (pala_place_insert). */
#include "alloc.h"
#include "container.h"
#include "place.h"
#include "region.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A spatial hash of the grains placed so far, on levels of cells for bounding radii that
 * differ much (as the neighbour list's levels, neighbor.c): level L has cells of edge
 * h_L = 2 R_min 2^L and holds the grains of 2 R <= h_L (the last the rest); one table of
 * buckets for all levels, keyed by the cell and the level.  A query of radius R visits,
 * in each level that holds grains, the cells within R + (the level's largest radius) of
 * its centre: a small grain a few cells of each level, a large one the cells of the small
 * grains it covers.  Only the answer (overlap or not) is used, which does not depend on the
 * cells, so placement is the same for any levels. */
enum { PH_LEVELS = 16 };
typedef struct phash {
    int *head, *next;
    int nb, nlev;
    double h[PH_LEVELS], inv[PH_LEVELS], rmax[PH_LEVELS];
    long count[PH_LEVELS];
} phash;

/* floor(u) as a cell index, clamped so the conversion is defined for any u */
static long cell(double u)
{
    u = floor(u);
    return u > -1e15 && u < 1e15 ? (long)u : u < 0 ? -1000000000000000L : 1000000000000000L;
}

static unsigned phash_key(const phash *h, long cx, long cy, long cz, int L)
{
    unsigned long k = (unsigned long)cx * 73856093ul ^ (unsigned long)cy * 19349663ul ^ (unsigned long)cz * 83492791ul ^ (unsigned long)L * 2654435761ul;
    return (unsigned)(k & (unsigned long)(h->nb - 1));
}

static int phash_level(const phash *h, double R)
{
    int L = 0;
    while (L + 1 < h->nlev && 2 * R > h->h[L]) L++;
    return L;
}

/* Room for total grains of bounding radii in [rmin, rmax]. */
static void phash_make(phash *h, long total, double rmin, double rmax)
{
    h->nb = 16;
    while (h->nb < 2 * total && h->nb < (1 << 30)) h->nb *= 2;
    h->head = pala_xrealloc(NULL, (size_t)h->nb * sizeof(int));
    h->next = pala_xrealloc(NULL, (size_t)(total + 1) * sizeof(int));
    for (int b = 0; b < h->nb; b++) h->head[b] = -1;
    h->nlev = 1;
    h->h[0] = 2 * rmax;
    if (rmin > 0 && rmax > 2 * rmin) {   /* one level unless the radii differ by more than 2 */
        h->nlev = 0;
        for (double e = 2 * rmin; h->nlev < PH_LEVELS; e *= 2) {
            h->h[h->nlev++] = e;
            if (e >= 2 * rmax) break;
        }
        h->h[h->nlev - 1] = fmax(h->h[h->nlev - 1], 2 * rmax);
    }
    for (int L = 0; L < h->nlev; L++) { h->inv[L] = 1 / h->h[L]; h->rmax[L] = 0; h->count[L] = 0; }
}

static void phash_free(phash *h) { free(h->head); free(h->next); }

static void phash_insert(phash *h, const pala_world *w, int i)
{
    double R = w->tmpl[w->tid[i]].bound_radius;
    int L = phash_level(h, R);
    pala_vec3 x = w->x[i];
    unsigned b = phash_key(h, cell(x.x * h->inv[L]), cell(x.y * h->inv[L]), cell(x.z * h->inv[L]), L);
    h->next[i] = h->head[b];
    h->head[b] = i;
    h->rmax[L] = fmax(h->rmax[L], R);
    h->count[L]++;
}

/* Does a bounding sphere of radius R at x overlap any placed grain? */
static int phash_hits(const phash *h, const pala_world *w, pala_vec3 x, double R)
{
    for (int L = 0; L < h->nlev; L++) {
        if (!h->count[L]) continue;
        double r = (R + h->rmax[L]) * (1 + 1e-9), iv = h->inv[L];
        long lo[3] = {cell((x.x - r) * iv), cell((x.y - r) * iv), cell((x.z - r) * iv)};
        long hi[3] = {cell((x.x + r) * iv), cell((x.y + r) * iv), cell((x.z + r) * iv)};
        if (w->dim == 2) lo[2] = hi[2] = cell(x.z * iv);
        for (long cz = lo[2]; cz <= hi[2]; cz++)
            for (long cy = lo[1]; cy <= hi[1]; cy++)
                for (long cx = lo[0]; cx <= hi[0]; cx++)
                    for (int j = h->head[phash_key(h, cx, cy, cz, L)]; j >= 0; j = h->next[j]) {
                        double rr = R + w->tmpl[w->tid[j]].bound_radius;
                        if (pala_vnorm2(pala_vsub(x, w->x[j])) < rr * rr) return 1;
                    }
    }
    return 0;
}

/* Is a grain of bounding radius R with centre x inside the container and the region? */
static int feasible(const pala_world *w, const pala_group *g, pala_vec3 x, double R)
{
    if (!pala_walls_inside(w, x, R)) return 0;
    if (g->reg.kind == PALA_REGION_SLAB) return fabs(pala_vdot(g->slab_n, x) - g->slab_off) <= 0.5 * g->slab_th;
    return pala_region_inside(&g->reg, w->dim, x);
}

/* The deepest cut of a wall into one component of a grain at x with rotation r, as a
 * fraction of that component's radius (the measure of max_overlap); 0 if none touches a
 * wall.  *comp gets the component (0-based), *wall the wall.  Components, not the bounding
 * sphere: a long grain lying flat on the floor has its bounding sphere far through it. */
static double wall_cut(const pala_world *w, int tmpl, pala_vec3 x, pala_vec3 r, int *comp, int *wall)
{
    const pala_template *tp = &w->tmpl[tmpl];
    double worst = 0;
    *comp = *wall = 0;
    for (int i = 0; i < tp->ncomp; i++) {
        double a = w->shape_r[tp->comp0 + i];
        pala_vec3 c = pala_vadd(x, pala_rot_apply(r, w->shape[tp->comp0 + i]));
        int wi = 0;
        double d = pala_walls_cut(w, c, a, &wi);
        if (d / a > worst) { worst = d / a; *comp = i; *wall = wi; }
    }
    return worst;
}

int pala_place_deep(const pala_world *w, int tmpl, pala_vec3 x, pala_vec3 r, char *err, size_t errlen)
{
    int c = 0, wi = 0;
    double cut = w->nwalls > 0 ? wall_cut(w, tmpl, x, r, &c, &wi) : 0;
    if (!(cut > w->max_overlap)) return 0;
    snprintf(err, errlen, "at (%g, %g, %g): its component %d (radius %g m) reaches %.3g of its radius into %s (at most max_overlap = %g)",
             x.x, x.y, x.z, c + 1, w->shape_r[w->tmpl[tmpl].comp0 + c], cut, w->walls[wi].kind->what, w->max_overlap);
    return 1;
}

/* Axis-aligned box that holds every feasible centre (lo, hi). */
static void sample_box(const pala_world *w, const pala_group *g, double R, double lo[3], double hi[3])
{
    for (int a = 0; a < 3; a++) { lo[a] = -HUGE_VAL; hi[a] = HUGE_VAL; }
    pala_walls_bounds(w, R, lo, hi);
    double rl[3], rh[3];
    pala_region_bounds(&g->reg, w->dim, rl, rh);   /* a box, a cylinder; all space else */
    for (int a = 0; a < 3; a++) { lo[a] = fmax(lo[a], rl[a]); hi[a] = fmin(hi[a], rh[a]); }
    if (g->reg.kind == PALA_REGION_SLAB) {
        const double n[3] = {g->slab_n.x, g->slab_n.y, g->slab_n.z};
        for (int a = 0; a < 3; a++)
            if (fabs(n[a]) == 1) {
                double m = g->slab_off * n[a];
                lo[a] = fmax(lo[a], m - 0.5 * g->slab_th);
                hi[a] = fmin(hi[a], m + 0.5 * g->slab_th);
            }
    }
    if (w->dim == 2) lo[2] = hi[2] = 0;
}

static pala_vec3 random_rotation(pala_rng *rng, int dim)
{
    if (dim == 2) {
        double phi = PALA_PI * (2 * pala_rng_uniform(rng) - 1);
        return pala_v(0, 0, tan(0.5 * phi));
    }
    for (;;) { /* uniform unit quaternion; r = q_vec / q_w (eq. 8) */
        double q[4], l = 0;
        for (int i = 0; i < 4; i++) { q[i] = pala_rng_normal(rng); l += q[i] * q[i]; }
        if (fabs(q[0]) > 1e-6 * sqrt(l)) return pala_v(q[1] / q[0], q[2] / q[0], q[3] / q[0]);
    }
}

/* The rotation vector a grain of template tmpl starts with: orient (enum pala_orient)
 * applied to its as-written orientation (the principal frame turned by the template's frame). */
static pala_vec3 start_rotation(const pala_world *w, int tmpl, int orient, pala_vec3 given, pala_rng *rng)
{
    pala_vec3 r = w->tmpl[tmpl].frame;   /* principal frame -> as written */
    if (orient == PALA_ORIENT_RANDOM) r = pala_rot_compose(random_rotation(rng, w->dim), r);
    else if (orient == PALA_ORIENT_GIVEN) r = pala_rot_compose(given, r);
    return r;
}

/* v with a Gaussian of standard deviation spread added to each component (x and y in 2D). */
static pala_vec3 spread_velocity(const pala_world *w, pala_vec3 v, double spread, pala_rng *rng)
{
    if (spread > 0) {
        v.x += spread * pala_rng_normal(rng);
        v.y += spread * pala_rng_normal(rng);
        if (w->dim == 3) v.z += spread * pala_rng_normal(rng);
    }
    return v;
}

/* Refuses at once a region that cannot hold the group: no feasible centre at all (the
 * region outside the container, or a grain wider than it), a region the walls leave
 * open, more grains than lattice sites,
 * or bounding spheres of more volume than a random packing fills (0.64 of the box of
 * feasible centres, grown by the bounding radius).  Random placement could otherwise try
 * for a long time, and a lattice walk through a huge empty range. */
static int room_check(const pala_world *w, const pala_group *g, const int *tq, char *err, size_t errlen)
{
    double R = 0, sum = 0;   /* the largest bounding radius; with sizes, the sum of the cubes */
    for (int t = g->tfirst; !tq && t < g->tfirst + (g->tcount > 0 ? g->tcount : 1); t++) R = fmax(R, w->tmpl[t].bound_radius);
    for (long q = 0; tq && q < g->count; q++) {
        double r = w->tmpl[tq[q]].bound_radius;
        R = fmax(R, r);
        sum += w->dim == 2 ? r * r : r * r * r;
    }
    double lo[3], hi[3];
    sample_box(w, g, R, lo, hi);
    int dims = w->dim == 2 ? 2 : 3;
    for (int a = 0; a < dims; a++)
        if (!(lo[a] <= hi[a])) {
            snprintf(err, errlen, "no room for one grain: in %c the centres of grains of bounding radius %.4g m would have to lie between "
                     "%.4g and %.4g m (the region and the container, less that radius); enlarge the region or container, or make the grains smaller",
                     "xyz"[a], R, lo[a], hi[a]);
            return -1;
        } else if (!isfinite(hi[a] - lo[a])) {   /* walls open to one side (a plane) and the region container */
            snprintf(err, errlen, "in %c the walls leave the region open (%g .. %g m): give region = box with a finite region_box",
                     "xyz"[a], lo[a], hi[a]);
            return -1;
        }
    if (g->placement == PALA_PLACE_LATTICE) {
        double rmax = 0;
        for (int t = 0; t < w->ntmpl; t++) rmax = fmax(rmax, w->tmpl[t].bound_radius);
        double sp = g->spacing > 0 ? g->spacing : 2.02 * rmax, sites = 1;
        for (int a = 0; a < dims; a++) sites *= floor((hi[a] - lo[a]) / sp) + 1;
        if ((double)g->count > sites) {
            snprintf(err, errlen, "the lattice (spacing %.4g m) has at most %.0f sites in the region, fewer than count = %ld; "
                     "lower count or lattice_spacing, or enlarge the region or container", sp, sites, g->count);
            return -1;
        }
        return 0;
    }
    double vol = 1, vg = dims == 2 ? PALA_PI * R * R : 4.0 / 3.0 * PALA_PI * R * R * R;
    for (int a = 0; a < dims; a++) vol *= hi[a] - lo[a] + 2 * R;
    double need = tq ? (dims == 2 ? PALA_PI : 4.0 / 3.0 * PALA_PI) * sum : (double)g->count * vg;
    if (need > 0.64 * vol) {
        snprintf(err, errlen, "%ld grains of bounding radius %s%.4g m need %.3g m^%d without overlap, more than a random packing fills of the "
                 "region (%.3g m^%d); lower count, enlarge the region or container, or use placement = lattice",
                 g->count, tq ? "up to " : "", R, need / 0.64, dims, vol, dims);
        return -1;
    }
    return 0;
}

/* The template of a size class: a sphere built at its size exactly (like proto, base < 0,
 * or like a one-sphere base), else a copy of the base scaled to the size (eq. 31: the
 * volume of a sphere of radius rc; pala_template_scale). */
static int class_template(pala_world *w, const pala_group *g, int base, double rc)
{
    pala_template t = base < 0 ? g->proto : w->tmpl[base];   /* a copy: adding moves w->tmpl */
    if (t.ncomp <= 1) return pala_world_build_template(w, &t, 1, &(pala_vec3){0, 0, 0}, &rc, 0);
    pala_vec3 *sh = pala_xrealloc(NULL, (size_t)t.ncomp * sizeof *sh);
    double *rd = pala_xrealloc(NULL, (size_t)t.ncomp * sizeof *rd);
    memcpy(sh, w->shape + t.comp0, (size_t)t.ncomp * sizeof *sh);
    memcpy(rd, w->shape_r + t.comp0, (size_t)t.ncomp * sizeof *rd);
    pala_template_scale(&t, sh, rd, rc);
    int k = pala_world_add_template(w, &t, sh, rd);
    free(sh);
    free(rd);
    return k;
}

typedef struct sized { int base; long cls; double rc; long q; } sized;
static int cmp_sized(const void *x, const void *y)
{
    const sized *a = x, *b = y;
    if (a->base != b->base) return a->base < b->base ? -1 : 1;
    if (a->cls != b->cls) return a->cls < b->cls ? -1 : 1;
    return (a->q > b->q) - (a->q < b->q);
}

int *pala_place_size_templates(pala_world *w, const pala_group *g, pala_rng *rng, char *err, size_t errlen)
{
    long n = g->count;
    double *r = pala_xrealloc(NULL, (size_t)(n + 1) * sizeof *r);
    int st = pala_sizes_sample(g->sizes, rng, n, r);
    for (long q = 0; q < n && !st; q++)
        if (!(r[q] > 0 && isfinite(r[q]))) {
            snprintf(err, errlen, "the size distribution drew a size of %g m: its law reaches beyond what a grain can be (size_median, "
                     "size_sigma, size_range, size_class)", r[q]);
            st = 1;
        }
    if (st < 0)
        snprintf(err, errlen, st == -1 ? "the size distribution's truncation refused 10^7 draws in a row: widen size_range"
                                       : "the size classes' fractions (by mass: over size^3) do not add up to a finite number: give them on a "
                                         "scale such as percent, and sizes in m");
    if (st) {
        free(r);
        return NULL;
    }
    sized *c = pala_xrealloc(NULL, (size_t)(n + 1) * sizeof *c);
    for (long q = 0; q < n; q++) {
        c[q].base = g->tcount <= 0 ? -1 : g->tcount == 1 ? g->tfirst
                  : g->random_variant ? g->tfirst + (int)(pala_rng_uniform(rng) * g->tcount) % g->tcount
                  : g->tfirst + (int)((g->tnext + q) % g->tcount);
        c[q].cls = pala_sizes_class(g->sizes, r[q], &c[q].rc);
        c[q].q = q;
    }
    qsort(c, (size_t)n, sizeof *c, cmp_sized);
    int *tq = pala_xrealloc(NULL, (size_t)(n + 1) * sizeof *tq), k = -1;
    for (long i = 0; i < n; i++) {
        if (i == 0 || c[i].base != c[i - 1].base || c[i].cls != c[i - 1].cls) {
            k = class_template(w, g, c[i].base, c[i].rc);
            if (k < 0) {   /* its template not built (a size past a double's range); one built but of no mass is pala_world_prepare's to refuse */
                snprintf(err, errlen, "a grain of the size %g m (a class of the size distribution) has no positive finite mass or moment: "
                         "its law reaches beyond what a grain can be (size_median, size_sigma, size_range, size_class)", c[i].rc);
                free(tq);
                tq = NULL;
                break;
            }
        }
        tq[c[i].q] = k;
    }
    free(c);
    free(r);
    return tq;
}

/* The order of random placement with sizes: the largest bounding spheres first (then by
 * the order drawn), while there is room for them. */
typedef struct bysize { double r; long q; } bysize;
static int cmp_larger(const void *x, const void *y)
{
    const bysize *a = x, *b = y;
    if (a->r != b->r) return a->r > b->r ? -1 : 1;
    return (a->q > b->q) - (a->q < b->q);
}

long pala_place_group(pala_world *w, const pala_group *g, pala_rng *rng, char *err, size_t errlen)
{
    int *tq = NULL;   /* with sizes: the template of grain q of the group */
    long *ord = NULL; /* ... and the order they are placed in */
    if (g->sizes && g->count > 0) {
        if (!(tq = pala_place_size_templates(w, g, rng, err, errlen))) return -1;
        bysize *o = pala_xrealloc(NULL, (size_t)g->count * sizeof *o);
        for (long q = 0; q < g->count; q++) o[q] = (bysize){w->tmpl[tq[q]].bound_radius, q};
        if (g->placement == PALA_PLACE_RANDOM) qsort(o, (size_t)g->count, sizeof *o, cmp_larger);
        ord = pala_xrealloc(NULL, (size_t)g->count * sizeof *ord);
        for (long q = 0; q < g->count; q++) ord[q] = o[q].q;
        free(o);
    }
    double rmax = 0, rmin = HUGE_VAL;
    for (int t = 0; t < w->ntmpl; t++) rmax = fmax(rmax, w->tmpl[t].bound_radius), rmin = fmin(rmin, w->tmpl[t].bound_radius);
    phash h;
    long total = w->n + g->count;
    phash_make(&h, total, rmin, rmax);
    for (int i = 0; i < w->n; i++) phash_insert(&h, w, i);
    long placed = 0, attempts = 0, maxatt = 10000 + 200 * g->count;
    /* lattice state */
    double lo[3], hi[3];
    long site[3] = {0, 0, 0};
    int done_sites = 0;
    long visits = 0, maxvisits = 1000000 + 100 * g->count;   /* sites outside a slab or cavity */
    if (g->placement != PALA_PLACE_LIST && g->count > 0 && room_check(w, g, tq, err, errlen)) goto fail;
    while (placed < g->count) {
        int tmpl = tq ? tq[ord[placed]] : g->tcount <= 1 ? g->tfirst
                 : g->random_variant ? g->tfirst + (int)(pala_rng_uniform(rng) * g->tcount) % g->tcount
                 : g->tfirst + (int)((g->tnext + placed) % g->tcount);
        double R = w->tmpl[tmpl].bound_radius;
        pala_vec3 x, v0 = pala_v(0, 0, 0);
        if (g->placement == PALA_PLACE_LIST) {
            const double *a = g->at + 6 * placed;
            x = pala_v(a[0], a[1], a[2]);
            v0 = pala_v(a[3], a[4], a[5]);
            if (!feasible(w, g, x, 0)) {
                snprintf(err, errlen, "grain %ld at (%g, %g, %g) lies outside the container or region; move it inside", placed + 1, x.x, x.y, x.z);
                goto fail;
            }
        } else if (g->placement == PALA_PLACE_RANDOM) {
            sample_box(w, g, R, lo, hi);
            int ok = 0;
            while (!ok && attempts < maxatt) {
                attempts++;
                if (lo[0] > hi[0] || lo[1] > hi[1] || lo[2] > hi[2]) { attempts = maxatt; break; }
                /* one draw per statement: the order of the arguments of a call is open in C,
                 * and compilers differ (z, y, x is the order this code always had with gcc) */
                double z = w->dim == 2 ? 0 : lo[2] + (hi[2] - lo[2]) * pala_rng_uniform(rng);
                double y = lo[1] + (hi[1] - lo[1]) * pala_rng_uniform(rng);
                x = pala_v(lo[0] + (hi[0] - lo[0]) * pala_rng_uniform(rng), y, z);
                ok = feasible(w, g, x, R) && !phash_hits(&h, w, x, R);
            }
            if (!ok) {
                snprintf(err, errlen, "placed only %ld of %ld grains: no room left for another in the region "
                         "(bounding spheres of radius %.4g m may not overlap); lower count, enlarge the region "
                         "or container, or use placement = lattice", placed, g->count, R);
                goto fail;
            }
        } else { /* lattice, x fastest */
            double s = g->spacing > 0 ? g->spacing : 2.02 * rmax;
            sample_box(w, g, R, lo, hi);
            int ok = 0;
            while (!ok && !done_sites) {
                if (++visits > maxvisits) { done_sites = 1; break; }
                x = pala_v(lo[0] + s * (double)site[0], lo[1] + s * (double)site[1], lo[2] + s * (double)site[2]);
                /* a row or layer that has no site at its start is past the end: so an
                 * empty range (lo > hi) ends the loop at once */
                if (x.x > hi[0]) { if (site[0] == 0) { done_sites = 1; break; } site[0] = 0; site[1]++; continue; }
                if (x.y > hi[1]) { if (site[1] == 0) { done_sites = 1; break; } site[1] = 0; site[2]++; continue; }
                if (x.z > hi[2] || !isfinite(x.x + x.y + x.z)) { done_sites = 1; break; }
                site[0]++;
                ok = feasible(w, g, x, R) && !phash_hits(&h, w, x, R);
            }
            if (!ok) {
                snprintf(err, errlen, "the lattice (spacing %.4g m) has room for only %ld of %ld grains in the region; "
                         "lower count, lattice_spacing, or enlarge the region or container", s, placed, g->count);
                goto fail;
            }
        }
        pala_vec3 r = start_rotation(w, tmpl, g->orient, g->orient_r, rng);
        char deep[256];
        if (g->placement == PALA_PLACE_LIST && pala_place_deep(w, tmpl, x, r, deep, sizeof deep)) {
            snprintf(err, errlen, "grain %ld %s; move it inward", placed + 1, deep);
            goto fail;
        }
        pala_vec3 v = spread_velocity(w, pala_vadd(g->vel, v0), g->vspread, rng);
        int k = pala_world_add_grain(w, tmpl, x, r, v, g->omega);
        if (k >= total) { snprintf(err, errlen, "internal: placement overflow"); goto fail; }
        phash_insert(&h, w, k);
        placed++;
    }
    phash_free(&h);
    free(tq);
    free(ord);
    return placed;
fail:
    phash_free(&h);
    free(tq);
    free(ord);
    return -1;
}

/* ---- the grains of an inserter ------------------------------------------------------------ */
long pala_place_insert(pala_world *w, const pala_inserter *in, pala_feed_dyn *d, long want, double mass_room, int *full)
{
    double rmin = HUGE_VAL, rmax = 0, R0 = 0;
    for (int t = 0; t < w->ntmpl; t++) { rmin = fmin(rmin, w->tmpl[t].bound_radius); rmax = fmax(rmax, w->tmpl[t].bound_radius); }
    for (int t = in->tfirst; t < in->tfirst + in->tcount; t++) R0 = fmax(R0, w->tmpl[t].bound_radius);
    /* the grains whose bounding spheres may reach one placed in the region */
    double lo[3], hi[3];
    pala_region_bounds(&in->region, w->dim, lo, hi);
    phash h;
    phash_make(&h, w->cap > w->n + 32 ? w->cap : w->n + 32, rmin, rmax);
    for (int k = 0; k < w->n; k++) {
        const double x[3] = {w->x[k].x, w->x[k].y, w->x[k].z}, reach = w->tmpl[w->tid[k]].bound_radius + R0;
        int near = 1;
        for (int a = 0; a < 3; a++) near &= x[a] >= lo[a] - reach && x[a] <= hi[a] + reach;
        if (near) phash_insert(&h, w, k);
    }
    long placed = 0;
    double mass = 0;
    *full = 0;
    while (placed < want) {
        if (d->next_tmpl < 0)
            d->next_tmpl = in->tseq ? in->tseq[(long)d->count + placed]   /* (want <= count - d->count: pala_feed_due) */
                         : in->random_variant ? in->tfirst + (int)(pala_rng_uniform(&d->rng) * in->tcount) % in->tcount
                                              : in->tfirst + (int)(((long)d->count + placed) % in->tcount);
        int tmpl = (int)d->next_tmpl;
        const pala_template *tp = &w->tmpl[tmpl];
        /* a mass rate: the grain waits until its whole mass is due */
        if (mass + tp->mass > mass_room * (1 + 1e-12)) break;
        pala_vec3 x = pala_v(0, 0, 0);
        int ok = 0;
        for (int a = 0; a < 100 && !ok; a++) {
            x = pala_region_sample(&in->region, w->dim, &d->rng);
            ok = pala_walls_inside(w, x, tp->bound_radius) && !phash_hits(&h, w, x, tp->bound_radius);
        }
        if (!ok) { *full = 1; break; }
        pala_vec3 r = start_rotation(w, tmpl, in->orient, in->orient_r, &d->rng);
        pala_vec3 v = spread_velocity(w, in->vel, in->vspread, &d->rng);
        int k = pala_world_add_grain(w, tmpl, x, r, v, in->omega);
        PALA_GROW(h.next, w->cap);
        phash_insert(&h, w, k);
        placed++;
        mass += tp->mass;
        d->next_tmpl = -1;
    }
    phash_free(&h);
    return placed;
}

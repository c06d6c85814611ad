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

/* A growable spatial hash of the grains placed so far (cells of edge 2 r_max). */
typedef struct phash { int *head, *next; int nb; double inv; } phash;

/* floor(u) as a cell index, clamped so the conversion is defined for any u */
static long cell(double u)
{
    u = floor(u);
    return u > -1e15 && u < 1e15 ? (long)u : u < 0 ? -1000000000000000L : 1000000000000000L;
}

static unsigned phash_key(const phash *h, pala_vec3 x, int dx, int dy, int dz)
{
    long c[3] = {cell(x.x * h->inv) + dx, cell(x.y * h->inv) + dy, cell(x.z * h->inv) + dz};
    unsigned long k = (unsigned long)c[0] * 73856093ul ^ (unsigned long)c[1] * 19349663ul ^ (unsigned long)c[2] * 83492791ul;
    return (unsigned)(k & (unsigned long)(h->nb - 1));
}

static void phash_insert(phash *h, const pala_world *w, int i)
{
    unsigned b = phash_key(h, w->x[i], 0, 0, 0);
    h->next[i] = h->head[b];
    h->head[b] = i;
}

/* Does a bounding sphere of radius R at x overlap any placed grain? */
static int phash_hits(const phash *h, const pala_world *w, pala_vec3 x, double R)
{
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
                unsigned b = phash_key(h, x, dx, dy, dz);
                for (int j = h->head[b]; j >= 0; j = h->next[j]) {
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
static int room_check(const pala_world *w, const pala_group *g, char *err, size_t errlen)
{
    double R = 0;
    for (int t = g->tfirst; t < g->tfirst + (g->tcount > 0 ? g->tcount : 1); t++) R = fmax(R, w->tmpl[t].bound_radius);
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
    if ((double)g->count * vg > 0.64 * vol) {
        snprintf(err, errlen, "%ld grains of bounding radius %.4g m need %.3g m^%d without overlap, more than a random packing fills of the "
                 "region (%.3g m^%d); lower count, enlarge the region or container, or use placement = lattice",
                 g->count, R, (double)g->count * vg / 0.64, dims, vol, dims);
        return -1;
    }
    return 0;
}

long pala_place_group(pala_world *w, const pala_group *g, pala_rng *rng, char *err, size_t errlen)
{
    double rmax = 0;
    for (int t = 0; t < w->ntmpl; t++) rmax = fmax(rmax, w->tmpl[t].bound_radius);
    phash h;
    long total = w->n + g->count;
    h.nb = 16;
    while (h.nb < 2 * total && h.nb < (1 << 30)) h.nb *= 2;
    h.head = pala_xrealloc(NULL, (size_t)h.nb * sizeof(int));
    h.next = pala_xrealloc(NULL, (size_t)total * sizeof(int));
    h.inv = 1.0 / (2 * rmax);
    for (int b = 0; b < h.nb; b++) h.head[b] = -1;
    for (int i = 0; i < w->n; i++) phash_insert(&h, w, i);
    long placed = 0, attempts = 0, maxatt = 10000 + 200 * g->count;
    /* lattice state */
    double lo[3], hi[3];
    long site[3] = {0, 0, 0};
    int done_sites = 0;
    long visits = 0, maxvisits = 1000000 + 100 * g->count;   /* sites outside a slab or cavity */
    if (g->placement != PALA_PLACE_LIST && g->count > 0 && room_check(w, g, err, errlen)) goto fail;
    while (placed < g->count) {
        int tmpl = g->tcount <= 1 ? g->tfirst
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
        if (g->placement == PALA_PLACE_LIST && w->nwalls > 0) {
            /* an explicit position may touch a wall but not start deep in it: the first
             * step would fail as a runaway overlap, far from its cause */
            int c, wi;
            double cut = wall_cut(w, tmpl, x, r, &c, &wi);
            if (cut > w->max_overlap) {
                snprintf(err, errlen, "grain %ld at (%g, %g, %g): its component %d (radius %g m) reaches %.3g of its radius "
                         "into %s (at most max_overlap = %g); move it inward", placed + 1, x.x, x.y, x.z,
                         c + 1, w->shape_r[w->tmpl[tmpl].comp0 + c], cut, w->walls[wi].kind->what, w->max_overlap);
                goto fail;
            }
        }
        pala_vec3 v = spread_velocity(w, pala_vadd(g->vel, v0), g->vspread, rng);
        int k = pala_world_add_grain(w, tmpl, x, r, v, g->omega);
        if (k >= total) { snprintf(err, errlen, "internal: placement overflow"); goto fail; }
        phash_insert(&h, w, k);
        placed++;
    }
    free(h.head); free(h.next);
    return placed;
fail:
    free(h.head); free(h.next);
    return -1;
}

/* ---- the grains of an inserter ------------------------------------------------------------ */
long pala_place_insert(pala_world *w, const pala_inserter *in, pala_feed_dyn *d, long want, double mass_room, int *full)
{
    double rmax = 0, R0 = 0;
    for (int t = 0; t < w->ntmpl; t++) rmax = fmax(rmax, w->tmpl[t].bound_radius);
    for (int t = in->tfirst; t < in->tfirst + in->tcount; t++) R0 = fmax(R0, w->tmpl[t].bound_radius);
    /* the grains whose bounding spheres may reach one placed in the region */
    double lo[3], hi[3];
    pala_region_bounds(&in->region, w->dim, lo, hi);
    phash h;
    h.nb = 16;
    while (h.nb < 2 * w->n + 64 && h.nb < (1 << 30)) h.nb *= 2;
    h.head = pala_xrealloc(NULL, (size_t)h.nb * sizeof(int));
    h.next = pala_xrealloc(NULL, (size_t)(w->cap > 0 ? w->cap : 1) * sizeof(int));
    h.inv = 1.0 / (2 * rmax);
    for (int b = 0; b < h.nb; b++) h.head[b] = -1;
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
            d->next_tmpl = in->random_variant ? in->tfirst + (int)(pala_rng_uniform(&d->rng) * in->tcount) % in->tcount
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
    free(h.head); free(h.next);
    return placed;
}

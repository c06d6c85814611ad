/* world.c: the world's storage (materials, templates, grains), its checks and setup, and
 * the entry points an embedding program uses to build one (docs/embedding.md).
 *
 * Layout: templates are stored once; grains hold a template index and their hot state
 * in one contiguous array per field (x, r, v, omega, alpha, beta).  Component ("pebble")
 * positions are recomputed from the constant shape vectors whenever a grain moves. */
#include "world.h"
#include "alloc.h"
#include "arcs.h"
#include "builder.h"
#include "check.h"
#include "container.h"
#include "contact.h"
#include "contact_state.h"
#include "feed.h"
#include "force_pass.h"
#include "grain.h"
#include "grain_forces.h"
#include "material.h"
#include "neighbor.h"
#include "surface.h"
#include "threads.h"
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What is wrong, into w->why; returns PALA_ERR_INPUT. */
static int bad(pala_world *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->why, sizeof w->why, fmt, ap);
    va_end(ap);
    return PALA_ERR_INPUT;
}
/* the -1 of a call that adds something and refuses, saying why */
#define REFUSE(w, ...) (bad((w), __VA_ARGS__), -1)

void pala_world_init(pala_world *w)
{
    memset(w, 0, sizeof *w);
    w->dim = 3;
    w->max_overlap = 0.5;
    w->wall_mat = w->mem_mat = -1;
}

/* The states the modules keep for the step, made by pala_world_prepare: the step's scratch
 * and the contact model's (force_pass.c), then what the grains' sums start from, with the
 * fields and the interactions between centres (grain_forces.c; its tables are per block). */
static void make_states(pala_world *w)
{
    pala_work_prepare(w);
    pala_grain_forces_prepare(w);
}

static void free_states(pala_world *w)
{
    pala_work_free(w);
    pala_grain_forces_free(w);
}

void pala_world_free(pala_world *w)
{
    free(w->mat); free(w->pm); free(w->pairs); free(w->tmpl); free(w->shape); free(w->shape_r); free(w->arc); free(w->parc); free(w->arcv);
    free(w->x); free(w->r); free(w->v); free(w->w); free(w->acc); free(w->bacc);
    free(w->tid); free(w->gid); free(w->inv); free(w->p0); free(w->pc); free(w->pg); free(w->inter);
    pala_walls_free(w);
    pala_feed_free(w);
    pala_nlist_free(w->nl);
    free_states(w);
    pala_team_free(w->team);
    memset(w, 0, sizeof *w);
}

int pala_world_add_material(pala_world *w, const pala_material *m)
{
    PALA_GROW(w->mat, w->nmat + 1);
    w->mat[w->nmat] = *m;
    return w->nmat++;
}

int pala_world_keeps_contacts(const pala_world *w) { return w->work && w->work->cm->hn > 0; }

int pala_world_add_pair(pala_world *w, const pala_pairset *p)
{
    /* its values are checked by pala_world_prepare, which names a field out of range */
    if (!p) return REFUSE(w, "pala_world_add_pair: no pair given");
    if (p->a < 0 || p->a >= w->nmat || p->b < 0 || p->b >= w->nmat)
        return REFUSE(w, "pala_world_add_pair: materials %d and %d: the world has %d (0..%d)", p->a, p->b, w->nmat, w->nmat - 1);
    const int all = PALA_PAIR_MU | PALA_PAIR_DELTA | PALA_PAIR_NU | PALA_PAIR_KROLL | PALA_PAIR_MUROLL | PALA_PAIR_KTOR | PALA_PAIR_MUTOR |
                    PALA_PAIR_KT | PALA_PAIR_TLAW | PALA_PAIR_DAMP;
    if (p->set & ~all) return REFUSE(w, "pala_world_add_pair: set = %#x has bits that are no PALA_PAIR_* field", p->set);
    for (int i = 0; i < w->npairs; i++)
        if ((w->pairs[i].a == p->a && w->pairs[i].b == p->b) || (w->pairs[i].a == p->b && w->pairs[i].b == p->a))
            return REFUSE(w, "pala_world_add_pair: the pair of materials %d and %d was added before (pair %d): change that one", p->a, p->b, i);
    PALA_GROW(w->pairs, w->npairs + 1);
    w->pairs[w->npairs] = *p;
    return w->npairs++;
}

static void arc_circles(pala_world *w, int i0, int i1);

int pala_world_add_template(pala_world *w, const pala_template *t, const pala_vec3 *shape, const double *rad)
{
    if (t->ncomp < 1 || !shape || !rad)
        return REFUSE(w, "pala_world_add_template: a template needs at least one component (ncomp %d) with its shape vectors and radii", t->ncomp);
    PALA_GROW(w->tmpl, w->ntmpl + 1);
    PALA_GROW(w->shape, w->nshape + t->ncomp);
    PALA_GROW(w->shape_r, w->nshape + t->ncomp);
    w->tmpl[w->ntmpl] = *t;
    w->tmpl[w->ntmpl].comp0 = w->nshape;
    /* 2D: a grain whose components all lie in z = 0 and whose principal frame is the given one
     * turned about z has z for its third principal axis (docs/physics.md, "Planar grains"); it
     * turns about z alone, omega stays along z and beta = T / I_3, as an arc grain's
     * (isotropic 3): the general path's free rotation of an asymmetric top (eq. 60) would
     * only carry omega's rounding off the axis, which the step then sets to zero */
    int flat = w->dim == 2 && !t->isotropic && t->frame.x == 0 && t->frame.y == 0;
    for (int i = 0; i < t->ncomp && flat; i++) flat = shape[i].z == 0;
    if (flat) w->tmpl[w->ntmpl].isotropic = 3;
    memcpy(w->shape + w->nshape, shape, (size_t)t->ncomp * sizeof *shape);
    memcpy(w->shape_r + w->nshape, rad, (size_t)t->ncomp * sizeof *rad);
    if (w->arc) arc_circles(w, w->nshape, w->nshape + t->ncomp);
    w->nshape += t->ncomp;
    return w->ntmpl++;
}

/* Components [i0, i1) of an arc world that are spheres: whole circles, bounded by themselves. */
static void arc_circles(pala_world *w, int i0, int i1)
{
    PALA_GROW(w->arc, i1);
    for (int i = i0; i < i1; i++) w->arc[i] = (pala_arcrange){1, 0, -2, HUGE_VAL, w->shape[i].x, w->shape[i].y, w->shape_r[i], 0};
}

int pala_world_build_arc_template(pala_world *w, const pala_template *t, int n, const pala_arc *arcs, double h)
{
    if (t->material < 0 || t->material >= w->nmat)
        return REFUSE(w, "pala_world_build_arc_template: material %d does not exist (the world has %d)", t->material, w->nmat);
    if (w->dim != 2) return REFUSE(w, "arc grains are 2D: set dimension = 2");
    if (n < 2 || n > 1024) return REFUSE(w, "an arc grain needs 2 to 1024 arcs (got %d)", n);
    pala_template b = *t;
    pala_vec3 *shape = pala_xrealloc(NULL, (size_t)n * sizeof *shape);
    double *r = pala_xrealloc(NULL, (size_t)n * sizeof *r);
    pala_arcrange *rg = pala_xrealloc(NULL, (size_t)n * sizeof *rg);
    int i = -1;
    if (pala_arcs_build(&b, n, arcs, w->mat[t->material].rho, h, shape, r, rg, w->why, sizeof w->why) == 0) {
        b.edip = pala_rot_apply(pala_vneg(b.frame), t->edip);   /* as pala_world_build_template */
        b.mdip = pala_rot_apply(pala_vneg(b.frame), t->mdip);
        i = pala_world_add_template(w, &b, shape, r);
        if (!w->arc) arc_circles(w, 0, w->nshape);   /* the first: every component so far a circle */
        memcpy(w->arc + w->tmpl[i].comp0, rg, (size_t)n * sizeof *rg);
    }
    free(shape);
    free(r);
    free(rg);
    return i;
}

int pala_world_build_template(pala_world *w, const pala_template *t, int n, const pala_vec3 *c, const double *rad, long nsamples)
{
    if (t->material < 0 || t->material >= w->nmat)
        return REFUSE(w, "pala_world_build_template: material %d does not exist (the world has %d)", t->material, w->nmat);
    if (n < 1) return REFUSE(w, "a grain needs at least one component");
    pala_template b = *t;
    pala_vec3 *shape = pala_xrealloc(NULL, (size_t)n * sizeof *shape);
    double *r = pala_xrealloc(NULL, (size_t)n * sizeof *r);
    int i = -1;
    if (pala_template_build(&b, n, c, rad, w->mat[t->material].rho, nsamples, shape, r, w->why, sizeof w->why) == 0) {
        /* the dipoles are given in the frame of c; the body frame is the principal one, which
         * the builder turned by b.frame (docs/physics.md, "Charges, dipoles and fields") */
        b.edip = pala_rot_apply(pala_vneg(b.frame), t->edip);
        b.mdip = pala_rot_apply(pala_vneg(b.frame), t->mdip);
        i = pala_world_add_template(w, &b, shape, r);
    }
    free(shape);
    free(r);
    return i;
}

int pala_world_add_sphere_template(pala_world *w, int mat, double R)
{
    if (!(R > 0 && isfinite(R))) return REFUSE(w, "pala_world_add_sphere_template: radius %g: give one > 0 (m)", R);
    pala_template t;
    memset(&t, 0, sizeof t);
    snprintf(t.name, sizeof t.name, "sphere");
    t.material = mat;
    return pala_world_build_template(w, &t, 1, &(pala_vec3){0, 0, 0}, &R, 0);
}

/* v and w hold cap + 1 vectors, those past the grains' zero at first: four doubles may be
 * read from any grain's (contact.c, stage_sphere_points: the last grain's x, y, z and one
 * more). */
static void room_vw(pala_world *w, int old)
{
    PALA_GROW(w->v, w->cap + 1); PALA_GROW(w->w, w->cap + 1);
    memset(w->v + old, 0, (size_t)(w->cap + 1 - old) * sizeof *w->v);
    memset(w->w + old, 0, (size_t)(w->cap + 1 - old) * sizeof *w->w);
}

/* Room for n grains in the arrays of their state (doubling), and for nid numbers in inv. */
static void room(pala_world *w, int n, int nid)
{
    if (n > w->cap) {
        int old = w->cap;
        w->cap = w->cap ? 2 * w->cap : 64;
        if (w->cap < n) w->cap = n;
        PALA_GROW(w->x, w->cap); PALA_GROW(w->r, w->cap); room_vw(w, old);
        PALA_GROW(w->acc, w->cap); PALA_GROW(w->bacc, w->cap); PALA_GROW(w->tid, w->cap);
        if (w->gid) PALA_GROW(w->gid, w->cap);
    }
    if (w->gid && nid > w->icap) {
        w->icap = nid > 2 * w->icap ? nid : 2 * w->icap;
        PALA_GROW(w->inv, w->icap);
    }
}

int pala_world_add_grain(pala_world *w, int tmpl, pala_vec3 x, pala_vec3 r, pala_vec3 v, pala_vec3 om)
{
    room(w, w->n + 1, w->nid + 1);
    int k = w->n++;
    w->x[k] = x; w->r[k] = r; w->v[k] = v; w->w[k] = om;
    w->acc[k] = w->bacc[k] = pala_v(0, 0, 0);   /* paper section 7: alpha, beta start at 0 */
    w->tid[k] = tmpl;
    if (w->gid) {   /* a sorted world, or one whose grains left: the new grain takes the next number */
        w->gid[k] = w->nid;
        w->inv[w->nid] = k;
    }
    w->nid++;
    return k;
}

/* The numbers of a world that had none (grain k is number k): gid and inv. */
static void number(pala_world *w)
{
    if (w->gid) return;
    w->gid = pala_xrealloc(NULL, (size_t)(w->cap > 0 ? w->cap : 1) * sizeof *w->gid);
    w->icap = w->nid > 0 ? w->nid : 1;
    w->inv = pala_xrealloc(NULL, (size_t)w->icap * sizeof *w->inv);
    for (int k = 0; k < w->n; k++) w->gid[k] = w->inv[k] = k;
}

int pala_world_number_room(pala_world *w, long n)
{
    if (n <= w->icap) return 0;
    int *inv = n <= INT_MAX ? realloc(w->inv, (size_t)n * sizeof *inv) : NULL;
    if (!inv) return -1;
    w->inv = inv;
    w->icap = (int)n;
    return 0;
}

int pala_world_set_population(pala_world *w, int n, int nid, const int *tid, const int *gid)
{
    if (n < 0 || nid < n || (!gid && nid != n)) return bad(w, "pala_world_set_population: %d grains of %d numbers%s", n, nid, gid ? "" : " (without gid, as many as grains)");
    for (int k = 0; k < n; k++)
        if (tid[k] < 0 || tid[k] >= w->ntmpl) return bad(w, "pala_world_set_population: grain %d has template %d (the world has %d)", k, tid[k], w->ntmpl);
    free(w->gid); free(w->inv);
    w->gid = w->inv = NULL;
    w->icap = 0;
    room(w, n, nid);
    w->n = w->nid = n;
    memcpy(w->tid, tid, (size_t)n * sizeof *tid);
    for (int k = 0; k < n; k++) w->x[k] = w->r[k] = w->v[k] = w->w[k] = w->acc[k] = w->bacc[k] = pala_v(0, 0, 0);
    if (!gid) return PALA_OK;
    number(w);
    if (pala_world_number_room(w, nid)) {   /* a caller's (a checkpoint's) count, which may not fit */
        free(w->gid); free(w->inv);
        w->gid = w->inv = NULL;
        w->icap = 0;
        return bad(w, "pala_world_set_population: the table of %d grain numbers (%.3g GB) does not fit in memory", nid, (double)nid * sizeof(int) / 1e9);
    }
    w->nid = nid;
    for (int i = 0; i < nid; i++) w->inv[i] = -1;
    for (int k = 0; k < n; k++) {
        if (gid[k] < 0 || gid[k] >= nid || w->inv[gid[k]] >= 0) {
            free(w->gid); free(w->inv);
            w->gid = w->inv = NULL;
            w->nid = n;
            return bad(w, "pala_world_set_population: grain %d has number %d, out of 0 .. %d or given twice", k, gid[k], nid - 1);
        }
        w->gid[k] = gid[k];
        w->inv[gid[k]] = k;
    }
    return PALA_OK;
}

int pala_world_renumber(pala_world *w)
{
    if (!w->gid || w->nid <= w->n) return 0;
    int gaps = w->nid - w->n, c = 0;
    for (int i = 0; i < w->nid; i++)
        if (w->inv[i] >= 0) { w->gid[w->inv[i]] = c; w->inv[c++] = w->inv[i]; }   /* c <= i: inv read before it is written */
    w->nid = w->n;
    return gaps;
}

typedef struct sortkey { unsigned long long key; int k; } sortkey;

static int cmp_sortkey(const void *a, const void *b)
{
    const sortkey *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* arr in the order `order`, with pad zero elements after the grains (v, w: room_vw's) */
#define PERMUTE(arr, type, pad)                                             \
    do {                                                                    \
        type *tmp_ = pala_xrealloc(NULL, (size_t)(w->n + pad) * sizeof *tmp_); \
        for (int i = 0; i < w->n; i++) tmp_[i] = (arr)[order[i].k];         \
        memset(tmp_ + w->n, 0, (size_t)pad * sizeof *tmp_);                 \
        free(arr);                                                          \
        (arr) = tmp_;                                                       \
    } while (0)

/* The spatial order of the grains: keys of cells of two bounding radii, the slowest index
 * along the longest extent of the packing. */
typedef struct cellkeys { double l0[3], cell; int ax[3]; unsigned long long nc[3]; } cellkeys;

static cellkeys cell_keys(const pala_world *w)
{
    cellkeys c;
    /* cells of two bounding radii: the largest, or, if it exceeds twice the median (grains of
     * sizes far apart, as the neighbour list's levels), the median (a few large grains among
     * many small ones would otherwise make layers many small grains thick) */
    double rmin, rmax, rmed;
    pala_grain_radii(w, 1, &rmin, &rmax, &rmed);
    pala_vec3 lo, hi;
    pala_points_bounds(w->x, w->n, &lo, &hi);
    /* the slowest index runs along the longest extent */
    const double ext[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
    c.l0[0] = lo.x; c.l0[1] = lo.y; c.l0[2] = lo.z;
    for (int i = 0; i < 3; i++) c.ax[i] = i;
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (ext[c.ax[j]] > ext[c.ax[i]]) { int t = c.ax[i]; c.ax[i] = c.ax[j]; c.ax[j] = t; }
    c.cell = rmax > 0 ? 2 * (rmax > 2 * rmed ? rmed : rmax) : 1;
    for (int i = 0; i < 3; i++) {
        double n = floor(ext[i] / c.cell) + 1;
        c.nc[i] = n < 1e6 ? (unsigned long long)n : 1000000ull;
    }
    return c;
}

static unsigned long long cell_key(const cellkeys *c, pala_vec3 x)
{
    const double xs[3] = {x.x, x.y, x.z};
    unsigned long long key = 0;
    for (int i = 0; i < 3; i++) {
        const int a = c->ax[i];
        double f = floor((xs[a] - c->l0[a]) / c->cell);
        unsigned long long ic = f < 0 ? 0 : f >= (double)c->nc[a] ? c->nc[a] - 1 : (unsigned long long)f;
        key = key * c->nc[a] + ic;
    }
    return key;
}

/* The grains in spatial order, ascending (ties in storage order); NULL if they are in it
 * already (their keys do not decrease: nothing allocated for the check). */
static sortkey *spatial_order(const pala_world *w)
{
    const cellkeys c = cell_keys(w);
    int sorted = 1;
    for (unsigned long long k0 = 0, k = 0; (int)k < w->n && sorted; k++) {
        unsigned long long key = cell_key(&c, w->x[k]);
        sorted = k == 0 || key >= k0;
        k0 = key;
    }
    if (sorted) return NULL;
    sortkey *order = pala_xrealloc(NULL, (size_t)w->n * sizeof *order);
    for (int k = 0; k < w->n; k++) {
        order[k].key = cell_key(&c, w->x[k]);
        order[k].k = k;
    }
    qsort(order, (size_t)w->n, sizeof *order, cmp_sortkey);
    return order;
}

void pala_world_sort(pala_world *w)
{
    /* a few blocks fit in cache in any order, and keep their round-off as given */
    if (w->n < 2 * PALA_BLOCK || w->gid) return;
    free_states(w);   /* what was prepared is for the old order: prepare again */
    sortkey *order = spatial_order(w);
    if (!order) {   /* in spatial order already: numbered as it is */
        number(w);
        return;
    }
    PERMUTE(w->x, pala_vec3, 0); PERMUTE(w->r, pala_vec3, 0); PERMUTE(w->v, pala_vec3, 1); PERMUTE(w->w, pala_vec3, 1);
    PERMUTE(w->acc, pala_vec3, 0); PERMUTE(w->bacc, pala_vec3, 0); PERMUTE(w->tid, int, 0);
    w->cap = w->icap = w->n;
    w->gid = pala_xrealloc(NULL, (size_t)w->n * sizeof *w->gid);
    w->inv = pala_xrealloc(NULL, (size_t)w->n * sizeof *w->inv);
    for (int i = 0; i < w->n; i++) { w->gid[i] = order[i].k; w->inv[order[i].k] = i; }
    free(order);
}

/* A run's grains mix (a drum, a hopper, a pour whose grains enter at the end of storage):
 * neighbours drift apart in storage, and the sweep's window and the threads' boundary
 * blocks grow with them (force_pass.c), as do the cache misses.  So every sort_every steps
 * the grains are stored in spatial order again, as LAMMPS does (atom_modify sort): the
 * drum of bench/drum on two threads ran 1.2 s in 32.3 s instead of 42.4 s (docs/
 * performance.md).  An order that is spatial already is kept as it is. */
int pala_world_resorts(const pala_world *w)
{
    return w->sort_every > 0 && w->n >= 2 * PALA_BLOCK && !w->ninter && !w->additional_forces;
}

int pala_world_resort(pala_world *w)
{
    if (!pala_world_resorts(w) || w->step % w->sort_every || pala_world_check_prepared(w) != PALA_OK) return 0;
    sortkey *order = spatial_order(w);
    if (!order) return 0;
    long nh;
    double *hist = pala_world_history_get(w, &nh);
    const int np0 = w->npeb;
    int *pmap = hist ? pala_xrealloc(NULL, (size_t)(np0 + 1) * sizeof *pmap) : NULL;
    for (int i = 0, pm = 0; pmap && i < w->n; i++) {   /* old pebbles -> new ones */
        int k = order[i].k, nc = w->tmpl[w->tid[k]].ncomp, p = pala_grain_peb0(w, k);
        for (int c = 0; c < nc; c++) pmap[p + c] = pm + c;
        pm += nc;
    }
    number(w);
    PERMUTE(w->x, pala_vec3, 0); PERMUTE(w->r, pala_vec3, 0); PERMUTE(w->v, pala_vec3, 1); PERMUTE(w->w, pala_vec3, 1);
    PERMUTE(w->acc, pala_vec3, 0); PERMUTE(w->bacc, pala_vec3, 0); PERMUTE(w->tid, int, 0); PERMUTE(w->gid, int, 0);
    w->cap = w->n;   /* arrays of n now; room() grows them for grains to come */
    for (int i = 0; i < w->n; i++) w->inv[w->gid[i]] = i;
    free(order);
    pala_world_setup(w);
    if (hist) pala_contact_states_move(w, hist, nh, pmap, np0);
    free(pmap);
    free(hist);
    return 1;
}

int pala_world_add_interaction(pala_world *w, const pala_interaction *it)
{
    if (!it || !it->forces) return REFUSE(w, "pala_world_add_interaction: an interaction needs a forces function");
    PALA_GROW(w->inter, w->ninter + 1);
    w->inter[w->ninter++] = *it;
    if (pala_world_check_prepared(w) == PALA_OK) pala_grain_forces_prepare(w);
    return w->ninter - 1;
}

void pala_world_set_additional_forces(pala_world *w, pala_additional_forces fn, void *user)
{
    w->additional_forces = fn;
    w->af_user = user;
    if (pala_world_check_prepared(w) == PALA_OK) make_states(w);   /* the dissipation flag and ext may change */
}

const char *pala_world_error(const pala_world *w) { return w->why; }

static int finite3(pala_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }
static int nonzero3(pala_vec3 a) { return a.x != 0 || a.y != 0 || a.z != 0; }

/* pala_top_keys holds the world first: a top-level key's offset is its world field's */
_Static_assert(offsetof(pala_top_keys, w) == 0, "the world is the first member of pala_top_keys");

#define KEY(k) PALA_KEY_##k
#define NAME(k) pala_check_name(c, PALA_KEY_##k)
/* the world's field of top-level key k against its row of the key table */
#define WORLD_KEY(k) pala_check_key(c, w, PALA_PART_WORLD, -1, PALA_KEY_##k, w, 1)
enum { W = PALA_PART_WORLD, T = PALA_PART_TEMPLATE };

/* The settings of the world (docs/physics.md, "2D mode": in 2D nothing may push a grain out
 * of the plane or turn it about an in-plane axis). */
static int check_settings(pala_world *w, pala_check *c)
{
    if (WORLD_KEY(dimension) || WORLD_KEY(dt) || WORLD_KEY(gravity) || WORLD_KEY(electric_field) || WORLD_KEY(electric_field_turn) ||
        WORLD_KEY(magnetic_field) || WORLD_KEY(magnetic_field_turn) || WORLD_KEY(gravitational_constant) || WORLD_KEY(interaction_cutoff) ||
        (w->eps_r != 0 && WORLD_KEY(permittivity)) ||   /* 0 is read as 1 */
        WORLD_KEY(lorentz_step) || WORLD_KEY(hertz) || WORLD_KEY(rotation_step) || WORLD_KEY(sphere_orientation) || WORLD_KEY(max_overlap) || WORLD_KEY(neighbor_skin) || WORLD_KEY(sort_every) ||
        (w->tlaw != 0 && WORLD_KEY(tangential_law)) || (w->damp != 0 && WORLD_KEY(normal_damping)))   /* 0: the default */
        return PALA_ERR_INPUT;
    if (w->dim == 2) {
        if (w->g.z != 0) return pala_fault(c, W, -1, KEY(gravity), "'%s': in 2D the field must lie in the plane: set its z component to 0", NAME(gravity));
        if (w->E.z != 0)
            return pala_fault(c, W, -1, KEY(electric_field), "'%s': in 2D the field must lie in the plane: set its z component to 0", NAME(electric_field));
        if (w->E_turn.x != 0 || w->E_turn.y != 0 || w->B_turn.x != 0 || w->B_turn.y != 0) {
            int k = w->E_turn.x != 0 || w->E_turn.y != 0 ? KEY(electric_field_turn) : KEY(magnetic_field_turn);
            return pala_fault(c, W, -1, k, "'%s': in 2D a field may only turn about z: give 0 0 wz", pala_check_name(c, k));
        }
    }
    return PALA_OK;
}

/* Template t: its material, what the builder makes (pala_template_build), its charge and
 * dipoles, and in 2D what would push it out of the plane. */
static int check_template(pala_world *w, pala_check *c, int t)
{
    const pala_template *tp = &w->tmpl[t];
    char who[96];
    pala_check_who(c, w, T, t, who, sizeof who);
    if (tp->material < 0 || tp->material >= w->nmat)
        return pala_fault(c, T, t, KEY(material), "%s: '%s = %d' does not exist (the world has %d materials)", who, NAME(material), tp->material, w->nmat);
    if (tp->ncomp < 1 || !(tp->mass > 0 && isfinite(tp->mass)) || !(tp->inertia[0] > 0 && tp->inertia[1] > 0 && tp->inertia[2] > 0) ||
        !(tp->bound_radius > 0 && isfinite(tp->bound_radius)))
        return pala_fault(c, T, t, -1, "%s: its %d components, mass (%g kg), principal moments (%g %g %g kg m^2) "
                          "and bounding radius (%g m) must be positive and finite: its radii or its material's density are out of the range "
                          "of double precision; give radii in metres and the density in kg/m^3", who, tp->ncomp, tp->mass, tp->inertia[0],
                          tp->inertia[1], tp->inertia[2], tp->bound_radius);
    if (!isfinite(tp->charge)) return pala_fault(c, T, t, KEY(charge), "%s: '%s = %g': give a finite charge (C)", who, NAME(charge), tp->charge);
    if (!finite3(tp->edip) || !finite3(tp->mdip)) {
        int k = finite3(tp->edip) ? KEY(magnetic_dipole) : KEY(electric_dipole);
        return pala_fault(c, T, t, k, "%s: '%s' is not finite: give a finite dipole moment", who, pala_check_name(c, k));
    }
    if (w->dim == 2) {
        if (tp->edip.z != 0 || tp->mdip.z != 0) {
            int k = tp->edip.z != 0 ? KEY(electric_dipole) : KEY(magnetic_dipole);
            return pala_fault(c, T, t, k, "%s: '%s': in 2D the dipole must lie in the plane: set its z component to 0", who, pala_check_name(c, k));
        }
        if (tp->charge != 0 && (w->B.x != 0 || w->B.y != 0))
            return pala_fault(c, W, -1, KEY(magnetic_field), "'%s': in 2D an in-plane field pushes the charged grains of %s out of the plane "
                              "(q v x B has a z component): give B along z (0 0 Bz), or set %s = 3", NAME(magnetic_field), who, NAME(dimension));
        if ((tp->mdip.x != 0 || tp->mdip.y != 0) && w->B.z != 0)
            return pala_fault(c, W, -1, KEY(magnetic_field), "'%s': in 2D a field along z turns the magnetic dipoles of %s out of the plane "
                              "(m x B lies in the plane): give B in the plane (Bx By 0), or set %s = 3", NAME(magnetic_field), who, NAME(dimension));
    }
    if (w->sphere_orientation == PALA_SPHERES_FIXED && (tp->ncomp != 1 || w->arc || nonzero3(tp->edip) || nonzero3(tp->mdip)))
        return pala_fault(c, W, -1, KEY(sphere_orientation), "'%s = fixed' is for worlds of spheres, whose orientation no force depends on; "
                          "%s %s: remove the key (or set it to track)", NAME(sphere_orientation), who,
                          tp->ncomp != 1 ? "is not a sphere" : w->arc ? "is a disc among arc grains, whose orientation matters"
                                                                        : "has a dipole, which turns with it");
    if (w->arc && w->dim != 2)
        return pala_fault(c, W, -1, KEY(dimension), "%s: arc grains are 2D: set '%s = 2'", who, NAME(dimension));
    if (w->arc && w->fluid_eta > 0)   /* the drag of fluid.c acts on whole circles */
        return pala_fault(c, W, -1, KEY(fluid_viscosity), "%s: arc grains feel no fluid yet: remove '%s'", who, NAME(fluid_viscosity));
    for (int i = tp->comp0; i < tp->comp0 + tp->ncomp; i++)
        if (!(w->shape_r[i] > 0 && isfinite(w->shape_r[i])) || !finite3(w->shape[i]))
            return pala_fault(c, T, t, -1, "%s: component %d needs a finite radius > 0 and a finite shape vector (got radius %g)", who, i - tp->comp0,
                              w->shape_r[i]);
    return PALA_OK;
}

/* 1 for each material something is made of (a template's, a wall's): their
 * laws need their parameters; a material nothing uses may leave them out. */
static char *used_materials(const pala_world *w)
{
    char *used = pala_xrealloc(NULL, (size_t)w->nmat + 1);
    memset(used, 0, (size_t)w->nmat + 1);
    for (int t = 0; t < w->ntmpl; t++)
        if (w->tmpl[t].material >= 0 && w->tmpl[t].material < w->nmat) used[w->tmpl[t].material] = 1;
    for (int i = 0; i < w->nwalls; i++)
        if (w->walls[i].mat >= 0 && w->walls[i].mat < w->nmat) used[w->walls[i].mat] = 1;
    return used;
}

/* The materials, the pairs' own values, then the laws of each pair of used materials as
 * mixed (which makes w->pm, eq. 55). */
static int check_materials(pala_world *w, pala_check *c)
{
    if (w->nmat < 1) return pala_fault(c, W, -1, -1, "no material: add one (pala_world_add_material; a [material NAME] section)");
    char *used = used_materials(w);
    int st = PALA_OK;
    for (int i = 0; i < w->nmat && !st; i++) st = pala_material_check(c, w, i, used[i]);
    for (int q = 0; q < w->npairs && !st; q++) st = pala_check_fields(c, w, PALA_PART_PAIR, q, PALA_S_PAIR, &w->pairs[q], w->pairs[q].set);
    if (!st) pala_material_pairs(w);
    for (int a = 0; a < w->nmat && !st; a++)
        for (int b = a; b < w->nmat && !st; b++)
            if (used[a] && used[b]) st = pala_material_pair_check(c, w, a, b);
    free(used);
    return st;
}

int pala_world_check(pala_world *w, pala_check *c)
{
    c->msg[0] = 0;
    int st = check_settings(w, c);
    if (!st) st = check_materials(w, c);
    for (int t = 0; t < w->ntmpl && !st; t++) st = check_template(w, c, t);
    for (int k = 0; k < w->n && !st; k++) {
        if (w->tid[k] < 0 || w->tid[k] >= w->ntmpl)
            return pala_fault(c, PALA_PART_GRAIN, k, -1, "grain %d: template %d does not exist (the world has %d)", k, w->tid[k], w->ntmpl);
        if (!finite3(w->x[k]) || !finite3(w->r[k]) || !finite3(w->v[k]) || !finite3(w->w[k]))
            return pala_fault(c, PALA_PART_GRAIN, k, -1, "grain %d: position, rotation vector, velocity and angular velocity must be finite", k);
    }
    if (st) return st;
    char buf[320];
    int which = -1;
    const char *key, *e = pala_walls_prepare(w, buf, sizeof buf, &key, &which);
    if (e) {   /* a kind's check names its own key (container.h) */
        pala_fault(c, PALA_PART_WALL, which, -1, "%s", e);
        c->wkey = key;
        return PALA_ERR_INPUT;
    }
    which = -1;
    if ((e = pala_feeds_check(w, buf, sizeof buf, &which, &key))) {   /* the inserters and outlets (feed.h) */
        pala_fault(c, PALA_PART_FEED, which, -1, "%s", e);
        c->wkey = key;
        return PALA_ERR_INPUT;
    }
    for (int i = 0; i < w->ninter; i++)
        if (!w->inter[i].forces) return pala_fault(c, W, -1, -1, "interaction %d has no forces function", i);
    return PALA_OK;
}

int pala_world_check_prepared(pala_world *w)
{
    if (!w->work) return bad(w, "the world is not prepared: call pala_world_prepare first");
    if (w->n != w->prep_n || w->nmat != w->prep_nmat || w->ntmpl != w->prep_ntmpl)
        return bad(w, "grains, materials or templates were added since pala_world_prepare (%d, %d, %d then, %d, %d, %d now): "
                   "call it again", w->prep_n, w->prep_nmat, w->prep_ntmpl, w->n, w->nmat, w->ntmpl);
    if (!(w->dt > 0 && isfinite(w->dt))) return bad(w, "dt is %g: set a time step > 0", w->dt);
    if (!finite3(w->g)) return bad(w, "g is not finite: set the field to finite values (0 0 0 for none)");
    return PALA_OK;
}

void pala_world_derive(pala_world *w)
{
    pala_grain_forces_derive(w);   /* g, the fields, the interactions' settings */
    if ((w->work->cm->laws & PALA_LAWS_FRAC) && w->work->cm->frac_dt != w->dt) pala_contacts_frac_tables(w);   /* the fractional law's coefficients are per dt */
}

int pala_world_ready(pala_world *w)
{
    int st = pala_world_check_prepared(w);
    if (st) return st;
    pala_world_derive(w);
    if (w->pc)
        for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    if (pala_nlist_update(w)) pala_force_pass_setup(w);
    if (w->work->moving) pala_surfaces_move(w, w->t);
    return PALA_OK;
}

int pala_world_prepare(pala_world *w)
{
    pala_check c = {0, w->why, sizeof w->why, 0, 0, -1, NULL};
    int st = pala_world_check(w, &c);   /* and the pairs of materials, eq. (55) */
    if (st) {
        free_states(w);   /* no step on what was prepared before */
        return st;
    }
    pala_world_setup(w);
    return PALA_OK;
}

void pala_world_setup(pala_world *w)
{
    /* Pebbles: in a world of spheres only, pebble k is grain k (no p0, pc, pg). */
    int spheres = 1;
    for (int t = 0; t < w->ntmpl; t++) spheres &= w->tmpl[t].ncomp == 1;
    free(w->p0); free(w->pc); free(w->pg); free(w->parc); free(w->arcv);
    w->p0 = NULL; w->pc = NULL; w->pg = NULL; w->parc = NULL; w->arcv = NULL;
    w->npeb = w->n;
    if (!spheres) {
        PALA_GROW(w->p0, w->n + 1);
        w->npeb = 0;
        for (int k = 0; k < w->n; k++) { w->p0[k] = w->npeb; w->npeb += w->tmpl[w->tid[k]].ncomp; }
        w->p0[w->n] = w->npeb;
        PALA_GROW(w->pc, w->npeb);
        PALA_GROW(w->pg, w->npeb);
        for (int k = 0; k < w->n; k++)
            for (int p = w->p0[k]; p < w->p0[k + 1]; p++) w->pg[p] = k;
        if (w->arc) {   /* arc grains: their ranges in the world frame (grain.c); cos h and the bounding radius are constants */
            PALA_GROW(w->parc, w->npeb);
            for (int k = 0; k < w->n; k++)
                for (int i = 0; i < w->tmpl[w->tid[k]].ncomp; i++) w->parc[w->p0[k] + i] = w->arc[w->tmpl[w->tid[k]].comp0 + i];
            PALA_GROW(w->arcv, 8 * (size_t)w->nshape);
            for (int i = 0; i < w->nshape; i++) {
                const pala_vec3 s = w->shape[i];
                const pala_arcrange *a = &w->arc[i];
                memcpy(w->arcv + 8 * (size_t)i, (double[8]){s.x, s.x, a->mx, a->mx, s.y, s.y, a->my, a->my}, 8 * sizeof(double));
            }
        }
    }
    pala_nlist_prepare(w);
    if (w->pc)
        for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    pala_world_arc_bounds(w);   /* and the arcs' bounding circles (the list's builds place them again) */
    make_states(w);
    w->prep_n = w->n;
    w->prep_nmat = w->nmat;
    w->prep_ntmpl = w->ntmpl;
}

void pala_world_repopulate(pala_world *w, const unsigned char *gone, const double *hist, long nh)
{
    const int n0 = w->prep_n, np0 = w->npeb;   /* the grains and pebbles of the last setup */
    int *pmap = hist ? pala_xrealloc(NULL, (size_t)(np0 + 1) * sizeof *pmap) : NULL;
    if (gone) number(w);   /* the grains that stay keep their numbers */
    int m = 0, pm = 0;
    for (int k = 0; k < w->n; k++) {
        int nc = w->tmpl[w->tid[k]].ncomp, p = k < n0 ? pala_grain_peb0(w, k) : -1;   /* its pebbles before */
        int out = gone && gone[k];
        for (int c = 0; pmap && p >= 0 && c < nc; c++) pmap[p + c] = out ? -1 : pm + c;
        if (out) {
            w->inv[w->gid[k]] = -1;
            continue;
        }
        w->x[m] = w->x[k]; w->r[m] = w->r[k]; w->v[m] = w->v[k]; w->w[m] = w->w[k];
        w->acc[m] = w->acc[k]; w->bacc[m] = w->bacc[k]; w->tid[m] = w->tid[k];
        if (w->gid) {
            w->gid[m] = w->gid[k];
            w->inv[w->gid[m]] = m;
        }
        m++;
        pm += nc;
    }
    w->n = m;
    pala_world_setup(w);
    if (hist) pala_contact_states_move(w, hist, nh, pmap, np0);
    free(pmap);
}

void pala_world_set_threads(pala_world *w, int n)
{
    w->nthreads = n < 1 ? 1 : n;
    if (pala_world_check_prepared(w) == PALA_OK) pala_work_prepare(w);
}

double pala_world_single_share(const pala_world *w)
{
    const pala_team *tm = w->team;
    return tm && tm->asteps > 0 ? (double)tm->asteps1 / (double)tm->asteps : 0;
}

int pala_world_max_threads(const pala_world *w)
{
    long most = w->feed ? pala_world_most_grains(w) : w->n;   /* grains that enter: those it may hold */
    if (most < 0 || most > (1L << 30)) most = 1L << 30;
    long nblk = (most + PALA_BLOCK - 1) / PALA_BLOCK;
    return nblk > 0 ? (int)nblk : 1;
}


int pala_world_wall_columns(const pala_world *w, const char **names, double *values, int max)
{
    return pala_walls_columns(w, names, values, NULL, max);
}

int pala_world_wall_areas(const pala_world *w, double *area, int max)
{
    /* as many as the caller has room for: a cap below it left its area[] unset past the cap
     * (walls.tsv's writer reads it for each column) */
    const char **names = pala_xrealloc(NULL, (size_t)(max > 0 ? max : 1) * sizeof *names);
    double *values = pala_xrealloc(NULL, (size_t)(max > 0 ? max : 1) * sizeof *values);
    int n = pala_walls_columns(w, names, values, area, max);
    free(names);
    free(values);
    return n;
}

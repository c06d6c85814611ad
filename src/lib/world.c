/* world.c: the world's storage (materials, templates, grains), its checks and setup, and
 * the entry points an embedding program uses to build one (docs/embedding.md).
 *
 * Layout: templates are stored once; grains hold a template index and their hot state
 * in one contiguous array per field (x, r, v, omega, alpha, beta).  Component ("pebble")
 * positions are recomputed from the constant shape vectors whenever a grain moves. */
#include "world.h"
#include "alloc.h"
#include "container.h"
#include "contact.h"
#include "force_pass.h"
#include "grain.h"
#include "grain_forces.h"
#include "material.h"
#include "membrane.h"
#include "neighbor.h"
#include "threads.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pala_world_init(pala_world *w)
{
    memset(w, 0, sizeof *w);
    w->dim = 3;
    w->max_overlap = 0.5;
    w->wall_mat = -1;
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
    free(w->mat); free(w->pm); free(w->pairs); free(w->tmpl); free(w->shape); free(w->shape_r);
    free(w->x); free(w->r); free(w->v); free(w->w); free(w->acc); free(w->bacc);
    free(w->tid); free(w->gid); free(w->inv); free(w->p0); free(w->pc); free(w->pg); free(w->inter);
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
    if (!p || p->a < 0 || p->a >= w->nmat || p->b < 0 || p->b >= w->nmat) return -1;
    if (p->set & ~(PALA_PAIR_MU | PALA_PAIR_DELTA | PALA_PAIR_NU | PALA_PAIR_KROLL | PALA_PAIR_MUROLL | PALA_PAIR_KTOR |
                   PALA_PAIR_MUTOR | PALA_PAIR_KT | PALA_PAIR_TLAW | PALA_PAIR_DAMP)) return -1;
    const struct { int bit; double v; } val[] = {
        {PALA_PAIR_MU, p->mu}, {PALA_PAIR_DELTA, p->delta}, {PALA_PAIR_NU, p->nu}, {PALA_PAIR_KROLL, p->kroll},
        {PALA_PAIR_MUROLL, p->muroll}, {PALA_PAIR_KTOR, p->ktor}, {PALA_PAIR_MUTOR, p->mutor}, {PALA_PAIR_KT, p->kt}};
    for (size_t i = 0; i < sizeof val / sizeof val[0]; i++)
        if ((p->set & val[i].bit) && !(val[i].v >= 0 && isfinite(val[i].v))) return -1;
    if ((p->set & PALA_PAIR_DELTA) && p->delta > 1) return -1;
    if ((p->set & PALA_PAIR_TLAW) && !(p->tlaw >= PALA_TLAW_REGULARISED && p->tlaw <= PALA_TLAW_MINDLIN)) return -1;
    if ((p->set & PALA_PAIR_DAMP) && !(p->damp == PALA_DAMP_SWITCH || p->damp == PALA_DAMP_DASHPOT)) return -1;
    for (int i = 0; i < w->npairs; i++)
        if ((w->pairs[i].a == p->a && w->pairs[i].b == p->b) || (w->pairs[i].a == p->b && w->pairs[i].b == p->a)) return -1;
    PALA_GROW(w->pairs, w->npairs + 1);
    w->pairs[w->npairs] = *p;
    return w->npairs++;
}

int pala_world_add_template(pala_world *w, const pala_template *t, const pala_vec3 *shape, const double *rad)
{
    if (t->ncomp < 1 || !shape || !rad) return -1;   /* pala_world_prepare says why a grain needs components */
    PALA_GROW(w->tmpl, w->ntmpl + 1);
    PALA_GROW(w->shape, w->nshape + t->ncomp);
    PALA_GROW(w->shape_r, w->nshape + t->ncomp);
    w->tmpl[w->ntmpl] = *t;
    w->tmpl[w->ntmpl].comp0 = w->nshape;
    memcpy(w->shape + w->nshape, shape, (size_t)t->ncomp * sizeof *shape);
    memcpy(w->shape_r + w->nshape, rad, (size_t)t->ncomp * sizeof *rad);
    w->nshape += t->ncomp;
    return w->ntmpl++;
}

int pala_world_add_sphere_template(pala_world *w, int mat, double R)
{
    if (mat < 0 || mat >= w->nmat || !(R > 0 && isfinite(R))) return -1;
    pala_template t;
    pala_vec3 c = pala_v(0, 0, 0), shape;
    double rad;
    char err[200];
    memset(&t, 0, sizeof t);
    if (pala_template_build(&t, 1, &c, &R, w->mat[mat].rho, 0, &shape, &rad, err, sizeof err)) return -1;
    snprintf(t.name, sizeof t.name, "sphere");
    t.material = mat;
    return pala_world_add_template(w, &t, &shape, &rad);
}

int pala_world_add_grain(pala_world *w, int tmpl, pala_vec3 x, pala_vec3 r, pala_vec3 v, pala_vec3 om)
{
    if (w->n == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 64;
        PALA_GROW(w->x, w->cap); PALA_GROW(w->r, w->cap); PALA_GROW(w->v, w->cap); PALA_GROW(w->w, w->cap);
        PALA_GROW(w->acc, w->cap); PALA_GROW(w->bacc, w->cap); PALA_GROW(w->tid, w->cap);
    }
    int k = w->n++;
    w->x[k] = x; w->r[k] = r; w->v[k] = v; w->w[k] = om;
    w->acc[k] = w->bacc[k] = pala_v(0, 0, 0);   /* paper section 7: alpha, beta start at 0 */
    w->tid[k] = tmpl;
    if (w->gid) {   /* a sorted world: the new grain is number k of the input too */
        PALA_GROW(w->gid, w->cap);
        PALA_GROW(w->inv, w->cap);
        w->gid[k] = w->inv[k] = k;
    }
    return k;
}

typedef struct sortkey { unsigned long long key; int k; } sortkey;

static int cmp_sortkey(const void *a, const void *b)
{
    const sortkey *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

#define PERMUTE(arr, type)                                                  \
    do {                                                                    \
        type *tmp_ = pala_xrealloc(NULL, (size_t)w->n * sizeof *tmp_);      \
        for (int i = 0; i < w->n; i++) tmp_[i] = (arr)[order[i].k];         \
        free(arr);                                                          \
        (arr) = tmp_;                                                       \
    } while (0)

void pala_world_sort(pala_world *w)
{
    /* a few blocks fit in cache in any order, and keep their round-off as given */
    if (w->n < 2 * PALA_BLOCK || w->gid) return;
    free_states(w);   /* what was prepared is for the old order: prepare again */
    double rmax = 0;
    for (int t = 0; t < w->ntmpl; t++) rmax = fmax(rmax, w->tmpl[t].bound_radius);
    pala_vec3 lo = w->x[0], hi = w->x[0];
    for (int k = 1; k < w->n; k++) {
        lo = pala_v(fmin(lo.x, w->x[k].x), fmin(lo.y, w->x[k].y), fmin(lo.z, w->x[k].z));
        hi = pala_v(fmax(hi.x, w->x[k].x), fmax(hi.y, w->x[k].y), fmax(hi.z, w->x[k].z));
    }
    /* cells of two bounding radii; the slowest index runs along the longest extent */
    const double ext[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z}, l0[3] = {lo.x, lo.y, lo.z};
    int ax[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (ext[ax[j]] > ext[ax[i]]) { int t = ax[i]; ax[i] = ax[j]; ax[j] = t; }
    double cell = rmax > 0 ? 2 * rmax : 1;
    unsigned long long nc[3];
    for (int i = 0; i < 3; i++) {
        double c = floor(ext[i] / cell) + 1;
        nc[i] = c < 1e6 ? (unsigned long long)c : 1000000ull;
    }
    sortkey *order = pala_xrealloc(NULL, (size_t)w->n * sizeof *order);
    for (int k = 0; k < w->n; k++) {
        const double xs[3] = {w->x[k].x, w->x[k].y, w->x[k].z};
        unsigned long long key = 0;
        for (int i = 0; i < 3; i++) {
            double c = floor((xs[ax[i]] - l0[ax[i]]) / cell);
            unsigned long long ic = c < 0 ? 0 : c >= (double)nc[ax[i]] ? nc[ax[i]] - 1 : (unsigned long long)c;
            key = key * nc[ax[i]] + ic;
        }
        order[k].key = key;
        order[k].k = k;
    }
    qsort(order, (size_t)w->n, sizeof *order, cmp_sortkey);
    PERMUTE(w->x, pala_vec3); PERMUTE(w->r, pala_vec3); PERMUTE(w->v, pala_vec3); PERMUTE(w->w, pala_vec3);
    PERMUTE(w->acc, pala_vec3); PERMUTE(w->bacc, pala_vec3); PERMUTE(w->tid, int);
    w->cap = w->n;
    w->gid = pala_xrealloc(NULL, (size_t)w->n * sizeof *w->gid);
    w->inv = pala_xrealloc(NULL, (size_t)w->n * sizeof *w->inv);
    for (int i = 0; i < w->n; i++) { w->gid[i] = order[i].k; w->inv[order[i].k] = i; }
    free(order);
}

int pala_world_add_interaction(pala_world *w, const pala_interaction *it)
{
    if (!it || !it->forces) return -1;
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

/* What is wrong, into w->why; returns PALA_ERR_INPUT. */
static int bad(pala_world *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->why, sizeof w->why, fmt, ap);
    va_end(ap);
    return PALA_ERR_INPUT;
}

static int finite3(pala_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

/* The checks of pala_world_prepare: everything the step reads, in the order a reader of
 * the message would fix it. */
static int check_world(pala_world *w)
{
    w->why[0] = 0;
    if (w->dim != 2 && w->dim != 3) return bad(w, "dim is %d: set it to 2 or 3", w->dim);
    if (!(w->dt > 0 && isfinite(w->dt))) return bad(w, "dt is %g: set a time step > 0 (a contact should last ~20 steps)", w->dt);
    if (!finite3(w->g)) return bad(w, "g is not finite: set the field to finite values (0 0 0 for none)");
    if (w->dim == 2 && w->g.z != 0) return bad(w, "in 2D the field must lie in the plane: set g.z to 0");
    if (w->dim == 2 && w->container == PALA_CONTAINER_CAVITY && w->cav_c.z != 0) return bad(w, "in 2D the cavity centre needs z = 0");
    if (!finite3(w->E) || !finite3(w->B) || !finite3(w->E_turn) || !finite3(w->B_turn))
        return bad(w, "the E or B field or their turning rates are not finite: set finite values (0 0 0 for none)");
    if (!(w->grav_G >= 0 && isfinite(w->grav_G)) || !(w->eps_r >= 0 && isfinite(w->eps_r)) || !(w->cutoff >= 0 && isfinite(w->cutoff)))
        return bad(w, "grav_G, eps_r and cutoff must be finite and >= 0 (got %g, %g, %g)", w->grav_G, w->eps_r, w->cutoff);
    if (w->lorentz != PALA_LORENTZ_IMPLICIT && w->lorentz != PALA_LORENTZ_PAPER) return bad(w, "lorentz is %d: use enum pala_lorentz", w->lorentz);
    if (w->dim == 2) {
        /* docs/physics.md, "2D mode": nothing may push a grain out of the plane or turn it about an in-plane axis */
        if (w->E.z != 0) return bad(w, "in 2D the E field must lie in the plane: set its z component to 0");
        if (w->E_turn.x != 0 || w->E_turn.y != 0 || w->B_turn.x != 0 || w->B_turn.y != 0)
            return bad(w, "in 2D a field may only turn about z: give its turning rate as 0 0 wz");
    }
    if (!(w->max_overlap > 0 && isfinite(w->max_overlap))) return bad(w, "max_overlap is %g: set it > 0 (default 0.5)", w->max_overlap);
    if (!(w->skin >= 0 && isfinite(w->skin))) return bad(w, "skin is %g: set it >= 0 (0 chooses one)", w->skin);
    if (w->nmat < 1) return bad(w, "no material: add one with pala_world_add_material");
    for (int i = 0; i < w->nmat; i++) {
        const pala_material *m = &w->mat[i];
        if (!(m->rho > 0 && isfinite(m->rho)) || !(m->E > 0 && isfinite(m->E)))
            return bad(w, "material %d: density and Young's modulus must be finite and > 0 (got %g, %g)", i, m->rho, m->E);
        if (!(m->sigma >= 0 && m->sigma <= 0.5) || !(m->delta >= 0 && m->delta <= 1) || !(m->mu >= 0 && isfinite(m->mu)) ||
            !(m->nu >= 0 && isfinite(m->nu)))
            return bad(w, "material %d: need 0 <= sigma <= 0.5, 0 <= delta <= 1, mu >= 0 and nu >= 0 (got %g, %g, %g, %g)", i, m->sigma,
                       m->delta, m->mu, m->nu);
        if (m->damp < PALA_DAMP_WORLD || m->damp > PALA_DAMP_DASHPOT)
            return bad(w, "material %d: damp is %d: give PALA_DAMP_WORLD, PALA_DAMP_SWITCH or PALA_DAMP_DASHPOT", i, m->damp);
    }
    if (w->damp < PALA_DAMP_WORLD || w->damp > PALA_DAMP_DASHPOT)
        return bad(w, "damp is %d: give 0 (the switch of eq. 56), PALA_DAMP_SWITCH or PALA_DAMP_DASHPOT", w->damp);
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        if (tp->material < 0 || tp->material >= w->nmat)
            return bad(w, "template %d: material %d does not exist (the world has %d)", t, tp->material, w->nmat);
        if (tp->ncomp < 1 || !(tp->mass > 0 && isfinite(tp->mass)) || !(tp->inertia[0] > 0 && tp->inertia[1] > 0 && tp->inertia[2] > 0) ||
            !(tp->bound_radius > 0 && isfinite(tp->bound_radius)))
            return bad(w, "template %d: needs at least one component, a mass > 0, moments > 0 and a bounding radius > 0 (build it with "
                       "pala_template_build)", t);
        if (!isfinite(tp->charge) || !finite3(tp->edip) || !finite3(tp->mdip))
            return bad(w, "template %d: charge and dipole moments must be finite", t);
        if (w->dim == 2) {
            if (tp->edip.z != 0 || tp->mdip.z != 0)
                return bad(w, "template %d: in 2D a dipole must lie in the plane (z component 0)", t);
            if (tp->charge != 0 && (w->B.x != 0 || w->B.y != 0))
                return bad(w, "template %d is charged: in 2D an in-plane B field pushes it out of the plane; give B along z", t);
            if (tp->mdip.x != 0 || tp->mdip.y != 0) {
                if (w->B.z != 0) return bad(w, "template %d has a magnetic dipole: in 2D a B field along z turns it out of the plane; give B in the plane", t);
            }
        }
        for (int i = tp->comp0; i < tp->comp0 + tp->ncomp; i++)
            if (!(w->shape_r[i] > 0 && isfinite(w->shape_r[i])) || !finite3(w->shape[i]))
                return bad(w, "template %d: component %d needs a finite radius > 0 and a finite shape vector (got radius %g)", t,
                           i - tp->comp0, w->shape_r[i]);
    }
    for (int k = 0; k < w->n; k++) {
        if (w->tid[k] < 0 || w->tid[k] >= w->ntmpl) return bad(w, "grain %d: template %d does not exist (the world has %d)", k, w->tid[k], w->ntmpl);
        if (!finite3(w->x[k]) || !finite3(w->r[k]) || !finite3(w->v[k]) || !finite3(w->w[k]))
            return bad(w, "grain %d: position, rotation vector, velocity and angular velocity must be finite", k);
    }
    if (!pala_container_known(w->container)) return bad(w, "container %d is not a container kind (enum pala_container)", w->container);
    if (w->container != PALA_CONTAINER_NONE) {
        if (w->wall_mat < 0 || w->wall_mat >= w->nmat)
            return bad(w, "the container has walls but wall_mat is %d: set it to the index of a material (0..%d)", w->wall_mat, w->nmat - 1);
        char buf[200];
        const char *e = pala_container_of(w)->check(w, buf, sizeof buf);
        if (e) return bad(w, "%s", e);
    }
    if (w->membrane) {
        char buf[240];
        const char *e = pala_membrane_check(w, buf, sizeof buf);
        if (e) return bad(w, "%s", e);
    }
    for (int i = 0; i < w->ninter; i++)
        if (!w->inter[i].forces) return bad(w, "interaction %d has no forces function", i);
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

int pala_world_prepare(pala_world *w)
{
    int st = check_world(w);
    if (st) {
        free_states(w);   /* no step on what was prepared before */
        return st;
    }
    pala_material_pairs(w);   /* eq. (55) */
    for (int i = 0; i < w->nmat * w->nmat; i++)
        if (w->pm[i].damp == PALA_DAMP_DASHPOT && w->pm[i].delta < PALA_DASHPOT_DELTA_MIN) {
            free_states(w);
            return bad(w, "materials %d and %d meet with the normal dashpot and delta %g: the dashpot needs delta >= %g (restitution "
                       ">= %g); give a larger delta, or the switch of eq. (56)", i / w->nmat, i % w->nmat, w->pm[i].delta,
                       PALA_DASHPOT_DELTA_MIN, sqrt(PALA_DASHPOT_DELTA_MIN));
        }
    /* Pebbles: in a world of spheres only, pebble k is grain k (no p0, pc, pg). */
    int spheres = 1;
    for (int t = 0; t < w->ntmpl; t++) spheres &= w->tmpl[t].ncomp == 1;
    free(w->p0); free(w->pc); free(w->pg);
    w->p0 = NULL; w->pc = NULL; w->pg = NULL;
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
    }
    pala_nlist_prepare(w);
    if (w->pc)
        for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    make_states(w);
    w->prep_n = w->n;
    w->prep_nmat = w->nmat;
    w->prep_ntmpl = w->ntmpl;
    return PALA_OK;
}

void pala_world_set_threads(pala_world *w, int n)
{
    w->nthreads = n < 1 ? 1 : n;
    if (pala_world_check_prepared(w) == PALA_OK) pala_work_prepare(w);
}

int pala_world_max_threads(const pala_world *w)
{
    int nblk = (w->n + PALA_BLOCK - 1) / PALA_BLOCK;
    return nblk > 0 ? nblk : 1;
}


/* walls.tsv: the container's columns, then the membrane's */
static int wall_columns(const pala_world *w, const char **names, double *values, double *area, int max)
{
    int n = pala_container_of(w)->columns(w, names, values, area, max);
    if (w->membrane && w->container == PALA_CONTAINER_BOX)
        n += pala_membrane_columns(w, names + n, values + n, area ? area + n : NULL, max - n);
    return n;
}

int pala_world_wall_columns(const pala_world *w, const char **names, double *values, int max)
{
    return wall_columns(w, names, values, NULL, max);
}

int pala_world_wall_areas(const pala_world *w, double *area, int max)
{
    enum { MAXC = 64 };
    const char *names[MAXC];
    double values[MAXC];
    return wall_columns(w, names, values, area, max < MAXC ? max : MAXC);
}

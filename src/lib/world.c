/* world.c: the world's storage (materials, templates, grains), its setup, and energies.
 *
 * Layout: templates are stored once; grains hold a template index and their hot state
 * in one contiguous array per field (x, r, v, omega, alpha, beta).  Component ("pebble")
 * positions are recomputed from the constant shape vectors at every force pass. */
#include "internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *pala_xrealloc(void *p, size_t n)
{
    if (n == 0) n = 1;
    void *q = realloc(p, n);
    if (!q) {
        fprintf(stderr, "pala: out of memory (asked for %zu bytes)\n", n);
        exit(PALA_ERR_IO);
    }
    return q;
}

void pala_world_init(pala_world *w)
{
    memset(w, 0, sizeof *w);
    w->dim = 3;
    w->max_overlap = 0.5;
    w->wall_mat = -1;
}

void pala_world_free(pala_world *w)
{
    free(w->mat); free(w->pm); free(w->tmpl); free(w->shape); free(w->shape_r);
    free(w->x); free(w->r); free(w->v); free(w->w); free(w->acc); free(w->bacc);
    free(w->tid); free(w->gid); free(w->inv); free(w->p0); free(w->pc); free(w->pg);
    pala_nlist_free(&w->nl);
    pala_work_free(w);
    memset(w, 0, sizeof *w);
}

int pala_world_add_material(pala_world *w, const pala_material *m)
{
    PALA_GROW(w->mat, w->nmat + 1);
    w->mat[w->nmat] = *m;
    return w->nmat++;
}

int pala_world_add_template(pala_world *w, const pala_template *t, const pala_vec3 *shape, const double *rad)
{
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

double pala_harmonic(double a, double b)
{
    if (isinf(a)) return 2 * b;            /* H(inf, x) = 2x (PHYSICS.md 2) */
    if (isinf(b)) return 2 * a;
    return a + b == 0 ? 0 : 2 * a * b / (a + b);
}

/* eq. (57): F = c_H E~ sqrt(r~) (-d)^{3/2} with c_H = sqrt(3)/2.  The textbook law
 * 4/3 E* sqrt(R*) with E* = E~/2, R* = r~/2 is the same form with c_H = sqrt(2)/3. */
double pala_hertz_prefactor(int hertz)
{
    return hertz == PALA_HERTZ_TEXTBOOK ? sqrt(2.0) / 3.0 : sqrt(3.0) / 2.0;
}

int pala_world_prepare(pala_world *w)
{
    /* combined material data, eq. (55) */
    PALA_GROW(w->pm, w->nmat * w->nmat);
    double ch = pala_hertz_prefactor(w->hertz);
    for (int i = 0; i < w->nmat; i++)
        for (int j = 0; j < w->nmat; j++) {
            const pala_material *a = &w->mat[i], *b = &w->mat[j];
            pala_pairmat *p = &w->pm[i * w->nmat + j];
            p->kE = ch * pala_harmonic(a->E / (1 - a->sigma * a->sigma), b->E / (1 - b->sigma * b->sigma));
            p->delta = pala_harmonic(a->delta, b->delta);
            p->mu = pala_harmonic(a->mu, b->mu);
            p->nu = pala_harmonic(a->nu, b->nu);
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
    w->nl.builds = 0;
    double amax = 0;
    for (int i = 0; i < w->nshape; i++) amax = fmax(amax, w->shape_r[i]);
    w->nl.amax = amax;
    /* the list is on components: its skin scales with them (a clump's bounding radius
     * would list many more pairs that never touch) */
    if (!(w->nl.skin > 0)) w->nl.skin = 0.2 * amax;
    if (w->pc)
        for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    pala_work_prepare(w);
    /* Zero of the field energy: the container's lowest point along g, so E_total > 0 at
     * rest above the floor and dE_rel is relative to a meaningful energy. */
    w->field_ref = pala_v(0, 0, 0);
    double gl = pala_vnorm(w->g);
    if (gl > 0 && w->container == PALA_CONTAINER_CAVITY)
        w->field_ref = pala_vaxpy(w->cav_c, w->cav_R / gl, w->g);
    else if (gl > 0 && w->container == PALA_CONTAINER_BOX)
        w->field_ref = pala_v(w->g.x > 0 ? w->box_hi.x : w->g.x < 0 ? w->box_lo.x : 0,
                              w->g.y > 0 ? w->box_hi.y : w->g.y < 0 ? w->box_lo.y : 0,
                              w->g.z > 0 ? w->box_hi.z : w->g.z < 0 ? w->box_lo.z : 0);
    return PALA_OK;
}

/* c_i = x + r * x_i (eq. 50): always from the constant shape vectors. */
void pala_world_place_pebbles(pala_world *w, int k)
{
    if (!w->pc) {   /* spheres only: pebble centres made on request (src/order.c) */
        PALA_GROW(w->p0, w->n + 1);
        PALA_GROW(w->pc, w->n);
        for (int i = 0; i <= w->n; i++) w->p0[i] = i;
        for (int i = 0; i < w->n; i++) w->pc[i] = w->x[i];
    }
    const pala_template *t = &w->tmpl[w->tid[k]];
    pala_vec3 *pc = w->pc + w->p0[k];
    if (t->ncomp == 1) { pc[0] = w->x[k]; return; }
    const pala_vec3 *s = w->shape + t->comp0;
    double m[3][3];
    pala_rot_matrix(w->r[k], m);   /* one matrix for all components (paper, after eq. 10) */
    pala_vec3 x = w->x[k];
    for (int i = 0; i < t->ncomp; i++)
        pc[i] = pala_v(x.x + m[0][0] * s[i].x + m[0][1] * s[i].y + m[0][2] * s[i].z,
                       x.y + m[1][0] * s[i].x + m[1][1] * s[i].y + m[1][2] * s[i].z,
                       x.z + m[2][0] * s[i].x + m[2][1] * s[i].y + m[2][2] * s[i].z);
}

pala_energy pala_world_energy(pala_world *w)
{
    pala_energy e = {0, 0, 0, 0, 0};
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        e.kin += 0.5 * t->mass * pala_vnorm2(w->v[k]);
        /* 1/2 omega . I_r omega, evaluated in the body frame: omega_b = (-r) * omega */
        pala_vec3 ob = pala_rot_apply(pala_vneg(w->r[k]), w->w[k]);
        e.rot += 0.5 * (t->inertia[0] * ob.x * ob.x + t->inertia[1] * ob.y * ob.y + t->inertia[2] * ob.z * ob.z);
        e.field -= t->mass * pala_vdot(w->g, pala_vsub(w->x[k], w->field_ref));   /* -m g.x (PHYSICS.md 2) */
    }
    double U = 0;
    pala_world_forces(w, &U);
    e.contact = U;
    e.total = e.kin + e.rot + e.contact + e.field;
    return e;
}

/* ---- scratch of the step, threads ---------------------------------------------------- */
static void tscr_free(pala_tscr *S)
{
    free(S->ring); free(S->out); free(S->sum); free(S->B); free(S->nbuf);
}

void pala_work_free(pala_world *w)
{
    pala_work *wk = w->work;
    if (!wk) return;
    pala_pool_free(wk->pool);
    for (int t = 0; t < wk->nth; t++) tscr_free(&wk->ts[t]);
    free(wk->ts); free(wk->bb); free(wk->bbrank); free(wk->brec); free(wk->prad);
    free(wk->bs);
    free(wk->smax); free(wk->invm); free(wk->btid); free(wk->mg); free(wk->wcand); free(wk->wcb); free(wk->split);
    free(wk);
    w->work = NULL;
}

/* The even split of the blocks between the threads (internal.h, pala_work.split). */
static void even_split(pala_world *w)
{
    pala_work *wk = w->work;
    int n = pala_world_nthr(w);
    PALA_GROW(wk->split, 2 * (n + 1));
    for (int t = 0; t <= n; t++) wk->split[t] = (int)((long)wk->nblk * t / n);
    wk->bsteps = 0;
    for (int t = 0; t < wk->nth; t++) wk->ts[t].busy = 0;
}

void pala_work_prepare(pala_world *w)
{
    if (!w->work) {
        w->work = pala_xrealloc(NULL, sizeof *w->work);
        memset(w->work, 0, sizeof *w->work);
    }
    pala_work *wk = w->work;
    int nth = w->nthreads > 1 ? w->nthreads : 1;
    if (wk->nth != nth) {   /* per-thread scratch, and the boundary blocks change */
        if (wk->pool) pala_pool_free(wk->pool);
        wk->pool = NULL;
        for (int t = nth; t < wk->nth; t++) tscr_free(&wk->ts[t]);
        PALA_GROW(wk->ts, nth);
        for (int t = wk->nth; t < nth; t++) {
            memset(&wk->ts[t], 0, sizeof wk->ts[t]);
            wk->ts[t].B = pala_xrealloc(NULL, pala_batch_size());
            memset(wk->ts[t].B, 0, pala_batch_size());
        }
        w->nl.builds = 0;
    }
    if (!wk->pool && nth > 1) wk->pool = pala_pool_create(nth);
    wk->nth = nth;
    int nblk = (w->n + PALA_BLOCK - 1) / PALA_BLOCK;
    wk->nblk = nblk;
    PALA_GROW(wk->bs, wk->nblk + 1);
    memset(wk->bs, 0, (size_t)(wk->nblk + 1) * sizeof *wk->bs);
    PALA_GROW(wk->bbrank, wk->nblk + 1);
    PALA_GROW(wk->brec, wk->nblk + 1);
    memset(wk->brec, 0, (size_t)wk->nblk + 1);
    for (int b = 0; b <= nblk; b++) wk->bbrank[b] = -1;
    PALA_GROW(wk->btid, nblk + 1);
    for (int b = 0; b < nblk; b++) {
        int k1 = (b + 1) * PALA_BLOCK < w->n ? (b + 1) * PALA_BLOCK : w->n;
        wk->btid[b] = w->tid[b * PALA_BLOCK];
        for (int k = b * PALA_BLOCK; k < k1; k++)
            if (w->tid[k] != wk->btid[b]) wk->btid[b] = -1;
    }
    PALA_GROW(wk->prad, w->npeb + 1);
    for (int k = 0; k < w->n; k++) {
        const pala_template *tp = &w->tmpl[w->tid[k]];
        int p0 = w->p0 ? w->p0[k] : k;
        for (int i = 0; i < tp->ncomp; i++) wk->prad[p0 + i] = w->shape_r[tp->comp0 + i];
    }
    PALA_GROW(wk->smax, w->ntmpl + 1);
    PALA_GROW(wk->invm, w->ntmpl + 1);
    PALA_GROW(wk->mg, w->ntmpl + 1);
    PALA_GROW(wk->wcb, nblk + 1);
    wk->spheres_only = 1;
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        double m = 0;
        for (int i = 0; i < tp->ncomp; i++) m = fmax(m, pala_vnorm(w->shape[tp->comp0 + i]));
        wk->smax[t] = m;
        wk->invm[t] = 1.0 / tp->mass;
        wk->mg[t] = pala_vscale(tp->mass, w->g);
        wk->spheres_only &= tp->ncomp == 1;
    }
    wk->dissipative = 0;
    for (int i = 0; i < w->nmat * w->nmat; i++) wk->dissipative |= w->pm[i].delta < 1 || w->pm[i].mu > 0;
    even_split(w);   /* even; the boundary blocks are set by the sweep's setup */
    wk->nbb = 0;
    w->nl.builds = 0;   /* the sweep's window and boundary blocks are set up by the build */
}

void pala_world_set_threads(pala_world *w, int n)
{
    w->nthreads = n < 1 ? 1 : n;
    if (w->work) pala_work_prepare(w);
}

int pala_world_max_threads(const pala_world *w)
{
    int nblk = (w->n + PALA_BLOCK - 1) / PALA_BLOCK;
    return nblk > 0 ? nblk : 1;
}

int pala_world_wall_columns(const pala_world *w, const char **names, double *values, int max)
{
    int n = 0;
    if (w->container == PALA_CONTAINER_BOX) {
        /* normal momentum each face received, positive outward */
        static const char *const nm[6] = {"P_xlo", "P_xhi", "P_ylo", "P_yhi", "P_zlo", "P_zhi"};
        const double sgn[6] = {-1, 1, -1, 1, -1, 1};
        for (int i = 0; i < (w->dim == 2 ? 4 : 6) && n < max; i++, n++) {
            pala_vec3 p = w->wall_impulse[i];
            names[n] = nm[i];
            values[n] = (i < 2 ? p.x : i < 4 ? p.y : p.z) * sgn[i] + 0.0;   /* + 0.0: no "-0" for unloaded faces */
        }
    } else if (w->container == PALA_CONTAINER_CAVITY) {
        static const char *const nm[3] = {"P_x", "P_y", "P_z"};
        pala_vec3 p = w->wall_impulse[0];
        const double v[3] = {p.x, p.y, p.z};
        for (; n < 3 && n < max; n++) { names[n] = nm[n]; values[n] = v[n]; }
    }
    return n;
}

int pala_world_nthr(const pala_world *w)
{
    const pala_work *wk = w->work;
    return wk->pool && wk->nblk >= 2 ? pala_pool_size(wk->pool) : 1;
}

typedef struct parjob { pala_world *w; void (*fn)(pala_world *, int, int); void (*fnt)(pala_world *, int, int, int); } parjob;

static void par_entry(void *arg, int t, int n)
{
    parjob *j = arg;
    const pala_work *wk = j->w->work;   /* n is the pool's size, for which the split was set */
    int b0 = wk->split[t], b1 = wk->split[t + 1];
    (void)n;
    if (j->fnt) j->fnt(j->w, t, b0, b1);
    else if (b1 > b0) j->fn(j->w, b0, b1);
}

void pala_world_par(pala_world *w, void (*fn)(pala_world *w, int b0, int b1))
{
    pala_work *wk = w->work;
    if (pala_world_nthr(w) == 1) { fn(w, 0, wk->nblk); return; }
    parjob j = {w, fn, NULL};
    pala_pool_run(wk->pool, par_entry, &j);
}

void pala_world_par_t(pala_world *w, void (*fn)(pala_world *w, int t, int b0, int b1))
{
    pala_work *wk = w->work;
    if (pala_world_nthr(w) == 1) { fn(w, 0, 0, wk->nblk); return; }
    parjob j = {w, NULL, fn};
    pala_pool_run(wk->pool, par_entry, &j);
}

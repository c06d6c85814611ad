/* test_step.c: the structure of the step.
 *  - the isotropic fast path of the integrator (integrator.c) against the general path on
 *    the same grains and sums, bit for bit, unchained and chained, small and large turns; and
 *    that of a block of spheres of three templates (a size distribution's); and that of a
 *    block of isotropic 2D grains (discs, arc grains) with the pebbles it places;
 *  - an embedding program's additional forces (pala_world_set_additional_forces): a
 *    constant force against x = F t^2 / 2m, its work in E_diss;
 *  - an interaction between centres (pala_interaction): a spring between two grains
 *    against its period 2 pi sqrt(mu / k), energy conserved with the spring's in E_total;
 *  - an interaction with a torque: a dipole fixed in a sphere, in a homogeneous field,
 *    swings as a pendulum of period 2 pi sqrt(I / p B) (with its finite-amplitude
 *    correction), its energy conserved and nothing counted as dissipated;
 *  - the stage derive: g, the fields, their turning, G, eps_r, the cutoff, the Lorentz rule
 *    and dt changed after pala_world_prepare give the bits of a world prepared with them. */
#include "t.h"
#include "pala/pala.h"
#include "integrator.h"
#include "neighbor.h"
#include "t_world.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_step(void);

/* A world of one block of spheres in 3D, far apart, with random velocities, spins and
 * accelerations of the last step (spin: the scale of omega, 1/s); sizes: of 1 mm, or (1) of
 * three sizes, so of three templates (a size distribution's spheres). */
static void spheres(pala_world *w, double spin, unsigned seed, int sizes)
{
    pala_world_init(w);
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 0.5, .mu = 0.3, .nu = 1e-3};
    pala_world_add_material(w, &m);
    int t = pala_world_add_sphere_template(w, 0, 0.001);
    if (sizes) {
        pala_world_add_sphere_template(w, 0, 0.0004);
        pala_world_add_sphere_template(w, 0, 0.0023);
    }
    pala_rng g;
    pala_rng_seed(&g, seed);
    for (int k = 0; k < 200; k++) {
        pala_vec3 x = pala_v(0.01 * k, 0.003 * pala_rng_uniform(&g), 0);
        pala_vec3 r = pala_vscale(0.3, pala_rng_unit(&g, 3));
        pala_world_add_grain(w, t + (sizes ? k % 3 : 0), x, r, pala_vscale(0.5, pala_rng_unit(&g, 3)),
                             pala_vscale(spin * pala_rng_uniform(&g), pala_rng_unit(&g, 3)));
        w->acc[k] = pala_vscale(3, pala_rng_unit(&g, 3));
        w->bacc[k] = pala_vscale(500, pala_rng_unit(&g, 3));
    }
    w->dt = 1e-4;
    pala_world_prepare(w);
}

static int same(const pala_world *a, const pala_world *b)
{
    size_t n = (size_t)a->n * sizeof(pala_vec3);
    return !memcmp(a->x, b->x, n) && !memcmp(a->r, b->r, n) && !memcmp(a->v, b->v, n) && !memcmp(a->w, b->w, n) &&
           !memcmp(a->acc, b->acc, n) && !memcmp(a->bacc, b->bacc, n);
}

/* Random sums of forces and torques of n grains, in 3D or in the plane (dim 2: torques
 * along z), for the paths' tests (room for a ring of 256). */
static pala_facc *random_sums(int n, int dim, unsigned seed)
{
    pala_facc *A = calloc(256, sizeof *A);
    pala_rng g;
    pala_rng_seed(&g, seed);
    for (int k = 0; k < n; k++) {
        A[k].F = pala_vscale(1e-4, pala_rng_unit(&g, dim));
        A[k].T = dim == 3 ? pala_vscale(1e-9, pala_rng_unit(&g, 3)) : pala_v(0, 0, 1e-9 * (2 * pala_rng_uniform(&g) - 1));
        A[k].Fnc = pala_vscale(1e-5, pala_rng_unit(&g, dim));
        if (dim == 2) A[k].Tnc = pala_v(0, 0, 1e-10);
    }
    return A;
}

static void fast_path(void)
{
    const double spins[2] = {50, 5000};   /* 5000 1/s turns by more than 0.1 rad in dt/2 */
    for (int sz = 0; sz < 2; sz++)
    for (int si = 0; si < 2; si++)
        for (int chain = 0; chain < 2; chain++)
        for (int cut = 0; cut < 4; cut++)   /* the first 200 - cut grains: groups of four, and the last 1-3 */
        for (int ts = 0; ts < 3; ts++) {    /* 1: the non-conservative torques summed apart (springs: work.h, tsep); 2: no dissipation */
            pala_world a, b;
            spheres(&a, spins[si], 7, sz);
            spheres(&b, spins[si], 7, sz);
            int tid = sz ? -2 : 0;
            T_CHECK(a.work->btid[0] == tid && a.tmpl[0].isotropic, "fast path: one block of %s", sz ? "spheres of three templates (btid -2)" : "one isotropic template");
            a.work->chain = b.work->chain = chain;
            a.work->tsep = b.work->tsep = ts == 1;
            a.work->dissipative = b.work->dissipative = ts != 2;
            pala_facc *A = random_sums(a.n, 3, 3);
            if (ts == 1)
                for (int k = 0; k < a.n; k++) A[k].Tnc = pala_vscale(0.3, A[k].T);
            pala_finish fa = {0}, fb = {0};
            if (sz) pala_integrator_end_mixed(&a, 0, a.n - cut, A, 255, &fa);
            else pala_integrator_end_isotropic(&a, 0, a.n - cut, A, 255, tid, &fa);
            pala_integrator_end_general(&b, 0, b.n - cut, A, 255, &fb);
            T_CHECK(same(&a, &b) && fa.pdiss == fb.pdiss && fa.mv == fb.mv && fa.mv2 == fb.mv2 && fa.rv == fb.rv && fa.rv2 == fb.rv2 && fa.chk == fb.chk,
                    "fast path = general path bit for bit (%s, %s turns%s, %d grains%s): pdiss %.17g vs %.17g, bound %.17g vs %.17g",
                    chain ? "chained" : "unchained", si ? "large" : "small", sz ? ", three sizes" : "", a.n - cut, ts == 1 ? ", T_nc apart" : ts == 2 ? ", no dissipation" : "", fa.pdiss,
                    fb.pdiss, fa.mv, fb.mv);
            /* and the test can fail: a changed sum changes the state */
            A[cut ? a.n - cut - 1 : 5].F.x *= 1.0000001;   /* with a cut, a grain of the last group */
            pala_world_free(&b);
            spheres(&b, spins[si], 7, sz);
            b.work->chain = chain;
            b.work->tsep = ts == 1;
            b.work->dissipative = ts != 2;
            pala_integrator_end_general(&b, 0, b.n - cut, A, 255, &fb);
            T_CHECK(!same(&a, &b), "fast path test sees a change of one sum in the last bit");
            free(A);
            pala_world_free(&a);
            pala_world_free(&b);
        }
}

/* A 2D world of one block: arc grains (a quasi-triangle's template; arcs 2: two templates of
 * it, so a block of several) or discs (arcs 0; arcs -1: discs of two sizes, so of two
 * templates; arcs -2: planar unions of two discs), in the plane (x.z = 0, r and omega along z), with random in-plane velocities,
 * spins and accelerations. */
static void planar(pala_world *w, int arcs, double spin)
{
    pala_world_init(w);
    w->dim = 2;
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 0.5, .mu = 0.3, .nu = 1e-3};
    pala_world_add_material(w, &m);
    int t = 0;
    int t2 = -1;
    if (arcs > 0) {
        pala_arc a[6];
        char err[256] = "";
        pala_arcs_regular(3, 0.0014, 0.00042, 0.0056, a, err, sizeof err);
        pala_template tp;
        memset(&tp, 0, sizeof tp);
        t = pala_world_build_arc_template(w, &tp, 6, a, 0);
        if (arcs == 2) {
            memset(&tp, 0, sizeof tp);
            t2 = pala_world_build_arc_template(w, &tp, 6, a, 0);
        }
    } else if (arcs == -2) {
        pala_template tp;
        memset(&tp, 0, sizeof tp);
        const pala_vec3 c[2] = {{-0.0006, 0.0002, 0}, {0.0007, -0.0001, 0}};
        const double rad[2] = {0.001, 0.0008};
        t = pala_world_build_template(w, &tp, 2, c, rad, 0);
    } else t = pala_world_add_sphere_template(w, 0, 0.001);
    if (arcs == -1) t2 = pala_world_add_sphere_template(w, 0, 0.0015);
    pala_rng g;
    pala_rng_seed(&g, 11);
    for (int k = 0; k < 200; k++) {
        pala_vec3 v = pala_vscale(0.5, pala_rng_unit(&g, 2));
        pala_world_add_grain(w, t2 >= 0 && k % 3 == 1 ? t2 : t, pala_v(0.01 * k, 0.003 * pala_rng_uniform(&g), 0), pala_v(0, 0, 2 * pala_rng_uniform(&g) - 1), v,
                             pala_v(0, 0, spin * (2 * pala_rng_uniform(&g) - 1)));
        w->acc[k] = pala_vscale(3, pala_rng_unit(&g, 2));
        w->bacc[k] = pala_v(0, 0, 500 * (2 * pala_rng_uniform(&g) - 1));
    }
    w->dt = 1e-4;
    pala_world_prepare(w);
    pala_integrator_start(w, 0, 0, 1);   /* the start stage: the block's state is in the plane (work.h, flat) */
}

/* The end of the step of a block of isotropic 2D grains (end_planar, through
 * pala_integrator_end_block: discs through end_discs, four at a time; arc grains through their
 * own instance, end_planar_arcs, with its in-plane power and unrolled half steps) against the
 * general path, bit for bit, and the pebbles it places; grain 7 with a force along z takes the
 * general path within it, and in its group of four the others take end_planar_ one by one.
 * Also with T_nc apart and without dissipation (ts), discs of two templates, planar unions of
 * two discs (end_clumps4), and over 197
 * grains (the last one after the groups of four); and the test sees a change of one sum. */
static void planar_path(void)
{
    for (int arcs = -2; arcs < 2; arcs++)
        for (int ts = 0; ts < 3; ts++)
            for (int si = 0; si < 2; si++)
                for (int chain = 0; chain < 2; chain++) {
                    const double spin = si ? 5000 : 50;
                    pala_world a, b;
                    planar(&a, arcs, spin);
                    planar(&b, arcs, spin);
                    T_CHECK(a.work->flat[0] == 1, "planar path: the block's state is in the plane");
                    T_CHECK(arcs != -1 || a.work->btid[0] == -2, "planar path: discs of two templates make a block of several");
                    T_CHECK(arcs != -2 || a.tmpl[0].isotropic == 3, "planar path: a union of two discs turns about z alone");
                    a.work->chain = b.work->chain = chain;
                    if (ts) {
                        a.work->tsep = b.work->tsep = ts == 1;
                        a.work->dissipative = b.work->dissipative = ts != 2;
                    }
                    if (a.nl && b.nl) a.nl->frame = b.nl->frame = pala_v(0.3, -0.2, 0);   /* the list's frame (neighbor.h): the bounds in it */
                    if (arcs > 0 && a.nl) {   /* the skins of a built list, f_k = 1 (neighbor.c): the arc world's own path, end_planar_arcs */
                        a.nl->nfk = a.n + 1;
                        a.nl->fk = malloc((size_t)a.nl->nfk * sizeof *a.nl->fk);
                        a.nl->gk = malloc((size_t)a.nl->nfk * sizeof *a.nl->gk);
                        for (int k = 0; k <= a.n; k++) a.nl->fk[k] = a.nl->gk[k] = 1;
                    }
                    pala_facc *A = random_sums(a.n, 2, 5);
                    A[7].F.z = 1e-6;
                    for (int k = 0; k < a.n && ts == 1; k++) A[k].Tnc.z = 0.25 * A[k].T.z;
                    const int n = a.n - 3;
                    pala_finish fa = {0}, fb = {0};
                    pala_integrator_end_block(&a, 0, n, A, 255, &fa);
                    pala_integrator_end_general(&b, 0, n, A, 255, &fb);
                    size_t np = (size_t)a.npeb * sizeof *a.pc;
                    int pebs = !a.pc || (!memcmp(a.pc, b.pc, np) && (!a.parc || !memcmp(a.parc, b.parc, (size_t)a.npeb * sizeof *a.parc)));
                    const char *kind = arcs > 0 ? "arc grains" : arcs == -1 ? "discs of two sizes" : arcs ? "unions of two discs" : "discs";
                    const char *var = ts == 1 ? ", T_nc apart" : ts == 2 ? ", no dissipation" : "";
                    T_CHECK(same(&a, &b) && pebs && fa.pdiss == fb.pdiss && fa.mv == fb.mv && fa.mv2 == fb.mv2 && fa.rv == fb.rv && fa.rv2 == fb.rv2 &&
                                fa.chk == fb.chk && fa.rv != fa.mv && (ts == 2 || fa.pdiss != 0),
                            "planar path = general path bit for bit (%s%s, %s, %s turns): pdiss %.17g vs %.17g, bound %.17g vs %.17g, in the "
                            "list's frame %.17g vs %.17g",
                            kind, var, chain ? "chained" : "unchained", si ? "large" : "small", fa.pdiss, fb.pdiss, fa.mv, fb.mv, fa.rv, fb.rv);
                    {   /* a change of one sum in the last group of four changes the state */
                        A[n - 5].F.x *= 1.0000001;
                        pala_world_free(&b);
                        planar(&b, arcs, spin);
                        b.work->chain = chain;
                        if (ts) {
                            b.work->tsep = ts == 1;
                            b.work->dissipative = ts != 2;
                        }
                        if (b.nl) b.nl->frame = pala_v(0.3, -0.2, 0);
                        if (arcs > 0 && b.nl) {
                            b.nl->nfk = b.n + 1;
                            b.nl->fk = malloc((size_t)b.nl->nfk * sizeof *b.nl->fk);
                            b.nl->gk = malloc((size_t)b.nl->nfk * sizeof *b.nl->gk);
                            for (int k = 0; k <= b.n; k++) b.nl->fk[k] = b.nl->gk[k] = 1;
                        }
                        pala_integrator_end_general(&b, 0, n, A, 255, &fb);
                        T_CHECK(!same(&a, &b), "planar path test sees a change of one sum in the last bit (%s%s)", kind, var);
                    }
                    free(A);
                    pala_world_free(&a);
                    pala_world_free(&b);
                }
}

/* Arc grains whose skins are their own (1/f_k from 1 to 2, neighbor.c): a block of one template
 * (end_arcs4, four at a time) against the same grains of two identical templates (a block of
 * several: end_planar_arcs, grain by grain), bit for bit, bounds included (the general path
 * has no f_k to compare with). */
static void arcs_skins(void)
{
    for (int ts = 0; ts < 3; ts++)
        for (int chain = 0; chain < 2; chain++) {
            pala_world w[2];
            pala_finish f[2];
            memset(f, 0, sizeof f);
            pala_facc *A = random_sums(200, 2, 5);
            for (int k = 0; k < 200 && ts == 1; k++) A[k].Tnc.z = 0.25 * A[k].T.z;
            for (int i = 0; i < 2; i++) {
                planar(&w[i], 1 + i, 50);
                w[i].work->chain = chain;
                if (ts) {
                    w[i].work->tsep = ts == 1;
                    w[i].work->dissipative = ts != 2;
                }
                pala_nlist *nl = w[i].nl;
                nl->frame = pala_v(0.3, -0.2, 0);
                nl->nfk = w[i].n + 1;
                nl->fk = malloc((size_t)nl->nfk * sizeof *nl->fk);
                nl->gk = malloc((size_t)nl->nfk * sizeof *nl->gk);
                for (int k = 0; k <= w[i].n; k++) nl->gk[k] = 1 + 0.25 * (k % 5), nl->fk[k] = 1 / nl->gk[k];
                pala_integrator_end_block(&w[i], 0, w[i].n - 3, A, 255, &f[i]);
            }
            T_CHECK(w[0].work->btid[0] >= 0 && w[1].work->btid[0] == -2, "arc skins: one template against two");
            T_CHECK(same(&w[0], &w[1]) && !memcmp(w[0].pc, w[1].pc, (size_t)w[0].npeb * sizeof *w[0].pc) && f[0].pdiss == f[1].pdiss &&
                        f[0].mv == f[1].mv && f[0].mv2 == f[1].mv2 && f[0].rv == f[1].rv && f[0].rv2 == f[1].rv2 && f[0].chk == f[1].chk,
                    "arc grains with skins of their own: four at a time = one by one (%s, %s): bound %.17g vs %.17g, in the list's frame %.17g vs %.17g",
                    ts == 1 ? "T_nc apart" : ts == 2 ? "no dissipation" : "dissipative", chain ? "chained" : "unchained", f[0].mv, f[1].mv, f[0].rv, f[1].rv);
            free(A);
            pala_world_free(&w[0]);
            pala_world_free(&w[1]);
        }
}

/* A planar union of two discs turned from rest by a constant torque T about z (an embedding
 * program's, pala_world_set_additional_forces): in 2D it turns about z alone (isotropic 3,
 * pala_world_add_template), omega_z = T t / I_3 and its angle theta = T t^2 / (2 I_3) (the
 * midpoint step is exact for a constant acceleration; r = tan(theta/2) z), where the 3D world
 * (isotropic 0: the asymmetric top's free rotation, eq. 60) turns it the same up to rounding.
 * I_1 for I_3 would miss by their ratio. */
static void twist(const pala_world *w, void *user, pala_vec3 *F, pala_vec3 *T)
{
    (void)w;
    (void)F;
    T[0].z += *(const double *)user;
}

static void planar_clump_turns(void)
{
    double T = 2e-9, om[2] = {0, 0}, th[2] = {0, 0}, I3 = 0;
    const int n = 2000;
    for (int d = 0; d < 2; d++) {
        pala_world w;
        pala_world_init(&w);
        w.dim = d ? 3 : 2;
        pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
        pala_world_add_material(&w, &m);
        pala_template tp;
        memset(&tp, 0, sizeof tp);
        const pala_vec3 c[2] = {{-0.0006, 0.0002, 0}, {0.0007, -0.0001, 0}};
        const double rad[2] = {0.001, 0.0008};
        int t = pala_world_build_template(&w, &tp, 2, c, rad, 0);
        T_CHECK(t >= 0 && w.tmpl[t].isotropic == (d ? 0 : 3), "planar clump: isotropic %d in %dD", t >= 0 ? w.tmpl[t].isotropic : -1, w.dim);
        I3 = w.tmpl[t].inertia[2];
        T_CHECK(fabs(w.tmpl[t].inertia[0] - I3) > 0.5 * I3, "planar clump: I_1 %g apart from I_3 %g", w.tmpl[t].inertia[0], I3);
        pala_world_add_grain(&w, t, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
        w.dt = 1e-5;
        pala_world_set_additional_forces(&w, twist, &T);
        pala_world_prepare(&w);
        pala_world_steps(&w, n);
        om[d] = w.w[0].z;
        th[d] = 2 * atan(w.r[0].z);
        pala_world_free(&w);
    }
    const double tt = n * 1e-5, om0 = T * tt / I3, th0 = 0.5 * T * tt * tt / I3;
    T_CHECK(fabs(om[0] - om0) <= 1e-12 * om0 && fabs(th[0] - th0) <= 1e-12 * th0,
            "planar clump in 2D: omega %.15g vs T t / I_3 %.15g, angle %.15g vs T t^2 / (2 I_3) %.15g", om[0], om0, th[0], th0);
    T_CHECK(fabs(om[1] - om[0]) <= 1e-12 * om0 && fabs(th[1] - th[0]) <= 1e-12 * th0,
            "planar clump: 2D (about z alone) = 3D (free rotation of the asymmetric top) to rounding: omega %.15g vs %.15g, angle %.15g vs %.15g",
            om[0], om[1], th[0], th[1]);
}

/* ---- additional forces ---------------------------------------------------------------- */
static void push(const pala_world *w, void *user, pala_vec3 *F, pala_vec3 *T)
{
    const pala_vec3 *f = user;
    F[0] = pala_vadd(F[0], *f);
    T[0] = pala_vadd(T[0], pala_v(0, 0, 0));
    (void)w;
}

/* An elastic, frictionless world with n spheres of radius 1 mm at rest, 12 mm apart on x. */
static int at_rest(pala_world *w, int n)
{
    pala_world_init(w);
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(w, &m);
    int t = pala_world_add_sphere_template(w, 0, 0.001);
    for (int k = 0; k < n; k++) pala_world_add_grain(w, t, pala_v(0.012 * k, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    return t;
}

static void additional_forces(void)
{
    pala_world w;
    at_rest(&w, 1);
    w.dt = 1e-4;
    pala_vec3 F = pala_v(2e-5, -1e-5, 0);
    pala_world_set_additional_forces(&w, push, &F);
    T_CHECK(pala_world_prepare(&w) == PALA_OK, "additional forces: prepare");
    pala_energy e0 = pala_world_energy(&w);
    pala_world_steps(&w, 1000);
    double T = w.t, mass = w.tmpl[0].mass;
    /* constant acceleration: the direct-midpoint step is exact for it after the first
     * step's start from alpha = 0 (paper section 7), to round-off */
    double xe = F.x / mass * T * T / 2;
    T_NEAR(w.x[0].x, xe, 2e-3 * fabs(xe), "additional force: x = F t^2 / 2m");
    pala_energy e = pala_world_energy(&w);
    double W = F.x * w.x[0].x + F.y * w.x[0].y;   /* the work of the force */
    T_NEAR(e.total - e0.total, W, 1e-9 * fabs(W), "additional force: E_total gains the force's work");
    T_NEAR(e.total + w.diss, e0.total, 1e-9 * fabs(W), "additional force: E_total + E_diss closes (the work is counted in E_diss)");
    pala_world_free(&w);
}

/* ---- an interaction: a spring between the centres of grains 0 and 1 -------------------- */
typedef struct spring { double k, L; } spring;

static double spring_forces(const pala_world *w, void *ctx, pala_vec3 *F, pala_vec3 *T)
{
    const spring *s = ctx;
    pala_vec3 d = pala_vsub(w->x[1], w->x[0]);
    double r = pala_vnorm(d), e = r - s->L;
    pala_vec3 f = pala_vscale(s->k * e / r, d);   /* on grain 0, towards 1 when stretched */
    F[0] = pala_vadd(F[0], f);
    F[1] = pala_vsub(F[1], f);
    (void)T;
    return 0.5 * s->k * e * e;
}

static void interaction(void)
{
    double period[2], drift[2];
    for (int i = 0; i < 2; i++) {
        pala_world w;
        at_rest(&w, 2);
        spring s = {1e-3, 0.01};
        pala_interaction it = {"spring", spring_forces, &s};
        double mu = 0.5 * w.tmpl[0].mass, Tp = 2 * 3.14159265358979323846 * sqrt(mu / s.k);
        w.dt = Tp / (i ? 400 : 200);
        /* before prepare, and (the second time) on a prepared world */
        if (i == 0) pala_world_add_interaction(&w, &it);
        T_CHECK(pala_world_prepare(&w) == PALA_OK, "interaction: prepare");
        if (i == 1) T_CHECK(pala_world_add_interaction(&w, &it) == 0, "interaction added to a prepared world");
        pala_energy e0 = pala_world_energy(&w);
        T_NEAR(e0.inter, 0.5 * s.k * 0.002 * 0.002, 1e-12, "interaction: its energy joins pala_energy");
        /* the first time the separation passes its minimum: half a period */
        double last = 1, tmin = -1, emax = 0;
        for (int n = 0; n < 2000 && tmin < 0; n++) {
            pala_world_step(&w);
            double sep = w.x[1].x - w.x[0].x;
            if (sep > last && last < 0.01) tmin = w.t - w.dt;   /* the step before the turn */
            last = sep;
            pala_energy e = pala_world_energy(&w);
            emax = fmax(emax, fabs(e.total - e0.total) / e0.total);
        }
        period[i] = 2 * tmin;
        drift[i] = emax;
        T_NEAR(period[i], Tp, 3 * w.dt + 2e-3 * Tp, "interaction: spring period 2 pi sqrt(mu/k)");
        pala_world_free(&w);
    }
    T_CHECK(drift[0] > 0 && drift[0] < 1e-3 && drift[1] < drift[0] / 3,
            "interaction: E_total (with the spring's energy) conserved to second order: max |dE/E| %.3g at dt, %.3g at dt/2 (ratio %.2f ~ 4)",
            drift[0], drift[1], drift[0] / drift[1]);
}

/* The embedding example of docs/embedding.md (built by make test, under ASan by make
 * sanitize): a world built, stepped and read, and the misuse cases answered by errors. */
static void embed_example(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./build/embed");
    T_CHECK(rc == 0 && strstr(out, "embed: ok"), "docs/examples/embed.c runs: exit %d, %s", rc, out);
    T_CHECK(strstr(out, "a wall without a material: 1: ") && strstr(out, "an empty box: 1: 'box': zhi must exceed zlo") && strstr(out, "step before prepare: 1: ") && strstr(out, "dt = 0: 1: "),
            "embedding misuse returns PALA_ERR_INPUT with a reason");
    /* the messages docs/embedding.md shows under "Errors" are the example's, line by line */
    char doc[600 * 100];
    FILE *f = fopen("docs/embedding.md", "r");
    size_t n = f ? fread(doc, 1, sizeof doc - 1, f) : 0;
    if (f) fclose(f);
    doc[n] = 0;
    const char *blk = strstr(doc, "## Errors");
    blk = blk ? strstr(blk, "```\n") : NULL;
    const char *end = blk ? strstr(blk + 4, "```") : NULL;
    int lines = 0, found = 0;
    for (const char *p = blk ? blk + 4 : NULL; p && p < end; p = strchr(p, '\n') + 1) {
        char line[600];
        snprintf(line, sizeof line, "%.*s", (int)(strchr(p, '\n') - p), p);
        lines++;
        found += strstr(out, line) != NULL;
    }
    T_CHECK(lines >= 3 && found == lines, "docs/embedding.md shows %d lines of the example's misuse messages, %d of them as it prints them", lines, found);
}

/* ---- an interaction with a torque: a dipole p along the body x axis in a field B ------- */
typedef struct dipole { double p; pala_vec3 B; } dipole;

static double dipole_forces(const pala_world *w, void *ctx, pala_vec3 *F, pala_vec3 *T)
{
    const dipole *d = ctx;
    double U = 0;
    for (int k = 0; k < w->n; k++) {
        pala_vec3 m = pala_rot_apply(w->r[k], pala_v(d->p, 0, 0));   /* the dipole in the world */
        T[k] = pala_vadd(T[k], pala_vcross(m, d->B));                 /* torque m x B */
        U -= pala_vdot(m, d->B);                                      /* U = -m.B */
    }
    (void)F;
    return U;
}

static void dipole_pendulum(void)
{
    const double th0 = 0.1, pi = 3.14159265358979323846;
    double drift[2];
    for (int i = 0; i < 2; i++) {
        pala_world w;
        pala_world_init(&w);
        pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 0.5, .mu = 0.3, .nu = 1e-3};   /* dissipative: E_diss is summed */
        pala_world_add_material(&w, &m);
        int t = pala_world_add_sphere_template(&w, 0, 0.001);
        pala_world_add_grain(&w, t, pala_v(0, 0, 0), pala_v(0, 0, tan(th0 / 2)), pala_v(0, 0, 0), pala_v(0, 0, 0));
        dipole d = {1e-6, {2e-3, 0, 0}};
        pala_interaction it = {"dipole", dipole_forces, &d};
        pala_world_add_interaction(&w, &it);
        double I = w.tmpl[0].inertia[0], Om = sqrt(d.p * d.B.x / I);
        /* the pendulum's period at amplitude th0: 2 pi / Om (1 + th0^2/16 + 11 th0^4/3072) */
        double Tp = 2 * pi / Om * (1 + th0 * th0 / 16 + 11 * pow(th0, 4) / 3072);
        w.dt = Tp / (i ? 800 : 400);
        T_CHECK(pala_world_prepare(&w) == PALA_OK, "dipole: prepare");
        pala_energy e0 = pala_world_energy(&w);
        /* omega_z = -th0 Om sin(Om t): it turns from negative to positive at T/2 */
        double last = 0, half = -1, emax = 0;
        for (int n = 0; n < 1000 && half < 0; n++) {
            pala_world_step(&w);
            double oz = w.w[0].z;
            if (last < 0 && oz >= 0) half = w.t - w.dt * oz / (oz - last);   /* linear between the two steps */
            last = oz;
            pala_energy e = pala_world_energy(&w);
            emax = fmax(emax, fabs(e.total - e0.total) / fabs(e0.inter));
        }
        drift[i] = emax;
        T_NEAR(2 * half, Tp, 1e-4 * Tp, "dipole pendulum: period 2 pi sqrt(I/pB) (1 + th0^2/16 + ...)");
        T_CHECK(w.diss == 0, "dipole pendulum: the interaction's torque is not counted as dissipation (E_diss %g J)", w.diss);
        pala_world_free(&w);
    }
    T_CHECK(drift[0] > 0 && drift[1] < drift[0] / 3, "dipole pendulum: E_total (with -m.B) conserved to second order: "
            "max |dE|/|U| %.3g at dt, %.3g at dt/2 (ratio %.2f ~ 4)", drift[0], drift[1], drift[0] / drift[1]);
}

/* ---- the stage derive: settings changed after pala_world_prepare ------------------------ */

/* What an embedding program may change between steps. */
typedef struct settings { pala_vec3 g, E, B, E_turn, B_turn; double G, eps_r, cutoff, dt; int lorentz; } settings;

static void set(pala_world *w, const settings *s)
{
    w->g = s->g; w->E = s->E; w->B = s->B; w->E_turn = s->E_turn; w->B_turn = s->B_turn;
    w->grav_G = s->G; w->eps_r = s->eps_r; w->cutoff = s->cutoff; w->dt = s->dt; w->lorentz = s->lorentz;
}

/* 48 charged spheres with electric and magnetic dipoles in a box, every third of the
 * fractional normal law (its coefficients are per dt), falling onto each other; prepared
 * with settings s. */
static void charged_box(pala_world *w, const settings *s)
{
    pala_world_init(w);
    pala_material h = {.name = "h", .rho = 2500, .E = 1e7, .sigma = 0.3, .delta = 0.5, .mu = 0.3, .nu = 1e-3};
    pala_material f = {.name = "f", .rho = 2500, .E = 1e7, .sigma = 0.3, .delta = 1, .mu = 0.3, .nu = 1e-3,
                       .nlaw = PALA_NLAW_FRACTIONAL, .alpha = 0.3, .fc = 0.05, .fk = 500};
    pala_world_add_material(w, &h);
    pala_world_add_material(w, &f);
    int th = pala_world_add_sphere_template(w, 0, 5e-4), tf = pala_world_add_sphere_template(w, 1, 5e-4);
    for (int t = 0; t < 2; t++) {
        w->tmpl[t].charge = t ? -2e-11 : 3e-11;
        w->tmpl[t].edip = pala_v(1e-14, 0, 0);
        w->tmpl[t].mdip = pala_v(0, 2e-7, 0);
    }
    t_box(w, pala_v(0, 0, 0), pala_v(0.005, 0.005, 0.02));
    for (int n = 0; n < 48; n++)
        pala_world_add_grain(w, n % 3 ? th : tf, pala_v(0.0006 + (n % 4) * 0.0011 + 1e-4 * (n / 16), 0.0006 + (n / 4 % 4) * 0.0011, 0.0006 + (n / 16) * 0.0009),
                             pala_v(0.1 * n, 0, 0), pala_v(0.01 * (n % 5 - 2), 0, -0.05), pala_v(0, 0, 0));
    set(w, s);
    pala_world_prepare(w);
}

/* Each setting changed alone between pala_world_prepare and the first step, then all at
 * once: the same bits as the world prepared with them, energies included (the stage derive
 * makes again what depends on them; it runs at every pala_world_steps, so a change between
 * steps takes the same path). */
static void derive_stage(void)
{
    const settings a = {pala_v(0, 0, -9.81), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), 0, 0, 0, 2e-6, PALA_LORENTZ_IMPLICIT};
    const settings b = {pala_v(1, 0, -5), pala_v(0, 2e3, 1e3), pala_v(0.02, 0, 0.01), pala_v(0, 0, 30), pala_v(20, 0, 0), 1e3, 2, 3e-3, 1.5e-6,
                        PALA_LORENTZ_PAPER};
    int bad = 0, cases = 0;
    for (int i = 0; i <= 10; i++) {
        settings c = a;   /* i = 10: all of b */
        switch (i) {
        case 0: c.g = b.g; break;
        case 1: c.E = b.E; break;
        case 2: c.B = b.B; break;
        case 3: c.E = b.E; c.E_turn = b.E_turn; break;
        case 4: c.B = b.B; c.B_turn = b.B_turn; break;
        case 5: c.G = b.G; break;
        case 6: c.eps_r = b.eps_r; break;
        case 7: c.cutoff = b.cutoff; break;
        case 8: c.dt = b.dt; break;
        case 9: c.B = b.B; c.lorentz = b.lorentz; break;
        default: c = b;
        }
        pala_world p, q;
        charged_box(&p, &c);
        charged_box(&q, &a);
        set(&q, &c);
        pala_energy ep = pala_world_energy(&p), eq = pala_world_energy(&q);
        int sp = pala_world_steps(&p, 100), sq = pala_world_steps(&q, 100);
        int ok = sp == PALA_OK && sq == PALA_OK && same(&p, &q) && !memcmp(&ep, &eq, sizeof ep) && p.diss == q.diss && p.wfield == q.wfield &&
                 pala_world_energy_terms(&p) == pala_world_energy_terms(&q);
        T_CHECK(ok, "derive: setting %d changed after pala_world_prepare gives the bits of a world prepared with it (status %d, %d)", i, sp, sq);
        bad += !ok;
        cases++;
        pala_world_free(&p);
        pala_world_free(&q);
    }
    T_CHECK(bad == 0 && cases == 11, "derive: %d of %d settings cases differ", bad, cases);
}

void test_step(void)
{
    embed_example();
    fast_path();
    planar_path();
    arcs_skins();
    planar_clump_turns();
    additional_forces();
    interaction();
    dipole_pendulum();
    derive_stage();
}

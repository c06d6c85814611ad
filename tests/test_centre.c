/* test_centre.c: the interactions between grain centres (src/lib/centre.c; docs/physics.md,
 * "Pair interactions between centres", "Cutoff", "Evaluation of the pair sums"):
 *  - forces and torques are minus the finite-difference gradient of E_pair with respect
 *    to positions and to small rotations of each grain, in random clusters with charges,
 *    electric and magnetic dipoles and gravitation, without and with a cutoff (pairs in
 *    the switch region included); the fast sums agree with the plain reference;
 *  - two equal dipoles head to tail attract with -6 k p^2 / r^4, side by side repel with
 *    3 k p^2 / r^4 (electric and magnetic);
 *  - a free dipolar cluster: total momentum and angular momentum (orbit + spin) conserved;
 *  - two point masses on a circular orbit: period 2 pi sqrt(a^3 / (G (m1 + m2))), energy
 *    error second order in dt, angular momentum conserved;
 *  - all interactions on with static E and B fields, no friction: E_total conserved, its
 *    peak error second order in dt;
 *  - the same bits on 1, 2 and 3 threads, without and with a cutoff. */
#include "t.h"
#include "pala/pala.h"
#include "centre.h"
#include "field.h"
#include "threads.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_centre(void);

#define PI 3.14159265358979323846
static const double KE = 1 / (4 * PI * 8.8541878128e-12);   /* k_e in vacuum */
static const double KM = 1.00000000055e-7;                  /* mu0 / 4 pi */

typedef struct kind { double q; pala_vec3 p, m; } kind;

/* n grains of radius R (material density rho, elastic and frictionless) in a cube of
 * side L, at least sep apart, random orientations and spins (scale spin, 1/s), at rest;
 * grain k of kinds[k % nk]. */
static void cluster(pala_world *w, int n, const kind *kinds, int nk, double R, double rho, double L, double sep, double spin, unsigned seed)
{
    pala_world_init(w);
    pala_material mt = {.name = "m", .rho = rho, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(w, &mt);
    for (int t = 0; t < nk; t++) {
        int id = pala_world_add_sphere_template(w, 0, R);
        w->tmpl[id].charge = kinds[t].q;
        w->tmpl[id].edip = kinds[t].p;
        w->tmpl[id].mdip = kinds[t].m;
    }
    pala_rng g;
    pala_rng_seed(&g, seed);
    for (int k = 0; k < n; k++) {
        pala_vec3 x;
        for (int tries = 0;; tries++) {
            /* the draws in sequence (an argument list's order is unspecified: gcc drew z
             * first, clang x, and clang's cluster was another one); the order gcc used */
            double rz = pala_rng_uniform(&g), ry = pala_rng_uniform(&g), rx = pala_rng_uniform(&g);
            x = pala_v(L * rx, L * ry, L * rz);
            int ok = 1;
            for (int j = 0; j < k && ok; j++) ok = pala_vnorm(pala_vsub(x, w->x[j])) >= sep;
            if (ok || tries > 10000) break;
        }
        pala_vec3 wa = pala_rng_unit(&g, 3);
        double ws = spin * pala_rng_uniform(&g);
        pala_vec3 ra = pala_rng_unit(&g, 3);
        double rs = 2 * pala_rng_uniform(&g);
        pala_world_add_grain(w, k % nk, x, pala_vscale(rs, ra), pala_v(0, 0, 0), pala_vscale(ws, wa));
    }
}

/* E_pair of the current state, and the forces and torques (zeroed first) */
static double centre(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    double U = pala_centre_energy(w);   /* also sets the world-frame dipoles */
    if (F) {
        memset(F, 0, (size_t)w->n * sizeof *F);
        memset(T, 0, (size_t)w->n * sizeof *T);
        pala_centre_forces(w, F, T);
    }
    return U;
}

/* ---- forces and torques against the gradient of the energy ---------------------------- */
static void gradient(int cut, int dip)
{
    kind kinds[3] = {{3e-12, {4e-15, -2e-15, 1e-15}, {1e-6, 5e-7, -8e-7}},
                     {-2e-12, {-1e-15, 3e-15, 2e-15}, {-6e-7, 1.2e-6, 4e-7}},
                     {1.5e-12, {0, 0, 0}, {7e-7, -3e-7, 1e-6}}};
    for (int k = 0; k < 3 && !dip; k++) kinds[k].p = kinds[k].m = pala_v(0, 0, 0);   /* masses and charges only */
    for (int seed = 1; seed <= 3; seed++) {
        pala_world w;
        cluster(&w, 6, kinds, 3, 1e-3, 2500, 1e-2, 3e-3, 0, seed);
        w.grav_G = 1e-4;   /* makes G m^2 / r comparable to the other terms */
        w.cutoff = cut ? 8e-3 : 0;
        w.dt = 1e-5;
        T_CHECK(pala_world_prepare(&w) == PALA_OK, "gradient: prepare");
        int n = w.n, inswitch = 0;
        for (int i = 0; i < n; i++)
            for (int j = i + 1; j < n; j++) {
                double r = pala_vnorm(pala_vsub(w.x[i], w.x[j]));
                inswitch += r > 0.8 * w.cutoff && r < w.cutoff;
            }
        if (cut) T_CHECK(inswitch >= 2, "gradient (cutoff, seed %d): %d pairs in the switch region", seed, inswitch);
        const char *what = cut ? (dip ? "cutoff" : "cutoff, charges and masses") : (dip ? "all pairs" : "all pairs, charges and masses");
        pala_vec3 F[6], T[6], Fr[6], Tr[6];
        double U = centre(&w, F, T);
        /* the fast sums against the plain reference */
        memset(Fr, 0, sizeof Fr); memset(Tr, 0, sizeof Tr);
        double Ur = pala_centre_reference(&w, Fr, Tr);
        double ef = 0, et = 0, fm = 0, tm = 0;
        for (int i = 0; i < n; i++) {
            ef = fmax(ef, pala_vnorm(pala_vsub(F[i], Fr[i]))); fm = fmax(fm, pala_vnorm(Fr[i]));
            et = fmax(et, pala_vnorm(pala_vsub(T[i], Tr[i]))); tm = fmax(tm, pala_vnorm(Tr[i]));
        }
        T_CHECK(ef <= 1e-12 * fm && et <= 1e-12 * tm && fabs(U - Ur) <= 1e-12 * fabs(Ur),
                "gradient (%s, seed %d): fast sums = reference: |dF| %.3g of %.3g, |dT| %.3g of %.3g, U %.17g vs %.17g", what, seed, ef, fm, et, tm, U, Ur);
        /* central differences: position steps h = 1e-6 of the spacing, rotations 1e-6 rad */
        double worst_f = 0, worst_t = 0;
        for (int i = 0; i < n; i++) {
            pala_vec3 x0 = w.x[i], r0 = w.r[i], gF, gT;
            double *gf = &gF.x, *gt = &gT.x;
            for (int a = 0; a < 3; a++) {
                pala_vec3 e = pala_v(a == 0, a == 1, a == 2);
                double h = 3e-9;
                w.x[i] = pala_vaxpy(x0, h, e);
                double up = centre(&w, NULL, NULL);
                w.x[i] = pala_vaxpy(x0, -h, e);
                double dn = centre(&w, NULL, NULL);
                w.x[i] = x0;
                gf[a] = -(up - dn) / (2 * h);
                double th = 1e-6;   /* the grain turned about the world axis e: r' = R(th e) o r */
                w.r[i] = pala_rot_compose(pala_rot_from_axis_angle(th, e), r0);
                up = centre(&w, NULL, NULL);
                w.r[i] = pala_rot_compose(pala_rot_from_axis_angle(-th, e), r0);
                dn = centre(&w, NULL, NULL);
                w.r[i] = r0;
                gt[a] = -(up - dn) / (2 * th);
            }
            worst_f = fmax(worst_f, pala_vnorm(pala_vsub(gF, F[i])) / pala_vnorm(F[i]));
            if (dip) worst_t = fmax(worst_t, pala_vnorm(pala_vsub(gT, T[i])) / pala_vnorm(T[i]));
            else worst_t = fmax(worst_t, pala_vnorm(gT) + pala_vnorm(T[i]));   /* no torque at all */
        }
        T_CHECK(worst_f < 1e-6, "gradient (%s, seed %d): F = -dU/dx within %.3g relative (want 1e-6)", what, seed, worst_f);
        T_CHECK(worst_t < 1e-6, "gradient (%s, seed %d): T = -dU/dtheta within %.3g relative (want 1e-6)", what, seed, worst_t);
        pala_world_free(&w);
    }
}

/* ---- 2D: the cutoff searches 9 cells ------------------------------------------------ */
static void plane(void)
{
    const kind kinds[2] = {{3e-13, {1e-15, -2e-15, 0}, {3e-7, 1e-7, 0}}, {-2e-13, {0, 5e-16, 0}, {-1e-7, 2e-7, 0}}};
    pala_world w;
    cluster(&w, 300, kinds, 2, 2e-4, 1, 2e-2, 1e-3, 0, 9);
    for (int k = 0; k < w.n; k++) {   /* a jittered square lattice of spacing 1 mm in the plane */
        w.x[k] = pala_v(1e-3 * (k % 20) + 0.2 * w.x[k].x / 2e-2 * 1e-3, 1e-3 * (k / 20) + 0.2 * w.x[k].y / 2e-2 * 1e-3, 0);
        w.r[k] = pala_v(0, 0, w.r[k].z);
    }
    w.dim = 2;
    w.cutoff = 3e-3;
    w.dt = 1e-4;
    T_CHECK(pala_world_prepare(&w) == PALA_OK, "2D: prepare: %s", w.why);
    pala_vec3 *F = calloc((size_t)w.n, sizeof *F), *T = calloc((size_t)w.n, sizeof *T);
    pala_vec3 *Fr = calloc((size_t)w.n, sizeof *F), *Tr = calloc((size_t)w.n, sizeof *T);
    double U = centre(&w, F, T), Ur = pala_centre_reference(&w, Fr, Tr), ef = 0, fm = 0, et = 0, tm = 0;
    for (int i = 0; i < w.n; i++) {
        ef = fmax(ef, pala_vnorm(pala_vsub(F[i], Fr[i]))); fm = fmax(fm, pala_vnorm(Fr[i]));
        et = fmax(et, pala_vnorm(pala_vsub(T[i], Tr[i]))); tm = fmax(tm, pala_vnorm(Tr[i]));
    }
    T_CHECK(fm > 0 && ef <= 1e-12 * fm && et <= 1e-12 * tm && fabs(U - Ur) <= 1e-12 * fabs(Ur),
            "2D cutoff (9 cells): fast sums = reference: |dF| %.3g of %.3g, |dT| %.3g of %.3g, U %.17g vs %.17g", ef, fm, et, tm, U, Ur);
    free(F); free(T); free(Fr); free(Tr);
    pala_world_free(&w);
}

/* ---- a cutoff far below the spacing: every pair is out of range, nothing breaks ------- */
static void tiny_cutoff(void)
{
    const kind kinds[1] = {{1e-12, {1e-15, 0, 0}, {0, 0, 0}}};
    pala_world w;
    cluster(&w, 3, kinds, 1, 1e-3, 2500, 1e-2, 3e-3, 0, 3);
    w.cutoff = 1e-310;   /* 1 / (r_c - r_on) overflows; the cells' coordinates are clamped */
    w.grav_G = 1;
    w.dt = 1e-3;
    T_CHECK(pala_world_prepare(&w) == PALA_OK, "tiny cutoff: prepare");
    T_CHECK(pala_world_steps(&w, 3) == PALA_OK && isfinite(w.x[0].x) && pala_world_energy(&w).inter == 0,
            "tiny cutoff (1e-310 m): the run stays finite and E_pair is 0 (%s)", w.why);
    pala_world_free(&w);
}

/* ---- two equal dipoles: head to tail, side by side ----------------------------------- */
static void two_dipoles(void)
{
    const double r = 5e-3;
    for (int mag = 0; mag < 2; mag++)
        for (int side = 0; side < 2; side++) {
            double p = mag ? 1e-6 : 1e-15, k = mag ? KM : KE;
            kind kd = {0, mag ? pala_v(0, 0, 0) : pala_v(0, 0, p), mag ? pala_v(0, 0, p) : pala_v(0, 0, 0)};
            pala_world w;
            pala_world_init(&w);
            pala_material mt = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
            pala_world_add_material(&w, &mt);
            int t = pala_world_add_sphere_template(&w, 0, 1e-3);
            w.tmpl[t].edip = kd.p;
            w.tmpl[t].mdip = kd.m;
            pala_vec3 u = side ? pala_v(1, 0, 0) : pala_v(0, 0, 1);   /* from grain 1 to grain 0 */
            pala_world_add_grain(&w, t, pala_vscale(r, u), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
            pala_world_add_grain(&w, t, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
            w.dt = 1e-5;
            T_CHECK(pala_world_prepare(&w) == PALA_OK, "two dipoles: prepare");
            pala_vec3 F[2], T[2];
            double U = centre(&w, F, T);
            double want = side ? 3 * k * p * p / pow(r, 4) : -6 * k * p * p / pow(r, 4);   /* along u */
            double wantU = side ? k * p * p / pow(r, 3) : -2 * k * p * p / pow(r, 3);
            const char *what = mag ? "magnetic" : "electric";
            T_NEAR(pala_vdot(F[0], u), want, 1e-12 * fabs(want), side ? "two dipoles side by side repel: F.u = 3 k p^2 / r^4" : "two dipoles head to tail attract: F.u = -6 k p^2 / r^4");
            T_CHECK(pala_vnorm(pala_vsub(F[0], pala_vscale(pala_vdot(F[0], u), u))) <= 1e-12 * fabs(want) &&
                        pala_vnorm(pala_vadd(F[0], F[1])) <= 1e-12 * fabs(want) && pala_vnorm(T[0]) <= 1e-12 * fabs(want) * r,
                    "two %s dipoles (%s): force along the line, opposite on the partner, no torque", what, side ? "side by side" : "head to tail");
            T_NEAR(U, wantU, 1e-12 * fabs(wantU), side ? "two dipoles side by side: U = k p^2 / r^3" : "two dipoles head to tail: U = -2 k p^2 / r^3");
            pala_world_free(&w);
        }
}

/* ---- conservation in a free cluster --------------------------------------------------- */
static pala_vec3 momentum(const pala_world *w)
{
    pala_vec3 P = {0, 0, 0};
    for (int k = 0; k < w->n; k++) P = pala_vaxpy(P, w->tmpl[w->tid[k]].mass, w->v[k]);
    return P;
}

/* sum x_k x m_k v_k + I_r omega_k */
static pala_vec3 angular_momentum(const pala_world *w)
{
    pala_vec3 L = {0, 0, 0};
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        L = pala_vadd(L, pala_vscale(t->mass, pala_vcross(w->x[k], w->v[k])));
        L = pala_vadd(L, pala_rot_diag_apply(w->r[k], t->inertia, w->w[k]));
    }
    return L;
}

/* A cluster of 6 grains of radius 0.5 mm, rho 1 kg/m^3, 3 mm apart, with all interactions
 * (charges of one sign keep it apart) on a time scale of about 0.1 s (turning: 0.01 s). */
static void lively(pala_world *w, double G, pala_vec3 E, pala_vec3 B)
{
    const kind kinds[2] = {{4e-13, {1.2e-15, -0.5e-15, 0.3e-15}, {3e-7, 1e-7, -2e-7}}, {3e-13, {-0.4e-15, 0.8e-15, 1e-15}, {-1e-7, 3e-7, 2e-7}}};
    cluster(w, 6, kinds, 2, 5e-4, 1, 8e-3, 3e-3, 20, 11);
    w->grav_G = G;
    w->E = E;
    w->B = B;
}

static void free_cluster(void)
{
    double dL[2], dP[2], Ls = 0, Ps = 0;
    for (int i = 0; i < 2; i++) {
        pala_world w;
        lively(&w, 2e3, pala_v(0, 0, 0), pala_v(0, 0, 0));
        w.dt = i ? 5e-5 : 1e-4;
        /* a drift of the whole cluster, so that momentum and orbital angular momentum are not 0 */
        for (int k = 0; k < w.n; k++) w.v[k] = pala_v(0.01, -0.005, 0.002);
        T_CHECK(pala_world_prepare(&w) == PALA_OK, "free cluster: prepare");
        pala_vec3 P0 = momentum(&w), L0 = angular_momentum(&w);
        double pmax = 0, lmax = 0;
        /* scales: the momenta the interactions exchange, sum m |v| and sum |x m v| + |I w| */
        for (long s = 0; s < (long)(0.05 / w.dt); s++) {
            pala_world_steps(&w, 1);
            pala_vec3 P = momentum(&w), L = angular_momentum(&w);
            pmax = fmax(pmax, pala_vnorm(pala_vsub(P, P0)));
            lmax = fmax(lmax, pala_vnorm(pala_vsub(L, L0)));
            double ps = 0, ls = 0;
            for (int k = 0; k < w.n; k++) {
                const pala_template *t = &w.tmpl[w.tid[k]];
                ps += t->mass * pala_vnorm(pala_vsub(w.v[k], pala_v(0.01, -0.005, 0.002)));
                ls += t->mass * pala_vnorm(pala_vcross(w.x[k], w.v[k])) + t->inertia[0] * pala_vnorm(w.w[k]);
            }
            Ps = fmax(Ps, ps);
            Ls = fmax(Ls, ls);
        }
        dP[i] = pmax;
        dL[i] = lmax;
        T_CHECK(w.ncontact == 0, "free cluster: no contact (the test is about the centres)");
        pala_world_free(&w);
    }
    T_CHECK(Ps > 0 && dP[0] <= 1e-13 * Ps && dP[1] <= 1e-13 * Ps,
            "free cluster: total momentum conserved to round-off: |dP| %.3g, %.3g of %.3g exchanged", dP[0], dP[1], Ps);
    /* the step is a kick at the midpoint configuration, where sum x x F + T = 0: the total
     * angular momentum is conserved to round-off, better than second order */
    T_CHECK(Ls > 0 && dL[0] <= 1e-12 * Ls && dL[1] <= 1e-12 * Ls,
            "free cluster: total angular momentum (orbit + spin) conserved: |dL| %.3g at dt, %.3g at dt/2, of %.3g", dL[0], dL[1], Ls);
}

/* ---- Kepler: two point masses on a circular orbit ------------------------------------- */
static void kepler(void)
{
    double dE[4], dL[4], per[4], Tp = 0;
    for (int i = 0; i < 4; i++) {   /* circular orbit at dt, dt/2; an eccentric one (e = 0.36) at dt, dt/2 */
        double f = i < 2 ? 1 : 0.8;   /* start speed / circular speed */
        pala_world w;
        pala_world_init(&w);
        pala_material mt = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
        pala_world_add_material(&w, &mt);
        int t1 = pala_world_add_sphere_template(&w, 0, 1e-3), t2 = pala_world_add_sphere_template(&w, 0, 6e-4);
        double m1 = w.tmpl[t1].mass, m2 = w.tmpl[t2].mass, M = m1 + m2, a = 0.01;
        w.grav_G = 2.0;
        Tp = 2 * PI * sqrt(a * a * a / (w.grav_G * M));
        double vr = sqrt(w.grav_G * M / a);   /* relative speed on the circle */
        pala_world_add_grain(&w, t1, pala_v(-a * m2 / M, 0, 0), pala_v(0, 0, 0), pala_v(0, -f * vr * m2 / M, 0), pala_v(0, 0, 0));
        pala_world_add_grain(&w, t2, pala_v(a * m1 / M, 0, 0), pala_v(0, 0, 0), pala_v(0, f * vr * m1 / M, 0), pala_v(0, 0, 0));
        w.dt = Tp / (i % 2 ? 800 : 400);
        T_CHECK(pala_world_prepare(&w) == PALA_OK, "kepler: prepare");
        pala_energy e0 = pala_world_energy(&w);
        T_NEAR(e0.inter, -w.grav_G * m1 * m2 / a, 1e-12 * w.grav_G * m1 * m2 / a, "kepler: E_pair = -G m1 m2 / a");
        pala_vec3 L0 = angular_momentum(&w);
        double emax = 0, lmax = 0, ang = 0, last = atan2(w.x[1].y - w.x[0].y, w.x[1].x - w.x[0].x), t3 = -1;
        long nstep = (long)(3.2 * Tp / w.dt);
        for (long s = 0; s < nstep; s++) {
            pala_world_steps(&w, 1);
            double now = atan2(w.x[1].y - w.x[0].y, w.x[1].x - w.x[0].x), d = now - last;
            if (d > PI) d -= 2 * PI;
            if (d < -PI) d += 2 * PI;
            if (i < 2 && t3 < 0 && ang + d >= 6 * PI) t3 = w.t - w.dt * (ang + d - 6 * PI) / d;   /* three turns, interpolated */
            ang += d;
            last = now;
            pala_energy e = pala_world_energy(&w);
            emax = fmax(emax, fabs(e.total - e0.total));
            lmax = fmax(lmax, pala_vnorm(pala_vsub(angular_momentum(&w), L0)));
        }
        per[i] = t3 / 3;
        dE[i] = emax / fabs(e0.total);
        dL[i] = lmax / pala_vnorm(L0);
        pala_world_free(&w);
    }
    T_NEAR(per[1], Tp, 1e-4 * Tp, "kepler: period 2 pi sqrt(a^3 / (G (m1 + m2)))");
    T_NEAR(per[0], Tp, 1e-4 * Tp, "kepler: period at twice the step");
    /* on a circle the step's O(dt^2) energy error is the same at every point of the orbit:
     * what E_total shows is the O(dt^4) rest */
    T_CHECK(dE[0] > 0 && dE[0] / dE[1] > 3.5, "kepler (circle): energy error at least second order: max |dE/E| %.3g at dt, %.3g at dt/2 (ratio %.2f)",
            dE[0], dE[1], dE[0] / dE[1]);
    T_CHECK(dE[2] > 0 && dE[2] / dE[3] > 3.5 && dE[2] / dE[3] < 4.5,
            "kepler (eccentric): energy error second order: max |dE/E| %.3g at dt, %.3g at dt/2 (ratio %.2f, want 3.5-4.5)", dE[2], dE[3], dE[2] / dE[3]);
    /* central forces kicked at the midpoint configuration: L is conserved to round-off */
    for (int i = 0; i < 4; i += 2)
        T_CHECK(dL[i] < 1e-12 && dL[i + 1] < 1e-12, "kepler (%s): angular momentum conserved to round-off: |dL/L| %.3g at dt, %.3g at dt/2",
                i ? "eccentric" : "circle", dL[i], dL[i + 1]);
}

/* ---- everything on: E_total conserved to second order -------------------------------- */
static void all_on(void)
{
    double peak[2];
    for (int i = 0; i < 2; i++) {
        pala_world w;
        lively(&w, 2e3, pala_v(150, -100, 50), pala_v(3e-7, 5e-7, -4e-7));   /* p E, m B ~ the pair energies */
        w.dt = i ? 5e-5 : 1e-4;
        T_CHECK(pala_world_prepare(&w) == PALA_OK, "all on: prepare");
        T_CHECK(w.field->lorentz && w.field->em && w.centre->on && w.field->dipoles, "all on: Lorentz kick, fields, pairs, dipoles");
        pala_energy e0 = pala_world_energy(&w);
        double emax = 0, scale = 0;
        for (long s = 0; s < (long)(0.05 / w.dt); s++) {
            pala_world_steps(&w, 1);
            pala_energy e = pala_world_energy(&w);
            emax = fmax(emax, fabs(e.total - e0.total));
            scale = fmax(scale, e.kin + e.rot);
        }
        peak[i] = emax / scale;
        T_CHECK(w.ncontact == 0 && w.diss == 0, "all on: no contact, nothing dissipated");
        pala_world_free(&w);
    }
    T_CHECK(peak[0] < 1e-3 && peak[0] / peak[1] > 3.5 && peak[0] / peak[1] < 4.5,
            "all on (charges, dipoles, G, static E and B): peak |dE_total| / max E_kin %.3g at dt, %.3g at dt/2 (ratio %.2f, want 3.5-4.5)",
            peak[0], peak[1], peak[0] / peak[1]);
}

/* ---- the same bits on any number of threads ------------------------------------------ */
static void threads(void)
{
    const kind kinds[3] = {{3e-13, {1e-15, 0, 0}, {3e-7, 0, 0}}, {-2e-13, {0, 0, 0}, {0, 2e-7, 0}}, {1e-13, {0, 5e-16, 0}, {0, 0, 0}}};
    for (int cut = 0; cut < 2; cut++) {
        pala_world w[3];
        for (int t = 0; t < 3; t++) {
            cluster(&w[t], 700, kinds, 3, 2e-4, 1, 1e-2 * cbrt(700.0 / 6), 1e-3, 20, 5);
            w[t].grav_G = 1e3;
            w[t].cutoff = cut ? 4e-3 : 0;
            w[t].dt = 1e-4;
            pala_world_prepare(&w[t]);
            pala_world_set_threads(&w[t], t + 1);
            pala_world_steps(&w[t], 3);
        }
        size_t n = (size_t)w[0].n * sizeof(pala_vec3);
        int same = 1;
        for (int t = 1; t < 3; t++)
            same &= !memcmp(w[0].x, w[t].x, n) && !memcmp(w[0].v, w[t].v, n) && !memcmp(w[0].r, w[t].r, n) && !memcmp(w[0].w, w[t].w, n);
        pala_energy e[3];
        for (int t = 0; t < 3; t++) e[t] = pala_world_energy(&w[t]);
        T_CHECK(same && e[0].inter == e[1].inter && e[0].inter == e[2].inter && e[0].inter != 0,
                "threads (%s): the same bits on 1, 2, 3 threads (E_pair %.17g, %.17g, %.17g)", cut ? "cutoff" : "all pairs", e[0].inter,
                e[1].inter, e[2].inter);
        T_CHECK(pala_team_size(w[2].team) > 1 || pala_cpu_count() < 2, "threads: the team has more than one thread");
        for (int t = 0; t < 3; t++) pala_world_free(&w[t]);
    }
}

void test_centre(void)
{
    gradient(0, 1);
    gradient(1, 1);
    gradient(0, 0);
    gradient(1, 0);
    plane();
    tiny_cutoff();
    two_dipoles();
    free_cluster();
    kepler();
    all_on();
    threads();
}

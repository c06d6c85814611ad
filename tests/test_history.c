/* test_history.c: the contact laws with history (docs/physics.md, "Contact history")
 * against closed forms:
 *  - tangential oscillation: a sphere resting on a floor, pushed sideways, oscillates at
 *    sqrt(7 k_t / (2 m)) (the contact point moves with the sphere's translation and turn);
 *  - incline: a three-sphere clump below the friction angle holds still with the spring
 *    law (the regularised law creeps); above it, it slides with g (sin t - mu cos t);
 *  - energy: a compressed cluster of 40 spheres in a cavity with tangential, rolling and
 *    torsion springs, no cap reached, conserves E_total to second order in dt;
 *  - the cycle of imposed relative rotations of two touching spheres (rolling, torsion
 *    and back) does no net work with the rolling velocity omega_1 - omega_2, and some
 *    with a radius-weighted one, as the seed of Alonso-Marroquin and McNamara predicts;
 *  - rolling resistance: a sphere rolling on a floor stops after 7 v0^2 / (10 mu_r g);
 *  - the states survive neighbour-list rebuilds and give the same bits on 1 and 3 threads. */
#include "t.h"
#include "builder.h"
#include "t_world.h"
#include "pala/pala.h"
#include "contact_law.h"
#include "neighbor.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_history(void);

static const double PI = 3.14159265358979323846;

/* A material of the spring law: E 1e7, density 2500, friction mu, k_t (N/m). */
static pala_material spring_mat(double mu, double kt, double delta)
{
    pala_material m = {.name = "m", .rho = 2500, .E = 1e7, .sigma = 0.3, .delta = delta, .mu = mu, .nu = 1e-3};
    m.tlaw = PALA_TLAW_SPRING;
    m.kt = kt;
    return m;
}

/* The Hertz overlap of a sphere of radius a on a flat wall carrying force F (eq. 57 with
 * r~ = 2a): F = kE sqrt(2a) ov^1.5. */
static double rest_overlap(const pala_world *w, double a, double F)
{
    return pow(F / (w->pm[0].kE * sqrt(2 * a)), 2.0 / 3.0);
}

/* A box with its floor at z = 0, material 0 for grains and walls. */
static void floor_box(pala_world *w)
{
    t_box(w, pala_v(-0.05, -0.05, 0), pala_v(0.05, 0.05, 0.05));
}

/* ---- tangential oscillation ------------------------------------------------------------ */
static void tangential_oscillation(void)
{
    pala_world w;
    pala_world_init(&w);
    double a = 0.001, kt = 200;
    pala_material m = spring_mat(0.5, kt, 1);
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, a);
    floor_box(&w);
    w.g = pala_v(0, 0, -9.81);
    double mass;
    pala_world_add_grain(&w, t, pala_v(0, 0, a), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    mass = w.tmpl[t].mass;
    double om = sqrt(3.5 * kt / mass), per = 2 * PI / om;
    w.dt = per / 400;
    pala_world_prepare(&w);
    w.x[0].z = a - rest_overlap(&w, a, mass * 9.81);
    w.v[0].x = 1e-4;
    /* the contact point's velocity u = v + omega x (0, 0, -a): its zero crossings */
    double last = 1e-4, t0 = -1, t1 = -1;
    int nc = 0;
    for (int n = 1; n <= 4000; n++) {
        pala_world_step(&w);
        double u = w.v[0].x - a * w.w[0].y;
        if ((u > 0) != (last > 0)) {
            double tc = w.t - w.dt * u / (u - last);
            if (nc == 0) t0 = tc;
            t1 = tc;
            nc++;
        }
        last = u;
    }
    double meas = PI * (nc - 1) / (t1 - t0);
    T_CHECK(nc >= 10 && fabs(meas / om - 1) < 0.01,
            "tangential spring: a sphere on a floor oscillates at %.6g rad/s against sqrt(7 k_t / 2m) = %.6g (%d crossings, rel. error %.2e)",
            meas, om, nc, fabs(meas / om - 1));
    pala_world_free(&w);
}

/* ---- incline ------------------------------------------------------------------------------ */
/* A flat clump of nine spheres (radius 1 mm, a 3 x 3 square of centres 1.5 mm apart: wide
 * enough not to tip over) on a floor, gravity tilted by theta about y, switched on smoothly over 0.05 s.  Returns the
 * x of the centre at the times of ts[0..nt). */
static void incline(int tlaw, double theta, double mu, double delta, const double *ts, int nt, double *xs, double *acc_fit)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = spring_mat(mu, 2000, delta);
    m.tlaw = tlaw;
    pala_world_add_material(&w, &m);
    double a = 0.001, d = 0.0015;
    pala_vec3 c[9], shape[9];
    double rad[9], rout[9];
    for (int i = 0; i < 9; i++) { c[i] = pala_v((i % 3 - 1) * d, (i / 3 - 1) * d, 0); rad[i] = a; }
    pala_template tp;
    memset(&tp, 0, sizeof tp);   /* material 0, no charge or dipoles: the builder sets only the shape's fields */
    char err[200] = "";
    pala_template_build(&tp, 9, c, rad, 2500, 200000, shape, rout, err, sizeof err);
    int t = pala_world_add_template(&w, &tp, shape, rout);
    floor_box(&w);
    w.dt = 2e-6;
    pala_world_add_grain(&w, t, pala_v(0, 0, a), tp.frame, pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_prepare(&w);
    double g = 9.81, ramp = 0.05;
    int i = 0;
    double sx = 0, st = 0, stt = 0, st3 = 0, st4 = 0, sxt = 0, sxt2 = 0, n = 0;
    while (i < nt) {
        double s = w.t < ramp ? 0.5 * (1 - cos(PI * w.t / ramp)) : 1;
        w.g = pala_v(s * g * sin(theta), 0, -s * g * cos(theta));
        pala_world_step(&w);
        if (acc_fit && w.t > ts[0] && w.t <= ts[nt - 1]) {   /* least squares x = c0 + c1 t + c2 t^2 */
            double tt = w.t, x = w.x[0].x;
            n++; st += tt; stt += tt * tt; st3 += tt * tt * tt; st4 += tt * tt * tt * tt;
            sx += x; sxt += x * tt; sxt2 += x * tt * tt;
        }
        while (i < nt && w.t >= ts[i] - 0.5 * w.dt) xs[i++] = w.x[0].x;
    }
    if (acc_fit) {   /* solve the normal equations (3x3) by Cramer's rule */
        double A[3][3] = {{n, st, stt}, {st, stt, st3}, {stt, st3, st4}}, b[3] = {sx, sxt, sxt2};
        double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) - A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                     A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
        double d2 = A[0][0] * (A[1][1] * b[2] - b[1] * A[2][1]) - A[0][1] * (A[1][0] * b[2] - b[1] * A[2][0]) +
                    b[0] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
        *acc_fit = 2 * d2 / det;
    }
    pala_world_free(&w);
}

static void incline_tests(void)
{
    double mu = 0.5, below = 20 * PI / 180, above = 35 * PI / 180;
    double ts[2] = {0.2, 1.2}, xs[2];
    incline(PALA_TLAW_SPRING, below, mu, 0.3, ts, 2, xs, NULL);
    T_CHECK(fabs(xs[1] - xs[0]) < 1e-9, "incline at 20 deg (friction angle %.2f deg), spring law: the clump moves %.3g m over 1 s after settling (want < 1e-9)",
            atan(mu) * 180 / PI, fabs(xs[1] - xs[0]));
    incline(PALA_TLAW_REGULARISED, below, mu, 0.3, ts, 2, xs, NULL);
    double creep = fabs(xs[1] - xs[0]), vpred = 1e-3 * tan(below) / (mu - tan(below));
    T_CHECK(creep > 1e-4, "incline at 20 deg, regularised law (nu = 1 mm/s): the clump creeps %.4g m over 1 s (the law's steady slip nu tan t / (mu - tan t) = %.4g m/s)",
            creep, vpred);
    double ta[2] = {0.06, 0.16}, xa[2], acc;
    incline(PALA_TLAW_SPRING, above, mu, 1, ta, 2, xa, &acc);
    double want = 9.81 * (sin(above) - mu * cos(above));
    T_CHECK(fabs(acc / want - 1) < 0.005, "incline at 35 deg, spring law: the clump slides with %.6g m/s^2 against g (sin t - mu cos t) = %.6g (rel. error %.2e, want < 0.5%%)",
            acc, want, fabs(acc / want - 1));
}

/* ---- energy of a compressed cluster with springs -------------------------------------- */
/* 2 x 4 x 5 = 40 spheres on a cubic lattice 1 % closer than touching, pressed by a box 1 %
 * tighter than the lattice (a cavity of free grains would let them fly apart and end their
 * contacts, whose springs then lose their energy), with small random velocities and spins.
 * Tangential, rolling and torsion springs, caps far away, delta = 1.  Returns the largest
 * |E_total - E_0| over 0.02 s, and E_diss into *diss. */
static double cluster_energy(double dt, double *diss, double *e0out)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = spring_mat(100, 300, 1);
    m.kroll = 2e-4; m.muroll = 100; m.ktor = 1e-4; m.mutor = 100;
    pala_world_add_material(&w, &m);
    double a = 0.001, s = 1.98 * a;
    int t = pala_world_add_sphere_template(&w, 0, a);
    pala_rng g;
    pala_rng_seed(&g, 7);
    int n = 0, nx = 2, ny = 4, nz = 5;
    for (int iz = 0; iz < nz; iz++)
        for (int iy = 0; iy < ny; iy++)
            for (int ix = 0; ix < nx; ix++) {
                pala_vec3 x = pala_v(ix * s, iy * s, iz * s);
                pala_vec3 v = pala_vscale(0.002, pala_v(pala_rng_normal(&g), pala_rng_normal(&g), pala_rng_normal(&g)));
                pala_vec3 o = pala_vscale(2.0, pala_v(pala_rng_normal(&g), pala_rng_normal(&g), pala_rng_normal(&g)));
                pala_world_add_grain(&w, t, x, pala_v(0, 0, 0), v, o);
                n++;
            }
    t_box(&w, pala_v(-0.99 * a, -0.99 * a, -0.99 * a), pala_v((nx - 1) * s + 0.99 * a, (ny - 1) * s + 0.99 * a, (nz - 1) * s + 0.99 * a));
    w.dt = dt;
    pala_world_prepare(&w);
    pala_energy e0 = pala_world_energy(&w);
    long nc0 = w.ncontact, ncmin = nc0;
    double worst = 0;
    long steps = (long)(0.02 / dt + 0.5), every = (long)(1.6e-5 / dt + 0.5);   /* the same times at dt and dt/2 */
    for (long i = 1; i <= steps; i++) {
        pala_world_step(&w);
        if (i % every == 0) {
            pala_energy e = pala_world_energy(&w);
            worst = fmax(worst, fabs(e.total - e0.total));
            if (w.ncontact < ncmin) ncmin = w.ncontact;
        }
    }
    *diss = w.diss;
    *e0out = e0.total;
    T_CHECK(n == 40 && ncmin == nc0, "cluster of %d spheres: every one of its %ld contacts lasts (fewest %ld)", n, nc0, ncmin);
    pala_world_free(&w);
    return worst;
}

static void energy_tests(void)
{
    double d1, d2, e0;
    double dt = 2e-6, a1 = cluster_energy(dt, &d1, &e0), a2 = cluster_energy(dt / 2, &d2, &e0);
    T_CHECK(a1 > 0 && a1 / a2 > 3.5 && a1 < 1e-3 * fabs(e0),
            "tangential, rolling and torsion springs, no cap reached: max |E_total - E_0| %.3g J at dt, %.3g J at dt/2 (ratio %.2f: at least second order, want > 3.5; E_0 %.3g J)",
            a1, a2, a1 / a2, e0);
    T_CHECK(fabs(d1) < 1e-6 * a1 + 1e-300, "no cap reached and no contact ended: E_diss %.3g J", d1);
}

/* ---- the cycle of seed 002 --------------------------------------------------------------- */
/* Two touching spheres of radii a1 != a2 held in place; their angular velocities imposed,
 * leg by leg: sphere 1 rolls (about x, across the normal z), sphere 2 twists (about z),
 * sphere 2 rolls, then each leg is undone in the same order.  The work of the contact
 * moments, sum over steps of (T_1 . omega_1 + T_2 . omega_2) dt, is returned. */
static double cycle_work(void)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = spring_mat(100, 300, 1);
    m.kroll = 1e-3; m.muroll = 1e6; m.ktor = 5e-4; m.mutor = 1e6;
    m.tlaw = PALA_TLAW_REGULARISED; m.mu = 0;   /* no tangential force: the moments alone */
    pala_world_add_material(&w, &m);
    double a1 = 0.001, a2 = 0.002;
    int t1 = pala_world_add_sphere_template(&w, 0, a1), t2 = pala_world_add_sphere_template(&w, 0, a2);
    double ov = 1e-6;
    pala_world_add_grain(&w, t1, pala_v(0, 0, a1 + a2 - ov), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, t2, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.dt = 1e-5;
    pala_world_prepare(&w);
    pala_vec3 x0 = w.x[0], x1 = w.x[1];
    double I1 = w.tmpl[t1].inertia[0], I2 = w.tmpl[t2].inertia[0], W = 0, rate = 50;
    int legs[6][2] = {{0, 0}, {1, 2}, {1, 0}, {0, 0}, {1, 2}, {1, 0}};   /* sphere, axis */
    for (int l = 0; l < 6; l++) {
        double sign = l < 3 ? 1 : -1;
        for (int i = 0; i < 200; i++) {
            pala_vec3 o[2] = {{0, 0, 0}, {0, 0, 0}};
            double *c = &o[legs[l][0]].x;
            c[legs[l][1]] = sign * rate;
            for (int k = 0; k < 2; k++) { w.w[k] = o[k]; w.bacc[k] = pala_v(0, 0, 0); w.v[k] = pala_v(0, 0, 0); w.acc[k] = pala_v(0, 0, 0); }
            w.x[0] = x0; w.x[1] = x1;
            pala_world_step(&w);
            /* the torques of the step: beta I (isotropic spheres) */
            W += w.dt * (I1 * pala_vdot(w.bacc[0], o[0]) + I2 * pala_vdot(w.bacc[1], o[1]));
        }
    }
    pala_world_free(&w);
    return W;
}

/* The same cycle with a rolling velocity the seed rules out, (a1 omega_1 - a2 omega_2) / a~
 * (a~ = (a1 + a2) / 2; its eq. 62 without the translation term), through the same spring
 * (pala_law_spring): the work of one cycle. */
static double cycle_work_weighted(void)
{
    double a1 = 0.001, a2 = 0.002, am = 0.5 * (a1 + a2), k = 1e-3, dt = 1e-5, rate = 50, W = 0;
    double th[3] = {0, 0, 0};
    int legs[6] = {0, 1, 1, 0, 1, 1};   /* which sphere rolls; torsion legs (1, 4) leave rolling alone */
    for (int l = 0; l < 6; l++) {
        if (l == 1 || l == 4) continue;
        double sign = l < 3 ? 1 : -1;
        for (int i = 0; i < 200; i++) {
            double o1 = legs[l] == 0 ? sign * rate : 0, o2 = legs[l] == 1 ? sign * rate : 0;
            double u[3] = {(a1 * o1 - a2 * o2) / am, 0, 0}, M[3];
            pala_law_spring(th, u, k, 1e9, 1.0, 1.0, dt, M, 1);
            W += dt * (M[0] * o1 - M[0] * o2);   /* +m on sphere 1, -m on sphere 2 */
        }
    }
    return W;
}

static void cycle_tests(void)
{
    double W = cycle_work(), Wb = cycle_work_weighted();
    double scale = 1e-3 * (50 * 200 * 1e-5) * (50 * 200 * 1e-5);   /* k phi^2 of one leg */
    T_CHECK(fabs(W) < 1e-9 * scale, "seed-002 cycle (roll 1, twist 2, roll 2, then back) with omega_c = omega_1 - omega_2: net work %.3g J (one leg stores %.3g J)",
            W, 0.5 * scale);
    T_CHECK(fabs(Wb) > 1e-3 * scale, "the same cycle with the radius-weighted rolling velocity (a1 w1 - a2 w2)/a~: net work %.4g J, not zero (a perpetual-motion machine)",
            Wb);
}

/* ---- rolling resistance ---------------------------------------------------------------- */
static void rolling_tests(void)
{
    pala_world w;
    pala_world_init(&w);
    double a = 0.001, mur = 0.05, v0 = 0.02, g = 9.81;
    pala_material m = spring_mat(0.8, 2000, 0.3);
    m.kroll = 5e-3; m.muroll = mur;
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, a);
    floor_box(&w);
    w.g = pala_v(0, 0, -g);
    double mass = w.tmpl[t].mass;
    pala_world_add_grain(&w, t, pala_v(0, 0, a), pala_v(0, 0, 0), pala_v(v0, 0, 0), pala_v(0, v0 / a, 0));
    w.dt = 2e-6;
    pala_world_prepare(&w);
    w.x[0].z = a - rest_overlap(&w, a, mass * g);
    double x0 = w.x[0].x, stop = -1;
    for (long i = 0; i < 2000000 && stop < 0; i++) {
        pala_world_step(&w);
        if (w.v[0].x <= 0) stop = w.x[0].x - x0;
    }
    double want = 7 * v0 * v0 / (10 * mur * g);   /* (7/10) m v0^2 = (mu_r a m g) (s / a) */
    T_CHECK(stop > 0 && fabs(stop / want - 1) < 0.01, "rolling resistance: a sphere rolling at %g m/s stops after %.6g m against 7 v0^2 / (10 mu_r g) = %.6g m (rel. error %.2e)",
            v0, stop, want, fabs(stop / want - 1));
    pala_world_free(&w);
}

/* ---- rebuilds and threads ---------------------------------------------------------------- */
/* 600 spheres poured into a box with the spring law (rolling springs with stiffness kroll
 * and cap factor muroll; none: the vectorised driver of the contact kernel): the states are
 * carried through the list's rebuilds, and 1 and 3 threads give the same bits. */
static void settle(int threads, double kroll, double muroll, pala_vec3 *xs, double *diss, long *kept, long *builds)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = spring_mat(0.5, 500, 0.3);
    m.kroll = kroll; m.muroll = muroll;
    pala_world_add_material(&w, &m);
    t_pour600(&w, pala_world_add_sphere_template(&w, 0, 0.001));
    pala_world_set_threads(&w, threads);
    int st = pala_world_steps(&w, 5000);
    T_CHECK(st == PALA_OK, "600 spheres poured with springs (%d threads): %s", threads, st ? w.why : "stable");
    for (int k = 0; k < w.n; k++) xs[k] = w.x[k];
    *diss = w.diss;
    *kept = w.nl->hkept;
    *builds = w.nl->builds;
    pala_world_free(&w);
}

static void thread_tests(void)
{
    enum { N = 600 };
    static pala_vec3 x1[N], x3[N];
    double d1, d3;
    long k1, k3, b1, b3;
    settle(1, 1e-4, 0.1, x1, &d1, &k1, &b1);
    settle(3, 1e-4, 0.1, x3, &d3, &k3, &b3);
    T_CHECK(memcmp(x1, x3, sizeof x1) == 0 && d1 == d3, "600 spheres with springs: 1 and 3 threads give the same bits (E_diss %.9g J)", d1);
    T_CHECK(b1 > 2 && k1 > 100, "the states survive the neighbour list's rebuilds: %ld builds, %ld states carried by the last", b1, k1);
    /* the vectorised kernel of spheres with a tangential spring alone, against the general
     * one: a rolling spring whose cap is 1e-150 R* F_n adds no moment a double can hold (the
     * check of pala_world_prepare wants a cap with a stiffness), and sends the world
     * through the general kernel; the two differ only by the rounding of the restitution's
     * torque on a sphere (zero in the vectorised one) */
    settle(1, 0, 0, x1, &d1, &k1, &b1);
    settle(3, 0, 0, x3, &d3, &k3, &b3);
    T_CHECK(memcmp(x1, x3, sizeof x1) == 0 && d1 == d3, "the same with the vectorised kernel: 1 and 3 threads give the same bits (E_diss %.9g J)", d1);
    static pala_vec3 xg[N];
    double dg, dx = 0;
    settle(1, 1e-4, 1e-150, xg, &dg, &k3, &b3);
    for (int k = 0; k < N; k++) dx = fmax(dx, pala_vnorm(pala_vsub(x1[k], xg[k])));
    T_CHECK(dx < 1e-12 && fabs(dg / d1 - 1) < 1e-9, "vectorised and general kernels: positions differ by %.3g m, E_diss %.12g against %.12g J", dx, d1, dg);
}

/* pala resume of a run whose contacts keep a history: the checkpoint holds the springs'
 * states (pairs and wall tables), so a run stopped at its end and extended gives the logs of
 * the uninterrupted run byte for byte, on another thread count too.  Ten clumps in a cavity
 * with tangential and rolling springs (the general kernel), and 300 settling spheres with
 * Mindlin's spring (the vectorised one). */
static void resume_one(const char *what, const char *run, const char *half, const char *full)
{
    char out[4096];
    const char *d = t_tmpdir();
    int rc = t_sh(out, sizeof out, "%s %s -o %s/h.ref --force --quiet --threads 1 && %s %s -o %s/h.res --force --quiet --threads 1 && "
                  "./pala resume %s/h.res --quiet --threads 2 %s && for f in energy.tsv walls.tsv trajectory.txt; do cmp %s/h.ref/$f %s/h.res/$f || exit 9; done",
                  run, full, d, run, half, d, d, full, d, d);
    T_CHECK(rc == 0, "%s: stopped at its end and resumed (2 threads), energy.tsv, walls.tsv, trajectory.txt identical to the uninterrupted run (exit %d) %.300s",
            what, rc, out);
    rc = t_sh(out, sizeof out, "grep -c . %s/h.ref/energy.tsv", d);
    T_CHECK(rc == 0 && atoi(out) > 20, "%s: %d rows compared", what, atoi(out));
}

/* The vectorised kernel on clumps (ten grains in a cavity, tangential spring) against the
 * general one (a rolling spring whose cap, 1e-150 of the usual, adds no moment a double can
 * hold next to the others): the same bits, but for E_diss, to which that spring adds less
 * than 1e-100 J.  With restitution (delta 0.5), so that the torques Hi, Hj count. */
static void clump_kernel(const char *damping)
{
    char out[4096];
    const char *d = t_tmpdir();
#define TEN "./pala run examples/paper-ten-grains.txt --set steps=12000 --set tangential_law=spring --set material.rubber.tangential_stiffness=1000 --set material.rubber.delta=0.5 --force --quiet --set normal_damping="
    int rc = t_sh(out, sizeof out, TEN "%s -o %s/ck0 && " TEN "%s --set material.rubber.rolling_stiffness=1e-5 --set material.rubber.rolling_friction=1e-150 -o %s/ck1 && "
                  "cmp %s/ck0/trajectory.txt %s/ck1/trajectory.txt && paste %s/ck0/energy.tsv %s/ck1/energy.tsv | "
                  "awk -F'\\t' '{ for (i = 1; i <= 12; i++) if (i != 9 && $i != $(i + 12)) exit 1; d = $9 - $21 } NR > 1 && (d > 1e-100 || d < -1e-100) { exit 1 }' && "
                  "awk -F'\\t' 'NR > 1 && $11 > m { m = $11 } END { print m }' %s/ck0/energy.tsv",
                  damping, d, damping, d, d, d, d, d, d);
#undef TEN
    T_CHECK(rc == 0 && atoi(out) > 5, "clumps with a tangential spring, normal_damping = %s: the vectorised and the general kernel give the same trajectory.txt and "
            "energy.tsv but E_diss (up to %d contacts at once; exit %d) %.200s", damping, atoi(out), rc, out);
}

static void resume_tests(void)
{
    resume_one("ten clumps with tangential and rolling springs",
               "./pala run examples/paper-ten-grains.txt --set tangential_law=spring --set material.rubber.tangential_stiffness=1000 "
               "--set material.rubber.rolling_stiffness=1e-5 --set material.rubber.rolling_friction=0.1 --set trajectory_every=100",
               "--set steps=10490", "--set steps=11500");   /* 11 contacts at step 10490 */
    resume_one("300 settling spheres with Mindlin's spring",
               "./pala run examples/settling-box.txt --set tangential_law=mindlin --set group.bed.count=300 --set energy_every=20 --set trajectory_every=500",
               "--set end_time=0.2", "--set end_time=0.21");   /* 518 contacts at 0.2 s */
    resume_one("three beads with the fractional law on a floor (its memory in the wall tables)",
               "./pala run examples/fractional.txt --set energy_every=10 --set trajectory_every=20",
               "--set steps=20300", "--set steps=20600");   /* in contact from step 20200 */
}

void test_history(void)
{
    resume_tests();
    clump_kernel("switch");
    clump_kernel("dashpot");
    tangential_oscillation();
    incline_tests();
    energy_tests();
    cycle_tests();
    rolling_tests();
    thread_tests();
}

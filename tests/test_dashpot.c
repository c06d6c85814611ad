/* test_dashpot.c: the normal dashpot (docs/physics.md, "The normal dashpot") against closed
 * forms:
 *  - head-on: two spheres meeting at 0.05 and at 0.5 m/s rebound with e = sqrt(delta)
 *    at both speeds, within 0.5%; a sphere on a wall too (m* of one grain);
 *  - energy: in those collisions E_diss is (1 - delta) of the kinetic energy brought in,
 *    and E_total + E_diss stays constant;
 *  - oblique impact with the spring law: a sphere that slides throughout its impact on a
 *    floor loses mu (1 + e) v_n of its tangential speed (the cap follows the normal force,
 *    dashpot included); six clumps settling in a box keep E_total + E_diss to second
 *    order in dt;
 *  - incline: a clump at 20 deg with mu = 0.5 holds still with the spring law and the
 *    dashpot (displacement below 1e-9 m over 1 s after settling);
 *  - threads: a pour of 600 spheres gives the same bits on 1 and 3 threads;
 *  - input: the dashpot with delta below 1e-4 is refused with a message. */
#include "t.h"
#include "builder.h"
#include "t_world.h"
#include "pala/pala.h"
#include "material.h"
#include <math.h>
#include <string.h>

void test_dashpot(void);

static const double PI = 3.14159265358979323846;

static pala_material dash_mat(double delta, double mu, int tlaw)
{
    pala_material m = {.name = "m", .rho = 2500, .E = 1e7, .sigma = 0.3, .delta = delta, .mu = mu, .nu = 1e-3};
    m.damp = PALA_DAMP_DASHPOT;
    m.tlaw = tlaw;
    m.kt = 2000;
    return m;
}

/* Two spheres of radius 1 mm meeting head-on at relative speed v (wall: one sphere on the
 * floor of a box), delta, no friction, no gravity: the restitution (relative speed after /
 * before), E_diss / the kinetic energy brought in, and the largest |E_total + E_diss - E_0|
 * / E_0 over the run. */
static double head_on(double v, double delta, int wall, double *dfrac, double *bal)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = dash_mat(delta, 0, PALA_TLAW_REGULARISED);
    pala_world_add_material(&w, &m);
    double a = 0.001;
    int t = pala_world_add_sphere_template(&w, 0, a);
    if (wall) {
        t_box(&w, pala_v(-0.01, -0.01, 0), pala_v(0.01, 0.01, 0.01));
        pala_world_add_grain(&w, t, pala_v(0, 0, a + 1e-6), pala_v(0, 0, 0), pala_v(0, 0, -v), pala_v(0, 0, 0));
    } else {
        pala_world_add_grain(&w, t, pala_v(-a - 5e-7, 0, 0), pala_v(0, 0, 0), pala_v(0.5 * v, 0, 0), pala_v(0, 0, 0));
        pala_world_add_grain(&w, t, pala_v(a + 5e-7, 0, 0), pala_v(0, 0, 0), pala_v(-0.5 * v, 0, 0), pala_v(0, 0, 0));
    }
    /* the contact lasts about 3.5 (m* v^2 / K)^(2/5) / v: about 2000 steps */
    double ms = w.tmpl[t].mass / (wall ? 1 : 2), K = sqrt(3.0) / 2 * 1e7 / (1 - 0.09) * (wall ? 2 : 1) * sqrt(wall ? 2 * a : a);
    double tc = 3.5 * pow(ms * v * v / K, 0.4) / v;
    w.dt = tc / 2000;
    pala_world_prepare(&w);
    pala_energy e0 = pala_world_energy(&w);
    double worst = 0;
    int touched = 0;
    for (long i = 0; i < 20000; i++) {
        pala_world_step(&w);
        if (i % 20 == 0) {
            pala_energy e = pala_world_energy(&w);
            worst = fmax(worst, fabs(e.total + w.diss - e0.total));
        }
        touched |= w.ncontact > 0;
        if (touched && w.ncontact == 0) break;
    }
    pala_energy e = pala_world_energy(&w);
    worst = fmax(worst, fabs(e.total + w.diss - e0.total));
    double vout = wall ? w.v[0].z : w.v[1].x - w.v[0].x;
    *dfrac = w.diss / e0.kin;
    *bal = worst / e0.total;
    pala_world_free(&w);
    return vout / v;
}

static void restitution_tests(void)
{
    double delta = 0.25, want = sqrt(delta), df, bal;
    for (int wall = 0; wall < 2; wall++)
        for (int k = 0; k < 2; k++) {
            double v = k ? 0.5 : 0.05;
            if (wall && k) continue;
            double e = head_on(v, delta, wall, &df, &bal);
            T_CHECK(fabs(e / want - 1) < 0.005, "dashpot, %s at %g m/s: restitution %.6f against sqrt(delta) = %.6f (rel. error %.2e, want < 0.5%%)",
                    wall ? "a sphere on a wall" : "two spheres head-on", v, e, want, fabs(e / want - 1));
            T_CHECK(fabs(df / (1 - delta) - 1) < 0.01 && bal < 1e-6,
                    "dashpot, %s at %g m/s: E_diss is %.6f of the kinetic energy brought in (1 - delta = %.4f); |E_total + E_diss - E_0| / E_0 at most %.2e",
                    wall ? "wall" : "pair", v, df, 1 - delta, bal);
        }
    /* the dimensionless solution itself: e(c) of pala_dashpot_constant gives sqrt(delta) back */
    double c = pala_dashpot_constant(0.25);
    T_CHECK(fabs(pala_dashpot_restitution(c) - 0.5) < 1e-9 && pala_dashpot_constant(1) == 0 && c > 0.5 && c < 0.6,
            "the dashpot constant for delta = 0.25: c = %.9f, its restitution %.9f", c, pala_dashpot_restitution(c));
}

/* ---- oblique impact: the cap follows the normal force ------------------------------------ */
static void oblique(void)
{
    pala_world w;
    pala_world_init(&w);
    double mu = 0.3, delta = 0.25, a = 0.001, vn = 0.1, vt = 1;
    pala_material m = dash_mat(delta, mu, PALA_TLAW_MINDLIN);
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, a);
    t_box(&w, pala_v(-0.05, -0.05, 0), pala_v(0.05, 0.05, 0.05));
    pala_world_add_grain(&w, t, pala_v(0, 0, a + 1e-7), pala_v(0, 0, 0), pala_v(vt, 0, -vn), pala_v(0, 0, 0));
    w.dt = 1e-7;
    pala_world_prepare(&w);
    int touched = 0;
    for (long i = 0; i < 100000; i++) {
        pala_world_step(&w);
        touched |= w.ncontact > 0;
        if (touched && w.ncontact == 0) break;
    }
    double e = w.v[0].z / vn, dvt = vt - w.v[0].x, slip = w.v[0].x - a * w.w[0].y;
    double want = mu * (1 + e) * vn;
    T_CHECK(fabs(dvt / want - 1) < 0.01 && slip > 0.5 && fabs(e - 0.5) < 0.005,
            "dashpot and Mindlin spring: a sphere sliding through an impact at %g m/s loses %.6g m/s of its tangential speed, "
            "mu (1 + e) v_n = %.6g (e = %.5f; rel. error %.2e, want < 1%%: the spring sticks for a moment as the impact starts; slip after %.3g m/s)", vn, dvt, want, e, fabs(dvt / want - 1), slip);
    pala_world_free(&w);
}

/* ---- clumps: a nine-sphere plate (radius 1 mm, centres 1.5 mm apart) ---------------------- */
static int plate(pala_world *w)
{
    double a = 0.001, d = 0.0015;
    pala_vec3 c[9], shape[9];
    double rad[9], rout[9];
    for (int i = 0; i < 9; i++) { c[i] = pala_v((i % 3 - 1) * d, (i / 3 - 1) * d, 0); rad[i] = a; }
    pala_template tp;
    char err[200] = "";
    memset(&tp, 0, sizeof tp);   /* material 0, no charge */
    pala_template_build(&tp, 9, c, rad, 2500, 200000, shape, rout, err, sizeof err);
    int t = pala_world_add_template(w, &tp, shape, rout);
    return t;
}

/* A plate on the floor, gravity tilted by theta about y, switched on over 0.05 s: x of the
 * centre at t = 0.2 and 1.2 s. */
static void incline(double theta, double *x0, double *x1)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = dash_mat(0.3, 0.5, PALA_TLAW_SPRING);
    pala_world_add_material(&w, &m);
    int t = plate(&w);
    t_box(&w, pala_v(-0.05, -0.05, 0), pala_v(0.05, 0.05, 0.05));
    w.dt = 2e-6;
    pala_world_add_grain(&w, t, pala_v(0, 0, 0.001), w.tmpl[t].frame, pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_prepare(&w);
    double g = 9.81, ramp = 0.05;
    *x0 = (double)NAN;
    while (w.t < 1.2 - 0.5 * w.dt) {
        double s = w.t < ramp ? 0.5 * (1 - cos(PI * w.t / ramp)) : 1;
        w.g = pala_v(s * g * sin(theta), 0, -s * g * cos(theta));
        if (pala_world_step(&w) != PALA_OK) { *x1 = (double)NAN; pala_world_free(&w); return; }
        if (isnan(*x0) && w.t >= 0.2 - 0.5 * w.dt) *x0 = w.x[0].x;
    }
    *x1 = w.x[0].x;
    pala_world_free(&w);
}

/* Six plates dropped in a small box with the Mindlin spring and the dashpot: the largest
 * |E_total + E_diss - E_0| over 0.05 s at dt and dt/2, and E_diss. */
static double pile_balance(double dt, double *diss)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = dash_mat(0.25, 0.5, PALA_TLAW_MINDLIN);
    pala_world_add_material(&w, &m);
    int t = plate(&w);
    t_box(&w, pala_v(-0.004, -0.004, 0), pala_v(0.004, 0.004, 0.03));
    w.g = pala_v(0, 0, -9.81);
    w.dt = dt;
    for (int i = 0; i < 6; i++)
        pala_world_add_grain(&w, t, pala_v(0.0003 * (i % 2), -0.0002 * (i % 3), 0.0015 + 0.0028 * i), pala_v(0.1 * i, 0.2, 0.05 * i),
                             pala_v(0, 0, 0), pala_v(3, -2, 1));
    pala_world_prepare(&w);
    pala_energy e0 = pala_world_energy(&w);
    double worst = 0;
    long n = (long)(0.05 / dt + 0.5), every = (long)(1e-4 / dt + 0.5);
    for (long i = 1; i <= n; i++) {
        if (pala_world_step(&w) != PALA_OK) { worst = (double)INFINITY; break; }
        if (i % every == 0) {
            pala_energy e = pala_world_energy(&w);
            worst = fmax(worst, fabs(e.total + w.diss - e0.total));
        }
    }
    *diss = w.diss;
    pala_world_free(&w);
    return worst;
}

static void clump_tests(void)
{
    double x0, x1;
    incline(20 * PI / 180, &x0, &x1);
    T_CHECK(fabs(x1 - x0) < 1e-9, "incline at 20 deg (friction angle %.2f deg), spring law and dashpot (delta 0.3): the clump moves %.3g m over 1 s after settling (want < 1e-9)",
            atan(0.5) * 180 / PI, fabs(x1 - x0));
    double d1, d2, b1 = pile_balance(1e-5, &d1), b2 = pile_balance(5e-6, &d2);
    T_CHECK(d1 > 0 && b1 < 1e-2 * d1 && b1 / b2 > 3.5,
            "six plates settling with the Mindlin spring and the dashpot: max |E_total + E_diss - E_0| %.3g J at dt 1e-5 s, %.3g J at dt/2 "
            "(ratio %.2f: second order, want > 3.5; E_diss %.3g J)", b1, b2, b1 / b2, d1);
}

/* ---- threads: 600 spheres poured into a box with the dashpot (no state kept: the
 * regularised law; and with the Mindlin spring) give the same bits on 1 and 3 threads ---- */
static double pour(int threads, int tlaw, pala_vec3 *xs)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = dash_mat(0.3, 0.5, tlaw);
    pala_world_add_material(&w, &m);
    t_pour600(&w, pala_world_add_sphere_template(&w, 0, 0.001));
    pala_world_set_threads(&w, threads);
    int st = pala_world_steps(&w, 1500);
    for (int k = 0; k < w.n; k++) xs[k] = w.x[k];
    double d = st == PALA_OK ? w.diss : -1.0;
    pala_world_free(&w);
    return d;
}

static void thread_tests(void)
{
    static pala_vec3 x1[600], x3[600];
    for (int k = 0; k < 2; k++) {
        int tlaw = k ? PALA_TLAW_MINDLIN : PALA_TLAW_REGULARISED;
        double d1 = pour(1, tlaw, x1), d3 = pour(3, tlaw, x3);
        T_CHECK(d1 > 0 && memcmp(&d1, &d3, sizeof d1) == 0 && memcmp(x1, x3, sizeof x1) == 0,
                "600 spheres poured with the dashpot and the %s law: the same bits on 1 and 3 threads (E_diss %.17g and %.17g J)",
                k ? "Mindlin" : "regularised", d1, d3);
    }
}

/* ---- input: the dashpot with delta below 1e-4 is refused, with the key and a fix ------- */
static void refused(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out, "./pala run examples/paper-ten-grains.txt --set normal_damping=dashpot --set material.rubber.delta=0 "
                  "--set steps=1 -o %s/dash0.run --force --quiet", t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "material.rubber.delta=0") && strstr(out, "delta >= 0.0001") && strstr(out, "normal_damping = switch"),
            "the dashpot with delta = 0: exit %d (want 1), %.300s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/paper-ten-grains.txt --set normal_damping=dashpot --set steps=20 -o %s/dash1.run --force --quiet",
              t_tmpdir());
    T_CHECK(rc == 0, "paper-ten-grains with normal_damping = dashpot (delta = 1: c = 0) runs: exit %d, %.300s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/fractional.txt --set normal_damping=dashpot --set steps=1 -o %s/dash2.run --force --quiet",
              t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "examples/fractional.txt:") && strstr(out, "normal_damping = switch"),
            "the dashpot on a fractional pair is refused: exit %d (want 1), %.300s", rc, out);
}

void test_dashpot(void)
{
    refused();
    restitution_tests();
    oblique();
    clump_tests();
    thread_tests();
}

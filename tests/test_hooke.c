/* test_hooke.c: the linear spring-dashpot (normal_law = hooke; docs/physics.md, "The linear
 * spring-dashpot") against its closed forms.  Two spheres meeting head-on are a damped
 * oscillator m* x'' = -k_n x - c x' while they overlap: the contact lasts
 * t_c = pi / sqrt(k_n/m* - gamma^2) and they part with e = exp(-gamma t_c), gamma = c / (2 m*);
 * pala's dashpot constant gives e = sqrt(delta).  A bed of spheres settles with it, and the
 * energy balance closes. */
#include "t.h"
#include "t_world.h"
#include "pala/pala.h"
#include <math.h>
#include <string.h>

void test_hooke(void);

static pala_material hooke_mat(double kn, double delta, int damp)
{
    pala_material m = {.name = "h", .rho = 2500, .E = 1e7, .sigma = 0.3, .delta = delta, .mu = 0, .nu = 1e-3};
    m.nlaw = PALA_NLAW_HOOKE;
    m.kn = kn;
    m.damp = damp;
    return m;
}

/* Two spheres of radius a at closing speed 2 v0: the contact time (the overlap's zero
 * crossings, interpolated between steps) and the restitution; *tc0, *e0: the closed forms. */
static void head_on(double delta, int damp, double *tc, double *e, double *tc0, double *e0)
{
    const double a = 1e-3, v0 = 0.1, kn = 1e3;
    pala_world w;
    pala_world_init(&w);
    pala_material m = hooke_mat(kn, delta, damp);
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, a);
    pala_world_add_grain(&w, t, pala_v(-a - 2e-6, 0, 0), pala_v(0, 0, 0), pala_v(v0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, t, pala_v(a + 2e-6, 0, 0), pala_v(0, 0, 0), pala_v(-v0, 0, 0), pala_v(0, 0, 0));
    double mstar = 0.5 * w.tmpl[t].mass, om0 = sqrt(kn / mstar);
    double L = -0.5 * log(delta);   /* -ln e, e = sqrt(delta) */
    double gam = L * om0 / sqrt(PALA_PI * PALA_PI + L * L);
    *tc0 = PALA_PI / sqrt(kn / mstar - gam * gam);
    *e0 = damp == PALA_DAMP_DASHPOT ? exp(-gam * *tc0) : sqrt(delta);
    if (damp != PALA_DAMP_DASHPOT) *tc0 = 0.5 * PALA_PI / om0 * (1 + 1 / sqrt(delta));   /* the switch: k_n, then delta k_n */
    w.dt = *tc0 / 4000;
    pala_world_prepare(&w);
    double t_in = -1, t_out = -1, ovp = 2 * a - (w.x[1].x - w.x[0].x);
    for (long i = 0; i < 20000 && t_out < 0; i++) {
        pala_world_step(&w);
        double ov = 2 * a - (w.x[1].x - w.x[0].x);
        double tc_ = w.t - w.dt * ov / (ov - ovp);   /* where the overlap crossed 0 */
        if (ovp <= 0 && ov > 0) t_in = tc_;
        if (ovp > 0 && ov <= 0) t_out = tc_;
        ovp = ov;
    }
    *tc = t_out - t_in;
    *e = (w.v[1].x - w.v[0].x) / (2 * v0);
    pala_world_free(&w);
}

/* A control file with normal_law = hooke and no normal_stiffness is refused at the line of
 * normal_law, naming the key that is missing; with it, it loads. */
static void hooke_scene(void)
{
    char path[512], err[2048];
    const char *text =
        "dt = 1e-5\nsteps = 20\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\n"
        "[material m]\ndensity = 1000\nyoung = 1e7\nnormal_law = hooke\n"
        "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.005\n"
        "[group g]\ngrain = ball\ncount = 5\n";
    snprintf(path, sizeof path, "%s/hooke.txt", t_tmpdir());
    t_write(path, text);
    pala_scene *s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(!s && strstr(err, "hooke.txt:9:") && strstr(err, "normal_stiffness"),
            "normal_law = hooke without normal_stiffness: refused at the line of normal_law, naming the key (%s)", err);
    if (s) pala_scene_free(s);
    char *set[1] = {(char *)"material.m.normal_stiffness=500"};
    s = t_load_scene(path, 1, set, err, sizeof err);
    const pala_world *w = s ? pala_scene_world(s) : NULL;
    T_CHECK(w && w->pm[0].nlaw == PALA_NLAW_HOOKE && w->pm[0].kn == 500 && w->pm[0].cdamp == 0,
            "with --set material.m.normal_stiffness=500 it loads: the pair's law is hooke with k_n 500 N/m (%s)", err);
    if (s) pala_scene_free(s);
}

void test_hooke(void)
{
    hooke_scene();
    static const double deltas[] = {0.81, 0.49, 0.09};
    for (int i = 0; i < 3; i++)
        for (int damp = PALA_DAMP_SWITCH; damp <= PALA_DAMP_DASHPOT; damp++) {
            double tc, e, tc0, e0;
            head_on(deltas[i], damp, &tc, &e, &tc0, &e0);
            /* the switch jumps at the turning point, within a step: its contact time is first order
             * in dt (1.3e-3 at e = 0.3 with 4000 steps a contact), its restitution second order */
            double ttol = damp == PALA_DAMP_DASHPOT ? 1e-4 : 2e-3;
            T_CHECK(fabs(tc / tc0 - 1) < ttol && fabs(e / e0 - 1) < 1e-4,
                    "hooke, %s, e = %.2f: head-on contact time %.8g s against %s %.8g (rel. %.1e), restitution %.7f against %.7f (rel. %.1e)",
                    damp == PALA_DAMP_DASHPOT ? "dashpot" : "switch", sqrt(deltas[i]), tc,
                    damp == PALA_DAMP_DASHPOT ? "pi / sqrt(k/m* - gamma^2)" : "(pi/2) sqrt(m*/k) (1 + 1/sqrt(delta))", tc0,
                    fabs(tc / tc0 - 1), e, e0, fabs(e / e0 - 1));
        }
    /* a bed poured with the spring-dashpot (and friction) settles; without friction the
     * balance E_total + E_diss holds to second order in dt */
    double drift[2];
    for (int h = 0; h < 3; h++) {
        pala_world w;
        pala_world_init(&w);
        pala_material m = hooke_mat(500, 0.36, PALA_DAMP_DASHPOT);
        m.mu = h == 0 ? 0.4 : 0;
        pala_world_add_material(&w, &m);
        t_pour600(&w, pala_world_add_sphere_template(&w, 0, 0.001));
        int k = h == 2 ? 2 : 1;
        w.dt /= k;
        double e0 = pala_world_energy(&w).total;
        int st = PALA_OK;
        for (int c = 0; c < (h ? 10 : 30) && st == PALA_OK; c++) st = pala_world_steps(&w, 1000 * k);
        pala_energy e = pala_world_energy(&w);
        if (h) drift[h - 1] = fabs(e.total + w.diss - e0) / fabs(e0);
        if (h == 0)
            T_CHECK(st == PALA_OK && e.kin + e.rot < 1e-4 * fabs(e0) && w.ncontact > 600,
                    "hooke: 600 spheres poured with the spring-dashpot and mu = 0.4 settle in 0.3 s (E_kin + E_rot %.3g J of |E_total(0)| %.3g J, "
                    "%ld contacts)", e.kin + e.rot, fabs(e0), w.ncontact);
        else T_CHECK(st == PALA_OK, "hooke: the pour without friction at dt/%d is stable", k);
        pala_world_free(&w);
    }
    T_CHECK(drift[0] < 1e-3 && drift[0] / drift[1] > 3.5 && drift[0] / drift[1] < 4.5,
            "hooke, no friction: |E_total + E_diss - E_total(0)| / |E_total(0)| after 0.1 s = %.3g at dt, %.3g at dt/2 (ratio %.2f: second order)",
            drift[0], drift[1], drift[0] / drift[1]);
}

/* test_fracnormal.c: the fractional-derivative normal law in the contact kernel
 * (docs/physics.md, "The fractional-derivative normal law"), P = c^alpha k^(1-alpha)
 * D^alpha(zeta) of the overlap since the contact began (seed 003, eq. 7), against closed
 * forms:
 *  - alpha = 0, the spring k zeta: a sphere meeting a floor at v0, and two spheres head on,
 *    touch for pi sqrt(m* / k) and part at v0 (restitution 1);
 *  - alpha = 1, the dashpot c zeta': the sphere never leaves the floor and stops at the
 *    depth m* v0 / c;
 *  - in between, the restitution falls with alpha and matches the table of docs/physics.md
 *    (made with the stand-alone model in the same dimensionless setting);
 *  - the energy balance E_total + E_diss = E_0 closes in a small heap of grains with
 *    fractional pairs, walls and a Hertz material among them, with tangential and rolling
 *    springs whose caps use the fractional force;
 *  - 1 and 3 threads give the same bits. */
#include "t.h"
#include "t_world.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void test_fracnormal(void);

static const double PI = 3.14159265358979323846;

/* The docs' setting in other units: a sphere of radius 1 mm and density 2500 (m), k = 10
 * N/m, c = 2 sqrt(m k) (the linear law would be critically damped), v0 = 0.01 m/s, dt =
 * 1e-3 sqrt(m / k): the dimensionless problem of the table (only c / sqrt(m k) and
 * dt / sqrt(m / k) enter). */
static const double A = 0.001, RHO = 2500, K = 10, V0 = 0.01;

static pala_material frac_mat(double alpha, double c, double k)
{
    pala_material m = {.name = "f", .rho = RHO, .E = 1e7, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    m.nlaw = PALA_NLAW_FRACTIONAL;
    m.alpha = alpha;
    m.fc = c;
    m.fk = k;
    return m;
}

typedef struct bounce { double e, tc, depth, dbal, mass, drop; int left; } bounce;

/* One sphere of the fractional material meets the floor of a box (its material too) at
 * v0, without gravity: restitution (the speed after / v0), contact time, largest overlap,
 * and the largest |E_total + E_diss - E_0| / E_0 seen. */
static bounce floor_bounce(double alpha, double tmax_over_T)
{
    bounce r = {0, 0, 0, 0, 0, 0, 0};
    double mass = 4.0 / 3.0 * PI * A * A * A * RHO, T = sqrt(mass / K), c = 2 * sqrt(mass * K);
    pala_world w;
    pala_world_init(&w);
    pala_material m = frac_mat(alpha, c, K);
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, A);
    t_box(&w, pala_v(-0.05, -0.05, 0), pala_v(0.05, 0.05, 0.05));
    w.dt = 1e-3 * T;
    double z0 = A + 0.5 * V0 * w.dt;   /* half a step from the floor */
    pala_world_add_grain(&w, t, pala_v(0, 0, z0), pala_v(0, 0, 0), pala_v(0, 0, -V0), pala_v(0, 0, 0));
    pala_world_prepare(&w);
    r.mass = w.tmpl[t].mass;
    pala_energy e0 = pala_world_energy(&w);
    double zl = z0, tin = -1, tout = -1, zmin = z0, dl = 0;
    long n = (long)(tmax_over_T * 1000);
    for (long i = 1; i <= n; i++) {
        pala_world_step(&w);
        double z = w.x[0].z;
        dl = fmax(dl, w.diss);
        r.drop = fmax(r.drop, (dl - w.diss) / e0.total);   /* E_diss below its largest value so far */
        if (zl >= A && z < A) tin = w.t - w.dt * (A - z) / (zl - z);
        if (zl < A && z >= A && tout < 0) tout = w.t - w.dt * (z - A) / (z - zl);
        zmin = fmin(zmin, z);
        zl = z;
        if (i % 50 == 0 || tout > 0) {
            pala_energy e = pala_world_energy(&w);
            r.dbal = fmax(r.dbal, fabs(e.total + w.diss - e0.total) / e0.total);
        }
        if (tout > 0) break;
    }
    r.left = tout > 0;
    r.tc = r.left ? tout - tin : 0;
    r.e = r.left ? w.v[0].z / V0 : 0;
    r.depth = A - zmin;
    pala_world_free(&w);
    return r;
}

static void limits(void)
{
    double mass = 4.0 / 3.0 * PI * A * A * A * RHO, T = sqrt(mass / K), c = 2 * sqrt(mass * K);
    bounce b = floor_bounce(0, 10);
    double tc = PI * T;
    T_CHECK(b.left && fabs(b.tc / tc - 1) < 5e-3 && fabs(b.e - 1) < 5e-3,
            "alpha = 0, sphere on a floor: contact time %.6g s against pi sqrt(m/k) = %.6g s (rel. %.2e), restitution %.6f (want 1 within 0.5%%)",
            b.tc, tc, fabs(b.tc / tc - 1), b.e);
    T_CHECK(b.dbal < 1e-4, "alpha = 0: E_total + E_diss stays E_0 within %.2e (want < 1e-4)", b.dbal);
    b = floor_bounce(1, 12);
    double d = mass * V0 / c;
    T_CHECK(!b.left && fabs(b.depth / d - 1) < 5e-3,
            "alpha = 1, sphere on a floor: no rebound (%s), stopping depth %.6g m against m v0 / c = %.6g m (rel. %.2e)",
            b.left ? "it left" : "none", b.depth, d, fabs(b.depth / d - 1));
    T_CHECK(b.dbal < 1e-4, "alpha = 1: E_total + E_diss stays E_0 within %.2e (want < 1e-4)", b.dbal);

    /* two spheres head on (the pair kernel): m* = m/2 */
    pala_world w;
    pala_world_init(&w);
    pala_material m = frac_mat(0, c, K);
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, A);
    double ms = 0.5 * mass, Ts = sqrt(ms / K);
    w.dt = 1e-3 * Ts;
    double x0 = A + 0.25 * V0 * w.dt;
    pala_world_add_grain(&w, t, pala_v(-x0, 0, 0), pala_v(0, 0, 0), pala_v(0.5 * V0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, t, pala_v(x0, 0, 0), pala_v(0, 0, 0), pala_v(-0.5 * V0, 0, 0), pala_v(0, 0, 0));
    pala_world_prepare(&w);
    double gl = 2 * x0 - 2 * A, tin = -1, tout = -1;
    for (long i = 1; i <= 10000 && tout < 0; i++) {
        pala_world_step(&w);
        double g = w.x[1].x - w.x[0].x - 2 * A;
        if (gl >= 0 && g < 0) tin = w.t - w.dt * (-g) / (gl - g);
        if (gl < 0 && g >= 0) tout = w.t - w.dt * g / (g - gl);
        gl = g;
    }
    double e = (w.v[1].x - w.v[0].x) / V0;
    T_CHECK(tout > 0 && fabs((tout - tin) / (PI * Ts) - 1) < 5e-3 && fabs(e - 1) < 5e-3,
            "alpha = 0, two spheres head on: contact time %.6g s against pi sqrt(m*/k) = %.6g s, restitution %.6f", tout - tin, PI * Ts, e);
    pala_world_free(&w);
}

/* A contact that ends leaves no memory: a sphere bouncing between the floor and the
 * ceiling of a box, without gravity, meets them at v0, e v0, e^2 v0, ...; the law is linear
 * in the overlap, so each contact that starts afresh has the same restitution e. */
static void fresh_contacts(void)
{
    double mass = 4.0 / 3.0 * PI * A * A * A * RHO, T = sqrt(mass / K), c = 2 * sqrt(mass * K);
    pala_world w;
    pala_world_init(&w);
    pala_material m = frac_mat(0.3, c, K);
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, A);
    t_box(&w, pala_v(-0.05, -0.05, 0), pala_v(0.05, 0.05, 2 * A + 0.2 * V0 * T));
    w.dt = 1e-3 * T;
    pala_world_add_grain(&w, t, pala_v(0, 0, A + 0.5 * V0 * w.dt), pala_v(0, 0, 0), pala_v(0, 0, -V0), pala_v(0, 0, 0));
    pala_world_prepare(&w);
    double v[4] = {-V0, 0, 0, 0};
    int nb = 0, touching = 0;
    for (long i = 1; i <= 200000 && nb < 3; i++) {
        pala_world_step(&w);
        int now = w.ncontact > 0;
        if (touching && !now) v[++nb] = w.v[0].z;
        touching = now;
    }
    double e1 = v[1] / -v[0], e2 = -v[2] / v[1], e3 = v[3] / -v[2];
    T_CHECK(nb == 3 && fabs(e2 / e1 - 1) < 1e-3 && fabs(e3 / e1 - 1) < 1e-3,
            "alpha = 0.3, floor - ceiling - floor: restitutions %.5f %.5f %.5f, each contact starts without memory", e1, e2, e3);
    pala_world_free(&w);
}

/* The restitution against alpha: falls, and matches docs/physics.md's table. */
static void restitution(void)
{
    static const double al[] = {0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9};
    static const double doc[] = {0.9075, 0.8208, 0.6633, 0.5251, 0.3002, 0.1355, 0.0279};
    double last = 1, worst = 0;
    int mono = 1;
    char line[512] = "";
    for (int i = 0; i < 7; i++) {
        bounce b = floor_bounce(al[i], 40);
        if (!(b.left && b.e < last)) mono = 0;
        last = b.e;
        worst = fmax(worst, fabs(b.e - doc[i]));
        size_t l = strlen(line);
        snprintf(line + l, sizeof line - l, " %.2f:%.4f(%.1e)", al[i], b.e, b.drop);
        T_CHECK(b.dbal < 1e-3, "alpha = %.2f: E_total + E_diss stays E_0 within %.2e", al[i], b.dbal);
    }
    T_CHECK(mono, "the restitution falls as alpha grows (alpha:e)%s", line);
    T_CHECK(worst < 1e-3, "the engine's restitution matches docs/physics.md's table within %.2e (want < 1e-3)", worst);
}

/* 64 spheres dropped in a small box: grains of a fractional material (alpha 0.3) and of a
 * Hertz one, fractional walls, tangential and rolling springs; E_total + E_diss. */
static double heap(int threads, double dt, pala_vec3 *xs, double *diss, double *bal)
{
    pala_world w;
    pala_world_init(&w);
    double mass = 4.0 / 3.0 * PI * A * A * A * RHO;
    pala_material f = frac_mat(0.3, 2 * sqrt(mass * 500), 500), h = frac_mat(0, 0, 0);
    f.tlaw = PALA_TLAW_SPRING; f.kt = 200; f.mu = 0.5; f.kroll = 1e-4; f.muroll = 0.1;
    snprintf(h.name, sizeof h.name, "h"); h.nlaw = PALA_NLAW_HERTZ; h.tlaw = PALA_TLAW_SPRING; h.kt = 200; h.mu = 0.5; h.kroll = 1e-4; h.muroll = 0.1; h.delta = 0.5;
    pala_world_add_material(&w, &f);
    pala_world_add_material(&w, &h);
    int tf = pala_world_add_sphere_template(&w, 0, A), th = pala_world_add_sphere_template(&w, 1, A);
    t_box(&w, pala_v(0, 0, 0), pala_v(0.009, 0.009, 0.03));
    w.g = pala_v(0, 0, -9.81);
    int n = 0;
    for (int iz = 0; iz < 4; iz++)
        for (int iy = 0; iy < 4; iy++)
            for (int ix = 0; ix < 4; ix++, n++)
                pala_world_add_grain(&w, (n % 3) ? tf : th, pala_v(0.0012 + ix * 0.0022 + 2e-4 * (iz % 2), 0.0012 + iy * 0.0022, 0.0012 + iz * 0.0022),
                                     pala_v(0, 0, 0), pala_v(0.02 * ((n * 7) % 5 - 2), 0.02 * ((n * 3) % 5 - 2), -0.05), pala_v(0, 0, 0));
    w.dt = dt;
    pala_world_sort(&w);
    pala_world_prepare(&w);
    pala_world_set_threads(&w, threads);
    pala_energy e0 = pala_world_energy(&w);
    double worst = 0;
    long steps = (long)(0.02 / dt + 0.5), every = steps / 50;
    int st = PALA_OK;
    for (long i = 0; i < steps / every && st == PALA_OK; i++) {
        st = pala_world_steps(&w, every);
        pala_energy e = pala_world_energy(&w);
        worst = fmax(worst, fabs(e.total + w.diss - e0.total));
    }
    T_CHECK(st == PALA_OK, "64 spheres with fractional pairs (%d threads, dt %g): %s", threads, dt, st ? w.why : "stable");
    if (xs)
        for (int k = 0; k < w.n; k++) xs[k] = w.x[k];
    *diss = w.diss;
    *bal = worst;
    pala_world_free(&w);
    return e0.total;
}

static void balance_and_threads(void)
{
    enum { N = 64 };
    static pala_vec3 x1[N], x3[N];
    double d1, d3, b1, b3, d2, b2;
    double e0 = heap(1, 2e-6, x1, &d1, &b1);
    heap(3, 2e-6, x3, &d3, &b3);
    heap(1, 1e-6, NULL, &d2, &b2);
    T_CHECK(d1 > 0.1 * fabs(e0) && b1 < 1e-4 * d1,
            "64 spheres with fractional pairs, 0.02 s: E_diss %.4g J of E_0 %.4g J, max |E_total + E_diss - E_0| %.3g J (%.2e of E_diss; want < 1e-4)",
            d1, e0, b1, b1 / d1);
    T_CHECK(b2 < 0.5 * b1, "the balance's error falls with dt: %.3g J at dt, %.3g J at dt/2", b1, b2);
    T_CHECK(memcmp(x1, x3, sizeof x1) == 0 && d1 == d3, "fractional pairs: 1 and 3 threads give the same bits (E_diss %.9g J)", d1);
}

void test_fracnormal(void)
{
    limits();
    fresh_contacts();
    restitution();
    balance_and_threads();
}

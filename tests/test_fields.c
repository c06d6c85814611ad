/* test_fields.c: charges and dipoles in homogeneous E and B fields (field.c, the Lorentz
 * kick of integrator.h; docs/physics.md, "Charges, dipoles and fields"), against closed
 * forms:
 *  - a charge in a uniform B: cyclotron frequency qB/m and radius m v/(qB); kinetic energy
 *    without drift over 100 turns (implicit kick), the orbit's error second order in dt;
 *    the paper's midpoint estimate (lorentz_step = paper) drifts as t dt^3, as documented;
 *  - E perpendicular to B: the guiding centre drifts with E x B / B^2;
 *  - a magnetic dipole in a sphere in B, an electric dipole in a dumbbell in E: small
 *    oscillations at sqrt(|m| |B| / I) about a principal axis;
 *  - turning fields: E_total - W_field conserved to second order in dt;
 *  - 2D: vectors that push a grain out of the plane are refused with file:line and key. */
#include "t.h"
#include "builder.h"
#include "pala/pala.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_fields(void);

static const double PI = 3.14159265358979323846;

/* One sphere of radius 1 mm, density 2500 (m = 1.047e-5 kg), charge q, at x with velocity v. */
static int one_charge(pala_world *w, double q, pala_vec3 x, pala_vec3 v)
{
    pala_world_init(w);
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(w, &m);
    int t = pala_world_add_sphere_template(w, 0, 0.001);
    w->tmpl[t].charge = q;
    pala_world_add_grain(w, t, x, pala_v(0, 0, 0), v, pala_v(0, 0, 0));
    return t;
}

/* A charge in B = 1 T along z with qB/m = 10 1/s, v = 0.01 m/s: radius 1 mm, period 0.628 s.
 * Over 100 turns at nper steps a turn: the frequency from the turning of v, the radius from
 * the orbit's extent in y, the largest |dE_kin/E_kin|, and the distance from the exact
 * orbit at the end. */
typedef struct cyc { double om, R, dke, err; } cyc;
static cyc cyclotron(int nper, int lorentz)
{
    pala_world w;
    one_charge(&w, 0, pala_v(0, 0, 0), pala_v(0.01, 0, 0));
    double m = w.tmpl[0].mass, B = 1, om = 10, v0 = 0.01;
    w.tmpl[0].charge = om * m / B;
    w.B = pala_v(0, 0, B);
    w.lorentz = lorentz;
    w.dt = 2 * PI / om / nper;
    pala_world_prepare(&w);
    double ke0 = 0.5 * m * v0 * v0, dke = 0, ang = 0, last = 0, ymin = 0, ymax = 0;
    for (int n = 0; n < 100 * nper; n++) {
        pala_world_step(&w);
        double a = atan2(w.v[0].y, w.v[0].x), d = a - last;
        ang += d - 2 * PI * floor((d + PI) / (2 * PI));   /* unwrapped turn of v */
        last = a;
        double ke = 0.5 * m * pala_vnorm2(w.v[0]);
        dke = fmax(dke, fabs(ke - ke0) / ke0);
        if (n < nper) { ymin = fmin(ymin, w.x[0].y); ymax = fmax(ymax, w.x[0].y); }
    }
    /* exact: a positive charge turns clockwise about z, centre (0, -R): x = R sin(om t), y = R (cos(om t) - 1) */
    double R = m * v0 / (w.tmpl[0].charge * B), t = w.t;
    pala_vec3 ex = pala_v(R * sin(-om * t) * -1, R * (cos(om * t) - 1), 0);
    cyc c = {fabs(ang) / t, 0.5 * (ymax - ymin), dke, pala_vnorm(pala_vsub(w.x[0], ex)) / R};
    pala_world_free(&w);
    return c;
}

static void cyclotron_tests(void)
{
    cyc a = cyclotron(400, PALA_LORENTZ_IMPLICIT), b = cyclotron(800, PALA_LORENTZ_IMPLICIT);
    T_NEAR(a.om, 10, 1e-4 * 10, "cyclotron: angular frequency qB/m (400 steps a turn)");
    T_NEAR(a.R, 1e-3, 1e-4 * 1e-3, "cyclotron: radius m v / (q B)");
    T_CHECK(a.dke < 1e-12 && b.dke < 1e-12, "cyclotron: no drift of the kinetic energy over 100 turns: max |dE_kin/E_kin| %.2g, %.2g at dt/2 (round-off)",
            a.dke, b.dke);
    T_CHECK(a.err > 0 && a.err < 0.05 && a.err / b.err > 3.5 && a.err / b.err < 4.5,
            "cyclotron: distance from the exact orbit after 100 turns %.3g R, %.3g R at dt/2 (ratio %.2f ~ 4: second order)", a.err, b.err, a.err / b.err);
    cyc p = cyclotron(100, PALA_LORENTZ_PAPER), q = cyclotron(200, PALA_LORENTZ_PAPER), r = cyclotron(100, PALA_LORENTZ_IMPLICIT);
    T_CHECK(p.dke > 0.02 && p.dke / q.dke > 6, "lorentz_step = paper: E_kin gains %.3g over 100 turns at 100 steps a turn, %.3g at 200 (ratio %.1f ~ 8: "
            "a drift growing as t dt^3; implicit: %.2g)", p.dke, q.dke, p.dke / q.dke, r.dke);
}

/* E = E0 x, B = B z: a charge starting at rest drifts with E x B / B^2 = -E0/B y on average;
 * over a whole number of turns its mean velocity is that drift. */
static void exb_drift(void)
{
    pala_world w;
    one_charge(&w, 0, pala_v(0, 0, 0), pala_v(0, 0, 0));
    double m = w.tmpl[0].mass, B = 1, om = 10, E0 = 0.02;
    w.tmpl[0].charge = om * m / B;
    w.B = pala_v(0, 0, B);
    w.E = pala_v(E0, 0, 0);
    int nper = 400;
    w.dt = 2 * PI / om / nper;
    pala_world_prepare(&w);
    pala_energy e0 = pala_world_energy(&w);
    double emax = 0;
    for (int n = 0; n < 50 * nper; n++) {
        pala_world_step(&w);
        if (n % 50 == 0) {
            pala_energy e = pala_world_energy(&w);
            emax = fmax(emax, fabs(e.total - e0.total));
        }
    }
    pala_vec3 vd = pala_vscale(1 / w.t, w.x[0]), want = pala_vscale(1 / (B * B), pala_vcross(w.E, w.B));
    T_NEAR(vd.y, want.y, 1e-3 * fabs(want.y), "E x B drift: mean velocity E x B / B^2 (y)");
    T_CHECK(fabs(vd.x) < 1e-3 * fabs(want.y) && vd.z == 0, "E x B drift: no mean velocity along E (%.3g m/s) nor along B", vd.x);
    pala_energy e = pala_world_energy(&w);
    T_CHECK(emax < 1e-3 * fabs(e.kin + 1e-30) + 1e-3 * m * want.y * want.y, "E x B: E_total (E_kin - q E.x) conserved: max |dE| %.3g J", emax);
    pala_world_free(&w);
}

/* A dipole d (body axis a) in a field F along world axis a, tilted by th0 about axis b:
 * returns the period of its oscillation (from the zero crossings of omega_b). */
static double dipole_period(pala_world *w, int b, double dt, double th0, double *emax)
{
    pala_vec3 axis[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    w->r[0] = pala_vscale(tan(th0 / 2), axis[b]);
    w->dt = dt;
    pala_world_prepare(w);
    pala_energy e0 = pala_world_energy(w);
    double last = 0, t1 = -1, t2 = -1;
    *emax = 0;
    for (int n = 0; n < 200000 && t2 < 0; n++) {
        pala_world_step(w);
        double o = pala_vdot(w->w[0], axis[b]);
        if (last < 0 && o >= 0) {
            double tc = w->t - w->dt * o / (o - last);
            if (t1 < 0) t1 = tc; else t2 = tc;
        }
        last = o;
        pala_energy e = pala_world_energy(w);
        *emax = fmax(*emax, fabs(e.total - e0.total));
    }
    return t2 - t1;
}

static void dipole_oscillation(void)
{
    const double th0 = 0.01;
    /* magnetic: a sphere, moment m along body x, B along x; turns about z */
    pala_world w;
    one_charge(&w, 0, pala_v(0, 0, 0), pala_v(0, 0, 0));
    double mm = 2e-6, B = 3e-3;
    w.tmpl[0].mdip = pala_v(mm, 0, 0);
    w.B = pala_v(B, 0, 0);
    double I = w.tmpl[0].inertia[2], T0 = 2 * PI * sqrt(I / (mm * B)) * (1 + th0 * th0 / 16), em;
    double T = dipole_period(&w, 2, T0 / 500, th0, &em);
    T_NEAR(T, T0, 1e-3 * T0, "magnetic dipole in B: small oscillations at sqrt(|m||B|/I)");
    T_CHECK(em < 1e-6 * mm * B, "magnetic dipole: E_total (with -m.B) conserved: max |dE| %.3g J of |m B| %.3g J", em, mm * B);
    /* the m_align column: cos(m, B(t)) with the field turned by 0.5 rad about z at t = 0.1 s */
    w.r[0] = pala_v(0, 0, tan(0.15));
    w.t = 0.1;
    w.B_turn = pala_v(0, 0, 5);
    T_NEAR(pala_world_dipole_alignment(&w), cos(0.5 - 0.3), 1e-12, "m_align: cos of the angle between the dipole (turned 0.3 rad) and B (turned 0.5 rad)");
    pala_world_free(&w);

    /* electric: a dumbbell of two spheres; the dipole along its smallest principal axis a,
     * E along a; it turns about the axis b of the largest moment */
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(&w, &m);
    pala_template tp;
    memset(&tp, 0, sizeof tp);
    pala_vec3 c[2] = {{-0.001, 0, 0}, {0.001, 0, 0}}, shape[2];
    double rad[2] = {0.0012, 0.0012}, rout[2];
    char err[200] = "";
    T_CHECK(pala_template_build(&tp, 2, c, rad, 2500, 20000, shape, rout, err, sizeof err) == 0, "dumbbell: built (%s)", err);
    int a = 0, b = 0;
    for (int i = 1; i < 3; i++) {
        if (tp.inertia[i] < tp.inertia[a]) a = i;
        if (tp.inertia[i] > tp.inertia[b]) b = i;
    }
    if (b == a) b = (a + 1) % 3;
    double p = 1e-9, E = 4e3;
    double dv[3] = {0, 0, 0};
    dv[a] = p;
    tp.edip = pala_v(dv[0], dv[1], dv[2]);
    tp.material = 0;
    pala_world_add_template(&w, &tp, shape, rout);
    pala_world_add_grain(&w, 0, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    double ev[3] = {0, 0, 0};
    ev[a] = E;
    w.E = pala_v(ev[0], ev[1], ev[2]);
    I = tp.inertia[b];
    T0 = 2 * PI * sqrt(I / (p * E)) * (1 + th0 * th0 / 16);
    T = dipole_period(&w, b, T0 / 500, th0, &em);
    T_NEAR(T, T0, 1e-3 * T0, "electric dipole in E: small oscillations at sqrt(|p||E|/I) about a principal axis");
    T_CHECK(em < 1e-6 * p * E, "electric dipole: E_total (with -p.E) conserved: max |dE| %.3g J of |p E| %.3g J", em, p * E);
    pala_world_free(&w);
}

/* Charged grains with both dipoles, far apart, in E and B that turn: E_total - W_field is
 * conserved to second order in dt. */
static double turning(double dt, double *wmax)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(&w, &m);
    int t = pala_world_add_sphere_template(&w, 0, 0.001);
    w.tmpl[t].charge = 1e-9;
    w.tmpl[t].edip = pala_v(2e-12, 0, 0);
    w.tmpl[t].mdip = pala_v(0, 1e-8, 0);
    pala_world_add_grain(&w, t, pala_v(0, 0, 0), pala_v(0.1, 0.2, 0.3), pala_v(0.01, 0, 0), pala_v(0, 0, 5));
    pala_world_add_grain(&w, t, pala_v(0.05, 0, 0), pala_v(-0.3, 0.1, 0.2), pala_v(0, 0.01, 0), pala_v(3, 0, 0));
    pala_world_add_grain(&w, t, pala_v(0, 0.05, 0.02), pala_v(0.2, -0.2, 0.1), pala_v(0, 0, -0.01), pala_v(0, 2, 0));
    w.E = pala_v(30, 0, 10);
    w.E_turn = pala_v(0, 0, 7);
    w.B = pala_v(0.02, 0, 0.01);
    w.B_turn = pala_v(0, 5, 3);
    w.dt = dt;
    pala_world_prepare(&w);
    T_CHECK(pala_world_energy_terms(&w) == (PALA_TERM_PAIR | PALA_TERM_WFIELD | PALA_TERM_ALIGN), "turning fields: the world has E_pair, W_field and m_align");
    pala_energy e0 = pala_world_energy(&w);
    double emax = 0;
    *wmax = 0;
    for (int n = 0; n * dt < 2.0; n++) {
        pala_world_step(&w);
        pala_energy e = pala_world_energy(&w);
        emax = fmax(emax, fabs(e.total - w.wfield - e0.total));
        *wmax = fmax(*wmax, fabs(w.wfield));
    }
    pala_world_free(&w);
    return emax;
}

static void turning_fields(void)
{
    double w1, w2, e1 = turning(2e-3, &w1), e2 = turning(1e-3, &w2);
    T_CHECK(w1 > 100 * e1, "turning fields: the fields do work (max |W_field| %.3g J) beyond the balance's error (%.3g J)", w1, e1);
    T_CHECK(e1 / e2 > 3.5 && e1 / e2 < 4.5, "turning fields: E_total - W_field conserved to second order: max |error| %.3g J at dt, %.3g J at dt/2 (ratio %.2f)",
            e1, e2, e1 / e2);
}

/* 2D: each vector that would push a grain out of the plane is refused, naming line and key. */
static void refuse_2d(void)
{
    static const struct { const char *top, *grain, *key; } c[] = {
        {"", "electric_dipole = 1e-9 0 1e-9", "electric_dipole"},
        {"", "magnetic_dipole = 0 1 1", "magnetic_dipole"},
        {"electric_field = 0 1 2", "charge = 1e-9", "electric_field"},
        {"magnetic_field = 0.1 0 0", "charge = 1e-9", "magnetic_field"},
        {"magnetic_field = 0 0 0.1", "magnetic_dipole = 1 0 0", "magnetic_field"},
        {"magnetic_field_turn = 1 0 0", "charge = 1e-9", "magnetic_field_turn"},
    };
    char path[512], text[2048], out[4096];
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        snprintf(path, sizeof path, "%s/fields2d_%zu.txt", t_tmpdir(), i);
        snprintf(text, sizeof text,
                 "dimension = 2\ncontainer = none\ndt = 1e-5\nsteps = 2\n%s\n[material m]\ndensity = 1000\nyoung = 1e7\n"
                 "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.001\n%s\n[group a]\ngrain = g\nplacement = list\nat = 0 0 0\n",
                 c[i].top, c[i].grain);
        t_write(path, text);
        int rc = t_sh(out, sizeof out, "./pala run %s -o %s/fields2d_out_%zu --force", path, t_tmpdir(), i);
        char want[600];
        snprintf(want, sizeof want, "%s:", path);
        T_CHECK(rc == 1 && strstr(out, want) && strstr(out, c[i].key) && strstr(out, "2D"),
                "2D: '%s' / '%s' refused with file:line and the key %s (exit %d): %s", c[i].top, c[i].grain, c[i].key, rc, out);
    }
}

/* examples/magnetic-brush.txt, briefly: it runs, writes its columns, the carriers' dipoles
 * line up with B, and the balance with W_field closes. */
static void brush_example(void)
{
    char out[4096], path[600];
    int rc = t_sh(out, sizeof out, "./pala run examples/magnetic-brush.txt -o %s/brush.run --force --quiet --set end_time=0.01", t_tmpdir());
    snprintf(path, sizeof path, "%s/brush.run/energy.tsv", t_tmpdir());
    FILE *f = fopen(path, "r");
    char line[2048], head[2048] = "";
    double a0 = 2, a1 = 2, bal = 0;
    int rows = 0;
    while (f && fgets(line, sizeof line, f)) {
        if (!head[0]) { snprintf(head, sizeof head, "%s", line); continue; }
        double v[20];
        int n = 0;
        for (char *p = strtok(line, "\t"); p && n < 20; p = strtok(NULL, "\t")) v[n++] = atof(p);
        if (n != 15) continue;
        if (rows++ == 0) a0 = v[14];
        a1 = v[14];
        bal = fmax(bal, fabs(v[11]));
    }
    if (f) fclose(f);
    T_CHECK(rc == 0 && strstr(head, "E_pair") && strstr(head, "W_field") && strstr(head, "m_align"),
            "magnetic brush: runs (exit %d) and writes E_pair, W_field, m_align: %s", rc, head);
    T_CHECK(rows > 2 && a1 > a0 + 0.2 && bal < 1e-3, "magnetic brush: m_align rises from %.3f to %.3f in 10 ms; max |dE_bal_rel| %.2g", a0, a1, bal);
}

/* Two like charges in a medium of relative permittivity 2.5 (docs/physics.md, "Pair
 * interactions between centres"): E_pair = q^2 / (4 pi eps0 eps_r r) and each is pushed
 * away from the other by q^2 / (4 pi eps0 eps_r r^2). */
static void permittivity(void)
{
    pala_world w;
    one_charge(&w, 2e-9, pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, 0, pala_v(0.03, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.eps_r = 2.5;
    w.dt = 1e-9;
    pala_world_prepare(&w);
    double q = 2e-9, r = 0.03, k = 1 / (4 * PI * 8.8541878128e-12 * 2.5);
    pala_energy e = pala_world_energy(&w);
    T_NEAR(e.inter, k * q * q / r, 1e-12 * k * q * q / r, "permittivity 2.5: E_pair = q^2 / (4 pi eps0 eps_r r)");
    pala_world_step(&w);
    double F = k * q * q / (r * r), m = w.tmpl[0].mass;
    T_NEAR(-w.acc[0].x * m, F, 1e-6 * F, "permittivity 2.5: the force q^2 / (4 pi eps0 eps_r r^2), away from the other charge");
    pala_world_free(&w);
}

void test_fields(void)
{
    permittivity();
    brush_example();
    cyclotron_tests();
    exb_drift();
    dipole_oscillation();
    turning_fields();
    refuse_2d();
}

/* test_arcs.c: arc grains in 2D (Potapov and Campbell, seed 001; docs/physics.md, "Arc
 * grains") against closed forms.  An oval's area and polar moment are those of its four
 * sectors less the rhombus of their centres (1e-12); two ovals touching corner to side push
 * with the force of their touching circles (Hertz and the linear spring); a disc on a turning
 * oval moves from a side to a corner with no jump in the linear spring's force (the tangent is
 * continuous), while Hertz's jumps by the ratio of the curvatures' roots; without friction the
 * energy error falls by 4 when dt halves; a contact is no deeper than half the other grain's
 * chord (eq. A9: no corner beyond a grain counts as touching its far side); the same bits on 1
 * and 3 threads; and bad input is refused at the line of its key. */
#include "t.h"
#include "t_world.h"
#include "arcs.h"
#include "force_pass.h"
#include "grain.h"
#include "neighbor.h"
#include "pala/pala.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_arcs(void);

/* the oval of the tests: tips at a from the centre, corners r, sides R */
static const double OA = 0.01, OR = 0.003, OS = 0.02;

static pala_material arc_mat(int hooke)
{
    pala_material m = {.name = "m", .rho = 2500, .E = 1e8, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    if (hooke) { m.nlaw = PALA_NLAW_HOOKE; m.kn = 2e4; }
    return m;
}

/* The template of a regular quasi-polygon (pala_arcs_regular) of material 0, thickness h. */
static int regular(pala_world *w, int sides, double a, double rc, double rs, double h)
{
    pala_arc arcs[16];
    char err[256] = "";
    pala_arcs_regular(sides, a, rc, rs, arcs, err, sizeof err);
    pala_template t;
    memset(&t, 0, sizeof t);
    int k = pala_world_build_arc_template(w, &t, 2 * sides, arcs, h);
    if (k < 0) T_CHECK(0, "the template of %d sides is built (%s)", sides, pala_world_error(w));
    return k;
}

/* A world of dimension 2 with material m and the oval's template (index 0). */
static void oval_world(pala_world *w, int hooke, double h)
{
    pala_world_init(w);
    w->dim = 2;
    pala_material m = arc_mat(hooke);
    pala_world_add_material(w, &m);
    regular(w, 2, OA, OR, OS, h);
}

/* The oval's closed forms: the two sectors of the sides (half-width beta, apex s from the
 * centre) and of the corners (gamma = pi/2 - beta, apex rho) cover it, their rhombus twice. */
static void oval_closed(double *A, double *J, double *beta, double *s)
{
    double rho = OA - OR, b = asin(rho / (OS - OR)), g = 0.5 * PALA_PI - b, sd = (OS - OR) * cos(b);
    *A = 2 * b * OS * OS + 2 * g * OR * OR - 2 * rho * sd;
    double jb = pow(OS, 4) * b / 2 - 4.0 / 3.0 * sd * pow(OS, 3) * sin(b) + b * OS * OS * sd * sd;
    double jc = pow(OR, 4) * g / 2 + 4.0 / 3.0 * rho * pow(OR, 3) * sin(g) + g * OR * OR * rho * rho;
    *J = 2 * jb + 2 * jc - rho * sd * (rho * rho + sd * sd) / 3;
    *beta = b;
    *s = sd;
}

static void oval_mass(void)
{
    double A, J, b, s;
    oval_closed(&A, &J, &b, &s);
    const double h = 0.002, rho = 2500;
    pala_world w;
    oval_world(&w, 0, h);
    const pala_template *t = &w.tmpl[0];
    T_CHECK(fabs(t->mass - rho * A * h) <= 1e-12 * rho * A * h, "oval: mass rho A h, A = 2 beta R^2 + 2 gamma r^2 - 2 rho s: %.15g vs %.15g kg",
            t->mass, rho * A * h);
    T_CHECK(fabs(t->inertia[2] - rho * h * J) <= 1e-12 * rho * h * J, "oval: I_z = rho h J (sectors less the rhombus): %.15g vs %.15g kg m^2",
            t->inertia[2], rho * h * J);
    /* the prism's in-plane moments add up to I_z + m h^2/6 */
    T_CHECK(fabs(t->inertia[0] + t->inertia[1] - t->inertia[2] - t->mass * h * h / 6) <= 1e-12 * t->inertia[2],
            "oval: I_x + I_y = I_z + m h^2/6 (%.15g vs %.15g)", t->inertia[0] + t->inertia[1], t->inertia[2] + t->mass * h * h / 6);
    T_CHECK(fabs(t->com_given.x) < 1e-15 && fabs(t->com_given.y) < 1e-15 && t->frame.z == 0 && t->inertia[0] < t->inertia[1],
            "oval: centre of mass at its centre (%g %g), long axis the first principal axis (frame %g)", t->com_given.x, t->com_given.y, t->frame.z);
    T_CHECK(fabs(t->bound_radius - OA) < 1e-15, "oval: bounding radius = its tip's distance %g (%.17g)", OA, t->bound_radius);
    pala_world_free(&w);
    /* the default thickness: 4/3 of the radius of the disc of area A, the mass of its sphere */
    oval_world(&w, 0, 0);
    double re = sqrt(A / PALA_PI);
    T_CHECK(fabs(w.tmpl[0].mass - rho * 4.0 / 3.0 * PALA_PI * re * re * re) <= 1e-12 * w.tmpl[0].mass,
            "oval, thickness 0: the mass of the sphere of the disc of its area");
    pala_world_free(&w);
    /* a quasi-triangle turned and moved: the same area and moments (translation, rotation) */
    pala_arc a[6], b2[6];
    char err[256] = "";
    pala_arcs_regular(3, 0.01, 0.002, 0.03, a, err, sizeof err);
    double m0[6], m1[6], c = cos(0.7), sn = sin(0.7);
    pala_arcs_moments(6, a, m0);
    for (int i = 0; i < 6; i++) {
        b2[i] = a[i];
        b2[i].c = pala_v(c * a[i].c.x - sn * a[i].c.y + 0.3, sn * a[i].c.x + c * a[i].c.y - 0.2, 0);
        b2[i].a0 += 0.7; b2[i].a1 += 0.7;
    }
    pala_arcs_moments(6, b2, m1);
    double j0 = m0[3] + m0[4], j1 = m1[3] + m1[4] - m1[0] * (0.09 + 0.04);   /* about its centroid (0.3, -0.2) */
    T_CHECK(fabs(m1[0] - m0[0]) < 1e-12 * m0[0] && fabs(j1 - j0) < 1e-9 * j0 && fabs(m1[1] / m1[0] - 0.3) < 1e-12 && fabs(m1[2] / m1[0] + 0.2) < 1e-12,
            "quasi-triangle turned by 0.7 rad and moved: area, centroid and polar moment carried exactly (%.3g, %.3g)", m1[0] / m0[0] - 1,
            j1 / j0 - 1);
}

/* The force and torque on grain 0 in the configuration as placed (v = 0: the first step's
 * midpoint is the start), from its accelerations: F = m alpha, T_z = I_z beta_z. */
static void first_force(pala_world *w, pala_vec3 *F, double *Tz)
{
    w->dt = 1e-9;
    pala_world_prepare(w);
    pala_world_step(w);
    const pala_template *t = &w->tmpl[w->tid[0]];
    *F = pala_vscale(t->mass, w->acc[0]);
    *Tz = t->inertia[2] * w->bacc[0].z;
}

/* Oval A at the origin, its corner on +x against the side of oval B (turned by 90 deg)
 * whose circle has its centre at (X + s, y0): the force of the circles r and R. */
static void ovals_touch(int hooke)
{
    double A, J, beta, s;
    oval_closed(&A, &J, &beta, &s);
    const double rho = OA - OR, y0 = 0.002, ov = 1e-5, d = OR + OS - ov;
    double X = rho - s + sqrt(d * d - y0 * y0);
    pala_world w;
    oval_world(&w, hooke, 0.002);
    pala_world_add_grain(&w, 0, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, 0, pala_v(X, y0, 0), pala_v(0, 0, 1), pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_vec3 F;
    double Tz;
    first_force(&w, &F, &Tz);
    pala_vec3 n = pala_v((X + s - rho) / d, y0 / d, 0);   /* from A's corner circle to B's side circle */
    double rt = 2 * OR * OS / (OR + OS), f = hooke ? 2e4 * ov : w.pm[0].kE * sqrt(rt * ov) * ov;   /* eq. (57), or k_n (-d) */
    pala_vec3 cp = pala_vaxpy(pala_v(rho, 0, 0), OR - 0.5 * ov, n);   /* eq. (50) */
    double tz = -f * (cp.x * n.y - cp.y * n.x);
    T_CHECK(fabs(F.x + f * n.x) <= 1e-9 * f && fabs(F.y + f * n.y) <= 1e-9 * f,
            "two ovals, corner (r) to side (R) with an offset, %s: the force of the circles, %s (%.12g %.12g vs %.12g %.12g N)",
            hooke ? "linear spring" : "Hertz", hooke ? "k_n (-d)" : "kE sqrt(H(r, R)) (-d)^1.5", F.x, F.y, -f * n.x, -f * n.y);
    T_CHECK(fabs(Tz - tz) <= 1e-8 * fabs(tz), "... and its torque about A's centre, c x F (eq. 51): %.12g vs %.12g N m", Tz, tz);
    T_CHECK(w.ncontact == 1, "... one contact (%ld)", w.ncontact);
    pala_world_free(&w);
}

/* A disc of radius b at (0, Y) on oval A turned by theta: the force on the disc (world). */
static pala_vec3 disc_on_oval(int hooke, double Y, double b, double theta, double *kE)
{
    pala_world w;
    oval_world(&w, hooke, 0.002);
    int ts = pala_world_add_sphere_template(&w, 0, b);
    pala_world_add_grain(&w, 0, pala_v(0, 0, 0), pala_v(0, 0, tan(0.5 * theta)), pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, ts, pala_v(0, Y, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.dt = 1e-9;
    pala_world_prepare(&w);
    pala_world_step(&w);
    pala_vec3 F = pala_vscale(w.tmpl[ts].mass, w.acc[1]);
    *kE = w.pm[0].kE;
    pala_world_free(&w);
    return F;
}

/* The contact moves from the oval's top side to its corner as it turns: the linear spring's
 * force is continuous (the overlap and the normal are: the tangent is continuous), and
 * equals k_n (-d) of the side's circle just before and of the corner's just after; Hertz's
 * jumps by sqrt(H(r, b) / H(R, b)). */
static void switch_arcs(void)
{
    double A, J, beta, s;
    oval_closed(&A, &J, &beta, &s);
    const double rho = OA - OR, b = 0.003, ov0 = 1e-5, gam = 0.5 * PALA_PI - beta, eps = 1e-11;
    /* the disc's centre in A's frame when it touches the joint: J + (b - ov0) n_J */
    pala_vec3 nj = pala_v(cos(gam), sin(gam), 0);
    pala_vec3 q = pala_vaxpy(pala_vaxpy(pala_v(rho, 0, 0), OR, nj), b - ov0, nj);
    double Y = pala_vnorm(q), th = atan2(q.x, q.y), kE;
    pala_vec3 F0 = disc_on_oval(1, Y, b, th - eps, &kE), F1 = disc_on_oval(1, Y, b, th + eps, &kE);
    /* the closed forms on each side: the disc at Y (sin t, cos t) in A's frame */
    double t0 = th - eps, t1 = th + eps;
    double ovs = b + OS - hypot(Y * sin(t0), Y * cos(t0) + s), ovc = b + OR - hypot(Y * sin(t1) - rho, Y * cos(t1));
    double f0 = pala_vnorm(F0), f1 = pala_vnorm(F1);
    T_CHECK(fabs(f0 - 2e4 * ovs) <= 1e-9 * f0 && fabs(f1 - 2e4 * ovc) <= 1e-9 * f1,
            "disc on a turning oval, linear spring: the side's circle before the joint (%.12g vs %.12g N), the corner's after (%.12g vs %.12g N)",
            f0, 2e4 * ovs, f1, 2e4 * ovc);
    T_CHECK(pala_vnorm(pala_vsub(F1, F0)) <= 1e-7 * f0, "... and no jump across the joint: |F+ - F-| = %.3g of |F| (2e-11 rad apart)",
            pala_vnorm(pala_vsub(F1, F0)) / f0);
    /* steps of 1e-4 rad across the joint: no step changes F by more than twice its neighbours */
    double worst = 0;
    pala_vec3 Fp = disc_on_oval(1, Y, b, th - 10.5e-4, &kE), dp = pala_v(0, 0, 0);
    for (int k = -9; k <= 10; k++) {
        pala_vec3 Fk = disc_on_oval(1, Y, b, th + (k - 0.5) * 1e-4, &kE), dk = pala_vsub(Fk, Fp);
        if (k > -9) worst = fmax(worst, pala_vnorm(pala_vsub(dk, dp)) / pala_vnorm(dk));
        Fp = Fk;
        dp = dk;
    }
    T_CHECK(worst < 0.2, "... steps of 1e-4 rad across it: the force's increments change by at most %.3g of themselves (no kink beyond the "
            "curvature's)", worst);
    pala_vec3 H0 = disc_on_oval(0, Y, b, t0, &kE), H1 = disc_on_oval(0, Y, b, t1, &kE);
    double want = sqrt(2 * OR * b / (OR + b) / (2 * OS * b / (OS + b)));
    T_CHECK(fabs(pala_vnorm(H1) / pala_vnorm(H0) - want) < 1e-5 * want,
            "Hertz across the joint: the force jumps by sqrt(H(r, b)/H(R, b)) = %.6g (%.6g): the curvature is not continuous", want,
            pala_vnorm(H1) / pala_vnorm(H0));
}

/* Ovals and quasi-triangles bouncing in a 2D box, linear springs, no friction, delta = 1:
 * the largest |E(t) - E(0)| over 0.02 s at dt. */
static double bounce(double dt)
{
    pala_world w;
    oval_world(&w, 1, 0);
    int tri = regular(&w, 3, 0.008, 0.002, 0.03, 0);
    t_box(&w, pala_v(0, 0, -0.01), pala_v(0.1, 0.1, 0.01));
    int n = 0;
    for (int iy = 0; iy < 4; iy++)
        for (int ix = 0; ix < 4; ix++, n++)
            pala_world_add_grain(&w, n % 2 ? tri : 0, pala_v(0.012 + 0.025 * ix, 0.012 + 0.025 * iy, 0), pala_v(0, 0, tan(0.15 * n)),
                                 pala_v(0.4 * ((n * 7) % 5 - 2), 0.4 * ((n * 3) % 5 - 2), 0), pala_v(0, 0, 20.0 * ((n % 3) - 1)));
    w.dt = dt;
    pala_world_prepare(&w);
    double e0 = pala_world_energy(&w).total, worst = 0;
    long steps = (long)(0.02 / dt + 0.5);
    for (long i = 0; i < steps; i++) {
        pala_world_step(&w);
        if (i % 10 == 9) worst = fmax(worst, fabs(pala_world_energy(&w).total - e0));
    }
    pala_world_free(&w);
    return worst / e0;
}

/* A world of dimension 2 with material 0 of friction mu and restitution delta (Hertz, or
 * hooke: the linear spring). */
static void rough_world(pala_world *w, int hooke, double mu, double delta)
{
    pala_world_init(w);
    w->dim = 2;
    pala_material m = arc_mat(hooke);
    m.mu = mu;
    m.delta = delta;
    pala_world_add_material(w, &m);
}

/* 600 quasi-triangles poured in a box, Hertz with friction: the same bits on 1 and 3
 * threads (three blocks of 256 grains). */
static uint64_t pour(int nthr)
{
    pala_world w;
    rough_world(&w, 0, 0.4, 0.3);
    int tri = regular(&w, 3, 0.001, 0.0003, 0.004, 0);
    t_box(&w, pala_v(0, 0, -0.01), pala_v(0.05, 0.2, 0.01));
    for (int i = 0; i < 600; i++)
        pala_world_add_grain(&w, tri, pala_v(0.0015 + 0.0021 * (i % 23), 0.0015 + 0.0021 * (i / 23), 0), pala_v(0, 0, tan(0.185 * (i % 17))),
                             pala_v(i % 2 ? 0.5 : -0.5, -0.5, 0), pala_v(0, 0, 0));
    w.g = pala_v(0, -9.81, 0);
    w.dt = 5e-7;
    pala_world_sort(&w);
    pala_world_set_threads(&w, nthr);
    pala_world_prepare(&w);
    int st = 0;
    for (int i = 0; i < 1000 && !st; i++) st = pala_world_step(&w);
    if (st != PALA_OK) T_CHECK(0, "the pour runs (%s)", pala_world_error(&w));
    uint64_t h = UINT64_C(14695981039346656037);
    for (int k = 0; k < w.n; k++) {
        h = t_fnv_doubles(h, &w.x[k].x, 3);
        h = t_fnv_doubles(h, &w.w[k].x, 3);
    }
    T_CHECK(nthr > 1 || w.ncontact > 100, "the pour has its grains in contact (%ld contacts)", w.ncontact);
    pala_world_free(&w);
    return h;
}

/* The build's angular filter (neighbor.c, "The arcs' faces") drops no pair that touches:
 * ovals, quasi-triangles and quasi-squares in a box, linear springs with friction, every
 * thrown-th thrown at v (m/s) (the rest at rest: the fast ones take the larger skins of
 * neighbor.c's "Skins of their own"), every every-th spun at up to om (rad/s), their centres
 * gap apart; at every evaluation each
 * touching pair of all pairs (eqs. 49, A5, brute force over the grains) must be listed.
 * And the filter drops most of what the distance test alone lists (at each build). */
static void arc_filter(const char *what, double v, int thrown, double om, int every, double gap)
{
    pala_world w;
    rough_world(&w, 1, 0.5, 0.5);
    int tmpl[3] = {regular(&w, 2, 0.001, 0.0003, 0.004, 0), regular(&w, 3, 0.001, 0.0003, 0.004, 0), regular(&w, 4, 0.001, 0.0003, 0.004, 0)};
    t_box(&w, pala_v(0, 0, -0.01), pala_v(0.03, 0.04, 0.01));
    for (int i = 0; i < 240; i++)
        pala_world_add_grain(&w, tmpl[(i * 7) % 3], pala_v(0.0012 + gap * (i % 14), 0.0012 + gap * (i / 14), 0), pala_v(0, 0, tan(0.37 * (i % 17))),
                             pala_v(i % thrown ? 0 : v * cos(2.1 * i), i % thrown ? 0 : v * sin(2.1 * i), 0), pala_v(0, 0, i % every ? 0 : om * sin(1.3 * i + 0.5)));
    w.g = pala_v(0, -9.81, 0);
    w.dt = 5e-7;
    pala_world_prepare(&w);
    long touching = 0, missed = 0, listed = 0, unfiltered = 0, builds = -1, evals = 0;
    pala_vec3 *bc = malloc((size_t)w.npeb * sizeof *bc);
    for (int i = 0; i < 3000; i++) {
        if (i > 0 && pala_world_step(&w) != PALA_OK) { T_CHECK(0, "the filter's run runs (%s)", pala_world_error(&w)); break; }
        if (pala_nlist_update(&w)) pala_force_pass_setup(&w);   /* the list of the next evaluation, as the step's first stage */
        const pala_nlist *nl = w.nl;
        for (int k = 0; k < w.n; k++) {   /* every pebble where it is now, and its arc's bounding circle */
            pala_world_place_pebbles(&w, k);
            const pala_template *t = &w.tmpl[w.tid[k]];
            double g = w.r[k].z, cs = (1 - g * g) / (1 + g * g), sn = 2 * g / (1 + g * g);   /* eqs. (11)-(13) about z */
            for (int c = 0; c < t->ncomp; c++) {
                const pala_arcrange *a = &w.arc[t->comp0 + c];
                bc[w.p0[k] + c] = pala_v(w.x[k].x + cs * a->bx - sn * a->by, w.x[k].y + sn * a->bx + cs * a->by, 0);
            }
        }
        int built = nl->builds != builds;
        builds = nl->builds;
        for (int k = 0; k < w.n; k++)
            for (int j = k + 1; j < w.n; j++) {
                double bk = w.tmpl[w.tid[k]].bound_radius, bj = w.tmpl[w.tid[j]].bound_radius, d2 = pala_vnorm2(pala_vsub(w.x[k], w.x[j]));
                if (built && d2 < (bk + bj + nl->skin) * (bk + bj + nl->skin))   /* what the distance test lists (neighbor.c, near) */
                    for (int p = w.p0[k]; p < w.p0[k + 1]; p++)
                        for (int q = w.p0[j]; q < w.p0[j + 1]; q++) {
                            double rc = w.parc[p].br + w.parc[q].br + 1.5 * nl->skin, dx = w.parc[p].bx - w.parc[q].bx, dy = w.parc[p].by - w.parc[q].by;
                            unfiltered += dx * dx + dy * dy < rc * rc;
                        }
                if (d2 >= (bk + bj) * (bk + bj)) continue;
                for (int p = w.p0[k]; p < w.p0[k + 1]; p++)
                    for (int q = w.p0[j]; q < w.p0[j + 1]; q++) {
                        pala_vec3 d = pala_vsub(w.pc[p], w.pc[q]);
                        double sr = nl->prad[p] + nl->prad[q];
                        if (!pala_pair_touch(w.parc, p, q, d.x, d.y, pala_vnorm2(d), sr)) continue;   /* eqs. (49), (A5), (A9) */
                        touching++;
                        int found = 0;
                        for (int s = nl->start[p]; s < nl->start[p + 1]; s++) found |= nl->nbr[s] == q;
                        missed += !found;
                    }
            }
        if (built) listed += nl->start[w.npeb];
        evals++;
    }
    T_CHECK(missed == 0 && touching > 10 * evals, "arc grains %s: every touching arc pair listed at each of %ld evaluations (%ld touching, %ld "
            "not listed)", what, evals, touching, missed);
    T_CHECK(builds > 20 && listed < unfiltered / 2, "arc grains %s: the filter lists %ld arc pairs at %ld builds, the distance test alone %ld (at "
            "most half)", what, listed, builds, unfiltered);
    free(bc);
    pala_world_free(&w);
}

/* Where the ray from grain k's centre of mass along u (unit) leaves its outline: the
 * farthest point of an arc's circle on it within that arc (the outline is convex). */
static double outline_reach(const pala_world *w, int k, double ux, double uy)
{
    double far = 0;
    for (int p = w->p0[k]; p < w->p0[k + 1]; p++) {
        double ex = w->x[k].x - w->pc[p].x, ey = w->x[k].y - w->pc[p].y, R = w->nl->prad[p];
        double b = ex * ux + ey * uy, disc = b * b - (ex * ex + ey * ey - R * R);
        if (disc < 0) continue;
        double t = -b + sqrt(disc), qx = ex + t * ux, qy = ey + t * uy;   /* the root ahead: the centre lies inside each circle it can exit through */
        if (qx * w->parc[p].mx + qy * w->parc[p].my >= (w->parc[p].ch - 1e-12) * R) far = fmax(far, t);
    }
    return far;
}

/* Point (x, y) lies inside grain k (within tol of its outline). */
static int inside_grain(const pala_world *w, int k, double x, double y, double tol)
{
    double dx = x - w->x[k].x, dy = y - w->x[k].y, d = hypot(dx, dy);
    return d == 0 || d < outline_reach(w, k, dx / d, dy / d) + tol;
}

/* Eq. (A9), the deepest contact of an arc.  (1) The oval's four arcs: the shortest inward
 * chord is at a joint, along the joint's normal through the corner's centre to the far
 * side's circle (centre (0, s), radius R): t = e.u + sqrt((e.u)^2 - |e|^2 + R^2), e from that
 * centre to the joint, u = (sin beta, cos beta); dl = t / 2 for each arc.  (2) Two
 * quasi-triangles (bench/arcs/triangle.txt's outline) placed at random around each other:
 * rule (A5) with the circles' overlap alone counts pairs whose contact points do not lie in
 * the other grain (a corner beyond the far side, in that side's circle); the whole rule
 * (pala_pair_touch) counts none of them, and keeps every true contact below 0.5 mm (dl is
 * 0.89 mm for this outline, whose tips lie 1.4 mm from its centre: a limit of a quarter of
 * the shortest chord, 0.44 mm, would drop some). */
static void arc_depth(void)
{
    double A, J, beta, s;
    oval_closed(&A, &J, &beta, &s);
    pala_world w;
    oval_world(&w, 1, 0.002);
    const double rho = OA - OR, ux = sin(beta), uy = cos(beta), ex = rho + OR * ux, ey = OR * uy - s, eu = ex * ux + ey * uy;
    const double t = eu + sqrt(eu * eu - (ex * ex + ey * ey) + OS * OS);
    double worst = 0;
    for (int i = 0; i < 4; i++) worst = fmax(worst, fabs(w.arc[i].dl - 0.5 * t));
    T_CHECK(worst <= 1e-12 * t, "the oval's arcs reach at most half the chord at a joint, %.9g m deep (eq. A9): %.9g %.9g %.9g %.9g", 0.5 * t,
            w.arc[0].dl, w.arc[1].dl, w.arc[2].dl, w.arc[3].dl);
    pala_world_free(&w);

    rough_world(&w, 1, 0, 1);
    int tri = regular(&w, 3, 0.0014, 0.00042, 0.0056, 0);
    t_box(&w, pala_v(-0.1, -0.1, -0.01), pala_v(0.1, 0.1, 0.01));
    pala_world_add_grain(&w, tri, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, tri, pala_v(0.005, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.dt = 1e-7;
    pala_world_prepare(&w);
    long fake = 0, taken = 0, real = 0, kept = 0;
    pala_rng rng;
    pala_rng_seed(&rng, 12345);
    for (int c = 0; c < 40000; c++) {
        double rx = pala_rng_uniform(&rng) * 0.009 - 0.0045, ry = pala_rng_uniform(&rng) * 0.009 - 0.0045, phi = (pala_rng_uniform(&rng) - 0.5) * 2 * PALA_PI;
        w.x[1] = pala_v(rx, ry, 0);
        w.r[1] = pala_v(0, 0, tan(0.5 * phi));
        pala_world_place_pebbles(&w, 1);
        for (int p = w.p0[0]; p < w.p0[1]; p++)
            for (int q = w.p0[1]; q < w.p0[2]; q++) {
                double dx = w.pc[p].x - w.pc[q].x, dy = w.pc[p].y - w.pc[q].y, d2 = dx * dx + dy * dy, dd = sqrt(d2);
                double sr = w.nl->prad[p] + w.nl->prad[q], ov = sr - dd;
                if (!(d2 < sr * sr) || !pala_arcs_face(&w.parc[p], &w.parc[q], dx, dy, dd)) continue;
                /* n from p's centre to q's; p's contact point c_p + R_p n, q's c_q - R_q n */
                double nx = -dx / dd, ny = -dy / dd, tol = 1e-9;
                int truth = inside_grain(&w, 1, w.pc[p].x + w.nl->prad[p] * nx, w.pc[p].y + w.nl->prad[p] * ny, tol) &&
                            inside_grain(&w, 0, w.pc[q].x - w.nl->prad[q] * nx, w.pc[q].y - w.nl->prad[q] * ny, tol);
                int touch = pala_pair_touch(w.parc, p, q, dx, dy, d2, sr);
                fake += !truth;
                taken += !truth && touch;
                real += truth && ov < 0.0005;
                kept += truth && ov < 0.0005 && touch;

            }
    }
    T_CHECK(fake > 100 && taken == 0, "two quasi-triangles at 40,000 random places: (A5) with the circles' overlap takes %ld pairs whose contact "
            "points lie outside the other grain; the depth limit (A9) rejects them all (%ld taken)", fake, taken);
    T_CHECK(real > 1000 && kept == real, "... and keeps every true contact of an overlap below 0.5 mm (a third of the tips' distance; %ld of "
            "%ld; dl %g m)", kept, real, w.arc[0].dl);
    pala_world_free(&w);
}

/* Bad input: refused at the line of the key, naming it. */
static void arc_scenes(void)
{
    char path[512], err[2048];
    const char *head = "dimension = 2\ndt = 1e-6\nsteps = 2\ncontainer = box\nbox = 0 0.1 0 0.1 -0.01 0.01\nwall_material = m\n"
                       "[material m]\ndensity = 1000\nyoung = 1e7\n[grain g]\nmaterial = m\nshape = arcs\n";
    char text[2048];
    /* an oval of four arc lines, then one whose last arc starts elsewhere */
    const char *oval = "arc = 0.0035 0 0.0015 -65.684260828823525 65.684260828823525\n"
                       "arc = 0 -0.0077459666924148346 0.01 65.684260828823525 114.31573917117647\n"
                       "arc = -0.0035 0 0.0015 114.31573917117647 245.68426082882354\n";
    snprintf(text, sizeof text, "%s%sarc = 0 0.0077459666924148346 0.01 245.68426082882354 294.31573917117646\n[group a]\ngrain = g\ncount = 3\n",
             head, oval);
    snprintf(path, sizeof path, "%s/arcs.txt", t_tmpdir());
    t_write(path, text);
    pala_scene *s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "an oval of four arc lines loads (%s)", err);
    if (s) pala_scene_free(s);
    snprintf(text, sizeof text, "%s%sarc = 0 0.0077459666924148346 0.01 250 294.31573917117646\n[group a]\ngrain = g\ncount = 3\n", head, oval);
    t_write(path, text);
    s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(!s && strstr(err, "arcs.txt:15:") && strstr(err, "'arc = ") && strstr(err, "must join"),
            "an arc that starts where the last one does not end is refused at the line of that one, naming the key (%s)", err);
    if (s) pala_scene_free(s);
    snprintf(text, sizeof text, "%sarcs_shape = square\nradius = 0.005\ncorner_radius = 0.001\nside_radius = 0.004\n[group a]\ngrain = g\ncount = 3\n", head);
    t_write(path, text);
    s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(!s && strstr(err, "arcs.txt:16:") && strstr(err, "side_radius"), "side_radius below radius: refused at its line (%s)", err);
    if (s) pala_scene_free(s);
    snprintf(text, sizeof text, "%sarcs_shape = square\nradius = 0.005\ncorner_radius = 0.001\nside_radius = 0.04\n[group a]\ngrain = g\ncount = 3\n", head);
    text[12] = '3';   /* dimension = 3 */
    t_write(path, text);
    s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(!s && strstr(err, "arcs.txt:12:") && strstr(err, "dimension = 2"), "shape = arcs in 3D: refused at the line of shape (%s)", err);
    if (s) pala_scene_free(s);
}

/* An arc run drawn: the trajectory's header gives each arc its ends, the snapshot draws
 * each grain as one path of arcs (no circle), the replay's page carries the arcs, and the
 * exports write each arc's bounding circle (no radius beyond the grain's). */
static void arc_pictures(void)
{
    char path[512], out[4096];
    snprintf(path, sizeof path, "%s/arcpic.txt", t_tmpdir());
    t_write(path, "dimension = 2\ndt = 2e-6\nsteps = 200\ntrajectory_every = 100\ncontainer = box\nbox = 0 0.05 0 0.05 -0.01 0.01\n"
                  "wall_material = m\n[material m]\ndensity = 2500\nyoung = 1e8\n"
                  "[grain q]\nmaterial = m\nshape = arcs\narcs_shape = square\nradius = 0.004\ncorner_radius = 0.001\nside_radius = 0.02\n"
                  "[group g]\ngrain = q\ncount = 12\n");
    int rc = t_sh(out, sizeof out, "cd %s && rm -rf arcpic.run && ../../pala run arcpic.txt --quiet && ../../pala snapshot arcpic.run -o arcpic.run/s.svg "
                  "&& ../../pala view arcpic.run && ../../pala export arcpic.run --format xyz && grep -c '<path' arcpic.run/s.svg && "
                  "grep -c '<circle' arcpic.run/s.svg; awk 'NF == 6' arcpic.run/trajectory.txt | wc -l; "
                  "awk 'NF == 11 { n++ } NF == 11 && $5 > 0.004 { b++ } END { print n + 0, b + 0 }' arcpic.run/trajectory.xyz", t_tmpdir());
    int paths = -1, circles = -1, lines6 = -1, nx = -1, big = -1;
    const char *p = strstr(out, "pala export");
    if (p) p = strchr(p, '\n');
    if (p) sscanf(p, "%d %d %d %d %d", &paths, &circles, &lines6, &nx, &big);
    T_CHECK(rc == 0 && paths == 12 && circles == 1 && lines6 == 8 && nx == 3 * 96 && big == 0,
            "an arc run drawn: 12 outline paths and only the legend's circle in the snapshot, 8 arc lines in the trajectory's header, no export "
            "sphere beyond the grain (%d %d %d %d %d; %.300s)", paths, circles, lines6, nx, big, out);
}

/* the numbers of a VTK DataArray named name in text (after its '>'), n at most, into v; how many */
static long vtk_array(const char *text, const char *name, double *v, long n)
{
    char key[64];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    const char *p = strstr(text, key);
    if (!p || !(p = strchr(p, '>'))) return 0;
    p++;
    long k = 0;
    for (char *e; k < n; p = e) {
        double x = strtod(p, &e);
        if (e == p) break;
        v[k++] = x;
    }
    return k;
}

/* the file at path into text (cap bytes at most, 0-ended; empty if it cannot be read) */
static void slurp(const char *path, char *text, size_t cap)
{
    FILE *f = fopen(path, "r");
    size_t len = f ? fread(text, 1, cap - 1, f) : 0;
    if (f) fclose(f);
    text[len] = 0;
}

/* The VTK export draws arc grains as their outlines: two ovals placed turned by 2 atan(0.3)
 * and 2 atan(-0.5) about z (eq. 8), exported; outlines_000000.vtp holds a polygon each,
 * every point of which lies on an arc of the oval pala_arcs_regular gives in the frame as
 * written (at distance R from its centre to 1e-12 of the size, its direction within the
 * arc's range), every arc carrying points; spheres_ still has the arcs' bounding circles. */
static void arc_outlines_vtk(void)
{
    char path[512], out[4096];
    const double at[2][3] = {{0.012, 0.013, 0.3}, {0.031, 0.022, -0.5}};   /* x, y, r_z */
    snprintf(path, sizeof path, "%s/arcvtk.txt", t_tmpdir());
    char scene[2048];
    snprintf(scene, sizeof scene,
             "dimension = 2\ndt = 1e-6\nsteps = 0\ncontainer = box\nbox = -0.05 0.1 -0.05 0.1 -0.01 0.01\nwall_material = m\n"
             "[material m]\ndensity = 2500\nyoung = 1e8\n[grain o]\nmaterial = m\nshape = arcs\narcs_shape = oval\nradius = %g\n"
             "corner_radius = %g\nside_radius = %g\n[group a]\ngrain = o\nplacement = list\norientation = 0 0 %g\nat = %g %g 0\n"
             "[group b]\ngrain = o\nplacement = list\norientation = 0 0 %g\nat = %g %g 0\n",
             OA, OR, OS, at[0][2], at[0][0], at[0][1], at[1][2], at[1][0], at[1][1]);
    t_write(path, scene);
    int rc = t_sh(out, sizeof out, "cd %s && rm -rf arcvtk.run && ../../pala run arcvtk.txt --quiet && ../../pala export arcvtk.run --format vtk "
                  "&& ls arcvtk.run/vtk", t_tmpdir());
    T_CHECK(rc == 0 && strstr(out, "outlines.pvd") && strstr(out, "outlines_000000.vtp"), "an arc run exported to VTK: outlines.pvd and outlines_000000.vtp (%s)", out);
    snprintf(path, sizeof path, "%s/arcvtk.run/vtk/outlines_000000.vtp", t_tmpdir());
    static char text[1 << 20];
    slurp(path, text, sizeof text);
    long np = 0, ncell = 0;
    const char *pc = strstr(text, "<Piece ");
    if (pc) sscanf(pc, "<Piece NumberOfPoints=\"%ld\" NumberOfVerts=\"0\" NumberOfLines=\"0\" NumberOfStrips=\"0\" NumberOfPolys=\"%ld\"", &np, &ncell);
    static double pts[3 * 4096];
    double offs[2] = {0, 0}, grain[2] = {-1, -1};
    long got = np > 0 && np <= 4096 ? vtk_array(text, "outline", pts, 3 * np) : 0;
    long go = vtk_array(text, "offsets", offs, 2), gg = vtk_array(text, "grain", grain, 2);
    T_CHECK(ncell == 2 && got == 3 * np && go == 2 && gg == 2 && offs[1] == np && grain[0] == 0 && grain[1] == 1,
            "outlines_000000.vtp: 2 polygons of grains 0 and 1, %ld points (%ld read), offsets %g %g", np, got / 3, offs[0], offs[1]);
    pala_arc arcs[4];
    char err[256] = "";
    pala_arcs_regular(2, OA, OR, OS, arcs, err, sizeof err);
    double worst = 0, outside = 0;
    int onarc[2][4] = {{0}};
    for (long i = 0; i < np && go == 2; i++) {
        int g = i < (long)offs[0] ? 0 : 1;
        double th = 2 * atan(at[g][2]), x = pts[3 * i] - at[g][0], y = pts[3 * i + 1] - at[g][1];
        double u = cos(th) * x + sin(th) * y, v = -sin(th) * x + cos(th) * y;   /* in the frame as written */
        worst = fmax(worst, fabs(pts[3 * i + 2]));
        double best = HUGE_VAL;
        int which = -1;
        for (int a = 0; a < 4; a++) {   /* the arc whose circle it is on */
            double e = fabs(hypot(u - arcs[a].c.x, v - arcs[a].c.y) - arcs[a].R);
            if (e < best) best = e, which = a;
        }
        worst = fmax(worst, best);
        const pala_arc *A = &arcs[which];
        double phi = atan2(v - A->c.y, u - A->c.x), mid = 0.5 * (A->a0 + A->a1), d = remainder(phi - mid, 2 * PALA_PI);
        outside = fmax(outside, fabs(d) - 0.5 * (A->a1 - A->a0));
        onarc[g][which]++;
    }
    int all = 1;
    for (int g = 0; g < 2; g++)
        for (int a = 0; a < 4; a++) all &= onarc[g][a] >= 2;
    T_CHECK(np > 0 && worst <= 1e-12 * OA && outside <= 1e-12 && all,
            "every outline point on an arc of the oval as written, turned and moved to its grain: off its circle by %.3g m, beyond its arc's "
            "ends by %.3g rad, every arc with 2 points or more (%d %d %d %d, %d %d %d %d)", worst, outside, onarc[0][0], onarc[0][1], onarc[0][2],
            onarc[0][3], onarc[1][0], onarc[1][1], onarc[1][2], onarc[1][3]);
    rc = t_sh(out, sizeof out, "cd %s && grep -c 'file=\"outlines_' arcvtk.run/vtk/outlines.pvd && ../../pala export arcvtk.run --format vtk --binary "
              "-o arcvtk.run/vtkb && grep -c 'NumberOfPolys=\"2\"' arcvtk.run/vtkb/outlines_000000.vtp", t_tmpdir());
    T_CHECK(rc == 0 && !strncmp(out, "1\n", 2) && strstr(out, "\n1\n"), "outlines.pvd lists the frame; --binary writes the 2 polygons too (%s)", out);
}

/* The snapshot draws the same ovals (arcvtk.run, arc_outlines_vtk's) as paths of 4 arcs each,
 * checked where a picture's scale and place do not enter: the sides' radius over the
 * corners' is OS/OR, each chord over its radius is 2 sin(span/2) of the oval's arcs (eq. A7),
 * no flag of a large arc or of a clockwise sweep (y points down), and the long axis, from
 * the second corner's chord to the first's, at the grain's turn 2 atan(r_z). */
static void arc_snapshot_geometry(void)
{
    char out[256];
    const double rz[2] = {0.3, -0.5};
    int rc = t_sh(out, sizeof out, "cd %s && ../../pala snapshot arcvtk.run -o arcvtk.run/geo.svg --size 2000 --frame-on grains", t_tmpdir());
    char path[512];
    snprintf(path, sizeof path, "%s/arcvtk.run/geo.svg", t_tmpdir());
    static char text[1 << 20];
    slurp(path, text, sizeof text);
    double beta = asin((OA - OR) / (OS - OR)), span[4] = {PALA_PI - 2 * beta, 2 * beta, PALA_PI - 2 * beta, 2 * beta};
    double worst = 0, turn = 0;
    int paths = 0, flags = 0;
    for (const char *p = strstr(text, "<path d=\"M"); p && paths < 2; p = strstr(p + 1, "<path d=\"M")) {
        double x[5], y[5], r[4];
        int large, sweep, k = 0;
        if (sscanf(p, "<path d=\"M%lf %lf", &x[0], &y[0]) != 2) continue;
        const char *q = p;
        for (; k < 4 && (q = strchr(q + 1, 'A')) && q < strchr(p, '>'); k++) {
            if (sscanf(q, "A%lf %*f 0 %d %d %lf %lf", &r[k], &large, &sweep, &x[k + 1], &y[k + 1]) != 5) break;
            flags += large != 0 || sweep != 0;
        }
        if (k != 4) continue;
        worst = fmax(worst, fmax(fabs(r[1] / r[0] - OS / OR), fabs(r[3] / r[2] - OS / OR)) / (OS / OR));
        for (int i = 0; i < 4; i++) worst = fmax(worst, fabs(hypot(x[i + 1] - x[i], y[i + 1] - y[i]) / r[i] - 2 * sin(0.5 * span[i])));
        double ax = 0.5 * (x[0] + x[1] - x[2] - x[3]), ay = -0.5 * (y[0] + y[1] - y[2] - y[3]);   /* y up */
        turn = fmax(turn, fabs(remainder(atan2(ay, ax) - 2 * atan(rz[paths]), 2 * PALA_PI)));
        paths++;
    }
    T_CHECK(rc == 0 && paths == 2 && flags == 0 && worst < 2e-3 && turn < 2e-3,
            "the snapshot's ovals: 2 paths of 4 arcs, radii and chords of the oval's arcs to %.2g, turned as the grains to %.2g rad, %d wrong flags (%s)",
            worst, turn, flags, out);
}

void test_arcs(void)
{
    arc_outlines_vtk();
    arc_snapshot_geometry();
    oval_mass();
    ovals_touch(0);
    ovals_touch(1);
    switch_arcs();
    arc_depth();
    arc_filter("thrown at 1.5 m/s", 1.5, 1, 1000, 1, 0.0021);
    arc_filter("spun at 1500 rad/s", 0.05, 1, 1500, 1, 0.0019);
    arc_filter("at rest, every fifth spun at 2000 rad/s", 0, 1, 2000, 5, 0.0019);
    arc_filter("at rest, every 20th thrown at 1.5 m/s", 1.5, 20, 0, 1, 0.0019);
    double e1 = bounce(4e-6), e2 = bounce(2e-6);
    T_CHECK(e1 / e2 > 3.2 && e1 / e2 < 5, "ovals and quasi-triangles bouncing, linear springs, no friction: max |dE|/E %.3g at dt, %.3g at dt/2: "
            "ratio %.3g (second order: 4)", e1, e2, e1 / e2);
    uint64_t h1 = pour(1), h3 = pour(3);
    T_CHECK(h1 == h3, "600 quasi-triangles poured: the same bits on 1 and 3 threads (%016llx %016llx)", (unsigned long long)h1,
            (unsigned long long)h3);
    arc_scenes();
    arc_pictures();
}

/* test_exact.c: the exact mass properties of a union of spheres and of discs (union.c;
 * docs/physics.md, "Exact mass properties of a union of spheres"): closed forms of lenses
 * and rows of spheres and of two discs, an independent Monte Carlo of a random union, the
 * awkward cases (a sphere inside another, twins, tangency, a cell through its centre),
 * principal axes on the symmetry of a T-bar and a dumbbell, and the T-bar's
 * intermediate-axis flip against Euler's equations. */
#include "t.h"
#include "builder.h"
#include "union.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

void test_exact(void);

static double rel(double a, double b) { return fabs(a - b) / fmax(fabs(b), 1e-300); }

/* Closed form of a row of spheres on the x axis (centres x_i, ascending pieces): the
 * power planes cut ball i to x' in [lo, hi] about its centre, and a slice at x' is a disc
 * of radius^2 R^2 - x'^2, so (antiderivatives of polynomials)
 *   V = pi int (R^2 - x^2),  int x = pi int x (R^2 - x^2),  int x^2 = pi int x^2 (R^2 - x^2),
 *   int y^2 = (pi/4) int (R^2 - x^2)^2. */
static void row_closed_form(int n, const double *x, const double *r, double *V, double *X, double *Iax, double *Iperp)
{
    double v = 0, m1 = 0, m2 = 0, y2 = 0;
    for (int i = 0; i < n; i++) {
        double lo = -r[i], hi = r[i], R2 = r[i] * r[i];
        for (int j = 0; j < n; j++) {
            if (j == i) continue;
            double D = x[j] - x[i], s = (D * D + R2 - r[j] * r[j]) / (2 * D);   /* plane at x' = s */
            if (D > 0) hi = fmin(hi, s); else lo = fmax(lo, s);
        }
        if (hi <= lo) continue;
#define P0(t) (R2 * (t) - (t) * (t) * (t) / 3)
#define P1(t) (R2 * (t) * (t) / 2 - (t) * (t) * (t) * (t) / 4)
#define P2(t) (R2 * (t) * (t) * (t) / 3 - (t) * (t) * (t) * (t) * (t) / 5)
#define P4(t) (R2 * R2 * (t) - 2 * R2 * (t) * (t) * (t) / 3 + (t) * (t) * (t) * (t) * (t) / 5)
        double a = PALA_PI * (P0(hi) - P0(lo)), b = PALA_PI * (P1(hi) - P1(lo)), c = PALA_PI * (P2(hi) - P2(lo));
        v += a;
        m1 += b + x[i] * a;
        m2 += c + 2 * x[i] * b + x[i] * x[i] * a;
        y2 += 0.25 * PALA_PI * (P4(hi) - P4(lo));
    }
    *V = v;
    *X = m1 / v;
    *Iax = 2 * y2;                                  /* int (y^2 + z^2) */
    *Iperp = y2 + m2 - v * (*X) * (*X);             /* int (x^2 + z^2) about the centre of mass */
}

static void check_row(const char *what, int n, const double *x, const double *r)
{
    pala_vec3 c[8];
    for (int i = 0; i < n; i++) c[i] = pala_v(x[i], 0, 0);
    pala_union u;
    pala_union_spheres(n, c, r, &u);
    double V, X, Iax, Ip;
    row_closed_form(n, x, r, &V, &X, &Iax, &Ip);
    double off = fabs(u.inertia[0][1]) + fabs(u.inertia[0][2]) + fabs(u.inertia[1][2]);
    T_CHECK(rel(u.volume, V) < 1e-12 && fabs(u.com.x - X) < 1e-12 * r[0] && rel(u.inertia[0][0], Iax) < 1e-12 &&
            rel(u.inertia[1][1], Ip) < 1e-12 && rel(u.inertia[2][2], Ip) < 1e-12 && off < 1e-12 * Iax &&
            fabs(u.com.y) + fabs(u.com.z) < 1e-12 * r[0],
            "%s: V %.15g (closed form %.15g), x %.15g (%.15g), I_axis %.15g (%.15g), I_perp %.15g %.15g (%.15g)",
            what, u.volume, V, u.com.x, X, u.inertia[0][0], Iax, u.inertia[1][1], u.inertia[2][2], Ip);
}

/* Angle (rad) between the line of unit vector a and that of b. */
static double line_angle(pala_vec3 a, pala_vec3 b)
{
    return atan2(pala_vnorm(pala_vcross(a, b)), fabs(pala_vdot(a, b)));
}

/* The body axis k of a template in the frame its components were given in. */
static pala_vec3 body_axis(const pala_template *t, int k)
{
    return pala_rot_apply(t->frame, pala_v(k == 0, k == 1, k == 2));
}

/* Largest angle between a principal axis of t and the nearest of the lines of u, v, w. */
static double off_symmetry(const pala_template *t, pala_vec3 u, pala_vec3 v, pala_vec3 w)
{
    double worst = 0;
    for (int k = 0; k < 3; k++) {
        pala_vec3 e = body_axis(t, k);
        worst = fmax(worst, fmin(line_angle(e, u), fmin(line_angle(e, v), line_angle(e, w))));
    }
    return worst;
}

/* A T-bar: a bar of three spheres along x, a stem of two along y (mirror planes x = 0 and
 * z = 0), at an offset that makes its coordinates inexact. */
enum { TBAR = 5 };
static void tbar(pala_vec3 *c, double *r)
{
    const double p[TBAR][4] = {{-0.02, 0, 0, 0.01}, {0, 0, 0, 0.01}, {0.02, 0, 0, 0.01}, {0, 0.015, 0, 0.008}, {0, 0.03, 0, 0.008}};
    for (int i = 0; i < TBAR; i++) { c[i] = pala_v(p[i][0] + 0.1, p[i][1] - 0.3, p[i][2] + 0.7); r[i] = p[i][3]; }
}

/* Times at which omega_k changes sign (linear interpolation), for Euler's equations
 * I_a w_a' = (I_b - I_c) w_b w_c by RK4 with step h up to time T; returns their count. */
static int euler_rk4(const double I[3], const double w0[3], int k, double h, double T, double *cross, int maxc)
{
    double w[3] = {w0[0], w0[1], w0[2]};
    int nc = 0;
    for (long s = 0; s * h < T && nc < maxc; s++) {
        double k1[3], k2[3], k3[3], k4[3], y[3], prev = w[k];
        double *ks[4] = {k1, k2, k3, k4};
        for (int st = 0; st < 4; st++) {
            double f = st == 0 ? 0 : st == 3 ? 1 : 0.5;
            for (int a = 0; a < 3; a++) y[a] = w[a] + (st ? f * h * ks[st - 1][a] : 0);
            for (int a = 0; a < 3; a++) {
                int b = (a + 1) % 3, c = (a + 2) % 3;
                ks[st][a] = (I[b] - I[c]) * y[b] * y[c] / I[a];
            }
        }
        for (int a = 0; a < 3; a++) w[a] += h / 6 * (k1[a] + 2 * k2[a] + 2 * k3[a] + k4[a]);
        if ((prev > 0) != (w[k] > 0)) cross[nc++] = (s + prev / (prev - w[k])) * h;
    }
    return nc;
}

/* The T-bar of components c (built with nsamples, PALA_EXACT or Monte Carlo), as written,
 * spun at omega w0 (the lab frame = the frame of c) for T with step dt: the times at which
 * the component of omega along the given axis k changes sign; returns their count. */
static int tbar_flips(long nsamples, const pala_vec3 *c, const double *r, const double w0[3], int k, double dt, double T,
                      double *cross, int maxc)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 1000, .E = 1e9, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 0};
    pala_world_add_material(&w, &m);
    pala_template t;
    memset(&t, 0, sizeof t);
    int ti = pala_world_build_template(&w, &t, TBAR, c, r, nsamples);
    pala_vec3 wl = pala_v(w0[0], w0[1], w0[2]);
    pala_world_add_grain(&w, ti, pala_v(0, 0, 0), w.tmpl[ti].frame, pala_v(0, 0, 0), wl);
    w.dt = dt;
    pala_world_prepare(&w);
    /* the given axis k in the body frame: the grain turns, the axis turns with it */
    pala_vec3 ek = pala_rot_apply(pala_vneg(w.tmpl[ti].frame), pala_v(k == 0, k == 1, k == 2));
    double prev = w0[k];
    int nc = 0;
    long n = lround(T / dt);
    for (long s = 0; s < n && nc < maxc; s++) {
        pala_world_step(&w);
        pala_vec3 ob = pala_rot_apply(pala_vneg(w.r[0]), w.w[0]);   /* body frame */
        double now = pala_vdot(ob, ek);
        if ((prev > 0) != (now > 0)) cross[nc++] = (s + prev / (prev - now)) * dt;
        prev = now;
    }
    pala_world_free(&w);
    return nc;
}

static void test_flip(void)
{
    pala_vec3 c[TBAR];
    double r[TBAR];
    tbar(c, r);
    pala_union u;
    pala_union_spheres(TBAR, c, r, &u);
    double I[3] = {1000 * u.inertia[0][0], 1000 * u.inertia[1][1], 1000 * u.inertia[2][2]};   /* diagonal: the symmetry */
    int lo = 0, hi = 0;
    for (int a = 1; a < 3; a++) { if (I[a] < I[lo]) lo = a; if (I[a] > I[hi]) hi = a; }
    int mid = 3 - lo - hi;
    /* spin about the intermediate axis, 1e-3 of it about the largest */
    double w0[3] = {0, 0, 0};
    w0[mid] = 20;
    w0[hi] = 0.02;
    double ce[8], cp[8], cm[8];
    int ne = euler_rk4(I, w0, mid, 1e-5, 8, ce, 3);
    int np = tbar_flips(PALA_EXACT, c, r, w0, mid, 1e-4, 8, cp, 3);
    int nm = tbar_flips(200000, c, r, w0, mid, 1e-4, 8, cm, 3);
    T_CHECK(ne >= 3 && np >= 3, "T-bar flips: %d by Euler's equations, %d simulated (expected at least 3 in 8 s)", ne, np);
    if (ne < 3 || np < 3) return;
    double Te = (ce[2] - ce[0]) / 2, Tp = (cp[2] - cp[0]) / 2;
    /* pala's step is second order: (omega dt)^2 = 4e-6 of the period; tolerance 1e-3 */
    T_CHECK(rel(Tp, Te) < 1e-3 && rel(cp[0], ce[0]) < 1e-3,
            "T-bar spun about its intermediate axis (I = %.6g %.6g %.6g kg m^2): flips every %.6f s (Euler's equations, RK4: "
            "%.6f s), first at %.6f s (%.6f s)", I[0], I[1], I[2], Tp, Te, cp[0], ce[0]);
    printf("  T-bar built by Monte Carlo (2e5 samples): first flip at %.4f s, every %.4f s (the wobble of its axes; exact: %.4f, %.4f)\n",
           nm ? cm[0] : (double)NAN, nm >= 3 ? (cm[2] - cm[0]) / 2 : (double)NAN, cp[0], Tp);
}

/* Two discs of radius R, centres D apart: area 2 pi R^2 - lens, and the polar moment about
 * the midpoint from the circular segment beyond x = D/2 of half-angle alpha:
 *   A_s = R^2 (alpha - sin alpha cos alpha), int x = (2/3) R^3 sin^3 alpha,
 *   int x^2 = (R^4/2)(alpha/2 - sin 4alpha/8), int y^2 = (2/3) R^4 (3alpha/8 - sin 2alpha/4 + sin 4alpha/32). */
static void test_discs(void)
{
    double R = 0.7, D = 0.9, al = acos(D / 2 / R), sa = sin(al), R4 = R * R * R * R;
    double As = R * R * (al - sa * cos(al)), x1 = 2.0 / 3 * R * R * R * sa * sa * sa;
    double x2 = 0.5 * R4 * (al / 2 - sin(4 * al) / 8), y2 = 2.0 / 3 * R4 * (3 * al / 8 - sin(2 * al) / 4 + sin(4 * al) / 32);
    double A = 2 * (PALA_PI * R * R - As);
    /* the piece of the disc at +D/2 about its centre: the disc minus the segment on the side
     * of the other (x' < -D/2); then about the midpoint, x = x' + D/2; the other is its mirror */
    double px2 = PALA_PI * R4 / 4 - x2, px1 = x1, pA = PALA_PI * R * R - As, py2 = PALA_PI * R4 / 4 - y2;
    double J = 2 * (px2 + D * px1 + D * D / 4 * pA + py2);
    pala_vec3 c[2] = {pala_v(-D / 2 + 0.3, 0.2, 0), pala_v(D / 2 + 0.3, 0.2, 0)};
    double r[2] = {R, R};
    pala_union u;
    pala_union_discs(2, c, r, &u);
    T_CHECK(rel(u.volume, A) < 1e-12 && rel(u.inertia[2][2], J) < 1e-12 && fabs(u.com.x - 0.3) < 1e-12 && fabs(u.com.y - 0.2) < 1e-12,
            "two discs: area %.15g (closed form %.15g), polar moment %.15g (%.15g), centroid %.15g %.15g", u.volume, A,
            u.inertia[2][2], J, u.com.x, u.com.y);
    /* the in-plane moments: about the line of centres int y^2, across it int x^2 */
    T_CHECK(rel(u.inertia[0][0], 2 * py2) < 1e-12 && rel(u.inertia[1][1], J - 2 * py2) < 1e-12 && fabs(u.inertia[0][1]) < 1e-14,
            "two discs: J_xx %.15g (%.15g), J_yy %.15g (%.15g)", u.inertia[0][0], 2 * py2, u.inertia[1][1], J - 2 * py2);
    /* a disc inside another, and three in a triangle against the one-by-one slices */
    pala_vec3 c2[2] = {pala_v(0, 0, 0), pala_v(0.1, 0, 0)};
    double r2[2] = {1, 0.5};
    pala_union_discs(2, c2, r2, &u);
    T_CHECK(rel(u.volume, PALA_PI) < 1e-14 && fabs(u.com.x) < 1e-15 && rel(u.inertia[2][2], PALA_PI / 2) < 1e-14,
            "a disc inside another: area %.15g (pi), polar moment %.15g (pi/2)", u.volume, u.inertia[2][2]);
}

/* Independent Monte Carlo of a random union of 20 spheres (the library's splitmix64, N
 * uniform points in the bounding box): volume, centre of mass and trace of the inertia
 * within 4 standard errors. */
static void test_random_union(void)
{
    enum { N = 20 };
    pala_rng g;
    pala_rng_seed(&g, 2026);
    pala_vec3 c[N];
    double r[N], lo[3] = {1e9, 1e9, 1e9}, hi[3] = {-1e9, -1e9, -1e9};
    for (int i = 0; i < N; i++) {
        c[i] = pala_v(2 * pala_rng_uniform(&g), 2 * pala_rng_uniform(&g), 2 * pala_rng_uniform(&g));
        r[i] = 0.3 + 0.5 * pala_rng_uniform(&g);
        const double p[3] = {c[i].x, c[i].y, c[i].z};
        for (int a = 0; a < 3; a++) { lo[a] = fmin(lo[a], p[a] - r[i]); hi[a] = fmax(hi[a], p[a] + r[i]); }
    }
    pala_union u;
    pala_union_spheres(N, c, r, &u);
    long ns = 10000000, hits = 0;
    double VB = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]), sx = 0, sxx = 0, sj[6] = {0}, sjj[6] = {0};
    static const int ia[6] = {0, 1, 2, 0, 0, 1}, ib[6] = {0, 1, 2, 1, 2, 2};   /* the six components of J */
    for (long k = 0; k < ns; k++) {
        pala_vec3 p = pala_v(lo[0] + pala_rng_uniform(&g) * (hi[0] - lo[0]), lo[1] + pala_rng_uniform(&g) * (hi[1] - lo[1]),
                             lo[2] + pala_rng_uniform(&g) * (hi[2] - lo[2]));
        for (int i = 0; i < N; i++)
            if (pala_vnorm2(pala_vsub(p, c[i])) <= r[i] * r[i]) {
                pala_vec3 qv = pala_vsub(p, u.com);
                const double q[3] = {qv.x, qv.y, qv.z}, q2 = pala_vnorm2(qv);
                hits++;
                sx += q[0]; sxx += q[0] * q[0];
                for (int e = 0; e < 6; e++) {
                    double j = (ia[e] == ib[e]) * q2 - q[ia[e]] * q[ib[e]];
                    sj[e] += j; sjj[e] += j * j;
                }
                break;
            }
    }
    double pf = (double)hits / ns, V = VB * pf, sV = VB * sqrt(pf * (1 - pf) / ns);
    double mx = sx / hits, smx = sqrt((sxx / hits - mx * mx) / hits);           /* com.x offset, its error */
    double worst = 0;   /* the largest deviation of a component of J, in its standard errors */
    for (int e = 0; e < 6; e++) {
        double J = VB * sj[e] / ns, sJ = VB * sqrt((sjj[e] / ns - (sj[e] / ns) * (sj[e] / ns)) / ns);
        worst = fmax(worst, fabs(u.inertia[ia[e]][ib[e]] - J) / sJ);
    }
    T_CHECK(fabs(u.volume - V) < 4 * sV && fabs(mx) < 4 * smx && worst < 4,
            "random 20 spheres against 1e7-sample Monte Carlo: V %.8g (MC %.8g, %.2f sigma), com.x off by %.2f sigma, "
            "the six components of J off by at most %.2f sigma; tolerance 4 sigma",
            u.volume, V, (u.volume - V) / sV, mx / smx, worst);
    double tr = u.inertia[0][0] + u.inertia[1][1] + u.inertia[2][2];
    /* the same union, each sphere turned and moved: the same numbers to rounding */
    pala_vec3 rot = pala_v(0.3, -0.7, 0.2), shift = pala_v(5.1, -3.3, 0.9), c2[N];
    for (int i = 0; i < N; i++) c2[i] = pala_vadd(pala_rot_apply(rot, c[i]), shift);
    pala_union u2;
    pala_union_spheres(N, c2, r, &u2);
    double tr2 = u2.inertia[0][0] + u2.inertia[1][1] + u2.inertia[2][2], Rm[3][3], dJ = 0;
    pala_rot_matrix(rot, Rm);   /* J2 = Rm J Rm^T */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double x = 0;
            for (int k = 0; k < 3; k++)
                for (int l = 0; l < 3; l++) x += Rm[a][k] * u.inertia[k][l] * Rm[b][l];
            dJ = fmax(dJ, fabs(x - u2.inertia[a][b]) / tr);
        }
    T_CHECK(rel(u2.volume, u.volume) < 1e-13 && rel(tr2, tr) < 1e-12 && dJ < 1e-12 &&
            pala_vnorm(pala_vsub(u2.com, pala_vadd(pala_rot_apply(rot, u.com), shift))) < 1e-12,
            "random 20 spheres turned and moved: V %.15g (%.15g), trace %.15g (%.15g), tensor turned to %.2g of its trace",
            u2.volume, u.volume, tr2, tr, dJ);
}

/* The cases of the power diagram that need care (docs/physics.md, eqs. U1, U12). */
static void test_awkward(void)
{
    double V1 = 4.0 / 3 * PALA_PI, J1 = 0.4 * V1;   /* unit ball: volume, moment */
    pala_union u;
    pala_vec3 in[2] = {pala_v(0.2, 0.1, 0), pala_v(0, 0, 0)};
    double rin[2] = {0.5, 1};
    pala_union_spheres(2, in, rin, &u);
    T_CHECK(rel(u.volume, V1) < 1e-14 && pala_vnorm(u.com) < 1e-15 && rel(u.inertia[1][1], J1) < 1e-14,
            "a sphere inside another: V %.15g (%.15g)", u.volume, V1);
    pala_vec3 twin[3] = {pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0)};
    double rt[3] = {1, 1, 1};
    pala_union_spheres(3, twin, rt, &u);
    T_CHECK(rel(u.volume, V1) < 1e-14 && rel(u.inertia[0][0], J1) < 1e-14, "three coincident spheres: V %.15g (%.15g)", u.volume, V1);
    pala_vec3 tan[2] = {pala_v(0, 0, 0), pala_v(0, 0, 2)};
    double rtan[2] = {1, 1};
    pala_union_spheres(2, tan, rtan, &u);
    T_CHECK(rel(u.volume, 2 * V1) < 1e-14 && rel(u.inertia[2][2], 2 * J1) < 1e-14 && rel(u.inertia[0][0], 2 * J1 + 2 * V1) < 1e-14,
            "two tangent spheres: V %.15g (%.15g), I_xx %.15g (%.15g)", u.volume, 2 * V1, u.inertia[0][0], 2 * J1 + 2 * V1);
    /* radii 3 and 5, 4 apart: the power plane goes through the small centre (a cell whose
     * boundary holds its centre); with a third sphere, along an edge of the cell */
    const double x3[2] = {0, 4}, r3[3] = {3, 5, 5};
    check_row("radii 3 and 5, 4 apart (the plane through the centre)", 2, x3, r3);
    pala_vec3 p3[3] = {pala_v(0, 0, 0), pala_v(4, 0, 0), pala_v(0, 4, 0)};
    pala_union_spheres(3, p3, r3, &u);
    double worst = 0, tr = u.inertia[0][0] + u.inertia[1][1] + u.inertia[2][2];
    for (int k = 0; k < 20; k++) {   /* turned: the planes miss the centre by rounding */
        pala_vec3 rot = pala_v(0.1 * k - 0.9, 0.37 * k, 1 - 0.05 * k), q[3];
        for (int i = 0; i < 3; i++) q[i] = pala_vadd(pala_rot_apply(rot, p3[i]), pala_v(0.1, 0.2, 0.3));
        pala_union v;
        pala_union_spheres(3, q, r3, &v);
        worst = fmax(worst, fmax(rel(v.volume, u.volume), rel(v.inertia[0][0] + v.inertia[1][1] + v.inertia[2][2], tr)));
    }
    T_CHECK(worst < 1e-12, "radii 3, 5, 5 with the small centre on an edge of its cell, turned 20 ways: worst relative change %.3g", worst);
}

/* Principal axes on the mirror planes of a T-bar and on the axis of a dumbbell. */
static void test_axes(void)
{
    pala_vec3 c[TBAR], shape[TBAR];
    double r[TBAR], rout[TBAR];
    char err[200] = "";
    tbar(c, r);
    pala_template t;
    memset(&t, 0, sizeof t);
    T_CHECK(pala_template_build(&t, TBAR, c, r, 1000, PALA_EXACT, shape, rout, err, sizeof err) == 0 && t.mc_samples == 0 &&
            t.volume_stderr == 0, "T-bar: built exactly (%s)", err);
    double off = off_symmetry(&t, pala_v(1, 0, 0), pala_v(0, 1, 0), pala_v(0, 0, 1));
    T_CHECK(off < 1e-9, "T-bar: principal axes %.3g rad off its mirror planes (tolerance 1e-9)", off);
    pala_template tm;
    memset(&tm, 0, sizeof tm);
    pala_template_build(&tm, TBAR, c, r, 1000, 200000, shape, rout, err, sizeof err);
    printf("  T-bar by Monte Carlo (2e5 samples): axes %.3g rad off the mirror planes\n",
           off_symmetry(&tm, pala_v(1, 0, 0), pala_v(0, 1, 0), pala_v(0, 0, 1)));
    /* a dumbbell of unequal spheres along a slanted axis a */
    pala_vec3 a = pala_vscale(1 / sqrt(14.0), pala_v(1, 2, 3)), d[2] = {pala_v(0.01, 0.02, 0.03), pala_vaxpy(pala_v(0.01, 0.02, 0.03), 0.015, a)};
    double rd[2] = {0.01, 0.007};
    memset(&t, 0, sizeof t);
    pala_template_build(&t, 2, d, rd, 1000, PALA_EXACT, shape, rout, err, sizeof err);
    double ax = line_angle(body_axis(&t, 0), a);   /* the smallest moment is about the axis */
    T_CHECK(ax < 1e-9 && t.inertia[1] == t.inertia[2], "dumbbell: principal axis %.3g rad off its axis (tolerance 1e-9), moments %.15g %.15g %.15g",
            ax, t.inertia[0], t.inertia[1], t.inertia[2]);
    /* the same dumbbell along x: the body frame is the given one */
    pala_vec3 dx[2] = {pala_v(0, 0, 0), pala_v(0.015, 0, 0)};
    memset(&t, 0, sizeof t);
    pala_template_build(&t, 2, dx, rd, 1000, PALA_EXACT, shape, rout, err, sizeof err);
    T_CHECK(pala_vnorm(t.frame) < 1e-15, "dumbbell along x: frame %g %g %g (the given axes: 0 to rounding)", t.frame.x, t.frame.y, t.frame.z);
}

/* A 50-sphere grain: the time it takes (printed, not asserted). */
static void test_time50(void)
{
    enum { N = 50 };
    pala_rng g;
    pala_rng_seed(&g, 7);
    pala_vec3 c[N], shape[N];
    double r[N], rout[N];
    c[0] = pala_v(0, 0, 0);
    r[0] = 1;
    for (int i = 1; i < N; i++) {   /* a chain of overlapping spheres, each near an earlier one */
        int j = (int)(pala_rng_uniform(&g) * i);
        r[i] = 0.5 + pala_rng_uniform(&g);
        c[i] = pala_vaxpy(c[j], 0.8 * (r[i] + r[j]), pala_rng_unit(&g, 3));
    }
    pala_template t;
    memset(&t, 0, sizeof t);
    char err[200] = "";
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int ok = pala_template_build(&t, N, c, r, 1000, PALA_EXACT, shape, rout, err, sizeof err) == 0;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    T_CHECK(ok && t.volume > 0, "a 50-sphere grain: built exactly (%s)", err);
    printf("  a 50-sphere grain: built exactly in %.3f ms (volume %.6g)\n",
           1e3 * (double)(t1.tv_sec - t0.tv_sec) + 1e-6 * (double)(t1.tv_nsec - t0.tv_nsec), t.volume);
}

void test_exact(void)
{
    const double lens_x[2] = {0, 1.3}, lens_r[2] = {1, 1};
    check_row("lens (two spheres of radius 1, 1.3 apart)", 2, lens_x, lens_r);
    pala_vec3 c[2] = {pala_v(0, 0, 0), pala_v(1.3, 0, 0)};
    pala_union u;
    pala_union_spheres(2, c, lens_r, &u);
    double d = 1.3, lens = PALA_PI * (4 + d) * (2 - d) * (2 - d) / 12;   /* the lens of two unit spheres d apart */
    T_CHECK(rel(u.volume, 8 * PALA_PI / 3 - lens) < 1e-12, "lens: V %.15g, 2 balls - lens %.15g", u.volume, 8 * PALA_PI / 3 - lens);
    const double row_x[3] = {0, 0.9, 2.1}, row_r[3] = {0.8, 0.6, 0.9};
    check_row("three spheres in a row", 3, row_x, row_r);
    test_discs();
    test_awkward();
    test_random_union();
    test_axes();
    test_flip();
    test_time50();
}

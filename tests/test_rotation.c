/* test_rotation.c: rotation-vector algebra against the paper's defining equations. */
#include "t.h"
#include "pala/pala.h"
#include <math.h>

void test_rotation(void);

/* R(phi, n) x of eq. (5): P_n x + cos(phi)(x - P_n x) + sin(phi) n x x */
static pala_vec3 rodrigues(double phi, pala_vec3 n, pala_vec3 x)
{
    double nx = pala_vdot(n, x);
    pala_vec3 par = pala_vscale(nx, n);
    return pala_vadd(pala_vadd(par, pala_vscale(cos(phi), pala_vsub(x, par))), pala_vscale(sin(phi), pala_vcross(n, x)));
}

static double vdiff(pala_vec3 a, pala_vec3 b) { return pala_vnorm(pala_vsub(a, b)); }

void test_rotation(void)
{
    pala_rng g;
    pala_rng_seed(&g, 12345);
    double e6 = 0, e9a = 0, e9b = 0, e9c = 0, e9d = 0, emat = 0, eprinted = 0, eexp = 0;
    for (int i = 0; i < 1000; i++) {
        double phi = PALA_PI * (2 * pala_rng_uniform(&g) - 1) * 0.999;
        pala_vec3 n = pala_rng_unit(&g, 3), x = pala_vscale(3 * pala_rng_uniform(&g), pala_rng_unit(&g, 3));
        pala_vec3 r = pala_rot_from_axis_angle(phi, n);
        pala_vec3 r2 = pala_rot_from_axis_angle(2 * pala_rng_uniform(&g), pala_rng_unit(&g, 3));
        double sc = 1 + pala_vnorm(x);
        /* eq. (8): r * x == R(phi, n) x for r = tan(phi/2) n */
        e6 = fmax(e6, vdiff(pala_rot_apply(r, x), rodrigues(phi, n, x)) / sc);
        /* identities (9) */
        e9a = fmax(e9a, vdiff(pala_rot_apply(pala_rot_compose(r, r2), x), pala_rot_apply(r, pala_rot_apply(r2, x))) / sc);
        e9b = fmax(e9b, pala_vnorm(pala_rot_compose(r, pala_vneg(r))));
        e9c = fmax(e9c, vdiff(pala_rot_compose(r, pala_v(0, 0, 0)), r) / (1 + pala_vnorm(r)));
        pala_vec3 lhs = pala_rot_compose(r, r2), rhs = pala_rot_compose(pala_rot_apply(r, r2), r);
        e9d = fmax(e9d, vdiff(lhs, rhs) / (1 + pala_vnorm(lhs)));
        /* matrix form (11)-(13), corrected, equals (6) */
        double m[3][3];
        pala_rot_matrix(r, m);
        pala_vec3 mx = pala_v(m[0][0] * x.x + m[0][1] * x.y + m[0][2] * x.z, m[1][0] * x.x + m[1][1] * x.y + m[1][2] * x.z,
                              m[2][0] * x.x + m[2][1] * x.y + m[2][2] * x.z);
        emat = fmax(emat, vdiff(mx, pala_rot_apply(r, x)) / sc);
        /* the matrix as printed in the paper (our m transposed) computes (-r) * x: erratum 1 */
        pala_vec3 px = pala_v(m[0][0] * x.x + m[1][0] * x.y + m[2][0] * x.z, m[0][1] * x.x + m[1][1] * x.y + m[2][1] * x.z,
                              m[0][2] * x.x + m[1][2] * x.y + m[2][2] * x.z);
        eprinted = fmax(eprinted, vdiff(px, pala_rot_apply(pala_vneg(r), x)) / sc);
        /* exp (14): exp(phi n) * x == R(phi, n) x */
        eexp = fmax(eexp, vdiff(pala_rot_apply(pala_rot_exp(pala_vscale(phi, n)), x), rodrigues(phi, n, x)) / sc);
    }
    T_CHECK(e6 < 1e-14, "eq. (6) == R(phi,n) of eq. (5) with r = tan(phi/2) n: max rel. error %.2e", e6);
    T_CHECK(e9a < 1e-13, "(r o r') * x == r * (r' * x): max error %.2e", e9a);
    T_CHECK(e9b < 1e-15, "r o (-r) == 0: max %.2e", e9b);
    T_CHECK(e9c == 0, "r o 0 == r: max %.2e", e9c);
    T_CHECK(e9d < 1e-12, "r o r' == (r * r') o r: max rel. error %.2e", e9d);
    T_CHECK(emat < 1e-14, "matrix form (11)-(13), corrected, == eq. (6): max %.2e", emat);
    T_CHECK(eprinted < 1e-14, "the matrix (11) as printed computes (-r) * x (docs/physics.md, \"Erratum 1\"): max %.2e", eprinted);
    T_CHECK(eexp < 1e-14, "exp (14) gives the rotation by |a| about a: max %.2e", eexp);

    /* small-angle branch of exp agrees with tan form at the switch */
    double eser = 0;
    for (double th = 1e-6; th < 0.1; th *= 1.1) eser = fmax(eser, fabs(pala_rot_exp(pala_v(0, th, 0)).y / tan(0.5 * th) - 1));
    T_CHECK(eser < 2e-15, "exp: the small-angle series equals tan(|a|/2) to %.1e below |a| = 0.1", eser);

    /* eq. (19): r(t) = exp(t w) o r0 has angular velocity w */
    pala_vec3 w0 = pala_v(0.3, -1.2, 2.0), r0 = pala_v(0.2, 0.5, -0.1);
    double h = 1e-6, t = 0.7;
    pala_vec3 rp = pala_rot_compose(pala_rot_exp(pala_vscale(t + h, w0)), r0);
    pala_vec3 rm = pala_rot_compose(pala_rot_exp(pala_vscale(t - h, w0)), r0);
    pala_vec3 rt = pala_rot_compose(pala_rot_exp(pala_vscale(t, w0)), r0);
    pala_vec3 om = pala_rot_omega(rt, pala_vscale(0.5 / h, pala_vsub(rp, rm)));
    T_CHECK(vdiff(om, w0) < 1e-7, "eq. (19) recovers omega from r and dr/dt: error %.2e", vdiff(om, w0));

    /* rotated operator (16): (diag d)_r applied to r * e_k == d_k (r * e_k) */
    double d[3] = {1, 2, 5};
    pala_vec3 rr = pala_v(0.3, -0.4, 0.8), ek = pala_v(0, 1, 0);
    pala_vec3 re = pala_rot_apply(rr, ek);
    T_CHECK(vdiff(pala_rot_diag_apply(rr, d, re), pala_vscale(2, re)) < 1e-14, "rotated operator (16): eigenvector r * e_2 has eigenvalue 2");

    /* rotation vector from matrix inverts pala_rot_matrix */
    double m2[3][3];
    pala_rot_matrix(rr, m2);
    T_CHECK(vdiff(pala_rot_from_matrix(m2), rr) < 1e-14, "rotation vector of a matrix inverts eqs. (11)-(13)");

    /* a million successive compositions keep |r * x| = |x| to 1e-12 */
    pala_vec3 r = pala_v(0, 0, 0), x = pala_v(0.3, -0.7, 1.1);
    double worst = 0, nx = pala_vnorm(x);
    for (long k = 0; k < 1000000; k++) {
        pala_vec3 dr = pala_rot_exp(pala_vscale(0.05, pala_v(sin(0.001 * (double)k), 1.0, cos(0.0007 * (double)k))));
        r = pala_rot_compose(dr, r);
        if (k % 1000 == 0) worst = fmax(worst, fabs(pala_vnorm(pala_rot_apply(r, x)) - nx) / nx);
    }
    worst = fmax(worst, fabs(pala_vnorm(pala_rot_apply(r, x)) - nx) / nx);
    T_CHECK(worst < 1e-12, "a million compositions (7) keep |r * x| = |x|: max rel. deviation %.2e (|r| now %.3g)", worst, pala_vnorm(r));

    /* symmetric eigen-solver reconstructs its matrix */
    double A[3][3] = {{4, 1, -2}, {1, 3, 0.5}, {-2, 0.5, 6}}, w[3], O[3][3], err = 0;
    pala_sym3_eigen(A, w, O);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0;
            for (int k = 0; k < 3; k++) s += O[k][i] * w[k] * O[k][j];
            err = fmax(err, fabs(s - A[i][j]));
        }
    T_CHECK(err < 1e-13 && w[0] <= w[1] && w[1] <= w[2], "Jacobi eigen-solver: O^T diag(w) O == A (err %.2e), w ascending", err);
}

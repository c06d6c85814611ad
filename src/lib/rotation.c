/* rotation.c: rotation-vector (Euler-Rodrigues) algebra, paper section 2.
 *
 * A rotation vector r = tan(phi/2) n stands for the rotation by phi about the unit axis n
 * (eq. 8).  Rotations act by r * x (eq. 6) and compose by r o r' (eq. 7); no matrices or
 * quaternions are needed in the hot path. */
#include "pala/pala.h"
#include <math.h>

/* r * x (eq. 6), r o r' (eq. 7) and exp (eq. 14) are inline, in pala/vec.h: the step
 * calls them for every grain. */

/* Matrix of x -> r * x, eqs. (11)-(13).  The paper prints (11) transposed (it would
 * compute (-r) * x, docs/physics.md, "Erratum 1"); this is the corrected form: m = c M with
 * M = b 1 + r r^T + A_r, b = (1 - rho)/2, c = 2/(1 + rho), rho = r.r. */
void pala_rot_matrix(pala_vec3 r, double m[3][3])
{
    double rho = pala_vdot(r, r);
    double b = 0.5 * (1.0 - rho), c = 2.0 / (1.0 + rho);
    m[0][0] = c * (r.x * r.x + b); m[0][1] = c * (r.x * r.y - r.z); m[0][2] = c * (r.x * r.z + r.y);
    m[1][0] = c * (r.x * r.y + r.z); m[1][1] = c * (r.y * r.y + b); m[1][2] = c * (r.y * r.z - r.x);
    m[2][0] = c * (r.x * r.z - r.y); m[2][1] = c * (r.y * r.z + r.x); m[2][2] = c * (r.z * r.z + b);
}

/* Angular velocity from r and dr/dt, eq. (19). */
pala_vec3 pala_rot_omega(pala_vec3 r, pala_vec3 rdot)
{
    double s = 2.0 / (1.0 + pala_vdot(r, r));
    return pala_vscale(s, pala_vadd(rdot, pala_vcross(r, rdot)));
}

/* eq. (8): r = tan(phi/2) n, n normalised here. */
pala_vec3 pala_rot_from_axis_angle(double phi, pala_vec3 n)
{
    double l = pala_vnorm(n);
    if (l == 0) return pala_v(0, 0, 0);
    return pala_vscale(tan(0.5 * phi) / l, n);
}

/* Rotation vector of a proper orthogonal matrix (the inverse of pala_rot_matrix), via the
 * unit quaternion q = (cos phi/2, sin phi/2 n): r = q_vec / q_w.  A half-turn (q_w = 0)
 * has no finite rotation vector; it gets the same eps guard as eq. (7). */
pala_vec3 pala_rot_from_matrix(double m[3][3])
{
    double tr = m[0][0] + m[1][1] + m[2][2];
    double qw, qx, qy, qz;
    if (tr > 0) {
        double s = 2.0 * sqrt(1.0 + tr);
        qw = 0.25 * s;
        qx = (m[2][1] - m[1][2]) / s; qy = (m[0][2] - m[2][0]) / s; qz = (m[1][0] - m[0][1]) / s;
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[0][0] - m[1][1] - m[2][2]);
        qw = (m[2][1] - m[1][2]) / s; qx = 0.25 * s;
        qy = (m[0][1] + m[1][0]) / s; qz = (m[0][2] + m[2][0]) / s;
    } else if (m[1][1] > m[2][2]) {
        double s = 2.0 * sqrt(1.0 + m[1][1] - m[0][0] - m[2][2]);
        qw = (m[0][2] - m[2][0]) / s; qx = (m[0][1] + m[1][0]) / s;
        qy = 0.25 * s; qz = (m[1][2] + m[2][1]) / s;
    } else {
        double s = 2.0 * sqrt(1.0 + m[2][2] - m[0][0] - m[1][1]);
        qw = (m[1][0] - m[0][1]) / s; qx = (m[0][2] + m[2][0]) / s;
        qy = (m[1][2] + m[2][1]) / s; qz = 0.25 * s;
    }
    if (fabs(qw) < 1e-12) qw = qw < 0 ? -1e-12 : 1e-12;
    return pala_v(qx / qw, qy / qw, qz / qw);
}

/* L_r v = r * (L ((-r) * v)), eq. (16), for L = diag(d) in the body frame. */
pala_vec3 pala_rot_diag_apply(pala_vec3 r, const double d[3], pala_vec3 v)
{
    pala_vec3 b = pala_rot_apply(pala_vneg(r), v);
    b = pala_v(d[0] * b.x, d[1] * b.y, d[2] * b.z);
    return pala_rot_apply(r, b);
}

/* Cyclic Jacobi for a symmetric 3x3 matrix: a = O^T diag(w) O.  Converges quadratically;
 * 50 sweeps are far more than ever needed.  Eigenvalues sorted ascending, det O = +1. */
void pala_sym3_eigen(double a_in[3][3], double w[3], double o[3][3])
{
    double a[3][3], v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) a[i][j] = 0.5 * (a_in[i][j] + a_in[j][i]);
    for (int sweep = 0; sweep < 50; sweep++) {
        double off = fabs(a[0][1]) + fabs(a[0][2]) + fabs(a[1][2]);
        double scale = fabs(a[0][0]) + fabs(a[1][1]) + fabs(a[2][2]);
        if (off <= 1e-300 || off <= 1e-17 * scale) break;
        for (int p = 0; p < 2; p++)
            for (int q = p + 1; q < 3; q++) {
                if (a[p][q] == 0) continue;
                double theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
                double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
                for (int k = 0; k < 3; k++) { /* A <- A J */
                    double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq; a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < 3; k++) { /* A <- J^T A */
                    double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk; a[q][k] = s * apk + c * aqk;
                }
                for (int k = 0; k < 3; k++) { /* V <- V J (columns are eigenvectors) */
                    double vkp = v[k][p], vkq = v[k][q];
                    v[k][p] = c * vkp - s * vkq; v[k][q] = s * vkp + c * vkq;
                }
            }
    }
    int idx[3] = {0, 1, 2};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (a[idx[j]][idx[j]] < a[idx[i]][idx[i]]) { int t = idx[i]; idx[i] = idx[j]; idx[j] = t; }
    for (int i = 0; i < 3; i++) {
        w[i] = a[idx[i]][idx[i]];
        for (int k = 0; k < 3; k++) o[i][k] = v[k][idx[i]];
    }
    double det = o[0][0] * (o[1][1] * o[2][2] - o[1][2] * o[2][1])
               - o[0][1] * (o[1][0] * o[2][2] - o[1][2] * o[2][0])
               + o[0][2] * (o[1][0] * o[2][1] - o[1][1] * o[2][0]);
    if (det < 0)
        for (int k = 0; k < 3; k++) o[2][k] = -o[2][k];
}

/* builder.c: the Monte Carlo grain builder, paper section 3.1, eqs. (25)-(35).
 *
 * From component centres and radii it computes volume, mass, centre of mass, inertia
 * tensor, principal moments and axes, shape vectors and bounding radius.  The shape
 * vectors are returned in the principal frame (docs/physics.md, "Principal-axes body frame"), so the
 * inertia tensor is diagonal in the body frame and the grain's initial orientation goes
 * into its rotation vector (template->frame). */
#include "builder.h"
#include <float.h>
#include <math.h>
#include <stdio.h>

/* zeta_k = 1e6 sin(k) - floor(1e6 sin(k)), eq. (30). */
double pala_zeta(long k)
{
    double s = 1e6 * sin((double)k);
    return s - floor(s);
}

/* Largest trace among the proper sign flips of the principal axes: the frame rotation
 * then stays far from a half-turn, where a rotation vector is infinite.  Planar grains
 * may only flip e1 and e2 together (z stays the third axis). */
static void choose_axis_signs(double o[3][3], int planar)
{
    static const int flips[4][3] = {{1, 1, 1}, {-1, -1, 1}, {1, -1, -1}, {-1, 1, -1}};
    int best = 0;
    double besttr = -1e300;
    for (int f = 0; f < (planar ? 2 : 4); f++) {
        double tr = flips[f][0] * o[0][0] + flips[f][1] * o[1][1] + flips[f][2] * o[2][2];
        if (tr > besttr + 1e-12) { besttr = tr; best = f; }
    }
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 3; k++) o[i][k] *= flips[best][i];
}

/* Components c_i, radii a_i: is the set invariant under the rotations by 120 degrees
 * about two non-parallel axes through the centroid o of the centres?  Then its symmetry
 * group contains the rotations of a regular tetrahedron (tetrahedral, cubic and
 * icosahedral arrangements all do), which leave no direction invariant: the inertia
 * tensor about o is a multiple of the identity and o is the centre of mass, exactly.
 * A three-fold axis through o carries the components off the axis in equilateral
 * triangles perpendicular to it, so the candidate axes are the normals of such
 * triangles.  Tolerance: 1e-9 of the grain's size (data files round coordinates). */
static pala_vec3 turn120(pala_vec3 p, pala_vec3 o, pala_vec3 u)
{
    pala_vec3 d = pala_vsub(p, o);   /* Rodrigues' formula, cos = -1/2, sin = sqrt(3)/2 */
    pala_vec3 r = pala_vaxpy(pala_vscale(-0.5, d), 0.5 * sqrt(3.0), pala_vcross(u, d));
    return pala_vadd(o, pala_vaxpy(r, 1.5 * pala_vdot(u, d), u));
}

static int maps_onto_itself(int n, const pala_vec3 *c, const double *rad, pala_vec3 o, pala_vec3 u, double tol)
{
    for (int i = 0; i < n; i++) {
        pala_vec3 p = turn120(c[i], o, u);
        int hit = 0;
        for (int j = 0; j < n && !hit; j++) hit = fabs(rad[i] - rad[j]) <= tol && pala_vnorm(pala_vsub(p, c[j])) <= tol;
        if (!hit) return 0;
    }
    return 1;
}

int pala_tetrahedral_symmetry(int n, const pala_vec3 *c, const double *rad, pala_vec3 *centroid)
{
    if (n < 4 || n > 48) return 0;
    pala_vec3 o = pala_v(0, 0, 0);
    for (int i = 0; i < n; i++) o = pala_vadd(o, c[i]);
    o = pala_vscale(1.0 / n, o);
    double size = 0;
    for (int i = 0; i < n; i++) size = fmax(size, pala_vnorm(pala_vsub(c[i], o)) + rad[i]);
    double tol = 1e-9 * size;
    pala_vec3 axis1 = pala_v(0, 0, 0);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            for (int k = j + 1; k < n; k++) {
                if (fabs(rad[i] - rad[j]) > tol || fabs(rad[i] - rad[k]) > tol) continue;
                double dij = pala_vnorm(pala_vsub(c[i], c[j])), djk = pala_vnorm(pala_vsub(c[j], c[k]));
                double dki = pala_vnorm(pala_vsub(c[k], c[i]));
                if (dij <= tol || fabs(dij - djk) > tol || fabs(dij - dki) > tol) continue;
                pala_vec3 u = pala_vcross(pala_vsub(c[j], c[i]), pala_vsub(c[k], c[i]));
                u = pala_vscale(1.0 / pala_vnorm(u), u);
                pala_vec3 m = pala_vscale(1.0 / 3.0, pala_vadd(pala_vadd(c[i], c[j]), c[k]));
                if (pala_vnorm(pala_vcross(pala_vsub(m, o), u)) > tol) continue;   /* axis misses o */
                int have = pala_vnorm2(axis1) > 0;
                if (have && pala_vnorm(pala_vcross(u, axis1)) < 1e-6) continue;     /* known axis */
                if (!maps_onto_itself(n, c, rad, o, u, tol)) continue;
                if (have) { *centroid = o; return 1; }
                axis1 = u;
            }
    return 0;
}

int pala_template_build(pala_template *t, int n, const pala_vec3 *c, const double *rad,
                        double rho, long nsamples, pala_vec3 *shape, double *rad_out,
                        char *err, size_t errlen)
{
    if (n < 1) { snprintf(err, errlen, "a grain needs at least one component"); return -1; }
    int planar = 1;
    for (int i = 0; i < n; i++) {
        if (!(rad[i] > 0) || !isfinite(rad[i])) {
            snprintf(err, errlen, "component %d has radius %g; radii must be positive", i + 1, rad[i]);
            return -1;
        }
        if (c[i].z != 0) planar = 0;
        rad_out[i] = rad[i];
    }
    t->ncomp = n;
    if (n == 1) {
        /* a one-component grain is a sphere, exact V and I = 2/5 m r^2 (docs/physics.md, "Exact single sphere") */
        t->volume = 4.0 / 3.0 * PALA_PI * rad[0] * rad[0] * rad[0];
        t->volume_stderr = 0;
        t->mc_samples = 0;
        t->mass = rho * t->volume;
        for (int a = 0; a < 3; a++) t->inertia[a] = 0.4 * t->mass * rad[0] * rad[0];
        t->com_given = c[0];
        t->frame = pala_v(0, 0, 0);
        shape[0] = pala_v(0, 0, 0);
        t->bound_radius = rad[0];
    } else {
        if (nsamples <= 0) nsamples = 10000;
        double L[3], U[3];
        for (int a = 0; a < 3; a++) { L[a] = 1e300; U[a] = -1e300; }
        for (int i = 0; i < n; i++) {
            const double ci[3] = {c[i].x, c[i].y, c[i].z};
            for (int a = 0; a < 3; a++) { /* eq. (25) */
                if (ci[a] - rad[i] < L[a]) L[a] = ci[a] - rad[i];
                if (ci[a] + rad[i] > U[a]) U[a] = ci[a] + rad[i];
            }
        }
        /* The frame origin o of eq. (24) is put at the box centre: the sums below then
         * involve coordinates of size of the grain, not of its distance from the origin. */
        double o[3], VB = 1;
        for (int a = 0; a < 3; a++) { o[a] = 0.5 * (L[a] + U[a]); VB *= U[a] - L[a]; } /* (27) */
        long hits = 0;
        double s1[3] = {0, 0, 0}, s2[3][3] = {{0}};
        for (long k = 1; k <= nsamples; k++) {
            double p[3];
            for (int a = 0; a < 3; a++) /* eq. (29), zeta index 3k + alpha - 1 */
                p[a] = L[a] + pala_zeta(3 * k + a) * (U[a] - L[a]) - o[a];
            int in = 0; /* indicator function, eq. (28) */
            for (int i = 0; i < n && !in; i++) {
                double dx = p[0] + o[0] - c[i].x, dy = p[1] + o[1] - c[i].y, dz = p[2] + o[2] - c[i].z;
                in = dx * dx + dy * dy + dz * dz <= rad[i] * rad[i];
            }
            if (!in) continue;
            hits++;
            for (int a = 0; a < 3; a++) {
                s1[a] += p[a];
                for (int b = a; b < 3; b++) s2[a][b] += p[a] * p[b];
            }
        }
        if (hits == 0) {   /* a box of no volume in doubles (radii near 1e-100 m) has no inside for any number of samples */
            if (!(VB >= DBL_MIN && VB < HUGE_VAL)) snprintf(err, errlen, "its bounding box has the volume %g m^3, out of the range of double precision: give its radii and positions in metres", VB);
            else snprintf(err, errlen, "Monte Carlo found no sample inside the grain; raise mc_samples");
            return -1;
        }
        double pfrac = (double)hits / (double)nsamples;
        t->mc_samples = nsamples;
        t->volume = VB * pfrac;                                    /* eq. (31) V */
        t->volume_stderr = VB * sqrt(pfrac * (1 - pfrac) / (double)nsamples);
        t->mass = rho * t->volume;                                 /* m = rho V */
        double x[3], I[3][3];
        for (int a = 0; a < 3; a++) x[a] = s1[a] / (double)hits;   /* x_alpha */
        if (planar) x[2] = 0; /* mirror symmetry z -> -z is exact, the sample noise is not */
        pala_vec3 osym;
        int sym = !planar && pala_tetrahedral_symmetry(n, c, rad, &osym);
        if (sym) { x[0] = osym.x - o[0]; x[1] = osym.y - o[1]; x[2] = osym.z - o[2]; }   /* exact */
        double w = rho * VB / (double)nsamples;
        double tr2 = s2[0][0] + s2[1][1] + s2[2][2], xx = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
        for (int a = 0; a < 3; a++)
            for (int b = a; b < 3; b++) {
                double Ip = w * ((a == b ? tr2 : 0) - s2[a][b]);             /* I'_ab */
                I[a][b] = I[b][a] = Ip - t->mass * ((a == b ? xx : 0) - x[a] * x[b]); /* I_ab */
            }
        if (planar) I[0][2] = I[2][0] = I[1][2] = I[2][1] = 0;
        double ev[3], O[3][3];
        if (planar) {
            /* z is a principal axis exactly; diagonalise the xy block. */
            double phi = 0.5 * atan2(2 * I[0][1], I[0][0] - I[1][1]);
            double cs = cos(phi), sn = sin(phi);
            double i1 = cs * cs * I[0][0] + 2 * cs * sn * I[0][1] + sn * sn * I[1][1];
            double i2 = sn * sn * I[0][0] - 2 * cs * sn * I[0][1] + cs * cs * I[1][1];
            double e1[3] = {cs, sn, 0}, e2[3] = {-sn, cs, 0};
            if (i2 < i1) { double tmp = i1; i1 = i2; i2 = tmp; e1[0] = -sn; e1[1] = cs; e2[0] = -cs; e2[1] = -sn; }
            ev[0] = i1; ev[1] = i2; ev[2] = I[2][2];
            for (int k = 0; k < 3; k++) { O[0][k] = e1[k]; O[1][k] = e2[k]; O[2][k] = k == 2; }
        } else {
            pala_sym3_eigen(I, ev, O);                             /* eq. (33) */
        }
        choose_axis_signs(O, planar);
        for (int a = 0; a < 3; a++) t->inertia[a] = ev[a];
        if (sym) {   /* isotropic exactly: the three estimates differ only by sampling noise */
            double mean = (ev[0] + ev[1] + ev[2]) / 3;
            for (int a = 0; a < 3; a++) t->inertia[a] = mean;
            for (int i = 0; i < 3; i++)
                for (int k = 0; k < 3; k++) O[i][k] = i == k;   /* any frame is principal */
        }
        pala_vec3 com = pala_v(x[0] + o[0], x[1] + o[1], x[2] + o[2]); /* eq. (32) */
        if (planar) com.z = 0;
        t->com_given = com;
        /* shape vectors in the principal frame: b_alpha = e_alpha . (c_i - x) */
        t->bound_radius = 0;
        for (int i = 0; i < n; i++) {
            pala_vec3 d = pala_vsub(c[i], com);
            shape[i] = pala_v(O[0][0] * d.x + O[0][1] * d.y + O[0][2] * d.z,
                              O[1][0] * d.x + O[1][1] * d.y + O[1][2] * d.z,
                              O[2][0] * d.x + O[2][1] * d.y + O[2][2] * d.z);
            if (planar) shape[i].z = 0;
            double rb = pala_vnorm(shape[i]) + rad[i];              /* eq. (32) r */
            if (rb > t->bound_radius) t->bound_radius = rb;
        }
        /* body -> given frame has matrix O^T */
        double OT[3][3];
        for (int i = 0; i < 3; i++)
            for (int k = 0; k < 3; k++) OT[i][k] = O[k][i];
        t->frame = pala_rot_from_matrix(OT);
        if (planar) t->frame.x = t->frame.y = 0;
    }
    for (int a = 0; a < 3; a++) {
        if (!(t->inertia[a] >= DBL_MIN && t->inertia[a] < HUGE_VAL)) {
            /* of the order rho r^5: zero, denormal or infinite when the sizes or the density
               are beyond double precision; only a positive normal number is a sample's noise */
            if (!(t->mass >= DBL_MIN && t->mass < HUGE_VAL) || t->inertia[a] >= 0)   /* 0, denormal or inf, not noise */
                snprintf(err, errlen, "its mass %g kg and principal moment %d, %g kg m^2, are out of the range of double precision (radii near 1e-60 m "
                         "or 1e60 m, or such a density): give radii in metres and the density in kg/m^3", t->mass, a + 1, t->inertia[a]);
            else snprintf(err, errlen, "principal moment %d is not positive (%g): raise mc_samples", a + 1, t->inertia[a]);
            return -1;
        }
        t->inv_inertia[a] = 1.0 / t->inertia[a];
    }
    double imax = fmax(t->inertia[0], fmax(t->inertia[1], t->inertia[2]));
    double imin = fmin(t->inertia[0], fmin(t->inertia[1], t->inertia[2]));
    t->isotropic = imax - imin <= 1e-14 * imax;
    return 0;
}

/* Similarity scaling by s: lengths * s, volume and mass * s^3, inertia * s^5.  The Monte
 * Carlo points scale with the grain, so the scaled estimate is the estimate of the
 * scaled grain. */
void pala_template_scale(pala_template *t, pala_vec3 *shape, double *rad, double req)
{
    double vt = 4.0 / 3.0 * PALA_PI * req * req * req;
    double s = cbrt(vt / t->volume);
    for (int i = 0; i < t->ncomp; i++) { shape[i] = pala_vscale(s, shape[i]); rad[i] *= s; }
    double s3 = s * s * s, s5 = s3 * s * s;
    t->volume = vt;
    t->volume_stderr *= s3;
    t->mass *= s3;
    for (int a = 0; a < 3; a++) { t->inertia[a] *= s5; t->inv_inertia[a] = 1.0 / t->inertia[a]; }
    t->bound_radius *= s;
    t->com_given = pala_vscale(s, t->com_given);
}

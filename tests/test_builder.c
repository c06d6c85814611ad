/* test_builder.c: the Monte Carlo grain builder (eqs. 25-35) against closed forms, and
 * the random grain factory's two conditions (section 3). */
#include "t.h"
#include "builder.h"
#include "pala/pala.h"
#include <math.h>
#include <string.h>

void test_builder(void);

static int build(pala_template *t, int n, const pala_vec3 *c, const double *r, long ns, pala_vec3 *shape, double *rout)
{
    char err[200] = "";
    memset(t, 0, sizeof *t);
    return pala_template_build(t, n, c, r, 1000.0, ns, shape, rout, err, sizeof err);
}

void test_builder(void)
{
    pala_template t;
    pala_vec3 shape[64];
    double rout[64];
    const double rho = 1000.0;

    /* eq. (30) */
    double z1 = 1e6 * sin(1.0);
    T_CHECK(pala_zeta(1) == z1 - floor(z1) && pala_zeta(1) > 0.98 && pala_zeta(1) < 0.99, "zeta_1 = frac(1e6 sin 1) = %.6f", pala_zeta(1));

    /* one sphere: exact (docs/physics.md, "Exact single sphere") */
    pala_vec3 c1 = pala_v(1, 2, 3);
    double r1 = 0.01;
    build(&t, 1, &c1, &r1, 0, shape, rout);
    double V1 = 4.0 / 3.0 * PALA_PI * 1e-6;
    T_CHECK(t.volume == V1 && t.mass == rho * V1 && t.volume_stderr == 0 && t.mc_samples == 0, "one sphere: exact volume %.12g", t.volume);
    T_CHECK(t.inertia[0] == 0.4 * t.mass * 1e-4 && t.inertia[2] == t.inertia[0] && t.isotropic, "one sphere: I = 2/5 m r^2 exactly");
    T_CHECK(t.bound_radius == r1 && pala_vnorm(shape[0]) == 0, "one sphere: bounding radius = r, shape vector 0");

    /* two disjoint spheres a, b on the x axis: parallel-axis theorem */
    {
        double a = 1.0, b = 0.6, D = 3.0;
        pala_vec3 c[2] = {pala_v(0, 0, 0), pala_v(D, 0, 0)};
        double r[2] = {a, b};
        long N = 2000000;
        build(&t, 2, c, r, N, shape, rout);
        double ma = rho * 4.0 / 3.0 * PALA_PI * a * a * a, mb = rho * 4.0 / 3.0 * PALA_PI * b * b * b, m = ma + mb;
        double V = m / rho, xc = mb * D / m;
        double Iax = 0.4 * (ma * a * a + mb * b * b);                   /* about the x axis */
        double Iperp = Iax + ma * xc * xc + mb * (D - xc) * (D - xc);   /* parallel axis */
        T_CHECK(fabs(t.volume - V) < 3 * t.volume_stderr, "disjoint spheres: V %.6g vs %.6g within 3 s.e. (%.2g)", t.volume, V, t.volume_stderr);
        T_CHECK(fabs(t.com_given.x - xc) < 2e-3 * D && fabs(t.com_given.y) < 2e-3 && fabs(t.com_given.z) < 2e-3,
                "disjoint spheres: centre of mass (%.5f, %.1e, %.1e) vs (%.5f, 0, 0)", t.com_given.x, t.com_given.y, t.com_given.z, xc);
        /* Monte Carlo: relative errors of the moments are a few times that of V (N = 2e6
         * gives V to ~0.15%); 1% is > 5 standard errors. */
        T_CHECK(fabs(t.inertia[0] - Iax) < 0.01 * Iax, "disjoint spheres: I_axis %.6g vs %.6g (1%%)", t.inertia[0], Iax);
        T_CHECK(fabs(t.inertia[1] - Iperp) < 0.01 * Iperp && fabs(t.inertia[2] - Iperp) < 0.01 * Iperp,
                "disjoint spheres: I_perp %.6g, %.6g vs parallel-axis %.6g (1%%)", t.inertia[1], t.inertia[2], Iperp);
    }

    /* symmetric clumps: a regular tetrahedron (edge 1.2, radius 1, as the shared clump bed)
     * in a general position is isotropic, its centre of mass the centroid; distorted or
     * less symmetric arrangements are not */
    {
        pala_vec3 tet[4] = {pala_v(1, 1, 1), pala_v(1, -1, -1), pala_v(-1, 1, -1), pala_v(-1, -1, 1)};
        pala_vec3 rv = pala_v(0.3, -0.2, 0.5), off = pala_v(0.7, -3.1, 2.2);
        double e = 1.2 / sqrt(8.0), rr[6] = {1, 1, 1, 1, 1, 1};
        pala_vec3 c[6], o;
        for (int i = 0; i < 4; i++) c[i] = pala_vadd(off, pala_rot_apply(rv, pala_vscale(e, tet[i])));
        int sym = pala_tetrahedral_symmetry(4, c, rr, &o);
        T_CHECK(sym && pala_vnorm(pala_vsub(o, off)) < 1e-14, "regular tetrahedron: three-fold axes found, centroid off by %.2g",
                pala_vnorm(pala_vsub(o, off)));
        build(&t, 4, c, rr, 0, shape, rout);
        pala_template ref;
        build(&ref, 4, c, rr, 2000000, shape + 8, rout + 8);
        double mref = (ref.inertia[0] + ref.inertia[1] + ref.inertia[2]) / 3;
        T_CHECK(t.isotropic && t.inertia[0] == t.inertia[1] && t.inertia[1] == t.inertia[2] && fabs(t.inertia[0] - mref) < 0.02 * mref,
                "regular tetrahedron: isotropic, I = %.6g (N = 1e4) vs %.6g (N = 2e6) within 2%%", t.inertia[0], mref);
        T_CHECK(pala_vnorm(pala_vsub(t.com_given, off)) < 1e-14, "regular tetrahedron: centre of mass is the centroid exactly");
        pala_vec3 d[4];
        memcpy(d, c, sizeof d);
        d[3] = pala_vaxpy(d[3], 1e-4, pala_v(1, 0, 0));
        T_CHECK(!pala_tetrahedral_symmetry(4, d, rr, &o), "tetrahedron with one centre moved by 1e-4: not symmetric");
        build(&t, 4, d, rr, 0, shape, rout);
        T_CHECK(!t.isotropic, "distorted tetrahedron: anisotropic (%.6g %.6g %.6g)", t.inertia[0], t.inertia[1], t.inertia[2]);
        pala_vec3 sq[4] = {pala_v(1, 0, 1), pala_v(0, 1, 1), pala_v(-1, 0, 1), pala_v(0, -1, 1)};
        T_CHECK(!pala_tetrahedral_symmetry(4, sq, rr, &o), "square (one four-fold axis): not isotropic");
        pala_vec3 oct[6] = {pala_v(1, 0, 0), pala_v(-1, 0, 0), pala_v(0, 1, 0), pala_v(0, -1, 0), pala_v(0, 0, 1), pala_v(0, 0, -1)};
        for (int i = 0; i < 6; i++) oct[i] = pala_rot_apply(rv, oct[i]);
        T_CHECK(pala_tetrahedral_symmetry(6, oct, rr, &o), "regular octahedron: symmetric");
        double rmix[4] = {1, 1, 1, 0.9};
        T_CHECK(!pala_tetrahedral_symmetry(4, c, rmix, &o), "tetrahedron with one smaller sphere: not symmetric");
    }

    /* two overlapping equal spheres: lens formula, centre of mass on the axis */
    {
        double R = 1.0, d = 1.2;
        pala_vec3 c[2] = {pala_v(0.1, 0.2, 0.3), pala_v(0.1 + d / sqrt(3.0), 0.2 + d / sqrt(3.0), 0.3 + d / sqrt(3.0))};
        double r[2] = {R, R};
        double Vu = 2 * (4.0 / 3.0 * PALA_PI * R * R * R) - PALA_PI * (4 * R + d) * (2 * R - d) * (2 * R - d) / 12.0;
        for (long N = 10000; N <= 1000000; N *= 100) {
            build(&t, 2, c, r, N, shape, rout);
            T_CHECK(fabs(t.volume - Vu) < 3 * t.volume_stderr, "lens, N = %ld: V %.6g vs %.6g, |diff| %.2g < 3 s.e. %.2g", N, t.volume, Vu,
                    fabs(t.volume - Vu), 3 * t.volume_stderr);
            pala_vec3 mid = pala_vscale(0.5, pala_vadd(c[0], c[1])), ax = pala_vscale(1 / d, pala_vsub(c[1], c[0]));
            pala_vec3 off = pala_vsub(t.com_given, mid);
            double perp = pala_vnorm(pala_vsub(off, pala_vscale(pala_vdot(off, ax), ax)));
            T_CHECK(perp < 0.02 * R * sqrt(1e4 / (double)N), "lens, N = %ld: centre of mass %.2e off the axis", N, perp);
        }
        T_CHECK(fabs(t.volume_stderr / t.volume - 0.001) < 0.0008, "standard error reported: %.3g of V at N = 1e6", t.volume_stderr / t.volume);
    }

    /* principal frame: the rotation vector `frame` maps body shape vectors back to the
     * centres as written; an asymmetric grain has three distinct moments */
    {
        pala_vec3 c[3] = {pala_v(0, 0, 0), pala_v(1.2, 0.3, -0.2), pala_v(0.1, 0.9, 0.4)};
        double r[3] = {1.0, 0.7, 0.5};
        build(&t, 3, c, r, 100000, shape, rout);
        double e = 0;
        for (int i = 0; i < 3; i++)
            e = fmax(e, pala_vnorm(pala_vsub(pala_vadd(t.com_given, pala_rot_apply(t.frame, shape[i])), c[i])));
        T_CHECK(e < 1e-13, "principal frame: com + frame * shape_i == c_i (err %.2e)", e);
        T_CHECK(t.inertia[0] < t.inertia[1] && t.inertia[1] < t.inertia[2], "asymmetric grain: I1 < I2 < I3");
        double bmax = 0;
        for (int i = 0; i < 3; i++) bmax = fmax(bmax, pala_vnorm(shape[i]) + r[i]);
        T_CHECK(t.bound_radius == bmax, "bounding radius (32) = max |x_i| + r_i");
        /* scaling to a target volume */
        double I0 = t.inertia[1], b0 = t.bound_radius, V0 = t.volume, s;
        pala_template_scale(&t, shape, rout, 0.5);
        s = cbrt(t.volume / V0);
        T_CHECK(fabs(t.volume - 4.0 / 3.0 * PALA_PI * 0.125) < 1e-15, "scaled to the volume of a sphere of radius 0.5");
        T_CHECK(fabs(t.inertia[1] / I0 - pow(s, 5)) < 1e-12 && fabs(t.bound_radius / b0 - s) < 1e-14, "scaling: I ~ s^5, r ~ s");
    }

    /* planar grain: z is a principal axis exactly, shape vectors stay in the plane */
    {
        pala_vec3 c[3] = {pala_v(0, 0, 0), pala_v(1.2, 0.3, 0), pala_v(0.1, 0.9, 0)};
        double r[3] = {1.0, 0.7, 0.5};
        build(&t, 3, c, r, 10000, shape, rout);
        int inplane = 1;
        for (int i = 0; i < 3; i++) inplane &= shape[i].z == 0;
        T_CHECK(inplane && t.frame.x == 0 && t.frame.y == 0 && t.com_given.z == 0, "planar grain: shape z == 0, frame about z, com in plane");
    }

    /* factory: connected, no sphere inside another (section 3 conditions 1, 2) */
    {
        pala_factory f = {2, 8, 0.5, 1.5, 0.6};
        pala_rng g;
        pala_rng_seed(&g, 99);
        int ok1 = 1, ok2 = 1, nmin = 99, nmax = 0;
        for (int k = 0; k < 300; k++) {
            pala_vec3 c[8];
            double r[8];
            int n = pala_factory_make(&f, &g, k % 2 ? 3 : 2, c, r);
            nmin = n < nmin ? n : nmin; nmax = n > nmax ? n : nmax;
            /* connectivity by flood fill over overlapping pairs */
            int seen[8] = {1}, grow = 1;
            while (grow) {
                grow = 0;
                for (int i = 0; i < n; i++)
                    for (int j = 0; j < n; j++)
                        if (seen[i] && !seen[j] && pala_vnorm(pala_vsub(c[i], c[j])) < r[i] + r[j]) seen[j] = grow = 1;
            }
            for (int i = 0; i < n; i++) ok1 &= seen[i];
            for (int i = 0; i < n; i++)
                for (int j = 0; j < n; j++)
                    if (i != j) ok2 &= !(pala_vnorm(pala_vsub(c[i], c[j])) + r[j] <= r[i]);
        }
        T_CHECK(ok1, "factory: all 300 grains connected");
        T_CHECK(ok2, "factory: no component inside another");
        T_CHECK(nmin == 2 && nmax == 8, "factory: component counts span [2, 8] (got %d..%d)", nmin, nmax);
    }
}

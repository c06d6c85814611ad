/* test_contact.c: the contact kernel (eqs. 48-57, docs/physics.md, "Contact forces") against closed forms:
 * restitution sqrt(delta), Hertz contact time, sliding-to-rolling at 5/7, conservation of
 * momentum and angular momentum in frictional collisions of polyspherical grains. */
#include "t.h"
#include "builder.h"
#include "t_world.h"
#include "pala/pala.h"
#include <math.h>
#include <string.h>

void test_contact(void);

static pala_material mat(double delta, double mu)
{
    pala_material m = {.name = "m", .rho = 1250, .E = 5e8, .sigma = 0.3, .delta = delta, .mu = mu, .nu = 1e-3};
    return m;
}

/* Head-on collision of two equal spheres at relative speed v: returns rebound/approach
 * speed ratio and the contact duration. */
static void head_on(double delta, int hertz, double v, double *ratio, double *tc, double *tc_theory)
{
    pala_world w;
    pala_world_init(&w);
    w.hertz = hertz;
    pala_material m = mat(delta, 0);
    pala_world_add_material(&w, &m);
    double R = 0.005;
    int t = pala_world_add_sphere_template(&w, 0, R);
    pala_world_add_grain(&w, t, pala_v(-R - 1e-4, 0, 0), pala_v(0, 0, 0), pala_v(0.5 * v, 0, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, t, pala_v(R + 1e-4, 0, 0), pala_v(0, 0, 0), pala_v(-0.5 * v, 0, 0), pala_v(0, 0, 0));
    /* docs/physics.md, "Choosing dt": t_c = 2.9432 d_max / v, d_max = (5 m* v^2 / (4 k))^{2/5} */
    double Et = m.E / (1 - m.sigma * m.sigma);   /* E~ = H(E', E') */
    double k = pala_hertz_prefactor(hertz) * Et * sqrt(R);   /* r~ = H(R, R) = R */
    double mstar = 0.5 * w.tmpl[0].mass;
    double dmax = pow(5 * mstar * v * v / (4 * k), 0.4);
    *tc_theory = 2.9432 * dmax / v;
    w.dt = *tc_theory / 4000;
    pala_world_prepare(&w);
    double t_in = -1, t_out = -1;
    for (long s = 0; s < 10000000 && t_out < 0; s++) {
        pala_world_step(&w);
        double gap = w.x[1].x - w.x[0].x - 2 * R;
        if (gap < 0 && t_in < 0) t_in = w.t;
        if (gap >= 0 && t_in >= 0) t_out = w.t;
    }
    *tc = t_out - t_in;
    *ratio = (w.v[1].x - w.v[0].x) / v;
    pala_world_free(&w);
}

/* Total linear and angular momentum (about the origin) of a world. */
static void momenta(pala_world *w, pala_vec3 *P, pala_vec3 *L)
{
    *P = *L = pala_v(0, 0, 0);
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        pala_vec3 p = pala_vscale(t->mass, w->v[k]);
        *P = pala_vadd(*P, p);
        *L = pala_vadd(*L, pala_vadd(pala_vcross(w->x[k], p), pala_rot_diag_apply(w->r[k], t->inertia, w->w[k])));
    }
}

void test_contact(void)
{
    double ratio, tc, tct;
    const double deltas[3] = {1, 0.5, 0.25};
    for (int i = 0; i < 3; i++) {
        head_on(deltas[i], PALA_HERTZ_PAPER, 2.0, &ratio, &tc, &tct);
        T_CHECK(fabs(ratio - sqrt(deltas[i])) < 0.01 * sqrt(deltas[i]), "head-on, delta = %g: rebound/approach %.6f vs sqrt(delta) %.6f (1%%)",
                deltas[i], ratio, sqrt(deltas[i]));
        if (deltas[i] == 1)
            T_CHECK(fabs(tc - tct) < 0.01 * tct, "head-on, delta = 1: contact time %.6g s vs 2.9432 d_max/v = %.6g s (1%%)", tc, tct);
    }
    head_on(1, PALA_HERTZ_TEXTBOOK, 2.0, &ratio, &tc, &tct);
    T_CHECK(fabs(tc - tct) < 0.01 * tct && fabs(ratio - 1) < 0.01, "textbook Hertz 4/3 E* sqrt(R*): contact time %.6g vs %.6g s", tc, tct);

    /* sphere dropped on a flat wall: rebound ratio sqrt(delta) (walls use the same law) */
    {
        pala_world w;
        pala_world_init(&w);
        pala_material m = mat(0.36, 0);
        pala_world_add_material(&w, &m);
        int t = pala_world_add_sphere_template(&w, 0, 0.005);
        t_box(&w, pala_v(-1, -1, 0), pala_v(1, 1, 1));
        pala_world_add_grain(&w, t, pala_v(0, 0, 0.0051), pala_v(0, 0, 0), pala_v(0, 0, -1.0), pala_v(0, 0, 0));
        w.dt = 2e-8;
        pala_world_prepare(&w);
        long s;
        for (s = 0; s < 2000000 && !(w.v[0].z > 0 && w.x[0].z > 0.0051); s++) pala_world_step(&w);
        T_CHECK(fabs(w.v[0].z - 0.6) < 0.006, "wall bounce, delta = 0.36: rebound speed %.5f vs 0.6 (1%%)", w.v[0].z);
        T_CHECK(fabs(w.wall_impulse[4].z + 1.6 * w.tmpl[0].mass) < 1e-3 * 1.6 * w.tmpl[0].mass,
                "floor received momentum %.6g vs -m (v_in + v_out) = %.6g", w.wall_impulse[4].z, -1.6 * w.tmpl[0].mass);
        pala_world_free(&w);
    }

    /* sliding sphere on a frictional floor ends rolling at 5/7 of its launch speed */
    {
        pala_world w;
        pala_world_init(&w);
        pala_material m = mat(0.5, 0.3);
        pala_world_add_material(&w, &m);
        double R = 0.005;
        int t = pala_world_add_sphere_template(&w, 0, R);
        t_box(&w, pala_v(-10, -1, 0), pala_v(10, 1, 1));
        w.g = pala_v(0, 0, -9.81);
        pala_world_add_grain(&w, t, pala_v(0, 0, R), pala_v(0, 0, 0), pala_v(1.0, 0, 0), pala_v(0, 0, 0));
        w.dt = 1e-6;
        pala_world_prepare(&w);
        for (long s = 0; s < 300000; s++) pala_world_step(&w);   /* sliding ends after 2 v0/(7 mu g) = 0.097 s */
        double v = w.v[0].x, slip = w.v[0].x - R * w.w[0].y;   /* contact point velocity v - omega_y R */
        T_CHECK(fabs(v - 5.0 / 7.0) < 0.01 * 5.0 / 7.0, "sliding sphere: final speed %.5f vs 5/7 = %.5f (1%%)", v, 5.0 / 7.0);
        T_CHECK(fabs(slip) < 1e-3 && w.w[0].y > 0, "sliding sphere: rolls without slip (slip %.2e m/s, omega_y %.4g > 0)", slip, w.w[0].y);
        pala_world_free(&w);
    }

    /* two polyspherical grains collide obliquely with friction and dissipation: total
     * momentum and angular momentum conserved (F_ij = -F_ji, torques about c_ij); the
     * energy lost equals the dissipated energy the step accounts for */
    double dLs[2];
    for (int pass = 0; pass < 2; pass++) {
        pala_world w;
        pala_world_init(&w);
        pala_material m = mat(0.5, 0.5);
        pala_world_add_material(&w, &m);
        pala_vec3 c[3] = {pala_v(0, 0, 0), pala_v(0.006, 0.001, 0), pala_v(0.001, 0.005, 0.002)}, shape[3];
        double r[3] = {0.004, 0.003, 0.0025}, rout[3];
        pala_template t;
        char err[100] = "";
        memset(&t, 0, sizeof t);
        pala_template_build(&t, 3, c, r, 1250, 20000, shape, rout, err, sizeof err);
        int ti = pala_world_add_template(&w, &t, shape, rout);
        pala_world_add_grain(&w, ti, pala_v(-0.009, 0.002, 0), pala_v(0.1, 0.2, 0.3), pala_v(1.5, 0, 0.1), pala_v(10, -20, 5));
        pala_world_add_grain(&w, ti, pala_v(0.009, -0.002, 0.001), pala_v(-0.3, 0.1, 0.5), pala_v(-1.5, 0.2, 0), pala_v(-5, 30, 0));
        w.dt = pass ? 2e-7 : 4e-7;
        pala_world_prepare(&w);
        pala_vec3 P0, L0, P1, L1;
        momenta(&w, &P0, &L0);
        pala_energy e0 = pala_world_energy(&w);
        long touching = 0, n = lround(0.02 / w.dt);
        for (long s = 0; s < n; s++) { pala_world_step(&w); touching += w.ncontact > 0; }
        momenta(&w, &P1, &L1);
        pala_energy e1 = pala_world_energy(&w);
        double dP = pala_vnorm(pala_vsub(P1, P0)) / pala_vnorm(P0);
        dLs[pass] = pala_vnorm(pala_vsub(L1, L0)) / pala_vnorm(L0);
        if (pass == 1) {
            T_CHECK(touching > 100, "oblique grain collision happened (%ld steps in contact)", touching);
            T_CHECK(dP < 1e-12, "momentum conserved in a frictional grain collision: rel. change %.2e", dP);
            /* measured ~1e-11 (free-rotation drift and round-off); a lever arm other than
             * c_ij - x, or a sign error in a torque, leaves >= 1e-4 */
            T_CHECK(dLs[0] < 1e-9 && dLs[1] < 1e-9, "angular momentum conserved (torques about c_ij, eq. 51): rel. change %.2e at dt, %.2e at dt/2",
                    dLs[0], dLs[1]);
            T_CHECK(e1.total < e0.total && w.diss > 0, "energy dissipated: E %.6g -> %.6g J, E_diss %.6g J", e0.total, e1.total, w.diss);
            T_CHECK(fabs(e0.total - e1.total - w.diss) < 1e-3 * w.diss, "energy balance: lost %.8g J vs accounted E_diss %.8g J (0.1%%)", e0.total - e1.total, w.diss);
        }
        pala_world_free(&w);
    }

    /* two spheres (unequal radii, the sphere kernel: torques l c (n x w_t)) collide
     * obliquely with friction: momentum and angular momentum conserved; the two spins
     * change in the ratio of the lever arms over the moments, (l_1/I_1) / (l_2/I_2) with
     * l = a - ov/2 -> a as the overlap closes; the energy balance closes */
    {
        pala_world w;
        pala_world_init(&w);
        pala_material m = mat(0.5, 0.5);
        pala_world_add_material(&w, &m);
        double a1 = 0.004, a2 = 0.0025;
        int t1 = pala_world_add_sphere_template(&w, 0, a1), t2 = pala_world_add_sphere_template(&w, 0, a2);
        pala_world_add_grain(&w, t1, pala_v(-0.005, 0.0015, 0), pala_v(0, 0, 0), pala_v(1.2, 0, 0.3), pala_v(0, 0, 0));
        pala_world_add_grain(&w, t2, pala_v(0.0035, -0.0015, 0), pala_v(0, 0, 0), pala_v(-1.2, 0.1, 0), pala_v(0, 0, 0));
        w.dt = 2e-7;
        pala_world_prepare(&w);
        pala_vec3 P0, L0, P1, L1;
        momenta(&w, &P0, &L0);
        pala_energy e0 = pala_world_energy(&w);
        long touching = 0;
        for (long s = 0; s < 50000; s++) { pala_world_step(&w); touching += w.ncontact > 0; }
        momenta(&w, &P1, &L1);
        pala_energy e1 = pala_world_energy(&w);
        double dP = pala_vnorm(pala_vsub(P1, P0)) / pala_vnorm(P0), dL = pala_vnorm(pala_vsub(L1, L0)) / pala_vnorm(L0);
        double I1 = w.tmpl[t1].inertia[0], I2 = w.tmpl[t2].inertia[0];
        double rs = pala_vnorm(w.w[0]) / pala_vnorm(w.w[1]), rt = (a1 / I1) / (a2 / I2);
        T_CHECK(touching > 100 && pala_vnorm(w.w[0]) > 1, "oblique sphere collision happened (%ld steps in contact, spin %.3g 1/s)",
                touching, pala_vnorm(w.w[0]));
        T_CHECK(dP < 1e-12 && dL < 1e-9, "sphere collision: momentum rel. change %.2e, angular momentum %.2e", dP, dL);
        T_CHECK(pala_vdot(w.w[0], w.w[1]) > 0 && fabs(rs / rt - 1) < 0.02,
                "sphere collision: spins parallel, |w1|/|w2| = %.5f vs (a1/I1)/(a2/I2) = %.5f (2%%: lever arms a - ov/2)", rs, rt);
        T_CHECK(e1.total < e0.total && fabs(e0.total - e1.total - w.diss) < 1e-3 * w.diss,
                "sphere collision: energy lost %.8g J vs accounted E_diss %.8g J (0.1%%)", e0.total - e1.total, w.diss);
        pala_world_free(&w);
    }

    /* a large sphere touched by 300 small ones: more than 256 contacts of one component
     * (rows are processed in chunks); every contact counted, momentum conserved */
    {
        pala_world w;
        pala_world_init(&w);
        pala_material m = mat(1, 0);
        pala_world_add_material(&w, &m);
        w.max_overlap = 1;
        int big = pala_world_add_sphere_template(&w, 0, 0.02), small = pala_world_add_sphere_template(&w, 0, 0.001);
        pala_world_add_grain(&w, big, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
        for (int i = 0; i < 300; i++) {   /* Fibonacci sphere of radius 0.0205: overlap 0.5 mm */
            double z = 1 - 2 * (i + 0.5) / 300, rho = sqrt(1 - z * z), phi = 2.399963229728653 * i;
            pala_world_add_grain(&w, small, pala_vscale(0.0205, pala_v(rho * cos(phi), rho * sin(phi), z)), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
        }
        w.dt = 1e-8;
        pala_world_prepare(&w);
        int st = pala_world_step(&w);
        st |= pala_world_step(&w);
        pala_vec3 P, L;
        momenta(&w, &P, &L);
        double pbig = pala_vnorm(pala_vscale(w.tmpl[1].mass, w.v[1]));
        T_CHECK(st == PALA_OK && w.ncontact == 300, "300 contacts on one sphere: all evaluated (%ld, status %d)", w.ncontact, st);
        T_CHECK(pala_vnorm(P) < 1e-12 * 300 * pbig + 1e-30, "300 contacts on one sphere: total momentum %.2e (one small sphere's %.2e)", pala_vnorm(P), pbig);
        pala_world_free(&w);
    }
}

/* test_drag.c: the background fluid (docs/physics.md, "Drag and buoyancy") against closed
 * forms: the terminal speed of a sphere, 2 (rho_s - rho_f) g a^2 / (9 eta); the decay of
 * its spin, exp(-t / tau) with tau = I / (8 pi eta a^3); the drag of a clump, summed over its
 * spheres; and the energy balance, E_total + E_diss constant (the drag's work in E_diss,
 * the buoyancy in the weight). */
#include "t.h"
#include "pala/pala.h"
#include <math.h>

void test_drag(void);

/* One sphere of radius a (or a dumbbell of two, `pair`) of density 2500 in a fluid of
 * viscosity eta and density rho_f, no walls. */
static void fluid_world(pala_world *w, double eta, double rho_f, double a, int pair, pala_vec3 v, pala_vec3 om)
{
    pala_world_init(w);
    pala_material m = {.name = "glass", .rho = 2500, .E = 1e8, .sigma = 0.3, .delta = 1, .nu = 1e-3};
    pala_world_add_material(w, &m);
    int t;
    if (pair) {
        pala_template tp = {.name = "dumbbell", .material = 0};
        pala_vec3 c[2] = {pala_v(-a, 0, 0), pala_v(a, 0, 0)};
        double r[2] = {a, a};
        t = pala_world_build_template(w, &tp, 2, c, r, 20000);
    } else t = pala_world_add_sphere_template(w, 0, a);
    pala_world_add_grain(w, t, pala_v(0, 0, 0), pala_v(0, 0, 0), v, om);
    w->fluid_eta = eta;
    w->fluid_rho = rho_f;
    w->dt = 1e-5;
}

void test_drag(void)
{
    const double a = 1e-3, rho_s = 2500, g = 9.81;
    /* terminal speed: eta = 1 Pa s (glycerol), rho_f = 1000 kg/m^3: tau = m / (6 pi eta a) = 0.56 ms */
    pala_world w;
    fluid_world(&w, 1.0, 1000, a, 0, pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.g = pala_v(0, 0, -g);
    T_CHECK(pala_world_prepare(&w) == PALA_OK, "drag: prepare");
    pala_energy e0 = pala_world_energy(&w);
    pala_world_steps(&w, 2000);   /* 20 ms, 36 tau */
    double vt = 2 * (rho_s - 1000) * g * a * a / (9 * 1.0);
    T_NEAR(w.v[0].z, -vt, 5e-3 * vt, "drag: terminal speed 2 (rho_s - rho_f) g a^2 / (9 eta)");
    T_CHECK(w.v[0].x == 0 && w.v[0].y == 0, "drag: the sphere falls straight");
    pala_energy e = pala_world_energy(&w);
    double flow = fabs(e.total - e0.total);   /* the energy the drag took */
    T_CHECK(w.diss > 0 && fabs(e.total + w.diss - e0.total) < 1e-6 * flow,
            "drag: E_total + E_diss closes (%.3g J taken, balance off by %.3g J)", w.diss, e.total + w.diss - e0.total);
    /* the weight in the field energy is (m - rho_f V) g: without drag, E_total is conserved */
    pala_world_free(&w);
    fluid_world(&w, 0, 1000, a, 0, pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.g = pala_v(0, 0, -g);
    pala_world_prepare(&w);
    e0 = pala_world_energy(&w);
    pala_world_steps(&w, 1000);
    double ab = (rho_s - 1000) / rho_s * g, ze = -0.5 * ab * w.t * w.t;
    T_NEAR(w.x[0].z, ze, 1e-9 * fabs(ze), "buoyancy: the sphere falls at (1 - rho_f / rho_s) g");
    e = pala_world_energy(&w);
    T_NEAR(e.total, e0.total, 1e-9 * e.kin, "buoyancy: E_total conserved (the weight's energy is that of (m - rho_f V) g)");
    pala_world_free(&w);

    /* the spin decays as exp(-t / tau), tau = I / (8 pi eta a^3) = rho_s a^2 / (15 eta) = 1.67 ms at eta = 0.1 */
    fluid_world(&w, 0.1, 0, a, 0, pala_v(0, 0, 0), pala_v(30, -40, 120));
    pala_world_prepare(&w);
    e0 = pala_world_energy(&w);
    double tau = rho_s * a * a / (15 * 0.1);
    pala_world_steps(&w, 334);
    double want = 130 * exp(-w.t / tau);
    T_NEAR(pala_vnorm(w.w[0]), want, 5e-3 * want, "drag: |omega| decays as exp(-t / tau), tau = I / (8 pi eta a^3)");
    T_CHECK(fabs(w.w[0].x / w.w[0].z - 0.25) < 1e-12 && pala_vnorm(w.v[0]) == 0, "drag: the spin keeps its axis; no force from a spin");
    e = pala_world_energy(&w);
    T_CHECK(fabs(e.total + w.diss - e0.total) < 1e-4 * e0.total, "drag: the spin's E_total + E_diss closes (%.3g of E_total(0))",
            (e.total + w.diss - e0.total) / e0.total);
    pala_world_free(&w);

    /* a dumbbell of two spheres: each feels 6 pi eta a (v - u); in a fluid moving at u it
     * reaches u, and under gravity the terminal speed (m - rho_f V) g / (12 pi eta a) */
    fluid_world(&w, 1.0, 1000, a, 1, pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.g = pala_v(0, 0, -g);
    w.fluid_u = pala_v(0.002, 0, 0);
    T_CHECK(pala_world_prepare(&w) == PALA_OK, "drag: prepare the dumbbell");
    pala_world_steps(&w, 3000);
    const pala_template *tp = &w.tmpl[0];
    double vd = (tp->mass - 1000 * tp->volume) * g / (12 * PALA_PI * 1.0 * a);
    T_NEAR(w.v[0].z, -vd, 5e-3 * vd, "drag: a clump's terminal speed, its spheres' drags summed");
    T_NEAR(w.v[0].x, 0.002, 1e-5, "drag: the clump goes with the fluid's velocity");
    pala_world_free(&w);
    /* a spinning dumbbell about a transverse axis: its centres move at omega s, so the torque
     * is (8 a^3 + 6 a s^2) pi eta omega for each sphere: tau = I / (2 pi eta a^3 (8 + 6)) */
    fluid_world(&w, 0.1, 0, a, 1, pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_prepare(&w);
    /* the principal axis across the dumbbell with the largest moment */
    tp = &w.tmpl[0];
    int ax = tp->inertia[0] > tp->inertia[2] ? 0 : 2;
    double Ia = tp->inertia[ax];
    pala_vec3 e1 = ax == 0 ? pala_v(1, 0, 0) : pala_v(0, 0, 1);
    w.w[0] = pala_vscale(50, pala_rot_apply(w.r[0], e1));   /* world frame */
    double taud = Ia / (2 * PALA_PI * 0.1 * a * a * a * 14);
    pala_world_steps(&w, (long)(taud / w.dt));
    want = 50 * exp(-w.t / taud);
    T_NEAR(pala_vnorm(w.w[0]), want, 5e-3 * want, "drag: a dumbbell's spin across its axis decays with I / (pi eta sum (8 a^3 + 6 a s^2))");
    pala_world_free(&w);
}

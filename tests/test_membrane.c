/* test_membrane.c: the membrane (docs/physics.md, "Membrane"), through the scene reader
 * and the public API:
 *   - a bar as a contact partner: a sphere hitting one bar head-on (3D and 2D) touches it
 *     for the Hertz contact time of r~ = H(a, r_bar) with the membrane's material, and
 *     rebounds at sqrt(delta~) of its speed, E_diss holding the energy lost;
 *   - which grains pass: in a 3D box split by a membrane, small grains (radius below
 *     spacing/2 - bar radius) cross it both ways, large ones placed on one side never
 *     reach the other; the energy balance closes;
 *   - threads: a membrane scene of three blocks gives the same bits on 1, 2 and 3 threads;
 *   - van 't Hoff: small solvent grains on both sides, larger solute grains on one side
 *     only (2D, for the statistics): the time-averaged pressure difference across the
 *     membrane equals n_solute kT (10 %), n_solute the solute count over the area of its
 *     side, kT the solute's mean translational kinetic energy per grain (E_kin / N in 2D). */
#include "t.h"
#include "t_world.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void test_membrane(void);

static pala_scene *load(const char *name, const char *text)
{
    char path[256], err[2048] = "";
    snprintf(path, sizeof path, "%s/%s.txt", t_tmpdir(), name);
    t_write(path, text);
    pala_scene *s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "%s: the scene loads %s", name, err);
    return s;
}

/* the template index of grain type name */
static int tmpl_of(const pala_world *w, const char *name)
{
    for (int t = 0; t < w->ntmpl; t++)
        if (!strcmp(w->tmpl[t].name, name)) return t;
    return -1;
}

static double column(const pala_world *w, const char *name)
{
    const char *nm[16];
    double v[16];
    int n = pala_world_wall_columns(w, nm, v, 16);
    for (int i = 0; i < n; i++)
        if (!strcmp(nm[i], name)) return v[i];
    return (double)NAN;
}

/* One sphere (radius a, material 0) flies at speed v along x onto the bar along z (3D) or
 * the disc (2D) at y = 0.02 of a membrane x = 0.05 (bars of radius rb = 0.001 m, spacing
 * 0.008 m; its other bars stay out of reach); the walls are of a third material, never
 * touched.  docs/physics.md, "Choosing dt": t_c = 2.9432 d_max / v with
 * d_max = (5 m v^2 / (4 k))^{2/5}, k = kE sqrt(r~), r~ = H(a, rb) (eq. 55), kE of the
 * pair (grain, membrane material). */
static void bar_contact(int dim, double delta)
{
    const double a = 0.002, rb = 0.001, v = 0.5;
    pala_world w;
    pala_world_init(&w);
    w.dim = dim;
    pala_material ball = {.name = "ball", .rho = 2000, .E = 1e8, .sigma = 0.3, .delta = delta, .mu = 0, .nu = 1e-3}, bar = {.name = "bar", .rho = 7800, .E = 2e9, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3},
                  wall = {.name = "wall", .rho = 1000, .E = 1e6, .sigma = 0.3, .delta = 1, .mu = 0, .nu = 1e-3};
    pala_world_add_material(&w, &ball);
    int mbar = pala_world_add_material(&w, &bar);
    pala_world_set_box(&w, pala_v(0, 0, 0), pala_v(0.1, 0.04, 0.04), pala_world_add_material(&w, &wall));   /* 2D: z not used */
    int mem = pala_world_add_wall(&w, "membrane", mbar);
    char rbs[32];
    snprintf(rbs, sizeof rbs, "%.17g", rb);
    pala_world_wall_set(&w, mem, "membrane_axis", "x");
    pala_world_wall_set(&w, mem, "membrane_position", "0.05");
    pala_world_wall_set(&w, mem, "membrane_bar_radius", rbs);
    pala_world_wall_set(&w, mem, "membrane_spacing", "0.008");
    int t = pala_world_add_sphere_template(&w, 0, a);
    /* 3D: z = 0.02 lies between the bars along y (at z = 0.016, 0.024: out of reach) */
    pala_world_add_grain(&w, t, pala_v(0.045, 0.024, dim == 3 ? 0.02 : 0), pala_v(0, 0, 0), pala_v(v, 0, 0), pala_v(0, 0, 0));
    double m = w.tmpl[0].mass;
    w.dt = 1e-7;
    int st = pala_world_prepare(&w);
    const pala_pairmat *pm = &w.pm[0 * w.nmat + mbar];
    double k = pm->kE * sqrt(2 * a * rb / (a + rb)), dmax = pow(5 * m * v * v / (4 * k), 0.4), tc_theory = 2.9432 * dmax / v;
    double t_in = -1, t_out = -1;
    for (long i = 0; i < 2000000 && t_out < 0 && !st; i++) {
        st = pala_world_step(&w);
        double gap = hypot(w.x[0].x - 0.05, w.x[0].y - 0.024) - (a + rb);
        if (gap < 0 && t_in < 0) t_in = w.t;
        if (gap >= 0 && t_in >= 0) t_out = w.t;
    }
    double ratio = -w.v[0].x / v, loss = 0.5 * m * (v * v - pala_vnorm2(w.v[0]));
    if (delta == 1)   /* restitution softens the unloading: a longer contact */
        T_CHECK(st == PALA_OK && fabs((t_out - t_in) / tc_theory - 1) < 0.01,
                "%dD, a sphere (a = %g m) head-on onto one bar (r_bar = %g m): contact time %.5g s vs the Hertz t_c of r~ = H(a, r_bar) "
                "and the membrane's material %.5g s (1 %%)", dim, a, rb, t_out - t_in, tc_theory);
    T_CHECK(fabs(ratio - sqrt(pm->delta)) < 0.01 * sqrt(pm->delta) && fabs(w.v[0].y) < 1e-9 * v,
            "%dD bar, delta = %g: rebounds straight back at %.5f of the impact speed vs sqrt(delta~) = %.5f (1 %%)", dim, delta,
            ratio, sqrt(pm->delta));
    if (delta < 1)
        T_CHECK(fabs(w.diss - loss) < 2e-3 * loss && column(&w, "P_mem_lo") > 0,
                "%dD bar, delta = %g: E_diss %.6g J = the kinetic energy lost %.6g J (0.2 %%)", dim, delta, w.diss, loss);
    pala_world_free(&w);
}

static const char *passing =
    "container = box\nbox = 0 0.02 0 0.02 0 0.02\nwall_material = steel\n"
    "membrane_axis = x\nmembrane_position = 0.01\nmembrane_bar_radius = 0.0002\nmembrane_spacing = 0.002\n"
    "membrane_material = steel\ndt = 2e-6\nsteps = 50000\n"
    "[material steel]\ndensity = 1000\nyoung = 1e7\n"
    "[grain small]\nmaterial = steel\nshape = sphere\nradius = 0.0004\n"
    "[grain big]\nmaterial = steel\nshape = sphere\nradius = 0.0015\n"
    "[group solvent]\ngrain = small\ncount = %d\nvelocity_spread = 0.5\n"
    "[group solute]\ngrain = big\ncount = 12\nregion = box\nregion_box = 0 0.01 0 0.02 0 0.02\nvelocity_spread = 0.1\n";

static void which_pass(void)
{
    char text[2048];
    snprintf(text, sizeof text, passing, 80);
    pala_scene *s = load("passing", text);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    const double pos = 0.01;   /* membrane_position */
    int small = tmpl_of(w, "small"), big = tmpl_of(w, "big");
    int side[256], n = w->n < 256 ? w->n : 256;
    for (int k = 0; k < n; k++) side[k] = w->x[k].x > pos;
    pala_energy e0 = pala_world_energy(w);
    long crossings = 0, big_across = 0, st = 0;
    double big_max = -1;   /* how close to the plane a large grain's centre came, m */
    double worst = 0;      /* the largest |E_total - E_total(0)| / E_total(0) */
    for (long i = 0; i < pala_scene_steps(s) / 25 && !st; i++) {
        st = pala_world_steps(w, 25);
        for (int k = 0; k < n; k++) {
            int sd = w->x[k].x > pos;
            if (w->tid[k] == small) crossings += sd != side[k];
            if (w->tid[k] == big) {
                big_across += sd != side[k];
                big_max = fmax(big_max, w->x[k].x);
            }
            side[k] = sd;
        }
        worst = fmax(worst, fabs(pala_world_energy(w).total - e0.total) / e0.total);
    }
    T_CHECK(st == PALA_OK && big_across == 0 && big_max < pos,
            "3D membrane (holes 0.002 m between bar axes, bars of radius 0.0002 m): no grain of radius 0.0015 m crosses it "
            "in 0.1 s (status %d, %ld crossings, nearest centre %.5g m from the plane)", st, big_across, pos - big_max);
    T_CHECK(crossings >= 10, "grains of radius 0.0004 m pass it (%ld crossings in 0.1 s, both ways)", crossings);
    T_CHECK(worst < 1e-3 && column(w, "P_mem_lo") > 0 && column(w, "P_mem_hi") > 0,
            "elastic, frictionless: E_total (the bars' Hertz energy in E_contact) is kept to 1e-3 at every 25th step (largest "
            "|dE_rel| %.3g), and the membrane received momentum from both sides (%.3g, %.3g N s)", worst, column(w, "P_mem_lo"),
            column(w, "P_mem_hi"));
    pala_scene_free(s);
}

/* The passing scene with 700 small grains (three blocks of 256), 300 steps on 1, 2 and 3
 * threads: the state and the walls' accounts are the same bits. */
static void threads(void)
{
    char text[2048];
    snprintf(text, sizeof text, passing, 700);
    double ref[16], now[16];
    pala_vec3 xr[1024];
    int same = 1, nt = 0, n = 0;
    for (int th = 1; th <= 3; th++) {
        pala_scene *s = load("threads", text);
        if (!s) return;
        pala_world *w = pala_scene_world(s);
        pala_world_set_threads(w, th);
        int st = pala_world_steps(w, 300);
        const char *nm[16];
        nt = pala_world_wall_columns(w, nm, th == 1 ? ref : now, 16);
        n = w->n < 1024 ? w->n : 1024;
        for (int k = 0; k < n; k++) {
            if (th == 1) xr[k] = w->x[k];
            else same &= !memcmp(&xr[k], &w->x[k], sizeof xr[k]);
        }
        if (th > 1) same &= !memcmp(ref, now, (size_t)nt * sizeof *ref);
        same &= st == PALA_OK && pala_world_max_threads(w) >= 3;
        pala_scene_free(s);
    }
    T_CHECK(same && n >= 700 && nt == 8 && ref[6] > 0 && ref[7] > 0, "a 3D membrane scene of %d grains: positions and walls.tsv's "
            "momenta (membrane: %.3g, %.3g N s) are the same bits on 1, 2 and 3 threads", n, ref[6], ref[7]);
}

/* Solvent: radius 0.25 mm, as heavy as a solute grain (the same speeds, so one dt
 * resolves every contact); holes 0.8 mm between bar axes, bars of radius 0.05 mm: the
 * solvent passes, a solute grain (0.5 mm) cannot.  Solute area fraction 0.4 %. */
static const char *vant_hoff =
    "dimension = 2\ncontainer = box\nbox = 0 0.12 0 0.12 0 0\nwall_material = soft\n"
    "membrane_axis = x\nmembrane_position = 0.06\nmembrane_bar_radius = 0.00005\nmembrane_spacing = 0.0008\n"
    "membrane_material = hard\ndt = 1e-5\nsteps = %ld\nmax_overlap = 0.9\nseed = %d\n"
    "[material soft]\ndensity = 1000\nyoung = 1e6\n"
    "[material heavy]\ndensity = 8000\nyoung = 1e6\n"
    "[material hard]\ndensity = 1000\nyoung = 1e8\n"
    "[grain solute]\nmaterial = soft\nshape = sphere\nradius = 0.0005\n"
    "[grain solvent]\nmaterial = heavy\nshape = sphere\nradius = 0.00025\n"
    "[group solute]\ngrain = solute\ncount = %d\nregion = box\nregion_box = 0 0.06 0 0.12 0 0\nvelocity_spread = 1\n"
    "[group left]\ngrain = solvent\ncount = %d\nregion = box\nregion_box = 0 0.06 0 0.12 0 0\nvelocity_spread = 1\n"
    "[group right]\ngrain = solvent\ncount = %d\nregion = box\nregion_box = 0.06 0.12 0 0.12 0 0\nvelocity_spread = 1\n";

static void van_t_hoff(void)
{
    enum { NS = 40, NV = 12, CHUNK = 20 };
    const long steps = 200000;
    char text[4096];
    snprintf(text, sizeof text, vant_hoff, steps, 1, NS, NV, NV);
    pala_scene *s = load("vant_hoff", text);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    int solute = tmpl_of(w, "solute");
    double ek = 0;   /* the solute's kinetic energy, summed over the samples */
    long nsamp = 0;
    int st = 0;
    for (long i = 0; i < steps / CHUNK && !st; i++) {
        st = pala_world_steps(w, CHUNK);
        for (int k = 0; k < w->n; k++)
            if (w->tid[k] == solute) ek += 0.5 * w->tmpl[solute].mass * pala_vnorm2(w->v[k]);
        nsamp++;
    }
    double kT = ek / (double)nsamp / NS, n = NS / (0.06 * 0.12), L = 0.12, T = w->t;
    double dp = (column(w, "P_mem_lo") - column(w, "P_mem_hi")) / (T * L);
    T_CHECK(st == PALA_OK && fabs(dp / (n * kT) - 1) < 0.1,
            "van 't Hoff (2D, %d solute grains on one side, %d solvent grains on each, %.1f s): the membrane's mean pressure "
            "difference p_lo - p_hi = %.5g N/m vs n_solute kT = %.5g N/m (ratio %.3f, tolerance 10 %%; status %d)",
            NS, NV, T, dp, n * kT, dp / (n * kT), st);
    pala_scene_free(s);
}

void test_membrane(void)
{
    bar_contact(3, 1);
    bar_contact(2, 1);
    bar_contact(3, 0.5);
    which_pass();
    threads();
    van_t_hoff();
}

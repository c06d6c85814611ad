/* test_surface.c: the walls of [wall NAME] sections (src/lib/surface.c) against closed
 * forms (docs/physics.md, "Walls that move"): a sphere on a conveyor belt reaches rolling
 * at t = 2V/(7 mu g) with speed 2V/7; a sphere rolling in a cylinder oscillates with period
 * 2 pi sqrt(7 (R - r) / (5 g)) and in a turning drum spins at Omega R / r; the energy
 * balance E_total + E_diss - W_walls of a bed on an oscillating plate closes to second
 * order in dt; a servo wall holds its pressure; a ball in a funnel rests where the
 * geometry puts it; and the keys, the header line and the checks. */
#include "t.h"
#include "t_world.h"
#include "contact_law.h"
#include "surface.h"
#include "container.h"
#include "neighbor.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_surface(void);

static pala_scene *scene(const char *name, const char *text)
{
    char path[256], err[2048];
    snprintf(path, sizeof path, "%s/surface_%s.txt", t_tmpdir(), name);
    t_write(path, text);
    pala_scene *s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "%s loads (%s)", name, err);
    return s;
}

/* the overlap at which a flat wall carries force F on a sphere of radius a (eq. 57, r~ = 2a) */
static double rest_overlap(const pala_world *w, double F, double a)
{
    return pow(F / (w->pm[0].kE * sqrt(2 * a)), 2.0 / 3.0);
}

static double balance(pala_world *w)
{
    pala_energy e = pala_world_energy(w);
    return e.total + w->diss - pala_world_wall_work(w);
}

/* A sphere released at rest on a belt moving at V in its plane: friction mu m g speeds it up
 * and spins it until its contact point moves with the belt, at t = 2V/(7 mu g), v = 2V/7. */
static void conveyor(const char *law)
{
    char text[2048];
    snprintf(text, sizeof text,
             "container = none\ngravity = 0 0 -9.81\ndt = 1e-5\nsteps = 1\n"
             "[material m]\ndensity = 2500\nyoung = 1e8\npoisson = 0.3\ndelta = 1\nfriction = 0.5\nslip_velocity = 1e-6\n"
             "tangential_law = %s\ntangential_stiffness = 1e5\n"
             "[wall belt]\nshape = plane\nmaterial = m\nnormal = 0 0 1\nvelocity = 1 0 0\n"
             "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.01\n"
             "[group one]\ngrain = ball\ncount = 1\nplacement = list\nat = 0 0 0.02\n", law);
    pala_scene *s = scene(law, text);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    const double r = 0.01, V = 1, mu = 0.5, g = 9.81, m = w->tmpl[0].mass;
    w->x[0].z = r - rest_overlap(w, m * g, r);   /* at rest on the belt */
    double E0 = balance(w), worst = 0, t_roll = -1, v_roll = 0;
    for (int i = 0; i < 20000 && t_roll < 0; i++) {
        pala_world_step(w);
        double vcp = w->v[0].x - r * w->w[0].y;   /* the contact point's velocity along the belt */
        if (vcp >= V * (1 - 1e-5)) { t_roll = w->t; v_roll = w->v[0].x; }
        if (i % 100 == 0) worst = fmax(worst, fabs(balance(w) - E0));
    }
    double t_want = 2 * V / (7 * mu * g), v_want = 2 * V / 7;
    T_CHECK(fabs(t_roll / t_want - 1) < 5e-3 && fabs(v_roll / v_want - 1) < 5e-3,
            "conveyor (%s friction): rolling at t = %.6g s (closed form %.6g, %+.2e) with v = %.6g m/s (2V/7 = %.6g, %+.2e)", law, t_roll,
            t_want, t_roll / t_want - 1, v_roll, v_want, v_roll / v_want - 1);
    T_CHECK(worst < 1e-6 * m * V * V, "conveyor (%s): E_total + E_diss - W_walls stays at its start (worst %.3g J, W_walls %.3g J)", law, worst,
            pala_world_wall_work(w));
    pala_scene_free(s);
}

static const char *cylinder_scene =
    "container = none\ngravity = 0 0 -9.81\ndt = 1e-5\nsteps = 1\n"
    "[material m]\ndensity = 2500\nyoung = 1e8\npoisson = 0.3\ndelta = 0.5\nfriction = 1\nslip_velocity = 1e-6\n"
    "[wall drum]\nshape = cylinder\nmaterial = m\npoint = 0 -0.05 0\naxis = 0 1 0\nradius = 0.1\nlength = 0.1\n%s\n"
    "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.01\n"
    "[group one]\ngrain = ball\ncount = 1\nplacement = list\nat = 0 0 -0.08\n";

/* A sphere rolling without slipping at the bottom of a fixed cylinder: a pendulum of length
 * R - r whose inertia is 7/5 m: T = 2 pi sqrt(7 (R - r) / (5 g)). */
static void cylinder_period(void)
{
    char text[2048];
    snprintf(text, sizeof text, cylinder_scene, "");
    pala_scene *s = scene("cylinder", text);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    const double r = 0.01, R = 0.1, g = 9.81, th = 0.05, m = w->tmpl[0].mass;
    double d = R - r + rest_overlap(w, m * g, r);
    w->x[0] = pala_v(d * sin(th), 0, -d * cos(th));
    double x0 = w->x[0].x, up[8];
    int nup = 0;
    for (int i = 0; i < 300000 && nup < 4; i++) {
        pala_world_step(w);
        double x1 = w->x[0].x;
        if (x0 < 0 && x1 >= 0) up[nup++] = w->t - w->dt * x1 / (x1 - x0);   /* upward crossings, interpolated */
        x0 = x1;
    }
    double T = nup == 4 ? (up[3] - up[0]) / 3 : 0, want = 2 * PALA_PI * sqrt(7 * (R - r) / (5 * g));
    T_CHECK(fabs(T / want - 1) < 5e-3, "rolling in a cylinder: period %.6g s against 2 pi sqrt(7 (R - r) / 5 g) = %.6g s (%+.2e)", T, want, T / want - 1);
    pala_scene_free(s);
}

/* In a drum turning at Omega (reached over spin_up), the sphere ends at the bottom spinning
 * so that its contact point moves with the wall: omega = Omega R / r. */
static void drum_spin(const char *material)
{
    char text[2048], sc[2048];
    snprintf(sc, sizeof sc, "%s", cylinder_scene);
    if (material) {   /* more keys for the material: insert them before the wall */
        char *at = strstr(sc, "[wall drum]");
        char tail[2048];
        snprintf(tail, sizeof tail, "%s", at);
        snprintf(at, sizeof sc - (size_t)(at - sc), "%s%s", material, tail);
    }
    snprintf(text, sizeof text, sc, "angular_velocity = 0 2 0\nspin_up = 1\nrotation_centre = 0 0 0");
    pala_scene *s = scene(material ? "drum-rolling" : "drum", text);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    const double r = 0.01, R = 0.1, m = w->tmpl[0].mass, T = 2 * PALA_PI * sqrt(7 * (R - r) / (5 * 9.81));
    w->x[0] = pala_v(0, 0, -(R - r + rest_overlap(w, m * 9.81, r)));
    double sum = 0, E0 = balance(w), worst = 0;
    long n = 0, n0 = lround(2.0 / w->dt), n1 = n0 + lround(2 * T / w->dt);   /* two periods after the spin-up */
    for (long i = 0; i < n1; i++) {
        pala_world_step(w);
        if (i >= n0) { sum += w->w[0].y; n++; }
        if (i % 500 == 0) worst = fmax(worst, fabs(balance(w) - E0));
    }
    double om = sum / n, want = 2 * R / r;
    const char *what = material ? "with rolling and torsion springs" : "";
    T_CHECK(fabs(om / want - 1) < 5e-3, "a sphere in a drum turning at 2 rad/s %s spins at %.6g rad/s (Omega R / r = %.6g, %+.2e)", what, om, want,
            om / want - 1);
    T_CHECK(worst < 1e-6 * pala_world_wall_work(w), "the drum %s: E_total + E_diss - W_walls stays at its start (worst %.3g J of W_walls %.3g J)", what,
            worst, pala_world_wall_work(w));
    pala_scene_free(s);
}

/* A frictionless elastic bed on a plate that oscillates vertically: the largest error of
 * E_total + E_diss - W_walls over the run falls ~4x when dt halves (second order). */
static double plate_error(double dt)
{
    char text[2048];
    snprintf(text, sizeof text,
             "gravity = 0 0 -9.81\ndt = %g\nsteps = 1\nbox = 0 0.02 0 0.02 -0.01 0.05\nwall_material = m\n"
             "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 1\nfriction = 0\n"
             "[wall plate]\nshape = plane\nmaterial = m\nnormal = 0 0 1\namplitude = 0 0 0.001\nfrequency = 25\narea = 4e-4\n"
             "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.002\n"
             "[group bed]\ngrain = ball\ncount = 12\nplacement = lattice\nregion = box\nregion_box = 0.002 0.018 0.002 0.018 0.003 0.02\n"
             "lattice_spacing = 0.0045\nvelocity_spread = 0.01\n", dt);
    pala_scene *s = scene(dt > 1.5e-6 ? "plate1" : "plate2", text);
    if (!s) return -1;
    pala_world *w = pala_scene_world(s);
    double E0 = balance(w), worst = 0;
    long n = lround(0.1 / dt);
    for (long i = 1; i <= n; i++) {
        if (pala_world_step(w) != PALA_OK) { worst = HUGE_VAL; break; }
        if (i % lround(2e-4 / dt) == 0) worst = fmax(worst, fabs(balance(w) - E0));
    }
    T_CHECK(pala_world_wall_work(w) != 0, "the plate did work on the bed (W_walls %.3g J at dt %g)", pala_world_wall_work(w), dt);
    pala_scene_free(s);
    return worst;
}

static void plate(void)
{
    double e1 = plate_error(2e-6), e2 = plate_error(1e-6);
    T_CHECK(e1 / e2 > 3.5 && e1 / e2 < 4.5, "oscillating plate: the balance's worst error %.3g J at dt, %.3g J at dt/2: ratio %.3g (second order: 4)", e1,
            e2, e1 / e2);
}

/* A servo lid on a bed in a box holds its target pressure. */
static void servo(void)
{
    pala_scene *s = scene("servo",
                          "gravity = 0 0 -9.81\ndt = 1e-5\nsteps = 1\nbox = 0 0.02 0 0.02 0 0.1\nwall_material = m\n"
                          "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.3\nfriction = 0.3\n"
                          "[wall lid]\nshape = plane\nmaterial = m\npoint = 0 0 0.02\nnormal = 0 0 -1\narea = 4e-4\n"
                          "servo_pressure = 2000\nservo_gain = 2e-5\nservo_speed = 0.05\n"
                          "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.002\n"
                          "[group bed]\ngrain = ball\ncount = 40\nplacement = lattice\nregion = box\nregion_box = 0.002 0.018 0.002 0.018 0.002 0.025\n"
                          "lattice_spacing = 0.0042\n");
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    pala_surface *lid = w->walls[w->surf0].par;
    int ok = 1;
    for (long i = 0; i < 30000 && ok; i++) ok = pala_world_step(w) == PALA_OK;
    double P0 = lid->rad, t0 = w->t;
    for (long i = 0; i < 5000 && ok; i++) ok = pala_world_step(w) == PALA_OK;
    double p = (lid->rad - P0) / ((w->t - t0) * 4e-4);
    T_CHECK(ok && fabs(p / 2000 - 1) < 0.01, "the servo lid holds %.6g Pa over the last 0.05 s (target 2000 Pa, %+.2e), having moved %.4g m", p, p / 2000 - 1,
            lid->servo[0]);
    pala_scene_free(s);
}

/* walls.tsv's d_NAME: the servo's travel.  The oedometer's lid comes down at its top speed
 * (servo_speed 0.02 m/s, from the end of the first step: dt 5e-6 s) until it touches the bed
 * at about 0.026 s: d = 0.02 (t - dt), 1.99e-5 m at t = 0.001 s; then it compresses the bed
 * more slowly. */
static void servo_travel_column(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out, "./pala run examples/oedometer.txt -o %s/oed.run --quiet --set end_time=0.04 && "
                  "awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == \"d_lid\") c = i } $1 == 0 || $1 == 200 || $1 == 8000 { print $c }' %s/oed.run/walls.tsv",
                  t_tmpdir(), t_tmpdir());
    double d0 = -1, d1 = -1, d2 = -1;
    int got = sscanf(out, "%lf %lf %lf", &d0, &d1, &d2);
    T_CHECK(rc == 0 && got == 3 && d0 == 0 && fabs(d1 / 1.99e-5 - 1) < 1e-9 && d2 > 5.2e-4 && d2 < 0.02 * 0.04,
            "walls.tsv's d_lid: 0, then 0.02 (t - dt) = 1.99e-5 m at 0.001 s, then past the 0.5 mm gap but below top speed at 0.04 s: %g %g %g (exit %d)", d0, d1, d2, rc);
    /* a walls.tsv of other columns (an older pala's had no d_lid; here one renamed) is not appended to with these:
     * the resume is refused (its rows had 29 fields, the appended ones 30) */
    rc = t_sh(out, sizeof out, "d=%s/oed.run; cp $d/walls.tsv $d/w.keep && sed -i '1s/d_lid/e_lid/' $d/walls.tsv && cp $d/walls.tsv $d/w.cut && "
              "./pala resume $d --quiet --set end_time=0.05; e=$?; cmp $d/walls.tsv $d/w.cut && echo kept $e", t_tmpdir());
    T_CHECK(strstr(out, "kept 1") && strstr(out, "its columns are not those this pala writes"), "a walls.tsv of other columns: the resume refused, the file kept: %s", out);
}

/* The circle's servo does work through its moving radius (physics.md, "Servo walls": the
 * radial velocity s' is the surface's velocity to the contacts and to W_walls): over the
 * first 0.06 s of the ring, while the servo closes on the discs and presses them,
 * E_total + E_diss - W_walls stays at its start to the step's error, which falls about 4x
 * when dt halves (second order; a work left out would not fall). */
static void radial_servo_balance(void)
{
    double worst[2] = {-1, -1}, W = 0;
    for (int h = 0; h < 2; h++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "dimension = 2\ncontainer = none\ndt = %g\nsteps = 1\n"
                 "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.3\nfriction = 0.3\n"
                 "[wall ring]\nshape = circle\nmaterial = m\nradius = 0.011\nside = inside\n"
                 "servo_pressure = 20\nservo_gain = 1e-3\nservo_speed = 0.05\n"
                 "[grain disc]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
                 "[group all]\ngrain = disc\ncount = 60\nplacement = lattice\nregion = box\nregion_box = -0.02 0.02 -0.02 0.02 0 0\n"
                 "lattice_spacing = 0.00205\n", h ? 2.5e-6 : 5e-6);
        pala_scene *s = scene(h ? "ring-half" : "ring-dt", text);
        if (!s) return;
        pala_world *w = pala_scene_world(s);
        double E0 = balance(w), most = 0;
        int ok = 1;
        for (long i = 0, n = h ? 24000 : 12000; i < n && ok; i++) {
            ok = pala_world_step(w) == PALA_OK;
            most = fmax(most, fabs(balance(w) - E0));
        }
        worst[h] = ok ? most : -1;
        W = pala_world_wall_work(w);
        pala_scene_free(s);
    }
    double q = worst[0] / worst[1];
    T_CHECK(worst[1] > 0 && W > 0 && q > 3.5 && q < 4.5, "the circle's servo: E_total + E_diss - W_walls stays at its start to %.3g J at dt, %.3g J at dt/2 "
            "(ratio %.2f, second order: 4; W_walls %.3g J)", worst[0], worst[1], q, W);
}

/* A ring of discs squeezed by a circle whose servo moves its radius holds its 2D pressure
 * (N/m), and the group placed the discs inside it only (side = inside). */
static void radial_servo(void)
{
    pala_scene *s = scene("ring",
                          "dimension = 2\ncontainer = none\ndt = 5e-6\nsteps = 1\n"
                          "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.3\nfriction = 0.3\n"
                          "[wall ring]\nshape = circle\nmaterial = m\nradius = 0.011\nside = inside\n"
                          "servo_pressure = 20\nservo_gain = 1e-3\nservo_speed = 0.05\n"
                          "[grain disc]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
                          "[group all]\ngrain = disc\ncount = 60\nplacement = lattice\nregion = box\nregion_box = -0.02 0.02 -0.02 0.02 0 0\n"
                          "lattice_spacing = 0.00205\n");
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    double far = 0;
    for (int k = 0; k < w->n; k++) far = fmax(far, hypot(w->x[k].x, w->x[k].y));
    T_CHECK(far < 0.01, "side = inside: the lattice group's 60 discs were placed inside the circle (the farthest at %.4g m of 0.011 m)", far);
    pala_surface *ring = w->walls[w->surf0].par;
    int ok = 1;
    /* the discs keep rearranging and the ring breathes with them: the mean over 0.3 s */
    for (long i = 0; i < 60000 && ok; i++) ok = pala_world_step(w) == PALA_OK;
    double P0 = ring->rad, t0 = w->t;
    for (long i = 0; i < 60000 && ok; i++) ok = pala_world_step(w) == PALA_OK;
    double p = (ring->rad - P0) / ((w->t - t0) * 2 * PALA_PI * ring->Rg);
    T_CHECK(ok && fabs(p / 20 - 1) < 0.01, "a circle's servo holds %.6g N/m on the discs (target 20, %+.2e), its radius now %.5g m", p, p / 20 - 1, ring->Rg);

    pala_scene_free(s);
}

/* A frictionless ball in a funnel (a cone of half-angle 45 degrees, tip down) comes to rest on
 * its axis, touching both sides of its meridian plane, at the height (r - d)/sin(45 deg), each
 * side carrying m g / (2 sin 45 deg) at overlap d. */
static void funnel(void)
{
    pala_scene *s = scene("funnel",
                          "container = none\ngravity = 0 0 -9.81\ndt = 1e-5\nsteps = 1\n"
                          "[material m]\ndensity = 2500\nyoung = 1e8\npoisson = 0.3\ndelta = 0.3\nfriction = 0\nnormal_damping = dashpot\n"
                          "[wall funnel]\nshape = cone\nmaterial = m\npoint = 0 0 0\naxis = 0 0 1\nradius = 0\nradius_end = 0.05\nlength = 0.05\n"
                          "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.01\n"
                          "[group one]\ngrain = ball\ncount = 1\nplacement = list\nat = 0.002 0.001 0.02\n");
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    for (long i = 0; i < 100000; i++) pala_world_step(w);
    const double r = 0.01, sa = sin(PALA_PI / 4), m = w->tmpl[0].mass;
    double want = (r - rest_overlap(w, m * 9.81 / (2 * sa), r)) / sa;
    T_CHECK(fabs(w->x[0].z - want) < 1e-4 * r && hypot(w->x[0].x, w->x[0].y) < 1e-6,
            "a ball in a funnel rests at z = %.9g m on the axis (off by %.2g m; geometry and Hertz: %.9g m)", w->x[0].z,
            hypot(w->x[0].x, w->x[0].y), want);
    pala_scene_free(s);
}

/* The header line of each shape reads back into the same wall; bad sections are refused at
 * their lines. */
static void lines_and_checks(void)
{
    pala_scene *s = scene("shapes",
                          "container = none\ndt = 1e-5\nsteps = 1\n"
                          "[material m]\ndensity = 2500\nyoung = 1e8\npoisson = 0.3\ndelta = 0.5\nfriction = 0.3\n"
                          "[wall a]\nshape = plane\nmaterial = m\nnormal = 0 1 1\nvelocity = 0.1 0 0\n"
                          "[wall b]\nshape = rectangle\nmaterial = m\npoint = 0 0 -0.1\nnormal = 0 0 1\nedge = 1 1 0\nsize = 0.2 0.1\n"
                          "[wall c]\nshape = disc\nmaterial = m\npoint = 0 0 0.2\nnormal = 0 0 -1\nradius = 0.1\namplitude = 0 0 0.01\nfrequency = 3\n"
                          "[wall d]\nshape = cylinder\nmaterial = m\npoint = 0 0 -0.2\naxis = 0 0 1\nradius = 0.3\nlength = 0.5\ncaps = both\n"
                          "angular_velocity = 0 0 1\nspin_up = 2\n"
                          "[wall e]\nshape = cone\nmaterial = m\npoint = 0 0 -0.3\naxis = 0 0 1\nradius = 0.01\nradius_end = 0.3\nlength = 0.1\ncaps = start\n"
                          "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.01\n"
                          "[group one]\ngrain = ball\ncount = 1\nplacement = list\nat = 0 0.05 0.05\n");
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    w->t = 0.7;
    pala_world r;
    pala_world_init(&r);
    r.dim = 3;
    r.t = 0.7;
    for (int i = 0; i < w->nwalls; i++) {
        char a[2048], b[2048];
        pala_world_wall_line(w, i, a, sizeof a);
        int rd = pala_world_wall_read(&r, a);
        pala_world_wall_line(&r, i, b, sizeof b);
        pala_draw da[128], db[128];
        int na = pala_world_wall_draw(w, i, da, 128), nb = pala_world_wall_draw(&r, i, db, 128);
        T_CHECK(rd == 1 && !strcmp(a, b) && na == nb && na > 0 && !memcmp(da, db, (size_t)na * sizeof *da),
                "wall %d's header line reads back into the same wall, drawn with the same %d shapes at t = 0.7 s ('%.60s...')", i, na, a);
    }
    pala_world_free(&r);
    pala_scene_free(s);
    static const struct { const char *sect, *want; } bad[] = {
        {"[wall x]\nshape = cone\nmaterial = m\nradius = 0.1\n", "a cone needs a finite length"},
        {"[wall x]\nshape = plane\nmaterial = m\nnormal = 0 0 0\n", "'normal'"},
        /* directions whose length squared is past a double: unit() gave 0 0 0 */
        {"[wall x]\nshape = plane\nmaterial = m\nnormal = 1e308 1e308 1e308\n", "'normal': give a direction such as 0 0 1"},
        {"[wall x]\nshape = cylinder\nmaterial = m\nradius = 0.1\naxis = 1e200 0 0\n", "'axis': give the direction of the axis such as 0 0 1"},
        /* the dt check said ok: its contact time was NaN */
        {"[wall x]\nshape = plane\nmaterial = m\npoint = 0 0 -1\nnormal = 0 0 1\namplitude = 0 0 1e300\nfrequency = 1e300\n",
         "[wall x]'s speed is past a double"},
        {"[wall x]\nshape = rectangle\nmaterial = m\nedge = 0 0 1\nsize = 1 1\n", "'edge'"},
        {"[wall x]\nshape = cylinder\nmaterial = m\n", "'radius"},
        {"[wall x]\nshape = plane\nmaterial = m\nservo_pressure = 100\nservo_gain = 1\nservo_speed = 1\n", "needs 'area'"},
        {"[wall x]\nshape = rectangle\nmaterial = m\nsize = 1 0\n", "'size"},
        {"[wall x]\nmaterial = m\n", "needs 'shape'"},
        {"[wall x]\nshape = plane\nmaterial = steel\n", "no [material steel]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[1024], path[256], err[2048];
        snprintf(text, sizeof text,
                 "container = none\ndt = 1e-5\nsteps = 1\n[material m]\ndensity = 2500\nyoung = 1e8\npoisson = 0.3\ndelta = 0.5\n"
                 "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.01\n[group one]\ngrain = ball\ncount = 1\nplacement = list\nat = 0 0 0\n%s",
                 bad[i].sect);
        snprintf(path, sizeof path, "%s/surface_bad%zu.txt", t_tmpdir(), i);
        t_write(path, text);
        pala_scene *b = t_load_scene(path, 0, NULL, err, sizeof err);
        T_CHECK(!b && strstr(err, bad[i].want) && strstr(err, path), "a bad [wall] section is refused at its file and line: %s", err);
        pala_scene_free(b);
    }
}

/* The examples with moving walls give the same bits on 1, 2 and 3 threads. */
static void threads(void)
{
    static const char *const ex[] = {"drum", "shear-cell", "oedometer", "hopper"};
    for (int i = 0; i < 4; i++) {
        char out[4096];
        int rc = t_sh(out, sizeof out,
                      "for t in 1 2 3; do ./pala run examples/%s.txt --quiet --force --set steps=600 --set energy_every=50 --set trajectory_every=200 "
                      "--threads $t -o %s/surf-%s-$t || exit 9; done; for t in 2 3; do for f in energy.tsv walls.tsv trajectory.txt; do "
                      "cmp %s/surf-%s-1/$f %s/surf-%s-$t/$f || exit 1; done; done",
                      ex[i], t_tmpdir(), ex[i], t_tmpdir(), ex[i], t_tmpdir(), ex[i]);
        T_CHECK(rc == 0, "%s: energy.tsv, walls.tsv and trajectory.txt are the same bits on 1, 2 and 3 threads (exit %d) %.200s", ex[i], rc, out);
    }
}

/* The drum's pictures: the VTK export draws the turning drum at each frame, the snapshot
 * and the viewer read its header line. */
static void pictures(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out,
                  "./pala run examples/drum.txt --quiet --force --set end_time=0.02 --set trajectory_every=1000 -o %s/surf-pic && "
                  "./pala export %s/surf-pic --format vtk > /dev/null && test -s %s/surf-pic/vtk/walls_000000.vtp && "
                  "! cmp -s %s/surf-pic/vtk/walls_000000.vtp %s/surf-pic/vtk/walls_002000.vtp && "
                  "./pala snapshot %s/surf-pic > /dev/null && ./pala view %s/surf-pic > /dev/null",
                  t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "the drum: pala export --format vtk writes walls_STEP.vtp per frame (the drum turned between the first and the last), "
            "pala snapshot and pala view read the run (exit %d) %.300s", rc, out);
}

/* A program builds a wall by the names of its keys, as a [wall] section would. */
static void by_api(void)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 2500, .E = 1e8, .sigma = 0.3, .delta = 1, .mu = 0.5, .nu = 1e-6};
    pala_world_add_material(&w, &m);
    pala_world_add_grain(&w, pala_world_add_sphere_template(&w, 0, 0.01), pala_v(0, 0, 0.0099999), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    w.g = pala_v(0, 0, -9.81);
    w.dt = 1e-5;
    int i = pala_world_add_wall(&w, "surface", 0);
    int ok = i == 0 && !pala_world_wall_set(&w, i, "shape", "plane") && !pala_world_wall_set(&w, i, "velocity", "1 0 0");
    T_CHECK(ok && pala_world_wall_set(&w, i, "material", "m") < 0 && pala_world_wall_set(&w, i, "radius", "-1") < 0,
            "pala_world_wall_set sets a [wall]'s keys by name, refuses its material and a bad value (%s)", w.why);
    ok &= pala_world_prepare(&w) == PALA_OK && pala_world_steps(&w, 2000) == PALA_OK;
    T_CHECK(ok && fabs(w.v[0].x / (0.5 * 9.81 * 0.02) - 1) < 0.02, "the belt built by the library drives the sphere (v_x %.4g m/s after 0.02 s, mu g t = 0.0981; %s)", w.v[0].x, w.why);
    pala_world_free(&w);
}

/* An ASCII STL of the box [0, L]^3: 12 triangles, normals out. */
static void cube_stl(const char *path, double L)
{
    static const int q[6][4][3] = {{{0,0,0},{0,1,0},{1,1,0},{1,0,0}}, {{0,0,1},{1,0,1},{1,1,1},{0,1,1}}, {{0,0,0},{1,0,0},{1,0,1},{0,0,1}},
                                   {{0,1,0},{0,1,1},{1,1,1},{1,1,0}}, {{0,0,0},{0,0,1},{0,1,1},{0,1,0}}, {{1,0,0},{1,1,0},{1,1,1},{1,0,1}}};
    char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text, "solid cube\n");
    for (int f = 0; f < 6; f++)
        for (int t = 0; t < 2; t++) {
            const int *v[3] = {q[f][0], q[f][1 + t], q[f][2 + t]};
            n += (size_t)snprintf(text + n, sizeof text - n, "facet normal 0 0 0\nouter loop\n");
            for (int i = 0; i < 3; i++) n += (size_t)snprintf(text + n, sizeof text - n, "vertex %g %g %g\n", v[i][0] * L, v[i][1] * L, v[i][2] * L);
            n += (size_t)snprintf(text + n, sizeof text - n, "endloop\nendfacet\n");
        }
    snprintf(text + n, sizeof text - n, "endsolid cube\n");
    t_write(path, text);
}

/* Grains in a box of 12 triangles (a closed mesh, grains inside) move as in the box of six
 * planes: the face hits are the planes' (to rounding). */
static void mesh_box(void)
{
    char stl[256], text[2048];
    snprintf(stl, sizeof stl, "%s/surface_cube.stl", t_tmpdir());
    cube_stl(stl, 0.02);
    const char *common = "dt = 1e-5\nsteps = 1\ngravity = 0 0 -9.81\n"
                         "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.5\nfriction = 0.3\n"
                         "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.002\n"
                         "[group g]\ngrain = ball\ncount = 20\nplacement = lattice\nregion = box\nregion_box = 0.002 0.018 0.002 0.018 0.002 0.018\n"
                         "lattice_spacing = 0.0045\nvelocity_spread = 0.3\n";
    snprintf(text, sizeof text, "container = box\nbox = 0 0.02 0 0.02 0 0.02\nwall_material = m\n%s", common);
    pala_scene *a = scene("planes", text);
    snprintf(text, sizeof text, "container = none\n%s[wall cube]\nshape = mesh\nmaterial = m\nfile = surface_cube.stl\nside = inside\n", common);
    pala_scene *b = scene("mesh", text);
    if (!a || !b) { pala_scene_free(a); pala_scene_free(b); return; }
    pala_world *wa = pala_scene_world(a), *wb = pala_scene_world(b);
    pala_world_steps(wa, 3000);
    pala_world_steps(wb, 3000);
    double worst = 0, scale = 0;
    for (int k = 0; k < wa->n; k++) {
        worst = fmax(worst, pala_vnorm(pala_vsub(wa->x[k], wb->x[k])) + 1e-3 * pala_vnorm(pala_vsub(wa->v[k], wb->v[k])));
        scale = fmax(scale, pala_vnorm(wa->v[k]));
    }
    T_CHECK(worst < 1e-12 * 0.02 && scale > 0.01, "20 grains bouncing for 0.03 s in a mesh box of 12 triangles move as in the box of planes "
            "(largest difference %.3g m, against 1e-12 of the box's size)", worst);
    pala_scene_free(a);
    pala_scene_free(b);
    /* a resume refuses a run whose wall's mesh file changed since (it ran on, silently, in
     * the new mesh), and takes it again once the file is restored */
    char out[4096];
    int rc = t_sh(out, sizeof out, "d=%s; ./pala run $d/surface_mesh.txt -o $d/mres.run --quiet --set steps=200 && cp $d/surface_cube.stl $d/cube.keep && "
                  "echo >> $d/surface_cube.stl && ./pala resume $d/mres.run --quiet --set steps=400", t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "a [wall]'s mesh file of") && strstr(out, "changed since the run"), "resume after the wall's STL changed: refused (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "d=%s; cp $d/cube.keep $d/surface_cube.stl && ./pala resume $d/mres.run --quiet --set steps=400", t_tmpdir());
    T_CHECK(rc == 0, "... and resumed once it is restored (exit %d) %s", rc, out);
}

/* Nine spheres rolling and bouncing across a bumpy floor of 7200 triangles (every face its own
 * patch: contacts on faces, edges and vertices): after each step, the floor's touches of
 * every grain from the faces gathered at the last list build (pala_meshnear) are those of
 * the mesh's grid, bit for bit, so the forces are. */
static void mesh_near(void)
{
    char stl[256], text[2048];
    snprintf(stl, sizeof stl, "%s/surface_bumps.stl", t_tmpdir());
    FILE *f = fopen(stl, "w");
    if (!f) { T_CHECK(0, "create %s", stl); return; }
    enum { N = 60 };
    const double h = 0.001;
    fprintf(f, "solid bumps\n");
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            double p[4][3];
            for (int k = 0; k < 4; k++) {
                double x = (i + (k == 1 || k == 2)) * h, y = (j + (k >= 2)) * h;
                p[k][0] = x; p[k][1] = y; p[k][2] = 2e-4 * sin(2 * PALA_PI * x / 0.007) * cos(2 * PALA_PI * y / 0.011);
            }
            static const int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int t = 0; t < 2; t++) {
                fprintf(f, "facet normal 0 0 0\nouter loop\n");
                for (int k = 0; k < 3; k++) fprintf(f, "vertex %.17g %.17g %.17g\n", p[tri[t][k]][0], p[tri[t][k]][1], p[tri[t][k]][2]);
                fprintf(f, "endloop\nendfacet\n");
            }
        }
    fprintf(f, "endsolid bumps\n");
    fclose(f);
    snprintf(text, sizeof text,
             "container = none\ngravity = 0 0 -9.81\ndt = 1e-5\nsteps = 1\n"
             "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.1\nfriction = 0.5\n"
             "[wall floor]\nshape = mesh\nmaterial = m\nfile = surface_bumps.stl\n"
             "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.0015\n"
             "[group g]\ngrain = ball\ncount = 9\nplacement = lattice\nregion = box\nregion_box = 0.02 0.04 0.02 0.04 0.00175 0.0018\n"
             "lattice_spacing = 0.008\n");
    pala_scene *sc = scene("bumps", text);
    if (!sc) return;
    pala_world *w = pala_scene_world(sc);
    for (int k = 0; k < w->n; k++) w->v[k] = pala_v(0.4 * cos(k), 0.4 * sin(k), 0);
    const pala_wall *wl = &w->walls[w->surf0];
    pala_surface *sf = wl->par;
    int cand[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8}, same = 1, cached = 0, touches = 0, edges = 0;
    for (int step = 0; step < 4000; step++) {
        pala_world_step(w);
        pala_wall_touch t1[64], t2[64];
        memset(t1, 0, sizeof t1);
        memset(t2, 0, sizeof t2);
        int u1, u2, n1 = wl->kind->touch(w, wl, cand, w->n, t1, 64, &u1);
        const pala_meshnear *mn = sf->near;
        cached += n1 > 0 && mn && mn->builds == w->nl->builds && mn->drift + w->nl->drift < mn->skin;
        sf->near = NULL;   /* the grid's query */
        int n2 = wl->kind->touch(w, wl, cand, w->n, t2, 64, &u2);
        sf->near = (pala_meshnear *)mn;
        same &= n1 == n2 && u1 == u2 && !memcmp(t1, t2, (size_t)n1 * sizeof *t1);
        touches += n1;
        for (int i = 0; i < n1; i++) edges += (t1[i].id & 0xffffffu) >= (unsigned)7200;   /* past the patches: an edge or a vertex */
    }
    T_CHECK(same && w->n == 9 && cached > 3000 && touches > 10000 && edges > 100,
            "%d spheres rolling across a bumpy floor of 7200 triangles for 0.04 s: the touches from the faces gathered at each list build are the grid's, "
            "bit for bit (%s; %d steps compared from the gathered faces, %d touches, %d on edges or vertices)", w->n, same ? "same" : "DIFFERENT", cached, touches, edges);
    pala_scene_free(sc);
}

/* A surface of revolution skips the segments of its meridian whose box lies farther than a
 * component's radius (surface.c, shape_hits): for spheres at many places about a funnel
 * closed at its wide end, a capped cylinder and a disc (near the axis, the rims, inside and out), the touches
 * are those of every segment, bit for bit, and a wall candidate is listed (kind.clear) exactly
 * when the shape's distance is at most its reach. */
static void revolution_far(void)
{
    static const char *const walls[3] = {
        "shape = cone\npoint = 0 0 0\naxis = 0 0 1\nradius = 0.005\nradius_end = 0.03\nlength = 0.04\ncaps = end\n",
        "shape = cylinder\npoint = 0 0 0\naxis = 0 0 1\nradius = 0.03\nlength = 0.04\ncaps = both\n",
        "shape = disc\npoint = 0 0 0.02\nnormal = 0 0 1\nradius = 0.03\n"};
    int same = 1, listed = 1, touches = 0, rims = 0, across = 0;
    for (int c = 0; c < 3; c++) {
        char text[2048], name[32];
        snprintf(text, sizeof text,
                 "container = none\ngravity = 0 0 0\ndt = 1e-5\nsteps = 1\n"
                 "[material m]\ndensity = 2500\nyoung = 1e8\npoisson = 0.3\ndelta = 1\nfriction = 0.5\n"
                 "[wall w]\nmaterial = m\n%s[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.006\n"
                 "[group one]\ngrain = ball\ncount = 1\nplacement = list\nat = 1 1 1\n", walls[c]);
        snprintf(name, sizeof name, "far%d", c);
        pala_scene *sc = scene(name, text);
        if (!sc) return;
        pala_world *w = pala_scene_world(sc);
        const pala_wall *wl = &w->walls[w->surf0];
        pala_surface *sf = wl->par;
        int cand[1] = {0};
        for (int i = 0; i < 20000; i++) {
            /* a quasi-random centre: rho up to 35 mm (a tenth of them on the axis), z from -10 to 50 mm */
            double u = fmod(i * 0.6180339887498949, 1), v = fmod(i * 0.7548776662466927, 1), f = fmod(i * 0.5698402909980532, 1);
            double rho = i % 10 ? 0.035 * u : 0, z = -0.01 + 0.06 * v;
            pala_vec3 x = pala_v(rho * cos(2 * PALA_PI * f), rho * sin(2 * PALA_PI * f), z);
            w->x[0] = x;
            if (w->pc) w->pc[0] = x;
            pala_wall_touch t1[64], t2[64];
            memset(t1, 0, sizeof t1);
            memset(t2, 0, sizeof t2);
            int u1, u2, n1 = wl->kind->touch(w, wl, cand, 1, t1, 64, &u1);
            double box[3][4];
            memcpy(box, sf->mbox, sizeof box);
            for (int k = 0; k < 3; k++) { sf->mbox[k][0] = sf->mbox[k][2] = -HUGE_VAL; sf->mbox[k][1] = sf->mbox[k][3] = HUGE_VAL; }
            int n2 = wl->kind->touch(w, wl, cand, 1, t2, 64, &u2);   /* every segment */
            memcpy(sf->mbox, box, sizeof box);
            same &= n1 == n2 && u1 == u2 && !memcmp(t1, t2, (size_t)n1 * sizeof *t1);
            touches += n1;
            for (int k = 0; k < n1; k++) { rims += (t1[k].id & 1u) != 0; across += (t1[k].id & 0xffffffu) >= 16; }
            for (int k = 0; k < 3; k++) {   /* listed exactly when the distance (-cut at radius 0) is at most R */
                double R = 0.006 + 0.001 * k;
                listed &= wl->kind->clear(w, wl, x, R) == (-wl->kind->cut(w, wl, x, 0) > R);
            }
        }
        pala_scene_free(sc);
    }
    T_CHECK(same && listed && touches > 5000 && rims > 200 && across > 100,
            "spheres about a funnel (a cone closed at its wide end), a capped cylinder and a disc: the touches with the far segments skipped are those of every segment, bit for bit "
            "(%s; %d touches, %d at rims, %d across the axis), and the candidates' test is the distance's (%s)", same ? "same" : "DIFFERENT", touches,
            rims, across, listed ? "same" : "DIFFERENT");
}

void test_surface(void)
{
    revolution_far();
    mesh_near();
    mesh_box();
    by_api();
    pictures();
    threads();
    conveyor("regularised");
    conveyor("spring");
    conveyor("mindlin");
    cylinder_period();
    drum_spin(NULL);
    drum_spin("rolling_stiffness = 1e-3\nrolling_friction = 0.1\ntorsion_stiffness = 1e-3\ntorsion_friction = 0.1\n");
    plate();
    servo();
    servo_travel_column();
    radial_servo();
    radial_servo_balance();
    funnel();
    lines_and_checks();
}

/* test_orient.c: sphere_orientation = fixed (docs/physics.md, "Spheres whose orientation is
 * fixed").  No force on a sphere depends on its orientation, so a run that leaves every
 * sphere's rotation vector as placed moves its spheres exactly as one that integrates it:
 *  - in 3D (spheres of two sizes, so blocks of one template and blocks of several; the
 *    tangential, rolling and torsion springs, so the angular velocities matter; a few spheres
 *    spinning so fast that they turn by more than 0.1 rad in half a step, the general path
 *    of the end of the step) and in 2D (discs): positions, velocities and angular
 *    velocities in trajectory.txt the same bytes, walls.tsv the same bytes, E_kin the same
 *    and E_rot the same to 1e-13 (it is computed in the body frame); the rotation vectors of
 *    the fixed run those of the first frame, of the tracked run not;
 *  - on 1 and 2 threads the same bytes;
 *  - a grain type that is not a sphere, or a sphere with a dipole, is refused, naming the key;
 *  - a non-finite angular velocity stops the step as it does when r is tracked (the check of
 *    the state takes omega in r's place): 2D discs, 3D spheres, and charged spheres in a
 *    magnetic field (the general path of the end of the step). */
#include "t.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void test_orient(void);

#define DIR "build/tmp/orient"

static const char *gas3 =
    "dt = 1e-5\nsteps = 600\ncontainer = box\nbox = 0 0.02 0 0.02 0 0.02\nwall_material = m\ngravity = 0 0 -9.81\n"
    "tangential_law = spring\nenergy_every = 100\ntrajectory_every = 200\nseed = 3\n"
    "[material m]\ndensity = 2500\nyoung = 1e7\ndelta = 0.5\nfriction = 0.4\ntangential_stiffness = 3000\n"
    "rolling_stiffness = 0.003\nrolling_friction = 0.1\ntorsion_stiffness = 0.003\ntorsion_friction = 0.1\n"
    "[grain a]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
    "[grain b]\nmaterial = m\nshape = sphere\nradius = 0.0007\n"
    "[group g]\ngrain = a\ncount = 200\nplacement = lattice\nregion = box\nregion_box = 0.0015 0.0185 0.0015 0.0185 0.0015 0.012\n"
    "lattice_spacing = 0.0024\nvelocity_spread = 0.5\n"
    "[group s]\ngrain = b\ncount = 100\nplacement = lattice\nregion = box\nregion_box = 0.0015 0.0185 0.0015 0.0185 0.0135 0.0185\n"
    "lattice_spacing = 0.0017\nangular_velocity = 3000 0 30000\n";

static const char *gas2 =
    "dimension = 2\ndt = 1e-5\nsteps = 600\ncontainer = box\nbox = 0 0.03 0 0.03 -0.01 0.01\nwall_material = m\ngravity = 0 -9.81 0\n"
    "tangential_law = spring\nenergy_every = 100\ntrajectory_every = 200\nseed = 4\n"
    "[material m]\ndensity = 2500\nyoung = 1e7\ndelta = 0.5\nfriction = 0.4\ntangential_stiffness = 3000\n"
    "[grain a]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
    "[group g]\ngrain = a\ncount = 120\nplacement = lattice\nregion = box\nregion_box = 0.0015 0.0285 0.0015 0.0285 0 0\n"
    "lattice_spacing = 0.0024\nvelocity_spread = 0.5\nangular_velocity = 0 0 30000\n";

/* A run of SCENE with and without the key (the fixed one on THREADS threads): the checks of
 * the header.  cmp prints nothing when the bytes agree. */
static void compare(const char *name, const char *scene, int threads)
{
    char path[256], out[4096];
    snprintf(path, sizeof path, DIR "/%s.txt", name);
    t_write(path, scene);
    int rc = t_sh(out, sizeof out,
                  "cd " DIR " && P=../../../pala && $P run %s.txt -o %s.track --force --quiet --threads 1 2>> err.log && "
                  "$P run %s.txt -o %s.fixed --force --quiet --threads %d --set sphere_orientation=fixed 2>> err.log && "
                  "cmp %s.track/walls.tsv %s.fixed/walls.tsv",
                  name, name, name, name, threads, name, name);
    T_CHECK(rc == 0, "%s: both runs, walls.tsv the same bytes (exit %d) %s", name, rc, out);
    /* after each "frame" line, a line a grain: x y z, r, v, omega (12 numbers) */
    rc = t_sh(out, sizeof out,
              "cd " DIR " && paste -d ' ' %s.track/trajectory.txt %s.fixed/trajectory.txt | awk '"
              "/^frame/ { f++; k = 0; next } f && NF == 24 { k++;"
              " for (i = 1; i <= 12; i++) if ((i < 4 || i > 6) && $i != $(i + 12)) { print \"x, v or omega differ at line \" NR; exit 1 }"
              " r = $16 \" \" $17 \" \" $18; if (f == 1) r0[k] = r; else if (r != r0[k]) { print \"fixed r moved at line \" NR; exit 2 }"
              " if ($4 \" \" $5 \" \" $6 != r) moved++ }"
              " END { if (f < 3) { print \"frames: \" f; exit 3 } print moved + 0 }'",
              name, name);
    long moved = 0;
    sscanf(out, "%ld", &moved);
    T_CHECK(rc == 0 && moved > 0, "%s: positions, velocities and angular velocities the same bytes in every frame; the fixed run's "
            "rotation vectors those of frame 0, the tracked run's not (%ld differ) (exit %d) %s", name, moved, rc, out);
    rc = t_sh(out, sizeof out,
              "cd " DIR " && paste %s.track/energy.tsv %s.fixed/energy.tsv | awk -F '\\t' 'NR == 1 { h = NF / 2; for (i = 1; i <= h; i++) c[$i] = i; next }"
              " { a = $(c[\"E_kin\"]); b = $(c[\"E_kin\"] + h); if (a != b) { print \"E_kin differs\"; exit 1 }"
              " a = $(c[\"E_rot\"]); b = $(c[\"E_rot\"] + h); d = a - b; if (d < 0) d = -d; if (d > 1e-13 * a) { print \"E_rot\", a, b; exit 2 } n++ }"
              " END { if (n < 5) exit 3 }'",
              name, name);
    T_CHECK(rc == 0, "%s: E_kin the same, E_rot the same to 1e-13 (exit %d) %s", name, rc, out);
}

static void refused(const char *what, const char *grain)
{
    char scene[2048], out[4096];
    snprintf(scene, sizeof scene,
             "dt = 1e-5\nsteps = 10\ncontainer = box\nbox = 0 0.02 0 0.02 0 0.02\nwall_material = m\nsphere_orientation = fixed\n"
             "[material m]\ndensity = 2500\nyoung = 1e7\n[grain a]\nmaterial = m\n%s\n"
             "[group g]\ngrain = a\ncount = 5\nregion = box\nregion_box = 0.004 0.016 0.004 0.016 0.004 0.016\n",
             grain);
    t_write(DIR "/refused.txt", scene);
    int rc = t_sh(out, sizeof out, "cd " DIR " && ../../../pala run refused.txt -o refused.run --force --quiet 2>&1");
    T_CHECK(rc != 0 && strstr(out, "sphere_orientation") && strstr(out, what), "%s: refused, naming the key (exit %d) %s", what, rc, out);
}

/* Eight spheres (discs in 2D) in a box, stepped twice, then one's angular velocity made NaN:
 * the next steps report an unstable state, fixed or tracked.  lorentz: charged, in B along z
 * (the general path of the end of the step). */
static void nan_omega(int dim, int fixed, int lorentz)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 0.49, .mu = 0.3, .nu = 1e-3};
    int mat = pala_world_add_material(&w, &m), t = pala_world_add_sphere_template(&w, mat, 1e-3);
    w.dim = dim;
    for (int i = 0; i < 8; i++)
        pala_world_add_grain(&w, t, pala_v(3e-3 * (i + 1), 5e-3, dim == 2 ? 0 : 5e-3), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    pala_world_set_box(&w, pala_v(0, 0, dim == 2 ? -0.01 : 0), pala_v(0.03, 0.03, dim == 2 ? 0.01 : 0.03), mat);
    w.dt = 1e-6;
    w.sphere_orientation = fixed ? PALA_SPHERES_FIXED : PALA_SPHERES_TRACK;
    if (lorentz) { w.tmpl[t].charge = 1e-9; w.B = pala_v(0, 0, 0.1); }
    int st = pala_world_prepare(&w);
    if (st == PALA_OK) st = pala_world_steps(&w, 2);
    T_CHECK(st == PALA_OK, "nan_omega %dD%s %s: prepared and stepped (%s)", dim, lorentz ? " in B" : "", fixed ? "fixed" : "track", pala_world_error(&w));
    w.w[3] = pala_v(0, 0, (double)NAN);
    st = pala_world_steps(&w, 3);
    T_CHECK(st == PALA_UNSTABLE, "%dD%s, %s: a NaN angular velocity stops the step (status %d: %s)", dim, lorentz ? " in B" : "",
            fixed ? "fixed" : "track", st, pala_world_error(&w));
    pala_world_free(&w);
}

void test_orient(void)
{
    T_CHECK(t_sh(NULL, 0, "rm -rf " DIR " && mkdir -p " DIR) == 0, "mkdir " DIR);
    compare("gas3", gas3, 1);
    compare("gas3", gas3, 2);
    compare("gas2", gas2, 2);
    refused("is not a sphere", "shape = random\ncomponents = 2 3\ncomponent_radius = 0.001 0.0015");
    refused("dipole", "shape = sphere\nradius = 0.001\nelectric_dipole = 0 0 1e-12");
    {   /* a disc listed before the arc grains it shares the world with: named as such */
        char out[4096];
        t_write(DIR "/arcmix.txt",
                "dimension = 2\ndt = 4e-6\nsteps = 10\ncontainer = box\nbox = 0 0.1 0 0.1 -0.01 0.01\nwall_material = m\n"
                "sphere_orientation = fixed\n[material m]\ndensity = 2500\nyoung = 1e7\n"
                "[grain d]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
                "[grain g]\nmaterial = m\nshape = arcs\narcs_shape = triangle\nradius = 0.0014\ncorner_radius = 0.00042\nside_radius = 0.0056\n"
                "[group d]\ngrain = d\ncount = 10\nregion = box\nregion_box = 0.002 0.098 0.002 0.098 0 0\n"
                "[group g]\ngrain = g\ncount = 10\nregion = box\nregion_box = 0.002 0.098 0.002 0.098 0 0\n");
        int rc = t_sh(out, sizeof out, "cd " DIR " && ../../../pala run arcmix.txt -o arcmix.run --force --quiet 2>&1");
        T_CHECK(rc != 0 && strstr(out, "arcmix.txt:7:") && strstr(out, "[grain d] is a disc among arc grains"),
                "a disc among arc grains: refused at the key's line, saying why (exit %d) %s", rc, out);
    }
    for (int fixed = 0; fixed < 2; fixed++) {
        nan_omega(2, fixed, 0);
        nan_omega(3, fixed, 0);
        nan_omega(3, fixed, 1);
    }
}

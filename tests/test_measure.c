/* test_measure.c: pala measure against closed forms
 * (docs/physics.md, "Contacts and stress"): the solid of a sphere in a box, lattices (packing fraction, coordination,
 * fabric), an ideal gas (kinetic stress n kT), a static column (the stress at the floor is
 * the weight over the floor's area, and walls.tsv's pressure), an isotropic compression (the
 * mean stress is the walls' pressure), two clumps (coordination 1 however many of their
 * components touch), the angle of repose (bench/heap/angle.sh's, and a refusal on a flat
 * bed); the same quantities during a run ([measure NAME] sections, measure-NAME.tsv): the
 * gas's and the column's, equal to pala measure's on the same frame, continued by pala
 * resume as if the run had never stopped, and their keys' errors. */
#include "t.h"
#include "contacts.h"
#include "measure.h"
#include "tsv.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_measure_geometry(void);
void test_measure_lattice(void);
void test_measure_gas(void);
void test_measure_column(void);
void test_measure_compression(void);
void test_measure_clumps(void);
void test_measure_angle(void);
void test_contacts_output(void);
void test_measure_section(void);
void test_measure_reader(void);
void test_measure_fmt17(void);

#define D "build/tmp/measure"

/* a control file from printf's fmt */
static void scene(const char *path, const char *fmt, ...)
{
    FILE *f = fopen(path, "w");
    if (!f) { T_CHECK(0, "create %s", path); return; }
    va_list ap;
    va_start(ap, fmt);
    vfprintf(f, fmt, ap);
    va_end(ap);
    fclose(f);
}

/* the mean of quantity name in pala measure's table on its output (NAN if absent) */
static double mean_of(const char *out, const char *name)
{
    char key[64];
    snprintf(key, sizeof key, "\n%s\t", name);
    const char *p = strstr(out, key);
    return p ? strtod(p + strlen(key), NULL) : (double)NAN;
}

/* column col of the last row of TSV file path (NAN if absent) */
static double tsv_last(const char *path, const char *col)
{
    pala_tsv t;
    double v = (double)NAN;
    if (pala_tsv_read(&t, path, PALA_TSV_NUMERIC, stderr) == 0 && pala_tsv_col(&t, col) >= 0 && t.nrow > 0)
        v = t.num[(t.nrow - 1) * t.ncol + pala_tsv_col(&t, col)];
    pala_tsv_free(&t);
    return v;
}

/* the materials and the top of a scene without gravity of spheres of radius a */
static const char *mat =
    "[material m]\ndensity = 2600\nyoung = 1e7\npoisson = 0.3\ndelta = 1\nfriction = 0\n\n";

void test_measure_geometry(void)
{
    const double a = 1.3, V = 4.0 / 3.0 * PALA_PI * a * a * a;
    const double all[2][3] = {{-5, -5, -5}, {5, 5, 5}};
    T_NEAR(pala_sphere_box_volume(a, all[0], all[1]), V, 1e-12 * V, "a ball inside the box: 4/3 pi a^3");
    /* a cap of height h below the plane z = a - h: pi h^2 (3a - h) / 3 */
    const double h = 0.4, cap_lo[3] = {-5, -5, a - h}, cap = PALA_PI * h * h * (3 * a - h) / 3;
    T_NEAR(pala_sphere_box_volume(a, cap_lo, all[1]), cap, 1e-12 * V, "a cap: pi h^2 (3a - h) / 3");
    /* the eight boxes about any inner point add up to the ball: edges and corners cut it */
    const double p[3] = {0.31 * a, -0.27 * a, 0.52 * a};
    double sum = 0, octant = 0;
    for (int o = 0; o < 8; o++) {
        double lo[3], hi[3];
        for (int k = 0; k < 3; k++) {
            lo[k] = o >> k & 1 ? p[k] : -5;
            hi[k] = o >> k & 1 ? 5 : p[k];
        }
        sum += pala_sphere_box_volume(a, lo, hi);
    }
    T_NEAR(sum, V, 1e-9 * V, "the eight boxes about an inner point hold the ball");
    const double o_lo[3] = {0, 0, 0};
    octant = pala_sphere_box_volume(a, o_lo, all[1]);
    T_NEAR(octant, V / 8, 1e-9 * V, "an octant of the ball: 1/8 of it (a corner at its centre)");
    /* a thin slab across it: pi (a^2 t - ...) exactly, and a wrong factor in the chords fails */
    const double s_lo[3] = {-5, -0.2, -5}, s_hi[3] = {5, 0.3, 5};
    double slab = PALA_PI * (a * a * 0.5 - (0.3 * 0.3 * 0.3 + 0.2 * 0.2 * 0.2) / 3);
    T_NEAR(pala_sphere_box_volume(a, s_lo, s_hi), slab, 1e-9 * V, "a slab across the ball (cut along y, the discs' chords)");
    /* the disc: a quadrant, and the four rectangles about an inner point */
    T_NEAR(pala_disc_rect_area(a, 0, 5, 0, 5), PALA_PI * a * a / 4, 1e-12, "a quarter disc");
    double s2 = pala_disc_rect_area(a, -5, 0.3, -5, -0.6) + pala_disc_rect_area(a, 0.3, 5, -5, -0.6) + pala_disc_rect_area(a, -5, 0.3, -0.6, 5)
              + pala_disc_rect_area(a, 0.3, 5, -0.6, 5);
    T_NEAR(s2, PALA_PI * a * a, 1e-12, "the four rectangles about an inner point hold the disc");
    /* a segment: a^2 acos(d/a) - d sqrt(a^2 - d^2) */
    double d = 0.5;
    T_NEAR(pala_disc_rect_area(a, d, 5, -5, 5), a * a * acos(d / a) - d * sqrt(a * a - d * d), 1e-12, "a circular segment");
}

/* A lattice of spheres of radius a, n^3 cells of side A with basis b[0..nb), scaled by
 * (1 - 1e-6) so neighbours overlap; steps = 0; measured over 3^3 cells from cell 1 offset by
 * A/8 (no grain centre, no contact point on the region's faces).  Checks phi, Z, fabric. */
static void lattice(const char *name, int n, double A, const double (*b)[3], int nb, double phi, int Z, int threads)
{
    char path[256], run[256], out[8192];
    const double a = 0.001, sc = 1 - 1e-6;
    snprintf(path, sizeof path, D "/%s.txt", name);
    snprintf(run, sizeof run, D "/%s.run", name);
    FILE *f = fopen(path, "w");
    if (!f) { T_CHECK(0, "create %s", path); return; }
    fprintf(f, "container = box\nbox = %.17g %.17g %.17g %.17g %.17g %.17g\nwall_material = m\ndt = 1e-6\nsteps = 0\ncontacts_every = 1\n"
               "grains_every = 1\n%s[grain s]\nmaterial = m\nshape = sphere\nradius = %.17g\n\n[group g]\ngrain = s\nplacement = list\n",
            -A, (n + 1) * A, -A, (n + 1) * A, -A, (n + 1) * A, mat, a);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            for (int k = 0; k < n; k++)
                for (int q = 0; q < nb; q++)
                    fprintf(f, "at = %.17g %.17g %.17g\n", sc * (i + b[q][0]) * A, sc * (j + b[q][1]) * A, sc * (k + b[q][2]) * A);
    fclose(f);
    double lo = sc * 1.125 * A, hi = sc * 4.125 * A;
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s --force --quiet --threads %d && ./pala measure %s --region x=%.17g:%.17g --region y=%.17g:%.17g "
                  "--region z=%.17g:%.17g", path, run, threads, run, lo, hi, lo, hi, lo, hi);
    T_CHECK(rc == 0, "%s: pala measure on the lattice (exit %d): %s", name, rc, out);
    double ph = mean_of(out, "phi"), z = mean_of(out, "Z");
    T_NEAR(ph, phi / (sc * sc * sc), 1e-3, name);   /* the spheres closer by sc: denser by sc^-3 */
    T_NEAR(z, Z, 1e-12, "the coordination number of the lattice's inner grains");
    T_NEAR(mean_of(out, "rattlers"), 0, 0, "no rattlers in a lattice");
    char mt[300];
    snprintf(mt, sizeof mt, "%s/measure.tsv", run);
    for (int k = 0; k < 3; k++) {
        const char *nm[3] = {"f_xx", "f_yy", "f_zz"}, *off[3] = {"f_xy", "f_xz", "f_yz"};
        T_NEAR(tsv_last(mt, nm[k]), 1.0 / 3, 1e-9, "an isotropic fabric: 1/3 on its diagonal (measure.tsv)");
        T_NEAR(tsv_last(mt, off[k]), 0, 1e-9, "an isotropic fabric: 0 off its diagonal");
    }
}

void test_measure_lattice(void)
{
    t_sh(NULL, 0, "mkdir -p " D);
    /* face-centred cubic: nearest neighbours A / sqrt 2 = 2a apart, phi = pi / (3 sqrt 2), Z 12 */
    const double fcc[4][3] = {{0, 0, 0}, {0.5, 0.5, 0}, {0.5, 0, 0.5}, {0, 0.5, 0.5}};
    lattice("fcc", 6, 0.002 * sqrt(2.0), fcc, 4, PALA_PI / (3 * sqrt(2.0)), 12, 2);
    /* simple cubic: A = 2a, phi = pi / 6, Z 6 */
    const double sc[1][3] = {{0, 0, 0}};
    lattice("sc", 6, 0.002, sc, 1, PALA_PI / 6, 6, 1);
    /* the contacts of a world of 4 blocks do not depend on the threads */
    int rc = t_sh(NULL, 0, "./pala run " D "/fcc.txt -o " D "/fcc1.run --force --quiet --threads 1 && cmp " D "/fcc.run/contacts.tsv " D
                  "/fcc1.run/contacts.tsv && cmp " D "/fcc.run/grains.tsv " D "/fcc1.run/grains.tsv");
    T_CHECK(rc == 0, "contacts.tsv and grains.tsv of 864 grains on 2 threads and on 1 are the same bytes");
}

/* An ideal gas: spheres far apart at random velocities; the kinetic stress is n kT, kT the
 * mean translational kinetic energy about the mean velocity times 2/3 (eq. M3). */
void test_measure_gas(void)
{
    char out[8192];
    t_sh(NULL, 0, "mkdir -p " D);
    scene(D "/gas.txt",
          "container = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\ndt = 1e-6\nsteps = 0\ncontacts_every = 1\nseed = 5\n%s"
          "[grain s]\nmaterial = m\nshape = sphere\nradius = 0.0005\n\n[group g]\ngrain = s\ncount = 300\nvelocity = 0.2 0 0\nvelocity_spread = 1\n"
          "[measure box]\n",
          mat);
    int rc = t_sh(out, sizeof out, "./pala run " D "/gas.txt -o " D "/gas.run --force --quiet && ./pala measure " D "/gas.run");
    T_CHECK(rc == 0, "pala measure on a gas (exit %d): %s", rc, out);
    char o2[512];
    int rc2 = t_sh(o2, sizeof o2, "rm -rf " D "/new && ./pala measure " D "/gas.run -o " D "/new/sub > /dev/null && test -s " D "/new/sub/measure.tsv");
    T_CHECK(rc2 == 0, "pala measure -o into a folder that does not exist yet: made, as pala run -o makes one (exit %d) %s", rc2, o2);
    /* n kT from the frame itself: the masses and velocities of trajectory.txt */
    char nk[256];
    rc = t_sh(nk, sizeof nk,
              "awk '/^template 0/ { for (i = 1; i <= NF; i++) if ($i == \"mass\") m = $(i + 1) } /^frame/ { f = 1; next } "
              "f && NF == 12 { n++; vx[n] = $7; vy[n] = $8; vz[n] = $9; sx += $7; sy += $8; sz += $9 } "
              "END { sx /= n; sy /= n; sz /= n; for (i = 1; i <= n; i++) e += (vx[i] - sx)^2 + (vy[i] - sy)^2 + (vz[i] - sz)^2; "
              "printf \"%%.17g\\n\", n / 0.001 * m * e / (3 * n) }' " D "/gas.run/trajectory.txt");
    double nkT = atof(nk), p = mean_of(out, "p");
    T_CHECK(rc == 0 && nkT > 0, "n kT of the gas from its frame: %s", nk);
    T_NEAR(p, nkT, 0.03 * nkT, "the kinetic stress of an ideal gas is n kT (3 %)");
    T_NEAR(mean_of(out, "k_xx") + mean_of(out, "k_yy") + mean_of(out, "k_zz"), 3 * nkT, 1e-6 * nkT, "tr k = 3 n kT, not 6 (a missing 1/2 of m v^2 fails)");
    T_NEAR(mean_of(out, "s_xx"), 0, 0, "no contacts, no contact stress");
    T_NEAR(mean_of(out, "vx"), 0.2, 0.05, "the gas's mean velocity, taken out of k");
    /* the run's own row ([measure box]: the walls' box, as pala measure's default region) */
    double pr = tsv_last(D "/gas.run/measure-box.tsv", "p");
    T_NEAR(pr, nkT, 0.03 * nkT, "measure-box.tsv: the kinetic stress of the gas is n kT (3 %), during the run");
    T_NEAR(pr, tsv_last(D "/gas.run/measure.tsv", "p"), 1e-9 * p, "measure-box.tsv's p is pala measure's on the same frame");
}

/* A static column: 3 x 3 stacks of 8 frictionless spheres on the floor z = 0, settled by the
 * dashpot.  The stress zz at the floor, the profile's line through its bins taken to z = 0,
 * is the weight over the floor's area (1 %), as is walls.tsv's floor pressure; over the whole
 * bed V s_zz = g sum m z (the floor's contacts have z = 0); contacts.tsv's floor contacts
 * carry the weight; grains.tsv's forces are the sums of contacts.tsv's, and m g less. */
void test_measure_column(void)
{
    char out[16384];
    const double a = 0.001, L = 0.0075, g = 9.81;
    const int N = 8;
    t_sh(NULL, 0, "mkdir -p " D);
    FILE *f = fopen(D "/column.txt", "w");
    if (!f) { T_CHECK(0, "create column.txt"); return; }
    fprintf(f, "container = box\nbox = 0 %g 0 %g 0 0.03\nwall_material = m\ngravity = 0 0 -%g\nnormal_damping = dashpot\ndt = 1e-5\n"
               "end_time = 0.2\nenergy_every = 1000\ntrajectory_every = 20000\ncontacts_every = 20000\ngrains_every = 20000\n"
               "[measure bed]\nevery = 5000\nregion_z = 0 %.17g\n"
               "[material m]\ndensity = 2600\nyoung = 1e7\npoisson = 0.3\nrestitution = 0.3\nfriction = 0\n\n"
               "[grain s]\nmaterial = m\nshape = sphere\nradius = %g\n\n[group g]\ngrain = s\nplacement = list\n", L, L, g, 2 * a * N, a);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
            for (int k = 0; k < N; k++) fprintf(f, "at = %.17g %.17g %.17g\n", 0.00125 + 0.0025 * i, 0.00125 + 0.0025 * j, a + 2 * a * k);
    fclose(f);
    int rc = t_sh(out, sizeof out, "./pala run " D "/column.txt -o " D "/column.run --force --quiet && ./pala measure " D "/column.run --last "
                  "--region z=0:%g --profile z --bins %d", 2 * a * N, N);
    T_CHECK(rc == 0, "the column settles and is measured (exit %d): %s", rc, out);
    double m = 2600 * 4.0 / 3.0 * PALA_PI * a * a * a, W = 9 * N * m * g, A = L * L;
    /* the profile: s_zz of each layer's bin on a line, at z = 0 */
    pala_tsv pt;
    rc = pala_tsv_read(&pt, D "/column.run/profile-z.tsv", PALA_TSV_NUMERIC, stderr);
    int cz = pala_tsv_col(&pt, "z"), cs = pala_tsv_col(&pt, "s_zz");
    T_CHECK(rc == 0 && pt.nrow == N && cz >= 0 && cs >= 0, "profile-z.tsv has a bin per layer with s_zz");
    if (rc == 0 && pt.nrow == N && cz >= 0 && cs >= 0) {
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < N; i++) {
            double x = pt.num[i * pt.ncol + cz], y = pt.num[i * pt.ncol + cs];
            sx += x; sy += y; sxx += x * x; sxy += x * y;
        }
        double b = (N * sxy - sx * sy) / (N * sxx - sx * sx), s0 = (sy - b * sx) / N;
        T_NEAR(s0, W / A, 0.01 * W / A, "the stress zz at the floor is the bed's weight over the floor's area (1 %)");
        T_NEAR(b, -W / A / (2 * a * N), 0.02 * W / A / (2 * a * N), "and falls linearly to 0 at the top: rho_b g");
    }
    pala_tsv_free(&pt);
    /* walls.tsv: the floor's pressure over the last interval */
    rc = pala_tsv_read(&pt, D "/column.run/walls.tsv", PALA_TSV_NUMERIC, stderr);
    int cp = rc == 0 ? pala_tsv_col(&pt, "p_zlo") : -1;
    T_CHECK(cp >= 0, "walls.tsv has p_zlo");
    if (cp >= 0) T_NEAR(pt.num[(pt.nrow - 1) * pt.ncol + cp], W / A, 0.01 * W / A, "walls.tsv's floor pressure is the weight over the area");
    pala_tsv_free(&pt);
    /* contacts.tsv: the floor (wall zlo) carries W, and the walls' moment sum F_z z_c; grains.tsv's
     * F is the sum of each grain's contacts (1e-12) and -m g (static) */
    char cs2[512];
    rc = t_sh(cs2, sizeof cs2,
              "awk -F'\\t' '/^# frame/ { fr++ } fr == 2 && $1 !~ /^#/ { if ($7 == \"zlo\") w += $15 * $13; if ($5 < 0) wz += $15 * $13 * $10; "
              "for (a = 0; a < 3; a++) { F = $15 * $(11 + a) + $(16 + a); f[$3, a] += F; if ($5 >= 0) f[$5, a] -= F } } "
              "END { printf \"%%.17g %%.17g\", w, wz; "
              "while ((getline l < \"" D "/column.run/grains.tsv\") > 0) { split(l, c, \"\\t\"); if (c[1] != 20000) continue; "
              "for (a = 0; a < 3; a++) { d = c[21 + a] - f[c[3], a]; if (d < 0) d = -d; if (d > dm) dm = d; "
              "e = c[21 + a] + (a == 2 ? -%.17g : 0); if (e < 0) e = -e; if (e > em) em = e } } printf \" %%.17g %%.17g\\n\", dm, em }' " D
              "/column.run/contacts.tsv", m * g);
    double wf = -1, wz = 0, dmax = 1, emax = 1;
    T_CHECK(rc == 0 && sscanf(cs2, "%lf %lf %lf %lf", &wf, &wz, &dmax, &emax) == 4, "contacts.tsv and grains.tsv read: %s", cs2);
    /* over the whole bed, static: V s_zz = g sum m z - sum_walls F_z z_c (eq. M2 summed: the
     * pairs' forces cancel at their points, each grain's contacts hold m g; the floor's
     * points lie ov/2 below it, which the wall term carries, 1e-4 of the whole) */
    rc = t_sh(out, sizeof out, "./pala measure " D "/column.run --last --region z=0:0.03");
    char mz[256];
    t_sh(mz, sizeof mz, "awk '/^frame/ { f++ } f == 2 && NF == 12 { s += $3 } END { printf \"%%.17g\\n\", s }' " D "/column.run/trajectory.txt");
    double V = A * 0.03, szz = tsv_last(D "/column.run/measure.tsv", "s_zz"), want = g * m * atof(mz) - wz;
    T_NEAR(V * szz, want, 1e-6 * want, "V s_zz = g sum m z - sum_walls F_z z_c over the static bed (eq. M2)");
    T_NEAR(mean_of(out, "Z"), (2.0 * 9 * (N - 1)) / (9 * N), 1e-12, "each stack's spheres touch the ones above and below");
    T_NEAR(wf, W, 1e-6 * W, "the floor's contacts in contacts.tsv carry the bed's weight");
    T_CHECK(dmax <= 1e-12 * 9 * N * m * g, "grains.tsv's force is the sum of the grain's contacts in contacts.tsv (largest difference %g N)", dmax);
    T_CHECK(emax <= 1e-6 * m * g, "each grain's contact force holds its weight: F - m g . z = 0 (largest %g N of m g = %g N)", emax, m * g);
    /* [measure bed] over the bed's height H = 2 a N during the run: the stress grows linearly
     * from 0 at the top to W / A at the floor, so its mean over H is W / (2 A) (exactly: V s_zz =
     * g sum m z = W a N with V = A H, eq. M2); the last row is pala measure's on that frame */
    double sb = tsv_last(D "/column.run/measure-bed.tsv", "s_zz");
    T_NEAR(2 * sb, W / A, 0.01 * W / A, "measure-bed.tsv: twice the mean stress zz over the static bed is its weight over the floor's area (1 %)");
    T_NEAR(tsv_last(D "/column.run/measure-bed.tsv", "rattlers"), 1.0 / N, 1e-12, "the rattlers: the stacks' top spheres, each held by one contact");
    rc = t_sh(out, sizeof out, "./pala measure " D "/column.run --last --region z=0:%.17g -o " D "/column.m > /dev/null && "
              "tail -1 " D "/column.m/measure.tsv > " D "/column.m/a && tail -1 " D "/column.run/measure-bed.tsv > " D "/column.m/b && "
              "cmp " D "/column.m/a " D "/column.m/b", 2 * a * N);
    T_CHECK(rc == 0, "the last row of measure-bed.tsv is pala measure's row of the last frame, byte for byte %s", out);
}

/* [measure NAME] sections: a run extended by pala resume writes the rows of a run that never
 * stopped, byte for byte, and no row twice; bad keys are refused at their line. */
void test_measure_section(void)
{
    char out[8192];
    t_sh(NULL, 0, "mkdir -p " D);
    t_sh(NULL, 0, "cp examples/settling-box.txt " D "/sbm.txt");
    FILE *f = fopen(D "/sbm.txt", "a");
    if (!f) { T_CHECK(0, "append to sbm.txt"); return; }
    fprintf(f, "\n[measure low]\nevery = 300\nregion_z = 0 0.02\n\n[measure all]\nevery = 700\n");
    fclose(f);
    int rc = t_sh(out, sizeof out, "./pala run " D "/sbm.txt --quiet --force --set energy_every=500 --set steps=1234 -o " D "/sbm.run && "
              "./pala resume " D "/sbm.run --quiet --set steps=3000 && "
              "./pala run " D "/sbm.txt --quiet --force --set energy_every=500 --set steps=3000 -o " D "/sbm.ref && "
              "cmp " D "/sbm.run/measure-low.tsv " D "/sbm.ref/measure-low.tsv && cmp " D "/sbm.run/measure-all.tsv " D "/sbm.ref/measure-all.tsv");
    T_CHECK(rc == 0, "a run of 1234 steps resumed to 3000 gives measure-low.tsv and measure-all.tsv of a run of 3000, byte for byte %s", out);
    /* interrupted (SIGINT) once measure-low.tsv holds two rows, then resumed: the rows written
     * before the stop are kept, and the run goes on as if it had never stopped */
    rc = t_sh(out, sizeof out, "rm -rf " D "/sbm.int; ./pala run " D "/sbm.txt --quiet --set energy_every=500 --set steps=1000000000000 -o " D
              "/sbm.int & p=$!; while [ \"$(cat " D "/sbm.int/measure-low.tsv 2>/dev/null | wc -l)\" -lt 3 ] && kill -0 $p 2>/dev/null; do sleep 0.01; done; "
              "kill -INT $p; wait $p");
    T_CHECK(rc == 4, "a run with [measure] sections stopped by SIGINT (exit %d, want 4) %s", rc, out);
    rc = t_sh(out, sizeof out, "head -3 " D "/sbm.int/measure-low.tsv > " D "/sbm.int.head && ./pala resume " D "/sbm.int --quiet --set steps=6000 && "
              "./pala run " D "/sbm.txt --quiet --force --set energy_every=500 --set steps=6000 -o " D "/sbm.ref6 && "
              "cmp " D "/sbm.int/measure-low.tsv " D "/sbm.ref6/measure-low.tsv && cmp " D "/sbm.int/measure-all.tsv " D "/sbm.ref6/measure-all.tsv && "
              "head -3 " D "/sbm.ref6/measure-low.tsv | cmp - " D "/sbm.int.head");
    T_CHECK(rc == 0, "stopped by SIGINT and resumed to 6000 steps: measure-low.tsv and measure-all.tsv of a run of 6000, byte for byte %s", out);
    char rows[256];
    t_sh(rows, sizeof rows, "cut -f1 " D "/sbm.run/measure-low.tsv | tr '\n' ' '");
    T_CHECK(strstr(rows, "step 0 300 600 900 1200 1500 1800 2100 2400 2700 3000 ") == rows, "measure-low.tsv: step 0, every 300 and the last, once each: %s", rows);
    /* collect takes NAME.COL (the last row), check its columns */
    rc = t_sh(out, sizeof out, "./pala collect " D "/sbm.run --columns low.phi,all.s_zz | tail -1 | cut -f2 && tail -1 " D "/sbm.run/measure-low.tsv | cut -f4");
    char c1[64] = "", c2[64] = "";
    T_CHECK(rc == 0 && sscanf(out, "%63s %63s", c1, c2) == 2 && !strcmp(c1, c2), "pala collect --columns low.phi: measure-low.tsv's last phi (%s)", out);
    rc = t_sh(out, sizeof out, "./pala check " D "/sbm.run/measure-all.tsv " D "/sbm.ref/measure-all.tsv --window 0.01:0.03 --columns phi,Z,s_zz,k_zz");
    T_CHECK(rc == 0 && strstr(out, "PASS"), "pala check compares measure-NAME.tsv's window means (exit %d) %s", rc, out);
    /* a window that ends at the run's end takes its last frame, whose time is step * dt
     * written whole (0.030000000000000002): so do check's windows */
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt -o " D "/win.run --quiet --set end_time=0.03 && "
              "grep -c '^frame 3000 0.030000000000000002$' " D "/win.run/trajectory.txt && ./pala measure " D "/win.run --window 0.01:0.03 | head -1 && "
              "./pala check " D "/win.run/energy.tsv " D "/win.run/energy.tsv --window 0.029:0.03");
    T_CHECK(rc == 0 && strstr(out, "2 frames from t = 0.02 to 0.03 s") && strstr(out, "2 rows of the run, 2 of the reference"), "--window 0.01:0.03 on a run to 0.03 s: its last frame too (exit %d) %s", rc, out);
    /* a 2D run has no z to profile or cut (its bins were nan, exit 0); a region far narrower
     * than a grain: its bins' indices clamped before their cast (UBSan saw 5.2e11 cast to int) */
    rc = t_sh(out, sizeof out, "./pala run examples/2d-hopper.txt -o " D "/h2.run --quiet --set end_time=0.002 && ./pala measure " D "/h2.run --profile z");
    T_CHECK(rc == 1 && strstr(out, "is a 2D run, whose region is a rectangle in x and y: give --profile x or y"), "2D: --profile z refused (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala measure " D "/h2.run --region z=0:1");
    T_CHECK(rc == 1 && strstr(out, "leave out --region z="), "2D: --region z= refused (exit %d) %s", rc, out);
    /* (after the drum below: a slab 1e-12 m thick through its bottom spheres, 4 bins of
     * 2.5e-13 m: a sphere's bins, 4e9 of them, overflowed int, and its solid was lost) */
    /* --angle in a drum (a [wall] cylinder across gravity, grains inside): the bed's surface
     * across the axis on every frame of the window, as bench/drum/angle.sh measures it (the
     * heap's rings about a vertical axis gave 67 degrees from 4 points there) */
    rc = t_sh(out, sizeof out, "./pala run bench/drum/drum.txt -o " D "/bdrum.run --quiet --set end_time=0.3 --set trajectory_every=5000 && "
              "./pala measure " D "/bdrum.run --angle --window 0.1:0.29 | tail -1 && sh bench/drum/angle.sh " D "/bdrum.run/trajectory.txt 0.1 0.29 | tail -1");
    double a1 = 0, s1 = 0, a2 = 1, s2 = 1;
    long f1 = 0, f2 = 0;
    const char *pa = strstr(out, "angle "), *ps = strstr(out, "\nsurface ");
    int got = pa && ps && sscanf(pa, "angle %lf deg  sd %lf deg  frames %ld", &a1, &s1, &f1) == 3 && sscanf(ps + 1, "surface %lf deg  sd %lf  frames %ld", &a2, &s2, &f2) == 3;
    T_CHECK(rc == 0 && got && a1 == a2 && s1 == s2 && f1 == f2 && f1 == 4 && a1 > 15 && a1 < 45 && strstr(out, "(a drum: the bed's surface across its axis"),
            "--angle in a drum: %.2f deg (sd %.2f, %ld frames), bench/drum/angle.sh %.2f (sd %.2f, %ld frames) (exit %d) %s", a1, s1, f1, a2, s2, f2, rc, out);
    rc = t_sh(out, sizeof out, "./pala measure " D "/bdrum.run --last --profile z --bins 4 --region z=-0.024:-0.023999999999 -o " D "/narrow && "
              "awk -F'\\t' 'NR > 1 && !($5 > 0.1 && $5 <= 1) { print \"bad phi\", $5 }' " D "/narrow/profile-z.tsv");
    T_CHECK(rc == 0 && strstr(out, "profile along z: 4 bins") && !strstr(out, "bad phi"),
            "a slab of 1e-12 m through the drum's bottom spheres: phi above 0.1 in every bin (exit %d) %s", rc, out);
    /* ... and in a 2D drum, a circle: the same method, one row of cells (the heap's rings found 2 points there) */
    t_write(D "/d2.txt", "dimension = 2\ncontainer = none\ndt = 5e-6\nend_time = 0.1\ngravity = 0 -9.81 0\ntrajectory_every = 5000\n"
            "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.5\nfriction = 0.5\n"
            "[wall drum]\nshape = circle\nmaterial = m\npoint = 0 0 0\nradius = 0.03\nside = inside\nangular_velocity = 0 0 2\n"
            "[grain d]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
            "[group g]\ngrain = d\ncount = 150\nplacement = random\nregion = box\nregion_box = -0.02 0.02 -0.025 0 0 0\n");
    rc = t_sh(out, sizeof out, "./pala run " D "/d2.txt -o " D "/d2.run --quiet && ./pala measure " D "/d2.run --angle --window 0.05:0.1 | tail -1");
    T_CHECK(rc == 0 && strstr(out, "frames 3") && strstr(out, "(a drum: the bed's surface across its axis"), "--angle in a 2D drum (a circle): the drum's method (exit %d) %s", rc, out);
    /* the default region is the walls' box, not their drawings: the oedometer's box beneath
     * its lid plane (whose square of draw_size 0.1 m made it 0.1 m wide; the servo lid's end
     * is the grains' top, 8 mm up, not the box's 0.06 m), the drum's cylinder (its drawn
     * polygon is smaller, and turns) */
    rc = t_sh(out, sizeof out, "./pala run examples/oedometer.txt -o " D "/oed.run --quiet --set end_time=0.002 && ./pala measure " D "/oed.run --last | head -1 && "
              "./pala run examples/drum.txt -o " D "/drum.run --quiet --set end_time=0.002 && ./pala measure " D "/drum.run --last | head -1");
    T_CHECK(rc == 0 && strstr(out, "region x 0:0.02 y 0:0.02 z 0:0.0100601 ") && strstr(out, "region x -0.06:0.06 y -0.025:0.025 z -0.06:0.06 (0.00072 m^3)"),
            "default regions: the oedometer's box up to its grains under the servo lid, the drum's cylinder (exit %d) %s", rc, out);
    /* errors: the file, the line, the key and the fix */
    static const struct { const char *text, *want; } bad[] = {
        {"[measure m]\nregion_x = 0.05 0.01\n", ":34: [measure m]: 'region_x = 0.05 0.01': give LO HI with LO < HI"},
        {"[measure m]\nevery = 0\n", ":34: 'every = 0': must be between 1 and"},
        {"[measure m]\nregoin_z = 0 1\n", ":34: unknown key 'regoin_z' in this section; did you mean 'region_z'?"},
        {"[measure a/b]\n", ":33: [measure a/b]: the name is part of the file name"},
        {"[measure a]\n[measure b]\n[measure c]\n[measure d]\n[measure e]\n", ":37: [measure e]: at most 4 [measure] sections"},
        {"[measure m]\nregion_z = 0 1\n", ":34: [measure m]: 'region_z' in 2D"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        f = fopen(D "/bad.txt", "w");
        if (!f) { T_CHECK(0, "create bad.txt"); return; }
        /* the 2D case: a 2D scene of the same length (32 lines before the section) */
        fprintf(f, "%s", strstr(bad[i].text, "region_z") && !strstr(bad[i].text, "regoin") ? "dimension = 2\n" : "# 3D\n");
        fprintf(f, "container = box\nbox = 0 0.01 0 0.01 0 0.01\nwall_material = m\ndt = 1e-6\nsteps = 1\n%s", mat);
        fprintf(f, "[grain s]\nmaterial = m\nshape = sphere\nradius = 0.001\n\n[group g]\ngrain = s\ncount = 1\n");
        fclose(f);
        t_sh(NULL, 0, "n=$(wc -l < " D "/bad.txt); while [ $n -lt 32 ]; do echo '#' >> " D "/bad.txt; n=$((n + 1)); done");
        f = fopen(D "/bad.txt", "a");
        if (!f) { T_CHECK(0, "append to bad.txt"); return; }
        fputs(bad[i].text, f);
        fclose(f);
        rc = t_sh(out, sizeof out, "./pala run " D "/bad.txt -o " D "/bad.run --force --quiet");
        T_CHECK(rc == 1 && strstr(out, "bad.txt") && strstr(out, bad[i].want), "refused at its line with the key and the fix (exit %d, want '%s'): %s", rc,
                bad[i].want, out);
    }
    /* a region wholly outside the walls: run, with a warning at its line (rows of no grains) */
    rc = t_sh(out, sizeof out, "sed -e '/^\\[measure/,$d' -e 's/^dimension = 2$/# 3D/' " D "/bad.txt > " D "/out.txt && "
              "printf '[measure m]\\nregion_x = 5 6\\n' >> " D "/out.txt && ./pala run " D "/out.txt -o " D "/bad.run --force --quiet");
    T_CHECK(rc == 0 && strstr(out, "out.txt:34: warning: [measure m]: 'region_x = 5 6' lies outside the walls, which span x from 0 to 0.01 m"),
            "a [measure] region outside the walls: a warning at its line (exit %d): %s", rc, out);
}

/* An isotropic compression: a simple cubic lattice of 4^3 spheres, every pair overlapping by
 * delta, in a box whose walls overlap the outer spheres by delta / 2^(1/3) (the same Hertz
 * force: r~ = 2a on a wall, a between spheres), no gravity: it stays as it is.  The mean
 * stress over the box (eq. M4) is the walls' pressure in walls.tsv, equal on every face. */
void test_measure_compression(void)
{
    char out[8192];
    const double a = 0.001, dl = 1e-5, s = 2 * a - dl, ow = dl / cbrt(2.0), c0 = a - ow, Lb = c0 + 3 * s + a - ow;
    t_sh(NULL, 0, "mkdir -p " D);
    FILE *f = fopen(D "/press.txt", "w");
    if (!f) { T_CHECK(0, "create press.txt"); return; }
    fprintf(f, "container = box\nbox = 0 %.17g 0 %.17g 0 %.17g\nwall_material = m\ndt = 1e-7\nsteps = 100\nenergy_every = 100\n"
               "trajectory_every = 100\ncontacts_every = 100\n%s[grain s]\nmaterial = m\nshape = sphere\nradius = %g\n\n"
               "[group g]\ngrain = s\nplacement = list\n", Lb, Lb, Lb, mat, a);
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            for (int k = 0; k < 4; k++) fprintf(f, "at = %.17g %.17g %.17g\n", c0 + i * s, c0 + j * s, c0 + k * s);
    fclose(f);
    int rc = t_sh(out, sizeof out, "./pala run " D "/press.txt -o " D "/press.run --force --quiet && ./pala measure " D "/press.run --last");
    T_CHECK(rc == 0, "the compressed lattice is measured (exit %d): %s", rc, out);
    pala_tsv pt;
    rc = pala_tsv_read(&pt, D "/press.run/walls.tsv", PALA_TSV_NUMERIC, stderr);
    double pw = 0;
    const char *faces[6] = {"p_xlo", "p_xhi", "p_ylo", "p_yhi", "p_zlo", "p_zhi"};
    for (int i = 0; i < 6 && rc == 0; i++) {
        int c = pala_tsv_col(&pt, faces[i]);
        double v = c >= 0 ? pt.num[(pt.nrow - 1) * pt.ncol + c] : (double)NAN;
        pw += v / 6;
        T_CHECK(c >= 0 && v > 0, "walls.tsv's %s = %g Pa", faces[i], v);
    }
    pala_tsv_free(&pt);
    double p = mean_of(out, "p");
    T_NEAR(p, pw, 0.01 * pw, "the mean stress of an isotropic compression is the walls' pressure (1 %)");
    T_NEAR(mean_of(out, "s_xx"), mean_of(out, "s_zz"), 1e-6 * pw, "isotropic: s_xx = s_zz");
    T_NEAR(mean_of(out, "s_xy"), 0, 1e-6 * pw, "isotropic: no shear stress");
    T_NEAR(mean_of(out, "Z"), 2 * 3 * 48.0 / 64, 1e-12, "a 4^3 cube of a simple cubic lattice: 144 contacts, Z = 4.5");
}

/* Two clumps of two spheres side by side, both pairs of components touching: one contact of
 * grains each (grains.tsv, pala measure), two contacts in contacts.tsv. */
void test_measure_clumps(void)
{
    char out[8192];
    t_sh(NULL, 0, "mkdir -p " D);
    scene(D "/clumps.txt",
          "container = box\nbox = -0.01 0.01 -0.01 0.01 -0.01 0.01\nwall_material = m\ndt = 1e-6\nsteps = 0\ncontacts_every = 1\n"
          "grains_every = 1\n%s[grain d]\nmaterial = m\nshape = spheres\nsphere = 0 -0.001 0 0.001\nsphere = 0 0.001 0 0.001\nmc_samples = 1000\n\n"
          "[group g]\ngrain = d\nplacement = list\norientation = as_written\nat = 0 0 0\nat = 0.0019998 0 0\n", mat);
    int rc = t_sh(out, sizeof out, "./pala run " D "/clumps.txt -o " D "/clumps.run --force --quiet && ./pala measure " D "/clumps.run && "
                  "grep -vc '^#' " D "/clumps.run/contacts.tsv && cut -f 27 " D "/clumps.run/grains.tsv | tail -2 | tr '\\n' ' '");
    T_CHECK(rc == 0, "two clumps measured (exit %d): %s", rc, out);
    T_NEAR(mean_of(out, "Z"), 1, 0, "two touching clumps: coordination 1 each, though two pairs of components touch");
    T_CHECK(strstr(out, "\n3\n1 1 ") != NULL, "contacts.tsv: the header and 2 contacts; grains.tsv: Z = 1 and 1 (%s)", out);
}

/* The angle of repose: a synthetic cone of spheres (as test_heap.c's) run for 0 steps, so that
 * angle.sh and pala measure see the same frame; and a flat bed, which pala measure refuses. */
static void cone_scene(const char *path, double deg, int flat)
{
    char out[256];
    int rc = t_sh(out, sizeof out,
                  "{ printf 'container = box\\nbox = 0 0.14 0 0.14 0 0.1\\nwall_material = m\\ngravity = 0 0 -9.81\\ndt = 1e-6\\nsteps = 0\\n"
                  "[material m]\\ndensity = 2600\\nyoung = 1e7\\npoisson = 0.3\\ndelta = 1\\nfriction = 0\\n"
                  "[grain s]\\nmaterial = m\\nshape = sphere\\nradius = 0.001\\n[group g]\\ngrain = s\\nplacement = list\\n'; "
                  "awk -v t=%g -v flat=%d 'BEGIN { pi = atan2(0, -1); s = sin(t * pi / 180) / cos(t * pi / 180);"
                  " for (i = -30; i <= 30; i++) for (j = -30; j <= 30; j++) {"
                  "   x = 0.07 + 0.002 * i; y = 0.07 + 0.002 * j; r = sqrt((x - 0.07)^2 + (y - 0.07)^2);"
                  "   h = flat ? 0.006 : 0.02 - s * r; if (h < 0.002) h = 0.002; if (r > 0.06) continue;"
                  "   u = 1e4 * sin(12.9898 * i + 78.233 * j); h += 0.003 * (u - int(u) + (u < 0) - 0.5);"
                  "   for (z = h - 0.001; z > 0.0005; z -= 0.002) printf \"at = %%.6f %%.6f %%.6f\\n\", x, y, z } }'; } > %s",
                  deg, flat, path);
    T_CHECK(rc == 0, "synthetic %s written (%s)", flat ? "flat bed" : "cone", out);
}

/* A synthetic drum bed whose surface is the plane z = -x tan(deg) across the drum's axis (y),
 * the top of one sphere at each cell's centre on it (cells of 2 mm from the axis point), so
 * that --angle fits deg to rounding (the sign: the bed higher on -x, where a turn about +y
 * carries it); and, below each, the spheres that fill the column. */
static void drum_bed(const char *path, double deg)
{
    char out[256];
    int rc = t_sh(out, sizeof out,
                  "{ printf 'container = none\ngravity = 0 0 -9.81\ndt = 1e-6\nsteps = 0\ndt_check = off\n"
                  "[material m]\ndensity = 2600\nyoung = 1e7\npoisson = 0.3\ndelta = 1\nfriction = 0\n"
                  "[wall drum]\nshape = cylinder\nmaterial = m\npoint = 0 -0.01 0\naxis = 0 1 0\nlength = 0.02\nradius = 0.025\nside = inside\n"
                  "angular_velocity = 0 2 0\n[grain s]\nmaterial = m\nshape = sphere\nradius = 0.001\n[group g]\ngrain = s\nplacement = list\n'; "
                  "awk -v t=%g 'BEGIN { pi = atan2(0, -1); s = sin(t * pi / 180) / cos(t * pi / 180);"
                  " for (i = -10; i < 10; i++) for (j = -5; j < 5; j++) {"
                  "   x = 0.002 * (i + 0.5); y = -0.01 + 0.002 * (j + 5.5); top = -x * s;"
                  "   if (x * x + (top - 0.001) ^ 2 > 0.023 ^ 2) continue;"
                  "   for (z = top - 0.001; x * x + z * z < 0.023 ^ 2; z -= 0.002) printf \"at = %%.17g %%.17g %%.17g\\n\", x, y, z } }'; } > %s",
                  deg, path);
    T_CHECK(rc == 0, "synthetic drum bed written (%s)", out);
}

void test_measure_angle(void)
{
    char out[8192], ref[1024];
    t_sh(NULL, 0, "mkdir -p " D);
    /* the drum's method against its closed form: a bed whose surface is a plane at 25 degrees */
    drum_bed(D "/dbed.txt", 25);
    int rd = t_sh(out, sizeof out, "./pala run " D "/dbed.txt -o " D "/dbed.run --force --quiet && ./pala measure " D "/dbed.run --angle --ring 0.002 | tail -1");
    double da = NAN;
    const char *pd = strstr(out, "angle ");
    if (pd) sscanf(pd, "angle %lf", &da);
    T_CHECK(rd == 0 && fabs(da - 25) < 0.006, "--angle in a drum whose bed's surface is a plane at 25 degrees: %.4f (exit %d) %s", da, rd, out);
    cone_scene(D "/cone.txt", 30, 0);
    int rc = t_sh(out, sizeof out, "./pala run " D "/cone.txt -o " D "/cone.run --force --quiet && ./pala measure " D "/cone.run --angle");
    int rc2 = t_sh(ref, sizeof ref, "bench/heap/angle.sh " D "/cone.run/trajectory.txt");
    const char *p = strstr(out, "\nangle ");
    double a = 0, b = 0;
    T_CHECK(rc == 0 && p && sscanf(p, "\nangle %lf", &a) == 1, "pala measure --angle on a cone (exit %d): %s", rc, out);
    T_CHECK(rc2 == 0 && sscanf(ref, "angle %lf", &b) == 1, "angle.sh on the same frame: %s", ref);
    T_NEAR(a, b, 0.005, "pala measure's angle is angle.sh's (the same method)");
    T_NEAR(a, 30, 0.5, "a rough cone of 30 degrees measures 30 (0.5)");
    T_CHECK(p && strstr(p, "stderr") && strstr(p, "points"), "the angle comes with its fit's error and points: %s", p ? p : "");
    /* a 2D heap of quasi-squares (shape = arcs) on the floor y = 0: the surface is their
     * outlines' tops, not the tops of their sides' circles (up to 10 mm beyond the grain; the
     * walls 20 mm away, where no circle reaches) */
    rc = t_sh(out, sizeof out,
              "{ printf 'dimension = 2\ncontainer = box\nbox = -0.02 0.22 -0.02 0.1 -0.01 0.01\nwall_material = m\ngravity = 0 -9.81 0\ndt = 1e-6\n"
              "steps = 0\n[material m]\ndensity = 2600\nyoung = 1e7\n[grain q]\nmaterial = m\nshape = arcs\narcs_shape = square\n"
              "radius = 0.0014\ncorner_radius = 0.0004\nside_radius = 0.006\n[group g]\ngrain = q\nplacement = list\n'; "
              "awk 'BEGIN { s = sin(atan2(0, -1) / 6) / cos(atan2(0, -1) / 6);"
              " for (i = -30; i <= 30; i++) { x = 0.1 + 0.003 * i; h = 0.05 - s * (x < 0.1 ? 0.1 - x : x - 0.1); if (h < 0.004) h = 0.004;"
              "   for (y = 0.0015; y < h - 0.0014; y += 0.003) printf \"at = %%.6f %%.6f 0\\n\", x, y } }'; } > " D "/archeap.txt && "
              "./pala run " D "/archeap.txt -o " D "/archeap.run --force --quiet && ./pala measure " D "/archeap.run --angle --region y=0:0.1");
    p = strstr(out, "\nangle ");
    a = 0;
    T_CHECK(rc == 0 && p && sscanf(p, "\nangle %lf", &a) == 1, "pala measure --angle on a 2D heap of arc grains (exit %d): %s", rc, out);
    T_NEAR(a, 30, 1.5, "a 2D heap of quasi-squares sloping 30 degrees measures 30 (1.5)");
    const char *hp = p ? strstr(p, "height ") : NULL;
    double H = 0;
    if (hp) sscanf(hp, "height %lf", &H);
    T_CHECK(H > 0.0465 && H <= 0.0465 + 0.0014 + 1e-12,
            "the heap's height is an outline's top: above the highest centre (0.0465 m), at most a tip (1.4 mm) above it (%g m; "
            "the sides' circles reach 10 mm higher)", H);
    cone_scene(D "/flat.txt", 0, 1);
    rc = t_sh(out, sizeof out, "./pala run " D "/flat.txt -o " D "/flat.run --force --quiet && ./pala measure " D "/flat.run --angle");
    T_CHECK(rc == 1 && strstr(out, "a flat bed, not a heap") && !strstr(out, "\nangle "),
            "a flat bed: no angle, exit 1, and why (exit %d): %s", rc, out);
}

/* grains.tsv's force and torque at step s are the sums of the grain's contacts in
 * contacts.tsv: F_i = sum F_c, T_i = sum (x_c - X_i) x F_c + m_c, with the signs of j; the
 * largest difference over the largest |F| (|T|) into e[0] (e[1]); 0 if read */
static int sums_check(const char *dir, long s, double *e)
{
    char out[512];
    int rc = t_sh(out, sizeof out,
                  "awk -F'\\t' -v s=%ld 'FNR == NR { if ($1 == s) { X[$3] = $5; Y[$3] = $6; Z[$3] = $7; "
                  "  gf[$3, 0] = $21; gf[$3, 1] = $22; gf[$3, 2] = $23; gt[$3, 0] = $24; gt[$3, 1] = $25; gt[$3, 2] = $26; n++ } next }"
                  " /^#/ || $1 != s { next }"
                  " { m = NF >= 22; mx = m ? $19 + $22 * $11 : 0; my = m ? $20 + $22 * $12 : 0; mz = m ? $21 + $22 * $13 : 0;"
                  "   Fx = $15 * $11 + $16; Fy = $15 * $12 + $17; Fz = $15 * $13 + $18;"
                  "   for (side = 0; side < 2; side++) { g = side ? $5 : $3; if (g < 0) continue; sg = side ? -1 : 1;"
                  "     rx = $8 - X[g]; ry = $9 - Y[g]; rz = $10 - Z[g];"
                  "     f[g, 0] += sg * Fx; f[g, 1] += sg * Fy; f[g, 2] += sg * Fz;"
                  "     t[g, 0] += sg * (ry * Fz - rz * Fy + mx); t[g, 1] += sg * (rz * Fx - rx * Fz + my); t[g, 2] += sg * (rx * Fy - ry * Fx + mz) } }"
                  " END { for (k in gf) { a = gf[k] - f[k]; b = gt[k] - t[k]; if (a < 0) a = -a; if (b < 0) b = -b; if (a > ef) ef = a; if (b > et) et = b;"
                  "   a = gf[k]; b = gt[k]; if (a < 0) a = -a; if (b < 0) b = -b; if (a > Fm) Fm = a; if (b > Tm) Tm = b }"
                  "   printf \"%%d %%.17g %%.17g\\n\", n, (Fm > 0 ? ef / Fm : 1), (Tm > 0 ? et / Tm : 1) }' %s/grains.tsv %s/contacts.tsv",
                  s, dir, dir);
    int n = 0;
    return rc == 0 && sscanf(out, "%d %lf %lf", &n, &e[0], &e[1]) == 3 && n > 0 ? 0 : -1;
}

/* The contact output: the run's other files are the same bytes with it or without it (a heap
 * of clumps with Mindlin's springs: states copied, never advanced); the same bytes on 1 and 2
 * threads, and through a resume; grains.tsv sums contacts.tsv to 1e-12; contacts.bin holds
 * contacts.tsv's numbers (read by the reader of docs/output-formats.md); the moments of
 * rolling and torsion springs. */
void test_contacts_output(void)
{
    char out[8192];
    t_sh(NULL, 0, "mkdir -p " D);
#define HEAP "./pala run examples/heap.txt --quiet --force --set steps=300 --set energy_every=50 --set trajectory_every=100 "
#define CON "--set contacts_every=70 --set grains_every=90 "
    int rc = t_sh(out, sizeof out,
                  HEAP "--threads 2 -o " D "/h0 && " HEAP CON "--threads 2 -o " D "/h1 && " HEAP CON "--threads 1 -o " D "/h2 && "
                  HEAP CON "--set contacts_format=binary -o " D "/h3 && " HEAP CON "--set steps=150 -o " D "/h4 && ./pala resume " D
                  "/h4 --set steps=300 --quiet");
    T_CHECK(rc == 0, "the heap's first 300 steps with and without the contacts, on 1 and 2 threads, resumed (exit %d): %s", rc, out);
    rc = t_sh(out, sizeof out, "for f in energy.tsv walls.tsv trajectory.txt; do cmp " D "/h0/$f " D "/h1/$f || exit 1; done");
    T_CHECK(rc == 0, "energy.tsv, walls.tsv and trajectory.txt are the same bytes with contacts_every and grains_every (%s)", out);
    rc = t_sh(out, sizeof out, "cmp " D "/h1/contacts.tsv " D "/h2/contacts.tsv && cmp " D "/h1/grains.tsv " D "/h2/grains.tsv");
    T_CHECK(rc == 0, "contacts.tsv and grains.tsv: the same bytes on 1 and 2 threads (%s)", out);
    rc = t_sh(out, sizeof out, "cmp " D "/h1/contacts.tsv " D "/h4/contacts.tsv && cmp " D "/h1/grains.tsv " D "/h4/grains.tsv");
    T_CHECK(rc == 0, "contacts.tsv and grains.tsv: the same bytes through a resume at step 150 (%s)", out);
    double e[2] = {1, 1};
    rc = sums_check(D "/h1", 300, e);
    T_CHECK(rc == 0 && e[0] <= 1e-12 && e[1] <= 1e-12,
            "grains.tsv's F and T are the sums of contacts.tsv's (relative %g, %g)", e[0], e[1]);
    rc = t_sh(out, sizeof out, "grep -c '	mt$' " D "/h1/contacts.tsv");
    T_CHECK(rc == 1, "no moments' columns without rolling or torsion springs");
    /* the reader of docs/output-formats.md on contacts.bin against contacts.tsv */
    if (t_sh(NULL, 0, "python3 -c 1") != 0) t_skip("contacts.bin's reader of docs/output-formats.md not run: no python3");
    else {
        rc = t_sh(out, sizeof out,
                  "awk '/^## contacts.tsv and contacts.bin/ { s = 1 } s && /^```python/ { p = 1; next } p && /^```/ { exit } p' docs/output-formats.md > " D
                  "/contacts_reader.py && cd " D " && python3 - <<'PY'\n"
                  "import csv, contacts_reader\n"
                  "bins = [(s, t, f, r) for s, t, f, rows in contacts_reader.read_contacts('h3/contacts.bin') for r in rows]\n"
                  "tsv = [row for row in csv.reader(open('h1/contacts.tsv'), delimiter='\\t') if row and not row[0].startswith('#')][1:]\n"
                  "assert len(bins) == len(tsv) and len(tsv) > 1000, (len(bins), len(tsv))\n"
                  "for (s, t, faces, r), row in zip(bins, tsv):\n"
                  "    assert (s, t) == (int(row[0]), float(row[1])) and list(r[:4]) == [int(x) for x in row[2:6]], row\n"
                  "    assert (faces[r[4]] if r[2] < 0 else '-') == row[6], row\n"
                  "    assert list(r[5:]) == [float(x) for x in row[7:]], row\n"
                  "print('same', len(tsv))\n"
                  "PY\n");
        T_CHECK(rc == 0 && strstr(out, "same"), "contacts.bin read by the documented reader holds contacts.tsv's numbers: %s", out);
    }
    /* rolling and torsion springs: the moments' columns, and the torques still sum */
    rc = t_sh(out, sizeof out,
              "./pala run examples/settling-box.txt --quiet --force -o " D "/roll --set end_time=0.15 --set contacts_every=15000 --set grains_every=15000 "
              "--set tangential_law=spring --set material.sand.tangential_stiffness=1000 --set material.wall.tangential_stiffness=1000 --set material.sand.rolling_stiffness=1e-3 "
              "--set material.sand.rolling_friction=0.1 --set material.sand.torsion_stiffness=1e-3 --set material.sand.torsion_friction=0.1 && "
              "sed -n 2p " D "/roll/contacts.tsv | tr '\\t' ' '");
    T_CHECK(rc == 0 && strstr(out, "ftz mrx mry mrz mt"), "with rolling and torsion springs contacts.tsv has mrx mry mrz mt: %s", out);
    rc = t_sh(out, sizeof out, "awk -F'\\t' '$1 == 15000 && ($19 != 0 || $22 != 0) { n++ } END { print n + 0 }' " D "/roll/contacts.tsv");
    T_CHECK(rc == 0 && atoi(out) > 0, "contacts with a rolling or torsion moment: %s", out);
    rc = sums_check(D "/roll", 15000, e);
    T_CHECK(rc == 0 && e[0] <= 1e-12 && e[1] <= 1e-12,
            "with the moments, grains.tsv's T is the sum of (x - X) x F + m (relative %g, %g)", e[0], e[1]);
    /* grains that enter and leave (examples/pour.txt): the grains by their numbers */
#define POUR "./pala run examples/pour.txt --quiet --force --set end_time=0.3 "
    rc = t_sh(out, sizeof out, POUR "-o " D "/p0 && " POUR "--set contacts_every=500 --set grains_every=600 --threads 2 -o " D "/p1 && "
              POUR "--set contacts_every=500 --set grains_every=600 --threads 1 -o " D "/p2 && for f in energy.tsv flow.tsv trajectory.txt; do "
              "cmp " D "/p0/$f " D "/p1/$f || exit 1; done && cmp " D "/p1/contacts.tsv " D "/p2/contacts.tsv && cmp " D "/p1/grains.tsv " D
              "/p2/grains.tsv");
    T_CHECK(rc == 0, "a pour (grains enter): the same run with the contacts, their files the same on 1 and 2 threads (exit %d): %s", rc, out);
    rc = sums_check(D "/p1", 30000, e);
    T_CHECK(rc == 0 && e[0] <= 1e-12 && e[1] <= 1e-12, "a pour: grains.tsv sums contacts.tsv by the grains' numbers (relative %g, %g)", e[0], e[1]);
#undef POUR
#undef HEAP
#undef CON
}

/* The contacts.tsv reader on a frame large enough for several threads (its rows are parsed
 * in parallel): every row in its place, the same as on one thread; a bad row deep inside
 * reported at its own line; a header that claims more rows than the file has is a cut frame,
 * not an allocation of its count. */
static void big_contacts(const char *path, long n, long bad_row, long claim)
{
    FILE *f = fopen(path, "w");
    if (!f) { T_CHECK(0, "create %s", path); return; }
    fprintf(f, "# pala contacts 1\nstep\ttime\ti\tci\tj\tcj\twall\tx\ty\tz\tnx\tny\tnz\toverlap\tfn\tftx\tfty\tftz\n");
    fprintf(f, "# frame 7 0.25 %ld\n", claim);
    for (long k = 0; k < n; k++)
        if (k == bad_row) fprintf(f, "7\t0.25\t%ld\t0\t-1\t-1\tfloor\t%.17g\t0\tx\t0\t0\t1\t1e-6\t2\t0\t0\t0\n", k, k * 0.001);
        else fprintf(f, "7\t0.25\t%ld\t0\t%ld\t%d\t%s\t%.17g\t0\t%.17g\t0\t0\t1\t1e-6\t%.17g\t0\t0\t0\n", k, k % 7 ? k + 1 : -1,
                     k % 7 ? 0 : -1, k % 7 ? "-" : (k % 2 ? "floor" : "lid"), k * 0.001, 1.0 / (k + 3), 2.0 + k);
    fclose(f);
}

void test_measure_reader(void)
{
    enum { N = 20000 };
    t_sh(NULL, 0, "mkdir -p " D);
    big_contacts(D "/big.tsv", N, -1, N);
    pala_cfile cf = {0};
    int rc = pala_cfile_open(&cf, D "/big.tsv", stderr);
    T_CHECK(rc == PALA_OK, "a contacts.tsv of one frame of %d rows opens (%d)", N, rc);
    if (rc != PALA_OK) return;
    rc = pala_cfile_next(&cf, stderr);
    T_CHECK(rc == 1 && cf.n == N && cf.step == 7, "its frame read: %d, %ld rows, step %ld", rc, cf.n, cf.step);
    long wrong = 0;
    for (long k = 0; k < cf.n; k++) {
        const pala_contact *c = &cf.c[k];
        int wall = k % 7 == 0;
        wrong += c->i != k || c->j != (wall ? -1 : k + 1) || c->x.x != k * 0.001 || c->x.z != 1.0 / (k + 3) || c->fn != 2.0 + k ||
                 c->face != (wall ? (k % 2 ? 1 : 0) : -1);
    }
    T_CHECK(wrong == 0, "every row in its place, its numbers to the last bit, the walls' faces named as met (lid, floor): %ld wrong", wrong);
    T_CHECK(cf.nface == 2 && !strcmp(cf.face[0], "lid") && !strcmp(cf.face[1], "floor"), "two faces, lid then floor (%d)", cf.nface);
    T_CHECK(pala_cfile_next(&cf, stderr) == 0, "then the end of the file");
    pala_cfile_close(&cf);

    big_contacts(D "/bigbad.tsv", N, 15000, N);
    pala_cfile cb = {0};
    FILE *e = fopen(D "/bigbad.err", "w+");
    int got = e && pala_cfile_open(&cb, D "/bigbad.tsv", e) == PALA_OK ? pala_cfile_next(&cb, e) : -9;
    char msg[512] = "";
    if (e) { rewind(e); if (!fgets(msg, sizeof msg, e)) msg[0] = 0; fclose(e); }
    pala_cfile_close(&cb);
    T_CHECK(got == -1 && strstr(msg, "bigbad.tsv:15004:") && strstr(msg, "not a contact"),
            "row 15,000 of 20,000 (a letter for z) refused at its own line 15004: %d, %s", got, msg);

    big_contacts(D "/bigcut.tsv", 10, -1, 4000000000000L);
    pala_cfile cc = {0};
    e = fopen(D "/bigcut.err", "w+");
    got = e && pala_cfile_open(&cc, D "/bigcut.tsv", e) == PALA_OK ? pala_cfile_next(&cc, e) : -9;
    msg[0] = 0;
    if (e) { rewind(e); if (!fgets(msg, sizeof msg, e)) msg[0] = 0; fclose(e); }
    pala_cfile_close(&cc);
    T_CHECK(got == -1 && strstr(msg, "cut"), "a frame that claims 4e12 rows and has 10: a cut frame (%d, %s)", got, msg);

    /* trajectory.txt, 9,000 grains a frame (several threads), read as trajectory.bin is: the
     * same grains.csv of pala export (XYZ) to the byte; a bad line deep in a frame at its line */
    const char *gas = "container = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\ndt = 1e-6\nsteps = 2\ntrajectory_every = 1\n"
                      "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\n[grain s]\nmaterial = m\nshape = sphere\nradius = 0.0005\n"
                      "[group g]\ngrain = s\ncount = 9000\nvelocity_spread = 0.1\n";
    scene(D "/gas9k.txt", "%s", gas);
    char out[4096];
    rc = t_sh(out, sizeof out, "./pala run " D "/gas9k.txt -o " D "/gas9k.txt.run --force --quiet && ./pala run " D "/gas9k.txt -o " D
                  "/gas9k.bin.run --force --quiet --set trajectory_format=binary && ./pala export " D "/gas9k.txt.run --format xyz -o " D
                  "/gas9k.txt.xyz && ./pala export " D "/gas9k.bin.run --format xyz -o " D "/gas9k.bin.xyz && cmp " D "/gas9k.txt.xyz " D
                  "/gas9k.bin.xyz && wc -l < " D "/gas9k.txt.xyz");
    T_CHECK(rc == 0 && strstr(out, "\n27006") != NULL, "9,000 grains x 3 frames from trajectory.txt equal to those of trajectory.bin (exit %d): %s", rc, out);
    rc = t_sh(out, sizeof out, "sed '9000s/^[^ ]*/x/' " D "/gas9k.txt.run/trajectory.txt > " D "/gas9k.bad.txt && ./pala export " D
                  "/gas9k.bad.txt --format xyz -o " D "/gas9k.bad.xyz 2>&1");
    T_CHECK(rc != 0 && strstr(out, "gas9k.bad.txt:9000:") && strstr(out, "expected 12 numbers"),
            "a letter for x on line 9000 (a frame's middle) refused at that line (exit %d): %s", rc, out);
}

/* pala_fmt17 (par.c), the contact writer's numbers: the characters of printf's "%.17g" for
 * doubles of every magnitude (random bit patterns, and random 17-digit values from 1e-35 to
 * 1e35, some rounded to 6 decimals) and for the edges: the powers of ten and the values
 * just below them (where log10 rounds up), ties, zeros of both signs, subnormals. */
void test_measure_fmt17(void)
{
    unsigned long long s = 88172645463325252ULL;
    long bad = 0, n = 300000;
    char a[64], b[64], first[160] = "";
    for (long i = 0; i < n; i++) {
        s ^= s << 13; s ^= s >> 7; s ^= s << 17;
        double x;
        if (i % 3 == 0) memcpy(&x, &s, sizeof x);
        else {
            x = (double)(s >> 11) / 9007199254740992.0 * pow(10, (double)((int)((s >> 3) % 70) - 35));
            if (s & 1) x = -x;
            if (i % 7 == 0) x = round(x * 1e6) / 1e6;
        }
        if (isnan(x)) continue;
        pala_fmt17(a, x);
        snprintf(b, sizeof b, "%.17g", x);
        if (strcmp(a, b) && !bad++) snprintf(first, sizeof first, "%s for %s", a, b);
    }
    for (int e = -20; e <= 20; e++)
        for (int k = -2; k <= 2; k++) {
            double p = pow(10, e), x = k < 0 ? nextafter(p, 0) : k > 0 ? nextafter(p, 1e300) : p;
            if (k == 2) x = -x;
            if (k == -2) x = p * 0.5;
            pala_fmt17(a, x);
            snprintf(b, sizeof b, "%.17g", x);
            if (strcmp(a, b) && !bad++) snprintf(first, sizeof first, "%s for %s", a, b);
        }
    const double edge[] = {0.0, -0.0, 0.5, 0.1, 0.3, 1234.5, 5e-324, 2.5e-300, 1e300, 123456789012345678.0, 9999999999999998.0, 99999999999999999.0,
                           9.9999999999999995e-07, 1.0000000000000001e-16, HUGE_VAL, -HUGE_VAL};
    for (unsigned i = 0; i < sizeof edge / sizeof *edge; i++) {
        pala_fmt17(a, edge[i]);
        snprintf(b, sizeof b, "%.17g", edge[i]);
        if (strcmp(a, b) && !bad++) snprintf(first, sizeof first, "%s for %s", a, b);
    }
    T_CHECK(bad == 0, "pala_fmt17 writes what printf's %%.17g writes: %ld of %ld numbers differ (first: %s)", bad, n + 205 + 16, first);
}

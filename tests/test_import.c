/* test_import.c: starting a run from a LAMMPS data file (src/lib/lammps.c, keys lammps_data,
 * lammps_material, lammps_mc_samples; docs/performance.md).  Runs ./pala on tiny data
 * files in build/tmp and reads the first frame of trajectory.txt back: spheres keep their
 * positions, velocities and the material's mass; 4-pebble clumps become one shared
 * template placed so that every pebble lands where the file has it; bad files give exit 1
 * and a FILE:LINE: message naming the problem. */
#include "t.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_import(void);

/* The start of a trajectory.txt: templates, grain template indices, frame 0. */
enum { MAXT = 8, MAXG = 8, MAXC = 8 };
typedef struct traj {
    int ntmpl, ncomp[MAXT];
    double mass[MAXT], shape[MAXT][MAXC][4];   /* bx by bz radius */
    int ngr, tid[MAXG];
    double st[MAXG][12];                       /* x r v omega of frame 0 */
} traj;

static int read_traj(const char *path, traj *T)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    memset(T, 0, sizeof *T);
    char line[1024];
    int ok = 0;   /* the header's keyword lines (dimension, container, ...) up to `templates N` */
    while (!ok && fgets(line, sizeof line, f)) ok = sscanf(line, "templates %d", &T->ntmpl) == 1;
    ok = ok && T->ntmpl > 0 && T->ntmpl <= MAXT;
    for (int t = 0; ok && t < T->ntmpl; t++) {
        ok = fgets(line, sizeof line, f) && sscanf(line, "template %*d %*s ncomp %d mass %lf", &T->ncomp[t], &T->mass[t]) == 2
          && T->ncomp[t] > 0 && T->ncomp[t] <= MAXC;
        for (int i = 0; ok && i < T->ncomp[t]; i++) {
            double *b = T->shape[t][i];
            ok = fgets(line, sizeof line, f) && sscanf(line, "%lf %lf %lf %lf", b, b + 1, b + 2, b + 3) == 4;
        }
    }
    ok = ok && fscanf(f, " grains %d", &T->ngr) == 1 && T->ngr > 0 && T->ngr <= MAXG;
    for (int k = 0; ok && k < T->ngr; k++) ok = fscanf(f, "%d", &T->tid[k]) == 1 && T->tid[k] >= 0 && T->tid[k] < T->ntmpl;
    long step;
    ok = ok && fscanf(f, " frame %ld %*f", &step) == 1 && step == 0;
    for (int k = 0; ok && k < T->ngr; k++)
        for (int c = 0; ok && c < 12; c++) ok = fscanf(f, "%lf", &T->st[k][c]) == 1;
    fclose(f);
    return ok ? 0 : -1;
}

/* A control file that takes its grains from DATA (a name in the same folder). */
static void write_scene(const char *path, const char *data, const char *extra)
{
    char text[1024];
    snprintf(text, sizeof text,
             "dimension = 3\ncontainer = box\nwall_material = m\ndt = 1e-7\nsteps = 2\n"
             "lammps_data = %s\nlammps_material = m\n%s"
             "[material m]\ndensity = 2500\nyoung = 5e8\npoisson = 0.3\n", data, extra);
    t_write(path, text);
}

static const char header[] =
    "LAMMPS data file written by hand for pala's tests\n\n"
    "%d atoms\n1 atom types\n\n"
    "0 0.1 xlo xhi\n0 0.1 ylo yhi\n0 0.1 zlo zhi\n\n";

/* (a) three spheres, out of id order, one row without image flags, with velocities or
 * (vel = 0) without: then the grains start at rest */
static void spheres(int vel)
{
    const char *d = t_tmpdir();
    char path[256], scene[256], out[4096], text[2048];
    /* id diameter x y z v omega; written in the order 2 3 1 */
    static const double at[3][11] = {
        {1, 0.002, 0.02, 0.03, 0.04, 0.1, 0.2, 0.3, 1, 2, 3},
        {2, 0.004, 0.05, 0.05, 0.05, -0.1, 0, 0, 0, 0, 0},
        {3, 0.006, 0.08, 0.07, 0.06, 0, 0, -1, 0, 0, 5},
    };
    int n = snprintf(text, sizeof text, header, 3);
    n += snprintf(text + n, sizeof text - (size_t)n, "Atoms # sphere\n\n"
                  "2 1 0.004 2500 0.05 0.05 0.05 0 0 0\n"
                  "3 1 0.006 2500 0.08 0.07 0.06 0 0 0\n"
                  "1 1 0.002 2500 0.02 0.03 0.04\n\n");
    if (vel)
        snprintf(text + n, sizeof text - (size_t)n, "Velocities\n\n"
                 "3 0 0 -1 0 0 5\n1 0.1 0.2 0.3 1 2 3\n2 -0.1 0 0 0 0 0\n");
    snprintf(path, sizeof path, "%s/import_spheres%d.data", d, vel);
    t_write(path, text);
    snprintf(scene, sizeof scene, "%s/import_spheres%d.txt", d, vel);
    snprintf(path, sizeof path, "import_spheres%d.data", vel);
    write_scene(scene, path, "");
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/import_spheres%d.run --force --quiet", scene, d, vel);
    T_CHECK(rc == 0, "import of three spheres runs: exit %d %.300s", rc, out);
    traj T;
    snprintf(path, sizeof path, "%s/import_spheres%d.run/trajectory.txt", d, vel);
    int ok = read_traj(path, &T) == 0;
    T_CHECK(ok, "read the first frame of %s", path);
    if (!ok) return;
    T_CHECK(T.ngr == 3, "three atoms give three grains (got %d)", T.ngr);
    if (T.ngr != 3) return;
    int bad = 0;
    for (int k = 0; k < 3; k++) {   /* grain k is atom id k+1 */
        const double *s = T.st[k], *a = at[k];
        for (int c = 0; c < 3; c++)
            bad += s[c] != a[2 + c] || s[3 + c] != 0 || s[6 + c] != (vel ? a[5 + c] : 0) || s[9 + c] != (vel ? a[8 + c] : 0);
        double r = 0.5 * a[1], m = 2500 * 4.0 / 3.0 * PALA_PI * r * r * r;
        int t = T.tid[k];
        T_CHECK(T.ncomp[t] == 1 && fabs(T.mass[t] - m) <= 1e-14 * m,
                "sphere %d: one component, mass %.10g = density 4/3 pi r^3 = %.10g", k, T.mass[t], m);
    }
    T_CHECK(bad == 0, "%s: the first frame has the file's positions%s in atom-id order (%d values differ)",
            vel ? "with Velocities" : "without Velocities", vel ? ", velocities and spins" : " and zero velocities", bad);
}

/* (b) two tetrahedral clumps of four pebbles (as in the clump benchmark bed), the
 * second turned by 90 degrees about z, molecule ids out of order */
static void clumps(void)
{
    const char *d = t_tmpdir();
    const double a = 0.00042426406871192853, rad = 0.001;
    const double tet[4][3] = {{a, a, a}, {a, -a, -a}, {-a, a, -a}, {-a, -a, a}};
    const double cen[2][3] = {{0.03, 0.02, 0.015}, {0.06, 0.05, 0.04}};   /* molecule 3, molecule 7 */
    const double vel[2][3] = {{0.1, -0.2, 0.3}, {0, 0, -0.5}};
    double q[8][3];
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < 4; i++) {
            const double *p = tet[i];
            double rot[3] = {m ? -p[1] : p[0], m ? p[0] : p[1], p[2]};
            for (int c = 0; c < 3; c++) q[4 * m + i][c] = cen[m][c] + rot[c];
        }
    char text[4096], path[256], scene[256], out[4096];
    int n = snprintf(text, sizeof text, header, 8);
    n += snprintf(text + n, sizeof text - (size_t)n, "Atoms # sphere\n\n");
    /* atom ids 1..8: 1-4 in molecule 7 (the second clump), 5-8 in molecule 3 */
    for (int k = 0; k < 8; k++) {
        const double *p = q[(k + 4) % 8];
        n += snprintf(text + n, sizeof text - (size_t)n, "%d 1 %.17g 2500 %.17g %.17g %.17g 0 0 0\n", k + 1, 2 * rad, p[0], p[1], p[2]);
    }
    n += snprintf(text + n, sizeof text - (size_t)n, "\nVelocities\n\n");
    for (int k = 0; k < 8; k++) {
        const double *v = vel[k < 4 ? 1 : 0];
        n += snprintf(text + n, sizeof text - (size_t)n, "%d %.17g %.17g %.17g 0 0 0\n", k + 1, v[0], v[1], v[2]);
    }
    n += snprintf(text + n, sizeof text - (size_t)n, "\nMolecules\n\n");
    for (int k = 0; k < 8; k++) n += snprintf(text + n, sizeof text - (size_t)n, "%d %d\n", k + 1, k < 4 ? 7 : 3);
    snprintf(path, sizeof path, "%s/import_clumps.data", d);
    t_write(path, text);
    snprintf(scene, sizeof scene, "%s/import_clumps.txt", d);
    write_scene(scene, "import_clumps.data", "lammps_mc_samples = 100000\n");
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/import_clumps.run --force --quiet", scene, d);
    T_CHECK(rc == 0, "import of two clumps runs: exit %d %.300s", rc, out);
    traj T;
    snprintf(path, sizeof path, "%s/import_clumps.run/trajectory.txt", d);
    int ok = read_traj(path, &T) == 0;
    T_CHECK(ok, "read the first frame of %s", path);
    if (!ok) return;
    T_CHECK(T.ngr == 2 && T.ntmpl == 1 && T.ncomp[0] == 4 && T.tid[0] == 0 && T.tid[1] == 0,
            "two molecules give two grains of one shared 4-component template (grains %d, templates %d, ncomp %d)",
            T.ngr, T.ntmpl, T.ncomp[0]);
    if (T.ngr != 2 || T.ntmpl != 1 || T.ncomp[0] != 4) return;
    for (int g = 0; g < 2; g++) {   /* grain 0 is molecule 3 */
        const double *s = T.st[g];
        /* the tetrahedron is symmetric: its centre of mass is the mean of the pebbles, up
         * to the builder's Monte Carlo error (1e5 samples: a few um; a pebble offset is 735 um) */
        double dx = pala_vnorm(pala_vsub(pala_v(s[0], s[1], s[2]), pala_v(cen[g][0], cen[g][1], cen[g][2])));
        T_CHECK(dx < 0.02 * rad, "clump %d: centre of mass %.3g m from the mean of its pebble centres (tol %.3g)", g, dx, 0.02 * rad);
        /* every pebble of the template, placed by x + r * b (eq. 6), lands on one of the file's */
        int hit = 0;
        double worst = 0;
        for (int i = 0; i < 4; i++) {
            const double *b = T.shape[0][i];
            pala_vec3 c = pala_vadd(pala_v(s[0], s[1], s[2]), pala_rot_apply(pala_v(s[3], s[4], s[5]), pala_v(b[0], b[1], b[2])));
            double best = 1;
            for (int j = 0; j < 4; j++) best = fmin(best, pala_vnorm(pala_vsub(c, pala_v(q[4 * g + j][0], q[4 * g + j][1], q[4 * g + j][2]))));
            hit += best < 1e-9 && b[3] == rad;
            worst = fmax(worst, best);
        }
        T_CHECK(hit == 4, "clump %d: all 4 template pebbles land on the file's pebbles (%d do; worst miss %.3g m)", g, hit, worst);
        double dv = pala_vnorm(pala_vsub(pala_v(s[6], s[7], s[8]), pala_v(vel[g][0], vel[g][1], vel[g][2])));
        double dw = pala_vnorm(pala_v(s[9], s[10], s[11]));
        T_CHECK(dv < 1e-15 && dw == 0, "clump %d: velocity is the atoms' common velocity (|dv| %.3g, |omega| %.3g)", g, dv, dw);
    }
    /* volume of the union is below 4 spheres: pala's mass is rho times the union */
    double m4 = 4 * 2500 * 4.0 / 3.0 * PALA_PI * rad * rad * rad;
    T_CHECK(T.mass[0] < 0.9 * m4 && T.mass[0] > 0.5 * m4, "clump mass %.4g counts the overlaps once (4 separate pebbles: %.4g)", T.mass[0], m4);
}

/* (c) bad files: exit 1 and DATA:LINE: (or DATA:) naming the problem */
static void bad_data(const char *name, const char *body, const char *where, const char *msg)
{
    const char *d = t_tmpdir();
    char path[256], scene[256], out[4096], text[2048], data[64];
    snprintf(data, sizeof data, "import_%s.data", name);
    int n = snprintf(text, sizeof text, header, 2);
    snprintf(text + n, sizeof text - (size_t)n, "%s", body);
    snprintf(path, sizeof path, "%s/%s", d, data);
    t_write(path, text);
    snprintf(scene, sizeof scene, "%s/import_%s.txt", d, name);
    write_scene(scene, data, "");
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/import_%s.run --force --quiet", scene, d, name);
    char want[128];
    snprintf(want, sizeof want, "%s%s", data, where);
    T_CHECK(rc == 1 && strstr(out, want) && strstr(out, msg),
            "bad data file '%s': exit %d, wants '%s' and '%s': %.300s", name, rc, want, msg, out);
}

/* (d) 600 spheres (enough to be stored in spatial order, pala_world_sort), numbered
 * against that order: the trajectory still lists them by atom id */
static void order_kept(void)
{
    const char *d = t_tmpdir();
    char path[256], scene[256], out[4096];
    snprintf(path, sizeof path, "%s/import_order.data", d);
    FILE *f = fopen(path, "w");
    if (!f) { T_CHECK(0, "create %s", path); return; }
    fprintf(f, header, 600);
    fprintf(f, "Atoms # sphere\n\n");
    for (int id = 1; id <= 600; id++) {   /* id 1 top right, id 600 bottom left */
        int i = 600 - id, ix = i % 10, iy = (i / 10) % 10, iz = i / 100;
        fprintf(f, "%d 1 0.002 2500 %.3f %.3f %.3f\n", id, 0.005 + 0.01 * ix, 0.005 + 0.01 * iy, 0.005 + 0.01 * iz);
    }
    fprintf(f, "\nVelocities\n\n");
    for (int id = 1; id <= 600; id++) fprintf(f, "%d %g 0 0 0 0 0\n", id, 1e-3 * id);
    fclose(f);
    snprintf(scene, sizeof scene, "%s/import_order.txt", d);
    write_scene(scene, "import_order.data", "");
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/import_order.run --force --quiet", scene, d);
    T_CHECK(rc == 0, "600 spheres run: exit %d %.300s", rc, out);
    snprintf(path, sizeof path, "%s/import_order.run/trajectory.txt", d);
    f = fopen(path, "r");
    char line[512];
    int bad = 0, n = 0, inframe = 0;
    while (f && fgets(line, sizeof line, f) && n < 600) {
        if (!inframe) { inframe = !strncmp(line, "frame 0 ", 8); continue; }
        double x, y, z, r[3], vx;
        int i = 600 - (n + 1);
        if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf", &x, &y, &z, r, r + 1, r + 2, &vx) != 7) { bad++; break; }
        bad += fabs(x - (0.005 + 0.01 * (i % 10))) > 1e-12 || fabs(y - (0.005 + 0.01 * ((i / 10) % 10))) > 1e-12 ||
               fabs(z - (0.005 + 0.01 * (i / 100))) > 1e-12 || fabs(vx - 1e-3 * (n + 1)) > 1e-15;
        n++;
    }
    if (f) fclose(f);
    T_CHECK(n == 600 && bad == 0, "600 spheres stored in spatial order: frame 0 lists them by atom id (%d rows, %d wrong)", n, bad);
}

void test_import(void)
{
    order_kept();
    spheres(1);
    spheres(0);
    clumps();
    bad_data("no-atoms", "Velocities\n\n1 0 0 0 0 0 0\n2 0 0 0 0 0 0\n", ":10: ", "Atoms");
    bad_data("density", "Atoms # sphere\n\n1 1 0.002 2500 0.02 0.02 0.02\n2 1 0.002 2000 0.05 0.05 0.05\n",
             ":13: ", "density 2000");
    bad_data("short-row", "Atoms # sphere\n\n1 1 0.002 2500 0.02 0.02 0.02\n2 1 0.002 2500 0.05 0.05\n",
             ":13: ", "expected 'id type diameter density x y z'");
    bad_data("empty", "Masses\n\n1 1.0\n", ": ", "no atoms");
    /* not a file: a device (read for ever) and a folder, refused before they are read */
    char scene[256], out[1024];
    const char *const notfile[][2] = {{"/dev/zero", "is a device or a pipe, not a file"}, {".", "is a folder, not a file"}};
    for (int i = 0; i < 2; i++) {
        snprintf(scene, sizeof scene, "%s/import_notfile.txt", t_tmpdir());
        write_scene(scene, notfile[i][0], "");
        int rc = t_sh(out, sizeof out, "timeout 60 ./pala run %s -o %s/import_notfile.run --force --quiet", scene, t_tmpdir());
        T_CHECK(rc == 1 && strstr(out, "import_notfile.txt:6: ") && strstr(out, notfile[i][1]), "lammps_data = %s: refused at its line: %s", notfile[i][0], out);
    }
}

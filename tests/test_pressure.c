/* test_pressure.c: the momentum and mean pressure columns of walls.tsv (docs/physics.md,
 * "Wall pressure"), run as the real program (./pala run) and read back:
 *   - closed forms: one sphere bouncing elastically, without a field, between two faces
 *     of a box (3D and 2D), through the centre of a cavity, and between a face and the
 *     membrane (from each side): every hit gives the wall 2 m v, the hits come at known
 *     times, so every row's momenta and mean pressures are known;
 *   - the ideal gas: a dilute elastic gas of spheres with Maxwellian velocities, the mean
 *     pressure on the faces over the run against 2 E_kin / (3 V) (3D) and E_kin / A (2D). */
#include "t.h"
#include "tsv.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

void test_pressure(void);

#define DIR "build/tmp/pressure"

/* Run the control text with ./pala and read its walls.tsv (and energy.tsv if e). */
static int run_scene(const char *name, const char *text, pala_tsv *w, pala_tsv *e)
{
    char path[256], out[4096], f[300];
    snprintf(path, sizeof path, DIR "/%s.txt", name);
    t_sh(NULL, 0, "mkdir -p " DIR);
    t_write(path, text);
    int rc = t_sh(out, sizeof out, "./pala run %s -o " DIR "/%s.run --force --quiet", path, name);
    T_CHECK(rc == 0, "%s: pala run exits with 0 (%d) %s", name, rc, out);
    memset(w, 0, sizeof *w);
    if (e) memset(e, 0, sizeof *e);
    if (rc) return -1;
    snprintf(f, sizeof f, DIR "/%s.run/walls.tsv", name);
    FILE *err = tmpfile();
    rc = pala_tsv_read(w, f, PALA_TSV_NUMERIC, err);
    if (!rc && e) {
        snprintf(f, sizeof f, DIR "/%s.run/energy.tsv", name);
        rc = pala_tsv_read(e, f, PALA_TSV_NUMERIC, err);
    }
    if (err) fclose(err);
    T_CHECK(rc == 0, "%s: walls.tsv and energy.tsv read back", name);
    return rc;
}

static double cell(const pala_tsv *t, long row, const char *col)
{
    int c = pala_tsv_col(t, col);
    return c < 0 ? (double)NAN : t->num[row * t->ncol + c];
}

/* A wall hit by one sphere at the times t1 + j period (j = 0, 1, ...) of a hard sphere,
 * each hit complete a contact time later, which also delays the following ones: the number
 * of hits complete at time t, or -1 if a contact of up to TC could be under way. */
#define TC 1e-3
static long hits(double t1, double period, int before, double t)
{
    long early = t < t1 ? 0 : (long)floor((t - t1) / period) + 1;
    double t1l = t1 + (before + 1) * TC, pl = period + 2 * TC;
    long late = t < t1l ? 0 : (long)floor((t - t1l) / pl) + 1;
    return early == late ? early : -1;
}

/* Column P (momentum) and its pressure column p of every row against hits at t1 + j period
 * (after `before` contacts elsewhere), each giving J, on area A; *worst gets the largest
 * deviation in hits, *rows counts the rows checked (those far from a contact). */
static void check_wall(const pala_tsv *w, const char *P, const char *p, double t1, double period, int before, double J, double A,
                       double *worst, int *rows)
{
    int cP = pala_tsv_col(w, P), cp = pala_tsv_col(w, p);
    if (cP < 0 || cp < 0) { *worst = HUGE_VAL; return; }
    for (long r = 0; r < w->nrow; r++) {
        double t = cell(w, r, "time"), t0 = r ? cell(w, r - 1, "time") : 0;
        long n = hits(t1, period, before, t), n0 = r ? hits(t1, period, before, t0) : 0;
        if (n < 0 || n0 < 0) continue;
        double wantp = r ? J * (double)(n - n0) / ((t - t0) * A) : 0;
        double dP = fabs(cell(w, r, P) - J * (double)n) / J, dp = fabs(cell(w, r, p) - wantp) / (J / ((t - t0 > 0 ? t - t0 : 1) * A));
        if (dP > *worst) *worst = dP;
        if (dp > *worst) *worst = dp;
        ++*rows;
    }
}

static const char *ball =
    "[material steel]\ndensity = 1000\nyoung = 1e8\n"
    "[grain ball]\nmaterial = steel\nshape = sphere\nradius = 0.005\n";

static void closed_forms(void)
{
    const double a = 0.005, v = 1, m = 1000 * 4.0 / 3 * PALA_PI * a * a * a, J = 2 * m * v;
    char text[2048];
    pala_tsv w;
    for (int dim = 3; dim >= 2; dim--) {
        /* a box 0.1 long in x: from x = 0.05 the sphere hits xhi at 0.045 s, then xlo
         * and xhi alternately every 0.09 s (free path 0.1 - 2a); rows every 0.1 s */
        snprintf(text, sizeof text,
                 "dimension = %d\ncontainer = box\nbox = 0 0.1 0 0.04 0 0.04\nwall_material = steel\n"
                 "dt = 2e-6\nend_time = 1\nenergy_every = 50000\ntrajectory_every = 0\n%s"
                 "[group one]\ngrain = ball\nplacement = list\nat = 0.05 0.02 %s 1 0 0\n",
                 dim, ball, dim == 3 ? "0.02" : "0");
        char name[32];
        snprintf(name, sizeof name, "box%dd", dim);
        if (run_scene(name, text, &w, NULL) == 0) {
            double A = dim == 3 ? 0.04 * 0.04 : 0.04, worst = 0;
            int rows = 0;
            check_wall(&w, "P_xhi", "p_xhi", 0.045, 0.18, 0, J, A, &worst, &rows);
            check_wall(&w, "P_xlo", "p_xlo", 0.135, 0.18, 1, J, A, &worst, &rows);
            check_wall(&w, "P_ylo", "p_ylo", 2, 1, 0, J, A, &worst, &rows);   /* never hit */
            T_CHECK(worst < 1e-4 && rows >= 30,
                    "%dD box, one sphere bouncing between xlo and xhi: every row's momenta are hits x 2 m v and its mean "
                    "pressures hits x 2 m v / (interval x %s) (largest deviation %.3g hits, %d rows checked)",
                    dim, dim == 3 ? "face area" : "face length", worst, rows);
        }
        pala_tsv_free(&w);
    }
    /* the cavity of radius 0.05: through the centre the sphere hits every 0.09 s */
    snprintf(text, sizeof text,
             "container = cavity\ncavity_radius = 0.05\nwall_material = steel\n"
             "dt = 2e-6\nend_time = 1\nenergy_every = 50000\ntrajectory_every = 0\n%s"
             "[group one]\ngrain = ball\nplacement = list\nat = 0 0 0 0.6 0 0.8\n", ball);
    if (run_scene("cavity", text, &w, NULL) == 0) {
        double worst = 0;
        int rows = 0;
        check_wall(&w, "P_r", "p_r", 0.045, 0.09, 0, J, 4 * PALA_PI * 0.05 * 0.05, &worst, &rows);
        T_CHECK(worst < 1e-4 && rows >= 8, "cavity, one sphere through its centre: P_r = hits x 2 m v (outward positive), p_r = "
                "hits x 2 m v / (interval x 4 pi R^2) in every row (largest deviation %.3g hits, %d rows checked)", worst, rows);
    }
    pala_tsv_free(&w);
    /* the membrane at x = 0.06, holes 0.008 wide (bars of radius 0.001): a sphere of
     * radius 0.005 on a line through a hole's centre touches the bars around it when its
     * centre is sqrt((a + r_bar)^2 - (s/2)^2) from the plane, symmetrically: each hit
     * gives the membrane 2 m v along x.  One sphere on each side, on different holes. */
    for (int dim = 3; dim >= 2; dim--) {
        snprintf(text, sizeof text,
                 "dimension = %d\ncontainer = box\nbox = 0 0.1 0 0.04 0 0.04\nwall_material = steel\n"
                 "membrane_axis = x\nmembrane_position = 0.06\nmembrane_bar_radius = 0.001\nmembrane_spacing = 0.008\n"
                 "membrane_material = steel\n"
                 "dt = 2e-6\nend_time = 1\nenergy_every = 50000\ntrajectory_every = 0\n%s"
                 "[group two]\ngrain = ball\nplacement = list\nat = 0.03 0.02 %s 1 0 0\nat = 0.08 0.012 %s -1 0 0\n",
                 dim, ball, dim == 3 ? "0.02" : "0", dim == 3 ? "0.028" : "0");
        char name[32];
        snprintf(name, sizeof name, "membrane%dd", dim);
        if (run_scene(name, text, &w, NULL) == 0) {
            double A = dim == 3 ? 0.04 * 0.04 : 0.04, worst = 0, da = sqrt(0.006 * 0.006 - 0.004 * 0.004);
            double lo_path = (0.06 - da) - a, hi_path = (0.1 - a) - (0.06 + da);   /* free paths on either side */
            int rows = 0;
            check_wall(&w, "P_mem_lo", "p_mem_lo", (0.06 - da - 0.03) / v, 2 * lo_path / v, 0, J, A, &worst, &rows);
            check_wall(&w, "P_xlo", "p_xlo", (0.06 - da - 0.03 + lo_path) / v, 2 * lo_path / v, 1, J, A, &worst, &rows);
            check_wall(&w, "P_mem_hi", "p_mem_hi", (0.08 - 0.06 - da) / v, 2 * hi_path / v, 0, J, A, &worst, &rows);
            check_wall(&w, "P_xhi", "p_xhi", (0.08 - 0.06 - da + hi_path) / v, 2 * hi_path / v, 1, J, A, &worst, &rows);
            T_CHECK(worst < 1e-4 && rows >= 24, "%dD membrane, a sphere too large for the holes bouncing on either side: P_mem_lo, "
                    "P_mem_hi are hits x 2 m v (each positive, pushed from its side), p_mem_lo, p_mem_hi hits x 2 m v / (interval "
                    "x %s) in every row (largest deviation %.3g hits, %d rows checked)", dim, dim == 3 ? "area" : "length", worst, rows);
        }
        pala_tsv_free(&w);
    }
}

/* The ideal gas (docs/physics.md, "Wall pressure"): the mean of the faces' mean pressures
 * over the run (rows of equal intervals) against 2 E_kin / (3 V), E_kin the mean over the
 * rows; in 2D against E_kin / A. */
static void ideal_gas(int dim)
{
    const double L = 0.05;
    char text[2048], name[32];
    snprintf(text, sizeof text,
             "dimension = %d\ncontainer = box\nbox = 0 %g 0 %g 0 %g\nwall_material = m\n"
             "dt = %s\nend_time = 0.3\nenergy_every = 1000\ntrajectory_every = 0\n"
             "[material m]\ndensity = 1000\nyoung = 1e6\n"
             "[grain ball]\nmaterial = m\nshape = sphere\nradius = %s\n"
             "[group gas]\ngrain = ball\ncount = 100\nvelocity_spread = 1\n",
             dim, L, L, L, dim == 3 ? "5e-6" : "4e-6", dim == 3 ? "0.00025" : "0.00015");
    snprintf(name, sizeof name, "gas%dd", dim);
    pala_tsv w, e;
    if (run_scene(name, text, &w, &e) == 0) {
        static const char *const faces[6] = {"p_xlo", "p_xhi", "p_ylo", "p_yhi", "p_zlo", "p_zhi"};
        double p = 0, ek = 0;
        for (long r = 1; r < w.nrow; r++)
            for (int f = 0; f < 2 * dim; f++) p += cell(&w, r, faces[f]) / (double)((w.nrow - 1) * 2 * dim);
        for (long r = 0; r < e.nrow; r++) ek += cell(&e, r, "E_kin") / (double)e.nrow;
        double want = dim == 3 ? 2 * ek / (3 * L * L * L) : ek / (L * L);
        T_CHECK(fabs(p / want - 1) < 0.03, "%dD ideal gas of 100 spheres: the faces' mean pressure %.5g %s vs %s = %.5g (ratio %.4f, "
                "tolerance 3 %%)", dim, p, dim == 3 ? "Pa" : "N/m", dim == 3 ? "2 E_kin / (3 V)" : "E_kin / A", want, p / want);
    }
    pala_tsv_free(&w);
    pala_tsv_free(&e);
}

void test_pressure(void)
{
    closed_forms();
    ideal_gas(3);
    ideal_gas(2);
}

/* test_output.c: output is never lost silently (issue 15): SIGHUP stops a run like
 * SIGTERM; a full disk stops it at once with exit 5 naming the file; lost standard output
 * is exit 5 in every command; summary.tsv has unique column names (a scene that sets
 * `steps` can be collected) and `pala collect --skip-incomplete`; the health of a run (the
 * worst |dE_bal_rel|, a warning above 0.01 with advice); and the time-step rule of friction
 * (docs/physics.md, "Choosing dt"): a rolling contact damps its slip at
 * lambda = (7/2) mu g / nu, the step follows it for lambda dt <= 0.2 and oscillates for
 * lambda dt > 1. */
#include "t.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_output(void);

#define D "build/tmp/output"
#define TEN "./pala run examples/paper-ten-grains.txt --quiet --force"

static void sighup(void)
{
    char out[8192];
    /* a long run (1 s simulated), stopped by SIGHUP once energy.tsv has 100 rows */
    int rc = t_sh(out, sizeof out, "rm -rf " D "/hup.run; ./pala run examples/settling-box.txt -o " D "/hup.run --force --quiet & p=$!; "
                  "i=0; while [ \"$(cat " D "/hup.run/energy.tsv 2>/dev/null | wc -l)\" -lt 100 ] && [ $i -lt 3000 ]; do sleep 0.01; i=$((i+1)); done; kill -HUP $p; wait $p");
    T_CHECK(rc == 4 && strstr(out, "interrupted at step"), "SIGHUP: exit %d (want 4, like SIGTERM) %s", rc, out);
    rc = t_sh(out, sizeof out, "cut -f 2 " D "/hup.run/summary.tsv | tail -1; tail -c 1 " D "/hup.run/energy.tsv | od -c | head -1");
    T_CHECK(rc == 0 && strstr(out, "\\n"), "SIGHUP: energy.tsv ends with a whole line %s", out);
    rc = t_sh(out, sizeof out, "grep -c interrupted " D "/hup.run/summary.tsv");
    T_CHECK(rc == 0 && atoi(out) == 1, "SIGHUP: summary.tsv says interrupted (%s)", out);
}

static void lost_stdout(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, TEN " --set steps=10 -o " D "/ten.run");
    T_CHECK(rc == 0, "a short run (exit %d) %s", rc, out);
    static const char *const cmds[] = {
        "./pala run examples/paper-ten-grains.txt --set steps=10 --force -o " D "/full.run",
        "./pala check " D "/ten.run " D "/ten.run",
        "./pala collect " D "/ten.run",
        "./pala help keys",
        "./pala help friction",
        "./pala --version",
        "./pala sweep examples/paper-ten-grains.txt --vary dt=1e-6,2e-6 -o " D "/sweep --force",
    };
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        rc = t_sh(out, sizeof out, "%s > /dev/full", cmds[i]);
        T_CHECK(rc == 5 && strstr(out, "standard output"), "'%s > /dev/full': exit %d (want 5) %s", cmds[i], rc, out);
    }
}

static void summary_and_collect(void)
{
    char out[16384];
    /* the scene sets steps: the settings' `steps` and the result column no longer clash */
    int rc = t_sh(out, sizeof out, "head -1 " D "/ten.run/summary.tsv | tr '\\t' '\\n' | sort | uniq -d");
    T_CHECK(rc == 0 && out[0] == 0, "summary.tsv: every column name once (duplicates: %s)", out);
    rc = t_sh(out, sizeof out, TEN " --set steps=20 -o " D "/ten20.run && ./pala collect " D "/ten.run " D "/ten20.run | cut -f 1,2");
    T_CHECK(rc == 0 && strstr(out, "ten20.run\t20"), "collect of two runs that set steps: exit %d %s", rc, out);
    /* an incomplete run: no summary.tsv */
    t_sh(NULL, 0, "mkdir -p " D "/killed.run && cp " D "/ten.run/energy.tsv " D "/killed.run/");
    rc = t_sh(out, sizeof out, "./pala collect " D "/ten.run " D "/killed.run");
    T_CHECK(rc == 1, "collect with an incomplete run: exit %d (want 1)", rc);
    rc = t_sh(out, sizeof out, "./pala collect --skip-incomplete " D "/ten.run " D "/killed.run " D "/ten20.run 2>&1 >" D "/table.tsv; wc -l < " D "/table.tsv");
    T_CHECK(rc == 0 && strstr(out, "skipped (no complete summary.tsv): " D "/killed.run") && strstr(out, "\n3\n"),
            "collect --skip-incomplete: two rows, the killed run listed %s", out);
}

/* A full disk: a 200 KB tmpfs (root may mount one; otherwise skipped).  The file that
 * fills it (a log or the checkpoint) is named; tests/test_checkpoint.c resumes such a run. */
static void full_disk(void)
{
    char out[8192];
    const char *mnt = D "/small";
    t_sh(NULL, 0, "mkdir -p %s", mnt);
    if (t_sh(out, sizeof out, "mount -t tmpfs -o size=200k tmpfs %s", mnt) != 0) {
        t_skip("full disk: cannot mount a 200 KB tmpfs here (needs root); run make test as root to check it");
        return;
    }
    double t0 = 0;
    int rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --set trajectory_every=100 --set checkpoint_every=100 -o %s/sb.run --quiet", mnt);
    T_CHECK(rc == 5 && strstr(out, "failed: No space left on device") && strstr(out, "stopped at step"),
            "full disk: exit %d (want 5), the file named, stopped at once %s", rc, out);
    const char *p = strstr(out, "stopped at step ");
    long at = p ? atol(p + 16) : -1;
    T_CHECK(at > 0 && at < 100000, "full disk: stopped at step %ld, far before the end (100000) (t0 %g)", at, t0);
    t_sh(NULL, 0, "umount %s", mnt);
}

static void health(void)
{
    char out[8192];
    /* the settling box at dt = 1e-4 (past the check of dt: its contacts last 2 steps):
     * lambda dt = 1.7 for its rolling contacts */
    int rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --set dt=1e-4 --set dt_check=warn --set end_time=0.4 -o " D "/sb4.run --force --quiet");
    T_CHECK(rc == 0 && strstr(out, "warning: " D "/sb4.run: the energy balance") && strstr(out, "nu / ((7/2) mu g)") && strstr(out, "= 5.82e-05 s") &&
            strstr(out, "1.16e-05 s"),
            "settling box at dt = 1e-4: a warning with the friction rule (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "tail -1 " D "/sb4.run/summary.tsv | tr '\\t' '\\n' | tail -2");
    double bal = atof(out);
    T_CHECK(rc == 0 && bal > 0.01 && strstr(out, "energy_balance"), "summary.tsv records the worst |dE_bal_rel| %g and the warning: %s", bal, out);
    rc = t_sh(out, sizeof out, "./pala run examples/paper-ten-grains.txt --set steps=2000 -o " D "/ten2k.run --force");
    T_CHECK(rc == 0 && strstr(out, "max |dE_bal_rel|") && !strstr(out, "warning"), "a healthy run: no warning, the figure in the summary line %s", out);
}

/* One sphere resting on the floor (placed at its Hertz equilibrium, so it does not bounce)
 * with a slip velocity w0 = 0.01 nu: w decays as w0 exp(-lambda t), lambda = (7/2) mu g / nu
 * (docs/physics.md, "Choosing dt").  Returns w(5 / lambda) / w0 at lambda dt = f, and the
 * smallest ratio w(t)/w0 on the way (negative: the slip changed sign). */
static double rolling(double f, double *minratio)
{
    const double R = 0.01, rho = 1000, E = 1e9, sg = 0.3, g = 9.81, mu = 0.5, nu = 1e-4;
    const double m = 4.0 / 3.0 * 3.14159265358979323846 * R * R * R * rho;
    const double k = sqrt(3.0) / 2 * E / (1 - sg * sg) * sqrt(2 * R);   /* eq. (57), r~ = 2R at a wall */
    const double d = pow(m * g / k, 2.0 / 3.0), lam = 3.5 * mu * g / nu, w0 = 0.01 * nu;
    char text[2048], out[256];
    snprintf(text, sizeof text, "dt = %.17g\nsteps = %d\ngravity = 0 0 -9.81\nbox = 0 1 0 1 0 1\nwall_material = m\n"
             "energy_every = 0\ntrajectory_every = 1\n[material m]\ndensity = %g\nyoung = %g\npoisson = %g\ndelta = 1\n"
             "friction = %g\nslip_velocity = %g\n[grain g]\nmaterial = m\nshape = sphere\nradius = %g\n"
             "[group a]\ngrain = g\nplacement = list\nat = 0.5 0.5 %.17g %g 0 0\n",
             f / lam, (int)lround(5 / f), rho, E, sg, mu, nu, R, R - d, w0);
    t_write(D "/roll.txt", text);
    if (t_sh(out, sizeof out, "./pala run " D "/roll.txt -o " D "/roll.run --force --quiet") != 0) return (double)NAN;
    FILE *fp = fopen(D "/roll.run/trajectory.txt", "r");
    if (!fp) return (double)NAN;
    char line[1024];
    double w = (double)NAN, mn = 1;
    while (fgets(line, sizeof line, fp)) {
        double q[12];
        if (sscanf(line, "%lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf %lf", q, q + 1, q + 2, q + 3, q + 4, q + 5, q + 6, q + 7, q + 8, q + 9, q + 10, q + 11) != 12) continue;
        w = (q[6] - R * q[10]) / w0;   /* slip of the contact point: v_x - R omega_y */
        if (w < mn) mn = w;
    }
    fclose(fp);
    *minratio = mn;
    return w;
}

static void friction_rule(void)
{
    double mn;
    double w = rolling(0.2, &mn);
    T_CHECK(fabs(log(w) + 5) < 0.15 && mn > 0, "rolling contact at lambda dt = 0.2: slip w(5/lambda)/w0 = %.4g, exp(-5) = %.4g; never reverses (min %.3g)", w, exp(-5.0), mn);
    w = rolling(0.1, &mn);
    T_CHECK(fabs(log(w) + 5) < 0.05 && mn > 0, "rolling contact at lambda dt = 0.1: slip w(5/lambda)/w0 = %.4g, exp(-5) = %.4g", w, exp(-5.0));
    w = rolling(1.5, &mn);
    T_CHECK(fabs(w) > 0.1 && mn < 0, "rolling contact at lambda dt = 1.5, beyond the limit 1: the slip oscillates and does not decay (w/w0 = %.3g, min %.3g)", w, mn);
}

void test_output(void)
{
    t_sh(NULL, 0, "mkdir -p " D);
    sighup();
    lost_stdout();
    summary_and_collect();
    full_disk();
    health();
    friction_rule();
}

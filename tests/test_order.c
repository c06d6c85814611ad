/* test_order.c: `pala order` measures the integrator's order on the paper's ten-grain
 * scene (issue acceptance: 2.0 +/- 0.2 in the early window), and every example matches
 * its reference energy curve under `pala check`. */
#include "t.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_order(void);

void test_order(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./pala order examples/paper-ten-grains.txt --set end_time=0.004 -o %s/order --force", t_tmpdir());
    const char *p = strstr(out, "finest pair): trajectory ");
    double pt = 0, pe = 0;
    if (p) sscanf(p, "finest pair): trajectory %lf, energy %lf", &pt, &pe);
    T_CHECK(rc == 0 && p, "pala order runs on the ten-grain scene (exit %d)", rc);
    T_CHECK(pt > 1.8 && pt < 2.2, "trajectory order %.3f in 2.0 +/- 0.2", pt);
    T_CHECK(pe > 1.8 && pe < 2.2, "energy order %.3f in 2.0 +/- 0.2", pe);
    rc = t_sh(out, sizeof out, "head -1 %s/order/order.tsv", t_tmpdir());
    T_CHECK(rc == 0 && strstr(out, "d_traj_4") && strstr(out, "d_E_4"), "order.tsv holds the distance curves of every refinement: %.100s", out);

    /* threads: the same bytes for 1, 2 and 3 threads (900 grains = 4 blocks of work) */
    FILE *sc = NULL;
    char scene[256];
    snprintf(scene, sizeof scene, "%s/threads.txt", t_tmpdir());
    if ((sc = fopen(scene, "w"))) {
        fputs("dt = 2e-6\nsteps = 400\nenergy_every = 20\ntrajectory_every = 100\ncontainer = box\nbox = 0 0.05 0 0.05 0 0.05\n"
              "wall_material = m\ngravity = 0 0 -9.81\n[material m]\ndensity = 2500\nyoung = 1e8\ndelta = 0.5\nfriction = 0.4\n"
              "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.0012\n[grain duo]\nmaterial = m\nshape = spheres\n"
              "sphere = -0.0008 0 0 0.001\nsphere = 0.0008 0 0 0.001\n"
              "[group a]\ngrain = ball\ncount = 600\nvelocity_spread = 2\n[group b]\ngrain = duo\ncount = 300\nvelocity_spread = 2\n", sc);
        fclose(sc);
    }
    rc = t_sh(out, sizeof out, "for n in 1 2 3; do ./pala run %s --threads $n -o %s/threads$n --quiet || exit 9; done; "
              "cmp %s/threads1/energy.tsv %s/threads2/energy.tsv && cmp %s/threads1/trajectory.txt %s/threads2/trajectory.txt && "
              "cmp %s/threads1/energy.tsv %s/threads3/energy.tsv && cmp %s/threads1/trajectory.txt %s/threads3/trajectory.txt && "
              "awk -F'\t' 'NR > 1 && $11 > 0 {c++} END {exit !(c > 5)}' %s/threads1/energy.tsv",
              scene, t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "900 colliding grains: byte-identical energy.tsv and trajectory with 1, 2 and 3 threads (exit %d) %.200s", rc, out);

    /* the Verlet skin changes when the list is rebuilt, never the result (rows sorted,
     * sums in a fixed order) */
    rc = t_sh(out, sizeof out, "for s in 0.0003 0.003; do ./pala run examples/paper-ten-grains.txt --set end_time=0.004 --set neighbor_skin=$s -o %s/skin$s --quiet || exit 9; done; "
              "cmp %s/skin0.0003/energy.tsv %s/skin0.003/energy.tsv && cmp %s/skin0.0003/trajectory.txt %s/skin0.003/trajectory.txt",
              t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "neighbor_skin 0.3 mm and 3 mm give byte-identical energy.tsv and trajectory (exit %d) %.200s", rc, out);

    /* sweep with a fixed override: in every job, not in the folder names */
    rc = t_sh(out, sizeof out, "./pala sweep examples/paper-ten-grains.txt --vary dt=1e-6,2e-6 --set end_time=0.001 -o %s/swfix > /dev/null && "
              "test $(grep -c \"'end_time=0.001'\" %s/swfix/jobs.txt) -eq 2 && test -d %s/swfix/dt=1e-6 && test -d %s/swfix/dt=2e-6",
              t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "pala sweep --set: fixed override in both jobs, folders named by dt only (exit %d) %.200s", rc, out);

    /* every example against its reference curve (examples/ref/times.txt) */
    FILE *f = fopen("examples/ref/times.txt", "r");
    char name[128];
    double end;
    int n = 0;
    while (f && fscanf(f, "%127s %lf", name, &end) == 2) {
        rc = t_sh(out, sizeof out, "./pala run examples/%s.txt --set end_time=%g -o %s/ref-%s --quiet && ./pala check %s/ref-%s examples/ref/%s.tsv",
                  name, end, t_tmpdir(), name, t_tmpdir(), name, name);
        T_CHECK(rc == 0, "example %s matches examples/ref/%s.tsv: %.300s", name, name, out);
        n++;
    }
    if (f) fclose(f);
    T_CHECK(n == 3, "three examples have references (%d)", n);
    /* one changed physical parameter is caught */
    rc = t_sh(out, sizeof out, "./pala run examples/paper-ten-grains.txt --set end_time=0.004 --set material.rubber.young=5.05e8 -o %s/ref-changed --quiet && "
              "./pala check %s/ref-changed examples/ref/paper-ten-grains.tsv", t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 3, "a 1%% change of Young's modulus fails the check with exit 3 (got %d)", rc);
}

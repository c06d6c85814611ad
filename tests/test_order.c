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

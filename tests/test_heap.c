/* test_heap.c: the heap's tools in bench/heap (docs/physics.md, "The heap"): the angle of
 * repose of synthetic cones of known angle, and pala's frame read back as the LAMMPS data
 * file examples/heap.txt starts from (the component centres of eq. 6). */
#include "t.h"
#include <stdio.h>
#include <math.h>
#include <stdlib.h>

void test_heap(void);

/* a LAMMPS dump of spheres of radius 1 mm piled as a cone of slope angle DEG, height 20 mm,
 * on a skirt one sphere high out to 60 mm: centres on a 2 mm square grid, a column of
 * spheres 2 mm apart under each surface point; the top one's top at h(r) plus a rough
 * surface: a deterministic pseudo-random offset, uniform in +-1.5 mm (zero mean) */
static void cone(const char *path, double deg)
{
    char out[4096];
    int rc = t_sh(out, sizeof out,
                  "awk -v t=%g 'BEGIN { pi = atan2(0, -1); s = sin(t * pi / 180) / cos(t * pi / 180); n = 0;"
                  " for (i = -30; i <= 30; i++) for (j = -30; j <= 30; j++) {"
                  "   x = 0.07 + 0.002 * i; y = 0.07 + 0.002 * j; r = sqrt((x - 0.07)^2 + (y - 0.07)^2);"
                  "   h = 0.02 - s * r; if (h < 0.002) h = 0.002; if (r > 0.06) continue;"
                  "   u = 1e4 * sin(12.9898 * i + 78.233 * j); h += 0.003 * (u - int(u) + (u < 0) - 0.5);"
                  "   for (z = h - 0.001; z > 0.0005; z -= 0.002) { n++; l[n] = n \" 0.001 \" x \" \" y \" \" z } }"
                  " print \"ITEM: TIMESTEP\\n0\\nITEM: NUMBER OF ATOMS\\n\" n;"
                  " print \"ITEM: BOX BOUNDS ff ff ff\\n0 0.14\\n0 0.14\\n0 0.1\\nITEM: ATOMS id radius x y z\";"
                  " for (k = 1; k <= n; k++) print l[k] }' > %s", deg, path);
    T_CHECK(rc == 0, "synthetic cone of %g degrees written (%s)", deg, out);
}

void test_heap(void)
{
    char out[4096], path[512];
    t_sh(NULL, 0, "mkdir -p %s", t_tmpdir());
    const double degs[] = {15, 30};
    for (int k = 0; k < 2; k++) {
        snprintf(path, sizeof path, "%s/cone%g.dump", t_tmpdir(), degs[k]);
        cone(path, degs[k]);
        int rc = t_sh(out, sizeof out, "bench/heap/angle.sh %s", path);
        double a = 0;
        T_CHECK(rc == 0 && sscanf(out, "angle %lf", &a) == 1, "angle.sh reads the cone of %g degrees: %s", degs[k], out);
        /* unbiased: the flank is chosen by r (choosing it by h flattens the slope) */
        T_CHECK(fabs(a - degs[k]) <= 0.5, "angle.sh on a rough cone of %g degrees gives %.2f (tol 0.5): %s", degs[k], a, out);
    }
    /* pala's first frame of examples/heap.txt, written back as a data file, gives the atoms
     * of examples/heap.data: positions to 1e-9 m (the file holds 10 digits) */
    int rc = t_sh(out, sizeof out,
                  "./pala run examples/heap.txt --set steps=0 -o %s/heap0 --force --quiet && "
                  "bench/heap/to-lammps.sh -z -b '0 0.14 0 0.14 0 0.1' %s/heap0/trajectory.txt > %s/heap0.data && "
                  "awk 'FNR == 1 { f++ } /^Atoms/ { a = 1; next } /^(Velocities|Molecules)/ { a = 0 } "
                  "a && NF == 7 { if (f == 1) { x[$1] = $5; y[$1] = $6; z[$1] = $7; n++ } else { m++; "
                  "d = (x[$1] - $5)^2 + (y[$1] - $6)^2 + (z[$1] - $7)^2; if (d > dm) dm = d } } "
                  "END { printf \"%%d %%d %%g\\n\", n, m, sqrt(dm) }' examples/heap.data %s/heap0.data",
                  t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    int n = 0, m = 0;
    double dmax = 1;
    T_CHECK(rc == 0 && sscanf(out, "%d %d %lf", &n, &m, &dmax) == 3, "heap.txt's first frame as a data file: %s", out);
    T_CHECK(n == 4000 && m == 4000 && dmax < 1e-9,
            "the component spheres of pala's frame (eq. 6) are heap.data's atoms: %d and %d atoms, max distance %g m", n, m, dmax);
}

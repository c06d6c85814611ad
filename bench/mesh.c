/* mesh.c (bench): the cost of one sphere's query of a triangle mesh (src/lib/mesh.c,
 * pala_mesh_touch) on a mesh of about 10^5 triangles, against the same sphere's contact
 * with a plane (distance, overlap, normal, contact point), and against a cube of 12
 * triangles.  The mesh is a sphere of radius 0.1 m as a UV grid of 224 x 224 (100352
 * triangles of about 2.8 mm, each its own flat patch: the grid's cells hold several), the
 * spheres have radius 1 mm and centres 0.1 m + 0.9 mm from its centre, in random
 * directions (each touches one to three faces), queried in the order of their cells (as a
 * simulation's spatially sorted grains are), or at random with `random`.  `mesh-near` is
 * the mesh's query as a simulation makes it: from the faces gathered at the last list
 * build (pala_mesh_near, skin 0.2 a, not timed) with the centre half a skin from there
 * (pala_mesh_touch_near; the same hits).  Prints one line per case:
 *   <case> <faces> <ns per query> <hits per query> <x the plane>
 * A timing, not a test: run it on a quiet machine (docs/performance.md).
 * usage: mesh_bench [QUERIES] [PASSES] [random] */
#include "mesh.h"
#include "pala/pala.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the order of centres along z, then y, then x, in slabs of 2 mm */
static int by_cell(const void *pa, const void *pb)
{
    const pala_vec3 *a = pa, *b = pb;
    double ka[3] = {floor(a->z / 0.002), floor(a->y / 0.002), a->x}, kb[3] = {floor(b->z / 0.002), floor(b->y / 0.002), b->x};
    for (int i = 0; i < 3; i++)
        if (ka[i] != kb[i]) return ka[i] < kb[i] ? -1 : 1;
    return 0;
}

/* the process's CPU time, s: a shared machine's other work does not count */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* a plane's contact, as a wall kind computes it: the hit of the plane n . x = off */
static int plane_touch(pala_vec3 n, double off, pala_vec3 c, double a, pala_mesh_hit *h)
{
    double d = pala_vdot(n, c) - off;
    if (!(d < a)) return 0;
    h->q = pala_vaxpy(c, -d, n);
    h->n = n;
    h->d = d;
    h->ov = a - d;
    h->kind = PALA_MESH_FACE;
    h->index = 0;
    h->id = 0;
    return 1;
}

static double *uv_sphere(int nu, int nv, double R, int *ntri)
{
    double *xyz = malloc((size_t)2 * nu * nv * 9 * sizeof *xyz);
    int nt = 0;
    for (int i = 0; i < nu; i++)
        for (int j = 0; j < nv; j++) {
            pala_vec3 p[4];
            for (int k = 0; k < 4; k++) {
                int ii = i + (k == 1 || k == 2), jj = (j + (k >= 2)) % nv;
                double th = PALA_PI * ii / nu, ph = 2 * PALA_PI * jj / nv;
                p[k] = ii == 0 ? pala_v(0, 0, R) : ii == nu ? pala_v(0, 0, -R) : pala_v(R * sin(th) * cos(ph), R * sin(th) * sin(ph), R * cos(th));
            }
            int tri[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (int h = 0; h < 2; h++) {
                if ((i == 0 && h == 1) || (i == nu - 1 && h == 0)) continue;   /* a point at a pole */
                for (int k = 0; k < 3; k++) {
                    xyz[9 * nt + 3 * k] = p[tri[h][k]].x; xyz[9 * nt + 3 * k + 1] = p[tri[h][k]].y; xyz[9 * nt + 3 * k + 2] = p[tri[h][k]].z;
                }
                nt++;
            }
        }
    *ntri = nt;
    return xyz;
}

int main(int argc, char **argv)
{
    int nq = argc > 1 ? atoi(argv[1]) : 200000, passes = argc > 2 ? atoi(argv[2]) : 3;
    const double R = 0.1, a = 0.001;
    char err[256];
    int nt;
    double *xyz = uv_sphere(224, 226, R, &nt);
    pala_mesh *big = NULL, *cube = NULL;
    if (pala_mesh_from_triangles(xyz, nt, 1, &big, err, sizeof err) || pala_mesh_prepare(big, a, PALA_MESH_BOTH, err, sizeof err)) {
        fprintf(stderr, "mesh_bench: %s\n", err);
        return 1;
    }
    double cxyz[12 * 9] = {0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1, 1,
                           0, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0,
                           0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1, 0, 1};
    if (pala_mesh_from_triangles(cxyz, 12, 0.2, &cube, err, sizeof err) || pala_mesh_prepare(cube, a, PALA_MESH_BOTH, err, sizeof err)) {
        fprintf(stderr, "mesh_bench: %s\n", err);
        return 1;
    }
    pala_rng g;
    pala_rng_seed(&g, 1);
    pala_vec3 *c = malloc((size_t)nq * sizeof *c), *cc = malloc((size_t)nq * sizeof *cc);
    for (int i = 0; i < nq; i++) {
        c[i] = pala_vscale(R + 0.9 * a, pala_rng_unit(&g, 3));
        /* near a face of the cube of side 0.2 m: over its top, 0.9 mm up */
        cc[i] = pala_v(0.2 * pala_rng_uniform(&g), 0.2 * pala_rng_uniform(&g), 0.2 + 0.9 * a);
    }
    int sorted = !(argc > 3 && !strcmp(argv[3], "random"));
    if (sorted) {
        qsort(c, (size_t)nq, sizeof *c, by_cell);
        qsort(cc, (size_t)nq, sizeof *cc, by_cell);
    }
    pala_vec3 pn = pala_v(0, 0, 1);
    const char *names[4] = {"plane", "mesh", "cube", "mesh-near"};
    int faces[4] = {1, big->nface, cube->nface, big->nface};
    double best[4] = {1e30, 1e30, 1e30, 1e30}, hits[4] = {0, 0, 0, 0}, skin = 0.2 * a;
    /* the faces near each centre, gathered where it was half a skin away (along z) */
    pala_mesh_nearface *nf = NULL;
    long nnf = 0, cap = 0, *start = malloc((size_t)(nq + 1) * sizeof *start);
    for (int i = 0; i < nq; i++) {
        start[i] = nnf;
        pala_mesh_near(big, pala_vaxpy(c[i], 0.5 * skin, pala_v(0, 0, 1)), a, skin, &nf, &nnf, &cap);
    }
    start[nq] = nnf;
    pala_mesh_hit h[PALA_MESH_ROOM];
    volatile double sink = 0;
    for (int p = 0; p < passes; p++)
        for (int k = 0; k < 4; k++) {
            long nh = 0;
            double s = 0, t0 = now();
            for (int i = 0; i < nq; i++) {
                int n = k == 0   ? plane_touch(pn, 0.2, cc[i], a, h)
                        : k == 3 ? pala_mesh_touch_near(big, nf + start[i], (int)(start[i + 1] - start[i]), 0.5 * skin, c[i], a, h, PALA_MESH_ROOM)
                                 : pala_mesh_touch(k == 1 ? big : cube, k == 1 ? c[i] : cc[i], a, h, PALA_MESH_ROOM);
                nh += n;
                if (n) s += h[0].ov;
            }
            double t = now() - t0;
            sink += s;
            if (t < best[k]) best[k] = t;
            hits[k] = (double)nh / nq;
        }
    printf("# case faces ns/query hits/query x_plane (CPU time, best of %d passes of %d queries %s; grid cell %.3g m)\n", passes, nq,
           sorted ? "in the order of their cells" : "in random order", big->cell);
    for (int k = 0; k < 4; k++)
        printf("%s %d %.1f %.2f %.1f\n", names[k], faces[k], 1e9 * best[k] / nq, hits[k], best[k] / best[0]);
    printf("# mesh-near: %.2f faces gathered per centre\n", (double)nnf / nq);
    pala_mesh_free(big);
    pala_mesh_free(cube);
    free(xyz); free(c); free(cc); free(nf); free(start);
    return sink < 0;
}

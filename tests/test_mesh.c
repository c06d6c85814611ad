/* test_mesh.c: triangle meshes as walls (src/lib/mesh.c; docs/physics.md, "Triangle-mesh
 * walls") against closed forms: a cube of 12 triangles touches a sphere inside it like the
 * six planes of a box, and one outside it at the point of the cube closest to the centre
 * (face, convex edge or corner: normal (c - q)/|c - q|, overlap a - |c - q|); a sphere
 * sliding across a triangulated floor has one contact, of constant overlap and one id, over
 * shared edges and vertices; one-sided meshes; the grid gives the hits of all faces; STL
 * files, ASCII and binary, read alike, and bad ones refused with their line or triangle. */
#include "t.h"
#include "mesh.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_mesh(void);

static char err[512];

/* the 12 triangles of the cube [0, L]^3 turned by the rotation vector r about the origin
 * and moved by t, right-handed about the outward normals; each square split along a
 * diagonal */
static void cube_triangles(double L, pala_vec3 r, pala_vec3 t, double *xyz)
{
    static const int quad[6][4] = {
        {0, 2, 3, 1}, {4, 5, 7, 6},   /* z = 0, z = L */
        {0, 1, 5, 4}, {2, 6, 7, 3},   /* y = 0, y = L */
        {0, 4, 6, 2}, {1, 3, 7, 5},   /* x = 0, x = L */
    };
    for (int q = 0; q < 6; q++) {
        static const int split[2][3] = {{0, 1, 2}, {0, 2, 3}};
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 3; k++) {
                int c = quad[q][split[h][k]];
                pala_vec3 p = pala_v(L * (c & 1), L * (c >> 1 & 1), L * (c >> 2 & 1));
                p = pala_vadd(pala_rot_apply(r, p), t);
                double *o = xyz + 9 * (2 * q + h) + 3 * k;
                o[0] = p.x; o[1] = p.y; o[2] = p.z;
            }
    }
}

static pala_mesh *cube(double L, pala_vec3 r, pala_vec3 t, double amax, int side)
{
    double xyz[12 * 9];
    cube_triangles(L, r, t, xyz);
    pala_mesh *m = NULL;
    int rc = pala_mesh_from_triangles(xyz, 12, 1, &m, err, sizeof err);
    if (rc == 0) rc = pala_mesh_prepare(m, amax, side, err, sizeof err);
    T_CHECK(rc == 0, "the cube is a mesh: %s", rc ? err : "");
    return rc == 0 ? m : NULL;
}

/* the same hits, field by field, bit for bit */
static int same_hits(const pala_mesh_hit *a, int na, const pala_mesh_hit *b, int nb)
{
    if (na != nb) return 0;
    for (int i = 0; i < na; i++)
        if (memcmp(&a[i].q, &b[i].q, sizeof a[i].q) || memcmp(&a[i].n, &b[i].n, sizeof a[i].n) || memcmp(&a[i].d, &b[i].d, sizeof a[i].d) ||
            memcmp(&a[i].ov, &b[i].ov, sizeof a[i].ov) || a[i].kind != b[i].kind || a[i].index != b[i].index || a[i].id != b[i].id)
            return 0;
    return 1;
}

static double frand(pala_rng *g, double lo, double hi) { return lo + (hi - lo) * pala_rng_uniform(g); }

static double vdist(pala_vec3 a, pala_vec3 b) { return pala_vnorm(pala_vsub(a, b)); }

static void topology(void)
{
    pala_mesh *m = cube(1, pala_v(0, 0, 0), pala_v(0, 0, 0), 0.1, PALA_MESH_BOTH);
    if (!m) return;
    T_CHECK(m->nvert == 8 && m->nface == 12 && m->nedge == 18 && m->closed && m->npatch == 6 && m->ndropped == 0 &&
                m->nids == 6 + 18 + 8,
            "cube: 8 vertices, 12 faces, 18 edges, closed, 6 flat patches (got %d %d %d, closed %d, %d patches, %d dropped)",
            m->nvert, m->nface, m->nedge, m->closed, m->npatch, m->ndropped);
    pala_mesh_free(m);
    /* degenerate (a repeated corner, a line) and repeated triangles are dropped */
    double xyz[4 * 9] = {0, 0, 0, 1, 0, 0, 0, 1, 0,
                         0, 0, 0, 1, 0, 0, 1, 0, 0,
                         0, 0, 0, 1, 0, 0, 2, 0, 0,
                         1, 0, 0, 0, 1, 0, 0, 0, 0};
    int rc = pala_mesh_from_triangles(xyz, 4, 1, &m, err, sizeof err);
    T_CHECK(rc == 0 && m->nface == 1 && m->ndropped == 3 && m->nvert == 3 && !m->closed,
            "a triangle, two degenerate ones and a repeat: 1 face, 3 dropped (rc %d: %s)", rc, rc ? err : "");
    if (rc == 0) pala_mesh_free(m);
    rc = pala_mesh_from_triangles(xyz + 9, 2, 1, &m, err, sizeof err);
    T_CHECK(rc != 0 && strstr(err, "no triangles") && strstr(err, "2 dropped"), "only degenerate triangles are refused: %s", err);
    xyz[4] = (double)NAN;
    rc = pala_mesh_from_triangles(xyz, 1, 1, &m, err, sizeof err);
    T_CHECK(rc != 0 && strstr(err, "triangle 0, vertex 2") && strstr(err, "finite"), "a NaN coordinate is refused: %s", err);
}

/* Spheres inside the cube touch it like the six planes of a box: one hit per plane closer
 * than a, overlap a - (distance to the plane), normal the plane's inward normal. */
static void cube_inside(pala_vec3 r, pala_vec3 t, const char *what)
{
    const double L = 1, a = 0.2;
    pala_mesh *m = cube(L, r, t, a, PALA_MESH_BOTH);
    if (!m) return;
    pala_rng g;
    pala_rng_seed(&g, 7);
    double worst_ov = 0, worst_n = 0;
    int bad = 0, hits = 0, multi = 0;
    for (int s = 0; s < 20000; s++) {
        pala_vec3 x = pala_v(frand(&g, 0, L), frand(&g, 0, L), frand(&g, 0, L));
        double dist[6] = {x.z, L - x.z, x.y, L - x.y, x.x, L - x.x};
        pala_vec3 in[6] = {pala_v(0, 0, 1), pala_v(0, 0, -1), pala_v(0, 1, 0), pala_v(0, -1, 0), pala_v(1, 0, 0), pala_v(-1, 0, 0)};
        pala_mesh_hit h[PALA_MESH_ROOM];
        pala_vec3 c = pala_vadd(pala_rot_apply(r, x), t);
        int n = pala_mesh_touch(m, c, a, h, PALA_MESH_ROOM), want = 0;
        for (int p = 0; p < 6; p++) {
            if (!(dist[p] < a)) continue;
            want++;
            pala_vec3 np = pala_rot_apply(r, in[p]);
            int found = 0;
            for (int i = 0; i < n; i++) {
                if (pala_vdot(h[i].n, np) < 0.5) continue;
                found++;
                worst_n = fmax(worst_n, vdist(h[i].n, np));
                worst_ov = fmax(worst_ov, fabs(h[i].ov - (a - dist[p])) / a);
            }
            bad += found != 1;
        }
        bad += n != want;
        hits += n;
        multi += want > 1;
    }
    T_CHECK(bad == 0 && worst_ov <= 1e-12 && worst_n <= 1e-12 && hits > 5000 && multi > 1000,
            "%s: 20000 spheres inside the cube touch it like the box's six planes (%d wrong, %d hits, %d with 2 or 3 planes; "
            "largest |ov - (a - d)|/a %.3g, |n - n_plane| %.3g)", what, bad, hits, multi, worst_ov, worst_n);
    pala_mesh_free(m);
}

/* Spheres outside the cube touch it once, at the point q of the cube closest to the centre
 * (x clamped to [0, L]): overlap a - |x - q|, normal (x - q)/|x - q|, on a face, a convex
 * edge or a corner (one, two or three coordinates out of the cube). */
static void cube_outside(pala_vec3 r, pala_vec3 t, const char *what)
{
    const double L = 1, a = 0.2;
    pala_mesh *m = cube(L, r, t, a, PALA_MESH_BOTH);
    if (!m) return;
    pala_rng g;
    pala_rng_seed(&g, 11);
    double worst_ov = 0, worst_n = 0, worst_q = 0;
    int bad = 0, kinds[3] = {0, 0, 0};
    for (int s = 0; s < 20000; s++) {
        pala_vec3 x = pala_v(frand(&g, -a, L + a), frand(&g, -a, L + a), frand(&g, -a, L + a));
        pala_vec3 q = pala_v(fmin(fmax(x.x, 0), L), fmin(fmax(x.y, 0), L), fmin(fmax(x.z, 0), L));
        int out = (x.x != q.x) + (x.y != q.y) + (x.z != q.z);
        double d = vdist(x, q);
        if (out == 0 || !(d < a) || d < 1e-3 * a) { s--; continue; }
        pala_mesh_hit h[PALA_MESH_ROOM];
        pala_vec3 c = pala_vadd(pala_rot_apply(r, x), t);
        int n = pala_mesh_touch(m, c, a, h, PALA_MESH_ROOM);
        if (n != 1 || h[0].kind != out - 1) { bad++; continue; }
        kinds[out - 1]++;
        pala_vec3 nw = pala_rot_apply(r, pala_vscale(1 / d, pala_vsub(x, q)));
        worst_n = fmax(worst_n, vdist(h[0].n, nw));
        worst_ov = fmax(worst_ov, fabs(h[0].ov - (a - d)) / a);
        worst_q = fmax(worst_q, vdist(h[0].q, pala_vadd(pala_rot_apply(r, q), t)) / a);
    }
    T_CHECK(bad == 0 && worst_ov <= 1e-12 && worst_n <= 1e-11 && worst_q <= 1e-12 && kinds[1] > 1000 && kinds[2] > 200,
            "%s: 20000 spheres outside the cube touch its closest point once (%d wrong; %d faces, %d edges, %d corners; "
            "largest |ov - (a - d)|/a %.3g, |n - (c - q)/d| %.3g, |q - q_box|/a %.3g)", what, bad, kinds[0], kinds[1], kinds[2],
            worst_ov, worst_n, worst_q);
    pala_mesh_free(m);
}

/* Where the regions of a face, its edges and a corner meet (over the cube's corner along an
 * axis, on the plane that parts an edge from a face or a corner, over a diagonal), rounding
 * may decide each triangle's closest feature either way: a sphere there still has exactly
 * one hit, at the cube's closest point, on 2000 randomly turned and moved cubes. */
static void cube_junctions(void)
{
    pala_rng g;
    pala_rng_seed(&g, 2);
    const double a = 0.3;
    int bad = 0, tot = 0;
    double worst = 0;
    for (int rep = 0; rep < 2000; rep++) {
        pala_vec3 r = pala_vscale(frand(&g, 0.01, 0.5), pala_rng_unit(&g, 3));
        pala_vec3 t = pala_v(frand(&g, 0, 1), frand(&g, 0, 1), frand(&g, 0, 1));
        double xyz[12 * 9];
        cube_triangles(1, r, t, xyz);
        pala_mesh *m = NULL;
        if (pala_mesh_from_triangles(xyz, 12, 1, &m, err, sizeof err) || pala_mesh_prepare(m, a, PALA_MESH_BOTH, err, sizeof err)) {
            T_CHECK(0, "cube: %s", err);
            return;
        }
        for (int e = 0; e < 12; e++) {
            double h = frand(&g, 0.05, 0.2), u = frand(&g, 0, 1);
            pala_vec3 lines[6] = {pala_v(1, 1, 1 + h), pala_v(1 + h, 1, 1), pala_v(1, u, 1 + h),
                                  pala_v(1 + h / 2, u, 1 + h / 2), pala_v(u, u, 1 + h), pala_v(1 + h / 2, 1 + h / 2, 1)};
            pala_vec3 x = lines[e % 6];
            pala_vec3 q = pala_v(fmin(fmax(x.x, 0), 1), fmin(fmax(x.y, 0), 1), fmin(fmax(x.z, 0), 1));
            pala_mesh_hit hit[PALA_MESH_ROOM];
            int n = pala_mesh_touch(m, pala_vadd(pala_rot_apply(r, x), t), a, hit, PALA_MESH_ROOM);
            tot++;
            if (n != 1) { bad++; continue; }
            worst = fmax(worst, fabs(hit[0].ov - (a - vdist(x, q))) / a);
        }
        pala_mesh_free(m);
    }
    T_CHECK(bad == 0 && worst < 1e-12, "%d spheres on the lines and planes where the regions of faces, edges and corners meet: each has one hit (%d do not), "
            "overlap a - d to %.3g of a", tot, bad, worst);
}

/* A named edge and corner of the cube: the hit is on that feature, its overlap a - d and its
 * normal the direction from the feature's closest point to the centre. */
static void cube_features(void)
{
    const double a = 0.3;
    pala_mesh *m = cube(1, pala_v(0, 0, 0), pala_v(0, 0, 0), a, PALA_MESH_BOTH);
    if (!m) return;
    pala_mesh_hit h[PALA_MESH_ROOM];
    /* over the edge x = 1, z = 1 (y from 0 to 1), at 45 degrees: d = 0.2 */
    double s = 0.2 / sqrt(2);
    int n = pala_mesh_touch(m, pala_v(1 + s, 0.3, 1 + s), a, h, PALA_MESH_ROOM);
    int e = n == 1 ? h[0].index : 0;
    T_CHECK(n == 1 && h[0].kind == PALA_MESH_EDGE && ((m->vert[m->edge[e][0]].x == 1 && m->vert[m->edge[e][0]].z == 1 &&
                                                       m->vert[m->edge[e][1]].x == 1 && m->vert[m->edge[e][1]].z == 1)),
            "a sphere over the edge x = z = 1 touches that edge (%d hits, kind %d)", n, n ? h[0].kind : -1);
    if (n == 1) {
        T_NEAR(h[0].ov, a - 0.2, 1e-15, "edge: overlap a - d");
        T_NEAR(vdist(h[0].n, pala_v(sqrt(0.5), 0, sqrt(0.5))), 0, 1e-15, "edge: normal along (1, 0, 1)/sqrt 2");
        T_NEAR(vdist(h[0].q, pala_v(1, 0.3, 1)), 0, 1e-15, "edge: contact at (1, 0.3, 1)");
    }
    /* beyond the corner (1, 1, 1) along the diagonal: d = 0.25 */
    double u = 0.25 / sqrt(3);
    n = pala_mesh_touch(m, pala_v(1 + u, 1 + u, 1 + u), a, h, PALA_MESH_ROOM);
    T_CHECK(n == 1 && h[0].kind == PALA_MESH_VERTEX && vdist(m->vert[h[0].index], pala_v(1, 1, 1)) == 0,
            "a sphere beyond the corner (1, 1, 1) touches that vertex (%d hits)", n);
    if (n == 1) {
        T_NEAR(h[0].ov, a - 0.25, 1e-15, "corner: overlap a - d");
        T_NEAR(vdist(h[0].n, pala_vscale(1 / sqrt(3), pala_v(1, 1, 1))), 0, 1e-15, "corner: normal along (1, 1, 1)/sqrt 3");
    }
    /* just off the corner's region towards a face: the face, not the corner */
    n = pala_mesh_touch(m, pala_v(0.999, 0.997, 1.1), a, h, PALA_MESH_ROOM);
    T_CHECK(n == 1 && h[0].kind == PALA_MESH_FACE && fabs(h[0].ov - (a - 0.1)) < 1e-15, "over the top face near its corner: one face hit, overlap a - 0.1 (%d hits)", n);
    /* the hits' ids: the face's patch; distinct edges and corners get distinct ids */
    T_CHECK(n == 1 && h[0].id < (unsigned)m->npatch, "a face hit's id is its flat patch's (%u < %d)", n ? h[0].id : 0, m->npatch);
    /* too far: nothing */
    n = pala_mesh_touch(m, pala_v(1.31, 0.5, 0.5), a, h, PALA_MESH_ROOM);
    T_CHECK(n == 0, "a sphere 0.31 from the cube with a = 0.3 has no hit (%d)", n);
    pala_mesh_free(m);
}

/* A flat floor of nx x ny squares of side s in z = 0, each split into two triangles along
 * alternating diagonals, inner vertices moved in the plane by up to jit s (so the vertices
 * meet 4 to 8 triangles); then turned by r and moved by t. */
static pala_mesh *floor_mesh(int nx, int ny, double s, double jit, pala_vec3 r, pala_vec3 t, double amax)
{
    pala_rng g;
    pala_rng_seed(&g, 3);
    pala_vec3 *p = malloc((size_t)(nx + 1) * (ny + 1) * sizeof *p);
    for (int j = 0; j <= ny; j++)
        for (int i = 0; i <= nx; i++) {
            int inner = i > 0 && j > 0 && i < nx && j < ny;
            double dx = inner ? jit * s * frand(&g, -1, 1) : 0, dy = inner ? jit * s * frand(&g, -1, 1) : 0;
            p[j * (nx + 1) + i] = pala_v(i * s + dx, j * s + dy, 0);
        }
    double *xyz = malloc((size_t)nx * ny * 18 * sizeof *xyz);
    int nt = 0;
    for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
            int v00 = j * (nx + 1) + i, v10 = v00 + 1, v01 = v00 + nx + 1, v11 = v01 + 1;
            int tri[2][3];
            if ((i + j) % 2 == 0) {
                int a0[3] = {v00, v10, v11}, a1[3] = {v00, v11, v01};
                memcpy(tri[0], a0, sizeof a0); memcpy(tri[1], a1, sizeof a1);
            } else {
                int a0[3] = {v00, v10, v01}, a1[3] = {v10, v11, v01};
                memcpy(tri[0], a0, sizeof a0); memcpy(tri[1], a1, sizeof a1);
            }
            for (int h = 0; h < 2; h++, nt++)
                for (int k = 0; k < 3; k++) {
                    pala_vec3 q = pala_vadd(pala_rot_apply(r, p[tri[h][k]]), t);
                    xyz[9 * nt + 3 * k] = q.x; xyz[9 * nt + 3 * k + 1] = q.y; xyz[9 * nt + 3 * k + 2] = q.z;
                }
        }
    pala_mesh *m = NULL;
    int rc = pala_mesh_from_triangles(xyz, nt, 1, &m, err, sizeof err);
    if (rc == 0) rc = pala_mesh_prepare(m, amax, PALA_MESH_BOTH, err, sizeof err);
    T_CHECK(rc == 0, "the floor is a mesh: %s", rc ? err : "");
    free(p);
    free(xyz);
    return rc == 0 ? m : NULL;
}

/* A sphere at height a - ov0 over the floor, moved along lines across it (along the grid's
 * rows, so over vertices and along edges, and at angles): at every point exactly one hit,
 * of overlap ov0 (to 1e-12 relative), the floor's normal, and one id all along. */
static void floor_slide(pala_vec3 r, pala_vec3 t, double jit, const char *what)
{
    const int nx = 6, ny = 5;
    const double s = 1e-3, a = 0.7e-3, ov0 = 1e-4;
    pala_mesh *m = floor_mesh(nx, ny, s, jit, r, t, a);
    if (!m) return;
    pala_vec3 up = pala_rot_apply(r, pala_v(0, 0, 1));
    double worst = 0, worst_n = 0;
    int bad = 0, npts = 0, nfeat[3] = {0, 0, 0};
    unsigned id0 = 0;
    /* rows through the vertices of the undisturbed grid, a diagonal, and slanted lines */
    double lines[][4] = {{0, 2 * s, nx * s, 2 * s}, {0, 3 * s, nx * s, 3 * s}, {3 * s, 0, 3 * s, ny * s},
                         {0, 0, 5 * s, 5 * s}, {0, 0.3 * s, nx * s, 4.1 * s}, {0.5 * s, ny * s, 5.5 * s, 0}};
    for (size_t l = 0; l < sizeof lines / sizeof lines[0]; l++)
        for (int k = 0; k <= 600; k++) {
            double f = k / 600.0;
            pala_vec3 x = pala_v(lines[l][0] + f * (lines[l][2] - lines[l][0]), lines[l][1] + f * (lines[l][3] - lines[l][1]), a - ov0);
            /* away from the floor's rim, where the rim's edges would be the closest */
            if (x.x < a || x.x > nx * s - a || x.y < a || x.y > ny * s - a) continue;
            pala_mesh_hit h[PALA_MESH_ROOM];
            int n = pala_mesh_touch(m, pala_vadd(pala_rot_apply(r, x), t), a, h, PALA_MESH_ROOM);
            npts++;
            if (n != 1) { bad++; continue; }
            if (npts == 1) id0 = h[0].id;
            bad += h[0].id != id0;
            nfeat[h[0].kind]++;
            worst = fmax(worst, fabs(h[0].ov - ov0) / ov0);
            worst_n = fmax(worst_n, vdist(h[0].n, up));
        }
    T_CHECK(bad == 0 && worst <= 1e-12 && worst_n <= 1e-12 && npts > 1500,
            "%s: a sphere sliding across the floor has one contact at %d points (%d wrong; on %d faces, %d edges, %d vertices), "
            "one id, overlap constant to %.3g relative, normal the floor's to %.3g", what, npts, bad, nfeat[0], nfeat[1], nfeat[2], worst, worst_n);
    pala_mesh_free(m);
}

/* One-sided: a closed mesh whose faces come in any orientation is turned to point out; with
 * grains outside, a sphere inside near a face has no hit; inside, one outside has none. */
static void one_sided(void)
{
    double xyz[12 * 9];
    cube_triangles(1, pala_v(0.1, 0.2, 0.3), pala_v(0, 0, 0), xyz);
    for (int f = 0; f < 12; f += 3) {   /* every third face turned over */
        for (int k = 0; k < 3; k++) {
            double tmp = xyz[9 * f + 3 + k];
            xyz[9 * f + 3 + k] = xyz[9 * f + 6 + k];
            xyz[9 * f + 6 + k] = tmp;
        }
    }
    pala_vec3 r = pala_v(0.1, 0.2, 0.3);
    pala_vec3 cin = pala_rot_apply(r, pala_v(0.5, 0.5, 0.9)), cout = pala_rot_apply(r, pala_v(0.5, 0.5, 1.1));
    pala_vec3 eout = pala_rot_apply(r, pala_v(1.05, 0.5, 1.05)), vout = pala_rot_apply(r, pala_v(1.05, 1.05, 1.05));
    const double a = 0.2;
    int sides[3] = {PALA_MESH_OUTSIDE, PALA_MESH_INSIDE, PALA_MESH_BOTH};
    int want[3][4] = {{0, 1, 1, 1}, {1, 0, 0, 0}, {1, 1, 1, 1}};
    for (int i = 0; i < 3; i++) {
        pala_mesh *m = NULL;
        int rc = pala_mesh_from_triangles(xyz, 12, 1, &m, err, sizeof err);
        if (rc == 0) rc = pala_mesh_prepare(m, a, sides[i], err, sizeof err);
        T_CHECK(rc == 0, "side %d: %s", sides[i], rc ? err : "");
        if (rc) continue;
        pala_mesh_hit h[PALA_MESH_ROOM];
        int n[4] = {pala_mesh_touch(m, cin, a, h, PALA_MESH_ROOM), pala_mesh_touch(m, cout, a, h, PALA_MESH_ROOM),
                    pala_mesh_touch(m, eout, a, h, PALA_MESH_ROOM), pala_mesh_touch(m, vout, a, h, PALA_MESH_ROOM)};
        T_CHECK(!memcmp(n, want[i], sizeof n), "side %d: hits inside near a face, outside near a face, an edge, a corner: %d %d %d %d (want %d %d %d %d)",
                sides[i], n[0], n[1], n[2], n[3], want[i][0], want[i][1], want[i][2], want[i][3]);
        /* the faces point out: the signed volume is +1 */
        double vol = 0;
        for (int f = 0; f < m->nface; f++) {
            const int *v = m->face[f];
            vol += pala_vdot(m->vert[v[0]], pala_vcross(m->vert[v[1]], m->vert[v[2]])) / 6;
        }
        T_NEAR(vol, 1, 1e-12, "the oriented cube's signed volume");
        /* nearest: inside or outside */
        pala_mesh_hit q;
        int in1 = -1, in2 = -1;
        int f1 = pala_mesh_nearest(m, pala_rot_apply(r, pala_v(0.4, 0.45, 0.5)), HUGE_VAL, &q, &in1);
        double d1 = q.d;
        int f2 = pala_mesh_nearest(m, pala_rot_apply(r, pala_v(1.3, 1.4, 0.5)), HUGE_VAL, &q, &in2);
        T_CHECK(f1 && f2 && in1 == 1 && in2 == 0 && fabs(d1 - 0.4) < 1e-12 && fabs(q.d - 0.5) < 1e-12 && q.kind == PALA_MESH_EDGE,
                "nearest: (0.4, 0.45, 0.5) is inside, 0.4 from the face x = 0; (1.3, 1.4, 0.5) outside, 0.5 from an edge (%d %d, %g %g, kind %d)",
                in1, in2, d1, q.d, q.kind);
        T_CHECK(pala_mesh_nearest(m, pala_rot_apply(r, pala_v(1.3, 1.4, 0.5)), 0.4, &q, NULL) == 0, "nearest: nothing within 0.4 of a point 0.5 away");
        pala_mesh_free(m);
    }
    /* an open mesh has both sides only; refused, it is not prepared (even if it was before) */
    pala_mesh *m = NULL;
    pala_mesh_from_triangles(xyz, 11, 1, &m, err, sizeof err);
    pala_mesh_prepare(m, 0.1, PALA_MESH_BOTH, err, sizeof err);
    int rc = pala_mesh_prepare(m, 0.1, PALA_MESH_OUTSIDE, err, sizeof err);
    T_CHECK(rc != 0 && strstr(err, "open") && strstr(err, "side both"), "an open mesh with grains outside is refused: %s", err);
    pala_mesh_hit h[PALA_MESH_ROOM];
    T_CHECK(pala_mesh_touch(m, cout, 0.2, h, PALA_MESH_ROOM) == 0, "a mesh whose preparing failed has no hits");
    pala_mesh_free(m);
}

/* The grid's hits are those of all faces (a grid of one cell) on 10^4 random spheres
 * around a bumpy closed surface and around a soup of random triangles, bit for bit. */
static void grid_vs_all(void)
{
    pala_rng g;
    pala_rng_seed(&g, 5);
    /* a bumpy sphere: a UV sphere of 24 x 48 with radii jittered by 10 %, and a soup of
     * 300 random triangles of sizes 0.05 to 0.3 in the unit cube */
    enum { NU = 24, NV = 48 };
    int nbumpy = 2 * NV * (NU - 1), nsoup = 300;
    double *xyz = malloc((size_t)(nbumpy > nsoup ? nbumpy : nsoup) * 9 * sizeof *xyz);
    pala_vec3 P[NU + 1][NV];
    for (int i = 0; i <= NU; i++)
        for (int j = 0; j < NV; j++) {
            double th = PALA_PI * i / NU, ph = 2 * PALA_PI * j / NV, rr = (i == 0 || i == NU) ? 1 : 1 + 0.1 * frand(&g, -1, 1);
            P[i][j] = i == 0 ? pala_v(0, 0, 1) : i == NU ? pala_v(0, 0, -1) : pala_v(rr * sin(th) * cos(ph), rr * sin(th) * sin(ph), rr * cos(th));
        }
    int nt = 0;
    for (int i = 0; i < NU; i++)
        for (int j = 0; j < NV; j++) {
            int j1 = (j + 1) % NV;
            pala_vec3 t[2][3] = {{P[i][j], P[i + 1][j], P[i + 1][j1]}, {P[i][j], P[i + 1][j1], P[i][j1]}};
            for (int h = 0; h < 2; h++) {
                if ((i == 0 && h == 1) || (i == NU - 1 && h == 0)) continue;   /* a point at the poles */
                for (int k = 0; k < 3; k++) {
                    xyz[9 * nt + 3 * k] = t[h][k].x; xyz[9 * nt + 3 * k + 1] = t[h][k].y; xyz[9 * nt + 3 * k + 2] = t[h][k].z;
                }
                nt++;
            }
        }
    for (int which = 0; which < 2; which++) {
        if (which == 1) {
            nt = nsoup;
            for (int t = 0; t < nt; t++) {
                pala_vec3 c = pala_v(frand(&g, 0, 1), frand(&g, 0, 1), frand(&g, 0, 1));
                double size = frand(&g, 0.05, 0.3);
                for (int k = 0; k < 3; k++) {
                    pala_vec3 p = pala_vaxpy(c, size, pala_rng_unit(&g, 3));
                    xyz[9 * t + 3 * k] = p.x; xyz[9 * t + 3 * k + 1] = p.y; xyz[9 * t + 3 * k + 2] = p.z;
                }
            }
        }
        pala_mesh *m = NULL, *one = NULL;
        int rc = pala_mesh_from_triangles(xyz, nt, 1, &m, err, sizeof err);
        if (rc == 0) rc = pala_mesh_prepare(m, 0.04, PALA_MESH_BOTH, err, sizeof err);
        if (rc == 0) rc = pala_mesh_from_triangles(xyz, nt, 1, &one, err, sizeof err);
        if (rc == 0) rc = pala_mesh_prepare(one, 1e3, PALA_MESH_BOTH, err, sizeof err);
        T_CHECK(rc == 0, "%s: %s", which ? "soup" : "bumpy sphere", rc ? err : "");
        if (rc) { pala_mesh_free(m); pala_mesh_free(one); continue; }
        int same = 1, hits = 0, multi = 0, near_same = 1;
        for (int s = 0; s < 10000 && same; s++) {
            pala_vec3 c;
            if (which == 0) c = pala_vscale(frand(&g, 0.85, 1.15), pala_rng_unit(&g, 3));
            else c = pala_v(frand(&g, -0.1, 1.1), frand(&g, -0.1, 1.1), frand(&g, -0.1, 1.1));
            double a = frand(&g, 0.005, 0.04);
            pala_mesh_hit h1[PALA_MESH_ROOM], h2[PALA_MESH_ROOM];
            int n1 = pala_mesh_touch(m, c, a, h1, PALA_MESH_ROOM), n2 = pala_mesh_touch(one, c, a, h2, PALA_MESH_ROOM);
            same = same_hits(h1, n1, h2, n2);
            hits += n1;
            multi += n1 > 1;
            /* nearest within a: the deepest hit, if any, is at its distance */
            pala_mesh_hit q;
            int f1 = pala_mesh_nearest(m, c, a, &q, NULL);
            double dmin = a;
            for (int i = 0; i < n1; i++) dmin = fmin(dmin, h1[i].d);
            if (n1 && (!f1 || q.d != dmin)) near_same = 0;
        }
        T_CHECK(same && hits > 2000 && multi > 50 && m->cell < one->cell,
                "%s (%d faces): the grid (cell %.3g) gives the hits of all faces bit for bit on 10^4 spheres (%d hits, %d spheres with several)",
                which ? "soup" : "bumpy sphere", m->nface, m->cell, hits, multi);
        T_CHECK(near_same, "%s: pala_mesh_nearest within a finds the closest hit's distance", which ? "soup" : "bumpy sphere");
        /* the faces near a centre, gathered once (pala_mesh_near within a skin), give the
         * grid's hits bit for bit wherever the centre goes within the skin, those whose gap
         * exceeds the distance moved left out */
        pala_rng g2;
        pala_rng_seed(&g2, 11);
        pala_mesh_nearface *fs = NULL;
        int same_near = 1, nhit = 0, nedge = 0;
        long nfs = 0, cap = 0, gathered = 0;
        for (int s = 0; s < 3000 && same_near; s++) {
            pala_vec3 c0 = which == 0 ? pala_vscale(frand(&g2, 0.85, 1.15), pala_rng_unit(&g2, 3)) : pala_v(frand(&g2, -0.1, 1.1), frand(&g2, -0.1, 1.1), frand(&g2, -0.1, 1.1));
            double a = frand(&g2, 0.005, 0.04), skin = frand(&g2, 0, 0.5) * a;
            nfs = 0;
            pala_mesh_near(m, c0, a, skin, &fs, &nfs, &cap);
            gathered += nfs;
            for (int i = 1; i < nfs; i++) same_near &= fs[i - 1].f < fs[i].f;
            for (int t = 0; t < 8; t++) {
                double moved = skin * (t == 0 ? 1 : pala_rng_uniform(&g2));
                pala_vec3 c = pala_vaxpy(c0, moved * (1 - 1e-9), pala_rng_unit(&g2, 3));
                pala_mesh_hit h1[PALA_MESH_ROOM], h2[PALA_MESH_ROOM];
                int n1 = pala_mesh_touch_near(m, fs, (int)nfs, moved, c, a, h1, PALA_MESH_ROOM), n2 = pala_mesh_touch(m, c, a, h2, PALA_MESH_ROOM);
                same_near &= same_hits(h1, n1, h2, n2);
                nhit += n1;
                for (int i = 0; i < n1; i++) nedge += h1[i].kind != PALA_MESH_FACE;
            }
        }
        T_CHECK(same_near && nhit > 2000 && nedge > 200, "%s: the faces gathered within a + skin of a centre (%.1f a centre) give the grid's hits bit for bit "
                "anywhere within the skin (%d hits, %d on edges or vertices)", which ? "soup" : "bumpy sphere", (double)gathered / 3000, nhit, nedge);
        free(fs);
        pala_mesh_free(m);
        pala_mesh_free(one);
    }
    free(xyz);
}

/* ---- STL files ---- */

/* an ASCII STL of the triangles, lines ending in eol, keywords in capitals if upper */
static void write_ascii(const char *path, const double *xyz, int nt, const char *eol, int upper)
{
    FILE *f = fopen(path, "wb");
    if (!f) { T_CHECK(0, "create %s", path); return; }
    const char *w[7] = {"solid", "facet normal", "outer loop", "vertex", "endloop", "endfacet", "endsolid"};
    const char *W[7] = {"SOLID", "FACET NORMAL", "OUTER LOOP", "VERTEX", "ENDLOOP", "ENDFACET", "ENDSOLID"};
    const char **k = upper ? W : w;
    fprintf(f, "%s cube%s", k[0], eol);
    for (int t = 0; t < nt; t++) {
        fprintf(f, "  %s 0 0 0%s    %s%s", k[1], eol, k[2], eol);
        for (int v = 0; v < 3; v++) fprintf(f, "      %s %.17g %.17g %.17g%s", k[3], xyz[9 * t + 3 * v], xyz[9 * t + 3 * v + 1], xyz[9 * t + 3 * v + 2], eol);
        fprintf(f, "    %s%s  %s%s", k[4], eol, k[5], eol);
    }
    fprintf(f, "%s cube%s", k[6], eol);
    fclose(f);
}

static void put_le32(unsigned char *p, uint32_t u) { p[0] = (unsigned char)u; p[1] = (unsigned char)(u >> 8); p[2] = (unsigned char)(u >> 16); p[3] = (unsigned char)(u >> 24); }

/* a binary STL whose header is head (e.g. beginning with "solid"), count written as given */
static void write_binary(const char *path, const char *head, const double *xyz, int nt, uint32_t count)
{
    FILE *f = fopen(path, "wb");
    if (!f) { T_CHECK(0, "create %s", path); return; }
    unsigned char h[84] = {0};
    memcpy(h, head, strlen(head) < 80 ? strlen(head) : 80);
    put_le32(h + 80, count);
    fwrite(h, 1, 84, f);
    for (int t = 0; t < nt; t++) {
        unsigned char r[50] = {0};
        for (int k = 0; k < 9; k++) {
            float x = (float)xyz[9 * t + k];
            uint32_t u;
            memcpy(&u, &x, 4);
            put_le32(r + 12 + 4 * k, u);
        }
        fwrite(r, 1, 50, f);
    }
    fclose(f);
}

static int same_mesh(const pala_mesh *a, const pala_mesh *b)
{
    return a->nvert == b->nvert && a->nface == b->nface && a->nedge == b->nedge &&
           !memcmp(a->vert, b->vert, (size_t)a->nvert * sizeof *a->vert) && !memcmp(a->face, b->face, (size_t)a->nface * sizeof *a->face);
}

/* reading path must fail with a message holding each of the NULL-terminated strings */
static void refused(const char *path, const char *what, const char *const *has)
{
    pala_mesh *m = (pala_mesh *)&m;
    int rc = pala_mesh_read_stl(path, 1, &m, err, sizeof err);
    int ok = rc == -1 && m == NULL && strstr(err, path);
    for (int i = 0; has[i]; i++) ok = ok && strstr(err, has[i]);
    T_CHECK(ok, "%s is refused, naming the file and saying why: %s", what, err);
    if (rc == 0) pala_mesh_free(m);
}

static void stl(void)
{
    t_sh(NULL, 0, "mkdir -p build/tmp/mesh");
    double xyz[12 * 9];
    cube_triangles(2, pala_v(0, 0, 0), pala_v(-1, -1, 0.5), xyz);   /* float32 exact */
    write_ascii("build/tmp/mesh/cube.stl", xyz, 12, "\n", 0);
    write_ascii("build/tmp/mesh/cube-crlf.stl", xyz, 12, "\r\n", 1);
    write_binary("build/tmp/mesh/cube-bin.stl", "solid cube, but binary", xyz, 12, 12);
    pala_mesh *m[4] = {NULL, NULL, NULL, NULL};
    const char *files[3] = {"build/tmp/mesh/cube.stl", "build/tmp/mesh/cube-crlf.stl", "build/tmp/mesh/cube-bin.stl"};
    int ok = pala_mesh_from_triangles(xyz, 12, 1e-3, &m[3], err, sizeof err) == 0;
    for (int i = 0; i < 3; i++) {
        int rc = pala_mesh_read_stl(files[i], 1e-3, &m[i], err, sizeof err);
        T_CHECK(rc == 0, "%s reads: %s", files[i], rc ? err : "");
        ok &= rc == 0;
    }
    if (ok) {
        T_CHECK(same_mesh(m[0], m[1]) && same_mesh(m[0], m[2]) && same_mesh(m[0], m[3]) && m[0]->nface == 12 && m[0]->closed,
                "the cube read from ASCII (LF; CRLF and capitals) and binary STL (whose header begins with 'solid'), scaled by 1e-3, is the program's cube");
        /* the same ASCII file after UTF-8's byte-order mark (was read as a binary count of 807416368) */
        pala_mesh *mb = NULL;
        int rb = t_sh(NULL, 0, "printf '\\357\\273\\277' > build/tmp/mesh/cube-bom.stl && cat build/tmp/mesh/cube.stl >> build/tmp/mesh/cube-bom.stl");
        rb = rb ? rb : pala_mesh_read_stl("build/tmp/mesh/cube-bom.stl", 1e-3, &mb, err, sizeof err);
        T_CHECK(rb == 0 && same_mesh(m[0], mb), "an ASCII STL after a byte-order mark reads as without it: %s", rb ? err : "");
        pala_mesh_free(mb);
        /* a scale that takes it past a million km: refused by its size (was "intersects itself"
         * or nan moments, the faces' products overflowing) */
        mb = NULL;
        rb = pala_mesh_read_stl("build/tmp/mesh/cube.stl", 1e70, &mb, err, sizeof err);
        T_CHECK(rb != 0 && strstr(err, "coordinates up to 2.5e+70 m once scaled by 1e+70, more than a mesh may have (1e+09 m)"), "scale 1e70: refused, %s", rb ? err : "read");
        pala_mesh_free(mb);
        pala_mesh_hit h[2][PALA_MESH_ROOM];
        int n[2];
        for (int i = 0; i < 2; i++) {
            pala_mesh_prepare(m[2 * i], 3e-4, PALA_MESH_BOTH, err, sizeof err);
            n[i] = pala_mesh_touch(m[2 * i], pala_v(0.9e-3, 0.95e-3, 0.6e-3), 3e-4, h[i], PALA_MESH_ROOM);
        }
        T_CHECK(n[0] == 3 && same_hits(h[0], n[0], h[1], n[1]), "ASCII and binary meshes touch alike (%d and %d hits)", n[0], n[1]);
    }
    for (int i = 0; i < 4; i++) pala_mesh_free(m[i]);

    /* bad files */
    t_write("build/tmp/mesh/empty.stl", "");
    refused("build/tmp/mesh/empty.stl", "an empty file", (const char *[]){"empty", NULL});
    refused("build/tmp/mesh/none.stl", "a missing file", (const char *[]){"cannot open", NULL});
    refused("build/tmp/mesh", "a folder", (const char *[]){"is a folder, not a file", NULL});
    refused("/dev/zero", "a device", (const char *[]){"is a device or a pipe, not a file", NULL});
    write_binary("build/tmp/mesh/trunc.stl", "cube", xyz, 11, 12);
    refused("build/tmp/mesh/trunc.stl", "a truncated binary STL", (const char *[]){"12 triangles", "684 bytes", "634", "truncated", NULL});
    write_binary("build/tmp/mesh/huge.stl", "cube", xyz, 2, 0xFFFFFFFFu);
    refused("build/tmp/mesh/huge.stl", "a binary STL claiming 4294967295 triangles", (const char *[]){"4294967295 triangles", "184", NULL});
    double bad[9 * 2];
    memcpy(bad, xyz, sizeof bad);
    bad[9 + 7] = (double)NAN;
    write_binary("build/tmp/mesh/nan.stl", "cube", bad, 2, 2);
    refused("build/tmp/mesh/nan.stl", "a NaN in a binary STL", (const char *[]){"triangle 2", "vertex 3's y", "not a finite number", NULL});
    bad[9 + 7] = HUGE_VAL;
    write_ascii("build/tmp/mesh/inf.stl", bad, 2, "\n", 0);
    refused("build/tmp/mesh/inf.stl", "an inf in an ASCII STL", (const char *[]){"line 13", "vertex 3's y", "inf", NULL});
    t_write("build/tmp/mesh/short.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n");
    refused("build/tmp/mesh/short.stl", "an ASCII STL that ends inside a facet", (const char *[]){"line 6", "ends", "'vertex'", "truncated", NULL});
    t_write("build/tmp/mesh/word.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0\n   vertex 0 1 0\n endloop\n endfacet\nendsolid\n");
    refused("build/tmp/mesh/word.stl", "a vertex of two numbers", (const char *[]){"line 6", "three numbers", "'vertex'", NULL});
    t_write("build/tmp/mesh/nosolid.stl", "solid x\nendsolid x\n");
    refused("build/tmp/mesh/nosolid.stl", "an ASCII STL without facets", (const char *[]){"without facets", NULL});
    t_write("build/tmp/mesh/junk.stl", "this is not an STL file at all, but it is long enough to have a header of eighty bytes and a count.");
    refused("build/tmp/mesh/junk.stl", "a text that is not STL", (const char *[]){"header gives", "not an STL file", NULL});
    t_write("build/tmp/mesh/quad.stl", "solid x\n facet normal 0 0 1\n  outer loop\n   vertex 0 0 0\n   vertex 1 0 0\n   vertex 1 1 0\n   vertex 0 1 0\n  endloop\n endfacet\nendsolid\n");
    refused("build/tmp/mesh/quad.stl", "a facet of four vertices", (const char *[]){"line 7", "expected 'endloop'", NULL});
    /* a mesh thousands of grains wide (a file in mm read as metres: a tetrahedron 50 m across for
     * spheres of 1 mm): the grid's cell grows until each face's box is some cells wide (it
     * visited every cell of a face's box, about 10^12, at each try of a cell size: a hang) */
    static const double tet[4 * 9] = {50, 0, 0, 0, 50, 0, 0, 0, 50,  0, 0, 0, 0, 50, 0, 50, 0, 0,
                                      0, 0, 0, 50, 0, 0, 0, 0, 50,  0, 0, 0, 0, 0, 50, 0, 50, 0};
    pala_mesh *big = NULL;
    alarm(120);   /* a hang ends the test run (SIGALRM) rather than CI's clock; it takes 0.04 s */
    int rb = pala_mesh_from_triangles(tet, 4, 1, &big, err, sizeof err);
    if (rb == 0) rb = pala_mesh_prepare(big, 1e-3, PALA_MESH_BOTH, err, sizeof err);
    alarm(0);
    pala_mesh_hit hb[PALA_MESH_ROOM];
    int nb = rb == 0 ? pala_mesh_touch(big, pala_v(10, 10, 0.0005), 1e-3, hb, PALA_MESH_ROOM) : -1;
    T_CHECK(rb == 0 && nb == 1 && fabs(hb[0].ov - 0.0005) < 1e-9, "a tetrahedron of 50 m for spheres of 1 mm: its grid is made (cell %g m), and a sphere on its base "
            "touches it once (%d hits, overlap %g) %s", big ? big->cell : 0, nb, nb > 0 ? hb[0].ov : 0, rb ? err : "");
    pala_mesh_free(big);
    /* a scale that turns every triangle into a point: the message asks about the scale */
    pala_mesh *tiny = NULL;
    int rt = pala_mesh_read_stl("build/tmp/mesh/cube.stl", 1e-308, &tiny, err, sizeof err);
    T_CHECK(rt == -1 && !tiny && strstr(err, "no triangles to make a mesh of") && strstr(err, "with scale = 1e-308: is it the factor from the file's unit to metres"),
            "scale = 1e-308: refused, asking about the scale: %s", err);
    /* random bytes of many sizes: refused or read, never a crash */
    pala_rng g;
    pala_rng_seed(&g, 9);
    int crashed = 0;
    for (int i = 0; i < 200; i++) {
        FILE *f = fopen("build/tmp/mesh/random.stl", "wb");
        int len = (int)frand(&g, 0, 400);
        if (i % 2) fputs("solid ", f);
        for (int k = 0; k < len; k++) fputc(i % 4 < 2 ? (int)(pala_rng_u64(&g) & 255) : " \nfacetnormaloutrlopvx0123456789.e-"[pala_rng_u64(&g) % 34], f);
        fclose(f);
        pala_mesh *r = NULL;
        if (pala_mesh_read_stl("build/tmp/mesh/random.stl", 1, &r, err, sizeof err) == 0) pala_mesh_free(r);
        else crashed += strstr(err, "build/tmp/mesh/random.stl") == NULL;
    }
    T_CHECK(crashed == 0, "200 files of random bytes are read or refused with the file's name (%d messages without it)", crashed);
}

/* examples/meshes/funnel.stl is what examples/meshes/funnel.sh writes, and reads as an open
 * mesh of 64 faces */
static void example(void)
{
    char out[256];
    int rc = t_sh(out, sizeof out, "sh examples/meshes/funnel.sh > build/tmp/mesh/funnel.stl && cmp build/tmp/mesh/funnel.stl examples/meshes/funnel.stl");
    T_CHECK(rc == 0, "examples/meshes/funnel.stl is what examples/meshes/funnel.sh writes: %s", out);
    pala_mesh *m = NULL;
    rc = pala_mesh_read_stl("examples/meshes/funnel.stl", 1, &m, err, sizeof err);
    T_CHECK(rc == 0 && m->nface == 64 && !m->closed && m->ndropped == 0, "examples/meshes/funnel.stl: 64 faces, open (%s)", rc ? err : "");
    if (rc == 0) {
        rc = pala_mesh_prepare(m, 0.002, PALA_MESH_BOTH, err, sizeof err);
        pala_mesh_hit h[PALA_MESH_ROOM];
        /* a sphere of 1 mm against the wall at z = 0.03 m (radius 0.03 m there): one hit or
         * two (a shared edge of two facets 11 degrees apart is concave from inside) */
        double nz = sin(atan(0.04 / 0.06)), nr = -cos(atan(0.04 / 0.06));   /* the inward normal */
        pala_vec3 c = pala_v(0.03 * cos(0.1) + 0.0009 * nr * cos(0.1), 0.03 * sin(0.1) + 0.0009 * nr * sin(0.1), 0.03 + 0.0009 * nz);
        int n = rc == 0 ? pala_mesh_touch(m, c, 0.001, h, PALA_MESH_ROOM) : -1;
        T_CHECK(n >= 1 && n <= 2 && h[0].ov > 0 && h[0].ov < 3e-4, "a sphere against the funnel's wall touches it (%d hits, overlap %g)", n, n > 0 ? h[0].ov : 0);
        pala_mesh_free(m);
    }
}

void test_mesh(void)
{
    topology();
    cube_inside(pala_v(0, 0, 0), pala_v(0, 0, 0), "cube");
    cube_inside(pala_v(0.3, -0.2, 0.5), pala_v(0.1, 2.3, -0.7), "turned cube");
    cube_outside(pala_v(0, 0, 0), pala_v(0, 0, 0), "cube");
    cube_outside(pala_v(0.3, -0.2, 0.5), pala_v(0.1, 2.3, -0.7), "turned cube");
    cube_features();
    cube_junctions();
    floor_slide(pala_v(0, 0, 0), pala_v(0, 0, 0), 0, "floor z = 0");
    floor_slide(pala_v(0, 0, 0), pala_v(0, 0, 0), 0.3, "floor z = 0, vertices moved in the plane");
    floor_slide(pala_v(0.2, 0.4, -0.1), pala_v(0.01, -0.02, 0.03), 0, "turned floor");
    floor_slide(pala_v(0.2, 0.4, -0.1), pala_v(0.01, -0.02, 0.03), 0.3, "turned floor, vertices moved in the plane");
    one_sided();
    grid_vs_all();
    stl();
    example();
}

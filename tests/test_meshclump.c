/* test_meshclump.c: grains from closed meshes (src/lib/meshclump.c; docs/physics.md,
 * "Clumps from surface meshes").  The solid of a turned and moved box and of an
 * icosahedron equals their closed forms (volume, centre of mass, the whole inertia tensor)
 * to 1e-12, with the faces pointing out or in, and an icosphere's equals its pyramids from
 * the centre; the clump of an icosphere approaches its volume and inertia as its sphere
 * count grows, with the spheres inside the mesh; an open mesh, a mesh with a face turned
 * over and two cubes crossing each other are refused with the file and the triangle (and
 * the line of an ASCII file), by the library and by `pala run`; a tolerance gives a clump
 * whose surface is that close; examples/meshes/capsule.stl is what its script writes, and
 * examples/mesh-grains.txt runs and reports the mesh beside its clump. */
#include "t.h"
#include "builder.h"
#include "meshclump.h"
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_meshclump(void);

static char err[1024];

/* the 12 triangles of the box [0, a] x [0, b] x [0, c] turned by the rotation vector r and
 * moved by t, right-handed about the outward normals (flip: about the inward ones) */
static void box_triangles(double a, double b, double c, pala_vec3 r, pala_vec3 t, int flip, double *xyz)
{
    static const int quad[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
    static const int split[2][3] = {{0, 1, 2}, {0, 2, 3}};
    for (int q = 0; q < 6; q++)
        for (int h = 0; h < 2; h++)
            for (int k = 0; k < 3; k++) {
                int v = quad[q][split[h][flip ? 2 - k : k]];
                pala_vec3 p = pala_vadd(pala_rot_apply(r, pala_v(a * (v & 1), b * (v >> 1 & 1), c * (v >> 2 & 1))), t);
                double *o = xyz + 9 * (2 * q + h) + 3 * k;
                o[0] = p.x, o[1] = p.y, o[2] = p.z;
            }
}

static pala_mesh *mesh_of(const double *xyz, int ntri)
{
    pala_mesh *m = NULL;
    if (pala_mesh_from_triangles(xyz, ntri, 1, &m, err, sizeof err)) T_CHECK(0, "mesh: %s", err);
    return m;
}

/* the largest |A - B| over a 3x3 tensor, against the largest |B| */
static double tensor_err(double A[3][3], double B[3][3])
{
    double e = 0, s = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) e = fmax(e, fabs(A[i][j] - B[i][j])), s = fmax(s, fabs(B[i][j]));
    return e / s;
}

/* A box a x b x c turned and moved: V = abc, the centre of mass the turned centre, and the
 * inertia R diag(V (b^2 + c^2) / 12, ...) R^T, off-diagonal terms and all. */
static void box_solid(int flip)
{
    double a = 0.3, b = 0.5, c = 0.7, xyz[12 * 9];
    pala_vec3 r = pala_v(0.4, -0.9, 0.3), t = pala_v(1.5, -2, 0.25);
    box_triangles(a, b, c, r, t, flip, xyz);
    pala_mesh *m = mesh_of(xyz, 12);
    if (!m) return;
    pala_solid s;
    pala_solid_of_mesh(m, &s);
    double V = a * b * c, D[3] = {V * (b * b + c * c) / 12, V * (a * a + c * c) / 12, V * (a * a + b * b) / 12}, R[3][3], I[3][3];
    for (int k = 0; k < 3; k++) {   /* R's columns: the turned axes */
        pala_vec3 e = pala_rot_apply(r, pala_v(k == 0, k == 1, k == 2));
        R[0][k] = e.x, R[1][k] = e.y, R[2][k] = e.z;
    }
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            I[i][j] = 0;
            for (int k = 0; k < 3; k++) I[i][j] += R[i][k] * D[k] * R[j][k];
        }
    pala_vec3 g = pala_vadd(pala_rot_apply(r, pala_v(a / 2, b / 2, c / 2)), t);
    const char *how = flip ? "box, faces pointing in" : "box";
    T_CHECK(fabs(s.volume / V - 1) < 1e-12, "%s: volume %.15g, abc = %.15g", how, s.volume, V);
    T_CHECK(pala_vnorm(pala_vsub(s.com, g)) < 1e-12 * pala_vnorm(g), "%s: centre of mass (%.15g %.15g %.15g), the turned centre (%.15g %.15g %.15g)",
            how, s.com.x, s.com.y, s.com.z, g.x, g.y, g.z);
    T_CHECK(tensor_err(s.inertia, I) < 1e-12, "%s: inertia tensor R diag(V (b^2 + c^2) / 12, ...) R^T to %.2g", how, tensor_err(s.inertia, I));
    T_CHECK(pala_meshclump_check(m, "box", err, sizeof err) == 0, "%s: a closed solid (%s)", how, err);
    pala_mesh_free(m);
}

/* The icosphere of radius R, level subdivisions of the icosahedron (level 0: the
 * icosahedron of circumradius R), moved by t: 20 4^level triangles into *xyz (allocated),
 * outward. */
static int icosphere(double R, int level, pala_vec3 t, double **xyz)
{
    const double p = (1 + sqrt(5.0)) / 2;
    pala_vec3 v[12];
    int nv = 0;
    for (int s1 = 1; s1 >= -1; s1 -= 2)
        for (int s2 = 1; s2 >= -1; s2 -= 2) {
            v[nv++] = pala_v(0, s1, s2 * p);
            v[nv++] = pala_v(s1, s2 * p, 0);
            v[nv++] = pala_v(s2 * p, 0, s1);
        }
    int n = 20;
    for (int l = 0; l < level; l++) n *= 4;
    pala_vec3 *tri = malloc(sizeof *tri * 3 * (size_t)n), *tmp = malloc(sizeof *tmp * 3 * (size_t)n);
    int nt = 0;
    for (int a = 0; a < 12; a++)   /* the faces: three vertices at the edge length 2 */
        for (int b = a + 1; b < 12; b++)
            for (int c = b + 1; c < 12; c++) {
                if (fabs(pala_vnorm(pala_vsub(v[a], v[b])) - 2) > 1e-9 || fabs(pala_vnorm(pala_vsub(v[b], v[c])) - 2) > 1e-9 ||
                    fabs(pala_vnorm(pala_vsub(v[c], v[a])) - 2) > 1e-9) continue;
                int out = pala_vdot(pala_vcross(pala_vsub(v[b], v[a]), pala_vsub(v[c], v[a])), v[a]) > 0;
                tri[3 * nt] = v[a], tri[3 * nt + 1] = out ? v[b] : v[c], tri[3 * nt + 2] = out ? v[c] : v[b];
                nt++;
            }
    double r0 = sqrt(1 + p * p);
    for (int i = 0; i < 3 * nt; i++) tri[i] = pala_vscale(1 / r0, tri[i]);
    for (int l = 0; l < level; l++) {   /* each triangle into four, the midpoints onto the sphere */
        int k = 0;
        for (int f = 0; f < nt; f++) {
            pala_vec3 A = tri[3 * f], B = tri[3 * f + 1], C = tri[3 * f + 2];
            pala_vec3 ab = pala_vadd(A, B), bc = pala_vadd(B, C), ca = pala_vadd(C, A);
            ab = pala_vscale(1 / pala_vnorm(ab), ab), bc = pala_vscale(1 / pala_vnorm(bc), bc), ca = pala_vscale(1 / pala_vnorm(ca), ca);
            pala_vec3 q[4][3] = {{A, ab, ca}, {ab, B, bc}, {ca, bc, C}, {ab, bc, ca}};
            for (int j = 0; j < 4; j++, k++)
                for (int i = 0; i < 3; i++) tmp[3 * k + i] = q[j][i];
        }
        nt = k;
        pala_vec3 *sw = tri;
        tri = tmp, tmp = sw;
    }
    *xyz = malloc(sizeof **xyz * 9 * (size_t)nt);
    for (int i = 0; i < 3 * nt; i++) {
        pala_vec3 x = pala_vadd(pala_vscale(R, tri[i]), t);
        (*xyz)[3 * i] = x.x, (*xyz)[3 * i + 1] = x.y, (*xyz)[3 * i + 2] = x.z;
    }
    free(tri);
    free(tmp);
    return nt;
}

/* The icosahedron: V = 5/12 (3 + sqrt 5) a^3 and I = V a^2 phi^2 / 10 (isotropic) for the
 * edge a; an icosphere: isotropic, centred, and its volume and moment the sums of its
 * pyramids from the centre, V_f = |a . (b x c)| / 6, int r^2 = V_f / 20 (|a|^2 + |b|^2 +
 * |c|^2 + |a + b + c|^2), I = 2/3 int r^2. */
static void icosphere_solid(void)
{
    const double p = (1 + sqrt(5.0)) / 2, R = 0.01;
    pala_vec3 t = pala_v(0.3, -1, 2);
    for (int level = 0; level <= 3; level += 3) {
        double *xyz;
        int nt = icosphere(R, level, t, &xyz);
        pala_mesh *m = mesh_of(xyz, nt);
        if (!m) { free(xyz); return; }
        double V, I;
        if (level == 0) {
            double a = 2 * R / sqrt(1 + p * p);
            V = 5.0 / 12 * (3 + sqrt(5.0)) * a * a * a;
            I = V * a * a * p * p / 10;
        } else {
            double r2 = 0;
            V = 0;
            for (int f = 0; f < nt; f++) {
                pala_vec3 q[3];
                for (int k = 0; k < 3; k++) q[k] = pala_vsub(pala_v(xyz[9 * f + 3 * k], xyz[9 * f + 3 * k + 1], xyz[9 * f + 3 * k + 2]), t);
                double vf = fabs(pala_vdot(q[0], pala_vcross(q[1], q[2]))) / 6;
                pala_vec3 s = pala_vadd(pala_vadd(q[0], q[1]), q[2]);
                V += vf;
                r2 += vf / 20 * (pala_vnorm2(q[0]) + pala_vnorm2(q[1]) + pala_vnorm2(q[2]) + pala_vnorm2(s));
            }
            I = 2.0 / 3 * r2;
        }
        pala_solid s;
        pala_solid_of_mesh(m, &s);
        double Iref[3][3] = {{I, 0, 0}, {0, I, 0}, {0, 0, I}};
        T_CHECK(fabs(s.volume / V - 1) < 1e-12, "icosphere level %d (%d triangles): volume %.15g, closed form %.15g", level, nt, s.volume, V);
        T_CHECK(pala_vnorm(pala_vsub(s.com, t)) < 1e-12 * pala_vnorm(t), "icosphere level %d: centre of mass at its centre (off by %.3g m)", level,
                pala_vnorm(pala_vsub(s.com, t)));
        T_CHECK(tensor_err(s.inertia, Iref) < 1e-12, "icosphere level %d: inertia tensor %.15g 1 to %.2g", level, I, tensor_err(s.inertia, Iref));
        T_CHECK(pala_meshclump_check(m, "icosphere", err, sizeof err) == 0, "icosphere level %d: a closed solid (%s)", level, err);
        pala_mesh_free(m);
        free(xyz);
    }
}

/* The clump of a level-1 icosphere of 1 cm (80 triangles): its volume and inertia (the builder's, 2e5
 * samples: 0.2% error) approach the icosphere's as the sphere count grows, every sphere
 * inside it, and the surface deviation falls. */
static void icosphere_clump(void)
{
    const double R = 0.01;
    double *xyz;
    int nt = icosphere(R, 1, pala_v(0, 0, 0), &xyz);
    pala_mesh *m = mesh_of(xyz, nt);
    free(xyz);
    if (!m) return;
    pala_meshclump *mc;
    int rc = pala_meshclump_fit(m, "icosphere", 32, 0, &mc, err, sizeof err);
    T_CHECK(rc == 0 && mc->n == 32, "icosphere: a clump of 32 spheres (%s)", rc ? err : "");
    if (rc) { pala_mesh_free(m); return; }
    double Vm = mc->mesh.volume, Im = mc->mesh.inertia[0][0], inside = 0;
    for (int i = 0; i < mc->n; i++) inside = fmax(inside, pala_vnorm(mc->c[i]) + mc->r[i] - R);
    T_CHECK(inside <= 0, "icosphere: every sphere inside the circumsphere (%.3g m beyond)", inside);
    static const int counts[] = {1, 2, 4, 8, 16, 32};
    double ev[6], ei[6];
    for (int k = 0; k < 6; k++) {
        pala_template t;
        memset(&t, 0, sizeof t);
        pala_vec3 shape[32];
        double rad[32];
        if (pala_template_build(&t, counts[k], mc->c, mc->r, 1, 200000, shape, rad, err, sizeof err)) { T_CHECK(0, "builder: %s", err); break; }
        ev[k] = t.volume / Vm - 1;
        ei[k] = (t.inertia[0] + t.inertia[1] + t.inertia[2]) / (3 * Im) - 1;
        printf("  icosphere clump: %2d spheres: volume %+.4f, inertia %+.4f (relative to the mesh's)\n", counts[k], ev[k], ei[k]);
    }
    T_CHECK(ev[0] < 0 && ev[5] < 0 && ev[5] > ev[2] && ev[2] > ev[0] && ei[5] > ei[0], "icosphere: the clump's volume and inertia approach the mesh's from below as "
            "spheres are added (volume %+.4f, %+.4f, %+.4f for 1, 4, 32; inertia %+.4f, %+.4f)", ev[0], ev[2], ev[5], ei[0], ei[5]);
    T_CHECK(fabs(ev[5]) < 0.05 && fabs(ei[5]) < 0.08, "icosphere: 32 spheres within 5%% of the volume and 8%% of the inertia (%+.4f, %+.4f)", ev[5], ei[5]);
    /* tolerances: every sample of the surface within each, the finer with more spheres */
    int prev = 0;
    pala_meshclump *mt0;
    for (double tol = 0.08 * R; tol > 0.03 * R; tol /= 2) {
        pala_meshclump *mt;
        rc = pala_meshclump_fit(m, "icosphere", 0, tol, &mt, err, sizeof err);
        T_CHECK(rc == 0 && mt->dev_max <= tol && mt->n > prev, "icosphere, tolerance %.3g m: %d spheres (more than %d), largest deviation %.3g m (%s)",
                tol, rc ? 0 : mt->n, prev, rc ? 0 : mt->dev_max, rc ? err : "");
        prev = rc ? 64 : mt->n;
        if (!rc) pala_meshclump_free(mt);
    }
    /* a tolerance the whole mesh lies within: one sphere (was "no sphere fits inside the mesh") */
    rc = pala_meshclump_fit(m, "icosphere", 0, 10 * R, &mt0, err, sizeof err);
    T_CHECK(rc == 0 && mt0->n == 1 && mt0->dev_max <= 10 * R, "icosphere, tolerance 10 R: one sphere (%s)", rc ? err : "");
    if (!rc) pala_meshclump_free(mt0);
    /* 2e-4 m: more spheres than a clump may have (the 42 corners of the icosphere each want
     * their own), refused with the advice */
    pala_meshclump *mt = NULL;
    rc = pala_meshclump_fit(m, "icosphere", 0, 0.02 * R, &mt, err, sizeof err);
    T_CHECK(rc != 0 && strstr(err, "icosphere: 64 spheres keep the surface within") && strstr(err, "raise the tolerance"),
            "icosphere, tolerance 2e-4 m: refused, %s", rc ? err : "accepted");
    pala_meshclump_free(mt);
    pala_meshclump_free(mc);
    pala_mesh_free(m);
}

/* An ASCII STL of the triangles: facet t (from 0) opens at line 2 + 7 t. */
static void write_stl(const char *path, const double *xyz, int ntri)
{
    FILE *f = fopen(path, "w");
    if (!f) { T_CHECK(0, "cannot write %s", path); return; }
    fprintf(f, "solid test\n");
    for (int t = 0; t < ntri; t++) {
        fprintf(f, "facet normal 0 0 0\nouter loop\n");
        for (int k = 0; k < 3; k++) fprintf(f, "vertex %.17g %.17g %.17g\n", xyz[9 * t + 3 * k], xyz[9 * t + 3 * k + 1], xyz[9 * t + 3 * k + 2]);
        fprintf(f, "endloop\nendfacet\n");
    }
    fprintf(f, "endsolid test\n");
    fclose(f);
}

/* the message of pala_meshclump_make on the file, and whether it names all of want */
static void refused(const char *path, const char *const *want, const char *what)
{
    pala_meshclump *mc = NULL;
    int rc = pala_meshclump_make(path, 1, 4, 0, &mc, err, sizeof err);
    int named = rc != 0;
    for (int i = 0; want[i] && named; i++) named = strstr(err, want[i]) != NULL;
    T_CHECK(named, "%s is refused naming %s, %s: %s", what, want[0], want[1], rc ? err : "accepted");
    pala_meshclump_free(mc);
}

static void refusals(void)
{
    char dir[256], path[320], out[2048];
    snprintf(dir, sizeof dir, "%s/meshclump", t_tmpdir());
    t_sh(NULL, 0, "mkdir -p %s", dir);
    double xyz[24 * 9];
    box_triangles(0.01, 0.01, 0.01, pala_v(0, 0, 0), pala_v(0, 0, 0), 0, xyz);
    /* open: the cube without its 5th triangle (the holes' edges are the 4th's and 6th's) */
    double open[11 * 9];
    memcpy(open, xyz, 4 * 9 * sizeof *xyz);
    memcpy(open + 4 * 9, xyz + 5 * 9, 7 * 9 * sizeof *xyz);
    snprintf(path, sizeof path, "%s/open.stl", dir);
    write_stl(path, open, 11);
    refused(path, (const char *const[]){path, "not closed", "triangle ", "(line ", NULL}, "a cube with a triangle missing");
    T_CHECK(strstr(err, "triangle 2 (line 9)") != NULL, "the first open edge, (0 0 0)-(0.01 0 0), is triangle 2's (line 9): %s", err);
    /* a triangle turned over: triangle 7 (line 44) */
    double turned[12 * 9];
    memcpy(turned, xyz, sizeof turned);
    for (int k = 0; k < 3; k++) {
        double s = turned[6 * 9 + 3 + k];
        turned[6 * 9 + 3 + k] = turned[6 * 9 + 6 + k], turned[6 * 9 + 6 + k] = s;
    }
    snprintf(path, sizeof path, "%s/turned.stl", dir);
    write_stl(path, turned, 12);
    refused(path, (const char *const[]){path, "not oriented", "triangle 7 (line 44)", NULL}, "a cube with a triangle turned over");
    /* two cubes crossing: each closed, together not a solid */
    box_triangles(0.01, 0.01, 0.01, pala_v(0.2, 0.1, 0.3), pala_v(0.005, 0.004, 0.003), 0, xyz + 12 * 9);
    snprintf(path, sizeof path, "%s/crossing.stl", dir);
    write_stl(path, xyz, 24);
    refused(path, (const char *const[]){path, "intersects itself", "triangle ", "(line ", NULL}, "two cubes crossing each other");
    /* two cubes apart: a solid of two parts, accepted */
    box_triangles(0.01, 0.01, 0.01, pala_v(0.2, 0.1, 0.3), pala_v(0.03, 0, 0), 0, xyz + 12 * 9);
    pala_mesh *m = mesh_of(xyz, 24);
    err[0] = 0;
    T_CHECK(m && pala_meshclump_check(m, "two cubes", err, sizeof err) == 0, "two cubes apart are a solid (%s)", err);
    pala_mesh_free(m);
    /* pala run: the file, the triangle and the line of the grain's 'file' key; exit 1 */
    char scene[400];
    snprintf(scene, sizeof scene, "%s/open.txt", dir);
    t_write(scene, "container = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\ndt = 1e-5\nsteps = 10\n"
                   "[material m]\ndensity = 1000\nyoung = 1e7\npoisson = 0.3\n"
                   "[grain g]\nmaterial = m\nshape = mesh\nfile = open.stl\nspheres = 3\n"
                   "[group a]\ngrain = g\ncount = 2\nplacement = random\nregion = box\nregion_box = 0.02 0.08 0.02 0.08 0.02 0.08\n");
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/open.run --force", scene, dir);
    T_CHECK(rc == 1 && strstr(out, "open.txt:13:") && strstr(out, "open.stl") && strstr(out, "not closed") && strstr(out, "triangle "),
            "pala run refuses the open mesh at the line of 'file' (exit %d): %s", rc, out);
    /* neither spheres nor tolerance */
    t_write(scene, "container = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\ndt = 1e-5\nsteps = 10\n"
                   "[material m]\ndensity = 1000\nyoung = 1e7\npoisson = 0.3\n"
                   "[grain g]\nmaterial = m\nshape = mesh\nfile = crossing.stl\n"
                   "[group a]\ngrain = g\ncount = 2\nplacement = random\nregion = box\nregion_box = 0.02 0.08 0.02 0.08 0.02 0.08\n");
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/open.run --force", scene, dir);
    T_CHECK(rc == 1 && strstr(out, "'spheres = N'") && strstr(out, "'tolerance = L'"), "pala run asks for spheres or tolerance (exit %d): %s", rc, out);
    /* 2D: refused at the shape */
    t_write(scene, "dimension = 2\ncontainer = box\nbox = 0 0.1 0 0.1 -0.01 0.01\nwall_material = m\ndt = 1e-5\nsteps = 10\n"
                   "[material m]\ndensity = 1000\nyoung = 1e7\npoisson = 0.3\n"
                   "[grain g]\nmaterial = m\nshape = mesh\nfile = ../../../examples/meshes/capsule.stl\nspheres = 3\n"
                   "[group a]\ngrain = g\ncount = 2\nplacement = random\nregion = box\nregion_box = 0.02 0.08 0.02 0.08 0 0\n");
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/open.run --force", scene, dir);
    T_CHECK(rc == 1 && strstr(out, "open.txt:13: [grain g]: shape = mesh needs dimension = 3"), "a mesh grain in 2D is refused (exit %d): %s", rc, out);
    /* pala shape refuses it too */
    rc = t_sh(out, sizeof out, "./pala shape %s/turned.stl --spheres 3", dir);
    T_CHECK(rc == 1 && strstr(out, "turned.stl") && strstr(out, "triangle 7 (line 44)"), "pala shape refuses the turned triangle (exit %d): %s", rc, out);
}

/* examples/meshes/capsule.stl is what capsule.sh writes, and examples/mesh-grains.txt runs,
 * reporting the mesh and its clump; a second grain type of the same mesh and count shares
 * the clump, one of another count has its own; a count's clump is the start of a larger
 * count's (the same bits) */
static void example(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out, "sh examples/meshes/capsule.sh | cmp - examples/meshes/capsule.stl");
    T_CHECK(rc == 0, "examples/meshes/capsule.stl is what examples/meshes/capsule.sh writes: %s", out);
    rc = t_sh(out, sizeof out, "./pala run examples/mesh-grains.txt -o %s/mesh-grains.run --force --set end_time=0.01", t_tmpdir());
    T_CHECK(rc == 0 && strstr(out, "mesh capsule.stl, 256 triangles") && strstr(out, "(exact, divergence theorem)") &&
            strstr(out, "clump of 6 spheres") && strstr(out, "surface deviation largest"),
            "examples/mesh-grains.txt runs and reports the mesh beside its clump (exit %d): %s", rc, out);
    char scene[300];
    snprintf(scene, sizeof scene, "%s/two-types.txt", t_tmpdir());
    /* the scene in build/tmp: the mesh two folders up */
    t_sh(NULL, 0, "sed -e 's|= meshes/capsule.stl|= ../../examples/meshes/capsule.stl|' -e 's|^count = 40|count = 4|' examples/mesh-grains.txt > %s && "
         "printf '[grain twin]\\nmaterial = plastic\\nshape = mesh\\nfile = ../../examples/meshes/capsule.stl\\nspheres = 6\\n"
         "[grain other]\\nmaterial = plastic\\nshape = mesh\\nfile = ../../examples/meshes/capsule.stl\\nspheres = 3\\n' >> %s", scene, scene);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/two-types.run --force --set steps=1", scene, t_tmpdir());
    T_CHECK(rc == 0 && strstr(out, "grain type twin: clump of 6 spheres (built once, for grain type capsule)") &&
            strstr(out, "grain type other: clump of 3 spheres: "), "a second grain type of one mesh and count shares its clump (exit %d): %s", rc, out);
    pala_meshclump *a, *b;
    if (pala_meshclump_make("examples/meshes/capsule.stl", 1, 3, 0, &a, err, sizeof err) == 0 &&
        pala_meshclump_make("examples/meshes/capsule.stl", 1, 9, 0, &b, err, sizeof err) == 0) {
        T_CHECK(!memcmp(a->c, b->c, 3 * sizeof *a->c) && !memcmp(a->r, b->r, 3 * sizeof *a->r), "the capsule's clump of 3 is the start of its clump of 9");
        pala_meshclump_free(a);
        pala_meshclump_free(b);
    } else
        T_CHECK(0, "capsule clumps: %s", err);
}

/* pala_mesh_nearest (through the faces' hierarchy when the query reaches past 8 cells)
 * against the scan of every face near the point (pala_mesh_nearest_by, far = 0): the same
 * answer, hit and inside flag, bit for bit, on an icosphere of 1,280 triangles, one of 80
 * moved off the origin, an axis-aligned cube (whose centre is equally far from all its
 * faces: ties broken alike) and a turned box, for grids of two sizes, at random points in
 * and around each, at its vertices, face centres, edge midpoints and centre, for search
 * radii from 1/50 of the mesh to unbounded. */
static void nearest_agree(void)
{
    double *ico, *ico1, cube[12 * 9], box[12 * 9];
    int n3 = icosphere(0.01, 3, pala_v(0, 0, 0), &ico), n1 = icosphere(0.02, 1, pala_v(0.3, -0.1, 0.05), &ico1);
    box_triangles(1, 1, 1, pala_v(0, 0, 0), pala_v(0, 0, 0), 0, cube);
    box_triangles(0.3, 0.5, 0.7, pala_v(0.2, -0.3, 0.4), pala_v(1, 2, 3), 0, box);
    const double *xyz[4] = {ico, ico1, cube, box};
    const int nt[4] = {n3, n1, 12, 12};
    long queries = 0, bad = 0, hits = 0;
    unsigned long long seed = 12345;
    for (int k = 0; k < 4; k++)
        for (int g = 0; g < 2; g++) {
            pala_mesh *m = mesh_of(xyz[k], nt[k]);
            if (!m) continue;
            pala_vec3 lo = m->lo, hi = m->hi, ext = pala_vsub(hi, lo), mid = pala_vscale(0.5, pala_vadd(lo, hi));
            double size = pala_vnorm(ext), big = fmax(fmax(ext.x, ext.y), ext.z);
            if (pala_mesh_prepare(m, g ? 0 : big / 32, g ? PALA_MESH_BOTH : PALA_MESH_OUTSIDE, err, sizeof err)) { T_CHECK(0, "prepare: %s", err); pala_mesh_free(m); continue; }
            const double rmax[5] = {HUGE_VAL, size, size / 4, size / 20, size / 50};
            for (int i = 0; i < 600 + 6 * m->nface; i++) {
                pala_vec3 x;
                if (i < 300) {   /* random, in and around */
                    double u[3];
                    for (int a = 0; a < 3; a++) seed = seed * 6364136223846793005ull + 1442695040888963407ull, u[a] = (double)(seed >> 11) / 9007199254740992.0 - 0.5;
                    x = pala_v(mid.x + 1.4 * u[0] * ext.x, mid.y + 1.4 * u[1] * ext.y, mid.z + 1.4 * u[2] * ext.z);
                } else if (i < 300 + m->nvert) x = m->vert[i - 300];
                else if (i == 300 + m->nvert) x = mid;
                else {   /* face centres and edge midpoints, and points below them */
                    int j = (i - 301 - m->nvert) % (3 * m->nface), f = j / 3, e = j % 3, depth = (i - 301 - m->nvert) / (3 * m->nface);
                    const int *v = m->face[f];
                    pala_vec3 c = pala_vscale(1.0 / 3, pala_vadd(pala_vadd(m->vert[v[0]], m->vert[v[1]]), m->vert[v[2]]));
                    pala_vec3 em = pala_vscale(0.5, pala_vadd(m->vert[v[e]], m->vert[v[(e + 1) % 3]]));
                    x = e == 0 ? c : em;
                    x = pala_vadd(x, pala_vscale(0.15 * depth, pala_vsub(mid, x)));
                }
                for (int r = 0; r < 5; r++) {
                    pala_mesh_hit a, b;
                    int ia = -1, ib = -1;
                    memset(&a, 0, sizeof a), memset(&b, 0, sizeof b);
                    int fa = pala_mesh_nearest_by(m, x, rmax[r], &a, &ia, 1), fb = pala_mesh_nearest_by(m, x, rmax[r], &b, &ib, 0);
                    queries++;
                    hits += fb;
                    bad += fa != fb || ia != ib ||
                           (fb && (a.q.x != b.q.x || a.q.y != b.q.y || a.q.z != b.q.z || a.n.x != b.n.x || a.n.y != b.n.y || a.n.z != b.n.z || a.d != b.d ||
                                   a.ov != b.ov || a.kind != b.kind || a.index != b.index || a.id != b.id));
                }
            }
            pala_mesh_free(m);
        }
    free(ico);
    free(ico1);
    T_CHECK(queries > 50000 && hits > queries / 2 && bad == 0, "the nearest point through the hierarchy is the scan's, bit for bit: %ld of %ld queries differ (%ld hits)",
            bad, queries, hits);
}

void test_meshclump(void)
{
    nearest_agree();
    box_solid(0);
    box_solid(1);
    icosphere_solid();
    icosphere_clump();
    refusals();
    example();
}

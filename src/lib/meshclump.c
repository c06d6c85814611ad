/* meshclump.c: grains from closed triangle meshes (meshclump.h; docs/physics.md, "Clumps
 * from surface meshes").
 *
 * The solid: the divergence theorem turns the integrals of 1, x and x x^T over the volume
 * into sums over the faces of signed tetrahedra from one vertex o of the mesh; a tetrahedron
 * (0, a, b, c) of signed volume V = a . (b x c) / 6 has the first moment V (a + b + c) / 4
 * and the second moment V / 20 (a a^T + b b^T + c c^T + s s^T), s = a + b + c.
 *
 * The clump: spheres inscribed in the mesh, picked greedily.  The candidates are the
 * largest inscribed spheres touching the surface at a sample point p (the shrinking-ball
 * construction of the medial axis: a sphere on p's inward normal shrinks until the point of
 * the mesh closest to its centre is p), the surface is sampled evenly by area, and each
 * next sphere is the candidate that most lowers the area-weighted sum of the squared
 * distances from the samples to the clump's surface (a count given), or that brings the
 * most area of samples within the tolerance (a tolerance given), until the count or the
 * tolerance is reached.  Everything is in a fixed order on one thread: the same spheres on any machine. */
#include "meshclump.h"
#include "alloc.h"
#include "builder.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* surface samples of a clump's fit (about; at least one per triangle) */
#define NSAMPLE 3000
/* samples whose inscribed spheres are candidates, at most */
#define NCAND 500
/* of those, the ones whose spheres are grown onto the medial axis (deepest), at most: each
 * growth asks the mesh for its distance some 100 times */
#define NDEEP 100
/* points on each sphere where the clump's surface is sampled for its distance to the mesh */
#define NBACK 128

/* a message into err (errlen bytes), and -1 */
#define FAIL(...) (snprintf(err, errlen, __VA_ARGS__), -1)

/* ------------------------------------------------------------------------------------
 * The solid (docs/physics.md, "Clumps from surface meshes", eqs. M1-M3)
 * ------------------------------------------------------------------------------------ */

void pala_solid_of_mesh(const pala_mesh *m, pala_solid *out)
{
    pala_vec3 o = m->vert[0];
    double V = 0, S[3] = {0, 0, 0}, C[3][3] = {{0}};
    for (int f = 0; f < m->nface; f++) {
        const int *v = m->face[f];
        pala_vec3 a = pala_vsub(m->vert[v[0]], o), b = pala_vsub(m->vert[v[1]], o), c = pala_vsub(m->vert[v[2]], o);
        double det = pala_vdot(a, pala_vcross(b, c));   /* 6 x the signed volume (M1) */
        pala_vec3 s = pala_vadd(pala_vadd(a, b), c);
        double p[4][3] = {{a.x, a.y, a.z}, {b.x, b.y, b.z}, {c.x, c.y, c.z}, {s.x, s.y, s.z}};
        V += det / 6;
        for (int i = 0; i < 3; i++) S[i] += det / 24 * p[3][i];   /* (M2) */
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 3; j++)   /* (M3) */
                C[i][j] += det / 120 * (p[0][i] * p[0][j] + p[1][i] * p[1][j] + p[2][i] * p[2][j] + p[3][i] * p[3][j]);
    }
    double sg = V < 0 ? -1 : 1;   /* faces all pointing in: every integral changes sign */
    V *= sg;
    double g[3] = {V > 0 ? sg * S[0] / V : 0, V > 0 ? sg * S[1] / V : 0, V > 0 ? sg * S[2] / V : 0};
    /* the second moment about the centre of mass, then I = tr(C) 1 - C */
    double Cc[3][3], tr = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) Cc[i][j] = sg * C[i][j] - V * g[i] * g[j];
    for (int i = 0; i < 3; i++) tr += Cc[i][i];
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) out->inertia[i][j] = (i == j ? tr : 0) - Cc[i][j];
    out->volume = V;
    out->com = pala_vadd(o, pala_v(g[0], g[1], g[2]));
}

/* ------------------------------------------------------------------------------------
 * The check: closed, oriented, not self-intersecting
 * ------------------------------------------------------------------------------------ */

/* "triangle 12 (line 86)": face f's triangle in the file, from 1 */
static const char *tri_name(const pala_mesh *m, int f, char *buf, size_t len)
{
    if (m->line) snprintf(buf, len, "triangle %d (line %d)", m->tri[f] + 1, m->line[f]);
    else snprintf(buf, len, "triangle %d", m->tri[f] + 1);
    return buf;
}

typedef struct dedge { int lo, hi, fwd, face; } dedge;
static int by_dedge(const void *pa, const void *pb)
{
    const dedge *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    return (a->face > b->face) - (a->face < b->face);
}

/* every edge of exactly two faces running it in opposite senses */
static int check_closed(const pala_mesh *m, const char *what, char *err, size_t errlen)
{
    long n = 3L * m->nface;
    dedge *d = pala_xrealloc(NULL, (size_t)n * sizeof *d);
    for (int f = 0; f < m->nface; f++)
        for (int k = 0; k < 3; k++) {
            int a = m->face[f][k], b = m->face[f][(k + 1) % 3];
            d[3L * f + k] = (dedge){a < b ? a : b, a < b ? b : a, a < b, f};
        }
    qsort(d, (size_t)n, sizeof *d, by_dedge);
    int rc = 0;
    char t1[48], t2[48];
    for (long i = 0, j; i < n && !rc; i = j) {
        for (j = i + 1; j < n && d[j].lo == d[i].lo && d[j].hi == d[i].hi; j++) {}
        pala_vec3 A = m->vert[d[i].lo], B = m->vert[d[i].hi];
        if (j - i != 2)
            rc = FAIL("%s: the mesh is not closed: the edge (%g %g %g)-(%g %g %g) of %s belongs to %ld triangle%s, not 2: "
                      "close the hole or remove the extra faces (MeshLab: Filters > Cleaning and Repairing), or export the part as one watertight solid",
                      what, A.x, A.y, A.z, B.x, B.y, B.z, tri_name(m, d[i].face, t1, sizeof t1), j - i, j - i == 1 ? "" : "s");
        else if (d[i].fwd == d[i + 1].fwd)
            rc = FAIL("%s: the mesh is not oriented: %s and %s run their shared edge (%g %g %g)-(%g %g %g) the same way, "
                      "so one of them is turned over: make the normals consistent (MeshLab: Re-Orient all faces coherently)",
                      what, tri_name(m, d[i].face, t1, sizeof t1), tri_name(m, d[i + 1].face, t2, sizeof t2), A.x, A.y, A.z, B.x, B.y, B.z);
    }
    free(d);
    return rc;
}

static double get(pala_vec3 v, int i) { return i == 0 ? v.x : i == 1 ? v.y : v.z; }

/* the sign of the 2D orientation of (a, b, c) in the plane of axes (i, j), 0 within eps2 */
static int orient2(pala_vec3 a, pala_vec3 b, pala_vec3 c, int i, int j, double eps2)
{
    double o = (get(b, i) - get(a, i)) * (get(c, j) - get(a, j)) - (get(b, j) - get(a, j)) * (get(c, i) - get(a, i));
    return o > eps2 ? 1 : o < -eps2 ? -1 : 0;
}

/* two coplanar triangles p, q (welded vertex indices vp, vq) overlap with some area: an
 * edge of one crosses an edge of the other properly (edges that share a vertex aside), or a
 * vertex of one that is not the other's lies strictly inside the other; in the plane of the
 * two axes other than the normal's largest */
static int coplanar_overlap(const pala_vec3 *p, const int *vp, const pala_vec3 *q, const int *vq, pala_vec3 n, double eps2)
{
    int drop = fabs(n.x) >= fabs(n.y) && fabs(n.x) >= fabs(n.z) ? 0 : fabs(n.y) >= fabs(n.z) ? 1 : 2;
    int i = drop == 0 ? 1 : 0, j = drop == 2 ? 1 : 2;
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            int a1 = (a + 1) % 3, b1 = (b + 1) % 3;
            if (vp[a] == vq[b] || vp[a] == vq[b1] || vp[a1] == vq[b] || vp[a1] == vq[b1]) continue;
            int s1 = orient2(p[a], p[a1], q[b], i, j, eps2), s2 = orient2(p[a], p[a1], q[b1], i, j, eps2);
            int s3 = orient2(q[b], q[b1], p[a], i, j, eps2), s4 = orient2(q[b], q[b1], p[a1], i, j, eps2);
            if (s1 * s2 < 0 && s3 * s4 < 0) return 1;
        }
    for (int pass = 0; pass < 2; pass++) {
        const pala_vec3 *t = pass ? q : p, *u = pass ? p : q;
        const int *vt = pass ? vq : vp, *vu = pass ? vp : vq;
        int w = orient2(t[0], t[1], t[2], i, j, 0);
        for (int k = 0; k < 3; k++) {
            if (vu[k] == vt[0] || vu[k] == vt[1] || vu[k] == vt[2]) continue;
            if (orient2(t[0], t[1], u[k], i, j, eps2) == w && orient2(t[1], t[2], u[k], i, j, eps2) == w &&
                orient2(t[2], t[0], u[k], i, j, eps2) == w)
                return 1;
        }
    }
    return 0;
}

/* The interval of triangle p along the line of direction D where the other triangle's plane
 * cuts it, from p's signed distances d[] from that plane (0: on it): [*t0, *t1]. */
static void cut_interval(const pala_vec3 *p, const double *d, pala_vec3 D, double *t0, double *t1)
{
    *t0 = HUGE_VAL;
    *t1 = -HUGE_VAL;
    for (int k = 0; k < 3; k++) {
        int k1 = (k + 1) % 3;
        double t = (double)NAN;
        if (d[k] == 0) t = pala_vdot(D, p[k]);
        if (d[k] * d[k1] < 0) t = pala_vdot(D, pala_vaxpy(p[k], d[k] / (d[k] - d[k1]), pala_vsub(p[k1], p[k])));
        if (t == t) { *t0 = fmin(*t0, t); *t1 = fmax(*t1, t); }
    }
}

/* faces f and g cross or overlap beyond what they share (eps: the mesh's rounding, m) */
static int faces_cross(const pala_mesh *m, int f, int g, double eps)
{
    const int *vf = m->face[f], *vg = m->face[g];
    pala_vec3 p[3], q[3];
    int shared = 0, sp[3] = {0, 0, 0}, sq[3] = {0, 0, 0};
    for (int a = 0; a < 3; a++) {
        p[a] = m->vert[vf[a]];
        q[a] = m->vert[vg[a]];
        for (int b = 0; b < 3; b++)
            if (vf[a] == vg[b]) sp[a] = sq[b] = 1, shared++;
    }
    pala_vec3 nf = pala_vcross(pala_vsub(p[1], p[0]), pala_vsub(p[2], p[0])), ng = pala_vcross(pala_vsub(q[1], q[0]), pala_vsub(q[2], q[0]));
    nf = pala_vscale(1 / pala_vnorm(nf), nf);
    ng = pala_vscale(1 / pala_vnorm(ng), ng);
    if (shared == 2) {   /* neighbours: they overlap only if folded flat onto each other */
        int a = sp[0] ? 0 : 1, b = sp[2] ? 2 : 1, pf = !sp[0] ? 0 : !sp[1] ? 1 : 2, qf = !sq[0] ? 0 : !sq[1] ? 1 : 2;
        if (fabs(pala_vdot(nf, pala_vsub(q[qf], p[a]))) > eps) return 0;
        pala_vec3 side = pala_vcross(nf, pala_vsub(p[b], p[a]));
        return pala_vdot(side, pala_vsub(p[pf], p[a])) * pala_vdot(side, pala_vsub(q[qf], p[a])) > 0;
    }
    double dq[3], dp[3];
    int pos = 0, neg = 0;
    for (int k = 0; k < 3; k++) {
        dq[k] = sq[k] ? 0 : pala_vdot(nf, pala_vsub(q[k], p[0]));
        if (fabs(dq[k]) <= eps) dq[k] = 0;
        pos += dq[k] > 0, neg += dq[k] < 0;
    }
    if (pos == 3 || neg == 3) return 0;
    if (pos == 0 && neg == 0) return coplanar_overlap(p, vf, q, vg, nf, eps * eps);
    pos = neg = 0;
    for (int k = 0; k < 3; k++) {
        dp[k] = sp[k] ? 0 : pala_vdot(ng, pala_vsub(p[k], q[0]));
        if (fabs(dp[k]) <= eps) dp[k] = 0;
        pos += dp[k] > 0, neg += dp[k] < 0;
    }
    if (pos == 3 || neg == 3) return 0;
    pala_vec3 D = pala_vcross(nf, ng);
    double nd = pala_vnorm(D);
    if (!(nd > 0)) return 0;
    D = pala_vscale(1 / nd, D);
    double a0, a1, b0, b1;
    cut_interval(p, dp, D, &a0, &a1);
    cut_interval(q, dq, D, &b0, &b1);
    return fmin(a1, b1) - fmax(a0, b0) > eps;
}

typedef struct fbox { double lo[3], hi[3]; int f; } fbox;
static int by_xlo(const void *pa, const void *pb)
{
    const fbox *a = pa, *b = pb;
    if (a->lo[0] != b->lo[0]) return a->lo[0] < b->lo[0] ? -1 : 1;
    return (a->f > b->f) - (a->f < b->f);
}

/* no two faces cross: the pairs whose boxes overlap (sweep along x), each tested */
static int check_crossings(const pala_mesh *m, const char *what, char *err, size_t errlen)
{
    pala_vec3 ext = pala_vsub(m->hi, m->lo);
    double L = fmax(fmax(ext.x, ext.y), ext.z), eps = 1e-9 * L;
    fbox *b = pala_xrealloc(NULL, (size_t)m->nface * sizeof *b);
    for (int f = 0; f < m->nface; f++) {
        b[f].f = f;
        for (int i = 0; i < 3; i++) {
            b[f].lo[i] = HUGE_VAL;
            b[f].hi[i] = -HUGE_VAL;
            for (int k = 0; k < 3; k++) {
                double x = get(m->vert[m->face[f][k]], i);
                b[f].lo[i] = fmin(b[f].lo[i], x - eps);
                b[f].hi[i] = fmax(b[f].hi[i], x + eps);
            }
        }
    }
    qsort(b, (size_t)m->nface, sizeof *b, by_xlo);
    int rc = 0;
    for (int i = 0; i < m->nface && !rc; i++)
        for (int j = i + 1; j < m->nface && b[j].lo[0] <= b[i].hi[0] && !rc; j++) {
            if (b[j].lo[1] > b[i].hi[1] || b[i].lo[1] > b[j].hi[1] || b[j].lo[2] > b[i].hi[2] || b[i].lo[2] > b[j].hi[2]) continue;
            if (!faces_cross(m, b[i].f, b[j].f, eps)) continue;
            int f = b[i].f < b[j].f ? b[i].f : b[j].f, g = b[i].f < b[j].f ? b[j].f : b[i].f;
            char t1[48], t2[48];
            rc = FAIL("%s: the mesh intersects itself: %s and %s cross: remove the self-intersection "
                      "(MeshLab: Select Self Intersecting Faces, then repair; or export the part as one solid without overlapping bodies)",
                      what, tri_name(m, f, t1, sizeof t1), tri_name(m, g, t2, sizeof t2));
        }
    free(b);
    return rc;
}

int pala_meshclump_check(const pala_mesh *m, const char *what, char *err, size_t errlen)
{
    if (check_closed(m, what, err, errlen) || check_crossings(m, what, err, errlen)) return -1;
    pala_solid s;
    pala_solid_of_mesh(m, &s);
    if (!(s.volume > 0)) return FAIL("%s: the mesh encloses no volume (%g m^3): give a closed solid", what, s.volume);
    return 0;
}

/* ------------------------------------------------------------------------------------
 * The clump (docs/physics.md, "Clumps from surface meshes")
 * ------------------------------------------------------------------------------------ */

typedef struct sample { pala_vec3 p, n; double w; } sample;   /* a point, its inward normal, its area */

/* The surface samples: each face cut into L^2 similar triangles, L^2 about its area over the
 * area per sample that gives NSAMPLE samples in all (so at most 2 NSAMPLE + 2 faces), one
 * sample at each one's centroid, weighted by its area; *ns of them. */
static sample *surface_samples(const pala_mesh *m, int *ns)
{
    double A = 0;
    for (int f = 0; f < m->nface; f++) {
        const int *v = m->face[f];
        A += 0.5 * pala_vnorm(pala_vcross(pala_vsub(m->vert[v[1]], m->vert[v[0]]), pala_vsub(m->vert[v[2]], m->vert[v[0]])));
    }
    double per = A / NSAMPLE;   /* m^2 per sample */
    long n = 0, cap = 0;
    sample *s = NULL;
    for (int f = 0; f < m->nface; f++) {
        const int *v = m->face[f];
        pala_vec3 a = m->vert[v[0]], b = m->vert[v[1]], c = m->vert[v[2]];
        pala_vec3 nc = pala_vcross(pala_vsub(b, a), pala_vsub(c, a));
        double area = 0.5 * pala_vnorm(nc);
        int L = (int)fmax(1, ceil(sqrt(area / per)));
        if (n + (long)L * L > cap) { cap = 2 * (n + (long)L * L); PALA_GROW(s, cap); }
        pala_vec3 in = pala_vscale(-1 / pala_vnorm(nc), nc), u = pala_vsub(b, a), w = pala_vsub(c, a);
        for (int i = 0; i < L; i++)
            for (int j = 0; i + j < L; j++)
                for (int up = 0; up < 2; up++) {
                    if (up && i + j >= L - 1) continue;
                    double x = (i + (up ? 2.0 : 1.0) / 3) / L, y = (j + (up ? 2.0 : 1.0) / 3) / L;
                    s[n++] = (sample){pala_vaxpy(pala_vaxpy(a, x, u), y, w), in, area / ((double)L * L)};
                }
    }
    *ns = (int)n;
    return s;
}

/* The largest sphere inside the mesh touching it at p (inward normal u), by shrinking: the
 * sphere of radius r on u from p shrinks to the one through p and the point q of the mesh
 * closest to its centre, r' = |q - p|^2 / (2 u . (q - p)), until no point of the mesh is
 * closer to its centre than r.  Its radius (0 if none), its centre in *c. */
static double inscribed(const pala_mesh *m, pala_vec3 p, pala_vec3 u, double r, pala_vec3 *c)
{
    for (int it = 0; it < 100; it++) {
        *c = pala_vaxpy(p, r, u);
        pala_mesh_hit h;
        if (!pala_mesh_nearest(m, *c, r * (1 - 1e-9), &h, NULL)) return r;
        pala_vec3 pq = pala_vsub(h.q, p);
        double den = 2 * pala_vdot(u, pq);
        if (!(den > 0)) return 0;
        double rn = pala_vnorm2(pq) / den;
        if (!(rn < r)) return r;
        r = rn;
    }
    *c = pala_vaxpy(p, r, u);
    return r;
}

/* The distance from x to the mesh if x is inside it and the mesh is within rmax, else 0. */
static double depth(const pala_mesh *m, pala_vec3 x, double rmax)
{
    pala_mesh_hit h;
    int in;
    return pala_mesh_nearest(m, x, rmax, &h, &in) && in ? h.d : 0;
}

/* From the inscribed sphere (c, r), the deepest point near c: a pattern search that moves
 * the centre along the axes while its distance to the mesh grows (halving the step from
 * r/2 to 1e-3 r), so the sphere grows onto the medial axis and the largest sphere of its
 * part of the solid.  Its radius, its centre in *c. */
static double deepest(const pala_mesh *m, pala_vec3 *c, double r)
{
    static const pala_vec3 dirs[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
    for (double step = r / 2, stop = 1e-3 * r; step > stop;) {
        int moved = 0;
        for (int k = 0; k < 6 && !moved; k++) {
            pala_vec3 x = pala_vaxpy(*c, step, dirs[k]);
            double rx = depth(m, x, r + step);
            if (rx > r * (1 + 1e-12)) *c = x, r = rx, moved = 1;
        }
        if (!moved) step /= 2;
    }
    return r;
}

/* a point's distance to the surface of sphere (c, r), not below 0 (the mesh's samples are
 * outside the inscribed spheres up to rounding) */
static double gap(pala_vec3 p, pala_vec3 c, double r)
{
    double d = pala_vnorm(pala_vsub(p, c)) - r;
    return d > 0 ? d : 0;
}

/* The largest distance from the exposed surface of the clump (NBACK points on each sphere,
 * those inside no other sphere) to the mesh, m. */
static double back_distance(const pala_mesh *m, const pala_meshclump *mc, double far)
{
    double worst = 0, ga = PALA_PI * (3 - sqrt(5.0));   /* the golden angle: a Fibonacci sphere */
    for (int i = 0; i < mc->n; i++)
        for (int k = 0; k < NBACK; k++) {
            double z = 1 - (2 * k + 1.0) / NBACK, rho = sqrt(1 - z * z);
            pala_vec3 x = pala_vaxpy(mc->c[i], mc->r[i], pala_v(rho * cos(ga * k), rho * sin(ga * k), z));
            int hidden = 0;
            for (int j = 0; j < mc->n && !hidden; j++) hidden = j != i && pala_vnorm(pala_vsub(x, mc->c[j])) < mc->r[j] * (1 - 1e-12);
            pala_mesh_hit h;
            if (!hidden && pala_mesh_nearest(m, x, far, &h, NULL)) worst = fmax(worst, h.d);
        }
    return worst;
}

int pala_meshclump_fit(pala_mesh *m, const char *what, int nsph, double tol, pala_meshclump **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!(nsph >= 0 && nsph <= PALA_MESHCLUMP_MAX) || (nsph == 0 && !(tol > 0)))
        return FAIL("%s: give a sphere count 1 .. %d or a tolerance > 0 (m)", what, PALA_MESHCLUMP_MAX);
    if (pala_meshclump_check(m, what, err, errlen)) return -1;
    pala_vec3 ext = pala_vsub(m->hi, m->lo);
    double size = pala_vnorm(ext);
    /* a grid of cells about 1/16 of the mesh: the candidates' queries read few faces */
    if (pala_mesh_prepare(m, fmax(fmax(ext.x, ext.y), ext.z) / 32, PALA_MESH_OUTSIDE, err, errlen)) return -1;
    pala_meshclump *mc = pala_xrealloc(NULL, sizeof *mc);
    memset(mc, 0, sizeof *mc);
    mc->ntri = m->nface;
    pala_solid_of_mesh(m, &mc->mesh);
    int ns;
    sample *s = surface_samples(m, &ns);
    /* the candidates: the inscribed sphere of every stride-th sample (it reaches the
     * surface there: sharp corners), and the largest sphere it grows into (deepest) */
    int stride = (ns + NCAND - 1) / NCAND, nc = 0, deep = (NCAND + NDEEP - 1) / NDEEP;
    pala_vec3 *cc = pala_xrealloc(NULL, (size_t)(2 * (ns / stride + 1) + PALA_MESHCLUMP_MAX) * sizeof *cc);
    double *cr = pala_xrealloc(NULL, (size_t)(2 * (ns / stride + 1) + PALA_MESHCLUMP_MAX) * sizeof *cr);
    for (int i = 0; i < ns; i += stride) {
        double r = inscribed(m, s[i].p, s[i].n, size, &cc[nc]);
        if (!(r > 1e-6 * size)) continue;
        cr[nc++] = r;
        if (i / stride % deep) continue;
        cc[nc] = cc[nc - 1];
        cr[nc] = deepest(m, &cc[nc], r);
        nc++;
    }
    /* the samples' distances to the clump so far (before any sphere: the mesh's size) */
    double *d = pala_xrealloc(NULL, (size_t)ns * sizeof *d);
    for (int k = 0; k < ns; k++) d[k] = size;
    int want = nsph ? nsph : PALA_MESHCLUMP_MAX, kw = 0;
    double worst = size;
    while (mc->n < want && (mc->n == 0 || !(nsph == 0 && worst <= tol))) {   /* one sphere at least, whatever the tolerance */
        /* one more candidate each round: the inscribed sphere at the sample farthest from
         * the clump (the first of equals), which brings it onto the clump's surface */
        if (mc->n > 0) {
            double r = inscribed(m, s[kw].p, s[kw].n, size, &cc[nc]);
            if (r > 1e-6 * size) cr[nc++] = r;
        }
        /* the candidate that covers the most area of the samples still beyond the
         * tolerance (tolerance given), then that lowers sum w d^2 the most; the first of
         * equals */
        int best = -1;
        double cover = 0, gain = 0;
        for (int j = 0; j < nc; j++) {
            double cv = 0, g = 0;
            for (int k = 0; k < ns; k++) {
                double e = gap(s[k].p, cc[j], cr[j]);
                if (e < d[k]) g += s[k].w * (d[k] * d[k] - e * e);
                if (nsph == 0 && d[k] > tol && e <= tol) cv += s[k].w;
            }
            if (cv > cover || (cv == cover && g > gain)) cover = cv, gain = g, best = j;
        }
        if (nsph == 0 && cover == 0 && mc->n > 0) best = -1;   /* no sphere brings another sample within the tolerance */
        if (best < 0) break;   /* no candidate brings any sample closer */
        mc->c[mc->n] = cc[best];
        mc->r[mc->n] = cr[best];
        mc->n++;
        worst = 0;
        for (int k = 0; k < ns; k++) {
            d[k] = fmin(d[k], gap(s[k].p, cc[best], cr[best]));
            if (d[k] > worst) worst = d[k], kw = k;
        }
    }
    double sw = 0, swd = 0;
    for (int k = 0; k < ns; k++) sw += s[k].w, swd += s[k].w * d[k] * d[k];
    mc->nsample = ns;
    mc->dev_max = worst;
    mc->dev_rms = sqrt(swd / sw);
    free(s); free(cc); free(cr); free(d);
    if (mc->n == 0) {
        pala_meshclump_free(mc);
        return FAIL("%s: no sphere fits inside the mesh: give a closed solid", what);
    }
    if (nsph == 0 && worst > tol) {
        double got = worst;
        int n = mc->n;
        pala_meshclump_free(mc);
        return FAIL("%s: %d spheres keep the surface within %g m of the mesh, not within the tolerance %g m%s: "
                    "raise the tolerance or give a sphere count", what, n, got, tol,
                    n < PALA_MESHCLUMP_MAX ? " (no further sphere brings a sample within it)" : "");
    }
    mc->back_max = back_distance(m, mc, size);
    *out = mc;
    return 0;
}

int pala_meshclump_make(const char *path, double scale, int nsph, double tol, pala_meshclump **out, char *err, size_t errlen)
{
    pala_mesh *m;
    *out = NULL;
    if (pala_mesh_read_stl(path, scale, &m, err, errlen)) return -1;
    int rc = pala_meshclump_fit(m, path, nsph, tol, out, err, errlen);
    pala_mesh_free(m);
    return rc;
}

void pala_meshclump_free(pala_meshclump *mc) { free(mc); }

int pala_mesh_shape(const char *path, double scale, int spheres, double tolerance, FILE *out, FILE *err)
{
    char msg[1024];
    pala_meshclump *mc;
    if (pala_meshclump_make(path, scale, spheres, tolerance, &mc, msg, sizeof msg)) {
        fprintf(err, "pala shape: %s\n", msg);
        return PALA_ERR_INPUT;
    }
    const pala_solid *m = &mc->mesh;
    double J[3][3], w[3], o[3][3];
    memcpy(J, m->inertia, sizeof J);
    pala_sym3_eigen(J, w, o);
    fprintf(out, "mesh: %d triangles, volume %.6g m^3, centre of mass (%.6g %.6g %.6g) m, principal moments per density %.4g %.4g %.4g m^5 "
            "(exact, divergence theorem)\n", mc->ntri, m->volume, m->com.x, m->com.y, m->com.z, w[0], w[1], w[2]);
    pala_template t;
    memset(&t, 0, sizeof t);
    pala_vec3 shape[PALA_MESHCLUMP_MAX];
    double rad[PALA_MESHCLUMP_MAX];
    if (pala_template_build(&t, mc->n, mc->c, mc->r, 1, 0, shape, rad, msg, sizeof msg) == 0) {
        char how[64] = "exact";
        if (t.mc_samples) snprintf(how, sizeof how, "Monte Carlo, %ld samples", t.mc_samples);
        fprintf(out, "clump of %d spheres: volume %.6g m^3 (%+.2g%%, %s), centre of mass (%.6g %.6g %.6g) m, principal moments per density "
                "%.4g %.4g %.4g m^5\n", mc->n, t.volume, 100 * (t.volume / m->volume - 1), how, t.com_given.x, t.com_given.y, t.com_given.z,
                t.inertia[0], t.inertia[1], t.inertia[2]);
    }
    fprintf(out, "surface deviation: largest %.3g m, RMS %.3g m (%d samples of the mesh); clump to mesh largest %.3g m\n", mc->dev_max,
            mc->dev_rms, mc->nsample, mc->back_max);
    fprintf(out, "# the clump's spheres, for a [grain] of shape = spheres (x y z r, m):\n");
    for (int i = 0; i < mc->n; i++) fprintf(out, "sphere = %.9g %.9g %.9g %.9g\n", mc->c[i].x, mc->c[i].y, mc->c[i].z, mc->r[i]);
    pala_meshclump_free(mc);
    return PALA_OK;
}

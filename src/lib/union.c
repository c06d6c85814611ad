/* union.c: exact mass properties of a union of spheres or discs (docs/physics.md, "Exact
 * mass properties of a union of spheres", eqs. U1-U12).
 *
 * The power diagram splits the union into disjoint pieces ball_i ∩ cell_i (eq. U1).  A
 * piece is bounded by planar faces (a convex polygon ∩ a disc) and a part of its sphere; the
 * divergence theorem turns its volume, first and second moments into integrals over the
 * faces (U3-U7), which Green's theorem turns into closed forms over segments and circular
 * arcs (U8-U10).  The sphere part's area comes from solid angles (U11).  In 2D a piece is a
 * convex polygon ∩ a disc, the same planar integrals. */
#include "union.h"
#include "alloc.h"
#include <math.h>
#include <stdlib.h>

#define PI 3.14159265358979323846

/* A power plane within SNAP r of its sphere's centre goes through it exactly: the solid
 * angles of U11 lose digits as eps r / |d| near an edge of the cell through the centre;
 * moving the plane, shared by both cells, changes the union by O(SNAP^2) (docs/physics.md). */
#define SNAP 1e-6

/* Integrals over a planar region F in its own coordinates (origin at the disc's centre):
 * area, first moments x, y, second moments xx, xy, yy, and om, the solid angle of F seen
 * from the point at height d >= 0 above the origin (eq. U10). */
typedef struct mom2 { double a, x, y, xx, xy, yy, om; } mom2;

/* F_seg of eq. U10: the solid angle swept along a line at distance h from the foot, at
 * abscissa t, seen from height d >= 0 (continuous in t; 0 at h = 0 for d > 0). */
static double seg_angle(double t, double h, double d)
{
    double r = sqrt(d * d + h * h + t * t);
    return atan2(t * h * (h * h + t * t), (r + d) * (h * h * r + d * t * t));
}

/* The segment p -> q of the boundary (counter-clockwise, region on the left), eq. U8. */
static void add_segment(mom2 *m, const double *p, const double *q, double d, int want_om)
{
    double ex = q[0] - p[0], ey = q[1] - p[1], len = sqrt(ex * ex + ey * ey);
    if (len == 0) return;
    double h = (p[0] * ey - p[1] * ex) / len;   /* x . nu, nu = (ey, -ex)/len the outward normal */
    m->a += 0.5 * h * len;
    m->x += h * len * (p[0] + q[0]) / 6;
    m->y += h * len * (p[1] + q[1]) / 6;
    double w = h * len / 24;                     /* (1/4) h (len/6) (2pp + pq + qp + 2qq) */
    m->xx += w * (2 * p[0] * p[0] + 2 * p[0] * q[0] + 2 * q[0] * q[0]);
    m->xy += w * (2 * p[0] * p[1] + p[0] * q[1] + q[0] * p[1] + 2 * q[0] * q[1]);
    m->yy += w * (2 * p[1] * p[1] + 2 * p[1] * q[1] + 2 * q[1] * q[1]);
    if (want_om) {
        double t0 = (p[0] * ex + p[1] * ey) / len, t1 = (q[0] * ex + q[1] * ey) / len;
        m->om += seg_angle(t1, h, d) - seg_angle(t0, h, d);
    }
}

/* The arc of radius a from p over the angle dphi counter-clockwise to q, eq. U9; R is the
 * sphere's radius sqrt(a^2 + d^2). */
static void add_arc(mom2 *m, const double *p, const double *q, double dphi, double a, double d, double R)
{
    double a2 = a * a;
    m->a += 0.5 * a2 * dphi;
    m->x += a2 * (q[1] - p[1]) / 3;
    m->y -= a2 * (q[0] - p[0]) / 3;
    /* (1/4) a^4 integral of (cos^2, cos sin, sin^2) dphi; sin 2phi = 2xy/a^2, cos 2phi = (x^2 - y^2)/a^2 */
    double s2 = 2 * (q[0] * q[1] - p[0] * p[1]), c2 = (q[0] * q[0] - q[1] * q[1]) - (p[0] * p[0] - p[1] * p[1]);
    m->xx += 0.25 * (0.5 * a2 * a2 * dphi + 0.25 * a2 * s2);
    m->yy += 0.25 * (0.5 * a2 * a2 * dphi - 0.25 * a2 * s2);
    m->xy -= 0.25 * 0.25 * a2 * c2;
    m->om += (1 - d / R) * dphi;
}

/* Is the point x strictly inside the convex counter-clockwise polygon q (nq vertices)? */
static int inside_polygon(const double (*q)[2], int nq, const double *x)
{
    for (int k = 0; k < nq; k++) {
        const double *p0 = q[k], *p1 = q[(k + 1) % nq];
        if ((p1[0] - p0[0]) * (x[1] - p0[1]) - (p1[1] - p0[1]) * (x[0] - p0[0]) <= 0) return 0;
    }
    return 1;
}

/* The arc of F's boundary from p, where the boundary leaves the polygon's side for the
 * circle, counter-clockwise to q, where it meets the next side.  Ends that nearly coincide
 * leave a sliver or nearly the whole circle: the point of the circle opposite them says
 * which (it is inside the polygon for nearly the whole circle). */
static void add_arc_between(mom2 *m, const double (*poly)[2], int nq, const double *p, const double *q, double a, double d, double R)
{
    if (!isfinite(a) || (p[0] == q[0] && p[1] == q[1])) return;   /* a corner on the circle */
    double dphi = atan2(p[0] * q[1] - p[1] * q[0], p[0] * q[0] + p[1] * q[1]);
    if (dphi < 0) dphi += 2 * PI;
    if (fmin(dphi, 2 * PI - dphi) < 1e-6) {
        double mx = -(p[0] + q[0]), my = -(p[1] + q[1]), l = hypot(mx, my);
        double far[2] = {a * mx / l, a * my / l};
        int whole = inside_polygon(poly, nq, far);
        if (whole && dphi < PI) dphi += 2 * PI;
        if (!whole && dphi > PI) dphi -= 2 * PI;
    }
    add_arc(m, p, q, dphi, a, d, R);
}

/* Integrals over F = (convex polygon q) ∩ (disc of radius a about the origin); a = INFINITY:
 * the polygon alone.  d >= 0 and R = sqrt(a^2 + d^2) for the solid angle (want_om). */
static void polygon_disc(const double (*q)[2], int nq, double a, double d, double R, int want_om, mom2 *m)
{
    *m = (mom2){0, 0, 0, 0, 0, 0, 0};
    if (nq < 3) return;
    int ns = 0;
    double prev_out[2] = {0, 0}, first_in[2] = {0, 0};
    for (int k = 0; k < nq; k++) {
        const double *p0 = q[k], *p1 = q[(k + 1) % nq];
        double e[2] = {p1[0] - p0[0], p1[1] - p0[1]};
        double A = e[0] * e[0] + e[1] * e[1];
        if (A == 0) continue;
        double tin = 0, tout = 1;
        if (isfinite(a)) {   /* |p0 + t e|^2 = a^2 */
            double B = p0[0] * e[0] + p0[1] * e[1], C = p0[0] * p0[0] + p0[1] * p0[1] - a * a;
            double disc = B * B - A * C;
            if (disc <= 0) continue;
            double sq = sqrt(disc), qq = -(B + (B >= 0 ? sq : -sq));   /* stable roots qq/A, C/qq */
            double r1 = qq / A, r2 = qq != 0 ? C / qq : -r1;
            tin = fmax(0, fmin(r1, r2));
            tout = fmin(1, fmax(r1, r2));
            if ((tout - tin) * sqrt(A) <= 1e-14 * a) continue;   /* misses, or touches: no length */
        }
        double pin[2], pout[2];
        for (int c = 0; c < 2; c++) {
            pin[c] = tin == 0 ? p0[c] : p0[c] + tin * e[c];
            pout[c] = tout == 1 ? p1[c] : p0[c] + tout * e[c];
        }
        if (ns == 0) { first_in[0] = pin[0]; first_in[1] = pin[1]; }
        else add_arc_between(m, q, nq, prev_out, pin, a, d, R);
        add_segment(m, pin, pout, d, want_om);
        prev_out[0] = pout[0];
        prev_out[1] = pout[1];
        ns++;
    }
    if (ns > 0) { add_arc_between(m, q, nq, prev_out, first_in, a, d, R); return; }
    const double o[2] = {0, 0};
    if (isfinite(a) && inside_polygon(q, nq, o)) {   /* the whole disc */
        const double p[2] = {a, 0};
        add_arc(m, p, p, 2 * PI, a, d, R);
    }
}

/* Keep the part of the convex polygon q (nq vertices, counter-clockwise) where
 * al x + be y <= ga; tmp holds nq + 1 vertices.  Returns the new count (Sutherland-Hodgman;
 * a crossing is computed from the inside end, so both faces of an edge get the same point). */
static int clip(double (*q)[2], int nq, double al, double be, double ga, double (*tmp)[2])
{
    int nt = 0;
    for (int k = 0; k < nq; k++) {
        const double *p0 = q[k], *p1 = q[(k + 1) % nq];
        double s0 = al * p0[0] + be * p0[1] - ga, s1 = al * p1[0] + be * p1[1] - ga;
        if (s0 <= 0) { tmp[nt][0] = p0[0]; tmp[nt][1] = p0[1]; nt++; }
        if ((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0)) {
            const double *pi = s0 < 0 ? p0 : p1, *po = s0 < 0 ? p1 : p0;
            double si = s0 < 0 ? s0 : s1, so = s0 < 0 ? s1 : s0, t = si / (si - so);
            tmp[nt][0] = pi[0] + t * (po[0] - pi[0]);
            tmp[nt][1] = pi[1] + t * (po[1] - pi[1]);
            nt++;
        }
    }
    for (int k = 0; k < nt; k++) { q[k][0] = tmp[k][0]; q[k][1] = tmp[k][1]; }
    return nt < 3 ? 0 : nt;
}

/* The square of half-width w about the origin, counter-clockwise. */
static int square(double (*q)[2], double w)
{
    static const double sx[4] = {-1, 1, 1, -1}, sy[4] = {-1, -1, 1, 1};
    for (int k = 0; k < 4; k++) { q[k][0] = sx[k] * w; q[k][1] = sy[k] * w; }
    return 4;
}

/* The power plane between spheres (or discs) i and j, eq. U1: points u = x - c_i of cell i
 * have n . u <= d.  Computed for the pair in the order of the indices, so that cells i and
 * j see the same plane (snapped the same way).  Returns 0 (a plane), 1 (no constraint:
 * c_i = c_j and r_i > r_j, or the lower index of two equal spheres) or -1 (cell i is
 * empty: ball i lies in ball j, or is its higher-indexed twin). */
typedef struct plane { pala_vec3 n; double d; } plane;
static int power_plane(const pala_vec3 *c, const double *r, int i, int j, int dim, plane *pl)
{
    int lo = i < j ? i : j, hi = i < j ? j : i;
    pala_vec3 dv = pala_vsub(c[hi], c[lo]);
    if (dim == 2) dv.z = 0;
    double D = pala_vnorm(dv);
    if (D == 0) return r[i] > r[j] || (r[i] == r[j] && i < j) ? 1 : -1;
    /* s: distance of the plane from c_lo towards c_hi, (D^2 + r_lo^2 - r_hi^2) / 2D */
    double s = 0.5 * D + 0.5 * (r[lo] - r[hi]) * (r[lo] + r[hi]) / D;
    if (fabs(s) <= SNAP * r[lo]) s = 0;
    else if (fabs(D - s) <= SNAP * r[hi]) s = D;
    pl->n = pala_vscale((i == lo ? 1 : -1) / D, dv);
    pl->d = i == lo ? s : D - s;
    return 0;
}

/* An orthonormal basis e1, e2 of the plane with unit normal n, e1 x e2 = n (axis-aligned
 * when n is an axis). */
static void basis(pala_vec3 n, pala_vec3 *e1, pala_vec3 *e2)
{
    double ax = fabs(n.x), ay = fabs(n.y), az = fabs(n.z);
    pala_vec3 k = ax <= ay && ax <= az ? pala_v(1, 0, 0) : ay <= az ? pala_v(0, 1, 0) : pala_v(0, 0, 1);
    *e1 = pala_vcross(n, k);
    *e1 = pala_vscale(1 / pala_vnorm(*e1), *e1);
    *e2 = pala_vcross(n, *e1);
}

/* The face of plane f of the cell {n_g . u <= d_g, g < np}: the square of half-width w
 * about the plane's foot d_f n_f, clipped by the other planes, in the coordinates (e1, e2)
 * about the foot.  Returns its vertex count, 0 if empty.  Two parallel planes of the same
 * side: the one further out has no face, of two equal ones the later. */
static int face_polygon(const plane *pl, int np, int f, double w, pala_vec3 e1, pala_vec3 e2, double (*q)[2], double (*tmp)[2])
{
    int nq = square(q, w);
    for (int g = 0; g < np && nq; g++) {
        if (g == f) continue;
        double al = pala_vdot(pl[g].n, e1), be = pala_vdot(pl[g].n, e2), nn = pala_vdot(pl[g].n, pl[f].n);
        if (al * al + be * be <= 1e-24) {
            if (nn > 0 ? pl[g].d < pl[f].d || (pl[g].d == pl[f].d && g < f) : pl[g].d + pl[f].d < 0) return 0;
            continue;
        }
        nq = clip(q, nq, al, be, pl[g].d - pl[f].d * nn, tmp);
    }
    return nq;
}

/* Solid angle of the cone {u : n_g . u <= 0} of the planes through the centre (eq. U12):
 * the faces of the cube |u|_inf <= 1 cut by them, seen from the centre. */
static double cone_angle(const plane *pl, int np, plane *work, double (*q)[2], double (*tmp)[2])
{
    int nz = 0;
    for (int g = 0; g < np; g++)
        if (pl[g].d == 0) work[nz++] = pl[g];
    double om = 0;
    for (int k = 0; k < 6; k++) {
        pala_vec3 n = pala_v(k % 3 == 0, k % 3 == 1, k % 3 == 2);
        if (k >= 3) n = pala_vneg(n);
        work[nz] = (plane){n, 1};
        pala_vec3 e1, e2;
        basis(n, &e1, &e2);
        int nq = face_polygon(work, nz + 1, nz, 1, e1, e2, q, tmp);
        mom2 m;
        polygon_disc((const double (*)[2])q, nq, HUGE_VAL, 1, 0, 1, &m);
        om += m.om;
    }
    return om;
}

/* Integrals over piece i (ball i ∩ cell i) about its centre, u = x - c_i: volume v,
 * s1 = integral of u, s2 = integral of u u^T (eqs. U3-U7). */
typedef struct piece { double v; pala_vec3 s1; double s2[3][3]; } piece;

static void sphere_piece(int n, const pala_vec3 *c, const double *r, int i, plane *pl, plane *work,
                         double (*q)[2], double (*tmp)[2], piece *out)
{
    *out = (piece){0};
    double R = r[i];
    int np = 0;
    for (int j = 0; j < n; j++) {
        if (j == i) continue;
        int k = power_plane(c, r, i, j, 3, &pl[np]);
        if (k < 0 || (k == 0 && pl[np].d <= -R)) return;   /* ball i inside ball j */
        if (k == 0 && pl[np].d < R) np++;                  /* else: the plane misses ball i */
    }
    double sumA = 0, om = 0;
    pala_vec3 nA = pala_v(0, 0, 0), dM = pala_v(0, 0, 0);
    double MnT[3][3] = {{0}}, dQ[3][3] = {{0}};
    int in = 1, on = 0;
    for (int f = 0; f < np; f++) {
        double d = pl[f].d, a = sqrt((R - d) * (R + d));
        if (d < 0) in = 0;
        if (d == 0) on = 1;
        pala_vec3 e1, e2, nf = pl[f].n;
        basis(nf, &e1, &e2);
        int nq = face_polygon(pl, np, f, 2 * a, e1, e2, q, tmp);
        mom2 m;
        polygon_disc((const double (*)[2])q, nq, a, fabs(d), R, d != 0, &m);
        if (m.a == 0) continue;
        if (d != 0) om += (d > 0 ? m.om : -m.om);              /* U11: Omega_f */
        pala_vec3 mv = pala_vaxpy(pala_vscale(m.x, e1), m.y, e2);
        pala_vec3 M = pala_vaxpy(mv, d * m.a, nf);             /* integral of u over the face */
        sumA += d * m.a;
        nA = pala_vaxpy(nA, m.a, nf);
        dM = pala_vaxpy(dM, d, M);
        const double N[3] = {nf.x, nf.y, nf.z}, E1[3] = {e1.x, e1.y, e1.z}, E2[3] = {e2.x, e2.y, e2.z};
        const double Mv[3] = {M.x, M.y, M.z}, mm[3] = {mv.x, mv.y, mv.z};
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++) {
                MnT[x][y] += Mv[x] * N[y];
                double Q = d * d * m.a * N[x] * N[y] + d * (N[x] * mm[y] + mm[x] * N[y])
                         + m.xx * E1[x] * E1[y] + m.xy * (E1[x] * E2[y] + E2[x] * E1[y]) + m.yy * E2[x] * E2[y];
                dQ[x][y] += d * Q;
            }
    }
    double omK = !in ? 0 : !on ? 4 * PI : cone_angle(pl, np, work, q, tmp);
    double omS = omK - om;                                     /* U11 */
    double V = (R * R * R * omS + sumA) / 3;                   /* U3 */
    out->v = V;
    out->s1 = pala_vscale(0.25, pala_vaxpy(dM, -R * R, nA));   /* U4, U6 */
    for (int x = 0; x < 3; x++)                                /* U5, U7 */
        for (int y = 0; y < 3; y++)
            out->s2[x][y] = 0.2 * (R * R * ((x == y) * V - 0.5 * (MnT[x][y] + MnT[y][x])) + dQ[x][y]);
}

/* Piece i of a union of discs (2D): its polygon ∩ disc, about c_i. */
static void disc_piece(int n, const pala_vec3 *c, const double *r, int i, double (*q)[2], double (*tmp)[2], piece *out)
{
    *out = (piece){0};
    int nq = square(q, 2 * r[i]);
    for (int j = 0; j < n && nq; j++) {
        plane pl;
        if (j == i) continue;
        int k = power_plane(c, r, i, j, 2, &pl);
        if (k < 0) return;
        if (k == 0) nq = clip(q, nq, pl.n.x, pl.n.y, pl.d, tmp);
    }
    mom2 m;
    polygon_disc((const double (*)[2])q, nq, r[i], 0, r[i], 0, &m);
    out->v = m.a;
    out->s1 = pala_v(m.x, m.y, 0);
    out->s2[0][0] = m.xx;
    out->s2[0][1] = out->s2[1][0] = m.xy;
    out->s2[1][1] = m.yy;
}

/* Sum the pieces about o (near the centre of mass: the moments then carry no large
 * cancellation), move to the centre of mass, J = tr(S) 1 - S. */
static int union_of(int n, const pala_vec3 *c, const double *r, int dim, pala_union *u)
{
    if (n < 1) return -1;
    plane *pl = pala_xrealloc(NULL, 2 * ((size_t)n + 6) * sizeof *pl);
    double (*q)[2] = pala_xrealloc(NULL, 2 * ((size_t)n + 8) * sizeof *q), (*tmp)[2] = q + n + 8;
    double wsum = 0;
    pala_vec3 o = pala_v(0, 0, 0);
    for (int i = 0; i < n; i++) {
        double w = dim == 2 ? r[i] * r[i] : r[i] * r[i] * r[i];
        o = pala_vaxpy(o, w, c[i]);
        wsum += w;
    }
    o = pala_vscale(1 / wsum, o);
    if (dim == 2) o.z = 0;
    double V = 0, F2[3][3] = {{0}};
    pala_vec3 F1 = pala_v(0, 0, 0);
    for (int i = 0; i < n; i++) {
        piece p;
        if (dim == 2) disc_piece(n, c, r, i, q, tmp, &p);
        else sphere_piece(n, c, r, i, pl, pl + n + 6, q, tmp, &p);
        if (p.v == 0) continue;
        pala_vec3 bv = pala_vsub(c[i], o);
        if (dim == 2) bv.z = 0;
        const double b[3] = {bv.x, bv.y, bv.z}, s[3] = {p.s1.x, p.s1.y, p.s1.z};
        V += p.v;
        F1 = pala_vadd(F1, pala_vaxpy(p.s1, p.v, bv));
        for (int x = 0; x < 3; x++)
            for (int y = 0; y < 3; y++) F2[x][y] += p.s2[x][y] + b[x] * s[y] + s[x] * b[y] + p.v * b[x] * b[y];
    }
    free(pl);
    free(q);
    pala_vec3 g = pala_vscale(1 / V, F1);
    const double G[3] = {g.x, g.y, g.z};
    double S[3][3];
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) S[x][y] = F2[x][y] - V * G[x] * G[y];
    double tr = S[0][0] + S[1][1] + S[2][2];
    for (int x = 0; x < 3; x++)
        for (int y = 0; y < 3; y++) u->inertia[x][y] = (x == y) * tr - 0.5 * (S[x][y] + S[y][x]);
    u->volume = V;
    u->com = pala_vadd(o, g);
    return 0;
}

int pala_union_spheres(int n, const pala_vec3 *c, const double *r, pala_union *u) { return union_of(n, c, r, 3, u); }
int pala_union_discs(int n, const pala_vec3 *c, const double *r, pala_union *u) { return union_of(n, c, r, 2, u); }

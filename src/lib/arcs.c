/* arcs.c: arc grains in 2D (Potapov and Campbell, seed 001): a convex outline of circular
 * arcs joined with a continuous tangent.  Its area, centre of mass and moments are exact:
 * the polygon of the joints plus one circular segment per arc, each segment a sector less
 * the triangle of its circle's centre and its chord (docs/physics.md, "Arc grains",
 * eqs. A1-A4).  The contact rule is arcs.h's. */
#include "arcs.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The region's moments: A, Sx, Sy, Sxx, Syy, Sxy (m^2, m^3, m^4). */
typedef struct mom { double A, Sx, Sy, Sxx, Syy, Sxy; } mom;

/* A triangle a, b, c (signed: counter-clockwise positive), eq. (A2): A = (b - a) x (c - a) / 2,
 * S_x = A (a + b + c)_x / 3, S_xy = A/12 (a_x a_y + b_x b_y + c_x c_y + s_x s_y), s = a + b + c. */
static void add_tri(mom *m, double sg, double ax, double ay, double bx, double by, double cx, double cy)
{
    double A = sg * 0.5 * ((bx - ax) * (cy - ay) - (by - ay) * (cx - ax)), sx = ax + bx + cx, sy = ay + by + cy;
    m->A += A;
    m->Sx += A * sx / 3;
    m->Sy += A * sy / 3;
    m->Sxx += A / 12 * (ax * ax + bx * bx + cx * cx + sx * sx);
    m->Syy += A / 12 * (ay * ay + by * by + cy * cy + sy * sy);
    m->Sxy += A / 12 * (ax * ay + bx * by + cx * cy + sx * sy);
}

/* A sector of a circle (centre c, radius R) of half-width h about the direction phi, eq. (A3):
 * A = R^2 h, first moment 2/3 R^3 sin h along phi, second moments about c in its own frame
 * R^4/8 (2h + sin 2h) along phi and R^4/8 (2h - sin 2h) across; then about the origin. */
static void add_sector(mom *m, double cx, double cy, double R, double phi, double h)
{
    double A = R * R * h, f = 2.0 / 3.0 * R * R * R * sin(h), co = cos(phi), si = sin(phi);
    double uu = R * R * R * R / 8 * (2 * h + sin(2 * h)), vv = R * R * R * R / 8 * (2 * h - sin(2 * h));
    double fx = f * co, fy = f * si;
    m->A += A;
    m->Sx += fx + A * cx;
    m->Sy += fy + A * cy;
    m->Sxx += co * co * uu + si * si * vv + 2 * cx * fx + A * cx * cx;
    m->Syy += si * si * uu + co * co * vv + 2 * cy * fy + A * cy * cy;
    m->Sxy += co * si * (uu - vv) + cx * fy + cy * fx + A * cx * cy;
}

/* The moments about the point (ox, oy): the polygon of the arcs' start points (a fan from
 * that point), and each arc's segment, its sector less the triangle of its centre and chord
 * (eq. A1). */
static mom moments_about(int n, const pala_arc *a, double ox, double oy)
{
    mom m = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < n; i++) {
        const pala_arc *p = &a[i], *q = &a[(i + 1) % n];
        double cx = p->c.x - ox, cy = p->c.y - oy;
        double sx = cx + p->R * cos(p->a0), sy = cy + p->R * sin(p->a0), ex = cx + p->R * cos(p->a1), ey = cy + p->R * sin(p->a1);
        double nx = q->c.x - ox + q->R * cos(q->a0), ny = q->c.y - oy + q->R * sin(q->a0);
        add_tri(&m, 1, 0, 0, sx, sy, nx, ny);
        add_sector(&m, cx, cy, p->R, 0.5 * (p->a0 + p->a1), 0.5 * (p->a1 - p->a0));
        add_tri(&m, -1, cx, cy, sx, sy, ex, ey);
    }
    return m;
}

void pala_arcs_moments(int n, const pala_arc *a, double out[6])
{
    mom m = moments_about(n, a, 0, 0);
    out[0] = m.A; out[1] = m.Sx; out[2] = m.Sy; out[3] = m.Sxx; out[4] = m.Syy; out[5] = m.Sxy;
}

/* angle wrapped into (-pi, pi] */
static double wrap(double x)
{
    x = fmod(x, 2 * PALA_PI);
    if (x > PALA_PI) x -= 2 * PALA_PI;
    if (x <= -PALA_PI) x += 2 * PALA_PI;
    return x;
}

/* The outline's checks: each arc convex and counter-clockwise, each joined to the next at
 * one point with one tangent (1e-9 of the grain's size, 1e-9 rad), once around (the widths
 * add up to 2 pi).  NULL, or what is wrong (into err). */
static const char *check_arcs(int n, const pala_arc *a, char *err, size_t len)
{
    if (n < 2) { snprintf(err, len, "an arc grain needs at least 2 arcs (got %d); a disc is shape = sphere", n); return err; }
    double L = 0, turn = 0;
    for (int i = 0; i < n; i++) {
        const pala_arc *p = &a[i];
        if (!(p->R > 0) || !isfinite(p->R) || !isfinite(p->c.x) || !isfinite(p->c.y) || !isfinite(p->a0) || !isfinite(p->a1)) {
            snprintf(err, len, "arc %d: needs a finite centre, a radius > 0 (got %g) and finite angles", i + 1, p->R);
            return err;
        }
        if (p->c.z != 0) { snprintf(err, len, "arc %d: an arc grain lies in the plane z = 0 (its centre has z = %g)", i + 1, p->c.z); return err; }
        if (!(p->a1 > p->a0) || !(p->a1 - p->a0 < 2 * PALA_PI)) {
            snprintf(err, len, "arc %d: its end angle (%g deg) must follow its start (%g deg) counter-clockwise, by less than a full turn "
                     "(arcs are convex and listed counter-clockwise)", i + 1, p->a1 * 180 / PALA_PI, p->a0 * 180 / PALA_PI);
            return err;
        }
        turn += p->a1 - p->a0;
        for (int j = 0; j < n; j++)
            L = fmax(L, hypot(p->c.x + p->R * cos(p->a0) - a[j].c.x - a[j].R * cos(a[j].a0), p->c.y + p->R * sin(p->a0) - a[j].c.y - a[j].R * sin(a[j].a0)));
    }
    for (int i = 0; i < n; i++) {
        const pala_arc *p = &a[i], *q = &a[(i + 1) % n];
        double gap = hypot(p->c.x + p->R * cos(p->a1) - q->c.x - q->R * cos(q->a0), p->c.y + p->R * sin(p->a1) - q->c.y - q->R * sin(q->a0));
        if (gap > 1e-9 * L) {
            snprintf(err, len, "arc %d ends %g m from where arc %d starts: consecutive arcs must join (end point of one = start point of the next)",
                     i + 1, gap, (i + 1) % n + 1);
            return err;
        }
        double kink = wrap(q->a0 - p->a1);
        if (fabs(kink) > 1e-9) {
            snprintf(err, len, "arcs %d and %d meet at an angle of %g deg: their tangents must be continuous (the end angle of one = the start "
                     "angle of the next, mod 360)", i + 1, (i + 1) % n + 1, kink * 180 / PALA_PI);
            return err;
        }
    }
    if (fabs(turn - 2 * PALA_PI) > 1e-9 * n) {
        snprintf(err, len, "the arcs turn by %g deg in all: a convex outline turns once (360 deg)", turn * 180 / PALA_PI);
        return err;
    }
    return NULL;
}

/* The length of the chord of the outline (n arcs a, checked) that starts at its point p and
 * runs inward along -u, u the outward normal there: the farthest t > 0 at which p - t u lies
 * on an arc (the outline is convex, so the line meets it at p and at the chord's end alone;
 * the farthest also passes over roots near p from the arcs that join there).  scale: the
 * grain's size, for the tolerances. */
static double inward_chord(int n, const pala_arc *a, double px, double py, double ux, double uy, double scale)
{
    double far = 0;
    for (int j = 0; j < n; j++) {
        double ex = px - a[j].c.x, ey = py - a[j].c.y, R = a[j].R;
        double b = ex * ux + ey * uy, disc = b * b - (ex * ex + ey * ey - R * R);   /* |e - t u|^2 = R^2 */
        if (disc < 0) continue;
        double hw = 0.5 * (a[j].a1 - a[j].a0), mid = 0.5 * (a[j].a0 + a[j].a1);
        for (int s = -1; s <= 1; s += 2) {
            double t = b + s * sqrt(disc), qx = ex - t * ux, qy = ey - t * uy;
            if (t > 1e-9 * scale && t > far && qx * cos(mid) + qy * sin(mid) >= (cos(hw) - 1e-9) * R) far = t;
        }
    }
    return far;
}

/* Arc i's deepest contact dl (eq. A9 of docs/physics.md): half the shortest inward chord
 * from its points, sampled at 2 + 4096/n points along it (ends included).  A contact of
 * overlap ov puts each arc's contact point ov along the other's inward normal, so a pair
 * whose overlap reaches the chord there is no contact: one grain's point lies beyond the
 * other (rule A5 alone would take it).  Half: room for the samples' gaps, and far above
 * the overlaps of a run that has not blown up (docs/physics.md, eq. A9). */
static double arc_depth(int n, const pala_arc *a, int i, double scale)
{
    const pala_arc *p = &a[i];
    int m = 1 + 4096 / n;
    double least = HUGE_VAL;
    for (int k = 0; k <= m; k++) {
        double phi = p->a0 + (p->a1 - p->a0) * k / m, ux = cos(phi), uy = sin(phi);
        least = fmin(least, inward_chord(n, a, p->c.x + p->R * ux, p->c.y + p->R * uy, ux, uy, scale));
    }
    return least > 0 ? 0.5 * least : HUGE_VAL;   /* 0 cannot happen for a checked outline */
}

int pala_arcs_build(pala_template *t, int n, const pala_arc *a, double rho, double h, pala_vec3 *shape, double *rad, pala_arcrange *rng,
                    char *err, size_t errlen)
{
    if (check_arcs(n, a, err, errlen)) return -1;
    /* about the mean of the joints, a point inside: sums of the grain's size */
    double ox = 0, oy = 0;
    for (int i = 0; i < n; i++) { ox += a[i].c.x + a[i].R * cos(a[i].a0); oy += a[i].c.y + a[i].R * sin(a[i].a0); }
    ox /= n; oy /= n;
    mom m = moments_about(n, a, ox, oy);
    if (!(m.A > 0)) { snprintf(err, errlen, "the arcs enclose no area (%g m^2)", m.A); return -1; }
    double gx = m.Sx / m.A, gy = m.Sy / m.A;                                   /* centre of mass, eq. (A4) */
    double cxx = m.Sxx - m.A * gx * gx, cyy = m.Syy - m.A * gy * gy, cxy = m.Sxy - m.A * gx * gy;
    if (!(h > 0)) h = 4.0 / 3.0 * sqrt(m.A / PALA_PI);
    /* a prism of thickness h: I_x = rho h (C_yy + A h^2/12), I_y = rho h (C_xx + A h^2/12),
     * I_z = rho h (C_xx + C_yy), I_xy = -rho h C_xy (eq. A4) */
    double mu = rho * h, zz = m.A * h * h / 12;
    double Ixx = mu * (cyy + zz), Iyy = mu * (cxx + zz), Ixy = -mu * cxy, Izz = mu * (cxx + cyy);
    double phi = 0, i1 = Ixx, i2 = Iyy;
    if (fabs(Ixx - Iyy) <= 1e-13 * Izz && fabs(Ixy) <= 1e-13 * Izz) i1 = i2 = 0.5 * (Ixx + Iyy);   /* isotropic in the plane */
    else {
        phi = 0.5 * atan2(2 * Ixy, Ixx - Iyy);
        double cs = cos(phi), sn = sin(phi);
        i1 = cs * cs * Ixx + 2 * cs * sn * Ixy + sn * sn * Iyy;
        i2 = sn * sn * Ixx - 2 * cs * sn * Ixy + cs * cs * Iyy;
        if (i2 < i1) { double tmp = i1; i1 = i2; i2 = tmp; phi += 0.5 * PALA_PI; }
        if (phi > 0.5 * PALA_PI) phi -= PALA_PI;   /* both axes flipped: far from a half turn */
    }
    const double cs = cos(phi), sn = sin(phi);
    t->ncomp = n;
    t->volume = m.A * h;
    t->volume_stderr = 0;
    t->mc_samples = 0;
    t->mass = rho * t->volume;
    t->inertia[0] = i1; t->inertia[1] = i2; t->inertia[2] = Izz;
    for (int k = 0; k < 3; k++) t->inv_inertia[k] = 1.0 / t->inertia[k];
    t->isotropic = 3;   /* it turns about z alone (2D): omega stays along z, beta = T / I_3 (pala.h) */
    t->frame = pala_v(0, 0, tan(0.5 * phi));   /* eq. (8): body x = (cos phi, sin phi) of the given frame */
    t->com_given = pala_v(ox + gx, oy + gy, 0);
    t->bound_radius = 0;
    for (int i = 0; i < n; i++) {
        const pala_arc *p = &a[i];
        double dx = p->c.x - ox - gx, dy = p->c.y - oy - gy, hw = 0.5 * (p->a1 - p->a0), mid = 0.5 * (p->a0 + p->a1);
        shape[i] = pala_v(cs * dx + sn * dy, -sn * dx + cs * dy, 0);
        rad[i] = p->R;
        pala_arcrange *r = &rng[i];
        r->mx = cos(mid - phi); r->my = sin(mid - phi); r->ch = cos(hw);
        r->dl = arc_depth(n, a, i, sqrt(m.A));
        r->pad = 0;
        /* the smallest circle around the arc: its chord's for a half-width up to 90 deg */
        double off = hw <= 0.5 * PALA_PI ? p->R * cos(hw) : 0;
        r->bx = shape[i].x + off * r->mx; r->by = shape[i].y + off * r->my;
        r->br = hw <= 0.5 * PALA_PI ? p->R * sin(hw) : p->R;
        /* the farthest point of the arc from the centre of mass (eq. 32): along c - x if
         * that direction is the arc's, else an end */
        double d = hypot(dx, dy), far;
        if (d == 0 || (dx * cos(mid) + dy * sin(mid)) >= cos(hw) * d) far = d + p->R;
        else far = fmax(hypot(dx + p->R * cos(p->a0), dy + p->R * sin(p->a0)), hypot(dx + p->R * cos(p->a1), dy + p->R * sin(p->a1)));
        t->bound_radius = fmax(t->bound_radius, far);
    }
    return 0;
}

int pala_arcs_regular(int sides, double radius, double rc, double rs, pala_arc *out, char *err, size_t errlen)
{
    if (sides < 2 || sides > 64) { snprintf(err, errlen, "'sides = %d': a quasi-polygon has 2 (an oval) to 64 sides", sides); return -1; }
    if (!(radius > 0) || !(rc > 0) || !(rc < radius)) {
        snprintf(err, errlen, "'corner_radius = %g': a corner's radius must be > 0 and below 'radius' (%g m), the distance of its tip from the centre",
                 rc, radius);
        return -1;
    }
    if (!(rs > radius) || !isfinite(rs)) {
        snprintf(err, errlen, "'side_radius = %g': a side's radius must exceed 'radius' (%g m; equal to it the grain is a disc: shape = sphere)", rs,
                 radius);
        return -1;
    }
    /* corners at rho = radius - rc along theta_k = 2 pi k / n; the side between corners k and
     * k + 1 faces phi_k = theta_k + pi/n, its circle internally tangent to both corners':
     * half-width beta, sin beta = rho sin(pi/n) / (rs - rc); the corners' gamma = pi/n - beta;
     * the side's centre at d = rho cos(pi/n) - (rs - rc) cos beta along phi_k (eq. A7) */
    double rho = radius - rc, a = PALA_PI / sides, beta = asin(rho * sin(a) / (rs - rc)), gam = a - beta;
    double d = rho * cos(a) - (rs - rc) * cos(beta);
    for (int k = 0; k < sides; k++) {
        double th = 2 * a * k, ph = th + a;
        out[2 * k] = (pala_arc){pala_v(rho * cos(th), rho * sin(th), 0), rc, th - gam, th + gam};
        out[2 * k + 1] = (pala_arc){pala_v(d * cos(ph), d * sin(ph), 0), rs, ph - beta, ph + beta};
    }
    return 2 * sides;
}

/* measure.c: `pala measure RUN`: what happens inside a run, from its frames
 * (trajectory.txt or .bin) and its contacts (contacts.tsv or .bin, key contacts_every):
 *   measure.tsv           a row per frame over a region: packing fraction, coordination,
 *                         rattlers, the stress tensor (contact and kinetic parts), the
 *                         fabric tensor, mean velocity and granular temperature; their means
 *                         over the frames on standard output (the window means of a flow)
 *   profile-AXIS.tsv      with --profile AXIS: the same quantities in bins along the axis,
 *                         averaged over the frames, and their SVG plots
 *   the angle of repose   with --angle: the heap's flank on the last frame, or a refusal
 *                         when the surface is not a slope; in a drum, the bed's surface
 *                         across its axis on every frame of the window
 * The formulas are docs/physics.md's "Contacts and stress" (eqs. M1-M6).  The same functions
 * (pala_meas_*, measure.h) give a [measure NAME] section's rows during a run from the world's
 * own frame and contact list (writers.c), so both agree to the last digit. */
#include "measure.h"
#include "commands.h"
#include "contacts.h"
#include "tsv.h"
#include "rundir.h"
#include "svg.h"
#include "traj.h"
#include "writer.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *xalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) { fprintf(stderr, "pala: out of memory (measuring)\n"); exit(PALA_ERR_IO); }
    return p;
}

/* realloc of n doubles, or exit as xalloc */
static double *xrealloc_d(double *p, size_t n)
{
    double *q = realloc(p, (n ? n : 1) * sizeof *q);
    if (!q) { fprintf(stderr, "pala: out of memory (measuring)\n"); exit(PALA_ERR_IO); }
    return q;
}

/* ---- the solid in a box: exact for spheres (docs/physics.md, "Packing fraction") -------- */
/* the integral of sqrt(R^2 - t^2) from 0 to x, |x| <= R */
static double chord_prim(double x, double R)
{
    x = x < -R ? -R : x > R ? R : x;
    double s = R * R - x * x;
    return 0.5 * (x * sqrt(s > 0 ? s : 0) + R * R * asin(x / R));
}

/* The area of the disc of radius R about the origin where x <= X and y <= Y: the integral
 * over x of the chord's part below Y, [min(Y, s) + s]+ with s = sqrt(R^2 - x^2): 2 s where
 * s <= Y (Y >= 0), Y + s where s > |Y|, 0 elsewhere. */
static double disc_quadrant(double R, double X, double Y)
{
    if (!(R > 0) || X <= -R || Y <= -R) return 0;
    if (X > R) X = R;
    if (Y >= R) return 2 * (chord_prim(X, R) - chord_prim(-R, R));
    double xb = sqrt(R * R - Y * Y), A = 0, a, b;
    a = -R; b = fmin(-xb, X);
    if (b > a && Y >= 0) A += 2 * (chord_prim(b, R) - chord_prim(a, R));
    a = -xb; b = fmin(xb, X);
    if (b > a) A += Y * (b - a) + chord_prim(b, R) - chord_prim(a, R);
    a = xb; b = X;
    if (b > a && Y >= 0) A += 2 * (chord_prim(b, R) - chord_prim(a, R));
    return A;
}

double pala_disc_rect_area(double a, double x0, double x1, double y0, double y1)
{
    if (!(x1 > x0) || !(y1 > y0)) return 0;
    if (x0 <= -a && x1 >= a && y0 <= -a && y1 >= a) return PALA_PI * a * a;
    return disc_quadrant(a, x1, y1) - disc_quadrant(a, x0, y1) - disc_quadrant(a, x1, y0) + disc_quadrant(a, x0, y0);
}

/* Gauss-Legendre nodes and weights on [-1, 1] (Newton on P_n) */
enum { GLN = 24 };
static double gl_x[GLN], gl_w[GLN];
static void gauss_legendre(void)
{
    if (gl_w[0] > 0) return;
    for (int i = 0; i < GLN; i++) {
        double x = cos(PALA_PI * (i + 0.75) / (GLN + 0.5)), dp = 1;
        for (int it = 0; it < 100; it++) {
            double p0 = 1, p1 = x;
            for (int k = 2; k <= GLN; k++) { double p2 = ((2 * k - 1) * x * p1 - (k - 1) * p0) / k; p0 = p1; p1 = p2; }
            dp = GLN * (x * p1 - p0) / (x * x - 1);
            double dx = p1 / dp;
            x -= dx;
            if (fabs(dx) < 1e-16) break;
        }
        gl_x[i] = x;
        gl_w[i] = 2 / ((1 - x * x) * dp * dp);
    }
}

double pala_sphere_box_volume(double a, const double lo[3], const double hi[3])
{
    double z0 = fmax(lo[2], -a), z1 = fmin(hi[2], a);
    if (!(a > 0) || !(z1 > z0) || !(hi[0] > lo[0]) || !(hi[1] > lo[1])) return 0;
    if (lo[0] <= -a && hi[0] >= a && lo[1] <= -a && hi[1] >= a)   /* caps only: pi (a^2 z - z^3/3) */
        return PALA_PI * (a * a * (z1 - z0) - (z1 * z1 * z1 - z0 * z0 * z0) / 3);
    gauss_legendre();
    /* the heights where the disc's radius meets an edge's or a corner's distance: there the
     * area's form changes (a kink), so the pieces between are integrated apart */
    double zb[20], rr[8] = {fabs(lo[0]), fabs(hi[0]), fabs(lo[1]), fabs(hi[1]), hypot(lo[0], lo[1]), hypot(lo[0], hi[1]), hypot(hi[0], lo[1]),
                            hypot(hi[0], hi[1])};
    int nb = 0;
    zb[nb++] = z0;
    for (int i = 0; i < 8; i++)
        if (rr[i] < a) {
            double h = sqrt(a * a - rr[i] * rr[i]);
            if (h > z0 && h < z1) zb[nb++] = h;
            if (-h > z0 && -h < z1) zb[nb++] = -h;
        }
    zb[nb++] = z1;
    for (int i = 1; i < nb; i++)   /* sort (a few) */
        for (int j = i; j > 0 && zb[j] < zb[j - 1]; j--) { double s = zb[j]; zb[j] = zb[j - 1]; zb[j - 1] = s; }
    double V = 0;
    for (int p = 0; p + 1 < nb; p++) {
        double m = 0.5 * (zb[p] + zb[p + 1]), h = 0.5 * (zb[p + 1] - zb[p]);
        if (!(h > 0)) continue;
        /* z = m - h cos(theta): the root-like ends of the area become smooth in theta */
        for (int i = 0; i < GLN; i++) {
            double th = 0.5 * PALA_PI * (gl_x[i] + 1), z = m - h * cos(th), s = a * a - z * z;
            double rho = sqrt(s > 0 ? s : 0);
            V += gl_w[i] * 0.5 * PALA_PI * h * sin(th) * pala_disc_rect_area(rho, lo[0], hi[0], lo[1], hi[1]);
        }
    }
    return V;
}

/* ---- the angle of repose (bench/heap/angle.sh's method) --------------------------------- */
/* The slope b of the least-squares line y = a + b x through m points, from their sums */
static double ls_slope(long m, double sx, double sy, double sxx, double sxy) { return ((double)m * sxy - sx * sy) / ((double)m * sxx - sx * sx); }

int pala_heap_angle(long n, const pala_vec3 *c, const double *r, int up, double z0, double dr, double lo, double hi, pala_angle *A,
                    char *why, size_t len)
{
    memset(A, 0, sizeof *A);
    if (n < 1) { snprintf(why, len, "no spheres"); return -1; }
    int e1 = (up + 1) % 3, e2 = (up + 2) % 3;
    if (up == 2) { e1 = 0; e2 = 1; }
    double xc = 0, yc = 0, dmax = 0;
    for (long i = 0; i < n; i++) { const double p[3] = {c[i].x, c[i].y, c[i].z}; xc += p[e1]; yc += p[e2]; }
    xc /= (double)n; yc /= (double)n;
    for (long i = 0; i < n; i++) { const double p[3] = {c[i].x, c[i].y, c[i].z}; dmax = fmax(dmax, hypot(p[e1] - xc, p[e2] - yc)); }
    long kmax = (long)(dmax / dr);
    if (kmax > 20000) { snprintf(why, len, "rings of %g m: too narrow for a heap %g m wide", dr, dmax); return -1; }
    long ncell = 3 * (kmax + 1) * (kmax + 1);   /* ring k has 6k + 3 cells, from 3 k^2 on */
    double *top = xalloc((size_t)ncell, sizeof *top), *at = xalloc((size_t)ncell, sizeof *at);
    char *has = xalloc((size_t)ncell, 1);
    for (long i = 0; i < n; i++) {
        const double p[3] = {c[i].x, c[i].y, c[i].z};
        double dx = p[e1] - xc, dy = p[e2] - yc, d = sqrt(dx * dx + dy * dy);
        long ri = (long)(d / dr), ns = 6 * ri + 3;
        long s = (long)((atan2(dy, dx) + PALA_PI) / (2 * PALA_PI) * (double)ns) % ns;
        long cell = 3 * ri * ri + s;
        double h = p[up] + r[i] - z0;
        if (!has[cell] || h > top[cell]) { has[cell] = 1; top[cell] = h; at[cell] = d; }
    }
    double *rs = xalloc((size_t)kmax + 1, sizeof *rs);
    long *rn = xalloc((size_t)kmax + 1, sizeof *rn);
    for (long k = 0; k <= kmax; k++)
        for (long cl = 3 * k * k; cl < 3 * (k + 1) * (k + 1); cl++)
            if (has[cl]) { rs[k] += top[cl]; rn[k]++; }
    double H = 0;
    long kH = 0, ka, kb;
    for (long k = 0; k <= kmax; k++)
        if (rn[k] && rs[k] / (double)rn[k] > H) { H = rs[k] / (double)rn[k]; kH = k; }
    int rc = -1;
    if (H <= 0) { snprintf(why, len, "no heap: nothing stands above the floor"); goto done; }
    for (ka = kH; ka <= kmax && !(rn[ka] && rs[ka] / (double)rn[ka] < hi * H); ka++) {}
    if (ka > kmax) {
        snprintf(why, len, "the surface nowhere falls below %g of its height %.4g m: a flat bed, not a heap", hi, H);
        goto done;
    }
    for (kb = ka; kb + 1 <= kmax && rn[kb + 1] && rs[kb + 1] / (double)rn[kb + 1] >= lo * H; kb++) {}
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    long m = 0;
    for (long cl = 3 * ka * ka; cl < 3 * (kb + 1) * (kb + 1); cl++)
        if (has[cl]) { m++; sx += at[cl]; sy += top[cl]; sxx += at[cl] * at[cl]; sxy += at[cl] * top[cl]; }
    if (m < 8) { snprintf(why, len, "fewer than 8 points on the flank (%ld): a larger heap, or narrower rings (--ring)", m); goto done; }
    double b = ls_slope(m, sx, sy, sxx, sxy), a0 = (sy - b * sx) / (double)m, ss = 0;
    for (long cl = 3 * ka * ka; cl < 3 * (kb + 1) * (kb + 1); cl++)
        if (has[cl]) { double e = top[cl] - a0 - b * at[cl]; ss += e * e; }
    double se = m > 2 ? sqrt(ss / (double)(m - 2) / (sxx - sx * sx / (double)m)) : 0;
    A->deg = atan2(-b, 1) * 180 / PALA_PI;
    A->stderr_deg = se / (1 + b * b) * 180 / PALA_PI;
    A->points = m;
    A->r0 = (double)ka * dr; A->r1 = (double)(kb + 1) * dr;
    A->height = H;
    A->axis[0] = xc; A->axis[1] = yc;
    /* a slope falls: by more than twice its error, and over the flank by a fifth of H */
    if (!(A->deg > 2 * A->stderr_deg) || -b * (A->r1 - A->r0) < 0.2 * H) {
        snprintf(why, len, "the surface does not fall as a heap's flank does (fitted angle %.2f +- %.2f deg, a drop of %.3g m over "
                 "%.3g m of a height %.4g m): a flat or irregular bed, not a slope", A->deg, A->stderr_deg, -b * (A->r1 - A->r0), A->r1 - A->r0, H);
        goto done;
    }
    rc = 0;
done:
    free(top); free(at); free(has); free(rs); free(rn);
    return rc;
}

/* (measure.h; docs/physics.md, "The drum against LAMMPS": the surface method) */
int pala_drum_angle(long n, const pala_vec3 *c, const double *r, pala_vec3 p0, pala_vec3 e, pala_vec3 up, double dx, double *deg, long *points,
                    char *why, size_t len)
{
    pala_vec3 u = pala_vcross(e, up);
    double un = pala_vnorm(u);
    if (n < 1) { snprintf(why, len, "no spheres"); return -1; }
    if (!(un > 0)) { snprintf(why, len, "the drum's axis is along gravity"); return -1; }
    u = pala_vscale(1 / un, u);
    double xl = HUGE_VAL, xh = -HUGE_VAL, yl = HUGE_VAL, yh = -HUGE_VAL;
    for (long i = 0; i < n; i++) {
        pala_vec3 d = pala_vsub(c[i], p0);
        double x = pala_vdot(u, d), y = pala_vdot(e, d);
        xl = fmin(xl, x); xh = fmax(xh, x); yl = fmin(yl, y); yh = fmax(yh, y);
    }
    double x0 = floor(xl / dx), y0 = floor(yl / dx), fx = floor(xh / dx) - x0 + 1, fy = floor(yh / dx) - y0 + 1;   /* cells from the axis point */
    if (!(fx * fy <= 1e7)) { snprintf(why, len, "cells of %g m: too small for a bed %g m across", dx, fmax(xh - xl, yh - yl)); return -1; }
    long nx = (long)fx, ny = (long)fy;
    double *top = xalloc((size_t)(nx * ny), sizeof *top), *at = xalloc((size_t)(nx * ny), sizeof *at);
    char *has = xalloc((size_t)(nx * ny), 1);
    for (long i = 0; i < n; i++) {   /* the highest sphere top of each cell of dx x dx across and along the axis */
        pala_vec3 d = pala_vsub(c[i], p0);
        double x = pala_vdot(u, d), y = pala_vdot(e, d), h = pala_vdot(up, d) + r[i];
        double fi = floor(x / dx) - x0, fj = floor(y / dx) - y0;   /* clamped before the cast */
        long ix = fi >= 0 ? fi < fx ? (long)fi : nx - 1 : 0, iy = fj >= 0 ? fj < fy ? (long)fj : ny - 1 : 0, k = ix * ny + iy;
        if (!has[k] || h > top[k]) { has[k] = 1; top[k] = h; at[k] = x; }
    }
    double lo = HUGE_VAL, hi = -HUGE_VAL, sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (long k = 0; k < nx * ny; k++)
        if (has[k]) { lo = fmin(lo, at[k]); hi = fmax(hi, at[k]); }
    long m = 0;
    for (long k = 0; k < nx * ny; k++)   /* the middle half of the surface across, away from the wall */
        if (has[k] && at[k] >= lo + (hi - lo) / 4 && at[k] <= hi - (hi - lo) / 4) { m++; sx += at[k]; sy += top[k]; sxx += at[k] * at[k]; sxy += at[k] * top[k]; }
    free(top); free(at); free(has);
    *points = m;
    if (m < 8) { snprintf(why, len, "fewer than 8 points on the bed's surface (%ld)", m); return -1; }
    double b = ls_slope(m, sx, sy, sxx, sxy);
    *deg = atan2(-b, 1) * 180 / PALA_PI;
    return 0;
}

/* The axis against gravity (z if there is none): a heap's height is along it. */
static int up_axis(const pala_traj *t)
{
    const double g[3] = {t->g.x, t->g.y, t->g.z};
    int up = 2;
    for (int a = 0; a < 3; a++)
        if (fabs(g[a]) > fabs(g[up])) up = a;
    return up;
}

/* The highest point along axis up of arc c of grain k (docs/physics.md, "Arc grains"): its
 * circle's top where the arc's normals hold the direction up (m . e_up >= cos h, as eq. A6),
 * else its higher end.  The heap's surface is the outline's, not the arcs' circles' (a
 * side's circle reaches far beyond its grain). */
static pala_vec3 arc_top(const pala_traj *t, int k, int c, int up)
{
    double a0 = t->sarc[2 * c], a1 = t->sarc[2 * c + 1], R = t->srad[c];
    pala_vec3 o = pala_traj_centre(t, k, c), m = pala_rot_apply(t->r[k], pala_v(cos(0.5 * (a0 + a1)), sin(0.5 * (a0 + a1)), 0));
    const double mu[3] = {m.x, m.y, m.z};
    if (mu[up] >= cos(0.5 * (a1 - a0))) return pala_vaxpy(o, R, pala_v(up == 0, up == 1, up == 2));
    pala_vec3 p = pala_vaxpy(o, R, pala_rot_apply(t->r[k], pala_v(cos(a0), sin(a0), 0)));
    pala_vec3 q = pala_vaxpy(o, R, pala_rot_apply(t->r[k], pala_v(cos(a1), sin(a1), 0)));
    const double hp[3] = {p.x, p.y, p.z}, hq[3] = {q.x, q.y, q.z};
    return hq[up] > hp[up] ? q : p;
}

/* ---- the quantities of a region or a bin ------------------------------------------------- */
/* Sums over the grains whose centre lies in a box, and over their contacts (eqs. M1-M6). */
typedef struct msum {
    double lo[3], hi[3], V;   /* the box; its volume (2D: area) */
    long ng;                  /* grains */
    double M, P[3], K[3][3];  /* mass, momentum, sum m v v */
    double S[3][3];           /* sum over its grains' contacts of f (x) (x_p - x_c) */
    double solid;             /* the solid's volume in the box (area in 2D) */
    double Z, Zm;             /* sums of the grains' coordination numbers, of the non-rattlers' */
    long nm, nrat;            /* non-rattlers, rattlers */
    double Fab[3][3];         /* sum n n over the pair contacts with the contact point in the box */
    long nfab;
    int contacts;             /* the frame has contacts */
} msum;

/* the quantities of a box, as written (their names: cols) */
enum { NQ = PALA_MEAS_NQ };
const char *const pala_meas_names[NQ] = {"n", "phi", "Z", "Z_m", "rattlers", "p", "s_xx", "s_yy", "s_zz", "s_xy", "s_xz", "s_yz",
                                      "k_xx", "k_yy", "k_zz", "k_xy", "k_xz", "k_yz", "f_xx", "f_yy", "f_zz", "f_xy", "f_xz", "f_yz",
                                      "T", "vx", "vy", "vz", "grains"};

static void quantities(const msum *s, int dim, double *q)
{
    const double V = s->V;
    double u[3] = {0, 0, 0}, k[3][3];
    for (int a = 0; a < 3; a++) u[a] = s->M > 0 ? s->P[a] / s->M : (double)NAN;
    for (int a = 0; a < 3; a++)   /* eq. (M3): sum m v'v' = sum m v v - M u u */
        for (int b = 0; b < 3; b++) k[a][b] = s->M > 0 ? (s->K[a][b] - s->M * u[a] * u[b]) / V : 0;
    double sc[3][3];
    for (int a = 0; a < 3; a++)   /* eq. (M2), its symmetric part */
        for (int b = 0; b < 3; b++) sc[a][b] = s->contacts ? 0.5 * (s->S[a][b] + s->S[b][a]) / V : (double)NAN;
    const int ix[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    q[0] = (double)s->ng / V;
    q[1] = s->solid / V;
    q[2] = s->contacts && s->ng ? s->Z / (double)s->ng : (double)NAN;
    q[3] = s->contacts && s->nm ? s->Zm / (double)s->nm : (double)NAN;
    q[4] = s->contacts && s->ng ? (double)s->nrat / (double)s->ng : (double)NAN;
    double tr = 0, trk = 0;
    for (int a = 0; a < dim; a++) { tr += sc[a][a]; trk += k[a][a]; }
    q[5] = (tr + trk) / dim;   /* eq. (M4) */
    for (int i = 0; i < 6; i++) {
        q[6 + i] = sc[ix[i][0]][ix[i][1]];
        q[12 + i] = k[ix[i][0]][ix[i][1]];
        q[18 + i] = s->contacts && s->nfab ? s->Fab[ix[i][0]][ix[i][1]] / (double)s->nfab : (double)NAN;   /* eq. (M5) */
    }
    q[24] = s->M > 0 ? trk * V / (dim * s->M) : (double)NAN;   /* eq. (M6): granular temperature, m^2/s^2 */
    q[25] = u[0]; q[26] = u[1]; q[27] = u[2];
    q[28] = (double)s->ng;
}

/* ---- a run's frames ---------------------------------------------------------------------- */
/* Per template: points inside the union of its components (body frame), for the part of a
 * clump in a box; and its volume (2D: the union's area). */
typedef struct tcloud { long n; pala_vec3 *p; double vol; } tcloud;

struct pala_meas {
    const pala_traj *t;       /* the grains: a frame read (pala measure) or the world's (a run) */
    const pala_contact *c;    /* the frame's contacts (their grain numbers as t's) */
    long nc;
    int dim;
    tcloud *tc;
    int ntc;                  /* templates with a cloud */
    /* per grain number (the contacts' numbering; when grains enter and leave, the frame's
     * grains are some of them): coordination, wall faces, the grain's place in the frame */
    int *z, *zw, *num2k;
    long nnum, cnum;
    unsigned long long *keys;
    long nkeys;
    msum *bins;               /* the sums of a frame's bins (pala_meas_frame) */
    int nbins;
};
typedef struct pala_meas meas;

/* the radical-inverse sequence in base b (Halton), deterministic */
static double halton(long i, int b)
{
    double f = 1, r = 0;
    for (long k = i + 1; k > 0; k /= b) { f /= b; r += f * (double)(k % b); }
    return r;
}

static void make_clouds(meas *m)
{
    const pala_traj *t = m->t;
    m->tc = xalloc((size_t)t->ntmpl, sizeof *m->tc);
    m->ntc = t->ntmpl;
    enum { NS = 16384 };
    for (int i = 0; i < t->ntmpl; i++) {
        tcloud *c = &m->tc[i];
        double R = t->bound[i];
        if (t->ncomp[i] == 1) { c->vol = m->dim == 2 ? PALA_PI * t->srad[t->comp0[i]] * t->srad[t->comp0[i]] : t->volume[i]; continue; }
        c->p = xalloc(NS, sizeof *c->p);
        for (long s = 0; s < NS; s++) {
            pala_vec3 x = pala_v(R * (2 * halton(s, 2) - 1), R * (2 * halton(s, 3) - 1), m->dim == 2 ? 0 : R * (2 * halton(s, 5) - 1));
            int in = 0;
            for (int q = t->comp0[i]; q < t->comp0[i] + t->ncomp[i] && !in; q++) in = pala_vnorm2(pala_vsub(x, t->shape[q])) <= t->srad[q] * t->srad[q];
            if (in) c->p[c->n++] = x;
        }
        /* 3D: the builder's volume (the mass's); 2D: the union's area from the same points */
        c->vol = m->dim == 2 ? 4 * R * R * (double)c->n / NS : t->volume[i];
    }
}

/* The part of grain k's solid in box [lo, hi] (2D: its area in the rectangle). */
static double solid_in(const meas *m, int k, const double lo[3], const double hi[3])
{
    const pala_traj *t = m->t;
    int tp = t->tid[k];
    const tcloud *c = &m->tc[tp];
    const double x[3] = {t->x[k].x, t->x[k].y, t->x[k].z}, R = t->bound[tp];
    int inside = 1;
    for (int a = 0; a < m->dim; a++) {
        if (x[a] + R <= lo[a] || x[a] - R >= hi[a]) return 0;
        inside &= x[a] - R >= lo[a] && x[a] + R <= hi[a];
    }
    if (inside) return c->vol;
    if (t->ncomp[tp] == 1) {
        pala_vec3 p = pala_traj_centre(t, k, t->comp0[tp]);
        double a = t->srad[t->comp0[tp]], l[3] = {lo[0] - p.x, lo[1] - p.y, lo[2] - p.z}, h[3] = {hi[0] - p.x, hi[1] - p.y, hi[2] - p.z};
        return m->dim == 2 ? pala_disc_rect_area(a, l[0], h[0], l[1], h[1]) : pala_sphere_box_volume(a, l, h);
    }
    long in = 0;
    for (long s = 0; s < c->n; s++) {
        pala_vec3 q = pala_vadd(t->x[k], pala_rot_apply(t->r[k], c->p[s]));
        const double y[3] = {q.x, q.y, q.z};
        int ok = 1;
        for (int a = 0; a < m->dim; a++) ok &= y[a] >= lo[a] && y[a] <= hi[a];
        in += ok;
    }
    return c->n ? c->vol * (double)in / (double)c->n : 0;
}

/* The coordination of each grain of the frame: the grains it touches (a pair of clumps
 * once, however many components touch) and the wall faces (contacts.c). */
static void coordination(meas *m)
{
    if (m->nc > m->nkeys) { m->nkeys = m->nc; free(m->keys); m->keys = xalloc((size_t)m->nc, sizeof *m->keys); }
    pala_contact_coordination(m->c, m->nc, m->nnum, m->z, m->zw, m->keys);
}

/* The box of bin i of nb along axis ax of the region [lo, hi]. */
static void bin_box(const double lo[3], const double hi[3], int ax, int i, int nb, double *bl, double *bh)
{
    for (int a = 0; a < 3; a++) { bl[a] = lo[a]; bh[a] = hi[a]; }
    if (ax < 0) return;
    double w = (hi[ax] - lo[ax]) / nb;
    bl[ax] = lo[ax] + w * i;
    bh[ax] = i + 1 == nb ? hi[ax] : lo[ax] + w * (i + 1);
}

/* The bin of a position along ax (-1: outside the region). */
static int bin_of(const double *p, const double lo[3], const double hi[3], int ax, int nb, int dim)
{
    for (int a = 0; a < dim; a++)
        if (!(p[a] >= lo[a] && p[a] <= hi[a])) return -1;
    if (ax < 0) return 0;
    int i = (int)((p[ax] - lo[ax]) / (hi[ax] - lo[ax]) * nb);
    return i < 0 ? 0 : i >= nb ? nb - 1 : i;
}

/* The numbers of the frame's grains (they increase) and the place of each in the frame. */
static void frame_numbers(meas *m)
{
    const pala_traj *t = m->t;
    m->nnum = t->n ? pala_traj_id(t, t->n - 1) + 1 : 0;
    if (m->nnum > m->cnum) {
        m->cnum = m->nnum;
        free(m->z); free(m->zw); free(m->num2k);
        m->z = xalloc((size_t)m->cnum, sizeof *m->z);
        m->zw = xalloc((size_t)m->cnum, sizeof *m->zw);
        m->num2k = xalloc((size_t)m->cnum, sizeof *m->num2k);
    }
    for (long i = 0; i < m->nnum; i++) m->num2k[i] = -1;
    for (int k = 0; k < t->n; k++) m->num2k[pala_traj_id(t, k)] = k;
}

/* The sums of the current frame over nb bins along ax (ax < 0: the region as one bin). */
static void frame_sums(meas *m, const double lo[3], const double hi[3], int ax, int nb, int contacts, msum *s)
{
    const pala_traj *t = m->t;
    const int dim = m->dim;
    for (int i = 0; i < nb; i++) {
        memset(&s[i], 0, sizeof s[i]);
        bin_box(lo, hi, ax, i, nb, s[i].lo, s[i].hi);
        s[i].V = 1;
        for (int a = 0; a < dim; a++) s[i].V *= s[i].hi[a] - s[i].lo[a];
        s[i].contacts = contacts;
    }
    frame_numbers(m);
    if (contacts) coordination(m);
    for (int k = 0; k < t->n; k++) {
        const int tp = t->tid[k];
        const double x[3] = {t->x[k].x, t->x[k].y, t->x[k].z}, v[3] = {t->v[k].x, t->v[k].y, t->v[k].z}, M = t->mass[tp], R = t->bound[tp];
        /* the solid of every bin it reaches (eq. M1) */
        int b0 = 0, b1 = nb - 1;
        if (ax >= 0) {
            double w = (hi[ax] - lo[ax]) / nb, f0 = floor((x[ax] - R - lo[ax]) / w), f1 = floor((x[ax] + R - lo[ax]) / w);
            b0 = f0 < 0 ? 0 : f0 > nb ? nb : (int)f0;   /* clamped before the cast: a region far narrower than a grain */
            b1 = f1 >= nb ? nb - 1 : f1 < -1 ? -1 : (int)f1;
        }
        for (int b = b0; b <= b1; b++) s[b].solid += solid_in(m, k, s[b].lo, s[b].hi);
        int b = bin_of(x, lo, hi, ax, nb, dim);
        if (b < 0) continue;
        msum *q = &s[b];
        q->ng++;
        q->M += M;
        for (int a = 0; a < 3; a++) {
            q->P[a] += M * v[a];
            for (int c = 0; c < 3; c++) q->K[a][c] += M * v[a] * v[c];
        }
        if (contacts) {
            int id = pala_traj_id(t, k), zt = m->z[id] + m->zw[id];
            q->Z += m->z[id];
            if (zt < 2) q->nrat++;   /* a rattler: held by fewer than two contacts */
            else { q->nm++; q->Zm += m->z[id]; }
        }
    }
    if (!contacts) return;
    /* eq. (M2): each contact adds f (x) (x_p - x_c) to the bin of each of its grains p, f the
     * force on p; eq. (M5): n n to the bin of its point */
    for (long q = 0; q < m->nc; q++) {
        const pala_contact *c = &m->c[q];
        if (c->i < 0 || c->i >= m->nnum || c->j >= m->nnum || m->num2k[c->i] < 0 || (c->j >= 0 && m->num2k[c->j] < 0)) continue;
        pala_vec3 F = pala_vaxpy(c->ft, c->fn, c->n);
        const double f[3] = {F.x, F.y, F.z}, xc[3] = {c->x.x, c->x.y, c->x.z};
        for (int side = 0; side < 2; side++) {
            int g = side ? c->j : c->i;
            if (g < 0) continue;
            g = m->num2k[g];
            const double xp[3] = {t->x[g].x, t->x[g].y, t->x[g].z}, sg = side ? -1 : 1;
            int b = bin_of(xp, lo, hi, ax, nb, dim);
            if (b < 0) continue;
            for (int a = 0; a < 3; a++)
                for (int e = 0; e < 3; e++) s[b].S[a][e] += sg * f[a] * (xp[e] - xc[e]);
        }
        if (c->j < 0) continue;
        int b = bin_of(xc, lo, hi, ax, nb, dim);
        if (b < 0) continue;
        const double n[3] = {c->n.x, c->n.y, c->n.z};
        for (int a = 0; a < 3; a++)
            for (int e = 0; e < 3; e++) s[b].Fab[a][e] += n[a] * n[e];
        s[b].nfab++;
    }
}

/* ---- what the command and the run's writers call (measure.h) ---------------------------- */
pala_meas *pala_meas_new(const pala_traj *t)
{
    meas *m = xalloc(1, sizeof *m);
    m->t = t;
    m->dim = t->dim;
    make_clouds(m);
    return m;
}

void pala_meas_free(pala_meas *m)
{
    if (!m) return;
    for (int i = 0; i < m->ntc; i++) free(m->tc[i].p);
    free(m->tc); free(m->z); free(m->zw); free(m->num2k); free(m->keys); free(m->bins);
    free(m);
}

void pala_meas_region(const pala_traj *t, const int set[3], const double rlo[3], const double rhi[3], double lo[3], double hi[3])
{
    /* an end the walls bound (a container's box, an infinite plane facing along the axis:
     * pala_world_walls_region), else the grains' extent; not the walls' drawings (a plane's
     * square of draw_size, a cylinder's polygon), which are a picture's frame */
    pala_vec3 bl, bh;
    pala_traj_grain_bounds(t, &bl, &bh);
    const double l3[3] = {bl.x, bl.y, bl.z}, h3[3] = {bh.x, bh.y, bh.z};
    double wl[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, wh[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    pala_world_walls_region(&t->walls, wl, wh);
    for (int a = 0; a < 3; a++) {
        lo[a] = set[a] ? rlo[a] : isfinite(wl[a]) ? wl[a] : l3[a];
        hi[a] = set[a] ? rhi[a] : isfinite(wh[a]) ? wh[a] : h3[a];
        if (!set[a] && !(hi[a] > lo[a])) { lo[a] = l3[a]; hi[a] = h3[a]; }   /* a wall's side that holds no grain */
    }
    if (t->dim == 2) { lo[2] = -HUGE_VAL; hi[2] = HUGE_VAL; }
}

double pala_meas_frame(pala_meas *m, const pala_contact *c, long nc, int contacts, const double lo[3], const double hi[3], int ax, int nb, double *q)
{
    if (nb > m->nbins) { free(m->bins); m->nbins = nb; m->bins = xalloc((size_t)nb, sizeof *m->bins); }
    m->c = c;
    m->nc = contacts ? nc : 0;
    frame_sums(m, lo, hi, ax, nb, contacts, m->bins);
    for (int b = 0; b < nb; b++) quantities(&m->bins[b], m->dim, q + (long)b * NQ);
    return m->bins[0].V;
}

void pala_meas_header(FILE *f)
{
    fprintf(f, "step\ttime");
    for (int q = 0; q < NQ; q++) fprintf(f, "\t%s", pala_meas_names[q]);
    fputc('\n', f);
}

static void put(FILE *f, double v) { if (isnan(v)) fputs("\tnan", f); else fprintf(f, "\t%.10g", v); }

void pala_meas_row(FILE *f, long step, double time, const double *q)
{
    fprintf(f, "%ld\t%.17g", step, time);
    for (int k = 0; k < NQ - 1; k++) put(f, q[k]);
    fprintf(f, "\t%.0f\n", q[NQ - 1]);
}

/* ---- the command ------------------------------------------------------------------------ */
static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala measure RUN [--region AXIS=LO:HI]... [--window T0:T1 | --last] [--profile AXIS [--bins N]]\n"
        "                        [--angle [--ring DR]] [-o DIR]\n"
        "  RUN                 a run folder (its trajectory, and its contacts if it wrote them: contacts_every)\n"
        "  --region x=LO:HI    the region's extent along x (y, z); default: the walls' box (or the grains')\n"
        "  --window T0:T1      the frames from time T0 to T1 (s); default: every frame\n"
        "  --last              the last frame only\n"
        "  --profile AXIS      the quantities in bins along x, y or z: profile-AXIS.tsv and its SVG plots\n"
        "  --bins N            bins of the profile (default 20)\n"
        "  --angle             the angle of repose of a heap on the region's floor (the last frame);\n"
        "                      in a drum, of the bed's surface across its axis (every frame's mean)\n"
        "  --ring DR           the rings' (a drum's cells') width for --angle (default: a component sphere's diameter)\n"
        "  -o DIR              where measure.tsv and the profile go (default: RUN)\n"
        "writes measure.tsv (a row per frame) and prints the means over the frames; docs/cli.md, \"pala measure\"\n");
}

static int axis_of(const char *s)
{
    if (!strcmp(s, "x")) return 0;
    if (!strcmp(s, "y")) return 1;
    if (!strcmp(s, "z")) return 2;
    return -1;
}

static int range_of(const char *s, double *a, double *b)
{
    char *e;
    *a = strtod(s, &e);
    if (e == s || *e != ':') return -1;
    const char *s2 = e + 1;
    *b = strtod(s2, &e);
    return e == s2 || *e || !(*b > *a) ? -1 : 0;
}

/* dir/name for writing (pala_output_fopen says why not), its path in path */
static FILE *out_file(const char *dir, const char *name, char *path, size_t len)
{
    snprintf(path, len, "%s/%s", dir, name);
    return pala_output_fopen(dir, name);
}

/* The profile's plots: a quantity (or three) against the bins' centres. */
static int profile_svg(const char *dir, const char *axname, const char *what, const double *pos, const double *prof, int nb,
                       const int *qi, int nq, const char *ylabel)
{
    char name[64], path[4300];
    snprintf(name, sizeof name, "profile-%s-%s.svg", axname, what);
    FILE *f = out_file(dir, name, path, sizeof path);
    if (!f) return PALA_ERR_IO;
    double y0 = HUGE_VAL, y1 = -HUGE_VAL, *y = xalloc((size_t)nb, sizeof *y);
    for (int j = 0; j < nq; j++)
        for (int i = 0; i < nb; i++) {
            double v = prof[(long)i * NQ + qi[j]];
            if (isfinite(v)) { y0 = fmin(y0, v); y1 = fmax(y1, v); }
        }
    if (!(y1 >= y0)) { y0 = 0; y1 = 1; }
    if (y1 == y0) { y0 -= 0.5 * fabs(y0) + 1e-12; y1 += 0.5 * fabs(y1) + 1e-12; }
    pala_svg_range(&y0, &y1, 0, 0);
    double x0 = pos[0], x1 = pos[nb - 1];
    if (!(x1 > x0)) { x0 -= 1; x1 += 1; }
    char title[96], xl[32];
    snprintf(title, sizeof title, "%s along %s", what, axname);
    snprintf(xl, sizeof xl, "%s (m)", axname);
    pala_svg_plot p;
    pala_svg_begin(&p, f, 760, 420, x0, x1, y0, y1, 0, title, xl, ylabel);
    for (int j = 0; j < nq; j++) {
        for (int i = 0; i < nb; i++) y[i] = prof[(long)i * NQ + qi[j]];
        pala_svg_line(&p, nb, pos, y, pala_svg_colour(j), 1.5, NULL, 1);
        if (nq > 1) pala_svg_legend(&p, pala_meas_names[qi[j]], pala_svg_colour(j), NULL);
    }
    pala_svg_end(&p);
    free(y);
    return pala_output_fclose(f, dir, name) ? PALA_ERR_IO : PALA_OK;
}

int pala_cmd_measure(int argc, char **argv)
{
    const char *run = NULL, *outdir = NULL;
    double rlo[3], rhi[3], t0 = -HUGE_VAL, t1 = HUGE_VAL, ring = 0;
    int rset[3] = {0, 0, 0}, last = 0, pax = -1, nbins = 20, angle = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        char *e;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return PALA_OK; }
        else if (!strcmp(a, "--region") && more) {
            const char *v = argv[++i], *eq = strchr(v, '=');
            char ax[4] = "";
            if (eq && eq - v < 3) memcpy(ax, v, (size_t)(eq - v)), ax[eq - v] = 0;
            int x = eq ? axis_of(ax) : -1;
            double lo, hi;
            if (x < 0 || range_of(eq + 1, &lo, &hi)) {
                fprintf(stderr, "pala measure: --region '%s': expected AXIS=LO:HI with AXIS x, y or z and LO < HI in m, e.g. --region z=0:0.02\n", v);
                return PALA_ERR_INPUT;
            }
            rlo[x] = lo; rhi[x] = hi; rset[x] = 1;
        } else if (!strcmp(a, "--window") && more) {
            if (range_of(argv[++i], &t0, &t1)) {
                fprintf(stderr, "pala measure: --window '%s': expected T0:T1 in s with T0 < T1, e.g. --window 0.5:1\n", argv[i]);
                return PALA_ERR_INPUT;
            }
        } else if (!strcmp(a, "--last")) last = 1;
        else if (!strcmp(a, "--profile") && more) {
            pax = axis_of(argv[++i]);
            if (pax < 0) { fprintf(stderr, "pala measure: --profile '%s': expected x, y or z\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "--bins") && more) {
            long n = strtol(argv[++i], &e, 10);
            if (*e || n < 1 || n > 100000) { fprintf(stderr, "pala measure: --bins '%s': expected a number of bins from 1 to 100000\n", argv[i]); return PALA_ERR_INPUT; }
            nbins = (int)n;
        } else if (!strcmp(a, "--angle")) angle = 1;
        else if (!strcmp(a, "--ring") && more) {
            ring = strtod(argv[++i], &e);
            if (*e || !(ring > 0)) { fprintf(stderr, "pala measure: --ring '%s': expected a width in m > 0\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "-o") && more) outdir = argv[++i];
        else if (a[0] == '-') { fprintf(stderr, "pala measure: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala measure: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run) { fprintf(stderr, "pala measure: which run? e.g. pala measure settling-box.run\n"); usage(stderr); return PALA_ERR_INPUT; }
    if (last && isfinite(t0)) { fprintf(stderr, "pala measure: give --window or --last, not both\n"); return PALA_ERR_INPUT; }
    pala_traj tr;
    pala_cfile cf;
    memset(&cf, 0, sizeof cf);
    int rc = pala_traj_open(&tr, run, stderr);
    if (rc) { pala_traj_close(&tr); return rc; }
    char dir[4096];
    pala_traj_rundir(run, dir, sizeof dir);
    if (!outdir) outdir = dir;
    else if (pala_mkdir_p(outdir, "measure", stderr)) { pala_traj_close(&tr); return PALA_ERR_IO; }   /* a new folder, as pala run -o makes one */
    const int dim = tr.dim;
    if (dim == 2 && (pax == 2 || rset[2])) {   /* as a [measure] section's region_z */
        fprintf(stderr, "pala measure: %s is a 2D run, whose region is a rectangle in x and y: %s\n", tr.path,
                pax == 2 ? "give --profile x or y" : "leave out --region z=...");
        pala_traj_close(&tr);
        return PALA_ERR_INPUT;
    }
    int have_cf = pala_cfile_open(&cf, dir, NULL) == PALA_OK;   /* none: said with the means */
    if (!have_cf) pala_cfile_close(&cf);
    long nframes = pala_traj_count(&tr);
    if (nframes < 1) { fprintf(stderr, "pala measure: %s holds no frame yet\n", tr.path); pala_traj_close(&tr); pala_cfile_close(&cf); return PALA_ERR_INPUT; }
    pala_meas *m = pala_meas_new(&tr);
    char path[4300];
    FILE *fo = out_file(outdir, "measure.tsv", path, sizeof path);
    if (!fo) rc = PALA_ERR_IO;
    const int nb = pax >= 0 ? nbins : 1;
    double *prof = xalloc((size_t)nb * NQ, sizeof *prof), *pcount = xalloc((size_t)nb * NQ, sizeof *pcount), *qb = xalloc((size_t)nb * NQ, sizeof *qb);
    double V = 0;
    double qsum[NQ] = {0}, qsq[NQ] = {0}, qmin[NQ], qmax[NQ], qn[NQ] = {0};
    for (int q = 0; q < NQ; q++) { qmin[q] = HUGE_VAL; qmax[q] = -HUGE_VAL; }
    double lo[3], hi[3];
    long used = 0, withc = 0, lastc = -1;
    double tfirst = 0, tlast = 0;
    int st;
    pala_vec3 *angc = NULL;
    double *angr = NULL, angsize = 0;
    long nang = 0;
    double *drumdeg = NULL, drumpts = 0;   /* --angle in a drum: each frame's angle */
    long ndrum = 0;
    if (fo) pala_meas_header(fo);
    long fno = 0;
    while (!rc && (st = pala_traj_next(&tr, stderr)) == 1) {
        fno++;
        if (last ? fno != nframes : !pala_in_window(tr.time, t0, t1)) continue;
        if (!used) {   /* the region: the walls' box (or the grains'), narrowed by --region */
            pala_meas_region(&tr, rset, rlo, rhi, lo, hi);
            tfirst = tr.time;
        }
        used++;
        tlast = tr.time;
        /* the contacts of this frame's step, if the file has it */
        int con;
        while (have_cf && lastc < tr.step) {
            int cs = pala_cfile_next(&cf, stderr);
            if (cs < 0) { rc = PALA_ERR_INPUT; break; }
            if (cs == 0) { have_cf = 0; break; }
            lastc = cf.step;
        }
        if (rc) break;
        con = lastc == tr.step;
        withc += con;
        double q[NQ];
        V = pala_meas_frame(m, cf.c, cf.n, con, lo, hi, -1, 1, q);
        if (fo) pala_meas_row(fo, tr.step, tr.time, q);
        for (int k = 0; k < NQ; k++)
            if (!isnan(q[k])) { qsum[k] += q[k]; qsq[k] += q[k] * q[k]; qn[k]++; qmin[k] = fmin(qmin[k], q[k]); qmax[k] = fmax(qmax[k], q[k]); }
        if (pax >= 0) {
            pala_meas_frame(m, cf.c, cf.n, con, lo, hi, pax, nb, qb);
            for (long k = 0; k < (long)nb * NQ; k++)
                if (!isnan(qb[k])) { prof[k] += qb[k]; pcount[k]++; }
        }
        if (angle) {   /* the component spheres of the frame (the last one used is kept) */
            free(angc); free(angr);
            angc = xalloc((size_t)tr.npeb + 1, sizeof *angc);
            angr = xalloc((size_t)tr.npeb + 1, sizeof *angr);
            nang = 0;
            angsize = 0;
            for (int k = 0; k < tr.n; k++)
                for (int c = tr.comp0[tr.tid[k]]; c < tr.comp0[tr.tid[k]] + tr.ncomp[tr.tid[k]]; c++) {
                    int arc = pala_traj_is_arc(&tr, c);   /* an arc: its outline's top, a point */
                    angc[nang] = arc ? arc_top(&tr, k, c, up_axis(&tr)) : pala_traj_centre(&tr, k, c);
                    angr[nang++] = arc ? 0 : tr.srad[c];
                    angsize += arc ? tr.bound[tr.tid[k]] : tr.srad[c];
                }
            pala_vec3 dp, de;
            double dR, gn = pala_vnorm(tr.g);
            if (pala_world_drum(&tr.walls, &dp, &de, &dR) && gn > 0 && fabs(pala_vdot(de, tr.g)) < 0.1 * gn) {   /* a drum across gravity: every frame's surface */
                char why[512];
                double deg, dx = ring > 0 ? ring : nang ? 2 * angsize / (double)nang : 1;
                long pts = 0;
                if (pala_drum_angle(nang, angc, angr, dp, de, pala_vscale(-1 / gn, tr.g), dx, &deg, &pts, why, sizeof why)) {
                    fprintf(stderr, "pala measure: --angle: %s at t = %.6g s; in a drum the angle of repose is the bed's surface across its axis: "
                            "give a --window where the bed has settled into its turn\n", why, tr.time);
                    rc = PALA_ERR_INPUT;
                    break;
                }
                if (ndrum % 64 == 0) drumdeg = xrealloc_d(drumdeg, (size_t)ndrum + 64);
                drumdeg[ndrum++] = deg;
                drumpts += pts;
            }
        }
    }
    if (!rc && st < 0) rc = PALA_ERR_INPUT;
    if (fo && pala_output_fclose(fo, outdir, "measure.tsv") && !rc) rc = PALA_ERR_IO;
    if (!rc && !used) {
        fprintf(stderr, "pala measure: no frame of %s is in the window %g:%g s (%ld frames)\n", tr.path, t0, t1, nframes);
        rc = PALA_ERR_INPUT;
    }
    if (!rc) {
        printf("pala measure: %ld frame%s from t = %.6g to %.6g s, region x %.6g:%.6g y %.6g:%.6g", used, used == 1 ? "" : "s", tfirst, tlast, lo[0], hi[0],
               lo[1], hi[1]);
        if (dim == 3) printf(" z %.6g:%.6g", lo[2], hi[2]);
        printf(" (%.6g m^%d) -> %s\n", V, dim, path);
        if (!withc)
            printf("no contacts at these frames (write them with contacts_every = the trajectory's cadence): Z, rattlers, s_ and f_ are nan\n");
        printf("quantity\tmean\tstd\tmin\tmax\n");
        for (int k = 0; k < NQ - 1; k++) {
            if (!qn[k]) continue;
            double mean = qsum[k] / qn[k], var = qn[k] > 1 ? (qsq[k] - qn[k] * mean * mean) / (qn[k] - 1) : 0;
            printf("%s\t%.6g\t%.3g\t%.6g\t%.6g\n", pala_meas_names[k], mean, sqrt(var > 0 ? var : 0), qmin[k], qmax[k]);
        }
    }
    if (!rc && pax >= 0) {   /* the profile: bins' means over the frames */
        static const char *const axn[3] = {"x", "y", "z"};
        char name[64];
        snprintf(name, sizeof name, "profile-%s.tsv", axn[pax]);
        FILE *fp = out_file(outdir, name, path, sizeof path);
        double *pos = xalloc((size_t)nb, sizeof *pos);
        if (!fp) rc = PALA_ERR_IO;
        else {
            fprintf(fp, "%s\tlo\thi", axn[pax]);
            for (int k = 0; k < NQ; k++) fprintf(fp, "\t%s", pala_meas_names[k]);
            fputc('\n', fp);
            for (int b = 0; b < nb; b++) {
                double bl[3], bh[3];
                bin_box(lo, hi, pax, b, nb, bl, bh);
                pos[b] = 0.5 * (bl[pax] + bh[pax]);
                fprintf(fp, "%.10g\t%.10g\t%.10g", pos[b], bl[pax], bh[pax]);
                for (int k = 0; k < NQ; k++) {
                    double c = pcount[(long)b * NQ + k];
                    prof[(long)b * NQ + k] = c > 0 ? prof[(long)b * NQ + k] / c : (double)NAN;
                    put(fp, prof[(long)b * NQ + k]);
                }
                fputc('\n', fp);
            }
            if (pala_output_fclose(fp, outdir, name)) rc = PALA_ERR_IO;
            else printf("profile along %s: %d bins -> %s\n", axn[pax], nb, path);
        }
        const int qphi[1] = {1}, qv[3] = {25, 26, 27}, qt[1] = {24}, qs[4] = {5, 6, 7, 8};
        if (!rc) rc = profile_svg(outdir, axn[pax], "phi", pos, prof, nb, qphi, 1, "solid fraction (-)");
        if (!rc) rc = profile_svg(outdir, axn[pax], "velocity", pos, prof, nb, qv, 3, "mean velocity (m/s)");
        if (!rc) rc = profile_svg(outdir, axn[pax], "temperature", pos, prof, nb, qt, 1, "granular temperature (m^2/s^2)");
        if (!rc && withc) rc = profile_svg(outdir, axn[pax], "stress", pos, prof, nb, qs, 4, "stress (Pa)");
        free(pos);
    }
    if (!rc && angle && ndrum) {   /* a drum: the mean and standard deviation over the frames */
        double mean = 0, var = 0;
        for (long k = 0; k < ndrum; k++) mean += drumdeg[k] / (double)ndrum;
        for (long k = 0; k < ndrum; k++) var += (drumdeg[k] - mean) * (drumdeg[k] - mean);
        printf("angle %.2f deg  sd %.2f deg  frames %ld  points %.0f a frame  (a drum: the bed's surface across its axis, the middle half)\n", mean,
               ndrum > 1 ? sqrt(var / (double)(ndrum - 1)) : 0.0, ndrum, drumpts / (double)ndrum);
    } else if (!rc && angle) {
        /* up: against g (z if there is none); the floor: the region's low side along it */
        const double g[3] = {tr.g.x, tr.g.y, tr.g.z};
        int up = up_axis(&tr);
        if (g[up] > 0) { fprintf(stderr, "pala measure: --angle: gravity points along +%c; a heap stands on a floor below it\n", "xyz"[up]); rc = PALA_ERR_INPUT; }
        double dr = ring;
        if (!(dr > 0)) dr = nang ? 2 * angsize / (double)nang : 1;
        pala_angle A;
        char why[512];
        if (!rc && pala_heap_angle(nang, angc, angr, up, lo[up], dr, 0.35, 0.8, &A, why, sizeof why)) {
            fflush(stdout);   /* after the means, in a terminal and a log alike */
            fprintf(stderr, "pala measure: --angle: %s (t = %.6g s); the angle of repose is measured on a heap\n", why, tlast);
            rc = PALA_ERR_INPUT;
        }
        if (!rc)
            printf("angle %.2f deg  stderr %.2f deg  points %ld  flank r %.4g to %.4g m  height %.4g m  axis %.5g %.5g m\n", A.deg, A.stderr_deg,
                   A.points, A.r0, A.r1, A.height, A.axis[0], A.axis[1]);
    }
    free(angc); free(angr); free(prof); free(pcount); free(qb); free(drumdeg);
    pala_meas_free(m);
    pala_traj_close(&tr);
    pala_cfile_close(&cf);
    return rc;
}

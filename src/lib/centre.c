/* centre.c: interactions between grain centres (centre.h).
 *
 * With d = x_i - x_j, r = |d| and k_e = 1 / (4 pi eps0 eps_r) (docs/physics.md, "Pair
 * interactions between centres"), the potential of a pair is
 *   U = -G m_i m_j / r + k_e q_i q_j / r
 *       + k_e (q_i (p_j.d) - q_j (p_i.d)) / r^3
 *       + k_e (p_i.p_j - 3 (p_i.d)(p_j.d) / r^2) / r^3 + (mu0/4pi) (same with m_i, m_j),
 * the force on i is F_i = -grad_{x_i} U, and the torque on i is p_i x E_j(x_i) +
 * m_i x B_j(x_i) with the fields of j at x_i:
 *   E_j = k_e q_j d / r^3 + k_e (3 (p_j.d) d / r^2 - p_j) / r^3,  B_j = (mu0/4pi) (same, m_j).
 *
 * The sums (docs/physics.md, "Evaluation of the pair sums").  Each step the grains' data
 * are copied into arrays of one quantity each (structure of arrays), in storage order
 * (all pairs) or grouped by cell (cutoff).  Grain i sums the pairs (i, j) itself, each
 * pair of grains being evaluated twice, once for each side: j runs in a fixed order (all
 * pairs: j = 0 .. n-1; cutoff: the neighbouring cells in a fixed order, each in storage
 * order), so the sum of every grain is independent of the threads.  The kernel (kern_j)
 * takes a tile of up to PALA_BLOCK grains i, whose sums stay in the L1 cache, and for
 * each j updates the tile's sums in a loop over i that the compiler vectorises; it is
 * specialised for the terms present (masses and charges; electric dipoles; magnetic
 * dipoles; the switch; the energy).  pala_centre_reference is the plain form, kept for
 * the tests. */
#include "centre.h"
#include "field.h"
#include "grain.h"
#include "alloc.h"
#include "threads.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* quantities per grain in the arrays: x y z, k_e q, G m, q, m, p (3), m (3) */
enum { AX, AY, AZ, AQK, AGM, AQ, AM, APX, APY, APZ, AMX, AMY, AMZ, NQ };

struct pala_centre_sums {
    double ke, km;          /* k_e and mu0/4pi */
    int grav, q, p, m;      /* which terms act */
    /* the grains' data in kernel order (position s holds grain perm[s]; perm NULL: s) */
    long cap;
    double *a[NQ];
    double *ue;             /* per position: the grain's pair energy (energy pass) */
    /* cells (cutoff > 0): the grains of cell c are at positions cstart[c] .. cstart[c+1],
     * in storage order; ckey: its coordinates packed; a hash table from the packed
     * coordinates to the cell (hkey, hcell; hmask + 1 slots) */
    int *perm, *cellof, *cstart, *cfill;
    uint64_t *ckey, *hkey;
    int *hcell;
    long hmask;
    int ncell;
    double cs;              /* cell size, m */
    double ih;              /* 1 / (rc - r_on) of the switch */
};

void pala_centre_prepare(pala_world *w)
{
    if (!w->centre) {
        w->centre = pala_xrealloc(NULL, sizeof *w->centre);
        memset(w->centre, 0, sizeof *w->centre);
    }
    pala_centre *ce = w->centre;
    const pala_field *fd = w->field;
    int q = fd->charges, p = fd->edipoles, m = fd->mdipoles;
    int grav = w->grav_G > 0;
    ce->G = w->grav_G; ce->eps_r = w->eps_r; ce->cutoff = w->cutoff;
    ce->on = w->n > 1 && (grav || q || p || m);
    if (!ce->on) return;
    if (!ce->sums) {
        ce->sums = pala_xrealloc(NULL, sizeof *ce->sums);
        memset(ce->sums, 0, sizeof *ce->sums);
    }
    struct pala_centre_sums *c = ce->sums;
    c->ke = 1 / (4 * PALA_PI * PALA_EPS0 * (w->eps_r > 0 ? w->eps_r : 1));
    c->km = PALA_MU0_4PI;
    c->grav = grav; c->q = q; c->p = p; c->m = m;
    if (c->cap < w->n) {
        for (int k = 0; k < NQ; k++) PALA_GROW(c->a[k], w->n + 1);
        PALA_GROW(c->ue, w->n + 1);
        c->cap = w->n;
    }
    if (w->cutoff > 0) {
        long h = 16;
        while (h < 2L * w->n) h *= 2;
        PALA_GROW(c->perm, w->n + 1); PALA_GROW(c->cellof, w->n + 1);
        PALA_GROW(c->cstart, w->n + 2); PALA_GROW(c->cfill, w->n + 1); PALA_GROW(c->ckey, w->n + 1);
        PALA_GROW(c->hkey, h); PALA_GROW(c->hcell, h);
        c->hmask = h - 1;
    }
}

void pala_centre_free(pala_world *w)
{
    pala_centre *ce = w->centre;
    if (!ce) return;
    struct pala_centre_sums *c = ce->sums;
    if (c) {
        for (int k = 0; k < NQ; k++) free(c->a[k]);
        free(c->ue); free(c->perm); free(c->cellof); free(c->cstart); free(c->cfill); free(c->ckey);
        free(c->hkey); free(c->hcell);
        free(c);
    }
    free(ce);
    w->centre = NULL;
}

int pala_centre_changed(const pala_world *w)
{
    const pala_centre *ce = w->centre;
    return ce->G != w->grav_G || ce->eps_r != w->eps_r || ce->cutoff != w->cutoff;
}

/* Switch of the cutoff (docs/physics.md, "Cutoff"): S = 1 below r_on = (1 - PALA_SWITCH) rc,
 * 1 - 10 x^3 + 15 x^4 - 6 x^5 with x = (r - r_on) / (rc - r_on) up to rc, 0 beyond; *dS = S'. */
static inline double cut_switch(double r, double rc, double *dS)
{
    double ron = (1 - PALA_SWITCH) * rc;
    *dS = 0;
    if (r <= ron) return 1;
    if (r >= rc) return 0;
    double h = rc - ron, x = (r - ron) / h;
    *dS = -30 * x * x * (1 - x) * (1 - x) / h;
    return 1 - x * x * x * (10 - 15 * x + 6 * x * x);
}

/* ---- the reference: one pair at a time, straight from the formulas ---------------------- */

/* Dipole pair (a_i, a_j) with prefactor k at separation d (1/r^2 = ir2, 1/r^3 = ir3):
 * adds its force on i to F, the field of j at x_i to Fl, returns its energy. */
static inline double dip_dip(pala_vec3 ai, pala_vec3 aj, pala_vec3 d, double k, double ir2, double ir3, pala_vec3 *F, pala_vec3 *Fl)
{
    double a = pala_vdot(ai, d), b = pala_vdot(aj, d), c = pala_vdot(ai, aj);
    double ir5 = ir3 * ir2;
    /* F_i = 3 k ((p_i.p_j) d + (p_j.d) p_i + (p_i.d) p_j - 5 (p_i.d)(p_j.d) d / r^2) / r^5 */
    pala_vec3 f = pala_vadd(pala_vscale(c - 5 * a * b * ir2, d), pala_vadd(pala_vscale(b, ai), pala_vscale(a, aj)));
    *F = pala_vadd(*F, pala_vscale(3 * k * ir5, f));
    *Fl = pala_vadd(*Fl, pala_vscale(k, pala_vsub(pala_vscale(3 * b * ir5, d), pala_vscale(ir3, aj))));   /* k (3 (p_j.d) d / r^5 - p_j / r^3) */
    return k * (c * ir3 - 3 * a * b * ir5);
}

/* The force and torque on grain i from grain j, and the pair's energy. */
static inline double pair(const pala_world *w, const struct pala_centre_sums *c, int i, int j, pala_vec3 *Fo, pala_vec3 *To)
{
    const pala_field *fd = w->field;
    const pala_template *ti = &w->tmpl[w->tid[i]], *tj = &w->tmpl[w->tid[j]];
    pala_vec3 d = pala_vsub(w->x[i], w->x[j]);
    double r2 = pala_vdot(d, d), r = sqrt(r2), ir = 1 / r, ir2 = ir * ir, ir3 = ir2 * ir;
    double S = 1, dS = 0;
    if (w->cutoff > 0) {
        S = cut_switch(r, w->cutoff, &dS);
        if (S == 0) return 0;
    }
    pala_vec3 F = {0, 0, 0}, E = {0, 0, 0}, B = {0, 0, 0};
    double U = 0;
    /* masses and charges: U = (k_e q_i q_j - G m_i m_j) / r, F_i = (k_e q_i q_j - G m_i m_j) d / r^3 */
    double cc = c->ke * ti->charge * tj->charge - (c->grav ? w->grav_G * ti->mass * tj->mass : 0);
    U += cc * ir;
    F = pala_vscale(cc * ir3, d);
    if (c->p) {
        pala_vec3 pi = fd->pw[i], pj = fd->pw[j];
        /* charge q_j, dipole p_i: U = -k_e q_j (p_i.d) / r^3, F_i = k_e q_j (p_i - 3 (p_i.d) d / r^2) / r^3;
         * charge q_i, dipole p_j: U = k_e q_i (p_j.d) / r^3, F_i = -k_e q_i (p_j - 3 (p_j.d) d / r^2) / r^3 */
        double a = pala_vdot(pi, d), b = pala_vdot(pj, d);
        U += c->ke * (ti->charge * b - tj->charge * a) * ir3;
        F = pala_vadd(F, pala_vscale(c->ke * tj->charge * ir3, pala_vsub(pi, pala_vscale(3 * a * ir2, d))));
        F = pala_vsub(F, pala_vscale(c->ke * ti->charge * ir3, pala_vsub(pj, pala_vscale(3 * b * ir2, d))));
        E = pala_vscale(c->ke * tj->charge * ir3, d);   /* the charge's field k_e q_j d / r^3 */
        U += dip_dip(pi, pj, d, c->ke, ir2, ir3, &F, &E);
    }
    if (c->m) U += dip_dip(fd->mw[i], fd->mw[j], d, c->km, ir2, ir3, &F, &B);
    pala_vec3 T = pala_v(0, 0, 0);
    if (c->p) T = pala_vcross(fd->pw[i], E);
    if (c->m) T = pala_vadd(T, pala_vcross(fd->mw[i], B));
    if (S != 1) {   /* -grad (S U) = S F - U S' d / r; the torques scale with S */
        F = pala_vsub(pala_vscale(S, F), pala_vscale(U * dS * ir, d));
        T = pala_vscale(S, T);
        U *= S;
    }
    *Fo = pala_vadd(*Fo, F);
    *To = pala_vadd(*To, T);
    return U;
}

double pala_centre_reference(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    const struct pala_centre_sums *c = w->centre->sums;
    double U = 0;
    for (int i = 0; i < w->n; i++)
        for (int j = 0; j < w->n; j++)
            if (j != i) {
                pala_vec3 f = {0, 0, 0}, t = {0, 0, 0};
                U += pair(w, c, i, j, &f, &t);
                if (F) { F[i] = pala_vadd(F[i], f); T[i] = pala_vadd(T[i], t); }
            }
    return 0.5 * U;
}

/* ---- the kernel ------------------------------------------------------------------------- */

/* A tile of up to PALA_BLOCK grains i: their data (x y z, k_e q, G m, p (3), m (3)) and
 * their sums (F (3), T (3), U), all in the L1 cache.  The tile is a local object of its
 * thread: the compiler sees that its arrays do not overlap. */
enum { TX, TY, TZ, TQK, TGM, TPX, TPY, TPZ, TMX, TMY, TMZ, NT };
typedef struct tile {
    double in[NT][PALA_BLOCK];
    double f[7][PALA_BLOCK];
    pala_vec3 lo, hi;   /* the box around the tile's grains (cutoff: a j farther than r_c is skipped) */
} tile;

/* Adds to the tile's sums the pairs (i, j) for the tile's grains [ka, kb), from one grain
 * j (position j of the arrays a).  P, M, CUT, WU (constants where it is called, so that
 * the compiler makes one vector loop for each case): electric dipoles, magnetic dipoles,
 * the switch, the energy.  The formulas are those of docs/physics.md, "Pair interactions
 * between centres" and "Cutoff", as in pair(), regrouped; the results agree with it to
 * rounding. */
#if defined(__GNUC__)
#define ALWAYS_INLINE inline __attribute__((always_inline))   /* one copy per case (PAIRS) */
#else
#define ALWAYS_INLINE inline
#endif
static ALWAYS_INLINE void kern_j(double *const *a, tile *tl, int ka, int kb, int j, const struct pala_centre_sums *c, double rc,
                          const int P, const int M, const int CUT, const int WU)
{
    const double xj = a[AX][j], yj = a[AY][j], zj = a[AZ][j], qj = a[AQ][j], mj = a[AM][j], qkj = a[AQK][j];
    const double pjx = P ? a[APX][j] : 0, pjy = P ? a[APY][j] : 0, pjz = P ? a[APZ][j] : 0;
    const double mjx = M ? a[AMX][j] : 0, mjy = M ? a[AMY][j] : 0, mjz = M ? a[AMZ][j] : 0;
    const double ke = c->ke, km = c->km;
    const double ron = (1 - PALA_SWITCH) * rc, ih = c->ih, m30ih = -30 * ih;
    const double *X = tl->in[TX], *Y = tl->in[TY], *Z = tl->in[TZ], *QK = tl->in[TQK], *GM = tl->in[TGM];
    const double *PX = tl->in[TPX], *PY = tl->in[TPY], *PZ = tl->in[TPZ], *MX = tl->in[TMX], *MY = tl->in[TMY], *MZ = tl->in[TMZ];
    double *fx = tl->f[0], *fy = tl->f[1], *fz = tl->f[2], *tx = tl->f[3], *ty = tl->f[4], *tz = tl->f[5], *uu = tl->f[6];
    for (int i = ka; i < kb; i++) {
        double dx = X[i] - xj, dy = Y[i] - yj, dz = Z[i] - zj;
        double r2 = dx * dx + dy * dy + dz * dz, r = sqrt(r2), ir = 1 / r, ir2 = ir * ir, ir3 = ir2 * ir;
        /* masses and charges: U = (k_e q_i q_j - G m_i m_j) / r, F_i = U d / r^2 */
        double cc = QK[i] * qj - GM[i] * mj;
        double U = cc * ir, s = cc * ir3;
        double Fx = s * dx, Fy = s * dy, Fz = s * dz, Tx = 0, Ty = 0, Tz = 0;
        if (P) {
            double pix = PX[i], piy = PY[i], piz = PZ[i], qki = QK[i], ir5 = ir3 * ir2;
            double ai = pix * dx + piy * dy + piz * dz, b = pjx * dx + pjy * dy + pjz * dz, cd = pix * pjx + piy * pjy + piz * pjz;
            /* charge-dipole: U = k_e (q_i (p_j.d) - q_j (p_i.d)) / r^3 */
            U += (qki * b - qkj * ai) * ir3;
            double s1 = qkj * ir3, s2 = qki * ir3, t1 = 3 * ai * ir2, t2 = 3 * b * ir2;
            Fx += s1 * (pix - t1 * dx) - s2 * (pjx - t2 * dx);
            Fy += s1 * (piy - t1 * dy) - s2 * (pjy - t2 * dy);
            Fz += s1 * (piz - t1 * dz) - s2 * (pjz - t2 * dz);
            /* dipole-dipole (dip_dip) */
            double g = 3 * ke * ir5, h = cd - 5 * ai * b * ir2;
            Fx += g * (h * dx + b * pix + ai * pjx);
            Fy += g * (h * dy + b * piy + ai * pjy);
            Fz += g * (h * dz + b * piz + ai * pjz);
            U += ke * (cd * ir3 - 3 * ai * b * ir5);
            /* the field of j at i: k_e q_j d / r^3 + k_e (3 (p_j.d) d / r^5 - p_j / r^3) */
            double e1 = s1 + g * b, e2 = ke * ir3;
            double Ex = e1 * dx - e2 * pjx, Ey = e1 * dy - e2 * pjy, Ez = e1 * dz - e2 * pjz;
            Tx = piy * Ez - piz * Ey; Ty = piz * Ex - pix * Ez; Tz = pix * Ey - piy * Ex;
        }
        if (M) {
            double mix = MX[i], miy = MY[i], miz = MZ[i], ir5 = ir3 * ir2;
            double ai = mix * dx + miy * dy + miz * dz, b = mjx * dx + mjy * dy + mjz * dz, cd = mix * mjx + miy * mjy + miz * mjz;
            double g = 3 * km * ir5, h = cd - 5 * ai * b * ir2;
            Fx += g * (h * dx + b * mix + ai * mjx);
            Fy += g * (h * dy + b * miy + ai * mjy);
            Fz += g * (h * dz + b * miz + ai * mjz);
            U += km * (cd * ir3 - 3 * ai * b * ir5);
            double e1 = g * b, e2 = km * ir3;
            double Bx = e1 * dx - e2 * mjx, By = e1 * dy - e2 * mjy, Bz = e1 * dz - e2 * mjz;
            Tx += miy * Bz - miz * By; Ty += miz * Bx - mix * Bz; Tz += mix * By - miy * Bx;
        }
        if (CUT) {   /* -grad (S U) = S F - U S' d / r; the torques scale with S (cut_switch) */
            double x = (r - ron) * ih;
            x = x < 0 ? 0 : x;
            x = x > 1 ? 1 : x;
            double x2 = x * x, y = x * (1 - x);
            double S = 1 - x2 * x * (10 + x * (6 * x - 15)), dS = y * y * m30ih;   /* m30ih = -30 / (rc - r_on) */
            if (!P && !M) {   /* F = s d: one factor */
                double f = s * S - U * dS * ir;
                Fx = f * dx; Fy = f * dy; Fz = f * dz;
            } else {
                double v = U * dS * ir;
                Fx = S * Fx - v * dx; Fy = S * Fy - v * dy; Fz = S * Fz - v * dz;
                Tx *= S; Ty *= S; Tz *= S;
            }
            U *= S;
        }
        fx[i] += Fx; fy[i] += Fy; fz[i] += Fz;
        if (P || M) { tx[i] += Tx; ty[i] += Ty; tz[i] += Tz; }
        if (WU) uu[i] += U;
    }
}

/* Is grain j (position j) at least rc from the tile's box?  Then every pair (i, j) of the
 * tile lies beyond the cutoff, where it contributes exactly 0, and is skipped. */
static inline int out_of_reach(double *const *a, const tile *tl, int j, double rc)
{
    double x = a[AX][j], y = a[AY][j], z = a[AZ][j];
    double dx = x < tl->lo.x ? tl->lo.x - x : x > tl->hi.x ? x - tl->hi.x : 0;
    double dy = y < tl->lo.y ? tl->lo.y - y : y > tl->hi.y ? y - tl->hi.y : 0;
    double dz = z < tl->lo.z ? tl->lo.z - z : z > tl->hi.z ? z - tl->hi.z : 0;
    return dx * dx + dy * dy + dz * dz >= rc * rc;
}

/* Adds to the tile of the grains at positions [i0, i1) (tile_in) the pairs with the grains at
 * positions [j0, j1), j in increasing order, i = j left out; with the cutoff, the grains j
 * out of reach of the whole tile are left out too. */
#define PAIRS(name, P, M, CUT, WU) \
    static void name(double *const *a, tile *tl, int i0, int i1, int j0, int j1, const struct pala_centre_sums *c, double rc) \
    { \
        for (int j = j0; j < j1; j++) { \
            if (CUT && out_of_reach(a, tl, j, rc)) continue; \
            if (j < i0 || j >= i1) kern_j(a, tl, 0, i1 - i0, j, c, rc, P, M, CUT, WU); \
            else { \
                kern_j(a, tl, 0, j - i0, j, c, rc, P, M, CUT, WU); \
                kern_j(a, tl, j - i0 + 1, i1 - i0, j, c, rc, P, M, CUT, WU); \
            } \
        } \
    }
PAIRS(pairs_0, 0, 0, 0, 0) PAIRS(pairs_1, 1, 0, 0, 0) PAIRS(pairs_2, 0, 1, 0, 0) PAIRS(pairs_3, 1, 1, 0, 0)
PAIRS(pairs_4, 0, 0, 1, 0) PAIRS(pairs_5, 1, 0, 1, 0) PAIRS(pairs_6, 0, 1, 1, 0) PAIRS(pairs_7, 1, 1, 1, 0)
PAIRS(pairs_8, 0, 0, 0, 1) PAIRS(pairs_9, 1, 0, 0, 1) PAIRS(pairs_10, 0, 1, 0, 1) PAIRS(pairs_11, 1, 1, 0, 1)
PAIRS(pairs_12, 0, 0, 1, 1) PAIRS(pairs_13, 1, 0, 1, 1) PAIRS(pairs_14, 0, 1, 1, 1) PAIRS(pairs_15, 1, 1, 1, 1)
typedef void pairs_fn(double *const *, tile *, int, int, int, int, const struct pala_centre_sums *, double);
static pairs_fn *const pairs_of[16] = {pairs_0, pairs_1, pairs_2, pairs_3, pairs_4, pairs_5, pairs_6, pairs_7,
                                       pairs_8, pairs_9, pairs_10, pairs_11, pairs_12, pairs_13, pairs_14, pairs_15};

/* ---- cells (cutoff) --------------------------------------------------------------------- */

enum { CBITS = 21 };   /* bits of each packed cell coordinate */
#define CMAX ((1L << (CBITS - 1)) - 2)

/* A cell coordinate, clamped to +-CMAX (so far-out grains share the outermost cells: the
 * clamp never separates neighbours, it only merges cells). */
static inline long cell_coord(double v)
{
    if (!(v > -(double)CMAX)) return -CMAX;
    if (!(v < (double)CMAX)) return CMAX;
    return (long)floor(v);
}
static inline uint64_t cell_pack(long ix, long iy, long iz)
{
    const long o = 1L << (CBITS - 1);
    return ((uint64_t)(ix + o) << (2 * CBITS)) | ((uint64_t)(iy + o) << CBITS) | (uint64_t)(iz + o);
}
static inline long hash_slot(uint64_t key, long mask) { return (long)((key * 0x9E3779B97F4A7C15ull) >> 17) & mask; }

/* The cell of a packed key, or -1. */
static inline int cell_find(const struct pala_centre_sums *c, uint64_t key)
{
    for (long s = hash_slot(key, c->hmask);; s = (s + 1) & c->hmask) {
        if (c->hcell[s] < 0) return -1;
        if (c->hkey[s] == key) return c->hcell[s];
    }
}

/* Sort the grains into cells of size >= cutoff: cells numbered in the order of their
 * first grain, the grains of a cell in storage order (perm). */
static void cells_build(pala_world *w, struct pala_centre_sums *c)
{
    const double inv = 1 / c->cs;
    memset(c->hcell, 0xff, (size_t)(c->hmask + 1) * sizeof *c->hcell);
    int nc = 0;
    for (int k = 0; k < w->n; k++) {
        uint64_t key = cell_pack(cell_coord(w->x[k].x * inv), cell_coord(w->x[k].y * inv), cell_coord(w->x[k].z * inv));
        long s = hash_slot(key, c->hmask);
        while (c->hcell[s] >= 0 && c->hkey[s] != key) s = (s + 1) & c->hmask;
        if (c->hcell[s] < 0) {
            c->hkey[s] = key;
            c->hcell[s] = nc;
            c->ckey[nc] = key;
            c->cfill[nc++] = 0;
        }
        c->cellof[k] = c->hcell[s];
        c->cfill[c->hcell[s]]++;
    }
    c->cstart[0] = 0;
    for (int i = 0; i < nc; i++) {
        c->cstart[i + 1] = c->cstart[i] + c->cfill[i];
        c->cfill[i] = c->cstart[i];
    }
    for (int k = 0; k < w->n; k++) c->perm[c->cfill[c->cellof[k]]++] = k;
    c->ncell = nc;
}

/* ---- the passes ------------------------------------------------------------------------- */

typedef struct centre_job { pala_world *w; pala_vec3 *F, *T; int wu; } centre_job;

/* The blocks of thread t: an even share in block order.  Not the team's split, which
 * follows the times of the contact sweep (threads.h): every block of the all-pairs pass
 * costs the same, and the cutoff pass's blocks are in cell order, not storage order. */
static void share(const pala_world *w, int t, int *b0, int *b1)
{
    long nt = pala_team_size(w->team), nb = w->team->nblk;
    *b0 = (int)(nb * t / nt);
    *b1 = (int)(nb * (t + 1) / nt);
}

/* Copy the grains' data into the arrays, positions of blocks [b0, b1). */
static void gather_blocks(void *ctx, int t, int b0, int b1)
{
    centre_job *jb = ctx;
    pala_world *w = jb->w;
    const pala_field *fd = w->field;
    struct pala_centre_sums *c = w->centre->sums;
    const int *perm = w->cutoff > 0 ? c->perm : NULL;
    const double G = c->grav ? w->grav_G : 0;
    share(w, t, &b0, &b1);
    for (int s = b0 * PALA_BLOCK, e = pala_block_end(w->n, b1 - 1); s < e; s++) {
        int k = perm ? perm[s] : s;
        const pala_template *tp = &w->tmpl[w->tid[k]];
        c->a[AX][s] = w->x[k].x; c->a[AY][s] = w->x[k].y; c->a[AZ][s] = w->x[k].z;
        c->a[AQK][s] = c->ke * tp->charge;
        c->a[AGM][s] = G * tp->mass;
        c->a[AQ][s] = tp->charge;
        c->a[AM][s] = tp->mass;
        if (c->p) { c->a[APX][s] = fd->pw[k].x; c->a[APY][s] = fd->pw[k].y; c->a[APZ][s] = fd->pw[k].z; }
        if (c->m) { c->a[AMX][s] = fd->mw[k].x; c->a[AMY][s] = fd->mw[k].y; c->a[AMZ][s] = fd->mw[k].z; }
    }
}

/* Start a tile: the data of the grains at positions [i0, i1), sums zero. */
static void tile_in(const struct pala_centre_sums *c, tile *tl, int i0, int i1)
{
    int m = i1 - i0;
    static const int from[NT] = {AX, AY, AZ, AQK, AGM, APX, APY, APZ, AMX, AMY, AMZ};
    for (int q = 0; q < NT; q++) {
        if ((q >= TPX && q <= TPZ && !c->p) || (q >= TMX && !c->m)) continue;
        memcpy(tl->in[q], c->a[from[q]] + i0, (size_t)m * sizeof(double));
    }
    for (int q = 0; q < 7; q++) memset(tl->f[q], 0, (size_t)m * sizeof(double));
    tl->lo = tl->hi = pala_v(tl->in[TX][0], tl->in[TY][0], tl->in[TZ][0]);
    for (int k = 1; k < m; k++) {
        pala_vec3 x = pala_v(tl->in[TX][k], tl->in[TY][k], tl->in[TZ][k]);
        tl->lo = pala_v(fmin(tl->lo.x, x.x), fmin(tl->lo.y, x.y), fmin(tl->lo.z, x.z));
        tl->hi = pala_v(fmax(tl->hi.x, x.x), fmax(tl->hi.y, x.y), fmax(tl->hi.z, x.z));
    }
}

/* The tile's sums into the grains' F, T (grain perm[s] at position s) and ue. */
static void tile_out(const centre_job *jb, const struct pala_centre_sums *c, const tile *tl, int i0, int i1, const int *perm)
{
    for (int s = i0; s < i1; s++) {
        int k = s - i0, g = perm ? perm[s] : s;
        if (jb->F) {
            jb->F[g] = pala_vadd(jb->F[g], pala_v(tl->f[0][k], tl->f[1][k], tl->f[2][k]));
            if (c->p || c->m) jb->T[g] = pala_vadd(jb->T[g], pala_v(tl->f[3][k], tl->f[4][k], tl->f[5][k]));
        }
        if (jb->wu) c->ue[s] = tl->f[6][k];
    }
}

/* All pairs: the grains of blocks [b0, b1), a block at a time, each against j = 0 .. n-1. */
static void all_blocks(void *ctx, int t, int b0, int b1)
{
    centre_job *jb = ctx;
    pala_world *w = jb->w;
    struct pala_centre_sums *c = w->centre->sums;
    pairs_fn *fn = pairs_of[c->p | c->m << 1 | jb->wu << 3];
    tile tl;
    share(w, t, &b0, &b1);
    for (int b = b0; b < b1; b++) {
        int i0 = b * PALA_BLOCK, i1 = pala_block_end(w->n, b);
        tile_in(c, &tl, i0, i1);
        fn(c->a, &tl, i0, i1, 0, w->n, c, 0);
        tile_out(jb, c, &tl, i0, i1, NULL);
    }
}

/* Cutoff: the grains at the positions of blocks [b0, b1), a cell (or a tile of it) at a
 * time, each against the cells around it in a fixed order (z, y, x offsets -1, 0, 1). */
static void cell_blocks(void *ctx, int t, int b0, int b1)
{
    centre_job *jb = ctx;
    pala_world *w = jb->w;
    struct pala_centre_sums *c = w->centre->sums;
    pairs_fn *fn = pairs_of[c->p | c->m << 1 | 4 | jb->wu << 3];
    const long o = 1L << (CBITS - 1), msk = (1L << CBITS) - 1;
    const int dz0 = w->dim == 2 ? 0 : -1, dz1 = w->dim == 2 ? 0 : 1;
    tile tl;
    share(w, t, &b0, &b1);
    int s = b0 * PALA_BLOCK, e = pala_block_end(w->n, b1 - 1);
    while (s < e) {
        int cell = c->cellof[c->perm[s]], ce = c->cstart[cell + 1] < e ? c->cstart[cell + 1] : e;
        uint64_t key = c->ckey[cell];
        long ix = (long)(key >> (2 * CBITS) & msk) - o, iy = (long)(key >> CBITS & msk) - o, iz = (long)(key & msk) - o;
        int nb[27], nn = 0;
        for (int dz = dz0; dz <= dz1; dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    long jx = ix + dx, jy = iy + dy, jz = iz + dz;
                    if (jx < -CMAX || jx > CMAX || jy < -CMAX || jy > CMAX || jz < -CMAX || jz > CMAX) continue;
                    int q = dx || dy || dz ? cell_find(c, cell_pack(jx, jy, jz)) : cell;
                    if (q >= 0) nb[nn++] = q;
                }
        for (; s < ce; s += PALA_BLOCK) {
            int i1 = s + PALA_BLOCK < ce ? s + PALA_BLOCK : ce;
            tile_in(c, &tl, s, i1);
            for (int q = 0; q < nn; q++) fn(c->a, &tl, s, i1, c->cstart[nb[q]], c->cstart[nb[q] + 1], c, w->cutoff);
            tile_out(jb, c, &tl, s, i1, c->perm);
        }
        s = ce;
    }
}

static void run(pala_world *w, pala_vec3 *F, pala_vec3 *T, int wu)
{
    struct pala_centre_sums *c = w->centre->sums;
    centre_job j = {w, F, T, wu};
    if (w->cutoff > 0) {
        c->cs = w->cutoff;
        c->ih = fmin(1 / (w->cutoff - (1 - PALA_SWITCH) * w->cutoff), 1e300);   /* finite even for a tiny cutoff */
        cells_build(w, c);
    }
    pala_team_run(w->team, gather_blocks, &j);
    pala_team_run(w->team, w->cutoff > 0 ? cell_blocks : all_blocks, &j);
}

void pala_centre_forces(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    run(w, F, T, 0);
}

double pala_centre_energy(pala_world *w)
{
    pala_field *fd = w->field;
    if (!w->centre->on) return 0;
    if (fd->dipoles)
        for (int k = 0; k < w->n; k++) pala_grain_dipoles(w, k, &fd->pw[k], &fd->mw[k]);
    run(w, NULL, NULL, 1);
    double U = 0;
    for (int s = 0; s < w->n; s++) U += w->centre->sums->ue[s];
    return 0.5 * U;
}

double pala_centre_tried(pala_world *w)
{
    struct pala_centre_sums *c = w->centre->sums;
    if (!(w->cutoff > 0)) return (double)w->n * (w->n - 1);
    const long o = 1L << (CBITS - 1), msk = (1L << CBITS) - 1;
    double n = 0;
    for (int cell = 0; cell < c->ncell; cell++) {
        uint64_t key = c->ckey[cell];
        long ix = (long)(key >> (2 * CBITS) & msk) - o, iy = (long)(key >> CBITS & msk) - o, iz = (long)(key & msk) - o;
        long m = 0;
        for (int dz = w->dim == 2 ? 0 : -1; dz <= (w->dim == 2 ? 0 : 1); dz++)
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int q = cell_find(c, cell_pack(ix + dx, iy + dy, iz + dz));
                    if (q >= 0) m += c->cstart[q + 1] - c->cstart[q];
                }
        long k = c->cstart[cell + 1] - c->cstart[cell];
        n += (double)k * (double)(m - 1);
    }
    return n;
}

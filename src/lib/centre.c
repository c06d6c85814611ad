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
 * Each grain sums over all others, j in storage order: its sum is independent of the
 * threads.  The pair energy is half the sum over grains of their sums. */
#include "centre.h"
#include "alloc.h"
#include "threads.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int nonzero(pala_vec3 a) { return a.x != 0 || a.y != 0 || a.z != 0; }

struct pala_centre {
    double ke, km;          /* k_e and mu0/4pi */
    int grav, q, p, m;      /* which terms act */
    double *bU;             /* per block: sum of the grains' pair energies */
};

void pala_centre_prepare(pala_world *w)
{
    pala_work *wk = w->work;
    int q = 0, p = 0, m = 0;
    for (int t = 0; t < w->ntmpl; t++) {
        q |= w->tmpl[t].charge != 0;
        p |= nonzero(w->tmpl[t].edip);
        m |= nonzero(w->tmpl[t].mdip);
    }
    int grav = w->grav_G > 0;
    wk->centre = w->n > 1 && (grav || q || p || m);
    if (!wk->centre) return;
    if (!wk->cen) {
        wk->cen = pala_xrealloc(NULL, sizeof *wk->cen);
        memset(wk->cen, 0, sizeof *wk->cen);
    }
    struct pala_centre *c = wk->cen;
    c->ke = 1 / (4 * 3.14159265358979323846 * PALA_EPS0 * (w->eps_r > 0 ? w->eps_r : 1));
    c->km = PALA_MU0_4PI;
    c->grav = grav; c->q = q; c->p = p; c->m = m;
    PALA_GROW(c->bU, wk->nblk + 1);
}

void pala_centre_free(pala_work *wk)
{
    if (!wk->cen) return;
    free(wk->cen->bU);
    free(wk->cen);
    wk->cen = NULL;
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
static inline double pair(const pala_world *w, const struct pala_centre *c, int i, int j, pala_vec3 *Fo, pala_vec3 *To)
{
    const pala_work *wk = w->work;
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
        pala_vec3 pi = wk->pw[i], pj = wk->pw[j];
        /* charge q_j, dipole p_i: U = -k_e q_j (p_i.d) / r^3, F_i = k_e q_j (p_i - 3 (p_i.d) d / r^2) / r^3;
         * charge q_i, dipole p_j: U = k_e q_i (p_j.d) / r^3, F_i = -k_e q_i (p_j - 3 (p_j.d) d / r^2) / r^3 */
        double a = pala_vdot(pi, d), b = pala_vdot(pj, d);
        U += c->ke * (ti->charge * b - tj->charge * a) * ir3;
        F = pala_vadd(F, pala_vscale(c->ke * tj->charge * ir3, pala_vsub(pi, pala_vscale(3 * a * ir2, d))));
        F = pala_vsub(F, pala_vscale(c->ke * ti->charge * ir3, pala_vsub(pj, pala_vscale(3 * b * ir2, d))));
        E = pala_vscale(c->ke * tj->charge * ir3, d);   /* the charge's field k_e q_j d / r^3 */
        U += dip_dip(pi, pj, d, c->ke, ir2, ir3, &F, &E);
    }
    if (c->m) U += dip_dip(wk->mw[i], wk->mw[j], d, c->km, ir2, ir3, &F, &B);
    pala_vec3 T = pala_v(0, 0, 0);
    if (c->p) T = pala_vcross(wk->pw[i], E);
    if (c->m) T = pala_vadd(T, pala_vcross(wk->mw[i], B));
    if (S != 1) {   /* -grad (S U) = S F - U S' d / r; the torques scale with S */
        F = pala_vsub(pala_vscale(S, F), pala_vscale(U * dS * ir, d));
        T = pala_vscale(S, T);
        U *= S;
    }
    *Fo = pala_vadd(*Fo, F);
    *To = pala_vadd(*To, T);
    return U;
}

typedef struct centre_job { pala_world *w; pala_vec3 *F, *T; } centre_job;

static void centre_blocks(void *ctx, int t, int b0, int b1)
{
    centre_job *jb = ctx;
    pala_world *w = jb->w;
    struct pala_centre *c = w->work->cen;
    (void)t;
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
        double U = 0;
        for (int i = k0; i < k1; i++) {
            pala_vec3 F = {0, 0, 0}, T = {0, 0, 0};
            for (int j = 0; j < w->n; j++)
                if (j != i) U += pair(w, c, i, j, &F, &T);
            if (jb->F) {
                jb->F[i] = pala_vadd(jb->F[i], F);
                jb->T[i] = pala_vadd(jb->T[i], T);
            }
        }
        c->bU[b] = U;
    }
}

void pala_centre_forces(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    centre_job j = {w, F, T};
    pala_team_run(w->team, centre_blocks, &j);
}

double pala_centre_energy(pala_world *w)
{
    pala_work *wk = w->work;
    if (!wk->centre) return 0;
    if (wk->dipoles)
        for (int k = 0; k < w->n; k++) {
            const pala_template *tp = &w->tmpl[w->tid[k]];
            wk->pw[k] = pala_rot_apply(w->r[k], tp->edip);
            wk->mw[k] = pala_rot_apply(w->r[k], tp->mdip);
        }
    centre_job j = {w, NULL, NULL};
    pala_team_run(w->team, centre_blocks, &j);
    double U = 0;
    for (int b = 0; b < wk->nblk; b++) U += wk->cen->bU[b];
    return 0.5 * U;
}

/* field.c: charges and dipoles in the homogeneous E and B fields (field.h; docs/physics.md,
 * "Charges, dipoles and fields"). */
#include "field.h"
#include "grain.h"
#include "alloc.h"
#include "centre.h"
#include "threads.h"
#include <math.h>
#include <string.h>

static int nonzero(pala_vec3 a) { return a.x != 0 || a.y != 0 || a.z != 0; }

void pala_field_prepare(pala_world *w)
{
    pala_work *wk = w->work;
    int q = 0, p = 0, m = 0;
    for (int t = 0; t < w->ntmpl; t++) {
        q |= w->tmpl[t].charge != 0;
        p |= nonzero(w->tmpl[t].edip);
        m |= nonzero(w->tmpl[t].mdip);
    }
    wk->charges = q; wk->edipoles = p; wk->mdipoles = m;
    int E = nonzero(w->E), B = nonzero(w->B);
    wk->em = (E && (q || p)) || (B && (q || m));
    wk->lorentz = B && q && w->lorentz == PALA_LORENTZ_IMPLICIT;
    wk->dipoles = p || m;
    wk->set_E = w->E; wk->set_B = w->B; wk->set_Eturn = w->E_turn; wk->set_Bturn = w->B_turn;
    wk->set_G = w->grav_G; wk->set_eps = w->eps_r; wk->set_cut = w->cutoff; wk->set_lorentz = w->lorentz;
    pala_centre_prepare(w);
    if (!wk->em && !wk->centre) return;
    PALA_GROW(wk->qm, w->ntmpl + 1);
    for (int t = 0; t < w->ntmpl; t++) wk->qm[t] = w->tmpl[t].charge / w->tmpl[t].mass;
    PALA_GROW(wk->bwrate, wk->nblk + 1);
    if (wk->dipoles) { PALA_GROW(wk->pw, w->n + 1); PALA_GROW(wk->mw, w->n + 1); }
}

static int same(pala_vec3 a, pala_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

int pala_field_changed(const pala_world *w)
{
    const pala_work *wk = w->work;
    return !same(wk->set_E, w->E) || !same(wk->set_B, w->B) || !same(wk->set_Eturn, w->E_turn) || !same(wk->set_Bturn, w->B_turn) ||
           wk->set_G != w->grav_G || wk->set_eps != w->eps_r || wk->set_cut != w->cutoff || wk->set_lorentz != w->lorentz;
}

typedef struct field_job { pala_world *w; pala_vec3 *F, *T; } field_job;

/* Per block: the world-frame dipoles p = r * p_body (eq. 6), the force q E (+ q v x B with
 * lorentz = paper), the torque p x E + m x B, and dU/dt = -(q x + p).dE/dt - m.dB/dt. */
static void field_blocks(void *ctx, int t, int b0, int b1)
{
    field_job *j = ctx;
    pala_world *w = j->w;
    pala_work *wk = w->work;
    (void)t;
    const pala_vec3 E = wk->Et, B = wk->Bt;
    const pala_vec3 dE = pala_vcross(w->E_turn, E), dB = pala_vcross(w->B_turn, B);   /* d/dt R(om t) v = om x R v */
    const int paper = w->lorentz == PALA_LORENTZ_PAPER;
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
        double rate = 0;
        for (int k = k0; k < k1; k++) {
            const pala_template *tp = &w->tmpl[w->tid[k]];
            pala_vec3 p = pala_v(0, 0, 0), m = p;
            if (wk->dipoles) {
                pala_grain_dipoles(w, k, &p, &m);
                wk->pw[k] = p;
                wk->mw[k] = m;
            }
            double q = tp->charge;
            pala_vec3 F = pala_vscale(q, E);                                       /* q E */
            if (paper && q != 0) F = pala_vadd(F, pala_vscale(q, pala_vcross(w->v[k], B)));   /* q v x B */
            j->F[k] = F;
            j->T[k] = pala_vadd(pala_vcross(p, E), pala_vcross(m, B));           /* p x E + m x B */
            rate -= pala_vdot(pala_vadd(pala_vscale(q, w->x[k]), p), dE) + pala_vdot(m, dB);
        }
        wk->bwrate[b] = rate;
    }
}

void pala_field_eval(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    pala_work *wk = w->work;
    wk->Et = pala_field_turned(w->E, w->E_turn, w->t);
    wk->Bt = pala_field_turned(w->B, w->B_turn, w->t);
    field_job j = {w, F, T};
    pala_team_run(w->team, field_blocks, &j);
    double rate = 0;
    for (int b = 0; b < wk->nblk; b++) rate += wk->bwrate[b];
    wk->wrate = rate;
}

double pala_field_energy(pala_world *w)
{
    pala_work *wk = w->work;
    if (!wk->em) return 0;
    pala_vec3 E = pala_field_turned(w->E, w->E_turn, w->t), B = pala_field_turned(w->B, w->B_turn, w->t);
    double U = 0;
    for (int k = 0; k < w->n; k++) {
        const pala_template *tp = &w->tmpl[w->tid[k]];
        pala_vec3 p, m;
        pala_grain_dipoles(w, k, &p, &m);
        U -= tp->charge * pala_vdot(E, w->x[k]) + pala_vdot(p, E) + pala_vdot(m, B);   /* -q E.x - p.E - m.B */
    }
    return U;
}

double pala_world_dipole_alignment(pala_world *w)
{
    pala_vec3 B = pala_field_turned(w->B, w->B_turn, w->t);
    double b = pala_vnorm(B), sum = 0;
    long n = 0;
    for (int k = 0; k < w->n && b > 0; k++) {
        pala_vec3 mb = w->tmpl[w->tid[k]].mdip;
        double m = pala_vnorm(mb);
        if (m == 0) continue;
        pala_vec3 pw, mw;
        pala_grain_dipoles(w, k, &pw, &mw);
        sum += pala_vdot(mw, B) / (m * b);   /* cos(m, B) */
        n++;
    }
    return n ? sum / (double)n : 0;
}

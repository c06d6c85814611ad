/* field.c: charges and dipoles in the homogeneous E and B fields (field.h; docs/physics.md,
 * "Charges, dipoles and fields"). */
#include "field.h"
#include "grain.h"
#include "alloc.h"
#include "threads.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int nonzero(pala_vec3 a) { return a.x != 0 || a.y != 0 || a.z != 0; }

void pala_field_prepare(pala_world *w)
{
    if (!w->field) {
        w->field = pala_xrealloc(NULL, sizeof *w->field);
        memset(w->field, 0, sizeof *w->field);
    }
    pala_field *fd = w->field;
    int q = 0, p = 0, m = 0;
    for (int t = 0; t < w->ntmpl; t++) {
        q |= w->tmpl[t].charge != 0;
        p |= nonzero(w->tmpl[t].edip);
        m |= nonzero(w->tmpl[t].mdip);
    }
    fd->charges = q; fd->edipoles = p; fd->mdipoles = m;
    int E = nonzero(w->E), B = nonzero(w->B);
    fd->em = (E && (q || p)) || (B && (q || m));
    fd->lorentz = B && q && w->lorentz == PALA_LORENTZ_IMPLICIT;
    fd->dipoles = p || m;
    fd->E = w->E; fd->B = w->B; fd->E_turn = w->E_turn; fd->B_turn = w->B_turn; fd->lorentz_rule = w->lorentz;
    /* per template and per block (small, made always: pala_field_eval also runs for the
     * interactions between centres, which take its dipoles) */
    PALA_GROW(fd->qm, w->ntmpl + 1);
    for (int t = 0; t < w->ntmpl; t++) fd->qm[t] = w->tmpl[t].charge / w->tmpl[t].mass;
    PALA_GROW(fd->bwrate, w->team->nblk + 1);
    if (fd->dipoles) { PALA_GROW(fd->pw, w->n + 1); PALA_GROW(fd->mw, w->n + 1); }
}

void pala_field_free(pala_world *w)
{
    pala_field *fd = w->field;
    if (!fd) return;
    free(fd->qm); free(fd->pw); free(fd->mw); free(fd->bwrate);
    free(fd);
    w->field = NULL;
}

static int same(pala_vec3 a, pala_vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

int pala_field_changed(const pala_world *w)
{
    const pala_field *fd = w->field;
    return !same(fd->E, w->E) || !same(fd->B, w->B) || !same(fd->E_turn, w->E_turn) || !same(fd->B_turn, w->B_turn) ||
           fd->lorentz_rule != w->lorentz;
}

typedef struct field_job { pala_world *w; pala_vec3 *F, *T; } field_job;

/* Per block: the world-frame dipoles p = r * p_body (eq. 6), the force q E (+ q v x B with
 * lorentz = paper), the torque p x E + m x B, and dU/dt = -(q x + p).dE/dt - m.dB/dt. */
static void field_blocks(void *ctx, int t, int b0, int b1)
{
    field_job *j = ctx;
    pala_world *w = j->w;
    pala_field *fd = w->field;
    (void)t;
    const pala_vec3 E = fd->Et, B = fd->Bt;
    const pala_vec3 dE = pala_vcross(w->E_turn, E), dB = pala_vcross(w->B_turn, B);   /* d/dt R(om t) v = om x R v */
    const int paper = w->lorentz == PALA_LORENTZ_PAPER;
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
        double rate = 0;
        for (int k = k0; k < k1; k++) {
            const pala_template *tp = &w->tmpl[w->tid[k]];
            pala_vec3 p = pala_v(0, 0, 0), m = p;
            if (fd->dipoles) {
                pala_grain_dipoles(w, k, &p, &m);
                fd->pw[k] = p;
                fd->mw[k] = m;
            }
            double q = tp->charge;
            pala_vec3 F = pala_vscale(q, E);                                       /* q E */
            if (paper && q != 0) F = pala_vadd(F, pala_vscale(q, pala_vcross(w->v[k], B)));   /* q v x B */
            j->F[k] = F;
            j->T[k] = pala_vadd(pala_vcross(p, E), pala_vcross(m, B));           /* p x E + m x B */
            rate -= pala_vdot(pala_vadd(pala_vscale(q, w->x[k]), p), dE) + pala_vdot(m, dB);
        }
        fd->bwrate[b] = rate;
    }
}

void pala_field_eval(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    pala_field *fd = w->field;
    fd->Et = pala_field_turned(w->E, w->E_turn, w->t);
    fd->Bt = pala_field_turned(w->B, w->B_turn, w->t);
    field_job j = {w, F, T};
    pala_team_run(w->team, field_blocks, &j);
    double rate = 0;
    for (int b = 0; b < w->team->nblk; b++) rate += fd->bwrate[b];
    fd->wrate = rate;
    if (fd->em) w->wfield += w->dt * rate;   /* W_field over the step: midpoint rule (docs/physics.md, "Turning fields") */
}

double pala_field_energy(pala_world *w)
{
    if (!w->field->em) return 0;
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

/* integrator.c: the direct-midpoint step for many grains, paper sections 6-7
 * (eqs. 59-69; docs/physics.md, "The integrator"): the free rotation, and the end of the
 * step of a block of grains.  Exactly one force evaluation per step (step.c). */
#include "integrator.h"
#include "field.h"
#include "grain.h"
#include "grain_forces.h"
#include <math.h>
#include <stdio.h>

/* omega' = I_r^-1 (I_r omega x omega): torque-free Euler equation, eq. (60). */
static pala_vec3 euler_rate(pala_vec3 r, const pala_template *t, pala_vec3 om)
{
    pala_vec3 L = pala_rot_diag_apply(r, t->inertia, om);
    return pala_rot_diag_apply(r, t->inv_inertia, pala_vcross(L, om));
}

/* Free rigid-body motion Phi(h), eq. (59): x += h v; omega changes by the torque-free
 * Euler equation; r <- exp(h (omega + omega')/2) o r.
 *
 * The paper's Delta omega = h I_r^-1 (I_{dr o r} omega x omega), dr = exp(h/2 omega), takes
 * only part of the midpoint into account (omega and I_r^-1 stay at the start), and we
 * measured its drift of the angular momentum of an asymmetric grain not to shrink as
 * h^2 (tests/test_dynamics.c, Dzhanibekov).  With rotation_step = midpoint (default)
 * Delta omega is evaluated at the midpoint (omega_h, r_h) of an Euler half-step, which
 * is second order; rotation_step = paper keeps eq. (59) as printed.  Isotropic grains
 * (spheres) have Delta omega = 0 either way. */
/* The new angular velocity of an anisotropic grain after the free motion over h. */
pala_vec3 pala_free_rotation(const pala_world *w, const pala_template *t, pala_vec3 r, pala_vec3 om, double h)
{
    if (w->rotation_step == PALA_ROTSTEP_PAPER) {
        pala_vec3 r1 = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, om)), r);
        pala_vec3 L = pala_rot_diag_apply(r1, t->inertia, om);
        return pala_vaxpy(om, h, pala_rot_diag_apply(r, t->inv_inertia, pala_vcross(L, om)));
    }
    pala_vec3 omh = pala_vaxpy(om, 0.5 * h, euler_rate(r, t, om));
    pala_vec3 rh = pala_rot_compose(pala_rot_exp(pala_vscale(0.5 * h, omh)), r);
    return pala_vaxpy(om, h, euler_rate(rh, t, omh));
}

/* ---- the end of a block's step ---------------------------------------------------------- */
/* beta = I_r^-1 T (eq. 62); for an isotropic grain I_r^-1 = 1/I exactly, for an arc grain
 * (isotropic 3: T along its axis z) 1/I_3. */
static inline pala_vec3 ang_acc(const pala_template *t, pala_vec3 r, pala_vec3 T)
{
    return t->isotropic ? pala_vscale(t->inv_inertia[t->isotropic - 1], T) : pala_rot_diag_apply(r, t->inv_inertia, T);
}

/* eq. (69) and, when chained, eqs. (65)-(66) for grains [k0, k1) that are all isotropic
 * in 3D (spheres, symmetric clumps), in loops the compiler vectorises across grains: the
 * operations of pala_grain_end_drift and pala_grain_start_step, in the same order, so the
 * same bits.  Both free motions turn by the same exp(tau omega) (omega is constant in an
 * isotropic free motion, and the kick comes after the second), computed once.  Only for
 * grains that turn by less than 0.1 rad in a half step (exp's series, pala_rot_exp). */
static inline double drift_isotropic_loop(int m, double tau, pala_vec3 *restrict Xb, pala_vec3 *restrict Rb,
                                          pala_vec3 *restrict Vb, pala_vec3 *restrict Wb, const pala_vec3 *restrict AC,
                                          const pala_vec3 *restrict BA, double *restrict d2, double *restrict dr,
                                          double *restrict qn, pala_vec3 u, double chk, const int chain)
{
    const double h2 = tau * tau;
    for (int i = 0; i < m; i++) {   /* eq. (69) */
        pala_vec3 v = Vb[i], om = Wb[i];
        pala_vec3 x = pala_vaxpy(Xb[i], tau, v);
        pala_vec3 a = pala_vscale(0.5 * tau, pala_vadd(om, om));
        pala_vec3 q = pala_vscale(pala_rot_exp_series(pala_vdot(a, a)), a);
        pala_vec3 r = pala_rot_compose(q, Rb[i]);
        chk += 0.0 * (x.x + x.y + x.z + r.x + r.y + r.z);
        d2[i] = h2 * pala_vnorm2(v);
        dr[i] = h2 * pala_vnorm2(pala_vsub(v, u));
        qn[i] = pala_vnorm2(q);
        if (chain) {   /* eqs. (65)-(66) of the next step, with the same turn */
            x = pala_vaxpy(x, tau, v);
            r = pala_rot_compose(q, r);
            Vb[i] = pala_vaxpy(v, tau, AC[i]);
            Wb[i] = pala_vaxpy(om, tau, BA[i]);
        }
        Xb[i] = x;
        Rb[i] = r;
    }
    return chk;
}

static void drift_isotropic(pala_world *w, int k0, int k1, pala_finish *fa)
{
    const pala_work *wk = w->work;
    const int chain = wk->chain;
    double d2[PALA_BLOCK], dr[PALA_BLOCK], qn[PALA_BLOCK];
    const double tau = 0.5 * w->dt;
    const int m = k1 - k0;
    const pala_vec3 u = pala_list_frame(w);
    double chk = chain ? drift_isotropic_loop(m, tau, w->x + k0, w->r + k0, w->v + k0, w->w + k0, w->acc + k0, w->bacc + k0, d2, dr, qn, u, fa->chk, 1)
                       : drift_isotropic_loop(m, tau, w->x + k0, w->r + k0, w->v + k0, w->w + k0, w->acc + k0, w->bacc + k0, d2, dr, qn, u, fa->chk, 0);
    fa->chk = chk;
    /* displacement bounds (pala_free_motion_h), the same for both free motions */
    double mv = 0, rv = 0;
    for (int k = k0; k < k1; k++) {
        double d = d2[k - k0], e = dr[k - k0];
        if (!wk->spheres_only && w->tmpl[w->tid[k]].ncomp > 1) {
            double s = 2 * sqrt(qn[k - k0]) * wk->smax[w->tid[k]];
            d = sqrt(d) + s;
            d = d * d;
            e = sqrt(e) + s;
            e = e * e;
        }
        mv = d > mv ? d : mv;
        rv = e > rv ? e : rv;
    }
    if (mv > fa->mv) fa->mv = mv;
    if (rv > fa->rv) fa->rv = rv;
    if (chain) {
        if (mv > fa->mv2) fa->mv2 = mv;
        if (rv > fa->rv2) fa->rv2 = rv;
        if (w->pc)
            for (int k = k0; k < k1; k++) pala_world_place_pebbles(w, k);
    }
}

/* eq. (69) and, when chained, eqs. (65)-(66) for grains [k0, k1), grain by grain. */
static void drift_general(pala_world *w, int k0, int k1, pala_finish *fa)
{
    double mv = fa->mv, rv = fa->rv, chk = fa->chk, e;
    for (int k = k0; k < k1; k++) {
        double d2 = pala_grain_end_drift(w, k, &e);                            /* eq. (69) */
        mv = d2 > mv ? d2 : mv;
        rv = e > rv ? e : rv;
        chk += pala_grain_check(w, k);
    }
    fa->mv = mv;
    fa->rv = rv;
    fa->chk = chk;
    if (!w->work->chain) return;
    /* the next step's eqs. (65)-(66) at once, while the grains are in cache: the same
     * operations in the same order as a separate pass */
    double mv2 = fa->mv2, rv2 = fa->rv2;
    for (int k = k0; k < k1; k++) {
        double d2a = pala_grain_start_step(w, k, &e);
        mv2 = d2a > mv2 ? d2a : mv2;
        rv2 = e > rv2 ? e : rv2;
    }
    fa->mv2 = mv2;
    fa->rv2 = rv2;
}

/* The kick (eqs. 61, 62, 68), grain by grain: any template, 2D or 3D.  Spheres: all torque
 * (pairs and walls) is friction's, so T serves as the non-conservative torque and Tnc
 * stays unused (force_pass.c).  Conservative torques of the interactions (tc) join T
 * here (grain_forces.h). */
static void kick_general(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_work *wk = w->work;
    const pala_grain_forces *gf = w->forces;
    const pala_field *fd = w->field;
    const pala_vec3 *tc = gf->ext && gf->tc_any ? gf->tc : NULL;
    double tau = 0.5 * w->dt, pdiss = 0;
    for (int k = k0; k < k1; k++) {
        pala_facc *a = &A[k & mask];
        const pala_template *t = &w->tmpl[w->tid[k]];
        pala_vec3 an = pala_vscale(wk->invm[w->tid[k]], a->F);                /* eq. (61) */
        if (fd->lorentz && fd->qm[w->tid[k]] != 0) an = pala_lorentz_accel(w, k, an, fd->qm[w->tid[k]], fd->Bt);
        pala_vec3 be = ang_acc(t, w->r[k], tc ? pala_vadd(a->T, tc[k]) : a->T);  /* eq. (62) */
        if (wk->dissipative) {
            /* Work of the non-conservative forces over the step, with the velocities the
             * positions actually advance by, v + tau alpha_new (the kinetic energy changes
             * by exactly F . dt (v_n + v_n+1)/2 in this scheme). */
            pala_vec3 vm = pala_vaxpy(w->v[k], tau, pala_vsub(an, w->acc[k]));
            pala_vec3 om = pala_vaxpy(w->w[k], tau, pala_vsub(be, w->bacc[k]));
            pdiss += pala_vdot(a->Fnc, vm) + pala_vdot(wk->tsep ? a->Tnc : a->T, om);
        }
        pala_grain_end_kick(w, k, an, be);                                     /* eq. (68) */
    }
    fa->pdiss += pdiss;
}

/* The end of the step, grain by grain: any template, 2D or 3D. */
void pala_integrator_end_general(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    kick_general(w, k0, k1, A, mask, fa);
    drift_general(w, k0, k1, fa);
}

/* The kick (eqs. 61, 62, 68) of a block of isotropic grains in 3D (spheres, symmetric
 * clumps): the operations of kick_general in the same order, so the same bits, but in loops
 * over the block's 3 m components (x, y, z of one grain, then the next's), which the
 * compiler vectorises four at a time; a loop over the grains, with their 3-vectors, is
 * vectorised across the grains only by shuffling their components (docs/performance.md,
 * "A polydisperse pour against LAMMPS": 127 instructions a grain-step before, 75 now; 126
 * and 92 with several templates).  one: the grains are of template tid, else (several
 * templates, a size distribution's spheres) each grain's 1/m and 1/I (eq. 62: I_r^-1 = 1/I
 * exactly, isotropic = 1 in 3D).  Returns whether a grain turns by 0.1 rad or more in a
 * half step (then the block takes drift_general). */
static inline int kick_isotropic(pala_world *w, int k0, int k1, const pala_facc *A, long mask, int tid, const int one,
                                 const int diss, const int spheres, pala_finish *fa)
{
    _Static_assert(sizeof(pala_vec3) == 3 * sizeof(double), "pala_vec3 is three doubles, unpadded");
    const pala_work *wk = w->work;
    const double tau = 0.5 * w->dt;
    const int m = k1 - k0, n3 = 3 * m;
    double *restrict V = &w->v[k0].x, *restrict W = &w->w[k0].x, *restrict AC = &w->acc[k0].x, *restrict BA = &w->bacc[k0].x;
    /* the block's sums, and (several templates) 1/m and 1/I, as runs of 3 m components;
     * the non-conservative torque of spheres is T itself (force_pass.c) */
    double F[3 * PALA_BLOCK], T[3 * PALA_BLOCK], G[3 * PALA_BLOCK], TN[3 * PALA_BLOCK], IM[3 * PALA_BLOCK], II[3 * PALA_BLOCK];
    const double *H = spheres ? T : TN;
    const pala_facc *restrict Ab = &A[k0 & mask];   /* a block never wraps around the ring */
    /* The next block's state, fetched while this one is processed: at sizes beyond the
     * cache the hardware prefetcher alone leaves the start of each block's kick waiting
     * on memory (1e6 spheres: 1.14x; no change in cache; docs/performance.md). */
    const int np = w->n - k1 < PALA_BLOCK ? w->n - k1 : PALA_BLOCK;
    const char *pf[5] = {(const char *)(w->v + k1), (const char *)(w->w + k1), (const char *)(w->acc + k1),
                         (const char *)(w->bacc + k1), (const char *)(w->r + k1)};
    for (int i = 0; i < m; i++) {
        if (i < np)
            for (int j = 0; j < 5; j++) __builtin_prefetch(pf[j] + sizeof(pala_vec3) * (size_t)i);
        const pala_facc *a = &Ab[i];
        F[3 * i] = a->F.x; F[3 * i + 1] = a->F.y; F[3 * i + 2] = a->F.z;
        T[3 * i] = a->T.x; T[3 * i + 1] = a->T.y; T[3 * i + 2] = a->T.z;
        G[3 * i] = a->Fnc.x; G[3 * i + 1] = a->Fnc.y; G[3 * i + 2] = a->Fnc.z;
        if (!spheres) { TN[3 * i] = a->Tnc.x; TN[3 * i + 1] = a->Tnc.y; TN[3 * i + 2] = a->Tnc.z; }
        if (!one) {
            const int g = w->tid[k0 + i];
            const double im = wk->invm[g], ii = w->tmpl[g].inv_inertia[0];
            IM[3 * i] = IM[3 * i + 1] = IM[3 * i + 2] = im;
            II[3 * i] = II[3 * i + 1] = II[3 * i + 2] = ii;
        }
    }
    /* per component: the products of the two dot products of the dissipated power, and the
     * squares of the half turn h = (tau / 2) (om + om), and how many reach 0.003 */
    double PF[3 * PALA_BLOCK], PT[3 * PALA_BLOCK], H2[3 * PALA_BLOCK];
    int over = 0;
    const double im0 = one ? wk->invm[tid] : 0, ii0 = one ? w->tmpl[tid].inv_inertia[0] : 0;
    for (int j = 0; j < n3; j++) {
        double an = (one ? im0 : IM[j]) * F[j];                           /* eq. (61) */
        double be = (one ? ii0 : II[j]) * T[j];                           /* eq. (62) */
        double v = V[j], om = W[j], ac = AC[j], ba = BA[j];
        double vm = v + tau * (an - ac);                                      /* see kick_general */
        double omm = om + tau * (be - ba);
        PF[j] = G[j] * vm;
        PT[j] = H[j] * omm;
        v = v + tau * (2 * an - ac);                                          /* eq. (68) */
        om = om + tau * (2 * be - ba);
        V[j] = v; W[j] = om; AC[j] = an; BA[j] = be;
        double h = 0.5 * tau * (om + om);
        H2[j] = h * h;
        over += !(H2[j] < 0.003);
    }
    double pdiss = 0;
    if (diss)
        for (int i = 0; i < m; i++) {   /* in grain order, as the general path */
            const double *pf3 = PF + 3 * i, *pt3 = PT + 3 * i;
            pdiss += (pf3[0] + pf3[1] + pf3[2]) + (pt3[0] + pt3[1] + pt3[2]);
        }
    fa->pdiss += pdiss;
    /* |h|^2 < 0.01 for every grain when no component's square reaches 0.003 (a sum of three
     * below 0.009, rounded); else grain by grain, as pala_rot_exp decides */
    int big = 0;
    if (over)
        for (int i = 0; i < m; i++) big += !(H2[3 * i] + H2[3 * i + 1] + H2[3 * i + 2] < 0.01);
    return big;
}

static inline void end_isotropic(pala_world *w, int k0, int k1, pala_facc *A, long mask, int tid, const int one,
                                 pala_finish *fa)
{
    const pala_work *wk = w->work;
    int big = !wk->tsep ? kick_isotropic(w, k0, k1, A, mask, tid, one, wk->dissipative, 1, fa)
                        : kick_isotropic(w, k0, k1, A, mask, tid, one, wk->dissipative, 0, fa);
    if (big) drift_general(w, k0, k1, fa);
    else drift_isotropic(w, k0, k1, fa);
}

void pala_integrator_end_isotropic(pala_world *w, int k0, int k1, pala_facc *A, long mask, int tid, pala_finish *fa)
{
    end_isotropic(w, k0, k1, A, mask, tid, 1, fa);
}

/* A block of isotropic grains of several templates in 3D (spheres of a size distribution):
 * as pala_integrator_end_isotropic, with each grain's 1/m and 1/I. */
void pala_integrator_end_mixed(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    end_isotropic(w, k0, k1, A, mask, -1, 0, fa);
}

/* The end of the step of grains [k0, k1) in 2D, all isotropic (discs, arc grains, symmetric
 * clumps): in-plane motion, omega along z, r = (0, 0, g) (docs/physics.md, "2D mode").  The
 * operations of pala_integrator_end_general on the components that are not zero, in the same
 * order, so the same bits: with omega = (0, 0, w) the free motion's a = (0, 0, a_z), its
 * exp(a) = (0, 0, f a_z) (|a|^2 = a_z^2 exactly) and its composition with r the scalar
 * (q + g) / (1 - q g) of eq. (7); the projection of pala_grain_end_drift sets the rest to 0.
 * A grain with a force along z or a torque in the plane (an additional force, say) takes the
 * general path, which carries them until that projection; so do the grains of a block whose
 * state was not in the plane at the start of pala_world_steps (wk->flat: a state set by the
 * caller; the projection keeps it there from the first step on). */
static inline __attribute__((always_inline)) void end_planar_(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa, const int arcs)
{
    const pala_work *wk = w->work;
    const double tau = 0.5 * w->dt, h2 = tau * tau;
    const int chain = wk->chain, flat = wk->flat[k0 / PALA_BLOCK];
    const pala_vec3 u = pala_list_frame(w);
    const double *G = arcs ? w->nl->gk : NULL;   /* arc grains: 1/f_k (neighbor.c, "Skins of their own") */
    double pdiss = 0, mv = fa->mv, mv2 = fa->mv2, rv = fa->rv, rv2 = fa->rv2, chk = fa->chk;
    for (int k = k0; k < k1; k++) {
        pala_facc *a = &A[k & mask];
        const pala_vec3 v0 = w->v[k], w0 = w->w[k];
        if (!flat || a->F.z != 0 || a->T.x != 0 || a->T.y != 0) {   /* the general path, grain k alone */
            pala_finish f1 = {.mv = mv, .mv2 = mv2, .rv = rv, .rv2 = rv2, .chk = chk};
            pala_integrator_end_general(w, k, k + 1, A, mask, &f1);
            pdiss += f1.pdiss; mv = f1.mv; mv2 = f1.mv2; rv = f1.rv; rv2 = f1.rv2; chk = f1.chk;   /* kick_general's sum from 0: 0 + p_k = p_k */
            continue;
        }
        const pala_template *t = &w->tmpl[w->tid[k]];
        pala_vec3 an = pala_vscale(wk->invm[w->tid[k]], a->F);                 /* eq. (61) */
        pala_vec3 be = pala_vscale(t->inv_inertia[t->isotropic - 1], a->T);    /* eq. (62) */
        if (wk->dissipative) {   /* as kick_general */
            pala_vec3 vm = pala_vaxpy(v0, tau, pala_vsub(an, w->acc[k]));
            pala_vec3 om = pala_vaxpy(w0, tau, pala_vsub(be, w->bacc[k]));
            pdiss += pala_vdot(a->Fnc, vm) + pala_vdot(wk->tsep ? a->Tnc : a->T, om);
        }
        /* eq. (68) */
        double vx = v0.x + tau * (2 * an.x - w->acc[k].x), vy = v0.y + tau * (2 * an.y - w->acc[k].y);
        double om = w0.z + tau * (2 * be.z - w->bacc[k].z);
        double x = w->x[k].x, y = w->x[k].y, g = w->r[k].z;
        /* an arc grain's share of the list's skin: 1/f_k of its bound (neighbor.c, "Skins of their
         * own"), folded into h^2 and s_max once per grain, not per half step */
        const double gk = arcs && t->ncomp > 1 ? G[k] : 1, hg2 = h2 * (gk * gk), sm = t->ncomp > 1 ? 2 * wk->smax[w->tid[k]] * gk : 0;
        for (int half = 0; half < 1 + chain; half++) {   /* eq. (69), and when chained the next step's (65) */
            x += tau * vx;
            y += tau * vy;
            double az = 0.5 * tau * (om + om);
            const double th2 = az * az;
            double q = (th2 < 0.01 ? pala_rot_exp_series(th2) : tan(0.5 * sqrt(th2)) / sqrt(th2)) * az;   /* pala_rot_exp */
            double den = 1.0 - q * g;                                                 /* pala_rot_compose */
            if (fabs(den) < 1e-12) den = den < 0 ? -1e-12 : 1e-12;
            g = 1.0 / den * (q + g);
            double d2 = hg2 * (vx * vx + vy * vy);                                   /* pala_free_motion_h */
            double dx = vx - u.x, dy = vy - u.y, dz = 0 - u.z, e2 = hg2 * (dx * dx + dy * dy + dz * dz);   /* ... in the list's frame */
            if (t->ncomp > 1) {
                double s = sqrt(q * q) * sm, d = sqrt(d2) + s, e = sqrt(e2) + s;
                d2 = d * d;
                e2 = e * e;
            }
            if (half == 0) {
                mv = d2 > mv ? d2 : mv;
                rv = e2 > rv ? e2 : rv;
                chk += 0.0 * (x + y + g);   /* pala_grain_check's NaN (its zeros would only make -0 +0) */
            } else {
                mv2 = d2 > mv2 ? d2 : mv2;
                rv2 = e2 > rv2 ? e2 : rv2;
                vx += tau * an.x;                                                      /* eq. (66) */
                vy += tau * an.y;
                om += tau * be.z;
            }
        }
        w->x[k] = pala_v(x, y, 0);
        w->v[k] = pala_v(vx, vy, 0);
        w->w[k] = pala_v(0, 0, om);
        w->r[k] = pala_v(0, 0, g);
        w->acc[k] = pala_v(an.x, an.y, 0);
        w->bacc[k] = pala_v(0, 0, be.z);
        if (chain && w->pc && (!arcs || !wk->live || wk->live[k])) {   /* arcs: the grains read (work.h) */
            if (arcs && t->ncomp > 1) pala_world_place_arcs(w, k, x, y, g);   /* x = (x, y, 0), r = (0, 0, g): its placement without the checks */
            else pala_world_place_pebbles(w, k);
        }
    }
    fa->pdiss += pdiss;
    fa->mv = mv;
    fa->mv2 = mv2;
    fa->rv = rv;
    fa->rv2 = rv2;
    fa->chk = chk;
}

/* end_planar_ of an arc world (its skins and placement), or of discs and other grains (the
 * same steps without them: their code as it was before there were arcs, kept apart). */
__attribute__((noinline)) static void end_planar_arcs(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    end_planar_(w, k0, k1, A, mask, fa, 1);
}
static void end_planar(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    if (w->parc && w->nl && w->nl->gk) end_planar_arcs(w, k0, k1, A, mask, fa);   /* else no list built yet: every grain placed, bounds whole */
    else end_planar_(w, k0, k1, A, mask, fa, 0);
}

/* A block not of one isotropic template: of isotropic grains of several (btid -2: spheres of a
 * size distribution) in 3D, or any.  Not inlined into pala_integrator_end_block, whose path
 * for one isotropic template stays as short as it was before there were several. */
__attribute__((noinline)) static void end_other(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_grain_forces *gf = w->forces;
    const int tid = w->work->btid[k0 / PALA_BLOCK], plain = !(gf->ext && (gf->tc_any || w->field->lorentz));
    if (w->dim == 3 && tid == -2 && plain)
        pala_integrator_end_mixed(w, k0, k1, A, mask, fa);
    else if (w->dim == 2 && (tid == -2 || (tid >= 0 && w->tmpl[tid].isotropic)) && plain)
        end_planar(w, k0, k1, A, mask, fa);
    else
        pala_integrator_end_general(w, k0, k1, A, mask, fa);
}

void pala_integrator_end_block(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_grain_forces *gf = w->forces;
    int tid = w->work->btid[k0 / PALA_BLOCK];
    if (w->dim == 3 && tid >= 0 && w->tmpl[tid].isotropic && !(gf->ext && (gf->tc_any || w->field->lorentz)))
        pala_integrator_end_isotropic(w, k0, k1, A, mask, tid, fa);
    else
        end_other(w, k0, k1, A, mask, fa);
}

void pala_integrator_start(void *ctx, int t, int b0, int b1)
{
    pala_world *w = ctx;
    (void)t;
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
        double mv = 0, rv = 0, e;
        for (int k = k0; k < k1; k++) {
            double d2 = pala_grain_start_step(w, k, &e);                      /* eqs. (65)-(66) */
            if (d2 > mv) mv = d2;
            if (e > rv) rv = e;
        }
        w->work->bs[b].move = mv;
        w->work->bs[b].rmove = rv;
        if (w->dim != 2) continue;
        int flat = 1;   /* end_planar's premise: every component off the plane is zero */
        for (int k = k0; k < k1; k++)
            flat &= w->x[k].z == 0 && w->v[k].z == 0 && w->acc[k].z == 0 && w->w[k].x == 0 && w->w[k].y == 0 && w->bacc[k].x == 0 &&
                    w->bacc[k].y == 0 && w->r[k].x == 0 && w->r[k].y == 0;
        w->work->flat[b] = (unsigned char)flat;
    }
}

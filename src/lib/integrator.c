/* integrator.c: the direct-midpoint step for many grains, paper sections 6-7
 * (eqs. 59-69; docs/physics.md, "The integrator"): the free rotation, and the end of the
 * step of a block of grains.  Exactly one force evaluation per step (step.c). */
#include "integrator.h"
#include "field.h"
#include "grain.h"
#include "grain_forces.h"
#include "vec4.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

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

/* The end of the step of a block of isotropic grains in 3D (spheres, symmetric clumps): the
 * kick (eqs. 61, 62, 68), the free motion (69) and, when chained, the next step's (65)-(66),
 * four grains at a time in vectors of four doubles (GCC's and clang's vector extensions;
 * without vector instructions the compiler splits them).  The operations of kick_general,
 * pala_grain_end_drift and pala_grain_start_step, in the same order, so the same bits:
 * every operation on a lane is the scalar one.  Four grains' 3-vectors are three vectors as
 * they lie in memory (x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3): the kick, component by
 * component, works on them as they are; the turns and the bounds, which mix the components
 * of a grain, on their transpose (x0 x1 x2 x3 | y.. | z..), six shuffles each way.  Both
 * free motions turn by the same exp(tau omega) (omega is constant in an isotropic free
 * motion, and the kick comes before them), computed once, and move by the same bound.
 * docs/performance.md, "The drum against LAMMPS" (session 18). */
/* Three vectors as in memory (x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3) to x, y, z of four
 * grains, and back. */
static inline void soa3(const v4d m[3], v4d c[3])
{
    v4d a = SHUF(m[0], m[1], 0, 1, 6, 7), b = SHUF(m[0], m[2], 2, 3, 4, 5), d = SHUF(m[1], m[2], 0, 1, 6, 7);
    c[0] = SHUF(a, b, 0, 5, 2, 7);
    c[1] = SHUF(a, d, 1, 4, 3, 6);
    c[2] = SHUF(b, d, 0, 5, 2, 7);
}
static inline void aos3(const v4d c[3], v4d m[3])
{
    v4d a = SHUF(c[0], c[1], 0, 4, 2, 6), b = SHUF(c[2], c[0], 0, 5, 2, 7), d = SHUF(c[1], c[2], 1, 5, 3, 7);
    m[0] = SHUF(a, b, 0, 1, 4, 5);
    m[1] = SHUF(d, a, 0, 1, 6, 7);
    m[2] = SHUF(b, d, 2, 3, 6, 7);
}

/* The 3-vector at offset o (F 0, T 3, Fnc 6, Tnc 9 doubles) of four consecutive force
 * records, as three vectors as in memory: two overlapping loads within the four records and
 * a blend for each. */
static inline void rec3(const double *p, int o, v4d m[3])
{
    _Static_assert(sizeof(pala_facc) == 12 * sizeof(double), "pala_facc is four pala_vec3, unpadded");
    m[0] = SHUF(ld4(p + o), ld4(p + o + 9), 0, 1, 2, 7);
    m[1] = SHUF(ld4(p + o + 13), ld4(p + o + 22), 0, 1, 6, 7);
    m[2] = SHUF(ld4(p + o + 26), ld4(p + o + 35), 0, 5, 6, 7);
}

/* x . y of four grains (pala_vdot's order) */
static inline v4d dot4(const v4d x[3], const v4d y[3]) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; }

/* q o r, eq. (7), of four grains as pala_rot_compose, the guard included. */
static inline void compose4(const v4d q[3], v4d r[3])
{
    const v4d eps = bc4(1e-12), neg0 = bc4(-0.0);
    v4d den = 1.0 - dot4(q, r);
    v4l tiny = (v4l)((v4d)((v4l)den & ~(v4l)neg0) < eps);            /* fabs(den) < eps */
    den = sel4(tiny, (v4d)(((v4l)den & (v4l)neg0) | (v4l)eps), den);  /* den < 0 ? -eps : eps (den is never -0) */
    v4d c[3] = {q[1] * r[2] - q[2] * r[1], q[2] * r[0] - q[0] * r[2], q[0] * r[1] - q[1] * r[0]};
    v4d s = 1.0 / den;
    for (int j = 0; j < 3; j++) r[j] = s * ((q[j] + r[j]) + c[j]);
}

/* What a group of four grains adds to its block's sums: the power of the non-conservative
 * forces (grain by grain, in order), and in a world of spheres only the largest bounds and
 * the check, lane by lane (a largest value and a NaN do not depend on the order). */
typedef struct quad_acc { v4d mv, rv, chk; double pdiss; } quad_acc;
/* ... and with grains of several pebbles, each grain's squared displacement bound (eq. 69,
 * the same for the chained eq. 65), the same in the list's frame, |q|^2 and
 * pala_grain_check's sum, for lane_bounds */
typedef struct quad_out { v4d d2, dr, qn, chk; } quad_out;

/* Grains of records rec, state X, R, V, W, AC, BA (four grains each, as in memory; nv of
 * them real, the rest zeros), 1/m im and 1/I ii of each: the kick, then the free motions,
 * unless a grain turns by 0.1 rad or more in a half step (|h|^2 >= 0.01, pala_rot_exp's
 * series; or a NaN): then it returns 1 having changed nothing, and the caller takes
 * quad_kick and the general free motion.  kick: the kick alone (quad_kick).  The order of
 * the work keeps few vectors live at once (16 registers): the turn first, then the kick of
 * omega, of v, the free motion of x, of r. */
static inline __attribute__((always_inline)) int quad(const double *rec, double *X, double *R, double *V, double *W, double *AC, double *BA,
                                                      const v4d *im, const v4d *ii, double tau, pala_vec3 u, const int one, const int diss, const int spheres,
                                                      const int chain, const int so, const int nv, const int kick, quad_acc *acc, quad_out *o,
                                                      const int norot)
{
    v4d IM[3], II[3], T[3], H[3] = {0}, be[3], om[3], PT[3] = {0}, PF[3] = {0}, w3[3], a[3], q[3] = {0};   /* H, PT, PF: set when diss; q stays 0 with norot (a sphere turns no pebble) */
    if (one)
        for (int j = 0; j < 3; j++) IM[j] = *im, II[j] = *ii;
    else {
        IM[0] = SHUF(*im, *im, 0, 0, 0, 1), IM[1] = SHUF(*im, *im, 1, 1, 2, 2), IM[2] = SHUF(*im, *im, 2, 3, 3, 3);
        II[0] = SHUF(*ii, *ii, 0, 0, 0, 1), II[1] = SHUF(*ii, *ii, 1, 1, 2, 2), II[2] = SHUF(*ii, *ii, 2, 3, 3, 3);
    }
    rec3(rec, 3, T);
    if (diss && !spheres) rec3(rec, 9, H);   /* the non-conservative torque of spheres is T itself (force_pass.c) */
    for (int j = 0; j < 3; j++) {   /* component by component, as kick_general */
        v4d wj = ld4(W + 4 * j), ba = ld4(BA + 4 * j);
        be[j] = II[j] * T[j];                                                 /* eq. (62) */
        if (diss) PT[j] = (spheres ? T[j] : H[j]) * (wj + tau * (be[j] - ba));   /* the work over the step, as kick_general */
        om[j] = wj + tau * (2.0 * be[j] - ba);                                /* eq. (68) */
    }
    if (!kick && !norot) {   /* the half turn a = (tau / 2) (om + om) of both free motions and its exp, eq. (14) */
        soa3(om, w3);
        for (int j = 0; j < 3; j++) a[j] = 0.5 * tau * (w3[j] + w3[j]);
        v4d th2 = dot4(a, a);
        v4l small = (v4l)(th2 < bc4(0.01));
        if (!(small[0] & small[1] & small[2] & small[3])) return 1;
        v4d x2 = 0.25 * th2;   /* pala_rot_exp_series */
        v4d f = 0.5 * (1.0 + x2 * (1.0 / 3.0 + x2 * (2.0 / 15.0 + x2 * (17.0 / 315.0 + x2 * (62.0 / 2835.0)))));
        for (int j = 0; j < 3; j++) q[j] = f * a[j];
    }
    for (int j = 0; j < 3; j++) {
        st4(BA + 4 * j, be[j]);
        st4(W + 4 * j, chain && !kick ? om[j] + tau * be[j] : om[j]);         /* and eq. (66) of the next step */
    }
    v4d F[3], G[3] = {0}, v[3], v3[3];
    rec3(rec, 0, F);
    if (diss) rec3(rec, 6, G);
    for (int j = 0; j < 3; j++) {
        v4d vj = ld4(V + 4 * j), ac = ld4(AC + 4 * j);
        v4d an = IM[j] * F[j];                                                /* eq. (61) */
        if (diss) PF[j] = G[j] * (vj + tau * (an - ac));
        v[j] = vj + tau * (2.0 * an - ac);                                    /* eq. (68) */
        st4(AC + 4 * j, an);
        st4(V + 4 * j, chain && !kick ? v[j] + tau * an : v[j]);
    }
    if (diss) {   /* each grain's (pf_x + pf_y + pf_z) + (pt_x + pt_y + pt_z), in grain order */
        v4d pf[3], pt[3];
        soa3(PF, pf);
        soa3(PT, pt);
        v4d p = (pf[0] + pf[1] + pf[2]) + (pt[0] + pt[1] + pt[2]);
        for (int j = 0; j < nv; j++) acc->pdiss = acc->pdiss + p[j];
    }
    if (kick) return 0;
    /* eq. (69) and, chained, the next step's (65); x component by component */
    v4d x[3], xm[3];
    for (int j = 0; j < 3; j++) xm[j] = ld4(X + 4 * j) + tau * v[j];
    soa3(xm, x);
    v4d sum = x[0] + x[1] + x[2];   /* pala_grain_check's, continued below */
    for (int j = 0; j < 3; j++) st4(X + 4 * j, chain ? xm[j] + tau * v[j] : xm[j]);
    soa3(v, v3);
    const double h2 = tau * tau;
    v4d d2 = h2 * dot4(v3, v3);                                               /* pala_free_motion_h */
    v4d vu[3] = {v3[0] - u.x, v3[1] - u.y, v3[2] - u.z};
    v4d dr = h2 * dot4(vu, vu);
    v4d chk;
    if (norot) {   /* sphere_orientation = fixed: r stays; pala_grain_check's NaN from omega in its place */
        soa3(om, w3);
        chk = 0.0 * (sum + w3[0] + w3[1] + w3[2]);
    } else {
        v4d r[3], rm[3] = {ld4(R), ld4(R + 4), ld4(R + 8)};
        soa3(rm, r);
        compose4(q, r);
        chk = 0.0 * (sum + r[0] + r[1] + r[2]);
        if (chain) compose4(q, r);
        aos3(r, rm);
        for (int j = 0; j < 3; j++) st4(R + 4 * j, rm[j]);
    }
    if (so) {
        v4l ok = (v4l)(nv == 4 ? bc4(-0.0) == bc4(0.0) : (v4d){0, 1, 2, 3} < bc4(nv));   /* the real lanes */
        acc->mv = sel4(ok & (v4l)(d2 > acc->mv), d2, acc->mv);
        acc->rv = sel4(ok & (v4l)(dr > acc->rv), dr, acc->rv);
        acc->chk += chk;   /* zeros in the lanes of no grain */
    } else {
        o->d2 = d2, o->dr = dr, o->qn = dot4(q, q), o->chk = chk;
    }
    return 0;
}

/* The running bounds and check of a block's end of step (pala_finish's but for pdiss). */
typedef struct bounds { double mv, rv, mv2, rv2, chk; } bounds;

/* The lanes' largest bounds and check joined to the running ones b, into fa (a largest value
 * and a NaN do not depend on the order). */
static inline void lanes_into(v4d mv, v4d rv, v4d chk, int chain, bounds *b, pala_finish *fa)
{
    for (int j = 0; j < 4; j++) {
        b->mv = mv[j] > b->mv ? mv[j] : b->mv;
        b->rv = rv[j] > b->rv ? rv[j] : b->rv;
        if (chain) {
            b->mv2 = mv[j] > b->mv2 ? mv[j] : b->mv2;
            b->rv2 = rv[j] > b->rv2 ? rv[j] : b->rv2;
        }
        b->chk += chk[j];
    }
    fa->mv = b->mv, fa->rv = b->rv, fa->mv2 = b->mv2, fa->rv2 = b->rv2, fa->chk = b->chk;
}

/* Spheres with skins of their own (neighbor.c, sphere_skins): a group's bounds (quad's o) over
 * f_k, g2 = 1/f_k^2 lane by lane (0 in a lane of no grain), into the running ones. */
static inline void sk_bounds(quad_acc *acc, const quad_out *o, v4d g2)
{
    v4d d2 = o->d2 * g2, dr = o->dr * g2;
    acc->mv = sel4((v4l)(d2 > acc->mv), d2, acc->mv);
    acc->rv = sel4((v4l)(dr > acc->rv), dr, acc->rv);
    acc->chk += o->chk;
}

/* Lane j of a group of four that moved (quad): grain k's bounds, with the turn of its pebbles
 * when it has more than one (pala_free_motion_h). */
static inline void lane_bounds(const pala_world *w, int k, const quad_out *o, int j, const int chain, bounds *b)
{
    double d = o->d2[j], e = o->dr[j];
    if (w->tmpl[w->tid[k]].ncomp > 1) {
        double s = 2 * sqrt(o->qn[j]) * w->work->smax[w->tid[k]];
        d = sqrt(d) + s;
        d = d * d;
        e = sqrt(e) + s;
        e = e * e;
    }
    b->mv = d > b->mv ? d : b->mv;
    b->rv = e > b->rv ? e : b->rv;
    if (chain) {
        b->mv2 = d > b->mv2 ? d : b->mv2;
        b->rv2 = e > b->rv2 ? e : b->rv2;
    }
    b->chk += o->chk[j];
}

/* The kick of a group that turns too far for quad's free motions (rare); returns pdiss with
 * the group's power added. */
__attribute__((noinline, cold)) static double quad_kick(const double *rec, double *V, double *W, double *AC, double *BA, const v4d *im,
                                                       const v4d *ii, double tau, int one, int diss, int spheres, int nv, double pdiss)
{
    quad_acc acc = {.pdiss = pdiss};
    quad(rec, NULL, NULL, V, W, AC, BA, im, ii, tau, pala_v(0, 0, 0), one, diss, spheres, 0, 0, nv, 1, &acc, NULL, 0);
    return acc.pdiss;
}

/* The general free motions of grains [k, k + nv), which quad_kick kicked. */
static void quad_general(pala_world *w, int k, int nv, bounds *b)
{
    pala_finish f = {.mv = b->mv, .rv = b->rv, .mv2 = b->mv2, .rv2 = b->rv2, .chk = b->chk};
    drift_general(w, k, k + nv, &f);
    *b = (bounds){.mv = f.mv, .rv = f.rv, .mv2 = f.mv2, .rv2 = f.rv2, .chk = f.chk};
}

/* 1/m and 1/I of grains k..k+nv-1 of several templates */
static inline void quad_inv(const pala_world *w, int k, int nv, v4d *im, v4d *ii)
{
    for (int j = 0; j < nv; j++) (*im)[j] = w->work->invm[w->tid[k + j]], (*ii)[j] = w->work->invi[w->tid[k + j]];
}

/* The last one to three grains k.. of a block (rec: their records), in a group of four padded
 * with zeros; one instance for all the variants of end_isotropic_block. */
__attribute__((noinline)) static void end_tail(pala_world *w, int k, int nv, const double *rec0, const v4d *im1, const v4d *ii1, int one, int diss, int spheres,
                                               int chain, quad_acc *acc, bounds *b, const double *G)
{
    const int so = w->work->spheres_only;
    const double tau = 0.5 * w->dt;
    double rec[48] = {0}, st[6][12] = {{0}};
    double *s[6] = {&w->x[k].x, &w->r[k].x, &w->v[k].x, &w->w[k].x, &w->acc[k].x, &w->bacc[k].x};
    memcpy(rec, rec0, (size_t)nv * sizeof(pala_facc));
    for (int j = 0; j < 6; j++) memcpy(st[j], s[j], (size_t)nv * sizeof(pala_vec3));
    v4d im = *im1, ii = *ii1;
    if (!one) im = ii = bc4(0), quad_inv(w, k, nv, &im, &ii);
    quad_out o;
    int big = quad(rec, st[0], st[1], st[2], st[3], st[4], st[5], &im, &ii, tau, pala_list_frame(w), one, diss, spheres, chain, so && !G, nv, 0, acc, &o,
                   w->sphere_orientation == PALA_SPHERES_FIXED);
    if (big) acc->pdiss = quad_kick(rec, st[2], st[3], st[4], st[5], &im, &ii, tau, one, diss, spheres, nv, acc->pdiss);
    for (int j = 0; j < 6; j++) memcpy(s[j], st[j], (size_t)nv * sizeof(pala_vec3));
    if (big) quad_general(w, k, nv, b);   /* the whole bounds: larger than over f_k, so the list holds */
    else if (G) {   /* spheres with skins of their own (G: their 1/f_k) */
        v4d g2 = bc4(0);
        for (int j = 0; j < nv; j++) g2[j] = G[j] * G[j];
        sk_bounds(acc, &o, g2);
    } else if (!so)
        for (int j = 0; j < nv; j++) lane_bounds(w, k + j, &o, j, chain, b);
}

/* one: the grains are of template tid, else (several templates, a size distribution's
 * spheres) each grain's 1/m and 1/I (eq. 62: I_r^-1 = 1/I exactly, isotropic = 1 in 3D). */
static inline __attribute__((always_inline)) void end_isotropic_block(pala_world *w, int k0, int k1, const pala_facc *A, long mask, int tid, const int one,
                                                                      const int spheres, const int chain, const int diss, pala_finish *fa, const int sk)
{
    const pala_work *wk = w->work;
    const int so = wk->spheres_only, m = k1 - k0, norot = w->sphere_orientation == PALA_SPHERES_FIXED;
    const double tau = 0.5 * w->dt;
    const pala_vec3 u = pala_list_frame(w);
    const double *Ab = &A[k0 & mask].F.x;   /* a block never wraps around the ring */
    double *X = &w->x[k0].x, *R = &w->r[k0].x, *V = &w->v[k0].x, *W = &w->w[k0].x, *AC = &w->acc[k0].x, *BA = &w->bacc[k0].x;
    /* The next block's state, fetched while this one is processed: at sizes beyond the
     * cache the hardware prefetcher alone leaves the start of each block's end waiting on
     * memory (1e6 spheres: 1.14x; no change in cache; docs/performance.md).  Not past the
     * thread's own grains (fa->kend): the next thread writes those, and a line fetched here
     * goes back to it at its next write (the drum on two threads: docs/performance.md). */
    const int np = fa->kend - k1 < PALA_BLOCK ? fa->kend - k1 : PALA_BLOCK;
    const size_t nb = 3 * (size_t)m;   /* the next block's first component */
    bounds b = {.mv = fa->mv, .rv = fa->rv, .mv2 = fa->mv2, .rv2 = fa->rv2, .chk = fa->chk};
    const v4d zero = bc4(0);
    quad_acc acc = {zero, zero, zero, 0};
    quad_out o;
    v4d im = zero, ii = zero;
    const double *G = sk ? w->nl->gk + k0 : NULL;   /* sk: spheres' 1/f_k (neighbor.c, sphere_skins) */
    if (one) im = bc4(wk->invm[tid]), ii = bc4(w->tmpl[tid].inv_inertia[0]);
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        const size_t c = 3 * (size_t)i;   /* the group's first component */
        if (i < np) {   /* grains i..i+3: bytes 24 i to 24 i + 95, two lines at most */
            double *base[6] = {X, R, V, W, AC, BA};
            for (int j = 0; j < 6; j++) {
                __builtin_prefetch(base[j] + nb + c);
                __builtin_prefetch(base[j] + nb + c + 8);
            }
        }
        if (!one) quad_inv(w, k0 + i, 4, &im, &ii);
        if (quad(Ab + 4 * c, X + c, R + c, V + c, W + c, AC + c, BA + c, &im, &ii, tau, u, one, diss, spheres, chain, so && !sk, 4, 0, &acc, &o, norot)) {
            acc.pdiss = quad_kick(Ab + 4 * c, V + c, W + c, AC + c, BA + c, &im, &ii, tau, one, diss, spheres, 4, acc.pdiss);
            quad_general(w, k0 + i, 4, &b);
        } else if (sk) {
            v4d g = ld4(G + i);
            sk_bounds(&acc, &o, g * g);
        } else if (!so)
            for (int j = 0; j < 4; j++) lane_bounds(w, k0 + i + j, &o, j, chain, &b);
    }
    if (i < m) end_tail(w, k0 + i, m - i, Ab + 12 * (size_t)i, &im, &ii, one, diss, spheres, chain, &acc, &b, G ? G + i : NULL);
    fa->pdiss += acc.pdiss;
    lanes_into(acc.mv, acc.rv, acc.chk, chain, &b, fa);
    if (chain && w->pc)
        for (int k = k0; k < k1; k++) pala_world_place_pebbles(w, k);
}

/* The ends of step whose bounds go over f_k: of a world of spheres with skins of their own
 * (neighbor.c, sphere_skins). */
static inline int skins(const pala_world *w) { return w->work->spheres_only && w->nl && w->nl->sk; }

/* Those ends, of template tid or of several (tid < 0): the chained dissipative ones with
 * their flags known, then any; apart, so that the other paths keep their code as it was. */
__attribute__((noinline)) static void end_isotropic_sk(pala_world *w, int k0, int k1, const pala_facc *A, long mask, int tid, pala_finish *fa)
{
    const pala_work *wk = w->work;
    if (!(wk->chain && wk->dissipative)) {
        if (tid >= 0) end_isotropic_block(w, k0, k1, A, mask, tid, 1, !wk->tsep, wk->chain, wk->dissipative, fa, 1);
        else end_isotropic_block(w, k0, k1, A, mask, tid, 0, !wk->tsep, wk->chain, wk->dissipative, fa, 1);
    } else if (tid >= 0 && !wk->tsep) end_isotropic_block(w, k0, k1, A, mask, tid, 1, 1, 1, 1, fa, 1);
    else if (tid >= 0) end_isotropic_block(w, k0, k1, A, mask, tid, 1, 0, 1, 1, fa, 1);
    else if (!wk->tsep) end_isotropic_block(w, k0, k1, A, mask, tid, 0, 1, 1, 1, fa, 1);
    else end_isotropic_block(w, k0, k1, A, mask, tid, 0, 0, 1, 1, fa, 1);
}

static inline __attribute__((always_inline)) void end_isotropic(pala_world *w, int k0, int k1, pala_facc *A, long mask, int tid, const int one,
                                 pala_finish *fa)
{
    /* the usual cases with their flags known to the compiler: chained and dissipative (a run
     * between outputs), spheres without or with springs (wk->tsep); then any (its bounds
     * whole, which the spheres with skins of their own do not take: end_isotropic_sk) */
    const pala_work *wk = w->work;
    if (wk->chain && wk->dissipative && !wk->tsep) end_isotropic_block(w, k0, k1, A, mask, tid, one, 1, 1, 1, fa, 0);
    else if (wk->chain && wk->dissipative) end_isotropic_block(w, k0, k1, A, mask, tid, one, 0, 1, 1, fa, 0);
    else end_isotropic_block(w, k0, k1, A, mask, tid, one, !wk->tsep, wk->chain, wk->dissipative, fa, 0);
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
static inline __attribute__((always_inline)) void end_planar_(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa, const int arcs,
                                                               const int chained)
{
    const pala_work *wk = w->work;
    const double tau = 0.5 * w->dt, h2 = tau * tau;
    const int chain = chained >= 0 ? chained : wk->chain, flat = wk->flat[k0 / PALA_BLOCK];
    const pala_vec3 u = pala_list_frame(w);
    const double *G = arcs || skins(w) ? w->nl->gk : NULL;   /* arc grains' 1/f_k, or discs' (neighbor.c, "Skins of their own") */
    const int turn = w->sphere_orientation != PALA_SPHERES_FIXED;   /* fixed: a disc keeps r */
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
        if (wk->dissipative && arcs) {   /* as kick_general, its terms off the plane left out: */
            /* v_m's z, omega_m's x and y are sums and products of zeros (this grain's state and
             * F_z, T_x, T_y are), so their products with the finite F_nc, T_nc are zeros, and a
             * zero added to a dot product changes at most the sign of a zero result; the sum
             * X + Y then differs at most in a zero's sign, which pdiss + (X + Y) does not see
             * (pdiss, a sum from +0, is never -0) */
            const double vmx = v0.x + tau * (an.x - w->acc[k].x), vmy = v0.y + tau * (an.y - w->acc[k].y);
            const double omz = w0.z + tau * (be.z - w->bacc[k].z);
            pdiss += (a->Fnc.x * vmx + a->Fnc.y * vmy) + (wk->tsep ? a->Tnc.z : a->T.z) * omz;
        } else if (wk->dissipative) {   /* as kick_general */
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
        const double gk = arcs ? (t->ncomp > 1 ? G[k] : 1) : G ? G[k] : 1, hg2 = h2 * (gk * gk), sm = t->ncomp > 1 ? 2 * wk->smax[w->tid[k]] * gk : 0;
        for (int half = 0; half < 1 + chain; half++) {   /* eq. (69), and when chained the next step's (65) */
            x += tau * vx;
            y += tau * vy;
            double az = 0.5 * tau * (om + om);
            const double th2 = az * az;
            double q = (th2 < 0.01 ? pala_rot_exp_series(th2) : tan(0.5 * sqrt(th2)) / sqrt(th2)) * az;   /* pala_rot_exp */
            double den = 1.0 - q * g;                                                 /* pala_rot_compose */
            if (fabs(den) < 1e-12) den = den < 0 ? -1e-12 : 1e-12;
            if (turn) g = 1.0 / den * (q + g);
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
                chk += 0.0 * (x + y + (turn ? g : om));   /* pala_grain_check's NaN (its zeros would only make -0 +0; fixed: omega's) */
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
            if (arcs && t->ncomp > 1) pala_place_arcs(w, t, w->p0[k], x, y, g);   /* x = (x, y, 0), r = (0, 0, g): its placement without the checks */
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
 * same steps without them: their code as it was before there were arcs, kept apart).  An arc
 * world's with chained (wk->chain) known to the compiler: the two half steps unrolled, their
 * selects on half folded, fewer values kept across the loop in memory (settled
 * bench/arcs/triangle.txt: 1,104 -> 997 instructions a grain-step; the same operations, the
 * same bits).  The discs' instance is left as it was. */
__attribute__((noinline)) static void end_planar_arcs(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    if (w->work->chain) end_planar_(w, k0, k1, A, mask, fa, 1, 1);
    else end_planar_(w, k0, k1, A, mask, fa, 1, 0);
}

/* ---- discs and arc grains: end_planar_ four grains at a time ---------------------------- */
/* Lanes of four records' (stride 12 doubles: pala_facc) or states' (3: pala_vec3) double at p. */
static inline v4d gat4(const double *p, int stride) { return (v4d){p[0], p[stride], p[2 * stride], p[3 * stride]}; }

/* Four 3-vectors of components a, b, c (lane j: grain j) into memory at p. */
static inline void put3(double *p, v4d a, v4d b, v4d c)
{
    const v4d v[3] = {a, b, c};
    v4d m[3];
    aos3(v, m);
    for (int j = 0; j < 3; j++) st4(p + 4 * j, m[j]);
}

/* r o q of a turn about z, lane by lane, as end_planar_: the scalar of eq. (7) with its guard
 * (compose4's, den never -0). */
static inline v4d compose_z(v4d q, v4d g)
{
    const v4d eps = bc4(1e-12), neg0 = bc4(-0.0);
    v4d den = 1.0 - q * g;
    v4l tiny = (v4l)((v4d)((v4l)den & ~(v4l)neg0) < eps);
    den = sel4(tiny, (v4d)(((v4l)den & (v4l)neg0) | (v4l)eps), den);
    return 1.0 / den * (q + g);
}

/* The running sums of a flat block: the power in grain order, the largest bounds and the
 * check lane by lane (a largest value and a NaN do not depend on the order). */
typedef struct planar_acc { double pdiss; v4d mv, rv, chk; } planar_acc;

/* Grains k..k+3 of a flat block, discs (arcs 0; arcs 3: discs with skins of their own, their
 * bounds over f_k), arc grains of a template of several arcs (arcs 1) or planar grains of a
 * template of several spheres (arcs 2; sm2: 2 s_max of the template), records a, 1/m im
 * and 1/I ii: end_planar_'s operations on the components that are not zero, in its order, lane by lane, so the same bits; the power
 * in the plane, as end_planar_arcs's (its comment: the terms off the plane are zeros, which
 * the sum does not see).  Returns 1 having changed nothing when a grain leaves the plane
 * (F_z, T_x or T_y not 0, or a NaN) or turns by 0.1 rad or more in a half step (|a|^2 >=
 * 0.01: pala_rot_exp's tan): the caller takes end_planar_ for the four. */
static inline __attribute__((always_inline)) int quad_planar(pala_world *w, int k, const pala_facc *a, v4d im, v4d ii, double tau,
                                                             pala_vec3 u, const int chain, const int diss, const int tsep, const int arcs,
                                                             double sm2, planar_acc *acc)
{
    const double *f = &a->F.x, *X = &w->x[k].x, *V = &w->v[k].x, *W = &w->w[k].x, *R = &w->r[k].x, *AC = &w->acc[k].x,
                 *BA = &w->bacc[k].x;
    v4l off = (v4l)(gat4(f + 2, 12) != 0.0) | (v4l)(gat4(f + 3, 12) != 0.0) | (v4l)(gat4(f + 4, 12) != 0.0);
    v4d Tz = gat4(f + 5, 12), w0 = gat4(W + 2, 3), bz = gat4(BA + 2, 3);
    v4d be = ii * Tz;                                                         /* eq. (62) */
    v4d om = w0 + tau * (2.0 * be - bz);                                      /* eq. (68) */
    v4d az = 0.5 * tau * (om + om), th2 = az * az;   /* the half turn of both free motions: om is the same */
    v4l small = (v4l)(th2 < 0.01);
    if ((off[0] | off[1] | off[2] | off[3]) || !(small[0] & small[1] & small[2] & small[3])) return 1;
    v4d x2 = 0.25 * th2;   /* pala_rot_exp_series */
    v4d q = 0.5 * (1.0 + x2 * (1.0 / 3.0 + x2 * (2.0 / 15.0 + x2 * (17.0 / 315.0 + x2 * (62.0 / 2835.0))))) * az;
    v4d anx = im * gat4(f, 12), any = im * gat4(f + 1, 12);                  /* eq. (61) */
    v4d v0x = gat4(V, 3), v0y = gat4(V + 1, 3), acx = gat4(AC, 3), acy = gat4(AC + 1, 3);
    if (diss) {
        v4d vmx = v0x + tau * (anx - acx), vmy = v0y + tau * (any - acy), omz = w0 + tau * (be - bz);
        v4d p = (gat4(f + 6, 12) * vmx + gat4(f + 7, 12) * vmy) + (tsep ? gat4(f + 11, 12) : Tz) * omz;
        for (int j = 0; j < 4; j++) acc->pdiss = acc->pdiss + p[j];
    }
    v4d vx = v0x + tau * (2.0 * anx - acx), vy = v0y + tau * (2.0 * any - acy);   /* eq. (68) */
    v4d x = gat4(X, 3) + tau * vx, y = gat4(X + 1, 3) + tau * vy;           /* eq. (69) */
    const int turn = w->sphere_orientation != PALA_SPHERES_FIXED;   /* fixed: a disc keeps r */
    v4d g = turn ? compose_z(q, gat4(R + 2, 3)) : gat4(R + 2, 3);
    const double h2 = tau * tau, dz = 0 - u.z;
    const int own = arcs == 1 || arcs == 3;   /* an arc grain's or a disc's share of the skin (neighbor.c, "Skins of their own") */
    v4d gk = own ? ld4(w->nl->gk + k) : bc4(1), hg2 = own ? h2 * (gk * gk) : bc4(h2);
    v4d d2 = hg2 * (vx * vx + vy * vy), dx = vx - u.x, dy = vy - u.y;        /* pala_free_motion_h */
    v4d e2 = hg2 * (dx * dx + dy * dy + dz * dz);                             /* ... in the list's frame */
    if (arcs == 1 || arcs == 2) {   /* and the turn of its arcs or spheres (the block's template has several) */
        v4d sm = sm2 * gk, sq = sqrt4(q * q) * sm, d = sqrt4(d2) + sq, e = sqrt4(e2) + sq;
        d2 = d * d;
        e2 = e * e;
    }
    acc->mv = sel4((v4l)(d2 > acc->mv), d2, acc->mv);
    acc->rv = sel4((v4l)(e2 > acc->rv), e2, acc->rv);
    acc->chk += 0.0 * (x + y + (turn ? g : om));   /* pala_grain_check's NaN (fixed: omega's) */
    if (chain) {   /* the next step's (65), then (66): the same turn, the same bounds */
        x = x + tau * vx;
        y = y + tau * vy;
        if (turn) g = compose_z(q, g);
        vx = vx + tau * anx;
        vy = vy + tau * any;
        om = om + tau * be;
    }
    const v4d zero = bc4(0);
    put3(&w->x[k].x, x, y, zero);
    put3(&w->v[k].x, vx, vy, zero);
    put3(&w->w[k].x, zero, zero, om);
    put3(&w->r[k].x, zero, zero, g);
    put3(&w->acc[k].x, anx, any, zero);
    put3(&w->bacc[k].x, zero, zero, be);
    return 0;
}

/* Grains [k, k1) of a flat block through end_planar_ (its general path for a grain off the
 * plane), continuing the block's sums: a grain's power p joins as end_planar_ adds it,
 * pdiss + (0 + p), which is pdiss + p (p = -0 gives +0, and pdiss, a sum from +0, is never
 * -0). */
static inline __attribute__((always_inline)) void planar_scalar_(pala_world *w, int k, int k1, pala_facc *A, long mask, const int chain,
                                                                 const int arcs, planar_acc *acc, bounds *b)
{
    for (; k < k1; k++) {
        pala_finish f1 = {.pdiss = acc->pdiss, .mv = b->mv, .mv2 = b->mv2, .rv = b->rv, .rv2 = b->rv2, .chk = b->chk};
        end_planar_(w, k, k + 1, A, mask, &f1, arcs, chain);
        acc->pdiss = f1.pdiss;
        *b = (bounds){.mv = f1.mv, .rv = f1.rv, .mv2 = f1.mv2, .rv2 = f1.rv2, .chk = f1.chk};
    }
}
/* (apart: inlined into the loop of groups, it cost that loop 12 instructions a grain) */
__attribute__((noinline)) static void planar_scalar(pala_world *w, int k, int k1, pala_facc *A, long mask, int chain, int arcs, planar_acc *acc,
                                                    bounds *b)
{
    if (arcs == 1) planar_scalar_(w, k, k1, A, mask, chain, 1, acc, b);
    else planar_scalar_(w, k, k1, A, mask, chain, 0, acc, b);
}

/* A flat block in 2D of discs (one component each; tid >= 0: all of that template, else each
 * grain's 1/m and 1/I) or of grains of one template of several arcs (arcs 1) or spheres
 * (arcs 2):
 * end_planar_ vectorised across four grains (quad_planar), the same bits, and each grain's
 * arcs placed as end_planar_ places them.  The round discs of bench/arcs/round.txt spent 47 %
 * of their settled steps in end_planar_'s discs' instance, scalar (docs/performance.md, "Arc
 * grains: the seed's Table 1", session 20). */
static inline __attribute__((always_inline)) void end_planar4_(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa,
                                                               const int chain, const int diss, const int tsep, const int arcs)
{
    const pala_work *wk = w->work;
    const int tid = wk->btid[k0 / PALA_BLOCK];
    const double tau = 0.5 * w->dt;
    const pala_vec3 u = pala_list_frame(w);
    const v4d zero = bc4(0);
    planar_acc acc = {0, zero, zero, zero};
    bounds b = {.mv = fa->mv, .rv = fa->rv, .mv2 = fa->mv2, .rv2 = fa->rv2, .chk = fa->chk};
    v4d im = zero, ii = zero;
    if (tid >= 0) im = bc4(wk->invm[tid]), ii = bc4(w->tmpl[tid].inv_inertia[w->tmpl[tid].isotropic - 1]);
    const double sm2 = arcs == 1 || arcs == 2 ? 2 * wk->smax[tid] : 0;
    int k = k0;
    for (; k + 4 <= k1; k += 4) {
        if (tid < 0)
            for (int j = 0; j < 4; j++) im[j] = wk->invm[w->tid[k + j]], ii[j] = wk->invi[w->tid[k + j]];
        if (quad_planar(w, k, &A[k & mask], im, ii, tau, u, chain, diss, tsep, arcs, sm2, &acc))
            planar_scalar(w, k, k + 4, A, mask, chain, arcs, &acc, &b);
        else if (chain && w->pc)
            for (int j = k; j < k + 4; j++) {   /* end_planar_'s placement: an arc world's of the grains read (work.h) */
                if (arcs != 1) pala_world_place_pebbles(w, j);
                else if (!wk->live || wk->live[j]) pala_place_arcs(w, &w->tmpl[tid], w->p0[j], w->x[j].x, w->x[j].y, w->r[j].z);
            }
    }
    planar_scalar(w, k, k1, A, mask, chain, arcs, &acc, &b);
    fa->pdiss += acc.pdiss;
    lanes_into(acc.mv, acc.rv, acc.chk, chain, &b, fa);
}

/* the usual case, a chained dissipative run, with its flags known to the compiler; then any */
__attribute__((noinline)) static void end_discs(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_work *wk = w->work;
    if (wk->chain && wk->dissipative && !wk->tsep) end_planar4_(w, k0, k1, A, mask, fa, 1, 1, 0, 0);
    else if (wk->chain && wk->dissipative) end_planar4_(w, k0, k1, A, mask, fa, 1, 1, 1, 0);
    else end_planar4_(w, k0, k1, A, mask, fa, wk->chain, wk->dissipative, wk->tsep, 0);
}
/* ... of discs with skins of their own (their bounds over f_k; the scalar fallback's whole,
 * which is larger); apart, so that end_discs keeps its code */
__attribute__((noinline)) static void end_discs_sk(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_work *wk = w->work;
    if (wk->chain && wk->dissipative && !wk->tsep) end_planar4_(w, k0, k1, A, mask, fa, 1, 1, 0, 3);
    else if (wk->chain && wk->dissipative) end_planar4_(w, k0, k1, A, mask, fa, 1, 1, 1, 3);
    else end_planar4_(w, k0, k1, A, mask, fa, wk->chain, wk->dissipative, wk->tsep, 3);
}
__attribute__((noinline)) static void end_arcs4(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_work *wk = w->work;
    if (wk->chain && wk->dissipative && !wk->tsep) end_planar4_(w, k0, k1, A, mask, fa, 1, 1, 0, 1);
    else end_planar4_(w, k0, k1, A, mask, fa, wk->chain, wk->dissipative, wk->tsep, 1);
}
__attribute__((noinline)) static void end_clumps4(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_work *wk = w->work;
    if (wk->chain && wk->dissipative && wk->tsep) end_planar4_(w, k0, k1, A, mask, fa, 1, 1, 1, 2);   /* clumps: T_nc apart */
    else end_planar4_(w, k0, k1, A, mask, fa, wk->chain, wk->dissipative, wk->tsep, 2);
}

static void end_planar(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_work *wk = w->work;
    const int tid = wk->btid[k0 / PALA_BLOCK];
    if (w->parc && w->nl && w->nl->gk) {   /* else no list built yet: every grain placed, bounds whole */
        if (wk->flat[k0 / PALA_BLOCK] && tid >= 0 && w->tmpl[tid].ncomp > 1) end_arcs4(w, k0, k1, A, mask, fa);
        else end_planar_arcs(w, k0, k1, A, mask, fa);
    } else if (wk->flat[k0 / PALA_BLOCK] && (tid >= 0 ? w->tmpl[tid].ncomp == 1 : wk->spheres_only)) {
        if (skins(w)) end_discs_sk(w, k0, k1, A, mask, fa);
        else end_discs(w, k0, k1, A, mask, fa);
    }
    else if (wk->flat[k0 / PALA_BLOCK] && tid >= 0) end_clumps4(w, k0, k1, A, mask, fa);
    else end_planar_(w, k0, k1, A, mask, fa, 0, -1);
}

/* A block not of one isotropic template: of isotropic grains of several (btid -2: spheres of a
 * size distribution) in 3D, or any.  Not inlined into pala_integrator_end_block, whose path
 * for one isotropic template stays as short as it was before there were several. */
__attribute__((noinline)) static void end_other(pala_world *w, int k0, int k1, pala_facc *A, long mask, pala_finish *fa)
{
    const pala_grain_forces *gf = w->forces;
    const int tid = w->work->btid[k0 / PALA_BLOCK], plain = !(gf->ext && (gf->tc_any || w->field->lorentz));
    if (w->dim == 3 && tid == -2 && plain && skins(w))
        end_isotropic_sk(w, k0, k1, A, mask, -1, fa);
    else if (w->dim == 3 && tid == -2 && plain)
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
    if (!(w->dim == 3 && tid >= 0 && w->tmpl[tid].isotropic && !(gf->ext && (gf->tc_any || w->field->lorentz))))
        end_other(w, k0, k1, A, mask, fa);
    else if (skins(w))
        end_isotropic_sk(w, k0, k1, A, mask, tid, fa);
    else
        pala_integrator_end_isotropic(w, k0, k1, A, mask, tid, fa);
}

void pala_integrator_start(void *ctx, int t, int b0, int b1)
{
    pala_world *w = ctx;
    (void)t;
    const double *G = skins(w) ? w->nl->gk : NULL;   /* spheres' 1/f_k (neighbor.c, sphere_skins) */
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
        double mv = 0, rv = 0, e;
        for (int k = k0; k < k1; k++) {
            double d2 = pala_grain_start_step(w, k, &e);                      /* eqs. (65)-(66) */
            if (G) d2 *= G[k] * G[k], e *= G[k] * G[k];
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

/* contact.c: the contact kernel (paper sections 4-5, eqs. 48-57) and the force pass
 * over pebble pairs, walls and the field.
 *
 * The pass has two phases, each parallel over fixed blocks of grains:
 *   1. pairs: every touching pebble pair (p, q > p) of the half list is evaluated once,
 *      by the block of p's grain, into a contact record (force, its non-conservative
 *      part, contact point); slotrec maps the list slot to the record;
 *   2. gather: each grain sums, in a fixed order, the field, the records of its own rows,
 *      those of the transposed rows (with the opposite sign: F_ji = -F_ij), and its walls;
 *      then the dissipated power of its non-conservative forces.
 * No grain's sum depends on the number of threads or on when the list was rebuilt, so
 * results are bit-identical for any thread count.  The bounding-sphere test of eq. (48)
 * is applied when the list is built (neighbor.c): no component pair of grains whose
 * bounding spheres are apart is ever listed.
 *
 * Conventions (PHYSICS.md 1.2-1.3): for components c of G and c' of G', n points from
 * G' to G; w is the velocity of G's material at the contact point relative to G':
 *     w = (v + omega x (c_ij - x)) - (v' + omega' x (c_ij - x')),
 * so w.n > 0 means separating: the restitution factor delta scales the Hertz force on
 * unloading, and friction -mu F_n w_t / (nu + |w_t|) opposes G's sliding. */
#include "motion.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Force on G from one touching component and a wall (eqs. 53-57); see the comment at the
 * top.  dv: relative velocity w at the contact point.  n: unit normal towards G.
 * ov: overlap -d > 0.  rt: r~ (eq. 55).  Returns the force, U gets the potential, Fnc the
 * non-conservative part F - F_Hertz n (restitution on unloading and friction), whose work
 * the step integrates into the dissipated energy.  Pairs of components run the same
 * formulas in stages (run_batch below); keep the two in step. */
static inline pala_vec3 hertz_force(const pala_pairmat *pm, pala_vec3 n, double ov, double rt,
                                    pala_vec3 dv, double *U, pala_vec3 *Fnc)
{
    double fh = pm->kE * sqrt(rt * ov) * ov;                /* eq. (57) */
    *U = 0.4 * fh * ov;                                     /* (2/5) k (-d)^{5/2} */
    double wn = pala_vdot(dv, n);                           /* eq. (54) */
    /* eq. (56); a table lookup, not a branch: the sign of w_n of a resting contact is
     * random, and a mispredicted branch would stall the overlapping of contacts */
    const double fac[2] = {1.0, pm->delta};
    double fn = fac[wn > 0] * fh;
    pala_vec3 F = pala_vscale(fn, n);
    *Fnc = pala_vscale(fn - fh, n);
    if (pm->mu > 0) {
        pala_vec3 wt = pala_vaxpy(dv, -wn, n);
        double wtl = pala_vnorm(wt);
        if (wtl > 0) {
            double c = pm->mu * fn / (pm->nu + wtl);        /* eq. (53) */
            F = pala_vaxpy(F, -c, wt);
            *Fnc = pala_vaxpy(*Fnc, -c, wt);
        }
    }
    return F;
}


/* Where a block records the first runaway overlap (the message is written serially). */
typedef struct runaway { double ratio; int i, j; } runaway;

/* Radius of pebble p. */
static inline double peb_radius(const pala_world *w, int p)
{
    if (!w->pg) return w->shape_r[w->tmpl[w->tid[p]].comp0];
    int g = w->pg[p];
    return w->shape_r[w->tmpl[w->tid[g]].comp0 + (p - w->p0[g])];
}

/* beta = I_r^-1 T (eq. 62); for an isotropic grain I_r^-1 = 1/I exactly. */
static inline pala_vec3 ang_acc(const pala_template *t, pala_vec3 r, pala_vec3 T)
{
    return t->isotropic ? pala_vscale(t->inv_inertia[0], T) : pala_rot_diag_apply(r, t->inv_inertia, T);
}

static inline int blk_peb(const pala_world *w, int k) { return w->p0 ? w->p0[k] : k; }

static inline void note_overlap(const pala_world *w, double ov, double amin, int i, int j, pala_blocksum *s, runaway *ru)
{
    if (ov > s->worst * amin) s->worst = ov / amin;
    if (ov > w->max_overlap * amin && !s->bad) { s->bad = 1; ru->ratio = ov / amin; ru->i = i; ru->j = j; }
}

/* One component (centre c, radius a) of grain k against a wall with inward normal n,
 * overlap ov and r~ = rt (PHYSICS.md 2: flat wall r~ = 2a, cavity r~ = 2aR/(R-a)).
 * The contact point is the middle of the overlap, c - (a - ov/2) n: the limit of
 * c_ij in eq. (50) for a sphere of radius r' -> infinity.  Adds to F, T, Fnc, Tnc. */
typedef struct acc6 { pala_vec3 F, T, Fnc, Tnc; double U; } acc6;

static pala_vec3 wall_contact(const pala_world *w, const pala_pairmat *pm, pala_vec3 xk, pala_vec3 vk, pala_vec3 wk,
                              pala_vec3 c, double a, pala_vec3 n, double ov, double rt, acc6 *A)
{
    pala_vec3 cp = pala_vaxpy(c, -(a - 0.5 * ov), n);
    pala_vec3 r = pala_vsub(cp, xk);
    pala_vec3 dv = pala_vadd(vk, pala_vcross(wk, r));
    double u;
    pala_vec3 fnc;
    pala_vec3 F = hertz_force(pm, n, ov, rt, dv, &u, &fnc);
    (void)w;
    A->Fnc = pala_vadd(A->Fnc, fnc);
    A->Tnc = pala_vadd(A->Tnc, pala_vcross(r, fnc));
    A->F = pala_vadd(A->F, F);
    A->T = pala_vadd(A->T, pala_vcross(r, F));
    A->U += u;
    return F;
}

static void walls(const pala_world *w, int k, double dt, acc6 *A, pala_blocksum *s, runaway *ru)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    double R = t->bound_radius;
    pala_vec3 x = w->x[k], vk = w->v[k], wk = w->w[k];
    int p0 = w->p0 ? w->p0[k] : k;
    const double *rad = w->shape_r + t->comp0;
    const pala_pairmat *pm = &w->pm[t->material * w->nmat + w->wall_mat];
    int nax = w->dim == 2 ? 2 : 3;
    if (w->container == PALA_CONTAINER_BOX) {
        const double xs[3] = {x.x, x.y, x.z};
        const double lo[3] = {w->box_lo.x, w->box_lo.y, w->box_lo.z}, hi[3] = {w->box_hi.x, w->box_hi.y, w->box_hi.z};
        for (int ax = 0; ax < nax; ax++) {
            if (xs[ax] - R > lo[ax] && hi[ax] - xs[ax] > R) continue;  /* bounding sphere clear */
            for (int i = 0; i < t->ncomp; i++) {
                pala_vec3 pc = w->pc ? w->pc[p0 + i] : x;
                const double c[3] = {pc.x, pc.y, pc.z};
                for (int side = 0; side < 2; side++) {
                    double dist = side ? hi[ax] - c[ax] : c[ax] - lo[ax];
                    double ov = rad[i] - dist;
                    if (ov <= 0) continue;
                    double nn[3] = {0, 0, 0};
                    nn[ax] = side ? -1 : 1;
                    pala_vec3 F = wall_contact(w, pm, x, vk, wk, pc, rad[i], pala_v(nn[0], nn[1], nn[2]), ov, 2 * rad[i], A);
                    s->imp[2 * ax + side] = pala_vaxpy(s->imp[2 * ax + side], -dt, F);
                    s->nwall++;
                    note_overlap(w, ov, rad[i], k, -1, s, ru);
                }
            }
        }
    } else if (w->container == PALA_CONTAINER_CAVITY) {
        double Rc = w->cav_R;
        if (pala_vnorm(pala_vsub(x, w->cav_c)) + R < Rc) return;
        for (int i = 0; i < t->ncomp; i++) {
            pala_vec3 pc = w->pc ? w->pc[p0 + i] : x;
            pala_vec3 d = pala_vsub(pc, w->cav_c);
            double q = pala_vnorm(d), ov = q + rad[i] - Rc;
            if (ov <= 0 || q == 0) continue;
            pala_vec3 n = pala_vscale(-1.0 / q, d);
            double rt = 2 * rad[i] * Rc / (Rc - rad[i]);             /* H(a, -Rc) */
            pala_vec3 F = wall_contact(w, pm, x, vk, wk, pc, rad[i], n, ov, rt, A);
            s->imp[0] = pala_vaxpy(s->imp[0], -dt, F);
            s->nwall++;
            note_overlap(w, ov, rad[i], k, -1, s, ru);
        }
    }
}

/* Phase 1, eqs. (49)-(50), (53)-(57) for every touching pair of the blocks' rows, once.
 *
 * The touching pairs of a block are collected into batches of structure-of-arrays, and the
 * kernel runs in stages: the square roots and divisions (|c_i - c_j|, its inverse, the
 * Hertz sqrt(r~ (-d)), |w_t| and the friction factor) in loops the compiler vectorises,
 * the rest per contact.  Each operation is the one a contact-by-contact kernel would do,
 * so the results are the same bits; the stages only let independent contacts overlap. */
enum { BATCH = 256 };
typedef struct batch {
    int n;
    int slot[BATCH], k[BATCH], j[BATCH], p[BATCH];
    double dx[BATCH], dy[BATCH], dz[BATCH], d2[BATCH], ai[BATCH], aj[BATCH];
    double dist[BATCH], inv[BATCH], ov[BATCH], sq[BATCH];          /* stage 2 */
    double wt2[BATCH], fn[BATCH], mu[BATCH], nu[BATCH], c[BATCH];  /* stages 3-4 */
    pala_vec3 n_[BATCH], wt[BATCH], cp[BATCH];
    double fh[BATCH];
} batch;

static void run_batch(pala_world *w, int b, batch *B, int *nr, double *U, pala_blocksum *s, runaway *ru)
{
    const pala_vec3 *pc = w->pc, *X = w->x, *V = w->v, *W = w->w;
    pala_work *wk = w->work;
    int *slotrec = w->nl.slotrec;
    const int onemat = w->nmat == 1;
    int m = B->n;
    /* stage 2 (vectorised): distance, its inverse, overlap, sqrt(r~ (-d)) of eq. (57) */
    for (int i = 0; i < m; i++) {
        double sr = B->ai[i] + B->aj[i];
        B->dist[i] = sqrt(B->d2[i]);
        B->inv[i] = 1.0 / B->dist[i];
        B->ov[i] = sr - B->dist[i];
        B->sq[i] = sqrt(2 * B->ai[i] * B->aj[i] / sr * B->ov[i]);
    }
    /* stage 3: normal, contact point, relative velocity, Hertz force, eqs. (50), (54)-(57) */
    for (int i = 0; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        const pala_template *tk = &w->tmpl[w->tid[k]];
        const pala_pairmat *pm = onemat ? w->pm : w->pm + tk->material * w->nmat + w->tmpl[w->tid[j]].material;
        pala_vec3 d = pala_v(B->dx[i], B->dy[i], B->dz[i]);
        pala_vec3 ci = pc ? pc[B->p[i]] : X[k];
        double ov = B->ov[i];
        pala_vec3 n = pala_vscale(B->inv[i], d);                               /* eq. (50) n_ij */
        /* eq. (50) c_ij = (c_i + c_j)/2 + (a_j - a_i)/2 n = c_i - (a_i - ov/2) n */
        pala_vec3 cp = pala_vaxpy(ci, -(B->ai[i] - 0.5 * ov), n);
        pala_vec3 ri = pala_vsub(cp, X[k]), rj = pala_vsub(cp, X[j]);
        pala_vec3 dv = pala_vsub(pala_vadd(V[k], pala_vcross(W[k], ri)), pala_vadd(V[j], pala_vcross(W[j], rj)));
        double fh = pm->kE * B->sq[i] * ov;                                    /* eq. (57) */
        double wn = pala_vdot(dv, n);                                          /* eq. (54) */
        /* eq. (56); a table lookup, not a branch: the sign of w_n of a resting contact is
         * random, and a mispredicted branch would stall the overlapping of contacts */
        const double fac[2] = {1.0, pm->delta};
        B->fn[i] = fac[wn > 0] * fh;
        B->fh[i] = fh;
        B->wt[i] = pala_vaxpy(dv, -wn, n);
        B->wt2[i] = pala_vnorm2(B->wt[i]);
        B->mu[i] = pm->mu;
        B->nu[i] = pm->nu;
        B->n_[i] = n;
        B->cp[i] = cp;
    }
    /* stage 4 (vectorised): friction factor mu F_n / (nu + |w_t|) of eq. (53) */
    for (int i = 0; i < m; i++) B->c[i] = B->mu[i] * B->fn[i] / (B->nu[i] + sqrt(B->wt2[i]));
    /* stage 5: forces into the block's contact records */
    if (*nr + m > wk->caprec[b]) {   /* grows to the largest count seen */
        wk->caprec[b] = 2 * (*nr + m) + 64;
        PALA_GROW(wk->rec[b], wk->caprec[b]);
    }
    pala_crec *R = wk->rec[b];
    for (int i = 0; i < m; i++) {
        pala_vec3 n = B->n_[i];
        double fn = B->fn[i], fh = B->fh[i];
        pala_vec3 F = pala_vscale(fn, n), Fnc = pala_vscale(fn - fh, n);
        if (B->mu[i] > 0 && B->wt2[i] > 0) {                                   /* eq. (53) */
            F = pala_vaxpy(F, -B->c[i], B->wt[i]);
            Fnc = pala_vaxpy(Fnc, -B->c[i], B->wt[i]);
        }
        R[*nr].F = F;
        R[*nr].Fnc = Fnc;
        R[*nr].cp = B->cp[i];
        slotrec[B->slot[i]] = b << wk->recbits | *nr;
        (*nr)++;
        *U += 0.4 * fh * B->ov[i];                                             /* (2/5) k (-d)^{5/2} */
        note_overlap(w, B->ov[i], B->ai[i] < B->aj[i] ? B->ai[i] : B->aj[i], B->k[i], B->j[i], s, ru);
    }
    B->n = 0;
}

static void pairs_blocks(pala_world *w, int b0, int b1)
{
    const pala_vec3 *pc = w->pc, *X = w->x;
    const int *pg = w->pg, *st = w->nl.start, *nb = w->nl.nbr;
    int *slotrec = w->nl.slotrec;
    pala_work *wk = w->work;
    batch B;
    B.n = 0;
    for (int b = b0; b < b1; b++) {
        pala_blocksum s;
        memset(&s, 0, sizeof s);
        runaway ru = {0, 0, -1};
        int k1 = (b + 1) * PALA_BLOCK < w->n ? (b + 1) * PALA_BLOCK : w->n;
        int nr = 0;
        double U = 0;
        for (int k = b * PALA_BLOCK; k < k1; k++) {
            const pala_template *t = &w->tmpl[w->tid[k]];
            int p0 = blk_peb(w, k);
            for (int i = 0; i < t->ncomp; i++) {
                int p = p0 + i;
                pala_vec3 ci = pc ? pc[p] : X[k];
                double ai = w->shape_r[t->comp0 + i];
                /* eq. (49): the touching neighbours join the batch, without a branch */
                for (int qi = st[p]; qi < st[p + 1]; qi++) {
                    int q = nb[qi], m = B.n;
                    pala_vec3 cj = pc ? pc[q] : X[q];
                    pala_vec3 d = pala_vsub(ci, cj);
                    double aj = peb_radius(w, q), sr = ai + aj, d2 = pala_vnorm2(d);
                    slotrec[qi] = -1;
                    B.slot[m] = qi; B.k[m] = k; B.j[m] = pg ? pg[q] : q; B.p[m] = p;
                    B.dx[m] = d.x; B.dy[m] = d.y; B.dz[m] = d.z; B.d2[m] = d2; B.ai[m] = ai; B.aj[m] = aj;
                    B.n += d2 < sr * sr;
                    if (B.n == BATCH) run_batch(w, b, &B, &nr, &U, &s, &ru);
                }
            }
        }
        if (B.n) run_batch(w, b, &B, &nr, &U, &s, &ru);
        if (nr >= 1 << wk->recbits) {   /* cannot happen below 2^31 contacts; never silently */
            fprintf(stderr, "pala: internal limit: %d contacts in one block of %d grains\n", nr, PALA_BLOCK);
            exit(PALA_ERR_IO);
        }
        wk->nrec[b] = nr;
        s.U = U;
        s.ngg = nr;
        s.bad_ratio = ru.ratio; s.bad_i = ru.i; s.bad_j = ru.j;
        w->work->bs[b] = s;
    }
}

static inline const pala_crec *record(const pala_work *wk, int r)
{
    return &wk->rec[r >> wk->recbits][r & ((1 << wk->recbits) - 1)];
}

/* Phase 2 for blocks [b0, b1): each grain sums field, own records, transposed records
 * (negated, eq. 51 with the lever arm from its own centre), walls.  `stepping`: then the
 * dissipated power, wall impulses of a step of w->dt, and the end of the grain's step
 * (integrator.c); otherwise only the energy and the diagnostics. */
static void gather_blocks(pala_world *w, int b0, int b1, int stepping)
{
    const pala_work *wk = w->work;
    const int *st = w->nl.start, *slotrec = w->nl.slotrec, *ts = w->nl.tstart, *tslot = w->nl.tslot;
    double dt = stepping ? w->dt : 0, tau = 0.5 * w->dt;
    int dissipative = stepping && wk->dissipative;
    for (int b = b0; b < b1; b++) {
        pala_blocksum *s = &w->work->bs[b];
        runaway ru = {s->bad_ratio, s->bad_i, s->bad_j};
        int k1 = (b + 1) * PALA_BLOCK < w->n ? (b + 1) * PALA_BLOCK : w->n;
        double pdiss = 0, mv = 0, mv2 = 0;
        int finite = 1, chain = stepping && wk->chain;
        for (int k = b * PALA_BLOCK; k < k1; k++) {
            const pala_template *t = &w->tmpl[w->tid[k]];
            pala_vec3 xk = w->x[k];
            acc6 A;
            A.F = pala_vscale(t->mass, w->g);                              /* homogeneous field */
            A.T = A.Fnc = A.Tnc = pala_v(0, 0, 0);
            A.U = 0;
            int p0 = blk_peb(w, k);
            for (int p = p0; p < p0 + t->ncomp; p++)
                for (int q = st[p]; q < st[p + 1]; q++) {
                    if (slotrec[q] < 0) continue;
                    const pala_crec *c = record(wk, slotrec[q]);
                    pala_vec3 r = pala_vsub(c->cp, xk);
                    A.F = pala_vadd(A.F, c->F);
                    A.T = pala_vadd(A.T, pala_vcross(r, c->F));                 /* eq. (51) */
                    if (dissipative) {
                        A.Fnc = pala_vadd(A.Fnc, c->Fnc);
                        A.Tnc = pala_vadd(A.Tnc, pala_vcross(r, c->Fnc));
                    }
                }
            for (int p = p0; p < p0 + t->ncomp; p++)
                for (int e = ts[p]; e < ts[p + 1]; e++) {
                    int r0 = slotrec[tslot[e]];
                    if (r0 < 0) continue;
                    const pala_crec *c = record(wk, r0);
                    pala_vec3 r = pala_vsub(c->cp, xk);
                    A.F = pala_vsub(A.F, c->F);                                 /* F_ji = -F_ij */
                    A.T = pala_vsub(A.T, pala_vcross(r, c->F));
                    if (dissipative) {
                        A.Fnc = pala_vsub(A.Fnc, c->Fnc);
                        A.Tnc = pala_vsub(A.Tnc, pala_vcross(r, c->Fnc));
                    }
                }
            if (w->container != PALA_CONTAINER_NONE) walls(w, k, dt, &A, s, &ru);
            s->U += A.U;
            if (!stepping) continue;
            pala_vec3 a = pala_vscale(1.0 / t->mass, A.F);                     /* eq. (61) */
            pala_vec3 be = ang_acc(t, w->r[k], A.T);                           /* eq. (62) */
            if (dissipative) {
                /* Work of the non-conservative forces over the step, with the velocities
                 * the positions actually advance by, v + tau alpha_new (the kinetic energy
                 * changes by exactly F . dt (v_n + v_n+1)/2 in this scheme). */
                pala_vec3 vm = pala_vaxpy(w->v[k], tau, pala_vsub(a, w->acc[k]));
                pala_vec3 om = pala_vaxpy(w->w[k], tau, pala_vsub(be, w->bacc[k]));
                pdiss += pala_vdot(A.Fnc, vm) + pala_vdot(A.Tnc, om);
            }
            /* The grain's force is complete and nothing else reads its state in this
             * phase: finish its step now (eqs. 68-69), no force arrays needed. */
            double d2 = pala_grain_finish_step(w, k, a, be, &finite);
            if (d2 > mv) mv = d2;
            if (chain) {
                /* the next step's eqs. (65)-(66) at once, while the grain is in cache:
                 * the same operations in the same order as a separate pass */
                double d2a = pala_grain_start_step(w, k);
                if (d2a > mv2) mv2 = d2a;
            }
        }
        s->pdiss = pdiss;
        s->move = mv;
        s->move2 = mv2;
        s->finite = finite;
        s->bad_ratio = ru.ratio; s->bad_i = ru.i; s->bad_j = ru.j;
    }
}

static void runaway_message(pala_world *w)
{
    for (int b = 0; b < w->work->nblk; b++) {
        const pala_blocksum *o = &w->work->bs[b];
        if (!o->bad) continue;
        int i = o->bad_i, j = o->bad_j;
        double ratio = o->bad_ratio;
        char msg[1024];
        if (!w->why[0]) {
            snprintf(msg, sizeof msg,
                     "runaway overlap at t = %.6g s: %s %d%s%.0d overlap by %.3g of a component radius "
                     "(limit max_overlap = %g). The time step is too large for the impact speed, or "
                     "the material too soft: reduce dt or raise young",
                     w->t, j >= 0 ? "grains" : "wall and grain", i + 1, j >= 0 ? " and " : "", j >= 0 ? j + 1 : 0, ratio, w->max_overlap);
            size_t l = strlen(msg);
            if (l >= sizeof w->why) l = sizeof w->why - 1;
            memcpy(w->why, msg, l);
            w->why[l] = 0;
        }
        return;
    }
}

static void gather_job(pala_world *w, int b0, int b1) { gather_blocks(w, b0, b1, w->work->stepping); }

/* Sum the blocks in order: contact energy, counts, wall impulses, dissipated power. */
static int reduce_forces(pala_world *w, double *U, double *pdiss)
{
    double u = 0, pd = 0, worst = 0;
    long ngg = 0, nwall = 0;
    int bad = 0;
    for (int b = 0; b < w->work->nblk; b++) {
        const pala_blocksum *o = &w->work->bs[b];
        u += o->U; pd += o->pdiss; ngg += o->ngg; nwall += o->nwall;
        if (o->worst > worst) worst = o->worst;
        for (int i = 0; i < 6; i++) w->wall_impulse[i] = pala_vadd(w->wall_impulse[i], o->imp[i]);
        bad |= o->bad != 0;
    }
    if (U) *U += u;
    if (pdiss) *pdiss = pd;
    w->ncontact = ngg + nwall;
    w->worst_overlap = worst;
    if (bad) runaway_message(w);
    return bad;
}

int pala_world_forces_step(pala_world *w, double *pdiss)
{
    pala_nlist_update(w);
    w->work->stepping = 1;
    pala_world_par(w, pairs_blocks);
    /* an unstable pair phase ends the run: do not start another step */
    for (int b = 0; b < w->work->nblk && w->work->chain; b++)
        if (w->work->bs[b].bad) w->work->chain = 0;
    pala_world_par(w, gather_job);
    return reduce_forces(w, NULL, pdiss) ? PALA_UNSTABLE : PALA_OK;
}

int pala_world_forces_ex(pala_world *w, double *U, int stepping)
{
    if (!w->work) pala_work_prepare(w);
    if (w->pc)
        for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    pala_nlist_update(w);
    w->work->stepping = stepping;
    pala_world_par(w, pairs_blocks);
    pala_world_par(w, gather_job);
    return reduce_forces(w, U, NULL) ? PALA_UNSTABLE : PALA_OK;
}

int pala_world_forces(pala_world *w, double *U) { return pala_world_forces_ex(w, U, 0); }

/* force_pass.c: the force evaluation of a step (eq. 67) over pebble pairs, walls and the
 * field, with the end of each grain's step.
 *
 * The pass is one sweep over the rows of the half list (neighbor.c) in increasing pebble
 * order, block by block.  Every touching pair (p, q > p) is evaluated once by the contact
 * kernel (contact.c); its contribution is added to the sums of both grains at once.  A
 * grain's sum therefore gets, in this order: its start (the field and forces between
 * centres, grain_forces.h), then its contributions in increasing list slot (rows of lower
 * pebbles first, its own rows last; each row sorted), then its walls.  That order depends
 * neither on the threads nor on when the list was rebuilt: results are bit-identical for
 * any thread count and any skin.
 *
 * Since partners have higher indices, a grain takes no contribution and is read by no
 * pair after its own rows: the sweep finishes its step (integrator.c: eqs. 68-69, and
 * with chained steps the next step's eqs. 65-66) as soon as its block's rows are done,
 * while it is in cache.  The sums of the grains ahead live in a small ring (a window of
 * `span` grains: the largest index distance of a listed pair).
 *
 * Threads take contiguous ranges of blocks (threads.c).  A block whose grains are listed
 * by rows of an earlier thread is a boundary block: the contributions to each grain that
 * an earlier thread lists (recg) are kept as records (in slot order), and its sum is
 * formed at the end of the thread's sweep (phase 2), once the earlier threads have sent out
 * their last records (recdone: they may still be finishing their own last blocks
 * meanwhile); the block's other grains sum in the ring, their sums kept for phase 2, where
 * the block's grains end their step, so earlier threads still read the state they expect.
 * Its walls are computed in the sweep, their contributions kept in order.  Only the few
 * blocks at thread boundaries pay for records. */
#include "force_pass.h"
#include "alloc.h"
#include "arcs.h"
#include "contact.h"
#include "contact_state.h"
#include "contact_law.h"
#include "container.h"
#include "fractional.h"
#include "grain.h"
#include "grain_forces.h"
#include "integrator.h"
#include "neighbor.h"
#include "surface.h"
#include "threads.h"
#include "vec4.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* ---- walls ---------------------------------------------------------------------------- */
/* A wall contact's contribution c into a grain's sum a (its parts whatever the world's
 * dissipation: the one addition of walls_run and of phase 2); tnc: Tnc too, which only a
 * world that keeps it apart from T reads (wk->tsep; else a sphere's T serves, integrator.c). */
static inline void wall_add(pala_facc *a, const pala_facc *c, const int tnc)
{
    a->Fnc = pala_vadd(a->Fnc, c->Fnc);
    if (tnc) a->Tnc = pala_vadd(a->Tnc, c->Tnc);
    a->F = pala_vadd(a->F, c->F);
    a->T = pala_vadd(a->T, c->T);
}

/* The wall contacts of a batch into the grains' sums A[k & mask], in batch order (A NULL:
 * into S->wout, the sums of a boundary block, which phase 2 forms): the forces of eqs.
 * (53)-(57), wall impulses of a step dt (and their outward radial part, the cavity's,
 * dt F.n: n is the wall's inward normal), and the Hertz energy into *U (U NULL: not
 * wanted, the steps'). */
static void walls_run(const pala_world *w, pala_tscr *S, pala_batch *B, pala_facc *A, long mask, double dt, double *U, pala_blocksum *s,
                      pala_runaway *ru)
{
    int m = B->n;
    const pala_contacts *cm = w->work->cm;
    const int diss = pala_contacts_dissipate(cm), mind = (cm->laws & PALA_LAWS_MINDLIN) && dt > 0;
    const int nlaw = (cm->laws & (PALA_LAWS_NLAW | PALA_LAWS_FRAC)) != 0;
    const int tnc = w->work->tsep;
    pala_contact_walls(w, B, dt);
    for (int i = 0; i < m; i++) {
        if (diss) s->ediss += B->D[i];
        if (mind) s->emind += B->E[i];
        pala_vec3 F = pala_v(B->Fx[i], B->Fy[i], B->Fz[i]);
        const pala_facc c = {F, pala_v(B->Tix[i], B->Tiy[i], B->Tiz[i]), pala_v(B->Gx[i], B->Gy[i], B->Gz[i]), pala_v(B->Hix[i], B->Hiy[i], B->Hiz[i])};
        if (A && tnc) wall_add(&A[B->k[i] & mask], &c, 1);
        else if (A) wall_add(&A[B->k[i] & mask], &c, 0);   /* two instances: tnc a constant in each */
        else {
            if (S->nwout == S->capwout) { S->capwout = 2 * S->capwout + 256; PALA_GROW(S->wout, S->capwout); }
            S->wout[S->nwout++] = (pala_frec){B->k[i], c};
        }
        if (U)
            *U += nlaw ? pala_law_normal_energy(pala_pm_of(w, B->k[i], B->jmat[i]), B->sq[i], B->ov[i])
                       : pala_law_hertz_energy(pala_law_hertz(B->kE[i], B->sq[i], B->ov[i]), B->ov[i]);
        int f = B->face[i];
        if (f < PALA_WALL_FACES) {
            s->imp[f] = pala_vaxpy(s->imp[f], -dt, F);
            s->rimp += dt * (F.x * B->nx[i] + F.y * B->ny[i] + F.z * B->nz[i]);
        } else if (s->ws) {   /* a [wall]'s accounts (surface.h), about its centre */
            const pala_surface *sf = w->walls[w->surf0 + pala_surface_index(f)].par;
            pala_surfsum *q = &s->ws[pala_surface_index(f)];
            pala_vec3 vs = pala_v(B->wsx[i], B->wsy[i], B->wsz[i]);
            pala_vec3 arm = pala_vsub(pala_vadd(w->x[B->k[i]], pala_v(B->rix[i], B->riy[i], B->riz[i])), sf->centre_set ? sf->centre : sf->point);
            if (w->work->moving) arm = pala_vsub(arm, sf->pose.d);
            q->imp = pala_vaxpy(q->imp, -dt, F);
            q->ang = pala_vaxpy(q->ang, -dt, pala_vcross(arm, F));
            q->rad += dt * (F.x * B->nx[i] + F.y * B->ny[i] + F.z * B->nz[i]);
            q->work += dt * pala_vdot(F, vs);   /* W_walls: the wall's power on the grain, midpoint rule (eq. W3) */
            if (w->work->moving) {   /* ... and that of the rolling and torsion moments of a turning wall, m_c . Omega */
                pala_vec3 r = pala_v(B->rix[i], B->riy[i], B->riz[i]), T = pala_v(B->Tix[i], B->Tiy[i], B->Tiz[i]);
                pala_vec3 rF = pala_v(r.y * F.z - r.z * F.y, r.z * F.x - r.x * F.z, r.x * F.y - r.y * F.x);
                q->work += dt * pala_vdot(pala_vsub(T, rF), sf->pose.Om);
            }
            s->gvs += B->Gx[i] * vs.x + B->Gy[i] * vs.y + B->Gz[i] * vs.z;
        }
        s->nwall++;
        pala_note_overlap(w, B->ov[i] / B->ai[i], B->k[i], -1, s, ru);
    }
    B->n = 0;
}

/* The walls of the grains below k1 among the wall candidates from wcand[*cur] on (the
 * caller's grains), whose sums are A[k & mask]: each grain's touches in the walls'
 * fixed order (container.h), batched through the kernel in that order.  S->B must be
 * empty. */
void pala_force_pass_walls(const pala_world *w, pala_tscr *S, int *cur, int k1, pala_facc *A, long mask, double dt, double *U,
                           pala_blocksum *s, pala_runaway *ru)
{
    const int *wc = w->work->wcand, cend = w->work->wcb[w->work->nblk];
    const int hist = w->work->cm->hn > 0;
    pala_batch *B = S->B;
    const int b = k1 > 0 ? (k1 - 1) / PALA_BLOCK : 0;   /* k1 ends block b: its candidates end at wcb[b + 1] */
    int end = k1 > 0 && k1 == pala_block_end(w->n, b) && w->work->wcb[b + 1] > *cur ? w->work->wcb[b + 1] : *cur, hk = -PALA_BLOCK;
    pala_wallhist *h = NULL;   /* the table of the block of grains hk .. hk + PALA_BLOCK - 1 */
    long ih = 0, kept = 0;     /* ... the states found in it so far, by pala_wallhist_home */
    int other = 0;             /* ... and by pala_wallhist_find */
    while (end < cend && wc[end] < k1) end++;
    while (*cur < end) {
        int used, n = pala_walls_touch(w, wc + *cur, end - *cur, S->touch, S->ntouch, &used);
        for (int i = 0; i < n; i++) {
            const pala_wall_touch *t = &S->touch[i];
            if (hist && (unsigned)(t->k - hk) >= PALA_BLOCK) {
                if (h && dt > 0) pala_wallhist_counted(h, w->step, ih, kept, other);
                hk = t->k - t->k % PALA_BLOCK; h = pala_wallhist_of(w, t->k); ih = kept = other = 0;
            }
            /* the state of a contact that goes on (most do) */
            double *st = hist && dt > 0 ? pala_wallhist_home(w, h, t->p, t->id, ih) : NULL;
            kept += st != NULL;
            /* a full batch runs; so does one whose states would move when the table grows */
            if (B->n == BATCH || (hist && !st && B->n && pala_wallhist_full(w, t->p))) walls_run(w, S, B, A, mask, dt, U, s, ru);
            pala_contact_wall_join(w, B, t->k, t);
            if (hist) {   /* the energy pass (dt 0) leaves the states alone */
                if (!st && dt > 0) {   /* a new contact, or one that had ended */
                    st = pala_wallhist_find(w, t->p, t->id, 1);
                    pala_wallhist_hint(h, ih, (st - h->st) / w->work->cm->hn);
                    other = 1;
                }
                ih += st != NULL;
                B->hp[B->n - 1] = st;
            }
        }
        *cur += used;
    }
    if (h && dt > 0) pala_wallhist_counted(h, w->step, ih, kept, other);
    if (B->n) walls_run(w, S, B, A, mask, dt, U, s, ru);
}

/* ---- the sweep ------------------------------------------------------------------------ */
/* The thread's view of the sums during the sweep. */
typedef struct sweep {
    pala_world *w;
    pala_tscr *S;
    const unsigned char *recg;   /* the grains whose contributions are records */
    long mask;             /* ring size - 1 */
    int dissipative, spheres;
    int records;           /* the current block's rows add to a boundary block */
    int tsep;              /* Tnc is summed apart from T (work.h) */
    int planar;            /* an arc world in the plane: deliver_planar */
    /* the energies of the current group of PALA_EGROUP contacts (contact.h): the sums
     * of their D and E so far, over ne contacts (egroup_end adds them to the block's) */
    double ed, em;
    int ne;
} sweep;

/* The group's energies into the block's sums s (at PALA_EGROUP contacts, and at the end of
 * a block's pairs): D into E_diss (laws with state or the dashpot), E into the energy
 * Mindlin's springs hold. */
static void egroup_end(sweep *sw, pala_blocksum *s)
{
    const pala_contacts *cm = sw->w->work->cm;
    if (pala_contacts_dissipate(cm)) s->ediss += sw->ed;
    if (cm->laws & PALA_LAWS_MINDLIN) s->emind += sw->em;
    sw->ed = sw->em = 0;
    sw->ne = 0;
}

/* Add contribution c to grain g as a record: g is in a boundary block (its sum is formed
 * in phase 2, in the same order). */
static void record(sweep *sw, int g, const pala_facc *c)
{
    pala_tscr *S = sw->S;
    if (S->nout == S->capout) {   /* grows to the largest count seen */
        S->capout = 2 * S->capout + 256;
        PALA_GROW(S->out, S->capout);
    }
    S->out[S->nout].g = g;
    S->out[S->nout].a = *c;
    S->nout++;
}

/* Stage 4: the contributions into the ring sums (records for the grains an earlier thread
 * lists, recg) in slot order, both grains of a contact at once.  Without records (every
 * block but those at a thread boundary) both grains' sums are added in place at every
 * contact: keeping the row grain k's in registers between rows costs a branch at each new
 * row, which the processor mispredicts about once a row.  With records, whose test for k
 * is made once a row, k's sums are kept so; its partners j > k are never a cached row
 * grain. */
/* A row grain's sums from a to o: a sphere world's F, T, and Fnc if dissipative (its Tnc is
 * not used), a clump world's whole (deliver_ring). */
static inline void facc_copy(pala_facc *o, const pala_facc *a, const int diss, const int spheres)
{
    if (!spheres) { *o = *a; return; }
    o->F = a->F; o->T = a->T;
    if (diss) o->Fnc = a->Fnc;
}

/* x added to the four doubles at p */
static inline void add4(double *p, v4d x) { st4(p, ld4(p) + x); }

/* deliver_ring for spheres with dissipation, without records, four contacts at a time: each
 * contact's contribution to its first grain's F, T, Fnc (nine doubles: pala_facc's first
 * nine) and to its second's, formed by transposing the batch's columns four contacts at a
 * time (the vectoriser gathered them value by value, some 15 instructions a contact), then
 * added as two vectors of four and one double; the same additions in the same order, contact
 * by contact, k's before j's, component by component (so the same bits).  hh as deliver_ring's. */
static inline __attribute__((always_inline)) int deliver_rows(sweep *sw, pala_facc *restrict R, long mask, const pala_batch *restrict B, int m, const int hh)
{
    double ed = sw->ed, em = sw->em;
    const int ho = hh ? sw->w->work->cm->ho_t : 0;
    const v4l negF = (v4l)(v4d){-0.0, -0.0, -0.0, 0.0}, negG = (v4l)(v4d){0.0, 0.0, -0.0, -0.0};   /* -F, T_j; T_j, -G */
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        v4d ka[4], kb[4], ja[4], jb[4];
        v4d Fx = ld4(B->Fx + i), Fy = ld4(B->Fy + i), Fz = ld4(B->Fz + i), Gx = ld4(B->Gx + i), Gy = ld4(B->Gy + i);
        transpose4(Fx, Fy, Fz, ld4(B->Tix + i), ka);
        transpose4(ld4(B->Tiy + i), ld4(B->Tiz + i), Gx, Gy, kb);
        transpose4(Fx, Fy, Fz, ld4(B->Tjx + i), ja);
        transpose4(ld4(B->Tjy + i), ld4(B->Tjz + i), Gx, Gy, jb);
        for (int c = 0; c < 4; c++) {
            const int q = i + c;
            if (hh) {
                ed += B->D[q];
                em += B->E[q];
                double *st = B->hp[q] + ho;
                st[0] = B->hx[q]; st[1] = B->hy[q]; st[2] = B->hz[q];
            }
            double *a = &R[B->k[q] & mask].F.x, *b = &R[B->j[q] & mask].F.x;
            add4(a, ka[c]);
            add4(a + 4, kb[c]);
            a[8] += B->Gz[q];
            add4(b, (v4d)((v4l)ja[c] ^ negF));
            add4(b + 4, (v4d)((v4l)jb[c] ^ negG));
            b[8] += -B->Gz[q];
        }
    }
    if (hh) { sw->ed = ed; sw->em = em; }
    return i;
}

/* hh (sphere pairs with Mindlin's spring, gran/hertz/history's family): the same loop also
 * sums the contacts' D and E into the group's (stage_deliver) and writes the springs'
 * states out (pala_contact_spheres leaves them in the batch): one loop, not three. */
static inline __attribute__((always_inline)) void deliver_ring(sweep *sw, pala_facc *restrict R, long mask, const pala_batch *restrict B, int m, const int diss,
                                const int spheres, const int records, const int hh)
{
    int cur = -1, curbnd = 0;
    pala_facc o = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    const int i0 = spheres && diss && !records ? deliver_rows(sw, R, mask, B, m, hh) : 0;   /* then the last few */
    double ed = sw->ed, em = sw->em;
    const int ho = hh ? sw->w->work->cm->ho_t : 0;
    for (int i = i0; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        if (hh) {
            ed += B->D[i];
            em += B->E[i];
            double *st = B->hp[i] + ho;
            st[0] = B->hx[i]; st[1] = B->hy[i]; st[2] = B->hz[i];
        }
        if (records && k != cur) {   /* the row grain's sums (facc_copy: spheres' without Tnc) */
            if (cur >= 0 && !curbnd) facc_copy(&R[cur & mask], &o, diss, spheres);
            cur = k;
            curbnd = sw->recg[k];
            if (!curbnd) facc_copy(&o, &R[k & mask], diss, spheres);
        }
        pala_facc *a = records ? &o : &R[k & mask];   /* without records: in place */
        pala_facc ci, cj;
        ci.F = pala_v(B->Fx[i], B->Fy[i], B->Fz[i]);
        ci.T = pala_v(B->Tix[i], B->Tiy[i], B->Tiz[i]);
        cj.F = pala_vneg(ci.F);
        cj.T = pala_v(B->Tjx[i], B->Tjy[i], B->Tjz[i]);
        ci.Fnc = cj.Fnc = ci.Tnc = cj.Tnc = pala_v(0, 0, 0);   /* spheres: T serves (integrator.c) */
        if (diss) {
            ci.Fnc = pala_v(B->Gx[i], B->Gy[i], B->Gz[i]);
            cj.Fnc = pala_vneg(ci.Fnc);
            if (!spheres) {
                ci.Tnc = pala_v(B->Hix[i], B->Hiy[i], B->Hiz[i]);
                cj.Tnc = pala_v(B->Hjx[i], B->Hjy[i], B->Hjz[i]);
            }
        }
        if (curbnd) record(sw, k, &ci);
        else {
            a->F = pala_vadd(a->F, ci.F);
            a->T = pala_vadd(a->T, ci.T);
            if (diss) {
                a->Fnc = pala_vadd(a->Fnc, ci.Fnc);
                if (!spheres) a->Tnc = pala_vadd(a->Tnc, ci.Tnc);
            }
        }
        if (records && sw->recg[j]) record(sw, j, &cj);
        else {
            pala_facc *b = &R[j & mask];
            b->F = pala_vadd(b->F, cj.F);
            b->T = pala_vadd(b->T, cj.T);
            if (diss) {
                b->Fnc = pala_vadd(b->Fnc, cj.Fnc);
                if (!spheres) b->Tnc = pala_vadd(b->Tnc, cj.Tnc);
            }
        }
    }
    if (records && cur >= 0 && !curbnd) facc_copy(&R[cur & mask], &o, diss, spheres);
    if (hh) { sw->ed = ed; sw->em = em; }
}

/* deliver_ring without records, of clumps, in an arc world whose every grain lies in the
 * plane (wk->flat: x, r, v, omega in it; wk->plane: every component's centre at z = 0, so
 * every pebble in z = 0 exactly): each contribution's F_z, T_x, T_y (and Fnc's, Tnc's) are zeros (+-0), which
 * leave the sums as they are (a zero added to +0 or to a number), so only F_x, F_y, T_z
 * (Fnc_x, Fnc_y, Tnc_z) are added, in the same order: the same bits but for the sign of a
 * zero in the sums' out-of-plane components, which end_planar reads only as != 0. */
static inline void deliver_planar(pala_facc *restrict R, long mask, const pala_batch *restrict B, int m, const int diss)
{
    /* contact by contact into both grains' sums in memory: the same additions in the same
     * order as keeping the row grain's in registers while its contacts last, which branched
     * at each change of row grain (about every 1.5 contacts, so it went either way) */
    for (int i = 0; i < m; i++) {
        pala_facc *a = &R[B->k[i] & mask], *b = &R[B->j[i] & mask];
        a->F.x += B->Fx[i]; a->F.y += B->Fy[i]; a->T.z += B->Tiz[i];
        b->F.x += -B->Fx[i]; b->F.y += -B->Fy[i]; b->T.z += B->Tjz[i];
        if (diss) {
            a->Fnc.x += B->Gx[i]; a->Fnc.y += B->Gy[i]; a->Tnc.z += B->Hiz[i];
            b->Fnc.x += -B->Gx[i]; b->Fnc.y += -B->Gy[i]; b->Tnc.z += B->Hjz[i];
        }
    }
}

/* stage_deliver where its loop does not sum D and E itself (hh): those sums, then the
 * contributions. */
static void deliver_other(sweep *sw, pala_facc *R, long mask, const pala_batch *B, int m, const int spheres)
{
    const int diss = sw->dissipative;
    const pala_contacts *cm = sw->w->work->cm;
    if (pala_contacts_dissipate(cm)) {   /* the laws with state: the caps' losses */
        double e = sw->ed;
        for (int i = 0; i < m; i++) e += B->D[i];
        sw->ed = e;
    }
    if (cm->laws & PALA_LAWS_MINDLIN) {   /* the energy Mindlin's springs hold after this step */
        double e = sw->em;
        for (int i = 0; i < m; i++) e += B->E[i];
        sw->em = e;
    }
    if (sw->records) {
        if (spheres) deliver_ring(sw, R, mask, B, m, diss, 1, 1, 0);
        else deliver_ring(sw, R, mask, B, m, diss, 0, 1, 0);
    } else if (spheres) {
        if (diss) deliver_ring(sw, R, mask, B, m, 1, 1, 0, 0);
        else deliver_ring(sw, R, mask, B, m, 0, 1, 0, 0);
    } else if (sw->planar) {
        if (diss) deliver_planar(R, mask, B, m, 1);
        else deliver_planar(R, mask, B, m, 0);
    } else {
        if (diss) deliver_ring(sw, R, mask, B, m, 1, 0, 0, 0);
        else deliver_ring(sw, R, mask, B, m, 0, 0, 0, 0);
    }
}

/* The largest overlap ratio of a batch into the block's, and the first runaway. */
static void stage_worst(sweep *sw, pala_batch *B, int m, pala_blocksum *s, pala_runaway *ru)
{
    /* the largest ratio, in four lanes (a vectorised max; the same value as one lane's: the
     * ratios are positive, and a NaN enters neither); a scan finds the first runaway */
    double m4[4] = {s->worst, s->worst, s->worst, s->worst}, mx;
    int i4 = 0;
    for (; i4 + 4 <= m; i4 += 4)
        for (int l = 0; l < 4; l++) m4[l] = B->ratio[i4 + l] > m4[l] ? B->ratio[i4 + l] : m4[l];
    for (; i4 < m; i4++) m4[0] = B->ratio[i4] > m4[0] ? B->ratio[i4] : m4[0];
    mx = m4[0];
    for (int l = 1; l < 4; l++) mx = m4[l] > mx ? m4[l] : mx;
    if (mx > sw->w->max_overlap && !s->bad)
        for (int i = 0; i < m; i++) pala_note_overlap(sw->w, B->ratio[i], B->k[i], B->j[i], s, ru);
    s->worst = mx;
    s->ngg += m;
    B->n = 0;
}

/* Stage 4: the contributions into the grains' sums, contact by contact (slot order); sph:
 * a batch of sphere pairs, whose springs' states are written here (pala_contact_spheres). */
static void stage_deliver(sweep *sw, pala_batch *B, int m, pala_blocksum *s, pala_runaway *ru, const int sph)
{
    pala_facc *R = sw->S->ring;
    const long mask = sw->mask;
    const int diss = sw->dissipative;
    const pala_contacts *cm = sw->w->work->cm;
    const int spheres = sw->spheres && !pala_contacts_sphere_h(cm);   /* else Tnc apart from T */
    const int spr = sph && (cm->laws & PALA_LAWS_SPRING) && sw->w->dt > 0;
    const int hh = spr && spheres && diss && pala_contacts_dissipate(cm) && (cm->laws & PALA_LAWS_MINDLIN);   /* deliver_ring's hh */
    if (hh) {
        if (sw->records) deliver_ring(sw, R, mask, B, m, 1, 1, 1, 1);
        else deliver_ring(sw, R, mask, B, m, 1, 1, 0, 1);
    } else {
        if (spr) pala_contact_spring_write(cm, B, m, sw->w->dt);
        deliver_other(sw, R, mask, B, m, spheres);
    }
    sw->ne += m;   /* batches run full but at a block's end: a group is whole batches */
    if (sw->ne == PALA_EGROUP) egroup_end(sw, s);
    stage_worst(sw, B, m, s, ru);
}

/* The kernel on a batch of sphere pairs (contact.c), then the sums. */
static void run_spheres(sweep *sw, pala_batch *B, pala_blocksum *s, pala_runaway *ru)
{
    pala_contact_spheres(sw->w, B, sw->w->dt);
    stage_deliver(sw, B, B->n, s, ru, 1);
}

/* The kernel on a batch of component pairs of clumps, then the sums. */
static void run_clumps(sweep *sw, pala_batch *B, pala_blocksum *s, pala_runaway *ru)
{
    if (sw->planar && !sw->records) pala_contact_clumps_planar(sw->w, B, sw->w->dt);   /* stage_deliver: deliver_planar */
    else pala_contact_clumps(sw->w, B, sw->w->dt);
    stage_deliver(sw, B, B->n, s, ru, 0);
}

/* A pair p < q (grains k, j) whose state is not zero stopped touching: the energy its
 * springs held is lost (docs/physics.md, "Contact history"), and the state is cleared. */
static void pair_ended(const pala_world *w, int k, int j, double *st, pala_blocksum *s)
{
    const int hn = w->work->cm->hn;
    if (pala_state_zero(st, hn)) return;
    s->ediss += pala_contact_state_energy(w, pala_pm_of(w, k, pala_mat_of(w, j)), st);
    memset(st, 0, (size_t)hn * sizeof *st);
}

enum { CHUNK = 256 };   /* slots collect_pairs takes between calls */

/* eq. (49): the touching pairs of the rows of grains [k0, k1) join the batch, without a
 * branch per neighbour; full batches run through the kernel.  spheres: pebble k is grain
 * k at x[k] (a constant, so each world gets its own loop).  hist (contact history): each
 * pair takes its slot's state (neighbor.h), and a slot whose pair touched at the last
 * evaluation and does not now has its state cleared (pair_ended; the slot's byte hl
 * says so, so the states of pairs that do not touch are not read).  one: spheres of one
 * radius (nl->trad1; no reads of tid and trad per listed pair). */
static inline void collect_pairs(sweep *sw, int k0, int k1, pala_blocksum *s, pala_runaway *ru, const int spheres, const int hist, const int one)
{
    pala_world *w = sw->w;
    double *hs = hist ? w->nl->hs : NULL;
    unsigned char *hl = hist ? w->nl->hl : NULL;
    const long hn = hist ? w->nl->hn : 0;
    const int *nb = w->nl->nbr, *row = w->nl->row, *pg = w->pg;
    const double *prad = w->nl->prad, *trad = w->nl->trad, r1 = w->nl->trad1;
    const int *tid = w->tid;
    const pala_vec3 *P = spheres ? w->x : w->pc;
    pala_batch *restrict B = sw->S->B;
    void (*run)(sweep *, pala_batch *, pala_blocksum *, pala_runaway *) = spheres ? run_spheres : run_clumps;
    int n = 0;   /* the batch's count, in a register (B->n when the kernel runs) */
    int ended[CHUNK];   /* hist: the slots of a chunk whose pairs stopped touching */
    /* one loop over the block's slots (rows in order): no branch at the end of a row; in
     * chunks that call nothing (so the loop's pointers stay in registers), each ending when
     * the batch is full or after CHUNK slots; the ended pairs' states are cleared, then the
     * batch runs: the order of the one loop, which did both at their slot */
    const int s1 = w->nl->start[pala_grain_peb0(w, k1)];
    for (int s0 = w->nl->start[pala_grain_peb0(w, k0)]; s0 < s1;) {
        int lim = s1 - s0 > CHUNK ? s0 + CHUNK : s1, ne = 0;
        /* n grows by at most one a slot, so a run of BATCH - n slots cannot fill the batch
         * before its last slot: the loop tests only its end, the chunk's or the run's */
        while (s0 < lim && n < BATCH) {
            for (int e1 = lim - s0 < BATCH - n ? lim : s0 + BATCH - n; s0 < e1; s0++) {
                int p = row[s0], q = nb[s0];
                double dx = P[p].x - P[q].x, dy = P[p].y - P[q].y, dz = P[p].z - P[q].z, ai = spheres ? (one ? r1 : trad[tid[p]]) : prad[p], aj = spheres ? (one ? r1 : trad[tid[q]]) : prad[q];
                double sr = ai + aj;
                double d2 = dx * dx + dy * dy + dz * dz;
                B->k[n] = spheres ? p : pg[p]; B->j[n] = spheres ? q : pg[q];
                if (!spheres) B->p[n] = p;
                B->dx[n] = dx; B->dy[n] = dy; B->dz[n] = dz; B->d2[n] = d2;
                if (!one) { B->ai[n] = ai; B->aj[n] = aj; }   /* one radius: the kernel's constant (contact.c, geometry) */
                const int t = d2 < sr * sr;   /* eq. (49) (arc worlds: collect_arcs); branch-free, where pala_pair_touch's && made a branch per listed pair */
                if (hist) {
                    B->hp[n] = hs + s0 * hn;
                    if (hl[s0] > t) ended[ne++] = s0;
                    hl[s0] = (unsigned char)t;
                }
                n += t;
            }
        }
        for (int e = 0; e < ne; e++) {
            int p = row[ended[e]], q = nb[ended[e]];
            pair_ended(w, spheres ? p : pg[p], spheres ? q : pg[q], hs + ended[e] * hn, s);
        }
        if (n == BATCH) { B->n = n; run(sw, B, s, ru); n = 0; }
    }
    if (n) { B->n = n; run(sw, B, s, ru); }
}

/* collect_pairs in an arc world: pebble p's centre and radius are read once for its row
 * (slot by slot: a loop per row cost 30 instructions a row, and rows are short), and a
 * listed pair that does not touch (most: 8 in 9 in the settled bench/arcs/triangle.txt)
 * costs its distance and a branch, not the batch's stores.  The same batches.  planar: every
 * pebble lies in z = 0 exactly (sw->planar, deliver_planar's premise), so d_z = 0 - 0 = +0
 * and |d|^2 = (d_x^2 + d_y^2) + 0 is d_x^2 + d_y^2, the same bits without reading the z's. */
static inline void collect_arcs(sweep *sw, int k0, int k1, pala_blocksum *s, pala_runaway *ru, const int hist, const int planar)
{
    pala_world *w = sw->w;
    const pala_arcrange *pa = w->parc;
    if (!pa) __builtin_unreachable();   /* an arc world's: pala_pair_touch's test of pa folds */
    double *hs = hist ? w->nl->hs : NULL;
    unsigned char *hl = hist ? w->nl->hl : NULL;
    const long hn = hist ? w->nl->hn : 0;
    const int *nb = w->nl->nbr, *st = w->nl->start, *pg = w->pg;
    const double *prad = w->nl->prad;
    const pala_vec3 *P = w->pc;
    pala_batch *restrict B = sw->S->B;
    int n = 0;
    const int *row = w->nl->row;
    /* without a branch on whether a listed pair touches (about half of them do): each pair
     * is written at the batch's end, which moves past it only if it touches */
    for (int s0 = st[pala_grain_peb0(w, k0)], s1 = st[pala_grain_peb0(w, k1)]; s0 < s1; s0++) {
        int p = row[s0], q = nb[s0];
        double ai = prad[p], dx = P[p].x - P[q].x, dy = P[p].y - P[q].y, dz = planar ? 0 : P[p].z - P[q].z, aj = prad[q], sr = ai + aj;
        double d2 = planar ? dx * dx + dy * dy : dx * dx + dy * dy + dz * dz;
        int touch = pala_pair_touch(pa, p, q, dx, dy, d2, sr);   /* eq. (49), (A5) */
        if (hist) {
            if (hl[s0] > touch) pair_ended(w, pg[p], pg[q], hs + s0 * hn, s);
            hl[s0] = (unsigned char)touch;
            B->hp[n] = hs + s0 * hn;
        }
        B->k[n] = pg[p]; B->j[n] = pg[q]; B->p[n] = p;
        B->dx[n] = dx; B->dy[n] = dy; B->dz[n] = dz; B->d2[n] = d2; B->ai[n] = ai; B->aj[n] = aj;
        n += touch;
        if (n == BATCH) { B->n = n; run_clumps(sw, B, s, ru); n = 0; }
    }
    if (n) { B->n = n; run_clumps(sw, B, s, ru); }
}

/* The arc worlds' versions of collect_arcs, apart: the sweep's other paths compile as they did. */
__attribute__((noinline)) static void block_arcs(sweep *sw, int k0, int k1, pala_blocksum *s, pala_runaway *ru)
{
    if (sw->w->work->cm->hn) collect_arcs(sw, k0, k1, s, ru, 1, 0);
    else if (sw->planar) collect_arcs(sw, k0, k1, s, ru, 0, 1);
    else collect_arcs(sw, k0, k1, s, ru, 0, 0);
}

static void block_pairs(sweep *sw, int k0, int k1, pala_blocksum *s, pala_runaway *ru)
{
    if (sw->w->parc) block_arcs(sw, k0, k1, s, ru);   /* arc grains: a loop of their own, so other worlds pay nothing */
    else if (sw->w->work->cm->hn) {
        if (sw->spheres && sw->w->nl->trad1 > 0) collect_pairs(sw, k0, k1, s, ru, 1, 1, 1);
        else if (sw->spheres) collect_pairs(sw, k0, k1, s, ru, 1, 1, 0);
        else collect_pairs(sw, k0, k1, s, ru, 0, 1, 0);
    } else if (sw->spheres && sw->w->nl->trad1 > 0) collect_pairs(sw, k0, k1, s, ru, 1, 0, 1);
    else if (sw->spheres) collect_pairs(sw, k0, k1, s, ru, 1, 0, 0);
    else collect_pairs(sw, k0, k1, s, ru, 0, 0, 0);
    if (sw->ne) egroup_end(sw, s);
}

/* The walls of the grains [k0, k1), one block, batched through the kernel: into their sums
 * A[k & mask], or with A NULL into S->wout for phase 2. */
static void block_walls(pala_world *w, pala_tscr *S, int k0, int k1, pala_facc *A, long mask, pala_blocksum *s, pala_runaway *ru)
{
    int cur = w->work->wcb[k0 / PALA_BLOCK];
    pala_force_pass_walls(w, S, &cur, k1, A, mask, w->dt, NULL, s, ru);   /* the energy: the energy pass's (energy.c) */
    if (w->work->cm->hn) s->ediss += pala_wallhist_ended(w, k0 / PALA_BLOCK);
}

/* The grains [k0, k1) have complete sums (A[k & mask]: field and contributions): their
 * walls, then the end of their step (integrator.c). */
static void finish_range(pala_world *w, pala_tscr *S, int k0, int k1, pala_facc *A, long mask, pala_blocksum *s, pala_runaway *ru, pala_finish *fa)
{
    block_walls(w, S, k0, k1, A, mask, s, ru);
    pala_integrator_end_block(w, k0, k1, A, mask, fa);
}

static void finish_block(pala_world *w, int b, pala_blocksum *s, pala_runaway *ru, pala_finish *fa)
{
    s->pdiss = fa->pdiss;
    s->move = fa->mv;
    s->move2 = fa->mv2;
    s->rmove = fa->rv;
    s->rmove2 = fa->rv2;
    s->finite = fa->chk == 0;
    s->bad_ratio = ru->ratio; s->bad_i = ru->i; s->bad_j = ru->j;
    w->work->bs[b] = *s;
}

static void boundary(pala_world *w, int t, int b0, int b1);

void pala_force_pass_sweep(void *ctx, int t, int b0, int b1)
{
    pala_world *w = ctx;
    double t0 = pala_now();
    pala_work *wk = w->work;
    const long run = w->team->runs;
    sweep sw = {w, &wk->ts[t], wk->recg, wk->ts[t].nring - 1, wk->dissipative, wk->spheres_only, 0, wk->tsep, wk->plane, 0, 0, 0};
    for (int b = 0; b < wk->nblk && sw.planar; b++) sw.planar = wk->flat[b];   /* deliver_planar's premise */
    sw.S->nout = sw.S->nwout = 0;
    int lastrec = -1, bnd = 0;   /* its last block whose rows add to a boundary block; its boundary blocks */
    for (int b = b0; b < b1; b++) {
        if (wk->brec[b]) lastrec = b;
        bnd |= wk->bbrank[b] >= 0;
    }
    if (lastrec < 0) pala_team_post(w->team, &sw.S->recdone, run);
    int kend = pala_block_end(w->n, b1 - 1);
    long init = (long)b0 * PALA_BLOCK;   /* ring sums started for grains below this */
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
        long hi = k1 + wk->span < kend ? k1 + wk->span : kend;
        if (init < hi) pala_facc_start(w, init, hi, sw.S->ring, sw.mask);
        init = init > hi ? init : hi;
        pala_blocksum s;
        memset(&s, 0, sizeof s);
        if (w->nsurf) {
            s.ws = wk->wsum + (long)b * w->nsurf;
            memset(s.ws, 0, (size_t)w->nsurf * sizeof *s.ws);
        }
        pala_runaway ru = {0, 0, -1};
        sw.records = wk->brec[b];   /* the record checks only where needed */
        block_pairs(&sw, k0, k1, &s, &ru);
        if (b == lastrec) pala_team_post(w->team, &sw.S->recdone, run);   /* later threads may finish their boundary blocks */
        pala_finish fa = {.kend = kend};
        if (wk->bbrank[b] < 0) finish_range(w, sw.S, k0, k1, sw.S->ring, sw.mask, &s, &ru, &fa);
        else {   /* a boundary block: its sums so far for phase 2 (the grains without records: whole), its walls now (they need no sum, and phase 2 waits for nothing else) */
            pala_facc *A = wk->bsum + (long)wk->bbrank[b] * PALA_BLOCK;
            for (int k = k0; k < k1; k++) A[k - k0] = sw.S->ring[k & sw.mask];
            block_walls(w, sw.S, k0, k1, NULL, 0, &s, &ru);
        }
        finish_block(w, b, &s, &ru, &fa);
    }
    if (bnd) {   /* its boundary blocks, once the earlier threads' records are out (they may still be finishing their last blocks) */
        double t1 = pala_now();
        for (int u = 0; u < t; u++) pala_team_wait(w->team, &wk->ts[u].recdone, run);
        double t2 = pala_now();
        boundary(w, t, b0, b1);
        t0 += t2 - t1;   /* the wait is not its work (the balance, threads.c) */
    }
    w->team->busy[t] += pala_now() - t0;
}

/* Phase 2, at the end of thread t's sweep: it finishes the boundary blocks among its own
 * [b0, b1) (ranks [r0, r1) of the boundary blocks).  A grain that no earlier thread lists
 * (recg 0) has its whole sum from the sweep (wk->bsum, kept when its block's rows were
 * done); one that an earlier thread lists has its field there, and all its contributions,
 * its own thread's too, are records: they are added in one pass over the records of
 * threads 0..t in that order (each thread's in slot order, the threads' slots increasing).
 * Then the grains' walls' contributions, which thread t computed in the sweep (S->wout, in
 * the walls' order): the order of the one-thread sweep, without sorting.  What is left
 * here is each grain's end of step.
 * The blocks stay with the thread that swept them: sharing them out evenly was 2-4 %
 * slower (their state and records are in the owner's cache). */
static void boundary(pala_world *w, int t, int b0, int b1)
{
    pala_work *wk = w->work;
    pala_tscr *S = &wk->ts[t];
    int r0 = 0, r1;
    while (r0 < wk->nbb && wk->bb[r0] < b0) r0++;
    for (r1 = r0; r1 < wk->nbb && wk->bb[r1] < b1; r1++) {}
    if (r1 <= r0) return;
    pala_facc *A = wk->bsum;   /* A[rank * PALA_BLOCK + k % PALA_BLOCK] */
    for (int u = 0; u <= t; u++) {
        const pala_frec *o = wk->ts[u].out;
        for (long i = 0, n = wk->ts[u].nout; i < n; i++) {
            long g = o[i].g;
            int r = wk->bbrank[g / PALA_BLOCK];
            if (r >= r0 && r < r1) pala_facc_add(&A[(long)r * PALA_BLOCK + g % PALA_BLOCK], &o[i].a, wk->dissipative);
        }
    }
    for (long i = 0; i < S->nwout; i++) {   /* all of them of these blocks */
        long g = S->wout[i].g;
        wall_add(&A[(long)wk->bbrank[g / PALA_BLOCK] * PALA_BLOCK + g % PALA_BLOCK], &S->wout[i].a, 1);
    }
    for (int r = r0; r < r1; r++) {
        int b = wk->bb[r];
        pala_blocksum s = wk->bs[b];
        pala_runaway ru = {s.bad_ratio, s.bad_i, s.bad_j};
        pala_finish fa = {.kend = pala_block_end(w->n, b1 - 1)};
        pala_integrator_end_block(w, b * PALA_BLOCK, pala_block_end(w->n, b), A + (long)r * PALA_BLOCK, PALA_BLOCK - 1, &fa);
        finish_block(w, b, &s, &ru, &fa);
    }
}

/* An arc world's grains whose pebbles anything reads until the next build: those of a listed
 * pair (the sweep, the energy pass) and the wall candidates (wcand).  The end of the step
 * places these alone (integrator.c, end_planar: a grain far from all others, as most are in
 * a falling cloud, skips its arcs' placement); a grain that joins them has its pebbles placed
 * here, from its x and r of now, as that placement would have. */
static void mark_live(pala_world *w)
{
    pala_work *wk = w->work;
    if (wk->nlive < w->n + 1) {
        wk->nlive = w->n + 1;
        PALA_GROW(wk->live, wk->nlive);
        memset(wk->live, 0, (size_t)wk->nlive);
    }
    unsigned char *L = wk->live;   /* bit 0: live until now, bit 1: from now on */
    const int *nb = w->nl->nbr, *rw = w->nl->row, *pg = w->pg;
    for (int s = 0; s < w->nl->start[w->npeb]; s++) { L[pg[rw[s]]] |= 2; L[pg[nb[s]]] |= 2; }   /* one loop over the slots */
    for (int i = 0; i < wk->wcb[wk->nblk]; i++) L[wk->wcand[i]] |= 2;
    for (int k = 0; k < w->n; k++) {
        if (L[k] == 2) pala_world_place_pebbles(w, k);
        L[k] >>= 1;
    }
}

/* Thread t's part of a build's wall candidates: wflag[k], for the grains of blocks [b0, b1),
 * 1 if a wall may come within the grain's bounding radius and the skin (pala_walls_clear). */
static void candidates_job(void *ctx, int t, int b0, int b1)
{
    pala_world *w = ctx;
    (void)t;
    for (int b = b0; b < b1; b++)
        for (int k = b * PALA_BLOCK; k < pala_block_end(w->n, b); k++)
            w->work->wflag[k] = !pala_walls_clear(w, w->x[k], w->tmpl[w->tid[k]].bound_radius + w->nl->skin * (w->nl->fk ? w->nl->fk[k] : 1));   /* f_k: neighbor.c, "Skins of their own" */
}

void pala_force_pass_setup_pairs(pala_world *w)
{
    pala_work *wk = w->work;
    const int *st = w->nl->start, *nb = w->nl->nbr;
    int nthr = pala_team_size(w->team);
    long span = 0;
    for (int b = 0; b < wk->nblk; b++) wk->bbrank[b] = -1;
    if (wk->nrecg < w->n + 1) { wk->nrecg = w->n + 1; PALA_GROW(wk->recg, wk->nrecg); }
    memset(wk->recg, 0, (size_t)w->n + 1);
    const int *rw = w->nl->row;   /* the slots in one flat loop (a loop per row mispredicted its end) */
    for (int t = 0; t < nthr; t++) {
        int b0 = w->team->split[t], b1 = w->team->split[t + 1];
        int kend = b1 > b0 ? pala_block_end(w->n, b1 - 1) : b0 * PALA_BLOCK;
        long gend = (long)b1 * PALA_BLOCK;
        for (int s = st[pala_grain_peb0(w, b0 * PALA_BLOCK)]; s < st[pala_grain_peb0(w, kend)]; s++) {
            int k = pala_peb_grain(w, rw[s]), g = pala_peb_grain(w, nb[s]);
            span = g - k > span ? g - k : span;
            if (g >= gend) { wk->bbrank[g / PALA_BLOCK] = 0; wk->recg[g] = 1; }   /* listed by an earlier thread */
        }
    }
    wk->span = span;
    for (int b = 0; b < wk->nblk; b++) {   /* blocks whose rows add to a grain of records */
        int r = wk->bbrank[b] >= 0;
        for (int s = st[pala_grain_peb0(w, b * PALA_BLOCK)]; s < st[pala_grain_peb0(w, pala_block_end(w->n, b))] && !r; s++)
            r = wk->recg[pala_peb_grain(w, nb[s])];
        wk->brec[b] = (unsigned char)r;
    }
    long W = 1;
    while (W < span + 2 * PALA_BLOCK + 1) W *= 2;
    for (int t = 0; t < nthr; t++) {
        pala_tscr *S = &wk->ts[t];
        if (S->nring < W) { S->nring = W; PALA_GROW(S->ring, W); }
    }
    wk->nbb = 0;   /* the boundary blocks, ranked in increasing order */
    for (int b = 0; b < wk->nblk; b++) {
        if (wk->bbrank[b] < 0) continue;
        if (wk->nbb == wk->capbb) { wk->capbb = 2 * wk->capbb + 8; PALA_GROW(wk->bb, wk->capbb); }
        wk->bbrank[b] = wk->nbb;
        wk->bb[wk->nbb++] = b;
    }
    if (wk->nbsum < (long)wk->nbb * PALA_BLOCK) { wk->nbsum = (long)wk->nbb * PALA_BLOCK; PALA_GROW(wk->bsum, wk->nbsum); }
}

void pala_force_pass_setup_walls(pala_world *w)
{
    pala_work *wk = w->work;
    /* wall candidates: until the next build every grain moves by less than the skin (the
     * tests on the team, the list in grain order here) */
    long nc = 0;
    if (w->nwalls > 0) {
        if (wk->nwflag < w->n) { wk->nwflag = w->n; PALA_GROW(wk->wflag, wk->nwflag); }
        pala_team_run(w->team, candidates_job, w);
    }
    for (int b = 0; b < wk->nblk; b++) {
        wk->wcb[b] = (int)nc;
        for (int k = b * PALA_BLOCK; k < pala_block_end(w->n, b) && w->nwalls > 0; k++) {
            if (!wk->wflag[k]) continue;
            if (nc == wk->capw) { wk->capw = 2 * wk->capw + 256; PALA_GROW(wk->wcand, wk->capw); }
            wk->wcand[nc++] = k;
        }
    }
    wk->wcb[wk->nblk] = (int)nc;
    if (w->parc) mark_live(w);
    pala_surfaces_listed(w);   /* a fixed mesh's faces near the candidates */
}

void pala_force_pass_setup(pala_world *w)
{
    pala_force_pass_setup_pairs(w);
    pala_force_pass_setup_walls(w);
}

static void runaway_message(pala_world *w)
{
    for (int b = 0; b < w->work->nblk; b++) {
        const pala_blocksum *o = &w->work->bs[b];
        if (!o->bad) continue;
        int i = o->bad_i, j = o->bad_j;   /* numbers of the input */
        if (w->gid) { i = w->gid[i]; if (j >= 0) j = w->gid[j]; }
        double ratio = o->bad_ratio;
        char msg[1024];
        if (!w->why[0]) {
            snprintf(msg, sizeof msg,
                     "runaway overlap at t = %.6g s: %s %d%s%.0d overlap by %.3g of a component radius "
                     "(limit max_overlap = %g). The time step is too large for the impact speed (the dt check's contact "
                     "steps are few: reduce dt), or the material too soft for its grains' masses and speeds (the dt check's "
                     "overlap is above max_overlap: raise young, no dt helps)",
                     w->t, j >= 0 ? "grains" : "wall and grain", i + 1, j >= 0 ? " and " : "", j >= 0 ? j + 1 : 0, ratio, w->max_overlap);
            size_t l = strlen(msg);
            if (l >= sizeof w->why) l = sizeof w->why - 1;
            memcpy(w->why, msg, l);
            w->why[l] = 0;
        }
        return;
    }
}

int pala_force_pass_reduce(pala_world *w, double *U, double *pdiss)
{
    double u = 0, pd = 0, worst = 0, ed = 0, em = 0;
    long ngg = 0, nwall = 0;
    int bad = 0;
    for (int b = 0; b < w->work->nblk; b++) {
        const pala_blocksum *o = &w->work->bs[b];
        u += o->U; pd += o->pdiss - o->gvs; ngg += o->ngg; nwall += o->nwall; ed += o->ediss; em += o->emind;
        if (o->worst > worst) worst = o->worst;
        for (int i = 0; i < PALA_WALL_FACES; i++) w->wall_impulse[i] = pala_vadd(w->wall_impulse[i], o->imp[i]);
        w->wall_radial += o->rimp;
        bad |= o->bad != 0;
    }
    if (U) *U += u + (pdiss ? 0 : w->nl->hmind);   /* the energy pass: Mindlin's springs' too */
    if (pdiss) {
        /* Mindlin's springs: the step's D leaves out the energy they held after the last
         * step; it is added here, and this step's kept (docs/physics.md, "Contact history") */
        *pdiss = pd;
        w->diss += ed + w->nl->hmind;
        w->nl->hmind = em;
        if (w->nsurf) pala_surfaces_reduce(w, w->work->wsum, w->work->nblk, w->dt);
    }
    w->ncontact = ngg + nwall;
    w->worst_overlap = worst;
    if (bad) runaway_message(w);
    return bad;
}

/* ---- the scratch of the step ------------------------------------------------------------ */
static void tscr_free(pala_tscr *S)
{
    free(S->ring); free(S->out); free(S->wout); free(S->B); free(S->touch);
}

void pala_work_free(pala_world *w)
{
    pala_work *wk = w->work;
    if (!wk) return;
    for (int t = 0; t < wk->nth; t++) tscr_free(&wk->ts[t]);
    free(wk->ts); free(wk->bb); free(wk->bbrank); free(wk->brec); free(wk->recg); free(wk->bsum); free(wk->wflag); free(wk->bs);
    free(wk->smax); free(wk->invm); free(wk->invi); free(wk->btid); free(wk->flat); free(wk->live); free(wk->wcand); free(wk->wcb); free(wk->wsum);
    pala_wallhist_free(wk);
    pala_contacts_free(wk->cm);
    wk->cm = NULL;
    free(wk);
    w->work = NULL;
}

/* Per-block and per-template data, per-thread scratch; the split of the team is made
 * even and the neighbour list is rebuilt at the next step (its build sets up the sweep). */
void pala_work_prepare(pala_world *w)
{
    if (!w->work) {
        w->work = pala_xrealloc(NULL, sizeof *w->work);
        memset(w->work, 0, sizeof *w->work);
    }
    pala_work *wk = w->work;
    int nblk = (w->n + PALA_BLOCK - 1) / PALA_BLOCK;
    wk->nblk = nblk;
    w->team = pala_team_make(w->team, w->nthreads, nblk);
    w->team->adapt = w->threads_auto;
    int nth = w->team->nth;
    if (wk->nth != nth) {   /* per-thread scratch */
        for (int t = nth; t < wk->nth; t++) tscr_free(&wk->ts[t]);
        PALA_GROW(wk->ts, nth);
        for (int t = wk->nth; t < nth; t++) {
            memset(&wk->ts[t], 0, sizeof wk->ts[t]);
            wk->ts[t].B = pala_xrealloc(NULL, pala_batch_size());
            memset(wk->ts[t].B, 0, pala_batch_size());
        }
        wk->nth = nth;
    }
    PALA_GROW(wk->bs, nblk + 1);
    memset(wk->bs, 0, (size_t)(nblk + 1) * sizeof *wk->bs);
    PALA_GROW(wk->bbrank, nblk + 1);
    PALA_GROW(wk->brec, nblk + 1);
    memset(wk->brec, 0, (size_t)nblk + 1);
    for (int b = 0; b <= nblk; b++) wk->bbrank[b] = -1;
    PALA_GROW(wk->btid, nblk + 1);
    PALA_GROW(wk->flat, nblk + 1);
    memset(wk->flat, 0, (size_t)nblk + 1);
    if (wk->live) memset(wk->live, 0, (size_t)wk->nlive);   /* other grains, maybe: all placed at the next build */
    for (int b = 0; b < nblk; b++) {
        int iso = 1;
        wk->btid[b] = w->tid[b * PALA_BLOCK];
        for (int k = b * PALA_BLOCK; k < pala_block_end(w->n, b); k++) {
            if (w->tid[k] != wk->btid[b]) wk->btid[b] = -1;
            iso &= w->tmpl[w->tid[k]].isotropic;
        }
        if (wk->btid[b] == -1 && iso) wk->btid[b] = -2;
    }
    int maxcomp = 1;   /* room for the wall touches of some grains, per thread */
    double maxR = 0;
    for (int t = 0; t < w->ntmpl; t++) {
        maxcomp = w->tmpl[t].ncomp > maxcomp ? w->tmpl[t].ncomp : maxcomp;
        maxR = w->tmpl[t].bound_radius > maxR ? w->tmpl[t].bound_radius : maxR;
    }
    int per = pala_walls_room(w, maxR);
    for (int t = 0; t < nth; t++) {
        wk->ts[t].ntouch = per * maxcomp + 512;
        PALA_GROW(wk->ts[t].touch, wk->ts[t].ntouch);
    }
    PALA_GROW(wk->smax, w->ntmpl + 1);
    PALA_GROW(wk->invm, w->ntmpl + 1);
    PALA_GROW(wk->invi, w->ntmpl + 1);
    PALA_GROW(wk->wcb, nblk + 1);
    if (w->nsurf) PALA_GROW(wk->wsum, (long)nblk * w->nsurf);
    wk->moving = pala_surfaces_moving(w);
    wk->spheres_only = 1;
    wk->plane = w->parc && w->dim == 2;   /* deliver_planar: every component in z = 0 */
    for (int i = 0; i < w->nshape; i++) wk->plane &= w->shape[i].z == 0;
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        double m = 0;
        for (int i = 0; i < tp->ncomp; i++)   /* arc grains: the list's points are the bounding circles' centres */
            m = fmax(m, w->arc ? hypot(w->arc[tp->comp0 + i].bx, w->arc[tp->comp0 + i].by) : pala_vnorm(w->shape[tp->comp0 + i]));
        wk->smax[t] = m;
        wk->invm[t] = 1.0 / tp->mass;
        wk->invi[t] = tp->inv_inertia[tp->isotropic ? tp->isotropic - 1 : 0];
        wk->spheres_only &= tp->ncomp == 1;
    }
    /* the power of non-conservative forces is summed only if some can act: a dissipative
     * material pair, additional forces or a fluid's drag (their work goes into E_diss) */
    wk->dissipative = w->additional_forces != NULL || w->fluid_eta > 0;
    for (int i = 0; i < w->nmat * w->nmat; i++) wk->dissipative |= w->pm[i].delta < 1 || w->pm[i].mu > 0;
    pala_contacts_prepare(w);                     /* the laws present, their state (contact.c) */
    pala_contact_states_prepare(w);
    wk->dissipative |= pala_contacts_dissipate(wk->cm);
    wk->tsep = !wk->spheres_only || pala_contacts_tsep(wk->cm);
    wk->nbb = 0;
    if (w->nl) w->nl->builds = 0;   /* the sweep's window and boundary blocks are set up after the build */
}

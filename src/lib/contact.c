/* contact.c: the contact kernel (paper sections 4-5, eqs. 48-57) and the force pass
 * over pebble pairs, walls and the field, with the end of each grain's step.
 *
 * The pass is one sweep over the rows of the half list (neighbor.c) in increasing pebble
 * order, block by block.  Every touching pair (p, q > p) is evaluated once; its
 * contribution is added to the sums of both grains at once.  A grain's sum therefore
 * gets, in this order: the field, then its contributions in increasing list slot (rows of
 * lower pebbles first, its own rows last; each row sorted), then its walls.  That order
 * depends neither on the threads nor on when the list was rebuilt: results are
 * bit-identical for any thread count and any skin.
 *
 * Since partners have higher indices, a grain takes no contribution and is read by no
 * pair after its own rows: the sweep finishes its step (eqs. 68-69, and with chained
 * steps the next step's eqs. 65-66) as soon as its block's rows are done, while it is in
 * cache.  The sums of the grains ahead live in a small ring (a window of `span` grains:
 * the largest index distance of a listed pair).
 *
 * Threads take contiguous ranges of blocks.  A block whose grains are listed by rows of
 * an earlier thread is a boundary block: its grains' contributions are kept as records
 * (in slot order) and summed after the sweep (phase 2), so earlier threads still read the
 * state they expect.  Only the few blocks at thread boundaries pay for records.
 *
 * The bounding-sphere test of eq. (48) is applied when the list is built (neighbor.c).
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

/* Where a block records the first runaway overlap (the message is written serially). */
typedef struct runaway { double ratio; int i, j; } runaway;

/* beta = I_r^-1 T (eq. 62); for an isotropic grain I_r^-1 = 1/I exactly. */
static inline pala_vec3 ang_acc(const pala_template *t, pala_vec3 r, pala_vec3 T)
{
    return t->isotropic ? pala_vscale(t->inv_inertia[0], T) : pala_rot_diag_apply(r, t->inv_inertia, T);
}

static inline int blk_peb(const pala_world *w, int k) { return w->p0 ? w->p0[k] : k; }
static inline int blk_end(const pala_world *w, int b) { return (b + 1) * PALA_BLOCK < w->n ? (b + 1) * PALA_BLOCK : w->n; }

/* Overlap r = ov / smaller radius of grains i, j (j = -1: a wall) against the worst so
 * far and the limit max_overlap. */
static inline void note_overlap(const pala_world *w, double r, int i, int j, pala_blocksum *s, runaway *ru)
{
    if (r > s->worst) s->worst = r;
    if (r > w->max_overlap && !s->bad) { s->bad = 1; ru->ratio = r; ru->i = i; ru->j = j; }
}

static inline void facc_add(pala_facc *A, const pala_facc *c, int dissipative)
{
    A->F = pala_vadd(A->F, c->F);
    A->T = pala_vadd(A->T, c->T);
    if (dissipative) {
        A->Fnc = pala_vadd(A->Fnc, c->Fnc);
        A->Tnc = pala_vadd(A->Tnc, c->Tnc);
    }
}

/* The sums of grain k before its contributions: the homogeneous field. */
static inline void facc_start(const pala_world *w, int k, pala_facc *A)
{
    A->F = w->work->mg[w->tid[k]];
    A->T = A->Fnc = A->Tnc = pala_v(0, 0, 0);
}

/* ---- the pair kernel ------------------------------------------------------------------ */
/* The touching pairs of a block's rows are collected (no branch per neighbour) into a
 * batch in structure-of-arrays form, and the kernel runs in stages: the square roots,
 * divisions and most of the arithmetic in loops the compiler vectorises, the reads of
 * the grains' velocities and the sums into the grains in plain loops. */
enum { BATCH = 128 };
typedef struct pala_batch {
    int n;
    int k[BATCH], j[BATCH], p[BATCH];                       /* grains, pebble of row */
    double dx[BATCH], dy[BATCH], dz[BATCH], d2[BATCH], ai[BATCH], aj[BATCH];
    double nx[BATCH], ny[BATCH], nz[BATCH], ov[BATCH], sq[BATCH], li[BATCH], lj[BATCH], ratio[BATCH];
    double ux[BATCH], uy[BATCH], uz[BATCH];                 /* relative velocity (part) */
    double sx[BATCH], sy[BATCH], sz[BATCH];                 /* spheres: l_i w_i + l_j w_j */
    double rix[BATCH], riy[BATCH], riz[BATCH], rjx[BATCH], rjy[BATCH], rjz[BATCH];
    double kE[BATCH], de[BATCH], mu[BATCH], nu[BATCH];      /* material pair */
    /* contributions: force on the row's grain, its non-conservative part, torques */
    double Fx[BATCH], Fy[BATCH], Fz[BATCH], Gx[BATCH], Gy[BATCH], Gz[BATCH];
    double Tix[BATCH], Tiy[BATCH], Tiz[BATCH], Tjx[BATCH], Tjy[BATCH], Tjz[BATCH];
    double Hix[BATCH], Hiy[BATCH], Hiz[BATCH], Hjx[BATCH], Hjy[BATCH], Hjz[BATCH];   /* clumps: torques of G */
    double rt[BATCH];                                       /* walls: r~ */
    int face[BATCH];                                        /* walls: which */
} pala_batch;

size_t pala_batch_size(void) { return sizeof(pala_batch); }

/* Stage 1: distance, normal n_ij and overlap (eq. 50), sqrt(r~ (-d)) of eq. (57) with
 * r~ = H(a_i, a_j) (eq. 55), the lever arms a - ov/2 of the contact point
 * c_ij = c_i - (a_i - ov/2) n = c_j + (a_j - ov/2) n (eq. 50), overlap / smaller radius. */
static void stage_geometry(pala_batch *B, int m)
{
    for (int i = 0; i < m; i++) {
        double ai = B->ai[i], aj = B->aj[i], sr = ai + aj;
        double dist = sqrt(B->d2[i]), inv = 1.0 / dist;
        double ov = sr - dist;
        B->ov[i] = ov;
        B->sq[i] = sqrt(2 * ai * aj / sr * ov);
        B->nx[i] = B->dx[i] * inv; B->ny[i] = B->dy[i] * inv; B->nz[i] = B->dz[i] * inv;
        B->li[i] = ai - 0.5 * ov;
        B->lj[i] = aj - 0.5 * ov;
        B->ratio[i] = ov / (ai < aj ? ai : aj);
    }
}

/* The material pair of each contact (worlds of several materials). */
static void stage_materials(const pala_world *w, pala_batch *B, int m)
{
    for (int i = 0; i < m; i++) {
        const pala_pairmat *pm = w->pm + w->tmpl[w->tid[B->k[i]]].material * w->nmat + w->tmpl[w->tid[B->j[i]]].material;
        B->kE[i] = pm->kE; B->de[i] = pm->delta; B->mu[i] = pm->mu; B->nu[i] = pm->nu;
    }
}

/* Stage 3: Hertz force (eq. 57), restitution (eq. 56), friction mu F_n w_t / (nu + |w_t|)
 * (eq. 53), from the relative velocity w at the contact point (eq. 54); then the
 * contributions to both grains.  Spheres: w = u - s x n with s = l_i w_i + l_j w_j; the
 * contact point lies on the line of centres (lever arms -l_i n and l_j n), the normal
 * force has no torque, and the torque of F = f_n n - c w_t on either sphere is
 * l c (n x w_t) (eq. 51; PHYSICS.md 1.3).  Clumps: w = u, torques r x F about each
 * grain's centre (eq. 51).  one: the world has one material pair, pm (else arrays). */
static inline void stage_force(pala_batch *B, int m, int spheres, int one, pala_pairmat pm)
{
    for (int i = 0; i < m; i++) {
        double kE = one ? pm.kE : B->kE[i], de = one ? pm.delta : B->de[i];
        double mu = one ? pm.mu : B->mu[i], nu = one ? pm.nu : B->nu[i];
        double nx = B->nx[i], ny = B->ny[i], nz = B->nz[i];
        double dvx = B->ux[i], dvy = B->uy[i], dvz = B->uz[i];
        if (spheres) {
            dvx -= B->sy[i] * nz - B->sz[i] * ny;
            dvy -= B->sz[i] * nx - B->sx[i] * nz;
            dvz -= B->sx[i] * ny - B->sy[i] * nx;
        }
        double fh = kE * B->sq[i] * B->ov[i];                                  /* eq. (57) */
        double wn = dvx * nx + dvy * ny + dvz * nz;                            /* eq. (54) */
        double fn = (wn > 0 ? de : 1.0) * fh;                                  /* eq. (56) */
        double wtx = dvx - wn * nx, wty = dvy - wn * ny, wtz = dvz - wn * nz;
        double den = nu + sqrt(wtx * wtx + wty * wty + wtz * wtz);
        double c = mu * fn / (den > 0 ? den : 1.0);                            /* eq. (53) */
        double Fx = fn * nx - c * wtx, Fy = fn * ny - c * wty, Fz = fn * nz - c * wtz;
        double fc = fn - fh;
        double Gx = fc * nx - c * wtx, Gy = fc * ny - c * wty, Gz = fc * nz - c * wtz;
        B->Fx[i] = Fx; B->Fy[i] = Fy; B->Fz[i] = Fz;
        B->Gx[i] = Gx; B->Gy[i] = Gy; B->Gz[i] = Gz;
        if (spheres) {
            double ux = c * (ny * wtz - nz * wty), uy = c * (nz * wtx - nx * wtz), uz = c * (nx * wty - ny * wtx);
            double li = B->li[i], lj = B->lj[i];
            B->Tix[i] = li * ux; B->Tiy[i] = li * uy; B->Tiz[i] = li * uz;
            B->Tjx[i] = lj * ux; B->Tjy[i] = lj * uy; B->Tjz[i] = lj * uz;
        } else {
            double rix = B->rix[i], riy = B->riy[i], riz = B->riz[i], rjx = B->rjx[i], rjy = B->rjy[i], rjz = B->rjz[i];
            B->Tix[i] = riy * Fz - riz * Fy; B->Tiy[i] = riz * Fx - rix * Fz; B->Tiz[i] = rix * Fy - riy * Fx;
            B->Tjx[i] = rjy * -Fz - rjz * -Fy; B->Tjy[i] = rjz * -Fx - rjx * -Fz; B->Tjz[i] = rjx * -Fy - rjy * -Fx;
            B->Hix[i] = riy * Gz - riz * Gy; B->Hiy[i] = riz * Gx - rix * Gz; B->Hiz[i] = rix * Gy - riy * Gx;
            B->Hjx[i] = rjy * -Gz - rjz * -Gy; B->Hjy[i] = rjz * -Gx - rjx * -Gz; B->Hjz[i] = rjx * -Gy - rjy * -Gx;
        }
    }
}

/* ---- walls --------------------------------------------------------------------------- */
/* 1 if grain k's bounding sphere, grown by margin, is clear of every wall. */
static inline int walls_clear(const pala_world *w, int k, double margin)
{
    double R = w->tmpl[w->tid[k]].bound_radius + margin;
    pala_vec3 x = w->x[k];
    if (w->container == PALA_CONTAINER_BOX) {
        int in = (x.x - R > w->box_lo.x) & (w->box_hi.x - x.x > R) & (x.y - R > w->box_lo.y) & (w->box_hi.y - x.y > R);
        return in & (w->dim == 2 || ((x.z - R > w->box_lo.z) & (w->box_hi.z - x.z > R)));
    }
    if (w->container == PALA_CONTAINER_CAVITY) return pala_vnorm(pala_vsub(x, w->cav_c)) + R < w->cav_R;
    return 1;
}

/* One component (centre c, radius a) of grain k against a wall (face) with inward normal
 * n, overlap ov and r~ = rt (PHYSICS.md 2: flat wall r~ = 2a, cavity r~ = 2aR/(R-a)) joins
 * the batch.  The wall is a component that does not move: the contact point is the middle
 * of the overlap, c - (a - ov/2) n (the limit of c_ij in eq. 50 for a sphere of radius
 * r' -> infinity), w is the velocity of G's material there (eq. 54), and the torque is
 * about G's centre (eq. 51): the clump stages of the pair kernel. */
static void wall_join(const pala_world *w, pala_batch *B, int k, int face, pala_vec3 c, double a, pala_vec3 n, double ov, double rt)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    const pala_pairmat *pm = &w->pm[t->material * w->nmat + w->wall_mat];
    int m = B->n++;
    pala_vec3 cp = pala_vaxpy(c, -(a - 0.5 * ov), n);
    pala_vec3 r = pala_vsub(cp, w->x[k]);
    pala_vec3 dv = pala_vadd(w->v[k], pala_vcross(w->w[k], r));
    B->k[m] = k; B->face[m] = face; B->ai[m] = a; B->ov[m] = ov; B->rt[m] = rt;
    B->nx[m] = n.x; B->ny[m] = n.y; B->nz[m] = n.z;
    B->ux[m] = dv.x; B->uy[m] = dv.y; B->uz[m] = dv.z;
    B->rix[m] = r.x; B->riy[m] = r.y; B->riz[m] = r.z;
    B->rjx[m] = B->rjy[m] = B->rjz[m] = 0;
    B->kE[m] = pm->kE; B->de[m] = pm->delta; B->mu[m] = pm->mu; B->nu[m] = pm->nu;
}

/* The wall contacts of a batch into the grains' sums A[k & mask], in batch order: the
 * forces of eqs. (53)-(57), wall impulses of a step dt, and the Hertz energy into *U. */
static void walls_run(const pala_world *w, pala_batch *B, pala_facc *A, long mask, double dt, double *U, pala_blocksum *s, runaway *ru)
{
    int m = B->n;
    for (int i = 0; i < m; i++) B->sq[i] = sqrt(B->rt[i] * B->ov[i]);
    stage_force(B, m, 0, 0, w->pm[0]);
    for (int i = 0; i < m; i++) {
        pala_facc *a = &A[B->k[i] & mask];
        pala_vec3 F = pala_v(B->Fx[i], B->Fy[i], B->Fz[i]);
        a->Fnc = pala_vadd(a->Fnc, pala_v(B->Gx[i], B->Gy[i], B->Gz[i]));
        a->Tnc = pala_vadd(a->Tnc, pala_v(B->Hix[i], B->Hiy[i], B->Hiz[i]));
        a->F = pala_vadd(a->F, F);
        a->T = pala_vadd(a->T, pala_v(B->Tix[i], B->Tiy[i], B->Tiz[i]));
        *U += 0.4 * (B->kE[i] * B->sq[i] * B->ov[i]) * B->ov[i];              /* (2/5) k (-d)^{5/2} */
        s->imp[B->face[i]] = pala_vaxpy(s->imp[B->face[i]], -dt, F);
        s->nwall++;
        note_overlap(w, B->ov[i] / B->ai[i], B->k[i], -1, s, ru);
    }
    B->n = 0;
}

/* The walls of the grains below k1 among the wall candidates from wcand[*cur] on (the
 * caller's grains), whose sums are A[k & mask]: each grain's contacts in a fixed order
 * (axis, component, side), batched through the kernel in that order.  B must be empty. */
static void block_walls(const pala_world *w, pala_batch *B, int *cur, int k1, pala_facc *A, long mask, double dt, double *U,
                        pala_blocksum *s, runaway *ru)
{
    const int *wc = w->work->wcand, cend = w->work->wcb[w->work->nblk];
    for (; *cur < cend && wc[*cur] < k1; ++*cur) {
        int k = wc[*cur];
        if (walls_clear(w, k, 0)) continue;
        const pala_template *t = &w->tmpl[w->tid[k]];
        double R = t->bound_radius;
        pala_vec3 x = w->x[k];
        int p0 = blk_peb(w, k);
        const double *rad = w->shape_r + t->comp0;
        if (w->container == PALA_CONTAINER_BOX) {
            const double xs[3] = {x.x, x.y, x.z};
            const double lo[3] = {w->box_lo.x, w->box_lo.y, w->box_lo.z}, hi[3] = {w->box_hi.x, w->box_hi.y, w->box_hi.z};
            int nax = w->dim == 2 ? 2 : 3;
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
                        if (B->n == BATCH) walls_run(w, B, A, mask, dt, U, s, ru);
                        wall_join(w, B, k, 2 * ax + side, pc, rad[i], pala_v(nn[0], nn[1], nn[2]), ov, 2 * rad[i]);
                    }
                }
            }
        } else {
            double Rc = w->cav_R;
            for (int i = 0; i < t->ncomp; i++) {
                pala_vec3 pc = w->pc ? w->pc[p0 + i] : x;
                pala_vec3 d = pala_vsub(pc, w->cav_c);
                double q = pala_vnorm(d), ov = q + rad[i] - Rc;
                if (ov <= 0 || q == 0) continue;
                double rt = 2 * rad[i] * Rc / (Rc - rad[i]);                   /* H(a, -Rc) */
                if (B->n == BATCH) walls_run(w, B, A, mask, dt, U, s, ru);
                wall_join(w, B, k, 0, pc, rad[i], pala_vscale(-1.0 / q, d), ov, rt);
            }
        }
    }
    if (B->n) walls_run(w, B, A, mask, dt, U, s, ru);
}

/* The thread's view of the sums during the sweep. */
typedef struct sweep {
    pala_world *w;
    pala_tscr *S;
    const int *bbrank;
    long mask;             /* ring size - 1 */
    int dissipative, spheres;
    int records;           /* the current block's rows add to a boundary block */
} sweep;

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

/* Stage 4: the contributions into the ring sums (records for the grains of boundary
 * blocks) in slot order, both grains of a contact at once.  With records, the row's grain
 * k (the same for consecutive contacts) keeps its sums in registers between rows; its
 * partners j > k are never a cached row grain.  Without, its sums go through memory at
 * every contact: the branch at each new row costs more (the processor mispredicts it
 * about once per row; measured 3 % slower on the sphere bed). */
static inline void deliver_ring(sweep *sw, pala_facc *restrict R, long mask, const pala_batch *restrict B, int m, const int diss,
                                const int spheres, const int records)
{
    int cur = -1, curbnd = 0;
    pala_facc o = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    for (int i = 0; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        if (!records || k != cur) {
            if (cur >= 0 && !curbnd) R[cur & mask] = o;
            cur = k;
            curbnd = records && sw->bbrank[(unsigned)k / PALA_BLOCK] >= 0;
            if (!curbnd) o = R[k & mask];
        }
        pala_facc ci, cj;
        ci.F = pala_v(B->Fx[i], B->Fy[i], B->Fz[i]);
        ci.T = pala_v(B->Tix[i], B->Tiy[i], B->Tiz[i]);
        cj.F = pala_vneg(ci.F);
        cj.T = pala_v(B->Tjx[i], B->Tjy[i], B->Tjz[i]);
        ci.Fnc = cj.Fnc = ci.Tnc = cj.Tnc = pala_v(0, 0, 0);   /* spheres: T serves (finish_range) */
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
            o.F = pala_vadd(o.F, ci.F);
            o.T = pala_vadd(o.T, ci.T);
            if (diss) {
                o.Fnc = pala_vadd(o.Fnc, ci.Fnc);
                if (!spheres) o.Tnc = pala_vadd(o.Tnc, ci.Tnc);
            }
        }
        if (records && sw->bbrank[(unsigned)j / PALA_BLOCK] >= 0) record(sw, j, &cj);
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
    if (cur >= 0 && !curbnd) R[cur & mask] = o;
}

/* Stage 4: the contributions into the grains' sums, contact by contact (slot order). */
static void stage_deliver(sweep *sw, pala_batch *B, int m, pala_blocksum *s, runaway *ru)
{
    pala_facc *R = sw->S->ring;
    const long mask = sw->mask;
    const int diss = sw->dissipative;
    if (sw->records) {
        if (sw->spheres) deliver_ring(sw, R, mask, B, m, diss, 1, 1);
        else deliver_ring(sw, R, mask, B, m, diss, 0, 1);
    } else if (sw->spheres) {
        if (diss) deliver_ring(sw, R, mask, B, m, 1, 1, 0);
        else deliver_ring(sw, R, mask, B, m, 0, 1, 0);
    } else {
        if (diss) deliver_ring(sw, R, mask, B, m, 1, 0, 0);
        else deliver_ring(sw, R, mask, B, m, 0, 0, 0);
    }
    double mx = s->worst;   /* the largest ratio (a vectorised max); a scan finds the first runaway */
    for (int i = 0; i < m; i++) mx = B->ratio[i] > mx ? B->ratio[i] : mx;
    if (mx > sw->w->max_overlap && !s->bad)
        for (int i = 0; i < m; i++) note_overlap(sw->w, B->ratio[i], B->k[i], B->j[i], s, ru);
    s->worst = mx;
    s->ngg += m;
    B->n = 0;
}

/* The kernel on a batch of sphere pairs. */
static void run_spheres(sweep *sw, pala_batch *B, pala_blocksum *s, runaway *ru)
{
    pala_world *w = sw->w;
    const pala_vec3 *V = w->v, *W = w->w;
    int m = B->n;
    stage_geometry(B, m);
    for (int i = 0; i < m; i++) {   /* stage 2: velocities (eq. 54) */
        int k = B->k[i], j = B->j[i];
        double li = B->li[i], lj = B->lj[i];
        B->ux[i] = V[k].x - V[j].x; B->uy[i] = V[k].y - V[j].y; B->uz[i] = V[k].z - V[j].z;
        B->sx[i] = li * W[k].x + lj * W[j].x;
        B->sy[i] = li * W[k].y + lj * W[j].y;
        B->sz[i] = li * W[k].z + lj * W[j].z;
    }
    if (w->nmat == 1) stage_force(B, m, 1, 1, w->pm[0]);   /* the material pair: constants */
    else { stage_materials(w, B, m); stage_force(B, m, 1, 0, w->pm[0]); }
    stage_deliver(sw, B, m, s, ru);
}

/* The kernel on a batch of component pairs of clumps: stage 2 finds the contact point
 * c_ij (eq. 50), the lever arms from both grains' centres and the velocities of both
 * grains' material there (eq. 54). */
static void run_clumps(sweep *sw, pala_batch *B, pala_blocksum *s, runaway *ru)
{
    pala_world *w = sw->w;
    const pala_vec3 *pc = w->pc, *X = w->x, *V = w->v, *W = w->w;
    int m = B->n;
    stage_geometry(B, m);
    for (int i = 0; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        pala_vec3 n = pala_v(B->nx[i], B->ny[i], B->nz[i]);
        pala_vec3 cp = pala_vaxpy(pc[B->p[i]], -B->li[i], n);                 /* eq. (50) */
        pala_vec3 ri = pala_vsub(cp, X[k]), rj = pala_vsub(cp, X[j]);
        pala_vec3 dv = pala_vsub(pala_vadd(V[k], pala_vcross(W[k], ri)), pala_vadd(V[j], pala_vcross(W[j], rj)));
        B->ux[i] = dv.x; B->uy[i] = dv.y; B->uz[i] = dv.z;
        B->rix[i] = ri.x; B->riy[i] = ri.y; B->riz[i] = ri.z;
        B->rjx[i] = rj.x; B->rjy[i] = rj.y; B->rjz[i] = rj.z;
    }
    if (w->nmat == 1) stage_force(B, m, 0, 1, w->pm[0]);
    else { stage_materials(w, B, m); stage_force(B, m, 0, 0, w->pm[0]); }
    stage_deliver(sw, B, m, s, ru);
}

/* eq. (49): the touching pairs of the rows of grains [k0, k1) join the batch, without a
 * branch per neighbour; full batches run through the kernel.  spheres: pebble k is grain
 * k at x[k] (a constant, so each world gets its own loop). */
static inline void collect_pairs(sweep *sw, int k0, int k1, pala_blocksum *s, runaway *ru, const int spheres)
{
    pala_world *w = sw->w;
    const int *nb = w->nl.nbr, *row = w->nl.row, *pg = w->pg;
    const double *prad = w->work->prad;
    const pala_vec3 *P = spheres ? w->x : w->pc;
    pala_batch *restrict B = sw->S->B;
    void (*run)(sweep *, pala_batch *, pala_blocksum *, runaway *) = spheres ? run_spheres : run_clumps;
    int n = 0;   /* the batch's count, in a register (B->n when the kernel runs) */
    /* one loop over the block's slots (rows in order): no branch at the end of a row */
    const int s1 = w->nl.start[blk_peb(w, k1)];
    for (int s0 = w->nl.start[blk_peb(w, k0)]; s0 < s1; s0++) {
        int p = row[s0], q = nb[s0];
        double dx = P[p].x - P[q].x, dy = P[p].y - P[q].y, dz = P[p].z - P[q].z, ai = prad[p], aj = prad[q], sr = ai + aj;
        double d2 = dx * dx + dy * dy + dz * dz;
        B->k[n] = spheres ? p : pg[p]; B->j[n] = spheres ? q : pg[q];
        if (!spheres) B->p[n] = p;
        B->dx[n] = dx; B->dy[n] = dy; B->dz[n] = dz; B->d2[n] = d2; B->ai[n] = ai; B->aj[n] = aj;
        n += d2 < sr * sr;
        if (n == BATCH) { B->n = n; run(sw, B, s, ru); n = 0; }
    }
    if (n) { B->n = n; run(sw, B, s, ru); }
}

static void block_pairs(sweep *sw, int k0, int k1, pala_blocksum *s, runaway *ru)
{
    if (sw->spheres) collect_pairs(sw, k0, k1, s, ru, 1);
    else collect_pairs(sw, k0, k1, s, ru, 0);
}

typedef struct finish_acc { double pdiss, mv, mv2, chk; } finish_acc;   /* per block */

/* eq. (69) and, when chained, eqs. (65)-(66) for grains [k0, k1) that are all isotropic
 * in 3D (spheres, symmetric clumps), in loops the compiler vectorises across grains: the
 * operations of pala_grain_end_drift and pala_grain_start_step, in the same order, so the
 * same bits.  Both free motions turn by the same exp(tau omega) (omega is constant in an
 * isotropic free motion, and the kick comes after the second), computed once.  Only for
 * grains that turn by less than 0.1 rad in a half step (exp's series, pala_rot_exp). */
static inline double drift_isotropic_loop(int m, double tau, pala_vec3 *restrict Xb, pala_vec3 *restrict Rb,
                                          pala_vec3 *restrict Vb, pala_vec3 *restrict Wb, const pala_vec3 *restrict AC,
                                          const pala_vec3 *restrict BA, double *restrict d2, double *restrict qn, double chk,
                                          const int chain)
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

static void drift_isotropic(pala_world *w, int k0, int k1, finish_acc *fa)
{
    const pala_work *wk = w->work;
    const int chain = wk->chain;
    double d2[PALA_BLOCK], qn[PALA_BLOCK];
    const double tau = 0.5 * w->dt;
    const int m = k1 - k0;
    double chk = chain ? drift_isotropic_loop(m, tau, w->x + k0, w->r + k0, w->v + k0, w->w + k0, w->acc + k0, w->bacc + k0, d2, qn, fa->chk, 1)
                       : drift_isotropic_loop(m, tau, w->x + k0, w->r + k0, w->v + k0, w->w + k0, w->acc + k0, w->bacc + k0, d2, qn, fa->chk, 0);
    fa->chk = chk;
    /* displacement bounds (pala_free_motion_h), the same for both free motions */
    double mv = 0;
    for (int k = k0; k < k1; k++) {
        double d = d2[k - k0];
        if (!wk->spheres_only && w->tmpl[w->tid[k]].ncomp > 1) {
            d = sqrt(d) + 2 * sqrt(qn[k - k0]) * wk->smax[w->tid[k]];
            d = d * d;
        }
        mv = d > mv ? d : mv;
    }
    if (mv > fa->mv) fa->mv = mv;
    if (chain) {
        if (mv > fa->mv2) fa->mv2 = mv;
        if (w->pc)
            for (int k = k0; k < k1; k++) pala_world_place_pebbles(w, k);
    }
}

/* eq. (69) and, when chained, eqs. (65)-(66) for grains [k0, k1), grain by grain. */
static void drift_general(pala_world *w, int k0, int k1, finish_acc *fa)
{
    double mv = fa->mv, chk = fa->chk;
    for (int k = k0; k < k1; k++) {
        double d2 = pala_grain_end_drift(w, k);                                /* eq. (69) */
        mv = d2 > mv ? d2 : mv;
        chk += pala_grain_check(w, k);
    }
    fa->mv = mv;
    fa->chk = chk;
    if (!w->work->chain) return;
    /* the next step's eqs. (65)-(66) at once, while the grains are in cache: the same
     * operations in the same order as a separate pass */
    double mv2 = fa->mv2;
    for (int k = k0; k < k1; k++) {
        double d2a = pala_grain_start_step(w, k);
        mv2 = d2a > mv2 ? d2a : mv2;
    }
    fa->mv2 = mv2;
}

static void finish_isotropic(pala_world *w, int k0, int k1, pala_facc *A, long mask, int tid, finish_acc *fa);

/* The grains [k0, k1) have complete sums (A[k & mask]: field and contributions): their
 * walls (batched through the kernel), the end of their step (eqs. 61-62, 68-69) and, when
 * chained, the start of the next (eqs. 65-66).  Each grain gets the operations of a
 * grain-by-grain loop, but in passes over the range: short loops whose iterations are
 * independent (vectorised for a block of one isotropic template), so the processor
 * overlaps the long dependency chains of the rotation update of many grains.  Spheres:
 * all torque (pairs and walls) is friction's, so T serves as the non-conservative
 * torque and Tnc stays unused. */
static void finish_range(pala_world *w, pala_batch *B, int k0, int k1, pala_facc *A, long mask, pala_blocksum *s, runaway *ru, finish_acc *fa)
{
    const pala_work *wk = w->work;
    double U = 0;
    int cur = wk->wcb[k0 / PALA_BLOCK];
    block_walls(w, B, &cur, k1, A, mask, w->dt, &U, s, ru);
    int tid = wk->btid[k0 / PALA_BLOCK];
    if (w->dim == 3 && tid >= 0 && w->tmpl[tid].isotropic) {
        finish_isotropic(w, k0, k1, A, mask, tid, fa);
        return;
    }
    double tau = 0.5 * w->dt, pdiss = 0;
    for (int k = k0; k < k1; k++) {
        pala_facc *a = &A[k & mask];
        const pala_template *t = &w->tmpl[w->tid[k]];
        pala_vec3 an = pala_vscale(wk->invm[w->tid[k]], a->F);                /* eq. (61) */
        pala_vec3 be = ang_acc(t, w->r[k], a->T);                              /* eq. (62) */
        if (wk->dissipative) {
            /* Work of the non-conservative forces over the step, with the velocities the
             * positions actually advance by, v + tau alpha_new (the kinetic energy changes
             * by exactly F . dt (v_n + v_n+1)/2 in this scheme). */
            pala_vec3 vm = pala_vaxpy(w->v[k], tau, pala_vsub(an, w->acc[k]));
            pala_vec3 om = pala_vaxpy(w->w[k], tau, pala_vsub(be, w->bacc[k]));
            pdiss += pala_vdot(a->Fnc, vm) + pala_vdot(wk->spheres_only ? a->T : a->Tnc, om);
        }
        pala_grain_end_kick(w, k, an, be);                                     /* eq. (68) */
    }
    fa->pdiss += pdiss;
    drift_general(w, k0, k1, fa);
}

/* finish_range for a block of grains of one isotropic template in 3D (spheres, symmetric
 * clumps): the same operations in the same order, in short loops over the grains.  *big
 * counts grains that turn by 0.1 rad or more in a half step (they take drift_general). */
static inline void kick_isotropic(pala_world *w, int k0, int k1, const pala_facc *A, long mask, int tid, const int diss,
                                  const int spheres, finish_acc *fa, int *big)
{
    const double tau = 0.5 * w->dt, im = w->work->invm[tid], ii = w->tmpl[tid].inv_inertia[0];
    pala_vec3 *restrict Vb = w->v + k0, *restrict Wb = w->w + k0, *restrict AC = w->acc + k0, *restrict BA = w->bacc + k0;
    double pd[PALA_BLOCK], th2[PALA_BLOCK];
    const pala_facc *restrict Ab = &A[k0 & mask];   /* a block never wraps around the ring */
    const int m = k1 - k0;
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
        pala_vec3 an = pala_vscale(im, a->F);                                  /* eq. (61) */
        pala_vec3 be = pala_vscale(ii, a->T);                                  /* eq. (62) */
        pala_vec3 v = Vb[i], om = Wb[i], ac = AC[i], ba = BA[i];
        pala_vec3 vm = pala_vaxpy(v, tau, pala_vsub(an, ac));                 /* see finish_range */
        pala_vec3 omm = pala_vaxpy(om, tau, pala_vsub(be, ba));
        pd[i] = pala_vdot(a->Fnc, vm) + pala_vdot(spheres ? a->T : a->Tnc, omm);
        v = pala_vaxpy(v, tau, pala_vsub(pala_vscale(2, an), ac));            /* eq. (68) */
        om = pala_vaxpy(om, tau, pala_vsub(pala_vscale(2, be), ba));
        Vb[i] = v; Wb[i] = om; AC[i] = an; BA[i] = be;
        pala_vec3 h = pala_vscale(0.5 * tau, pala_vadd(om, om));
        th2[i] = pala_vdot(h, h);
    }
    double pdiss = 0;
    int nbig = 0;
    for (int i = 0; i < m; i++) {   /* in grain order, as the general path */
        if (diss) pdiss += pd[i];
        nbig += !(th2[i] < 0.01);
    }
    fa->pdiss += pdiss;
    *big = nbig;
}

static void finish_isotropic(pala_world *w, int k0, int k1, pala_facc *A, long mask, int tid, finish_acc *fa)
{
    const pala_work *wk = w->work;
    int big;
    if (wk->spheres_only) kick_isotropic(w, k0, k1, A, mask, tid, wk->dissipative, 1, fa, &big);
    else kick_isotropic(w, k0, k1, A, mask, tid, wk->dissipative, 0, fa, &big);
    if (big) drift_general(w, k0, k1, fa);
    else drift_isotropic(w, k0, k1, fa);
}

static void finish_block(pala_world *w, int b, pala_blocksum *s, runaway *ru, finish_acc *fa)
{
    s->pdiss = fa->pdiss;
    s->move = fa->mv;
    s->move2 = fa->mv2;
    s->finite = fa->chk == 0;
    s->bad_ratio = ru->ratio; s->bad_i = ru->i; s->bad_j = ru->j;
    w->work->bs[b] = *s;
}

/* Phase 1: thread t sweeps blocks [b0, b1). */
static void sweep_job(pala_world *w, int t, int b0, int b1)
{
    double t0 = pala_now();
    pala_work *wk = w->work;
    sweep sw = {w, &wk->ts[t], wk->bbrank, wk->ts[t].nring - 1, wk->dissipative, wk->spheres_only, 0};
    sw.S->nout = 0;
    int kend = blk_end(w, b1 - 1);
    long init = (long)b0 * PALA_BLOCK;   /* ring sums started for grains below this */
    for (int b = b0; b < b1; b++) {
        int k0 = b * PALA_BLOCK, k1 = blk_end(w, b);
        long hi = k1 + wk->span < kend ? k1 + wk->span : kend;
        for (; init < hi; init++) facc_start(w, (int)init, &sw.S->ring[init & sw.mask]);
        pala_blocksum s;
        memset(&s, 0, sizeof s);
        runaway ru = {0, 0, -1};
        sw.records = wk->brec[b];   /* the record checks only where needed */
        block_pairs(&sw, k0, k1, &s, &ru);
        finish_acc fa = {0, 0, 0, 0};
        if (wk->bbrank[b] < 0) finish_range(w, sw.S->B, k0, k1, sw.S->ring, sw.mask, &s, &ru, &fa);
        finish_block(w, b, &s, &ru, &fa);
    }
    sw.S->busy += pala_now() - t0;
}

/* Phase 2: thread t finishes the boundary blocks among its own [b0, b1) (ranks [r0, r1)
 * of the boundary blocks).  Each grain's sum is its field plus its records of threads
 * 0..t, added in one pass over the records in that order (each thread's in slot order,
 * the threads' slots increasing): the order of the one-thread sweep, without sorting.
 * The blocks stay with the thread that swept them: sharing them out evenly was 2-4 %
 * slower (their state and records are in the owner's cache). */
static void boundary_job(pala_world *w, int t, int b0, int b1)
{
    pala_work *wk = w->work;
    pala_tscr *S = &wk->ts[t];
    int r0 = 0, r1;
    while (r0 < wk->nbb && wk->bb[r0] < b0) r0++;
    for (r1 = r0; r1 < wk->nbb && wk->bb[r1] < b1; r1++) {}
    if (r1 <= r0) return;
    long ng = (long)(r1 - r0) * PALA_BLOCK;
    if (S->nsum < ng) { S->nsum = ng; PALA_GROW(S->sum, S->nsum); }
    pala_facc *A = S->sum;   /* A[(rank - r0) * PALA_BLOCK + k % PALA_BLOCK] */
    for (int r = r0; r < r1; r++)
        for (int k = wk->bb[r] * PALA_BLOCK; k < blk_end(w, wk->bb[r]); k++) facc_start(w, k, &A[(long)(r - r0) * PALA_BLOCK + k % PALA_BLOCK]);
    for (int u = 0; u <= t; u++) {
        const pala_frec *o = wk->ts[u].out;
        for (long i = 0, n = wk->ts[u].nout; i < n; i++) {
            long g = o[i].g;
            int r = wk->bbrank[g / PALA_BLOCK];
            if (r >= r0 && r < r1) facc_add(&A[(long)(r - r0) * PALA_BLOCK + g % PALA_BLOCK], &o[i].a, wk->dissipative);
        }
    }
    for (int r = r0; r < r1; r++) {
        int b = wk->bb[r];
        pala_blocksum s = wk->bs[b];
        runaway ru = {s.bad_ratio, s.bad_i, s.bad_j};
        finish_acc fa = {0, 0, 0, 0};
        finish_range(w, S->B, b * PALA_BLOCK, blk_end(w, b), A + (long)(r - r0) * PALA_BLOCK, PALA_BLOCK - 1, &s, &ru, &fa);
        finish_block(w, b, &s, &ru, &fa);
    }
}

/* After each list build, and when the split moves (balance): the window of the ring sums,
 * the threads' boundary blocks, the blocks that take records, the wall candidates. */
void pala_sweep_setup(pala_world *w)
{
    pala_work *wk = w->work;
    const int *st = w->nl.start, *nb = w->nl.nbr;
    int nthr = pala_world_nthr(w);
    long span = 0;
    for (int b = 0; b < wk->nblk; b++) wk->bbrank[b] = -1;
    for (int t = 0; t < nthr; t++) {
        int b0 = wk->split[t], b1 = wk->split[t + 1];
        int kend = b1 > b0 ? blk_end(w, b1 - 1) : b0 * PALA_BLOCK;
        for (int k = b0 * PALA_BLOCK; k < kend; k++)
            for (int p = blk_peb(w, k); p < blk_peb(w, k + 1); p++)
                for (int s = st[p]; s < st[p + 1]; s++) {
                    int g = pala_peb_grain(w, nb[s]);
                    if (g - k > span) span = g - k;
                    if (g / PALA_BLOCK >= b1) wk->bbrank[g / PALA_BLOCK] = 0;   /* listed by an earlier thread */
                }
    }
    wk->span = span;
    /* wall candidates: until the next build every grain moves by less than the skin */
    long nc = 0;
    for (int b = 0; b < wk->nblk; b++) {
        wk->wcb[b] = (int)nc;
        for (int k = b * PALA_BLOCK; k < blk_end(w, b) && w->container != PALA_CONTAINER_NONE; k++) {
            if (walls_clear(w, k, w->nl.skin)) continue;
            if (nc == wk->capw) { wk->capw = 2 * wk->capw + 256; PALA_GROW(wk->wcand, wk->capw); }
            wk->wcand[nc++] = k;
        }
    }
    wk->wcb[wk->nblk] = (int)nc;
    for (int b = 0; b < wk->nblk; b++) {   /* blocks whose rows add to a boundary block */
        int r = wk->bbrank[b] >= 0;
        for (int s = st[blk_peb(w, b * PALA_BLOCK)]; s < st[blk_peb(w, blk_end(w, b))] && !r; s++)
            r = wk->bbrank[pala_peb_grain(w, nb[s]) / PALA_BLOCK] >= 0;
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

/* Every 128 steps with threads: move the split so that the threads' measured times in the
 * sweep would have been equal (each thread's time spread evenly over its blocks), if that
 * shortens the longest by more than 4 %.  (The boundary phase follows a barrier, so only
 * the sweep's times need to be equal.)  Only with at least one block per thread.  The
 * boundary blocks follow the split (pala_sweep_setup); the sums do not, so results are
 * the same bits for any split. */
static void balance(pala_world *w)
{
    pala_work *wk = w->work;
    int n = pala_world_nthr(w);
    if (n < 2 || wk->nblk < n || ++wk->bsteps < 128) return;
    const int *sp = wk->split;
    double tot = 0, mx = 0;
    for (int t = 0; t < n; t++) { tot += wk->ts[t].busy; mx = fmax(mx, wk->ts[t].busy); }
    int *ns = wk->split + n + 1, t = 0;   /* the block where the cumulative time reaches tot u / n */
    double c = 0;
    ns[0] = 0;
    ns[n] = wk->nblk;
    for (int u = 1; u < n; u++) {
        double goal = tot * u / n;
        while (t < n - 1 && c + wk->ts[t].busy < goal) c += wk->ts[t].busy, t++;
        double f = wk->ts[t].busy > 0 ? (goal - c) / wk->ts[t].busy : 0;
        int b = sp[t] + (int)lround(f * (sp[t + 1] - sp[t]));
        ns[u] = b < ns[u - 1] + 1 ? ns[u - 1] + 1 : b > wk->nblk - (n - u) ? wk->nblk - (n - u) : b;
    }
    /* the longest time the new split would have taken: move only if 4 % shorter (whole
     * blocks cannot balance exactly; without the margin the split would swing) */
    double pmx = 0;
    for (int u = 0; u < n; u++) {
        double pu = 0;
        for (int v = 0; v < n; v++) {
            int lo = ns[u] > sp[v] ? ns[u] : sp[v], hi = ns[u + 1] < sp[v + 1] ? ns[u + 1] : sp[v + 1];
            if (hi > lo) pu += wk->ts[v].busy * (hi - lo) / (sp[v + 1] - sp[v]);
        }
        pmx = fmax(pmx, pu);
    }
    if (pmx < 0.96 * mx) {
        for (int u = 0; u <= n; u++) wk->split[u] = ns[u];
        pala_sweep_setup(w);
    }
    wk->bsteps = 0;
    for (int u = 0; u < n; u++) wk->ts[u].busy = 0;
}

/* The force evaluation of a step (eq. 67) with the end of every grain's step.  An
 * unstable step (runaway overlap, non-finite state) still ends every grain's step, and
 * starts the next one when chained (integrator.c then does the same for an unchained
 * step), so the state reported depends neither on the threads nor on the chaining. */
int pala_world_forces_step(pala_world *w, double *pdiss)
{
    pala_nlist_update(w);
    pala_world_par_t(w, sweep_job);
    if (w->work->nbb) pala_world_par_t(w, boundary_job);
    balance(w);
    return reduce_forces(w, NULL, pdiss) ? PALA_UNSTABLE : PALA_OK;
}

/* ---- the contact energy of the current state (no step) --------------------------------- */
static void energy_blocks(pala_world *w, int t, int b0, int b1)
{
    const int *st = w->nl.start, *nb = w->nl.nbr;
    const double *prad = w->work->prad;
    pala_batch *B = w->work->ts[t].B;
    for (int b = b0; b < b1; b++) {
        pala_blocksum s;
        memset(&s, 0, sizeof s);
        runaway ru = {0, 0, -1};
        double U = 0;
        int cur = w->work->wcb[b];
        for (int k = b * PALA_BLOCK; k < blk_end(w, b); k++) {
            for (int p = blk_peb(w, k); p < blk_peb(w, k + 1); p++) {
                pala_vec3 ci = w->pc && !w->work->spheres_only ? w->pc[p] : w->x[p];
                for (int s0 = st[p]; s0 < st[p + 1]; s0++) {
                    int q = nb[s0];
                    pala_vec3 cj = w->pc && !w->work->spheres_only ? w->pc[q] : w->x[q];
                    double ai = prad[p], aj = prad[q], sr = ai + aj, d2 = pala_vnorm2(pala_vsub(ci, cj));
                    if (d2 >= sr * sr) continue;
                    int j = pala_peb_grain(w, q);
                    const pala_pairmat *pm = w->pm + w->tmpl[w->tid[k]].material * w->nmat + w->tmpl[w->tid[j]].material;
                    double ov = sr - sqrt(d2);
                    double fh = pm->kE * sqrt(2 * ai * aj / sr * ov) * ov;     /* eq. (57) */
                    U += 0.4 * fh * ov;                                        /* (2/5) k (-d)^{5/2} */
                    s.ngg++;
                    note_overlap(w, ov / (ai < aj ? ai : aj), k, j, &s, &ru);
                }
            }
            pala_facc A;
            facc_start(w, k, &A);
            block_walls(w, B, &cur, k + 1, &A, 0, 0, &U, &s, &ru);
        }
        s.U = U;
        s.bad_ratio = ru.ratio; s.bad_i = ru.i; s.bad_j = ru.j;
        w->work->bs[b] = s;
    }
}

int pala_world_forces(pala_world *w, double *U)
{
    if (!w->work) pala_work_prepare(w);
    if (w->pc)
        for (int k = 0; k < w->n; k++) pala_world_place_pebbles(w, k);
    pala_nlist_update(w);
    pala_world_par_t(w, energy_blocks);
    return reduce_forces(w, U, NULL) ? PALA_UNSTABLE : PALA_OK;
}

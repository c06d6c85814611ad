/* contact_list.c: the contacts of the current state, for output (pala.h,
 * pala_world_contact_list): every touching component pair of the neighbour list and every
 * wall touch through the contact kernel (contact.c, eqs. 48-57) at the state itself, with
 * the contacts' states copied (so the kernel's advance of them is thrown away) and dt = 0
 * (so a spring gives the force of the displacement it holds, -k x capped at mu F_n, and the
 * caps do not grow: docs/physics.md, "Contacts and stress").  Nothing of the world's step
 * changes: no state, sum, account or diagnostic; the force pass is not touched, so the steps
 * cost what they did.
 *
 * The blocks run on the world's threads, each into a list of its own; the lists are joined
 * in block order, and the grains' sums, coordination numbers and wall counts are formed
 * serially in that order: the same bits for any thread count. */
#include "pala/pala.h"
#include "alloc.h"
#include "arcs.h"
#include "contact.h"
#include "contact_state.h"
#include "container.h"
#include "grain.h"
#include "neighbor.h"
#include "work.h"
#include "world.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A block's contacts. */
typedef struct blockout { pala_contact *c; long n, cap; } blockout;
/* A thread's scratch beside the step's (work.h): the copies of the batch's states, the
 * pebbles of its contacts. */
typedef struct lscr { double *h; int hn; int p[BATCH], q[BATCH]; } lscr;
typedef struct lpriv {
    blockout *blk;
    int nblk;
    lscr *ts;
    int nth;
    int *stamp, nstamp;   /* the coordination: grain j counted for grain stamp[j] - 1 */
} lpriv;

static int gidx(const pala_world *w, int k) { return w->gid ? w->gid[k] : k; }
/* the numbers grains were given so far (more than the grains when some left) */
static int numbers(const pala_world *w) { return w->gid ? w->nid : w->n; }

/* The contacts of a batch that went through the kernel into block list o: pairs (their
 * pebbles in S->p, S->q) or wall touches (pebble in S->p). */
static void emit(const pala_world *w, const pala_batch *B, const lscr *S, blockout *o, int pairs, int moments)
{
    if (o->n + B->n > o->cap) {
        o->cap = 2 * o->cap + B->n + 64;
        PALA_GROW(o->c, o->cap);
    }
    const int spheres = w->work->spheres_only;
    for (int i = 0; i < B->n; i++) {
        pala_contact *c = &o->c[o->n++];
        int k = B->k[i];
        pala_vec3 n = pala_v(B->nx[i], B->ny[i], B->nz[i]), F = pala_v(B->Fx[i], B->Fy[i], B->Fz[i]);
        /* the lever arm from G's centre to the contact point (eq. 50): -l_i n for a sphere
         * pair (stage_geometry), the kernel's own for clumps and walls */
        pala_vec3 r = pairs && spheres ? pala_vscale(-B->li[i], n) : pala_v(B->rix[i], B->riy[i], B->riz[i]);
        c->i = gidx(w, k);
        c->ci = S->p[i] - pala_grain_peb0(w, k);
        c->j = pairs ? gidx(w, B->j[i]) : -1;
        c->cj = pairs ? S->q[i] - pala_grain_peb0(w, B->j[i]) : -1;
        c->face = pairs ? -1 : B->face[i];
        c->x = pala_vadd(w->x[k], r);
        c->n = n;
        c->overlap = B->ov[i];
        c->fn = pala_vdot(F, n);
        c->ft = pala_vaxpy(F, -c->fn, n);
        c->m = moments ? pala_v(B->mcx[i], B->mcy[i], B->mcz[i]) : pala_v(0, 0, 0);
    }
}

/* The kernel on a batch at the current state (dt 0), then its contacts into o.  The
 * moments are written only by contacts that have rolling or torsion springs: 0 first. */
static void run_batch(const pala_world *w, pala_batch *B, const lscr *S, blockout *o, int pairs, int moments)
{
    if (moments)
        for (int i = 0; i < B->n; i++) B->mcx[i] = B->mcy[i] = B->mcz[i] = 0;
    if (!pairs) pala_contact_walls(w, B, 0.0);
    else if (w->work->spheres_only) pala_contact_spheres(w, B, 0.0);
    else pala_contact_clumps(w, B, 0.0);
    emit(w, B, S, o, pairs, moments);
    B->n = 0;
}

/* The state of contact m of the batch: a copy of st (zero if NULL), so the kernel's advance
 * of it is lost. */
static void take_state(pala_batch *B, lscr *S, int m, const double *st)
{
    if (!S->hn) { B->hp[m] = NULL; return; }
    double *h = S->h + (long)m * S->hn;
    if (st) memcpy(h, st, (size_t)S->hn * sizeof *h);
    else memset(h, 0, (size_t)S->hn * sizeof *h);
    B->hp[m] = h;
}

/* The touching pairs of the rows of block b (eq. 49), in slot order. */
static void block_pairs(const pala_world *w, pala_batch *B, lscr *S, int b, blockout *o, int moments)
{
    const pala_nlist *nl = w->nl;
    const int spheres = w->work->spheres_only;
    const pala_vec3 *P = spheres ? w->x : w->pc;
    int k0 = b * PALA_BLOCK, k1 = pala_block_end(w->n, b);
    B->n = 0;
    for (int s0 = nl->start[pala_grain_peb0(w, k0)]; s0 < nl->start[pala_grain_peb0(w, k1)]; s0++) {
        int p = nl->row[s0], q = nl->nbr[s0];
        double ai = pala_nlist_rad(nl, w->tid, p), aj = pala_nlist_rad(nl, w->tid, q), sr = ai + aj;
        pala_vec3 d = pala_vsub(P[p], P[q]);
        double d2 = pala_vnorm2(d);
        if (!pala_pair_touch(w->parc, p, q, d.x, d.y, d2, sr)) continue;   /* eq. (49); arcs: (A5) */
        int m = B->n++;
        B->k[m] = pala_peb_grain(w, p); B->j[m] = pala_peb_grain(w, q); B->p[m] = p;
        B->dx[m] = d.x; B->dy[m] = d.y; B->dz[m] = d.z; B->d2[m] = d2; B->ai[m] = ai; B->aj[m] = aj;
        S->p[m] = p; S->q[m] = q;
        take_state(B, S, m, nl->hn ? nl->hs + (long)s0 * nl->hn : NULL);
        if (B->n == BATCH) run_batch(w, B, S, o, 1, moments);
    }
    if (B->n) run_batch(w, B, S, o, 1, moments);
}

/* The wall touches of block b's grains, grain by grain, wall by wall (container.h). */
static void block_walls(const pala_world *w, pala_tscr *T, lscr *S, int b, blockout *o, int moments)
{
    pala_batch *B = T->B;
    int cand[PALA_BLOCK], nc = 0;
    for (int k = b * PALA_BLOCK; k < pala_block_end(w->n, b); k++)
        if (!pala_walls_clear(w, w->x[k], w->tmpl[w->tid[k]].bound_radius)) cand[nc++] = k;
    B->n = 0;
    for (int cur = 0; cur < nc;) {
        int used, nt = pala_walls_touch(w, cand + cur, nc - cur, T->touch, T->ntouch, &used);
        for (int i = 0; i < nt; i++) {
            if (B->n == BATCH) run_batch(w, B, S, o, 0, moments);
            const pala_wall_touch *t = &T->touch[i];
            pala_contact_wall_join(w, B, t->k, t);
            S->p[B->n - 1] = t->p;
            take_state(B, S, B->n - 1, S->hn ? pala_wallhist_find(w, t->p, t->id, 0) : NULL);
        }
        if (used <= 0) break;   /* room for a grain's touches is made by pala_work_prepare */
        cur += used;
    }
    if (B->n) run_batch(w, B, S, o, 0, moments);
}

typedef struct lctx { const pala_world *w; lpriv *P; int moments; } lctx;

static void list_blocks(void *ctx, int t, int b0, int b1)
{
    const lctx *X = ctx;
    const pala_world *w = X->w;
    for (int b = b0; b < b1; b++) {
        blockout *o = &X->P->blk[b];
        o->n = 0;
        block_pairs(w, w->work->ts[t].B, &X->P->ts[t], b, o, X->moments);
        block_walls(w, &w->work->ts[t], &X->P->ts[t], b, o, X->moments);
    }
}

/* The scratch for the world's blocks and threads. */
static lpriv *priv_of(const pala_world *w, pala_contact_list *L)
{
    if (!L->priv) {
        L->priv = pala_xrealloc(NULL, sizeof(lpriv));
        memset(L->priv, 0, sizeof(lpriv));
    }
    lpriv *P = L->priv;
    int nblk = w->work->nblk, nth = w->work->nth, hn = w->work->cm->hn;
    if (P->nblk < nblk) {
        PALA_GROW(P->blk, nblk);
        memset(P->blk + P->nblk, 0, (size_t)(nblk - P->nblk) * sizeof *P->blk);
        P->nblk = nblk;
    }
    if (P->nth < nth) {
        PALA_GROW(P->ts, nth);
        memset(P->ts + P->nth, 0, (size_t)(nth - P->nth) * sizeof *P->ts);
        P->nth = nth;
    }
    for (int t = 0; t < nth; t++)
        if (P->ts[t].hn != hn) {
            P->ts[t].hn = hn;
            PALA_GROW(P->ts[t].h, (long)BATCH * hn + 1);
        }
    if (P->nstamp < numbers(w)) {
        P->nstamp = numbers(w);
        PALA_GROW(P->stamp, P->nstamp);
    }
    return P;
}

/* The grains' sums, coordination numbers and wall counts from the joined list, in its order:
 * a pair's contacts are all in the rows of its lower grain, one after another with that
 * grain's other pairs (its pebbles' rows are consecutive slots), so a stamp per partner
 * counts each partner once; so does one per face, its walls being consecutive too. */
static void grain_sums(const pala_world *w, pala_contact_list *L, lpriv *P)
{
    int n = L->ngrains;
    if (n > 0) {   /* a world of no grain yet (a pour's start) has no arrays: memset takes no NULL */
        memset(L->F, 0, (size_t)n * sizeof *L->F);
        memset(L->T, 0, (size_t)n * sizeof *L->T);
        memset(L->z, 0, (size_t)n * sizeof *L->z);
        memset(L->zw, 0, (size_t)n * sizeof *L->zw);
        memset(P->stamp, 0, (size_t)n * sizeof *P->stamp);
    }
    int fstamp[PALA_WALL_FACES + 128];
    memset(fstamp, 0, sizeof fstamp);
    for (long q = 0; q < L->n; q++) {
        const pala_contact *c = &L->c[q];
        pala_vec3 F = pala_vaxpy(c->ft, c->fn, c->n);
        int ki = w->gid ? w->inv[c->i] : c->i;
        L->F[c->i] = pala_vadd(L->F[c->i], F);
        L->T[c->i] = pala_vadd(L->T[c->i], pala_vadd(pala_vcross(pala_vsub(c->x, w->x[ki]), F), c->m));
        if (c->j < 0) {
            int f = c->face < (int)(sizeof fstamp / sizeof fstamp[0]) ? c->face : 0;
            if (fstamp[f] != c->i + 1) { fstamp[f] = c->i + 1; L->zw[c->i]++; }
            continue;
        }
        int kj = w->gid ? w->inv[c->j] : c->j;
        L->F[c->j] = pala_vsub(L->F[c->j], F);
        L->T[c->j] = pala_vsub(L->T[c->j], pala_vadd(pala_vcross(pala_vsub(c->x, w->x[kj]), F), c->m));
        if (P->stamp[c->j] != c->i + 1) {
            P->stamp[c->j] = c->i + 1;
            L->z[c->i]++;
            L->z[c->j]++;
        }
    }
}

int pala_world_contact_list(pala_world *w, pala_contact_list *L)
{
    int st = pala_world_ready(w);   /* the state as the energy pass sees it */
    if (st) return st;
    lpriv *P = priv_of(w, L);
    lctx X = {w, P, (w->work->cm->laws & PALA_LAWS_ROLLTOR) != 0};
    pala_team_run(w->team, list_blocks, &X);
    long n = 0;
    for (int b = 0; b < w->work->nblk; b++) n += P->blk[b].n;
    if (n > L->cap) {
        L->cap = n + n / 4 + 16;
        PALA_GROW(L->c, L->cap);
    }
    L->n = 0;
    for (int b = 0; b < w->work->nblk; b++) {
        if (P->blk[b].n) memcpy(L->c + L->n, P->blk[b].c, (size_t)P->blk[b].n * sizeof *L->c);
        L->n += P->blk[b].n;
    }
    int nn = numbers(w);
    if (L->ngrains < nn || !L->F) {
        PALA_GROW(L->F, nn + 1); PALA_GROW(L->T, nn + 1);
        PALA_GROW(L->z, nn + 1); PALA_GROW(L->zw, nn + 1);
    }
    L->ngrains = nn;
    L->moments = X.moments;
    grain_sums(w, L, P);
    return PALA_OK;
}

void pala_contact_list_free(pala_contact_list *L)
{
    lpriv *P = L->priv;
    if (P) {
        for (int b = 0; b < P->nblk; b++) free(P->blk[b].c);
        for (int t = 0; t < P->nth; t++) free(P->ts[t].h);
        free(P->blk); free(P->ts); free(P->stamp);
        free(P);
    }
    free(L->c); free(L->F); free(L->T); free(L->z); free(L->zw);
    memset(L, 0, sizeof *L);
}

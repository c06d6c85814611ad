/* contact_state.c: the states of the contacts of the laws with history (docs/physics.md,
 * "Contact history"): the wall contacts' tables, one per block, and both kinds of state
 * in a checkpoint (pala_world_history_get/set).  The pairs' states live in the neighbour
 * list's slots (neighbor.c), which carries them over a rebuild. */
#include "contact_state.h"
#include "alloc.h"
#include "contact.h"
#include "grain.h"
#include "neighbor.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the states of wall contacts -------------------------------------------------------- */
/* Per block, an open-addressing hash of its grains' wall contacts, keyed by (pebble, wall):
 * a block's grains are finished by one thread at a time, so it needs no lock, and what a
 * lookup finds does not depend on the threads.  An entry touched at the force evaluation
 * of step n has stamp n; at step n + 1 an entry of another stamp is a contact that ended
 * (its state reads as zero).  Stale entries are dropped when the table is rehashed. */

/* (an entry's key and the slot its lookup starts at: contact_state.h) */

static void wallhist_rehash(pala_wallhist *h, int hn, long step)
{
    long live = 0;
    for (long i = 0; i < h->cap; i++) live += h->key[i] && h->stamp[i] >= step - 1;
    long cap = 16;   /* at most half full after, 3/4 before the next rehash (wallhist_full) */
    while (cap < 2 * (live + 1)) cap *= 2;
    /* the hints are kept (they are checked before use), and the counts (the entries that
     * go are those no count holds: older than the last step) */
    pala_wallhist g = {cap, 0, NULL, NULL, NULL, h->hint, h->nhint, h->at, h->now, h->left};
    g.key = pala_xrealloc(NULL, (size_t)cap * sizeof *g.key);
    g.stamp = pala_xrealloc(NULL, (size_t)cap * sizeof *g.stamp);
    g.st = pala_xrealloc(NULL, (size_t)cap * hn * sizeof *g.st);
    memset(g.key, 0, (size_t)cap * sizeof *g.key);
    memset(g.stamp, 0, (size_t)cap * sizeof *g.stamp);   /* (an empty slot's is read, pala_wallhist_ended) */
    for (long i = 0; i < h->cap; i++) {
        if (!h->key[i] || h->stamp[i] < step - 1) continue;
        long j = pala_wallhist_slot(h->key[i], cap);
        while (g.key[j]) j = (j + 1) & (cap - 1);
        g.key[j] = h->key[i]; g.stamp[j] = h->stamp[i];
        memcpy(g.st + j * hn, h->st + i * hn, (size_t)hn * sizeof *g.st);
        g.n++;
    }
    free(h->key); free(h->stamp); free(h->st);
    *h = g;
}

/* The state of the contact of pebble p with wall id, for the force evaluation of this step
 * (write: it is advanced; else read only, NULL if there is none). */
double *pala_wallhist_find(const pala_world *w, int p, unsigned id, int write)
{
    pala_work *wk = w->work;
    pala_wallhist *h = &wk->cm->wh[pala_peb_grain(w, p) / PALA_BLOCK];
    const int hn = wk->cm->hn;
    const long step = w->step;
    unsigned long key = pala_wallhist_key(p, id);
    if (!h->cap) { if (!write) return NULL; wallhist_rehash(h, hn, step); }
    long j = pala_wallhist_probe(h, key);
    if (h->key[j] == key) {
        double *st = h->st + j * hn;
        int live = h->stamp[j] >= step - 1;
        if (!write) return live ? st : NULL;
        if (!live) memset(st, 0, (size_t)hn * sizeof *st);
        h->stamp[j] = step;
        return st;
    }
    if (!write) return NULL;
    if (pala_wallhist_grows(h)) {
        wallhist_rehash(h, hn, step);
        return pala_wallhist_find(w, p, id, write);
    }
    h->key[j] = key; h->stamp[j] = step;
    memset(h->st + j * hn, 0, (size_t)hn * sizeof *h->st);
    h->n++;
    return h->st + j * hn;
}

void pala_wallhist_counted(pala_wallhist *h, long step, long stamped, long kept, int other)
{
    if (h->at != step + 1) {   /* the first lookups of this evaluation: the last one's stamps are what is left */
        h->left = h->at > 0 && h->at == step ? h->now : -1;
        h->at = step + 1;
        h->now = 0;
    }
    h->now += stamped;
    h->left = other || h->left < 0 ? -1 : h->left - kept;
}

void pala_wallhist_hint_room(pala_wallhist *h, long i)
{
    long n = 2 * i + 16;   /* a new hint is slot 0: any slot will do */
    PALA_GROW(h->hint, n);
    memset(h->hint + h->nhint, 0, (size_t)(n - h->nhint) * sizeof *h->hint);
    h->nhint = n;
}

/* After the walls of block b at this step: the contacts that touched at the last step and
 * not at this one ended; the energy their springs held is lost (E_diss, docs/physics.md,
 * "Contact history"). */
/* The energy entry i of a wall table holds: its key is (pebble, wall id) + 1, and ids
 * give the wall's material (pala_wall_id_mat, container.h). */
static double wallhist_energy(const pala_world *w, const pala_wallhist *h, long i)
{
    int p = (int)((h->key[i] - 1) >> 32);
    unsigned id = (unsigned)((h->key[i] - 1) & 0xffffffffu);
    return pala_contact_state_energy(w, pala_pm_of(w, pala_peb_grain(w, p), pala_wall_id_mat(w, id)), h->st + i * w->work->cm->hn);
}

double pala_wallhist_ended(const pala_world *w, int b)
{
    pala_wallhist *h = &w->work->cm->wh[b];
    const long last = w->step - 1;
    double e = 0;
    /* the entries stamped at the last step and not at this one (pala_wallhist_stamp) */
    long left = h->at == w->step + 1 ? h->left : h->at > 0 && h->at == w->step ? h->now : -1;
    if (left == 0) return 0;
    for (long i0 = 0; i0 < h->cap; i0 += 8) {   /* a capacity is a power of 2, at least 16 */
        long any = 0;   /* eight slots at once, without a branch (vectorised): most hold no ended contact */
        for (long i = i0; i < i0 + 8; i++) any |= (h->key[i] != 0) & (h->stamp[i] == last);
        for (long i = i0; i < i0 + 8 && any; i++) {
            if (!h->key[i] || h->stamp[i] != last) continue;
            e += wallhist_energy(w, h, i);
            h->stamp[i] = -2;
        }
    }
    return e;
}

double pala_contact_states_energy(const pala_world *w, int b)
{
    const pala_work *wk = w->work;
    const pala_nlist *nl = w->nl;
    const int hn = wk->cm->hn;
    double e = 0;
    if (!wk->cm->hn) return 0;
    int p0 = pala_grain_peb0(w, b * PALA_BLOCK), p1 = pala_grain_peb0(w, pala_block_end(w->n, b));
    for (int p = p0; p < p1 && nl->hs; p++)
        for (int s = nl->start[p]; s < nl->start[p + 1]; s++) {
            const double *st = nl->hs + (long)s * hn;
            if (pala_state_zero(st, hn)) continue;
            int j = pala_peb_grain(w, nl->nbr[s]);
            e += pala_contact_state_energy(w, pala_pm_of(w, pala_peb_grain(w, p), pala_mat_of(w, j)), st);
        }
    const pala_wallhist *h = &wk->cm->wh[b];
    for (long i = 0; i < h->cap; i++)
        if (h->key[i] && h->stamp[i] >= w->step - 1) e += wallhist_energy(w, h, i);
    return e;
}

void pala_wallhist_free(pala_work *wk)
{
    pala_contacts *cm = wk->cm;
    if (!cm || !cm->wh) return;
    for (int b = 0; b < cm->nwh; b++) { free(cm->wh[b].key); free(cm->wh[b].stamp); free(cm->wh[b].st); free(cm->wh[b].hint); }
    free(cm->wh);
    cm->wh = NULL;
    cm->nwh = 0;
}

/* ---- the states in a checkpoint (pala_world_history_get/set) ----------------------------
 * Layout, all doubles: hn, the number of pair states P, P records (pebble p, pebble q > p,
 * hn doubles), the number of blocks, then per block its table's capacity, its number of
 * entries E and E records (slot, pebble, wall id, stamp, hn doubles), then the energy of
 * Mindlin's springs (nl->hmind; checkpoints of builds before it end without it, and come
 * only from worlds without Mindlin's law: those kept 4 doubles a spring).  Tables are put back
 * slot for slot: their order is that of the sums over them (energy, ended contacts). */
double *pala_world_history_get(const pala_world *w, long *n)
{
    const pala_work *wk = w->work;
    const pala_nlist *nl = w->nl;
    *n = 0;
    if (!wk || !wk->cm->hn) return NULL;
    const int hn = wk->cm->hn;
    long np = 0, m = nl->hpend ? nl->hpend : nl->hvalid && nl->hs ? nl->start[w->npeb] : 0, nw = 0;
    for (long s = 0; s < m; s++) np += !pala_state_zero(nl->hs + s * hn, hn);
    for (int b = 0; b < wk->cm->nwh; b++) nw += wk->cm->wh[b].n;
    long len = 4 + np * (2 + hn) + 2L * wk->cm->nwh + nw * (4 + hn);
    double *d = pala_xrealloc(NULL, (size_t)len * sizeof *d), *o = d;
    *o++ = hn; *o++ = np;
    for (long s = 0; s < m; s++) {
        const double *st = nl->hs + s * hn;
        if (pala_state_zero(st, hn)) continue;
        /* states put back and not placed yet are compacted: their pairs are row[2s], row[2s + 1] */
        *o++ = nl->hpend ? nl->row[2 * s] : nl->row[s];
        *o++ = nl->hpend ? nl->row[2 * s + 1] : nl->nbr[s];
        memcpy(o, st, (size_t)hn * sizeof *o);
        o += hn;
    }
    *o++ = wk->cm->nwh;
    for (int b = 0; b < wk->cm->nwh; b++) {
        const pala_wallhist *h = &wk->cm->wh[b];
        *o++ = h->cap; *o++ = h->n;
        for (long i = 0; i < h->cap; i++) {
            if (!h->key[i]) continue;
            *o++ = i; *o++ = (double)((h->key[i] - 1) >> 32); *o++ = (double)((h->key[i] - 1) & 0xffffffffu); *o++ = h->stamp[i];
            memcpy(o, h->st + i * hn, (size_t)hn * sizeof *o);
            o += hn;
        }
    }
    *o++ = nl->hmind;
    *n = (long)(o - d);
    return d;
}

static int history_bad(pala_world *w, const char *what)
{
    snprintf(w->why, sizeof w->why, "the contacts' states do not fit this world (%s)", what);
    return PALA_ERR_INPUT;
}

/* id is a wall of this world: one whose material wallhist_energy can look up */
static int wall_id_ok(const pala_world *w, double id)
{
    unsigned u = (unsigned)id, i = (u >> 24) & 0x7fu;   /* a [wall]'s feature: bit 31, its index in w->walls (surface.c) */
    if (u & 0x80000000u) return i >= (unsigned)w->surf0 && i < (unsigned)(w->surf0 + w->nsurf);
    return (id < 8 ? w->wall_mat : w->mem_mat) >= 0;
}

/* a whole number in [lo, hi) */
static int whole(double x, double lo, double hi) { return x >= lo && x < hi && x == floor(x); }

int pala_world_history_set(pala_world *w, const double *d, long n)
{
    pala_work *wk = w->work;
    if (!wk || !wk->cm->hn) return n ? history_bad(w, "the world keeps none") : 0;
    const int hn = wk->cm->hn, npeb = w->npeb;
    /* check all of it first: nothing is set from an array that does not fit */
    long i = 0;
    if (n < 3 || d[0] != hn || !whole(d[1], 0, 1e15)) return history_bad(w, "another state size");
    long np = (long)d[1];
    if (np > (n - 3) / (2 + hn)) return history_bad(w, "truncated");
    for (long r = 0, o = 2; r < np; r++, o += 2 + hn)
        if (!whole(d[o], 0, npeb) || !whole(d[o + 1], 0, npeb) || !(d[o] < d[o + 1])) return history_bad(w, "a pair of pebbles out of range");
    i = 2 + np * (2 + hn);
    if (d[i] != wk->nblk || wk->cm->nwh != wk->nblk) return history_bad(w, "another number of blocks");
    i++;
    for (int b = 0; b < wk->nblk; b++) {
        if (i + 2 > n || !whole(d[i], 0, 1L << 40) || !whole(d[i + 1], 0, 1L << 40)) return history_bad(w, "a wall table's size");
        long cap = (long)d[i], e = (long)d[i + 1];
        /* a table is rehashed to at most 4 (live + 1) slots and holds at least its live
           entries after (wallhist_rehash): a larger capacity is no table pala wrote, and is
           refused before anything of that size is allocated */
        if ((cap && (cap < 16 || (cap & (cap - 1)))) || 4 * e > 3 * cap || e > (n - i - 2) / (4 + hn) || (cap > 16 && cap >= 4 * (e + 1)))
            return history_bad(w, "a wall table's size");
        i += 2;
        /* a stamp is a step, or -2 (pala_wallhist_end): a whole number that fits a long */
        for (long r = 0; r < e; r++, i += 4 + hn)
            if (!whole(d[i], 0, cap) || !whole(d[i + 1], 0, npeb) || !whole(d[i + 2], 0, 4294967295.0) || !whole(d[i + 3], -2, 9.2e18) ||
                !wall_id_ok(w, d[i + 2]))
                return history_bad(w, "a wall contact out of range");
    }
    if (i != n - 1 && !(i == n && !(wk->cm->laws & PALA_LAWS_MINDLIN))) return history_bad(w, i < n ? "trailing values" : "truncated");   /* hmind: none before it was kept */
    w->nl->hmind = i < n ? d[i] : 0;
    /* the pairs, compacted, for the next rebuild (neighbor.c) */
    pala_nlist_history_room(w, np);
    for (long r = 0, o = 2; r < np; r++, o += 2 + hn) {
        w->nl->row[2 * r] = (int)d[o]; w->nl->row[2 * r + 1] = (int)d[o + 1];   /* as compact_states leaves them */
        memcpy(w->nl->hs + r * hn, d + o + 2, (size_t)hn * sizeof *d);
    }
    w->nl->hpend = np;
    /* the wall tables, slot for slot */
    i = 3 + np * (2 + hn);
    for (int b = 0; b < wk->nblk; b++) {
        pala_wallhist *h = &wk->cm->wh[b];
        long cap = (long)d[i], e = (long)d[i + 1];
        i += 2;
        free(h->key); free(h->stamp); free(h->st);
        *h = (pala_wallhist){cap, e, NULL, NULL, NULL, h->hint, h->nhint, 0, 0, -1};   /* (not counted) */
        if (!cap) { i += e * (4 + hn); continue; }
        h->key = pala_xrealloc(NULL, (size_t)cap * sizeof *h->key);
        h->stamp = pala_xrealloc(NULL, (size_t)cap * sizeof *h->stamp);
        h->st = pala_xrealloc(NULL, (size_t)cap * hn * sizeof *h->st);
        memset(h->key, 0, (size_t)cap * sizeof *h->key);
        memset(h->stamp, 0, (size_t)cap * sizeof *h->stamp);
        memset(h->st, 0, (size_t)cap * hn * sizeof *h->st);
        for (long r = 0; r < e; r++, i += 4 + hn) {
            long j = (long)d[i];
            h->key[j] = ((unsigned long)d[i + 1] << 32 | (unsigned long)d[i + 2]) + 1;
            h->stamp[j] = (long)d[i + 3];
            memcpy(h->st + j * hn, d + i + 4, (size_t)hn * sizeof *d);
        }
    }
    return 0;
}

/* An entry into table h (growing it first if it would be more than 3/4 full). */
static void wallhist_put(pala_wallhist *h, int hn, long step, unsigned long key, long stamp, const double *st)
{
    if (pala_wallhist_grows(h)) wallhist_rehash(h, hn, step);
    long j = pala_wallhist_slot(key, h->cap);
    while (h->key[j]) j = (j + 1) & (h->cap - 1);
    h->key[j] = key;
    h->stamp[j] = stamp;
    memcpy(h->st + j * hn, st, (size_t)hn * sizeof *st);
    h->n++;
}

/* The pending pairs row[2c], row[2c + 1] with their states hs + c hn into increasing (p, q),
 * the order in which the next rebuild places them (neighbor.c). */
typedef struct pend { long key, c; } pend;
static int cmp_pend(const void *a, const void *b)
{
    const pend *x = a, *y = b;
    return (x->key > y->key) - (x->key < y->key);
}

static void sort_pending(pala_nlist *nl, long c, int hn)
{
    pend *o = pala_xrealloc(NULL, (size_t)(c + 1) * sizeof *o);
    for (long r = 0; r < c; r++) o[r] = (pend){(long)nl->row[2 * r] << 32 | (unsigned)nl->row[2 * r + 1], r};
    qsort(o, (size_t)c, sizeof *o, cmp_pend);
    int *row = pala_xrealloc(NULL, (size_t)(2 * c + 1) * sizeof *row);
    double *hs = pala_xrealloc(NULL, (size_t)(c * hn + 1) * sizeof *hs);
    for (long r = 0; r < c; r++) {
        row[2 * r] = nl->row[2 * o[r].c]; row[2 * r + 1] = nl->row[2 * o[r].c + 1];
        memcpy(hs + r * hn, nl->hs + o[r].c * hn, (size_t)hn * sizeof *hs);
    }
    memcpy(nl->row, row, (size_t)(2 * c) * sizeof *row);
    memcpy(nl->hs, hs, (size_t)(c * hn) * sizeof *hs);
    free(row); free(hs); free(o);
}

void pala_contact_states_move(pala_world *w, const double *d, long n, const int *map, int nold)
{
    pala_work *wk = w->work;
    const int hn = wk->cm->hn;
    if (!hn || n < 3 || d[0] != hn) return;   /* the laws are the world's: the same state size */
    long np = (long)d[1], c = 0, i = 2;
    /* the pairs, in slot order still when map keeps the order of the pebbles that stay (grains
     * that leave); a new order (pala_world_resort) turns some pairs and needs a sort */
    pala_nlist_history_room(w, np);
    int sorted = 1;
    for (long r = 0; r < np; r++, i += 2 + hn) {
        int p = (int)d[i], q = (int)d[i + 1];
        if (p < 0 || q < 0 || p >= nold || q >= nold || map[p] < 0 || map[q] < 0) continue;
        int a = map[p], b = map[q];
        double *st = w->nl->hs + c * hn;
        memcpy(st, d + i + 2, (size_t)hn * sizeof *d);
        if (a > b) { int t = a; a = b; b = t; pala_contact_state_swap(wk->cm, st); }   /* the half list has p < q */
        if (c > 0 && ((long)a << 32 | (unsigned)b) < ((long)w->nl->row[2 * c - 2] << 32 | (unsigned)w->nl->row[2 * c - 1])) sorted = 0;
        w->nl->row[2 * c] = a; w->nl->row[2 * c + 1] = b;
        c++;
    }
    if (!sorted) sort_pending(w->nl, c, hn);
    w->nl->hpend = c;
    /* the wall tables: every live entry, in the order of the old blocks and slots, into the
     * table of its pebble's new block */
    for (int b = 0; b < wk->cm->nwh; b++) {
        pala_wallhist *h = &wk->cm->wh[b];
        free(h->key); free(h->stamp); free(h->st);
        *h = (pala_wallhist){0, 0, NULL, NULL, NULL, h->hint, h->nhint, 0, 0, -1};
    }
    long nb = (long)d[i++];
    for (long b = 0; b < nb && i < n; b++) {
        long e = (long)d[i + 1];
        i += 2;
        for (long r = 0; r < e; r++, i += 4 + hn) {
            int p = (int)d[i + 1];
            long stamp = (long)d[i + 3];
            if (p < 0 || p >= nold || map[p] < 0 || stamp < w->step - 1) continue;
            int k = pala_peb_grain(w, map[p]);
            wallhist_put(&wk->cm->wh[k / PALA_BLOCK], hn, w->step, ((unsigned long)map[p] << 32 | (unsigned long)d[i + 2]) + 1, stamp, d + i + 4);
        }
    }
    if (i < n) w->nl->hmind = d[i];
}

/* The per-block wall tables for the contact model's state size (remade when it changes). */
void pala_contact_states_prepare(pala_world *w)
{
    pala_work *wk = w->work;
    int hn = wk->cm->hn;
    if (hn == wk->cm->whn && wk->cm->nwh == wk->nblk) return;
    pala_wallhist_free(wk);
    wk->cm->nwh = 0;
    if (hn) {
        wk->cm->wh = pala_xrealloc(NULL, (size_t)wk->nblk * sizeof *wk->cm->wh);
        memset(wk->cm->wh, 0, (size_t)wk->nblk * sizeof *wk->cm->wh);
        wk->cm->nwh = wk->nblk;
    }
    wk->cm->whn = hn;
}

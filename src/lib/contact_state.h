/* contact_state.h: the states of contacts with history: the wall contacts' tables
 * (contact_state.c), per block; the pairs' states are in the neighbour list's slots. */
#ifndef PALA_CONTACT_STATE_H
#define PALA_CONTACT_STATE_H
#include "contact.h"
#include "grain.h"
#include "work.h"

/* Per block, an open-addressing hash of its grains' wall contacts, keyed by (pebble, wall),
 * each entry hn doubles of state (contact.h) and the step it was last touched at; the
 * slots its lookups found at the last force evaluation, in their order (hint[0 .. nhint),
 * pala_wallhist_home's guesses); and, counted by the force pass (pala_wallhist_counted) at
 * the evaluation of step at - 1 (at 0: not counted), the entries stamped then (now) and
 * those stamped at the step before and not since (left; < 0: not known), so that
 * pala_wallhist_ended need not look for ended contacts where there are none. */
typedef struct pala_wallhist {
    long cap, n;
    unsigned long *key;
    long *stamp;
    double *st;
    long *hint, nhint;
    long at, now, left;
} pala_wallhist;

/* The per-block wall tables for the contact model's state size. */
void pala_contact_states_prepare(pala_world *w);
void pala_wallhist_free(pala_work *wk);
/* The table of grain k's block (its block's grains share it). */
static inline pala_wallhist *pala_wallhist_of(const pala_world *w, int k) { return &w->work->cm->wh[k / PALA_BLOCK]; }
/* The next new entry of table h would make it grow (its states move): at 3/4 full. */
static inline int pala_wallhist_grows(const pala_wallhist *h) { return !h->cap || 4 * (h->n + 1) > 3 * h->cap; }
/* ... of pebble p's table. */
static inline int pala_wallhist_full(const pala_world *w, int p) { return pala_wallhist_grows(pala_wallhist_of(w, pala_peb_grain(w, p))); }
/* The key of the contact of pebble p with wall id, and the slot its lookup starts at in a
 * table of cap slots: Fibonacci hashing, the top bits of key times 2^64 / golden ratio (the
 * low bits of a product depend on the key's low bits alone: here the wall id, and 2 bits of
 * the pebble). */
static inline unsigned long pala_wallhist_key(int p, unsigned id) { return ((unsigned long)(unsigned)p << 32 | id) + 1; }
static inline long pala_wallhist_slot(unsigned long key, long cap) { return (long)((key * 0x9E3779B97F4A7C15ul) >> (64 - __builtin_ctzl((unsigned long)cap))); }
/* The slot of key in table h (cap > 0), or the empty slot where it would go (linear probing). */
static inline long pala_wallhist_probe(const pala_wallhist *h, unsigned long key)
{
    long j = pala_wallhist_slot(key, h->cap);
    while (h->key[j] && h->key[j] != key) j = (j + 1) & (h->cap - 1);
    return j;
}
/* Room in table h for the hints of lookups 0 .. i. */
void pala_wallhist_hint_room(pala_wallhist *h, long i);
/* Slot j of table h was the block's i-th lookup: the next evaluation's guess. */
static inline void pala_wallhist_hint(pala_wallhist *h, long i, long j)
{
    if (i >= h->nhint) pala_wallhist_hint_room(h, i);
    h->hint[i] = j;
}
/* The state of the contact of pebble p with wall id, for the force evaluation of this step
 * (write: it is advanced; else read only, NULL if there is none). */
double *pala_wallhist_find(const pala_world *w, int p, unsigned id, int write);
/* pala_wallhist_find(w, p, id, 1) for a contact of pebble p (of table h) that goes on (it
 * touched at the last step or this one), as most do: its state, advanced to this step; else
 * NULL and nothing changed (the caller asks pala_wallhist_find, which may move the states).
 * i: the lookup's place among the block's at this evaluation, whose slot it notes (the
 * caller notes that of pala_wallhist_find).  The touches of a block come
 * in the same order from step to step but where contacts begin or end, so the slot its i-th
 * lookup found last time is tried first: a key is in one slot only, so it is the probe's
 * slot when it holds the key, and the probe's loop, whose length varies with the
 * collisions, is skipped (it mispredicted its end about once in three lookups).  Inline:
 * every wall touch of a step asks. */
static inline double *pala_wallhist_home(const pala_world *w, pala_wallhist *h, int p, unsigned id, long i)
{
    unsigned long key = pala_wallhist_key(p, id);
    if (!h->cap) return NULL;
    long j = i < h->nhint && h->hint[i] < h->cap ? h->hint[i] : 0;   /* (a table rehashed may be smaller) */
    if (h->key[j] != key) j = pala_wallhist_probe(h, key);
    if (h->key[j] != key || h->stamp[j] < w->step - 1) return NULL;
    h->stamp[j] = w->step;
    pala_wallhist_hint(h, i, j);
    return h->st + j * w->work->cm->hn;
}
/* The lookups of a block's wall contacts at the evaluation of step `step` (of one call of
 * the force pass's walls; each contact is looked up once an evaluation) into table h's
 * counts: `stamped` states were found, `kept` of them by pala_wallhist_home (an entry of
 * the last step's, stamped again); `other`: some by pala_wallhist_find (which may have
 * stamped an entry of the last step's), so what is left of them is not known. */
void pala_wallhist_counted(pala_wallhist *h, long step, long stamped, long kept, int other);
/* After the walls of block b at this step: the contacts that touched at the last step and
 * not at this one ended; returns the energy their springs held (lost: E_diss). */
double pala_wallhist_ended(const pala_world *w, int b);
/* The elastic energy the states of block b's contacts hold (the laws with history), J:
 * every state the last force evaluation left, touching now or not (a state that stops
 * touching gives its energy to E_diss at the next evaluation). */
double pala_contact_states_energy(const pala_world *w, int b);

/* The states of a world whose grains changed (pala_world_repopulate): d holds n doubles of
 * pala_world_history_get taken before, whose pebbles p are now map[p] (-1: gone, and its
 * contacts' states with it; nold pebbles then).  The pairs' states wait, compacted, for the
 * next build of the list (neighbor.c); the wall contacts' move to their pebble's table
 * (the stale ones, which read as zero, are dropped). */
void pala_contact_states_move(pala_world *w, const double *d, long n, const int *map, int nold);

#endif

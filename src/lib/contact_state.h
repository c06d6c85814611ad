/* contact_state.h: the states of contacts with history: the wall contacts' tables
 * (contact_state.c), per block; the pairs' states are in the neighbour list's slots. */
#ifndef PALA_CONTACT_STATE_H
#define PALA_CONTACT_STATE_H
#include "contact.h"
#include "grain.h"
#include "work.h"

/* Per block, an open-addressing hash of its grains' wall contacts, keyed by (pebble, wall),
 * each entry hn doubles of state (contact.h) and the step it was last touched at. */
typedef struct pala_wallhist { long cap, n; unsigned long *key; long *stamp; double *st; } pala_wallhist;

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
/* The state of the contact of pebble p with wall id, for the force evaluation of this step
 * (write: it is advanced; else read only, NULL if there is none). */
double *pala_wallhist_find(const pala_world *w, int p, unsigned id, int write);
/* pala_wallhist_find(w, p, id, 1) for a contact of pebble p (of table h) that goes on (it
 * touched at the last step or this one), as most do: its state, advanced to this step; else
 * NULL and nothing changed (the caller asks pala_wallhist_find, which may move the states).
 * Inline: every wall touch of a step asks. */
static inline double *pala_wallhist_home(const pala_world *w, pala_wallhist *h, int p, unsigned id)
{
    unsigned long key = pala_wallhist_key(p, id);
    if (!h->cap) return NULL;
    long j = pala_wallhist_probe(h, key);
    if (h->key[j] != key || h->stamp[j] < w->step - 1) return NULL;
    h->stamp[j] = w->step;
    return h->st + j * w->work->cm->hn;
}
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

/* contact_state.h: the states of contacts with history: the wall contacts' tables
 * (contact_state.c), per block; the pairs' states are in the neighbour list's slots. */
#ifndef PALA_CONTACT_STATE_H
#define PALA_CONTACT_STATE_H
#include "work.h"

/* Per block, an open-addressing hash of its grains' wall contacts, keyed by (pebble, wall),
 * each entry hn doubles of state (contact.h) and the step it was last touched at. */
typedef struct pala_wallhist { long cap, n; unsigned long *key; long *stamp; double *st; } pala_wallhist;

/* The per-block wall tables for the contact model's state size. */
void pala_contact_states_prepare(pala_world *w);
void pala_wallhist_free(pala_work *wk);
/* The next new entry of pebble p's table would make it grow (its states move). */
int pala_wallhist_full(const pala_world *w, int p);
/* The state of the contact of pebble p with wall id, for the force evaluation of this step
 * (write: it is advanced; else read only, NULL if there is none). */
double *pala_wallhist_find(const pala_world *w, int p, unsigned id, int write);
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

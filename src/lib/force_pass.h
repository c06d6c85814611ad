/* force_pass.h: the force evaluation of a step (eq. 67) as one sweep over the neighbour
 * list, each grain finishing its step as soon as its sums are complete (force_pass.c). */
#ifndef PALA_FORCE_PASS_H
#define PALA_FORCE_PASS_H
#include "work.h"

/* Where a block records the first runaway overlap (the message is written serially). */
typedef struct pala_runaway { double ratio; int i, j; } pala_runaway;

/* Overlap r = ov / smaller radius of grains i, j (j = -1: a wall) against the worst so
 * far and the limit max_overlap. */
static inline void pala_note_overlap(const pala_world *w, double r, int i, int j, pala_blocksum *s, pala_runaway *ru)
{
    if (r > s->worst) s->worst = r;
    if (r > w->max_overlap && !s->bad) { s->bad = 1; ru->ratio = r; ru->i = i; ru->j = j; }
}

/* (Re)make w->work for the current grains, templates and thread count. */
void pala_work_prepare(pala_world *w);
void pala_work_free(pala_world *w);
/* After each list build, and when the split of the threads moves: the window of the
 * ring of sums, the threads' boundary blocks, the grains and blocks that take records. */
void pala_force_pass_setup_pairs(pala_world *w);
/* After each list build, and when the grains have moved far enough since the last: the
 * wall candidates (and what depends on them). */
void pala_force_pass_setup_walls(pala_world *w);
/* Both (after a build). */
void pala_force_pass_setup(pala_world *w);
/* Phase 1, thread t over its blocks [b0, b1) (ctx: the world): the contacts of every
 * pair and wall into the grains' sums, each grain then finishing its step. */
void pala_force_pass_sweep(void *ctx, int t, int b0, int b1);
/* The walls of grains [.., k1) among the wall candidates from wcand[*cur] on, into the
 * sums A[k & mask] (A NULL: kept in S->wout, in order, for phase 2), through thread
 * scratch S: wall impulses of a time dt, Hertz energy into *U (U NULL: not wanted). */
void pala_force_pass_walls(const pala_world *w, pala_tscr *S, int *cur, int k1, pala_facc *A, long mask, double dt, double *U,
                           pala_blocksum *s, pala_runaway *ru);
/* Sum the blocks in order: contact energy into *U, dissipated power into *pdiss (either
 * may be NULL), counts, wall impulses, the largest overlap.  Returns 1 (with w->why set)
 * if an overlap ran away. */
int pala_force_pass_reduce(pala_world *w, double *U, double *pdiss);
#endif

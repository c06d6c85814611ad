/* world.h: what the library's entry points share about a world (world.c). */
#ifndef PALA_WORLD_H
#define PALA_WORLD_H
#include "pala/pala.h"

/* PALA_OK if pala_world_prepare has run for the world's grains, materials and templates
 * and dt and g are usable, else PALA_ERR_INPUT with the reason in w->why.  Changes
 * nothing else. */
int pala_world_check_prepared(pala_world *w);
/* Stage derive (step.c; energy.c before it evaluates): what depends on the settings an
 * embedding program may change between steps, made again where they changed: m g, the
 * zero of the field energy and the tables of the fields and of the interactions between
 * centres when g, E, B or their settings changed (grain_forces.c); the fractional law's
 * coefficients when dt changed (force_pass.c).  After pala_world_check_prepared. */
void pala_world_derive(pala_world *w);
/* Before a pass over the current state outside the steps (the energy's, energy.c; the contact
 * list's, contact_list.c): the world prepared (else its status), derived, its pebbles placed,
 * its neighbour list up to date (the sweep set up again after a build) and its walls where
 * they are at w->t.  Changes no result of the steps (docs/design.md, "Reproducibility by
 * construction": nor does the time the list is built at). */
int pala_world_ready(pala_world *w);

/* The setup of pala_world_prepare after its checks: the pebbles, the neighbour list, the
 * modules' states for the world's grains (the list is built at the next step). */
void pala_world_setup(pala_world *w);
/* 1 if pala_world_resort may reorder w: sort_every set, 512 grains or more, and no
 * interactions or additional forces whose state is in storage order. */
int pala_world_resorts(const pala_world *w);
/* The grains changed between steps (population.c): grain k with gone[k] leaves (gone NULL:
 * none), the grains added since the last setup (pala_world_add_grain) stay at the end; the
 * arrays are compacted in order (the grains keep their numbers, gid), the world is set up
 * again, and the states of the contacts with history, hist (nh doubles of
 * pala_world_history_get, taken before any grain was added or left), are put back on the
 * pebbles that stay. */
void pala_world_repopulate(pala_world *w, const unsigned char *gone, const double *hist, long nh);
/* Room in the table of numbers (w->inv) for n numbers, without pala's out-of-memory abort:
 * a count a file gives (a checkpoint's world.nid, up to 2^31: 8 GB) may not fit, which is
 * the caller's error to report.  0, or -1 with the table as it was. */
int pala_world_number_room(pala_world *w, long n);

/* The checks of pala_world_prepare, in the order a reader would fix what they find: the
 * world's settings, the materials and pairs (material.h; they make w->pm, eq. 55), the
 * templates, the grains, the container and membrane, the interactions.  PALA_OK, or
 * PALA_ERR_INPUT with the fault and its message in c (check.h).  The control-file reader
 * calls it with c->keys = 1 before it places the grains of the groups. */
struct pala_check;
int pala_world_check(pala_world *w, struct pala_check *c);

#endif

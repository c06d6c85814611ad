/* restart.h: a scene that starts from the state of a run (restart.c; docs/control-file.md,
 * start_from). */
#ifndef PALA_RESTART_H
#define PALA_RESTART_H
#include "pala/pala.h"

/* The run's checkpoint, kept until the world that starts from it is prepared. */
typedef struct pala_restart {
    pala_ckfile c;
    const pala_ckfield *contacts;   /* the states of its contacts, or NULL */
    long n;                         /* grains imported */
    int frame;                      /* from a frame of the trajectory (at t, step), not the checkpoint */
    double t;
    long step;
} pala_restart;

/* Adds to w (its materials and walls made, no grains yet) the run's templates and its grains
 * in the run's storage order, in their state at its checkpoint (position, rotation, velocity,
 * angular velocity, the accelerations of its last step; numbered as the run numbered them),
 * or, T >= 0, in the frame of its trajectory nearest to time T (s): x, r, v, omega, and
 * accelerations 0 (no contact history then); a trajectory of version 2 (grains that enter and
 * leave) gives the frame's grains, their numbers and templates.  A run whose grains left has
 * gaps in its numbers (w->nid > w->n): pala_world_renumber closes them for a scene without
 * feeds.
 * A template's material is the world's material of the same name; a density other than the
 * run's scales its mass and moments.  Returns 0, or -1 with the reason in err: no folder, no
 * checkpoint, a damaged one or of another version, one written before the field
 * PALA_GRAIN_TYPES_FIELD, another dimension, a material the world lacks, a grain outside the
 * walls or deeper in one than max_overlap allows; from a frame: no trajectory, no whole frame,
 * a damaged one (naming the file and its line or byte), grain numbers of version 2 that do not
 * increase or reach those the run had given by its checkpoint. */
int pala_restart_import(pala_world *w, const char *dir, double T, pala_restart *r, char *err, size_t len);
/* After pala_world_prepare: the run's contact history put back when keep and the world's
 * laws keep the same state and its grains are the run's, and NULL; else a note: why the run's
 * contact history is dropped, or, from a frame, which frame (when there is nothing to say:
 * NULL). */
const char *pala_restart_contacts(pala_world *w, const pala_restart *r, int keep, char *note, size_t len);
void pala_restart_free(pala_restart *r);

#endif

/* work.h: the scratch of a step, shared by the stages of step.c: the sums of each grain's
 * force and torque, the per-block results, the per-thread buffers.  Types only; it is made
 * by force_pass.c (pala_work_prepare) and read by the integrator and the driver.  What a
 * module keeps between steps is its own state, referenced from the world (field.h,
 * centre.h, grain_forces.h). */
#ifndef PALA_WORK_H
#define PALA_WORK_H
#include "pala/pala.h"
#include "threads.h"

/* Sums of the contributions to one grain's force and torque (about its centre), and their
 * non-conservative parts (restitution, friction, forces added by the embedding program). */
typedef struct pala_facc { pala_vec3 F, T, Fnc, Tnc; } pala_facc;
/* A contribution to a grain of a boundary block, kept until phase 2 (force_pass.c). */
typedef struct pala_frec { long g; pala_facc a; } pala_frec;

/* Sums over the grains of one block, added in block order. */
typedef struct pala_blocksum {
    double U;              /* contact energy (each pair once), J */
    double pdiss;          /* power of the non-conservative forces, W */
    double worst;          /* largest overlap / smaller radius */
    double move;           /* largest pebble displacement bound in this phase, m */
    double move2;          /* ... of the next step's first free motion when chained, m */
    double rmove, rmove2;  /* the same two in the neighbour list's frame (neighbor.h), m */
    long ngg, nwall;       /* touching pebble pairs (each once), wall contacts */
    pala_vec3 imp[8];      /* wall impulse increments: faces 0-5, membrane sides 6-7 */
    double rimp;           /* their outward radial part, sum of dt F.n (the cavity's) */
    double ediss;          /* energy dissipated by the caps of the laws with history, J */
    double emind;          /* energy Mindlin's springs hold after this step, J */
    struct pala_surfsum *ws;   /* the walls of [wall] sections: this block's sums (surface.h),
                            * or NULL (the energy pass) */
    double gvs;            /* power of the non-conservative wall forces G on the moving walls,
                            * sum of G.vs (E_diss takes G.(v - vs): force_pass.c), W */
    int bad, finite;
    double bad_ratio;      /* first runaway overlap of the block: ratio, grains i, j (-1: wall) */
    int bad_i, bad_j;
} pala_blocksum;

struct pala_batch;
/* Scratch of one thread of the force sweep. */
typedef struct pala_tscr {
    pala_facc *ring;       /* accumulators of the grains ahead, slot g & (nring - 1) */
    long nring;
    pala_frec *out;        /* contributions to grains of boundary blocks, in slot order */
    long nout, capout;
    pala_frec *wout;       /* the walls' contributions to the grains of its boundary blocks, in order */
    long nwout, capwout;
    _Atomic long recdone;  /* = the team's run number once this thread's records for later threads are all out */
    struct pala_batch *B;  /* touching pairs on their way through the kernel (contact.h) */
    struct pala_wall_touch *touch;   /* wall touches of some grains (container.h) */
    int ntouch;            /* room in touch */
} pala_tscr;

typedef struct pala_work {
    int nblk;              /* blocks of PALA_BLOCK grains */
    int nth;               /* per-thread scratch made for this many threads */
    pala_blocksum *bs;     /* nblk */
    pala_tscr *ts;         /* per thread */
    int *bbrank;           /* per block: -1, or its rank among the boundary blocks */
    int *bb, nbb, capbb;   /* the boundary blocks, increasing */
    long span;             /* largest grain(q) - grain(p) of a listed pair */
    unsigned char *brec;   /* per block: its rows add to a boundary block (take records) */
    unsigned char *recg;   /* per grain (threads): listed by an earlier thread's rows, so every
                            * contribution to it is a record (force_pass.c, phase 2) */
    int nrecg;             /* room in recg */
    pala_facc *bsum;       /* the sums of the boundary blocks' grains, rank r's from r PALA_BLOCK */
    long nbsum;            /* room in bsum */
    unsigned char *wflag;  /* per grain, at a build: a wall candidate (force_pass.c, candidates_job) */
    int nwflag;
    int spheres_only;      /* every template has one component */
    double *smax;          /* per template: largest |shape vector|, m */
    double *invm;          /* per template: 1 / mass, 1/kg */
    double *invi;          /* per template: 1 / I of an isotropic one (inv_inertia[isotropic - 1]; else
                            * inv_inertia[0]), 1/(kg m^2): with invm, what the end of the step of
                            * grains of several templates reads per grain, 16 B a template where
                            * pala_template is 248 (bench/pour: a template per grain) */
    int *btid;             /* per block: the template of all its grains, or -1 (-2: of several, all isotropic) */
    int dissipative;       /* some material pair has delta < 1 or mu > 0, or a law with state
                            * or the dashpot, or additional forces */
    int chain;             /* the sweep also starts the next step (pala_world_steps) */
    unsigned char *flat;   /* per block, 2D: its grains' state lies in the plane (integrator.c, end_planar) */
    int plane;             /* an arc world in 2D whose components all have z = 0: with every block
                            * flat, its contacts' forces lie in the plane (force_pass.c, deliver_planar) */
    unsigned char *live;   /* arc worlds, per grain: in a listed pair or a wall candidate at the last build
                            * (pala_force_pass_setup); only these grains' pebbles are placed each step */
    int nlive;             /* room in live */
    /* wall candidates (set at each list build): the grains whose bounding sphere comes
     * within the skin of a wall, in increasing order; those of block b are
     * wcand[wcb[b] .. wcb[b+1]).  Until the next build no other grain reaches a wall. */
    int *wcand, *wcb;
    long capw;
    /* the contact model (contact.h): the laws of the material pairs, their state layout */
    struct pala_contacts *cm;
    int tsep;              /* the non-conservative torques are summed apart from T (clumps, or
                            * springs on spheres: pala_contacts_tsep) */
    struct pala_surfsum *wsum;   /* nblk x nsurf: the blocks' sums over the [wall] walls */
    int moving;            /* some wall moves (surface.h: its pose before each evaluation) */
} pala_work;

#endif

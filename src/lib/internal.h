/* internal.h: declarations shared between library modules, not part of the API. */
#ifndef PALA_INTERNAL_H
#define PALA_INTERNAL_H
#include "pala/pala.h"
#include <stddef.h>

/* Allocation that never returns NULL: on failure it prints what was asked and exits
 * with PALA_ERR_IO.  The only allocator of the library. */
void *pala_xrealloc(void *p, size_t n);
#define PALA_GROW(ptr, n) ((ptr) = pala_xrealloc((ptr), (size_t)(n) * sizeof *(ptr)))

/* threads.c: fork-join pool; fn(arg, t, n) runs on threads t = 0..n-1 (0 is the caller). */
typedef struct pala_pool pala_pool;
pala_pool *pala_pool_create(int n);
void pala_pool_run(pala_pool *p, void (*fn)(void *arg, int t, int n), void *arg);
void pala_pool_free(pala_pool *p);
int pala_pool_size(const pala_pool *p);   /* threads started (fewer than asked if the system refused) */

/* Grains are processed in fixed blocks of PALA_BLOCK; sums over grains are formed per
 * block and added in block order: independent of the number of threads. */
enum { PALA_BLOCK = 256 };
typedef struct pala_blocksum {
    double U;              /* contact energy (each pair once), J */
    double pdiss;          /* power of the non-conservative forces, W */
    double worst;          /* largest overlap / smaller radius */
    double move;           /* largest pebble displacement bound in this phase, m */
    double move2;          /* ... of the next step's first free motion when chained, m */
    long ngg, nwall;       /* touching pebble pairs (each once), wall contacts */
    pala_vec3 imp[6];      /* wall impulse increments */
    int bad, finite;
    double bad_ratio;      /* first runaway overlap of the block: ratio, grains i, j (-1: wall) */
    int bad_i, bad_j;
} pala_blocksum;

/* Sums of the contributions to one grain's force (contact.c): force, torque about its
 * centre, and their non-conservative parts (restitution, friction). */
typedef struct pala_facc { pala_vec3 F, T, Fnc, Tnc; } pala_facc;
/* A contribution to a grain of a boundary block (contact.c), kept until phase 2. */
typedef struct pala_frec { long g; pala_facc a; } pala_frec;
struct pala_batch;
/* Scratch of one thread of the force sweep (contact.c). */
typedef struct pala_tscr {
    pala_facc *ring;       /* accumulators of the grains ahead, slot g & (nring - 1) */
    long nring;
    pala_frec *out;        /* contributions to grains of boundary blocks, in slot order */
    long nout, capout;
    pala_facc *sum;        /* phase 2: the sums of the thread's boundary grains */
    long nsum;
    struct pala_batch *B;  /* touching pairs on their way through the kernel */
    int *nbuf;             /* rows of the neighbour list being built (neighbor.c) */
    long capn, nn;
    double busy;           /* s spent in the force sweep since the split was last set */
} pala_tscr;

typedef struct pala_work {
    pala_pool *pool;
    int nblk;
    pala_blocksum *bs;     /* nblk */
    pala_tscr *ts;         /* per thread */
    int *bbrank;           /* per block: -1, or its rank among the boundary blocks */
    int *bb, nbb, capbb;   /* the boundary blocks, increasing */
    long span;             /* largest grain(q) - grain(p) of a listed pair */
    unsigned char *brec;   /* per block: its rows add to a boundary block (take records) */
    double *prad;          /* radius of every pebble, m */
    int spheres_only;      /* every template has one component */
    double *smax;          /* per template: largest |shape vector|, m */
    double *invm;          /* per template: 1 / mass, 1/kg */
    int *btid;             /* per block: the template of all its grains, or -1 */
    int nth;               /* threads the pool was made for */
    int dissipative;       /* some material pair has delta < 1 or mu > 0 */
    int chain;             /* the sweep also starts the next step (pala_world_steps) */
    pala_vec3 *mg;         /* per template: mass g, the field's force, N */
    /* wall candidates (set at each list build): the grains whose bounding sphere comes
     * within the skin of a wall, in increasing order; those of block b are
     * wcand[wcb[b] .. wcb[b+1]).  Until the next build no other grain reaches a wall. */
    int *wcand, *wcb;
    long capw;
    /* thread t of the pala_world_nthr threads has blocks [split[t], split[t + 1]): set
     * evenly with the pool (pala_work_prepare), then moved by the measured time of each
     * thread (balance in contact.c); the second half of the array is scratch for that.
     * Results do not depend on the split (docs/design.md). */
    int *split;
    long bsteps;           /* steps timed since the split was last set */
} pala_work;
/* (Re)make w->work for the current grains and thread count. */
void pala_work_prepare(pala_world *w);
void pala_work_free(pala_world *w);
/* Run fn over blocks [b0, b1) of grains on the world's threads; thread t of nthr gets
 * blocks [split[t], split[t+1]).  pala_world_nthr: the threads a pass uses. */
void pala_world_par(pala_world *w, void (*fn)(pala_world *w, int b0, int b1));
void pala_world_par_t(pala_world *w, void (*fn)(pala_world *w, int t, int b0, int b1));
int pala_world_nthr(const pala_world *w);

/* neighbor.c */
void pala_nlist_free(pala_nlist *nl);
/* Rebuild when nl->drift exceeds 0.45 skin, a margin below skin/2 (or never built). */
void pala_nlist_update(pala_world *w);
/* contact.c: after each rebuild, the sweep's window and the threads' boundary blocks. */
void pala_sweep_setup(pala_world *w);
size_t pala_batch_size(void);   /* bytes of a thread's kernel batch */

/* The force evaluation of a step (eq. 67), each grain then finishing its step:
 * pdiss gets the dissipated power. */
int pala_world_forces_step(pala_world *w, double *pdiss);
/* Pebble centre p and its grain (spheres only: p itself). */
static inline int pala_peb_grain(const pala_world *w, int p) { return w->pg ? w->pg[p] : p; }

/* lammps.c: import grains from a LAMMPS data file (atom_style sphere); see the file.
 * Adds the grains (and the templates they need, material mat) to w.  Returns 0, or -1
 * with a message in err. */
int pala_lammps_import(pala_world *w, const char *path, int mat, long mc_samples, char *err, size_t errlen);
/* The box of a data file's header: xlo xhi ylo yhi zlo zhi. */
int pala_lammps_box(const char *path, double box[6], char *err, size_t errlen);

#endif

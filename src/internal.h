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
int pala_cpu_count(void);

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

/* One touching pebble pair (p, q > p) of a step: written once by the block of p's grain,
 * read by the grains of p and of q (contact.c). */
typedef struct pala_crec {
    pala_vec3 F;           /* force on p's grain, N */
    pala_vec3 Fnc;         /* its non-conservative part (restitution, friction), N */
    pala_vec3 cp;          /* contact point c_ij of eq. (50), m */
} pala_crec;

typedef struct pala_work {
    pala_pool *pool;
    int nblk;
    pala_blocksum *bs;     /* nblk */
    pala_crec **rec;       /* per block: its contact records */
    int *nrec, *caprec;    /* per block: count and capacity of rec */
    int recbits;           /* slotrec = block << recbits | record */
    int spheres_only;      /* every template has one component */
    double *smax;          /* per template: largest |shape vector|, m */
    int nth;               /* threads the pool was made for */
    int dissipative;       /* some material pair has delta < 1 or mu > 0 */
    int stepping;          /* argument of the current force job */
    int chain;             /* the gather also starts the next step (pala_world_steps) */
} pala_work;
/* (Re)make w->work for the current grains and thread count. */
void pala_work_prepare(pala_world *w);
void pala_work_free(pala_world *w);
/* Run fn over blocks [b0, b1) of grains on the world's threads. */
void pala_world_par(pala_world *w, void (*fn)(pala_world *w, int b0, int b1));

/* neighbor.c */
void pala_nlist_free(pala_nlist *nl);
/* Rebuild when nl->drift may exceed skin/2 (or never built). */
void pala_nlist_update(pala_world *w);

/* contact.c: the force pass over all grains (places clump pebbles first);
 * `stepping` adds wall impulses for a step of w->dt and the dissipated power. */
int pala_world_forces_ex(pala_world *w, double *U, int stepping);

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

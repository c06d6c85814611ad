/* internal.h: declarations shared between library modules, not part of the API. */
#ifndef PALA_INTERNAL_H
#define PALA_INTERNAL_H
#include "pala/pala.h"
#include <stddef.h>

/* Allocation that never returns NULL: on failure it prints what was asked and exits
 * with PALA_ERR_IO.  The only allocator of the library. */
void *pala_xrealloc(void *p, size_t n);
#define PALA_GROW(ptr, n) ((ptr) = pala_xrealloc((ptr), (size_t)(n) * sizeof *(ptr)))

/* neighbor.c */
void pala_nlist_free(pala_nlist *nl);
/* Rebuild if any grain moved more than skin/2 since the last build (or never built). */
void pala_nlist_update(pala_world *w);

/* contact.c: the force pass; `stepping` adds wall impulses for a step of w->dt. */
int pala_world_forces_ex(pala_world *w, double *U, int stepping);

/* lammps.c: import grains from a LAMMPS data file (atom_style sphere); see the file.
 * Adds the grains (and the templates they need, material mat) to w.  Returns 0, or -1
 * with a message in err. */
int pala_lammps_import(pala_world *w, const char *path, int mat, long mc_samples, char *err, size_t errlen);
/* The box of a data file's header: xlo xhi ylo yhi zlo zhi. */
int pala_lammps_box(const char *path, double box[6], char *err, size_t errlen);

#endif

/* lammps.h: import of grains from a LAMMPS data file (lammps.c). */
#ifndef PALA_LAMMPS_H
#define PALA_LAMMPS_H
#include "pala/pala.h"

/* Import grains from a LAMMPS data file (atom_style sphere; see lammps.c).  Adds the
 * grains (and the templates they need, material mat) to w.  Returns 0, or -1 with a
 * message in err. */
int pala_lammps_import(pala_world *w, const char *path, int mat, long mc_samples, char *err, size_t errlen);
/* The box of a data file's header: xlo xhi ylo yhi zlo zhi. */
int pala_lammps_box(const char *path, double box[6], char *err, size_t errlen);

#endif

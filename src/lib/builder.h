/* builder.h: the grain builder (builder.c; the paper's section 3.1, exact by union.c).  Programs
 * build templates through pala_world_build_template (pala.h), which says why it refuses in
 * pala_world_error; this is the builder behind it, for the library and its tests. */
#ifndef PALA_BUILDER_H
#define PALA_BUILDER_H
#include "pala/pala.h"
#include <stddef.h>

/* Build a template from n components given by centres c and radii rad (eqs. 25-35), of
 * density rho.  nsamples = PALA_EXACT (0): the exact moments of the union (union.c);
 * nsamples > 0: Monte Carlo with that many samples, < 0: with the paper's N = 10^4.  A
 * one-sphere grain is always exact.
 * If the centres all have z == 0 the grain is planar and z is kept as a principal axis
 * exactly.  Writes the principal-frame shape vectors to shape[] and copies the radii to
 * rad_out[]; keeps t's name, material, charge and dipoles.  Returns 0, or -1 with what is
 * wrong in err. */
int pala_template_build(pala_template *t, int n, const pala_vec3 *c, const double *rad,
                        double rho, long nsamples, pala_vec3 *shape, double *rad_out,
                        char *err, size_t errlen);

#endif

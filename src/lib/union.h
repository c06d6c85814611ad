/* union.h: exact volume, centre of mass and inertia of a union of spheres (3D) or of discs
 * (2D), by the power diagram and the divergence theorem (union.c; docs/physics.md, "Exact
 * mass properties of a union of spheres", eqs. U1-U12).  Deterministic, exact to rounding. */
#ifndef PALA_UNION_H
#define PALA_UNION_H
#include "pala/vec.h"

/* Mass properties of a union per unit density: its volume (area for discs), centre of mass
 * and inertia tensor about the centre of mass, J_ab = integral of (|r|^2 delta_ab - r_a r_b)
 * over the union, r = x - com (m^5; times the density: kg m^2). */
typedef struct pala_union {
    double volume;
    pala_vec3 com;
    double inertia[3][3];
} pala_union;

/* The union of the n balls |x - c_i| <= r_i (r_i > 0).  Returns 0, or -1 if n < 1. */
int pala_union_spheres(int n, const pala_vec3 *c, const double *r, pala_union *u);
/* The union of the n discs |x - c_i| <= r_i of the plane z = 0 (c_i.z is ignored): its area
 * in u->volume, its centroid (z = 0) and its second moments: inertia[2][2] is the polar
 * moment J_z, inertia[0][0] = J_xx = integral of y^2, inertia[0][1] = -integral of x y,
 * the rest 0.  Returns 0, or -1 if n < 1. */
int pala_union_discs(int n, const pala_vec3 *c, const double *r, pala_union *u);

#endif

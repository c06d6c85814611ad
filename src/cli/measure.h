/* measure.h: what `pala measure` computes from a run's frames (measure.c; docs/physics.md,
 * "Contacts and stress"): the solid volume of spheres in a box (exact), the quantities of a
 * region or of the bins of a profile (packing fraction, coordination, stress, fabric,
 * velocity, granular temperature), and the angle of repose of a heap.  Pure functions of
 * their arguments, so the tests check them against closed forms. */
#ifndef PALA_MEASURE_H
#define PALA_MEASURE_H
#include "pala/pala.h"

/* The area of the disc of radius a about the origin inside the rectangle [x0, x1] x [y0, y1]
 * (exact: the integral of the circle's chords, docs/physics.md, "Packing fraction"), m^2. */
double pala_disc_rect_area(double a, double x0, double x1, double y0, double y1);
/* The volume of the ball of radius a about the origin inside the box [lo, hi] (the box's
 * corners relative to the centre), m^3: the disc areas over the height, integrated by
 * Gauss-Legendre between the heights where their shape changes (relative error < 1e-9). */
double pala_sphere_box_volume(double a, const double lo[3], const double hi[3]);

/* The angle of repose of a heap from its spheres (centres c, radii r; heights along up,
 * the floor at height z0): bench/heap/angle.sh's method (docs/physics.md, "The heap"): the
 * floor cut into rings of width dr about the heap's axis and into cells of about dr x dr;
 * each cell's highest sphere top is a point of the surface; the flank, where the rings' mean
 * heights fall from hi H to lo H (H the highest ring's), fitted by a line. */
typedef struct pala_angle {
    double deg, stderr_deg;   /* the angle atan(-slope) and its standard error, degrees */
    long points;              /* surface points on the flank */
    double r0, r1;            /* the flank's radii, m */
    double height;            /* H, m */
    double axis[2];           /* the heap's axis in the floor's two directions, m */
} pala_angle;
/* 0 with the angle in *A, or -1 with why the surface is not a slope (a flat bed, too few
 * points) in why. */
int pala_heap_angle(long n, const pala_vec3 *c, const double *r, int up, double z0, double dr, double lo, double hi, pala_angle *A,
                    char *why, size_t len);

#endif

/* measure.h: what `pala measure` computes from a run's frames (measure.c; docs/physics.md,
 * "Contacts and stress"): the solid volume of spheres in a box (exact), the quantities of a
 * region or of the bins of a profile (packing fraction, coordination, stress, fabric,
 * velocity, granular temperature), and the angle of repose of a heap.  Pure functions of
 * their arguments, so the tests check them against closed forms. */
#ifndef PALA_MEASURE_H
#define PALA_MEASURE_H
#include "pala/pala.h"
#include "traj.h"
#include <stdio.h>

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
/* The slope of a bed in a drum (axis e through p0, up against gravity), bench/drum/angle.sh's
 * surface method: each cell of dx x dx across and along the axis (from p0) has its highest sphere top
 * as a point of the free surface; the middle half of the surface across the axis, fitted by
 * a line h = a + b x, gives atan(-b) in *deg (positive when the bed rises on the side a turn
 * about +e carries it up).  0, or -1 with why (fewer than 8 points). */
int pala_drum_angle(long n, const pala_vec3 *c, const double *r, pala_vec3 p0, pala_vec3 e, pala_vec3 up, double dx, double *deg, long *points,
                    char *why, size_t len);

/* The quantities of a region (docs/physics.md, "Contacts and stress", eqs. M1-M6), one
 * implementation for `pala measure` (a run's frames read back) and the [measure NAME]
 * sections' writer (the world's frame and contact list during the run, writers.c): their
 * names as measure.tsv's columns after step and time, in the order of q below. */
enum { PALA_MEAS_NQ = 29 };
extern const char *const pala_meas_names[PALA_MEAS_NQ];
typedef struct pala_meas pala_meas;
/* A measurer of the frames of t (kept by the caller; its templates' clouds made here). */
pala_meas *pala_meas_new(const pala_traj *t);
void pala_meas_free(pala_meas *m);
/* The region [lo, hi]: [rlo, rhi] along the axes set, else the walls' box at t's frame (or
 * the grains'); in 2D z is unbounded. */
void pala_meas_region(const pala_traj *t, const int set[3], const double rlo[3], const double rhi[3], double lo[3], double hi[3]);
/* The quantities of t's current frame over [lo, hi] (ax < 0, nb 1) or over its nb bins along
 * axis ax, into q[nb * PALA_MEAS_NQ]; c[0..nc) the frame's contacts when contacts is set
 * (else Z, rattlers, s_ and f_ are nan).  Returns the volume of the first bin (2D: area). */
double pala_meas_frame(pala_meas *m, const pala_contact *c, long nc, int contacts, const double lo[3], const double hi[3], int ax, int nb,
                       double *q);
/* measure.tsv's header line, and a row of q at a step and time (s). */
void pala_meas_header(FILE *f);
void pala_meas_row(FILE *f, long step, double time, const double *q);

#endif

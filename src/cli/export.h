/* export.h: a run's frames for OVITO (extended XYZ) and ParaView (VTK XML PolyData and a
 * .pvd collection), written by `pala export` from trajectory.txt and, during a run, by
 * the writers xyz_every and vtk_every (writers.c).  Formats: docs/output-formats.md. */
#ifndef PALA_EXPORT_H
#define PALA_EXPORT_H
#include "traj.h"
#include <stdio.h>

/* One extended-XYZ frame: a line per component sphere, its species a chemical symbol (H
 * for the first grain type's name, He for the second, ...) so that ASE reads it, the type's
 * name in the column type_name. */
void pala_xyz_frame(FILE *f, const pala_traj *t);
/* The frame's PolyData files in dir (spheres_STEP.vtp: the component spheres, an arc's its
 * bounding circle; grains_STEP.vtp: the centres and orientations; STEP at least 6 digits;
 * with walls that move, walls_STEP.vtp: where they are at the frame; with arc grains,
 * outlines_STEP.vtp: a polygon on each one's arcs), ASCII or (binary) with their arrays as
 * raw appended data, and their lines in the collections spheres.pvd, grains.pvd and
 * outlines.pvd (any may be NULL).  Returns nonzero if a file cannot be written (said on
 * stderr). */
int pala_vtk_frame(const char *dir, const pala_traj *t, int binary, FILE *pvd_spheres, FILE *pvd_grains, FILE *pvd_outlines);
void pala_vtk_pvd_begin(FILE *f);
void pala_vtk_pvd_end(FILE *f);
/* container.vtp in dir: the shapes the walls are drawn with (traj.h), one piece each but
 * guides (outlines of walls, not surfaces); nothing without them.  Nonzero on a write
 * error. */
int pala_vtk_container(const char *dir, const pala_traj *t);

#endif

/* commands.h: the commands of the `pala` program beside `run` (check.c, collect.c,
 * sweep.c, order.c).  main.c dispatches `pala check|collect|sweep ...` to these with argv[0] set
 * to the command name; each returns the process exit code (enum pala_status).
 * Reference: docs/cli.md. */
#ifndef PALA_COMMANDS_H
#define PALA_COMMANDS_H

/* pala check RUN REFERENCE [--columns A,B,...] [--rtol R] [--atol A]
 * Compare energy curves; 0 all within tolerance, 3 a column deviates, 1 bad input. */
int pala_cmd_check(int argc, char **argv);
/* pala collect DIR... [-o table.tsv] [--force] [--all]
 * Gather the summary.tsv of several runs into one table. */
int pala_cmd_collect(int argc, char **argv);
/* pala sweep FILE --vary KEY=v1,v2,... [--vary KEY=lo:hi:n[:log]] [-o DIR] [--force]
 * Prepare one run folder per parameter combination, plus jobs.txt and sweep.tsv. */
int pala_cmd_sweep(int argc, char **argv);
/* pala order FILE [--runs K] [--factor F] [--window T0:T1] [-o DIR]
 * Measure the integrator's order of convergence on a scene. */
int pala_cmd_order(int argc, char **argv);

/* pala measure RUN [--region AXIS=LO:HI]... [--window T0:T1 | --last] [--profile AXIS [--bins N]]
 * [--angle] [-o DIR]   (measure.c): packing, coordination, stress, fabric, profiles, the
 * angle of repose. */
int pala_cmd_measure(int argc, char **argv);

/* pala export RUN --format xyz|vtk [--every K] [-o PATH]   (export.c)
 * A run's frames for OVITO (extended XYZ) or ParaView (VTK). */
int pala_cmd_export(int argc, char **argv);

/* pala plot RUN [-o DIR]   (plot.c): SVG plots of energy.tsv and walls.tsv. */
int pala_cmd_plot(int argc, char **argv);
/* pala snapshot RUN [--frame K|--time T] [--view x|y|z|iso] [--style solid|wire] ...   (snapshot.c) */
int pala_cmd_snapshot(int argc, char **argv);
/* pala view RUN [-o FILE.html] ...   (view.c): the self-contained HTML replay. */
int pala_cmd_view(int argc, char **argv);

#endif

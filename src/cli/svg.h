/* svg.h: line plots as SVG text (used by `pala plot`, `pala order`): a frame with ticks
 * at 1-2-5 steps (decades on a log axis), light grid lines, axis labels with units, a
 * title, lines and markers clipped to the frame, a legend.  Plain SVG 1.1, no scripts,
 * no external fonts (the viewer's generic sans-serif). */
#ifndef PALA_SVG_H
#define PALA_SVG_H
#include <stdio.h>

typedef struct pala_svg_plot {
    FILE *f;
    double W, H;                 /* picture size, px */
    double left, right, top, bottom;   /* margins, px */
    double x0, x1, y0, y1;       /* data range (y of a log axis: > 0) */
    int ylog;
    int nlegend;
} pala_svg_plot;

/* The colour of series i (a palette of ten that stays distinct in print). */
const char *pala_svg_colour(int i);
/* Choose the ranges from data: x over [xmin, xmax]; y from the values given (non-finite
 * and, on a log axis, non-positive values ignored), widened to nice numbers. */
void pala_svg_range(double *lo, double *hi, int log, int zero);
/* Start a plot: the picture, its title, the axes with ticks, grid and labels. */
void pala_svg_begin(pala_svg_plot *p, FILE *f, double W, double H, double x0, double x1, double y0, double y1,
                    int ylog, const char *title, const char *xlabel, const char *ylabel);
/* A line through n points (gaps at non-finite values and, on a log axis, at y <= 0);
 * dash NULL for solid; marker nonzero draws small circles at the points. */
void pala_svg_line(pala_svg_plot *p, int n, const double *x, const double *y, const char *colour, double width,
                   const char *dash, int marker);
/* A straight segment in data coordinates (a fit), and a text at data coordinates. */
void pala_svg_segment(pala_svg_plot *p, double xa, double ya, double xb, double yb, const char *colour, const char *dash);
/* One legend entry (right of the frame, stacked from the top). */
void pala_svg_legend(pala_svg_plot *p, const char *label, const char *colour, const char *dash);
/* A note under the title (e.g. a fit's result). */
void pala_svg_note(pala_svg_plot *p, const char *text);
void pala_svg_end(pala_svg_plot *p);
/* Text with &, <, > escaped. */
void pala_svg_text(FILE *f, const char *s);

#endif

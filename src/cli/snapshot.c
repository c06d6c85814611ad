/* snapshot.c: `pala snapshot RUN [--frame K|--time T] [--view x|y|z|iso]
 * [--style solid|wire] [--colour FIELD] [--network] [--frame-on walls|grains] [--size PX]
 * [-o FILE]`: one frame of a run as an SVG picture, in orthographic projection:
 *   solid  every component sphere a shaded disc, drawn back to front (an arc grain: its
 *          outline of arcs, docs/physics.md "Arc grains");
 *   wire   the paper's wire frame (section 8, Figure 1): a line from the grain's centre
 *          of mass to each component's centre, and three orthogonal radii per
 *          component, the first along the line from the centre (they turn with the
 *          grain: the directions are fixed in the body frame);
 * the walls' outlines; with --network the contact-force network of the frame (a line per
 * contact between the centres of the two component spheres, or to a wall's contact point,
 * its width proportional to |f|; from the run's contacts.tsv or .bin at the frame's step);
 * a footer (time, step, frame, view) that wraps and never runs past the picture; a legend
 * of the grain types or the scale of the field the grains are coloured by (speed, height,
 * angular speed, coordination, grain number, contact force: the last two need the
 * contacts).  The picture frames the walls, or (--frame-on grains) the frame's spheres.
 * A 2D run is drawn in its plane (--view z). */
#include "commands.h"
#include "contacts.h"
#include "rundir.h"
#include "svg.h"
#include "traj.h"
#include "tsv.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Corner i (bit 0: x, 1: y, 2: z high) of the box [a, b], whose infinite z (a 2D box) is
 * the bounds' [lo, hi]. */
static pala_vec3 corner(pala_vec3 a, pala_vec3 b, pala_vec3 lo, pala_vec3 hi, int i)
{
    if (!isfinite(a.z) || !isfinite(b.z)) { a.z = lo.z; b.z = hi.z; }
    return pala_v(i & 1 ? b.x : a.x, i & 2 ? b.y : a.y, i & 4 ? b.z : a.z);
}

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala snapshot RUN [--frame K | --time T] [--view x|y|z|iso] [--style solid|wire]\n"
        "                     [--colour FIELD] [--network] [--frame-on walls|grains] [--size PX] [-o FILE]\n"
        "  --frame K        the K-th frame of trajectory.txt (0 = the first; default: the last)\n"
        "  --time T         the first frame at or after time T (s)\n"
        "  --view           look along -x, +y, -z or from (1,-1,1) (default: iso in 3D, z in 2D;\n"
        "                   a 2D run is always drawn in its plane)\n"
        "  --style solid    shaded discs, back to front (default); wire: the paper's wire frames\n"
        "  --colour FIELD   type (default), speed, height, angular (speed), coordination,\n"
        "                   grain (number) or force (|sum of its contact forces|); coordination\n"
        "                   and force need the run's contacts at the frame's step (contacts_every)\n"
        "  --network        the contact-force network: a line per contact, width proportional to |f|\n"
        "  --frame-on       what the picture frames: the walls (default) or the frame's grains\n"
        "  --size PX        picture width (default 800)\n"
        "  -o FILE          default: RUN/snapshot-STEP.svg\n");
}

/* right, up, towards the viewer */
static void view_basis(const char *v, pala_vec3 *u, pala_vec3 *up, pala_vec3 *w)
{
    if (!strcmp(v, "z")) { *u = pala_v(1, 0, 0); *up = pala_v(0, 1, 0); *w = pala_v(0, 0, 1); }
    else if (!strcmp(v, "y")) { *u = pala_v(1, 0, 0); *up = pala_v(0, 0, 1); *w = pala_v(0, -1, 0); }
    else if (!strcmp(v, "x")) { *u = pala_v(0, 1, 0); *up = pala_v(0, 0, 1); *w = pala_v(1, 0, 0); }
    else {
        *w = pala_vscale(1 / sqrt(3.0), pala_v(1, -1, 1));
        pala_vec3 z = pala_v(0, 0, 1);
        pala_vec3 vv = pala_vsub(z, pala_vscale(pala_vdot(z, *w), *w));
        *up = pala_vscale(1 / sqrt(pala_vdot(vv, vv)), vv);
        *u = pala_vcross(*up, *w);
    }
}

/* a colour map from dark blue over green to yellow (viridis-like), s in [0, 1] */
static void speed_colour(double s, char *buf, size_t n)
{
    static const double c[5][3] = {{68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
    s = s > 1 ? 1 : s >= 0 ? s : 0;   /* NaN (an infinite speed over an infinite largest one): 0 */
    double q = s * 4;
    int i = q >= 4 ? 3 : (int)q;
    double f = q - i;
    snprintf(buf, n, "#%02x%02x%02x", (int)lround(c[i][0] + f * (c[i + 1][0] - c[i][0])), (int)lround(c[i][1] + f * (c[i + 1][1] - c[i][1])),
             (int)lround(c[i][2] + f * (c[i + 1][2] - c[i][2])));
}

typedef struct disc { double depth, x, y, R; int grain, comp, col; } disc;
static int by_depth(const void *a, const void *b)
{
    const disc *p = a, *q = b;
    if (p->depth != q->depth) return p->depth < q->depth ? -1 : 1;
    return p->grain != q->grain ? p->grain - q->grain : p->comp - q->comp;   /* stable for equal depths (2D) */
}

/* the fields the grains may be coloured by (--colour), their titles and units; the first is
 * the grain type, the last two need the contacts */
static const char *const fields[] = {"type", "speed", "height", "angular", "grain", "coordination", "force"};
static const char *const ftitle[] = {"", "speed (m/s)", "height (m)", "angular speed (rad/s)", "grain number", "coordination (grains)", "contact force (N)"};
enum { F_TYPE, F_SPEED, F_HEIGHT, F_ANGULAR, F_GRAIN, F_COORD, F_FORCE, NFIELDS };

/* cf at the frame of the run's contact file with the given step: 0, or -1 (said why) */
static int contacts_at(pala_cfile *cf, const char *run, long step, const char *why)
{
    if (pala_cfile_open(cf, run, stderr) != PALA_OK) { fprintf(stderr, "pala snapshot: %s needs the run's contacts\n", why); return -1; }
    int st;
    while ((st = pala_cfile_next(cf, stderr)) == 1 && cf->step < step) {}
    if (st == 1 && cf->step == step) return 0;
    if (st >= 0)
        fprintf(stderr, "pala snapshot: %s needs the contacts at step %ld, and %s has none there; give contacts_every the cadence of "
                        "trajectory_every, or choose a frame whose step has them\n", why, step, cf->path);
    return -1;
}

/* The footer: the items joined by dots, as many on a line as fit into width px (13 px text,
 * 8.2 px a character: a digit's width in DejaVu Sans, more than most letters'), a line
 * still too long squeezed into the width (textLength), so it never runs past the picture;
 * from y0 down by 18 px a line.  Returns the number of lines; f NULL: only counts them. */
static int footer(FILE *f, char items[][160], int n, double x, double y0, double width)
{
    const double ch = 8.2;
    int lines = 0;
    for (int i = 0; i < n;) {
        int j = i + 1;
        double w = ch * (double)strlen(items[i]);
        while (j < n && w + ch * (5.0 + (double)strlen(items[j])) <= width) w += ch * (5.0 + (double)strlen(items[j++]));
        if (f) {
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\"", x, y0 + 18 * lines);
            if (w > width) fprintf(f, " textLength=\"%.0f\" lengthAdjust=\"spacingAndGlyphs\"", width);
            fputc('>', f);
            for (int k = i; k < j; k++) {
                if (k > i) fputs("  \u00b7  ", f);
                pala_svg_text(f, items[k]);
            }
            fputs("</text>\n", f);
        }
        lines++;
        i = j;
    }
    return lines;
}

/* the picture's coordinates of a point (margin, umin, vmax, sc, U, V in scope) */
#define PX(p) (margin + (pala_vdot((p), U) - umin) * sc)
#define PY(p) (margin + (vmax - pala_vdot((p), V)) * sc)

/* Grain k's outline if it is an arc grain (docs/physics.md, "Arc grains"): an SVG path of
 * its arcs (the picture's y points down, so the world's counter-clockwise is sweep 0),
 * filled with gradient col (fill) or not; returns 0 for a grain of spheres. */
static int outline(FILE *f, const pala_traj *t, int k, double sc, double margin, double umin, double vmax, pala_vec3 U, pala_vec3 V,
                   const char *fill, int col)
{
    enum { MAXA = 128 };
    pala_vec3 p[MAXA];
    double R[MAXA], span[MAXA];
    int n = pala_traj_arcs(t, k, p, R, span, MAXA);
    if (!n) return 0;
    fprintf(f, "<path d=\"M%.2f %.2f", PX(p[0]), PY(p[0]));
    for (int i = 0; i < n; i++) {
        pala_vec3 q = p[(i + 1) % n];
        fprintf(f, "A%.2f %.2f 0 %d 0 %.2f %.2f", R[i] * sc, R[i] * sc, span[i] > PALA_PI, PX(q), PY(q));
    }
    if (fill) fprintf(f, "Z\" fill=\"url(#g%d)\"/>\n", col);
    else fprintf(f, "Z\"/>");
    return 1;
}

int pala_cmd_snapshot(int argc, char **argv)
{
    const char *run = NULL, *out = NULL, *view = NULL, *style = "solid", *colour = "type", *frame_on = "walls";
    int network = 0;
    long frame = -1;
    double tsel = -1, size = 800;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        char *e = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--frame") && more) {
            frame = strtol(argv[++i], &e, 10);
            if (*e || frame < 0) { fprintf(stderr, "pala snapshot: --frame '%s': expected a frame number >= 0\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "--time") && more) {
            tsel = strtod(argv[++i], &e);
            if (*e || !(tsel >= 0)) { fprintf(stderr, "pala snapshot: --time '%s': expected a time in s >= 0\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "--view") && more) view = argv[++i];
        else if (!strcmp(a, "--style") && more) style = argv[++i];
        else if ((!strcmp(a, "--colour") || !strcmp(a, "--color")) && more) colour = argv[++i];
        else if (!strcmp(a, "--network")) network = 1;
        else if (!strcmp(a, "--frame-on") && more) frame_on = argv[++i];
        else if (!strcmp(a, "--size") && more) {
            size = strtod(argv[++i], &e);
            if (*e || size < 100 || size > 20000) { fprintf(stderr, "pala snapshot: --size '%s': expected a width of 100 to 20000 px\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "-o") && more && !argv[i + 1][0]) { fprintf(stderr, "pala snapshot: -o needs a file name, e.g. -o last.svg\n"); return PALA_ERR_INPUT; }
        else if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (a[0] == '-') { fprintf(stderr, "pala snapshot: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala snapshot: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run) { fprintf(stderr, "pala snapshot: which run? e.g. pala snapshot paper-ten-grains.run\n"); usage(stderr); return PALA_ERR_INPUT; }
    if (out && pala_refuse_result(out, "snapshot", "snapshot.svg", stderr)) return PALA_ERR_INPUT;
    if (view && strcmp(view, "x") && strcmp(view, "y") && strcmp(view, "z") && strcmp(view, "iso")) { fprintf(stderr, "pala snapshot: --view '%s': expected x, y, z or iso\n", view); return PALA_ERR_INPUT; }
    if (strcmp(style, "solid") && strcmp(style, "wire")) { fprintf(stderr, "pala snapshot: --style '%s': expected solid or wire\n", style); return PALA_ERR_INPUT; }
    int field = 0;
    while (field < NFIELDS && strcmp(colour, fields[field])) field++;
    if (field == NFIELDS) { fprintf(stderr, "pala snapshot: --colour '%s': expected type, speed, height, angular, grain, coordination or force\n", colour); return PALA_ERR_INPUT; }
    if (strcmp(frame_on, "walls") && strcmp(frame_on, "grains")) { fprintf(stderr, "pala snapshot: --frame-on '%s': expected walls or grains\n", frame_on); return PALA_ERR_INPUT; }
    int on_grains = !strcmp(frame_on, "grains");
    if (frame >= 0 && tsel >= 0) { fprintf(stderr, "pala snapshot: give --frame or --time, not both\n"); return PALA_ERR_INPUT; }
    pala_traj t;
    int rc = pala_traj_open(&t, run, stderr);
    if (rc) { pala_traj_close(&t); return rc; }
    int st;
    while ((st = pala_traj_next(&t, stderr)) == 1) {
        if (frame >= 0 && t.frames - 1 == frame) break;
        if (tsel >= 0 && pala_in_window(t.time, tsel, HUGE_VAL)) break;   /* (a frame's time is step * dt written whole: 0.60000000000000009) */
    }
    if (st == 0 && tsel >= 0 && t.frames > 0 && !pala_in_window(t.time, tsel, HUGE_VAL)) {
        fprintf(stderr, "pala snapshot: --time %g: %s ends at t = %.6g s (frame %ld); give a time up to it, or --frame\n", tsel, t.path, t.time, t.frames - 1);
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    if (st < 0 || t.frames == 0 || (frame >= 0 && t.frames - 1 != frame)) {
        if (st >= 0 && t.frames == 0) fprintf(stderr, "pala snapshot: %s holds no frame yet: nothing to draw\n", t.path);
        else if (st >= 0) fprintf(stderr, "pala snapshot: %s has %ld frame%s (0 to %ld); no frame %ld\n", t.path, t.frames, t.frames == 1 ? "" : "s", t.frames - 1, frame);
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    long fno = t.frames - 1;
    /* the contacts of the frame's step, for the network and the fields by contact */
    pala_cfile cf;
    memset(&cf, 0, sizeof cf);
    int need_c = network || field >= F_COORD;
    if (need_c && contacts_at(&cf, run, t.step, network ? "--network" : field == F_COORD ? "--colour coordination" : "--colour force")) {
        pala_cfile_close(&cf);
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    if (t.dim == 2) view = "z";
    else if (!view) view = "iso";
    pala_vec3 U, V, W;
    view_basis(view, &U, &V, &W);
    /* the picture's extent: the walls' shapes (or the frame's spheres) projected */
    pala_vec3 lo, hi;
    pala_traj_bounds(&t, &lo, &hi);
    if (t.dim == 2) { lo.z = hi.z = 0; }
    pala_draw sh[PALA_TRAJ_SHAPES];
    int nsh = pala_traj_shapes(&t, sh, PALA_TRAJ_SHAPES), nsolid = 0;
    double umin = HUGE_VAL, umax = -HUGE_VAL, vmin = HUGE_VAL, vmax = -HUGE_VAL;
    for (int k = 0; on_grains && k < t.n; k++)   /* --frame-on grains: the frame's spheres */
        for (int c = t.comp0[t.tid[k]]; c < t.comp0[t.tid[k]] + t.ncomp[t.tid[k]]; c++) {
            double R;
            pala_vec3 p = pala_traj_comp_sphere(&t, k, c, &R);   /* an arc: its bounding circle */
            double a = pala_vdot(p, U), b = pala_vdot(p, V);
            umin = fmin(umin, a - R); umax = fmax(umax, a + R); vmin = fmin(vmin, b - R); vmax = fmax(vmax, b + R);
        }
    if (on_grains && t.n > 0) {   /* a little room around them */
        double m = 0.04 * fmax(umax - umin, vmax - vmin);
        umin -= m; umax += m; vmin -= m; vmax += m;
    }
    for (int s = 0; s <= nsh && !(on_grains && t.n > 0); s++) {
        pala_vec3 c[8];
        int nc = 0;
        if (s == nsh && !nsolid) {   /* no walls: the bounds' corners */
            for (; nc < 8; nc++) c[nc] = pala_v(nc & 1 ? hi.x : lo.x, nc & 2 ? hi.y : lo.y, nc & 4 ? hi.z : lo.z);
        } else if (s < nsh && !sh[s].guide) {
            nsolid++;
            if (sh[s].shape == PALA_DRAW_SPHERE) {   /* its outline, a circle of radius r */
                double cu = pala_vdot(sh[s].p[0], U), cv = pala_vdot(sh[s].p[0], V), R = sh[s].r;
                umin = fmin(umin, cu - R); umax = fmax(umax, cu + R); vmin = fmin(vmin, cv - R); vmax = fmax(vmax, cv + R);
            } else if (sh[s].shape == PALA_DRAW_QUAD)
                for (; nc < 4; nc++) c[nc] = sh[s].p[nc];
            else   /* a box: its corners, along an axis it leaves unbounded the bounds' */
                for (; nc < 8; nc++) c[nc] = corner(sh[s].p[0], sh[s].p[1], lo, hi, nc);
        }
        for (int i = 0; i < nc; i++) {
            double a = pala_vdot(c[i], U), b = pala_vdot(c[i], V);
            umin = fmin(umin, a); umax = fmax(umax, a); vmin = fmin(vmin, b); vmax = fmax(vmax, b);
        }
    }
    double margin = 24, legend = fmin(150, 0.375 * size);   /* a narrow picture keeps 5/8 of its width to draw in */
    /* the footer's items, on as many lines as they need */
    char items[7][160];
    int nit = 0;
    snprintf(items[nit++], sizeof items[0], "t = %.6g s", t.time);
    snprintf(items[nit++], sizeof items[0], "step %ld", t.step);
    snprintf(items[nit++], sizeof items[0], "frame %ld", fno);
    snprintf(items[nit++], sizeof items[0], "view %s", t.dim == 2 ? "plane z = 0" : view);
    snprintf(items[nit++], sizeof items[0], "%s", style);
    snprintf(items[nit++], sizeof items[0], "%d grains, %ld %s", t.n, t.npeb, t.sarc ? "components" : "spheres");
    if (need_c) snprintf(items[nit++], sizeof items[0], "%ld contacts", cf.n);
    double foot = 22 + 18 * footer(NULL, items, nit, margin, 0, size - 2 * margin);
    double sc = (size - 2 * margin - legend) / (umax - umin);
    if ((vmax - vmin) * sc > 1.2 * size) sc = 1.2 * size / (vmax - vmin);   /* a tall container: at most 1.2 x as high as wide */
    if (!(sc > 0) || !isfinite(sc)) sc = 1;   /* one point (--frame-on grains of nothing) */
    double Hpx = (vmax - vmin) * sc + 2 * margin + foot;
    if (Hpx < 260) Hpx = 260;
    if (Hpx < margin + 230 + foot) Hpx = margin + 230 + foot;   /* room for the legend and the network's entry */
    /* the discs */
    disc *d = malloc(sizeof *d * (size_t)(t.npeb > 0 ? t.npeb : 1));
    if (!d) { fprintf(stderr, "pala snapshot: out of memory\n"); pala_traj_close(&t); return PALA_ERR_IO; }
    /* a colour per grain-type name: the shapes of a random type share their name and colour */
    int *tcol = calloc((size_t)t.ntmpl, sizeof *tcol);
    if (!tcol) { fprintf(stderr, "pala snapshot: out of memory\n"); free(d); pala_traj_close(&t); return PALA_ERR_IO; }
    int nnames = pala_traj_kinds(&t, tcol);
    /* each grain's value of the field and the field's range over the frame (from 0 but for the
     * height); the contacts' fields by grain number */
    long nnum = 0;
    for (int k = 0; k < t.n; k++) nnum = pala_traj_id(&t, k) + 1 > nnum ? pala_traj_id(&t, k) + 1 : nnum;
    double *val = malloc(sizeof *val * (size_t)(t.n + 1)), *cz = malloc(sizeof *cz * (size_t)(nnum + 1)), *cF = malloc(sizeof *cF * (size_t)(nnum + 1));
    if (!val || !cz || !cF) { fprintf(stderr, "pala snapshot: out of memory\n"); exit(PALA_ERR_IO); }
    if (need_c) pala_cfile_grain_fields(&cf, nnum, cz, cF);
    double flo = HUGE_VAL, fhi = -HUGE_VAL;
    for (int k = 0; k < t.n; k++) {
        int id = pala_traj_id(&t, k);
        double v = field == F_SPEED ? sqrt(pala_vdot(t.v[k], t.v[k])) : field == F_HEIGHT ? (t.dim == 2 ? t.x[k].y : t.x[k].z)
                 : field == F_ANGULAR ? sqrt(pala_vdot(t.w[k], t.w[k])) : field == F_GRAIN ? id : field == F_COORD ? cz[id] : field == F_FORCE ? cF[id] : 0;
        val[k] = v;
        flo = fmin(flo, v);
        fhi = fmax(fhi, v);
    }
    if (t.n == 0) flo = fhi = 0;
    if (field != F_HEIGHT && flo > 0) flo = 0;
#define LEVEL(k) (fhi > flo ? (val[k] - flo) / (fhi - flo) : 0)
    long nd = 0;
    for (int k = 0; k < t.n; k++) {
        int tp = t.tid[k];
        int col = field ? (int)lround(15 * LEVEL(k)) : tcol[tp] % 10;
        if (pala_traj_is_arc(&t, t.comp0[tp])) {   /* an arc grain: its outline, one entry (comp -1) */
            d[nd++] = (disc){pala_vdot(t.x[k], W), PX(t.x[k]), PY(t.x[k]), 0, k, -1, col};
            continue;
        }
        for (int c = t.comp0[tp]; c < t.comp0[tp] + t.ncomp[tp]; c++, nd++) {
            pala_vec3 p = pala_traj_centre(&t, k, c);
            d[nd] = (disc){pala_vdot(p, W), PX(p), PY(p), t.srad[c] * sc, k, c, col};
        }
    }
    qsort(d, (size_t)nd, sizeof *d, by_depth);
    char path[4300], rundir[4096];
    pala_traj_rundir(run, rundir, sizeof rundir);
    if (out) snprintf(path, sizeof path, "%s", out);
    else snprintf(path, sizeof path, "%s/snapshot-%06ld.svg", rundir, t.step);
    char *slash = out ? strrchr(path, '/') : NULL;   /* a new folder, as pala run -o makes one */
    if (slash && slash != path) {
        *slash = 0;
        int bad = pala_mkdir_p(path, "snapshot", stderr);
        *slash = '/';
        if (bad) { free(d); pala_traj_close(&t); return PALA_ERR_IO; }
    }
    FILE *f = pala_fopen(path, "w");
    if (!f) { fprintf(stderr, "pala snapshot: cannot write %s: %s\n", path, pala_strerror(errno)); free(d); pala_traj_close(&t); return PALA_ERR_IO; }
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"13\">\n", size, Hpx, size, Hpx);
    fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n<defs>\n");
    int ncol = field ? 16 : 10;
    char cs[16];
    for (int i = 0; i < ncol; i++) {
        if (ncol == 16) speed_colour(i / 15.0, cs, sizeof cs);
        else snprintf(cs, sizeof cs, "%s", pala_svg_colour(i));
        unsigned rgb = (unsigned)strtoul(cs + 1, NULL, 16);   /* the rim: the colour at 55 % */
        char dark[16];
        snprintf(dark, sizeof dark, "#%02x%02x%02x", (rgb >> 16) * 55 / 100, ((rgb >> 8) & 255) * 55 / 100, (rgb & 255) * 55 / 100);
        fprintf(f, "<radialGradient id=\"g%d\" cx=\"0.4\" cy=\"0.36\" r=\"0.68\" fx=\"0.36\" fy=\"0.3\"><stop offset=\"0\" stop-color=\"white\" stop-opacity=\"0.95\"/>"
                   "<stop offset=\"0.3\" stop-color=\"%s\"/><stop offset=\"1\" stop-color=\"%s\"/></radialGradient>\n", i, cs, dark);
    }
    /* framed on the grains, the walls are cut at the edge of the drawing */
    if (on_grains) fprintf(f, "<clipPath id=\"area\"><rect width=\"%.0f\" height=\"%.0f\"/></clipPath>\n", size - legend + 4, Hpx - foot + 4);
    fprintf(f, "</defs>\n");
    /* the walls' shapes, before the grains; a guide (an outline of a wall) dashed */
    fprintf(f, "<g fill=\"none\" stroke=\"#555\" stroke-width=\"1.3\"%s>\n", on_grains ? " clip-path=\"url(#area)\"" : "");
    for (int s = 0; s < nsh; s++) {
        const pala_draw *ws = &sh[s];
        if (ws->shape == PALA_DRAW_SPHERE)
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\"/>\n", PX(ws->p[0]), PY(ws->p[0]), ws->r * sc);
        else if (ws->shape == PALA_DRAW_BOX && t.dim == 2) {
            pala_vec3 p = corner(ws->p[0], ws->p[1], lo, hi, 2);
            fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"/>\n", PX(p), PY(p), (ws->p[1].x - ws->p[0].x) * sc,
                    (ws->p[1].y - ws->p[0].y) * sc);
        } else if (ws->shape == PALA_DRAW_BOX)   /* its twelve edges */
            for (int i = 0; i < 8; i++)
                for (int b = 0; b < 3; b++) {
                    int j = i | (1 << b);
                    if (j == i) continue;
                    pala_vec3 p = corner(ws->p[0], ws->p[1], lo, hi, i), q = corner(ws->p[0], ws->p[1], lo, hi, j);
                    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>\n", PX(p), PY(p), PX(q), PY(q));
                }
        else if (ws->shape == PALA_DRAW_QUAD)
            fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\"%s/>\n", PX(ws->p[0]), PY(ws->p[0]), PX(ws->p[1]), PY(ws->p[1]),
                    PX(ws->p[2]), PY(ws->p[2]), PX(ws->p[3]), PY(ws->p[3]), ws->guide ? " stroke=\"#8a4\" stroke-dasharray=\"6 4\"" : "");
    }
    fprintf(f, "</g>\n");
    if (!strcmp(style, "solid")) {
        fprintf(f, "<g stroke=\"#222\" stroke-width=\"0.4\" stroke-opacity=\"0.6\">\n");
        for (long i = 0; i < nd; i++) {
            if (d[i].comp < 0) outline(f, &t, d[i].grain, sc, margin, umin, vmax, U, V, "fill", d[i].col);
            else fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"url(#g%d)\"/>\n", d[i].x, d[i].y, d[i].R, d[i].col);
        }
        fprintf(f, "</g>\n");
    } else {
        /* wire frames, grain by grain (lines need no depth order) */
        fprintf(f, "<g stroke-width=\"1.1\" stroke-linecap=\"round\" fill=\"none\">\n");
        for (int k = 0; k < t.n; k++) {
            int tp = t.tid[k];
            if (field) speed_colour(LEVEL(k), cs, sizeof cs);
            else snprintf(cs, sizeof cs, "%s", pala_svg_colour(tcol[tp]));
            fprintf(f, "<g stroke=\"%s\">", cs);
            pala_vec3 x = t.x[k];
            if (outline(f, &t, k, sc, margin, umin, vmax, U, V, NULL, 0)) {   /* an arc grain: its outline */
                fprintf(f, "</g>\n");
                continue;
            }
            for (int c = t.comp0[tp]; c < t.comp0[tp] + t.ncomp[tp]; c++) {
                pala_vec3 b = t.shape[c], p = pala_traj_centre(&t, k, c);
                double R = t.srad[c], bl = sqrt(pala_vdot(b, b));
                if (bl > 1e-9 * R) fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>", PX(x), PY(x), PX(p), PY(p));
                /* three orthogonal radii, fixed in the body frame: e1 along b (or the first axis) */
                pala_vec3 e1 = bl > 1e-9 * R ? pala_vscale(1 / bl, b) : pala_v(1, 0, 0);
                pala_vec3 a = fabs(e1.z) < 0.9 ? pala_v(0, 0, 1) : pala_v(1, 0, 0);
                pala_vec3 e2 = pala_vcross(e1, a);
                e2 = pala_vscale(1 / sqrt(pala_vdot(e2, e2)), e2);
                pala_vec3 e3 = pala_vcross(e1, e2);
                pala_vec3 e[3] = {e1, e2, e3};
                for (int m = 0; m < 3; m++) {
                    pala_vec3 q = pala_vadd(p, pala_vscale(R, pala_rot_apply(t.r[k], e[m])));
                    fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/>", PX(p), PY(p), PX(q), PY(q));
                }
            }
            fprintf(f, "</g>\n");
        }
        fprintf(f, "</g>\n");
    }
    /* the contact-force network over the grains: a line per contact between the centres of
     * the two component spheres (to a wall's contact point), 6 px wide for the frame's largest
     * |f|, proportionally thinner (at least 0.3 px) */
    double fmx = 0;
    long nlines = 0;
    int *num2k = malloc(sizeof *num2k * (size_t)(nnum + 1));
    if (!num2k) { fprintf(stderr, "pala snapshot: out of memory\n"); exit(PALA_ERR_IO); }
    for (long q = 0; q < nnum; q++) num2k[q] = -1;
    for (int k = 0; k < t.n; k++) num2k[pala_traj_id(&t, k)] = k;
    for (long q = 0; network && q < cf.n; q++) fmx = fmax(fmx, sqrt(cf.c[q].fn * cf.c[q].fn + pala_vdot(cf.c[q].ft, cf.c[q].ft)));
    if (network) {
        fprintf(f, "<g stroke=\"#a01020\" stroke-opacity=\"0.85\" stroke-linecap=\"round\">\n");
        for (long q = 0; q < cf.n; q++) {
            const pala_contact *c = &cf.c[q];
            int ki = c->i >= 0 && c->i < nnum ? num2k[c->i] : -1, kj = c->j >= 0 && c->j < nnum ? num2k[c->j] : -1;
            if (ki < 0 || c->ci >= t.ncomp[t.tid[ki]] || (c->j >= 0 && (kj < 0 || c->cj >= t.ncomp[t.tid[kj]]))) continue;   /* a grain not in the frame */
            pala_vec3 a = pala_traj_centre(&t, ki, t.comp0[t.tid[ki]] + c->ci), b = c->j >= 0 ? pala_traj_centre(&t, kj, t.comp0[t.tid[kj]] + c->cj) : c->x;
            double fm = sqrt(c->fn * c->fn + pala_vdot(c->ft, c->ft));
            fprintf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke-width=\"%.2f\"/>\n", PX(a), PY(a), PX(b), PY(b), fmax(0.3, 6 * fm / (fmx > 0 ? fmx : 1)));
            nlines++;
        }
        fprintf(f, "</g>\n");
    }
    /* the footer and the legend */
    double lx = size - legend + 8, ly = margin + 200;   /* ly: below the legend, the network's entry */
    fprintf(f, "<g fill=\"#222\">\n");
    footer(f, items, nit, margin, Hpx - foot + 24, size - 2 * margin);
    if (field) {
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\"", lx, margin + 10);
        if ((double)strlen(ftitle[field]) * 6.6 > legend - 20) fprintf(f, " textLength=\"%.0f\" lengthAdjust=\"spacingAndGlyphs\"", legend - 20);   /* never past the edge */
        fputc('>', f);
        pala_svg_text(f, ftitle[field]);
        fprintf(f, "</text>\n");
        for (int i = 0; i < 16; i++) {
            speed_colour(1 - i / 15.0, cs, sizeof cs);
            fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"18\" height=\"10\" fill=\"%s\"/>\n", lx, margin + 20 + 10 * i, cs);
        }
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%.3g</text>\n<text x=\"%.0f\" y=\"%.0f\">%.3g</text>\n", lx + 24, margin + 30, fhi, lx + 24, margin + 180, flo);
    } else {
        ly = margin + 22 * (nnames < 12 ? nnames : 13) + 12;
        for (int i = 0, seen = 0; i < t.ntmpl; i++) {   /* one entry per name: its colour is new at its first template */
            int c = tcol[i], first = c == seen;
            seen += first;
            if (!first || c >= 12) continue;
            fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"7\" fill=\"url(#g%d)\" stroke=\"#222\" stroke-width=\"0.4\"/>\n", lx + 7, margin + 10 + 22 * c, c % 10);
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", lx + 22, margin + 15 + 22 * c);
            pala_svg_text(f, t.tname[i]);
            fprintf(f, "</text>\n");
        }
        if (nnames > 12) fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">... %d types</text>\n", lx, margin + 15 + 22 * 12, nnames);
    }
    if (network)
        fprintf(f, "<line x1=\"%.0f\" y1=\"%.0f\" x2=\"%.0f\" y2=\"%.0f\" stroke=\"#a01020\" stroke-width=\"6\" stroke-linecap=\"round\"/>\n"
                   "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">|f| = %.3g N</text>\n<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\">width \u221d |f|</text>\n",
                lx + 3, ly, lx + 17, ly, lx + 24, ly + 4, fmx, lx + 24, ly + 18);
    fprintf(f, "</g>\n</svg>\n");
#undef PX
#undef PY
#undef LEVEL
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    int werrno = errno ? errno : EIO;   /* the write's, before the frees below */
    free(d);
    free(tcol);
    free(val); free(cz); free(cF); free(num2k);
    pala_cfile_close(&cf);
    if (bad) { fprintf(stderr, "pala snapshot: writing %s failed: %s\n", path, strerror(werrno)); pala_traj_close(&t); return PALA_ERR_IO; }
    printf("pala snapshot: frame %ld (step %ld, t = %.6g s), %d grains", fno, t.step, t.time, t.n);
    if (network) printf(", %ld contact lines", nlines);
    printf(" -> %s\n", path);
    pala_traj_close(&t);
    return PALA_OK;
}

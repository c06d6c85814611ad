/* snapshot.c: `pala snapshot RUN [--frame K|--time T] [--view x|y|z|iso]
 * [--style solid|wire] [--colour type|speed] [--size PX] [-o FILE]`: one frame of a run
 * as an SVG picture, in orthographic projection:
 *   solid  every component sphere a shaded disc, drawn back to front;
 *   wire   the paper's wire frame (section 8, Figure 1): a line from the grain's centre
 *          of mass to each component's centre, and three orthogonal radii per
 *          component, the first along the line from the centre (they turn with the
 *          grain: the directions are fixed in the body frame);
 * the walls' outlines, the time, and a legend of the grain types or a speed scale.
 * A 2D run is drawn in its plane (--view z). */
#include "commands.h"
#include "rundir.h"
#include "svg.h"
#include "traj.h"
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
        "                     [--colour type|speed] [--size PX] [-o FILE]\n"
        "  --frame K        the K-th frame of trajectory.txt (0 = the first; default: the last)\n"
        "  --time T         the first frame at or after time T (s)\n"
        "  --view           look along -x, +y, -z or from (1,-1,1) (default: iso in 3D, z in 2D;\n"
        "                   a 2D run is always drawn in its plane)\n"
        "  --style solid    shaded discs, back to front (default); wire: the paper's wire frames\n"
        "  --colour         by grain type (default) or by speed\n"
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

int pala_cmd_snapshot(int argc, char **argv)
{
    const char *run = NULL, *out = NULL, *view = NULL, *style = "solid", *colour = "type";
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
        else if (!strcmp(a, "--size") && more) {
            size = strtod(argv[++i], &e);
            if (*e || size < 100 || size > 20000) { fprintf(stderr, "pala snapshot: --size '%s': expected a width of 100 to 20000 px\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (a[0] == '-') { fprintf(stderr, "pala snapshot: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala snapshot: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run) { fprintf(stderr, "pala snapshot: which run? e.g. pala snapshot paper-ten-grains.run\n"); usage(stderr); return PALA_ERR_INPUT; }
    if (view && strcmp(view, "x") && strcmp(view, "y") && strcmp(view, "z") && strcmp(view, "iso")) { fprintf(stderr, "pala snapshot: --view '%s': expected x, y, z or iso\n", view); return PALA_ERR_INPUT; }
    if (strcmp(style, "solid") && strcmp(style, "wire")) { fprintf(stderr, "pala snapshot: --style '%s': expected solid or wire\n", style); return PALA_ERR_INPUT; }
    if (strcmp(colour, "type") && strcmp(colour, "speed")) { fprintf(stderr, "pala snapshot: --colour '%s': expected type or speed\n", colour); return PALA_ERR_INPUT; }
    if (frame >= 0 && tsel >= 0) { fprintf(stderr, "pala snapshot: give --frame or --time, not both\n"); return PALA_ERR_INPUT; }
    pala_traj t;
    int rc = pala_traj_open(&t, run, stderr);
    if (rc) { pala_traj_close(&t); return rc; }
    int st;
    while ((st = pala_traj_next(&t, stderr)) == 1) {
        if (frame >= 0 && t.frames - 1 == frame) break;
        if (tsel >= 0 && t.time >= tsel) break;
    }
    if (st < 0 || t.frames == 0 || (frame >= 0 && t.frames - 1 != frame)) {
        if (st >= 0 && t.frames == 0) fprintf(stderr, "pala snapshot: %s holds no frame yet: nothing to draw\n", t.path);
        else if (st >= 0) fprintf(stderr, "pala snapshot: %s has %ld frame%s (0 to %ld); no frame %ld\n", t.path, t.frames, t.frames == 1 ? "" : "s", t.frames - 1, frame);
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    long fno = t.frames - 1;
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
    for (int s = 0; s <= nsh; s++) {
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
    double margin = 24, foot = 44, legend = 150;
    double sc = (size - 2 * margin - legend) / (umax - umin);
    if ((vmax - vmin) * sc > 1.2 * size) sc = 1.2 * size / (vmax - vmin);   /* a tall container: at most 1.2 x as high as wide */
    double Hpx = (vmax - vmin) * sc + 2 * margin + foot;
    if (Hpx < 260) Hpx = 260;
#define PX(p) (margin + (pala_vdot((p), U) - umin) * sc)
#define PY(p) (margin + (vmax - pala_vdot((p), V)) * sc)
    /* the discs */
    disc *d = malloc(sizeof *d * (size_t)(t.npeb > 0 ? t.npeb : 1));
    if (!d) { fprintf(stderr, "pala snapshot: out of memory\n"); pala_traj_close(&t); return PALA_ERR_IO; }
    /* a colour per grain-type name: the shapes of a random type share their name and colour */
    int *tcol = pala_traj_name_colours(&t);
    double vmaxs = 0;
    for (int k = 0; k < t.n; k++) vmaxs = fmax(vmaxs, sqrt(pala_vdot(t.v[k], t.v[k])));
    long nd = 0;
    for (int k = 0; k < t.n; k++) {
        int tp = t.tid[k];
        double sp = sqrt(pala_vdot(t.v[k], t.v[k]));
        double q = vmaxs > 0 ? sp / vmaxs : 0;   /* NaN for an infinite or NaN speed: the first colour */
        int col = !strcmp(colour, "speed") ? (q > 0 ? (int)lround(15 * fmin(q, 1)) : 0) : tcol[tp] % 10;
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
    int ncol = !strcmp(colour, "speed") ? 16 : 10;
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
    fprintf(f, "</defs>\n");
    /* the walls' shapes, before the grains; a guide (an outline of a wall) dashed */
    fprintf(f, "<g fill=\"none\" stroke=\"#555\" stroke-width=\"1.3\">\n");
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
        for (long i = 0; i < nd; i++)
            fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"url(#g%d)\"/>\n", d[i].x, d[i].y, d[i].R, d[i].col);
        fprintf(f, "</g>\n");
    } else {
        /* wire frames, grain by grain (lines need no depth order) */
        fprintf(f, "<g stroke-width=\"1.1\" stroke-linecap=\"round\" fill=\"none\">\n");
        for (int k = 0; k < t.n; k++) {
            int tp = t.tid[k];
            double sp = sqrt(pala_vdot(t.v[k], t.v[k]));
            if (!strcmp(colour, "speed")) speed_colour(vmaxs > 0 ? sp / vmaxs : 0, cs, sizeof cs);
            else snprintf(cs, sizeof cs, "%s", pala_svg_colour(tcol[tp]));
            fprintf(f, "<g stroke=\"%s\">", cs);
            pala_vec3 x = t.x[k];
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
    /* the label and the legend */
    double lx = size - legend + 8;
    fprintf(f, "<g fill=\"#222\">\n<text x=\"%.0f\" y=\"%.0f\">t = %.6g s  \u00b7  step %ld  \u00b7  frame %ld  \u00b7  view %s  \u00b7  %s</text>\n",
            margin, Hpx - 16, t.time, t.step, fno, t.dim == 2 ? "plane z = 0" : view, style);
    if (!strcmp(colour, "speed")) {
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">speed (m/s)</text>\n", lx, margin + 10);
        for (int i = 0; i < 16; i++) {
            speed_colour(1 - i / 15.0, cs, sizeof cs);
            fprintf(f, "<rect x=\"%.0f\" y=\"%.0f\" width=\"18\" height=\"10\" fill=\"%s\"/>\n", lx, margin + 20 + 10 * i, cs);
        }
        fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">%.3g</text>\n<text x=\"%.0f\" y=\"%.0f\">0</text>\n", lx + 24, margin + 30, vmaxs, lx + 24, margin + 180);
    } else {
        int nnames = 0;
        for (int i = 0; i < t.ntmpl; i++) {   /* one entry per name: its colour is new at its first template */
            int c = tcol[i], first = c == nnames;
            nnames += first;
            if (!first || c >= 12) continue;
            fprintf(f, "<circle cx=\"%.0f\" cy=\"%.0f\" r=\"7\" fill=\"url(#g%d)\" stroke=\"#222\" stroke-width=\"0.4\"/>\n", lx + 7, margin + 10 + 22 * c, c % 10);
            fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">", lx + 22, margin + 15 + 22 * c);
            pala_svg_text(f, t.tname[i]);
            fprintf(f, "</text>\n");
        }
        if (nnames > 12) fprintf(f, "<text x=\"%.0f\" y=\"%.0f\">... %d types</text>\n", lx, margin + 15 + 22 * 12, nnames);
    }
    fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" fill=\"#666\">%d grains, %ld spheres</text>\n", lx, Hpx - 16, t.n, t.npeb);
    fprintf(f, "</g>\n</svg>\n");
#undef PX
#undef PY
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    free(d);
    free(tcol);
    if (bad) { fprintf(stderr, "pala snapshot: writing %s failed (disk full?)\n", path); pala_traj_close(&t); return PALA_ERR_IO; }
    printf("pala snapshot: frame %ld (step %ld, t = %.6g s), %d grains -> %s\n", fno, t.step, t.time, t.n, path);
    pala_traj_close(&t);
    return PALA_OK;
}

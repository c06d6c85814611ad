/* box.c: the container "box": six flat walls on the faces of an axis-aligned box
 * (w->box_lo, w->box_hi; in 2D the four walls x and y).  Faces are numbered
 * xlo, xhi, ylo, yhi, zlo, zhi. */
#include "container.h"
#include "grain.h"
#include <math.h>
#include <stdio.h>

static int box_axes(const pala_world *w) { return w->dim == 2 ? 2 : 3; }

static int box_clear(const pala_world *w, pala_vec3 x, double R)
{
    int in = (x.x - R > w->box_lo.x) & (w->box_hi.x - x.x > R) & (x.y - R > w->box_lo.y) & (w->box_hi.y - x.y > R);
    return in & (w->dim == 2 || ((x.z - R > w->box_lo.z) & (w->box_hi.z - x.z > R)));
}

static int box_inside(const pala_world *w, pala_vec3 x, double R)
{
    if (x.x - R < w->box_lo.x || x.x + R > w->box_hi.x || x.y - R < w->box_lo.y || x.y + R > w->box_hi.y) return 0;
    return !(w->dim == 3 && (x.z - R < w->box_lo.z || x.z + R > w->box_hi.z));
}

static void box_bounds(const pala_world *w, double R, double lo[3], double hi[3])
{
    const double l[3] = {w->box_lo.x, w->box_lo.y, w->box_lo.z}, u[3] = {w->box_hi.x, w->box_hi.y, w->box_hi.z};
    for (int a = 0; a < 3; a++) { lo[a] = l[a] + R; hi[a] = u[a] - R; }
}

static double box_cut(const pala_world *w, pala_vec3 c, double a)
{
    double d = fmax(fmax(w->box_lo.x - (c.x - a), (c.x + a) - w->box_hi.x), fmax(w->box_lo.y - (c.y - a), (c.y + a) - w->box_hi.y));
    if (w->dim == 3) d = fmax(d, fmax(w->box_lo.z - (c.z - a), (c.z + a) - w->box_hi.z));
    return d;
}

/* A flat wall is a sphere of infinite radius: r~ = H(a, inf) = 2a (docs/physics.md). */
static int box_grain_touch(const pala_world *w, int k, pala_wall_touch *out)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    double R = t->bound_radius;
    pala_vec3 x = w->x[k];
    if (box_clear(w, x, R)) return 0;
    int m = 0;
    int p0 = pala_grain_peb0(w, k);
    const double *rad = w->shape_r + t->comp0;
    const double xs[3] = {x.x, x.y, x.z};
    const double lo[3] = {w->box_lo.x, w->box_lo.y, w->box_lo.z}, hi[3] = {w->box_hi.x, w->box_hi.y, w->box_hi.z};
    for (int ax = 0; ax < box_axes(w); ax++) {
        if (xs[ax] - R > lo[ax] && hi[ax] - xs[ax] > R) continue;   /* bounding sphere clear */
        for (int i = 0; i < t->ncomp; i++) {
            pala_vec3 pc = w->pc ? w->pc[p0 + i] : x;
            const double c[3] = {pc.x, pc.y, pc.z};
            for (int side = 0; side < 2; side++) {
                double dist = side ? hi[ax] - c[ax] : c[ax] - lo[ax];
                double ov = rad[i] - dist;
                if (ov <= 0) continue;
                double nn[3] = {0, 0, 0};
                nn[ax] = side ? -1 : 1;
                out[m++] = (pala_wall_touch){pc, pala_v(nn[0], nn[1], nn[2]), rad[i], ov, 2 * rad[i], 2 * ax + side, k, p0 + i, (unsigned)(2 * ax + side)};
            }
        }
    }
    return m;
}

static int box_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    return pala_touch_grains(w, cand, n, out, cap, used, box_grain_touch);
}

static pala_vec3 box_lowest(const pala_world *w, pala_vec3 g)
{
    return pala_v(g.x > 0 ? w->box_hi.x : g.x < 0 ? w->box_lo.x : 0, g.y > 0 ? w->box_hi.y : g.y < 0 ? w->box_lo.y : 0,
                  g.z > 0 ? w->box_hi.z : g.z < 0 ? w->box_lo.z : 0);
}

/* the normal momentum each face received, positive outward; the area of a face (in 2D
 * its length: the box has no z extent) */
static int box_columns(const pala_world *w, const char **names, double *values, double *area, int max)
{
    static const char *const nm[6] = {"P_xlo", "P_xhi", "P_ylo", "P_yhi", "P_zlo", "P_zhi"};
    const double sgn[6] = {-1, 1, -1, 1, -1, 1};
    const double L[3] = {w->box_hi.x - w->box_lo.x, w->box_hi.y - w->box_lo.y, w->dim == 2 ? 1.0 : w->box_hi.z - w->box_lo.z};
    int n = 0;
    for (int i = 0; i < 2 * box_axes(w) && n < max; i++, n++) {
        pala_vec3 p = w->wall_impulse[i];
        names[n] = nm[i];
        values[n] = (i < 2 ? p.x : i < 4 ? p.y : p.z) * sgn[i] + 0.0;   /* + 0.0: no "-0" for unloaded faces */
        if (area) area[n] = L[0] * L[1] * L[2] / L[i / 2];
    }
    return n;
}

static const char *box_check(const pala_world *w, char *buf, size_t len)
{
    const double lo[3] = {w->box_lo.x, w->box_lo.y, w->box_lo.z}, hi[3] = {w->box_hi.x, w->box_hi.y, w->box_hi.z};
    for (int a = 0; a < box_axes(w); a++)
        if (!(isfinite(lo[a]) && isfinite(hi[a]) && hi[a] > lo[a])) {
            snprintf(buf, len, "box: face %c of the box must be finite and box_hi > box_lo (got %g .. %g)", "xyz"[a], lo[a], hi[a]);
            return buf;
        }
    return NULL;
}

const pala_container_kind pala_container_box = {"box", box_clear, box_inside, box_bounds, box_cut, box_touch, box_lowest, box_columns, box_check};

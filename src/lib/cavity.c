/* cavity.c: the container "cavity": the inside of a sphere (a circle in 2D) of radius
 * w->cav_R about w->cav_c.  Its one face takes the whole wall impulse. */
#include "container.h"
#include "grain.h"
#include <math.h>
#include <stdio.h>

static int cavity_clear(const pala_world *w, pala_vec3 x, double R) { return pala_vnorm(pala_vsub(x, w->cav_c)) + R < w->cav_R; }

static int cavity_inside(const pala_world *w, pala_vec3 x, double R) { return !(pala_vnorm(pala_vsub(x, w->cav_c)) + R > w->cav_R); }

static void cavity_bounds(const pala_world *w, double R, double lo[3], double hi[3])
{
    const double c[3] = {w->cav_c.x, w->cav_c.y, w->cav_c.z};
    for (int a = 0; a < 3; a++) { lo[a] = c[a] - (w->cav_R - R); hi[a] = c[a] + (w->cav_R - R); }
}

static double cavity_cut(const pala_world *w, pala_vec3 c, double a) { return pala_vnorm(pala_vsub(c, w->cav_c)) + a - w->cav_R; }

/* The wall is a sphere of radius -Rc (concave): r~ = H(a, -Rc) = 2 a Rc / (Rc - a)
 * (docs/physics.md, "Walls"). */
static int cavity_grain_touch(const pala_world *w, int k, pala_wall_touch *out)
{
    const pala_template *t = &w->tmpl[w->tid[k]];
    if (cavity_clear(w, w->x[k], t->bound_radius)) return 0;
    int m = 0;
    int p0 = pala_grain_peb0(w, k);
    const double *rad = w->shape_r + t->comp0;
    double Rc = w->cav_R;
    for (int i = 0; i < t->ncomp; i++) {
        pala_vec3 pc = w->pc ? w->pc[p0 + i] : w->x[k];
        pala_vec3 d = pala_vsub(pc, w->cav_c);
        double q = pala_vnorm(d), ov = q + rad[i] - Rc;
        if (ov <= 0 || q == 0) continue;
        double rt = 2 * rad[i] * Rc / (Rc - rad[i]);
        out[m++] = (pala_wall_touch){pc, pala_vscale(-1.0 / q, d), rad[i], ov, rt, 0, k, p0 + i, 0};
    }
    return m;
}

static int cavity_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    return pala_touch_grains(w, cand, n, out, cap, used, cavity_grain_touch);
}

static pala_vec3 cavity_lowest(const pala_world *w, pala_vec3 g) { return pala_vaxpy(w->cav_c, w->cav_R / pala_vnorm(g), g); }

/* the momentum the wall received, as a vector, then its outward radial part, received on
 * the whole wall: 4 pi R^2 (in 2D the circle's length 2 pi R) */
static int cavity_columns(const pala_world *w, const char **names, double *values, double *area, int max)
{
    static const char *const nm[4] = {"P_x", "P_y", "P_z", "P_r"};
    pala_vec3 p = w->wall_impulse[0];
    const double v[4] = {p.x, p.y, p.z, w->wall_radial + 0.0};
    const double R = w->cav_R, a[4] = {0, 0, 0, w->dim == 2 ? 2 * PALA_PI * R : 4 * PALA_PI * R * R};
    int n = 0;
    for (; n < 4 && n < max; n++) {
        names[n] = nm[n];
        values[n] = v[n];
        if (area) area[n] = a[n];
    }
    return n;
}

static const char *cavity_check(const pala_world *w, char *buf, size_t len)
{
    if (!(w->cav_R > 0 && isfinite(w->cav_R)) || !isfinite(pala_vnorm2(w->cav_c))) {
        snprintf(buf, len, "cavity: cav_R must be finite and > 0 and cav_c finite (got cav_R = %g)", w->cav_R);
        return buf;
    }
    return NULL;
}

const pala_container_kind pala_container_cavity = {"cavity", cavity_clear, cavity_inside, cavity_bounds, cavity_cut, cavity_touch, cavity_lowest, cavity_columns, cavity_check};

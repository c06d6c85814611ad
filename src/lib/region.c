/* region.c: the geometry of regions (region.h): inside, bounds, uniform samples, extent
 * along a direction, and the checks of their parameters. */
#include "region.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

static const char *const words[] = {
    [PALA_REGION_CONTAINER] = "container", [PALA_REGION_BOX] = "box", [PALA_REGION_SLAB] = "slab",
    [PALA_REGION_CYLINDER] = "cylinder", [PALA_REGION_LINE] = "line", [PALA_REGION_PLANE] = "plane"};
enum { NKINDS = sizeof words / sizeof words[0] };

const char *pala_region_word(int kind) { return kind >= 0 && kind < NKINDS ? words[kind] : "?"; }

static pala_vec3 unit(pala_vec3 a)
{
    double l = pala_vnorm(a);
    return l > 0 ? pala_vscale(1 / l, a) : a;
}

/* Two unit vectors u, v such that (u, v, a) is right-handed and orthonormal (a unit). */
static void across(pala_vec3 a, pala_vec3 *u, pala_vec3 *v)
{
    pala_vec3 e = fabs(a.x) < 0.9 ? pala_v(1, 0, 0) : pala_v(0, 1, 0);
    *u = unit(pala_vcross(a, e));
    *v = pala_vcross(a, *u);
}

int pala_region_inside(const pala_region *r, int dim, pala_vec3 x)
{
    switch (r->kind) {
    case PALA_REGION_BOX: {
        const double *b = r->box;
        if (x.x < b[0] || x.x > b[1] || x.y < b[2] || x.y > b[3]) return 0;
        return dim == 2 || (x.z >= b[4] && x.z <= b[5]);
    }
    case PALA_REGION_CYLINDER: {
        pala_vec3 d = pala_vsub(x, r->c);
        if (dim == 2) return d.x * d.x + d.y * d.y <= r->radius * r->radius;
        pala_vec3 a = unit(r->a);
        double s = pala_vdot(d, a);
        return fabs(s) <= 0.5 * r->length && pala_vnorm2(pala_vaxpy(d, -s, a)) <= r->radius * r->radius;
    }
    case PALA_REGION_PLANE: return pala_vdot(pala_vsub(x, r->c), unit(r->a)) >= 0;
    case PALA_REGION_LINE: {
        pala_vec3 s = pala_vsub(r->e, r->c), d = pala_vsub(x, r->c);
        double l2 = pala_vnorm2(s), f = l2 > 0 ? fmin(1, fmax(0, pala_vdot(d, s) / l2)) : 0;
        return pala_vnorm(pala_vaxpy(d, -f, s)) <= 1e-12 * sqrt(l2);
    }
    default: return 1;
    }
}

void pala_region_bounds(const pala_region *r, int dim, double lo[3], double hi[3])
{
    for (int i = 0; i < 3; i++) { lo[i] = -HUGE_VAL; hi[i] = HUGE_VAL; }
    const double c[3] = {r->c.x, r->c.y, r->c.z}, e[3] = {r->e.x, r->e.y, r->e.z};
    pala_vec3 au = unit(r->a);
    const double a[3] = {au.x, au.y, au.z};
    switch (r->kind) {
    case PALA_REGION_BOX:
        for (int i = 0; i < 3; i++) { lo[i] = r->box[2 * i]; hi[i] = r->box[2 * i + 1]; }
        break;
    case PALA_REGION_CYLINDER:
        for (int i = 0; i < 3; i++) {
            /* the ends' discs: half the length along the axis, the radius across it */
            double h = dim == 2 ? r->radius : 0.5 * r->length * fabs(a[i]) + r->radius * sqrt(fmax(0, 1 - a[i] * a[i]));
            lo[i] = c[i] - h;
            hi[i] = c[i] + h;
        }
        break;
    case PALA_REGION_LINE:
        for (int i = 0; i < 3; i++) { lo[i] = fmin(c[i], e[i]); hi[i] = fmax(c[i], e[i]); }
        break;
    case PALA_REGION_PLANE:   /* bounded on one side when its normal is an axis */
        for (int i = 0; i < 3; i++)
            if (fabs(a[i]) == 1) { if (a[i] > 0) lo[i] = c[i]; else hi[i] = c[i]; }
        break;
    default: break;
    }
    if (dim == 2) lo[2] = hi[2] = 0;
}

pala_vec3 pala_region_sample(const pala_region *r, int dim, pala_rng *g)
{
    /* one draw per statement: the order of the arguments of a call is open in C */
    if (r->kind == PALA_REGION_CYLINDER) {
        double q = r->radius * sqrt(pala_rng_uniform(g));
        double phi = 2 * PALA_PI * pala_rng_uniform(g);
        if (dim == 2) return pala_v(r->c.x + q * cos(phi), r->c.y + q * sin(phi), 0);
        double s = r->length * (pala_rng_uniform(g) - 0.5);
        pala_vec3 a = unit(r->a), u, v;
        across(a, &u, &v);
        return pala_vadd(r->c, pala_vadd(pala_vscale(s, a), pala_vadd(pala_vscale(q * cos(phi), u), pala_vscale(q * sin(phi), v))));
    }
    if (r->kind == PALA_REGION_LINE) {
        double f = pala_rng_uniform(g);
        pala_vec3 x = pala_vaxpy(r->c, f, pala_vsub(r->e, r->c));
        if (dim == 2) x.z = 0;
        return x;
    }
    const double *b = r->box;   /* a box */
    double x = b[0] + (b[1] - b[0]) * pala_rng_uniform(g);
    double y = b[2] + (b[3] - b[2]) * pala_rng_uniform(g);
    double z = dim == 2 ? 0 : b[4] + (b[5] - b[4]) * pala_rng_uniform(g);
    return pala_v(x, y, z);
}

double pala_region_extent(const pala_region *r, int dim, pala_vec3 u)
{
    switch (r->kind) {
    case PALA_REGION_BOX: {
        double h = fabs(u.x) * (r->box[1] - r->box[0]) + fabs(u.y) * (r->box[3] - r->box[2]);
        return dim == 2 ? h : h + fabs(u.z) * (r->box[5] - r->box[4]);
    }
    case PALA_REGION_CYLINDER: {
        if (dim == 2) return 2 * r->radius;
        double ca = fabs(pala_vdot(u, unit(r->a)));
        return r->length * ca + 2 * r->radius * sqrt(fmax(0, 1 - ca * ca));
    }
    case PALA_REGION_LINE: return fabs(pala_vdot(u, pala_vsub(r->e, r->c)));
    default: return HUGE_VAL;
    }
}

static int finite3(pala_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

#define REFUSE(k, ...) (snprintf(buf, len, __VA_ARGS__), *key = (k), buf)

const char *pala_region_check(const pala_region *r, int dim, const char *kinds, char *buf, size_t len, const char **key)
{
    const char *w = pala_region_word(r->kind), *p = kinds;
    size_t n = strlen(w);
    int ok = 0;
    while (p && *p && !ok) {
        ok = !strncmp(p, w, n) && (p[n] == '|' || !p[n]);
        p = strchr(p, '|');
        if (p) p++;
    }
    if (!ok) return REFUSE("region", "'region = %s': expected one of %s here", w, kinds);
    switch (r->kind) {
    case PALA_REGION_BOX:
        for (int a = 0; a < (dim == 2 ? 2 : 3); a++)
            if (!(isfinite(r->box[2 * a]) && isfinite(r->box[2 * a + 1]) && r->box[2 * a + 1] > r->box[2 * a]))
                return REFUSE("region_box", "'region_box': %chi must exceed %clo (give xlo xhi ylo yhi zlo zhi; got %g .. %g)", "xyz"[a], "xyz"[a],
                              r->box[2 * a], r->box[2 * a + 1]);
        return NULL;
    case PALA_REGION_CYLINDER:
        if (!finite3(r->c) || (dim == 2 && r->c.z != 0))
            return REFUSE("region_centre", "'region_centre': give the finite centre x y z of the cylinder%s", dim == 2 ? " (in 2D the disc's, z = 0)" : "");
        if (!(r->radius > 0 && isfinite(r->radius))) return REFUSE("region_radius", "'region_radius = %g': must be positive (m)", r->radius);
        if (dim == 2) return NULL;
        if (!(r->length > 0 && isfinite(r->length))) return REFUSE("region_length", "'region_length = %g': must be positive (m), the cylinder's length along its axis", r->length);
        if (!pala_vdirection(r->a)) return REFUSE("region_axis", "'region_axis': give the direction of the cylinder's axis, finite and not zero, its length squared a number (e.g. 0 0 1)");
        return NULL;
    case PALA_REGION_LINE:
        if (!finite3(r->c) || !finite3(r->e) || !pala_vdirection(pala_vsub(r->e, r->c)))
            return REFUSE("region_line", "'region_line': give the two different ends x1 y1 z1 x2 y2 z2 of the line");
        if (dim == 2 && (r->c.z != 0 || r->e.z != 0)) return REFUSE("region_line", "'region_line': in 2D both ends need z = 0");
        return NULL;
    case PALA_REGION_PLANE:
        if (!finite3(r->c) || (dim == 2 && r->c.z != 0))
            return REFUSE("region_point", "'region_point': give a finite point x y z of the plane%s", dim == 2 ? " (in 2D with z = 0)" : "");
        if (!pala_vdirection(r->a) || (dim == 2 && r->a.z != 0))
            return REFUSE("region_normal", "'region_normal': give the plane's normal, pointing into the region, finite and not zero, its length squared a number%s (e.g. 0 0 -1: below the plane)",
                          dim == 2 ? " and in the plane (z = 0)" : "");
        return NULL;
    default: return NULL;
    }
}

/* cavity.c: the container "cavity": the inside of a sphere (a circle in 2D).  Its one face
 * takes the whole wall impulse. */
#include "container.h"
#include "grain.h"
#include "keydef.h"
#include <math.h>
#include <stdio.h>

typedef struct cavity_par {
    double R;       /* radius, m */
    pala_vec3 c;    /* centre, m */
} cavity_par;

/* ---- keys and checks ---- */
static const pala_keydef keys[] = {
    PALA_WALL_KEY(cavity_radius, REAL, NULL, "m", 0, HUGE_VAL, PALA_AT(cavity_par, R),
                  .doc = "radius of the spherical cavity (a circle in 2D)"),
    PALA_WALL_KEY(cavity_centre, REALS, "0 0 0", "m", -HUGE_VAL, HUGE_VAL, PALA_AT(cavity_par, c), .nmin = 3, .nmax = 3,
                  .doc = "centre of the spherical cavity"),
};

static const char *cavity_check(const pala_world *w, const pala_wall *wl, char *buf, size_t len, const char **key)
{
    const cavity_par *p = wl->par;
    if (!(p->R > 0 && isfinite(p->R))) return pala_wall_refuse(buf, len, key, "cavity_radius", "'cavity_radius = %g': the cavity needs a finite radius > 0", p->R);
    if (!isfinite(pala_vnorm2(p->c))) return pala_wall_refuse(buf, len, key, "cavity_centre", "'cavity_centre': give a finite centre");
    if (w->dim == 2 && p->c.z != 0) return pala_wall_refuse(buf, len, key, "cavity_centre", "in 2D the cavity centre needs z = 0");
    return NULL;
}

int pala_world_set_cavity(pala_world *w, pala_vec3 c, double R, int mat) { return pala_walls_set(w, "cavity", mat, &(cavity_par){R, c}); }

/* ---- geometry ---- */
static int cavity_clear(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    (void)w;
    const cavity_par *p = wl->par;
    return pala_vnorm(pala_vsub(x, p->c)) + R < p->R;
}

static int cavity_inside(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    (void)w;
    const cavity_par *p = wl->par;
    return !(pala_vnorm(pala_vsub(x, p->c)) + R > p->R);
}

static void cavity_bounds(const pala_world *w, const pala_wall *wl, double R, double lo[3], double hi[3])
{
    (void)w;
    const cavity_par *p = wl->par;
    const double c[3] = {p->c.x, p->c.y, p->c.z};
    for (int a = 0; a < 3; a++) { lo[a] = c[a] - (p->R - R); hi[a] = c[a] + (p->R - R); }
}

static double cavity_cut(const pala_world *w, const pala_wall *wl, pala_vec3 c, double a)
{
    (void)w;
    const cavity_par *p = wl->par;
    return pala_vnorm(pala_vsub(c, p->c)) + a - p->R;
}

static int cavity_room(const pala_world *w, const pala_wall *wl, double a)
{
    (void)w; (void)wl; (void)a;
    return 1;
}

/* The wall is a sphere of radius -Rc (concave): r~ = H(a, -Rc) = 2 a Rc / (Rc - a)
 * (docs/physics.md, "Walls").  It does not move: vs = 0. */
static int cavity_grain_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out)
{
    const cavity_par *cp = wl->par;
    const pala_template *t = &w->tmpl[w->tid[k]];
    if (cavity_clear(w, wl, w->x[k], t->bound_radius)) return 0;
    int m = 0;
    int p0 = pala_grain_peb0(w, k);
    const double *rad = w->shape_r + t->comp0;
    double Rc = cp->R;
    for (int i = 0; i < t->ncomp; i++) {
        pala_vec3 pc = w->pc ? w->pc[p0 + i] : w->x[k];
        pala_vec3 d = pala_vsub(pc, cp->c);
        double q = pala_vnorm(d), ov = q + rad[i] - Rc;
        if (ov <= 0 || q == 0) continue;
        double rt = 2 * rad[i] * Rc / (Rc - rad[i]);
        out[m++] = (pala_wall_touch){.c = pc, .n = pala_vscale(-1.0 / q, d), .vs = pala_v(0, 0, 0), .a = rad[i], .ov = ov, .rt = rt,
                                     .face = wl->face0, .k = k, .p = p0 + i, .id = (unsigned)wl->face0};
    }
    return m;
}

static int cavity_touch(const pala_world *w, const pala_wall *wl, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    return pala_touch_grains(w, wl, cand, n, out, cap, used, cavity_room, cavity_grain_touch);
}

static pala_vec3 cavity_lowest(const pala_world *w, const pala_wall *wl, pala_vec3 g)
{
    (void)w;
    const cavity_par *p = wl->par;
    return pala_vaxpy(p->c, p->R / pala_vnorm(g), g);
}

/* the momentum the wall received, as a vector, then its outward radial part, received on
 * the whole wall: 4 pi R^2 (in 2D the circle's length 2 pi R) */
static int cavity_columns(const pala_world *w, const pala_wall *wl, const char **names, double *values, double *area, int max)
{
    static const char *const nm[4] = {"P_x", "P_y", "P_z", "P_r"};
    const cavity_par *cp = wl->par;
    pala_vec3 p = w->wall_impulse[wl->face0];
    const double v[4] = {p.x, p.y, p.z, w->wall_radial + 0.0};
    const double R = cp->R, a[4] = {0, 0, 0, w->dim == 2 ? 2 * PALA_PI * R : 4 * PALA_PI * R * R};
    int n = 0;
    for (; n < 4 && n < max; n++) {
        names[n] = nm[n];
        values[n] = v[n];
        if (area) area[n] = a[n];
    }
    return n;
}

/* ---- serialisation and presentation ---- */
/* "cx cy cz R" */
static int cavity_line(const pala_world *w, const pala_wall *wl, char *buf, size_t len)
{
    (void)w;
    const cavity_par *p = wl->par;
    return snprintf(buf, len, "%.17g %.17g %.17g %.17g", p->c.x, p->c.y, p->c.z, p->R);
}

static int cavity_parse(const pala_world *w, pala_wall *wl, const char *args)
{
    (void)w;
    double x[4];
    if (pala_wall_numbers(args, x, 4)) return -1;
    *(cavity_par *)wl->par = (cavity_par){x[3], pala_v(x[0], x[1], x[2])};
    return 0;
}

static int cavity_draw(const pala_world *w, const pala_wall *wl, pala_draw *out, int max)
{
    (void)w;
    const cavity_par *p = wl->par;
    if (max < 1) return 0;
    out[0] = (pala_draw){.shape = PALA_DRAW_SPHERE, .p = {p->c}, .r = p->R};
    return 1;
}

const pala_wall_kind pala_wall_cavity = {
    .name = "cavity", .what = "the cavity wall", .container = 1, .nfaces = 1, .size = sizeof(cavity_par),
    .keys = keys, .nkeys = sizeof keys / sizeof keys[0], .after = "container",
    .check = cavity_check, .clear = cavity_clear, .inside = cavity_inside, .bounds = cavity_bounds, .cut = cavity_cut,
    .room = cavity_room, .touch = cavity_touch, .lowest = cavity_lowest, .columns = cavity_columns, .line = cavity_line,
    .parse = cavity_parse, .draw = cavity_draw,
};

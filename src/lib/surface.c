/* surface.c: the wall kind "surface", the walls of [wall NAME] sections (surface.h):
 * planes, rectangles, discs, cylinders and cones, in 2D lines, segments and circles, each
 * fixed or moving.
 *
 * Geometry is done in the wall's own frame, where it is as written: a component's centre x
 * is taken there by the inverse of the wall's pose, x_b = c + R^T (x - c - d), the touches
 * are found against the shape as written, and their normals are turned back by R.  The
 * wall's surface velocity at the contact point X is v + Om x (X - c - d) (docs/physics.md,
 * "Walls that move"), which the contact kernel subtracts from the grain's (eq. 54).
 *
 * A plane is a half-space: the grains stay on the side its normal points to, however deep
 * they press.  The other shapes are thin sheets that grains may touch from either side:
 * a rectangle, and the surfaces of revolution, whose meridian (the half-plane rho >= 0,
 * z along the axis) is a polyline: a disc (0,0)-(R,0); a cylinder (R,0)-(R,L); a cone
 * (R,0)-(R2,L); caps add (0,0) before and (0,L) after.  A sphere touches a sheet where its
 * centre is closer than its radius: the closest point of a segment (a face touch) or of
 * a vertex (a rim, where the segments' closest points both fall beyond it: each rim is
 * touched once, never once per segment).  Every touch takes the flat law, r~ = 2a
 * (docs/physics.md, "Walls"). */
#include "surface.h"
#include "container.h"
#include "grain.h"
#include "keydef.h"
#include "alloc.h"
#include "mesh.h"
#include "neighbor.h"
#include "work.h"
#include <stdlib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdint.h>


static const char *const shape_names[] = {"plane", "rectangle", "disc", "cylinder", "cone", "line", "segment", "circle", "mesh"};

/* A mesh read from its file, shared by the copies of its wall (pala_world_copy_walls). */
typedef struct pala_meshref { pala_mesh *m; int refs; double area; } pala_meshref;
static const pala_mesh *mesh_of(const pala_surface *s) { return s->mr ? s->mr->m : NULL; }
enum { NSEG = 3, NVERT = 4, SECTORS = 16, NHIT = PALA_MESH_ROOM > 2 * (2 * NSEG + 1) ? PALA_MESH_ROOM : 2 * (2 * NSEG + 1) };
_Static_assert(sizeof ((pala_surface *)0)->mrho == NVERT * sizeof(double) && sizeof ((pala_surface *)0)->mden == NSEG * sizeof(double),
               "pala_surface keeps a meridian of NVERT vertices (surface.h)");

static int planar(int sh) { return sh == PALA_SURF_PLANE || sh == PALA_SURF_LINE; }
/* a cylinder (a circle) whose servo moves its radius */
static int radial(const pala_surface *s) { return (s->shape == PALA_SURF_CYLINDER || s->shape == PALA_SURF_CIRCLE) && s->servo_pressure > 0; }
static int flat_sheet(int sh) { return sh == PALA_SURF_RECTANGLE || sh == PALA_SURF_SEGMENT; }
static int moves(const pala_surface *s)
{
    return pala_vnorm2(s->velocity) > 0 || pala_vnorm2(s->omega) > 0 || (pala_vnorm2(s->amplitude) > 0 && s->frequency > 0) || s->servo_pressure > 0;
}

/* ---- the pose (docs/physics.md, "Walls that move") ---------------------------------- */
/* R = exp(phi [e]x), Rodrigues' formula */
static void rotation(pala_vec3 e, double phi, double R[3][3])
{
    double c = cos(phi), s = sin(phi), k = 1 - c;
    const double a[3] = {e.x, e.y, e.z};
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) R[i][j] = k * a[i] * a[j] + (i == j ? c : 0);
    R[0][1] -= s * a[2]; R[0][2] += s * a[1];
    R[1][0] += s * a[2]; R[1][2] -= s * a[0];
    R[2][0] -= s * a[1]; R[2][1] += s * a[0];
}

static pala_vec3 mul(const double R[3][3], pala_vec3 x) { return pala_v(R[0][0] * x.x + R[0][1] * x.y + R[0][2] * x.z, R[1][0] * x.x + R[1][1] * x.y + R[1][2] * x.z, R[2][0] * x.x + R[2][1] * x.y + R[2][2] * x.z); }
static pala_vec3 mul_t(const double R[3][3], pala_vec3 x) { return pala_v(R[0][0] * x.x + R[1][0] * x.y + R[2][0] * x.z, R[0][1] * x.x + R[1][1] * x.y + R[2][1] * x.z, R[0][2] * x.x + R[1][2] * x.y + R[2][2] * x.z); }

/* The pose at time t: a rotation about the centre at omega, reached linearly over spin_up
 * (angle Om t^2 / (2 T) until T, then Om (t - T/2)); a translation V t + A sin(2 pi f t),
 * and the servo's displacement along the normal. */
pala_pose pala_surface_pose(const pala_surface *s, double t)
{
    pala_pose p;
    memset(&p, 0, sizeof p);
    p.c = s->centre_set ? s->centre : s->point;
    double W = pala_vnorm(s->omega), T = s->spin_up;
    p.R[0][0] = p.R[1][1] = p.R[2][2] = 1;
    if (W > 0) {
        pala_vec3 e = pala_vscale(1 / W, s->omega);
        double phi = T > 0 && t < T ? 0.5 * W * t * t / T : W * (t - 0.5 * T);
        rotation(e, phi, p.R);
        p.Om = T > 0 && t < T ? pala_vscale(t / T, s->omega) : s->omega;
        p.turned = 1;
    }
    double wt = 2 * PALA_PI * s->frequency;
    p.d = pala_vaxpy(pala_vscale(t, s->velocity), sin(wt * t), s->amplitude);
    p.v = pala_vaxpy(s->velocity, wt * cos(wt * t), s->amplitude);
    if (s->servo_pressure > 0) {   /* along the normal; a cylinder's radius towards its grains */
        double sv = s->servo[0] + s->servo[1] * (t - s->servo[2]), sgn = s->side == 1 ? -1 : 1;
        if (radial(s)) { p.grow = sgn * sv; p.growv = sgn * s->servo[1]; }
        else {
            p.d = pala_vaxpy(p.d, sv, s->n);
            p.v = pala_vaxpy(p.v, s->servo[1], s->n);
        }
    }
    return p;
}

static inline __attribute__((always_inline)) pala_vec3 to_body(const pala_pose *p, pala_vec3 x)
{
    pala_vec3 q = pala_vsub(pala_vsub(x, p->c), p->d);
    return pala_vadd(p->c, p->turned ? mul_t(p->R, q) : q);
}
static pala_vec3 to_world(const pala_pose *p, pala_vec3 xb)
{
    pala_vec3 q = pala_vsub(xb, p->c);
    return pala_vadd(pala_vadd(p->c, p->d), p->turned ? mul(p->R, q) : q);
}
static pala_vec3 turn(const pala_pose *p, pala_vec3 n) { return p->turned ? mul(p->R, n) : n; }

int pala_surfaces_moving(const pala_world *w)
{
    for (int i = 0; i < w->nwalls; i++)
        if (w->walls[i].kind == &pala_wall_surface && moves(w->walls[i].par)) return 1;
    return 0;
}

int pala_world_walls_move(const pala_world *w) { return pala_surfaces_moving(w); }

double pala_surfaces_speed(const pala_world *w) { return pala_surfaces_speed_of(w, NULL); }

double pala_surfaces_speed_of(const pala_world *w, const char **fastest)
{
    double vmax = 0;
    for (int i = 0; i < w->nsurf; i++) {
        const pala_surface *s = w->walls[w->surf0 + i].par;
        pala_vec3 c = s->centre_set ? s->centre : s->point;
        double reach = 0;   /* the farthest grain from the rotation centre */
        for (int k = 0; k < w->n && pala_vnorm2(s->omega) > 0; k++) reach = fmax(reach, pala_vnorm(pala_vsub(w->x[k], c)) + w->tmpl[w->tid[k]].bound_radius);
        double v = pala_vnorm(s->velocity) + 2 * PALA_PI * s->frequency * pala_vnorm(s->amplitude) + pala_vnorm(s->omega) * reach +
                   (s->servo_pressure > 0 ? s->servo_speed : 0);
        if (fastest && !(v <= vmax)) *fastest = s->name;   /* NaN and inf too */
        vmax = fmax(vmax, v);
    }
    return vmax;
}

static void set_meridian(pala_surface *s);

void pala_surfaces_move(pala_world *w, double t)
{
    for (int i = 0; i < w->nwalls; i++) {
        if (w->walls[i].kind != &pala_wall_surface) continue;
        pala_surface *s = w->walls[i].par;
        if (!moves(s)) continue;
        s->pose = pala_surface_pose(s, t);
        s->Rg = s->radius + s->pose.grow;
        set_meridian(s);
    }
}

/* ---- the shape in the wall's frame ---------------------------------------------------- */
/* One touch in the wall's frame: the distance from the wall, the unit normal from the
 * wall towards the centre, the feature (its state's key). */
typedef struct hit { double d; pala_vec3 n; int feat; } hit;

/* The meridian polyline of a surface of revolution: its vertices (rho, z); the count. */
static int meridian(const pala_surface *s, double rho[NVERT], double z[NVERT])
{
    int m = 0;
    double R2 = s->shape == PALA_SURF_CONE ? s->radius_end : s->Rg;
    if (s->shape == PALA_SURF_DISC) { rho[0] = 0; z[0] = 0; rho[1] = s->radius; z[1] = 0; return 2; }
    if (s->cap & PALA_SURF_CAP_START) { rho[m] = 0; z[m++] = 0; }
    rho[m] = s->Rg; z[m++] = 0;
    rho[m] = R2; z[m++] = s->L;
    if (s->cap & PALA_SURF_CAP_END) { rho[m] = 0; z[m++] = s->L; }
    return m;
}

/* The meridian of a finite surface of revolution as its radius is now, kept with the wall
 * (shape_hits reads it for every component near the wall), with each segment's box and
 * squared length. */
static void set_meridian(pala_surface *s)
{
    s->nmer = 0;
    if (planar(s->shape) || flat_sheet(s->shape) || s->shape == PALA_SURF_MESH || !isfinite(s->L)) return;
    s->nmer = meridian(s, s->mrho, s->mz);
    s->mext = 0;
    for (int i = 0; i < s->nmer; i++) s->mext = fmax(s->mext, fmax(fabs(s->mrho[i]), fabs(s->mz[i])));
    for (int i = 0; i + 1 < s->nmer; i++) {
        double dr = s->mrho[i + 1] - s->mrho[i], dz = s->mz[i + 1] - s->mz[i];
        s->mden[i] = dr * dr + dz * dz;
        s->mbox[i][0] = fmin(s->mrho[i], s->mrho[i + 1]); s->mbox[i][1] = fmax(s->mrho[i], s->mrho[i + 1]);
        s->mbox[i][2] = fmin(s->mz[i], s->mz[i + 1]); s->mbox[i][3] = fmax(s->mz[i], s->mz[i + 1]);
    }
}

/* A mesh's touches closer than a of a point xb (wall frame): of the faces fs[0 .. nf)
 * (pala_meshnear's) for a centre within `moved` of where they were gathered, or of all
 * (fs NULL); their number. */
static int mesh_hits(const pala_surface *s, const pala_mesh_nearface *fs, int nf, double moved, pala_vec3 xb, double a, hit *out)
{
    pala_vec3 q = pala_vsub(xb, s->point);   /* its own frame (mesh.c), at point */
    pala_mesh_hit h[PALA_MESH_ROOM];
    int n = !mesh_of(s) ? 0
          : fs      ? pala_mesh_touch_near(mesh_of(s), fs, nf, moved, q, a, h, PALA_MESH_ROOM)
                    : pala_mesh_touch(mesh_of(s), q, a, h, PALA_MESH_ROOM);
    for (int i = 0; i < n; i++) out[i] = (hit){h[i].d, h[i].n, (int)h[i].id};
    return n;
}

/* The touches closer than a of a point at z along the axis of a finite surface of revolution
 * and rho from it along er, in the meridian half-plane of side er (side 1) or of -er (side
 * -1, a constant: shape_hits' two calls are written for each), after the m in out already:
 * their number then.  A segment whose box in (rho, z) is farther than lim from the point
 * touches it neither on its face nor at its ends (shape_hits). */
static inline __attribute__((always_inline)) int meridian_side(const pala_surface *s, double z, double rho, pala_vec3 er, double a, double lim,
                                                               hit *out, int m, const int side)
{
    const double *R = s->mrho, *Z = s->mz;
    const int nv = s->nmer;
    double r = side * rho;
    pala_vec3 es = side > 0 ? er : pala_vneg(er);
    double tb = 0;   /* t of the segment before */
    for (int i = 0; i + 1 < nv; i++) {
        /* the closest point of segment i's line, at t along it; NaN for a segment far
         * from the centre: no touch on it, nor at its ends (as far) */
        const double *b = s->mbox[i];
        double ti = (double)NAN, tp = tb, pr, pz;
        if (!(z < b[2] - lim || z > b[3] + lim || r < b[0] - lim || r > b[1] + lim))
            ti = ((r - R[i]) * (R[i + 1] - R[i]) + (z - Z[i]) * (Z[i + 1] - Z[i])) / s->mden[i];
        tb = ti;
        int feat;
        if (ti >= 0 && ti <= 1) { pr = R[i] + ti * (R[i + 1] - R[i]); pz = Z[i] + ti * (Z[i + 1] - Z[i]); feat = 2 * i; }
        else if (ti < 0 && (i == 0 || tp > 1)) { pr = R[i]; pz = Z[i]; feat = 2 * i + 1; }   /* the rim at vertex i, once */
        else if (ti > 1 && i + 2 == nv) { pr = R[i + 1]; pz = Z[i + 1]; feat = 2 * i + 3; }
        else continue;
        if (side < 0 && !(pr > 0)) continue;
        double mr = r - pr, mz = z - pz, d = sqrt(mr * mr + mz * mz);
        if (!(d < a)) continue;
        pala_vec3 n;
        if (d > 0) n = pala_vaxpy(pala_vscale(mr / d, es), mz / d, s->e);
        else if (feat & 1) n = es;
        else {   /* on the sheet: its normal in the meridian, towards +rho */
            double dr = R[i + 1] - R[i], dz = Z[i + 1] - Z[i], l = sqrt(dr * dr + dz * dz);
            n = pala_vaxpy(pala_vscale(dz / l, es), -dr / l, s->e);
        }
        out[m++] = (hit){d, n, side > 0 ? feat : feat + 16};
    }
    return m;
}

/* The touches closer than a of a point xb (wall frame) with the shape: their number. */
static inline __attribute__((always_inline)) int shape_hits(const pala_surface *s, pala_vec3 xb, double a, hit *out)
{
    pala_vec3 q = pala_vsub(xb, s->point);
    if (s->shape == PALA_SURF_MESH) return mesh_hits(s, NULL, 0, 0, xb, a, out);
    if (planar(s->shape)) {
        double h = pala_vdot(q, s->n);
        out[0] = (hit){h, s->n, 0};
        return h < a;
    }
    if (flat_sheet(s->shape)) {
        double x = pala_vdot(q, s->u), y = pala_vdot(q, s->v), h = pala_vdot(q, s->n);
        double cx = fmax(-s->ext[0], fmin(s->ext[0], x)), cy = fmax(-s->ext[1], fmin(s->ext[1], y));
        if (cx == x && cy == y) {   /* over the face: the plane's distance */
            out[0] = (hit){fabs(h), h < 0 ? pala_vneg(s->n) : s->n, 0};
            return fabs(h) < a;
        }
        pala_vec3 r = pala_vaxpy(pala_vaxpy(pala_vscale(h, s->n), x - cx, s->u), y - cy, s->v);
        double d = pala_vnorm(r);
        out[0] = (hit){d, pala_vscale(1 / d, r), 1};
        return d < a;
    }
    /* a surface of revolution about e through point */
    double z = pala_vdot(q, s->e);
    pala_vec3 qr = pala_vaxpy(q, -z, s->e);
    double rho = pala_vnorm(qr);
    pala_vec3 er = rho > 0 ? pala_vscale(1 / rho, qr) : s->u;
    if (!isfinite(s->L)) {   /* an infinite cylinder (a circle in 2D) */
        double d = fabs(rho - s->Rg);
        out[0] = (hit){d, rho > s->Rg ? er : pala_vneg(er), 0};
        return d < a;
    }
    /* a segment whose box in (rho, z) is farther than lim from the centre's point touches it
     * neither on its face nor at its ends: their points computed below lie within a few
     * rounding errors of the box (far less than 1e-9 of the meridian's extent), and a distance
     * computed as sqrt(mr^2 + mz^2) is at least |mr| and at least |mz| (sqrt(x^2) rounded
     * is |x|, above underflow) */
    const double lim = a + 1e-9 * (a + s->mext);
    /* the meridian half-plane of the centre, then the opposite one (rho < 0 there), where a
     * sphere near the axis touches too: a ball resting in a funnel is held on both sides
     * (a centred ball would touch a whole ring; the two points of its meridian plane stand
     * for it).  The opposite side's points on the axis are the first side's.
     * The opposite side's points (-pr, pz), pr > 0, are farther than rho from the centre,
     * and so are their computed distances (|mr| = rho + pr rounds to >= rho, and sqrt of
     * rho^2 rounded is rho, above underflow): none touches if rho >= a. */
    int m = meridian_side(s, z, rho, er, a, lim, out, 0, 1);
    if (!(rho >= a && rho > 1e-100)) m = meridian_side(s, z, rho, er, a, lim, out, m, -1);
    return m;
}

/* the least distance of the shape from a point (wall frame), for placement and the checks */
static double shape_distance(const pala_surface *s, pala_vec3 xb)
{
    if (s->shape == PALA_SURF_MESH) {
        pala_mesh_hit h;
        return mesh_of(s) && pala_mesh_nearest(mesh_of(s), pala_vsub(xb, s->point), HUGE_VAL, &h, NULL) ? h.d : HUGE_VAL;
    }
    hit h[NHIT];
    int n = shape_hits(s, xb, HUGE_VAL, h);
    double d = HUGE_VAL;
    for (int i = 0; i < n; i++) d = fmin(d, h[i].d);
    return d;
}

/* ---- checks ------------------------------------------------------------------------------ */
static int finite3(pala_vec3 x) { return isfinite(x.x) && isfinite(x.y) && isfinite(x.z); }

static pala_vec3 unit(pala_vec3 x) { double l = pala_vnorm(x); return l > 0 ? pala_vscale(1 / l, x) : x; }

static int still(const pala_surface *s);

/* The derived directions: n, e, u, v (unit, u and v across n or e), and the flags of its
 * motion. */
static void derive(pala_surface *s)
{
    int sh = s->shape;
    s->n = unit(s->normal);
    s->e = sh == PALA_SURF_CIRCLE ? pala_v(0, 0, 1) : unit(sh == PALA_SURF_DISC ? s->normal : s->axis);
    s->L = sh == PALA_SURF_CIRCLE || (sh == PALA_SURF_CYLINDER && s->length == 0) ? HUGE_VAL : s->length;
    s->cap = sh == PALA_SURF_CIRCLE ? 0 : s->caps;
    s->Rg = s->radius;
    /* a segment: a rectangle across the plane z = 0, infinite along z */
    s->ext[0] = sh == PALA_SURF_SEGMENT ? HUGE_VAL : 0.5 * s->size[0];
    s->ext[1] = sh == PALA_SURF_SEGMENT ? 0.5 * s->size[0] : 0.5 * s->size[1];
    pala_vec3 ax = planar(sh) || flat_sheet(sh) ? s->n : s->e;
    pala_vec3 u = sh == PALA_SURF_SEGMENT ? pala_v(0, 0, 1) : flat_sheet(sh) ? s->edge : (fabs(ax.z) < 0.9 ? pala_v(0, 0, 1) : pala_v(1, 0, 0));
    u = unit(pala_vaxpy(u, -pala_vdot(u, ax), ax));
    s->u = u;
    s->v = pala_vcross(ax, u);
    set_meridian(s);
    s->moving = moves(s);   /* read for every component near the wall */
    s->still = s->moving && still(s);
}

/* Reads a mesh wall's file once (its copies share it) and prepares it for the world's
 * largest component and the side its grains are on: NULL, or what is wrong (into buf). */
static const char *load_mesh(const pala_world *w, pala_surface *s, char *buf, size_t len)
{
    if (s->mr) return NULL;
    double amax = 0;
    for (int i = 0; i < w->nshape; i++) amax = fmax(amax, w->shape_r[i]);
    char err[512];
    pala_mesh *m = NULL;
    const char *f = s->path[0] ? s->path : s->file;
    if (!f || !f[0]) { snprintf(buf, len, "[wall %s]: shape = mesh needs 'file', an STL file", s->name); return buf; }
    static const int sides[3] = {PALA_MESH_BOTH, PALA_MESH_INSIDE, PALA_MESH_OUTSIDE};
    if (pala_mesh_read_stl(f, s->scale, &m, err, sizeof err) || pala_mesh_prepare(m, amax > 0 ? amax : 1e-3, sides[s->side], err, sizeof err)) {
        pala_mesh_free(m);
        snprintf(buf, len, "[wall %s] 'file': %s", s->name, err);
        return buf;
    }
    s->mr = pala_xrealloc(NULL, sizeof *s->mr);
    *s->mr = (pala_meshref){m, 1, 0};
    for (int i = 0; i < m->nface; i++) {
        pala_vec3 a = m->vert[m->face[i][0]], b = m->vert[m->face[i][1]], c = m->vert[m->face[i][2]];
        s->mr->area += 0.5 * pala_vnorm(pala_vcross(pala_vsub(b, a), pala_vsub(c, a)));
    }
    return NULL;
}

#define REFUSE(key, ...) return pala_wall_refuse(buf, len, kp, key, __VA_ARGS__)
static const char *surface_check(const pala_world *w, const pala_wall *wl, char *buf, size_t len, const char **kp)
{
    pala_surface *s = wl->par;
    if (!s->name[0]) snprintf(s->name, sizeof s->name, "wall%d", (int)(wl - w->walls) - w->surf0);   /* one a program added */
    const char *nm = s->name;
    int sh = s->shape, d2 = w->dim == 2;
    if (sh < 0 || sh > PALA_SURF_MESH) REFUSE("shape", "[wall %s]: shape code %d is not a shape", nm, sh);
    if (sh == PALA_SURF_MESH) {
        if (d2) REFUSE("shape", "[wall %s]: a mesh is a 3D wall; in 2D use line, segment or circle", nm);
        if (!finite3(s->point)) REFUSE("point", "[wall %s] 'point': give the finite point the mesh's origin goes to", nm);
        if (!(s->scale > 0 && isfinite(s->scale))) REFUSE("scale", "[wall %s] 'scale = %g': give the factor to metres, > 0 (0.001 for a file in mm)", nm, s->scale);
        char msg[768];
        if (load_mesh(w, s, msg, sizeof msg)) REFUSE("file", "%s", msg);
    }
    int flat2d = sh == PALA_SURF_MESH || sh == PALA_SURF_LINE || sh == PALA_SURF_SEGMENT || sh == PALA_SURF_CIRCLE || sh == PALA_SURF_PLANE;
    if (d2 && !flat2d)
        REFUSE("shape", "[wall %s]: shape = %s is a 3D shape; in 2D use line (or plane), segment or circle", nm, shape_names[sh]);
    if (!finite3(s->point) || (d2 && s->point.z != 0)) REFUSE("point", "[wall %s] 'point': give a finite point%s", nm, d2 ? " with z = 0 (2D)" : "");
    int needs_n = sh != PALA_SURF_CYLINDER && sh != PALA_SURF_CONE && sh != PALA_SURF_CIRCLE && sh != PALA_SURF_MESH;
    if (needs_n && (!pala_vdirection(s->normal) || (d2 && s->normal.z != 0)))
        REFUSE("normal", "[wall %s] 'normal': give a direction such as 0 0 1: finite, not 0, of a length whose square is a number%s", nm, d2 ? ", in the plane (z = 0)" : "");
    if ((sh == PALA_SURF_CYLINDER || sh == PALA_SURF_CONE) && !pala_vdirection(s->axis))
        REFUSE("axis", "[wall %s] 'axis': give the direction of the axis such as 0 0 1: finite, not 0, of a length whose square is a number", nm);
    if (sh == PALA_SURF_RECTANGLE) {
        if (!pala_vdirection(s->edge) || pala_vnorm(pala_vcross(unit(s->edge), unit(s->normal))) < 1e-6)
            REFUSE("edge", "[wall %s] 'edge': give the direction of the rectangle's first side, across its normal", nm);
        if (!(s->size[0] > 0 && s->size[1] > 0 && isfinite(s->size[0]) && isfinite(s->size[1])))
            REFUSE("size", "[wall %s] 'size = %g %g': give the two sides of the rectangle, > 0", nm, s->size[0], s->size[1]);
    }
    if (sh == PALA_SURF_SEGMENT && !(s->size[0] > 0 && isfinite(s->size[0])))
        REFUSE("size", "[wall %s] 'size': give the segment's length, > 0", nm);
    if ((sh == PALA_SURF_DISC || sh == PALA_SURF_CYLINDER || sh == PALA_SURF_CIRCLE || sh == PALA_SURF_CONE) && !(s->radius >= 0 && isfinite(s->radius) && (s->radius > 0 || sh == PALA_SURF_CONE)))
        REFUSE("radius", "[wall %s] 'radius = %g': give a finite radius > 0", nm, s->radius);
    if (sh == PALA_SURF_CONE) {
        if (!(s->radius_end >= 0 && isfinite(s->radius_end)) || s->radius + s->radius_end == 0)
            REFUSE("radius_end", "[wall %s] 'radius_end = %g': give the cone's radius at the far end, >= 0 (not both radii 0)", nm, s->radius_end);
        if (!(s->length > 0 && isfinite(s->length))) REFUSE("length", "[wall %s] 'length': a cone needs a finite length > 0", nm);
    }
    if (sh == PALA_SURF_CYLINDER && s->length == 0 && s->caps) REFUSE("caps", "[wall %s] 'caps': an infinite cylinder (length 0) has no caps; give its length", nm);
    /* motion */
    if (!finite3(s->velocity) || !finite3(s->omega) || !finite3(s->amplitude) || !finite3(s->centre))
        REFUSE("velocity", "[wall %s]: the motion's vectors must be finite", nm);
    if (d2 && (s->velocity.z != 0 || s->amplitude.z != 0 || s->omega.x != 0 || s->omega.y != 0 || s->centre.z != 0))
        REFUSE("angular_velocity", "[wall %s]: in 2D a wall moves in the plane and turns about z (velocity, amplitude and rotation_centre with z = 0, angular_velocity 0 0 wz)", nm);
    if (s->servo_pressure > 0) {
        int cyl = sh == PALA_SURF_CYLINDER || sh == PALA_SURF_CIRCLE;
        if (!planar(s->shape) && !flat_sheet(s->shape) && sh != PALA_SURF_DISC && !cyl)
            REFUSE("servo_pressure", "[wall %s]: a servo moves a flat wall along its normal, or a cylinder's radius: not a %s", nm, shape_names[sh]);
        if (cyl && (s->side == 0 || s->caps || (sh == PALA_SURF_CYLINDER && s->length == 0)))
            REFUSE("servo_pressure", "[wall %s]: a cylinder's servo moves its radius towards its grains: give 'side' (inside or outside), "
                   "a finite length and no caps", nm);
        if (pala_vnorm2(s->omega) > 0) REFUSE("servo_pressure", "[wall %s]: a servo wall does not turn: drop angular_velocity", nm);
        if (!(s->servo_gain > 0) || !(s->servo_speed > 0))
            REFUSE("servo_gain", "[wall %s]: a servo needs servo_gain > 0 (m/s per Pa) and servo_speed > 0 (m/s)", nm);
    }
    derive(s);
    if (s->servo_pressure > 0 && !(pala_surface_area(s) > 0))
        REFUSE("area", "[wall %s]: a servo on an infinite plane needs 'area', the area its pressure is measured on (m^2)", nm);
    return NULL;
}
#undef REFUSE

double pala_surface_area(const pala_surface *s)
{
    double R = s->shape == PALA_SURF_CONE ? s->radius : s->Rg, R2 = s->shape == PALA_SURF_CONE ? s->radius_end : R, L = s->L;
    switch (s->shape) {
    case PALA_SURF_PLANE: case PALA_SURF_LINE: return s->area;
    case PALA_SURF_RECTANGLE: return s->size[0] * s->size[1];
    case PALA_SURF_SEGMENT: return s->size[0];
    case PALA_SURF_DISC: return PALA_PI * R * R;
    case PALA_SURF_CIRCLE: return 2 * PALA_PI * s->Rg;
    case PALA_SURF_MESH: return s->mr ? s->mr->area : 0;
    default: break;
    }
    if (!isfinite(L)) return 0;
    double a = PALA_PI * (R + R2) * sqrt((R - R2) * (R - R2) + L * L);
    if (s->cap & PALA_SURF_CAP_START) a += PALA_PI * R * R;
    if (s->cap & PALA_SURF_CAP_END) a += PALA_PI * R2 * R2;
    return a;
}

/* ---- geometry: the kind's functions ------------------------------------------------------ */
static const pala_pose *pose_of(const pala_surface *s) { return s->moving ? &s->pose : NULL; }

static double dist_world(const pala_surface *s, pala_vec3 x)
{
    const pala_pose *p = pose_of(s);
    return shape_distance(s, p ? to_body(p, x) : x);
}

/* 1 if the wall's motion maps it onto itself, so that the space it takes does not change: a
 * plane moving in itself (a belt, a turntable), a surface of revolution turning about its
 * own axis (a drum) */
static int still(const pala_surface *s)
{
    pala_vec3 c = s->centre_set ? s->centre : s->point, W = s->omega;
    if (s->servo_pressure > 0 || (pala_vnorm2(s->amplitude) > 0 && s->frequency > 0 && !planar(s->shape))) return 0;
    if (planar(s->shape))
        return pala_vdot(s->velocity, s->n) == 0 && (s->frequency == 0 || pala_vdot(s->amplitude, s->n) == 0) &&
               pala_vnorm2(pala_vcross(W, s->n)) == 0 && pala_vdot(pala_vsub(c, s->point), s->n) == 0;
    if (flat_sheet(s->shape) || s->shape == PALA_SURF_MESH || pala_vnorm2(s->velocity) > 0) return 0;
    pala_vec3 q = pala_vsub(c, s->point);
    return pala_vnorm2(pala_vcross(W, s->e)) == 0 && pala_vnorm2(pala_vcross(q, s->e)) == 0;   /* about its axis */
}

/* nextafter(x, HUGE_VAL) for a finite x > 0 without the call (each grain at each list
 * build asks): the next double above x, its bits plus one (not for -0, whose bits plus one
 * are below it: zeros take the call) */
static double above(double x)
{
    if (!(x > 0 && x < HUGE_VAL)) return nextafter(x, HUGE_VAL);
    uint64_t b;
    memcpy(&b, &x, sizeof b);
    b++;
    memcpy(&x, &b, sizeof x);
    return x;
}

/* a moving wall may reach any grain before the next list build: every grain is its
 * candidate, but for a wall that stays in place (still) */
static int surface_clear(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    (void)w;
    const pala_surface *s = wl->par;
    if (s->shape == PALA_SURF_MESH && !s->moving) {   /* the grid's cells within R of x, not every face */
        pala_mesh_hit h;
        return !mesh_of(s) || !pala_mesh_nearest(mesh_of(s), pala_vsub(x, s->point), above(R), &h, NULL);
    }
    if (s->moving && !s->still) return 0;
    /* farther than R: no touch closer than the next double above R (shape_distance(s, x) > R,
     * but the shape's far parts are not computed: shape_hits) */
    hit h[NHIT];
    return shape_hits(s, x, above(R), h) == 0;
}

/* 1 if a point of the wall's frame is inside its cylinder or cone, between its ends */
static int enclosed(const pala_surface *s, pala_vec3 xb)
{
    pala_vec3 q = pala_vsub(xb, s->point);
    double z = pala_vdot(q, s->e), rho = pala_vnorm(pala_vaxpy(q, -z, s->e));
    double R = s->shape == PALA_SURF_CONE ? s->radius : s->Rg, R2 = s->shape == PALA_SURF_CONE ? s->radius_end : R;
    if (!isfinite(s->L)) return rho < R;
    return z >= 0 && z <= s->L && rho < R + (R2 - R) * z / s->L;
}

/* clear of the wall, and on the side placement wants (side) */
static int surface_inside(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R)
{
    (void)w;
    const pala_surface *s = wl->par;
    if (dist_world(s, x) < R) return 0;
    if (!s->side || planar(s->shape) || flat_sheet(s->shape) || s->shape == PALA_SURF_DISC) return 1;
    const pala_pose *p = pose_of(s);
    if (s->shape == PALA_SURF_MESH) {   /* a closed mesh: inside by its closest feature (mesh.c) */
        pala_mesh_hit h;
        int in = 0;
        if (!mesh_of(s) || !pala_mesh_nearest(mesh_of(s), pala_vsub(p ? to_body(p, x) : x, s->point), HUGE_VAL, &h, &in)) return 1;
        return in == (s->side == 1);
    }
    return enclosed(s, p ? to_body(p, x) : x) == (s->side == 1);
}

/* A plane of normal n through x that faces along an axis narrows [lo, hi] to its grains'
 * side, R clear of it. */
static void narrow_facing(pala_vec3 nv, pala_vec3 xv, double R, double lo[3], double hi[3])
{
    const double n[3] = {nv.x, nv.y, nv.z}, x[3] = {xv.x, xv.y, xv.z};
    for (int a = 0; a < 3; a++) {
        if (n[a] == 1) lo[a] = fmax(lo[a], x[a] + R);
        if (n[a] == -1) hi[a] = fmin(hi[a], x[a] - R);
    }
}

static void surface_bounds(const pala_world *w, const pala_wall *wl, double R, double lo[3], double hi[3])
{
    (void)w;
    const pala_surface *s = wl->par;
    if (planar(s->shape) && !moves(s)) narrow_facing(s->n, s->point, R, lo, hi);
}

/* For a measuring region's default (pala_world_walls_region), at the world's time: an
 * infinite plane (a line) of [wall] wl that faces along an axis narrows [lo, hi] to its
 * grains' side; a finite cylinder or cone (a circle) with its grains inside sets [el, eh]
 * to its box and returns 1; other walls do nothing (0). */
static int surface_region(const pala_world *w, const pala_wall *wl, double lo[3], double hi[3], double el[3], double eh[3], int grains[2][3])
{
    const pala_surface *s = wl->par;
    if (s->servo_pressure > 0) {   /* a servo's travel is not in a trajectory's header: a plane facing along an axis leaves that end to the grains */
        const double n[3] = {s->n.x, s->n.y, s->n.z};
        for (int a = 0; a < 3 && planar(s->shape); a++) {
            if (n[a] == 1) grains[0][a] = 1;
            if (n[a] == -1) grains[1][a] = 1;
        }
        return 0;
    }
    pala_pose p = pala_surface_pose(s, w->t);
    int axial = s->shape == PALA_SURF_CYLINDER || s->shape == PALA_SURF_CONE || s->shape == PALA_SURF_CIRCLE;
    if (axial && s->side == 1 && (isfinite(s->L) || s->shape == PALA_SURF_CIRCLE)) {
        /* grains inside a finite cylinder or cone (a circle): the box of its two end discs,
         * a disc of radius r about c with axis e reaching r sqrt(1 - e_a^2) along axis a */
        pala_vec3 e = turn(&p, s->e), c0 = to_world(&p, s->point), c1 = s->shape == PALA_SURF_CIRCLE ? c0 : pala_vaxpy(c0, s->L, e);
        double r0 = s->shape == PALA_SURF_CONE ? s->radius : s->Rg, r1 = s->shape == PALA_SURF_CONE ? s->radius_end : r0;
        const double ea[3] = {e.x, e.y, e.z}, a0[3] = {c0.x, c0.y, c0.z}, a1[3] = {c1.x, c1.y, c1.z};
        for (int a = 0; a < 3; a++) {
            double k = sqrt(fmax(0, 1 - ea[a] * ea[a]));
            el[a] = fmin(a0[a] - r0 * k, a1[a] - r1 * k);
            eh[a] = fmax(a0[a] + r0 * k, a1[a] + r1 * k);
        }
        return 1;
    }
    if (planar(s->shape)) narrow_facing(turn(&p, s->n), to_world(&p, s->point), 0, lo, hi);
    return 0;
}

double pala_surface_lowest(const pala_surface *s, pala_vec3 up)
{
    /* a shape of extent r about c across the unit vector a reaches r sqrt(1 - (a.up)^2) below c */
#define ACROSS(a) sqrt(fmax(0, 1 - pala_vdot(a, up) * pala_vdot(a, up)))
    double h = pala_vdot(up, s->point);
    switch (s->shape) {
    case PALA_SURF_PLANE: case PALA_SURF_LINE:   /* level, or down forever */
        return fabs(pala_vdot(s->n, up)) >= 1 - 1e-12 ? h : (double)NAN;
    case PALA_SURF_RECTANGLE: return h - s->ext[0] * fabs(pala_vdot(s->u, up)) - s->ext[1] * fabs(pala_vdot(s->v, up));
    case PALA_SURF_SEGMENT: return h - s->ext[0] * fabs(pala_vdot(s->u, up));
    case PALA_SURF_DISC: return h - s->Rg * ACROSS(s->n);
    case PALA_SURF_CIRCLE: return h - s->Rg * ACROSS(pala_v(0, 0, 1));
    case PALA_SURF_CYLINDER: case PALA_SURF_CONE: {
        double r0 = s->shape == PALA_SURF_CONE ? s->radius : s->Rg, r1 = s->shape == PALA_SURF_CONE ? s->radius_end : r0, k = ACROSS(s->e);
        if (!isfinite(s->L)) return fabs(pala_vdot(s->e, up)) < 1e-12 ? h - r0 : (double)NAN;   /* infinite: level, or down forever */
        return fmin(h - r0 * k, h + s->L * pala_vdot(s->e, up) - r1 * k);
    }
    case PALA_SURF_MESH: {
        const pala_mesh *m = mesh_of(s);
        double lo = HUGE_VAL;
        for (int i = 0; m && i < m->nvert; i++) lo = fmin(lo, pala_vdot(up, m->vert[i]));
        return m ? h + lo : (double)NAN;
    }
    default: return (double)NAN;
    }
#undef ACROSS
}

int pala_world_drum(const pala_world *w, pala_vec3 *point, pala_vec3 *axis, double *radius)
{
    for (int i = 0; i < w->nwalls; i++) {
        if (w->walls[i].kind != &pala_wall_surface) continue;
        const pala_surface *s = w->walls[i].par;
        if ((s->shape != PALA_SURF_CYLINDER && s->shape != PALA_SURF_CIRCLE) || s->side != 1) continue;
        pala_pose p = pala_surface_pose(s, w->t);
        pala_vec3 e = s->shape == PALA_SURF_CIRCLE ? pala_v(0, 0, 1) : turn(&p, s->e);   /* a circle: a drum about z (2D) */
        if (pala_vdot(s->omega, e) < 0) e = pala_vscale(-1, e);   /* along its turn */
        *point = to_world(&p, s->point);
        *axis = e;
        *radius = s->Rg;
        return 1;
    }
    return 0;
}

/* (here, not in container.c, which a surface's module includes: it reads both kinds) */
void pala_world_walls_region(const pala_world *w, double lo[3], double hi[3])
{
    double ul[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, uh[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};   /* the enclosures' boxes joined */
    int box = 0, encl = 0, grains[2][3] = {{0, 0, 0}, {0, 0, 0}};   /* the ends a servo plane faces */
    for (int i = 0; i < w->nwalls; i++) {
        const pala_wall *wl = &w->walls[i];
        double el[3], eh[3];
        if (wl->kind->container) { wl->kind->bounds(w, wl, 0, lo, hi); box = 1; }
        else if (wl->kind == &pala_wall_surface && surface_region(w, wl, lo, hi, el, eh, grains))
            for (int a = 0; a < 3; a++) { ul[a] = fmin(ul[a], el[a]); uh[a] = fmax(uh[a], eh[a]); encl = 1; }
    }
    for (int a = 0; a < 3; a++) {
        if (!box && encl) { lo[a] = fmax(lo[a], ul[a]); hi[a] = fmin(hi[a], uh[a]); }
        if (grains[0][a]) lo[a] = (double)NAN;
        if (grains[1][a]) hi[a] = (double)NAN;
    }
}

static double surface_cut(const pala_world *w, const pala_wall *wl, pala_vec3 c, double a) { (void)w; return a - dist_world(wl->par, c); }

static int surface_room(const pala_world *w, const pala_wall *wl, double a) { (void)w; (void)wl; (void)a; return NHIT; }

/* The contact history's key of a touch: the wall (1 << 31 | its index among the walls << 24)
 * and the feature, below 2^24 (contact_state.c reads the wall's material from it). */
static unsigned feature_id(const pala_world *w, const pala_wall *wl, int feat)
{
    return 0x80000000u | (unsigned)(wl - w->walls) << 24 | ((unsigned)feat & 0xffffffu);
}

/* the faces near each pebble if they hold every face it touches now (pala_meshnear), else NULL */
static const pala_meshnear *near_now(const pala_world *w, const pala_surface *s)
{
    const pala_meshnear *mn = s->near;
    if (!mn || s->moving || mn->builds != w->nl->builds || mn->npeb != pala_grain_peb0(w, w->n) || !(mn->drift + w->nl->drift < mn->skin))
        return NULL;
    return mn;
}

void pala_surfaces_listed(pala_world *w)
{
    const pala_work *wk = w->work;
    const int *wc = wk->wcand, nc = wk->wcb[wk->nblk], np = pala_grain_peb0(w, w->n);
    for (int i = 0; i < w->nsurf; i++) {
        pala_surface *s = w->walls[w->surf0 + i].par;
        if (s->shape != PALA_SURF_MESH || !mesh_of(s) || moves(s)) continue;
        if (!s->near) s->near = memset(pala_xrealloc(NULL, sizeof *s->near), 0, sizeof *s->near);
        pala_meshnear *mn = s->near;
        PALA_GROW(mn->start, np + 1);
        mn->nface = 0;
        for (int j = 0, p = 0; j <= nc; j++) {   /* the candidates' pebbles; the others have none */
            int k = j < nc ? wc[j] : w->n, p0 = pala_grain_peb0(w, k);
            for (; p < p0; p++) mn->start[p] = (int)mn->nface;
            if (j == nc) break;
            const pala_template *t = &w->tmpl[w->tid[k]];
            for (int c = 0; c < t->ncomp; c++, p++) {
                mn->start[p] = (int)mn->nface;
                pala_vec3 x = pala_vsub(w->pc ? w->pc[p] : w->x[k], s->point);
                pala_mesh_near(mesh_of(s), x, w->shape_r[t->comp0 + c], w->nl->skin * (w->nl->fk ? w->nl->fk[k] : 1), &mn->face, &mn->nface, &mn->cap);   /* f_k: neighbor.c, "Skins of their own" */
            }
        }
        mn->start[np] = (int)mn->nface;
        mn->builds = w->nl->builds;
        mn->drift = w->nl->drift;
        mn->skin = w->nl->skin;
        mn->npeb = np;
    }
}

/* The touches of grain k's components: from the faces near them (mn, valid: near_now), or
 * from the shape (mn NULL; inlined into each caller, so the other walls pay nothing for
 * meshes: left to itself the compiler made it one function, 8 instructions a grain more). */
static inline __attribute__((always_inline)) int grain_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out, const pala_meshnear *mn)
{
    const pala_surface *s = wl->par;
    const pala_pose *p = pose_of(s);
    const pala_template *t = &w->tmpl[w->tid[k]];
    int m = 0, p0 = pala_grain_peb0(w, k);
    const unsigned id0 = feature_id(w, wl, 0);
    const double *rad = w->shape_r + t->comp0;
    for (int i = 0; i < t->ncomp; i++) {
        pala_vec3 c = w->pc ? w->pc[p0 + i] : w->x[k];
        hit h[NHIT];
        int nh = mn ? mesh_hits(s, mn->face + mn->start[p0 + i], mn->start[p0 + i + 1] - mn->start[p0 + i], (mn->drift + w->nl->drift) * (w->nl->fk ? w->nl->fk[k] : 1), c, rad[i], h)
                    : shape_hits(s, p ? to_body(p, c) : c, rad[i], h);
        for (int j = 0; j < nh; j++) {
            double ov = rad[i] - h[j].d;
            pala_vec3 n = p ? turn(p, h[j].n) : h[j].n, vs = pala_v(0, 0, 0);
            if (p) {   /* the surface's velocity at the contact point (contact.h) */
                pala_vec3 cp = pala_vaxpy(c, -(rad[i] - 0.5 * ov), n);
                vs = pala_vadd(p->v, pala_vcross(p->Om, pala_vsub(pala_vsub(cp, p->c), p->d)));
                if (p->growv != 0) {   /* a cylinder's servo: the surface moves radially */
                    pala_vec3 q = pala_vsub(pala_vsub(cp, s->point), p->d);
                    pala_vec3 er = unit(pala_vaxpy(q, -pala_vdot(q, s->e), s->e));
                    vs = pala_vaxpy(vs, p->growv, er);
                }
            }
            out[m++] = (pala_wall_touch){.c = c, .n = n, .vs = vs, .a = rad[i], .ov = ov, .rt = 2 * rad[i], .face = wl->face0,
                                         .k = k, .p = p0 + i, .id = id0 | ((unsigned)h[j].feat & 0xffffffu)};
        }
    }
    return m;
}

/* (inline into surface_touch's loops over the candidates: the wall's constants are read once a
 * block, not once a grain) */
static inline __attribute__((always_inline)) int surface_grain_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out)
{
    return grain_touch(w, wl, k, out, NULL);
}
static inline __attribute__((always_inline)) int near_grain_touch(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out)
{
    return grain_touch(w, wl, k, out, ((const pala_surface *)wl->par)->near);
}

static int surface_touch(const pala_world *w, const pala_wall *wl, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    const pala_surface *s = wl->par;
    if (s->shape == PALA_SURF_MESH && near_now(w, s)) return pala_touch_grains(w, wl, cand, n, out, cap, used, surface_room, near_grain_touch);
    return pala_touch_grains(w, wl, cand, n, out, cap, used, surface_room, surface_grain_touch);
}

static pala_vec3 surface_lowest(const pala_world *w, const pala_wall *wl, pala_vec3 g)
{
    (void)w; (void)g;
    return ((const pala_surface *)wl->par)->point;
}

/* P_NAME_x y z (momentum received), P_NAME_n (normal or radial, pushed away from the grains:
 * a mean pressure over its area), L_NAME_x y z (angular momentum about its centre), and
 * W_NAME (work done on the grains) if it moves; a servo's travel d_NAME at the world's time
 * (along the normal n, towards the grains; a cylinder's or circle's radius, its change).
 * area -1: a momentum whose rate walls.tsv writes as a mean force or torque (F_, T_). */
static int surface_columns(const pala_world *w, const pala_wall *wl, const char **names, double *values, double *area, int max)
{
    pala_surface *s = wl->par;
    static const char *const suffix[9] = {"P_%s_x", "P_%s_y", "P_%s_z", "P_%s_n", "L_%s_x", "L_%s_y", "L_%s_z", "W_%s", "d_%s"};
    double travel = 0;
    if (s->servo_pressure > 0) {
        pala_pose p = pala_surface_pose(s, w->t);
        travel = radial(s) ? p.grow : s->servo[0] + s->servo[1] * (w->t - s->servo[2]);
    }
    const double v[9] = {s->imp.x, s->imp.y, s->imp.z, s->rad, s->ang.x, s->ang.y, s->ang.z, s->work, travel};
    const double ar[9] = {-1, -1, -1, pala_surface_area(s), -1, -1, -1, 0, 0};
    int nc = s->servo_pressure > 0 ? 9 : moves(s) ? 8 : 7, n = 0;
    for (int i = 0; i < nc && n < max; i++, n++) {
        snprintf(s->col[i], sizeof s->col[i], suffix[i], s->name);
        names[n] = s->col[i];
        values[n] = v[i] + 0.0;
        if (area) area[n] = ar[i];
    }
    return n;
}

/* ---- serialisation and presentation ------------------------------------------------------- */
enum { NNUM = 40 };
static void numbers(const pala_surface *s, double x[NNUM])
{
    const double v[NNUM] = {s->point.x, s->point.y, s->point.z, s->normal.x, s->normal.y, s->normal.z, s->axis.x, s->axis.y, s->axis.z,
                            s->edge.x, s->edge.y, s->edge.z, s->size[0], s->size[1], s->radius, s->radius_end, s->length, s->area,
                            s->draw_size, s->caps, s->velocity.x, s->velocity.y, s->velocity.z, s->omega.x, s->omega.y, s->omega.z,
                            s->centre.x, s->centre.y, s->centre.z, s->centre_set, s->spin_up, s->amplitude.x, s->amplitude.y,
                            s->amplitude.z, s->frequency, s->servo_pressure, s->servo_gain, s->servo_speed, s->side, s->scale};
    memcpy(x, v, sizeof v);
}

/* "NAME SHAPE" and the numbers of the keys (docs/output-formats.md) */
static int surface_line(const pala_world *w, const pala_wall *wl, char *buf, size_t len)
{
    (void)w;
    const pala_surface *s = wl->par;
    double x[NNUM];
    numbers(s, x);
    int n = snprintf(buf, len, "%s %s", s->name, shape_names[s->shape]);
    for (int i = 0; i < NNUM; i++) n += snprintf(buf + (n < (int)len ? n : (int)len), (size_t)n < len ? len - (size_t)n : 0, " %.17g", x[i]);
    if (s->shape == PALA_SURF_MESH)   /* and its file, the rest of the line */
        n += snprintf(buf + (n < (int)len ? n : (int)len), (size_t)n < len ? len - (size_t)n : 0, " %s", s->path[0] ? s->path : s->file ? s->file : "");
    return n;
}

static int surface_parse(const pala_world *w, pala_wall *wl, const char *args)
{
    pala_surface *s = wl->par;
    char nm[32], sh[32];
    int off = 0;
    if (sscanf(args, "%31s %31s%n", nm, sh, &off) != 2) return -1;
    int code = -1;
    for (int i = 0; i < (int)(sizeof shape_names / sizeof shape_names[0]); i++)
        if (!strcmp(sh, shape_names[i])) code = i;
    double x[NNUM];
    char *e = (char *)args + off;
    for (int i = 0; i < NNUM && code >= 0; i++) {   /* the numbers, then a mesh's file */
        const char *b = e;
        x[i] = strtod(b, &e);
        if (e == b) return -1;
    }
    while (*e == ' ' || *e == '\t') e++;
    char path[sizeof s->path];
    snprintf(path, sizeof path, "%s", e);
    path[strcspn(path, "\r\n")] = 0;
    if (code < 0 || (code == PALA_SURF_MESH) != (path[0] != 0)) return -1;
    memset(s, 0, sizeof *s);
    snprintf(s->path, sizeof s->path, "%s", path);
    snprintf(s->name, sizeof s->name, "%s", nm);
    s->shape = code;
    s->point = pala_v(x[0], x[1], x[2]); s->normal = pala_v(x[3], x[4], x[5]); s->axis = pala_v(x[6], x[7], x[8]);
    s->edge = pala_v(x[9], x[10], x[11]); s->size[0] = x[12]; s->size[1] = x[13]; s->radius = x[14]; s->radius_end = x[15];
    s->length = x[16]; s->area = x[17]; s->draw_size = x[18]; s->caps = (int)x[19];
    s->velocity = pala_v(x[20], x[21], x[22]); s->omega = pala_v(x[23], x[24], x[25]); s->centre = pala_v(x[26], x[27], x[28]);
    s->centre_set = x[29] != 0; s->spin_up = x[30]; s->amplitude = pala_v(x[31], x[32], x[33]); s->frequency = x[34];
    s->servo_pressure = x[35]; s->servo_gain = x[36]; s->servo_speed = x[37]; s->side = (int)x[38]; s->scale = x[39];
    if (s->caps < 0 || s->caps > 3 || s->side < 0 || s->side > 2) return -1;
    char buf[256];
    const char *key;
    return surface_check(w, wl, buf, sizeof buf, &key) ? -1 : 0;
}

/* quads in the wall's frame, then posed at the world's time */
static int add_quad(pala_draw *out, int n, int max, const pala_pose *p, pala_vec3 a, pala_vec3 b, pala_vec3 c, pala_vec3 d)
{
    if (n >= max) return n;
    out[n] = (pala_draw){.shape = PALA_DRAW_QUAD};
    const pala_vec3 q[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) out[n].p[i] = to_world(p, q[i]);
    return n + 1;
}

static int surface_draw(const pala_world *w, const pala_wall *wl, pala_draw *out, int max)
{
    const pala_surface *s = wl->par;
    pala_pose p = pala_surface_pose(s, w->t);
    int n = 0;
    double h = 0.5 * s->draw_size;
    if (planar(s->shape) || flat_sheet(s->shape)) {
        double a = planar(s->shape) ? h : s->ext[0], b = planar(s->shape) ? h : s->ext[1];
        pala_vec3 u = s->u, v = s->v;
        if (w->dim == 2) {   /* its line in the plane z = 0 */
            pala_vec3 l = pala_vcross(pala_v(0, 0, 1), s->n);
            double e = planar(s->shape) ? h : b;
            pala_vec3 A = pala_vaxpy(s->point, -e, l), B = pala_vaxpy(s->point, e, l);
            return add_quad(out, 0, max, &p, A, B, B, A);
        }
        pala_vec3 c = s->point;
        return add_quad(out, 0, max, &p, pala_vaxpy(pala_vaxpy(c, -a, u), -b, v), pala_vaxpy(pala_vaxpy(c, a, u), -b, v),
                        pala_vaxpy(pala_vaxpy(c, a, u), b, v), pala_vaxpy(pala_vaxpy(c, -a, u), b, v));
    }
    if (s->shape == PALA_SURF_MESH) {   /* its triangles (as many as fit) */
        const pala_mesh *m = mesh_of(s);
        for (int i = 0; m && i < m->nface; i++) {
            pala_vec3 a = pala_vadd(s->point, m->vert[m->face[i][0]]), b = pala_vadd(s->point, m->vert[m->face[i][1]]),
                      c = pala_vadd(s->point, m->vert[m->face[i][2]]);
            n = add_quad(out, n, max, &p, a, b, c, c);
        }
        return n;
    }
    double R[NVERT], Z[NVERT];
    int nv;
    if (!isfinite(s->L)) { R[0] = R[1] = s->Rg; Z[0] = -h; Z[1] = h; nv = 2; }
    else nv = meridian(s, R, Z);
    int sectors = w->dim == 2 ? 4 * SECTORS : SECTORS;
    for (int j = 0; j < sectors; j++) {
        double f0 = 2 * PALA_PI * j / sectors, f1 = 2 * PALA_PI * (j + 1) / sectors;
        pala_vec3 r0 = pala_vaxpy(pala_vscale(cos(f0), s->u), sin(f0), s->v), r1 = pala_vaxpy(pala_vscale(cos(f1), s->u), sin(f1), s->v);
        if (w->dim == 2) {   /* the circle z = 0 */
            pala_vec3 A = pala_vaxpy(s->point, s->Rg, r0), B = pala_vaxpy(s->point, s->Rg, r1);
            n = add_quad(out, n, max, &p, A, B, B, A);
            continue;
        }
        for (int i = 0; i + 1 < nv; i++) {
            pala_vec3 a0 = pala_vaxpy(pala_vaxpy(s->point, Z[i], s->e), R[i], r0), a1 = pala_vaxpy(pala_vaxpy(s->point, Z[i], s->e), R[i], r1);
            pala_vec3 b0 = pala_vaxpy(pala_vaxpy(s->point, Z[i + 1], s->e), R[i + 1], r0), b1 = pala_vaxpy(pala_vaxpy(s->point, Z[i + 1], s->e), R[i + 1], r1);
            n = add_quad(out, n, max, &p, a0, a1, b1, b0);
        }
    }
    return n;
}

/* the accounts and the servo: a checkpoint keeps them */
static void *surface_state(pala_world *w, pala_wall *wl, int i, const char **name, size_t *elem, long *count)
{
    (void)w;
    pala_surface *s = wl->par;
    static const char *const what[5] = {"P", "L", "W", "Pn", "servo"};
    if (i < 0 || i >= 5) return NULL;
    snprintf(s->state_name[i], sizeof s->state_name[i], "wall.%s.%s", s->name, what[i]);
    *name = s->state_name[i];
    *elem = i < 2 ? sizeof(pala_vec3) : sizeof(double);
    *count = i == 4 ? 3 : 1;
    void *const at[5] = {&s->imp, &s->ang, &s->work, &s->rad, s->servo};
    return at[i];
}

/* a mesh is shared by the copies of its wall: the last to go frees it */
static void surface_release(pala_wall *wl)
{
    pala_surface *s = wl->par;
    if (s->mr && --s->mr->refs == 0) { pala_mesh_free(s->mr->m); free(s->mr); }
    s->mr = NULL;
    if (s->near) { free(s->near->start); free(s->near->face); free(s->near); }
    s->near = NULL;
}
static void surface_copied(pala_wall *wl)
{
    pala_surface *s = wl->par;
    if (s->mr) s->mr->refs++;
    s->near = NULL;   /* the copy gathers its own at its first list build */
}

/* its one face: the section's name */
static const char *surface_face(const pala_world *w, const pala_wall *wl, int i)
{
    (void)w; (void)i;
    return ((const pala_surface *)wl->par)->name;
}

/* a [wall] section adds its wall itself (scene.c), never the top-level keys */
static int surface_present(const void *par) { (void)par; return 0; }

const pala_wall_kind pala_wall_surface = {
    .name = "surface", .what = "a wall", .container = 0, .nfaces = 1, .size = sizeof(pala_surface), .present = surface_present,
    .check = surface_check, .clear = surface_clear, .inside = surface_inside, .bounds = surface_bounds, .cut = surface_cut,
    .room = surface_room, .touch = surface_touch, .lowest = surface_lowest, .columns = surface_columns, .face = surface_face, .line = surface_line,
    .parse = surface_parse, .draw = surface_draw, .state = surface_state, .release = surface_release, .copied = surface_copied,
};

double pala_world_wall_work(const pala_world *w)
{
    double W = 0;
    for (int i = 0; i < w->nsurf; i++) W += ((const pala_surface *)w->walls[w->surf0 + i].par)->work;
    return W;
}

/* ---- the accounts and the servos after a step ---------------------------------------------- */
void pala_surfaces_reduce(pala_world *w, const pala_surfsum *sums, int nblk, double dt)
{
    for (int i = 0; i < w->nsurf; i++) {
        pala_surface *s = w->walls[w->surf0 + i].par;
        pala_surfsum a = {{0, 0, 0}, {0, 0, 0}, 0, 0};
        for (int b = 0; b < nblk; b++) {
            const pala_surfsum *q = &sums[(long)b * w->nsurf + i];
            a.imp = pala_vadd(a.imp, q->imp); a.ang = pala_vadd(a.ang, q->ang);
            a.work += q->work; a.rad += q->rad;
        }
        s->imp = pala_vadd(s->imp, a.imp); s->ang = pala_vadd(s->ang, a.ang);
        s->work += a.work; s->rad += a.rad;
        if (s->servo_pressure > 0 && dt > 0) {
            /* the servo (docs/physics.md, "Servo walls"): over the next step it moves along n
             * at gain (P_target - P), P this step's pressure, at most servo_speed */
            double t1 = w->t + 0.5 * dt, P = a.rad / (dt * pala_surface_area(s));
            s->servo[0] += s->servo[1] * (t1 - s->servo[2]);
            s->servo[2] = t1;
            s->servo[1] = fmax(-s->servo_speed, fmin(s->servo_speed, s->servo_gain * (s->servo_pressure - P)));
        }
    }
}

/* surface.h: the walls of [wall NAME] sections (surface.c): planes, rectangles, discs,
 * cylinders and cones (in 2D lines, segments and circles), each with its own material, its
 * motion (a velocity, a rotation that may spin up, an oscillation, a servo that holds a
 * pressure) and its own accounts: the momentum, the angular momentum about its centre and
 * the work it received or did (docs/physics.md, "Walls that move").  The wall kind
 * "surface" (container.h) carries them; this header is what the force pass, the step and
 * the scene reader need besides the kind's table. */
#ifndef PALA_SURFACE_H
#define PALA_SURFACE_H
#include "pala/pala.h"

/* shape = ... (the words of keys.c, in this order) */
enum pala_surface_shape {
    PALA_SURF_PLANE, PALA_SURF_RECTANGLE, PALA_SURF_DISC, PALA_SURF_CYLINDER, PALA_SURF_CONE,
    PALA_SURF_LINE, PALA_SURF_SEGMENT, PALA_SURF_CIRCLE, PALA_SURF_MESH
};
/* caps = none | start | end | both (bits: 1 the disc at point, 2 the one at the far end) */
enum { PALA_SURF_CAP_START = 1, PALA_SURF_CAP_END = 2 };

/* The pose of a wall at a time: a point X0 of the wall as written is at
 * c + d + R (X0 - c), and moves at v + Om x (X - c - d) (docs/physics.md, "Walls that move"). */
typedef struct pala_pose {
    double R[3][3];
    pala_vec3 c, d, v, Om;
    int turned;                /* R is not the identity */
    double grow, growv;        /* a cylinder's servo: its radius grows by grow, at growv, m/s */
} pala_pose;

/* A fixed mesh's faces near each pebble p, face[start[p] .. start[p + 1]): those a
 * component of radius a may touch while its centre stays within the skin of where it was
 * at list build `builds` (pala_mesh_near), when the list's drift bound was `drift`, each
 * with the distance the centre must move before it can touch.  A pebble stays within
 * drift + (the bound now) of there: while that is below the skin, these faces, less those
 * whose gap it has not reached, hold every face it touches, so each step asks them alone
 * rather than the grid (the same hits, bit for bit: pala_mesh_touch_near). */
typedef struct pala_meshnear {
    long builds;
    double drift, skin;
    int npeb;
    int *start;
    struct pala_mesh_nearface *face;
    long nface, cap;
} pala_meshnear;

/* A [wall NAME] section's keys and the wall's state (pala_wall.par of kind "surface"). */
typedef struct pala_surface {
    /* the keys (keys.c binds them) */
    const char *material;      /* the section name of its material (the scene's text) */
    int shape;                 /* enum pala_surface_shape */
    pala_vec3 point, normal, axis, edge;
    double size[2];            /* rectangle: extents along edge and along normal x edge, m */
    double radius, radius_end, length, area, draw_size;
    int caps;                  /* PALA_SURF_CAP_* */
    int side;                  /* where placement puts grains: 0 either side, 1 inside the
                                * cylinder or cone (and its length) or closed mesh, 2 outside;
                                * a mesh touches them on that side only */
    const char *file;          /* mesh: its STL file as written (the scene's text) */
    double scale;              /* mesh: its coordinates times this are metres */
    char path[1024];           /* mesh: the file, resolved against the control file's folder */
    struct pala_meshref *mr;   /* mesh: the mesh read (shared by the copies of the wall) */
    struct pala_meshnear *near;   /* a mesh that does not move: its faces near each component,
                               * gathered at each list build (pala_surfaces_listed); its own */
    pala_vec3 velocity, omega, centre, amplitude;
    int centre_set;            /* 0: rotation_centre not given, the point */
    double spin_up, frequency;
    double servo_pressure, servo_gain, servo_speed;
    /* ---- derived by the check (unit vectors; the segment of a cone or cylinder) ---- */
    pala_vec3 n, e, u, v;      /* plane: normal n, in-plane u, v; axial shapes: axis e */
    double ext[2];             /* rectangle, segment: half its sides along u and v, m */
    double L;                  /* cylinder, cone: its length (inf: infinite both ways) */
    int cap;                   /* its caps (a circle none) */
    double Rg;                 /* a cylinder's radius now (its servo moves it), m */
    /* a finite surface of revolution: its meridian as Rg makes it (surface.c, meridian) */
    int nmer;                  /* its vertices */
    double mrho[4], mz[4];     /* each vertex (rho, z), m */
    double mbox[3][4];         /* each segment's box: rho from, to, z from, to, m */
    double mden[3];            /* each segment's squared length, dr^2 + dz^2, m^2 */
    double mext;               /* the largest |rho| or |z| of a vertex, m */
    int moving;                /* it moves (its pose is set before each force evaluation) */
    int still;                 /* ... in itself, taking the same space (surface.c, still) */
    char name[32];             /* the section's name */
    /* ---- state: the accounts, the servo (checkpointed, pala_world_wall_state) ---- */
    pala_vec3 imp;             /* momentum received, N s */
    pala_vec3 ang;             /* angular momentum received about the wall's centre, N m s */
    double work;               /* work done on the grains, J */
    double servo[3];           /* the servo: its displacement along n (m) at time servo[2] (s), its velocity (m/s) */
    double rad;                /* radial (outward) or normal (into the wall) momentum, N s */
    char state_name[5][48], col[9][48];   /* the names of its checkpoint fields and columns */
    /* ---- the pose at the time of the current force evaluation (pala_surfaces_move) ---- */
    pala_pose pose;
} pala_surface;

/* The sums of one block over the surface walls (force_pass.c adds, pala_surfaces_reduce
 * takes them in block order). */
typedef struct pala_surfsum {
    pala_vec3 imp, ang;
    double work, rad;
} pala_surfsum;

/* 1 if some surface wall of w moves (its pose is set before each force evaluation). */
int pala_surfaces_moving(const pala_world *w);
/* The fastest a [wall]'s surface moves where the grains are, m/s (the check of dt adds it
 * to the grains' impact speed). */
double pala_surfaces_speed(const pala_world *w);
/* ... and the name of the wall whose speed is the largest (or not a number) into *fastest
 * (left as it is if no wall moves). */
double pala_surfaces_speed_of(const pala_world *w, const char **fastest);
/* The neighbour list was built (or the sweep set up again): each mesh wall that does not
 * move gathers the faces near the components of the wall candidates (serial). */
void pala_surfaces_listed(pala_world *w);
/* The pose of every surface wall at time t (serial; before the sweep). */
void pala_surfaces_move(pala_world *w, double t);
/* The kind of a [wall] (surface.c). */
extern const struct pala_wall_kind pala_wall_surface;
/* The lowest height (along the unit vector up) of wall s as written (its pose at t = 0,
 * without motion), m; NaN if it has none (a plane or an infinite cylinder that is not
 * level runs down forever). */
double pala_surface_lowest(const pala_surface *s, pala_vec3 up);
/* The pose of wall s at time t. */
pala_pose pala_surface_pose(const pala_surface *s, double t);
/* After a step's force pass: the block sums into each wall's accounts (block order), and
 * the servos' motion over the step dt. */
void pala_surfaces_reduce(pala_world *w, const pala_surfsum *sums, int nblk, double dt);
/* The area its normal momentum is received on (a mean pressure's), m^2 (2D: m); 0: none. */
double pala_surface_area(const pala_surface *s);
/* The angular velocity of the surface of face f (0 but for a turning [wall]): the rolling
 * and torsion springs of a wall contact take the grain's relative to it. */
static inline pala_vec3 pala_face_omega(const pala_world *w, int face)
{
    if (face < PALA_WALL_FACES) return pala_v(0, 0, 0);
    return ((const pala_surface *)w->walls[w->surf0 + face - PALA_WALL_FACES].par)->pose.Om;
}
/* The index among the surface walls of face f (f >= PALA_WALL_FACES), and its wall. */
static inline int pala_surface_index(int face) { return face - PALA_WALL_FACES; }

#endif

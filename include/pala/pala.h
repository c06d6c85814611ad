/* pala.h: the public interface of the pala library.
 *
 * pala simulates polyspherical grains (rigid unions of overlapping spheres) after
 * U. Mutze, "Polyspherical grains and their dynamics" ("the paper"; equation numbers
 * below are the paper's).  Units are SI throughout.
 *
 * Naming (see docs/design.md): every exported symbol starts with `pala_`; the next word
 * names the object acted on (pala_rot_, pala_template_, pala_world_, pala_scene_ ...).
 */
#ifndef PALA_H
#define PALA_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "pala/vec.h"

#define PALA_VERSION "0.1.0"

/* Exit codes of the `pala` program and status codes of library calls.
 *
 * Errors, one way: a call on a world that can fail returns a status (PALA_OK, or
 * PALA_ERR_INPUT, PALA_UNSTABLE) or, if it adds something, its index (or -1); when it fails,
 * pala_world_error(w) holds the message: what was refused, named as this header names it
 * (a field of a struct of a part: "material 2 (glass): 'alpha = 3': must be between 0 and 1",
 * "'w.dt = 0': must be positive (s)"), the value, what was expected and what to change.  The
 * control-file reader (pala_scene_load) prints the same messages to its FILE *err, each at
 * the file and line of the key that sets the field ("run.txt:12: [material glass]:
 * 'fractional_order = 3': must be between 0 and 1"). */
enum pala_status {
    PALA_OK = 0,
    PALA_ERR_INPUT = 1,      /* bad control file, bad command line, unusable input file */
    PALA_UNSTABLE = 2,       /* non-finite state or runaway overlap: logs flushed, run stopped */
    PALA_CHECK_FAILED = 3,   /* `pala check`: curves differ beyond tolerance */
    PALA_INTERRUPTED = 4,    /* SIGINT/SIGTERM: logs flushed, run stopped */
    PALA_ERR_IO = 5          /* cannot write output, out of memory */
};

/* ---- rotation vectors (paper section 2) -------------------------------------------
 * A rotation vector r = tan(phi/2) n describes the rotation by angle phi about the unit
 * axis n in the right-hand sense (eq. 8). */
/* pala_rot_apply (r * x, eq. 6), pala_rot_compose (r o r2, eq. 7) and pala_rot_exp
 * (eq. 14) are inline in pala/vec.h. */
void pala_rot_matrix(pala_vec3 r, double m[3][3]);              /* eqs. (11)-(13), transposed (docs/physics.md, "Erratum 1") */
pala_vec3 pala_rot_omega(pala_vec3 r, pala_vec3 rdot);          /* eq. (19) */
pala_vec3 pala_rot_from_axis_angle(double phi, pala_vec3 n);    /* eq. (8) */
pala_vec3 pala_rot_from_matrix(double m[3][3]);           /* inverse of pala_rot_matrix */
/* L_r v for L diagonal in the body frame, L = diag(d): eq. (16). */
pala_vec3 pala_rot_diag_apply(pala_vec3 r, const double d[3], pala_vec3 v);
/* 3x3 symmetric eigen-solver (cyclic Jacobi): a = O^T diag(w) O, rows of O are the
 * eigenvectors, w ascending, det O = +1. */
void pala_sym3_eigen(double a[3][3], double w[3], double o[3][3]);

/* ---- random numbers: splitmix64, owned by the world, seeded by the scene ---------- */
typedef struct pala_rng { uint64_t s; } pala_rng;
void pala_rng_seed(pala_rng *g, uint64_t seed);
uint64_t pala_rng_u64(pala_rng *g);
double pala_rng_uniform(pala_rng *g);                  /* [0, 1) */
double pala_rng_normal(pala_rng *g);                   /* standard normal */
pala_vec3 pala_rng_unit(pala_rng *g, int dim);         /* isotropic unit vector (in plane if dim 2) */

/* ---- materials (eq. 52) ------------------------------------------------------------ */
typedef struct pala_material {
    char name[32];
    double rho;     /* density, kg/m^3 */
    double E;       /* Young's modulus, Pa */
    double sigma;   /* Poisson's ratio, [0, 0.5] */
    double delta;   /* square of the normal restitution coefficient, [0, 1] */
    double mu;      /* friction coefficient, >= 0 */
    double nu;      /* regularising velocity of the friction law, m/s */
    /* contact laws with history (docs/physics.md, "Contact history"); all 0: the paper's laws */
    int tlaw;       /* enum pala_tlaw: the tangential law; 0: the world's (pala_world.tlaw) */
    double kt;      /* tangential spring stiffness of tlaw = PALA_TLAW_SPRING, N/m */
    double kroll;   /* rolling stiffness, N m/rad (0: no rolling resistance) */
    double muroll;  /* rolling friction: the rolling moment is capped at muroll R* F_n */
    double ktor;    /* torsion stiffness, N m/rad (0: no torsion resistance) */
    double mutor;   /* torsion friction: the torsion moment is capped at mutor R* F_n */
    int nlaw;       /* enum pala_nlaw: the normal law */
    double alpha;   /* fractional law: order of the derivative, [0, 1] */
    double fc, fk;  /* fractional law: damping c, N s/m, and stiffness k, N/m (seed eq. 7) */
    double kn;      /* linear spring (normal_law = hooke): stiffness k_n, N/m */
    int damp;       /* enum pala_damp: how the normal force dissipates; 0: the world's (pala_world.damp) */
} pala_material;
/* Tangential laws: the paper's regularised friction (eq. 53), or a spring with a Coulomb
 * cap of constant stiffness (Cundall-Strack) or of Mindlin's no-slip stiffness. */
enum pala_tlaw { PALA_TLAW_WORLD = 0, PALA_TLAW_REGULARISED = 1, PALA_TLAW_SPRING = 2, PALA_TLAW_MINDLIN = 3 };
/* Normal laws: Hertz (eq. 57), the fractional-derivative law P = c^a k^(1-a) D^a(zeta), or
 * the linear spring k_n (-d) (docs/physics.md, "The linear spring-dashpot"). */
enum pala_nlaw { PALA_NLAW_HERTZ = 0, PALA_NLAW_FRACTIONAL = 1, PALA_NLAW_HOOKE = 2 };
/* Normal dissipation (docs/physics.md, "The normal dashpot"): eq. (56), the Hertz force
 * scaled by delta while the pair separates (a switch), or a continuous dashpot whose
 * restitution is sqrt(delta) at every impact speed. */
enum pala_damp { PALA_DAMP_WORLD = 0, PALA_DAMP_SWITCH = 1, PALA_DAMP_DASHPOT = 2 };

/* ---- grain templates (paper section 3.1) --------------------------------------------
 * A template holds what all grains of one type share: component radii and shape vectors
 * (in the principal body frame, so the inertia tensor is diagonal), mass, principal
 * moments and bounding radius.  Grains refer to their template by index. */
typedef struct pala_template {
    char name[32];
    int material;          /* index into world->mat */
    int ncomp;             /* number of component spheres */
    int comp0;             /* first component in world->shape / world->shape_r */
    double volume;         /* m^3 (eq. 31); exact for one sphere */
    double volume_stderr;  /* standard error of the Monte Carlo volume, m^3 (0 if exact) */
    long mc_samples;       /* Monte Carlo samples used (0 if exact) */
    double mass;           /* kg */
    double inertia[3];     /* principal moments I_alpha, kg m^2 (eq. 33) */
    double inv_inertia[3]; /* 1/I_alpha */
    double bound_radius;   /* r of eq. (32): bounding sphere about the centre of mass, m */
    int isotropic;         /* 1: all three moments equal: free rotation leaves omega unchanged
                              and I_r^-1 T = T / I_1; 3: a grain of a 2D world (an arc grain,
                              a planar union of spheres) that turns about z alone, its third
                              principal axis, so the same holds with I_3 (docs/physics.md,
                              "Arc grains", "2D mode"; pala_world_add_template sets it); 0: neither */
    pala_vec3 frame;       /* rotation vector from the principal frame to the frame the
                              components were given in (the "as written" orientation) */
    pala_vec3 com_given;   /* centre of mass in the frame the components were given in */
    /* point charge and dipoles at the centre of mass (paper feature v; docs/physics.md,
     * "Charges, dipoles and fields"); the dipoles are fixed in the principal body frame, so
     * they turn with the grain.  All zero by default. */
    double charge;         /* C */
    pala_vec3 edip;        /* electric dipole moment, principal body frame, C m */
    pala_vec3 mdip;        /* magnetic dipole moment, principal body frame, A m^2 */
} pala_template;

/* 1 if components (c, rad) are invariant under the rotations of a regular tetrahedron
 * (two non-parallel three-fold axes through their centroid, returned): the inertia is
 * then isotropic and the centroid the centre of mass, exactly (builder.c). */
int pala_tetrahedral_symmetry(int n, const pala_vec3 *c, const double *rad, pala_vec3 *centroid);
/* A template is built from its components and added to a world by
 * pala_world_build_template (below). */
/* Scale a built template (and its n shape vectors and radii) so its volume equals that
 * of a sphere of radius req.  Exact: the Monte Carlo estimate scales with the grain.  For a
 * template of a world: pala_template_scale(&w->tmpl[i], w->shape + c0, w->shape_r + c0, req)
 * with c0 = w->tmpl[i].comp0. */
void pala_template_scale(pala_template *t, pala_vec3 *shape, double *rad, double req);
/* The paper's sequence zeta_k = frac(1e6 sin k) (eq. 30). */
double pala_zeta(long k);

/* Arc grains (2D; Potapov and Campbell, seed 001; docs/physics.md, "Arc grains"): a convex
 * outline of circular arcs joined with a continuous tangent.  An arc is its circle's centre
 * c (z = 0) and radius R and the angles a0 < a1 of its ends, counter-clockwise about c
 * (rad); consecutive arcs of a grain join where a1 of one is a0 of the next (mod 2 pi). */
typedef struct pala_arc { pala_vec3 c; double R, a0, a1; } pala_arc;
/* A component of a template in an arc world: the directions the arc spans, as its
 * bisector m (unit, principal frame) and cos of its half-width (a direction u belongs to
 * the arc when u.m >= ch; -2: a whole circle, a sphere's), the deepest overlap dl (m) that a
 * contact of the arc can have (half the grain's shortest chord along the arc's inward
 * normals, eq. A9 of docs/physics.md; HUGE_VAL for a whole circle), and the arc's bounding
 * circle (centre b, radius br), which the neighbour list uses in place of the arc's circle;
 * pad: none, a range of 64 bytes, a cache line (the Table-1 quasi-triangles 1.2 % faster than
 * with 56: docs/performance.md, "Arc grains"). */
typedef struct pala_arcrange { double mx, my, ch, dl, bx, by, br, pad; } pala_arcrange;
/* The arcs of a regular quasi-polygon of `sides` >= 2 sides (2: an oval): corners of radius
 * rc, their tips at distance radius from the centre, joined by sides of radius rs >= radius
 * (rs = radius: a disc), into out (2 sides arcs), starting with the corner on +x.  Returns
 * the arc count, or -1 with the reason in err. */
int pala_arcs_regular(int sides, double radius, double rc, double rs, pala_arc *out, char *err, size_t errlen);

/* Random grain factory (the paper's gamma, eq. 22). */
typedef struct pala_factory {
    int nmin, nmax;         /* number of components, uniform in [nmin, nmax] */
    double rmin, rmax;      /* component radius, uniform in [rmin, rmax], m */
    double spread;          /* centre spread: each new centre sits at distance
                               spread*(r_a + r_b) from an existing centre, (0, 1) */
} pala_factory;
/* Generate one grain (centres, radii, count) that is connected and has no sphere inside
 * another.  c and rad must hold nmax entries. Returns the number of components. */
int pala_factory_make(const pala_factory *f, pala_rng *g, int dim, pala_vec3 *c, double *rad);

/* ---- the world ---------------------------------------------------------------------- */
enum pala_hertz { PALA_HERTZ_PAPER = 0, PALA_HERTZ_TEXTBOOK = 1 };
enum pala_rotstep { PALA_ROTSTEP_MIDPOINT = 0, PALA_ROTSTEP_PAPER = 1 };
enum pala_sphere_orient { PALA_SPHERES_TRACK = 0, PALA_SPHERES_FIXED = 1 };
/* The magnetic Lorentz force q v x B in the kick (docs/physics.md, "The Lorentz force"):
 * implicit midpoint in v (no work, exactly), or the paper's midpoint velocity estimate. */
enum pala_lorentz { PALA_LORENTZ_IMPLICIT = 0, PALA_LORENTZ_PAPER = 1 };

/* Combined material data of a pair of materials (eq. 55), precomputed. */
typedef struct pala_pairmat {
    double kE;     /* c_H * E~ : F_Hertz = kE sqrt(r~) (-d)^{3/2}, eq. (57) */
    double delta;  /* delta~ */
    double mu;     /* mu~ */
    double nu;     /* nu~, m/s */
    /* the laws with history (docs/physics.md, "Contact history"), mixed by H or set by a pair */
    int tlaw;      /* enum pala_tlaw, resolved (never PALA_TLAW_WORLD) */
    double kt;     /* spring: k_t, N/m; Mindlin: k_t = kG sqrt(r~ (-d)) with kG = 2 sqrt(2) G~ */
    double kG;     /* Mindlin's prefactor, Pa */
    double kroll, muroll, ktor, mutor;   /* rolling and torsion: stiffness N m/rad, friction */
    int nlaw;      /* enum pala_nlaw */
    double alpha, fc, fk;   /* fractional law */
    double kn;     /* linear spring: k_n, N/m */
    int damp;      /* enum pala_damp, resolved (never PALA_DAMP_WORLD) */
    double cdamp;  /* dashpot: its dimensionless constant c (docs/physics.md, "The normal dashpot") */
} pala_pairmat;
/* A pair of materials with its own values, overriding the mixing rule (a [pair A B]
 * section); set: which fields were given (bits PALA_PAIR_*). */
enum { PALA_PAIR_MU = 1, PALA_PAIR_DELTA = 2, PALA_PAIR_NU = 4, PALA_PAIR_KROLL = 8, PALA_PAIR_MUROLL = 16,
       PALA_PAIR_KTOR = 32, PALA_PAIR_MUTOR = 64, PALA_PAIR_KT = 128, PALA_PAIR_TLAW = 256, PALA_PAIR_DAMP = 512 };
typedef struct pala_pairset {
    int a, b;      /* the two materials (either order) */
    int set;       /* PALA_PAIR_* bits */
    double mu, delta, nu, kroll, muroll, ktor, mutor, kt;
    int tlaw;
    int damp;      /* enum pala_damp */
} pala_pairset;

typedef struct pala_energy {
    double kin, rot, contact, field, total;   /* J; field: -m g.x - q E.x - p.E - m.B */
    double inter;                              /* interactions between centres (E_pair), J (in total) */
} pala_energy;

struct pala_world;
/* A force between grain centres at long range (point masses, charges, dipoles: docs/
 * design.md, "Extension points").  forces() adds to F[k] and T[k] the force (N) and the
 * torque (N m) on every grain k at the current state and returns the potential energy of
 * the interaction, J, which joins E_total: the forces must derive from it.  They are
 * evaluated once a step, at the midpoint state of eq. (67). */
typedef struct pala_interaction {
    const char *name;
    double (*forces)(const struct pala_world *w, void *ctx, pala_vec3 *F, pala_vec3 *T);
    void *ctx;
} pala_interaction;
/* Forces an embedding program adds to the grains, like REBOUND's additional_forces: fn
 * adds to F[k], T[k] (N, N m) at the midpoint state of each step.  pala does not know a
 * potential for them: their work over each step is counted in E_diss (the energy column
 * of the non-conservative forces), so the energy balance still closes. */
typedef void (*pala_additional_forces)(const struct pala_world *w, void *user, pala_vec3 *F, pala_vec3 *T);

/* ---- walls (src/lib/container.h; docs/design.md, "Adding a wall kind") ------------------
 * A wall of the world is a kind (the box, the spherical cavity, the membrane: their keys in
 * docs/control-file.md) with its parameters, which the kind owns and reads itself, and its
 * material.  pala_world_add_wall makes one, pala_world_wall_set sets a parameter by the name
 * of its control-file key, as a control file writes its value. */
struct pala_wall_kind;
typedef struct pala_wall {
    const struct pala_wall_kind *kind;
    void *par;                     /* the kind's parameters (its own struct; owned by the world) */
    int mat;                       /* material of the wall */
    int face0;                     /* its first face: the accounts of its momentum start at
                                      wall_impulse[face0] */
} pala_wall;
/* The faces whose momentum the world accounts for: 0-5 the container's, 6-7 a wall inside it. */
enum { PALA_WALL_FACES = 8 };
/* A shape a wall is drawn with (pala_world_wall_draw): what `pala view`, `pala snapshot` and
 * the VTK export draw, knowing the shapes but not the kinds.  In 2D (the plane z = 0) a box
 * is its rectangle and a sphere its circle. */
enum pala_draw_shape {
    PALA_DRAW_BOX,                 /* p[0], p[1]: the lowest and highest corners */
    PALA_DRAW_SPHERE,              /* p[0]: the centre; r: the radius */
    PALA_DRAW_QUAD                 /* p[0..3]: the corners of a flat quadrilateral, in order */
};
typedef struct pala_draw {
    int shape;                     /* enum pala_draw_shape */
    int guide;                     /* 1: an outline of where a wall lies, not its surface (the
                                      membrane's plane: the snapshot dashes it, the VTK export of
                                      surfaces leaves it out) */
    pala_vec3 p[4];                /* m */
    double r;                      /* m */
} pala_draw;

typedef struct pala_world {
    int dim;                       /* 2 or 3 */
    /* walls: walls[0] is the container if there is one (a box, a cavity), then the walls
     * inside it (a membrane); pala_world_add_wall */
    pala_wall *walls;
    int nwalls;
    pala_vec3 wall_impulse[PALA_WALL_FACES];   /* momentum each face of the walls received
                                      (pala_wall.face0; the box: xlo, xhi, ylo, yhi, zlo, zhi;
                                      the cavity: [0]; a membrane: from grains whose centre lies
                                      below, above its plane), N s */
    double wall_radial;            /* the normal momentum the walls received, outward, N s (the
                                      cavity's radial momentum) */
    int wall_mat, mem_mat;         /* set by pala_world_add_wall: the materials of faces 0-5 and
                                      6-7 (contact.h reads them) */
    int surf0, nsurf;              /* the walls of [wall] sections (kind "surface", surface.h):
                                      walls[surf0 .. surf0 + nsurf), the last of the list; their
                                      faces are PALA_WALL_FACES + their index among them */
    pala_vec3 g;                   /* homogeneous acceleration field, m/s^2; may be changed
                                      between steps (the step sees it) */
    pala_vec3 field_ref;           /* zero of the field energy -m g.(x - field_ref): the
                                      container's lowest point along g (origin if none) */
    double diss;                   /* energy dissipated by restitution and friction so far, minus
                                      the work of additional forces, J (E_diss) */
    /* gravitation, charges, dipoles and the homogeneous E and B fields (paper features v-vi;
     * docs/physics.md, "Charges, dipoles and fields"); all zero: off, and free */
    double grav_G;                 /* gravitational constant of the grains' mutual attraction,
                                      m^3/(kg s^2) */
    double eps_r;                  /* relative permittivity of the medium (0 is read as 1) */
    double cutoff;                 /* centre interactions: 0 all pairs; else range, m (switched
                                      off smoothly below it) */
    pala_vec3 E, B;                /* homogeneous fields at t = 0, V/m and T */
    pala_vec3 E_turn, B_turn;      /* angular velocity the fields turn with, rad/s:
                                      E(t) = R(E_turn t) E (eq. 5 with phi = |E_turn| t) */
    int lorentz;                   /* enum pala_lorentz */
    double wfield;                 /* work done on the grains by the turning fields so far, J
                                      (W_field) */
    double ein, eout;              /* energy the grains inserted so far brought in (E_in) and the
                                      grains removed so far took out (E_out), J (docs/physics.md,
                                      "Grains that enter and leave") */
    int hertz;                     /* enum pala_hertz */
    int rotation_step;             /* enum pala_rotstep: free rotation in Phi (eq. 59) */
    int sphere_orientation;        /* enum pala_sphere_orient: FIXED, a world of spheres leaves r as placed
                                      (docs/physics.md, "Spheres whose orientation is fixed") */
    double max_overlap;            /* unstable when an overlap exceeds this fraction of the
                                      smaller component radius */
    /* a background fluid (docs/physics.md, "Drag and buoyancy"): on each component sphere of
     * radius a the Stokes drag -6 pi eta a (v_c - u) and the torque -8 pi eta a^3 omega, their
     * work in E_diss; the buoyancy -rho_f V g of each grain.  All zero: no fluid, and free */
    double fluid_eta;              /* dynamic viscosity eta, Pa s */
    double fluid_rho;              /* density rho_f, kg/m^3 */
    pala_vec3 fluid_u;             /* velocity u of the fluid, m/s (uniform) */
    /* materials and templates */
    int nmat, ntmpl, nshape;
    pala_material *mat;
    pala_pairmat *pm;              /* (nmat) x (nmat) table */
    pala_pairset *pairs;           /* pairs of materials with their own values (npairs) */
    int npairs;
    int tlaw;                      /* enum pala_tlaw: the tangential law of materials that leave
                                      it to the world (0: regularised) */
    int damp;                      /* enum pala_damp: the normal dissipation of materials that
                                      leave it to the world (0: the switch of eq. 56) */
    pala_template *tmpl;
    pala_vec3 *shape;              /* shape vectors of all templates, principal frame, m */
    double *shape_r;               /* component radii, m */
    pala_arcrange *arc;            /* arc grains: each component's range and bounding circle
                                      (pala_arcrange); NULL in a world without them, which
                                      pays nothing for them */
    /* grains: hot state, contiguous per field */
    int n, cap;
    pala_vec3 *x, *r, *v, *w;      /* position m, rotation vector, velocity m/s, angular velocity 1/s */
    pala_vec3 *acc, *bacc;         /* accelerations alpha (m/s^2), beta (1/s^2) of the last step */
    int *tid;                      /* template index */
    int *gid;                      /* grain k's number in the input (0-based), NULL if the same:
                                      grains are stored in spatial order (pala_world_sort), and
                                      a world whose grains enter and leave keeps their numbers */
    int *inv;                      /* where input grain i is stored: gid[inv[i]] == i; -1 for a
                                      grain that left */
    int nid;                       /* grains numbered so far (0 .. nid - 1 in the order they were
                                      added); n when none left, else more */
    int icap;                      /* room in inv */
    int *p0;                       /* first pebble (component instance) of each grain */
    /* pebbles: world positions of all components, recomputed from shape vectors.  In a
     * world of spheres only, pebble k is grain k at x[k]: p0 and pc stay NULL (saving 28
     * bytes per sphere) until pala_world_place_pebbles asks for them. */
    int npeb;
    pala_vec3 *pc;                 /* pebble centres, m */
    int *pg;                       /* grain of each pebble (NULL for spheres only) */
    pala_arcrange *parc;           /* arc worlds: each pebble's range and bounding circle in
                                      the world frame (with pc); NULL otherwise */
    double *arcv;                  /* arc worlds: per component of the templates, (s_x, s_x,
                                      m_x, m_x, s_y, s_y, m_y, m_y), its shape vector and
                                      bisector as the placement's vectors read them (grain.c);
                                      NULL otherwise */
    int nthreads;                  /* threads of the step (0 or 1: the caller only) */
    int threads_auto;              /* nthreads is a default, not asked for: the step runs on one
                                    * thread while that is faster (another process holds a core) */
    /* forces beyond contacts and the field */
    pala_interaction *inter;       /* interactions between centres (pala_world_add_interaction) */
    int ninter;
    pala_additional_forces additional_forces;   /* NULL, or the embedding program's forces */
    void *af_user;                 /* passed to additional_forces */
    /* time */
    double t, dt;                  /* s; dt may be changed between steps */
    long step;
    double skin;                   /* Verlet skin of the neighbour list, m; 0: 0.2 x the largest
                                      component radius (chosen by pala_world_prepare) */
    long sort_every;               /* steps between the checks of the grains' spatial order
                                      (pala_world_resort); 0: never (the default of
                                      pala_world_init and of control files) */
    /* internals of the step, made by pala_world_prepare, each owned by its module (src/lib/) */
    struct pala_nlist *nl;         /* neighbour list (neighbor.h) */
    struct pala_team *team;        /* threads and the split of the work (threads.h) */
    struct pala_work *work;        /* scratch of the step (work.h) */
    struct pala_grain_forces *forces;   /* what the grains' sums start from (grain_forces.h) */
    struct pala_field *field;      /* charges, dipoles, the E and B fields (field.h) */
    struct pala_centre *centre;    /* interactions between centres (centre.h) */
    struct pala_feed *feed;        /* inserters and outlets (feed.h); NULL: the grains stay */
    int prep_n, prep_nmat, prep_ntmpl;   /* grains, materials, templates pala_world_prepare
                                            set up for (world.c) */
    /* diagnostics of the last force pass */
    long ncontact;                 /* touching component pairs (grain-grain and wall) */
    double worst_overlap;          /* largest overlap / smaller radius */
    char why[512];                 /* the message of pala_world_error (read it there) */
} pala_world;

/* Building a world: init, then materials, templates, grains, walls and the fields above
 * (dim, g, dt, ...), then pala_world_prepare, which checks them all, then steps.  A call
 * that fails says why in pala_world_error(w).  After adding materials, templates, grains
 * or walls, sorting, or changing a wall, prepare
 * again (a step on a world changed so returns PALA_ERR_INPUT); g, dt and max_overlap may
 * be changed between steps. */
void pala_world_init(pala_world *w);
void pala_world_free(pala_world *w);
/* Adds a material (copied; its values are checked by pala_world_prepare).  Returns its index. */
int pala_world_add_material(pala_world *w, const pala_material *m);
/* Adds a pair of materials with its own values (copied): each field whose PALA_PAIR_* bit
 * is in p->set replaces the mixed value of the pair (a, b), in both orders, when the world
 * is prepared (which checks those values as those of a material).  Returns its index, or -1
 * if a or b is not a material, the pair (in either order) was added before, or set has a bit
 * of no field. */
int pala_world_add_pair(pala_world *w, const pala_pairset *p);
/* Adds a built template; copies its n shape vectors and radii into the world.  Returns its
 * index, or -1 if it has no components. */
int pala_world_add_template(pala_world *w, const pala_template *t, const pala_vec3 *shape, const double *rad);
/* Builds a template from n components, centres c and radii rad (eqs. 25-35), with the
 * density of its material t->material, and adds it; t gives its name, material, charge and
 * dipoles (in the frame of c; stored turned into the principal frame).  nsamples = PALA_EXACT
 * (0) computes volume, centre of mass and inertia of the union exactly (to rounding;
 * docs/physics.md, "Exact mass properties of a union of spheres"); nsamples > 0 estimates
 * them by Monte Carlo with that many samples, nsamples < 0 with the paper's N = 10^4
 * (eqs. 25-35); a one-sphere grain is always exact; centres all
 * at z = 0 make a planar grain, whose z stays a principal axis exactly.  Returns the
 * template's index, or -1 (pala_world_error says why). */
#define PALA_EXACT 0L
int pala_world_build_template(pala_world *w, const pala_template *t, int n, const pala_vec3 *c, const double *rad, long nsamples);
/* Adds the template of one sphere of radius R (m) of material mat (exact volume and
 * moments).  Returns its index, or -1 if mat does not exist or R is not > 0. */
int pala_world_add_sphere_template(pala_world *w, int mat, double R);
/* Builds the template of an arc grain (2D only) from its n >= 2 arcs (checked: convex,
 * counter-clockwise, joined with a continuous tangent to 1e-9 of the grain's size, once
 * around) and adds it: a prism of the outline's area A and thickness h of t->material's
 * density, its area, centre of mass and moments exact (the polygon of the joints and the
 * circular segments, docs/physics.md, "Arc grains"); h <= 0: 4/3 of the radius of the disc
 * of area A, so the grain weighs a sphere of that radius.  Returns the template's index,
 * or -1 (pala_world_error says why). */
int pala_world_build_arc_template(pala_world *w, const pala_template *t, int n, const pala_arc *arcs, double h);
int pala_world_add_grain(pala_world *w, int tmpl, pala_vec3 x, pala_vec3 r, pala_vec3 v, pala_vec3 om);
/* Adds a wall of kind NAME (a container: "box", "cavity"; a wall inside it: "membrane"; a
 * wall of a [wall] section, after those: "surface", named wallN) of
 * material mat, its parameters at their defaults (those of the control file: docs/
 * control-file.md).  The container comes first, and once.  Returns the wall's index, or -1
 * (pala_world_error says why) if NAME is no kind, mat no material, or a container would not
 * come first. */
int pala_world_add_wall(pala_world *w, const char *kind, int mat);
/* Sets the parameter of wall i that the control-file key KEY sets (e.g. "box",
 * "cavity_radius", "membrane_axis", a surface's "shape" or "velocity") to value, written as in a control file
 * ("0 0.1 0 0.1 0 0.2", "x").  Returns 0, or -1 (pala_world_error says why) if the wall's
 * kind has no such key or the value does not fit it (the count of numbers, their range,
 * the words).  pala_world_prepare checks the wall as a whole. */
int pala_world_wall_set(pala_world *w, int i, const char *key, const char *value);
/* The container in one call: a box [lo, hi] (in 2D its z is not used), or a spherical
 * cavity of radius R about c, of material mat.  Returns 0, or -1 as pala_world_add_wall. */
int pala_world_set_box(pala_world *w, pala_vec3 lo, pala_vec3 hi, int mat);
int pala_world_set_cavity(pala_world *w, pala_vec3 c, double R, int mat);
/* The name of the kind of wall i, or NULL past the last; *container (if not NULL) is 1 for
 * the container. */
const char *pala_world_wall_kind(const pala_world *w, int i, int *container);
/* Wall i as one line of text, its kind's name and its parameters (trajectory.txt's header
 * line of the wall: docs/output-formats.md), into buf; its length, as snprintf's. */
int pala_world_wall_line(const pala_world *w, int i, char *buf, size_t len);
/* Reads such a line into a new wall of w (w->dim set first; its material is -1, so such a
 * world is for pictures): 1 if it was a wall's line, 0 if its first word names no kind,
 * -1 if it is malformed. */
int pala_world_wall_read(pala_world *w, const char *line);
/* The shapes wall i is drawn with (where it is at the world's time): at most max into out;
 * returns their number. */
int pala_world_wall_draw(const pala_world *w, int i, pala_draw *out, int max);
/* Narrows [lo, hi] to the box the walls bound at the world's time, for a measuring
 * region's default: a container's box (a cavity's cube); without a container, the box
 * joining the finite cylinders and cones (in 2D circles) that hold their grains inside
 * (side = inside); and each infinite plane (in 2D a line) that faces along an axis, where
 * it is then.  Other walls bound nothing: a finite plate or a mesh is not a region's face.
 * An end that a servo plane faces is set to NaN, for the grains' extent to decide: its
 * travel is not in a trajectory's header. */
void pala_world_walls_region(const pala_world *w, double lo[3], double hi[3]);
/* The first [wall] cylinder (in 2D circle) that holds its grains inside (a drum), where it is at the
 * world's time: a point of its axis, the axis's unit vector (along its angular velocity if
 * it turns) and its radius; 1 if there is one, else 0. */
int pala_world_drum(const pala_world *w, pala_vec3 *point, pala_vec3 *axis, double *radius);
/* 1 if some wall of w moves ([wall] sections with a motion: they are drawn at each frame). */
int pala_world_walls_move(const pala_world *w);
/* Copies the walls of src, and its dimension, into dst (which had none). */
void pala_world_copy_walls(pala_world *dst, const pala_world *src);
/* The walls' state a checkpoint keeps, one named field for each i from 0: returns its count
 * elements of elem bytes (a pointer into w) and sets *name; NULL past the last.  The
 * accounts of the faces' momentum come first (every world has them), then the state of
 * each wall's kind (none of today's kinds has one). */
void *pala_world_wall_state(pala_world *w, int i, const char **name, size_t *elem, long *count);
/* Adds an interaction between grain centres (copied; ctx must outlive the world).
 * Returns its index, or -1 if it has no forces function.  F[k], T[k] and the state it
 * reads are in storage order (grain k of the input is stored at inv[k] once
 * pala_world_sort has reordered the world). */
int pala_world_add_interaction(pala_world *w, const pala_interaction *it);
/* Sets (fn NULL: removes) the embedding program's additional forces. */
void pala_world_set_additional_forces(pala_world *w, pala_additional_forces fn, void *user);
/* Store the grains in spatial order (layers across the longest extent of the packing), so
 * near grains are near in memory and the force sweep's window stays small; w->gid keeps
 * each grain's number in the input for output.  Worlds of fewer than 512 grains stay as
 * they are.  Call after adding grains, before pala_world_prepare. */
void pala_world_sort(pala_world *w);
/* In a run, at the steps that are multiples of w->sort_every (pala_world_steps calls it
 * between two steps): if the grains are no longer in the order pala_world_sort would give
 * them, store them in that order again, with their contacts' states.  Worlds of fewer than 512 grains, and worlds
 * with interactions between centres or additional forces (whose state is in storage
 * order), are left as they are.  The check and the order depend only on the state, so the
 * results do not depend on the threads, and a resume is exact.  Returns 1 if it reordered. */
int pala_world_resort(pala_world *w);
/* Check what the world was given and finish setup: pair-material table, pebbles,
 * neighbour list.  Returns PALA_OK, or PALA_ERR_INPUT with the first thing wrong in
 * pala_world_error, in this order: the world's settings (each field that has a key in a
 * control file, against that key's range or words; 2D: nothing out of the plane), every
 * material's fields against their keys' ranges and words (tlaw 7, alpha 3, a negative
 * stiffness, ...) and, for a material something is made of, its laws' parameters (the
 * spring law's kt, rolling and torsion stiffness with friction, the fractional law's fc and
 * fk), the pairs' values and each pair's laws as mixed (eq. 55), the templates, the grains,
 * the walls (each kind's check, in the words of its control-file keys).  Call before
 * stepping. */
int pala_world_prepare(pala_world *w);
/* The check of dt before the first step (docs/physics.md, "Choosing dt"): the time scales
 * of the world's laws at the largest impact speed its state foresees (the contact time, the
 * springs' periods, the friction's and the drag's relaxation times) against dt. */
enum pala_dt_verdict { PALA_DT_OK = 0, PALA_DT_COARSE = 1, PALA_DT_UNSTABLE = 2 };
enum { PALA_DT_SCALES = 6 };
typedef struct pala_dt_scale {
    char name[24];                 /* "contact", "tangential spring", ..., "drag" */
    double t;                      /* the time scale, s */
    double steps;                  /* t / dt */
    double dt_max;                 /* the largest dt that is not coarse for it, s */
    int verdict;                   /* enum pala_dt_verdict */
    const char *fix;               /* what the scale is, for advice */
} pala_dt_scale;
typedef struct pala_dt_report {
    double dt;                     /* s */
    double v;                      /* the largest impact speed foreseen, m/s */
    double rayleigh;               /* Rayleigh's time of the smallest component, s (no verdict) */
    double overlap;                /* the largest overlap foreseen, d_max over the smaller component
                                      radius (Hertz and linear laws; 0 if none): above max_overlap
                                      such an impact stops the run as unstable at any dt */
    double max_overlap;            /* the world's limit of it */
    pala_dt_scale scale[PALA_DT_SCALES];
    int n;                         /* scales the world has */
    int verdict;                   /* the worst of theirs */
    char line[640];                /* all of it in one line: "dt check: 1e-06 s: contact ..." */
    char cause[256];               /* when the impact speed or a contact stiffness is past a double
                                      (no dt resolves it): what is, in words; else "" */
} pala_dt_report;
/* Fills r for a prepared world; PALA_OK, or PALA_ERR_INPUT if the world is not prepared. */
int pala_world_dt_check(pala_world *w, pala_dt_report *r);
/* Why the last call on w that failed failed: what was refused, its value, what was expected
 * and what to change ("" after a pala_world_prepare that succeeds). */
const char *pala_world_error(const pala_world *w);
/* Threads used by pala_world_step and the force pass (results do not depend on it). */
void pala_world_set_threads(pala_world *w, int n);
/* The most threads a step of this world can use: one per block of 256 grains. */
int pala_world_max_threads(const pala_world *w);
/* With threads_auto: the part of the steps so far that ran on one thread because that was
 * faster (another process held a core; threads.c, pala_team_adapt), 0 to 1. */
double pala_world_single_share(const pala_world *w);
/* The momentum the walls received so far, as the columns of walls.tsv: up to max named
 * values (box: the normal momentum of each face, positive outward; cavity: its vector,
 * then its outward radial momentum; then a membrane's: the normal momentum from each side),
 * N s.  Returns the number of columns (0 without walls). */
int pala_world_wall_columns(const pala_world *w, const char **names, double *values, int max);
/* The area each of those columns' normal momentum is received on, m^2 (in 2D a length, m),
 * or 0 for a column that is not a normal momentum (the cavity's vector): walls.tsv's mean
 * pressures are the columns' increments over an interval / (interval * area).  Returns the
 * number of columns, the same as pala_world_wall_columns. */
int pala_world_wall_areas(const pala_world *w, double *area, int max);
/* One direct-midpoint step (eqs. 65-69), one force evaluation.  Returns PALA_OK,
 * PALA_UNSTABLE (pala_world_error says why), or PALA_ERR_INPUT if the world was not
 * prepared. */
int pala_world_step(pala_world *w);
/* n steps at once, identical to n calls of pala_world_step but faster; stops early (and
 * returns the status) on an unstable step. */
int pala_world_steps(pala_world *w, long n);
/* The contacts of the current state (eqs. 48-57, walls), no step: sets the diagnostics
 * ncontact and worst_overlap; if U is non-NULL adds the contact potential energy to it. */
int pala_world_contacts(pala_world *w, double *U);
/* ---- the contacts of the current state, for output (contact_list.c) ----------------
 * Every touching component pair and wall touch of the current state through the contact
 * kernel (eqs. 48-57), as at a force evaluation but at the state itself and without a step:
 * the springs' forces are those of the displacements they hold (-k x, capped), nothing is
 * advanced, dissipated or accounted (docs/physics.md, "Contacts and stress").  Costs about one
 * force pass; the steps do not see it. */
typedef struct pala_contact {
    int i, j;          /* the grains' numbers (w->gid: the input's order, then the grains that
                          entered, as they came); j = -1: a wall */
    int ci, cj;        /* their components, from 0 (cj = -1 for a wall) */
    int face;          /* a wall's face (pala_world_face_name), -1 for a pair of grains */
    pala_vec3 x;       /* the contact point, eq. (50): the middle of the overlap, m */
    pala_vec3 n;       /* the unit normal from j (or the wall) towards i */
    double overlap;    /* a + a' - |c - c'| > 0, m */
    double fn;         /* the normal force on i along n, N (> 0: pushes i away from j) */
    pala_vec3 ft;      /* the tangential force on i, N (the force on i is fn n + ft; on j its
                          negative) */
    pala_vec3 m;       /* the rolling and torsion moment on i, N m (-m on j); 0 without those
                          springs (docs/physics.md, "Contact history") */
} pala_contact;
typedef struct pala_contact_list {
    long n, cap;
    pala_contact *c;   /* the contacts, block by block of the stored grains: their pairs, then
                          their walls (an order that no thread count changes) */
    int ngrains;       /* the grains' numbers: 0 .. ngrains - 1 (w->nid when grains left) */
    pala_vec3 *F, *T;  /* per grain number (input order; 0 for a grain that left): the sum of
                          its contacts' forces, N, and torques about its centre, N m:
                          (x - x_i) x F + m */
    int *z;            /* per grain: the grains it touches, a pair of clumps once (however many
                          of their components touch): the coordination number */
    int *zw;           /* per grain: the wall faces it touches */
    int moments;       /* 1: some material pair has rolling or torsion springs */
    void *priv;        /* the list's scratch (contact_list.c) */
} pala_contact_list;
/* Fills L (zeroed before its first use; reused after) with the contacts of the current
 * state of a prepared world.  PALA_OK, or the status of pala_world_contacts. */
int pala_world_contact_list(pala_world *w, pala_contact_list *L);
void pala_contact_list_free(pala_contact_list *L);
/* The name of wall face f (pala_contact.face): a [wall] section's name, the box's xlo,
 * xhi, ylo, yhi, zlo, zhi, the cavity's "cavity", a membrane's mem_lo, mem_hi; NULL if no
 * wall has it. */
const char *pala_world_face_name(const pala_world *w, int face);
/* Energies of the current state. Costs one contact pass (no forces stored); sets
 * ncontact and worst_overlap.  All zero if the world is not prepared. */
pala_energy pala_world_energy(pala_world *w);
/* The optional terms of the energy balance a prepared world has: PALA_TERM_PAIR if some
 * interaction between centres acts (E_pair, pala_energy.inter), PALA_TERM_WFIELD if an E or
 * B field turns and acts on a charge or dipole (W_field, w->wfield), PALA_TERM_WWALL if a
 * wall moves (W_walls, pala_world_wall_work), PALA_TERM_FEED if grains enter or leave (an
 * inserter or an outlet: E_in and E_out, w->ein and w->eout). */
enum { PALA_TERM_PAIR = 1, PALA_TERM_WFIELD = 2, PALA_TERM_ALIGN = 4, PALA_TERM_WWALL = 8, PALA_TERM_FEED = 16 };
/* The work the moving walls did on the grains so far (midpoint rule, like W_field), J. */
double pala_world_wall_work(const pala_world *w);
int pala_world_energy_terms(pala_world *w);
/* 1 if some material pair of a prepared world has a law with history (a tangential, rolling
 * or torsion spring: docs/physics.md, "Contact history"), whose contacts keep a state. */
int pala_world_keeps_contacts(const pala_world *w);
/* The states of those contacts, for a checkpoint: an array of doubles the caller frees
 * (*n of them; NULL and 0 if the world keeps none): the pairs' states (two pebbles, then
 * the state) and every block's table of wall contacts as it is laid out, so that a run
 * resumed from it goes on bit for bit as the uninterrupted one. */
double *pala_world_history_get(const pala_world *w, long *n);
/* Put such an array back into a prepared world at the step it was taken, before its next
 * step.  Returns PALA_OK, or PALA_ERR_INPUT if it does not fit the world (pala_world_error
 * says why; nothing set). */
int pala_world_history_set(pala_world *w, const double *d, long n);
/* With PALA_TERM_ALIGN (grains with magnetic dipoles in a B field): the mean over those
 * grains of cos(m, B(t)), the alignment of their dipoles with the field, at the current
 * state (1: all along B; 0: at random or across). */
double pala_world_dipole_alignment(pala_world *w);

/* ---- grains that enter and leave (feed.c; docs/physics.md, "Grains that enter and leave")
 * An inserter adds grains over time in a region, at a rate; an outlet removes the grains
 * whose centre of mass is in its region.  They act between steps, at fixed steps, so the
 * results do not depend on the threads nor on how the steps are split into calls: at the
 * start of a call of pala_world_steps whose step is one of theirs (the state a program reads
 * at that step is the one before).  The energy the grains bring and take is E_in and E_out
 * (w->ein, w->eout): E_total + E_diss - W_field + E_out - E_in stays at its start. */
/* A region: where inserted grains' centres go, or where an outlet removes grains. */
enum pala_region_kind {
    PALA_REGION_CONTAINER = 0,     /* initial placement: the whole container */
    PALA_REGION_BOX = 1,           /* box: xlo xhi ylo yhi zlo zhi (in 2D a rectangle; z unused) */
    PALA_REGION_SLAB = 2,          /* initial placement: a slab (its keys) */
    PALA_REGION_CYLINDER = 3,      /* centre c, unit axis a, radius and length along a (in 2D the
                                      disc of radius about c) */
    PALA_REGION_LINE = 4,          /* the segment from c to e (an inserter's centres on a line) */
    PALA_REGION_PLANE = 5          /* the half-space {x : (x - c).a > 0}: a plane through c, a its
                                      unit normal, pointing into the region (an outlet) */
};
typedef struct pala_region {
    int kind;                      /* enum pala_region_kind */
    double box[6];                 /* m */
    pala_vec3 c, a, e;             /* m, unit, m */
    double radius, length;         /* m */
} pala_region;
/* The orientation of placed and inserted grains. */
enum pala_orient { PALA_ORIENT_RANDOM, PALA_ORIENT_WRITTEN, PALA_ORIENT_GIVEN };
typedef struct pala_inserter {
    char name[32];                 /* in flow.tsv's columns and the messages (the [group]'s name) */
    int tfirst, tcount;            /* the templates of its grains, tfirst .. tfirst + tcount - 1 */
    int random_variant;            /* 1: each grain takes one of them at random; 0: in turn */
    const int *tseq;               /* NULL, or the template of each of its count grains in the order
                                      they enter (a size distribution's classes, drawn before the
                                      run; each within tfirst .. tfirst + tcount - 1); the world
                                      keeps a copy */
    pala_region region;            /* where the centres go: a box, a cylinder or a line */
    double rate;                   /* grains/s; or 0, and mass_rate */
    double mass_rate;              /* kg/s; or 0, and rate */
    double start, end;             /* s: it inserts from start to end (end 0: until count) */
    long count;                    /* the most grains it inserts (0: no limit; then end > 0) */
    long every;                    /* steps between its insertions, >= 1 */
    pala_vec3 vel;                 /* velocity of every grain, m/s */
    double vspread;                /* standard deviation of a Gaussian added to each Cartesian
                                      component of the velocity (x and y in 2D), m/s */
    pala_vec3 omega;               /* angular velocity of every grain, 1/s */
    int orient;                    /* enum pala_orient */
    pala_vec3 orient_r;            /* PALA_ORIENT_GIVEN: the rotation vector */
    uint64_t seed;                 /* of its own random generator (positions, orientations, speeds) */
} pala_inserter;
typedef struct pala_outlet {
    char name[32];                 /* in flow.tsv's columns (the [outlet]'s name) */
    pala_region region;            /* a plane (a half-space), a box or a cylinder */
    long every;                    /* steps between its removals, >= 1 */
} pala_outlet;
/* Add an inserter or an outlet (copied; checked by pala_world_prepare).  Returns its index
 * among the world's feeds (inserters and outlets in the order added), or -1 (why in
 * pala_world_error) past PALA_MAX_FEEDS of them. */
enum { PALA_MAX_FEEDS = 32 };
int pala_world_add_inserter(pala_world *w, const pala_inserter *in);
int pala_world_add_outlet(pala_world *w, const pala_outlet *o);
/* What feed i has done so far (flow.tsv, the messages of a run, summary.tsv). */
typedef struct pala_feed_report {
    const char *name;
    int outlet;                    /* 0: an inserter; 1: an outlet */
    long count;                    /* grains inserted, or removed */
    double mass;                   /* their mass, kg */
    long behind;                   /* an inserter: grains due by now that found no room yet */
    long short_events;             /* its insertions that could not place all that were due */
    double first_short, last_short;   /* the times of the first and last of them, s */
    long most_behind;              /* the most grains it was behind at once */
    long due;                      /* grains due by now (a mass rate: those placed and behind) */
} pala_feed_report;
/* Fills *r for feed i: 0, or -1 past the last feed. */
int pala_world_feed_report(const pala_world *w, int i, pala_feed_report *r);
/* The most grains the world may hold: n and what its inserters may add (count, or their rate
 * over their interval; mass rates with the lightest of their grains); -1 if an inserter has no
 * end (count 0, end 0). */
long pala_world_most_grains(const pala_world *w);
/* The feeds' state a checkpoint keeps, as pala_world_wall_state: field i, NULL past the last
 * (none without feeds): E_in, E_out, the step of the last action, each feed's counts and random
 * generator. */
void *pala_world_feed_state(pala_world *w, int i, const char **name, size_t *elem, long *count);
/* The grains of a checkpoint: n grains of templates tid[0 .. n) numbered gid[0 .. n) (NULL:
 * 0 .. n - 1), of nid numbers given so far.  Their state (x, r, v, w, acc, bacc) is then
 * set by the caller, then pala_world_prepare.  Returns PALA_OK, or PALA_ERR_INPUT if a
 * template or a number is out of range (why in pala_world_error). */
int pala_world_set_population(pala_world *w, int n, int nid, const int *tid, const int *gid);

/* Numbers 0 .. n - 1 for the grains, in the order of the numbers they have (a world whose
 * grains left has gaps, which only a world with feeds can write: docs/output-formats.md,
 * version 2).  Returns the numbers the gaps took (0: nothing changed). */
int pala_world_renumber(pala_world *w);
/* Recompute pebble centres c_i = x + r * x_i (eq. 50) for grain k. */
void pala_world_place_pebbles(pala_world *w, int k);
/* Out of memory: the library calls fn(bytes), which must not return (the `pala` program
 * prints the size and exits with PALA_ERR_IO).  Default (fn NULL): print and abort(). */
void pala_set_nomem_handler(void (*fn)(size_t bytes));

/* Stiffness prefactor c_H of eq. (57): sqrt(3)/2 (paper) or textbook 4/3 E* sqrt(R*). */
double pala_hertz_prefactor(int hertz);
double pala_harmonic(double a, double b);       /* H(a,b), H(0,0)=0 */

/* The CPUs this process may run on (its affinity mask), and a monotonic clock in s. */
int pala_cpu_count(void);
double pala_now(void);

/* ---- checkpoint files (docs/output-formats.md, "checkpoint.bin"; restart.c) -----------
 * A header (magic "PALACKPT", version, byte-order mark, payload length, FNV-1a 64 checksum of
 * the payload), then named fields.  `pala run` writes one into its run folder; `pala resume`
 * continues from it, and a scene that starts from the run (key start_from) starts from it. */
#define PALA_CKPT_FILE "checkpoint.bin"
#define PALA_CKPT_VERSION 1
typedef struct pala_ckfield {
    const char *name;              /* not NUL-terminated: nlen bytes */
    size_t nlen;
    uint32_t elem;                 /* bytes of an element */
    uint64_t count;                /* elements */
    const unsigned char *data;     /* elem * count bytes (not aligned) */
} pala_ckfield;
typedef struct pala_ckfile {
    unsigned char *bytes;          /* the file */
    size_t n;
    pala_ckfield *f;               /* its fields, in the file's order */
    int nf;
    uint32_t version;              /* as the header says (when it has one) */
} pala_ckfile;
/* What pala_ckfile_read found: the file read and checked, or why not (in why: the system's
 * words when it cannot be opened; "it is truncated (shorter than its header says)", ...). */
enum { PALA_CKFILE_OK = 0, PALA_CKFILE_OPEN, PALA_CKFILE_BAD, PALA_CKFILE_VERSION, PALA_CKFILE_FIELDS };
int pala_ckfile_read(const char *path, pala_ckfile *c, char *why, size_t len);
/* The field of that name, or NULL. */
const pala_ckfield *pala_ckfile_find(const pala_ckfile *c, const char *name);
void pala_ckfile_free(pala_ckfile *c);
/* FNV-1a 64 of n bytes, continuing from h (PALA_FNV0 to start): the checksum of the payload. */
#define PALA_FNV0 14695981039346656037ull
uint64_t pala_fnv1a(uint64_t h, const void *p, size_t n);
/* What a scene that starts from this world's run needs beyond the state the checkpoint holds
 * (docs/control-file.md, start_from): the dimension and every template whole, with the name and
 * density of its material, as *bytes bytes the caller frees; checkpoint.bin holds them as the
 * field PALA_GRAIN_TYPES_FIELD. */
#define PALA_GRAIN_TYPES_FIELD "world.grain_types"
void *pala_world_grain_types(const pala_world *w, size_t *bytes);

/* ---- control files (scene.c) -------------------------------------------------------- */
typedef struct pala_scene pala_scene;
/* Parse FILE, apply the overrides sets[0..nset) ("KEY=VALUE"), build the world.  On error
 * prints `file:line: message` (or `--set 'KEY=VALUE': message`) to err, one line per
 * problem, and returns PALA_ERR_INPUT; the checks of pala_world_prepare speak there in the
 * words of control files, at the line of the key that sets the field they refuse. */
int pala_scene_load(const char *path, int nset, char **sets, pala_scene **out, FILE *err);
/* Check FILE with overrides without building (for `pala sweep`). */
int pala_scene_validate(const char *path, int nset, char **sets, FILE *err);
pala_world *pala_scene_world(pala_scene *s);
void pala_scene_free(pala_scene *s);
/* Write the effective control file (every key, with overrides applied). */
void pala_scene_write(const pala_scene *s, FILE *f);
/* Look up an effective value as text (NULL if no such key). */
const char *pala_scene_get(const pala_scene *s, const char *key);
/* Iterate over effective scalar settings: returns 0 when i is past the end. */
int pala_scene_setting(const pala_scene *s, int i, const char **key, const char **value);
long pala_scene_steps(const pala_scene *s);
long pala_scene_energy_every(const pala_scene *s);
long pala_scene_traj_every(const pala_scene *s);
/* 1 when the trajectory is written as trajectory.bin (key trajectory_format = binary) */
int pala_scene_traj_binary(const pala_scene *s);
/* `pala shape`: the closed STL mesh of path (coordinates times scale, m): its exact volume,
 * centre of mass and principal moments, its clump of `spheres` spheres (or, with spheres = 0,
 * as few as bring the surface within tolerance, m), the clump's (the builder's, unit density),
 * the surface deviation and the spheres as `sphere = x y z r` lines, to out (meshclump.c;
 * docs/physics.md, "Clumps from surface meshes").  PALA_OK, or PALA_ERR_INPUT with the
 * message to err. */
int pala_mesh_shape(const char *path, double scale, int spheres, double tolerance, FILE *out, FILE *err);
/* What the scene's grains built from meshes (shape = mesh) measure: for each, a line of the
 * mesh's exact volume, centre of mass and principal moments and one of its clump's, with
 * the surface deviation; NULL if none. */
const char *pala_scene_report(const pala_scene *s);
/* Steps between frames of the exports written during a run; 0: not written. */
long pala_scene_xyz_every(const pala_scene *s);
long pala_scene_vtk_every(const pala_scene *s);
/* 1 when vtk_every's files hold their arrays as binary appended data (key vtk_format = binary) */
int pala_scene_vtk_binary(const pala_scene *s);
/* Steps between frames of contacts.tsv (contacts.bin when pala_scene_contacts_binary) and of
 * grains.tsv; 0: not written. */
long pala_scene_contacts_every(const pala_scene *s);
int pala_scene_contacts_binary(const pala_scene *s);
long pala_scene_grains_every(const pala_scene *s);
long pala_scene_checkpoint_every(const pala_scene *s);
/* The [measure NAME] sections (docs/control-file.md): pala measure's quantities over a region
 * during the run, a row every `every` steps into measure-NAME.tsv (writers.c). */
enum { PALA_MAX_MEASURES = 4 };
typedef struct pala_measure_spec {
    const char *name;         /* the section's name (letters, digits, _ and -) */
    long every;               /* steps between rows, >= 1 */
    int set[3];               /* the region is given along x, y, z (region_x ...); else the
                                 walls' box along it, as pala measure's --region */
    double lo[3], hi[3];      /* where set: the region's extent, m */
} pala_measure_spec;
/* Section i (from 0, in file order) into *m: 1, or 0 past the last. */
int pala_scene_measure(const pala_scene *s, int i, pala_measure_spec *m);
/* `pala help keys` and `pala help KEY` */
void pala_scene_help_keys(FILE *f);
int pala_scene_help_key(const char *key, FILE *f);

#endif

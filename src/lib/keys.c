/* keys.c: the table of every control-file key and where its value goes (see keys.h), the
 * wall kinds' keys joined to it, and the walls' parameters set by their keys
 * (pala_world_add_wall, pala_world_wall_set). */
#include "keys.h"
#include "container.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const pala_sect_names[PALA_S_N] = {"", "material", "grain", "group", "pair", "wall", "outlet", "measure"};

/* ---- setters: values that need converting --------------------------------------------- */
/* orientation = random | as_written | rx ry rz */
static void set_orientation(void *obj, const pala_value *v)
{
    pala_group *g = &((pala_group_keys *)obj)->place;
    g->orient = v->code >= 0 ? v->code : PALA_ORIENT_GIVEN;
    g->orient_r = v->code >= 0 ? pala_v(0, 0, 0) : pala_v(v->x[0], v->x[1], v->x[2]);
}

/* rotation_centre = x y z: the point the wall turns about (else its point) */
static void set_centre(void *obj, const pala_value *v)
{
    pala_surface *s = obj;
    s->centre = pala_v(v->x[0], v->x[1], v->x[2]);
    s->centre_set = 1;
}

/* size = a [b]: a rectangle's two sides, or a segment's length (b 0) */
static void set_size(void *obj, const pala_value *v)
{
    pala_surface *s = obj;
    s->size[0] = v->x[0];
    s->size[1] = v->n > 1 ? v->x[1] : 0;
}
/* restitution = e: delta = e^2 (eq. 56; the switch and the dashpot both give a head-on
 * restitution sqrt(delta), docs/physics.md, "The normal dashpot") */
static void set_restitution(void *obj, const pala_value *v) { ((pala_material *)obj)->delta = v->x[0] * v->x[0]; }
static void set_pair_restitution(void *obj, const pala_value *v) { ((pala_pairset *)obj)->delta = v->x[0] * v->x[0]; }

/* ---- the table ------------------------------------------------------------------------ */
#define INF HUGE_VAL
#define AT PALA_AT
#define SET PALA_SET
#define CODES PALA_CODES
/* KEY(SECTION, name, TYPE, default, unit, lo, hi, binding, extras...): the row PALA_KEY_name
 * of key "name" (both from the one token, so the constant and the name cannot differ) */
#define KEY(sect, nm, ty, ...) [PALA_KEY_##nm] = {PALA_S_##sect, #nm, PALA_K_##ty, __VA_ARGS__}
/* KEYIN(SECTION, kind, name, ...): a key whose name an earlier section has too: the row
 * PALA_KEY_kind_name of key "name" */
#define KEYIN(sect, kind, nm, ty, ...) [PALA_KEY_##kind##_##nm] = {PALA_S_##sect, #nm, PALA_K_##ty, __VA_ARGS__}
/* the tangential laws' words and codes (enum pala_tlaw) */
#define TLAWS .choices = "regularised|spring|mindlin", CODES(PALA_TLAW_REGULARISED, PALA_TLAW_SPRING, PALA_TLAW_MINDLIN)
/* the normal dissipations' words and codes (enum pala_damp) */
#define DAMPS .choices = "switch|dashpot", CODES(PALA_DAMP_SWITCH, PALA_DAMP_DASHPOT)
const pala_keydef pala_keys[PALA_NKEYS] = {
    /* ---- top level ---- */
    KEY(TOP, dimension, INT, "3", "-", 2, 3, AT(pala_top_keys, w.dim),
        .doc = "2: grains move in the plane z = 0 and turn about z (docs/physics.md, \"2D mode\"); 3: free motion"),
    KEY(TOP, container, WORD, "box", "-", 0, 0, AT(pala_top_keys, container),
        .choices = pala_container_words, .codes = pala_container_codes,
        .doc = "box: six flat walls (key box); cavity: a spherical wall (cavity_radius); none: no walls"),
    KEY(TOP, wall_material, NAME, NULL, "-", 0, 0, AT(pala_top_keys, wall_material),
        .ref = PALA_S_MATERIAL,
        .doc = "material of the container walls (required with walls)"),
    KEY(TOP, gravity, REALS, "0 0 0", "m/s^2", -INF, INF, AT(pala_top_keys, w.g),
        .nmin = 3, .nmax = 3,
        .doc = "homogeneous acceleration field g; a grain feels m g and has potential energy -m g.x"),
    KEY(TOP, hertz, WORD, "paper", "-", 0, 0, AT(pala_top_keys, w.hertz),
        .choices = "paper|textbook", CODES(PALA_HERTZ_PAPER, PALA_HERTZ_TEXTBOOK),
        .doc = "paper: F = sqrt(3)/2 E~ sqrt(r~) (-d)^1.5 (eq. 57); textbook: 4/3 E* sqrt(R*) (-d)^1.5"),
    KEY(TOP, rotation_step, WORD, "midpoint", "-", 0, 0, AT(pala_top_keys, w.rotation_step),
        .choices = "midpoint|paper", CODES(PALA_ROTSTEP_MIDPOINT, PALA_ROTSTEP_PAPER),
        .doc = "free rotation of eq. (59): midpoint (second order in angular momentum) or paper (as printed)"),
    KEY(TOP, sphere_orientation, WORD, "track", "-", 0, 0, AT(pala_top_keys, w.sphere_orientation),
        .choices = "track|fixed", CODES(PALA_SPHERES_TRACK, PALA_SPHERES_FIXED),
        .doc = "spheres only: track integrates each sphere's orientation (eq. 69); fixed keeps the orientation each was "
               "placed with, which no force, position or velocity depends on (the same bits), about 5 % faster "
               "(docs/physics.md, \"Spheres whose orientation is fixed\"; LAMMPS's atom_style sphere keeps none)"),
    KEY(TOP, dt, REAL, NULL, "s", 0, INF, AT(pala_top_keys, w.dt),
        .doc = "time step; a contact should last ~20 steps or more (docs/physics.md)"),
    KEY(TOP, steps, INT, NULL, "-", 0, 1e15, AT(pala_top_keys, steps),
        .doc = "number of steps (give steps or end_time)"),
    KEY(TOP, end_time, REAL, NULL, "s", 0, INF, AT(pala_top_keys, end_time),
        .doc = "simulated time; steps = round(end_time / dt) (give steps or end_time)"),
    KEY(TOP, seed, INT, "1", "-", 0, 9.007199254740992e15, AT(pala_top_keys, seed),
        .doc = "seed of the random generator (placement, orientations, random grains)"),
    KEY(TOP, energy_every, INT, "10", "steps", 0, 1e15, AT(pala_top_keys, energy_every),
        .doc = "write a row of energy.tsv every this many steps (0: only first and last)"),
    KEY(TOP, trajectory_every, INT, "100", "steps", 0, 1e15, AT(pala_top_keys, trajectory_every),
        .doc = "write a trajectory frame every this many steps (0: only first and last)"),
    KEY(TOP, trajectory_format, WORD, "text", "-", 0, 0, AT(pala_top_keys, trajectory_format),
        .choices = "text|binary", CODES(0, 1),
        .doc = "text: trajectory.txt; binary: trajectory.bin, the same header and float64 frames (docs/output-formats.md)"),
    KEY(TOP, xyz_every, INT, NULL, "steps", 1, 1e15, AT(pala_top_keys, xyz_every),
        .doc = "also write trajectory.xyz (extended XYZ for OVITO) every this many steps; not written if not given"),
    KEY(TOP, vtk_every, INT, NULL, "steps", 1, 1e15, AT(pala_top_keys, vtk_every),
        .doc = "also write VTK frames for ParaView into vtk/ every this many steps; not written if not given"),
    KEY(TOP, vtk_format, WORD, NULL, "-", 0, 0, AT(pala_top_keys, vtk_format), .unset = "ascii",
        .choices = "ascii|binary", CODES(0, 1),
        .doc = "ascii: the VTK files of vtk_every as text; binary: their arrays as raw appended data, 3x smaller or more (docs/output-formats.md)"),
    KEY(TOP, contacts_every, INT, NULL, "steps", 1, 1e15, AT(pala_top_keys, contacts_every),
        .doc = "also write every contact (grains or wall, point, normal, overlap, forces, moments) into contacts.tsv "
               "every this many steps; not written if not given (docs/output-formats.md)"),
    KEY(TOP, contacts_format, WORD, NULL, "-", 0, 0, AT(pala_top_keys, contacts_format), .unset = "text",
        .choices = "text|binary", CODES(0, 1),
        .doc = "text: contacts.tsv; binary: contacts.bin, the same columns as float64 records (docs/output-formats.md)"),
    KEY(TOP, grains_every, INT, NULL, "steps", 1, 1e15, AT(pala_top_keys, grains_every),
        .doc = "also write each grain's contact force, torque and coordination number into grains.tsv every this "
               "many steps; not written if not given"),
    KEY(TOP, max_overlap, REAL, "0.5", "-", 1e-6, 1, AT(pala_top_keys, w.max_overlap),
        .doc = "stop as unstable when an overlap exceeds this fraction of the smaller component radius"),
    KEY(TOP, neighbor_skin, REAL, "0", "m", 0, INF, AT(pala_top_keys, w.skin),
        .doc = "Verlet skin of the neighbour list; 0 chooses 0.2 x the median component radius, at least 0.1 x the median bounding radius"),
    KEY(TOP, sort_every, INT, "0", "steps", 0, 1e15, AT(pala_top_keys, w.sort_every),
        .doc = "steps between checks of the grains' order in memory: when the grains have mixed (a drum, a hopper, a pour), "
               "they are stored in spatial order again, which keeps the threads' shared work small (1000 advised there); 0: once, before the first step (LAMMPS: atom_modify sort)"),
    KEY(TOP, lammps_data, PATH, NULL, "-", 0, 0, AT(pala_top_keys, lammps_data),
        .doc = "import grains from a LAMMPS data file (atom_style sphere; Molecules make rigid clumps); "
               "path relative to this control file; with container = box and no box key, its box"),
    KEY(TOP, lammps_material, NAME, NULL, "-", 0, 0, AT(pala_top_keys, lammps_material),
        .ref = PALA_S_MATERIAL,
        .doc = "material of the grains of lammps_data (its density must match the file's)"),
    KEY(TOP, lammps_mc_samples, INT, "10000", "-", 100, 1e9, AT(pala_top_keys, lammps_mc_samples),
        .doc = "Monte Carlo samples of the builder for each distinct clump shape of lammps_data"),
    KEY(TOP, start_from, PATH, NULL, "-", 0, 0, AT(pala_top_keys, start_from),
        .unset = "none: the groups place every grain",
        .doc = "the folder of a run (pala run -o): the grains start in its final state (its checkpoint.bin: positions, "
               "orientations, velocities, angular velocities, contact history), under this scene's walls, materials and fields; "
               "the scene's groups are not placed nor its grain types built (the run's are taken whole); path relative to this control file"),
    KEY(TOP, start_time, REAL, NULL, "s", 0, INF, AT(pala_top_keys, start_time),
        .unset = "the run's final state (its checkpoint.bin)",
        .doc = "start_from: start from the frame of the run's trajectory nearest to this time instead (x, r, v, omega; "
               "no accelerations of a last step, no contact history)"),
    KEY(TOP, start_contacts, WORD, "keep", "-", 0, 0, AT(pala_top_keys, start_contacts),
        .choices = "keep|drop", CODES(0, 1),
        .doc = "start_from: keep the run's contact history (when this scene's laws keep the same state; "
               "else it is dropped with a note) or drop it"),
    KEY(TOP, gravitational_constant, REAL, "0", "m^3/(kg s^2)", 0, INF, AT(pala_top_keys, w.grav_G),
        .doc = "mutual gravitation of the grains' masses, U = -G m_i m_j / r; 0: off (6.674e-11 is Newton's)"),
    KEY(TOP, permittivity, REAL, "1", "-", 1e-3, 1e9, AT(pala_top_keys, w.eps_r),
        .doc = "relative permittivity eps_r of the medium: k_e = 1 / (4 pi eps0 eps_r) in the electric interactions"),
    KEY(TOP, interaction_cutoff, REAL, "0", "m", 0, INF, AT(pala_top_keys, w.cutoff),
        .doc = "range of the interactions between centres: 0 sums all pairs exactly; else switched off smoothly "
               "between 0.8 and 1 times this distance (docs/physics.md, \"Cutoff\")"),
    KEY(TOP, electric_field, REALS, "0 0 0", "V/m", -INF, INF, AT(pala_top_keys, w.E),
        .nmin = 3, .nmax = 3,
        .doc = "homogeneous electric field E at t = 0: force q E, torque p x E, energy -q E.x - p.E"),
    KEY(TOP, electric_field_turn, REALS, "0 0 0", "rad/s", -INF, INF, AT(pala_top_keys, w.E_turn),
        .nmin = 3, .nmax = 3,
        .doc = "angular velocity the E field turns with: E(t) = E turned by |w| t about w; its work is W_field"),
    KEY(TOP, magnetic_field, REALS, "0 0 0", "T", -INF, INF, AT(pala_top_keys, w.B),
        .nmin = 3, .nmax = 3,
        .doc = "homogeneous magnetic field B at t = 0: Lorentz force q v x B, torque m x B, energy -m.B"),
    KEY(TOP, magnetic_field_turn, REALS, "0 0 0", "rad/s", -INF, INF, AT(pala_top_keys, w.B_turn),
        .nmin = 3, .nmax = 3,
        .doc = "angular velocity the B field turns with (a rotating field); its work is W_field"),
    KEY(TOP, lorentz_step, WORD, "implicit", "-", 0, 0, AT(pala_top_keys, w.lorentz),
        .choices = "implicit|paper", CODES(PALA_LORENTZ_IMPLICIT, PALA_LORENTZ_PAPER),
        .doc = "q v x B in the kick: implicit (does no work, exactly) or paper (midpoint velocity estimate; "
               "its kinetic energy drifts; docs/physics.md, \"The Lorentz force\")"),
    KEY(TOP, max_memory, REAL, "0", "bytes", 0, 1e18, AT(pala_top_keys, max_memory),
        .doc = "memory a scene may ask for (estimated before placing grains); 0: the machine's physical memory"),
    KEY(TOP, checkpoint_every, INT, "0", "steps", 0, 1e15, AT(pala_top_keys, checkpoint_every),
        .doc = "write the run's checkpoint (checkpoint.bin, for pala resume) every this many steps; 0: only when the run stops"),
    KEY(TOP, tangential_law, WORD, "regularised", "-", 0, 0, AT(pala_top_keys, w.tlaw), TLAWS,
        .doc = "tangential law of the materials that do not choose one: regularised (eq. 53, no memory), spring (a spring "
               "with a Coulomb cap, stiffness tangential_stiffness) or mindlin (Mindlin's no-slip stiffness); "
               "docs/physics.md, \"Contact history\""),
    KEY(TOP, normal_damping, WORD, "switch", "-", 0, 0, AT(pala_top_keys, w.damp), DAMPS,
        .doc = "normal dissipation of the materials that do not choose one: switch (eq. 56: the Hertz force times delta while "
               "the pair separates) or dashpot (a continuous dashpot of restitution sqrt(delta) at any speed, and the caps of "
               "the springs follow the normal force); docs/physics.md, \"The normal dashpot\""),
    KEY(TOP, fluid_viscosity, REAL, NULL, "Pa s", 0, INF, AT(pala_top_keys, w.fluid_eta), .unset = "0: no fluid",
        .doc = "dynamic viscosity eta of a background fluid: each component sphere of radius a feels the Stokes drag "
               "-6 pi eta a (v - fluid_velocity) and the torque -8 pi eta a^3 omega, their work in E_diss "
               "(docs/physics.md, \"Drag and buoyancy\"; 1e-3 is water's)"),
    KEY(TOP, fluid_density, REAL, NULL, "kg/m^3", 0, INF, AT(pala_top_keys, w.fluid_rho), .unset = "0: no buoyancy",
        .doc = "density rho_f of the background fluid: each grain of volume V feels the buoyancy -rho_f V g "
               "(1000 is water's)"),
    KEY(TOP, fluid_velocity, REALS, NULL, "m/s", -INF, INF, AT(pala_top_keys, w.fluid_u), .unset = "0 0 0",
        .nmin = 3, .nmax = 3,
        .doc = "uniform velocity u of the background fluid (the drag pulls the grains towards it)"),
    KEY(TOP, dt_check, WORD, NULL, "-", 0, 0, AT(pala_top_keys, dt_check), .unset = "error",
        .choices = "error|warn|off", CODES(PALA_DT_CHECK_ERROR, PALA_DT_CHECK_WARN, PALA_DT_CHECK_OFF),
        .doc = "the check of dt before the first step (contact time, spring periods, drag times: docs/physics.md, "
               "\"Choosing dt\"): error refuses a dt that is surely unstable, warn only says so, off skips it "
               "(grains that never touch)"),
    /* ---- [material NAME], eq. (52) ---- */
    KEY(MATERIAL, density, REAL, NULL, "kg/m^3", 0, INF, AT(pala_material, rho),
        .doc = "mass density rho"),
    KEY(MATERIAL, young, REAL, NULL, "Pa", 0, INF, AT(pala_material, E),
        .doc = "Young's modulus E"),
    KEY(MATERIAL, poisson, REAL, "0.3", "-", 0, 0.5, AT(pala_material, sigma),
        .doc = "Poisson's ratio sigma"),
    KEY(MATERIAL, delta, REAL, "1", "-", 0, 1, AT(pala_material, delta),
        .doc = "square of the normal restitution coefficient (eq. 56): e = sqrt(delta)"),
    KEY(MATERIAL, restitution, REAL, NULL, "-", 0, 1, SET(set_restitution), .unset = "sqrt(delta)",
        .doc = "normal restitution coefficient e as measured (rebound over impact speed, head-on); sets delta = e^2, "
               "so give one of the two"),
    KEY(MATERIAL, friction, REAL, "0", "-", 0, INF, AT(pala_material, mu),
        .doc = "Coulomb friction coefficient mu (above 1 for rubber and the like)"),
    KEY(MATERIAL, slip_velocity, REAL, "0.001", "m/s", 0, INF, AT(pala_material, nu),
        .doc = "regularising velocity nu of the friction law (eq. 53); keep nu dt << component radius"),
    /* the laws with history (docs/physics.md, "Contact history") */
    KEYIN(MATERIAL, material, tangential_law, WORD, NULL, "-", 0, 0, AT(pala_material, tlaw), TLAWS,
        .unset = "the top-level tangential_law",
        .doc = "this material's tangential law (regularised, spring or mindlin); two materials of different laws "
               "meet with the later of the three"),
    KEY(MATERIAL, tangential_stiffness, REAL, "0", "N/m", 0, INF, AT(pala_material, kt),
        .doc = "stiffness k_t of the tangential spring (needed by tangential_law = spring); pairs mix it by H"),
    KEY(MATERIAL, rolling_stiffness, REAL, "0", "N m/rad", 0, INF, AT(pala_material, kroll),
        .doc = "stiffness of the rolling spring; 0: no rolling resistance (give rolling_friction too)"),
    KEY(MATERIAL, rolling_friction, REAL, "0", "-", 0, INF, AT(pala_material, muroll),
        .doc = "the rolling moment is capped at rolling_friction x R* x F_n (give rolling_stiffness too)"),
    KEY(MATERIAL, torsion_stiffness, REAL, "0", "N m/rad", 0, INF, AT(pala_material, ktor),
        .doc = "stiffness of the torsion spring; 0: no torsion resistance (give torsion_friction too)"),
    KEY(MATERIAL, torsion_friction, REAL, "0", "-", 0, INF, AT(pala_material, mutor),
        .doc = "the torsion moment is capped at torsion_friction x R* x F_n (give torsion_stiffness too)"),
    KEY(MATERIAL, normal_law, WORD, "hertz", "-", 0, 0, AT(pala_material, nlaw),
        .choices = PALA_NLAW_WORDS, CODES(PALA_NLAW_CODES), .doc = PALA_NLAW_DOC),
    /* the normal laws' coefficients: their rows are the laws' (contact_law.h) */
#define NLAW_ROW(nm, def, unit, lo, hi, field, text) KEY(MATERIAL, nm, REAL, def, unit, lo, hi, AT(pala_material, field), .doc = text),
    PALA_NLAW_KEYS(NLAW_ROW)
#undef NLAW_ROW
    KEYIN(MATERIAL, material, normal_damping, WORD, NULL, "-", 0, 0, AT(pala_material, damp), DAMPS,
        .unset = "the top-level normal_damping",
        .doc = "this material's normal dissipation (switch or dashpot; restitution sqrt(delta) either way; the dashpot needs "
               "delta >= 1e-4); two materials of different ones meet with the dashpot"),
    /* ---- [grain NAME] ---- */
    KEY(GRAIN, material, NAME, NULL, "-", 0, 0, AT(pala_grain_keys, material),
        .ref = PALA_S_MATERIAL,
        .doc = "material of the grain"),
    KEY(GRAIN, shape, WORD, NULL, "-", 0, 0, AT(pala_grain_keys, shape),
        .choices = "sphere|spheres|random|arcs|mesh", CODES(PALA_SHAPE_SPHERE, PALA_SHAPE_SPHERES, PALA_SHAPE_RANDOM, PALA_SHAPE_ARCS, PALA_SHAPE_MESH),
        .doc = "sphere: one sphere (radius); spheres: component list (sphere lines); random: the grain factory; arcs: a 2D grain of circular "
               "arcs (arcs_shape, or arc lines); mesh: a clump of spheres inscribed in a closed STL mesh (file, spheres or tolerance)"),
    KEY(GRAIN, radius, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, radius),
        .doc = "radius of a shape = sphere grain; shape = arcs: the distance of a corner's tip from the centre"),
    KEY(GRAIN, sphere, REALS, NULL, "m", -INF, INF, AT(pala_grain_keys, nsphere),
        .nmin = 4, .nmax = 4, .repeat = 1,
        .doc = "one component: centre x y z and radius; repeat the line for each component"),
    KEY(GRAIN, arcs_shape, WORD, "list", "-", 0, 0, AT(pala_grain_keys, arcs_shape),
        .choices = "list|oval|triangle|square|polygon", CODES(PALA_ARCS_LIST, PALA_ARCS_OVAL, PALA_ARCS_TRIANGLE, PALA_ARCS_SQUARE, PALA_ARCS_POLYGON),
        .doc = "shape = arcs: the arc lines (list), or a quasi-polygon of radius, corner_radius and side_radius: oval (2 sides), triangle, "
               "square, polygon (sides)"),
    KEY(GRAIN, sides, INT, "5", "-", 2, 64, AT(pala_grain_keys, sides),
        .doc = "arcs_shape = polygon: the number of sides (2: an oval)"),
    KEY(GRAIN, corner_radius, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, corner_radius),
        .doc = "quasi-polygons: the radius of the corners' arcs (below radius)"),
    KEY(GRAIN, side_radius, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, side_radius),
        .doc = "quasi-polygons: the radius of the sides' arcs (above radius; larger: flatter sides)"),
    KEY(GRAIN, arc, REALS, NULL, "m, deg", -INF, INF, AT(pala_grain_keys, narc),
        .nmin = 5, .nmax = 5, .repeat = 1,
        .doc = "arcs_shape = list: one arc, its circle's centre x y, radius r, start and end angles a0 a1 (deg, counter-clockwise); "
               "repeat the line for each arc, in order around the grain"),
    KEY(GRAIN, thickness, REAL, "0", "m", 0, INF, AT(pala_grain_keys, thickness),
        .doc = "shape = arcs: the thickness of the prism whose mass and moments the grain has; 0: 4/3 of the radius of the disc of its "
               "area (it weighs that disc's sphere)"),
    KEY(GRAIN, volume_radius, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, volume_radius),
        .doc = "optional: scale the grain so its volume equals a sphere of this radius"),
    KEY(GRAIN, mass_properties, WORD, "exact", "-", 0, 0, AT(pala_grain_keys, mass_properties),
        .choices = "exact|monte_carlo", CODES(PALA_MASS_EXACT, PALA_MASS_MONTE_CARLO),
        .doc = "exact: volume, centre of mass and inertia of the union to rounding (docs/physics.md, \"Exact mass properties "
               "of a union of spheres\"); monte_carlo: the paper's estimate with mc_samples samples"),
    KEY(GRAIN, mc_samples, INT, "10000", "-", 100, 1e9, AT(pala_grain_keys, mc_samples),
        .doc = "Monte Carlo samples of the builder (eqs. 29-31) with mass_properties = monte_carlo; error ~ 1/sqrt(N)"),
    KEY(GRAIN, components, REALS, "3 5", "-", 1, 64, AT(pala_grain_keys, components),
        .nmin = 2, .nmax = 2,
        .doc = "random grains: least and most number of components (uniform)"),
    KEY(GRAIN, component_radius, REALS, NULL, "m", 0, INF, AT(pala_grain_keys, component_radius),
        .nmin = 2, .nmax = 2,
        .doc = "random grains: least and largest component radius (uniform)"),
    KEY(GRAIN, spread, REAL, "0.6", "-", 0.05, 0.99, AT(pala_grain_keys, spread),
        .doc = "random grains: a new centre sits at spread x (r_a + r_b) from an existing one"),
    KEY(GRAIN, variants, INT, "0", "-", 0, 1e9, AT(pala_grain_keys, variants),
        .doc = "random grains: number of distinct shapes, grains pick one at random; 0: every grain its own"),
    KEY(GRAIN, charge, REAL, "0", "C", -INF, INF, AT(pala_grain_keys, charge),
        .doc = "point charge at the centre of mass (docs/physics.md, \"Charges, dipoles and fields\")"),
    KEY(GRAIN, electric_dipole, REALS, "0 0 0", "C m", -INF, INF, AT(pala_grain_keys, edip),
        .nmin = 3, .nmax = 3,
        .doc = "electric dipole moment at the centre of mass, in the frame of the sphere lines; turns with the grain"),
    KEY(GRAIN, magnetic_dipole, REALS, "0 0 0", "A m^2", -INF, INF, AT(pala_grain_keys, mdip),
        .nmin = 3, .nmax = 3,
        .doc = "magnetic dipole moment at the centre of mass, in the frame of the sphere lines; turns with the grain"),
    KEY(GRAIN, size_distribution, WORD, "none", "-", 0, 0, AT(pala_grain_keys, size.law),
        .choices = "none|uniform|normal|lognormal|table|sieve",
        CODES(PALA_SIZE_NONE, PALA_SIZE_UNIFORM, PALA_SIZE_NORMAL, PALA_SIZE_LOGNORMAL, PALA_SIZE_TABLE, PALA_SIZE_SIEVE),
        .doc = "the grains' sizes (radius of the sphere of their volume): none (as built), uniform, normal, lognormal, "
               "table (size_class lines) or sieve (a sieve curve: sieve lines); docs/physics.md, \"Size distributions\""),
    KEY(GRAIN, size_by, WORD, "number", "-", 0, 0, AT(pala_grain_keys, size.by_mass),
        .choices = "number|mass", CODES(0, 1),
        .doc = "the size distribution counts grains (number) or their mass (mass: a sieve curve, a mass-weighted law)"),
    KEY(GRAIN, size_range, REALS, NULL, "m", 0, INF, AT(pala_grain_keys, size.range),
        .nmin = 2, .nmax = 2, .unset = "no truncation (required by uniform and normal)",
        .doc = "least and largest size: the range of size_distribution = uniform, the truncation of normal and lognormal"),
    KEY(GRAIN, size_mean, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, size.mean),
        .doc = "size_distribution = normal: the mean of the normal law (before its truncation to size_range)"),
    KEY(GRAIN, size_sd, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, size.sd),
        .doc = "size_distribution = normal: the standard deviation of the normal law (before its truncation)"),
    KEY(GRAIN, size_median, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, size.median),
        .doc = "size_distribution = lognormal: the median size (of the number, or of the mass with size_by = mass)"),
    KEY(GRAIN, size_sigma, REAL, NULL, "-", 0, 10, AT(pala_grain_keys, size.sigma),
        .doc = "size_distribution = lognormal: the standard deviation of ln(size)"),
    KEY(GRAIN, size_class, REALS, NULL, "m, -", 0, INF, AT(pala_grain_keys, nclass),
        .nmin = 2, .nmax = 2, .repeat = 1,
        .doc = "size_distribution = table: a size and its fraction (of number, or of mass with size_by = mass; any "
               "positive scale); repeat the line for each size"),
    KEY(GRAIN, sieve, REALS, NULL, "m, -", 0, INF, AT(pala_grain_keys, nsieve),
        .nmin = 2, .nmax = 2, .repeat = 1, .unset = "none",
        .doc = "size_distribution = sieve: a size and the fraction of grains (or of mass) up to it, from 0 on the first "
               "line to 1 on the last, sizes increasing (linear in between); repeat the line for each point"),
    KEY(GRAIN, size_resolution, REAL, "0.01", "-", 1e-6, 0.5, AT(pala_grain_keys, size.resolution),
        .doc = "grains of a size distribution share a template per class of sizes this wide (relative): each grain's "
               "size is rounded to the nearest of (1 + size_resolution)^j m (a table's sizes are kept as given)"),
    KEY(GRAIN, file, PATH, NULL, "-", 0, 0, AT(pala_grain_keys, file), .unset = "needed by shape = mesh",
        .doc = "shape = mesh: a closed triangle mesh, an STL file (ASCII or binary), relative to the control file's folder"),
    KEY(GRAIN, scale, REAL, NULL, "-", 0, INF, AT(pala_grain_keys, scale), .unset = "1: the file is in metres", .pos = 1,
        .doc = "shape = mesh: the file's coordinates times this are metres (0.001 for a file in mm)"),
    KEY(GRAIN, spheres, INT, NULL, "-", 1, 64, AT(pala_grain_keys, spheres), .unset = "shape = mesh needs it or tolerance",
        .doc = "shape = mesh: the clump's number of spheres (docs/physics.md, \"Clumps from surface meshes\")"),
    KEY(GRAIN, tolerance, REAL, NULL, "m", 0, INF, AT(pala_grain_keys, tolerance), .unset = "shape = mesh needs it or spheres", .pos = 1,
        .doc = "shape = mesh: as few spheres as keep every surface sample of the mesh within this of the clump's surface"),
    /* ---- [group NAME] ---- */
    KEY(GROUP, grain, NAME, NULL, "-", 0, 0, AT(pala_group_keys, grain),
        .ref = PALA_S_GRAIN,
        .doc = "grain type of this group"),
    KEY(GROUP, count, INT, NULL, "-", 0, 2e9, AT(pala_group_keys, place.count),
        .doc = "number of grains (list placement: defaults to the number of at lines)"),
    KEY(GROUP, placement, WORD, "random", "-", 0, 0, AT(pala_group_keys, place.placement),
        .choices = "random|lattice|list|insert", CODES(PALA_PLACE_RANDOM, PALA_PLACE_LATTICE, PALA_PLACE_LIST, PALA_PLACE_INSERT),
        .doc = "random: uniform, no overlap of bounding spheres; lattice: cubic lattice; list: at lines; "
               "insert: over time, in the region at insert_rate (docs/physics.md, \"Grains that enter and leave\")"),
    KEY(GROUP, region, WORD, "container", "-", 0, 0, AT(pala_group_keys, place.reg.kind),
        .choices = "container|box|slab|cylinder|line",
        CODES(PALA_REGION_CONTAINER, PALA_REGION_BOX, PALA_REGION_SLAB, PALA_REGION_CYLINDER, PALA_REGION_LINE),
        .doc = "where centres of mass may go (always also inside the walls); line: placement = insert only"),
    KEY(GROUP, region_box, REALS, NULL, "m", -INF, INF, AT(pala_group_keys, place.reg.box),
        .nmin = 6, .nmax = 6,
        .doc = "region = box: xlo xhi ylo yhi zlo zhi"),
/* the keys of a cylinder region, in [group] and [outlet] (the group's, the first, have the
 * constants PALA_KEY_region_centre ...: the macros below name them for KEYIN) */
#define CYLINDER(sect, kind, T, f)                                                                                              \
    KEYIN(sect, kind, region_centre, REALS, NULL, "m", -INF, INF, AT(T, f.c), .nmin = 3, .nmax = 3,                             \
          .doc = "region = cylinder: the centre of its axis (in 2D the centre of the disc, z = 0)"),                           \
    KEYIN(sect, kind, region_axis, REALS, NULL, "-", -INF, INF, AT(T, f.a), .nmin = 3, .nmax = 3, .unset = "0 0 1 (z)",        \
          .doc = "region = cylinder: the direction of its axis (not zero; unused in 2D)"),                                     \
    KEYIN(sect, kind, region_radius, REAL, NULL, "m", 0, INF, AT(T, f.radius), .doc = "region = cylinder: its radius"),        \
    KEYIN(sect, kind, region_length, REAL, NULL, "m", 0, INF, AT(T, f.length),                                                 \
          .doc = "region = cylinder: its length along the axis, centred on region_centre (unused in 2D)")
#define PALA_KEY_group_region_centre PALA_KEY_region_centre
#define PALA_KEY_group_region_axis PALA_KEY_region_axis
#define PALA_KEY_group_region_radius PALA_KEY_region_radius
#define PALA_KEY_group_region_length PALA_KEY_region_length
    CYLINDER(GROUP, group, pala_group_keys, place.reg),
    KEY(GROUP, region_line, REALS, NULL, "m", -INF, INF, AT(pala_group_keys, line), .nmin = 6, .nmax = 6,
        .doc = "region = line (placement = insert): the ends x1 y1 z1 x2 y2 z2 of the line the centres are put on"),
    KEY(GROUP, slab_normal, REALS, "0 0 1", "-", -INF, INF, AT(pala_group_keys, place.slab_n),
        .nmin = 3, .nmax = 3,
        .doc = "region = slab: normal of the slab's mid-plane"),
    KEY(GROUP, slab_offset, REAL, "0", "m", -INF, INF, AT(pala_group_keys, place.slab_off),
        .doc = "region = slab: the mid-plane is {p : n.p = offset} (n normalised)"),
    KEY(GROUP, slab_thickness, REAL, NULL, "m", 0, INF, AT(pala_group_keys, place.slab_th),
        .doc = "region = slab: centres lie within thickness/2 of the mid-plane"),
    KEY(GROUP, lattice_spacing, REAL, "0", "m", 0, INF, AT(pala_group_keys, place.spacing),
        .doc = "placement = lattice: spacing; 0 chooses 2.02 x bounding radius"),
    KEY(GROUP, at, REALS, NULL, "m, m/s", -INF, INF, AT(pala_group_keys, nat),
        .nmin = 3, .nmax = 6, .repeat = 1,
        .doc = "placement = list: centre of mass x y z, optionally followed by velocity vx vy vz; repeat"),
    KEY(GROUP, velocity, REALS, "0 0 0", "m/s", -INF, INF, AT(pala_group_keys, place.vel),
        .nmin = 3, .nmax = 3,
        .doc = "initial velocity of every grain (added to the at velocity)"),
    KEY(GROUP, velocity_spread, REAL, "0", "m/s", 0, INF, AT(pala_group_keys, place.vspread),
        .doc = "standard deviation of a random Gaussian velocity added to each Cartesian velocity component"),
    KEY(GROUP, orientation, ORIENT, "random", "-", -INF, INF, SET(set_orientation),
        .nmin = 3, .nmax = 3, .choices = "random|as_written", CODES(PALA_ORIENT_RANDOM, PALA_ORIENT_WRITTEN),
        .doc = "random: uniform; as_written: as the sphere lines give it; or a rotation vector rx ry rz "
               "(tan(phi/2) n) applied to the as-written grain"),
    KEY(GROUP, angular_velocity, REALS, "0 0 0", "1/s", -INF, INF, AT(pala_group_keys, place.omega),
        .nmin = 3, .nmax = 3,
        .doc = "initial angular velocity of every grain"),
    KEY(GROUP, insert_rate, REAL, NULL, "1/s", 0, INF, AT(pala_group_keys, rate), .unset = "none (give it or insert_mass_rate)", .pos = 1,
        .doc = "placement = insert: grains inserted per second, from insert_start to insert_end"),
    KEY(GROUP, insert_mass_rate, REAL, NULL, "kg/s", 0, INF, AT(pala_group_keys, mass_rate), .unset = "none (give it or insert_rate)", .pos = 1,
        .doc = "placement = insert: mass inserted per second (instead of insert_rate)"),
    KEY(GROUP, insert_start, REAL, NULL, "s", 0, INF, AT(pala_group_keys, start), .unset = "0",
        .doc = "placement = insert: when the insertion begins"),
    KEY(GROUP, insert_end, REAL, NULL, "s", 0, INF, AT(pala_group_keys, end), .unset = "none: count ends it",
        .doc = "placement = insert: when it ends (give it or count)"),
    KEY(GROUP, insert_every, INT, NULL, "steps", 1, 1e15, AT(pala_group_keys, every),
        .unset = "the steps a grain takes to fall through the region and its own size",
        .doc = "placement = insert: steps between insertions; each inserts the grains due since the last"),
    /* ---- [pair A B]: values of a pair of materials instead of the mixed ones ---- */
#define MIXED .unset = "the two materials' values mixed (eq. 55)"
    KEYIN(PAIR, pair, friction, REAL, NULL, "-", 0, INF, AT(pala_pairset, mu), MIXED, .pairbit = PALA_PAIR_MU,
        .doc = "friction coefficient mu of the pair"),
    KEYIN(PAIR, pair, delta, REAL, NULL, "-", 0, 1, AT(pala_pairset, delta), MIXED, .pairbit = PALA_PAIR_DELTA,
        .doc = "square of the normal restitution coefficient of the pair (eq. 56)"),
    KEYIN(PAIR, pair, restitution, REAL, NULL, "-", 0, 1, SET(set_pair_restitution), MIXED, .pairbit = PALA_PAIR_DELTA,
        .doc = "normal restitution coefficient e of the pair as measured; sets the pair's delta = e^2 (give one of the two)"),
    KEYIN(PAIR, pair, slip_velocity, REAL, NULL, "m/s", 0, INF, AT(pala_pairset, nu), MIXED, .pairbit = PALA_PAIR_NU,
        .doc = "regularising velocity nu of the pair's friction law (eq. 53)"),
    KEYIN(PAIR, pair, tangential_law, WORD, NULL, "-", 0, 0, AT(pala_pairset, tlaw), TLAWS,
        .unset = "the later of the two materials' laws", .pairbit = PALA_PAIR_TLAW,
        .doc = "tangential law of the pair (regularised, spring or mindlin)"),
    KEYIN(PAIR, pair, tangential_stiffness, REAL, NULL, "N/m", 0, INF, AT(pala_pairset, kt), MIXED, .pairbit = PALA_PAIR_KT,
        .doc = "stiffness k_t of the pair's tangential spring"),
    KEYIN(PAIR, pair, rolling_stiffness, REAL, NULL, "N m/rad", 0, INF, AT(pala_pairset, kroll), MIXED, .pairbit = PALA_PAIR_KROLL,
        .doc = "rolling stiffness of the pair (with rolling_friction: both 0 or both > 0)"),
    KEYIN(PAIR, pair, rolling_friction, REAL, NULL, "-", 0, INF, AT(pala_pairset, muroll), MIXED, .pairbit = PALA_PAIR_MUROLL,
        .doc = "rolling friction of the pair: the rolling moment is capped at it x R* x F_n"),
    KEYIN(PAIR, pair, torsion_stiffness, REAL, NULL, "N m/rad", 0, INF, AT(pala_pairset, ktor), MIXED, .pairbit = PALA_PAIR_KTOR,
        .doc = "torsion stiffness of the pair (with torsion_friction: both 0 or both > 0)"),
    KEYIN(PAIR, pair, torsion_friction, REAL, NULL, "-", 0, INF, AT(pala_pairset, mutor), MIXED, .pairbit = PALA_PAIR_MUTOR,
        .doc = "torsion friction of the pair: the torsion moment is capped at it x R* x F_n"),
    KEYIN(PAIR, pair, normal_damping, WORD, NULL, "-", 0, 0, AT(pala_pairset, damp), DAMPS,
        .unset = "the dashpot if either material has it", .pairbit = PALA_PAIR_DAMP,
        .doc = "normal dissipation of the pair (switch or dashpot)"),
#undef MIXED
    /* ---- [wall NAME] (surface.c; docs/physics.md, "Walls that move") ---- */
    KEYIN(WALL, wall, shape, WORD, NULL, "-", 0, 0, AT(pala_surface, shape),
        .choices = "plane|rectangle|disc|cylinder|cone|line|segment|circle|mesh",
        CODES(PALA_SURF_PLANE, PALA_SURF_RECTANGLE, PALA_SURF_DISC, PALA_SURF_CYLINDER, PALA_SURF_CONE, PALA_SURF_LINE, PALA_SURF_SEGMENT, PALA_SURF_CIRCLE,
              PALA_SURF_MESH),
        .doc = "plane (a half-space), rectangle, disc, cylinder, cone, mesh (an STL file); in 2D line, segment, circle"),
    [PALA_KEY_wall_section_material] = {PALA_S_WALL, "material", PALA_K_NAME, NULL, "-", 0, 0, AT(pala_surface, material),
        .ref = PALA_S_MATERIAL, .doc = "the wall's [material] section"},
    KEY(WALL, point, REALS, "0 0 0", "m", -INF, INF, AT(pala_surface, point), .nmin = 3, .nmax = 3,
        .doc = "a point of the plane; the centre of a rectangle or disc; the axis point where a cylinder or cone starts"),
    KEY(WALL, normal, REALS, "0 0 1", "-", -INF, INF, AT(pala_surface, normal), .nmin = 3, .nmax = 3,
        .doc = "plane, line: the normal towards the grains; rectangle, segment, disc: the normal of the sheet"),
    KEY(WALL, axis, REALS, "0 0 1", "-", -INF, INF, AT(pala_surface, axis), .nmin = 3, .nmax = 3,
        .doc = "cylinder, cone: the direction of the axis from point (any length but 0)"),
    KEY(WALL, edge, REALS, "1 0 0", "-", -INF, INF, AT(pala_surface, edge), .nmin = 3, .nmax = 3,
        .doc = "rectangle: the direction of its first side (across the normal)"),
    KEY(WALL, size, REALS, NULL, "m", 0, INF, SET(set_size), .nmin = 1, .nmax = 2, .pos = 1, .unset = "needed by rectangle and segment",
        .doc = "rectangle: its sides along edge and along normal x edge; segment: its length"),
    KEYIN(WALL, wall, radius, REAL, NULL, "m", 0, INF, AT(pala_surface, radius), .unset = "needed by disc, cylinder, circle and cone",
        .doc = "disc, cylinder, circle: the radius; cone: the radius at point"),
    KEY(WALL, radius_end, REAL, "0", "m", 0, INF, AT(pala_surface, radius_end),
        .doc = "cone: the radius at point + length x axis (0: a tip)"),
    KEY(WALL, length, REAL, "0", "m", 0, INF, AT(pala_surface, length),
        .doc = "cylinder, cone: the length along the axis from point; a cylinder's 0: infinite both ways"),
    KEY(WALL, caps, WORD, "none", "-", 0, 0, AT(pala_surface, caps), .choices = "none|start|end|both", CODES(0, 1, 2, 3),
        .doc = "cylinder, cone: flat discs closing it at point (start), at the far end, or both"),
    KEY(WALL, side, WORD, "both", "-", 0, 0, AT(pala_surface, side), .choices = "both|inside|outside", CODES(0, 1, 2),
        .doc = "cylinder, cone, closed mesh: where groups place grains: inside it, outside, or either (a mesh: the side it touches)"),
    KEYIN(WALL, wall, file, PATH, NULL, "-", 0, 0, AT(pala_surface, file), .unset = "needed by mesh",
        .doc = "mesh: its STL file (ASCII or binary), relative to the control file's folder"),
    KEYIN(WALL, wall, scale, REAL, "1", "-", 0, INF, AT(pala_surface, scale), .pos = 1,
        .doc = "mesh: its coordinates times this are metres (0.001 for a file in mm)"),
    KEY(WALL, area, REAL, "0", "m^2", 0, INF, AT(pala_surface, area),
        .doc = "plane, line: the area its pressure is measured on (2D: a length); 0: no pressure column"),
    KEY(WALL, draw_size, REAL, "0.1", "m", 0, INF, AT(pala_surface, draw_size), .pos = 1,
        .doc = "plane, line, infinite cylinder: the size pictures draw of it (the wall itself is infinite)"),
    KEYIN(WALL, wall, velocity, REALS, "0 0 0", "m/s", -INF, INF, AT(pala_surface, velocity), .nmin = 3, .nmax = 3,
        .doc = "constant velocity of the wall"),
    KEYIN(WALL, wall, angular_velocity, REALS, "0 0 0", "rad/s", -INF, INF, AT(pala_surface, omega), .nmin = 3, .nmax = 3,
        .doc = "the wall turns about rotation_centre at this angular velocity (after spin_up)"),
    KEY(WALL, rotation_centre, REALS, NULL, "m", -INF, INF, SET(set_centre), .nmin = 3, .nmax = 3, .unset = "the wall's point",
        .doc = "the point the wall turns about"),
    KEY(WALL, spin_up, REAL, "0", "s", 0, INF, AT(pala_surface, spin_up),
        .doc = "the angular velocity grows linearly from 0 over this time; 0: at once"),
    KEY(WALL, amplitude, REALS, "0 0 0", "m", -INF, INF, AT(pala_surface, amplitude), .nmin = 3, .nmax = 3,
        .doc = "sinusoidal oscillation: the wall moves by amplitude x sin(2 pi frequency t)"),
    KEY(WALL, frequency, REAL, "0", "Hz", 0, INF, AT(pala_surface, frequency),
        .doc = "frequency of the oscillation"),
    KEY(WALL, servo_pressure, REAL, "0", "Pa", 0, INF, AT(pala_surface, servo_pressure),
        .doc = "> 0: a servo moves the wall along its normal to hold this mean pressure (2D: N/m)"),
    KEY(WALL, servo_gain, REAL, "0", "m/(s Pa)", 0, INF, AT(pala_surface, servo_gain),
        .doc = "the servo's speed per pascal of pressure error"),
    KEY(WALL, servo_speed, REAL, "0", "m/s", 0, INF, AT(pala_surface, servo_speed),
        .doc = "the servo's top speed"),
    /* ---- [outlet NAME]: a region whose grains are removed ---- */
    KEYIN(OUTLET, outlet, region, WORD, NULL, "-", 0, 0, AT(pala_outlet_keys, out.region.kind),
          .choices = "plane|box|cylinder", CODES(PALA_REGION_PLANE, PALA_REGION_BOX, PALA_REGION_CYLINDER),
          .doc = "where grains are removed: plane (its side the normal points to), box or cylinder (in 2D a line's side, rectangle, disc)"),
    KEYIN(OUTLET, outlet, region_box, REALS, NULL, "m", -INF, INF, AT(pala_outlet_keys, out.region.box), .nmin = 6, .nmax = 6,
          .doc = "region = box: xlo xhi ylo yhi zlo zhi"),
    CYLINDER(OUTLET, outlet, pala_outlet_keys, out.region),
    KEY(OUTLET, region_point, REALS, NULL, "m", -INF, INF, AT(pala_outlet_keys, point), .nmin = 3, .nmax = 3,
        .doc = "region = plane: a point of the plane"),
    KEY(OUTLET, region_normal, REALS, NULL, "-", -INF, INF, AT(pala_outlet_keys, normal), .nmin = 3, .nmax = 3,
        .doc = "region = plane: its normal, pointing into the region (0 0 -1: below the plane)"),
    KEY(OUTLET, every, INT, "100", "steps", 1, 1e15, AT(pala_outlet_keys, out.every),
        .doc = "steps between removals: the grains whose centre of mass is in the region then leave"),
#undef CYLINDER
    /* ---- [measure NAME]: pala measure's quantities during the run, into measure-NAME.tsv ---- */
    KEYIN(MEASURE, measure, every, INT, "100", "steps", 1, 1e15, AT(pala_measure_keys, every),
          .doc = "write a row of measure-NAME.tsv (packing, coordination, stress, fabric over the region) every this many steps"),
#define SIDE(ax) KEY(MEASURE, region_##ax, REALS, NULL, "m", -INF, INF, AT(pala_measure_keys, r##ax), .nmin = 2, .nmax = 2, \
                     .unset = "the walls' box along " #ax " (or the grains')", .doc = "the region's extent LO HI along " #ax)
    SIDE(x), SIDE(y), SIDE(z),
#undef SIDE
};
const int pala_nkeys = PALA_NKEYS;

/* ---- other programs' words -------------------------------------------------------------- */
#define NOT_YET "not supported yet (docs/control-file.md, \"Not supported yet\")"
const pala_key_alias pala_key_aliases[] = {
    {"timestep", PALA_S_TOP, "dt", "LAMMPS's and LIGGGHTS's timestep"},
    {"time_step", PALA_S_TOP, "dt", "the time step"},
    {"delta_t", PALA_S_TOP, "dt", "the time step"},
    {"run", PALA_S_TOP, "steps", "LAMMPS's run N"},
    {"nsteps", PALA_S_TOP, "steps", "the number of steps"},
    {"time_max", PALA_S_TOP, "end_time", "the simulated time"},
    {"timemax", PALA_S_TOP, "end_time", "MercuryDPM's timeMax"},
    {"duration", PALA_S_TOP, "end_time", "the simulated time"},
    {"g", PALA_S_TOP, "gravity", "the acceleration field, three numbers"},
    {"skin", PALA_S_TOP, "neighbor_skin", "the Verlet skin"},
    {"viscosity", PALA_S_TOP, "fluid_viscosity", "the background fluid's viscosity"},
    {"youngs_modulus", PALA_S_MATERIAL, "young", "Young's modulus"},
    {"young_modulus", PALA_S_MATERIAL, "young", "Young's modulus"},
    {"youngmodulus", PALA_S_MATERIAL, "young", "Young's modulus"},
    {"e_modulus", PALA_S_MATERIAL, "young", "Young's modulus"},
    {"poisson_ratio", PALA_S_MATERIAL, "poisson", "Poisson's ratio"},
    {"poissons_ratio", PALA_S_MATERIAL, "poisson", "Poisson's ratio"},
    {"poissonratio", PALA_S_MATERIAL, "poisson", "Poisson's ratio"},
    {"coefficient_of_restitution", PALA_S_MATERIAL, "restitution", "the restitution coefficient e"},
    {"restitution_coefficient", PALA_S_MATERIAL, "restitution", "the restitution coefficient e"},
    {"coefficientrestitution", PALA_S_MATERIAL, "restitution", "the restitution coefficient e"},
    {"friction_coefficient", PALA_S_MATERIAL, "friction", "the Coulomb coefficient mu"},
    {"coefficient_of_friction", PALA_S_MATERIAL, "friction", "the Coulomb coefficient mu"},
    {"frictionangle", PALA_S_MATERIAL, "friction", "mu = tan(YADE's frictionAngle)"},
    {"mu", PALA_S_MATERIAL, "friction", "the Coulomb coefficient mu"},
    {"rho", PALA_S_MATERIAL, "density", "the mass density"},
    {"kn", PALA_S_MATERIAL, "normal_stiffness", "the linear spring's k_n, with normal_law = hooke"},
    {"kt", PALA_S_MATERIAL, "tangential_stiffness", "the tangential spring's k_t"},
    {"rolling_resistance", PALA_S_MATERIAL, "rolling_friction", "the rolling friction (with rolling_stiffness)"},
    {"radius_min", PALA_S_GRAIN, "radius", "one radius per [grain] section (a spread of sizes: several [grain] and "
                                           "[group] sections, or shape = random with component_radius)"},
    {"radius_max", PALA_S_GRAIN, "radius", "one radius per [grain] section (a spread of sizes: several [grain] and "
                                           "[group] sections, or shape = random with component_radius)"},
    {"diameter", PALA_S_GRAIN, "radius", "pala takes the radius, half the diameter"},
    {"number", PALA_S_GROUP, "count", "the number of grains of a group"},
    {"periodic", PALA_S_N, NULL, "periodic boundaries are " NOT_YET},
    {"boundary", PALA_S_N, NULL, "periodic boundaries are " NOT_YET "; the walls are the container's (container, box)"},
    {"pour", PALA_S_GROUP, "placement", "LAMMPS's fix pour, LIGGGHTS's fix insert/pour: a [group] with placement = insert, its region, "
                                         "insert_rate or insert_mass_rate"},
    {"dump", PALA_S_TOP, "trajectory_every", "LAMMPS's dump: trajectory_every (and contacts_every, grains_every, xyz_every, vtk_every)"},
    {"insertion_rate", PALA_S_GROUP, "insert_rate", "a [group] with placement = insert inserts its grains during the run, at insert_rate "
                                                  "(grains/s) or insert_mass_rate (kg/s)"},
    {"cohesion", PALA_S_N, NULL, "cohesion (JKR, liquid bridges) is " NOT_YET},
    {"temperature", PALA_S_N, NULL, "heat transfer is " NOT_YET},
    {NULL, 0, NULL, NULL}
};
#undef NOT_YET

const pala_key_alias *pala_key_alias_of(const char *w)
{
    for (const pala_key_alias *a = pala_key_aliases; a->word; a++) {
        size_t i = 0;
        while (w[i] && tolower((unsigned char)w[i]) == a->word[i]) i++;
        if (!w[i] && !a->word[i]) return a;
    }
    return NULL;
}

/* ---- storing a value ------------------------------------------------------------------ */
int pala_key_word(const char *choices, const char *w)
{
    size_t n = strlen(w);
    const char *p = choices;
    for (int i = 0; p && *p; i++) {
        const char *bar = strchr(p, '|');
        size_t l = bar ? (size_t)(bar - p) : strlen(p);
        if (l == n && !strncmp(p, w, n)) return i;
        p = bar ? bar + 1 : NULL;
    }
    return -1;
}

int pala_key_reals(const char *txt, double *out, int max, int *n)
{
    const char *p = txt;
    *n = 0;
    for (;;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) return 0;
        if (*n == max) return -2;
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || (*end && !isspace((unsigned char)*end)) || !isfinite(v)) return -1;
        out[(*n)++] = v;
        p = end;
    }
}

int pala_key_positive(const pala_keydef *k) { return k->type != PALA_K_INT && k->lo == 0 && ((k->def == NULL && k->unset == NULL) || k->pos); }

int pala_key_in_range(const pala_keydef *k, double v, char *buf, size_t len)
{
    int strict = pala_key_positive(k);
    if (isfinite(v) && v >= k->lo && v <= k->hi && !(strict && v == 0)) return 1;
    if (!isfinite(v)) snprintf(buf, len, "must be a finite number (%s)", k->unit);
    else if (strict && isinf(k->hi)) snprintf(buf, len, "must be positive (%s)", k->unit);
    else if (strict) snprintf(buf, len, "must be above 0 and at most %g (%s)", k->hi, k->unit);
    else if (isinf(k->hi)) snprintf(buf, len, "must be at least %g", k->lo);
    else snprintf(buf, len, "must be between %g and %g", k->lo, k->hi);
    return 0;
}

void pala_key_store(const pala_keydef *k, void *obj, const char *text)
{
    pala_value v = {text, -1, 0, {0}};
    int word = k->choices ? pala_key_word(k->choices, text) : -1;
    if (word >= 0) v.code = k->codes[word];
    else if (k->type != PALA_K_NAME && k->type != PALA_K_PATH) pala_key_reals(text, v.x, 8, &v.n);
    char *f = (char *)obj + k->bind.off;
    switch (k->bind.store) {
    case PALA_ST_INT: *(int *)f = k->repeat ? *(int *)f + 1 : word >= 0 ? v.code : (int)v.x[0]; break;
    case PALA_ST_LONG: *(long *)f = (long)v.x[0]; break;
    case PALA_ST_REAL: *(double *)f = v.x[0]; break;
    case PALA_ST_REALS: memcpy(f, v.x, k->bind.size < sizeof v.x ? k->bind.size : sizeof v.x); break;
    case PALA_ST_VEC3: *(pala_vec3 *)f = pala_v(v.x[0], v.x[1], v.x[2]); break;
    case PALA_ST_TEXT: *(const char **)f = text; break;
    case PALA_ST_SET: k->bind.set(obj, &v); break;
    default: break;
    }
}

/* ---- the wall kinds' keys in the table's order ---------------------------------------- */
/* the first kind from i on whose keys follow the row named after, or NULL */
static const pala_wall_kind *kind_after(int *i, const char *after)
{
    for (const pala_wall_kind *k; (k = pala_wall_kind_at(*i)); ++*i)
        if (k->nkeys > 0 && !strcmp(k->after, after)) return k;
    return NULL;
}

const pala_keydef *pala_key_first(void) { return &pala_keys[0]; }

int pala_key_wall(const pala_keydef *k)
{
    const pala_wall_kind *kd;
    for (int i = 0; (kd = pala_wall_kind_at(i)); i++)
        for (int j = 0; j < kd->nkeys; j++)
            if (k == &kd->keys[j]) return i;
    return -1;
}

const pala_keydef *pala_key_next(const pala_keydef *k)
{
    int i = pala_key_wall(k), r = 0;
    const pala_wall_kind *n;
    if (i < 0) {   /* a row of the table: the kinds that follow it, else the next row */
        r = (int)(k - pala_keys);
        i = 0;
        if ((n = kind_after(&i, k->name))) return &n->keys[0];
        return r + 1 < PALA_NKEYS ? &pala_keys[r + 1] : NULL;
    }
    const pala_wall_kind *kd = pala_wall_kind_at(i);
    if (k + 1 < kd->keys + kd->nkeys) return k + 1;
    i++;
    if ((n = kind_after(&i, kd->after))) return &n->keys[0];
    while (r < PALA_NKEYS && !(pala_keys[r].sect == PALA_S_TOP && !strcmp(pala_keys[r].name, kd->after))) r++;
    return r + 1 < PALA_NKEYS ? &pala_keys[r + 1] : NULL;
}

/* ---- the walls' parameters ------------------------------------------------------------ */
/* The keys of kind k: its own rows, or for the walls of [wall] sections the section's rows
 * of the table (their struct is the wall's parameters, pala_surface); the j-th, or NULL. */
static const pala_keydef *kind_key(const pala_wall_kind *k, int j)
{
    if (k->nkeys) return j < k->nkeys ? &k->keys[j] : NULL;
    if (strcmp(k->name, "surface")) return NULL;
    for (int r = 0; r < PALA_NKEYS; r++)
        if (pala_keys[r].sect == PALA_S_WALL && j-- == 0) return &pala_keys[r];
    return NULL;
}

int pala_world_add_wall(pala_world *w, const char *kind, int mat)
{
    const pala_wall_kind *k = kind ? pala_wall_kind_named(kind) : NULL;
    if (!k) {
        char names[160] = "";
        for (int i = 0; pala_wall_kind_at(i); i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "", pala_wall_kind_at(i)->name);
        return pala_walls_refuse(w, "'%s' is not a kind of wall: give one of %s", kind ? kind : "(null)", names);
    }
    if (mat < 0 || mat >= w->nmat) return pala_walls_refuse(w, "a %s of material %d: add the material first (the world has %d)", k->name, mat, w->nmat);
    int i = pala_walls_add(w, k, mat);
    const pala_keydef *kd;
    for (int j = 0; i >= 0 && (kd = kind_key(k, j)); j++)   /* its keys' defaults */
        if (kd->def && kd->bind.store != PALA_ST_NONE) pala_key_store(kd, w->walls[i].par, kd->def);
    return i;
}

int pala_world_wall_set(pala_world *w, int i, const char *key, const char *value)
{
    if (i < 0 || i >= w->nwalls) return pala_walls_refuse(w, "there is no wall %d (the world has %d)", i, w->nwalls);
    const pala_wall_kind *k = w->walls[i].kind;
    const pala_keydef *kd = NULL, *c;
    for (int j = 0; key && (c = kind_key(k, j)); j++)
        if (!strcmp(c->name, key)) kd = c;
    if (!kd || kd->bind.store == PALA_ST_NONE || kd->type == PALA_K_NAME || !value)
        return pala_walls_refuse(w, "a %s has no parameter '%s'%s", k->name, key ? key : "(null)",
                                 kd && value ? " (its material is given to pala_world_add_wall)" : "");
    /* the value as the control-file reader takes it: a word of the key's, or numbers of its
     * count, each in its range (pala_key_in_range) */
    double x[8];
    char why[96] = "not a value of the key";
    int n = 0, ok;
    if (kd->type == PALA_K_WORD) ok = pala_key_word(kd->choices, value) >= 0;
    else {
        int one = kd->type == PALA_K_REAL || kd->type == PALA_K_INT;
        ok = pala_key_reals(value, x, 8, &n) == 0 && n >= (one ? 1 : kd->nmin) && n <= (one ? 1 : kd->nmax);
        for (int j = 0; j < n && ok; j++) ok = pala_key_in_range(kd, x[j], why, sizeof why) && (kd->type != PALA_K_INT || x[j] == floor(x[j]));
    }
    if (!ok) return pala_walls_refuse(w, "'%s = %s': %s (%s)", key, value, why, kd->doc);
    pala_key_store(kd, w->walls[i].par, value);
    return 0;
}

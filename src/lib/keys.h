/* keys.h: the one table of control-file keys.  It drives the parser, the range checks,
 * `pala help keys`, the effective control file a run writes (docs/control-file.md is its
 * prose version), and where each value goes: every row is bound to a field of the struct
 * its kind of section fills (below), so the reader (scene.c) stores values by walking the
 * table and never names a key by a string. */
#ifndef PALA_KEYS_H
#define PALA_KEYS_H
#include "pala/pala.h"
#include "keydef.h"
#include "place.h"
#include "sizes.h"
#include "contact_law.h"
#include "surface.h"
#include <stddef.h>

/* Every key, in table order (the order of `pala help keys` and of control.txt).  Code names
 * a key by its constant, PALA_KEY_ followed by the key's name: a misspelt key is a compile
 * error.  Names are unique within a section; a name that an earlier section has too takes
 * its section's kind before the name in its constant (PALA_KEY_material_tangential_law,
 * PALA_KEY_pair_friction). */
enum pala_key {
    /* top level */
    PALA_KEY_dimension, PALA_KEY_container, PALA_KEY_wall_material, PALA_KEY_gravity, PALA_KEY_hertz,
    PALA_KEY_rotation_step, PALA_KEY_sphere_orientation, PALA_KEY_dt, PALA_KEY_steps, PALA_KEY_end_time, PALA_KEY_seed,
    PALA_KEY_energy_every, PALA_KEY_trajectory_every, PALA_KEY_trajectory_format, PALA_KEY_xyz_every, PALA_KEY_vtk_every,
    PALA_KEY_vtk_format, PALA_KEY_contacts_every, PALA_KEY_contacts_format, PALA_KEY_grains_every,
    PALA_KEY_max_overlap,
    PALA_KEY_neighbor_skin, PALA_KEY_sort_every, PALA_KEY_lammps_data, PALA_KEY_lammps_material,
    PALA_KEY_lammps_mc_samples, PALA_KEY_start_from, PALA_KEY_start_time, PALA_KEY_start_contacts, PALA_KEY_gravitational_constant, PALA_KEY_permittivity,
    PALA_KEY_interaction_cutoff, PALA_KEY_electric_field, PALA_KEY_electric_field_turn,
    PALA_KEY_magnetic_field, PALA_KEY_magnetic_field_turn, PALA_KEY_lorentz_step,
    PALA_KEY_max_memory, PALA_KEY_checkpoint_every, PALA_KEY_tangential_law, PALA_KEY_normal_damping,
    PALA_KEY_fluid_viscosity, PALA_KEY_fluid_density, PALA_KEY_fluid_velocity, PALA_KEY_dt_check,
    /* [material NAME] */
    PALA_KEY_density, PALA_KEY_young, PALA_KEY_poisson, PALA_KEY_delta, PALA_KEY_restitution, PALA_KEY_friction,
    PALA_KEY_slip_velocity, PALA_KEY_material_tangential_law, PALA_KEY_tangential_stiffness,
    PALA_KEY_rolling_stiffness, PALA_KEY_rolling_friction, PALA_KEY_torsion_stiffness,
    PALA_KEY_torsion_friction, PALA_KEY_normal_law,
#define PALA_NLAW_KEY(nm, ...) PALA_KEY_##nm,
    PALA_NLAW_KEYS(PALA_NLAW_KEY)   /* the normal laws' coefficients (contact_law.h) */
#undef PALA_NLAW_KEY
    PALA_KEY_material_normal_damping,
    /* [grain NAME] */
    PALA_KEY_material, PALA_KEY_shape, PALA_KEY_radius, PALA_KEY_sphere,
    PALA_KEY_arcs_shape, PALA_KEY_sides, PALA_KEY_corner_radius, PALA_KEY_side_radius, PALA_KEY_arc, PALA_KEY_thickness,
    PALA_KEY_volume_radius, PALA_KEY_mass_properties, PALA_KEY_mc_samples, PALA_KEY_components,
    PALA_KEY_component_radius, PALA_KEY_spread, PALA_KEY_variants, PALA_KEY_charge,
    PALA_KEY_electric_dipole, PALA_KEY_magnetic_dipole,
    PALA_KEY_size_distribution, PALA_KEY_size_by, PALA_KEY_size_range, PALA_KEY_size_mean, PALA_KEY_size_sd,
    PALA_KEY_size_median, PALA_KEY_size_sigma, PALA_KEY_size_class, PALA_KEY_sieve, PALA_KEY_size_resolution,
    PALA_KEY_file, PALA_KEY_scale, PALA_KEY_spheres, PALA_KEY_tolerance,
    /* [group NAME] */
    PALA_KEY_grain, PALA_KEY_count, PALA_KEY_placement, PALA_KEY_region,
    PALA_KEY_region_box, PALA_KEY_region_centre, PALA_KEY_region_axis, PALA_KEY_region_radius,
    PALA_KEY_region_length, PALA_KEY_region_line, PALA_KEY_slab_normal, PALA_KEY_slab_offset,
    PALA_KEY_slab_thickness, PALA_KEY_lattice_spacing, PALA_KEY_at, PALA_KEY_velocity,
    PALA_KEY_velocity_spread, PALA_KEY_orientation, PALA_KEY_angular_velocity,
    PALA_KEY_insert_rate, PALA_KEY_insert_mass_rate, PALA_KEY_insert_start, PALA_KEY_insert_end,
    PALA_KEY_insert_every,
    /* [pair A B] */
    PALA_KEY_pair_friction, PALA_KEY_pair_delta, PALA_KEY_pair_restitution, PALA_KEY_pair_slip_velocity,
    PALA_KEY_pair_tangential_law, PALA_KEY_pair_tangential_stiffness, PALA_KEY_pair_rolling_stiffness,
    PALA_KEY_pair_rolling_friction, PALA_KEY_pair_torsion_stiffness, PALA_KEY_pair_torsion_friction,
    PALA_KEY_pair_normal_damping,
    /* [wall NAME] (surface.h) */
    PALA_KEY_wall_shape, PALA_KEY_wall_section_material, PALA_KEY_point, PALA_KEY_normal, PALA_KEY_axis, PALA_KEY_edge,
    PALA_KEY_size, PALA_KEY_wall_radius, PALA_KEY_radius_end, PALA_KEY_length, PALA_KEY_caps, PALA_KEY_side, PALA_KEY_wall_file, PALA_KEY_wall_scale, PALA_KEY_area,
    PALA_KEY_draw_size, PALA_KEY_wall_velocity, PALA_KEY_wall_angular_velocity, PALA_KEY_rotation_centre,
    PALA_KEY_spin_up, PALA_KEY_amplitude, PALA_KEY_frequency, PALA_KEY_servo_pressure, PALA_KEY_servo_gain,
    PALA_KEY_servo_speed,
    /* [outlet NAME] */
    PALA_KEY_outlet_region, PALA_KEY_outlet_region_box, PALA_KEY_outlet_region_centre, PALA_KEY_outlet_region_axis,
    PALA_KEY_outlet_region_radius, PALA_KEY_outlet_region_length, PALA_KEY_region_point, PALA_KEY_region_normal,
    PALA_KEY_every,
    /* [measure NAME] */
    PALA_KEY_measure_every, PALA_KEY_region_x, PALA_KEY_region_y, PALA_KEY_region_z,
    PALA_NKEYS
};

/* ---- what the keys fill: one struct per kind of section ------------------------------ */
/* What the check of dt before the run does with a dt that is surely unstable (key dt_check). */
enum pala_dt_check { PALA_DT_CHECK_ERROR = 0, PALA_DT_CHECK_WARN = 1, PALA_DT_CHECK_OFF = 2 };
/* The top level: the world (its physics keys) and the run's settings. */
typedef struct pala_top_keys {
    pala_world w;                /* dimension, gravity, hertz, rotation_step, dt, max_overlap,
                                    neighbor_skin, the centre interactions and the E and B fields */
    int container;               /* the container's kind: 1 + its index (pala_wall_kind_at);
                                    0: none */
    const char *wall_material;   /* name of the container's [material] section */
    long steps;                  /* number of steps; given end_time, scene.c sets it to
                                    round(end_time / dt) */
    double end_time;             /* simulated time, s */
    long seed;                   /* seed of the random generator */
    long energy_every;           /* steps between rows of energy.tsv */
    long trajectory_every;       /* steps between frames of trajectory.txt */
    int trajectory_format;       /* 0: trajectory.txt (text), 1: trajectory.bin (binary) */
    long xyz_every;              /* steps between frames of trajectory.xyz; 0: not written */
    long vtk_every;              /* steps between VTK frames in vtk/; 0: not written */
    long contacts_every;         /* steps between frames of contacts.tsv (or .bin); 0: not written */
    int vtk_format;              /* 0: vtk/ as ASCII XML, 1: binary (appended raw data) */
    int contacts_format;         /* 0: contacts.tsv (text), 1: contacts.bin (binary) */
    long grains_every;           /* steps between frames of grains.tsv; 0: not written */
    const char *lammps_data;     /* LAMMPS data file, resolved against the control file's folder */
    const char *lammps_material; /* name of the [material] section of its grains */
    long lammps_mc_samples;      /* Monte Carlo samples of the builder per clump shape */
    const char *start_from;      /* a run folder whose final state the grains start from, resolved
                                    against the control file's folder */
    double start_time;           /* the frame of the run nearest to this time, s (if given) */
    int start_contacts;          /* 0: keep the run's contact history, 1: drop it */
    double max_memory;           /* bytes a scene may ask for; 0: the machine's memory */
    long checkpoint_every;       /* steps between checkpoints of a run; 0: at the stop only */
    int dt_check;                /* enum pala_dt_check */
} pala_top_keys;

/* [material NAME] fills a pala_material (pala.h). */

/* [grain NAME] */
enum pala_shape { PALA_SHAPE_SPHERE, PALA_SHAPE_SPHERES, PALA_SHAPE_RANDOM, PALA_SHAPE_ARCS, PALA_SHAPE_MESH };
enum pala_arcs_shape { PALA_ARCS_LIST, PALA_ARCS_OVAL, PALA_ARCS_TRIANGLE, PALA_ARCS_SQUARE, PALA_ARCS_POLYGON };
/* exact: the union's volume and moments to rounding (union.c); monte_carlo: the paper's
 * estimate with mc_samples samples (eqs. 29-31) */
enum pala_mass_properties { PALA_MASS_EXACT, PALA_MASS_MONTE_CARLO };
typedef struct pala_grain_keys {
    const char *material;        /* name of the grain's [material] section */
    int shape;                   /* enum pala_shape */
    double radius;               /* shape = sphere: its radius, m */
    int nsphere;                 /* shape = spheres: number of 'sphere' lines (the builder reads
                                    them in order, so each error names its line) */
    int arcs_shape;              /* shape = arcs: enum pala_arcs_shape */
    int sides;                   /* arcs_shape = polygon: its sides */
    double corner_radius;        /* quasi-polygons: the corners' radius, m */
    double side_radius;          /* ... the sides', m */
    int narc;                    /* arcs_shape = list: number of 'arc' lines (read in order) */
    double thickness;            /* shape = arcs: the prism's thickness, m; 0: 4/3 of the
                                    radius of the disc of its area */
    double volume_radius;        /* radius of the sphere of the grain's volume, m; 0: as built */
    int mass_properties;         /* enum pala_mass_properties: how the builder measures the grain */
    long mc_samples;             /* Monte Carlo samples of the builder (mass_properties = monte_carlo) */
    double components[2];        /* shape = random: least and most number of components */
    double component_radius[2];  /* shape = random: least and largest component radius, m */
    double spread;               /* shape = random: centre distance, in units of r_a + r_b */
    int variants;                /* shape = random: number of distinct shapes; 0: one per grain */
    double charge;               /* point charge at the centre of mass, C */
    pala_vec3 edip, mdip;        /* dipole moments in the frame of the sphere lines, C m and A m^2 */
    pala_sizes size;             /* the size distribution (size_* keys; its table or sieve curve
                                    from the size_class or sieve lines, read by the builder) */
    int nclass, nsieve;          /* number of size_class and sieve lines */
    const char *file;            /* shape = mesh: its STL file, resolved against the control file's folder */
    double scale;                /* shape = mesh: the file's coordinates times this are metres; 0 (not
                                    given): 1 */
    int spheres;                 /* shape = mesh: spheres of the clump; 0: as few as tolerance needs */
    double tolerance;            /* shape = mesh: the largest distance of the mesh's surface from the clump's, m */
} pala_grain_keys;

/* [group NAME] */
typedef struct pala_group_keys {
    const char *grain;           /* name of the group's [grain] section */
    int nat;                     /* placement = list: number of 'at' lines (read in order by the
                                    builder into place.at) */
    pala_group place;            /* count, placement, region, velocities, orientation (place.h) */
    double line[6];              /* region = line: its ends x1 y1 z1 x2 y2 z2, m (region_line) */
    /* placement = insert: an inserter (pala.h), the rest of it from place */
    double rate, mass_rate;      /* grains/s (insert_rate), kg/s (insert_mass_rate) */
    double start, end;           /* s (insert_start, insert_end) */
    long every;                  /* steps (insert_every); 0: the fall through the region */
    double mass_n;               /* a mass rate without count: the grains it asks for, at its
                                    lightest grain (scene.c, build_inserter; 0 before) */
} pala_group_keys;

/* [outlet NAME] */
typedef struct pala_outlet_keys {
    pala_outlet out;             /* its region (region, region_box, the cylinder's keys) and every */
    pala_vec3 point, normal;     /* region = plane: a point of the plane, its normal into the region */
} pala_outlet_keys;

/* [measure NAME] (pala_scene_measure) */
typedef struct pala_measure_keys {
    long every;                  /* steps between rows */
    double rx[2], ry[2], rz[2];  /* the region's extent along x, y, z (region_x ...), m */
} pala_measure_keys;

/* [pair A B] fills a pala_pairset (pala.h): the values given, each with its PALA_PAIR_* bit
 * in `set` (the row's pairbit); a, b are the materials' indices, set when the world is built.
 * The section's name is "A.B" as written (material names hold no '.'), so --set names a key
 * pair.A.B.KEY; A.B and B.A are the same pair. */

/* [wall NAME] fills a pala_surface (surface.h). */

/* ---- the table (its rows: keydef.h) ---------------------------------------------------- */
extern const pala_keydef pala_keys[PALA_NKEYS];   /* indexed by enum pala_key */
extern const int pala_nkeys;                       /* PALA_NKEYS */
extern const char *const pala_sect_names[PALA_S_N];

/* The words of other programs (LAMMPS, LIGGGHTS, MercuryDPM, YADE) and of ideas pala does
 * not have yet, for the reader's "unknown key" message: a word, the section kind of the
 * key it means (PALA_S_N: any section) and that key, or key NULL and a note on what is not
 * supported yet.  Ends with a row of word NULL. */
typedef struct pala_key_alias {
    const char *word;     /* as another program writes it (compared ignoring case) */
    int sect;             /* enum pala_sect of key */
    const char *key;      /* pala's key, or NULL: not supported yet */
    const char *note;     /* what pala calls it or does instead; one clause */
} pala_key_alias;
extern const pala_key_alias pala_key_aliases[];
/* The row of word w (ignoring case), or NULL. */
const pala_key_alias *pala_key_alias_of(const char *w);

/* The wall kinds' keys are theirs (container.h: pala_wall_kind.keys, bound to the kind's
 * parameters); keys.c joins them to the table.  Every key, in the order of `pala help
 * keys` and control.txt: the rows of pala_keys, each followed by the keys of the kinds that
 * follow it (pala_wall_kind.after).  for (k = pala_key_first(); k; k = pala_key_next(k)). */
const pala_keydef *pala_key_first(void);
const pala_keydef *pala_key_next(const pala_keydef *k);
/* The index of the wall kind whose key k is (pala_wall_kind_at), or -1 for a row of pala_keys. */
int pala_key_wall(const pala_keydef *k);

/* Store the checked value text of key k in obj, the struct of the key's section. */
void pala_key_store(const pala_keydef *k, void *obj, const char *text);
/* The index of word w among choices ("a|b|c"), or -1. */
int pala_key_word(const char *choices, const char *w);
/* Parse blank-separated reals into out[0..max): 0 and the count in *n; -1 if a word is not a
 * finite number, -2 if there are more than max. */
int pala_key_reals(const char *txt, double *out, int max, int *n);
/* 1 if a given number of key k must be > 0 where its range says lo = 0 (real keys without
 * default or unset, and those marked pos). */
int pala_key_positive(const pala_keydef *k);
/* The range rule of a numeric key, written once for the reader of control files and the
 * checks of pala_world_prepare: 1 if v is finite and in [lo, hi] and, for a real key with
 * lower bound 0 that has neither a default nor a meaning when unset (lengths, dt, moduli),
 * not 0; else 0 and what is expected in buf ("must be between 0 and 1"). */
int pala_key_in_range(const pala_keydef *k, double v, char *buf, size_t len);

/* scene.c: the struct the keys of section [KIND NAME] of a loaded scene were stored in
 * (pala_top_keys for PALA_S_TOP, whose name is ""; pala_material, pala_grain_keys,
 * pala_group_keys, pala_pairset, pala_outlet_keys), or NULL if it has no such section.  For
 * the tests. */
void *pala_scene_keys(pala_scene *s, int kind, const char *name);
/* scene.c: the parameters the keys of wall kind i (pala_wall_kind_at) were stored in. */
void *pala_scene_wall_keys(pala_scene *s, int i);
/* scene.c: read FILE and the overrides and check every value, without building a world
 * (the fuzz target of the parser, tests/fuzz/).  Messages to err; PALA_OK or PALA_ERR_INPUT. */
int pala_scene_parse(const char *path, int nset, char **sets, FILE *err);

#endif

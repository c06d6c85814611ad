/* keys.h: the one table of control-file keys.  It drives the parser, the range checks,
 * `pala help keys`, and the effective control file a run writes (docs/control-file.md
 * is its prose version). */
#ifndef PALA_KEYS_H
#define PALA_KEYS_H

enum pala_sect { PALA_S_TOP, PALA_S_MATERIAL, PALA_S_GRAIN, PALA_S_GROUP, PALA_S_N };
enum pala_ktype {
    PALA_K_INT,     /* one integer in [lo, hi] */
    PALA_K_REAL,    /* one real number in [lo, hi] */
    PALA_K_REALS,   /* nmin..nmax reals, each in [lo, hi] */
    PALA_K_WORD,    /* one of `choices` ("a|b|c") */
    PALA_K_NAME,    /* name of a section of kind `ref` */
    PALA_K_ORIENT,  /* a word of `choices` or three reals (a rotation vector) */
    PALA_K_PATH     /* a file name (relative to the control file's folder) */
};

/* Every key, in table order (the order of `pala help keys` and of control.txt).  Code names
 * a key by its constant, PALA_KEY_ followed by the key's name: a misspelt key is a compile
 * error.  Names are unique across sections. */
enum pala_key {
    /* top level */
    PALA_KEY_dimension, PALA_KEY_container, PALA_KEY_box, PALA_KEY_cavity_radius,
    PALA_KEY_cavity_centre, PALA_KEY_wall_material, PALA_KEY_gravity, PALA_KEY_hertz,
    PALA_KEY_rotation_step, PALA_KEY_dt, PALA_KEY_steps, PALA_KEY_end_time, PALA_KEY_seed,
    PALA_KEY_energy_every, PALA_KEY_trajectory_every, PALA_KEY_max_overlap,
    PALA_KEY_neighbor_skin, PALA_KEY_lammps_data, PALA_KEY_lammps_material,
    PALA_KEY_lammps_mc_samples,
    /* [material NAME] */
    PALA_KEY_density, PALA_KEY_young, PALA_KEY_poisson, PALA_KEY_delta, PALA_KEY_friction,
    PALA_KEY_slip_velocity,
    /* [grain NAME] */
    PALA_KEY_material, PALA_KEY_shape, PALA_KEY_radius, PALA_KEY_sphere,
    PALA_KEY_volume_radius, PALA_KEY_mc_samples, PALA_KEY_components,
    PALA_KEY_component_radius, PALA_KEY_spread, PALA_KEY_variants,
    /* [group NAME] */
    PALA_KEY_grain, PALA_KEY_count, PALA_KEY_placement, PALA_KEY_region,
    PALA_KEY_region_box, PALA_KEY_slab_normal, PALA_KEY_slab_offset,
    PALA_KEY_slab_thickness, PALA_KEY_lattice_spacing, PALA_KEY_at, PALA_KEY_velocity,
    PALA_KEY_velocity_spread, PALA_KEY_orientation, PALA_KEY_angular_velocity,
    PALA_NKEYS
};

typedef struct pala_keydef {
    int sect;             /* enum pala_sect */
    const char *name;
    int type;             /* enum pala_ktype */
    const char *def;      /* default as text; NULL: none (required where used) */
    const char *unit;
    double lo, hi;        /* range of numbers */
    int nmin, nmax;       /* count of numbers for PALA_K_REALS */
    const char *choices;  /* words for PALA_K_WORD / PALA_K_ORIENT */
    int ref;              /* section kind referenced by PALA_K_NAME */
    int repeat;           /* may appear more than once */
    const char *doc;
} pala_keydef;

extern const pala_keydef pala_keys[PALA_NKEYS];   /* indexed by enum pala_key */
extern const int pala_nkeys;                       /* PALA_NKEYS */
extern const char *const pala_sect_names[PALA_S_N];

#endif

/* test_keys.c: the key table's bindings (src/lib/keys.c) and the wall kinds' keys
 * (container.h).  Every row is bound to a field of the struct its section fills (a wall
 * kind's: its parameters), consistently with its type; and a value given in a control file
 * or by --set arrives in that field: every numeric key is set to a value other than the one
 * already there, every word of every word key is set, and the field is read back from the
 * loaded scene (pala_scene_keys, pala_scene_wall_keys).  A key that scene.c stopped storing,
 * or a binding that no longer matches its field, fails here. */
#include "t.h"
#include "t_world.h"
#include "container.h"
#include "keys.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_keys(void);

/* A scene that loads with any one probe below, or any word of a word key, set: every
 * key a choice needs is there (cavity_radius, slab_thickness, sphere lines,
 * component_radius, each size distribution's keys and lines, the membrane's keys: its plane at 0.035 along any axis misses the
 * grains; a cylinder's keys and a rate for group g, which may take any region and
 * placement but line; group p, an insertion, for region = line; outlet o has the keys of
 * every region; measure r its region in x and y, not z, which 2D refuses); the z of everything
 * is 0, so it also loads in 2D.  Grain `spare` is built
 * and never placed, so its keys may take any value (it has a mesh and a sphere count for
 * shape = mesh); grain `sized` has a size distribution and no radius (a sphere's radius
 * beside a size distribution is refused), for the words of size_distribution.  Material m has both values of each law
 * with history (the spring's stiffness, rolling and torsion stiffness and friction, the
 * fractional law's c and k, the linear spring's k_n), so any one of them, or any law, may be
 * set alone; [pair m m] sets nothing. */
static const char *base =
    "dt = 1e-5\nsteps = 10\ncontainer = box\nbox = 0 0.1 0 0.1 -0.05 0.05\n"
    "cavity_radius = 0.05\ncavity_centre = 0.05 0.05 0\nwall_material = m\n"
    "membrane_position = 0.035\nmembrane_bar_radius = 0.001\nmembrane_spacing = 0.01\nmembrane_material = m\n"
    "[material m]\ndensity = 1000\nyoung = 1e7\ntangential_stiffness = 1e4\nrolling_stiffness = 1e-4\nrolling_friction = 0.1\n"
    "torsion_stiffness = 1e-4\ntorsion_friction = 0.1\nfractional_damping = 10\nfractional_stiffness = 1e4\n"
    "normal_stiffness = 1e4\n"
    "[pair m m]\n"
    "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.004\n"
    "[grain spare]\nmaterial = m\nshape = sphere\nradius = 0.003\n"
    "sphere = 0 0 0 0.003\nsphere = 0.003 0 0 0.003\ncomponent_radius = 0.002 0.003\n"
    "arc = 0 0 0.003 0 180\narc = 0 0 0.003 180 360\narcs_shape = square\ncorner_radius = 0.001\nside_radius = 0.01\n"
    "size_range = 0.002 0.003\nsize_mean = 0.0025\nsize_sd = 0.0005\nsize_median = 0.0025\nsize_sigma = 0.2\n"
    "size_class = 0.002 1\nsize_class = 0.003 1\nsieve = 0.002 0\nsieve = 0.003 1\n"
    "file = ../../examples/meshes/capsule.stl\nspheres = 2\n"
    "[grain sized]\nmaterial = m\nshape = sphere\nsize_distribution = uniform\n"
    "size_range = 0.002 0.003\nsize_mean = 0.0025\nsize_sd = 0.0005\nsize_median = 0.0025\nsize_sigma = 0.2\n"
    "size_class = 0.002 1\nsize_class = 0.003 1\nsieve = 0.002 0\nsieve = 0.003 1\n"
    "[group g]\ngrain = ball\ncount = 2\nregion = box\nregion_box = 0.02 0.08 0.02 0.08 -0.03 0.03\n"
    "slab_thickness = 0.02\nregion_centre = 0.05 0.05 0\nregion_radius = 0.02\nregion_length = 0.02\n"
    "insert_rate = 1000\ninsert_end = 0.0001\n"
    "[group l]\ngrain = ball\nplacement = list\nat = 0.05 0.05 0\nat = 0.02 0.05 0 0.1 0 0\n"
    "[group p]\ngrain = ball\nplacement = insert\nregion = box\nregion_box = 0.02 0.08 0.02 0.08 -0.03 0.03\n"
    "region_line = 0.01 0.05 0 0.09 0.05 0\ninsert_rate = 1000\ninsert_end = 0.0001\ninsert_every = 10\n"
    "[wall w]\nshape = plane\nmaterial = m\npoint = 0.05 -0.05 0\nnormal = 0 1 0\nradius = 0.2\nradius_end = 0.1\nlength = 0.1\n"
    "size = 0.1 0.1\narea = 0.01\nservo_gain = 1e-5\nservo_speed = 0.1\nfile = ../../examples/meshes/funnel.stl\n"
    "[outlet o]\nregion = plane\nregion_point = 0 0.001 0\nregion_normal = 0 -1 0\nregion_box = 0 0.1 0 0.01 -0.05 0.05\n"
    "region_centre = 0.05 0.005 0\nregion_radius = 0.004\nregion_length = 0.1\n"
    "[measure r]\nregion_x = 0 0.1\nregion_y = 0 0.1\n";

/* The section of each kind that the probes set (the top level has no name). */
static const char *const probe_section[PALA_S_N] = {"", "m", "spare", "g", "m.m", "w", "o", "r"};

/* A value for every numeric key, other than the one of base or the default.  Repeated keys
 * are counted from base's lines instead (2 'sphere' and 2 'arc' lines of spare). */
static const char *const probe[PALA_NKEYS] = {
    [PALA_KEY_dimension] = "2",
    [PALA_KEY_sides] = "6", [PALA_KEY_corner_radius] = "0.0015", [PALA_KEY_side_radius] = "0.02", [PALA_KEY_thickness] = "0.002",
    [PALA_KEY_gravity] = "0.5 -9.81 0", [PALA_KEY_dt] = "3e-6", [PALA_KEY_steps] = "7",
    [PALA_KEY_end_time] = "2e-4", [PALA_KEY_seed] = "12345", [PALA_KEY_energy_every] = "3",
    [PALA_KEY_trajectory_every] = "4", [PALA_KEY_xyz_every] = "5", [PALA_KEY_vtk_every] = "6",
    [PALA_KEY_contacts_every] = "8", [PALA_KEY_grains_every] = "9",
    [PALA_KEY_max_overlap] = "0.3",
    [PALA_KEY_neighbor_skin] = "0.001", [PALA_KEY_sort_every] = "500", [PALA_KEY_lammps_mc_samples] = "200",
    [PALA_KEY_gravitational_constant] = "6.674e-11", [PALA_KEY_permittivity] = "2.5",
    [PALA_KEY_interaction_cutoff] = "0.05", [PALA_KEY_electric_field] = "100 0 0",
    [PALA_KEY_electric_field_turn] = "0 0 2", [PALA_KEY_magnetic_field] = "0 0 0.1",
    [PALA_KEY_magnetic_field_turn] = "0 0 3", [PALA_KEY_charge] = "1e-9",
    [PALA_KEY_electric_dipole] = "1e-12 0 0", [PALA_KEY_magnetic_dipole] = "0 1e-3 0",
    [PALA_KEY_max_memory] = "1e12", [PALA_KEY_checkpoint_every] = "7",
    [PALA_KEY_fluid_viscosity] = "0.002", [PALA_KEY_fluid_density] = "900", [PALA_KEY_fluid_velocity] = "0.1 0.2 0.3",
    [PALA_KEY_restitution] = "0.6", [PALA_KEY_pair_restitution] = "0.7",
    [PALA_KEY_density] = "2000", [PALA_KEY_young] = "3e7", [PALA_KEY_poisson] = "0.25",
    [PALA_KEY_delta] = "0.5", [PALA_KEY_friction] = "1.4", [PALA_KEY_slip_velocity] = "0.002",
    [PALA_KEY_tangential_stiffness] = "2e4", [PALA_KEY_rolling_stiffness] = "2e-4", [PALA_KEY_rolling_friction] = "0.2",
    [PALA_KEY_torsion_stiffness] = "3e-4", [PALA_KEY_torsion_friction] = "0.3", [PALA_KEY_fractional_order] = "0.19",
    [PALA_KEY_fractional_damping] = "20", [PALA_KEY_fractional_stiffness] = "3e4",
    [PALA_KEY_normal_stiffness] = "3e3",
    [PALA_KEY_pair_friction] = "1.3", [PALA_KEY_pair_delta] = "0.4", [PALA_KEY_pair_slip_velocity] = "0.003",
    [PALA_KEY_pair_tangential_stiffness] = "5e3", [PALA_KEY_pair_rolling_stiffness] = "4e-4",
    [PALA_KEY_pair_rolling_friction] = "0.05", [PALA_KEY_pair_torsion_stiffness] = "6e-4",
    [PALA_KEY_pair_torsion_friction] = "0.07",
    [PALA_KEY_radius] = "0.0035", [PALA_KEY_volume_radius] = "0.004", [PALA_KEY_mc_samples] = "200",
    [PALA_KEY_components] = "2 4", [PALA_KEY_component_radius] = "0.001 0.002",
    [PALA_KEY_spread] = "0.5", [PALA_KEY_variants] = "3", [PALA_KEY_start_time] = "0.5",
    [PALA_KEY_size_range] = "0.001 0.004", [PALA_KEY_size_mean] = "0.0021", [PALA_KEY_size_sd] = "0.0004",
    [PALA_KEY_size_median] = "0.0022", [PALA_KEY_size_sigma] = "0.3", [PALA_KEY_size_resolution] = "0.02",
    [PALA_KEY_count] = "3", [PALA_KEY_region_box] = "0.01 0.09 0.01 0.09 -0.04 0.04",
    [PALA_KEY_slab_normal] = "0 1 0", [PALA_KEY_slab_offset] = "0.01",
    [PALA_KEY_slab_thickness] = "0.03", [PALA_KEY_lattice_spacing] = "0.02",
    [PALA_KEY_velocity] = "0.1 0.2 0", [PALA_KEY_velocity_spread] = "0.01",
    [PALA_KEY_orientation] = "0 0 0.3", [PALA_KEY_angular_velocity] = "0 0 3",
    [PALA_KEY_point] = "0.05 -0.06 0", [PALA_KEY_normal] = "0.1 1 0", [PALA_KEY_axis] = "0 0.1 1", [PALA_KEY_edge] = "1 0.1 0",
    [PALA_KEY_size] = "0.2 0.1", [PALA_KEY_wall_radius] = "0.25", [PALA_KEY_radius_end] = "0.05", [PALA_KEY_length] = "0.2",
    [PALA_KEY_area] = "0.02", [PALA_KEY_draw_size] = "0.2", [PALA_KEY_wall_velocity] = "0.1 0 0",
    [PALA_KEY_wall_angular_velocity] = "0 0 1", [PALA_KEY_rotation_centre] = "0.05 0.05 0", [PALA_KEY_spin_up] = "1",
    [PALA_KEY_amplitude] = "0.01 0 0", [PALA_KEY_frequency] = "2", [PALA_KEY_servo_pressure] = "100",
    [PALA_KEY_servo_gain] = "2e-5", [PALA_KEY_servo_speed] = "0.2", [PALA_KEY_wall_scale] = "1.1", [PALA_KEY_scale] = "0.9", [PALA_KEY_spheres] = "5", [PALA_KEY_tolerance] = "1e-4",
    [PALA_KEY_region_centre] = "0.04 0.05 0", [PALA_KEY_region_axis] = "1 0 0", [PALA_KEY_region_radius] = "0.015",
    [PALA_KEY_region_length] = "0.03", [PALA_KEY_region_line] = "0.02 0.05 0 0.08 0.05 0",
    [PALA_KEY_insert_rate] = "500", [PALA_KEY_insert_mass_rate] = "0.1", [PALA_KEY_insert_start] = "2e-5",
    [PALA_KEY_insert_end] = "2e-4", [PALA_KEY_insert_every] = "5",
    [PALA_KEY_outlet_region_box] = "0 0.1 0 0.02 -0.05 0.05", [PALA_KEY_outlet_region_centre] = "0.05 0.004 0",
    [PALA_KEY_outlet_region_axis] = "0 1 0", [PALA_KEY_outlet_region_radius] = "0.003", [PALA_KEY_outlet_region_length] = "0.09",
    [PALA_KEY_region_point] = "0 0.002 0", [PALA_KEY_region_normal] = "0 -2 0", [PALA_KEY_every] = "7",
    [PALA_KEY_measure_every] = "9", [PALA_KEY_region_x] = "0.01 0.02", [PALA_KEY_region_y] = "0.03 0.05", [PALA_KEY_region_z] = "-0.01 0.01",
};

/* ... and for every numeric key of the wall kinds, by name */
static const struct { const char *name, *value; } wall_probe[] = {
    {"box", "-0.01 0.11 -0.02 0.12 -0.06 0.07"}, {"cavity_radius", "0.06"}, {"cavity_centre", "0.05 0.04 0"},
    {"membrane_position", "0.045"}, {"membrane_bar_radius", "0.0015"}, {"membrane_spacing", "0.02"},
};

static const char *probe_of(const pala_keydef *k)
{
    if (pala_key_wall(k) < 0) return probe[k - pala_keys];
    for (size_t i = 0; i < sizeof wall_probe / sizeof wall_probe[0]; i++)
        if (!strcmp(wall_probe[i].name, k->name)) return wall_probe[i].value;
    return NULL;
}

static const size_t struct_size[PALA_S_N] = {
    sizeof(pala_top_keys), sizeof(pala_material), sizeof(pala_grain_keys), sizeof(pala_group_keys), sizeof(pala_pairset),
    sizeof(pala_surface), sizeof(pala_outlet_keys), sizeof(pala_measure_keys)};

/* The struct key k's values go to in scene s: its section's, or its wall kind's parameters. */
static void *keys_of(pala_scene *s, const pala_keydef *k, const char *sect)
{
    int wk = pala_key_wall(k);
    return wk >= 0 ? pala_scene_wall_keys(s, wk) : pala_scene_keys(s, k->sect, sect);
}

static int nwords(const char *choices)
{
    int n = 1;
    for (const char *p = choices; *p; p++) n += *p == '|';
    return n;
}

static int ncodes(const int *codes)
{
    int n = 0;
    while (codes && codes[n] >= 0) n++;
    return n;
}

/* Why row k's binding does not fit its key, or NULL. */
static const char *bad_binding(const pala_keydef *k)
{
    const pala_keybind *b = &k->bind;
    int wk = pala_key_wall(k);
    if (!k->name) return "no row (a gap in the table)";
    if (wk >= 0 && k->sect != PALA_S_TOP) return "a wall kind's key that is not top-level";
    if (b->store == PALA_ST_NONE) return wk >= 0 && k->type == PALA_K_NAME && k->ref == PALA_S_MATERIAL ? NULL : "no binding";
    if (b->store != PALA_ST_SET && b->off + b->size > (wk >= 0 ? pala_wall_kind_at(wk)->size : struct_size[k->sect]))
        return "field outside the section's struct";
    if (k->repeat && b->store != PALA_ST_INT) return "a repeated key must count its lines in an int";
    if (k->choices && nwords(k->choices) != ncodes(k->codes)) return "not one code per word of choices";
    if (!k->choices && k->codes) return "codes without choices";
    switch (b->store) {
    case PALA_ST_INT:
        if (b->size != sizeof(int)) return "int field of the wrong size";
        if (!k->repeat && k->type != PALA_K_INT && k->type != PALA_K_WORD) return "int field for a key that is no integer or word";
        break;
    case PALA_ST_LONG: if (k->type != PALA_K_INT) return "long field for a key that is no integer"; break;
    case PALA_ST_REAL: if (k->type != PALA_K_REAL) return "double field for a key that is no number"; break;
    case PALA_ST_REALS:
        if (k->type != PALA_K_REALS || k->nmin != k->nmax || b->size != (size_t)k->nmax * sizeof(double) || k->nmax > 8)
            return "double array that does not hold exactly nmax numbers";
        break;
    case PALA_ST_VEC3: if (k->type != PALA_K_REALS || k->nmin != 3 || k->nmax != 3) return "vector field for a key that is not 3 numbers"; break;
    case PALA_ST_TEXT: if (k->type != PALA_K_NAME && k->type != PALA_K_PATH) return "text field for a key that is no name or path"; break;
    case PALA_ST_SET: if (!b->set) return "setter binding without a setter"; break;
    default: return "unknown store";
    }
    return NULL;
}

/* Load the file with one --set (or none); NULL with the messages in err on failure. */
static pala_scene *load(const char *path, const char *set, char *err, size_t errlen)
{
    char buf[256];
    char *sets[1] = {buf};
    snprintf(buf, sizeof buf, "%s", set ? set : "");
    return t_load_scene(path, set ? 1 : 0, sets, err, errlen);
}

/* "--set" text for key k in the probe section of its kind */
static void set_text(char *buf, size_t len, const pala_keydef *k, const char *sect, const char *value)
{
    if (k->sect == PALA_S_TOP) snprintf(buf, len, "%s=%s", k->name, value);
    else snprintf(buf, len, "%s.%s.%s=%s", pala_sect_names[k->sect], sect, k->name, value);
}

/* Does the field of k in obj hold the numbers x[0..n)? */
static int holds(const pala_keydef *k, const void *obj, const double *x, int n)
{
    const char *f = (const char *)obj + k->bind.off;
    switch (k->bind.store) {
    case PALA_ST_INT: return n == 1 && *(const int *)f == (int)x[0];
    case PALA_ST_LONG: return n == 1 && *(const long *)f == (long)x[0];
    case PALA_ST_REAL: return n == 1 && *(const double *)f == x[0];
    case PALA_ST_REALS:
        for (int i = 0; i < k->nmax; i++)
            if (i >= n || ((const double *)(const void *)f)[i] != x[i]) return 0;
        return n == k->nmax;
    case PALA_ST_VEC3: {
        const pala_vec3 *v = (const void *)f;
        return n == 3 && v->x == x[0] && v->y == x[1] && v->z == x[2];
    }
    default: return 0;
    }
}

/* The keys of a setter row hold the probe (each setter is checked here by hand). */
static int setter_holds(const pala_keydef *k, const void *obj, const double *x)
{
    if (pala_key_wall(k) >= 0 && !strcmp(k->name, "box")) {
        const pala_vec3 *b = obj;   /* box.c's parameters: the lowest corner, the highest */
        return b[0].x == x[0] && b[1].x == x[1] && b[0].y == x[2] && b[1].y == x[3] && b[0].z == x[4] && b[1].z == x[5];
    }
    if (k == &pala_keys[PALA_KEY_orientation]) {
        const pala_group *g = &((const pala_group_keys *)obj)->place;
        return g->orient == PALA_ORIENT_GIVEN && g->orient_r.x == x[0] && g->orient_r.y == x[1] && g->orient_r.z == x[2];
    }
    if (k == &pala_keys[PALA_KEY_size]) return ((const pala_surface *)obj)->size[0] == x[0] && ((const pala_surface *)obj)->size[1] == x[1];
    if (k == &pala_keys[PALA_KEY_rotation_centre]) {
        const pala_surface *sf = obj;
        return sf->centre_set && sf->centre.x == x[0] && sf->centre.y == x[1] && sf->centre.z == x[2];
    }
    if (k == &pala_keys[PALA_KEY_restitution]) return ((const pala_material *)obj)->delta == x[0] * x[0];   /* delta = e^2 */
    if (k == &pala_keys[PALA_KEY_pair_restitution]) return ((const pala_pairset *)obj)->delta == x[0] * x[0];
    return 0;   /* a new setter: add its check */
}

/* One numeric key: its probe was not in its field before and arrives there. */
static void probe_key(const char *path, pala_scene *s0, const pala_keydef *k)
{
    const char *sect = probe_section[k->sect], *pv = probe_of(k);
    char set[256], err[2048];
    double x[8];
    int n = 0;
    if (!pv || pala_key_reals(pv, x, 8, &n) || n == 0) {
        T_CHECK(0, "key %s: the test has no probe value for it", k->name);
        return;
    }
    int is_set = k->bind.store == PALA_ST_SET;
    const void *before = keys_of(s0, k, sect);
    if (!before || (is_set ? setter_holds(k, before, x) : holds(k, before, x, n))) {
        T_CHECK(0, "key %s: the probe %s is already the value of the scene without it", k->name, pv);
        return;
    }
    set_text(set, sizeof set, k, sect, pv);
    pala_scene *s = load(path, set, err, sizeof err);
    const void *obj = s ? keys_of(s, k, sect) : NULL;
    int ok = obj && (is_set ? setter_holds(k, obj, x) : holds(k, obj, x, n));
    if (ok && k->sect == PALA_S_MATERIAL) {
        /* and the world's copy of the material holds it too */
        const pala_world *w = pala_scene_world(s);
        int found = 0;
        for (int i = 0; i < w->nmat; i++)
            if (!strcmp(w->mat[i].name, sect)) found = 1, ok = is_set ? setter_holds(k, &w->mat[i], x) : holds(k, &w->mat[i], x, n);
        ok &= found;
    }
    if (ok && k->sect == PALA_S_PAIR) {
        /* and the world's pair holds it, with the key's bit in set */
        const pala_world *w = pala_scene_world(s);
        ok = w->npairs == 1 && (is_set ? setter_holds(k, &w->pairs[0], x) : holds(k, &w->pairs[0], x, n)) && (w->pairs[0].set & k->pairbit) &&
             k->pairbit;
    }
    T_CHECK(ok, "--set '%s' %s", set, !s ? err : ok ? "arrives in the field the key is bound to" : "does not arrive in the key's field");
    pala_scene_free(s);
}

/* One word key: each of its words loads (in the first section of its kind where it can;
 * else, for a word of 2D alone such as shape = arcs, in base2d, the scene in 2D) and stores
 * its code; the codes differ. */
static void probe_words(const char *path, const char *path2d, const pala_keydef *k)
{
    static const char *const names[PALA_S_N][3] = {{"", NULL}, {"m", NULL}, {"spare", "ball", "sized"}, {"g", "l", "p"}, {"m.m", NULL}, {"w", NULL}, {"o", NULL}, {"r", NULL}};
    const char *p = k->choices;
    int w = 0, all = 1;
    char word[64], set[256], err[2048], why[600] = "";
    while (*p) {
        size_t l = strcspn(p, "|");
        snprintf(word, sizeof word, "%.*s", (int)l, p);
        p += l + (p[l] == '|');
        int code = k->codes[w++], ok = 0;
        for (int j = 0; j < 4 && !ok; j++) {
            const char *nm = names[k->sect][j < 3 ? j : 0];
            if (!nm) continue;
            set_text(set, sizeof set, k, nm, word);
            pala_scene *s = load(j < 3 ? path : path2d, set, err, sizeof err);
            if (!s) continue;
            const void *obj = keys_of(s, k, nm);
            const char *f = (const char *)obj + k->bind.off;
            if (k == &pala_keys[PALA_KEY_orientation]) ok = ((const pala_group_keys *)obj)->place.orient == code;
            else ok = k->bind.store == PALA_ST_INT && *(const int *)f == code;   /* a new word setter: add its check */
            pala_scene_free(s);
        }
        if (!ok) { all = 0; snprintf(why, sizeof why, "'%s': %.500s", word, err); }
        for (int i = 0; i < w - 1; i++)
            if (k->codes[i] == code) { all = 0; snprintf(why, sizeof why, "two words share code %d", code); }
    }
    T_CHECK(all, "key %s: each word of %s loads and stores its own code %s", k->name, k->choices, why);
}

void test_keys(void)
{
    /* every row is bound, to a field that fits its type */
    char bad[1024] = "";
    int nall = 0;
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k), nall++) {
        const char *why = bad_binding(k);
        if (why && strlen(bad) + 80 < sizeof bad) snprintf(bad + strlen(bad), sizeof bad - strlen(bad), " %s: %s;", k->name ? k->name : "?", why);
    }
    T_CHECK(bad[0] == 0, "each of the %d keys (the table's %d rows, the wall kinds' keys) is bound to a field that fits it (%s)", nall,
            PALA_NKEYS, bad);
    if (bad[0]) return;

    char path[256], err[2048];
    snprintf(path, sizeof path, "%s/keys.txt", t_tmpdir());
    t_write(path, base);
    char path2d[512], text2d[8192];
    snprintf(path2d, sizeof path2d, "%s/keys2d.txt", t_tmpdir());
    snprintf(text2d, sizeof text2d, "dimension = 2\n%s", base);
    t_write(path2d, text2d);
    pala_scene *s0 = load(path, NULL, err, sizeof err);
    T_CHECK(s0 != NULL, "the probe scene loads (%.300s)", err);
    if (!s0) return;

    /* numeric keys: a probe each; repeated keys: the lines of the file counted */
    int nnum = 0;
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k)) {
        if (k->type != PALA_K_INT && k->type != PALA_K_REAL && k->type != PALA_K_REALS && k->type != PALA_K_ORIENT) continue;
        nnum++;
        if (!k->repeat) { probe_key(path, s0, k); continue; }
        const char *sect = k->sect == PALA_S_GROUP ? "l" : probe_section[k->sect];   /* 'at' lines are in l */
        double two = 2;
        T_CHECK(holds(k, pala_scene_keys(s0, k->sect, sect), &two, 1), "the 2 '%s' lines of [%s %s] are counted in its field",
                k->name, pala_sect_names[k->sect], sect);
    }
    int stray = 0;
    for (int i = 0; i < PALA_NKEYS; i++) {
        int t = pala_keys[i].type;
        stray += probe[i] && t != PALA_K_INT && t != PALA_K_REAL && t != PALA_K_REALS && t != PALA_K_ORIENT;
    }
    T_CHECK(stray == 0, "%d numeric keys probed; no probe for a key that is not numeric (%d)", nnum, stray);

    /* word keys: every word */
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k))
        if (k->type == PALA_K_WORD || k->type == PALA_K_ORIENT) probe_words(path, path2d, k);

    /* names: the value text (the path lammps_data needs a data file: test_import.c; a wall
     * kind's material: test_membrane.c) */
    for (int i = 0; i < PALA_NKEYS; i++) {
        const pala_keydef *k = &pala_keys[i];
        if (k->type != PALA_K_NAME) continue;
        const char *target = k->ref == PALA_S_MATERIAL ? "m" : "ball", *sect = probe_section[k->sect];
        char set[256];
        set_text(set, sizeof set, k, sect, target);
        pala_scene *s = load(path, set, err, sizeof err);
        const void *obj = s ? pala_scene_keys(s, k->sect, sect) : NULL;
        const char *v = obj ? *(const char *const *)(const void *)((const char *)obj + k->bind.off) : NULL;
        T_CHECK(v && !strcmp(v, target), "--set '%s' arrives as text in the key's field %s", set, s ? "" : err);
        pala_scene_free(s);
    }
    const pala_top_keys *top = pala_scene_keys(s0, PALA_S_TOP, "");
    T_CHECK(!top->lammps_data && !top->lammps_material, "names and paths not given stay NULL");
    pala_scene_free(s0);
}

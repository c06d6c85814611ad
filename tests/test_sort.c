/* test_sort.c: the grains' spatial order kept during a run (pala_world_resort, key
 * sort_every; docs/design.md, "Spatial order").
 *  - a hot gas mixes: at multiples of sort_every its grains are stored in spatial order
 *    again, and a second pala_world_resort finds nothing to do;
 *  - the motion is that of the run that never reorders, to round-off (only the order of
 *    the sums changed), and the contacts' states went with their pebbles;
 *    (the linear spring with rolling and torsion, and Mindlin's spring);
 *  - the same bits on 1, 2 and 3 threads, and a run stopped and resumed is the run that
 *    never stopped, byte for byte;
 *  - a settling bed reordered moves as one never reordered, to round-off. */
#include "t.h"
#include "t_world.h"
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void test_sort(void);

#define DIR "build/tmp/sort"

/* 1000 spheres of 1 mm on a lattice in a box of 40 mm, at 1 m/s in random directions
 * (spread), with the tangential, rolling and torsion springs (a contact state per pair and
 * per wall touch). */
static const char *gas =
    "dt = 1e-5\nsteps = 1000\ncontainer = box\nbox = 0 0.04 0 0.04 0 0.04\nwall_material = m\n"
    "tangential_law = spring\nenergy_every = 50\ntrajectory_every = 250\nseed = 7\nsort_every = 100\n"
    "[material m]\ndensity = 2500\nyoung = 1e7\ndelta = 0.5\nfriction = 0.4\ntangential_stiffness = 3000\n"
    "rolling_stiffness = 0.003\nrolling_friction = 0.1\ntorsion_stiffness = 0.003\ntorsion_friction = 0.1\n"
    "[grain s]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
    "[group g]\ngrain = s\ncount = 1000\nplacement = lattice\nregion = box\nregion_box = 0.002 0.038 0.002 0.038 0.002 0.038\n"
    "lattice_spacing = 0.0036\nvelocity_spread = 1\n";

static const char *law = "tangential_law=spring";   /* check_gas's, then Mindlin's */

static pala_scene *load(const char *every, char *err, size_t errlen)
{
    char set[64], tl[64];
    char *sets[2] = {set, tl};
    snprintf(set, sizeof set, "sort_every=%s", every);
    snprintf(tl, sizeof tl, "%s", law);
    return t_load_scene(DIR "/gas.txt", 2, sets, err, errlen);
}

/* The gas after 600 steps on t threads with sort_every as given: its state's hash, its
 * storage order's hash, the largest distance of a grain from where *ref has it (m; ref
 * NULL: none), and whether a resort right after finds anything to do. */
typedef struct gasrun { uint64_t state, order; double far; int again; double diss; } gasrun;

static gasrun run_gas(const char *every, int threads, const pala_world *ref, pala_scene **keep)
{
    gasrun g = {0, 0, 0, 0, 0};
    char err[2048] = "";
    pala_scene *s = load(every, err, sizeof err);
    if (!s) { T_CHECK(0, "the gas loads (%.300s)", err); return g; }
    pala_world *w = pala_scene_world(s);
    pala_world_set_threads(w, threads);
    int st = pala_world_steps(w, 370);
    st |= pala_world_steps(w, 230);
    T_CHECK(st == PALA_OK, "the gas steps (sort_every %s, %d threads): %s", every, threads, st ? pala_world_error(w) : "ok");
    g.state = t_state_hash(w);
    g.order = t_fnv_doubles(UINT64_C(0xcbf29ce484222325), NULL, 0);
    for (int k = 0; k < w->n; k++) {
        double d = w->gid ? w->gid[k] : k;
        g.order = t_fnv_doubles(g.order, &d, 1);
    }
    for (int i = 0; ref && i < w->n; i++) {
        pala_vec3 a = w->x[t_stored(w, i)], b = ref->x[t_stored(ref, i)];
        g.far = fmax(g.far, sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z)));
    }
    g.diss = w->diss;
    pala_world_resort(w);   /* due at step 600: the order of now */
    g.again = pala_world_resort(w);
    if (keep) *keep = s;
    else pala_scene_free(s);
    return g;
}

static void check_gas(void)
{
    law = "tangential_law=spring";
    pala_scene *never = NULL;
    gasrun n0 = run_gas("0", 1, NULL, &never);
    if (!never) return;
    const pala_world *ref = pala_scene_world(never);
    gasrun g[3];
    for (int t = 0; t < 3; t++) g[t] = run_gas("100", t + 1, ref, NULL);
    T_CHECK(g[0].order != n0.order, "the gas mixed and was stored in a new order (order 0x%016llx against 0x%016llx never resorted)",
            (unsigned long long)g[0].order, (unsigned long long)n0.order);
    T_CHECK(!g[0].again, "an order made spatial at step 600 is kept: a second resort finds nothing to do");
    /* 600 steps of a gas whose grains meet a few times each: round-off of the sums' order,
     * amplified by the collisions, stays far below a nanometre */
    T_CHECK(g[0].far < 1e-9 && g[0].far > 0 ? 1 : g[0].far == 0,
            "the motion is that of the run never reordered: largest distance %.3g m (< 1e-9 m)", g[0].far);
    T_CHECK(fabs(g[0].diss - n0.diss) <= 1e-9 * fabs(n0.diss) && n0.diss > 0,
            "E_diss with the springs' states carried: %.15g J against %.15g J never resorted", g[0].diss, n0.diss);
    T_CHECK(g[0].state == g[1].state && g[0].state == g[2].state && g[0].order == g[1].order && g[0].order == g[2].order,
            "the same bits on 1, 2 and 3 threads (state 0x%016llx 0x%016llx 0x%016llx)", (unsigned long long)g[0].state,
            (unsigned long long)g[1].state, (unsigned long long)g[2].state);
    pala_scene_free(never);
}

/* Mindlin's spring (LAMMPS's gran/hertz/history, the drum's): its state turns with the pair too. */
static void check_mindlin(void)
{
    law = "tangential_law=mindlin";
    pala_scene *never = NULL;
    gasrun n0 = run_gas("0", 1, NULL, &never);
    if (!never) return;
    gasrun g = run_gas("100", 2, pala_scene_world(never), NULL);
    T_CHECK(g.order != n0.order && g.far < 1e-9 && fabs(g.diss - n0.diss) <= 1e-9 * fabs(n0.diss) && n0.diss > 0,
            "Mindlin's spring: the gas stored anew moves as one never reordered (largest distance %.3g m; E_diss %.15g J "
            "against %.15g J)", g.far, g.diss, n0.diss);
    pala_scene_free(never);
}

/* Stopped at step 450 (between checks) and at 500 (on one), resumed on other threads: the
 * files are those of the run that never stopped. */
static void check_resume(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out,
                  "cd " DIR " && P=../../../pala; $P run gas.txt -o full.run --force --quiet --threads 2 && "
                  "for k in 450 500; do $P run gas.txt -o part$k.run --force --quiet --threads 3 --set steps=$k && "
                  "$P resume part$k.run --quiet --threads 1 --set steps=1000 || exit 9; "
                  "for f in energy.tsv walls.tsv trajectory.txt; do cmp full.run/$f part$k.run/$f || exit 8; done; done");
    T_CHECK(rc == 0, "the gas stopped at steps 450 and 500 and resumed: energy.tsv, walls.tsv and trajectory.txt the same bytes (exit %d) %s",
            rc, out);
}

/* 600 spheres poured in layers settle (t_pour600) for 3000 steps, sorted every 100 steps or
 * never: the same motion to round-off. */
static void settle(long every, pala_vec3 *x, uint64_t *order)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "m", .rho = 2500, .E = 1e7, .sigma = 0.3, .delta = 0.5, .mu = 0.4, .nu = 1e-3};
    pala_world_add_material(&w, &m);
    t_pour600(&w, pala_world_add_sphere_template(&w, 0, 0.001));
    w.sort_every = every;
    int st = pala_world_steps(&w, 3000);
    T_CHECK(st == PALA_OK, "600 spheres settle for 3000 steps, sort_every %ld", every);
    *order = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i < 600; i++) {
        x[i] = w.x[t_stored(&w, i)];
        double d = w.gid[i];
        *order = t_fnv_doubles(*order, &d, 1);
    }
    pala_world_free(&w);
}

static void check_settle(void)
{
    static pala_vec3 a[600], b[600];
    uint64_t oa, ob;
    settle(100, a, &oa);
    settle(0, b, &ob);
    double far = 0;
    for (int i = 0; i < 600; i++)
        far = fmax(far, sqrt((a[i].x - b[i].x) * (a[i].x - b[i].x) + (a[i].y - b[i].y) * (a[i].y - b[i].y) + (a[i].z - b[i].z) * (a[i].z - b[i].z)));
    T_CHECK(oa != ob && far < 1e-9, "a settling bed stored anew every 100 steps moves as one never reordered: largest distance %.3g m "
            "(< 1e-9 m; orders 0x%016llx, 0x%016llx)", far, (unsigned long long)oa, (unsigned long long)ob);
}

void test_sort(void)
{
    T_CHECK(t_sh(NULL, 0, "rm -rf " DIR " && mkdir -p " DIR) == 0, "mkdir " DIR);
    t_write(DIR "/gas.txt", gas);
    check_gas();
    check_mindlin();
    check_resume();
    check_settle();
}

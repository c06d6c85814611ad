/* test_golden.c: golden hashes (as Box2D's determinism test does).  A fixed scene is run
 * through the public API and the final state of every grain (the bytes of x, r, v and w,
 * in input order) is hashed with FNV-1a 64; the hash must equal a constant written here,
 * with 1 thread and with 2.  Any change to the arithmetic of a step, however small, changes
 * the hash: when the change is deliberate (a new force law, a reordered sum), check the
 * physics by the other tests, then put the printed hash in place of the constant.
 *
 * The hashes hold for IEEE 754 doubles built with the Makefile's flags (no contraction),
 * at any -O and with or without -march=native; the step itself uses arithmetic and sqrt
 * only, the setup (template builder, scene reader) libm's sin, cbrt, log, atan2 and hypot
 * as well.
 * GOLDEN_SETTLING is the same with gcc and clang (clang checked when the exact grain
 * builder changed it): src/lib/place.c draws the three coordinates of a random position in
 * statements of their own, in a set order. */
#include "t.h"
#include "t_world.h"
#include "builder.h"
#include "pala/pala.h"
#include <stdint.h>
#include <string.h>

void test_golden_box(void);
void test_golden_example(void);
void test_golden_beds(void);

/* the hashes of the final states; update deliberately (see above) */
#define GOLDEN_BOX UINT64_C(0x54a8611812d645bd)
#define GOLDEN_SETTLING UINT64_C(0x83ea2e36599458c5)


/* A non-planar clump of 3 spheres of material mat (Monte Carlo, fixed samples); returns
 * its template, or -1 with a message in err. */
static int add_trio(pala_world *w, int mat, char *err, size_t errlen)
{
    pala_template t;
    pala_vec3 shape[3];
    double rad[3];
    const pala_vec3 c3[3] = {{-0.55e-3, 0, 0}, {0.55e-3, 0, 0}, {0, 0.45e-3, 0.35e-3}};
    const double r3[3] = {0.6e-3, 0.6e-3, 0.5e-3};
    memset(&t, 0, sizeof t);
    if (pala_template_build(&t, 3, c3, r3, w->mat[mat].rho, 4000, shape, rad, err, errlen) != 0) return -1;
    snprintf(t.name, sizeof t.name, "trio");
    t.material = mat;
    return pala_world_add_template(w, &t, shape, rad);
}

/* ---- the box: 600 grains, spheres and 3-sphere clumps, by the public API ---------- */
#define NX 10
#define NY 10
#define NZ 6
#define SPACING 2.5e-3
#define STEPS 1000
#define CHUNKS 20

struct run { uint64_t hash; int status; long max_contacts, sum_contacts; double e0, diss, seconds; int n, max_threads; };

static void box_run(int threads, struct run *out)
{
    pala_world w;
    pala_world_init(&w);
    w.dim = 3;
    w.g = pala_v(0, 0, -9.81);
    w.dt = 1e-5;
    pala_material sand = {.name = "sand", .rho = 2600, .E = 1e7, .sigma = 0.3, .delta = 0.5, .mu = 0.5, .nu = 1e-3};
    pala_material steel = {.name = "steel", .rho = 7800, .E = 1e8, .sigma = 0.3, .delta = 0.4, .mu = 0.4, .nu = 1e-3};
    int msand = pala_world_add_material(&w, &sand);
    pala_world_set_box(&w, pala_v(0, 0, 0), pala_v(NX * SPACING, NY * SPACING, 0.03), pala_world_add_material(&w, &steel));

    /* one sphere (exact) and a non-planar 3-sphere clump */
    char err[256] = "";
    int tball = pala_world_add_sphere_template(&w, msand, 1e-3);
    int ttrio = add_trio(&w, msand, err, sizeof err);
    if (tball < 0 || ttrio < 0) T_CHECK(0, "golden box: templates build (%s)", err);

    /* a jittered lattice, every third grain a clump, random orientations and motion; the
     * numbers are drawn one by one (the arguments of a call are evaluated in no set order) */
    pala_rng g;
    pala_rng_seed(&g, 20240601);
    for (int iz = 0; iz < NZ; iz++)
        for (int iy = 0; iy < NY; iy++)
            for (int ix = 0; ix < NX; ix++) {
                int k = (iz * NY + iy) * NX + ix;
                double u[12];
                for (int j = 0; j < 12; j++) u[j] = 2 * pala_rng_uniform(&g) - 1;
                pala_vec3 x = pala_v((ix + 0.5) * SPACING + 0.1e-3 * u[0], (iy + 0.5) * SPACING + 0.1e-3 * u[1],
                                     (iz + 0.5) * SPACING + 0.1e-3 * u[2]);
                pala_vec3 r = pala_v(u[3], u[4], u[5]);
                pala_vec3 v = pala_v(0.5 * u[6], 0.5 * u[7], 0.5 * u[8]);
                pala_vec3 om = pala_v(50 * u[9], 50 * u[10], 50 * u[11]);
                pala_world_add_grain(&w, k % 3 == 2 ? ttrio : tball, x, r, v, om);
            }
    pala_world_sort(&w);
    pala_world_prepare(&w);
    pala_world_set_threads(&w, threads);
    out->n = w.n;
    out->max_threads = pala_world_max_threads(&w);
    out->max_contacts = out->sum_contacts = 0;
    out->e0 = pala_world_energy(&w).total;
    double t0 = pala_now();
    out->status = PALA_OK;
    for (int c = 0; c < CHUNKS && out->status == PALA_OK; c++) {
        out->status = pala_world_steps(&w, STEPS / CHUNKS);
        if (w.ncontact > out->max_contacts) out->max_contacts = w.ncontact;
        out->sum_contacts += w.ncontact;
    }
    out->seconds = pala_now() - t0;
    out->diss = w.diss;
    out->hash = t_state_hash(&w);
    pala_world_free(&w);
}

void test_golden_box(void)
{
    struct run a, b;
    box_run(1, &a);
    T_CHECK(a.status == PALA_OK && a.n == NX * NY * NZ && a.sum_contacts > 20 * CHUNKS && a.diss > 0.3 * a.e0,
            "golden box: %d grains, %d steps (%.2f s), stable, %ld contacts on average (at most %ld), "
            "%.0f %% of the energy dissipated", a.n, STEPS, a.seconds, a.sum_contacts / CHUNKS, a.max_contacts,
            100 * a.diss / a.e0);
    T_CHECK(a.hash == GOLDEN_BOX, "golden box, 1 thread: state hash 0x%016llx (expected 0x%016llx%s)",
            (unsigned long long)a.hash, (unsigned long long)GOLDEN_BOX,
            a.hash == GOLDEN_BOX ? "" : "; if the change is deliberate, set GOLDEN_BOX in tests/test_golden.c");
    box_run(2, &b);
    T_CHECK(a.max_threads >= 2, "golden box: %d blocks of work, so 2 threads share a step", a.max_threads);
    T_CHECK(b.hash == GOLDEN_BOX, "golden box, 2 threads (%.2f s): state hash 0x%016llx (expected 0x%016llx%s)",
            b.seconds, (unsigned long long)b.hash, (unsigned long long)GOLDEN_BOX,
            b.hash == GOLDEN_BOX ? "" : "; if the change is deliberate, set GOLDEN_BOX in tests/test_golden.c");
}

/* ---- an example control file, read by pala_scene_load ----------------------------- */
void test_golden_example(void)
{
    static char steps[] = "steps=200";
    char *sets[] = {steps};
    for (int threads = 1; threads <= 2; threads++) {
        pala_scene *s;
        if (pala_scene_load("examples/settling-box.txt", 1, sets, &s, stdout) != PALA_OK) {
            T_CHECK(0, "golden scene: examples/settling-box.txt --set steps=200 loads");
            return;
        }
        pala_world *w = pala_scene_world(s);
        pala_world_set_threads(w, threads);
        long n = pala_scene_steps(s);
        double t0 = pala_now();
        int st = pala_world_steps(w, n);
        double sec = pala_now() - t0;
        uint64_t h = t_state_hash(w);
        if (threads == 1)
            T_CHECK(st == PALA_OK && n == 200, "golden scene: settling-box, %d grains, %ld steps (%.2f s), "
                    "stable, %ld contacts at the end", w->n, n, sec, w->ncontact);
        T_CHECK(h == GOLDEN_SETTLING, "golden scene, settling-box --set steps=200, %d thread%s: state hash "
                "0x%016llx (expected 0x%016llx%s)", threads, threads > 1 ? "s" : "", (unsigned long long)h,
                (unsigned long long)GOLDEN_SETTLING,
                h == GOLDEN_SETTLING ? "" : "; if the change is deliberate, set GOLDEN_SETTLING in tests/test_golden.c");
        pala_scene_free(s);
    }
}

/* ---- beds that end with many contacts, one per contact kernel ----------------------
 * The box above ends with few contacts, the settling example with none: a wrong sign in a
 * kernel that only lasting contacts exercise passed them (issue 23).  Each bed below is a
 * lattice of 8 x 8 x 9 grains (three blocks of work, so 2 threads share a step) in a box
 * that fits it sideways, under gravity, with random velocities and spins, and ends with
 * more than 2 contacts per grain: the spheres touch their neighbours from the start, the
 * clumps (turned at random) pack as they fall.  Each bed goes through one kernel of
 * src/lib/contact.c's kernel contact_one, named in beds[] by the driver and the laws it takes;
 * the sign of one component of a torque flipped there (the regularised friction's torque on
 * a sphere, r x F of the springs or of clumps, the rolling and torsion moment) changes the
 * bed's hash. */
enum { BED_FRICTION, BED_SPRING, BED_MINDLIN, BED_CLUMPS, BED_ROLLING, NBEDS };
static const struct bed {
    const char *name, *kernel;
    long steps;
    uint64_t golden;
} beds[NBEDS] = {
    {"spheres, regularised friction", "vectorised driver, regularised (spheres)", 2000, UINT64_C(0x94c97c736c9d3a72)},
    {"spheres, tangential spring", "vectorised driver, spring (spheres)", 2000, UINT64_C(0x14806dca619d61f2)},
    {"spheres, Mindlin, dashpot, textbook Hertz", "vectorised driver, spring and dashpot (spheres)", 2000, UINT64_C(0xf0c05f55aab5c7d4)},
    {"clumps of 3, regularised friction", "vectorised driver, regularised (clumps)", 400, UINT64_C(0x3728a49d2d5d1e49)},
    {"spheres, spring, rolling and torsion springs", "general driver, rolling and torsion", 1500, UINT64_C(0x3abc1f330ae85bad)},
};
#define BX 8
#define BY 8
#define BZ 9

static void bed_run(int kind, int threads, struct run *out)
{
    pala_world w;
    pala_world_init(&w);
    w.dim = 3;
    w.g = pala_v(0, 0, -9.81);
    w.dt = 1e-5;
    pala_material m = {.name = "grit", .rho = 2600, .E = 1e7, .sigma = 0.3, .delta = 0.5, .mu = 0.5, .nu = 1e-3};
    if (kind == BED_SPRING || kind == BED_ROLLING) { m.tlaw = PALA_TLAW_SPRING; m.kt = 300; }
    if (kind == BED_MINDLIN) { m.tlaw = PALA_TLAW_MINDLIN; m.damp = PALA_DAMP_DASHPOT; w.hertz = PALA_HERTZ_TEXTBOOK; }
    if (kind == BED_ROLLING) { m.kroll = 1e-4; m.muroll = 0.1; m.ktor = 1e-4; m.mutor = 0.1; }
    pala_world_add_material(&w, &m);
    char err[256] = "";
    int t;
    double d;   /* lattice spacing: spheres touch; clumps, turned at random, pack as they fall */
    if (kind == BED_CLUMPS) {
        t = add_trio(&w, 0, err, sizeof err);
        d = t >= 0 ? 1.8 * w.tmpl[t].bound_radius : 1;
        w.g = pala_v(0, 0, -1000);   /* to pack within a few hundred steps */
    } else {
        t = pala_world_add_sphere_template(&w, 0, 1e-3);
        d = 2e-3;
    }
    t_box(&w, pala_v(0, 0, 0), pala_v(BX * d, BY * d, 3 * BZ * d));
    pala_rng g;
    pala_rng_seed(&g, 20251102 + kind);
    for (int iz = 0; iz < BZ; iz++)
        for (int iy = 0; iy < BY; iy++)
            for (int ix = 0; ix < BX; ix++) {
                double u[9];
                for (int j = 0; j < 9; j++) u[j] = 2 * pala_rng_uniform(&g) - 1;
                pala_world_add_grain(&w, t, pala_v((ix + 0.5) * d, (iy + 0.5) * d, (iz + 0.5) * d),
                                     kind == BED_CLUMPS ? pala_v(u[0], u[1], u[2]) : pala_v(0, 0, 0),
                                     pala_v(0.05 * u[3], 0.05 * u[4], 0.05 * u[5]), pala_v(50 * u[6], 50 * u[7], 50 * u[8]));
            }
    pala_world_sort(&w);
    out->status = t >= 0 && pala_world_prepare(&w) == PALA_OK ? PALA_OK : PALA_ERR_INPUT;
    pala_world_set_threads(&w, threads);
    out->n = w.n;
    out->max_threads = pala_world_max_threads(&w);
    out->e0 = pala_world_energy(&w).total;
    double t0 = pala_now();
    if (out->status == PALA_OK) out->status = pala_world_steps(&w, beds[kind].steps);
    out->seconds = pala_now() - t0;
    out->max_contacts = out->sum_contacts = w.ncontact;   /* those at the end */
    out->diss = w.diss;
    out->hash = t_state_hash(&w);
    if (out->status != PALA_OK) printf("golden bed %s: %s%s\n", beds[kind].name, err, w.why);
    pala_world_free(&w);
}

void test_golden_beds(void)
{
    for (int kind = 0; kind < NBEDS; kind++) {
        const struct bed *b = &beds[kind];
        struct run r1, r2;
        bed_run(kind, 1, &r1);
        bed_run(kind, 2, &r2);
        T_CHECK(r1.status == PALA_OK && r1.n == BX * BY * BZ && r1.max_contacts > 2 * r1.n && r1.max_threads >= 2,
                "golden bed, %s: %d grains, %ld steps (%.2f s), stable, %ld contacts at the end (> 2 per grain), "
                "%d blocks of work", b->name, r1.n, b->steps, r1.seconds, r1.max_contacts, r1.max_threads);
        T_CHECK(r1.hash == b->golden && r2.hash == b->golden,
                "golden bed, %s (%s): state hash 0x%016llx with 1 thread, 0x%016llx with 2 (expected 0x%016llx%s)",
                b->name, b->kernel, (unsigned long long)r1.hash, (unsigned long long)r2.hash,
                (unsigned long long)b->golden,
                r1.hash == b->golden && r2.hash == b->golden ? "" : "; if the change is deliberate, set it in beds[] of tests/test_golden.c");
    }
}

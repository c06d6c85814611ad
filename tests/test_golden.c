/* test_golden.c: golden hashes (as Box2D's determinism test does).  A fixed scene is run
 * through the public API and the final state of every grain (the bytes of x, r, v and w,
 * in input order) is hashed with FNV-1a 64; the hash must equal a constant written here,
 * with 1 thread and with 2.  Any change to the arithmetic of a step, however small, changes
 * the hash: when the change is deliberate (a new force law, a reordered sum), check the
 * physics by the other tests, then put the printed hash in place of the constant.
 *
 * The hashes hold for IEEE 754 doubles built with the Makefile's flags (no contraction),
 * at any -O and with or without -march=native; the step itself uses arithmetic and sqrt
 * only, the setup (template builder, scene reader) libm's sin, cbrt and log as well.
 * GOLDEN_SETTLING is gcc's: src/lib/place.c draws the three coordinates of a random
 * position as the arguments of one call, which C evaluates in no set order, and clang's
 * order gives 0x14cf20c4d396a89b. */
#include "t.h"
#include "builder.h"
#include "pala/pala.h"
#include <stdint.h>
#include <string.h>

void test_golden_box(void);
void test_golden_example(void);

/* the hashes of the final states; update deliberately (see above) */
#define GOLDEN_BOX UINT64_C(0x54a8611812d645bd)
#define GOLDEN_SETTLING UINT64_C(0x012129cef4ee4a0f)

/* FNV-1a 64 over the doubles' bits, least significant byte first (so the hash does not
 * depend on the machine's byte order) */
static uint64_t fnv_doubles(uint64_t h, const double *d, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &d[i], sizeof u);
        for (int b = 0; b < 8; b++) {
            h ^= (u >> (8 * b)) & 0xff;
            h *= UINT64_C(0x100000001b3);
        }
    }
    return h;
}

/* x, r, v, w of every grain, in the order the grains were added (the world may store
 * them in spatial order: inv maps input number to storage) */
static uint64_t state_hash(const pala_world *w)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i < w->n; i++) {
        int k = w->inv ? w->inv[i] : i;
        const pala_vec3 *f[4] = {&w->x[k], &w->r[k], &w->v[k], &w->w[k]};
        for (int j = 0; j < 4; j++) {
            double d[3] = {f[j]->x, f[j]->y, f[j]->z};
            h = fnv_doubles(h, d, 3);
        }
    }
    return h;
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
    w.container = PALA_CONTAINER_BOX;
    w.box_lo = pala_v(0, 0, 0);
    w.box_hi = pala_v(NX * SPACING, NY * SPACING, 0.03);
    w.g = pala_v(0, 0, -9.81);
    w.dt = 1e-5;
    pala_material sand = {.name = "sand", .rho = 2600, .E = 1e7, .sigma = 0.3, .delta = 0.5, .mu = 0.5, .nu = 1e-3};
    pala_material steel = {.name = "steel", .rho = 7800, .E = 1e8, .sigma = 0.3, .delta = 0.4, .mu = 0.4, .nu = 1e-3};
    int msand = pala_world_add_material(&w, &sand);
    w.wall_mat = pala_world_add_material(&w, &steel);

    /* one sphere (exact) and a non-planar 3-sphere clump (Monte Carlo, fixed samples) */
    char err[256] = "";
    pala_template t;
    pala_vec3 shape[3];
    double rad[3];
    const double r1[1] = {1e-3};
    int tball = pala_world_add_sphere_template(&w, msand, r1[0]);
    int ok = tball >= 0;
    const pala_vec3 c3[3] = {{-0.55e-3, 0, 0}, {0.55e-3, 0, 0}, {0, 0.45e-3, 0.35e-3}};
    const double r3[3] = {0.6e-3, 0.6e-3, 0.5e-3};
    memset(&t, 0, sizeof t);
    ok = ok && pala_template_build(&t, 3, c3, r3, sand.rho, 4000, shape, rad, err, sizeof err) == 0;
    snprintf(t.name, sizeof t.name, "trio");
    t.material = msand;
    int ttrio = pala_world_add_template(&w, &t, shape, rad);
    if (!ok) T_CHECK(0, "golden box: templates build (%s)", err);

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
    out->hash = state_hash(&w);
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
        uint64_t h = state_hash(w);
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

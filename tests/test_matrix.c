/* test_matrix.c: the contact laws' matrix.  Every combination of laws (tangential:
 * regularised, spring, Mindlin; damping: switch, dashpot; rolling and torsion springs; the
 * fractional and linear (hooke) normal laws; two materials of different laws meeting) on
 * sphere pairs, clump
 * pairs and walls, run through the general driver (contact by contact, laws read at run
 * time) and the vectorised driver (instantiated per family of laws; contact.c):
 *   - both give the same bits (the state of every grain, E_diss), since both call the one
 *     kernel of contact.c;
 *   - the bits equal a golden hash written here, so that a wrong sign or factor in any
 *     sub-model, which both drivers would share, fails too (test_golden.c says how to
 *     update a hash deliberately).
 * Each world is a box of 64 grains packed so that pairs and walls touch from the start. */
#include "t.h"
#include "t_world.h"
#include "pala/pala.h"
#include "builder.h"
#include "contact.h"
#include "work.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

void test_matrix(void);

enum { LAWS_ROLL = 1, LAWS_FRAC = 2, LAWS_MIXED = 4, LAWS_HOOKE = 8 };
typedef struct combo {
    const char *name;
    int tlaw, damp, extra;
    uint64_t golden[2];   /* spheres, clumps */
} combo;

static const combo combos[] = {
    {"regularised", PALA_TLAW_REGULARISED, PALA_DAMP_SWITCH, 0, {UINT64_C(0xa8a5323e326c6da4), UINT64_C(0x62d0605e69dbb071)}},
    {"regularised + dashpot", PALA_TLAW_REGULARISED, PALA_DAMP_DASHPOT, 0, {UINT64_C(0x07b34cea319c102a), UINT64_C(0x588d655c091e5a88)}},
    {"spring", PALA_TLAW_SPRING, PALA_DAMP_SWITCH, 0, {UINT64_C(0xd77b1d292a8261e4), UINT64_C(0x23dd0667a05a063b)}},
    {"spring + dashpot", PALA_TLAW_SPRING, PALA_DAMP_DASHPOT, 0, {UINT64_C(0x96feb7c9eb734026), UINT64_C(0x1286fc04fe4ae4a5)}},
    {"mindlin", PALA_TLAW_MINDLIN, PALA_DAMP_SWITCH, 0, {UINT64_C(0xbb771a98e65897ea), UINT64_C(0x64de19827e5a8c07)}},
    {"mindlin + dashpot", PALA_TLAW_MINDLIN, PALA_DAMP_DASHPOT, 0, {UINT64_C(0xfef63461ebe6a741), UINT64_C(0x3f31e0bc53e2a86c)}},
    {"regularised + rolling + torsion", PALA_TLAW_REGULARISED, PALA_DAMP_SWITCH, LAWS_ROLL, {UINT64_C(0x52291c55adc1461b), UINT64_C(0xeee48283c9c1b857)}},
    {"spring + rolling + torsion", PALA_TLAW_SPRING, PALA_DAMP_SWITCH, LAWS_ROLL, {UINT64_C(0x35ea2509f5d07aed), UINT64_C(0x87b6f6b72d986636)}},
    {"fractional + regularised", PALA_TLAW_REGULARISED, PALA_DAMP_SWITCH, LAWS_FRAC, {UINT64_C(0x77d915a5bb42ef92), UINT64_C(0x9aadb6474230f905)}},
    {"fractional + spring", PALA_TLAW_SPRING, PALA_DAMP_SWITCH, LAWS_FRAC, {UINT64_C(0x97876a3a8bf75355), UINT64_C(0x75676a7dfbdbba5b)}},
    {"mixed: regularised grains, spring grains, mindlin + dashpot walls", PALA_TLAW_REGULARISED, PALA_DAMP_SWITCH, LAWS_MIXED, {UINT64_C(0x717a239170294222), UINT64_C(0x6978ebc661764f5f)}},
    {"hooke", PALA_TLAW_REGULARISED, PALA_DAMP_SWITCH, LAWS_HOOKE, {UINT64_C(0xd6698baefc285fa6), UINT64_C(0x787f745c5c950d1a)}},
    {"hooke + dashpot + spring", PALA_TLAW_SPRING, PALA_DAMP_DASHPOT, LAWS_HOOKE, {UINT64_C(0xd12fa33530393057), UINT64_C(0x7bbd6482f520153d)}},
    {"hooke + mindlin + rolling + torsion", PALA_TLAW_MINDLIN, PALA_DAMP_SWITCH, LAWS_HOOKE | LAWS_ROLL, {UINT64_C(0xd76dea288bf0e9dc), UINT64_C(0x15694587f37b4901)}},
    {"mixed: hooke + dashpot grains, hertz + spring grains, mindlin + dashpot walls", PALA_TLAW_REGULARISED, PALA_DAMP_DASHPOT,
     LAWS_MIXED | LAWS_HOOKE, {UINT64_C(0x265ed605292e5ef6), UINT64_C(0xb2bae64ba7e9b643)}},
    {"mixed: spring grains, mindlin grains, regularised walls", PALA_TLAW_SPRING, PALA_DAMP_SWITCH, LAWS_MIXED, {UINT64_C(0x5dd21cace70fdcd6), UINT64_C(0xd4c2031794ca99ae)}},
};

/* the state of every grain (t_state_hash), then E_diss */
static uint64_t world_hash(const pala_world *w) { return t_fnv_doubles(t_state_hash(w), &w->diss, 1); }

static pala_material law_mat(const char *name, int tlaw, int damp, int extra)
{
    pala_material m = {.rho = 2500, .E = 1e7, .sigma = 0.3, .delta = 0.6, .mu = 0.4, .nu = 1e-3};
    snprintf(m.name, sizeof m.name, "%s", name);
    m.tlaw = tlaw;
    m.damp = damp;
    m.kt = 800;
    if (extra & LAWS_ROLL) { m.kroll = 1e-4; m.muroll = 0.1; m.ktor = 1e-4; m.mutor = 0.1; }
    if (extra & LAWS_FRAC) { m.nlaw = PALA_NLAW_FRACTIONAL; m.alpha = 0.4; m.fc = 2; m.fk = 5e3; }
    if (extra & LAWS_HOOKE) { m.nlaw = PALA_NLAW_HOOKE; m.kn = 1000; }
    return m;
}

/* 64 grains (spheres of radius 1 mm, or 3-sphere clumps) of combination c in a box that
 * touches the outer ones, moving and spinning; 400 steps through driver general (0: the
 * vectorised one).  Returns the hash; *contacts: the contacts after 100, 200, 300, 400
 * steps, summed. */
static uint64_t run(const combo *c, int clumps, int general, long *contacts, int *status)
{
    pala_world w;
    pala_world_init(&w);
    const double s = clumps ? 1.9e-3 : 1.97e-3;
    w.g = pala_v(0, 0, -9.81);
    w.dt = 2e-6;
    pala_material a = law_mat("a", c->tlaw, c->damp, c->extra), b = a, wall = a;
    if (c->extra & LAWS_MIXED) {   /* a second grain material of another law, and walls of a third */
        b.tlaw = c->tlaw == PALA_TLAW_REGULARISED ? PALA_TLAW_SPRING : PALA_TLAW_MINDLIN;
        wall.tlaw = c->tlaw == PALA_TLAW_REGULARISED ? PALA_TLAW_MINDLIN : PALA_TLAW_REGULARISED;
        wall.damp = c->tlaw == PALA_TLAW_REGULARISED ? PALA_DAMP_DASHPOT : PALA_DAMP_SWITCH;
        b.mu = 0.3; b.delta = 0.7;
        b.nlaw = PALA_NLAW_HERTZ;   /* with LAWS_HOOKE: a Hooke material meets a Hertz one */
        snprintf(b.name, sizeof b.name, "b");
        snprintf(wall.name, sizeof wall.name, "wall");
    }
    int ma = pala_world_add_material(&w, &a), mb = ma, mw = ma;
    if (c->extra & LAWS_MIXED) { mb = pala_world_add_material(&w, &b); mw = pala_world_add_material(&w, &wall); }
    pala_world_set_box(&w, pala_v(0, 0, 0), pala_v(4 * s, 4 * s, 4 * s), mw);
    int ta, tb;
    if (clumps) {
        const pala_vec3 c3[3] = {{-0.55e-3, 0, 0}, {0.55e-3, 0, 0}, {0, 0.45e-3, 0.35e-3}};
        const double r3[3] = {0.6e-3, 0.6e-3, 0.5e-3};
        pala_vec3 shape[3];
        double rad[3];
        char err[256] = "";
        pala_template t;
        memset(&t, 0, sizeof t);
        pala_template_build(&t, 3, c3, r3, a.rho, 2000, shape, rad, err, sizeof err);
        snprintf(t.name, sizeof t.name, "trio");
        t.material = ma;
        ta = pala_world_add_template(&w, &t, shape, rad);
        t.material = mb;
        snprintf(t.name, sizeof t.name, "trio-b");
        tb = pala_world_add_template(&w, &t, shape, rad);
    } else {
        ta = pala_world_add_sphere_template(&w, ma, 1e-3);
        tb = pala_world_add_sphere_template(&w, mb, 1e-3);
    }
    pala_rng g;
    pala_rng_seed(&g, 7);
    for (int k = 0; k < 64; k++) {
        double u[9];
        for (int j = 0; j < 9; j++) u[j] = 2 * pala_rng_uniform(&g) - 1;
        pala_vec3 x = pala_v((k % 4 + 0.5) * s, (k / 4 % 4 + 0.5) * s, (k / 16 + 0.5) * s);
        pala_world_add_grain(&w, k % 2 ? tb : ta, x, pala_v(u[0], u[1], u[2]), pala_v(0.05 * u[3], 0.05 * u[4], 0.05 * u[5]),
                             pala_v(30 * u[6], 30 * u[7], 30 * u[8]));
    }
    pala_world_sort(&w);
    *status = pala_world_prepare(&w);
    if (*status) printf("%s\n", w.why);
    else w.work->cm->general = general;
    *contacts = 0;
    for (int i = 0; i < 4 && *status == PALA_OK; i++) {
        *status = pala_world_steps(&w, 100);
        *contacts += w.ncontact;
    }
    if (*status) printf("%s\n", w.why);
    uint64_t h = world_hash(&w);
    pala_world_free(&w);
    return h;
}

void test_matrix(void)
{
    int ok = 1;
    for (size_t i = 0; i < sizeof combos / sizeof combos[0]; i++)
        for (int clumps = 0; clumps < 2; clumps++) {
            const combo *c = &combos[i];
            long n0, n1;
            int s0, s1;
            uint64_t hv = run(c, clumps, 0, &n0, &s0), hg = run(c, clumps, 1, &n1, &s1);
            T_CHECK(s0 == PALA_OK && s1 == PALA_OK && n0 > 100 && hv == hg,
                    "%s, %s and walls: vectorised and general drivers give the same bits (%016llx, %016llx), %ld contacts summed over 4 times",
                    c->name, clumps ? "clump pairs" : "sphere pairs", (unsigned long long)hv, (unsigned long long)hg, n0);
            T_CHECK(hv == c->golden[clumps], "%s, %s: golden hash %016llx (found %016llx)", c->name, clumps ? "clumps" : "spheres",
                    (unsigned long long)c->golden[clumps], (unsigned long long)hv);
            ok &= hv == hg;
        }
    (void)ok;
}

/* test_pairs.c: the control-file side of the contact laws with history (docs/control-file.md,
 * "[pair A B]"; docs/physics.md, "Contact history"): friction above 1, a [pair A B] section
 * or --set pair.A.B.KEY replaces the mixed value of that pair of materials in both orders of
 * the world's table and nowhere else; pala_world_add_pair refuses what it cannot use; and
 * each inconsistent setting of the laws (a spring without stiffness, rolling or torsion with
 * a stiffness and no friction or the reverse, a fractional law without k or c) is refused
 * with exit 1 at the line of the key. */
#include "t.h"
#include "t_world.h"
#include "keys.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_pairs(void);

/* rubber grains in a steel box; lines: 5 wall_material, 6 [material rubber], 10 friction,
 * 11 [material steel], 15 [pair rubber steel], 16 its friction, 17 [grain ball] */
static const char *base =
    "dt = 1e-5\nsteps = 5\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = steel\n"
    "[material rubber]\ndensity = 1000\nyoung = 1e7\ndelta = 0.5\nfriction = 1.2\n"
    "[material steel]\ndensity = 7800\nyoung = 2e9\nfriction = 0.4\n"
    "[pair rubber steel]\nfriction = 1.3\n"
    "[grain ball]\nmaterial = rubber\nshape = sphere\nradius = 0.004\n"
    "[group g]\ngrain = ball\ncount = 3\n";

/* Load text with nset overrides; NULL (messages in err) on failure. */
static pala_scene *load(const char *name, const char *text, int nset, char **sets, char *err, size_t errlen)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s.txt", t_tmpdir(), name);
    t_write(path, text);
    return t_load_scene(path, nset, sets, err, errlen);
}

/* base with `from` replaced by `to` (from must be in base) */
static void edit(char *out, size_t len, const char *from, const char *to)
{
    const char *p = strstr(base, from);
    if (!p) { snprintf(out, len, "%s", base); T_CHECK(0, "test setup: '%s' not in the scene", from); return; }
    snprintf(out, len, "%.*s%s%s", (int)(p - base), base, to, p + strlen(from));
}

/* The edited scene, run with `set` (or none): exit 1, `FILE:LINE: ` (or `--set '...'`) and
 * every one of the texts msg, msg2 in the message. */
static void refused(const char *name, const char *from, const char *to, const char *set, int line, const char *msg, const char *msg2)
{
    char text[2048], path[256], out[4096], want[400];
    edit(text, sizeof text, from, to);
    snprintf(path, sizeof path, "%s/%s.txt", t_tmpdir(), name);
    t_write(path, text);
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/%s.run --quiet --force%s%s%s", path, t_tmpdir(), name,
                  set ? " --set '" : "", set ? set : "", set ? "'" : "");
    if (set) snprintf(want, sizeof want, "--set '%s': ", set);
    else snprintf(want, sizeof want, "%s:%d: ", path, line);
    T_CHECK(rc == 1 && strstr(out, want) && strstr(out, msg) && (!msg2 || strstr(out, msg2)),
            "%s: exit %d (want 1), at %s with '%s'%s%s: %.400s", name, rc, want, msg, msg2 ? " and " : "", msg2 ? msg2 : "", out);
}

static int mat_index(const pala_world *w, const char *name)
{
    for (int i = 0; i < w->nmat; i++)
        if (!strcmp(w->mat[i].name, name)) return i;
    return -1;
}

void test_pairs(void)
{
    char err[4096], text[2048];
    /* a [pair] overrides the mixed friction in both orders; mu > 1 is accepted */
    pala_scene *s = load("pairs", base, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "a scene with friction 1.2 and a [pair rubber steel] loads (%.300s)", err);
    if (s) {
        const pala_world *w = pala_scene_world(s);
        int r = mat_index(w, "rubber"), st = mat_index(w, "steel"), n = w->nmat;
        const pala_pairmat *rs = &w->pm[r * n + st], *sr = &w->pm[st * n + r], *rr = &w->pm[r * n + r], *ss = &w->pm[st * n + st];
        T_CHECK(w->npairs == 1 && rs->mu == 1.3 && sr->mu == 1.3, "[pair rubber steel] friction 1.3: pm[rubber][steel].mu %g, pm[steel][rubber].mu %g",
                rs->mu, sr->mu);
        T_CHECK(rr->mu == pala_harmonic(1.2, 1.2) && ss->mu == pala_harmonic(0.4, 0.4) && w->mat[r].mu == 1.2,
                "[rubber][rubber] keeps the mixed 1.2 (%g), [steel][steel] 0.4 (%g)", rr->mu, ss->mu);
        T_CHECK(rs->delta == pala_harmonic(0.5, 1) && sr->delta == rs->delta && rs->nu == pala_harmonic(0.001, 0.001),
                "what the pair does not set stays mixed: delta %g, nu %g", rs->delta, rs->nu);
        pala_scene_free(s);
    }

    /* --set on the pair, in the other order, and a pair the file does not have */
    char s1[] = "pair.steel.rubber.friction=0.9", s2[] = "pair.rubber.rubber.friction=0.7", s3[] = "pair.rubber.rubber.delta=0.25";
    char *sets[3] = {s1, s2, s3};
    s = load("pairs-set", base, 3, sets, err, sizeof err);
    T_CHECK(s != NULL, "--set pair.steel.rubber.friction, pair.rubber.rubber.friction and .delta load (%.300s)", err);
    if (s) {
        const pala_world *w = pala_scene_world(s);
        int r = mat_index(w, "rubber"), st = mat_index(w, "steel"), n = w->nmat;
        T_CHECK(w->pm[r * n + st].mu == 0.9 && w->pm[st * n + r].mu == 0.9, "--set pair.steel.rubber.friction=0.9 sets both orders (%g, %g)",
                w->pm[r * n + st].mu, w->pm[st * n + r].mu);
        T_CHECK(w->npairs == 2 && w->pm[r * n + r].mu == 0.7 && w->pm[r * n + r].delta == 0.25 && w->pm[st * n + st].mu == pala_harmonic(0.4, 0.4),
                "--set pair.rubber.rubber.* makes that pair (%d pairs): mu %g, delta %g; steel-steel keeps %g", w->npairs,
                w->pm[r * n + r].mu, w->pm[r * n + r].delta, w->pm[st * n + st].mu);
        const char *v = pala_scene_get(s, "pair.rubber.rubber.friction");
        T_CHECK(v && !strcmp(v, "0.7") && !pala_scene_get(s, "pair.rubber.rubber.slip_velocity"),
                "the pair's settings are named pair.A.B.KEY, only those given (%s)", v ? v : "none");
        pala_scene_free(s);
    }
    /* the effective control file reads back to the same table */
    char out[8192], path[300];
    snprintf(path, sizeof path, "%s/pairs-set.txt", t_tmpdir());
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/pairs.run --quiet --force --set pair.steel.rubber.friction=0.9 "
                  "--set pair.rubber.rubber.tangential_law=spring --set material.rubber.tangential_stiffness=2e3 && "
                  "./pala run %s/pairs.run/control.txt -o %s/pairs2.run --quiet --force && grep -A2 '^.pair' %s/pairs2.run/control.txt",
                  path, t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0 && strstr(out, "[pair rubber steel]\nfriction = 0.9") && strstr(out, "[pair rubber rubber]\ntangential_law = spring"),
            "control.txt of a run with [pair] overrides runs again and keeps them: exit %d %.300s", rc, out);

    /* the laws with history mix (material_history) and a pair sets them */
    const char *laws =
        "dt = 1e-5\nsteps = 5\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = steel\n"
        "[material rubber]\ndensity = 1000\nyoung = 1e7\ntangential_law = spring\ntangential_stiffness = 1e4\n"
        "rolling_stiffness = 2e-3\nrolling_friction = 0.1\n"
        "[material steel]\ndensity = 7800\nyoung = 2e9\ntangential_stiffness = 3e4\nrolling_stiffness = 1e-3\nrolling_friction = 0.3\n"
        "[pair rubber steel]\ntangential_stiffness = 5e3\ntorsion_stiffness = 1e-3\ntorsion_friction = 0.2\n"
        "[pair rubber rubber]\ntangential_law = mindlin\nrolling_friction = 0.3\n"
        "[grain ball]\nmaterial = rubber\nshape = sphere\nradius = 0.004\n"
        "[group g]\ngrain = ball\ncount = 3\n";
    s = load("pairs-laws", laws, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "a scene with the spring law, rolling and torsion values and two pairs loads (%.300s)", err);
    if (s) {
        const pala_world *w = pala_scene_world(s);
        int r = mat_index(w, "rubber"), st = mat_index(w, "steel"), n = w->nmat;
        const pala_pairmat *rs = &w->pm[r * n + st], *sr = &w->pm[st * n + r], *rr = &w->pm[r * n + r], *ss = &w->pm[st * n + st];
        T_CHECK(rs->tlaw == PALA_TLAW_SPRING && sr->tlaw == PALA_TLAW_SPRING && ss->tlaw == PALA_TLAW_REGULARISED && rr->tlaw == PALA_TLAW_MINDLIN,
                "laws: rubber-steel spring (%d, %d), steel-steel regularised (%d), [pair rubber rubber] mindlin (%d)", rs->tlaw, sr->tlaw, ss->tlaw, rr->tlaw);
        T_CHECK(rs->kt == 5e3 && sr->kt == 5e3 && rr->kt == 1e4 && ss->kt == 3e4, "k_t: pair 5e3 (%g, %g), mixed otherwise (%g, %g)", rs->kt, sr->kt, rr->kt, ss->kt);
        T_CHECK(rs->kroll == pala_harmonic(2e-3, 1e-3) && rs->muroll == pala_harmonic(0.1, 0.3) && rr->muroll == 0.3 && rr->kroll == 2e-3,
                "rolling: mixed by H for rubber-steel (%g, %g); [pair rubber rubber] friction 0.3 with the mixed stiffness (%g, %g)",
                rs->kroll, rs->muroll, rr->kroll, rr->muroll);
        T_CHECK(rs->ktor == 1e-3 && sr->mutor == 0.2 && rr->ktor == 0 && ss->ktor == 0, "torsion only where the pair sets it (%g %g; %g %g)",
                rs->ktor, sr->mutor, rr->ktor, ss->ktor);
        pala_scene_free(s);
    }

    /* pala_world_add_pair refuses what it cannot store, saying why; the values are checked by
     * pala_world_prepare (tests/test_checks.c) */
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.rho = 1000, .E = 1e7, .sigma = 0.3, .delta = 1, .mu = 0.5, .nu = 1e-3};
    pala_world_add_material(&w, &m);
    pala_world_add_material(&w, &m);
    pala_pairset p = {.a = 0, .b = 1, .set = PALA_PAIR_MU | PALA_PAIR_DELTA, .mu = 2, .delta = 0.5};
    int i0 = pala_world_add_pair(&w, &p);
    pala_pairset rev = p, bad_m = p, bad_bits = p, self = p;
    rev.a = 1; rev.b = 0;
    bad_m.b = 2;
    bad_bits.a = 1; bad_bits.b = 1; bad_bits.set = 1 << 20;
    self.a = 1; self.b = 1;
    int r_rev = pala_world_add_pair(&w, &rev);
    char e_rev[300];
    snprintf(e_rev, sizeof e_rev, "%s", pala_world_error(&w));
    int r_m = pala_world_add_pair(&w, &bad_m);
    char e_m[300];
    snprintf(e_m, sizeof e_m, "%s", pala_world_error(&w));
    T_CHECK(i0 == 0 && r_rev == -1 && strstr(e_rev, "added before") && r_m == -1 && strstr(e_m, "materials 0 and 2") &&
                pala_world_add_pair(&w, &bad_bits) == -1 && pala_world_add_pair(&w, &self) == 1 && w.npairs == 2,
            "pala_world_add_pair: index 0, then -1 for the same pair reversed (%s), a material that does not exist (%s), bits of no field; "
            "1 for a material with itself", e_rev, e_m);
    pala_world_free(&w);

    /* errors: exit 1, the line of the key (or the --set), what is wrong and the fix */
    refused("pair-unknown", "[pair rubber steel]", "[pair rubber stel]", NULL, 15, "no [material stel] section", "did you mean 'steel'");
    refused("pair-unknown-set", "dt = 1e-5", "dt = 1e-5", "pair.rubbr.steel.friction=1", 0, "no [material rubbr] section", "did you mean 'rubber'");
    refused("pair-twice", "friction = 1.3\n", "friction = 1.3\n[pair steel rubber]\ndelta = 0.5\n", NULL, 17, "[pair steel rubber] is defined twice",
            "first at line 15");
    refused("pair-one-name", "[pair rubber steel]", "[pair rubber]", NULL, 15, "needs the names of two [material] sections", NULL);
    refused("pair-negative", "friction = 1.3", "friction = -1.3", NULL, 16, "'friction = -1.3': must be at least 0", NULL);
    refused("pair-delta", "friction = 1.3", "delta = 2", NULL, 16, "'delta = 2': must be between 0 and 1", NULL);
    refused("pair-unknown-key", "friction = 1.3", "frictoin = 1.3", NULL, 16, "did you mean 'friction'", NULL);
    refused("pair-density", "friction = 1.3", "density = 3", NULL, 16, "'density' belongs in a [material NAME] section", NULL);
    refused("spring-no-kt", "friction = 1.2\n", "friction = 1.2\ntangential_law = spring\n", NULL, 11, "'tangential_law = spring' needs 'tangential_stiffness'",
            "[material rubber]");
    refused("spring-top", "wall_material = steel\n", "wall_material = steel\ntangential_law = spring\n", NULL, 6, "'tangential_law = spring' applies to [material",
            "tangential_stiffness");
    refused("spring-mixed", "friction = 1.2\n", "friction = 1.2\ntangential_law = spring\ntangential_stiffness = 1e4\n", NULL, 13,
            "[material steel] has no 'tangential_stiffness'", "[pair steel rubber]");
    refused("spring-pair", "friction = 1.3\n", "friction = 1.3\ntangential_law = spring\n", NULL, 17, "[pair rubber steel]: 'tangential_law = spring'",
            "add 'tangential_stiffness'");
    refused("spring-pair-set", "dt = 1e-5", "dt = 1e-5", "pair.rubber.steel.tangential_law=spring", 0, "'tangential_law = spring'", "tangential_stiffness");
    refused("rolling-no-friction", "friction = 1.2\n", "friction = 1.2\nrolling_stiffness = 1e-3\n", NULL, 11, "'rolling_stiffness = 0.001' without 'rolling_friction'",
            "set both");
    refused("rolling-no-stiffness", "friction = 1.2\n", "friction = 1.2\nrolling_friction = 0.1\n", NULL, 11, "'rolling_friction = 0.1' without 'rolling_stiffness'",
            "pure spring");
    refused("torsion-no-friction", "friction = 0.4\n", "friction = 0.4\ntorsion_stiffness = 1e-3\n", NULL, 15, "'torsion_stiffness = 0.001' without 'torsion_friction'",
            "set both");
    refused("torsion-no-stiffness", "friction = 1.2\n", "friction = 1.2\ntorsion_friction = 0.1\n", NULL, 11, "'torsion_friction = 0.1' without 'torsion_stiffness'",
            "set both");
    refused("rolling-pair", "friction = 1.3\n", "friction = 1.3\nrolling_friction = 0.2\n", NULL, 17, "[pair rubber steel]: rolling_stiffness 0 with rolling_friction 0.2",
            "set both");
    refused("torsion-pair", "friction = 1.3\n", "friction = 1.3\ntorsion_stiffness = 1e-3\n", NULL, 17, "torsion_stiffness 0.001 with torsion_friction 0", "set both");
    refused("fractional-no-k", "friction = 1.2\n", "friction = 1.2\nnormal_law = fractional\nfractional_order = 0.2\nfractional_damping = 5\n", NULL, 11,
            "needs 'fractional_stiffness' > 0", "unless fractional_order = 1");
    refused("fractional-no-c", "friction = 1.2\n", "friction = 1.2\nnormal_law = fractional\nfractional_order = 0.2\nfractional_stiffness = 1e4\n", NULL, 11,
            "needs 'fractional_damping' > 0", "unless fractional_order = 0");
    /* a fractional material against a Hertz one takes its own values (no refusal: below);
     * two fractional materials mix: an order-0 law with k only and an order-1 law with c
     * only make a pair of order 1/2 whose k and c mix to 0 */
    refused("fractional-mixed", "friction = 1.2\n[material steel]\ndensity = 7800\nyoung = 2e9\nfriction = 0.4\n",
            "friction = 1.2\nnormal_law = fractional\nfractional_stiffness = 1e4\n[material steel]\ndensity = 7800\nyoung = 2e9\nfriction = 0.4\n"
            "normal_law = fractional\nfractional_order = 1\nfractional_damping = 3\n", NULL, 13,
            "[material steel] has no 'fractional_stiffness', so where it touches [material rubber], which has normal_law = fractional", "order 0.5");
    refused("fractional-order", "friction = 1.2\n", "friction = 1.2\nfractional_order = 1.5\n", NULL, 11, "'fractional_order = 1.5': must be between 0 and 1", NULL);
    /* the limits need only the one parameter (steel is given the same law) */
    const char *lim[2][2] = {{"fractional_order = 0\nfractional_stiffness = 1e4\n", "k only, order 0"},
                             {"fractional_order = 1\nfractional_damping = 3\n", "c only, order 1"}};
    for (int j = 0; j < 2; j++) {
        char law[256], t1[2048], t2[2048];
        snprintf(law, sizeof law, "friction = 1.2\nnormal_law = fractional\n%s", lim[j][0]);
        edit(t1, sizeof t1, "friction = 1.2\n", law);
        const char *q = strstr(t1, "friction = 0.4\n");
        snprintf(law, sizeof law, "friction = 0.4\nnormal_law = fractional\n%s", lim[j][0]);
        snprintf(t2, sizeof t2, "%.*s%s%s", (int)(q - t1), t1, law, q + strlen("friction = 0.4\n"));
        s = load("fractional-limit", t2, 0, NULL, err, sizeof err);
        T_CHECK(s != NULL, "normal_law = fractional with %s passes its checks and loads (%.300s)", lim[j][1], err);
        pala_scene_free(s);
    }
    /* one fractional material: its pair with a Hertz material (here the walls') takes its values */
    edit(text, sizeof text, "friction = 1.2\n", "friction = 1.2\nnormal_law = fractional\nfractional_order = 0.3\nfractional_damping = 5\nfractional_stiffness = 1e4\n");
    s = load("fractional-one", text, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "a fractional material against a Hertz one loads (%.300s)", err);
    if (s) {
        const pala_world *ws = pala_scene_world(s);
        const pala_pairmat *pr = &ws->pm[0 * ws->nmat + 1], *q = &ws->pm[1 * ws->nmat + 0], *h = &ws->pm[1 * ws->nmat + 1];
        T_CHECK(pr->nlaw == PALA_NLAW_FRACTIONAL && q->nlaw == PALA_NLAW_FRACTIONAL && pr->alpha == 0.3 && q->fc == 5 && pr->fk == 1e4 &&
                    h->nlaw == PALA_NLAW_HERTZ,
                "the pair rubber-steel is fractional with rubber's alpha, c, k (%d %g %g %g), steel-steel stays Hertz", pr->nlaw, pr->alpha, pr->fc, pr->fk);
    }
    pala_scene_free(s);
    /* a material no grain and no wall uses may leave a law incomplete */
    edit(text, sizeof text, "[pair rubber steel]", "[material spare]\ndensity = 1\nyoung = 1\ntangential_law = spring\n[pair rubber steel]");
    s = load("unused", text, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "an unused material with the spring law and no stiffness is not checked (%.300s)", err);
    pala_scene_free(s);

    /* help */
    rc = t_sh(out, sizeof out, "./pala help tangential_law");
    T_CHECK(rc == 0 && strstr(out, "tangential_law     top level") && strstr(out, "[material]") && strstr(out, "[pair]") &&
            strstr(out, "default: regularised") && strstr(out, "default: the top-level tangential_law") &&
            strstr(out, "one of regularised|spring|mindlin"), "pala help tangential_law: its three sections, defaults and words: %.300s", out);
    rc = t_sh(out, sizeof out, "./pala help keys | grep -c '^== '");
    T_CHECK(rc == 0 && atoi(out) == 8 && t_sh(out, sizeof out, "./pala help keys | grep -q '^== \\[pair A B\\] =='") == 0,
            "pala help keys has the [pair A B] section (and the others: 8)");
}

/* test_checks.c: the checks of pala_world_prepare (world.c, material.c, check.c).  Each rule
 * refuses a bad value of a world that otherwise prepares: the status is PALA_ERR_INPUT and
 * pala_world_error names the part (material 0, pair 0, template 1, grain 2), the field as
 * pala.h spells it and its value.  Every field of a material and of a pair is tried against
 * its row of the key table (the ranges and words the control-file reader applies); the
 * world's settings, the laws of materials and of pairs, templates and grains one rule at a
 * time; then the refusals of the calls that build a world, and the same fault in the words
 * of a control file (pala_world_check with keys = 1: the key, for scene.c to put at its line). */
#include "t.h"
#include "check.h"
#include "keys.h"
#include "world.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void test_checks(void);

/* Two materials, glass (0: the grains of template 0 and the walls) and rubber (1: template 1),
 * two grains of each in a box, in 3D: it prepares. */
static void base(pala_world *w)
{
    pala_world_init(w);
    pala_material glass = {.name = "glass", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 0.5, .mu = 0.3, .nu = 1e-3};
    pala_material rubber = {.name = "rubber", .rho = 1000, .E = 1e7, .sigma = 0.45, .delta = 0.5, .mu = 0.8, .nu = 1e-3};
    pala_world_add_material(w, &glass);
    pala_world_add_material(w, &rubber);
    for (int m = 0; m < 2; m++) {
        int t = pala_world_add_sphere_template(w, m, 1e-3);
        for (int i = 0; i < 2; i++)
            pala_world_add_grain(w, t, pala_v(3e-3 + 4e-3 * i, 3e-3 + 4e-3 * m, 2e-3), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    }
    pala_world_set_box(w, pala_v(0, 0, 0), pala_v(0.02, 0.02, 0.02), 0);
    w->g = pala_v(0, 0, -9.81);
    w->dt = 1e-6;
}

/* the base world in 2D: gravity in the plane */
static void flat(pala_world *w)
{
    w->dim = 2;
    w->g = pala_v(0, -9.81, 0);
}

/* prepare w: refused (or, with no needles, accepted), the message holding each needle;
 * frees w */
static void expect(pala_world *w, const char *what, ...)
{
    int st = pala_world_prepare(w);
    va_list ap;
    va_start(ap, what);
    int ok = 1, any = 0;
    const char *n;
    while ((n = va_arg(ap, const char *))) { any = 1; ok &= strstr(pala_world_error(w), n) != NULL; }
    va_end(ap);
    if (any) T_CHECK(st == PALA_ERR_INPUT && ok, "%s: refused (%d), naming the field: %s", what, st, pala_world_error(w));
    else T_CHECK(st == PALA_OK, "%s: prepares (%d) %s", what, st, pala_world_error(w));
    pala_world_free(w);
}
#define REFUSED(what, change, ...) do { pala_world w_; base(&w_); { pala_world *w = &w_; change; } expect(&w_, what, __VA_ARGS__, NULL); } while (0)
#define ACCEPTED(what, change) do { pala_world w_; base(&w_); { pala_world *w = &w_; change; } expect(&w_, what, NULL); } while (0)

/* A value out of the range or the words of row k, or 0 if the row has no such value. */
static int bad_value(const pala_keydef *k, double *x, int *code)
{
    if (k->codes) { *code = 7; return 1; }   /* no word key has a code 7 */
    if (k->bind.store != PALA_ST_REAL) return 0;
    *x = isfinite(k->lo) ? k->lo - 1 : isfinite(k->hi) ? k->hi + 1 : (double)NAN;
    return 1;
}

/* every field of a material and of a pair against its row: refused, naming the field */
static void fields(void)
{
    int nmat = 0, npair = 0;
    for (int key = 0; key < pala_nkeys; key++) {
        const pala_keydef *k = &pala_keys[key];
        double x;
        int code;
        if ((k->sect != PALA_S_MATERIAL && k->sect != PALA_S_PAIR) || !bad_value(k, &x, &code)) continue;
        char want[80], what[120];
        for (int nan = 0; nan < (k->codes ? 1 : 2); nan++) {
            double v = nan ? (double)NAN : x;
            if (k->codes) snprintf(want, sizeof want, "'%s = %d'", k->bind.field, code);
            else snprintf(want, sizeof want, "'%s = %g'", k->bind.field, v);
            snprintf(what, sizeof what, "%s %s = %s", k->sect == PALA_S_PAIR ? "a pair's" : "a material's", k->bind.field, want);
            pala_world w;
            base(&w);
            void *obj = &w.mat[1];
            const char *part = "material 1 (rubber)";
            if (k->sect == PALA_S_PAIR) {
                pala_pairset p = {.a = 0, .b = 1, .set = k->pairbit};
                T_CHECK(pala_world_add_pair(&w, &p) == 0, "%s: the pair is stored", what);
                obj = &w.pairs[0];
                part = "pair 0 (materials 0 and 1)";
            }
            if (k->codes) *(int *)((char *)obj + k->bind.off) = code;
            else *(double *)((char *)obj + k->bind.off) = v;
            expect(&w, what, part, want, NULL);
        }
        *(k->sect == PALA_S_PAIR ? &npair : &nmat) += 1;
    }
    T_CHECK(nmat >= 17 && npair >= 10, "every field of a material (%d) and of a pair (%d) was tried", nmat, npair);
}

static void settings(void)
{
    REFUSED("dimension 4", w->dim = 4, "'w.dim = 4'", "between 2 and 3");
    REFUSED("dt 0", w->dt = 0, "'w.dt = 0'", "positive");
    REFUSED("dt NaN", w->dt = (double)NAN, "'w.dt = nan'", "finite");
    REFUSED("g NaN", w->g.y = (double)NAN, "'w.g', component y = nan", "finite");
    REFUSED("E NaN", w->E.x = (double)NAN, "'w.E', component x", "finite");
    REFUSED("B turning at inf", w->B_turn.z = (double)INFINITY, "'w.B_turn', component z", "finite");
    REFUSED("G < 0", w->grav_G = -1, "'w.grav_G = -1'", "at least 0");
    REFUSED("cutoff < 0", w->cutoff = -1, "'w.cutoff = -1'", "at least 0");
    REFUSED("eps_r < 0", w->eps_r = -1, "'w.eps_r = -1'");
    ACCEPTED("eps_r 0 (read as 1)", w->eps_r = 0);
    REFUSED("lorentz 5", w->lorentz = 5, "'w.lorentz = 5'", "PALA_LORENTZ_IMPLICIT or PALA_LORENTZ_PAPER");
    REFUSED("hertz 7", w->hertz = 7, "'w.hertz = 7'", "PALA_HERTZ_PAPER or PALA_HERTZ_TEXTBOOK");
    REFUSED("rotation_step 9", w->rotation_step = 9, "'w.rotation_step = 9'", "PALA_ROTSTEP_MIDPOINT");
    REFUSED("max_overlap 0", w->max_overlap = 0, "'w.max_overlap = 0'");
    REFUSED("max_overlap 2", w->max_overlap = 2, "'w.max_overlap = 2'", "between 1e-06 and 1");
    REFUSED("skin < 0", w->skin = -1, "'w.skin = -1'");
    REFUSED("world tlaw 7", w->tlaw = 7, "'w.tlaw = 7'", "PALA_TLAW_REGULARISED, PALA_TLAW_SPRING or PALA_TLAW_MINDLIN");
    REFUSED("world damp 9", w->damp = 9, "'w.damp = 9'", "PALA_DAMP_SWITCH or PALA_DAMP_DASHPOT");
    REFUSED("no material", w->nmat = 0, "no material");
    /* 2D: nothing may push a grain out of the plane */
    REFUSED("2D, g.z", (flat(w), w->g.z = 1), "'w.g'", "2D", "z component");
    REFUSED("2D, E.z", (flat(w), w->E.z = 1), "'w.E'", "2D");
    REFUSED("2D, E turning about x", (flat(w), w->E_turn.x = 1), "'w.E_turn'", "about z");
    REFUSED("2D, B turning about y", (flat(w), w->B_turn.y = 1), "'w.B_turn'", "about z");
}

/* the laws of used materials need their parameters; an unused one may lack them */
static void laws(void)
{
    REFUSED("spring without kt", w->mat[1].tlaw = PALA_TLAW_SPRING, "material 1 (rubber)", "'tlaw = PALA_TLAW_SPRING' needs 'kt' > 0");
    REFUSED("the world's spring without kt", (w->tlaw = PALA_TLAW_SPRING, w->mat[0].kt = w->mat[1].kt = 100, w->mat[1].kt = 0),
            "'w.tlaw = PALA_TLAW_SPRING' applies to material 1 (rubber)", "'kt'");
    REFUSED("rolling stiffness alone", w->mat[1].kroll = 1e-4, "material 1 (rubber): 'kroll = 0.0001' without 'muroll'");
    REFUSED("torsion friction alone", w->mat[0].mutor = 0.1, "material 0 (glass): 'mutor = 0.1' without 'ktor'");
    REFUSED("fractional without k", (w->mat[1].nlaw = PALA_NLAW_FRACTIONAL, w->mat[1].alpha = 0.5, w->mat[1].fc = 1),
            "material 1 (rubber)", "needs 'fk' > 0", "unless alpha = 1");
    REFUSED("fractional without c", (w->mat[1].nlaw = PALA_NLAW_FRACTIONAL, w->mat[1].alpha = 0.5, w->mat[1].fk = 1),
            "needs 'fc' > 0", "unless alpha = 0");
    ACCEPTED("fractional of order 0 with k only", (w->mat[1].nlaw = PALA_NLAW_FRACTIONAL, w->mat[1].fk = 1e4));
    ACCEPTED("an unused material without its spring's kt",
             pala_world_add_material(w, &(pala_material){.name = "spare", .rho = 1, .E = 1, .tlaw = PALA_TLAW_SPRING}));
    /* pairs as mixed (eq. 55) and set */
    REFUSED("spring meets no kt", (w->mat[0].tlaw = PALA_TLAW_SPRING, w->mat[0].kt = 100),
            "material 1 (rubber) has no 'kt', so where it touches material 0 (glass)", "mixes to 0", "pala_world_add_pair");
    REFUSED("a pair's kt 0", (w->mat[0].tlaw = PALA_TLAW_SPRING, w->mat[0].kt = w->mat[1].kt = 100,
                              pala_world_add_pair(w, &(pala_pairset){.a = 0, .b = 1, .set = PALA_PAIR_KT})),
            "pair 0 (materials 0 and 1): 'kt = 0' with the spring law");
    REFUSED("a pair's spring without kt", pala_world_add_pair(w, &(pala_pairset){.a = 1, .b = 0, .set = PALA_PAIR_TLAW, .tlaw = PALA_TLAW_SPRING}),
            "pair 0 (materials 1 and 0): 'tlaw = PALA_TLAW_SPRING' needs a tangential stiffness", "'kt'");
    REFUSED("a pair's rolling stiffness alone", pala_world_add_pair(w, &(pala_pairset){.a = 0, .b = 1, .set = PALA_PAIR_KROLL, .kroll = 1e-4}),
            "pair 0 (materials 0 and 1): kroll 0.0001 with muroll 0");
    REFUSED("fractional k meets c alone",
            (w->mat[0].nlaw = w->mat[1].nlaw = PALA_NLAW_FRACTIONAL, w->mat[0].fk = 1e4, w->mat[1].alpha = 1, w->mat[1].fc = 3),
            "material 1 (rubber) has no 'fk'", "alpha 0.5");
    REFUSED("dashpot on the fractional law", (w->mat[1].nlaw = PALA_NLAW_FRACTIONAL, w->mat[1].fk = 1e4, w->mat[1].damp = PALA_DAMP_DASHPOT),
            "damp = PALA_DAMP_DASHPOT", "PALA_DAMP_SWITCH");
    REFUSED("dashpot with delta 0", (w->damp = PALA_DAMP_DASHPOT, w->mat[1].delta = 0), "material 0 (glass) meets material 1 (rubber)", "delta >= 0.0001");
    REFUSED("a pair's delta 0 with the dashpot",
            (w->damp = PALA_DAMP_DASHPOT, pala_world_add_pair(w, &(pala_pairset){.a = 0, .b = 1, .set = PALA_PAIR_DELTA})), "delta 0", "dashpot needs");
}

static void templates_and_grains(void)
{
    REFUSED("template of material 7", w->tmpl[1].material = 7, "template 1 (sphere): 'material = 7' does not exist");
    REFUSED("NaN charge", w->tmpl[1].charge = (double)NAN, "template 1", "'charge = nan'");
    REFUSED("infinite dipole", w->tmpl[0].mdip.y = (double)INFINITY, "template 0", "'mdip'");
    REFUSED("negative component radius", w->shape_r[w->tmpl[1].comp0] = -1e-3, "template 1", "radius");
    REFUSED("2D, a dipole out of the plane", (flat(w), w->tmpl[0].edip.z = 1e-12), "template 0 (sphere): 'edip'", "2D");
    REFUSED("2D, a charge in an in-plane B", (flat(w), w->tmpl[1].charge = 1e-9, w->B.x = 0.1), "'w.B'", "charged grains of template 1");
    REFUSED("2D, a magnetic dipole in B along z", (flat(w), w->tmpl[0].mdip.x = 1, w->B.z = 0.1), "'w.B'", "magnetic dipoles of template 0");
    REFUSED("grain of template 9", w->tid[2] = 9, "grain 2: template 9");
    REFUSED("NaN velocity", w->v[3].z = (double)NAN, "grain 3", "finite");
}

/* the calls that build a world refuse with a message too */
static void builders(void)
{
    pala_world w;
    base(&w);
    pala_template t = {.name = "pair", .material = 7};
    const pala_vec3 c[2] = {{0, 0, 0}, {1e-3, 0, 0}};
    const double r[2] = {1e-3, -1e-3};
    int i1 = pala_world_build_template(&w, &t, 2, c, r, 1000);
    char e1[300];
    snprintf(e1, sizeof e1, "%s", pala_world_error(&w));
    t.material = 1;
    int i2 = pala_world_build_template(&w, &t, 2, c, r, 1000);
    T_CHECK(i1 == -1 && strstr(e1, "material 7") && i2 == -1 && strstr(pala_world_error(&w), "radius -0.001"),
            "pala_world_build_template: -1 for material 7 (%s) and a negative radius (%s)", e1, pala_world_error(&w));
    T_CHECK(pala_world_add_sphere_template(&w, 0, 0) == -1 && strstr(pala_world_error(&w), "radius 0"), "a sphere of radius 0: %s", pala_world_error(&w));
    T_CHECK(pala_world_add_sphere_template(&w, 5, 1) == -1 && strstr(pala_world_error(&w), "material 5"), "a sphere of material 5: %s", pala_world_error(&w));
    T_CHECK(pala_world_add_interaction(&w, &(pala_interaction){.name = "none"}) == -1 && strstr(pala_world_error(&w), "forces function"),
            "an interaction without forces: %s", pala_world_error(&w));
    T_CHECK(pala_world_add_pair(&w, &(pala_pairset){.a = 0, .b = 3}) == -1 && strstr(pala_world_error(&w), "materials 0 and 3"),
            "a pair of material 3: %s", pala_world_error(&w));
    T_CHECK(w.ntmpl == 2 && w.npairs == 0 && pala_world_prepare(&w) == PALA_OK && pala_world_error(&w)[0] == 0,
            "nothing refused was added; the world prepares and its message is empty");
    pala_world_free(&w);
}

/* one fault in both words: a program's, and a control file's with its key for scene.c */
static void words(void)
{
    pala_world w;
    base(&w);
    w.mat[0].alpha = 3;
    char msg[300];
    pala_check c = {1, msg, sizeof msg, 0, 0, -1, NULL};
    int st = pala_world_check(&w, &c);
    T_CHECK(st == PALA_ERR_INPUT && c.part == PALA_PART_MATERIAL && c.index == 0 && c.key == PALA_KEY_fractional_order &&
                !strcmp(msg, "[material glass]: 'fractional_order = 3': must be between 0 and 1"),
            "a control file's words: the part, the key and '%s'", msg);
    c.keys = 0;
    st = pala_world_check(&w, &c);
    T_CHECK(st == PALA_ERR_INPUT && c.key == PALA_KEY_fractional_order && !strcmp(msg, "material 0 (glass): 'alpha = 3': must be between 0 and 1"),
            "a program's words: '%s'", msg);
    w.mat[0].alpha = 0;
    w.mat[1].tlaw = 7;
    c.keys = 1;
    st = pala_world_check(&w, &c);
    T_CHECK(st == PALA_ERR_INPUT && strstr(msg, "'tangential_law = 7'") && strstr(msg, "regularised, spring or mindlin"),
            "a word in a control file's words: '%s'", msg);
    pala_world_free(&w);
}

void test_checks(void)
{
    {
        pala_world w;
        base(&w);
        expect(&w, "the base world", NULL);
    }
    fields();
    settings();
    laws();
    templates_and_grains();
    builders();
    words();
}

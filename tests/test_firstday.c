/* test_firstday.c: a new user's first day (issue 27): no silent traps (restitution as
 * measured, wall friction that is never silently zero, other programs' words, the Hertz law
 * of a ported scene), the check of dt before the first step (pala run, pala sweep, every
 * example), and honest health warnings (scaled by the energy that flowed, advice of the laws
 * in use, naming their run folder). */
#include "t.h"
#include "t_world.h"
#include "pala/pala.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_firstday(void);

#define DIR "build/tmp/firstday"

/* Two spheres head-on (radius 1 mm, 2500 kg/m^3, E = 1e7 Pa) at 0.1 m/s each, no walls; the
 * material's and pair's lines given; dt = 1e-6 s (t_c = 0.2 ms: 200 steps). */
static void head_on(const char *path, const char *mat, const char *pair)
{
    char txt[2048];
    snprintf(txt, sizeof txt,
             "container = none\ndt = 1e-6\nsteps = 1500\n"
             "[material a]\ndensity = 2500\nyoung = 1e7\n%s\n"
             "[material b]\ndensity = 2500\nyoung = 1e7\n%s\n"
             "[grain ga]\nmaterial = a\nshape = sphere\nradius = 0.001\n"
             "[grain gb]\nmaterial = b\nshape = sphere\nradius = 0.001\n"
             "[group left]\ngrain = ga\nplacement = list\nat = -0.00106 0 0  0.1 0 0\n"
             "[group right]\ngrain = gb\nplacement = list\nat = 0.00106 0 0  -0.1 0 0\n"
             "%s\n", mat, mat, pair);
    t_write(path, txt);
}

/* The restitution measured: relative speed after / before. */
static double measured_restitution(const char *path, char *err, size_t len)
{
    pala_scene *s = t_load_scene(path, 0, NULL, err, len);
    if (!s) return -1;
    pala_world *w = pala_scene_world(s);
    pala_world_steps(w, pala_scene_steps(s));
    double e = (w->v[w->inv ? w->inv[1] : 1].x - w->v[w->inv ? w->inv[0] : 0].x) / 0.2;
    pala_scene_free(s);
    return e;
}

static void traps(void)
{
    char err[4096], out[8192], path[256];
    /* restitution = 0.7: the head-on rebound at 0.7 of the impact speed (delta = 0.49, eq. 56) */
    snprintf(path, sizeof path, "%s/head-on.txt", t_tmpdir());
    head_on(path, "restitution = 0.7", "");
    double e = measured_restitution(path, err, sizeof err);
    T_NEAR(e, 0.7, 1e-3, "restitution = 0.7: measured head-on");
    head_on(path, "restitution = 0.9", "[pair a b]\nrestitution = 0.7");
    e = measured_restitution(path, err, sizeof err);
    T_NEAR(e, 0.7, 1e-3, "[pair a b] restitution = 0.7 over the materials' 0.9: measured head-on");
    head_on(path, "restitution = 0.7\ndelta = 0.49", "");
    T_CHECK(!t_load_scene(path, 0, NULL, err, sizeof err) && strstr(err, "give either 'delta' or 'restitution', not both"),
            "delta and restitution both: refused %s", err);
    head_on(path, "delta = 0.81", "");
    char set[] = "material.a.restitution=0.7";   /* an override of one replaces the other */
    char *sets[] = {set};
    pala_scene *s = t_load_scene(path, 1, sets, err, sizeof err);
    T_CHECK(s && fabs(pala_scene_world(s)->mat[0].delta - 0.49) < 1e-15, "--set restitution replaces the file's delta %s", err);
    pala_scene_free(s);
    int rc = t_sh(out, sizeof out, "./pala help restitution");
    T_CHECK(rc == 0 && strstr(out, "restitution        [material]") && strstr(out, "delta = e^2"), "pala help restitution answers %s", out);

    /* other programs' words: "did you mean" with pala's key */
    static const char *const words[][3] = {
        {"timestep = 1e-6", "did you mean 'dt'", ""}, {"time_step = 1e-6", "did you mean 'dt'", ""},
        {"", "did you mean 'young'", "youngs_modulus = 1e7"}, {"", "did you mean 'poisson'", "poisson_ratio = 0.3"},
        {"", "did you mean 'restitution'", "coefficient_of_restitution = 0.7"},
        {"restitution = 0.7", "key 'restitution' belongs in a [material NAME] section", ""},
        {"periodic = x y", "periodic boundaries are not supported yet", ""},
        {"insertion_rate = 100", "did you mean 'insert_rate', a key of [group NAME]? (a [group] with placement = insert", ""},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        char txt[1024];
        snprintf(txt, sizeof txt, "%s\ncontainer = none\ndt = 1e-6\nsteps = 1\n[material a]\ndensity = 2500\nyoung = 1e7\n%s\n"
                 "[grain g]\nmaterial = a\nshape = sphere\nradius = 0.001\n[group l]\ngrain = g\nplacement = list\nat = 0 0 0\n",
                 words[i][0], words[i][2]);
        t_write(path, txt);
        T_CHECK(!t_load_scene(path, 0, NULL, err, sizeof err) && strstr(err, words[i][1]), "'%s%s': %s", words[i][0], words[i][2], err);
    }
    rc = t_sh(out, sizeof out, "./pala help timestep");
    T_CHECK(rc == 0 && strstr(out, "pala calls it 'dt'"), "pala help timestep names dt %s", out);
    /* a section's name lists its keys; LAMMPS's pour and dump name pala's keys (they were "no key") */
    rc = t_sh(out, sizeof out, "./pala help wall | head -2 && ./pala help outlet | head -1 && ./pala help pour | head -1 && ./pala help dump | head -1 && "
              "./pala help material | grep -c '^material '");
    T_CHECK(rc == 0 && strstr(out, "== [wall NAME] ==\nshape ") && strstr(out, "== [outlet NAME] ==") && strstr(out, "pour: pala calls it 'placement'")
            && strstr(out, "dump: pala calls it 'trajectory_every'") && strstr(out, "\n2\n"), "pala help SECTION and LAMMPS's pour and dump %s", out);

    /* wall friction: a mu = 0.5 sphere on walls of a material without friction is warned of,
     * with the fix; a [pair] with its friction (0 too) says it is meant */
    static const char *const box =
        "box = 0 0.01 0 0.01 0 0.01\nwall_material = steel\ngravity = 0 0 -9.81\ndt = 1e-6\nsteps = 1\n"
        "[material glass]\ndensity = 2500\nyoung = 1e7\nfriction = 0.5\n[material steel]\ndensity = 7800\nyoung = 1e8\n"
        "[grain g]\nmaterial = glass\nshape = sphere\nradius = 0.001\n[group l]\ngrain = g\nplacement = list\nat = 0.005 0.005 0.001\n";
    t_write(path, box);
    s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(s && strstr(err, "warning: grains of [material glass] (friction = 0.5) slide without friction on the walls of [material steel]")
            && strstr(err, "H(0.5, 0) = 0") && strstr(err, "add [pair glass steel] with its friction"), "wall friction: warned, with the fix: %s", err);
    pala_scene_free(s);
    char txt[2048];
    snprintf(txt, sizeof txt, "%s[pair glass steel]\nfriction = 0\n", box);
    t_write(path, txt);
    s = t_load_scene(path, 0, NULL, err, sizeof err);
    T_CHECK(s && !strstr(err, "warning"), "wall friction: a [pair] friction = 0 says it is meant: no warning %s", err);
    pala_scene_free(s);

    /* hertz = paper in a scene of lammps_data: a note with the way to the textbook law */
    rc = t_sh(out, sizeof out, "./pala run examples/heap.txt --set hertz=paper --set steps=0 --quiet --force -o " DIR "/heap");
    T_CHECK(rc == 0 && !strstr(out, "note: hertz"), "hertz given (even = paper): no note %s", out);
    snprintf(path, sizeof path, "%s/heap.txt", t_tmpdir());
    t_sh(out, sizeof out, "grep -v '^hertz' examples/heap.txt | sed 's|heap.data|%s/examples/heap.data|' > %s", ".", path);
    t_sh(out, sizeof out, "sed -i \"s|= ./examples/heap.data|= $(pwd)/examples/heap.data|\" %s", path);
    rc = t_sh(out, sizeof out, "./pala run %s --set steps=0 --quiet --force -o " DIR "/heap", path);
    T_CHECK(rc == 0 && strstr(out, "note: hertz = paper") && strstr(out, "1.84") && strstr(out, "'hertz = textbook'"),
            "lammps_data with the default hertz: a note %s", out);
}

/* The largest overlap along a run of a scene (the ratio to the smaller radius, as the runaway
 * check takes it), stepped one step at a time; *o the check's foreseen one. */
static double run_overlap(const char *path, double *o, char *err, size_t len)
{
    pala_scene *s = t_load_scene(path, 0, NULL, err, len);
    if (!s) return -1;
    pala_world *w = pala_scene_world(s);
    pala_dt_report r;
    *o = pala_world_dt_check(w, &r) == PALA_OK ? r.overlap : -1;
    double worst = 0;
    for (long k = 0; k < pala_scene_steps(s); k++) {
        pala_world_steps(w, 1);
        worst = fmax(worst, w->worst_overlap);
    }
    pala_scene_free(s);
    return worst;
}

/* The deepest overlap the check foresees (docs/physics.md, "Choosing dt") against the closed
 * forms and the run: two spheres head on (head_on: a = 1 mm, 0.1 m/s each, so 0.2 m/s
 * between them, reduced mass m/2); then the clumps of bench/poly-clumps.txt, whose 0.05 mm
 * pebbles of glass cannot stop two raspberries (the run stops at step 86 at any dt). */
static void foreseen_overlap(void)
{
    char err[4096], out[16384], path[256];
    snprintf(path, sizeof path, "%s/head-on-overlap.txt", t_tmpdir());
    const double a = 1e-3, m = 2500 * 4.0 / 3.0 * PALA_PI * a * a * a, v = 0.2;
    /* Hertz (eqs. 55-57): k = (sqrt 3 / 2) E / (1 - sigma^2) sqrt(r~), r~ = H(a, a) = a; d_max = (5 m* v^2 / (4 k))^(2/5) */
    head_on(path, "poisson = 0.3", "");
    double o, seen = run_overlap(path, &o, err, sizeof err);
    double k = sqrt(3.0) / 2 * 1e7 / (1 - 0.09) * sqrt(a), want = pow(5 * (m / 2) * v * v / (4 * k), 0.4) / a;
    T_NEAR(o, want, 1e-12 * want, "Hertz head on: foreseen overlap over a = (5 m* v^2 / (4 k))^(2/5) / a");
    T_NEAR(seen, want, 0.01 * want, "Hertz head on: the run's deepest overlap over a, as foreseen");
    /* the linear spring (docs/physics.md, "The linear spring-dashpot"): 1/2 k_n d^2 = 1/2 m* v^2 */
    head_on(path, "normal_law = hooke\nnormal_stiffness = 50", "");
    seen = run_overlap(path, &o, err, sizeof err);
    want = v * sqrt(m / 2 / 50) / a;
    T_NEAR(o, want, 1e-12 * want, "linear spring head on: foreseen overlap over a = v sqrt(m* / k_n) / a");
    T_NEAR(seen, want, 0.01 * want, "linear spring head on: the run's deepest overlap over a, as foreseen");
    /* the raspberries of glass: warned before the run (no dt helps), and the run stops as foreseen */
    int rc = t_sh(out, sizeof out, "./pala run bench/poly-clumps.txt --set material.stiff.young=5e8 --quiet --force -o " DIR "/pc 2>&1");
    T_CHECK(rc == 2 && strstr(out, "warning: an impact at the largest speed foreseen") && strstr(out, "by 3.8 of its radius") &&
            strstr(out, "at any dt") && strstr(out, "runaway overlap"), "raspberries of glass: the overlap foreseen, then the run stops (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run bench/poly-clumps.txt --quiet --force -o " DIR "/pc 2>&1 && tail -n 1 " DIR "/pc/energy.tsv | cut -f 1");
    T_CHECK(rc == 0 && !strstr(out, "warning") && !strcmp(out, "200\n"), "raspberries of the stiff material: no warning, the run to its end (exit %d) %s", rc, out);
}

static void dt_check(void)
{
    char out[16384];
    /* refused before the first step: nothing of the run is written */
    int rc = t_sh(out, sizeof out, "rm -rf " DIR "/sb && ./pala run examples/settling-box.txt --set dt=1e-3 -o " DIR "/sb; test -e " DIR "/sb");
    T_CHECK(rc == 1 && strstr(out, "--set 'dt=1e-3': 'dt = 0.001' is surely unstable: the contact time t_c =") &&
            strstr(out, "give dt <= ") && strstr(out, "dt_check = warn"), "dt = 1e-3 on the settling box: refused with the contact time (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --set dt=1e-3 --set dt_check=warn --set steps=2 --quiet --force -o " DIR "/sb");
    T_CHECK(rc == 0 && strstr(out, "warning: 'dt = 0.001' is surely unstable"), "dt_check = warn: said, and run (exit %d) %s", rc, out);
    /* pala sweep refuses the combination that would go unstable: the ten grains' contact lasts 43 us */
    rc = t_sh(out, sizeof out, "rm -rf " DIR "/sw && ./pala sweep examples/paper-ten-grains.txt --vary dt=1e-6:1e-4:6:log -o " DIR "/sw; test -e " DIR "/sw");
    T_CHECK(rc == 1 && strstr(out, "is surely unstable") && strstr(out, "pala sweep: combination 5 of 6 is invalid: dt=3.98107e-05"),
            "pala sweep: the unstable combination refused, nothing created (exit %d) %s", rc, out);
    /* every example passes the check; its line is said before the run */
    rc = t_sh(out, sizeof out, "for f in examples/*.txt; do ./pala run $f --set steps=0 --force -o " DIR "/ex > " DIR "/ex.out 2>&1 || echo FAIL $f; "
              "grep '^dt check' " DIR "/ex.out; done");
    T_CHECK(rc == 0 && !strstr(out, "FAIL") && !strstr(out, "unstable"), "every example passes the dt check %s", out);
    T_CHECK(strstr(out, "dt check: 1e-05 s: contact ") && strstr(out, "steps), friction ") && strstr(out, "Rayleigh time"),
            "the line: dt against each time scale %s", out);
    /* the check in numbers: the ten grains' t_c, a tangential spring's period */
    char err[2048] = "";
    pala_scene *s = t_load_scene("examples/paper-ten-grains.txt", 0, NULL, err, sizeof err);
    pala_dt_report r;
    T_CHECK(s && pala_world_dt_check(pala_scene_world(s), &r) == PALA_OK && r.verdict == PALA_DT_OK, "ten grains: dt ok");
    /* docs/physics.md's worked example: t_c ~ 69 us against the cavity at 39 m/s (one
     * component, its mass); the check takes the clump's least effective mass and the fall from the top */
    T_CHECK(s && r.n >= 1 && !strcmp(r.scale[0].name, "contact") && r.scale[0].t > 30e-6 && r.scale[0].t < 70e-6 && r.v > 39 && r.v < 50,
            "ten grains: t_c %.3g s at %.3g m/s", r.scale[0].t, r.v);
    pala_scene_free(s);
    foreseen_overlap();
}

static void health(void)
{
    char out[16384];
    /* no false alarm at a small start energy: the magnetic brush starts at 2.5e-5 J and its
     * dissipation and the turning field's work are several times that; at dt = 1e-5 its
     * |dE_bal_rel| (relative to E_total(0)) reaches 0.014, 3.5e-7 J against the 1e-4 J that
     * flowed: no warning */
    int rc0 = t_sh(out, sizeof out, "./pala run examples/magnetic-brush.txt --set dt=1e-5 --set end_time=0.2 --quiet --force -o " DIR "/mb 2>&1 && "
                   "awk -F'\\t' 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i} NR == 2 {print $c[\"max_abs_dE_bal_rel\"], $c[\"warning\"]}' "
                   DIR "/mb/summary.tsv");
    double bal = 0;
    char warn[32] = "";
    sscanf(out, "%lf %31s", &bal, warn);
    T_CHECK(rc0 == 0 && bal > 0.01 && !strcmp(warn, "-") && !strstr(out, "warning:"),
            "magnetic brush: |dE_bal_rel| %.3g of E_total(0), small against the energy that flowed: no warning (exit %d) %s", bal, rc0, out);
    /* a pour: the drift in joules is dE_bal_rel times its denominator |E_total(0)| + E_in, and the
     * energy brought in and taken out flowed (docs/physics.md, "Choosing dt": the health of a run); the pour
     * example of beads of 25 kg/m^3 (E_in 1.9e-4 J) drifts by 8.5e-7 J at dt = 1e-5: no warning
     * (before session 16: the dimensionless dE_bal_rel 4.6e-3 read as joules, over E_diss alone,
     * 237 times what flowed); at dt = 2e-5 by 7.8e-6 J, 3.4 % of it: a warning in those joules */
    const char *pour = "./pala run examples/pour.txt --set material.glass.density=25 --set end_time=0.1 --set dt_check=warn --quiet --force -o " DIR "/pour";
    const char *joules = "printf 'J=' && awk -F'\\t' 'NR == 1 {for (i = 1; i <= NF; i++) c[$i] = i; next} {d = $c[\"dE_bal_rel\"] * $c[\"E_in\"]; "
                         "if (d < 0) d = -d; if (d > m) m = d} END {print m}' " DIR "/pour/energy.tsv";
    rc0 = t_sh(out, sizeof out, "%s --set dt=1e-5 2>&1 && %s", pour, joules);
    double j = strstr(out, "J=") ? atof(strstr(out, "J=") + 2) : 0;
    T_CHECK(rc0 == 0 && !strstr(out, "warning") && j > 5e-7 && j < 1.5e-6, "pour at dt = 1e-5: drift %.3g J, small against E_in: no warning (exit %d) %s", j, rc0, out);
    rc0 = t_sh(out, sizeof out, "%s --set dt=2e-5 2>&1 && %s", pour, joules);
    const char *said = strstr(out, "drifted by up to ");
    double jw = said ? atof(said + strlen("drifted by up to ")) : 0, jr = strstr(out, "J=") ? atof(strstr(out, "J=") + 2) : 0;
    T_CHECK(rc0 == 0 && said && strstr(out, "E_in, E_out; warning above") && fabs(jw - jr) <= 0.01 * jr && jr > 5e-6,
            "pour at dt = 2e-5: warned, the drift in joules %.3g as energy.tsv's largest |dE_bal_rel| E_in %.3g (exit %d) %s", jw, jr, rc0, out);
    /* a real imbalance, dt ten times too large with the regularised friction: the advice is the
     * friction's (slip_velocity); the run's folder is named, --quiet too */
    int rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --set dt=1e-4 --set dt_check=warn --set end_time=0.2 --quiet --force -o " DIR "/imb 2>&1");
    T_CHECK(rc == 0 && strstr(out, "pala: warning: " DIR "/imb: the energy balance") && strstr(out, "slip_velocity") &&
            strstr(out, "that flowed through the run"), "dt 10x too large, friction: warned, advice of slip_velocity, the folder named (exit %d) %s", rc, out);
    /* the same with the spring law: its advice is the spring's period, never slip_velocity */
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --set dt=1e-4 --set dt_check=warn --set end_time=0.2 --set tangential_law=spring "
              "--set material.sand.tangential_stiffness=2e4 --set material.wall.tangential_stiffness=2e4 --quiet --force -o " DIR "/imb2 2>&1");
    T_CHECK(rc == 0 && strstr(out, "pala: warning: " DIR "/imb2:") && strstr(out, "tangential spring's period") && !strstr(out, "slip_velocity"),
            "dt 10x too large, spring law: the spring's advice, not slip_velocity (exit %d) %s", rc, out);
}

/* The small things: plot -o and snapshot -o make new folders; resume --info prints t as
 * energy.tsv does; a resumed run's summary.tsv keeps the scene as the run named it, so pala
 * collect shows no scene column; collect prints a time set to 0.4 as 0.4. */
static void small_things(void)
{
    char out[16384];
    int rc = t_sh(out, sizeof out, "rm -rf " DIR "/sm && ./pala run examples/paper-ten-grains.txt --set end_time=0.0004 --quiet -o " DIR "/sm/a && "
                  "./pala run examples/paper-ten-grains.txt --set end_time=0.0002 --quiet -o " DIR "/sm/b && "
                  "./pala resume " DIR "/sm/b --set end_time=0.0004 --quiet && "
                  "./pala plot " DIR "/sm/a -o " DIR "/sm/new/plots > /dev/null && test -e " DIR "/sm/new/plots/energy.svg && "
                  "./pala snapshot " DIR "/sm/a -o " DIR "/sm/new2/pic/f.svg > /dev/null && test -e " DIR "/sm/new2/pic/f.svg && "
                  "./pala resume " DIR "/sm/b --info && ./pala collect " DIR "/sm/a " DIR "/sm/b");
    T_CHECK(rc == 0, "plot -o, snapshot -o into new folders; resume; collect (exit %d) %s", rc, out);
    T_CHECK(strstr(out, "run\tstatus") && !strstr(out, "\tscene"), "collect: no scene column after a resume %s", out);
    char t[64] = "";
    t_sh(t, sizeof t, "tail -n 1 " DIR "/sm/b/energy.tsv | cut -f 2");
    char want[96];
    snprintf(want, sizeof want, "t = %.*s s,", (int)strcspn(t, "\n|"), t);
    T_CHECK(t[0] && strstr(out, want), "resume --info: t as energy.tsv's last row writes it (%s) %s", want, out);
    /* a time the user set to 0.4: 17 digits in summary.tsv, 0.4 in the table */
    rc = t_sh(out, sizeof out, "mkdir -p " DIR "/sm/c && cp " DIR "/sm/a/summary.tsv " DIR "/sm/c/ && "
              "awk -F'\\t' -v OFS='\\t' 'NR == 2 {for (i = 1; i <= NF; i++) if ($i == \"0.00039999999999999996\") $i = \"0.40000000000000002\"} {print}' "
              DIR "/sm/a/summary.tsv > " DIR "/sm/c/summary.tsv && ./pala collect " DIR "/sm/a " DIR "/sm/c");
    T_CHECK(rc == 0 && strstr(out, "\t0.4\t") && !strstr(out, "0.40000000000000002"), "collect: 0.40000000000000002 printed as 0.4 %s", out);
}

void test_firstday(void)
{
    t_sh(NULL, 0, "mkdir -p " DIR);
    traps();
    dt_check();
    health();
    small_things();
}

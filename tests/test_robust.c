/* test_robust.c: the hostile inputs of issue 15, one regression test each.  Every one
 * must end quickly (the shell's `timeout 1` turns a hang into exit 124, a failed check)
 * with exit 1 and a message that names the place and the cause: huge counts, lattice and
 * random placement without room, a huge dt, variants beyond the grains, LAMMPS data files
 * with bad numbers, control files with a byte-order mark, NUL bytes, a folder, misspelt
 * sections, over-long --set values. */
#include "t.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_robust(void);

#define D "build/tmp/robust"

static const char *base =
    "dt = 1e-5\nsteps = 10\ngravity = 0 0 -9.81\nbox = 0 1 0 1 0 1\nwall_material = m\n"
    "[material m]\ndensity = 1000\nyoung = 1e7\n"
    "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.01\n";

/* Writes base + extra to D/name.txt, runs it (with args), expects exit want within 1 s and
 * every NULL-terminated needle in the output. */
static void expect(const char *name, const char *extra, const char *args, int want, const char *const *needles)
{
    char path[256], text[4096], out[8192];
    snprintf(path, sizeof path, D "/%s.txt", name);
    snprintf(text, sizeof text, "%s%s", base, extra);
    t_write(path, text);
    int rc = t_sh(out, sizeof out, "timeout 1 ./pala run %s -o " D "/%s.run --force --quiet %s", path, name, args ? args : "");
    int ok = rc == want;
    for (int i = 0; needles && needles[i]; i++) ok &= strstr(out, needles[i]) != NULL;
    T_CHECK(ok, "%s: exit %d (want %d) within 1 s, message %s", name, rc, want, out);
}
#define N(...) ((const char *const[]){__VA_ARGS__, NULL})

static void placement(void)
{
    /* count = 2e9, the documented maximum: refused before any allocation (it looped) */
    expect("count2e9", "[group a]\ngrain = g\ncount = 2e9\n", NULL, 1, N("count2e9.txt:15:", "at most 268435456"));
    expect("count5e8", "[group a]\ngrain = g\ncount = 5e8\n", NULL, 1, N("count5e8.txt:15:", "lower count"));
    /* the memory estimate against max_memory (1e7 grains need more than 100 MB) */
    expect("memory", "[group a]\ngrain = g\ncount = 1e7\n", "--set max_memory=1e8", 1, N("memory.txt:", "of max_memory", "raise max_memory"));
    /* lattice: a region outside the container; a grain wider than half the box (both looped) */
    expect("lattice_outside", "[group a]\ngrain = g\ncount = 10\nplacement = lattice\nregion = box\nregion_box = 2 3 2 3 2 3\n", NULL, 1,
           N("lattice_outside.txt:15:", "no room for one grain"));
    expect("lattice_wide", "[group a]\ngrain = g\ncount = 1\nplacement = lattice\n", "--set grain.g.radius=0.6", 1, N("no room for one grain", "0.6"));
    expect("lattice_sites", "[group a]\ngrain = g\ncount = 200000\nplacement = lattice\n", NULL, 1, N("lattice_sites.txt:15:", "sites"));
    expect("random_wide", "[group a]\ngrain = g\ncount = 1\n", "--set grain.g.radius=0.6", 1, N("no room for one grain"));
    expect("random_full", "[group a]\ngrain = g\ncount = 2000000\n", NULL, 1, N("random_full.txt:15:", "random packing"));
    /* variants = 1e9 for 2 grains: capped by the grains (it built 1e9 shapes) */
    expect("variants", "[grain r]\nmaterial = m\nshape = random\ncomponent_radius = 0.01 0.02\nvariants = 1000000000\n"
           "[group a]\ngrain = r\ncount = 2\n", NULL, 0, NULL);
    /* pala sweep validated the same file by building it: it hung too */
    char sw[8192];
    int src = t_sh(sw, sizeof sw, "timeout 1 ./pala sweep " D "/lattice_outside.txt --vary dt=1e-5,2e-5 -o " D "/sweep --force");
    T_CHECK(src == 1 && strstr(sw, "no room for one grain"), "pala sweep of the lattice outside the container: exit %d within 1 s %s", src, sw);
    /* dt = 1e25 past the check of dt (dt_check = warn): unstable (exit 2) with the advice to
     * reduce dt, not "a smaller dt will not fix that" */
    char out[8192];
    t_write(D "/dt.txt", "dt = 1e25\ndt_check = warn\nsteps = 10\ngravity = 0 0 -9.81\nbox = 0 1 0 1 0 1\nwall_material = m\n"
            "[material m]\ndensity = 1000\nyoung = 1e7\n[grain g]\nmaterial = m\nshape = sphere\nradius = 0.01\n"
            "[group a]\ngrain = g\ncount = 2\n");
    int rc = t_sh(out, sizeof out, "timeout 1 ./pala run " D "/dt.txt -o " D "/dt.run --force --quiet");
    T_CHECK(rc == 2 && strstr(out, "reduce dt") && !strstr(out, "will not fix"), "dt = 1e25: exit %d, advice to reduce dt %s", rc, out);
    /* no grains out of any sane range reach the neighbour search: a free fall with a huge
     * dt and no walls is caught as unstable */
    t_write(D "/far.txt", "dt = 1e20\ndt_check = warn\nsteps = 10\ngravity = 0 0 -9.81\ncontainer = none\n"
            "[material m]\ndensity = 1000\nyoung = 1e7\n[grain g]\nmaterial = m\nshape = sphere\nradius = 0.01\n"
            "[group a]\ngrain = g\nplacement = list\nat = 0 0 0 0 0 1\nat = 0.5 0 0 0 0 -1\n");
    rc = t_sh(out, sizeof out, "timeout 1 ./pala run " D "/far.txt -o " D "/far.run --force --quiet");
    T_CHECK(rc == 2 && strstr(out, "sane range") && strstr(out, "reduce dt"), "free fall with dt = 1e20: exit %d %s", rc, out);
}

/* A LAMMPS data file D/name.data with the atoms given; the scene imports it. */
static void lammps(const char *name, const char *header, const char *atoms, const char *needle)
{
    char path[256], text[4096], out[8192], scene[256];
    snprintf(path, sizeof path, D "/%s.data", name);
    snprintf(text, sizeof text, "LAMMPS data\n\n%s\n1 atom types\n0 1 xlo xhi\n0 1 ylo yhi\n0 1 zlo zhi\n\nAtoms # sphere\n\n%s", header, atoms);
    t_write(path, text);
    snprintf(scene, sizeof scene, D "/%s.txt", name);
    snprintf(text, sizeof text, "dt = 1e-5\nsteps = 10\nlammps_data = %s.data\nlammps_material = m\nwall_material = m\n"
             "[material m]\ndensity = 1000\nyoung = 1e7\n", name);
    t_write(scene, text);
    int rc = t_sh(out, sizeof out, "timeout 1 ./pala run %s -o " D "/%s.run --force --quiet", scene, name);
    T_CHECK(rc == 1 && strstr(out, needle), "LAMMPS %s: exit %d, message with '%s': %s", name, rc, needle, out);
}

static void lammps_files(void)
{
    lammps("nan_density", "2 atoms", "1 1 0.02 nan 0.5 0.5 0.5\n2 1 0.02 1000 0.2 0.2 0.2\n", "nan_density.data:11: atom 1 has density nan");
    lammps("nan_coord", "2 atoms", "1 1 0.02 1000 0.5 nan 0.5\n2 1 0.02 1000 0.2 0.2 0.2\n", "nan_coord.data:11: atom 1 has coordinates");
    lammps("outside", "2 atoms", "1 1 0.02 1000 0.5 0.5 0.5\n2 1 0.02 1000 0.2 7 0.2\n", "outside.data:12: atom 2 at y = 7 lies outside the box");
    lammps("minus", "-1 atoms", "1 1 0.02 1000 0.5 0.5 0.5\n", "minus.data:3: '-1 atoms'");
    lammps("badbox", "1 atoms\n1 0 xlo xhi", "1 1 0.02 1000 0.5 0.5 0.5\n", "badbox.data:4:");
    lammps("count", "3 atoms", "1 1 0.02 1000 0.5 0.5 0.5\n", "the header says 3 atoms");
}

/* A control file of raw bytes. */
static void control(const char *name, const char *bytes, size_t n, const char *needle, int want)
{
    char path[256], out[8192];
    snprintf(path, sizeof path, D "/%s.txt", name);
    FILE *f = fopen(path, "wb");
    if (f) { fwrite(bytes, 1, n, f); fclose(f); }
    int rc = t_sh(out, sizeof out, "timeout 1 ./pala run %s -o " D "/%s.run --force --quiet", path, name);
    T_CHECK(rc == want && strstr(out, needle), "control file %s: exit %d (want %d), message with '%s': %s", name, rc, want, needle, out);
}

static void control_files(void)
{
    char text[4096];
    /* a byte-order mark is skipped: the scene runs */
    int n = snprintf(text, sizeof text, "\xef\xbb\xbf%s[group a]\ngrain = g\ncount = 2\n", base);
    control("bom", text, (size_t)n, "", 0);
    control("nul", "dt = 1e-5\nsteps\0 = 10\n", 22, "nul.txt:2: a NUL byte", 1);
    control("binary", "\x7f" "ELF\x02\x01\x01\0\0\0", 10, "binary file", 1);
    char out[8192];
    int rc = t_sh(out, sizeof out, "mkdir -p " D "/folder.txt && timeout 1 ./pala run " D "/folder.txt -o " D "/folder.run --quiet");
    T_CHECK(rc == 1 && strstr(out, "is a folder"), "a folder as the scene: exit %d %s", rc, out);
    /* [materail wall]: one error with a suggestion, no follow-on 'set twice' */
    n = snprintf(text, sizeof text, "%s[materail wall]\ndensity = 1000\nyoung = 1e7\npoisson = 0.3\ndelta = 1\nfriction = 0\n"
                 "[group a]\ngrain = g\ncount = 2\n", base);
    control("section", text, (size_t)n, "did you mean [material wall]", 1);
    rc = t_sh(out, sizeof out, "./pala run " D "/section.txt -o " D "/section.run --force --quiet 2>&1 | wc -l");
    T_CHECK(rc == 0 && !strcmp(out, "1\n"), "[materail wall]: one line of error (%s)", out);
    /* a --set value longer than 1023 characters is refused, not truncated */
    char set[1200];
    memset(set, '1', sizeof set);
    memcpy(set, "dt=", 3);
    set[sizeof set - 1] = 0;
    rc = t_sh(out, sizeof out, "timeout 1 ./pala run " D "/bom.txt -o " D "/long.run --force --quiet --set %s", set);
    T_CHECK(rc == 1 && strstr(out, "longer than 1023"), "an over-long --set value: exit %d", rc);
}

/* The fuzz targets (tests/fuzz/fuzz.c, docs/fuzzing.md), built with the normal compiler,
 * on the seed corpus and on the inputs above: no crash, within 1 s each. */
static void replay(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "timeout 20 build/fuzz/replay-control tests/fuzz/control/* " D "/*.txt");
    T_CHECK(rc == 0, "fuzz target control on its corpus and the regression inputs: exit %d %s", rc, out);
    rc = t_sh(out, sizeof out, "timeout 20 build/fuzz/replay-lammps tests/fuzz/lammps/* " D "/*.data");
    T_CHECK(rc == 0, "fuzz target lammps on its corpus and the regression inputs: exit %d %s", rc, out);
    /* the readers of a run folder (issue 29): checkpoint, trajectory, TSV tables; and a scene
     * that starts from a frame of a run (start_time) or from its checkpoint alone */
    const char *cli[5] = {"checkpoint", "traj", "tsv", "start", "startck"};
    for (int i = 0; i < 5; i++) {
        rc = t_sh(out, sizeof out, "timeout 20 build/fuzz/replay-%s tests/fuzz/%s/*", cli[i], cli[i]);
        T_CHECK(rc == 0, "fuzz target %s on its corpus: exit %d %s", cli[i], rc, out);
    }
    /* the checkpoint target's genuine seeds (runs of tests/fuzz/ckpt-scene.txt and
     * start-flow.txt) are still applied by a scene and step: a seed that the scene refuses
     * (written by an older pala) fuzzes only the refusal, as the first seed did until session 26 */
    rc = t_sh(out, sizeof out, "FUZZ_VERBOSE=1 timeout 20 build/fuzz/replay-checkpoint tests/fuzz/checkpoint/ckpt-scene.payload "
              "tests/fuzz/checkpoint/flow.payload 2>&1 | grep -c 'two steps: 0'");
    T_CHECK(rc == 0 && atoi(out) == 2, "the checkpoint target's two seeds are applied and step: %d of 2 (if not: make them again, "
            "tests/fuzz/fuzz.c says how)", atoi(out));
    /* the start target's genuine seeds (v1, v2: text and binary) still start both scenes and
     * step: its checkpoints (tests/fuzz/start-v*.ckpt) are of this pala's format */
    rc = t_sh(out, sizeof out, "FUZZ_VERBOSE=1 timeout 20 build/fuzz/replay-start tests/fuzz/start/v[12].* 2>&1 | grep -c 'two steps: 0,'");
    T_CHECK(rc == 0 && atoi(out) == 8, "the start target's four seeds start its two scenes and take two steps: %d of 8 (if 0: make its "
            "checkpoints again, tests/fuzz/fuzz.c says how)", atoi(out));
}

void test_robust(void)
{
    t_sh(NULL, 0, "mkdir -p " D);
    placement();
    lammps_files();
    control_files();
    replay();
}

/* test_scene.c: the control-file reader and `pala run` as a user meets them: bad input
 * gets FILE:LINE: messages and exit 1; results are never overwritten silently; an
 * unstable run stops with exit 2 and its logs; overrides land in control.txt. */
#include "t.h"
#include "keys.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_scene(void);

static const char *base =
    "dt = 1e-5\nsteps = 20\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\n"
    "[material m]\ndensity = 1000\nyoung = 1e7\n"
    "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.005\n"
    "[group g]\ngrain = ball\ncount = 5\n";

/* Write base with `from` replaced by `to`, run it, expect exit 1 and `file:LINE:` + msg. */
static void bad(const char *name, const char *from, const char *to, int line, const char *msg)
{
    char text[2048], path[256], out[4096], want[300];
    const char *p = strstr(base, from);
    if (!p) { T_CHECK(0, "%s: test setup", name); return; }
    snprintf(text, sizeof text, "%.*s%s%s", (int)(p - base), base, to, p + strlen(from));
    snprintf(path, sizeof path, "%s/%s.txt", t_tmpdir(), name);
    t_write(path, text);
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/%s.run --quiet", path, t_tmpdir(), name);
    snprintf(want, sizeof want, "%s:%d: ", path, line);
    T_CHECK(rc == 1 && strstr(out, want) && strstr(out, msg), "bad input '%s': exit %d, message: %.200s", name, rc, out);
}

void test_scene(void)
{
    char out[8192], path[256];
    bad("unknown-key", "young = 1e7\n", "young = 1e7\nfrction = 0.3\n", 9, "did you mean 'friction'");
    bad("missing-value", "dt = 1e-5\n", "dt =\n", 1, "missing value for 'dt'");
    bad("negative-radius", "radius = 0.005", "radius = -0.005", 12, "must be positive");
    /* keys whose 0 would read as not given (.unset, a default), refused at 0 all the same */
    bad("size-range-0", "radius = 0.005", "size_distribution = uniform\nsize_range = 0 0.005", 13, "'size_range = 0 0.005': a uniform law needs a least size > 0 (m)");
    bad("size-sigma-11", "radius = 0.005", "size_distribution = lognormal\nsize_median = 0.003\nsize_sigma = 11", 14,
        "'size_sigma = 11': must be above 0 and at most 10 (-)");
    bad("too-many", "count = 5", "count = 50000", 15, "lower count");
    bad("bad-number", "density = 1000", "density = 1e3x", 7, "expected a number");
    bad("unknown-name", "material = m\nshape", "material = steel\nshape", 10, "no [material steel] section");
    /* the membrane's keys (line 6: membrane_axis, then its four keys on lines 7-10) */
    const char *mem = "wall_material = m\nmembrane_axis = x\nmembrane_position = 0.05\nmembrane_bar_radius = 0.001\n"
                      "membrane_spacing = 0.01\nmembrane_material = m\n";
    char to[512];
    snprintf(to, sizeof to, "container = cavity\ncavity_radius = 0.1\nbox = 0 0.1 0 0.1 0 0.1\n%s", mem);
    bad("membrane-cavity", "container = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\n", to, 7, "needs container = box");
    bad("membrane-outside", "wall_material = m\n", "wall_material = m\nmembrane_axis = y\nmembrane_position = 0.2\n"
        "membrane_bar_radius = 0.001\nmembrane_spacing = 0.01\nmembrane_material = m\n", 7, "strictly inside the box along y");
    bad("membrane-spacing", "wall_material = m\n", "wall_material = m\nmembrane_axis = z\nmembrane_position = 0.05\n"
        "membrane_bar_radius = 0.001\nmembrane_spacing = 0.03\nmembrane_material = m\n", 9, "whole number of spacings");
    bad("membrane-closed", "wall_material = m\n", "wall_material = m\nmembrane_axis = x\nmembrane_position = 0.05\n"
        "membrane_bar_radius = 0.006\nmembrane_spacing = 0.01\nmembrane_material = m\n", 9, "must exceed twice membrane_bar_radius");
    bad("membrane-2d-z", "dt = 1e-5\n", "dt = 1e-5\ndimension = 2\nmembrane_axis = z\nmembrane_position = 0.05\nmembrane_bar_radius = 0.001\n"
        "membrane_spacing = 0.01\nmembrane_material = m\n", 3, "in 2D the membrane");

    /* line ends: LF, CR LF and CR alone (old Mac files were read as one line) give the same run;
     * an error in a CR file names its line */
    {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "cd %s && printf '%%s' '%s' > le.txt && sed 's/$/\r/' le.txt > le-crlf.txt && tr '\n' '\r' < le.txt > le-cr.txt && "
                 "for f in le le-crlf le-cr; do ../../pala run $f.txt -o $f.run --force --quiet || exit 1; done && "
                 "cmp le.run/trajectory.txt le-crlf.run/trajectory.txt && cmp le.run/trajectory.txt le-cr.run/trajectory.txt && "
                 "sed 's/^density = 1000/density = 1e3x/' le.txt | tr '\n' '\r' > le-bad.txt; ../../pala run le-bad.txt -o le-bad.run --force --quiet; "
                 "sed 's/^density = 1000/density = 1e3x/; s/$/\r\r/' le.txt > le-bad2.txt; ../../pala run le-bad2.txt -o le-bad.run --force --quiet",
                 t_tmpdir(), base);
        int rc = t_sh(out, sizeof out, "%s", cmd);
        T_CHECK(rc == 1 && strstr(out, "le-bad.txt:7: ") && strstr(out, "le-bad2.txt:7: ") && strstr(out, "expected a number"),
                "LF, CR LF and CR files run alike; the error of a CR file and of a CR CR LF file names its line (exit %d): %s", rc, out);
    }

    /* not text: a byte-order mark inside the file, Latin-1 bytes outside a comment (a comment may hold them) */
    {
        int rc = t_sh(out, sizeof out, "cd %s && printf 'seed = 3\\n# caf\\351\\n\\357\\273\\277seed = 4\\n' > notext.txt && ../../pala run notext.txt --quiet; "
                      "printf 'dt = 1e-5\\n[material gl\\344ss]\\n' > latin1.txt && ../../pala run latin1.txt --quiet", t_tmpdir());
        T_CHECK(rc == 1 && strstr(out, "notext.txt:3: a byte-order mark (U+FEFF) at column 1, inside the file") &&
                strstr(out, "latin1.txt:2: bytes that are not UTF-8 text at column 13"), "a second byte-order mark and Latin-1 bytes: refused at line and column: %s", out);
    }

    /* a good run, then the same folder again: refused without --force, files kept */
    snprintf(path, sizeof path, "%s/good.txt", t_tmpdir());
    t_write(path, base);
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s/good.run --quiet", path, t_tmpdir());
    T_CHECK(rc == 0, "good scene runs: exit %d %.200s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/good.run --quiet", path, t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "--force"), "existing results are not overwritten without --force: exit %d, %.200s", rc, out);
    rc = t_sh(out, sizeof out, "test $(wc -l < %s/good.run/energy.tsv) -eq 4", t_tmpdir());
    T_CHECK(rc == 0, "refused run left energy.tsv intact (header + 3 rows)");
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/good.run --quiet --force", path, t_tmpdir());
    T_CHECK(rc == 0, "--force overwrites");

    /* override: recorded in control.txt, and the folder alone reruns the same run */
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/ovr.run --quiet --set dt=5e-6 --set material.m.friction=0.2 && "
              "grep -q '^dt = 5e-6 .*--set' %s/ovr.run/control.txt && grep -q '^friction = 0.2 .*--set' %s/ovr.run/control.txt && "
              "./pala run %s/ovr.run/control.txt -o %s/ovr2.run --quiet && cmp %s/ovr.run/energy.tsv %s/ovr2.run/energy.tsv && "
              "cmp %s/ovr.run/trajectory.txt %s/ovr2.run/trajectory.txt",
              path, t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "overrides shown in control.txt; rerunning control.txt gives identical energy.tsv and trajectory %.300s", out);
    /* restitution instead of delta: control.txt does not add delta's default beside it
     * (which the rerun refused: "give either 'delta' or 'restitution'"), nor does summary.tsv */
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/rst.run --quiet --set material.m.restitution=0.7 && "
              "grep -q '^restitution = 0.7 .*--set' %s/rst.run/control.txt && ! grep -q '^delta' %s/rst.run/control.txt && "
              "! grep -q 'material.m.delta' %s/rst.run/summary.tsv && "
              "./pala run %s/rst.run/control.txt -o %s/rst2.run --quiet && cmp %s/rst.run/energy.tsv %s/rst2.run/energy.tsv",
              path, t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "restitution given: control.txt holds no default delta beside it, and reruns the same run %.300s", out);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/ovr3.run --quiet --set material.m.friction=abc", path, t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "--set 'material.m.friction=abc': ") && strstr(out, "expected a number"), "bad override: exit %d, %.200s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/ovr4.run --quiet --set frictoin=0.1", path, t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "unknown key"), "override of an unknown key: exit %d, %.200s", rc, out);
    /* the run length: --set end_time on a file with steps replaces steps (and the other
     * way round); both as overrides is an error that names the override */
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/len.run --quiet --force --set end_time=1e-4 --set energy_every=1 && "
              "grep -q '^end_time = 1e-4 .*--set' %s/len.run/control.txt && ! grep -q '^steps' %s/len.run/control.txt && "
              "test $(grep -vc '^#' %s/len.run/energy.tsv) -eq 12",
              path, t_tmpdir(), t_tmpdir(), t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "--set end_time=1e-4 on a file with steps = 20: 10 steps, control.txt holds only end_time (exit %d) %.200s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/len2.run --quiet --set end_time=1e-4 --set steps=5", path, t_tmpdir());
    T_CHECK(rc == 1 && strstr(out, "--set '") && strstr(out, "not both") && strstr(out, "drop one"),
            "--set end_time and --set steps together: exit %d, %.200s", rc, out);

    /* unstable: a time step far too large (past the check of dt, dt_check = warn) stops the
     * run with exit 2 and flushed logs */
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/unstable.run --set dt=1e-3 --set dt_check=warn --set steps=100000 "
              "--set group.g.velocity='0 0 -5' --set gravity='0 0 -9.81'", path, t_tmpdir());
    T_CHECK(rc == 2 && strstr(out, "reduce dt"), "unstable run: exit %d and names dt: %.300s", rc, out);
    rc = t_sh(out, sizeof out, "test $(wc -l < %s/unstable.run/energy.tsv) -ge 2 && grep -q unstable %s/unstable.run/summary.tsv", t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "unstable run kept its energy log and summary");
    /* the state an unstable run reports does not depend on how often it is written (steps
     * between outputs are chained, and a chained step has started the next one) */
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/unstable2.run --set dt=1e-3 --set dt_check=warn --set steps=100000 --set energy_every=1 "
              "--set trajectory_every=1 --set group.g.velocity='0 0 -5' --set gravity='0 0 -9.81'; "
              "cd %s && test \"$(tail -n 1 unstable.run/energy.tsv)\" = \"$(tail -n 1 unstable2.run/energy.tsv)\" && "
              "awk '/^frame/ {n = 0} {f[n++] = $0} END {for (i = 0; i < n; i++) print f[i]}' unstable.run/trajectory.txt > last1.txt && "
              "awk '/^frame/ {n = 0} {f[n++] = $0} END {for (i = 0; i < n; i++) print f[i]}' unstable2.run/trajectory.txt > last2.txt && "
              "cmp -s last1.txt last2.txt",
              path, t_tmpdir(), t_tmpdir());
    T_CHECK(rc == 0, "unstable run: the last energy row and frame are the same written every step or only at the end (%d)", rc);

    /* list placement: grains that start inside each other fail at the first step with a
     * hint at the initial state; a grain deep in a wall is refused at its own 'at' line;
     * touching a wall is fine, also for a long grain lying flat on the floor */
    static const char *list =
        "dt = 1e-5\nsteps = 20\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\n"
        "[material m]\ndensity = 1000\nyoung = 1e7\n"
        "[grain ball]\nmaterial = m\nshape = sphere\nradius = 0.005\n"
        "[grain rod]\nmaterial = m\nshape = spheres\nsphere = -0.02 0 0 0.004\nsphere = 0 0 0 0.004\nsphere = 0.02 0 0 0.004\n"
        "[group g]\ngrain = ball\nplacement = list\nat = 0.05 0.05 0.05\nat = 0.070 0.05 0.05\nat = 0.02 0.02 0.005\n"   /* lines 22-24 */
        "[group r]\ngrain = rod\nplacement = list\norientation = as_written\nat = 0.05 0.08 0.004\n";
    char text[2048];
    snprintf(path, sizeof path, "%s/list.txt", t_tmpdir());
    t_write(path, list);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/list.run --quiet --force", path, t_tmpdir());
    T_CHECK(rc == 0, "listed grains resting exactly on a wall are accepted: exit %d %.300s", rc, out);
    snprintf(text, sizeof text, "%s", list);
    memcpy(strstr(text, "at = 0.070"), "at = 0.051", 10);
    snprintf(path, sizeof path, "%s/list-overlap.txt", t_tmpdir());
    t_write(path, text);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/list-overlap.run --quiet --force", path, t_tmpdir());
    T_CHECK(rc == 2 && strstr(out, "first step") && strstr(out, "initial state") && strstr(out, "'at' lines"),
            "listed grains overlapping at the start: exit %d, the message points at the initial state: %.400s", rc, out);
    snprintf(text, sizeof text, "%s", list);
    memcpy(strstr(text, "0.02 0.02 0.005"), "0.02 0.02 0.002", 15);
    snprintf(path, sizeof path, "%s/list-wall.txt", t_tmpdir());
    t_write(path, text);
    rc = t_sh(out, sizeof out, "./pala run %s -o %s/list-wall.run --quiet --force", path, t_tmpdir());
    snprintf(text, sizeof text, "%s:24: [group g]: grain 3 at (0.02, 0.02, 0.002)", path);
    T_CHECK(rc == 1 && strstr(out, text) && strstr(out, "into the box wall"),
            "a listed grain 0.6 radii deep in the floor is refused at its 'at' line: exit %d, %.300s", rc, out);

    /* docs/control-file.md has a table row for every key of the key table (src/lib/keys.c) */
    FILE *f = fopen("docs/control-file.md", "r");
    char *doc = NULL;
    long len = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 && (doc = malloc((size_t)len + 1))) {
        len = (long)fread(doc, 1, (size_t)len, f);
        doc[len] = 0;
    }
    if (f) fclose(f);
    T_CHECK(doc != NULL, "read docs/control-file.md");
    if (doc) {
        char row[80], missing[512] = "";
        int nk = 0;
        for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k), nk++) {
            snprintf(row, sizeof row, "\n| `%s` |", k->name);
            if (!strstr(doc, row) && strlen(missing) + strlen(k->name) + 2 < sizeof missing) strcat(strcat(missing, " "), k->name);
        }
        T_CHECK(missing[0] == 0, "docs/control-file.md has a table row for each of the %d keys (src/lib/keys.c, the wall kinds') (missing:%s)", nk,
                missing);
        free(doc);
    }

    /* help */
    rc = t_sh(out, sizeof out, "./pala help friction");
    T_CHECK(rc == 0 && strstr(out, "default: 0") && strstr(out, "range: 0 to inf") && strstr(out, "[pair]"),
            "pala help KEY shows unit, default and range, for each section the key is in");
    rc = t_sh(out, sizeof out, "./pala help draw_size; ./pala help dt");
    T_CHECK(rc == 0 && strstr(out, "draw_size") && strstr(out, "range: above 0 to inf") && !strstr(out, "range: 0 to inf"),
            "pala help says 'above 0' for keys that refuse 0 (draw_size: a default; dt: none): %s", out);
}

/* test_hostile.c: the findings of issue 29 (hostile folders and big sweeps), one regression
 * test each; every command under test runs within `timeout 1` (a hang is exit 124), those
 * of the sizes users reach within `timeout 5` (they took 10 s to minutes before): the plot
 * of times a few ulps apart, the snapshot of infinite speeds, checkpoints with row counts,
 * wall tables and wall ids out of range, `pala order` into a run's folder, `view --max-mb
 * 1e-300`, end_time past any step count, grain sizes out of double precision, collect,
 * check, view and the scene settings at sizes users reach, a run folder deleted during the
 * run, names that are not UTF-8, a resume in a read-only folder, and the run folder as one
 * process's own (a lock, no link followed, no foreign folder used, --force deleting only
 * pala's files).  bench/hostile.sh repeats the concurrency and symlink trials 50 times
 * and times the sizes of the issue. */
#define _DEFAULT_SOURCE
#include "t.h"
#include "pala/pala.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_hostile(void);

#define D "build/tmp/hostile"
#define SCENE "examples/paper-ten-grains.txt"

/* the command's exit, and each NULL-terminated needle in its output */
static int run(char *out, size_t n, const char *cmd)
{
    return t_sh(out, n, "%s", cmd);
}
static int has(const char *out, const char *const *needles)
{
    int ok = 1;
    for (int i = 0; needles && needles[i]; i++) ok &= strstr(out, needles[i]) != NULL;
    return ok;
}
#define N(...) ((const char *const[]){__VA_ARGS__, NULL})

static char out[1 << 16];

/* a finished short run of the paper's example in D/name */
static void short_run(const char *name, const char *sets)
{
    t_sh(NULL, 0, "rm -rf " D "/%s && ./pala run " SCENE " -o " D "/%s --quiet --set end_time=0.0004 %s", name, name, sets ? sets : "");
}

static void plots_and_pictures(void)
{
    /* times 1e20 and the next double (16384 apart): the grid's step did not move the time */
    t_sh(NULL, 0, "mkdir -p " D "/ulps && printf 'step\\ttime\\tE_total\\tdE_rel\\tdE_bal_rel\\tcontacts\\n0\\t1e20\\t1\\t0\\t0\\t0\\n"
                  "1\\t100000000000000016384\\t1\\t0\\t0\\t0\\n' > " D "/ulps/energy.tsv");
    int rc = run(out, sizeof out, "timeout 1 ./pala plot " D "/ulps > /dev/null && test $(wc -c < " D "/ulps/energy.svg) -lt 100000");
    T_CHECK(rc == 0, "plot of times a few ulps apart at 1e20: ends at once, small SVG (exit %d) %s", rc, out);

    /* the last frame of an unstable run: infinite velocities, wire frames by speed */
    short_run("inf", NULL);
    t_sh(NULL, 0, "awk '/^frame/{f++} f>=1 && !/^frame/{$4=\"inf\"; $5=\"-inf\"} {print}' " D "/inf/trajectory.txt > " D "/inf/t && mv " D "/inf/t " D "/inf/trajectory.txt");
    rc = run(out, sizeof out, "timeout 1 ./pala snapshot " D "/inf --style wire --colour speed && timeout 1 ./pala snapshot " D "/inf --colour speed");
    T_CHECK(rc == 0, "snapshot --colour speed of infinite speeds: no crash (exit %d) %s", rc, out);

    /* names that are not UTF-8 (a byte 0xff, a control character): SVG every parser opens */
    t_sh(NULL, 0, "mkdir -p " D "/utf && printf 'step\\ttime\\tE_\\377x\\tE_total\\n0\\t0\\t1\\t1\\n1\\t1\\t2\\t2\\n' > " D "/utf/energy.tsv");
    rc = run(out, sizeof out, "timeout 1 ./pala plot " D "/utf > /dev/null && iconv -f UTF-8 -t UTF-8 " D "/utf/energy.svg > /dev/null");
    T_CHECK(rc == 0, "a column name with a byte 0xff: energy.svg is valid UTF-8 (exit %d) %s", rc, out);

    /* --max-mb below one frame: refused, not ignored */
    short_run("mb", NULL);
    rc = run(out, sizeof out, "timeout 1 ./pala view " D "/mb --max-mb 1e-300");
    T_CHECK(rc == 1 && has(out, N("--max-mb 1e-300", "less than one frame")), "view --max-mb 1e-300: exit %d (want 1) %s", rc, out);
}

/* The checkpoint of D/name with field fld's double number k set to v, the checksum made
 * anew (t_ckpt_patch). */
static int poke_checkpoint(const char *name, const char *fld, int k, double v)
{
    char p[256];
    snprintf(p, sizeof p, D "/%s/checkpoint.bin", name);
    return t_ckpt_patch(p, p, fld, 8 * (size_t)k, &v, sizeof v);
}

static void checkpoints(void)
{
    const char *what[2][2] = {{"run.energy_stats", "energy.tsv"}, {"run.walls_prev", "walls.tsv"}};
    for (int i = 0; i < 2; i++) {
        short_run("ck", "--set checkpoint_every=100");
        int pk = poke_checkpoint("ck", what[i][0], i == 0 ? 7 : 0, 1e47);
        int rc = run(out, sizeof out, "timeout 1 ./pala resume " D "/ck --set end_time=0.0005");
        T_CHECK(pk == 0 && rc == 1 && has(out, N("row count", what[i][1])), "checkpoint with the %s row count 1e47: refused, exit %d %s", what[i][1], rc, out);
    }
    /* flow.tsv's, of a run whose grains enter and leave (cast to long unchecked before; found
     * by the checkpoint target in session 26, once its seeds included such a run) */
    int rc = run(out, sizeof out, "./pala run tests/fuzz/start-flow.txt --quiet --force -o " D "/fl");
    int pk = poke_checkpoint("fl", "run.flow_prev", 0, 1e47);
    rc = rc ? rc : run(out, sizeof out, "timeout 1 ./pala resume " D "/fl --set steps=80");
    T_CHECK(pk == 0 && rc == 1 && has(out, N("row count", "flow.tsv")), "checkpoint with the flow.tsv row count 1e47: refused, exit %d %s", rc, out);
    /* a wall table of 2^39 slots, and a stamp of 1e47: refused before anything is allocated */
    pala_scene *sc;
    if (pala_scene_load("tests/fuzz/ckpt-scene.txt", 0, NULL, &sc, stderr) != PALA_OK) { T_CHECK(0, "load tests/fuzz/ckpt-scene.txt"); return; }
    pala_world *w = pala_scene_world(sc);
    pala_world_prepare(w);
    pala_world_steps(w, 5);
    long nh;
    double *hd = pala_world_history_get(w, &nh);
    /* hn, np, the np records, nblk, then per block cap and n: one block here */
    int hn = hd ? (int)hd[0] : 0;
    long at = 2 + (long)hd[1] * (2 + hn) + 1;
    double *d = malloc((size_t)(nh + 8) * sizeof *d);
    memcpy(d, hd, (size_t)nh * sizeof *d);
    d[at] = 549755813888.0;   /* 2^39 slots */
    int bad = pala_world_history_set(w, d, nh);
    T_CHECK(hd && bad && strstr(pala_world_error(w), "a wall table's size"), "a wall table of 2^39 slots: refused (%d) %s", bad, pala_world_error(w));
    memcpy(d, hd, (size_t)nh * sizeof *d);
    int e = (int)d[at + 1];
    if (e > 0) d[at + 2 + 3] = 1e47;   /* the first entry's stamp */
    bad = e > 0 ? pala_world_history_set(w, d, nh) : 1;
    T_CHECK(e > 0 && bad && strstr(pala_world_error(w), "out of range"), "a wall contact's stamp of 1e47: refused (%d entries) %s", e, pala_world_error(w));
    /* a wall id of a membrane in a world without one (found by make fuzz: the energy of the
       contact read the materials of a wall that does not exist) */
    memcpy(d, hd, (size_t)nh * sizeof *d);
    if (e > 0) d[at + 2 + 2] = 9;
    bad = e > 0 ? pala_world_history_set(w, d, nh) : 1;
    T_CHECK(e > 0 && bad && strstr(pala_world_error(w), "out of range"), "a wall contact with a membrane's id in a box: refused %s", pala_world_error(w));
    free(d);
    free(hd);
    pala_scene_free(sc);
}

static void scenes(void)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "timeout 1 ./pala run " SCENE " --set end_time=1e14 -o " D "/long");
    int rc = run(out, sizeof out, cmd);
    T_CHECK(rc == 1 && has(out, N("1e+20 steps", "shorten end_time")), "end_time = 1e14 with dt = 1e-6: exit %d (want 1) %s", rc, out);
    rc = run(out, sizeof out, "timeout 1 ./pala run " SCENE " --set dt=1e-310 -o " D "/long");
    T_CHECK(rc == 1 && has(out, N("inf steps")), "dt = 1e-310: exit %d (want 1) %s", rc, out);
    const char *sizes[2] = {"1e-310", "1e300"};
    for (int i = 0; i < 2; i++) {
        snprintf(cmd, sizeof cmd, "timeout 1 ./pala run " SCENE " --set grain.master.volume_radius=%s -o " D "/size", sizes[i]);
        rc = run(out, sizeof out, cmd);
        T_CHECK(rc == 1 && has(out, N("metres")) && !strstr(out, "pala_") && !strstr(out, "mc_samples"),
                "volume_radius = %s: exit %d (want 1), a message of sizes, no API function, no mc_samples: %s", sizes[i], rc, out);
    }
}

/* Sizes users reach: each command takes well under a second (the guard allows 5 s on a
 * busy machine; before, they took 10 s to minutes: quadratic or cubic). */
static void scales(void)
{
    /* 300 grain types and 300 groups (89 s before its first step) */
    FILE *f = fopen(D "/many.txt", "w");
    if (f) {
        fprintf(f, "container = box\nbox = 0 1 0 1 0 1\nwall_material = m\ndt = 1e-6\nsteps = 1\n[material m]\ndensity = 1000\nyoung = 1e7\n");
        for (int i = 0; i < 300; i++) fprintf(f, "[grain g%d]\nmaterial = m\nshape = sphere\nradius = 0.001\n", i);
        for (int i = 0; i < 300; i++) fprintf(f, "[group p%d]\ngrain = g%d\ncount = 1\n", i, i);
        fclose(f);
    }
    int rc = run(out, sizeof out, "timeout 5 ./pala run " D "/many.txt -o " D "/many.run --force --quiet");
    T_CHECK(rc == 0, "300 grain types and 300 groups: run within 5 s (exit %d) %s", rc, out);
    /* 1,000 runs to collect (12.8 s) */
    rc = run(out, sizeof out, "cd " D " && rm -rf coll && mkdir coll && cd coll && head -c 0 /dev/null && "
                              "for i in $(seq 1000); do mkdir r$i; printf 'scene\\tdt\\tseed\\tstatus\\nx\\t1e-6\\t'$i'\\tok\\n' > r$i/summary.tsv; done");
    rc = rc ? rc : run(out, sizeof out, "cd " D "/coll && timeout 5 ../../../../pala collect r* | wc -l | grep -qx 1001");
    T_CHECK(rc == 0, "collect of 1,000 runs within 5 s (exit %d) %s", rc, out);
    /* a header of 100,000 columns (36 s) */
    rc = run(out, sizeof out, "cd " D " && mkdir -p wide && awk 'BEGIN{printf \"time\"; for(i=1;i<100000;i++) printf \"\\tE_%d\", i; printf \"\\n0\"; for(i=1;i<100000;i++) printf \"\\t1\"; print \"\"}' > wide/energy.tsv "
                              "&& timeout 5 ../../../pala check wide wide --columns E_99999 > /dev/null");
    T_CHECK(rc == 0, "check of a 100,000-column header within 5 s (exit %d) %s", rc, out);
    /* 3,000 distinct template names (the cube: seconds) */
    rc = run(out, sizeof out, "cd " D " && mkdir -p names && awk 'BEGIN{print \"# pala trajectory 1\"; print \"dimension 3\"; print \"templates 3000\";"
                              "for(i=0;i<3000;i++){print \"template \" i \" t\" i \" ncomp 1\"; print \"0 0 0 0.001\"} print \"grains 1\"; print \"0\";"
                              "print \"frame 0 0\"; print \"0 0 0 0 0 0 0 0 0 0 0 0\"}' > names/trajectory.txt && timeout 5 ../../../pala view names > /dev/null");
    T_CHECK(rc == 0, "view of 3,000 template names within 5 s (exit %d) %s", rc, out);
}

static int same_files(const char *a, const char *b)
{
    return t_sh(NULL, 0, "cmp -s %s %s", a, b) == 0;
}

static void folders(void)
{
    /* pala order into a run's folder: refused, and the run's files kept */
    short_run("ord", NULL);
    t_sh(NULL, 0, "cd " D " && md5sum ord/* > ord.md5");
    int rc = run(out, sizeof out, "timeout 1 ./pala order " SCENE " --set end_time=0.0004 -o " D "/ord");
    int kept = t_sh(NULL, 0, "cd " D " && md5sum -c --quiet ord.md5") == 0;
    T_CHECK(rc == 1 && kept && has(out, N("not a folder of a pala order")), "order -o a run's folder: exit %d (want 1), files kept %d: %s", rc, kept, out);

    /* a folder of someone else's files, with or without --force: refused, nothing deleted */
    t_sh(NULL, 0, "rm -rf " D "/own && mkdir -p " D "/own && echo mine > " D "/own/summary.tsv && echo notes > " D "/own/notes.txt");
    const char *force[2] = {"", "--force"};
    for (int i = 0; i < 2; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "timeout 1 ./pala run " SCENE " -o " D "/own --quiet %s", force[i]);
        rc = run(out, sizeof out, cmd);
        kept = t_sh(NULL, 0, "grep -qx mine " D "/own/summary.tsv && grep -qx notes " D "/own/notes.txt") == 0;
        T_CHECK(rc == 1 && kept && has(out, N("not a folder of a pala run")), "run -o a folder of a user's files %s: exit %d (want 1), kept %d: %s", force[i], rc, kept, out);
    }
    /* --force on a run's folder: deletes pala's files, keeps the user's */
    short_run("mix", NULL);
    t_sh(NULL, 0, "echo notes > " D "/mix/notes.txt");
    rc = run(out, sizeof out, "timeout 1 ./pala run " SCENE " -o " D "/mix --quiet --force --set end_time=0.0002");
    kept = t_sh(NULL, 0, "grep -qx notes " D "/mix/notes.txt") == 0;
    T_CHECK(rc == 0 && kept, "run --force on a run folder with a user's notes.txt: exit %d, notes kept %d %s", rc, kept, out);

    /* a folder another process holds (flock(1) takes the same lock): exit 6 */
    t_sh(NULL, 0, "rm -rf " D "/busy && mkdir -p " D "/busy");
    rc = run(out, sizeof out, "flock " D "/busy sh -c 'timeout 1 ./pala run " SCENE " -o " D "/busy --quiet; echo rc=$?'");
    T_CHECK(strstr(out, "rc=6") && has(out, N("in use by another pala process")), "run into a folder another process holds: exit 6 %s", out);
    short_run("busy2", "--set checkpoint_every=100");
    rc = run(out, sizeof out, "flock " D "/busy2 sh -c 'timeout 1 ./pala resume " D "/busy2 --set end_time=0.0005; echo rc=$?'");
    T_CHECK(strstr(out, "rc=6"), "resume of a folder another process holds: exit 6 %s", out);

    /* links in place of a run's files: refused by every command, no target changed */
    short_run("ln", "--set checkpoint_every=100");
    t_sh(NULL, 0, "cd " D " && rm -rf tgt && mkdir tgt && for f in control.txt energy.tsv walls.tsv trajectory.txt summary.tsv checkpoint.bin; do "
                  "mv ln/$f tgt/$f && ln -s ../tgt/$f ln/$f; done && echo x > tgt/view.html && ln -s ../tgt/view.html ln/view.html && md5sum tgt/* > tgt.md5");
    const char *cmds[5] = {"resume " D "/ln --set end_time=0.0005", "view " D "/ln", "plot " D "/ln", "snapshot " D "/ln", "export " D "/ln --format xyz"};
    for (int i = 0; i < 5; i++) {
        char cmd[256];
        snprintf(cmd, sizeof cmd, "timeout 1 ./pala %s", cmds[i]);
        rc = run(out, sizeof out, cmd);
        kept = t_sh(NULL, 0, "cd " D " && md5sum -c --quiet tgt.md5") == 0;
        T_CHECK(rc != 0 && rc != 124 && kept && has(out, N("symbolic link")), "pala %s with links in the folder: exit %d, refused, targets unchanged %d: %s", cmds[i], rc, kept, out);
    }
    /* -o onto a run's own results: refused by export, snapshot, view and collect, every file kept
     * (they were replaced, exit 0: a review's hostile inputs) */
    short_run("own", NULL);
    t_sh(NULL, 0, "cd " D " && md5sum own/* > own.md5");
    const char *onto[6] = {"export " D "/own --format xyz -o " D "/own/energy.tsv", "export " D "/own --format xyz -o " D "/own/trajectory.txt",
                           "snapshot " D "/own -o " D "/own/walls.tsv", "view " D "/own -o " D "/own/summary.tsv", "view " D "/own -o " D "/own/control.txt",
                           "collect " D "/own -o " D "/own/summary.tsv --force"};
    for (int i = 0; i < 6; i++) {
        char cmd[300];
        snprintf(cmd, sizeof cmd, "timeout 5 ./pala %s", onto[i]);
        rc = run(out, sizeof out, cmd);
        kept = t_sh(NULL, 0, "cd " D " && md5sum -c --quiet own.md5") == 0;
        T_CHECK(rc == 1 && kept && has(out, N("is one of its run's own results, which pala")), "pala %s: exit %d (want 1), the run's files kept %d: %s", onto[i], rc, kept, out);
    }
    /* a dangling link and a link named like the old shared temporary file: not followed */
    t_sh(NULL, 0, "cd " D " && rm -rf dl dlt && mkdir dl && ln -s ../dlt dl/energy.tsv && echo keep > dl.keep && ln -s ../dl.keep dl/checkpoint.bin.tmp");
    rc = run(out, sizeof out, "timeout 1 ./pala run " SCENE " -o " D "/dl --quiet");
    kept = t_sh(NULL, 0, "cd " D " && test ! -e dlt && grep -qx keep dl.keep") == 0;
    T_CHECK(rc != 0 && kept, "run into a folder with a dangling link: exit %d, no target created or changed %d %s", rc, kept, out);

    /* the folder deleted during the run: noticed within an output interval */
    t_sh(NULL, 0, "rm -rf " D "/gone");
    rc = run(out, sizeof out, "(./pala run " SCENE " -o " D "/gone --quiet --set end_time=10 & p=$!; sleep 0.3; rm -rf " D "/gone; "
                              "s=0; while kill -0 $p 2>/dev/null && [ $s -lt 10 ]; do sleep 0.1; s=$((s+1)); done; kill $p 2>/dev/null; wait $p; echo rc=$?)");
    T_CHECK(strstr(out, "rc=5") && has(out, N("was deleted")), "a run whose folder is deleted: stops within 1 s, exit 5: %s", out);

    /* a resume that may not write its folder (a read-only folder: as another user, since
     * root writes anyway) is an I/O error, exit 5 */
    short_run("ro", "--set checkpoint_every=100");
    rc = run(out, sizeof out, "chmod -R a+rX " D "/ro && chmod a-w " D "/ro " D "/ro/* && if [ $(id -u) = 0 ]; then "
                              "command -v setpriv >/dev/null || { echo no-setpriv; exit 0; }; "
                              "timeout 1 setpriv --reuid=65534 --regid=65534 --clear-groups ./pala resume " D "/ro --set end_time=0.0005; "
                              "else timeout 1 ./pala resume " D "/ro --set end_time=0.0005; fi; echo rc=$?");
    if (strstr(out, "no-setpriv")) t_skip("resume in a read-only folder needs setpriv (util-linux) when the tests run as root");
    else T_CHECK(strstr(out, "rc=5"), "resume in a read-only folder: exit 5 %s", out);
    t_sh(NULL, 0, "chmod -R u+w " D "/ro");
    (void)same_files;
}

/* Session 29's hostile sweep: endless or special files where a control file, a checkpoint
 * or a trajectory is read (each refused at once, naming why), and --force with the scene or
 * the start_from run inside the folder it would clear. */
static void endless(void)
{
    int rc = run(out, sizeof out, "timeout 5 ./pala run /dev/zero -o " D "/z --force 2>&1");
    T_CHECK(rc == 1 && has(out, N("/dev/zero:1:", "binary file")), "pala run /dev/zero: refused at once, exit %d %s", rc, out);
    rc = run(out, sizeof out, "timeout 5 ./pala order /dev/zero 2>&1");
    T_CHECK(rc == 1 && has(out, N("binary file")), "pala order /dev/zero: refused at once, exit %d %s", rc, out);
    rc = run(out, sizeof out, "(printf 'steps = 1\\n'; head -c 10000 /dev/zero | tr '\\0' a) > " D "/long.txt && "
                              "timeout 5 ./pala run " D "/long.txt -o " D "/long --force 2>&1");
    T_CHECK(rc == 1 && has(out, N("long.txt:2:", "longer than")), "a line of 10,000 characters: refused at its line, exit %d %s", rc, out);
    short_run("ckz", NULL);
    t_sh(NULL, 0, "cd " D " && rm -rf ckl ckf ckt && cp -r ckz ckl && rm ckl/checkpoint.bin && ln -s /dev/zero ckl/checkpoint.bin && "
                  "cp -r ckz ckf && rm ckf/checkpoint.bin && mkfifo ckf/checkpoint.bin && "
                  "cp -r ckz ckt && truncate -s 2G ckt/checkpoint.bin");
    rc = run(out, sizeof out, "timeout 5 ./pala resume " D "/ckl --info 2>&1");
    T_CHECK(rc == 1 && has(out, N("symbolic link")), "a checkpoint.bin linked to /dev/zero: refused, exit %d %s", rc, out);
    rc = run(out, sizeof out, "timeout 5 ./pala run " SCENE " -o " D "/ckl2 --force --quiet --set start_from=" D "/ckl 2>&1");
    T_CHECK(rc == 1 && has(out, N("start_from", "symbolic link")), "start_from a run whose checkpoint.bin is a link: refused, exit %d %s", rc, out);
    rc = run(out, sizeof out, "timeout 5 ./pala resume " D "/ckf --info 2>&1");
    T_CHECK(rc == 1 && has(out, N("not a regular file")), "a checkpoint.bin that is a pipe: refused without waiting, exit %d %s", rc, out);
    rc = run(out, sizeof out, "timeout 5 ./pala resume " D "/ckt --info 2>&1");
    T_CHECK(rc == 1 && has(out, N("longer than its header")), "a checkpoint.bin of 2 GB of which the header claims a few kB: refused unread, exit %d %s",
            rc, out);
    t_sh(NULL, 0, "cd " D " && rm -rf ckz2 && cp -r ckz ckz2 && rm ckz2/trajectory.txt && ln -s /dev/zero ckz2/trajectory.txt");
    rc = run(out, sizeof out, "timeout 5 ./pala run " SCENE " -o " D "/ckz3 --force --quiet --set start_from=" D "/ckz2 --set start_time=0 2>&1");
    T_CHECK(rc == 1 && has(out, N("trajectory.txt cannot be read", "symbolic link")), "start_time from a trajectory linked to /dev/zero: refused, exit %d %s",
            rc, out);
    /* --force: the scene read before the folder is cleared; a start_from of the folder itself refused */
    t_sh(NULL, 0, "cd " D " && rm -rf ckz4 && cp -r ckz ckz4");
    rc = run(out, sizeof out, "timeout 5 ./pala run " D "/ckz4/control.txt -o " D "/ckz4 --force --quiet --set end_time=0.0002 2>&1 && "
                              "test -s " D "/ckz4/energy.tsv");
    T_CHECK(rc == 0, "run RUN/control.txt -o RUN --force: runs, its results written (exit %d) %s", rc, out);
    rc = run(out, sizeof out, "timeout 5 ./pala run " SCENE " -o " D "/ckz4 --force --quiet --set start_from=" D "/ckz4 2>&1; echo \"exit $?\"; "
                              "test -s " D "/ckz4/energy.tsv && echo kept");
    T_CHECK(has(out, N("exit 1", "is the folder this run writes", "kept")), "start_from the folder -o clears: refused, the run kept %s", out);
}

/* Session 29's messages: each names what to give instead */
static void messages(void)
{
    static const struct { const char *sets, *want1, *want2; } m[] = {
        {"--set sphere_orientation=FIXED", "expected one of track|fixed", "did you mean 'fixed'?"},
        {"--set material.rubbr.density=5", "no [material rubbr] section", "did you mean 'rubber'?"},
        {"--set material.qqqqqq.density=5", "no [material qqqqqq] section", "it has rubber"},
        {"--set group.ten.grain=mastr", "no [grain mastr] section", "did you mean 'master'?"},
        {"--set group.ten.orientation='1e155 0 0'", "orientation", "below 1e150"},
        {"-o ''", "-o needs a folder name", "e.g."},
        {"--set material.rubber.young=1e300", "contact stiffness of [material rubber]", "lower its young"},
        {"--set group.ten.frction=5", "did you mean 'friction'", "a key of a [material NAME] section"},
        {"--set end_time=inf", "expected a number (s), finite", "inf and nan are not values"},
        {"--set group.ten.velocity='1e308 1e308 0'", "velocity is past a double", "give its [group] a finite velocity"},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "timeout 5 ./pala run " SCENE " -o " D "/msg --force --quiet --set steps=5 %s 2>&1", m[i].sets);
        int rc = run(out, sizeof out, cmd);
        T_CHECK(rc == 1 && has(out, N(m[i].want1, m[i].want2)), "%s: exit %d, saying what to give %s", m[i].sets, rc, out);
    }
    t_write(D "/far.txt", "container = none\ndt = 1\nsteps = 10\ndt_check = off\n[material rock]\ndensity = 3000\nyoung = 1e9\n"
                          "[grain b]\nmaterial = rock\nshape = sphere\nradius = 1\n[group two]\ngrain = b\nplacement = list\nat = 0 0 0\nat = 1e13 0 0\n");
    run(out, sizeof out, "timeout 5 ./pala run " D "/far.txt -o " D "/far.run --force --quiet 2>&1; echo \"exit $?\"; test -e " D "/far.run || echo none");
    T_CHECK(has(out, N("exit 1", "cells of the neighbour search apart", "place them closer together", "none")),
            "grains placed 4.5e12 cells apart: refused before anything is written (it blamed dt at step 0) %s", out);
    int rw = run(out, sizeof out, "timeout 5 ./pala run " SCENE " -o " D "/msg --force --quiet --set steps=5 --set start_time=0 2>&1");
    T_CHECK(rw == 0 && has(out, N("warning: 'start_time' picks the frame of the run given by start_from", "give start_from")),
            "start_time without start_from: a warning, not ignored silently (exit %d) %s", rw, out);
    t_sh(NULL, 0, "cd " D " && rm -rf ckz5 && cp -r ckz ckz5 && rm ckz5/energy.tsv");
    int rc = run(out, sizeof out, "timeout 5 ./pala resume " D "/ckz5 --set end_time=0.001 2>&1");
    T_CHECK(rc == 1 && has(out, N("energy.tsv", "start_from")), "resume without energy.tsv: refused with a way on, exit %d %s", rc, out);
}

/* Session 30's failures of the surroundings: each leaves the run's files and says what
 * happened */
static void surroundings(void)
{
    /* a refused resume changes nothing: a log checked late (grains.tsv) cut short, every
     * other file as it was, control.txt (the run's settings) and the VTK collection too */
    short_run("rr", "--set vtk_every=2 --set grains_every=2 --set trajectory_every=2");
    int rc = run(out, sizeof out, "cd " D "/rr && truncate -s 100 grains.tsv && find . -type f | sort | xargs md5sum > ../rr.md5 && "
                                  "../../../../pala resume . --set end_time=0.0008 2>&1; echo \"exit $?\"; md5sum -c ../rr.md5 | grep -c ': OK$'; find . -type f | wc -l");
    char nf[64] = "";
    t_sh(nf, sizeof nf, "find " D "/rr -type f | wc -l");
    T_CHECK(has(out, N("exit 1", "grains.tsv: it is shorter than at the checkpoint")) && atoi(nf) > 8 && strstr(out, nf),
            "a refused resume leaves every file of the folder as it was (%d files) %s", atoi(nf), out);
    /* ... and so does one that cannot write its control.txt (ulimit -f) */
    short_run("rf", NULL);
    rc = run(out, sizeof out, "cd " D "/rf && md5sum * > ../rf.md5 && (ulimit -f 2; ../../../../pala resume . --set end_time=0.0008) 2>&1; echo \"exit $?\"; "
                              "md5sum -c ../rf.md5 | grep -vc ': OK$'");
    T_CHECK(has(out, N("exit 5", "control.txt", "no step was taken")) && strstr(out, "\n0\n"), "a resume that cannot write control.txt changes no file %s", out);
    /* a closed pipe: the run goes on to its end, keeps its files, and exits 5 */
    rc = run(out, sizeof out, "rm -rf " D "/pipe && (./pala run " SCENE " -o " D "/pipe --set end_time=0.004 --progress 0.0001 2>&1; "
                              "echo $? > " D "/pipe.rc) | head -c 1 > /dev/null; sleep 0.1; cat " D "/pipe.rc; test -s " D "/pipe/summary.tsv && echo whole");
    T_CHECK(has(out, N("5", "whole")), "pala run | head: the run ends, its summary.tsv written, exit 5 (standard output lost) %s", out);
    /* a file-size limit: a failed write naming the file, exit 5 */
    rc = run(out, sizeof out, "rm -rf " D "/fsz && (ulimit -f 20; ./pala run " SCENE " -o " D "/fsz --quiet --set end_time=0.01 --set trajectory_every=10) 2>&1");
    T_CHECK(rc == 5 && has(out, N("trajectory.txt", "File too large")), "ulimit -f: exit %d, the file named %s", rc, out);
    /* a SIGHUP the caller ignores (nohup) stays ignored */
    rc = run(out, sizeof out, "rm -rf " D "/hup && (trap '' HUP; ./pala run examples/settling-box.txt -o " D "/hup --quiet --set end_time=0.1 & "
                              "p=$!; sleep 0.2; kill -HUP $p; wait $p; echo \"exit $?\") 2>&1");
    T_CHECK(has(out, N("exit 0")) && !strstr(out, "interrupted"), "SIGHUP ignored by the caller (nohup): the run goes on to its end %s", out);
    /* a start that could not create its files: its folder is pala's, --force clears it */
    rc = run(out, sizeof out, "rm -rf " D "/half && mkdir " D "/half && touch " D "/half/control.txt " D "/half/energy.tsv && "
                              "./pala run " SCENE " -o " D "/half --quiet --force --set end_time=0.0004 2>&1");
    T_CHECK(rc == 0, "an empty control.txt among pala's file names: --force runs there (exit %d) %s", rc, out);
    /* an -o too long for its files' paths: refused before anything is made (20 levels of 198
     * characters, each a name mkdir takes) */
    rc = run(out, sizeof out, "cd " D " && rm -rf longo && mkdir longo && cd longo && L=$(printf 'a%.0s' $(seq 198)) && p=$L && "
                              "for i in $(seq 19); do p=$p/$L; done && ../../../../pala run ../../../../" SCENE " --quiet -o $p 2>&1; echo \"exit $?\"; ls | wc -l");
    T_CHECK(has(out, N("exit 1", "characters long", "choose a shorter -o")) && strstr(out, "\n0\n"), "-o of 3,979 characters: refused, nothing made %s", out);
    /* a running pour (grains come and go) cut in its last frame: the frame before it, named by its own step */
    rc = run(out, sizeof out, "rm -rf " D "/pc " D "/pcut && ./pala run examples/pour.txt -o " D "/pc --quiet --set end_time=0.2 && mkdir " D "/pcut && "
                              "n=$(grep -n '^frame' " D "/pc/trajectory.txt | tail -1 | cut -d: -f1) && head -$((n + 5)) " D "/pc/trajectory.txt > " D "/pcut/trajectory.txt && "
                              "grep '^frame' " D "/pcut/trajectory.txt | tail -2 | head -1 | cut -d' ' -f2 && ./pala snapshot " D "/pcut -o " D "/pcut/s.svg 2>&1; echo \"exit $?\"");
    char want[64] = "";
    sscanf(out, "%63s", want);
    char lab[96];
    snprintf(lab, sizeof lab, "(step %s,", want);
    T_CHECK(has(out, N("exit 0", "is cut off at the end of the file")) && strstr(out, lab), "a pour's trajectory cut in its last frame: snapshot draws the frame before, %s %s", lab, out);
    /* pala order stopped by Ctrl-C: says so, exit 4 (it was killed without a word, 130) */
    rc = run(out, sizeof out, "rm -rf " D "/ord && (./pala order " SCENE " -o " D "/ord --runs 8 > /dev/null & p=$!; sleep 0.3; kill -INT $p; wait $p; "
                              "echo \"exit $?\") 2>&1");
    T_CHECK(has(out, N("exit 4", "interrupted in run", "run it again")), "pala order and SIGINT: exit 4 and what is left %s", out);
}

void test_hostile(void)
{
    T_CHECK(t_sh(NULL, 0, "rm -rf " D " && mkdir -p " D) == 0, "mkdir " D);
    plots_and_pictures();
    checkpoints();
    scenes();
    scales();
    folders();
    endless();
    messages();
    surroundings();
}

/* test_restart.c: runs that start from runs (start_from; docs/control-file.md, "Runs that
 * start from runs").  The settling box with a tangential spring, run 0.1 s (contacts with
 * springs at its end), then continued by a scene that starts from it, gives the same bits as
 * one run of 0.12 s from 0.1 s on (trajectory frames, the energies, the trajectory's
 * header), at 1 and 3 threads; with its contact history dropped, it does not.  start_time
 * picks a frame of the trajectory; a density other than the run's scales the masses; the
 * effective control file of such a run runs again; a run whose outlet removed grains (gaps in
 * its numbers) is continued too, from its end or a frame; examples/fill-then-open.txt's two
 * runs (a cone filled on a plug, then opened).  What is refused: no folder, a folder that
 * holds no checkpoint, a damaged one, another dimension, a material the scene lacks, walls
 * that do not hold the grains, damaged frames of the trajectory (numbers beyond the run's),
 * checkpoints whose numbers are damaged under a valid checksum. */
#include "t.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_restart(void);

#define D "build/tmp/restart"
#define SB "./pala run examples/settling-box.txt --quiet --force --set tangential_law=spring --set material.sand.tangential_stiffness=200 " \
           "--set material.wall.tangential_stiffness=200 --set trajectory_every=100 --set 'group.bed.region_box=0 0.06 0 0.06 0 0.08'"

/* The frames and energy rows of run b from its step 0 are those of run a from step `from`:
 * the state lines of every frame of b, the energies but E_diss and dE of every row (a new
 * run starts its accounts at 0); 0 if so, else what differs. */
static int continues(const char *a, const char *b, long from, char *why, size_t len)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "awk -v off=%ld 'FNR == 1 { f++ } /^frame / { s = $2 + (f == 2 ? off : 0); next } s != \"\" && NF == 12 { print s, $0 > (f == 1 ? \"%s/fa\" : \"%s/fb\") }' "
             "%s/trajectory.txt %s/trajectory.txt && awk '{ print $1 }' %s/fb | sort -u | wc -l && awk 'NR == FNR { k[$0] = 1; next } !($0 in k) { n++ } END { print n + 0 }' %s/fa %s/fb && "
             "awk -F'\\t' -v off=%ld 'FNR == 1 { f++; next } { r = $3 FS $4 FS $5 FS $6 FS $7 FS $11 FS $12; if (f == 1) e[$1] = r; else if (e[$1 + off] != r) n++ } END { print n + 0 }' "
             "%s/energy.tsv %s/energy.tsv",
             from, D, D, a, b, D, D, D, from, a, b);
    char out[512];
    int rc = t_sh(out, sizeof out, "%s", cmd);
    int frames = 0, bad = -1, ebad = -1;
    sscanf(out, "%d %d %d", &frames, &bad, &ebad);
    snprintf(why, len, "%d frames of %s, %d state lines and %d energy rows differ from %s's (exit %d)", frames, b, bad, ebad, a, rc);
    return !(rc == 0 && frames > 5 && bad == 0 && ebad == 0);
}

#define PO "./pala run examples/pour.txt --quiet --force --set tangential_law=spring --set material.glass.tangential_stiffness=200"

/* A run whose outlet removed grains (examples/pour.txt with springs to 0.5 s: 126 of 800 left,
 * the last insertion at 0.4 s), so its numbers have gaps.  A scene that keeps the outlet continues it
 * bit for bit (the frames of version 2, their numbers, the springs kept; 2 threads); one
 * without an inserter or outlet numbers the grains 0 .. N-1 in the order of their numbers,
 * with a note; start_time picks a frame of version 2, text or binary (before session 24 all
 * three were refused: "its numbering of the grains is malformed", "no whole frame"). */
static void outlet_runs(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, PO " --set end_time=0.5 -o " D "/o && " PO " --set end_time=0.55 -o " D "/oab && "
                  PO " --set end_time=0.05 --set start_from=" D "/o --threads 2 -o " D "/ob && tail -1 " D "/o/flow.tsv | cut -f 7");
    int gone = atoi(out);
    t_sh(out, sizeof out, "awk -v off=50000 'FNR == 1 { f++ } /^frame / { s = $2 + (f == 2 ? off : 0); next } s >= 50000 && NF == 14 { print s, $0 > "
         "(f == 1 ? \"" D "/oa\" : \"" D "/ob.s\") }' " D "/oab/trajectory.txt " D "/ob/trajectory.txt && wc -l < " D "/oa && cmp " D "/oa " D "/ob.s && echo same");
    T_CHECK(rc == 0 && gone > 50 && atoi(out) > 1000 && strstr(out, "same"),
            "a scene that starts from a run whose outlet removed %d grains continues it bit for bit, their numbers too (2 threads, springs kept): %.200s", gone, out);
    char want[160], grains[40];
    snprintf(want, sizeof want, "note: the run's %d grains are numbered 0 .. %d in the order of their numbers there (%d had left it", 800 - gone, 799 - gone, gone);
    snprintf(grains, sizeof grains, "grains %d", 800 - gone);
    rc = t_sh(out, sizeof out, "sed '/^\\[outlet/,$d' examples/pour.txt > " D "/still.txt && ./pala run " D "/still.txt --quiet --force --set end_time=0.001 "
              "--set start_from=" D "/o -o " D "/os 2>&1 && grep '^grains ' " D "/os/trajectory.txt && "
              "awk '/^frame 50000 / { f = 1; next } /^frame/ { f = 0 } f' " D "/o/trajectory.txt | sort -n -k 1,1 | cut -d ' ' -f 3- > " D "/os.a && "
              "awk '/^frame 0 / { f = 1; next } /^frame/ { f = 0 } f' " D "/os/trajectory.txt | cmp - " D "/os.a && echo same");
    T_CHECK(rc == 0 && strstr(out, want) && strstr(out, grains) && strstr(out, "same"),
            "without an outlet the run's grains are numbered 0 .. N-1 in their order there, said in a note: %.400s", out);
    rc = t_sh(out, sizeof out, PO " --set end_time=0.5 --set trajectory_format=binary -o " D "/obin && "
              "awk '/^frame 20000 / { f = 1; next } /^frame/ { f = 0 } f' " D "/o/trajectory.txt > " D "/ot.a && "
              "for r in o obin; do " PO " --set end_time=0.001 --set start_from=" D "/$r --set start_time=0.2 -o " D "/ot$r 2>&1 && "
              "awk '/^frame 0 / { f = 1; next } /^frame/ { f = 0 } f' " D "/ot$r/trajectory.txt | cmp - " D "/ot.a && echo same-$r; done");
    T_CHECK(rc == 0 && strstr(out, "frame of t = 0.20000000000000001 s (step 20000)") && strstr(out, "same-o\n") && strstr(out, "same-obin"),
            "start_time picks a frame of version 2 (grains that entered and left), text and binary: its grains and numbers %.300s", out);
    /* a time far past the last frame picks the last: all the frames' distances to 1e308 round
     * alike, and the first of them had been kept (found by a review's hostile inputs) */
    rc = t_sh(out, sizeof out, "for r in o obin; do " PO " --set end_time=0.001 --set start_from=" D "/$r --set start_time=1e308 -o " D "/oz$r 2>&1; done");
    T_CHECK(rc == 0 && strstr(out, "(step 50000)") && !strstr(out, "(step 0)"), "start_time = 1e308 picks the last frame, text and binary: %.300s", out);
    /* a first frame whose time is not a number is none to pick (before, it was kept as the
     * nearest: every comparison with NaN is false; noticed by the fuzzing session) */
    rc = t_sh(out, sizeof out, "rm -rf " D "/onan && cp -r " D "/o " D "/onan && sed -i '0,/^frame 0 /s/^frame 0 [^ ]*/frame 0 nan/' " D "/onan/trajectory.txt && "
              "grep -c '^frame 0 nan' " D "/onan/trajectory.txt && " PO " --set end_time=0.001 --set start_from=" D "/onan --set start_time=0.2 -o " D "/otnan 2>&1");
    T_CHECK(rc == 0 && strstr(out, "frame of t = 0.20000000000000001 s (step 20000)") && !strstr(out, "t = nan"),
            "start_time skips a frame whose time is NaN (here the first) and picks the nearest of the others: %.300s", out);
}

/* Damaged frames of a run whose outlet removed grains (D/o of outlet_runs, 800 numbers given),
 * each refused at start_from within seconds, naming the file and its line or byte: a grain
 * number beyond those the run had given at its checkpoint (text and binary), a negative
 * template, a trajectory.bin whose header length runs past its end.  Found by the fuzz target
 * start (tests/fuzz/fuzz.c, docs/fuzzing.md), whose corpus holds these inputs: before, the
 * frame's numbers sized the world's table of numbers (number 2^28 took 1 GB and 13 s under
 * ASan; 2^31 - 1 overflowed an int), a frame of version 2 whose first grain had a negative
 * template was read as one of version 1, from the checkpoint's arrays past their end, and a
 * header length near 2^63 overflowed the offset of the first frame. */
static void damaged_frames(void)
{
    static const struct { const char *file, *as, *want; } bad[] = {
        {"tests/fuzz/start/regress-number-gap.txt", "trajectory.txt",
         "/trajectory.txt:4: grain 2 of the frame of step 20 is number 268435456 of template 0: a frame lists its grains in increasing numbers below the 800 "},
        {"tests/fuzz/start/regress-number-max.txt", "trajectory.txt", "/trajectory.txt:3: grain 1 of the frame of step 20 is number 2147483647 of template 0"},
        {"tests/fuzz/start/regress-number-gap.bin", "trajectory.bin", "/trajectory.bin: grain 2 of the frame of step 20 (byte 152) is number 268435456 of template 0"},
        {"tests/fuzz/start/regress-number-max.bin", "trajectory.bin", "/trajectory.bin: grain 1 of the frame of step 20 (byte 48) is number 2147483647"},
        {"tests/fuzz/start/regress-template.bin", "trajectory.bin", "/trajectory.bin: grain 1 of the frame of step 20 (byte 48) is number 0 of template -1"},
        {NULL, "trajectory.bin", "/trajectory.bin: its header's length (bytes 16-23: 9223372036854775807) runs past the end of the file (40 bytes)"},
    };
    char out[4096];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = t_sh(out, sizeof out, "rm -rf " D "/dmg && mkdir " D "/dmg && cp " D "/o/checkpoint.bin " D "/dmg/ && %s%s " D "/dmg/%s && "
                      "timeout 5 " PO " --set end_time=0.001 --set start_from=" D "/dmg --set start_time=2e-5 -o " D "/x 2>&1",
                      bad[i].file ? "cp " : "printf 'PALATRAJ\\2\\0\\0\\0\\0\\0\\0\\0\\377\\377\\377\\377\\377\\377\\377\\177%16s' '' > ",
                      bad[i].file ? bad[i].file : "", bad[i].as);
        T_CHECK(rc == 1 && strstr(out, bad[i].want) && strstr(out, "--set 'start_from="), "a damaged frame is refused (exit %d): %s -> %.400s", rc,
                bad[i].file ? bad[i].file : "header length 2^63 - 1", out);
    }
}

/* At most 1 GB of memory for pala (under ASan, whose shadow memory a limit of the address
 * space would not leave room for: its own limit on one allocation) */
#if defined(__SANITIZE_ADDRESS__)   /* GCC's */
#define T_ASAN 1
#elif defined(__has_feature)          /* clang's */
#if __has_feature(address_sanitizer)
#define T_ASAN 1
#endif
#endif
#ifdef T_ASAN
#define MEMLIMIT "ASAN_OPTIONS=allocator_may_return_null=1:max_allocation_size_mb=1000:detect_leaks=0 "
#else
#define MEMLIMIT "ulimit -v 1000000; "
#endif

/* Checkpoints whose numbers are damaged (the checksum made again), refused at start_from
 * alone with a message, neither undefined behaviour nor an abort: a grain type's Monte Carlo
 * count of 1e300 (a double that no long holds: UBSan), a density of 0 (the masses scaled by
 * 1/0), a grain number beyond those the run gave, 2^31 - 1 numbers given (a table of 8.6 GB:
 * under a limit of 1 GB it does not fit, which is an error, not pala's out-of-memory abort;
 * `pala resume` of such a run too).
 * Found by the fuzz target startck (tests/fuzz/fuzz.c, docs/fuzzing.md); the run is that of
 * tests/fuzz/start-flow.txt, whose outlet and inserter leave gaps in its numbers. */
static void damaged_checkpoints(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out, "./pala run tests/fuzz/start-flow.txt --quiet --force -o " D "/flowck");
    T_CHECK(rc == 0, "the run of start-flow.txt: exit %d %s", rc, out);
    static const double huge = 1e300, zero = 0;
    static const int big = 2147483647, neg = -5;
    /* world.grain_types: two doubles, then per type two names of 32 bytes and its numbers
     * (restart.c: ncomp, density, volume, its error, Monte Carlo samples, ...) */
    static const struct { const char *field; size_t off; const void *v; size_t n; const char *want; } bad[] = {
        {"world.grain_types", 16 + 64 + 4 * 8, &huge, 8, "its field world.grain_types is malformed"},
        {"world.grain_types", 16 + 64 + 1 * 8, &zero, 8, "its field world.grain_types is malformed"},
        {"world.gid", 0, &neg, 4, "its numbering of the grains is malformed"},
        {"world.nid", 0, &big, 4, "the run numbered 2147483647 grains, and the table of their numbers (8.59 GB) does not fit in memory"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        t_sh(NULL, 0, "rm -rf " D "/ckd && mkdir " D "/ckd");
        T_CHECK(!t_ckpt_patch(D "/flowck/checkpoint.bin", D "/ckd/checkpoint.bin", bad[i].field, bad[i].off, bad[i].v, bad[i].n), "the field %s patched", bad[i].field);
        rc = t_sh(out, sizeof out, MEMLIMIT "timeout 10 ./pala run tests/fuzz/start-still.txt --set start_from=" D "/ckd -o " D "/ckx --force 2>&1");
        T_CHECK(rc == 1 && strstr(out, bad[i].want) && strstr(out, "--set 'start_from="), "a checkpoint with a damaged %s is refused (exit %d): %.400s",
                bad[i].field, rc, out);
    }
    /* pala resume of that run with 2^31 - 1 numbers: the same refusal (pala_world_set_population) */
    t_sh(NULL, 0, "rm -rf " D "/rsm && cp -r " D "/flowck " D "/rsm");
    T_CHECK(!t_ckpt_patch(D "/flowck/checkpoint.bin", D "/rsm/checkpoint.bin", "world.nid", 0, &big, 4), "the field world.nid patched");
    rc = t_sh(out, sizeof out, MEMLIMIT "timeout 10 ./pala resume " D "/rsm --set steps=80 2>&1");
    T_CHECK(rc == 1 && strstr(out, "pala resume: pala_world_set_population: the table of 2147483647 grain numbers (8.59 GB) does not fit in memory"),
            "pala resume of a checkpoint with 2^31 - 1 grain numbers is refused, not aborted (exit %d): %.300s", rc, out);
}

/* examples/fill-then-open.txt's two runs, short: a funnel (a cone, side = inside) filled
 * on a plug, then opened (the plug moves away): the second run's first frame is the first's
 * last, and beads pass the orifice.  Before session 24 a scene with a cone or cylinder wall
 * could not start from a run: the walls' frames were derived after the run's grains were
 * tested against them ("lies outside this scene's walls"). */
static void fill_then_open(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./pala run examples/fill-then-open.txt --quiet --force --set end_time=0.05 -o " D "/fill && "
                  "./pala run examples/fill-then-open.txt --quiet --force --set start_from=" D "/fill --set 'wall.plug.velocity=0 0 -1' "
                  "--set end_time=0.1 -o " D "/open && "
                  "awk '/^frame 10000 / { f = 1; next } /^frame/ { f = 0 } f' " D "/fill/trajectory.txt > " D "/fill.last && "
                  "awk '/^frame 0 / { f = 1; next } /^frame/ { f = 0 } f' " D "/open/trajectory.txt | cmp - " D "/fill.last && "
                  "awk '/^frame/ { n = 0; next } NF == 12 && $3 < 0.0499 { n++ } END { print \"below\", n }' " D "/open/trajectory.txt");
    int below = -1;
    const char *b = strstr(out, "below ");
    if (b) below = atoi(b + 6);
    T_CHECK(rc == 0 && below > 20, "fill, then open: the second run starts where the first stopped, and %d beads are below the orifice 0.1 s "
            "after the plug went (exit %d) %.300s", below, rc, out);
}

/* A run folder whose scene is gone (moved to another machine, the control file deleted):
 * pala resume takes the folder's control.txt for it, checked by the effective settings, and
 * continues as the one run; an edited control.txt is refused. */
static void scene_gone(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out, "mkdir -p " D "/gone && cp examples/settling-box.txt " D "/gone/sb.txt && "
                  "./pala run " D "/gone/sb.txt -o " D "/gone/a --quiet --set end_time=0.01 && ./pala run " D "/gone/sb.txt -o " D "/gone/one --quiet --set end_time=0.02 && "
                  "rm " D "/gone/sb.txt && mv " D "/gone/a " D "/gone/moved && cp -r " D "/gone/moved " D "/gone/edited && "
                  "./pala resume " D "/gone/moved --quiet --set end_time=0.02 && cmp " D "/gone/moved/energy.tsv " D "/gone/one/energy.tsv && "
                  "cmp " D "/gone/moved/trajectory.txt " D "/gone/one/trajectory.txt && echo same");
    T_CHECK(rc == 0 && strstr(out, "sb.txt, the run's scene, is gone: the run's own") && strstr(out, "same"),
            "the scene gone: resumed from the folder's control.txt, the one run's bytes (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "sed -i 's/^friction = .*/friction = 0.1/' " D "/gone/edited/control.txt && ./pala resume " D "/gone/edited --quiet --set end_time=0.02");
    T_CHECK(rc == 1 && strstr(out, "the effective settings of"), "... but not from an edited control.txt (exit %d) %s", rc, out);
}

void test_restart(void)
{
    char out[8192], why[512];
    int rc = t_sh(out, sizeof out, "rm -rf " D " && mkdir -p " D " && " SB " --set end_time=0.1 -o " D "/a && " SB " --set end_time=0.12 -o " D "/ab");
    T_CHECK(rc == 0, "the first scene and the one run: exit %d %.300s", rc, out);
    t_sh(out, sizeof out, "tail -1 " D "/a/energy.tsv | cut -f 11");
    T_CHECK(atoi(out) > 20, "at the end of the first run the grains touch (%d contacts): their springs are the contact history", atoi(out));
    /* the same bits as one run, at 1 and 3 threads, the header too */
    for (int th = 1; th <= 3; th += 2) {
        rc = t_sh(out, sizeof out, SB " --set end_time=0.02 --set start_from=" D "/a --threads %d -o " D "/b%d", th, th);
        char b[64];
        snprintf(b, sizeof b, D "/b%d", th);
        T_CHECK(rc == 0 && !continues(D "/ab", b, 10000, why, sizeof why),
                "a scene that starts from the run at its end continues it bit for bit (%d thread%s): %s %.200s", th, th > 1 ? "s" : "", why, out);
    }
    t_sh(out, sizeof out, "sed -n '/^templates/,/^frame/p' " D "/ab/trajectory.txt | sed '$d' > " D "/ha; "
         "sed -n '/^templates/,/^frame/p' " D "/b1/trajectory.txt | sed '$d' > " D "/hb");
    rc = t_sh(out, sizeof out, "cmp " D "/b1/trajectory.txt " D "/b3/trajectory.txt && cmp " D "/ha " D "/hb");
    T_CHECK(rc == 0, "the same trajectory at 1 and 3 threads, and the templates and grains of its header are the one run's %s", out);
    /* its contact history carries the springs: without it the run goes otherwise */
    rc = t_sh(out, sizeof out, SB " --set end_time=0.02 --set start_from=" D "/a --set start_contacts=drop -o " D "/bd 2>&1");
    T_CHECK(rc == 0 && strstr(out, "note: the run's contact history is dropped (start_contacts = drop)") && continues(D "/ab", D "/bd", 10000, why, sizeof why),
            "with start_contacts = drop (said in a note) the run is another: %s %.200s", why, out);
    /* its effective control file runs again, to the same bits */
    rc = t_sh(out, sizeof out, "./pala run " D "/b1/control.txt -o " D "/b1again --quiet && cmp " D "/b1/trajectory.txt " D "/b1again/trajectory.txt");
    T_CHECK(rc == 0, "control.txt of a run that started from a run runs again to the same bits (exit %d) %.200s", rc, out);
    /* a frame of the trajectory: its state lines are the run's at that step */
    rc = t_sh(out, sizeof out, SB " --set end_time=0.001 --set start_from=" D "/a --set start_time=0.05 -o " D "/bt 2>&1 && "
              "sed -n '/^frame 5000 /,/^frame/p' " D "/a/trajectory.txt | sed '1d;$d' > " D "/fa && "
              "sed -n '/^frame 0 /,/^frame/p' " D "/bt/trajectory.txt | sed '1d;$d' > " D "/fb && cmp " D "/fa " D "/fb");
    T_CHECK(rc == 0 && strstr(out, "frame of t = 0.050000000000000003 s (step 5000)"), "start_time = 0.05 starts from the frame of step 5000, said in a note %.300s", out);
    /* another density: the masses scale with it */
    rc = t_sh(out, sizeof out, SB " --set end_time=0.001 --set start_from=" D "/a --set material.sand.density=5200 -o " D "/bm && "
              "awk '/^template 0 / { print $7 }' " D "/a/trajectory.txt " D "/bm/trajectory.txt");
    double m0 = 0, m1 = 0;
    sscanf(out, "%lf %lf", &m0, &m1);
    T_CHECK(rc == 0 && m0 > 0 && m1 == 2 * m0, "density 5200 instead of 2600 doubles the masses of the run's grains: %g -> %g kg", m0, m1);
    /* what is refused, at the key, saying why and what to do */
    static const struct { const char *set, *want; } bad[] = {
        {"--set start_from=" D "/none", "No such file or directory; give the folder of a run"},
        {"--set start_from=examples", "holds no checkpoint.bin"},
        {"--set start_from=" D "/damaged", "its checksum does not match"},
        {"--set start_from=" D "/a --set dimension=2 --set 'box=0 0.06 0 0.06 -1 1' --set gravity='0 -9.81 0'", "is in 3D and this scene in 2D: set dimension = 3"},
        {"--set start_from=" D "/a --set 'box=0 0.03 0 0.06 0 0.15'", "give the scene walls that hold the run's grains"},
    };
    t_sh(out, sizeof out, "mkdir -p " D "/damaged && cp " D "/a/checkpoint.bin " D "/damaged/ && printf 'x' | dd of=" D "/damaged/checkpoint.bin bs=1 seek=100 conv=notrunc 2>/dev/null");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        rc = t_sh(out, sizeof out, SB " --set end_time=0.001 %s -o " D "/x", bad[i].set);
        T_CHECK(rc == 1 && strstr(out, bad[i].want) && strstr(out, "--set 'start_from="), "refused (exit %d): %s -> %.300s", rc, bad[i].set, out);
    }
    /* a material the scene lacks: the run's grains name it */
    rc = t_sh(out, sizeof out, "(echo 'start_from = a'; sed 's/sand/grit/' examples/settling-box.txt) > " D "/grit.txt && "
              "./pala run " D "/grit.txt --quiet --set end_time=0.001 -o " D "/x");
    T_CHECK(rc == 1 && strstr(out, "are of material 'sand'; this scene has no [material sand]: add it") && strstr(out, "grit.txt:1:"),
            "a material the scene lacks is named; start_from in a file is relative to its folder (exit %d) %.300s", rc, out);
    outlet_runs();
    damaged_frames();
    damaged_checkpoints();
    fill_then_open();
    scene_gone();
}

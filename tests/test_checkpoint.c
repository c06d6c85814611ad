/* test_checkpoint.c: checkpoint and resume (issue 15; docs/output-formats.md,
 * "checkpoint.bin"; docs/cli.md, "pala resume").  A run stopped by SIGINT, SIGTERM or
 * SIGHUP at some step, then resumed, gives energy.tsv, walls.tsv, trajectory.txt and the
 * final state (the checkpoint's state hash) byte for byte as the run never stopped: on the
 * settling box (random grains of the factory), on the ten-grain scene (clumps in a cavity),
 * on 600 grains (stored in spatial order) run on 2 threads and resumed on 1, and after
 * SIGKILL with a line cut in half.  A finished run extended with --set steps equals one
 * longer run.  A damaged or foreign checkpoint (a flipped byte, truncated, another
 * version, a changed scene) is refused with exit 1.  A full disk stops the run with exit 5
 * and it resumes from its checkpoint once there is room. */
#include "t.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_checkpoint(void);

#define D "build/tmp/ckpt"
#define SB "./pala run examples/settling-box.txt --quiet --force"

/* The three logs and the final state of two run folders are the same bytes. */
static void same(const char *a, const char *b, const char *what)
{
    char out[4096], ha[256] = "", hb[256] = "";
    int rc = t_sh(out, sizeof out, "for f in energy.tsv walls.tsv trajectory.txt; do cmp %s/$f %s/$f || exit 1; done", a, b);
    t_sh(ha, sizeof ha, "./pala resume %s --info | head -1 | sed 's/.*state hash //'", a);
    t_sh(hb, sizeof hb, "./pala resume %s --info | head -1 | sed 's/.*state hash //'", b);
    T_CHECK(rc == 0 && ha[0] && !strcmp(ha, hb), "%s: energy.tsv, walls.tsv, trajectory.txt identical to the uninterrupted run, "
            "final state hash %.18s = %.18s %s", what, ha, hb, out);
}

/* The stopped run D/name resumed to the length len (a --set, as the reference ref was
 * run) must give ref's bytes.  If it stopped beyond that length already (a machine so
 * loaded that the signal came late), it is resumed to a length past its step instead, and
 * compared with a reference run of that length (the command refrun). */
static void resume_same(const char *name, const char *len, const char *resume_args, const char *refrun, const char *ref, const char *what)
{
    char out[8192], dir[256], ref2[256];
    int rc = t_sh(out, sizeof out, "./pala resume " D "/%s --quiet %s --set '%s'", name, resume_args, len);
    snprintf(dir, sizeof dir, D "/%s", name);
    if (rc == 1 && strstr(out, "already")) {
        t_sh(out, sizeof out, "./pala resume " D "/%s --info | head -1 | sed 's/.*step \\([0-9]*\\) of.*/\\1/'", name);
        long at = atol(out);
        snprintf(ref2, sizeof ref2, D "/%s.ref2", name);
        rc = t_sh(out, sizeof out, "./pala resume " D "/%s --quiet %s --set steps=%ld && %s --set steps=%ld -o %s", name, resume_args, at + 1000,
                  refrun, at + 1000, ref2);
        ref = ref2;
    }
    T_CHECK(rc == 0, "%s: resume exits %d %s", what, rc, out);
    same(dir, ref, what);
}

/* run (a command writing to D/name, with no length: it is given steps it cannot reach),
 * stopped by signal sig once its energy.tsv has at least `lines` lines (so at a step that
 * depends on timing, but never before the handlers are set nor after the end: the run
 * cannot end first, however loaded the machine), then resumed (with resume_args) to the
 * length len: the same as the reference folder ref, run with len. */
#define ENDLESS " --set steps=1000000000000"
#define WAIT_LINES(name, lines) "while [ \"$(cat " D "/" name "/energy.tsv 2>/dev/null | wc -l)\" -lt " lines " ] && kill -0 $p 2>/dev/null; do sleep 0.01; done; "
static void interrupted(const char *run, const char *len, const char *name, const char *sig, const char *lines, const char *resume_args, const char *ref)
{
    char out[8192], what[256], wait[512];
    snprintf(wait, sizeof wait, "while [ \"$(cat " D "/%s/energy.tsv 2>/dev/null | wc -l)\" -lt %s ] && kill -0 $p 2>/dev/null; do sleep 0.01; done; ", name, lines);
    int rc = t_sh(out, sizeof out, "rm -rf " D "/%s; %s" ENDLESS " -o " D "/%s & p=$!; %s kill -%s $p; wait $p", name, run, name, wait, sig);
    const char *at = strstr(out, "interrupted at step ");
    snprintf(what, sizeof what, "%s: SIG%s after %s rows (%.*s), resumed%s", name, sig, lines, at ? 20 + (int)strspn(at + 20, "0123456789") : 7,
             at ? at : "no stop", resume_args);
    T_CHECK(rc == 4, "%s: exit %d (want 4) %s", what, rc, out);
    resume_same(name, len, resume_args, run, ref, what);
}

static void signals(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, SB " --set end_time=0.05 -o " D "/sb.ref");
    T_CHECK(rc == 0, "settling box, reference (exit %d) %s", rc, out);
    interrupted(SB, "end_time=0.05", "sb.int", "INT", "8", "", D "/sb.ref");
    interrupted(SB, "end_time=0.05", "sb.term", "TERM", "20", "", D "/sb.ref");
    interrupted(SB, "end_time=0.05", "sb.hup", "HUP", "33", "", D "/sb.ref");
    /* the ten-grain scene: clumps in a cavity (no factory) */
    const char *ten = "./pala run examples/paper-ten-grains.txt --quiet --force";
    rc = t_sh(out, sizeof out, "%s --set steps=40000 -o " D "/ten.ref", ten);
    interrupted(ten, "steps=40000", "ten.int", "INT", "1500", "", D "/ten.ref");
    /* 600 grains (spatial order, two blocks) on 2 threads, resumed on 1 */
    const char *big = "./pala run examples/settling-box.txt --quiet --force --set group.bed.count=600 "
                      "--set 'box=0 0.06 0 0.06 0 0.4' --set 'group.bed.region_box=0 0.06 0 0.06 0.03 0.4' --threads 2";
    rc = t_sh(out, sizeof out, "%s --set end_time=0.015 -o " D "/big.ref", big);
    T_CHECK(rc == 0, "600 grains, reference on 2 threads (exit %d) %s", rc, out);
    interrupted(big, "end_time=0.015", "big.int", "TERM", "6", " --threads 1", D "/big.ref");
    /* SIGKILL: no last frames, a line possibly cut; the periodic checkpoint resumes */
    rc = t_sh(out, sizeof out, "rm -rf " D "/sb.kill; " SB " --set checkpoint_every=300" ENDLESS " -o " D "/sb.kill & p=$!; " WAIT_LINES("sb.kill", "25") "kill -KILL $p; wait $p");
    T_CHECK(rc == 137, "SIGKILL: exit %d", rc);
    rc = t_sh(out, sizeof out, SB " --set checkpoint_every=300 --set end_time=0.05 -o " D "/sb.ref300");
    T_CHECK(rc == 0, "SIGKILL: the reference with checkpoints (exit %d) %s", rc, out);
    resume_same("sb.kill", "end_time=0.05", "", SB " --set checkpoint_every=300", D "/sb.ref300", "SIGKILL after 25 rows, resumed from the last periodic checkpoint");
    /* checkpoints do not change the results */
    rc = t_sh(out, sizeof out, "cmp " D "/sb.ref/trajectory.txt " D "/sb.ref300/trajectory.txt");
    T_CHECK(rc == 0, "checkpoint_every = 300 leaves the trajectory as it was %s", out);
}

static void extend(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --quiet --force --set steps=1234 -o " D "/ext");
    rc |= t_sh(out, sizeof out, "./pala resume " D "/ext --quiet --set steps=3000");
    T_CHECK(rc == 0, "extend a finished run from 1234 to 3000 steps (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --quiet --force --set steps=3000 -o " D "/ext.ref");
    same(D "/ext", D "/ext.ref", "a run of 1234 steps extended to 3000");
    rc = t_sh(out, sizeof out, "./pala resume " D "/ext --quiet --set end_time=0.0305");
    T_CHECK(rc == 0, "extend again with end_time (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt --quiet --force --set end_time=0.0305 -o " D "/ext.ref2");
    same(D "/ext", D "/ext.ref2", "extended again to end_time = 0.0305 s");
    rc = t_sh(out, sizeof out, "./pala resume " D "/ext --quiet");
    T_CHECK(rc == 1 && strstr(out, "already (finished)"), "resuming a finished run without more steps: exit %d %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala resume " D "/ext --quiet --set dt=1e-6");
    T_CHECK(rc == 1 && strstr(out, "only its length changes"), "resume --set dt refused: exit %d %s", rc, out);
}

/* A copy of D/ext with its checkpoint changed by cmd ($c is the file): exit 1 and why. */
static void damaged(const char *name, const char *cmd, const char *needle)
{
    char out[8192];
    t_sh(NULL, 0, "rm -rf " D "/%s && cp -r " D "/ext.ref " D "/%s", name, name);
    int rc = t_sh(out, sizeof out, "c=" D "/%s/checkpoint.bin; %s", name, cmd);
    rc = t_sh(out, sizeof out, "./pala resume " D "/%s --quiet --set steps=3100", name);
    T_CHECK(rc == 1 && strstr(out, needle), "checkpoint %s: refused with exit %d, '%s': %s", name, rc, needle, out);
}

static void refused(void)
{
    damaged("flipped", "printf '\\377' | dd of=$c bs=1 seek=2000 conv=notrunc 2>/dev/null", "checksum does not match");
    damaged("truncated", "truncate -s -100 $c", "truncated");
    damaged("version", "printf '\\011' | dd of=$c bs=1 seek=8 conv=notrunc 2>/dev/null", "another format version");
    damaged("foreign", "echo hello > $c", "not a pala checkpoint");
    damaged("missing", "rm $c", "cannot open");
    damaged("shortlog", "truncate -s 100 $(dirname $c)/energy.tsv", "shorter than at the checkpoint");
    /* the scene changed since the run */
    char out[8192];
    t_sh(NULL, 0, "cp examples/settling-box.txt " D "/scene.txt");
    int rc = t_sh(out, sizeof out, "./pala run " D "/scene.txt --quiet --force --set steps=500 -o " D "/changed");
    t_sh(NULL, 0, "sed -i 's/^seed = 11/seed = 12/' " D "/scene.txt");
    rc = t_sh(out, sizeof out, "./pala resume " D "/changed --quiet --set steps=600");
    T_CHECK(rc == 1 && strstr(out, "changed since the run"), "a changed scene: refused with exit %d %s", rc, out);
    /* no run folder there, or a file: a wrong argument, exit 1 (it was 5, a failure to write) */
    rc = t_sh(out, sizeof out, "./pala resume " D "/nosuch --quiet");
    T_CHECK(rc == 1 && strstr(out, "pala resume: " D "/nosuch is not there: give the folder of a run"), "resume of a missing folder: exit %d %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala resume " D "/scene.txt --quiet");
    T_CHECK(rc == 1 && strstr(out, "scene.txt is not a folder"), "resume of a file: exit %d %s", rc, out);
    /* a bad --set of the resume: the resume's own override named, not the scene as changed */
    rc = t_sh(out, sizeof out, "./pala resume " D "/changed --quiet --set steps=-5");
    T_CHECK(rc == 1 && strstr(out, "'steps = -5'") && strstr(out, "with this resume's --set, does not load"), "resume --set steps=-5: exit %d %s", rc, out);
}

/* A full disk (a 300 KB tmpfs; needs root, else skipped): exit 5 within one interval; once
 * the disk is larger, the checkpoint resumes to the same bytes as a run that had room. */
static void full_disk(void)
{
    char out[8192];
    const char *mnt = D "/small";
    t_sh(NULL, 0, "mkdir -p %s", mnt);
    if (t_sh(out, sizeof out, "mount -t tmpfs -o size=300k tmpfs %s", mnt) != 0) {
        t_skip("full disk and resume: cannot mount a tmpfs here (needs root); run make test as root to check it");
        return;
    }
    const char *run = "./pala run examples/settling-box.txt --quiet --force --set end_time=0.05 --set trajectory_every=200 --set checkpoint_every=200";
    int rc = t_sh(out, sizeof out, "%s -o %s/sb", run, mnt);
    const char *p = strstr(out, "stopped at step ");
    long at = p ? atol(p + 16) : -1;
    T_CHECK(rc == 5 && at > 0 && at < 5000 && strstr(out, "failed: No space left on device"), "full disk: exit %d, stopped at step %ld: %s", rc, at, out);
    rc = t_sh(out, sizeof out, "mount -o remount,size=20m %s && ./pala resume %s/sb --quiet", mnt, mnt);
    T_CHECK(rc == 0, "full disk: resumed once there is room (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "%s -o " D "/roomy", run);
    char dir[256];
    snprintf(dir, sizeof dir, "%s/sb", mnt);
    same(dir, D "/roomy", "a run stopped by a full disk, resumed");
    t_sh(NULL, 0, "umount %s", mnt);
}

/* A run with the exports of issue 14 (xyz_every, vtk_every) extended by pala resume: the
 * exports and their collections equal those of one longer run; the scenes of issue 13
 * (a membrane's pressures in walls.tsv, W_field and m_align in energy.tsv) too. */
static void resume_more(void)
{
    char out[4096];
    const char *ten = "./pala run examples/paper-ten-grains.txt --quiet --force --set xyz_every=500 --set vtk_every=1000";
    int rc = t_sh(out, sizeof out, "%s -o " D "/xl --set steps=3000 && %s -o " D "/xe --set steps=1700 && ./pala resume " D "/xe --set steps=3000 --quiet && "
                  "for f in trajectory.xyz vtk/spheres.pvd vtk/grains.pvd vtk/spheres_003000.vtp vtk/grains_003000.vtp; do cmp " D "/xl/$f " D "/xe/$f || exit 1; done",
                  ten, ten);
    T_CHECK(rc == 0, "exports extended by pala resume equal one longer run (trajectory.xyz, both .pvd collections, the last frame) %s", out);
    same(D "/xl", D "/xe", "ten grains with exports, extended");
    /* and scenes with moving walls: a drum, a shear cell's rotor and radial servo, a servo lid */
    static const char *const ex[] = {"osmosis", "magnetic-brush", "drum", "shear-cell", "oedometer"};
    for (int i = 0; i < 5; i++) {
        rc = t_sh(out, sizeof out, "./pala run examples/%s.txt --quiet --force -o " D "/%sl --set steps=2000 --set energy_every=100 && "
                  "./pala run examples/%s.txt --quiet --force -o " D "/%se --set steps=1300 --set energy_every=100 && ./pala resume " D "/%se --set steps=2000 --quiet",
                  ex[i], ex[i], ex[i], ex[i], ex[i]);
        char a[256], b[256], what[128];
        snprintf(a, sizeof a, D "/%sl", ex[i]);
        snprintf(b, sizeof b, D "/%se", ex[i]);
        snprintf(what, sizeof what, "%s extended by pala resume (exit %d)", ex[i], rc);
        same(a, b, what);
    }
}

void test_checkpoint(void)
{
    resume_more();
    t_sh(NULL, 0, "mkdir -p " D);
    signals();
    extend();
    refused();
    full_disk();
}

/* test_writers.c: the writers of a run folder (src/cli/writer.h).  Every file of the
 * table starts with the header its writer writes; rows and frames fall on step 0, the
 * multiples of the writer's cadence and the last step, each once; a file that cannot be
 * written is reported and makes `pala run` exit 5.  The checks go through the table, so
 * a new writer is checked as soon as it has its row. */
#include "t.h"
#include "writer.h"
#include "rundir.h"
#include "traj.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void test_writers(void);

#define DIR "build/tmp/writers"
#define SCENE "examples/paper-ten-grains.txt"

/* The whole file (NUL-terminated; *len its length), or NULL. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *buf = malloc(cap + 1);
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *b = realloc(buf, 2 * cap + 1);
            if (!b) { free(buf); buf = NULL; break; }
            buf = b;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf) buf[n] = 0;
    if (len) *len = n;
    return buf;
}

/* The steps a file holds: the first column of a table's rows, the `frame STEP` lines
 * of trajectory.txt, the `Step=STEP` of trajectory.xyz's comment lines, the files
 * `spheres_STEP.vtp` of spheres.pvd.  Returns how many (at most max). */
static int file_steps(const char *path, long *steps, int max)
{
    size_t len = 0;
    char *text = slurp(path, &len);
    if (!text) return -1;
    if (strstr(path, "trajectory.bin")) {   /* the head, H bytes of header, frames of 16 + 96 N bytes */
        const unsigned char *b = (const unsigned char *)text;
        long g = len >= 24 ? (long)(b[12] | b[13] << 8 | b[14] << 16 | (unsigned long)b[15] << 24) : -1, h = 0, n = 0;
        for (int i = 7; len >= 24 && i >= 0; i--) h = h << 8 | b[16 + i];
        for (size_t at = 24 + (size_t)h; g >= 0 && at + 16 + 96 * (size_t)g <= len; at += 16 + 96 * (size_t)g, n++) {
            long st = 0;
            for (int i = 7; i >= 0; i--) st = st << 8 | b[at + i];
            if (n < max) steps[n] = st;
        }
        free(text);
        return (int)n;
    }
    int n = 0, traj = strstr(path, "trajectory.txt") != NULL, xyz = strstr(path, ".xyz") != NULL, pvd = strstr(path, ".pvd") != NULL;
    char *line = strchr(text, '\n');   /* a table's first line is its header */
    for (char *p = traj || xyz || pvd ? text : (line ? line + 1 : text + strlen(text)); *p; ) {
        char *e = strchr(p, '\n'), *q;
        if (e) *e = 0;
        if (xyz) { if ((q = strstr(p, " Step="))) { if (n < max) steps[n] = strtol(q + 6, NULL, 10); n++; } }
        else if (pvd) { if ((q = strstr(p, "file=\"spheres_"))) { if (n < max) steps[n] = strtol(q + 14, NULL, 10); n++; } }
        else if (!traj) { if (n < max) steps[n] = strtol(p, NULL, 10); n++; }
        else if (!strncmp(p, "frame ", 6)) { if (n < max) steps[n] = strtol(p + 6, NULL, 10); n++; }
        if (e) *e = '\n';
        p = e ? e + 1 : p + strlen(p);
    }
    free(text);
    return n;
}

/* Step 0, every multiple of `every` up to `steps`, and `steps`, each once. */
static int expected_steps(long every, long steps, long *out, int max)
{
    int n = 0;
    out[n++] = 0;
    for (long s = every; every > 0 && s < steps && n < max; s += every) out[n++] = s;
    if (steps > 0 && n < max) out[n++] = steps;
    return n;
}

/* Run SCENE with these cadences, then check every writer's header and steps. */
static void check_run(const char *name, long steps, long eev, long tev, const char *format)
{
    char out[4096], dir[256];
    snprintf(dir, sizeof dir, DIR "/%s", name);
    /* the exports (off unless asked for) at the trajectory's cadence, or only at the ends */
    int rc = t_sh(out, sizeof out, "./pala run " SCENE " -o %s --quiet --set steps=%ld --set energy_every=%ld --set trajectory_every=%ld"
                  " --set xyz_every=%ld --set vtk_every=%ld --set trajectory_format=%s", dir, steps, eev, tev, tev ? tev : steps + 1,
                  tev ? tev : steps + 1, format);
    T_CHECK(rc == 0, "%s: run exits 0 (got %d) %s", name, rc, out);

    /* the header each writer writes for this scene, against the start of its file */
    char control[300];
    snprintf(control, sizeof control, "%s/control.txt", dir);
    pala_scene *sc = NULL;
    if (pala_scene_load(control, 0, NULL, &sc, stderr) != PALA_OK) { T_CHECK(0, "%s: reload %s", name, control); return; }
    pala_output o = {.w = pala_scene_world(sc), .dir = "build/tmp/writers/headers"};
    t_sh(NULL, 0, "mkdir -p build/tmp/writers/headers/vtk");
    for (int i = 0; i < pala_nwriters; i++) {
        const pala_writer *wr = &pala_writers[i];
        char path[600], *head = NULL;
        size_t hlen = 0, flen = 0;
        FILE *m = open_memstream(&head, &hlen);
        if (m) { wr->open(m, &o); fclose(m); }
        snprintf(path, sizeof path, "%s/%s", dir, wr->file);
        if (wr->every(sc) < 0) {   /* not asked for (trajectory.txt or .bin): no file */
            T_CHECK(access(path, F_OK) != 0, "%s: %s is not written", name, wr->file);
            free(head);
            continue;
        }
        char *file = slurp(path, &flen);
        T_CHECK(file && head && flen > 0 && flen >= hlen && !memcmp(file, head, hlen),
                "%s: %s exists and starts with its header (%zu bytes; trajectory.xyz has none)", name, wr->file, hlen);
        free(file);
        free(head);
        if (wr->close) {   /* what follows the last frame, on a scratch stream */
            FILE *z = open_memstream(&head, &hlen);
            if (z) { wr->close(z, &o); fclose(z); free(head); }
        }

        long want[64], got[64];
        int nw = expected_steps(wr->every(sc), steps, want, 64);
        int ng = file_steps(path, got, 64);
        int same = ng == nw;
        for (int k = 0; same && k < nw; k++) same = got[k] == want[k];
        T_CHECK(same, "%s: %s holds %d rows/frames at step 0, every %ld and the last (got %d, want %d)",
                name, wr->file, ng, wr->every(sc), ng, nw);
    }
    if (o.view) { pala_traj_close(o.view); free(o.view); }
    if (o.clist) { pala_contact_list_free(o.clist); free(o.clist); }   /* the contact writers' list (writers.c) */
    pala_scene_free(sc);
}

/* Every writer's file in turn made unwritable (its stream replaced by one of /dev/full,
 * a full disk: pala opens no link in a run folder): closing the writers must report that
 * file, and only that one. */
static void check_full_disk_each(void)
{
    pala_scene *sc0 = NULL, *scb = NULL, *scf = NULL, *scm = NULL;
    /* measure-NAME.tsv: the scene with a [measure] section per writer of them */
    t_sh(NULL, 0, "mkdir -p " DIR " && { cat " SCENE "; for n in a b c d; do printf '[measure %%s]\\nevery = 3\\n' $n; done; } > " DIR "/measures.txt");
    char on1[] = "xyz_every=1", on2[] = "vtk_every=1", on3[] = "contacts_every=1", on4[] = "grains_every=1", on5[] = "trajectory_format=binary",
         on6[] = "contacts_format=binary", *on[] = {on1, on2, on3, on4, on5, on6};   /* every writer writes */
    if (pala_scene_load(SCENE, 4, on, &sc0, stderr) != PALA_OK || pala_scene_load(SCENE, 6, on, &scb, stderr) != PALA_OK ||
        pala_scene_load("examples/pour.txt", 0, NULL, &scf, stderr) != PALA_OK ||   /* flow.tsv: a scene whose grains enter and leave */
        pala_scene_load(DIR "/measures.txt", 0, NULL, &scm, stderr) != PALA_OK) {
        T_CHECK(0, "load %s, examples/pour.txt and measures.txt", SCENE);
        return;
    }
    for (int i = 0; i < pala_nwriters; i++) {
        pala_scene *sc = pala_writers[i].every(sc0) >= 0 ? sc0 : pala_writers[i].every(scb) >= 0 ? scb : pala_writers[i].measure ? scm : scf;
        char dir[256], path[600], errpath[300];
        snprintf(dir, sizeof dir, DIR "/full%d", i);
        snprintf(path, sizeof path, "%s/%s", dir, pala_writers[i].file);
        snprintf(errpath, sizeof errpath, DIR "/full%d.err", i);
        if (t_sh(NULL, 0, "mkdir -p $(dirname %s)", path) != 0) {
            T_CHECK(0, "set up %s", dir);
            continue;
        }
        /* the writers' messages go to stderr: catch them in a file */
        fflush(stderr);
        int saved = dup(2), fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (saved < 0 || fd < 0) { T_CHECK(0, "redirect stderr to %s", errpath); continue; }
        dup2(fd, 2);
        close(fd);
        pala_writer_set logs;
        int bad = -1;
        if (pala_writers_open(&logs, dir, sc, pala_scene_world(sc)) == PALA_OK) {
            FILE *full = fopen("/dev/full", "w");
            if (full && logs.f[i]) { fclose(logs.f[i]); logs.f[i] = full; }
            else if (full) fclose(full);
            pala_writers_start(&logs);
            pala_writers_frame(&logs, 1, 1);
            bad = pala_writers_close(&logs);
        }
        fflush(stderr);
        dup2(saved, 2);
        close(saved);
        char *msg = slurp(errpath, NULL);
        int only = 1;
        for (int k = 0; msg && k < pala_nwriters; k++)
            if (k != i && strstr(msg, logs.file[k])) only = 0;
        T_CHECK(bad == 1 && msg && strstr(msg, logs.file[i]) && strstr(msg, "failed") && only,
                "%s on a full disk: close reports it and no other file (close %d, message: %s)",
                logs.file[i], bad, msg ? msg : "(none)");
        free(msg);
    }
    pala_scene_free(sc0);
    pala_scene_free(scb);
    pala_scene_free(scf);
    pala_scene_free(scm);
}

/* Every file a writer writes is a run folder's file (rundir.c), so that --force replaces it
 * and a folder holding it is recognised as an earlier run's. */
static void check_folder_files(void)
{
    for (int i = 0; i < pala_nwriters; i++) {
        int known = 0;
        for (int k = 0; pala_run_folder.files[k]; k++) known |= !strcmp(pala_run_folder.files[k], pala_writers[i].file);
        T_CHECK(known, "%s is among a run folder's files (rundir.c run_files)", pala_writers[i].file);
    }
}

void test_writers(void)
{
    check_folder_files();
    T_CHECK(t_sh(NULL, 0, "rm -rf " DIR " && mkdir -p " DIR) == 0, "mkdir " DIR);
    check_run("cadence", 100, 7, 30, "text");      /* the last step off both cadences */
    check_run("on-cadence", 60, 20, 60, "text");   /* the last step on both: written once */
    check_run("ends-only", 45, 0, 0, "text");      /* 0: step 0 and the last step only */
    check_run("every-step", 12, 1, 1, "text");
    check_run("binary", 100, 7, 30, "binary");     /* trajectory.bin instead of trajectory.txt */
    check_run("binary-ends", 45, 0, 0, "binary");

    check_full_disk_each();

    /* the whole program: a file that outgrows the disk (here the file size limit, with
     * SIGXFSZ ignored so the write fails as on a full disk) means exit 5, not success */
    char out[4096];
    int rc = t_sh(out, sizeof out, "trap '' XFSZ; ulimit -f 64; ./pala run " SCENE " -o " DIR "/limit --quiet "
                  "--set steps=100 --set energy_every=1 --set trajectory_every=1");
    T_CHECK(rc == 5 && strstr(out, "trajectory.txt failed"), "a trajectory larger than the disk allows: exit %d (want 5), %s", rc, out);
}

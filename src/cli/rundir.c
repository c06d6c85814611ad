/* rundir.c: safe files and locked folders (rundir.h; docs/output-formats.md, "A run folder
 * belongs to one process"). */
#define _DEFAULT_SOURCE   /* flock, O_NOFOLLOW, O_DIRECTORY */
#include "rundir.h"
#include "pala/pala.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

FILE *pala_fopen(const char *path, const char *mode)
{
    int wr = mode[0] == 'w', rw = strchr(mode, '+') != NULL;
    /* O_NONBLOCK: opening a pipe must not wait for a writer; it is refused below anyway */
    int fl = (wr ? O_WRONLY | O_CREAT : rw ? O_RDWR : O_RDONLY) | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC;
    int fd = open(path, fl, 0666);
    if (fd < 0) return NULL;   /* a link: ELOOP */
    struct stat st;
    int e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ? ENODEV : (wr || rw) && st.st_nlink > 1 ? EMLINK : 0;
    if (!e && (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || (wr && ftruncate(fd, 0) != 0))) e = errno;
    FILE *f = e ? NULL : fdopen(fd, mode);
    if (!f) {
        if (!e) e = errno;
        close(fd);
        errno = e;
    }
    return f;
}

const char *pala_strerror(int e)
{
    if (e == ELOOP) return "it is a symbolic link, which pala neither follows nor replaces in the folders it reads and writes";
    if (e == ENODEV) return "it is not a regular file (a folder, a device or a pipe)";
    if (e == EMLINK) return "it has another hard link, whose file writing it would change too";
    return strerror(e);
}

int pala_dir_check(const char *path)
{
    struct stat st;
    return lstat(path, &st) != 0 ? errno : S_ISLNK(st.st_mode) ? ELOOP : !S_ISDIR(st.st_mode) ? ENOTDIR : 0;
}

/* ---- kinds of folder --------------------------------------------------------------- */

static const char *const run_files[] = {"control.txt", "control.txt.tmp*", "energy.tsv", "walls.tsv", "trajectory.txt", "trajectory.bin", "trajectory.xyz", "flow.tsv", "contacts.tsv", "contacts.bin", "grains.tsv", "measure-*",
                                        "vtk/spheres.pvd", "vtk/grains.pvd", "vtk/outlines.pvd", "summary.tsv", "checkpoint.bin", "checkpoint.bin.tmp*", NULL};
static const char *const run_marker[] = {"control.txt", "checkpoint.bin", NULL};
static const char *const run_head[] = {"# effective control file written by pala", "PALACKPT", NULL};
const pala_folder_kind pala_run_folder = {"run", run_files, run_marker, run_head};

/* dir/name is a regular file that starts with head */
static int starts_with(const char *dir, const char *name, const char *head)
{
    char p[4200];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = pala_fopen(p, "r");
    if (!f) return 0;
    char b[64] = {0};
    size_t n = strlen(head) < sizeof b ? strlen(head) : sizeof b - 1;
    int ok = fread(b, 1, n, f) == n && !memcmp(b, head, n);
    fclose(f);
    return ok;
}

/* entry name of a folder matches pattern p (a trailing '*': a prefix) */
static int matches(const char *name, const char *p)
{
    size_t n = strlen(p);
    return n && p[n - 1] == '*' ? !strncmp(name, p, n - 1) : !strcmp(name, p);
}

/* entry name of a folder is the file f of a kind's list, or the subfolder of f "sub/file" */
static int entry_hit(const char *name, const char *f)
{
    const char *sl = strchr(f, '/');
    return sl ? (size_t)(sl - f) == strlen(name) && !strncmp(name, f, (size_t)(sl - f)) : matches(name, f);
}


int pala_is_run_folder(const char *dir)
{
    int run = 0;
    for (int m = 0; pala_run_folder.marker[m]; m++) run |= starts_with(dir, pala_run_folder.marker[m], pala_run_folder.head[m]);
    return run;
}

int pala_refuse_result(const char *path, const char *cmd, const char *instead, FILE *err)
{
    const char *slash = strrchr(path, '/'), *name = slash ? slash + 1 : path;
    char dir[4000];   /* (starts_with joins it with a marker's name in 4200) */
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path < 3999 ? slash - path : 3999), path);
    int result = 0;
    for (int i = 0; run_files[i]; i++)   /* a run's files but the exports' defaults (export writes trajectory.xyz and vtk/ anew) */
        result |= strcmp(run_files[i], "trajectory.xyz") && strncmp(run_files[i], "vtk/", 4) && matches(name, run_files[i]);
    if (!result || !pala_is_run_folder(dir)) return 0;
    fprintf(err, "pala %s: %s is one of its run's own results, which pala %s does not replace; write elsewhere with -o (e.g. -o %s/%s)\n", cmd, path, cmd, dir, instead);
    return 1;
}

/* Visit the files of kind k present in dir (in it, or in its subfolder for a name
 * "sub/file"): count them, or delete them; returns the count, or -1 after a message if
 * one cannot be deleted or is not a regular file. */
static long kind_files(const char *dir, const pala_folder_kind *k, int del, const char *cmd, FILE *err)
{
    long n = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    char p[4200];
    while ((e = readdir(d))) {
        for (int i = 0; k->files[i]; i++) {
            const char *sl = strchr(k->files[i], '/');
            if (!entry_hit(e->d_name, k->files[i])) continue;
            snprintf(p, sizeof p, "%s/%s", dir, sl ? k->files[i] : e->d_name);
            if (sl) {   /* never into the folder a link points to */
                char sub[4200];
                snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
                if (pala_dir_check(sub) == ELOOP) {
                    fprintf(err, "pala %s: %s: %s; refusing the folder %s\n", cmd, sub, pala_strerror(ELOOP), dir);
                    closedir(d);
                    return -1;
                }
            }
            struct stat st;
            if (lstat(p, &st) != 0) continue;   /* vtk/ without that file */
            if (!S_ISREG(st.st_mode)) {
                fprintf(err, "pala %s: %s: %s; refusing the folder %s\n", cmd, p, pala_strerror(S_ISLNK(st.st_mode) ? ELOOP : ENODEV), dir);
                closedir(d);
                return -1;
            }
            n++;
            if (del && unlink(p) != 0) {
                fprintf(err, "pala %s: cannot remove %s: %s\n", cmd, p, strerror(errno));
                closedir(d);
                return -1;
            }
        }
    }
    closedir(d);
    return n;
}

/* 1 if dir holds nothing, 0 if it holds something, -1 (errno set) if it cannot be read. */
static int empty_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return -1;
    struct dirent *e;
    int empty = 1;
    while (empty && (e = readdir(d))) empty = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..");
    closedir(d);
    return empty;
}

/* A start that stopped before its marker was written whole (a full disk, no file handles
 * left, a kill): the marker is an empty regular file, or absent beside its temporary file
 * (MARKER.tmp.PID), and every entry is one of the kind's files. */
static int unfinished_start(const char *dir, const pala_folder_kind *k)
{
    char p[4200], tmp[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/%s", dir, k->marker[0]);
    snprintf(tmp, sizeof tmp, "%s.tmp.", k->marker[0]);
    int there = lstat(p, &st) == 0;
    if (there && (!S_ISREG(st.st_mode) || st.st_size != 0)) return 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    int all = 1, temp = 0;
    for (struct dirent *e; all && (e = readdir(d));) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        int hit = 0;
        for (int i = 0; k->files[i] && !hit; i++) hit = entry_hit(e->d_name, k->files[i]);
        all = hit;
        temp |= !strncmp(e->d_name, tmp, strlen(tmp));
    }
    closedir(d);
    return all && (there || temp);
}

int pala_mkdir_p(const char *dir, const char *cmd, FILE *err)
{
    char p[4096];
    snprintf(p, sizeof p, "%s", dir);
    for (char *q = p + 1; *q; q++)
        if (*q == '/') { *q = 0; mkdir(p, 0777); *q = '/'; }
    if (mkdir(p, 0777) != 0 && errno != EEXIST) { fprintf(err, "pala %s: cannot create %s: %s\n", cmd, dir, strerror(errno)); return PALA_ERR_IO; }
    return PALA_OK;
}

int pala_folder_prepare(const char *dir, const pala_folder_kind *k, int force, const char *cmd, int *fd, FILE *err)
{
    *fd = -1;
    struct stat st;
    if (strlen(dir) > PALA_DIR_MAX) {   /* before anything is made: its files' paths must fit */
        fprintf(err, "pala %s: the folder's name is %zu characters long, more than the %d its files' paths leave room for; choose a shorter -o\n", cmd,
                strlen(dir), PALA_DIR_MAX);
        return PALA_ERR_INPUT;
    }
    if (stat(dir, &st) != 0) {
        if (pala_mkdir_p(dir, cmd, err)) return PALA_ERR_IO;
    } else if (!S_ISDIR(st.st_mode)) {
        fprintf(err, "pala %s: %s exists and is not a folder; choose another with -o\n", cmd, dir);
        return PALA_ERR_INPUT;
    }
    /* the lock first: another process's files are neither judged nor deleted */
    int rc = pala_rundir_lock(dir, cmd, fd, err);
    if (rc) return rc;
    int empty = empty_dir(dir);
    if (empty < 0) {
        fprintf(err, "pala %s: cannot read the folder %s: %s\n", cmd, dir, strerror(errno));
        pala_rundir_unlock(*fd);
        *fd = -1;
        return PALA_ERR_IO;
    }
    if (empty) return PALA_OK;
    int ours = unfinished_start(dir, k);
    for (int i = 0; k->marker[i] && !ours; i++) ours = starts_with(dir, k->marker[i], k->head[i]);
    long n = ours ? kind_files(dir, k, 0, cmd, err) : 0;
    if (!ours) {
        fprintf(err, "pala %s: %s is not empty and is not a folder of a pala %s (it has no %s written by pala); pala writes only into a new "
                "folder, an empty one, or one of its own %ss, and --force does not change that: choose another folder with -o\n",
                cmd, dir, k->what, k->marker[0], k->what);
        rc = PALA_ERR_INPUT;
    } else if (n < 0) rc = PALA_ERR_INPUT;
    else if (n > 0 && !force) {
        fprintf(err, "pala %s: %s holds the results of an earlier %s; choose another folder with -o DIR, or add --force to overwrite it\n", cmd, dir, k->what);
        rc = PALA_ERR_INPUT;
    } else if (n > 0 && kind_files(dir, k, 1, cmd, err) < 0) rc = PALA_ERR_IO;
    if (rc) { pala_rundir_unlock(*fd); *fd = -1; }
    return rc;
}

/* ---- the lock ----------------------------------------------------------------------- */

int pala_rundir_lock(const char *dir, const char *cmd, int *fd, FILE *err)
{
    *fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (*fd < 0) { fprintf(err, "pala %s: cannot open the folder %s: %s\n", cmd, dir, strerror(errno)); return PALA_ERR_IO; }
    if (flock(*fd, LOCK_EX | LOCK_NB) == 0) return PALA_OK;
    int e = errno;
    close(*fd);
    *fd = -1;
    if (e == EWOULDBLOCK) {
        fprintf(err, "pala %s: %s is in use by another pala process (a run, resume or order writing into it); "
                "wait for it to end%s (exit code %d)\n", cmd, dir, !strcmp(cmd, "resume") ? "" : !strcmp(cmd, "export") ? ", or write elsewhere with -o" : ", or choose another folder with -o", PALA_ERR_BUSY);
        return PALA_ERR_BUSY;
    }
    fprintf(err, "pala %s: cannot lock the folder %s: %s\n", cmd, dir, strerror(e));
    return PALA_ERR_IO;
}

void pala_rundir_unlock(int fd)
{
    if (fd >= 0) close(fd);
}

int pala_rundir_present(const char *dir, int fd)
{
    struct stat a, b;
    if (fd < 0) return 1;
    return fstat(fd, &a) == 0 && a.st_nlink > 0 && stat(dir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

void pala_tmpname(char *buf, size_t len, const char *path)
{
    snprintf(buf, len, "%s.tmp.%ld", path, (long)getpid());
}

/* rundir.h: the files and folders pala writes, made safe against what a folder may hold
 * (docs/output-formats.md, "A run folder belongs to one process"):
 *   - every file of the command line is opened through pala_fopen: a symbolic link is
 *     never followed, anything but a regular file (a device, a pipe, a folder) is refused,
 *     opening a pipe never blocks, and a file written has no second hard link;
 *   - a run folder belongs to one process at a time: `run`, `resume` and `order` lock it
 *     (an advisory lock on the folder itself, gone when the process ends: a killed run
 *     leaves no stale lock, and the folder holds no lock file);
 *   - `run` and `order` use an existing folder only if it is empty or pala's own, and
 *     `--force` deletes only the files pala writes there. */
#ifndef PALA_RUNDIR_H
#define PALA_RUNDIR_H
#include <stddef.h>
#include <stdio.h>

/* The exit code of a command whose folder another pala process holds (docs/cli.md). */
enum { PALA_ERR_BUSY = 6 };

/* fopen(path, mode) for the modes "r", "rb", "r+", "w", "wb": NULL (errno set) for a
 * symbolic link (ELOOP), a file that is not regular (ENODEV), or a file to write that has
 * another hard link (EMLINK); "w" truncates a regular file only. */
FILE *pala_fopen(const char *path, const char *mode);
/* strerror(e), with the refusals of pala_fopen in words. */
const char *pala_strerror(int e);

/* 1 after a message naming cmd to err (and suggesting the file name instead) if path is one
 * of a run folder's own results (its energy.tsv, trajectory.txt, control.txt, ...: the
 * files of pala_run_folder but the exports' defaults trajectory.xyz and vtk/), which no
 * other command may replace; else 0. */
int pala_refuse_result(const char *path, const char *cmd, const char *instead, FILE *err);
/* 1 if dir is a run's folder (one of its markers there: pala_run_folder). */
int pala_is_run_folder(const char *dir);
/* 0 if path is a folder itself (not a link to one), else an errno for pala_strerror. */
int pala_dir_check(const char *path);

/* A kind of folder pala writes: the files it writes there (NULL-terminated; a name
 * ending in '*' stands for every name that starts so), and how a folder of that kind is
 * recognised: one of marker[] (NULL-terminated) exists as a regular file whose first
 * bytes are head[] of the same index. */
/* The longest folder name pala_folder_prepare takes: its files' paths (a name, a
 * checkpoint's temporary name with a process number) must fit in PATH_MAX, 4096. */
#define PALA_DIR_MAX 3900

typedef struct pala_folder_kind {
    const char *what;                   /* "run", "order": for the messages */
    const char *const *files;
    const char *const *marker, *const *head;
} pala_folder_kind;
extern const pala_folder_kind pala_run_folder;

/* mkdir -p DIR (the folder and those above it): PALA_OK, or PALA_ERR_IO with a message
 * naming cmd to err. */
int pala_mkdir_p(const char *dir, const char *cmd, FILE *err);
/* The folder a command writes into: created if missing (mkdir -p) and locked for this
 * process (*fd holds the lock until exit or pala_rundir_unlock).  An existing folder must
 * be empty, or of kind k: then, if it holds any of k's files, it is refused without force
 * (PALA_ERR_INPUT) and those files (only those) are deleted with it.  Anything else is
 * refused with or without force (PALA_ERR_INPUT); a folder another process holds is
 * PALA_ERR_BUSY; one that cannot be made or read PALA_ERR_IO.  Messages name cmd. */
int pala_folder_prepare(const char *dir, const pala_folder_kind *k, int force, const char *cmd, int *fd, FILE *err);
/* Lock an existing folder (pala resume): 0, PALA_ERR_BUSY or PALA_ERR_IO as above. */
int pala_rundir_lock(const char *dir, const char *cmd, int *fd, FILE *err);
void pala_rundir_unlock(int fd);
/* Whether dir is still the folder locked by fd (not deleted, not replaced). */
int pala_rundir_present(const char *dir, int fd);

/* A temporary name beside path that no other process uses: path.tmp.PID */
void pala_tmpname(char *buf, size_t len, const char *path);

#endif

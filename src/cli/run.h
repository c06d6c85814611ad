/* run.h: `pala run`: a scene run into a folder of logs. */
#ifndef PALA_RUN_H
#define PALA_RUN_H
#include "pala/pala.h"

typedef struct pala_run_opts {
    const char *scene;       /* control file */
    const char *outdir;      /* NULL: default <scene name>.run */
    int force;               /* overwrite results of an earlier run */
    int quiet;               /* no progress line, no summary */
    int threads;             /* threads of the step; 0: all cores */
    double progress;         /* > 0: a progress line to stderr every this many seconds,
                                terminal or not (--progress, or PALA_PROGRESS) */
    int nset;                /* overrides KEY=VALUE */
    char **sets;
    int cmdc; char **cmdv;   /* the command line, recorded in the folder */
    const char *resume;      /* pala resume: the run folder to continue (scene and outdir unused) */
} pala_run_opts;

/* Returns the exit code (enum pala_status). */
int pala_run(const pala_run_opts *o);
/* pala resume RUN --info: what the run's checkpoint holds (exit code). */
int pala_run_info(const char *dir);
/* Default output folder of a scene: basename without extension + ".run". */
void pala_run_default_dir(const char *scene, char *buf, size_t len);

#endif

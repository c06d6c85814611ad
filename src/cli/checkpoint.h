/* checkpoint.h: a run's checkpoint, checkpoint.bin: the state `pala resume` continues from
 * bit for bit (docs/output-formats.md, "checkpoint.bin").  A versioned header (magic, version,
 * byte order, payload length, checksum), then a table of named fields; a new accumulator or
 * array of the world is one more row of the table in checkpoint.c. */
#ifndef PALA_CHECKPOINT_H
#define PALA_CHECKPOINT_H
#include "pala/pala.h"
#include "writer.h"
#include <stdint.h>

/* PALA_CKPT_FILE, PALA_CKPT_VERSION and the reading of the file's fields: pala.h (restart.c) */

/* What a checkpoint says about its run, beside the world's state. */
typedef struct pala_ckpt_run {
    char scene[4096];              /* the control file, absolute path */
    int nset;                      /* the run's --set overrides */
    char **sets;                   /* owned (pala_ckpt_run_free) */
    uint64_t scene_hash;           /* FNV-1a 64 of the control file's bytes */
    uint64_t data_hash;            /* ... of its lammps_data file (0 if none) */
    uint64_t settings_hash;        /* ... of the effective settings but steps and end_time */
    uint64_t mesh_hash;            /* ... of its [wall]s' mesh files (0 if none) */
    int has_mesh_hash;             /* the checkpoint holds it (written since session 31) */
    long steps;                    /* steps asked for when written */
    int status;                    /* 0 running (a periodic checkpoint), 4 interrupted, -1 finished */
    double wall;                   /* wall time of the run so far, s */
    long offset[PALA_MAX_WRITERS]; /* bytes of each writer's file (pala_writers) at the step */
    pala_energy_stats energy;      /* the statistics of energy.tsv for summary.tsv */
    pala_wall_prev walls;          /* walls.tsv's previous row (its mean pressures) */
    pala_flow_prev flow;           /* flow.tsv's previous row (its rates) */
} pala_ckpt_run;

void pala_ckpt_run_free(pala_ckpt_run *r);
/* The hashes of r for scene sc (scene_hash, data_hash, settings_hash); returns nonzero, with
 * a message, if the control file cannot be read. */
int pala_ckpt_hash_scene(pala_ckpt_run *r, const pala_scene *sc, const char *scene_path, FILE *err);
/* Write dir/checkpoint.bin atomically (a temporary file, then rename): a crash or a full
 * disk keeps the previous one.  Returns 0, or nonzero after a message on stderr. */
int pala_ckpt_write(const char *dir, const pala_world *w, const pala_ckpt_run *r);
/* Before a resume steps: removes the temporary checkpoint files of writers killed mid-write
 * (the caller holds the folder's lock) and checks that a new one can be created there.
 * Returns 0, or PALA_ERR_IO after a message on err. */
int pala_ckpt_probe(const char *dir, FILE *err);
/* Read dir/checkpoint.bin into r and keep the world's fields for pala_ckpt_apply.  A
 * missing, truncated, foreign or damaged file (checksum), or another version or byte
 * order, is refused with a message: returns nonzero. */
typedef struct pala_ckpt pala_ckpt;
int pala_ckpt_read(const char *dir, pala_ckpt **out, pala_ckpt_run *r, FILE *err);
/* Check that w, built from the same scene, has the checkpoint's grains and templates, and
 * restore its state (time, step, E_diss, wall impulses, every grain's x r v omega alpha
 * beta).  Returns nonzero after a message if the world differs. */
int pala_ckpt_apply(const pala_ckpt *c, pala_world *w, FILE *err);
/* FNV-1a 64 of the world's state (what pala_ckpt_apply restores), for `pala resume --info`. */
uint64_t pala_ckpt_state_hash(const pala_ckpt *c);
/* Number of grains, the step of the checkpoint and its time as energy.tsv writes it (step x dt). */
void pala_ckpt_where(const pala_ckpt *c, int *n, double *t, long *step);
void pala_ckpt_free(pala_ckpt *c);

#endif

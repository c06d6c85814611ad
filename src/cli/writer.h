/* writer.h: the files of a run folder that grow during the run (energy.tsv, walls.tsv,
 * trajectory.txt: docs/output-formats.md) are writers.  A writer names its file, writes
 * the header when the run starts, and a row or frame at each of its output steps; the
 * run closes every file and reports any write error (a full disk is exit code 5, never a
 * silent success).  writers.c holds them in one table, pala_writers: a new output
 * format is one set of functions and one row there, not an edit to run.c's loop. */
#ifndef PALA_WRITER_H
#define PALA_WRITER_H
#include "pala/pala.h"
#include <stdio.h>

/* E_total over the rows of energy.tsv: summary.tsv and the summary line report it. */
typedef struct pala_energy_stats {
    long rows;                         /* rows written so far */
    double initial, final, min, max;   /* J */
    double final_rel, max_abs_rel;     /* dE_rel of the last row, largest |dE_rel| */
    double max_abs_bal;                /* largest |dE_bal_rel|: the health of the run */
    double max_abs_drift;              /* largest |E_total + E_diss - W_field - W_walls + E_out - E_in
                                          - E_total(0)|, J: the same drift in joules (each row's
                                          dE_bal_rel times its own denominator) */
} pala_energy_stats;

/* The momentum columns of walls.tsv at its previous row, for the mean pressures over the
 * interval since. */
#define PALA_MAX_WALL_COLUMNS 512
/* a checkpoint keeps the previous row of walls.tsv in 2 + max(this, the columns) doubles
 * (the count of the checkpoints written before the walls of [wall] sections) */
#define PALA_CKPT_WALL_COLUMNS 16
typedef struct pala_wall_prev {
    long rows;                         /* rows written so far */
    double t;                          /* time of the previous row, s */
    double P[PALA_MAX_WALL_COLUMNS];   /* its momenta, N s */
} pala_wall_prev;

/* The counts and masses of flow.tsv's feeds at its previous row, for the rates over the
 * interval since. */
typedef struct pala_flow_prev {
    long rows;                         /* rows written so far */
    double t;                          /* time of the previous row, s */
    double count[PALA_MAX_FEEDS];      /* grains of each feed then */
    double mass[PALA_MAX_FEEDS];       /* kg */
} pala_flow_prev;

/* What every writer sees: the run's world, its folder, and the results the writers keep
 * for the end of the run. */
typedef struct pala_output {
    pala_world *w;              /* not const: an energy costs a contact pass */
    const char *dir;            /* the run folder */
    pala_energy_stats energy;   /* kept by the energy.tsv writer */
    pala_wall_prev walls;       /* kept by the walls.tsv writer */
    pala_flow_prev flow;        /* kept by the flow.tsv writer */
    /* the exports (xyz_every, vtk_every): the world in input order (traj.h), made by the
       first export writer that writes */
    struct pala_traj *view;
    int vtk_binary;             /* vtk_format = binary */
    struct pala_binq *binq;     /* trajectory.bin: its frames' bytes and the thread writing them */
    /* contacts.tsv, contacts.bin, grains.tsv: the contacts of the current state
       (pala_world_contact_list), made by the first of them that writes at a step and read
       by the others at that step */
    pala_contact_list *clist;
    long clist_step;
    double clist_t;
    /* the [measure NAME] sections (measure-NAME.tsv): each one's keys, and its measurer of the
       world's frame (measure.h), made at its first row */
    pala_measure_spec measure[PALA_MAX_MEASURES];
    struct pala_meas *meas[PALA_MAX_MEASURES];
} pala_output;

typedef struct pala_writer {
    const char *file;                          /* its file in the run folder */
    long (*every)(const pala_scene *sc);       /* steps between its frames; 0: the first
                                                  and last only (both are always written);
                                                  < 0: not written (no file) */
    void (*open)(FILE *f, pala_output *o);     /* the header; the state is at step 0 */
    void (*frame)(FILE *f, pala_output *o);    /* a row or frame of the current state */
    void (*close)(FILE *f, pala_output *o);    /* NULL, or what follows the last frame */
    /* NULL, or (a writer whose frames a thread of its own writes) the error of its
       frames written so far (an errno, 0 if none); with wait, once the last frame is in
       the file.  The run calls it before it flushes, measures or closes the file. */
    int (*sync)(pala_output *o, int wait);
    int measure;                               /* 0, or 1 + k: the writer of the k-th [measure
                                                  NAME] section, whose file is measure-NAME.tsv
                                                  (file: "measure-*", the pattern of them all) */
} pala_writer;

/* The table, in the order the writers write at a common step (writers.c). */
extern const pala_writer pala_writers[];
extern const int pala_nwriters;

/* The name of writer i's offset in checkpoint.bin: "run.offset:" and its file (a [measure]
 * section's: "measure-*#k", k from 1). */
void pala_writer_key(int i, char *buf, size_t len);

/* The writers of one run, open. */
#define PALA_MAX_WRITERS 16
typedef struct pala_writer_set {
    pala_output out;
    char file[PALA_MAX_WRITERS][48];    /* the file of each writer in the run folder */
    FILE *f[PALA_MAX_WRITERS];
    long every[PALA_MAX_WRITERS];
    double flushed[PALA_MAX_WRITERS];   /* pala_now() of each file's last flush */
} pala_writer_set;

/* Create every writer's file in dir (and the folder of a file named "sub/file").  If one cannot be created, says so on stderr,
 * closes the others and returns PALA_ERR_IO; the headers are not written yet. */
int pala_writers_open(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w);
/* The headers, and the frames of step 0.  Like pala_writers_frame, returns nonzero after
 * saying on stderr which file could not be written. */
int pala_writers_start(pala_writer_set *ws);
/* The first step after s at which a writer writes, or end if none does before it. */
long pala_writers_next(const pala_writer_set *ws, long s, long end);
/* A frame of every writer whose cadence falls on step s, or of all when last is set.  Each
 * file written is checked at once, and flushed if its last flush is 20 ms old (a frame
 * larger than the buffer is written at once anyway): returns nonzero, after saying on
 * stderr which file failed and why (a full disk), if one could not be written. */
int pala_writers_frame(pala_writer_set *ws, long s, int last);
void pala_writers_flush(pala_writer_set *ws);
/* At a stop: the frames of the writers whose cadence does not fall on step s (those that do
 * wrote with pala_writers_frame), checked like it. */
int pala_writers_frame_rest(pala_writer_set *ws, long s);
/* Flush every file and give the bytes written to each so far; nonzero (after a message) if
 * a file could not be written. */
int pala_writers_offsets(pala_writer_set *ws, long *off);
/* pala resume: open the files of dir again, cut each to off[i] bytes (what it held at the
 * checkpoint) and append from there; no headers.  With a message: PALA_ERR_INPUT if one
 * is missing, not a regular file or shorter; PALA_ERR_IO if one may not be written. */
int pala_writers_reopen(pala_writer_set *ws, const char *dir, const pala_scene *sc, pala_world *w, const long *off);
/* Close every file; returns nonzero (and says which on stderr) if one failed. */
int pala_writers_close(pala_writer_set *ws);

/* The time of the current state in every file of a run: step * dt, s. */
double pala_output_time(const pala_world *w);

/* Create dir/name for writing; on failure says why on stderr and returns NULL. */
FILE *pala_output_fopen(const char *dir, const char *name);
/* Close a file of the run folder; a write error anywhere in it (full disk...) is
 * reported on stderr and returns nonzero. */
int pala_output_fclose(FILE *f, const char *dir, const char *name);

#endif

/* contacts.h: what a run writes of its contacts (docs/output-formats.md): contacts.tsv
 * (key contacts_every) or contacts.bin (contacts_format = binary), every contact of a frame
 * from the world's contact list (pala_world_contact_list), and grains.tsv (grains_every),
 * each grain's state with the sums of its contacts and its coordination number; and the
 * reading of both contact files back, frame by frame, for pala measure (contacts.c). */
#ifndef PALA_CONTACTS_H
#define PALA_CONTACTS_H
#include "pala/pala.h"
#include "par.h"
#include <stdio.h>

/* contacts.bin: the magic, uint32 version, uint32 bytes of a record R, uint32 float64 per
 * record D (11, or 15 with the moments), uint32 faces F, then F names of 32 bytes (NUL
 * padded; "" for a face no wall has); per frame int64 step, float64 time, int64 count, then
 * count records of R = 24 + 8 D bytes: int32 i, ci, j, cj, face, 0; float64 x y z, nx ny nz,
 * overlap, fn, ftx fty ftz [, mrx mry mrz, mt].  Little-endian on every host. */
#define PALA_CONT_BIN_MAGIC "PALACONT"
#define PALA_CONT_BIN_VERSION 1u
enum { PALA_CONT_NAME = 32 };

/* The writers' parts (writers.c): a header, and a frame of the list L of the world's
 * current state. */
void pala_contacts_tsv_open(FILE *f, const pala_world *w, int moments);
void pala_contacts_tsv_frame(FILE *f, const pala_world *w, const pala_contact_list *L);
void pala_contacts_bin_open(FILE *f, const pala_world *w, int moments);
void pala_contacts_bin_frame(FILE *f, const pala_world *w, const pala_contact_list *L);
void pala_grains_tsv_open(FILE *f);
void pala_grains_tsv_frame(FILE *f, const pala_world *w, const pala_contact_list *L);

/* A contact file read frame by frame. */
typedef struct pala_cfile {
    FILE *f;
    char path[4200];
    int binary;
    int moments;           /* the records hold the moments */
    int nface;
    char (*face)[PALA_CONT_NAME];   /* the walls' face names (the binary's table; the text's as met) */
    long step;             /* the current frame */
    double time;
    long n, cap;
    pala_contact *c;
    /* reading */
    long line;
    char *buf;
    size_t buflen;
    int pending;           /* text: buf holds the next frame's line */
    int rec, dbl;          /* binary: bytes of a record, float64 per record */
    unsigned char *rbuf;   /* binary: a frame's records */
    size_t rcap;
    pala_rows rows;        /* text: a frame's rows */
    char (*wname)[PALA_CONT_NAME];   /* text: each row's wall face name */
} pala_cfile;

/* Open RUN's contacts.tsv or else contacts.bin (RUN a run folder or either file): PALA_OK,
 * or PALA_ERR_INPUT with `path: ` and what is wrong on err (no contact file: which key
 * writes one; err NULL: nothing said). */
int pala_cfile_open(pala_cfile *cf, const char *run, FILE *err);
/* The next frame: 1, 0 at the end, -1 on a malformed or cut frame (said on err). */
int pala_cfile_next(pala_cfile *cf, FILE *err);
void pala_cfile_close(pala_cfile *cf);

/* The coordination of grain numbers 0..n-1 from nc contacts: the grains each touches, a pair
 * of clumps once however many of their components touch (z), and the wall faces it touches
 * (zw); keys: room for nc numbers (the contacts' pairs, sorted, each counted once). */
void pala_contact_coordination(const pala_contact *c, long nc, long n, int *z, int *zw, unsigned long long *keys);
/* The pictures' fields of grain numbers 0..n-1 at cf's current frame: the coordination z (as
 * above) and the magnitude of the sum of its contacts' forces F, N (grains.tsv's Fx Fy Fz). */
void pala_cfile_grain_fields(const pala_cfile *cf, long n, double *z, double *F);

#endif

/* traj.h: a run's grains as the pictures and exports see them: the header of
 * trajectory.txt (dimension, walls, gravity, grain templates, the type of each grain)
 * and one frame of grain states, in the input's grain order.  It is filled either by
 * reading trajectory.txt (pala_traj_open, pala_traj_next) or from a running world
 * (pala_traj_from_world, pala_traj_take), so `pala export` and the writers xyz_every and
 * vtk_every write the same bytes through the same functions (export.c). */
#ifndef PALA_TRAJ_H
#define PALA_TRAJ_H
#include "pala/pala.h"
#include "par.h"
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* trajectory.bin (key trajectory_format = binary; docs/output-formats.md): the magic,
 * uint32 version, uint32 grains, uint64 H, H bytes of trajectory.txt's header, then per
 * frame int64 step, float64 time and 12 float64 per grain.  Little-endian on every host. */
#define PALA_TRAJ_BIN_MAGIC "PALATRAJ"
#define PALA_TRAJ_BIN_VERSION 1u
/* version 2: grains enter and leave; the head's grains are 0, each frame has int64 step,
 * float64 time, int64 count, then per grain int32 number, int32 template and 12 float64 */
#define PALA_TRAJ_BIN_VARIABLE 2u
#define PALA_TRAJ_BIN_HEAD 24
static inline void pala_le64(unsigned char *p, uint64_t v) { for (int i = 0; i < 8; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static inline void pala_le32(unsigned char *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i)); }
static inline void pala_le_double(unsigned char *p, double d) { uint64_t v; memcpy(&v, &d, 8); pala_le64(p, v); }
static inline uint64_t pala_get_le64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}
static inline double pala_get_le_double(const unsigned char *p) { uint64_t v = pala_get_le64(p); double d; memcpy(&d, &v, 8); return d; }

typedef struct pala_traj {
    /* the header */
    int dim;                    /* 2 or 3 */
    char container[32];         /* the container's kind, as the header names it ("none") */
    pala_world walls;           /* the walls, read from their header lines (a world of walls
                                   only, its time the frame's): pala_traj_shapes draws them */
    pala_vec3 g;                /* field, m/s^2 */
    int ntmpl;
    char (*tname)[64];          /* the [grain NAME] of each template */
    int *ncomp, *comp0;         /* components of each template, first in shape[] */
    double *bound;              /* bounding radius of each template, m */
    double *mass, *volume;      /* mass, kg, and volume (the union of its components'), m^3, of
                                   each template */
    pala_vec3 *shape;           /* body-frame shape vectors of all templates, m */
    double *srad;               /* component radii, m */
    double *sarc;               /* arc grains: each component's ends' directions a0 < a1 in the
                                   body frame (rad; 2 per component, 0 0: a whole circle);
                                   NULL when no template has arcs */
    int nshape;
    int n;                      /* grains (of the current frame when variable) */
    int *tid;                   /* template of each grain */
    long npeb;                  /* component spheres of all grains */
    int variable;               /* grains enter and leave (trajectory version 2): n, tid, id and
                                   npeb are the current frame's */
    int *id;                    /* variable: the number of each grain of the frame (its place in
                                   the input; they increase), else NULL (grain k is number k) */
    int cap;                    /* room in the per-grain arrays */
    /* the current frame */
    long step;
    double time;                /* s */
    pala_vec3 *x, *r, *v, *w;   /* per grain, input order */
    long frames;                /* frames read so far */
    /* reading */
    FILE *f;
    const char *path;
    long line;
    char *buf;
    size_t buflen;
    int binary;                 /* 1: trajectory.bin */
    long data0;                 /* binary: the offset of the first frame */
    unsigned char *fbuf;        /* binary: one frame's bytes */
    pala_rows rows;             /* text: one frame's lines */
} pala_traj;

/* Open RUN's trajectory (RUN a run folder, whose trajectory.txt or else trajectory.bin is
 * read, or a trajectory file of either form) and read its header.  Returns PALA_OK, or
 * PALA_ERR_INPUT with `path:line: ` (binary: `path: `) and what is wrong on err. */
int pala_traj_open(pala_traj *t, const char *run, FILE *err);
/* Read the next frame: 1, 0 at the end, -1 on a malformed or truncated frame (said on err). */
int pala_traj_next(pala_traj *t, FILE *err);
/* The number of frames in the file, read or not (a partial last frame of trajectory.bin
 * is not counted); the reading position is kept. */
long pala_traj_count(pala_traj *t);
void pala_traj_close(pala_traj *t);

/* The header of a world (its templates, the type of each input grain; variable if grains
 * enter or leave it). */
void pala_traj_from_world(pala_traj *t, const pala_world *w);
/* The world's current state as the frame, in input order, with time step * dt. */
void pala_traj_take(pala_traj *t, const pala_world *w);
/* The number of grain k of the frame (its place in the input). */
static inline int pala_traj_id(const pala_traj *t, int k) { return t->id ? t->id[k] : k; }

/* Component c (global shape index) of grain k at the current frame: centre (eq. 50,
 * c = x + r * b with r * b of eq. 6) and velocity v + omega x (c - x). */
pala_vec3 pala_traj_centre(const pala_traj *t, int k, int c);
pala_vec3 pala_traj_comp_velocity(const pala_traj *t, int k, pala_vec3 centre);
/* Component c is an arc (of an arc grain: its circle is not its outline). */
static inline int pala_traj_is_arc(const pala_traj *t, int c) { return t->sarc && t->sarc[2 * c + 1] > t->sarc[2 * c]; }
/* The sphere the exports draw for component c of grain k: its own, or, for an arc, the arc's
 * bounding circle (its circle can be far larger than the grain); *R its radius. */
pala_vec3 pala_traj_comp_sphere(const pala_traj *t, int k, int c, double *R);
/* Grain k's outline when its template has arcs: the world points of its arcs' ends and the
 * arcs' radii, starting at the first arc's start (pts[i] to pts[i + 1] along arc i, the last
 * ending at pts[0]); returns the number of arcs, 0 if it has none. */
int pala_traj_arcs(const pala_traj *t, int k, pala_vec3 *pts, double *rad, double *span, int max);
/* The shapes the walls are drawn with at the current frame (pala_world_wall_draw), at most
 * max into out; their number. */
int pala_traj_shapes(const pala_traj *t, pala_draw *out, int max);
enum { PALA_TRAJ_SHAPES = 512 };   /* room for every shape of a run's walls */
/* Axis-aligned bounds of the walls' shapes but guides (a sphere's cube; in 2D a circle as
 * thick as the largest component), or, along an axis they leave unbounded (a box's z in
 * 2D) or without walls, of the current frame's spheres. */
void pala_traj_bounds(const pala_traj *t, pala_vec3 *lo, pala_vec3 *hi);
/* Axis-aligned bounds of the current frame's spheres (an arc grain's bounding circle);
 * -1 to 1 without grains. */
void pala_traj_grain_bounds(const pala_traj *t, pala_vec3 *lo, pala_vec3 *hi);

/* The grain type of each template (kind[0..ntmpl)): the index of its name among the distinct
 * names in order of first appearance (the shapes of a random type share their name); returns
 * the number of names. */
int pala_traj_kinds(const pala_traj *t, int *kind);

/* The run folder of RUN (RUN itself, or the folder of a trajectory file), in buf. */
void pala_traj_rundir(const char *run, char *buf, size_t len);
/* A colour per grain-type name (the shapes of a random type share their name): for each
 * template, the number of distinct names that first appear before its name does; an array
 * of t->ntmpl (free it), in n log n of the templates. */
int *pala_traj_name_colours(const pala_traj *t);

#endif

/* container.h: the walls, behind one interface.  A wall (pala_wall, pala.h) is a kind with
 * its parameters and its material; the world holds a list of them, the container first
 * (box.c, cavity.c), then the walls inside it (membrane.c).  A kind owns the whole life of
 * its walls: its control-file keys, bound to its own parameter struct, and their checks
 * (2D included); its geometry, the touches of a component with the velocity of its surface
 * there; its walls.tsv columns; its line of the trajectory header and how that line is read
 * back; the shapes it is drawn with.  The force pass, the placement, the world's checks, the
 * scene reader and the command line reach a kind only through the functions below, so a
 * new kind is one file and a row of the table in container.c (docs/design.md, "Adding a
 * wall kind").
 *
 * A wall touches a component like a component (docs/physics.md, "Walls"): the force pass
 * batches the touches through the contact kernel. */
#ifndef PALA_CONTAINER_H
#define PALA_CONTAINER_H
#include "pala/pala.h"
#include <stddef.h>

/* One touch of a wall: component (centre c, radius a) of a grain, face (an index into
 * the wall impulses: < 6 the container's faces, of material wall_mat; PALA_FACE_MEMBRANE
 * and up a wall inside it, of mem_mat), inward normal n of the wall, the velocity vs of the
 * wall's surface at the contact point (0 for a wall that does not move), overlap ov > 0, m,
 * and r~ of the pair (eq. 55 with the wall's radius of curvature; a flat wall has r~ = 2a). */
typedef struct pala_wall_touch {
    pala_vec3 c, n;
    pala_vec3 vs;   /* m/s */
    double a, ov, rt;
    int face;
    int k;   /* the grain */
    int p;   /* the component's pebble */
    unsigned id;   /* which wall: the face, or a membrane's bar (its state's key, contact.h) */
} pala_wall_touch;
/* The most touches one component can have with a container (six faces of a box); the
 * faces of the walls inside it follow the container's six. */
enum { PALA_TOUCH_PER_COMP = 6, PALA_FACE_MEMBRANE = 6 };

struct pala_keydef;
typedef struct pala_wall_kind {
    const char *name;    /* its word: `container = NAME` picks a container; the first word of
                            its trajectory header line */
    const char *what;    /* what a grain may cut into, for messages ("the box wall") */
    int container;       /* 1: a container (walls[0]); 0: a wall inside the container */
    int nfaces;          /* faces of its momentum accounts (a container has room for six) */
    size_t size;         /* bytes of its parameters (pala_wall.par) */
    /* its control-file keys (keys.h), top-level rows bound to its parameters (a key that
     * names a [material] section is not bound: its index is the wall's material), and the
     * key of keys.c they follow in `pala help keys` and control.txt */
    const struct pala_keydef *keys;
    int nkeys;
    const char *after;
    /* a wall inside: 1 if its parameters ask for it (the scene adds it then) */
    int (*present)(const void *par);
    /* NULL if the wall is usable, else what is wrong (into buf), naming in *key the
     * control-file key to change */
    const char *(*check)(const pala_world *w, const pala_wall *wl, char *buf, size_t len, const char **key);
    /* ---- geometry ---- */
    /* 1 if a sphere of radius R about x is strictly clear of the wall: grains far from the
     * walls skip them (force pass), and the wall candidates of each list build */
    int (*clear)(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R);
    /* 1 if a sphere of radius R about x lies on the grains' side, touching allowed
     * (placement; R = 0: the centre of a grain placed by a list) */
    int (*inside)(const pala_world *w, const pala_wall *wl, pala_vec3 x, double R);
    /* narrows [lo, hi] to a box that holds every centre for which inside() can hold */
    void (*bounds)(const pala_world *w, const pala_wall *wl, double R, double lo[3], double hi[3]);
    /* how far the wall reaches into the sphere (c, a), m; <= 0 if it does not touch it */
    double (*cut)(const pala_world *w, const pala_wall *wl, pala_vec3 c, double a);
    /* the most touches of the wall with one component of radius at most a */
    int (*room)(const pala_world *w, const pala_wall *wl, double a);
    /* every touch of the components of grains cand[0 .. n), grain by grain, each in a fixed
     * order, into out (room for cap, at least room() times the components of a grain); stops
     * before a grain whose touches might not fit.  Returns the number of touches and sets
     * *used to the grains done (one call for many grains: the touches of a block cost one
     * indirect call, pala_touch_grains).  Each touch gives the velocity of the wall's
     * surface at its contact point, vs. */
    int (*touch)(const pala_world *w, const pala_wall *wl, const int *cand, int n, pala_wall_touch *out, int cap, int *used);
    /* a container: its lowest point along g, the zero of the field energy */
    pala_vec3 (*lowest)(const pala_world *w, const pala_wall *wl, pala_vec3 g);
    /* its columns of walls.tsv (pala_world_wall_columns), from the momentum of its faces
     * (w->wall_impulse from wl->face0), and the area each normal momentum is received on
     * (0: not a normal momentum; area may be NULL) */
    int (*columns)(const pala_world *w, const pala_wall *wl, const char **names, double *values, double *area, int max);
    /* NULL, or the name of its face i (from 0; NULL: the kind's name), which the contact
     * output gives a wall contact (pala_world_face_name) */
    const char *(*face)(const pala_world *w, const pala_wall *wl, int i);
    /* ---- serialisation and presentation ---- */
    /* its parameters after its name, as its trajectory header line ("NAME ..."); the length */
    int (*line)(const pala_world *w, const pala_wall *wl, char *buf, size_t len);
    /* reads what follows NAME on such a line into wl's parameters: 0, or -1 if malformed */
    int (*parse)(const pala_world *w, pala_wall *wl, const char *args);
    /* the shapes it is drawn with, at most max; their number */
    int (*draw)(const pala_world *w, const pala_wall *wl, pala_draw *out, int max);
    /* NULL, or its state a checkpoint keeps (a moving wall's phase), as
     * pala_world_wall_state: field i of it, with a name no other wall's field has */
    void *(*state)(pala_world *w, pala_wall *wl, int i, const char **name, size_t *elem, long *count);
    /* NULL, or: what its parameters own is let go (before they are freed), and a copy of
     * them was made (pala_world_copy_walls: a mesh shared by both) */
    void (*release)(pala_wall *wl);
    void (*copied)(pala_wall *wl);
} pala_wall_kind;

/* The kinds (container.c), in the order of their keys and words: kind i for i from 0, NULL
 * past the last; the kind of a name, or NULL. */
const pala_wall_kind *pala_wall_kind_at(int i);
const pala_wall_kind *pala_wall_kind_named(const char *name);
/* The words of the key `container` (the container kinds' names, then none) and the code
 * of each: 1 + the kind's index, 0 for none. */
extern const char pala_container_words[];
extern const int pala_container_codes[];
/* The container of w, or NULL: walls[0] when it is a container. */
static inline const pala_wall *pala_container_of(const pala_world *w)
{
    return w->nwalls > 0 && w->walls[0].kind->container ? &w->walls[0] : NULL;
}

/* The loop of a kind's touch over the candidates, given its touches of one grain
 * (one(w, wl, k, out): their number) and its room (inline, so each kind's loop is
 * specialised). */
static inline int pala_touch_grains(const pala_world *w, const pala_wall *wl, const int *cand, int n, pala_wall_touch *out, int cap,
                                    int *used, int (*room)(const pala_world *w, const pala_wall *wl, double a),
                                    int (*one)(const pala_world *w, const pala_wall *wl, int k, pala_wall_touch *out))
{
    int m = 0, i = 0;
    for (; i < n; i++) {
        const pala_template *t = &w->tmpl[w->tid[cand[i]]];
        if (cap - m < room(w, wl, t->bound_radius) * t->ncomp) break;
        m += one(w, wl, cand[i], out + m);
    }
    *used = i;
    return m;
}

/* The material of a wall touch's face (contact.h: the container's faces, a membrane's,
 * then the walls of [wall] sections, one face each), and of a wall contact's key in the
 * contact history (id: a face below 8, a membrane's bar, or a [wall]'s feature with bit 31). */
static inline int pala_face_mat(const pala_world *w, int face)
{
    return face < PALA_FACE_MEMBRANE ? w->wall_mat : face < PALA_WALL_FACES ? w->mem_mat : w->walls[w->surf0 + face - PALA_WALL_FACES].mat;
}
static inline int pala_wall_id_mat(const pala_world *w, unsigned id)
{
    unsigned i = (id >> 24) & 0x7fu;   /* a [wall]'s index: checked, as a checkpoint's key may name none */
    return id & 0x80000000u ? (i < (unsigned)w->nwalls ? w->walls[i].mat : 0) : id < PALA_WALL_FACES ? w->wall_mat : w->mem_mat;
}

/* A kind's check refusing: the message (printf's fmt) into buf, *key = the control-file key
 * to change; returns buf. */
const char *pala_wall_refuse(char *buf, size_t len, const char **key, const char *k, const char *fmt, ...);
/* Reads n numbers (inf allowed) from text into x: 0, or -1 if there are fewer or more (the
 * kinds' parse). */
int pala_wall_numbers(const char *text, double *x, int n);

/* ---- all the walls of a world, in their order ---- */
/* A wall of kind k of material mat at the end of w's list, its parameters all 0 (keys.c's
 * pala_world_add_wall gives them their defaults); its index, or -1 (pala_walls_refuse) if a
 * container would not be the first wall or its faces would not fit. */
int pala_walls_add(pala_world *w, const pala_wall_kind *k, int mat);
/* pala_world_add_wall with the parameters par (the kind's struct) instead of the defaults:
 * 0, or -1 (the set functions of pala.h) */
int pala_walls_set(pala_world *w, const char *kind, int mat, const void *par);
/* Frees the walls (pala_world_free). */
void pala_walls_free(pala_world *w);
/* w->why from printf's fmt; returns -1 */
int pala_walls_refuse(pala_world *w, const char *fmt, ...);
/* 1 if a sphere of radius R about x is strictly clear of every wall */
int pala_walls_clear(const pala_world *w, pala_vec3 x, double R);
/* 1 if a sphere of radius R about x lies inside every wall (touching allowed) */
int pala_walls_inside(const pala_world *w, pala_vec3 x, double R);
/* narrows [lo, hi] by every wall's bounds */
void pala_walls_bounds(const pala_world *w, double R, double lo[3], double hi[3]);
/* the deepest cut of any wall into the sphere (c, a), m, and (if which is not NULL) the
 * wall that cuts it; -inf without walls */
double pala_walls_cut(const pala_world *w, pala_vec3 c, double a, int *which);
/* the most touches of all walls with one component of radius at most a */
int pala_walls_room(const pala_world *w, double a);
/* every touch of every wall with the grains cand[0 .. n): grain by grain, wall by wall
 * (as pala_wall_kind.touch); in a world of arc grains (w->parc) only an arc's circle's touches
 * that are the arc's (docs/physics.md, eq. A6) */
int pala_walls_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used);
/* the columns of walls.tsv: wall by wall (as pala_wall_kind.columns) */
int pala_walls_columns(const pala_world *w, const char **names, double *values, double *area, int max);
/* NULL if every wall is usable (its material, its kind's check), else what is wrong, naming
 * in *key the control-file key to change (NULL if none) and in *which the wall.  Sets the materials of the faces
 * the contact kernel reads (wall_mat, mem_mat). */
const char *pala_walls_prepare(pala_world *w, char *buf, size_t len, const char **key, int *which);

#endif

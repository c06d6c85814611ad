/* container.h: the walls around the grains, behind one small interface.  A container is
 * a kind (box.c, cavity.c; container.c for "none") registered in container.c: a new one
 * (a membrane grid, a rotating drum, a cylinder) is one new file, a value of enum
 * pala_container (pala.h) and a row of the table there.
 *
 * A wall touches a component like a component that does not move (docs/physics.md,
 * "Walls"): the force pass batches the touches through the contact kernel. */
#ifndef PALA_CONTAINER_H
#define PALA_CONTAINER_H
#include "pala/pala.h"
#include <stddef.h>

/* One touch of a wall: component (centre c, radius a) of a grain, face (an index into
 * the wall impulses: < 6 a container's wall of wall_mat, PALA_FACE_MEMBRANE + side a bar
 * of the membrane, membrane.h), inward normal n of the wall, overlap ov > 0, m, and r~ of
 * the pair (eq. 55 with the wall's radius of curvature; a flat wall has r~ = 2a). */
typedef struct pala_wall_touch {
    pala_vec3 c, n;
    double a, ov, rt;
    int face;
    int k;   /* the grain */
    int p;   /* the component's pebble */
    unsigned id;   /* which wall: the face, or a membrane's bar (its state's key, contact.h) */
} pala_wall_touch;
/* The most touches one component can have, in any container (six faces of a box);
 * the faces of a membrane's two sides follow the box's six. */
enum { PALA_TOUCH_PER_COMP = 6, PALA_FACE_MEMBRANE = 6 };

typedef struct pala_container_kind {
    const char *name;   /* the word of the `container` key */
    /* 1 if a sphere of radius R about x is strictly clear of every wall: grains far from
     * the walls skip them (force pass), and the wall candidates of each list build */
    int (*clear)(const pala_world *w, pala_vec3 x, double R);
    /* 1 if a sphere of radius R about x lies inside, touching allowed (placement) */
    int (*inside)(const pala_world *w, pala_vec3 x, double R);
    /* narrows [lo, hi] to a box that holds every centre for which inside() can hold */
    void (*bounds)(const pala_world *w, double R, double lo[3], double hi[3]);
    /* how far the walls reach into the sphere (c, a), m; <= 0 if they do not touch it */
    double (*cut)(const pala_world *w, pala_vec3 c, double a);
    /* every touch of the components of grains cand[0 .. n), grain by grain, each in a fixed
     * order (axis, component, side), into out (room for cap, at least PALA_TOUCH_PER_COMP
     * times the most components of a grain); stops before a grain whose touches might not
     * fit.  Returns the number of touches and sets *used to the grains done.  (One call
     * for many grains: the walls of a block cost one indirect call, pala_touch_grains.) */
    int (*touch)(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used);
    /* the lowest point of the container along g, the zero of the field energy */
    pala_vec3 (*lowest)(const pala_world *w, pala_vec3 g);
    /* the columns of walls.tsv (pala_world_wall_columns), and the area each normal
     * momentum is received on (0: not a normal momentum; area may be NULL) */
    int (*columns)(const pala_world *w, const char **names, double *values, double *area, int max);
    /* NULL if the world's description of the container is usable, else what is wrong */
    const char *(*check)(const pala_world *w, char *buf, size_t len);
} pala_container_kind;

extern const pala_container_kind pala_container_box, pala_container_cavity;

/* The loop of a kind's touch over the candidates, given its touches of one grain
 * (one(w, k, out): their number; inline, so each kind's loop is specialised). */
static inline int pala_touch_grains(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used,
                                    int (*one)(const pala_world *w, int k, pala_wall_touch *out))
{
    int m = 0, i = 0;
    for (; i < n && cap - m >= PALA_TOUCH_PER_COMP * w->tmpl[w->tid[cand[i]]].ncomp; i++) m += one(w, cand[i], out + m);
    *used = i;
    return m;
}
/* 1 if id is a registered kind (enum pala_container). */
int pala_container_known(int id);
/* The kind of w->container (the "none" kind for an unknown value). */
const pala_container_kind *pala_container_of(const pala_world *w);

#endif

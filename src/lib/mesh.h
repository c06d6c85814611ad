/* mesh.h: triangle meshes as walls (docs/physics.md, "Triangle-mesh walls"): read from STL
 * or given as triangles, welded into faces, edges and vertices by exact coordinates, a
 * uniform grid of cells over them, and every contact of a sphere with the mesh, each on
 * the feature (face, edge or vertex) that is really the closest, so a sphere over a shared
 * edge or vertex of a flat triangulated floor has one contact, that of the plane.
 *
 * Everything here is in the mesh's own frame: a wall kind that moves the mesh turns the
 * sphere's centre into that frame and the hits back.  A prepared mesh is read only by
 * the queries (pala_mesh_touch, pala_mesh_nearest, pala_mesh_near and
 * pala_mesh_touch_near), so threads may query it at once.
 *
 *   pala_mesh *m;
 *   if (pala_mesh_read_stl("hopper.stl", 0.001, &m, err, sizeof err) ||   (mm -> m)
 *       pala_mesh_prepare(m, amax, PALA_MESH_BOTH, err, sizeof err)) ... err
 *   pala_mesh_hit h[PALA_MESH_ROOM];
 *   int n = pala_mesh_touch(m, c, a, h, PALA_MESH_ROOM);
 *   pala_mesh_free(m); */
#ifndef PALA_MESH_H
#define PALA_MESH_H
#include "pala/vec.h"
#include <stddef.h>

/* The most triangles a mesh may have (a binary STL's count, an ASCII file's facets, or a
 * program's triangles): 10^7 (a prepared mesh takes about 1 kB per triangle). */
#define PALA_MESH_MAX_TRIANGLES 10000000
/* The largest |coordinate| of a mesh once scaled, m (a million km: past it the scale is surely
 * wrong, and the products of its faces' tests overflow from about 1e77 m). */
#define PALA_MESH_MAX_COORD 1e9
/* Room for the hits of one sphere that is small beside the triangles (a sphere in a
 * concave corner where many faces meet touches each of them). */
enum { PALA_MESH_ROOM = 16 };

/* The features of a mesh a contact can be on. */
enum { PALA_MESH_FACE = 0, PALA_MESH_EDGE = 1, PALA_MESH_VERTEX = 2 };
/* Which side of the surface the grains are on (pala_mesh_prepare): both (any mesh; the
 * contact is by distance), or, for a closed mesh, outside it or inside it only. */
enum { PALA_MESH_BOTH = 0, PALA_MESH_OUTSIDE = 1, PALA_MESH_INSIDE = -1 };

/* One contact of a sphere (centre c, radius a) with the mesh. */
typedef struct pala_mesh_hit {
    pala_vec3 q;     /* the point of the feature closest to c (on the surface), m */
    pala_vec3 n;     /* unit normal from q towards c (from the mesh to the sphere) */
    double d;        /* |c - q|, m */
    double ov;       /* the overlap a - d > 0, m */
    int kind;        /* PALA_MESH_FACE, PALA_MESH_EDGE or PALA_MESH_VERTEX */
    int index;       /* the face's, edge's or vertex's index (pala_mesh's arrays) */
    unsigned id;     /* the contact's key for a contact history, < pala_mesh.nids: the
                        flat patch for a face and for an edge or vertex inside one (so a
                        sphere rolling across a triangulated floor keeps one key), else
                        npatch + the edge, npatch + nedge + the vertex */
} pala_mesh_hit;

/* A mesh.  The fields above `private` may be read (not written) by a program. */
typedef struct pala_mesh {
    int nvert, nface, nedge;
    pala_vec3 *vert;     /* the vertices, m (welded: one per distinct position) */
    int (*face)[3];      /* each face's vertices; right-handed about its normal (after
                            pala_mesh_prepare of a one-sided mesh: the normal points out) */
    int (*edge)[2];      /* each edge's vertices, the smaller index first */
    int npatch;          /* flat patches: faces joined across edges flatter than 1e-6 rad */
    unsigned nids;       /* npatch + nedge + nvert: ids of hits are below it */
    int closed;          /* 1: every edge has exactly two faces */
    int ndropped;        /* triangles dropped while reading: degenerate (2 x area below 1e-10
                            times the longest edge squared: a point or a line), or a repeat
                            of another triangle's three vertices */
    int *tri;            /* each face's triangle in the file or the array given (0, 1, ...;
                            dropped triangles keep their numbers), for messages */
    int *line;           /* each face's line of 'facet' in an ASCII STL file; NULL otherwise */
    pala_vec3 lo, hi;    /* the bounding box of the vertices, m */
    double cell;         /* the grid's cell, m (after pala_mesh_prepare) */
    int side;            /* PALA_MESH_BOTH, _OUTSIDE or _INSIDE (pala_mesh_prepare) */
    /* ---- private: the topology, the derived geometry and the grid (mesh.c) ---- */
    struct pala_mesh_priv *p;
} pala_mesh;

/* Reads an STL file, ASCII or binary, its coordinates times scale (0.001 for a file in
 * mm), into a new mesh *out (vertices welded by exact coordinates, degenerate and repeated
 * triangles dropped and counted in ndropped).  0, or -1 with a message naming the file and
 * the line (ASCII) or triangle (binary) into err; *out is NULL then.  Binary if the file's
 * size is 84 + 50 N bytes for the count N its header gives (even if it begins with
 * "solid"), else ASCII if it begins with "solid". */
int pala_mesh_read_stl(const char *path, double scale, pala_mesh **out, char *err, size_t errlen);
/* A new mesh *out from ntri triangles, xyz[9 t .. 9 t + 8] the three vertices of triangle
 * t (x, y, z each), times scale.  0, or -1 with a message into err (NaN or infinite
 * coordinates, too many or no usable triangles). */
int pala_mesh_from_triangles(const double *xyz, int ntri, double scale, pala_mesh **out, char *err, size_t errlen);
/* Makes the mesh ready for queries by spheres of radius up to amax (m; larger ones are
 * answered too, at more cost): the flat patches, each face's and edge's vectors, and the
 * grid; a closed mesh's faces are turned so their normals point out of the volume it
 * encloses, and for side OUTSIDE or INSIDE it must be closed and orientable.  0, or -1 with
 * a message into err (the mesh is then not prepared: queries find nothing).  It may be
 * called again (another amax or side). */
int pala_mesh_prepare(pala_mesh *m, double amax, int side, char *err, size_t errlen);
/* Every contact of the sphere (centre c, radius a) with the prepared mesh m, at most cap
 * of them into out, in the order of (kind, index); their number.  If there are more than
 * cap, the cap deepest are kept.  No two hits have the same id. */
int pala_mesh_touch(const pala_mesh *m, pala_vec3 c, double a, pala_mesh_hit *out, int cap);
/* A face near a sphere (pala_mesh_near): the face, and how far the sphere's centre must
 * move before the face can touch it (m; <= 0: it may touch now). */
typedef struct pala_mesh_nearface { int f; double gap; } pala_mesh_nearface;
/* The faces near a sphere, gathered once for many queries (a wall's faces near each
 * component, at each build of the neighbour list): every face a sphere of radius a may
 * touch while its centre stays within s of c, with its gap, appended to (*fs)[*n ..] in
 * increasing order of face, *fs grown as needed (capacity *cap). */
void pala_mesh_near(const pala_mesh *m, pala_vec3 c, double a, double s, pala_mesh_nearface **fs, long *n, long *cap);
/* The contacts of the sphere (c, a) with the faces fs[0 .. nf) that pala_mesh_near gave
 * for a centre now within `moved` of where it was, those of gap >= moved left out: the
 * hits of pala_mesh_touch, bit for bit (it reads the faces of a grid cell in the same
 * order, and a face left out or not in fs touches nothing).  For a above the mesh's amax it
 * is pala_mesh_touch. */
int pala_mesh_touch_near(const pala_mesh *m, const pala_mesh_nearface *fs, int nf, double moved, pala_vec3 c, double a, pala_mesh_hit *out, int cap);
/* The point of the mesh closest to x within rmax (m): 1 and *out (its ov = rmax - d, and
 * its feature the one the point is on), or 0 if the mesh is farther than rmax.  *inside
 * (may be NULL): for a closed mesh, 1 if x is inside it (by the pseudo-normal of the
 * closest feature), else 0. */
int pala_mesh_nearest(const pala_mesh *m, pala_vec3 x, double rmax, pala_mesh_hit *out, int *inside);
/* pala_mesh_nearest (far = 1), or (far = 0) by reading every face of the grid's cells near x
 * (all faces when those cells are more), in order: the same hit, bit for bit, at a cost that
 * grows with the faces read (the tests compare the two). */
int pala_mesh_nearest_by(const pala_mesh *m, pala_vec3 x, double rmax, pala_mesh_hit *out, int *inside, int far);
void pala_mesh_free(pala_mesh *m);

#endif

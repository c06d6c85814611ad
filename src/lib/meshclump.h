/* meshclump.h: grains from closed triangle meshes (docs/physics.md, "Clumps from surface
 * meshes"): the check that a mesh bounds a solid (closed, consistently oriented, not
 * self-intersecting), its exact volume, centre of mass and inertia by the divergence
 * theorem, and a clump of spheres inscribed in it, chosen greedily on the exact distance to
 * the mesh (mesh.c's closest-point query) until a sphere count or a surface tolerance is
 * reached.  The clump's spheres go to the builder like a listed-sphere grain's (scene.c).
 *
 *   pala_meshclump *mc;
 *   if (pala_meshclump_make("capsule.stl", 0.001, 8, 0, &mc, err, sizeof err)) ... err
 *   ... mc->n spheres mc->c[i], mc->r[i]; mc->mesh: volume, centre, inertia ...
 *   pala_meshclump_free(mc); */
#ifndef PALA_MESHCLUMP_H
#define PALA_MESHCLUMP_H
#include "mesh.h"
#include <stddef.h>

/* The most spheres of a clump (as many as a listed-sphere grain may have, scene.c). */
enum { PALA_MESHCLUMP_MAX = 64 };

/* The mass properties of a solid of unit density: volume (m^3), centre of mass (m) and the
 * inertia tensor about the centre of mass per unit density (m^5; times rho it is kg m^2). */
typedef struct pala_solid {
    double volume;
    pala_vec3 com;
    double inertia[3][3];
} pala_solid;

/* A mesh's clump. */
typedef struct pala_meshclump {
    int ntri;                 /* the mesh's triangles (after welding) */
    pala_solid mesh;          /* the mesh's solid, exact (pala_solid_of_mesh) */
    int n;                    /* spheres of the clump */
    pala_vec3 c[PALA_MESHCLUMP_MAX];    /* their centres, in the mesh's frame, m */
    double r[PALA_MESHCLUMP_MAX];       /* their radii, m */
    int nsample;              /* surface samples of the mesh the deviation was measured on */
    double dev_max, dev_rms;  /* the largest and the RMS (area-weighted) distance from the
                                 mesh's samples to the clump's surface, m */
    double back_max;          /* the largest distance from the clump's exposed surface
                                 (sampled) to the mesh, m */
} pala_meshclump;

/* The solid a closed mesh bounds, by the divergence theorem over its faces (signed
 * tetrahedra from a vertex, docs/physics.md, "Clumps from surface meshes"); the faces may
 * all point in or all out.  For a mesh that is not closed the numbers mean nothing. */
void pala_solid_of_mesh(const pala_mesh *m, pala_solid *out);
/* 0 if the mesh bounds a solid: every edge shared by exactly two triangles that run it in
 * opposite senses, and no two triangles crossing or overlapping (other than along the edges
 * and corners they share); else -1 with a message into err naming `what` (the file) and
 * the triangle (its number in the file, and its line in an ASCII STL), with a fix. */
int pala_meshclump_check(const pala_mesh *m, const char *what, char *err, size_t errlen);
/* Reads the STL file path (coordinates times scale, m), checks it and builds its clump:
 * nsph spheres (1 .. PALA_MESHCLUMP_MAX), or, with nsph = 0, as few as keep every surface
 * sample within tol (m) of the clump.  0 and a new *out, or -1 with a message into err. */
int pala_meshclump_make(const char *path, double scale, int nsph, double tol, pala_meshclump **out, char *err, size_t errlen);
/* The same for a mesh already read (prepared here; what names it in messages). */
int pala_meshclump_fit(pala_mesh *m, const char *what, int nsph, double tol, pala_meshclump **out, char *err, size_t errlen);
void pala_meshclump_free(pala_meshclump *mc);

#endif

/* arcs.h: arc grains in 2D (Potapov and Campbell, seed 001; docs/physics.md, "Arc grains"):
 * the outline's check, its exact area, centre of mass and moments, its template (arcs.c);
 * and the rule by which two arcs, or an arc and a wall, touch. */
#ifndef PALA_ARCS_H
#define PALA_ARCS_H
#include "pala/pala.h"
#include <math.h>

/* Builds the template of n arcs (checked as pala_world_build_arc_template says) of density
 * rho and thickness h (<= 0: 4/3 of the radius of the disc of the same area): t's mass,
 * volume, moments, frame, bounding radius and ncomp; the circles' centres in the principal
 * frame into shape, their radii into rad, the arcs' ranges and bounding circles into rng
 * (n each).  Returns 0, or -1 with the reason in err. */
int pala_arcs_build(pala_template *t, int n, const pala_arc *arcs, double rho, double h, pala_vec3 *shape, double *rad, pala_arcrange *rng,
                    char *err, size_t errlen);

/* The area A, first moments (Sx, Sy) and second moments (Sxx, Syy, Sxy) about the origin of
 * the region inside n arcs, exact (eqs. A1-A4 of docs/physics.md): out[6]. */
void pala_arcs_moments(int n, const pala_arc *arcs, double out[6]);

/* The seed's rule (docs/physics.md, eq. A5): the circles of two arcs touch as arcs when the
 * line between their centres lies within both arcs' ranges.  d = c_p - c_q (m), dd = |d|; p
 * and q the arcs' ranges in the world frame: the direction from p's centre to q's is -d/|d|,
 * q's to p's d/|d|.  Without a division: u.m >= ch as -d.m_p >= ch_p |d|. */
static inline int pala_arcs_face(const pala_arcrange *p, const pala_arcrange *q, double dx, double dy, double dd)
{
    return (-(dx * p->mx + dy * p->my) >= p->ch * dd) & (dx * q->mx + dy * q->my >= q->ch * dd);
}

/* Components p and q, their circles' centres d = c_p - c_q apart (d2 = |d|^2) and their radii
 * adding up to sr, touch: their circles overlap (eq. 49) and, in a world of arc grains (pa, its
 * pebbles' ranges, not NULL), as arcs (eq. A5), no deeper than either arc's contacts reach
 * (eq. A9: ov = sr - |d| < dl).  The one test of the loops over listed pairs (force_pass.c,
 * contact_list.c, energy.c); with pa NULL it is eq. (49) alone. */
static inline int pala_pair_touch(const pala_arcrange *pa, int p, int q, double dx, double dy, double d2, double sr)
{
    if (!pa) return d2 < sr * sr;
    /* the tests without a branch between them (the listed arc pairs touch about half the
     * time, so a branch went either way) */
    const double dd = sqrt(d2), ov = sr - dd;
    return (d2 < sr * sr) & pala_arcs_face(&pa[p], &pa[q], dx, dy, dd) & (ov < pa[p].dl) & (ov < pa[q].dl);
}

/* An arc touches a wall whose inward normal is n when -n lies within its range (eq. A6). */
static inline int pala_arcs_wall_face(const pala_arcrange *p, pala_vec3 n) { return -(n.x * p->mx + n.y * p->my) >= p->ch; }

#endif

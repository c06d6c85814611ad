/* contact.h: the contact kernel (paper sections 4-5, eqs. 48-57) on batches of touching
 * component pairs and wall touches (contact.c).  The force pass (force_pass.c) collects a
 * batch, runs it through the kernel and adds the contributions to the grains' sums. */
#ifndef PALA_CONTACT_H
#define PALA_CONTACT_H
#include "pala/pala.h"
#include "container.h"

enum { BATCH = 128 };
/* The touching pairs of a block's rows are collected (no branch per neighbour) into a
 * batch in structure-of-arrays form, and the kernel runs in stages: the square roots,
 * divisions and most of the arithmetic in loops the compiler vectorises, the reads of
 * the grains' velocities and the sums into the grains in plain loops. */
typedef struct pala_batch {
    int n;
    int k[BATCH], j[BATCH], p[BATCH];                       /* grains, pebble of row */
    double dx[BATCH], dy[BATCH], dz[BATCH], d2[BATCH], ai[BATCH], aj[BATCH];
    double nx[BATCH], ny[BATCH], nz[BATCH], ov[BATCH], sq[BATCH], li[BATCH], lj[BATCH], ratio[BATCH];
    double ux[BATCH], uy[BATCH], uz[BATCH];                 /* relative velocity (part) */
    double sx[BATCH], sy[BATCH], sz[BATCH];                 /* spheres: l_i w_i + l_j w_j */
    double rix[BATCH], riy[BATCH], riz[BATCH], rjx[BATCH], rjy[BATCH], rjz[BATCH];
    double kE[BATCH], de[BATCH], mu[BATCH], nu[BATCH];      /* material pair */
    /* contributions: force on the row's grain, its non-conservative part, torques */
    double Fx[BATCH], Fy[BATCH], Fz[BATCH], Gx[BATCH], Gy[BATCH], Gz[BATCH];
    double Tix[BATCH], Tiy[BATCH], Tiz[BATCH], Tjx[BATCH], Tjy[BATCH], Tjz[BATCH];
    double Hix[BATCH], Hiy[BATCH], Hiz[BATCH], Hjx[BATCH], Hjy[BATCH], Hjz[BATCH];   /* clumps: torques of G */
    double rt[BATCH];                                       /* walls: r~ */
    int face[BATCH];                                        /* walls: which */
    /* contact history (worlds with laws that have it): each contact's state, and the
     * energy its step dissipates, J */
    double *hp[BATCH];
    double D[BATCH];
    double E[BATCH];                                        /* Mindlin's springs: the energy held after this step */
    double hx[BATCH], hy[BATCH], hz[BATCH];                 /* springs: state read, written */
    double kf[BATCH];                                       /* ... their stiffness, or Mindlin's factor */
    int mind[BATCH];                                        /* ... Mindlin's law (else a constant k) */
    double cd[BATCH], im[BATCH];                            /* ... the dashpot's constant, 1/m* */
    int dp[BATCH];                                          /* ... the pair has the dashpot */
    int jmat[BATCH];                                        /* walls: the other material */
} pala_batch;

/* Where the laws with history keep their state in a contact's hn doubles (work.h: hist,
 * hn, ho_*; -1: not kept): the tangential spring's displacement (3), the rolling (3) and
 * torsion (1) angles, the fractional law's memory (PALA_FRAC_NSTATE, fractional.h).
 * Mindlin's stiffness changes with the overlap: the energy its springs hold is not kept
 * per contact but as one sum over all of them (E, nl->hmind; docs/physics.md, "Contact
 * history"). */


size_t pala_batch_size(void);   /* bytes of a batch */
/* The material of grain k, and the material pair (eq. 55) of grain k with material mj. */
static inline int pala_mat_of(const pala_world *w, int k) { return w->tmpl[w->tid[k]].material; }
static inline const pala_pairmat *pala_pm_of(const pala_world *w, int k, int mj) { return &w->pm[pala_mat_of(w, k) * w->nmat + mj]; }

/* Stages 1-3 on a batch of touching sphere pairs (k, j, dx.., d2, ai, aj filled): the
 * forces F, G and torques Ti, Tj of each. */
void pala_contact_spheres(const pala_world *w, pala_batch *B);
/* The same for component pairs of clumps (p, the pebble of the row, filled too); also the
 * torques Hi, Hj of the non-conservative parts. */
void pala_contact_clumps(const pala_world *w, pala_batch *B);
/* A wall touch (container.h) of a component (centre c, radius a) of grain k joins the
 * batch (which must have room); inline, as the force pass adds many.  The wall is a component that does not move: the contact point is the middle
 * of the overlap, c - (a - ov/2) n (the limit of c_ij in eq. 50 for a sphere of radius
 * r' -> infinity), w is the velocity of G's material there (eq. 54), and the torque is
 * about G's centre (eq. 51): the clump stages of the pair kernel. */
static inline void pala_contact_wall_join(const pala_world *w, pala_batch *B, int k, const pala_wall_touch *t)
{
    int face = t->face;
    pala_vec3 c = t->c, n = t->n;
    double a = t->a, ov = t->ov, rt = t->rt;
    int jm = face < PALA_FACE_MEMBRANE ? w->wall_mat : w->mem_mat;
    const pala_pairmat *pm = pala_pm_of(w, k, jm);
    int m = B->n++;   /* the caller leaves room */
    pala_vec3 cp = pala_vaxpy(c, -(a - 0.5 * ov), n);
    pala_vec3 r = pala_vsub(cp, w->x[k]);
    pala_vec3 dv = pala_vadd(w->v[k], pala_vcross(w->w[k], r));
    B->k[m] = k; B->face[m] = face; B->jmat[m] = jm; B->ai[m] = a; B->ov[m] = ov; B->rt[m] = rt;
    B->nx[m] = n.x; B->ny[m] = n.y; B->nz[m] = n.z;
    B->ux[m] = dv.x; B->uy[m] = dv.y; B->uz[m] = dv.z;
    B->rix[m] = r.x; B->riy[m] = r.y; B->riz[m] = r.z;
    B->rjx[m] = B->rjy[m] = B->rjz[m] = 0;
    B->kE[m] = pm->kE; B->de[m] = pm->delta; B->mu[m] = pm->mu; B->nu[m] = pm->nu;
}

/* Stages 1-3 on a batch of wall touches (after pala_contact_wall_join). */
void pala_contact_walls(const pala_world *w, pala_batch *B);
/* The same three kernels for worlds with contact history: hp[i] is contact i's state,
 * advanced over the step dt (NULL: no state, the springs are left out, as the energy
 * pass's wall touches have); D[i] is the energy the step dissipates; Hi, Hj are filled for
 * spheres too. */
void pala_contact_spheres_hist(const pala_world *w, pala_batch *B, double dt);
/* The same, for worlds whose pairs all have a tangential spring and neither rolling nor
 * torsion springs (work.h: hfast): the arithmetic of the general kernel in vectorised
 * stages; for spheres Hi, Hj are not filled (a sphere's normal force has no torque). */
void pala_contact_spheres_spring(const pala_world *w, pala_batch *B, double dt);
/* The same for component pairs of clumps (Hi, Hj filled), and for wall touches of such
 * worlds (every state there: not the energy pass). */
void pala_contact_clumps_spring(const pala_world *w, pala_batch *B, double dt);
void pala_contact_walls_spring(const pala_world *w, pala_batch *B, double dt);
void pala_contact_clumps_hist(const pala_world *w, pala_batch *B, double dt);
void pala_contact_walls_hist(const pala_world *w, pala_batch *B, double dt);
/* The elastic energy a contact's state holds (the springs' k|x|^2/2), J. */
double pala_contact_state_energy(const pala_world *w, const pala_pairmat *pm, const double *st);

#endif

/* contact.h: the contact kernel (paper sections 4-5, eqs. 48-57) on batches of touching
 * component pairs and wall touches (contact.c).  The force pass (force_pass.c) collects a
 * batch, runs it through the kernel and adds the contributions to the grains' sums. */
#ifndef PALA_CONTACT_H
#define PALA_CONTACT_H
#include "pala/pala.h"
#include "container.h"

enum { BATCH = 128, PALA_EGROUP = 128 };
/* The touching pairs of a block's rows are collected (no branch per neighbour) into a
 * batch in structure-of-arrays form, and the kernel runs in stages: the square roots,
 * divisions and most of the arithmetic in loops the compiler vectorises, the reads of
 * the grains' velocities and the sums into the grains in plain loops.  The energies the
 * pairs' laws dissipate and hold (D, E) are summed in groups of PALA_EGROUP contacts
 * (force_pass.c, stage_deliver): the same bits whatever BATCH (a divisor of PALA_EGROUP).
 * A batch of 128 overflows the 32 KB L1 cache (about 37 arrays of sphere pairs); batches of
 * 32 halve the drum's L1 misses but take 2.2 % more instructions and 27 % more mispredicted
 * branches (a batch's loops end 4 times as often), and the misses, to L2, did not show in
 * time (docs/performance.md, "Branches, caches and latency"). */
typedef struct pala_batch {
    int n;
    int k[BATCH], j[BATCH], p[BATCH];                       /* grains, pebble of row */
    double dx[BATCH], dy[BATCH], dz[BATCH], d2[BATCH], ai[BATCH], aj[BATCH];
    double nx[BATCH], ny[BATCH], nz[BATCH], ov[BATCH], sq[BATCH], li[BATCH], lj[BATCH], ratio[BATCH];
    double ux[BATCH], uy[BATCH], uz[BATCH];                 /* relative velocity at the contact (spheres: v_i - v_j) */
    double sx[BATCH], sy[BATCH], sz[BATCH];                 /* spheres: l_i w_i + l_j w_j */
    double rix[BATCH], riy[BATCH], riz[BATCH], rjx[BATCH], rjy[BATCH], rjz[BATCH];
    double kE[BATCH], de[BATCH], mu[BATCH], nu[BATCH];      /* material pair */
    /* contributions: force on the row's grain, its non-conservative part, torques */
    double Fx[BATCH], Fy[BATCH], Fz[BATCH], Gx[BATCH], Gy[BATCH], Gz[BATCH];
    double Tix[BATCH], Tiy[BATCH], Tiz[BATCH], Tjx[BATCH], Tjy[BATCH], Tjz[BATCH];
    double Hix[BATCH], Hiy[BATCH], Hiz[BATCH], Hjx[BATCH], Hjy[BATCH], Hjz[BATCH];   /* clumps: torques of G */
    double rt[BATCH];                                       /* walls: r~ */
    int face[BATCH];                                        /* walls: which */
    double wsx[BATCH], wsy[BATCH], wsz[BATCH];              /* walls: the surface's velocity at the contact */
    /* contact history (worlds with laws that have it): each contact's state, and the
     * energy its step dissipates, J */
    double *hp[BATCH];
    double D[BATCH];
    double E[BATCH];                                        /* Mindlin's springs: the energy held after this step */
    double hx[BATCH], hy[BATCH], hz[BATCH];                 /* springs: state read, written */
    double kf[BATCH];                                       /* ... their stiffness, or Mindlin's factor */
    int mind[BATCH];                                        /* ... Mindlin's law (else a constant k) */
    int spr[BATCH];                                         /* ... the pair has a spring (else eq. 53) */
    double cd[BATCH], im[BATCH];                            /* ... the dashpot's constant, 1/m* */
    int dp[BATCH];                                          /* ... the pair has the dashpot */
    double kn[BATCH];                                       /* normal laws other than Hertz: their stiffness */
    int nl[BATCH];                                          /* ... and which (enum pala_nlaw) */
    int jmat[BATCH];                                        /* walls: the other material */
    double mcx[BATCH], mcy[BATCH], mcz[BATCH];              /* rolling and torsion: the moment m_c on G, written
                                                             * only by contacts that have those springs (the
                                                             * contact list reads it: contact_list.c) */
} pala_batch;

/* ---- the contact model: which laws the material pairs have, and their state ------------ */
/* The laws some material pair of the world has (pala_contacts.laws): the drivers of
 * contact.c are instantiated for the families present, so a world pays only for its own
 * laws. */
enum {
    PALA_LAWS_REG = 1,       /* the regularised friction of eq. (53) */
    PALA_LAWS_SPRING = 2,    /* a tangential spring (constant, or Mindlin's) */
    PALA_LAWS_MINDLIN = 4,   /* ... Mindlin's: the energy its springs hold is summed apart */
    PALA_LAWS_DASH = 8,      /* the normal dashpot */
    PALA_LAWS_NLAW = 16,     /* a normal law other than Hertz and the fractional law */
    PALA_LAWS_ROLLTOR = 32,  /* rolling or torsion springs */
    PALA_LAWS_FRAC = 64,     /* the fractional normal law */
    PALA_LAWS_ALL = 127
};

/* The contact model of a prepared world (pala_contacts_prepare; w->work->cm).  Each
 * contact keeps hn doubles of state (0: none), the sum of the sizes its laws declare
 * (contact_law.h), at offsets ho_* (-1: not kept): the tangential spring's displacement,
 * the rolling and torsion angles, the fractional law's memory.  Mindlin's stiffness changes
 * with the overlap: the energy its springs hold is not kept per contact but as one sum
 * over all of them (E, nl->hmind; docs/physics.md, "Contact history"). */
typedef struct pala_contacts {
    unsigned laws;         /* PALA_LAWS_* of the material pairs */
    int hn, ho_t, ho_r, ho_o, ho_f;
    int general;           /* 1: every batch through the general driver (tests compare them) */
    struct pala_frac *fr;  /* the fractional law, per material pair (the index of w->pm): the
                            * derivative's coefficients for the step frac_dt */
    double *frK;           /* ... and K = c^alpha k^(1-alpha) */
    double frac_dt;
    struct pala_wallhist *wh;   /* per block: the states of its grains' wall contacts (contact_state.c) */
    int nwh, whn;          /* blocks and state size wh was made for */
    double im1;            /* 1/m of every grain when all templates have the same mass (so 1/m* of
                            * a pair is 2 im1, of a wall touch im1: the dashpot's, contact.c), else 0 */
} pala_contacts;

/* The contact model for the world's material pairs: the laws present, the state layout
 * (the list and the wall tables get room for it), the fractional law's tables. */
void pala_contacts_prepare(pala_world *w);
void pala_contacts_free(pala_contacts *cm);
/* A pair's state st as seen from its other pebble: the tangential and rolling springs turn. */
void pala_contact_state_swap(const pala_contacts *cm, double *st);
/* The fractional law's tables for the step w->dt (after a change of dt). */
void pala_contacts_frac_tables(pala_world *w);
/* The kernels produce the energy each contact's step dissipates (B->D): laws with state
 * or the dashpot. */
static inline int pala_contacts_dissipate(const pala_contacts *cm) { return (cm->laws & (PALA_LAWS_SPRING | PALA_LAWS_ROLLTOR | PALA_LAWS_FRAC | PALA_LAWS_DASH)) != 0; }
/* The contact torques on spheres hold a part that is not friction's (a spring's): the
 * non-conservative torques are summed apart from T (else T serves: integrator.c). */
static inline int pala_contacts_tsep(const pala_contacts *cm) { return (cm->laws & (PALA_LAWS_SPRING | PALA_LAWS_ROLLTOR)) != 0; }
/* Sphere pairs give non-conservative torques Hi, Hj of their own: friction's T beside the
 * springs' (else they are T, or 0, for every pair of the world). */
static inline int pala_contacts_sphere_h(const pala_contacts *cm)
{
    return (cm->laws & PALA_LAWS_REG) && (cm->laws & (PALA_LAWS_SPRING | PALA_LAWS_ROLLTOR));
}

size_t pala_batch_size(void);   /* bytes of a batch */
/* The material of grain k, and the material pair (eq. 55) of grain k with material mj. */
static inline int pala_mat_of(const pala_world *w, int k) { return w->tmpl[w->tid[k]].material; }
static inline const pala_pairmat *pala_pm_of(const pala_world *w, int k, int mj) { return &w->pm[pala_mat_of(w, k) * w->nmat + mj]; }

/* The kernel on a batch of touching sphere pairs (k, j, dx.., d2, ai, aj filled; hp[i]
 * the contacts' states in worlds that keep them), over the step dt: the forces F, G and
 * torques Ti, Tj (Hi, Hj: pala_contacts_sphere_h), D and E of each.  The tangential
 * springs' states after the step are left in hx, hy, hz: the caller writes them to hp
 * (the force pass, in the loop of its sums; pala_contact_spring_write). */
void pala_contact_spheres(const pala_world *w, pala_batch *B, double dt);
/* The springs' states hx, hy, hz of contacts [0, m) into their hp (nothing if dt is 0: an
 * energy pass leaves them alone). */
void pala_contact_spring_write(const pala_contacts *cm, pala_batch *B, int m, double dt);
/* The same for component pairs of clumps (p, the pebble of the row, filled too); Hi, Hj
 * always. */
void pala_contact_clumps(const pala_world *w, pala_batch *B, double dt);
/* pala_contact_clumps of component pairs in the plane z = 0 (an arc world's, wk->plane and
 * every block flat) whose sums take F_x, F_y (G_x, G_y) and the torques' z alone (force_pass.c,
 * deliver_planar): with one material, the regularised friction and another normal law, F_z,
 * G_z and the torques' x and y are not formed (Fz, Gz, Tix, Tiy, Tjx, ... are left as they
 * were); the others are the same bits.  Other laws: as pala_contact_clumps. */
void pala_contact_clumps_planar(const pala_world *w, pala_batch *B, double dt);
/* A wall touch (container.h) of a component (centre c, radius a) of grain k joins the
 * batch (which must have room); inline, as the force pass adds many.  The wall is a
 * component of infinite mass whose surface moves at t->vs: the contact point is the middle
 * of the overlap, c - (a - ov/2) n (the limit of c_ij in eq. 50 for a sphere of radius
 * r' -> infinity), the relative velocity there is G's material's (eq. 54) less the wall's,
 * v + w x r - vs (docs/physics.md, "Walls"; vs = 0 for a wall that does not move, and
 * x - 0 = x leaves its bits), and the torque is about G's centre (eq. 51): the clump stages
 * of the pair kernel. */
static inline void pala_contact_wall_join(const pala_world *w, pala_batch *B, int k, const pala_wall_touch *t)
{
    int face = t->face;
    pala_vec3 c = t->c, n = t->n;
    double a = t->a, ov = t->ov, rt = t->rt;
    int jm = w->nmat == 1 ? 0 : pala_face_mat(w, face);   /* (one material: every face's) */
    const pala_pairmat *pm = w->nmat == 1 ? w->pm : pala_pm_of(w, k, jm);
    int m = B->n++;   /* the caller leaves room */
    pala_vec3 cp = pala_vaxpy(c, -(a - 0.5 * ov), n);
    pala_vec3 r = pala_vsub(cp, w->x[k]);
    pala_vec3 dv = pala_vsub(pala_vadd(w->v[k], pala_vcross(w->w[k], r)), t->vs);   /* m/s */
    B->k[m] = k; B->face[m] = face; B->jmat[m] = jm; B->ai[m] = a; B->ov[m] = ov; B->rt[m] = rt;   /* (aj, rj: pairs' alone) */
    B->nx[m] = n.x; B->ny[m] = n.y; B->nz[m] = n.z;
    B->ux[m] = dv.x; B->uy[m] = dv.y; B->uz[m] = dv.z;
    B->wsx[m] = t->vs.x; B->wsy[m] = t->vs.y; B->wsz[m] = t->vs.z;
    B->rix[m] = r.x; B->riy[m] = r.y; B->riz[m] = r.z;
    B->kE[m] = pm->kE; B->de[m] = pm->delta; B->mu[m] = pm->mu; B->nu[m] = pm->nu;
}

/* The kernel on a batch of wall touches (after pala_contact_wall_join; hp[i] as above);
 * Hi always. */
void pala_contact_walls(const pala_world *w, pala_batch *B, double dt);
/* The elastic energy a contact's state holds (the springs' k|x|^2/2, the fractional law's
 * memory), J. */
double pala_contact_state_energy(const pala_world *w, const pala_pairmat *pm, const double *st);

#endif

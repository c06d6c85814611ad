/* contact.c: the contact kernel (paper sections 4-5, eqs. 48-57) on batches of touching
 * component pairs and wall touches.  The laws themselves are in contact_law.h; here they
 * are applied to a batch in structure-of-arrays form, in stages: the square roots,
 * divisions and most of the arithmetic in loops the compiler vectorises, the reads of the
 * grains' velocities in plain loops.  The bounding-sphere test of eq. (48) is applied
 * when the neighbour list is built (neighbor.c). */
#include "contact.h"
#include "contact_law.h"
#include <math.h>

size_t pala_batch_size(void) { return sizeof(pala_batch); }

/* Stage 1: distance, normal n_ij and overlap (eq. 50), sqrt(r~ (-d)) of eq. (57) with
 * r~ = H(a_i, a_j) (eq. 55; contact_law.h), the lever arms a - ov/2 of the contact point
 * c_ij = c_i - (a_i - ov/2) n = c_j + (a_j - ov/2) n (eq. 50), overlap / smaller radius. */
static void stage_geometry(pala_batch *B, int m)
{
    for (int i = 0; i < m; i++) {
        double ai = B->ai[i], aj = B->aj[i], sr = ai + aj;
        double dist = sqrt(B->d2[i]), inv = 1.0 / dist;
        double ov = sr - dist;
        B->ov[i] = ov;
        B->sq[i] = pala_law_root(pala_law_rt(ai, aj), ov);
        B->nx[i] = B->dx[i] * inv; B->ny[i] = B->dy[i] * inv; B->nz[i] = B->dz[i] * inv;
        B->li[i] = ai - 0.5 * ov;
        B->lj[i] = aj - 0.5 * ov;
        B->ratio[i] = ov / (ai < aj ? ai : aj);
    }
}

/* The material pair of each contact (worlds of several materials). */
static void stage_materials(const pala_world *w, pala_batch *B, int m)
{
    for (int i = 0; i < m; i++) {
        const pala_pairmat *pm = w->pm + w->tmpl[w->tid[B->k[i]]].material * w->nmat + w->tmpl[w->tid[B->j[i]]].material;
        B->kE[i] = pm->kE; B->de[i] = pm->delta; B->mu[i] = pm->mu; B->nu[i] = pm->nu;
    }
}

/* Stage 3: the contact laws (contact_law.h: Hertz force, eq. 57; restitution, eq. 56;
 * friction, eq. 53) from the relative velocity w at the contact point (eq. 54); then the
 * contributions to both grains.  Spheres: w = u - s x n with s = l_i w_i + l_j w_j; the
 * contact point lies on the line of centres (lever arms -l_i n and l_j n), the normal
 * force has no torque, and the torque of F = f_n n - c w_t on either sphere is
 * l c (n x w_t) (eq. 51; docs/physics.md, "Erratum 3").  Clumps: w = u, torques r x F about each
 * grain's centre (eq. 51).  one: the world has one material pair, pm (else arrays). */
static inline void stage_force(pala_batch *B, int m, int spheres, int one, pala_pairmat pm)
{
    for (int i = 0; i < m; i++) {
        double kE = one ? pm.kE : B->kE[i], de = one ? pm.delta : B->de[i];
        double mu = one ? pm.mu : B->mu[i], nu = one ? pm.nu : B->nu[i];
        double nx = B->nx[i], ny = B->ny[i], nz = B->nz[i];
        double dvx = B->ux[i], dvy = B->uy[i], dvz = B->uz[i];
        if (spheres) {
            dvx -= B->sy[i] * nz - B->sz[i] * ny;
            dvy -= B->sz[i] * nx - B->sx[i] * nz;
            dvz -= B->sx[i] * ny - B->sy[i] * nx;
        }
        double fh = pala_law_hertz(kE, B->sq[i], B->ov[i]);                    /* eq. (57) */
        pala_law_force f = pala_law_contact(fh, de, mu, nu, nx, ny, nz, dvx, dvy, dvz);   /* eqs. (53)-(56) */
        double Fx = f.Fx, Fy = f.Fy, Fz = f.Fz, Gx = f.Gx, Gy = f.Gy, Gz = f.Gz;
        B->Fx[i] = Fx; B->Fy[i] = Fy; B->Fz[i] = Fz;
        B->Gx[i] = Gx; B->Gy[i] = Gy; B->Gz[i] = Gz;
        if (spheres) {
            double c = f.c, wtx = f.wtx, wty = f.wty, wtz = f.wtz;
            double ux = c * (ny * wtz - nz * wty), uy = c * (nz * wtx - nx * wtz), uz = c * (nx * wty - ny * wtx);
            double li = B->li[i], lj = B->lj[i];
            B->Tix[i] = li * ux; B->Tiy[i] = li * uy; B->Tiz[i] = li * uz;
            B->Tjx[i] = lj * ux; B->Tjy[i] = lj * uy; B->Tjz[i] = lj * uz;
        } else {
            double rix = B->rix[i], riy = B->riy[i], riz = B->riz[i], rjx = B->rjx[i], rjy = B->rjy[i], rjz = B->rjz[i];
            B->Tix[i] = riy * Fz - riz * Fy; B->Tiy[i] = riz * Fx - rix * Fz; B->Tiz[i] = rix * Fy - riy * Fx;
            B->Tjx[i] = rjy * -Fz - rjz * -Fy; B->Tjy[i] = rjz * -Fx - rjx * -Fz; B->Tjz[i] = rjx * -Fy - rjy * -Fx;
            B->Hix[i] = riy * Gz - riz * Gy; B->Hiy[i] = riz * Gx - rix * Gz; B->Hiz[i] = rix * Gy - riy * Gx;
            B->Hjx[i] = rjy * -Gz - rjz * -Gy; B->Hjy[i] = rjz * -Gx - rjx * -Gz; B->Hjz[i] = rjx * -Gy - rjy * -Gx;
        }
    }
}

/* Stages 1-3 on a batch of wall touches: the clump stages of the pair kernel, with
 * r~ of the wall (container.h). */
void pala_contact_walls(const pala_world *w, pala_batch *B)
{
    int m = B->n;
    for (int i = 0; i < m; i++) B->sq[i] = pala_law_root(B->rt[i], B->ov[i]);
    stage_force(B, m, 0, 0, w->pm[0]);
}

/* Stages 1-3 on a batch of sphere pairs. */
void pala_contact_spheres(const pala_world *w, pala_batch *B)
{
    const pala_vec3 *V = w->v, *W = w->w;
    int m = B->n;
    stage_geometry(B, m);
    for (int i = 0; i < m; i++) {   /* stage 2: velocities (eq. 54) */
        int k = B->k[i], j = B->j[i];
        double li = B->li[i], lj = B->lj[i];
        B->ux[i] = V[k].x - V[j].x; B->uy[i] = V[k].y - V[j].y; B->uz[i] = V[k].z - V[j].z;
        B->sx[i] = li * W[k].x + lj * W[j].x;
        B->sy[i] = li * W[k].y + lj * W[j].y;
        B->sz[i] = li * W[k].z + lj * W[j].z;
    }
    if (w->nmat == 1) stage_force(B, m, 1, 1, w->pm[0]);   /* the material pair: constants */
    else { stage_materials(w, B, m); stage_force(B, m, 1, 0, w->pm[0]); }
}

/* Stages 1-3 on a batch of component pairs of clumps: stage 2 finds the contact point
 * c_ij (eq. 50), the lever arms from both grains' centres and the velocities of both
 * grains' material there (eq. 54). */
void pala_contact_clumps(const pala_world *w, pala_batch *B)
{
    const pala_vec3 *pc = w->pc, *X = w->x, *V = w->v, *W = w->w;
    int m = B->n;
    stage_geometry(B, m);
    for (int i = 0; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        pala_vec3 n = pala_v(B->nx[i], B->ny[i], B->nz[i]);
        pala_vec3 cp = pala_vaxpy(pc[B->p[i]], -B->li[i], n);                 /* eq. (50) */
        pala_vec3 ri = pala_vsub(cp, X[k]), rj = pala_vsub(cp, X[j]);
        pala_vec3 dv = pala_vsub(pala_vadd(V[k], pala_vcross(W[k], ri)), pala_vadd(V[j], pala_vcross(W[j], rj)));
        B->ux[i] = dv.x; B->uy[i] = dv.y; B->uz[i] = dv.z;
        B->rix[i] = ri.x; B->riy[i] = ri.y; B->riz[i] = ri.z;
        B->rjx[i] = rj.x; B->rjy[i] = rj.y; B->rjz[i] = rj.z;
    }
    if (w->nmat == 1) stage_force(B, m, 0, 1, w->pm[0]);
    else { stage_materials(w, B, m); stage_force(B, m, 0, 0, w->pm[0]); }
}


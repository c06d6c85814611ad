/* contact.c: the contact kernel (paper sections 4-5, eqs. 48-57) on batches of touching
 * component pairs and wall touches, and the contact model (which laws the material pairs
 * have, the state they keep).
 *
 * One kernel, contact_one, composes the laws of contact_law.h for one contact: the normal
 * law, its damping, the tangential law, rolling and torsion resistance, then the torques.
 * Two drivers call it:
 *   - the general driver, contact by contact, with each contact's laws read from its
 *     material pair at run time (every law, every combination);
 *   - the vectorised driver, in stages: geometry, velocities and the laws' coefficients in
 *     loops of their own, then the kernel in one loop instantiated for the families of
 *     laws the world has (the selects of the kernel stay, the branches between families
 *     are gone), which the compiler vectorises.
 * They run the same expressions in the same order, so they agree bit for bit by
 * construction; tests/test_contact.c checks every combination.  The bounding-sphere test
 * of eq. (48) is applied when the neighbour list is built (neighbor.c). */
#include "contact.h"
#include "contact_law.h"
#include "alloc.h"
#include "work.h"
#include "fractional.h"
#include "neighbor.h"
#include "surface.h"
#include "vec4.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t pala_batch_size(void) { return sizeof(pala_batch); }

#define AI static inline __attribute__((always_inline))

/* The shapes of a batch: pairs of spheres (lever arms along n), pairs of components of
 * clumps (lever arms from both grains' centres), wall touches in a world of spheres or of
 * clumps. */
enum { SH_SPHERES, SH_CLUMPS, SH_WALLS_S, SH_WALLS_C };

/* ---- stages of geometry and velocity ----------------------------------------------------- */
/* Distance, normal n_ij and overlap (eq. 50), sqrt(r~ (-d)) of eq. (57) with
 * r~ = H(a_i, a_j) (eq. 55; contact_law.h), the lever arms a - ov/2 of the contact point
 * c_ij = c_i - (a_i - ov/2) n = c_j + (a_j - ov/2) n (eq. 50), overlap / smaller radius.
 * one: spheres of one radius a1 (nl->trad1), which the sweep did not write into ai and aj
 * (force_pass.c, collect_pairs): each expression of the same values, and with wa ai and aj
 * written here (rolling and torsion read them; nothing else in the kernel does). */
AI void geometry(pala_batch *B, int m, const int one, const double a1, const int wa)
{
    for (int i = 0; i < m; i++) {
        double ai = one ? a1 : B->ai[i], aj = one ? a1 : B->aj[i], sr = ai + aj;
        double dist = sqrt(B->d2[i]), inv = 1.0 / dist;
        double ov = sr - dist;
        if (one && wa) B->ai[i] = B->aj[i] = a1;
        B->ov[i] = ov;
        B->sq[i] = pala_law_root(pala_law_rt(ai, aj), ov);
        B->nx[i] = B->dx[i] * inv; B->ny[i] = B->dy[i] * inv; B->nz[i] = B->dz[i] * inv;
        B->li[i] = ai - 0.5 * ov;
        B->lj[i] = aj - 0.5 * ov;
        B->ratio[i] = ov / (ai < aj ? ai : aj);
    }
}

static void stage_geometry(pala_batch *B, int m) { geometry(B, m, 0, 0, 0); }

/* The reads of contact i of stage_sphere_points but its velocities: the spring's state,
 * 1/m*. */
AI void sphere_reads(const pala_world *w, pala_batch *B, int i, int k, int j, const int spr, const int im, const int ho)
{
    if (spr) {
        const double *st = B->hp[i];
        B->hx[i] = st[ho]; B->hy[i] = st[ho + 1]; B->hz[i] = st[ho + 2];
    }
    if (im) B->im[i] = w->work->invm[w->tid[k]] + w->work->invm[w->tid[j]];
}

/* The reads of a batch of sphere pairs before the kernel, in one loop: the velocities
 * v_i - v_j and s = l_i w_i + l_j w_j, from which the kernel forms the relative velocity at
 * the contact point (eq. 54) with the lever arms -l_i n and l_j n (eq. 50): w = v_i - v_j -
 * s x n; with spr, the springs' states from hp (spring_read); with im, 1/m* of each pair
 * (inv_mass: the dashpot's).  (Reads of the grains and states in a loop of their own, the
 * arithmetic in the kernel's vectorised loop; one loop for all three reads saves a loop's
 * overhead and the reloads of k and j.)  Four contacts at a time: each grain's v and omega
 * read as four doubles (x, y, z and the next grain's x; the last grain's the vector past
 * the grains, world.c room_vw), each contact's v_i - v_j and l_i w_i + l_j w_j formed as
 * rows, the rows turned into the batch's columns; the same operations on each value as the
 * scalar loop, whose code read every value apart (bench/pour's heap: -2.5 % instructions). */
AI void stage_sphere_points(const pala_world *w, pala_batch *B, int m, const int spr, const int im, const int ho)
{
    const pala_vec3 *V = w->v, *W = w->w;
    const double *Vd = &w->v[0].x, *Wd = &w->w[0].x;
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        const int *k = B->k + i, *j = B->j + i;
        v4d u[4], s[4], o[4];
        for (int c = 0; c < 4; c++) {
            const long a = 3 * (long)k[c], b = 3 * (long)j[c];
            const double li = B->li[i + c], lj = B->lj[i + c];
            u[c] = ld4(Vd + a) - ld4(Vd + b);
            s[c] = li * ld4(Wd + a) + lj * ld4(Wd + b);
            sphere_reads(w, B, i + c, k[c], j[c], spr, im, ho);
        }
        transpose4(u[0], u[1], u[2], u[3], o);   /* rows x, y, z (and the fourth, not used) into columns */
        st4(B->ux + i, o[0]); st4(B->uy + i, o[1]); st4(B->uz + i, o[2]);
        transpose4(s[0], s[1], s[2], s[3], o);
        st4(B->sx + i, o[0]); st4(B->sy + i, o[1]); st4(B->sz + i, o[2]);
    }
    for (; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        double li = B->li[i], lj = B->lj[i];
        B->ux[i] = V[k].x - V[j].x; B->uy[i] = V[k].y - V[j].y; B->uz[i] = V[k].z - V[j].z;
        B->sx[i] = li * W[k].x + lj * W[j].x;
        B->sy[i] = li * W[k].y + lj * W[j].y;
        B->sz[i] = li * W[k].z + lj * W[j].z;
        sphere_reads(w, B, i, k, j, spr, im, ho);
    }
}

/* Component pairs of clumps: the contact point c_ij (eq. 50), the lever arms from both
 * grains' centres and the velocities of both grains' material there (eq. 54). */
static void stage_clump_points(const pala_world *w, pala_batch *B, int m)
{
    const pala_vec3 *pc = w->pc, *X = w->x, *V = w->v, *W = w->w;
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
}

/* ---- the laws of one contact --------------------------------------------------------------- */
/* A contact's laws and coefficients: its material pair's (eq. 55), 1/m* of its grains. */
typedef struct lawp {
    double kE, kn, de, mu, nu, kf, cd, im;
    int nl, spr, mind, dash;
    const pala_pairmat *pm;   /* the general driver: rolling, torsion, the fractional law */
} lawp;

static inline lawp lawp_of(const pala_pairmat *pm, double im)
{
    int mind = pm->tlaw == PALA_TLAW_MINDLIN;
    return (lawp){pm->kE, pala_law_normal_coef(pm), pm->delta, pm->mu, pm->nu, mind ? pm->kG : pm->kt, pm->cdamp, im,
                  pm->nlaw, pm->tlaw >= PALA_TLAW_SPRING, mind, pm->damp == PALA_DAMP_DASHPOT, pm};
}

/* The fractional normal law (docs/physics.md, "The fractional-derivative normal law"):
 * P = c^alpha k^(1-alpha) D^alpha(zeta) (seed 003, eq. 7) of the overlap zeta = ov since the
 * contact began, zeta' = -w.n its approach rate; the state st (PALA_FRAC_NSTATE doubles,
 * zero at the contact's first step) advanced by one sample.  The force is max(0, P): no
 * tension.  The energy the state holds (pala_frac_energy) is the contact's; its change
 * leaves the step's dissipation *D, so that E_diss gets the work of the force less it. */
static double frac_normal(const pala_world *w, const pala_pairmat *pm, double *st, double ov, double zd, double *D)
{
    const pala_contacts *cm = w->work->cm;
    long q = pm - w->pm;
    const pala_frac *f = &cm->fr[q];
    double K = cm->frK[q], e0 = pala_frac_energy(f, st);
    double P = K * pala_frac_step(f, st, ov, zd);
    st[PALA_FRAC_MODES] = ov; st[PALA_FRAC_MODES + 1] = zd;   /* alpha = 0 and 1 leave them to us */
    *D -= K * (pala_frac_energy(f, st) - e0);
    return P > 0 ? P : 0;
}

/* Rolling and torsion resistance (seed of Alonso-Marroquin and McNamara, eqs. 57-61): the
 * relative angular velocity omega_c = omega_G - omega_G' is split into its rolling
 * (tangential) and torsion (normal) parts, each driving a spring with a cap
 * mu_r R* F_n (R* = r~/2), which grows over the step by rho (pala_law_cap_ratio); the
 * moment m_c acts on G, -m_c on G'.  Returns the energy the step dissipates; mc gets the
 * moment. */
static double roll_torsion(const pala_world *w, const pala_batch *B, int i, const pala_pairmat *pm, double *st, int pairs, double fc,
                           double rn, double rd, double dt, double *mc)
{
    const pala_contacts *cm = w->work->cm;
    const double n[3] = {B->nx[i], B->ny[i], B->nz[i]};
    const pala_vec3 oi = w->w[B->k[i]], oj = pairs ? w->w[B->j[i]] : pala_face_omega(w, B->face[i]);   /* a wall: its own */
    double oc[3] = {oi.x - oj.x, oi.y - oj.y, oi.z - oj.z};
    double on = oc[0] * n[0] + oc[1] * n[1] + oc[2] * n[2], D = 0;
    double rt = pairs ? pala_law_rt(B->ai[i], B->aj[i]) : B->rt[i];
    double rs = 0.5 * rt * fc;                                                 /* R* F_n */
    mc[0] = mc[1] = mc[2] = 0;
    if (pm->kroll > 0) {
        double *th = st + cm->ho_r, orl[3] = {oc[0] - on * n[0], oc[1] - on * n[1], oc[2] - on * n[2]};
        pala_law_in_plane(th, n[0], n[1], n[2]);
        D += pala_law_spring(th, orl, pm->kroll, pm->muroll * rs, rn, rd, dt, mc, 1);
    }
    if (pm->ktor > 0) {
        double mo;
        D += pala_law_spring1(st + cm->ho_o, on, pm->ktor, pm->mutor * rs, rn, rd, dt, &mo);
        for (int a = 0; a < 3; a++) mc[a] += mo * n[a];
    }
    return D;
}

/* A flag of contact_one's laws: the springs' states are in the contact plane already
 * (drive_loop). */
#define LAWS_PLANED (1u << 30)
/* the caller reads F's and G's x and y and the torques' z alone (an arc world in the plane:
 * force_pass.c, deliver_planar): F_z, G_z and the torques' x and y are not stored (so not
 * formed) */
#define LAWS_XY (1u << 29)

/* The kernel: contact i of a batch whose geometry (n, ov, sq, lever arms) and relative
 * velocity u of G's material at the contact point (eq. 54) are known, with laws L; laws:
 * the families the caller's world may have (PALA_LAWS_*; a constant, so each driver's loop
 * keeps only its families' code).  Forces and torques into the batch:
 *   the normal law's elastic force fe (eq. 57), its damping (the switch of eq. 56, or the
 *   dashpot) giving the normal force fn and fc, the force the caps of the springs take;
 *   the tangential law: eq. (53), or the spring of docs/physics.md, "The tangential
 *   spring" (its state in hx, hy, hz);
 *   the torques about each grain's centre (eq. 51): on a sphere the regularised
 *   friction's is l c (n x w_t) (its normal force acts through the centre; docs/physics.md,
 *   "Erratum 3"), the others r x F;
 *   rolling and torsion (general driver).
 * The caps of the springs take F_n as the elastic force (a fractional pair: its force,
 * which has no elastic part of its own): with the restitution of eq. (56) the force is
 * delta F_H while the pair separates, and a resting contact switches branch from step to
 * step, so a cap that followed it would lower the static friction by up to the factor
 * delta.  With the dashpot the force is continuous and the caps take it. */
AI void contact_one(const pala_world *w, pala_batch *restrict B, int i, const lawp L, const int shape, const unsigned laws, const double dt)
{
    const int pairs = shape == SH_SPHERES || shape == SH_CLUMPS, sph = shape == SH_SPHERES || shape == SH_WALLS_S;
    const int REG = laws & PALA_LAWS_REG, SPR = laws & PALA_LAWS_SPRING, RT = laws & PALA_LAWS_ROLLTOR;
    const double nx = B->nx[i], ny = B->ny[i], nz = B->nz[i];
    double ux = B->ux[i], uy = B->uy[i], uz = B->uz[i];
    if (shape == SH_SPHERES) {   /* w = v_i - v_j - s x n (stage_sphere_points) */
        ux -= B->sy[i] * nz - B->sz[i] * ny;
        uy -= B->sz[i] * nx - B->sx[i] * nz;
        uz -= B->sx[i] * ny - B->sy[i] * nx;
    }
    const double sq = B->sq[i], ov = B->ov[i];
    double *st = (laws & (PALA_LAWS_ROLLTOR | PALA_LAWS_FRAC)) ? B->hp[i] : NULL;
    double un = ux * nx + uy * ny + uz * nz;                                   /* eq. (54) */
    double D = 0;
    /* the normal law and its damping */
    double fe = (laws & PALA_LAWS_NLAW) ? pala_law_normal_force(L.nl, L.kE, L.kn, sq, ov) : pala_law_hertz(L.kE, sq, ov);
    double fn = pala_law_switch(fe, L.de, un), fc = fe;                       /* eq. (56) */
    if (laws & PALA_LAWS_DASH) {   /* docs/physics.md, "The normal dashpot" */
        double stiff = (laws & PALA_LAWS_NLAW) ? pala_law_stiffness(L.nl, L.kE, L.kn, sq) : L.kE * sq;
        double fd = pala_law_dashpot(fe, L.cd, stiff, L.im, un), fp = fd > 0 ? fd : 0;
        double fdn = (laws & PALA_LAWS_NLAW) && pala_law_pulls(L.nl) ? fd : fp;
        fn = L.dash ? fdn : fn;
        fc = L.dash ? fp : fc;
    }
    if ((laws & PALA_LAWS_FRAC) && L.nl == PALA_NLAW_FRACTIONAL) {   /* all of it non-conservative; the caps use it */
        fn = fc = st ? frac_normal(w, L.pm, st + w->work->cm->ho_f, ov, -un, &D) : 0;
        fe = 0;
    }
    /* the tangential law */
    double tx = ux - un * nx, ty = uy - un * ny, tz = uz - un * nz, g = fn - fe;
    double Fx = 0, Fy = 0, Fz = 0, Gx = 0, Gy = 0, Gz = 0, c = 0;
    if (REG) {   /* eq. (53) */
        c = pala_law_friction(L.mu, L.nu, fn, tx, ty, tz);
        Fx = fn * nx - c * tx; Fy = fn * ny - c * ty; Fz = fn * nz - c * tz;
        Gx = g * nx - c * tx; Gy = g * ny - c * ty; Gz = g * nz - c * tz;
    }
    const int s = !REG || (SPR && L.spr);   /* this contact has the spring */
    /* the power of the overlap the caps grow with (Hertz 3/2, Hooke 1; 0: not known) */
    const double cpow = (laws & (PALA_LAWS_NLAW | PALA_LAWS_FRAC)) ? pala_law_cap_power(L.nl) : 1.5;
    if (SPR) {
        double k = L.mind ? L.kf * sq : L.kf;                                  /* 8 G* a, or k_t */
        double x[3] = {B->hx[i], B->hy[i], B->hz[i]}, t[3] = {tx, ty, tz}, Fs[3];
        if (!(laws & LAWS_PLANED)) pala_law_in_plane(x, nx, ny, nz);
        /* cap/k grows to the step's end as ov^(p - 1/2) over Mindlin's k (8 G* a), as ov^p
         * over a constant k */
        double rn, rd;
        pala_law_cap_ratio(ov, un, cpow > 0 ? (L.mind ? cpow - 0.5 : cpow) : 0, dt, &rn, &rd);
        /* Mindlin's stiffness changes: the energy held after the last step is summed apart
         * (the force pass adds it to D), so D leaves out 0.5 k |x0|^2 and E holds 0.5 k |x1|^2 */
        double Ds = pala_law_spring(x, t, k, L.mu * fc, rn, rd, dt, Fs, !L.mind);
        double e1 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
        B->E[i] = s && L.mind ? 0.5 * k * e1 : 0;   /* always stored: a store under a branch keeps the loop scalar */
        B->hx[i] = s ? x[0] : B->hx[i]; B->hy[i] = s ? x[1] : B->hy[i]; B->hz[i] = s ? x[2] : B->hz[i];
        D = s ? D + Ds : D;
        Fx = s ? Fs[0] + fn * nx : Fx; Fy = s ? Fs[1] + fn * ny : Fy; Fz = s ? Fs[2] + fn * nz : Fz;
        Gx = s ? g * nx : Gx; Gy = s ? g * ny : Gy; Gz = s ? g * nz : Gz;
    }
    B->Fx[i] = Fx; B->Fy[i] = Fy;
    B->Gx[i] = Gx; B->Gy[i] = Gy;
    if (!(laws & LAWS_XY)) B->Fz[i] = Fz, B->Gz[i] = Gz;
    /* the torques (eq. 51) */
    double Tix, Tiy, Tiz, Tjx = 0, Tjy = 0, Tjz = 0, Hix = 0, Hiy = 0, Hiz = 0, Hjx = 0, Hjy = 0, Hjz = 0;
    if (shape == SH_SPHERES) {
        /* r x F with the lever arms r_i = -l_i n, r_j = l_j n: l_i (F x n) on G, l_j (F x n) on G' */
        double li = B->li[i], lj = B->lj[i], fx = Fy * nz - Fz * ny, fy = Fz * nx - Fx * nz, fz = Fx * ny - Fy * nx;
        double qx = c * (ny * tz - nz * ty), qy = c * (nz * tx - nx * tz), qz = c * (nx * ty - ny * tx);
        Tix = li * fx; Tiy = li * fy; Tiz = li * fz;
        Tjx = lj * fx; Tjy = lj * fy; Tjz = lj * fz;
        if (REG) {   /* friction's torque: also the non-conservative one */
            Hix = li * qx; Hiy = li * qy; Hiz = li * qz;
            Hjx = lj * qx; Hjy = lj * qy; Hjz = lj * qz;
            Tix = s ? Tix : Hix; Tiy = s ? Tiy : Hiy; Tiz = s ? Tiz : Hiz;
            Tjx = s ? Tjx : Hjx; Tjy = s ? Tjy : Hjy; Tjz = s ? Tjz : Hjz;
            Hix = s ? 0 : Hix; Hiy = s ? 0 : Hiy; Hiz = s ? 0 : Hiz;
            Hjx = s ? 0 : Hjx; Hjy = s ? 0 : Hjy; Hjz = s ? 0 : Hjz;
        }
    } else {
        double rix = B->rix[i], riy = B->riy[i], riz = B->riz[i];
        Tix = riy * Fz - riz * Fy; Tiy = riz * Fx - rix * Fz; Tiz = rix * Fy - riy * Fx;
        Hix = riy * Gz - riz * Gy; Hiy = riz * Gx - rix * Gz; Hiz = rix * Gy - riy * Gx;
        if (sph) {   /* a sphere's spring contact: G acts through the centre */
            Hix = s ? 0 : Hix; Hiy = s ? 0 : Hiy; Hiz = s ? 0 : Hiz;
        }
        if (pairs) {
            double rjx = B->rjx[i], rjy = B->rjy[i], rjz = B->rjz[i];
            Tjx = Fy * rjz - Fz * rjy; Tjy = Fz * rjx - Fx * rjz; Tjz = Fx * rjy - Fy * rjx;
            Hjx = Gy * rjz - Gz * rjy; Hjy = Gz * rjx - Gx * rjz; Hjz = Gx * rjy - Gy * rjx;
        }
    }
    if (RT && st && (L.pm->kroll > 0 || L.pm->ktor > 0)) {
        double mc[3], rn, rd;
        pala_law_cap_ratio(ov, un, cpow, dt, &rn, &rd);
        D += roll_torsion(w, B, i, L.pm, st, pairs, fc, rn, rd, dt, mc);
        B->mcx[i] = mc[0]; B->mcy[i] = mc[1]; B->mcz[i] = mc[2];
        Tix += mc[0]; Tiy += mc[1]; Tiz += mc[2];
        Tjx -= mc[0]; Tjy -= mc[1]; Tjz -= mc[2];
    }
    if (laws & LAWS_XY) {   /* the z's, formed as below; the x's and y's left unformed */
        B->Tiz[i] = Tiz; B->Tjz[i] = Tjz; B->Hiz[i] = Hiz; B->Hjz[i] = Hjz;
    } else {
        B->Tix[i] = Tix; B->Tiy[i] = Tiy; B->Tiz[i] = Tiz;
        if (pairs) { B->Tjx[i] = Tjx; B->Tjy[i] = Tjy; B->Tjz[i] = Tjz; }
        if (shape != SH_SPHERES || (REG && (SPR || RT))) {   /* pala_contacts_sphere_h */
            B->Hix[i] = Hix; B->Hiy[i] = Hiy; B->Hiz[i] = Hiz;
            if (pairs) { B->Hjx[i] = Hjx; B->Hjy[i] = Hjy; B->Hjz[i] = Hjz; }
        }
    }
    if (laws & (PALA_LAWS_SPRING | PALA_LAWS_ROLLTOR | PALA_LAWS_FRAC | PALA_LAWS_DASH)) B->D[i] = D;
}

/* ---- the drivers --------------------------------------------------------------------------- */
/* 1/m* of contact i (a wall: of the one grain). */
static inline double inv_mass(const pala_world *w, const pala_batch *B, int i, int pairs)
{
    const double *invm = w->work->invm;
    return invm[w->tid[B->k[i]]] + (pairs ? invm[w->tid[B->j[i]]] : 0);
}

static inline const pala_pairmat *pm_of(const pala_world *w, const pala_batch *B, int i, int pairs)
{
    return pala_pm_of(w, B->k[i], pairs ? pala_mat_of(w, B->j[i]) : B->jmat[i]);
}

/* The springs' states of a batch: read before the kernel, written after.  hp is NULL only
 * in the walls' energy pass (dt 0, force_pass.c), whose states stay as they are: zero is
 * read, nothing written.  (ho_t in a local: the batch's stores could alias cm.) */
static void spring_read(const pala_contacts *cm, pala_batch *B, int m, double dt)
{
    const int ho = cm->ho_t;
    for (int i = 0; i < m; i++) {
        const double *st = B->hp[i];
        B->hx[i] = dt > 0 ? st[ho] : 0; B->hy[i] = dt > 0 ? st[ho + 1] : 0; B->hz[i] = dt > 0 ? st[ho + 2] : 0;
    }
}

void pala_contact_spring_write(const pala_contacts *cm, pala_batch *B, int m, double dt)
{
    const int ho = cm->ho_t;
    for (int i = 0; i < m && dt > 0; i++) {
        double *st = B->hp[i];
        st[ho] = B->hx[i]; st[ho + 1] = B->hy[i]; st[ho + 2] = B->hz[i];
    }
}

/* The general driver: contact by contact, its laws from its material pair. */
static void drive_general(const pala_world *w, pala_batch *B, int m, double dt, int shape)
{
    const int pairs = shape == SH_SPHERES || shape == SH_CLUMPS;
    for (int i = 0; i < m; i++) {
        lawp L = lawp_of(pm_of(w, B, i, pairs), inv_mass(w, B, i, pairs));
        contact_one(w, B, i, L, shape, PALA_LAWS_ALL, dt);
    }
}

/* The coefficients of each contact's laws into the batch's arrays, for the families laws
 * (a wall touch has kE, de, mu, nu from pala_contact_wall_join). */
static void stage_laws(const pala_world *w, pala_batch *B, int m, int pairs, unsigned laws)
{
    for (int i = 0; i < m; i++) {
        const pala_pairmat *pm = pm_of(w, B, i, pairs);
        if (pairs) { B->kE[i] = pm->kE; B->de[i] = pm->delta; B->mu[i] = pm->mu; B->nu[i] = pm->nu; }
        if (laws & PALA_LAWS_SPRING) {
            B->spr[i] = pm->tlaw >= PALA_TLAW_SPRING;
            B->mind[i] = pm->tlaw == PALA_TLAW_MINDLIN;
            B->kf[i] = B->mind[i] ? pm->kG : pm->kt;
        }
        if (laws & PALA_LAWS_DASH) {
            B->cd[i] = pm->cdamp;
            B->dp[i] = pm->damp == PALA_DAMP_DASHPOT;
            B->im[i] = inv_mass(w, B, i, pairs);
        }
        if (laws & PALA_LAWS_NLAW) { B->nl[i] = pm->nlaw; B->kn[i] = pala_law_normal_coef(pm); }
    }
}

/* The reads before the kernel loop: sphere pairs' velocities (stage_sphere_points), with
 * spr the springs' states (spring_read: zero in an energy pass, dt 0), with im 1/m* of each
 * contact (inv_mass); for sphere pairs in one loop. */
AI void stage_reads(const pala_world *w, pala_batch *B, int m, double dt, const int shape, const int spr, const int im)
{
    const pala_contacts *cm = w->work->cm;
    const int pairs = shape == SH_SPHERES || shape == SH_CLUMPS;
    if (shape == SH_SPHERES && spr && dt > 0) {
        stage_sphere_points(w, B, m, 1, im, cm->ho_t);
        return;
    }
    if (shape == SH_SPHERES) stage_sphere_points(w, B, m, 0, im, 0);
    else if (im)
        for (int i = 0; i < m; i++) B->im[i] = inv_mass(w, B, i, pairs);   /* apart: the kernel loop stays vectorised */
    if (spr) spring_read(cm, B, m, dt);
}

/* The vectorised driver's kernel loop: the laws of the families laws, constants of the one
 * material pair pm0 (one; with the spring, laws' PALA_LAWS_MINDLIN then says whether it is
 * Mindlin's, so that the selects on it fold; with the dashpot, 1/m* is each contact's in
 * B->im, docs/physics.md, "The normal dashpot", or with imc (grains of one mass, cm->im1)
 * the constant of inv_mass, im1 + im1 for a pair, im1 + 0 for a wall touch) or the batch's
 * arrays. */
AI void drive_loop(const pala_world *w, pala_batch *restrict B, int m, double dt, const int shape, const unsigned laws, const int one,
                   const pala_pairmat *pm0, const int imc)
{
    const int pairs = shape == SH_SPHERES || shape == SH_CLUMPS;
    const double im1 = imc ? w->work->cm->im1 : 0;
    lawp L0 = lawp_of(pm0, im1 + (pairs ? im1 : 0));
    if (one && (laws & PALA_LAWS_SPRING)) L0.mind = (laws & PALA_LAWS_MINDLIN) != 0;   /* a constant: its selects fold */
    /* Every contact has its spring (no regularised friction): its state is turned into the
     * contact plane first, in a loop of its own.  The same operations; but the kernel's loop
     * is a chain of square roots and divisions (the turn's, then the spring's) too long for
     * the core to overlap two of its iterations: llvm-mca (znver3) put the drum's loop at 169
     * cycles per 4 contacts, its throughput bound at 62; with the turn apart, 118 + 24. */
    const int pre = (laws & PALA_LAWS_SPRING) && !(laws & PALA_LAWS_REG);
    if (pre)
        for (int i = 0; i < m; i++) {
            double x[3] = {B->hx[i], B->hy[i], B->hz[i]};
            pala_law_in_plane(x, B->nx[i], B->ny[i], B->nz[i]);
            B->hx[i] = x[0]; B->hy[i] = x[1]; B->hz[i] = x[2];
        }
    for (int i = 0; i < m; i++) {
        lawp L = L0;
        if (one && (laws & PALA_LAWS_DASH) && !imc) L.im = B->im[i];
        if (!one) {
            L.kE = B->kE[i]; L.de = B->de[i]; L.mu = B->mu[i]; L.nu = B->nu[i];
            if (laws & PALA_LAWS_SPRING) { L.spr = B->spr[i]; L.mind = B->mind[i]; L.kf = B->kf[i]; }
            if (laws & PALA_LAWS_DASH) { L.cd = B->cd[i]; L.dash = B->dp[i]; L.im = B->im[i]; }
            if (laws & PALA_LAWS_NLAW) { L.nl = B->nl[i]; L.kn = B->kn[i]; }
        }
        contact_one(w, B, i, L, shape, pre ? laws | LAWS_PLANED : laws, dt);
    }
}

/* The families the vectorised driver is instantiated for: the regularised friction, the
 * spring, both; each with or without the dashpot and another normal law. */
#define VEC_LAWS (PALA_LAWS_REG | PALA_LAWS_SPRING | PALA_LAWS_DASH | PALA_LAWS_NLAW)
#define VEC_CASE(f) case f: drive_loop(w, B, m, dt, shape, f, 0, w->pm, 0); break;

/* The vectorised driver: the reads (velocities of sphere pairs, the springs' states), the
 * laws' coefficients (constants when the world has one material pair and neither dashpot
 * nor another normal law, for pairs and walls alike: a wall touch has that pair too), the
 * kernel loop, the springs' states out with wr (else the caller writes them).  A world
 * with rolling, torsion or the fractional law takes the general driver's loop (those laws
 * are stepped contact by contact). */
AI void drive_vector(const pala_world *w, pala_batch *B, int m, double dt, const int shape, const int wr, const unsigned xy)
{
    const pala_contacts *cm = w->work->cm;
    const int pairs = shape == SH_SPHERES || shape == SH_CLUMPS;
    const unsigned laws = cm->laws & VEC_LAWS;
    const int spr = (laws & PALA_LAWS_SPRING) != 0;
    if (cm->general || (cm->laws & (PALA_LAWS_ROLLTOR | PALA_LAWS_FRAC))) {
        stage_reads(w, B, m, dt, shape, (cm->laws & PALA_LAWS_SPRING) != 0, 0);
        drive_general(w, B, m, dt, shape);
        if ((cm->laws & PALA_LAWS_SPRING) && wr) pala_contact_spring_write(cm, B, m, dt);
        return;
    }
    if (w->nmat == 1 && laws == PALA_LAWS_REG) {
        stage_reads(w, B, m, dt, shape, 0, 0);
        drive_loop(w, B, m, dt, shape, PALA_LAWS_REG, 1, w->pm, 0);
    } else if (w->nmat == 1 && laws == (PALA_LAWS_REG | PALA_LAWS_NLAW)) {
        /* one material, the regularised friction and another normal law (the linear spring of
         * bench/arcs): its kind and coefficient, pala_law_normal_coef's, constants of the loop
         * rather than stage_laws' per contact (the same values: the same bits).  Settled
         * quasi-triangles: stage_laws 63 instructions a grain-step; round discs (spheres and
         * their walls since session 20) 30 */
        stage_reads(w, B, m, dt, shape, 0, 0);
        drive_loop(w, B, m, dt, shape, PALA_LAWS_REG | PALA_LAWS_NLAW | xy, 1, w->pm, 0);
    } else if (w->nmat == 1 && laws == PALA_LAWS_SPRING && (cm->laws & PALA_LAWS_MINDLIN)) {
        stage_reads(w, B, m, dt, shape, 1, 0);
        drive_loop(w, B, m, dt, shape, PALA_LAWS_SPRING | PALA_LAWS_MINDLIN, 1, w->pm, 0);
    } else if (w->nmat == 1 && laws == PALA_LAWS_SPRING) {
        stage_reads(w, B, m, dt, shape, 1, 0);
        drive_loop(w, B, m, dt, shape, PALA_LAWS_SPRING, 1, w->pm, 0);
    } else if (w->nmat == 1 && laws == (PALA_LAWS_SPRING | PALA_LAWS_DASH) && (cm->laws & PALA_LAWS_MINDLIN)) {   /* LAMMPS's gran/hertz/history */
        const unsigned f = PALA_LAWS_SPRING | PALA_LAWS_MINDLIN | PALA_LAWS_DASH;
        if (cm->im1 > 0) {   /* grains of one mass: 1/m* a constant */
            stage_reads(w, B, m, dt, shape, 1, 0);
            drive_loop(w, B, m, dt, shape, f, 1, w->pm, 1);
        } else {
            stage_reads(w, B, m, dt, shape, 1, 1);
            drive_loop(w, B, m, dt, shape, f, 1, w->pm, 0);
        }
    } else {
        stage_reads(w, B, m, dt, shape, spr, 0);
        if (pairs || laws != PALA_LAWS_REG) stage_laws(w, B, m, pairs, laws);   /* a wall touch has eq. 53's coefficients */
        switch (laws) {
            VEC_CASE(1) VEC_CASE(2) VEC_CASE(3) VEC_CASE(9) VEC_CASE(10) VEC_CASE(11)
            VEC_CASE(17) VEC_CASE(18) VEC_CASE(19) VEC_CASE(25) VEC_CASE(26) VEC_CASE(27)
            default: drive_general(w, B, m, dt, shape);
        }
    }
    if (spr && wr) pala_contact_spring_write(cm, B, m, dt);
}

void pala_contact_spheres(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    if (w->nl && w->nl->trad1 > 0 && (w->work->cm->laws & PALA_LAWS_ROLLTOR)) geometry(B, m, 1, w->nl->trad1, 1);   /* spheres of one radius */
    else if (w->nl && w->nl->trad1 > 0) geometry(B, m, 1, w->nl->trad1, 0);
    else stage_geometry(B, m);
    drive_vector(w, B, m, dt, SH_SPHERES, 0, 0);   /* the force pass writes the states with its sums */
}

/* pala_contact_clumps, or with xy LAWS_XY pala_contact_clumps_planar */
AI void clumps(const pala_world *w, pala_batch *B, double dt, const unsigned xy)
{
    int m = B->n;
    stage_geometry(B, m);
    stage_clump_points(w, B, m);
    drive_vector(w, B, m, dt, SH_CLUMPS, 1, xy);
}

void pala_contact_clumps(const pala_world *w, pala_batch *B, double dt) { clumps(w, B, dt, 0); }
void pala_contact_clumps_planar(const pala_world *w, pala_batch *B, double dt) { clumps(w, B, dt, LAWS_XY); }

void pala_contact_walls(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    for (int i = 0; i < m; i++) B->sq[i] = pala_law_root(B->rt[i], B->ov[i]);
    if (w->work->spheres_only) drive_vector(w, B, m, dt, SH_WALLS_S, 1, 0);
    else drive_vector(w, B, m, dt, SH_WALLS_C, 1, 0);
}

/* ---- the contact model ---------------------------------------------------------------------- */
double pala_contact_state_energy(const pala_world *w, const pala_pairmat *pm, const double *st)
{
    const pala_contacts *cm = w->work->cm;
    double e = 0;
    if (pm->tlaw == PALA_TLAW_SPRING) {   /* Mindlin's: summed apart (nl->hmind) */
        const double *x = st + cm->ho_t;
        e += 0.5 * pm->kt * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    }
    if (pm->kroll > 0) {
        const double *x = st + cm->ho_r;
        e += 0.5 * pm->kroll * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    }
    if (pm->ktor > 0) e += 0.5 * pm->ktor * st[cm->ho_o] * st[cm->ho_o];
    if (pm->nlaw == PALA_NLAW_FRACTIONAL) {
        long q = pm - w->pm;
        e += cm->frK[q] * pala_frac_energy(&cm->fr[q], st + cm->ho_f);
    }
    return e;
}

void pala_contacts_frac_tables(pala_world *w)
{
    pala_contacts *cm = w->work->cm;
    int np = w->nmat * w->nmat;
    cm->fr = pala_xrealloc(cm->fr, (size_t)np * sizeof *cm->fr);
    cm->frK = pala_xrealloc(cm->frK, (size_t)np * sizeof *cm->frK);
    for (int i = 0; i < np; i++) {
        const pala_pairmat *pm = &w->pm[i];
        memset(&cm->fr[i], 0, sizeof cm->fr[i]);
        cm->frK[i] = 0;
        if (pm->nlaw != PALA_NLAW_FRACTIONAL) continue;
        cm->frK[i] = pow(pm->fc, pm->alpha) * pow(pm->fk, 1 - pm->alpha);   /* c^alpha k^(1-alpha), seed 003 eq. 7 */
        int same = -1;   /* a pair of the same alpha made already: its coefficients */
        for (int q = 0; q < i && same < 0; q++)
            if (w->pm[q].nlaw == PALA_NLAW_FRACTIONAL && w->pm[q].alpha == pm->alpha) same = q;
        if (same >= 0) cm->fr[i] = cm->fr[same];
        else pala_frac_make(&cm->fr[i], pm->alpha, w->dt);
    }
    cm->frac_dt = w->dt;
}

void pala_contacts_prepare(pala_world *w)
{
    if (!w->work->cm) {
        w->work->cm = pala_xrealloc(NULL, sizeof *w->work->cm);
        memset(w->work->cm, 0, sizeof *w->work->cm);
    }
    pala_contacts *cm = w->work->cm;
    unsigned laws = 0;
    for (int i = 0; i < w->nmat * w->nmat; i++) {
        const pala_pairmat *pm = &w->pm[i];
        laws |= pm->tlaw >= PALA_TLAW_SPRING ? PALA_LAWS_SPRING : PALA_LAWS_REG;
        laws |= pm->tlaw == PALA_TLAW_MINDLIN ? PALA_LAWS_MINDLIN : 0;
        laws |= pm->damp == PALA_DAMP_DASHPOT ? PALA_LAWS_DASH : 0;
        laws |= pm->kroll > 0 || pm->ktor > 0 ? PALA_LAWS_ROLLTOR : 0;
        laws |= pm->nlaw == PALA_NLAW_FRACTIONAL ? PALA_LAWS_FRAC : pm->nlaw != PALA_NLAW_HERTZ ? PALA_LAWS_NLAW : 0;
    }
    cm->laws = laws;
    cm->im1 = w->ntmpl > 0 ? w->work->invm[0] : 0;   /* 1/m of every grain, if all templates have the same mass */
    for (int t = 1; t < w->ntmpl; t++) cm->im1 = w->work->invm[t] == cm->im1 ? cm->im1 : 0;
    /* the history layout: the sum of the states the laws present declare */
    int hn = 0, roll = 0, tor = 0;
    for (int i = 0; i < w->nmat * w->nmat; i++) { roll |= w->pm[i].kroll > 0; tor |= w->pm[i].ktor > 0; }
    cm->ho_t = laws & PALA_LAWS_SPRING ? (hn += PALA_STATE_SPRING) - PALA_STATE_SPRING : -1;
    cm->ho_r = roll ? (hn += PALA_STATE_ROLL) - PALA_STATE_ROLL : -1;
    cm->ho_o = tor ? (hn += PALA_STATE_TORSION) - PALA_STATE_TORSION : -1;
    cm->ho_f = laws & PALA_LAWS_FRAC ? (hn += PALA_FRAC_NSTATE) - PALA_FRAC_NSTATE : -1;
    cm->hn = hn;
    if (laws & PALA_LAWS_FRAC) pala_contacts_frac_tables(w);
    pala_nlist_history(w, hn);
}

/* A pair's state seen from its other pebble (pala_contact_states_move, when a new order of
 * the grains swaps which of the two comes first): the relative velocity u of eq. (54) and
 * the rolling part of omega_c = omega_G - omega_G' change sign with the roles (n turns
 * too), so the tangential and rolling springs do; the torsion's omega_c . n does not, nor
 * does the fractional law's state (of the overlap). */
void pala_contact_state_swap(const pala_contacts *cm, double *st)
{
    for (int a = 0; a < 3; a++) {
        if (cm->ho_t >= 0) st[cm->ho_t + a] = -st[cm->ho_t + a];
        if (cm->ho_r >= 0) st[cm->ho_r + a] = -st[cm->ho_r + a];
    }
}

void pala_contacts_free(pala_contacts *cm)
{
    if (!cm) return;
    free(cm->fr); free(cm->frK);
    free(cm);
}

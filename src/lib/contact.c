/* contact.c: the contact kernel (paper sections 4-5, eqs. 48-57) on batches of touching
 * component pairs and wall touches.  The laws themselves are in contact_law.h; here they
 * are applied to a batch in structure-of-arrays form, in stages: the square roots,
 * divisions and most of the arithmetic in loops the compiler vectorises, the reads of the
 * grains' velocities in plain loops.  The bounding-sphere test of eq. (48) is applied
 * when the neighbour list is built (neighbor.c). */
#include "contact.h"
#include "contact_law.h"
#include "work.h"
#include "fractional.h"
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
        const pala_pairmat *pm = pala_pm_of(w, B->k[i], pala_mat_of(w, B->j[i]));
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

/* Stage 2 of component pairs of clumps: the contact point c_ij (eq. 50), the lever arms
 * from both grains' centres and the velocities of both grains' material there (eq. 54). */
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

/* Stages 1-3 on a batch of component pairs of clumps. */
void pala_contact_clumps(const pala_world *w, pala_batch *B)
{
    int m = B->n;
    stage_geometry(B, m);
    stage_clump_points(w, B, m);
    if (w->nmat == 1) stage_force(B, m, 0, 1, w->pm[0]);
    else { stage_materials(w, B, m); stage_force(B, m, 0, 0, w->pm[0]); }
}


/* ---- contact history (docs/physics.md, "Contact history") ------------------------------ */
static inline void cross3(const double *a, const double *b, double *c)
{
    c[0] = a[1] * b[2] - a[2] * b[1]; c[1] = a[2] * b[0] - a[0] * b[2]; c[2] = a[0] * b[1] - a[1] * b[0];
}

/* The fractional normal law (docs/physics.md, "The fractional-derivative normal law"):
 * P = c^alpha k^(1-alpha) D^alpha(zeta) (seed 003, eq. 7) of the overlap zeta = ov since the
 * contact began, zeta' = -w.n its approach rate; the state st (PALA_FRAC_NSTATE doubles,
 * zero at the contact's first step) advanced by one sample.  The force is max(0, P): no
 * tension.  The energy the state holds (pala_frac_energy) is the contact's; its change
 * leaves the step's dissipation *D, so that E_diss gets the work of the force less it. */
static double frac_normal(const pala_world *w, const pala_pairmat *pm, double *st, double ov, double zd, double *D)
{
    const pala_work *wk = w->work;
    long q = pm - w->pm;
    const pala_frac *f = &wk->fr[q];
    double K = wk->frK[q], e0 = pala_frac_energy(f, st);
    double P = K * pala_frac_step(f, st, ov, zd);
    st[PALA_FRAC_MODES] = ov; st[PALA_FRAC_MODES + 1] = zd;   /* alpha = 0 and 1 leave them to us */
    *D -= K * (pala_frac_energy(f, st) - e0);
    return P > 0 ? P : 0;
}

/* The caps of the springs take F_n as the elastic (Hertz) normal force (a fractional
 * pair: its force, which has no elastic part of its own): with the
 * restitution of eq. (56) the force is delta F_H while the pair separates, and a resting
 * contact switches branch from step to step, so a cap that followed it would lower the
 * static friction by up to the factor delta (docs/physics.md, "The tangential spring").
 * With the normal dashpot the force is continuous and the caps take it, dashpot included.
 *
 * Contact i of a batch whose geometry (n, ov, sq, lever arms ri and rj from the grains'
 * centres, relative velocity u of G's material at the contact point, eq. 54) is known:
 * the normal force (eqs. 56-57), the tangential law of the pair (eq. 53, or the spring),
 * rolling and torsion resistance, their state advanced over dt; forces and torques into
 * the batch.  The contact moment m_c acts on G, -m_c on G' (the relative angular velocity
 * omega_c = omega_G - omega_G' is split into its rolling (tangential) and torsion (normal)
 * parts; seed of Alonso-Marroquin and McNamara, eqs. 57-61: the stiffness stays symmetric). */
static void hist_one(const pala_world *w, pala_batch *B, int i, const pala_pairmat *pm, const pala_vec3 *omj, double dt)
{
    const pala_work *wk = w->work;
    double n[3] = {B->nx[i], B->ny[i], B->nz[i]}, u[3] = {B->ux[i], B->uy[i], B->uz[i]};
    double ri[3] = {B->rix[i], B->riy[i], B->riz[i]}, rj[3] = {B->rjx[i], B->rjy[i], B->rjz[i]};
    double *st = wk->hn ? B->hp[i] : NULL, D = 0, Em = 0;   /* a dashpot world may keep no state */
    double un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];                     /* eq. (54) */
    double fe, fn, fc;   /* the normal force's conservative part, the force, the one the caps take */
    if (pm->nlaw == PALA_NLAW_FRACTIONAL) {   /* all of it non-conservative; the caps use it */
        fn = fc = st ? frac_normal(w, pm, st + wk->ho_f, B->ov[i], -un, &D) : 0;
        fe = 0;
    } else if (pm->damp == PALA_DAMP_DASHPOT) {   /* docs/physics.md, "The normal dashpot" */
        /* F_H - c sqrt(m* K) ov^(1/4) w.n with F_H = K ov^(3/2): kE sq = K ov^(1/2); m* of
         * the two grains (a wall: of the one); never attractive */
        double im = wk->invm[w->tid[B->k[i]]] + (B->aj[i] > 0 ? wk->invm[w->tid[B->j[i]]] : 0);
        fe = pala_law_hertz(pm->kE, B->sq[i], B->ov[i]);                    /* eq. (57) */
        fn = fe - pm->cdamp * sqrt(pm->kE * B->sq[i] / im) * un;
        fn = fn > 0 ? fn : 0;
        fc = fn;   /* continuous: the caps follow it, as LAMMPS's do */
    } else {
        fe = pala_law_hertz(pm->kE, B->sq[i], B->ov[i]);                    /* eq. (57) */
        fn = (un > 0 ? pm->delta : 1.0) * fe;                                /* eq. (56) */
        fc = fe;   /* see above */
    }
    double F[3], G[3], ut[3] = {u[0] - un * n[0], u[1] - un * n[1], u[2] - un * n[2]};
    for (int a = 0; a < 3; a++) { F[a] = fn * n[a]; G[a] = (fn - fe) * n[a]; }
    if (pm->tlaw >= PALA_TLAW_SPRING && st) {   /* the tangential spring with a Coulomb cap */
        double *x = st + wk->ho_t, Ft[3], k = pm->kt;
        if (pm->tlaw == PALA_TLAW_MINDLIN) k = pm->kG * B->sq[i];          /* 8 G* a */
        pala_law_in_plane(x, n[0], n[1], n[2]);
        double e0 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
        /* how the cap over k grows to the step's end (pala_law_cap_ratio): F_H as ov^(3/2), over
         * Mindlin's k as ov; the rates of the dashpot's part and of the fractional force are
         * not known (docs/physics.md, "The tangential spring") */
        double rho = pm->nlaw == PALA_NLAW_FRACTIONAL ? 1.0
                   : pala_law_cap_ratio(B->ov[i], un, pm->tlaw == PALA_TLAW_MINDLIN ? 1.0 : 1.5, dt);
        D += pala_law_spring(x, ut, k, pm->mu * fc, rho, dt, Ft);
        if (pm->tlaw == PALA_TLAW_MINDLIN) {   /* a stiffness that changes: the energy held after the last step is summed
                                                * apart (the force pass adds it to D); this step's, 0.5 k |x|^2, the same */
            D -= 0.5 * k * e0;
            Em = 0.5 * k * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
        }
        for (int a = 0; a < 3; a++) F[a] += Ft[a];
    } else {   /* eq. (53) */
        double den = pm->nu + sqrt(ut[0] * ut[0] + ut[1] * ut[1] + ut[2] * ut[2]);
        double c = pm->mu * fn / (den > 0 ? den : 1.0);
        for (int a = 0; a < 3; a++) { F[a] -= c * ut[a]; G[a] -= c * ut[a]; }
    }
    double Ti[3], Tj[3], Hi[3], Hj[3];
    cross3(ri, F, Ti); cross3(F, rj, Tj);                                    /* eq. (51) */
    cross3(ri, G, Hi); cross3(G, rj, Hj);
    if (st && (pm->kroll > 0 || pm->ktor > 0)) {
        const pala_vec3 oi = w->w[B->k[i]];
        double oc[3] = {oi.x - omj->x, oi.y - omj->y, oi.z - omj->z};
        double on = oc[0] * n[0] + oc[1] * n[1] + oc[2] * n[2];
        double rt = B->aj[i] > 0 ? pala_law_rt(B->ai[i], B->aj[i]) : B->rt[i];   /* walls: aj = 0 */
        double rs = 0.5 * rt * fc, mc[3] = {0, 0, 0};                          /* R* F_n, R* = r~/2 */
        double rho = pm->nlaw == PALA_NLAW_FRACTIONAL ? 1.0 : pala_law_cap_ratio(B->ov[i], un, 1.5, dt);   /* as above */
        if (pm->kroll > 0) {
            double *th = st + wk->ho_r, orl[3] = {oc[0] - on * n[0], oc[1] - on * n[1], oc[2] - on * n[2]};
            pala_law_in_plane(th, n[0], n[1], n[2]);
            D += pala_law_spring(th, orl, pm->kroll, pm->muroll * rs, rho, dt, mc);
        }
        if (pm->ktor > 0) {
            double mo;
            D += pala_law_spring1(st + wk->ho_o, on, pm->ktor, pm->mutor * rs, rho, dt, &mo);
            for (int a = 0; a < 3; a++) mc[a] += mo * n[a];
        }
        for (int a = 0; a < 3; a++) { Ti[a] += mc[a]; Tj[a] -= mc[a]; }
    }
    B->Fx[i] = F[0]; B->Fy[i] = F[1]; B->Fz[i] = F[2];
    B->Gx[i] = G[0]; B->Gy[i] = G[1]; B->Gz[i] = G[2];
    B->Tix[i] = Ti[0]; B->Tiy[i] = Ti[1]; B->Tiz[i] = Ti[2];
    B->Tjx[i] = Tj[0]; B->Tjy[i] = Tj[1]; B->Tjz[i] = Tj[2];
    B->Hix[i] = Hi[0]; B->Hiy[i] = Hi[1]; B->Hiz[i] = Hi[2];
    B->Hjx[i] = Hj[0]; B->Hjy[i] = Hj[1]; B->Hjz[i] = Hj[2];
    B->D[i] = D;
    if (wk->mindlin) B->E[i] = Em;
}

/* The relative velocity of sphere pairs at the contact point (eq. 54), with the lever arms
 * -l_i n and l_j n (eq. 50); arms: store those in ri, rj too. */
static inline void stage_sphere_points(const pala_world *w, pala_batch *B, int m, int arms)
{
    const pala_vec3 *V = w->v, *W = w->w;
    for (int i = 0; i < m; i++) {
        int k = B->k[i], j = B->j[i];
        double li = B->li[i], lj = B->lj[i], nx = B->nx[i], ny = B->ny[i], nz = B->nz[i];
        if (arms) {
            B->rix[i] = -li * nx; B->riy[i] = -li * ny; B->riz[i] = -li * nz;
            B->rjx[i] = lj * nx; B->rjy[i] = lj * ny; B->rjz[i] = lj * nz;
        }
        double sx = li * W[k].x + lj * W[j].x, sy = li * W[k].y + lj * W[j].y, sz = li * W[k].z + lj * W[j].z;
        B->ux[i] = V[k].x - V[j].x - (sy * nz - sz * ny);
        B->uy[i] = V[k].y - V[j].y - (sz * nx - sx * nz);
        B->uz[i] = V[k].z - V[j].z - (sx * ny - sy * nx);
    }
}

void pala_contact_spheres_hist(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    stage_geometry(B, m);
    stage_sphere_points(w, B, m, 1);
    for (int i = 0; i < m; i++) hist_one(w, B, i, pala_pm_of(w, B->k[i], pala_mat_of(w, B->j[i])), &w->w[B->j[i]], dt);
}

/* hist_one's arithmetic for contacts with a tangential spring (eqs. 56-57 or the normal
 * dashpot, the spring of docs/physics.md, "The tangential spring"), operation for
 * operation, so the results are those of the general kernel; in stages: the reads of velocities and states, the laws in
 * one loop the compiler vectorises (the branches of the cap and of the turn into the
 * plane become selects), the writes of the states.  pairs: pairs of components (else
 * wall touches, lever arm ri from the grain's centre); spheres: the lever arms are -l_i n
 * and l_j n (eq. 50), and the restitution's torque on a sphere is zero (its normal force
 * acts on the line through its centre), so Hi, Hj are not formed (walls: Hi is 0); else
 * the lever arms ri, rj of the batch, and Hi, Hj are formed.  one: the world has one
 * material pair, pm0 (else arrays).  dash: some pair has the dashpot (arrays cd, im, dp). */
static inline __attribute__((always_inline)) void stage_spring(pala_batch *B, int m, double dt, int one, pala_pairmat pm0, int pairs, int spheres,
                                                                 int dash)
{
    const double h = 0.5 * dt;
    const int mind0 = pm0.tlaw == PALA_TLAW_MINDLIN;
    const double kf0 = mind0 ? pm0.kG : pm0.kt;
    for (int i = 0; i < m; i++) {
        double kE = one ? pm0.kE : B->kE[i], de = one ? pm0.delta : B->de[i], mu = one ? pm0.mu : B->mu[i];
        int mind = one ? mind0 : B->mind[i];
        double kf = one ? kf0 : B->kf[i];
        double nx = B->nx[i], ny = B->ny[i], nz = B->nz[i], ux = B->ux[i], uy = B->uy[i], uz = B->uz[i];
        double un = ux * nx + uy * ny + uz * nz;                                 /* eq. (54) */
        double fh = pala_law_hertz(kE, B->sq[i], B->ov[i]);                     /* eq. (57) */
        double fn = (un > 0 ? de : 1.0) * fh, fc = fh;                           /* eq. (56); the caps: F_H */
        if (dash) {   /* the dashpot's pairs (docs/physics.md, "The normal dashpot"; hist_one) */
            double fd = fh - B->cd[i] * sqrt(kE * B->sq[i] / B->im[i]) * un;
            fd = fd > 0 ? fd : 0;
            fn = B->dp[i] ? fd : fn;
            fc = B->dp[i] ? fd : fc;
        }
        double tx = ux - un * nx, ty = uy - un * ny, tz = uz - un * nz;
        double k = mind ? kf * B->sq[i] : kf;                                    /* 8 G* a, or k_t */
        /* the displacement turned into the contact plane (pala_law_in_plane) */
        double x0 = B->hx[i], x1 = B->hy[i], x2 = B->hz[i];
        double m2 = x0 * x0 + x1 * x1 + x2 * x2, xn = x0 * nx + x1 * ny + x2 * nz;
        double y0 = x0 - xn * nx, y1 = x1 - xn * ny, y2 = x2 - xn * nz, l2 = y0 * y0 + y1 * y1 + y2 * y2;
        double f = l2 > 0 ? sqrt(m2 / (l2 > 0 ? l2 : 1.0)) : 0;
        x0 = m2 == 0 ? x0 : y0 * f; x1 = m2 == 0 ? x1 : y1 * f; x2 = m2 == 0 ? x2 : y2 * f;
        /* the spring over the step (pala_law_spring) */
        double e0 = x0 * x0 + x1 * x1 + x2 * x2, cap = mu * fc;
        double p0 = x0 + h * tx, p1 = x1 + h * ty, p2 = x2 + h * tz;
        double Fx = -k * p0, Fy = -k * p1, Fz = -k * p2;
        double f2 = Fx * Fx + Fy * Fy + Fz * Fz;
        int slip = f2 > cap * cap;
        double sc = cap / sqrt(slip ? f2 : 1.0);
        Fx = slip ? Fx * sc : Fx; Fy = slip ? Fy * sc : Fy; Fz = slip ? Fz * sc : Fz;
        /* slipping: the midpoint's p sc, turned over the second half step, of the end's length */
        double pp = p0 * p0 + p1 * p1 + p2 * p2, a = h * (p0 * tx + p1 * ty + p2 * tz) / (slip ? pp : 1.0);
        double z0 = p0 * sc + (h * tx - a * p0), z1 = p1 * sc + (h * ty - a * p1), z2 = p2 * sc + (h * tz - a * p2);
        double zz = z0 * z0 + z1 * z1 + z2 * z2;
        double se = pala_law_cap_ratio(B->ov[i], un, mind ? 1.0 : 1.5, dt) * sc * sqrt(pp / (zz > 0 ? zz : 1.0));
        x0 = slip ? z0 * se : x0 + dt * tx;
        x1 = slip ? z1 * se : x1 + dt * ty;
        x2 = slip ? z2 * se : x2 + dt * tz;
        double e1 = x0 * x0 + x1 * x1 + x2 * x2;
        /* Mindlin's stiffness changes: the energy held after the last step is summed apart
         * (hist_one), so D leaves out 0.5 k e0 and E holds 0.5 k e1 */
        double D = -(Fx * tx + Fy * ty + Fz * tz) * dt - 0.5 * k * (e1 - (mind ? 0 : e0));
        B->E[i] = mind ? 0.5 * k * e1 : 0;   /* always stored: a store under a branch keeps the loop scalar */
        B->hx[i] = x0; B->hy[i] = x1; B->hz[i] = x2;
        B->D[i] = D;
        Fx += fn * nx; Fy += fn * ny; Fz += fn * nz;
        B->Fx[i] = Fx; B->Fy[i] = Fy; B->Fz[i] = Fz;
        double g = fn - fh;
        B->Gx[i] = g * nx; B->Gy[i] = g * ny; B->Gz[i] = g * nz;
        double rix, riy, riz;                                                    /* eq. (51) */
        if (spheres && pairs) {
            double li = B->li[i], lj = B->lj[i], rjx = lj * nx, rjy = lj * ny, rjz = lj * nz;
            rix = -li * nx; riy = -li * ny; riz = -li * nz;
            B->Tjx[i] = Fy * rjz - Fz * rjy; B->Tjy[i] = Fz * rjx - Fx * rjz; B->Tjz[i] = Fx * rjy - Fy * rjx;
        } else {
            rix = B->rix[i]; riy = B->riy[i]; riz = B->riz[i];
            double Gx = g * nx, Gy = g * ny, Gz = g * nz;
            if (spheres) { B->Hix[i] = B->Hiy[i] = B->Hiz[i] = 0; }
            else { B->Hix[i] = riy * Gz - riz * Gy; B->Hiy[i] = riz * Gx - rix * Gz; B->Hiz[i] = rix * Gy - riy * Gx; }
            if (pairs) {
                double rjx = B->rjx[i], rjy = B->rjy[i], rjz = B->rjz[i];
                B->Tjx[i] = Fy * rjz - Fz * rjy; B->Tjy[i] = Fz * rjx - Fx * rjz; B->Tjz[i] = Fx * rjy - Fy * rjx;
                B->Hjx[i] = Gy * rjz - Gz * rjy; B->Hjy[i] = Gz * rjx - Gx * rjz; B->Hjz[i] = Gx * rjy - Gy * rjx;
            }
        }
        B->Tix[i] = riy * Fz - riz * Fy; B->Tiy[i] = riz * Fx - rix * Fz; B->Tiz[i] = rix * Fy - riy * Fx;
    }
}

/* The springs' states of a batch: read before stage_spring, written after. */
static void spring_read(pala_batch *B, int m, int ho_t)
{
    for (int i = 0; i < m; i++) {
        const double *st = B->hp[i];
        B->hx[i] = st[ho_t]; B->hy[i] = st[ho_t + 1]; B->hz[i] = st[ho_t + 2];
    }
}

static void spring_write(pala_batch *B, int m, int ho_t)
{
    for (int i = 0; i < m; i++) {
        double *st = B->hp[i];
        st[ho_t] = B->hx[i]; st[ho_t + 1] = B->hy[i]; st[ho_t + 2] = B->hz[i];
    }
}

/* The spring's material values of each contact of a batch (worlds of several materials,
 * or walls: the other side's material is the wall's, jmat). */
static void spring_materials(const pala_world *w, pala_batch *B, int m, int walls)
{
    for (int i = 0; i < m; i++) {
        const pala_pairmat *pm = pala_pm_of(w, B->k[i], walls ? B->jmat[i] : pala_mat_of(w, B->j[i]));
        B->kE[i] = pm->kE; B->de[i] = pm->delta; B->mu[i] = pm->mu;
        B->mind[i] = pm->tlaw == PALA_TLAW_MINDLIN;
        B->kf[i] = B->mind[i] ? pm->kG : pm->kt;
    }
}

/* The dashpot's values of each contact of a batch: its constant, whether the pair has
 * it, 1/m* of the two grains (a wall: of the one). */
static void dashpot_values(const pala_world *w, pala_batch *B, int m, int walls)
{
    const double *invm = w->work->invm;
    for (int i = 0; i < m; i++) {
        const pala_pairmat *pm = pala_pm_of(w, B->k[i], walls ? B->jmat[i] : pala_mat_of(w, B->j[i]));
        B->cd[i] = pm->cdamp;
        B->dp[i] = pm->damp == PALA_DAMP_DASHPOT;
        B->im[i] = invm[w->tid[B->k[i]]] + (walls ? 0 : invm[w->tid[B->j[i]]]);
    }
}

/* The springs of a batch whose geometry and velocities are known: states in, the laws,
 * states out (pairs, spheres: as stage_spring). */
static inline __attribute__((always_inline)) void spring_batch(const pala_world *w, pala_batch *B, int m, double dt, int pairs, int spheres)
{
    const pala_work *wk = w->work;
    spring_read(B, m, wk->ho_t);
    if (wk->dashpot) {   /* the dashpot's worlds: values per contact */
        spring_materials(w, B, m, !pairs);
        dashpot_values(w, B, m, !pairs);
        stage_spring(B, m, dt, 0, w->pm[0], pairs, spheres, 1);
    } else if (pairs && w->nmat == 1) stage_spring(B, m, dt, 1, w->pm[0], pairs, spheres, 0);
    else {
        spring_materials(w, B, m, !pairs);
        stage_spring(B, m, dt, 0, w->pm[0], pairs, spheres, 0);
    }
    spring_write(B, m, wk->ho_t);
}

void pala_contact_spheres_spring(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    stage_geometry(B, m);
    stage_sphere_points(w, B, m, 0);
    spring_batch(w, B, m, dt, 1, 1);
}

void pala_contact_clumps_spring(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    stage_geometry(B, m);
    stage_clump_points(w, B, m);
    spring_batch(w, B, m, dt, 1, 0);
}

void pala_contact_walls_spring(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    for (int i = 0; i < m; i++) B->sq[i] = pala_law_root(B->rt[i], B->ov[i]);
    if (w->work->spheres_only) spring_batch(w, B, m, dt, 0, 1);
    else spring_batch(w, B, m, dt, 0, 0);
}

void pala_contact_clumps_hist(const pala_world *w, pala_batch *B, double dt)
{
    int m = B->n;
    stage_geometry(B, m);
    stage_clump_points(w, B, m);
    for (int i = 0; i < m; i++) hist_one(w, B, i, pala_pm_of(w, B->k[i], pala_mat_of(w, B->j[i])), &w->w[B->j[i]], dt);
}

void pala_contact_walls_hist(const pala_world *w, pala_batch *B, double dt)
{
    static const pala_vec3 still = {0, 0, 0};
    int m = B->n;
    for (int i = 0; i < m; i++) {
        B->sq[i] = pala_law_root(B->rt[i], B->ov[i]);
        B->aj[i] = 0;   /* r~ is rt[i] */
        const pala_pairmat *pm = pala_pm_of(w, B->k[i], B->jmat[i]);
        hist_one(w, B, i, pm, &still, dt);
    }
}

double pala_contact_state_energy(const pala_world *w, const pala_pairmat *pm, const double *st)
{
    const pala_work *wk = w->work;
    double e = 0;
    if (pm->tlaw == PALA_TLAW_SPRING) {   /* Mindlin's: summed apart (nl->hmind) */
        const double *x = st + wk->ho_t;
        e += 0.5 * pm->kt * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    }
    if (pm->kroll > 0) {
        const double *x = st + wk->ho_r;
        e += 0.5 * pm->kroll * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    }
    if (pm->ktor > 0) e += 0.5 * pm->ktor * st[wk->ho_o] * st[wk->ho_o];
    if (pm->nlaw == PALA_NLAW_FRACTIONAL) {
        long q = pm - w->pm;
        e += wk->frK[q] * pala_frac_energy(&wk->fr[q], st + wk->ho_f);
    }
    return e;
}

/* contact.c: the contact kernel (paper sections 4-5, eqs. 48-57) and the force pass
 * over grain pairs, walls and the field.
 *
 * Conventions (PHYSICS.md 1.2-1.3): for components c of G and c' of G', n points from
 * G' to G; w is the velocity of G's material at the contact point relative to G's:
 *     w = (v + omega x (c_ij - x)) - (v' + omega' x (c_ij - x')),
 * so w.n > 0 means separating: the restitution factor delta scales the Hertz force on
 * unloading, and friction -mu F_n w_t / (nu + |w_t|) opposes G's sliding. */
#include "internal.h"
#include <math.h>
#include <stdio.h>

/* Force on G from one touching component pair; see the comment at the top.
 * dv: relative velocity w at the contact point.  n: unit normal from G' to G.
 * ov: overlap -d > 0.  rt: r~ (eq. 55).  Returns the force, U gets the potential. */
/* Fnc gets the non-conservative part of the force, F - F_Hertz n (restitution on unloading
 * and friction); the step integrates its work into the dissipated energy. */
static inline pala_vec3 hertz_force(const pala_pairmat *pm, pala_vec3 n, double ov, double rt,
                                    pala_vec3 dv, double *U, pala_vec3 *Fnc)
{
    double fh = pm->kE * sqrt(rt * ov) * ov;                /* eq. (57) */
    *U = 0.4 * fh * ov;                                     /* (2/5) k (-d)^{5/2} */
    double wn = pala_vdot(dv, n);                           /* eq. (54) */
    double fn = wn > 0 ? pm->delta * fh : fh;               /* eq. (56) */
    pala_vec3 F = pala_vscale(fn, n);
    *Fnc = pala_vscale(fn - fh, n);
    if (pm->mu > 0) {
        pala_vec3 wt = pala_vaxpy(dv, -wn, n);
        double wtl = pala_vnorm(wt);
        if (wtl > 0) {
            double c = pm->mu * fn / (pm->nu + wtl);        /* eq. (53) */
            F = pala_vaxpy(F, -c, wt);
            *Fnc = pala_vaxpy(*Fnc, -c, wt);
        }
    }
    return F;
}

static int overlap_runaway(pala_world *w, double ov, double a, const char *what, int i, int j)
{
    double ratio = ov / a;
    if (ratio > w->worst_overlap) w->worst_overlap = ratio;
    if (ratio <= w->max_overlap) return 0;
    if (!w->why[0])
        snprintf(w->why, sizeof w->why,
                 "runaway overlap at t = %.6g s: %s %d%s%.0d overlaps by %.3g of a component radius "
                 "(limit max_overlap = %g). The time step is too large for the impact speed, or "
                 "the material too soft: reduce dt or raise young",
                 w->t, what, i + 1, j >= 0 ? " and " : "", j >= 0 ? j + 1 : 0, ratio, w->max_overlap);
    return 1;
}

/* Pair of grains i, j: eqs. (48)-(51). */
static int grain_pair(pala_world *w, int i, int j, double *U)
{
    const pala_template *ti = &w->tmpl[w->tid[i]], *tj = &w->tmpl[w->tid[j]];
    pala_vec3 xi = w->x[i], xj = w->x[j];
    double rb = ti->bound_radius + tj->bound_radius;
    if (pala_vnorm2(pala_vsub(xi, xj)) > rb * rb) return 0;            /* eq. (48) */
    const pala_pairmat *pm = &w->pm[ti->material * w->nmat + tj->material];
    const pala_vec3 *ci = w->pc + w->p0[i], *cj = w->pc + w->p0[j];
    const double *ai = w->shape_r + ti->comp0, *aj = w->shape_r + tj->comp0;
    pala_vec3 F = {0, 0, 0}, Ti = {0, 0, 0}, Tj = {0, 0, 0}, Fnc = {0, 0, 0}, Nci = {0, 0, 0}, Ncj = {0, 0, 0};
    int bad = 0;
    for (int a = 0; a < ti->ncomp; a++)
        for (int b = 0; b < tj->ncomp; b++) {
            pala_vec3 d = pala_vsub(ci[a], cj[b]);
            double s = ai[a] + aj[b], d2 = pala_vnorm2(d);
            if (d2 >= s * s) continue;                                  /* eq. (49) */
            double dist = sqrt(d2), ov = s - dist;
            pala_vec3 n = pala_vscale(1.0 / dist, d);                   /* eq. (50) n_ij */
            pala_vec3 cp = pala_vaxpy(pala_vscale(0.5, pala_vadd(ci[a], cj[b])), 0.5 * (aj[b] - ai[a]), n);
            pala_vec3 ri = pala_vsub(cp, xi), rj = pala_vsub(cp, xj);
            pala_vec3 dv = pala_vsub(pala_vadd(w->v[i], pala_vcross(w->w[i], ri)),
                                     pala_vadd(w->v[j], pala_vcross(w->w[j], rj)));
            double u;
            pala_vec3 fnc;
            pala_vec3 Fab = hertz_force(pm, n, ov, 2 * ai[a] * aj[b] / s, dv, &u, &fnc);
            if (w->fnc) {
                Fnc = pala_vadd(Fnc, fnc);
                Nci = pala_vadd(Nci, pala_vcross(ri, fnc));
                Ncj = pala_vsub(Ncj, pala_vcross(rj, fnc));
            }
            F = pala_vadd(F, Fab);
            Ti = pala_vadd(Ti, pala_vcross(ri, Fab));                   /* eq. (51) */
            Tj = pala_vsub(Tj, pala_vcross(rj, Fab));
            *U += u;
            w->ncontact++;
            bad |= overlap_runaway(w, ov, fmin(ai[a], aj[b]), "grains", i, j);
        }
    w->f[i] = pala_vadd(w->f[i], F);
    w->f[j] = pala_vsub(w->f[j], F);
    w->tq[i] = pala_vadd(w->tq[i], Ti);
    w->tq[j] = pala_vadd(w->tq[j], Tj);
    if (w->fnc) {
        w->fnc[i] = pala_vadd(w->fnc[i], Fnc);
        w->fnc[j] = pala_vsub(w->fnc[j], Fnc);
        w->tnc[i] = pala_vadd(w->tnc[i], Nci);
        w->tnc[j] = pala_vadd(w->tnc[j], Ncj);
    }
    return bad;
}

/* One component (centre c, radius a) of grain k against a wall with inward normal n,
 * overlap ov and r~ = rt (PHYSICS.md 2: flat wall r~ = 2a, cavity r~ = 2aR/(R-a)).
 * The contact point is the middle of the overlap, c - (a - ov/2) n: the limit of
 * c_ij in eq. (50) for a sphere of radius r' -> infinity. */
static pala_vec3 wall_contact(pala_world *w, int k, pala_vec3 c, double a, pala_vec3 n,
                              double ov, double rt, double *U, int *bad)
{
    const pala_pairmat *pm = &w->pm[w->tmpl[w->tid[k]].material * w->nmat + w->wall_mat];
    pala_vec3 cp = pala_vaxpy(c, -(a - 0.5 * ov), n);
    pala_vec3 r = pala_vsub(cp, w->x[k]);
    pala_vec3 dv = pala_vadd(w->v[k], pala_vcross(w->w[k], r));
    double u;
    pala_vec3 fnc;
    pala_vec3 F = hertz_force(pm, n, ov, rt, dv, &u, &fnc);
    if (w->fnc) {
        w->fnc[k] = pala_vadd(w->fnc[k], fnc);
        w->tnc[k] = pala_vadd(w->tnc[k], pala_vcross(r, fnc));
    }
    w->f[k] = pala_vadd(w->f[k], F);
    w->tq[k] = pala_vadd(w->tq[k], pala_vcross(r, F));
    *U += u;
    w->ncontact++;
    *bad |= overlap_runaway(w, ov, a, "wall and grain", k, -1);
    return F;
}

static int walls(pala_world *w, double *U, int stepping)
{
    int bad = 0;
    double dt = stepping ? w->dt : 0;
    int nax = w->dim == 2 ? 2 : 3;
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        double R = t->bound_radius;
        pala_vec3 x = w->x[k];
        const pala_vec3 *pc = w->pc + w->p0[k];
        const double *rad = w->shape_r + t->comp0;
        if (w->container == PALA_CONTAINER_BOX) {
            const double xs[3] = {x.x, x.y, x.z};
            const double lo[3] = {w->box_lo.x, w->box_lo.y, w->box_lo.z}, hi[3] = {w->box_hi.x, w->box_hi.y, w->box_hi.z};
            for (int ax = 0; ax < nax; ax++) {
                if (xs[ax] - R > lo[ax] && hi[ax] - xs[ax] > R) continue;  /* bounding sphere clear */
                for (int i = 0; i < t->ncomp; i++) {
                    const double c[3] = {pc[i].x, pc[i].y, pc[i].z};
                    for (int side = 0; side < 2; side++) {
                        double dist = side ? hi[ax] - c[ax] : c[ax] - lo[ax];
                        double ov = rad[i] - dist;
                        if (ov <= 0) continue;
                        double nn[3] = {0, 0, 0};
                        nn[ax] = side ? -1 : 1;
                        pala_vec3 F = wall_contact(w, k, pc[i], rad[i], pala_v(nn[0], nn[1], nn[2]), ov, 2 * rad[i], U, &bad);
                        w->wall_impulse[2 * ax + side] = pala_vaxpy(w->wall_impulse[2 * ax + side], -dt, F);
                    }
                }
            }
        } else if (w->container == PALA_CONTAINER_CAVITY) {
            double Rc = w->cav_R;
            if (pala_vnorm(pala_vsub(x, w->cav_c)) + R < Rc) continue;
            for (int i = 0; i < t->ncomp; i++) {
                pala_vec3 d = pala_vsub(pc[i], w->cav_c);
                double q = pala_vnorm(d), ov = q + rad[i] - Rc;
                if (ov <= 0 || q == 0) continue;
                pala_vec3 n = pala_vscale(-1.0 / q, d);
                double rt = 2 * rad[i] * Rc / (Rc - rad[i]);             /* H(a, -Rc) */
                pala_vec3 F = wall_contact(w, k, pc[i], rad[i], n, ov, rt, U, &bad);
                w->wall_impulse[0] = pala_vaxpy(w->wall_impulse[0], -dt, F);
            }
        }
    }
    return bad;
}

int pala_world_forces_ex(pala_world *w, double *U, int stepping)
{
    double Uloc = 0;
    if (!U) U = &Uloc;
    w->ncontact = 0;
    w->worst_overlap = 0;
    for (int k = 0; k < w->n; k++) {
        pala_world_place_pebbles(w, k);
        w->f[k] = pala_vscale(w->tmpl[w->tid[k]].mass, w->g);   /* homogeneous field */
        w->tq[k] = pala_v(0, 0, 0);
        if (w->fnc) w->fnc[k] = w->tnc[k] = pala_v(0, 0, 0);
    }
    pala_nlist_update(w);
    int bad = 0;
    const int *st = w->nl.start, *nb = w->nl.nbr;
    for (int i = 0; i < w->n; i++)
        for (int q = st[i]; q < st[i + 1]; q++) bad |= grain_pair(w, i, nb[q], U);
    bad |= walls(w, U, stepping);
    return bad ? PALA_UNSTABLE : PALA_OK;
}

int pala_world_forces(pala_world *w, double *U) { return pala_world_forces_ex(w, U, 0); }

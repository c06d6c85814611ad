/* contact_law.h: the contact laws of two touching components (paper section 5), as
 * sub-models, each one small pure function: a normal law (the elastic force and its
 * energy), a damping (how the normal force dissipates), a tangential law, rolling and
 * torsion resistance.  contact.c composes them into the one kernel of a contact, which
 * both of its drivers (the general loop and the vectorised one) call, so they agree by
 * construction; energy.c and force_pass.c take the energies from here.  The laws are
 * written branch-free (selects), so that a loop over contacts vectorises.
 *
 * Conventions (docs/physics.md, "Erratum 3"): for components c of G and
 * c' of G', n points from G' to G, ov = a + a' - |c - c'| > 0 is the overlap (-d of the
 * paper), and w is the velocity of G's material at the contact point relative to G'
 * (eq. 54), so w.n > 0 means the pair separates. */
#ifndef PALA_CONTACT_LAW_H
#define PALA_CONTACT_LAW_H
#include "pala/pala.h"
#include <math.h>

/* The larger laws the contact kernel's loops call (contact.c) are always inlined: a call
 * left in a loop keeps it scalar, and gcc's growth limits left pala_law_spring a call in
 * 9 of the kernel's 52 instantiations (which ones changed with unrelated edits). */
#define PALA_LAW_KERNEL static inline __attribute__((always_inline))

/* ---- geometry ---------------------------------------------------------------------------- */
/* r~ of two components of radii a, b: H(a, b) = 2ab / (a + b) (eq. 55).  A wall is a
 * component of radius infinity (flat: r~ = 2a) or -R (a cavity of radius R). */
static inline double pala_law_rt(double a, double b) { return 2 * a * b / (a + b); }

/* sqrt(r~ (-d)), the root of eq. (57). */
static inline double pala_law_root(double rt, double ov) { return sqrt(rt * ov); }

/* ---- normal laws: the elastic force and its energy --------------------------------------- */
/* Hertz, eq. (57): kE sqrt(r~) (-d)^{3/2}, kE = c_H E~ (pala_pairmat), given
 * root = sqrt(r~ (-d)). */
static inline double pala_law_hertz(double kE, double root, double ov) { return kE * root * ov; }

/* Its potential energy, the integral of the force over the overlap: (2/5) F_H (-d). */
static inline double pala_law_hertz_energy(double fh, double ov) { return 0.4 * fh * ov; }

/* ---- the normal laws as one family: contact.c and energy.c call these, never a law by
 * name, so a new normal law is written here (and its key and code in keys.c and pala.h).
 * The fractional law has state and is stepped by contact.c (fractional.h); here it has no
 * elastic force and no energy outside its state. */
/* The normal laws' words and codes for the key normal_law, its text, and the keys of their
 * coefficients: K(name, default, unit, lo, hi, field of pala_material, text), rows of the
 * key table (keys.h, keys.c) in this order. */
#define PALA_NLAW_WORDS "hertz|fractional|hooke"
#define PALA_NLAW_CODES PALA_NLAW_HERTZ, PALA_NLAW_FRACTIONAL, PALA_NLAW_HOOKE
#define PALA_NLAW_DOC                                                                                                   \
    "normal force: hertz (eq. 57 with restitution delta) or fractional, P = c^alpha k^(1-alpha) D^alpha(overlap), "   \
    "a Caputo derivative since the contact began, never pulling, without delta; a pair is fractional if either "       \
    "material is (docs/physics.md, \"The fractional-derivative normal law\"); or hooke, the linear spring "             \
    "normal_stiffness x overlap (docs/physics.md, \"The linear spring-dashpot\"), which a pair takes if either "     \
    "material has it"
#define PALA_NLAW_KEYS(K)                                                                                               \
    K(fractional_order, "0", "-", 0, 1, alpha,                                                                          \
      "normal_law = fractional: the order alpha of the derivative; 0: the spring k x overlap, 1: the dashpot "         \
      "c x overlap rate")                                                                                               \
    K(fractional_damping, "0", "N s/m", 0, INF, fc, "normal_law = fractional: the damping c (needed unless fractional_order = 0)") \
    K(fractional_stiffness, "0", "N/m", 0, INF, fk, "normal_law = fractional: the stiffness k (needed unless fractional_order = 1)") \
    K(normal_stiffness, "0", "N/m", 0, INF, kn, "normal_law = hooke: the stiffness k_n of the linear spring (needed); pairs mix it by H")

/* The normal law of a pair of materials a, b (eq. 55 and docs/physics.md, "The
 * fractional-derivative normal law", "Pairs and walls"): a pair is fractional if either
 * material is; with one fractional side it takes that side's alpha, c and k (a Hertz
 * material, or wall, has none to mix); two fractional materials average alpha and mix c
 * and k by H, as eq. (55) mixes moduli.  (material.c calls it.) */
static inline void pala_law_mix_normal(const pala_material *a, const pala_material *b, pala_pairmat *p)
{
    int ha = a->nlaw == PALA_NLAW_HOOKE, hb = b->nlaw == PALA_NLAW_HOOKE;   /* Hooke: either side's k_n, or both by H */
    p->kn = ha && hb ? pala_harmonic(a->kn, b->kn) : ha ? a->kn : hb ? b->kn : 0;
    int fa = a->nlaw == PALA_NLAW_FRACTIONAL, fb = b->nlaw == PALA_NLAW_FRACTIONAL;
    p->nlaw = ha || hb ? PALA_NLAW_HOOKE : fa || fb ? PALA_NLAW_FRACTIONAL : PALA_NLAW_HERTZ;
    if (fa && fb) {
        p->alpha = 0.5 * (a->alpha + b->alpha);
        p->fc = pala_harmonic(a->fc, b->fc);
        p->fk = pala_harmonic(a->fk, b->fk);
    } else {
        const pala_material *f = fa ? a : b;
        p->alpha = fa || fb ? f->alpha : 0;
        p->fc = fa || fb ? f->fc : 0;
        p->fk = fa || fb ? f->fk : 0;
    }
}

/* The dashpot's constant of a pair (docs/physics.md, "The normal dashpot"): Hertz's from
 * its restitution sqrt(delta) by hertz (material.c: numerically, so once per value of
 * delta: last and clast hold the last value of delta and its constant). */
static inline double pala_law_damp_constant(const pala_pairmat *p, double *last, double *clast, double (*hertz)(double))
{
    if (p->nlaw == PALA_NLAW_HOOKE) {   /* c = 2 L / sqrt(pi^2 + L^2), L = -ln sqrt(delta) ("The linear spring-dashpot") */
        double L = p->delta > 0 ? -0.5 * log(p->delta) : HUGE_VAL;
        return p->delta > 0 ? 2 * L / sqrt(PALA_PI * PALA_PI + L * L) : 2;
    }
    if (p->delta != *last) { *last = p->delta; *clast = hertz(p->delta); }
    return *clast;
}

/* The coefficient of a normal law other than Hertz's (0 for Hertz). */
static inline double pala_law_normal_coef(const pala_pairmat *pm) { return pm->nlaw == PALA_NLAW_HOOKE ? pm->kn : 0; }
/* The elastic force of law nl (kE: Hertz's prefactor, kn: the other laws' coefficient). */
static inline double pala_law_normal_force(int nl, double kE, double kn, double root, double ov)
{
    return nl == PALA_NLAW_HOOKE ? kn * ov : pala_law_hertz(kE, root, ov);   /* Hooke: k_n (-d) */
}
/* The stiffness the dashpot scales with: dF/d(-d) up to a constant (Hertz: kE sqrt(r~ (-d))
 * = K (-d)^(1/2), 2/3 of the slope; Hooke: k_n). */
static inline double pala_law_stiffness(int nl, double kE, double kn, double root) { return nl == PALA_NLAW_HOOKE ? kn : kE * root; }
/* The power of the overlap law nl's elastic force grows as (Hertz 3/2, Hooke 1), which the
 * caps of the springs follow (pala_law_cap_ratio); 0: not known (the fractional law: its
 * caps do not scale over the step). */
static inline double pala_law_cap_power(int nl) { return nl == PALA_NLAW_HOOKE ? 1.0 : nl == PALA_NLAW_FRACTIONAL ? 0.0 : 1.5; }
/* 1 if law nl's dashpot may pull (Hertz's never does; Hooke's does at the end of a contact,
 * as LAMMPS's hooke does, which keeps the closed forms of a damped oscillator). */
static inline int pala_law_pulls(int nl) { return nl == PALA_NLAW_HOOKE; }

/* The elastic energy of a touching pair of material pair pm, overlap ov and
 * root = sqrt(r~ ov) (the fractional law keeps its energy in its state: contact.c). */
static inline double pala_law_normal_energy(const pala_pairmat *pm, double root, double ov)
{
    if (pm->nlaw == PALA_NLAW_FRACTIONAL) return 0;
    if (pm->nlaw == PALA_NLAW_HOOKE) return 0.5 * pm->kn * ov * ov;   /* k_n (-d)^2 / 2 */
    return pala_law_hertz_energy(pala_law_hertz(pm->kE, root, ov), ov);
}

/* ---- damping: the normal force from the elastic one -------------------------------------- */
/* The switch of eq. (56): the elastic force is scaled by delta while the pair separates
 * (w.n = un > 0). */
static inline double pala_law_switch(double fe, double delta, double un) { return (un > 0 ? delta : 1.0) * fe; }

/* The dashpot (docs/physics.md, "The normal dashpot", "The linear spring-dashpot"):
 * F_e - c sqrt(m* s) w.n with s the law's stiffness (pala_law_stiffness) and 1/m* = im; the
 * Hertz law never pulls (the caller clamps), Hooke's may at the end of a contact, as
 * LAMMPS's hooke does. */
static inline double pala_law_dashpot(double fe, double c, double stiff, double im, double un) { return fe - c * sqrt(stiff / im) * un; }

/* ---- tangential laws --------------------------------------------------------------------- */
/* Regularised friction, eq. (53): the force -c w_t with c = mu F_n / (nu + |w_t|). */
PALA_LAW_KERNEL double pala_law_friction(double mu, double nu, double fn, double tx, double ty, double tz)
{
    double den = nu + sqrt(tx * tx + ty * ty + tz * tz);
    return mu * fn / (den > 0 ? den : 1.0);
}

/* x turned into the plane of unit normal n, its length kept: a spring's displacement
 * follows the contact plane as the pair turns (no energy is made or lost by the turn). */
PALA_LAW_KERNEL void pala_law_in_plane(double *x, double nx, double ny, double nz)
{
    double x0 = x[0], x1 = x[1], x2 = x[2];
    double m2 = x0 * x0 + x1 * x1 + x2 * x2, xn = x0 * nx + x1 * ny + x2 * nz;
    double y0 = x0 - xn * nx, y1 = x1 - xn * ny, y2 = x2 - xn * nz, l2 = y0 * y0 + y1 * y1 + y2 * y2;
    double f = l2 > 0 ? sqrt(m2 / (l2 > 0 ? l2 : 1.0)) : 0;
    x[0] = m2 == 0 ? x0 : y0 * f; x[1] = m2 == 0 ? x1 : y1 * f; x[2] = m2 == 0 ? x2 : y2 * f;
}

/* A spring with a Coulomb cap over one step (docs/physics.md, "The tangential spring"):
 * x, the displacement at the start of the step (in the contact plane), u its rate at the
 * midpoint (in the plane), k the stiffness, cap the largest force at the midpoint, rho the
 * largest displacement cap/k at the step's end over the midpoint's (pala_law_cap_ratio).
 * The force is that of the midpoint displacement t = x + u dt/2, -k t, scaled down by s to
 * the cap if above it (slip).  Without slip x advances to x + u dt.  When slipping, the
 * midpoint displacement t s turns on over the second half of the step with the part of u
 * across it, u_c = u - (u.t) t/|t|^2, and has the end's largest length:
 *   x = rho |t s| y/|y|,  y = t s + u_c dt/2.
 * Returns the force into F and the energy the step dissipates, the work -F.u dt done on
 * the spring less the increase of its energy k|x|^2/2 (exactly 0 without slip); held0 = 0
 * leaves out the energy held at the start (Mindlin's springs, whose stiffness changes:
 * that energy is summed apart, contact.c).  Branch-free: a loop over contacts vectorises. */
PALA_LAW_KERNEL double pala_law_spring(double *x, const double *u, double k, double cap, double rho, double dt, double *F, int held0)
{
    double h = 0.5 * dt, x0 = x[0], x1 = x[1], x2 = x[2];
    double e0 = x0 * x0 + x1 * x1 + x2 * x2;
    double p0 = x0 + h * u[0], p1 = x1 + h * u[1], p2 = x2 + h * u[2];
    double Fx = -k * p0, Fy = -k * p1, Fz = -k * p2;
    double f2 = Fx * Fx + Fy * Fy + Fz * Fz;
    int slip = f2 > cap * cap;
    double sc = cap / sqrt(slip ? f2 : 1.0);
    Fx = slip ? Fx * sc : Fx; Fy = slip ? Fy * sc : Fy; Fz = slip ? Fz * sc : Fz;
    double pp = p0 * p0 + p1 * p1 + p2 * p2, a = h * (p0 * u[0] + p1 * u[1] + p2 * u[2]) / (slip ? pp : 1.0);
    double z0 = p0 * sc + (h * u[0] - a * p0), z1 = p1 * sc + (h * u[1] - a * p1), z2 = p2 * sc + (h * u[2] - a * p2);
    double zz = z0 * z0 + z1 * z1 + z2 * z2;
    /* a cap far below the rounding of u dt/2 (|z| under 2^-250): z scaled up by 2^500, so that
     * pp/zz cannot overflow (a factor 1 leaves every other step's bits as they are) */
    double big = zz < 0x1p-500 ? 0x1p500 : 1.0;
    z0 *= big; z1 *= big; z2 *= big; zz *= big * big;
    double se = rho * sc * sqrt(pp / (zz > 0 ? zz : 1.0));   /* z is 0 only if sc is */
    x0 = slip ? z0 * se : x0 + dt * u[0];
    x1 = slip ? z1 * se : x1 + dt * u[1];
    x2 = slip ? z2 * se : x2 + dt * u[2];
    double e1 = x0 * x0 + x1 * x1 + x2 * x2;
    x[0] = x0; x[1] = x1; x[2] = x2;
    F[0] = Fx; F[1] = Fy; F[2] = Fz;
    return -(Fx * u[0] + Fy * u[1] + Fz * u[2]) * dt - 0.5 * k * (e1 - (held0 ? e0 : 0));
}

/* The same for a scalar spring (torsion about n): when slipping, x = rho (-F/k). */
static inline double pala_law_spring1(double *x, double u, double k, double cap, double rho, double dt, double *F)
{
    double e0 = *x * *x;
    *F = -k * (*x + 0.5 * dt * u);
    if (fabs(*F) > cap) { *F = *F > 0 ? cap : -cap; *x = rho * (-*F / k); }
    else *x += dt * u;
    return -*F * u * dt - 0.5 * k * (*x * *x - e0);
}

/* rho of pala_law_spring: the largest displacement of a spring, cap/k, at the end of the
 * step over its value at the midpoint, from the overlap ov and its rate -un at the midpoint:
 * the overlap at the end is ov - un dt/2, and cap/k grows as ov^p (pala_law_cap_power); to
 * first order in dt, and never below 0 (the contact ends within the half step). */
PALA_LAW_KERNEL double pala_law_cap_ratio(double ov, double un, double p, double dt)
{
    double r = 1 - p * 0.5 * dt * un / (ov > 0 ? ov : 1.0);
    return r > 0 ? r : 0;
}

/* ---- the laws' states and energies ------------------------------------------------------- */
/* The doubles of state each law keeps per contact (the history layout is their sum over
 * the laws some material pair has: contact.c): the tangential spring's displacement, the
 * rolling and torsion angles, the fractional law's memory (fractional.h). */
enum { PALA_STATE_SPRING = 3, PALA_STATE_ROLL = 3, PALA_STATE_TORSION = 1 };

#endif

/* contact_law.h: the contact laws of two touching components (paper section 5), as small
 * pure functions.  Every contact of pala goes through them: the pairs and walls of the
 * force pass (contact.c, force_pass.c), and the contact energy (energy.c).
 *
 * Conventions (docs/physics.md, "Erratum 3"): for components c of G and
 * c' of G', n points from G' to G, ov = a + a' - |c - c'| > 0 is the overlap (-d of the
 * paper), and w is the velocity of G's material at the contact point relative to G'
 * (eq. 54), so w.n > 0 means the pair separates. */
#ifndef PALA_CONTACT_LAW_H
#define PALA_CONTACT_LAW_H
#include <math.h>

/* r~ of two components of radii a, b: H(a, b) = 2ab / (a + b) (eq. 55).  A wall is a
 * component of radius infinity (flat: r~ = 2a) or -R (a cavity of radius R). */
static inline double pala_law_rt(double a, double b) { return 2 * a * b / (a + b); }

/* sqrt(r~ (-d)), the root of eq. (57). */
static inline double pala_law_root(double rt, double ov) { return sqrt(rt * ov); }

/* The Hertz force of eq. (57): kE sqrt(r~) (-d)^{3/2}, kE = c_H E~ (pala_pairmat), given
 * root = sqrt(r~ (-d)). */
static inline double pala_law_hertz(double kE, double root, double ov) { return kE * root * ov; }

/* Its potential energy, the integral of the force over the overlap: (2/5) F_H (-d). */
static inline double pala_law_hertz_energy(double fh, double ov) { return 0.4 * fh * ov; }

/* The force of a contact on G: normal n (unit), relative velocity w = (wx, wy, wz) at the
 * contact point, Hertz force fh; material pair (delta, mu, nu) of eq. (55). */
typedef struct pala_law_force {
    double Fx, Fy, Fz;   /* the force on G, N (G' gets its negative) */
    double Gx, Gy, Gz;   /* its non-conservative part: restitution and friction, N */
    double c;            /* friction per sliding speed, mu F_n / (nu + |w_t|), N s/m */
    double wtx, wty, wtz;/* the tangential part w_t of w, m/s */
} pala_law_force;

/* Restitution (eq. 56): the Hertz force is scaled by delta while the pair separates.
 * Friction (eq. 53): -mu F_n w_t / (nu + |w_t|), opposing G's sliding. */
static inline pala_law_force pala_law_contact(double fh, double delta, double mu, double nu, double nx, double ny, double nz,
                                              double wx, double wy, double wz)
{
    pala_law_force f;
    double wn = wx * nx + wy * ny + wz * nz;                                     /* eq. (54) */
    double fn = (wn > 0 ? delta : 1.0) * fh;                                     /* eq. (56) */
    f.wtx = wx - wn * nx; f.wty = wy - wn * ny; f.wtz = wz - wn * nz;
    double den = nu + sqrt(f.wtx * f.wtx + f.wty * f.wty + f.wtz * f.wtz);
    f.c = mu * fn / (den > 0 ? den : 1.0);                                       /* eq. (53) */
    f.Fx = fn * nx - f.c * f.wtx; f.Fy = fn * ny - f.c * f.wty; f.Fz = fn * nz - f.c * f.wtz;
    double fc = fn - fh;
    f.Gx = fc * nx - f.c * f.wtx; f.Gy = fc * ny - f.c * f.wty; f.Gz = fc * nz - f.c * f.wtz;
    return f;
}

/* ---- laws with history (docs/physics.md, "Contact history") ---------------------------- */
/* x turned into the plane of unit normal n, its length kept: a spring's displacement
 * follows the contact plane as the pair turns (no energy is made or lost by the turn). */
static inline void pala_law_in_plane(double *x, double nx, double ny, double nz)
{
    double m2 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    if (m2 == 0) return;
    double xn = x[0] * nx + x[1] * ny + x[2] * nz;
    double y0 = x[0] - xn * nx, y1 = x[1] - xn * ny, y2 = x[2] - xn * nz, l2 = y0 * y0 + y1 * y1 + y2 * y2;
    double f = l2 > 0 ? sqrt(m2 / l2) : 0;
    x[0] = y0 * f; x[1] = y1 * f; x[2] = y2 * f;
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
 * the spring less the increase of its energy k|x|^2/2 (exactly 0 without slip). */
static inline double pala_law_spring(double *x, const double *u, double k, double cap, double rho, double dt, double *F)
{
    double h = 0.5 * dt, e0 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2], t[3];
    for (int i = 0; i < 3; i++) { t[i] = x[i] + h * u[i]; F[i] = -k * t[i]; }
    double f2 = F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
    if (f2 > cap * cap) {   /* f2 > 0, so t is not 0 */
        double s = cap / sqrt(f2), t2 = t[0] * t[0] + t[1] * t[1] + t[2] * t[2];
        double a = h * (t[0] * u[0] + t[1] * u[1] + t[2] * u[2]) / t2, y[3];
        for (int i = 0; i < 3; i++) { F[i] *= s; y[i] = t[i] * s + (h * u[i] - a * t[i]); }
        double y2 = y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
        double se = rho * s * sqrt(t2 / (y2 > 0 ? y2 : 1.0));   /* y is 0 only if s is */
        for (int i = 0; i < 3; i++) x[i] = y[i] * se;
    } else
        for (int i = 0; i < 3; i++) x[i] += dt * u[i];
    double e1 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    return -(F[0] * u[0] + F[1] * u[1] + F[2] * u[2]) * dt - 0.5 * k * (e1 - e0);
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
 * the overlap at the end is ov - un dt/2, and cap/k grows as ov^p (p = 3/2 for a constant
 * stiffness under a Hertz cap, 1 for Mindlin's 8 G* a); to first order in dt, and never
 * below 0 (the contact ends within the half step). */
static inline double pala_law_cap_ratio(double ov, double un, double p, double dt)
{
    double r = 1 - p * 0.5 * dt * un / (ov > 0 ? ov : 1.0);
    return r > 0 ? r : 0;
}

#endif

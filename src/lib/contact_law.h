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
 * midpoint (in the plane), k the stiffness, cap the largest force.  The force is that of
 * the midpoint displacement, -k (x + u dt/2), scaled down to the cap if above it (slip);
 * x advances to x + u dt, or to -F/k when slipping (computed as (x + u dt/2) s, s the
 * factor that scaled the force down).  Returns the force into F and the
 * energy the step dissipates, the work -F.u dt done on the spring less the increase of its
 * energy k|x|^2/2 (exactly 0 without slip). */
static inline double pala_law_spring(double *x, const double *u, double k, double cap, double dt, double *F)
{
    double h = 0.5 * dt, e0 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    for (int i = 0; i < 3; i++) F[i] = -k * (x[i] + h * u[i]);
    double f2 = F[0] * F[0] + F[1] * F[1] + F[2] * F[2];
    if (f2 > cap * cap) {   /* -F/k of the capped force, without dividing by k */
        double s = cap / sqrt(f2);
        for (int i = 0; i < 3; i++) { F[i] *= s; x[i] = (x[i] + h * u[i]) * s; }
    } else
        for (int i = 0; i < 3; i++) x[i] += dt * u[i];
    double e1 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2];
    return -(F[0] * u[0] + F[1] * u[1] + F[2] * u[2]) * dt - 0.5 * k * (e1 - e0);
}

/* The same for a scalar spring (torsion about n). */
static inline double pala_law_spring1(double *x, double u, double k, double cap, double dt, double *F)
{
    double e0 = *x * *x;
    *F = -k * (*x + 0.5 * dt * u);
    if (fabs(*F) > cap) { *F = *F > 0 ? cap : -cap; *x = -*F / k; }
    else *x += dt * u;
    return -*F * u * dt - 0.5 * k * (*x * *x - e0);
}

#endif

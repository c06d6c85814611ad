/* fractional.h: the Caputo derivative of order alpha in [0, 1] of a contact's overlap,
 * taken since the contact began, for the fractional-derivative normal law
 * P = c^alpha k^(1 - alpha) D^alpha(zeta) (the fractional-law paper's eqs. 7 and 9;
 * docs/physics.md, "The fractional-derivative normal law").  Pure functions: no world.
 *
 * Use: pala_frac_make once per (alpha, dt); per contact PALA_FRAC_NSTATE doubles of state,
 * all zero when the contact begins; then, at each force evaluation while the contact
 * lasts (overlap zeta > 0), at samples spaced dt apart,
 *     double D = pala_frac_step(&f, state, zeta, zeta_dot);
 * zeta_dot is the rate of the overlap at the sample (the approach speed, > 0 loading).
 *
 * alpha = 0 returns zeta and alpha = 1 returns zeta_dot, bit for bit, and neither reads
 * nor writes the state.  In between, the derivative is the integral of zeta' against the
 * kernel t^(-alpha) / Gamma(1 - alpha): over the last interval with zeta' from the cubic
 * Hermite interpolant of (zeta, zeta_dot) at its ends (exact weights), over the older
 * history with the kernel replaced by a sum of PALA_FRAC_MODES exponentials fitted to it
 * for ages from dt to PALA_FRAC_AGE dt; each exponential keeps one running integral.  The
 * cost of a step is O(PALA_FRAC_MODES), whatever the contact's age. */
#ifndef PALA_FRACTIONAL_H
#define PALA_FRACTIONAL_H

enum {
    PALA_FRAC_MODES = 14,                    /* exponentials of the history kernel */
    PALA_FRAC_NSTATE = PALA_FRAC_MODES + 2   /* per contact: the modes, the last zeta and zeta_dot */
};

/* The ages (in steps) over which the kernel's fit holds to the documented error; older
 * history fades faster than t^-alpha (docs/physics.md). */
#define PALA_FRAC_AGE 1e6

typedef struct pala_frac {
    double alpha, dt;
    int kind;              /* 0: alpha = 0 (spring), 1: alpha = 1 (dashpot), 2: in between */
    double first;          /* 1 / Gamma(2 - alpha): the first sample's zeta theta^-alpha factor */
    double lz, ld0, ld1;   /* the last interval: weights of zeta_n - zeta_{n-1}, zeta_dot_{n-1}, zeta_dot_n */
    double rate[PALA_FRAC_MODES];   /* s_j, 1/s: the modes' decay rates */
    double a[PALA_FRAC_MODES];      /* w_j exp(-s_j dt): a mode's weight in the history one step later */
    double decay[PALA_FRAC_MODES];  /* exp(-s_j dt) */
    double gz[PALA_FRAC_MODES], gd0[PALA_FRAC_MODES], gd1[PALA_FRAC_MODES];   /* a mode's gain over one interval */
    double kap[PALA_FRAC_MODES];    /* g w_j: a mode's stiffness per unit c^alpha k^(1-alpha), 1/s^alpha */
    double fit_err;        /* the fit's largest relative error of the kernel on [dt, PALA_FRAC_AGE dt] */
} pala_frac;

/* The coefficients for order alpha (clamped to [0, 1]) and sample spacing dt > 0.  It fits
 * the kernel (about 2 ms): once per pair of materials and dt, not per step. */
void pala_frac_make(pala_frac *f, double alpha, double dt);

/* D^alpha zeta at this sample (m/s^alpha); advances the state by one sample. */
double pala_frac_step(const pala_frac *f, double *state, double zeta, double zeta_dot);

/* The energy the state holds per unit c^alpha k^(1-alpha), J / (N/m s^alpha)
 * (docs/physics.md, "The fractional-derivative normal law", "Energy"): alpha = 0, the
 * spring's zeta^2/2 with zeta = state[PALA_FRAC_MODES] (which pala_frac_step leaves to the
 * caller at alpha = 0: the contact kernel writes the last zeta there); alpha = 1, 0; in
 * between, the springs of the exponential modes read as Maxwell elements,
 * sum_j kap_j H_j^2 / 2. */
double pala_frac_energy(const pala_frac *f, const double *state);

#endif

/* fractional.c: the Caputo derivative of order alpha of a contact's overlap since the
 * contact began (the fractional-law paper's eq. 9, for 0 < alpha < 1),
 *
 *     D^alpha zeta (t) = 1/Gamma(1 - alpha) int_{t*}^{t} zeta'(tau) (t - tau)^-alpha dtau,
 *
 * discretised at samples t_n spaced dt apart (docs/physics.md, "The fractional-derivative
 * normal law"):
 *   - the last interval [t_{n-1}, t_n]: zeta is the cubic Hermite interpolant of
 *     (zeta, zeta') at both ends, so zeta' is a quadratic, integrated exactly against the
 *     singular kernel (moments B(k + 1, 1 - alpha));
 *   - the history [t*, t_{n-1}], where the kernel's argument is >= dt: the kernel is
 *     sum_j w_j exp(-s_j t), so the history is sum_j w_j exp(-s_j dt) H_j with
 *     H_j(t_n) = int_{t*}^{t_n} zeta'(tau) exp(-s_j (t_n - tau)) dtau, updated once per
 *     sample by H_j <- exp(-s_j dt) H_j + (the same Hermite quadratic against
 *     exp(-s_j (t_n - tau)) over the last interval, exact weights);
 *   - the first sample: the contact began theta = zeta / zeta' before it (theta <= dt;
 *     dt when zeta' <= 0), zeta rising linearly from 0 since.
 * The kernel's fit: t = u dt, u^-alpha ~ sum_j omega_j exp(-sigma_j u) on [1, PALA_FRAC_AGE]
 * with fixed geometric sigma_j and omega_j by least squares of the relative error, made
 * nearly minimax by Lawson's reweighting. */
#include "fractional.h"
#include <math.h>
#include <string.h>

enum { NFIT = 240, LAWSON = 30 };

/* the geometric nodes sigma_j = s_j dt: from SIG_LO / PALA_FRAC_AGE to SIG_HI (chosen by
 * scanning: the smallest largest error over alpha in (0, 1); docs/physics.md) */
static const double SIG_LO = 0.1, SIG_HI = 2.0;

/* E_k(x) = int_0^1 u^k exp(-x u) du, k = 0, 1, 2 (a series for small x, where the closed
 * form cancels) */
static void emoments(double x, double e[3])
{
    if (x < 2) {
        for (int k = 0; k < 3; k++) {
            double term = 1, sum = 0;
            for (int m = 0; m < 40; m++) {
                sum += term / (k + m + 1);
                term *= -x / (m + 1);
            }
            e[k] = sum;
        }
    } else {
        double q = exp(-x);
        e[0] = (1 - q) / x;
        e[1] = (1 - q * (1 + x)) / (x * x);
        e[2] = (2 - q * (2 + 2 * x + x * x)) / (x * x * x);
    }
}

/* min |diag(lam) (A w - 1)| for A (n x m, column-major, overwritten) by Householder QR */
static void lsq(int n, int m, double *A, const double *lam, double *w)
{
    double b[NFIT];
    for (int i = 0; i < n; i++) {
        b[i] = lam[i];
        for (int j = 0; j < m; j++) A[j * n + i] *= lam[i];
    }
    double scale[PALA_FRAC_MODES];
    for (int j = 0; j < m; j++) {   /* equilibrate the columns */
        double s = 0;
        for (int i = 0; i < n; i++) s += A[j * n + i] * A[j * n + i];
        scale[j] = s > 0 ? 1 / sqrt(s) : 1;
        for (int i = 0; i < n; i++) A[j * n + i] *= scale[j];
    }
    for (int k = 0; k < m; k++) {
        double *c = A + k * n, nrm = 0;
        for (int i = k; i < n; i++) nrm += c[i] * c[i];
        nrm = sqrt(nrm);
        if (nrm == 0) continue;
        double alpha = c[k] > 0 ? -nrm : nrm;
        c[k] -= alpha;   /* v = c - alpha e_k, stored in c[k..n) */
        double vv = 0;
        for (int i = k; i < n; i++) vv += c[i] * c[i];
        for (int j = k + 1; j < m; j++) {
            double *d = A + j * n, s = 0;
            for (int i = k; i < n; i++) s += c[i] * d[i];
            s = 2 * s / vv;
            for (int i = k; i < n; i++) d[i] -= s * c[i];
        }
        double s = 0;
        for (int i = k; i < n; i++) s += c[i] * b[i];
        s = 2 * s / vv;
        for (int i = k; i < n; i++) b[i] -= s * c[i];
        c[k] = alpha;   /* R's diagonal */
    }
    for (int k = m - 1; k >= 0; k--) {
        double s = b[k];
        for (int j = k + 1; j < m; j++) s -= A[j * n + k] * w[j];
        w[k] = A[k * n + k] != 0 ? s / A[k * n + k] : 0;
    }
    for (int j = 0; j < m; j++) w[j] *= scale[j];
}

/* omega_j for u^-alpha ~ sum_j omega_j exp(-sigma_j u), u in [1, PALA_FRAC_AGE]; returns
 * the largest relative error on the fit's points */
static double fit(double alpha, const double *sigma, double *omega)
{
    double A0[NFIT * PALA_FRAC_MODES], A[NFIT * PALA_FRAC_MODES];
    double lam[NFIT], err = 0;
    for (int i = 0; i < NFIT; i++) {
        double u = pow(PALA_FRAC_AGE, (double)i / (NFIT - 1)), ua = pow(u, alpha);
        for (int j = 0; j < PALA_FRAC_MODES; j++) A0[j * NFIT + i] = exp(-sigma[j] * u) * ua;
        lam[i] = 1;
    }
    for (int it = 0; it < LAWSON; it++) {
        memcpy(A, A0, sizeof A);
        lsq(NFIT, PALA_FRAC_MODES, A, lam, omega);
        double sum = 0;
        err = 0;
        for (int i = 0; i < NFIT; i++) {
            double s = 0;
            for (int j = 0; j < PALA_FRAC_MODES; j++) s += omega[j] * A0[j * NFIT + i];
            double r = fabs(s - 1);
            if (r > err) err = r;
            lam[i] *= r + 1e-300;
            sum += lam[i];
        }
        for (int i = 0; i < NFIT; i++) lam[i] = sqrt(lam[i] / sum * NFIT);
    }
    return err;
}

void pala_frac_make(pala_frac *f, double alpha, double dt)
{
    memset(f, 0, sizeof *f);
    f->alpha = alpha <= 0 ? 0 : alpha >= 1 ? 1 : alpha;
    f->dt = dt;
    if (f->alpha == 0 || f->alpha == 1) {
        f->kind = f->alpha == 0 ? 0 : 1;
        return;
    }
    f->kind = 2;
    double a = f->alpha;
    /* the last interval: c_k = B(k + 1, 1 - a) / Gamma(1 - a) */
    double c0 = 1 / tgamma(2 - a), c1 = 1 / tgamma(3 - a), c2 = 2 / tgamma(4 - a);
    double da = pow(dt, -a);
    f->first = c0;
    f->lz = da * (6 * c1 - 6 * c2);
    f->ld0 = da * dt * (3 * c2 - 4 * c1 + c0);
    f->ld1 = da * dt * (3 * c2 - 2 * c1);
    /* the history kernel */
    double sigma[PALA_FRAC_MODES], omega[PALA_FRAC_MODES];
    double lo = log(SIG_LO / PALA_FRAC_AGE), hi = log(SIG_HI);
    for (int j = 0; j < PALA_FRAC_MODES; j++) sigma[j] = exp(lo + (hi - lo) * j / (PALA_FRAC_MODES - 1));
    f->fit_err = fit(a, sigma, omega);
    double g = da / tgamma(1 - a);
    for (int j = 0; j < PALA_FRAC_MODES; j++) {
        double e[3];
        emoments(sigma[j], e);   /* F_k = int_0^1 s^k exp(-sigma (1 - s)) ds from E_k */
        double F0 = e[0], F1 = e[0] - e[1], F2 = e[0] - 2 * e[1] + e[2];
        f->rate[j] = sigma[j] / dt;
        f->decay[j] = exp(-sigma[j]);
        f->a[j] = g * omega[j] * f->decay[j];
        f->kap[j] = g * omega[j];
        f->gz[j] = 6 * F1 - 6 * F2;
        f->gd0[j] = dt * (3 * F2 - 4 * F1 + F0);
        f->gd1[j] = dt * (3 * F2 - 2 * F1);
    }
}

double pala_frac_step(const pala_frac *f, double *state, double zeta, double zeta_dot)
{
    if (f->kind == 0) return zeta;
    if (f->kind == 1) return zeta_dot;
    double *H = state, *last = state + PALA_FRAC_MODES;
    double D;
    if (last[0] == 0) {
        /* the first sample: zeta = 0 at t* = t - theta, linear since */
        double theta = f->dt;
        if (zeta_dot > 0 && zeta < zeta_dot * f->dt) theta = zeta / zeta_dot;
        if (!(theta > 0)) theta = f->dt;
        D = f->first * zeta * pow(theta, -f->alpha);
        for (int j = 0; j < PALA_FRAC_MODES; j++) {
            double x = f->rate[j] * theta;
            H[j] = zeta * (x > 0 ? -expm1(-x) / x : 1);
        }
    } else {
        double dz = zeta - last[0];
        D = f->lz * dz + f->ld0 * last[1] + f->ld1 * zeta_dot;
        for (int j = 0; j < PALA_FRAC_MODES; j++) {
            D += f->a[j] * H[j];
            H[j] = f->decay[j] * H[j] + f->gz[j] * dz + f->gd0[j] * last[1] + f->gd1[j] * zeta_dot;
        }
    }
    last[0] = zeta;
    last[1] = zeta_dot;
    return D;
}

/* Each exponential mode is a Maxwell element: a spring of stiffness kap_j = g w_j in series
 * with a dashpot, its spring stretched by H_j (H_j' = zeta' - s_j H_j), holding
 * kap_j H_j^2 / 2 and losing kap_j s_j H_j^2 per unit time. */
double pala_frac_energy(const pala_frac *f, const double *state)
{
    if (f->kind == 0) return 0.5 * state[PALA_FRAC_MODES] * state[PALA_FRAC_MODES];
    if (f->kind == 1) return 0;
    double e = 0;
    for (int j = 0; j < PALA_FRAC_MODES; j++) e += f->kap[j] * state[j] * state[j];
    return 0.5 * e;
}

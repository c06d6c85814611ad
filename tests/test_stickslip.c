/* test_stickslip.c: the order of the tangential spring through stick and slip (docs/physics.md,
 * "The tangential spring"; issue 23).  Two spheres meet obliquely (Mindlin's spring,
 * textbook Hertz, elastic normal force, no spin): the contact slips at first (the tangential
 * speed is high for the small cap), sticks, and slips again as it unloads.  The rebound spin
 * is measured at dt, dt/2, dt/4 and dt/8 and against a reference (dt/64 and dt/128, with
 * Richardson's correction); the step is second order, so each halving must divide the error
 * by 2^1.8 to 2^2.2.  A slip update that stores the midpoint's capped displacement as the
 * end of the step's falls behind the shrinking or growing cap by half a step: it fails.
 *
 * The law alone (pala_law_spring), slipping while the direction of sliding turns: u(t) =
 * U (cos Wt, sin Wt, 0) drives a spring on its cap c = cap/k from xi = (c, 0, 0).  The
 * displacement keeps the length c and turns as theta' = (U/c) sin(Wt - theta); with
 * U/c = W = 1, phi = t - theta obeys phi' = 1 - sin phi, so tan(pi/4 + phi/2) = 1 + t and
 * theta(T) = T + pi/2 - 2 atan(1 + T).  The angle after T = 3 must converge at order 2 (a
 * slip update that turns the spring over half of each step only, as the midpoint's capped
 * displacement stored as the end's does, misses by 0.49 rad at every dt). */
#include "t.h"
#include "pala/pala.h"
#include "contact_law.h"
#include <math.h>
#include <stdlib.h>

void test_stickslip(void);

#define RAD 1e-3   /* m */
#define VN 0.1     /* approach speed, m/s */
#define VT 0.03    /* tangential relative speed, m/s */
#define MU 0.3
#define TEND 2e-4  /* s: the contact (from 3e-5 s) has ended */

/* The phases of the contact, from the spring's state after each step: slipping while
 * |xi| is within 1e-3 of the cap over Mindlin's stiffness, mu F_H / (8 G* a) = mu kE d / kG
 * (eq. 57; docs/physics.md, "The tangential spring"), at the end of the step; as runs of
 * 's' and 'k' (sticking), a letter per run.  The contact's first step is left out: the
 * contact began within it. */
struct phases { char seq[16]; int nseq; long steps[16], touched; };

static void phase_step(pala_world *w, struct phases *ph)
{
    long n;
    double *h = pala_world_history_get(w, &n);
    if (h && n >= 7 && h[1] > 0 && ph->touched++ > 0) {
        pala_vec3 dx = pala_vsub(w->x[0], w->x[1]);
        double ov = 2 * RAD - pala_vnorm(dx), xi = sqrt(h[4] * h[4] + h[5] * h[5] + h[6] * h[6]);
        double c = MU * w->pm[0].kE * ov / w->pm[0].kG;
        char p = xi > (1 - 1e-3) * c ? 's' : 'k';
        if (ph->nseq == 0 || ph->seq[ph->nseq - 1] != p) {
            if (ph->nseq < 15) { ph->seq[ph->nseq] = p; ph->steps[ph->nseq++] = 0; }
        }
        ph->steps[ph->nseq - 1]++;
    }
    free(h);
}

/* The spin of sphere 0 about z after the impact at step dt (ph: the phases, or NULL);
 * *ended: the contact began and ended. */
static double rebound_spin(double dt, struct phases *ph, int *ended)
{
    pala_world w;
    pala_world_init(&w);
    pala_material m = {.name = "glass", .rho = 2500, .E = 1e8, .sigma = 0.3, .delta = 1, .mu = MU, .nu = 1e-3};
    m.tlaw = PALA_TLAW_MINDLIN;
    pala_world_add_material(&w, &m);
    w.hertz = PALA_HERTZ_TEXTBOOK;
    int t = pala_world_add_sphere_template(&w, 0, RAD);
    const double gap = 3e-6;   /* they touch after 3e-5 s */
    pala_world_add_grain(&w, t, pala_v(-RAD - gap / 2, 0, 0), pala_v(0, 0, 0), pala_v(VN / 2, VT / 2, 0), pala_v(0, 0, 0));
    pala_world_add_grain(&w, t, pala_v(RAD + gap / 2, 0, 0), pala_v(0, 0, 0), pala_v(-VN / 2, -VT / 2, 0), pala_v(0, 0, 0));
    w.dt = dt;
    pala_world_prepare(&w);
    long n = lround(TEND / dt), touched = 0;
    if (ph) ph->nseq = ph->touched = 0;
    for (long s = 0; s < n; s++) {
        pala_world_step(&w);
        touched += w.ncontact;
        if (ph) phase_step(&w, ph);
    }
    *ended = touched > 0 && w.ncontact == 0;
    double spin = w.w[0].z;
    pala_world_free(&w);
    return spin;
}

/* The angle of the slipping spring after T = 3 in n steps (rho 1: a constant cap). */
static double turned(long n)
{
    const double T = 3, dt = T / n;
    double x[3] = {1, 0, 0}, F[3];
    for (long i = 0; i < n; i++) {
        double tm = (i + 0.5) * dt, u[3] = {cos(tm), sin(tm), 0};
        pala_law_spring(x, u, 1, 1, 1, 1, dt, F, 1);
    }
    return atan2(x[1], x[0]);
}

static void turning(void)
{
    const double exact = 3 + 2 * atan(1.0) - 2 * atan(4.0);
    double e[4];
    for (int i = 0; i < 4; i++) e[i] = turned(100L << i) - exact;
    T_CHECK(fabs(e[0]) < 1e-3, "stick-slip: a slipping spring whose sliding turns ends at %.9f rad after 100 steps "
            "(exact %.9f, error %.2e)", exact + e[0], exact, e[0]);
    for (int i = 0; i < 3; i++) {
        double p = log2(fabs(e[i] / e[i + 1]));
        T_CHECK(p >= 1.8 && p <= 2.2, "stick-slip: the angle of a slipping spring whose sliding turns converges at order "
                "%.3f from %ld to %ld steps (%.3e -> %.3e)", p, 100L << i, 200L << i, e[i], e[i + 1]);
    }
}

static void impact(void)
{
    const double dt = 2.5e-7;   /* about 520 steps in the contact */
    double s[4], e[4];
    int ended, all = 1;
    struct phases ph;
    double r64 = rebound_spin(dt / 64, NULL, &ended);
    all &= ended;
    double r128 = rebound_spin(dt / 128, NULL, &ended);
    all &= ended;
    double ref = r128 + (r128 - r64) / 3;   /* Richardson, second order */
    for (int i = 0; i < 4; i++) {
        s[i] = rebound_spin(dt / (1 << i), i == 3 ? &ph : NULL, &ended);
        all &= ended;
        e[i] = s[i] - ref;
    }
    char seq[64] = "";
    for (int i = 0, o = 0; i < ph.nseq && o < 56; i++) o += snprintf(seq + o, sizeof seq - o, "%s%c %ld", i ? ", " : "", ph.seq[i], ph.steps[i]);
    T_CHECK(all && ph.nseq == 3 && ph.seq[0] == 's' && ph.seq[1] == 'k' && ph.seq[2] == 's' && ph.steps[0] > 20 && ph.steps[1] > 20
            && ph.steps[2] > 20, "stick-slip: the oblique impact slips, sticks and slips at dt/8 (steps: %s)", seq);
    printf("     rebound spin %.12g rad/s (reference: %.12g at dt/128, Richardson from dt/64)\n", ref, r128);
    for (int i = 0; i < 4; i++) {
        printf("     dt/%d = %.4g s: spin %.12g, error %.3e", 1 << i, dt / (1 << i), s[i], e[i]);
        if (i) printf(", change from dt/%d %.3e", 1 << (i - 1), s[i] - s[i - 1]);
        if (i > 1) printf(" (order %.2f)", log2(fabs((s[i - 1] - s[i - 2]) / (s[i] - s[i - 1]))));
        printf("\n");
    }
    for (int i = 0; i < 3; i++) {
        double p = log2(fabs(e[i] / e[i + 1]));
        T_CHECK(p >= 1.8 && p <= 2.2, "stick-slip: the error of the rebound spin falls at order %.3f from dt/%d to dt/%d "
                "(%.3e -> %.3e; second order: 1.8 to 2.2)", p, 1 << i, 2 << i, e[i], e[i + 1]);
    }
}

void test_stickslip(void)
{
    impact();
    turning();
}

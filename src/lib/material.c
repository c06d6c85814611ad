/* material.c: the combined data of two materials in contact (eq. 55): the harmonic
 * mean H of each property, and the stiffness prefactor of the Hertz law (eq. 57); then the
 * values that pairs of materials set themselves (w->pairs) replace the mixed ones. */
#include "material.h"
#include "alloc.h"
#include "contact_law.h"
#include <math.h>

double pala_harmonic(double a, double b)
{
    if (isinf(a)) return 2 * b;            /* H(inf, x) = 2x: a flat wall (docs/physics.md, "Walls") */
    if (isinf(b)) return 2 * a;
    return a + b == 0 ? 0 : 2 * a * b / (a + b);
}

/* eq. (57): F = c_H E~ sqrt(r~) (-d)^{3/2} with c_H = sqrt(3)/2.  The textbook law
 * 4/3 E* sqrt(R*) with E* = E~/2, R* = r~/2 is the same form with c_H = sqrt(2)/3. */
double pala_hertz_prefactor(int hertz)
{
    return hertz == PALA_HERTZ_TEXTBOOK ? sqrt(2.0) / 3.0 : sqrt(3.0) / 2.0;
}

/* The laws with history of a pair (docs/physics.md, "Contact history"): a material that
 * leaves its tangential law to the world takes w->tlaw; two materials of different laws
 * make a pair of the larger code (a spring wins over the regularised law, Mindlin over a
 * constant spring).  Stiffnesses and frictions mix by H, as eq. (55) does; Mindlin's
 * k_t = 8 G* a (a = sqrt(R* (-d)), R* = r~/2, 1/G* = (2 - s1)/G1 + (2 - s2)/G2, G = E / (2 (1 + s)))
 * is kG sqrt(r~ (-d)) with kG = 2 sqrt(2) H(G1/(2 - s1), G2/(2 - s2)). */
static void material_history(const pala_world *w, const pala_material *a, const pala_material *b, pala_pairmat *p)
{
    int ta = a->tlaw ? a->tlaw : w->tlaw ? w->tlaw : PALA_TLAW_REGULARISED;
    int tb = b->tlaw ? b->tlaw : w->tlaw ? w->tlaw : PALA_TLAW_REGULARISED;
    p->tlaw = ta > tb ? ta : tb;
    p->kt = pala_harmonic(a->kt, b->kt);
    double ga = a->E / (2 * (1 + a->sigma)) / (2 - a->sigma), gb = b->E / (2 * (1 + b->sigma)) / (2 - b->sigma);
    p->kG = 2 * sqrt(2.0) * pala_harmonic(ga, gb);
    p->kroll = pala_harmonic(a->kroll, b->kroll);
    p->muroll = pala_harmonic(a->muroll, b->muroll);
    p->ktor = pala_harmonic(a->ktor, b->ktor);
    p->mutor = pala_harmonic(a->mutor, b->mutor);
    pala_law_mix_normal(a, b, p);   /* the normal law (contact_law.h) */
    int da = a->damp ? a->damp : w->damp ? w->damp : PALA_DAMP_SWITCH;
    int db = b->damp ? b->damp : w->damp ? w->damp : PALA_DAMP_SWITCH;
    p->damp = da > db ? da : db;
}

/* ---- the normal dashpot (docs/physics.md, "The normal dashpot") ------------------------ */
/* The overlap x of a head-on collision, in units of x0 = (m* v0^2 / K)^(2/5) with F_H = K x^1.5,
 * and the time in units of x0 / v0, obeys x'' = -max(0, x^1.5 + c x^0.25 x'), x(0) = 0,
 * x'(0) = 1: the speed v0 is gone from it, so the restitution, the speed at which x returns
 * to 0, depends on c alone.  Classical Runge-Kutta with step 1e-3 (the contact lasts 3.2
 * units at c = 0, longer with c; the result changes by < 3e-6 when the step is halved). */
static double dashpot_acc(double x, double v, double c)
{
    if (x <= 0) return 0;
    double f = x * sqrt(x) + c * sqrt(sqrt(x)) * v;
    return f > 0 ? -f : 0;   /* never attractive */
}

double pala_dashpot_restitution(double c)
{
    const double h = 1e-3;
    double x = 0, v = 1;
    for (long i = 0; i < 10000000L; i++) {   /* 10^4 units: far beyond c = 11 (delta = 1e-4) */
        double k1x = v, k1v = dashpot_acc(x, v, c);
        double k2x = v + 0.5 * h * k1v, k2v = dashpot_acc(x + 0.5 * h * k1x, k2x, c);
        double k3x = v + 0.5 * h * k2v, k3v = dashpot_acc(x + 0.5 * h * k2x, k3x, c);
        double k4x = v + h * k3v, k4v = dashpot_acc(x + h * k3x, k4x, c);
        x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
        v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
        if (x <= 0) return -v;   /* the force is 0 near x = 0 on the way out: v is the exit speed */
    }
    return 0;
}

/* The c whose restitution is sqrt(delta): e(c) falls monotonically from 1 at c = 0, so a
 * bisection (60 halvings) finds it; delta is taken as at least PALA_DASHPOT_DELTA_MIN. */
double pala_dashpot_constant(double delta)
{
    if (delta >= 1) return 0;
    double e = sqrt(delta > PALA_DASHPOT_DELTA_MIN ? delta : PALA_DASHPOT_DELTA_MIN), lo = 0, hi = 1;
    while (pala_dashpot_restitution(hi) > e) { lo = hi; hi *= 2; }
    for (int k = 0; k < 60 && hi - lo > 1e-12 * hi; k++) {
        double mid = 0.5 * (lo + hi);
        if (pala_dashpot_restitution(mid) > e) lo = mid;
        else hi = mid;
    }
    return 0.5 * (lo + hi);
}

void pala_material_pairs(pala_world *w)
{
    PALA_GROW(w->pm, w->nmat * w->nmat);
    double ch = pala_hertz_prefactor(w->hertz);
    for (int i = 0; i < w->nmat; i++)
        for (int j = 0; j < w->nmat; j++) {
            const pala_material *a = &w->mat[i], *b = &w->mat[j];
            pala_pairmat *p = &w->pm[i * w->nmat + j];
            p->kE = ch * pala_harmonic(a->E / (1 - a->sigma * a->sigma), b->E / (1 - b->sigma * b->sigma));
            p->delta = pala_harmonic(a->delta, b->delta);
            p->mu = pala_harmonic(a->mu, b->mu);
            p->nu = pala_harmonic(a->nu, b->nu);
            material_history(w, a, b, p);
        }
    /* pairs with their own values (a [pair A B] section): each value given replaces the
     * mixed one, in both orders */
    for (int q = 0; q < w->npairs; q++) {
        const pala_pairset *s = &w->pairs[q];
        for (int o = 0; o < 2; o++) {
            pala_pairmat *p = &w->pm[o ? s->b * w->nmat + s->a : s->a * w->nmat + s->b];
            if (s->set & PALA_PAIR_MU) p->mu = s->mu;
            if (s->set & PALA_PAIR_DELTA) p->delta = s->delta;
            if (s->set & PALA_PAIR_NU) p->nu = s->nu;
            if (s->set & PALA_PAIR_TLAW) p->tlaw = s->tlaw;
            if (s->set & PALA_PAIR_KT) p->kt = s->kt;
            if (s->set & PALA_PAIR_KROLL) p->kroll = s->kroll;
            if (s->set & PALA_PAIR_MUROLL) p->muroll = s->muroll;
            if (s->set & PALA_PAIR_KTOR) p->ktor = s->ktor;
            if (s->set & PALA_PAIR_MUTOR) p->mutor = s->mutor;
            if (s->set & PALA_PAIR_DAMP) p->damp = s->damp;
        }
    }
    /* the dashpots' constants, once per value of delta */
    double dlast = -1, clast = 0;
    for (int i = 0; i < w->nmat * w->nmat; i++) {
        pala_pairmat *p = &w->pm[i];
        p->cdamp = 0;
        if (p->damp != PALA_DAMP_DASHPOT) continue;
        p->cdamp = pala_law_damp_constant(p, &dlast, &clast, pala_dashpot_constant);
    }
}

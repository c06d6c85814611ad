/* material.c: the combined data of two materials in contact (eq. 55): the harmonic
 * mean H of each property, and the stiffness prefactor of the Hertz law (eq. 57); then the
 * values that pairs of materials set themselves (w->pairs) replace the mixed ones.  Last,
 * the checks of the materials' laws and of each pair's mix, for pala_world_prepare. */
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

/* ---- the checks (material.h) ------------------------------------------------------------ */
#define NAME(k) pala_check_name(c, PALA_KEY_##k)

/* Rolling ([0]) and torsion ([1]) resistance: a stiffness and a friction, both or neither. */
static const struct resistance {
    const char *what;
    int kmat, fmat, kpair, fpair, kbit;   /* the keys of the material's and the pair's stiffness and friction */
} resist[2] = {
    {"rolling", PALA_KEY_rolling_stiffness, PALA_KEY_rolling_friction, PALA_KEY_pair_rolling_stiffness, PALA_KEY_pair_rolling_friction, PALA_PAIR_KROLL},
    {"torsion", PALA_KEY_torsion_stiffness, PALA_KEY_torsion_friction, PALA_KEY_pair_torsion_stiffness, PALA_KEY_pair_torsion_friction, PALA_PAIR_KTOR},
};

int pala_material_check(pala_check *c, const pala_world *w, int i, int used)
{
    const int M = PALA_PART_MATERIAL;
    if (pala_check_fields(c, w, M, i, PALA_S_MATERIAL, &w->mat[i], -1)) return PALA_ERR_INPUT;
    if (!used) return PALA_OK;
    const pala_material *a = &w->mat[i];
    char who[96], sp[48];
    pala_check_who(c, w, M, i, who, sizeof who);
    if ((a->tlaw ? a->tlaw : w->tlaw) == PALA_TLAW_SPRING && a->kt == 0) {
        if (a->tlaw)
            return pala_fault(c, M, i, PALA_KEY_material_tangential_law, "%s: '%s = %s' needs '%s' > 0 (N/m): add it to %s", who,
                              NAME(material_tangential_law), pala_check_word(c, PALA_KEY_material_tangential_law, PALA_TLAW_SPRING, sp, sizeof sp),
                              NAME(tangential_stiffness), who);
        return pala_fault(c, PALA_PART_WORLD, -1, PALA_KEY_tangential_law, "'%s = %s' applies to %s, which has no '%s': add one (N/m) to %s, or give "
                          "it a %s of its own", NAME(tangential_law), pala_check_word(c, PALA_KEY_tangential_law, PALA_TLAW_SPRING, sp, sizeof sp), who,
                          NAME(tangential_stiffness), who, NAME(material_tangential_law));
    }
    for (int r = 0; r < 2; r++) {
        double k = r ? a->ktor : a->kroll, f = r ? a->mutor : a->muroll;
        if ((k > 0) == (f > 0)) continue;
        int given = k > 0 ? resist[r].kmat : resist[r].fmat, other = k > 0 ? resist[r].fmat : resist[r].kmat;
        return pala_fault(c, M, i, given, "%s: '%s = %g' without '%s': set both for %s resistance (a large %s gives a pure spring), or neither", who,
                          pala_check_name(c, given), k > 0 ? k : f, pala_check_name(c, other), resist[r].what, pala_check_name(c, resist[r].fmat));
    }
    if (a->nlaw == PALA_NLAW_FRACTIONAL && ((a->alpha < 1 && a->fk == 0) || (a->alpha > 0 && a->fc == 0))) {
        int stiff = a->alpha < 1 && a->fk == 0;
        return pala_fault(c, M, i, PALA_KEY_normal_law, "%s: '%s = %s' needs '%s' > 0 (%s) unless %s = %d (it is %g): add it to %s", who, NAME(normal_law),
                          pala_check_word(c, PALA_KEY_normal_law, PALA_NLAW_FRACTIONAL, sp, sizeof sp),
                          stiff ? NAME(fractional_stiffness) : NAME(fractional_damping), stiff ? "N/m" : "N s/m", NAME(fractional_order), stiff,
                          a->alpha, who);
    }
    if (a->nlaw == PALA_NLAW_HOOKE && !(a->kn > 0))   /* the linear spring (docs/physics.md, "The linear spring-dashpot") */
        return pala_fault(c, M, i, PALA_KEY_normal_law, "%s: '%s = %s' needs '%s' > 0 (N/m): add it to %s", who, NAME(normal_law),
                          pala_check_word(c, PALA_KEY_normal_law, PALA_NLAW_HOOKE, sp, sizeof sp), NAME(normal_stiffness), who);
    return PALA_OK;
}

/* Where a pair of materials a and b gets values of its own, in c's words, into buf. */
static const char *pair_hint(const pala_check *c, const pala_world *w, int a, int b, char *buf, size_t len)
{
    if (c->keys) snprintf(buf, len, "a [pair %s %s] section", w->mat[a].name, w->mat[b].name);
    else snprintf(buf, len, "a pala_pairset of materials %d and %d (pala_world_add_pair)", a, b);
    return buf;
}

/* The pala_pairset of materials a and b (either order), or -1. */
static int pairset(const pala_world *w, int a, int b)
{
    for (int q = 0; q < w->npairs; q++)
        if ((w->pairs[q].a == a && w->pairs[q].b == b) || (w->pairs[q].a == b && w->pairs[q].b == a)) return q;
    return -1;
}

int pala_material_pair_check(pala_check *c, const pala_world *w, int ma, int mb)
{
    const int M = PALA_PART_MATERIAL, P = PALA_PART_PAIR;
    const pala_pairmat *p = &w->pm[ma * w->nmat + mb];
    const pala_material *a = &w->mat[ma], *b = &w->mat[mb];
    int q = pairset(w, ma, mb), set = q >= 0 ? w->pairs[q].set : 0;
    char wa[96], wb[96], wp[200], w1[48], w2[48];
    pala_check_who(c, w, M, ma, wa, sizeof wa);
    pala_check_who(c, w, M, mb, wb, sizeof wb);
    if (q >= 0) pala_check_who(c, w, P, q, wp, sizeof wp);
    else snprintf(wp, sizeof wp, "%s and %s", wa, wb);
    if (p->tlaw == PALA_TLAW_SPRING && p->kt == 0) {
        if (set & PALA_PAIR_KT)
            return pala_fault(c, P, q, PALA_KEY_pair_tangential_stiffness, "%s: '%s = 0' with the spring law: give it > 0 (N/m)", wp,
                              NAME(pair_tangential_stiffness));
        if (set & PALA_PAIR_TLAW)
            return pala_fault(c, P, q, PALA_KEY_pair_tangential_law, "%s: '%s = %s' needs a tangential stiffness, but the two materials' stiffnesses "
                              "mix to 0 (H of %g and %g): add '%s' (N/m) to %s", wp, NAME(pair_tangential_law),
                              pala_check_word(c, PALA_KEY_pair_tangential_law, PALA_TLAW_SPRING, w1, sizeof w1), a->kt, b->kt,
                              NAME(pair_tangential_stiffness), wp);
        /* the material that lacks the value */
        int z = a->kt == 0 ? ma : mb;
        char pz[160];
        pair_hint(c, w, z, z == ma ? mb : ma, pz, sizeof pz);
        return pala_fault(c, M, z, PALA_KEY_tangential_stiffness, "%s has no '%s', so where it touches %s, which has the spring law, the spring's "
                          "stiffness mixes to 0 (eq. 55): add '%s' (N/m) to %s, or '%s' or '%s' to %s", z == ma ? wa : wb,
                          NAME(tangential_stiffness), z == ma ? wb : wa, NAME(tangential_stiffness), z == ma ? wa : wb,
                          NAME(pair_tangential_stiffness), NAME(pair_tangential_law), pz);
    }
    for (int r = 0; r < 2; r++) {
        /* each material has both or neither: a pala_pairset gave one of the two */
        double k = r ? p->ktor : p->kroll, f = r ? p->mutor : p->muroll;
        if ((k > 0) == (f > 0)) continue;
        return pala_fault(c, q >= 0 ? P : PALA_PART_WORLD, q, (set & resist[r].kbit) ? resist[r].kpair : resist[r].fpair,
                          "%s: %s %g with %s %g: set both > 0 for %s resistance (a large %s gives a pure spring), or both 0", wp,
                          pala_check_name(c, resist[r].kpair), k, pala_check_name(c, resist[r].fpair), f, resist[r].what,
                          pala_check_name(c, resist[r].fpair));
    }
    if (p->nlaw == PALA_NLAW_FRACTIONAL && ((p->alpha < 1 && p->fk == 0) || (p->alpha > 0 && p->fc == 0))) {
        int stiff = p->alpha < 1 && p->fk == 0;
        int z = (stiff ? a->fk : a->fc) == 0 ? ma : mb, key = stiff ? PALA_KEY_fractional_stiffness : PALA_KEY_fractional_damping;
        return pala_fault(c, M, z, key, "%s has no '%s', so where it touches %s, which has %s = %s, the pair's %s mixes to 0 (eq. 55) with %s "
                          "%g: add '%s' (%s) to %s", z == ma ? wa : wb, pala_check_name(c, key), z == ma ? wb : wa, NAME(normal_law),
                          pala_check_word(c, PALA_KEY_normal_law, PALA_NLAW_FRACTIONAL, w1, sizeof w1), stiff ? "stiffness" : "damping",
                          NAME(fractional_order), p->alpha, pala_check_name(c, key), stiff ? "N/m" : "N s/m", z == ma ? wa : wb);
    }
    if (p->damp != PALA_DAMP_DASHPOT) return PALA_OK;
    pala_check_word(c, PALA_KEY_material_normal_damping, PALA_DAMP_DASHPOT, w1, sizeof w1);
    pala_check_word(c, PALA_KEY_material_normal_damping, PALA_DAMP_SWITCH, w2, sizeof w2);
    if (p->nlaw == PALA_NLAW_FRACTIONAL) {
        /* the fractional law damps by itself (its c): a dashpot on top is not defined */
        int pair = (set & PALA_PAIR_DAMP) != 0, m = a->damp == PALA_DAMP_DASHPOT ? ma : mb;
        char frac[48], pz[160];
        pair_hint(c, w, ma, mb, pz, sizeof pz);
        return pala_fault(c, pair ? P : M, pair ? q : m, pair ? PALA_KEY_pair_normal_damping : PALA_KEY_material_normal_damping,
                          "%s meets %s with %s = %s and %s = %s: the fractional law damps by its own %s, and the dashpot is for the Hertz law: "
                          "set %s = %s for this pair (%s) or for the material that has the dashpot", wa, wb, NAME(normal_law),
                          pala_check_word(c, PALA_KEY_normal_law, PALA_NLAW_FRACTIONAL, frac, sizeof frac), NAME(material_normal_damping), w1,
                          NAME(fractional_damping), NAME(material_normal_damping), w2, pz);
    }
    if (p->delta < PALA_DASHPOT_DELTA_MIN) {
        /* the pair's delta (set by a pala_pairset, or the mix of the two) */
        int pair = (set & PALA_PAIR_DELTA) != 0, m = a->delta <= b->delta ? ma : mb;
        return pala_fault(c, pair ? P : M, pair ? q : m, pair ? PALA_KEY_pair_delta : PALA_KEY_delta,
                          "%s meets %s with %s = %s and delta %g: the dashpot needs delta >= %g (restitution %g; smaller ones make contacts "
                          "last ever longer): give a larger delta, or %s = %s", wa, wb, NAME(material_normal_damping), w1, p->delta,
                          PALA_DASHPOT_DELTA_MIN, sqrt(PALA_DASHPOT_DELTA_MIN), NAME(material_normal_damping), w2);
    }
    return PALA_OK;
}

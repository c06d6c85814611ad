/* timestep.c: the check of dt before the first step (docs/physics.md, "Choosing dt"): the
 * time scales of a prepared world's laws, each from the materials, the grains and the
 * largest impact speed the initial state foresees, against dt, with a verdict
 * (pala_world_dt_check).  An estimate: it cannot foresee speeds that fields and
 * interactions give later, and it takes the lightest grain and the smallest component of
 * each material together. */
#include "pala/pala.h"
#include "alloc.h"
#include "container.h"
#include "feed.h"
#include "region.h"
#include "surface.h"
#include "world.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the grains of one material bring to the time scales: the least effective mass of a
 * component's contact, the smallest component radius and principal moment; and for the
 * deepest overlap, the mass M and smallest radius aM of the grain that presses its smallest
 * component deepest (Hertz: d_max / a ~ M^(2/5) a^(-6/5), a central impact moving the whole mass). */
typedef struct matgrains { int used; double m, a, I, M, aM; } matgrains;

/* Steps per time scale: below `coarse` the verdict is coarse (a contact: 10; docs/physics.md
 * asks for 20 for accuracy); a contact lasting fewer than PALA_DT_CONTACT_MIN steps (the
 * explicit step's limit omega dt < 2 at the Hertz contact's peak stiffness, omega t_c = 4.0),
 * an oscillator of period T with dt > T / pi or a drag time shorter than dt is surely
 * unstable. */
#define PALA_DT_CONTACT_MIN 2.0

/* The largest overlap of an impact at speed v, reduced mass m (docs/physics.md, "Choosing
 * dt"): Hertz's d_max = (5 m v^2 / (4 k))^(2/5), k = c_H E~ sqrt(r~) (eq. 57); the linear
 * spring's v sqrt(m / k_n) (its energy 1/2 k_n d^2 takes 1/2 m v^2); none for the fractional law. */
static double overlap_max(const pala_pairmat *p, double m, double rt, double v)
{
    if (p->nlaw == PALA_NLAW_HOOKE) return p->kn > 0 ? v * sqrt(m / p->kn) : 0;
    if (p->nlaw == PALA_NLAW_FRACTIONAL) return 0;
    double k = p->kE * sqrt(rt);
    return v > 0 && k > 0 ? pow(5 * m * v * v / (4 * k), 0.4) : 0;
}

/* The pair's normal law's stiffness is a number (young = 1e300 makes Hertz's E~ inf). */
static int stiffness_finite(const pala_pairmat *p)
{
    return isfinite(p->nlaw == PALA_NLAW_HOOKE ? p->kn : p->nlaw == PALA_NLAW_FRACTIONAL ? p->fk * p->fc : p->kE);
}

/* Hertz contact (docs/physics.md, "Choosing dt"): t_c = 2.9432 d_max / v (*dmax set, for
 * Mindlin's spring); the linear spring: pi sqrt(m / k_n); the fractional law, as a spring of
 * its stiffness at the frequency it makes: omega^(2 - alpha) = c^alpha k^(1-alpha) / m. */
static double contact_time(const pala_pairmat *p, double m, double rt, double v, double *dmax)
{
    *dmax = 0;
    /* a stiffness past a double: no contact lasts a step, surely unstable (1e-300 s, as an
     * impact at inf m/s below), not a scale left out */
    if (!stiffness_finite(p)) return 1e-300;
    if (p->nlaw == PALA_NLAW_HOOKE) return p->kn > 0 ? PALA_PI * sqrt(m / p->kn) : 0;
    if (p->nlaw == PALA_NLAW_FRACTIONAL) {
        double om = pow(pow(p->fc, p->alpha) * pow(p->fk, 1 - p->alpha) / m, 1 / (2 - p->alpha));
        return om > 0 ? PALA_PI / om : 0;
    }
    *dmax = overlap_max(p, m, rt, v);
    return *dmax > 0 ? 2.9432 * *dmax / v : 0;
}

static double tmin(double a, double b) { return a > 0 && (b <= 0 || a < b) ? a : b; }

/* The largest impact speed the initial state foresees, m/s: each grain's speed (of its
 * fastest point) and what it gains falling to the lowest point of the container along g
 * (without one, to the lowest grain); each inserter's grains likewise, from the top of
 * their region, at their velocity plus three standard deviations of its spread in each
 * component, falling to the container's lowest point (without one, to the lowest grain or
 * [wall] point: pala_surface_lowest); plus the fastest moving wall's (surface.h). */
static double impact_speed(const pala_world *w, char *cause, size_t len)
{
    double g = pala_vnorm(w->g), low = HUGE_VAL, vmax = 0;
    pala_vec3 down = g > 0 ? pala_vscale(1 / g, w->g) : pala_v(0, 0, 0);
    int cont = pala_container_of(w) != NULL;
    for (int k = 0; k < w->n && !cont; k++) low = fmin(low, -pala_vdot(down, w->x[k]));
    double land = cont ? -pala_vdot(down, w->field_ref) : low;   /* where inserted grains land */
    for (int i = 0; i < w->nwalls && !cont && g > 0; i++)   /* (fmin passes over a wall without a lowest point: NaN) */
        if (w->walls[i].kind == &pala_wall_surface) land = fmin(land, pala_surface_lowest(w->walls[i].par, pala_vscale(-1, down)));
    for (int i = 0; w->feed && i < w->feed->n; i++) {
        const pala_feed_one *f = &w->feed->f[i];
        if (f->outlet) continue;
        double lo[3], hi[3], top = -HUGE_VAL;
        pala_region_bounds(&f->in.region, w->dim, lo, hi);
        for (int c = 0; c < 8; c++) top = fmax(top, -pala_vdot(down, pala_v(c & 1 ? hi[0] : lo[0], c & 2 ? hi[1] : lo[1], c & 4 ? hi[2] : lo[2])));
        double s = pala_vnorm(f->in.vel) + 3 * f->in.vspread * sqrt(w->dim == 2 ? 2.0 : 3.0) + pala_vnorm(f->in.omega) * pala_feed_radius(w, i);
        double h = isfinite(top) && isfinite(land) ? top - land : 0;
        if (!isfinite(s) && !cause[0])
            snprintf(cause, len, "[group %s]'s inserted grains' velocity, velocity_spread or angular_velocity is past a double: give finite ones", f->in.name);
        vmax = fmax(vmax, sqrt(s * s + 2 * g * fmax(h, 0)));   /* their speed and the fall's, energy conserved (physics.md, "Choosing dt") */
    }
    for (int k = 0; k < w->n; k++) {
        double s = pala_vnorm(w->v[k]) + pala_vnorm(w->w[k]) * w->tmpl[w->tid[k]].bound_radius;
        double h = cont ? -pala_vdot(down, pala_vsub(w->x[k], w->field_ref)) : -pala_vdot(down, w->x[k]) - low;
        vmax = fmax(vmax, sqrt(s * s + 2 * g * fmax(h, 0)));
        if (!isfinite(s) && !cause[0]) snprintf(cause, len, "grain %d's velocity or angular velocity is past a double: give its [group] a finite velocity, angular_velocity "
                                                    "and velocity_spread", k);
    }
    const char *wall = NULL;
    double vs = pala_surfaces_speed_of(w, &wall);
    if (!isfinite(vs) && !cause[0])
        snprintf(cause, len, "[wall %s]'s speed is past a double: slow its velocity, its angular_velocity (times the distance from its "
                             "rotation_centre) or its amplitude times frequency", wall ? wall : "?");
    return vmax + vs;
}

/* One time scale into the report: its name, value and the steps dt gives it. */
static void note(pala_dt_report *r, const char *name, double t, double dt, double coarse, double unstable, const char *fix)
{
    if (!(t > 0) || r->n >= PALA_DT_SCALES) return;
    pala_dt_scale *s = &r->scale[r->n++];
    snprintf(s->name, sizeof s->name, "%s", name);
    s->t = t;
    s->steps = t / dt;
    s->dt_max = t / coarse;
    s->verdict = s->steps < unstable ? PALA_DT_UNSTABLE : s->steps < coarse ? PALA_DT_COARSE : PALA_DT_OK;
    s->fix = fix;
    if (s->verdict > r->verdict) r->verdict = s->verdict;
}

int pala_world_dt_check(pala_world *w, pala_dt_report *r)
{
    memset(r, 0, sizeof *r);
    int st = pala_world_check_prepared(w);
    if (st) return st;
    const int nm = w->nmat;
    matgrains *mg = pala_xrealloc(NULL, (size_t)nm * sizeof *mg);
    memset(mg, 0, (size_t)nm * sizeof *mg);
    double tdrag = 0;
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        double Imin = fmin(tp->inertia[0], fmin(tp->inertia[1], tp->inertia[2])), s2 = 0, amin = HUGE_VAL, sa = 0, sa3 = 0;
        for (int i = 0; i < tp->ncomp; i++) {
            double a = w->shape_r[tp->comp0 + i], d2 = pala_vnorm2(w->shape[tp->comp0 + i]);
            if (w->arc) {   /* an arc's contact point lies in its bounding circle, not at its circle's centre */
                const pala_arcrange *q = &w->arc[tp->comp0 + i];
                d2 = fmin(pow(hypot(q->bx, q->by) + q->br, 2), tp->bound_radius * tp->bound_radius);
            }
            s2 = fmax(s2, d2);
            amin = fmin(amin, a);
            sa += a;
            sa3 += 8 * a * a * a + 6 * a * d2;   /* its own turn, and its centre's motion at omega s */
        }
        /* a push on a component at distance s from the centre moves it as a mass of
         * 1 / (1/m + s^2 / I_min) at most */
        double me = 1 / (1 / tp->mass + s2 / Imin);
        matgrains *g = &mg[tp->material];
        if (!g->used || me < g->m) g->m = me;
        if (!g->used || amin < g->a) g->a = amin;
        if (!g->used || Imin < g->I) g->I = Imin;
        if (!g->used || pow(tp->mass, 0.4) * pow(amin, -1.2) > pow(g->M, 0.4) * pow(g->aM, -1.2)) { g->M = tp->mass; g->aM = amin; }
        g->used = 1;
        /* Stokes drag (docs/physics.md, "Drag and buoyancy"): m / (6 pi eta sum a) and
         * I / (pi eta sum (8 a^3 + 6 a s^2)) */
        if (w->fluid_eta > 0) tdrag = tmin(tdrag, fmin(tp->mass / (6 * PALA_PI * w->fluid_eta * sa), Imin / (PALA_PI * w->fluid_eta * sa3)));
    }
    const double dt = w->dt, v = impact_speed(w, r->cause, sizeof r->cause), g = pala_vnorm(w->g);
    r->dt = dt;
    r->v = v;
    r->max_overlap = w->max_overlap;
    double tc = 0, tt = 0, troll = 0, ttor = 0, tfric = 0;
    /* every pair of materials of grains (approaching at 2 v), and each with the walls' (at v) */
    for (int a = 0; a < nm; a++)
        for (int b = a; b < nm + w->nwalls; b++) {
            int wall = b >= nm, mb = wall ? w->walls[b - nm].mat : b;
            if (!mg[a].used || (!wall && !mg[b].used) || mb < 0) continue;
            const pala_pairmat *p = &w->pm[a * nm + mb];
            double m = wall ? mg[a].m : mg[a].m * mg[b].m / (mg[a].m + mg[b].m);
            double rt = wall ? 2 * mg[a].a : pala_harmonic(mg[a].a, mg[b].a);
            double I = wall ? mg[a].I : mg[a].I * mg[b].I / (mg[a].I + mg[b].I), dmax;
            double tab = contact_time(p, m, rt, wall ? v : 2 * v, &dmax);
            if (!stiffness_finite(p) && isfinite(v) && !r->cause[0]) {
                char with[64] = " with a wall";
                if (!wall) snprintf(with, sizeof with, " with [material %s]", w->mat[mb].name);
                snprintf(r->cause, sizeof r->cause, "the contact stiffness of [material %s]%s is past a double: lower its young (%g Pa)", w->mat[a].name, with,
                         w->mat[a].E);
            }
            tc = tmin(tc, tab);
            /* the overlap of that impact head-on between the grains that press their smallest
             * components deepest, against the smaller radius as the run's limit max_overlap
             * takes it (docs/physics.md, "Unstable runs"): no dt changes it */
            double M = wall ? mg[a].M : mg[a].M * mg[b].M / (mg[a].M + mg[b].M), aM = wall ? mg[a].aM : fmin(mg[a].aM, mg[b].aM);
            r->overlap = fmax(r->overlap, overlap_max(p, M, wall ? 2 * mg[a].aM : pala_harmonic(mg[a].aM, mg[b].aM), wall ? v : 2 * v) / aM);
            /* the tangential spring moves the reduced mass with its rolling: 2/7 of it for spheres */
            double kt = p->tlaw == PALA_TLAW_SPRING ? p->kt : p->tlaw == PALA_TLAW_MINDLIN ? p->kG * sqrt(rt * dmax) : 0;
            if (kt > 0) tt = tmin(tt, 2 * PALA_PI * sqrt(2.0 / 7.0 * m / kt));
            if (p->kroll > 0) troll = tmin(troll, 2 * PALA_PI * sqrt(I / p->kroll));
            if (p->ktor > 0) ttor = tmin(ttor, 2 * PALA_PI * sqrt(I / p->ktor));
            /* the rolling-contact limit of the regularised friction: 1 / lambda, lambda = (7/2) mu g / nu */
            if (p->tlaw == PALA_TLAW_REGULARISED && p->mu > 0 && p->nu > 0 && g > 0) tfric = tmin(tfric, p->nu / (3.5 * p->mu * g));
        }
    /* Rayleigh's time pi a sqrt(rho / G) / (0.1631 sigma + 0.8766), for comparison with
     * other codes (rigid grains carry no elastic waves: no verdict) */
    for (int a = 0; a < nm; a++) {
        const pala_material *m = &w->mat[a];
        if (!mg[a].used || !(m->E > 0)) continue;
        double G = m->E / (2 * (1 + m->sigma));
        r->rayleigh = tmin(r->rayleigh, PALA_PI * mg[a].a * sqrt(m->rho / G) / (0.1631 * m->sigma + 0.8766));
    }
    free(mg);
    if (!isfinite(v) || isnan(tc)) tc = 1e-300;   /* an impact at inf m/s (a wall turning at 1e308 rad/s): no contact time, surely unstable */
    note(r, "contact", tc, dt, 10, PALA_DT_CONTACT_MIN, "the contact time t_c");
    note(r, "tangential spring", tt, dt, 20, PALA_PI, "the tangential spring's period 2 pi sqrt(2 m* / (7 k_t))");
    note(r, "rolling spring", troll, dt, 20, PALA_PI, "the rolling spring's period 2 pi sqrt(I* / rolling_stiffness)");
    note(r, "torsion spring", ttor, dt, 20, PALA_PI, "the torsion spring's period 2 pi sqrt(I* / torsion_stiffness)");
    note(r, "friction", tfric, dt, 5, 0, "the time nu / ((7/2) mu g) in which the regularised friction damps a rolling contact's "
         "slip (a larger slip_velocity lengthens it)");
    note(r, "drag", tdrag, dt, 10, 1, "the drag's time m / (6 pi eta a) (or I / (8 pi eta a^3))");
    /* the line: dt against each scale, then the verdict */
    int n = snprintf(r->line, sizeof r->line, "dt check: %g s:", dt);
    for (int i = 0; i < r->n && n < (int)sizeof r->line; i++) {
        const pala_dt_scale *s = &r->scale[i];
        n += snprintf(r->line + n, sizeof r->line - (size_t)n, "%s %s %.2g s", i ? "," : "", s->name, s->t);
        if (!strcmp(s->name, "contact") && v > 0 && n < (int)sizeof r->line) n += snprintf(r->line + n, sizeof r->line - (size_t)n, " at %.2g m/s", v);
        if (n < (int)sizeof r->line) n += snprintf(r->line + n, sizeof r->line - (size_t)n, " (%.3g steps)", s->steps);
    }
    if (r->overlap > 0 && n < (int)sizeof r->line)
        n += snprintf(r->line + n, sizeof r->line - (size_t)n, "%s overlap %.2g of a radius (max_overlap %g)", r->n ? "," : "", r->overlap, r->max_overlap);
    if (r->rayleigh > 0 && n < (int)sizeof r->line)
        n += snprintf(r->line + n, sizeof r->line - (size_t)n, "%s Rayleigh time %.2g s (dt = %.2g%% of it)", r->n ? "," : "", r->rayleigh, 100 * dt / r->rayleigh);
    if (n < (int)sizeof r->line)
        snprintf(r->line + n, sizeof r->line - (size_t)n, "; %s", r->verdict == PALA_DT_OK ? "ok" : r->verdict == PALA_DT_COARSE ? "coarse" : "unstable");
    return PALA_OK;
}

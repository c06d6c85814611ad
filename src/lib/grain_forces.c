/* grain_forces.c: what a grain's force and torque sums start from (grain_forces.h). */
#include "grain_forces.h"
#include "alloc.h"
#include "centre.h"
#include "container.h"
#include "field.h"
#include <string.h>

void pala_grain_forces_prepare(pala_world *w)
{
    pala_work *wk = w->work;
    PALA_GROW(wk->mg, w->ntmpl + 1);
    for (int t = 0; t < w->ntmpl; t++) wk->mg[t] = pala_vscale(w->tmpl[t].mass, w->g);   /* eq. (61): m g */
    wk->g = w->g;
    /* Zero of the field energy: the container's lowest point along g, so E_total > 0 at
     * rest above the floor and dE_rel is relative to a meaningful energy. */
    const pala_wall *c = pala_container_of(w);
    w->field_ref = c && pala_vnorm(w->g) > 0 ? c->kind->lowest(w, c, w->g) : pala_v(0, 0, 0);
    pala_field_prepare(w);   /* charges, dipoles, E and B, interactions between centres */
    wk->ext = w->ninter > 0 || w->additional_forces != NULL || wk->em || wk->centre;
    if (!wk->ext) return;
    PALA_GROW(wk->fc, w->n + 1); PALA_GROW(wk->tc, w->n + 1);
    PALA_GROW(wk->fh, w->n + 1); PALA_GROW(wk->th, w->n + 1);
}

/* Adds the embedding program's interactions' forces into F, T and returns their potential
 * energy. */
static double interactions(pala_world *w, pala_vec3 *F, pala_vec3 *T)
{
    double U = 0;
    for (int i = 0; i < w->ninter; i++) U += w->inter[i].forces(w, w->inter[i].ctx, F, T);
    return U;
}

/* The conservative forces and torques between centres and of the E and B fields, in a fixed
 * order: fields (field.c), pairs (centre.c), then the embedding program's interactions. */
void pala_grain_forces_eval(pala_world *w)
{
    pala_work *wk = w->work;
    if (!wk->ext) return;
    if (wk->em || wk->centre) pala_field_eval(w, wk->fc, wk->tc);
    else {
        memset(wk->fc, 0, (size_t)w->n * sizeof *wk->fc);
        memset(wk->tc, 0, (size_t)w->n * sizeof *wk->tc);
    }
    if (wk->centre) pala_centre_forces(w, wk->fc, wk->tc);
    interactions(w, wk->fc, wk->tc);
    wk->tc_any = wk->dipoles;   /* torques of the fields and between dipoles */
    for (int k = 0; k < w->n && w->ninter && !wk->tc_any; k++) wk->tc_any |= wk->tc[k].x != 0 || wk->tc[k].y != 0 || wk->tc[k].z != 0;
    memset(wk->fh, 0, (size_t)w->n * sizeof *wk->fh);
    memset(wk->th, 0, (size_t)w->n * sizeof *wk->th);
    if (w->additional_forces) w->additional_forces(w, w->af_user, wk->fh, wk->th);
}

double pala_grain_forces_energy(pala_world *w)
{
    pala_work *wk = w->work;
    double U = wk->centre ? pala_centre_energy(w) : 0;
    if (!w->ninter) return U;
    /* between steps the arrays are free: the next force pass evaluates them anew */
    memset(wk->fc, 0, (size_t)w->n * sizeof *wk->fc);
    memset(wk->tc, 0, (size_t)w->n * sizeof *wk->tc);
    return U + interactions(w, wk->fc, wk->tc);
}

/* grain_forces.c: what a grain's force and torque sums start from (grain_forces.h). */
#include "grain_forces.h"
#include "alloc.h"
#include "centre.h"
#include "container.h"
#include "field.h"
#include <stdlib.h>
#include <string.h>

void pala_grain_forces_prepare(pala_world *w)
{
    if (!w->forces) {
        w->forces = pala_xrealloc(NULL, sizeof *w->forces);
        memset(w->forces, 0, sizeof *w->forces);
    }
    pala_grain_forces *gf = w->forces;
    PALA_GROW(gf->mg, w->ntmpl + 1);
    /* eq. (61): m g; in a fluid (m - rho_f V) g, Archimedes' buoyancy */
    for (int t = 0; t < w->ntmpl; t++) gf->mg[t] = pala_vscale(pala_fluid_weight_mass(w, &w->tmpl[t]), w->g);
    gf->g = w->g;
    gf->drag = w->fluid_eta > 0;
    /* Zero of the field energy: the container's lowest point along g, so E_total > 0 at
     * rest above the floor and dE_rel is relative to a meaningful energy. */
    const pala_wall *c = pala_container_of(w);
    w->field_ref = c && pala_vnorm(w->g) > 0 ? c->kind->lowest(w, c, w->g) : pala_v(0, 0, 0);
    pala_field_prepare(w);    /* charges, dipoles, E and B */
    pala_centre_prepare(w);   /* interactions between centres (of what the templates carry: w->field) */
    gf->ext = w->ninter > 0 || w->additional_forces != NULL || w->field->em || w->centre->on;
    if (!gf->ext) return;
    PALA_GROW(gf->fc, w->n + 1); PALA_GROW(gf->tc, w->n + 1);
    PALA_GROW(gf->fh, w->n + 1); PALA_GROW(gf->th, w->n + 1);
}

void pala_grain_forces_free(pala_world *w)
{
    pala_centre_free(w);
    pala_field_free(w);
    pala_grain_forces *gf = w->forces;
    if (!gf) return;
    free(gf->mg); free(gf->fc); free(gf->tc); free(gf->fh); free(gf->th);
    free(gf);
    w->forces = NULL;
}

void pala_grain_forces_derive(pala_world *w)
{
    const pala_vec3 g = w->forces->g;
    if (g.x != w->g.x || g.y != w->g.y || g.z != w->g.z || pala_field_changed(w) || pala_centre_changed(w))
        pala_grain_forces_prepare(w);
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
    pala_grain_forces *gf = w->forces;
    if (!gf->ext) return;
    const pala_field *fd = w->field;
    const int centre = w->centre->on;
    if (fd->em || centre) pala_field_eval(w, gf->fc, gf->tc);
    else {
        memset(gf->fc, 0, (size_t)w->n * sizeof *gf->fc);
        memset(gf->tc, 0, (size_t)w->n * sizeof *gf->tc);
    }
    if (centre) pala_centre_forces(w, gf->fc, gf->tc);
    interactions(w, gf->fc, gf->tc);
    gf->tc_any = fd->dipoles;   /* torques of the fields and between dipoles */
    for (int k = 0; k < w->n && w->ninter && !gf->tc_any; k++) gf->tc_any |= gf->tc[k].x != 0 || gf->tc[k].y != 0 || gf->tc[k].z != 0;
    memset(gf->fh, 0, (size_t)w->n * sizeof *gf->fh);
    memset(gf->th, 0, (size_t)w->n * sizeof *gf->th);
    if (w->additional_forces) w->additional_forces(w, w->af_user, gf->fh, gf->th);
}

double pala_grain_forces_energy(pala_world *w)
{
    pala_grain_forces *gf = w->forces;
    double U = w->centre->on ? pala_centre_energy(w) : 0;
    if (!w->ninter) return U;
    /* between steps the arrays are free: the next force pass evaluates them anew */
    memset(gf->fc, 0, (size_t)w->n * sizeof *gf->fc);
    memset(gf->tc, 0, (size_t)w->n * sizeof *gf->tc);
    return U + interactions(w, gf->fc, gf->tc);
}

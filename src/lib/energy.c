/* energy.c: the energies of the current state (no step): kinetic and rotational, the
 * field's, the contacts' (the Hertz potential of every touching pair and wall, through the
 * laws of contact_law.h, and what the states of the laws with history hold: springs, the
 * fractional law's memory), the interactions'. */
#include "pala/pala.h"
#include "arcs.h"
#include "contact.h"
#include "contact_law.h"
#include "contact_state.h"
#include "force_pass.h"
#include "grain.h"
#include "centre.h"
#include "feed.h"
#include "field.h"
#include "grain_forces.h"
#include "neighbor.h"
#include "surface.h"
#include "world.h"
#include <math.h>
#include <string.h>


/* The contact energy of the current state: every touching pair of the list once, and the
 * walls (their forces are computed and dropped). */
static void energy_blocks(void *ctx, int t, int b0, int b1)
{
    pala_world *w = ctx;
    const int *st = w->nl->start, *nb = w->nl->nbr;
    for (int b = b0; b < b1; b++) {
        pala_blocksum s;
        memset(&s, 0, sizeof s);
        pala_runaway ru = {0, 0, -1};
        double U = 0;
        int cur = w->work->wcb[b];
        for (int k = b * PALA_BLOCK; k < pala_block_end(w->n, b); k++) {
            for (int p = pala_grain_peb0(w, k); p < pala_grain_peb0(w, k + 1); p++) {
                pala_vec3 ci = w->pc && !w->work->spheres_only ? w->pc[p] : w->x[p];
                for (int s0 = st[p]; s0 < st[p + 1]; s0++) {
                    int q = nb[s0];
                    pala_vec3 cj = w->pc && !w->work->spheres_only ? w->pc[q] : w->x[q];
                    double ai = pala_nlist_rad(w->nl, w->tid, p), aj = pala_nlist_rad(w->nl, w->tid, q), sr = ai + aj, d2 = pala_vnorm2(pala_vsub(ci, cj));
                    if (!pala_pair_touch(w->parc, p, q, ci.x - cj.x, ci.y - cj.y, d2, sr)) continue;   /* eq. (49); arcs: (A5) */
                    int j = pala_peb_grain(w, q);
                    const pala_pairmat *pm = pala_pm_of(w, k, pala_mat_of(w, j));
                    double ov = sr - sqrt(d2);
                    U += pala_law_normal_energy(pm, pala_law_root(pala_law_rt(ai, aj), ov), ov);   /* eq. (57) */
                    s.ngg++;
                    pala_note_overlap(w, ov / (ai < aj ? ai : aj), k, j, &s, &ru);
                }
            }
            pala_facc A = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}, {0, 0, 0}};   /* the walls' forces, unused */
            pala_force_pass_walls(w, &w->work->ts[t], &cur, k + 1, &A, 0, 0, &U, &s, &ru);
        }
        if (w->work->cm->hn) U += pala_contact_states_energy(w, b);
        s.U = U;
        s.bad_ratio = ru.ratio; s.bad_i = ru.i; s.bad_j = ru.j;
        w->work->bs[b] = s;
    }
}

int pala_world_contacts(pala_world *w, double *U)
{
    int st = pala_world_ready(w);
    if (st) return st;
    pala_team_run(w->team, energy_blocks, w);
    return pala_force_pass_reduce(w, U, NULL) ? PALA_UNSTABLE : PALA_OK;
}

pala_energy pala_world_energy(pala_world *w)
{
    pala_energy e = {0, 0, 0, 0, 0, 0};
    if (pala_world_check_prepared(w)) return e;
    pala_world_derive(w);
    for (int k = 0; k < w->n; k++) {
        const pala_template *t = &w->tmpl[w->tid[k]];
        e.kin += 0.5 * t->mass * pala_vnorm2(w->v[k]);
        /* 1/2 omega . I_r omega, evaluated in the body frame: omega_b = (-r) * omega */
        pala_vec3 ob = pala_rot_apply(pala_vneg(w->r[k]), w->w[k]);
        e.rot += 0.5 * (t->inertia[0] * ob.x * ob.x + t->inertia[1] * ob.y * ob.y + t->inertia[2] * ob.z * ob.z);
        /* -m g.x (docs/physics.md, "The field"); in a fluid -(m - rho_f V) g.x */
        e.field -= pala_fluid_weight_mass(w, t) * pala_vdot(w->g, pala_vsub(w->x[k], w->field_ref));
    }
    double U = 0;
    pala_world_contacts(w, &U);
    e.contact = U;
    if (w->field->em) e.field += pala_field_energy(w);   /* -q E.x - p.E - m.B (field.c) */
    e.total = e.kin + e.rot + e.contact + e.field;
    if (w->ninter || w->centre->on) {   /* interactions between centres (grain_forces.c) */
        e.inter = pala_grain_forces_energy(w);
        e.total += e.inter;
    }
    return e;
}

int pala_world_energy_terms(pala_world *w)
{
    if (pala_world_check_prepared(w)) return 0;
    pala_world_derive(w);
    const pala_field *fd = w->field;
    pala_vec3 a = w->E_turn, b = w->B_turn;
    int turn = a.x != 0 || a.y != 0 || a.z != 0 || b.x != 0 || b.y != 0 || b.z != 0;
    int B = w->B.x != 0 || w->B.y != 0 || w->B.z != 0;
    return (w->ninter || w->centre->on ? PALA_TERM_PAIR : 0) | (fd->em && turn ? PALA_TERM_WFIELD : 0) | (fd->mdipoles && B ? PALA_TERM_ALIGN : 0) |
           (w->work->moving ? PALA_TERM_WWALL : 0) | (w->feed && w->feed->n ? PALA_TERM_FEED : 0);
}

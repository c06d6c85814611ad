/* t_world.h: scenes more than one test builds or loads. */
#ifndef PALA_T_WORLD_H
#define PALA_T_WORLD_H
#include "pala/pala.h"
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* Load the control file path with nset overrides; NULL on failure, with pala's messages
 * in err (empty when there are none). */
static inline pala_scene *t_load_scene(const char *path, int nset, char **sets, char *err, size_t errlen)
{
    FILE *e = tmpfile();
    pala_scene *s = NULL;
    pala_scene_load(path, nset, sets, &s, e);
    err[0] = 0;
    if (e) {
        rewind(e);
        size_t n = fread(err, 1, errlen - 1, e);
        err[n] = 0;
        fclose(e);
    }
    return s;
}

/* A box [lo, hi] whose walls are of material 0 (added before). */
static inline void t_box(pala_world *w, pala_vec3 lo, pala_vec3 hi) { pala_world_set_box(w, lo, hi, 0); }

/* 600 spheres of template t (radius 1 mm) in six layers of 10 x 10 over the floor of the
 * box [0, 0.022]^2 x [0, 0.05] of material 0, with small sideways velocities, under
 * gravity, dt 1e-5 s; sorted and prepared.  They pour and settle in a few thousand steps. */
static inline void t_pour600(pala_world *w, int t)
{
    t_box(w, pala_v(0, 0, 0), pala_v(0.022, 0.022, 0.05));
    w->g = pala_v(0, 0, -9.81);
    int n = 0;
    for (int iz = 0; iz < 6; iz++)
        for (int iy = 0; iy < 10; iy++)
            for (int ix = 0; ix < 10; ix++, n++)
                pala_world_add_grain(w, t, pala_v(0.0011 + ix * 0.00205 + 1e-5 * (iz % 2), 0.0011 + iy * 0.00205, 0.003 + iz * 0.0025),
                                     pala_v(0, 0, 0), pala_v(0.01 * ((n * 7) % 5 - 2), 0.01 * ((n * 3) % 5 - 2), 0), pala_v(0, 0, 0));
    w->dt = 1e-5;
    pala_world_sort(w);
    pala_world_prepare(w);
}

/* FNV-1a 64 over the doubles' bits, least significant byte first (so the hash does not
 * depend on the machine's byte order) */
static inline uint64_t t_fnv_doubles(uint64_t h, const double *d, int n)
{
    for (int i = 0; i < n; i++) {
        uint64_t u;
        memcpy(&u, &d[i], sizeof u);
        for (int b = 0; b < 8; b++) {
            h ^= (u >> (8 * b)) & 0xff;
            h *= UINT64_C(0x100000001b3);
        }
    }
    return h;
}

/* x, r, v, w of every grain, in the order the grains were added (the world may store
 * them in spatial order: inv maps input number to storage) */
static inline uint64_t t_state_hash(const pala_world *w)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i < w->n; i++) {
        int k = w->inv ? w->inv[i] : i;
        const pala_vec3 *f[4] = {&w->x[k], &w->r[k], &w->v[k], &w->w[k]};
        for (int j = 0; j < 4; j++) {
            double d[3] = {f[j]->x, f[j]->y, f[j]->z};
            h = t_fnv_doubles(h, d, 3);
        }
    }
    return h;
}

/* grain k's storage place of input number i (a world whose grains left: -1 for those) */
static inline int t_stored(const pala_world *w, int i) { return w->gid ? w->inv[i] : i; }

/* The region of an outlet (pala.h), for any region an outlet takes: n spheres of template
 * tmpl at rest at p[0 .. n) are added to w (its materials, templates and walls made, no
 * gravity; the spheres far enough apart not to touch), with outlet o acting at every step;
 * after one step the grains gone must be exactly those whose centre in(p[i]) says lies in
 * the region, and the outlet's count and mass theirs.  Returns the number of grains on the
 * wrong side (and 1 more if the counts differ, n + 1 if the world refuses): 0 when the
 * region is the one in() describes. */
static inline int t_outlet_takes(pala_world *w, int tmpl, const pala_vec3 *p, int n, const pala_outlet *o, int (*in)(pala_vec3))
{
    int id0 = w->nid, bad = 0;
    pala_vec3 zero = pala_v(0, 0, 0);
    for (int i = 0; i < n; i++) pala_world_add_grain(w, tmpl, p[i], zero, zero, zero);
    pala_outlet every = *o;
    every.every = 1;
    int f = pala_world_add_outlet(w, &every);
    if (f < 0 || pala_world_prepare(w) != PALA_OK || pala_world_step(w) != PALA_OK) return n + 1;
    pala_feed_report r;
    pala_world_feed_report(w, f, &r);
    long gone = 0;
    for (int i = 0; i < n; i++) {
        int left = t_stored(w, id0 + i) < 0;
        bad += left != (in(p[i]) != 0);
        gone += left;
    }
    double m = w->tmpl[tmpl].mass;
    return bad + (gone != r.count || fabs(r.mass - (double)gone * m) > 1e-12 * (double)(gone + 1) * m);
}

#endif

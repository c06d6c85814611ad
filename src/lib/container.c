/* container.c: the table of wall kinds (container.h), the loops over a world's walls, and
 * the walls' entry points of pala.h but those of their keys (keys.c). */
#include "container.h"
#include "alloc.h"
#include "arcs.h"
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The kinds: the containers first, in the order of the words of the key `container` (their
 * names, then none; keys.c) and their codes (1 + the index). */
extern const pala_wall_kind pala_wall_box, pala_wall_cavity, pala_wall_membrane, pala_wall_surface;   /* box.c, cavity.c, membrane.c, surface.c */
static const pala_wall_kind *const kinds[] = {&pala_wall_box, &pala_wall_cavity, &pala_wall_membrane, &pala_wall_surface};
enum { NKIND = sizeof kinds / sizeof kinds[0] };
const char pala_container_words[] = "box|cavity|none";
const int pala_container_codes[] = {1, 2, 0, -1};

const pala_wall_kind *pala_wall_kind_at(int i) { return i >= 0 && i < NKIND ? kinds[i] : NULL; }

const pala_wall_kind *pala_wall_kind_named(const char *name)
{
    for (int i = 0; i < NKIND; i++)
        if (!strcmp(kinds[i]->name, name)) return kinds[i];
    return NULL;
}

const char *pala_wall_refuse(char *buf, size_t len, const char **key, const char *k, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, len, fmt, ap);
    va_end(ap);
    *key = k;
    return buf;
}

int pala_wall_numbers(const char *text, double *x, int n)
{
    char *e = (char *)text;
    for (int i = 0; i < n; i++) {
        const char *b = e;
        x[i] = strtod(b, &e);
        if (e == b) return -1;
    }
    while (*e == ' ' || *e == '\t' || *e == '\r' || *e == '\n') e++;
    return *e ? -1 : 0;
}

/* ---- a world's walls ----------------------------------------------------------------- */
int pala_walls_clear(const pala_world *w, pala_vec3 x, double R)
{
    for (int i = 0; i < w->nwalls; i++)
        if (!w->walls[i].kind->clear(w, &w->walls[i], x, R)) return 0;
    return 1;
}

int pala_walls_inside(const pala_world *w, pala_vec3 x, double R)
{
    for (int i = 0; i < w->nwalls; i++)
        if (!w->walls[i].kind->inside(w, &w->walls[i], x, R)) return 0;
    return 1;
}

void pala_walls_bounds(const pala_world *w, double R, double lo[3], double hi[3])
{
    for (int i = 0; i < w->nwalls; i++) w->walls[i].kind->bounds(w, &w->walls[i], R, lo, hi);
}

double pala_walls_cut(const pala_world *w, pala_vec3 c, double a, int *which)
{
    double d = -HUGE_VAL;
    for (int i = 0; i < w->nwalls; i++) {
        double di = w->walls[i].kind->cut(w, &w->walls[i], c, a);
        if (di > d) {
            d = di;
            if (which) *which = i;
        }
    }
    return d;
}

int pala_walls_room(const pala_world *w, double a)
{
    int n = 0;
    for (int i = 0; i < w->nwalls; i++) n += w->walls[i].kind->room(w, &w->walls[i], a);
    return n;
}

/* Of the n touches of a world of arc grains, those of an arc's circle that are the arc's
 * (docs/physics.md, eq. A6), kept in order; returns their number. */
static int keep_arcs(const pala_world *w, pala_wall_touch *t, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++)
        if (pala_arcs_wall_face(&w->parc[t[i].p], t[i].n)) t[m++] = t[i];
    return m;
}

int pala_walls_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    int m = 0, i = 0;
    if (w->nwalls == 1) m = w->walls[0].kind->touch(w, &w->walls[0], cand, n, out, cap, used);
    else {
        for (; i < n; i++) {
            const pala_template *t = &w->tmpl[w->tid[cand[i]]];
            if (cap - m < t->ncomp * pala_walls_room(w, t->bound_radius)) break;
            for (int j = 0, u; j < w->nwalls; j++) m += w->walls[j].kind->touch(w, &w->walls[j], cand + i, 1, out + m, cap - m, &u);
        }
        *used = i;
    }
    return w->parc ? keep_arcs(w, out, m) : m;
}

int pala_walls_columns(const pala_world *w, const char **names, double *values, double *area, int max)
{
    int n = 0;
    for (int i = 0; i < w->nwalls; i++)
        n += w->walls[i].kind->columns(w, &w->walls[i], names + n, values + n, area ? area + n : NULL, max - n);
    return n;
}

const char *pala_walls_prepare(pala_world *w, char *buf, size_t len, const char **key, int *which)
{
    *key = NULL;
    w->wall_mat = w->mem_mat = -1;
    for (int i = 0; i < w->nwalls; i++) {
        const pala_wall *wl = &w->walls[i];
        *which = i;
        if (wl->mat < 0 || wl->mat >= w->nmat) {
            snprintf(buf, len, "wall %d (%s) has material %d: set it to the index of a material (0..%d)", i, wl->kind->name, wl->mat, w->nmat - 1);
            return buf;
        }
        const char *e = wl->kind->check(w, wl, buf, len, key);
        if (e) return e;
        if (wl->face0 < PALA_FACE_MEMBRANE) w->wall_mat = wl->mat;
        else if (wl->face0 < PALA_WALL_FACES) w->mem_mat = wl->mat;
    }
    return NULL;
}

/* ---- the entry points of pala.h ------------------------------------------------------ */
int pala_walls_refuse(pala_world *w, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->why, sizeof w->why, fmt, ap);
    va_end(ap);
    return -1;
}

int pala_walls_add(pala_world *w, const pala_wall_kind *k, int mat)
{
    if (k->container && w->nwalls > 0)
        return pala_walls_refuse(w, "a %s is a container, and the container is the first wall and the only one (wall 0 is a %s)", k->name,
                      w->walls[0].kind->name);
    const pala_wall *last = w->nwalls ? &w->walls[w->nwalls - 1] : NULL;
    int surface = k == &pala_wall_surface;   /* a wall of a [wall] section: its accounts are its own (surface.h) */
    if (w->nsurf && !surface)
        return pala_walls_refuse(w, "a %s cannot follow the walls of [wall] sections: add it before them", k->name);
    if (surface && w->nwalls >= 0x7f) return pala_walls_refuse(w, "more than %d walls: a contact's key holds a wall's index in 7 bits", 0x7f);
    int face0 = k->container ? 0 : surface ? PALA_WALL_FACES + w->nsurf
              : !last ? PALA_FACE_MEMBRANE : last->face0 + (last->kind->container ? PALA_TOUCH_PER_COMP : last->kind->nfaces);
    if (!surface && face0 + k->nfaces > PALA_WALL_FACES)
        return pala_walls_refuse(w, "the walls would have more than the %d faces whose momentum the world accounts for", PALA_WALL_FACES);
    PALA_GROW(w->walls, w->nwalls + 1);
    pala_wall *wl = &w->walls[w->nwalls];
    *wl = (pala_wall){k, pala_xrealloc(NULL, k->size), mat, face0};
    memset(wl->par, 0, k->size);
    if (surface) {
        if (!w->nsurf) w->surf0 = w->nwalls;
        w->nsurf++;
    } else if (face0 < PALA_FACE_MEMBRANE) w->wall_mat = mat;
    else w->mem_mat = mat;
    return w->nwalls++;
}

int pala_walls_set(pala_world *w, const char *kind, int mat, const void *par)
{
    int i = pala_world_add_wall(w, kind, mat);
    if (i < 0) return -1;
    memcpy(w->walls[i].par, par, w->walls[i].kind->size);
    return 0;
}

const char *pala_world_face_name(const pala_world *w, int face)
{
    for (int i = 0; i < w->nwalls; i++) {
        const pala_wall *wl = &w->walls[i];
        int nf = wl->kind->container ? PALA_TOUCH_PER_COMP : wl->kind->nfaces;
        if (face < wl->face0 || face >= wl->face0 + nf) continue;
        const char *nm = wl->kind->face ? wl->kind->face(w, wl, face - wl->face0) : NULL;
        return nm && nm[0] ? nm : wl->kind->name;
    }
    return NULL;
}

const char *pala_world_wall_kind(const pala_world *w, int i, int *container)
{
    if (i < 0 || i >= w->nwalls) return NULL;
    if (container) *container = w->walls[i].kind->container;
    return w->walls[i].kind->name;
}

int pala_world_wall_line(const pala_world *w, int i, char *buf, size_t len)
{
    if (i < 0 || i >= w->nwalls) return 0;
    const pala_wall *wl = &w->walls[i];
    int n = snprintf(buf, len, "%s ", wl->kind->name);
    return n + wl->kind->line(w, wl, buf + ((size_t)n < len ? (size_t)n : len), (size_t)n < len ? len - (size_t)n : 0);
}

void pala_walls_free(pala_world *w)
{
    for (int i = 0; i < w->nwalls; i++) {
        if (w->walls[i].kind && w->walls[i].kind->release) w->walls[i].kind->release(&w->walls[i]);
        free(w->walls[i].par);
    }
    free(w->walls);
}

static void drop_last(pala_world *w)
{
    pala_wall *wl = &w->walls[--w->nwalls];
    if (wl->kind->release) wl->kind->release(wl);
    free(wl->par);
    if (w->nwalls < w->surf0 + w->nsurf && w->nsurf) w->nsurf--;
}

int pala_world_wall_read(pala_world *w, const char *line)
{
    char word[64];
    int off = 0;
    if (sscanf(line, "%63s%n", word, &off) != 1) return 0;
    const pala_wall_kind *k = pala_wall_kind_named(word);
    if (!k) return 0;
    int i = pala_walls_add(w, k, -1);
    if (i < 0) return -1;
    if (k->parse(w, &w->walls[i], line + off)) { drop_last(w); return -1; }
    return 1;
}

int pala_world_wall_draw(const pala_world *w, int i, pala_draw *out, int max)
{
    return i >= 0 && i < w->nwalls ? w->walls[i].kind->draw(w, &w->walls[i], out, max) : 0;
}

void pala_world_copy_walls(pala_world *dst, const pala_world *src)
{
    dst->dim = src->dim;
    for (int i = 0; i < src->nwalls; i++) {
        const pala_wall *s = &src->walls[i];
        int j = pala_walls_add(dst, s->kind, s->mat);
        if (j < 0) continue;
        memcpy(dst->walls[j].par, s->par, s->kind->size);
        if (s->kind->copied) s->kind->copied(&dst->walls[j]);
    }
}

void *pala_world_wall_state(pala_world *w, int i, const char **name, size_t *elem, long *count)
{
    /* the faces' momentum, in the fields the checkpoint has always had */
    static const char *const acc[3] = {"world.wall_impulse", "world.wall_radial", "world.mem_impulse"};
    if (i >= 0 && i < 3) {
        *name = acc[i];
        *elem = i == 1 ? sizeof(double) : sizeof(pala_vec3);
        *count = i == 0 ? PALA_FACE_MEMBRANE : i == 1 ? 1 : PALA_WALL_FACES - PALA_FACE_MEMBRANE;
        return i == 0 ? (void *)w->wall_impulse : i == 1 ? (void *)&w->wall_radial : (void *)(w->wall_impulse + PALA_FACE_MEMBRANE);
    }
    i -= 3;
    for (int j = 0; j < w->nwalls && i >= 0; j++) {
        pala_wall *wl = &w->walls[j];
        for (int f = 0; wl->kind->state; f++, i--) {
            void *p = wl->kind->state(w, wl, f, name, elem, count);
            if (!p) break;
            if (i == 0) return p;
        }
    }
    return NULL;
}

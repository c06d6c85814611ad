/* test_walls.c: the walls behind their interface (src/lib/container.h): a kind's keys in
 * their places of the key table, its parameters set by their keys and refused when they do
 * not fit, its header line read back into the same wall, the shapes it is drawn with, its
 * touches (with the velocity of the surface), and the walls' checkpoint state. */
#include "t.h"
#include "contact.h"
#include "container.h"
#include "keys.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_walls(void);

/* a world of one material and one sphere of radius 1 mm at x */
static void sphere_world(pala_world *w, int dim, pala_vec3 x)
{
    pala_world_init(w);
    w->dim = dim;
    pala_material m = {.name = "m", .rho = 1000, .E = 1e7, .sigma = 0.3, .delta = 0.5, .mu = 0.3, .nu = 1e-3};
    pala_world_add_material(w, &m);
    pala_world_add_grain(w, pala_world_add_sphere_template(w, 0, 0.001), x, pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    w->dt = 1e-6;
}

/* Wall i's line, read into a world of walls only and said again, is the same line; the
 * shapes drawn from both are the same. */
static int round_trip(const pala_world *w, const char *what)
{
    pala_world r;
    pala_world_init(&r);
    r.dim = w->dim;
    int ok = 1;
    for (int i = 0; i < w->nwalls; i++) {
        char a[512], b[512];
        pala_world_wall_line(w, i, a, sizeof a);
        ok &= pala_world_wall_read(&r, a) == 1;
        pala_world_wall_line(&r, i, b, sizeof b);
        pala_draw da[4], db[4];
        int na = pala_world_wall_draw(w, i, da, 4), nb = pala_world_wall_draw(&r, i, db, 4);
        ok &= !strcmp(a, b) && na == nb && na > 0 && !memcmp(da, db, (size_t)na * sizeof *da);
        T_CHECK(ok, "%s: wall %d's line '%s' reads back into the same wall ('%s', %d and %d shapes)", what, i, a, b, na, nb);
    }
    pala_world_free(&r);
    return ok;
}

static void keys_in_place(void)
{
    /* every key once; a kind's keys right after the row they follow, in the kinds' order */
    int n = 0, after_container = 0, after_lorentz = 0, nkind = 0;
    const pala_keydef *prev = NULL;
    for (const pala_keydef *k = pala_key_first(); k; prev = k, k = pala_key_next(k), n++) {
        if (prev && !strcmp(prev->name, "container")) after_container = !strcmp(k->name, "box");
        if (prev && !strcmp(prev->name, "lorentz_step")) after_lorentz = !strcmp(k->name, "membrane_axis");
    }
    for (int i = 0; pala_wall_kind_at(i); i++) nkind += pala_wall_kind_at(i)->nkeys;
    T_CHECK(n == PALA_NKEYS + nkind && after_container && after_lorentz,
            "the %d keys: the table's %d rows and the kinds' %d keys, box after container, membrane_axis after lorentz_step", n,
            PALA_NKEYS, nkind);
    /* the words of `container`: the container kinds in order, then none, and their codes */
    char words[256] = "";
    int codes_ok = 1, j = 0;
    for (int i = 0; pala_wall_kind_at(i); i++)
        if (pala_wall_kind_at(i)->container) {
            snprintf(words + strlen(words), sizeof words - strlen(words), "%s|", pala_wall_kind_at(i)->name);
            codes_ok &= pala_container_codes[j++] == i + 1;
        }
    strcat(words, "none");
    codes_ok &= pala_container_codes[j] == 0 && pala_container_codes[j + 1] == -1;
    T_CHECK(!strcmp(words, pala_container_words) && codes_ok, "the words of container (%s) are the container kinds' names, then none, "
            "coded 1 + their index (container.c: %s)", words, pala_container_words);
}

static void set_and_refuse(void)
{
    pala_world w;
    sphere_world(&w, 3, pala_v(0.05, 0.05, 0.05));
    int c = pala_world_add_wall(&w, "box", 0);
    T_CHECK(c == 0 && pala_world_wall_set(&w, c, "box", "0 0.1 0 0.1 0 0.1") == 0 && pala_world_prepare(&w) == PALA_OK,
            "a box by pala_world_add_wall and its key 'box' prepares (%s)", w.why);
    T_CHECK(pala_world_add_wall(&w, "drum", 0) < 0 && strstr(w.why, "not a kind of wall: give one of box, cavity"), "an unknown kind is refused: %s", w.why);
    T_CHECK(pala_world_add_wall(&w, "cavity", 0) < 0 && strstr(w.why, "container"), "a second container is refused: %s", w.why);
    T_CHECK(pala_world_add_wall(&w, "membrane", 3) < 0, "a wall of a material the world has not is refused: %s", w.why);
    T_CHECK(pala_world_wall_set(&w, c, "cavity_radius", "0.1") < 0 && pala_world_wall_set(&w, c, "box", "0 0.1 0 0.1") < 0 &&
                pala_world_wall_set(&w, c, "box", "0 0.1 0 0.1 0 x") < 0,
            "a key of another kind, too few numbers, a word for a number are refused: %s", w.why);
    int m = pala_world_add_wall(&w, "membrane", 0);
    T_CHECK(m == 1 && pala_world_wall_set(&w, m, "membrane_axis", "w") < 0 && pala_world_wall_set(&w, m, "membrane_material", "m") < 0 &&
                pala_world_wall_set(&w, m, "membrane_bar_radius", "0") < 0,
            "a word not of the key, the material key, a length of 0 are refused: %s", w.why);
    pala_world_wall_set(&w, m, "membrane_axis", "z");
    pala_world_wall_set(&w, m, "membrane_position", "0.2");
    pala_world_wall_set(&w, m, "membrane_bar_radius", "0.001");
    pala_world_wall_set(&w, m, "membrane_spacing", "0.01");
    T_CHECK(pala_world_prepare(&w) == PALA_ERR_INPUT && strstr(w.why, "'membrane_position = 0.2' must lie strictly inside the box along z"),
            "the membrane's check runs in pala_world_prepare, in the control file's words: %s", w.why);
    pala_world_wall_set(&w, m, "membrane_position", "0.03");
    T_CHECK(pala_world_prepare(&w) == PALA_OK && w.wall_mat == 0 && w.mem_mat == 0 && w.walls[m].face0 == PALA_FACE_MEMBRANE,
            "inside the box it prepares; its faces follow the container's six (%s)", w.why);
    round_trip(&w, "3D box and membrane");
    /* the walls' checkpoint state: the faces' accounts in the fields checkpoints always had */
    const char *nm[4];
    size_t el[4];
    long cnt[4];
    void *p[4];
    for (int i = 0; i < 4; i++) p[i] = pala_world_wall_state(&w, i, &nm[i], &el[i], &cnt[i]);
    T_CHECK(p[0] == w.wall_impulse && cnt[0] == 6 && !strcmp(nm[0], "world.wall_impulse") && p[1] == &w.wall_radial &&
                !strcmp(nm[1], "world.wall_radial") && p[2] == w.wall_impulse + 6 && cnt[2] == 2 && !strcmp(nm[2], "world.mem_impulse") && !p[3],
            "the walls' checkpoint state: world.wall_impulse (6), world.wall_radial, world.mem_impulse (2), then nothing");
    pala_world_free(&w);
}

/* The kernel takes the velocity relative to the wall's surface, v + w x r - vs
 * (contact.h, docs/physics.md "Walls"): the grain at rest against a face sliding at +y
 * is dragged along +y by friction; moving with the face, it feels none. */
static void surface_velocity(pala_world *w, const pala_wall_touch *t0)
{
    pala_batch *B = calloc(1, pala_batch_size());
    pala_wall_touch t = *t0;
    double F[2];
    for (int c = 0; c < 2; c++) {
        w->v[0] = pala_v(0, c ? 0.2 : 0, 0);
        t.vs = pala_v(0, 0.2, 0);
        B->n = 0;
        pala_contact_wall_join(w, B, 0, &t);
        pala_contact_walls(w, B, w->dt);
        F[c] = B->Fy[0];
        T_CHECK(B->ux[0] == 0 && B->uy[0] == (c ? 0 : -0.2) && B->uz[0] == 0, "case %d: relative velocity 0 %g 0, want 0 %g 0", c, B->uy[0],
                c ? 0 : -0.2);
    }
    T_CHECK(F[0] > 0 && F[1] == 0, "the face sliding at +0.2 m/s drags the grain at rest along +y (F_y %g N), not one moving with it (%g N)", F[0], F[1]);
    w->v[0] = pala_v(0, 0, 0);
    free(B);
}

static void shapes_and_touches(void)
{
    /* a 2D box: its rectangle, z unbounded; its line says so */
    pala_world w;
    sphere_world(&w, 2, pala_v(0.0005, 0.05, 0));
    pala_world_set_box(&w, pala_v(0, 0, 0), pala_v(0.1, 0.2, 0), 0);
    pala_draw d[4];
    char line[256];
    pala_world_wall_line(&w, 0, line, sizeof line);
    int n = pala_world_wall_draw(&w, 0, d, 4);
    T_CHECK(n == 1 && d[0].shape == PALA_DRAW_BOX && !d[0].guide && d[0].p[1].y == 0.2 && isinf(d[0].p[0].z) && !strcmp(line, "box 0 0.10000000000000001 0 0.20000000000000001 -inf inf"),
            "a 2D box is drawn as a box with no z extent; its line: %s", line);
    T_CHECK(pala_world_prepare(&w) == PALA_OK, "the 2D box prepares (%s)", w.why);
    /* the sphere of radius 1 mm reaches 0.5 mm into the wall x = 0: one touch, normal +x,
     * the wall's surface at rest */
    pala_wall_touch t[8];
    int used, k = 0, nt = pala_walls_touch(&w, &k, 1, t, 8, &used);
    T_CHECK(nt == 1 && used == 1 && t[0].n.x == 1 && fabs(t[0].ov - 0.0005) < 1e-15 && t[0].face == 0 && t[0].vs.x == 0 && t[0].vs.y == 0 &&
                t[0].vs.z == 0,
            "the box's touch: face xlo, normal +x, overlap 0.5 mm, vs = 0 (%d touches)", nt);
    surface_velocity(&w, &t[0]);
    round_trip(&w, "2D box");
    pala_world_free(&w);
    /* a cavity: a sphere; its touch too has vs = 0 */
    sphere_world(&w, 3, pala_v(0, 0, -0.0095));
    pala_world_set_cavity(&w, pala_v(0, 0, 0), 0.01, 0);
    n = pala_world_wall_draw(&w, 0, d, 4);
    T_CHECK(pala_world_prepare(&w) == PALA_OK && n == 1 && d[0].shape == PALA_DRAW_SPHERE && d[0].r == 0.01, "a cavity is drawn as a sphere (%s)", w.why);
    nt = pala_walls_touch(&w, &k, 1, t, 8, &used);
    T_CHECK(nt == 1 && t[0].n.z > 0.999 && t[0].vs.x == 0 && t[0].vs.y == 0 && t[0].vs.z == 0, "the cavity's touch: normal +z, vs = 0");
    round_trip(&w, "cavity");
    pala_world_free(&w);
}

void test_walls(void)
{
    keys_in_place();
    set_and_refuse();
    shapes_and_touches();
}

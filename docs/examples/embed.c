/* embed.c: a program that uses the pala library directly (docs/embedding.md).
 *
 * It builds a world of 64 glass spheres in a box under gravity, steps it, and prints the
 * energies as it goes; then it shows what the library says to the usual mistakes.  Build
 * and run (from the repository, after `make`):
 *
 *   cc -Iinclude docs/examples/embed.c build/libpala.a -lm -lpthread -o embed && ./embed
 *
 * `make test` builds and runs it (also under AddressSanitizer with `make sanitize`). */
#include "pala/pala.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

/* A misuse: prints the status and the library's message; 1 if it is PALA_ERR_INPUT with a
 * message that names `field`. */
static int refused(const char *what, int st, const pala_world *w, const char *field)
{
    printf("  %s: %d: %s\n", what, st, pala_world_error(w));
    return st == PALA_ERR_INPUT && strstr(pala_world_error(w), field) != NULL;
}

/* The world of the example: 4 x 4 x 4 spheres of radius 1 mm above the floor of a box. */
static int build(pala_world *w)
{
    pala_world_init(w);
    pala_material glass = {.name = "glass", .rho = 2500, .E = 5e8, .sigma = 0.3, .delta = 0.49, .mu = 0.3, .nu = 1e-3};   /* rho E sigma delta mu nu */
    int mat = pala_world_add_material(w, &glass);
    int t = pala_world_add_sphere_template(w, mat, 1e-3);   /* radius 1 mm */
    if (t < 0) return -1;
    for (int i = 0; i < 64; i++)
        pala_world_add_grain(w, t, pala_v(2.5e-3 * (i % 4 + 1), 2.5e-3 * (i / 4 % 4 + 1), 2.5e-3 * (i / 16 + 1)), pala_v(0, 0, 0),
                             pala_v(0, 0, 0), pala_v(0, 0, 0));
    if (pala_world_set_box(w, pala_v(0, 0, 0), pala_v(0.0125, 0.0125, 0.05), mat)) return -1;   /* the container, of glass */
    w->g = pala_v(0, 0, -9.81);
    w->dt = 1e-6;
    return 0;
}

int main(void)
{
    pala_world w;
    if (build(&w)) return 1;
    int st = pala_world_prepare(&w);
    if (st != PALA_OK) { fprintf(stderr, "embed: %s\n", pala_world_error(&w)); return 1; }
    pala_energy e0 = pala_world_energy(&w);
    printf("t_s\tE_kin_J\tE_contact_J\tE_field_J\tE_total_J\tE_diss_J\n");
    for (int i = 0; i <= 10; i++) {
        if (i > 0 && (st = pala_world_steps(&w, 2000)) != PALA_OK) { fprintf(stderr, "embed: %s\n", pala_world_error(&w)); return 2; }
        pala_energy e = pala_world_energy(&w);
        printf("%.4f\t%.6e\t%.6e\t%.6e\t%.6e\t%.6e\n", w.t, e.kin, e.contact, e.field, e.total, w.diss);
    }
    pala_energy e = pala_world_energy(&w);
    double bal = (e.total + w.diss - e0.total) / e0.total;
    printf("energy balance (E_total + E_diss - E_0) / E_0 = %.2e\n", bal);
    int ok = fabs(bal) < 1e-3;

    /* The library's answers to misuse: each call returns an error status, and
     * pala_world_error says what it refused (naming the field), what it expected and the fix. */
    printf("misuse:\n");
    pala_world m;
    build(&m);
    m.walls[0].mat = -1;   /* a wall without a material */
    ok &= refused("a wall without a material", pala_world_prepare(&m), &m, "material");
    m.walls[0].mat = 0;
    pala_world_wall_set(&m, 0, "box", "0 0.0125 0 0.0125 0.05 0");   /* a wall's parameter, by its control-file key */
    ok &= refused("an empty box", pala_world_prepare(&m), &m, "'box': zhi must exceed zlo");
    pala_world_wall_set(&m, 0, "box", "0 0.0125 0 0.0125 0 0.05");
    m.dt = 0;          /* no time step */
    ok &= refused("dt = 0", pala_world_prepare(&m), &m, "dt");
    m.dt = 1e-6;
    m.x[3].x = (double)NAN;    /* a non-finite position */
    ok &= refused("a NaN position", pala_world_prepare(&m), &m, "position");
    m.x[3].x = 5e-3;
    m.tmpl[0].material = 7;   /* a template of a material that does not exist */
    ok &= refused("template of material 7", pala_world_prepare(&m), &m, "material");
    m.tmpl[0].material = 0;
    m.mat[0].tlaw = 7;        /* an unknown tangential law */
    ok &= refused("tangential law 7", pala_world_prepare(&m), &m, "tlaw");
    m.mat[0].tlaw = PALA_TLAW_WORLD;
    m.mat[0].alpha = 3;       /* the order of the fractional law, outside [0, 1] */
    ok &= refused("alpha = 3", pala_world_prepare(&m), &m, "alpha");
    m.mat[0].alpha = 0;
    m.mat[0].kt = -1e4;       /* a negative stiffness of the tangential spring */
    ok &= refused("kt = -1e4", pala_world_prepare(&m), &m, "kt");
    m.mat[0].kt = 0;
    ok &= pala_world_prepare(&m) == PALA_OK;
    pala_world_free(&m);
    build(&m);
    ok &= refused("step before prepare", pala_world_step(&m), &m, "pala_world_prepare");
    /* a grain added after prepare: prepare again before stepping */
    pala_world_prepare(&m);
    pala_world_add_grain(&m, 0, pala_v(5e-3, 5e-3, 0.04), pala_v(0, 0, 0), pala_v(0, 0, 0), pala_v(0, 0, 0));
    ok &= refused("a grain added after prepare", pala_world_step(&m), &m, "pala_world_prepare");
    /* a prepare that fails leaves nothing to step */
    m.shape_r[0] = -1e-3;
    ok &= refused("a negative component radius", pala_world_prepare(&m), &m, "radius") && pala_world_step(&m) == PALA_ERR_INPUT;
    m.shape_r[0] = 1e-3;
    /* g set after prepare is seen by the next step */
    pala_world_prepare(&m);
    m.g = pala_v(0, 0, -2 * 9.81);
    pala_world_steps(&m, 100);
    double az = m.acc[0].z;
    printf("  g changed after prepare: grain 0 accelerates at %.4f m/s^2\n", az);
    ok &= fabs(az + 2 * 9.81) < 1e-9;
    pala_world_free(&m);
    pala_world_free(&w);
    printf("%s\n", ok ? "embed: ok" : "embed: FAILED");
    return ok ? 0 : 1;
}

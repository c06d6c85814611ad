/* test_feed.c: grains that enter and leave (docs/physics.md, "Grains that enter and leave";
 * src/lib/feed.c, population.c).
 *
 *  - an inserter delivers rate x time exactly when there is room, and a mass rate within one
 *    grain; a region too small says how far it fell behind and when (the library's report,
 *    flow.tsv, the messages and summary.tsv of a run);
 *  - the energy an inserted grain brings is its kinetic, rotational and field energy (closed
 *    form), that a removed grain takes E_out; the balance closes and its error is second order
 *    in dt;
 *  - an outlet removes exactly the grains whose centre is in its region (each region kind, 3D
 *    and 2D: t_outlet_takes of t_world.h), and what crossed a plane in free fall (count, mass,
 *    energy: closed form; the discharge of flow.tsv adds up to the mass);
 *  - the states of the contacts with history stay with their grains when others leave;
 *  - a pour with an outlet gives the same bits on 1, 2 and 3 threads, and a resume in the
 *    middle of it (at an insertion's step and between) gives the same files;
 *  - an inserter of a size distribution inserts sizes of its law (by number and by mass rate),
 *    with a template per class of sizes, the same bits on any thread count and after a resume;
 *  - the trajectory of version 2 is read by pala view, snapshot and export;
 *  - bad keys are refused at their file and line, naming the key. */
#include "t.h"
#include "t_world.h"
#include "feed.h"
#include "population.h"
#include "neighbor.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void test_feed(void);

#define DIR "build/tmp/feed"

/* Scene text into DIR/name.txt, loaded with the overrides; NULL (messages in err) if refused. */
static pala_scene *scene(const char *name, const char *text, int nset, char **sets, char *err, size_t errlen)
{
    char path[256];
    snprintf(path, sizeof path, DIR "/%s.txt", name);
    t_write(path, text);
    return t_load_scene(path, nset, sets, err, errlen);
}

/* Grains of the world in the order of their numbers: x, r, v, w, hashed (t_fnv_doubles). */
static uint64_t hash_ids(const pala_world *w)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325);
    for (int i = 0; i < (w->gid ? w->nid : w->n); i++) {
        int k = t_stored(w, i);
        if (k < 0) continue;
        const pala_vec3 *f[4] = {&w->x[k], &w->r[k], &w->v[k], &w->w[k]};
        double d[13] = {i};
        for (int j = 0; j < 4; j++) { d[1 + 3 * j] = f[j]->x; d[2 + 3 * j] = f[j]->y; d[3 + 3 * j] = f[j]->z; }
        h = t_fnv_doubles(h, d, 13);
    }
    return h;
}

/* ---- the rate ---------------------------------------------------------------------------- */
/* Free fall without walls, no contacts: grains of 1 mm in a large box region. */
static const char *gas =
    "dt = 1e-4\nsteps = 800\ncontainer = none\ngravity = 0 0 -9.81\ndt_check = warn\n"   /* counts, not contacts: the check foresees its inserted grains' impacts (1.6 steps) */
    "[material m]\ndensity = 2500\nyoung = 1e7\n"
    "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
    "[group count]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 0.1 0 0.1 0 0.1\n"
    "insert_rate = 1000\ninsert_start = 0.01\ninsert_end = 0.06\ninsert_every = 30\n"
    "[group mass]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0.2 0.3 0 0.1 0 0.1\n"
    "insert_mass_rate = 0.02\ninsert_start = 0.01\ninsert_end = 0.06\ninsert_every = 30\n"
    "velocity = 0.1 0 -0.2\nvelocity_spread = 0.05\nangular_velocity = 0 3 0\n";

static void check_rate(void)
{
    char err[2048] = "";
    pala_scene *s = scene("gas", gas, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "the gas of two inserters loads (%.300s)", err);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    pala_feed_report a, b;
    T_CHECK(w->n == 0 && pala_world_steps(w, 99) == PALA_OK && w->n == 0, "no grain before insert_start = 0.01 s (%d at step 99)", w->n);
    /* the first insertion, at 0.01 s, brings the grains of its interval of 30 steps: 3 */
    pala_world_steps(w, 2);
    pala_world_feed_report(w, 0, &a);
    T_CHECK(a.count == 3, "the first insertion brings the 3 grains due in its interval of 30 steps at 1000/s (got %ld)", a.count);
    pala_world_steps(w, 699);
    pala_world_feed_report(w, 0, &a);
    pala_world_feed_report(w, 1, &b);
    T_CHECK(a.count == 50 && a.due == 50 && a.behind == 0 && a.short_events == 0,
            "insert_rate 1000/s over 0.05 s: exactly 50 grains (got %ld, due %ld, behind %ld)", a.count, a.due, a.behind);
    double m = w->tmpl[0].mass, M = 0.02 * 0.05;
    T_CHECK(b.mass <= M * (1 + 1e-12) && b.mass > M - m && fabs(b.mass - (double)b.count * m) < 1e-15,
            "insert_mass_rate 0.02 kg/s over 0.05 s: %.9g kg, within one grain (%.3g kg) below %.9g kg", b.mass, m, M);
    T_CHECK(w->n == a.count + b.count, "the world holds the %ld + %ld grains inserted (%d)", a.count, b.count, w->n);
    /* the energy they brought: each grain's kinetic, rotational and field energy (ref: the
     * origin without walls), which free flight keeps */
    double E = 0;
    for (int k = 0; k < w->n; k++) {
        const pala_template *tp = &w->tmpl[w->tid[k]];
        E += 0.5 * tp->mass * pala_vnorm2(w->v[k]) + 0.5 * tp->inertia[0] * pala_vnorm2(w->w[k]) - tp->mass * pala_vdot(w->g, w->x[k]);
    }
    T_NEAR(w->ein, E, 1e-11 * fabs(E), "E_in = sum of m v^2/2 + I w^2/2 - m g.x of the inserted grains (J)");
    /* and all of them came where they were asked: the orientation turned, the velocities as given */
    long turning = 0;
    for (int k = 0; k < w->n; k++) turning += w->w[k].x == 0 && w->w[k].y == 3 && w->w[k].z == 0;
    T_CHECK(turning == b.count, "the mass group's %ld grains turn at its angular_velocity, the others not (%ld turn)", b.count, turning);
    pala_scene_free(s);
}

/* A region too small for the rate: the shortfall is reported, never silent. */
static const char *narrow =
    "dt = 1e-4\nsteps = 300\ncontainer = box\nbox = 0 0.01 0 0.01 0 0.01\nwall_material = m\ngravity = 0 0 -9.81\nenergy_every = 50\ndt_check = warn\n"   /* the shortfall, not the impacts (1.7 steps) */
    "[material m]\ndensity = 2500\nyoung = 1e7\ndelta = 0.5\n"
    "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
    "[group jam]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0.001 0.009 0.001 0.009 0.006 0.009\n"
    "insert_rate = 20000\ninsert_end = 0.02\ninsert_every = 50\n";

static void check_shortfall(void)
{
    char err[2048], out[8192];
    pala_scene *s = scene("narrow", narrow, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "the narrow scene loads (%.300s)", err);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    pala_world_steps(w, 300);
    pala_feed_report r;
    pala_world_feed_report(w, 0, &r);
    T_CHECK(r.short_events > 0 && r.behind > 0 && r.count + r.behind == 400 && r.first_short == 0 && r.last_short == 0.02,
            "a region too small for 400 grains: %ld placed, %ld behind at the end, %ld insertions short, from t = %g to %g s", r.count, r.behind,
            r.short_events, r.first_short, r.last_short);
    pala_scene_free(s);
    int rc = t_sh(out, sizeof out, "./pala run " DIR "/narrow.txt -o " DIR "/narrow.run --force --quiet; "
                  "head -1 " DIR "/narrow.run/flow.tsv; tail -1 " DIR "/narrow.run/flow.tsv | cut -f 6; "
                  "cut -f $(head -1 " DIR "/narrow.run/summary.tsv | tr '\\t' '\\n' | grep -n '^warning$' | cut -d: -f1) " DIR "/narrow.run/summary.tsv");
    T_CHECK(rc == 0 && strstr(out, "[group jam]: at t = 0 s") && strstr(out, "found no room in the region") && strstr(out, "behind_jam") &&
            strstr(out, "due never found room") && strstr(out, "insert_short") && strstr(out, "step\ttime\tgrains\tin_jam\tin_mass_jam\tbehind_jam"),
            "pala run says when the insertion first fell short and how far at the end, flow.tsv counts those behind, summary.tsv warns: %s", out);
}

/* ---- outlets ------------------------------------------------------------------------------ */
/* The closed forms of the regions the outlets below take. */
static int below_plane(pala_vec3 x) { return x.z <= 0.03; }
static int in_box(pala_vec3 x) { return x.x >= 0.01 && x.x <= 0.04 && x.y >= 0.02 && x.y <= 0.05 && x.z >= 0 && x.z <= 0.03; }
/* a cylinder of radius 0.02 and length 0.06 about (0.05, 0.05, 0.05), its axis along (1, 1, 0) */
static int in_cylinder(pala_vec3 x)
{
    double dx = x.x - 0.05, dy = x.y - 0.05, dz = x.z - 0.05, s = (dx + dy) / sqrt(2.0);
    return fabs(s) <= 0.03 && dx * dx + dy * dy + dz * dz - s * s <= 0.02 * 0.02;
}
static int in_disc(pala_vec3 x) { return (x.x - 0.05) * (x.x - 0.05) + (x.y - 0.04) * (x.y - 0.04) <= 0.025 * 0.025; }
static int left_of_line(pala_vec3 x) { return x.x + x.y <= 0.06; }

/* A lattice of n spheres 8 mm apart (radius 1 mm) filling [0.002, 0.098]^3 (z 0 in 2D). */
static int lattice(pala_vec3 *p, int dim)
{
    int n = 0;
    for (int k = 0; k < (dim == 2 ? 1 : 13); k++)
        for (int j = 0; j < 13; j++)
            for (int i = 0; i < 13; i++) p[n++] = pala_v(0.002 + 0.008 * i, 0.002 + 0.008 * j, dim == 2 ? 0 : 0.002 + 0.008 * k);
    return n;
}

static void check_regions(void)
{
    static pala_vec3 p[13 * 13 * 13];
    struct { const char *what; int dim, kind; pala_vec3 c, a; double box[6], R, L; int (*in)(pala_vec3); } cases[] = {
        {"plane (below z = 0.03)", 3, PALA_REGION_PLANE, {0, 0, 0.03}, {0, 0, -2}, {0}, 0, 0, below_plane},
        {"box", 3, PALA_REGION_BOX, {0, 0, 0}, {0, 0, 0}, {0.01, 0.04, 0.02, 0.05, 0, 0.03}, 0, 0, in_box},
        {"tilted cylinder", 3, PALA_REGION_CYLINDER, {0.05, 0.05, 0.05}, {1, 1, 0}, {0}, 0.02, 0.06, in_cylinder},
        {"2D disc", 2, PALA_REGION_CYLINDER, {0.05, 0.04, 0}, {0, 0, 1}, {0}, 0.025, 0, in_disc},
        {"2D half-plane", 2, PALA_REGION_PLANE, {0.03, 0.03, 0}, {-1, -1, 0}, {0}, 0, 0, left_of_line},
        {"2D rectangle", 2, PALA_REGION_BOX, {0, 0, 0}, {0, 0, 0}, {0.01, 0.04, 0.02, 0.05, -1, 1}, 0, 0, in_box},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pala_world w;
        pala_world_init(&w);
        w.dim = cases[c].dim;
        w.dt = 1e-5;
        pala_material m = {"m", 2500, 1e7, 0.3, 1, 0, 0.001, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        pala_world_add_material(&w, &m);
        int t = pala_world_add_sphere_template(&w, 0, 0.001);
        int n = lattice(p, w.dim), inside = 0;
        pala_outlet o;
        memset(&o, 0, sizeof o);
        snprintf(o.name, sizeof o.name, "o");
        o.region.kind = cases[c].kind;
        o.region.c = cases[c].c;
        o.region.a = cases[c].a;
        memcpy(o.region.box, cases[c].box, sizeof o.region.box);
        o.region.radius = cases[c].R;
        o.region.length = cases[c].L;
        for (int i = 0; i < n; i++) inside += cases[c].in(p[i]) != 0;
        int bad = t_outlet_takes(&w, t, p, n, &o, cases[c].in);
        T_CHECK(bad == 0 && inside > 0 && inside < n, "outlet %s: the %d of %d grains whose centre is in the region leave, the others stay (%d wrong)",
                cases[c].what, inside, n, bad);
        pala_world_free(&w);
    }
}

/* Grains falling from rest through a plane: what left is what crossed (closed form). */
static const char *drop =
    "dt = 1e-4\nsteps = 2000\ncontainer = none\ngravity = 0 0 -9.81\nenergy_every = 100\ndt_check = off\n"   /* they never touch */
    "[material m]\ndensity = 2500\nyoung = 1e7\n"
    "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
    "[group column]\ngrain = g\nplacement = list\n"
    "at = 0 0 0.05\nat = 0.01 0 0.13\nat = 0.02 0 0.29\nat = 0.03 0 0.47\nat = 0.04 0 0.71\nat = 0.05 0 0.97\nat = 0.06 0 1.21\nat = 0.07 0 1.60\n"
    "[outlet floor]\nregion = plane\nregion_point = 0 0 0\nregion_normal = 0 0 -1\nevery = 1\n";

static void check_drop(void)
{
    char err[2048], out[4096];
    static const double h[8] = {0.05, 0.13, 0.29, 0.47, 0.71, 0.97, 1.21, 1.60};
    pala_scene *s = scene("drop", drop, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "the drop loads (%.300s)", err);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    double m = w->tmpl[0].mass, g = 9.81;
    int ok = 1;
    for (int row = 1; row <= 20 && ok; row++) {
        pala_world_steps(w, 100);
        double t = 0.01 * row, E = 0;
        long want = 0;
        for (int i = 0; i < 8; i++)
            if (0.5 * g * t * t > h[i] + 0.5 * g * (2 * t * 2e-4)) want++, E += m * g * h[i];   /* crossed two steps ago or more */
        pala_feed_report r;
        pala_world_feed_report(w, 0, &r);
        ok = r.count == want && fabs(r.mass - want * m) <= 1e-15 && fabs(w->eout - E) <= 1e-12 * (E + 1e-12);
        if (!ok) T_CHECK(0, "t = %g s: %ld grains left (crossed: %ld), E_out %.12g J (their m g h: %.12g J)", t, r.count, want, w->eout, E);
    }
    T_CHECK(ok, "grains falling from rest through a plane outlet: at every 0.01 s, those that crossed left, their mass and their energy m g h");
    pala_scene_free(s);
    /* flow.tsv: the discharge rates over the intervals add up to the mass that left */
    int rc = t_sh(out, sizeof out, "./pala run " DIR "/drop.txt -o " DIR "/drop.run --force --quiet --set steps=6000 && "
                  "awk -F'\\t' 'NR > 1 { m += $7 * ($2 - t) } { t = $2; last = $5 } END { printf \"%%.12g %%.12g\\n\", m, last }' " DIR "/drop.run/flow.tsv");
    double sum = 0, last = -1;
    T_CHECK(rc == 0 && sscanf(out, "%lf %lf", &sum, &last) == 2 && fabs(sum - last) < 1e-9 * last && fabs(last - 8 * m) < 1e-15,
            "flow.tsv, all 8 grains gone by 0.6 s: discharge x interval summed over the rows = out_mass = 8 m (%g, %g, %g kg) %s", sum, last, 8 * m, out);
}

/* ---- the energy balance, second order ------------------------------------------------------- */
/* Elastic, frictionless beads poured into a box, an outlet near its floor: E_total + E_out -
 * E_in stays at its start up to the integrator's error, which falls 4 x when dt halves. */
static double balance(double dt, long every_ins, long every_out)
{
    char text[2048], err[2048], name[32];
    snprintf(text, sizeof text,
             "dt = %g\nend_time = 0.12\ncontainer = box\nbox = 0 0.05 0 0.05 0 0.1\nwall_material = m\ngravity = 0 0 -9.81\n"
             "[material m]\ndensity = 2500\nyoung = 1e7\n"
             "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.002\n"
             "[group pour]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0.003 0.047 0.003 0.047 0.06 0.095\n"
             "insert_rate = 1000\ninsert_end = 0.1\ninsert_every = %ld\nvelocity = 0 0 -0.5\nvelocity_spread = 0.1\n"
             "[outlet low]\nregion = box\nregion_box = 0 0.05 0 0.01 0 0.01\nevery = %ld\n", dt, every_ins, every_out);
    snprintf(name, sizeof name, "bal%g", dt);
    pala_scene *s = scene(name, text, 0, NULL, err, sizeof err);
    if (!s) { T_CHECK(0, "the balance scene loads (%.300s)", err); return (double)NAN; }
    pala_world *w = pala_scene_world(s);
    double E0 = pala_world_energy(w).total, worst = 0;
    long n = lround(0.12 / dt);
    for (long i = 0; i < n; i += 25) {
        pala_world_steps(w, 25);
        double b = pala_world_energy(w).total + w->diss + w->eout - w->ein - E0;
        worst = fmax(worst, fabs(b) / w->ein);
    }
    pala_feed_report r;
    pala_world_feed_report(w, 1, &r);
    T_CHECK(w->ein > 0 && r.count > 0 && w->eout > 0 && w->diss == 0, "the elastic pour at dt = %g: %d grains, E_in %g J, %ld left (E_out %g J)", dt, w->n,
            w->ein, r.count, w->eout);
    pala_scene_free(s);
    return worst;
}

static void check_balance(void)
{
    double a = balance(1e-5, 1000, 100), b = balance(5e-6, 2000, 200);
    T_CHECK(a < 1e-4 && b < a && a / b > 3 && a / b < 5,
            "E_total + E_out - E_in: the largest error, relative to E_in, %.3g at dt = 1e-5 and %.3g at 5e-6: ratio %.2f (second order: 4)", a, b, a / b);
}

/* ---- contact states ------------------------------------------------------------------------ */
/* Per grain number i: st[2 i] the first double of the state of its first pair, st[2 i + 1] of
 * its live wall contact (NAN: none); returns how many were found. */
static int states_of(const pala_world *w, double *st, int nid)
{
    long n;
    double *d = pala_world_history_get(w, &n);
    for (int i = 0; i < 2 * nid; i++) st[i] = (double)NAN;
    if (!d) return 0;
    int hn = (int)d[0], found = 0;
    long np = (long)d[1], i = 2;
    for (long r = 0; r < np; r++, i += 2 + hn) {
        int id = w->gid ? w->gid[(int)d[i]] : (int)d[i];
        if (st[2 * id] != st[2 * id]) st[2 * id] = d[i + 2], found++;
    }
    long nb = (long)d[i++];
    for (long b = 0; b < nb; b++) {
        long e = (long)d[i + 1];
        i += 2;
        for (long r = 0; r < e; r++, i += 4 + hn) {
            int id = w->gid ? w->gid[(int)d[i + 1]] : (int)d[i + 1];
            if (d[i + 3] >= w->step - 1) st[2 * id + 1] = d[i + 4], found++;
        }
    }
    free(d);
    return found;
}

/* Towers of two spheres on the floor, the top one sliding, with the spring law: the states of
 * the towers' pairs and of their floor contacts are loaded.  An outlet then takes the first
 * row of towers: every state of the grains that stay is the same bits (their pebbles
 * renumbered, their blocks moved), and E_out takes what the others held. */
static void check_states(void)
{
    enum { N = 288 };
    char text[16384], err[2048];
    int n = snprintf(text, sizeof text,
                     "dt = 1e-5\nsteps = 400\ncontainer = box\nbox = 0 0.2 0 0.2 0 0.05\nwall_material = m\ngravity = 0 0 -9.81\n"
                     "tangential_law = spring\n"
                     "[material m]\ndensity = 2500\nyoung = 1e7\ndelta = 0.1\nfriction = 0.5\ntangential_stiffness = 3000\n"
                     "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.002\n"
                     "[group pairs]\ngrain = g\nplacement = list\n");
    for (int j = 0; j < 12; j++)   /* 12 rows of 12 towers of two (288 grains: two blocks), the top sliding */
        for (int i = 0; i < 12; i++)
            n += snprintf(text + n, sizeof text - (size_t)n, "at = %.6g %.6g 0.001997\nat = %.6g %.6g 0.0059955 0.01 0.005 0\n", 0.01 + 0.015 * i,
                          0.01 + 0.015 * j, 0.01 + 0.015 * i, 0.01 + 0.015 * j);
    /* the outlet acts at step 0 too, where it takes nothing; its region is made the first row
     * after (feed.h) */
    snprintf(text + n, sizeof text - (size_t)n, "[outlet first]\nregion = box\nregion_box = 0 0.2 0 0.001 0 0.05\nevery = 300\n");
    pala_scene *s = scene("states", text, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "the sliding pairs load (%.300s)", err);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    static double before[2 * N], after[2 * N];
    pala_world_steps(w, 300);   /* to the outlet's step: it acts before the next step */
    w->feed->f[0].out.region.box[3] = 0.012;
    int nb = states_of(w, before, N);
    double E = pala_world_energy(w).total;
    pala_population_act(w);
    int na = states_of(w, after, N), same = 0, stay = 0;
    for (int i = 0; i < N; i++) {
        if (t_stored(w, i) < 0) continue;
        stay++;
        same += memcmp(&before[2 * i], &after[2 * i], 2 * sizeof(double)) == 0;   /* a top grain: NAN, NAN (its pair is its bottom's) */
    }
    pala_feed_report r;
    pala_world_feed_report(w, 0, &r);
    T_CHECK(r.count == 24 && stay == 264 && nb == N && na == 264 && same == 264,
            "an outlet takes the first row of pairs (%ld gone): the %d of %d grains that stay keep their pair's and wall contact's states, "
            "the same bits (%d states before, %d after)", r.count, same, stay, nb, na);
    T_NEAR(w->eout, E - pala_world_energy(w).total, 1e-15, "E_out is the energy the grains took away (J)");
    T_CHECK(pala_world_steps(w, 100) == PALA_OK, "the world steps on after the removal");
    pala_scene_free(s);
}

/* ---- threads and resume -------------------------------------------------------------------- */
/* A fast pour of 1000 spheres and 100 clumps (2 mm, 3 mm and more blocks than threads),
 * contacts with springs, an outlet taking what comes below z = 0.01. */
static const char *pour3 =
    "dt = 1e-5\nsteps = 3000\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\ngravity = 0 0 -9.81\n"
    "tangential_law = spring\nenergy_every = 100\ntrajectory_every = 500\nseed = 3\n"
    "[material m]\ndensity = 2500\nyoung = 1e7\ndelta = 0.5\nfriction = 0.4\ntangential_stiffness = 3000\n"
    "[grain s]\nmaterial = m\nshape = sphere\nradius = 0.0015\n"
    "[grain c]\nmaterial = m\nshape = spheres\nsphere = 0 0 0 0.0015\nsphere = 0.002 0 0 0.0012\nmc_samples = 1000\n"
    "[group spheres]\ngrain = s\nplacement = insert\nregion = box\nregion_box = 0.01 0.09 0.01 0.09 0.05 0.09\n"
    "insert_rate = 100000\ninsert_end = 0.01\ninsert_every = 500\nvelocity = 0 0 -1.5\nvelocity_spread = 0.2\n"
    "[group clumps]\ngrain = c\nplacement = insert\nregion = cylinder\nregion_centre = 0.05 0.05 0.07\nregion_radius = 0.04\n"
    "region_length = 0.04\ninsert_rate = 20000\ncount = 100\ninsert_every = 300\nvelocity = 0 0 -1.5\n"
    "[outlet floor]\nregion = plane\nregion_point = 0 0 0.01\nregion_normal = 0 0 -1\nevery = 50\n";

static void check_threads(void)
{
    char err[2048] = "";
    uint64_t h[3];
    double e[3][3];
    long out[3];
    for (int t = 0; t < 3; t++) {
        pala_scene *s = scene("pour3", pour3, 0, NULL, err, sizeof err);
        if (!s) { T_CHECK(0, "the pour loads (%.300s)", err); return; }
        pala_world *w = pala_scene_world(s);
        pala_world_set_threads(w, t + 1);
        int st = pala_world_steps(w, 1700);
        st |= pala_world_steps(w, 1300);
        pala_feed_report r;
        pala_world_feed_report(w, 2, &r);
        h[t] = hash_ids(w);
        e[t][0] = w->ein; e[t][1] = w->eout; e[t][2] = w->diss;
        out[t] = r.count;
        T_CHECK(st == PALA_OK && w->nid == 1100 && r.count > 0 && pala_world_max_threads(w) >= 3,
                "the pour on %d thread%s: 1100 grains in, %ld out, %d stay (room for %d threads)", t + 1, t ? "s" : "", r.count, w->n,
                pala_world_max_threads(w));
        pala_scene_free(s);
    }
    T_CHECK(h[0] == h[1] && h[0] == h[2] && !memcmp(e[0], e[1], sizeof e[0]) && !memcmp(e[0], e[2], sizeof e[0]) && out[0] == out[1] && out[0] == out[2],
            "a pour with an outlet: the same bits on 1, 2 and 3 threads (state 0x%016llx 0x%016llx 0x%016llx; E_in, E_out, E_diss)",
            (unsigned long long)h[0], (unsigned long long)h[1], (unsigned long long)h[2]);
}

/* Stopped at an insertion's step (1500) or between (1234) and resumed on other threads: the
 * files are those of the run that never stopped, text and binary trajectories alike. */
static void check_resume(void)
{
    char out[4096];
    const char *fmt[2] = {"text", "binary"};
    for (int b = 0; b < 2; b++) {
        int rc = t_sh(out, sizeof out,
                      "cd " DIR " && P=../../../pala; F=\"--quiet --set trajectory_format=%s\"; "
                      "$P run pour3.txt -o full.run --force $F --threads 2 && "
                      "for k in 1500 1234; do $P run pour3.txt -o part$k.run --force $F --threads 3 --set steps=$k && "
                      "$P resume part$k.run --quiet --threads 1 --set steps=3000 || exit 9; "
                      "for f in energy.tsv flow.tsv walls.tsv trajectory.%s; do cmp full.run/$f part$k.run/$f || exit 8; done; done",
                      fmt[b], b ? "bin" : "txt");
        T_CHECK(rc == 0, "the pour stopped at steps 1500 and 1234 and resumed: energy.tsv, flow.tsv, walls.tsv and trajectory.%s the same bytes (exit %d) %s",
                b ? "bin" : "txt", rc, out);
    }
}

/* ---- sizes ---------------------------------------------------------------------------------- */
/* Spheres of a log-normal law inserted into a gas by a grain rate and by a mass rate: the sizes
 * of the law (ln r: mean and sd within 3 standard errors, and the rounding to classes of 1 %),
 * a template per class, not per grain; the mass rate within one grain of the largest class. */
static const char *sizegas =
    "dt = 1e-4\nsteps = 400\ncontainer = none\ngravity = 0 0 -9.81\nseed = 8\n"
    "[material m]\ndensity = 2500\nyoung = 1e7\n"
    "[grain s]\nmaterial = m\nshape = sphere\nsize_distribution = lognormal\nsize_median = 0.0005\nsize_sigma = 0.3\nsize_range = 0.0002 0.002\n"
    "[group n]\ngrain = s\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 100000\ncount = 3000\ninsert_every = 20\n"
    "[group m]\ngrain = s\nplacement = insert\nregion = box\nregion_box = 2 3 0 1 0 1\ninsert_mass_rate = 0.02\ncount = 3000\ninsert_end = 0.03\n"
    "insert_every = 20\n";

static void check_sizes(void)
{
    char err[2048], out[4096];
    pala_scene *s = scene("sizegas", sizegas, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "an inserter of a size distribution loads (%.300s)", err);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    int st = pala_world_steps(w, 400);
    pala_feed_report a, b;
    pala_world_feed_report(w, 0, &a);
    pala_world_feed_report(w, 1, &b);
    double l1 = 0, l2 = 0, mmax = 0;
    long n = 0;
    for (int k = 0; k < w->n; k++) {
        const pala_template *tp = &w->tmpl[w->tid[k]];
        mmax = fmax(mmax, tp->mass);
        if (w->x[k].x > 1.5) continue;   /* the mass rate's grains */
        double y = log(tp->bound_radius);
        l1 += y; l2 += y * y; n++;
    }
    l1 /= (double)n;
    double lsd = sqrt(l2 / (double)n - l1 * l1), se = 0.3 / sqrt((double)n);
    /* classes of 1 %: ln r within 0.005 of the size drawn; at most ln(10)/ln(1.01) + 1 templates */
    T_CHECK(st == PALA_OK && a.count == 3000 && n == 3000 && fabs(l1 - log(0.0005)) < 3 * se + 0.005 && fabs(lsd - 0.3) < 3 * se + 0.005,
            "inserted log-normal spheres: %ld, mean of ln r %.4f against %.4f, sd %.4f against 0.3 (3 standard errors %.4f, classes of 1 %%)", n, l1,
            log(0.0005), lsd, 3 * se);
    T_CHECK(w->ntmpl > 20 && w->ntmpl <= 2 * (log(10.0) / log1p(0.01) + 1), "a template per class of sizes and group, not per grain: %d for %d grains",
            w->ntmpl, w->n);
    double M = 0.02 * 0.03;
    T_CHECK(b.mass <= M * (1 + 1e-12) && b.mass > M - mmax, "insert_mass_rate of sizes: %.9g kg, within the largest grain (%.3g kg) below %.9g kg", b.mass, mmax, M);
    pala_scene_free(s);
    /* a pour of sizes stopped between insertions and resumed on other threads: the same files */
    int rc = t_sh(out, sizeof out,
                  "cd " DIR " && P=../../../pala; sed -e 's/^radius = 0.0015$/size_distribution = uniform\\nsize_range = 0.001 0.002/' -e 's/^\\[group spheres\\]$/&\\ncount = 1000/' pour3.txt > sizes3.txt && "
                  "grep -q size_range sizes3.txt && $P run sizes3.txt -o sfull.run --force --quiet --threads 1 && "
                  "$P run sizes3.txt -o spart.run --force --quiet --threads 3 --set steps=1234 && $P resume spart.run --quiet --threads 2 --set steps=3000 || exit 9; "
                  "for f in energy.tsv flow.tsv walls.tsv trajectory.txt; do cmp sfull.run/$f spart.run/$f || exit 8; done; "
                  "grep -c '^template ' sfull.run/trajectory.txt");
    T_CHECK(rc == 0 && atoi(out) > 2 && atoi(out) < 80, "a pour of sizes on 1 thread, and stopped at step 1234 on 3 and resumed on 2: the same "
            "energy.tsv, flow.tsv, walls.tsv, trajectory.txt (exit %d; templates: %s)", rc, out);
    /* sizes are drawn before the run: the count is needed */
    t_write(DIR "/sizenocount.txt", "dt = 1e-4\nsteps = 10\ncontainer = none\n[material m]\ndensity = 2500\nyoung = 1e7\n"
            "[grain s]\nmaterial = m\nshape = sphere\nsize_distribution = uniform\nsize_range = 0.001 0.002\n"
            "[group p]\ngrain = s\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 100\ninsert_end = 1\ninsert_every = 10\n");
    rc = t_sh(out, sizeof out, "./pala run " DIR "/sizenocount.txt -o " DIR "/bad.run --force --quiet");
    T_CHECK(rc == 1 && strstr(out, "sizenocount.txt:13: ") && strstr(out, "has a size_distribution, whose sizes are drawn before the run") &&
            strstr(out, "needs 'count'"), "an inserter of sizes without count: refused at its grain line: %s", out);
}

/* ---- the readers of trajectory version 2 ----------------------------------------------- */
static void check_readers(void)
{
    char out[8192];
    int rc = t_sh(out, sizeof out,
                  "cd " DIR " && P=../../../pala; for f in text binary; do $P run pour3.txt -o read-$f.run --force --quiet --set steps=1200 "
                  "--set trajectory_every=300 --set trajectory_format=$f || exit 9; $P export read-$f.run --format xyz || exit 8; done; "
                  "cmp read-text.run/trajectory.xyz read-binary.run/trajectory.xyz && echo same-xyz; "
                  "head -2 read-text.run/trajectory.txt | tail -1; grep -c '^frame' read-text.run/trajectory.txt; "
                  "$P snapshot read-binary.run --frame 4 && $P export read-binary.run --format vtk >/dev/null && "
                  "awk '/Name=\"grain\"/ { g = 1; next } g && /<\\/DataArray/ { exit } g { if ($1 + 0 > m) m = $1 } END { print \"largest number\", m }' "
                  "read-binary.run/vtk/grains_001200.vtp");
    T_CHECK(rc == 0 && strstr(out, "same-xyz") && strstr(out, "5\n") && strstr(out, "frame 4 (step 1200") && strstr(out, "largest number 1099"),
            "a pour's trajectory (version 2), text and binary: the same export, snapshot of its last frame, VTK's grain numbers are the input's: %s", out);
}

/* ---- 2D ------------------------------------------------------------------------------------- */
static void check_2d(void)
{
    char err[2048] = "";
    static const char *text =
        "dimension = 2\ndt = 1e-5\nsteps = 500\ncontainer = box\nbox = 0 0.1 0 0.1 -0.01 0.01\nwall_material = m\ngravity = 0 -9.81 0\n"
        "[material m]\ndensity = 2500\nyoung = 1e7\n"
        "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
        "[group disc]\ngrain = g\nplacement = insert\nregion = cylinder\nregion_centre = 0.03 0.07 0\nregion_radius = 0.01\n"
        "insert_rate = 10000\ninsert_end = 0.003\nvelocity = 0.1 -0.2 0\n"
        "[group line]\ngrain = g\nplacement = insert\nregion = line\nregion_line = 0.02 0.09 0 0.08 0.09 0\n"
        "insert_rate = 4000\ncount = 15\ninsert_every = 100\nvelocity = 0 -1 0\n";
    pala_scene *s = scene("flat", text, 0, NULL, err, sizeof err);
    T_CHECK(s != NULL, "the 2D pour loads (%.300s)", err);
    if (!s) return;
    pala_world *w = pala_scene_world(s);
    pala_world_steps(w, 500);
    pala_feed_report a, b;
    pala_world_feed_report(w, 0, &a);
    pala_world_feed_report(w, 1, &b);
    int flat = 1, online = 0;
    for (int k = 0; k < w->n; k++) {
        flat &= w->x[k].z == 0 && w->v[k].z == 0 && w->r[k].x == 0 && w->r[k].y == 0;
    }
    for (int i = 0; i < w->nid; i++) {
        int k = t_stored(w, i);
        online += k >= 0 && w->tid[k] == 0 && w->v[k].x == 0;   /* the line's grains have no sideways velocity */
    }
    T_CHECK(a.count == 30 && b.count == 15 && w->n == 45 && flat && online == 15,
            "2D: a disc inserts 10000/s for 3 ms (%ld), a line its count (%ld); every grain stays in the plane z = 0 and turns about z only", a.count, b.count);
    pala_scene_free(s);
}

/* ---- bad keys --------------------------------------------------------------------------------- */
/* The line of the file where needle first appears (1-based). */
static int line_of(const char *text, const char *needle)
{
    const char *p = strstr(text, needle);
    int n = 1;
    for (const char *q = text; p && q < p; q++) n += *q == '\n';
    return p ? n : 0;
}

static void check_errors(void)
{
    static const char *head =
        "dt = 1e-5\nsteps = 10\ncontainer = box\nbox = 0 0.1 0 0.1 0 0.1\nwall_material = m\ngravity = 0 0 -9.81\n"
        "[material m]\ndensity = 2500\nyoung = 1e7\n"
        "[grain g]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
        "[grain r]\nmaterial = m\nshape = random\ncomponent_radius = 0.001 0.002\n";
    static const struct { const char *body, *at, *want; } cases[] = {
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ninsert_mass_rate = 1\ninsert_end = 1\n",
         "insert_mass_rate", "give insert_rate (grains/s) or insert_mass_rate (kg/s), not both"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_end = 1\n", "[group p]", "placement = insert but no rate"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\n", "[group p]", "the insertion needs an end"},
        {"[group p]\ngrain = g\nplacement = insert\ninsert_rate = 10\ninsert_end = 1\n", "[group p]",
         "'region = container': expected one of box|cylinder|line here (an inserter needs a region of its own)"},
        {"[group p]\ngrain = g\ncount = 3\nregion = line\nregion_line = 0 0 0 1 1 1\n", "region = line", "(region = line is for placement = insert)"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = cylinder\nregion_centre = 0.05 0.05 0.05\nregion_length = 0.01\ninsert_rate = 10\ninsert_end = 1\n",
         "[group p]", "needs 'region_radius' for region = cylinder"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 0.1 0 0.1 0.2 0.1\ninsert_rate = 10\ninsert_end = 1\n", "region_box",
         "'region_box': zhi must exceed zlo"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ninsert_start = 2\ninsert_end = 1\n", "insert_end",
         "'insert_end = 1': must come after insert_start = 2"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ninsert_end = 1\ninsert_every = 0\n", "insert_every",
         "'insert_every = 0': must be between 1 and"},
        {"[group p]\ngrain = r\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ninsert_end = 1\n", "grain = r",
         "builds one shape per grain (variants = 0), so the group needs 'count'"},
        /* count 0 and insert_end 0 are the inserter's "none": given, they are refused (not read as no limit, no end) */
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ninsert_end = 1\ncount = 0\n", "count = 0",
         "'count = 0' would insert no grain: give the most grains to insert (at least 1)"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ncount = 5\ninsert_end = 0\n", "insert_end",
         "'insert_end = 0': must come after insert_start = 0 (s)"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ncount = 5\ninsert_start = 1e300\n", "insert_start = 1e300",
         "'insert_start = 1e+300': more than 1e15 steps of dt = 1e-05 s from the start"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 1e300\ninsert_end = 1\n", "insert_rate",
         "the groups ask for 1e+15 grains with 1e+15 component spheres; pala takes at most 268435456 of each: lower the rate, or give count"},
        /* a mass rate without count: counted at its lightest grain (it inserted forever, past SIGTERM, in one step) */
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_mass_rate = 1e300\ninsert_end = 1e-5\n", "insert_mass_rate",
         "[group p]: 'insert_mass_rate = 1e+300' over 1e-05 s asks for"},
        /* an end before a far start: refused by its message (its count was a cast of -2e303, undefined) */
        {"[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 2000\ninsert_start = 1e300\ninsert_end = 0.01\n",
         "insert_start", "'insert_start = 1e+300': more than 1e15 steps"},
        {"[group p]\ngrain = g\nplacement = insert\nregion = cylinder\nregion_centre = 0.05 0.05 0.05\nregion_radius = 0.01\nregion_length = 0.01\n"
         "region_axis = 1e200 0 0\ninsert_rate = 10\ninsert_end = 1\n", "region_axis", "'region_axis': give the direction of the cylinder's axis"},
        {"[group p]\ngrain = g\ncount = 1\nevery = 5\n", "every", "key 'every' belongs in a [outlet NAME] section"},
        {"[group p]\ngrain = g\ncount = 1\n[outlet o]\nregion_box = 0 1 0 1 0 1\n", "[outlet o]", "[outlet o] needs 'region'"},
        {"[group p]\ngrain = g\ncount = 1\n[outlet o]\nregoin = box\n", "regoin", "unknown key 'regoin' in this section; did you mean 'region'?"},
        {"[group p]\ngrain = g\ncount = 1\n[outlet o]\nregion = plane\nregion_point = 0 0 0\nregion_normal = 0 0 0\n", "region_normal",
         "'region_normal': give the plane's normal, pointing into the region, finite and not zero"},
        {"[group p]\ngrain = g\ncount = 1\n[outlet o]\nregion = line\n", "region = line", "'region = line': expected one of plane|box|cylinder"},
        {"[group p]\ngrain = g\ncount = 1\n[outlet o]\nregion = box\n", "[outlet o]", "needs 'region_box' for region = box"},
    };
    char text[4096], path[256], out[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(text, sizeof text, "%s%s", head, cases[i].body);
        snprintf(path, sizeof path, DIR "/bad%zu.txt", i);
        t_write(path, text);
        char where[300];
        snprintf(where, sizeof where, "%s:%d: ", path, line_of(text, cases[i].at));
        int rc = t_sh(out, sizeof out, "./pala run %s -o " DIR "/bad.run --force --quiet", path);
        T_CHECK(rc == 1 && strstr(out, where) && strstr(out, cases[i].want), "refused at %s'%s ...': %s", where, cases[i].want, out);
    }
    /* the overrides and the run with no gravity and no velocity */
    snprintf(text, sizeof text, "%s[group p]\ngrain = g\ncount = 1\n[outlet o]\nregion = box\nregion_box = 0 1 0 1 0 0.01\n", head);
    t_write(DIR "/badset.txt", text);
    int rc = t_sh(out, sizeof out, "./pala run " DIR "/badset.txt -o " DIR "/bad.run --force --quiet --set outlet.o.every=0; "
                  "./pala run " DIR "/badset.txt -o " DIR "/bad.run --force --quiet --set outlet.x.every=5");
    T_CHECK(rc == 1 && strstr(out, "--set 'outlet.o.every=0': 'every = 0': must be between 1 and") && strstr(out, "the file has no [outlet x] section"),
            "--set outlet.o.every=0 and outlet.x.every: refused, naming the key and the section: %s", out);
    /* a mass rate of 1e300 kg/s: the shortfall is the grains left to insert (it was 1e301 cast to
     * long: -9223372036854775808 grains due) */
    snprintf(text, sizeof text, "%s[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0.048 0.052 0.048 0.052 0.048 0.052\n"
             "insert_mass_rate = 1e300\ninsert_end = 0.0001\ncount = 1000\n", head);
    t_write(DIR "/massrate.txt", text);
    rc = t_sh(out, sizeof out, "./pala run " DIR "/massrate.txt -o " DIR "/massrate.run --force --quiet 2>&1");
    long due = -1;
    const char *at = strstr(out, "at t = 0 s, ");
    if (at) due = strtol(at + 12, NULL, 10);
    T_CHECK(rc == 0 && due > 900 && due < 1000, "a mass rate of 1e300 kg/s with count = 1000: the grains due that found no room are fewer than the count (%ld): %.300s", due, out);
    snprintf(text, sizeof text, "%s[group p]\ngrain = g\nplacement = insert\nregion = box\nregion_box = 0 1 0 1 0 1\ninsert_rate = 10\ninsert_end = 1\n", head);
    t_write(DIR "/nofall.txt", text);
    rc = t_sh(out, sizeof out, "./pala run " DIR "/nofall.txt -o " DIR "/bad.run --force --quiet --set 'gravity=0 0 0'");
    T_CHECK(rc == 1 && strstr(out, "nofall.txt:") && strstr(out, "give insert_every (steps)"),
            "no gravity and no velocity: the steps between insertions must be given (insert_every): %s", out);
}

/* Spheres' skins of their own (neighbor.c, sphere_skins): a build that finds no fast grain
 * sets every factor to 1, and after an inserter's grains came the factors of an earlier
 * build were fewer than the grains: it wrote past them (session 23: at a skin of 0.8 mm
 * glibc stopped bench/pour with "double free or corruption" at its second batch).  The
 * skin changes speed only: the pour's first 10,600 steps (two batches of 240) at 0.8 mm
 * give the bytes of the default's. */
static void check_skin(void)
{
    char out[512];
    const char *run = "./pala run bench/pour/pour.txt -o " DIR "/%s --force --quiet --threads 1 --set steps=10600 "
                      "--set group.pour.insert_rate=4551.488716100891 --set group.pour.insert_every=5273 %s 2>&1";
    int a = t_sh(out, sizeof out, run, "skin0", "");
    int b = t_sh(out, sizeof out, run, "skin8", "--set neighbor_skin=0.0008");
    int c = t_sh(NULL, 0, "cd " DIR " && for f in energy.tsv trajectory.txt walls.tsv flow.tsv; do cmp -s skin0/$f skin8/$f || exit 1; done");
    T_CHECK(a == 0 && b == 0 && c == 0, "the pour's first two batches at a skin of 0.8 mm: exit %d and %d (want 0), energy.tsv, trajectory.txt, "
            "walls.tsv and flow.tsv %s those of the default skin %s", a, b, c ? "differ from" : "the same as", out);
}

/* ... and a world whose levels of cells change: small fast spheres take factors, then large
 * ones come (a second level); the factors, which the walls' candidates read for every grain
 * while fk is there, were once left from the earlier build, fewer than the grains (valgrind:
 * invalid reads in candidates_job).  Every grain has its factor, from 1 to 4 (since session
 * 28 a world of several levels takes them too). */
static const char *twolevels =
    "container = box\nbox = 0 0.04  0 0.04  0 0.12\nwall_material = glass\ngravity = 0 0 -9.81\nhertz = textbook\n"
    "dt = 1e-5\nsteps = 3000\nseed = 3\n"
    "[material glass]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.25\nfriction = 0.5\n"
    "[grain small]\nmaterial = glass\nshape = sphere\nradius = 0.001\n"
    "[grain big]\nmaterial = glass\nshape = sphere\nradius = 0.004\n"
    "[group a]\ngrain = small\nplacement = insert\ncount = 200\nregion = box\nregion_box = 0.005 0.035 0.005 0.035 0.005 0.04\n"
    "insert_rate = 200000\ninsert_every = 100\nvelocity = 0 0 -3\n"
    "[group b]\ngrain = big\nplacement = insert\ncount = 20\nregion = box\nregion_box = 0.005 0.035 0.005 0.035 0.07 0.11\n"
    "insert_rate = 20000\ninsert_start = 0.01\ninsert_every = 100\nvelocity = 0 0 -0.1\n";

static void check_skin_levels(void)
{
    char err[2048] = "";
    pala_scene *s = scene("twolevels", twolevels, 0, NULL, err, sizeof err);
    if (!s) { T_CHECK(0, "the two inserters load (%.300s)", err); return; }
    pala_world *w = pala_scene_world(s);
    int st = pala_world_steps(w, 1500), had = w->nl && w->nl->fk != NULL;
    st |= pala_world_steps(w, 1500);
    const pala_nlist *nl = w->nl;
    int ok = nl && (!nl->fk || nl->nfk >= w->n + 1), within = 1;
    for (int k = 0; ok && nl->fk && k < w->n; k++) within &= nl->fk[k] >= 1 && nl->fk[k] <= 4 && nl->gk[k] == 1 / nl->fk[k];
    T_CHECK(st == PALA_OK && had && w->n == 220 && nl->nlev > 1 && ok && within,
            "small fast spheres with skins of their own, then large ones (%d levels): the factors cover the %d grains (room %d), "
            "each from 1 to 4", nl ? nl->nlev : 0, w->n, nl ? nl->nfk : 0);
    pala_scene_free(s);
}

/* Before the run: the check of dt foresees the speed inserted grains land with (docs/physics.md, "Choosing
 * dt"): examples/pour.txt's grains fall from the top of their region (0.11 m) to the box's
 * floor, sqrt(2 g 0.11) = 1.47 m/s at their velocity of 0.5 m/s: 1.7 m/s with its spread.  It
 * was left out (only the grains present at t = 0 counted), so a bed 2,000 times stiffer
 * passed the check and ran away at its first impacts. */
static void check_before_run(void)
{
    char out[4096];
    int rc = t_sh(out, sizeof out, "./pala run examples/pour.txt -o " DIR "/dt.run --set end_time=0.0001 | grep 'dt check\\|grains (.* in, .* out)'");
    T_CHECK(rc == 0 && strstr(out, "contact 0.00033 s at 1.7 m/s"), "a pour's dt check names the contact of its inserted grains (exit %d) %s", rc, out);
    T_CHECK(strstr(out, "steps, 50 grains (50 in, 0 out), 1 thread"), "the summary line counts the grains that came and went %s", out);
    /* without a container: the fall to the lowest wall, a 2D drum's bottom (sqrt(2 g 0.05) =
     * 0.99 m/s from the region's top at 0.02 m to the circle's bottom at -0.03 m; the drum
     * was not seen, and no contact scale was checked) */
    t_write(DIR "/d2i.txt", "dimension = 2\ncontainer = none\ndt = 5e-6\nend_time = 0.0001\ngravity = 0 -9.81 0\n"
            "[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\ndelta = 0.5\nfriction = 0.5\n"
            "[wall drum]\nshape = circle\nmaterial = m\npoint = 0 0 0\nradius = 0.03\nside = inside\n"
            "[grain d]\nmaterial = m\nshape = sphere\nradius = 0.001\n"
            "[group g]\ngrain = d\nplacement = insert\ninsert_rate = 1000\ncount = 100\nregion = box\nregion_box = -0.01 0.01 0 0.02 0 0\n");
    rc = t_sh(out, sizeof out, "./pala run " DIR "/d2i.txt -o " DIR "/d2i.run | grep 'dt check'");
    T_CHECK(rc == 0 && strstr(out, "contact 0.00014 s at 0.99 m/s"), "a pour into a 2D drum: the fall to its bottom (exit %d) %s", rc, out);
    /* a mass rate counts in the memory guard as the grains it asks for (it counted as one:
     * 16750 kg/s of beads of 8.4e-5 kg over 1 s, 2e8 grains, loaded and ran) */
    rc = t_sh(out, sizeof out, "sed 's/^insert_rate = 2000 .*/insert_mass_rate = 16750/; s/^insert_end = 0.4 .*/insert_end = 1/' examples/pour.txt > " DIR "/mass.txt && "
              "./pala run " DIR "/mass.txt -o " DIR "/mass.run --set max_memory=1e9");
    T_CHECK(rc == 1 && strstr(out, "the grains need about 100 GB of memory, more than the 1 GB allowed"), "a mass rate of 2e8 grains: refused by the memory guard (exit %d) %s", rc, out);
    /* an outlet no grain can reach is said before the run (it was accepted without a word) */
    rc = t_sh(out, sizeof out, "./pala run examples/pour.txt -o " DIR "/far.run --set end_time=0.0001 --set outlet.drain.region_centre='1 1 1' | grep warning");
    T_CHECK(rc == 0 && strstr(out, "warning: [outlet drain]: its region lies wholly outside the walls (x 0:0.05, y 0:0.05, z 0:0.12): no grain reaches it"),
            "an outlet outside the box: a warning before the run (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala run examples/pour.txt -o " DIR "/dt2.run --set material.glass.young=1e10");
    T_CHECK(rc == 1 && strstr(out, "surely unstable: the contact time") && t_sh(NULL, 0, "test ! -e " DIR "/dt2.run") == 0,
            "a pour 2,000 times stiffer is refused before it starts (exit %d) %.300s", rc, out);
}

void test_feed(void)
{
    T_CHECK(t_sh(NULL, 0, "rm -rf " DIR " && mkdir -p " DIR) == 0, "mkdir " DIR);
    check_rate();
    check_shortfall();
    check_regions();
    check_drop();
    check_balance();
    check_states();
    check_threads();
    check_resume();
    check_sizes();
    check_skin();
    check_skin_levels();
    check_readers();
    check_2d();
    check_errors();
    check_before_run();
}

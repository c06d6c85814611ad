/* test_neighbor.c: the Verlet list of pebble pairs (neighbor.c) against a brute-force
 * enumeration of all pairs, on scenes that take each kind of cell grid: a dense grid
 * (boxes that hold about one cell per pebble or fewer, in 3D and in 2D) and the hash of
 * cells (a sparse gas), for polyspherical grains; and the levels of cells of sizes that
 * differ by 50 (spheres and clumps, 3D and 2D), whose list is also the same at 1 and 3
 * threads.  A missing pair would be a missed contact; skipping one column of neighbour
 * cells, or one bucket of the hash, or a pair of levels, fails it.  And the default skin:
 * spheres' and compact clumps' 0.2 x the median pebble radius, small pebbles on large
 * grains' 0.1 x the median bounding radius.  And the frame of the list's displacement bound:
 * grains that fall together, with and without one at rest among them.  And spheres' skins of
 * their own: a few shot through a bed at rest. */
#include "t.h"
#include "pala/pala.h"
#include "neighbor.h"
#include "threads.h"
#include <stdlib.h>
#include <string.h>

void test_neighbor(void);

static pala_vec3 pos(const pala_world *w, int p) { return w->pc ? w->pc[p] : w->x[p]; }
static int grain(const pala_world *w, int p) { return w->pg ? w->pg[p] : p; }

static double rad(const pala_world *w, int p)
{
    int k = grain(w, p), i = w->p0 ? p - w->p0[k] : 0;
    return w->shape_r[w->tmpl[w->tid[k]].comp0 + i];
}

/* 1 if p < q belong in the list: the tests of neighbor.c, written out again */
static int near(const pala_world *w, int p, int q)
{
    int gp = grain(w, p), gq = grain(w, q);
    if (gp == gq) return 0;
    double skin = w->nl->skin;
    if (w->pg) {
        double rb = w->tmpl[w->tid[gp]].bound_radius + w->tmpl[w->tid[gq]].bound_radius + skin;
        if (pala_vnorm2(pala_vsub(w->x[gp], w->x[gq])) >= rb * rb) return 0;
    }
    double rc = rad(w, p) + rad(w, q) + skin;
    return pala_vnorm2(pala_vsub(pos(w, p), pos(w, q))) < rc * rc;
}

/* want_dense -1: levels of cells (the list is then built at 1 and at 3 threads) */
static void check_scene(const char *what, const char *path, int nset, char **sets, int want_dense)
{
    pala_scene *s;
    if (pala_scene_load(path, nset, sets, &s, stderr)) { T_CHECK(0, "%s: %s does not load", what, path); return; }
    pala_world *w = pala_scene_world(s);
    double U = 0;
    pala_world_contacts(w, &U);   /* builds the list */
    const pala_nlist *nl = w->nl;
    if (want_dense < 0) {   /* the same list at 3 threads */
        long m = nl->start[w->npeb];
        int *one = malloc((size_t)(m + 1) * sizeof *one);
        memcpy(one, nl->nbr, (size_t)m * sizeof *one);
        pala_world_set_threads(w, 3);
        w->nl->builds = 0;
        pala_world_contacts(w, &U);
        T_CHECK(nl->nlev > 1 && pala_team_size(w->team) == 3 && nl->start[w->npeb] == m && !memcmp(one, nl->nbr, (size_t)m * sizeof *one),
                "%s: %d levels of cells; the list at 3 threads is the list at 1 (%ld pairs)", what, nl->nlev, m);
        free(one);
    }
    int n = w->npeb;
    long listed = nl->start[n], expected = 0, missing = 0, extra = 0, unsorted = 0;
    char *mark = calloc((size_t)n, 1);
    for (int p = 0; p < n; p++) {
        for (int s0 = nl->start[p]; s0 < nl->start[p + 1]; s0++) {
            int q = nl->nbr[s0];
            if (s0 > nl->start[p] && nl->nbr[s0 - 1] >= q) unsorted++;
            if (q <= p || q >= n || !near(w, p, q)) extra++;
            else mark[q] = 1;
        }
        for (int q = p + 1; q < n; q++) {
            int want = near(w, p, q);
            expected += want;
            missing += want && !mark[q];
        }
        for (int s0 = nl->start[p]; s0 < nl->start[p + 1]; s0++)
            if (nl->nbr[s0] > p && nl->nbr[s0] < n) mark[nl->nbr[s0]] = 0;
    }
    free(mark);
    if (want_dense >= 0) T_CHECK(nl->dense == want_dense, "%s: %s grid (%d pebbles, %ld pairs)", what, want_dense ? "dense" : "hashed", n, listed);
    T_CHECK(missing == 0 && extra == 0 && unsorted == 0 && listed == expected && expected > 0,
            "%s: list equals the brute-force pairs (%ld listed, %ld expected, %ld missing, %ld extra, %ld unsorted)",
            what, listed, expected, missing, extra, unsorted);
    pala_scene_free(s);
}

/* n free spheres (diameters 1-3 mm, random in a cube of side L) as a LAMMPS data file and
 * a scene that imports it: the list without grains (pg == NULL) */
static void spheres(const char *name, int n, double L, const char *skin, int want_dense)
{
    const char *d = t_tmpdir();
    char data[256], scene[256];
    snprintf(data, sizeof data, "%s/%s.data", d, name);
    snprintf(scene, sizeof scene, "%s/%s.txt", d, name);
    FILE *f = fopen(data, "w");
    if (!f) { T_CHECK(0, "create %s", data); return; }
    fprintf(f, "pala test_neighbor\n\n%d atoms\n1 atom types\n\n0 %g xlo xhi\n0 %g ylo yhi\n0 %g zlo zhi\n\n"
            "Atoms # sphere\n\n", n, L, L, L);
    pala_rng r;
    pala_rng_seed(&r, 12345);
    for (int i = 0; i < n; i++) {
        double dia = 0.001 + 0.002 * pala_rng_uniform(&r);
        fprintf(f, "%d 1 %.6g 2500 %.9g %.9g %.9g\n", i + 1, dia, 0.0015 + (L - 0.003) * pala_rng_uniform(&r),
                0.0015 + (L - 0.003) * pala_rng_uniform(&r), 0.0015 + (L - 0.003) * pala_rng_uniform(&r));
    }
    fclose(f);
    char text[512];
    snprintf(text, sizeof text, "dimension = 3\ncontainer = box\nwall_material = m\ndt = 1e-7\nsteps = 1\nneighbor_skin = %s\n"
             "lammps_data = %s.data\nlammps_material = m\n[material m]\ndensity = 2500\nyoung = 5e8\npoisson = 0.3\n",
             skin, name);
    t_write(scene, text);
    check_scene(name, scene, 0, NULL, want_dense);
}

/* Grains of two sizes 50 apart (a table of sizes: 0.2 mm and 10 mm, clumps 0.12 and 6 mm,
 * by number 0.99 and 0.01), spheres or clumps of two spheres, at random in a box, in 3D or
 * 2D, with a skin of 1 mm so that the list holds pairs */
static void levels(const char *name, int dim, int clumps)
{
    char scene[256], text[1200];
    snprintf(scene, sizeof scene, "%s/%s.txt", t_tmpdir(), name);
    snprintf(text, sizeof text,
             "dimension = %d\ncontainer = box\nbox = 0 0.08 0 0.08 %s\nwall_material = m\ndt = 1e-7\nsteps = 1\nseed = 5\n"
             "neighbor_skin = 0.001\n[material m]\ndensity = 2500\nyoung = 5e8\npoisson = 0.3\n"
             "[grain g]\nmaterial = m\n%s\nsize_distribution = table\nsize_class = %s 0.99\nsize_class = %s 0.01\n"
             "[group a]\ngrain = g\ncount = %d\n",
             dim, dim == 2 ? "-1 1" : "0 0.08", clumps ? "shape = spheres\nsphere = 0 0 0 1\nsphere = 1.2 0 0 0.7\nmc_samples = 2000" : "shape = sphere",
             clumps ? "0.00012" : "0.0002", clumps ? "0.006" : "0.01", dim == 2 ? 600 : 2000);
    t_write(scene, text);
    check_scene(name, scene, 0, NULL, -1);
}

/* 1 if pair p < q is in the list (rows sorted) */
static int listed(const pala_nlist *nl, int p, int q)
{
    int lo = nl->start[p], hi = nl->start[p + 1];
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (nl->nbr[mid] < q) lo = mid + 1;
        else hi = mid;
    }
    return lo < nl->start[p + 1] && nl->nbr[lo] == q;
}

/* The list's frame (neighbor.c): 300 spheres (solid fraction 0.03) that fall together at
 * 1 m/s move little in a frame that falls with them, so the list is built once over 400
 * steps in which each falls 30 times 0.45 skin; with every tenth held at rest at the start
 * (rest), the others fall onto them at 1 m/s, 0.5 m/s in the frame, and the list is built
 * again as that requires.  Either way every touching pair is listed at every step (a
 * bound ten times too loose misses some). */
static void falling(int rest)
{
    char scene[256];
    snprintf(scene, sizeof scene, "%s/nb_falling.txt", t_tmpdir());
    t_write(scene, "dimension = 3\ncontainer = box\nbox = 0 0.04 0 0.04 0 0.2\nwall_material = m\ngravity = 0 0 -9.81\n"
                   "dt = 1e-5\nsteps = 400\nseed = 3\n[material m]\ndensity = 2500\nyoung = 1e7\npoisson = 0.3\n"
                   "[grain g]\nmaterial = m\nshape = sphere\nsize_distribution = uniform\nsize_range = 0.001 0.002\n"
                   "[group a]\ngrain = g\ncount = 300\nregion = box\nregion_box = 0 0.04 0 0.04 0.1 0.2\nvelocity = 0 0 -1\n");
    pala_scene *s;
    if (pala_scene_load(scene, 0, NULL, &s, stderr)) { T_CHECK(0, "%s does not load", scene); return; }
    pala_world *w = pala_scene_world(s);
    if (rest)
        for (int k = 0; k < w->n; k += 10) w->v[k] = pala_v(0, 0, 0);
    long missing = 0, touching = 0;
    for (int step = 0; step < 400; step++) {
        pala_world_steps(w, 1);
        for (int p = 0; p < w->n; p++)
            for (int q = p + 1; q < w->n; q++) {
                double rc = rad(w, p) + rad(w, q);
                if (pala_vnorm2(pala_vsub(w->x[p], w->x[q])) >= rc * rc) continue;
                touching++;
                missing += !listed(w->nl, p, q);
            }
    }
    long builds = w->nl->builds;
    T_CHECK(missing == 0 && (rest ? touching > 0 && builds > 10 && builds < 40 : builds == 1),
            "falling together%s: the list built %ld times in 400 steps (at rest it would be about 30), "
            "%ld touching pair-steps, %ld not listed", rest ? ", one in ten held at rest" : "", builds, touching, missing);
    pala_scene_free(s);
}

/* Spheres' skins of their own (neighbor.c, sphere_skins): 20 spheres shot at 12 m/s (0.45
 * skin in 11 steps) across the top of a gas of 400 at rest, or 6 into a bed of 900 heavy ones
 * (into: a struck sphere takes no factor until the next build, so the heavy ones barely move
 * and the list lives as long as the shots allow), or 20 at a mesh wall, or 6 discs into 60
 * heavy ones in 2D (the shots last, so some end their step in a block's tail), or across a gas with three spheres 3 mm
 * in radius at rest in it (levels of cells: row_levels).  The fast ones take factors (up to 4) and
 * the rest none, and the list is counted at rest: it is built less than half as often as
 * without factors (a test's switch, nl->nosk), every touching pair is listed at every step,
 * and the run is the same bits.  Bounds over f_k^2, or a reach without the factor, leave
 * touching pairs unlisted. */
static void shot(int into)
{
    char scene[256];
    snprintf(scene, sizeof scene, "%s/nb_shot.txt", t_tmpdir());
    char text[1800], stl[256], wall[512] = "";
    if (into == 2) {   /* a mesh of 20 x 20 squares of 2 mm, two triangles each: the plane x = 0.035 across the box */
        snprintf(stl, sizeof stl, "%s/nb_shot_wall.stl", t_tmpdir());
        FILE *f = fopen(stl, "w");
        if (!f) { T_CHECK(0, "create %s", stl); return; }
        fprintf(f, "solid w\n");
        for (int i = 0; i < 20; i++)
            for (int j = 0; j < 20; j++) {
                double y0 = 0.002 * i, y1 = y0 + 0.002, z0 = 0.002 * j, z1 = z0 + 0.002;
                fprintf(f, "facet normal -1 0 0\nouter loop\nvertex 0.035 %g %g\nvertex 0.035 %g %g\nvertex 0.035 %g %g\nendloop\nendfacet\n", y0, z0, y1, z1, y1, z0);
                fprintf(f, "facet normal -1 0 0\nouter loop\nvertex 0.035 %g %g\nvertex 0.035 %g %g\nvertex 0.035 %g %g\nendloop\nendfacet\n", y0, z0, y0, z1, y1, z1);
            }
        fprintf(f, "endsolid w\n");
        fclose(f);
        snprintf(wall, sizeof wall, "[wall w]\nshape = mesh\nmaterial = m\nfile = nb_shot_wall.stl\npoint = 0 0 0\n");
    }
    snprintf(text, sizeof text, "dimension = 3\ncontainer = box\nbox = 0 0.04 0 0.04 0 0.04\nwall_material = m\n"
             "dt = 1e-6\nsteps = 600\nseed = 4\ndt_check = off\n[material m]\ndensity = 2500\nyoung = 5e9\npoisson = 0.3\nfriction = 0.3\n"
             "[grain g]\nmaterial = m\nshape = sphere\nsize_distribution = uniform\nsize_range = 0.001 0.002\n"
             "[material heavy]\ndensity = %s\nyoung = 5e9\npoisson = 0.3\nfriction = 0.3\n[grain b]\nmaterial = heavy\nshape = sphere\n"
             "size_distribution = uniform\nsize_range = 0.001 0.002\n"
             "[group bed]\ngrain = b\ncount = %d\nregion = box\nregion_box = 0 0.04 0 0.04 0 %s\n"
             "[group shot]\ngrain = g\ncount = %d\nregion = box\nregion_box = %s 0 0.04 0.03 0.04\nvelocity = %s\n%s",
             into == 1 ? "2.5e6" : "2500", into == 1 ? 900 : 400, into == 1 ? "0.028" : into == 2 ? "0.028" : "0.032", into == 1 ? 6 : 20,
             into == 2 ? "0.02 0.033" : "0 0.04", into == 1 ? "0 0 -12" : "12 0 0", wall);
    if (into == 3)   /* discs in 2D, shot into a heavy bed of discs */
        snprintf(text, sizeof text, "dimension = 2\ncontainer = box\nbox = 0 0.04 0 0.04 -0.01 0.01\nwall_material = m\n"
                 "dt = 1e-6\nsteps = 600\nseed = 4\ndt_check = off\n[material m]\ndensity = 2500\nyoung = 5e9\npoisson = 0.3\nfriction = 0.3\n"
                 "[grain g]\nmaterial = m\nshape = sphere\nsize_distribution = uniform\nsize_range = 0.001 0.002\n"
                 "[material heavy]\ndensity = 2.5e6\nyoung = 5e9\npoisson = 0.3\nfriction = 0.3\n[grain b]\nmaterial = heavy\nshape = sphere\n"
                 "size_distribution = uniform\nsize_range = 0.001 0.002\n"
                 "[group bed]\ngrain = b\ncount = 60\nregion = box\nregion_box = 0 0.04 0 0.04 0 0\n"
                 "[group shot]\ngrain = g\ncount = 6\nregion = box\nregion_box = 0 0.04 0 0.04 0 0\nvelocity = 12 0 0\n");
    if (into == 4)   /* the gas with three large spheres: levels of cells */
        snprintf(text + strlen(text), sizeof text - strlen(text), "[grain big]\nmaterial = m\nshape = sphere\nradius = 0.003\n"
                 "[group big]\ngrain = big\ncount = 3\nregion = box\nregion_box = 0 0.04 0 0.04 0 0.03\n");
    t_write(scene, text);
    pala_world *w2[2] = {NULL, NULL};
    pala_scene *sc[2] = {NULL, NULL};
    long missing = 0, touching = 0, on = 0, builds[2] = {0, 0};
    for (int r = 0; r < 2; r++) {
        if (pala_scene_load(scene, 0, NULL, &sc[r], stderr)) { T_CHECK(0, "%s does not load", scene); return; }
        pala_world *w = w2[r] = pala_scene_world(sc[r]);
        for (int step = 0; step < 600; step++) {
            if (r == 1 && w->nl) w->nl->nosk = 1;
            pala_world_steps(w, 1);
            on += r == 0 && w->nl->sk;
            for (int p = 0; p < w->n && r == 0; p++)
                for (int q = p + 1; q < w->n; q++) {
                    double rc = rad(w, p) + rad(w, q);
                    if (pala_vnorm2(pala_vsub(w->x[p], w->x[q])) >= rc * rc) continue;
                    touching++;
                    missing += !listed(w->nl, p, q);
                }
        }
        builds[r] = w->nl->builds;
    }
    int same = w2[0]->n == w2[1]->n && !memcmp(w2[0]->x, w2[1]->x, (size_t)w2[0]->n * sizeof *w2[0]->x) &&
               !memcmp(w2[0]->w, w2[1]->w, (size_t)w2[0]->n * sizeof *w2[0]->w);
    const int nlev = w2[0]->nl->nlev;
    T_CHECK(missing == 0 && touching > 0 && on > 300 && 2 * builds[0] < builds[1] && same && (into == 4) == (nlev > 1),
            "spheres shot %s: skins of their own at %ld of 600 steps, the list built %ld times (without them %ld), "
            "%ld touching pair-steps, %ld not listed; %s as without (%d levels of cells)",
            into == 4 ? "across a gas with three large spheres" : into == 3 ? "into a heavy bed of discs (2D)" : into == 2 ? "at a mesh wall across a gas" : into ? "into a heavy bed" : "across a gas",
            on, builds[0], builds[1], touching, missing, same ? "the same bits" : "NOT the same bits", nlev);
    for (int r = 0; r < 2; r++) pala_scene_free(sc[r]);
}

static int cmp_double(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

/* The default skin (neighbor_skin = 0) of GRAIN (the lines of a [grain] section), 40 of
 * them at random in a box of 40 mm: 0.2 x the median component radius, at least 0.1 x the
 * median bounding radius (neighbor.c, pala_nlist_default_skin), written out again here. */
static void default_skin(const char *name, const char *grain, int want_bound)
{
    char scene[256], text[1200];
    snprintf(scene, sizeof scene, "%s/%s.txt", t_tmpdir(), name);
    snprintf(text, sizeof text,
             "dimension = 3\ncontainer = box\nbox = 0 0.04 0 0.04 0 0.04\nwall_material = m\ndt = 1e-7\nsteps = 1\nseed = 3\n"
             "[material m]\ndensity = 2500\nyoung = 5e8\npoisson = 0.3\n[grain g]\nmaterial = m\n%s\n[group a]\ngrain = g\ncount = 40\n", grain);
    t_write(scene, text);
    pala_scene *sc;
    if (pala_scene_load(scene, 0, NULL, &sc, stderr)) { T_CHECK(0, "%s: %s does not load", name, scene); return; }
    pala_world *w = pala_scene_world(sc);
    double U = 0;
    pala_world_contacts(w, &U);   /* prepares and builds the list */
    double *a = malloc((size_t)w->npeb * sizeof *a), *b = malloc((size_t)w->n * sizeof *b);
    for (int p = 0; p < w->npeb; p++) a[p] = rad(w, p);
    for (int k = 0; k < w->n; k++) b[k] = w->tmpl[w->tid[k]].bound_radius;
    qsort(a, (size_t)w->npeb, sizeof *a, cmp_double);
    qsort(b, (size_t)w->n, sizeof *b, cmp_double);
    double amed = a[(w->npeb - 1) / 2], bmed = b[(w->n - 1) / 2];
    double want = 0.1 * bmed > 0.2 * amed ? 0.1 * bmed : 0.2 * amed;
    T_CHECK(w->nl->skin == want && (want == 0.2 * amed) == !want_bound,
            "%s: default skin %.6g m = %s (0.2 x median pebble radius %.6g m, 0.1 x median bounding radius %.6g m)",
            name, w->nl->skin, want_bound ? "0.1 x the bounding radius" : "0.2 x the pebble radius", 0.2 * amed, 0.1 * bmed);
    free(a);
    free(b);
    pala_scene_free(sc);
}

/* Arc grains (2D) under the same rule: bench/arcs/triangle.txt's quasi-triangle, whose arcs'
 * bounding circles (0.28 mm median) would give 0.056 mm, a skin its grains cross in 7 steps,
 * gets 0.1 x its bounding radius. */
static void default_skin_arcs(void)
{
    char scene[256];
    snprintf(scene, sizeof scene, "%s/skin_arcs.txt", t_tmpdir());
    t_write(scene, "dimension = 2\ncontainer = box\nbox = 0 0.04 0 0.04 -0.01 0.01\nwall_material = m\ndt = 1e-7\nsteps = 1\nseed = 3\n"
                   "[material m]\ndensity = 2500\nyoung = 1e7\nnormal_law = hooke\nnormal_stiffness = 5000\n[grain g]\nmaterial = m\nshape = arcs\n"
                   "arcs_shape = triangle\nradius = 0.0014\ncorner_radius = 0.00042\nside_radius = 0.0056\n[group a]\ngrain = g\ncount = 40\n");
    pala_scene *sc;
    if (pala_scene_load(scene, 0, NULL, &sc, stderr)) { T_CHECK(0, "skin_arcs: %s does not load", scene); return; }
    pala_world *w = pala_scene_world(sc);
    double U = 0;
    pala_world_contacts(w, &U);
    double b = w->tmpl[w->tid[0]].bound_radius;
    T_CHECK(w->nl->skin == 0.1 * b, "arc quasi-triangles: default skin %.6g m = 0.1 x their bounding radius %.6g m", w->nl->skin, b);
    pala_scene_free(sc);
}

void test_neighbor(void)
{
    /* the default skin: spheres of a size distribution keep 0.2 x their median radius, and
     * so does a compact clump (bounding radius 1.5 times its pebbles'); small pebbles on a
     * large core (bench/poly-clumps.txt's raspberry, 6 pebbles of 0.02 mm on 1 mm) get 0.1 x
     * the grain's bounding radius */
    default_skin("skin_spheres", "shape = sphere\nsize_distribution = uniform\nsize_range = 0.0005 0.0015", 0);
    default_skin("skin_pair", "shape = spheres\nsphere = -0.0005 0 0 0.001\nsphere = 0.0005 0 0 0.001\nmc_samples = 2000", 0);
    default_skin("skin_raspberry", "shape = spheres\nsphere = 0 0 0 0.001\nsphere = 0.001 0 0 2e-5\nsphere = -0.001 0 0 2e-5\n"
                 "sphere = 0 0.001 0 2e-5\nsphere = 0 -0.001 0 2e-5\nsphere = 0 0 0.001 2e-5\nsphere = 0 0 -0.001 2e-5\nmc_samples = 2000", 1);
    default_skin_arcs();
    /* the list's frame: grains that fall together */
    falling(0);
    falling(1);
    /* a few fast spheres among many at rest: skins of their own */
    shot(0);
    shot(1);
    shot(2);
    shot(3);
    shot(4);
    /* sizes 50 apart: levels of cells */
    levels("nb_levels", 3, 0);
    levels("nb_levels_2d", 2, 0);
    levels("nb_levels_clumps", 3, 1);
    levels("nb_levels_clumps_2d", 2, 1);
    /* spheres: a packed cube (dense grid) and a sparse gas (hash) */
    spheres("nb_packed", 2000, 0.03, "0.0005", 1);
    spheres("nb_gas", 300, 1.0, "0.05", 0);
    /* clumps of 3-5 spheres as a loose gas in a tall box; at t = 0 no grains are near one
     * another, so a wide skin gives the list pairs to hold */
    char s0[] = "neighbor_skin=0.004";
    char *loose[] = {s0};
    check_scene("settling box", "examples/settling-box.txt", 1, loose, 1);
    /* the same grains packed into a small box: a dense grid */
    char d0[] = "box=0 0.04 0 0.04 0 0.05", d1[] = "group.bed.region_box=0 0.04 0 0.04 0 0.05",
         d2[] = "group.bed.count=50", d3[] = "neighbor_skin=0.003";
    char *dense[] = {d0, d1, d2, d3};
    check_scene("packed clumps", "examples/settling-box.txt", 4, dense, 1);
    /* a sparse gas of the same grains in a large box: hashed */
    char g0[] = "box=0 1 0 1 0 1", g1[] = "group.bed.region_box=0 1 0 1 0 1", g2[] = "group.bed.count=300",
         g3[] = "neighbor_skin=0.05";
    char *gas[] = {g0, g1, g2, g3};
    check_scene("sparse gas", "examples/settling-box.txt", 4, gas, 0);
    /* 2D: the hopper, grains on a lattice */
    char h0[] = "neighbor_skin=0.006";
    char *hop[] = {h0};
    check_scene("2D hopper", "examples/2d-hopper.txt", 1, hop, 1);
}

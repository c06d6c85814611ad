/* export.c: `pala export RUN --format xyz|vtk [--every K] [-o PATH]`: the frames of a
 * run's trajectory.txt for OVITO (extended XYZ) and ParaView (VTK XML PolyData, a .pvd
 * collection, the walls in their own file); the same frame writers serve the writers
 * xyz_every and vtk_every of a run (writers.c).  Formats: docs/output-formats.md,
 * "Exports"; how to open them: docs/visualisation.md. */
#include "commands.h"
#include "rundir.h"
#include "export.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PALA_PI 3.14159265358979323846

/* ---- extended XYZ ----------------------------------------------------------------------- */

void pala_xyz_frame(FILE *f, const pala_traj *t)
{
    pala_vec3 lo, hi;
    pala_traj_bounds(t, &lo, &hi);
    fprintf(f, "%ld\n", t->npeb);
    fprintf(f, "Lattice=\"%.17g 0 0 0 %.17g 0 0 0 %.17g\" Origin=\"%.17g %.17g %.17g\" "
               "Properties=species:S:1:pos:R:3:radius:R:1:grain:I:1:type:I:1:velo:R:3 "
               "Time=%.17g Step=%ld pbc=\"F F F\" dimension=%d container=%s\n",
            hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, lo.x, lo.y, lo.z, t->time, t->step, t->dim, t->container);
    for (int k = 0; k < t->n; k++) {
        int tp = t->tid[k];
        for (int c = t->comp0[tp]; c < t->comp0[tp] + t->ncomp[tp]; c++) {
            pala_vec3 p = pala_traj_centre(t, k, c), u = pala_traj_comp_velocity(t, k, p);
            fprintf(f, "%s %.17g %.17g %.17g %.17g %d %d %.17g %.17g %.17g\n", t->tname[tp], p.x, p.y, p.z, t->srad[c], pala_traj_id(t, k), tp, u.x, u.y, u.z);
        }
    }
}

/* ---- VTK XML PolyData ------------------------------------------------------------------- */

static FILE *open_in(const char *dir, const char *name)
{
    char p[4400];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    FILE *f = pala_fopen(p, "w");
    if (!f) fprintf(stderr, "pala: cannot write %s: %s\n", p, pala_strerror(errno));
    return f;
}

static int close_in(FILE *f, const char *dir, const char *name)
{
    int badw = ferror(f) != 0;
    badw |= fclose(f) != 0;
    if (badw) fprintf(stderr, "pala: writing %s/%s failed (disk full?)\n", dir, name);
    return badw;
}

/* a file of one piece: vtp_begin, its arrays, vtp_end; of several: vtp_head, then
 * piece_begin, arrays, piece_end for each, then vtp_tail */
static void vtp_head(FILE *f) { fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n<PolyData>\n"); }
static void vtp_tail(FILE *f) { fprintf(f, "</PolyData>\n</VTKFile>\n"); }
static void piece_begin(FILE *f, long npts, long nverts, long nlines, long npolys)
{
    fprintf(f, "<Piece NumberOfPoints=\"%ld\" NumberOfVerts=\"%ld\" NumberOfLines=\"%ld\" NumberOfStrips=\"0\" NumberOfPolys=\"%ld\">\n",
            npts, nverts, nlines, npolys);
}
static void piece_end(FILE *f) { fprintf(f, "</Piece>\n"); }
static void vtp_begin(FILE *f, long npts, long nverts, long nlines, long npolys)
{
    vtp_head(f);
    piece_begin(f, npts, nverts, nlines, npolys);
}
static void vtp_end(FILE *f)
{
    piece_end(f);
    vtp_tail(f);
}

static void array_begin(FILE *f, const char *type, const char *name, int ncomp)
{
    fprintf(f, "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n", type, name, ncomp);
}
static void array_end(FILE *f) { fprintf(f, "</DataArray>\n"); }

/* cells of one vertex per point: connectivity 0..n-1, offsets 1..n */
static void verts(FILE *f, long n)
{
    fprintf(f, "<Verts>\n");
    array_begin(f, "Int64", "connectivity", 1);
    for (long i = 0; i < n; i++) fprintf(f, "%ld\n", i);
    array_end(f);
    array_begin(f, "Int64", "offsets", 1);
    for (long i = 0; i < n; i++) fprintf(f, "%ld\n", i + 1);
    array_end(f);
    fprintf(f, "</Verts>\n");
}

static void spheres_file(FILE *f, const pala_traj *t)
{
    vtp_begin(f, t->npeb, t->npeb, 0, 0);
    fprintf(f, "<PointData Scalars=\"radius\" Vectors=\"velocity\">\n");
    array_begin(f, "Float64", "radius", 1);
    for (int k = 0; k < t->n; k++)
        for (int c = t->comp0[t->tid[k]]; c < t->comp0[t->tid[k]] + t->ncomp[t->tid[k]]; c++) fprintf(f, "%.17g\n", t->srad[c]);
    array_end(f);
    array_begin(f, "Int32", "grain", 1);
    for (int k = 0; k < t->n; k++)
        for (int c = 0; c < t->ncomp[t->tid[k]]; c++) fprintf(f, "%d\n", pala_traj_id(t, k));
    array_end(f);
    array_begin(f, "Int32", "type", 1);
    for (int k = 0; k < t->n; k++)
        for (int c = 0; c < t->ncomp[t->tid[k]]; c++) fprintf(f, "%d\n", t->tid[k]);
    array_end(f);
    array_begin(f, "Float64", "speed", 1);
    for (int k = 0; k < t->n; k++)
        for (int c = t->comp0[t->tid[k]]; c < t->comp0[t->tid[k]] + t->ncomp[t->tid[k]]; c++) {
            pala_vec3 u = pala_traj_comp_velocity(t, k, pala_traj_centre(t, k, c));
            fprintf(f, "%.9g\n", sqrt(pala_vdot(u, u)));
        }
    array_end(f);
    array_begin(f, "Float64", "velocity", 3);
    for (int k = 0; k < t->n; k++)
        for (int c = t->comp0[t->tid[k]]; c < t->comp0[t->tid[k]] + t->ncomp[t->tid[k]]; c++) {
            pala_vec3 u = pala_traj_comp_velocity(t, k, pala_traj_centre(t, k, c));
            fprintf(f, "%.17g %.17g %.17g\n", u.x, u.y, u.z);
        }
    array_end(f);
    fprintf(f, "</PointData>\n<Points>\n");
    array_begin(f, "Float64", "centre", 3);
    for (int k = 0; k < t->n; k++)
        for (int c = t->comp0[t->tid[k]]; c < t->comp0[t->tid[k]] + t->ncomp[t->tid[k]]; c++) {
            pala_vec3 p = pala_traj_centre(t, k, c);
            fprintf(f, "%.17g %.17g %.17g\n", p.x, p.y, p.z);
        }
    array_end(f);
    fprintf(f, "</Points>\n");
    verts(f, t->npeb);
    vtp_end(f);
}

static void grains_file(FILE *f, const pala_traj *t)
{
    vtp_begin(f, t->n, t->n, 0, 0);
    fprintf(f, "<PointData Scalars=\"type\" Vectors=\"velocity\">\n");
    array_begin(f, "Int32", "grain", 1);
    for (int k = 0; k < t->n; k++) fprintf(f, "%d\n", pala_traj_id(t, k));
    array_end(f);
    array_begin(f, "Int32", "type", 1);
    for (int k = 0; k < t->n; k++) fprintf(f, "%d\n", t->tid[k]);
    array_end(f);
    array_begin(f, "Float64", "bound_radius", 1);
    for (int k = 0; k < t->n; k++) fprintf(f, "%.17g\n", t->bound[t->tid[k]]);
    array_end(f);
    array_begin(f, "Float64", "speed", 1);
    for (int k = 0; k < t->n; k++) fprintf(f, "%.9g\n", sqrt(pala_vdot(t->v[k], t->v[k])));
    array_end(f);
    array_begin(f, "Float64", "velocity", 3);
    for (int k = 0; k < t->n; k++) fprintf(f, "%.17g %.17g %.17g\n", t->v[k].x, t->v[k].y, t->v[k].z);
    array_end(f);
    array_begin(f, "Float64", "angular_velocity", 3);
    for (int k = 0; k < t->n; k++) fprintf(f, "%.17g %.17g %.17g\n", t->w[k].x, t->w[k].y, t->w[k].z);
    array_end(f);
    array_begin(f, "Float64", "rotation_vector", 3);
    for (int k = 0; k < t->n; k++) fprintf(f, "%.17g %.17g %.17g\n", t->r[k].x, t->r[k].y, t->r[k].z);
    array_end(f);
    /* r = tan(phi/2) n (eq. 8) is the quaternion (1, r) / sqrt(1 + r.r) */
    array_begin(f, "Float64", "orientation", 4);
    for (int k = 0; k < t->n; k++) {
        double s = 1 / sqrt(1 + pala_vdot(t->r[k], t->r[k]));
        fprintf(f, "%.17g %.17g %.17g %.17g\n", s, s * t->r[k].x, s * t->r[k].y, s * t->r[k].z);
    }
    array_end(f);
    static const char *const axn[3] = {"axis_1", "axis_2", "axis_3"};
    for (int a = 0; a < 3; a++) {   /* the principal body axes in the lab frame, r * e_a (eq. 6) */
        array_begin(f, "Float64", axn[a], 3);
        pala_vec3 e = pala_v(a == 0, a == 1, a == 2);
        for (int k = 0; k < t->n; k++) {
            pala_vec3 q = pala_rot_apply(t->r[k], e);
            fprintf(f, "%.17g %.17g %.17g\n", q.x, q.y, q.z);
        }
        array_end(f);
    }
    fprintf(f, "</PointData>\n<Points>\n");
    array_begin(f, "Float64", "centre_of_mass", 3);
    for (int k = 0; k < t->n; k++) fprintf(f, "%.17g %.17g %.17g\n", t->x[k].x, t->x[k].y, t->x[k].z);
    array_end(f);
    fprintf(f, "</Points>\n");
    verts(f, t->n);
    vtp_end(f);
}

static int walls_file(const char *dir, const char *name, const pala_traj *t);

int pala_vtk_frame(const char *dir, const pala_traj *t, FILE *pvd_spheres, FILE *pvd_grains)
{
    char nm[64];
    int badw = 0;
    snprintf(nm, sizeof nm, "spheres_%06ld.vtp", t->step);
    FILE *f = open_in(dir, nm);
    if (!f) return 1;
    spheres_file(f, t);
    badw |= close_in(f, dir, nm);
    if (pvd_spheres) fprintf(pvd_spheres, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", t->time, nm);
    snprintf(nm, sizeof nm, "grains_%06ld.vtp", t->step);
    if (!(f = open_in(dir, nm))) return 1;
    grains_file(f, t);
    badw |= close_in(f, dir, nm);
    if (pvd_grains) fprintf(pvd_grains, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", t->time, nm);
    if (pala_world_walls_move(&t->walls)) {   /* walls that move: where they are at this frame */
        snprintf(nm, sizeof nm, "walls_%06ld.vtp", t->step);
        badw |= walls_file(dir, nm, t);
    }
    return badw;
}

void pala_vtk_pvd_begin(FILE *f)
{
    fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n<Collection>\n");
}

void pala_vtk_pvd_end(FILE *f) { fprintf(f, "</Collection>\n</VTKFile>\n"); }

/* The pieces of container.vtp, one per shape of the walls (traj.h): a box as its six faces
 * (2D: its rectangle as a closed line), a sphere as 24 x 48 facets (2D: its circle as a
 * closed line of 96 points), a quadrilateral as one face (2D: a closed line). */
static void loop4(FILE *f, const char *name, const pala_vec3 *q, int dim)
{
    piece_begin(f, 4, 0, dim == 2, dim != 2);
    fprintf(f, "<Points>\n");
    array_begin(f, "Float64", name, 3);
    for (int i = 0; i < 4; i++) {
        if (dim == 2) fprintf(f, "%.17g %.17g 0\n", q[i].x, q[i].y);
        else fprintf(f, "%.17g %.17g %.17g\n", q[i].x, q[i].y, q[i].z);
    }
    array_end(f);
    fprintf(f, dim == 2 ? "</Points>\n<Lines>\n" : "</Points>\n<Polys>\n");
    array_begin(f, "Int64", "connectivity", 1);
    fprintf(f, dim == 2 ? "0 1 2 3 0\n" : "0 1 2 3\n");
    array_end(f);
    array_begin(f, "Int64", "offsets", 1);
    fprintf(f, dim == 2 ? "5\n" : "4\n");
    array_end(f);
    fprintf(f, dim == 2 ? "</Lines>\n" : "</Polys>\n");
    piece_end(f);
}

static void box_piece(FILE *f, pala_vec3 a, pala_vec3 b)
{
    piece_begin(f, 8, 0, 0, 6);
    fprintf(f, "<Points>\n");
    array_begin(f, "Float64", "corners", 3);
    for (int i = 0; i < 8; i++)
        fprintf(f, "%.17g %.17g %.17g\n", i & 1 ? b.x : a.x, i & 2 ? b.y : a.y, i & 4 ? b.z : a.z);
    array_end(f);
    fprintf(f, "</Points>\n<Polys>\n");
    array_begin(f, "Int64", "connectivity", 1);
    fprintf(f, "0 2 3 1\n4 5 7 6\n0 1 5 4\n2 6 7 3\n0 4 6 2\n1 3 7 5\n");
    array_end(f);
    array_begin(f, "Int64", "offsets", 1);
    fprintf(f, "4\n8\n12\n16\n20\n24\n");
    array_end(f);
    fprintf(f, "</Polys>\n");
    piece_end(f);
}

static void circle_piece(FILE *f, pala_vec3 c, double R)
{
    enum { NS = 96 };
    piece_begin(f, NS, 0, 1, 0);
    fprintf(f, "<Points>\n");
    array_begin(f, "Float64", "circle", 3);
    for (int i = 0; i < NS; i++) {
        double a = 2 * PALA_PI * i / NS;
        fprintf(f, "%.17g %.17g 0\n", c.x + R * cos(a), c.y + R * sin(a));
    }
    array_end(f);
    fprintf(f, "</Points>\n<Lines>\n");
    array_begin(f, "Int64", "connectivity", 1);
    for (int i = 0; i <= NS; i++) fprintf(f, "%d\n", i % NS);
    array_end(f);
    array_begin(f, "Int64", "offsets", 1);
    fprintf(f, "%d\n", NS + 1);
    array_end(f);
    fprintf(f, "</Lines>\n");
    piece_end(f);
}

/* NT rings of NP points, quads between them, the poles as points */
static void sphere_piece(FILE *f, pala_vec3 c, double R)
{
    enum { NT = 24, NP = 48 };
    int npt = 2 + (NT - 1) * NP;
    piece_begin(f, npt, 0, 0, (long)NT * NP);
    fprintf(f, "<Points>\n");
    array_begin(f, "Float64", "sphere", 3);
    fprintf(f, "%.17g %.17g %.17g\n", c.x, c.y, c.z + R);
    for (int i = 1; i < NT; i++)
        for (int j = 0; j < NP; j++) {
            double th = PALA_PI * i / NT, ph = 2 * PALA_PI * j / NP;
            fprintf(f, "%.17g %.17g %.17g\n", c.x + R * sin(th) * cos(ph), c.y + R * sin(th) * sin(ph), c.z + R * cos(th));
        }
    fprintf(f, "%.17g %.17g %.17g\n", c.x, c.y, c.z - R);
    array_end(f);
    fprintf(f, "</Points>\n<Polys>\n");
    array_begin(f, "Int64", "connectivity", 1);
    for (int i = 0; i < NT; i++)
        for (int j = 0; j < NP; j++) {
            int j2 = (j + 1) % NP;
            if (i == 0) fprintf(f, "0 %d %d\n", 1 + j, 1 + j2);
            else if (i == NT - 1) fprintf(f, "%d %d %d\n", 1 + (i - 1) * NP + j, npt - 1, 1 + (i - 1) * NP + j2);
            else fprintf(f, "%d %d %d %d\n", 1 + (i - 1) * NP + j, 1 + i * NP + j, 1 + i * NP + j2, 1 + (i - 1) * NP + j2);
        }
    array_end(f);
    array_begin(f, "Int64", "offsets", 1);
    long off = 0;
    for (int i = 0; i < NT; i++)
        for (int j = 0; j < NP; j++) { off += i == 0 || i == NT - 1 ? 3 : 4; fprintf(f, "%ld\n", off); }
    array_end(f);
    fprintf(f, "</Polys>\n");
    piece_end(f);
}

/* the walls' shapes where they are at the traj's time, into dir/name */
static int walls_file(const char *dir, const char *name, const pala_traj *t)
{
    pala_draw d[PALA_TRAJ_SHAPES];
    int nd = pala_traj_shapes(t, d, PALA_TRAJ_SHAPES), solid = 0;
    for (int i = 0; i < nd; i++) solid += !d[i].guide;
    if (!solid) return 0;
    FILE *f = open_in(dir, name);
    if (!f) return 1;
    vtp_head(f);
    for (int i = 0; i < nd; i++) {
        const pala_draw *s = &d[i];
        if (s->guide) continue;   /* an outline, not a surface */
        if (s->shape == PALA_DRAW_BOX && t->dim == 2) {
            const pala_vec3 q[4] = {pala_v(s->p[0].x, s->p[0].y, 0), pala_v(s->p[1].x, s->p[0].y, 0), pala_v(s->p[1].x, s->p[1].y, 0),
                                    pala_v(s->p[0].x, s->p[1].y, 0)};
            loop4(f, "corners", q, 2);
        } else if (s->shape == PALA_DRAW_BOX) box_piece(f, s->p[0], s->p[1]);
        else if (s->shape == PALA_DRAW_SPHERE && t->dim == 2) circle_piece(f, s->p[0], s->r);
        else if (s->shape == PALA_DRAW_SPHERE) sphere_piece(f, s->p[0], s->r);
        else if (s->shape == PALA_DRAW_QUAD) loop4(f, "corners", s->p, t->dim);
    }
    vtp_tail(f);
    return close_in(f, dir, name);
}

int pala_vtk_container(const char *dir, const pala_traj *t) { return walls_file(dir, "container.vtp", t); }

/* ---- the command ------------------------------------------------------------------------ */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala export RUN --format xyz|vtk [--every K] [-o PATH]\n"
        "  RUN            a run folder (or its trajectory.txt)\n"
        "  --format xyz   extended XYZ for OVITO, one frame per trajectory frame, a line per\n"
        "                 component sphere (default PATH: RUN/trajectory.xyz)\n"
        "  --format vtk   VTK PolyData for ParaView: per frame spheres_STEP.vtp (component spheres)\n"
        "                 and grains_STEP.vtp (centres, orientations); spheres.pvd and grains.pvd\n"
        "                 tie them to their times; container.vtp (default PATH: RUN/vtk/)\n"
        "  --every K      every K-th frame of the trajectory (default 1: all)\n"
        "docs: docs/visualisation.md, docs/output-formats.md (\"Exports\")\n");
}

int pala_cmd_export(int argc, char **argv)
{
    const char *run = NULL, *fmt = NULL, *out = NULL;
    long every = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--format") && more) fmt = argv[++i];
        else if (!strcmp(a, "--every") && more) {
            char *e;
            every = strtol(argv[++i], &e, 10);
            if (*e || every < 1) { fprintf(stderr, "pala export: --every '%s': expected a whole number of frames >= 1, e.g. --every 10\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (a[0] == '-') { fprintf(stderr, "pala export: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala export: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run || !fmt) { fprintf(stderr, "pala export: %s\n", !run ? "which run? e.g. pala export paper-ten-grains.run --format xyz" : "which format? --format xyz (OVITO) or --format vtk (ParaView)"); usage(stderr); return PALA_ERR_INPUT; }
    int xyz = !strcmp(fmt, "xyz"), vtk = !strcmp(fmt, "vtk");
    if (!xyz && !vtk) { fprintf(stderr, "pala export: --format '%s': expected xyz (OVITO) or vtk (ParaView)\n", fmt); return PALA_ERR_INPUT; }
    pala_traj t;
    int rc = pala_traj_open(&t, run, stderr);
    if (rc) { pala_traj_close(&t); return rc; }
    char rundir[4096], path[4200];
    pala_traj_rundir(run, rundir, sizeof rundir);
    if (out) snprintf(path, sizeof path, "%s", out);
    else snprintf(path, sizeof path, "%s/%s", rundir, xyz ? "trajectory.xyz" : "vtk");
    FILE *f = NULL, *ps = NULL, *pg = NULL;
    int badw = 0;
    if (xyz) {
        if (!(f = pala_fopen(path, "w"))) { fprintf(stderr, "pala export: cannot write %s: %s\n", path, pala_strerror(errno)); pala_traj_close(&t); return PALA_ERR_IO; }
    } else {
        if (mkdir(path, 0777) != 0 && errno != EEXIST) { fprintf(stderr, "pala export: cannot create %s: %s\n", path, strerror(errno)); pala_traj_close(&t); return PALA_ERR_IO; }
        int e = pala_dir_check(path);   /* never into the folder a link points to */
        if (e) {
            fprintf(stderr, "pala export: cannot write into %s: %s\n", path, pala_strerror(e));
            pala_traj_close(&t);
            return PALA_ERR_IO;
        }
        ps = open_in(path, "spheres.pvd");
        pg = ps ? open_in(path, "grains.pvd") : NULL;
        if (!ps || !pg) { if (ps) fclose(ps); pala_traj_close(&t); return PALA_ERR_IO; }
        pala_vtk_pvd_begin(ps);
        pala_vtk_pvd_begin(pg);
        badw |= pala_vtk_container(path, &t);
    }
    long written = 0;
    int st;
    while ((st = pala_traj_next(&t, stderr)) == 1) {
        if ((t.frames - 1) % every) continue;
        if (xyz) pala_xyz_frame(f, &t);
        else badw |= pala_vtk_frame(path, &t, ps, pg);
        written++;
        if (badw) break;
    }
    if (xyz) badw |= close_in(f, ".", path);
    else {
        pala_vtk_pvd_end(ps);
        pala_vtk_pvd_end(pg);
        badw |= close_in(ps, path, "spheres.pvd");
        badw |= close_in(pg, path, "grains.pvd");
    }
    if (st < 0) rc = PALA_ERR_INPUT;
    else if (badw) rc = PALA_ERR_IO;
    else if (t.variable) printf("pala export: %ld of %ld frames, their grains entering and leaving (%ld component spheres in the last) -> %s%s\n", written,
                                t.frames, t.npeb, path, xyz ? "" : "/");
    else printf("pala export: %ld of %ld frames, %ld component spheres each -> %s%s\n", written, t.frames, t.npeb, path, xyz ? "" : "/");
    pala_traj_close(&t);
    return rc;
}

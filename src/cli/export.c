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

/* The species column: a chemical symbol, that of atomic number kind + 1, kind the grain
 * type's place among the names (pala_traj_kinds; after the 118th again from H), so that readers which take the species for an element (ASE's ase.io.read)
 * load the file; the type's name is the column type_name. */
static const char *species(int kind)
{
    static const char *const el[118] = {
        "H", "He", "Li", "Be", "B", "C", "N", "O", "F", "Ne", "Na", "Mg", "Al", "Si", "P", "S", "Cl", "Ar", "K", "Ca",
        "Sc", "Ti", "V", "Cr", "Mn", "Fe", "Co", "Ni", "Cu", "Zn", "Ga", "Ge", "As", "Se", "Br", "Kr", "Rb", "Sr", "Y", "Zr",
        "Nb", "Mo", "Tc", "Ru", "Rh", "Pd", "Ag", "Cd", "In", "Sn", "Sb", "Te", "I", "Xe", "Cs", "Ba", "La", "Ce", "Pr", "Nd",
        "Pm", "Sm", "Eu", "Gd", "Tb", "Dy", "Ho", "Er", "Tm", "Yb", "Lu", "Hf", "Ta", "W", "Re", "Os", "Ir", "Pt", "Au", "Hg",
        "Tl", "Pb", "Bi", "Po", "At", "Rn", "Fr", "Ra", "Ac", "Th", "Pa", "U", "Np", "Pu", "Am", "Cm", "Bk", "Cf", "Es", "Fm",
        "Md", "No", "Lr", "Rf", "Db", "Sg", "Bh", "Hs", "Mt", "Ds", "Rg", "Cn", "Nh", "Fl", "Mc", "Lv", "Ts", "Og"};
    return el[kind % 118];
}

void pala_xyz_frame(FILE *f, const pala_traj *t)
{
    pala_vec3 lo, hi;
    pala_traj_bounds(t, &lo, &hi);
    int *kind = malloc(sizeof *kind * (size_t)(t->ntmpl > 0 ? t->ntmpl : 1));
    if (!kind) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    pala_traj_kinds(t, kind);
    fprintf(f, "%ld\n", t->npeb);
    fprintf(f, "Lattice=\"%.17g 0 0 0 %.17g 0 0 0 %.17g\" Origin=\"%.17g %.17g %.17g\" "
               "Properties=species:S:1:pos:R:3:radius:R:1:grain:I:1:type:I:1:velo:R:3:type_name:S:1 "
               "Time=%.17g Step=%ld pbc=\"F F F\" dimension=%d container=%s\n",
            hi.x - lo.x, hi.y - lo.y, hi.z - lo.z, lo.x, lo.y, lo.z, t->time, t->step, t->dim, t->container);
    for (int k = 0; k < t->n; k++) {
        int tp = t->tid[k];
        for (int c = t->comp0[tp]; c < t->comp0[tp] + t->ncomp[tp]; c++) {
            double R;
            pala_vec3 p = pala_traj_comp_sphere(t, k, c, &R), u = pala_traj_comp_velocity(t, k, p);
            fprintf(f, "%s %.17g %.17g %.17g %.17g %d %d %.17g %.17g %.17g %s\n", species(kind[tp]), p.x, p.y, p.z, R, pala_traj_id(t, k), tp, u.x, u.y, u.z,
                    t->tname[tp]);
        }
    }
    free(kind);
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

/* Whether the run in rundir writes its own exports of this key (xyz_every or vtk_every > 0
 * in its control.txt, the effective file): then RUN/trajectory.xyz or RUN/vtk/ is one of
 * its logs, which pala resume appends to, not pala export's to replace. */
static int run_writes(const char *rundir, const char *key)
{
    char p[4300], line[4096];
    snprintf(p, sizeof p, "%s/control.txt", rundir);
    FILE *f = pala_fopen(p, "r");
    int yes = 0;
    size_t n = strlen(key);
    while (f && !yes && fgets(line, sizeof line, f)) {
        const char *s = line + strspn(line, " \t");
        if (strncmp(s, key, n)) continue;
        s += n;
        s += strspn(s, " \t");
        yes = *s == '=' && strtod(s + 1, NULL) > 0;
    }
    if (f) fclose(f);
    return yes;
}

static int close_in(FILE *f, const char *dir, const char *name)
{
    int badw = ferror(f) != 0;
    badw |= fclose(f) != 0;
    if (badw) fprintf(stderr, "pala: writing %s/%s failed: %s\n", dir, name, strerror(errno ? errno : EIO));
    return badw;
}

/* a file of several pieces (the walls'): vtp_head, then piece_begin, arrays, piece_end for
 * each, then vtp_tail */
static void vtp_head(FILE *f) { fprintf(f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\">\n<PolyData>\n"); }
static void vtp_tail(FILE *f) { fprintf(f, "</PolyData>\n</VTKFile>\n"); }
static void piece_begin(FILE *f, long npts, long nverts, long nlines, long npolys)
{
    fprintf(f, "<Piece NumberOfPoints=\"%ld\" NumberOfVerts=\"%ld\" NumberOfLines=\"%ld\" NumberOfStrips=\"0\" NumberOfPolys=\"%ld\">\n",
            npts, nverts, nlines, npolys);
}
static void piece_end(FILE *f) { fprintf(f, "</Piece>\n"); }

static void array_begin(FILE *f, const char *type, const char *name, int ncomp)
{
    fprintf(f, "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"ascii\">\n", type, name, ncomp);
}
static void array_end(FILE *f) { fprintf(f, "</DataArray>\n"); }

/* A frame's .vtp being written, in either form: ascii, the numbers in the XML as they always
 * were; binary, each array's bytes queued and written after the XML as VTK's "appended raw"
 * data (each block after its size in bytes as a UInt64, little-endian).  In the binary form
 * the points stay float64 (the same numbers as the text), the other real arrays are float32
 * (7 digits: enough to colour and draw by), connectivity and offsets int32: 3 to 3.5 times
 * smaller than the text (docs/output-formats.md, "Exports"). */
enum { V_POINT, V_REAL, V_REAL9, V_INT, V_ID };   /* an array's kind: points, real, real at 9 digits (ascii), int32, cell index */
typedef struct vtp {
    FILE *f;
    int bin, kind;
    unsigned char *data;   /* binary: the appended blocks so far */
    size_t len, cap, head; /* their bytes; where the current block's size goes */
} vtp;

static void queue(vtp *w, const void *b, size_t n)
{
    if (w->len + n > w->cap) {
        size_t c = 2 * w->cap + n + 4096;
        unsigned char *q = realloc(w->data, c);
        if (!q) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
        w->data = q;
        w->cap = c;
    }
    memcpy(w->data + w->len, b, n);
    w->len += n;
}

static void arr(vtp *w, int kind, const char *name, int ncomp)
{
    static const char *const atype[] = {"Float64", "Float64", "Float64", "Int32", "Int64"}, *const btype[] = {"Float64", "Float32", "Float32", "Int32", "Int32"};
    w->kind = kind;
    if (!w->bin) { array_begin(w->f, atype[kind], name, ncomp); return; }
    fprintf(w->f, "<DataArray type=\"%s\" Name=\"%s\" NumberOfComponents=\"%d\" format=\"appended\" offset=\"%zu\"/>\n", btype[kind], name, ncomp, w->len);
    w->head = w->len;
    queue(w, "\0\0\0\0\0\0\0\0", 8);
}

static void arr_end(vtp *w)
{
    if (w->bin) pala_le64(w->data + w->head, (uint64_t)(w->len - w->head - 8));
    else array_end(w->f);
}

/* one tuple of n numbers */
static void tup(vtp *w, const double *v, int n)
{
    for (int i = 0; i < n; i++) {
        unsigned char b[8];
        if (!w->bin) {
            if (w->kind == V_INT || w->kind == V_ID) fprintf(w->f, "%ld", (long)v[i]);
            else fprintf(w->f, w->kind == V_REAL9 ? "%.9g" : "%.17g", v[i]);
            fputc(i + 1 < n ? ' ' : '\n', w->f);
        } else if (w->kind == V_POINT) {
            pala_le_double(b, v[i]);
            queue(w, b, 8);
        } else if (w->kind == V_INT || w->kind == V_ID) {
            pala_le32(b, (uint32_t)(int32_t)v[i]);
            queue(w, b, 4);
        } else {
            float x = (float)v[i];
            uint32_t u;
            memcpy(&u, &x, 4);
            pala_le32(b, u);
            queue(w, b, 4);
        }
    }
}
static void one(vtp *w, double v) { tup(w, &v, 1); }
static void vec(vtp *w, pala_vec3 p)
{
    const double q[3] = {p.x, p.y, p.z};
    tup(w, q, 3);
}

static void file_head(vtp *w)
{
    if (w->bin) fprintf(w->f, "<?xml version=\"1.0\"?>\n<VTKFile type=\"PolyData\" version=\"0.1\" byte_order=\"LittleEndian\" header_type=\"UInt64\">\n<PolyData>\n");
    else vtp_head(w->f);
}

/* the end of the piece and the file (binary: the appended data after the XML) */
static void file_tail(vtp *w)
{
    piece_end(w->f);
    fprintf(w->f, "</PolyData>\n");
    if (w->bin) {
        fprintf(w->f, "<AppendedData encoding=\"raw\">\n_");
        fwrite(w->data, 1, w->len, w->f);
        fprintf(w->f, "\n</AppendedData>\n");
    }
    fprintf(w->f, "</VTKFile>\n");
    free(w->data);
}

static void frame_begin(vtp *w, long n)
{
    file_head(w);
    piece_begin(w->f, n, n, 0, 0);
}

/* cells of one vertex per point (connectivity 0..n-1, offsets 1..n), the end of the file */
static void frame_end(vtp *w, long n)
{
    fprintf(w->f, "<Verts>\n");
    arr(w, V_ID, "connectivity", 1);
    for (long i = 0; i < n; i++) one(w, (double)i);
    arr_end(w);
    arr(w, V_ID, "offsets", 1);
    for (long i = 0; i < n; i++) one(w, (double)(i + 1));
    arr_end(w);
    fprintf(w->f, "</Verts>\n");
    file_tail(w);
}

/* the component spheres of grain k, c their global shape index */
#define EACH_COMPONENT(t, k, c) \
    for (int k = 0; k < (t)->n; k++) for (int c = (t)->comp0[(t)->tid[k]]; c < (t)->comp0[(t)->tid[k]] + (t)->ncomp[(t)->tid[k]]; c++)

static void spheres_file(vtp *w, const pala_traj *t)
{
    frame_begin(w, t->npeb);
    fprintf(w->f, "<PointData Scalars=\"radius\" Vectors=\"velocity\">\n");
    arr(w, V_REAL, "radius", 1);
    EACH_COMPONENT(t, k, c) {
        double R;
        pala_traj_comp_sphere(t, k, c, &R);   /* an arc's bounding circle */
        one(w, R);
    }
    arr_end(w);
    arr(w, V_INT, "grain", 1);
    EACH_COMPONENT(t, k, c) one(w, pala_traj_id(t, k));
    arr_end(w);
    arr(w, V_INT, "type", 1);
    EACH_COMPONENT(t, k, c) one(w, t->tid[k]);
    arr_end(w);
    arr(w, V_REAL9, "speed", 1);
    EACH_COMPONENT(t, k, c) {
        double R;
        pala_vec3 u = pala_traj_comp_velocity(t, k, pala_traj_comp_sphere(t, k, c, &R));
        one(w, sqrt(pala_vdot(u, u)));
    }
    arr_end(w);
    arr(w, V_REAL, "velocity", 3);
    EACH_COMPONENT(t, k, c) {
        double R;
        vec(w, pala_traj_comp_velocity(t, k, pala_traj_comp_sphere(t, k, c, &R)));
    }
    arr_end(w);
    fprintf(w->f, "</PointData>\n<Points>\n");
    arr(w, V_POINT, "centre", 3);
    EACH_COMPONENT(t, k, c) {
        double R;
        vec(w, pala_traj_comp_sphere(t, k, c, &R));
    }
    arr_end(w);
    fprintf(w->f, "</Points>\n");
    frame_end(w, t->npeb);
}

static void grains_file(vtp *w, const pala_traj *t)
{
    frame_begin(w, t->n);
    fprintf(w->f, "<PointData Scalars=\"type\" Vectors=\"velocity\">\n");
    arr(w, V_INT, "grain", 1);
    for (int k = 0; k < t->n; k++) one(w, pala_traj_id(t, k));
    arr_end(w);
    arr(w, V_INT, "type", 1);
    for (int k = 0; k < t->n; k++) one(w, t->tid[k]);
    arr_end(w);
    arr(w, V_REAL, "bound_radius", 1);
    for (int k = 0; k < t->n; k++) one(w, t->bound[t->tid[k]]);
    arr_end(w);
    arr(w, V_REAL9, "speed", 1);
    for (int k = 0; k < t->n; k++) one(w, sqrt(pala_vdot(t->v[k], t->v[k])));
    arr_end(w);
    arr(w, V_REAL, "velocity", 3);
    for (int k = 0; k < t->n; k++) vec(w, t->v[k]);
    arr_end(w);
    arr(w, V_REAL, "angular_velocity", 3);
    for (int k = 0; k < t->n; k++) vec(w, t->w[k]);
    arr_end(w);
    arr(w, V_REAL, "rotation_vector", 3);
    for (int k = 0; k < t->n; k++) vec(w, t->r[k]);
    arr_end(w);
    /* r = tan(phi/2) n (eq. 8) is the quaternion (1, r) / sqrt(1 + r.r) */
    arr(w, V_REAL, "orientation", 4);
    for (int k = 0; k < t->n; k++) {
        double s = 1 / sqrt(1 + pala_vdot(t->r[k], t->r[k]));
        const double q[4] = {s, s * t->r[k].x, s * t->r[k].y, s * t->r[k].z};
        tup(w, q, 4);
    }
    arr_end(w);
    static const char *const axn[3] = {"axis_1", "axis_2", "axis_3"};
    for (int a = 0; a < 3; a++) {   /* the principal body axes in the lab frame, r * e_a (eq. 6) */
        arr(w, V_REAL, axn[a], 3);
        pala_vec3 e = pala_v(a == 0, a == 1, a == 2);
        for (int k = 0; k < t->n; k++) vec(w, pala_rot_apply(t->r[k], e));
        arr_end(w);
    }
    fprintf(w->f, "</PointData>\n<Points>\n");
    arr(w, V_POINT, "centre_of_mass", 3);
    for (int k = 0; k < t->n; k++) vec(w, t->x[k]);
    arr_end(w);
    fprintf(w->f, "</Points>\n");
    frame_end(w, t->n);
}

/* Arc grains (docs/physics.md, "Arc grains"): each grain's outline, one polygon of points on
 * its arcs, every arc cut into pieces of at most ARC_STEP (at least 2; its end is the next
 * arc's start), each point its circle's centre plus R along a direction of the arc, so on the
 * arc to rounding.  The polygon is convex and inside the outline; its points are in the
 * plane z = 0. */
#define ARC_STEP (PALA_PI / 36)

static int arc_pieces(double span) { int n = (int)ceil(span / ARC_STEP); return n < 2 ? 2 : n; }

/* the outline's points of grain k (NULL: only their count) */
static long outline_points(const pala_traj *t, int k, pala_vec3 *out)
{
    const int tp = t->tid[k], c0 = t->comp0[tp];
    if (!pala_traj_is_arc(t, c0)) return 0;
    long n = 0;
    for (int c = c0; c < c0 + t->ncomp[tp]; c++) {
        double a0 = t->sarc[2 * c], span = t->sarc[2 * c + 1] - a0;
        int m = arc_pieces(span);
        pala_vec3 o = pala_traj_centre(t, k, c);
        for (int j = 0; j < m; j++, n++)
            if (out) out[n] = pala_vaxpy(o, t->srad[c], pala_rot_apply(t->r[k], pala_v(cos(a0 + span * j / m), sin(a0 + span * j / m), 0)));
    }
    return n;
}

/* outlines_STEP.vtp: a polygon per arc grain (cells in grain order), the cell arrays grain
 * and type; written only when the run has arc grains */
static void outlines_file(vtp *w, const pala_traj *t)
{
    long np = 0, ng = 0, most = 0;
    for (int k = 0; k < t->n; k++) {
        long n = outline_points(t, k, NULL);
        np += n;
        ng += n > 0;
        most = n > most ? n : most;
    }
    pala_vec3 *p = malloc(sizeof *p * (size_t)(most > 0 ? most : 1));
    if (!p) { fprintf(stderr, "pala: out of memory\n"); exit(PALA_ERR_IO); }
    file_head(w);
    piece_begin(w->f, np, 0, 0, ng);
    fprintf(w->f, "<CellData Scalars=\"type\">\n");
    arr(w, V_INT, "grain", 1);
    for (int k = 0; k < t->n; k++)
        if (outline_points(t, k, NULL)) one(w, pala_traj_id(t, k));
    arr_end(w);
    arr(w, V_INT, "type", 1);
    for (int k = 0; k < t->n; k++)
        if (outline_points(t, k, NULL)) one(w, t->tid[k]);
    arr_end(w);
    fprintf(w->f, "</CellData>\n<Points>\n");
    arr(w, V_POINT, "outline", 3);
    for (int k = 0; k < t->n; k++) {
        long n = outline_points(t, k, p);
        for (long i = 0; i < n; i++) vec(w, p[i]);
    }
    arr_end(w);
    fprintf(w->f, "</Points>\n<Polys>\n");
    arr(w, V_ID, "connectivity", 1);
    for (long i = 0; i < np; i++) one(w, (double)i);
    arr_end(w);
    arr(w, V_ID, "offsets", 1);
    long end = 0;
    for (int k = 0; k < t->n; k++) {
        long n = outline_points(t, k, NULL);
        if (n) one(w, (double)(end += n));
    }
    arr_end(w);
    fprintf(w->f, "</Polys>\n");
    file_tail(w);
    free(p);
}

static int walls_file(const char *dir, const char *name, const pala_traj *t);

int pala_vtk_frame(const char *dir, const pala_traj *t, int binary, FILE *pvd_spheres, FILE *pvd_grains, FILE *pvd_outlines)
{
    char nm[64];
    int badw = 0;
    snprintf(nm, sizeof nm, "spheres_%06ld.vtp", t->step);
    FILE *f = open_in(dir, nm);
    if (!f) return 1;
    spheres_file(&(vtp){.f = f, .bin = binary}, t);
    badw |= close_in(f, dir, nm);
    if (pvd_spheres) fprintf(pvd_spheres, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", t->time, nm);
    snprintf(nm, sizeof nm, "grains_%06ld.vtp", t->step);
    if (!(f = open_in(dir, nm))) return 1;
    grains_file(&(vtp){.f = f, .bin = binary}, t);
    badw |= close_in(f, dir, nm);
    if (pvd_grains) fprintf(pvd_grains, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", t->time, nm);
    if (t->sarc) {   /* arc grains: their outlines */
        snprintf(nm, sizeof nm, "outlines_%06ld.vtp", t->step);
        if (!(f = open_in(dir, nm))) return 1;
        outlines_file(&(vtp){.f = f, .bin = binary}, t);
        badw |= close_in(f, dir, nm);
        if (pvd_outlines) fprintf(pvd_outlines, "<DataSet timestep=\"%.17g\" part=\"0\" file=\"%s\"/>\n", t->time, nm);
    }
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
        "usage: pala export RUN --format xyz|vtk [--binary] [--every K] [-o PATH]\n"
        "  RUN            a run folder (or its trajectory.txt)\n"
        "  --format xyz   extended XYZ for OVITO, one frame per trajectory frame, a line per\n"
        "                 component sphere (default PATH: RUN/trajectory.xyz)\n"
        "  --format vtk   VTK PolyData for ParaView: per frame spheres_STEP.vtp (component spheres)\n"
        "                 and grains_STEP.vtp (centres, orientations); spheres.pvd and grains.pvd\n"
        "                 tie them to their times; container.vtp (default PATH: RUN/vtk/); arc\n"
        "                 grains: also outlines_STEP.vtp (a polygon on each grain's arcs), outlines.pvd\n"
        "  --binary       vtk: the frames' arrays as raw appended data, 3 to 3.5x smaller than\n"
        "                 the ASCII default (points float64, other reals float32)\n"
        "  --every K      every K-th frame of the trajectory (default 1: all)\n"
        "docs: docs/visualisation.md, docs/output-formats.md (\"Exports\")\n");
}

int pala_cmd_export(int argc, char **argv)
{
    const char *run = NULL, *fmt = NULL, *out = NULL;
    long every = 1;
    int binary = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "--format") && more) fmt = argv[++i];
        else if (!strcmp(a, "--binary")) binary = 1;
        else if (!strcmp(a, "--every") && more) {
            char *e;
            every = strtol(argv[++i], &e, 10);
            if (*e || every < 1) { fprintf(stderr, "pala export: --every '%s': expected a whole number of frames >= 1, e.g. --every 10\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "-o") && more && !argv[i + 1][0]) { fprintf(stderr, "pala export: -o needs a file or folder name, e.g. -o run.xyz\n"); return PALA_ERR_INPUT; }
        else if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (a[0] == '-') { fprintf(stderr, "pala export: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala export: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run || !fmt) { fprintf(stderr, "pala export: %s\n", !run ? "which run? e.g. pala export paper-ten-grains.run --format xyz" : "which format? --format xyz (OVITO) or --format vtk (ParaView)"); usage(stderr); return PALA_ERR_INPUT; }
    int xyz = !strcmp(fmt, "xyz"), vtk = !strcmp(fmt, "vtk");
    if (!xyz && !vtk) { fprintf(stderr, "pala export: --format '%s': expected xyz (OVITO) or vtk (ParaView)\n", fmt); return PALA_ERR_INPUT; }
    if (binary && !vtk) { fprintf(stderr, "pala export: --binary is a form of --format vtk (extended XYZ is text only)\n"); return PALA_ERR_INPUT; }
    if (xyz && out && pala_refuse_result(out, "export", "trajectory.xyz", stderr)) return PALA_ERR_INPUT;
    pala_traj t;
    int rc = pala_traj_open(&t, run, stderr);
    if (rc) { pala_traj_close(&t); return rc; }
    char rundir[4096], path[4200];
    int lock = -1;   /* the run folder's (rundir.h), held while export writes into it */
    pala_traj_rundir(run, rundir, sizeof rundir);
    if (out) snprintf(path, sizeof path, "%s", out);
    else snprintf(path, sizeof path, "%s/%s", rundir, xyz ? "trajectory.xyz" : "vtk");
    for (size_t n = strlen(path); n > 1 && path[n - 1] == '/'; n--) path[n - 1] = 0;   /* B/vtk/ is B/vtk */
    /* into a run's folder (the run's own, by the default or by -o, or another's): not onto
     * the logs that run writes itself, and not while a run or resume writes there */
    const char *sl = strrchr(path, '/'), *name = sl ? sl + 1 : path;
    char parent[4200];
    snprintf(parent, sizeof parent, "%.*s", sl ? (int)(sl - path) : 1, sl ? (sl == path ? "/" : path) : ".");
    struct stat a, b;
    int inrun = stat(parent, &a) == 0 && stat(rundir, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
    const char *target = inrun ? rundir : pala_is_run_folder(parent) ? parent : NULL;
    if (target && !strcmp(name, xyz ? "trajectory.xyz" : "vtk") && run_writes(target, xyz ? "xyz_every" : "vtk_every")) {
        fprintf(stderr, "pala export: %s is the %s own %s (its control.txt sets %s), which pala resume appends to; "
                        "write the export elsewhere with -o (e.g. -o %s/%s)\n",
                path, inrun ? "run's" : "other run's", xyz ? "extended XYZ log" : "VTK log", xyz ? "xyz_every" : "vtk_every", target,
                xyz ? "export.xyz" : "vtk-export");
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    if (target && (rc = pala_rundir_lock(target, "export", &lock, stderr)) != 0) { pala_traj_close(&t); return rc; }
    /* the first frame before the output is opened: a trajectory without one replaces nothing */
    int st = pala_traj_next(&t, stderr);
    if (st <= 0) {
        if (st == 0) fprintf(stderr, "pala export: %s has no whole frame to export\n", run);
        pala_traj_close(&t);
        pala_rundir_unlock(lock);
        return PALA_ERR_INPUT;
    }
    FILE *f = NULL, *ps = NULL, *pg = NULL, *po = NULL;
    int badw = 0;
    if (xyz) {
        if (!(f = pala_fopen(path, "w"))) { fprintf(stderr, "pala export: cannot write %s: %s\n", path, pala_strerror(errno)); pala_traj_close(&t); pala_rundir_unlock(lock); return PALA_ERR_IO; }
    } else {
        if (mkdir(path, 0777) != 0 && errno != EEXIST) { fprintf(stderr, "pala export: cannot create %s: %s\n", path, strerror(errno)); pala_traj_close(&t); pala_rundir_unlock(lock); return PALA_ERR_IO; }
        int e = pala_dir_check(path);   /* never into the folder a link points to */
        if (e) {
            fprintf(stderr, "pala export: cannot write into %s: %s\n", path, pala_strerror(e));
            pala_traj_close(&t);
            pala_rundir_unlock(lock);
            return PALA_ERR_IO;
        }
        ps = open_in(path, "spheres.pvd");
        pg = ps ? open_in(path, "grains.pvd") : NULL;
        po = pg && t.sarc ? open_in(path, "outlines.pvd") : NULL;
        if (!ps || !pg || (t.sarc && !po)) { if (ps) fclose(ps); if (pg) fclose(pg); pala_traj_close(&t); pala_rundir_unlock(lock); return PALA_ERR_IO; }
        pala_vtk_pvd_begin(ps);
        pala_vtk_pvd_begin(pg);
        if (po) pala_vtk_pvd_begin(po);
        badw |= pala_vtk_container(path, &t);
    }
    long written = 0;
    for (; st == 1; st = pala_traj_next(&t, stderr)) {
        if ((t.frames - 1) % every) continue;
        if (xyz) pala_xyz_frame(f, &t);
        else badw |= pala_vtk_frame(path, &t, binary, ps, pg, po);
        written++;
        if (badw) break;
    }
    if (xyz) {
        badw |= ferror(f) != 0;
        badw |= fclose(f) != 0;
        if (badw) fprintf(stderr, "pala: writing %s failed: %s\n", path, strerror(errno ? errno : EIO));
    }
    else {
        pala_vtk_pvd_end(ps);
        pala_vtk_pvd_end(pg);
        badw |= close_in(ps, path, "spheres.pvd");
        badw |= close_in(pg, path, "grains.pvd");
        if (po) pala_vtk_pvd_end(po), badw |= close_in(po, path, "outlines.pvd");
    }
    if (st < 0) rc = PALA_ERR_INPUT;
    else if (badw) rc = PALA_ERR_IO;
    else if (t.variable) printf("pala export: %ld of %ld frames, their grains entering and leaving (%ld component spheres in the last) -> %s%s\n", written,
                                t.frames, t.npeb, path, xyz ? "" : "/");
    else printf("pala export: %ld of %ld frames, %ld component spheres each -> %s%s\n", written, t.frames, t.npeb, path, xyz ? "" : "/");
    pala_traj_close(&t);
    pala_rundir_unlock(lock);
    return rc;
}

/* mesh.c: triangle meshes as walls (mesh.h; docs/physics.md, "Triangle-mesh walls").
 *
 * A mesh is welded by exact coordinates into vertices, edges and faces.  A sphere touches
 * a feature (face, edge or vertex) when that feature holds a local minimum of the distance
 * from its centre c over the surface: each triangle's closest feature to c is decided from
 * a few signed quantities (the regions of its face, edges and corners), and a feature is a
 * contact when every face it belongs to has its closest point there.  The quantity that
 * parts two neighbouring regions is one number for both (the side value of an edge, the
 * slab value of an edge at a vertex), so a sphere over a shared edge or vertex of a flat
 * floor has one contact.  Faces that meet at less than 1e-6 rad form a flat patch whose
 * faces share one normal w for these decisions (exact opposites across an edge inside it)
 * and one id for a contact history.  Where several regions meet, rounding may tilt one
 * face's decision: closest points that agree to 1e-12 of the mesh's size count as one.
 *
 * A uniform grid of cells (twice the largest sphere) lists in each cell the faces within
 * reach (that sphere's radius) of it, in a hash table of the cells that list any, so a
 * sphere reads one cell: the faces' boxes in a row, then the few faces they let through. */
#include "mesh.h"
#include "alloc.h"
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* faces whose normals differ by less than this (|n x n'|, rad) are coplanar: a float32
 * STL's coplanar triangles differ by about 1e-7 */
#define FLAT_TOL 1e-6
/* slack of the grid's floors, in cells: a point computed on a face (with rounding) is in
 * a cell that lists the face */
#define CELL_SLACK 1e-9

/* Faces as a cell lists them: their bounding boxes, rounded outwards (b[0..2] the low
 * corners' x, y, z, b[3..5] the high ones'), and their indices, in arrays that a query reads
 * in a row (in vector instructions) before it reads the few faces whose box reaches its
 * sphere */
typedef struct boxes {
    float *b[6];
    int *f;
} boxes;

typedef struct fdata {
    /* what a query reads first of each face whose box reaches its sphere */
    pala_vec3 n;        /* unit normal, right-handed about v0 v1 v2 */
    double off;         /* n . v0 */
    double rad;         /* the largest distance of a vertex from the centroid (rounded up) */
    /* what classify reads */
    pala_vec3 mi[3];    /* edge k's (v_k -> v_k+1) side vector, a unit vector: m . (c - A) is
                           c's distance from the edge's line, > 0 on the face's side, A the
                           edge's first vertex */
    pala_vec3 ap[3];    /* A of edge k */
    int v[3], e[3];
} fdata;

typedef struct edata {
    pala_vec3 ev;       /* B - A */
    pala_vec3 l;        /* the slab's vector: ev, or inside a patch ev without its part along w */
    pala_vec3 pn;       /* pseudo-normal: the sum of its faces' normals */
    double ee;          /* ev . ev */
    int a, b;           /* its vertices A < B */
    int f0, nf;         /* its faces: efs[f0 .. f0 + nf), increasing */
    int internal;       /* 1: two faces of one flat patch */
    unsigned id;
} edata;

typedef struct vdata {
    pala_vec3 pn;       /* pseudo-normal: its faces' normals weighted by their angles at it */
    int f0, nf;         /* its faces: vfs[f0 .. f0 + nf), increasing */
    unsigned id;
} vdata;

struct pala_mesh_priv {
    fdata *f;
    edata *e;
    vdata *v;
    int *efs, *vfs, *patch;
    int oriented;       /* a closed mesh whose normals point out of the volume it encloses */
    double reach;       /* each cell lists the faces within reach of it (amax), m */
    double eps;         /* two hits closer than this are one contact, m: 1e-12 of the
                           mesh's largest coordinate or extent (rounding) */
    /* the grid: cells of side h from o, dim[] of them along each axis; a hash table of the
     * cells that list faces (key i + dim0 (j + dim1 k) + 1, 0 empty) -> cells[start ..
     * start + count) */
    double h;
    pala_vec3 o;
    int dim[3];
    uint64_t *hkey;
    int *hstart, *hcount;
    unsigned hbits;
    boxes cells;        /* the cells' faces */
    boxes faces;        /* each face's box (the queries that read all faces) */
    /* a bounding-volume hierarchy of the faces' boxes, for pala_mesh_nearest's far
     * queries: node 0 the root; bvf the faces in the order of its leaves */
    struct bnode *bvh;
    int *bvf;
};

/* A node of the hierarchy: the box of its faces (as the faces' boxes, rounded outwards);
 * n > 0: a leaf of the faces bvf[lo .. lo + n), else its children are nodes lo and lo + 1. */
typedef struct bnode { float b[6]; int lo, n; } bnode;

static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

/* ------------------------------------------------------------------------------------
 * Welding and topology
 * ------------------------------------------------------------------------------------ */

typedef struct corner { double x[3]; long slot; } corner;

static int by_position(const void *pa, const void *pb)
{
    const corner *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->x[i] != b->x[i]) return a->x[i] < b->x[i] ? -1 : 1;
    return (a->slot > b->slot) - (a->slot < b->slot);
}

typedef struct ekey { int lo, hi, face, k; } ekey;
static int by_edge(const void *pa, const void *pb)
{
    const ekey *a = pa, *b = pb;
    if (a->lo != b->lo) return a->lo < b->lo ? -1 : 1;
    if (a->hi != b->hi) return a->hi < b->hi ? -1 : 1;
    if (a->face != b->face) return a->face < b->face ? -1 : 1;
    return (a->k > b->k) - (a->k < b->k);
}

typedef struct fkey { int v[3]; int face; } fkey;
static int by_vertices(const void *pa, const void *pb)
{
    const fkey *a = pa, *b = pb;
    for (int i = 0; i < 3; i++)
        if (a->v[i] != b->v[i]) return a->v[i] < b->v[i] ? -1 : 1;
    return (a->face > b->face) - (a->face < b->face);
}

static void sort3(int *v)
{
    int t;
    if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
    if (v[1] > v[2]) { t = v[1]; v[1] = v[2]; v[2] = t; }
    if (v[0] > v[1]) { t = v[0]; v[0] = v[1]; v[1] = t; }
}

/* 1 if the triangle is a point or a line: twice its area below 1e-10 times its longest
 * edge squared (its normal would be mostly rounding) */
static int degenerate(pala_vec3 a, pala_vec3 b, pala_vec3 c)
{
    pala_vec3 u = pala_vsub(b, a), v = pala_vsub(c, a), w = pala_vsub(c, b);
    double l2 = fmax(pala_vnorm2(u), fmax(pala_vnorm2(v), pala_vnorm2(w)));
    return !(pala_vnorm(pala_vcross(u, v)) > 1e-10 * l2);
}

/* The mesh of ntri triangles xyz (9 each, already scaled and finite): vertices welded by
 * exact position (numbered in order of first use), degenerate and repeated triangles
 * dropped, the edges found. */
static int build(const double *xyz, long ntri, const int *lines, const char *what, pala_mesh **out, char *err, size_t errlen)
{
    long nc = 3 * ntri;
    corner *cs = pala_xrealloc(NULL, (size_t)nc * sizeof *cs);
    for (long i = 0; i < nc; i++) {
        for (int k = 0; k < 3; k++) cs[i].x[k] = xyz[3 * i + k] + 0.0;   /* -0 -> +0 */
        cs[i].slot = i;
    }
    qsort(cs, (size_t)nc, sizeof *cs, by_position);
    long *group = pala_xrealloc(NULL, (size_t)nc * sizeof *group);   /* slot -> first slot of its position */
    for (long i = 0, g = 0; i < nc; i++) {
        if (i == 0 || cs[i - 1].x[0] != cs[i].x[0] || cs[i - 1].x[1] != cs[i].x[1] || cs[i - 1].x[2] != cs[i].x[2])
            g = cs[i].slot;
        group[cs[i].slot] = g;
    }
    free(cs);
    /* the triangles kept: not degenerate (welded corners distinct, some area) ... */
    int *keep = pala_xrealloc(NULL, (size_t)(ntri ? ntri : 1) * sizeof *keep);
    fkey *fk = pala_xrealloc(NULL, (size_t)(ntri ? ntri : 1) * sizeof *fk);
    long nk = 0;
    for (long t = 0; t < ntri; t++) {
        long g0 = group[3 * t], g1 = group[3 * t + 1], g2 = group[3 * t + 2];
        const double *p = xyz + 9 * t;
        keep[t] = g0 != g1 && g1 != g2 && g0 != g2 &&
                  !degenerate(pala_v(p[0], p[1], p[2]), pala_v(p[3], p[4], p[5]), pala_v(p[6], p[7], p[8]));
        if (keep[t]) {
            fk[nk].v[0] = (int)g0; fk[nk].v[1] = (int)g1; fk[nk].v[2] = (int)g2;
            sort3(fk[nk].v);
            fk[nk].face = (int)t;
            nk++;
        }
    }
    /* ... and not a repeat of an earlier triangle's three corners */
    qsort(fk, (size_t)nk, sizeof *fk, by_vertices);
    for (long i = 1; i < nk; i++)
        if (!memcmp(fk[i].v, fk[i - 1].v, sizeof fk[i].v)) keep[fk[i].face] = 0;
    free(fk);
    pala_mesh *m = pala_xrealloc(NULL, sizeof *m);
    memset(m, 0, sizeof *m);
    long *vidx = pala_xrealloc(NULL, (size_t)(nc ? nc : 1) * sizeof *vidx);   /* first slot -> vertex */
    for (long i = 0; i < nc; i++) vidx[i] = -1;
    PALA_GROW(m->face, nk ? nk : 1);
    PALA_GROW(m->tri, nk ? nk : 1);
    if (lines) PALA_GROW(m->line, nk ? nk : 1);
    PALA_GROW(m->vert, nc ? nc : 1);
    for (long t = 0; t < ntri; t++) {
        if (!keep[t]) { m->ndropped++; continue; }
        for (int k = 0; k < 3; k++) {
            long g = group[3 * t + k];
            if (vidx[g] < 0) {
                vidx[g] = m->nvert;
                m->vert[m->nvert++] = pala_v(xyz[3 * g], xyz[3 * g + 1], xyz[3 * g + 2]);
            }
            m->face[m->nface][k] = (int)vidx[g];
        }
        m->tri[m->nface] = (int)t;
        if (lines) m->line[m->nface] = lines[t];
        m->nface++;
    }
    free(vidx);
    free(keep);
    free(group);
    PALA_GROW(m->vert, m->nvert ? m->nvert : 1);
    if (m->nface == 0) {
        int nd = m->ndropped;
        pala_mesh_free(m);
        return fail(err, errlen, "%s: no triangles to make a mesh of (%d dropped: degenerate, a point or a line, or repeated)", what, nd);
    }
    /* the edges, numbered in order of first use */
    long ne3 = 3L * m->nface;
    ekey *ek = pala_xrealloc(NULL, (size_t)ne3 * sizeof *ek);
    for (int f = 0; f < m->nface; f++)
        for (int k = 0; k < 3; k++) {
            int a = m->face[f][k], b = m->face[f][(k + 1) % 3];
            ekey *x = &ek[3L * f + k];
            x->lo = a < b ? a : b; x->hi = a < b ? b : a; x->face = f; x->k = k;
        }
    qsort(ek, (size_t)ne3, sizeof *ek, by_edge);
    int *first = pala_xrealloc(NULL, (size_t)ne3 * sizeof *first);   /* face-slot 3f+k -> first slot of its edge */
    for (long i = 0, g = 0; i < ne3; i++) {
        if (i == 0 || ek[i].lo != ek[i - 1].lo || ek[i].hi != ek[i - 1].hi) g = 3L * ek[i].face + ek[i].k;
        first[3L * ek[i].face + ek[i].k] = (int)g;
    }
    free(ek);
    int *eidx = pala_xrealloc(NULL, (size_t)ne3 * sizeof *eidx);
    int *fe = pala_xrealloc(NULL, (size_t)ne3 * sizeof *fe);
    PALA_GROW(m->edge, ne3);
    for (long i = 0; i < ne3; i++) eidx[i] = -1;
    for (long i = 0; i < ne3; i++) {
        int g = first[i];
        if (eidx[g] < 0) {
            eidx[g] = m->nedge;
            int a = m->face[i / 3][i % 3], b = m->face[i / 3][(i % 3 + 1) % 3];
            m->edge[m->nedge][0] = a < b ? a : b;
            m->edge[m->nedge][1] = a < b ? b : a;
            m->nedge++;
        }
        fe[i] = eidx[g];
    }
    free(eidx);
    free(first);
    PALA_GROW(m->edge, m->nedge);
    /* the private part keeps each face's edges until prepare */
    m->p = pala_xrealloc(NULL, sizeof *m->p);
    memset(m->p, 0, sizeof *m->p);
    m->p->f = pala_xrealloc(NULL, (size_t)m->nface * sizeof *m->p->f);
    memset(m->p->f, 0, (size_t)m->nface * sizeof *m->p->f);
    for (int f = 0; f < m->nface; f++)
        for (int k = 0; k < 3; k++) m->p->f[f].e[k] = fe[3L * f + k];
    free(fe);
    /* every edge of two faces: closed */
    int *cnt = pala_xrealloc(NULL, (size_t)m->nedge * sizeof *cnt);
    memset(cnt, 0, (size_t)m->nedge * sizeof *cnt);
    for (int f = 0; f < m->nface; f++)
        for (int k = 0; k < 3; k++) cnt[m->p->f[f].e[k]]++;
    m->closed = 1;
    for (int e = 0; e < m->nedge; e++) m->closed &= cnt[e] == 2;
    free(cnt);
    m->lo = m->hi = m->vert[0];
    for (int i = 1; i < m->nvert; i++) {
        pala_vec3 x = m->vert[i];
        m->lo = pala_v(fmin(m->lo.x, x.x), fmin(m->lo.y, x.y), fmin(m->lo.z, x.z));
        m->hi = pala_v(fmax(m->hi.x, x.x), fmax(m->hi.y, x.y), fmax(m->hi.z, x.z));
    }
    *out = m;
    return 0;
}

int pala_mesh_from_triangles(const double *xyz, int ntri, double scale, pala_mesh **out, char *err, size_t errlen)
{
    *out = NULL;
    if (ntri <= 0) return fail(err, errlen, "triangles: no triangles given (%d)", ntri);
    if (ntri > PALA_MESH_MAX_TRIANGLES)
        return fail(err, errlen, "triangles: %d triangles, more than a mesh may have (%d)", ntri, PALA_MESH_MAX_TRIANGLES);
    if (!(isfinite(scale) && scale > 0)) return fail(err, errlen, "triangles: the scale %g is not a positive number", scale);
    double *x = pala_xrealloc(NULL, (size_t)ntri * 9 * sizeof *x);
    for (long i = 0; i < 9L * ntri; i++) {
        x[i] = scale * xyz[i];
        if (!isfinite(x[i])) {
            free(x);
            return fail(err, errlen, "triangles: triangle %ld, vertex %ld: coordinate %c is %g, not a finite number%s",
                        i / 9, i % 9 / 3 + 1, "xyz"[i % 3], xyz[i], isfinite(xyz[i]) ? " once scaled" : "");
        }
    }
    int rc = build(x, ntri, NULL, "triangles", out, err, errlen);
    free(x);
    return rc;
}

/* ------------------------------------------------------------------------------------
 * STL files
 * ------------------------------------------------------------------------------------ */

/* the float32 at p, little-endian, as the STL format stores it */
static double le_float(const unsigned char *p)
{
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    float f;
    memcpy(&f, &u, sizeof f);
    return (double)f;
}

/* scales and checks one coordinate: 0, or -1 with the message (where: "line 12" or
 * "triangle 7") */
static int coordinate(double raw, double scale, double *x, const char *path, const char *where, int vertex, int axis, char *err, size_t errlen)
{
    *x = scale * raw;
    if (isfinite(*x)) return 0;
    return fail(err, errlen, "%s: %s: vertex %d's %c is %g, not a finite number%s: fix the file", path, where, vertex, "xyz"[axis], raw,
                isfinite(raw) ? " once scaled" : "");
}

static int read_binary(FILE *fp, const char *path, double scale, long count, double **xyz, char *err, size_t errlen)
{
    double *x = pala_xrealloc(NULL, (size_t)(count ? count : 1) * 9 * sizeof *x);
    unsigned char rec[50];
    for (long t = 0; t < count; t++) {
        if (fread(rec, 1, 50, fp) != 50) {
            free(x);
            return fail(err, errlen, "%s: binary STL: triangle %ld of %ld cannot be read (%s)", path, t + 1, count,
                        ferror(fp) ? strerror(errno) : "the file ends early");
        }
        char where[48];
        snprintf(where, sizeof where, "binary STL, triangle %ld", t + 1);
        /* 12 bytes of normal (not read: the order of the vertices gives the orientation),
         * 3 x 12 bytes of vertices, 2 bytes of attributes */
        for (int k = 0; k < 9; k++)
            if (coordinate(le_float(rec + 12 + 4 * k), scale, &x[9 * t + k], path, where, k / 3 + 1, k % 3, err, errlen)) {
                free(x);
                return -1;
            }
    }
    *xyz = x;
    return 0;
}

/* ASCII STL: a stream of words with their line numbers */
typedef struct lexer {
    FILE *fp;
    const char *path;
    int line, at;       /* the line of the next character, of the last word */
    char w[128];
} lexer;

/* the next word into L->w: 1, 0 at the end of the file, -1 if too long or not text */
static int word(lexer *L, char *err, size_t errlen)
{
    int ch;
    while ((ch = getc(L->fp)) != EOF && (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v'))
        if (ch == '\n') L->line++;
    if (ch == EOF) return 0;
    L->at = L->line;
    size_t n = 0;
    do {
        if (ch == 0) return fail(err, errlen, "%s: line %d: a NUL byte: not an ASCII STL file (a binary one whose size does not match its triangle count?)", L->path, L->line);
        if (n + 1 >= sizeof L->w) return fail(err, errlen, "%s: line %d: a word longer than %zu characters: not an ASCII STL file", L->path, L->line, sizeof L->w - 1);
        L->w[n++] = (char)ch;
    } while ((ch = getc(L->fp)) != EOF && !(ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\f' || ch == '\v'));
    if (ch == '\n') ungetc(ch, L->fp);
    L->w[n] = 0;
    return 1;
}

static int lower_eq(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if ((*a >= 'A' && *a <= 'Z' ? *a - 'A' + 'a' : *a) != *b) return 0;
    return *a == *b;
}

/* the next word must be want (any case) */
static int expect(lexer *L, const char *want, const char *after, char *err, size_t errlen)
{
    int r = word(L, err, errlen);
    if (r < 0) return -1;
    if (r == 0) return fail(err, errlen, "%s: line %d: the file ends where '%s' was expected%s%s: the file is truncated", L->path, L->line, want, after ? " after " : "", after ? after : "");
    if (!lower_eq(L->w, want)) return fail(err, errlen, "%s: line %d: expected '%s'%s%s, found '%s'", L->path, L->at, want, after ? " after " : "", after ? after : "", L->w);
    return 0;
}

static void rest_of_line(lexer *L)
{
    int ch;
    while ((ch = getc(L->fp)) != EOF && ch != '\n') {}
    if (ch == '\n') L->line++;
}

static int read_ascii(FILE *fp, const char *path, double scale, double **xyz, int **lines, long *ntri, char *err, size_t errlen)
{
    lexer L = {fp, path, 1, 1, {0}};
    double *x = NULL;
    int *ln = NULL;
    long n = 0, cap = 0;
    int r, solids = 0;
    while ((r = word(&L, err, errlen)) == 1) {
        if (!lower_eq(L.w, "solid")) {
            fail(err, errlen, "%s: line %d: expected 'solid NAME'%s, found '%s'", path, L.at, solids ? " or the end of the file" : "", L.w);
            goto bad;
        }
        solids++;
        rest_of_line(&L);   /* the solid's name */
        for (;;) {
            if ((r = word(&L, err, errlen)) < 0) goto bad;
            if (r == 0) {
                fail(err, errlen, "%s: line %d: the file ends inside 'solid' (no 'endsolid'): the file is truncated", path, L.line);
                goto bad;
            }
            if (lower_eq(L.w, "endsolid")) { rest_of_line(&L); break; }
            if (!lower_eq(L.w, "facet")) {
                fail(err, errlen, "%s: line %d: expected 'facet normal NX NY NZ' or 'endsolid', found '%s'", path, L.at, L.w);
                goto bad;
            }
            int facet_line = L.at;
            if (n >= PALA_MESH_MAX_TRIANGLES) {
                fail(err, errlen, "%s: line %d: more than %d facets, more than a mesh may have", path, L.at, PALA_MESH_MAX_TRIANGLES);
                goto bad;
            }
            rest_of_line(&L);   /* the normal: not read, the order of the vertices gives it */
            if (expect(&L, "outer", "'facet normal'", err, errlen) || expect(&L, "loop", "'outer'", err, errlen)) goto bad;
            if (n >= cap) { cap = cap ? 2 * cap : 1024; PALA_GROW(x, cap * 9); PALA_GROW(ln, cap); }
            ln[n] = facet_line;
            for (int v = 0; v < 3; v++) {
                if (expect(&L, "vertex", v ? "a vertex" : "'outer loop'", err, errlen)) goto bad;
                for (int k = 0; k < 3; k++) {
                    if ((r = word(&L, err, errlen)) < 0) goto bad;
                    char *end = NULL;
                    double raw = r ? strtod(L.w, &end) : 0;
                    if (r == 0 || end == L.w || *end) {
                        fail(err, errlen, "%s: line %d: facet of line %d: vertex %d: expected three numbers after 'vertex', found %s%s%s", path,
                             r ? L.at : L.line, facet_line, v + 1, r ? "'" : "the end of the file", r ? L.w : "", r ? "'" : "");
                        goto bad;
                    }
                    char where[48];
                    snprintf(where, sizeof where, "line %d", L.at);
                    if (coordinate(raw, scale, &x[9 * n + 3 * v + k], path, where, v + 1, k, err, errlen)) goto bad;
                }
            }
            if (expect(&L, "endloop", "three vertices", err, errlen) || expect(&L, "endfacet", "'endloop'", err, errlen)) goto bad;
            n++;
        }
    }
    if (r < 0) goto bad;
    if (n == 0) { fail(err, errlen, "%s: an ASCII STL file without facets", path); goto bad; }
    *xyz = x;
    *lines = ln;
    *ntri = n;
    return 0;
bad:
    free(x);
    free(ln);
    return -1;
}

int pala_mesh_read_stl(const char *path, double scale, pala_mesh **out, char *err, size_t errlen)
{
    *out = NULL;
    if (!(isfinite(scale) && scale > 0)) return fail(err, errlen, "%s: the scale %g is not a positive number", path, scale);
    struct stat st;   /* a folder or a device is refused before it is read */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return fail(err, errlen, "%s: is %s, not a file: give the path of an STL file", path, S_ISDIR(st.st_mode) ? "a folder" : "a device or a pipe");
    FILE *fp = fopen(path, "rb");
    if (!fp) return fail(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    long size = -1;
    if (fseek(fp, 0, SEEK_END) == 0) size = ftell(fp);
    if (size < 0 || fseek(fp, 0, SEEK_SET) != 0) {
        fclose(fp);
        return fail(err, errlen, "%s: cannot find the size of the file (a regular STL file is expected)", path);
    }
    if (size == 0) {
        fclose(fp);
        return fail(err, errlen, "%s: an empty file: an STL file holds 'solid NAME' and facets (ASCII) or an 80-byte header, a triangle count and the triangles (binary)", path);
    }
    unsigned char head[84];
    size_t got = fread(head, 1, sizeof head, fp);
    long count = got == 84 ? (long)((uint32_t)head[80] | (uint32_t)head[81] << 8 | (uint32_t)head[82] << 16 | (uint32_t)head[83] << 24) : -1;
    const int bom = got >= 3 && head[0] == 0xEF && head[1] == 0xBB && head[2] == 0xBF;   /* UTF-8's byte-order mark, as an editor may put before ASCII */
    size_t i = bom ? 3 : 0;
    while (i < got && (head[i] == ' ' || head[i] == '\t' || head[i] == '\r' || head[i] == '\n')) i++;
    char first[6] = {0};
    if (got - i >= 5) memcpy(first, head + i, 5);
    int solid = lower_eq(first, "solid");
    double *xyz = NULL;
    int *lines = NULL;
    long ntri = 0;
    int rc;
    if (count >= 0 && size == 84 + 50 * count) {
        if (count > PALA_MESH_MAX_TRIANGLES) {
            fclose(fp);
            return fail(err, errlen, "%s: binary STL of %ld triangles, more than a mesh may have (%d)", path, count, PALA_MESH_MAX_TRIANGLES);
        }
        ntri = count;
        rc = read_binary(fp, path, scale, count, &xyz, err, errlen);
        if (rc == 0 && count == 0) rc = fail(err, errlen, "%s: binary STL of 0 triangles", path);
    } else if (solid) {
        if (fseek(fp, bom ? 3 : 0, SEEK_SET) != 0) { fclose(fp); return fail(err, errlen, "%s: cannot read it again from its start", path); }
        rc = read_ascii(fp, path, scale, &xyz, &lines, &ntri, err, errlen);
        if (rc && count >= 0 && memchr(head, 0, 84)) {   /* binary-looking: say what that would need */
            size_t len = strlen(err);
            snprintf(err + len, errlen > len ? errlen - len : 0, " (read as ASCII: it begins with 'solid'; as binary, its count %ld would need %ld bytes, not %ld)",
                     count, 84 + 50 * count, size);
        }
    } else if (count < 0) {
        rc = fail(err, errlen, "%s: %ld bytes: too short for a binary STL (84 bytes of header and count at least), and not ASCII (no 'solid' at the start)", path, size);
    } else {
        rc = fail(err, errlen, "%s: binary STL whose header gives %ld triangles, %ld bytes, but the file has %ld: the file is truncated or not an STL file",
                  path, count, 84 + 50 * count, size);
    }
    fclose(fp);
    if (rc) return -1;
    double big = 0;   /* a mesh past a million km once scaled is a wrong scale, and its products overflow (the tests of its faces) */
    for (long k = 0; k < 9 * ntri; k++) big = fmax(big, fabs(xyz[k]));
    if (big > PALA_MESH_MAX_COORD) {
        free(xyz);
        free(lines);
        return fail(err, errlen, "%s: coordinates up to %g m once scaled by %g, more than a mesh may have (%g m): is scale the factor from the "
                    "file's unit to metres (0.001 for mm)?", path, big, scale, PALA_MESH_MAX_COORD);
    }
    rc = build(xyz, ntri, lines, path, out, err, errlen);
    if (rc && scale != 1 && strstr(err, "no triangles to make a mesh of")) {   /* a scale of 1e-308 makes every triangle a point */
        size_t len = strlen(err);
        snprintf(err + len, errlen > len ? errlen - len : 0, "; with scale = %g: is it the factor from the file's unit to metres (0.001 for mm)?", scale);
    }
    free(xyz);
    free(lines);
    return rc;
}

static void free_boxes(boxes *bs)
{
    for (int i = 0; i < 6; i++) free(bs->b[i]), bs->b[i] = NULL;
    free(bs->f);
    bs->f = NULL;
}

static void alloc_boxes(boxes *bs, long n)
{
    for (int i = 0; i < 6; i++) bs->b[i] = pala_xrealloc(NULL, (size_t)(n ? n : 1) * sizeof *bs->b[i]);
    bs->f = pala_xrealloc(NULL, (size_t)(n ? n : 1) * sizeof *bs->f);
}

void pala_mesh_free(pala_mesh *m)
{
    if (!m) return;
    if (m->p) {
        struct pala_mesh_priv *P = m->p;
        free(P->f); free(P->e); free(P->v); free(P->efs); free(P->vfs); free(P->patch);
        free(P->hkey); free(P->hstart); free(P->hcount);
        free_boxes(&P->cells); free_boxes(&P->faces);
        free(P->bvh); free(P->bvf);
        free(P);
    }
    free(m->vert); free(m->face); free(m->edge); free(m->tri); free(m->line);
    free(m);
}

/* ------------------------------------------------------------------------------------
 * Prepare: orientation, normals, flat patches, the side vectors, the grid
 * ------------------------------------------------------------------------------------ */

/* +1 if face f runs along its edge k from the edge's first vertex A, else -1 */
static int sense(const pala_mesh *m, int f, int k)
{
    return m->face[f][k] == m->edge[m->p->f[f].e[k]][0] ? 1 : -1;
}

/* the k (0..2) with face f's edge k = e */
static int edge_slot(const fdata *F, int e) { return F->e[0] == e ? 0 : F->e[1] == e ? 1 : 2; }

/* turns face f over: v0 v2 v1, its edges (v0 v2) (v2 v1) (v1 v0) */
static void flip(pala_mesh *m, int f)
{
    int *v = m->face[f], *e = m->p->f[f].e, t;
    t = v[1]; v[1] = v[2]; v[2] = t;
    t = e[0]; e[0] = e[2]; e[2] = t;
}

/* Faces of a closed mesh turned so that each edge is run both ways, then each connected
 * part turned so its normals point out of the volume it encloses (positive signed volume).
 * 1, or 0 if the mesh cannot be oriented so (faces left as they were found then). */
static int orient(pala_mesh *m)
{
    struct pala_mesh_priv *P = m->p;
    int nf = m->nface;
    int *comp = pala_xrealloc(NULL, (size_t)nf * sizeof *comp), *queue = pala_xrealloc(NULL, (size_t)nf * sizeof *queue);
    char *flipped = pala_xrealloc(NULL, (size_t)nf);
    for (int f = 0; f < nf; f++) comp[f] = -1, flipped[f] = 0;
    int ok = 1;
    for (int seed = 0; seed < nf && ok; seed++) {
        if (comp[seed] >= 0) continue;
        int head = 0, tail = 0;
        queue[tail++] = seed;
        comp[seed] = seed;
        while (head < tail && ok) {
            int f = queue[head++];
            for (int k = 0; k < 3 && ok; k++) {
                const edata *E = &P->e[P->f[f].e[k]];
                for (int i = 0; i < E->nf; i++) {
                    int g = P->efs[E->f0 + i];
                    if (g == f) continue;
                    int opposite = sense(m, f, k) != sense(m, g, edge_slot(&P->f[g], P->f[f].e[k]));
                    if (comp[g] < 0) {
                        if (!opposite) { flip(m, g); flipped[g] ^= 1; }
                        comp[g] = seed;
                        queue[tail++] = g;
                    } else if (!opposite) ok = 0;
                }
            }
        }
        /* the signed volume of the part, from its first vertex (Gauss) */
        pala_vec3 o = m->vert[m->face[seed][0]];
        double vol = 0;
        for (int i = 0; i < tail; i++) {
            const int *v = m->face[queue[i]];
            vol += pala_vdot(pala_vsub(m->vert[v[0]], o), pala_vcross(pala_vsub(m->vert[v[1]], o), pala_vsub(m->vert[v[2]], o)));
        }
        if (vol < 0)
            for (int i = 0; i < tail; i++) { flip(m, queue[i]); flipped[queue[i]] ^= 1; }
    }
    if (!ok)
        for (int f = 0; f < nf; f++)
            if (flipped[f]) flip(m, f);
    free(comp); free(queue); free(flipped);
    return ok;
}

/* faces f and g, of the edge of f's slot k, lie in one plane: normals within FLAT_TOL of
 * each other (or of opposites) and the two faces on either side of the edge (not folded
 * onto each other) */
static int flat_pair(const pala_mesh *m, const pala_vec3 *nrm, int f, int k, int g)
{
    if (pala_vnorm(pala_vcross(nrm[f], nrm[g])) > FLAT_TOL) return 0;
    const int *vf = m->face[f], *vg = m->face[g];
    int a = vf[k], b = vf[(k + 1) % 3];
    pala_vec3 A = m->vert[a], side = pala_vcross(nrm[f], pala_vsub(m->vert[b], A));
    int far = vg[0] != a && vg[0] != b ? vg[0] : vg[1] != a && vg[1] != b ? vg[1] : vg[2];
    return pala_vdot(side, pala_vsub(m->vert[vf[(k + 2) % 3]], A)) * pala_vdot(side, pala_vsub(m->vert[far], A)) < 0;
}

/* the angle of face f at its corner j, rad */
static double corner_angle(const pala_mesh *m, int f, int j)
{
    const int *v = m->face[f];
    pala_vec3 p = m->vert[v[j]], u = pala_vsub(m->vert[v[(j + 1) % 3]], p), w = pala_vsub(m->vert[v[(j + 2) % 3]], p);
    return atan2(pala_vnorm(pala_vcross(u, w)), pala_vdot(u, w));
}

/* the cell of coordinate x along an axis from its origin, with slack s (cells), clamped */
static int cell_of(double x, double o, double h, double s, int dim)
{
    double t = floor((x - o) / h + s);
    return t < 0 ? 0 : t > dim - 1 ? dim - 1 : (int)t;
}

/* 1 if face F's plane passes within r of cell (i, j, k): the plane's distance from the
 * cell's centre at most half the cell's extent along the normal, plus r */
static int plane_near(const struct pala_mesh_priv *P, const fdata *F, int i, int j, int k, double r)
{
    pala_vec3 ctr = pala_v(P->o.x + (i + 0.5) * P->h, P->o.y + (j + 0.5) * P->h, P->o.z + (k + 0.5) * P->h);
    return fabs(pala_vdot(F->n, ctr) - F->off) <= 0.5 * P->h * (fabs(F->n.x) + fabs(F->n.y) + fabs(F->n.z)) + r;
}

static uint64_t cell_key(const struct pala_mesh_priv *P, int i, int j, int k)
{
    return (uint64_t)i + (uint64_t)P->dim[0] * ((uint64_t)j + (uint64_t)P->dim[1] * (uint64_t)k) + 1;
}

static unsigned hash_slot(uint64_t key, unsigned bits) { return (unsigned)((key * 0x9E3779B97F4A7C15ull) >> (64 - bits)); }

/* the slot of the cell's key in the hash table, or -1 if the cell lists no face */
static int find_cell(const struct pala_mesh_priv *P, uint64_t key)
{
    unsigned mask = (1u << P->hbits) - 1;
    for (unsigned s = hash_slot(key, P->hbits);; s = (s + 1) & mask) {
        if (P->hkey[s] == key) return (int)s;
        if (P->hkey[s] == 0) return -1;
    }
}

typedef struct pair { uint64_t key; int f; } pair;
static int by_face(const void *pa, const void *pb)
{
    int a = ((const pala_mesh_nearface *)pa)->f, b = ((const pala_mesh_nearface *)pb)->f;
    return (a > b) - (a < b);
}
static int by_key(const void *pa, const void *pb)
{
    const pair *a = pa, *b = pb;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return (a->f > b->f) - (a->f < b->f);
}

/* the slack of the grid's floors (cells): rounding of points far from the origin */
static double grid_slack(const pala_mesh *m)
{
    double L = fmax(fmax(fabs(m->lo.x), fabs(m->hi.x)), fmax(fmax(fabs(m->lo.y), fabs(m->hi.y)), fmax(fabs(m->lo.z), fabs(m->hi.z))));
    return CELL_SLACK + 1e-12 * (L + m->p->reach) / m->p->h;
}

/* The cells of face f: those within reach of the face (of its box grown by reach, those
 * its plane passes within reach of, plane_near, with slack): their (cell, face) pairs into
 * out (if not NULL; in no particular order: the grid sorts them, far_nearest takes the
 * least key); their number, counted without out only to past budget.  The box is walked
 * column by column along the axis c of the normal's largest component, each row of columns
 * and each column reduced first to the cells the plane can reach (two cells of margin each
 * side, for rounding), so the cost goes with the cells found, not with the box (a face
 * thousands of cells wide, a mesh in mm read as metres, filled 10^12 cells of its box). */
static long face_cells(const pala_mesh *m, int f, pair *out, long budget)
{
    const struct pala_mesh_priv *P = m->p;
    const fdata *F = &P->f[f];
    const double s = grid_slack(m), h = P->h, r = P->reach + s * h;
    const double n[3] = {F->n.x, F->n.y, F->n.z}, o[3] = {P->o.x, P->o.y, P->o.z};
    int lo[3], hi[3];
    for (int i = 0; i < 3; i++) {
        lo[i] = cell_of((double)P->faces.b[i][f] - P->reach, o[i], h, -s, P->dim[i]);
        hi[i] = cell_of((double)P->faces.b[3 + i][f] + P->reach, o[i], h, s, P->dim[i]);
    }
    const double R = 0.5 * h * (fabs(n[0]) + fabs(n[1]) + fabs(n[2])) + r;   /* plane_near's bound */
    int c = 0;
    for (int i = 1; i < 3; i++) c = fabs(n[i]) > fabs(n[c]) ? i : c;
    const int a = (c + 1) % 3, b = (c + 2) % 3;
    /* the cells along axis x whose centres are from u0 to u1 (either order), with margins */
    #define CELLS(x, u0, u1, t0, t1) do {                                                         \
        double f0_ = (fmin(u0, u1) - o[x]) / h - 2.5, f1_ = (fmax(u0, u1) - o[x]) / h + 1.5;      \
        t0 = !(f0_ > lo[x]) ? lo[x] : f0_ > hi[x] ? hi[x] + 1 : (int)f0_;                        \
        t1 = !(f1_ < hi[x]) ? hi[x] : f1_ < lo[x] ? lo[x] - 1 : (int)f1_;                        \
    } while (0)
    const double xc0 = o[c] + (lo[c] + 0.5) * h, xc1 = o[c] + (hi[c] + 0.5) * h;
    const double cmin = fmin(n[c] * xc0, n[c] * xc1), cmax = fmax(n[c] * xc0, n[c] * xc1);
    long cnt = 0;
    for (int ia = lo[a]; ia <= hi[a]; ia++) {
        const double xa = o[a] + (ia + 0.5) * h, A = F->off - n[a] * xa;
        int b0 = lo[b], b1 = hi[b];   /* the columns where n_b x_b may lie in [A - R - cmax, A + R - cmin] */
        if (n[b] != 0) CELLS(b, (A - R - cmax) / n[b], (A + R - cmin) / n[b], b0, b1);
        else if (!(A - R - cmax <= 0 && 0 <= A + R - cmin)) continue;
        for (int ib = b0; ib <= b1; ib++) {
            const double xb = o[b] + (ib + 0.5) * h, rest = n[a] * xa + n[b] * xb - F->off;
            int k0, k1;
            CELLS(c, (-R - rest) / n[c], (R - rest) / n[c], k0, k1);
            for (int k = k0; k <= k1; k++) {
                int t[3];
                t[a] = ia;
                t[b] = ib;
                t[c] = k;
                if (!plane_near(P, F, t[0], t[1], t[2], r)) continue;
                if (out) out[cnt] = (pair){cell_key(P, t[0], t[1], t[2]), f};
                else if (cnt >= budget) return cnt + 1;
                cnt++;
            }
        }
    }
    #undef CELLS
    return cnt;
}

/* The grid: cells of side h = 2 amax (without amax, the mean largest extent of the faces),
 * each listing the faces within reach = amax of it, so a sphere of radius up to amax reads
 * the faces of the one cell of its centre.  h is doubled until the cells along each axis
 * fit 2^20 and the (face, cell) pairs stay below 16 per face (+ 65536): memory bounded. */
static void grid(pala_mesh *m, double amax)
{
    struct pala_mesh_priv *P = m->p;
    double mean = 0;
    alloc_boxes(&P->faces, m->nface);
    for (int f = 0; f < m->nface; f++) {
        const int *v = m->face[f];
        pala_vec3 a = m->vert[v[0]], b = m->vert[v[1]], c = m->vert[v[2]];
        double lo[3] = {fmin(fmin(a.x, b.x), c.x), fmin(fmin(a.y, b.y), c.y), fmin(fmin(a.z, b.z), c.z)};
        double hi[3] = {fmax(fmax(a.x, b.x), c.x), fmax(fmax(a.y, b.y), c.y), fmax(fmax(a.z, b.z), c.z)};
        for (int i = 0; i < 3; i++) {
            P->faces.b[i][f] = nextafterf((float)lo[i], -INFINITY);
            P->faces.b[3 + i][f] = nextafterf((float)hi[i], INFINITY);
        }
        P->faces.f[f] = f;
        mean += fmax(hi[0] - lo[0], fmax(hi[1] - lo[1], hi[2] - lo[2]));
    }
    mean /= m->nface;
    P->reach = amax;
    double h = amax > 0 ? 2 * amax : mean, limit = 16.0 * m->nface + 65536;
    long npair;
    for (;; h *= 2) {
        P->h = h;
        double pad = amax + 2 * grid_slack(m) * h;
        P->o = pala_v(m->lo.x - pad, m->lo.y - pad, m->lo.z - pad);
        pala_vec3 ext = pala_vsub(m->hi, P->o);
        if ((ext.x + pad) / h >= 1 << 20 || (ext.y + pad) / h >= 1 << 20 || (ext.z + pad) / h >= 1 << 20) continue;
        P->dim[0] = (int)((ext.x + pad) / h) + 1; P->dim[1] = (int)((ext.y + pad) / h) + 1; P->dim[2] = (int)((ext.z + pad) / h) + 1;
        npair = 0;
        for (int f = 0; f < m->nface && npair <= limit; f++) npair += face_cells(m, f, NULL, (long)limit - npair);
        if (npair <= limit) break;
    }
    m->cell = P->h;
    pair *pr = pala_xrealloc(NULL, (size_t)(npair ? npair : 1) * sizeof *pr);
    long np = 0;
    for (int f = 0; f < m->nface; f++) np += face_cells(m, f, pr + np, npair);
    qsort(pr, (size_t)np, sizeof *pr, by_key);
    long ncell = 0;
    for (long i = 0; i < np; i++) ncell += i == 0 || pr[i].key != pr[i - 1].key;
    P->hbits = 4;
    while ((1ul << P->hbits) < 2 * (unsigned long)ncell) P->hbits++;
    size_t size = (size_t)1 << P->hbits;
    P->hkey = pala_xrealloc(NULL, size * sizeof *P->hkey);
    P->hstart = pala_xrealloc(NULL, size * sizeof *P->hstart);
    P->hcount = pala_xrealloc(NULL, size * sizeof *P->hcount);
    memset(P->hkey, 0, size * sizeof *P->hkey);
    alloc_boxes(&P->cells, np);
    for (long i = 0; i < np; i++) {
        for (int k = 0; k < 6; k++) P->cells.b[k][i] = P->faces.b[k][pr[i].f];
        P->cells.f[i] = pr[i].f;
        if (i > 0 && pr[i].key == pr[i - 1].key) continue;
        unsigned mask = (unsigned)size - 1, t = hash_slot(pr[i].key, P->hbits);
        while (P->hkey[t]) t = (t + 1) & mask;
        P->hkey[t] = pr[i].key;
        P->hstart[t] = (int)i;
        long j = i;
        while (j < np && pr[j].key == pr[i].key) j++;
        P->hcount[t] = (int)(j - i);
    }
    free(pr);
}

/* The hierarchy (bvh_build): the faces' boxes split in halves at the median of their
 * centres along the longest extent of those centres (ties by face number), down to leaves
 * of 4 faces or fewer. */
typedef struct bkey { double x; int f; } bkey;
static int by_bkey(const void *pa, const void *pb)
{
    const bkey *a = pa, *b = pb;
    if (a->x != b->x) return a->x < b->x ? -1 : 1;
    return (a->f > b->f) - (a->f < b->f);
}

static void bvh_node(struct pala_mesh_priv *P, bkey *k, int node, int lo, int n, int *used)
{
    bnode *B = &P->bvh[node];
    double c0[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, c1[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int i = 0; i < 3; i++) B->b[i] = INFINITY, B->b[3 + i] = -INFINITY;
    for (int j = lo; j < lo + n; j++)
        for (int i = 0; i < 3; i++) {
            int f = P->bvf[j];
            B->b[i] = fminf(B->b[i], P->faces.b[i][f]);
            B->b[3 + i] = fmaxf(B->b[3 + i], P->faces.b[3 + i][f]);
            double c = 0.5 * ((double)P->faces.b[i][f] + (double)P->faces.b[3 + i][f]);
            c0[i] = fmin(c0[i], c);
            c1[i] = fmax(c1[i], c);
        }
    if (n <= 4) { B->lo = lo, B->n = n; return; }
    int ax = c1[0] - c0[0] >= c1[1] - c0[1] && c1[0] - c0[0] >= c1[2] - c0[2] ? 0 : c1[1] - c0[1] >= c1[2] - c0[2] ? 1 : 2;
    for (int j = lo; j < lo + n; j++) {
        int f = P->bvf[j];
        k[j - lo] = (bkey){0.5 * ((double)P->faces.b[ax][f] + (double)P->faces.b[3 + ax][f]), f};
    }
    qsort(k, (size_t)n, sizeof *k, by_bkey);
    for (int j = lo; j < lo + n; j++) P->bvf[j] = k[j - lo].f;
    int child = *used;
    *used += 2;
    B->lo = child, B->n = 0;
    bvh_node(P, k, child, lo, n / 2, used);
    bvh_node(P, k, child + 1, lo + n / 2, n - n / 2, used);
}

static void bvh_build(pala_mesh *m)
{
    struct pala_mesh_priv *P = m->p;
    int nf = m->nface, used = 1;
    P->bvh = pala_xrealloc(NULL, (size_t)(2 * nf + 1) * sizeof *P->bvh);
    P->bvf = pala_xrealloc(NULL, (size_t)(nf ? nf : 1) * sizeof *P->bvf);
    bkey *k = pala_xrealloc(NULL, (size_t)(nf ? nf : 1) * sizeof *k);
    for (int f = 0; f < nf; f++) P->bvf[f] = f;
    bvh_node(P, k, 0, 0, nf, &used);
    free(k);
}

int pala_mesh_prepare(pala_mesh *m, double amax, int side, char *err, size_t errlen)
{
    if (side != PALA_MESH_BOTH && side != PALA_MESH_OUTSIDE && side != PALA_MESH_INSIDE)
        return fail(err, errlen, "mesh: side %d is none of both (0), outside (1), inside (-1)", side);
    if (!(amax >= 0)) return fail(err, errlen, "mesh: the largest sphere's radius %g is not a number >= 0", amax);
    struct pala_mesh_priv *P = m->p;
    free(P->e); free(P->v); free(P->efs); free(P->vfs); free(P->patch);
    free(P->hkey); free(P->hstart); free(P->hcount); free(P->bvh); free(P->bvf);
    P->e = NULL; P->v = NULL; P->efs = P->vfs = P->patch = NULL;
    P->hkey = NULL; P->hstart = P->hcount = NULL; P->bvh = NULL; P->bvf = NULL;
    free_boxes(&P->cells); free_boxes(&P->faces);
    int nf = m->nface, ne = m->nedge, nv = m->nvert;
    /* the faces of each edge and of each vertex, increasing */
    P->e = pala_xrealloc(NULL, (size_t)ne * sizeof *P->e);
    P->v = pala_xrealloc(NULL, (size_t)nv * sizeof *P->v);
    memset(P->e, 0, (size_t)ne * sizeof *P->e);
    memset(P->v, 0, (size_t)nv * sizeof *P->v);
    P->efs = pala_xrealloc(NULL, (size_t)nf * 3 * sizeof *P->efs);
    P->vfs = pala_xrealloc(NULL, (size_t)nf * 3 * sizeof *P->vfs);
    for (int f = 0; f < nf; f++)
        for (int k = 0; k < 3; k++) P->e[P->f[f].e[k]].nf++, P->v[m->face[f][k]].nf++;
    for (int e = 0, s = 0; e < ne; e++) P->e[e].f0 = s, s += P->e[e].nf, P->e[e].nf = 0;
    for (int v = 0, s = 0; v < nv; v++) P->v[v].f0 = s, s += P->v[v].nf, P->v[v].nf = 0;
    for (int f = 0; f < nf; f++)
        for (int k = 0; k < 3; k++) {
            edata *E = &P->e[P->f[f].e[k]];
            vdata *V = &P->v[m->face[f][k]];
            P->efs[E->f0 + E->nf++] = f;
            P->vfs[V->f0 + V->nf++] = f;
        }
    for (int e = 0; e < ne; e++) P->e[e].a = m->edge[e][0], P->e[e].b = m->edge[e][1];
    P->oriented = m->closed && orient(m);
    if (side != PALA_MESH_BOTH && !P->oriented)
        return fail(err, errlen, "mesh: grains %s a mesh need a closed mesh (every edge of two faces) that can be oriented; this one %s: use side both",
                    side > 0 ? "outside" : "inside", m->closed ? "cannot be oriented" : "is open");
    m->side = side;
    pala_vec3 ext = pala_vsub(m->hi, m->lo);
    P->eps = 1e-12 * fmax(fmax(fmax(ext.x, ext.y), ext.z), fmax(fmax(fmax(fabs(m->lo.x), fabs(m->hi.x)), fmax(fabs(m->lo.y), fabs(m->hi.y))),
                                                              fmax(fabs(m->lo.z), fabs(m->hi.z))));
    /* normals and planes */
    pala_vec3 *nrm = pala_xrealloc(NULL, (size_t)nf * sizeof *nrm);
    for (int f = 0; f < nf; f++) {
        const int *v = m->face[f];
        pala_vec3 a = m->vert[v[0]], c = pala_vcross(pala_vsub(m->vert[v[1]], a), pala_vsub(m->vert[v[2]], a));
        nrm[f] = pala_vscale(1 / pala_vnorm(c), c);
        P->f[f].n = nrm[f];
        P->f[f].off = pala_vdot(nrm[f], a);
        for (int k = 0; k < 3; k++) P->f[f].v[k] = v[k];
    }
    /* flat patches, grown from their lowest face across flat edges of two faces, each
     * face within FLAT_TOL of the first face's normal w */
    P->patch = pala_xrealloc(NULL, (size_t)nf * sizeof *P->patch);
    int *queue = pala_xrealloc(NULL, (size_t)nf * sizeof *queue);
    for (int f = 0; f < nf; f++) P->patch[f] = -1;
    m->npatch = 0;
    for (int seed = 0; seed < nf; seed++) {
        if (P->patch[seed] >= 0) continue;
        int head = 0, tail = 0;
        queue[tail++] = seed;
        P->patch[seed] = m->npatch;
        while (head < tail) {
            int f = queue[head++];
            for (int k = 0; k < 3; k++) {
                const edata *E = &P->e[P->f[f].e[k]];
                if (E->nf != 2) continue;
                int g = P->efs[E->f0] == f ? P->efs[E->f0 + 1] : P->efs[E->f0];
                if (P->patch[g] >= 0 || !flat_pair(m, nrm, f, k, g) || pala_vnorm(pala_vcross(nrm[g], nrm[seed])) > FLAT_TOL) continue;
                P->patch[g] = m->npatch;
                queue[tail++] = g;
            }
        }
        m->npatch++;
    }
    free(queue);
    int *seedof = pala_xrealloc(NULL, (size_t)m->npatch * sizeof *seedof);
    for (int f = nf - 1; f >= 0; f--) seedof[P->patch[f]] = f;
    /* the edges: vectors, inside a patch or not, pseudo-normal, id */
    for (int e = 0; e < ne; e++) {
        edata *E = &P->e[e];
        E->ev = pala_vsub(m->vert[E->b], m->vert[E->a]);
        E->ee = pala_vdot(E->ev, E->ev);
        E->internal = E->nf == 2 && P->patch[P->efs[E->f0]] == P->patch[P->efs[E->f0 + 1]];
        E->l = E->ev;
        E->pn = pala_v(0, 0, 0);
        for (int i = 0; i < E->nf; i++) E->pn = pala_vadd(E->pn, nrm[P->efs[E->f0 + i]]);
        if (E->internal) {
            pala_vec3 w = nrm[seedof[P->patch[P->efs[E->f0]]]];
            E->l = pala_vaxpy(E->ev, -pala_vdot(E->ev, w), w);
            E->id = (unsigned)P->patch[P->efs[E->f0]];
        } else
            E->id = (unsigned)(m->npatch + e);
    }
    /* each face's side vectors: m = s sigma (w x (B - A)), s the sign of n . w, sigma the
     * sense of the face along the edge; across an edge inside a patch the two faces' m are
     * exact opposites (the same product, negated) */
    for (int f = 0; f < nf; f++) {
        fdata *F = &P->f[f];
        pala_vec3 w = nrm[seedof[P->patch[f]]];
        double s = pala_vdot(F->n, w) < 0 ? -1 : 1;
        for (int k = 0; k < 3; k++) {
            pala_vec3 wx = pala_vcross(w, P->e[F->e[k]].ev);
            F->mi[k] = pala_vscale(s * sense(m, f, k) / pala_vnorm(wx), wx);
            F->ap[k] = m->vert[P->e[F->e[k]].a];
        }
        const int *v = m->face[f];
        pala_vec3 ctr = pala_vscale(1.0 / 3, pala_vadd(pala_vadd(m->vert[v[0]], m->vert[v[1]]), m->vert[v[2]]));
        F->rad = 0;
        for (int k = 0; k < 3; k++) F->rad = fmax(F->rad, pala_vnorm(pala_vsub(m->vert[v[k]], ctr)));
        F->rad = F->rad * (1 + 1e-12) + P->eps;
    }
    /* the vertices: pseudo-normal, inside a patch (its faces in one, its edges inside it) */
    for (int v = 0; v < nv; v++) {
        vdata *V = &P->v[v];
        V->pn = pala_v(0, 0, 0);
        int inner = 1, p0 = P->patch[P->vfs[V->f0]];
        for (int i = 0; i < V->nf; i++) {
            int f = P->vfs[V->f0 + i], j = m->face[f][0] == v ? 0 : m->face[f][1] == v ? 1 : 2;
            V->pn = pala_vaxpy(V->pn, corner_angle(m, f, j), nrm[f]);
            inner &= P->patch[f] == p0 && P->e[P->f[f].e[j]].internal && P->e[P->f[f].e[(j + 2) % 3]].internal;
        }
        V->id = inner ? (unsigned)p0 : (unsigned)(m->npatch + ne + v);
    }
    m->nids = (unsigned)(m->npatch + ne + nv);
    free(seedof);
    free(nrm);
    grid(m, amax);
    bvh_build(m);
    return 0;
}

/* ------------------------------------------------------------------------------------
 * Queries
 * ------------------------------------------------------------------------------------ */

/* Where the point of face f closest to c is: PALA_MESH_FACE, PALA_MESH_EDGE (*k its edge
 * slot) or PALA_MESH_VERTEX (*k its corner), or -1 where rounding leaves no region (on a
 * line where regions meet), from its three side values io[] (side_values: c's signed
 * distance from each edge's line, positive on the face's side).  The regions, in the
 * face's plane and the prism over it (docs/physics.md, "Triangle-mesh walls"):
 *   face:     m_k . (c - A_k) > 0 for its three edges k;
 *   edge k:   m_k . (c - A_k) <= 0 and 0 < (c - A_k) . l_k, (c - B_k) . l_k < 0;
 *   corner j: beyond it along both of its edges, (c - A) . l <= 0 where it is an edge's A,
 *             (c - B) . l >= 0 where it is B. */
static void side_values(const fdata *F, pala_vec3 c, double io[3])
{
    for (int i = 0; i < 3; i++) io[i] = pala_vdot(F->mi[i], pala_vsub(c, F->ap[i]));
}

static int classify(const struct pala_mesh_priv *P, const pala_vec3 *vert, int f, pala_vec3 c, int *k, const double io[3])
{
    const fdata *F = &P->f[f];
    if (io[0] > 0 && io[1] > 0 && io[2] > 0) return PALA_MESH_FACE;
    const edata *E[3] = {&P->e[F->e[0]], &P->e[F->e[1]], &P->e[F->e[2]]};
    double la[3], lb[3];
    for (int i = 0; i < 3; i++) {
        la[i] = pala_vdot(pala_vsub(c, F->ap[i]), E[i]->l);
        lb[i] = pala_vdot(pala_vsub(c, vert[E[i]->b]), E[i]->l);
        if (io[i] <= 0 && la[i] > 0 && lb[i] < 0) { *k = i; return PALA_MESH_EDGE; }
    }
    for (int j = 0; j < 3; j++) {
        int v = F->v[j], i0 = j, i1 = (j + 2) % 3;   /* its edges: leaving it, reaching it */
        int b0 = E[i0]->a == v ? la[i0] <= 0 : lb[i0] >= 0;
        int b1 = E[i1]->a == v ? la[i1] <= 0 : lb[i1] >= 0;
        if (b0 && b1) { *k = j; return PALA_MESH_VERTEX; }
    }
    return -1;
}

/* the point of face f closest to c: its distance, *kind and *index of the feature it is on */
static double closest_on_face(const pala_mesh *m, int f, pala_vec3 c, pala_vec3 *q, int *kind, int *index)
{
    const struct pala_mesh_priv *P = m->p;
    const fdata *F = &P->f[f];
    int k;
    double io[3];
    side_values(F, c, io);
    *kind = classify(P, m->vert, f, c, &k, io);
    if (*kind == PALA_MESH_FACE) {
        double dp = pala_vdot(F->n, c) - F->off;
        *q = pala_vaxpy(c, -dp, F->n);
        *index = f;
        return fabs(dp);
    }
    if (*kind == PALA_MESH_EDGE) {
        const edata *E = &P->e[F->e[k]];
        double lam = pala_vdot(pala_vsub(c, m->vert[E->a]), E->ev) / E->ee;
        lam = lam < 0 ? 0 : lam > 1 ? 1 : lam;
        *q = pala_vaxpy(m->vert[E->a], lam, E->ev);
        *index = F->e[k];
        return pala_vnorm(pala_vsub(c, *q));
    }
    if (*kind != PALA_MESH_VERTEX) {   /* on a line where regions meet: the nearest corner */
        k = 0;
        for (int j = 1; j < 3; j++)
            if (pala_vnorm2(pala_vsub(c, m->vert[F->v[j]])) < pala_vnorm2(pala_vsub(c, m->vert[F->v[k]]))) k = j;
        *kind = PALA_MESH_VERTEX;
    }
    *index = F->v[k];
    *q = m->vert[*index];
    return pala_vnorm(pala_vsub(c, *q));
}

/* 1 if the point of each face of the feature (faces fs[0 .. nf)) closest to c is q, to
 * within eps: q is a local minimum of the distance from c (the faces' closest points are
 * decided by the regions of classify, which may disagree by rounding where several
 * regions meet; the points they give do not) */
static int agreed(const pala_mesh *m, const int *fs, int nf, int skip, pala_vec3 c, pala_vec3 q)
{
    for (int i = 0; i < nf; i++) {
        if (fs[i] == skip) continue;
        pala_vec3 qg;
        int kind, index;
        closest_on_face(m, fs[i], c, &qg, &kind, &index);
        if (pala_vnorm(pala_vsub(qg, q)) > m->p->eps) return 0;
    }
    return 1;
}

/* (kind, index) of a before b's */
static int key_before(const pala_mesh_hit *a, const pala_mesh_hit *b)
{
    return a->kind != b->kind ? a->kind < b->kind : a->index < b->index;
}

/* a before b: deeper, then by (kind, index) */
static int deeper(const pala_mesh_hit *a, const pala_mesh_hit *b)
{
    if (a->ov != b->ov) return a->ov > b->ov;
    return key_before(a, b);
}

/* the hit of out[0 .. n) that is the same contact as one at q of id: the same id (a flat
 * patch's features), or the same point to within eps (features that meet there); -1 */
static int same_contact(const pala_mesh *m, const pala_mesh_hit *out, int n, pala_vec3 q, unsigned id)
{
    for (int i = 0; i < n; i++)
        if (out[i].id == id || pala_vnorm(pala_vsub(out[i].q, q)) <= m->p->eps) return i;
    return -1;
}

/* puts h into out[0 .. n), kept in the order of (kind, index): one hit per contact (of
 * two at one point or of one patch: the deeper, then the first by (kind, index)), at most
 * cap (the deepest); the new count */
static int add_hit(const pala_mesh *m, pala_mesh_hit *out, int n, int cap, const pala_mesh_hit *h)
{
    int i = same_contact(m, out, n, h->q, h->id);
    if (i >= 0) {
        if (!deeper(h, &out[i])) return n;
        memmove(out + i, out + i + 1, (size_t)(n - i - 1) * sizeof *out);
        n--;
    }
    if (n >= cap) {
        if (cap <= 0) return 0;
        int s = 0;
        for (i = 1; i < n; i++)
            if (deeper(&out[s], &out[i])) s = i;
        if (!deeper(h, &out[s])) return n;
        memmove(out + s, out + s + 1, (size_t)(n - s - 1) * sizeof *out);
        n--;
    }
    for (i = n; i > 0 && key_before(h, &out[i - 1]); i--) out[i] = out[i - 1];
    out[i] = *h;
    return n + 1;
}

/* the hit at q of feature (kind, index), c - q = r of length d, fallback normal nf */
static pala_mesh_hit make_hit(pala_vec3 q, pala_vec3 r, double d, double a, pala_vec3 nf, int kind, int index, unsigned id)
{
    pala_mesh_hit h;
    h.q = q;
    h.n = d > 0 ? pala_vscale(1 / d, r) : nf;
    h.d = d;
    h.ov = a - d;
    h.kind = kind;
    h.index = index;
    h.id = id;
    return h;
}

/* the contact of face f, or of the edge or vertex of f it finds closest to c when that is
 * the closest point of all the feature's faces (docs/physics.md, "Triangle-mesh walls") */
static int touch_face(const pala_mesh *m, int f, pala_vec3 c, double a, pala_mesh_hit *out, int n, int cap)
{
    const struct pala_mesh_priv *P = m->p;
    const fdata *F = &P->f[f];
    double dp = pala_vdot(F->n, c) - F->off;   /* c's height over the face's plane */
    if (!(fabs(dp) < a)) return n;
    /* beside the face: c beyond an edge's line by more than the sphere's reach in the
     * plane, sqrt(a^2 - dp^2) (less 1e-6 of the distance from the edge, the most a flat
     * patch's normal w turns the lines) */
    int k;
    double io[3];
    side_values(F, c, io);
    double low = io[0] < io[1] ? io[0] : io[1];
    low = low < io[2] ? low : io[2];
    double beyond = -low - 1e-6 * (F->rad + a);
    if (beyond > 0 && beyond * beyond >= a * a - dp * dp) return n;
    int kind = classify(P, m->vert, f, c, &k, io);
    pala_mesh_hit h;
    if (kind == PALA_MESH_FACE) {
        if (m->side * dp < 0 || (m->side && dp == 0)) return n;
        h = make_hit(pala_vaxpy(c, -dp, F->n), pala_vscale(dp, F->n), fabs(dp), a, F->n, kind, f, (unsigned)P->patch[f]);
    } else if (kind == PALA_MESH_EDGE) {
        int e = F->e[k];
        const edata *E = &P->e[e];
        /* inside a patch the other face's side value is -io[k]: both <= 0 only at 0 */
        if (E->internal && io[k] != 0) return n;
        pala_vec3 A = m->vert[E->a];
        double lam = pala_vdot(pala_vsub(c, A), E->ev) / E->ee;
        lam = lam < 0 ? 0 : lam > 1 ? 1 : lam;
        pala_vec3 q = pala_vaxpy(A, lam, E->ev), r = pala_vsub(c, q);
        double d = pala_vnorm(r), up = pala_vdot(r, E->pn);
        if (!(d < a) || m->side * up < 0 || (m->side && up == 0)) return n;
        h = make_hit(q, r, d, a, F->n, kind, e, E->id);
        int i = same_contact(m, out, n, q, h.id);
        if ((i >= 0 && !deeper(&h, &out[i])) || !agreed(m, P->efs + E->f0, E->nf, f, c, q)) return n;
    } else if (kind == PALA_MESH_VERTEX) {
        int v = F->v[k];
        const vdata *V = &P->v[v];
        pala_vec3 r = pala_vsub(c, m->vert[v]);
        double d = pala_vnorm(r), up = pala_vdot(r, V->pn);
        if (!(d < a) || m->side * up < 0 || (m->side && up == 0)) return n;
        h = make_hit(m->vert[v], r, d, a, F->n, kind, v, V->id);
        int i = same_contact(m, out, n, m->vert[v], h.id);
        if ((i >= 0 && !deeper(&h, &out[i])) || !agreed(m, P->vfs + V->f0, V->nf, f, c, m->vert[v])) return n;
    } else
        return n;
    return add_hit(m, out, n, cap, &h);
}

/* The faces that may come within r of c, from the grid: those of c's cell if r <= reach,
 * else those of the cells of the box c +- (r - reach) (a face then comes once per cell that
 * lists it: the hits' ids make one contact of each), or all faces when those cells would
 * be more.  Start with faces_begin; faces_next gives them as ranges [*i0, *i1) of the
 * listings *bs while it returns 1. */
typedef struct faces_iter {
    int lo[3], hi[3], i, j, k;   /* the cells, the cell to read next */
    int all, done;               /* every face; no more */
    double cells;                /* the cells' number */
} faces_iter;

static void faces_begin(const pala_mesh *m, pala_vec3 c, double r, faces_iter *it)
{
    const struct pala_mesh_priv *P = m->p;
    double x[3] = {c.x, c.y, c.z}, o[3] = {P->o.x, P->o.y, P->o.z}, g = r > P->reach ? r - P->reach : 0;
    it->all = it->done = 0;
    double cells = 1;
    for (int i = 0; i < 3; i++) {
        double t0 = floor((x[i] - g - o[i]) / P->h), t1 = floor((x[i] + g - o[i]) / P->h);
        if (!(t1 >= 0 && t0 <= P->dim[i] - 1)) { it->done = 1; return; }
        it->lo[i] = t0 < 0 ? 0 : (int)t0;
        it->hi[i] = t1 > P->dim[i] - 1 ? P->dim[i] - 1 : (int)t1;
        cells *= it->hi[i] - it->lo[i] + 1;
    }
    it->all = !isfinite(g) || cells > m->nface;
    it->cells = cells;
    it->i = it->lo[0];
    it->j = it->lo[1];
    it->k = it->lo[2];
}

static int faces_next(const pala_mesh *m, faces_iter *it, const boxes **bs, int *i0, int *i1)
{
    const struct pala_mesh_priv *P = m->p;
    if (it->done) return 0;
    if (it->all) {
        *bs = &P->faces, *i0 = 0, *i1 = m->nface;
        it->done = 1;
        return 1;
    }
    while (it->k <= it->hi[2]) {
        int slot = find_cell(P, cell_key(P, it->i, it->j, it->k));
        if (++it->i > it->hi[0]) {
            it->i = it->lo[0];
            if (++it->j > it->hi[1]) it->j = it->lo[1], ++it->k;
        }
        if (slot >= 0) {
            *bs = &P->cells, *i0 = P->hstart[slot], *i1 = P->hstart[slot] + P->hcount[slot];
            return 1;
        }
    }
    it->done = 1;
    return 0;
}

/* The contacts of the faces [i0, i1) of bs whose box reaches the sphere (c, a), into out:
 * the boxes' distances from c first, in single precision in blocks (vector instructions),
 * against a reach grown by more than their rounding. */
static int scan(const pala_mesh *m, const boxes *bs, int i0, int i1, pala_vec3 c, double a, pala_mesh_hit *out, int n, int cap)
{
    float x = (float)c.x, y = (float)c.y, z = (float)c.z;
    float r = (float)(a * (1 + 1e-5) + 1e-6 * (fabs(c.x) + fabs(c.y) + fabs(c.z))), r2 = r * r;
    float d2[64];
    for (int s = i0; s < i1; s += 64) {
        int len = i1 - s < 64 ? i1 - s : 64;
        const float *x0 = bs->b[0] + s, *y0 = bs->b[1] + s, *z0 = bs->b[2] + s, *x1 = bs->b[3] + s, *y1 = bs->b[4] + s, *z1 = bs->b[5] + s;
        for (int j = 0; j < len; j++) {
            float ax = x0[j] - x, bx = x - x1[j], ay = y0[j] - y, by = y - y1[j], az = z0[j] - z, bz = z - z1[j];
            float tx = ax > bx ? ax : bx, ty = ay > by ? ay : by, tz = az > bz ? az : bz;
            tx = tx > 0 ? tx : 0;
            ty = ty > 0 ? ty : 0;
            tz = tz > 0 ? tz : 0;
            d2[j] = tx * tx + ty * ty + tz * tz;
        }
        for (int j = 0; j < len; j++)
            if (d2[j] < r2) n = touch_face(m, bs->f[s + j], c, a, out, n, cap);
    }
    return n;
}

/* the square of the distance from c to box i of bs, m^2 */
static double box_dist2(const boxes *bs, int i, pala_vec3 c)
{
    double x[3] = {c.x, c.y, c.z}, d2 = 0;
    for (int k = 0; k < 3; k++) {
        double lo = (double)bs->b[k][i], hi = (double)bs->b[3 + k][i];
        double t = x[k] < lo ? lo - x[k] : x[k] > hi ? x[k] - hi : 0;
        d2 += t * t;
    }
    return d2;
}

int pala_mesh_touch(const pala_mesh *m, pala_vec3 c, double a, pala_mesh_hit *out, int cap)
{
    int n = 0;
    const struct pala_mesh_priv *P = m->p;
    if (!(a > 0) || !P->hkey) return 0;   /* not prepared: no hits */
    if (a <= P->reach) {   /* the faces of c's cell (faces_next, inline) */
        double t[3] = {floor((c.x - P->o.x) / P->h), floor((c.y - P->o.y) / P->h), floor((c.z - P->o.z) / P->h)};
        for (int i = 0; i < 3; i++)
            if (!(t[i] >= 0 && t[i] < P->dim[i])) return 0;
        int slot = find_cell(P, cell_key(P, (int)t[0], (int)t[1], (int)t[2]));
        return slot < 0 ? 0 : scan(m, &P->cells, P->hstart[slot], P->hstart[slot] + P->hcount[slot], c, a, out, 0, cap);
    }
    faces_iter it;
    const boxes *bs;
    int i0, i1;
    faces_begin(m, c, a, &it);
    while (faces_next(m, &it, &bs, &i0, &i1)) n = scan(m, bs, i0, i1, c, a, out, n, cap);
    return n;
}

/* One face (entry i of bs) of a nearest-point scan: best becomes its hit if its point is
 * closer, or as close on a feature of lower (kind, index); the faces come in the scan's
 * order, so of equals the first stays. */
static void consider(const pala_mesh *m, const boxes *bs, int i, pala_vec3 x, double rmax, pala_mesh_hit *best, int *found)
{
    const struct pala_mesh_priv *P = m->p;
    int f = bs->f[i];
    const fdata *F = &P->f[f];
    if (!(box_dist2(bs, i, x) <= best->d * best->d) || fabs(pala_vdot(F->n, x) - F->off) > best->d) return;
    pala_vec3 q;
    int kind, index;
    double d = closest_on_face(m, f, x, &q, &kind, &index);
    if (d < best->d || (*found && d == best->d && (kind < best->kind || (kind == best->kind && index < best->index)))) {
        unsigned id = kind == PALA_MESH_FACE ? (unsigned)P->patch[index] : kind == PALA_MESH_EDGE ? P->e[index].id : P->v[index].id;
        *best = make_hit(q, pala_vsub(x, q), d, rmax, F->n, kind, index, id);
        *found = 1;
    }
}

/* the scan: every face the iterator gives (the faces of the cells near x, or all), in
 * its order; 1 if one is within rmax */
static int scan_nearest(const pala_mesh *m, pala_vec3 x, double rmax, faces_iter it, pala_mesh_hit *best)
{
    const boxes *bs;
    int i0, i1, found = 0;
    best->d = rmax;
    while (faces_next(m, &it, &bs, &i0, &i1))
        for (int i = i0; i < i1; i++) consider(m, bs, i, x, rmax, best, &found);
    return found;
}

/* the square of the distance from x to a node's box (relaxed by the callers) */
static double node_dist2(const bnode *B, pala_vec3 x)
{
    double p[3] = {x.x, x.y, x.z}, d2 = 0;
    for (int k = 0; k < 3; k++) {
        double t = p[k] < (double)B->b[k] ? (double)B->b[k] - p[k] : p[k] > (double)B->b[3 + k] ? p[k] - (double)B->b[3 + k] : 0;
        d2 += t * t;
    }
    return d2;
}

/* A face the hierarchy's walk read: its number, the square of its box's distance from x
 * and its plane's distance (the scan's tests), its distance. */
typedef struct seen { int f; double b2, pl, d; } seen;

/* The walk of the hierarchy, nearer child first, for the smallest distance from x to a
 * face (lim if none is closer): a node or face is passed over when its box or plane is
 * farther than the closest distance so far (relaxed by 1e-6 and 2 eps beyond rounding, so
 * no face within the smallest distance (1 + 1e-9) + eps is).  The faces it reads go into *out (grown, *n of them). */
static double bvh_walk(const pala_mesh *m, pala_vec3 x, double lim, seen **out, int *n, int *cap)
{
    const struct pala_mesh_priv *P = m->p;
    struct { int node; double d2; } stack[128];
    int top = 0;
    double best = lim;
    stack[top].node = 0, stack[top++].d2 = node_dist2(&P->bvh[0], x);
    while (top > 0) {
        --top;
        double reach = best * (1 + 1e-6) + 2 * P->eps;
        if (stack[top].d2 > reach * reach) continue;
        const bnode *B = &P->bvh[stack[top].node];
        if (B->n == 0) {   /* the nearer child last, so first off the stack */
            double da = node_dist2(&P->bvh[B->lo], x), db = node_dist2(&P->bvh[B->lo + 1], x);
            int near = da <= db ? B->lo : B->lo + 1;
            stack[top].node = B->lo + (near == B->lo), stack[top++].d2 = da <= db ? db : da;
            stack[top].node = near, stack[top++].d2 = da <= db ? da : db;
            continue;
        }
        for (int j = B->lo; j < B->lo + B->n; j++) {
            int f = P->bvf[j];
            const fdata *F = &P->f[f];
            double b2 = box_dist2(&P->faces, f, x), pl = fabs(pala_vdot(F->n, x) - F->off);
            if (b2 > reach * reach || pl > reach) continue;
            pala_vec3 q;
            int kind, index;
            double d = closest_on_face(m, f, x, &q, &kind, &index);
            if (*n == *cap) *cap = 2 * *cap + 16, *out = pala_xrealloc(*out, (size_t)*cap * sizeof **out);
            (*out)[(*n)++] = (seen){f, b2, pl, d};
            best = fmin(best, d);
            reach = best * (1 + 1e-6) + 2 * P->eps;
        }
    }
    return best;
}

/* a candidate of the far query: its place in the scan's order (the first cell of the scan
 * that lists it, then its number) */
typedef struct cand { uint64_t cell; int f; } cand;
static int by_cand(const void *pa, const void *pb)
{
    const cand *a = pa, *b = pb;
    if (a->cell != b->cell) return a->cell < b->cell ? -1 : 1;
    return (a->f > b->f) - (a->f < b->f);
}

/* The scan's answer without reading every face (a query far from the surface: deep inside
 * a mesh, the scan reads all its faces or many cells).  The hierarchy gives the smallest
 * distance U; the faces that may come within U (1 + 1e-9) + eps of x are the only ones that
 * can be the scan's answer or be taken before it (every other face is farther than any of
 * theirs), so the scan's test run over them alone, in the scan's order (by number when it
 * reads all faces, else by the first of its cells that lists them; a face no cell of the
 * scan lists is not the scan's), takes the same face.  If that face is not at U (rmax cut
 * it off), the scan itself answers: the same hit as scan_nearest, bit for bit
 * (tests/test_meshclump.c). */
static int far_nearest(const pala_mesh *m, pala_vec3 x, double rmax, faces_iter it, pala_mesh_hit *best)
{
    const struct pala_mesh_priv *P = m->p;
    seen *sn = NULL;
    int n = 0, cap = 0, found = 0;
    double U = bvh_walk(m, x, rmax, &sn, &n, &cap);
    if (!(U < rmax)) { free(sn); return 0; }   /* no face within rmax: the scan finds none either */
    double T = U * (1 + 1e-9) + P->eps;   /* the walk read every face within T */
    cand *c = pala_xrealloc(NULL, (size_t)(n ? n : 1) * sizeof *c);
    pair cell[64], *many = NULL;
    int nc = 0;
    for (int j = 0; j < n; j++) {
        if (sn[j].b2 > T * T || sn[j].pl > T) continue;
        uint64_t first = 0;
        if (!it.all) {   /* the first cell of the scan's box that lists the face */
            long np = face_cells(m, sn[j].f, NULL, LONG_MAX);
            pair *pc = np <= 64 ? cell : (many = pala_xrealloc(many, (size_t)np * sizeof *many));
            face_cells(m, sn[j].f, pc, np);
            first = UINT64_MAX;   /* the least key in the box: the first in the scan's order */
            for (long i = 0; i < np; i++) {
                uint64_t key = pc[i].key - 1;
                int ci = (int)(key % (uint64_t)P->dim[0]), cj = (int)(key / (uint64_t)P->dim[0] % (uint64_t)P->dim[1]);
                int ck = (int)(key / ((uint64_t)P->dim[0] * (uint64_t)P->dim[1]));
                if (ci >= it.lo[0] && ci <= it.hi[0] && cj >= it.lo[1] && cj <= it.hi[1] && ck >= it.lo[2] && ck <= it.hi[2] && pc[i].key < first) first = pc[i].key;
            }
            if (first == UINT64_MAX) continue;
        }
        c[nc++] = (cand){first, sn[j].f};
    }
    qsort(c, (size_t)nc, sizeof *c, by_cand);
    best->d = rmax;
    for (int j = 0; j < nc; j++) consider(m, &P->faces, c[j].f, x, rmax, best, &found);
    free(sn); free(c); free(many);
    if (found && best->d == U) return 1;
    return scan_nearest(m, x, rmax, it, best);
}

/* The faces a sphere of radius a may touch while its centre stays within s of c, each with
 * its gap (docs/physics.md, "Triangle-mesh walls", the faces near a component).  A face
 * that touch_face keeps has |h| < a for c's height h over its plane and, if c is beyond an
 * edge's line by b > 0 (b less touch_face's allowance for a patch's normal), b^2 + h^2 < a^2:
 * the point P = (max(0, b), |h|) lies within a of 0.  P moves no more than the centre (h
 * and b are distances along the face's normal and along a unit vector across an edge,
 * perpendicular to it within 1e-6), so a face whose P is at |P| > a here keeps nothing
 * until the centre has moved by more than gap = (|P| - a) / (1 + 1e-6) (less a margin for
 * rounding).  The faces of the grid's cells around c with gap < s, appended to
 * (*fs)[*n ..] in increasing order of face, each once, *fs grown (capacity *cap). */
void pala_mesh_near(const pala_mesh *m, pala_vec3 c, double a, double s, pala_mesh_nearface **fs, long *n, long *cap)
{
    const struct pala_mesh_priv *P = m->p;
    if (!(a > 0) || !(s >= 0) || !P->hkey) return;
    double r = a + s, tol = 1e-9 * r + 4 * P->eps, rr = r + tol;
    long n0 = *n;
    int ncell = 0;
    faces_iter it;
    const boxes *bs;
    int i0, i1;
    faces_begin(m, c, r, &it);
    while (faces_next(m, &it, &bs, &i0, &i1)) {
        ncell++;
        for (int i = i0; i < i1; i++) {
            int f = bs->f[i];
            const fdata *F = &P->f[f];
            double io[3], h = fabs(pala_vdot(F->n, c) - F->off);
            if (!(box_dist2(bs, i, c) <= rr * rr) || !(h <= rr)) continue;
            side_values(F, c, io);
            double low = io[0] < io[1] ? io[0] : io[1];
            low = low < io[2] ? low : io[2];
            double b = -low - 1e-6 * (F->rad + a);   /* touch_face's beyond */
            b = b > 0 ? b : 0;
            double gap = (sqrt(b * b + h * h) - a) / (1 + 1e-6) - tol;
            if (!(gap < s)) continue;
            if (*n == *cap) {
                *cap = 2 * *cap + 64;
                PALA_GROW(*fs, *cap);
            }
            (*fs)[(*n)++] = (pala_mesh_nearface){f, gap};
        }
    }
    if (ncell > 1) {   /* a face of several cells comes once per cell: sorted, each once */
        pala_mesh_nearface *q = *fs + n0;
        long k = *n - n0, u = 0;
        qsort(q, (size_t)k, sizeof *q, by_face);
        for (long i = 0; i < k; i++)
            if (i == 0 || q[i].f != q[u - 1].f) q[u++] = q[i];
        *n = n0 + u;
    }
}

int pala_mesh_touch_near(const pala_mesh *m, const pala_mesh_nearface *fs, int nf, double moved, pala_vec3 c, double a, pala_mesh_hit *out, int cap)
{
    const struct pala_mesh_priv *P = m->p;
    if (!(a > 0) || !P->hkey) return 0;
    if (a > P->reach) return pala_mesh_touch(m, c, a, out, cap);   /* the grid's faces come in another order */
    int n = 0;
    for (int i = 0; i < nf; i++)
        if (fs[i].gap < moved) n = touch_face(m, fs[i].f, c, a, out, n, cap);   /* else it keeps nothing */
    return n;
}

int pala_mesh_nearest(const pala_mesh *m, pala_vec3 x, double rmax, pala_mesh_hit *out, int *inside)
{
    return pala_mesh_nearest_by(m, x, rmax, out, inside, 1);
}

int pala_mesh_nearest_by(const pala_mesh *m, pala_vec3 x, double rmax, pala_mesh_hit *out, int *inside, int far)
{
    const struct pala_mesh_priv *P = m->p;
    pala_mesh_hit best;
    if (inside) *inside = 0;
    if (!P->hkey) return 0;   /* not prepared */
    faces_iter it;
    faces_begin(m, x, rmax, &it);
    if (it.done) return 0;
    /* more than 8 cells: the hierarchy (far_nearest) */
    int found = far && m->nface > 0 && (it.all || it.cells > 8) ? far_nearest(m, x, rmax, it, &best) : scan_nearest(m, x, rmax, it, &best);
    if (!found) return 0;
    if (inside && P->oriented) {
        pala_vec3 pn = best.kind == PALA_MESH_FACE ? P->f[best.index].n : best.kind == PALA_MESH_EDGE ? P->e[best.index].pn : P->v[best.index].pn;
        *inside = pala_vdot(pala_vsub(x, best.q), pn) < 0;
    }
    *out = best;
    return 1;
}

/* lammps.c: import a starting state from a LAMMPS data file (atom_style sphere).
 *
 * Read: the header's box (`xlo xhi` ...), `Atoms # sphere` (id type diameter density x y z,
 * optional image flags), optional `Velocities` (id vx vy vz wx wy wz) and optional
 * `Molecules` (id molecule).  Other sections are skipped.  Without `Molecules` every atom
 * is a sphere grain; with it, the atoms that share a molecule id form one rigid grain
 * (a clump) whose volume, mass and inertia come from pala's own builder (eqs. 25-35),
 * not from the file.  Grains are added in order of atom id (spheres) or molecule id
 * (clumps), so the result does not depend on how LAMMPS ordered the file.
 *
 * Clumps of the same shape share one template: a molecule is matched against the
 * templates built so far by a rigid motion (rotation from a frame of three of its
 * pebbles, verified on all of them); only a shape never seen before is built.  So a bed of
 * 2,000 identical tetrahedra costs one Monte Carlo build and stores one template. */
#include "lammps.h"
#include "alloc.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct atom {
    long id, mol;
    int line;            /* of its row in Atoms, for messages */
    double rad, rho;
    pala_vec3 x, v, om;
} atom;

static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static int by_id(const void *a, const void *b)
{
    long x = ((const atom *)a)->id, y = ((const atom *)b)->id;
    return (x > y) - (x < y);
}
static int by_mol(const void *a, const void *b)
{
    const atom *p = a, *q = b;
    if (p->mol != q->mol) return (p->mol > q->mol) - (p->mol < q->mol);
    return (p->id > q->id) - (p->id < q->id);
}

static atom *find_atom(atom *a, long n, long id)
{
    long lo = 0, hi = n - 1;
    while (lo <= hi) {
        long m = (lo + hi) / 2;
        if (a[m].id == id) return &a[m];
        if (a[m].id < id) lo = m + 1; else hi = m - 1;
    }
    return NULL;
}

/* First word of a line (section names are words; data lines start with a number). */
static int is_section(const char *p, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(p, name, n) && (p[n] == 0 || isspace((unsigned char)p[n]) || p[n] == '#');
}

typedef struct lfile {
    atom *a; long n, cap;
    double box[6]; int havebox;
    int havemol;
} lfile;

static int read_file(const char *path, lfile *L, int header_only, char *err, size_t errlen)
{
    struct stat st;   /* a folder or a device (/dev/zero read for ever) is refused before it is read */
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))
        return fail(err, errlen, "LAMMPS data file %s is %s, not a file: give the path of a file that LAMMPS's write_data wrote", path,
                    S_ISDIR(st.st_mode) ? "a folder" : "a device or a pipe");
    FILE *f = fopen(path, "r");
    if (!f) return fail(err, errlen, "cannot open LAMMPS data file %s: %s", path, strerror(errno));
    char buf[1024];
    int line = 0, sect = 0;   /* 0 header, 1 Atoms, 2 Velocities, 3 Molecules, 9 skipped */
    long natoms = -1;
    int rc = 0, first = 1;
    long sorted_to = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        if (first) { first = 0; continue; }   /* line 1 is a title */
        char *hash = strchr(buf, '#'), *p = buf;
        while (isspace((unsigned char)*p)) p++;
        if (!*p || *p == '#') continue;
        if (isalpha((unsigned char)*p)) {
            if (is_section(p, "Atoms")) {
                if (hash && !strstr(hash, "sphere")) { rc = fail(err, errlen, "%s:%d: 'Atoms %s': pala reads atom_style sphere only (Atoms # sphere: id type diameter density x y z)", path, line, hash); break; }
                sect = 1;
            } else if (is_section(p, "Velocities")) sect = 2;
            else if (is_section(p, "Molecules")) { sect = 3; L->havemol = 1; }
            else sect = 9;
            if (header_only) break;
            if ((sect == 2 || sect == 3) && L->n == 0) {
                rc = fail(err, errlen, "%s:%d: '%s' section before any atoms: the file needs an 'Atoms # sphere' section first", path, line, sect == 2 ? "Velocities" : "Molecules");
                break;
            }
            if (sect == 2 || sect == 3) {
                /* look-ups by id need the atoms sorted */
                if (sorted_to != L->n) { qsort(L->a, (size_t)L->n, sizeof *L->a, by_id); sorted_to = L->n; }
                for (long i = 1; i < L->n; i++)
                    if (L->a[i].id == L->a[i - 1].id) { rc = fail(err, errlen, "%s: atom id %ld appears twice in Atoms", path, L->a[i].id); break; }
                if (rc) break;
            }
            continue;
        }
        if (hash) *hash = 0;
        if (sect == 0) {
            double lo, hi;
            char w1[16], w2[16];
            if (sscanf(p, "%lf %lf %15s %15s", &lo, &hi, w1, w2) == 4 && w1[1] == 'l' && w1[2] == 'o') {
                int ax = w1[0] - 'x';
                if (ax < 0 || ax > 2) continue;
                L->box[2 * ax] = lo; L->box[2 * ax + 1] = hi; L->havebox |= 1 << ax;
                if (!(isfinite(lo) && isfinite(hi) && lo < hi)) { rc = fail(err, errlen, "%s:%d: '%s %s' must be two finite numbers, the first below the second", path, line, w1, w2); break; }
            } else {
                long cnt;
                if (sscanf(p, "%ld %15s", &cnt, w1) == 2 && !strcmp(w1, "atoms")) {
                    if (cnt < 1) { rc = fail(err, errlen, "%s:%d: '%ld atoms': the count must be positive", path, line, cnt); break; }
                    natoms = cnt;
                }
            }
            continue;
        }
        if (sect == 1) {
            atom a;
            memset(&a, 0, sizeof a);
            double d;
            int it, ix = 0, iy = 0, iz = 0;
            int k = sscanf(p, "%ld %d %lf %lf %lf %lf %lf %d %d %d", &a.id, &it, &d, &a.rho, &a.x.x, &a.x.y, &a.x.z, &ix, &iy, &iz);
            if (k != 7 && k != 10) { rc = fail(err, errlen, "%s:%d: expected 'id type diameter density x y z' (atom_style sphere)", path, line); break; }
            if (!(d > 0) || !isfinite(d)) { rc = fail(err, errlen, "%s:%d: atom %ld has diameter %g; pala needs spheres of positive diameter", path, line, a.id, d); break; }
            if (!(a.rho > 0) || !isfinite(a.rho)) { rc = fail(err, errlen, "%s:%d: atom %ld has density %g; expected a positive number", path, line, a.id, a.rho); break; }
            if (!isfinite(a.x.x) || !isfinite(a.x.y) || !isfinite(a.x.z)) { rc = fail(err, errlen, "%s:%d: atom %ld has coordinates %g %g %g; expected finite numbers", path, line, a.id, a.x.x, a.x.y, a.x.z); break; }
            if (L->havebox == 7) {   /* inside the box, up to its diameter (LAMMPS may write an atom just past a face) */
                const double q[3] = {a.x.x, a.x.y, a.x.z};
                for (int ax = 0; ax < 3 && !rc; ax++)
                    if (q[ax] < L->box[2 * ax] - d || q[ax] > L->box[2 * ax + 1] + d)
                        rc = fail(err, errlen, "%s:%d: atom %ld at %c = %g lies outside the box (%c from %g to %g); fix the coordinates or the box",
                                  path, line, a.id, "xyz"[ax], q[ax], "xyz"[ax], L->box[2 * ax], L->box[2 * ax + 1]);
                if (rc) break;
            }
            if (abs(ix) > 1000000 || abs(iy) > 1000000 || abs(iz) > 1000000) { rc = fail(err, errlen, "%s:%d: atom %ld has image flags %d %d %d; expected small integers", path, line, a.id, ix, iy, iz); break; }
            if (ix || iy || iz) {
                a.x.x += ix * (L->box[1] - L->box[0]);
                a.x.y += iy * (L->box[3] - L->box[2]);
                a.x.z += iz * (L->box[5] - L->box[4]);
            }
            a.rad = 0.5 * d;
            a.mol = 0;
            a.line = line;
            if (L->n == L->cap) { L->cap = L->cap ? 2 * L->cap : 1024; PALA_GROW(L->a, L->cap); }
            L->a[L->n++] = a;
        } else if (sect == 2 || sect == 3) {
            long id;
            double v[6];
            long mol;
            int k = sect == 2 ? sscanf(p, "%ld %lf %lf %lf %lf %lf %lf", &id, v, v + 1, v + 2, v + 3, v + 4, v + 5)
                              : sscanf(p, "%ld %ld", &id, &mol);
            if ((sect == 2 && k != 7) || (sect == 3 && k != 2)) {
                rc = fail(err, errlen, "%s:%d: expected %s", path, line, sect == 2 ? "'id vx vy vz wx wy wz'" : "'id molecule'");
                break;
            }
            if (sect == 2)
                for (int c = 0; c < 6 && !rc; c++)
                    if (!isfinite(v[c]) || fabs(v[c]) > 1e12) rc = fail(err, errlen, "%s:%d: atom %ld: velocity %g; expected a finite number (m/s, 1/s)", path, line, id, v[c]);
            if (rc) break;
            atom *a = find_atom(L->a, L->n, id);
            if (!a) { rc = fail(err, errlen, "%s:%d: no atom with id %ld in Atoms", path, line, id); break; }
            if (sect == 2) { a->v = pala_v(v[0], v[1], v[2]); a->om = pala_v(v[3], v[4], v[5]); }
            else a->mol = mol;
        }
    }
    fclose(f);
    if (rc) return rc;
    if (L->havebox != 7) return fail(err, errlen, "%s: the header lacks the box (xlo xhi, ylo yhi, zlo zhi lines)", path);
    if (header_only) return 0;
    if (L->n == 0) return fail(err, errlen, "%s: no atoms (expected an 'Atoms # sphere' section)", path);
    if (natoms >= 0 && natoms != L->n) return fail(err, errlen, "%s: the header says %ld atoms, the Atoms section has %ld", path, natoms, L->n);
    return 0;
}

int pala_lammps_box(const char *path, double box[6], char *err, size_t errlen)
{
    lfile L;
    memset(&L, 0, sizeof L);
    int rc = read_file(path, &L, 1, err, errlen);
    memcpy(box, L.box, sizeof L.box);
    free(L.a);
    return rc;
}

/* An orthonormal frame (columns e1 e2 e3) from two directions; a collinear pair gets a
 * perpendicular fixed by e1 alone (shapes with that axis are symmetric about it). */
static int frame_of(pala_vec3 d1, pala_vec3 d2, double m[3][3])
{
    double l1 = pala_vnorm(d1);
    if (!(l1 > 0)) return -1;
    pala_vec3 e1 = pala_vscale(1 / l1, d1);
    pala_vec3 e2 = pala_vaxpy(d2, -pala_vdot(d2, e1), e1);
    double l2 = pala_vnorm(e2);
    if (!(l2 > 1e-6 * l1)) {
        pala_vec3 a = fabs(e1.x) < 0.6 ? pala_v(1, 0, 0) : pala_v(0, 1, 0);
        e2 = pala_vaxpy(a, -pala_vdot(a, e1), e1);
        l2 = pala_vnorm(e2);
    }
    e2 = pala_vscale(1 / l2, e2);
    pala_vec3 e3 = pala_vcross(e1, e2);
    const pala_vec3 e[3] = {e1, e2, e3};
    for (int c = 0; c < 3; c++) { m[0][c] = e[c].x; m[1][c] = e[c].y; m[2][c] = e[c].z; }
    return 0;
}

static pala_vec3 mat_apply(double m[3][3], pala_vec3 s)
{
    return pala_v(m[0][0] * s.x + m[0][1] * s.y + m[0][2] * s.z,
                  m[1][0] * s.x + m[1][1] * s.y + m[1][2] * s.z,
                  m[2][0] * s.x + m[2][1] * s.y + m[2][2] * s.z);
}

/* Is molecule q (radii b, n pebbles) template t moved rigidly?  On success x, r place it:
 * q = x + r * s for the template's shape vectors s (eq. 50), matched as sets. */
static int match(const pala_world *w, int t, const pala_vec3 *q, const double *b, int n, pala_vec3 *xo, pala_vec3 *ro)
{
    const pala_template *tp = &w->tmpl[t];
    if (tp->ncomp != n) return 0;
    const pala_vec3 *s = w->shape + tp->comp0;
    const double *a = w->shape_r + tp->comp0;
    double amin = a[0];
    for (int i = 0; i < n; i++) amin = fmin(amin, a[i]);
    double tol = 1e-6 * amin;
    /* anchors in the template: i0, i1 far apart, i2 farthest from their line */
    int i0 = 0, i1 = n > 1 ? 1 : 0, i2 = n > 2 ? 2 : i1;
    double best = -1;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            double d = pala_vnorm2(pala_vsub(s[i], s[j]));
            if (d > best) { best = d; i0 = i; i1 = j; }
        }
    best = -1;
    for (int k = 0; k < n; k++) {
        double c = pala_vnorm2(pala_vcross(pala_vsub(s[i1], s[i0]), pala_vsub(s[k], s[i0])));
        if (c > best) { best = c; i2 = k; }
    }
    double ms[3][3];
    if (frame_of(pala_vsub(s[i1], s[i0]), pala_vsub(s[i2], s[i0]), ms)) return 0;
    double d01 = pala_vnorm(pala_vsub(s[i1], s[i0])), d02 = pala_vnorm(pala_vsub(s[i2], s[i0])),
           d12 = pala_vnorm(pala_vsub(s[i2], s[i1]));
    for (int j0 = 0; j0 < n; j0++) {
        if (fabs(b[j0] - a[i0]) > tol) continue;
        for (int j1 = 0; j1 < n; j1++) {
            if (j1 == j0 || fabs(b[j1] - a[i1]) > tol || fabs(pala_vnorm(pala_vsub(q[j1], q[j0])) - d01) > tol) continue;
            for (int j2 = 0; j2 < n; j2++) {
                if ((n > 2 && (j2 == j0 || j2 == j1)) || fabs(b[j2] - a[i2]) > tol) continue;
                if (fabs(pala_vnorm(pala_vsub(q[j2], q[j0])) - d02) > tol || fabs(pala_vnorm(pala_vsub(q[j2], q[j1])) - d12) > tol) continue;
                double mq[3][3], R[3][3];
                if (frame_of(pala_vsub(q[j1], q[j0]), pala_vsub(q[j2], q[j0]), mq)) continue;
                for (int r = 0; r < 3; r++)   /* R = Fq Fs^T */
                    for (int c = 0; c < 3; c++) R[r][c] = mq[r][0] * ms[c][0] + mq[r][1] * ms[c][1] + mq[r][2] * ms[c][2];
                /* x from the mean of all pebbles, then every pebble must land on one */
                pala_vec3 qm = {0, 0, 0}, sm = {0, 0, 0};
                for (int i = 0; i < n; i++) { qm = pala_vadd(qm, q[i]); sm = pala_vadd(sm, s[i]); }
                pala_vec3 x = pala_vsub(pala_vscale(1.0 / n, qm), mat_apply(R, pala_vscale(1.0 / n, sm)));
                int ok = 1;
                unsigned long long used = 0;
                for (int i = 0; i < n && ok; i++) {
                    pala_vec3 p = pala_vadd(x, mat_apply(R, s[i]));
                    ok = 0;
                    for (int j = 0; j < n; j++)
                        if (!(used >> j & 1) && fabs(b[j] - a[i]) <= tol && pala_vnorm(pala_vsub(p, q[j])) <= tol) { used |= 1ull << j; ok = 1; break; }
                }
                if (!ok) continue;
                *xo = x;
                *ro = pala_rot_from_matrix(R);
                return 1;
            }
        }
    }
    return 0;
}

/* Velocity of a rigid group of atoms: omega is the mean of the atoms' omega (LAMMPS gives
 * every atom of a rigid body the body's omega), v at the pala centre of mass x follows
 * from the mean atom velocity at the mean atom position. */
static void group_velocity(const atom *g, int n, pala_vec3 x, pala_vec3 *v, pala_vec3 *om)
{
    pala_vec3 vm = {0, 0, 0}, qm = {0, 0, 0}, o = {0, 0, 0};
    for (int i = 0; i < n; i++) { vm = pala_vadd(vm, g[i].v); qm = pala_vadd(qm, g[i].x); o = pala_vadd(o, g[i].om); }
    vm = pala_vscale(1.0 / n, vm); qm = pala_vscale(1.0 / n, qm); o = pala_vscale(1.0 / n, o);
    *om = o;
    *v = pala_vadd(vm, pala_vcross(o, pala_vsub(x, qm)));
}

int pala_lammps_import(pala_world *w, const char *path, int mat, long mc_samples, char *err, size_t errlen)
{
    lfile L;
    memset(&L, 0, sizeof L);
    int rc = read_file(path, &L, 0, err, errlen);
    if (rc) { free(L.a); return rc; }
    double rho = w->mat[mat].rho;
    for (long i = 0; i < L.n; i++)
        if (!(fabs(L.a[i].rho - rho) <= 1e-9 * rho)) {
            rc = fail(err, errlen, "%s:%d: atom %ld has density %g but material %s has density %g; "
                      "pala takes the mass from the material: make them agree", path, L.a[i].line, L.a[i].id, L.a[i].rho, w->mat[mat].name, rho);
            free(L.a);
            return rc;
        }
    int t0 = w->ntmpl;   /* templates made by this import start here */
    int nsph = 0, nclump = 0;
    enum { MAXC = 64 };
    if (!L.havemol) qsort(L.a, (size_t)L.n, sizeof *L.a, by_id);
    else qsort(L.a, (size_t)L.n, sizeof *L.a, by_mol);
    for (long i = 0; i < L.n;) {
        long j = i + 1;
        if (L.havemol) while (j < L.n && L.a[j].mol == L.a[i].mol) j++;
        int n = (int)(j - i);
        const atom *g = L.a + i;
        if (n > MAXC) { rc = fail(err, errlen, "%s: molecule %ld has %d atoms; pala grains have at most %d components", path, g->mol, n, MAXC); break; }
        pala_vec3 q[MAXC];
        double b[MAXC];
        for (int k = 0; k < n; k++) { q[k] = g[k].x; b[k] = g[k].rad; }
        int t = -1;
        pala_vec3 x = g[0].x, r = {0, 0, 0};
        for (int u = t0; u < w->ntmpl && t < 0; u++) {
            if (n == 1) { if (w->tmpl[u].ncomp == 1 && w->shape_r[w->tmpl[u].comp0] == b[0]) t = u; }
            else if (match(w, u, q, b, n, &x, &r)) t = u;
        }
        if (t < 0) {
            /* a new shape: build it from this molecule (centres relative to their mean) */
            pala_template tp;
            memset(&tp, 0, sizeof tp);
            pala_vec3 c[MAXC], qm = {0, 0, 0};
            for (int k = 0; k < n; k++) qm = pala_vadd(qm, q[k]);
            qm = pala_vscale(1.0 / n, qm);
            for (int k = 0; k < n; k++) c[k] = pala_vsub(q[k], qm);
            if (n == 1) c[0] = pala_v(0, 0, 0);
            tp.material = mat;
            snprintf(tp.name, sizeof tp.name, n == 1 ? "lammps_sphere%d" : "lammps_clump%d", n == 1 ? ++nsph : ++nclump);
            t = pala_world_build_template(w, &tp, n, c, b, mc_samples);
            if (t < 0) {
                rc = fail(err, errlen, "%s: molecule %ld: %s", path, g->mol, pala_world_error(w));
                break;
            }
            if (n > 1 && !match(w, t, q, b, n, &x, &r)) {
                rc = fail(err, errlen, "%s: molecule %ld: cannot place the grain built from it (internal)", path, g->mol);
                break;
            }
        }
        pala_vec3 v, om;
        if (n == 1) { v = g[0].v; om = g[0].om; }
        else group_velocity(g, n, x, &v, &om);
        pala_world_add_grain(w, t, x, r, v, om);
        i = j;
    }
    free(L.a);
    return rc;
}

/* restart.c: the state of a run folder (docs/output-formats.md, "checkpoint.bin") and a scene
 * that starts from it (docs/control-file.md, start_from).
 *
 *   - checkpoint.bin read and checked into its named fields (pala_ckfile_*), for `pala resume`
 *     (src/cli/checkpoint.c, which writes it) and for start_from;
 *   - what such a start needs beyond the state a resume restores (pala_world_grain_types,
 *     which the checkpoint holds): the dimension and each template whole with the name and
 *     density of its material;
 *   - the start itself (pala_restart_import): the run's templates, then its grains in the
 *     run's storage order and numbering (gaps of grains that left included), in their state
 *     (x, r, v, omega, and alpha, beta of the last step, so the first step of the new run is
 *     the step the run would have made next, eqs. 65-66), or those of a frame of its
 *     trajectory, then, once the world is prepared, the states of its contacts.
 * The clock, E_diss, W_field and the walls' momentum are not carried: the scene is a new run. */
#include "restart.h"
#include "alloc.h"
#include "container.h"
#include "place.h"
#include "world.h"
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- checkpoint files ------------------------------------------------------------------- */
static const char magic[8] = {'P', 'A', 'L', 'A', 'C', 'K', 'P', 'T'};
enum { HEADER = 8 + 4 + 4 + 8 + 8 };

uint64_t pala_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= 1099511628211ull; }
    return h;
}

void pala_ckfile_free(pala_ckfile *c)
{
    free(c->bytes);
    free(c->f);
    memset(c, 0, sizeof *c);
}

const pala_ckfield *pala_ckfile_find(const pala_ckfile *c, const char *name)
{
    for (int i = 0; i < c->nf; i++)
        if (c->f[i].nlen == strlen(name) && !memcmp(c->f[i].name, name, c->f[i].nlen)) return &c->f[i];
    return NULL;
}

/* path opened for reading if it is a regular file, not through a symbolic link (as the command
 * line reads a run folder: src/cli/rundir.h), without waiting on a pipe; its size into *size.
 * NULL with errno set and the reason in why: a device, a pipe or /dev/zero has no end to
 * read to. */
static FILE *open_regular(const char *path, off_t *size, char *why, size_t len)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC), e = fd < 0 ? errno : 0;
    struct stat st;
    FILE *f = NULL;
    if (!e && fstat(fd, &st) != 0) e = errno;
    else if (!e && !S_ISREG(st.st_mode)) e = ENODEV;
    else if (!e && (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb")))) e = errno ? errno : EIO;
    if (f) { *size = st.st_size; return f; }
    if (fd >= 0) close(fd);
    snprintf(why, len, "%s", e == ELOOP ? "it is a symbolic link, which pala does not follow in a run folder"
                             : e == ENODEV ? "it is not a regular file (a folder, a device or a pipe)" : strerror(e));
    errno = e;
    return NULL;
}

int pala_ckfile_read(const char *path, pala_ckfile *c, char *why, size_t len)
{
    memset(c, 0, sizeof *c);
    off_t size = 0;
    FILE *f = open_regular(path, &size, why, len);
    if (!f) return PALA_CKFILE_OPEN;
    /* the header first: its length decides what is read (a damaged file that goes on for
     * gigabytes is refused, not read whole) */
    c->bytes = pala_xrealloc(NULL, HEADER);
    size_t n = fread(c->bytes, 1, HEADER, f);
    uint64_t hl = 0;
    if (n == HEADER) memcpy(&hl, c->bytes + 16, 8);
    if (n == HEADER && size >= HEADER && hl == (uint64_t)(size - HEADER) && !memcmp(c->bytes, magic, 8)) {
        PALA_GROW(c->bytes, HEADER + (size_t)hl + 1);
        n += fread(c->bytes + HEADER, 1, (size_t)hl + 1, f);   /* one more: a file that grew since is longer than its header */
    }
    c->n = n;
    int rerr = ferror(f);
    fclose(f);
    const char *bad = NULL;
    uint32_t bom = 0;
    uint64_t plen = 0, sum = 0;
    if (rerr) bad = "it cannot be read";
    else if (n < HEADER || memcmp(c->bytes, magic, 8)) bad = "it is not a pala checkpoint (no PALACKPT header)";
    else {
        memcpy(&c->version, c->bytes + 8, 4);
        memcpy(&bom, c->bytes + 12, 4);
        memcpy(&plen, c->bytes + 16, 8);
        memcpy(&sum, c->bytes + 24, 8);
        if (bom == 0x04030201u) bad = "it was written on a machine of the other byte order";
        else if (bom != 0x01020304u) bad = "its byte-order mark is damaged";
        else if (c->version != PALA_CKPT_VERSION) {
            snprintf(why, len, "it has another format version");
            pala_ckfile_free(c);
            return PALA_CKFILE_VERSION;
        }
        else if (plen != n - HEADER) bad = (uint64_t)(size - HEADER) < plen ? "it is truncated (shorter than its header says)" : "it is longer than its header says";
        else if (pala_fnv1a(PALA_FNV0, c->bytes + HEADER, plen) != sum) bad = "its checksum does not match: the file is damaged";
    }
    if (bad) {
        snprintf(why, len, "%s", bad);
        pala_ckfile_free(c);
        return PALA_CKFILE_BAD;
    }
    /* the fields: u16 name length, the name, u32 element size, u64 count, the bytes */
    size_t p = HEADER;
    while (p < n) {
        uint16_t l;
        uint32_t e;
        uint64_t cnt;
        if (n - p < 2) break;
        memcpy(&l, c->bytes + p, 2);
        if (n - p < 2 + (size_t)l + 12) break;
        pala_ckfield fl = {(const char *)c->bytes + p + 2, l, 0, 0, NULL};
        memcpy(&e, c->bytes + p + 2 + l, 4);
        memcpy(&cnt, c->bytes + p + 6 + l, 8);
        p += 14 + (size_t)l;
        if (e == 0 || cnt > (n - p) / e) { p = n + 1; break; }
        fl.elem = e;
        fl.count = cnt;
        fl.data = c->bytes + p;
        p += (size_t)(e * cnt);
        PALA_GROW(c->f, c->nf + 1);
        c->f[c->nf++] = fl;
    }
    if (p != n) {
        snprintf(why, len, "its fields are malformed");
        pala_ckfile_free(c);
        return PALA_CKFILE_FIELDS;
    }
    return PALA_CKFILE_OK;
}

/* ---- the grain types of a run ------------------------------------------------------------
 * Two doubles (dimension, templates), then per template its name and its material's name (32
 * bytes each, NUL-padded), TNUM doubles (below) and ncomp x (shape vector, radius). */
enum { TNAME = 32, TNUM = 27 };

static size_t type_bytes(int ncomp) { return 2 * TNAME + (TNUM + 4 * (size_t)ncomp) * sizeof(double); }

void *pala_world_grain_types(const pala_world *w, size_t *bytes)
{
    size_t n = 2 * sizeof(double);
    for (int t = 0; t < w->ntmpl; t++) n += type_bytes(w->tmpl[t].ncomp);
    unsigned char *b = pala_xrealloc(NULL, n), *p = b;
    memset(b, 0, n);
    double h[2] = {w->dim, w->ntmpl};
    memcpy(p, h, sizeof h);
    p += sizeof h;
    for (int t = 0; t < w->ntmpl; t++) {
        const pala_template *tp = &w->tmpl[t];
        const pala_material *m = tp->material >= 0 && tp->material < w->nmat ? &w->mat[tp->material] : NULL;
        snprintf((char *)p, TNAME, "%s", tp->name);
        snprintf((char *)p + TNAME, TNAME, "%s", m ? m->name : "");
        p += 2 * TNAME;
        const double d[TNUM] = {tp->ncomp, m ? m->rho : 0, tp->volume, tp->volume_stderr, (double)tp->mc_samples, tp->mass,
                                tp->inertia[0], tp->inertia[1], tp->inertia[2], tp->inv_inertia[0], tp->inv_inertia[1], tp->inv_inertia[2],
                                tp->bound_radius, tp->isotropic, tp->frame.x, tp->frame.y, tp->frame.z,
                                tp->com_given.x, tp->com_given.y, tp->com_given.z, tp->charge,
                                tp->edip.x, tp->edip.y, tp->edip.z, tp->mdip.x, tp->mdip.y, tp->mdip.z};
        memcpy(p, d, sizeof d);
        p += sizeof d;
        for (int i = 0; i < tp->ncomp; i++) {
            const pala_vec3 s = w->shape[tp->comp0 + i];
            const double c[4] = {s.x, s.y, s.z, w->shape_r[tp->comp0 + i]};
            memcpy(p, c, sizeof c);
            p += sizeof c;
        }
    }
    *bytes = n;
    return b;
}

/* The run's templates added to w (the first at index *t0); -1 with a message if the field is
 * malformed, of another dimension, or names a material w lacks. */
static int add_types(pala_world *w, const pala_ckfield *f, const char *dir, int *t0, char *err, size_t len)
{
    const unsigned char *p = f->data, *end = f->data + f->count;
    double h[2];
    if (f->elem != 1 || f->count < sizeof h) goto malformed;
    memcpy(h, p, sizeof h);
    p += sizeof h;
    if (h[0] != w->dim) {
        snprintf(err, len, "the run of %s is in %gD and this scene in %dD: set dimension = %g", dir, h[0], w->dim, h[0]);
        return -1;
    }
    *t0 = w->ntmpl;
    for (double t = 0; t < h[1]; t++) {
        double d[TNUM];
        char name[TNAME + 1] = "", mat[TNAME + 1] = "";
        if ((size_t)(end - p) < type_bytes(0)) goto malformed;
        memcpy(name, p, TNAME);
        memcpy(mat, p + TNAME, TNAME);
        memcpy(d, p + 2 * TNAME, sizeof d);
        int nc = d[0] >= 1 && d[0] <= 1e6 ? (int)d[0] : 0;
        if (!nc || (size_t)(end - p) < type_bytes(nc)) goto malformed;
        /* the density the mass scales by (below) and the Monte Carlo count, a long: a file's
         * numbers, not trusted (the world's checks see the rest: pala_world_prepare) */
        if (!(d[1] > 0 && d[1] < HUGE_VAL) || !(d[4] >= 0 && d[4] <= 1e15)) goto malformed;
        p += type_bytes(0);
        int m = -1;
        for (int i = 0; i < w->nmat && m < 0; i++)
            if (!strcmp(w->mat[i].name, mat)) m = i;
        if (m < 0) {
            snprintf(err, len, "the grains of type '%s' of the run of %s are of material '%s'; this scene has no [material %s]: add it "
                     "(its values may differ from the run's)", name, dir, mat, mat);
            return -1;
        }
        pala_template tp;
        memset(&tp, 0, sizeof tp);
        snprintf(tp.name, sizeof tp.name, "%s", name);
        tp.material = m;
        tp.ncomp = nc;
        tp.volume = d[2]; tp.volume_stderr = d[3]; tp.mc_samples = (long)d[4]; tp.mass = d[5];
        for (int a = 0; a < 3; a++) { tp.inertia[a] = d[6 + a]; tp.inv_inertia[a] = d[9 + a]; }
        tp.bound_radius = d[12]; tp.isotropic = d[13] == 3 ? 3 : d[13] != 0;   /* 3: turns about z alone (pala.h) */
        tp.frame = pala_v(d[14], d[15], d[16]); tp.com_given = pala_v(d[17], d[18], d[19]);
        tp.charge = d[20]; tp.edip = pala_v(d[21], d[22], d[23]); tp.mdip = pala_v(d[24], d[25], d[26]);
        if (w->mat[m].rho != d[1]) {   /* another density: the mass and the moments scale with it (eqs. 31-33) */
            double s = w->mat[m].rho / d[1];
            tp.mass *= s;
            for (int a = 0; a < 3; a++) { tp.inertia[a] *= s; tp.inv_inertia[a] = 1.0 / tp.inertia[a]; }
        }
        pala_vec3 *sh = pala_xrealloc(NULL, (size_t)nc * sizeof *sh);
        double *rd = pala_xrealloc(NULL, (size_t)nc * sizeof *rd);
        for (int i = 0; i < nc; i++, p += 4 * sizeof(double)) {
            double c[4];
            memcpy(c, p, sizeof c);
            sh[i] = pala_v(c[0], c[1], c[2]);
            rd[i] = c[3];
        }
        pala_world_add_template(w, &tp, sh, rd);
        free(sh);
        free(rd);
    }
    if (p == end) return 0;
malformed:
    snprintf(err, len, "%s/%s: its field %s is malformed: rerun the first scene", dir, PALA_CKPT_FILE, PALA_GRAIN_TYPES_FIELD);
    return -1;
}

/* The field name of n elements of elem bytes (n < 0: any count), or NULL with a message. */
static const pala_ckfield *need(const pala_ckfile *c, const char *dir, const char *name, size_t elem, long n, char *err, size_t len)
{
    const pala_ckfield *f = pala_ckfile_find(c, name);
    if (!f || f->elem != elem || (n >= 0 && f->count != (uint64_t)n)) {
        snprintf(err, len, "%s/%s has %s field %s: it was written by another pala, or before start_from existed: rerun the first scene "
                 "with this pala", dir, PALA_CKPT_FILE, f ? "a malformed" : "no", name);
        return NULL;
    }
    return f;
}

/* ---- a frame of the run's trajectory ------------------------------------------------------ */
/* little-endian numbers of trajectory.bin (docs/output-formats.md), whatever the machine */
static uint64_t le64(const unsigned char *b)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | b[i];
    return v;
}
static double led(const unsigned char *b)
{
    uint64_t u = le64(b);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

/* A grain of a frame: its number in the run, its template there (-1: a frame of version 1,
 * which names neither: the checkpoint's), x r v omega. */
typedef struct fgrain { int id, tp; double s[12]; } fgrain;

/* A line of f into line (n bytes; a longer line is read in parts), *lno the number of the
 * line it is part of, *whole whether it ended it; 0 at the end of the file. */
static int read_line(char *line, int n, FILE *f, long *lno, int *whole)
{
    if (!fgets(line, n, f)) return 0;
    *lno += *whole;
    *whole = strchr(line, '\n') != NULL;
    return 1;
}

/* A frame at time t is nearer to T than the one at bt: by distance, and of two frames before
 * T whose distances round alike (T = 1e308, far past both) the later one. */
static int nearer(double t, double bt, double T)
{
    double a = fabs(t - T), b = fabs(bt - T);
    return a < b || (a == b && t > bt && t <= T);
}

/* The frame of DIR's trajectory (trajectory.txt, else trajectory.bin) whose time is nearest to
 * T: its grains into *g (malloc'd; *ng of them), its time and step, *named 1 if it names its
 * grains.  A trajectory of version 1 holds the run's n grains in every frame, in the run's
 * numbering; one of version 2 (grains that enter and leave: docs/output-formats.md) names
 * each frame's grains, in increasing numbers below nid (the numbers the run had given at its
 * checkpoint: a frame after it, of a run stopped before its end, is refused), each with its
 * template (0 or more).  Every count the file gives is bounded by its bytes before anything
 * of that size is allocated.  0, or -1 with a message naming the file and the line (text) or
 * byte (binary). */
static int frame_at(const char *dir, long n, long nid, double T, fgrain **g, long *ng, int *named, double *tf, long *step, char *err, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/trajectory.txt", dir);
    off_t fsz = 0;
    char why[256];
    FILE *f = open_regular(path, &fsz, why, sizeof why);
    int bin = !f && errno == ENOENT;
    if (bin) {
        snprintf(path, sizeof path, "%s/trajectory.bin", dir);
        if (!(f = open_regular(path, &fsz, why, sizeof why)) && errno == ENOENT) {
            snprintf(err, len, "%s holds neither trajectory.txt nor trajectory.bin, whose frames start_time picks from", dir);
            return -1;
        }
    }
    if (!f) { snprintf(err, len, "%s cannot be read: %s; start_time picks its frame there: give the folder of a run as pala run wrote it", path, why); return -1; }
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (size < 0 || fseek(f, 0, SEEK_SET) != 0) { fclose(f); snprintf(err, len, "%s cannot be read", path); return -1; }
    long best = -1, at = 0, cnt = 0, bline = 0;   /* the nearest frame: its step, where its grains start (byte), their count, its line */
    double bt = 0;
    fgrain *o = NULL;
    int ok = 0, var = 0;
    long bad = -1;   /* the nearest frame's first grain that is not as a frame of its version gives it */
    long bid = 0, btp = 0, numbered = 0;   /* ... its number and template, if they are what is wrong */
#define ORDER "a frame lists its grains in increasing numbers below the %ld the run had given at its checkpoint, each with a template of the run " \
              "(0 or more): a frame after the checkpoint (the run was stopped before its end: pala resume it first, or pick an earlier start_time) " \
              "or a damaged file"
    if (bin) {
        unsigned char h[24], fh[24];
        long ver = 0, nh = -1;
        if (fread(h, 1, 24, f) == 24 && !memcmp(h, "PALATRAJ", 8)) {
            ver = h[8] | h[9] << 8 | h[10] << 16 | (long)h[11] << 24;
            nh = h[12] | h[13] << 8 | h[14] << 16 | (long)h[15] << 24;
        }
        if (!((ver == 1 && nh == n) || (ver == 2 && nh == 0))) {
            fclose(f);
            snprintf(err, len, "%s is no trajectory of the run's %ld grains", path, n);
            return -1;
        }
        uint64_t hl = le64(h + 16);
        if (hl > (uint64_t)(size - 24)) {
            fclose(f);
            snprintf(err, len, "%s: its header's length (bytes 16-23: %llu) runs past the end of the file (%ld bytes): it is cut off or damaged; "
                     "rerun the first scene", path, (unsigned long long)hl, size);
            return -1;
        }
        var = ver == 2;
        const int head = var ? 24 : 16, per = var ? 104 : 96;
        long off = 24 + (long)hl;
        for (;;) {   /* frame heads: step, time (and count); a frame cut off ends them (those before it are whole) */
            if (fseek(f, off, SEEK_SET) != 0 || fread(fh, 1, (size_t)head, f) != (size_t)head) break;
            uint64_t m = var ? le64(fh + 16) : (uint64_t)n;
            if (m > (uint64_t)nid || (long)m > (size - off - head) / per) break;
            if (isfinite(led(fh + 8)) && (best < 0 || nearer(led(fh + 8), bt, T))) {   /* a frame of no time (NaN) is none to pick */ best = (long)le64(fh); bt = led(fh + 8); at = off + head; cnt = (long)m; }
            off += head + per * (long)m;
        }
        unsigned char *b = pala_xrealloc(NULL, (size_t)(per * cnt + 1));
        o = pala_xrealloc(NULL, (size_t)(cnt + 1) * sizeof *o);
        ok = best >= 0 && fseek(f, at, SEEK_SET) == 0 && fread(b, 1, (size_t)(per * cnt), f) == (size_t)(per * cnt);
        for (long i = 0; ok && i < cnt; i++) {
            const unsigned char *q = b + per * i;
            o[i].id = var ? (int)(q[0] | q[1] << 8 | q[2] << 16 | (unsigned)q[3] << 24) : (int)i;
            o[i].tp = var ? (int)(q[4] | q[5] << 8 | q[6] << 16 | (unsigned)q[7] << 24) : -1;
            for (int j = 0; j < 12; j++) o[i].s[j] = led(q + (var ? 8 : 0) + 8 * j);
            if (var && (o[i].id < 0 || o[i].id >= nid || (i > 0 && o[i].id <= o[i - 1].id) || o[i].tp < 0)) { ok = 0; bad = i; }
        }
        free(b);
        if (bad >= 0) {
            fclose(f);
            snprintf(err, len, "%s: grain %ld of the frame of step %ld (byte %ld) is number %d of template %d: " ORDER, path, bad + 1, best,
                     at + 104 * bad, o[bad].id, o[bad].tp, nid);
            free(o);
            return -1;
        }
    } else {
        char line[1024];
        long lno = 0;   /* the line of the text read last */
        int whole = 1;  /* the last read ended its line */
        var = read_line(line, sizeof line, f, &lno, &whole) && !strncmp(line, "# pala trajectory 2", 19);
        while (read_line(line, sizeof line, f, &lno, &whole)) {
            long st, m = n;
            double t;
            if (!strncmp(line, "frame ", 6) && sscanf(line + 6, "%ld %lf %ld", &st, &t, &m) >= 2 && isfinite(t) && (best < 0 || nearer(t, bt, T))) {
                best = st;
                bt = t;
                at = ftell(f);
                cnt = var ? m : n;
                bline = lno;
            }
        }
        /* a grain's line is 24 bytes or more (12 numbers and their blanks) */
        if (best >= 0 && (cnt < 0 || cnt > nid || cnt > (size - at) / 24)) {
            fclose(f);
            snprintf(err, len, "%s:%ld: the frame of step %ld says %ld grains; %s", path, bline, best, cnt,
                     cnt < 0 ? "a count is 0 or more" : cnt > nid ? "more than the run had numbered at its checkpoint: a frame after it (the run was stopped "
                     "before its end: pala resume it first, or pick an earlier start_time) or a damaged file" : "the file ends before their lines (cut off?)");
            return -1;
        }
        ok = best >= 0 && fseek(f, at, SEEK_SET) == 0;
        o = pala_xrealloc(NULL, (size_t)((ok ? cnt : 0) + 1) * sizeof *o);
        lno = bline;
        whole = 1;
        for (long i = 0; ok && i < cnt; i++) {
            char *p = line, *e;
            ok = read_line(line, sizeof line, f, &lno, &whole);
            o[i].id = (int)i;
            o[i].tp = -1;
            if (ok && var) {   /* NUMBER TEMPLATE first */
                long id = strtol(p, &e, 10), tp = strtol(e, &p, 10);
                ok = p != e;
                numbered = ok && !(id >= 0 && id < nid && tp >= 0 && tp <= 0x7fffffff && (i == 0 || id > o[i - 1].id));
                ok = ok && !numbered;
                bid = id;
                btp = tp;
                o[i].id = (int)id;
                o[i].tp = (int)tp;
            }
            for (int j = 0; ok && j < 12; j++, p = e) {
                o[i].s[j] = strtod(p, &e);
                ok = e != p;
            }
            if (!ok) bad = i;
        }
        if (bad >= 0) {
            fclose(f);
            free(o);
            if (numbered)
                snprintf(err, len, "%s:%ld: grain %ld of the frame of step %ld is number %ld of template %ld: " ORDER, path, bline + 1 + bad, bad + 1,
                         best, bid, btp, nid);
            else
                snprintf(err, len, "%s:%ld: grain %ld of the frame of step %ld: expected '%s12 numbers x y z rx ry rz vx vy vz wx wy wz'", path,
                         bline + 1 + bad, bad + 1, best, var ? "NUMBER TEMPLATE and " : "");
            return -1;
        }
    }
#undef ORDER
    fclose(f);
    if (!ok) { free(o); snprintf(err, len, "%s: no whole frame near t = %g s", path, T); return -1; }
    *g = o;
    *ng = cnt;
    *named = var;
    *tf = bt;
    *step = best;
    return 0;
}

int pala_restart_import(pala_world *w, const char *dir, double T, pala_restart *r, char *err, size_t len)
{
    memset(r, 0, sizeof *r);
    struct stat st;
    char path[4200], why[256];
    if (stat(dir, &st) != 0) { snprintf(err, len, "%s: %s; give the folder of a run of pala run (its -o)", dir, strerror(errno)); return -1; }
    if (!S_ISDIR(st.st_mode)) { snprintf(err, len, "%s is not a folder; give the folder of a run of pala run (its -o)", dir); return -1; }
    snprintf(path, sizeof path, "%s/%s", dir, PALA_CKPT_FILE);
    int rc = pala_ckfile_read(path, &r->c, why, sizeof why);
    if (rc == PALA_CKFILE_OPEN && errno == ENOENT) {
        snprintf(err, len, "%s holds no %s (%s): it is not the folder of a run, or a run of a pala before checkpoints; rerun the first scene",
                 dir, PALA_CKPT_FILE, why);
        return -1;
    }
    if (rc == PALA_CKFILE_OPEN) {
        snprintf(err, len, "%s/%s cannot be read: %s; give the folder of a run as pala run wrote it, or rerun the first scene", dir, PALA_CKPT_FILE, why);
        return -1;
    }
    if (rc) {
        snprintf(err, len, "%s: %s%s; rerun the first scene", path, why, rc == PALA_CKFILE_VERSION ? " than this pala reads" : "");
        return -1;
    }
    const pala_ckfield *ty = need(&r->c, dir, PALA_GRAIN_TYPES_FIELD, 1, -1, err, len), *x = need(&r->c, dir, "world.x", sizeof(pala_vec3), -1, err, len);
    if (!ty || !x) return -1;
    long n = (long)x->count;
    const pala_ckfield *f[6] = {x, need(&r->c, dir, "world.r", sizeof(pala_vec3), n, err, len), need(&r->c, dir, "world.v", sizeof(pala_vec3), n, err, len),
                                need(&r->c, dir, "world.w", sizeof(pala_vec3), n, err, len), need(&r->c, dir, "world.acc", sizeof(pala_vec3), n, err, len),
                                need(&r->c, dir, "world.bacc", sizeof(pala_vec3), n, err, len)};
    const pala_ckfield *tid = need(&r->c, dir, "world.tid", sizeof(int), n, err, len), *gid = need(&r->c, dir, "world.gid", sizeof(int), -1, err, len);
    for (int i = 0; i < 6; i++)
        if (!f[i]) return -1;
    if (!tid || !gid) return -1;
    if (gid->count != 0 && gid->count != (uint64_t)n) { need(&r->c, dir, "world.gid", sizeof(int), n, err, len); return -1; }
    int t0;
    if (add_types(w, ty, dir, &t0, err, len)) return -1;
    /* the numbers the run gave (world.nid: with grains that enter and leave, where those that
     * left leave gaps), else one for each grain */
    int nid = (int)n;
    const pala_ckfield *ni = pala_ckfile_find(&r->c, "world.nid");
    if (ni && ni->elem == sizeof(int) && ni->count == 1) memcpy(&nid, ni->data, sizeof nid);
    if (nid < n) { snprintf(err, len, "%s/%s: its numbering of the grains is malformed: rerun the first scene", dir, PALA_CKPT_FILE); return -1; }
    fgrain *fr = NULL;   /* a frame's grains, else the checkpoint's */
    long nf = n;
    int var = 0;   /* a frame that names its grains (version 2) */
    if (T >= 0) {
        if (frame_at(dir, n, nid, T, &fr, &nf, &var, &r->t, &r->step, err, len)) return -1;
        r->frame = 1;
    }
    int base = w->n, *num = pala_xrealloc(NULL, (size_t)(nf + 1) * sizeof *num);
    for (long k = 0; k < nf; k++) {
        pala_vec3 s[6];
        int t, g = (int)k;
        if (var) {   /* the frame's grain k: its number and template; no accelerations of a last step (paper section 7: 0) */
            g = fr[k].id;
            t = fr[k].tp;
        } else {
            for (int i = 0; i < 6; i++) memcpy(&s[i], f[i]->data + k * sizeof(pala_vec3), sizeof(pala_vec3));
            memcpy(&t, tid->data + k * sizeof(int), sizeof t);
            if (gid->count) memcpy(&g, gid->data + k * sizeof(int), sizeof g);
            if (g < 0 || g >= nid) {   /* before a message names the grain by it */
                snprintf(err, len, "%s/%s: its numbering of the grains is malformed: rerun the first scene", dir, PALA_CKPT_FILE);
                free(fr); free(num);
                return -1;
            }
        }
        const fgrain *q = var ? &fr[k] : fr && g >= 0 && g < nf ? &fr[g] : NULL;   /* version 1: the frame's rows by number */
        if (q) {
            for (int i = 0; i < 4; i++) s[i] = pala_v(q->s[3 * i], q->s[3 * i + 1], q->s[3 * i + 2]);
            s[4] = s[5] = pala_v(0, 0, 0);
        }
        num[k] = g;
        if (t < 0 || t0 + t >= w->ntmpl) {
            snprintf(err, len, "%s/%s: grain %ld has no template: rerun the first scene", dir, var ? "trajectory" : PALA_CKPT_FILE, k + 1);
            free(fr); free(num);
            return -1;
        }
        int i = pala_world_add_grain(w, t0 + t, s[0], s[1], s[2], s[3]);
        w->acc[i] = s[4];
        w->bacc[i] = s[5];
        /* under this scene's walls: the centre inside them, no component deep in one */
        char deep[256];
        int in = pala_walls_inside(w, s[0], 0), cut = in && pala_place_deep(w, t0 + t, s[0], s[1], deep, sizeof deep);
        if (!in || cut) {   /* numbered as the run's output numbers it */
            if (!in) snprintf(deep, sizeof deep, "lies outside this scene's walls at (%g, %g, %g)", s[0].x, s[0].y, s[0].z);
            snprintf(err, len, "grain %d of the run of %s %s: give the scene walls that hold the run's grains", g + 1, dir, deep);
            free(fr); free(num);
            return -1;
        }
    }
    free(fr);
    if ((gid->count || var || nid > n) && nf > 0) {   /* the run's numbering (its input's, with the gaps of grains that left): grain k is number num[k] */
        int most = 0;
        for (long k = 0; k < nf; k++) most = num[k] >= most ? num[k] + 1 : most;
        if (var) nid = most;   /* a frame's: the numbers given by then (those of grains yet to come are not) */
        PALA_GROW(w->gid, w->cap);
        /* the run's table of numbers: a file's count, which the run itself had in memory */
        if (pala_world_number_room(w, (long)base + nid)) {
            snprintf(err, len, "%s/%s: the run numbered %d grains, and the table of their numbers (%.3g GB) does not fit in memory", dir,
                     PALA_CKPT_FILE, nid, ((double)base + nid) * sizeof(int) / 1e9);
            free(num);
            return -1;
        }
        for (int i = base; i < base + nid; i++) w->inv[i] = -1;
        for (long k = 0; k < nf; k++) {
            if (w->inv[base + num[k]] >= 0) {   /* each number once (each is in 0 .. nid - 1: frame_at, above) */
                snprintf(err, len, "%s/%s: its numbering of the grains is malformed: rerun the first scene", dir, var ? "trajectory" : PALA_CKPT_FILE);
                free(num);
                return -1;
            }
            w->gid[base + k] = base + num[k];
            w->inv[base + num[k]] = (int)(base + k);
        }
        w->nid = base + nid;
    }
    free(num);
    r->contacts = r->frame ? NULL : pala_ckfile_find(&r->c, "world.contacts");
    r->n = nf;
    return 0;
}

const char *pala_restart_contacts(pala_world *w, const pala_restart *r, int keep, char *note, size_t len)
{
    const pala_ckfield *f = r->contacts;
    if (r->frame) {
        snprintf(note, len, "the grains start from the frame of t = %.17g s (step %ld) of the run; a frame holds neither the "
                 "accelerations of a last step (they start at 0, as after placement) nor the contact history", r->t, r->step);
        return note;
    }
    if (!f || f->elem != sizeof(double) || f->count == 0) return NULL;
    if (!keep) { snprintf(note, len, "the run's contact history is dropped (start_contacts = drop)"); return note; }
    if (!pala_world_keeps_contacts(w)) {
        snprintf(note, len, "the run's contact history is dropped: this scene's contact laws keep none (no tangential, rolling or torsion spring)");
        return note;
    }
    double *d = pala_xrealloc(NULL, (size_t)f->count * sizeof *d);   /* copied out: the file's bytes need not be aligned */
    memcpy(d, f->data, (size_t)f->count * sizeof *d);
    int bad = pala_world_history_set(w, d, (long)f->count);
    free(d);
    if (!bad) return NULL;
    snprintf(note, len, "the run's contact history is dropped: it does not fit this scene (%s): other contact laws, or grains "
             "added beside the run's", pala_world_error(w));
    w->why[0] = 0;
    return note;
}

void pala_restart_free(pala_restart *r) { pala_ckfile_free(&r->c); }

/* view.c: `pala view RUN [-o FILE.html] [--every K] [--max-mb M] [--no-contacts]`: one
 * self-contained HTML file that replays a run offline, PaLa's replay (paper, section 8): the
 * grain templates once, the frames of trajectory.txt or trajectory.bin (position, rotation
 * vector, speed and angular speed of every grain, as float32 in base64), the run's contacts
 * at the frames' steps when it wrote them (contacts_every), time, step, E_total and dE_rel of each frame from
 * energy.tsv, the shapes of the walls; around them the page of src/cli/view/ (the style
 * page.css, the controls controls.html, the player player.js), embedded by the build as
 * view_page.h (src/cli/view/embed.sh).  Frames beyond --max-mb megabytes of frame data
 * (default 64) are decimated (every K-th kept, said on the command line and in the page).
 * docs/visualisation.md.
 *
 * The player: plain JavaScript, no external script, font or file.  It places each
 * component at c = x + r * b (paper, eq. 6) and draws it as a shaded sphere with its
 * surface's depth, or draws the paper's wire frames (section 8: a line from the centre of
 * mass to each component, three orthogonal radii per component).  It draws on the CPU by
 * default (a depth buffer in script: discs from a table by radius, lines with depth; put
 * on a 2D canvas as one image), which needs no graphics card and stays at 30 frames per
 * second with 10,000 grains where WebGL runs in software; or with WebGL (a point sprite
 * per sphere).  Anaglyph stereo draws the picture of each eye, shifted along the camera's
 * right vector, into the red and into the green and blue channels.  It colours the
 * grains by a field (type, speed, height, angular speed, coordination, grain number,
 * contact force) with a legend, clips them by a plane, draws the contact-force network (a
 * 2D canvas over the picture) and saves the view as a PNG.  The address may preset it
 * (docs/cli.md, "pala view"): #frame=K|last&colour=FIELD&clip=x|-x|y|-y|z|-z&cut=0..100&
 * network=1&png=1&stereo=anaglyph&style=wire&yaw=DEG&pitch=DEG&fov=DEG&eye=0..100&
 * renderer=webgl&play=1&bench=N (N frames drawn in a row, the mean time per frame put in
 * the body's data-pala attribute and the console, with the page's state). */
#include "commands.h"
#include "rundir.h"
#include "contacts.h"
#include "traj.h"
#include "tsv.h"
#include "view_page.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { NS = 8 };   /* float32 per grain and frame: x y z, rotation vector, speed, angular speed */

static void usage(FILE *f)
{
    fprintf(f,
        "usage: pala view RUN [-o FILE.html] [--every K] [--max-mb M] [--no-contacts]\n"
        "  RUN          a run folder (written by pala run)\n"
        "  -o FILE      the page to write (default RUN/view.html); it opens offline in any browser\n"
        "  --every K    every K-th frame of trajectory.txt (default 1)\n"
        "  --max-mb M   at most M megabytes of frame data (default 64): more frames are decimated\n"
        "  --no-contacts  leave out the run's contacts (contacts.tsv or .bin: the force network,\n"
        "               the colours by coordination and by force)\n"
        "docs: docs/visualisation.md\n");
}

/* a file of src/cli/view/ as embed.sh put it: its bytes, then a 0 that is not written */
static void page(FILE *f, const unsigned char *bytes, size_t size)
{
    fwrite(bytes, 1, size - 1, f);
}

/* ---- base64, streamed --------------------------------------------------------------- */
typedef struct b64 { FILE *f; unsigned char q[3]; int n; long col; } b64;
static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static void b64_put(b64 *s, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        s->q[s->n++] = p[i];
        if (s->n == 3) {
            char o[4] = {B64[s->q[0] >> 2], B64[((s->q[0] & 3) << 4) | (s->q[1] >> 4)], B64[((s->q[1] & 15) << 2) | (s->q[2] >> 6)], B64[s->q[2] & 63]};
            fwrite(o, 1, 4, s->f);
            s->n = 0;
        }
    }
}
static void b64_end(b64 *s)
{
    if (s->n == 0) return;
    unsigned char a = s->q[0], b = s->n > 1 ? s->q[1] : 0;
    char o[4] = {B64[a >> 2], B64[((a & 3) << 4) | (b >> 4)], s->n > 1 ? B64[(b & 15) << 2] : '=', '='};
    fwrite(o, 1, 4, s->f);
    s->n = 0;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\') fputc('\\', f);
        if (*s == '<') { fputs("\\u003c", f); continue; }   /* never "</script>" */
        if ((unsigned char)*s < 32) continue;
        fputc(*s, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.9g", v);
    else fputs("null", f);
}

/* A trajectory whose grains enter and leave (version 2): the grain numbers of all its frames
 * (*slots: the largest + 1), the template of each (stid, malloc'ed; 0 for a number in no
 * frame), the most grains of a frame; t is read through and opened again at its start.
 * Returns PALA_OK or the error of a malformed frame. */
static int number_slots(pala_traj *t, const char *run, int *slots, int *most, int **stid)
{
    int cap = 0, n = 0, m = 0, st;
    int *tid = NULL;
    while ((st = pala_traj_next(t, stderr)) == 1) {
        m = t->n > m ? t->n : m;
        for (int k = 0; k < t->n; k++) {
            int id = pala_traj_id(t, k);
            if (id >= cap) {
                int c = 2 * id + 64, *q = realloc(tid, (size_t)c * sizeof *q);
                if (!q) { fprintf(stderr, "pala view: out of memory\n"); exit(PALA_ERR_IO); }
                memset(q + cap, 0, (size_t)(c - cap) * sizeof *q);
                tid = q;
                cap = c;
            }
            tid[id] = t->tid[k];
            n = id + 1 > n ? id + 1 : n;
        }
    }
    pala_traj_close(t);
    if (st < 0 || pala_traj_open(t, run, stderr)) { free(tid); return PALA_ERR_INPUT; }
    *slots = n;
    *most = m;
    *stid = tid;
    return PALA_OK;
}

/* The contacts of the page's frames (steps[0..nf), a frame of the contact file at the same
 * step, else none): "chave" (1 where the frame has its contacts), "gfield" (base64 float32,
 * per frame and grain number: coordination and |sum of contact forces|, NaN without
 * contacts), "net" (base64 float32, per contact: i, ci, j, cj (-1 for a wall), |f| (N), the
 * contact point x y z), "noff" (each frame's first contact in net, and the end).  Two passes over the contact file (cf is opened again for the second). */
static void contacts_json(FILE *f, pala_cfile *cf, const char *run, const long *steps, long nf, int slots)
{
    double *z = malloc(sizeof *z * (size_t)(slots + 1)), *F = malloc(sizeof *F * (size_t)(slots + 1));
    float *g = malloc(sizeof *g * 2 * (size_t)(slots + 1));
    char *have = calloc((size_t)nf + 1, 1);
    long *off = calloc((size_t)nf + 1, sizeof *off);
    if (!z || !F || !g || !have || !off) { fprintf(stderr, "pala view: out of memory\n"); exit(PALA_ERR_IO); }
    for (int pass = 0; pass < 2; pass++) {
        fprintf(f, pass ? "\",\n\"net\": \"" : ",\n\"gfield\": \"");
        b64 enc = {f, {0, 0, 0}, 0, 0};
        long i = 0, total = 0;
        int st = cf->f ? 1 : 0;   /* the file could not be opened again: no contacts */
        while (i < nf) {
            if (st == 1 && (cf->n = 0, st = pala_cfile_next(cf, stderr)) != 1) cf->n = 0;   /* no more frames (or a cut one): none after */
            while (i < nf && (st != 1 || steps[i] <= cf->step)) {
                int here = st == 1 && steps[i] == cf->step;
                have[i] = (char)here;
                off[i] = total;
                if (pass == 0) {
                    if (here) pala_cfile_grain_fields(cf, slots, z, F);
                    for (int k = 0; k < slots; k++) { g[2 * k] = here ? (float)z[k] : NAN; g[2 * k + 1] = here ? (float)F[k] : NAN; }
                    b64_put(&enc, g, sizeof(float) * 2 * (size_t)slots);
                } else if (here) {
                    for (long q = 0; q < cf->n; q++) {
                        const pala_contact *c = &cf->c[q];
                        double fm = sqrt(c->fn * c->fn + pala_vdot(c->ft, c->ft));
                        const float r[8] = {(float)c->i, (float)c->ci, (float)c->j, (float)c->cj, (float)fm, (float)c->x.x, (float)c->x.y, (float)c->x.z};
                        b64_put(&enc, r, sizeof r);
                    }
                    total += cf->n;
                }
                i++;
                if (here) break;
            }
        }
        off[nf] = total;
        b64_end(&enc);
        pala_cfile_close(cf);
        if (!pass && pala_cfile_open(cf, run, stderr) != PALA_OK) pala_cfile_close(cf);
    }
    fprintf(f, "\",\n\"chave\": [");
    for (long i = 0; i < nf; i++) fprintf(f, "%s%d", i ? "," : "", have[i]);
    fprintf(f, "],\n\"noff\": [");
    for (long i = 0; i <= nf; i++) fprintf(f, "%s%ld", i ? "," : "", off[i]);
    fputc(']', f);
    free(z); free(F); free(g); free(have); free(off);
}

int pala_cmd_view(int argc, char **argv)
{
    const char *run = NULL, *out = NULL;
    long every = 1;
    double maxmb = 64;
    int use_contacts = 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        char *e = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        else if (!strcmp(a, "-o") && more) out = argv[++i];
        else if (!strcmp(a, "--no-contacts")) use_contacts = 0;
        else if (!strcmp(a, "--every") && more) {
            every = strtol(argv[++i], &e, 10);
            if (*e || every < 1) { fprintf(stderr, "pala view: --every '%s': expected a whole number of frames >= 1\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (!strcmp(a, "--max-mb") && more) {
            maxmb = strtod(argv[++i], &e);
            if (*e || !(maxmb > 0)) { fprintf(stderr, "pala view: --max-mb '%s': expected a size in megabytes > 0\n", argv[i]); return PALA_ERR_INPUT; }
        } else if (a[0] == '-') { fprintf(stderr, "pala view: unknown option or missing value: '%s'\n", a); usage(stderr); return PALA_ERR_INPUT; }
        else if (!run) run = a;
        else { fprintf(stderr, "pala view: one run only (got '%s' and '%s')\n", run, a); return PALA_ERR_INPUT; }
    }
    if (!run) { fprintf(stderr, "pala view: which run? e.g. pala view paper-ten-grains.run\n"); usage(stderr); return PALA_ERR_INPUT; }
    if (out && pala_refuse_result(out, "view", "view.html", stderr)) return PALA_ERR_INPUT;
    pala_traj t;
    int rc = pala_traj_open(&t, run, stderr);
    if (rc) { pala_traj_close(&t); return rc; }
    char dir[4096], path[4200], name[4096];
    pala_traj_rundir(run, dir, sizeof dir);
    long total = pala_traj_count(&t);
    if (total == 0) { fprintf(stderr, "pala view: %s holds no frame yet: nothing to replay\n", t.path); pala_traj_close(&t); return PALA_ERR_INPUT; }
    /* grains that enter and leave: the page has a place for every grain number of the run
     * (a first pass over the frames finds them and their templates); a grain not in a frame is
     * NaN there */
    int slots = t.n, most = t.n, *stid = NULL;
    if (t.variable && (rc = number_slots(&t, run, &slots, &most, &stid))) { pala_traj_close(&t); return rc; }
    /* the contacts, if the run wrote them: the force network and the fields by contact */
    pala_cfile cf;
    int have_c = use_contacts && pala_cfile_open(&cf, run, NULL) == PALA_OK;
    char cpath[4200] = "";
    if (have_c) snprintf(cpath, sizeof cpath, "%s", cf.path);
    /* decimation: the frame data as base64 of float32, NS per grain (2 more with contacts;
     * the network's 8 per contact come on top) */
    double per = (NS + 2.0 * have_c) * 4.0 * 4.0 / 3.0 * (double)slots;
    if (per > maxmb * 1e6) {   /* not even one frame fits: the limit cannot be kept */
        fprintf(stderr, "pala view: --max-mb %g is less than one frame of this run (%.3g MB for %d grain slots); give at least --max-mb %.3g\n",
                maxmb, per / 1e6, slots, per / 1e6);
        free(stid);
        if (have_c) pala_cfile_close(&cf);
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    long need = (long)ceil((double)total * per / (maxmb * 1e6));   /* at most total: a long */
    int decimated = need > every;
    if (decimated) every = need;
    long nsel = total > 0 ? (total - 1) / every + 1 : 0;
    /* energy.tsv: E_total and dE_rel of each frame's step */
    pala_tsv e;
    snprintf(path, sizeof path, "%s/energy.tsv", dir);
    int have_e = 0, cs = -1, ce = -1, cd = -1;
    FILE *probe = pala_fopen(path, "r");
    if (!probe && errno != ENOENT) {   /* a link or a device in place of energy.tsv */
        fprintf(stderr, "pala view: cannot read %s: %s\n", path, pala_strerror(errno));
        pala_traj_close(&t);
        return PALA_ERR_INPUT;
    }
    if (probe) {
        fclose(probe);
        have_e = pala_tsv_read(&e, path, PALA_TSV_NUMERIC, stderr) == PALA_OK;
        if (have_e) { cs = pala_tsv_col(&e, "step"); ce = pala_tsv_col(&e, "E_total"); cd = pala_tsv_col(&e, "dE_rel"); }
        if (have_e && (cs < 0 || ce < 0 || cd < 0)) { pala_tsv_free(&e); have_e = 0; }
    }
    if (out) snprintf(path, sizeof path, "%s", out);
    else snprintf(path, sizeof path, "%s/view.html", dir);
    FILE *f = pala_fopen(path, "w");
    if (!f) {
        fprintf(stderr, "pala view: cannot write %s: %s\n", path, pala_strerror(errno));
        if (have_e) pala_tsv_free(&e);
        pala_traj_close(&t);
        return PALA_ERR_IO;
    }
    /* the run's name: the folder's last part */
    {
        size_t l = strlen(dir);
        while (l > 1 && dir[l - 1] == '/') l--;
        const char *b = dir;
        for (size_t i = 0; i < l; i++) if (dir[i] == '/' && i + 1 < l) b = dir + i + 1;
        snprintf(name, sizeof name, "%.*s", (int)(l - (size_t)(b - dir)), b);
    }
    fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pala view: ");
    for (const char *c = name; *c; c++) {
        if (*c == '<') fputs("&lt;", f); else if (*c == '&') fputs("&amp;", f); else fputc(*c, f);
    }
    fprintf(f, "</title>\n<style>\n");
    page(f, pala_view_page_css, sizeof pala_view_page_css);
    fprintf(f, "</style>\n</head>\n<body>\n");
    page(f, pala_view_controls_html, sizeof pala_view_controls_html);
    /* the data */
    fprintf(f, "<script>\nvar PALA_DATA = {\"name\": ");
    json_str(f, name);
    /* the walls as the shapes they are drawn with (traj.h), which the page draws knowing no
     * kind: {"shape": "box", "p": [lo, hi]} (an infinite coordinate, a 2D box's z, as 0),
     * {"shape": "sphere", "p": [centre], "r": R}, {"shape": "quad", "p": [four corners]}, with
     * "guide": 1 for an outline of a wall */
    fprintf(f, ", \"dim\": %d, \"walls\": [", t.dim);
    pala_draw sh[PALA_TRAJ_SHAPES];
    int nsh = pala_traj_shapes(&t, sh, PALA_TRAJ_SHAPES);
    for (int i = 0; i < nsh; i++) {
        static const char *const shape[] = {[PALA_DRAW_BOX] = "box", [PALA_DRAW_SPHERE] = "sphere", [PALA_DRAW_QUAD] = "quad"};
        int np = sh[i].shape == PALA_DRAW_BOX ? 2 : sh[i].shape == PALA_DRAW_SPHERE ? 1 : 4;
        fprintf(f, "%s{\"shape\": \"%s\"%s, \"p\": [", i ? ", " : "", shape[sh[i].shape], sh[i].guide ? ", \"guide\": 1" : "");
        for (int j = 0; j < np; j++) {
            const double q[3] = {sh[i].p[j].x, sh[i].p[j].y, sh[i].p[j].z};
            fprintf(f, "%s[", j ? "," : "");
            for (int a = 0; a < 3; a++) { if (a) fputc(',', f); json_num(f, isfinite(q[a]) ? q[a] : 0); }
            fputc(']', f);
        }
        fputc(']', f);
        if (sh[i].shape == PALA_DRAW_SPHERE) { fprintf(f, ", \"r\": "); json_num(f, sh[i].r); }
        fputc('}', f);
    }
    fprintf(f, "],\n\"templates\": [");
    int *tcol = pala_traj_name_colours(&t);   /* a colour per name: the shapes of a random type share theirs */
    for (int i = 0; i < t.ntmpl; i++) {
        fprintf(f, "%s{\"name\": ", i ? ",\n" : "");
        json_str(f, t.tname[i]);
        fprintf(f, ", \"colour\": %d, \"comp\": [", tcol[i]);
        for (int c = t.comp0[i]; c < t.comp0[i] + t.ncomp[i]; c++) {
            fprintf(f, "%s[", c > t.comp0[i] ? "," : "");
            json_num(f, t.shape[c].x); fputc(',', f); json_num(f, t.shape[c].y); fputc(',', f); json_num(f, t.shape[c].z); fputc(',', f); json_num(f, t.srad[c]);
            if (pala_traj_is_arc(&t, c)) {   /* an arc: its ends' directions, the page draws the outline */
                fputc(',', f); json_num(f, t.sarc[2 * c]); fputc(',', f); json_num(f, t.sarc[2 * c + 1]);
            }
            fputc(']', f);
        }
        fprintf(f, "]}");
    }
    free(tcol);
    fprintf(f, "],\n\"tid\": [");
    for (int k = 0; k < slots; k++) fprintf(f, "%s%d", k ? "," : "", stid ? stid[k] : t.tid[k]);
    fprintf(f, "],\n\"state\": \"");
    /* the frames, streamed */
    b64 enc = {f, {0, 0, 0}, 0, 0};
    long *steps = malloc(sizeof(long) * (size_t)(nsel + 1));
    double *times = malloc(sizeof(double) * (size_t)(nsel + 1));
    float *buf = malloc(sizeof(float) * NS * (size_t)(slots > 0 ? slots : 1));
    if (!steps || !times || !buf) { fprintf(stderr, "pala view: out of memory\n"); exit(PALA_ERR_IO); }
    long got = 0;
    double vmax = 0;
    pala_vec3 lo = pala_v(0, 0, 0), hi = pala_v(1, 1, 1);
    int st, framed = 0;
    while ((st = pala_traj_next(&t, stderr)) == 1) {
        if (!framed && (t.n > 0 || t.frames == total)) { pala_traj_bounds(&t, &lo, &hi); framed = 1; }   /* the first frame with grains */
        if ((t.frames - 1) % every || got >= nsel) continue;
        for (int k = 0; t.variable && k < NS * slots; k++) buf[k] = NAN;
        for (int k = 0; k < t.n; k++) {
            double sp = sqrt(pala_vdot(t.v[k], t.v[k]));
            vmax = fmax(vmax, sp);
            float *q = buf + NS * pala_traj_id(&t, k);
            q[0] = (float)t.x[k].x; q[1] = (float)t.x[k].y; q[2] = (float)t.x[k].z;
            q[3] = (float)t.r[k].x; q[4] = (float)t.r[k].y; q[5] = (float)t.r[k].z; q[6] = (float)sp;
            q[7] = (float)sqrt(pala_vdot(t.w[k], t.w[k]));
        }
        b64_put(&enc, buf, sizeof(float) * NS * (size_t)slots);   /* little-endian float32, as the browser reads it */
        steps[got] = t.step;
        times[got++] = t.time;
    }
    b64_end(&enc);
    fprintf(f, "\",\n\"ns\": %d", NS);
    if (have_c) contacts_json(f, &cf, run, steps, got, slots);
    fprintf(f, ",\n\"step\": [");
    for (long i = 0; i < got; i++) fprintf(f, "%s%ld", i ? "," : "", steps[i]);
    fprintf(f, "],\n\"time\": [");
    for (long i = 0; i < got; i++) { if (i) fputc(',', f); fprintf(f, "%.17g", times[i]); }
    /* E_total and dE_rel of the row of the frame's step (or the last row before it) */
    fprintf(f, "],\n\"E\": [");
    long r = 0;
    for (long i = 0; i < got; i++) {
        if (i) fputc(',', f);
        if (!have_e) { fputs("null", f); continue; }
        while (r + 1 < e.nrow && e.num[(r + 1) * e.ncol + cs] <= (double)steps[i]) r++;
        json_num(f, e.nrow > 0 && e.num[r * e.ncol + cs] <= (double)steps[i] ? e.num[r * e.ncol + ce] : (double)NAN);
    }
    fprintf(f, "],\n\"dE\": [");
    r = 0;
    for (long i = 0; i < got; i++) {
        if (i) fputc(',', f);
        if (!have_e) { fputs("null", f); continue; }
        while (r + 1 < e.nrow && e.num[(r + 1) * e.ncol + cs] <= (double)steps[i]) r++;
        json_num(f, e.nrow > 0 && e.num[r * e.ncol + cs] <= (double)steps[i] ? e.num[r * e.ncol + cd] : (double)NAN);
    }
    fprintf(f, "],\n\"vmax\": ");
    json_num(f, vmax);
    fprintf(f, ", \"every\": %ld, \"frames_total\": %ld, \"lo\": [", every, total);
    json_num(f, lo.x); fputc(',', f); json_num(f, lo.y); fputc(',', f); json_num(f, t.dim == 2 ? 0 : lo.z);
    fprintf(f, "], \"hi\": [");
    json_num(f, hi.x); fputc(',', f); json_num(f, hi.y); fputc(',', f); json_num(f, t.dim == 2 ? 0 : hi.z);
    fprintf(f, "]};\n</script>\n");
    fprintf(f, "<script>\n");
    page(f, pala_view_player_js, sizeof pala_view_player_js);
    fprintf(f, "</script>\n</body>\n</html>\n");
    int bad = ferror(f) != 0;
    bad |= fclose(f) != 0;
    int werrno = errno ? errno : EIO;   /* the write's, before the frees below */
    free(steps); free(times); free(buf); free(stid);
    if (have_c) pala_cfile_close(&cf);
    if (have_e) pala_tsv_free(&e);
    if (st < 0) { pala_traj_close(&t); return PALA_ERR_INPUT; }
    if (bad) { fprintf(stderr, "pala view: writing %s failed: %s\n", path, strerror(werrno)); pala_traj_close(&t); return PALA_ERR_IO; }
    if (t.variable) printf("pala view: %ld of %ld frames, %d grains came and went (at most %d at once) -> %s\n", got, total, slots, most, path);
    else printf("pala view: %ld of %ld frames, %d grains, %ld spheres -> %s\n", got, total, t.n, t.npeb, path);
    if (have_c) printf("pala view: with the contacts of %s: the force network, colours by coordination and by force\n", cpath);
    if (decimated) printf("pala view: one frame in %ld kept: %ld frames of %d grains exceed --max-mb %g\n", every, total, slots, maxmb);
    pala_traj_close(&t);
    return PALA_OK;
}

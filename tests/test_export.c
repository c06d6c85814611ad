/* test_export.c: `pala export` read back by a reader of its own.  The test reads
 * trajectory.txt itself, computes every component centre from the grain's position and
 * rotation vector with its own copy of eq. (6) (it does not trust src/cli/traj.c), and
 * compares the extended XYZ and the VTK files with it: every centre to 1e-12 relative
 * (|a - b| <= 1e-12 (|b| + the component's radius)), every radius and grain index
 * exactly, the velocities v + w x (c - x) likewise.  Then real VTK (python3-vtk9) loads
 * the .vtp files: point count, radius range and bounds; without it, those checks are
 * skipped and say what to install. */
#include "t.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

void test_export(void);

#define DIR "build/tmp/export"

typedef struct ref {
    int ntmpl, ncomp[64], comp0[64], nshape;
    double b[4096][4];       /* bx by bz radius */
    int n, tid[4096];
    int nframes;
    long step[512];
    double st[512][64][12];  /* frames x grains x state (small scenes only) */
} ref;

static int read_ref(const char *path, ref *R)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[4096];
    int ok = 0;
    memset(R, 0, sizeof *R);
    while (!ok && fgets(line, sizeof line, f)) ok = sscanf(line, "templates %d", &R->ntmpl) == 1;
    ok = ok && R->ntmpl > 0 && R->ntmpl <= 64;
    for (int t = 0; ok && t < R->ntmpl; t++) {
        ok = fgets(line, sizeof line, f) && sscanf(line, "template %*d %*s ncomp %d", &R->ncomp[t]) == 1;
        R->comp0[t] = R->nshape;
        for (int i = 0; ok && i < R->ncomp[t]; i++, R->nshape++) {
            double *b = R->b[R->nshape];
            ok = R->nshape < 4096 && fgets(line, sizeof line, f) && sscanf(line, "%lf %lf %lf %lf", b, b + 1, b + 2, b + 3) == 4;
        }
    }
    ok = ok && fscanf(f, " grains %d", &R->n) == 1 && R->n > 0 && R->n <= 64;
    for (int k = 0; ok && k < R->n; k++) ok = fscanf(f, "%d", &R->tid[k]) == 1;
    while (ok && R->nframes < 512 && fscanf(f, " frame %ld %*f", &R->step[R->nframes]) == 1) {
        for (int k = 0; ok && k < R->n; k++)
            for (int c = 0; ok && c < 12; c++) ok = fscanf(f, "%lf", &R->st[R->nframes][k][c]) == 1;
        R->nframes++;
    }
    fclose(f);
    return ok && R->nframes > 0 ? 0 : -1;
}

/* r * b = ((1 - r.r) b + 2 (r.b) r + 2 r x b) / (1 + r.r)   (paper, eq. 6) */
static void centre(const double *s, const double *b, double *c, double *u)
{
    const double *x = s, *r = s + 3, *v = s + 6, *w = s + 9;
    double rr = r[0] * r[0] + r[1] * r[1] + r[2] * r[2], rb = r[0] * b[0] + r[1] * b[1] + r[2] * b[2];
    double rxb[3] = {r[1] * b[2] - r[2] * b[1], r[2] * b[0] - r[0] * b[2], r[0] * b[1] - r[1] * b[0]};
    double d[3];
    for (int k = 0; k < 3; k++) {
        d[k] = ((1 - rr) * b[k] + 2 * rb * r[k] + 2 * rxb[k]) / (1 + rr);
        c[k] = x[k] + d[k];
    }
    double wxd[3] = {w[1] * d[2] - w[2] * d[1], w[2] * d[0] - w[0] * d[2], w[0] * d[1] - w[1] * d[0]};
    for (int k = 0; k < 3; k++) u[k] = v[k] + wxd[k];
}

static int close12(double a, double b, double scale) { return fabs(a - b) <= 1e-12 * (fabs(b) + scale); }

/* The extended XYZ against the reference: returns the number of mismatching values. */
static long check_xyz(const char *path, const ref *R, int *frames, double *worst)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    long badv = 0;
    char line[4096];
    *frames = 0;
    *worst = 0;
    int np;
    while (fgets(line, sizeof line, f) && sscanf(line, "%d", &np) == 1) {
        if (!fgets(line, sizeof line, f)) { badv++; break; }
        const char *st = strstr(line, " Step=");
        long step = st ? strtol(st + 6, NULL, 10) : -1;
        int fr = -1;
        for (int i = 0; i < R->nframes; i++) if (R->step[i] == step) fr = i;
        if (fr < 0) { badv++; break; }
        int p = 0;
        for (int k = 0; k < R->n; k++)
            for (int i = 0; i < R->ncomp[R->tid[k]]; i++, p++) {
                const double *b = R->b[R->comp0[R->tid[k]] + i];
                double c[3], u[3], q[3], rad, vel[3];
                int g, ty;
                if (!fgets(line, sizeof line, f) ||
                    sscanf(line, "%*s %lf %lf %lf %lf %d %d %lf %lf %lf", q, q + 1, q + 2, &rad, &g, &ty, vel, vel + 1, vel + 2) != 9) { badv++; continue; }
                centre(R->st[fr][k], b, c, u);
                double cn = sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
                for (int a = 0; a < 3; a++) {
                    badv += !close12(q[a], c[a], b[3]);
                    if (fabs(q[a] - c[a]) / (cn + b[3]) > *worst) *worst = fabs(q[a] - c[a]) / (cn + b[3]);
                    double un = fabs(u[0]) + fabs(u[1]) + fabs(u[2]);
                    badv += !close12(vel[a], u[a], un);
                }
                badv += rad != b[3] || g != k || ty != R->tid[k];
            }
        badv += p != np;
        (*frames)++;
    }
    fclose(f);
    return badv;
}

/* The numbers of one DataArray named name in a .vtp (ASCII); returns how many. */
static long vtp_array(const char *path, const char *name, double *out, long max)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char line[4096], key[128];
    snprintf(key, sizeof key, "Name=\"%s\"", name);
    long n = 0;
    int in = 0;
    while (fgets(line, sizeof line, f)) {
        if (!in) { in = strstr(line, "<DataArray") && strstr(line, key); continue; }
        if (strstr(line, "</DataArray>")) break;
        char *e = line;
        for (;;) {
            char *e2;
            double v = strtod(e, &e2);
            if (e2 == e) break;
            if (n < max) out[n] = v;
            n++;
            e = e2;
        }
    }
    fclose(f);
    return n;
}

/* spheres_STEP.vtp of every frame against the reference */
static long check_vtk(const char *dir, const ref *R, int *frames)
{
    long badv = 0;
    static double pts[3 * 4096], rad[4096], gr[4096];
    *frames = 0;
    for (int fr = 0; fr < R->nframes; fr++) {
        char path[700];
        snprintf(path, sizeof path, "%s/spheres_%06ld.vtp", dir, R->step[fr]);
        long np = vtp_array(path, "centre", pts, 3 * 4096), nr = vtp_array(path, "radius", rad, 4096), ng = vtp_array(path, "grain", gr, 4096);
        if (np < 0) continue;   /* a frame left out by --every */
        int p = 0;
        for (int k = 0; k < R->n; k++)
            for (int i = 0; i < R->ncomp[R->tid[k]]; i++, p++) {
                const double *b = R->b[R->comp0[R->tid[k]] + i];
                double c[3], u[3];
                centre(R->st[fr][k], b, c, u);
                for (int a = 0; a < 3; a++) badv += 3 * p + a >= np || !close12(pts[3 * p + a], c[a], b[3]);
                badv += p >= nr || rad[p] != b[3] || p >= ng || gr[p] != k;
            }
        badv += np != 3 * p;
        (*frames)++;
    }
    return badv;
}

/* Run a scene, export it both ways, compare; then real VTK on its files. */
static void round_trip(const char *name, const char *scene, const char *sets, const char *vtkpy)
{
    char out[8192], run[256], path[512];
    snprintf(run, sizeof run, DIR "/%s.run", name);
    int rc = t_sh(out, sizeof out, "./pala run %s -o %s --force --quiet %s && ./pala export %s --format xyz && ./pala export %s --format vtk --every 2",
                  scene, run, sets, run, run);
    T_CHECK(rc == 0, "%s: run and both exports exit 0 (%d) %s", name, rc, out);
    static ref R;
    snprintf(path, sizeof path, "%s/trajectory.txt", run);
    if (read_ref(path, &R) != 0) { T_CHECK(0, "%s: the test reads %s", name, path); return; }
    int frames = 0;
    double worst = 0;
    snprintf(path, sizeof path, "%s/trajectory.xyz", run);
    long b = check_xyz(path, &R, &frames, &worst);
    T_CHECK(b == 0 && frames == R.nframes, "%s: trajectory.xyz: %d of %d frames, every centre, radius, grain, type and velocity as computed from trajectory.txt (%ld mismatches; worst centre deviation %.2g relative)",
            name, frames, R.nframes, b, worst);
    snprintf(path, sizeof path, "%s/vtk", run);
    b = check_vtk(path, &R, &frames);
    T_CHECK(b == 0 && frames == (R.nframes + 1) / 2, "%s: vtk/spheres_*.vtp (--every 2): %d frames (want %d), every centre, radius and grain (%ld mismatches)",
            name, frames, (R.nframes + 1) / 2, b);

    /* the last exported frame in real VTK: count, radius range and bounds against the test's own */
    int last = ((R.nframes - 1) / 2) * 2;
    long np = 0;
    double rmin = HUGE_VAL, rmax = 0, lo[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, hi[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
    for (int k = 0; k < R.n; k++)
        for (int i = 0; i < R.ncomp[R.tid[k]]; i++, np++) {
            const double *bb = R.b[R.comp0[R.tid[k]] + i];
            double c[3], u[3];
            centre(R.st[last][k], bb, c, u);
            rmin = fmin(rmin, bb[3]);
            rmax = fmax(rmax, bb[3]);
            for (int a = 0; a < 3; a++) { lo[a] = fmin(lo[a], c[a]); hi[a] = fmax(hi[a], c[a]); }
        }
    if (!vtkpy) {
        t_skip("VTK: the .vtp files were not loaded in real VTK: no python3 with the vtk module; install python3-vtk9 (apt-get install python3-vtk9)");
        return;
    }
    rc = t_sh(out, sizeof out,
              "%s -c \"import vtk, sys\n"
              "r = vtk.vtkXMLPolyDataReader(); r.SetFileName(sys.argv[1]); r.Update(); p = r.GetOutput()\n"
              "a = p.GetPointData().GetArray('radius').GetRange()\n"
              "print(p.GetNumberOfPoints(), repr(a[0]), repr(a[1]), *[repr(v) for v in p.GetBounds()])\n"
              "c = vtk.vtkXMLPolyDataReader(); c.SetFileName(sys.argv[2]); c.Update()\n"
              "print(c.GetOutput().GetNumberOfPoints(), c.GetOutput().GetNumberOfCells())\" %s/vtk/spheres_%06ld.vtp %s/vtk/container.vtp",
              vtkpy, run, R.step[last], run);
    long vn = -1, cn = -1, cc = -1;
    double vr0 = 0, vr1 = 0, bd[6] = {0};
    int got = sscanf(out, "%ld %lf %lf %lf %lf %lf %lf %lf %lf %ld %ld", &vn, &vr0, &vr1, bd, bd + 1, bd + 2, bd + 3, bd + 4, bd + 5, &cn, &cc);
    int ok = rc == 0 && got == 11 && vn == np && vr0 == rmin && vr1 == rmax && cn > 0 && cc > 0;
    for (int a = 0; a < 3; a++) ok = ok && close12(bd[2 * a], lo[a], rmax) && close12(bd[2 * a + 1], hi[a], rmax);
    T_CHECK(ok, "%s: VTK (%s) loads spheres_%06ld.vtp: %ld points (want %ld), radius %g..%g (want %g..%g), bounds as computed; container.vtp %ld points %ld cells (exit %d) %s",
            name, vtkpy, R.step[last], vn, np, vr0, vr1, rmin, rmax, cn, cc, rc, out);
}

void test_export(void)
{
    t_sh(NULL, 0, "rm -rf " DIR " && mkdir -p " DIR);
    char py[256] = "";
    t_sh(py, sizeof py, "for p in python3 /usr/bin/python3; do $p -c 'import vtk' >/dev/null 2>&1 && echo $p && break; done");
    py[strcspn(py, "\n")] = 0;
    round_trip("ten", "examples/paper-ten-grains.txt", "--set end_time=0.004 --set trajectory_every=400", py[0] ? py : NULL);
    round_trip("hopper2d", "examples/2d-hopper.txt", "--set end_time=0.05 --set trajectory_every=500", py[0] ? py : NULL);

    /* the exports written during a run are those of pala export, byte for byte */
    char out[4096];
    int rc = t_sh(out, sizeof out, "./pala run examples/paper-ten-grains.txt -o " DIR "/during --quiet --set end_time=0.004 --set trajectory_every=400 "
                  "--set xyz_every=400 --set vtk_every=400 && "
                  "./pala export " DIR "/during --format xyz -o " DIR "/during.xyz && ./pala export " DIR "/during --format vtk -o " DIR "/during-vtk && "
                  "cmp " DIR "/during.xyz " DIR "/during/trajectory.xyz && diff -r " DIR "/during-vtk " DIR "/during/vtk && echo same");
    T_CHECK(rc == 0 && strstr(out, "same"), "xyz_every and vtk_every write what pala export writes (exit %d) %s", rc, out);
    /* ... and those are the run's logs, which pala resume appends to: export does not replace them */
    rc = t_sh(out, sizeof out, "cp " DIR "/during/trajectory.xyz " DIR "/during.keep && ./pala export " DIR "/during --format xyz; e=$?; "
                  "./pala export " DIR "/during --format vtk; f=$?; cmp " DIR "/during.keep " DIR "/during/trajectory.xyz && echo kept $e $f");
    T_CHECK(strstr(out, "kept 1 1") && strstr(out, "the run's own extended XYZ log") && strstr(out, "the run's own VTK log") && strstr(out, "-o "),
            "export onto a run's own xyz or vtk log: refused (exit 1), the log kept, -o suggested: %s", out);
    /* ... nor another run's (A's frames exported into B's folder replaced B's logs) */
    rc = t_sh(out, sizeof out, "./pala run examples/paper-ten-grains.txt -o " DIR "/other --quiet --set end_time=0.002 --set trajectory_every=400 && "
                  "./pala export " DIR "/other --format xyz -o " DIR "/during/trajectory.xyz; e=$?; ./pala export " DIR "/other --format vtk -o " DIR "/during/vtk/; f=$?; "
                  "cmp " DIR "/during.keep " DIR "/during/trajectory.xyz && echo kept $e $f");
    T_CHECK(strstr(out, "kept 1 1") && strstr(out, "the other run's own extended XYZ log") && strstr(out, "the other run's own VTK log"),
            "export onto another run's xyz or vtk log: refused (exit 1), the log kept: %s", out);

    rc = t_sh(out, sizeof out, "./pala export " DIR "/nothing --format xyz");
    T_CHECK(rc == 1 && strstr(out, "cannot read"), "export of a missing run: exit 1 and says so (%d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala export " DIR "/ten.run --format pdb");
    T_CHECK(rc == 1 && strstr(out, "expected xyz"), "export --format pdb: exit 1, names the formats (%d) %s", rc, out);
    t_write(DIR "/bad.txt", "# pala trajectory 1\ndimension 3\ntemplates 1\ntemplate 0 a ncomp 1 mass 1\n0 0 0 1\ngrains 1\n0\nframe 0 0\n1 2 3\n");
    rc = t_sh(out, sizeof out, "./pala export " DIR "/bad.txt --format xyz -o " DIR "/bad.xyz");
    T_CHECK(rc == 1 && strstr(out, "bad.txt:9:"), "a truncated frame: exit 1 with file:line (%d) %s", rc, out);
    t_write(DIR "/empty.txt", "");
    rc = t_sh(out, sizeof out, "./pala export " DIR "/empty.txt --format xyz -o " DIR "/empty.xyz");
    T_CHECK(rc == 1 && strstr(out, "empty.txt: the file is empty") && !strstr(out, ":0:"), "an empty trajectory: exit 1, no line 0 (%d) %s", rc, out);
}

/* trajectory_format = binary: trajectory.bin read by the test's own reader of the layout
 * of docs/output-formats.md.  Its header is trajectory.txt's, byte for byte; every frame's
 * step, time and 12 numbers per grain equal the text's bit for bit (%.17g prints a double
 * so that it reads back exactly, so the text is the state); the exports of the two runs
 * are the same bytes and match the text's centres to 1e-12; a resumed binary run equals
 * one run; a cut file is refused with exit 1, never a crash. */
void test_trajbin(void);

static unsigned long long le(const unsigned char *p, int n)
{
    unsigned long long v = 0;
    for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i];
    return v;
}

static void bin_vs_text(const char *name, const char *scene, const char *sets)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./pala run %s -o " DIR "/%s.t --quiet %s && ./pala run %s -o " DIR "/%s.b --quiet %s --set trajectory_format=binary && "
                  "cmp " DIR "/%s.t/energy.tsv " DIR "/%s.b/energy.tsv && cmp " DIR "/%s.t/walls.tsv " DIR "/%s.b/walls.tsv && ls " DIR "/%s.b",
                  scene, name, sets, scene, name, sets, name, name, name, name, name);
    T_CHECK(rc == 0 && strstr(out, "trajectory.bin") && !strstr(out, "trajectory.txt"),
            "%s: trajectory_format = binary writes trajectory.bin and no trajectory.txt; energy.tsv and walls.tsv as in text (exit %d) %s", name, rc, out);
    char p[256];
    snprintf(p, sizeof p, DIR "/%s.b/trajectory.bin", name);
    FILE *f = fopen(p, "rb");
    long len = 0;
    unsigned char *b = NULL;
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 24 && (b = malloc((size_t)len)) && fseek(f, 0, SEEK_SET) == 0)
        len = (long)fread(b, 1, (size_t)len, f);
    if (f) fclose(f);
    snprintf(p, sizeof p, DIR "/%s.t/trajectory.txt", name);
    FILE *tx = fopen(p, "r");
    static ref R;
    int ok = b && tx && read_ref(p, &R) == 0;
    T_CHECK(ok, "%s: both trajectories are read", name);
    if (!ok) { free(b); if (tx) fclose(tx); return; }
    unsigned ver = (unsigned)le(b + 8, 4), n = (unsigned)le(b + 12, 4);
    unsigned long long hl = le(b + 16, 8);
    T_CHECK(!memcmp(b, "PALATRAJ", 8) && ver == 1 && n == (unsigned)R.n && 24 + hl <= (unsigned long long)len,
            "%s: magic PALATRAJ, version %u, %u grains (text: %d), header of %llu bytes", name, ver, n, R.n, hl);
    /* the header: trajectory.txt's lines before the first frame */
    char *txt = malloc((size_t)hl + 1);
    size_t got = fread(txt, 1, (size_t)hl, tx);
    int next = fgetc(tx);
    ungetc(next, tx);
    T_CHECK(got == hl && memcmp(txt, b + 24, (size_t)hl) == 0 && next == 'f',
            "%s: the binary header is trajectory.txt's header byte for byte", name);
    free(txt);
    /* the frames: step, time, and the 12 numbers of each grain, bit for bit */
    long fsz = 16 + 96L * R.n, nf = ((long)(len - 24 - (long)hl)) / fsz, diff = 0;
    const unsigned char *q = b + 24 + hl;
    char line[512];
    for (long fr = 0; fr < nf && fr < R.nframes; fr++, q += fsz) {
        long step = (long)le(q, 8);
        double tb, tt = -1;
        unsigned long long u = le(q + 8, 8);
        memcpy(&tb, &u, 8);
        while (fgets(line, sizeof line, tx) && sscanf(line, "frame %*d %lf", &tt) != 1) {}
        diff += step != R.step[fr] || memcmp(&tb, &tt, 8) != 0;
        for (int k = 0; k < R.n; k++)
            for (int c = 0; c < 12; c++) {
                double v;
                u = le(q + 16 + 96 * k + 8 * c, 8);
                memcpy(&v, &u, 8);
                diff += memcmp(&v, &R.st[fr][k][c], 8) != 0;
            }
    }
    fclose(tx);
    free(b);
    T_CHECK(nf == R.nframes && (24 + (long)hl + nf * fsz) == len && diff == 0,
            "%s: %ld binary frames of %ld bytes (text: %d frames), %ld values differ from the text's in any bit", name, nf, fsz, R.nframes, diff);
    /* the exports of both runs */
    rc = t_sh(out, sizeof out, "./pala export " DIR "/%s.b --format xyz && ./pala export " DIR "/%s.t --format xyz && cmp " DIR "/%s.b/trajectory.xyz " DIR "/%s.t/trajectory.xyz && "
              "./pala export " DIR "/%s.b --format vtk -o " DIR "/%s.bv && ./pala export " DIR "/%s.t --format vtk -o " DIR "/%s.tv && diff -r " DIR "/%s.bv " DIR "/%s.tv && "
              "./pala snapshot " DIR "/%s.b -o " DIR "/%s.b.svg && ./pala snapshot " DIR "/%s.t -o " DIR "/%s.t.svg && cmp " DIR "/%s.b.svg " DIR "/%s.t.svg && "
              "./pala view " DIR "/%s.b -o " DIR "/%s.b.html",
              name, name, name, name, name, name, name, name, name, name, name, name, name, name, name, name, name, name);
    int frames = 0;
    double worst = 0;
    snprintf(p, sizeof p, DIR "/%s.b/trajectory.xyz", name);
    long badv = check_xyz(p, &R, &frames, &worst);
    T_CHECK(rc == 0 && badv == 0 && frames == R.nframes && strstr(out, "pala view: "),
            "%s: export (xyz, vtk), snapshot and view read trajectory.bin; the exports equal the text run's byte for byte; "
            "%d xyz frames against the text's centres: %ld mismatches, worst %.2g relative (exit %d) %s", name, frames, badv, worst, rc, out);
}

static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle)) n++;
    return n;
}

void test_trajbin(void)
{
    t_sh(NULL, 0, "rm -rf " DIR "/*.t " DIR "/*.b " DIR "/cut && mkdir -p " DIR "/cut");
    bin_vs_text("ten", "examples/paper-ten-grains.txt", "--set end_time=0.004 --set trajectory_every=400");
    bin_vs_text("hop", "examples/2d-hopper.txt", "--set end_time=0.05 --set trajectory_every=500");
    /* a resumed binary run: the same bytes as one run */
    char out[8192];
    int rc = t_sh(out, sizeof out, "S='examples/paper-ten-grains.txt --quiet --set trajectory_format=binary --set trajectory_every=50'; "
                  "./pala run $S --set steps=1234 -o " DIR "/res.b && ./pala resume " DIR "/res.b --quiet --set steps=3000 && "
                  "./pala run $S --set steps=3000 -o " DIR "/one.b && cmp " DIR "/res.b/trajectory.bin " DIR "/one.b/trajectory.bin && echo same");
    T_CHECK(rc == 0 && strstr(out, "same"), "a binary run of 1234 steps resumed to 3000 gives the trajectory.bin of one run of 3000 (exit %d) %s", rc, out);
    /* cut anywhere: never a crash; in the header or the first frame, exit 1 with the reason;
     * after whole frames (a run killed while writing, or still writing), those frames are
     * read, exit 0, and a warning says the last is cut off */
    long sizes[] = {3, 8, 20, 24, 100, 800, 0};
    rc = t_sh(out, sizeof out, "wc -c < " DIR "/ten.b/trajectory.bin");
    long full = strtol(out, NULL, 10);
    sizes[6] = full - 17;
    int fails = 0;
    for (int i = 0; i < 7; i++) {
        t_sh(NULL, 0, "head -c %ld " DIR "/ten.b/trajectory.bin > " DIR "/cut/trajectory.bin", sizes[i]);
        char o2[2048];
        int r1 = t_sh(o2, sizeof o2, "./pala export " DIR "/cut --format xyz -o " DIR "/cut/x.xyz 2>&1");
        int r2 = t_sh(o2 + strlen(o2), sizeof o2 - strlen(o2), "./pala snapshot " DIR "/cut -o " DIR "/cut/s.svg 2>&1");
        int r3 = t_sh(o2 + strlen(o2), sizeof o2 - strlen(o2), "./pala view " DIR "/cut -o " DIR "/cut/v.html 2>&1");
        int said = strstr(o2, "trajectory.bin") != NULL && (strstr(o2, "cut off") || strstr(o2, "ends") || strstr(o2, "truncated") || strstr(o2, "nothing to"));
        int whole = i == 6, want = whole ? 0 : 1;   /* 800 bytes: inside the first frame */
        if (r1 != want || r2 != want || r3 != want || !said || (whole && !strstr(o2, "the 10 frames before it are read"))) {
            fails++;
            T_CHECK(0, "trajectory.bin cut to %ld of %ld bytes: export, snapshot and view exit %d %d %d (want %d) and say why: %s", sizes[i], full, r1, r2, r3, want, o2);
        }
    }
    T_CHECK(fails == 0, "trajectory.bin cut to 3, 8, 20, 24, 100 and 800 of %ld bytes: export, snapshot and view exit 1 and say why; to %ld, "
            "after 10 whole frames: exit 0, those frames, and a warning that the last is cut off", full, full - 17);
    /* the text trajectory alike: a run killed in the middle of a frame (its last line cut
     * mid-number, or lines missing) */
    rc = t_sh(out, sizeof out, "cp " DIR "/ten.t/trajectory.txt " DIR "/cut/t.txt && rm -f " DIR "/cut/trajectory.bin && "
                  "n=$(wc -c < " DIR "/cut/t.txt) && for c in 17 400; do head -c $((n - c)) " DIR "/cut/t.txt > " DIR "/cut/trajectory.txt && "
                  "./pala export " DIR "/cut --format xyz -o " DIR "/cut/x.xyz 2>&1 && ./pala snapshot " DIR "/cut -o " DIR "/cut/s.svg 2>&1 && "
                  "./pala measure " DIR "/cut 2>&1 | tail -1 || exit 1; done");
    T_CHECK(rc == 0 && count_of(out, "is cut off at the end of the file") >= 4 && strstr(out, "10 of 10 frames"),
            "trajectory.txt cut 17 and 400 bytes before its end: export, snapshot and measure read the 10 whole frames and warn (exit %d) %s", rc, out);
}

/* What Python users load (issue 26): ASE's ase.io.read takes trajectory.xyz as it comes
 * (the species an element symbol, the type's name in type_name), every frame, the last
 * frame's positions the test's own centres (eq. 6) to 1e-12 and its radii exactly; the
 * binary VTK (--binary, vtk_format = binary) is 3 times smaller or more than the ASCII on
 * a bed of 796 spheres, and real VTK loads both with the same points (float64, bit for
 * bit), the same cells and the same arrays (names, components, types int32 where the
 * text's are integers, values to float32's rounding).  Without python3-ase or
 * python3-vtk9 the Python checks are counted as skipped and say what to install. */
void test_export_python(void);

static const char ase_py[] =
    "import sys, ase.io\n"
    "fr = ase.io.read(sys.argv[1], index=':'); a = fr[-1]\n"
    "print('frames', len(fr), 'atoms', len(a), 'species', ','.join(sorted(set(a.get_chemical_symbols()))),\n"
    "      'names', ','.join(sorted(set(a.arrays['type_name']))), 'step', a.info.get('Step'))\n"
    "for p, r in zip(a.positions, a.arrays['radius']): print(repr(p[0]), repr(p[1]), repr(p[2]), repr(r))\n";

static const char vtk_py[] =
    "import sys, os, vtk\n"
    "from vtk.util.numpy_support import vtk_to_numpy as np_\n"
    "A, B = sys.argv[1], sys.argv[2]; files = pts = arrs = bad = 0; worst = 0.0\n"
    "def load(p):\n"
    "    r = vtk.vtkXMLPolyDataReader(); r.SetFileName(p); r.Update(); return r.GetOutput()\n"
    "for f in sorted(os.listdir(A)):\n"
    "    if not (f.startswith('spheres_') or f.startswith('grains_')): continue\n"
    "    a, b = load(os.path.join(A, f)), load(os.path.join(B, f)); files += 1\n"
    "    pa, pb = np_(a.GetPoints().GetData()), np_(b.GetPoints().GetData())\n"
    "    if a.GetNumberOfPoints() == 0 or pa.shape != pb.shape or (pa != pb).any(): bad += 1; print('points differ', f)\n"
    "    pts += a.GetNumberOfPoints()\n"
    "    if a.GetNumberOfCells() != b.GetNumberOfCells() or a.GetNumberOfVerts() != b.GetNumberOfVerts(): bad += 1; print('cells differ', f)\n"
    "    da, db = a.GetPointData(), b.GetPointData()\n"
    "    na = [da.GetArrayName(i) for i in range(da.GetNumberOfArrays())]; nb = [db.GetArrayName(i) for i in range(db.GetNumberOfArrays())]\n"
    "    if na != nb: bad += 1; print('arrays differ', f, na, nb); continue\n"
    "    for n in na:\n"
    "        x, y = da.GetArray(n), db.GetArray(n); arrs += 1\n"
    "        if x.GetNumberOfComponents() != y.GetNumberOfComponents() or x.GetNumberOfTuples() != y.GetNumberOfTuples(): bad += 1; print('shape of', n, f); continue\n"
    "        u, v = np_(x).astype(float), np_(y).astype(float)\n"
    "        if n in ('grain', 'type'):\n"
    "            if y.GetDataTypeAsString() != 'int' or (u != v).any(): bad += 1; print('ints of', n, f)\n"
    "            continue\n"
    "        if y.GetDataTypeAsString() != 'float': bad += 1; print('type of', n, f, y.GetDataTypeAsString())\n"
    "        d = abs(u - v) / (abs(u) + 1e-300); d[u == v] = 0\n"
    "        worst = max(worst, float(d.max()) if d.size else 0.0)\n"
    "print('files', files, 'points', pts, 'arrays', arrs, 'bad', bad, 'worst', worst)\n";

/* the first python3 that imports module (t_sh's output into py), or "" */
static void python_with(const char *module, char *py, size_t len)
{
    py[0] = 0;
    t_sh(py, len, "for p in python3 /usr/bin/python3; do $p -c 'import %s' >/dev/null 2>&1 && echo $p && break; done", module);
    py[strcspn(py, "\n")] = 0;
}

static void ase_loads(const char *name, const char *run, const char *species, const char *names, const char *py)
{
    char path[512];
    static char out[1 << 16];
    static ref R;
    snprintf(path, sizeof path, "%s/trajectory.txt", run);
    if (read_ref(path, &R) != 0) { T_CHECK(0, "%s: the test reads %s", name, path); return; }
    int rc = t_sh(out, sizeof out, "%s " DIR "/read_xyz.py %s/trajectory.xyz", py, run);
    int nf = -1, na = -1;
    long step = -1;
    char sp[64] = "", nm[64] = "";
    sscanf(out, "frames %d atoms %d species %63s names %63s step %ld", &nf, &na, sp, nm, &step);
    const int last = R.nframes - 1;
    long p = 0, badv = 0;
    const char *l = strchr(out, '\n');
    for (int k = 0; k < R.n; k++)
        for (int i = 0; i < R.ncomp[R.tid[k]]; i++, p++) {
            const double *b = R.b[R.comp0[R.tid[k]] + i];
            double c[3], u[3], q[4];
            centre(R.st[last][k], b, c, u);
            if (!l || sscanf(l + 1, "%lf %lf %lf %lf", q, q + 1, q + 2, q + 3) != 4) { badv++; continue; }
            l = strchr(l + 1, '\n');
            for (int a = 0; a < 3; a++) badv += !close12(q[a], c[a], b[3]);
            badv += q[3] != b[3];
        }
    T_CHECK(rc == 0 && nf == R.nframes && na == p && !strcmp(sp, species) && !strcmp(nm, names) && step == R.step[last] && badv == 0,
            "%s: ase.io.read (%s) loads trajectory.xyz as it comes: %d frames (want %d), %d atoms (want %ld), species %s (want %s), type_name %s (want %s), "
            "the last frame's (step %ld) positions and radii as the test computes them (%ld mismatches) (exit %d) %.300s",
            name, py, nf, R.nframes, na, p, sp, species, nm, names, step, badv, rc, out);
}

void test_export_python(void)
{
    char out[8192], py[256];
    t_sh(NULL, 0, "rm -rf " DIR "/py && mkdir -p " DIR "/py");
    const char *ten = DIR "/py/ten.run", *hop = DIR "/py/hop.run", *bed = DIR "/py/bed.run";
    int rc = t_sh(out, sizeof out,
                  "./pala run examples/paper-ten-grains.txt -o %s --quiet --set end_time=0.004 --set trajectory_every=400 && ./pala export %s --format xyz && "
                  "./pala run examples/2d-hopper.txt -o %s --quiet --set end_time=0.05 --set trajectory_every=500 && ./pala export %s --format xyz && "
                  "./pala run examples/settling-box.txt -o %s --quiet --set end_time=0.02 --set trajectory_every=1000 --set vtk_every=1000 --set vtk_format=binary && "
                  "./pala export %s --format xyz && ./pala export %s --format vtk -o %s/ascii && ./pala export %s --format vtk --binary -o %s/binary && "
                  "diff -r %s/vtk %s/binary && echo same",
                  ten, ten, hop, hop, bed, bed, bed, bed, bed, bed, bed, bed);
    T_CHECK(rc == 0 && strstr(out, "same"), "the exports of two runs; vtk_format = binary during the run writes what export --binary writes (exit %d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala export %s --format xyz --binary", ten);
    T_CHECK(rc == 1 && strstr(out, "--binary is a form of --format vtk"), "export --format xyz --binary: exit 1, says --binary is for vtk (%d) %s", rc, out);
    /* the size: the frames' files, binary against ASCII */
    long sa = -1, sb = -1;
    t_sh(out, sizeof out, "cat %s/ascii/spheres_* %s/ascii/grains_* | wc -c; cat %s/binary/spheres_* %s/binary/grains_* | wc -c", bed, bed, bed, bed);
    sscanf(out, "%ld %ld", &sa, &sb);
    T_CHECK(sb > 0 && sa >= 3 * sb, "binary VTK: the frames of 200 grains of 4 spheres take %ld bytes against %ld in ASCII (%.2fx smaller; want 3x or more)",
            sb, sa, sb > 0 ? (double)sa / (double)sb : 0.0);

    python_with("ase.io", py, sizeof py);
    if (!py[0]) t_skip("ASE: trajectory.xyz was not loaded by ase.io.read: no python3 with the ase module; install python3-ase (apt-get install python3-ase)");
    else {
        t_write(DIR "/read_xyz.py", ase_py);
        ase_loads("paper-ten-grains", ten, "H", "master", py);
        ase_loads("2d-hopper", hop, "H,He", "dumbbell,triangle", py);
    }
    python_with("vtk.util.numpy_support", py, sizeof py);   /* its comparison reads the arrays through numpy, which python3-vtk9 does not pull in */
    if (!py[0]) { t_skip("VTK: the binary .vtp files were not compared in real VTK: no python3 with the vtk and numpy modules; install python3-vtk9 and python3-numpy (apt-get install python3-vtk9 python3-numpy)"); return; }
    t_write(DIR "/vtkcmp.py", vtk_py);
    rc = t_sh(out, sizeof out, "%s " DIR "/vtkcmp.py %s/ascii %s/binary", py, bed, bed);
    int files = -1, arrs = -1, bad = -1;
    long pts = -1;
    double worst = 1;
    sscanf(out, "files %d points %ld arrays %d bad %d worst %lf", &files, &pts, &arrs, &bad, &worst);
    T_CHECK(rc == 0 && files == 6 && pts == 3 * (796 + 200) && arrs == 3 * (5 + 11) && bad == 0 && worst <= 6e-8,
            "VTK (%s) loads the binary and the ASCII frames alike: %d files, %ld points the same bits, the same cells, %d arrays of the same names, "
            "components and kinds, values to float32 rounding (worst %.2g relative) (%d differences; exit %d) %s",
            py, files, pts, arrs, worst, bad, rc, out);
}

/* test_view.c: `pala view` in a real browser.  The page must be self-contained (no
 * external script, style, font or address); headless Chromium loads it and must report no
 * error; two screenshots at different times differ and are not blank; in anaglyph mode
 * the picture holds both red and cyan pixels (drawn on the CPU, the default, and with
 * WebGL); a 2D run shows its plane.  Screenshots are
 * decoded by a small PNG reader in Python (zlib only).  Without Chromium (or python3) the
 * browser checks are counted as skipped and say what to install.
 * test_view_script: the page's JavaScript (the .js files of src/cli/view/) passes `node --check`
 * (skipped without node).  test_view_embed: src/cli/view/embed.sh keeps every byte of a
 * file (all 256 values, quotes, backslashes, trailing blanks, no last newline) and of an
 * empty one. */
#include "t.h"
#include <stdlib.h>
#include <string.h>

void test_view(void);
void test_view_script(void);
void test_view_embed(void);

#define DIR "build/tmp/view"

/* a PNG reader: load(path) is the picture as rows of (r, g, b) */
#define PNG_LOAD \
    "import sys, zlib, struct\n" \
    "def load(p):\n" \
    "    d = open(p, 'rb').read(); i = 8; idat = b''\n" \
    "    while i < len(d):\n" \
    "        n, t = struct.unpack('>I4s', d[i:i + 8]); c = d[i + 8:i + 8 + n]; i += 12 + n\n" \
    "        if t == b'IHDR': w, h, bd, ct = struct.unpack('>IIBB', c[:10])\n" \
    "        elif t == b'IDAT': idat += c\n" \
    "    raw = zlib.decompress(idat); bpp = 4 if ct == 6 else 3; st = w * bpp; out = []; prev = bytearray(st); k = 0\n" \
    "    for y in range(h):\n" \
    "        f = raw[k]; k += 1; line = bytearray(raw[k:k + st]); k += st\n" \
    "        for x in range(st):\n" \
    "            a = line[x - bpp] if x >= bpp else 0; b = prev[x]; c = prev[x - bpp] if x >= bpp else 0\n" \
    "            if f == 1: line[x] = (line[x] + a) & 255\n" \
    "            elif f == 2: line[x] = (line[x] + b) & 255\n" \
    "            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255\n" \
    "            elif f == 4:\n" \
    "                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)\n" \
    "                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255\n" \
    "        out.append([tuple(line[x:x + 3]) for x in range(0, st, bpp)]); prev = line\n" \
    "    return out\n"
static const char png_py[] = PNG_LOAD
    "# the picture above the control bar: pixels unlike the background, red, cyan, plane colour\n"
    "imgs = [load(p) for p in sys.argv[1:]]\n"
    "for im in imgs:\n"
    "    rows = im[60:len(im) - 120]; bg = rows[0][-1]\n"
    "    n = sum(1 for r in rows for p in r if max(abs(p[0] - bg[0]), abs(p[1] - bg[1]), abs(p[2] - bg[2])) > 24)\n"
    "    red = sum(1 for r in rows for p in r if p[0] > 150 and p[1] < 90 and p[2] < 90)\n"
    "    cyan = sum(1 for r in rows for p in r if p[0] < 90 and p[1] > 150 and p[2] > 150)\n"
    "    plane = sum(1 for r in rows for p in r if abs(p[0] - 232) <= 4 and abs(p[1] - 237) <= 4 and abs(p[2] - 245) <= 4)\n"
    "    print('pixels', len(rows) * len(rows[0]), 'drawn', n, 'red', red, 'cyan', cyan, 'plane', plane)\n"
    "if len(imgs) >= 2:\n"
    "    a, b = imgs[0], imgs[1]\n"
    "    print('differ', sum(1 for y in range(60, len(a) - 120) for x in range(len(a[0])) if a[y][x] != b[y][x]))\n";

static char chrome[256];

/* the command of one page load: screenshot png, the console in log; the browser's home (its
 * Downloads: a PNG the page saves) in DIR/home */
static void browse(char *cmd, size_t len, const char *html, const char *hash, const char *png, const char *log, const char *profile)
{
    size_t l = strlen(cmd);
    snprintf(cmd + l, len - l,
             "HOME=\"$(pwd)\"/" DIR "/home timeout 120 %s --headless=new --no-sandbox --enable-unsafe-swiftshader --hide-scrollbars --no-first-run "
             "--disable-extensions --user-data-dir=" DIR "/%s --enable-logging=stderr --v=0 --window-size=600,450 "
             "--screenshot=%s 'file://'\"$(pwd)\"'/%s#%s' >%s 2>&1 & ",
             chrome, profile, png, html, hash, log);
}

/* the page's own report (console line "pala view ready: {...}") and its errors */
static void check_log(const char *what, const char *log, const char *want)
{
    char out[8192];
    t_sh(out, sizeof out, "grep 'CONSOLE' %s | grep -v 'GL Driver Message' | cut -c1-400", log);
    int ready = strstr(out, "pala view ready") != NULL, errs = strstr(out, "\\\"errors\\\":0") || strstr(out, "\"errors\":0");
    int uncaught = strstr(out, "Uncaught") != NULL || strstr(out, ":ERROR:CONSOLE") != NULL;
    T_CHECK(ready && errs && !uncaught && (!want || strstr(out, want)), "%s: the page loads with no console error%s%s: %s",
            what, want ? " and reports " : "", want ? want : "", out);
}

/* A run whose grains enter and leave (trajectory version 2): the page has a place for every
 * grain that came, NaN where it is not; the frames with and without grains load without an
 * error, drawn on the CPU (solid and wire frames) and with WebGL. */
static void view_pour(const char *py)
{
    char out[8192];
    int rc = t_sh(out, sizeof out, "./pala run examples/pour.txt -o " DIR "/pour.run --quiet --set end_time=0.06 --set trajectory_every=1000 && "
                  "./pala view " DIR "/pour.run -o " DIR "/pour.html");
    T_CHECK(rc == 0 && strstr(out, "7 of 7 frames, 150 grains came and went (at most 150 at once)"), "pala view of a pour (exit %d) %s", rc, out);
    static const struct { const char *hash, *what, *want; } load[4] = {
        {"frame=0", "a pour, frame 0 (no grain yet)", NULL},
        {"frame=last", "a pour, the last frame", NULL},
        {"frame=last&style=wire&colour=speed", "a pour in wire frames coloured by speed", NULL},
        {"renderer=webgl&frame=last", "a pour drawn with WebGL", "\"renderer\":\"webgl\""},
    };
    char cmd[8192] = "", png[4][64], log[4][64], prof[4][8];
    for (int i = 0; i < 4; i++) {
        snprintf(png[i], sizeof png[i], DIR "/p%d.png", i);
        snprintf(log[i], sizeof log[i], DIR "/p%d.log", i);
        snprintf(prof[i], sizeof prof[i], "pp%d", i);
        browse(cmd, sizeof cmd, DIR "/pour.html", load[i].hash, png[i], log[i], prof[i]);
    }
    strcat(cmd, "wait");
    t_sh(NULL, 0, "%s", cmd);
    for (int i = 0; i < 4; i++) check_log(load[i].what, log[i], load[i].want);
    long px = 0, d[4] = {0}, x;
    for (int i = 0; i < 4; i++) {
        rc = t_sh(out, sizeof out, "%s " DIR "/png.py " DIR "/p%d.png", py, i);
        if (sscanf(out, "pixels %ld drawn %ld red %ld", &px, &d[i], &x) != 3) d[i] = -1;
    }
    T_CHECK(d[0] >= 0 && d[1] > d[0] + 200 && d[2] > d[0] + 200 && d[3] > d[0] + 200,
            "the pour's last frame shows its grains (%ld, %ld, %ld pixels drawn: solid, wire, WebGL), its first only the box (%ld)", d[1], d[2], d[3], d[0]);
}


/* In the rectangle x y w h of a picture: the distinct saturated colours (a legend's levels),
 * the pixels of the first type's colour (31, 119, 180); in the whole picture but the
 * rectangle, the pixels of the force network's dark red; and the pixels drawn (as png.py)
 * in the band of rows where the bed is (below the info box and the legend) */
static const char rect_py[] = PNG_LOAD
    "im = load(sys.argv[1]); x0, y0, w, h = [int(round(float(v))) for v in sys.argv[2:6]]\n"
    "inr = lambda x, y: x0 <= x < x0 + w and y0 <= y < y0 + h\n"
    "cols = set(p for y in range(y0, y0 + h) for p in im[y][x0:x0 + w] if max(p) - min(p) > 40)\n"
    "blue = sum(1 for y in range(y0, y0 + h) for p in im[y][x0:x0 + w] if abs(p[0] - 31) + abs(p[1] - 119) + abs(p[2] - 180) < 12)\n"
    "red = sum(1 for y in range(60, len(im) - 120) for x, p in enumerate(im[y]) if not inr(x, y) and p[0] > 110 and p[0] - p[1] > 70 and p[0] - p[2] > 60)\n"
    "rows = im[200:len(im) - 130]; bg = rows[0][0]\n"
    "n = sum(1 for r in rows for p in r if max(abs(p[0] - bg[0]), abs(p[1] - bg[1]), abs(p[2] - bg[2])) > 24)\n"
    "print('distinct', len(cols), 'blue', blue, 'red', red, 'drawn', n)\n";

/* the PNG the page saved (#png=1: its data in the body's data-png, from chromium --dump-dom)
 * written to a file (argv 2); with one argument, a PNG file: its pixels and those unlike its
 * corner (the background) */
static const char dom_png_py[] = PNG_LOAD
    "import re, base64\n"
    "if len(sys.argv) > 2:\n"
    "    m = re.search(r'data-png=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"', open(sys.argv[1]).read())\n"
    "    open(sys.argv[2], 'wb').write(base64.b64decode(m.group(1)) if m else b'')\n"
    "    print('png', len(base64.b64decode(m.group(1))) if m else 0); p = sys.argv[2]\n"
    "else: p = sys.argv[1]\n"
    "im = load(p); bg = im[0][-1]\n"
    "print('pixels', len(im) * len(im[0]), 'drawn', sum(1 for r in im for q in r if max(abs(q[0] - bg[0]), abs(q[1] - bg[1]), abs(q[2] - bg[2])) > 24))\n";

/* A bed with its contacts (contacts_every): the legend of each colouring is drawn (its box
 * holds the 16 levels of a field, or the type's swatch); the clipping plane x < 50 % leaves
 * out the grains right of it (the page draws as many grains as the test counts in
 * trajectory.txt, and fewer pixels); the force network draws one line per contact of the
 * frame (as many as contacts.tsv lists at its step), in dark red, with CPU and WebGL; the
 * PNG the page saves (#png=1) is a picture of the view, not blank. */
static void view_contacts(const char *py)
{
    char out[8192];
    const char *R = DIR "/bed.run";
    int rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt -o %s --quiet --set end_time=0.15 --set trajectory_every=1500 --set contacts_every=1500 && "
                  "./pala view %s -o " DIR "/bed.html", R, R);
    T_CHECK(rc == 0 && strstr(out, "with the contacts of " DIR "/bed.run/contacts.tsv"), "pala view of a bed with contacts.tsv (exit %d) %s", rc, out);
    long ncont = -1, below = -1;
    t_sh(out, sizeof out, "grep '^# frame 15000 ' %s/contacts.tsv | cut -d' ' -f5; "
         "awk '/^frame /{f++; n=0; next} f && NF == 12 {n++; if (f == 11 && $1 < 0.5 * 0.06) b++} END {print b + 0}' %s/trajectory.txt", R, R);
    sscanf(out, "%ld %ld", &ncont, &below);
    T_CHECK(ncont > 10 && below > 10 && below < 200, "the bed's last frame: %ld contacts in contacts.tsv, %ld of 200 grains left of x = 0.03 m", ncont, below);
    static const char *const field[7] = {"type", "speed", "height", "angular", "coordination", "grain", "force"};
    const char *extra[7] = {"", "&png=1", "", "", "", "&clip=x&cut=50", "&network=1"};
    char cmd[8192] = "", hash[7][96], png[8][64], log[8][64], prof[8][8];
    for (int i = 0; i < 8; i++) {
        if (i < 7) snprintf(hash[i], sizeof hash[i], "frame=last&colour=%s%s", field[i], extra[i]);
        snprintf(png[i], sizeof png[i], DIR "/k%d.png", i);
        snprintf(log[i], sizeof log[i], DIR "/k%d.log", i);
        snprintf(prof[i], sizeof prof[i], "pk%d", i);
        browse(cmd, sizeof cmd, DIR "/bed.html", i < 7 ? hash[i] : "frame=last&colour=force&network=1&renderer=webgl", png[i], log[i], prof[i]);
    }
    /* the saved PNG: the same page as k1, its DOM after the script ran */
    size_t l = strlen(cmd);
    snprintf(cmd + l, sizeof cmd - l, "HOME=\"$(pwd)\"/" DIR "/home timeout 120 %s --headless=new --no-sandbox --enable-unsafe-swiftshader --no-first-run --disable-extensions "
             "--user-data-dir=" DIR "/pkd --window-size=600,450 --dump-dom 'file://'\"$(pwd)\"'/" DIR "/bed.html#%s' >" DIR "/kdom.html 2>/dev/null & wait",
             chrome, hash[1]);
    t_sh(NULL, 0, "%s", cmd);
    long drawn[8];
    for (int i = 0; i < 8; i++) {
        char rep[4096];
        t_sh(rep, sizeof rep, "grep -o 'pala view ready: .*' %s | head -1 | cut -c1-1000", log[i]);
        check_log(i < 7 ? hash[i] : "the network with WebGL", log[i], i < 7 ? NULL : "\"renderer\":\"webgl\"");
        double x = 0, y = 0, w = 0, h = 0;
        const char *lg = strstr(rep, "\"legend\":{");
        if (lg) sscanf(strstr(lg, "\"x\":") ? strstr(lg, "\"x\":") : lg, "\"x\":%lf,\"y\":%lf,\"w\":%lf,\"h\":%lf", &x, &y, &w, &h);
        long dist = -1, blue = -1, red = -1;
        drawn[i] = -1;
        t_sh(out, sizeof out, "%s " DIR "/rect.py %s %g %g %g %g", py, png[i], x, y, w, h);
        sscanf(out, "distinct %ld blue %ld red %ld drawn %ld", &dist, &blue, &red, &drawn[i]);
        const char *f = i < 7 ? field[i] : "force";
        if (i < 7) {
            char want[64];
            snprintf(want, sizeof want, "\"colour\":\"%s\"", f);
            int cont = i > 0;
            T_CHECK(strstr(rep, want) && w > 100 && h > 30 && (cont ? dist >= 14 : blue >= 100),
                    "colour by %s: the legend is drawn at %g,%g (%g x %g px): %ld distinct colours (want the 16 levels), %ld pixels of the type's swatch: %s %s",
                    f, x, y, w, h, dist, blue, rep, out);
        }
        if (i == 5) {
            long dg = -1;
            const char *d = strstr(rep, "\"drawn_grains\":");
            if (d) dg = strtol(d + 15, NULL, 10);
            T_CHECK(dg == below && drawn[5] >= 0 && drawn[5] < drawn[4], "clip=x&cut=50: the page draws the %ld grains left of the plane (the test counts %ld), %ld pixels against %ld unclipped (by coordination)",
                    dg, below, drawn[5], drawn[4]);
        }
        if (i >= 6) {
            char want[96];
            snprintf(want, sizeof want, "\"network_lines\":%ld,\"contacts\":%ld", ncont, ncont);
            T_CHECK(strstr(rep, want) && red > 100, "the force network (%s) draws one line per contact: %s (want %ld lines), %ld dark red pixels: %s",
                    i == 6 ? "CPU" : "WebGL", strstr(rep, "\"network_lines\"") ? strstr(rep, "\"network_lines\"") : "-", ncont, red, rep);
        }
    }
    rc = t_sh(out, sizeof out, "%s " DIR "/dompng.py " DIR "/kdom.html " DIR "/saved.png && grep -o 'png_bytes\":[0-9]*' %s",
              py, log[1]);
    long pb = -1, px = 0, dn = -1;
    const char *q = strstr(out, "pixels ");
    sscanf(out, "png %ld", &pb);
    if (q) sscanf(q, "pixels %ld drawn %ld", &px, &dn);
    T_CHECK(rc == 0 && pb > 1000 && dn > px / 50 && strstr(out, "png_bytes"), "#png=1: the page saves a PNG of the view (%ld bytes), not blank: %ld of %ld pixels drawn (exit %d) %s",
            pb, dn, px, rc, out);
    /* and the browser saved it as a download, the same picture */
    rc = t_sh(out, sizeof out, "f=$(ls " DIR "/home/Downloads/bed.run-frame-10*.png | head -1) && %s " DIR "/dompng.py \"$f\" && cmp \"$f\" " DIR "/saved.png && echo same", py);
    q = strstr(out, "pixels ");
    dn = -1;
    if (q) sscanf(q, "pixels %ld drawn %ld", &px, &dn);
    T_CHECK(rc == 0 && dn > px / 50 && strstr(out, "same"), "#png=1: the browser downloads it as bed.run-frame-10.png, the same bytes, %ld of %ld pixels drawn (exit %d) %s", dn, px, rc, out);
}

void test_view(void)
{
    char out[8192];
    t_sh(NULL, 0, "rm -rf " DIR " && mkdir -p " DIR);
    int rc = t_sh(out, sizeof out,
                  "./pala run examples/paper-ten-grains.txt -o " DIR "/ten.run --quiet --set end_time=0.004 --set trajectory_every=400 && "
                  "./pala view " DIR "/ten.run -o " DIR "/ten.html && "
                  "./pala run examples/2d-hopper.txt -o " DIR "/hop.run --quiet --set end_time=0.1 && ./pala view " DIR "/hop.run -o " DIR "/hop.html");
    T_CHECK(rc == 0 && strstr(out, "11 of 11 frames, 10 grains, 40 spheres"), "pala view writes the pages (exit %d) %s", rc, out);
    /* self-contained: nothing fetched from elsewhere (a CSS url(), not the script's toDataURL() of the PNG) */
    rc = t_sh(out, sizeof out, "grep -c -i -E '<script[^>]* src|<link|@import|https?://|(^|[^a-z])url\\(' " DIR "/ten.html " DIR "/hop.html");
    T_CHECK(strstr(out, "ten.html:0") && strstr(out, "hop.html:0"), "the pages load no script, style, font or address from elsewhere: %s", out);
    /* decimation above --max-mb, said on the command line and in the page */
    rc = t_sh(out, sizeof out, "./pala view " DIR "/ten.run -o " DIR "/small.html --max-mb 0.004 && grep -o '\"every\": [0-9]*' " DIR "/small.html");
    T_CHECK(rc == 0 && strstr(out, "one frame in 2 kept") && strstr(out, "\"every\": 2"), "--max-mb 0.004 keeps one frame in 2 and says so: %s", out);

    t_sh(chrome, sizeof chrome, "command -v chromium || command -v chromium-browser || command -v google-chrome");
    chrome[strcspn(chrome, "\n")] = 0;
    char py[128] = "";
    t_sh(py, sizeof py, "for p in python3 /usr/bin/python3; do $p -c 'import zlib' >/dev/null 2>&1 && echo $p && break; done");
    py[strcspn(py, "\n")] = 0;
    if (!chrome[0] || !py[0]) {
        t_skip("viewer in a browser: no chromium (apt-get install chromium) or no python3; the page was not loaded");
        return;
    }
    t_write(DIR "/png.py", png_py);
    /* the four loads at once (each browser start takes seconds) */
    char cmd[8192] = "";
    browse(cmd, sizeof cmd, DIR "/ten.html", "frame=0", DIR "/a.png", DIR "/a.log", "pa");
    browse(cmd, sizeof cmd, DIR "/ten.html", "frame=last", DIR "/b.png", DIR "/b.log", "pb");
    browse(cmd, sizeof cmd, DIR "/ten.html", "frame=last&stereo=anaglyph", DIR "/c.png", DIR "/c.log", "pc");
    browse(cmd, sizeof cmd, DIR "/hop.html", "frame=last", DIR "/d.png", DIR "/d.log", "pd");
    browse(cmd, sizeof cmd, DIR "/ten.html", "frame=last&stereo=anaglyph&style=wire", DIR "/e.png", DIR "/e.log", "pe");
    browse(cmd, sizeof cmd, DIR "/ten.html", "renderer=webgl&frame=last&stereo=anaglyph", DIR "/f.png", DIR "/f.log", "pf");
    strcat(cmd, "wait");
    t_sh(NULL, 0, "%s", cmd);
    check_log("3D run, frame 0", DIR "/a.log", "\"frames\":11");
    check_log("3D run, last frame", DIR "/b.log", NULL);
    check_log("3D run, anaglyph", DIR "/c.log", "\"stereo\":\"anaglyph\"");
    check_log("2D run", DIR "/d.log", "\"dim\":2");
    check_log("anaglyph wire frames, drawn on the CPU", DIR "/e.log", "\"renderer\":\"cpu\"");
    check_log("anaglyph drawn with WebGL", DIR "/f.log", "\"renderer\":\"webgl\"");
    check_log("the default: drawn on the CPU", DIR "/a.log", "\"renderer\":\"cpu\"");

    long px = 0, drawn[6] = {0}, red[6] = {0}, cyan[6] = {0}, plane[6] = {0}, differ = -1;
    const char *pngs[6] = {DIR "/a.png " DIR "/b.png", DIR "/c.png", DIR "/d.png", DIR "/e.png", DIR "/f.png", NULL};
    for (int i = 0; i < 5; i++) {
        rc = t_sh(out, sizeof out, "%s " DIR "/png.py %s", py, pngs[i]);
        const char *p = out;
        for (int k = 0; k < (i == 0 ? 2 : 1); k++) {
            int j = i == 0 ? k : i + 1;
            p = strstr(p, "pixels ");
            if (!p || sscanf(p, "pixels %ld drawn %ld red %ld cyan %ld plane %ld", &px, &drawn[j], &red[j], &cyan[j], &plane[j]) != 5) break;
            p++;
        }
        const char *d = strstr(out, "differ ");
        if (i == 0 && d) differ = strtol(d + 7, NULL, 10);
        T_CHECK(rc == 0, "the PNG reader reads %s (exit %d) %s", pngs[i], rc, out);
    }
    T_CHECK(drawn[0] > px / 50 && drawn[1] > px / 50, "frame 0 and the last frame are not blank: %ld and %ld of %ld pixels drawn", drawn[0], drawn[1], px);
    T_CHECK(differ > 500, "the screenshots at t = 0 and at the last frame differ in %ld pixels", differ);
    T_CHECK(red[2] > 200 && cyan[2] > 200 && red[1] * 10 < red[2] && cyan[1] * 10 < cyan[2],
            "anaglyph: %ld red and %ld cyan pixels (planar: %ld and %ld)", red[2], cyan[2], red[1], cyan[1]);
    T_CHECK(red[4] > 100 && cyan[4] > 100, "anaglyph wire frames on the CPU: %ld red and %ld cyan pixels", red[4], cyan[4]);
    T_CHECK(red[5] > 200 && cyan[5] > 200, "anaglyph with WebGL: %ld red and %ld cyan pixels", red[5], cyan[5]);
    T_CHECK(plane[3] > px / 6 && drawn[3] > px / 20, "2D run: the plane fills %ld of %ld pixels (%ld drawn)", plane[3], px, drawn[3]);   /* the hopper's box is 0.08 x 0.12 m: a sixth of the picture */
    view_pour(py);
    t_write(DIR "/rect.py", rect_py);
    t_write(DIR "/dompng.py", dom_png_py);
    view_contacts(py);
}

/* The pictures: pala snapshot and pala plot, and the README's picture made by the command
 * the README shows. */

/* pala snapshot of a bed (100 grains at the bottom of a tall box) with its contacts: each field's legend (its title and 16 levels)
 * and discs of more than one level; --network draws one line per contact of contacts.tsv
 * at the frame's step; --frame-on grains makes the bed fill the picture (the discs' box
 * against the picture's, as against the default framing on the box); a narrow picture's
 * footer wraps, each line within the width or squeezed into it (textLength); a field by
 * contact without the contacts: exit 1, saying which key writes them. */
static void snapshot_fields(void)
{
    char out[8192];
    const char *R = DIR "/pic/bed.run";
    int rc = t_sh(out, sizeof out, "./pala run examples/settling-box.txt -o %s --quiet --set end_time=0.1 --set trajectory_every=1000 --set contacts_every=1000 "
                  "--set group.bed.count=100 --set 'group.bed.region_box=0 0.06 0 0.06 0 0.05'", R);
    T_CHECK(rc == 0, "a bed of 100 grains at the bottom of a tall box, with contacts.tsv (exit %d) %s", rc, out);
    static const char *const field[6] = {"speed", "height", "angular", "grain", "coordination", "force"};
    static const char *const title[6] = {"speed (m/s)", "height (m)", "angular speed (rad/s)", "grain number", "coordination (grains)", "contact force (N)"};
    for (int i = 0; i < 6; i++) {
        rc = t_sh(out, sizeof out, "./pala snapshot %s --colour %s -o %s/f.svg >/dev/null && grep -c '>%s</text>' %s/f.svg; grep -c 'width=\"18\" height=\"10\" fill=' %s/f.svg; "
                  "grep -o 'fill=\"url(#g[0-9]*)\"' %s/f.svg | sort -u | wc -l", R, field[i], R, title[i], R, R, R);
        long nt = -1, nr = -1, ng = -1;
        sscanf(out, "%ld %ld %ld", &nt, &nr, &ng);
        T_CHECK(nt == 1 && nr == 16 && ng >= 2, "snapshot --colour %s: the legend's title '%s' (%ld), its 16 levels (%ld), discs of %ld levels", field[i], title[i], nt, nr, ng);
    }
    long nc = -1, nl = -1, said = -1;
    rc = t_sh(out, sizeof out, "./pala snapshot %s --network -o %s/n.svg | grep -o '[0-9]* contact lines' | cut -d' ' -f1; grep -c '^<line [^>]*stroke-width=\"[0-9.]*\"/>$' %s/n.svg; "
              "grep '^# frame 10000 ' %s/contacts.tsv | cut -d' ' -f5", R, R, R, R);
    sscanf(out, "%ld %ld %ld", &said, &nl, &nc);
    T_CHECK(nc > 5 && nl == nc && said == nc, "snapshot --network: %ld lines (said %ld), one per contact of contacts.tsv at step 10000 (%ld)", nl, said, nc);
    /* the discs' box over the picture's: framed on the grains against framed on the box */
    const char *box = "awk -F'\"' '/^<svg/ {W = $4; H = $6} /^<circle .*url\\(#g[0-9]*\\)\"\\/>$/ {x0 = x0 == \"\" || $2 - $6 < x0 ? $2 - $6 : x0; x1 = $2 + $6 > x1 ? $2 + $6 : x1; "
                      "y0 = y0 == \"\" || $4 - $6 < y0 ? $4 - $6 : y0; y1 = $4 + $6 > y1 ? $4 + $6 : y1} END {printf \"%.3f \", (x1 - x0) * (y1 - y0) / (W * H)}'";
    rc = t_sh(out, sizeof out, "./pala snapshot %s -o %s/w.svg >/dev/null && ./pala snapshot %s --frame-on grains -o %s/g.svg >/dev/null && %s %s/w.svg && %s %s/g.svg",
              R, R, R, R, box, R, box, R);
    double fw = -1, fg = -1;
    sscanf(out, "%lf %lf", &fw, &fg);
    T_CHECK(rc == 0 && fg > 0.4 && fg > 2.5 * fw, "snapshot --frame-on grains: the bed's discs cover %.0f %% of the picture's box (framed on the walls: %.0f %%)", 100 * fg, 100 * fw);
    /* the footer of a narrow picture: its items on several lines, none past the edge */
    rc = t_sh(out, sizeof out, "./pala snapshot %s --size 240 --network -o %s/s.svg >/dev/null && awk -F'[<>\"]' '/^<text x=\"24\"/ {n++; s = $7; gsub(/\xc2\xb7/, \".\", s); if (length(s) * 8.2 > 240 - 48 && $0 !~ /textLength/) bad++; all = all \" \" $7} "
              "END {print n, bad + 0, all}' %s/s.svg", R, R, R);
    long lines = -1, bad = -1;
    sscanf(out, "%ld %ld", &lines, &bad);
    T_CHECK(rc == 0 && lines >= 4 && bad == 0 && strstr(out, "t = 0.1 s") && strstr(out, "step 10000") && strstr(out, "frame 10") && strstr(out, "100 grains") &&
            strstr(out, "contacts"), "snapshot --size 240: the footer on %ld lines, %ld of them past the edge: %s", lines, bad, out);
    rc = t_sh(out, sizeof out, "./pala snapshot " DIR "/pic/paper-ten-grains.run --colour coordination");
    T_CHECK(rc == 1 && strstr(out, "contacts_every") && strstr(out, "--colour coordination needs the run's contacts"), "snapshot --colour coordination without contacts: exit 1, names the key (%d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala snapshot %s --colour pressure; ./pala snapshot %s --frame-on box", R, R);
    T_CHECK(strstr(out, "expected type, speed, height") && strstr(out, "expected walls or grains"), "snapshot: a wrong --colour or --frame-on names the choices: %s", out);
}

void test_pictures(void);
void test_pictures(void)
{
    char out[8192];
    t_sh(NULL, 0, "rm -rf " DIR "/pic && mkdir -p " DIR "/pic");
    int rc = t_sh(out, sizeof out, "cd " DIR "/pic && ../../../../pala run ../../../../examples/paper-ten-grains.txt -o paper-ten-grains.run --quiet && "
                  "../../../../pala snapshot paper-ten-grains.run --frame 10 --size 640 && cmp paper-ten-grains.run/snapshot-002000.svg ../../../../docs/img/ten-grains.svg && echo same");
    T_CHECK(rc == 0 && strstr(out, "same"), "README's picture docs/img/ten-grains.svg is what `pala snapshot paper-ten-grains.run --frame 10 --size 640` draws (exit %d) %s", rc, out);
    /* solid: one disc per component sphere, back to front; wire: per component a line to
     * the centre of mass and three radii (a sphere at the centre of mass has no line) */
    rc = t_sh(out, sizeof out, "R=" DIR "/pic/paper-ten-grains.run; ./pala snapshot $R --frame 10 -o $R/s.svg >/dev/null && grep -c '<circle' $R/s.svg; "
              "./pala snapshot $R --frame 10 --style wire -o $R/w.svg >/dev/null && grep -o '<line' $R/w.svg | wc -l; "
              "./pala run examples/2d-hopper.txt -o " DIR "/pic/hop.run --quiet --set end_time=0.05 && ./pala snapshot " DIR "/pic/hop.run --time 0.05 --colour speed -o " DIR "/pic/h.svg; grep -c 'plane z = 0' " DIR "/pic/h.svg; tail -1 $R/s.svg");
    long circles = -1, lines = -1, plane = -1;
    sscanf(out, "%ld %ld", &circles, &lines);
    const char *h = strstr(out, "-> " DIR "/pic/h.svg");
    if (h) sscanf(strchr(h, '\n') ? strchr(h, '\n') + 1 : h, "%ld", &plane);
    T_CHECK(circles == 40 + 2 && lines == 40 * 4 && plane == 1 && strstr(out, "</svg>"),
            "snapshot: 40 discs, the cavity and the legend's (%ld), 160 wire lines (%ld), the 2D run in its plane (%ld): %s", circles, lines, plane, out);
    /* a time past the last frame: refused, not the last frame drawn without a word */
    rc = t_sh(out, sizeof out, "./pala snapshot " DIR "/pic/hop.run --time 5 -o " DIR "/pic/h5.svg; e=$?; test ! -e " DIR "/pic/h5.svg && echo none $e");
    T_CHECK(strstr(out, "--time 5: ") && strstr(out, "ends at t = 0.05 s (frame") && strstr(out, "none 1"), "snapshot --time past the end: refused (exit 1), nothing drawn: %s", out);
    /* a trajectory with its header only (a run killed before its first frame) */
    rc = t_sh(out, sizeof out, "mkdir -p " DIR "/pic/head.run && sed '/^frame/,$d' " DIR "/pic/paper-ten-grains.run/trajectory.txt > " DIR "/pic/head.run/trajectory.txt && "
              "./pala view " DIR "/pic/head.run; echo \"view $?\"; ./pala snapshot " DIR "/pic/head.run; echo \"snapshot $?\"; ./pala export " DIR "/pic/head.run --format xyz; echo \"export $?\"");
    T_CHECK(strstr(out, "view 1") && strstr(out, "snapshot 1") && strstr(out, "export 1") && strstr(out, "nothing to replay") && strstr(out, "nothing to draw") &&
                strstr(out, "no whole frame to export"),
            "a trajectory without frames: view, snapshot and export say there is nothing to show (exit 1): %s", out);
    rc = t_sh(out, sizeof out, "./pala snapshot " DIR "/pic/paper-ten-grains.run --frame 500");
    T_CHECK(rc == 1 && strstr(out, "0 to 100"), "snapshot --frame 500 of 101 frames: exit 1, says the range (%d) %s", rc, out);
    rc = t_sh(out, sizeof out, "./pala plot " DIR "/pic/paper-ten-grains.run && cd " DIR "/pic/paper-ten-grains.run && "
              "grep -c '<polyline' energy.svg energy-error.svg contacts.svg walls.svg && grep -o 'E_total\\|time (s)\\|energy (J)\\|10<tspan' energy.svg energy-error.svg | sort -u");
    T_CHECK(rc == 0 && strstr(out, "energy.svg:6") && strstr(out, "walls.svg:1") && strstr(out, "energy.svg:E_total") &&
            strstr(out, "energy.svg:energy (J)") && strstr(out, "energy-error.svg:10<tspan"),
            "plot: six energy curves, the cavity's pressure p_r (walls.tsv has pressures), labels with units, decades on the log axis (exit %d) %s", rc, out);
    snapshot_fields();
}

void test_view_script(void)
{
    char out[4096];
    if (t_sh(NULL, 0, "command -v node") != 0) {
        t_skip("the viewer's JavaScript was not checked: no node (apt-get install nodejs)");
        return;
    }
    int rc = t_sh(out, sizeof out, "n=0; for f in src/cli/view/*.js; do node --check \"$f\" || exit 1; n=$((n + 1)); done; echo \"$n checked\"");
    T_CHECK(rc == 0 && !strstr(out, " 0 checked"), "node --check src/cli/view/*.js: the player's syntax is valid (exit %d) %s", rc, out);
    /* and the check sees an error: a function without its closing brace */
    t_sh(NULL, 0, "mkdir -p " DIR "/script");
    t_write(DIR "/script/bad.js", "\"use strict\";\nfunction f(a) {\n  return a + 1;\n");
    rc = t_sh(out, sizeof out, "node --check " DIR "/script/bad.js");
    T_CHECK(rc != 0 && strstr(out, "SyntaxError"), "node --check refuses a script with a syntax error (exit %d) %s", rc, out);
}

void test_view_embed(void)
{
    char out[4096];
    t_sh(NULL, 0, "rm -rf " DIR "/embed && mkdir -p " DIR "/embed/view && cp src/cli/view/embed.sh " DIR "/embed/view/");
    /* every byte value, 64 zero bytes (repeated lines that od shortens to "*" without -v),
     * then the characters a C string would have to escape, a "??" (a trigraph in a C
     * string), a line with trailing blanks, and no newline at the end */
    FILE *f = fopen(DIR "/embed/view/all-bytes.js", "wb");
    T_CHECK(f != NULL, "the test file %s is written", DIR "/embed/view/all-bytes.js");
    if (!f) return;
    for (int i = 0; i < 256 + 64; i++) fputc(i < 256 ? i : 0, f);
    fputs("\n\"quoted\" 'single' back\\slash \\n ?\?= trailing   \n\t\xc2\xb0 \xe2\x86\x92 end", f);
    fclose(f);
    t_write(DIR "/embed/view/empty.css", "");
    t_write(DIR "/embed/back.c",
            "#include <stdio.h>\n"
            "#include \"view_page.h\"\n"
            "int main(void)\n"
            "{\n"
            "    FILE *a = fopen(\"" DIR "/embed/all-bytes.out\", \"wb\"), *e = fopen(\"" DIR "/embed/empty.out\", \"wb\");\n"
            "    if (!a || !e) return 1;\n"
            "    fwrite(pala_view_all_bytes_js, 1, sizeof pala_view_all_bytes_js - 1, a);\n"
            "    fwrite(pala_view_empty_css, 1, sizeof pala_view_empty_css - 1, e);\n"
            "    return fclose(a) != 0 || fclose(e) != 0;\n"
            "}\n");
    int rc = t_sh(out, sizeof out,
                  "sh " DIR "/embed/view/embed.sh > " DIR "/embed/view_page.h && "
                  "${CC:-cc} -std=c11 -Wall -Wextra -Wpedantic -Werror -I" DIR "/embed " DIR "/embed/back.c -o " DIR "/embed/back && "
                  "./" DIR "/embed/back && cmp " DIR "/embed/all-bytes.out " DIR "/embed/view/all-bytes.js && cmp " DIR "/embed/empty.out " DIR "/embed/view/empty.css && echo same");
    T_CHECK(rc == 0 && strstr(out, "same"),
            "embed.sh: a C program built with its header (-std=c11 -Wpedantic -Werror) writes back every byte of a file and an empty file (exit %d) %s", rc, out);
}

/* test_docs.c: the documentation says what the current build does.
 *
 * 1. Commands.  In README.md, docs/cli.md, docs/output-formats.md and docs/visualisation.md, a line that starts
 *    with `$ ` inside a fenced code block is a command.  The commands of each file run in
 *    order, each with `sh` in the C locale, in a fresh folder build/tmp/docs/NAME/ holding
 *    a copy of examples/ and a link to ./pala (the folder is also on PATH, so `pala` and
 *    `./pala` both work).  A command must exit with 0, or with N when the line ends with a comment
 *    `# exit N`.  The lines after a command, up to the next command or the end of the
 *    block, are its output: they must be what the command prints (stdout and stderr), line
 *    by line, runs of blanks and tabs counting as one blank; `...` inside a line matches
 *    any text, and a line that is only `...` matches any number of lines.  A command shown
 *    without output is checked for its exit code only.  In a fenced block not marked
 *    `text`, a line starting with `pala ` or `./pala ` must carry the `$ ` prompt (so no
 *    command is shown that the test does not run); synopses go in ```text blocks.
 *    README.md, "Commands in the docs", states the same convention for readers.
 * 2. Citations.  Every citation of the form `docs/physics.md, "Walls"` in src/, include/,
 *    tests/, examples/, docs/ and README.md names the beginning of a heading of
 *    docs/physics.md; docs, tests and examples cite no file outside the repository.
 * 3. Links.  Every relative link of README.md and of the .md files in docs/ leads to an existing file and,
 *    if it has one, to an existing #anchor (a heading's GitHub slug). */
#include "t.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

void test_docs(void);

#define DOCTMP "build/tmp/docs"
#define OUTCAP (1 << 20)

/* The whole file, NUL-terminated (NULL if unreadable). */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, k;
    char *s = malloc(cap);
    while (s && (k = fread(s + n, 1, cap - n - 1, f)) > 0) {
        n += k;
        if (cap - n - 1 == 0) {
            char *t = realloc(s, cap *= 2);
            if (!t) { free(s); s = NULL; }
            else s = t;
        }
    }
    fclose(f);
    if (s) s[n] = 0;
    return s;
}

/* Split text into lines in place (the newlines become NULs); returns the count and sets
 * *lines to a malloc'ed array. */
static int split_lines(char *text, char ***lines)
{
    int n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    char *p = text;
    while (v && *p) {
        if (n == cap) {
            char **t = realloc(v, (cap *= 2) * sizeof *v);
            if (!t) { free(v); v = NULL; break; }
            v = t;
        }
        v[n++] = p;
        char *e = strchr(p, '\n');
        if (!e) break;
        *e = 0;
        p = e + 1;
    }
    *lines = v;
    return v ? n : 0;
}

/* Copy of s with runs of blanks and tabs made one blank, no blank at either end, no CR. */
static char *norm(const char *s)
{
    char *o = malloc(strlen(s) + 1), *q = o;
    if (!o) return NULL;
    int blank = 0;
    for (; *s; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\r') { blank = 1; continue; }
        if (blank && q > o) *q++ = ' ';
        blank = 0;
        *q++ = *s;
    }
    *q = 0;
    return o;
}

/* s matches pattern p, where `...` in p matches any text. */
static int glob_match(const char *p, const char *s)
{
    const char *w = strstr(p, "...");
    if (!w) return strcmp(p, s) == 0;
    size_t n = (size_t)(w - p);
    if (strncmp(p, s, n) != 0) return 0;
    for (const char *t = s + n;; t++) {
        if (glob_match(w + 3, t)) return 1;
        if (!*t) return 0;
    }
}

/* The output lines o[0..no) are the expected lines e[0..ne) (a line `...`: any lines). */
static int match_lines(char **e, int ne, char **o, int no)
{
    if (ne == 0) return no == 0;
    if (strcmp(e[0], "...") == 0) {
        for (int k = 0; k <= no; k++)
            if (match_lines(e + 1, ne - 1, o + k, no - k)) return 1;
        return 0;
    }
    return no > 0 && glob_match(e[0], o[0]) && match_lines(e + 1, ne - 1, o + 1, no - 1);
}

/* Expected exit code of a command line: N of a trailing comment `# exit N`, else 0. */
static int expected_exit(const char *cmd)
{
    const char *p = NULL, *q = cmd;
    while ((q = strstr(q, "# exit ")) != NULL) p = q++;
    return p ? atoi(p + 7) : 0;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Run the command cmd (line `line` of doc) in dir and compare with the expected output
 * lines exp[0..nexp). */
static void run_command(const char *doc, int line, const char *dir, const char *cmd,
                        char **exp, int nexp, char *out)
{
    char script[512];
    snprintf(script, sizeof script, "%s.sh", dir);
    FILE *f = fopen(script, "w");
    if (!f) { T_CHECK(0, "create %s", script); return; }
    fprintf(f, "%s\n", cmd);
    fclose(f);
    int want = expected_exit(cmd);
    double t0 = now();
    int rc = t_sh(out, OUTCAP, "cd %s && PATH=\"$(pwd):$PATH\" LC_ALL=C && export PATH LC_ALL && sh ../%s < /dev/null",
                  dir, strrchr(script, '/') + 1);
    double dt = now() - t0;
    if (rc != want) {
        printf("---- %s:%d: `%s` printed:\n%s----\n", doc, line, cmd, out);
        T_CHECK(0, "%s:%d: `%s` exits with %d (the doc says %d)", doc, line, cmd, rc, want);
        return;
    }
    if (nexp == 0) {
        T_CHECK(1, "%s:%d: `%s` exits with %d (%.2f s)", doc, line, cmd, rc, dt);
        return;
    }
    char **o, **e = calloc((size_t)nexp, sizeof *e);
    int no = split_lines(out, &o), ok = e != NULL && o != NULL, nnorm = 0;
    for (; ok && nnorm < no; nnorm++) {   /* o[i] points into out: replace by a copy */
        char *c = norm(o[nnorm]);
        if (!c) ok = 0; else o[nnorm] = c;
    }
    for (int i = 0; ok && i < nexp; i++) ok = (e[i] = norm(exp[i])) != NULL;
    ok = ok && match_lines(e, nexp, o, no);
    if (!ok) {
        printf("---- %s:%d: `%s`\n---- the doc shows:\n", doc, line, cmd);
        for (int i = 0; i < nexp; i++) printf("%s\n", exp[i]);
        printf("---- it printed (blanks normalised):\n");
        for (int i = 0; o && i < no; i++) printf("%s\n", o[i]);
        printf("----\n");
    }
    T_CHECK(ok, "%s:%d: `%s` exits with %d and prints the %d line%s shown (%.2f s)", doc, line,
            cmd, rc, nexp, nexp == 1 ? "" : "s", dt);
    for (int i = 0; o && i < nnorm; i++) free(o[i]);
    for (int i = 0; e && i < nexp; i++) free(e[i]);
    free(o);
    free(e);
}

/* Run the commands of one document in a fresh folder. */
static void run_doc(const char *doc, const char *name, char *out)
{
    char dir[256];
    snprintf(dir, sizeof dir, DOCTMP "/%s", name);
    int rc = t_sh(out, OUTCAP, "rm -rf %s && mkdir -p %s && cp -R examples %s/ && ln -s \"$(pwd)/pala\" %s/pala",
                  dir, dir, dir, dir);
    T_CHECK(rc == 0, "%s: fresh folder %s with examples/ and pala (exit %d) %s", doc, dir, rc, out);
    if (rc != 0) return;
    char *text = slurp(doc);
    T_CHECK(text != NULL, "read %s", doc);
    if (!text) return;
    char **l;
    int n = split_lines(text, &l), ncmd = 0;
    int in_fence = 0, text_fence = 0;
    for (int i = 0; i < n; i++) {
        const char *s = l[i];
        while (*s == ' ') s++;
        if (starts_with(s, "```")) {
            in_fence = !in_fence;
            text_fence = in_fence && starts_with(s + 3, "text");
            continue;
        }
        if (!in_fence) continue;
        if (!starts_with(s, "$ ")) {
            if (!text_fence && (starts_with(s, "pala ") || starts_with(s, "./pala ")))
                T_CHECK(0, "%s:%d: `%s` is shown as a command without the `$ ` prompt, so it is not run "
                        "(add the prompt, or put a synopsis in a ```text block)", doc, i + 1, s);
            continue;
        }
        /* the command's output: the following lines up to the next command or fence */
        int j = i + 1;
        while (j < n) {
            const char *t = l[j];
            while (*t == ' ') t++;
            if (starts_with(t, "$ ") || starts_with(t, "```")) break;
            j++;
        }
        run_command(doc, i + 1, dir, s + 2, l + i + 1, j - i - 1, out);
        ncmd++;
        i = j - 1;
    }
    T_CHECK(ncmd > 0, "%s: %d commands run", doc, ncmd);
    free(l);
    free(text);
}

/* GitHub's anchor of a heading: lower case, blanks become `-`, punctuation is dropped. */
static void slug(const char *h, char *out, size_t cap)
{
    size_t n = 0;
    for (; *h && n + 1 < cap; h++) {
        unsigned char c = (unsigned char)*h;
        if (c == ' ') out[n++] = '-';
        else if (isalnum(c) || c == '-' || c == '_' || c >= 0x80) out[n++] = (char)tolower(c);
    }
    out[n] = 0;
}

/* Does the markdown file path have a heading whose text starts with `prefix` (mode 0) or
 * whose slug is `prefix` (mode 1)?  -1 if the file cannot be read. */
static int has_heading(const char *path, const char *prefix, int mode)
{
    char *text = slurp(path);
    if (!text) return -1;
    char **l;
    int n = split_lines(text, &l), found = 0, fence = 0;
    for (int i = 0; i < n && !found; i++) {
        const char *s = l[i];
        if (starts_with(s, "```")) fence = !fence;
        if (fence || s[0] != '#') continue;
        while (*s == '#') s++;
        if (*s != ' ') continue;
        s++;
        if (mode == 0) found = starts_with(s, prefix);
        else {
            char sl[512];
            slug(s, sl, sizeof sl);
            found = strcmp(sl, prefix) == 0;
        }
    }
    free(l);
    free(text);
    return found;
}

static void check_citations(char *out)
{
    /* `docs/physics.md, "Walls"`, also inside a C string as `docs/physics.md, \"Walls\"` */
    int rc = t_sh(out, OUTCAP, "grep -rnoE 'docs/physics\\.md, \\\\?\"[^\"\\\\]+' src include tests examples docs README.md");
    T_CHECK(rc == 0, "grep the citations of docs/physics.md (exit %d)", rc);
    char **l;
    int n = split_lines(out, &l), bad = 0;
    for (int i = 0; i < n; i++) {
        char *q = strchr(l[i], '"');
        if (!q) continue;
        int h = has_heading("docs/physics.md", q + 1, 0);
        if (h != 1) {
            bad++;
            T_CHECK(0, "%s: docs/physics.md has no heading \"%s\"", l[i], q + 1);
        }
    }
    T_CHECK(n > 10 && bad == 0, "%d citations of docs/physics.md name one of its headings", n);
    free(l);
    rc = t_sh(out, OUTCAP, "grep -rn '%s' docs README.md tests examples src include", "PHYSICS" ".md");
    T_CHECK(rc == 1, "docs, tests and examples cite no file outside the repository%s%s",
            rc == 1 ? "" : ": ", rc == 1 ? "" : out);
}

static void check_links(const char *doc)
{
    char *text = slurp(doc);
    T_CHECK(text != NULL, "read %s", doc);
    if (!text) return;
    char dirpart[256];
    snprintf(dirpart, sizeof dirpart, "%s", doc);
    char *slash = strrchr(dirpart, '/');
    if (slash) slash[1] = 0; else dirpart[0] = 0;
    char **l;
    int n = split_lines(text, &l), fence = 0, nlinks = 0, bad = 0;
    for (int i = 0; i < n; i++) {
        if (starts_with(l[i], "```")) fence = !fence;
        if (fence) continue;
        for (char *p = strstr(l[i], "]("); p; p = strstr(p + 1, "](")) {
            char target[512];
            size_t k = 0;
            for (const char *t = p + 2; *t && *t != ')' && *t != ' ' && k + 1 < sizeof target; t++)
                target[k++] = *t;
            target[k] = 0;
            if (starts_with(target, "http:") || starts_with(target, "https:") || starts_with(target, "mailto:"))
                continue;
            char *hash = strchr(target, '#');
            if (hash) *hash++ = 0;
            char path[1024];
            snprintf(path, sizeof path, "%s%s", target[0] ? dirpart : "", target[0] ? target : doc);
            struct stat st;
            int ok = stat(path, &st) == 0;
            if (ok && hash) ok = has_heading(path, hash, 1) == 1;
            nlinks++;
            if (!ok) {
                bad++;
                T_CHECK(0, "%s:%d: link (%s%s%s) leads nowhere", doc, i + 1, target, hash ? "#" : "", hash ? hash : "");
            }
        }
    }
    T_CHECK(bad == 0, "%s: %d relative links lead to existing files and headings", doc, nlinks);
    free(l);
    free(text);
}

void test_docs(void)
{
    double t0 = now();
    char *out = malloc(OUTCAP);
    T_CHECK(out != NULL, "allocate the output buffer");
    if (!out) return;
    check_citations(out);
    int rc = t_sh(out, OUTCAP, "ls README.md docs/*.md");
    char **docs;
    int nd = split_lines(out, &docs);
    T_CHECK(rc == 0 && nd > 1, "list the docs (%d)", nd);
    for (int i = 0; i < nd; i++) check_links(docs[i]);   /* before out is used again */
    free(docs);
    run_doc("README.md", "README", out);
    run_doc("docs/cli.md", "cli", out);
    run_doc("docs/output-formats.md", "output-formats", out);
    run_doc("docs/visualisation.md", "visualisation", out);
    double s = now() - t0;
    T_CHECK(1, "the doc test took %.1f s", s);   /* reported, not judged: sanitizers are slower */
    free(out);
}

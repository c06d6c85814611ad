/* scene.c: the control-file reader.
 *
 * Format (docs/control-file.md): one `key = value` per line, `#` starts a comment,
 * sections `[material NAME]`, `[grain NAME]`, `[group NAME]` hold the keys of a
 * material, a grain type and a group of grains, `[pair A B]` the values of a pair of
 * materials that replace the mixed ones.  Every key is in the table of keys.c,
 * which binds it to a field of the struct its section fills (pala_top_keys,
 * pala_material, pala_grain_keys, pala_group_keys): the reader checks every value, stores
 * each section's values by walking the table (bind_section), then builds the world from
 * those structs.  What a program could give the library too (the laws of the materials and
 * of their pairs, 2D) the library checks (pala_world_check), once the grain types are built
 * and before the groups are placed: the reader puts its refusal at the line of the key that
 * sets the refused field (refused).  Code names a key only by its constant PALA_KEY_name.
 * Errors are reported as `FILE:LINE: message` with a suggestion; overrides
 * (--set KEY=VALUE, KEY = dt, material.NAME.friction or pair.A.B.friction) as
 * `--set 'KEY=VALUE': message`. */
#include "alloc.h"
#include "arcs.h"
#include "check.h"
#include "container.h"
#include "feed.h"
#include "lammps.h"
#include "keys.h"
#include "material.h"
#include "meshclump.h"
#include "neighbor.h"
#include "place.h"
#include "region.h"
#include "restart.h"
#include "world.h"
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct section {
    int kind;                /* enum pala_sect */
    char name[64];           /* [pair A B]: "A.B" */
    int line;                /* line of the header; 0 for the top level and a [pair] made by --set */
    char *set;               /* the --set that made a [pair] section, or NULL */
    union {                  /* what the section's keys fill (the top level's: pala_scene.top) */
        pala_material mat;
        pala_grain_keys grain;
        pala_group_keys group;
        pala_pairset pair;
        pala_surface wall;
        pala_outlet_keys outlet;
        pala_measure_keys measure;
    } keys;
} section;
typedef struct entry {
    int sect;                /* index into sec */
    const pala_keydef *k;
    char *val;               /* value text, trimmed */
    int line;                /* 0 for overrides */
    char *set;               /* the override text for messages, or NULL */
} entry;

struct pala_scene {
    char *path;              /* the control file */
    section *sec; int nsec;  /* sections in file order; sec[0] is the top level */
    entry *ent; int nent;    /* key lines in file order, then overrides */
    FILE *err;               /* where messages go */
    pala_top_keys top;       /* the top-level keys, with the world they build */
    void **wpar;             /* the parameters of each wall kind (pala_wall_kind_at), which its
                                keys fill */
    pala_rng rng;            /* random shapes, placement, orientations */
    struct clump_cache {     /* the clumps of shape = mesh, one per file and parameters */
        char *file;
        double scale, tolerance;
        int spheres;
        pala_meshclump *mc;
        int sect;            /* the section of the grain type it was built for */
    } *clumps;
    int nclump;
    char *report;            /* what the meshes and their clumps measure (pala_scene_report) */
    pala_restart restart;    /* start_from: the run's checkpoint, until the world is prepared */
    int *secent, *entord;    /* the entries of section i, in file order: entord[secent[i] ..
                                secent[i + 1]); NULL until asked for (sec_entries), and
                                again when an entry or a section is added or removed */
    struct {                 /* pala_scene_setting's place: the setting idx is the key kd of */
        int idx, sec;        /* section sec (idx -1: none yet), so the walk over every */
        const pala_keydef *kd;   /* setting in turn is linear, not quadratic */
    } cur;
};

/* ---- messages ---------------------------------------------------------------------- */
static void emsg(pala_scene *s, int line, const char *set, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (set) fprintf(s->err, "--set '%s': ", set);
    else if (line > 0) fprintf(s->err, "%s:%d: ", s->path, line);
    else fprintf(s->err, "%s: ", s->path);
    vfprintf(s->err, fmt, ap);
    fputc('\n', s->err);
    va_end(ap);
}
#define EERR(s, e, ...) emsg((s), (e)->line, (e)->set, __VA_ARGS__)

static int edit_distance(const char *a, const char *b)
{
    int la = (int)strlen(a), lb = (int)strlen(b);
    if (la > 40 || lb > 40) return 99;
    int d[41][41];
    for (int i = 0; i <= la; i++) d[i][0] = i;
    for (int j = 0; j <= lb; j++) d[0][j] = j;
    for (int i = 1; i <= la; i++)
        for (int j = 1; j <= lb; j++) {
            int c = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            if (d[i - 1][j] + 1 < c) c = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < c) c = d[i][j - 1] + 1;
            d[i][j] = c;
        }
    return d[la][lb];
}


static const pala_keydef *find_key(int kind, const char *name)
{
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k))
        if (k->sect == kind && !strcmp(k->name, name)) return k;
    return NULL;
}

/* "unknown key" with the closest key of the same section, or the section it belongs in;
 * another program's word for a key (pala_key_aliases) names pala's, with its section, and
 * an idea pala does not have yet says so. */
static void unknown_key(pala_scene *s, int line, const char *set, int kind, const char *name)
{
    const char *where = kind == PALA_S_TOP ? "at the top level" : "in this section";
    const pala_key_alias *al = pala_key_alias_of(name);
    if (al && !al->key) { emsg(s, line, set, "unknown key '%s': %s", name, al->note); return; }
    if (al) {
        char sect[48] = "";
        if (al->sect != kind) snprintf(sect, sizeof sect, al->sect == PALA_S_TOP ? ", a top-level key" : ", a key of [%s NAME]",
                                       pala_sect_names[al->sect]);
        emsg(s, line, set, "unknown key '%s' %s; did you mean '%s'%s? (%s; pala help %s)", name, where, al->key, sect, al->note, al->key);
        return;
    }
    const pala_keydef *best = NULL;
    int bd = 99;
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k)) {
        if (k->sect != kind) continue;
        int d = edit_distance(name, k->name);
        if (d < bd) { bd = d; best = k; }
    }
    int close = best && bd <= 1 + (int)strlen(name) / 4;
    for (const pala_keydef *k = pala_key_first(); k && !close; k = pala_key_next(k))
        if (!strcmp(k->name, name)) {
            if (k->sect == PALA_S_TOP)
                emsg(s, line, set, "key '%s' is a top-level key: move it above the first [section]", name);
            else
                emsg(s, line, set, "key '%s' belongs in a [%s NAME] section, not %s", name,
                     pala_sect_names[k->sect], kind == PALA_S_TOP ? "at the top level" : "here");
            return;
        }
    if (close) { emsg(s, line, set, "unknown key '%s' %s; did you mean '%s'? (pala help keys lists all)", name, where, best->name); return; }
    /* a typo of a key of another kind of section (frction in a [group]) */
    const pala_keydef *other = NULL;
    int od = 99;
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k)) {
        int d = k->sect != kind ? edit_distance(name, k->name) : 99;
        if (d < od) { od = d; other = k; }
    }
    if (other && od <= 1 + (int)strlen(name) / 4) {
        char in[48] = "the top level";
        if (other->sect != PALA_S_TOP) snprintf(in, sizeof in, "a [%s NAME] section", pala_sect_names[other->sect]);
        emsg(s, line, set, "unknown key '%s' %s; did you mean '%s', a key of %s? (pala help keys lists all)", name, where, other->name, in);
    } else emsg(s, line, set, "unknown key '%s' %s (pala help keys lists all)", name, where);
}

/* Keys that are two ways to give one value: a section gives one of the two (an override of
 * one replaces the other where the file gives it). */
static const int alternatives[][2] = {
    {PALA_KEY_steps, PALA_KEY_end_time},                    /* the run's length */
    {PALA_KEY_delta, PALA_KEY_restitution},                 /* delta = e^2 */
    {PALA_KEY_pair_delta, PALA_KEY_pair_restitution},
};
enum { NALT = sizeof alternatives / sizeof alternatives[0] };
/* The other way to give what key k gives, or NULL. */
static const pala_keydef *alternative(const pala_keydef *k)
{
    for (int i = 0; i < NALT; i++)
        for (int j = 0; j < 2; j++)
            if (k == &pala_keys[alternatives[i][j]]) return &pala_keys[alternatives[i][1 - j]];
    return NULL;
}

/* ---- value parsing ---------------------------------------------------------------- */
static const char *expected(const pala_keydef *k, char *buf, size_t len)
{
    switch (k->type) {
    case PALA_K_INT: snprintf(buf, len, "an integer"); break;
    case PALA_K_REAL: snprintf(buf, len, "a number (%s)", k->unit); break;
    case PALA_K_REALS:
        if (k->nmin == k->nmax) snprintf(buf, len, "%d numbers (%s)", k->nmin, k->unit);
        else snprintf(buf, len, "%d to %d numbers (%s)", k->nmin, k->nmax, k->unit);
        break;
    case PALA_K_WORD: snprintf(buf, len, "one of %s", k->choices); break;
    case PALA_K_NAME: snprintf(buf, len, "the name of a [%s] section", pala_sect_names[k->ref]); break;
    case PALA_K_PATH: snprintf(buf, len, "a file name"); break;
    default: snprintf(buf, len, "one of %s, or three numbers", k->choices); break;
    }
    return buf;
}

/* [pair A B] is named "A.B", and is also found as "B.A" */
static int find_section(const pala_scene *s, int kind, const char *name)
{
    for (int i = 0; i < s->nsec; i++)
        if (s->sec[i].kind == kind && !strcmp(s->sec[i].name, name)) return i;
    const char *dot = kind == PALA_S_PAIR ? strchr(name, '.') : NULL;
    if (!dot) return -1;
    char swap[64];
    snprintf(swap, sizeof swap, "%s.%.*s", dot + 1, (int)(dot - name), name);
    for (int i = 0; i < s->nsec; i++)
        if (s->sec[i].kind == kind && !strcmp(s->sec[i].name, swap)) return i;
    return -1;
}

/* Edit distance ignoring case (FIXED for fixed: 0). */
static int edit_distance_nocase(const char *a, const char *b)
{
    char la[48], lb[48];
    int i;
    for (i = 0; a[i] && i < 47; i++) la[i] = (char)tolower((unsigned char)a[i]);
    la[i] = 0;
    for (i = 0; b[i] && i < 47; i++) lb[i] = (char)tolower((unsigned char)b[i]);
    lb[i] = 0;
    return strlen(a) > 47 || strlen(b) > 47 ? 99 : edit_distance(la, lb);
}

/* ", did you mean 'X'?" for the candidate closest to w (case aside, at most about a quarter of
 * its letters off), else "" (a typo's suggestion, as for keys and sections). */
static const char *did_you_mean(const char *w, int n, const char *const *cand, char *buf, size_t len)
{
    int bd = 99, bi = -1;
    for (int i = 0; i < n; i++) {
        int d = edit_distance_nocase(w, cand[i]);
        if (d < bd) { bd = d; bi = i; }
    }
    if (bi < 0 || bd > 1 + (int)strlen(w) / 4) return "";
    snprintf(buf, len, ": did you mean '%s'?", cand[bi]);
    return buf;
}

/* did_you_mean, else the candidates' list (": it has A, B, C"), for a name not found. */
static const char *name_hint(const char *w, int n, const char *const *cand, char *buf, size_t len)
{
    if (did_you_mean(w, n, cand, buf, len)[0] || n == 0) return n ? buf : "";
    size_t o = (size_t)snprintf(buf, len, ": it has ");
    for (int i = 0; i < n && i < 8 && o < len; i++) o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", cand[i]);
    if (n > 8 && o < len) snprintf(buf + o, len - o, ", ...");
    return buf;
}

/* The names of the file's sections of one kind (at most 64), for did_you_mean. */
static int section_names(const pala_scene *s, int kind, const char **out)
{
    int n = 0;
    for (int i = 0; i < s->nsec && n < 64; i++)
        if (s->sec[i].kind == kind && s->sec[i].name[0]) out[n++] = s->sec[i].name;
    return n;
}

/* 1 if a word of txt reads as a number that is not finite (inf, nan, 1e999): no key takes one. */
static int not_finite(const char *txt)
{
    for (const char *p = txt; *p;) {
        while (isspace((unsigned char)*p)) p++;
        if (!*p) break;
        char *end;
        double v = strtod(p, &end);
        if (end > p && (!*end || isspace((unsigned char)*end)) && !isfinite(v)) return 1;
        while (*p && !isspace((unsigned char)*p)) p++;
    }
    return 0;
}

/* Check one entry's value against its key definition. */
static int check_value(pala_scene *s, const entry *e)
{
    const pala_keydef *k = e->k;
    char eb[128];
    double v[8];
    int n;
    if (!e->val[0]) {
        EERR(s, e, "missing value for '%s': expected %s", k->name, expected(k, eb, sizeof eb));
        return -1;
    }
    switch (k->type) {
    case PALA_K_WORD:
        if (pala_key_word(k->choices, e->val) < 0) {
            const char *words[16];
            char cw[256], mb[96];
            int nw = 0;
            snprintf(cw, sizeof cw, "%s", k->choices);
            for (char *t = cw; t && nw < 16;) {   /* "a|b|c": each word ended where its '|' was */
                words[nw++] = t;
                if ((t = strchr(t, '|'))) *t++ = 0;
            }
            EERR(s, e, "'%s = %s': expected %s%s", k->name, e->val, expected(k, eb, sizeof eb), did_you_mean(e->val, nw, words, mb, sizeof mb));
            return -1;
        }
        return 0;
    case PALA_K_NAME:
        if (find_section(s, k->ref, e->val) < 0) {
            const char *names[64];
            char mb[512];
            EERR(s, e, "'%s = %s': no [%s %s] section in this file%s", k->name, e->val, pala_sect_names[k->ref], e->val,
                 name_hint(e->val, section_names(s, k->ref, names), names, mb, sizeof mb));
            return -1;
        }
        return 0;
    case PALA_K_PATH: return 0;
    case PALA_K_ORIENT:
        if (pala_key_word(k->choices, e->val) >= 0) return 0;
        /* fall through: three numbers */
    default: break;
    }
    int max = k->type == PALA_K_INT || k->type == PALA_K_REAL ? 1 : k->nmax;
    int min = k->type == PALA_K_INT || k->type == PALA_K_REAL ? 1 : k->nmin;
    int rc = pala_key_reals(e->val, v, max, &n);
    if (rc == -1 || (rc == 0 && n < min) || rc == -2) {
        EERR(s, e, "'%s = %s': expected %s%s", k->name, e->val, expected(k, eb, sizeof eb),
             not_finite(e->val) ? ", finite (inf and nan are not values; past 1e308 neither)" : "");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        if (k->type == PALA_K_INT && v[i] != floor(v[i])) {
            EERR(s, e, "'%s = %s': expected an integer", k->name, e->val);
            return -1;
        }
        char why[96];
        if (!pala_key_in_range(k, v[i], why, sizeof why)) {
            EERR(s, e, "'%s = %s': %s", k->name, e->val, why);
            return -1;
        }
    }
    return 0;
}

/* ---- reading ----------------------------------------------------------------------- */
static char *trim(char *p)
{
    while (isspace((unsigned char)*p)) p++;
    char *e = p + strlen(p);
    while (e > p && isspace((unsigned char)e[-1])) *--e = 0;
    return p;
}

static char *xstrdup(const char *p)
{
    size_t n = strlen(p) + 1;
    char *q = pala_xrealloc(NULL, n);
    memcpy(q, p, n);
    return q;
}

/* The entries or sections changed: the index of entries by section is made anew when next
 * asked for, and pala_scene_setting starts over. */
static void entries_changed(pala_scene *s)
{
    free(s->secent);
    free(s->entord);
    s->secent = s->entord = NULL;
    s->cur.kd = NULL;
}

static int add_section(pala_scene *s, int kind, const char *name, int line)
{
    PALA_GROW(s->sec, s->nsec + 1);
    entries_changed(s);
    section *c = &s->sec[s->nsec];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    snprintf(c->name, sizeof c->name, "%s", name);
    c->line = line;
    return s->nsec++;
}

/* The entries of section sect, in file order, in *n: one counting sort of all entries
 * when the index is missing, so a lookup costs the entries of its section, not all of a
 * scene's (a scene of 1,000 grain types and 1,000 groups has some 10,000). */
static const int *sec_entries(const pala_scene *cs, int sect, int *n)
{
    pala_scene *s = (pala_scene *)cs;   /* the index only: the scene is not changed */
    if (!s->secent) {
        s->secent = pala_xrealloc(NULL, (size_t)(s->nsec + 1) * sizeof *s->secent);
        s->entord = pala_xrealloc(NULL, (size_t)(s->nent ? s->nent : 1) * sizeof *s->entord);
        memset(s->secent, 0, (size_t)(s->nsec + 1) * sizeof *s->secent);
        for (int e = 0; e < s->nent; e++) s->secent[s->ent[e].sect + 1]++;
        for (int i = 0; i < s->nsec; i++) s->secent[i + 1] += s->secent[i];
        for (int e = 0, *fill = s->secent; e < s->nent; e++) s->entord[fill[s->ent[e].sect]++] = e;
        for (int i = s->nsec; i > 0; i--) s->secent[i] = s->secent[i - 1];   /* the fill moved each start to the next */
        s->secent[0] = 0;
    }
    *n = s->secent[sect + 1] - s->secent[sect];
    return s->entord + s->secent[sect];
}

/* The last entry of key k in section sect, or NULL; find_entry: of key (enum pala_key). */
static entry *find_entry_k(const pala_scene *s, int sect, const pala_keydef *k)
{
    int n;
    const int *se = sec_entries(s, sect, &n);
    for (int i = n - 1; i >= 0; i--)
        if (s->ent[se[i]].k == k) return &s->ent[se[i]];
    return NULL;
}
static entry *find_entry(const pala_scene *s, int sect, int key) { return find_entry_k(s, sect, &pala_keys[key]); }

/* One line of f into buf (at most len - 2 characters and the newline): its length, -1 at
 * the end of the file, -2 if it is too long, -3 if it holds a NUL byte or another byte no
 * text file has (a binary file). */
static int get_line(FILE *f, char *buf, int len, int cr)
{
    int n = 0, c, bin = 0;
    while ((c = getc(f)) != EOF) {
        if (c == 0 || (c < 32 && c != '\n' && c != '\t' && c != '\r' && c != '\f' && c != '\v')) bin = 1;
        if (n < len - 1) buf[n] = (char)(c ? c : ' ');
        n++;
        if (c == '\n') break;
        if (c == '\r' && cr) break;   /* a file without LF: CR ends its lines (old Mac files); elsewhere a CR is a blank */
        if (bin || n > len - 1) break;   /* either is an error: read no further (/dev/zero has no end) */
    }
    if (c == EOF && n == 0) return -1;
    if (bin) return -3;
    if (n > len - 1) return -2;
    buf[n] = 0;
    return n;
}

/* The closest section kind to a misspelt word, or NULL. */
static const char *close_section(const char *w)
{
    const char *best = NULL;
    int bd = 99;
    for (int k = 1; k < PALA_S_N; k++) {
        int d = edit_distance(w, pala_sect_names[k]);
        if (d < bd) { bd = d; best = pala_sect_names[k]; }
    }
    return bd <= 1 + (int)strlen(w) / 4 ? best : NULL;
}

/* The offset of the first byte of t that is not part of well-formed UTF-8, or of a
 * byte-order mark (U+FEFF, EF BB BF, not text inside a file), or -1. */
static long utf8_bad(const char *t)
{
    const unsigned char *u = (const unsigned char *)t;
    for (long i = 0; u[i];) {
        int n = u[i] < 0x80 ? 0 : u[i] >= 0xc2 && u[i] < 0xe0 ? 1 : u[i] >= 0xe0 && u[i] < 0xf0 ? 2 : u[i] >= 0xf0 && u[i] < 0xf5 ? 3 : -1;
        if (n < 0 || (u[i] == 0xef && u[i + 1] == 0xbb && u[i + 2] == 0xbf)) return i;
        for (int k = 1; k <= n; k++)
            if ((u[i + k] & 0xc0) != 0x80) return i;
        i += n + 1;
    }
    return -1;
}

static int read_file(pala_scene *s)
{
    struct stat st;
    if (stat(s->path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(s->err, "%s: is a folder, not a control file; give a control file such as examples/settling-box.txt\n", s->path);
        return -1;
    }
    FILE *f = fopen(s->path, "r");
    if (!f) { fprintf(s->err, "%s: cannot open: %s\n", s->path, strerror(errno)); return -1; }
    char buf[4096];
    int line = 0, cur = add_section(s, PALA_S_TOP, "", 0), bad = 0, n;
    int skip = 0;   /* after a bad section header: its keys are not checked (no follow-on errors) */
    int ch, lf = 0;   /* LF ends lines, CR LF too; a file with no LF at all ends them with CR */
    while (!lf && (ch = getc(f)) != EOF && ch != 0) lf = ch == '\n';   /* to a NUL at most: the lines say it is binary */
    rewind(f);
    while ((n = get_line(f, buf, (int)sizeof buf, !lf)) != -1) {
        line++;
        if (n == -2) {
            emsg(s, line, NULL, "line longer than %d characters; split it", (int)sizeof buf - 2);
            fclose(f);
            return -1;
        }
        if (n == -3) {
            emsg(s, line, NULL, "a NUL byte or another control character: this is a binary file, not a control file (text, 'key = value' lines)");
            fclose(f);
            return -1;
        }
        char *p0 = buf;
        if (line == 1 && !memcmp(p0, "\xef\xbb\xbf", 3)) p0 += 3;   /* a UTF-8 byte-order mark */
        char *hash = strchr(p0, '#');
        if (hash) *hash = 0;
        long bad8 = utf8_bad(p0);   /* what is read must be text (names reach view.html, declared UTF-8) */
        if (bad8 >= 0) {
            if (!memcmp(p0 + bad8, "\xef\xbb\xbf", 3))
                emsg(s, line, NULL, "a byte-order mark (U+FEFF) at column %ld, inside the file: remove it (files joined with cat keep the second file's)", bad8 + 1);
            else emsg(s, line, NULL, "bytes that are not UTF-8 text at column %ld: save the file as UTF-8 (or ASCII)", bad8 + 1);
            fclose(f);
            return -1;
        }
        char *p = trim(p0);
        if (!*p) continue;
        if (*p == '[') {
            char *close = strchr(p, ']');
            char kindw[32] = "", name[64] = "", name2[64] = "", extra[8] = "";
            skip = 1;
            if (!close || trim(close + 1)[0]) { emsg(s, line, NULL, "expected a section header like [material NAME]"); bad = 1; continue; }
            *close = 0;
            int nw = sscanf(p + 1, "%31s %63s %63s %7s", kindw, name, name2, extra);
            int kind = -1;
            for (int k = 1; k < PALA_S_N; k++)
                if (!strcmp(kindw, pala_sect_names[k])) kind = k;
            if (kind < 0) {
                const char *c = close_section(kindw);
                if (c) emsg(s, line, NULL, "unknown section [%s]: did you mean [%s %s]?", kindw, c, name[0] ? name : "NAME");
                else emsg(s, line, NULL, "unknown section [%s]: expected [material NAME], [grain NAME], [group NAME], [pair A B], [wall NAME], [outlet NAME] or [measure NAME]", kindw);
                bad = 1;
                continue;
            }
            if (kind == PALA_S_PAIR && nw != 3) {
                emsg(s, line, NULL, "section [pair] needs the names of two [material] sections, e.g. [pair rubber steel]");
                bad = 1;
                continue;
            }
            if (kind != PALA_S_PAIR && nw != 2) { emsg(s, line, NULL, "section [%s] needs one name, e.g. [%s %s1]", kindw, kindw, kindw); bad = 1; continue; }
            int badname = 0;
            for (int j = 0; j < (kind == PALA_S_PAIR ? 2 : 1) && !badname; j++) {
                const char *nm = j ? name2 : name;
                if (strlen(nm) > 31 || strchr(nm, '.') || strchr(nm, '=')) {
                    emsg(s, line, NULL, "section name '%s': use at most 31 characters, no '.' or '='", nm);
                    badname = 1;
                }
            }
            if (badname) { bad = 1; continue; }
            if (kind == PALA_S_PAIR) {   /* named "A.B" (both checked to be at most 31 characters) */
                char pn[64];
                snprintf(pn, sizeof pn, "%.31s.%.31s", name, name2);
                memcpy(name, pn, sizeof pn);
            }
            int prev = find_section(s, kind, name);
            if (prev >= 0 && kind == PALA_S_PAIR) {
                emsg(s, line, NULL, "[pair %s %s] is defined twice (first at line %d); merge the two sections into one", strtok(name, "."), name2,
                     s->sec[prev].line);
                bad = 1;
                continue;
            }
            if (prev >= 0) { emsg(s, line, NULL, "[%s %s] is defined twice (first at line %d); rename one", kindw, name, s->sec[prev].line); bad = 1; continue; }
            cur = add_section(s, kind, name, line);
            skip = 0;
            continue;
        }
        if (skip) continue;
        char *eq = strchr(p, '=');
        if (!eq) { emsg(s, line, NULL, "expected 'key = value', got '%s'", p); bad = 1; continue; }
        *eq = 0;
        char *key = trim(p), *val = trim(eq + 1);
        const pala_keydef *k = find_key(s->sec[cur].kind, key);
        if (!k) { unknown_key(s, line, NULL, s->sec[cur].kind, key); bad = 1; continue; }
        entry *old = find_entry_k(s, cur, k);
        if (old && !k->repeat) {
            emsg(s, line, NULL, "'%s' is set twice in this section (first at line %d); keep one", key, old->line);
            bad = 1;
            continue;
        }
        PALA_GROW(s->ent, s->nent + 1);
        s->ent[s->nent++] = (entry){cur, k, xstrdup(val), line, NULL};
        entries_changed(s);
    }
    int rerr = ferror(f);
    fclose(f);
    if (rerr) { fprintf(s->err, "%s: cannot read: %s\n", s->path, strerror(errno)); return -1; }
    if (line == 0 && !bad) { fprintf(s->err, "%s: the file is empty; see examples/ for control files\n", s->path); bad = 1; }
    return bad ? -1 : 0;
}

/* --set KEY=VALUE: KEY is a top-level key, KIND.NAME.KEY (material.rubber.friction) or
 * pair.A.B.KEY, which makes the section [pair A B] if the file has none. */
static int apply_override(pala_scene *s, char *set)
{
    char *eq = strchr(set, '=');
    if (!eq) { emsg(s, 0, set, "expected KEY=VALUE, e.g. --set dt=1e-6"); return -1; }
    char key[160];
    size_t kl = (size_t)(eq - set);
    if (kl >= sizeof key) { emsg(s, 0, set, "the key is longer than %d characters; no key is that long", (int)sizeof key - 1); return -1; }
    memcpy(key, set, kl);
    key[kl] = 0;
    char *kk = trim(key);
    char val[1024];
    if (strlen(eq + 1) >= sizeof val) { emsg(s, 0, set, "the value is longer than %d characters; put long values in the control file", (int)sizeof val - 1); return -1; }
    snprintf(val, sizeof val, "%s", eq + 1);
    char *v = trim(val);
    int sect = 0;
    const char *name = kk;
    char *d1 = strchr(kk, '.');
    if (d1) {
        char *d2 = strchr(d1 + 1, '.');
        if (!d2) { emsg(s, 0, set, "expected KEY or KIND.NAME.KEY, e.g. material.sand.friction"); return -1; }
        *d1 = *d2 = 0;
        int kind = -1;
        for (int k = 1; k < PALA_S_N; k++)
            if (!strcmp(kk, pala_sect_names[k])) kind = k;
        if (kind < 0) { emsg(s, 0, set, "'%s' is not a section kind: use material, grain, group, pair, wall, outlet or measure", kk); return -1; }
        name = d2 + 1;
        if (kind == PALA_S_PAIR) {
            char *d3 = strchr(d2 + 1, '.');
            if (!d3) { emsg(s, 0, set, "expected pair.A.B.KEY with A and B two materials, e.g. pair.rubber.steel.friction"); return -1; }
            *d3 = 0;
            if (!d1[1] || !d2[1] || strlen(d1 + 1) > 31 || strlen(d2 + 1) > 31) {
                emsg(s, 0, set, "expected pair.A.B.KEY with A and B the names of two [material] sections (at most 31 characters each)");
                return -1;
            }
            *d2 = '.';
            name = d3 + 1;
        }
        sect = find_section(s, kind, d1 + 1);
        if (sect < 0 && kind == PALA_S_PAIR) {   /* the material names are checked with the file's pairs */
            sect = add_section(s, kind, d1 + 1, 0);
            s->sec[sect].set = set;
        }
        if (sect < 0) {
            const char *names[64];
            char mb[512];
            int nn = section_names(s, kind, names);
            emsg(s, 0, set, "the file has no [%s %s] section%s", kk, d1 + 1, nn ? name_hint(d1 + 1, nn, names, mb, sizeof mb) : ": add one, or check the name");
            return -1;
        }
    }
    const pala_keydef *k = find_key(s->sec[sect].kind, name);
    if (!k) { unknown_key(s, 0, set, s->sec[sect].kind, name); return -1; }
    if (k->repeat) { emsg(s, 0, set, "'%s' is a repeated key and cannot be overridden; edit the file", name); return -1; }
    /* two ways to give one value (steps and end_time, delta and restitution): an override of
     * one replaces the other where the file gives it (both as overrides stay an error) */
    const pala_keydef *other = alternative(k);
    entry *o = other ? find_entry_k(s, sect, other) : NULL;
    if (o && !o->set) {
        free(o->val);
        long i = o - s->ent;
        memmove(o, o + 1, (size_t)(s->nent - i - 1) * sizeof *o);
        s->nent--;
    }
    entries_changed(s);
    entry *e = find_entry_k(s, sect, k);
    if (e) { free(e->val); e->val = xstrdup(v); e->line = 0; e->set = set; }
    else {
        PALA_GROW(s->ent, s->nent + 1);
        s->ent[s->nent++] = (entry){sect, k, xstrdup(v), 0, set};
        entries_changed(s);
    }
    return 0;
}

/* The two names of each [pair A B] are [material] sections (a pair made by --set too). */
static int check_pairs(pala_scene *s)
{
    int bad = 0;
    for (int i = 0; i < s->nsec; i++) {
        const section *c = &s->sec[i];
        if (c->kind != PALA_S_PAIR) continue;
        char a[64];
        snprintf(a, sizeof a, "%s", c->name);
        char *b = strchr(a, '.');
        *b++ = 0;
        for (int j = 0; j < 2; j++) {
            const char *nm = j ? b : a;
            if (find_section(s, PALA_S_MATERIAL, nm) >= 0) continue;
            const char *best = NULL;
            int bd = 99;
            for (int m = 0; m < s->nsec; m++) {
                if (s->sec[m].kind != PALA_S_MATERIAL) continue;
                int d = edit_distance(nm, s->sec[m].name);
                if (d < bd) { bd = d; best = s->sec[m].name; }
            }
            char hint[96] = "";
            if (best && bd <= 1 + (int)strlen(nm) / 4) snprintf(hint, sizeof hint, "; did you mean '%s'?", best);
            emsg(s, c->line, c->set, "[pair %s %s]: no [material %s] section in this file%s (a pair names two [material] sections)",
                 a, b, nm, hint);
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* A section gives at most one of two alternative keys (steps or end_time, delta or
 * restitution). */
static int check_alternatives(pala_scene *s)
{
    int bad = 0;
    for (int i = 0; i < s->nsec; i++)
        for (int a = 0; a < NALT; a++) {
            entry *e0 = find_entry(s, i, alternatives[a][0]), *e1 = find_entry(s, i, alternatives[a][1]);
            if (!e0 || !e1) continue;
            EERR(s, e1, "give either '%s' or '%s', not both%s", e0->k->name, e1->k->name,
                 e1->set ? " (drop one of the two --set)" : "; delete one of the two lines");
            bad = 1;
        }
    return bad ? -1 : 0;
}

/* ---- storing the values ------------------------------------------------------------ */
/* Store the value of each key of section i, else its default, in obj, the struct of the
 * section (keys.h), or a wall kind's key in the kind's parameters; a repeated key once per
 * line, in order. */
static void bind_section(pala_scene *s, int i, void *obj)
{
    for (const pala_keydef *kd = pala_key_first(); kd; kd = pala_key_next(kd)) {
        if (kd->sect != s->sec[i].kind || kd->repeat || kd->bind.store == PALA_ST_NONE) continue;
        const entry *e = find_entry_k(s, i, kd);
        const char *v = e ? e->val : kd->def;
        int wk = pala_key_wall(kd);
        if (v) pala_key_store(kd, wk >= 0 ? s->wpar[wk] : obj, v);
        if (e && kd->pairbit) ((pala_pairset *)obj)->set |= kd->pairbit;
    }
    int ne;
    const int *se = sec_entries(s, i, &ne);
    for (int q = 0; q < ne; q++)
        if (s->ent[se[q]].k->repeat) pala_key_store(s->ent[se[q]].k, obj, s->ent[se[q]].val);
}

/* line of key k for messages: its own line, else the section's header line */
static int kline(pala_scene *s, int sect, const pala_keydef *k, char **set)
{
    entry *e = k ? find_entry_k(s, sect, k) : NULL;
    *set = e ? e->set : NULL;
    return e ? e->line : s->sec[sect].line;
}
/* a message at the line of key k (SERR: of key, enum pala_key) */
#define SERR_K(s, sect, k, ...) do { char *set_; int l_ = kline((s), (sect), (k), &set_); emsg((s), l_, set_, __VA_ARGS__); } while (0)
#define SERR(s, sect, key, ...) SERR_K(s, sect, &pala_keys[key], __VA_ARGS__)

static int require_k(pala_scene *s, int sect, const pala_keydef *k, const char *why)
{
    if (find_entry_k(s, sect, k)) return 0;
    const section *c = &s->sec[sect];
    char eb[128];
    if (c->kind == PALA_S_TOP)
        emsg(s, 0, NULL, "missing key '%s' (%s): add e.g. '%s = ...', %s", k->name, k->doc, k->name, expected(k, eb, sizeof eb));
    else
        emsg(s, c->line, NULL, "[%s %s] needs '%s' %s: %s", pala_sect_names[c->kind], c->name, k->name, why, k->doc);
    return -1;
}
static int require(pala_scene *s, int sect, int key, const char *why) { return require_k(s, sect, &pala_keys[key], why); }

/* ---- building the world ------------------------------------------------------------ */
static int build_materials(pala_scene *s, int *matidx)
{
    int bad = 0;
    for (int i = 0; i < s->nsec; i++) {
        matidx[i] = -1;
        if (s->sec[i].kind != PALA_S_MATERIAL) continue;
        bad |= require(s, i, PALA_KEY_density, "") | require(s, i, PALA_KEY_young, "");
        pala_material *m = &s->sec[i].keys.mat;
        snprintf(m->name, sizeof m->name, "%.31s", s->sec[i].name);
        matidx[i] = pala_world_add_material(&s->top.w, m);
    }
    /* pairs of materials with their own values (check_pairs found both names) */
    for (int i = 0; i < s->nsec; i++) {
        if (s->sec[i].kind != PALA_S_PAIR) continue;
        pala_pairset *p = &s->sec[i].keys.pair;
        char a[64];
        snprintf(a, sizeof a, "%s", s->sec[i].name);
        char *b = strchr(a, '.');
        *b++ = 0;
        p->a = matidx[find_section(s, PALA_S_MATERIAL, a)];
        p->b = matidx[find_section(s, PALA_S_MATERIAL, b)];
        if (pala_world_add_pair(&s->top.w, p) < 0) {   /* never: check_pairs and read_file refused what it refuses */
            emsg(s, s->sec[i].line, s->sec[i].set, "[pair %s %s]: %s", a, b, pala_world_error(&s->top.w));
            bad = 1;
        }
    }
    return bad ? -1 : 0;
}

/* The library's refusal (pala_world_check, in the words of control files) at the line of the
 * key it names: the key of the refused field in the section of its part (a material's, a
 * pair's, a grain type's; the top level for the world's), else the part's section header. */
static void refused(pala_scene *s, const pala_check *c)
{
    const pala_world *w = &s->top.w;
    int sect = 0;
    if (c->part == PALA_PART_MATERIAL) sect = find_section(s, PALA_S_MATERIAL, w->mat[c->index].name);
    if (c->part == PALA_PART_TEMPLATE) sect = find_section(s, PALA_S_GRAIN, w->tmpl[c->index].name);   /* not lammps_data's */
    if (c->part == PALA_PART_PAIR) {
        char pn[64];
        snprintf(pn, sizeof pn, "%s.%s", w->mat[w->pairs[c->index].a].name, w->mat[w->pairs[c->index].b].name);
        sect = find_section(s, PALA_S_PAIR, pn);
    }
    if (c->part == PALA_PART_FEED) {   /* an inserter's [group], an outlet's [outlet] */
        const pala_feed_one *f = &w->feed->f[c->index];
        int kind = f->outlet ? PALA_S_OUTLET : PALA_S_GROUP;
        sect = find_section(s, kind, f->outlet ? f->out.name : f->in.name);
        if (sect >= 0) { SERR_K(s, sect, c->wkey ? find_key(kind, c->wkey) : NULL, "%s", c->msg); return; }
    }
    if (sect < 0) sect = 0;
    if (c->part == PALA_PART_WALL && c->index >= 0 && w->walls[c->index].kind == pala_wall_kind_named("surface")) {   /* a [wall]'s key */
        sect = find_section(s, PALA_S_WALL, ((const pala_surface *)w->walls[c->index].par)->name);
        if (sect < 0) sect = 0;
        SERR_K(s, sect, c->wkey ? find_key(PALA_S_WALL, c->wkey) : NULL, "%s", c->msg);
    } else if (c->part == PALA_PART_WALL) SERR_K(s, 0, c->wkey ? find_key(PALA_S_TOP, c->wkey) : NULL, "%s", c->msg);   /* a kind's key */
    else if (c->key >= 0 && pala_keys[c->key].sect == s->sec[sect].kind) SERR(s, sect, c->key, "%s", c->msg);
    else emsg(s, s->sec[sect].line, s->sec[sect].set, "%s", c->msg);
}

/* pala_world_check on the world built so far, its refusal at its line. */
static int check_world(pala_scene *s)
{
    char msg[1024];
    pala_check c = {1, msg, sizeof msg, 0, 0, -1, NULL};
    if (pala_world_check(&s->top.w, &c) == PALA_OK) return 0;
    refused(s, &c);
    return -1;
}

/* Build a template from n components (eqs. 25-35) and add it to the world, then scale it
 * to volume_radius if given; *built (if not NULL): the template before the scaling. */
static int add_template(pala_scene *s, int i, pala_template *t, int n, const pala_vec3 *c, const double *rad, pala_template *built)
{
    pala_world *w = &s->top.w;
    const pala_grain_keys *gk = &s->sec[i].keys.grain;
    t->charge = gk->charge;
    t->edip = gk->edip;   /* in the frame of the sphere lines */
    t->mdip = gk->mdip;
    long ns = gk->mass_properties == PALA_MASS_EXACT ? PALA_EXACT : gk->mc_samples;   /* the key mass_properties */
    int k = pala_world_build_template(w, t, n, c, rad, ns);
    if (k < 0) {
        emsg(s, s->sec[i].line, NULL, "[grain %s]: %s", s->sec[i].name, pala_world_error(w));
        return -1;
    }
    int c0 = w->tmpl[k].comp0;
    if (built) *built = w->tmpl[k];
    if (gk->volume_radius > 0) pala_template_scale(&w->tmpl[k], w->shape + c0, w->shape_r + c0, gk->volume_radius);
    return 0;
}

/* A grain type of shape = arcs (2D): its arc lines (degrees), or a quasi-polygon
 * (pala_arcs_regular); scaled to the area of a disc of volume_radius if given; its
 * template exact (arcs.c).  A refusal goes to the line of the key it names. */
static int build_arc_type(pala_scene *s, int i, pala_template *t)
{
    const pala_grain_keys *gk = &s->sec[i].keys.grain;
    const char *nm = s->sec[i].name;
    pala_world *w = &s->top.w;
    enum { MAXA = 128 };
    pala_arc a[MAXA];
    entry *line[MAXA];
    int n = 0;
    char err[320];
    if (w->dim != 2) { SERR(s, i, PALA_KEY_shape, "[grain %s]: shape = arcs is a 2D grain: set dimension = 2", nm); return -1; }
    if (gk->size.law != PALA_SIZE_NONE) {   /* the sizes' templates are scaled spheres (place.c) */
        SERR(s, i, PALA_KEY_size_distribution, "[grain %s]: arc grains take one size (volume_radius), not size_distribution yet", nm);
        return -1;
    }
    if (gk->arcs_shape == PALA_ARCS_LIST) {
        if (gk->narc < 2) {
            emsg(s, s->sec[i].line, NULL, "[grain %s] has shape = arcs but %d 'arc = x y r a0 a1' lines: give at least 2, or arcs_shape = oval, "
                 "triangle, square or polygon", nm, gk->narc);
            return -1;
        }
        for (int e = 0; e < s->nent; e++) {
            entry *en = &s->ent[e];
            if (en->sect != i || en->k != &pala_keys[PALA_KEY_arc]) continue;
            if (n == MAXA) { EERR(s, en, "more than %d arcs; split the grain", MAXA); return -1; }
            double v[5];
            int k;
            pala_key_reals(en->val, v, 5, &k);
            a[n] = (pala_arc){pala_v(v[0], v[1], 0), v[2], v[3] * PALA_PI / 180, v[4] * PALA_PI / 180};
            line[n++] = en;
        }
    } else {
        static const char *const words[] = {"", "oval", "triangle", "square", "polygon"};
        const int sides[] = {0, 2, 3, 4, gk->sides};
        char why[48];
        snprintf(why, sizeof why, "for arcs_shape = %s", words[gk->arcs_shape]);
        if (require(s, i, PALA_KEY_radius, why) | require(s, i, PALA_KEY_corner_radius, why) | require(s, i, PALA_KEY_side_radius, why)) return -1;
        n = pala_arcs_regular(sides[gk->arcs_shape], gk->radius, gk->corner_radius, gk->side_radius, a, err, sizeof err);
        if (n < 0) {
            int key = !strncmp(err, "'side_", 6) ? PALA_KEY_side_radius : !strncmp(err, "'sides", 6) ? PALA_KEY_sides : PALA_KEY_corner_radius;
            SERR(s, i, key, "[grain %s]: %s", nm, err);
            return -1;
        }
    }
    if (gk->volume_radius > 0) {   /* the outline scaled to the area of the disc of that radius */
        double m[6];
        pala_arcs_moments(n, a, m);
        double f = m[0] > 0 ? gk->volume_radius * sqrt(PALA_PI / m[0]) : 1;
        for (int k = 0; k < n; k++) { a[k].c = pala_vscale(f, a[k].c); a[k].R *= f; }
    }
    t->charge = gk->charge;
    t->edip = gk->edip;
    t->mdip = gk->mdip;
    if (pala_world_build_arc_template(w, t, n, a, gk->thickness) >= 0) return 0;
    int which = 0;   /* "arc N: ..." or "arc N ends ...": that line */
    if (gk->arcs_shape == PALA_ARCS_LIST && (sscanf(pala_world_error(w), "arc %d", &which) == 1 || sscanf(pala_world_error(w), "arcs %d", &which) == 1) && which >= 1 && which <= n)
        EERR(s, line[which - 1], "[grain %s] 'arc = %s': %s", nm, line[which - 1]->val, pala_world_error(w));
    else if (gk->arcs_shape == PALA_ARCS_LIST) SERR(s, i, PALA_KEY_arc, "[grain %s]: %s", nm, pala_world_error(w));
    else   /* arcs it made itself: say which keys made them */
        SERR(s, i, PALA_KEY_arcs_shape, "[grain %s]: the outline of radius %g m, corner_radius %g m and side_radius %g m cannot be drawn with arcs "
             "(its own arcs: %s): bring corner_radius and side_radius nearer to radius", nm, gk->radius, gk->corner_radius, gk->side_radius,
             pala_world_error(w));
    return -1;
}

/* The clump of grain type i's mesh (shape = mesh): made once per file and parameters
 * (meshclump.h) and kept for the grain types that ask for it again (*first: the section of
 * the type it was made for); NULL after a message. */
static const pala_meshclump *mesh_clump(pala_scene *s, int i, int *first)
{
    const pala_grain_keys *gk = &s->sec[i].keys.grain;
    int ns = find_entry(s, i, PALA_KEY_spheres) != NULL, nt = find_entry(s, i, PALA_KEY_tolerance) != NULL;
    if (require(s, i, PALA_KEY_file, "for shape = mesh")) return NULL;
    if (ns == nt) {
        emsg(s, s->sec[i].line, NULL, "[grain %s] has shape = mesh and needs %s of 'spheres = N' (the clump's spheres, 1 .. %d) and "
             "'tolerance = L' (m, the largest distance of the mesh's surface from the clump's)", s->sec[i].name, ns ? "only one" : "one",
             PALA_MESHCLUMP_MAX);
        return NULL;
    }
    if (s->top.w.dim != 3) { SERR(s, i, PALA_KEY_shape, "[grain %s]: shape = mesh needs dimension = 3", s->sec[i].name); return NULL; }
    int nsph = ns ? gk->spheres : 0;
    double tol = ns ? 0 : gk->tolerance, scale = gk->scale > 0 ? gk->scale : 1;
    for (int k = 0; k < s->nclump; k++) {
        const struct clump_cache *cc = &s->clumps[k];
        if (!strcmp(cc->file, gk->file) && cc->scale == scale && cc->spheres == nsph && cc->tolerance == tol) {
            *first = cc->sect;
            return cc->mc;
        }
    }
    char err[1024];
    pala_meshclump *mc;
    if (pala_meshclump_make(gk->file, scale, nsph, tol, &mc, err, sizeof err)) {
        SERR(s, i, PALA_KEY_file, "[grain %s] 'file': %s", s->sec[i].name, err);
        return NULL;
    }
    size_t len = strlen(gk->file) + 1;
    char *file = pala_xrealloc(NULL, len);
    memcpy(file, gk->file, len);
    PALA_GROW(s->clumps, s->nclump + 1);
    s->clumps[s->nclump++] = (struct clump_cache){file, scale, tol, nsph, mc, i};
    *first = i;
    return mc;
}

/* appends a line to the scene's report */
static void report(pala_scene *s, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    size_t have = s->report ? strlen(s->report) : 0, add = strlen(line);
    s->report = pala_xrealloc(s->report, have + add + 2);
    memcpy(s->report + have, line, add);
    memcpy(s->report + have + add, "\n", 2);
}

/* A grain type of shape = mesh: its clump's spheres through the builder like listed
 * spheres, and the report of the mesh's exact solid beside the clump's (before volume_radius
 * scales the grain). */
static int build_mesh_type(pala_scene *s, int i, pala_template *t)
{
    int first;
    const pala_meshclump *mc = mesh_clump(s, i, &first);
    if (!mc) return -1;
    pala_template b;
    if (add_template(s, i, t, mc->n, mc->c, mc->r, &b)) return -1;
    const pala_solid *m = &mc->mesh;
    double rho = s->top.w.mat[t->material].rho, a[3][3], mom[3], o[3][3];
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) a[r][c] = rho * m->inertia[r][c];
    pala_sym3_eigen(a, mom, o);
    const char *file = s->sec[i].keys.grain.file, *base = strrchr(file, '/');
    report(s, "grain type %s: mesh %s, %d triangles: volume %.6g m^3, centre of mass (%.6g %.6g %.6g) m, principal moments %.4g %.4g %.4g kg m^2 "
           "(exact, divergence theorem)", b.name, base ? base + 1 : file, mc->ntri, m->volume, m->com.x, m->com.y, m->com.z, mom[0], mom[1], mom[2]);
    char shared[96] = "";
    if (first != i) snprintf(shared, sizeof shared, " (built once, for grain type %s)", s->sec[first].name);
    report(s, "grain type %s: clump of %d spheres%s: volume %.6g m^3 (%+.2g%%), centre of mass (%.6g %.6g %.6g) m, principal moments %.4g %.4g %.4g kg m^2; "
           "surface deviation largest %.3g m, RMS %.3g m (%d samples of the mesh; clump to mesh largest %.3g m)", b.name, b.ncomp, shared, b.volume,
           100 * (b.volume / m->volume - 1), b.com_given.x, b.com_given.y, b.com_given.z, b.inertia[0], b.inertia[1], b.inertia[2],
           mc->dev_max, mc->dev_rms, mc->nsample, mc->back_max);
    return 0;
}

/* The size distribution of grain type i (docs/physics.md, "Size distributions"): the law has
 * the keys it needs and can be sampled, and its table or sieve curve is read from the lines,
 * in order.  (The keys of other laws are not read, as the keys of other shapes.) */
static int grain_sizes(pala_scene *s, int i)
{
    pala_grain_keys *gk = &s->sec[i].keys.grain;
    pala_sizes *d = &gk->size;
    const char *nm = s->sec[i].name;
    if (d->law == PALA_SIZE_NONE) return 0;
    if (gk->volume_radius > 0) { SERR(s, i, PALA_KEY_volume_radius, "[grain %s]: give either volume_radius (one size) or size_distribution, not both", nm); return -1; }
    if (gk->shape == PALA_SHAPE_SPHERE && find_entry(s, i, PALA_KEY_radius)) {   /* it was read as nothing */
        SERR(s, i, PALA_KEY_radius, "[grain %s]: give either radius (one size) or size_distribution (the spheres' radii), not both", nm);
        return -1;
    }
    const double *rg = d->range;
    if (d->law == PALA_SIZE_UNIFORM || d->law == PALA_SIZE_NORMAL)
        if (require(s, i, PALA_KEY_size_range, d->law == PALA_SIZE_UNIFORM ? "for size_distribution = uniform" : "for size_distribution = normal (its truncation)")) return -1;
    if (d->law == PALA_SIZE_UNIFORM && !(rg[0] > 0)) {   /* (normal and lognormal take 0: no lower truncation) */
        SERR(s, i, PALA_KEY_size_range, "[grain %s]: 'size_range = %g %g': a uniform law needs a least size > 0 (m)", nm, rg[0], rg[1]);
        return -1;
    }
    if (find_entry(s, i, PALA_KEY_size_range) && !(rg[0] < rg[1])) {
        SERR(s, i, PALA_KEY_size_range, "[grain %s]: 'size_range': the least size (%g m) must be below the largest (%g m)", nm, rg[0], rg[1]);
        return -1;
    }
    if (d->law == PALA_SIZE_NORMAL && (require(s, i, PALA_KEY_size_mean, "for size_distribution = normal") || require(s, i, PALA_KEY_size_sd, "for size_distribution = normal")))
        return -1;
    if (d->law == PALA_SIZE_LOGNORMAL &&
        (require(s, i, PALA_KEY_size_median, "for size_distribution = lognormal") || require(s, i, PALA_KEY_size_sigma, "for size_distribution = lognormal")))
        return -1;
    if (pala_sizes_acceptance(d) < 1e-3) {
        SERR(s, i, PALA_KEY_size_range, "[grain %s]: 'size_range' keeps only %.3g of the draws of the %s law%s: widen it, or move it to where the law "
             "has its grains", nm, pala_sizes_acceptance(d), d->law == PALA_SIZE_NORMAL ? "normal" : "log-normal", d->by_mass ? " by mass" : "");
        return -1;
    }
    if (d->law == PALA_SIZE_TABLE || d->law == PALA_SIZE_SIEVE) {
        int key = d->law == PALA_SIZE_TABLE ? PALA_KEY_size_class : PALA_KEY_sieve, n = d->law == PALA_SIZE_TABLE ? gk->nclass : gk->nsieve;
        if (n < (d->law == PALA_SIZE_TABLE ? 1 : 2)) {
            emsg(s, s->sec[i].line, NULL, "[grain %s] has size_distribution = %s but %s: add '%s = SIZE FRACTION' lines", nm,
                 d->law == PALA_SIZE_TABLE ? "table" : "sieve", n ? "one 'sieve' line (a curve needs two or more)" : "no such lines", pala_keys[key].name);
            return -1;
        }
        double *rf = pala_xrealloc(NULL, 2 * (size_t)n * sizeof *rf);
        d->r = rf;
        d->f = rf + n;
        d->n = n;
        int q = 0;
        for (int e = 0; e < s->nent; e++) {
            entry *en = &s->ent[e];
            if (en->sect != i || en->k != &pala_keys[key]) continue;
            double v[2];
            int k;
            pala_key_reals(en->val, v, 2, &k);
            rf[q] = v[0];
            rf[n + q] = v[1];
            const char *why = !(v[0] > 0) ? "the size must be positive"
                            : d->law == PALA_SIZE_SIEVE && q > 0 && v[0] < rf[q - 1] ? "the sizes must not decrease from line to line"
                            : d->law == PALA_SIZE_SIEVE && (v[1] > 1 || (q > 0 && v[1] < rf[n + q - 1])) ? "the fractions must grow from 0 to 1 line by line"
                            : d->law == PALA_SIZE_SIEVE && q == 0 && v[1] != 0 ? "the curve starts at fraction 0 (the least size)"
                            : d->law == PALA_SIZE_SIEVE && q == n - 1 && v[1] != 1 ? "the curve ends at fraction 1 (the largest size)" : NULL;
            if (why) { EERR(s, en, "[grain %s]: '%s = %s': %s", nm, pala_keys[key].name, en->val, why); return -1; }
            q++;
        }
    }
    return 0;
}

/* A grain type: builds one template (or `variants` random ones).  tfirst/tcount give
 * the range of template indices of section i; ngrains: the grains of the type; open: an
 * inserter of it has no count (its grains are not known: `variants` shapes). */
static int build_grain_type(pala_scene *s, int i, const int *matidx, int *tfirst, int *tcount, int ngrains, int open)
{
    const pala_grain_keys *gk = &s->sec[i].keys.grain;
    pala_world *w = &s->top.w;
    int bad = require(s, i, PALA_KEY_material, "") | require(s, i, PALA_KEY_shape, "(sphere, spheres, random, arcs or mesh)");
    if (bad || grain_sizes(s, i)) return -1;
    int mat = matidx[find_section(s, PALA_S_MATERIAL, gk->material)];
    pala_template t;
    memset(&t, 0, sizeof t);
    snprintf(t.name, sizeof t.name, "%.31s", s->sec[i].name);
    t.material = mat;
    *tfirst = w->ntmpl;
    *tcount = 0;
    enum { MAXC = 64 };
    pala_vec3 c[MAXC];
    double rad[MAXC];
    if (gk->shape == PALA_SHAPE_RANDOM) {
        if (require(s, i, PALA_KEY_component_radius, "for shape = random")) return -1;
        const double *nn = gk->components, *rr = gk->component_radius;
        if (nn[0] > nn[1]) { SERR(s, i, PALA_KEY_components, "'components': the least (%g) exceeds the most (%g)", nn[0], nn[1]); return -1; }
        if (rr[0] > rr[1]) { SERR(s, i, PALA_KEY_component_radius, "'component_radius': the least (%g) exceeds the largest (%g)", rr[0], rr[1]); return -1; }
        if (nn[0] != floor(nn[0]) || nn[1] != floor(nn[1])) { SERR(s, i, PALA_KEY_components, "'components': expected two integers (least and most)"); return -1; }
        pala_factory f = {(int)nn[0], (int)nn[1], rr[0], rr[1], gk->spread};
        /* never more shapes than grains of the type use (at least one) */
        int nvar = gk->variants;
        if (!(open && nvar > 0) && (nvar == 0 || nvar > ngrains)) nvar = ngrains > 0 ? ngrains : 1;
        for (int v = 0; v < nvar; v++) {
            int n = pala_factory_make(&f, &s->rng, w->dim, c, rad);
            if (n < f.nmin) {
                SERR(s, i, PALA_KEY_components, "[grain %s]: could only fit %d of at least %d components without one inside another; "
                     "raise spread or narrow component_radius", s->sec[i].name, n, f.nmin);
                return -1;
            }
            if (add_template(s, i, &t, n, c, rad, NULL)) return -1;
        }
        *tcount = nvar;
        return 0;
    }
    if (gk->shape == PALA_SHAPE_ARCS) {
        if (build_arc_type(s, i, &t)) return -1;
        *tcount = 1;
        return 0;
    }
    if (gk->shape == PALA_SHAPE_MESH) {
        *tcount = 1;
        return build_mesh_type(s, i, &t);
    }
    int n = 0;
    if (gk->shape == PALA_SHAPE_SPHERE) {
        if (gk->size.law) return 0;   /* spheres of the sizes drawn: their templates are made as the groups place them */
        if (require(s, i, PALA_KEY_radius, "for shape = sphere")) return -1;
        c[0] = pala_v(0, 0, 0);
        rad[0] = gk->radius;
        n = 1;
    } else {
        if (gk->nsphere == 0) { emsg(s, s->sec[i].line, NULL, "[grain %s] has shape = spheres but no 'sphere = x y z r' lines", s->sec[i].name); return -1; }
        int ne;
        const int *se = sec_entries(s, i, &ne);
        for (int q = 0; q < ne; q++) {
            entry *en = &s->ent[se[q]];
            if (en->k != &pala_keys[PALA_KEY_sphere]) continue;
            if (n == MAXC) { EERR(s, en, "more than %d components; split the grain", MAXC); return -1; }
            double v[4];
            int k;
            pala_key_reals(en->val, v, 4, &k);
            if (!(v[3] > 0)) { EERR(s, en, "'sphere = %s': the radius (4th number) must be positive", en->val); return -1; }
            if (w->dim == 2 && v[2] != 0) { EERR(s, en, "'sphere = %s': in 2D every centre needs z = 0", en->val); return -1; }
            c[n] = pala_v(v[0], v[1], v[2]);
            rad[n] = v[3];
            n++;
        }
    }
    if (add_template(s, i, &t, n, c, rad, NULL)) return -1;
    *tcount = 1;
    return 0;
}

/* The region of group or outlet section i: the keys its kind needs (a cylinder's axis is z
 * when not given; a line's ends from line), then its check (region.h) among kinds, refused
 * at the line of the key it names; hint follows the message. */
static int build_region(pala_scene *s, int i, pala_region *r, const double *line, const char *kinds, const char *hint)
{
    const int out = s->sec[i].kind == PALA_S_OUTLET, dim = s->top.w.dim;
    int bad = 0;
    if (r->kind == PALA_REGION_BOX) bad = require(s, i, out ? PALA_KEY_outlet_region_box : PALA_KEY_region_box, "for region = box");
    if (r->kind == PALA_REGION_CYLINDER) {
        bad = require(s, i, out ? PALA_KEY_outlet_region_centre : PALA_KEY_region_centre, "for region = cylinder") ||
              require(s, i, out ? PALA_KEY_outlet_region_radius : PALA_KEY_region_radius, "for region = cylinder") ||
              (dim == 3 && require(s, i, out ? PALA_KEY_outlet_region_length : PALA_KEY_region_length, "for region = cylinder"));
        if (!find_entry(s, i, out ? PALA_KEY_outlet_region_axis : PALA_KEY_region_axis)) r->a = pala_v(0, 0, 1);
    }
    if (r->kind == PALA_REGION_LINE && !(bad = require(s, i, PALA_KEY_region_line, "for region = line"))) {
        r->c = pala_v(line[0], line[1], line[2]);
        r->e = pala_v(line[3], line[4], line[5]);
    }
    if (r->kind == PALA_REGION_PLANE) bad = require(s, i, PALA_KEY_region_point, "for region = plane") || require(s, i, PALA_KEY_region_normal, "for region = plane");
    if (bad) return -1;
    char buf[320];
    const char *key, *e = pala_region_check(r, dim, kinds, buf, sizeof buf, &key);
    if (!e) return 0;
    SERR_K(s, i, find_key(s->sec[i].kind, key), "[%s %s]: %s%s", pala_sect_names[s->sec[i].kind], s->sec[i].name, e, !strcmp(key, "region") ? hint : "");
    return -1;
}

/* The most grains, and component spheres, a scene may have (check_resources). */
enum { MAX_GRAINS = 1 << 28 };

/* A group of placement = insert: its inserter (feed.h), which places its grains during the
 * run (population.c).  The templates as build_group's. */
static int build_inserter(pala_scene *s, int g, int ti, const int *tfirst, int *tnext)
{
    pala_world *w = &s->top.w;
    const pala_group_keys *gk = &s->sec[g].keys.group;
    const pala_group *grp = &gk->place;
    const char *nm = s->sec[g].name;
    int hr = find_entry(s, g, PALA_KEY_insert_rate) != NULL, hm = find_entry(s, g, PALA_KEY_insert_mass_rate) != NULL;
    int hc = find_entry(s, g, PALA_KEY_count) != NULL;
    if (hr && hm) { SERR(s, g, PALA_KEY_insert_mass_rate, "[group %s]: give insert_rate (grains/s) or insert_mass_rate (kg/s), not both", nm); return -1; }
    if (!hr && !hm) {
        emsg(s, s->sec[g].line, NULL, "[group %s] has placement = insert but no rate: add 'insert_rate = N' (grains/s) or 'insert_mass_rate = M' (kg/s)", nm);
        return -1;
    }
    int he = find_entry(s, g, PALA_KEY_insert_end) != NULL;
    if (!hc && !he) {
        emsg(s, s->sec[g].line, NULL, "[group %s]: the insertion needs an end: add 'insert_end = T' (s), or 'count = N' (the grains to insert)", nm);
        return -1;
    }
    /* the inserter reads count 0 and end 0 as "none" (feed.h): given, they are refused here */
    if (hc && grp->count == 0) {
        SERR(s, g, PALA_KEY_count, "[group %s]: 'count = 0' would insert no grain: give the most grains to insert (at least 1)%s", nm,
             he ? ", or leave count out and let insert_end end the insertion" : "");
        return -1;
    }
    if (he && !(gk->end > 0)) {
        SERR(s, g, PALA_KEY_insert_end, "[group %s]: 'insert_end = %g': must come after insert_start = %g (s)%s", nm, gk->end, gk->start,
             hc ? "; or leave it out and let count end the insertion" : "");
        return -1;
    }
    pala_inserter in;
    memset(&in, 0, sizeof in);
    snprintf(in.name, sizeof in.name, "%.31s", nm);
    in.tfirst = grp->tfirst;
    in.tcount = grp->tcount;
    in.random_variant = grp->random_variant;
    const pala_grain_keys *gt = &s->sec[ti].keys.grain;
    if (gt->shape == PALA_SHAPE_RANDOM && gt->variants == 0) {   /* a shape of its own per grain */
        if (!hc) {
            SERR(s, g, PALA_KEY_grain, "[group %s]: grain type %s builds one shape per grain (variants = 0), so the group needs 'count' "
                 "(the grains to insert); or give [grain %s] 'variants'", nm, gk->grain, gk->grain);
            return -1;
        }
        in.tfirst = tfirst[ti] + tnext[ti];
        in.tcount = (int)grp->count;
        tnext[ti] += (int)grp->count;
    }
    if (hm && !hc) {   /* the grains a mass rate asks for over its interval, at the lightest of them: within the guard of check_resources */
        double mmin = HUGE_VAL;
        for (int t = in.tfirst; t < in.tfirst + in.tcount; t++) mmin = fmin(mmin, w->tmpl[t].mass);
        double n = gk->mass_rate * (gk->end - gk->start) / mmin;
        s->sec[g].keys.group.mass_n = fmin(1e15, n + 1);   /* for check_resources' totals, once every group is built */
        if (!(n < MAX_GRAINS)) {
            SERR(s, g, PALA_KEY_insert_mass_rate, "[group %s]: 'insert_mass_rate = %g' over %g s asks for %.4g grains of %.3g kg; pala takes at "
                 "most %d: lower the rate, or give count", nm, gk->mass_rate, gk->end - gk->start, n, mmin, MAX_GRAINS);
            return -1;
        }
    }
    in.region = grp->reg;
    in.rate = gk->rate;
    in.mass_rate = gk->mass_rate;
    in.start = gk->start;
    in.end = gk->end;
    in.count = hc ? grp->count : 0;
    in.every = gk->every;
    in.vel = grp->vel;
    in.vspread = grp->vspread;
    in.omega = grp->omega;
    in.orient = grp->orient;
    in.orient_r = grp->orient_r;
    in.seed = (uint64_t)s->top.seed ^ (0x9E3779B97F4A7C15ull * (uint64_t)(g + 1));   /* a stream of its own per group */
    int *tq = NULL;
    if (grp->sizes) {   /* a size distribution: every grain's size drawn now, in the order they will enter, and its class's template made */
        if (!hc) {
            SERR(s, g, PALA_KEY_grain, "[group %s]: grain type %s has a size_distribution, whose sizes are drawn before the run, so the group "
                 "needs 'count' (the grains to insert)", nm, gk->grain);
            return -1;
        }
        pala_rng rng;
        char err[320];
        pala_rng_seed(&rng, in.seed ^ 0xD1B54A32D192ED03ull);   /* the sizes' stream, apart from the positions' */
        in.tfirst = w->ntmpl;
        if (!(tq = pala_place_size_templates(w, grp, &rng, err, sizeof err))) { SERR(s, g, PALA_KEY_grain, "[group %s]: %s", nm, err); return -1; }
        in.tcount = w->ntmpl - in.tfirst;
        in.random_variant = 0;
        in.tseq = tq;
    }
    int bad = pala_world_add_inserter(w, &in) < 0;
    free(tq);
    if (bad) { emsg(s, s->sec[g].line, NULL, "[group %s]: %s", nm, pala_world_error(w)); return -1; }
    return 0;
}

/* A group: check its keys and place its grains (place.c), or make its inserter.  The
 * templates of its grain type are tfirst[ti] .. + tcount[ti]; tnext[ti] of them are already
 * used. */
static int build_group(pala_scene *s, int g, const int *matidx, const int *tfirst, const int *tcount, int *tnext)
{
    pala_world *w = &s->top.w;
    pala_group_keys *gk = &s->sec[g].keys.group;
    pala_group *grp = &gk->place;
    if (require(s, g, PALA_KEY_grain, "(the grain type to place)")) return -1;
    int ti = find_section(s, PALA_S_GRAIN, gk->grain);
    grp->tfirst = tfirst[ti];
    grp->tcount = tcount[ti];
    grp->random_variant = tcount[ti] > 1 && s->sec[ti].keys.grain.variants > 0;
    grp->tnext = tnext[ti];   /* random types without variants: each grain its own shape */
    const pala_grain_keys *ty = &s->sec[ti].keys.grain;
    grp->sizes = ty->size.law ? &ty->size : NULL;
    if (grp->sizes && ty->shape == PALA_SHAPE_SPHERE) {   /* what every sphere of the type has but its size */
        memset(&grp->proto, 0, sizeof grp->proto);
        snprintf(grp->proto.name, sizeof grp->proto.name, "%.31s", s->sec[ti].name);
        grp->proto.material = matidx[find_section(s, PALA_S_MATERIAL, ty->material)];
        grp->proto.charge = ty->charge;
        grp->proto.edip = ty->edip;
        grp->proto.mdip = ty->mdip;
    }
    int nat = gk->nat, ins = grp->placement == PALA_PLACE_INSERT;
    if (grp->placement == PALA_PLACE_LIST) {
        if (nat == 0) { emsg(s, s->sec[g].line, NULL, "[group %s] has placement = list but no 'at = x y z' lines", s->sec[g].name); return -1; }
        if (!find_entry(s, g, PALA_KEY_count)) grp->count = nat;
        if (grp->count != nat) { SERR(s, g, PALA_KEY_count, "count = %ld but the group has %d 'at' lines; make them agree", grp->count, nat); return -1; }
        grp->at = pala_xrealloc(NULL, (size_t)nat * 6 * sizeof(double));
        int q = 0, bad = 0;
        int ne;
        const int *se = sec_entries(s, g, &ne);
        for (int e = 0; e < ne; e++) {
            entry *en = &s->ent[se[e]];
            if (en->k != &pala_keys[PALA_KEY_at]) continue;
            double v[6] = {0, 0, 0, 0, 0, 0};
            int k;
            pala_key_reals(en->val, v, 6, &k);
            if (k != 3 && k != 6) { EERR(s, en, "'at = %s': expected x y z, or x y z vx vy vz", en->val); bad = 1; }
            if (w->dim == 2 && (v[2] != 0 || v[5] != 0)) { EERR(s, en, "'at = %s': in 2D, z and vz must be 0", en->val); bad = 1; }
            memcpy(grp->at + 6 * q++, v, sizeof v);
        }
        if (bad) return -1;
    } else {
        if (!ins && require(s, g, PALA_KEY_count, "(how many grains)")) return -1;
        if (nat) { emsg(s, s->sec[g].line, NULL, "[group %s] has 'at' lines but placement is not list; add 'placement = list'", s->sec[g].name); return -1; }
    }
    /* a box of the placement at t = 0 is checked by the placement (no room for a grain); the
     * other regions, and an inserter's, here */
    if (ins ? build_region(s, g, &grp->reg, gk->line, "box|cylinder|line", " (an inserter needs a region of its own)")
            : grp->reg.kind == PALA_REGION_BOX ? require(s, g, PALA_KEY_region_box, "for region = box")
            : build_region(s, g, &grp->reg, gk->line, "container|box|slab|cylinder", " (region = line is for placement = insert)"))
        return -1;
    if (grp->reg.kind == PALA_REGION_SLAB) {
        if (require(s, g, PALA_KEY_slab_thickness, "for region = slab")) return -1;
        if (pala_vnorm(grp->slab_n) == 0) { SERR(s, g, PALA_KEY_slab_normal, "'slab_normal' must not be the zero vector"); return -1; }
        grp->slab_n = pala_vscale(1 / pala_vnorm(grp->slab_n), grp->slab_n);
    }
    if ((grp->reg.kind == PALA_REGION_CONTAINER || grp->reg.kind == PALA_REGION_SLAB) && !pala_container_of(w) && grp->placement != PALA_PLACE_LIST) {
        SERR(s, g, PALA_KEY_region, "with container = none, random and lattice placement need region = box or cylinder (a finite region)"); return -1;
    }
    if (grp->orient == PALA_ORIENT_GIVEN && !isfinite(pala_vnorm2(grp->orient_r))) {   /* |r|^2 of eq. (8) past a double: every placement NaN */
        SERR(s, g, PALA_KEY_orientation, "the rotation vector r = tan(phi/2) n is too long for |r|^2 to be a number: give |r| below 1e150 "
                                         "(a half turn about n: 1e8 n is within 2e-8 rad of it)");
        return -1;
    }
    if (w->dim == 2) {
        if (grp->vel.z != 0) { SERR(s, g, PALA_KEY_velocity, "in 2D the velocity needs z = 0"); return -1; }
        if (grp->omega.x != 0 || grp->omega.y != 0) { SERR(s, g, PALA_KEY_angular_velocity, "in 2D grains turn about z only: use 0 0 wz"); return -1; }
        if (grp->orient == PALA_ORIENT_GIVEN && (grp->orient_r.x != 0 || grp->orient_r.y != 0)) { SERR(s, g, PALA_KEY_orientation, "in 2D the rotation vector must be 0 0 rz"); return -1; }
    }
    if (ins) return build_inserter(s, g, ti, tfirst, tnext);
    char err[320];
    int n0 = w->n;
    long placed = pala_place_group(w, grp, &s->rng, err, sizeof err);
    if (placed > 0) tnext[ti] += (int)placed;
    free(grp->at);
    grp->at = NULL;
    if (placed < 0 && grp->placement == PALA_PLACE_LIST) {
        /* a list is placed in order: the grains added so far say which 'at' failed */
        entry *en = NULL;
        for (int e = 0, q = 0; e < s->nent && !en; e++)
            if (s->ent[e].sect == g && s->ent[e].k == &pala_keys[PALA_KEY_at] && q++ == w->n - n0) en = &s->ent[e];
        if (en) EERR(s, en, "[group %s]: %s", s->sec[g].name, err);
        else SERR(s, g, PALA_KEY_at, "[group %s]: %s", s->sec[g].name, err);
        return -1;
    }
    if (placed < 0) { SERR(s, g, PALA_KEY_count, "[group %s]: %s", s->sec[g].name, err); return -1; }
    return 0;
}

/* The [outlet NAME] sections, in file order (feed.h): a plane's point and normal make its
 * region's c and a. */
static int build_outlets(pala_scene *s)
{
    int bad = 0;
    for (int i = 0; i < s->nsec; i++) {
        if (s->sec[i].kind != PALA_S_OUTLET) continue;
        const pala_outlet_keys *ok = &s->sec[i].keys.outlet;
        pala_outlet o = ok->out;
        if (require(s, i, PALA_KEY_outlet_region, "(plane, box or cylinder: where grains are removed)")) { bad = 1; continue; }
        snprintf(o.name, sizeof o.name, "%.31s", s->sec[i].name);
        if (o.region.kind == PALA_REGION_PLANE) {
            o.region.c = ok->point;
            o.region.a = ok->normal;
        }
        if (build_region(s, i, &o.region, NULL, "plane|box|cylinder", "")) { bad = 1; continue; }
        /* a region wholly outside the walls' box, which no grain reaches: said before the run */
        const pala_world *w = &s->top.w;
        double wl[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, wh[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL}, rl[3], rh[3];
        pala_walls_bounds(w, 0, wl, wh);
        int apart = 0;
        if (o.region.kind == PALA_REGION_PLANE) {   /* no corner of a finite box on its side */
            apart = 1;
            for (int c = 0; c < 8 && apart; c++) {
                pala_vec3 x = pala_v(c & 1 ? wh[0] : wl[0], c & 2 ? wh[1] : wl[1], c & 4 ? wh[2] : wl[2]);
                apart = pala_vdot(o.region.a, pala_vsub(x, o.region.c)) < 0;   /* (an infinite side: nan or inf, not < 0) */
            }
        } else {
            pala_region_bounds(&o.region, w->dim, rl, rh);
            for (int a = 0; a < w->dim; a++) apart |= rl[a] > wh[a] || rh[a] < wl[a];
        }
        if (apart) report(s, "warning: [outlet %s]: its region lies wholly outside the walls (x %g:%g, y %g:%g, z %g:%g): no grain reaches it",
                          s->sec[i].name, wl[0], wh[0], wl[1], wh[1], wl[2], wh[2]);
        if (pala_world_add_outlet(&s->top.w, &o) < 0) { emsg(s, s->sec[i].line, NULL, "[outlet %s]: %s", s->sec[i].name, pala_world_error(&s->top.w)); bad = 1; }
    }
    return bad ? -1 : 0;
}

/* The [measure NAME] sections (pala_scene_measure): at most PALA_MAX_MEASURES, a name that
 * can stand in a file's name (measure-NAME.tsv), each side given LO < HI, no z in 2D. */
static int check_measures(pala_scene *s)
{
    int bad = 0, n = 0;
    for (int i = 0; i < s->nsec; i++) {
        if (s->sec[i].kind != PALA_S_MEASURE) continue;
        const char *nm = s->sec[i].name;
        if (++n > PALA_MAX_MEASURES) {
            emsg(s, s->sec[i].line, NULL, "[measure %s]: at most %d [measure] sections; measure more regions in fewer sections' runs, or "
                 "with pala measure RUN --region afterwards", nm, PALA_MAX_MEASURES);
            bad = 1;
            continue;
        }
        if (nm[strspn(nm, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-")]) {
            emsg(s, s->sec[i].line, NULL, "[measure %s]: the name is part of the file name measure-%s.tsv: use letters, digits, '_' and '-' only",
                 nm, nm);
            bad = 1;
        }
        const pala_measure_keys *mk = &s->sec[i].keys.measure;
        const double *side[3] = {mk->rx, mk->ry, mk->rz};
        for (int a = 0; a < 3; a++) {
            const int key = PALA_KEY_region_x + a;
            if (!find_entry(s, i, key)) continue;
            if (a == 2 && s->top.w.dim == 2) {
                SERR(s, i, key, "[measure %s]: 'region_z' in 2D: the grains lie in the plane z = 0; remove it (the region is a rectangle in x and y)", nm);
                bad = 1;
            } else if (!(side[a][1] > side[a][0])) {
                SERR(s, i, key, "[measure %s]: '%s = %g %g': give LO HI with LO < HI (m), e.g. '%s = 0 0.02'", nm, pala_keys[key].name, side[a][0],
                     side[a][1], pala_keys[key].name);
                bad = 1;
            }
        }
    }
    return bad ? -1 : 0;
}

/* Paths (lammps_data, start_from, a mesh's file) are relative to the control file's folder;
 * the resolved path replaces the value, so the effective control file of a run (control.txt)
 * finds the file too.  A start_from given by --set is relative to the current folder, as any
 * path of a command. */
static void resolve_paths(pala_scene *s)
{
    for (int i = 0; i < s->nent; i++) {
        entry *e = &s->ent[i];
        if (e->k->type != PALA_K_PATH || e->val[0] == '/') continue;
        int here = e->set && e->k == &pala_keys[PALA_KEY_start_from];
        const char *slash = here ? NULL : strrchr(s->path, '/');
        char cwd[4096] = "";
        if ((here || s->path[0] != '/') && !getcwd(cwd, sizeof cwd)) cwd[0] = 0;
        int dl = slash ? (int)(slash - s->path) : 0;
        size_t n = strlen(cwd) + (size_t)dl + strlen(e->val) + 4;
        char *p = pala_xrealloc(NULL, n);
        snprintf(p, n, "%s%s%.*s%s%s", cwd, cwd[0] ? "/" : "", dl, s->path, dl ? "/" : "", e->val);
        free(e->val);
        e->val = p;
    }
}

/* The grains the groups of grain type i ask for (an inserting group without count: its rate
 * over its interval; at a mass rate, build_inserter's estimate, 0 before it); *open (if not NULL) is 1 when an inserting group of
 * it has no count (its grains are known only as they come). */
static long grains_of_type(pala_scene *s, int i, int *open)
{
    long use = 0;
    if (open) *open = 0;
    for (int g = 0; g < s->nsec; g++) {
        const pala_group_keys *gk = &s->sec[g].keys.group;
        if (s->sec[g].kind != PALA_S_GROUP || !gk->grain || strcmp(gk->grain, s->sec[i].name)) continue;
        int hc = find_entry(s, g, PALA_KEY_count) != NULL;
        int ins = gk->place.placement == PALA_PLACE_INSERT;
        double rated = gk->mass_rate > 0 ? gk->mass_n : gk->rate * (gk->end - gk->start) + 1;   /* (an end before the start is refused later) */
        use += hc ? gk->place.count : ins ? (long)fmax(0, fmin(1e15, rated)) : gk->nat;
        if (open && !hc && ins) *open = 1;
    }
    return use;
}

/* Resource guards, before anything is allocated for the grains: the number of grains and
 * of their component spheres has a bound no index arithmetic can overflow (int indices,
 * doubled hash tables), and the memory they need, estimated generously (docs/
 * control-file.md, "max_memory"), must fit in max_memory or the machine's memory.  (A
 * group inserting at a mass rate without count: build_inserter, once its grains' masses
 * are known.) */
static int check_resources(pala_scene *s)
{
    double grains = 0, pebbles = 0;
    for (int i = 0; i < s->nsec; i++) {
        if (s->sec[i].kind != PALA_S_GRAIN) continue;
        const pala_grain_keys *gk = &s->sec[i].keys.grain;
        double n = (double)grains_of_type(s, i, NULL);
        double comp = gk->shape == PALA_SHAPE_SPHERE ? 1 : gk->shape == PALA_SHAPE_SPHERES ? gk->nsphere : gk->shape == PALA_SHAPE_ARCS ? 128
                    : gk->shape == PALA_SHAPE_MESH ? PALA_MESHCLUMP_MAX : gk->components[1];
        grains += n;
        pebbles += n * comp;
    }
    int g0 = 0;   /* the first group that sets count, for the message's line */
    for (int g = 0; g < s->nsec && !g0; g++)
        if (s->sec[g].kind == PALA_S_GROUP && find_entry(s, g, PALA_KEY_count)) g0 = g;
    int gr = 0, kr = PALA_KEY_insert_rate;   /* else the first inserting group's rate, for the line */
    for (int g = 0; g < s->nsec && !g0 && !gr; g++)
        if (s->sec[g].kind == PALA_S_GROUP && (find_entry(s, g, PALA_KEY_insert_rate) || find_entry(s, g, PALA_KEY_insert_mass_rate))) {
            gr = g;
            if (!find_entry(s, g, PALA_KEY_insert_rate)) kr = PALA_KEY_insert_mass_rate;
        }
    if (grains > MAX_GRAINS || pebbles > MAX_GRAINS) {
        if (g0) SERR(s, g0, PALA_KEY_count, "the groups ask for %.4g grains with %.4g component spheres; pala takes at most %d of each: lower count",
                     grains, pebbles, MAX_GRAINS);
        else if (gr) SERR(s, gr, kr, "the groups ask for %.4g grains with %.4g component spheres; pala takes at most %d of each: lower the rate, "
                          "or give count", grains, pebbles, MAX_GRAINS);
        else emsg(s, 0, NULL, "the groups ask for %.4g grains with %.4g component spheres; pala takes at most %d of each: lower count", grains, pebbles, MAX_GRAINS);
        return -1;
    }
    /* state, template index, numbering, sort and placement ~300 B per grain; pebble
     * centres, radii, grain of each, neighbour list ~200 B per pebble (docs/performance.md
     * measures about 215 B per sphere in all) */
    double need = 300 * grains + 200 * pebbles + 64e6;
    double have = s->top.max_memory > 0 ? s->top.max_memory : (double)pala_memory_size();
    if (have > 0 && need > have) {
        char set0[64];
        snprintf(set0, sizeof set0, "%.3g", need * 1.1);
        if (g0) SERR(s, g0, PALA_KEY_count, "the grains need about %.3g GB of memory (%.4g grains, %.4g component spheres), more than the %.3g GB %s; "
                     "lower count, or raise max_memory (e.g. --set max_memory=%s) if the machine has more",
                     need / 1e9, grains, pebbles, have / 1e9, s->top.max_memory > 0 ? "of max_memory" : "this machine has", set0);
        else emsg(s, 0, NULL, "the grains need about %.3g GB of memory, more than the %.3g GB allowed; raise max_memory", need / 1e9, have / 1e9);
        return -1;
    }
    return 0;
}

/* The walls (container.h): the container the key `container` names, then each wall inside
 * it whose keys ask for it, in the order of the kinds.  A kind's key without a default must
 * be given (the box may come from lammps_data); the container's material is wall_material,
 * a wall inside names its own.  Each kind's check is the library's (check_world), whose
 * message goes to the line of the key it names. */
static int build_walls(pala_scene *s, const int *matidx)
{
    pala_top_keys *top = &s->top;
    pala_world *w = &top->w;
    int bad = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; pala_wall_kind_at(i); i++) {
            const pala_wall_kind *k = pala_wall_kind_at(i);
            if (pass == 0 ? top->container != i + 1 : k->container || !k->present(s->wpar[i])) continue;
            int mat = -1, wb = 0;
            for (int j = 0; j < k->nkeys; j++) {
                const pala_keydef *kd = &k->keys[j];
                const entry *e = find_entry_k(s, 0, kd);
                if (kd->type == PALA_K_NAME && e) mat = matidx[find_section(s, kd->ref, e->val)];
                if (!strcmp(kd->name, "box") && !e && top->lammps_data) {   /* the box of the data file */
                    char err[320], txt[160];
                    double b[6];
                    if (pala_lammps_box(top->lammps_data, b, err, sizeof err)) { SERR(s, 0, PALA_KEY_lammps_data, "%s", err); wb = 1; }
                    else if (!(b[1] > b[0] && b[3] > b[2] && b[5] > b[4])) { SERR(s, 0, PALA_KEY_lammps_data, "the box of %s is empty; give 'box'", top->lammps_data); wb = 1; }
                    else {
                        snprintf(txt, sizeof txt, "%.17g %.17g %.17g %.17g %.17g %.17g", b[0], b[1], b[2], b[3], b[4], b[5]);
                        pala_key_store(kd, s->wpar[i], txt);
                    }
                } else if (!kd->def && !kd->unset) wb |= require_k(s, 0, kd, "") != 0;
            }
            if (k->container) {
                if (require(s, 0, PALA_KEY_wall_material, "")) wb = 1;
                else mat = matidx[find_section(s, PALA_S_MATERIAL, top->wall_material)];
            }
            bad |= wb;
            if (wb) continue;
            int wi = pala_world_add_wall(w, k->name, mat);
            if (wi < 0) { emsg(s, 0, NULL, "%s", w->why); bad = 1; continue; }
            memcpy(w->walls[wi].par, s->wpar[i], k->size);
        }
    /* then the [wall NAME] sections, in file order (surface.c) */
    for (int i = 0; i < s->nsec; i++) {
        if (s->sec[i].kind != PALA_S_WALL) continue;
        pala_surface *sf = &s->sec[i].keys.wall;
        if (require(s, i, PALA_KEY_wall_shape, "") | require(s, i, PALA_KEY_wall_section_material, "")) { bad = 1; continue; }
        snprintf(sf->name, sizeof sf->name, "%.31s", s->sec[i].name);   /* section names have at most 31 characters */
        if (sf->file && strlen(sf->file) >= sizeof sf->path) {
            SERR(s, i, PALA_KEY_wall_file, "'file': the path has %zu characters; give one shorter than %zu", strlen(sf->file), sizeof sf->path);
            bad = 1;
            continue;
        }
        if (sf->file) snprintf(sf->path, sizeof sf->path, "%s", sf->file);
        int wi = pala_world_add_wall(w, "surface", matidx[find_section(s, PALA_S_MATERIAL, sf->material)]);
        if (wi < 0) { emsg(s, s->sec[i].line, NULL, "%s", w->why); bad = 1; continue; }
        memcpy(w->walls[wi].par, sf, sizeof *sf);
    }
    return bad ? -1 : 0;
}

/* The check of dt before the first step (pala_world_dt_check): a dt that is surely unstable
 * is refused at the line of dt, unless dt_check = warn.  An impact foreseen to overlap beyond
 * max_overlap is a warning: it stops the run at any dt, and the estimate is the worst case. */
static int check_dt(pala_scene *s)
{
    pala_dt_report r;
    if (s->top.dt_check == PALA_DT_CHECK_OFF || pala_world_dt_check(&s->top.w, &r)) return 0;
    if (r.overlap > r.max_overlap)
        SERR(s, 0, PALA_KEY_max_overlap, "warning: an impact at the largest speed foreseen (%.2g m/s, twice that between two grains) "
             "presses the smallest component of a grain by %.2g of its radius (d_max of the contact law, the grain of the heaviest such impact), beyond max_overlap = %g: "
             "such an impact stops the run as unstable at any dt. Stiffen the material (young: d_max ~ E^(-2/5)), slow the grains "
             "(d_max ~ v^(4/5)) or enlarge the smallest components (docs/physics.md, \"Choosing dt\"). %s", r.v, r.overlap, r.max_overlap, r.line);
    if (r.verdict != PALA_DT_UNSTABLE) return 0;
    int warn = s->top.dt_check == PALA_DT_CHECK_WARN;
    if (r.cause[0]) {   /* no dt resolves an impact at inf m/s or a stiffness past a double (the report's contact scale says 1e-300 s) */
        SERR(s, 0, PALA_KEY_dt, "%sno dt resolves the contacts: %s (the largest impact speed foreseen: %g m/s; docs/physics.md, \"Choosing dt\"). %s",
             warn ? "warning: " : "", r.cause, r.v, r.line);
        return warn ? 0 : -1;
    }
    const pala_dt_scale *u = r.scale;
    while (u->verdict != PALA_DT_UNSTABLE) u++;
    SERR(s, 0, PALA_KEY_dt, "%s'dt = %g' is surely unstable: %s = %.3g s%s, which dt resolves in %.2g steps; give dt <= %.2g s%s "
         "(docs/physics.md, \"Choosing dt\"). %s", warn ? "warning: " : "", r.dt, u->fix, u->t,
         strcmp(u->name, "contact") || !(r.v > 0) ? "" : " at the largest impact speed foreseen", u->steps, u->dt_max,
         warn ? "" : ", or set dt_check = warn to run anyway", r.line);
    return warn ? 0 : -1;
}

/* Warnings on what a scene gives without saying so: grains with friction on walls of a
 * material without (eq. 55 mixes mu by the harmonic mean: H(mu, 0) = 0), and the paper's
 * Hertz law in a scene ported from another code (a lammps_data import). */
static void warn_scene(pala_scene *s)
{
    const pala_world *w = &s->top.w;
    for (int i = 0; i < w->nwalls; i++) {
        int wm = w->walls[i].mat, seen = 0;
        if (wm < 0 || w->mat[wm].mu > 0) continue;
        for (int t = 0; t < w->ntmpl; t++) {
            int a = w->tmpl[t].material, given = 0;
            for (int q = 0; q < w->npairs; q++)
                given |= (w->pairs[q].set & PALA_PAIR_MU) && ((w->pairs[q].a == a && w->pairs[q].b == wm) || (w->pairs[q].a == wm && w->pairs[q].b == a));
            if (given || !(w->mat[a].mu > 0) || w->pm[a * w->nmat + wm].mu > 0 || (seen >> (a < 30 ? a : 30) & 1)) continue;
            seen |= 1 << (a < 30 ? a : 30);
            int sect = find_section(s, PALA_S_MATERIAL, w->mat[wm].name);
            emsg(s, sect > 0 ? s->sec[sect].line : 0, NULL, "warning: grains of [material %s] (friction = %g) slide without friction on the "
                 "%s of [material %s], which has none: eq. (55) mixes friction by the harmonic mean, H(%g, 0) = 0. Give [material %s] "
                 "a friction, or add [pair %s %s] with its friction (friction = 0 there says frictionless walls are meant)",
                 w->mat[a].name, w->mat[a].mu, i == 0 && pala_container_of(w) ? "walls" : pala_world_wall_kind(w, i, NULL), w->mat[wm].name,
                 w->mat[a].mu, w->mat[wm].name, w->mat[a].name, w->mat[wm].name);
        }
    }
    /* a [measure] region that lies wholly outside the walls' box at the start: its rows hold
     * no grains (walls that move may yet bring it in, so a warning) */
    double blo[3] = {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}, bhi[3] = {HUGE_VAL, HUGE_VAL, HUGE_VAL};
    pala_walls_bounds(w, 0, blo, bhi);
    for (int i = 0; i < s->nsec; i++) {
        if (s->sec[i].kind != PALA_S_MEASURE) continue;
        const pala_measure_keys *mk = &s->sec[i].keys.measure;
        const double *side[3] = {mk->rx, mk->ry, mk->rz};
        for (int a = 0; a < w->dim; a++) {
            const int key = PALA_KEY_region_x + a;
            if (find_entry(s, i, key) && (side[a][1] <= blo[a] || side[a][0] >= bhi[a])) {
                SERR(s, i, key, "warning: [measure %s]: '%s = %g %g' lies outside the walls, which span %c from %g to %g m at the start: its rows "
                     "will hold no grains unless the walls move there", s->sec[i].name, pala_keys[key].name, side[a][0], side[a][1], "xyz"[a], blo[a], bhi[a]);
                break;
            }
        }
    }
    if (s->top.lammps_data && w->hertz == PALA_HERTZ_PAPER && !find_entry(s, 0, PALA_KEY_hertz))
        SERR(s, 0, PALA_KEY_lammps_data, "note: hertz = paper (the default: F = sqrt(3)/2 E~ sqrt(r~) (-d)^1.5, eq. 57) is about 1.84 "
             "times stiffer than the textbook Hertz law of LAMMPS, LIGGGHTS, MercuryDPM and YADE; for a scene ported from them add "
             "'hertz = textbook' (docs/physics.md, \"The Hertz prefactor\")");
}

static int build_world(pala_scene *s)
{
    pala_top_keys *top = &s->top;
    pala_world *w = &top->w;
    int bad = 0;
    resolve_paths(s);   /* lammps_data, start_from, a mesh's file: against the control file's folder */
    for (int i = 0; i < s->nsec; i++) bind_section(s, i, i == 0 ? (void *)top : (void *)&s->sec[i].keys);
    const char *lmp = top->lammps_data;
    pala_rng_seed(&s->rng, (uint64_t)top->seed);
    /* time */
    bad |= require(s, 0, PALA_KEY_dt, "");
    int hs = find_entry(s, 0, PALA_KEY_steps) != NULL, he = find_entry(s, 0, PALA_KEY_end_time) != NULL;
    if (!hs && !he) { emsg(s, 0, NULL, "missing run length: add 'end_time = ...' (s) or 'steps = ...'"); bad = 1; }
    else if (!bad && he) {
        /* checked before it becomes a long: end_time = 1e14 with dt = 1e-6 (or a denormal dt)
           is 1e20 steps or more, past any integer, and steps allows 1e15 */
        double q = top->end_time / w->dt;
        if (q <= pala_keys[PALA_KEY_steps].hi) top->steps = lround(q);
        else {
            SERR(s, 0, PALA_KEY_end_time, "end_time = %g s with dt = %g s is %.3g steps, more than the %g a run may take; "
                 "shorten end_time or raise dt", top->end_time, w->dt, q, pala_keys[PALA_KEY_steps].hi);
            bad = 1;
        }
    }
    if (lmp && w->dim != 3) { SERR(s, 0, PALA_KEY_lammps_data, "lammps_data needs dimension = 3"); bad = 1; }
    int *matidx = pala_xrealloc(NULL, (size_t)s->nsec * sizeof(int));
    if (build_materials(s, matidx)) bad = 1;
    if (build_walls(s, matidx)) bad = 1;
    if (w->nmat == 0 && !bad) { emsg(s, 0, NULL, "no [material NAME] section: grains need a material"); bad = 1; }
    if (bad) { free(matidx); return -1; }
    /* grain types: count how many grains use each (random types make one shape each) */
    int *tfirst = pala_xrealloc(NULL, (size_t)s->nsec * sizeof(int)), *tcount = pala_xrealloc(NULL, (size_t)s->nsec * sizeof(int));
    int *tnext = pala_xrealloc(NULL, (size_t)s->nsec * sizeof(int));
    int fresh = !top->start_from;   /* the scene places its grains; else they are the run's (its groups and lammps_data's are not placed) */
    for (int i = 0; i < s->nsec; i++) tnext[i] = 0;
    if (fresh && check_resources(s)) bad = 1;
    if (fresh && !bad && find_entry(s, 0, PALA_KEY_start_time))   /* a start from a run's frame, without the run: said, not ignored
                                                                     (start_contacts has a default, which control.txt writes) */
        SERR(s, 0, PALA_KEY_start_time, "warning: '%s' picks the frame of the run given by start_from, and there is none: it does nothing; "
             "give start_from (the run's folder), or remove it", pala_keys[PALA_KEY_start_time].name);
    for (int i = 0; i < s->nsec && !bad; i++) {
        tfirst[i] = tcount[i] = 0;
        if (s->sec[i].kind != PALA_S_GRAIN || !fresh) continue;
        int open;
        long ng = grains_of_type(s, i, &open);
        if (build_grain_type(s, i, matidx, &tfirst[i], &tcount[i], (int)ng, open)) bad = 1;
    }
    /* the grains of a run the scene starts from, as the run stored them; else those of a
     * LAMMPS data file, before the groups (which then avoid them) */
    if (!fresh && !bad && check_world(s)) bad = 1;   /* the walls checked, and their frames derived, before the run's grains are tested against them */
    if (!fresh && !bad) {
        char err[1024];
        double T = find_entry(s, 0, PALA_KEY_start_time) ? top->start_time : -1;
        if (pala_restart_import(w, top->start_from, T, &s->restart, err, sizeof err)) { SERR(s, 0, PALA_KEY_start_from, "%s", err); bad = 1; }
    }
    if (lmp && fresh && !bad) {
        if (require(s, 0, PALA_KEY_lammps_material, "")) bad = 1;
        else {
            char err[320];
            int m = matidx[find_section(s, PALA_S_MATERIAL, top->lammps_material)];
            if (pala_lammps_import(w, lmp, m, top->lammps_mc_samples, err, sizeof err)) { SERR(s, 0, PALA_KEY_lammps_data, "%s", err); bad = 1; }
        }
    }
    /* what the library checks (the laws of the materials and pairs, 2D), before the groups'
     * grains are placed */
    if (!bad && check_world(s)) bad = 1;
    /* groups, in file order */
    int ngroups = 0;
    for (int g = 0; g < s->nsec && !bad && fresh; g++)
        if (s->sec[g].kind == PALA_S_GROUP) {
            ngroups++;
            if (build_group(s, g, matidx, tfirst, tcount, tnext)) bad = 1;
        }
    int massr = 0;   /* the totals again with the grains the mass rates ask for (build_inserter) */
    for (int g = 0; g < s->nsec; g++) massr |= s->sec[g].kind == PALA_S_GROUP && s->sec[g].keys.group.mass_n > 0;
    if (!bad && fresh && massr && check_resources(s)) bad = 1;
    if (!bad && build_outlets(s)) bad = 1;
    /* a run's grains with the gaps of those that left, in a scene where none enter or leave
     * (its trajectory of version 1 numbers the grains 0 .. N - 1): consecutive numbers */
    if (!bad && !fresh && !w->feed) {
        int gaps = pala_world_renumber(w);
        if (gaps) SERR(s, 0, PALA_KEY_start_from, "note: the run's %d grains are numbered 0 .. %d in the order of their numbers there (%d had left "
                       "it; in this scene no grain enters or leaves)", w->n, w->n - 1, gaps);
    }
    if (!bad && check_measures(s)) bad = 1;
    if (!bad && ngroups == 0 && !lmp && fresh) { emsg(s, 0, NULL, "no [group NAME] section: add one to place grains (see examples/)"); bad = 1; }
    free(matidx); free(tfirst); free(tcount); free(tnext);
    if (bad) return -1;
    pala_world_sort(w);
    if (pala_world_prepare(w)) {   /* what the groups' grains brought */
        if (!check_world(s)) emsg(s, 0, NULL, "%s", pala_world_error(w));
        return -1;
    }
    double across = pala_nlist_cells_across(w);
    if (!(across < 1e12)) {   /* the neighbour list's limit (neighbor.c, out_of_range): refused here, before a step */
        emsg(s, 0, NULL, "the grains are placed %.3g cells of the neighbour search apart (a cell is about a grain across), more than 1e12: "
             "place them closer together (a [group]'s at or region_box, the box, lammps_data) or make them larger", across);
        return -1;
    }
    if (!fresh) {   /* the run's contact history, into the prepared world */
        char note[640];
        const char *m = pala_restart_contacts(w, &s->restart, top->start_contacts == 0, note, sizeof note);
        if (m) SERR(s, 0, PALA_KEY_start_from, "note: %s", m);
        pala_restart_free(&s->restart);
    }
    warn_scene(s);
    return check_dt(s);
}

static int load(const char *path, int nset, char **sets, pala_scene **out, FILE *err, int build)
{
    pala_scene *s = pala_xrealloc(NULL, sizeof *s);
    memset(s, 0, sizeof *s);
    s->path = xstrdup(path);
    s->err = err ? err : stderr;
    pala_world_init(&s->top.w);
    int nk = 0;
    while (pala_wall_kind_at(nk)) nk++;
    s->wpar = pala_xrealloc(NULL, (size_t)nk * sizeof *s->wpar);
    for (int i = 0; i < nk; i++) {
        s->wpar[i] = pala_xrealloc(NULL, pala_wall_kind_at(i)->size);
        memset(s->wpar[i], 0, pala_wall_kind_at(i)->size);
    }
    int bad = read_file(s);
    for (int i = 0; i < nset && !bad; i++) bad |= apply_override(s, sets[i]);
    for (int i = 0; i < s->nent && !bad; i++) bad |= check_value(s, &s->ent[i]);
    if (!bad) bad |= check_pairs(s) | check_alternatives(s);
    if (!bad && build) bad = build_world(s);
    if (bad) { pala_scene_free(s); *out = NULL; return PALA_ERR_INPUT; }
    *out = s;
    return PALA_OK;
}

int pala_scene_load(const char *path, int nset, char **sets, pala_scene **out, FILE *err)
{
    return load(path, nset, sets, out, err, 1);
}

int pala_scene_parse(const char *path, int nset, char **sets, FILE *err)
{
    pala_scene *s;
    int rc = load(path, nset, sets, &s, err, 0);
    if (s) pala_scene_free(s);
    return rc;
}

int pala_scene_validate(const char *path, int nset, char **sets, FILE *err)
{
    pala_scene *s;
    int rc = load(path, nset, sets, &s, err, 1);
    if (s) pala_scene_free(s);
    return rc;
}

pala_world *pala_scene_world(pala_scene *s) { return &s->top.w; }
long pala_scene_steps(const pala_scene *s) { return s->top.steps; }
long pala_scene_energy_every(const pala_scene *s) { return s->top.energy_every; }
long pala_scene_traj_every(const pala_scene *s) { return s->top.trajectory_every; }
int pala_scene_traj_binary(const pala_scene *s) { return s->top.trajectory_format == 1; }
long pala_scene_xyz_every(const pala_scene *s) { return s->top.xyz_every; }
long pala_scene_vtk_every(const pala_scene *s) { return s->top.vtk_every; }
int pala_scene_vtk_binary(const pala_scene *s) { return s->top.vtk_format == 1; }
long pala_scene_contacts_every(const pala_scene *s) { return s->top.contacts_every; }
int pala_scene_contacts_binary(const pala_scene *s) { return s->top.contacts_format == 1; }
long pala_scene_grains_every(const pala_scene *s) { return s->top.grains_every; }
long pala_scene_checkpoint_every(const pala_scene *s) { return s->top.checkpoint_every; }

int pala_scene_measure(const pala_scene *s, int i, pala_measure_spec *m)
{
    for (int k = 0; k < s->nsec; k++) {
        if (s->sec[k].kind != PALA_S_MEASURE || i-- > 0) continue;
        const pala_measure_keys *mk = &s->sec[k].keys.measure;
        const double *side[3] = {mk->rx, mk->ry, mk->rz};
        memset(m, 0, sizeof *m);
        m->name = s->sec[k].name;
        m->every = mk->every;
        for (int a = 0; a < 3; a++) {
            m->set[a] = find_entry(s, k, PALA_KEY_region_x + a) != NULL;
            m->lo[a] = side[a][0];
            m->hi[a] = side[a][1];
        }
        return 1;
    }
    return 0;
}

void *pala_scene_keys(pala_scene *s, int kind, const char *name)
{
    if (kind == PALA_S_TOP) return &s->top;
    int i = find_section(s, kind, name);
    return i < 0 ? NULL : &s->sec[i].keys;
}

void *pala_scene_wall_keys(pala_scene *s, int i) { return s->wpar[i]; }

void pala_scene_free(pala_scene *s)
{
    if (!s) return;
    for (int i = 0; i < s->nent; i++) free(s->ent[i].val);
    entries_changed(s);
    for (int i = 0; i < s->nsec; i++)
        if (s->sec[i].kind == PALA_S_GROUP) free(s->sec[i].keys.group.place.at);
        else if (s->sec[i].kind == PALA_S_GRAIN) free((double *)s->sec[i].keys.grain.size.r);
    free(s->ent); free(s->sec); free(s->path);
    pala_restart_free(&s->restart);
    for (int i = 0; s->wpar && pala_wall_kind_at(i); i++) free(s->wpar[i]);
    free(s->wpar);
    for (int i = 0; i < s->nclump; i++) free(s->clumps[i].file), pala_meshclump_free(s->clumps[i].mc);
    free(s->clumps);
    free(s->report);
    pala_world_free(&s->top.w);
    free(s);
}

const char *pala_scene_report(const pala_scene *s) { return s->report; }

/* The default of key k in section sect, or NULL: none, or the section gives k's other way
 * (restitution for delta: its default would contradict it, and a control file with both
 * is refused). */
static const char *default_in(const pala_scene *s, int sect, const pala_keydef *k)
{
    const pala_keydef *other = k->def ? alternative(k) : NULL;
    return other && find_entry_k(s, sect, other) ? NULL : k->def;
}

/* The effective control file: every key that is set or has a default, section by
 * section, overrides marked.  Reading it back gives the same run. */
void pala_scene_write(const pala_scene *s, FILE *f)
{
    for (int i = 0; i < s->nsec; i++) {
        const section *c = &s->sec[i];
        if (c->kind == PALA_S_PAIR) {   /* named A.B */
            const char *dot = strchr(c->name, '.');
            fprintf(f, "\n[pair %.*s %s]\n", (int)(dot - c->name), c->name, dot + 1);
        } else if (c->kind != PALA_S_TOP) fprintf(f, "\n[%s %s]\n", pala_sect_names[c->kind], c->name);
        int ne;
        const int *se = sec_entries(s, i, &ne);
        for (const pala_keydef *kd = pala_key_first(); kd; kd = pala_key_next(kd)) {
            if (kd->sect != c->kind) continue;
            int any = 0;
            for (int e = 0; e < ne; e++) {
                const entry *en = &s->ent[se[e]];
                if (en->k != kd) continue;
                fprintf(f, "%s = %s%s\n", kd->name, en->val, en->set ? "    # --set" : "");
                any = 1;
            }
            const char *def = any ? NULL : default_in(s, i, kd);
            if (def) fprintf(f, "%s = %s    # default\n", kd->name, def);
        }
    }
}

const char *pala_scene_get(const pala_scene *s, const char *key)
{
    const char *k, *v;
    for (int i = 0; pala_scene_setting(s, i, &k, &v); i++)
        if (!strcmp(k, key)) return v;
    return NULL;
}

/* Effective non-repeated settings, in table order per section, with dotted names.  A
 * call for the setting after the last one asked continues from there (s->cur). */
int pala_scene_setting(const pala_scene *s, int idx, const char **key, const char **value)
{
    static char kb[160];
    pala_scene *ms = (pala_scene *)s;   /* the place only: the scene is not changed */
    int n = 0, i0 = 0;
    const pala_keydef *kd0 = pala_key_first();
    if (idx > 0 && idx == s->cur.idx + 1 && s->cur.kd) { n = idx; i0 = s->cur.sec; kd0 = pala_key_next(s->cur.kd); }
    for (int i = i0; i < s->nsec; i++, kd0 = pala_key_first()) {
        const section *c = &s->sec[i];
        for (const pala_keydef *kd = kd0; kd; kd = pala_key_next(kd)) {
            if (kd->sect != c->kind || kd->repeat) continue;
            entry *e = find_entry_k(s, i, kd);
            const char *v = e ? e->val : default_in(s, i, kd);
            if (!v) continue;
            if (n++ != idx) continue;
            ms->cur.idx = idx; ms->cur.sec = i; ms->cur.kd = kd;
            if (key) {
                if (c->kind == PALA_S_TOP) snprintf(kb, sizeof kb, "%s", kd->name);
                else snprintf(kb, sizeof kb, "%s.%s.%s", pala_sect_names[c->kind], c->name, kd->name);
                *key = kb;
            }
            if (value) *value = v;
            return 1;
        }
    }
    return 0;
}

/* ---- help --------------------------------------------------------------------------- */
static void help_one(const pala_keydef *k, FILE *f)
{
    char eb[128];
    fprintf(f, "%-18s %s%s%s\n", k->name, k->sect ? "[" : "", k->sect ? pala_sect_names[k->sect] : "top level", k->sect ? "]" : "");
    fprintf(f, "    %s\n", k->doc);
    fprintf(f, "    value: %s; unit: %s; default: %s%s\n", expected(k, eb, sizeof eb), k->unit,
            k->def ? k->def : k->unset ? k->unset : "none", k->repeat ? "; may be repeated" : "");
    if ((k->type == PALA_K_INT || k->type == PALA_K_REAL || k->type == PALA_K_REALS) && !(isinf(k->lo) && isinf(k->hi)))
        fprintf(f, "    range: %s%g to %g\n", pala_key_positive(k) ? "above " : "", k->lo, k->hi);
}

void pala_scene_help_keys(FILE *f)
{
    for (int s = 0; s < PALA_S_N; s++) {
        if (s == PALA_S_PAIR) fprintf(f, "\n== [pair A B] ==\n");
        else fprintf(f, s ? "\n== [%s NAME] ==\n" : "== top level ==\n", pala_sect_names[s]);
        for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k))
            if (k->sect == s) help_one(k, f);
    }
}

int pala_scene_help_key(const char *key, FILE *f)
{
    int found = 0;
    for (int s = 1; s < PALA_S_N && !found; s++)   /* a section's name: its keys (then a key of that name too: material) */
        if (!strcmp(key, pala_sect_names[s])) {
            fprintf(f, s == PALA_S_PAIR ? "== [pair A B] ==\n" : "== [%s NAME] ==\n", pala_sect_names[s]);
            for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k))
                if (k->sect == s) help_one(k, f);
            found = 1;
        }
    for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k))   /* the keys of that name, in every section */
        if (!strcmp(k->name, key)) {
            if (found == 1) fputc('\n', f);
            help_one(k, f);
            found = 2;
        }
    const pala_key_alias *al = found ? NULL : pala_key_alias_of(key);
    if (al && !al->key) fprintf(f, "%s: %s\n", key, al->note);
    if (al && al->key) {   /* another program's word: pala's key */
        fprintf(f, "%s: pala calls it '%s' (%s)\n", key, al->key, al->note);
        for (const pala_keydef *k = pala_key_first(); k; k = pala_key_next(k))
            if (!strcmp(k->name, al->key) && k->sect == al->sect) help_one(k, f);
    }
    return found || al ? 0 : -1;
}

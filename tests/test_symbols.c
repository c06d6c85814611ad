/* test_symbols.c: what build/libpala.a exports and what it calls, read with nm
 * (binutils): every defined global symbol starts with `pala_` (docs/design.md, Naming;
 * symbols a sanitizer or profiler adds are not counted), and the library never calls
 * exit (errors are returned to the caller, who decides). */
#include "t.h"
#include <stdlib.h>
#include <string.h>

void test_symbols_prefix(void);
void test_symbols_no_exit(void);

#ifndef LIB
#define LIB "build/libpala.a"
#endif

static char out[1 << 17];

/* 1 if nm can be run; otherwise the check is counted as skipped. */
static int have_nm(const char *what)
{
    if (t_sh(NULL, 0, "command -v nm") == 0) return 1;
    char why[256];
    snprintf(why, sizeof why, "%s: nm not found; install binutils (apt-get install binutils)", what);
    t_skip(why);
    return 0;
}

/* Run nm with args on the library into out; records a failure and returns 0 if it fails. */
static int run_nm(const char *args)
{
    int rc = t_sh(out, sizeof out, "nm %s " LIB, args);
    if (rc != 0) T_CHECK(0, "nm %s " LIB " exited with %d: %s", args, rc, out);
    return rc == 0;
}

/* The lines of out: "x.o:" names the object of the lines below it; a symbol line ends
 * with its name.  Calls f(object, type, name) for each symbol line. */
static void each_symbol(void (*f)(const char *obj, char type, const char *name, void *ctx), void *ctx)
{
    char obj[256] = "?";
    for (char *line = out, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        size_t len = strlen(line);
        if (len == 0) continue;
        if (line[len - 1] == ':' && !strchr(line, ' ')) {
            snprintf(obj, sizeof obj, "%.*s", (int)(len - 1), line);
            continue;
        }
        /* "[value] TYPE name": the name is the last field, the type the one before */
        char *name = strrchr(line, ' ');
        if (!name || name == line) continue;
        char type = name[-1];
        name++;
        char *at = strchr(name, '@');   /* versioned names: exit@GLIBC_2.2.5 */
        if (at) *at = 0;
        f(obj, type, name, ctx);
    }
}

struct tally { int n, bad; char list[2048]; };

static void add_to(struct tally *t, const char *obj, const char *name)
{
    size_t l = strlen(t->list);
    if (l + 80 < sizeof t->list)
        snprintf(t->list + l, sizeof t->list - l, "%s%s: %s", t->bad ? ", " : "", obj, name);
    t->bad++;
}

/* symbols the compiler adds when instrumenting (make sanitize, coverage, profiling) */
static int instrumentation(const char *name)
{
    static const char *const pre[] = {"__odr_asan", "__asan_", "__ubsan_", "__tsan_", "__msan_",
                                      "__sanitizer_", "__sancov", "__gcov_", "__llvm_", "__prof"};
    for (size_t i = 0; i < sizeof pre / sizeof pre[0]; i++)
        if (strncmp(name, pre[i], strlen(pre[i])) == 0) return 1;
    return 0;
}

static void prefix_of(const char *obj, char type, const char *name, void *ctx)
{
    struct tally *t = ctx;
    (void)type;
    if (instrumentation(name)) return;
    t->n++;
    if (strncmp(name, "pala_", 5) != 0) add_to(t, obj, name);
}

void test_symbols_prefix(void)
{
    if (!have_nm("symbols_prefix") || !run_nm("-g --defined-only")) return;
    struct tally t = {0, 0, ""};
    each_symbol(prefix_of, &t);
    T_CHECK(t.n > 0, "nm -g --defined-only " LIB " lists symbols (%d)", t.n);
    T_CHECK(t.bad == 0, "every global symbol defined by " LIB " starts with pala_ "
            "(%d symbols, %d without the prefix%s%s)", t.n, t.bad, t.bad ? ": " : "", t.list);
}

static void exit_of(const char *obj, char type, const char *name, void *ctx)
{
    static const char *const banned[] = {"exit", "_exit", "_Exit", "quick_exit"};
    struct tally *t = ctx;
    if (type != 'U') return;
    t->n++;
    for (size_t i = 0; i < sizeof banned / sizeof banned[0]; i++)
        if (strcmp(name, banned[i]) == 0) add_to(t, obj, name);
}

void test_symbols_no_exit(void)
{
    if (!have_nm("symbols_no_exit") || !run_nm("-u")) return;
    struct tally t = {0, 0, ""};
    each_symbol(exit_of, &t);
    T_CHECK(t.n > 0, "nm -u " LIB " lists undefined symbols (%d)", t.n);
    T_CHECK(t.bad == 0, "the library never calls exit: no undefined exit, _exit, _Exit or "
            "quick_exit in " LIB "%s%s%s", t.bad ? " (referenced: " : "", t.list, t.bad ? ")" : "");
}

/* t.c: tiny test harness (see t.h). */
#include "t.h"
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

int t_passed, t_failed, t_skipped;
static char t_skips[16][300];   /* the first reasons, repeated at the end (t_skip_report) */

void t_record(int ok, const char *file, int line, const char *fmt, ...)
{
    va_list ap;
    char msg[2048];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t len = strlen(msg);
    while (len > 0 && msg[len - 1] == '\n') msg[--len] = 0;   /* a command's last newline */
    for (char *p = msg; *p; p++)
        if (*p == '\n') *p = '|';   /* one line per check, whatever a command printed */
    printf("%s %s:%d: %s\n", ok ? "ok  " : "FAIL", file, line, msg);
    if (ok) t_passed++; else t_failed++;
    fflush(stdout);
}

void t_skip(const char *why)
{
    printf("skip %s\n", why);
    if (t_skipped < 16) snprintf(t_skips[t_skipped], sizeof t_skips[0], "%s", why);
    t_skipped++;
    fflush(stdout);
}

int t_sh(char *out, size_t outlen, const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    char full[4200];
    snprintf(full, sizeof full, "( %s ) 2>&1", cmd);
    FILE *p = popen(full, "r");
    if (!p) return -1;
    size_t n = 0;
    char buf[4096];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, p)) > 0) {
        if (out && n + 1 < outlen) {
            size_t c = k < outlen - 1 - n ? k : outlen - 1 - n;
            memcpy(out + n, buf, c);
            n += c;
        }
    }
    if (out && outlen) out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

const char *t_tmpdir(void) { return "build/tmp"; }

void t_write(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f) { t_record(0, __FILE__, __LINE__, "create %s", path); return; }
    fputs(text, f);
    fclose(f);
}

void t_tree(const char *root, const char *const *files)
{
    char path[512];
    t_sh(NULL, 0, "rm -rf %s && mkdir -p %s/src/lib %s/src/cli %s/include/pala %s/docs %s/tests", root, root, root, root, root, root);
    for (int i = 0; files[i]; i += 2) {
        snprintf(path, sizeof path, "%s/%s", root, files[i]);
        t_write(path, files[i + 1]);
    }
}

void t_script(const char *script, const char *root, int want, const char *const *has)
{
    static char out[16384];
    int rc = t_sh(out, sizeof out, "sh %s %s", script, root);
    int ok = rc == want;
    for (int i = 0; has[i]; i++) ok = ok && strstr(out, has[i]) != NULL;
    t_record(ok, __FILE__, __LINE__, "%s on %s: exit %d (want %d): %s", script, root, rc, want, out);
}

void t_skip_report(void)
{
    if (!t_skipped) return;
    printf("%d check%s skipped, not failed: the tools they need are missing (.ci/run installs them):\n", t_skipped, t_skipped == 1 ? "" : "s");
    for (int i = 0; i < t_skipped && i < 16; i++) printf("  skipped: %s\n", t_skips[i]);
}

int t_ckpt_patch(const char *in, const char *out, const char *name, size_t off, const void *bytes, size_t n)
{
    FILE *f = fopen(in, "rb");
    if (!f) return -1;
    static unsigned char b[1 << 20];
    size_t len = fread(b, 1, sizeof b, f), p = 32;
    fclose(f);
    int done = 0;
    while (p + 14 <= len && !done) {   /* u16 name length, name, u32 element size, u64 count, data */
        uint16_t l;
        uint32_t e;
        uint64_t c;
        memcpy(&l, b + p, 2);
        if (p + 14 + l > len) break;
        memcpy(&e, b + p + 2 + l, 4);
        memcpy(&c, b + p + 6 + l, 8);
        size_t data = p + 14 + l;
        if (l == strlen(name) && !memcmp(b + p + 2, name, l) && off + n <= e * c) { memcpy(b + data + off, bytes, n); done = 1; }
        p = data + e * c;
    }
    uint64_t h = 14695981039346656037ull;   /* FNV-1a 64 of the payload, at byte 24 */
    for (size_t i = 32; i < len; i++) { h ^= b[i]; h *= 1099511628211ull; }
    memcpy(b + 24, &h, 8);
    f = fopen(out, "wb");
    if (!f) return -1;
    fwrite(b, 1, len, f);
    fclose(f);
    return done ? 0 : -1;
}

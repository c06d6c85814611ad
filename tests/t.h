/* t.h: the test harness.  Each test file defines `void test_<name>(void)` and lists it
 * in the table of tests/main.c.  T_CHECK records one pass or failure with a message;
 * t_skip records a check that could not run.  The run ends with the line
 * `N passed, N failed` (`N passed, N failed, N skipped` when a check was skipped). */
#ifndef PALA_T_H
#define PALA_T_H
#include <stdio.h>
#include <stddef.h>

extern int t_passed, t_failed, t_skipped;
void t_record(int ok, const char *file, int line, const char *fmt, ...);
/* Count a check as skipped (neither passed nor failed), saying why and what to install. */
void t_skip(const char *why);
/* Before the last line: how many checks were skipped, each reason again (what to install). */
void t_skip_report(void);
/* Run a shell command, capture stdout+stderr into out (may be NULL); return exit code. */
int t_sh(char *out, size_t outlen, const char *fmt, ...);
/* Scratch directory for this test run (build/tmp). */
const char *t_tmpdir(void);
/* Write text to path; a failure to create it counts as a failed check. */
void t_write(const char *path, const char *text);
/* A scratch tree of files for a script's test: root (made anew) holding the folders
 * src/lib, src/cli, include/pala, docs and tests, and the files given as "path", "text"
 * pairs, NULL-terminated. */
void t_tree(const char *root, const char *const *files);
/* `sh script root` must exit with want and print each of the NULL-terminated strings
 * of has: one check. */
void t_script(const char *script, const char *root, int want, const char *const *has);
/* The checkpoint file `in` written to `out` (the same path is fine) with the n bytes at
 * offset off of field name's data replaced by bytes, and its checksum made again (the
 * format: docs/output-formats.md): a damage the checksum does not catch.  0 if the field
 * was found and holds them. */
int t_ckpt_patch(const char *in, const char *out, const char *name, size_t off, const void *bytes, size_t n);

#define T_CHECK(cond, ...) t_record(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* |a - b| <= tol, printing both values */
#define T_NEAR(a, b, tol, what) do { double a_ = (a), b_ = (b), t_ = (tol); \
    t_record(fabs(a_ - b_) <= t_, __FILE__, __LINE__, "%s: %.10g vs %.10g (tol %.3g)", what, a_, b_, t_); } while (0)

#endif

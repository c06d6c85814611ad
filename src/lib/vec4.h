/* vec4.h: four doubles as one vector (gcc's and clang's vector extensions), for the loops that
 * work on four grains or four contacts at once (integrator.c, contact.c, force_pass.c). */
#ifndef PALA_VEC4_H
#define PALA_VEC4_H
#include <math.h>
#include <string.h>

#if defined(__GNUC__)
/* Without AVX (a portable build: make OPT=-O3) gcc and clang warn that a vector of 32 bytes
 * passed by value is passed otherwise than with it; every function that takes one is static
 * (or inline in this header), so no other code sees the difference. */
#pragma GCC diagnostic ignored "-Wpsabi"
#endif
typedef double v4d __attribute__((vector_size(32)));
typedef long long v4l __attribute__((vector_size(32)));
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)
#define SHUF(a, b, i0, i1, i2, i3) __builtin_shufflevector(a, b, i0, i1, i2, i3)
#else /* gcc before 12 */
#define SHUF(a, b, i0, i1, i2, i3) __builtin_shuffle(a, b, (v4l){i0, i1, i2, i3})
#endif

static inline v4d ld4(const double *p)
{
    v4d v;
    memcpy(&v, p, sizeof v);
    return v;
}
static inline void st4(double *p, v4d v) { memcpy(p, &v, sizeof v); }
static inline v4d bc4(double s) { return (v4d){s, s, s, s}; }
/* sqrt lane by lane (-fno-math-errno: gcc makes it one vsqrtpd where the target has it) */
static inline v4d sqrt4(v4d x) { return (v4d){sqrt(x[0]), sqrt(x[1]), sqrt(x[2]), sqrt(x[3])}; }
/* m ? a : b, lane by lane (m: all ones or all zeros) */
static inline v4d sel4(v4l m, v4d a, v4d b) { return (v4d)(((v4l)a & m) | ((v4l)b & ~m)); }

/* The 4 x 4 transpose: a, b, c, d into o[i] = {a[i], b[i], c[i], d[i]} (four columns of a
 * batch into four contacts' rows, or four rows into columns). */
static inline void transpose4(v4d a, v4d b, v4d c, v4d d, v4d o[4])
{
    v4d ab0 = SHUF(a, b, 0, 4, 2, 6), ab1 = SHUF(a, b, 1, 5, 3, 7);
    v4d cd0 = SHUF(c, d, 0, 4, 2, 6), cd1 = SHUF(c, d, 1, 5, 3, 7);
    o[0] = SHUF(ab0, cd0, 0, 1, 4, 5);
    o[1] = SHUF(ab1, cd1, 0, 1, 4, 5);
    o[2] = SHUF(ab0, cd0, 2, 3, 6, 7);
    o[3] = SHUF(ab1, cd1, 2, 3, 6, 7);
}

#endif

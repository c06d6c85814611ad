/* pala/vec.h: 3-vectors as plain structs passed by value (the compiler keeps them in
 * registers).  Naming: pala_v<op>.  Everything here is static inline. */
#ifndef PALA_VEC_H
#define PALA_VEC_H
#include <math.h>

#define PALA_PI 3.14159265358979323846

typedef struct pala_vec3 { double x, y, z; } pala_vec3;

static inline pala_vec3 pala_v(double x, double y, double z) { pala_vec3 r = {x, y, z}; return r; }
static inline pala_vec3 pala_vadd(pala_vec3 a, pala_vec3 b) { return pala_v(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline pala_vec3 pala_vsub(pala_vec3 a, pala_vec3 b) { return pala_v(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline pala_vec3 pala_vscale(double s, pala_vec3 a) { return pala_v(s * a.x, s * a.y, s * a.z); }
/* a + s b */
static inline pala_vec3 pala_vaxpy(pala_vec3 a, double s, pala_vec3 b) { return pala_v(a.x + s * b.x, a.y + s * b.y, a.z + s * b.z); }
static inline double pala_vdot(pala_vec3 a, pala_vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline pala_vec3 pala_vcross(pala_vec3 a, pala_vec3 b)
{
    return pala_v(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double pala_vnorm2(pala_vec3 a) { return pala_vdot(a, a); }
static inline double pala_vnorm(pala_vec3 a) { return sqrt(pala_vdot(a, a)); }
/* a vector that scaling by 1/|x| turns into a unit vector: finite, its length squared
 * neither 0 nor past a double (1e308 1e308 1e308 would turn into 0 0 0) */
static inline int pala_vdirection(pala_vec3 x) { double n2 = pala_vnorm2(x); return isfinite(x.x) && isfinite(x.y) && isfinite(x.z) && n2 > 0 && isfinite(n2); }
static inline pala_vec3 pala_vneg(pala_vec3 a) { return pala_v(-a.x, -a.y, -a.z); }

/* ---- rotation vectors: the operations of the hot path (paper section 2) ---------- */
/* r * x, eq. (6), evaluated by the paper's recipe below eq. (10):
 * s0 = r.r, s1 = 1/(1+s0), s2 = 1-s0, x' = 2x, s3 = r.x', r*x = s1(s2 x + s3 r + r x x'). */
static inline pala_vec3 pala_rot_apply(pala_vec3 r, pala_vec3 x)
{
    double s0 = pala_vdot(r, r);
    double s1 = 1.0 / (1.0 + s0);
    double s2 = 1.0 - s0;
    pala_vec3 x2 = pala_vscale(2.0, x);
    double s3 = pala_vdot(r, x2);
    pala_vec3 c = pala_vcross(r, x2);
    return pala_v(s1 * (s2 * x.x + s3 * r.x + c.x),
                  s1 * (s2 * x.y + s3 * r.y + c.y),
                  s1 * (s2 * x.z + s3 * r.z + c.z));
}

/* r o r2, eq. (7): (r + r2 + r x r2) / (1 - r.r2).  The paper's guard: when
 * |1 - r.r2| < eps (a half-turn), the denominator is replaced by eps (with its sign). */
static inline pala_vec3 pala_rot_compose(pala_vec3 r, pala_vec3 r2)
{
    const double eps = 1e-12;
    double den = 1.0 - pala_vdot(r, r2);
    if (fabs(den) < eps) den = den < 0 ? -eps : eps;
    pala_vec3 num = pala_vadd(pala_vadd(r, r2), pala_vcross(r, r2));
    return pala_vscale(1.0 / den, num);
}

/* exp(a) = tan(|a|/2) a/|a|, eq. (14).  A time step turns a grain by a small angle, so
 * below |a| = 0.1 the factor tan(x)/(2x), x = |a|/2, is its Taylor series to x^8 (the
 * next term is < 1e-15 relative): no sqrt, no tan, no division, and no 0/0 at a = 0. */
/* The factor tan(x)/(2x), x = |a|/2, of exp(a) = f a for th2 = |a|^2 < 0.01: its Taylor
 * series to x^8 (used alone by loops that know every grain turns by less than that). */
static inline double pala_rot_exp_series(double th2)
{
    double x2 = 0.25 * th2;
    return 0.5 * (1.0 + x2 * (1.0 / 3.0 + x2 * (2.0 / 15.0 + x2 * (17.0 / 315.0 + x2 * (62.0 / 2835.0)))));
}

static inline pala_vec3 pala_rot_exp(pala_vec3 a)
{
    double th2 = pala_vdot(a, a);
    double f;
    if (th2 < 0.01) {
        f = pala_rot_exp_series(th2);
    } else {
        double th = sqrt(th2);
        f = tan(0.5 * th) / th;
    }
    return pala_vscale(f, a);
}

#endif

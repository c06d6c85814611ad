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
static inline pala_vec3 pala_vneg(pala_vec3 a) { return pala_v(-a.x, -a.y, -a.z); }
static inline int pala_visfinite(pala_vec3 a) { return isfinite(a.x) && isfinite(a.y) && isfinite(a.z); }

#endif

/* container.c: the table of container kinds (container.h) and the kind "none". */
#include "container.h"
#include <string.h>

static int none_yes(const pala_world *w, pala_vec3 x, double R) { (void)w; (void)x; (void)R; return 1; }
static void none_bounds(const pala_world *w, double R, double lo[3], double hi[3]) { (void)w; (void)R; (void)lo; (void)hi; }
static double none_cut(const pala_world *w, pala_vec3 c, double a) { (void)w; (void)c; (void)a; return 0; }
static int none_touch(const pala_world *w, const int *cand, int n, pala_wall_touch *out, int cap, int *used)
{
    (void)w; (void)cand; (void)out; (void)cap;
    *used = n;
    return 0;
}
static pala_vec3 none_lowest(const pala_world *w, pala_vec3 g) { (void)w; (void)g; return pala_v(0, 0, 0); }
static int none_columns(const pala_world *w, const char **names, double *values, double *area, int max)
{
    (void)w; (void)names; (void)values; (void)area; (void)max;
    return 0;
}
static const char *none_check(const pala_world *w, char *buf, size_t len) { (void)w; (void)buf; (void)len; return NULL; }

static const pala_container_kind none = {"none", none_yes, none_yes, none_bounds, none_cut, none_touch, none_lowest, none_columns, none_check};

/* indexed by enum pala_container */
static const pala_container_kind *const kinds[] = {&none, &pala_container_box, &pala_container_cavity};
enum { NKIND = sizeof kinds / sizeof kinds[0] };

int pala_container_known(int id) { return id >= 0 && id < NKIND; }

const pala_container_kind *pala_container_of(const pala_world *w)
{
    return w->container > 0 && w->container < NKIND ? kinds[w->container] : &none;
}


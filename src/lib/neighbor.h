/* neighbor.h: the Verlet list of component ("pebble") pairs (neighbor.c). */
#ifndef PALA_NEIGHBOR_H
#define PALA_NEIGHBOR_H
#include "pala/pala.h"

/* A half list of pebble pairs of different grains whose spheres come within `skin`
 * (pair p < q in row p), rows sorted, so each pair is evaluated once and each grain sums
 * its contact forces in a fixed order. */
typedef struct pala_nlist {
    double skin;           /* m */
    int *start;            /* npeb+1 offsets into nbr */
    int *nbr;              /* neighbour pebble indices q > p */
    int *row;              /* row[s]: the pebble p whose row holds slot s (a flat loop over
                            * the slots has no branch at the end of each row) */
    long cap;              /* capacity of nbr */
    long rcap;             /* capacity of row (during a rebuild it holds the pairs of the
                            * compacted states, two ints each) */
    double amax;           /* largest component radius, m */
    double *prad;          /* radius of every pebble, m (clumps; NULL in worlds of spheres) */
    double *trad;          /* worlds of spheres: the radius of each template, m (pala_nlist_rad) */
    double trad1;          /* ... the radius of every template when they have one, else 0 (the sweep
                            * then reads no radius per pair: force_pass.c, collect_pairs) */
    double drift;          /* bound on any pebble's displacement since the last build, m */
    pala_vec3 frame;       /* the velocity of the frame in which rdrift is counted, m/s */
    double rdrift;         /* bound on any pebble's displacement since the last build in a
                            * frame moving at `frame`, m: two pebbles' relative displacement
                            * is the difference of theirs in any frame (neighbor.c) */
    /* cells: a dense grid, or a hash of cells (O(N) in any container shape) */
    int *head, *next;      /* bucket starts (nbucket + 1) and the pebbles by bucket */
    int nbucket, capb;
    int dense;             /* head is a dense grid gn[0] x gn[1] x gn[2] from glo */
    long gn[3];
    pala_vec3 glo;
    long maxrow;           /* room a row may need */
    double *areach;        /* arc worlds, per template: the largest |b| + a of its pebbles' widened bounding circles, m */
    /* arc worlds, the angular filter of the build (neighbor.c, "The arcs' faces"): per
     * pebble its circle's centre and bisector at the build, the cosine and sine of its
     * half-width widened by its grain's largest turn until the next build (cb < -1: no
     * filter on its side) and the bound D on its circle centre's displacement, m; per pebble
     * p the pebbles q of the pairs that hold a state (kq[kst[p] .. kst[p + 1]]), always listed */
    struct pala_arcpeb { double cx, cy, mx, my, cb, sb, D, th, T; } *apeb, *ashape;   /* ashape: cb, sb, D, th per component; T: D_k, the bound on its grain's path, m */
    double adisp;          /* D, m */
    /* arc worlds and worlds of spheres, per grain: its skin factor f_k >= 1 until the next
     * build (neighbor.c, "Skins of their own") and 1/f_k, by which the end of the step scales
     * its displacement bounds (integrator.c: end_planar, end_isotropic_sk, end_discs_sk);
     * fmax the largest f_k; NULL in other worlds */
    double *fk, *gk, fmax;
    int nfk;               /* room of fk and gk */
    int sk;                /* spheres: some f_k > 1 (sphere_skins), else fk is all ones */
    int nosk;              /* spheres take no factors (tests: the same bits either way) */
    double *reach;         /* ... with sk, each sphere's radius + skin f_k / 2, m */
    int nreach;            /* room of reach */
    int afilt;             /* the last build filtered (every grain turned about z alone) */
    int *kst, *kq;
    long kqcap;
    /* a hierarchy of grids for components of very different sizes (neighbor.c, "Levels");
     * nlev 1: the one grid above */
    int nlev;
    struct nl_level *lev;  /* nlev levels, finest first */
    unsigned char *look;   /* look[a * nlev + b]: pebbles of level a search level b (a != b) */
    int *rc, *rev;         /* per pebble: the pairs found from the other side (offsets, pebbles) */
    long revcap;
    int nalloc;            /* pebble count the per-pebble arrays are sized for */
    long builds;           /* number of rebuilds so far; 0 forces a rebuild */
    int bad;               /* the last build found positions out of any sane range (w->why) */
    /* per thread: rows being built; the thread whose rows start the list writes them in
     * nbr itself (direct), the others in buf */
    struct nl_rows { int *buf; long cap, n; int direct; int *rbuf; long rcap, rn; } *rows;
    int nrows;
    /* contact history (docs/physics.md, "Contact history"): hn doubles of state per slot,
     * hs[s * hn ..], in the order of the slots; all zero: no contact (or a new one).  A
     * rebuild carries every non-zero state to its pair's new slot; hn = 0: none kept */
    int hn;
    double *hs;
    unsigned char *hl;     /* per slot: the pair touched at the last evaluation (its state may
                            * be non-zero); the sweep reads the states of these alone */
    long hcap;             /* slots hs has room for */
    long hkept;            /* states carried by the last rebuild (diagnostics) */
    long hpend;            /* states put back from a checkpoint (pala_world_history_set): the
                            * first hpend of hs, row and nbr, placed by the next rebuild */
    int hvalid;            /* the list's slots are those of the current pebbles */
    double hmind;          /* the energy all Mindlin springs (pairs and walls) held after the
                            * last step, J: their stiffness changes, so it is summed here rather
                            * than kept per contact (contact.h) */
} pala_nlist;

/* The radius of pebble p: per pebble in worlds of clumps, per template in worlds of spheres
 * (8 bytes a sphere less; the tid read instead is as near as the radius was). */
static inline double pala_nlist_rad(const pala_nlist *nl, const int *tid, int p) { return nl->prad ? nl->prad[p] : nl->trad[tid[p]]; }

/* Make or remake w->nl for the world's pebbles (skin from w->skin, 0: the default below);
 * the next update rebuilds. */
void pala_nlist_prepare(pala_world *w);
/* The bounding box lo, hi of the points X[0 .. n) (both 0 without points). */
void pala_points_bounds(const pala_vec3 *X, int n, pala_vec3 *lo, pala_vec3 *hi);
/* The grains' extent along their widest axis in cells of the list's grid (one grid, no skin
 * factors), for the scene's check: past 1e12 the list refuses to build (out_of_range). */
double pala_nlist_cells_across(const pala_world *w);
/* The skin of neighbor_skin = 0, m: 0.2 x the median component radius amed, and at least
 * 0.1 x the median bounding radius of the grains (neighbor.c). */
double pala_nlist_default_skin(const pala_world *w, double amed);
void pala_nlist_free(pala_nlist *nl);
/* Rebuild when nl->rdrift exceeds 0.45 skin, a margin below skin/2 (or never built); when
 * only nl->drift does, the pairs stay listed and nl->drift restarts.  Returns 2 if it
 * rebuilt, 1 if only nl->drift restarted (the walls' candidates are then listed again),
 * else 0. */
int pala_nlist_update(pala_world *w);
/* Contact history: make room for hn doubles per slot (states are dropped if hn changes). */
void pala_nlist_history(pala_world *w, int hn);
/* Room for nc states in compacted form (hs, row and nbr: pala_world_history_set). */
void pala_nlist_history_room(pala_world *w, long nc);
/* A contact's state of hn doubles is all zero: no contact, or one that begins now. */
static inline int pala_state_zero(const double *x, int hn)
{
    int z = 1;
    for (int i = 0; i < hn; i++) z &= x[i] == 0;
    return z;
}

#endif

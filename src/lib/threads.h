/* threads.h: the threads of a step (threads.c).  Grains are processed in fixed blocks of
 * PALA_BLOCK; a team of threads takes contiguous ranges of whole blocks.  Sums over
 * grains are formed per block and added in block order, so results do not depend on the
 * number of threads nor on the split (docs/design.md). */
#ifndef PALA_THREADS_H
#define PALA_THREADS_H

enum { PALA_BLOCK = 256 };
/* The end of block b of n grains: its grains are [b * PALA_BLOCK, pala_block_end(n, b)). */
static inline int pala_block_end(int n, int b) { return (b + 1) * PALA_BLOCK < n ? (b + 1) * PALA_BLOCK : n; }

typedef struct pala_team {
    struct pala_pool *pool;   /* NULL for one thread */
    int nth;                  /* threads asked for */
    int nblk;                 /* blocks of grains */
    int *split;               /* thread t has blocks [split[t], split[t + 1]); the second
                                 half of the array (n + 1 more) is scratch of the balance */
    double *busy;             /* per thread: s spent in the timed stage since the split was set */
    long bsteps;              /* steps timed since the split was last set */
    long runs;                /* jobs run (pala_team_run): the threads of a job tag what they publish to each other with it */
    /* The threads in use (pala_team_adapt): nth, or one while one is faster (a core busy with
     * another process).  Only when adapt: the count is pala's default, not one asked for. */
    int act;
    int adapt;
    int aw, apw, afirst, agap0, agapmax;   /* steps a window and a probe's, windows before the first probe, the gaps */
    double at0;               /* the clock at the last call */
    double *atime;            /* the step times of the window (aw) */
    int an;                   /* ... so far */
    double amed[2];           /* the median step time of the last window on one thread [0], on nth [1] */
    int aprobe, await, agap;  /* the window is a probe; windows to the next; the gap after it */
    int *asplit, ablk;        /* the split of nth threads, kept while one thread runs, and its nblk (0: none) */
    long asteps, asteps1;     /* steps timed, and of them on one thread as chosen (not probing) */
    long aswitches;           /* changes of the count, probes included */
} pala_team;

/* (Re)make a team of nthreads threads for nblk blocks (tm NULL: a new one), split evenly. */
pala_team *pala_team_make(pala_team *tm, int nthreads, int nblk);
void pala_team_free(pala_team *tm);
/* The threads a pass uses: fewer than asked if the system refused some, one for a
 * single block. */
int pala_team_size(const pala_team *tm);
/* fn(ctx, t, b0, b1) on threads t = 0..size-1 (0 is the caller), blocks [b0, b1) of the
 * split, and wait for all. */
void pala_team_run(pala_team *tm, void (*fn)(void *ctx, int t, int b0, int b1), void *ctx);
/* A thread of the team's job posts v into its flag *a; another waits (spinning for at most
 * PALA_SPIN_S, then asleep until a post) until *a is v: what the poster wrote before its
 * post is visible after the wait. */
void pala_team_post(pala_team *tm, _Atomic long *a, long v);
void pala_team_wait(pala_team *tm, const _Atomic long *a, long v);
/* Called once a step, after each thread has added its time to busy[t]: every 128 steps,
 * move the split towards equal times.  Returns 1 if it moved. */
int pala_team_balance(pala_team *tm);
/* Called once a step when the team adapts (pala_team.adapt): times the steps in windows of
 * aw steps and now and then runs a window on the other count (one thread, or all nth),
 * keeping it if its median step is at least 10 % shorter.  Returns 1 if the count (and so
 * the split) changed: the results do not depend on it (docs/design.md). */
int pala_team_adapt(pala_team *tm);
/* Its decision on a step of dt s (for the tests: given times in place of the clock). */
int pala_team_adapt_time(pala_team *tm, double dt);

#endif

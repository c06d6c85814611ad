#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
/* threads.c: the threads of a step: a small pool of POSIX threads that run one function
 * on every thread and wait for all of them (a fork-join barrier), the split of the fixed
 * blocks of grains between them, and its balance by measured time.  A chained step uses
 * the pool once, for the force sweep (force_pass.c: a thread finishes its boundary blocks
 * when the earlier threads' records are out, pala_team_wait), a list rebuild twice more (the
 * rows, their copy into the list) and once for the wall candidates; every sum is
 * formed in an order that does not depend on the split, so results are bit-identical for
 * any number of threads (docs/design.md).
 *
 * Every wait spins briefly and then sleeps: workers on a generation counter, the caller on the
 * count of workers still running (a step's phases follow each other within microseconds, so
 * on a quiet machine nobody sleeps), for at most PALA_SPIN_S each.  On a busy machine a
 * thread whose core another process holds is waited for asleep, so its core is free for it
 * (a caller that spun instead took 2x as long as one thread on two busy cores), and an idle
 * pool costs no CPU.
 *
 * A core that another process holds, even at the lowest priority, still slows every step of
 * a team that needs it (two threads of a 10,000-grain drum ran 1.76x slower than one beside
 * a `nice -n 19` job on the other core).  So a team whose count is pala's default times
 * its steps and now and then runs a few on one thread, keeping one while it is faster
 * (pala_team_adapt); the workers then wait as between steps. */
#include "threads.h"
#include "alloc.h"
#include "pala/pala.h"
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double pala_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* how long a wait spins before it sleeps, s */
#define PALA_SPIN_S 200e-6   /* 50e-6 until session 15: the drum's caller waited about that long for the boundary block, then slept (docs/performance.md, "The drum against LAMMPS") */

typedef struct pala_pool {
    int n;                          /* threads including the caller */
    pthread_t *th;
    pthread_mutex_t mu;
    pthread_cond_t cv;              /* a new job (gen) */
    pthread_cond_t done;            /* the last worker finished the job (pending 0) */
    pthread_cond_t posted;          /* a thread posted a flag (pala_team_post) */
    atomic_int sleepers;            /* threads asleep on posted, or about to be */
    int waiting;                    /* the caller sleeps on done (under mu) */
    atomic_long gen;                /* incremented for each job */
    int act;                        /* the threads the jobs use: all n, or 1 (the caller alone) */
    atomic_int pending;             /* workers still running the job */
    int stop;
    void (*fn)(void *arg, int t, int n);
    void *arg;
} pala_pool;

typedef struct worker { pala_pool *p; int t; } worker;

/* Spin until *spins says the wait has spun for PALA_SPIN_S: 1 while it may go on (the clock
 * is read every 64 spins). */
static int spin_on(int *spins, double *t0)
{
    if (++*spins & 63) return 1;
    double t = pala_now();
    if (*spins == 64) *t0 = t;
    return t - *t0 < PALA_SPIN_S;
}

static void *work_loop(void *a)
{
    worker wk = *(worker *)a;
    free(a);
    pala_pool *p = wk.p;
    long seen = 0;
    for (;;) {
        long g;
        int spins = 0;
        double t0 = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen) {
            if (spin_on(&spins, &t0)) continue;
            pthread_mutex_lock(&p->mu);
            while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen) pthread_cond_wait(&p->cv, &p->mu);
            pthread_mutex_unlock(&p->mu);
        }
        seen = g;
        if (p->stop) return NULL;
        p->fn(p->arg, wk.t, p->n);
        if (atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel) == 1) {
            /* the last one: wake the caller if it sleeps (under mu, so that a caller that
             * found pending > 0 under mu is waiting by now) */
            pthread_mutex_lock(&p->mu);
            if (p->waiting) pthread_cond_signal(&p->done);
            pthread_mutex_unlock(&p->mu);
        }
    }
}

/* The CPUs this process may run on (taskset, Slurm, cgroups), not all of the node's. */
int pala_cpu_count(void)
{
    long n = 0;
#ifdef CPU_COUNT
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) n = CPU_COUNT(&set);
#endif
    if (n < 1) n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 1024 ? 1024 : (int)n;
}

static pala_pool *pool_create(int n)
{
    pala_pool *p = pala_xrealloc(NULL, sizeof *p);
    p->n = n < 1 ? 1 : n;
    p->th = pala_xrealloc(NULL, (size_t)p->n * sizeof *p->th);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    pthread_cond_init(&p->done, NULL);
    pthread_cond_init(&p->posted, NULL);
    atomic_init(&p->sleepers, 0);
    p->waiting = 0;
    atomic_init(&p->gen, 0);
    atomic_init(&p->pending, 0);
    p->stop = 0;
    p->fn = NULL;
    p->arg = NULL;
    p->act = p->n;
    for (int t = 1; t < p->n; t++) {
        worker *wk = pala_xrealloc(NULL, sizeof *wk);
        wk->p = p;
        wk->t = t;
        if (pthread_create(&p->th[t], NULL, work_loop, wk) != 0) { free(wk); p->n = p->act = t; break; }
    }
    return p;
}

/* The jobs from now on (set between jobs) run on all n threads, or on the caller alone (the
 * workers wait for the next job that uses them, spinning and then asleep, as between steps). */
static void pool_use(pala_pool *p, int all) { p->act = all ? p->n : 1; }


static void pool_run(pala_pool *p, void (*fn)(void *arg, int t, int n), void *arg)
{
    if (!p || p->act == 1) { fn(arg, 0, 1); return; }
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->pending, p->n - 1, memory_order_release);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_acq_rel);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, p->n);
    int spins = 0;
    double t0 = 0;
    while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0)
        if (!spin_on(&spins, &t0)) {
            pthread_mutex_lock(&p->mu);
            p->waiting = 1;
            while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) pthread_cond_wait(&p->done, &p->mu);
            p->waiting = 0;
            pthread_mutex_unlock(&p->mu);
        }
}

static void pool_free(pala_pool *p)
{
    if (!p) return;
    p->stop = 1;
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_acq_rel);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    for (int t = 1; t < p->n; t++) pthread_join(p->th[t], NULL);
    pthread_mutex_destroy(&p->mu);
    pthread_cond_destroy(&p->cv);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->posted);
    free(p->th);
    free(p);
}

/* ---- the team: the pool and the split of the blocks ---------------------------------- */
void pala_team_free(pala_team *tm)
{
    if (!tm) return;
    pool_free(tm->pool);
    free(tm->split);
    free(tm->busy);
    free(tm->atime);
    free(tm->asplit);
    free(tm);
}

/* The adaptive count from its start: all threads, the first probe after afirst windows. */
static void adapt_reset(pala_team *tm)
{
    if (!tm->aw) {   /* a probe of 16 steps now and then: on a quiet machine it costs 0.1 % of a long run */
        tm->aw = 64; tm->apw = 16; tm->afirst = 2; tm->agap0 = 16; tm->agapmax = 512;
    }
    PALA_GROW(tm->atime, tm->aw > tm->apw ? tm->aw : tm->apw);
    tm->an = 0;
    tm->at0 = 0;
    tm->aprobe = 0;
    tm->await = tm->afirst;
    tm->agap = tm->agap0;
}

/* The even split of the blocks between the threads (pala_team.split). */
static void even_split(pala_team *tm)
{
    int n = pala_team_size(tm);
    for (int t = 0; t <= n; t++) tm->split[t] = (int)((long)tm->nblk * t / n);
    tm->bsteps = 0;
    for (int t = 0; t < tm->nth; t++) tm->busy[t] = 0;
}

pala_team *pala_team_make(pala_team *tm, int nthreads, int nblk)
{
    int nth = nthreads > 1 ? nthreads : 1;
    if (!tm) {
        tm = pala_xrealloc(NULL, sizeof *tm);
        memset(tm, 0, sizeof *tm);
    }
    if (tm->nth != nth) {
        pool_free(tm->pool);
        tm->pool = nth > 1 ? pool_create(nth) : NULL;
        tm->nth = nth;
        PALA_GROW(tm->split, 2 * (nth + 1));
        PALA_GROW(tm->asplit, nth + 1);
        PALA_GROW(tm->busy, nth);
        tm->act = tm->pool ? tm->pool->n : 1;
        adapt_reset(tm);
    }
    tm->nblk = nblk;
    even_split(tm);
    return tm;
}

/* The team uses n threads from its next job on (all nth, or one); the split of nth threads
 * comes back as the balance left it, if the blocks are the same. */
static void use_threads(pala_team *tm, int n)
{
    if (tm->act > 1) {
        memcpy(tm->asplit, tm->split, (size_t)(tm->act + 1) * sizeof *tm->split);
        tm->ablk = tm->nblk;
    }
    pool_use(tm->pool, n > 1);
    tm->act = tm->pool->act;
    tm->aswitches++;
    if (tm->act == tm->pool->n && tm->ablk == tm->nblk) {
        memcpy(tm->split, tm->asplit, (size_t)(tm->act + 1) * sizeof *tm->split);
        tm->bsteps = 0;
        for (int t = 0; t < tm->nth; t++) tm->busy[t] = 0;
    } else even_split(tm);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int pala_team_adapt(pala_team *tm)
{
    if (!tm->adapt || !tm->pool || tm->pool->n < 2 || tm->nblk < 2) return 0;
    double now = pala_now(), t0 = tm->at0;
    tm->at0 = now;
    if (t0 <= 0) return 0;   /* the first call: no step timed yet */
    return pala_team_adapt_time(tm, now - t0);   /* a step, and whatever ran between two calls (outputs): the median leaves those out */
}

int pala_team_adapt_time(pala_team *tm, double dt)
{
    tm->asteps++;
    tm->asteps1 += tm->act == 1 && !tm->aprobe;
    tm->atime[tm->an++] = dt;
    if (tm->an < (tm->aprobe ? tm->apw : tm->aw)) return 0;
    qsort(tm->atime, (size_t)tm->an, sizeof *tm->atime, cmp_double);
    const int cur = tm->act > 1;   /* amed[0]: one thread, amed[1]: all */
    tm->amed[cur] = tm->atime[tm->an / 2];
    tm->an = 0;
    if (tm->aprobe) {   /* a window on the other count: kept if 10 % faster, else back and the next probe twice as late */
        tm->aprobe = 0;
        if (tm->amed[cur] < 0.9 * tm->amed[!cur]) {
            tm->agap = tm->agap0;
            tm->await = tm->agap;
            return 0;
        }
        tm->agap = 2 * tm->agap < tm->agapmax ? 2 * tm->agap : tm->agapmax;
        tm->await = tm->agap;
        use_threads(tm, cur ? 1 : tm->nth);
        return 1;
    }
    if (--tm->await > 0) return 0;
    tm->aprobe = 1;
    use_threads(tm, cur ? 1 : tm->nth);
    return 1;
}

int pala_team_size(const pala_team *tm)
{
    return tm->pool && tm->nblk >= 2 ? tm->act : 1;
}

typedef struct teamjob { pala_team *tm; void (*fn)(void *, int, int, int); void *ctx; } teamjob;

static void team_entry(void *arg, int t, int n)
{
    teamjob *j = arg;   /* n is the pool's size, for which the split was set */
    (void)n;
    j->fn(j->ctx, t, j->tm->split[t], j->tm->split[t + 1]);
}

void pala_team_run(pala_team *tm, void (*fn)(void *ctx, int t, int b0, int b1), void *ctx)
{
    tm->runs++;
    if (pala_team_size(tm) == 1) { fn(ctx, 0, 0, tm->nblk); return; }
    teamjob j = {tm, fn, ctx};
    pool_run(tm->pool, team_entry, &j);
}

/* A flag and the sleepers (sequentially consistent, as a pair: a poster that sees no sleeper
 * stored its flag before the sleeper's count went up, so the sleeper sees the flag before it
 * sleeps; else the poster wakes it under mu). */
void pala_team_post(pala_team *tm, _Atomic long *a, long v)
{
    atomic_store(a, v);
    pala_pool *p = tm->pool;
    if (p && atomic_load(&p->sleepers) > 0) {
        pthread_mutex_lock(&p->mu);
        pthread_cond_broadcast(&p->posted);
        pthread_mutex_unlock(&p->mu);
    }
}

void pala_team_wait(pala_team *tm, const _Atomic long *a, long v)
{
    int spins = 0;
    double t0 = 0;
    while (atomic_load_explicit(a, memory_order_acquire) != v)
        if (!spin_on(&spins, &t0)) {   /* asleep until posted: the core is free for the thread waited for */
            pala_pool *p = tm->pool;
            pthread_mutex_lock(&p->mu);
            atomic_fetch_add(&p->sleepers, 1);
            while (atomic_load(a) != v) pthread_cond_wait(&p->posted, &p->mu);
            atomic_fetch_sub(&p->sleepers, 1);
            pthread_mutex_unlock(&p->mu);
        }
}

/* Every 128 steps with threads: move the split so that the threads' measured times in the
 * sweep would have been equal (each thread's time spread evenly over its blocks), if that
 * shortens the longest by more than 4 %.  (A thread's time in the sweep includes the work
 * of its boundary blocks, not its wait for the earlier threads' records.)  Only with at
 * least one block per thread.  The split changes which thread computes what, never the
 * order of a sum (docs/design.md). */
int pala_team_balance(pala_team *tm)
{
    int n = pala_team_size(tm);
    if (n < 2 || tm->nblk < n || ++tm->bsteps < 128) return 0;
    const int *sp = tm->split;
    const double *busy = tm->busy;
    double tot = 0, mx = 0;
    for (int t = 0; t < n; t++) { tot += busy[t]; mx = fmax(mx, busy[t]); }
    int *ns = tm->split + n + 1, t = 0;   /* the block where the cumulative time reaches tot u / n */
    double c = 0;
    ns[0] = 0;
    ns[n] = tm->nblk;
    for (int u = 1; u < n; u++) {
        double goal = tot * u / n;
        while (t < n - 1 && c + busy[t] < goal) c += busy[t], t++;
        double f = busy[t] > 0 ? (goal - c) / busy[t] : 0;
        int b = sp[t] + (int)lround(f * (sp[t + 1] - sp[t]));
        ns[u] = b < ns[u - 1] + 1 ? ns[u - 1] + 1 : b > tm->nblk - (n - u) ? tm->nblk - (n - u) : b;
    }
    /* the longest time the new split would have taken: move only if 4 % shorter (whole
     * blocks cannot balance exactly; without the margin the split would swing) */
    double pmx = 0;
    for (int u = 0; u < n; u++) {
        double pu = 0;
        for (int v = 0; v < n; v++) {
            int lo = ns[u] > sp[v] ? ns[u] : sp[v], hi = ns[u + 1] < sp[v + 1] ? ns[u + 1] : sp[v + 1];
            if (hi > lo) pu += busy[v] * (hi - lo) / (sp[v + 1] - sp[v]);
        }
        pmx = fmax(pmx, pu);
    }
    int moved = pmx < 0.96 * mx;
    if (moved)
        for (int u = 0; u <= n; u++) tm->split[u] = ns[u];
    tm->bsteps = 0;
    for (int u = 0; u < n; u++) tm->busy[u] = 0;
    return moved;
}

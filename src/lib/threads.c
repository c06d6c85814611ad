#define _GNU_SOURCE   /* sched_getaffinity, CPU_COUNT */
/* threads.c: a small pool of POSIX threads that run one function on every thread and
 * wait for all of them (a fork-join barrier).  A chained step uses it once for the force
 * sweep (contact.c) and once more for the thread-boundary blocks, a list rebuild twice
 * more (the rows, their copy into the list); each call splits fixed blocks of grains
 * between the threads, and every sum is formed in an order that does not depend on the
 * split, so results are bit-identical for any number of threads (docs/design.md).
 *
 * Workers spin briefly on a generation counter (a step's phases follow each other within
 * microseconds) and then sleep on a condition variable, so an idle pool costs no CPU. */
#include "internal.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

double pala_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

struct pala_pool {
    int n;                          /* threads including the caller */
    pthread_t *th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    atomic_long gen;                /* incremented for each job */
    atomic_int pending;             /* workers still running the job */
    int stop;
    void (*fn)(void *arg, int t, int n);
    void *arg;
};

typedef struct worker { pala_pool *p; int t; } worker;

static void *work_loop(void *a)
{
    worker wk = *(worker *)a;
    free(a);
    pala_pool *p = wk.p;
    long seen = 0;
    for (;;) {
        long g;
        int spins = 0;
        while ((g = atomic_load_explicit(&p->gen, memory_order_acquire)) == seen) {
            if (++spins < 200000) continue;
            pthread_mutex_lock(&p->mu);
            while (atomic_load_explicit(&p->gen, memory_order_acquire) == seen) pthread_cond_wait(&p->cv, &p->mu);
            pthread_mutex_unlock(&p->mu);
        }
        seen = g;
        if (p->stop) return NULL;
        p->fn(p->arg, wk.t, p->n);
        atomic_fetch_sub_explicit(&p->pending, 1, memory_order_acq_rel);
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

pala_pool *pala_pool_create(int n)
{
    pala_pool *p = pala_xrealloc(NULL, sizeof *p);
    p->n = n < 1 ? 1 : n;
    p->th = pala_xrealloc(NULL, (size_t)p->n * sizeof *p->th);
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    atomic_init(&p->gen, 0);
    atomic_init(&p->pending, 0);
    p->stop = 0;
    p->fn = NULL;
    p->arg = NULL;
    for (int t = 1; t < p->n; t++) {
        worker *wk = pala_xrealloc(NULL, sizeof *wk);
        wk->p = p;
        wk->t = t;
        if (pthread_create(&p->th[t], NULL, work_loop, wk) != 0) { free(wk); p->n = t; break; }
    }
    return p;
}


int pala_pool_size(const pala_pool *p) { return p->n; }

void pala_pool_run(pala_pool *p, void (*fn)(void *arg, int t, int n), void *arg)
{
    if (!p || p->n == 1) { fn(arg, 0, 1); return; }
    p->fn = fn;
    p->arg = arg;
    atomic_store_explicit(&p->pending, p->n - 1, memory_order_release);
    pthread_mutex_lock(&p->mu);
    atomic_fetch_add_explicit(&p->gen, 1, memory_order_acq_rel);
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    fn(arg, 0, p->n);
    while (atomic_load_explicit(&p->pending, memory_order_acquire) > 0) continue;
}

void pala_pool_free(pala_pool *p)
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
    free(p->th);
    free(p);
}

/* pingpong.c: how far apart two CPUs are, for the threads of a step (bench/cpus.sh,
 * docs/performance.md "Two CPUs that differ"): two threads pinned to CPUs A and B pass a
 * counter back and forth through one cache line, N times; prints the mean round trip in
 * ns (two transfers of the line between the CPUs' caches, what a thread's post and the
 * other's wait cost at least).
 * Usage: build/pingpong A B [N=200000] */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static _Atomic long flag __attribute__((aligned(64)));
static long n = 200000;

static int pin(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    return pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static void *answer(void *arg)
{
    if (pin(*(int *)arg)) { fprintf(stderr, "pingpong: cannot run on CPU %d\n", *(int *)arg); exit(1); }
    for (long i = 0; i < n; i++) {
        while (atomic_load_explicit(&flag, memory_order_acquire) != 2 * i + 1) {}
        atomic_store_explicit(&flag, 2 * i + 2, memory_order_release);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: pingpong A B [N]\n"); return 1; }
    int a = atoi(argv[1]), b = atoi(argv[2]);
    if (argc > 3) n = atol(argv[3]);
    if (n < 1) n = 1;
    if (pin(a)) { fprintf(stderr, "pingpong: cannot run on CPU %d\n", a); return 1; }
    pthread_t t;
    if (pthread_create(&t, NULL, answer, &b)) { fprintf(stderr, "pingpong: no thread\n"); return 1; }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++) {
        atomic_store_explicit(&flag, 2 * i + 1, memory_order_release);
        while (atomic_load_explicit(&flag, memory_order_acquire) != 2 * i + 2) {}
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_join(t, NULL);
    printf("%.1f\n", ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / (double)n);
    return 0;
}

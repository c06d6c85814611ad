/* alloc.c: the library's one allocator (alloc.h). */
#include "alloc.h"
#include "pala/pala.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void nomem_default(size_t n)
{
    fprintf(stderr, "pala: out of memory (asked for %zu bytes)\n", n);
    abort();
}

static void (*nomem)(size_t) = nomem_default;

void pala_set_nomem_handler(void (*fn)(size_t bytes)) { nomem = fn ? fn : nomem_default; }

void *pala_xrealloc(void *p, size_t n)
{
    if (n == 0) n = 1;
    void *q = realloc(p, n);
    if (!q) {
        nomem(n);
        abort();   /* a handler must not return: there is nothing to continue with */
    }
    return q;
}

size_t pala_memory_size(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (size_t)pages * (size_t)size : 0;
}

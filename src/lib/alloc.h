/* alloc.h: the library's one allocator. */
#ifndef PALA_ALLOC_H
#define PALA_ALLOC_H
#include <stddef.h>

/* realloc that never returns NULL.  On failure it calls the handler set with
 * pala_set_nomem_handler (pala.h): the `pala` program's prints the size and exits with
 * PALA_ERR_IO; the library's default prints it and aborts.  The library itself never
 * exits: out of memory inside a step has no result to return. */
void *pala_xrealloc(void *p, size_t n);
/* The machine's physical memory in bytes (0 if unknown): the resource guard of scene.c. */
size_t pala_memory_size(void);
#define PALA_GROW(ptr, n) ((ptr) = pala_xrealloc((ptr), (size_t)(n) * sizeof *(ptr)))

#endif

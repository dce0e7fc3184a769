/*
 * Growing arrays: the one place where a capacity doubles and the size in
 * bytes is checked for overflow before realloc; and the hints for large
 * arrays read at random.
 */
#ifndef SH_GROW_H
#define SH_GROW_H

#include <stddef.h>

/* Bytes of the first allocation, at least one element. */
#define SH_GROW_MIN 4096

/*
 * Make room for need elements of size bytes (size > 0) in the array
 * whose pointer is at pp (any object pointer type: pass &p), holding
 * *cap elements.  When need > *cap, the capacity doubles, from
 * SH_GROW_MIN bytes' worth, until it holds need (at most SIZE_MAX / size),
 * and the array is reallocated, its contents kept; *pp and *cap are then
 * updated.  Return 0, or SH_ENOMEM when need * size overflows or realloc
 * fails: *pp and *cap are unchanged then, the array still owned by the
 * caller.  Cost: O(1) amortized per element added one by one.
 */
int sh_grow(void *pp, size_t *cap, size_t need, size_t size);

/*
 * Hint that the len bytes at p, a large array read or written at random,
 * be backed by huge pages (MADV_HUGEPAGE, for transparent huge pages in
 * "madvise" mode): pages touched later then miss the TLB far less.  Only
 * the whole pages inside the range are advised; nothing fails.  Not for
 * arrays read in order: the kernel's work to find huge pages then costs
 * more than it saves.
 */
void sh_hugepages(void *p, size_t len);

/* Ask for the cache line at p, to be read soon: misses asked for
 * together overlap.  A hint; p need not be valid. */
#if defined(__GNUC__)
#define SH_PREFETCH(p) __builtin_prefetch(p)
#else
#define SH_PREFETCH(p) ((void)(p))
#endif

#endif

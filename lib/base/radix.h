/*
 * LSD radix sorting of 64-bit words by some of their bits: the sort of
 * the joins' tables and of their pairs.
 */
#ifndef SH_RADIX_H
#define SH_RADIX_H

#include <stddef.h>
#include <stdint.h>

/*
 * Sort v[0..n) by bits [from, from + bits) of each word, stably, in
 * passes of digits of at most maxw (<= 11) bits, through tmp (n words);
 * the result in *v: the two arrays may have swapped.  Cost: one pass
 * over both arrays per digit.
 */
void sh_radix_bits(uint64_t **v, uint64_t **tmp, size_t n, int from,
    int bits, int maxw);

/* A 64-bit key and its entry, for runs whose keys agree in the bits
 * sorted and must be sorted whole; sh_kv_cmp, a qsort comparator,
 * orders them by key, then by entry. */
struct sh_kv {
	uint64_t k;
	uint32_t i;
};

int sh_kv_cmp(const void *a, const void *b);

#endif

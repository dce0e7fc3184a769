/*
 * The MinHash sketch of a document, version 1 (base/sketch.h): one
 * permutation hashing with optimal densification (Li, Owen and Zhang,
 * NIPS 2012; Shrivastava, ICML 2017), over the same 64-bit feature
 * hashes as the fingerprint (fingerprint.h).
 *
 * The set: each distinct feature hash h of weight above 0, the features
 * that the verification compares (similar.h); weights do not count
 * further, and a feature seen twice is one.  The hashes are uniform
 * already (base/hash.h), so each is its own rank: the top 7 bits of h
 * name one of the SH_SK_K = 128 bins, bin i keeps the least h that falls
 * in it, and value i of the sketch is the low 16 bits of that least h.
 * The hash 2^64 - 1 counts as no feature (a bin holding it is empty).
 * A bin that nothing fell in takes the value of another bin: for
 * a = 1, 2, ... up to 65536, bin j = sh_minhash_mix(SH_MINHASH_PROBE ^
 * (i << 32 | a)) >> 57, the first j that is not empty; after 65536
 * tries (which happens with probability below 1e-200) the first bin not
 * empty after i, cyclically.  Every bin's chance to agree between two
 * documents is then their Jaccard similarity J, plus (1 - J) 2^-16 for
 * two values of 16 bits that agree by chance.
 *
 * Frozen by tests/unit/minhash_test.c and the vectors of tests/fixtures;
 * any change is a new version of base/sketch.h's text form.
 */
#ifndef SH_MINHASH_H
#define SH_MINHASH_H

#include <stddef.h>
#include <stdint.h>

#include "base/sketch.h"

#define SH_MINHASH_PROBE 0x6a09e667f3bcc909ULL

/* The mixer of the probes: a bijection of 64-bit words, two rounds of
 * xor-shift by 32 and multiply (the form of murmur3's finalizer), after
 * an offset. */
static inline uint64_t
sh_minhash_mix(uint64_t x)
{
	x ^= 0x243f6a8885a308d3ULL;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	x *= 0xd6e8feb86659fd93ULL;
	x ^= x >> 32;
	return x;
}

/* The bins of a sketch being made: 1 KiB. */
struct sh_minhash {
	uint64_t m[SH_SK_K];
};

/* Empty a. */
void sh_minhash_init(struct sh_minhash *a);

/* Add the feature of hash h; adding it again changes nothing. */
static inline void
sh_minhash_add(struct sh_minhash *a, uint64_t h)
{
	unsigned b = (unsigned)(h >> 57);

	a->m[b] = h < a->m[b] ? h : a->m[b];
}

/* Add the n features h[0..n). */
void sh_minhash_add_many(struct sh_minhash *a, const uint64_t *h, size_t n);

/* The sketch of the features added, into *s: return 1, or 0 when none
 * was added (*s is then all 0 and no sketch).  Cost: the empty bins'
 * probes, about K / (K - e) each for e empty bins. */
int sh_minhash_final(const struct sh_minhash *a, struct sh_sketch *s);

#endif

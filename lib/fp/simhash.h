/*
 * Charikar's weighted simhash accumulator over 64-bit feature hashes.
 *
 * Bit i of the fingerprint is 1 exactly when the features whose hash has
 * bit i set weigh more than half of the total weight, that is when the
 * classic sum of +w (bit set) and -w (bit clear) is positive; a tie gives
 * 0.  Bit i is the bit of value 1 << i, in the feature hash and in the
 * fingerprint alike.
 *
 * Weight-1 additions, the hot path of term frequencies, are kept
 * bit-sliced: plane j holds bit j of all 64 per-bit sums, so adding a
 * feature is a ripple of AND/XOR over whole words instead of 64 per-bit
 * additions; they first go to four small planes (a 4-bit counter per
 * lane) that spill into the wide planes every 15 additions.  Weighted
 * additions go to 64 signed 32-bit lanes, +w where the hash bit is set and
 * -w where it is clear (a loop the compiler turns into vector operations),
 * that spill into 64-bit lanes before they could overflow.  The result is
 * exact integer arithmetic: the same on every machine.  Cost: about 10
 * word operations per weight-1 feature, 64 lane additions per weighted
 * one whatever its weight.
 *
 * Usage: sh_simhash_init, any number of sh_simhash_add / sh_simhash_addw,
 * sh_simhash_final.  Total weight must stay below 2^63.
 */
#ifndef SH_SIMHASH_H
#define SH_SIMHASH_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"

#if SH_FP_BITS != 64
#error "the accumulator has one lane per bit of a 64-bit word"
#endif

struct sh_simhash {
	uint64_t lo[4];		/* 4-bit counters of weight-1 additions */
	unsigned nlo;		/* additions held in lo, < 15 */
	uint8_t c8[64];		/* sh_simhash_add_many's 8-bit counters, lane
				   i in c8[i] */
	unsigned n8;		/* additions held in c8, < 255 */
	uint64_t hi[64];	/* plane j: bit j of each lane's weight-1 sum */
	uint64_t n1;		/* weight-1 additions */
	int32_t lane[64];	/* weighted: +w bit set, -w clear, since spill */
	int64_t wide[64];	/* the same, spilled */
	uint64_t lanew;		/* weight held in lane, < 2^31 */
	uint64_t total;		/* sum of all weights */
};

void sh_simhash_init(struct sh_simhash *s);

/* Add feature hash h with weight w (w may be 0). */
void sh_simhash_addw(struct sh_simhash *s, uint64_t h, uint64_t w);

/* Spill the 4-bit counters into the wide planes (internal). */
void sh_simhash_spill(struct sh_simhash *s);

/* Add feature hash h with weight 1: the hot path, inline. */
static inline void
sh_simhash_add(struct sh_simhash *s, uint64_t h)
{
	uint64_t c = h, t;

	t = s->lo[0] & c; s->lo[0] ^= c; c = t;
	t = s->lo[1] & c; s->lo[1] ^= c; c = t;
	t = s->lo[2] & c; s->lo[2] ^= c; c = t;
	s->lo[3] ^= c;
	s->n1++;
	s->total++;
	if (++s->nlo == 15)
		sh_simhash_spill(s);
}

/* Total weight added so far (0: no features). */
/*
 * sh_simhash_add of h[0..n) in turn.  With AVX-512 where the CPU has it
 * an addition is one masked byte add to 64 counters of 8 bits, which
 * spill into the wide planes every 255 additions; the sums, and so the
 * fingerprint, are the same on any path.
 */
void sh_simhash_add_many(struct sh_simhash *s, const uint64_t *h, size_t n);

/* Whether sh_simhash_add_many uses the vector instructions the CPU has
 * (1, the default) or portable C only (0), for tests that hold one to
 * the other.  Not thread-safe. */
void sh_simhash_vector(int on);

static inline uint64_t
sh_simhash_total(const struct sh_simhash *s)
{
	return s->total;
}

/* The fingerprint.  s is left spilled but otherwise unchanged. */
sh_fpval sh_simhash_final(struct sh_simhash *s);

#endif

/*
 * Fingerprint sets for the search tests: uniform, planted near copies,
 * and adversarial sets where thousands share a block.
 */
#ifndef FPSETS_H
#define FPSETS_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h"

/* Flip d distinct random bits of x. */
static uint64_t
flip(uint64_t x, int d)
{
	uint64_t m = 0, b;

	while (d > 0) {
		b = (uint64_t)1 << (next() % 64);
		if (!(m & b)) {
			m |= b;
			d--;
		}
	}
	return x ^ m;
}

/* n fingerprints of the given kind. */
static void
make_set(uint64_t *fp, size_t n, int kind, int k)
{
	size_t i;

	for (i = 0; i < n; i++) {
		switch (kind) {
		case 0:		/* uniform random */
			fp[i] = next();
			break;
		case 1:		/* planted: neighbours at 0..k+1 of earlier */
			fp[i] = i > 0 && next() % 2 ? flip(fp[next() % i],
			    (int)(next() % (unsigned)(k + 2))) : next();
			break;
		case 2:		/* all share their low 16 bits, some planted */
			fp[i] = i > 0 && next() % 3 == 0 ? flip(fp[next() % i],
			    (int)(next() % (unsigned)(k + 2))) :
			    (next() & ~(uint64_t)0xFFFF) | 0x1234;
			break;
		default:	/* all share their top 16 bits, some planted */
			fp[i] = i > 0 && next() % 3 == 0 ? flip(fp[next() % i],
			    (int)(next() % (unsigned)(k + 2))) :
			    next() >> 16 | (uint64_t)0xABCD << 48;
			break;
		}
	}
}

#endif

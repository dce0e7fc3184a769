/*
 * splitmix64 (Steele, Lea and Flood), the deterministic generator of the
 * unit tests: the same sequence on every machine.
 */
#ifndef RNG_H
#define RNG_H

#include <stdint.h>

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint64_t
next(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ z >> 27) * 0x94D049BB133111EBULL;
	return z ^ z >> 31;
}

#endif

/*
 * The text form of a fingerprint: exactly 16 hex digits, most significant
 * first (bit 63 is the top bit of the first digit).  Output is lowercase;
 * input may be either case.
 */
#ifndef SH_HEX_H
#define SH_HEX_H

#include <stddef.h>
#include <stdint.h>

#define SH_HEX_LEN 16

/* Parse p[0..n) into *v; return 0, or SH_EHEX unless n == 16 hex digits. */
int sh_hex_parse(const char *p, size_t n, uint64_t *v);

/* Write v as 16 lowercase hex digits into out (not NUL-terminated). */
void sh_hex_format(uint64_t v, char out[SH_HEX_LEN]);

/* Hamming distance between two fingerprints, 0..64.  Inline: searches
 * call it once per candidate. */
static inline int
sh_hamming(uint64_t a, uint64_t b)
{
	uint64_t x = a ^ b;

	/* SWAR popcount: portable, and a popcnt where the target has one. */
	x = x - (x >> 1 & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

#endif

/*
 * A fingerprint value: SH_FP_BITS bits in an sh_fpval, bit i the bit of
 * value 1 << i; its text form; the distance between two.
 *
 * The width is named here so that a wider fingerprint is a change in
 * known places: the modules that take the width as 64 (the simhash
 * accumulator, the table plans, joins, segments, shards, explanations)
 * say so with "#if SH_FP_BITS != 64" and stop the build, and everything
 * else takes sh_fpval and SH_FP_BITS from here.
 *
 * The text form is exactly SH_HEX_LEN hex digits, most significant
 * first (bit SH_FP_BITS - 1 is the top bit of the first digit).  Output
 * is lowercase; input may be either case.
 */
#ifndef SH_FPVAL_H
#define SH_FPVAL_H

#include <stddef.h>
#include <stdint.h>

#define SH_FP_BITS 64
typedef uint64_t sh_fpval;

#define SH_HEX_LEN (SH_FP_BITS / 4)

/* The value of each hex digit, 16 for any other byte. */
extern const unsigned char sh_hexval[256];

/* Parse p[0..n) into *v; return 0, or SH_EHEX unless n == SH_HEX_LEN hex
 * digits. */
int sh_hex_parse(const char *p, size_t n, sh_fpval *v);

/* Write v as SH_HEX_LEN lowercase hex digits into out (not
 * NUL-terminated). */
void sh_hex_format(sh_fpval v, char out[SH_HEX_LEN]);

/* Hamming distance between two fingerprints, 0..SH_FP_BITS.  Inline:
 * searches call it once per candidate. */
static inline int
sh_hamming(sh_fpval a, sh_fpval b)
{
	uint64_t x = a ^ b;

	/* SWAR popcount: portable, and a popcnt where the target has one. */
	x = x - (x >> 1 & 0x5555555555555555ULL);
	x = (x & 0x3333333333333333ULL) + (x >> 2 & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

/* The similarity of two fingerprints at distance d, 1 - d / SH_FP_BITS,
 * in millionths: exact for 64 bits. */
static inline uint32_t
sh_hamming_sim(int d)
{
	return (uint32_t)(SH_FP_BITS - d) * (1000000 / SH_FP_BITS);
}

#if SH_FP_BITS != 64
#error "sh_hamming and sh_hamming_sim count 64 bits"
#endif

#endif

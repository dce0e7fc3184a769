/*
 * Feature weights.  Weights are fixed-point integers, SH_W_UNIT to 1.0,
 * so that fingerprints are exact integer arithmetic everywhere.  Text
 * forms ("2", "1.693") have at most three decimals; more are rounded half
 * up on the digits, never through floating point.
 */
#ifndef SH_WEIGHT_H
#define SH_WEIGHT_H

#include <stddef.h>
#include <stdint.h>

#define SH_W_UNIT 1000
#define SH_W_MAX (1000000000ULL * SH_W_UNIT)	/* largest weight, 10^9 */
#define SH_W_TOTAL_MAX (1ULL << 62)	/* largest total weight of a document */

enum {
	SH_W_TF,	/* term frequency: tf */
	SH_W_BINARY,	/* 1 for every distinct feature */
	SH_W_LOGTF	/* 1 + ln(tf), rounded to 1/SH_W_UNIT */
};

/* Scheme for a name ("tf", "binary", "logtf"), or -1. */
int sh_weight_scheme(const char *name);

/* Weight in units of a feature seen tf >= 1 times under scheme. */
uint64_t sh_weight(int scheme, uint64_t tf);

/*
 * Parse a decimal weight p[0..n) ("3", "0.5", "2.30259") into units.
 * Return 0, or SH_EWEIGHT for anything but digits with one optional '.',
 * or a value above SH_W_MAX.
 */
int sh_weight_parse(const char *p, size_t n, uint64_t *w);

/* Format units w in the shortest decimal form ("2", "1.5"); return length.
 * out needs 24 bytes; not NUL-terminated. */
size_t sh_weight_format(uint64_t w, char *out);

#endif

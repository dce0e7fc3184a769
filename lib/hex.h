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

/* Hamming distance between two fingerprints, 0..64. */
int sh_hamming(uint64_t a, uint64_t b);

#endif

/*
 * Range-checked decimal numbers for option arguments, in the manner of
 * OpenBSD strtonum(3); and the integer logarithm of the dictionary and
 * the IDF weights, so that what depends on it is the same on every
 * machine (-W logtf takes libm's log instead: see weight.c).
 */
#ifndef SH_NUM_H
#define SH_NUM_H

#include <stdint.h>

/* Parse s as a decimal integer in [min, max] into *v.  Return 0, or
 * SH_EINVAL (not a number) or SH_ERANGE (outside the range). */
int sh_strtonum(const char *s, long long min, long long max, long long *v);

/* Parse s as a size in bytes, with an optional suffix K, M, G or T
 * (powers of 1024), at least min, at most 2^50, into *v.  Return 0,
 * SH_EINVAL or SH_ERANGE. */
int sh_strtosize(const char *s, long long min, long long *v);

/* Parse s as a moment, into *t (seconds since the epoch): "@N", N
 * itself (at most 2^32 - 1), or an age "N" and a unit (s, m, h, d or w:
 * seconds, minutes, hours, days, weeks) before now (0 when that is before
 * the epoch).  Return 0, SH_EINVAL or SH_ERANGE. */
int sh_strtowhen(const char *s, uint32_t now, uint32_t *t);

/* log2(x) for x >= 1, in units of 2^-32, rounded down (to within 2
 * units); 0 for x == 0.  Integer arithmetic only. */
uint64_t sh_log2_q32(uint64_t x);

#endif

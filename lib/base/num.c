#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/num.h"

int
sh_strtonum(const char *s, long long min, long long max, long long *v)
{
	char *end;
	long long x;

	if (*s == '\0' || *s == ' ' || *s == '\t' || *s == '+')
		return SH_EINVAL;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (*end != '\0')
		return SH_EINVAL;
	if (errno == ERANGE || x < min || x > max)
		return SH_ERANGE;
	*v = x;
	return 0;
}

int
sh_strtosize(const char *s, long long min, long long *v)
{
	char buf[32];
	size_t len = strlen(s);
	int shift = 0, e;

	if (len == 0 || len >= sizeof(buf))
		return SH_EINVAL;
	memcpy(buf, s, len + 1);
	switch (buf[len - 1]) {
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	}
	if (shift)
		buf[len - 1] = '\0';
	if ((e = sh_strtonum(buf, 0, (1LL << 50) >> shift, v)) != 0)
		return e;
	*v <<= shift;
	return *v < min ? SH_ERANGE : 0;
}

int
sh_strtowhen(const char *s, uint32_t now, uint32_t *t)
{
	static const struct {
		char c;
		long long secs;
	} unit[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 },
	    { 'w', 604800 } };
	char buf[32];
	size_t len = strlen(s), i;
	long long v, secs = 0;
	int e;

	if (len == 0 || len >= sizeof(buf))
		return SH_EINVAL;
	if (s[0] == '@') {
		if ((e = sh_strtonum(s + 1, 0, UINT32_MAX, &v)) != 0)
			return e;
		*t = (uint32_t)v;
		return 0;
	}
	memcpy(buf, s, len + 1);
	for (i = 0; i < sizeof(unit) / sizeof(unit[0]); i++)
		if (buf[len - 1] == unit[i].c)
			secs = unit[i].secs;
	if (secs == 0)
		return SH_EINVAL;
	buf[len - 1] = '\0';
	if ((e = sh_strtonum(buf, 0, UINT32_MAX / secs, &v)) != 0)
		return e;
	*t = v * secs >= now ? 0 : now - (uint32_t)(v * secs);
	return 0;
}

/*
 * log2 by the bit-by-bit method: with x = 2^e m, 1 <= m < 2, squaring m
 * doubles its logarithm, and each square that reaches 2 gives a 1 bit.
 * m is kept in 62 fractional bits, the square computed in 128 bits.
 */
uint64_t
sh_log2_q32(uint64_t x)
{
	uint64_t m, a1, a0, lo, mid, hi, r;
	int e, i;

	if (x == 0)
		return 0;
	for (e = 63; (x >> e) == 0; e--)
		;
	m = e <= 62 ? x << (62 - e) : x >> 1;
	r = (uint64_t)e << 32;
	for (i = 31; i >= 0; i--) {
		/* m = m * m >> 62, as 32-bit halves. */
		a1 = m >> 32;
		a0 = m & 0xffffffffu;
		lo = a0 * a0;
		mid = a1 * a0;
		hi = a1 * a1 + (mid >> 31);
		mid <<= 33;	/* the part of 2 mid 2^32 below 2^64 */
		lo += mid;
		if (lo < mid)
			hi++;
		m = hi << 2 | lo >> 62;
		if (m >> 63) {
			m >>= 1;
			r |= (uint64_t)1 << i;
		}
	}
	return r;
}

#include <math.h>
#include <string.h>

#include "base/errors.h"
#include "feat/weight.h"

int
sh_weight_scheme(const char *name)
{
	if (strcmp(name, "tf") == 0)
		return SH_W_TF;
	if (strcmp(name, "binary") == 0)
		return SH_W_BINARY;
	if (strcmp(name, "logtf") == 0)
		return SH_W_LOGTF;
	return -1;
}

uint64_t
sh_weight(int scheme, uint64_t tf)
{
	switch (scheme) {
	case SH_W_BINARY:
		return SH_W_UNIT;
	case SH_W_LOGTF:
		/*
		 * 1000 ln(tf) is never within 1e-9 (thousands of ulps) of
		 * a rounding tie for tf < 2^24 (tests/unit/weight_test.c),
		 * so any libm accurate to a few ulps rounds it the same way.
		 */
		return SH_W_UNIT + (uint64_t)floor(SH_W_UNIT * log((double)tf)
		    + 0.5);
	default:
		return tf * SH_W_UNIT;
	}
}

int
sh_weight_parse(const char *p, size_t n, uint64_t *w)
{
	uint64_t v = 0;
	size_t i;
	int frac = -1, digits = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (p[i] < '0' || p[i] > '9')
			return SH_EWEIGHT;
		digits++;
		if (frac >= 3) {
			/* Round half up on the fourth decimal, ignore the rest. */
			if (frac == 3 && p[i] >= '5')
				v++;
			frac++;
			continue;
		}
		if (v > SH_W_MAX)
			return SH_EWEIGHT;
		v = v * 10 + (uint64_t)(p[i] - '0');
		if (frac >= 0)
			frac++;
	}
	if (digits == 0)
		return SH_EWEIGHT;
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++)
		v *= 10;
	if (v > SH_W_MAX)
		return SH_EWEIGHT;
	*w = v;
	return 0;
}

size_t
sh_weight_format(uint64_t w, char *out)
{
	char tmp[24];
	size_t n = 0, len = 0;
	uint64_t ip = w / SH_W_UNIT, fp = w % SH_W_UNIT;
	int d;

	do
		tmp[n++] = (char)('0' + ip % 10);
	while ((ip /= 10) != 0);
	while (n > 0)
		out[len++] = tmp[--n];
	if (fp != 0) {
		out[len++] = '.';
		for (d = 100; d > 0 && fp != 0; d /= 10) {
			out[len++] = (char)('0' + fp / (uint64_t)d);
			fp %= (uint64_t)d;
		}
	}
	return len;
}

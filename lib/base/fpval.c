#include "base/errors.h"
#include "base/fpval.h"

const unsigned char sh_hexval[256] = {
#define X16 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16
	X16, X16, X16,
	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 16, 16, 16, 16, 16,
	16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	X16,
	16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	X16, X16, X16, X16, X16, X16, X16, X16, X16
#undef X16
};

int
sh_hex_parse(const char *p, size_t n, sh_fpval *v)
{
	sh_fpval x = 0;
	unsigned bad = 0, d;
	size_t i;

	if (n != SH_HEX_LEN)
		return SH_EHEX;
	/* Without a branch a digit: letters and digits come at random. */
	for (i = 0; i < n; i++) {
		d = sh_hexval[(unsigned char)p[i]];
		bad |= d;
		x = x << 4 | (d & 15);
	}
	if (bad & 16)
		return SH_EHEX;
	*v = x;
	return 0;
}

void
sh_hex_format(sh_fpval v, char out[SH_HEX_LEN])
{
	static const char digits[] = "0123456789abcdef";
	int i;

	for (i = SH_HEX_LEN - 1; i >= 0; i--, v >>= 4)
		out[i] = digits[v & 15];
}

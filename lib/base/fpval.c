#include "base/errors.h"
#include "base/fpval.h"

int
sh_hex_parse(const char *p, size_t n, sh_fpval *v)
{
	sh_fpval x = 0;
	size_t i;
	int c, d;

	if (n != SH_HEX_LEN)
		return SH_EHEX;
	for (i = 0; i < n; i++) {
		c = (unsigned char)p[i];
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return SH_EHEX;
		x = x << 4 | (sh_fpval)d;
	}
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

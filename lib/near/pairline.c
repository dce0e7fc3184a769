#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "near/fpline.h"
#include "near/pairline.h"

int
sh_pairline_parse(const char *p, size_t len, const char **a, size_t *alen,
    const char **b, size_t *blen)
{
	const char *tab;

	if ((tab = memchr(p, '\t', len)) == NULL)
		return SH_EFIELDS;
	*a = p;
	*alen = (size_t)(tab - p);
	*b = tab + 1;
	*blen = len - *alen - 1;
	if ((tab = memchr(*b, '\t', *blen)) != NULL)
		*blen = (size_t)(tab - *b);
	return 0;
}

int
sh_pairline_write(FILE *out, const char *a, size_t alen, const char *b,
    size_t blen, int dist, long sim, const char *more)
{
	if (fwrite(a, 1, alen, out) != alen || putc('\t', out) == EOF ||
	    fwrite(b, 1, blen, out) != blen ||
	    (dist >= 0 && fprintf(out, "\t%d", dist) < 0) ||
	    (sim >= 0 && fprintf(out, "\t%ld.%06ld", sim / 1000000,
	    sim % 1000000) < 0) || (more != NULL && fprintf(out, "\t%s",
	    more) < 0) || putc('\n', out) == EOF)
		return SH_EIO;
	return 0;
}

int
sh_fppair_parse(const char *p, size_t len, sh_fpval *a, sh_fpval *b)
{
	const char *rest, *tab;
	size_t n;
	int r;

	if ((r = sh_fpline_parse(p, len, a, &rest, &n)) != 0)
		return r;
	if ((tab = memchr(rest, '\t', n)) != NULL)
		n = (size_t)(tab - rest);
	return sh_hex_parse(rest, n, b) != 0 ? SH_EHEX : 0;
}

#include "base/errors.h"
#include "base/hash.h"
#include "feat/toklist.h"
#include "feat/weight.h"

int
sh_toklist_parse(const char *p, size_t len, sh_wfeat_fn *fn, void *ctx,
    size_t *col)
{
	size_t i = 0, start, caret;
	uint64_t w, total = 0;

	for (;;) {
		while (i < len && (p[i] == ' ' || p[i] == '\t'))
			i++;
		if (i == len)
			break;
		start = i;
		caret = len;
		for (; i < len && p[i] != ' ' && p[i] != '\t'; i++)
			if (p[i] == '^')
				caret = i;
		*col = start + 1;
		if (caret == len) {
			caret = i;
			w = SH_W_UNIT;
		} else if (caret == start)
			return SH_EEMPTYTOK;
		else if (sh_weight_parse(p + caret + 1, i - caret - 1,
		    &w) != 0)
			return SH_EWEIGHT;
		if (total > SH_W_TOTAL_MAX - w)
			return SH_ERANGE;
		total += w;
		fn(ctx, sh_hash64(p + start, caret - start, 0), w, p + start,
		    caret - start);
	}
	return 0;
}

int
sh_toklist_put(FILE *out, const char *tok, size_t len, uint64_t w,
    int first)
{
	char num[24];
	size_t n = sh_weight_format(w, num);

	if ((!first && putc(' ', out) == EOF) ||
	    fwrite(tok, 1, len, out) != len || putc('^', out) == EOF ||
	    fwrite(num, 1, n, out) != n)
		return SH_EIO;
	return 0;
}

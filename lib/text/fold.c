#include "base/utf8.h"
#include "text/fold.h"

size_t
sh_fold_text(const char *text, size_t len, int simplify, uint32_t *out,
    int *bad)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	uint32_t cp, c, f[SH_UC_FOLD_MAX];
	size_t n = 0, last = 0;
	int i, nf;

	while (p < end) {
		p += sh_utf8_decode(p, (size_t)(end - p), &cp, bad);
		nf = sh_fold_cp(cp, simplify, f);
		for (i = 0; i < nf; i++) {
			switch (n > 0 ? sh_fold_join(out[last], f[i], &c) :
			    SH_FOLD_NEW) {
			case SH_FOLD_COMPOSE:
				n = last;
				out[n++] = c;
				break;
			case SH_FOLD_MARK:
				out[n++] = f[i];
				break;
			default:
				last = n;
				out[n++] = f[i];
			}
		}
	}
	return n;
}

#include "base/errors.h"
#include "base/grow.h"
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

int
sh_fold_chars(const char *text, size_t len, int simplify, void *outp,
    size_t *cap, size_t *np, int *bad)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	uint32_t **pp = outp, *out = *pp, cp, c, f[SH_UC_FOLD_MAX];
	size_t n = 0, last = 0, i, k;
	int j, nf;

	*np = 0;
	/* Folded and composed as sh_fold_text does, the code points of one
	 * character at a time, then those of the kept classes moved down. */
	while (p < end) {
		p += sh_utf8_decode(p, (size_t)(end - p), &cp, bad);
		if (*cap < n + SH_UC_FOLD_MAX) {
			if (sh_grow(pp, cap, n + SH_UC_FOLD_MAX,
			    sizeof(*out)) != 0)
				return SH_ENOMEM;
			out = *pp;
		}
		nf = sh_fold_cp(cp, simplify, f);
		for (j = 0; j < nf; j++) {
			switch (n > 0 ? sh_fold_join(out[last], f[j], &c) :
			    SH_FOLD_NEW) {
			case SH_FOLD_COMPOSE:
				n = last;
				out[n++] = c;
				break;
			case SH_FOLD_MARK:
				out[n++] = f[j];
				break;
			default:
				last = n;
				out[n++] = f[j];
			}
		}
	}
	for (i = k = 0; i < n; i++)
		if (sh_uc_class(out[i]) != SH_UC_SEP)
			out[k++] = out[i];
	*np = k;
	return 0;
}

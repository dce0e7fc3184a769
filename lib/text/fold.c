#include "base/errors.h"
#include "base/grow.h"
#include "base/utf8.h"
#include "text/fold.h"

/* Fold the character cp and join its code points to out[0..*n), whose
 * last base character is at *last; out has room for SH_UC_FOLD_MAX more. */
static void
fold_one(uint32_t cp, int simplify, uint32_t *out, size_t *n, size_t *last)
{
	uint32_t c, f[SH_UC_FOLD_MAX];
	int i, nf;

	nf = sh_fold_cp(cp, simplify, f);
	for (i = 0; i < nf; i++) {
		switch (*n > 0 ? sh_fold_join(out[*last], f[i], &c) :
		    SH_FOLD_NEW) {
		case SH_FOLD_COMPOSE:
			*n = *last;
			out[(*n)++] = c;
			break;
		case SH_FOLD_MARK:
			out[(*n)++] = f[i];
			break;
		default:
			*last = *n;
			out[(*n)++] = f[i];
		}
	}
}

size_t
sh_fold_text(const char *text, size_t len, int simplify, uint32_t *out,
    int *bad)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	uint32_t cp;
	size_t n = 0, last = 0;

	while (p < end) {
		p += sh_utf8_decode(p, (size_t)(end - p), &cp, bad);
		fold_one(cp, simplify, out, &n, &last);
	}
	return n;
}

int
sh_fold_chars(const char *text, size_t len, int simplify, void *outp,
    size_t *cap, size_t *np, int *bad)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	uint32_t **pp = outp, *out = *pp, cp;
	size_t n = 0, last = 0, i, k;

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
		fold_one(cp, simplify, out, &n, &last);
	}
	for (i = k = 0; i < n; i++)
		if (sh_uc_class(out[i]) != SH_UC_SEP)
			out[k++] = out[i];
	*np = k;
	return 0;
}

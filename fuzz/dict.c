/*
 * Fuzz target: the dictionary loader and the cut (feat/dict.h).  The
 * first byte of the input picks the options: bit 0 simplify, bits 1-7
 * the length of the pieces of a streamed cut, 1 to 128 code points; the
 * rest is the dictionary file, and its text, folded, is also the run to
 * cut.  A run cut in pieces (more != 0) must give the words of the run
 * cut whole, unless a piece had no place to end; the text is also
 * fingerprinted with the dictionary (sh-fp -d).
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "feat/dict.h"
#include "fp/fingerprint.h"
#include "text/fold.h"
#include "util.h"

struct cut {
	size_t *w;	/* start and length of each word, absolute */
	size_t n, cap, base;
};

static void
word(void *ctx, size_t start, size_t len)
{
	struct cut *c = ctx;
	size_t *nw;

	FZ_CHECK(len > 0);
	if (c->n + 2 > c->cap) {
		c->cap = c->cap ? 2 * c->cap : 64;
		if ((nw = realloc(c->w, c->cap * sizeof(*nw))) == NULL)
			abort();
		c->w = nw;
	}
	c->w[c->n++] = c->base + start;
	c->w[c->n++] = len;
}

/* Cut cp[0..n) whole, and in pieces of at most piece code points. */
static void
check_cut(const struct sh_dict *d, const uint32_t *cp, size_t n,
    size_t piece)
{
	struct sh_dictcut w = { 0 };
	struct cut whole = { 0 }, parts = { 0 };
	size_t pos = 0, m, i;
	long long k;
	int exact = 1;

	FZ_CHECK(sh_dict_cut(d, &w, cp, n, 0, word, &whole) == (long long)n);
	for (i = 0; i < whole.n; i += 2)
		FZ_CHECK(whole.w[i] == (i ? whole.w[i - 2] + whole.w[i - 1] :
		    0));
	FZ_CHECK(n == 0 || whole.w[whole.n - 2] + whole.w[whole.n - 1] == n);
	while (pos < n) {
		m = n - pos < piece ? n - pos : piece;
		parts.base = pos;
		k = sh_dict_cut(d, &w, cp + pos, m, pos + m < n, word, &parts);
		FZ_CHECK(k > 0 && (size_t)k <= m);
		if (pos + m < n && (size_t)k == m)
			exact = 0;	/* no place to end: any cut */
		pos += (size_t)k;
	}
	if (exact)
		FZ_CHECK(parts.n == whole.n && (n == 0 || memcmp(parts.w,
		    whole.w, whole.n * sizeof(*whole.w)) == 0));
	free(whole.w);
	free(parts.w);
	sh_dictcut_free(&w);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct sh_dict *d = NULL;
	unsigned opt = fz_byte(&data, &size);
	unsigned long long line, nlines = 0;
	const char *p = (const char *)data;
	uint32_t *cp;
	uint64_t total;
	sh_fpval fp;
	struct sh_fp *f;
	size_t n, i;
	FILE *in;
	int r, bad = 0;

	for (i = 0; i < size; i++)
		nlines += data[i] == '\n';
	nlines += size > 0 && data[size - 1] != '\n';
	in = fz_memfile(data, size);
	r = sh_dict_load(in, opt & 1, &d, &line);
	fclose(in);
	if (r != 0) {
		FZ_CHECK(d == NULL);
		FZ_CHECK(r == SH_EDICT || r == SH_EUTF8 || r == SH_ERANGE);
		FZ_CHECK(line >= 1 && line <= nlines);
		return 0;
	}
	FZ_CHECK(line == nlines && sh_dict_words(d) <= nlines);
	if ((cp = malloc((size + 1) * SH_UC_FOLD_MAX * sizeof(*cp))) == NULL)
		abort();
	n = sh_fold_text(p, size, opt & 1, cp, &bad);
	check_cut(d, cp, n, 1 + (opt >> 1));
	free(cp);
	o.tok.simplify = opt & 1;
	o.tok.dict = o.dict = d;
	if ((f = sh_fp_new(&o)) == NULL)
		abort();
	FZ_CHECK(sh_fp_text(f, p, size, &fp, &total, &bad) == 0);
	fz_keep(fp);
	sh_fp_free(f);
	sh_fpopt_free(&o);
	return 0;
}

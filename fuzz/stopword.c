/*
 * Fuzz target: stop-word lists (feat/stopword.h) and the tokenizer that
 * drops them (feat/tokenize.h).  The first byte of the input picks the
 * options: bit 0 simplify, bit 1 the built-in @en list too, bit 2 @zh,
 * bits 3-7 the n-gram and shingle sizes; the rest is the list file, and
 * also the text to cut.  No feature the tokenizer gives may be in the
 * set; sh_stop_add of the list without its comments must give the set
 * the file gave.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "feat/stopset.h"
#include "feat/stopword.h"
#include "feat/tokenize.h"
#include "util.h"

static void
feature(void *ctx, const char *tok, size_t len, uint64_t h)
{
	const struct sh_stop *s = ctx;

	FZ_CHECK(len > 0 && tok != NULL);
	FZ_CHECK(!sh_stop_has(s, h));
}

/* The list p[0..n) without its comments, into *out (malloc'd). */
static size_t
uncomment(const char *p, size_t n, char **out)
{
	const char *end = p + n, *nl, *hash;
	size_t len = 0;

	if ((*out = malloc(n + 1)) == NULL)
		abort();
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if ((hash = memchr(p, '#', (size_t)(nl - p))) == NULL)
			hash = nl;
		memcpy(*out + len, p, (size_t)(hash - p));
		len += (size_t)(hash - p);
		(*out)[len++] = '\n';
	}
	return len;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_tokopt to = { 0 };
	struct sh_stop *s, *s2;
	struct sh_tok *t;
	unsigned opt = fz_byte(&data, &size);
	unsigned long long line = 0, nlines = 0;
	const char *path;
	char *list;
	size_t len, i;
	int simplify = opt & 1, r, bad = 0;

	for (i = 0; i < size; i++)
		nlines += data[i] == '\n';
	nlines += size > 0 && data[size - 1] != '\n';
	if ((s = sh_stop_new()) == NULL || (s2 = sh_stop_new()) == NULL)
		abort();
	if (opt & 2)
		FZ_CHECK(sh_stop_load(s, "@en", simplify, &line) == 0);
	if (opt & 4)
		FZ_CHECK(sh_stop_load(s, "@zh", simplify, &line) == 0);
	path = fz_file("stop", data, size);
	r = sh_stop_load(s, path, simplify, &line);
	fz_unlink("stop");
	FZ_CHECK(r == 0 || r == SH_EUTF8);
	if (r == SH_EUTF8)
		FZ_CHECK(line >= 1 && line <= nlines);
	else
		FZ_CHECK(line == 0);
	if (r == 0 && !(opt & 6)) {
		len = uncomment((const char *)data, size, &list);
		FZ_CHECK(sh_stop_add(s2, list, len, simplify, &bad) == 0);
		FZ_CHECK(!bad && sh_stop_count(s2) == sh_stop_count(s));
		free(list);
	}
	to.ngram = 1 + (int)(opt >> 3 & 15);
	to.shingle = 1 + (int)(opt >> 7) * 2;
	to.simplify = simplify;
	to.stop = s;
	if ((t = sh_tok_new(&to)) == NULL)
		abort();
	FZ_CHECK(sh_tok_run(t, (const char *)data, size, feature, s,
	    &bad) >= 0);
	sh_tok_free(t);
	sh_stop_free(s);
	sh_stop_free(s2);
	return 0;
}

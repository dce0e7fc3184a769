/*
 * Fuzz target: token lists (feat/toklist.h) and their fingerprint
 * (sh_fp_tokens, sh_fp_each).  The input is one list.  A list that
 * parses is written back with sh_toklist_put and must parse again to the
 * same tokens and weights; sh_fp_tokens must agree with the parser, and
 * its fingerprint with the simhash computed here bit by bit.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "feat/toklist.h"
#include "feat/weight.h"
#include "fp/fingerprint.h"
#include "util.h"

struct tok {
	uint64_t hash, w;
	const char *p;
	size_t len;
};

struct list {
	struct tok *v;
	size_t n, cap;
	uint64_t total;
};

static void
collect(void *ctx, uint64_t hash, uint64_t w, const char *tok, size_t len)
{
	struct list *l = ctx;
	struct tok *nv;

	FZ_CHECK(len > 0 && hash == sh_hash64(tok, len, 0));
	FZ_CHECK(memchr(tok, ' ', len) == NULL &&
	    memchr(tok, '\t', len) == NULL);
	FZ_CHECK(w <= SH_W_MAX);
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 16;
		if ((nv = realloc(l->v, l->cap * sizeof(*nv))) == NULL)
			abort();
		l->v = nv;
	}
	l->v[l->n].hash = hash;
	l->v[l->n].w = w;
	l->v[l->n].p = tok;
	l->v[l->n].len = len;
	l->n++;
	l->total += w;
}

/* The list l written out and parsed again. */
static void
round_trip(const struct list *l)
{
	struct list again = { 0 };
	char *buf = NULL;
	size_t len = 0, col = 0, i;
	FILE *out;

	out = fz_sink(&buf, &len);
	for (i = 0; i < l->n; i++)
		FZ_CHECK(sh_toklist_put(out, l->v[i].p, l->v[i].len, l->v[i].w,
		    i == 0) == 0);
	fclose(out);
	FZ_CHECK(sh_toklist_parse(buf, len, collect, &again, &col) == 0);
	FZ_CHECK(again.n == l->n);
	for (i = 0; i < l->n; i++)
		FZ_CHECK(again.v[i].hash == l->v[i].hash &&
		    again.v[i].w == l->v[i].w);
	free(again.v);
	free(buf);
}

/* The simhash of l as simhash.h defines it, bit by bit. */
static sh_fpval
simhash(const struct list *l)
{
	uint64_t set;
	sh_fpval fp = 0;
	size_t i;
	int b;

	for (b = 0; b < 64; b++) {
		for (i = 0, set = 0; i < l->n; i++)
			set += l->v[i].hash >> b & 1 ? l->v[i].w : 0;
		if (2 * set > l->total)
			fp |= (sh_fpval)1 << b;
	}
	return fp;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct list l = { 0 }, each = { 0 };
	const char *p = (const char *)data;
	struct sh_fp *f;
	sh_fpval fp;
	uint64_t total;
	size_t col = 0, col2 = 0;
	int r, r2, bad = 0;

	r = sh_toklist_parse(p, size, collect, &l, &col);
	FZ_CHECK(r == 0 || r == SH_EWEIGHT || r == SH_EEMPTYTOK ||
	    r == SH_ERANGE);
	if (r != 0)
		FZ_CHECK(col >= 1 && col <= size);
	else
		round_trip(&l);
	if ((f = sh_fp_new(&o)) == NULL)
		abort();
	r2 = sh_fp_tokens(f, p, size, &fp, &total, &col2);
	FZ_CHECK(r2 == r && (r == 0 || col2 == col));
	if (r == 0)
		FZ_CHECK((total == 0) == (l.total == 0));
	if (r == 0 && total != 0)
		FZ_CHECK(fp == simhash(&l));
	r2 = sh_fp_each(f, p, size, 1, collect, &each, &bad, &col2);
	FZ_CHECK(r2 == r && each.n == l.n);
	fz_keep(fp);
	sh_fp_free(f);
	free(l.v);
	free(each.v);
	return 0;
}

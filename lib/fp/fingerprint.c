#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hmap.h"
#include "base/hash.h"
#include "base/num.h"
#include "feat/dict.h"
#include "feat/stopword.h"
#include "feat/toklist.h"
#include "feat/weight.h"
#include "fp/charsketch.h"
#include "fp/fingerprint.h"
#include "fp/minhash.h"
#include "fp/simhash.h"
#include "text/fold.h"

struct sh_fp {
	struct sh_fpopt o;
	struct sh_tok *tok;
	struct sh_bag *bag;	/* text kept: for sh_fp_features */
	struct sh_bag *set;	/* no text: the features of sh_fp_text */
	struct sh_hset seen;	/* binary weights: the features voted */
	struct sh_simhash acc;
	struct sh_minhash mh;	/* o.sketch: the sketch's bins */
	unsigned long long nfeat;	/* features of the last document */
	uint64_t *hv;		/* -D: feature hashes of the document */
	size_t nh, caph;
	int nomem;
	/* o.csketch: the characters and the sketch of the last text, its
	 * kind (0: none), and the work space of sh_charsketch. */
	uint32_t *ch;
	size_t cap_ch;
	uint64_t *cbuf;
	size_t cap_cbuf;
	struct sh_sketch csk;
	int ckind;
};

int
sh_fpopt_dict(struct sh_fpopt *o, const char *path, unsigned long long *line)
{
	struct sh_dict *d;
	FILE *fp;
	int r, e;

	*line = 0;
	if ((fp = fopen(path, "r")) == NULL)
		return SH_EIO;
	r = sh_dict_load(fp, o->tok.simplify, &d, line);
	e = errno;
	fclose(fp);
	errno = e;
	if (r != 0)
		return r;
	sh_dict_free(o->dict);
	o->tok.dict = o->dict = d;
	return 0;
}

int
sh_fpopt_stop(struct sh_fpopt *o, const char *name, unsigned long long *line)
{
	*line = 0;
	if (o->stop == NULL && (o->stop = sh_stop_new()) == NULL)
		return SH_ENOMEM;
	o->tok.stop = o->stop;
	return sh_stop_load(o->stop, name, o->tok.simplify, line);
}

int
sh_fpopt_idf(struct sh_fpopt *o, const char *path, unsigned long long *line)
{
	sh_idf_free(o->idf);
	return sh_idf_load(path, &o->idf, line);
}

void
sh_fpopt_free(struct sh_fpopt *o)
{
	sh_stop_free(o->stop);
	sh_idf_free(o->idf);
	sh_dict_free(o->dict);
	o->stop = NULL;
	o->idf = NULL;
	o->dict = NULL;
	o->tok.stop = NULL;
	o->tok.dict = NULL;
}

void
sh_fp_vector(int level)
{
	sh_tok_vector(level);
	sh_hash_vector(level >= 2);
	sh_simhash_vector(level >= 2);
}

struct sh_fp *
sh_fp_new(const struct sh_fpopt *o)
{
	struct sh_fp *f;

	if ((f = calloc(1, sizeof(*f))) == NULL)
		return NULL;
	f->o = *o;
	if ((f->tok = sh_tok_new(&f->o.tok)) == NULL ||
	    (f->bag = sh_bag_new(1)) == NULL ||
	    (f->set = sh_bag_new(0)) == NULL) {
		sh_fp_free(f);
		return NULL;
	}
	return f;
}

void
sh_fp_free(struct sh_fp *f)
{
	if (f == NULL)
		return;
	sh_tok_free(f->tok);
	sh_bag_free(f->bag);
	sh_bag_free(f->set);
	sh_hset_free(&f->seen);
	free(f->hv);
	free(f->ch);
	free(f->cbuf);
	free(f);
}

/* Term frequency: every occurrence votes with weight 1 (one unit of tf). */
static void
add_tf(void *ctx, const uint64_t *h, size_t n)
{
	struct sh_fp *f = ctx;

	sh_simhash_add_many(&f->acc, h, n);
	if (f->o.sketch)
		sh_minhash_add_many(&f->mh, h, n);
}

/* With IDF weights the hashes are kept, to be looked up together. */
static void
add_hash(void *ctx, const uint64_t *h, size_t n)
{
	struct sh_fp *f = ctx;
	uint64_t *p;
	size_t cap;

	if (f->caph - f->nh < n) {
		for (cap = f->caph ? 2 * f->caph : 1024; cap - f->nh < n;
		    cap *= 2)
			;
		if ((p = realloc(f->hv, cap * sizeof(*p))) == NULL) {
			f->nomem = 1;
			return;
		}
		f->hv = p;
		f->caph = cap;
	}
	memcpy(f->hv + f->nh, h, n * sizeof(*h));
	f->nh += n;
}

/*
 * Term frequency times idf: idf units per occurrence sum to tf idf.  The
 * lookups of a batch are independent, so their cache misses overlap
 * instead of coming one per feature between tokenizing steps.
 */
static int
add_tfidf(struct sh_fp *f, const char *p, size_t len, int *bad)
{
	uint64_t w[64];
	size_t i, j, n;

	f->nh = 0;
	f->nomem = 0;
	if (sh_tok_hashes(f->tok, p, len, add_hash, f, bad) < 0 || f->nomem)
		return SH_ENOMEM;
	for (i = 0; i < f->nh; i += n) {
		n = f->nh - i < 64 ? f->nh - i : 64;
		for (j = 0; j < n; j++)
			sh_idf_prefetch(f->o.idf, f->hv[i + j]);
		for (j = 0; j < n; j++)
			w[j] = sh_idf_get(f->o.idf, f->hv[i + j]);
		for (j = 0; j < n; j++)
			sh_simhash_addw(&f->acc, f->hv[i + j], w[j]);
		for (j = 0; j < n && f->o.sketch; j++)
			if (w[j] != 0)
				sh_minhash_add(&f->mh, f->hv[i + j]);
	}
	return 0;
}

/* Binary weights without IDF: each distinct feature votes once, when it
 * first comes. */
static void
add_once(void *ctx, const uint64_t *h, size_t n)
{
	struct sh_fp *f = ctx;
	uint64_t fresh[64];
	size_t i, k;

	if (sh_hset_reserve(&f->seen, n) != 0) {
		f->nomem = 1;
		return;
	}
	for (; n > 0; h += i, n -= i) {
		i = n < 64 ? n : 64;
		k = sh_hset_add_many(&f->seen, h, i, fresh);
		sh_simhash_add_many(&f->acc, fresh, k);
		if (f->o.sketch)
			sh_minhash_add_many(&f->mh, fresh, k);
	}
}

static int
add_binary(struct sh_fp *f, const char *p, size_t len, int *bad)
{
	long long n;

	sh_hset_clear(&f->seen);
	f->nomem = 0;
	if ((n = sh_tok_hashes(f->tok, p, len, add_once, f, bad)) < 0 ||
	    f->nomem)
		return SH_ENOMEM;
	f->nfeat = (unsigned long long)n;
	return 0;
}

/* A feature of weight w votes; one of weight above 0 joins the sketch's
 * set. */
static void
add_weighed(struct sh_fp *f, uint64_t h, uint64_t w)
{
	sh_simhash_addw(&f->acc, h, w);
	if (f->o.sketch && w != 0)
		sh_minhash_add(&f->mh, h);
}

struct collecting {
	struct sh_fp *f;
	struct sh_bag *bag;
};

static void
add_bag(void *ctx, const char *tok, size_t len, uint64_t h)
{
	struct collecting *c = ctx;

	if (sh_bag_add(c->bag, h, tok, len) != 0)
		c->f->nomem = 1;
}

/* The features of text p[0..len), counted, into bag. */
static int
collect(struct sh_fp *f, struct sh_bag *bag, const char *p, size_t len,
    int *bad)
{
	struct collecting c = { f, bag };
	long long n;

	sh_bag_clear(bag);
	f->nomem = 0;
	if ((n = sh_tok_run(f->tok, p, len, add_bag, &c, bad)) < 0 ||
	    f->nomem)
		return SH_ENOMEM;
	f->nfeat = (unsigned long long)n;
	return 0;
}

/* o.csketch: the sketch of the characters of text p[0..len). */
static int
csketch(struct sh_fp *f, const char *p, size_t len, int *bad)
{
	size_t n;
	int r;

	f->ckind = 0;
	if (sh_fold_chars(p, len, f->o.tok.simplify, &f->ch, &f->cap_ch, &n,
	    bad) != 0 || (r = sh_charsketch(f->ch, n, &f->cbuf, &f->cap_cbuf,
	    &f->csk, &f->ckind)) < 0)
		return SH_ENOMEM;
	if (r == 0)
		f->ckind = 0;
	return 0;
}

int
sh_fp_text(struct sh_fp *f, const char *p, size_t len, sh_fpval *fp,
    uint64_t *total, int *bad)
{
	const struct sh_bagent *e;
	size_t i, n;
	long long r;

	sh_simhash_init(&f->acc);
	if (f->o.sketch)
		sh_minhash_init(&f->mh);
	if (f->o.weight == SH_W_TF) {
		/* Summing tf votes of 1 is summing tf once: no bag needed.
		 * Units differ from the bag path by the constant SH_W_UNIT,
		 * which leaves every sign, and so the fingerprint, alone.
		 * With IDF, tf idf is exact: SH_W_UNIT tf idf / SH_W_UNIT. */
		if (f->o.idf != NULL) {
			if ((r = add_tfidf(f, p, len, bad)) != 0)
				return (int)r;
			r = (long long)f->nh;
		} else if ((r = sh_tok_hashes(f->tok, p, len, add_tf, f, bad)) < 0)
			return SH_ENOMEM;
		f->nfeat = (unsigned long long)r;
	} else if (f->o.weight == SH_W_BINARY && f->o.idf == NULL) {
		/* Binary weights without IDF are all alike: votes of 1 give
		 * the same signs, and need no bag. */
		if ((r = add_binary(f, p, len, bad)) != 0)
			return (int)r;
	} else {
		if ((r = collect(f, f->set, p, len, bad)) != 0)
			return (int)r;
		n = sh_bag_entries(f->set, &e);
		for (i = 0; i < n; i++)
			add_weighed(f, e[i].hash, sh_fp_weight(f, &e[i]));
	}
	*total = sh_simhash_total(&f->acc);
	*fp = *total ? sh_simhash_final(&f->acc) : 0;
	return f->o.csketch ? csketch(f, p, len, bad) : 0;
}

static void
add_listed(void *ctx, uint64_t h, uint64_t w, const char *tok, size_t len)
{
	struct sh_fp *f = ctx;

	(void)tok;
	(void)len;
	add_weighed(f, h, w);
	f->nfeat++;
}

int
sh_fp_tokens(struct sh_fp *f, const char *p, size_t len, sh_fpval *fp,
    uint64_t *total, size_t *col)
{
	int r;

	sh_simhash_init(&f->acc);
	if (f->o.sketch)
		sh_minhash_init(&f->mh);
	f->nfeat = 0;
	f->ckind = 0;
	if ((r = sh_toklist_parse(p, len, add_listed, f, col)) != 0)
		return r;
	*total = sh_simhash_total(&f->acc);
	*fp = *total ? sh_simhash_final(&f->acc) : 0;
	return 0;
}

int
sh_fp_sketch(const struct sh_fp *f, struct sh_sketch *s)
{
	return sh_minhash_final(&f->mh, s);
}

int
sh_fp_csketch(const struct sh_fp *f, struct sh_sketch *s, int *kind)
{
	if (f->ckind == 0)
		return 0;
	*s = f->csk;
	*kind = f->ckind;
	return 1;
}

int
sh_fp_features(struct sh_fp *f, const char *p, size_t len,
    const struct sh_bag **bag, int *bad)
{
	*bag = f->bag;
	return collect(f, f->bag, p, len, bad);
}

unsigned long long
sh_fp_count(const struct sh_fp *f)
{
	return f->nfeat;
}

uint64_t
sh_fp_weigh(const struct sh_fp *f, uint64_t h, uint64_t count)
{
	uint64_t w = sh_weight(f->o.weight, count);

	return f->o.idf ? sh_idf_scale(w, sh_idf_get(f->o.idf, h)) : w;
}

int
sh_fp_simplify(const struct sh_fp *f)
{
	return f->o.tok.simplify;
}

uint64_t
sh_fp_flat(const struct sh_fp *f)
{
	return f->o.weight == SH_W_BINARY && f->o.idf == NULL ?
	    sh_weight(SH_W_BINARY, 1) : 0;
}

uint64_t
sh_fp_weight(const struct sh_fp *f, const struct sh_bagent *e)
{
	return sh_fp_weigh(f, e->hash, e->count);
}

int
sh_fp_hashes(struct sh_fp *f, const char *p, size_t len, sh_tok_hash_fn *fn,
    void *ctx, int *bad)
{
	long long n;

	if ((n = sh_tok_hashes(f->tok, p, len, fn, ctx, bad)) < 0)
		return SH_ENOMEM;
	f->nfeat = (unsigned long long)n;
	return 0;
}

int
sh_fp_each(struct sh_fp *f, const char *p, size_t len, int tokens,
    sh_wfeat_fn *fn, void *ctx, int *bad, size_t *col)
{
	const struct sh_bagent *e;
	const char *text;
	size_t i, n;
	int r;

	if (tokens)
		return sh_toklist_parse(p, len, fn, ctx, col);
	if ((r = collect(f, f->bag, p, len, bad)) != 0)
		return r;
	n = sh_bag_entries(f->bag, &e);
	text = sh_bag_text(f->bag);
	for (i = 0; i < n; i++)
		fn(ctx, e[i].hash, sh_fp_weight(f, &e[i]), text + e[i].off,
		    e[i].len);
	return 0;
}

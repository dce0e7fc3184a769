#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "near/bands.h"
#include "near/fpline.h"
#include "verify/locate.h"
#include "verify/vfilter.h"

/* A candidate of a line: its ID and fingerprint; for an index entry, its
 * hit (else NULL). */
struct cand {
	const char *id;
	size_t len;
	sh_fpval fp;
	const struct sh_hit *hit;
};

/*
 * The one place where a candidate's document is found: with ahead, queue
 * the documents of the line q and of candidate c to be cut ahead on the
 * verifier's threads (c NULL: the line's alone); else verify the pair.
 * The line's is looked up by its ID in the verifier's documents; so is
 * an index candidate's, unless the index keeps its location: then it is
 * read there under a name of its own (locate.h), never taken for a
 * document given of its ID.  Return 1 when they match, 0 when not (or
 * reported to mt->bad), or an error of the index (f->where names the
 * segment) or SH_ENOMEM.
 */
static int
cand_doc(struct sh_vfilter *f, const struct cand *q, const struct cand *c,
    int ahead)
{
	const char *id[2], *vid[2];
	size_t len[2], vlen[2];
	char name[SH_DOCMAP_NAME];
	sh_fpval fp[2];
	long sim;
	int e = 0;

	if (c != NULL && c->hit != NULL && (e = sh_locate_hit(f->ix, c->hit,
	    c->id, c->len, sh_verify_map(f->mt->vf), NULL, name,
	    f->where)) < 0)
		return e;
	vid[0] = id[0] = q->id;
	vlen[0] = len[0] = q->len;
	if (c != NULL) {
		vid[1] = e == 1 ? name : c->id;
		vlen[1] = e == 1 ? SH_DOCMAP_NAME - 1 : c->len;
	}
	if (ahead) {
		sh_verify_queue(f->mt->vf, vid[c != NULL], vlen[c != NULL]);
		return 0;
	}
	fp[0] = q->fp;
	id[1] = c->id;
	len[1] = c->len;
	fp[1] = c->fp;
	return sh_match_ids(f->mt, vid, vlen, id, len, fp, &sim);
}

void
sh_vfilter_init(struct sh_vfilter *f, struct sh_matcher *mt,
    struct sh_index *ix, sh_line_fn *fn, void *ctx)
{
	memset(f, 0, sizeof(*f));
	f->mt = mt;
	f->ix = ix;
	f->fn = fn;
	f->ctx = ctx;
	sh_fplist_init(&f->q);
	sh_fplist_init(&f->kept);
}

void
sh_vfilter_free(struct sh_vfilter *f)
{
	sh_fplist_free(&f->q);
	sh_fplist_free(&f->kept);
	sh_hmap_free(&f->last);
	free(f->keys);
	free(f->hits.v);
	free(f->at);
	free(f->next);
	free(f->seen);
	memset(f, 0, sizeof(*f));
}

/* The query of line i of the batch into *q. */
static void
query(const struct sh_vfilter *f, size_t i, struct cand *q)
{
	const char *line;
	size_t len;

	line = sh_fplist_id(&f->q, i, &len);
	(void)sh_fpline_parse(line, len, &q->fp, &q->id, &q->len);
	q->hit = NULL;
}

/* sh_index_bands_each: where line i's hits lie in f->hits, the
 * locations of its hits handed to the verifier's map, to be read ahead,
 * and with several threads the documents of the line and of each ID of
 * each hit queued to be cut ahead. */
static int
collect(void *ctx, size_t i, const struct sh_hits *h)
{
	struct sh_vfilter *f = ctx;
	struct cand q, c;
	const char *p;
	size_t j, plen;
	int e;

	f->at[2 * i] = h->n > 0 ? (size_t)(h->v - f->hits.v) : 0;
	f->at[2 * i + 1] = h->n;
	if (h->n == 0)
		return 0;
	query(f, i, &q);
	cand_doc(f, &q, NULL, 1);
	for (j = 0; j < h->n; j++) {
		if ((e = sh_index_ids(f->ix, &h->v[j], &p, &plen,
		    f->where)) != 0)
			return e;
		c.hit = &h->v[j];
		c.fp = h->v[j].fp;
		while (sh_ids_next(&p, &plen, &c.id, &c.len))
			if ((e = cand_doc(f, &q, &c, 1)) != 0)
				return e;
	}
	return 0;
}

/* Whether line q matches an index candidate among its hits h[0..n):
 * 1, 0, or an error of the index. */
static int
indexed(struct sh_vfilter *f, const struct cand *q, const struct sh_hit *h,
    size_t n)
{
	struct cand c;
	const char *p;
	size_t j, plen;
	int e;

	for (j = 0; j < n; j++) {
		if ((e = sh_index_ids(f->ix, &h[j], &p, &plen, f->where)) != 0)
			return e;
		c.hit = &h[j];
		c.fp = h[j].fp;
		while (sh_ids_next(&p, &plen, &c.id, &c.len))
			if ((e = cand_doc(f, q, &c, 0)) != 0)
				return e;
	}
	return 0;
}

/* Whether line q, of band keys key, matches a line kept before it that
 * agrees with it in a band: each asked once, in input order of bands
 * then of lines, latest first. */
static int
before(struct sh_vfilter *f, const struct cand *q, const uint64_t *key)
{
	struct cand c;
	uint32_t v;
	size_t j;
	int b = f->ix->bands, band;

	c.hit = NULL;
	for (band = 0; band < b; band++) {
		if (!sh_hmap_get(&f->last, key[band], &v))
			continue;
		for (j = v; j != 0; j = f->next[(j - 1) * (size_t)b + band]) {
			if (f->seen[j - 1] == f->nlines + 1)
				continue;
			f->seen[j - 1] = f->nlines + 1;
			c.fp = f->kept.fp[j - 1];
			c.id = sh_fplist_id(&f->kept, j - 1, &c.len);
			if (cand_doc(f, q, &c, 0))
				return 1;
		}
	}
	return 0;
}

/* Keep line q, of band keys key: the candidate of the lines after it. */
static int
keep(struct sh_vfilter *f, const struct cand *q, const uint64_t *key)
{
	size_t n = f->kept.n, b = (size_t)f->ix->bands, band;
	uint32_t v;

	if (n >= UINT32_MAX - 1)
		return SH_ERANGE;
	if (sh_grow(&f->next, &f->nextcap, (n + 1) * b, sizeof(*f->next)) != 0 ||
	    sh_grow(&f->seen, &f->seencap, n + 1, sizeof(*f->seen)) != 0 ||
	    sh_hmap_reserve(&f->last, f->last.n + b) != 0 ||
	    sh_fplist_add(&f->kept, q->fp, q->id, q->len) != 0)
		return SH_ENOMEM;
	f->seen[n] = 0;
	for (band = 0; band < b; band++) {
		f->next[n * b + band] = sh_hmap_get(&f->last, key[band], &v) ?
		    v : 0;
		(void)sh_hmap_put(&f->last, key[band], (uint32_t)(n + 1));
	}
	return 0;
}

int
sh_vfilter_flush(struct sh_vfilter *f, char *where)
{
	struct cand q;
	const char *line;
	size_t i, len, b = (size_t)f->ix->bands;
	int e, r;

	*where = '\0';
	if (f->q.n == 0)
		return 0;
	f->where = where;
	if (sh_grow(&f->at, &f->atcap, 2 * f->q.n, sizeof(*f->at)) != 0)
		return SH_ENOMEM;
	f->hits.n = 0;
	e = sh_index_bands_each(f->ix, f->q.fp, f->keys, f->q.n, &f->hits,
	    collect, f, where);
	sh_docmap_ahead(sh_verify_map(f->mt->vf));
	sh_verify_ahead(f->mt->vf);
	for (i = 0; e == 0 && i < f->q.n; i++, f->nlines++) {
		query(f, i, &q);
		if ((r = indexed(f, &q, f->hits.v + f->at[2 * i],
		    f->at[2 * i + 1])) == 0)
			r = before(f, &q, f->keys + i * b);
		if (r != 0) {
			e = r < 0 ? r : 0;
			continue;
		}
		if ((e = keep(f, &q, f->keys + i * b)) != 0)
			*where = '\0';
		else {
			line = sh_fplist_id(&f->q, i, &len);
			f->fn(f->ctx, line, len);
		}
	}
	sh_fplist_clear(&f->q);
	return e;
}

int
sh_vfilter_add(struct sh_vfilter *f, sh_fpval fp, const char *line,
    size_t len, char *where)
{
	struct sh_sketch sk;
	const char *id;
	size_t idlen, b = (size_t)f->ix->bands;
	int e;

	*where = '\0';
	if ((e = sh_fpline_parse(line, len, &fp, &id, &idlen)) != 0 ||
	    (e = sh_fpline_sketch(line, len, id, idlen, &sk)) != 0)
		return e;
	if (sh_grow(&f->keys, &f->keycap, (f->q.n + 1) * b,
	    sizeof(*f->keys)) != 0)
		return SH_ENOMEM;
	sh_bands_keys(&(struct sh_bandplan){ f->ix->bands, f->ix->rows }, &sk,
	    f->keys + f->q.n * b);
	if (sh_fplist_add(&f->q, fp, line, len) != 0)
		return SH_ENOMEM;
	return f->q.n == SH_VFILTER_BATCH ? sh_vfilter_flush(f, where) : 0;
}

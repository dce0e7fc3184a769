#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hmap.h"
#include "near/bands.h"
#include "near/cluster.h"
#include "near/fpline.h"
#include "near/model.h"
#include "near/pairline.h"
#include "verify/locate.h"
#include "verify/match.h"

/*
 * The verification's answer e for the pair id, len (which, col: where
 * it failed): 1 for a match, 0 for none or a pair reported as bad, or a
 * fatal error (which < 0: of the set).
 */
static int
judged(struct sh_matcher *mt, int e, uint32_t sim, const char *const id[2],
    const size_t len[2], int which, size_t col, long *out)
{
	sh_progress(mt->pg, "pairs verified", ++mt->nverified, 0);
	if (e != 0 && which < 0)
		return e;
	if (e != 0) {
		mt->bad(mt->ctx, e, id[which], len[which], col);
		return 0;
	}
	*out = sim;
	mt->nmatched += sim >= mt->min;
	return sim >= mt->min;
}

int
sh_match_pair(struct sh_matcher *mt, struct sh_fpset *s, uint32_t a,
    uint32_t b, struct sh_match *m)
{
	uint32_t sim;
	size_t col;
	int e, which;

	m->sim = -1;
	m->file = NULL;
	if (mt->vf == NULL) {
		if ((e = sh_fpset_ids(s, a, b, m->id, m->len)) != 0)
			return e;
		return 1;
	}
	e = sh_verify_entries(mt->vf, s, a, b, &sim, m->id, m->len, &which,
	    &col);
	return judged(mt, e, sim, m->id, m->len, which, col, &m->sim);
}

int
sh_match_ids(struct sh_matcher *mt, const char *const vid[2],
    const size_t vlen[2], const char *const id[2], const size_t len[2],
    const sh_fpval fp[2], long *sim)
{
	uint32_t s;
	size_t col;
	int e, which;

	*sim = -1;
	e = sh_verify_ids(mt->vf, vid, vlen, fp, &s, &which, &col);
	return judged(mt, e, s, id, len, which, col, sim);
}

/* Pairs of a set read ahead of their verification, for the verifier to
 * cut their documents on its threads first (sh_verify_ahead). */
#define AHEAD SH_MATCH_AHEAD

struct batch {
	uint32_t e[2 * AHEAD];	/* pair i is e[2 i], e[2 i + 1] */
	int dist[AHEAD];
	size_t n, i;		/* pairs read; the next one's place */
	int end;		/* sh_fpset_next's last answer */
};

void
sh_match_ahead(struct sh_verify *vf, struct sh_fpset *s, const uint32_t *e,
    size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sh_verify_queue_entry(vf, s, e[i]);
	sh_verify_ahead(vf);
}

/* The next pair of s into a, b and dist, from the batch q (end 1 and
 * no pair at the start), read when used up: 1, or what sh_fpset_next
 * gave after the pairs before it. */
static int
batch_next(struct sh_matcher *mt, struct sh_fpset *s, struct batch *q,
    uint32_t *a, uint32_t *b, int *dist)
{
	if (q->i == q->n) {
		if (q->end <= 0)
			return q->end;
		for (q->n = q->i = 0; q->n < AHEAD &&
		    (q->end = sh_fpset_next(s, &q->e[2 * q->n],
		    &q->e[2 * q->n + 1], &q->dist[q->n])) > 0; q->n++)
			;
		if (q->n == 0)
			return q->end;
		if (mt->vf != NULL) {
			sh_match_ahead(mt->vf, s, q->e, 2 * q->n);
			sh_verify_pairs(mt->vf, s, q->e, q->n);
		}
	}
	*a = q->e[2 * q->i];
	*b = q->e[2 * q->i + 1];
	*dist = q->dist[q->i++];
	return 1;
}

/* A new batch, or NULL when out of memory. */
static struct batch *
batch_new(void)
{
	struct batch *q;

	if ((q = malloc(sizeof(*q))) != NULL) {
		q->n = q->i = 0;
		q->end = 1;
	}
	return q;
}

int
sh_match_clusters(struct sh_matcher *mt, struct sh_fpset *s, uint32_t *rep)
{
	struct sh_match m;
	struct batch *q;
	uint32_t a, b;
	int e, r = 1;

	if ((q = batch_new()) == NULL)
		return SH_ENOMEM;
	sh_cluster_start(sh_fpset_n(s), rep);
	while ((e = batch_next(mt, s, q, &a, &b, &m.dist)) > 0 &&
	    (r = mt->vf == NULL ? 1 : sh_match_pair(mt, s, a, b, &m)) >= 0)
		if (r > 0)
			sh_cluster_union(rep, a, b);
	sh_cluster_finish(sh_fpset_n(s), rep);
	free(q);
	return r < 0 ? r : e;
}

/* The band keys of ix from the sketch of line p[0..len). */
static int
line_keys(const struct sh_index *ix, const char *p, size_t len,
    uint64_t *key)
{
	struct sh_sketch sk;
	const char *id;
	size_t idlen;
	sh_fpval fp;
	int e;

	if ((e = sh_fpline_parse(p, len, &fp, &id, &idlen)) != 0 ||
	    (e = sh_fpline_sketch(p, len, id, idlen, &sk)) != 0)
		return e;
	sh_bands_keys(&(struct sh_bandplan){ ix->bands, ix->rows }, &sk, key);
	return 0;
}

long long
sh_match_write(struct sh_matcher *mt, struct sh_fpset *s, int clusters,
    FILE *out)
{
	struct sh_match m;
	struct batch *q;
	uint32_t *rep, a, b;
	size_t n = sh_fpset_n(s);
	long long found = 0;
	int e;

	if (!clusters) {
		if ((q = batch_new()) == NULL)
			return SH_ENOMEM;
		while ((e = batch_next(mt, s, q, &a, &b, &m.dist)) > 0) {
			if ((e = sh_match_pair(mt, s, a, b, &m)) < 0)
				break;
			if (e > 0 && sh_pairline_write(out, m.id[0], m.len[0],
			    m.id[1], m.len[1], m.dist, m.sim, NULL) != 0) {
				e = SH_EIO;
				break;
			}
			found += e;
		}
		free(q);
		return e < 0 ? e : found;
	}
	if ((rep = malloc(n * sizeof(*rep) + 1)) == NULL)
		return SH_ENOMEM;
	if ((e = sh_match_clusters(mt, s, rep)) == 0)
		e = sh_match_write_clusters(s, rep, out);
	free(rep);
	return e;
}

int
sh_match_write_clusters(struct sh_fpset *s, const uint32_t *rep, FILE *out)
{
	const char *id[2];
	size_t i, n = sh_fpset_n(s), len[2];
	int e = 0;

	for (i = 0; e == 0 && i < n; i++)
		if ((e = sh_fpset_ids(s, rep[i], i, id, len)) == 0 &&
		    sh_pairline_write(out, id[0], len[0], id[1], len[1], -1,
		    -1, NULL) != 0)
			e = SH_EIO;
	return e;
}

int
sh_match_write_kept(struct sh_linestore *lines, const uint8_t *kept,
    FILE *out)
{
	const char *p;
	size_t i, len;
	int e;

	for (i = 0; i < sh_linestore_n(lines); i++)
		if (kept[i]) {
			if ((e = sh_linestore_get(lines, i, &p, &len)) != 0)
				return e;
			if (fwrite(p, 1, len, out) != len ||
			    putc('\n', out) == EOF)
				return SH_EIO;
		}
	return 0;
}

void
sh_hitmatch_start(struct sh_hitmatch *w, struct sh_index *ix,
    const struct sh_hits *h, const char *id, size_t len, sh_fpval fp)
{
	w->ix = ix;
	w->h = h;
	w->id[0] = id;
	w->len[0] = len;
	w->fp[0] = fp;
	w->i = 0;
	w->p = NULL;
	w->plen = 0;
}

int
sh_hitmatch_next(struct sh_matcher *mt, struct sh_hitmatch *w,
    struct sh_match *m, char *where)
{
	const char *vid[2];
	size_t vlen[2];
	int e;

	for (;;) {
		while (w->p == NULL || !sh_ids_next(&w->p, &w->plen,
		    &w->id[1], &w->len[1])) {
			if (w->i == w->h->n)
				return 0;
			if ((e = sh_index_ids(w->ix, &w->h->v[w->i], &w->p,
			    &w->plen, where)) != 0)
				return e;
			w->fp[1] = w->h->v[w->i++].fp;
			w->hit = &w->h->v[w->i - 1];
		}
		m->id[0] = w->id[0];
		m->len[0] = w->len[0];
		m->id[1] = w->id[1];
		m->len[1] = w->len[1];
		m->dist = w->h->v[w->i - 1].dist;
		m->sim = -1;
		/* The hit's file, where the index keeps it; with documents,
		 * the hit's read there, under its name. */
		if ((e = sh_locate_hit(w->ix, w->hit, w->id[1], w->len[1],
		    mt->vf != NULL ? sh_verify_map(mt->vf) : NULL, &m->file,
		    w->name, where)) < 0)
			return e;
		if (mt->vf == NULL)
			return 1;
		vid[0] = w->id[0];
		vlen[0] = w->len[0];
		vid[1] = e == 1 ? w->name : w->id[1];
		vlen[1] = e == 1 ? SH_DOCMAP_NAME - 1 : w->len[1];
		if ((e = sh_match_ids(mt, vid, vlen, w->id, w->len, w->fp,
		    &m->sim)) != 0)
			return e;
	}
}

/* sh_index_bands_each's callback: the hits stay where they are. */
static int
keep_hits(void *ctx, size_t i, const struct sh_hits *h)
{
	(void)ctx;
	(void)i;
	(void)h;
	return 0;
}

/*
 * Whether query fp, of the input line line[0..linelen), has a hit in the
 * index of lk: within k, or for band tables agreeing in a band by the
 * line's sketch.  Return 1 or 0, or SH_ENOMEM, an error of the line's
 * sketch (lk->where empty) or SH_ECORRUPT (lk->where names the segment).
 */
static int
has_hit(const struct sh_ixlook *lk, sh_fpval fp, const char *line,
    size_t linelen)
{
	uint64_t key[SH_SK_K];
	int e;

	lk->hits->n = 0;
	if (lk->ix->bands) {
		if ((e = line_keys(lk->ix, line, linelen, key)) != 0) {
			*lk->where = '\0';
			return e;
		}
		e = sh_index_bands_each(lk->ix, &fp, key, 1, lk->hits,
		    keep_hits, NULL, lk->where);
	} else
		e = sh_index_search(lk->ix, fp, lk->k, lk->hits, lk->where);
	return e != 0 ? e : lk->hits->n > 0;
}

int
sh_match_distance(int k, int threshold, uint32_t minsim,
    const struct sh_index *ix)
{
	if (ix != NULL && ix->bands)
		return k >= 0 ? SH_EKIND : threshold && minsim < ix->t ?
		    SH_EBELOW : SH_INDEX_K;
	if (k >= 0)
		return k;
	if (threshold)
		return sh_model_search(minsim);
	return ix != NULL ? ix->k : SH_INDEX_K;
}

void
sh_ixqueue_init(struct sh_ixqueue *q, struct sh_matcher *mt,
    struct sh_index *ix, int k, sh_match_fn *fn, void *ctx)
{
	memset(q, 0, sizeof(*q));
	q->mt = mt;
	q->ix = ix;
	q->k = k;
	q->fn = fn;
	q->ctx = ctx;
	q->batch = SH_IXQUEUE_FIRST;
	sh_fplist_init(&q->q);
}

void
sh_ixqueue_free(struct sh_ixqueue *q)
{
	free(q->keys);
	sh_hmap_free(&q->seen);
	sh_fplist_free(&q->q);
	free(q->hits.v);
	free(q->at);
	memset(q, 0, sizeof(*q));
}

/* The batch's queries searched, fn told the hits of each in turn. */
static int
search(struct sh_ixqueue *q, sh_index_fn *fn, char *where)
{
	if (q->ix->bands)
		return sh_index_bands_each(q->ix, q->q.fp, q->keys, q->q.n,
		    &q->hits, fn, q, where);
	return sh_index_search_each(q->ix, q->q.fp, q->q.n, q->k, &q->hits,
	    fn, q, where);
}

/* sh_index_search_each: the matches of query i of the batch. */
static int
answer(void *ctx, size_t i, const struct sh_hits *h)
{
	struct sh_ixqueue *q = ctx;
	struct sh_hitmatch w;
	struct sh_match m;
	const char *id;
	size_t len;
	int e;

	id = sh_fplist_id(&q->q, i, &len);
	sh_hitmatch_start(&w, q->ix, h, id, len, q->q.fp[i]);
	while ((e = sh_hitmatch_next(q->mt, &w, &m, q->where)) > 0)
		q->fn(q->ctx, &m);
	return e;
}

/* sh_index_search_each, the first pass over a batch whose documents are
 * cut ahead: where query i's hits lie in q->hits, and the documents of
 * the query and of each ID of each hit queued. */
static int
collect(void *ctx, size_t i, const struct sh_hits *h)
{
	struct sh_ixqueue *q = ctx;
	const char *id, *p;
	char name[SH_DOCMAP_NAME];
	size_t j, len, plen;
	int e;

	q->at[2 * i] = h->n > 0 ? (size_t)(h->v - q->hits.v) : 0;
	q->at[2 * i + 1] = h->n;
	if (h->n == 0)
		return 0;
	id = sh_fplist_id(&q->q, i, &len);
	sh_verify_queue(q->mt->vf, id, len);
	for (j = 0; j < h->n; j++) {
		if ((e = sh_index_ids(q->ix, &h->v[j], &p, &plen,
		    q->where)) != 0)
			return e;
		while (sh_ids_next(&p, &plen, &id, &len)) {
			if ((e = sh_locate_hit(q->ix, &h->v[j], id, len,
			    sh_verify_map(q->mt->vf), NULL, name,
			    q->where)) < 0)
				return e;
			if (e == 1)
				sh_verify_queue(q->mt->vf, name,
				    SH_DOCMAP_NAME - 1);
			else
				sh_verify_queue(q->mt->vf, id, len);
		}
	}
	return 0;
}

/* The batch's hits, of all its queries (query i's the hits of
 * batch_hits), their located documents read ahead (text/docmap.h:
 * sh_docmap_ahead) and every document cut ahead on the verifier's
 * threads. */
static int
gather(struct sh_ixqueue *q, char *where)
{
	int e;

	if (sh_grow(&q->at, &q->atcap, 2 * q->q.n, sizeof(*q->at)) != 0)
		return SH_ENOMEM;
	e = search(q, collect, where);
	sh_docmap_ahead(sh_verify_map(q->mt->vf));
	sh_verify_ahead(q->mt->vf);
	return e;
}

/* The hits of query i of the batch gathered, into *h. */
static void
batch_hits(const struct sh_ixqueue *q, size_t i, struct sh_hits *h)
{
	h->n = h->cap = q->at[2 * i + 1];
	h->v = h->n > 0 ? q->hits.v + q->at[2 * i] : NULL;
}

/* The batch's verified matches: its hits gathered, then the matches of
 * each query in order. */
static int
answer_ahead(struct sh_ixqueue *q, char *where)
{
	struct sh_hits one;
	size_t i;
	int e;

	e = gather(q, where);
	for (i = 0; e == 0 && i < q->q.n; i++) {
		batch_hits(q, i, &one);
		e = answer(q, i, &one);
	}
	return e;
}

/* The size of the batch after one of q->q.n queries: as many queries
 * as hold about SH_IXQUEUE_HITS hits at its rate, 4 times as many at
 * most, when it was full. */
static void
next_batch(struct sh_ixqueue *q)
{
	size_t next;

	if (q->q.n != q->batch)
		return;
	next = SH_IXQUEUE_HITS / (q->hits.n / q->batch + 1);
	next = next < 4 * q->batch ? next : 4 * q->batch;
	next = next < SH_IXQUEUE_BATCH ? next : SH_IXQUEUE_BATCH;
	q->batch = next > SH_IXQUEUE_MIN ? next : SH_IXQUEUE_MIN;
}

void
sh_ixqueue_filter(struct sh_ixqueue *q, struct sh_dedup *d,
    sh_line_fn *fn)
{
	q->d = d;
	q->linefn = fn;
}

/* The filter: line[0..len) passes when fp is near none passed before. */
static int
pass(struct sh_ixqueue *q, sh_fpval fp, const char *line, size_t len)
{
	int e;

	if ((e = sh_dedup_add(q->d, fp)) == 0)
		q->linefn(q->ctx, line, len);
	return e < 0 ? e : 0;
}

/* The filter of a band index: line[0..len) passes when no line passed
 * before agrees with its keys key[0..b) in a band (a key holds its
 * band's number). */
static int
pass_keys(struct sh_ixqueue *q, const uint64_t *key, const char *line,
    size_t len)
{
	uint32_t v;
	int j;

	for (j = 0; j < q->ix->bands; j++)
		if (sh_hmap_get(&q->seen, key[j], &v))
			return 0;
	for (j = 0; j < q->ix->bands; j++)
		if (sh_hmap_put(&q->seen, key[j], 1) != 0)
			return SH_ENOMEM;
	q->linefn(q->ctx, line, len);
	return 0;
}

/* sh_index_search_each for the filter: line i passes when it has no
 * hit, and passes the filter. */
static int
filter(void *ctx, size_t i, const struct sh_hits *h)
{
	struct sh_ixqueue *q = ctx;
	const char *line;
	size_t len;

	if (h->n > 0)
		return 0;
	line = sh_fplist_id(&q->q, i, &len);
	if (q->ix->bands)
		return pass_keys(q, q->keys + i * (size_t)q->ix->bands, line,
		    len);
	return pass(q, q->q.fp[i], line, len);
}

int
sh_ixqueue_flush(struct sh_ixqueue *q, char *where)
{
	int e;

	*where = '\0';
	if (q->q.n == 0)
		return 0;
	q->where = where;
	if (q->d == NULL && q->mt->vf != NULL)
		e = answer_ahead(q, where);
	else
		e = search(q, q->d != NULL ? filter : answer, where);
	next_batch(q);
	sh_fplist_clear(&q->q);
	return e;
}

/* The query of line[0..len), fingerprint fp, ID id[0..idlen), added to
 * the batch: a band index is asked by the keys of the line's sketch. */
static int
queue(struct sh_ixqueue *q, sh_fpval fp, const char *id, size_t idlen,
    const char *line, size_t len)
{
	int e;

	if (q->ix->bands && ((e = sh_grow(&q->keys, &q->keycap, (q->q.n +
	    1) * (size_t)q->ix->bands, sizeof(*q->keys))) != 0 ||
	    (e = line_keys(q->ix, line, len, q->keys + q->q.n *
	    (size_t)q->ix->bands)) != 0))
		return e;
	return q->d != NULL ? sh_fplist_add(&q->q, fp, line, len) :
	    sh_fplist_add(&q->q, fp, id, idlen);
}

int
sh_ixqueue_add(struct sh_ixqueue *q, sh_fpval fp, const char *id,
    size_t idlen, const char *line, size_t len, char *where)
{
	int e;

	*where = '\0';
	if (q->d != NULL && q->ix == NULL)
		return pass(q, fp, line, len);
	if ((e = queue(q, fp, id, idlen, line, len)) != 0)
		return e;
	return q->q.n == q->batch ? sh_ixqueue_flush(q, where) : 0;
}

/* A batch of q, the lines of s from i0 on (*i1 past the last), their
 * hits gathered, and each line kept when none matches. */
static int
unindexed_batch(struct sh_ixqueue *q, struct sh_fpset *s,
    struct sh_linestore *lines, size_t i0, size_t *i1, uint8_t *kept,
    char *where)
{
	struct sh_hitmatch w;
	struct sh_match m;
	struct sh_hits one;
	const char *id, *line;
	size_t i, n = sh_fpset_n(s), len, linelen;
	sh_fpval fp;
	int e;

	for (i = i0; i < n && q->q.n < q->batch; i++)
		if ((e = sh_linestore_get(lines, i, &line, &linelen)) != 0 ||
		    (e = sh_fpset_fp(s, i, &fp)) != 0 ||
		    (e = sh_fpset_id(s, i, &id, &len)) != 0 ||
		    (e = queue(q, fp, id, len, line, linelen)) != 0) {
			*where = '\0';
			return e;
		}
	*i1 = i;
	if ((e = gather(q, where)) != 0)
		return e;
	for (i = 0; i < q->q.n; i++) {
		batch_hits(q, i, &one);
		id = sh_fplist_id(&q->q, i, &len);
		sh_hitmatch_start(&w, q->ix, &one, id, len, q->q.fp[i]);
		if ((e = sh_hitmatch_next(q->mt, &w, &m, where)) < 0)
			return e;
		kept[i0 + i] = e == 0;
	}
	next_batch(q);
	sh_fplist_clear(&q->q);
	return 0;
}

int
sh_match_unindexed(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_ixlook *lk, struct sh_linestore *lines,
    uint8_t *kept)
{
	struct sh_ixqueue q;
	const char *line;
	size_t i, n = sh_fpset_n(s), linelen;
	sh_fpval fp;
	int e = 0;

	*lk->where = '\0';
	if (lk->ix != NULL && mt->vf != NULL) {
		/* Verified, in batches: the located documents of a batch's
		 * candidates are read together. */
		sh_ixqueue_init(&q, mt, lk->ix, lk->k, NULL, NULL);
		for (i = 0; e == 0 && i < n; )
			e = unindexed_batch(&q, s, lines, i, &i, kept,
			    lk->where);
		sh_ixqueue_free(&q);
		return e;
	}
	for (i = 0; i < n; i++) {
		kept[i] = 1;
		if (lk->ix == NULL)
			continue;
		if ((e = sh_linestore_get(lines, i, &line, &linelen)) != 0 ||
		    (e = sh_fpset_fp(s, i, &fp)) != 0 ||
		    (e = has_hit(lk, fp, line, linelen)) < 0)
			return e;
		kept[i] = e == 0;
	}
	return 0;
}

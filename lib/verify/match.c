#include "base/errors.h"
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
	return sim >= mt->min;
}

/* Entries a and b of s into *m: 1 when they match, 0 when not, or an
 * error of the set. */
static int
entries(struct sh_matcher *mt, struct sh_fpset *s, uint32_t a, uint32_t b,
    struct sh_match *m)
{
	uint32_t sim;
	size_t col;
	int e, which;

	m->sim = -1;
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
sh_match_next(struct sh_matcher *mt, struct sh_fpset *s, struct sh_match *m)
{
	uint32_t a, b;
	int e, r;

	while ((e = sh_fpset_next(s, &a, &b, &m->dist)) > 0)
		if ((r = entries(mt, s, a, b, m)) != 0)
			return r;
	return e;
}

struct asking {
	struct sh_matcher *mt;
	struct sh_fpset *s;
	int err;		/* an error met in a callback */
};

/* The callback of the set: whether a, b match; an error is kept and the
 * pair taken as no match. */
static int
matches(void *ctx, uint32_t a, uint32_t b, int dist)
{
	struct asking *q = ctx;
	struct sh_match m;
	int r;

	(void)dist;
	if (q->err != 0)
		return 0;
	if ((r = entries(q->mt, q->s, a, b, &m)) < 0) {
		q->err = r;
		return 0;
	}
	return r;
}

int
sh_match_clusters(struct sh_matcher *mt, struct sh_fpset *s, uint32_t *rep)
{
	struct asking q = { mt, s, 0 };
	int e;

	e = sh_fpset_cluster(s, rep, mt->vf ? matches : NULL, &q);
	return e != 0 ? e : q.err;
}

int
sh_match_firsts(struct sh_matcher *mt, struct sh_fpset *s, uint8_t *kept)
{
	struct asking q = { mt, s, 0 };
	int e;

	e = sh_fpset_first(s, kept, matches, &q);
	return e != 0 ? e : q.err;
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
	uint32_t sim;
	size_t col;
	int e, which;

	for (;;) {
		while (w->p == NULL || !sh_ids_next(&w->p, &w->plen,
		    &w->id[1], &w->len[1])) {
			if (w->i == w->h->n)
				return 0;
			if ((e = sh_index_ids(w->ix, &w->h->v[w->i], &w->p,
			    &w->plen, where)) != 0)
				return e;
			w->fp[1] = w->h->v[w->i++].fp;
		}
		m->id[0] = w->id[0];
		m->len[0] = w->len[0];
		m->id[1] = w->id[1];
		m->len[1] = w->len[1];
		m->dist = w->h->v[w->i - 1].dist;
		m->sim = -1;
		if (mt->vf == NULL)
			return 1;
		e = sh_verify_ids(mt->vf, w->id, w->len, w->fp, &sim, &which,
		    &col);
		if ((e = judged(mt, e, sim, w->id, w->len, which, col,
		    &m->sim)) != 0)
			return e;
	}
}

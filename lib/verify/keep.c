#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "near/pairline.h"
#include "verify/keep.h"

#define NONE 0xFFFFFFFFu
#define NONEZ ((size_t)-1)

/* Entries decided between two cuts of documents ahead. */
#define AHEAD 4096

struct keeper {
	struct sh_matcher *mt;
	struct sh_fpset *s;
	size_t n;
	uint32_t *order;	/* keep order; NULL: input order */
	uint32_t *pos;		/* entry i's place in it */
	uint64_t *cand;		/* candidates: place << 32 | entry */
	size_t ncand, candcap;
	uint32_t *stamp;	/* groups: 1 + the entry that saw it last */
	/* Classes: the kept entries of class c, head[c], next[head[c]],
	 * ...  Groups: the kept members (positions in g->e) of group i. */
	const struct sh_classes *c;
	uint32_t *head, *tail, *next;
	const struct sh_bandgroups *g;
	size_t *ghead, *gtail, *gnext, *off, *gpos;
	uint32_t *grp;
};

struct ranked {
	double r;
	uint32_t i;
};

/* Highest rank first, a NaN last, then input order. */
static int
cmp_ranked(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;
	int nx = isnan(x->r), ny = isnan(y->r);

	if (nx != ny)
		return nx - ny;
	if (!nx && x->r != y->r)
		return x->r > y->r ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The keep order of rank, into k->order and k->pos. */
static int
keep_order(struct keeper *k, const double *rank)
{
	struct ranked *v;
	size_t i;

	if (rank == NULL)
		return 0;
	if ((v = malloc(k->n * sizeof(*v) + 1)) == NULL ||
	    (k->order = malloc(k->n * sizeof(*k->order) + 1)) == NULL ||
	    (k->pos = malloc(k->n * sizeof(*k->pos) + 1)) == NULL) {
		free(v);
		return SH_ENOMEM;
	}
	for (i = 0; i < k->n; i++) {
		v[i].r = rank[i];
		v[i].i = (uint32_t)i;
	}
	qsort(v, k->n, sizeof(*v), cmp_ranked);
	for (i = 0; i < k->n; i++) {
		k->order[i] = v[i].i;
		k->pos[v[i].i] = (uint32_t)i;
	}
	free(v);
	return 0;
}

static uint32_t
place(const struct keeper *k, uint32_t x)
{
	return k->pos != NULL ? k->pos[x] : x;
}

static int
add_cand(struct keeper *k, uint32_t y)
{
	if (k->ncand == k->candcap && sh_grow(&k->cand, &k->candcap,
	    k->ncand + 1, sizeof(*k->cand)) != 0)
		return SH_ENOMEM;
	k->cand[k->ncand++] = (uint64_t)place(k, y) << 32 | y;
	return 0;
}

/* The kept copies x meets: of its class and of the neighbours, or of
 * its groups (each once). */
static int
gather(struct keeper *k, uint32_t x)
{
	const struct sh_classes *c = k->c;
	size_t i, q, from, to;
	uint32_t y, cl;
	int e;

	k->ncand = 0;
	if (c != NULL) {
		cl = sh_classes_of(c, x);
		from = c->nat[cl];
		to = c->nat[cl + 1];
		for (i = from; ; i++) {
			for (y = k->head[cl]; y != NONE; y = k->next[y])
				if ((e = add_cand(k, y)) != 0)
					return e;
			if (i == to)
				break;
			cl = c->nb[i];
		}
		return 0;
	}
	for (i = k->off[x]; i < k->off[x + 1]; i++)
		for (q = k->ghead[k->grp[k->gpos[i]]]; q != NONEZ;
		    q = k->gnext[q]) {
			y = k->g->e[q];
			if (k->stamp[y] == x + 1)
				continue;
			k->stamp[y] = x + 1;
			if ((e = add_cand(k, y)) != 0)
				return e;
		}
	return 0;
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The anchor of x among its candidates: the first in keep order that
 * matches, or x itself. */
static int
choose(struct keeper *k, uint32_t x, uint32_t *anchor)
{
	struct sh_match m;
	uint32_t y;
	size_t i, best;
	int r;

	*anchor = x;
	k->mt->ncand += k->ncand;
	if (k->ncand == 0)
		return 0;
	if (k->mt->vf == NULL) {
		for (best = 0, i = 1; i < k->ncand; i++)
			if (k->cand[i] < k->cand[best])
				best = i;
		*anchor = (uint32_t)k->cand[best];
		return 0;
	}
	qsort(k->cand, k->ncand, sizeof(*k->cand), cmp64);
	for (i = 0; i < k->ncand; i++) {
		y = (uint32_t)k->cand[i];
		r = y < x ? sh_match_pair(k->mt, k->s, y, x, &m) :
		    sh_match_pair(k->mt, k->s, x, y, &m);
		if (r < 0)
			return r;
		if (r > 0) {
			*anchor = y;
			return 0;
		}
	}
	return 0;
}

/* x kept: a candidate of those that meet it after. */
static void
add_kept(struct keeper *k, uint32_t x)
{
	size_t i, p, gi;
	uint32_t cl;

	if (k->c != NULL) {
		cl = sh_classes_of(k->c, x);
		k->next[x] = NONE;
		if (k->head[cl] == NONE)
			k->head[cl] = x;
		else
			k->next[k->tail[cl]] = x;
		k->tail[cl] = x;
		return;
	}
	for (i = k->off[x]; i < k->off[x + 1]; i++) {
		p = k->gpos[i];
		gi = k->grp[p];
		k->gnext[p] = NONEZ;
		if (k->ghead[gi] == NONEZ)
			k->ghead[gi] = p;
		else
			k->gnext[k->gtail[gi]] = p;
		k->gtail[gi] = p;
	}
}

/* The documents of the entries at places t.. in keep order and of the
 * first kept copies they meet, cut ahead. */
static int
ahead(struct keeper *k, size_t t, uint32_t *want)
{
	size_t w, u, i, q;
	uint32_t x, cl;

	for (w = 0, u = t; u < k->n && u < t + AHEAD && w < AHEAD; u++) {
		x = k->order != NULL ? k->order[u] : (uint32_t)u;
		want[w++] = x;
		if (k->c != NULL) {
			cl = sh_classes_of(k->c, x);
			if (k->head[cl] != NONE)
				want[w++] = k->head[cl];
			for (i = k->c->nat[cl]; i < k->c->nat[cl + 1] &&
			    w < 2 * AHEAD; i++)
				if (k->head[k->c->nb[i]] != NONE)
					want[w++] = k->head[k->c->nb[i]];
			continue;
		}
		for (i = k->off[x]; i < k->off[x + 1] && w < 2 * AHEAD; i++)
			if ((q = k->ghead[k->grp[k->gpos[i]]]) != NONEZ)
				want[w++] = k->g->e[q];
	}
	sh_match_ahead(k->mt->vf, k->s, want, w);
	return 0;
}

static int
decide(struct keeper *k, uint32_t *rep)
{
	uint32_t *want = NULL, x, a;
	size_t t;
	int e = 0;

	if (k->mt->vf != NULL &&
	    (want = malloc(2 * AHEAD * sizeof(*want))) == NULL)
		return SH_ENOMEM;
	for (t = 0; t < k->n && e == 0; t++) {
		if (want != NULL && t % AHEAD == 0)
			ahead(k, t, want);
		x = k->order != NULL ? k->order[t] : (uint32_t)t;
		if (rep[x] == SH_KEEP_OUT)
			continue;
		if ((e = gather(k, x)) != 0 || (e = choose(k, x, &a)) != 0)
			break;
		rep[x] = a;
		if (a == x)
			add_kept(k, x);
	}
	free(want);
	return e;
}

static void
keeper_free(struct keeper *k)
{
	free(k->order);
	free(k->pos);
	free(k->cand);
	free(k->stamp);
	free(k->head);
	free(k->tail);
	free(k->next);
	free(k->ghead);
	free(k->gtail);
	free(k->gnext);
	free(k->off);
	free(k->gpos);
	free(k->grp);
}

int
sh_keep_classes(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_classes *c, const double *rank, uint32_t *rep)
{
	struct keeper k;
	size_t i;
	int e;

	memset(&k, 0, sizeof(k));
	k.mt = mt;
	k.s = s;
	k.n = sh_fpset_n(s);
	k.c = c;
	if (k.n >= NONE)
		return SH_ERANGE;
	if ((e = keep_order(&k, rank)) == 0 &&
	    ((k.head = malloc(c->nc * sizeof(*k.head) + 1)) == NULL ||
	    (k.tail = malloc(c->nc * sizeof(*k.tail) + 1)) == NULL ||
	    (k.next = malloc(k.n * sizeof(*k.next) + 1)) == NULL))
		e = SH_ENOMEM;
	if (e == 0) {
		for (i = 0; i < c->nc; i++)
			k.head[i] = NONE;
		e = decide(&k, rep);
	}
	keeper_free(&k);
	return e;
}

/* The groups of each entry: entry x is at the positions (in g->e)
 * gpos[off[x] .. off[x + 1]), in the order of the groups. */
static int
positions(struct keeper *k)
{
	const struct sh_bandgroups *g = k->g;
	size_t i, *o, *p;

	if ((o = k->off = calloc(k->n + 1, sizeof(*o))) == NULL ||
	    (p = k->gpos = malloc((g->n + 1) * sizeof(*p))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < g->n; i++)
		o[g->e[i] + 1]++;
	for (i = 0; i < k->n; i++)
		o[i + 1] += o[i];
	for (i = 0; i < g->n; i++)
		p[o[g->e[i]]++] = i;
	for (i = k->n; i > 0; i--)
		o[i] = o[i - 1];
	o[0] = 0;
	return 0;
}

int
sh_keep_groups(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, const double *rank, uint32_t *rep)
{
	struct keeper k;
	size_t i, p;
	int e;

	memset(&k, 0, sizeof(k));
	k.mt = mt;
	k.s = s;
	k.n = sh_fpset_n(s);
	k.g = g;
	if (k.n >= NONE || g->ng >= NONE)
		return SH_ERANGE;
	if ((e = keep_order(&k, rank)) == 0 && (e = positions(&k)) == 0 &&
	    ((k.grp = malloc((g->n + 1) * sizeof(*k.grp))) == NULL ||
	    (k.gnext = malloc((g->n + 1) * sizeof(*k.gnext))) == NULL ||
	    (k.ghead = malloc((g->ng + 1) * sizeof(*k.ghead))) == NULL ||
	    (k.gtail = malloc((g->ng + 1) * sizeof(*k.gtail))) == NULL ||
	    (k.stamp = calloc(k.n + 1, sizeof(*k.stamp))) == NULL))
		e = SH_ENOMEM;
	if (e == 0) {
		for (i = 0; i < g->ng; i++) {
			k.ghead[i] = NONEZ;
			for (p = g->at[i]; p < g->at[i + 1]; p++)
				k.grp[p] = (uint32_t)i;
		}
		e = decide(&k, rep);
	}
	keeper_free(&k);
	return e;
}

#include <sys/mman.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/io.h"
#include "base/radix.h"
#include "base/shard.h"
#include "base/threads.h"
#include "near/bands.h"

/* x^n by multiplications. */
static double
power(double x, int n)
{
	double y = 1;

	while (n-- > 0)
		y *= x;
	return y;
}

static double
prob(int b, int r, double t)
{
	return 1 - power(1 - power(t, r), b);
}

int
sh_bandplan_init(struct sh_bandplan *p, uint32_t t, uint32_t recall)
{
	double x = t / 1e6, want = recall / 1e6;
	int b, r;

	for (r = SH_SK_K; r >= 1; r--)
		for (b = 1; b * r <= SH_SK_K; b++)
			if (prob(b, r, x) >= want) {
				p->b = b;
				p->r = r;
				return 0;
			}
	return SH_ERANGE;
}

double
sh_bandplan_prob(const struct sh_bandplan *p, uint32_t sim)
{
	return prob(p->b, p->r, sim / 1e6);
}

/* One step of a band's hash: the splitmix64 finalizer over k ^ w. */
static inline uint64_t
fold(uint64_t k, uint64_t w)
{
	k ^= w;
	k = (k ^ k >> 30) * 0xbf58476d1ce4e5b9ULL;
	k = (k ^ k >> 27) * 0x94d049bb133111ebULL;
	return k ^ k >> 31;
}

/* The key of the r values v[0..r) from seed k. */
static uint64_t
band_key(const uint16_t *v, int r, uint64_t k)
{
	uint64_t w;
	int i, q;

	for (i = 0; i + 4 <= r; i += 4)
		k = fold(k, (uint64_t)v[i] | (uint64_t)v[i + 1] << 16 |
		    (uint64_t)v[i + 2] << 32 | (uint64_t)v[i + 3] << 48);
	if (i < r) {
		for (w = 0, q = 0; i + q < r; q++)
			w |= (uint64_t)v[i + q] << 16 * q;
		k = fold(k, w);
	}
	return k;
}

void
sh_bands_keys(const struct sh_bandplan *p, const struct sh_sketch *s,
    uint64_t *key)
{
	int j;

	for (j = 0; j < p->b; j++)
		key[j] = band_key(s->v + j * p->r, p->r,
		    (uint64_t)(j + 1) * 0x9e3779b97f4a7c15ULL);
}

/* The plan of all the bands of the most rows that give a pair at
 * similarity j the recall: SH_ERANGE when none does. */
static int
edit_rows(struct sh_bandplan *p, double j)
{
	int r;

	for (r = SH_SK_K; r >= 1; r--)
		if (prob(SH_SK_K / r, r, j) >= SH_BANDS_RECALL / 1e6) {
			*p = (struct sh_bandplan){ SH_SK_K / r, r };
			return 0;
		}
	return SH_ERANGE;
}

int
sh_editplan_init(struct sh_editplan *p, uint32_t t)
{
	if (edit_rows(&p->plan[0], t / 1e6 / (2 - t / 1e6)) != 0 ||
	    edit_rows(&p->plan[1], power(t / 1e6, 3)) != 0)
		return SH_ERANGE;
	p->all.b = p->plan[0].b + p->plan[1].b;
	p->all.r = p->plan[0].r;
	return 0;
}

void
sh_editplan_keys(const struct sh_editplan *p, int kind,
    const struct sh_sketch *s, uint64_t *key)
{
	const struct sh_bandplan *pl;
	uint64_t seed, all;
	int i, j, n = 0;

	/* Keys of the whole sketch where a kind has no band: two
	 * sketches share them only where they share every band. */
	all = band_key(s->v, SH_SK_K, 0x243f6a8885a308d3ULL);
	for (i = 0; i < 2; i++) {
		pl = &p->plan[i];
		seed = 0x13198a2e03707344ULL * (uint64_t)(i + 1);
		for (j = 0; j < pl->b; j++, n++)
			key[n] = kind == 2 || kind == 1 + 2 * i ?
			    band_key(s->v + j * pl->r, pl->r, seed ^
			    (uint64_t)(j + 1) * 0x9e3779b97f4a7c15ULL) :
			    fold(all, (uint64_t)n);
	}
}

/* The keys of the entries: band j's in an array of their own, key j of
 * entry i at band[j][i]; or entry by entry, at row[i b + j]. */
struct keys {
	const uint64_t *const *band;
	const uint64_t *row;
	int b;
};

static inline uint64_t
keyof(const struct keys *k, uint64_t i, int j)
{
	return k->band != NULL ? k->band[j][i] : k->row[i * (uint64_t)k->b +
	    (uint64_t)j];
}

/* Whether entries a and b agree in a band before band j. */
static int
agreed(const struct keys *k, uint64_t a, uint64_t b, int j)
{
	int i;

	for (i = 0; i < j; i++)
		if (keyof(k, a, i) == keyof(k, b, i))
			return 1;
	return 0;
}

/* Whether all m entries of e agree in one band before band j: then
 * that band gives all their pairs. */
static int
group_agreed(const struct keys *k, const uint64_t *e, size_t m, int j)
{
	size_t x;
	int i;

	for (i = 0; i < j; i++) {
		for (x = 1; x < m; x++)
			if (keyof(k, e[x], i) != keyof(k, e[0], i))
				break;
		if (x == m)
			return 1;
	}
	return 0;
}

/* What the threads share, and what each does. */
struct shared {
	struct keys k;		/* k.b: the bands */
	size_t n;
	const struct sh_shard *shard;	/* NULL: all */
	const struct sh_progress *pg;
	pthread_mutex_t lock;
	int done;
};

struct worker {
	struct shared *sh;
	int first, step;
	struct sh_pairs pairs;
	struct sh_bandgroups groups;	/* with grouping, instead of pairs */
	int grouping;
	size_t start[SH_SK_K];	/* the groups of band j from start[j] */
	struct sh_kv *kv;	/* a group's keys, when they differ */
	uint64_t *members;	/* a group's entries */
	size_t kvcap, mcap;
	int err;
};

/* Append the group of the m entries e to g.  Return 0 or SH_ENOMEM. */
static int
add_group(struct sh_bandgroups *g, const uint64_t *e, size_t m)
{
	size_t x;

	if (sh_grow(&g->e, &g->cap, g->n + m, sizeof(*g->e)) != 0 ||
	    sh_grow(&g->at, &g->atcap, g->ng + 2, sizeof(*g->at)) != 0)
		return SH_ENOMEM;
	for (x = 0; x < m; x++)
		g->e[g->n++] = (uint32_t)e[x];
	g->at[g->ng] = g->n - m;
	g->at[++g->ng] = g->n;
	return 0;
}

/* The group of the m entries e (ascending) of equal key j, unless a
 * band before gave it whole: as a group, or as the pairs that band j
 * owns. */
static void
emit(struct worker *w, const uint64_t *e, size_t m, int j, uint64_t key)
{
	const struct shared *sh = w->sh;
	size_t x, y;

	if ((sh->shard != NULL &&
	    sh_shard_run(sh->shard, j, sh->k.b, key) != sh->shard->i) ||
	    group_agreed(&sh->k, e, m, j))
		return;
	if (w->grouping) {
		w->err = add_group(&w->groups, e, m);
		return;
	}
	for (x = 0; x < m && w->err == 0; x++)
		for (y = x + 1; y < m; y++)
			if (!agreed(&sh->k, e[x], e[y], j) &&
			    (w->err = sh_pairs_add(&w->pairs,
			    e[x] << 32 | e[y])) != 0)
				return;
}

/*
 * The m entries e (ascending, each idx with its key's top 32 bits above
 * it) whose keys of band j agree in their top 32 bits: their groups of
 * equal keys, ascending.
 */
static void
group(struct worker *w, const uint64_t *e, size_t m, int j)
{
	const uint64_t *key = w->sh->k.band[j];
	size_t x, lo;
	uint64_t k0;

	if (sh_grow(&w->members, &w->mcap, m, sizeof(*w->members)) != 0) {
		w->err = SH_ENOMEM;
		return;
	}
	for (x = 0; x < m; x++)
		w->members[x] = e[x] & 0xFFFFFFFF;
	k0 = key[w->members[0]];
	for (x = 1; x < m && key[w->members[x]] == k0; x++)
		;
	if (x == m) {
		emit(w, w->members, m, j, k0);
		return;
	}
	/* Keys that differ below their top 32 bits: sorted in full. */
	if (sh_grow(&w->kv, &w->kvcap, m, sizeof(*w->kv)) != 0) {
		w->err = SH_ENOMEM;
		return;
	}
	for (x = 0; x < m; x++) {
		w->kv[x].i = (uint32_t)w->members[x];
		w->kv[x].k = key[w->kv[x].i];
	}
	qsort(w->kv, m, sizeof(*w->kv), sh_kv_cmp);
	for (lo = 0; lo < m; lo = x) {
		w->members[lo] = w->kv[lo].i;
		for (x = lo + 1; x < m && w->kv[x].k == w->kv[lo].k; x++)
			w->members[x] = w->kv[x].i;
		if (x - lo > 1)
			emit(w, w->members + lo, x - lo, j, w->kv[lo].k);
	}
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct shared *sh = w->sh;
	uint64_t *v, *tmp, top;
	size_t i, lo;
	int j;

	v = malloc(sh->n * sizeof(*v));
	tmp = malloc(sh->n * sizeof(*tmp));
	if (v == NULL || tmp == NULL)
		w->err = SH_ENOMEM;
	for (j = w->first; j < sh->k.b && w->err == 0; j += w->step) {
		w->start[j] = w->groups.ng;
		if (sh->shard == NULL ||
		    sh_shard_table(sh->shard, j, sh->k.b)) {
			for (i = 0; i < sh->n; i++)
				v[i] = (sh->k.band[j][i] >> 32) << 32 | i;
			sh_radix_bits(&v, &tmp, sh->n, 32, 32, 11);
			for (lo = 0; lo < sh->n && w->err == 0; lo = i) {
				top = v[lo] >> 32;
				for (i = lo + 1; i < sh->n &&
				    v[i] >> 32 == top; i++)
					;
				if (i - lo > 1)
					group(w, v + lo, i - lo, j);
			}
		}
		pthread_mutex_lock(&sh->lock);
		sh_progress(sh->pg, "band", (uint64_t)++sh->done,
		    (uint64_t)sh->k.b);
		pthread_mutex_unlock(&sh->lock);
	}
	free(v);
	free(tmp);
	return NULL;
}

/* The bands of p over the n entries of key on nthreads threads, into
 * w[0..*nw): their pairs, or their groups.  Return 0 or an error. */
static int
run(struct shared *sh, int nthreads, int grouping, struct worker *w,
    int *nw)
{
	int t, e = 0;

	if (sh->n >= 0xFFFFFFFF)
		return SH_ERANGE;
	if (nthreads > sh->k.b)
		nthreads = sh->k.b;
	if (nthreads > SH_THREADS_MAX)
		nthreads = SH_THREADS_MAX;
	if (nthreads < 1)
		nthreads = 1;
	memset(w, 0, (size_t)nthreads * sizeof(*w));
	for (t = 0; t < nthreads; t++) {
		w[t].sh = sh;
		w[t].first = t;
		w[t].step = nthreads;
		w[t].grouping = grouping;
	}
	if (sh->n > 1)
		sh_threads_run(w, sizeof(w[0]), nthreads, work);
	for (t = 0; t < nthreads; t++) {
		if (e == 0)
			e = w[t].err;
		free(w[t].kv);
		free(w[t].members);
	}
	*nw = nthreads;
	return e;
}

int
sh_bands_join(const uint64_t *const *key, size_t n,
    const struct sh_bandplan *p, int nthreads, const struct sh_shard *shard,
    const struct sh_progress *pg, struct sh_pairs *out)
{
	struct shared sh = { { key, NULL, p->b }, n, shard, pg,
	    PTHREAD_MUTEX_INITIALIZER, 0 };
	struct worker w[SH_THREADS_MAX];
	size_t total = 0;
	int t, nw, e;

	e = run(&sh, nthreads, 0, w, &nw);
	for (t = 0; t < nw; t++)
		total += w[t].pairs.n;
	if (e == 0 && sh_grow(&out->v, &out->cap, out->n + total,
	    sizeof(*out->v)) != 0)
		e = SH_ENOMEM;
	for (t = 0; t < nw; t++) {
		if (e == 0 && w[t].pairs.n > 0) {
			memcpy(out->v + out->n, w[t].pairs.v,
			    w[t].pairs.n * sizeof(*out->v));
			out->n += w[t].pairs.n;
		}
		free(w[t].pairs.v);
	}
	if (e == 0)
		sh_pairs_sort(out);
	pthread_mutex_destroy(&sh.lock);
	return e;
}

int
sh_bands_groups(const uint64_t *const *key, size_t n,
    const struct sh_bandplan *p, int nthreads, const struct sh_progress *pg,
    struct sh_bandgroups *out)
{
	struct shared sh = { { key, NULL, p->b }, n, NULL, pg,
	    PTHREAD_MUTEX_INITIALIZER, 0 };
	struct worker w[SH_THREADS_MAX];
	const struct sh_bandgroups *g;
	size_t i, from, to, ng = 0, ne = 0;
	int t, nw, j, e;

	memset(out, 0, sizeof(*out));
	e = run(&sh, nthreads, 1, w, &nw);
	for (t = 0; t < nw; t++) {
		ng += w[t].groups.ng;
		ne += w[t].groups.n;
	}
	if (e == 0 && (sh_grow(&out->e, &out->cap, ne, sizeof(*out->e)) != 0 ||
	    sh_grow(&out->at, &out->atcap, ng + 1, sizeof(*out->at)) != 0))
		e = SH_ENOMEM;
	/* Band by band, each from the worker that ran it. */
	for (j = 0; e == 0 && j < p->b; j++) {
		g = &w[j % nw].groups;
		from = w[j % nw].start[j];
		to = j + nw < p->b ? w[j % nw].start[j + nw] : g->ng;
		for (i = from; i < to; i++) {
			out->at[out->ng++] = out->n;
			memcpy(out->e + out->n, g->e + g->at[i],
			    (g->at[i + 1] - g->at[i]) * sizeof(*out->e));
			out->n += g->at[i + 1] - g->at[i];
		}
	}
	if (out->atcap > 0)
		out->at[out->ng] = out->n;
	for (t = 0; t < nw; t++)
		sh_bandgroups_free(&w[t].groups);
	if (e != 0)
		sh_bandgroups_free(out);
	pthread_mutex_destroy(&sh.lock);
	return e;
}

void
sh_bandgroups_free(struct sh_bandgroups *g)
{
	free(g->e);
	free(g->at);
	memset(g, 0, sizeof(*g));
}

struct sh_bandsort {
	int b;
	struct sh_xsort *x[SH_SK_K];	/* NULL: a band of another shard */
	const struct sh_shard *shard;
	uint64_t n;
	FILE *rows;		/* every key, entry by entry */
	void *map;		/* the rows mapped, for the bands' pairs */
	size_t maplen;
};

int
sh_bandsort_new(struct sh_bandsort **xp, const struct sh_bandplan *p,
    const struct sh_shard *shard, size_t budget, const char *tmpdir)
{
	struct sh_bandsort *x;
	int j, n = 0, e;

	if ((*xp = x = calloc(1, sizeof(*x))) == NULL)
		return SH_ENOMEM;
	x->b = p->b;
	x->shard = shard;
	if ((e = sh_tmpfile(tmpdir, &x->rows)) != 0)
		return e;
	for (j = 0; j < p->b; j++)
		n += shard == NULL || sh_shard_table(shard, j, p->b);
	for (j = 0; j < p->b; j++)
		if ((shard == NULL || sh_shard_table(shard, j, p->b)) &&
		    (x->x[j] = sh_xsort_new(budget / (size_t)n,
		    tmpdir)) == NULL)
			return SH_ENOMEM;
	return 0;
}

void
sh_bandsort_free(struct sh_bandsort *x)
{
	int j;

	if (x == NULL)
		return;
	for (j = 0; j < x->b; j++)
		sh_xsort_free(x->x[j]);
	if (x->map != NULL)
		munmap(x->map, x->maplen);
	if (x->rows != NULL)
		fclose(x->rows);
	free(x);
}

int
sh_bandsort_add(struct sh_bandsort *x, const uint64_t *key)
{
	int j, e;

	if (x->n >= 0xFFFFFFFF)
		return SH_ERANGE;
	if (fwrite(key, sizeof(*key), (size_t)x->b, x->rows) != (size_t)x->b)
		return SH_EIO;
	for (j = 0; j < x->b; j++)
		if (x->x[j] != NULL &&
		    (e = sh_xsort_add(x->x[j], key[j], x->n)) != 0)
			return e;
	x->n++;
	return 0;
}

/* What is told of each group of the sort: its pairs to fn, or the group
 * to groups. */
struct telling {
	sh_bandpair_fn *fn;
	void *ctx;
	struct sh_bandgroups *groups;
};

/* The m entries e (ascending) of key j, unless a band before gave them
 * all: to groups, or their pairs that band j owns, as the join in memory
 * owns them, to fn. */
static int
tell(const struct telling *t, const struct keys *k, const uint64_t *e,
    size_t m, int j)
{
	size_t a, b;
	int r;

	if (group_agreed(k, e, m, j))
		return 0;
	if (t->groups != NULL)
		return add_group(t->groups, e, m);
	for (a = 0; a < m; a++)
		for (b = a + 1; b < m; b++)
			if (!agreed(k, e[a], e[b], j) &&
			    (r = t->fn(t->ctx, (uint32_t)e[a],
			    (uint32_t)e[b])) != 0)
				return r;
	return 0;
}

/* The groups of the sort, band by band, told as t says. */
static int
run_sort(struct sh_bandsort *x, const struct sh_progress *pg,
    const struct telling *t)
{
	const struct sh_shard *shard = x->shard;
	struct keys k = { NULL, NULL, x->b };
	struct sh_xrec r;
	uint64_t *e = NULL, key = 0;
	size_t m = 0, cap = 0;
	int j, got, err = 0;

	if (fflush(x->rows) != 0)
		return SH_EIO;
	x->maplen = (size_t)x->n * (size_t)x->b * sizeof(key);
	if (x->maplen > 0 && (x->map = mmap(NULL, x->maplen, PROT_READ,
	    MAP_SHARED, fileno(x->rows), 0)) == MAP_FAILED) {
		x->map = NULL;
		return SH_EIO;
	}
	k.row = x->map;
	for (j = 0; j < x->b && err == 0; j++) {
		if (x->x[j] == NULL) {
			sh_progress(pg, "band", (uint64_t)j + 1, (uint64_t)x->b);
			continue;
		}
		m = 0;
		do {
			if ((got = sh_xsort_next(x->x[j], &r)) < 0) {
				err = got;
				break;
			}
			if (m > 0 && (got == 0 || r.a != key)) {
				if (m > 1 && (shard == NULL || sh_shard_run(shard,
				    j, x->b, key) == shard->i))
					err = tell(t, &k, e, m, j);
				m = 0;
			}
			if (got == 0 || err != 0)
				break;
			if (sh_grow(&e, &cap, m + 1, sizeof(*e)) != 0) {
				err = SH_ENOMEM;
				break;
			}
			key = r.a;
			e[m++] = r.b;
		} while (got > 0);
		sh_xsort_free(x->x[j]);
		x->x[j] = NULL;
		sh_progress(pg, "band", (uint64_t)j + 1, (uint64_t)x->b);
	}
	free(e);
	return err;
}

int
sh_bandsort_run(struct sh_bandsort *x, const struct sh_progress *pg,
    sh_bandpair_fn *fn, void *ctx)
{
	struct telling t = { fn, ctx, NULL };

	return run_sort(x, pg, &t);
}

int
sh_bandsort_groups(struct sh_bandsort *x, const struct sh_progress *pg,
    struct sh_bandgroups *out)
{
	struct telling t = { NULL, NULL, out };
	int e;

	memset(out, 0, sizeof(*out));
	if ((e = run_sort(x, pg, &t)) != 0)
		sh_bandgroups_free(out);
	return e;
}

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/grow.h"
#include "base/shard.h"
#include "base/xsort.h"
#include "near/fpstore.h"
#include "near/join.h"

#if SH_FP_BITS != 64
#error "the external join sorts a fingerprint as one 64-bit word"
#endif

struct rec {
	uint64_t key;
	uint64_t idx;
};

/*
 * LSD radix sort of a[0..n) by the low bits of key, 11 bits a pass; tmp
 * has room for n.  Stable, so equal keys keep their order.  Returns the
 * array holding the result (a or tmp).
 */
static struct rec *
radix(struct rec *a, struct rec *tmp, size_t n, int bits)
{
	size_t count[2048], i, sum, c;
	struct rec *t;
	int shift;

	for (shift = 0; shift < bits; shift += 11) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[a[i].key >> shift & 2047]++;
		for (i = 0, sum = 0; i < 2048; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[a[i].key >> shift & 2047]++] = a[i];
		t = a;
		a = tmp;
		tmp = t;
	}
	return a;
}

int
sh_pairs_add(struct sh_pairs *p, uint64_t v)
{
	if (p->n == p->cap && sh_grow(&p->v, &p->cap, p->n + 1,
	    sizeof(*p->v)) != 0)
		return SH_ENOMEM;
	p->v[p->n++] = v;
	return 0;
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void
sh_pairs_sort(struct sh_pairs *p)
{
	if (p->n > 1)
		qsort(p->v, p->n, sizeof(*p->v), cmp64);
}

/* The tables done, counted across the threads for the progress report. */
struct done {
	pthread_mutex_t mu;
	uint64_t n, total;
	const struct sh_progress *pg;
};

/* One more table done. */
static void
table_done(struct done *d)
{
	if (d->pg == NULL)
		return;
	pthread_mutex_lock(&d->mu);
	sh_progress(d->pg, "table", ++d->n, d->total);
	pthread_mutex_unlock(&d->mu);
}

/* The tables of plan that shard (NULL: all) runs. */
static uint64_t
tables(const struct sh_plan *plan, const struct sh_shard *shard)
{
	uint64_t n = 0;
	int t;

	for (t = 0; t < plan->ntables; t++)
		n += shard == NULL || sh_shard_table(shard, t, plan->ntables);
	return n;
}

struct job {
	struct done *done;
	const sh_fpval *fp;
	size_t n;
	const struct sh_plan *plan;
	const struct sh_shard *shard;
	int first, step;	/* tables first, first + step, ... */
	struct sh_pairs pairs;
	int err;
};

/*
 * Whether table t reports fingerprints a and b (of one run of equal key):
 * they are within plan->k and t is the first table whose key they share.
 */
static int
owned(const struct sh_plan *plan, int t, uint64_t a, uint64_t b)
{
	return sh_hamming(a, b) <= plan->k && sh_plan_owner(plan, t,
	    sh_plan_agree(plan, a, b));
}

/* Compare the members of the run r[0..m) of equal keys of table t. */
static int
run_pairs(struct job *j, int t, const struct rec *r, size_t m)
{
	size_t x, y;

	for (x = 0; x < m; x++)
		for (y = x + 1; y < m; y++)
			/* Stable sort: r[x].idx < r[y].idx. */
			if (owned(j->plan, t, j->fp[r[x].idx],
			    j->fp[r[y].idx]) && sh_pairs_add(&j->pairs,
			    r[x].idx << 32 | r[y].idx) != 0)
				return SH_ENOMEM;
	return 0;
}

static void *
work(void *arg)
{
	struct job *j = arg;
	struct rec *a, *tmp, *s;
	size_t i, e;
	int t;

	a = malloc(j->n * sizeof(*a) + 1);
	tmp = malloc(j->n * sizeof(*tmp) + 1);
	if (a == NULL || tmp == NULL) {
		j->err = SH_ENOMEM;
		goto out;
	}
	for (t = j->first; t < j->plan->ntables; t += j->step) {
		if (j->shard != NULL && !sh_shard_table(j->shard, t,
		    j->plan->ntables))
			continue;
		for (i = 0; i < j->n; i++) {
			a[i].key = sh_plan_key(j->plan, t, j->fp[i]);
			a[i].idx = i;
		}
		s = radix(a, tmp, j->n, j->plan->keybits[t]);
		for (i = 0; i < j->n; i = e) {
			for (e = i + 1; e < j->n && s[e].key == s[i].key; e++)
				;
			if (e - i < 2 || (j->shard != NULL &&
			    sh_shard_run(j->shard, t, j->plan->ntables,
			    s[i].key) != j->shard->i))
				continue;
			if ((j->err = run_pairs(j, t, s + i, e - i)) != 0)
				goto out;
		}
		table_done(j->done);
	}
out:
	free(a);
	free(tmp);
	return NULL;
}

int
sh_join(const sh_fpval *fp, size_t n, const struct sh_plan *plan,
    int nthreads, const struct sh_shard *shard, const struct sh_progress *pg,
    struct sh_pairs *out)
{
	struct done done = { PTHREAD_MUTEX_INITIALIZER, 0, 0, NULL };
	struct job *jobs;
	pthread_t *tid;
	uint64_t *nv;
	size_t total;
	int t, started, err = 0;

	if ((uint64_t)n >= (uint64_t)1 << 32)
		return SH_ERANGE;
	if (nthreads > plan->ntables)
		nthreads = plan->ntables;
	if (nthreads < 1)
		nthreads = 1;
	jobs = calloc((size_t)nthreads, sizeof(*jobs));
	tid = calloc((size_t)nthreads, sizeof(*tid));
	if (jobs == NULL || tid == NULL) {
		free(jobs);
		free(tid);
		return SH_ENOMEM;
	}
	done.pg = pg;
	done.total = tables(plan, shard);
	for (t = 0; t < nthreads; t++) {
		jobs[t].done = &done;
		jobs[t].fp = fp;
		jobs[t].n = n;
		jobs[t].plan = plan;
		jobs[t].shard = shard;
		jobs[t].first = t;
		jobs[t].step = nthreads;
	}
	/* Thread 0's share runs here; others in threads when they start. */
	for (started = 1; started < nthreads; started++)
		if (pthread_create(&tid[started], NULL, work,
		    &jobs[started]) != 0)
			break;
	work(&jobs[0]);
	for (t = 1; t < started; t++)
		pthread_join(tid[t], NULL);
	/* Tables a thread could not start are done here, in order. */
	for (t = started; t < nthreads; t++)
		work(&jobs[t]);
	/* The threads' pairs into out, each array freed once copied: the
	 * first one taken as it is when out is empty. */
	for (t = 0, total = out->n; t < nthreads; t++) {
		if (jobs[t].err)
			err = jobs[t].err;
		total += jobs[t].pairs.n;
	}
	if (err == 0 && out->n == 0) {
		free(out->v);
		*out = jobs[0].pairs;
		memset(&jobs[0].pairs, 0, sizeof(jobs[0].pairs));
	}
	if (err == 0 && total > out->cap) {
		if ((nv = realloc(out->v, total * sizeof(*nv))) == NULL)
			err = SH_ENOMEM;
		else {
			out->v = nv;
			out->cap = total;
		}
	}
	for (t = 0; t < nthreads; t++) {
		if (err == 0 && jobs[t].pairs.n > 0) {
			memcpy(out->v + out->n, jobs[t].pairs.v,
			    jobs[t].pairs.n * sizeof(*nv));
			out->n += jobs[t].pairs.n;
		}
		free(jobs[t].pairs.v);
	}
	free(jobs);
	free(tid);
	if (err == 0)
		sh_pairs_sort(out);
	return err;
}

/* The pairs of the run r[0..n) of (fingerprint, index) of table t, into
 * the external sort of pairs. */
static int
ext_run(const struct sh_plan *plan, int t, const struct sh_xrec *r,
    size_t n, struct sh_xsort *pairs)
{
	size_t x, y;
	int e;

	for (x = 0; x < n; x++)
		for (y = x + 1; y < n; y++) {
			if (!owned(plan, t, r[x].a, r[y].a))
				continue;
			/* The run is in key order: the earlier index first. */
			if ((e = sh_xsort_add(pairs, r[x].b < r[y].b ?
			    r[x].b << 32 | r[y].b : r[y].b << 32 | r[x].b,
			    (uint64_t)sh_hamming(r[x].a, r[y].a))) != 0)
				return e;
		}
	return 0;
}

/* One table of the external join: sort, then pairs within each run. */
static int
ext_table(struct sh_fpstore *st, const struct sh_plan *plan, int t,
    const struct sh_shard *shard, size_t budget, const char *tmpdir,
    struct sh_xsort *pairs)
{
	struct sh_xsort *x;
	struct sh_xrec r, *run = NULL;	/* run: (fingerprint, index) */
	size_t n = 0, cap = 0;
	uint64_t fp, i, key = 0;
	int shift = SH_FP_BITS - plan->keybits[t], e, more;

	if ((x = sh_xsort_new(budget, tmpdir)) == NULL)
		return SH_ENOMEM;
	if ((e = sh_fpstore_rewind(st)) != 0)
		goto out;
	for (i = 0; (e = sh_fpstore_next(st, &fp)) == 1; i++)
		if ((e = sh_xsort_add(x, sh_plan_perm(plan, t, fp), i)) != 0)
			goto out;
	if (e < 0)
		goto out;
	/* Runs of equal key: key is the top keybits of the permutation. */
	for (;;) {
		if ((e = more = sh_xsort_next(x, &r)) < 0)
			goto out;
		if (n > 0 && (!more || r.a >> shift != key)) {
			if ((shard == NULL || sh_shard_run(shard, t,
			    plan->ntables, key) == shard->i) &&
			    (e = ext_run(plan, t, run, n, pairs)) != 0)
				goto out;
			n = 0;
		}
		if (!more)
			break;
		if (n == cap && (e = sh_grow(&run, &cap, n + 1,
		    sizeof(*run))) != 0)
			goto out;
		key = r.a >> shift;
		run[n].a = sh_plan_unperm(plan, t, r.a);
		run[n++].b = r.b;
	}
	e = 0;
out:
	free(run);
	sh_xsort_free(x);
	return e;
}

int
sh_join_ext(struct sh_fpstore *st, const struct sh_plan *plan,
    const struct sh_shard *shard, size_t budget, const char *tmpdir,
    const struct sh_progress *pg, struct sh_xsort **pairs)
{
	uint64_t done = 0, total = tables(plan, shard);
	int t, e;

	if (st->n >= (uint64_t)1 << 32)
		return SH_ERANGE;
	if ((*pairs = sh_xsort_new(budget / 2, tmpdir)) == NULL)
		return SH_ENOMEM;
	for (t = 0; t < plan->ntables; t++) {
		if (shard != NULL && !sh_shard_table(shard, t, plan->ntables))
			continue;
		if ((e = ext_table(st, plan, t, shard, budget / 2, tmpdir,
		    *pairs)) != 0)
			return e;
		sh_progress(pg, "table", ++done, total);
	}
	return 0;
}

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/grow.h"
#include "base/radix.h"
#include "base/shard.h"
#include "base/threads.h"
#include "base/xsort.h"
#include "near/fpstore.h"
#include "near/join.h"

#if SH_FP_BITS != 64
#error "the external join sorts a fingerprint as one 64-bit word"
#endif

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

/* Bits up to the highest set bit of v. */
static int
width(uint64_t v)
{
	int w = 0;

	for (; v != 0; v >>= 1)
		w++;
	return w;
}

void
sh_pairs_sort(struct sh_pairs *p)
{
	uint64_t *v = p->v, *tmp, all = 0;
	size_t i;

	if (p->n < 1024 || (tmp = malloc(p->n * sizeof(*tmp))) == NULL) {
		if (p->n > 1)
			qsort(p->v, p->n, sizeof(*p->v), cmp64);
		return;
	}
	/* Only the bits the indexes use: j's, then i's. */
	for (i = 0; i < p->n; i++)
		all |= v[i];
	sh_radix_bits(&v, &tmp, p->n, 0, width(all & 0xFFFFFFFF), 11);
	sh_radix_bits(&v, &tmp, p->n, 32, width(all >> 32), 11);
	if (v != p->v) {
		memcpy(p->v, v, p->n * sizeof(*v));
		tmp = v;
	}
	free(tmp);
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

/*
 * The in-memory join sorts, for each table, one array of 64-bit records
 * in buckets by the key's top digit (TOPBITS bits): in a record, from the
 * top, the key's bits below that digit (of its top 32 bits at most), a
 * sketch, the index.  Fingerprints sharing a key share those bits, and a
 * run of equal truncated keys holding fingerprints of different keys
 * only costs comparisons, since a table owns a pair only when all its key
 * blocks agree (owned).  The sketch is as many bits of the fingerprint
 * outside the key as the record has room for (21 or 22 at 100 million):
 * two members of a run whose sketches differ in more than k bits are no
 * pair, known without reading their fingerprints at random.  (With 11
 * bits, as when the record held the whole key, one random pair in 9
 * passed at k = 3, and reading their fingerprints was a third of the join
 * at 100 million.)  Every table is sorted by all the threads together:
 *
 *   1. each thread counts the top digits (TOPBITS bits of the key) of a
 *      slice of the fingerprints;
 *   2. each thread makes the records of its slice and puts them in the
 *      buckets of their top digits, after the slices before it: stable;
 *   3. the threads take buckets in turn, sort each in cache by the key's
 *      other bits (LSD, stable, digits of at most LOWBITS bits, through
 *      a scratch array of their own), and compare the members of each
 *      run of equal keys.
 *
 * Memory: the records, 8 bytes per fingerprint, shared, plus each
 * thread's scratch (the largest bucket), the counts and the pairs.
 */

#define TOPBITS 10	/* 100 million: buckets of some 100,000 records,
			 * 800 KB, which sort in the L2 cache; 12 bits
			 * (buckets of 200 KB) took some 10 % longer */
#define LOWBITS 8
#define PENDING 32	/* pairs of short runs waiting for their fps */

/* The key of a fingerprint in a table: the sum over parts of (fp &
 * mask) >> shift, a part for each run of contiguous key blocks. */
struct keyfn {
	uint64_t mask[SH_PLAN_BMAX];
	int shift[SH_PLAN_BMAX], n;
};

/* What the threads of a table share. */
struct table {
	const sh_fpval *fp;
	size_t n;
	const struct sh_plan *plan;
	const struct sh_shard *shard;
	int t, nthreads;
	int bits, drop;		/* key bits sorted, low key bits dropped */
	int top;		/* bits of the top digit, the bucket */
	int low;		/* key bits in a record: bits - top */
	int ib, sk;		/* bits of the index, of the sketch */
	struct keyfn key, rest;	/* the key's blocks, the others */
	uint64_t *rec;		/* the records, in the buckets */
	size_t *count;		/* [thread][digit]: counts, then offsets */
	size_t *start;		/* bucket d is rec[start[d] .. start[d + 1]) */
	pthread_mutex_t mu;
	size_t next;		/* the next bucket to take */
};

/* One thread's share of a table, and its pairs across the tables. */
struct worker {
	struct table *tb;
	int id;
	void (*step)(struct worker *);
	uint64_t *scratch;	/* for the sort of a bucket */
	size_t scap;
	uint64_t *runfp;	/* a long run's fingerprints, gathered */
	uint32_t *runix;	/* and their indexes */
	size_t fpcap, ixcap;
	uint32_t px[PENDING], py[PENDING];	/* pairs whose fingerprints
				 * were asked for: ring, next at ph */
	unsigned np, ph;
	struct sh_pairs pairs;
	int err;
};

/* The parts of the blocks of set (a bit per block): contiguous ones
 * merged, each moved right to its place, the first block highest. */
static void
block_parts(const struct sh_plan *p, uint32_t set, struct keyfn *k)
{
	int i, dest = 0, sh;

	k->n = 0;
	for (i = p->nblocks - 1; i >= 0; i--) {
		if (!(set >> i & 1))
			continue;
		sh = p->bshift[i] - dest;
		if (k->n > 0 && k->shift[k->n - 1] == sh)
			k->mask[k->n - 1] |= p->bmask[i];
		else {
			k->mask[k->n] = p->bmask[i];
			k->shift[k->n++] = sh;
		}
		dest += p->blen[i];
	}
}

/* The key of fp (sh_plan_key). */
static uint64_t
key_of(const struct keyfn *k, uint64_t fp)
{
	uint64_t key = 0;
	int j;

	for (j = 0; j < k->n; j++)
		key |= (fp & k->mask[j]) >> k->shift[j];
	return key;
}

/* Slice i of n records among the threads: [*lo, *hi). */
static void
slice(const struct table *tb, int i, size_t *lo, size_t *hi)
{
	*lo = tb->n / (size_t)tb->nthreads * (size_t)i;
	*hi = i == tb->nthreads - 1 ? tb->n : *lo + tb->n /
	    (size_t)tb->nthreads;
}

/* The key of table t (sh_plan_key). */
static void
key_parts(const struct sh_plan *p, int t, struct keyfn *k)
{
	block_parts(p, p->tblocks[t], k);
}

/* Step 1: the counts of the top digits of a slice. */
static void
count_top(struct worker *w)
{
	struct table *tb = w->tb;
	size_t lo, hi, i, *count = tb->count + ((size_t)w->id << tb->top);

	slice(tb, w->id, &lo, &hi);
	memset(count, 0, sizeof(*count) << tb->top);
	for (i = lo; i < hi; i++)
		count[key_of(&tb->key, tb->fp[i]) >> tb->drop >> tb->low]++;
}

/* Step 2: the records of the slice into the buckets of their top
 * digits. */
static void
scatter_top(struct worker *w)
{
	struct table *tb = w->tb;
	size_t lo, hi, i, *off = tb->count + ((size_t)w->id << tb->top);
	uint64_t key, skmask = ((uint64_t)1 << tb->sk) - 1, fp;

	slice(tb, w->id, &lo, &hi);
	for (i = lo; i < hi; i++) {
		fp = tb->fp[i];
		key = key_of(&tb->key, fp) >> tb->drop;
		tb->rec[off[key >> tb->low]++] = key << (63 - tb->low) << 1 |
		    (key_of(&tb->rest, fp) & skmask) << tb->ib | i;
	}
}

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

/* Whether records a and b of a run (equal keys) may be a pair: their
 * sketches within k. */
static int
sketch_near(const struct table *tb, uint64_t a, uint64_t b)
{
	return sh_hamming((a ^ b) >> tb->ib, 0) <= tb->plan->k;
}

/* Fingerprints x and y of a run, within k: a pair of table t when it
 * owns them, and, with a shard, when the shard takes their key. */
static int
run_pair(struct worker *w, uint32_t x, uint32_t y)
{
	const struct table *tb = w->tb;

	if (!owned(tb->plan, tb->t, tb->fp[x], tb->fp[y]))
		return 0;
	/* A shard takes the runs of whole keys. */
	if (tb->shard != NULL && tb->drop > 0 &&
	    sh_shard_run(tb->shard, tb->t, tb->plan->ntables,
	    key_of(&tb->key, tb->fp[x])) != tb->shard->i)
		return 0;
	return sh_pairs_add(&w->pairs, (uint64_t)x << 32 | y);
}

/*
 * A pair of a short run whose sketches pass, read PENDING pairs later:
 * its fingerprints lie anywhere in fp, and asked for that far ahead they
 * are in cache when read.  (Asked for a bucket ahead, most were not: a
 * bucket's thousands of misses outrun what the core tracks.)  The order
 * of the pairs does not matter: gather sorts them.
 */
static int
pend_pair(struct worker *w, uint32_t x, uint32_t y)
{
	const struct table *tb = w->tb;
	int e;

	if (w->np == PENDING) {
		if ((e = run_pair(w, w->px[w->ph], w->py[w->ph])) != 0)
			return e;
	} else
		w->np++;
	SH_PREFETCH(&tb->fp[x]);
	SH_PREFETCH(&tb->fp[y]);
	w->px[w->ph] = x;
	w->py[w->ph] = y;
	w->ph = (w->ph + 1) % PENDING;
	return 0;
}

/* The pairs pend_pair holds. */
static int
pend_drain(struct worker *w)
{
	unsigned i;
	int e;

	for (i = PENDING - w->np; w->np > 0; i++, w->np--)
		if ((e = run_pair(w, w->px[(w->ph + i) % PENDING],
		    w->py[(w->ph + i) % PENDING])) != 0)
			return e;
	return 0;
}

/* What is done with a pair (i, j) of positions of a run, within k:
 * return 0 or an error. */
typedef int run_fn(void *ctx, size_t i, size_t j);

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_RUN_AVX512

/* The lanes of f[j..j + 8) within k of a, of those in mask lanes. */
__attribute__((target("avx512f,avx512vpopcntdq")))
static inline __mmask8
near8(__m512i a, const uint64_t *f, __mmask8 lanes, __m512i k)
{
	__m512i d = _mm512_maskz_loadu_epi64(lanes, f);

	d = _mm512_popcnt_epi64(_mm512_xor_si512(a, d));
	return _mm512_mask_cmple_epu64_mask(lanes, d, k);
}

/* fn(ctx, i, j + b) for the bits b of near. */
static int
near_pairs(run_fn *fn, void *ctx, size_t i, size_t j, unsigned near)
{
	int e;

	for (; near != 0; near &= near - 1)
		if ((e = fn(ctx, i, j + (size_t)__builtin_ctz(near))) != 0)
			return e;
	return 0;
}

/*
 * fn for the pairs i < j of the run of fingerprints f[0..m) within k, in
 * order: each against the next 32 at a time by AVX-512's population
 * count, with one test for the four vectors (pairs are few).
 */
__attribute__((target("avx512f,avx512vpopcntdq")))
static int
run_avx512(const uint64_t *f, size_t m, int kk, run_fn *fn, void *ctx)
{
	__m512i a, k = _mm512_set1_epi64(kk);
	__mmask8 n0, n1, n2, n3;
	size_t i, j;
	int e;

	for (i = 0; i + 1 < m; i++) {
		a = _mm512_set1_epi64((long long)f[i]);
		for (j = i + 1; j + 32 <= m; j += 32) {
			n0 = near8(a, f + j, 0xFF, k);
			n1 = near8(a, f + j + 8, 0xFF, k);
			n2 = near8(a, f + j + 16, 0xFF, k);
			n3 = near8(a, f + j + 24, 0xFF, k);
			if ((n0 | n1 | n2 | n3) != 0 &&
			    (e = near_pairs(fn, ctx, i, j, (unsigned)n0 |
			    (unsigned)n1 << 8 | (unsigned)n2 << 16 |
			    (unsigned)n3 << 24)) != 0)
				return e;
		}
		for (; j < m; j += 8)
			if ((n0 = near8(a, f + j, m - j >= 8 ? 0xFF :
			    (__mmask8)((1u << (m - j)) - 1), k)) != 0 &&
			    (e = near_pairs(fn, ctx, i, j, n0)) != 0)
				return e;
	}
	return 0;
}
#endif

static int vector_runs = 1;

void
sh_join_vector(int on)
{
	vector_runs = on;
}

/* Whether a run of m is compared by run_avx512 (sh_plan_join counts on
 * it from 16). */
static int
vector_run(size_t m)
{
#ifdef HAVE_RUN_AVX512
	return m >= 16 && vector_runs &&
	    __builtin_cpu_supports("avx512vpopcntdq");
#else
	(void)m;
	return 0;
#endif
}

/* A pair of a run of the join in memory: its indexes are ix. */
struct inrun {
	struct worker *w;
	const uint32_t *ix;
};

static int
in_pair(void *ctx, size_t i, size_t j)
{
	struct inrun *c = ctx;

	return run_pair(c->w, c->ix[i], c->ix[j]);
}

/*
 * The pairs of the run r[0..m) of equal (truncated) keys, indexes
 * ascending (the sorts are stable).  Most pairs of a short run are ruled
 * out by their sketches alone; a run of 16 or more (the plans of
 * sh_plan_join make them common) is compared eight pairs at a time where
 * the processor can, its fingerprints gathered first.
 */
static int
run_pairs(struct worker *w, const uint64_t *r, size_t m)
{
	const struct table *tb = w->tb;
	uint64_t imask = ((uint64_t)1 << tb->ib) - 1;
	uint32_t x, y;
	size_t i, j;
	int e;

#ifdef HAVE_RUN_AVX512
	struct inrun c = { w, NULL };

	if (vector_run(m)) {
		if (sh_grow(&w->runfp, &w->fpcap, m, sizeof(*w->runfp)) != 0 ||
		    sh_grow(&w->runix, &w->ixcap, m, sizeof(*w->runix)) != 0)
			return SH_ENOMEM;
		for (i = 0; i < m; i++) {
			w->runix[i] = (uint32_t)(r[i] & imask);
			w->runfp[i] = tb->fp[w->runix[i]];
		}
		c.ix = w->runix;
		return run_avx512(w->runfp, m, tb->plan->k, in_pair, &c);
	}
#endif
	for (i = 0; i < m; i++)
		for (j = i + 1; j < m; j++) {
			x = (uint32_t)(r[i] & imask);
			y = (uint32_t)(r[j] & imask);
			if (sketch_near(tb, r[i], r[j]) &&
			    (e = pend_pair(w, x, y)) != 0)
				return e;
		}
	return 0;
}

/* The key bits of record r, which are its top 64 - ks - 1: two shifts,
 * since a record may hold none (ks 63), and a shift by 64 is undefined. */
static uint64_t
rec_key(uint64_t r, int ks)
{
	return r >> ks >> 1;
}

/* The end of the run of equal keys that starts at s[i], of s[0..n). */
static size_t
run_end(const uint64_t *s, size_t i, size_t n, int ks)
{
	size_t e;

	for (e = i + 1; e < n && rec_key(s[e], ks) == rec_key(s[i], ks); e++)
		;
	return e;
}

/* Step 3: buckets taken in turn, sorted, their runs compared. */
static void
sort_buckets(struct worker *w)
{
	struct table *tb = w->tb;
	size_t d, dend, lo, hi, i, e, nd = (size_t)1 << tb->top;
	uint64_t *s, *buf, imask = ((uint64_t)1 << tb->ib) - 1;
	int ks = 63 - tb->low;	/* rec_key */

	for (;;) {
		pthread_mutex_lock(&tb->mu);
		d = tb->next;
		tb->next += 16;
		pthread_mutex_unlock(&tb->mu);
		if (w->err)
			return;
		if (d >= nd) {
			w->err = pend_drain(w);
			return;
		}
		for (dend = d + 16; d < dend && d < nd; d++) {
			lo = tb->start[d];
			hi = tb->start[d + 1];
			if (hi - lo < 2)
				continue;
			/* By the key bits below the top digit, in cache:
			 * small digits, for small buckets. */
			if (sh_grow(&w->scratch, &w->scap, hi - lo,
			    sizeof(*w->scratch)) != 0) {
				w->err = SH_ENOMEM;
				return;
			}
			s = tb->rec + lo;
			buf = w->scratch;
			sh_radix_bits(&s, &buf, hi - lo, ks + 1, tb->low, LOWBITS);
			/* The fingerprints of long runs lie anywhere in fp:
			 * asked for a bucket ahead, their misses overlap.
			 * Where keys average fewer than 4 fingerprints, long
			 * runs are rare: no pass for them. */
			for (i = 0; i < hi - lo && tb->n >> tb->bits >= 4;
			    i = e)
				if (vector_run((e = run_end(s, i, hi - lo,
				    ks)) - i))
					for (; i < e; i++)
						SH_PREFETCH(&tb->fp[s[i] &
						    imask]);
			for (i = 0; i < hi - lo; i = e) {
				e = run_end(s, i, hi - lo, ks);
				if (e - i < 2 || (tb->shard != NULL &&
				    tb->drop == 0 && sh_shard_run(tb->shard, tb->t,
				    tb->plan->ntables, d << tb->low |
				    rec_key(s[i], ks)) !=
				    tb->shard->i))
					continue;
				if ((w->err = run_pairs(w, s + i, e - i)) != 0)
					return;
			}
		}
	}
}
static void *
thread_main(void *arg)
{
	struct worker *w = arg;

	w->step(w);
	return NULL;
}

/* Run step on every worker, on threads (base/threads.h). */
static void
parallel(struct worker *w, int n, void (*step)(struct worker *))
{
	int i;

	for (i = 0; i < n; i++)
		w[i].step = step;
	sh_threads_run(w, sizeof(*w), n, thread_main);
}

/* The pairs of the workers into out, each array freed once copied. */
static int
gather(struct worker *w, int n, struct sh_pairs *out)
{
	size_t total = out->n;
	uint64_t *nv;
	int i, err = 0;

	for (i = 0; i < n; i++) {
		if (w[i].err)
			err = w[i].err;
		total += w[i].pairs.n;
	}
	if (err == 0 && out->n == 0) {
		/* The first array taken as it is. */
		free(out->v);
		*out = w[0].pairs;
		memset(&w[0].pairs, 0, sizeof(w[0].pairs));
	}
	if (err == 0 && total > out->cap) {
		if ((nv = realloc(out->v, total * sizeof(*nv))) == NULL)
			err = SH_ENOMEM;
		else {
			out->v = nv;
			out->cap = total;
		}
	}
	for (i = 0; i < n; i++) {
		if (err == 0 && w[i].pairs.n > 0) {
			memcpy(out->v + out->n, w[i].pairs.v,
			    w[i].pairs.n * sizeof(*nv));
			out->n += w[i].pairs.n;
		}
		free(w[i].pairs.v);
	}
	if (err == 0)
		sh_pairs_sort(out);
	return err;
}

/* One table sorted and joined by the workers. */
static void
join_table(struct table *tb, struct worker *w)
{
	size_t d, nd, sum, c, *cnt;
	int th, kb = tb->plan->keybits[tb->t];

	key_parts(tb->plan, tb->t, &tb->key);
	tb->bits = kb < 32 ? kb : 32;
	tb->drop = kb - tb->bits;
	tb->top = tb->bits < TOPBITS ? tb->bits : TOPBITS;
	tb->low = tb->bits - tb->top;
	block_parts(tb->plan, ~tb->plan->tblocks[tb->t] &
	    (((uint32_t)1 << tb->plan->nblocks) - 1), &tb->rest);
	tb->ib = tb->n > 1 ? width(tb->n - 1) : 1;
	tb->sk = 64 - tb->low - tb->ib;
	nd = (size_t)1 << tb->top;
	parallel(w, tb->nthreads, count_top);
	/* Offsets: digit by digit, each slice after those before it. */
	for (d = 0, sum = 0; d < nd; d++) {
		tb->start[d] = sum;
		for (th = 0; th < tb->nthreads; th++) {
			cnt = &tb->count[((size_t)th << tb->top) + d];
			c = *cnt;
			*cnt = sum;
			sum += c;
		}
	}
	tb->start[nd] = sum;
	parallel(w, tb->nthreads, scatter_top);
	tb->next = 0;
	parallel(w, tb->nthreads, sort_buckets);
}

int
sh_join(const sh_fpval *fp, size_t n, const struct sh_plan *plan,
    int nthreads, const struct sh_shard *shard, const struct sh_progress *pg,
    struct sh_pairs *out)
{
	struct worker w[SH_THREADS_MAX];
	struct table tb;
	uint64_t done = 0, total = tables(plan, shard);
	int t, i, err = 0;

	if ((uint64_t)n >= (uint64_t)1 << 32)
		return SH_ERANGE;
	/* Small inputs: threads would cost more than they save. */
	if (nthreads < 1 || n < 1024)
		nthreads = 1;
	if (nthreads > SH_THREADS_MAX)
		nthreads = SH_THREADS_MAX;
	memset(&tb, 0, sizeof(tb));
	memset(w, 0, sizeof(w[0]) * (size_t)nthreads);
	tb.fp = fp;
	tb.n = n;
	tb.plan = plan;
	tb.shard = shard;
	tb.nthreads = nthreads;
	tb.rec = malloc(n * sizeof(*tb.rec) + 1);
	tb.count = malloc(((size_t)nthreads << TOPBITS) * sizeof(*tb.count));
	tb.start = malloc((((size_t)1 << TOPBITS) + 1) * sizeof(*tb.start));
	if (tb.rec == NULL || tb.count == NULL || tb.start == NULL)
		err = SH_ENOMEM;
	else	/* written at random: TLB misses */
		sh_hugepages(tb.rec, n * sizeof(*tb.rec));
	pthread_mutex_init(&tb.mu, NULL);
	for (i = 0; i < nthreads; i++) {
		w[i].tb = &tb;
		w[i].id = i;
	}
	for (t = 0; t < plan->ntables && err == 0; t++) {
		if (shard != NULL && !sh_shard_table(shard, t, plan->ntables))
			continue;
		tb.t = t;
		join_table(&tb, w);
		for (i = 0; i < nthreads; i++)
			if (w[i].err)
				err = w[i].err;
		sh_progress(pg, "table", ++done, total);
	}
	pthread_mutex_destroy(&tb.mu);
	free(tb.rec);
	free(tb.count);
	for (i = 0; i < nthreads; i++) {
		free(w[i].scratch);
		free(w[i].runfp);
		free(w[i].runix);
	}
	free(tb.start);
	if (err != 0) {
		for (i = 0; i < nthreads; i++)
			free(w[i].pairs.v);
		return err;
	}
	return gather(w, nthreads, out);
}

/* A run of the external join: records r of table t, pairs into pairs. */
struct extrun {
	const struct sh_plan *plan;
	int t;
	const struct sh_xrec *r;
	struct sh_xsort *pairs;
};

static int
ext_pair(void *ctx, size_t x, size_t y)
{
	struct extrun *c = ctx;
	const struct sh_xrec *r = c->r;

	if (!owned(c->plan, c->t, r[x].a, r[y].a))
		return 0;
	/* The run is in key order: the earlier index first. */
	return sh_xsort_add(c->pairs, r[x].b < r[y].b ? r[x].b << 32 | r[y].b :
	    r[y].b << 32 | r[x].b, (uint64_t)sh_hamming(r[x].a, r[y].a));
}

/* What the external join keeps from one table to the next: the records
 * of part_table (their pages faulted in once), and a long run's
 * fingerprints, gathered. */
struct parts {
	struct sh_xrec *rec, *tmp;
	uint64_t *runfp;
	size_t fpcap;
};

/* The pairs of the run r[0..n) of (fingerprint, index) of table t, into
 * the external sort of pairs; a long one by the vector code, its
 * fingerprints gathered into pt. */
static int
ext_run(const struct sh_plan *plan, int t, const struct sh_xrec *r,
    size_t n, struct parts *pt, struct sh_xsort *pairs)
{
	struct extrun c = { plan, t, r, pairs };
	size_t x, y;
	int e;

#ifdef HAVE_RUN_AVX512
	if (vector_run(n)) {
		if (sh_grow(&pt->runfp, &pt->fpcap, n, sizeof(*pt->runfp)) != 0)
			return SH_ENOMEM;
		for (x = 0; x < n; x++)
			pt->runfp[x] = r[x].a;
		return run_avx512(pt->runfp, n, plan->k, ext_pair, &c);
	}
#else
	(void)pt;
#endif
	for (x = 0; x < n; x++)
		for (y = x + 1; y < n; y++)
			if ((e = ext_pair(&c, x, y)) != 0)
				return e;
	return 0;
}

/*
 * A table of the external join sorted in memory, in parts: when keys are
 * at most 32 bits and 7/8 of the budget holds the records (fingerprint,
 * key << 32 | index) of all the fingerprints in PARTS_MAX parts or
 * fewer, the store is read once to count the top PARTBITS key bits, then
 * once per part, each taking the records of a range of top bits, sorted
 * by key (radix, stable, through the other eighth, which must hold a
 * bucket), its runs compared.  Return 1 when done, 0 when the table must
 * be sorted on disk (long keys, a small budget, or a top-bits bucket
 * over an eighth of the budget: few distinct keys), or an error.
 */
#define PARTS_MAX 8
#define PARTBITS 12

/* Sort r[0..n) by the top bits bits of b's high half (the key), stable,
 * through tmp; return the array holding the result. */
static struct sh_xrec *
sort_recs(struct sh_xrec *r, struct sh_xrec *tmp, size_t n, int bits)
{
	size_t count[1 << 11], i, sum, c;
	struct sh_xrec *t;
	int passes = (bits + 10) / 11, w, p, shift;
	uint64_t mask;

	if (bits == 0)
		return r;
	w = (bits + passes - 1) / passes;
	mask = ((uint64_t)1 << w) - 1;
	for (p = 0, shift = 32; p < passes; p++, shift += w) {
		memset(count, 0, sizeof(count[0]) << w);
		for (i = 0; i < n; i++)
			count[r[i].b >> shift & mask]++;
		for (i = 0, sum = 0; i <= mask; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			tmp[count[r[i].b >> shift & mask]++] = r[i];
		t = r;
		r = tmp;
		tmp = t;
	}
	return r;
}
#define READ_STEP 4096

static int
part_table(struct sh_fpstore *st, const struct sh_plan *plan, int t,
    const struct sh_shard *shard, size_t budget, struct parts *pt,
    struct sh_xsort *pairs)
{
	struct sh_xrec *rec, *tmp, *s;
	struct keyfn kf;
	sh_fpval buf[READ_STEP];
	const sh_fpval *v;
	uint64_t n = st->n, m = budget / sizeof(*rec) / 8 * 7, cnt, key, i;
	uint64_t m8 = budget / sizeof(*rec) / 8;	/* the scratch */
	size_t *hist = NULL, d, e, nd, k, x, x0, r, b, c;
	long got, j;
	int kb = plan->keybits[t], top = kb < PARTBITS ? kb : PARTBITS, err;

	if (n == 0)
		return 1;
	if (kb > 32 || m == 0 || (n + m - 1) / m > PARTS_MAX)
		return 0;
	key_parts(plan, t, &kf);
	nd = (size_t)1 << top;
	if ((hist = calloc(nd, sizeof(*hist))) == NULL)
		return SH_ENOMEM;
	if ((err = sh_fpstore_rewind(st)) != 0)
		goto out;
	while ((got = sh_fpstore_read(st, buf, READ_STEP, &v)) > 0)
		for (j = 0; j < got; j++)
			hist[key_of(&kf, v[j]) >> (kb - top)]++;
	if ((err = got < 0 ? (int)got : 0) != 0)
		goto out;
	for (d = 0; d < nd; d++)
		if (hist[d] > m8)
			goto out;	/* err 0: on disk */
	if ((pt->rec == NULL && (pt->rec = malloc(m * sizeof(*rec))) ==
	    NULL) || (pt->tmp == NULL && (pt->tmp = malloc(m8 *
	    sizeof(*tmp))) == NULL)) {
		err = SH_ENOMEM;
		goto out;
	}
	rec = pt->rec;
	tmp = pt->tmp;
	for (d = 0; d < nd; d = e) {
		/* The part: top bits [d, e), at most m records, scattered
		 * by their top bits into buckets (hist[] becomes where each
		 * bucket starts), in input order within one. */
		for (cnt = 0, e = d; e < nd && cnt + hist[e] <= m; e++) {
			c = hist[e];
			hist[e] = cnt;
			cnt += c;
		}
		if ((err = sh_fpstore_rewind(st)) != 0)
			goto out;
		for (i = 0; (got = sh_fpstore_read(st, buf, READ_STEP,
		    &v)) > 0;
		    i += (uint64_t)got)
			for (j = 0; j < got; j++) {
				key = key_of(&kf, v[j]);
				if ((b = key >> (kb - top)) - d < e - d) {
					k = hist[b]++;
					rec[k].a = v[j];
					rec[k].b = key << 32 | (i + (uint64_t)j);
				}
			}
		if ((err = got < 0 ? (int)got : 0) != 0)
			goto out;
		/* Each bucket, ending at hist[b] now, sorted by the rest of
		 * the key in cache, then its runs of equal key compared as
		 * in ext_table. */
		for (b = d, x0 = 0; b < e; x0 = hist[b++]) {
			k = hist[b] - x0;
			s = sort_recs(rec + x0, tmp, k, kb - top);
			for (x = 0; x < k; x = r) {
				for (r = x + 1; r < k &&
				    s[r].b >> 32 == s[x].b >> 32; r++)
					;
				if (r - x < 2 || (shard != NULL &&
				    sh_shard_run(shard, t, plan->ntables,
				    s[x].b >> 32) != shard->i))
					continue;
				for (i = x; i < r; i++)
					s[i].b &= 0xFFFFFFFF;	/* the index */
				if ((err = ext_run(plan, t, s + x, r - x, pt,
				    pairs)) != 0)
					goto out;
			}
		}
	}
	err = 1;
out:
	free(hist);
	return err;
}

/* One table of the external join: sort, then pairs within each run. */
static int
ext_table(struct sh_fpstore *st, const struct sh_plan *plan, int t,
    const struct sh_shard *shard, size_t budget, const char *tmpdir,
    struct parts *pt, struct sh_xsort *pairs)
{
	struct sh_xsort *x;
	struct sh_xrec r, *run = NULL;	/* run: (fingerprint, index) */
	size_t n = 0, cap = 0;
	uint64_t fp, i, key = 0;
	int shift = SH_FP_BITS - plan->keybits[t], e, more;

	if ((e = part_table(st, plan, t, shard, budget, pt, pairs)) != 0)
		return e < 0 ? e : 0;
	/* The external sort takes the budget the records held. */
	free(pt->rec);
	free(pt->tmp);
	pt->rec = pt->tmp = NULL;
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
			    (e = ext_run(plan, t, run, n, pt, pairs)) != 0)
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
	struct parts pt = { NULL, NULL, NULL, 0 };
	uint64_t done = 0, total = tables(plan, shard);
	int t, e = 0;

	if (st->n >= (uint64_t)1 << 32)
		return SH_ERANGE;
	if ((*pairs = sh_xsort_new(budget / 2, tmpdir)) == NULL)
		return SH_ENOMEM;
	for (t = 0; t < plan->ntables; t++) {
		if (shard != NULL && !sh_shard_table(shard, t, plan->ntables))
			continue;
		if ((e = ext_table(st, plan, t, shard, budget / 2, tmpdir,
		    &pt, *pairs)) != 0)
			break;
		sh_progress(pg, "table", ++done, total);
	}
	free(pt.rec);
	free(pt.tmp);
	free(pt.runfp);
	return e;
}

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "fp/simhash.h"
#include "fp/similar.h"
#include "text/fold.h"

/*
 * Unsigned integers of BIG_LIMBS 32-bit limbs, least significant first:
 * room for (2q - 1)^2 * sum a^2 * sum b^2 < 2^42 * 2^124 * 2^124.
 */
#define BIG_LIMBS 10

struct big {
	uint32_t l[BIG_LIMBS];
};

static void
big_set(struct big *b, uint64_t hi, uint64_t lo)
{
	memset(b, 0, sizeof(*b));
	b->l[0] = (uint32_t)lo;
	b->l[1] = (uint32_t)(lo >> 32);
	b->l[2] = (uint32_t)hi;
	b->l[3] = (uint32_t)(hi >> 32);
}

/* *out = a * b, which must fit. */
static void
big_mul(struct big *out, const struct big *a, const struct big *b)
{
	struct big r;
	uint64_t t;
	int i, j;

	memset(&r, 0, sizeof(r));
	for (i = 0; i < BIG_LIMBS; i++) {
		if (a->l[i] == 0)
			continue;
		t = 0;
		for (j = 0; i + j < BIG_LIMBS; j++) {
			t += (uint64_t)a->l[i] * b->l[j] + r.l[i + j];
			r.l[i + j] = (uint32_t)t;
			t >>= 32;
		}
	}
	*out = r;
}

static int
big_cmp(const struct big *a, const struct big *b)
{
	int i;

	for (i = BIG_LIMBS - 1; i >= 0; i--)
		if (a->l[i] != b->l[i])
			return a->l[i] < b->l[i] ? -1 : 1;
	return 0;
}

/* acc += a * b, acc being 128 bits: acc[0] high, acc[1] low. */
static void
mac(uint64_t acc[2], uint64_t a, uint64_t b)
{
	uint64_t al = a & 0xffffffff, ah = a >> 32;
	uint64_t bl = b & 0xffffffff, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffff) + (hl & 0xffffffff);
	uint64_t lo = (mid << 32) | (ll & 0xffffffff);
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);

	acc[1] += lo;
	acc[0] += hi + (acc[1] < lo);
}

/*
 * sqrt(num2 / den2) in millionths rounded half up, for num2 <= den2: the
 * largest q in 0..SH_SIM_ONE with (2q - 1)^2 den2 <= (2 10^6)^2 num2,
 * found by bisection in exact arithmetic.
 */
static uint32_t
round_root(const struct big *num2, const struct big *den2)
{
	struct big rhs, lhs, t;
	uint32_t lo = 0, hi = SH_SIM_ONE, q;
	uint64_t s;

	big_set(&t, 0, 4000000000000ULL);
	big_mul(&rhs, &t, num2);
	while (lo < hi) {
		q = lo + (hi - lo + 1) / 2;
		s = 2 * (uint64_t)q - 1;
		big_set(&t, 0, s * s);
		big_mul(&lhs, &t, den2);
		if (big_cmp(&lhs, &rhs) <= 0)
			lo = q;
		else
			hi = q - 1;
	}
	return lo;
}

/* n / d in millionths rounded half up, for n <= d, d > 0. */
static uint32_t
round_ratio(uint64_t n, uint64_t d)
{
	struct big bn, bd;

	/* floor((2 10^6 n + d) / 2d), when that fits in 64 bits. */
	if (d < (uint64_t)1 << 41)
		return (uint32_t)((2 * (uint64_t)SH_SIM_ONE * n + d) / (2 * d));

	big_set(&bn, 0, n);
	big_set(&bd, 0, d);
	big_mul(&bn, &bn, &bn);
	big_mul(&bd, &bd, &bd);
	return round_root(&bn, &bd);
}

void
sh_fvec_init(struct sh_fvec *v, int keep_text)
{
	memset(v, 0, sizeof(*v));
	v->keep_text = keep_text;
	v->chars = SH_FVEC_FEATURES;
}

void
sh_fvec_chars(struct sh_fvec *v, int what)
{
	v->chars = what;
}

void
sh_fvec_free(struct sh_fvec *v)
{
	free(v->e);
	free(v->text);
	free(v->h);
	free(v->w);
	free(v->bstart);
	free(v->c);
	v->c = NULL;
	v->nc = v->ccap = 0;
	v->bstart = NULL;
	v->bcap = 0;
	v->e = NULL;
	v->text = NULL;
	v->h = v->w = NULL;
	v->n = v->cap = v->tlen = v->tcap = v->hcap = 0;
	memset(&v->set, 0, sizeof(v->set));
}

static void
add(void *ctx, uint64_t hash, uint64_t w, const char *tok, size_t len)
{
	struct sh_fvec *v = ctx;
	struct sh_fvent *e;

	if (w == 0 || v->nomem)
		return;
	if (v->n == v->cap &&
	    sh_grow(&v->e, &v->cap, v->n + 1, sizeof(*v->e)) != 0) {
		v->nomem = 1;
		return;
	}
	e = &v->e[v->n];
	e->hash = hash;
	e->w = w;
	e->off = v->tlen;
	e->len = 0;
	if (v->keep_text) {
		if (v->tcap - v->tlen < len &&
		    sh_grow(&v->text, &v->tcap, v->tlen + len, 1) != 0) {
			v->nomem = 1;
			return;
		}
		memcpy(v->text + v->tlen, tok, len);
		v->tlen += len;
		e->len = len;
	}
	v->n++;
}

/* Room for n hashes and weights in v->h and v->w (those of h kept).
 * Return 0 or SH_ENOMEM. */
static int
room_hw(struct sh_fvec *v, size_t n)
{
	if (v->hcap >= n)
		return 0;
	if (sh_grow(&v->h, &v->hcap, n, sizeof(*v->h)) != 0 ||
	    (free(v->w), v->w = malloc(v->hcap * sizeof(*v->w))) == NULL) {
		v->hcap = 0;
		return SH_ENOMEM;
	}
	return 0;
}

/* Each occurrence of a feature of a text, its hash in h[nocc], until
 * sh_fvec_doc counts them. */
static void
add_hashes(void *ctx, const uint64_t *h, size_t n)
{
	struct sh_fvec *v = ctx;

	if (v->nomem || room_hw(v, v->nocc + n) != 0) {
		v->nomem = 1;
		return;
	}
	memcpy(v->h + v->nocc, h, n * sizeof(*h));
	v->nocc += n;
}

/* The 64-bit hash that an element begins with. */
static uint64_t
hash_at(const void *p)
{
	uint64_t h;

	memcpy(&h, p, sizeof(h));
	return h;
}

/*
 * Sort the n elements of size bytes (at most an entry's) at src into
 * dst by the hash each begins with, those of one hash in their order:
 * distributed by the top bits of the hash (hashes are uniform, so about
 * one element a bucket), in order, then sorted by insertion, which keeps
 * that order.  The bucket starts are v->bstart, kept from one
 * document to the next.  Inline, so that each caller's size is a
 * constant and its copies are moves.  Return 0 or SH_ENOMEM.
 */
static inline int
bucket_sort(struct sh_fvec *v, const void *src, void *dst, size_t n,
    size_t size)
{
	const unsigned char *a = src;
	unsigned char *t = dst, x[sizeof(struct sh_fvent)];
	size_t *start, i, j, k, b, nb;
	uint64_t h;
	int bits = 8;

	while (bits < 16 && ((size_t)1 << bits) < n)
		bits++;
	nb = (size_t)1 << bits;
	if (sh_grow(&v->bstart, &v->bcap, nb + 1, sizeof(*v->bstart)) != 0)
		return SH_ENOMEM;
	start = v->bstart;
	memset(start, 0, (nb + 1) * sizeof(*start));
	for (i = 0; i < n; i++)
		start[(hash_at(a + i * size) >> (64 - bits)) + 1]++;
	for (b = 0; b < nb; b++)
		start[b + 1] += start[b];
	for (i = 0; i < n; i++)
		memcpy(t + start[hash_at(a + i * size) >> (64 - bits)]++ * size,
		    a + i * size, size);
	/* Each element is in its bucket, and those of earlier buckets are
	 * less: one insertion pass over them all stops at each element's
	 * bucket, without a branch per bucket. */
	for (j = 1; j < n; j++) {
		h = hash_at(t + j * size);
		if (hash_at(t + (j - 1) * size) <= h)
			continue;
		memcpy(x, t + j * size, size);
		for (k = j; k > 0 && hash_at(t + (k - 1) * size) > h; k--)
			memcpy(t + k * size, t + (k - 1) * size, size);
		memcpy(t + k * size, x, size);
	}
	return 0;
}

/* The features of a text whose occurrences' hashes add_hashes put in h,
 * counted and weighed by f, into h and w (no entries).  Return 0 or
 * SH_ENOMEM. */
static int
count_hashes(struct sh_fvec *v, struct sh_fp *f)
{
	uint64_t *s = v->w;	/* the hashes sorted, then the weights */
	size_t i, j, n = 0;
	uint64_t w, flat = sh_fp_flat(f);

	if (bucket_sort(v, v->h, v->w, v->nocc, sizeof(*v->h)) != 0)
		return SH_ENOMEM;
	/* Feature n is written where occurrence i >= n was read. */
	for (i = 0; i < v->nocc; i = j) {
		for (j = i + 1; j < v->nocc && s[j] == s[i]; j++)
			;
		if ((w = flat ? flat : sh_fp_weigh(f, s[i], j - i)) == 0)
			continue;
		v->h[n] = s[i];
		s[n++] = w;
	}
	v->n = n;
	return 0;
}

/* Sort the entries by hash, entries of one hash in order of addition.
 * Return 0 or SH_ENOMEM. */
static int
sort_ent(struct sh_fvec *v)
{
	struct sh_fvent *t;

	if ((t = malloc(v->n * sizeof(*t))) == NULL ||
	    bucket_sort(v, v->e, t, v->n, sizeof(*t)) != 0) {
		free(t);
		return SH_ENOMEM;
	}
	free(v->e);
	v->e = t;
	v->cap = v->n;
	return 0;
}

static int features(struct sh_fvec *v, struct sh_fp *f, const char *p,
    size_t len, int tokens, int *bad, size_t *col);

int
sh_fvec_doc(struct sh_fvec *v, struct sh_fp *f, const char *p, size_t len,
    int tokens, int *bad, size_t *col)
{
	int r = 0;

	v->nc = 0;
	if (v->chars & SH_FVEC_FEATURES)
		r = features(v, f, p, len, tokens, bad, col);
	else {
		v->n = v->tlen = 0;
		v->sum = v->sq[0] = v->sq[1] = 0;
		memset(&v->set, 0, sizeof(v->set));
	}
	if (r == 0 && (v->chars & SH_FVEC_CHARS) && !tokens &&
	    (r = sh_fold_chars(p, len, sh_fp_simplify(f), &v->c, &v->ccap,
	    &v->nc, bad)) != 0)
		v->n = v->set.n = 0;
	v->set.c = v->c;
	v->set.nc = v->nc;
	return r;
}

/* The features of sh_fvec_doc. */
static int
features(struct sh_fvec *v, struct sh_fp *f, const char *p, size_t len,
    int tokens, int *bad, size_t *col)
{
	/* A text's features without their text are counted here, from
	 * their hashes, not in the fingerprinter's bag. */
	int counted = !tokens && !v->keep_text, uniform = 1;
	size_t i, n;
	int r;

	v->n = v->tlen = 0;
	v->nomem = 0;
	v->sum = v->sq[0] = v->sq[1] = 0;
	v->set.n = 0;
	v->nocc = 0;
	if ((r = counted ? sh_fp_hashes(f, p, len, add_hashes, v, bad) :
	    sh_fp_each(f, p, len, tokens, add, v, bad, col)) != 0 ||
	    (r = v->nomem ? SH_ENOMEM : 0) != 0 ||
	    (r = counted ? count_hashes(v, f) : v->n > 1 ? sort_ent(v) : 0) !=
	    0) {
		v->n = 0;
		return r;
	}
	/* A token listed twice is one feature: weights add up, the first
	 * text stays; then the hashes and weights in h and w, where
	 * count_hashes put a text's already. */
	if (!counted) {
		for (i = n = 0; i < v->n; i++) {
			if (n > 0 && v->e[n - 1].hash == v->e[i].hash)
				v->e[n - 1].w += v->e[i].w;
			else
				v->e[n++] = v->e[i];
		}
		if (room_hw(v, n) != 0) {
			v->n = 0;
			return SH_ENOMEM;
		}
		for (i = 0; i < n; i++) {
			v->h[i] = v->e[i].hash;
			v->w[i] = v->e[i].w;
		}
		v->n = n;
	}
	n = v->n;
	for (i = 0; i < n; i++) {
		v->sum += v->w[i];
		uniform &= v->w[i] == v->w[0];
	}
	/* Weights all alike (binary ones): the squares at once. */
	if (n > 0 && uniform && v->w[0] < (uint64_t)1 << 32)
		mac(v->sq, v->w[0] * v->w[0], n);
	else
		for (i = 0; i < n; i++)
			mac(v->sq, v->w[i], v->w[i]);
	v->set.h = v->h;
	v->set.w = v->w;
	v->set.n = n;
	v->set.sum = v->sum;
	v->set.sq[0] = v->sq[0];
	v->set.sq[1] = v->sq[1];
	return 0;
}

sh_fpval
sh_fvec_fp(const struct sh_fvec *v)
{
	struct sh_simhash acc;
	size_t i;

	/* Each feature once with its whole weight adds up to the same sums
	 * as the fingerprinter's additions (with tf, in SH_W_UNIT times
	 * its units, which leaves every sign alone).  Weights all alike
	 * (binary ones) are votes of 1 times that weight: the same signs,
	 * from the fast additions. */
	sh_simhash_init(&acc);
	for (i = 1; i < v->n && v->w[i] == v->w[0]; i++)
		;
	if (i == v->n && v->n > 0)
		sh_simhash_add_many(&acc, v->h, v->n);
	else
		for (i = 0; i < v->n; i++)
			sh_simhash_addw(&acc, v->h[i], v->w[i]);
	return v->n ? sh_simhash_final(&acc) : 0;
}

static const char *const names[] = {
	"jaccard", "containment", "cosine", "weighted", "edit"
};

const char *
sh_sim_name(int m)
{
	return names[m];
}

int
sh_sim_measure(const char *s)
{
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return SH_EINVAL;
}

int
sh_sim_weights(int m)
{
	return m == SH_SIM_COSINE || m == SH_SIM_WEIGHTED;
}

/* Of the features x[i..nx) and y[j..ny), at most this many can be
 * common. */
#define ROOM(nx, i, ny, j)	((nx) - (i) < (ny) - (j) ? (nx) - (i) : \
				    (ny) - (j))

/* Features x[0..nx) and y[0..ny) have in common, when that is need or
 * more; else any count below need, found once the merge cannot reach it.
 * A merge, branch free but for that test (the loads and compares do not
 * wait on a guess). */
static uint64_t
merge(const uint64_t *x, size_t nx, const uint64_t *y, size_t ny,
    uint64_t need)
{
	size_t i = 0, j = 0;
	uint64_t c = 0, u, v;

	while (i < nx && j < ny) {
		if (c + ROOM(nx, i, ny, j) < need)
			return c;
		u = x[i];
		v = y[j];
		c += u == v;
		i += u <= v;
		j += v <= u;
	}
	return c;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_COMMON_AVX512

/*
 * merge by blocks of eight: each hash of a block of x is compared with
 * each of a block of y (the block of y and its seven rotations), and the
 * block whose last hash is the smaller moves on (both when they are
 * equal), as nothing past it can match a hash of the other.  A merge step
 * waits some 7 cycles on the one before; a block moves 8 hashes in about
 * as many.
 */
__attribute__((target("avx512f")))
static uint64_t
merge_avx512(const uint64_t *x, size_t nx, const uint64_t *y, size_t ny,
    uint64_t need)
{
	__m512i a, b;
	__mmask8 m;
	size_t i = 0, j = 0;
	uint64_t c = 0, u, v;

	while (i + 8 <= nx && j + 8 <= ny) {
		/* Matches counted are of x before i or y before j. */
		if (c + ROOM(nx, i, ny, j) < need)
			return c;
		a = _mm512_loadu_si512((const void *)(x + i));
		b = _mm512_loadu_si512((const void *)(y + j));
		m = _mm512_cmpeq_epi64_mask(a, b) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 1)) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 2)) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 3)) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 4)) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 5)) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 6)) |
		    _mm512_cmpeq_epi64_mask(a, _mm512_alignr_epi64(b, b, 7));
		c += (uint64_t)__builtin_popcount(m);
		u = x[i + 7];
		v = y[j + 7];
		i += (size_t)(u <= v) * 8;
		j += (size_t)(v <= u) * 8;
	}
	return c + merge(x + i, nx - i, y + j, ny - j, need > c ? need - c : 0);
}
#endif

static int vector_sim = 1;

void
sh_sim_vector(int on)
{
	vector_sim = on;
}

/* Features a and b have in common, when need or more (merge). */
static uint64_t
common(const struct sh_fset *a, const struct sh_fset *b, uint64_t need)
{
#ifdef HAVE_COMMON_AVX512
	if (vector_sim && __builtin_cpu_supports("avx512f"))
		return merge_avx512(a->h, a->n, b->h, b->n, need);
#endif
	return merge(a->h, a->n, b->h, b->n, need);
}

uint32_t
sh_sim_min(int m, const struct sh_fset *a, const struct sh_fset *b,
    uint32_t min)
{
	uint64_t n = a->n + b->n, d, need, c;
	uint32_t s;

	if (m == SH_SIM_EDIT)
		return sh_sim_edit(NULL, a, b, min, &s) == 0 ? s : 0;
	if (m != SH_SIM_JACCARD || min == 0 || a->n == 0 || b->n == 0 ||
	    n >= (uint64_t)1 << 41)
		return sh_sim_set(m, a, b);
	/* c / (n - c) rounds to min or more (round_ratio) when c is need or
	 * more: 2 10^6 c + (n - c) >= 2 (n - c) min. */
	d = 2 * (uint64_t)SH_SIM_ONE + 2 * (uint64_t)min - 1;
	need = ((2 * (uint64_t)min - 1) * n + d - 1) / d;
	if ((a->n < b->n ? a->n : b->n) < need)
		return 0;
	c = common(a, b, need);
	return c < need ? 0 : round_ratio(c, n - c);
}

uint32_t
sh_sim_set(int m, const struct sh_fset *a, const struct sh_fset *b)
{
	struct big num2, den2, t;
	uint64_t dot[2] = { 0, 0 }, c, wmin = 0, u, v, wa, wb;
	size_t i = 0, j = 0;

	if (m == SH_SIM_EDIT)
		return sh_sim_min(m, a, b, 0);
	if (a->n == 0 || b->n == 0)
		return 0;
	if (!sh_sim_weights(m)) {
		c = common(a, b, 0);
		return m == SH_SIM_CONTAINMENT ?
		    round_ratio(c, a->n < b->n ? a->n : b->n) :
		    round_ratio(c, a->n + b->n - c);
	}
	while (i < a->n && j < b->n) {
		u = a->h[i];
		v = b->h[j];
		if (u == v) {
			wa = a->w[i];
			wb = b->w[j];
			wmin += wa < wb ? wa : wb;
			mac(dot, wa, wb);
		}
		i += u <= v;
		j += v <= u;
	}
	if (m == SH_SIM_WEIGHTED)
		return round_ratio(wmin, a->sum + b->sum - wmin);
	big_set(&num2, dot[0], dot[1]);
	big_mul(&num2, &num2, &num2);
	big_set(&den2, a->sq[0], a->sq[1]);
	big_set(&t, b->sq[0], b->sq[1]);
	big_mul(&den2, &den2, &t);
	return round_root(&num2, &den2);
}

int
sh_sim_edit(struct sh_edit *ws, const struct sh_fset *a,
    const struct sh_fset *b, uint32_t min, uint32_t *sim)
{
	uint64_t n = a->nc > b->nc ? a->nc : b->nc, max;
	long long d;

	*sim = 0;
	if (a->nc == 0 || b->nc == 0)
		return 0;
	/* 1 - d / n rounds to min or more (round_ratio) when d is max or
	 * less: 2 10^6 (n - d) + n >= 2 n min. */
	max = n * (2 * (uint64_t)SH_SIM_ONE + 1 - 2 * (uint64_t)min) /
	    (2 * (uint64_t)SH_SIM_ONE);
	if ((d = sh_edit_dist(ws, a->c, a->nc, b->c, b->nc, max)) < 0)
		return (int)d;
	if ((uint64_t)d <= max)
		*sim = sh_sim_edits(d, a->nc, b->nc);
	return 0;
}

uint32_t
sh_sim_edits(long long d, size_t na, size_t nb)
{
	uint64_t n = na > nb ? na : nb;

	if (na == 0 || nb == 0)
		return 0;
	return round_ratio(n - (uint64_t)d, n);
}

uint32_t
sh_sim(int m, const struct sh_fvec *a, const struct sh_fvec *b)
{
	return sh_sim_set(m, &a->set, &b->set);
}

int
sh_sim_parse(const char *s, uint32_t *v)
{
	uint64_t x = 0;
	int frac = -1, digits = 0;

	/* x is the value times 10^frac: above 10^6, the value is above 1. */

	for (; *s; s++) {
		if (*s == '.' && frac < 0) {
			frac = 0;
			continue;
		}
		if (*s < '0' || *s > '9' || frac >= 6)
			return SH_EINVAL;
		digits++;
		x = x * 10 + (uint64_t)(*s - '0');
		if (frac >= 0)
			frac++;
		if (x > SH_SIM_ONE)
			return SH_ERANGE;
	}
	if (digits == 0)
		return SH_EINVAL;
	for (frac = frac < 0 ? 0 : frac; frac < 6; frac++)
		x *= 10;
	if (x > SH_SIM_ONE)
		return SH_ERANGE;
	*v = (uint32_t)x;
	return 0;
}

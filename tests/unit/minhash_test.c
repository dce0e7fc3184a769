/*
 * The MinHash sketch (fp/minhash.h, base/sketch.h) and its bands
 * (near/bands.h): pinned vectors of version 1, the text form, the
 * estimate's bias over sets dense and sparse, the band plans, and the
 * band join against brute force.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/shard.h"
#include "fp/charsketch.h"
#include "fp/fingerprint.h"
#include "fp/minhash.h"
#include "fp/similar.h"
#include "near/bands.h"
#include "rng.h"
#include "text/fold.h"
#include "tap.h"

/* The sketch of the n hashes h. */
static void
sketch_of(const uint64_t *h, size_t n, struct sh_sketch *s)
{
	struct sh_minhash a;

	sh_minhash_init(&a);
	sh_minhash_add_many(&a, h, n);
	sh_minhash_final(&a, s);
}

/*
 * The sketch that sh_fp_text makes in the fingerprint's pass is that of
 * the features the verification compares (similar.h), weight 0 left out,
 * under each weighing path: binary, tf, log tf, and tf times an IDF that
 * gives some words 0.
 */
static void
same_set(void)
{
	static const char *const text[] = {
		"the cat sat on the mat and the cat sat again",
		"a b c d e f g h i j k l m n o p q r s t u v w x y z the the",
		"這是繁體字 the 中文 text 中文 text 中文",
		"the the the",
	};
	struct sh_fpopt o[5] = { SH_FPOPT_DEFAULT,
	    SH_FPOPT_INIT(5, 3, SH_W_TF), SH_FPOPT_INIT(2, 1, SH_W_LOGTF),
	    SH_FPOPT_INIT(2, 1, SH_W_TF), SH_FPOPT_INIT(2, 1, SH_W_BINARY) };
	struct sh_sketch a, b;
	struct sh_fvec v;
	struct sh_fp *f;
	unsigned long long line;
	char path[] = "/tmp/minhash_test.XXXXXX";
	uint64_t total;
	sh_fpval fp;
	size_t i, k, col;
	int bad, fd, good;
	FILE *idf;

	/* IDF 0 for "the" and "cat", on the last two option sets. */
	if ((fd = mkstemp(path)) < 0 || (idf = fdopen(fd, "w")) == NULL) {
		ok(0, "a temporary IDF file");
		return;
	}
	fputs("the 0\ncat 0\nsat 2.5\n", idf);
	fclose(idf);
	for (k = 3; k < 5; k++)
		if (sh_fpopt_idf(&o[k], path, &line) != 0)
			ok(0, "idf file loads");
	unlink(path);
	for (k = 0; k < 5; k++) {
		o[k].sketch = 1;
		f = sh_fp_new(&o[k]);
		sh_fvec_init(&v, 0);
		for (good = 1, i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
			if (sh_fp_text(f, text[i], strlen(text[i]), &fp, &total,
			    &bad) != 0 || sh_fvec_doc(&v, f, text[i],
			    strlen(text[i]), 0, &bad, &col) != 0)
				good = 0;
			if (sh_fp_sketch(f, &a) != (v.set.n > 0))
				good = 0;
			sketch_of(v.set.h, v.set.n, &b);
			good &= v.set.n == 0 || memcmp(&a, &b, sizeof(a)) == 0;
		}
		ok(good, "option set %zu: the sketch of the verified features",
		    k);
		sh_fvec_free(&v);
		sh_fp_free(f);
		sh_fpopt_free(&o[k]);
	}
}

/* The hash of a sketch's text form, to pin it whole. */
static uint64_t
pin(const struct sh_sketch *s)
{
	char text[SH_SK_TEXT];

	sh_sketch_format(s, text);
	return sh_hash64(text, sizeof(text), 0);
}

static void
vectors(void)
{
	static uint64_t h[1000];
	struct sh_sketch s, t;
	struct sh_minhash a;
	char text[SH_SK_TEXT + 1];
	size_t i;

	rng_state = 1;
	for (i = 0; i < 1000; i++)
		h[i] = next();
	/* One feature fills every bin with its value. */
	sketch_of(h, 1, &s);
	for (i = 0; i < SH_SK_K && s.v[i] == (uint16_t)h[0]; i++)
		;
	ok(i == SH_SK_K, "one feature: every value is its low 16 bits");
	sketch_of(h, 20, &s);
	sh_sketch_format(&s, text);
	text[SH_SK_TEXT] = '\0';
	ok(strncmp(text, "m1:", 3) == 0 && strlen(text) == SH_SK_TEXT,
	    "text form: m1: and 512 digits");
	ok(pin(&s) == 0x76a55b469be11cb4ULL,
	    "20 features (sparse, densified): pinned");
	sketch_of(h, 1000, &t);
	ok(pin(&t) == 0x11af8424b0086251ULL, "1000 features: pinned");

	/* Order and repeats do not count. */
	sh_minhash_init(&a);
	for (i = 1000; i-- > 0;) {
		sh_minhash_add(&a, h[i]);
		sh_minhash_add(&a, h[i / 2]);
	}
	sh_minhash_final(&a, &s);
	ok(memcmp(&s, &t, sizeof(s)) == 0, "order and repeats do not count");
	sh_minhash_init(&a);
	ok(sh_minhash_final(&a, &s) == 0, "no feature: no sketch");
}

static void
text(void)
{
	struct sh_sketch s, t;
	char buf[SH_SK_TEXT];
	size_t i;

	for (i = 0; i < SH_SK_K; i++)
		s.v[i] = (uint16_t)next();
	sh_sketch_format(&s, buf);
	ok(sh_sketch_parse(buf, sizeof(buf), &t) == 0 &&
	    memcmp(&s, &t, sizeof(s)) == 0, "format then parse: the same");
	for (i = 3; i < sizeof(buf); i++)
		if (buf[i] >= 'a')
			buf[i] -= 'a' - 'A';
	ok(sh_sketch_parse(buf, sizeof(buf), &t) == 0 &&
	    memcmp(&s, &t, sizeof(s)) == 0, "upper case reads");
	ok(sh_sketch_parse(buf, sizeof(buf) - 1, &t) == SH_ESKETCH,
	    "a digit short: not a sketch");
	buf[100] = 'g';
	ok(sh_sketch_parse(buf, sizeof(buf), &t) == SH_ESKETCH,
	    "a bad digit: not a sketch");
	buf[1] = '2';
	ok(sh_sketch_parse(buf, sizeof(buf), &t) == SH_ESKVERSION,
	    "m2: another version");
	ok(sh_sketch_parse("xyz", 3, &t) == SH_ESKETCH, "xyz: not a sketch");
	ok(sh_sketch_parse("m1", 2, &t) == SH_ESKETCH &&
	    sh_sketch_parse("m1:", 3, &t) == SH_ESKETCH,
	    "m1 and m1: alone: not a sketch, not another version");
	ok(sh_sketch_sim(SH_SK_K) == 1000000 && sh_sketch_sim(0) == 0 &&
	    sh_sketch_sim(64) == 499992, "the estimate of 128, 0, 64 equal");
}

/*
 * The mean estimate over trials pairs of sets of n features each at
 * Jaccard similarity j: shared features s, with 2 n - s in the union.
 */
static double
mean_estimate(size_t n, double j, int trials)
{
	uint64_t *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	struct sh_sketch x, y;
	size_t s = (size_t)(2 * n * j / (1 + j) + 0.5), i;
	double sum = 0;
	int t;

	for (t = 0; t < trials; t++) {
		for (i = 0; i < n; i++) {
			a[i] = next();
			b[i] = i < s ? a[i] : next();
		}
		sketch_of(a, n, &x);
		sketch_of(b, n, &y);
		sum += sh_sketch_sim(sh_sketch_equal(&x, &y)) / 1e6;
	}
	free(a);
	free(b);
	return sum / trials;
}

static void
bias(void)
{
	static const size_t sizes[] = { 10, 40, 500 };
	static const double sims[] = { 0.2, 0.5, 0.8 };
	double m, j;
	size_t i, k, n;

	for (i = 0; i < 3; i++)
		for (k = 0; k < 3; k++) {
			n = sizes[i];
			/* The similarity the shared count really gives. */
			j = (double)(size_t)(2 * n * sims[k] / (1 + sims[k]) +
			    0.5);
			j = j / (2 * n - j);
			m = mean_estimate(n, sims[k], 2000);
			ok(m > j - 0.01 && m < j + 0.01,
			    "%zu features at J %.3f: mean estimate %.4f", n, j,
			    m);
		}
}

static void
plans(void)
{
	static const struct {
		uint32_t t;
		int b, r;
	} want[] = {
		{ 500000, 35, 3 }, { 700000, 17, 4 }, { 800000, 16, 6 },
		{ 900000, 11, 10 }, { 950000, 8, 16 }, { 1000000, 1, 128 },
	};
	struct sh_bandplan p;
	size_t i;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		ok(sh_bandplan_init(&p, want[i].t, SH_BANDS_RECALL) == 0 &&
		    p.b == want[i].b && p.r == want[i].r &&
		    sh_bandplan_prob(&p, want[i].t) >= 0.99,
		    "t %u: %d bands of %d rows (%d, %d)", want[i].t, want[i].b,
		    want[i].r, p.b, p.r);
	}
	ok(sh_bandplan_init(&p, 30000, SH_BANDS_RECALL) == SH_ERANGE,
	    "t 0.03: no plan reaches 0.99");
}

/* Brute force: whether sketches a and b agree in a band of p. */
static int
share(const struct sh_bandplan *p, const struct sh_sketch *a,
    const struct sh_sketch *b)
{
	int j, i;

	for (j = 0; j < p->b; j++) {
		for (i = 0; i < p->r; i++)
			if (a->v[j * p->r + i] != b->v[j * p->r + i])
				break;
		if (i == p->r)
			return 1;
	}
	return 0;
}

/* The pairs a band sort tells. */
struct told {
	struct sh_pairs p;
	int err;
};

static int
tell_pair(void *ctx, uint32_t a, uint32_t b)
{
	struct told *t = ctx;

	t->err |= a >= b;
	return sh_pairs_add(&t->p, (uint64_t)a << 32 | b);
}

static void
join(void)
{
	enum { N = 3000 };
	static struct sh_sketch s[N];
	static uint64_t keys[SH_SK_K][N];
	uint64_t *key[SH_SK_K], k[SH_SK_K];
	struct sh_bandplan p;
	struct sh_pairs got = { NULL, 0, 0 };
	size_t i, j, n, bad;
	int t, v;

	sh_bandplan_init(&p, 700000, SH_BANDS_RECALL);
	/* Families: each sketch a copy of an earlier one with some values
	 * changed, or new; values from a small alphabet so that unrelated
	 * bands agree too, now and then. */
	for (i = 0; i < N; i++) {
		j = i > 0 && next() % 4 != 0 ? next() % i : i;
		for (v = 0; v < SH_SK_K; v++)
			s[i].v[v] = j < i && next() % 8 != 0 ? s[j].v[v] :
			    (uint16_t)(next() % 8 ? next() : next() % 3);
		sh_bands_keys(&p, &s[i], k);
		for (v = 0; v < p.b; v++)
			keys[v][i] = k[v];
	}
	for (v = 0; v < p.b; v++)
		key[v] = keys[v];
	for (t = 1; t <= 3; t++) {
		got.n = 0;
		ok(sh_bands_join((const uint64_t *const *)key, N, &p, t, NULL,
		    NULL, &got) == 0,
		    "%d thread(s): joined", t);
		n = bad = 0;
		for (i = 0; i < N; i++)
			for (j = i + 1; j < N; j++)
				if (share(&p, &s[i], &s[j]))
					bad += n >= got.n ||
					    got.v[n++] != ((uint64_t)i << 32 | j);
		ok(bad == 0 && n == got.n && n > 1000,
		    "%d thread(s): the %zu pairs of brute force, each once, in "
		    "order (%zu)", t, n, got.n);
	}
	/* Within a budget that spills: the same pairs, each once, from
	 * one sort or from shards. */
	for (t = 0; t < 3; t++) {
		static const uint32_t nshards[] = { 1, 3, 40 };
		struct told all = { { NULL, 0, 0 }, 0 };
		struct sh_bandsort *x;
		struct sh_shard sd;

		sd.n = nshards[t];
		for (sd.i = 0; sd.i < sd.n; sd.i++) {
			all.err |= sh_bandsort_new(&x, &p, &sd, 1 << 16,
			    NULL) != 0;
			for (i = 0; i < N; i++) {
				for (v = 0; v < p.b; v++)
					k[v] = key[v][i];
				all.err |= sh_bandsort_add(x, k) != 0;
			}
			all.err |= sh_bandsort_run(x, NULL, tell_pair, &all) != 0;
			sh_bandsort_free(x);
		}
		sh_pairs_sort(&all.p);
		ok(all.err == 0 && all.p.n == got.n && memcmp(all.p.v, got.v,
		    got.n * sizeof(*got.v)) == 0,
		    "within a budget, %u shard(s): the pairs of the join, each "
		    "once", sd.n);
		free(all.p.v);
	}
	/* Shards: together the pairs of one join, each once. */
	for (t = 0; t < 3; t++) {
		static const uint32_t nshards[] = { 2, 5, 40 };
		struct sh_pairs all = { NULL, 0, 0 };
		struct sh_shard sd;

		sd.n = nshards[t];
		for (sd.i = 0; sd.i < sd.n; sd.i++)
			sh_bands_join((const uint64_t *const *)key, N, &p, 2,
			    &sd, NULL, &all);
		sh_pairs_sort(&all);
		ok(all.n == got.n && memcmp(all.v, got.v, all.n *
		    sizeof(*all.v)) == 0, "%u shards: the pairs of one join",
		    sd.n);
		free(all.v);
	}
	free(got.v);
}

/* The characters of UTF-8 text p as the edit measure counts them. */
static size_t
chars_of(const char *p, uint32_t **c, size_t *cap)
{
	size_t n = 0;
	int bad = 0;

	if (sh_fold_chars(p, strlen(p), 0, c, cap, &n, &bad) != 0)
		exit(1);
	return n;
}

/* The multiset Jaccard similarity of the n-grams of a and b, by the rule
 * of fp/charsketch.h, computed the simple way: n-grams as strings. */
static double
gram_jaccard(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	static uint32_t g[2][512][4];
	size_t ng[2], i, j, k, inter = 0, used[512] = { 0 };
	const uint32_t *c;
	size_t n;
	int s, w;

	for (s = 0; s < 2; s++) {
		c = s ? b : a;
		n = s ? nb : na;
		for (ng[s] = i = 0; i < n; i++) {
			memset(g[s][ng[s]], 0, sizeof(g[s][0]));
			for (w = 0, j = i; j < n && w < 3; j++) {
				w += sh_uc_class(c[j]) == SH_UC_GRAM ? 3 : 1;
				g[s][ng[s]][j - i] = c[j];
			}
			if (w < 3 && i > 0)
				break;
			ng[s]++;
		}
	}
	for (i = 0; i < ng[0]; i++)
		for (k = 0; k < ng[1]; k++)
			if (!used[k] && memcmp(g[0][i], g[1][k],
			    sizeof(g[0][0])) == 0) {
				used[k] = 1;
				inter++;
				break;
			}
	return (double)inter / (double)(ng[0] + ng[1] - inter);
}

/*
 * The sketch of the characters (fp/charsketch.h): its kinds, a pinned
 * vector, the folding it shares with the edit measure, and the
 * estimate of the multiset Jaccard similarity of its n-grams, within
 * the error of 128 values, on short texts Chinese, English and mixed,
 * some with repeated n-grams; and the edit plans.
 */
static void
chars(void)
{
	static const char *const text[] = {
	    "\xe4\xbd\xa0\xe5\xa6\x88\xe5\xa6\x88\xe5\x96\x8a"
	    "\xe4\xbd\xa0\xe5\x9b\x9e\xe5\xae\xb6\xe5\x90\x83"
	    "\xe9\xa5\xad\xe5\x93\xa6",	/* 你妈妈喊你回家吃饭哦 */
	    "The quick brown fox jumps over the lazy dog",
	    "ls -l \xe5\x88\x97\xe5\x87\xba\xe6\x96\x87\xe4\xbb\xb6",
	};
	static const char alpha[] = "abcdefgh";
	struct sh_sketch s, t;
	struct sh_editplan ep;
	uint32_t *a = NULL, *b = NULL;
	size_t ca = 0, cb = 0, na, nb, i, j, cap = 0, bad = 0, tried = 0;
	uint64_t *buf = NULL;
	char x[128], y[128];
	double jx, est;
	int ka, kb, r;

	na = chars_of(text[0], &a, &ca);
	nb = chars_of(text[1], &b, &cb);
	ok(sh_charsketch_kind(a, na) == 1 && sh_charsketch_kind(b, nb) == 3,
	    "kinds: Chinese 1, English 3");
	na = chars_of(text[2], &a, &ca);
	ok(sh_charsketch_kind(a, na) == 2, "kind: 4 ideographs of 7 characters: 2");
	na = chars_of(text[0], &a, &ca);
	r = sh_charsketch(a, na, &buf, &cap, &s, &ka);
	ok(r == 1 && ka == 1 && s.v[0] == 0x4549 && s.v[127] == 0xf761,
	    "the seed's sentence: kind 1, values 0 and 127 pinned (%04x %04x)",
	    s.v[0], s.v[127]);
	nb = chars_of("\xe4\xbd\xa0\xe5\xa6\x88\xef\xbc\x8c "
	    "\xe5\xa6\x88\xe5\x96\x8a\xe4\xbd\xa0\xe5\x9b\x9e"
	    "\xe5\xae\xb6\xe5\x90\x83\xe9\xa5\xad\xe5\x93\xa6!",
	    &b, &cb);
	r = sh_charsketch(b, nb, &buf, &cap, &t, &kb);
	ok(r == 1 && memcmp(&s, &t, sizeof(s)) == 0,
	    "a comma, a space and a mark changes nothing");
	ok(sh_charsketch(a, 0, &buf, &cap, &s, &ka) == 0, "no character: "
	    "no sketch");
	/* Random texts over few letters (repeated n-grams) and their
	 * edited copies. */
	for (i = 0; i < 400; i++) {
		na = 5 + next() % 60;
		for (j = 0; j < na; j++)
			x[j] = alpha[next() % (i % 2 ? 8 : 3)];
		memcpy(y, x, na);
		nb = na;
		for (j = next() % 8; j > 0; j--)
			y[next() % nb] = alpha[next() % 8];
		x[na] = y[nb] = '\0';
		na = chars_of(x, &a, &ca);
		nb = chars_of(y, &b, &cb);
		jx = gram_jaccard(a, na, b, nb);
		if (sh_charsketch(a, na, &buf, &cap, &s, &ka) != 1 ||
		    sh_charsketch(b, nb, &buf, &cap, &t, &kb) != 1)
			bad++;
		est = sh_sketch_sim(sh_sketch_equal(&s, &t)) / 1e6;
		tried++;
		if (est < jx - 0.2 || est > jx + 0.2)
			bad++;
	}
	ok(bad <= 2, "the estimate within 0.2 of the n-grams' multiset "
	    "Jaccard similarity: %zu of %zu off", bad, tried);
	ok(sh_editplan_init(&ep, 800000) == 0 && ep.plan[0].b == 32 &&
	    ep.plan[0].r == 4 && ep.plan[1].b == 42 && ep.plan[1].r == 3 &&
	    ep.all.b == 74, "edit plans at 0.8: 32 bands of 4, 42 of 3 "
	    "(%d of %d, %d of %d)", ep.plan[0].b, ep.plan[0].r,
	    ep.plan[1].b, ep.plan[1].r);
	ok(sh_editplan_init(&ep, 300000) == SH_ERANGE,
	    "edit plans at 0.3: none reaches 0.99");
	free(a);
	free(b);
	free(buf);
}

int
main(void)
{
	chars();
	vectors();
	same_set();
	text();
	bias();
	plans();
	join();
	return tap_done();
}

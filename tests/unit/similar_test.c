/*
 * Exact similarity: the four measures on documents worked out by hand,
 * exact rounding against a double computation on random vectors, the
 * fingerprint of a feature vector against sh_fp_text and sh_fp_tokens,
 * threshold parsing, and the explain scores and blocks.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/hash.h"
#include "fp/fingerprint.h"
#include "fp/similar.h"
#include "verify/explain.h"
#include "rng.h"
#include "tap.h"

static struct sh_fp *tf;

/* Token list s into v. */
static int
toks(struct sh_fvec *v, const char *s)
{
	size_t col;
	int bad = 0;

	return sh_fvec_doc(v, tf, s, strlen(s), 1, &bad, &col);
}

/* Similarities of token lists a and b by measure m. */
static uint32_t
sim(int m, const char *a, const char *b)
{
	struct sh_fvec x, y;
	uint32_t r = 0xffffffff;

	sh_fvec_init(&x, 0);
	sh_fvec_init(&y, 0);
	if (toks(&x, a) == 0 && toks(&y, b) == 0)
		r = sh_sim(m, &x, &y);
	sh_fvec_free(&x);
	sh_fvec_free(&y);
	return r;
}

static int
parses(const char *s, uint32_t want)
{
	uint32_t v = 12345;

	return sh_sim_parse(s, &v) == 0 && v == want;
}

/* Random vectors: exact results within one millionth of a double
 * computation, equal unless the double lies near a rounding tie. */
static int
random_agree(int rounds)
{
	struct sh_fvec x, y;
	char a[4096], b[4096];
	double dot, na, nb, mn, mx, want;
	size_t la, lb, col;
	uint64_t wa[40], wb[40];
	uint32_t got;
	int r, i, inval, bad = 0;

	sh_fvec_init(&x, 0);
	sh_fvec_init(&y, 0);
	for (r = 0; r < rounds; r++) {
		la = lb = 0;
		dot = na = nb = mn = mx = 0;
		for (i = 0; i < 40; i++) {
			wa[i] = next() % 3 ? next() % 5000 : 0;
			wb[i] = next() % 3 ? next() % 5000 : 0;
			if (wa[i])
				la += (size_t)snprintf(a + la, sizeof(a) - la,
				    "t%d^%llu.%03llu ", i,
				    (unsigned long long)wa[i] / 1000,
				    (unsigned long long)wa[i] % 1000);
			if (wb[i])
				lb += (size_t)snprintf(b + lb, sizeof(b) - lb,
				    "t%d^%llu.%03llu ", i,
				    (unsigned long long)wb[i] / 1000,
				    (unsigned long long)wb[i] % 1000);
			dot += (double)wa[i] * (double)wb[i];
			na += (double)wa[i] * (double)wa[i];
			nb += (double)wb[i] * (double)wb[i];
			mn += (double)(wa[i] < wb[i] ? wa[i] : wb[i]);
			mx += (double)(wa[i] > wb[i] ? wa[i] : wb[i]);
		}
		if (sh_fvec_doc(&x, tf, a, la, 1, &inval, &col) != 0 ||
		    sh_fvec_doc(&y, tf, b, lb, 1, &inval, &col) != 0) {
			bad++;
			continue;
		}
		want = na > 0 && nb > 0 ? 1e6 * dot / sqrt(na * nb) : 0;
		got = sh_sim(SH_SIM_COSINE, &x, &y);
		if (fabs(got - want) > 0.5 + 1e-6)
			bad++;
		want = mx > 0 && na > 0 && nb > 0 ? 1e6 * mn / mx : 0;
		got = sh_sim(SH_SIM_WEIGHTED, &x, &y);
		if (fabs(got - want) > 0.5 + 1e-6)
			bad++;
	}
	sh_fvec_free(&x);
	sh_fvec_free(&y);
	return bad;
}

/* sh_fvec_fp agrees with the fingerprinter on text under scheme w. */
static int
fp_agrees(int w, const char *text)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct sh_fvec v;
	struct sh_fp *f;
	uint64_t fp, total;
	size_t col;
	int bad = 0, ok;

	o.weight = w;
	f = sh_fp_new(&o);
	sh_fvec_init(&v, 0);
	ok = f && sh_fp_text(f, text, strlen(text), &fp, &total, &bad) == 0 &&
	    sh_fvec_doc(&v, f, text, strlen(text), 0, &bad, &col) == 0 &&
	    sh_fvec_fp(&v) == fp;
	sh_fvec_free(&v);
	sh_fp_free(f);
	return ok;
}

/* Sorted distinct random hashes into h[0..n): from a pool of 2n, so that
 * two such sets share about half, runs of them sometimes equal. */
static void
random_set(uint64_t *h, size_t n)
{
	size_t i, j;
	uint64_t t;

	for (i = 0; i < n; i++)
		h[i] = (next() % (2 * n + 1)) * 0x9E3779B97F4A7C15ULL;
	for (i = 1; i < n; i++)		/* insertion sort */
		for (j = i, t = h[i]; j > 0 && h[j - 1] > t; j--) {
			h[j] = h[j - 1];
			h[j - 1] = t;
		}
	for (i = j = 0; i < n; i++)
		if (j == 0 || h[j - 1] != h[i])
			h[j++] = h[i];
	while (j < n)			/* distinct again: fill past the top */
		h[j] = h[j - 1] + 1, j++;
}

/* Jaccard similarity by the vector and the portable merge: equal on
 * random sets of every length up to 40 (blocks of 8 and their tails). */
static int
vector_agrees(int rounds)
{
	uint64_t ha[40], hb[40];
	struct sh_fset a = { 0 }, b = { 0 };
	uint32_t s0, s1;
	int r, bad = 0;

	a.h = ha;
	b.h = hb;
	for (r = 0; r < rounds; r++) {
		a.n = next() % 41;
		b.n = next() % 41;
		random_set(ha, a.n);
		random_set(hb, b.n);
		if (r % 7 == 0)		/* equal prefixes: blocks end alike */
			memcpy(hb, ha, (a.n < b.n ? a.n : b.n) * 8);
		sh_sim_vector(0);
		s0 = sh_sim_set(SH_SIM_JACCARD, &a, &b);
		sh_sim_vector(1);
		s1 = sh_sim_set(SH_SIM_JACCARD, &a, &b);
		bad += s0 != s1;
	}
	return bad;
}

/* sh_sim_min against sh_sim_set, by the vector and the portable merge:
 * the same similarity where it is at least the minimum, one below it
 * elsewhere; every minimum at and beside the similarities of random sets
 * of up to 80 features (so that the merge may stop in a block or in the
 * tail). */
static int
min_agrees(int rounds)
{
	uint64_t ha[80], hb[80];
	struct sh_fset a = { 0 }, b = { 0 };
	uint32_t s, t, min[5];
	int r, k, v, bad = 0;

	a.h = ha;
	b.h = hb;
	for (r = 0; r < rounds; r++) {
		a.n = next() % 81;
		b.n = next() % 81;
		random_set(ha, a.n);
		random_set(hb, b.n);
		if (r % 3 == 0 && b.n <= a.n)	/* b within a: b.n / a.n */
			memcpy(hb, ha, b.n * 8);
		s = sh_sim_set(SH_SIM_JACCARD, &a, &b);
		min[0] = s;
		min[1] = s + 1;
		min[2] = s > 0 ? s - 1 : 0;
		min[3] = (uint32_t)(next() % (SH_SIM_ONE + 1));
		min[4] = s + (uint32_t)(next() % 100000);
		for (k = 0; k < 5; k++)
			for (v = 0; v < 2; v++) {
				sh_sim_vector(v);
				t = sh_sim_min(SH_SIM_JACCARD, &a, &b, min[k]);
				bad += s >= min[k] ? t != s : t >= min[k];
			}
	}
	sh_sim_vector(1);
	return bad;
}

/* A text cut without its features' text (counted from their hashes)
 * and with it (the fingerprinter's bag) gives the same vector. */
static int
counted_agrees(int w, const char *text)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct sh_fvec v, t;
	struct sh_fp *f;
	size_t col, i;
	int bad = 0, ok;

	o.weight = w;
	f = sh_fp_new(&o);
	sh_fvec_init(&v, 0);
	sh_fvec_init(&t, 1);
	ok = f && sh_fvec_doc(&v, f, text, strlen(text), 0, &bad, &col) == 0 &&
	    sh_fvec_doc(&t, f, text, strlen(text), 0, &bad, &col) == 0 &&
	    v.n == t.n && v.n > 0 && v.sum == t.sum && v.sq[1] == t.sq[1];
	for (i = 0; ok && i < v.n; i++)
		ok = v.set.h[i] == t.set.h[i] && v.set.w[i] == t.set.w[i];
	sh_fvec_free(&v);
	sh_fvec_free(&t);
	sh_fp_free(f);
	return ok;
}

int
main(void)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct sh_fvec x, y;
	struct sh_explain e;
	uint64_t fp, total, hx, hy;
	size_t col;
	uint32_t v;
	int d;

	tf = sh_fp_new(&o);

	/* {a b c} and {b c d}: 2 shared of 4, of 3 each. */
	ok(sim(SH_SIM_JACCARD, "a b c", "b c d") == 500000, "jaccard 2/4");
	ok(sim(SH_SIM_CONTAINMENT, "a b c", "b c d") == 666667,
	    "containment 2/3, rounded");
	ok(sim(SH_SIM_CONTAINMENT, "a b", "a b c d e") == 1000000,
	    "containment of the smaller in the larger is 1");
	ok(sim(SH_SIM_COSINE, "a b c", "b c d") == 666667, "cosine 2/3");
	ok(sim(SH_SIM_WEIGHTED, "a b c", "b c d") == 500000, "weighted 2/4");
	ok(sim(SH_SIM_JACCARD, "a b c", "c b a") == 1000000 &&
	    sim(SH_SIM_COSINE, "a b c", "c b a") == 1000000,
	    "the same features in another order: 1");
	ok(sim(SH_SIM_JACCARD, "a b", "c d") == 0 &&
	    sim(SH_SIM_COSINE, "a b", "c d") == 0, "nothing shared: 0");
	/* a: (2, 1), b: (1, 3): dot 5, norms 5 and 10. */
	ok(sim(SH_SIM_COSINE, "a^2 b", "a b^3") == 707107,
	    "cosine 5/sqrt(50) = 0.7071068");
	ok(sim(SH_SIM_WEIGHTED, "a^2 b", "a b^3") == 400000,
	    "weighted (1 + 1) / (2 + 3)");
	ok(sim(SH_SIM_JACCARD, "a^2 b", "a b^3") == 1000000,
	    "jaccard ignores weights");
	ok(sim(SH_SIM_COSINE, "a a b", "a^2 b") == 1000000 &&
	    sim(SH_SIM_WEIGHTED, "a a b", "a^2 b") == 1000000,
	    "a token listed twice weighs the sum");
	ok(sim(SH_SIM_JACCARD, "a^0 b", "b") == 1000000,
	    "weight 0 is no feature");
	ok(sim(SH_SIM_JACCARD, "", "a") == 0 && sim(SH_SIM_COSINE, "", "") == 0
	    && sim(SH_SIM_WEIGHTED, "a^0", "a^0") == 0,
	    "no features: 0");
	ok(sim(SH_SIM_COSINE, "a^1000000000 b^1000000000", "a^1000000000") ==
	    707107, "cosine with weights of 10^9 (128-bit sums)");
	ok(sim(SH_SIM_WEIGHTED, "a^1000000000 b^999999999.999",
	    "a^1000000000") == 500000,
	    "weighted with weights of 10^9: 0.50000000025 rounds down");
	ok(sim(SH_SIM_COSINE, "a^0.001 b^1000000000", "a^0.001") == 0,
	    "cosine of 10^-12: 0");
	ok(sim(SH_SIM_WEIGHTED, "x", "x y^399999") == 3 &&
	    sim(SH_SIM_WEIGHTED, "x", "x y^400000") == 2,
	    "1/400000 = 2.5 millionths rounds half up; 1/400001 down");
	ok(random_agree(3000) == 0,
	    "cosine and weighted agree with a double computation");

	sh_fvec_init(&x, 0);
	ok(toks(&x, "a^1 b") == 0 && x.n == 2 && x.e[0].hash < x.e[1].hash &&
	    x.sum == 2000 && x.sq[0] == 0 && x.sq[1] == 2000000,
	    "vector sorted by hash, with its sums");
	ok(toks(&x, "a^x") == SH_EWEIGHT && x.n == 0,
	    "bad weight: error, empty vector");
	ok(sh_fvec_doc(&x, tf, "ab cd ab", 8, 1, &d, &col) == 0 && x.n == 2 &&
	    sh_fp_tokens(tf, "ab cd ab", 8, &fp, &total, &col) == 0 &&
	    sh_fvec_fp(&x) == fp, "fingerprint of a token list's vector");
	sh_fvec_free(&x);
	ok(fp_agrees(SH_W_TF, "The quick brown fox jumps over the lazy dog.")
	    && fp_agrees(SH_W_TF, "中华人民共和国成立于一九四九年，首都北京。")
	    && fp_agrees(SH_W_BINARY, "the the the a b c d")
	    && fp_agrees(SH_W_LOGTF, "x x x x y y z Straße ＦＵＬＬ"),
	    "fingerprint of a text's vector, each weight scheme");
	ok(counted_agrees(SH_W_TF, "a b a b a c. The quick brown fox, the "
	    "quick brown fox; 中华人民共和国成立于一九四九年")
	    && counted_agrees(SH_W_BINARY, "the the the the a b c d the a b c")
	    && counted_agrees(SH_W_LOGTF, "x y z x y z x y z Straße ＦＵＬＬ"),
	    "a text's vector counted from hashes equals the bag's");
	ok(vector_agrees(20000) == 0,
	    "the vector merge counts the portable merge's common features");
	ok(min_agrees(20000) == 0,
	    "sh_sim_min: sh_sim_set's similarity where it is the minimum or "
	    "more, less elsewhere");

	ok(parses("0", 0) && parses("1", 1000000) && parses("0.5", 500000) &&
	    parses(".95", 950000) && parses("0.123456", 123456) &&
	    parses("1.000000", 1000000) && parses("00.1", 100000),
	    "similarities parse to millionths");
	ok(sh_sim_parse("", &v) == SH_EINVAL && sh_sim_parse(".", &v) ==
	    SH_EINVAL && sh_sim_parse("0.1234567", &v) == SH_EINVAL &&
	    sh_sim_parse("-0.5", &v) == SH_EINVAL && sh_sim_parse("0,5", &v) ==
	    SH_EINVAL && sh_sim_parse("1.0.", &v) == SH_EINVAL,
	    "malformed similarities");
	ok(sh_sim_parse("1.000001", &v) == SH_ERANGE &&
	    sh_sim_parse("2", &v) == SH_ERANGE &&
	    sh_sim_parse("99999999999999999999", &v) == SH_ERANGE,
	    "above 1: out of range");
	ok(sh_sim_measure("jaccard") == SH_SIM_JACCARD &&
	    sh_sim_measure("cosine") == SH_SIM_COSINE &&
	    sh_sim_measure("weighted") == SH_SIM_WEIGHTED &&
	    sh_sim_measure("containment") == SH_SIM_CONTAINMENT &&
	    sh_sim_measure("Jaccard") == SH_EINVAL &&
	    strcmp(sh_sim_name(SH_SIM_COSINE), "cosine") == 0, "measure names");

	/* One feature each: each fingerprint is its feature's hash, and both
	 * features vote for every differing bit. */
	sh_fvec_init(&x, 1);
	sh_fvec_init(&y, 1);
	hx = sh_hash64("x", 1, 0);
	hy = sh_hash64("y", 1, 0);
	d = sh_hamming(hx, hy);
	ok(toks(&x, "x") == 0 && toks(&y, "y^2") == 0 &&
	    sh_explain(&x, &y, 10, &e) == 0 && e.fp[0] == hx && e.fp[1] == hy &&
	    e.dist == d && e.ntop == 2 && e.top[0].score == 2000 * d &&
	    e.top[0].len == 1 && e.top[0].text[0] == 'y' &&
	    e.top[0].wa == 0 && e.top[0].wb == 2000 &&
	    e.top[1].score == 1000 * d && e.top[1].text[0] == 'x',
	    "explain: a lone feature votes for every differing bit");
	ok(e.block[0].a == hx >> 48 && e.block[3].b == (hy & 0xffff) &&
	    e.block[1].diff == sh_hamming(hx >> 32 & 0xffff, hy >> 32 & 0xffff),
	    "explain: the four 16-bit blocks");
	sh_explain_free(&e);
	ok(toks(&x, "x y") == 0 && toks(&y, "y x") == 0 &&
	    sh_explain(&x, &y, 10, &e) == 0 && e.dist == 0 && e.ntop == 0 &&
	    e.sim[SH_SIM_JACCARD] == 1000000 && e.block[2].diff == 0,
	    "explain: equal documents, no feature pulls");
	sh_explain_free(&e);
	ok(toks(&x, "x a b") == 0 && toks(&y, "y a b") == 0 &&
	    sh_explain(&x, &y, 1, &e) == 0 && e.ntop == 1 &&
	    e.sim[SH_SIM_JACCARD] == 500000 &&
	    e.sim[SH_SIM_CONTAINMENT] == 666667,
	    "explain: at most n features; the similarities");
	sh_explain_free(&e);
	sh_fvec_free(&x);
	sh_fvec_free(&y);
	sh_fp_free(tf);
	return tap_done();
}

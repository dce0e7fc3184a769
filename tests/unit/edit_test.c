/*
 * Edit distance: sh_edit_dist against the plain dynamic program on
 * random and adversarial sequences (Chinese, values that share a hash
 * slot, block edges, repeats), with and without a bound; the characters
 * an edit distance counts (sh_fold_chars); the edit similarity.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "fp/edit.h"
#include "fp/fingerprint.h"
#include "fp/similar.h"
#include "text/fold.h"
#include "rng.h"
#include "tap.h"

#define MAXLEN 6100

/* The Levenshtein distance by the dynamic program, one row at a time. */
static size_t
slow(const uint32_t *a, size_t na, const uint32_t *b, size_t nb)
{
	static size_t row[MAXLEN + 1];
	size_t i, j, diag, up, d;

	for (j = 0; j <= nb; j++)
		row[j] = j;
	for (i = 1; i <= na; i++) {
		diag = row[0];
		row[0] = i;
		for (j = 1; j <= nb; j++) {
			up = row[j];
			d = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < d)
				d = up + 1;
			if (row[j - 1] + 1 < d)
				d = row[j - 1] + 1;
			row[j] = d;
			diag = up;
		}
	}
	return row[nb];
}

/* Values that share the first slot of 0x4E00 in every table size: the
 * worst the tables of the pattern can meet. */
static uint32_t coll[64];

static void
find_collisions(void)
{
	uint32_t c, want = (uint32_t)(0x4E00u * 0x9E3779B1u) >> 25;
	int n = 0;

	for (c = 0x4E00; n < 64; c++)
		if ((uint32_t)(c * 0x9E3779B1u) >> 25 == want)
			coll[n++] = c;
}

/* An element of alphabet kind k. */
static uint32_t
elem(int k)
{
	switch (k) {
	case 0:
		return 'a' + (uint32_t)(next() % 2);
	case 1:
		return 'a' + (uint32_t)(next() % 4);
	case 2:		/* common Chinese characters */
		return 0x4E00 + (uint32_t)(next() % 30);
	case 3:
		return coll[next() % 64];
	case 4:		/* any value, the extremes often */
		switch (next() % 4) {
		case 0:
			return 0;
		case 1:
			return UINT32_MAX;
		default:
			return (uint32_t)next();
		}
	default:
		return 0x4E00 + (uint32_t)(next() % 3000);
	}
}

/* b made from a by up to e random edits, into b; its length. */
static size_t
mutate(const uint32_t *a, size_t na, uint32_t *b, size_t e, int k)
{
	size_t n = na, i, p;

	memcpy(b, a, na * sizeof(*a));
	for (i = 0; i < e; i++) {
		p = n > 0 ? (size_t)(next() % n) : 0;
		switch (next() % 3) {
		case 0:
			if (n < MAXLEN) {
				memmove(b + p + 1, b + p, (n - p) * sizeof(*b));
				b[p] = elem(k);
				n++;
			}
			break;
		case 1:
			if (n > 0) {
				memmove(b + p, b + p + 1,
				    (n - p - 1) * sizeof(*b));
				n--;
			}
			break;
		default:
			if (n > 0)
				b[p] = elem(k);
		}
	}
	return n;
}

static uint32_t a[MAXLEN], b[MAXLEN];

/* One pair against the dynamic program, at several bounds, with the
 * work space e and without. */
static int
check(struct sh_edit *e, size_t na, size_t nb)
{
	size_t d = slow(a, na, b, nb), max[5], i;
	long long got, want;

	max[0] = (size_t)-1;
	max[1] = d;
	max[2] = d > 0 ? d - 1 : 0;
	max[3] = (size_t)(next() % (na + nb + 1));
	max[4] = d / 2;
	for (i = 0; i < 5; i++) {
		want = (long long)(d <= max[i] ? d : max[i] + 1);
		if ((got = sh_edit_dist(e, a, na, b, nb, max[i])) != want ||
		    sh_edit_dist(e, b, nb, a, na, max[i]) != want) {
			printf("# %zu and %zu elements, max %zu: got %lld, "
			    "want %lld\n", na, nb, max[i], got, want);
			return 0;
		}
	}
	return (i = next() % 8) != 0 || sh_edit_dist(NULL, a, na, b, nb,
	    (size_t)-1) == (long long)d;
}

/* Random pairs: unrelated ones and edited copies, lengths around the
 * 64-element blocks. */
static int
random_pairs(struct sh_edit *e, int rounds, size_t top)
{
	size_t na, nb, i;
	int r, k;

	for (r = 0; r < rounds; r++) {
		k = (int)(next() % 6);
		na = (size_t)(next() % (top + 1));
		if (next() % 3 == 0)
			na = 64 * (1 + (size_t)(next() % 4)) - 2 +
			    (size_t)(next() % 5);
		for (i = 0; i < na; i++)
			a[i] = elem(k);
		if (next() % 4 == 0) {
			nb = (size_t)(next() % (top + 1));
			for (i = 0; i < nb; i++)
				b[i] = elem(k);
		} else
			nb = mutate(a, na, b, (size_t)(next() % (na / 4 + 3)),
			    k);
		if (!check(e, na, nb))
			return 0;
	}
	return 1;
}

/* Patterns too many distinct values for the dense table: 6000 of them
 * in 94 blocks, against edited copies, exact and bounded. */
static int
long_pairs(struct sh_edit *e)
{
	size_t na, nb, i;
	int r;

	for (r = 0; r < 3; r++) {
		na = 6000;
		for (i = 0; i < na; i++)
			a[i] = (uint32_t)next();
		nb = mutate(a, na, b, 30 + (size_t)r * 40, 4);
		if (!check(e, na, nb))
			return 0;
	}
	return 1;
}

/* Sequences that are hard on one part or another. */
static int
adversarial(struct sh_edit *e)
{
	size_t n, i;

	/* All alike, against one longer or shorter, across blocks. */
	for (n = 60; n < 200; n += 7) {
		for (i = 0; i < n; i++)
			a[i] = b[i] = 0x4E00;
		if (!check(e, n, n / 2) || !check(e, n, n) ||
		    !check(e, n / 3, n))
			return 0;
	}
	/* Reversed, so that nothing is left at the ends. */
	for (n = 1; n < 300; n += 13) {
		for (i = 0; i < n; i++)
			b[n - 1 - i] = a[i] = coll[i % 64];
		if (!check(e, n, n))
			return 0;
	}
	/* Periodic against shifted, every value in one slot. */
	for (n = 63; n < 260; n += 32) {
		for (i = 0; i < n; i++) {
			a[i] = coll[i % 64];
			b[i] = coll[(i + 1) % 64];
		}
		if (!check(e, n, n) || !check(e, n, n - 1))
			return 0;
	}
	/* Nothing in common; one empty. */
	for (i = 0; i < 130; i++) {
		a[i] = 'x';
		b[i] = 'y';
	}
	return check(e, 130, 130) && check(e, 0, 130) && check(e, 130, 0) &&
	    check(e, 0, 0) && check(e, 65, 129);
}

/* The characters sh_fold_chars counts of s, as UTF-8 code points. */
static int
chars_are(const char *s, int simplify, const uint32_t *want, size_t n)
{
	uint32_t *out = NULL;
	size_t cap = 0, got;
	int bad = 0, r;

	r = sh_fold_chars(s, strlen(s), simplify, &out, &cap, &got, &bad) ==
	    0 && got == n && (n == 0 || memcmp(out, want, n * 4) == 0);
	free(out);
	return r;
}

/* The edit similarity of texts x and y under sh-fp's defaults. */
static uint32_t
edit_sim(const char *x, const char *y, uint32_t min)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct sh_fp *f;
	struct sh_fvec v[2];
	uint32_t s = UINT32_MAX;
	size_t col;
	int bad = 0, i, ok = 1;

	f = sh_fp_new(&o);
	for (i = 0; i < 2; i++) {
		sh_fvec_init(&v[i], 0);
		sh_fvec_chars(&v[i], SH_FVEC_CHARS);
		ok &= f != NULL && sh_fvec_doc(&v[i], f, i ? y : x,
		    strlen(i ? y : x), 0, &bad, &col) == 0 && v[i].n == 0;
	}
	if (ok && sh_sim_edit(NULL, &v[0].set, &v[1].set, min, &s) != 0)
		s = UINT32_MAX - 1;
	for (i = 0; i < 2; i++)
		sh_fvec_free(&v[i]);
	sh_fp_free(f);
	return s;
}

int
main(void)
{
	struct sh_edit *e = sh_edit_new();
	static const uint32_t seed[] = { 0x4F60, 0x5988, 0x5988, 0x558A,
		0x4F60, 0x56DE, 0x5BB6, 0x5403, 0x996D, 0x54E6, 0x56DE, 0x5BB6,
		0x7F57, 0x56DE, 0x5BB6, 0x7F57 };

	find_collisions();
	ok(e != NULL, "a work space");
	ok(random_pairs(e, 20000, 70), "random pairs up to 70 and at block edges: the dynamic "
	    "program's distance, or max + 1 past max");
	ok(random_pairs(e, 3000, 300), "random pairs up to 300, in blocks");
	ok(random_pairs(e, 150, 1200), "random pairs up to 1200");
	sh_edit_dense(0);
	ok(random_pairs(e, 3000, 300) && random_pairs(e, 100, 1200) &&
	    adversarial(e), "the same with a table a block");
	sh_edit_dense(1);
	ok(long_pairs(e), "6000 distinct values, past the dense table");
	ok(adversarial(e), "alike, reversed, one hash slot, disjoint, empty");
	ok(sh_edit_dist(e, seed, 16, seed, 16, 0) == 0 &&
	    sh_edit_dist(e, seed, 16, seed + 1, 15, 0) == 1 &&
	    sh_edit_dist(e, seed, 16, seed, 0, 15) == 16 &&
	    sh_edit_dist(e, seed, 16, seed, 0, 3) == 4, "bounds: max + 1");

	ok(chars_are("你妈妈喊你回家吃饭哦,回家罗回家罗", 0, seed, 16) &&
	    chars_are("你妈妈喊你回家吃饭哦，回家罗\n回家罗。", 0, seed, 16),
	    "the seed: its characters");
	ok(chars_are("Hi, Ａ-1!", 0, (const uint32_t[]){ 'h', 'i', 'a', '1' },
	    4), "folded; spaces and punctuation dropped");
	ok(chars_are("e\xcc\x81 \xcc\x81x", 0,
	    (const uint32_t[]){ 0xE9, 0x301, 'x' }, 3),
	    "a mark composed, or kept after a space");
	ok(chars_are("說", 1, (const uint32_t[]){ 0x8BF4 }, 1) &&
	    chars_are("說", 0, (const uint32_t[]){ 0x8AAA }, 1),
	    "-z: simplified");
	ok(chars_are(" ,.;", 0, NULL, 0) && chars_are("\xff", 0, NULL, 0),
	    "nothing kept: none");

	ok(edit_sim("你妈妈喊你回家吃饭哦,回家罗回家罗",
	    "你妈妈叫你回家吃饭啦,回家罗回家罗", 0) == 875000,
	    "the seed's pair: 2 edits in 16, 0.875");
	ok(edit_sim("你妈妈喊你回家吃饭哦,回家罗回家罗",
	    "你妈妈叫你回家吃饭啦,回家罗回家罗", 875000) == 875000 &&
	    edit_sim("你妈妈喊你回家吃饭哦,回家罗回家罗",
	    "你妈妈叫你回家吃饭啦,回家罗回家罗", 875001) < 875001,
	    "at min, and below");
	ok(edit_sim("abc", "abd", 0) == 666667 &&
	    edit_sim("ab", "ab...", 0) == 1000000 &&
	    edit_sim("", "", 0) == 0 && edit_sim("abc", "!", 0) == 0,
	    "rounded half up; none counted: 0");
	sh_edit_free(e);
	return tap_done();
}

/*
 * lev: the speed of the edit measure (sh-dist -J edit), a pair at a time
 * as the verifier compares them: the edit similarity (sh_sim_edit) of
 * folded characters (sh_fold_chars) already cut, one work space kept.
 *
 * usage: lev [-n count] [-r runs]
 *
 * Cases: the two sentences of the seed article (你妈妈喊你回家吃饭哦,
 * 回家罗回家罗 and 你妈妈叫你回家吃饭啦,回家罗回家罗, 16 characters each
 * once the comma is dropped), the same pair again and again; then pools
 * of 1000 pairs of 64, 140 and 1000 characters, Chinese (characters
 * drawn from 3000 ideographs) and English (letters a to z), each a text
 * and a copy with one character in 20 edited (substituted, inserted or
 * deleted), compared in turn.  Each case is timed exactly (min 0) and at
 * min 0.8, count comparisons (default 1000000; a tenth of that at 1000
 * characters), runs times (default 5); printed: the mean length and
 * exact similarity of the pairs, the median ns a comparison (which is
 * also ms a million), comparisons a second, and how many times faster
 * than the 4,266 ms a million of the seed's Java.  The texts depend
 * only on the program: the same on every machine.
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "fp/edit.h"
#include "fp/similar.h"
#include "text/fold.h"

#define POOL 1000
#define MAXRUNS 101

static uint64_t state = 0x9E3779B97F4A7C15ULL;

/* splitmix64 */
static uint64_t
next(void)
{
	uint64_t z = (state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ z >> 27) * 0x94D049BB133111EBULL;
	return z ^ z >> 31;
}

struct pair {
	uint32_t *c[2];
	size_t n[2];
};

static void
die(const char *what)
{
	fprintf(stderr, "lev: %s\n", what);
	exit(2);
}

static uint32_t
letter(int zh)
{
	return zh ? 0x4E00 + (uint32_t)(next() % 3000) :
	    'a' + (uint32_t)(next() % 26);
}

/* A text of n characters and its copy, one character in 20 edited. */
static void
make_pair(struct pair *p, size_t n, int zh)
{
	size_t i, j = 0;
	uint32_t *a, *b;

	if ((a = malloc(n * sizeof(*a))) == NULL ||
	    (b = malloc((2 * n + 1) * sizeof(*b))) == NULL)
		die("out of memory");
	for (i = 0; i < n; i++)
		a[i] = letter(zh);
	for (i = 0; i < n; i++) {
		if (next() % 20 != 0) {
			b[j++] = a[i];
			continue;
		}
		switch (next() % 3) {
		case 0:
			b[j++] = letter(zh);
			break;
		case 1:
			b[j++] = letter(zh);
			b[j++] = a[i];
			break;
		default:
			break;
		}
	}
	p->c[0] = a;
	p->n[0] = n;
	p->c[1] = b;
	p->n[1] = j;
}

static double
now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int
cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static volatile uint32_t sink;

/* Compare count pairs of the np of p, in turn, at min; the median of runs
 * timings in seconds. */
static double
timeit(struct sh_edit *ws, const struct pair *p, size_t np, long count,
    uint32_t min, int runs)
{
	struct sh_fset a, b;
	double t[MAXRUNS], t0;
	uint32_t sim, acc = 0;
	long i;
	int r;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (r = 0; r < runs; r++) {
		t0 = now();
		for (i = 0; i < count; i++) {
			a.c = p[i % np].c[0];
			a.nc = p[i % np].n[0];
			b.c = p[i % np].c[1];
			b.nc = p[i % np].n[1];
			if (sh_sim_edit(ws, &a, &b, min, &sim) != 0)
				die("out of memory");
			acc += sim;
		}
		t[r] = now() - t0;
	}
	sink = acc;
	qsort(t, (size_t)runs, sizeof(t[0]), cmp);
	return runs % 2 ? t[runs / 2] : (t[runs / 2 - 1] + t[runs / 2]) / 2;
}

/* One line: the case, its mean length and mean exact similarity, min,
 * and the median time s of count comparisons. */
static void
row(struct sh_edit *ws, const char *name, const struct pair *p, size_t np,
    long count, uint32_t min, double s)
{
	struct sh_fset a, b;
	double len = 0, sim = 0;
	uint32_t v;
	size_t i;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (i = 0; i < np; i++) {
		a.c = p[i].c[0];
		a.nc = p[i].n[0];
		b.c = p[i].c[1];
		b.nc = p[i].n[1];
		if (sh_sim_edit(ws, &a, &b, 0, &v) != 0)
			die("out of memory");
		len += (double)(a.nc + b.nc) / 2;
		sim += v / 1e6;
	}
	printf("%-8s %6.0f %6.3f %4s %9.1f %12.0f %8.0f\n", name, len / np,
	    sim / np, min ? "0.8" : "0", s * 1e9 / count, count / s,
	    4266 / (s * 1e9 / count));
}

int
main(int argc, char *argv[])
{
	static const char *seed[2] = {
		"你妈妈喊你回家吃饭哦,回家罗回家罗",
		"你妈妈叫你回家吃饭啦,回家罗回家罗"
	};
	static const struct {
		const char *name;
		size_t len;
		int zh;
	} cases[] = {
		{ "zh-64", 64, 1 }, { "en-64", 64, 0 }, { "zh-140", 140, 1 },
		{ "en-140", 140, 0 }, { "zh-1000", 1000, 1 },
		{ "en-1000", 1000, 0 },
	};
	struct sh_edit *ws;
	struct pair sp, *pool;
	char *end;
	long count = 1000000, n;
	size_t cap[2] = { 0, 0 }, i, k;
	int ch, runs = 5, bad = 0, m;

	while ((ch = getopt(argc, argv, "n:r:")) != -1) {
		errno = 0;
		n = optarg ? strtol(optarg, &end, 10) : 0;
		if (ch == '?' || errno != 0 || *end != '\0' || n < 1 ||
		    (ch == 'r' && n > MAXRUNS))
			die("usage: lev [-n count] [-r runs]");
		if (ch == 'n')
			count = n;
		else
			runs = (int)n;
	}
	if ((ws = sh_edit_new()) == NULL || (pool = calloc(POOL,
	    sizeof(*pool))) == NULL)
		die("out of memory");
	sp.c[0] = sp.c[1] = NULL;
	for (i = 0; i < 2; i++)
		if (sh_fold_chars(seed[i], strlen(seed[i]), 0, &sp.c[i],
		    &cap[i], &sp.n[i], &bad) != 0)
			die("out of memory");
	printf("%-8s %6s %6s %4s %9s %12s %8s\n", "pairs", "chars", "sim",
	    "min", "ns/pair", "pairs/s", "x4266ms");
	for (m = 0; m < 2; m++)
		row(ws, "seed", &sp, 1, count, m ? 800000 : 0, timeit(ws, &sp,
		    1, count, m ? 800000 : 0, runs));
	for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		for (i = 0; i < POOL; i++)
			make_pair(&pool[i], cases[k].len, cases[k].zh);
		n = cases[k].len >= 1000 ? count / 10 : count;
		for (m = 0; m < 2; m++)
			row(ws, cases[k].name, pool, POOL, n, m ? 800000 : 0,
			    timeit(ws, pool, POOL, n, m ? 800000 : 0, runs));
		for (i = 0; i < POOL; i++) {
			free(pool[i].c[0]);
			free(pool[i].c[1]);
		}
	}
	free(pool);
	free(sp.c[0]);
	free(sp.c[1]);
	sh_edit_free(ws);
	return 0;
}

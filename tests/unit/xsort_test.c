/*
 * The external sort against qsort: records in random order, sorted, with
 * many equal keys, for budgets that keep everything in memory, that spill
 * a few runs, and that spill more runs than one merge may read at once
 * (the smallest budget, 128 KiB, merges 32 runs at most), so that merge
 * passes come first.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/xsort.h"
#include "rng.h"
#include "tap.h"

#define N 200000

static int
cmp(const void *p, const void *q)
{
	const struct sh_xrec *a = p, *b = q;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return (a->b > b->b) - (a->b < b->b);
}

int
main(void)
{
	static struct sh_xrec v[2 * N], want[2 * N];
	static const size_t budgets[] = { 1, 1 << 16, 1 << 20, 64 << 20 };
	const char *tmp = getenv("TMPDIR");
	struct sh_xsort *x;
	struct sh_xrec r;
	size_t i, n, b;
	int kind, ok_all, e;

	for (kind = 0; kind < 3; kind++) {
		for (i = 0; i < N; i++) {
			v[i].a = kind == 0 ? next() : kind == 1 ? i / 3 :
			    next() % 50;
			v[i].b = kind == 1 ? i : next() % 1000;
		}
		memcpy(want, v, sizeof(v));
		qsort(want, N, sizeof(*want), cmp);
		for (b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
			ok_all = (x = sh_xsort_new(budgets[b], tmp)) != NULL;
			for (i = 0; ok_all && i < N; i++)
				ok_all = sh_xsort_add(x, v[i].a, v[i].b) == 0;
			for (n = 0; ok_all && (e = sh_xsort_next(x, &r)) ==
			    1; n++)
				ok_all = n < N && r.a == want[n].a &&
				    r.b == want[n].b;
			/* 49 runs of 4096 records: 31 merged into one. */
			ok(ok_all && n == N && sh_xsort_runs(x) ==
			    (b < 2 ? 19 : b == 2 ? 7 : 0) &&
			    sh_xsort_passes(x) == (b < 2), "kind %d, budget "
			    "%zu: %zu records in order, %d runs on disk, %d "
			    "merge passes", kind, budgets[b], n,
			    x ? sh_xsort_runs(x) : -1,
			    x ? sh_xsort_passes(x) : -1);
			sh_xsort_free(x);
		}
	}
	/* 98 runs of 4096: three passes of 31 into one leave 8. */
	for (i = 0; i < 2 * N; i++) {
		v[i].a = next() % 100000;
		v[i].b = i;
	}
	memcpy(want, v, 2 * N * sizeof(*v));
	qsort(want, 2 * N, sizeof(*want), cmp);
	ok_all = (x = sh_xsort_new(1, tmp)) != NULL;
	for (i = 0; ok_all && i < 2 * N; i++)
		ok_all = sh_xsort_add(x, v[i].a, v[i].b) == 0;
	for (n = 0; ok_all && (e = sh_xsort_next(x, &r)) == 1; n++)
		ok_all = n < 2 * N && r.a == want[n].a && r.b == want[n].b;
	ok(ok_all && n == 2 * N && sh_xsort_runs(x) == 8 &&
	    sh_xsort_passes(x) == 3, "%zu records through %d merge passes, "
	    "in order", n, x ? sh_xsort_passes(x) : -1);
	sh_xsort_free(x);
	x = sh_xsort_new(1 << 20, tmp);
	ok(x != NULL && sh_xsort_next(x, &r) == 0, "no records: none out");
	sh_xsort_free(x);
	x = sh_xsort_new(1, "/nonexistent/dir");
	for (i = 0, e = 0; x != NULL && e == 0 && i < N; i++)
		e = sh_xsort_add(x, i, i);
	ok(e == SH_EIO, "a temporary directory that is not there: SH_EIO");
	sh_xsort_free(x);
	return tap_done();
}

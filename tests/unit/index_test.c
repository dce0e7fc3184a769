/*
 * Index segments against brute force: the probe radius of every plan,
 * permutations, and searches at every distance 0..10 in segments of
 * random, planted and adversarial sets, with chosen and forced plans;
 * each segment written, reopened and verified.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fpsets.h"
#include "base/hex.h"
#include "near/plan.h"
#include "index/segment.h"
#include "tap.h"

#define N 2000
#define NQ 150

/* Largest sum of the r smallest of b counts summing to k, by search. */
static int
worst(int b, int r, int k, int *d, int i)
{
	int v, best = 0, s, j, m, tmp[SH_PLAN_BMAX];

	if (i == b - 1) {
		d[i] = k;
		memcpy(tmp, d, (size_t)b * sizeof(*d));
		for (j = 0; j < b; j++)		/* sort, small b */
			for (m = j + 1; m < b; m++)
				if (tmp[m] < tmp[j]) {
					v = tmp[j];
					tmp[j] = tmp[m];
					tmp[m] = v;
				}
		for (j = 0, s = 0; j < r; j++)
			s += tmp[j];
		return s;
	}
	for (v = 0; v <= k; v++) {
		d[i] = v;
		if ((s = worst(b, r, k - v, d, i + 1)) > best)
			best = s;
	}
	return best;
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and drop repeats; return the new count. */
static size_t
uniq(uint64_t *v, size_t n)
{
	size_t i, m = 0;

	qsort(v, n, sizeof(*v), cmp64);
	for (i = 0; i < n; i++)
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	return m;
}

/* Write a segment of fp[0..n) (sorted, distinct) with plan to path, IDs
 * "iN\n", and open it into *s.  Return 0 or an error. */
static int
make_segment(const char *path, const struct sh_plan *plan,
    const uint64_t *fp, size_t n, struct sh_seg *s)
{
	static uint64_t idoff[N + 1];
	static char ids[N * 8];
	struct sh_segdata d;
	size_t i, len = 0;
	FILE *f;
	int e;

	for (i = 0; i < n; i++) {
		idoff[i] = len;
		len += (size_t)sprintf(ids + len, "i%zu\n", i);
	}
	idoff[n] = len;
	d.fp = fp;
	d.idoff = idoff;
	d.ids = ids;
	d.nfp = n;
	d.nid = n;
	if ((f = fopen(path, "w+")) == NULL)
		return -100;
	e = sh_seg_write(fileno(f), plan, &d);
	fclose(f);
	return e ? e : sh_seg_open(s, path);
}

int
main(void)
{
	static uint64_t fp[N], q[NQ], want[N];
	static const int forced[][2] = {
		{ 1, 1 }, { 2, 1 }, { 4, 1 }, { 5, 2 }, { 6, 2 }, { 8, 3 },
		{ 3, 3 }
	};
	struct sh_hits h = { 0 };
	struct sh_plan plan;
	struct sh_seg s;
	char path[4096];
	const char *tmp = getenv("TMPDIR");
	size_t n, i, j, nw;
	int b, r, k, ks, kind, p, d[SH_PLAN_BMAX], bad, ok_all;
	uint64_t x, y;

	/* The probe radius is the worst case of the r least differing
	 * blocks. */
	for (b = 1, bad = 0; b <= 7; b++)
		for (r = 1; r <= b; r++)
			for (k = 0; k <= 10; k++) {
				sh_plan_blocks(&plan, b, r);
				bad += sh_plan_radius(&plan, k) !=
				    worst(b, r, k, d, 0);
			}
	ok(bad == 0, "probe radius equals the worst case, b 1..7, k 0..10");

	for (p = 0, bad = 0; p < 7; p++) {
		sh_plan_blocks(&plan, forced[p][0], forced[p][1]);
		for (i = 0; i < 1000; i++) {
			x = next();
			y = flip(x, (int)(next() % 9));
			for (b = 0; b < plan.ntables; b++)
				bad += sh_plan_unperm(&plan, b,
				    sh_plan_perm(&plan, b, x)) != x ||
				    sh_hamming(sh_plan_perm(&plan, b, x),
				    sh_plan_perm(&plan, b, y)) !=
				    sh_hamming(x, y) ||
				    sh_plan_perm(&plan, b, x) >>
				    (64 - plan.keybits[b]) !=
				    sh_plan_key(&plan, b, x);
		}
		bad += sh_plan_perm(&plan, 0, x) != x;
	}
	ok(bad == 0, "permutations: inverse, distance kept, key on top, "
	    "table 0 the identity");

	snprintf(path, sizeof(path), "%s/index_test.%ld.seg",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", (long)getpid());
	for (kind = 0; kind < 4; kind++)
		for (ks = 0; ks <= 8; ks += 4) {
			make_set(fp, N, kind, ks);
			n = uniq(fp, N);
			for (i = 0; i < NQ; i++)
				q[i] = i % 3 == 0 ? next() : flip(fp[next() %
				    n], (int)(next() % 6));
			for (p = -1; p < 7; p++) {
				if (p < 0)
					sh_plan_index(&plan, ks, n);
				else
					sh_plan_blocks(&plan, forced[p][0],
					    forced[p][1]);
				plan.k = ks;
				if (make_segment(path, &plan, fp, n, &s) != 0 ||
				    sh_seg_verify(&s) != 0) {
					ok(0, "set %d: segment b=%d r=%d written "
					    "and verified", kind, plan.nblocks,
					    plan.nkey);
					continue;
				}
				ok_all = 1;
				for (k = 0; k <= 10; k++)
					for (i = 0; i < NQ; i++) {
						for (j = 0, nw = 0; j < n; j++)
							if (sh_hamming(fp[j],
							    q[i]) <= k)
								want[nw++] =
								    fp[j];
						h.n = 0;
						if (sh_seg_search(&s, q[i], k,
						    0, &h) != 0 || h.n != nw)
							ok_all = 0;
						for (j = 0; ok_all && j < nw;
						    j++)
							ok_all = h.v[j].fp ==
							    want[j] &&
							    fp[h.v[j].pos] ==
							    want[j] &&
							    h.v[j].dist ==
							    sh_hamming(want[j],
							    q[i]);
					}
				ok(ok_all, "set %d, served k=%d, plan b=%d r=%d "
				    "(%d tables): searches at k 0..10 equal "
				    "brute force", kind, ks, plan.nblocks,
				    plan.nkey, plan.ntables);
				sh_seg_close(&s);
			}
		}
	unlink(path);
	free(h.v);
	return tap_done();
}

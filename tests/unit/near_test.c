/*
 * Exactness of the near-duplicate search against brute force: random
 * fingerprints, planted neighbours at every distance 0..k+1, and
 * adversarial sets where thousands share blocks, for every k from 0 to 8,
 * automatic and forced plans, one and several threads; the streaming
 * filter and the clusters likewise.
 */
#include <stdlib.h>
#include <string.h>

#include "base/fpval.h"
#include "base/shard.h"
#include "near/cluster.h"
#include "near/dedup.h"
#include "near/join.h"
#include "near/model.h"
#include "near/plan.h"
#include "fpsets.h"
#include "rng.h"
#include "tap.h"

static int
brute_pairs(const uint64_t *fp, size_t n, int k, struct sh_pairs *out)
{
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (sh_hamming(fp[i], fp[j]) <= k &&
			    sh_pairs_add(out, (uint64_t)i << 32 | j) != 0)
				return -1;
	return 0;
}

static int
same(const struct sh_pairs *a, const struct sh_pairs *b)
{
	return a->n == b->n && (a->n == 0 ||
	    memcmp(a->v, b->v, a->n * sizeof(*a->v)) == 0);
}

static size_t
count(const char *v, size_t n)
{
	size_t i, c = 0;

	for (i = 0; i < n; i++)
		c += v[i] != 0;
	return c;
}

/* The shards of the join, together, give every pair in want once. */
static void
shards(const uint64_t *fp, size_t n, int k, int kind,
    const struct sh_pairs *want)
{
	static const uint32_t ns[] = { 1, 2, 3, 4, 5, 7, 10, 13 };
	struct sh_pairs got;
	struct sh_plan plan;
	struct sh_shard s;
	size_t w;
	int ok_all = 1;

	for (w = 0; w < sizeof(ns) / sizeof(ns[0]); w++) {
		sh_plan_init(&plan, k, 0, n);
		memset(&got, 0, sizeof(got));
		s.n = ns[w];
		for (s.i = 0; s.i < s.n; s.i++)
			if (sh_join(fp, n, &plan, 2, &s, NULL, &got) != 0)
				ok_all = 0;
		sh_pairs_sort(&got);
		ok_all &= same(&got, want);
		free(got.v);
	}
	ok(ok_all, "k=%d set %d: join shards 1 to 13 ways give every pair "
	    "once", k, kind);
}

/* What the join reported of its progress. */
static struct {
	uint64_t calls, last, total;
	int backwards;
} tally;

static void
report(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	(void)ctx;
	tally.backwards |= done != tally.last + 1 || strcmp(what, "table") != 0;
	tally.calls++;
	tally.last = done;
	tally.total = total;
}

/* The distances of sh-near(1)'s table, at the recall it plans for. */
static void
model(void)
{
	static const struct { uint32_t sim; int k; } row[] = {
		{ 500000, 23 }, { 600000, 20 }, { 700000, 18 },
		{ 800000, 15 }, { 850000, 13 }, { 900000, 11 },
		{ 950000, 8 }, { 970000, 7 }, { 990000, 5 }, { 1000000, 0 }
	};
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(row) / sizeof(row[0]); i++)
		if (sh_model_k(row[i].sim, SH_MODEL_RECALL) != row[i].k)
			bad++;
	ok(bad == 0, "model: the distances of the table in sh-near(1)");
	ok(sh_model_k(900000, 990000) == 13 &&
	    sh_model_k(900000, 500000) == 7, "model: recall 0.99 and 0.5");
	ok(sh_model_mean(900000) > 6.63 && sh_model_mean(900000) < 6.65,
	    "model: mean distance at 0.9");
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* sh_pairs_sort, a radix sort past 1024 pairs, against qsort: pairs of
 * indexes of 1 to 32 bits, repeated ones among them. */
static void
pairs_sort(void)
{
	static uint64_t want[20000];
	struct sh_pairs p = { NULL, 0, 0 };
	size_t n, i;
	int bits, bad = 0;

	for (bits = 1; bits <= 32; bits += 31 / 4) {
		for (n = 0; n < 20000; n++) {
			uint64_t m = bits == 32 ? 0xFFFFFFFF :
			    ((uint64_t)1 << bits) - 1;

			want[n] = n % 7 == 3 && n > 0 ? want[n - 1] :
			    (next() & m) << 32 | (next() & m);
		}
		for (n = 1000; n <= 20000; n += 19000) {
			p.n = 0;
			for (i = 0; i < n; i++)
				if (sh_pairs_add(&p, want[i]) != 0)
					bad++;
			sh_pairs_sort(&p);
			qsort(want, n, sizeof(want[0]), cmp_u64);
			bad += p.n != n || memcmp(p.v, want, n *
			    sizeof(want[0])) != 0;
		}
	}
	free(p.v);
	ok(bad == 0, "sh_pairs_sort equals qsort, 1000 and 20000 pairs, "
	    "indexes of 1 to 32 bits");
}

int
main(void)
{
	struct sh_progress pg = { report, NULL };
	static uint64_t fp[3000];
	static uint32_t rep[3000], brep[3000];
	static char kept[3000];
	struct sh_pairs got, want;
	struct sh_plan plan;
	struct sh_dedup *d;
	size_t n, i, j, bad, a, b;
	/* Join threads, and the vector code (1) or the portable one. */
	static const int conf[3][2] = { { 1, 1 }, { 3, 1 }, { 3, 0 } };
	int k, kind, r, c, found, ok_all;

	/* The plans the join and the streaming filter choose. */
	ok(sh_plan_join(&plan, 3, 0, 10000000) == 0 && plan.ntables == 4 &&
	    sh_plan_join(&plan, 3, 0, 100000000) == 0 && plan.ntables == 10 &&
	    sh_plan_join(&plan, 11, 0, 1100000) == 0 && plan.ntables == 78 &&
	    sh_plan_init(&plan, 3, 0, 10000000) == 0 && plan.ntables == 10 &&
	    sh_plan_init(&plan, 11, 0, 1100000) == 0 && plan.ntables == 364,
	    "join plans count long runs an eighth; the filter's do not");

	for (k = 0; k <= 8; k++) {
		for (kind = 0; kind < 3; kind++) {
			n = kind == 2 ? 3000 : 2000;
			make_set(fp, n, kind, k);
			memset(&want, 0, sizeof(want));
			brute_pairs(fp, n, k, &want);
			ok_all = 1;
			for (r = 0; r <= 3; r++) {
				if (sh_plan_init(&plan, k, r, n) != 0)
					continue;
				for (c = 0; c < 3; c++) {
					sh_join_vector(conf[c][1]);
					memset(&got, 0, sizeof(got));
					memset(&tally, 0, sizeof(tally));
					if (sh_join(fp, n, &plan, conf[c][0],
					    NULL, &pg, &got) != 0 ||
					    !same(&got, &want) ||
					    tally.calls != (uint64_t)plan.ntables ||
					    tally.last != tally.total ||
					    tally.total != (uint64_t)plan.ntables ||
					    tally.backwards)
						ok_all = 0;
					free(got.v);
				}
				sh_join_vector(1);
			}
			ok(ok_all, "k=%d set %d: join equals brute force "
			    "(%zu pairs), every plan and thread count, vector "
			    "and portable", k, kind, want.n);

			/* Brute force: labels lowered along the brute-force
			 * pairs until nothing moves. */
			for (i = 0; i < n; i++)
				brep[i] = (uint32_t)i;
			do
				for (i = 0, bad = 0; i < want.n; i++) {
					a = want.v[i] >> 32;
					b = (uint32_t)want.v[i];
					if (brep[a] != brep[b]) {
						brep[a] = brep[b] =
						    brep[a] < brep[b] ?
						    brep[a] : brep[b];
						bad = 1;
					}
				}
			while (bad);
			sh_plan_init(&plan, k, 0, n);
			memset(&got, 0, sizeof(got));
			sh_join(fp, n, &plan, 2, NULL, NULL, &got);
			sh_cluster_start(n, rep);
			for (i = 0; i < got.n; i++)
				sh_cluster_union(rep, (uint32_t)(got.v[i] >> 32),
				    (uint32_t)got.v[i]);
			sh_cluster_finish(n, rep);
			ok(memcmp(rep, brep, n * sizeof(*rep)) == 0,
			    "k=%d set %d: clusters agree with brute force, "
			    "each labelled by its smallest index", k, kind);
			free(got.v);
			for (i = 0, bad = 0; i < n; i++)
				for (j = 0; j < i; j++)
					if (sh_hamming(fp[i], fp[j]) <= k &&
					    brep[i] != brep[j])
						bad++;
			ok(bad == 0, "k=%d set %d: near pairs share a cluster",
			    k, kind);

			sh_plan_init(&plan, k, 0, 1 << 24);
			d = sh_dedup_new(&plan);
			for (i = 0, bad = 0; i < n; i++) {
				/* Brute force: near one kept so far? */
				found = 0;
				for (j = 0; j < i && !found; j++)
					found = kept[j] &&
					    sh_hamming(fp[i], fp[j]) <= k;
				kept[i] = !found;
				if (sh_dedup_add(d, fp[i]) != found)
					bad++;
			}
			ok(bad == 0 && sh_dedup_kept(d) == count(kept, n),
			    "k=%d set %d: streaming filter keeps what brute "
			    "force keeps (%zu)", k, kind, count(kept, n));
			sh_dedup_free(d);
			if (k == 3 || k == 8)
				shards(fp, n, k, kind, &want);
			free(want.v);
		}
	}
	model();
	pairs_sort();
	return tap_done();
}

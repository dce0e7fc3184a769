/*
 * The bit-sliced accumulator against a plain per-lane reference: random
 * features and weights, weight-1 and weighted paths mixed, ties, and
 * documents long enough to exercise every spill and carry.
 */
#include "fp/simhash.h"
#include "rng.h"
#include "tap.h"


struct ref {
	long long v[64];
};

static void
ref_add(struct ref *r, uint64_t h, long long w)
{
	int i;

	for (i = 0; i < 64; i++)
		r->v[i] += (h >> i & 1) ? w : -w;
}

static uint64_t
ref_final(const struct ref *r)
{
	uint64_t fp = 0;
	int i;

	for (i = 0; i < 64; i++)
		if (r->v[i] > 0)
			fp |= (uint64_t)1 << i;
	return fp;
}

int
main(void)
{
	struct sh_simhash s;
	struct ref r;
	uint64_t h, w;
	static uint64_t hv[1200];
	int t, i, j, n, v, mism = 0, trials = 2000;

	for (t = 0; t < trials; t++) {
		struct ref z = { { 0 } };

		r = z;
		sh_simhash_init(&s);
		n = t < 1000 ? t % 40 : (int)(next() % 20000);
		for (i = 0; i < n; i++) {
			/* Few distinct hashes make ties and long carries. */
			h = t % 3 == 0 ? next() % 4 * 0x5555555555555555ULL :
			    next();
			if (t % 2 == 0 || next() % 4 != 0) {
				sh_simhash_add(&s, h);
				ref_add(&r, h, 1);
			} else {
				w = next() % (t % 5 == 0 ? 1000000 : 5);
				sh_simhash_addw(&s, h, w);
				ref_add(&r, h, (long long)w);
			}
		}
		if (sh_simhash_final(&s) != ref_final(&r))
			mism++;
	}
	ok(mism == 0, "bit-sliced equals per-lane reference in %d of %d trials",
	    trials - mism, trials);

	sh_simhash_init(&s);
	ok(sh_simhash_final(&s) == 0 && sh_simhash_total(&s) == 0,
	    "empty accumulator: total 0");
	sh_simhash_init(&s);
	sh_simhash_add(&s, 0xF0F0F0F0F0F0F0F0ULL);
	ok(sh_simhash_final(&s) == 0xF0F0F0F0F0F0F0F0ULL,
	    "one feature: fingerprint is its hash");
	sh_simhash_init(&s);
	sh_simhash_add(&s, 0xFFFF0000FFFF0000ULL);
	sh_simhash_add(&s, 0xFF00FF00FF00FF00ULL);
	ok(sh_simhash_final(&s) == 0xFF000000FF000000ULL,
	    "tie gives 0: two features vote like AND");
	sh_simhash_init(&s);
	sh_simhash_addw(&s, 0x00000000FFFFFFFFULL, 3);
	sh_simhash_addw(&s, 0xFFFFFFFF00000000ULL, 2);
	ok(sh_simhash_final(&s) == 0x00000000FFFFFFFFULL && s.total == 5,
	    "heavier feature wins");
	sh_simhash_init(&s);
	for (i = 0; i < 100; i++)
		sh_simhash_add(&s, 1);
	sh_simhash_addw(&s, 2, 99);
	ok(sh_simhash_final(&s) == 1, "weight 1 x100 beats weight 99");

	/* Many at once, vector and portable, in runs of any length (past
	 * the 255 of the byte counters), between weighted ones. */
	for (v = 0; v <= 1; v++) {
		sh_simhash_vector(v);
		mism = 0;
		for (t = 0; t < 300; t++) {
			struct ref z = { { 0 } };

			r = z;
			sh_simhash_init(&s);
			for (j = 0; j < 1 + t % 7; j++) {
				n = (int)(next() % 1200);
				for (i = 0; i < n; i++) {
					/* Some runs all alike: counters
					 * full at 255. */
					hv[i] = t % 5 == 1 ? ~0ULL : t % 3 == 0 ?
					    next() % 4 * 0x5555555555555555ULL :
					    next();
					ref_add(&r, hv[i], 1);
				}
				sh_simhash_add_many(&s, hv, (size_t)n);
				if (t % 2 == 0) {
					h = next();
					sh_simhash_addw(&s, h, 3);
					ref_add(&r, h, 3);
				}
			}
			if (sh_simhash_final(&s) != ref_final(&r))
				mism++;
		}
		ok(mism == 0, "many at once (%s) equals the reference in "
		    "300 trials", v ? "vector" : "portable");
	}
	sh_simhash_vector(1);
	return tap_done();
}

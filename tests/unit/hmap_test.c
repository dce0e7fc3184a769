/*
 * base/hmap: sh_hmap_add and sh_hmap_del against a brute-force model
 * (an array of keys), with keys chosen to share their low bits so that
 * runs of slots are long and wrap past the end of the table; the key 0,
 * kept apart; growth keeping every value.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hmap.h"
#include "rng.h"
#include "tap.h"

#define N 3000

static uint64_t key[N];
static uint32_t val[N];
static int live[N];

/* Every key of the model found with its value, or not found, and the
 * count right; the slots a power of two over twice the keys. */
static int
agrees(const struct sh_hmap *m)
{
	size_t i, n = 0;
	uint32_t v;

	for (i = 0; i < N; i++) {
		if (live[i]) {
			n++;
			if (!sh_hmap_get(m, key[i], &v) || v != val[i])
				return 0;
		} else if (sh_hmap_get(m, key[i], NULL))
			return 0;
	}
	return m->n == n && (m->nslot == 0 || (2 * n < m->nslot &&
	    (m->nslot & (m->nslot - 1)) == 0));
}

/* Keys all different; most share their low 8 bits with others, some sit
 * at the end of the table's home range, and key[0] is 0. */
static void
make_keys(void)
{
	size_t i, j;

	for (i = 0; i < N; i++) {
		do {
			switch (i % 3) {
			case 0:
				key[i] = next();
				break;
			case 1:
				key[i] = next() << 8 | 0x17;
				break;
			default:
				key[i] = next() << 12 | 0xFFF;
			}
			if (i == 0)
				key[i] = 0;
			for (j = 0; j < i && key[j] != key[i]; j++)
				;
		} while (j < i);
		val[i] = (uint32_t)next();
	}
}

/* Add k alone: 1 when it is new. */
static int
add1(struct sh_hset *s, uint64_t k)
{
	uint64_t fresh;

	return sh_hset_add_many(s, &k, 1, &fresh) == 1;
}

int
main(void)
{
	struct sh_hmap m = { 0 };
	struct sh_hset hs = { 0 };
	size_t i, j, t, n, order[N], bad, nslot;
	uint64_t x, batch[40], fresh[40];
	uint32_t old;
	int r, ok1;

	make_keys();
	ok(sh_hmap_del(&m, 42) == 0 && sh_hmap_del(&m, 0) == 0 && m.n == 0,
	    "delete from the empty map: not there");

	/* Key 0, kept apart. */
	ok(sh_hmap_add(&m, 0, 7, &old) == 0 && m.n == 1 && m.nslot == 0,
	    "key 0 added, no slot used");
	old = 0;
	ok(sh_hmap_add(&m, 0, 8, &old) == 1 && old == 7 && m.n == 1,
	    "key 0 again: 1, its value kept");
	ok(sh_hmap_del(&m, 0) == 1 && m.n == 0 && !sh_hmap_get(&m, 0, NULL),
	    "key 0 deleted");
	ok(sh_hmap_del(&m, 0) == 0, "key 0 deleted again: not there");

	/* Growth: all added, each once. */
	for (i = 0, bad = 0, nslot = 0; i < N; i++) {
		if (sh_hmap_add(&m, key[i], val[i], &old) != 0)
			bad++;
		live[i] = 1;
		if (m.nslot != nslot) {
			bad += !agrees(&m);
			nslot = m.nslot;
		}
	}
	ok(bad == 0 && agrees(&m) && m.nslot == 8192,
	    "%d keys added, found after each growth, 8192 slots", N);
	for (i = 0, bad = 0; i < N; i++)
		bad += sh_hmap_add(&m, key[i], 0, &old) != 1 || old != val[i];
	ok(bad == 0 && agrees(&m), "adding them again: 1, the old values");

	/* Deletions in random order, checked after each one. */
	for (i = 0; i < N; i++)
		order[i] = i;
	for (i = N - 1; i > 0; i--) {
		j = (size_t)(next() % (i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
	for (i = 0, bad = 0; i < N; i++) {
		bad += sh_hmap_del(&m, key[order[i]]) != 1;
		live[order[i]] = 0;
		bad += sh_hmap_del(&m, key[order[i]]) != 0;
		bad += !agrees(&m);
	}
	ok(bad == 0 && m.n == 0 && m.nslot == 8192,
	    "all deleted in random order, the others found after each");

	/* Adds and deletions mixed, in a table that no longer grows. */
	for (t = 0, bad = 0; t < 20 * N; t++) {
		i = (size_t)(next() % N);
		if (next() % 2) {
			r = sh_hmap_add(&m, key[i], val[i], &old);
			bad += live[i] ? r != 1 || old != val[i] : r != 0;
			live[i] = 1;
		} else {
			bad += sh_hmap_del(&m, key[i]) != live[i];
			live[i] = 0;
		}
		if (t % 97 == 0)
			bad += !agrees(&m);
	}
	ok1 = agrees(&m);
	ok(bad == 0 && ok1, "%d adds and deletions mixed agree", 20 * N);

	/* Cleared: nothing found, the slots kept, and filled again. */
	nslot = m.nslot;
	sh_hmap_clear(&m);
	for (i = 0; i < N; i++)
		live[i] = 0;
	ok(agrees(&m) && m.n == 0 && m.nslot == nslot,
	    "cleared: no key left, the slots kept");
	for (i = 0, bad = 0; i < N; i += 2) {
		bad += sh_hmap_add(&m, key[i], val[i], &old) != 0;
		live[i] = 1;
	}
	ok(bad == 0 && agrees(&m), "filled again after the clear");

	/* put over add: the value replaced. */
	for (i = 0; i < N && !live[i]; i++)
		;
	ok(i < N && sh_hmap_put(&m, key[i], val[i] ^ 1) == 0 &&
	    sh_hmap_add(&m, key[i], 0, &old) == 1 && old == (val[i] ^ 1),
	    "put replaces the value add found");

	sh_hmap_free(&m);
	ok(m.n == 0 && m.nslot == 0 && m.slot == NULL, "freed: empty");

	/* The set: each key new once, in batches as the fingerprint adds
	 * them, every key given twice (0 among them). */
	for (t = 0, bad = 0; t < 2; t++) {
		for (i = 0; i < N; i += 32) {
			j = N - i < 32 ? N - i : 32;
			if (sh_hset_reserve(&hs, j) != 0)
				bad++;
			n = sh_hset_add_many(&hs, key + i, j, fresh);
			bad += n != (t == 0 ? j : 0) ||
			    memcmp(fresh, key + i, n * sizeof(*fresh)) != 0;
		}
		bad += hs.n != N || 2 * hs.n > hs.nslot;
	}
	ok(bad == 0, "set: a key is new the first time only, the slots at "
	    "least twice the keys");
	/* A batch that repeats its own keys: each new one once, in order. */
	sh_hset_clear(&hs);
	for (i = 0; i < 40; i++)
		batch[i] = key[i % 7 * 3 % 7];
	bad = sh_hset_reserve(&hs, 40) != 0;
	n = sh_hset_add_many(&hs, batch, 40, fresh);
	for (i = 0; i < 7 && i < n; i++)
		bad += fresh[i] != key[i * 3 % 7];
	ok(!bad && n == 7 && hs.n == 7, "set: a batch repeating its keys "
	    "gives each new key once, in order");
	/* Past 8192 keys the slots grow and the keys are put again: every
	 * key still found. */
	sh_hset_clear(&hs);
	for (t = 0, bad = 0; t < 2; t++)
		for (i = 0, x = 1; i < 20000; i++) {
			x ^= x << 13;	/* xorshift: random top bits */
			x ^= x >> 7;
			x ^= x << 17;
			bad += sh_hset_reserve(&hs, 1) != 0;
			bad += add1(&hs, x) != (t == 0);
		}
	ok(bad == 0 && hs.n == 20000 && hs.nslot >= 40000, "set: 20,000 "
	    "keys, the slots grown, each new once");
	/* Keys of two home slots (equal top bits), the first and the last,
	 * probed on: the last slot's neighbour is the first. */
	sh_hset_clear(&hs);
	for (t = 0, bad = 0; t < 2; t++)
		for (i = 0; i < 100; i++) {
			bad += sh_hset_reserve(&hs, 1) != 0;
			bad += add1(&hs, i % 2 ? ~((uint64_t)i * 7) :
			    (uint64_t)i * 7) != (t == 0);
		}
	ok(bad == 0 && hs.n == 100, "set: keys of two home slots, each new "
	    "once");
	sh_hset_clear(&hs);
	ok(hs.n == 0 && sh_hset_reserve(&hs, 1) == 0 &&
	    add1(&hs, key[1]) == 1 && add1(&hs, 0) == 1,
	    "set: cleared, every key new again");
	bad = sh_hset_reserve(&hs, 10000) != 0;
	nslot = hs.nslot;
	sh_hset_clear(&hs);
	ok(!bad && nslot > 16384 && hs.nslot == 0 && hs.slot == NULL,
	    "set: a clear frees a set grown far past its keys");
	sh_hset_free(&hs);
	return tap_done();
}

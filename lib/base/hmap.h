/*
 * A map from 64-bit feature hashes to 32-bit values: tables loaded once
 * and then only read (stop words, IDF weights), and the index of entries
 * numbered in order of first sight (bags of features, document
 * frequencies).  Open addressing with linear probing, at most half full,
 * so a lookup is one probe, mostly; a deletion shifts back the keys after
 * it, so no tombstones pile up.  The hashes are well mixed: their low bits
 * index directly.  Memory: 16 bytes a slot, 2 to 4 slots per key; the
 * slots never shrink.  A zeroed struct is an empty map.  The set below
 * (sh_hset) is made otherwise, for small sets cleared often.
 */
#ifndef SH_HMAP_H
#define SH_HMAP_H

#include <stddef.h>
#include <stdint.h>

struct sh_hmapslot {
	uint64_t key;		/* 0: empty (the key 0 is kept apart) */
	uint32_t val;
};

struct sh_hmap {
	struct sh_hmapslot *slot;	/* key and value together: one miss */
	size_t n, nslot;	/* keys; slots, a power of two, > 2 n */
	int zero;		/* the key 0 is in the map, with value zval */
	uint32_t zval;
};

/* Set the value of key k to v, adding k if new.  Return 0 or SH_ENOMEM
 * (the map is unchanged then). */
int sh_hmap_put(struct sh_hmap *m, uint64_t k, uint32_t v);

/*
 * The slot of key k (not 0) in m, which has slots: k's own, or the empty
 * one where k would go.  Inline, as is sh_hmap_add, for the callers that
 * add every feature of every document.
 */
static inline size_t
sh_hmap_probe(const struct sh_hmap *m, uint64_t k)
{
	size_t i, mask = m->nslot - 1;

	for (i = (size_t)k & mask; m->slot[i].key != 0 && m->slot[i].key != k;
	    i = (i + 1) & mask)
		;
	return i;
}

/* sh_hmap_add for the key 0, or when the slots must grow first. */
int sh_hmap_add_slow(struct sh_hmap *m, uint64_t k, uint32_t v,
    uint32_t *old);

/*
 * Add key k with value v unless k is in the map: one probe for both.
 * Return 1 with the value of k into *old (not NULL) when k was there (the
 * map unchanged), 0 when added, or SH_ENOMEM (the map unchanged then).
 */
static inline int
sh_hmap_add(struct sh_hmap *m, uint64_t k, uint32_t v, uint32_t *old)
{
	size_t i;

	if (k == 0 || 2 * (m->n + 1) > m->nslot)
		return sh_hmap_add_slow(m, k, v, old);
	i = sh_hmap_probe(m, k);
	if (m->slot[i].key != 0) {
		*old = m->slot[i].val;
		return 1;
	}
	m->slot[i].key = k;
	m->slot[i].val = v;
	m->n++;
	return 0;
}

/*
 * Remove k: the keys after it in its run of slots move back, so every
 * other key stays found, whatever the order of deletions.  Return 1 when
 * k was in the map, 0 when not.  Cost: one probe and the rest of the run,
 * O(1) expected at half load; never the whole table.
 */
int sh_hmap_del(struct sh_hmap *m, uint64_t k);

/* Remove every key, keeping the slots.  Cost: O(slots), a memset. */
void sh_hmap_clear(struct sh_hmap *m);

/* Make room for n keys in all, so that adding them does not grow the
 * slots again.  Return 0 or SH_ENOMEM (the map is unchanged then). */
int sh_hmap_reserve(struct sh_hmap *m, size_t n);

/* Whether k is in the map; if so, and v is not NULL, its value into *v. */
int sh_hmap_get(const struct sh_hmap *m, uint64_t k, uint32_t *v);

/* Hint that k will be looked up soon: its slot is fetched into the cache,
 * so that the misses of a batch of lookups overlap. */
void sh_hmap_prefetch(const struct sh_hmap *m, uint64_t k);

/* Free the slots; m is then an empty map. */
void sh_hmap_free(struct sh_hmap *m);

/*
 * A set of 64-bit feature hashes, for telling the new ones from those
 * seen, made for many small sets in turn (the features of a document):
 * open addressing, a key's home slot its top bits, probed on in order,
 * and a bitmap of the slots in use.  The slots are at least twice the
 * keys and at least 16,384 (128 KiB; the bitmap 2 KiB), so that in a
 * document of a few hundred features a new key mostly finds its home
 * slot's bit clear: one bit read, one key written, no branch
 * mispredicted (4096 slots ran sh-fp 6 % slower on 2 KB English
 * documents).  A clear zeroes the bitmap only.  A zeroed struct is an
 * empty set.
 */
struct sh_hset {
	uint64_t *slot;		/* slot[i]: a key, when bit i of bits is set */
	uint64_t *bits;		/* slots in use */
	size_t n;		/* keys */
	size_t nslot;		/* a power of two, >= 2 n, >= 16384 */
	int shift;		/* 64 - log2(nslot): a key's home slot is
				 * key >> shift */
};

/* Make room for more keys than the set holds, so that adding them does
 * not need memory.  Return 0, SH_ENOMEM (the set is unchanged) or
 * SH_ERANGE (2^32 keys or more). */
int sh_hset_reserve(struct sh_hset *s, size_t more);

/* Add h[0..n), in room reserved before: the keys new to the set, in
 * their order and each once, go to fresh (room for n); return how many.
 * Called once per batch of features: the set's fields stay in registers
 * over the batch. */
size_t sh_hset_add_many(struct sh_hset *s, const uint64_t *h, size_t n,
    uint64_t *fresh);

/* Remove every key.  A set grown far past what it holds is freed, so that
 * clearing it again costs what the keys it holds do. */
void sh_hset_clear(struct sh_hset *s);

void sh_hset_free(struct sh_hset *s);

#endif

/*
 * A map from 64-bit feature hashes to 32-bit values, for tables loaded
 * once and then only read (stop words, IDF weights): open addressing with
 * linear probing, at most half full, so a lookup is one probe, mostly.
 * The hashes are well mixed: their low bits index directly.  Memory: 16
 * bytes a slot, 2 to 4 slots per key.  A zeroed struct is an empty map.
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

#endif

/*
 * The feature hash: XXH64 (Yann Collet's xxHash, 64-bit variant),
 * implemented from its published specification, seed 0 for features.
 * Frozen: fingerprints depend on it (tests/unit/hash_test.c pins vectors
 * that agree with the reference xxhsum).  Input is read as bytes, so the
 * result is the same on every machine and byte order.
 */
#ifndef SH_HASH_H
#define SH_HASH_H

#include <stddef.h>
#include <stdint.h>

/* One-shot hash of p[0..len).  p may be NULL when len is 0. */
uint64_t sh_hash64(const void *p, size_t len, uint64_t seed);

/* Streaming form: init, any number of updates, final (state unchanged). */
struct sh_hash64_state {
	uint64_t v[4];
	uint64_t total;
	uint64_t seed;
	unsigned char buf[32];
	unsigned nbuf;
};

void sh_hash64_init(struct sh_hash64_state *s, uint64_t seed);
void sh_hash64_update(struct sh_hash64_state *s, const void *p, size_t len);
uint64_t sh_hash64_final(const struct sh_hash64_state *s);

#endif

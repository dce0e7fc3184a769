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
#include <string.h>


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

/*
 * The one-shot hash sh_hash64(p, len, seed) of p[0..len) is inline: it is
 * the inner loop of fingerprinting, called once per feature.  p may be
 * NULL when len is 0.  The helpers below are internal.
 */
#define SH_XXH_P1 0x9E3779B185EBCA87ULL
#define SH_XXH_P2 0xC2B2AE3D27D4EB4FULL
#define SH_XXH_P3 0x165667B19E3779F9ULL
#define SH_XXH_P4 0x85EBCA77C2B2AE63ULL
#define SH_XXH_P5 0x27D4EB2F165667C5ULL

static inline uint64_t
sh_xxh_rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static inline uint64_t
sh_xxh_rd64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	    (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint64_t
sh_xxh_rd32(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24;
}

static inline uint64_t
sh_xxh_round1(uint64_t acc, uint64_t lane)
{
	acc += lane * SH_XXH_P2;
	acc = sh_xxh_rotl(acc, 31);
	return acc * SH_XXH_P1;
}

static inline uint64_t
sh_xxh_merge(uint64_t acc, uint64_t v)
{
	acc ^= sh_xxh_round1(0, v);
	return acc * SH_XXH_P1 + SH_XXH_P4;
}

static inline void
sh_xxh_stripes(uint64_t v[4], const unsigned char *p, size_t n)
{
	for (; n >= 32; n -= 32, p += 32) {
		v[0] = sh_xxh_round1(v[0], sh_xxh_rd64(p));
		v[1] = sh_xxh_round1(v[1], sh_xxh_rd64(p + 8));
		v[2] = sh_xxh_round1(v[2], sh_xxh_rd64(p + 16));
		v[3] = sh_xxh_round1(v[3], sh_xxh_rd64(p + 24));
	}
}

/* Tail of fewer than 32 bytes, then avalanche. */
static inline uint64_t
sh_xxh_finish(uint64_t acc, const unsigned char *p, size_t n)
{
	for (; n >= 8; n -= 8, p += 8) {
		acc ^= sh_xxh_round1(0, sh_xxh_rd64(p));
		acc = sh_xxh_rotl(acc, 27) * SH_XXH_P1 + SH_XXH_P4;
	}
	if (n >= 4) {
		acc ^= sh_xxh_rd32(p) * SH_XXH_P1;
		acc = sh_xxh_rotl(acc, 23) * SH_XXH_P2 + SH_XXH_P3;
		n -= 4;
		p += 4;
	}
	for (; n > 0; n--, p++) {
		acc ^= *p * SH_XXH_P5;
		acc = sh_xxh_rotl(acc, 11) * SH_XXH_P1;
	}
	acc ^= acc >> 33;
	acc *= SH_XXH_P2;
	acc ^= acc >> 29;
	acc *= SH_XXH_P3;
	acc ^= acc >> 32;
	return acc;
}

static inline uint64_t
sh_xxh_converge(const uint64_t v[4])
{
	uint64_t acc;

	acc = sh_xxh_rotl(v[0], 1) + sh_xxh_rotl(v[1], 7) + sh_xxh_rotl(v[2], 12) + sh_xxh_rotl(v[3], 18);
	acc = sh_xxh_merge(acc, v[0]);
	acc = sh_xxh_merge(acc, v[1]);
	acc = sh_xxh_merge(acc, v[2]);
	return sh_xxh_merge(acc, v[3]);
}

static inline void
sh_xxh_lanes_init(uint64_t v[4], uint64_t seed)
{
	v[0] = seed + SH_XXH_P1 + SH_XXH_P2;
	v[1] = seed + SH_XXH_P2;
	v[2] = seed;
	v[3] = seed - SH_XXH_P1;
}

/* Inputs of 32 bytes or more, out of line. */
uint64_t sh_hash64_long(const void *p, size_t len, uint64_t seed);

static inline uint64_t
sh_hash64(const void *in, size_t len, uint64_t seed)
{
	if (len >= 32)
		return sh_hash64_long(in, len, seed);
	return sh_xxh_finish(seed + SH_XXH_P5 + len, in, len);
}

/*
 * Many hashes at once: a batch of up to SH_HASH_BATCH inputs, each put by
 * sh_hashbatch_set, and sh_hashbatch_run, out[i] = sh_hash64(p, len, 0)
 * of input i < n.  Where the CPU has AVX-512, inputs under 32 bytes are
 * hashed eight at a time, their lengths under masks instead of branches;
 * their words are loaded when set, where the caller has the bytes at hand,
 * not gathered by the lanes.  So p must be readable for SH_HASH_READ bytes
 * from p even when len is less.
 */
#define SH_HASH_BATCH 32
#define SH_HASH_READ 32

struct sh_hashbatch {
	const char *p[SH_HASH_BATCH];
	size_t len[SH_HASH_BATCH];
	/* Input i's bytes 0, 8 and 16 on, and (len & 24) on: whole words,
	 * as the lanes take them; those past len are ignored. */
	uint64_t w[4][SH_HASH_BATCH];
};

static inline void
sh_hashbatch_set(struct sh_hashbatch *b, size_t i, const char *p,
    size_t len)
{
	b->p[i] = p;
	b->len[i] = len;
	memcpy(&b->w[0][i], p, 8);
	memcpy(&b->w[1][i], p + 8, 8);
	memcpy(&b->w[2][i], p + 16, 8);
	memcpy(&b->w[3][i], p + (len & 24), 8);
}

void sh_hashbatch_run(const struct sh_hashbatch *b, size_t n, uint64_t *out);

/*
 * Whether sh_hashbatch_run uses the vector instructions the CPU has (1, the
 * default) or portable C only (0), for tests that hold one to the other.
 * Not thread-safe; hashes do not depend on it.
 */
void sh_hash_vector(int on);

#endif

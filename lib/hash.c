/*
 * XXH64 from the xxHash specification: four accumulator lanes over 32-byte
 * stripes, then 8-, 4- and 1-byte tails, then an avalanche.
 */
#include <string.h>

#include "hash.h"

#define P1 0x9E3779B185EBCA87ULL
#define P2 0xC2B2AE3D27D4EB4FULL
#define P3 0x165667B19E3779F9ULL
#define P4 0x85EBCA77C2B2AE63ULL
#define P5 0x27D4EB2F165667C5ULL

static uint64_t
rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static uint64_t
rd64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	    (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static uint64_t
rd32(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24;
}

static uint64_t
round1(uint64_t acc, uint64_t lane)
{
	acc += lane * P2;
	acc = rotl(acc, 31);
	return acc * P1;
}

static uint64_t
merge(uint64_t acc, uint64_t v)
{
	acc ^= round1(0, v);
	return acc * P1 + P4;
}

static void
stripes(uint64_t v[4], const unsigned char *p, size_t n)
{
	for (; n >= 32; n -= 32, p += 32) {
		v[0] = round1(v[0], rd64(p));
		v[1] = round1(v[1], rd64(p + 8));
		v[2] = round1(v[2], rd64(p + 16));
		v[3] = round1(v[3], rd64(p + 24));
	}
}

/* Tail of fewer than 32 bytes, then avalanche. */
static uint64_t
finish(uint64_t acc, const unsigned char *p, size_t n)
{
	for (; n >= 8; n -= 8, p += 8) {
		acc ^= round1(0, rd64(p));
		acc = rotl(acc, 27) * P1 + P4;
	}
	if (n >= 4) {
		acc ^= rd32(p) * P1;
		acc = rotl(acc, 23) * P2 + P3;
		n -= 4;
		p += 4;
	}
	for (; n > 0; n--, p++) {
		acc ^= *p * P5;
		acc = rotl(acc, 11) * P1;
	}
	acc ^= acc >> 33;
	acc *= P2;
	acc ^= acc >> 29;
	acc *= P3;
	acc ^= acc >> 32;
	return acc;
}

static uint64_t
converge(const uint64_t v[4])
{
	uint64_t acc;

	acc = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
	acc = merge(acc, v[0]);
	acc = merge(acc, v[1]);
	acc = merge(acc, v[2]);
	return merge(acc, v[3]);
}

static void
lanes_init(uint64_t v[4], uint64_t seed)
{
	v[0] = seed + P1 + P2;
	v[1] = seed + P2;
	v[2] = seed;
	v[3] = seed - P1;
}

uint64_t
sh_hash64(const void *in, size_t len, uint64_t seed)
{
	const unsigned char *p = in;
	uint64_t v[4], acc;
	size_t body;

	if (len >= 32) {
		lanes_init(v, seed);
		body = len & ~(size_t)31;
		stripes(v, p, body);
		acc = converge(v);
	} else {
		body = 0;
		acc = seed + P5;
	}
	return finish(acc + len, p + body, len - body);
}

void
sh_hash64_init(struct sh_hash64_state *s, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	lanes_init(s->v, seed);
}

void
sh_hash64_update(struct sh_hash64_state *s, const void *in, size_t len)
{
	const unsigned char *p = in;
	size_t take, body;

	s->total += len;
	if (s->nbuf > 0) {
		take = 32 - s->nbuf < len ? 32 - s->nbuf : len;
		memcpy(s->buf + s->nbuf, p, take);
		s->nbuf += take;
		p += take;
		len -= take;
		if (s->nbuf < 32)
			return;
		stripes(s->v, s->buf, 32);
		s->nbuf = 0;
	}
	body = len & ~(size_t)31;
	stripes(s->v, p, body);
	memcpy(s->buf, p + body, len - body);
	s->nbuf = len - body;
}

uint64_t
sh_hash64_final(const struct sh_hash64_state *s)
{
	uint64_t acc;

	if (s->total >= 32)
		acc = converge(s->v);
	else
		acc = s->seed + P5;
	return finish(acc + s->total, s->buf, s->nbuf);
}

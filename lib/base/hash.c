/*
 * XXH64 from the xxHash specification: four accumulator lanes over 32-byte
 * stripes, then 8-, 4- and 1-byte tails, then an avalanche.
 */
#include <string.h>

#include "base/hash.h"

uint64_t
sh_hash64_long(const void *in, size_t len, uint64_t seed)
{
	uint64_t v[4];
	size_t body = len & ~(size_t)31;

	sh_xxh_lanes_init(v, seed);
	sh_xxh_stripes(v, in, body);
	return sh_xxh_finish(sh_xxh_converge(v) + len,
	    (const unsigned char *)in + body, len - body);
}

void
sh_hash64_init(struct sh_hash64_state *s, uint64_t seed)
{
	memset(s, 0, sizeof(*s));
	s->seed = seed;
	sh_xxh_lanes_init(s->v, seed);
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
		sh_xxh_stripes(s->v, s->buf, 32);
		s->nbuf = 0;
	}
	body = len & ~(size_t)31;
	sh_xxh_stripes(s->v, p, body);
	memcpy(s->buf, p + body, len - body);
	s->nbuf = len - body;
}

uint64_t
sh_hash64_final(const struct sh_hash64_state *s)
{
	uint64_t acc;

	if (s->total >= 32)
		acc = sh_xxh_converge(s->v);
	else
		acc = s->seed + SH_XXH_P5;
	return sh_xxh_finish(acc + s->total, s->buf, s->nbuf);
}

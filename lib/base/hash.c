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

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_X8_AVX512

#define SET(x) _mm512_set1_epi64((long long)(x))

/* acc = rotl(acc ^ x, r) * m + a in the lanes of mask k. */
__attribute__((target("avx512f,avx512dq")))
static inline __m512i
step(__m512i acc, __mmask8 k, __m512i x, int r, uint64_t m, uint64_t a)
{
	__m512i v = _mm512_xor_si512(acc, x);

	switch (r) {	/* the rotation is an immediate */
	case 27:
		v = _mm512_rol_epi64(v, 27);
		break;
	case 23:
		v = _mm512_rol_epi64(v, 23);
		break;
	default:
		v = _mm512_rol_epi64(v, 11);
	}
	v = _mm512_add_epi64(_mm512_mullo_epi64(v, SET(m)), SET(a));
	return _mm512_mask_mov_epi64(acc, k, v);
}

/*
 * sh_xxh_finish from the seed, in eight lanes: up to three 8-byte rounds,
 * a 4-byte one and three bytes, each lane taking the steps its length
 * asks for under a mask, its words from w (round r at w[r *
 * SH_HASH_BATCH], the tail at w[3 * SH_HASH_BATCH]).  Lanes of 32 bytes or
 * more are wrong here and fixed by the caller: return the mask of them.
 */
__attribute__((target("avx512f,avx512dq"), always_inline))
static inline unsigned
x8_avx512(const size_t len[8], const uint64_t *w, uint64_t out[8])
{
	__m512i n = _mm512_loadu_si512((const void *)len);
	__m512i acc = _mm512_add_epi64(n, SET(SH_XXH_P5));
	__m512i k, tail;
	__mmask8 m;
	int r;

	for (r = 0; r < 3; r++) {
		m = _mm512_cmpge_epu64_mask(n, SET(8 * (r + 1)));
		if (m == 0)
			break;
		k = _mm512_loadu_si512((const void *)(w + r * SH_HASH_BATCH));
		k = _mm512_mullo_epi64(_mm512_rol_epi64(
		    _mm512_mullo_epi64(k, SET(SH_XXH_P2)), 31), SET(SH_XXH_P1));
		acc = step(acc, m, k, 27, SH_XXH_P1, SH_XXH_P4);
	}
	tail = _mm512_loadu_si512((const void *)(w + 3 * SH_HASH_BATCH));
	m = _mm512_test_epi64_mask(n, SET(4));
	acc = step(acc, m, _mm512_mullo_epi64(_mm512_and_si512(tail,
	    SET(0xFFFFFFFF)), SET(SH_XXH_P1)), 23, SH_XXH_P2, SH_XXH_P3);
	tail = _mm512_mask_mov_epi64(tail, m, _mm512_srli_epi64(tail, 32));
	n = _mm512_and_si512(n, SET(3));
	for (r = 0; r < 3; r++) {
		m = _mm512_cmpgt_epu64_mask(n, SET(r));
		acc = step(acc, m, _mm512_mullo_epi64(_mm512_and_si512(tail,
		    SET(0xFF)), SET(SH_XXH_P5)), 11, SH_XXH_P1, 0);
		tail = _mm512_srli_epi64(tail, 8);
	}
	acc = _mm512_xor_si512(acc, _mm512_srli_epi64(acc, 33));
	acc = _mm512_mullo_epi64(acc, SET(SH_XXH_P2));
	acc = _mm512_xor_si512(acc, _mm512_srli_epi64(acc, 29));
	acc = _mm512_mullo_epi64(acc, SET(SH_XXH_P3));
	acc = _mm512_xor_si512(acc, _mm512_srli_epi64(acc, 32));
	_mm512_storeu_si512((void *)out, acc);
	return _mm512_cmpge_epu64_mask(_mm512_loadu_si512((const void *)len),
	    SET(32));
}

/* The inputs of b from 0 on, eight at a time (its constants kept in
 * registers); return where the rest starts. */
__attribute__((target("avx512f,avx512dq")))
static size_t
batch_avx512(const struct sh_hashbatch *b, size_t n, uint64_t *out)
{
	size_t i, j;
	unsigned m;

	for (i = 0; i + 8 <= n; i += 8)
		for (m = x8_avx512(b->len + i, &b->w[0][i], out + i); m != 0;
		    m &= m - 1) {
			j = i + (size_t)__builtin_ctz(m);
			out[j] = sh_hash64_long(b->p[j], b->len[j], 0);
		}
	return i;
}
#endif

static int vector_many = 1;

void
sh_hash_vector(int on)
{
	vector_many = on;
}

void
sh_hashbatch_run(const struct sh_hashbatch *b, size_t n, uint64_t *out)
{
	size_t i = 0;

#ifdef HAVE_X8_AVX512
	if (vector_many && __builtin_cpu_supports("avx512dq"))
		i = batch_avx512(b, n, out);
#endif
	for (; i < n; i++)
		out[i] = sh_hash64(b->p[i], b->len[i], 0);
}

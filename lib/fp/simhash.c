#include <string.h>

#include "fp/simhash.h"

void
sh_simhash_init(struct sh_simhash *s)
{
	memset(s, 0, sizeof(*s));
}

/* Ripple carry c into the wide planes from plane j up. */
static void
ripple(uint64_t *hi, int j, uint64_t c)
{
	uint64_t t;

	for (; c != 0 && j < 64; j++) {
		t = hi[j] & c;
		hi[j] ^= c;
		c = t;
	}
}

/* Add the nc-bit counters c[0..nc) (bit planes) to the wide planes, and
 * clear them. */
static void
add_planes(uint64_t *hi, uint64_t *cp, int nc)
{
	uint64_t a, b, c = 0;
	int k;

	for (k = 0; k < nc; k++) {
		a = hi[k];
		b = cp[k];
		hi[k] = a ^ b ^ c;
		c = (a & b) | (c & (a ^ b));
		cp[k] = 0;
	}
	ripple(hi, k, c);
}

static int vector_many = 1;

void
sh_simhash_vector(int on)
{
	vector_many = on;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_MANY_AVX512

/* Plane b of 64 counters of 8 bits: bit b of each, one compare. */
__attribute__((target("avx512f,avx512bw")))
static inline void
planes(__m512i c, uint64_t p[8])
{
	int b;

	for (b = 0; b < 8; b++)
		p[b] = _mm512_test_epi8_mask(c, _mm512_set1_epi8((char)(1 <<
		    b)));
}

__attribute__((target("avx512f,avx512bw")))
static void
planes8_avx512(const uint8_t *c8, uint64_t p[8])
{
	planes(_mm512_loadu_si512((const void *)c8), p);
}
#endif

/* The 8-bit counters c8 into the wide planes: bit b of every lane's
 * counter makes plane b.  Eight lanes at a time: the multiply gathers
 * bit b of each of their bytes into the top byte of the product (the
 * partial products fall on distinct bits, so nothing carries); with
 * AVX-512, all lanes by a compare a plane. */
static void
spill8(struct sh_simhash *s)
{
	uint64_t p[8] = { 0 }, x;
	int g, i, b;

#ifdef HAVE_MANY_AVX512
	if (vector_many && __builtin_cpu_supports("avx512bw"))
		planes8_avx512(s->c8, p);
	else
#endif
		for (g = 0; g < 8; g++) {
			for (x = 0, i = 7; i >= 0; i--)
				x = x << 8 | s->c8[8 * g + i];
			for (b = 0; b < 8; b++)
				p[b] |= ((x >> b & 0x0101010101010101) *
				    0x0102040810204080 >> 56) << 8 * g;
		}
	memset(s->c8, 0, sizeof(s->c8));
	s->n8 = 0;
	add_planes(s->hi, p, 8);
}

void
sh_simhash_spill(struct sh_simhash *s)
{
	add_planes(s->hi, s->lo, 4);
	s->nlo = 0;
	if (s->n8 > 0)
		spill8(s);
}

#ifdef HAVE_MANY_AVX512
/* One masked byte add per hash: lane i of the counters gains bit i.
 * Two sets of counters take the hashes in turn, so that the adds do not
 * wait for each other; they are summed at a spill and at the end, where
 * a lane holds at most 255. */
__attribute__((target("avx512f,avx512bw")))
static void
many_avx512(struct sh_simhash *s, const uint64_t *h, size_t n)
{
	__m512i c0 = _mm512_loadu_si512((const void *)s->c8);
	__m512i c1 = _mm512_setzero_si512();
	__m512i one = _mm512_set1_epi8(1);
	uint64_t p[8];
	size_t i, m;

	while (n > 0) {
		m = 255 - s->n8 < n ? 255 - s->n8 : n;
		for (i = 0; i + 1 < m; i += 2) {
			c0 = _mm512_mask_add_epi8(c0, (__mmask64)h[i], c0, one);
			c1 = _mm512_mask_add_epi8(c1, (__mmask64)h[i + 1], c1,
			    one);
		}
		if (i < m)
			c0 = _mm512_mask_add_epi8(c0, (__mmask64)h[i], c0, one);
		h += m;
		n -= m;
		if ((s->n8 += (unsigned)m) == 255) {
			planes(_mm512_add_epi8(c0, c1), p);
			add_planes(s->hi, p, 8);
			c0 = c1 = _mm512_setzero_si512();
			s->n8 = 0;
		}
	}
	_mm512_storeu_si512((void *)s->c8, _mm512_add_epi8(c0, c1));
}
#endif

void
sh_simhash_add_many(struct sh_simhash *s, const uint64_t *h, size_t n)
{
	size_t i;

#ifdef HAVE_MANY_AVX512
	if (vector_many && __builtin_cpu_supports("avx512bw")) {
		s->n1 += n;
		s->total += n;
		many_avx512(s, h, n);
		return;
	}
#endif
	for (i = 0; i < n; i++)
		sh_simhash_add(s, h[i]);
}

/* Bit i of the 32-bit half of a hash. */
static const uint32_t bit[32] = {
	1u << 0, 1u << 1, 1u << 2, 1u << 3, 1u << 4, 1u << 5, 1u << 6,
	1u << 7, 1u << 8, 1u << 9, 1u << 10, 1u << 11, 1u << 12, 1u << 13,
	1u << 14, 1u << 15, 1u << 16, 1u << 17, 1u << 18, 1u << 19, 1u << 20,
	1u << 21, 1u << 22, 1u << 23, 1u << 24, 1u << 25, 1u << 26, 1u << 27,
	1u << 28, 1u << 29, 1u << 30, 1u << 31
};

static void
spill_lanes(struct sh_simhash *s)
{
	int i;

	for (i = 0; i < 64; i++) {
		s->wide[i] += s->lane[i];
		s->lane[i] = 0;
	}
	s->lanew = 0;
}

void
sh_simhash_addw(struct sh_simhash *s, uint64_t h, uint64_t w)
{
	uint32_t lo = (uint32_t)h, hi = (uint32_t)(h >> 32);
	int32_t v;
	int i;

	s->total += w;
	if (w > 0x3FFFFFFF) {
		for (i = 0; i < 64; i++)
			s->wide[i] += (h >> i & 1) ? (int64_t)w : -(int64_t)w;
		return;
	}
	if (s->lanew + w > 0x7FFFFFFF)
		spill_lanes(s);
	s->lanew += w;
	v = (int32_t)w;
	for (i = 0; i < 32; i++)
		s->lane[i] += (lo & bit[i]) ? v : -v;
	for (i = 0; i < 32; i++)
		s->lane[32 + i] += (hi & bit[i]) ? v : -v;
}

sh_fpval
sh_simhash_final(struct sh_simhash *s)
{
	uint64_t half, gt = 0, eq = ~(uint64_t)0, t, s1;
	int64_t d;
	int i, j;

	sh_simhash_spill(s);
	if (s->n1 == s->total) {
		/* Weight 1 only: lanes whose sum exceeds half, compared from
		 * the top plane down, from the first that a sum of at most
		 * the total can have set. */
		half = s->total / 2;
		for (j = 63; j > 0 && s->total >> j == 0; j--)
			;
		for (; j >= 0; j--) {
			t = (half >> j & 1) ? ~(uint64_t)0 : 0;
			gt |= eq & s->hi[j] & ~t;
			eq &= ~(s->hi[j] ^ t);
		}
		return gt;
	}
	/* Bit i is set when its lane's sum S exceeds half the total, that
	 * is when 2 S - total > 0: the signed sum of the weighted lanes plus
	 * S1 - (n1 - S1) of the weight-1 ones. */
	spill_lanes(s);
	for (i = 0; i < 64; i++) {
		d = s->wide[i];
		if (s->n1 > 0) {
			for (s1 = 0, j = 0; j < 64; j++)
				s1 |= (s->hi[j] >> i & 1) << j;
			d += (int64_t)s1 - (int64_t)(s->n1 - s1);
		}
		gt |= (uint64_t)(d > 0) << i;
	}
	return gt;
}

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

/* Add the 4-bit counters c[0..3] to the wide planes from plane j up, and
 * clear them. */
static void
add4(uint64_t *hi, int j, uint64_t *c4)
{
	uint64_t a, b, c = 0;
	int k;

	for (k = 0; k < 4 && j + k < 64; k++) {
		a = hi[j + k];
		b = c4[k];
		hi[j + k] = a ^ b ^ c;
		c = (a & b) | (c & (a ^ b));
		c4[k] = 0;
	}
	ripple(hi, j + k, c);
}

void
sh_simhash_spill(struct sh_simhash *s)
{
	add4(s->hi, 0, s->lo);
	s->nlo = 0;
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
		 * the top plane down. */
		half = s->total / 2;
		for (j = 63; j >= 0; j--) {
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

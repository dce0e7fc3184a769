#include <string.h>

#include "simhash.h"

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

void
sh_simhash_spill(struct sh_simhash *s)
{
	uint64_t a, b, c = 0;
	int j;

	for (j = 0; j < 4; j++) {
		a = s->hi[j];
		b = s->lo[j];
		s->hi[j] = a ^ b ^ c;
		c = (a & b) | (c & (a ^ b));
		s->lo[j] = 0;
	}
	ripple(s->hi, 4, c);
	s->nlo = 0;
}

void
sh_simhash_addw(struct sh_simhash *s, uint64_t h, uint64_t w)
{
	int j;

	s->total += w;
	for (j = 0; w != 0; j++, w >>= 1)
		if (w & 1)
			ripple(s->hi, j, h);
}

uint64_t
sh_simhash_final(struct sh_simhash *s)
{
	uint64_t half, gt = 0, eq = ~(uint64_t)0, t;
	int j;

	sh_simhash_spill(s);
	half = s->total / 2;
	/* Lanes whose sum exceeds half, compared from the top plane down. */
	for (j = 63; j >= 0; j--) {
		t = (half >> j & 1) ? ~(uint64_t)0 : 0;
		gt |= eq & s->hi[j] & ~t;
		eq &= ~(s->hi[j] ^ t);
	}
	return gt;
}

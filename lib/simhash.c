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

static void
spill_levels(struct sh_simhash *s)
{
	int j;

	for (j = 0; j < SH_SIMHASH_LEVELS; j++)
		add4(s->hi, j, s->lw[j]);
	s->nlw = 0;
}

void
sh_simhash_spill(struct sh_simhash *s)
{
	add4(s->hi, 0, s->lo);
	s->nlo = 0;
	if (s->nlw > 0)
		spill_levels(s);
}

void
sh_simhash_addw(struct sh_simhash *s, uint64_t h, uint64_t w)
{
	uint64_t c, t, *l;
	int j;

	s->total += w;
	for (j = SH_SIMHASH_LEVELS; (w >> j) != 0; j++)
		if (w >> j & 1)
			ripple(s->hi, j, h);
	for (j = 0; j < SH_SIMHASH_LEVELS && (w >> j) != 0; j++) {
		l = s->lw[j];
		c = h & (0 - (w >> j & 1));
		t = l[0] & c; l[0] ^= c; c = t;
		t = l[1] & c; l[1] ^= c; c = t;
		t = l[2] & c; l[2] ^= c; c = t;
		l[3] ^= c;
	}
	if (++s->nlw == 15)
		spill_levels(s);
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

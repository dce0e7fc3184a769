#include <math.h>

#include "errors.h"
#include "hex.h"
#include "plan.h"

static double
choose(int n, int r)
{
	double c = 1;
	int i;

	for (i = 1; i <= r; i++)
		c = c * (n - r + i) / i;
	return c;
}

static uint64_t
mask(int len)
{
	return len >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << len) - 1;
}

int
sh_plan_init(struct sh_plan *p, int k, int r, uint64_t n)
{
	double cost, best = 0;
	uint32_t set;
	int b, i, t, bits, start;

	if (k < 0 || k > SH_PLAN_KMAX || r < 0 || k + r > SH_PLAN_BMAX)
		return SH_ERANGE;
	if (r == 0) {
		for (i = 1; k + i <= SH_PLAN_BMAX; i++) {
			if (choose(k + i, i) > SH_PLAN_TMAX)
				break;
			/* Key bits are about 64 i / (k + i). */
			cost = choose(k + i, i) * (1 + (double)n /
			    pow(2, 64.0 * i / (k + i)));
			if (r == 0 || cost < best) {
				best = cost;
				r = i;
			}
		}
	}
	b = k + r;
	if (choose(b, r) > SH_PLAN_TMAX)
		return SH_ERANGE;
	p->k = k;
	p->nblocks = b;
	p->nkey = r;
	for (i = 0, start = 0; i < b; i++) {
		p->bstart[i] = start;
		p->blen[i] = 64 / b + (i < 64 % b);
		p->bmask[i] = mask(p->blen[i]) << start;
		start += p->blen[i];
	}
	/* Tables: every r-subset of the blocks, in increasing order. */
	p->ntables = 0;
	for (set = 0; set < (uint32_t)1 << b; set++) {
		if (sh_hamming(set, 0) != r)
			continue;
		t = p->ntables++;
		p->tblocks[t] = set;
		p->tmask[t] = 0;
		for (i = 0, bits = 0; i < b; i++)
			if (set >> i & 1) {
				bits += p->blen[i];
				p->tmask[t] |= p->bmask[i];
			}
		p->keybits[t] = bits;
	}
	return 0;
}

uint64_t
sh_plan_key(const struct sh_plan *p, int t, uint64_t fp)
{
	uint64_t key = 0;
	uint32_t set = p->tblocks[t];
	int i;

	/* A single block of 64 bits (k = 0) is the whole fingerprint. */
	if (p->nblocks == 1)
		return fp;
	for (i = 0; i < p->nblocks; i++)
		if (set >> i & 1)
			key = key << p->blen[i] | (fp & p->bmask[i]) >>
			    p->bstart[i];
	return key;
}

uint32_t
sh_plan_agree(const struct sh_plan *p, uint64_t a, uint64_t b)
{
	uint64_t x = a ^ b;
	uint32_t set = 0;
	int i;

	for (i = 0; i < p->nblocks; i++)
		if ((x & p->bmask[i]) == 0)
			set |= (uint32_t)1 << i;
	return set;
}

int
sh_plan_owner(const struct sh_plan *p, int t, uint32_t agree)
{
	uint32_t low = 0;
	int i;

	/*
	 * Tables are in increasing numeric order of their block sets, and
	 * the smallest r-subset of agree is made of its r lowest blocks.
	 */
	for (i = 0; i < p->nkey && agree != 0; i++) {
		low |= agree & -agree;
		agree &= agree - 1;
	}
	return i == p->nkey && low == p->tblocks[t];
}

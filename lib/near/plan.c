#include <math.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "near/plan.h"

#if SH_FP_BITS != 64
#error "plans cut, permute and mask a fingerprint as one 64-bit word"
#endif

/*
 * A probe (a directory entry and its bucket's first entries, missing the
 * caches, and the work of a table) costs about as much as scanning this
 * many entries.  Measured at k = 3, one core, 3M queries: at 10M
 * fingerprints 4 tables of 152-entry buckets answer 1.3M queries/s, 10
 * tables of 2-entry buckets 0.86M; at 100M 4 tables of 1,526 entries
 * 200,000/s, 2 tables of 27 probes 166,000/s.
 */
#define PROBE_COST 256

/* Sorting a fingerprint into a table of the join, or chaining it into a
 * table of the streaming filter, costs about as much as comparing this
 * many pairs (measured: at k = 11, a million fingerprints, 364 tables of
 * 14-bit keys take 15 s against 19 s for 1365 of 17 bits). */
#define TABLE_COST 32

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

/* The next number above set with as many bits set. */
static uint32_t
next_subset(uint32_t set)
{
	uint32_t low = set & -set, up = set + low;

	return up | ((set ^ up) / low) >> 2;
}

int
sh_plan_blocks(struct sh_plan *p, int b, int r)
{
	uint32_t set;
	int i, t, bits, top;

	if (b < 1 || b > SH_PLAN_BMAX || r < 1 || r > b ||
	    choose(b, r) > SH_PLAN_TMAX)
		return SH_ERANGE;
	p->k = b - r;
	p->nblocks = b;
	p->nkey = r;
	for (i = 0, top = SH_FP_BITS; i < b; i++) {
		p->blen[i] = SH_FP_BITS / b + (i < SH_FP_BITS % b);
		top -= p->blen[i];
		p->bshift[i] = top;
		p->bmask[i] = mask(p->blen[i]) << top;
	}
	/* Tables: every r-subset of the blocks, in increasing order, each
	 * the next number with r bits set (Gosper), not a walk over 2^b. */
	p->ntables = 0;
	for (set = ((uint32_t)1 << r) - 1; set < (uint32_t)1 << b;
	    set = next_subset(set)) {
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

/* sh_plan_init, with vec != 1 for the join: past 16 candidates a
 * fingerprint, they cost 16 (the gathering of the run) and vec each. */
static int
plan_init(struct sh_plan *p, int k, int r, uint64_t n, double vec)
{
	double cost, best = 0, c;
	int i;

	if (k < 0 || k > SH_PLAN_KMAX || r < 0 || k + r > SH_PLAN_BMAX)
		return SH_ERANGE;
	if (r == 0) {
		for (i = 1; k + i <= SH_PLAN_BMAX; i++) {
			if (choose(k + i, i) > SH_PLAN_TMAX)
				break;
			/* Key bits are about 64 i / (k + i). */
			c = (double)n / pow(2, 64.0 * i / (k + i));
			if (c > 16)
				c = 16 + c * vec;
			cost = choose(k + i, i) * (TABLE_COST + c);
			if (r == 0 || cost < best) {
				best = cost;
				r = i;
			}
		}
	}
	if (sh_plan_blocks(p, k + r, r) != 0)
		return SH_ERANGE;
	p->k = k;
	return 0;
}

int
sh_plan_init(struct sh_plan *p, int k, int r, uint64_t n)
{
	return plan_init(p, k, r, n, 1);
}

int
sh_plan_join(struct sh_plan *p, int k, int r, uint64_t n)
{
	return plan_init(p, k, r, n, 1.0 / 8);
}

int
sh_plan_minkey(const struct sh_plan *p)
{
	return p->keybits[p->ntables - 1];
}

int
sh_plan_dirbits(uint64_t n, int keybits)
{
	int d = 0;

	while (d < 30 && n >> (d + 2) != 0)
		d++;
	return d < keybits ? d : keybits;
}

int
sh_plan_radius(const struct sh_plan *p, int k)
{
	int q = k / p->nblocks, m = k % p->nblocks;
	int extra = p->nkey - (p->nblocks - m);

	/*
	 * The distance is spread over the blocks; the r least differing
	 * blocks differ the most when it is spread evenly: m blocks by
	 * q + 1 and the others by q.
	 */
	return p->nkey * q + (extra > 0 ? extra : 0);
}

double
sh_plan_probes(int d, int rho)
{
	double s = 0;
	int i;

	for (i = 0; i <= rho && i <= d; i++)
		s += choose(d, i);
	return s;
}

int
sh_plan_index(struct sh_plan *p, int k, uint64_t n)
{
	struct sh_plan c;
	double cost, best = 0;
	int b, r, d, bb = 0, br = 0;

	if (k < 0 || k > SH_PLAN_KMAX)
		return SH_ERANGE;
	for (b = 1; b <= SH_PLAN_BMAX; b++)
		for (r = 1; r <= b; r++) {
			if (choose(b, r) > SH_PLAN_IXTABLES)
				continue;
			sh_plan_blocks(&c, b, r);
			/* The shortest key decides. */
			d = sh_plan_dirbits(n, sh_plan_minkey(&c));
			cost = c.ntables * sh_plan_probes(d,
			    sh_plan_radius(&c, k)) * (PROBE_COST +
			    (double)n / pow(2, d));
			if (bb == 0 || cost < best) {
				best = cost;
				bb = b;
				br = r;
			}
		}
	sh_plan_blocks(p, bb, br);
	p->k = k;
	return 0;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_PEXT
/* The key bits gathered to the top, the others below them, both in
 * order: two bit extractions. */
__attribute__((target("bmi2")))
static sh_fpval
perm_pext(sh_fpval fp, sh_fpval key, int keybits)
{
	return (sh_fpval)_pext_u64(fp, key) << (64 - keybits) |
	    _pext_u64(fp, ~key);
}
#endif

static int vector_perm = 1;

void
sh_plan_vector(int on)
{
	vector_perm = on;
}

sh_fpval
sh_plan_perm(const struct sh_plan *p, int t, sh_fpval fp)
{
	sh_fpval v = 0;
	uint32_t set = p->tblocks[t];
	int i, pass;

	if (t == 0)
		return fp;
#ifdef HAVE_PEXT
	/* Not where pext is microcode (AMD before Zen 3). */
	if (vector_perm && __builtin_cpu_supports("bmi2") &&
	    !__builtin_cpu_is("znver1") && !__builtin_cpu_is("znver2"))
		return perm_pext(fp, p->tmask[t], p->keybits[t]);
#endif
	for (pass = 1; pass >= 0; pass--)
		for (i = 0; i < p->nblocks; i++)
			if ((int)(set >> i & 1) == pass)
				v = v << p->blen[i] | (fp & p->bmask[i]) >>
				    p->bshift[i];
	return v;
}

sh_fpval
sh_plan_unperm(const struct sh_plan *p, int t, sh_fpval v)
{
	sh_fpval fp = 0;
	uint32_t set = p->tblocks[t];
	int i, pass, top = SH_FP_BITS;

	if (t == 0)
		return v;
	for (pass = 1; pass >= 0; pass--)
		for (i = 0; i < p->nblocks; i++)
			if ((int)(set >> i & 1) == pass) {
				top -= p->blen[i];
				fp |= (v >> top & mask(p->blen[i])) <<
				    p->bshift[i];
			}
	return fp;
}

uint64_t
sh_plan_key(const struct sh_plan *p, int t, sh_fpval fp)
{
	uint64_t key = 0;
	uint32_t set = p->tblocks[t];
	int i;

	if (t == 0)
		return fp >> (SH_FP_BITS - p->keybits[0]);
	for (i = 0; i < p->nblocks; i++)
		if (set >> i & 1)
			key = key << p->blen[i] | (fp & p->bmask[i]) >>
			    p->bshift[i];
	return key;
}

uint32_t
sh_plan_agree(const struct sh_plan *p, sh_fpval a, sh_fpval b)
{
	sh_fpval x = a ^ b;
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

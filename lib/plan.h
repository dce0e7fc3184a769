/*
 * Table plans for exact Hamming-distance search (Manku, Jain and Das
 * Sarma, WWW 2007).
 *
 * The 64 bits are cut into b = k + r blocks.  Two fingerprints within
 * distance k differ in at most k blocks, so they agree exactly on at least
 * r blocks: on the key of one of the C(b, r) tables whose key is r of the
 * blocks.  Searching every table for exact key matches and checking the
 * distance therefore finds every pair within k, and a pair is reported by
 * the first table (in plan order) whose key blocks it agrees on, so by
 * exactly one.  More key blocks mean longer keys and fewer candidates but
 * more tables; sh_plan_choose weighs the two for n fingerprints.
 */
#ifndef SH_PLAN_H
#define SH_PLAN_H

#include <stddef.h>
#include <stdint.h>

#define SH_PLAN_KMAX 16		/* largest distance served */
#define SH_PLAN_BMAX 20		/* most blocks */
#define SH_PLAN_TMAX 4096	/* most tables */

struct sh_plan {
	int k;			/* distance served */
	int nblocks;		/* b */
	int nkey;		/* r, blocks per key */
	int ntables;		/* C(b, r) */
	int bstart[SH_PLAN_BMAX], blen[SH_PLAN_BMAX];	/* block bits, from bit 0 */
	uint64_t bmask[SH_PLAN_BMAX];	/* block bits in place */
	uint32_t tblocks[SH_PLAN_TMAX];	/* key blocks of each table, a bit set */
	int keybits[SH_PLAN_TMAX];	/* key width of each table */
	uint64_t tmask[SH_PLAN_TMAX];	/* key bits of each table, in place */
};

/*
 * Fill *p for distance k (0..SH_PLAN_KMAX) with r key blocks per table,
 * or, when r is 0, with the r that minimises the expected work for n
 * fingerprints: tables * (1 + n / 2^keybits).  Return 0, or SH_ERANGE when
 * k or r is out of range or the plan would need more than SH_PLAN_TMAX
 * tables or SH_PLAN_BMAX blocks.
 */
int sh_plan_init(struct sh_plan *p, int k, int r, uint64_t n);

/* The key of fingerprint fp in table t: its key blocks, concatenated. */
uint64_t sh_plan_key(const struct sh_plan *p, int t, uint64_t fp);

/* The blocks on which a and b agree, as a bit set. */
uint32_t sh_plan_agree(const struct sh_plan *p, uint64_t a, uint64_t b);

/*
 * Whether table t is the first table whose key blocks all lie in the set
 * agree: the table that owns a pair agreeing on those blocks.
 */
int sh_plan_owner(const struct sh_plan *p, int t, uint32_t agree);

#endif

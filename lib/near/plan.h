/*
 * Table plans for exact Hamming-distance search (Manku, Jain and Das
 * Sarma, WWW 2007; multi-index hashing, Norouzi, Punjani and Fleet, 2012).
 *
 * The 64 bits are cut into b blocks, block 0 holding the top bits.  Each
 * table is keyed by r of the blocks; its permutation moves the key blocks
 * to the top (in block order), the other blocks following in order, so
 * table 0 is the identity.  Permuting preserves Hamming distance.
 *
 * For the join and the streaming filter, b = k + r.  Two fingerprints within
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

#include "base/fpval.h"

#define SH_PLAN_KMAX 16		/* largest distance served */
#define SH_PLAN_BMAX 20		/* most blocks */
#define SH_PLAN_TMAX 4096	/* most tables */

struct sh_plan {
	int k;			/* distance served (b = k + r plans) */
	int nblocks;		/* b */
	int nkey;		/* r, blocks per key */
	int ntables;		/* C(b, r) */
	int bshift[SH_PLAN_BMAX], blen[SH_PLAN_BMAX];	/* block i is bits
				 * bshift[i] .. bshift[i] + blen[i] - 1 */
	sh_fpval bmask[SH_PLAN_BMAX];	/* block bits in place */
	uint32_t tblocks[SH_PLAN_TMAX];	/* key blocks of each table, a bit set */
	int keybits[SH_PLAN_TMAX];	/* key width of each table */
	sh_fpval tmask[SH_PLAN_TMAX];	/* key bits of each table, in place */
};

/*
 * Fill *p for distance k (0..SH_PLAN_KMAX) with r key blocks per table,
 * or, when r is 0, with the r that minimises the expected work for n
 * fingerprints: tables * (32 + n / 2^keybits), putting a fingerprint
 * into a table at the cost of 32 comparisons.  Return 0, or SH_ERANGE when
 * k or r is out of range or the plan would need more than SH_PLAN_TMAX
 * tables or SH_PLAN_BMAX blocks.
 */
int sh_plan_init(struct sh_plan *p, int k, int r, uint64_t n);

/*
 * The same for the join (join.h), which compares a run of 16 or more
 * equal keys eight pairs at a time, its fingerprints gathered: when a
 * fingerprint meets c > 16 candidates in a table (n / 2^keybits), they
 * cost 16 + c / 8.  At k = 3 that is 4 tables below about 17 million
 * fingerprints, at k = 11 78 tables of 10-bit keys at a million.  The
 * plan does not depend on the processor, so that shards (shard.h) made
 * anywhere fit together.
 */
int sh_plan_join(struct sh_plan *p, int k, int r, uint64_t n);

/*
 * Fill *p with b blocks (1..SH_PLAN_BMAX) and r key blocks per table
 * (1..b), for searching with probes (see sh_plan_radius); p->k is set to
 * b - r.  Return 0 or SH_ERANGE.
 */
int sh_plan_blocks(struct sh_plan *p, int b, int r);

/*
 * The plan an index of n fingerprints uses for distance k: the b and r
 * that minimise the expected work of a query, tables * probes * (cost of
 * a random access + candidates per probe), among plans of at most
 * SH_PLAN_IXTABLES tables, the index costing 8 bytes per fingerprint per
 * table.  dirbits(n) is the directory width used to count probes.
 */
#define SH_PLAN_IXTABLES 8
int sh_plan_index(struct sh_plan *p, int k, uint64_t n);

/* The shortest key of plan p: that of its last table, which holds the
 * last blocks, the shorter ones. */
int sh_plan_minkey(const struct sh_plan *p);

/*
 * Directory bits of a table of n entries whose key is keybits wide:
 * about log2(n) - 1, at most keybits and 30.
 */
int sh_plan_dirbits(uint64_t n, int keybits);

/*
 * Probe radius of plan p for distance k: two fingerprints within k agree,
 * on the key of some table, within this many bits.  0 when b >= k + r.
 */
int sh_plan_radius(const struct sh_plan *p, int k);

/* Number of keys within radius rho of a key of d bits (the probes). */
double sh_plan_probes(int d, int rho);

/* fp permuted for table t, and back. */
sh_fpval sh_plan_perm(const struct sh_plan *p, int t, sh_fpval fp);
sh_fpval sh_plan_unperm(const struct sh_plan *p, int t, sh_fpval v);

/* Whether sh_plan_perm uses the bit extraction of BMI2 where it is fast
 * (1, the default) or portable C only (0), for tests that hold one to
 * the other.  Not thread-safe; results do not depend on it. */
void sh_plan_vector(int on);

/* The key of fingerprint fp in table t: the top keybits[t] bits of its
 * permutation. */
uint64_t sh_plan_key(const struct sh_plan *p, int t, sh_fpval fp);

/* The blocks on which a and b agree, as a bit set. */
uint32_t sh_plan_agree(const struct sh_plan *p, sh_fpval a, sh_fpval b);

/*
 * Whether table t is the first table whose key blocks all lie in the set
 * agree: the table that owns a pair agreeing on those blocks.
 */
int sh_plan_owner(const struct sh_plan *p, int t, uint32_t agree);

#endif

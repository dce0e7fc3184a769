/*
 * All pairs of fingerprints within Hamming distance k, exactly, by sorting
 * permuted tables (see plan.h): for each table, sort (key, index) records
 * by key, and compare the members of each run of equal keys; a pair is
 * kept by the one table that owns it.  Time: per table a radix sort of n
 * records, shared by the threads, plus the comparisons within runs;
 * memory: 16 bytes per fingerprint, plus the pairs.
 */
#ifndef SH_JOIN_H
#define SH_JOIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "base/progress.h"
#include "base/shard.h"
#include "near/plan.h"

/* Pairs (i, j) with i < j, packed as i << 32 | j. */
struct sh_pairs {
	uint64_t *v;
	size_t n, cap;
};

/*
 * Every pair i < j of fp[0..n) with distance at most plan->k, each once,
 * sorted by (i, j), appended to *out (whose memory the caller frees);
 * with a shard (else NULL), only the pairs of its runs (shard.h).
 * n must be below 2^32.  Runs the tables on nthreads threads (>= 1); the
 * result does not depend on it.  Each table done is reported to pg
 * ("table", base/progress.h; NULL: none).  Return 0, SH_ENOMEM or
 * SH_ERANGE (n too large).
 */
int sh_join(const sh_fpval *fp, size_t n, const struct sh_plan *plan,
    int nthreads, const struct sh_shard *shard, const struct sh_progress *pg,
    struct sh_pairs *out);

/* Whether sh_join compares long runs with the vector instructions the
 * CPU has (on != 0, the default) or portable C only; results do not
 * depend on it.  Not thread-safe. */
void sh_join_vector(int on);

/*
 * The same join within a memory budget, over the fingerprints of a store
 * (fpstore.h): each table is an external sort (xsort.h) of (permuted
 * fingerprint, index) records, its runs of equal key held in memory one
 * at a time; the pairs go to *pairs, a new external sort of records (i <<
 * 32 | j, distance), each half of the budget.  One thread; progress as
 * for sh_join.  Return 0, SH_ENOMEM, SH_EIO or SH_ERANGE.
 */
struct sh_fpstore;
struct sh_xsort;
int sh_join_ext(struct sh_fpstore *st, const struct sh_plan *plan,
    const struct sh_shard *shard, size_t budget, const char *tmpdir,
    const struct sh_progress *pg, struct sh_xsort **pairs);

/* Append one pair.  Return 0 or SH_ENOMEM. */
int sh_pairs_add(struct sh_pairs *p, uint64_t v);

/* Sort the pairs by (i, j). */
void sh_pairs_sort(struct sh_pairs *p);

#endif

/*
 * Streaming near-duplicate filter: keeps fingerprints and answers, for
 * each new one, whether a kept fingerprint lies within distance k, keeping
 * the new one when none does.  Each table of the plan (see plan.h) chains
 * the kept fingerprints by a hash of their key; a query walks one chain
 * per table.  Memory: 8 + 8 * tables bytes per kept fingerprint (88 at
 * k = 3 with the default 10 tables), nothing per dropped one.
 */
#ifndef SH_DEDUP_H
#define SH_DEDUP_H

#include <stdint.h>

#include "base/fpval.h"
#include "near/plan.h"

struct sh_dedup;

/* New empty filter for plan (copied), or NULL when out of memory. */
struct sh_dedup *sh_dedup_new(const struct sh_plan *plan);
void sh_dedup_free(struct sh_dedup *d);

/*
 * Return 1 if fp is within plan->k of a kept fingerprint (fp is then not
 * kept), 0 if not (fp is kept), or SH_ENOMEM (fp is not kept): the two
 * calls below.
 */
int sh_dedup_add(struct sh_dedup *d, sh_fpval fp);

/*
 * The kept fingerprints within plan->k of fp, one by one: fn(ctx, i) for
 * the ith kept (from 0), each once, until fn returns other than 0; or,
 * when fn is NULL, the first met.  Return what fn returned (1 for the
 * first met without fn), or 0 when none stopped the search.
 */
typedef int sh_dedup_fn(void *ctx, uint32_t i);
int sh_dedup_near(struct sh_dedup *d, sh_fpval fp, sh_dedup_fn *fn,
    void *ctx);

/* Keep fp, as the next kept one.  Return 0 or SH_ENOMEM. */
int sh_dedup_keep(struct sh_dedup *d, sh_fpval fp);

/* Number of kept fingerprints. */
uint64_t sh_dedup_kept(const struct sh_dedup *d);

#endif

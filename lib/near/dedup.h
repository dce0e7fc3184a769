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
 * kept), 0 if not (fp is kept), or SH_ENOMEM (fp is not kept).
 */
int sh_dedup_add(struct sh_dedup *d, sh_fpval fp);

/* Number of kept fingerprints. */
uint64_t sh_dedup_kept(const struct sh_dedup *d);

#endif

/*
 * The candidates of the modes that need no pair list (sh-near -g and
 * -u): entries of equal fingerprint are one class, and classes are
 * neighbours when their fingerprints are within k.  A family of m equal
 * fingerprints is one class of m entries, and costs O(m), not the
 * m (m - 1) / 2 pairs of the join over the entries.
 *
 * Every two entries of one class, and every entry of a class with every
 * entry of a neighbour, lie within k; every pair within k is one of
 * these.  Classes are numbered in the order of their fingerprints (a
 * class of one entry per entry for a set's pairs: sh_classes_pairs);
 * nothing depends on the number of threads.
 */
#ifndef SH_CLASSES_H
#define SH_CLASSES_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "base/progress.h"
#include "near/fpset.h"
#include "near/plan.h"

struct sh_classes {
	size_t n;		/* entries */
	size_t nc;		/* classes */
	uint32_t *cls;		/* entry i's class; NULL: class i is entry i */
	uint32_t *first;	/* class c's entries mem[first[c] ..
				   first[c + 1]), ascending (with cls) */
	uint32_t *mem;
	size_t *nat;		/* class c's neighbours nb[nat[c] ..
				   nat[c + 1]), ascending */
	uint32_t *nb;
};

/*
 * The classes of fp[0..n) (n below 2^32 - 1) and their neighbours within
 * plan->k, found by the join (join.h) over one fingerprint a class, on
 * nthreads threads, its tables reported to pg.  Memory: 16 bytes an
 * entry while they are sorted, then 8 an entry and 8 a class, and 16 a
 * pair of neighbours.  Return 0, SH_ENOMEM or SH_ERANGE (c is then
 * empty).
 */
int sh_classes_join(struct sh_classes *c, const sh_fpval *fp, size_t n,
    const struct sh_plan *plan, int nthreads, const struct sh_progress *pg);

/*
 * The pairs of s (sh_fpset_next, read to the end) as classes of one
 * entry each, neighbours when they are a pair.  Memory: 16 bytes a pair,
 * 8 an entry.  Return 0, SH_ENOMEM, SH_ERANGE or an error of the set.
 */
int sh_classes_pairs(struct sh_classes *c, struct sh_fpset *s);

/* The class of entry i. */
static inline uint32_t
sh_classes_of(const struct sh_classes *c, size_t i)
{
	return c->cls != NULL ? c->cls[i] : (uint32_t)i;
}

/* The connected components of c, unverified (near/cluster.h): rep[i]
 * the first entry of entry i's component; rep has c->n elements. */
void sh_classes_components(const struct sh_classes *c, uint32_t *rep);

void sh_classes_free(struct sh_classes *c);

#endif

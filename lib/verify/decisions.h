/*
 * Keep decisions made elsewhere (sh-near -R): the lines "REP<TAB>ID"
 * that sh-near -g prints, an entry each, read back into a set and the
 * anchors of its entries (keep.h), so that the records of each file of a
 * crawl can be written by a job of its own once one global step has
 * decided.  The entries are the lines' IDs in input order; an entry's
 * anchor is the first entry whose ID is its REP, itself when REP is its
 * own ID.  IDs are told apart by two 64-bit hashes (of other seeds), the
 * first looked up in a map.  Memory: the set's, and 32 bytes an entry and
 * the map's 32 to 64.
 */
#ifndef SH_DECISIONS_H
#define SH_DECISIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "near/fpset.h"

struct sh_decisions {
	struct sh_hmap first;	/* ID hash: the first entry of it */
	uint64_t *h;		/* each entry's ID and REP, by hash */
	size_t n, cap;
};

/* A zeroed struct is empty. */

/*
 * Add the decision of line p[0..len) (no newline) to d and its ID to s.
 * Return 0, SH_EFIELDS (not two fields: no TAB, or another TAB, or an
 * empty one), SH_ERANGE (2^32 - 1 entries) or an error of sh_fpset_add.
 */
int sh_decisions_add(struct sh_decisions *d, struct sh_fpset *s,
    const char *p, size_t len);

/*
 * After the last line: the anchor of each entry into rep (d->n of them).
 * Return 0, or SH_ENODOC with *bad the first entry whose REP is the ID of
 * no entry (the lines are not all of one run).  Cost: a lookup an entry.
 */
int sh_decisions_anchors(struct sh_decisions *d, uint32_t *rep,
    size_t *bad);

void sh_decisions_free(struct sh_decisions *d);

#endif

/*
 * Keep decisions made elsewhere (sh-near -E): the lines "REP<TAB>ID"
 * that sh-near -g prints, an entry each, read back as a set and the
 * anchors of its entries (keep.h), so that the records of each file of a
 * crawl can be written by a job of its own once one global step has
 * decided over all of them.
 *
 * Only the lines of the documents at hand are kept: those whose ID some
 * record of a map has (by its key, docmap.h: a line of another file whose
 * ID shares a record's 64-bit hash is kept too, and harms nothing, as no
 * record is its).  A line whose REP is its ID is a kept entry, its own
 * anchor; another is removed against the entry of its REP, the first
 * whose ID that is, which is added (its own anchor) when there is none
 * yet, a copy that stays in another file.  So the decisions may be all of
 * a run's or any part holding the lines of the documents at hand, in any
 * order.  Memory: the set's, 4 bytes an entry, and 32 to 64 for the
 * first of each ID; nothing for the lines of other files.
 */
#ifndef SH_DECISIONS_H
#define SH_DECISIONS_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "near/fpset.h"
#include "text/docmap.h"

struct sh_decisions {
	struct sh_hmap first;	/* the hash of an ID: its first entry */
	uint32_t *rep;		/* each entry's anchor */
	size_t n, cap;		/* entries, as in the set */
};

/* A zeroed struct is empty. */

/*
 * The decision of line p[0..len) (no newline), for the documents of m,
 * into d and s.  Return 0, SH_EFIELDS (no TAB), SH_EDECIDE (not two
 * fields, or one empty), SH_ERANGE (2^32 - 1 entries) or an error of
 * sh_fpset_add or sh_fpset_id.
 */
int sh_decisions_add(struct sh_decisions *d, struct sh_fpset *s,
    struct sh_docmap *m, const char *p, size_t len);

void sh_decisions_free(struct sh_decisions *d);

#endif

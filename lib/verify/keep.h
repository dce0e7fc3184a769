/*
 * Which copy stays, and the copy each other one is removed against
 * (sh-near -g and -u): the entries of a set in keep order, best first;
 * each is kept unless it matches (match.h) a copy kept before it, and a
 * removed entry's anchor is the first kept copy, in keep order, that it
 * matches.  An entry is removed only at or above the threshold to the
 * copy that stays, never through a chain: A near B near C, with A and C
 * apart, keeps A and C and removes B against A.  The kept set does not
 * depend on where the candidates come from (classes or band groups,
 * in memory or within a budget), so neither do the anchors.
 *
 * Keep order: rank[i] highest first (rank NULL: all equal; a NaN below
 * every number), ties by input order, so that the default keeps the
 * first copy in the input, as the streaming filter does.
 *
 * An entry is verified against the kept copies of its candidates (the
 * kept entries of its class and of the neighbouring classes, or of its
 * band groups) in keep order, until one matches: a family of m copies
 * of one kept document costs m verifications.  Documents are cut ahead
 * on the verifier's threads, the entries of some thousand at a time and
 * the kept copies they meet first.  The candidates looked at, verified
 * or not, are counted in mt->ncand.
 */
#ifndef SH_KEEP_H
#define SH_KEEP_H

#include <stdint.h>

#include "near/bands.h"
#include "near/classes.h"
#include "near/fpset.h"
#include "verify/match.h"

/* An entry left out from the start (with an index, sh-near -u -i), in
 * rep on entry and on return. */
#define SH_KEEP_OUT 0xFFFFFFFFu

/*
 * The anchors of the entries of s (sh_fpset_n of them) into rep: rep[i]
 * is i for an entry kept, the entry it is removed against for another,
 * or SH_KEEP_OUT for one left out (rep[i] SH_KEEP_OUT on entry; any
 * other value else), its candidates from the classes c or the band
 * groups g.  Memory: 8 bytes an entry (12 with rank), and for the
 * groups 24 bytes a member of a group.  Return 0, SH_ENOMEM, SH_ERANGE
 * or an error of the set.
 */
int sh_keep_classes(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_classes *c, const double *rank, uint32_t *rep);
int sh_keep_groups(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, const double *rank, uint32_t *rep);

#endif

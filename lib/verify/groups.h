/*
 * Clusters from the band route's groups (near/bands.h) instead of its
 * pairs: entries that share a band's key are verified
 * (match.h) without trying every pair of a group.  A family of m copies
 * is one group of m, and costs about m verifications, not m (m - 1) / 2.
 *
 * Clusters: the connected components of the candidate pairs (two
 * entries of one group) that match, exactly as over the pairs.  In each
 * group, member by member, the members before are held as the
 * components they make; the new member is verified against the members
 * of each component in turn until one matches (then it joins it) or
 * none is left, and not at all against a component it belongs to
 * already.  Every pair that matches ends up in one component, and every
 * join is a pair that matched.  (The copies that stay of each group,
 * for -g and -u, are keep.h's.)
 *
 * Documents are cut ahead on the verifier's threads (sh_match_ahead),
 * the members of some thousand entries' groups at a time.
 */
#ifndef SH_GROUPS_H
#define SH_GROUPS_H

#include <stdint.h>
#include <stdio.h>

#include "near/bands.h"
#include "near/fpset.h"
#include "verify/match.h"

/*
 * The clusters of the matches among the groups g of the entries of s:
 * rep[i] the first entry of entry i's cluster (rep has sh_fpset_n(s)
 * elements).  Memory: 24 bytes per member of the largest group.  Return
 * 0, SH_ENOMEM or an error of the set.
 */
int sh_groups_clusters(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, uint32_t *rep);

/*
 * Write to out the clusters of the groups g of s (sh_groups_clusters),
 * as sh_match_write writes them (the copies kept are keep.h's).  Return
 * 0, SH_ENOMEM, SH_EIO (out's error flag set) or an error of the set.
 */
int sh_groups_write(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, FILE *out);

#endif

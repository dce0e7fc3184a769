/*
 * Clusters and first copies from the band route's groups (near/bands.h)
 * instead of its pairs: entries that share a band's key are verified
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
 * join is a pair that matched.
 *
 * First copies (sh-near -u): entries in input order; an entry goes when
 * it matches a kept entry before it in one of its groups, which are
 * tried in order; the kept entries of a group are the only ones it is
 * verified against.  This keeps what the filter over the pairs keeps.
 *
 * Documents are cut ahead on the verifier's threads (sh_match_ahead),
 * the members of some thousand entries' groups at a time.
 */
#ifndef SH_GROUPS_H
#define SH_GROUPS_H

#include <stdint.h>
#include <stdio.h>

#include "near/bands.h"
#include "near/linestore.h"
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
 * The first copies of the entries of s among the groups g: kept[i] 1 for
 * those kept, 0 for the others (kept has sh_fpset_n(s) elements; an
 * entry whose kept[i] is 0 on entry is left out from the start, as
 * sh_match_firsts leaves it).
 * Memory: 20 bytes per member of a group, 16 per group, 8 per entry.
 * Return 0, SH_ENOMEM, SH_ERANGE (2^32 groups or more) or an error of
 * the set.
 */
int sh_groups_firsts(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, uint8_t *kept);

/*
 * Write to out the clusters (clusters != 0; as sh_match_write writes
 * them) or the first copies (the lines of lines kept, as
 * sh_match_write_firsts writes them, of the entries without a match in
 * the index of lk) of the groups g of s.  Return 0, SH_EIO (out's error
 * flag set), or an error of the functions above or of
 * sh_match_unindexed.
 */
int sh_groups_write(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, int clusters,
    const struct sh_ixlook *lk, struct sh_linestore *lines, FILE *out);

#endif

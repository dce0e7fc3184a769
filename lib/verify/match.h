/*
 * Matches: the pairs that a join (near/fpset.h) or an index lookup
 * (index/index.h) found, as sh-near prints them.  With a verifier
 * (verify.h), each pair is held to its documents: it is a match when its
 * exact similarity is at least a threshold.  A pair whose document cannot
 * be verified (no such document, a bad token list) is reported to the
 * caller and dropped; the others go on.
 */
#ifndef SH_MATCH_H
#define SH_MATCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/progress.h"
#include "index/index.h"
#include "near/fpset.h"
#include "verify/verify.h"

/* A pair that cannot be verified: error e of sh_verify_ids about the
 * document id[0..len) (col: its column for token-list errors). */
typedef void sh_match_bad_fn(void *ctx, int e, const char *id, size_t len,
    size_t col);

struct sh_matcher {
	struct sh_verify *vf;	/* NULL: every pair matches, unverified */
	uint32_t min;		/* with vf: least similarity, millionths */
	sh_match_bad_fn *bad;	/* called for a pair not verified */
	void *ctx;
	const struct sh_progress *pg;	/* "pairs verified", total 0; NULL:
					   none */
	unsigned long long nverified;	/* pairs verified so far */
};

/* A match: valid until the next call on its source. */
struct sh_match {
	const char *id[2];
	size_t len[2];
	int dist;		/* Hamming distance, -1 unknown */
	long sim;		/* similarity in millionths, -1 unverified */
};

/*
 * The next match of the pairs of set s (sh_fpset_next, in its order) into
 * *m.  Return 1, 0 at the end, or an error of the set (fatal: verification
 * errors of one pair go to mt->bad).
 */
int sh_match_next(struct sh_matcher *mt, struct sh_fpset *s,
    struct sh_match *m);

/* sh_fpset_cluster over the matches of s: rep[i] the first entry of
 * entry i's cluster.  Return 0 or an error of the set. */
int sh_match_clusters(struct sh_matcher *mt, struct sh_fpset *s,
    uint32_t *rep);

/* sh_fpset_first over the matches of s: kept[i] as it says.  Return 0 or
 * an error of the set. */
int sh_match_firsts(struct sh_matcher *mt, struct sh_fpset *s,
    uint8_t *kept);

/* The matches of one query in the hits of an index lookup. */
struct sh_hitmatch {
	struct sh_index *ix;
	const struct sh_hits *h;
	const char *id[2];	/* the query's ID, then the hit's */
	size_t len[2];
	sh_fpval fp[2];
	size_t i;		/* the hit, then its IDs p[0..plen) */
	const char *p;
	size_t plen;
};

/* Start on the hits h of query fp, ID id[0..len), in index ix. */
void sh_hitmatch_start(struct sh_hitmatch *w, struct sh_index *ix,
    const struct sh_hits *h, const char *id, size_t len, sh_fpval fp);

/*
 * The next match of the query: each ID of each hit, in order, verified
 * with mt->vf.  Return 1 with *m, 0 at the end, or SH_ECORRUPT (where
 * names the segment).
 */
int sh_hitmatch_next(struct sh_matcher *mt, struct sh_hitmatch *w,
    struct sh_match *m, char *where);

#endif

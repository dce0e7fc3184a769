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
#include <stdio.h>

#include "base/hmap.h"
#include "base/progress.h"
#include "index/index.h"
#include "near/dedup.h"
#include "near/fplist.h"
#include "near/linestore.h"
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
	unsigned long long nmatched;	/* of them, at or above min */
	unsigned long long ncand;	/* pairs a keep decision looked at
					   (keep.h), verified or not */
};

/* A match: valid until the next call on its source. */
struct sh_match {
	const char *id[2];
	size_t len[2];
	int dist;		/* Hamming distance, -1 unknown */
	long sim;		/* similarity in millionths, -1 unverified */
	const char *file;	/* an index hit's: the file its document lies
				 * in, where the index keeps it; else NULL */
};

/*
 * The clusters of the matches of s (near/cluster.h): rep[i] the first
 * entry of entry i's cluster.  The pairs are read SH_MATCH_AHEAD at a
 * time in the set's order (sh_fpset_next), their documents cut first on
 * the verifier's threads (sh_verify_ahead), the pairs then measured on
 * them (sh_verify_pairs) and verified in that order.
 * Return 0, SH_ENOMEM or an error of the set.
 */
#define SH_MATCH_AHEAD 4096

int sh_match_clusters(struct sh_matcher *mt, struct sh_fpset *s,
    uint32_t *rep);

/*
 * An index that the entries of a filter (sh-near -u -i) are looked up
 * in, at distance k, or for band tables by the sketches of their lines;
 * hits is scratch, where names a file on error.  ix NULL: none.
 */
struct sh_ixlook {
	struct sh_index *ix;
	int k;
	struct sh_hits *hits;
	char *where;
};

/*
 * kept[i] 1 for each entry i of s (i below sh_fpset_n) with no match in
 * the index of lk (verified with mt->vf, stopping at the first): within
 * k, or for band tables agreeing in a band by the sketch of line i of
 * lines (the whole line of entry i); else 0; all 1 without an index.
 * Verified, the entries are asked in batches, as sh_ixqueue asks them,
 * so that their candidates' located documents are read together.
 * Return 0, an error of the set or the lines (where empty), of a line's
 * sketch or of the index (where names its file).
 */
int sh_match_unindexed(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_ixlook *lk, struct sh_linestore *lines,
    uint8_t *kept);

/*
 * Write to out, as pair lines (near/pairline.h), the matches of s in the
 * set's order, verified as sh_match_clusters does; with clusters, a line
 * for each entry instead, in input order: the first entry of its cluster
 * (sh_match_clusters), then its own ID, no further field.  Return the
 * matches written (0 with clusters), SH_EIO on a write error (out's error
 * flag set), SH_ENOMEM, or an error of the set.
 */
long long sh_match_write(struct sh_matcher *mt, struct sh_fpset *s,
    int clusters, FILE *out);

/* Entries a and b (a < b) of s, verified with mt->vf, into *m: 1 when
 * they match, 0 when not (or when reported to mt->bad), or an error of
 * the set. */
int sh_match_pair(struct sh_matcher *mt, struct sh_fpset *s, uint32_t a,
    uint32_t b, struct sh_match *m);

/* The documents of IDs id[0], id[1] (lengths len[0], len[1]), read
 * under the names vid[0], vid[1] (vlen[0], vlen[1]: their IDs, or a
 * located document's name, locate.h), checked to make fingerprints
 * fp[0], fp[1] (sh_verify_ids), verified with mt->vf (not NULL), their
 * similarity into *sim (-1 when not measured): 1 when they match, 0
 * when not (or when reported to mt->bad, by their IDs). */
int sh_match_ids(struct sh_matcher *mt, const char *const vid[2],
    const size_t vlen[2], const char *const id[2],
    const size_t len[2], const sh_fpval fp[2], long *sim);

/* Queue the documents of entries e[0..n) of s to be cut ahead by vf
 * (sh_verify_queue), and cut them (sh_verify_ahead). */
void sh_match_ahead(struct sh_verify *vf, struct sh_fpset *s,
    const uint32_t *e, size_t n);

/* Write to out the clusters rep of the entries of s, a line for each
 * entry in input order: the ID of rep[i], then its own.  Return 0,
 * SH_EIO (out's error flag set) or an error of the set. */
int sh_match_write_clusters(struct sh_fpset *s, const uint32_t *rep,
    FILE *out);

/* Write to out, each with a '\n', the lines of lines (entry i the whole
 * line of entry i) that kept[i] keeps.  Return 0, SH_EIO or an error of
 * the lines. */
int sh_match_write_kept(struct sh_linestore *lines, const uint8_t *kept,
    FILE *out);

/* The matches of one query in the hits of an index lookup. */
struct sh_hitmatch {
	struct sh_index *ix;
	const struct sh_hits *h;
	const char *id[2];	/* the query's ID, then the hit's */
	size_t len[2];
	sh_fpval fp[2];
	size_t i;		/* the hit, then its IDs p[0..plen) */
	const struct sh_hit *hit;	/* the hit of those IDs */
	const char *p;
	size_t plen;
	char name[SH_DOCMAP_NAME];	/* the hit's document, located */
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

/*
 * The distance of a search: k when given (0 and up), else the one that
 * holds pairs of similarity minsim when threshold is set
 * (sh_model_search), else the distance ix serves when given, else
 * SH_INDEX_K.  When ix holds band tables: SH_EKIND if k is given,
 * SH_EBELOW if their similarity is above a threshold set (they do not
 * hold its pairs), else SH_INDEX_K (not used).
 */
int sh_match_distance(int k, int threshold, uint32_t minsim,
    const struct sh_index *ix);

/* Called with each match of a query stream, or each line a filter
 * passes. */
typedef void sh_match_fn(void *ctx, const struct sh_match *m);
typedef void sh_line_fn(void *ctx, const char *line, size_t len);

/*
 * A stream of index queries, answered in batches by sh_index_search_each
 * (the tables swept in order for the whole batch), their matches handed
 * to fn in input order.  The first batch holds SH_IXQUEUE_FIRST queries;
 * each next one as many as would hold about SH_IXQUEUE_HITS hits at the
 * rate of the one before, from SH_IXQUEUE_MIN to SH_IXQUEUE_BATCH and
 * at most 4 times the one before.  Memory: the batch's queries and their
 * hits (32 bytes each), and up to 48 MiB to sort their probes.  With a
 * verifier on threads, a batch is searched first, the documents of its
 * queries and hits cut on them (sh_verify_ahead), then its matches
 * verified in order: 16 bytes more a query.
 */
#define SH_IXQUEUE_BATCH 65536
#define SH_IXQUEUE_FIRST 16
#define SH_IXQUEUE_MIN 1
#define SH_IXQUEUE_HITS ((size_t)1 << 20)

struct sh_ixqueue {
	struct sh_matcher *mt;
	struct sh_index *ix;
	int k;
	sh_match_fn *fn;
	void *ctx;
	struct sh_fplist q;	/* the batch: IDs, or lines to filter */
	size_t batch;		/* its size when full */
	struct sh_dedup *d;	/* the filter's lines passed */
	sh_line_fn *linefn;
	struct sh_hits hits;
	size_t *at, atcap;	/* with documents cut ahead: query i's hits
				   are hits.v[at[2 i]], at[2 i + 1] of them */
	char *where;		/* of the batch being answered */
	uint64_t *keys;		/* a band index's queries: their band keys,
				   ix->bands a query */
	size_t keycap;
	struct sh_hmap seen;	/* and the band keys of the lines passed */
};

void sh_ixqueue_init(struct sh_ixqueue *q, struct sh_matcher *mt,
    struct sh_index *ix, int k, sh_match_fn *fn, void *ctx);
void sh_ixqueue_free(struct sh_ixqueue *q);

/*
 * Make q the streaming filter (sh-near -u): a line added passes when its
 * fingerprint matches nothing in the index (any hit: the matcher does
 * not verify here) nor lies within the distance of d of a line passed
 * before; d keeps it, and fn(ctx, line, len) is called, in input order.
 * With an index of band tables, its sketch takes the place of the
 * fingerprint: it passes when it agrees in no band with the index nor
 * with a line passed before (whose band keys q keeps: 32 to 64 bytes
 * each in memory).
 * Without an index nothing is batched: each line is judged as it comes.
 */
void sh_ixqueue_filter(struct sh_ixqueue *q, struct sh_dedup *d,
    sh_line_fn *fn);

/* Add query fp, ID id[0..idlen), of the input line line[0..len) (kept
 * by a filter; for an index of band tables, its sketch gives the query's
 * band keys); a full batch is answered.  Return 0, or SH_ENOMEM or an
 * error of sh_fpline_sketch (where empty), or an error of the search or
 * of sh_hitmatch_next (where names the segment). */
int sh_ixqueue_add(struct sh_ixqueue *q, sh_fpval fp, const char *id,
    size_t idlen, const char *line, size_t len, char *where);

/* Answer the queries added since the last batch; errors as add. */
int sh_ixqueue_flush(struct sh_ixqueue *q, char *where);

#endif

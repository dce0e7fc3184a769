/*
 * The verified filter of an index of band tables (sh-index add -u -v):
 * the lines of fingerprints with sketches, in input order, each kept when
 * no candidate of it is a match (match.h: its exact similarity at least
 * mt->min by the verifier mt->vf).  The candidates of a line are the
 * index's entries that agree with its sketch in a band (each of their
 * IDs, segment by segment, oldest first), then the lines kept before it
 * that do (band by band, the latest first), each once; they are verified
 * until one matches.  Which is asked first changes the cost, never the
 * decision, which is that of sh-near -u -i INDEX -v DOCS -a min, made one
 * line at a time.
 *
 * A candidate's document is found in one place (vfilter.c, cand_doc):
 * by its ID in the verifier's documents, the query's too; an index
 * candidate whose location the index keeps (locate.h) is read where it
 * lies when those documents do not hold its ID.
 *
 * Lines are answered in batches of SH_VFILTER_BATCH: the index searched
 * for the whole batch (sh_index_bands_each), the documents of its lines
 * and of their index candidates cut ahead on the verifier's threads
 * (sh_verify_ahead), then the lines judged in order.  Memory: the
 * batch's lines and their hits (32 bytes each), and for each line kept
 * its fingerprint and ID (about 24 bytes more than the ID), and 36 to 68
 * bytes a band for its band key.
 */
#ifndef SH_VFILTER_H
#define SH_VFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "base/hmap.h"
#include "index/index.h"
#include "near/fplist.h"
#include "verify/match.h"

#define SH_VFILTER_BATCH 1024

struct sh_vfilter {
	struct sh_matcher *mt;	/* with a verifier */
	struct sh_index *ix;	/* of band tables */
	sh_line_fn *fn;		/* each line kept */
	void *ctx;
	struct sh_fplist q;	/* the batch: whole lines */
	uint64_t *keys;		/* and their band keys, ix->bands a line */
	size_t keycap;
	struct sh_hits hits;	/* the batch's index candidates */
	size_t *at, atcap;	/* line i's: hits.v[at[2 i]], at[2 i + 1] */
	struct sh_fplist kept;	/* the lines kept: fingerprints and IDs */
	uint32_t *next;		/* kept line j's band c: 1 + the line kept
				   before j with the same key, 0 none */
	unsigned long long *seen;	/* kept line j: 1 + the last line it
					   was asked about */
	size_t nextcap, seencap;
	struct sh_hmap last;	/* a band key: 1 + the last line kept of it */
	unsigned long long nlines;	/* lines judged so far */
	char *where;
};

/* Start filter f of the lines added to it against index ix (of band
 * tables), verified with mt (which has a verifier); fn(ctx, line, len)
 * is called with each line kept, in input order. */
void sh_vfilter_init(struct sh_vfilter *f, struct sh_matcher *mt,
    struct sh_index *ix, sh_line_fn *fn, void *ctx);
void sh_vfilter_free(struct sh_vfilter *f);

/*
 * Add the fingerprint line line[0..len), fingerprint fp, its sketch
 * giving its band keys; a full batch is answered.  Return 0, SH_ENOMEM or
 * an error of sh_fpline_parse or sh_fpline_sketch (where empty), or an
 * error of the index (SH_ECORRUPT, where names the segment).  A pair
 * that cannot be verified is reported to mt->bad and taken as no match.
 */
int sh_vfilter_add(struct sh_vfilter *f, sh_fpval fp, const char *line,
    size_t len, char *where);

/* Answer the lines added since the last batch; errors as add. */
int sh_vfilter_flush(struct sh_vfilter *f, char *where);

#endif

/*
 * Why two fingerprints differ: the features that pull them apart.
 *
 * For documents a and b with fingerprints fa and fb (fingerprint.h), a
 * feature f of weights a(f), b(f) (0 when absent) moves each per-bit sum
 * of a, relative to b, by a(f) - b(f) toward its hash's bit.  Over the
 * bits where fa and fb differ, its score is
 *   sum of (a(f) - b(f)) * (+1 if bit i of hash(f) equals bit i of fa,
 *                           else -1)
 * in weight units: positive when the feature votes for the difference
 * that is seen, negative when it holds the two together.  A feature with
 * equal weights, or two equal fingerprints, score 0.  Scores beyond
 * +-(2^63 - 1) units are held at that bound.
 */
#ifndef SH_EXPLAIN_H
#define SH_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/fpval.h"
#include "fp/similar.h"
#include "verify/verify.h"

/*
 * The blocks of the k = 3 table plan of sh-index (plan.h), and of sh-near
 * below about 100,000 fingerprints: four of 16 bits, block 0 the top
 * bits.  Two fingerprints within distance 3 agree on at least one.
 */
#define SH_EXPLAIN_BLOCKS 4

struct sh_block {
	sh_fpval a, b;		/* the block's bits in fa and in fb */
	int diff;		/* bits that differ, 0: the block agrees */
};

struct sh_pull {
	uint64_t hash;
	uint64_t wa, wb;	/* weights in a and in b */
	int64_t score;
	const char *text;	/* from a, or b when absent from a; not
				 * copied, empty when the vectors keep none */
	size_t len;
};

/* Why a and b, vectors of sh_fvec_doc, are close or far; by edit
 * distance over their characters when sh_fvec_chars asked for them. */
struct sh_explain {
	sh_fpval fp[2];		/* their fingerprints (sh_fvec_fp) */
	int dist;
	struct sh_block block[SH_EXPLAIN_BLOCKS];
	uint32_t sim[SH_SIM_COUNT];	/* by measure, in millionths */
	long long edits;	/* their edit distance */
	size_t nc[2];		/* over so many characters */
	struct sh_pull *top;	/* the features of positive score, largest
				 * first (ties by text bytes, then hash) */
	size_t ntop;		/* how many, at most the n asked for */
};

/*
 * Fill *x for a and b, keeping at most n features.  Return 0 or
 * SH_ENOMEM.  Free with sh_explain_free.  Cost:
 * O((a->n + b->n) log(a->n + b->n)), and that of sh_edit_dist over the
 * characters.
 */
int sh_explain(const struct sh_fvec *a, const struct sh_fvec *b, size_t n,
    struct sh_explain *x);
void sh_explain_free(struct sh_explain *x);

/*
 * Write x as TAB-separated lines to out, the documents named id[0] and
 * id[1]: "fingerprint HEX ID" twice; unless src is NULL, "text ID
 * SOURCE" twice, where the text of document i came from, src[i]:
 *   FRAMING PATH offset O length N, html reduced|no html, charset C
 * (the path escaped as IDs are, record.h; C the charset the text was
 * made UTF-8 from, followed by " detected" when its bytes showed it, or
 * utf-8 when it was taken as UTF-8); then "distance D", per block "block
 * I A B DIFF agree|differ", per measure "similarity NAME SIM", "edits D
 * N1 N2" (the edit distance D of the N1 and N2 characters), per top
 * feature "feature SCORE W1 W2 TEXT" (weights in decimal).  Return 0 or
 * SH_EIO.
 */
int sh_explain_write(FILE *out, const struct sh_explain *x,
    char *const id[2], const struct sh_docsrc *src);

#endif

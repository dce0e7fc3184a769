/*
 * Fingerprints of a batch of documents on several threads.  A batch
 * holds copies of records (ID, text, line number) or of the errors the
 * reader gave for them, in input order; sh_fpbatch_run fingerprints the
 * documents, each thread with its own struct sh_fp over the same options,
 * and the results read back in input order are those of one sh_fp (the
 * same bytes whatever the number of threads).
 *
 * Memory: the copies (about the batch's text), plus per thread what one
 * struct sh_fp holds.  The options (stop words, IDF, dictionary) are
 * shared and only read.
 */
#ifndef SH_FPBATCH_H
#define SH_FPBATCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "base/sketch.h"
#include "fp/fingerprint.h"

/* One document of a batch, or a record the reader refused. */
struct sh_fpdoc {
	size_t id, idlen, text, len;	/* bytes in the batch's copy */
	unsigned long long line;	/* of the record in its stream */
	int rerr;		/* the reader's error: not a document */
	int err;		/* after a run: 0, or the error of sh_fp_text
				 * or sh_fp_tokens */
	size_t col;		/* sh_fp_tokens: where err lies */
	int bad;		/* invalid UTF-8 was replaced */
	sh_fpval fp;
	uint64_t total;		/* 0: no features */
	unsigned long long nfeat;	/* sh_fp_count */
	struct sh_sketch sk;	/* with the options' sketch: sh_fp_sketch,
				 * or sh_fp_csketch */
	int skind;		/* the kind of sk (base/sketch.h) */
};

struct sh_fpbatch {
	struct sh_fp **fp;	/* one per thread */
	int nthreads, tokens;
	int sketch;		/* the options' sketch: 1 of the features,
				   2 of the characters */
	struct sh_fpdoc *doc;
	size_t n, cap;
	char *buf;
	size_t used, bufcap;
};

/*
 * Make b for nthreads threads (1 to 64; 1 runs in the caller's thread
 * only) fingerprinting with options o, which must outlive b; tokens: the
 * texts are token lists (sh_fp_tokens), else text (sh_fp_text).  Return
 * 0 or SH_ENOMEM (b then needs no free).
 */
int sh_fpbatch_init(struct sh_fpbatch *b, const struct sh_fpopt *o,
    int nthreads, int tokens);
void sh_fpbatch_free(struct sh_fpbatch *b);

/* Append a copy of a record (rerr 0), or a record the reader refused
 * with error rerr (id and text not kept).  Return 0 or SH_ENOMEM (b
 * unchanged). */
int sh_fpbatch_add(struct sh_fpbatch *b, const char *id, size_t idlen,
    const char *text, size_t len, unsigned long long line, int rerr);

/* Whether b holds enough to be worth a run: 256 documents or 1 MiB of
 * copies per thread. */
int sh_fpbatch_full(const struct sh_fpbatch *b);

/*
 * Fingerprint every document of b (rerr 0), filling err, and fp, total,
 * nfeat, bad and col as sh_fp_text or sh_fp_tokens give them, and sk
 * with the options' sketch (256 bytes a document more).  The
 * threads take the documents a few at a time, in order; a thread that
 * cannot be started leaves its share to the caller's.
 */
void sh_fpbatch_run(struct sh_fpbatch *b);

/* The ID of document d of b. */
const char *sh_fpbatch_id(const struct sh_fpbatch *b, const struct sh_fpdoc *d);

/* Empty b for the next batch, keeping its memory. */
void sh_fpbatch_clear(struct sh_fpbatch *b);

#endif

/*
 * Document fingerprints, version 3: the one place where text becomes a
 * 64-bit simhash.
 *
 * Version 3 changed the defaults only: the CJK 5-grams span runs (-n 5x:
 * they run across punctuation, spaces, line breaks and words of other
 * scripts, feat/tokenize.h), and the readers reduce an HTML record to
 * its main content (text/record.h, SH_RECOPT_DEFAULT).  Version 2 had
 * word 3-shingles, CJK 5-grams within runs and binary weights (-w 3 -n 5
 * -W binary), the whole text of a page; version 1 single words, CJK
 * bigrams and term frequency.  The same code gives their fingerprints
 * with those options (SH_FPOPT_V2, SH_FPOPT_V1, and the record option
 * maintext off).
 *
 * Text: features from tokenize.h; each distinct feature f seen tf times
 * weighs sh_weight(scheme, tf); its hash is sh_hash64(f, len, 0).  With
 * stop words (stopword.h) the tokenizer drops them first; with IDF
 * weights (idf.h) that weight is scaled by the feature's idf,
 * sh_idf_scale(sh_weight(scheme, tf), idf).  Token
 * lists: each listed token adds its given weight with the hash of its
 * bytes as they are (no folding).  The fingerprint is sh_simhash over those
 * (hash, weight) pairs.  A document with total weight 0 (no features) has
 * no fingerprint: *total tells the caller.
 * Frozen by tests/unit/fp_test.c; any change is a new version.
 */
#ifndef SH_FINGERPRINT_H
#define SH_FINGERPRINT_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "base/sketch.h"
#include "feat/bag.h"
#include "feat/idf.h"
#include "feat/stopset.h"
#include "feat/tokenize.h"
#include "feat/toklist.h"
#include "feat/weight.h"

/* The version of the fingerprint of a document defined here. */
#define SH_FP_VERSION 3

/* What a fingerprinter cuts and weighs: see the options of
 * feat/tokenize.h and feat/weight.h, and the files loaded below. */
struct sh_fpopt {
	struct sh_tokopt tok;
	int weight;		/* SH_W_* */
	struct sh_stop *stop;	/* NULL: none; owned (sh_fpopt_free); tok.stop
				   is it */
	struct sh_idf *idf;	/* NULL: none; owned */
	struct sh_dict *dict;	/* NULL: none; owned; tok.dict is it */
	int sketch;		/* make the MinHash sketch too (minhash.h) */
	int csketch;		/* make the sketch of the characters
				   instead (charsketch.h) */
};

/* Options of n-gram size n, shingle size w and weight scheme, nothing
 * loaded; members not named are zero. */
#define SH_FPOPT_INIT(n, w, scheme) { .tok = { .ngram = (n), \
	.shingle = (w) }, .weight = (scheme) }

/* Defaults: CJK 5-grams spanning runs, word 3-shingles, binary
 * weights. */
#define SH_FPOPT_DEFAULT { .tok = { .ngram = 5, .shingle = 3, .span = 1 }, \
	.weight = SH_W_BINARY }

/* The defaults of version 2: CJK 5-grams within runs. */
#define SH_FPOPT_V2 SH_FPOPT_INIT(5, 3, SH_W_BINARY)

/* The defaults of version 1: bigrams, single words, term frequency. */
#define SH_FPOPT_V1 SH_FPOPT_INIT(2, 1, SH_W_TF)

/*
 * Files that options name.  The words of a dictionary and of stop-word
 * lists are folded as the text will be, so set o->tok.simplify before
 * loading them.  Each returns 0 or an error with *line the 1-based line
 * at fault, 0 for errors of no line (SH_EIO, errno set, and SH_ENOMEM):
 * sh_fpopt_dict loads the dictionary file at path (feat/dict.h),
 * replacing any loaded before; sh_fpopt_stop adds the stop-word list name
 * (sh_stop_load, feat/stopword.h: a file, "@en" or "@zh"); sh_fpopt_idf
 * loads the IDF file at path (sh_idf_load, feat/idf.h), replacing any
 * loaded before.
 */
int sh_fpopt_dict(struct sh_fpopt *o, const char *path,
    unsigned long long *line);
int sh_fpopt_stop(struct sh_fpopt *o, const char *name,
    unsigned long long *line);
int sh_fpopt_idf(struct sh_fpopt *o, const char *path,
    unsigned long long *line);

/* Free what was loaded into o; o is then without it.  Call after the
 * fingerprinters made with o are freed. */
void sh_fpopt_free(struct sh_fpopt *o);

/*
 * The code that fingerprints use: the best the CPU has (2, the default),
 * no AVX-512 (1: the AVX2 packer of tokenize.h, portable hashing and
 * votes) or portable C only (0).  Fingerprints do not depend on it.  Not
 * thread-safe: set it before any fingerprinting.
 */
void sh_fp_vector(int level);

struct sh_fp;

/* New fingerprinter with options o (copied; its lists are borrowed, not
 * copied), or NULL when out of memory. */
struct sh_fp *sh_fp_new(const struct sh_fpopt *o);
void sh_fp_free(struct sh_fp *f);

/*
 * Fingerprint of text p[0..len) into *fp, and into *total a measure of
 * its total weight, 0 exactly when it has none (no features: *fp is then
 * 0 and meaningless); its scale depends on the options.  Set *bad to
 * 1 on invalid UTF-8.  Return 0 or SH_ENOMEM.
 */
int sh_fp_text(struct sh_fp *f, const char *p, size_t len, sh_fpval *fp,
    uint64_t *total, int *bad);

/*
 * Fingerprint of a token list p[0..len) (feat/toklist.h).  Return 0, or
 * an error of sh_toklist_parse with *col set to the 1-based byte column
 * of the bad token within p.
 */
int sh_fp_tokens(struct sh_fp *f, const char *p, size_t len, sh_fpval *fp,
    uint64_t *total, size_t *col);

/*
 * With o.sketch set, the MinHash sketch (fp/minhash.h) of the last
 * document that sh_fp_text or sh_fp_tokens fingerprinted, into *s, made
 * in the same pass from the same feature hashes: those of weight above
 * 0.  Return 1, or 0 when it had none (as *total says).
 */
int sh_fp_sketch(const struct sh_fp *f, struct sh_sketch *s);

/*
 * With o.csketch set instead, the sketch of the characters of the last
 * text fingerprinted (fp/charsketch.h), and its kind into *kind; a
 * token list has none.  Return 1, or 0 when it had none (no character).
 */
int sh_fp_csketch(const struct sh_fp *f, struct sh_sketch *s, int *kind);

/* The number of features (with repeats) or tokens of the last document
 * fingerprinted or counted, for telling short documents apart. */
unsigned long long sh_fp_count(const struct sh_fp *f);

/*
 * The features of text p[0..len), counted and with their text, in order of
 * first occurrence, for printing token lists: entry weights are
 * sh_fp_weight.  *bag is owned by f, valid until the next call.
 * Return 0 or SH_ENOMEM.
 */
int sh_fp_features(struct sh_fp *f, const char *p, size_t len,
    const struct sh_bag **bag, int *bad);

/* The weight in units of bag entry e: the scheme's weight of its count,
 * times its idf with an IDF file. */
uint64_t sh_fp_weight(const struct sh_fp *f, const struct sh_bagent *e);

/* The same for a feature of hash h seen count times. */
uint64_t sh_fp_weigh(const struct sh_fp *f, uint64_t h, uint64_t count);

/* The weight of every feature under f whatever its hash and count
 * (binary weights without IDF), or 0 when weights differ. */
uint64_t sh_fp_flat(const struct sh_fp *f);

/* Whether f folds traditional Chinese to simplified (its tok.simplify). */
int sh_fp_simplify(const struct sh_fp *f);

/*
 * The features of text p[0..len) by their hashes alone, every occurrence
 * in order, to fn in batches (sh_tok_hashes, feat/tokenize.h), for
 * callers that count them: a feature seen count times weighs
 * sh_fp_weigh(f, hash, count) in the fingerprint.  *bad as for
 * sh_fp_text.  Return 0 or SH_ENOMEM.
 */
int sh_fp_hashes(struct sh_fp *f, const char *p, size_t len,
    sh_tok_hash_fn *fn, void *ctx, int *bad);

/*
 * The weighted features that make the fingerprint of text p[0..len)
 * (tokens == 0; *bad as for sh_fp_text) or of a token list (tokens != 0;
 * errors and *col as for sh_fp_tokens): fn(ctx, ...) once per distinct
 * feature of a text, in order of first occurrence, or once per listed
 * token, in order (a token listed twice weighs the sum in the
 * fingerprint).  Weights of 0 are passed too.  Return 0 or an error, fn
 * having possibly been called before it.
 */
int sh_fp_each(struct sh_fp *f, const char *p, size_t len, int tokens,
    sh_wfeat_fn *fn, void *ctx, int *bad, size_t *col);

#endif

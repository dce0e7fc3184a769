/*
 * Exact similarity of two documents over the weighted features their
 * fingerprints are made of (fingerprint.h), to verify what the Hamming
 * distance of the fingerprints suggests.
 *
 * A feature vector holds each feature of a document once, told apart by
 * its 64-bit hash as the fingerprint tells them apart, with its weight in
 * units (weight.h): the sum of its weights when a token list names it more
 * than once.  Features of weight 0, which leave the fingerprint alone, are
 * left out.  With A and B the features of the two documents and a(f),
 * b(f) their weights (0 when absent), the measures are
 *   jaccard      |A and B| / |A or B|
 *   containment  |A and B| / min(|A|, |B|): the share of the smaller
 *                document's features found in the other one
 *   cosine       sum a(f) b(f) / sqrt(sum a(f)^2 * sum b(f)^2)
 *   weighted     sum min(a(f), b(f)) / sum max(a(f), b(f)), the weighted
 *                Jaccard: the share of the weight the two have in common
 *   edit         1 - d / max(|a|, |b|), the normalized Levenshtein
 *                similarity, over characters rather than features: a and
 *                b the documents' letters, marks and digits, folded as
 *                the features are (text/fold.h, sh_fold_chars), and d
 *                their edit distance (fp/edit.h)
 * each from 0 to 1, and 0 when either document has no feature (for edit,
 * no character).  Values are
 * computed in exact integer arithmetic and rounded half up to millionths,
 * so they are the same on every machine.
 */
#ifndef SH_SIMILAR_H
#define SH_SIMILAR_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "fp/edit.h"
#include "fp/fingerprint.h"

enum {
	SH_SIM_JACCARD, SH_SIM_CONTAINMENT, SH_SIM_COSINE, SH_SIM_WEIGHTED,
	SH_SIM_EDIT,
	SH_SIM_COUNT
};

#define SH_SIM_ONE 1000000	/* similarity 1 in millionths */

struct sh_fvent {
	uint64_t hash, w;
	size_t off, len;	/* text, when kept: v->text + off */
};

/*
 * What comparing a document needs of its features: their hashes in
 * ascending order, each once, and their weights, h[i] weighing w[i] (w
 * may be NULL for the measures that do not read weights: see
 * sh_sim_weights).  8 bytes a feature, 16 with weights.  For the edit
 * measure, its characters instead: c[0..nc), 4 bytes each.
 */
struct sh_fset {
	const uint64_t *h, *w;
	size_t n;
	uint64_t sum;		/* sum of the weights */
	uint64_t sq[2];		/* sum of their squares, high and low word */
	const uint32_t *c;	/* the characters (sh_fvec_chars) */
	size_t nc;
};

/* A document's features, sorted by hash once finished; set views them. */
struct sh_fvec {
	struct sh_fvent *e;	/* filled for token lists and kept texts
				   only; h and w hold every document's */
	size_t n, cap;
	char *text;
	size_t tlen, tcap;
	int keep_text;
	int nomem;		/* internal */
	size_t nocc;		/* internal: a text's occurrences, in h */
	size_t *bstart, bcap;	/* internal: the buckets of a sort */
	uint64_t sum;		/* sum of the weights */
	uint64_t sq[2];		/* sum of their squares, high and low word */
	uint64_t *h, *w;	/* the hashes and weights, for set */
	size_t hcap;
	int chars;		/* sh_fvec_chars */
	uint32_t *c;		/* the characters, for set */
	size_t nc, ccap;
	struct sh_fset set;
};

/* An empty vector that keeps each feature's text when keep_text != 0;
 * free with sh_fvec_free (the struct itself is the caller's). */
void sh_fvec_init(struct sh_fvec *v, int keep_text);
void sh_fvec_free(struct sh_fvec *v);

/*
 * What sh_fvec_doc fills v with: SH_FVEC_FEATURES (the default), or
 * SH_FVEC_CHARS, the characters the edit measure counts and no feature
 * (n 0), or SH_FVEC_BOTH.  A token list has no characters: nc is 0.
 */
enum { SH_FVEC_FEATURES = 1, SH_FVEC_CHARS = 2, SH_FVEC_BOTH = 3 };
void sh_fvec_chars(struct sh_fvec *v, int what);

/*
 * Fill v with the features of document p[0..len) as fingerprinter f sees
 * them (sh_fp_each: text, or a token list when tokens != 0; *bad and *col
 * as there), replacing what v held.  Return 0, SH_ENOMEM or an error of
 * sh_fp_each; v is empty after an error.  A text whose features' text is
 * not kept is cut by hashes alone (sh_fp_hashes) and counted here, which
 * gives the same vector faster.  Cost: O(n log n) in the features; memory
 * is kept between documents.
 */
int sh_fvec_doc(struct sh_fvec *v, struct sh_fp *f, const char *p,
    size_t len, int tokens, int *bad, size_t *col);

/* The fingerprint that v's features make: the one sh_fp_text or
 * sh_fp_tokens gives the document (0 when v is empty). */
sh_fpval sh_fvec_fp(const struct sh_fvec *v);

/* The measure named s ("jaccard", "containment", "cosine", "weighted",
 * "edit"), or SH_EINVAL. */
int sh_sim_measure(const char *s);

/* The name of measure m. */
const char *sh_sim_name(int m);

/* Similarity of a and b by measure m, in millionths (0..SH_SIM_ONE).
 * Cost: O(a->n + b->n); for edit, that of sh_sim_edit, and 0 when out of
 * memory (call sh_sim_edit to tell). */
uint32_t sh_sim(int m, const struct sh_fvec *a, const struct sh_fvec *b);

/* The same over feature sets, which need weights when sh_sim_weights(m)
 * is not 0.  Cost: one branch-free merge of the two hash arrays; for
 * Jaccard and containment, with AVX-512, blocks of eight hashes compared
 * at once. */
uint32_t sh_sim_set(int m, const struct sh_fset *a, const struct sh_fset *b);
int sh_sim_weights(int m);

/*
 * sh_sim_set(m, a, b) when that is at least min; else some value below
 * min, found faster for Jaccard: at once when the smaller set over the
 * larger is below min, and else the merge stops once the features still
 * to compare cannot make min.
 */
uint32_t sh_sim_min(int m, const struct sh_fset *a, const struct sh_fset *b,
    uint32_t min);

/*
 * The edit similarity of the characters of a and b into *sim, when it is
 * at least min; else some value below min, found faster: at once when
 * the lengths alone keep it below, else once no path of the dynamic
 * program can make it (sh_edit_dist with the largest distance that
 * rounds to min).  ws as for sh_edit_dist (NULL: none).  Return 0 or
 * SH_ENOMEM.  Cost: that of sh_edit_dist.
 */
int sh_sim_edit(struct sh_edit *ws, const struct sh_fset *a,
    const struct sh_fset *b, uint32_t min, uint32_t *sim);

/* The edit similarity of texts of na and nb characters at edit distance
 * d (sh_edit_dist, d at most the larger count): 1 - d / max(na, nb) in
 * millionths, rounded half up; 0 when either text is empty. */
uint32_t sh_sim_edits(long long d, size_t na, size_t nb);

/* Whether sh_sim_set uses the vector instructions the CPU has (on != 0,
 * the default) or portable C only; results do not depend on it.  Not
 * thread-safe. */
void sh_sim_vector(int on);

/*
 * Parse a similarity s ("0.8", "1", ".95", at most six decimals) into
 * millionths.  Return 0, SH_EINVAL (not such a number) or SH_ERANGE
 * (above 1).
 */
int sh_sim_parse(const char *s, uint32_t *v);

#endif

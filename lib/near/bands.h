/*
 * Pairs at a stated Jaccard similarity from MinHash sketches
 * (base/sketch.h), by banding (Indyk and Motwani; Broder; Leskovec,
 * Rajaraman and Ullman, "Mining of Massive Datasets", ch. 3): the
 * SH_SK_K values of a sketch are cut into b bands of r rows (band j the
 * values j r .. j r + r - 1; values past b r are left out), and two
 * sketches are a candidate pair when all r values of some band agree.
 *
 * Each value agrees with probability J for documents of Jaccard
 * similarity J, so a pair at J is a candidate with probability
 *   P(J) = 1 - (1 - J^r)^b,
 * the S-curve: near 1 above the threshold, near 0 well below it.  Two
 * unrelated documents (J near 0) agree in a band with probability about
 * 2^-16r (values of 16 bits agreeing by chance), so the candidates grow
 * with the similar pairs, not with the square of the collection.
 *
 * The plan for threshold t and recall R: the largest r for which some b
 * with b r <= SH_SK_K gives P(t) >= R, and the least such b.  The
 * largest r is the steepest curve the sketch allows: the fewest pairs
 * below t made candidates.  P is computed by multiplications alone, in
 * IEEE double precision (each product correctly rounded), so the plan is
 * the same on every machine that has it.
 */
#ifndef SH_BANDS_H
#define SH_BANDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/progress.h"
#include "base/shard.h"
#include "base/sketch.h"
#include "base/xsort.h"
#include "near/join.h"

/* The recall sh-near plans the bands for: 0.99, in millionths. */
#define SH_BANDS_RECALL 990000

/* sh-near -a takes the bands for thresholds below this one, the
 * fingerprints' search at and above it, where that costs less. */
#define SH_BANDS_BELOW 950000

struct sh_bandplan {
	int b, r;		/* bands, and rows a band */
};

/*
 * The plan for threshold t and recall (both in millionths) into *p.
 * Return 0, or SH_ERANGE when no plan reaches the recall (t below about
 * 0.036 for a recall of 0.99: a single row in each of 128 bands is not
 * enough).
 */
int sh_bandplan_init(struct sh_bandplan *p, uint32_t t, uint32_t recall);

/* P(sim) of plan p: the probability that a pair of similarity sim
 * (millionths) is a candidate. */
double sh_bandplan_prob(const struct sh_bandplan *p, uint32_t sim);

/*
 * The edit route: pairs at a stated edit similarity t (fp/similar.h)
 * from the sketches of the documents' characters (fp/charsketch.h),
 * whose n-grams are one character of an ideographic script or three of
 * an alphabet.  A share t^q of a text's n-grams of q characters survive
 * when each character is changed with probability 1 - t, so there are
 * two plans: for text of ideographs, that of Jaccard similarity t, and
 * for text of letters, that of t^3; each the most rows r for which all
 * the bands of r rows the sketch holds, b = SH_SK_K / r, make a pair at
 * that similarity a candidate with probability SH_BANDS_RECALL: at
 * t = 0.8, 21 bands of 6 rows and 42 of 3.  (Edits bunched together, a
 * word changed or a clause added, leave more n-grams alike than spread
 * ones; and a pair of texts of ideographs at t has a Jaccard similarity
 * of at least t / (2 - t), 0.667 at 0.8.)  A sketch of kind 1 (mostly
 * ideographs) is banded by the first plan, of kind 3 (mostly letters) by
 * the second, of kind 2 (a mix) by both, so that two texts at t, whose
 * shares of ideographs differ by at most about (1 - t) / t, always
 * share a plan for t down to about 0.75.  The join's bands are those of
 * both plans (all.b); a sketch fills those of the plan it has not with
 * keys of its whole sketch.
 */
struct sh_editplan {
	struct sh_bandplan all;		/* all.b: the join's bands */
	struct sh_bandplan plan[2];	/* ideographs, letters */
};

/* The plans for edit similarity t (millionths) into *p.  Return 0 or
 * SH_ERANGE (t below about 0.33: no plan reaches the recall). */
int sh_editplan_init(struct sh_editplan *p, uint32_t t);

/* The p->all.b keys of sketch s of kind 1, 2 or 3 (base/sketch.h) into
 * key. */
void sh_editplan_keys(const struct sh_editplan *p, int kind,
    const struct sh_sketch *s, uint64_t *key);

/*
 * The b keys of sketch s under plan p into key[0..b): key j a 64-bit
 * hash of band j's values and of j.  Two sketches with the same values
 * in band j have the same key j; others, with probability 2^-64.
 */
void sh_bands_keys(const struct sh_bandplan *p, const struct sh_sketch *s,
    uint64_t *key);

/*
 * Every pair i < j of the n sketches that shares a key under plan p,
 * key[k][i] being key k of sketch i (b arrays of n), each once, appended to
 * *out (whose memory the caller frees), sorted by (i, j).  A pair is
 * kept by the first band where it agrees: the bands before are compared
 * for each pair a band gives.  With a shard (else NULL), only the pairs
 * of its groups, a band being a table and a group a run of equal key
 * (base/shard.h): the shards' pairs together are those of one join, each
 * once.  n must be below 2^32.  The bands run on
 * nthreads threads (>= 1), each done reported to pg ("band"; NULL:
 * none); the result does not depend on them.  Time: per band a radix
 * sort of n words (three passes), plus the pairs of each group of equal
 * keys; memory: 16 bytes per sketch per thread, plus the pairs.  Return
 * 0, SH_ENOMEM or SH_ERANGE (n too large).
 */
int sh_bands_join(const uint64_t *const *key, size_t n,
    const struct sh_bandplan *p, int nthreads, const struct sh_shard *shard,
    const struct sh_progress *pg, struct sh_pairs *out);

/*
 * The groups of entries that share a key: group g is e[at[g] ..
 * at[g + 1]), at least 2 entries, ascending; at has ng + 1 elements
 * (none when ng is 0).
 */
struct sh_bandgroups {
	uint32_t *e;
	size_t n, cap;
	size_t *at;
	size_t ng, atcap;
};

/*
 * sh_bands_join's groups instead of its pairs, into *out (emptied
 * first): for each band in order, each group of 2 or more entries with
 * one key, unless all its entries share a key of a band before; in an
 * order that does not depend on nthreads.  Memory: 4 bytes per entry of
 * a group, where sh_bands_join takes 8 per pair: a family of m copies is
 * one group of m, not m (m - 1) / 2 pairs.  Return 0, SH_ENOMEM or
 * SH_ERANGE (out is then empty).
 */
int sh_bands_groups(const uint64_t *const *key, size_t n,
    const struct sh_bandplan *p, int nthreads, const struct sh_progress *pg,
    struct sh_bandgroups *out);
void sh_bandgroups_free(struct sh_bandgroups *g);

/*
 * The band join within a memory budget: the keys of each band go to an
 * external sort (base/xsort.h) of (key, entry) records, the budget shared
 * by the bands, spilling to tmpdir (NULL: /tmp), and every key to a
 * temporary file, entry by entry; then, band by band, each group of
 * equal key is held in memory (8 bytes an entry) and fn(ctx, a, b) told
 * each of its pairs a < b, ascending, that the band owns: the keys of
 * the bands before are read from the file, mapped (the kernel's page
 * cache, not the budget), so the pairs are those of sh_bands_join, each
 * once.  With a shard (else NULL), only the bands that hold its runs are
 * sorted, and only its runs told.  Disk: 8 bytes per entry per band, and
 * 16 more per band sorted.
 */
struct sh_bandsort;
typedef int sh_bandpair_fn(void *ctx, uint32_t a, uint32_t b);

/* A new sort for plan p and shard (not copied) into *x, which
 * sh_bandsort_free frees whatever this returns.  Return 0, SH_ENOMEM or
 * SH_EIO (the temporary file; errno set). */
int sh_bandsort_new(struct sh_bandsort **x, const struct sh_bandplan *p,
    const struct sh_shard *shard, size_t budget, const char *tmpdir);
void sh_bandsort_free(struct sh_bandsort *x);

/* Add the p->b keys key[0..b) of the next entry (entries are numbered
 * from 0 in order of addition).  Return 0, SH_ENOMEM, SH_EIO (errno set)
 * or SH_ERANGE (2^32 - 1 entries). */
int sh_bandsort_add(struct sh_bandsort *x, const uint64_t *key);

/* After the last add: the pairs of each band's groups to fn, each band
 * done reported to pg ("band").  Return 0, what fn returned when not 0
 * (which stops it), SH_ENOMEM or SH_EIO (errno set). */
int sh_bandsort_run(struct sh_bandsort *x, const struct sh_progress *pg,
    sh_bandpair_fn *fn, void *ctx);

/* The same, the groups told instead of their pairs, as sh_bands_groups
 * gives them, into *out (emptied first; empty again after an error). */
int sh_bandsort_groups(struct sh_bandsort *x, const struct sh_progress *pg,
    struct sh_bandgroups *out);

#endif

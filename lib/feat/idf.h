/*
 * Inverse document frequencies: a weight per feature, from a file.
 *
 * Two formats, told apart by the first line:
 *   - a DF file (df.h), whose first line is "<TAB>N": a feature counted
 *     in df of N documents weighs idf = 1 + ln((N + 1) / (df + 1)), at
 *     least 1, and a feature not in the file weighs 1 + ln(N + 1), the
 *     value for df = 0;
 *   - a jieba-style file of "WORD IDF" lines (a word, one or more spaces,
 *     a decimal as sh_weight_parse reads it), as python3-jieba ships in
 *     jieba/analyse/idf.txt: a feature weighs its IDF as given, and a
 *     feature not in the file the median of the file's values (the value
 *     at index n / 2 of the n values sorted, as jieba does).
 * Lines end at '\n', one '\r' before it is dropped, empty lines are
 * skipped; a word listed twice keeps its last value.  Words are matched
 * byte for byte with features as tokenize.h cuts them (folded: lowercase,
 * NFKC), by their 64-bit hash (sh_hash64, seed 0).
 * Values are fixed-point in units of 1/SH_W_UNIT (weight.h), at most
 * SH_IDF_MAX.  The logarithm is computed in integer arithmetic, rounded
 * to the nearest unit: the same on every machine.
 * Memory: that of hmap.h, 32 to 64 bytes per word.
 */
#ifndef SH_IDF_H
#define SH_IDF_H

#include <stddef.h>
#include <stdint.h>

#include "feat/weight.h"

#define SH_IDF_MAX (1000 * SH_W_UNIT)	/* largest IDF, 1000 */

struct sh_idf;

/*
 * Load the file at path into *out.  Return 0, SH_EIO (errno set),
 * SH_ENOMEM, or with *line the 1-based line number: SH_EDFLINE or
 * SH_ERANGE (a bad DF line), SH_EDFN (df above N), SH_EIDFLINE (a bad
 * jieba line) or SH_ERANGE (an IDF above SH_IDF_MAX); SH_ENOIDF for a
 * jieba-style file without lines.  *line is 0 for errors of no line.
 */
int sh_idf_load(const char *path, struct sh_idf **out,
    unsigned long long *line);
void sh_idf_free(struct sh_idf *d);

/* IDF in units of feature hash h: one probe, mostly. */
uint64_t sh_idf_get(const struct sh_idf *d, uint64_t h);

/* Hint that sh_idf_get(d, h) comes soon (see sh_hmap_prefetch). */
void sh_idf_prefetch(const struct sh_idf *d, uint64_t h);

/* IDF in units of features not in the file. */
uint64_t sh_idf_default(const struct sh_idf *d);

/* Weight w times idf, both in units, in units: w idf / SH_W_UNIT rounded
 * half up.  w at most 2^64 / SH_IDF_MAX. */
uint64_t sh_idf_scale(uint64_t w, uint64_t idf);

/* SH_W_UNIT ln(a / b) rounded to the nearest integer, for a >= b >= 1,
 * in integer arithmetic (within 1e-6 before rounding). */
uint64_t sh_idf_ln(uint64_t a, uint64_t b);

#endif

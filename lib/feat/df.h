/*
 * Document frequencies: how many documents of a corpus hold each feature.
 *
 * The DF format is text, one entry a line, in byte order:
 *     <TAB>N            first: the number of documents counted
 *     TOKEN<TAB>DF      then each feature and its document count
 * TOKEN is a feature as tokenize.h cuts it, so it holds no byte below
 * '!'; the count line, with its empty token, sorts first.  Within a file,
 * byte order of the lines is byte order of the tokens, so the sorted
 * files of several shards merge with `LC_ALL=C sort -m`, and summing the
 * counts of equal tokens (the document-count lines included) gives the
 * file of the whole corpus.  Counts are decimal, below 2^63.
 */
#ifndef SH_DF_H
#define SH_DF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "feat/bag.h"

/* Largest count or sum of counts. */
#define SH_DF_MAX ((1ULL << 63) - 1)

/*
 * Parse DF line p[0..len) into the token (*tok, *toklen, pointing into p;
 * empty for the count line) and its count *n.  Return 0, SH_EDFLINE (no
 * TAB, a byte below '!' in the token, not a decimal count) or SH_ERANGE.
 */
int sh_df_parse(const char *p, size_t len, const char **tok, size_t *toklen,
    uint64_t *n);

struct sh_df;

/* New empty counter, or NULL when out of memory. */
struct sh_df *sh_df_new(void);
void sh_df_free(struct sh_df *d);

/*
 * Count one document whose distinct features are the entries of bag
 * (kept text, as sh_fp_features gives): each entry adds 1 to its
 * feature's count, told apart by hash; the text kept is the first seen.
 * Return 0 or SH_ENOMEM (the document is then counted in part), also
 * for a new feature beyond 2^32 - 1 distinct ones: entries are numbered
 * in 32 bits.  Memory: 56 to 112 bytes per distinct feature (an entry of
 * 24 bytes, 1 to 2 per feature as the array doubles; 2 to 4 base/hmap
 * slots of 16 bytes), plus its text, in blocks of 64 KiB; no allocation
 * per document once grown.
 */
int sh_df_add(struct sh_df *d, const struct sh_bag *bag);

/*
 * Write the DF file of the documents counted to out: the count line, then
 * the features in byte order.  Sorts in place, O(n log n), which ends the
 * counting: call it once, after the last add.  Return 0 or SH_EIO (a
 * write error, errno set).
 */
int sh_df_write(struct sh_df *d, FILE *out);

/*
 * Merge: DF lines in byte order (several files merged by sort -m), one
 * call per line; equal tokens are summed and written to out, the count
 * line first.  sh_dfmerge_end writes what is pending (the count line
 * "<TAB>0" for no input at all).  Return 0, or the error of sh_df_parse,
 * SH_EUNSORTED (a token before the one of the line above), SH_ERANGE (a
 * sum over SH_DF_MAX), SH_ENOMEM or SH_EIO (errno set).
 */
struct sh_dfmerge {
	char *tok;		/* current token, not NUL-terminated */
	size_t len, cap;
	uint64_t n;		/* its summed count */
	uint64_t docs;		/* summed document count */
	int state;		/* internal */
};

void sh_dfmerge_init(struct sh_dfmerge *m);
int sh_dfmerge_line(struct sh_dfmerge *m, const char *p, size_t len,
    FILE *out);
int sh_dfmerge_end(struct sh_dfmerge *m, FILE *out);
void sh_dfmerge_free(struct sh_dfmerge *m);

#endif

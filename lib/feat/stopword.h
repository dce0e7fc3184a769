/*
 * Stop-word lists, loaded into a stop-word set (feat/stopset.h) that the
 * tokenizer then drops.
 *
 * Entries are cut and folded exactly like text (feat/tokenize.h, with
 * n-grams of SH_TOK_MAX characters and no shingles), so "The" and "ＴＨＥ"
 * both give "the", a run of ideographs gives itself, and "don't" gives
 * "don" and "t".  With simplify they are also made simplified Chinese,
 * as the tokenizer of that option folds text.
 */
#ifndef SH_STOPWORD_H
#define SH_STOPWORD_H

#include <stddef.h>

#include "feat/stopset.h"

/*
 * Add the entries of list name to s: "@en" (English function words:
 * articles, pronouns, prepositions, conjunctions, auxiliaries) or "@zh"
 * (Chinese function words and their common compounds), built in; any
 * other name is a file of UTF-8 words separated by whitespace or
 * newlines, where '#' starts a comment that runs to the end of the line.
 * An entry without features (punctuation only) adds nothing.  Return 0,
 * SH_EIO (errno set), SH_ENOMEM, SH_EINVAL (an unknown "@" name) or
 * SH_EUTF8 with *line the 1-based line number (else *line is 0).
 */
int sh_stop_load(struct sh_stop *s, const char *name, int simplify,
    unsigned long long *line);

/* Add the entries of p[0..len); *bad is set to 1 on invalid UTF-8.
 * Return 0 or SH_ENOMEM. */
int sh_stop_add(struct sh_stop *s, const char *p, size_t len, int simplify,
    int *bad);

#endif

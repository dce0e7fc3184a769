/*
 * Stop words: a set of features that the tokenizer drops.
 *
 * Entries are cut and folded exactly like text (tokenize.h, with n-grams
 * of SH_TOK_MAX characters and no shingles), so "The" and "ＴＨＥ" both
 * give "the", a run of ideographs gives itself, and "don't" gives "don"
 * and "t".  The set holds the 64-bit feature hash of each entry
 * (sh_hash64, seed 0): a feature is a stop word exactly when its hash is
 * in the set, as features are told apart everywhere else.  Memory: that
 * of hmap.h, 32 to 64 bytes per entry.
 */
#ifndef SH_STOPWORD_H
#define SH_STOPWORD_H

#include <stddef.h>
#include <stdint.h>

struct sh_stop;

/* New empty set whose entries are folded, with simplify also made
 * simplified Chinese, as the tokenizer of that option folds text; NULL
 * when out of memory. */
struct sh_stop *sh_stop_new(int simplify);
void sh_stop_free(struct sh_stop *s);

/*
 * Add the entries of list name: "@en" (English function words: articles,
 * pronouns, prepositions, conjunctions, auxiliaries) or "@zh" (Chinese
 * function words and their common compounds), built in; any other name is
 * a file of UTF-8 words separated by whitespace or newlines, where '#'
 * starts a comment that runs to the end of the line.  An entry without
 * features (punctuation only) adds nothing.  Return 0, SH_EIO (errno
 * set), SH_ENOMEM, SH_EINVAL (an unknown "@" name) or SH_EUTF8 with
 * *line the 1-based line number (else *line is 0).
 */
int sh_stop_load(struct sh_stop *s, const char *name,
    unsigned long long *line);

/* Add the entries of p[0..len); *bad is set to 1 on invalid UTF-8.
 * Return 0 or SH_ENOMEM. */
int sh_stop_add(struct sh_stop *s, const char *p, size_t len, int *bad);

/* Whether feature hash h is a stop word: one probe, mostly. */
int sh_stop_has(const struct sh_stop *s, uint64_t h);

/* Entries in the set. */
size_t sh_stop_count(const struct sh_stop *s);

#endif

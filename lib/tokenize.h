/*
 * Text to features.
 *
 * Text is decoded as UTF-8 (an invalid byte becomes U+FFFD, a separator),
 * each code point is folded (NFKC_Casefold, see unicode.h), with the
 * simplify option a traditional Chinese character is then replaced by its
 * simplified form (sh_uc_simplify), and a combining mark is composed with
 * the character before it.  The folded text is then
 * cut by character class:
 *   - a maximal run of SH_UC_WORD characters is a word;
 *   - a maximal run of SH_UC_GRAM characters (Han, kana, Hangul, Thai, ...)
 *     gives its overlapping character n-grams; a run shorter than n gives
 *     one feature, the whole run; a combining mark that does not compose
 *     stays with the character before it (up to 16 bytes a character,
 *     further marks are dropped);
 *   - separators end words and runs and are dropped.
 * With shingle size w > 1, each feature from words is w consecutive words
 * joined by '_' (which never occurs inside a word); the window runs over the
 * words between two n-gram runs, and a stretch of fewer than w words gives
 * one feature of all of them.
 * Features are UTF-8 strings without whitespace, '_' only between shingled
 * words, never empty.  The cut depends on the bytes and options only.
 */
#ifndef SH_TOKENIZE_H
#define SH_TOKENIZE_H

#include <stddef.h>

#define SH_TOK_MAX 16		/* largest n-gram and shingle size */

struct sh_tokopt {
	int ngram;		/* 1..SH_TOK_MAX, default 2 */
	int shingle;		/* 1..SH_TOK_MAX, default 1 */
	int simplify;		/* 1: traditional to simplified Chinese;
				   default 0 */
};

/* Called once per feature, in text order; tok is not NUL-terminated and is
 * valid only during the call. */
typedef void sh_tok_fn(void *ctx, const char *tok, size_t len);

struct sh_tok;

/* New tokenizer with options o (copied).  NULL when out of memory. */
struct sh_tok *sh_tok_new(const struct sh_tokopt *o);
void sh_tok_free(struct sh_tok *t);

/*
 * Cut p[0..len) into features and call fn(ctx, ...) for each.  Set *bad to
 * 1 if the text held invalid UTF-8 (else leave it).  Return the number of
 * features (>= 0), or SH_ENOMEM, after which t is still usable.  Buffers
 * grow with the longest word and are reused: no allocation per feature.
 */
long long sh_tok_run(struct sh_tok *t, const char *p, size_t len,
    sh_tok_fn *fn, void *ctx, int *bad);

#endif

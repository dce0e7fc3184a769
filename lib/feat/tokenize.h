/*
 * Text to features.
 *
 * Text is decoded as UTF-8 (an invalid byte becomes U+FFFD, a separator)
 * and folded as text/fold.h folds it (NFKC_Casefold; with the simplify
 * option, traditional Chinese made simplified; a combining mark composed
 * with the character before it).  The folded text is then cut by
 * character class (text/unicode.h):
 *   - a maximal run of SH_UC_WORD characters is a word;
 *   - a maximal run of SH_UC_GRAM characters (Han, kana, Hangul, Thai, ...)
 *     gives its overlapping character n-grams; a run shorter than n gives
 *     one feature, the whole run; a combining mark that does not compose
 *     stays with the character before it (up to 16 bytes a character,
 *     further marks are dropped);
 *   - separators end words and runs and are dropped.
 * With a dictionary (dict.h), an SH_UC_GRAM run is instead cut into the
 * words of the dictionary, a character with its marks the smallest word,
 * and those words are words like the others: the n-gram size is unused.
 * The run is cut in pieces of at most 4096 code points, each ending where
 * no dictionary word can cross (so that the words are those of the whole
 * run), or at the 4096th code point when there is no such place.
 * With shingle size w > 1, each feature from words is w consecutive words
 * joined by '_' (which never occurs inside a word); the window runs over the
 * words between two n-gram runs (over all the words of the text with a
 * dictionary), and a stretch of fewer than w words gives one feature of
 * all of them.
 * With span (spanning runs), the SH_UC_GRAM characters of the whole text
 * are one run and its words one stretch: separators, words and n-gram
 * characters between them end neither, so the n-grams run across
 * punctuation, spaces, line breaks and words of other scripts (a word
 * still ends at an n-gram character), and the shingles across n-gram
 * characters; a text of fewer than n such characters gives one feature
 * of them all, and one of fewer than w words one of those.  Inserting
 * or removing a separator then changes no feature, and a word between
 * two n-gram characters only the word's shingles.  A mark composes with,
 * or stays with, the character just before it only.  With a dictionary,
 * span changes nothing (its words already shingle across the text).
 * Features are UTF-8 strings without whitespace, '_' only between shingled
 * words, never empty.  The cut depends on the bytes and options only.
 * With a stop-word set (feat/stopset.h), a word in the set is dropped before
 * shingling, so no shingle holds one, and an n-gram (or short run) equal
 * to an entry is dropped: a one-character entry drops only itself with
 * n = 1 or as a run of one character.
 */
#ifndef SH_TOKENIZE_H
#define SH_TOKENIZE_H

#include <stddef.h>
#include <stdint.h>

#define SH_TOK_MAX 16		/* largest n-gram and shingle size */

struct sh_stop;
struct sh_dict;

struct sh_tokopt {
	int ngram;		/* 1..SH_TOK_MAX, default 5 (fp/fingerprint.h) */
	int shingle;		/* 1..SH_TOK_MAX, default 3 */
	const struct sh_stop *stop;	/* NULL: none; not copied */
	const struct sh_dict *dict;	/* NULL: n-grams (not copied) */
	int simplify;		/* 1: traditional to simplified Chinese;
				   default 0 */
	int span;		/* 1: spanning runs (above); default 0 */
};

/* Called once per feature, in text order, with its hash h, which is
 * sh_hash64(tok, len, 0); tok is not NUL-terminated and is valid only
 * during the call. */
typedef void sh_tok_fn(void *ctx, const char *tok, size_t len, uint64_t h);

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

/* Called with the hashes h[0..n) of the next n (>= 1) features, in text
 * order. */
typedef void sh_tok_hash_fn(void *ctx, const uint64_t *h, size_t n);

/* sh_tok_run for callers of the hashes alone: fn gets them in batches
 * (of up to 32), which saves a call per feature. */
long long sh_tok_hashes(struct sh_tok *t, const char *p, size_t len,
    sh_tok_hash_fn *fn, void *ctx, int *bad);

/*
 * Which code cuts text, for tests that hold each to the others: the best
 * the CPU has (2, the default: ASCII packed by AVX-512 with VBMI2, else
 * AVX2), at most AVX2 (1), or portable C taking other text one character
 * at a time (0), where 1 and 2 take runs of Han characters and the CJK
 * commas and stops between them in bulk.  Not thread-safe; features do
 * not depend on it.
 */
void sh_tok_vector(int level);

#endif

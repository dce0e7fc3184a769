/*
 * Folding: text as every feature sees it, in one place for the tokenizer
 * (feat/tokenize.h), the dictionary's words (feat/dict.h) and through the
 * tokenizer the stop words.
 *
 * Each code point is folded (NFKC_Casefold, text/unicode.h), with the
 * simplify option then made simplified Chinese (sh_uc_simplify), and a
 * combining mark after a character is composed with it where Unicode
 * composes the pair (NFC), or else kept after it.
 */
#ifndef SH_FOLD_H
#define SH_FOLD_H

#include <stddef.h>
#include <stdint.h>

#include "text/unicode.h"

/*
 * Fold code point cp into out (sh_uc_fold, then sh_uc_simplify on each
 * code point when simplify != 0); return their number, 0 to
 * SH_UC_FOLD_MAX.  Inline: the tokenizer calls it per code point.
 */
static inline int
sh_fold_cp(uint32_t cp, int simplify, uint32_t out[SH_UC_FOLD_MAX])
{
	int i, n = sh_uc_fold(cp, out);

	if (simplify)
		for (i = 0; i < n; i++)
			out[i] = sh_uc_simplify(out[i]);
	return n;
}

/*
 * The CJK Unified Ideographs SH_FOLD_HAN_FIRST..SH_FOLD_HAN_LAST (U+4E00
 * to U+9FFF) fold to themselves, are of class SH_UC_GRAM and join nothing
 * (tests/unit/unicode_test.c checks each): a tokenizer may take one as
 * it is, with no lookup, unless simplify changes it (sh_uc_simplify).
 */
#define SH_FOLD_HAN_FIRST 0x4E00
#define SH_FOLD_HAN_LAST 0x9FFF

/* How a folded code point joins the character before it. */
enum {
	SH_FOLD_NEW,		/* a character of its own */
	SH_FOLD_COMPOSE,	/* composed with it: the pair becomes one */
	SH_FOLD_MARK		/* a combining mark that stays after it */
};

/*
 * How folded code point cp joins the folded character prev before it.
 * Only a combining mark (canonical combining class other than 0) or a
 * Hangul vowel or trailing consonant joins: SH_FOLD_COMPOSE with the
 * composite in *c when the pair composes, else SH_FOLD_MARK for a mark;
 * anything else is SH_FOLD_NEW.  A few comparisons below U+0300.
 */
static inline int
sh_fold_join(uint32_t prev, uint32_t cp, uint32_t *c)
{
	if (!((cp >= 0x1161 && cp <= 0x1175) || (cp >= 0x11A8 &&
	    cp <= 0x11C2) || (cp >= 0x300 && sh_uc_ccc(cp) != 0)))
		return SH_FOLD_NEW;
	if ((*c = sh_uc_compose(prev, cp)) != 0)
		return SH_FOLD_COMPOSE;
	return sh_uc_ccc(cp) != 0 ? SH_FOLD_MARK : SH_FOLD_NEW;
}

/*
 * Fold p[0..len) as above: decoded (an invalid byte gives U+FFFD and sets
 * *bad), each code point folded, a combining mark composed with the
 * character before it or kept after it.  Store the code points in out,
 * which has room for len * SH_UC_FOLD_MAX, and return their number.
 */
size_t sh_fold_text(const char *p, size_t len, int simplify, uint32_t *out,
    int *bad);

/*
 * The characters of p[0..len) that an edit distance counts: folded as
 * sh_fold_text folds them, then only those of class SH_UC_WORD or
 * SH_UC_GRAM kept (letters, combining marks and digits: spaces,
 * punctuation, symbols and U+FFFD dropped), in order, into *out, an
 * array of *cap code points grown as needed (sh_grow: pass the address
 * of a pointer to uint32_t), their number into *n.  Return 0, or
 * SH_ENOMEM (*out and *cap still valid, *n 0).  Cost: O(len), with
 * at most len + SH_UC_FOLD_MAX code points of room.
 */
int sh_fold_chars(const char *p, size_t len, int simplify, void *out,
    size_t *cap, size_t *n, int *bad);

#endif

/*
 * Unicode character properties used by the tokenizer, from tables that
 * tools/gen-unicode and tools/gen-t2s generate out of the Unicode
 * Character Database (lib/text/unitab.c and lib/text/t2s.c, committed).  No locale
 * is consulted.
 */
#ifndef SH_UNICODE_H
#define SH_UNICODE_H

#include <stdint.h>

#define SH_UC_VERSION "15.0.0"	/* UCD the tables were made from */
#define SH_UC_FOLD_MAX 18	/* longest fold expansion, in code points */

/* Character classes, of a code point after folding. */
enum {
	SH_UC_SEP = 0,	/* separator: space, punctuation, symbol, control,
			   unassigned, U+FFFD */
	SH_UC_WORD = 1,	/* letter, combining mark or digit of a
			   space-delimited script: part of a word */
	SH_UC_GRAM = 2	/* Han, Hiragana, Katakana, Hangul, Bopomofo, and
			   the scripts written without spaces (Thai, Lao,
			   Khmer, Myanmar): cut into character n-grams */
};

/*
 * Class of cp (any value; above 0x10FFFF gives SH_UC_SEP), meant for code
 * points already folded.  Letters (L*), marks (M*) and decimal digits (Nd)
 * are words, other numbers (Nl, No) only when folding keeps them; those of
 * the n-gram scripts (by Script, or by Script_Extensions for Common and
 * Inherited, as U+30FC) are n-grams, except their Nd digits.  Two table
 * loads.
 */
int sh_uc_class(uint32_t cp);

/*
 * Fold cp: NFKC compatibility mapping and full case folding, the
 * NFKC_Casefold mapping of the UCD (DerivedNormalizationProps.txt,
 * NFKC_CF), with default ignorables removed.  Store the result in out and
 * return its length, 0..SH_UC_FOLD_MAX (0: cp is ignorable and vanishes).
 * A code point that folds to itself (as does any value above 0x10FFFF)
 * gives out[0] == cp, return 1.  Two table loads, plus a copy from a pool
 * for expansions.
 */
int sh_uc_fold(uint32_t cp, uint32_t out[SH_UC_FOLD_MAX]);

/*
 * Canonical composition of the pair (a, b), both already folded: the
 * primary composite a+b composes to (NFC, composition exclusions
 * honoured, Hangul LV/LVT included), or 0 when they do not compose.
 * Hangul is arithmetic; the rest a binary search over 941 pairs.
 */
uint32_t sh_uc_compose(uint32_t a, uint32_t b);

/* Canonical combining class of cp (0 for starters and above 0x10FFFF). */
int sh_uc_ccc(uint32_t cp);

/*
 * Simplified Chinese form of cp, meant for code points already folded:
 * the first kSimplifiedVariant of the Unihan database (Unihan_Variants.txt)
 * for the 6262 characters that have one and are not listed among their
 * own simplified variants, chains followed (U+85B4 to U+82CE); cp itself
 * for every other value.  Sources and targets are SH_UC_GRAM characters
 * that fold to themselves, so simplifying keeps classes and folding, and
 * sh_uc_simplify(sh_uc_simplify(cp)) == sh_uc_simplify(cp).  One table
 * load for a code point left alone, three for one simplified.
 */
uint32_t sh_uc_simplify(uint32_t cp);

#endif

/*
 * Spot checks of the Unicode tables (lib/text/unitab.c).  The exhaustive
 * comparison with the UCD is tools/gen-unicode --check, which needs the
 * UCD files; this test does not.
 */
#include <stdint.h>
#include <string.h>

#include "text/fold.h"
#include "text/unicode.h"
#include "tap.h"

/* Does cp fold to the n code points of want? */
static int
folds_to(uint32_t cp, const uint32_t *want, int n)
{
	uint32_t out[SH_UC_FOLD_MAX];
	int i, got;

	got = sh_uc_fold(cp, out);
	if (got != n)
		return 0;
	for (i = 0; i < n; i++)
		if (out[i] != want[i])
			return 0;
	return 1;
}

/* Does cp fold to the single code point want? */
static int
folds1(uint32_t cp, uint32_t want)
{
	return folds_to(cp, &want, 1);
}

/* Class of what cp folds to, when that is one code point; else -1. */
static int
folded_class(uint32_t cp)
{
	uint32_t out[SH_UC_FOLD_MAX];

	if (sh_uc_fold(cp, out) != 1)
		return -1;
	return sh_uc_class(out[0]);
}

int
main(void)
{
	static const uint32_t ss[] = { 's', 's' };
	static const uint32_t fi[] = { 'f', 'i' };
	static const uint32_t sallallahou[] = { 0x635, 0x644, 0x649, 0x20,
	    0x627, 0x644, 0x644, 0x647, 0x20, 0x639, 0x644, 0x64A, 0x647,
	    0x20, 0x648, 0x633, 0x644, 0x645 };
	uint32_t out[SH_UC_FOLD_MAX], cp;
	int n, same;

	ok(strcmp(SH_UC_VERSION, "15.0.0") == 0, "UCD version 15.0.0");

	/* Folding. */
	ok(folds1('A', 'a'), "'A' folds to 'a'");
	ok(folds1('a', 'a'), "'a' folds to itself");
	ok(folds1(0xFF21, 'a'), "U+FF21 FULLWIDTH A folds to 'a'");
	ok(folds_to(0xDF, ss, 2), "U+00DF sharp s folds to \"ss\"");
	ok(folds_to(0xFB01, fi, 2), "U+FB01 fi ligature folds to \"fi\"");
	ok(folds1(0x3A3, 0x3C3), "U+03A3 capital sigma folds to U+03C3");
	ok(folds1(0x3C2, 0x3C3), "U+03C2 final sigma folds to U+03C3");
	ok(folds1(0x2460, '1'), "U+2460 circled one folds to '1'");
	ok(folds1(0x414, 0x434), "U+0414 Cyrillic De folds to U+0434");
	ok(folds1(0xFF10, '0'), "U+FF10 fullwidth zero folds to '0'");
	ok(folds1(0xFF0C, ','), "U+FF0C fullwidth comma folds to ','");
	ok(folds1(0xF900, 0x8C48), "U+F900 compatibility ideograph folds "
	    "to U+8C48");
	ok(folds1(0x1D400, 'a'), "U+1D400 mathematical bold A folds to 'a'");
	ok(folds1(0xFF71, 0x30A2), "U+FF71 halfwidth katakana A folds to "
	    "U+30A2");
	ok(folds1(0x4E2D, 0x4E2D), "U+4E2D folds to itself");
	ok(folds1(0xAC00, 0xAC00), "U+AC00 Hangul syllable folds to itself");
	for (same = 1, cp = SH_FOLD_HAN_FIRST; cp <= SH_FOLD_HAN_LAST; cp++)
		if (!folds1(cp, cp) || sh_uc_class(cp) != SH_UC_GRAM ||
		    sh_uc_ccc(cp) != 0 || sh_fold_join('a', cp, out) !=
		    SH_FOLD_NEW)
			same = 0;
	ok(same, "U+4E00..U+9FFF fold to themselves, are n-gram "
	    "characters and join nothing (the tokenizer's shortcut)");
	ok(sh_uc_fold(0xAD, out) == 0, "U+00AD soft hyphen folds to nothing");
	ok(sh_uc_fold(0x200B, out) == 0, "U+200B zero width space folds to "
	    "nothing");
	ok(sh_uc_fold(0xFE0F, out) == 0, "U+FE0F variation selector folds "
	    "to nothing");
	ok(sh_uc_fold(0xE0001, out) == 0, "U+E0001 language tag folds to "
	    "nothing");
	ok(folds_to(0xFDFA, sallallahou, 18), "U+FDFA folds to 18 code "
	    "points, SH_UC_FOLD_MAX");
	ok(folds1(0x110000, 0x110000), "0x110000 folds to itself");
	ok(folds1(0xFFFFFFFF, 0xFFFFFFFF), "0xFFFFFFFF folds to itself");

	/* Folding is idempotent on single code points of the BMP. */
	same = 1;
	for (cp = 0; cp < 0x10000 && same; cp++) {
		uint32_t again[SH_UC_FOLD_MAX];
		int i;

		n = sh_uc_fold(cp, out);
		if (n < 0 || n > SH_UC_FOLD_MAX) {
			same = 0;
			break;
		}
		for (i = 0; i < n; i++)
			if (sh_uc_fold(out[i], again) != 1 ||
			    again[0] != out[i])
				same = 0;
	}
	ok(same, "folded BMP code points fold to themselves (stopped at "
	    "U+%04lX)", (unsigned long)cp);

	/* Classes. */
	ok(sh_uc_class('a') == SH_UC_WORD, "'a' is WORD");
	ok(sh_uc_class('0') == SH_UC_WORD, "'0' is WORD");
	ok(sh_uc_class('!') == SH_UC_SEP, "'!' is SEP");
	ok(sh_uc_class(' ') == SH_UC_SEP, "' ' is SEP");
	ok(sh_uc_class(0) == SH_UC_SEP, "NUL is SEP");
	ok(sh_uc_class(0xE9) == SH_UC_WORD, "U+00E9 e acute is WORD");
	ok(sh_uc_class(0x3C3) == SH_UC_WORD, "U+03C3 sigma is WORD");
	ok(sh_uc_class(0x434) == SH_UC_WORD, "U+0434 Cyrillic de is WORD");
	ok(sh_uc_class(0x5D0) == SH_UC_WORD, "U+05D0 Hebrew alef is WORD");
	ok(sh_uc_class(0x627) == SH_UC_WORD, "U+0627 Arabic alef is WORD");
	ok(sh_uc_class(0x915) == SH_UC_WORD, "U+0915 Devanagari ka is WORD");
	ok(sh_uc_class(0x301) == SH_UC_WORD, "U+0301 combining acute is "
	    "WORD");
	ok(sh_uc_class(0x3000) == SH_UC_SEP, "U+3000 ideographic space is "
	    "SEP");
	ok(sh_uc_class(0x3002) == SH_UC_SEP, "U+3002 ideographic full stop "
	    "is SEP");
	ok(sh_uc_class(0x3001) == SH_UC_SEP, "U+3001 ideographic comma is "
	    "SEP");
	ok(sh_uc_class(0x4E2D) == SH_UC_GRAM, "U+4E2D is GRAM");
	ok(sh_uc_class(0x20000) == SH_UC_GRAM, "U+20000 (CJK ext B) is GRAM");
	ok(sh_uc_class(0x31350) == SH_UC_GRAM, "U+31350 (CJK ext H, 15.0) "
	    "is GRAM");
	ok(sh_uc_class(0xF900) == SH_UC_GRAM, "U+F900 compatibility "
	    "ideograph is GRAM");
	ok(sh_uc_class(0x3042) == SH_UC_GRAM, "U+3042 hiragana a is GRAM");
	ok(sh_uc_class(0x30A2) == SH_UC_GRAM, "U+30A2 katakana a is GRAM");
	ok(sh_uc_class(0x30FC) == SH_UC_GRAM, "U+30FC prolonged sound mark "
	    "is GRAM");
	ok(sh_uc_class(0x3005) == SH_UC_GRAM, "U+3005 iteration mark is "
	    "GRAM");
	ok(sh_uc_class(0x309D) == SH_UC_GRAM, "U+309D hiragana iteration "
	    "mark is GRAM");
	ok(sh_uc_class(0x30FE) == SH_UC_GRAM, "U+30FE katakana voiced "
	    "iteration mark is GRAM");
	ok(sh_uc_class(0x3099) == SH_UC_GRAM, "U+3099 combining voiced "
	    "sound mark is GRAM");
	ok(sh_uc_class(0xAC00) == SH_UC_GRAM, "U+AC00 Hangul syllable is "
	    "GRAM");
	ok(sh_uc_class(0x1100) == SH_UC_GRAM, "U+1100 Hangul jamo is GRAM");
	ok(sh_uc_class(0x3105) == SH_UC_GRAM, "U+3105 Bopomofo b is GRAM");
	ok(sh_uc_class(0xE01) == SH_UC_GRAM, "U+0E01 Thai ko kai is GRAM");
	ok(sh_uc_class(0xE34) == SH_UC_GRAM, "U+0E34 Thai vowel mark is "
	    "GRAM");
	ok(sh_uc_class(0xE51) == SH_UC_WORD, "U+0E51 Thai digit one is WORD");
	ok(sh_uc_class(0xE81) == SH_UC_GRAM, "U+0E81 Lao ko is GRAM");
	ok(sh_uc_class(0x1780) == SH_UC_GRAM, "U+1780 Khmer ka is GRAM");
	ok(sh_uc_class(0x1000) == SH_UC_GRAM, "U+1000 Myanmar ka is GRAM");
	ok(sh_uc_class(0x1040) == SH_UC_WORD, "U+1040 Myanmar digit zero "
	    "is WORD");
	ok(sh_uc_class(0xFFFD) == SH_UC_SEP, "U+FFFD is SEP");
	ok(sh_uc_class(0xFFFF) == SH_UC_SEP, "U+FFFF noncharacter is SEP");
	ok(sh_uc_class(0xFDD0) == SH_UC_SEP, "U+FDD0 noncharacter is SEP");
	ok(sh_uc_class(0xD800) == SH_UC_SEP, "U+D800 surrogate is SEP");
	ok(sh_uc_class(0xE000) == SH_UC_SEP, "U+E000 private use is SEP");
	ok(sh_uc_class(0x378) == SH_UC_SEP, "U+0378 unassigned is SEP");
	ok(sh_uc_class(0x1F600) == SH_UC_SEP, "U+1F600 emoji is SEP");
	ok(sh_uc_class(0x10FFFF) == SH_UC_SEP, "U+10FFFF is SEP");
	ok(sh_uc_class(0x110000) == SH_UC_SEP, "0x110000 is SEP");
	ok(sh_uc_class(0xFFFFFFFF) == SH_UC_SEP, "0xFFFFFFFF is SEP");
	ok(folded_class(0xFF10) == SH_UC_WORD, "U+FF10 folds to a WORD");
	ok(folded_class(0xFF0C) == SH_UC_SEP, "U+FF0C folds to a SEP");
	ok(folded_class(0x2460) == SH_UC_WORD, "U+2460 folds to a WORD");
	ok(folded_class(0xFF70) == SH_UC_GRAM, "U+FF70 folds to a GRAM");

	/* Composition. */
	ok(sh_uc_compose('e', 0x301) == 0xE9, "e + U+0301 composes to U+00E9");
	ok(sh_uc_compose('A', 0x30A) == 0xC5, "A + U+030A composes to U+00C5");
	ok(sh_uc_compose(0xE9, 0x302) == 0, "U+00E9 + U+0302 does not "
	    "compose");
	ok(sh_uc_compose(0x1EB9, 0x302) == 0x1EC7, "U+1EB9 + U+0302 "
	    "composes to U+1EC7");
	ok(sh_uc_compose(0x304B, 0x3099) == 0x304C, "U+304B + U+3099 "
	    "composes to U+304C");
	ok(sh_uc_compose(0x1100, 0x1161) == 0xAC00, "Hangul L + V composes "
	    "to U+AC00");
	ok(sh_uc_compose(0x1112, 0x1175) == 0xD788, "Hangul last L + last V "
	    "composes to U+D788");
	ok(sh_uc_compose(0xAC00, 0x11A8) == 0xAC01, "Hangul LV + T composes "
	    "to U+AC01");
	ok(sh_uc_compose(0xD788, 0x11C2) == 0xD7A3, "Hangul LV + last T "
	    "composes to U+D7A3");
	ok(sh_uc_compose(0xAC00, 0x11A7) == 0, "Hangul LV + U+11A7 does not "
	    "compose");
	ok(sh_uc_compose(0xAC01, 0x11A8) == 0, "Hangul LVT + T does not "
	    "compose");
	ok(sh_uc_compose(0x5D9, 0x5B4) == 0, "U+05D9 + U+05B4 (excluded "
	    "U+FB1D) does not compose");
	ok(sh_uc_compose(0x915, 0x93C) == 0, "U+0915 + U+093C (excluded "
	    "U+0958) does not compose");
	ok(sh_uc_compose(0x308, 0x301) == 0, "U+0308 + U+0301 (non-starter "
	    "U+0344) does not compose");
	ok(sh_uc_compose('a', 'b') == 0, "'a' + 'b' does not compose");
	ok(sh_uc_compose(0x110000, 0x301) == 0, "0x110000 + U+0301 does not "
	    "compose");
	ok(sh_uc_compose(0xFFFFFFFF, 0xFFFFFFFF) == 0, "0xFFFFFFFF pair does "
	    "not compose");

	/* Canonical combining classes. */
	ok(sh_uc_ccc(0x301) == 230, "ccc U+0301 is 230");
	ok(sh_uc_ccc(0x316) == 220, "ccc U+0316 is 220");
	ok(sh_uc_ccc(0x3099) == 8, "ccc U+3099 is 8");
	ok(sh_uc_ccc(0x5B0) == 10, "ccc U+05B0 is 10");
	ok(sh_uc_ccc('a') == 0, "ccc 'a' is 0");
	ok(sh_uc_ccc(0x4E2D) == 0, "ccc U+4E2D is 0");
	ok(sh_uc_ccc(0x110000) == 0, "ccc 0x110000 is 0");

	return tap_done();
}

/*
 * The charset of a document that declares none, from its bytes: for the
 * pages of a crawl in GBK, Big5, Shift_JIS, EUC-KR, windows-1251 or
 * windows-1252 that say nothing of it, which read as UTF-8 would be
 * garbage.
 *
 * Text that is UTF-8 (ASCII included) is left alone: by its first 64
 * characters past ASCII, valid, or eight times as many valid sequences
 * as invalid bytes (a UTF-8 text with a stray byte).  Otherwise
 * the first 16 KiB are converted (charset.h) from each multi-byte
 * candidate, and the candidate is scored by what the converted text
 * holds: of its characters past ASCII, the share that are among the 459
 * commonest Chinese characters (traditional ones taken as their
 * simplified forms) for GB18030 and Big5, kana or those for Shift_JIS,
 * Hangul syllables for EUC-KR; a candidate the bytes break early is
 * out.  A wrong charset turns text into characters drawn at random from
 * its repertoire, a few hundredths of them common: the right one scores
 * tens of times more.  When none scores a fifth, the text is taken as
 * single-byte: windows-1251 when most bytes past ASCII stand next to
 * another (the words of a Cyrillic text), else windows-1252 (accented
 * letters amid ASCII).  Deterministic: the same bytes, the same answer,
 * on every machine with the same C library's converters.
 */
#ifndef SH_DETECT_H
#define SH_DETECT_H

#include <stddef.h>

#include "text/charset.h"

/*
 * The charset of p[0..len), one of "GB18030", "BIG5", "SHIFT_JIS",
 * "EUC-KR", "WINDOWS-1251" and "WINDOWS-1252" (static strings), or NULL
 * for UTF-8 (then nothing is converted).  c is used to convert;
 * *e receives 0 or SH_ENOMEM (then NULL).  Cost: up to four conversions
 * of 16 KiB, for text that is not UTF-8.
 */
const char *sh_charset_detect(struct sh_charset *c, const char *p,
    size_t len, int *e);

#endif

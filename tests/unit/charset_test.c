/*
 * Charsets: conversion to UTF-8 through iconv, the fallback on invalid
 * bytes and unknown charsets, and the <meta> declarations of HTML pages.
 */
#include <string.h>

#include "base/errors.h"
#include "text/charset.h"
#include "tap.h"

/* Whether converting in (from charset cs) gives want, with status e. */
static int
converts(struct sh_charset *c, const char *cs, const char *in, size_t len,
    const char *want, int e)
{
	const char *out;
	size_t n;

	return sh_charset_conv(c, cs, strlen(cs), in, len, &out, &n) == e &&
	    n == strlen(want) && memcmp(out, want, n) == 0;
}

/* Whether page declares the charset want ("" for none). */
static int
meta(const char *page, const char *want)
{
	const char *name;
	size_t n;

	if (!sh_charset_meta(page, strlen(page), &name, &n))
		return *want == '\0';
	return n == strlen(want) && memcmp(name, want, n) == 0;
}

int
main(void)
{
	/* 今天 in GBK and in Big5, é in Latin-1. */
	static const char gbk[] = "\xbd\xf1\xcc\xec", big5[] = "\xa4\xb5\xa4\xd1";
	static const char bad[] = "\xbd\xf1\xff\xff";
	struct sh_charset *c = sh_charset_new();
	char big[40000];
	size_t i;

	ok(c != NULL, "new");
	ok(converts(c, "GBK", gbk, 4, "今天", 0), "GBK");
	ok(converts(c, "gbk", gbk, 4, "今天", 0), "gbk, the converter kept");
	ok(converts(c, "BIG5", big5, 4, "今天", 0), "Big5");
	ok(converts(c, "ISO-8859-1", "caf\xe9", 4, "café", 0), "Latin-1");
	ok(converts(c, "GBK", bad, 4, "今\xff\xff", SH_EUTF8),
	    "an invalid sequence and the rest kept as they are");
	ok(converts(c, "GBK", "", 0, "", 0), "empty text");
	ok(sh_charset_conv(c, "no-such-charset", 15, "x", 1,
	    &(const char *){ 0 }, &(size_t){ 0 }) == SH_EINVAL,
	    "unknown charset");
	ok(!sh_charset_known("no-such-charset") && sh_charset_known("GB18030"),
	    "known charsets");
	ok(sh_charset_utf8("UTF-8", 5) && sh_charset_utf8("us-ascii", 8) &&
	    !sh_charset_utf8("utf-16", 6), "UTF-8 and its subset");
	for (i = 0; i + 1 < sizeof(big); i += 2)
		memcpy(big + i, "\xa1\xa1", 2);	/* the GBK ideographic space */
	{
		const char *out;
		size_t n;

		ok(sh_charset_conv(c, "GBK", 3, big, sizeof(big), &out,
		    &n) == 0 && n == sizeof(big) / 2 * 3 &&
		    memcmp(out, "\xe3\x80\x80", 3) == 0,
		    "a long text grows the buffer");
	}
	ok(meta("<html><meta charset=\"gbk\"><p>x", "gbk"), "meta charset");
	ok(meta("<META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; "
	    "charset=big5\">", "big5"), "meta http-equiv");
	ok(meta("<meta charset=utf-8/>", "utf-8"), "unquoted, self-closing");
	ok(meta("<meta name=\"x\"><p>charset=gbk</p>", ""),
	    "charset outside a meta tag");
	ok(meta("<html><body>no declaration</body></html>", ""), "none");
	memset(big, ' ', 2000);
	memcpy(big + 1500, "<meta charset=gbk>", 18);
	big[2000] = '\0';
	ok(meta(big, ""), "only the first 1024 bytes are searched");
	sh_charset_free(c);
	sh_charset_free(NULL);
	return tap_done();
}

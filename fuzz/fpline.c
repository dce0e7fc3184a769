/*
 * Fuzz target: fingerprint lines (near/fpline.h).  The input is lines;
 * each that parses is written back with sh_fpline_write and must parse
 * again to the same fingerprint and ID, its hex the lowercase of the
 * line's; a sketch after the ID (base/sketch.h) that parses is written
 * back with sh_sketch_format and must parse again to the same values.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/sketch.h"
#include "near/fpline.h"
#include "util.h"

/* The sketch after the ID of line p[0..len), if any, of either kind:
 * written back with the tag of its kind, it parses to the same values. */
static void
sketch(const char *p, size_t len, const char *id, size_t idlen)
{
	struct sh_sketch s, s2;
	char text[SH_SK_TEXT];
	int r, kind;

	r = sh_fpline_sketch(p, len, id, idlen, &s);
	FZ_CHECK(r == 0 || r == SH_ENOSKETCH || r == SH_ESKETCH ||
	    r == SH_ESKVERSION || r == SH_ESKCHARS);
	r = sh_fpline_sketch_kind(p, len, id, idlen, &s, &kind);
	FZ_CHECK(r == 0 || r == SH_ENOSKETCH || r == SH_ESKETCH ||
	    r == SH_ESKVERSION);
	if (r != 0)
		return;
	FZ_CHECK(kind >= 0 && kind <= SH_SK_KINDS);
	sh_sketch_format_kind(&s, kind, text);
	FZ_CHECK(sh_sketch_parse(text, sizeof(text), &s2) == 0 &&
	    memcmp(&s, &s2, sizeof(s)) == 0);
	FZ_CHECK(sh_sketch_kind(text, sizeof(text)) == kind);
	FZ_CHECK(sh_sketch_sim(sh_sketch_equal(&s, &s2)) == 1000000);
}

static void
line(const char *p, size_t len)
{
	char hex[SH_HEX_LEN], *buf = NULL;
	const char *id, *id2;
	size_t idlen, idlen2, blen = 0, i;
	sh_fpval fp, fp2;
	FILE *out;
	int r;

	r = sh_fpline_parse(p, len, &fp, &id, &idlen);
	FZ_CHECK(r == 0 || r == SH_EFIELDS || r == SH_EHEX);
	if (r != 0)
		return;
	FZ_CHECK(id == p + SH_HEX_LEN + 1 && idlen <= len - SH_HEX_LEN - 1);
	FZ_CHECK(memchr(id, '\t', idlen) == NULL);
	sh_hex_format(fp, hex);
	for (i = 0; i < SH_HEX_LEN; i++)
		FZ_CHECK(hex[i] == (p[i] >= 'A' && p[i] <= 'F' ?
		    p[i] - 'A' + 'a' : p[i]));
	out = fz_sink(&buf, &blen);
	FZ_CHECK(sh_fpline_write(out, fp, id, idlen) == 0);
	fclose(out);
	FZ_CHECK(sh_fpline_parse(buf, blen, &fp2, &id2, &idlen2) == 0);
	FZ_CHECK(fp2 == fp && idlen2 == idlen &&
	    memcmp(id2, id, idlen) == 0);
	free(buf);
	sketch(p, len, id, idlen);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_lines(data, size, line);
	return 0;
}

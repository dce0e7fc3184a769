/*
 * Fuzz target: the fields of records (text/recfield.h).  Byte 0: bits
 * 0-1 the framing (WARC, JSON Lines, tab, nul), bit 2 the field (the
 * framing's first: WARC-Date, "d", column 2; or its second:
 * Content-Length, "a.b", column 3); the rest is the record.  Checks: a
 * value found lies within the record, a number or a date is finite, and
 * the whole record read as raw bytes gives a date or a number, or none,
 * never a crash.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "text/record.h"
#include "text/recfield.h"
#include "util.h"

int
LLVMFuzzerTestOneInput(const uint8_t *p, size_t n)
{
	static const int modes[] = { SH_REC_WARC, SH_REC_JSON, SH_REC_TAB,
	    SH_REC_NUL };
	static const char *const fields[][2] = { { "WARC-Date",
	    "Content-Length" }, { "d", "a.b" }, { "2", "3" }, { "2", "3" } };
	struct sh_jval v;
	const char *rec;
	double x;
	int m, r;

	if (n == 0)
		return 0;
	m = p[0] & 3;
	rec = (const char *)p + 1;
	n--;
	FZ_CHECK(sh_recfield_named(modes[m], fields[m][p[0] >> 2 & 1]));
	r = sh_recfield_get(modes[m], rec, n, fields[m][p[0] >> 2 & 1], &v);
	FZ_CHECK(r == 0 || r == 1);
	if (r == 1) {
		FZ_CHECK(v.p >= rec && v.p + v.len <= rec + n);
		if (sh_recfield_number(&v, &x))
			FZ_CHECK(isfinite(x));
		if (sh_recfield_date(&v, &x))
			FZ_CHECK(isfinite(x));
	}
	v.type = SH_RECFIELD_RAW;
	v.p = rec;
	v.len = n;
	if (sh_recfield_date(&v, &x))
		FZ_CHECK(isfinite(x));
	if (sh_recfield_number(&v, &x))
		FZ_CHECK(isfinite(x));
	return 0;
}

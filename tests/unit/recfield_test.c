/*
 * The fields of records (text/recfield.h): a WARC header, a JSON path, a
 * column; their values as numbers and as dates, the dates checked
 * against the seconds that date(1) -u -d gives for them.
 */
#include <string.h>

#include "base/errors.h"
#include "text/record.h"
#include "text/recfield.h"
#include "tap.h"

static const struct {
	const char *s;
	int ok;
	double t;
} dates[] = {
	{ "1970-01-01T00:00:00Z", 1, 0 },
	{ "2000-02-29T12:30:00Z", 1, 951827400 },
	{ "2026-12-02T06:59:21Z", 1, 1796194761 },
	{ "1969-12-31T23:59:59Z", 1, -1 },
	{ "2024-05-01T12:00:00+02:00", 1, 1714557600 },
	{ "2024-05-01T12:00:00+0200", 1, 1714557600 },
	{ "2024-05-01T12:00:00+02", 1, 1714557600 },
	{ "2024-05-01 10:00:00", 1, 1714557600 },
	{ "2024-05-01T10:00Z", 1, 1714557600 },
	{ "2024-05-01t10:00:00.5z", 1, 1714557600.5 },
	{ "1900-03-01", 1, -2203891200 },
	{ "1714557600", 1, 1714557600 },
	{ "2001-02-29", 0, 0 },
	{ "2100-02-29", 0, 0 },
	{ "2024-13-01", 0, 0 },
	{ "2024-05-01T24:00:00Z", 0, 0 },
	{ "2024-05-01T10:00:00.Z", 0, 0 },
	{ "2024-05-01T10:00:00 Z", 0, 0 },
	{ "2024-05-01+02:00", 0, 0 },
	{ "2024-5-1", 0, 0 },
	{ "yesterday", 0, 0 },
	{ "", 0, 0 },
};

static struct sh_jval
raw(const char *s)
{
	struct sh_jval v = { SH_RECFIELD_RAW, s, strlen(s) };

	return v;
}

int
main(void)
{
	static const char warc[] = "WARC/1.0\r\nWARC-Type: response\r\n"
	    "warc-date:  2024-05-01T10:00:00Z \r\nContent-Length: 9\r\n\r\n"
	    "X-Score: 3\r\n";
	static const char json[] = "{\"id\":\"a\",\"q\":{\"s\":0.75},"
	    "\"d\":\"2024-05-01\",\"e\":\"2024-05-\\u0030\",\"n\":\"7\"}\n";
	static const char tab[] = "a\tone two\t0.5\r\n";
	struct sh_jval v;
	double x;
	size_t i;
	int r;

	for (i = 0; i < sizeof(dates) / sizeof(dates[0]); i++) {
		x = -12345;
		v = raw(dates[i].s);
		r = sh_recfield_date(&v, &x);
		ok(r == dates[i].ok && (!r || x == dates[i].t), "date \"%s\"",
		    dates[i].s);
	}
	ok(sh_recfield_get(SH_REC_WARC, warc, sizeof(warc) - 1, "WARC-Date",
	    &v) == 1 && v.len == 20 && memcmp(v.p, "2024-05-01T10:00:00Z",
	    20) == 0 && sh_recfield_date(&v, &x) && x == 1714557600,
	    "WARC header, named in another case");
	ok(sh_recfield_get(SH_REC_WARC, warc, sizeof(warc) - 1, "X-Score",
	    &v) == 0, "a line of the block is no header");
	ok(sh_recfield_get(SH_REC_WARC, warc, sizeof(warc) - 1,
	    "Content-Length", &v) == 1 && sh_recfield_number(&v, &x) &&
	    x == 9, "WARC header as a number");
	ok(sh_recfield_get(SH_REC_JSON, json, sizeof(json) - 1, "q.s",
	    &v) == 1 && sh_recfield_number(&v, &x) && x == 0.75,
	    "JSON path to a number");
	ok(sh_recfield_get(SH_REC_JSON, json, sizeof(json) - 1, "n",
	    &v) == 1 && !sh_recfield_number(&v, &x),
	    "a JSON string is no number");
	ok(sh_recfield_get(SH_REC_JSON, json, sizeof(json) - 1, "d",
	    &v) == 1 && sh_recfield_date(&v, &x) && x == 1714521600,
	    "JSON string of a date");
	ok(sh_recfield_get(SH_REC_JSON, json, sizeof(json) - 1, "e",
	    &v) == 1 && !sh_recfield_date(&v, &x),
	    "a JSON string with an escape is no date");
	ok(sh_recfield_get(SH_REC_JSON, json, sizeof(json) - 1, "q",
	    &v) == 1 && !sh_recfield_number(&v, &x) &&
	    !sh_recfield_date(&v, &x), "an object is neither");
	ok(sh_recfield_get(SH_REC_JSON, json, sizeof(json) - 1, "z",
	    &v) == 0, "JSON: no such member");
	ok(sh_recfield_get(SH_REC_JSON, "nope\n", 5, "z", &v) == 0,
	    "JSON: no object");
	ok(sh_recfield_get(SH_REC_TAB, tab, sizeof(tab) - 1, "3", &v) == 1 &&
	    v.len == 3 && sh_recfield_number(&v, &x) && x == 0.5,
	    "column 3, before the CR LF");
	ok(sh_recfield_get(SH_REC_TAB, tab, sizeof(tab) - 1, "1", &v) == 1 &&
	    v.len == 1 && v.p[0] == 'a', "column 1, the ID");
	ok(sh_recfield_get(SH_REC_TAB, tab, sizeof(tab) - 1, "4", &v) == 0,
	    "no column 4");
	ok(sh_recfield_get(SH_REC_NUL, "a\tb\t2\0", 6, "3", &v) == 1 &&
	    sh_recfield_number(&v, &x) && x == 2, "NUL record, its column");
	ok(sh_recfield_get(SH_REC_LINE, tab, sizeof(tab) - 1, "1", &v) ==
	    SH_EINVAL, "lines have no fields");
	ok(sh_recfield_named(SH_REC_TAB, "2") && !sh_recfield_named(SH_REC_TAB,
	    "02") && !sh_recfield_named(SH_REC_TAB, "x") &&
	    !sh_recfield_named(SH_REC_TAB, "0") &&
	    sh_recfield_named(SH_REC_JSON, "a.b") &&
	    !sh_recfield_named(SH_REC_PARA, "1"), "fields named");
	v = raw(" -1.5e2 ");
	ok(sh_recfield_number(&v, &x) && x == -150, "a number in blanks");
	v = raw("0x10");
	ok(!sh_recfield_number(&v, &x), "hex is no number");
	v = raw("inf");
	ok(!sh_recfield_number(&v, &x), "inf is no number");
	v = raw("1e999");
	ok(!sh_recfield_number(&v, &x), "an infinite number is none");
	return tap_done();
}

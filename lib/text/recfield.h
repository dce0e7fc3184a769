/*
 * A named field of a record as the reader found it (its bytes, framing
 * included: sh_rec off and size, or sh_recwrite_last), and its value as
 * a number or a date: what sh-near -Y newest and max rank the copies by.
 *
 * The field of a framing:
 *   SH_REC_WARC  a header of the WARC header, named in any case (its
 *                value without surrounding blanks);
 *   SH_REC_JSON  a dotted path of members (json.h), as -I and -T name
 *                them;
 *   SH_REC_TAB, SH_REC_NUL  a column, by its number: the record's bytes
 *                (without the line end or NUL) cut at every TAB, the ID
 *                column 1, the text's first column 2.
 * The other framings have no fields.
 */
#ifndef SH_RECFIELD_H
#define SH_RECFIELD_H

#include <stddef.h>

#include "text/json.h"

/* Whether records of framing mode have fields that field (a column
 * number in the tab and nul framings) can name: 1, or 0. */
int sh_recfield_named(int mode, const char *field);

/* The type of a value of the framings but JSON: its bytes as written. */
#define SH_RECFIELD_RAW (SH_JSON_OTHER + 1)

/*
 * The value of field in record p[0..n) of framing mode into *v (for
 * JSON its type and text, json.h; for the others SH_RECFIELD_RAW), valid
 * as long as p.  Return 1, 0 when the record has no such field (or is no
 * JSON object), or SH_EINVAL when the framing has no fields.
 */
int sh_recfield_get(int mode, const char *p, size_t n, const char *field,
    struct sh_jval *v);

/* The number v holds, into *x: a JSON number, or raw bytes that are
 * wholly a decimal number, blanks around it aside ("-2", "0.75", "1e3";
 * not hex, inf or nan), finite; a JSON string is none.  Return 1, or 0
 * when it is none. */
int sh_recfield_number(const struct sh_jval *v, double *x);

/*
 * The date v holds, in seconds since 1970-01-01T00:00:00Z, into *t: a
 * string of ISO 8601 (RFC 3339) "YYYY-MM-DD", optionally followed by
 * "Thh:mm", ":ss" and a fraction ("T" or a space), and by "Z" or an
 * offset "+hh:mm" ("+hhmm", "+hh"; none is UTC), as WARC-Date is, in a
 * JSON string or raw; or a number (sh_recfield_number), taken as seconds
 * since the epoch.  Return 1, or 0 when it is none (a JSON string with an
 * escape is none).
 */
int sh_recfield_date(const struct sh_jval *v, double *t);

#endif

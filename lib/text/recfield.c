#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "text/json.h"
#include "text/record.h"
#include "text/recfield.h"

/* A column number: 1 to 2^20. */
static long
column(const char *field)
{
	long c = 0;

	if (*field == '\0' || *field == '0')
		return 0;
	for (; *field >= '0' && *field <= '9'; field++)
		if ((c = c * 10 + (*field - '0')) > 1L << 20)
			return 0;
	return *field == '\0' ? c : 0;
}

int
sh_recfield_named(int mode, const char *field)
{
	switch (mode) {
	case SH_REC_WARC:
	case SH_REC_JSON:
		return *field != '\0';
	case SH_REC_TAB:
	case SH_REC_NUL:
		return column(field) > 0;
	default:
		return 0;
	}
}

/* The WARC header named field. */
static int
warc_field(const char *p, size_t n, const char *field, struct sh_jval *v)
{
	const char *end = p + n, *nl;
	size_t len;
	int first;

	/* The first line is the version; a blank one ends the header. */
	for (first = 1; p < end; p = nl + 1, first = 0) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (!first && len == 0)
			return 0;
		if (!first && sh_rec_header(p, len, field, &v->p, &v->len)) {
			v->type = SH_RECFIELD_RAW;
			return 1;
		}
		if (nl == NULL)
			return 0;
	}
	return 0;
}

int
sh_recfield_get(int mode, const char *p, size_t n, const char *field,
    struct sh_jval *v)
{
	const char *tab;
	long c;

	v->type = SH_JSON_NONE;
	v->p = p;
	v->len = 0;
	switch (mode) {
	case SH_REC_WARC:
		return warc_field(p, n, field, v);
	case SH_REC_JSON:
		if (sh_json_find(p, n, &field, 1, v) != 0)
			return 0;
		return v->type != SH_JSON_NONE;
	case SH_REC_TAB:
	case SH_REC_NUL:
		if ((c = column(field)) == 0)
			return SH_EINVAL;
		if (mode == SH_REC_NUL && n > 0 && p[n - 1] == '\0')
			n--;
		if (mode == SH_REC_TAB && n > 0 && p[n - 1] == '\n' &&
		    --n > 0 && p[n - 1] == '\r')
			n--;
		for (; c > 1; c--) {
			if ((tab = memchr(p, '\t', n)) == NULL)
				return 0;
			n -= (size_t)(tab + 1 - p);
			p = tab + 1;
		}
		tab = memchr(p, '\t', n);
		v->type = SH_RECFIELD_RAW;
		v->p = p;
		v->len = tab != NULL ? (size_t)(tab - p) : n;
		return 1;
	default:
		return SH_EINVAL;
	}
}

/* The bytes of value v, without a JSON string's quotes, into *p, *n,
 * their blanks trimmed: 1, or 0 for a JSON string with an escape or a
 * JSON value of another type. */
static int
bytes(const struct sh_jval *v, const char **p, size_t *n)
{
	*p = v->p;
	*n = v->len;
	if (v->type == SH_JSON_STRING) {
		if (*n < 2 || memchr(*p + 1, '\\', *n - 2) != NULL)
			return 0;
		(*p)++;
		*n -= 2;
	} else if (v->type != SH_JSON_NUMBER && v->type != SH_RECFIELD_RAW)
		return 0;
	while (*n > 0 && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
		(*n)--;
	while (*n > 0 && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*n)--;
	}
	return 1;
}

/* p[0..n), wholly a finite decimal number, into *x: 1, or 0. */
static int
number(const char *p, size_t n, double *x)
{
	char buf[64], *end;
	size_t i;

	if (n == 0 || n >= sizeof(buf))
		return 0;
	for (i = 0; i < n; i++)
		if (p[i] == '\0' || strchr("0123456789+-.eE", p[i]) == NULL)
			return 0;
	memcpy(buf, p, n);
	buf[n] = '\0';
	*x = strtod(buf, &end);
	return end == buf + n && isfinite(*x);
}

int
sh_recfield_number(const struct sh_jval *v, double *x)
{
	const char *p;
	size_t n;

	/* A JSON string is text, not a number. */
	if (v->type == SH_JSON_STRING || !bytes(v, &p, &n))
		return 0;
	return number(p, n, x);
}

/* n digits of p as a number into *x; 1, or 0 when they are not. */
static int
digits(const char *p, size_t n, int *x)
{
	size_t i;

	*x = 0;
	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return 0;
		*x = *x * 10 + (p[i] - '0');
	}
	return 1;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static long
days(long y, int m, int d)
{
	long era, yoe, doy, doe;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

int
sh_recfield_date(const struct sh_jval *v, double *t)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30, 31, 31, 30,
	    31, 30, 31 };
	const char *p;
	size_t n, i;
	int y, mo, d, h = 0, mi = 0, s = 0, oh, om = 0, sign;
	double frac = 0, scale;

	if (!bytes(v, &p, &n))
		return 0;
	if (v->type != SH_JSON_STRING && number(p, n, t))
		return 1;
	if (v->type == SH_JSON_NUMBER || n < 10 || !digits(p, 4, &y) || p[4] != '-' ||
	    !digits(p + 5, 2, &mo) || p[7] != '-' || !digits(p + 8, 2, &d) ||
	    mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] || (mo == 2 &&
	    d == 29 && (y % 4 != 0 || (y % 100 == 0 && y % 400 != 0))))
		return 0;
	i = 10;
	if (i < n && (p[i] == 'T' || p[i] == 't' || p[i] == ' ')) {
		if (n < i + 6 || !digits(p + i + 1, 2, &h) || p[i + 3] !=
		    ':' || !digits(p + i + 4, 2, &mi) || h > 23 || mi > 59)
			return 0;
		i += 6;
		if (i < n && p[i] == ':') {
			if (n < i + 3 || !digits(p + i + 1, 2, &s) || s > 60)
				return 0;
			i += 3;
			if (i < n && (p[i] == '.' || p[i] == ',')) {
				for (i++, scale = 0.1; i < n && p[i] >= '0' &&
				    p[i] <= '9'; i++, scale /= 10)
					frac += (p[i] - '0') * scale;
				if (p[i - 1] == '.' || p[i - 1] == ',')
					return 0;
			}
		}
	}
	sign = 0;
	if (i < n && (p[i] == 'Z' || p[i] == 'z'))
		i++;
	else if (i < n && (p[i] == '+' || p[i] == '-') && i > 10) {
		sign = p[i] == '-' ? -1 : 1;
		if (n < i + 3 || !digits(p + i + 1, 2, &oh) || oh > 23)
			return 0;
		i += 3;
		if (i < n && p[i] == ':')
			i++;
		if (i < n) {
			if (n < i + 2 || !digits(p + i, 2, &om) || om > 59)
				return 0;
			i += 2;
		}
		sign *= oh * 3600 + om * 60;
	}
	if (i != n)
		return 0;
	*t = (double)days(y, mo, d) * 86400 + h * 3600 + mi * 60 + s -
	    sign + frac;
	return 1;
}

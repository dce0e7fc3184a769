#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/utf8.h"
#include "text/json.h"

struct parse {
	const char *p, *end;
	const char *const *paths;
	int npaths;
	struct sh_jval *out;
	char *key;		/* decoded member name */
	size_t keycap;
};

static void
space(struct parse *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' ||
	    *ps->p == '\n' || *ps->p == '\r'))
		ps->p++;
}

static int
hex4(const char *p, unsigned *v)
{
	int i, c;

	for (i = 0, *v = 0; i < 4; i++) {
		c = (unsigned char)p[i];
		if (c >= '0' && c <= '9')
			c -= '0';
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			c = (c | 0x20) - 'a' + 10;
		else
			return -1;
		*v = *v << 4 | (unsigned)c;
	}
	return 0;
}

/* Skip a string at ps->p (on its quote). */
static int
string(struct parse *ps)
{
	unsigned v;

	for (ps->p++; ps->p < ps->end; ps->p++) {
		if (*ps->p == '"') {
			ps->p++;
			return 0;
		}
		if ((unsigned char)*ps->p < 0x20)
			return SH_EJSON;
		if (*ps->p != '\\')
			continue;
		if (++ps->p == ps->end)
			return SH_EJSON;
		if (*ps->p == 'u') {
			if (ps->end - ps->p < 5 || hex4(ps->p + 1, &v) != 0)
				return SH_EJSON;
			ps->p += 4;
		} else if (strchr("\"\\/bfnrt", *ps->p) == NULL || *ps->p == 0)
			return SH_EJSON;
	}
	return SH_EJSON;
}

static int
number(struct parse *ps)
{
	const char *s = ps->p;
	size_t digits;

	if (ps->p < ps->end && *ps->p == '-')
		ps->p++;
	for (digits = 0; ps->p + digits < ps->end && ps->p[digits] >= '0' &&
	    ps->p[digits] <= '9'; digits++)
		;
	if (digits == 0 || (digits > 1 && *ps->p == '0'))
		return SH_EJSON;
	ps->p += digits;
	if (ps->p < ps->end && *ps->p == '.') {
		ps->p++;
		for (digits = 0; ps->p < ps->end && *ps->p >= '0' &&
		    *ps->p <= '9'; digits++)
			ps->p++;
		if (digits == 0)
			return SH_EJSON;
	}
	if (ps->p < ps->end && (*ps->p | 0x20) == 'e') {
		ps->p++;
		if (ps->p < ps->end && (*ps->p == '+' || *ps->p == '-'))
			ps->p++;
		for (digits = 0; ps->p < ps->end && *ps->p >= '0' &&
		    *ps->p <= '9'; digits++)
			ps->p++;
		if (digits == 0)
			return SH_EJSON;
	}
	return ps->p > s ? 0 : SH_EJSON;
}

static int value(struct parse *, const int *, int);

/*
 * An object or array at ps->p.  m[i] is how many segments of path i the
 * enclosing members matched, or -1.
 */
static int
container(struct parse *ps, const int *m, int depth)
{
	struct sh_jval key;
	const char *seg, *dot;
	int child[SH_JSON_PATHS], i, j, e, object = *ps->p == '{';
	char close = object ? '}' : ']';
	size_t n, seglen;

	if (depth >= SH_JSON_DEPTH)
		return SH_EJSON;
	ps->p++;
	space(ps);
	if (ps->p < ps->end && *ps->p == close) {
		ps->p++;
		return 0;
	}
	for (;;) {
		for (i = 0; i < ps->npaths; i++)
			child[i] = -1;
		if (object) {
			if (ps->p == ps->end || *ps->p != '"')
				return SH_EJSON;
			key.type = SH_JSON_STRING;
			key.p = ps->p;
			if ((e = string(ps)) != 0)
				return e;
			key.len = (size_t)(ps->p - key.p);
			if ((e = sh_json_string(&key, &ps->key, &ps->keycap,
			    &n)) != 0)
				return e;
			for (i = 0; i < ps->npaths; i++) {
				if (m[i] < 0)
					continue;
				/* Segment m[i] of path i. */
				for (seg = ps->paths[i], j = 0; j < m[i]; j++)
					seg = strchr(seg, '.') + 1;
				dot = strchr(seg, '.');
				seglen = dot ? (size_t)(dot - seg) : strlen(seg);
				if (seglen == n && memcmp(seg, ps->key, n) == 0)
					child[i] = dot ? m[i] + 1 : -2;
			}
			space(ps);
			if (ps->p == ps->end || *ps->p++ != ':')
				return SH_EJSON;
		}
		if ((e = value(ps, child, depth + 1)) != 0)
			return e;
		space(ps);
		if (ps->p < ps->end && *ps->p == ',') {
			ps->p++;
			space(ps);
			continue;
		}
		if (ps->p < ps->end && *ps->p == close) {
			ps->p++;
			return 0;
		}
		return SH_EJSON;
	}
}

/* A value at ps->p; m as for container, -2 for path i: this is it. */
static int
value(struct parse *ps, const int *m, int depth)
{
	const char *start;
	int i, e, type;

	space(ps);
	if (ps->p == ps->end)
		return SH_EJSON;
	start = ps->p;
	switch (*ps->p) {
	case '{':
	case '[':
		e = container(ps, m, depth);
		type = SH_JSON_OTHER;
		break;
	case '"':
		e = string(ps);
		type = SH_JSON_STRING;
		break;
	case 't':
	case 'f':
	case 'n':
		type = SH_JSON_OTHER;
		e = SH_EJSON;
		for (i = 0; i < 3; i++) {
			const char *lit = i == 0 ? "true" : i == 1 ? "false" :
			    "null";
			size_t n = strlen(lit);

			if ((size_t)(ps->end - ps->p) >= n &&
			    memcmp(ps->p, lit, n) == 0) {
				ps->p += n;
				e = 0;
				break;
			}
		}
		break;
	default:
		e = number(ps);
		type = SH_JSON_NUMBER;
		break;
	}
	if (e != 0)
		return e;
	for (i = 0; i < ps->npaths; i++)
		if (m[i] == -2 && ps->out[i].type == SH_JSON_NONE) {
			ps->out[i].type = type;
			ps->out[i].p = start;
			ps->out[i].len = (size_t)(ps->p - start);
		}
	return 0;
}

int
sh_json_find(const char *p, size_t len, const char *const *paths,
    int npaths, struct sh_jval *out)
{
	struct parse ps;
	int m[SH_JSON_PATHS], i, e;

	ps.p = p;
	ps.end = p + len;
	ps.paths = paths;
	ps.npaths = npaths;
	ps.out = out;
	ps.key = NULL;
	ps.keycap = 0;
	for (i = 0; i < npaths; i++) {
		out[i].type = SH_JSON_NONE;
		m[i] = 0;
	}
	space(&ps);
	if (ps.p == ps.end || *ps.p != '{')
		e = SH_EJSON;
	else
		e = value(&ps, m, 0);
	space(&ps);
	if (e == 0 && ps.p != ps.end)
		e = SH_EJSON;
	free(ps.key);
	return e;
}

int
sh_json_string(const struct sh_jval *v, char **buf, size_t *cap, size_t *n)
{
	const char *p = v->p + 1, *end = v->p + v->len - 1;
	unsigned c, lo;
	char *nb, *o;

	/* Decoding never grows the text (\uXXXX is 6 bytes, at most 3
	 * out; a pair is 12 bytes, 4 out). */
	if (*cap < v->len + 1) {
		if ((nb = realloc(*buf, v->len + 1)) == NULL)
			return SH_ENOMEM;
		*buf = nb;
		*cap = v->len + 1;
	}
	for (o = *buf; p < end; p++) {
		if (*p != '\\') {
			*o++ = *p;
			continue;
		}
		switch (*++p) {
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u':
			hex4(p + 1, &c);
			p += 4;
			if (c >= 0xD800 && c <= 0xDBFF && end - p > 6 &&
			    p[1] == '\\' && p[2] == 'u' &&
			    hex4(p + 3, &lo) == 0 && lo >= 0xDC00 &&
			    lo <= 0xDFFF) {
				c = 0x10000 + ((c - 0xD800) << 10) +
				    (lo - 0xDC00);
				p += 6;
			} else if (c >= 0xD800 && c <= 0xDFFF)
				c = 0xFFFD;
			o += sh_utf8_encode(c, o);
			break;
		default:	/* " \ / */
			*o++ = *p;
			break;
		}
	}
	*n = (size_t)(o - *buf);
	return 0;
}

size_t
sh_json_escape(const char *p, size_t len, char *dst)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, n = 0;
	unsigned char c;

	for (i = 0; i < len; i++) {
		c = (unsigned char)p[i];
		if (c == '"' || c == '\\') {
			dst[n++] = '\\';
			dst[n++] = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			memcpy(dst + n, "\\u00", 4);
			dst[n + 4] = hex[c >> 4];
			dst[n + 5] = hex[c & 15];
			n += 6;
		} else
			dst[n++] = (char)c;
	}
	return n;
}

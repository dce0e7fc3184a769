#include <string.h>
#include <strings.h>

#include "base/utf8.h"
#include "text/html.h"

/* Named references beyond Latin-1, and Latin-1 (U+00A0..U+00FF) in order. */
static const struct {
	const char *name;
	unsigned cp;
} named[] = {
	{ "amp", '&' }, { "lt", '<' }, { "gt", '>' }, { "quot", '"' },
	{ "apos", '\'' }, { "ndash", 0x2013 }, { "mdash", 0x2014 },
	{ "lsquo", 0x2018 }, { "rsquo", 0x2019 }, { "ldquo", 0x201C },
	{ "rdquo", 0x201D }, { "hellip", 0x2026 }, { "bull", 0x2022 },
	{ "euro", 0x20AC }, { "trade", 0x2122 }
};

static const char latin1[] =
	"nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo "
	"not shy reg macr deg plusmn sup2 sup3 acute micro para middot cedil "
	"sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc "
	"Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave "
	"Iacute Icirc Iuml ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times "
	"Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute "
	"acirc atilde auml aring aelig ccedil egrave eacute ecirc euml "
	"igrave iacute icirc iuml eth ntilde ograve oacute ocirc otilde ouml "
	"divide oslash ugrave uacute ucirc uuml yacute thorn yuml";

/* Case-insensitive: does p[0..n) start with the lowercase word w? */
static int
starts(const char *p, size_t n, const char *w)
{
	size_t i, len = strlen(w);

	if (n < len)
		return 0;
	for (i = 0; i < len; i++)
		if ((w[i] >= 'a' && w[i] <= 'z' ? p[i] | 0x20 : p[i]) != w[i])
			return 0;
	return 1;
}

/* Case-insensitive search for w in p[0..n); n when absent. */
static size_t
find(const char *p, size_t n, const char *w)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (starts(p + i, n - i, w))
			return i;
	return n;
}

/* A character reference at p[0..n) (on the '&'): its code point and
 * length, or 0 when it is none. */
static size_t
reference(const char *p, size_t n, unsigned *cp)
{
	const char *name;
	size_t i, k;
	unsigned v = 0, d;
	int hex, digits = 0;

	if (n > 2 && p[1] == '#') {
		hex = (p[2] | 0x20) == 'x';
		for (i = 2 + hex; i < n && i < 12; i++) {
			if (p[i] >= '0' && p[i] <= '9')
				d = (unsigned)(p[i] - '0');
			else if (hex && (p[i] | 0x20) >= 'a' &&
			    (p[i] | 0x20) <= 'f')
				d = (unsigned)((p[i] | 0x20) - 'a' + 10);
			else
				break;
			/* Past U+10FFFF it stays out of range, never wraps. */
			if (v <= 0x10FFFF)
				v = v * (hex ? 16 : 10) + d;
			digits++;
		}
		if (digits == 0 || i == n || p[i] != ';')
			return 0;
		*cp = v == 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) ?
		    0xFFFD : v;
		return i + 1;
	}
	for (k = 0; k < sizeof(named) / sizeof(named[0]); k++) {
		i = strlen(named[k].name);
		if (n > i + 1 && memcmp(p + 1, named[k].name, i) == 0 &&
		    p[i + 1] == ';') {
			*cp = named[k].cp;
			return i + 2;
		}
	}
	for (k = 0, name = latin1; *name; k++, name += i + (name[i] == ' ')) {
		i = strcspn(name, " ");
		if (n > i + 1 && memcmp(p + 1, name, i) == 0 &&
		    p[i + 1] == ';') {
			*cp = 0xA0 + (unsigned)k;
			return i + 2;
		}
	}
	return 0;
}

size_t
sh_html_text(const char *in, size_t len, char *out)
{
	return sh_html_scan(in, len, out, NULL, NULL);
}

size_t
sh_html_scan(const char *in, size_t len, char *out, sh_html_tagfn *fn,
    void *ctx)
{
	size_t i = 0, o = 0, n, end;
	unsigned cp;
	char c;

	while (i < len) {
		c = in[i];
		n = len - i;
		if (c == '&' && (end = reference(in + i, n, &cp)) != 0) {
			o += sh_utf8_encode(cp, out + o);
			i += end;
		} else if (c == '<' && starts(in + i, n, "<!--")) {
			end = find(in + i + 4, n - 4, "-->");
			i += 4 + end + (end < n - 4 ? 3 : 0);
			out[o++] = ' ';
		} else if (c == '<' && (starts(in + i, n, "<script") ||
		    starts(in + i, n, "<style"))) {
			end = find(in + i, n, in[i + 2] == 'c' ||
			    in[i + 2] == 'C' ? "</script" : "</style");
			i += end;
			end = i < len ? find(in + i, len - i, ">") : 0;
			i += end + (i + end < len);
			out[o++] = ' ';
		} else if (c == '<' && n > 1 && (in[i + 1] == '/' ||
		    in[i + 1] == '!' || in[i + 1] == '?' ||
		    ((in[i + 1] | 0x20) >= 'a' && (in[i + 1] | 0x20) <= 'z'))) {
			end = find(in + i, n, ">");
			if (fn != NULL && in[i + 1] != '!' && in[i + 1] != '?')
				fn(ctx, in + i, end + (end < n), o);
			i += end + (end < n);
			out[o++] = ' ';
		} else
			out[o++] = in[i++];
	}
	return o;
}

int
sh_html_sniff(const char *in, size_t len)
{
	static const char *const tag[] = { "!doctype html", "html", "head",
	    "script", "iframe", "h1", "div", "font", "table", "a", "style",
	    "title", "b", "body", "br", "p" };
	size_t i = 0, n, t;

	if (len >= 3 && memcmp(in, "\xef\xbb\xbf", 3) == 0)
		i = 3;
	while (i < len && strchr(" \t\n\f\r", in[i]) != NULL && in[i] != '\0')
		i++;
	if (i >= len || in[i] != '<')
		return 0;
	i++;
	if (len - i >= 3 && memcmp(in + i, "!--", 3) == 0)
		return 1;
	for (t = 0; t < sizeof(tag) / sizeof(tag[0]); t++) {
		n = strlen(tag[t]);
		if (len - i > n && strncasecmp(in + i, tag[t], n) == 0 &&
		    (in[i + n] == ' ' || in[i + n] == '>'))
			return 1;
	}
	return 0;
}

int
sh_html_name(const char *name)
{
	static const char *const ext[] = { ".html", ".htm", ".xhtml",
	    ".shtml" };
	size_t len = strlen(name), n, t;

	for (t = 0; t < sizeof(ext) / sizeof(ext[0]); t++) {
		n = strlen(ext[t]);
		if (len > n && strcasecmp(name + len - n, ext[t]) == 0)
			return 1;
	}
	return 0;
}

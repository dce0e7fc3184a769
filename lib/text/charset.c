#include <errno.h>
#include <iconv.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/errors.h"
#include "base/grow.h"
#include "text/charset.h"

#define NAME_MAX_LEN 64		/* longest charset name taken */
#define META_SCAN 1024		/* bytes of a page searched for <meta> */

struct sh_charset {
	iconv_t cd;		/* (iconv_t)-1: none open */
	char name[NAME_MAX_LEN + 1];	/* the charset cd converts from */
	char *buf;
	size_t cap;
	size_t done;		/* input bytes the last call converted */
};

struct sh_charset *
sh_charset_new(void)
{
	struct sh_charset *c;

	if ((c = calloc(1, sizeof(*c))) == NULL)
		return NULL;
	c->cd = (iconv_t)-1;
	return c;
}

void
sh_charset_free(struct sh_charset *c)
{
	if (c == NULL)
		return;
	if (c->cd != (iconv_t)-1)
		iconv_close(c->cd);
	free(c->buf);
	free(c);
}

int
sh_charset_known(const char *name)
{
	iconv_t cd;

	if ((cd = iconv_open("UTF-8", name)) == (iconv_t)-1)
		return 0;
	iconv_close(cd);
	return 1;
}

int
sh_charset_utf8(const char *name, size_t len)
{
	static const char *const same[] = { "utf-8", "utf8", "us-ascii",
	    "ascii", NULL };
	int i;

	for (i = 0; same[i] != NULL; i++)
		if (strlen(same[i]) == len && strncasecmp(name, same[i],
		    len) == 0)
			return 1;
	return 0;
}

/* Open the converter from name[0..len), unless it is open already. */
static int
open_cd(struct sh_charset *c, const char *name, size_t len)
{
	if (len == 0 || len > NAME_MAX_LEN)
		return SH_EINVAL;
	if (c->cd != (iconv_t)-1 && strlen(c->name) == len &&
	    strncasecmp(c->name, name, len) == 0)
		return 0;
	if (c->cd != (iconv_t)-1)
		iconv_close(c->cd);
	memcpy(c->name, name, len);
	c->name[len] = '\0';
	if ((c->cd = iconv_open("UTF-8", c->name)) == (iconv_t)-1)
		return errno == ENOMEM ? SH_ENOMEM : SH_EINVAL;
	return 0;
}

int
sh_charset_conv(struct sh_charset *c, const char *name, size_t namelen,
    const char *p, size_t len, const char **out, size_t *outlen)
{
	char *in = (char *)p, *o;
	size_t inleft = len, oleft, done;
	int e;

	if ((e = open_cd(c, name, namelen)) != 0)
		return e;
	iconv(c->cd, NULL, NULL, NULL, NULL);
	c->done = len;
	/* UTF-8 takes at most 4 bytes a character of any charset's; most
	 * take at most 3 for 2. */
	if (sh_grow(&c->buf, &c->cap, 2 * len + 16, 1) != 0)
		return SH_ENOMEM;
	o = c->buf;
	oleft = c->cap;
	e = 0;
	while (inleft > 0) {
		if (iconv(c->cd, &in, &inleft, &o, &oleft) != (size_t)-1)
			break;
		if (errno == E2BIG) {
			done = (size_t)(o - c->buf);
			if (sh_grow(&c->buf, &c->cap, c->cap + inleft * 4 + 16,
			    1) != 0)
				return SH_ENOMEM;
			o = c->buf + done;
			oleft = c->cap - done;
			continue;
		}
		/* EILSEQ, EINVAL: the rest as it is. */
		c->done = len - inleft;
		done = (size_t)(o - c->buf);
		if (sh_grow(&c->buf, &c->cap, done + inleft, 1) != 0)
			return SH_ENOMEM;
		memcpy(c->buf + done, in, inleft);
		o = c->buf + done + inleft;
		inleft = 0;
		e = SH_EUTF8;
	}
	if (e == 0) {
		/* Flush a stateful charset's shift sequence. */
		done = (size_t)(o - c->buf);
		if (sh_grow(&c->buf, &c->cap, done + 16, 1) != 0)
			return SH_ENOMEM;
		o = c->buf + done;
		oleft = c->cap - done;
		iconv(c->cd, NULL, NULL, &o, &oleft);
	}
	*out = c->buf;
	*outlen = (size_t)(o - c->buf);
	return e;
}

size_t
sh_charset_done(const struct sh_charset *c)
{
	return c->done;
}

/* The first place in p[0..len) of the ASCII word w, case ignored, or
 * NULL: for short spans. */
static const char *
find_ci(const char *p, size_t len, const char *w)
{
	size_t n = strlen(w), i;

	for (i = 0; i + n <= len; i++)
		if (strncasecmp(p + i, w, n) == 0)
			return p + i;
	return NULL;
}

/* The same for a word w that starts with a character of no case, as a
 * tag's '<', found by memchr: fast over a page. */
static const char *
find(const char *p, size_t len, const char *w)
{
	const char *end = p + len, *q;
	size_t n = strlen(w);

	for (; (q = memchr(p, w[0], (size_t)(end - p))) != NULL; p = q + 1)
		if ((size_t)(end - q) >= n && strncasecmp(q + 1, w + 1,
		    n - 1) == 0)
			return q;
	return NULL;
}

int
sh_charset_meta(const char *p, size_t len, const char **name,
    size_t *namelen)
{
	const char *m, *end, *cs, *q;

	if (len > META_SCAN)
		len = META_SCAN;
	for (; (m = find(p, len, "<meta")) != NULL; len -= (size_t)(end -
	    p), p = end) {
		len -= (size_t)(m - p);
		p = m;
		if ((end = memchr(p, '>', len)) == NULL)
			return 0;
		if ((cs = find_ci(p, (size_t)(end - p), "charset")) == NULL)
			continue;
		for (q = cs + 7; q < end && (*q == ' ' || *q == '\t'); q++)
			;
		if (q == end || *q++ != '=')
			continue;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '"' ||
		    *q == '\''))
			q++;
		for (cs = q; q < end && strchr("\"' \t;/>", *q) == NULL; q++)
			;
		if (q > cs) {
			*name = cs;
			*namelen = (size_t)(q - cs);
			return 1;
		}
	}
	return 0;
}

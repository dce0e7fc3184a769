#include <sys/stat.h>

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/grow.h"
#include "base/num.h"
#include "text/charset.h"
#include "text/detect.h"
#include "text/html.h"
#include "text/json.h"
#include "text/maintext.h"
#include "text/record.h"

static const char *const names[] = {
	"tab", "line", "file", "nul", "para", "jsonl", "warc"
};

const char *
sh_rec_modename(int mode)
{
	return mode >= 0 && mode < (int)(sizeof(names) / sizeof(names[0])) ?
	    names[mode] : "";
}

int
sh_rec_mode(const char *s)
{
	int i;

	for (i = 0; i < (int)(sizeof(names) / sizeof(names[0])); i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return SH_EINVAL;
}

int
sh_rec_skippable(int e)
{
	return e == SH_ETAB || e == SH_EJSON || e == SH_ENOID ||
	    e == SH_ENOTEXT || e == SH_EHTTP || e == SH_EIDTYPE ||
	    e == SH_ETEXTTYPE || e == SH_EWARCLEN;
}

void
sh_reader_init(struct sh_reader *r, FILE *fp, int mode, const char *name,
    int prefix)
{
	memset(r, 0, sizeof(*r));
	sh_lines_init(&r->in, fp, mode == SH_REC_NUL ? '\0' : '\n');
	r->mode = mode;
	r->name = name;
	r->prefix = prefix;
	r->shend = -1;
}

void
sh_reader_open(struct sh_reader *r, FILE *fp, const struct sh_recopt *o,
    const char *name, int prefix)
{
	sh_reader_init(r, fp, o->mode, name, prefix);
	r->idfield = o->idfield;
	r->textfield = o->textfield;
	r->types = o->types;
	r->html = o->html;
	r->mtypes = o->mtypes;
	r->anystatus = o->anystatus;
	r->charset = o->charset;
	r->maintext = o->maintext;
}

int
sh_reader_shard(struct sh_reader *r, const struct sh_shard *s)
{
	struct stat st;
	char magic[2];
	int e;

	if (r->mode == SH_REC_FILE)
		return SH_EINVAL;
	if (fstat(fileno(r->in.fp), &st) != 0)
		return SH_EIO;
	if (!S_ISREG(st.st_mode)) {
		errno = ESPIPE;
		return SH_EIO;
	}
	/* Compressed bytes cut anywhere are no records. */
	if (pread(fileno(r->in.fp), magic, 2, 0) == 2 &&
	    sh_lines_gzip(magic, 2))
		return SH_EGZIP;
	/*
	 * A record is ours when it starts in range.  A WARC record's block
	 * may hold any line, a paragraph's start depends on the line before
	 * it: both are found by reading from the start, records before the
	 * range read and dropped.  The others start after a delimiter.
	 */
	if (r->mode == SH_REC_WARC || r->mode == SH_REC_PARA) {
		sh_shard_bytes(s, (long long)st.st_size, &r->shstart,
		    &r->shend);
		return 0;
	}
	if ((e = sh_lines_share(&r->in, (long long)st.st_size, (int)s->i,
	    (int)s->n)) != 0)
		return e;
	return sh_lines_number(&r->in);
}

void
sh_reader_free(struct sh_reader *r)
{
	sh_lines_free(&r->in);
	free(r->idbuf);
	free(r->tbuf);
	free(r->ebuf);
	r->idbuf = r->tbuf = r->ebuf = NULL;
	sh_charset_free(r->cs);
	r->cs = NULL;
	sh_maintext_free(r->mt);
	r->mt = NULL;
}

/* The whole stream as one record. */
static int
slurp(struct sh_reader *r, struct sh_rec *rec)
{
	struct stat st;
	size_t len = 0, n, want = 65536;

	if (r->done)
		return 0;
	r->done = 1;
	/* A file's size is known: room for it and a byte, so that small
	 * files cost a small buffer; a stream grows by 64 KiB. */
	if (fstat(fileno(r->in.fp), &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size >= 0 && (unsigned long long)st.st_size < SIZE_MAX / 2)
		want = (size_t)st.st_size + 1;
	if (r->in.cap < want && sh_grow(&r->in.buf, &r->in.cap, want, 1) != 0)
		return SH_ENOMEM;
	for (;;) {
		n = fread(r->in.buf + len, 1, r->in.cap - len, r->in.fp);
		len += n;
		if (n == 0)
			break;
		if (len == r->in.cap && sh_grow(&r->in.buf, &r->in.cap,
		    len + 65536, 1) != 0)
			return SH_ENOMEM;
	}
	if (ferror(r->in.fp))
		return SH_EIO;
	if (sh_lines_gzip(r->in.buf, len))
		return SH_EGZIP;
	r->in.headlen = len < SH_LINES_HEAD ? len : SH_LINES_HEAD;
	memcpy(r->in.head, r->in.buf, r->in.headlen);
	if (memchr(r->in.head, '\n', r->in.headlen) != NULL)
		r->in.headlen = (size_t)((char *)memchr(r->in.head, '\n',
		    r->in.headlen) - r->in.head);
	r->in.hashead = 1;
	r->in.off = (long long)len;
	rec->off = 0;
	rec->id = r->name;
	rec->idlen = strlen(r->name);
	rec->text = r->in.buf;
	rec->len = len;
	rec->line = 1;
	return 1;
}

/* Room for n bytes in *buf. */
static int
reserve(char **buf, size_t *cap, size_t n)
{
	char *nb;

	if (*cap >= n)
		return 0;
	if ((nb = realloc(*buf, n)) == NULL)
		return SH_ENOMEM;
	*buf = nb;
	*cap = n;
	return 0;
}

/*
 * The n bytes of a WARC block into r->tbuf (and a byte more), *got of
 * them read: in steps, the buffer growing as they come, so that a
 * Content-Length past the end of the file costs no more memory than the
 * file holds.  Return 0 or SH_ENOMEM.
 */
static int
read_block(struct sh_reader *r, size_t n, size_t *got)
{
	size_t step, cap, k;

	*got = 0;
	do {
		step = n - *got < ((size_t)1 << 20) ? n - *got :
		    (size_t)1 << 20;
		cap = r->tcap > n / 2 ? n + 1 : 2 * r->tcap;
		if (cap < *got + step + 1)
			cap = *got + step + 1;
		if (reserve(&r->tbuf, &r->tcap, cap) != 0)
			return SH_ENOMEM;
		k = sh_lines_read(&r->in, r->tbuf + *got, step);
		*got += k;
	} while (k == step && *got < n);
	return 0;
}

/* The ID of a record found at line n: "n", or "NAME:n". */
static int
number_id(struct sh_reader *r, unsigned long long n, struct sh_rec *rec)
{
	size_t need = (r->prefix ? strlen(r->name) : 0) + 24;
	int len;

	if (reserve(&r->idbuf, &r->idcap, need) != 0)
		return SH_ENOMEM;
	if (r->prefix)
		len = snprintf(r->idbuf, need, "%s:%llu", r->name, n);
	else
		len = snprintf(r->idbuf, need, "%llu", n);
	rec->id = r->idbuf;
	rec->idlen = (size_t)len;
	return 0;
}

static int
blank(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != ' ' && p[i] != '\t')
			return 0;
	return 1;
}

/* The next paragraph. */
static int
paragraph(struct sh_reader *r, struct sh_rec *rec)
{
	const char *p;
	size_t len, tlen = 0;
	int ret;

again:
	while ((ret = sh_lines_next(&r->in, &p, &len)) > 0 && blank(p, len))
		;
	if (ret <= 0)
		return ret;
	rec->line = r->in.line;
	rec->off = r->in.lineoff;
	if (r->shend >= 0 && rec->off >= r->shend)
		return 0;
	if (rec->off < r->shstart) {
		/* Another shard's: its lines are read and dropped. */
		while ((ret = sh_lines_next(&r->in, &p, &len)) > 0 &&
		    !blank(p, len))
			;
		if (ret < 0)
			return ret;
		goto again;
	}
	do {
		if (reserve(&r->tbuf, &r->tcap, tlen + len + 1) != 0)
			return SH_ENOMEM;
		if (tlen > 0)
			r->tbuf[tlen++] = '\n';
		memcpy(r->tbuf + tlen, p, len);
		tlen += len;
	} while ((ret = sh_lines_next(&r->in, &p, &len)) > 0 && !blank(p, len));
	if (ret < 0)
		return ret;
	rec->text = r->tbuf;
	rec->len = tlen;
	return number_id(r, rec->line, rec) != 0 ? SH_ENOMEM : 1;
}

/* The next JSON Lines record. */
static int
json(struct sh_reader *r, struct sh_rec *rec)
{
	const char *paths[2];
	struct sh_jval v[2];
	const char *p;
	size_t len;
	int ret;

	if ((ret = sh_lines_next(&r->in, &p, &len)) <= 0)
		return ret;
	rec->line = r->in.line;
	rec->off = r->in.lineoff;
	paths[0] = r->idfield ? r->idfield : "id";
	paths[1] = r->textfield ? r->textfield : "text";
	/* A bad line is the record's text, for the caller's message. */
	rec->text = p;
	rec->len = len;
	if ((ret = sh_json_find(p, len, paths, 2, v)) != 0)
		return ret;
	if (v[0].type == SH_JSON_NUMBER) {
		rec->id = v[0].p;
		rec->idlen = v[0].len;
	} else if (v[0].type == SH_JSON_STRING) {
		if (sh_json_string(&v[0], &r->idbuf, &r->idcap,
		    &rec->idlen) != 0)
			return SH_ENOMEM;
		rec->id = r->idbuf;
	} else
		return v[0].type == SH_JSON_NONE ? SH_ENOID : SH_EIDTYPE;
	if (v[1].type != SH_JSON_STRING)
		return v[1].type == SH_JSON_NONE ? SH_ENOTEXT : SH_ETEXTTYPE;
	if (sh_json_string(&v[1], &r->tbuf, &r->tcap, &rec->len) != 0)
		return SH_ENOMEM;
	rec->text = r->tbuf;
	return 1;
}

/* Is the comma list list missing word w[0..n)? */
static int
unlisted(const char *list, const char *w, size_t n)
{
	const char *p, *end;

	for (p = list; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ",");
		if ((size_t)(end - p) == n && strncasecmp(p, w, n) == 0)
			return 0;
	}
	return 1;
}

int
sh_rec_header(const char *p, size_t len, const char *name, const char **v,
    size_t *vlen)
{
	size_t n = strlen(name);

	if (len <= n || p[n] != ':' || strncasecmp(p, name, n) != 0)
		return 0;
	for (p += n + 1, len -= n + 1; len > 0 && (*p == ' ' || *p == '\t');
	    p++, len--)
		;
	while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\t'))
		len--;
	*v = p;
	*vlen = len;
	return 1;
}

/* ASCII c in lower case. */
static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* Whether s[0..n) matches pattern p[0..m), '*' any run, case ignored. */
static int
glob(const char *p, size_t m, const char *s, size_t n)
{
	size_t i;

	if (m == 0)
		return n == 0;
	if (*p == '*') {
		for (i = 0; i <= n; i++)
			if (glob(p + 1, m - 1, s + i, n - i))
				return 1;
		return 0;
	}
	return n > 0 && lower(*p) == lower(*s) && glob(p + 1, m - 1, s + 1,
	    n - 1);
}

/* Whether media type t[0..n) is in the comma list of patterns. */
static int
kept_type(const char *list, const char *t, size_t n)
{
	const char *p, *end;

	for (p = list; *p; p = *end ? end + 1 : end) {
		end = p + strcspn(p, ",");
		if (glob(p, (size_t)(end - p), t, n))
			return 1;
	}
	return 0;
}

/*
 * The HTTP head p[0..len) of a WARC response: whether it is kept (its
 * status and media type, as the reader's options say, counting what is
 * not), and the charset and HTML-ness of its body.
 */
static int
http_head(struct sh_reader *r, const char *p, size_t len)
{
	const char *end = p + len, *nl, *v, *cs;
	size_t n = 0, vlen, tlen;
	int status = 0;

	r->wcslen = 0;
	r->whtml = -1;
	/* "HTTP/x.y NNN" and a space or the line's end: three digits. */
	if (len > 12 && memcmp(p, "HTTP/", 5) == 0 &&
	    (v = memchr(p, ' ', len)) != NULL && end - v > 3)
		for (n = 1; n <= 3 && v[n] >= '0' && v[n] <= '9'; n++)
			status = status * 10 + (v[n] - '0');
	if (status > 0 && (n != 4 || (end - v > 4 && v[4] != ' ' &&
	    v[4] != '\r' && v[4] != '\n')))
		status = 0;
	if (!r->anystatus && (status < 200 || status > 299)) {
		r->nstatus++;
		return 0;
	}
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		n = (size_t)(nl - p);
		if (n > 0 && p[n - 1] == '\r')
			n--;
		if (!sh_rec_header(p, n, "Content-Type", &v, &vlen))
			continue;
		for (tlen = 0; tlen < vlen && v[tlen] != ';' && v[tlen] != ' ';
		    tlen++)
			;
		if (!kept_type(r->mtypes ? r->mtypes : SH_REC_MTYPES, v,
		    tlen)) {
			r->ntype++;
			return 0;
		}
		r->whtml = glob("*html*", 6, v, tlen);
		for (cs = v + tlen; cs + 8 <= v + vlen; cs++)
			if (strncasecmp(cs, "charset=", 8) == 0)
				break;
		if (cs + 8 > v + vlen)
			break;
		for (cs += 8; cs < v + vlen && (*cs == '"' || *cs == '\'');
		    cs++)
			;
		r->wcs = cs;
		while (cs < v + vlen && strchr("\"'; \t", *cs) == NULL)
			cs++;
		r->wcslen = (size_t)(cs - r->wcs);
		break;
	}
	return 1;
}

/* The next WARC record of a wanted type. */
static int
warc(struct sh_reader *r, struct sh_rec *rec)
{
	const char *idname = r->idfield ? r->idfield : "WARC-Target-URI";
	const char *types = r->types ? r->types : "conversion,response";
	/* These two may be written <URI> (WARC/1.0): the ID is the URI. */
	int bracketed = strcasecmp(idname, "WARC-Target-URI") == 0 ||
	    strcasecmp(idname, "WARC-Record-ID") == 0;
	const char *p, *v;
	char type[32], num[24], *body;
	size_t len, vlen, tlen = 0, got, i, head;
	long long clen;
	int ret, hasid, hastype, response, nclen;

	for (;;) {
		while ((ret = sh_lines_next(&r->in, &p, &len)) > 0 && len == 0)
			;
		if (ret <= 0)
			break;
		rec->line = r->in.line;
		rec->off = r->in.lineoff;
		/* The next shard's record: not read. */
		if (r->shend >= 0 && rec->off >= r->shend) {
			ret = 0;
			break;
		}
		if (len < 5 || memcmp(p, "WARC/", 5) != 0) {
			ret = SH_EWARC;
			break;
		}
		if (len > 5 && p[len - 1] == '\r')
			len--;
		if (len != 8 || (memcmp(p + 5, "1.0", 3) != 0 &&
		    memcmp(p + 5, "1.1", 3) != 0)) {
			ret = SH_EWARCVER;
			break;
		}
		clen = -1;
		hasid = hastype = nclen = 0;
		while ((ret = sh_lines_next(&r->in, &p, &len)) > 0 && len > 0) {
			if (sh_rec_header(p, len, "Content-Length", &v,
			    &vlen)) {
				nclen++;
				clen = -2;
				if (vlen < sizeof(num) &&
				    memchr(v, '\0', vlen) == NULL) {
					memcpy(num, v, vlen);
					num[vlen] = '\0';
					if (sh_strtonum(num, 0, (long long)1 << 40,
					    &clen) != 0)
						clen = -2;
				}
			}
			if (sh_rec_header(p, len, idname, &v, &vlen)) {
				if (bracketed && vlen >= 2 && v[0] == '<' &&
				    v[vlen - 1] == '>') {
					v++;
					vlen -= 2;
				}
				if (reserve(&r->idbuf, &r->idcap, vlen + 1) != 0)
					return SH_ENOMEM;
				memcpy(r->idbuf, v, vlen);
				rec->idlen = vlen;
				hasid = 1;
			}
			/* A type too long to copy is in no list. */
			if (sh_rec_header(p, len, "WARC-Type", &v, &vlen)) {
				tlen = vlen < sizeof(type) ? vlen : 0;
				memcpy(type, v, tlen);
				hastype = 1;
			}
		}
		if (ret < 0)
			break;
		if (ret == 0 || clen < 0) {
			ret = SH_EWARC;
			break;
		}
		if ((unsigned long long)clen >= SIZE_MAX ||
		    read_block(r, (size_t)clen, &got) != 0) {
			ret = SH_ENOMEM;
			break;
		}
		r->in.off += (long long)got;
		for (i = 0; i < got; i++)
			r->in.line += r->tbuf[i] == '\n';
		if (got != (size_t)clen) {
			ret = ferror(r->in.fp) ? SH_EIO : SH_EWARC;
			break;
		}
		/* Another shard's record, framed but not counted. */
		if (rec->off < r->shstart)
			continue;
		/* Two lengths, of any type of record: which frames it is
		 * not known.  Skipped by the last, as the records written
		 * again are cut (text/recwrite.h). */
		if (nclen > 1) {
			rec->id = r->idbuf;
			rec->idlen = hasid ? rec->idlen : 0;
			rec->text = r->tbuf;
			rec->len = 0;
			ret = SH_EWARCLEN;
			break;
		}
		if (!hastype || unlisted(types, type, tlen))
			continue;
		ret = hasid ? 1 : SH_ENOID;
		rec->id = r->idbuf;
		body = r->tbuf;
		len = (size_t)clen;
		response = tlen == 8 && strncasecmp(type, "response", 8) == 0;
		r->wcslen = 0;
		r->whtml = -1;
		/* A response block is an HTTP message: its head tells whether
		 * the body is wanted, and in which charset; the body is the
		 * text. */
		for (i = 0, head = 0; response && i < len; i++)
			if (body[i] == '\n' && ((i + 1 < len && body[i + 1] ==
			    '\n') || (i + 2 < len && body[i + 1] == '\r' &&
			    body[i + 2] == '\n'))) {
				head = i + (body[i + 1] == '\n' ? 2 : 3);
				break;
			}
		if (response && i == len) {
			/* Its head would be taken for text. */
			rec->text = body;
			rec->len = 0;
			ret = SH_EHTTP;
			break;
		}
		if (response && !http_head(r, body, i))
			continue;
		rec->text = body + head;
		rec->len = len - head;
		break;
	}
	return ret;
}

/* The escape of byte c in an ID, into out (2 or 4 bytes; its length),
 * or 0 when c stands as it is: a TAB, LF, CR or backslash is \t, \n, \r
 * or \\ (but with tab, where the ID is written in this form already, a
 * backslash stays), another control byte (0 to 31, 127) \xHH. */
static size_t
escape_byte(unsigned char c, int tab, char *out)
{
	static const char from[] = "\t\n\r\\", to[] = "tnr\\", hex[] =
	    "0123456789abcdef";
	const char *f;

	if (c != '\0' && (f = strchr(from, c)) != NULL && !(tab &&
	    c == '\\')) {
		out[0] = '\\';
		out[1] = to[f - from];
		return 2;
	}
	if (c >= 32 && c != 127)
		return 0;
	out[0] = '\\';
	out[1] = 'x';
	out[2] = hex[c >> 4];
	out[3] = hex[c & 15];
	return 4;
}

size_t
sh_rec_unescape(const char *id, size_t len, char *out)
{
	static const char from[] = "tnr\\", to[] = "\t\n\r\\";
	const char *f;
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		if (id[i] != '\\' || i + 1 == len) {
			out[n++] = id[i];
			continue;
		}
		if (id[i + 1] != '\0' && (f = strchr(from, id[i + 1])) != NULL) {
			out[n++] = to[f - from];
			i++;
		} else if (id[i + 1] == 'x' && i + 3 < len &&
		    sh_hexval[(unsigned char)id[i + 2]] < 16 &&
		    sh_hexval[(unsigned char)id[i + 3]] < 16) {
			out[n++] = (char)(sh_hexval[(unsigned char)id[i + 2]] <<
			    4 | sh_hexval[(unsigned char)id[i + 3]]);
			i += 3;
		} else
			out[n++] = id[i];
	}
	return n;
}

/*
 * The ID of rec in its escaped form, in r->ebuf when it differs
 * (escape_byte), so that an ID never breaks a line or a field of what the
 * tools write, nor writes a control byte to a terminal.
 */
static int
escape_id(struct sh_reader *r, struct sh_rec *rec)
{
	int tab = r->mode == SH_REC_TAB;
	size_t i, n, k, extra = 0;
	char e[4];

	for (i = 0; i < rec->idlen; i++)
		if ((k = escape_byte((unsigned char)rec->id[i], tab, e)) > 0)
			extra += k - 1;
	if (extra == 0)
		return 0;
	if (reserve(&r->ebuf, &r->ecap, rec->idlen + extra) != 0)
		return SH_ENOMEM;
	for (i = n = 0; i < rec->idlen; i++)
		if ((k = escape_byte((unsigned char)rec->id[i], tab,
		    r->ebuf + n)) > 0)
			n += k;
		else
			r->ebuf[n++] = rec->id[i];
	rec->id = r->ebuf;
	rec->idlen = n;
	return 0;
}

/*
 * The text of rec made UTF-8 from the charset it declares (a WARC
 * response's Content-Type, an HTML page's <meta>), or else the reader's
 * charset, or else the one its bytes show (detect.h).  Return 0 or
 * SH_ENOMEM.
 */
static int
decode(struct sh_reader *r, struct sh_rec *rec, int html)
{
	const char *cs = NULL, *out;
	size_t n = 0, outlen;
	int e;

	rec->cs = NULL;
	rec->csdetected = 0;
	if (r->mode == SH_REC_WARC && r->wcslen > 0) {
		cs = r->wcs;
		n = r->wcslen;
	} else if (html && sh_charset_meta(rec->text, rec->len, &cs, &n))
		;
	else if (r->charset != NULL) {
		cs = r->charset;
		n = strlen(cs);
	}
	if (cs != NULL && sh_charset_utf8(cs, n))
		return 0;
	if (r->cs == NULL && (r->cs = sh_charset_new()) == NULL)
		return SH_ENOMEM;
	/* Nothing declared: UTF-8, or else the charset its bytes show. */
	if (cs == NULL) {
		if ((cs = sh_charset_detect(r->cs, rec->text, rec->len,
		    &e)) == NULL)
			return e;
		n = strlen(cs);
		rec->csdetected = 1;
	}
	e = sh_charset_conv(r->cs, cs, n, rec->text, rec->len, &out, &outlen);
	if (e == SH_ENOMEM)
		return e;
	if (e == SH_EINVAL) {
		r->nbadcs++;
		return 0;
	}
	rec->text = out;
	rec->len = outlen;
	if (!sh_charset_utf8(cs, n)) {
		rec->cs = cs;
		rec->cslen = n;
	} else
		rec->csdetected = 0;
	return 0;
}

static int
next(struct sh_reader *r, struct sh_rec *rec)
{
	const char *p, *tab;
	size_t len;
	int ret;

	switch (r->mode) {
	case SH_REC_FILE:
		return slurp(r, rec);
	case SH_REC_PARA:
		return paragraph(r, rec);
	case SH_REC_JSON:
		return json(r, rec);
	case SH_REC_WARC:
		return warc(r, rec);
	}
	if ((ret = sh_lines_next(&r->in, &p, &len)) <= 0)
		return ret;
	rec->line = r->in.line;
	rec->off = r->in.lineoff;
	if (r->mode == SH_REC_LINE) {
		if (number_id(r, r->in.line, rec) != 0)
			return SH_ENOMEM;
		rec->text = p;
		rec->len = len;
		return 1;
	}
	if ((tab = memchr(p, '\t', len)) == NULL) {
		rec->text = p;
		rec->len = len;
		return SH_ETAB;
	}
	rec->id = p;
	rec->idlen = (size_t)(tab - p);
	rec->text = tab + 1;
	rec->len = len - rec->idlen - 1;
	return 1;
}

/*
 * Whether the body p[0..len) of a whole file or a WARC response is not
 * text: its first 8 KiB hold a NUL byte, start with the magic number of
 * a binary format, or are more than a tenth control bytes (other than
 * TAB, LF, VT, FF, CR and ESC).
 */
static int
binary(const char *p, size_t len)
{
	static const struct {
		const char *m;
		size_t n;
	} magic[] = {
		{ "\x7f" "ELF", 4 }, { "%PDF-", 5 }, { "PK\x03\x04", 4 },
		{ "\x1f\x8b", 2 }, { "\x89PNG\r\n\x1a\n", 8 },
		{ "\xff\xd8\xff", 3 }, { "GIF87a", 6 }, { "GIF89a", 6 },
		{ "BZh", 3 }, { "\xfd" "7zXZ", 5 }, { "7z\xbc\xaf\x27\x1c", 6 },
		{ "\x28\xb5\x2f\xfd", 4 }, { "OggS", 4 },
		{ "\xca\xfe\xba\xbe", 4 },
	};
	size_t i, n = len < 8192 ? len : 8192, ctl = 0;
	unsigned char c;

	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if (len >= magic[i].n && memcmp(p, magic[i].m, magic[i].n) == 0)
			return 1;
	for (i = 0; i < n; i++) {
		if ((c = (unsigned char)p[i]) == '\0')
			return 1;
		ctl += (c < 32 && strchr("\t\n\v\f\r\033", c) == NULL) ||
		    c == 127;
	}
	return ctl * 10 > n;
}

/* Whether the text of rec is HTML, as the reader's html option says. */
static int
is_html(const struct sh_reader *r, const struct sh_rec *rec)
{
	if (r->html != SH_HTML_AUTO)
		return r->html == SH_HTML_ALWAYS;
	if (r->mode == SH_REC_WARC && r->whtml >= 0)
		return r->whtml;
	if (r->mode == SH_REC_FILE && sh_html_name(r->name))
		return 1;
	return sh_html_sniff(rec->text, rec->len);
}

/* The HTML text of rec reduced in place: to text, or to its main
 * content with the maintext option.  Return 0 or SH_ENOMEM. */
static int
reduce(struct sh_reader *r, struct sh_rec *rec)
{
	if (!r->maintext) {
		rec->len = sh_html_text(rec->text, rec->len, (char *)rec->text);
		return 0;
	}
	if (r->mt == NULL && (r->mt = sh_maintext_new()) == NULL)
		return SH_ENOMEM;
	return sh_maintext(r->mt, rec->text, rec->len, (char *)rec->text,
	    &rec->len);
}

int
sh_reader_next(struct sh_reader *r, struct sh_rec *rec)
{
	int ret, html;

	/* Binary bodies are no documents: skipped, and counted. */
	while ((ret = next(r, rec)) == 1 && (r->mode == SH_REC_FILE ||
	    r->mode == SH_REC_WARC) && binary(rec->text, rec->len))
		r->nbinary++;
	if (ret != 1)
		return ret;
	html = is_html(r, rec);
	if (escape_id(r, rec) != 0 ||
	    decode(r, rec, html) != 0)
		return SH_ENOMEM;
	/* A paragraph's size takes in the blank line that ended it. */
	rec->size = r->in.off - rec->off;
	/* The text always lies in one of the reader's own buffers. */
	if ((rec->html = html) != 0 && reduce(r, rec) != 0)
		return SH_ENOMEM;
	return ret;
}

int
sh_reader_seek(struct sh_reader *r, long long off, long long size,
    unsigned long long line)
{
	if (sh_lines_seek(&r->in, off) != 0)
		return SH_EIO;
	r->in.end = off + size;
	r->in.line = line > 0 ? line - 1 : 0;
	r->done = 0;
	return 0;
}

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/num.h"
#include "text/json.h"
#include "text/record.h"
#include "text/recwrite.h"

#define CHUNK ((size_t)1 << 16)
/* The IDs of a record kept (its own, then those it is concurrent to),
 * and of a document and the records with it. */
#define RECIDS 8
#define UNITIDS 32

/* A WARC record read whole: its bytes, where it starts in the stream,
 * where its block ends in p, and the hashes of its IDs. */
struct wrec {
	char *p;
	size_t len, cap, blockend;
	size_t hdrend;		/* where the blank line after the header is */
	long long off;
	uint64_t id[RECIDS];
	size_t nid;
};

/* A note: the ID of the copy that stays, escaped (record.h), and
 * whether the record is kept (0) or removed (1), or -1: not told. */
struct note {
	char *id;
	size_t len, cap;
	int fate;
	int on;
};

struct sh_recwrite {
	int mode, delim;
	int hold;		/* documents read whole, for sh_recwrite_last */
	struct note next;	/* the next document's note */
	struct note unote;	/* WARC: that of the last document's records */
	char *nbuf;		/* a note as written */
	size_t nlen, ncap;
	char *ubuf;		/* an ID unescaped */
	size_t ucap;
	FILE *out[2];
	const char *need[2];	/* the end to write there first */
	size_t needlen[2];
	FILE *in;
	char *buf;		/* read ahead: buf[pos, len) */
	size_t bpos, blen, bcap;
	int eof;
	long long pos;		/* bytes of the stream consumed */
	int last;		/* the last byte consumed; -1: none */
	int lastout;		/* where it went; -1: none */
	int blank, prevblank;	/* para: the line read so far is blank, and
				 * the one before */
	struct wrec cur, held;
	int hasheld;
	uint64_t unit[UNITIDS];	/* the IDs of the last document's records */
	size_t nunit;
	int unitout;		/* where they went; -1: no document yet */
	int warcend;		/* the record put last ends in a blank line */
};

int
sh_recwrite_new(struct sh_recwrite **w, int mode, FILE *const out[2])
{
	if (mode == SH_REC_FILE)
		return SH_EINVAL;
	if ((*w = calloc(1, sizeof(**w))) == NULL)
		return SH_ENOMEM;
	(*w)->mode = mode;
	(*w)->delim = mode == SH_REC_NUL ? '\0' : '\n';
	(*w)->out[0] = out[0];
	(*w)->out[1] = out[1];
	(*w)->need[0] = (*w)->need[1] = "";
	return 0;
}

void
sh_recwrite_start(struct sh_recwrite *w, FILE *in)
{
	w->in = in;
	w->bpos = w->blen = 0;
	w->eof = 0;
	w->pos = 0;
	w->last = w->lastout = -1;
	w->blank = 1;
	w->prevblank = 1;
	w->hasheld = 0;
	w->nunit = 0;
	w->unitout = -1;
	w->next.on = w->unote.on = 0;
}

void
sh_recwrite_hold(struct sh_recwrite *w)
{
	w->hold = 1;
}

int
sh_recwrite_note(struct sh_recwrite *w, const char *id, size_t len,
    int fate)
{
	if (sh_grow(&w->next.id, &w->next.cap, len + 1, 1) != 0)
		return SH_ENOMEM;
	memcpy(w->next.id, id, len);
	w->next.len = len;
	w->next.fate = fate;
	w->next.on = 1;
	return 0;
}

void
sh_recwrite_last(const struct sh_recwrite *w, const char **p, size_t *len)
{
	*p = w->cur.p != NULL ? w->cur.p : "";
	*len = w->mode == SH_REC_WARC ? w->cur.blockend : w->cur.len;
}

void
sh_recwrite_free(struct sh_recwrite *w)
{
	if (w == NULL)
		return;
	free(w->buf);
	free(w->cur.p);
	free(w->held.p);
	free(w->next.id);
	free(w->unote.id);
	free(w->nbuf);
	free(w->ubuf);
	free(w);
}

/* At least n bytes read ahead, or the stream's end. */
static int
fill(struct sh_recwrite *w, size_t n)
{
	size_t got;

	if (w->blen - w->bpos >= n || w->eof)
		return 0;
	if (w->bpos > 0) {
		memmove(w->buf, w->buf + w->bpos, w->blen - w->bpos);
		w->blen -= w->bpos;
		w->bpos = 0;
	}
	if (sh_grow(&w->buf, &w->bcap, n > CHUNK ? n : CHUNK, 1) != 0)
		return SH_ENOMEM;
	while (w->blen < n && !w->eof) {
		got = fread(w->buf + w->blen, 1, w->bcap - w->blen, w->in);
		w->blen += got;
		if (got == 0) {
			if (ferror(w->in))
				return SH_EIO;
			w->eof = 1;
		}
	}
	return 0;
}

/* Write p[0..n) to output o, the end it lacks first. */
static int
emit(struct sh_recwrite *w, int o, const char *p, size_t n)
{
	FILE *f = w->out[o];

	if (n == 0)
		return 0;
	w->lastout = o;
	if (f == NULL)
		return 0;
	if (w->needlen[o] > 0 && fwrite(w->need[o], 1, w->needlen[o], f) !=
	    w->needlen[o])
		return SH_EIO;
	w->needlen[o] = 0;
	return fwrite(p, 1, n, f) == n ? 0 : SH_EIO;
}

/* Append p[0..n) to the note as written. */
static int
nadd(struct sh_recwrite *w, const char *p, size_t n)
{
	if (sh_grow(&w->nbuf, &w->ncap, w->nlen + n + 1, 1) != 0)
		return SH_ENOMEM;
	memcpy(w->nbuf + w->nlen, p, n);
	w->nlen += n;
	return 0;
}

/* The ID of nt, unescaped, as a JSON string. */
static int
json_id(struct sh_recwrite *w, const struct note *nt)
{
	size_t n, q;
	int r;

	if (sh_grow(&w->ubuf, &w->ucap, nt->len + SH_JSON_ESCAPED(nt->len) +
	    1, 1) != 0)
		return SH_ENOMEM;
	n = sh_rec_unescape(nt->id, nt->len, w->ubuf);
	q = sh_json_escape(w->ubuf, n, w->ubuf + n);
	if ((r = nadd(w, "\"", 1)) != 0 || (r = nadd(w, w->ubuf + n, q)) != 0)
		return r;
	return nadd(w, "\"", 1);
}

/* Note nt as written into w->nbuf: WARC header lines ending in eol, a
 * JSON member (after a comma, with comma), or TAB columns. */
static int
format(struct sh_recwrite *w, const struct note *nt, const char *eol,
    int comma)
{
	const char *fate = nt->fate == 0 ? SH_RECWRITE_KEPT :
	    SH_RECWRITE_REMOVED;
	int r;

	w->nlen = 0;
	if (w->mode == SH_REC_WARC) {
		if ((r = nadd(w, SH_RECWRITE_WARC_COPY ": ",
		    strlen(SH_RECWRITE_WARC_COPY) + 2)) != 0 ||
		    (r = nadd(w, nt->id, nt->len)) != 0 ||
		    (r = nadd(w, eol, strlen(eol))) != 0 || nt->fate < 0)
			return r;
		if ((r = nadd(w, SH_RECWRITE_WARC_FATE ": ",
		    strlen(SH_RECWRITE_WARC_FATE) + 2)) != 0 ||
		    (r = nadd(w, fate, strlen(fate))) != 0)
			return r;
		return nadd(w, eol, strlen(eol));
	}
	if (w->mode == SH_REC_JSON) {
		if ((comma && (r = nadd(w, ",", 1)) != 0) ||
		    (r = nadd(w, "\"" SH_RECWRITE_JSON_COPY "\":",
		    strlen(SH_RECWRITE_JSON_COPY) + 3)) != 0 ||
		    (r = json_id(w, nt)) != 0 || nt->fate < 0)
			return r;
		if ((r = nadd(w, ",\"" SH_RECWRITE_JSON_FATE "\":\"",
		    strlen(SH_RECWRITE_JSON_FATE) + 5)) != 0 ||
		    (r = nadd(w, fate, strlen(fate))) != 0)
			return r;
		return nadd(w, "\"", 1);
	}
	if ((r = nadd(w, "\t", 1)) != 0 || (r = nadd(w, nt->id,
	    nt->len)) != 0 || nt->fate < 0)
		return r;
	if ((r = nadd(w, "\t", 1)) != 0)
		return r;
	return nadd(w, fate, strlen(fate));
}

static int
blank(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Where a note goes in record p[0..n) (WARC: whose header ends at
 * hdrend), into *at: before the end of the last line of text (TAB
 * columns), before the closing brace (JSON, after a comma unless the
 * object is empty), before the blank line that ends the header (WARC,
 * its lines ending as that one does).  Return 0 or SH_ECHANGED (no
 * object). */
static int
note_at(const struct sh_recwrite *w, const char *p, size_t n,
    size_t hdrend, size_t *at, const char **eol, int *comma)
{
	size_t e = n, j;

	*eol = "";
	*comma = 0;
	switch (w->mode) {
	case SH_REC_WARC:
		*at = hdrend;
		*eol = hdrend < n && p[hdrend] == '\r' ? "\r\n" : "\n";
		return 0;
	case SH_REC_NUL:
		*at = n > 0 && p[n - 1] == '\0' ? n - 1 : n;
		return 0;
	case SH_REC_PARA:
		for (j = n; j > 0 && blank((unsigned char)p[j - 1]); j--)
			;
		for (e = j; e < n && p[e] != '\n'; e++)
			;
		if (e > j && p[e - 1] == '\r')
			e--;
		*at = e;
		return 0;
	case SH_REC_JSON:
		while (e > 0 && blank((unsigned char)p[e - 1]))
			e--;
		if (e == 0 || p[e - 1] != '}')
			return SH_ECHANGED;
		for (j = e - 1; j > 0 && blank((unsigned char)p[j - 1]); j--)
			;
		*comma = !(j > 0 && p[j - 1] == '{');
		*at = e - 1;
		return 0;
	default:
		if (e > 0 && p[e - 1] == '\n' && --e > 0 && p[e - 1] == '\r')
			e--;
		*at = e;
		return 0;
	}
}

/* Write record p[0..n) (WARC: its header ending at hdrend) to output o,
 * with note nt when it has one. */
static int
noted(struct sh_recwrite *w, int o, const char *p, size_t n, size_t hdrend,
    const struct note *nt)
{
	const char *eol;
	size_t at;
	int r, comma;

	if (nt == NULL || !nt->on || w->out[o] == NULL)
		return emit(w, o, p, n);
	if ((r = note_at(w, p, n, hdrend, &at, &eol, &comma)) != 0 ||
	    (r = format(w, nt, eol, comma)) != 0 ||
	    (r = emit(w, o, p, at)) != 0 ||
	    (r = emit(w, o, w->nbuf, w->nlen)) != 0)
		return r;
	return emit(w, o, p + at, n - at);
}

/* The bytes p[0..n) consumed: what the stream's end will lack. */
static void
track(struct sh_recwrite *w, const char *p, size_t n)
{
	size_t i;

	if (n == 0)
		return;
	w->pos += (long long)n;
	w->last = (unsigned char)p[n - 1];
	for (i = 0; w->mode == SH_REC_PARA && i < n; i++)
		if (p[i] == '\n') {
			w->prevblank = w->blank;
			w->blank = 1;
		} else if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
			w->blank = 0;
}

/* Copy the next n bytes of the stream to output o. */
static int
pass(struct sh_recwrite *w, long long n, int o)
{
	size_t k;
	int r;

	while (n > 0) {
		if (w->bpos == w->blen && (r = fill(w, 1)) != 0)
			return r;
		if (w->bpos == w->blen)
			return SH_ECHANGED;
		k = w->blen - w->bpos;
		if ((long long)k > n)
			k = (size_t)n;
		if ((r = emit(w, o, w->buf + w->bpos, k)) != 0)
			return r;
		track(w, w->buf + w->bpos, k);
		w->bpos += k;
		n -= (long long)k;
	}
	return 0;
}

/* Append the next n bytes of the stream to rec; fewer at its end. */
static int
take(struct sh_recwrite *w, struct wrec *rec, size_t n)
{
	size_t k;
	int r;

	if (sh_grow(&rec->p, &rec->cap, rec->len + n + 1, 1) != 0)
		return SH_ENOMEM;
	while (n > 0) {
		if (w->bpos == w->blen && (r = fill(w, 1)) != 0)
			return r;
		if (w->bpos == w->blen)
			break;
		k = w->blen - w->bpos < n ? w->blen - w->bpos : n;
		memcpy(rec->p + rec->len, w->buf + w->bpos, k);
		track(w, w->buf + w->bpos, k);
		rec->len += k;
		w->bpos += k;
		n -= k;
	}
	return 0;
}

/* Append the next line, '\n' and all, to rec; its length (0 at the
 * end) into *n. */
static int
take_line(struct sh_recwrite *w, struct wrec *rec, size_t *n)
{
	const char *nl;
	size_t have;
	int r;

	for (;;) {
		have = w->blen - w->bpos;
		if ((nl = memchr(w->buf + w->bpos, '\n', have)) != NULL) {
			*n = (size_t)(nl - (w->buf + w->bpos)) + 1;
			break;
		}
		if (w->eof) {
			*n = have;
			break;
		}
		if ((r = fill(w, have + CHUNK)) != 0)
			return r;
	}
	return take(w, rec, *n);
}

/* The length of the blank line ("\n" or "\r\n") next in the stream, or
 * 0 when the next is none. */
static int
next_blank(struct sh_recwrite *w, size_t *n)
{
	int r;

	*n = 0;
	if ((r = fill(w, 2)) != 0)
		return r;
	if (w->blen - w->bpos >= 1 && w->buf[w->bpos] == '\n')
		*n = 1;
	else if (w->blen - w->bpos >= 2 && w->buf[w->bpos] == '\r' &&
	    w->buf[w->bpos + 1] == '\n')
		*n = 2;
	return 0;
}

/* The value of header line p[0..len) ('\r\n' dropped) named name, its
 * blanks and angle brackets trimmed: 1, or 0 for another header. */
static int
value(const char *p, size_t len, const char *name, const char **v,
    size_t *vlen)
{
	if (!sh_rec_header(p, len, name, v, vlen))
		return 0;
	if (*vlen >= 2 && (*v)[0] == '<' && (*v)[*vlen - 1] == '>') {
		(*v)++;
		*vlen -= 2;
	}
	return 1;
}

/* The next WARC record into w->cur: 1, or 0 at the stream's end. */
static int
read_warc(struct sh_recwrite *w)
{
	struct wrec *rec = &w->cur;
	const char *v, *line;
	char num[24];
	long long clen = -1;
	size_t n, len, vlen;
	int r;

	rec->len = rec->nid = 0;
	/* Blank lines before the first record: no record's. */
	while ((r = next_blank(w, &n)) == 0 && n > 0)
		if ((r = pass(w, (long long)n, 0)) != 0)
			return r;
	if (r != 0)
		return r;
	rec->off = w->pos;
	if ((r = take_line(w, rec, &n)) != 0 || n == 0)
		return r != 0 ? r : 0;
	if (n < 5 || memcmp(rec->p, "WARC/", 5) != 0)
		return SH_EWARC;
	for (;;) {
		if ((r = take_line(w, rec, &n)) != 0)
			return r;
		line = rec->p + rec->len - n;
		len = n;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if (len > 0 && line[len - 1] == '\r')
			len--;
		if (n == 0 || line[n - 1] != '\n')
			return SH_EWARC;
		if (len == 0) {
			rec->hdrend = rec->len - n;
			break;
		}
		if (value(line, len, "Content-Length", &v, &vlen)) {
			if (vlen >= sizeof(num) || memchr(v, '\0', vlen))
				return SH_EWARC;
			memcpy(num, v, vlen);
			num[vlen] = '\0';
			if (sh_strtonum(num, 0, (long long)1 << 40, &clen) != 0)
				return SH_EWARC;
		}
		if (rec->nid < RECIDS && (value(line, len, "WARC-Record-ID",
		    &v, &vlen) || value(line, len, "WARC-Concurrent-To", &v,
		    &vlen)))
			rec->id[rec->nid++] = sh_hash64(v, vlen, 0);
	}
	if (clen < 0)
		return SH_EWARC;
	n = rec->len;
	if ((r = take(w, rec, (size_t)clen)) != 0)
		return r;
	if (rec->len - n != (size_t)clen)
		return SH_EWARC;
	rec->blockend = rec->len;
	while ((r = next_blank(w, &n)) == 0 && n > 0)
		if ((r = take(w, rec, n)) != 0)
			return r;
	return r != 0 ? r : 1;
}

/* Whether one of rec's IDs is one of ids[0..n). */
static int
linked(const struct wrec *rec, const uint64_t *ids, size_t n)
{
	size_t i, j;

	for (i = 0; i < rec->nid; i++)
		for (j = 0; j < n; j++)
			if (rec->id[i] == ids[j])
				return 1;
	return 0;
}

static void
join_unit(struct sh_recwrite *w, const struct wrec *rec)
{
	size_t i;

	for (i = 0; i < rec->nid && w->nunit < UNITIDS; i++)
		w->unit[w->nunit++] = rec->id[i];
}

static int
put(struct sh_recwrite *w, int o, const struct wrec *rec,
    const struct note *nt)
{
	w->warcend = memchr(rec->p + rec->blockend, '\n', rec->len -
	    rec->blockend) != NULL;
	return noted(w, o, rec->p, rec->len, rec->hdrend, nt);
}

/* w->cur, no document: with the document before it, or held. */
static int
not_doc(struct sh_recwrite *w)
{
	struct wrec t;
	int r;

	if (w->unitout >= 0 && linked(&w->cur, w->unit, w->nunit)) {
		join_unit(w, &w->cur);
		/* A record held came before it, in the same output. */
		if (w->unitout == 0 && w->hasheld) {
			if ((r = put(w, 0, &w->held, NULL)) != 0)
				return r;
			w->hasheld = 0;
		}
		return put(w, w->unitout, &w->cur, &w->unote);
	}
	if (w->hasheld && (r = put(w, 0, &w->held, NULL)) != 0)
		return r;
	t = w->held;
	w->held = w->cur;
	w->cur = t;
	w->hasheld = 1;
	return 0;
}

/* w->cur, a document, to o; the record held with it, when linked; both
 * with the note given for it, as the records linked after it. */
static int
doc(struct sh_recwrite *w, int o)
{
	struct note t;
	int r, with = 0;

	if (w->hasheld) {
		with = linked(&w->held, w->cur.id, w->cur.nid);
		if ((r = put(w, with ? o : 0, &w->held, with ? &w->next :
		    NULL)) != 0)
			return r;
		w->hasheld = 0;
	}
	w->nunit = 0;
	w->unitout = o;
	join_unit(w, &w->cur);
	if (with)
		join_unit(w, &w->held);
	r = put(w, o, &w->cur, &w->next);
	t = w->unote;
	w->unote = w->next;
	w->next = t;
	w->next.on = 0;
	return r;
}

static int
warc_doc(struct sh_recwrite *w, long long off, long long size, int o)
{
	int r;

	for (;;) {
		if ((r = read_warc(w)) != 1)
			return r == 0 ? SH_ECHANGED : r;
		if (w->cur.off > off)
			return SH_ECHANGED;
		if (w->cur.off == off)
			break;
		if ((r = not_doc(w)) != 0)
			return r;
	}
	if (w->cur.off + (long long)w->cur.blockend != off + size)
		return SH_ECHANGED;
	return doc(w, o);
}

int
sh_recwrite_doc(struct sh_recwrite *w, long long off, long long size,
    int o)
{
	int r;

	if (w->mode == SH_REC_WARC)
		return warc_doc(w, off, size, o);
	if (off < w->pos || size <= 0)
		return SH_ECHANGED;
	if ((r = pass(w, off - w->pos, 0)) != 0)
		return r;
	/* A record starts after a delimiter, and ends with one or with
	 * the stream. */
	if (w->pos > 0 && w->last != w->delim)
		return SH_ECHANGED;
	if (w->hold || w->next.on) {
		/* Read whole: to be given, or noted. */
		w->cur.len = 0;
		if ((unsigned long long)size >= SIZE_MAX)
			return SH_ENOMEM;
		if ((r = take(w, &w->cur, (size_t)size)) != 0)
			return r;
		if (w->cur.len != (size_t)size)
			return SH_ECHANGED;
		r = noted(w, o, w->cur.p, w->cur.len, 0, &w->next);
		w->next.on = 0;
		if (r != 0)
			return r;
	} else if ((r = pass(w, size, o)) != 0)
		return r;
	if (w->last != w->delim && ((r = fill(w, 1)) != 0 ||
	    w->blen > w->bpos))
		return r != 0 ? r : SH_ECHANGED;
	return 0;
}

/* What the stream's end lacks, to write before more to its output. */
static void
end_lacks(struct sh_recwrite *w)
{
	static const char nul[1] = { '\0' };
	const char *s = "";

	if (w->lastout < 0)
		return;
	if (w->mode == SH_REC_WARC) {
		if (!w->warcend)
			s = "\r\n\r\n";
	} else if (w->mode == SH_REC_PARA) {
		if (w->last != '\n')
			s = "\n\n";
		else if (!w->prevblank)
			s = "\n";
	} else if (w->last != w->delim)
		s = w->delim == '\0' ? nul : "\n";
	w->need[w->lastout] = s;
	w->needlen[w->lastout] = s == nul ? 1 : strlen(s);
}

int
sh_recwrite_end(struct sh_recwrite *w)
{
	int r;

	if (w->mode != SH_REC_WARC) {
		while ((r = fill(w, 1)) == 0 && w->blen > w->bpos)
			if ((r = pass(w, (long long)(w->blen - w->bpos),
			    0)) != 0)
				return r;
	} else {
		while ((r = read_warc(w)) == 1)
			if ((r = not_doc(w)) != 0)
				return r;
		if (r == 0 && w->hasheld && (r = put(w, 0, &w->held,
		    NULL)) == 0)
			w->hasheld = 0;
	}
	if (r == 0)
		end_lacks(w);
	return r;
}

/*
 * Document records read from a stream, in one of these framings:
 *   SH_REC_TAB   one record per line, "ID<TAB>TEXT": the ID is everything
 *                before the first TAB, the text everything after it;
 *   SH_REC_LINE  one record per line, the whole line is the text and the
 *                ID is the 1-based line number ("NAME:N" with a prefix);
 *   SH_REC_FILE  the whole stream is one record whose ID is its name;
 *   SH_REC_NUL   "ID<TAB>TEXT" records ending in a NUL byte, so that the
 *                text may hold newlines;
 *   SH_REC_PARA  paragraphs: runs of lines separated by blank lines (only
 *                spaces and tabs); the ID is the line number of the
 *                first line (with "NAME:" as for SH_REC_LINE), the text
 *                the lines joined by '\n';
 *   SH_REC_JSON  JSON Lines: one object per line, the ID and the text
 *                taken from the members named by idfield and textfield
 *                (dotted paths; default "id" and "text"); the ID may be
 *                a string or a number, the text must be a string;
 *   SH_REC_WARC  WARC records (WARC/1.0 and 1.1, as in Common Crawl WARC
 *                and WET files), framed by Content-Length; only the types
 *                in types (default "conversion,response") are returned,
 *                the ID is the header idfield (default WARC-Target-URI;
 *                its value and that of WARC-Record-ID without the angle
 *                brackets WARC/1.0 puts around them), the text the block,
 *                without its HTTP headers for a response.
 * A WARC response is a document when its HTTP status is 2xx (any, with
 * anystatus) and its media type is in the list mtypes (type/subtype
 * patterns, a '*' matching any run of characters; a response without a
 * Content-Type is kept); the others are skipped and counted.  Its text is
 * made UTF-8 from the charset its Content-Type declares, or that an HTML
 * page declares in a <meta> (text/charset.h); the text of a record that
 * declares none is taken to be in charset, when set, or else in the
 * charset its bytes show (text/detect.h: UTF-8 mostly).  The text of a
 * record that is HTML is reduced to text (html.h), after a <meta>
 * charset is looked for: with html SH_HTML_AUTO (the default), a record
 * is HTML when its type says so (a WARC response's Content-Type; with
 * SH_REC_FILE, a file name ending in .html, .htm, .xhtml or .shtml) or,
 * where nothing says, when its first bytes look like HTML
 * (sh_html_sniff); with SH_HTML_ALWAYS every record is, with
 * SH_HTML_NEVER none.  With maintext, an HTML record is reduced to its
 * main content instead (text/maintext.h).
 * A whole file (SH_REC_FILE) or a WARC response whose body is binary (a
 * NUL byte, the magic number of a binary format such as ELF, PDF, ZIP,
 * gzip, PNG or JPEG, or more than a tenth control bytes, in its first 8
 * KiB) is no document: it is skipped and counted (nbinary).
 * IDs come in an escaped form, so that one never breaks a line or a field
 * of what the tools write, nor sends a control byte to a terminal: a TAB,
 * LF, CR or backslash of the ID becomes \t, \n, \r or \\, another
 * control byte (0 to 31, 127) \xHH, in lowercase hex.  In SH_REC_TAB the
 * ID is taken as written, that form already (an ID written by a tool
 * reads back as itself), but for its control bytes, escaped as above.
 * sh_rec_unescape gives the bytes back.
 * Lines end at '\n'; one '\r' before it is dropped (CRLF input); a last
 * line without '\n' counts.  A stream that starts with the gzip magic is
 * refused (base/lines.h).  Lines may hold any bytes, NUL included, and
 * have no length limit.
 */
#ifndef SH_RECORD_H
#define SH_RECORD_H

#include <stdio.h>

#include "base/lines.h"
#include "base/shard.h"

enum {
	SH_REC_TAB, SH_REC_LINE, SH_REC_FILE, SH_REC_NUL, SH_REC_PARA,
	SH_REC_JSON, SH_REC_WARC
};

/* The mode named s ("tab", "line", "file", "nul", "para", "jsonl",
 * "warc"), or SH_EINVAL. */
int sh_rec_mode(const char *s);

/* The name of mode, SH_REC_* ("" for another number). */
const char *sh_rec_modename(int mode);

/* How the documents are read: a mode, the fields of the ID and the text
 * (JSON Lines, WARC), the WARC types kept, HTML reduced to text, and bad
 * records skipped (counted by the caller) instead of reported. */
enum { SH_HTML_AUTO, SH_HTML_ALWAYS, SH_HTML_NEVER };

struct sh_recopt {
	int mode;
	const char *idfield, *textfield, *types;	/* NULL: defaults */
	int html;		/* SH_HTML_* */
	int skip;		/* skip bad records instead of failing */
	const char *mtypes;	/* media types of WARC responses kept; NULL:
				 * SH_REC_MTYPES */
	int anystatus;		/* keep WARC responses of any HTTP status */
	const char *charset;	/* the text's charset where a record declares
				 * none; NULL: UTF-8 */
	int maintext;		/* HTML reduced to its main content */
};

/* The defaults: tab records, HTML told by its type and reduced to its
 * main content (fingerprint version 3: fp/fingerprint.h). */
#define SH_RECOPT_DEFAULT { SH_REC_TAB, NULL, NULL, NULL, 0, 0, NULL, 0, \
	NULL, 1 }

/* The media types of WARC responses kept by default: the pages a person
 * reads (HTML, XHTML, plain text), not the style sheets, scripts, data,
 * feeds and sources a crawl fetches besides. */
#define SH_REC_MTYPES "text/html,application/xhtml+xml,text/plain"

/* Whether reading may go on after error e of sh_reader_next (a bad
 * record, skipped), rather than stop. */
int sh_rec_skippable(int e);

struct sh_rec {
	const char *id, *text;	/* not NUL-terminated; valid until next */
	size_t idlen, len;
	unsigned long long line;	/* line number in the stream */
	long long off, size;	/* the record's bytes in the stream, framing
				 * included, for sh_reader_seek */
	/* What the text went through: reduced from HTML (html), made UTF-8
	 * from charset cs[0..cslen) (NULL: taken as UTF-8, as written or in
	 * a charset unknown to the C library), which its bytes showed
	 * (csdetected) rather than a declaration or the reader's charset;
	 * cs valid until next. */
	int html, csdetected;
	const char *cs;
	size_t cslen;
};

struct sh_reader {
	struct sh_lines in;	/* the stream, by lines; in.line is the line
				 * number, in.off the bytes read */
	int mode;
	const char *name;	/* not copied */
	int prefix;
	/* Set after sh_reader_init; NULL for the defaults (not copied). */
	const char *idfield, *textfield, *types, *mtypes, *charset;
	int html, anystatus, maintext;
	struct sh_maintext *mt;	/* made at the first page, with maintext */
	char *idbuf, *tbuf, *ebuf;	/* ebuf: escaped IDs */
	size_t idcap, tcap, ecap;
	int done;
	struct sh_charset *cs;	/* made at the first text to convert */
	const char *wcs;	/* the charset a WARC response declares */
	size_t wcslen;
	int whtml;		/* the response is HTML (1), not (0), or
				 * has no Content-Type (-1) */
	/* Counts: WARC responses skipped for their HTTP status or media
	 * type, records in a charset the C library does not know (read as
	 * UTF-8). */
	unsigned long long nstatus, ntype, nbadcs;
	unsigned long long nbinary;	/* files or WARC responses skipped as
					 * binary */
	long long shstart, shend;	/* sh_reader_shard of WARC records and
					 * paragraphs: those that start in
					 * [shstart, shend) are read (shend
					 * < 0: no end) */
};

/* Read fp (not closed here) in framing mode; name is the stream's name,
 * used as the ID in SH_REC_FILE mode and as "NAME:" prefix of line IDs in
 * SH_REC_LINE mode when prefix != 0. */
void sh_reader_init(struct sh_reader *r, FILE *fp, int mode,
    const char *name, int prefix);

/* The same, with the mode and fields of o (not copied). */
void sh_reader_open(struct sh_reader *r, FILE *fp, const struct sh_recopt *o,
    const char *name, int prefix);

/*
 * Next record into *rec.  Return 1, 0 at the end, or an error: a bad
 * record that is skipped (sh_rec_skippable; rec->line tells where, and
 * for SH_ETAB and the JSON errors rec->text holds the line):
 * SH_ETAB (no TAB), SH_EJSON, SH_ENOID, SH_ENOTEXT, SH_EIDTYPE and
 * SH_ETEXTTYPE (a JSON ID or text of another type), SH_EHTTP (a WARC
 * response without an HTTP head), SH_EWARCLEN (a WARC record of any type
 * with two Content-Length headers, skipped by the last); or one that
 * ends the stream: SH_EWARC
 * (framing lost), SH_EWARCVER (another WARC version), SH_EGZIP (the
 * stream is gzip data), SH_EIO (errno set) or SH_ENOMEM.
 */
/* id[0..len), an ID in its escaped form, back to the bytes it stands
 * for, into out (room for len bytes); return their number.  A backslash
 * that starts no escape stands for itself. */
size_t sh_rec_unescape(const char *id, size_t len, char *out);

int sh_reader_next(struct sh_reader *r, struct sh_rec *rec);

/* The value of header line p[0..len) (a WARC or HTTP header, '\r\n'
 * dropped), without surrounding blanks, into *v, *vlen, if the header is
 * named name, in any case: return 1, else 0. */
int sh_rec_header(const char *p, size_t len, const char *name,
    const char **v, size_t *vlen);

/*
 * Read only shard s->i of s->n of a regular file: the records that start
 * in bytes [size * i / n, size * (i + 1) / n) (base/shard.h,
 * sh_shard_bytes), so that the shards together read every record once,
 * in order, with the line numbers and IDs of reading it whole.  Any
 * framing but SH_REC_FILE.  The bytes before the share are read once:
 * counted by memchr(3) where records start after a delimiter (tab, nul,
 * jsonl, line), read as records and dropped for WARC (a block may hold
 * any line, "WARC/1.0" included: only the framing from the start tells
 * a record's start) and paragraphs (whose start depends on the line
 * before them).  Call before the first read.  Return 0, SH_EINVAL
 * (SH_REC_FILE), SH_EGZIP (the file is gzip data) or SH_EIO (not a
 * regular file, or reading failed; errno set).
 */
int sh_reader_shard(struct sh_reader *r, const struct sh_shard *s);

/*
 * Position r, reading a regular file, to read again the record that
 * sh_reader_next returned earlier with rec->off == off, rec->size == size:
 * the next sh_reader_next returns that record (its ID built from line
 * number line, rec->line, in the framings that number lines; 0 counts
 * from 1), the one after it 0.  Return 0 or SH_EIO (errno set).
 */
int sh_reader_seek(struct sh_reader *r, long long off, long long size,
    unsigned long long line);

void sh_reader_free(struct sh_reader *r);

#endif

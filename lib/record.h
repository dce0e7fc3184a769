/*
 * Document records read from a stream, in one of three framings:
 *   SH_REC_TAB   one record per line, "ID<TAB>TEXT": the ID is everything
 *                before the first TAB, the text everything after it;
 *   SH_REC_LINE  one record per line, the whole line is the text and the
 *                ID is the 1-based line number ("NAME:N" with a prefix);
 *   SH_REC_FILE  the whole stream is one record whose ID is its name.
 * Lines end at '\n'; one '\r' before it is dropped (CRLF input); a last
 * line without '\n' counts.  Lines may hold any bytes, NUL included, and
 * have no length limit.
 */
#ifndef SH_RECORD_H
#define SH_RECORD_H

#include <stdio.h>

enum { SH_REC_TAB, SH_REC_LINE, SH_REC_FILE };

struct sh_rec {
	const char *id, *text;	/* not NUL-terminated; valid until next */
	size_t idlen, len;
	unsigned long long line;	/* line number in the stream */
};

struct sh_reader {
	FILE *fp;
	int mode;
	const char *name;	/* not copied */
	int prefix;
	char *buf, *idbuf;
	size_t cap, idcap;
	unsigned long long line;
	int done;
};

/* Read fp (not closed here) in framing mode; name is the stream's name,
 * used as the ID in SH_REC_FILE mode and as "NAME:" prefix of line IDs in
 * SH_REC_LINE mode when prefix != 0. */
void sh_reader_init(struct sh_reader *r, FILE *fp, int mode,
    const char *name, int prefix);

/*
 * Next record into *rec.  Return 1, 0 at the end, or an error: SH_ETAB
 * (SH_REC_TAB line without TAB; rec->line tells which, and reading may go
 * on), SH_EIO (errno set) or SH_ENOMEM.
 */
int sh_reader_next(struct sh_reader *r, struct sh_rec *rec);

/* Next raw line (no '\n', no final '\r') into *p, *len; same returns. */
int sh_reader_line(struct sh_reader *r, const char **p, size_t *len);

void sh_reader_free(struct sh_reader *r);

#endif

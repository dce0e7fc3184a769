/*
 * Lines of a stream, read one at a time into a buffer that grows with
 * the longest: no length limit, any bytes (NUL included) in a line.
 * A line ends at the delimiter, '\n' or '\0'; with '\n' one '\r' before
 * it is dropped too (CRLF input); a last line without one counts.  A
 * stream that starts with the gzip magic (1f 8b) is refused: no text
 * starts so, and reading compressed bytes as lines would give garbage.
 */
#ifndef SH_LINES_H
#define SH_LINES_H

#include <stddef.h>
#include <stdio.h>

struct sh_lines {
	FILE *fp;		/* not closed here */
	int delim;		/* '\n' or '\0' */
	char *buf;
	size_t cap;
	unsigned long long line;	/* lines read */
	long long off;		/* bytes read */
	long long end;		/* read no line starting at or past it; -1:
				 * none */
	long long lineoff;	/* where the last line read began */
};

/* Read fp by lines ending in delim. */
void sh_lines_init(struct sh_lines *l, FILE *fp, int delim);

/*
 * The next line, without its delimiter, into *p and *len (valid until
 * the next call).  Return 1, 0 at the end (or at l->end), or SH_EIO
 * (errno set), SH_ENOMEM, or SH_EGZIP for a first line, at the start of
 * the stream, that starts with the gzip magic.
 */
int sh_lines_next(struct sh_lines *l, const char **p, size_t *len);

/*
 * After getline or getdelim returned -1 on fp: 0 at the end of the file,
 * else the error (SH_ENOMEM or SH_EIO), which the stream's error flag does
 * not always show (a failed allocation sets errno alone).
 */
int sh_lines_error(FILE *fp);

/* Whether p[0..len) starts with the gzip magic. */
int sh_lines_gzip(const char *p, size_t len);

/* Free the buffer; l may be read again from where it is. */
void sh_lines_free(struct sh_lines *l);

#endif

/*
 * Lines of a stream, read one at a time into a buffer that grows with
 * the longest: no length limit, any bytes (NUL included) in a line.
 * A line ends at the delimiter, '\n' or '\0'; with '\n' one '\r' before
 * it is dropped too (CRLF input); a last line without one counts.  A
 * stream that starts with the gzip magic (1f 8b) is refused: no text
 * starts so, and reading compressed bytes as lines would give garbage.
 *
 * A regular file is read in blocks and its lines returned in place (a
 * third of the time of getdelim); other streams line by line, so that
 * a pipe's lines are returned as they come.
 */
#ifndef SH_LINES_H
#define SH_LINES_H

#include <stddef.h>
#include <stdio.h>

#define SH_LINES_HEAD 512

struct sh_lines {
	FILE *fp;		/* not closed here */
	int delim;		/* '\n' or '\0' */
	char *buf;
	size_t cap;
	int block;		/* a regular file: blocks read into buf */
	int eof;		/* block: the stream is read to its end */
	size_t pos, have;	/* block: the unread lines are buf[pos, have) */
	unsigned long long line;	/* lines read */
	long long off;		/* bytes read */
	long long end;		/* read no line starting at or past it; -1:
				 * none */
	long long lineoff;	/* where the last line read began */
	/* The first bytes of the stream's first line (its delimiter left
	 * out), once that line is read or sh_lines_number ran: for a
	 * caller telling what the stream holds. */
	char head[SH_LINES_HEAD];
	size_t headlen;
	int hashead;
	int rerr;		/* the errno of the first read that failed */
};

/* Read fp by lines ending in delim. */
void sh_lines_init(struct sh_lines *l, FILE *fp, int delim);

/*
 * The next line, without its delimiter, into *p and *len (valid until
 * the next call).  Return 1, 0 at the end (or at l->end), or SH_EIO
 * (errno set to the failed read's, even when lines read before it were
 * returned first; a line cut short by it is not returned), SH_ENOMEM, or
 * SH_EGZIP for a first line, at the start of the stream, that starts
 * with the gzip magic.
 */
int sh_lines_next(struct sh_lines *l, const char **p, size_t *len);

/* Read up to n bytes after the last line into buf, as fread (which
 * error and end of file flags tell the stream's state).  Return the
 * bytes read. */
size_t sh_lines_read(struct sh_lines *l, void *buf, size_t n);

/*
 * Read only the lines that start in share i of n of a file of size
 * bytes, as sh-fp -P cuts a file: n byte ranges, their sizes apart by
 * one at most.  Seeks to the share and skips the line begun before it.
 * Call before reading a line.  Return 0 or SH_EIO (errno set).
 */
int sh_lines_share(struct sh_lines *l, long long size, int i, int n);

/*
 * After sh_lines_share, of a regular file: l->line set to the lines
 * before the share, so that the lines read are numbered from the start
 * of the file, and l->head to its first line's.  Reads the bytes before
 * the share once (pread(2): the stream is not moved).  Return 0,
 * SH_EGZIP (the file starts with the gzip magic), SH_ENOMEM or SH_EIO
 * (errno set).
 */
int sh_lines_number(struct sh_lines *l);

/* Go to byte off of the stream (fseeko), as the offset of the next line
 * read.  Return 0 or SH_EIO. */
int sh_lines_seek(struct sh_lines *l, long long off);

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

#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/lines.h"

#define BLOCK 65536

void
sh_lines_init(struct sh_lines *l, FILE *fp, int delim)
{
	struct stat st;

	memset(l, 0, sizeof(*l));
	l->fp = fp;
	l->delim = delim;
	l->end = -1;
	l->block = fstat(fileno(fp), &st) == 0 && S_ISREG(st.st_mode);
}

/* After a read of l->fp: the errno of its first failed read, kept.  The
 * stream's error flag stays set, but the lines read before the failure
 * are returned first, and errno is cleared before each line. */
static void
keep_error(struct sh_lines *l)
{
	if (ferror(l->fp) && l->rerr == 0)
		l->rerr = errno;
}

/* SH_EIO, errno set back to the failed read's (0 when it was lost). */
static int
read_error(struct sh_lines *l)
{
	errno = l->rerr;
	return SH_EIO;
}

/* The next line of a block-read stream, its delimiter included, at
 * buf + *at, *n bytes.  Return 1, 0 at the end, SH_EIO or SH_ENOMEM. */
static int
next_block(struct sh_lines *l, size_t *at, size_t *n)
{
	const char *e;
	size_t got, want;
	long long left;

	for (;;) {
		e = l->have > l->pos ? memchr(l->buf + l->pos, l->delim,
		    l->have - l->pos) : NULL;
		if (e != NULL || (l->eof && l->have > l->pos)) {
			*at = l->pos;
			*n = e != NULL ? (size_t)(e - l->buf) + 1 - l->pos :
			    l->have - l->pos;
			l->pos += *n;
			return 1;
		}
		if (l->eof)
			return 0;
		/* The partial line to the front, room after it. */
		if (l->pos > 0) {
			memmove(l->buf, l->buf + l->pos, l->have - l->pos);
			l->have -= l->pos;
			l->pos = 0;
		}
		if (l->cap - l->have < BLOCK / 2 && sh_grow(&l->buf, &l->cap,
		    l->have + BLOCK, 1) != 0)
			return SH_ENOMEM;
		/* Up to the end, where one is set and not reached: a record
		 * sought (sh_reader_seek) reads its own bytes, not a block. */
		want = l->cap - l->have;
		left = l->end - (l->off + (long long)(l->have - l->pos));
		if (l->end >= 0 && left > 0 && (long long)want > left)
			want = (size_t)left;
		got = fread(l->buf + l->have, 1, want, l->fp);
		keep_error(l);
		l->have += got;
		if (got == 0) {
			if (ferror(l->fp))
				return read_error(l);
			l->eof = 1;
		}
	}
}

/* The first bytes of line s[0..n), the stream's first, into l->head. */
static void
keep_head(struct sh_lines *l, const char *s, size_t n)
{
	const char *e = memchr(s, l->delim, n);

	if (e != NULL)
		n = (size_t)(e - s);
	l->headlen = n < SH_LINES_HEAD ? n : SH_LINES_HEAD;
	memcpy(l->head, s, l->headlen);
	l->hashead = 1;
}

int
sh_lines_next(struct sh_lines *l, const char **p, size_t *len)
{
	const char *s;
	size_t at = 0, n;
	ssize_t got;
	int e;

	errno = 0;
	if (l->end >= 0 && l->off >= l->end)
		return 0;
	if (l->block) {
		if ((e = next_block(l, &at, &n)) <= 0)
			return e;
	} else if ((got = getdelim(&l->buf, &l->cap, l->delim, l->fp)) < 0) {
		if ((e = sh_lines_error(l->fp)) == SH_EIO && l->rerr != 0)
			return read_error(l);
		return e;
	} else if (ferror(l->fp)) {
		/* A line cut short by a failed read is no line. */
		keep_error(l);
		return read_error(l);
	} else
		n = (size_t)got;
	s = l->buf + at;
	if (l->off == 0 && sh_lines_gzip(s, n)) {
		l->end = 0;	/* nothing more of it */
		return SH_EGZIP;
	}
	if (l->off == 0)
		keep_head(l, s, n);
	l->lineoff = l->off;
	l->off += (long long)n;
	l->line++;
	if (n > 0 && s[n - 1] == l->delim)
		n--;
	if (l->delim == '\n' && n > 0 && s[n - 1] == '\r')
		n--;
	*p = s;
	*len = n;
	return 1;
}

size_t
sh_lines_read(struct sh_lines *l, void *buf, size_t n)
{
	size_t k = l->have - l->pos < n ? l->have - l->pos : n;

	if (k > 0)
		memcpy(buf, l->buf + l->pos, k);
	l->pos += k;
	return k < n ? k + fread((char *)buf + k, 1, n - k, l->fp) : k;
}

int
sh_lines_share(struct sh_lines *l, long long size, int i, int n)
{
	long long start = size / n * i + size % n * i / n;
	int c;

	l->end = size / n * (i + 1) + size % n * (i + 1) / n;
	if (start == 0)
		return 0;
	/* A line is the share's when it starts in it: after a delimiter. */
	if (sh_lines_seek(l, start - 1) != 0)
		return SH_EIO;
	while ((c = getc(l->fp)) != EOF)
		if (l->off++, c == l->delim)
			break;
	return ferror(l->fp) ? SH_EIO : 0;
}

int
sh_lines_number(struct sh_lines *l)
{
	char *buf;
	const char *p, *e;
	unsigned long long n = 0;
	long long at = 0;
	ssize_t got;
	size_t want;
	int fd = fileno(l->fp), ret = 0;

	if ((buf = malloc(BLOCK)) == NULL)
		return SH_ENOMEM;
	while (at < l->off) {
		want = l->off - at < BLOCK ? (size_t)(l->off - at) : BLOCK;
		if ((got = pread(fd, buf, want, (off_t)at)) <= 0) {
			if (got == 0)
				errno = EIO;	/* the file shrank */
			ret = SH_EIO;
			break;
		}
		if (at == 0) {
			if (sh_lines_gzip(buf, (size_t)got)) {
				ret = SH_EGZIP;
				break;
			}
			keep_head(l, buf, (size_t)got);
		}
		for (p = buf; (e = memchr(p, l->delim, (size_t)(buf + got -
		    p))) != NULL; p = e + 1)
			n++;
		at += got;
	}
	free(buf);
	l->line = n;
	return ret;
}

int
sh_lines_seek(struct sh_lines *l, long long off)
{
	if (fseeko(l->fp, (off_t)off, SEEK_SET) != 0)
		return SH_EIO;
	l->off = off;
	l->pos = l->have = 0;
	l->eof = 0;
	return 0;
}

int
sh_lines_error(FILE *fp)
{
	if (feof(fp) && !ferror(fp))
		return 0;
	return errno == ENOMEM ? SH_ENOMEM : SH_EIO;
}

int
sh_lines_gzip(const char *p, size_t len)
{
	return len >= 2 && (unsigned char)p[0] == 0x1f &&
	    (unsigned char)p[1] == 0x8b;
}

void
sh_lines_free(struct sh_lines *l)
{
	free(l->buf);
	l->buf = NULL;
	l->cap = l->pos = l->have = 0;
}

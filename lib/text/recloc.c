#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/zmap.h"
#include "base/zpipe.h"
#include "text/recloc.h"

/* The file of l open on b->fd, its kind told by its first bytes. */
static int
open_file(struct sh_recbuf *b, const char *path)
{
	unsigned char m[SH_Z_MAGIC];
	ssize_t n;
	int e;

	if (b->open && strcmp(b->path, path) == 0)
		return 0;
	if (b->open) {
		close(b->fd);
		b->open = 0;
	}
	free(b->path);
	if ((b->path = strdup(path)) == NULL)
		return SH_ENOMEM;
	if ((b->fd = open(path, O_RDONLY)) < 0)
		return SH_EIO;
	while ((n = pread(b->fd, m, sizeof(m), 0)) < 0 && errno == EINTR)
		;
	if (n < 0) {
		e = errno;
		close(b->fd);
		errno = e;
		return SH_EIO;
	}
	b->kind = sh_z_kind(m, (size_t)n);
	b->open = 1;
	return 0;
}

/* The reader of the record before, and its stream, gone. */
static void
end_reader(struct sh_recbuf *b)
{
	if (b->fp == NULL)
		return;
	sh_reader_free(&b->rd);
	fclose(b->fp);
	b->fp = NULL;
}

size_t
sh_recloc_want(const struct sh_recloc *l)
{
	return (size_t)l->size + (l->mode != SH_REC_WARC);
}

int
sh_recloc_read(const struct sh_recloc *l, const struct sh_recopt *o,
    struct sh_rec *rec, struct sh_recbuf *b)
{
	size_t size = (size_t)l->size, want;
	int r;

	end_reader(b);
	b->msg[0] = '\0';
	if (l->mode == SH_REC_FILE)
		return SH_EINVAL;
	if (l->size == 0 || l->size != size || size == SIZE_MAX)
		return SH_ECHANGED;
	if ((r = open_file(b, l->path)) != 0)
		return r;
	want = sh_recloc_want(l);
	if (sh_grow(&b->buf, &b->cap, want, 1) != 0)
		return SH_ENOMEM;
	/* With a byte more, where the file has it, a record that would go
	 * on past the location (one cut short) is told. */
	r = sh_zrange_read(b->fd, b->kind, l->coff, l->skip, b->buf, want,
	    b->msg, sizeof(b->msg));
	if (r == SH_ECHANGED && want > size)
		r = sh_zrange_read(b->fd, b->kind, l->coff, l->skip, b->buf,
		    want = size, b->msg, sizeof(b->msg));
	if (r != 0)
		return r;
	return sh_recloc_parse(l, o, b->buf, want, rec, b);
}

int
sh_recloc_parse(const struct sh_recloc *l, const struct sh_recopt *o,
    const char *p, size_t n, struct sh_rec *rec, struct sh_recbuf *b)
{
	struct sh_recopt ro = *o;
	size_t size = (size_t)l->size;
	int r;

	end_reader(b);
	if (l->mode == SH_REC_FILE)
		return SH_EINVAL;
	if (l->size == 0 || l->size != size || n < size)
		return SH_ECHANGED;
	/* The record's bytes parsed alone, as the reader parses them
	 * sought in the file (sh_reader_seek): to their end, numbered from
	 * the record's line. */
	if ((b->fp = fmemopen((void *)p, n, "r")) == NULL)
		return errno == ENOMEM ? SH_ENOMEM : SH_EIO;
	ro.mode = l->mode;
	sh_reader_open(&b->rd, b->fp, &ro, l->path, 0);
	if (sh_reader_seek(&b->rd, 0, (long long)size, l->line) != 0)
		return SH_EIO;
	/* A WARC record read to its length alone: bytes that are no
	 * record of it there (a record cut short) are a changed file. */
	if ((r = sh_reader_next(&b->rd, rec)) < 0)
		return l->mode == SH_REC_WARC && n == size ? SH_ECHANGED : r;
	if (r != 1 || rec->off != 0 || rec->size != (long long)size)
		return SH_ECHANGED;
	rec->off = (long long)l->off;
	return 1;
}

void
sh_recloc_free(struct sh_recbuf *b)
{
	end_reader(b);
	if (b->open)
		close(b->fd);
	free(b->path);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

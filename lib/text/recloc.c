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

int
sh_recloc_read(const struct sh_recloc *l, const struct sh_recopt *o,
    struct sh_rec *rec, struct sh_recbuf *b)
{
	struct sh_recopt ro = *o;
	size_t size = (size_t)l->size, n;
	int r;

	end_reader(b);
	b->msg[0] = '\0';
	if (l->mode == SH_REC_FILE)
		return SH_EINVAL;
	if (l->size == 0 || l->size != size)
		return SH_ECHANGED;
	if ((r = open_file(b, l->path)) != 0)
		return r;
	if (size == SIZE_MAX || sh_grow(&b->buf, &b->cap, size + 1, 1) != 0)
		return SH_ENOMEM;
	/* A byte more, where the file has it, so that a record that would
	 * go on past the location (one cut short) is told. */
	if ((r = sh_zrange_read(b->fd, b->kind, l->coff, l->skip, b->buf,
	    size + 1, b->msg, sizeof(b->msg))) == 0)
		n = size + 1;
	else if (r == SH_ECHANGED && (r = sh_zrange_read(b->fd, b->kind,
	    l->coff, l->skip, b->buf, size, b->msg, sizeof(b->msg))) == 0)
		n = size;
	if (r != 0)
		return r;
	/* The record's bytes parsed alone, as the reader parses them
	 * sought in the file (sh_reader_seek): to their end, numbered from
	 * the record's line. */
	if ((b->fp = fmemopen(b->buf, n, "r")) == NULL)
		return errno == ENOMEM ? SH_ENOMEM : SH_EIO;
	ro.mode = l->mode;
	sh_reader_open(&b->rd, b->fp, &ro, l->path, 0);
	if (sh_reader_seek(&b->rd, 0, (long long)size, l->line) != 0)
		return SH_EIO;
	if ((r = sh_reader_next(&b->rd, rec)) < 0)
		return r;
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

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/io.h"
#include "near/fpstore.h"

int
sh_fpstore_open(struct sh_fpstore *s, const char *tmpdir)
{
	int e;

	memset(s, 0, sizeof(*s));
	if ((e = sh_tmpfile(tmpdir, &s->fps)) != 0 ||
	    (e = sh_tmpfile(tmpdir, &s->offs)) != 0 ||
	    (e = sh_tmpfile(tmpdir, &s->ids)) != 0)
		sh_fpstore_close(s);
	return e;
}

void
sh_fpstore_close(struct sh_fpstore *s)
{
	if (s == NULL)
		return;
	if (s->fps != NULL)
		fclose(s->fps);
	if (s->offs != NULL)
		fclose(s->offs);
	if (s->ids != NULL)
		fclose(s->ids);
	memset(s, 0, sizeof(*s));
}

int
sh_fpstore_add(struct sh_fpstore *s, sh_fpval fp, const char *id,
    size_t idlen)
{
	uint64_t end = s->idlen + idlen;

	if (fwrite(&fp, sizeof(fp), 1, s->fps) != 1 ||
	    fwrite(&end, sizeof(end), 1, s->offs) != 1 ||
	    fwrite(id, 1, idlen, s->ids) != idlen)
		return SH_EIO;
	s->n++;
	s->idlen = end;
	return 0;
}

int
sh_fpstore_rewind(struct sh_fpstore *s)
{
	s->at = 0;
	if (fflush(s->fps) != 0 || fflush(s->offs) != 0 ||
	    fflush(s->ids) != 0 || fseeko(s->fps, 0, SEEK_SET) != 0 ||
	    fseeko(s->offs, 0, SEEK_SET) != 0 || fseeko(s->ids, 0,
	    SEEK_SET) != 0)
		return SH_EIO;
	return 0;
}

int
sh_fpstore_next(struct sh_fpstore *s, sh_fpval *fp)
{
	if (fread(fp, sizeof(*fp), 1, s->fps) == 1)
		return 1;
	return ferror(s->fps) ? SH_EIO : 0;
}

long
sh_fpstore_read(struct sh_fpstore *s, sh_fpval *v, size_t max)
{
	size_t n = fread(v, sizeof(*v), max, s->fps);

	return n == 0 && ferror(s->fps) ? SH_EIO : (long)n;
}

/* Read n bytes at off of f, which sh_fpstore_rewind flushed. */
static int
readat(FILE *f, void *p, size_t n, uint64_t off)
{
	return pread(fileno(f), p, n, (off_t)off) == (ssize_t)n ? 0 : SH_EIO;
}

static int
grow(char **buf, size_t *cap, size_t len)
{
	char *nb;

	if (*cap < len + 1) {
		if ((nb = realloc(*buf, len + 1)) == NULL)
			return SH_ENOMEM;
		*buf = nb;
		*cap = len + 1;
	}
	return 0;
}

int
sh_fpstore_fp(struct sh_fpstore *s, uint64_t i, sh_fpval *fp)
{
	return readat(s->fps, fp, sizeof(*fp), sizeof(*fp) * i);
}

int
sh_fpstore_id(struct sh_fpstore *s, uint64_t i, char **buf, size_t *cap,
    size_t *len)
{
	uint64_t off[2] = { 0, 0 };
	int e;

	if ((e = i > 0 ? readat(s->offs, off, sizeof(off), 8 * (i - 1)) :
	    readat(s->offs, off + 1, sizeof(*off), 0)) != 0)
		return e;
	*len = (size_t)(off[1] - off[0]);
	if ((e = grow(buf, cap, *len)) != 0)
		return e;
	return readat(s->ids, *buf, *len, off[0]);
}

int
sh_fpstore_nextid(struct sh_fpstore *s, char **buf, size_t *cap,
    size_t *len)
{
	uint64_t end;
	int e;

	if (fread(&end, sizeof(end), 1, s->offs) != 1)
		return ferror(s->offs) ? SH_EIO : 0;
	*len = (size_t)(end - s->at);
	s->at = end;
	if ((e = grow(buf, cap, *len)) != 0)
		return e;
	return fread(*buf, 1, *len, s->ids) == *len ? 1 : SH_EIO;
}

#include <sys/mman.h>
#include <sys/stat.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/io.h"
#include "near/fpstore.h"

#define WBUF (64 << 10)

int
sh_fpstore_open(struct sh_fpstore *s, const char *tmpdir)
{
	int e, i;

	memset(s, 0, sizeof(*s));
	if ((e = sh_tmpfile(tmpdir, &s->fps)) != 0 ||
	    (e = sh_tmpfile(tmpdir, &s->offs)) != 0 ||
	    (e = sh_tmpfile(tmpdir, &s->ids)) != 0) {
		sh_fpstore_close(s);
		return e;
	}
	for (i = 0; i < 3; i++)
		if ((s->wb[i] = malloc(WBUF)) == NULL) {
			sh_fpstore_close(s);
			return SH_ENOMEM;
		}
	return 0;
}

static FILE *
file(const struct sh_fpstore *s, int i)
{
	return i == 0 ? s->fps : i == 1 ? s->offs : s->ids;
}

/* Write out what the adds left in buffer i. */
static int
drain(struct sh_fpstore *s, int i)
{
	size_t n = s->wn[i];

	s->wn[i] = 0;
	return n == 0 || fwrite(s->wb[i], 1, n, file(s, i)) == n ? 0 : SH_EIO;
}

/* Append p[0..n) to file i, through its buffer. */
static int
put(struct sh_fpstore *s, int i, const void *p, size_t n)
{
	if (WBUF - s->wn[i] < n) {
		if (drain(s, i) != 0)
			return SH_EIO;
		if (n > WBUF)
			return fwrite(p, 1, n, file(s, i)) == n ? 0 : SH_EIO;
	}
	memcpy(s->wb[i] + s->wn[i], p, n);
	s->wn[i] += n;
	return 0;
}

void
sh_fpstore_close(struct sh_fpstore *s)
{
	int i;

	if (s == NULL)
		return;
	for (i = 0; i < 3; i++) {
		if (s->map[i] != NULL)
			munmap((void *)s->map[i], s->maplen[i]);
		free(s->wb[i]);
	}
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

	if (put(s, 0, &fp, sizeof(fp)) != 0 ||
	    put(s, 1, &end, sizeof(end)) != 0 ||
	    put(s, 2, id, idlen) != 0)
		return SH_EIO;
	s->n++;
	s->idlen = end;
	return 0;
}

int
sh_fpstore_rewind(struct sh_fpstore *s)
{
	s->at = 0;
	s->rd = 0;
	if (drain(s, 0) != 0 || drain(s, 1) != 0 || drain(s, 2) != 0 ||
	    fflush(s->fps) != 0 || fflush(s->offs) != 0 ||
	    fflush(s->ids) != 0 || fseeko(s->fps, 0, SEEK_SET) != 0 ||
	    fseeko(s->offs, 0, SEEK_SET) != 0 || fseeko(s->ids, 0,
	    SEEK_SET) != 0)
		return SH_EIO;
	return 0;
}

/* Map the three files, which sh_fpstore_rewind flushed, once. */
static void
map_files(struct sh_fpstore *s)
{
	struct stat st;
	void *p;
	int i;

	s->mapped = 1;
	for (i = 0; i < 3; i++) {
		if (fstat(fileno(file(s, i)), &st) != 0 || st.st_size <= 0 ||
		    (uintmax_t)st.st_size > SIZE_MAX)
			continue;
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED,
		    fileno(file(s, i)), 0);
		if (p == MAP_FAILED)
			continue;
		s->map[i] = p;
		s->maplen[i] = (size_t)st.st_size;
	}
}

int
sh_fpstore_next(struct sh_fpstore *s, sh_fpval *fp)
{
	const sh_fpval *v;
	long n;

	if ((n = sh_fpstore_read(s, fp, 1, &v)) == 1)
		*fp = *v;
	return (int)n;
}

long
sh_fpstore_read(struct sh_fpstore *s, sh_fpval *buf, size_t max,
    const sh_fpval **v)
{
	size_t n;

	if (!s->mapped)
		map_files(s);
	if (s->map[0] == NULL) {
		n = fread(buf, sizeof(*buf), max, s->fps);
		*v = buf;
		return n == 0 && ferror(s->fps) ? SH_EIO : (long)n;
	}
	/* From the mapping: no copy, no system call. */
	n = s->maplen[0] / sizeof(*buf) - s->rd;
	if (n > max)
		n = max;
	*v = (const sh_fpval *)(const void *)(s->map[0] + s->rd *
	    sizeof(*buf));
	s->rd += n;
	return (long)n;
}

/* Read n bytes at off of file i (0 fps, 1 offs, 2 ids). */
static int
readat(struct sh_fpstore *s, int i, void *p, size_t n, uint64_t off)
{
	if (!s->mapped)
		map_files(s);
	if (s->map[i] == NULL)
		return pread(fileno(file(s, i)), p, n, (off_t)off) ==
		    (ssize_t)n ? 0 : SH_EIO;
	if (off > s->maplen[i] || n > s->maplen[i] - off)
		return SH_EIO;
	memcpy(p, s->map[i] + off, n);
	return 0;
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
	return readat(s, 0, fp, sizeof(*fp), sizeof(*fp) * i);
}

int
sh_fpstore_id(struct sh_fpstore *s, uint64_t i, char **buf, size_t *cap,
    size_t *len)
{
	uint64_t off[2] = { 0, 0 };
	int e;

	if ((e = i > 0 ? readat(s, 1, off, sizeof(off), 8 * (i - 1)) :
	    readat(s, 1, off + 1, sizeof(*off), 0)) != 0)
		return e;
	*len = (size_t)(off[1] - off[0]);
	if ((e = grow(buf, cap, *len)) != 0)
		return e;
	return readat(s, 2, *buf, *len, off[0]);
}

void
sh_fpstore_prefetch(struct sh_fpstore *s, uint64_t i, int ids)
{
	uint64_t off;

	if (!s->mapped || s->map[1] == NULL || s->map[2] == NULL ||
	    8 * (i + 1) > s->maplen[1])
		return;
	if (!ids) {
		SH_PREFETCH(s->map[1] + 8 * (i > 0 ? i - 1 : 0));
		return;
	}
	off = 0;
	if (i > 0)
		memcpy(&off, s->map[1] + 8 * (i - 1), sizeof(off));
	if (off < s->maplen[2])
		SH_PREFETCH(s->map[2] + off);
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

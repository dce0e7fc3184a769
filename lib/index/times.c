#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/io.h"
#include "index/ixfile.h"
#include "index/segint.h"
#include "index/times.h"

static const unsigned char magic[8] = "\x89SHT\r\n\x1a\n";

#define HEAD 24		/* magic, version, count */
#define TAIL 16		/* least, greatest, checksum */

static void
flush(struct sh_timesw *t)
{
	sh_hash64_update(&t->h, t->buf, t->len);
	if (t->err == 0 && sh_write_all(t->fd, t->buf, t->len) != 0)
		t->err = SH_EIO;
	t->len = 0;
}

void
sh_times_begin(struct sh_timesw *t, int fd, uint64_t n)
{
	t->fd = fd;
	t->want = n;
	t->n = 0;
	t->min = UINT32_MAX;
	t->max = 0;
	t->err = 0;
	sh_hash64_init(&t->h, 0);
	memcpy(t->buf, magic, 8);
	put64(t->buf + 8, 1);
	put64(t->buf + 16, n);
	t->len = HEAD;
}

void
sh_times_put(struct sh_timesw *t, uint32_t v)
{
	if (t->len + 4 > sizeof(t->buf))
		flush(t);
	t->buf[t->len++] = (unsigned char)v;
	t->buf[t->len++] = (unsigned char)(v >> 8);
	t->buf[t->len++] = (unsigned char)(v >> 16);
	t->buf[t->len++] = (unsigned char)(v >> 24);
	if (v < t->min)
		t->min = v;
	if (v > t->max)
		t->max = v;
	t->n++;
}

int
sh_times_end(struct sh_timesw *t)
{
	uint64_t ends = (uint64_t)(t->n ? t->min : 0) |
	    (uint64_t)(t->n ? t->max : 0) << 32;

	if (t->len + TAIL > sizeof(t->buf))
		flush(t);
	put64(t->buf + t->len, ends);
	t->len += 8;
	flush(t);
	put64(t->buf, sh_hash64_final(&t->h));
	t->len = 8;
	if (t->err == 0 && sh_write_all(t->fd, t->buf, 8) != 0)
		t->err = SH_EIO;
	if (t->err == 0 && t->n != t->want)
		t->err = SH_ECORRUPT;
	return t->err;
}

int
sh_times_open(struct sh_times *t, const char *path, uint64_t n,
    uint32_t fixed)
{
	const unsigned char *b;
	struct stat st;
	uint64_t size;
	int fd, e = 0;

	memset(t, 0, sizeof(*t));
	t->n = n;
	t->fixed = t->min = t->max = fixed;
	if ((e = sh_ixfile_open(path, O_RDONLY, &fd)) != 0)
		return e == SH_EIO && errno == ENOENT ? 0 : e;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return SH_EIO;
	}
	size = (uint64_t)st.st_size;
	if (size < HEAD + TAIL) {
		close(fd);
		return SH_ETRUNC;
	}
	t->map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (t->map == MAP_FAILED) {
		t->map = NULL;
		return SH_ENOMEM;
	}
	t->maplen = (size_t)size;
	b = t->map;
	if (memcmp(b, magic, 8) != 0)
		e = SH_EMAGIC;
	else if (rd64(b + 8) != 1)
		e = SH_EVERSION;
	else if (rd64(b + 16) != n || n > (size - HEAD - TAIL) / 4)
		e = rd64(b + 16) == n ? SH_ETRUNC : SH_ECORRUPT;
	else if (size != HEAD + TAIL + 4 * n)
		e = SH_ECORRUPT;
	else if (rd64(b + size - 8) != sh_hash64(b, (size_t)size - 8, 0))
		e = SH_ECORRUPT;
	if (e == 0) {
		t->min = rd32(b + size - 16);
		t->max = rd32(b + size - 12);
		t->p = b + HEAD;
		if (t->min > t->max)
			e = SH_ECORRUPT;
	}
	if (e != 0)
		sh_times_close(t);
	return e;
}

void
sh_times_close(struct sh_times *t)
{
	if (t->map != NULL)
		munmap(t->map, t->maplen);
	memset(t, 0, sizeof(*t));
}

int
sh_times_is(const char *path)
{
	return sh_ixfile_magic(path, magic);
}

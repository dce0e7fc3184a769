#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

static char dir[4096];
volatile uint64_t fz_kept;	/* what fz_keep keeps */

FILE *
fz_memfile(const uint8_t *p, size_t n)
{
	static char empty[1];
	FILE *f;

	/* Read-only: the stream never writes to the (const) input. */
	if ((f = fmemopen(n ? (void *)(uintptr_t)p : empty, n, "r")) == NULL) {
		perror("fmemopen");
		abort();
	}
	return f;
}

FILE *
fz_sink(char **buf, size_t *len)
{
	FILE *f;

	if ((f = open_memstream(buf, len)) == NULL) {
		perror("open_memstream");
		abort();
	}
	return f;
}

static void
rmdir_at_exit(void)
{
	if (*dir)
		rmdir(dir);
}

const char *
fz_dir(void)
{
	const char *t = getenv("TMPDIR");

	if (*dir)
		return dir;
	if (t == NULL || *t == '\0')
		t = "/tmp";
	if ((size_t)snprintf(dir, sizeof(dir), "%s/sh-fuzz.XXXXXX", t) >=
	    sizeof(dir) || mkdtemp(dir) == NULL) {
		perror("mkdtemp");
		abort();
	}
	atexit(rmdir_at_exit);
	return dir;
}

const char *
fz_file(const char *name, const void *p, size_t n)
{
	static char path[4096 + 64];
	const char *c = p;
	ssize_t w;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fz_dir(), name);
	if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0) {
		perror(path);
		abort();
	}
	while (n > 0) {
		if ((w = write(fd, c, n)) < 0) {
			if (errno == EINTR)
				continue;
			perror(path);
			abort();
		}
		c += w;
		n -= (size_t)w;
	}
	if (close(fd) != 0) {
		perror(path);
		abort();
	}
	return path;
}

void
fz_unlink(const char *name)
{
	char path[4096 + 64];

	snprintf(path, sizeof(path), "%s/%s", fz_dir(), name);
	unlink(path);
}

void
fz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
	abort();
}

void
fz_keep(uint64_t v)
{
	fz_kept += v;
}

unsigned
fz_byte(const uint8_t **p, size_t *n)
{
	if (*n == 0)
		return 0;
	--*n;
	return *(*p)++;
}

void
fz_lines(const uint8_t *data, size_t n, void (*line)(const char *, size_t))
{
	const char *p = (const char *)data, *end = p + n, *nl;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		line(p, (size_t)(nl - p));
	}
}

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "index/writer.h"
#include "near/fplist.h"
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
fz_clean(void)
{
	struct dirent *de;
	DIR *d;

	if ((d = opendir(fz_dir())) == NULL)
		abort();
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			fz_unlink(de->d_name);
	closedir(d);
}

/* What a writer may answer a bad index with. */
static int
bad_index(int e)
{
	return e == 0 || e == SH_EMAGIC || e == SH_EVERSION || e == SH_ETRUNC ||
	    e == SH_ECORRUPT || e == SH_ESEGMAX || e == SH_EIO ||
	    e == SH_ENOTREG || e == SH_ENOMEM || e == SH_ERANGE;
}

void
fz_writers(const char *const *ids, size_t n)
{
	struct sh_ixwriter *w;
	struct sh_fplist l;
	struct sh_ixopt o;
	unsigned char found[16];
	char where[SH_WHERE];
	size_t i;
	int e, op;

	sh_fplist_init(&l);
	for (i = 0; i < n && i < sizeof(found); i++)
		if (sh_fplist_add(&l, 0, ids[i], strlen(ids[i])) != 0)
			abort();
	for (op = 0; op < 3; op++) {
		memset(&o, 0, sizeof(o));
		o.k = -1;
		o.now = 2;
		/* An index of either kind: a writer of the other kind is
		 * refused (SH_EKIND) at open, so its kind is tried too. */
		if ((e = sh_ixw_open(&w, fz_dir(), &o, where)) == SH_EKIND) {
			o.t = 800000;
			o.bands = 16;
			o.rows = 6;
			e = sh_ixw_open(&w, fz_dir(), &o, where);
		}
		if (e == 0) {
			e = op == 0 ? sh_ixw_delete(w, &l, found, where) :
			    op == 1 ? sh_ixw_merge(w, where) :
			    sh_ixw_expire(w, 1, where);
			if (e == 0)
				e = sh_ixw_commit(w, where);
			sh_ixw_close(w);
		}
		FZ_CHECK(bad_index(e) || e == SH_EKIND);
	}
	sh_fplist_free(&l);
	fz_clean();
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

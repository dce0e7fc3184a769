#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/io.h"

int
sh_write_all(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t w;

	while (len > 0) {
		if ((w = write(fd, c, len)) < 0) {
			if (errno == EINTR)
				continue;
			return SH_EIO;
		}
		c += w;
		len -= (size_t)w;
	}
	return 0;
}

int
sh_pwrite_all(int fd, const void *p, size_t len, uint64_t off)
{
	const char *c = p;
	ssize_t w;

	while (len > 0) {
		if ((w = pwrite(fd, c, len, (off_t)off)) < 0) {
			if (errno == EINTR)
				continue;
			return SH_EIO;
		}
		c += w;
		off += (uint64_t)w;
		len -= (size_t)w;
	}
	return 0;
}

int
sh_pread_all(int fd, void *p, size_t len, uint64_t off)
{
	char *c = p;
	ssize_t r;

	while (len > 0) {
		if ((r = pread(fd, c, len, (off_t)off)) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			if (r == 0)
				errno = EIO;
			return SH_EIO;
		}
		c += r;
		off += (uint64_t)r;
		len -= (size_t)r;
	}
	return 0;
}

int
sh_tmpfile(const char *tmpdir, FILE **f)
{
	char path[4096];
	int fd, saved;

	if (tmpdir == NULL || *tmpdir == '\0')
		tmpdir = "/tmp";
	if ((size_t)snprintf(path, sizeof(path), "%s/sh-tmp.XXXXXX",
	    tmpdir) >= sizeof(path)) {
		errno = ENAMETOOLONG;
		return SH_EIO;
	}
	if ((fd = mkstemp(path)) < 0)
		return SH_EIO;
	unlink(path);
	if ((*f = fdopen(fd, "w+")) == NULL) {
		saved = errno;
		close(fd);
		errno = saved;
		return SH_EIO;
	}
	return 0;
}

int
sh_drain(int fd, int to, struct sh_drain *d)
{
	ssize_t r;

	d->done = 0;
	d->nheld = 0;
	d->writing = 0;
	d->stopped = 0;
	while ((r = read(fd, d->held, sizeof(d->held))) != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return SH_EIO;
		if (d->stop != NULL && d->stop(d->ctx)) {
			d->nheld = (size_t)r;
			d->stopped = 1;
			break;
		}
		if (sh_write_all(to, d->held, (size_t)r) != 0) {
			d->nheld = (size_t)r;
			d->writing = 1;
			return SH_EIO;
		}
		d->done += (uint64_t)r;
	}
	return 0;
}

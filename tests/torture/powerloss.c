/*
 * powerloss: an LD_PRELOAD shim that keeps, beside a program writing an
 * index directory, what a power cut would leave of it, and cuts the power
 * at a chosen call.  The model is POSIX's and no kinder: the bytes of a
 * file are on disk as they were at its last fsync or fdatasync, and a
 * directory's names (creations, renames, links, removals) as they were
 * at the last fsync of the directory; everything else is lost.
 *
 * PL_DIR      the directory watched, an absolute path without symbolic
 *             links or a trailing slash; its parent must exist.
 * PL_STATE    an empty directory (or one this shim filled before) where
 *             the durable state is kept: "listing", a line "INODE NAME"
 *             per regular file of PL_DIR at its last sync (none while
 *             the directory itself was never synced, unless it existed
 *             at the start), and "ino-INODE", the bytes of that file at
 *             its last sync.  On the first start, what PL_DIR holds is
 *             taken as durable.
 * PL_AT       cut the power before the Nth call counted (from 1): the
 *             process ends at once with status 99, as a crash would;
 *             unset or 0: never.
 * PL_COUNT    a file that receives, at exit, the number of calls
 *             counted.
 *
 * Counted: every open, write, pwrite, fsync, fdatasync, rename, link,
 * unlink, ftruncate, mkdir and close, whatever the file, of the program
 * itself: the shim takes LD_PRELOAD and PL_* out of its environment, so
 * that a child it spawns (a decompressor) runs without the shim.  The state is
 * read back by tests/torture/powerloss, which makes the directory a
 * reboot would find.  GNU C on glibc (RTLD_NEXT, /proc/self/fd).
 * Build: cc -O2 -fPIC -shared -o powerloss.so powerloss.c -ldl
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <sys/stat.h>
#include <sys/types.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *dir;		/* PL_DIR */
static const char *state;	/* PL_STATE */
static unsigned long long at, count;
static const char *countpath;
static int ready;
static __thread int inshim;	/* calls made by the shim itself */

#define REAL(name, type) \
	static type real_##name; \
	if (real_##name == NULL) \
		real_##name = (type)dlsym(RTLD_NEXT, #name)

typedef int (*open_t)(const char *, int, ...);
typedef int (*openat_t)(int, const char *, int, ...);
typedef ssize_t (*write_t)(int, const void *, size_t);
typedef ssize_t (*pwrite_t)(int, const void *, size_t, off_t);
typedef int (*fd_t)(int);
typedef int (*rename_t)(const char *, const char *);
typedef int (*renameat_t)(int, const char *, int, const char *);
typedef int (*linkat_t)(int, const char *, int, const char *, int);
typedef int (*unlink_t)(const char *);
typedef int (*unlinkat_t)(int, const char *, int);
typedef int (*ftruncate_t)(int, off_t);
typedef int (*mkdir_t)(const char *, mode_t);

static int
raw_open(const char *path, int flags, mode_t mode)
{
	REAL(open, open_t);
	return real_open(path, flags, mode);
}

static void
raw_close(int fd)
{
	REAL(close, fd_t);
	real_close(fd);
}

/* Copy what fd reads to STATE/NAME, by a temporary name and a rename. */
static void
keep(int from, const char *name)
{
	char tmp[4200], path[4200], buf[65536];
	ssize_t n;
	int to;

	REAL(write, write_t);
	REAL(rename, rename_t);
	snprintf(tmp, sizeof(tmp), "%s/%s.tmp", state, name);
	snprintf(path, sizeof(path), "%s/%s", state, name);
	if ((to = raw_open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644)) < 0)
		abort();
	while ((n = read(from, buf, sizeof(buf))) > 0)
		if (real_write(to, buf, (size_t)n) != n)
			abort();
	if (n < 0)
		abort();
	raw_close(to);
	if (real_rename(tmp, path) != 0)
		abort();
}

/* The names of PL_DIR's regular files, with their bytes when copy. */
static void
listing(int copy)
{
	char path[4200], tmp[4200], name[64];
	struct dirent *de;
	struct stat st;
	FILE *f;
	DIR *d;
	int fd;

	REAL(rename, rename_t);
	snprintf(tmp, sizeof(tmp), "%s/listing.tmp", state);
	snprintf(path, sizeof(path), "%s/listing", state);
	if ((f = fopen(tmp, "w")) == NULL)
		abort();
	if ((d = opendir(dir)) != NULL) {
		while ((de = readdir(d)) != NULL) {
			snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
			if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
				continue;
			fprintf(f, "%llu %s\n", (unsigned long long)st.st_ino,
			    de->d_name);
			if (!copy || (fd = raw_open(path, O_RDONLY, 0)) < 0)
				continue;
			snprintf(name, sizeof(name), "ino-%llu",
			    (unsigned long long)st.st_ino);
			keep(fd, name);
			raw_close(fd);
		}
		closedir(d);
	}
	if (fclose(f) != 0)
		abort();
	snprintf(path, sizeof(path), "%s/listing", state);
	if (real_rename(tmp, path) != 0)
		abort();
}

static void
done(void)
{
	FILE *f;

	if (countpath != NULL && (f = fopen(countpath, "w")) != NULL) {
		fprintf(f, "%llu\n", count);
		fclose(f);
	}
}

static void
init(void)
{
	char path[4200];
	const char *s;

	if (ready)
		return;
	ready = 1;
	dir = getenv("PL_DIR");
	state = getenv("PL_STATE");
	at = (s = getenv("PL_AT")) != NULL ? strtoull(s, NULL, 10) : 0;
	countpath = getenv("PL_COUNT");
	/* The program's children (a decompressor) run without the shim:
	 * they are not the program under test, and would count calls and
	 * write the state and the count of their own.  unsetenv leaves
	 * the strings themselves in place. */
	unsetenv("LD_PRELOAD");
	unsetenv("PL_DIR");
	unsetenv("PL_STATE");
	unsetenv("PL_AT");
	unsetenv("PL_COUNT");
	if (dir == NULL || state == NULL)
		return;
	inshim = 1;
	snprintf(path, sizeof(path), "%s/listing", state);
	if (access(path, F_OK) != 0)
		listing(1);
	inshim = 0;
	atexit(done);
}

/* The environment cleaned before the program can spawn anything. */
__attribute__((constructor)) static void
start(void)
{
	init();
}

/* Count a call; cut the power at PL_AT. */
static void
tick(void)
{
	init();
	if (inshim)
		return;
	if (++count == at)
		_exit(99);
}

/* The path of fd, into buf; whether it is PL_DIR (1) or a file in it
 * (2); 0 otherwise. */
static int
where(int fd, char *buf, size_t size)
{
	char lnk[64];
	ssize_t n;
	size_t dl;

	if (dir == NULL)
		return 0;
	snprintf(lnk, sizeof(lnk), "/proc/self/fd/%d", fd);
	if ((n = readlink(lnk, buf, size - 1)) < 0)
		return 0;
	buf[n] = '\0';
	dl = strlen(dir);
	if (strcmp(buf, dir) == 0)
		return 1;
	return strncmp(buf, dir, dl) == 0 && buf[dl] == '/' &&
	    strchr(buf + dl + 1, '/') == NULL ? 2 : 0;
}

/* fd's bytes, or PL_DIR's names, are on disk now. */
static void
synced(int fd)
{
	char path[4200], name[64], lnk[64];
	struct stat st;
	int w, from;

	if (dir == NULL || (w = where(fd, path, sizeof(path))) == 0 ||
	    fstat(fd, &st) != 0)
		return;
	inshim = 1;
	if (w == 1)
		listing(0);
	else if (S_ISREG(st.st_mode)) {
		snprintf(lnk, sizeof(lnk), "/proc/self/fd/%d", fd);
		snprintf(name, sizeof(name), "ino-%llu",
		    (unsigned long long)st.st_ino);
		if ((from = raw_open(lnk, O_RDONLY, 0)) >= 0) {
			keep(from, name);
			raw_close(from);
		}
	}
	inshim = 0;
}

/* A file just created in PL_DIR has no bytes on disk, whatever a file
 * of its inode number had. */
static void
created(int fd)
{
	char path[4200];
	struct stat st;

	if (fd < 0 || where(fd, path, sizeof(path)) != 2 ||
	    fstat(fd, &st) != 0)
		return;
	snprintf(path, sizeof(path), "%s/ino-%llu", state,
	    (unsigned long long)st.st_ino);
	inshim = 1;
	unlink(path);
	inshim = 0;
}

static int
do_openat(int dirfd, const char *path, int flags, mode_t mode)
{
	struct stat st;
	int fd, fresh;

	REAL(openat, openat_t);
	tick();
	fresh = (flags & O_CREAT) && !inshim &&
	    fstatat(dirfd, path, &st, 0) != 0;
	fd = real_openat(dirfd, path, flags, mode);
	if (fresh && state != NULL)
		created(fd);
	return fd;
}

#define MODE(flags, mode) do { \
	va_list ap; \
	va_start(ap, flags); \
	mode = (flags & (O_CREAT | O_TMPFILE)) ? va_arg(ap, mode_t) : 0; \
	va_end(ap); \
} while (0)

int
open(const char *path, int flags, ...)
{
	mode_t mode;

	MODE(flags, mode);
	return do_openat(AT_FDCWD, path, flags, mode);
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode;

	MODE(flags, mode);
	return do_openat(AT_FDCWD, path, flags, mode);
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE(flags, mode);
	return do_openat(dirfd, path, flags, mode);
}

int
openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode;

	MODE(flags, mode);
	return do_openat(dirfd, path, flags, mode);
}

ssize_t
write(int fd, const void *p, size_t n)
{
	REAL(write, write_t);
	tick();
	return real_write(fd, p, n);
}

ssize_t
pwrite(int fd, const void *p, size_t n, off_t off)
{
	REAL(pwrite, pwrite_t);
	tick();
	return real_pwrite(fd, p, n, off);
}

ssize_t
pwrite64(int fd, const void *p, size_t n, off_t off)
{
	REAL(pwrite64, pwrite_t);
	tick();
	return real_pwrite64(fd, p, n, off);
}

int
fsync(int fd)
{
	int r;

	REAL(fsync, fd_t);
	tick();
	if ((r = real_fsync(fd)) == 0)
		synced(fd);
	return r;
}

int
fdatasync(int fd)
{
	int r;

	REAL(fdatasync, fd_t);
	tick();
	if ((r = real_fdatasync(fd)) == 0)
		synced(fd);
	return r;
}

int
close(int fd)
{
	REAL(close, fd_t);
	tick();
	return real_close(fd);
}

int
rename(const char *a, const char *b)
{
	REAL(rename, rename_t);
	tick();
	return real_rename(a, b);
}

int
renameat(int da, const char *a, int db, const char *b)
{
	REAL(renameat, renameat_t);
	tick();
	return real_renameat(da, a, db, b);
}

int
link(const char *a, const char *b)
{
	REAL(link, rename_t);
	tick();
	return real_link(a, b);
}

int
linkat(int da, const char *a, int db, const char *b, int flags)
{
	REAL(linkat, linkat_t);
	tick();
	return real_linkat(da, a, db, b, flags);
}

int
unlink(const char *path)
{
	REAL(unlink, unlink_t);
	tick();
	return real_unlink(path);
}

int
unlinkat(int dirfd, const char *path, int flags)
{
	REAL(unlinkat, unlinkat_t);
	tick();
	return real_unlinkat(dirfd, path, flags);
}

int
ftruncate(int fd, off_t len)
{
	REAL(ftruncate, ftruncate_t);
	tick();
	return real_ftruncate(fd, len);
}

int
mkdir(const char *path, mode_t mode)
{
	REAL(mkdir, mkdir_t);
	tick();
	return real_mkdir(path, mode);
}

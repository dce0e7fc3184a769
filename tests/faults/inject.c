/*
 * inject: an LD_PRELOAD shim that makes one chosen call of the C library
 * fail, so that a test can sweep every place where a program writes,
 * syncs, renames, maps or allocates, and check how it copes.  It counts
 * the calls of the functions selected by FAULT_CALLS, all together, and
 * fails call number FAULT_AT with FAULT_ERRNO; FAULT_COUNT names a file
 * that receives the number of calls seen, at exit.  tests/faults/README
 * has the variables and a sweep by hand.
 *
 * GNU C on glibc (thread-local and atomic built-ins, RTLD_NEXT, the
 * stream's error flag).  Build: cc -O2 -fPIC -shared -o inject.so
 * inject.c -ldl
 * Not for sanitizer builds: ASan has its own malloc and intercepts the
 * same functions; the fault tests skip themselves there.
 */
#undef _FORTIFY_SOURCE
#define _GNU_SOURCE
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The wrapped functions, each in a family that FAULT_CALLS can name. */
enum fn {
	F_WRITE, F_PWRITE, F_PWRITE64, F_WRITEV,
	F_FSYNC, F_FDATASYNC,
	F_RENAME, F_RENAMEAT, F_RENAMEAT2,
	F_MMAP, F_MMAP64,
	F_MALLOC, F_CALLOC, F_REALLOC, F_POSIX_MEMALIGN, F_ALIGNED_ALLOC,
	F_OPEN, F_OPEN64, F_OPENAT, F_OPENAT64, F_CREAT, F_FOPEN, F_FOPEN64,
	F_MKSTEMP, F_MKSTEMP64, F_MKDIR,
	F_FTRUNCATE, F_FTRUNCATE64,
	F_CLOSE,
	F_PREAD, F_PREAD64,
	F_FWRITE, F_FPUTS, F_FPUTC, F_PUTC, F_PUTCHAR, F_PUTS, F_FPRINTF,
	F_PRINTF, F_VFPRINTF, F_VPRINTF, F_FFLUSH,
	F_PIPE, F_POSIX_SPAWNP, F_PTHREAD_CREATE, F_FDOPEN,
	F_FREE,			/* resolved, never counted */
	NFN
};

static const struct {
	const char *name, *family;
} fns[NFN] = {
	{ "write", "write" }, { "pwrite", "write" }, { "pwrite64", "write" },
	{ "writev", "write" },
	{ "fsync", "fsync" }, { "fdatasync", "fsync" },
	{ "rename", "rename" }, { "renameat", "rename" },
	{ "renameat2", "rename" },
	{ "mmap", "mmap" }, { "mmap64", "mmap" },
	{ "malloc", "malloc" }, { "calloc", "malloc" },
	{ "realloc", "malloc" }, { "posix_memalign", "malloc" },
	{ "aligned_alloc", "malloc" },
	{ "open", "open" }, { "open64", "open" }, { "openat", "open" },
	{ "openat64", "open" }, { "creat", "open" }, { "fopen", "open" },
	{ "fopen64", "open" }, { "mkstemp", "open" },
	{ "mkstemp64", "open" }, { "mkdir", "open" },
	{ "ftruncate", "ftruncate" }, { "ftruncate64", "ftruncate" },
	{ "close", "close" },
	{ "pread", "pread" }, { "pread64", "pread" },
	{ "fwrite", "stdio" }, { "fputs", "stdio" }, { "fputc", "stdio" },
	{ "putc", "stdio" }, { "putchar", "stdio" }, { "puts", "stdio" },
	{ "fprintf", "stdio" }, { "printf", "stdio" },
	{ "vfprintf", "stdio" }, { "vprintf", "stdio" },
	{ "fflush", "stdio" },
	{ "pipe", "spawn" }, { "posix_spawnp", "spawn" },
	{ "pthread_create", "spawn" }, { "fdopen", "spawn" },
	{ "free", "" },
};

#define BIT(i) ((uint64_t)1 << (i))
#define WRITES (BIT(F_WRITE) | BIT(F_PWRITE) | BIT(F_PWRITE64))

/* The settings, read from the environment on the first call. */
static unsigned long long at;	/* FAULT_AT; 0: fail nothing */
static int ferr = EIO;		/* FAULT_ERRNO */
static int shortw;		/* FAULT_ERRNO=short: writes are cut */
static int sticky;		/* FAULT_STICKY: every call from at on */
static uint64_t sel = ~(uint64_t)0 & ~BIT(F_FREE);	/* FAULT_CALLS */
static int from;		/* FAULT_FROM: 0 any, 1 prog, 2 lib */
static const char *countpath;	/* FAULT_COUNT */
static int logfd = -1;		/* FAULT_LOG */
static int state;		/* 0 unread, 1 being read, 2 read */

static uintptr_t proglo, proghi;	/* the program's loaded segments */
static unsigned long long count;	/* calls counted */
static unsigned long long fncount[NFN];
static void *real[NFN];

/* Inside the shim (resolving, logging, writing the count): calls pass
 * through uncounted. */
static __thread int inshim __attribute__((tls_model("initial-exec")));

/*
 * The allocations of dlsym while malloc itself is being resolved come
 * from here; free ignores them and realloc moves them out.
 */
static char boot[1 << 16] __attribute__((aligned(16)));
static size_t bootused;

static void *
boot_alloc(size_t n)
{
	size_t at0, need = (n + 15) / 16 * 16 + 16;
	char *p;

	do {
		at0 = __atomic_load_n(&bootused, __ATOMIC_RELAXED);
		if (need > sizeof(boot) - at0)
			return NULL;
	} while (!__atomic_compare_exchange_n(&bootused, &at0, at0 + need, 0,
	    __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	p = boot + at0;
	memcpy(p, &n, sizeof(n));
	return p + 16;
}

static int
is_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof(boot);
}

/* The next definition of function i, or NULL (inside a resolution of the
 * malloc family by dlsym, which may allocate). */
static void *
sym(enum fn i)
{
	void *p;

	if ((p = __atomic_load_n(&real[i], __ATOMIC_ACQUIRE)) != NULL)
		return p;
	if (inshim && i >= F_MALLOC && i <= F_ALIGNED_ALLOC)
		return NULL;
	if (inshim && i == F_FREE)
		return NULL;
	inshim++;
	p = dlsym(RTLD_NEXT, fns[i].name);
	inshim--;
	__atomic_store_n(&real[i], p, __ATOMIC_RELEASE);
	return p;
}

static int
errno_of(const char *s)
{
	static const struct {
		const char *name;
		int v;
	} names[] = {
		{ "ENOSPC", ENOSPC }, { "EIO", EIO }, { "ENOMEM", ENOMEM },
		{ "EDQUOT", EDQUOT }, { "EFBIG", EFBIG }, { "EINTR", EINTR },
		{ "EAGAIN", EAGAIN }, { "EACCES", EACCES }, { "EPERM", EPERM },
		{ "EROFS", EROFS }, { "EMFILE", EMFILE }, { "ENFILE", ENFILE },
		{ "EBADF", EBADF }, { "EINVAL", EINVAL }, { "EXDEV", EXDEV },
	};
	size_t i;
	char *end;
	long v;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(s, names[i].name) == 0)
			return names[i].v;
	v = strtol(s, &end, 10);
	return *s != '\0' && *end == '\0' && v > 0 && v < 4096 ? (int)v : EIO;
}

/* FAULT_CALLS: a comma-separated list of families and function names. */
static uint64_t
parse_calls(const char *s)
{
	uint64_t m = 0;
	size_t len;
	int i;

	while (*s != '\0') {
		len = strcspn(s, ",");
		for (i = 0; i < F_FREE; i++)
			if ((strlen(fns[i].name) == len &&
			    strncmp(fns[i].name, s, len) == 0) ||
			    (strlen(fns[i].family) == len &&
			    strncmp(fns[i].family, s, len) == 0) ||
			    (len == 3 && strncmp(s, "all", 3) == 0))
				m |= BIT(i);
		s += len + (s[len] == ',');
	}
	return m;
}

/* The address range of the program's segments (the first object). */
static int
prog_range(struct dl_phdr_info *info, size_t size, void *ctx)
{
	uintptr_t a;
	int i;

	(void)size;
	(void)ctx;
	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_LOAD)
			continue;
		a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
		if (proglo == 0 || a < proglo)
			proglo = a;
		if (a + info->dlpi_phdr[i].p_memsz > proghi)
			proghi = a + info->dlpi_phdr[i].p_memsz;
	}
	return 1;
}

static void
setup(void)
{
	const char *s;
	int expect = 0;

	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
		return;
	if (!__atomic_compare_exchange_n(&state, &expect, 1, 0,
	    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
			;
		return;
	}
	inshim++;
	if ((s = getenv("FAULT_AT")) != NULL)
		at = strtoull(s, NULL, 10);
	if ((s = getenv("FAULT_ERRNO")) != NULL && *s != '\0') {
		if (strcmp(s, "short") == 0)
			shortw = 1;
		else
			ferr = errno_of(s);
	}
	if ((s = getenv("FAULT_CALLS")) != NULL && *s != '\0')
		sel = parse_calls(s);
	if (shortw)
		sel &= WRITES;
	if ((s = getenv("FAULT_FROM")) != NULL && *s != '\0') {
		from = strcmp(s, "prog") == 0 ? 1 : strcmp(s, "lib") == 0 ?
		    2 : 0;
		dl_iterate_phdr(prog_range, NULL);
	}
	if ((s = getenv("FAULT_STICKY")) != NULL)
		sticky = *s != '\0' && strcmp(s, "0") != 0;
	if ((s = getenv("FAULT_COUNT")) != NULL && *s != '\0')
		countpath = s;
	if ((s = getenv("FAULT_LOG")) != NULL && *s != '\0')
		logfd = ((int (*)(const char *, int, ...))sym(F_OPEN))(s,
		    O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666);
	inshim--;
	__atomic_store_n(&state, 2, __ATOMIC_RELEASE);
}

/* The digits of v in base, written backwards from end: their start. */
static char *
fmt(char *end, unsigned long long v, int base)
{
	do {
		*--end = "0123456789abcdef"[v % (unsigned)base];
		v /= (unsigned)base;
	} while (v != 0);
	return end;
}

static size_t
append(char *buf, size_t len, size_t cap, const char *s)
{
	size_t n = strlen(s);

	if (n > cap - len)
		n = cap - len;
	memcpy(buf + len, s, n);
	return len + n;
}

/* A line of the log: "N FUNCTION fault|call OBJECT+0xOFFSET", then the
 * exported function the caller lies in, when there is one. */
static void
log_call(unsigned long long n, enum fn i, int fail, const void *caller)
{
	char buf[512], num[32];
	const char *obj;
	Dl_info dl;
	size_t len = 0;

	num[sizeof(num) - 1] = '\0';
	len = append(buf, len, sizeof(buf), fmt(num + sizeof(num) - 1, n,
	    10));
	len = append(buf, len, sizeof(buf), " ");
	len = append(buf, len, sizeof(buf), fns[i].name);
	len = append(buf, len, sizeof(buf), fail ? " fault " : " call ");
	if (dladdr(caller, &dl) != 0 && dl.dli_fname != NULL) {
		obj = strrchr(dl.dli_fname, '/');
		len = append(buf, len, sizeof(buf), obj ? obj + 1 :
		    dl.dli_fname);
		len = append(buf, len, sizeof(buf), "+0x");
		len = append(buf, len, sizeof(buf), fmt(num + sizeof(num) - 1,
		    (unsigned long long)((const char *)caller -
		    (const char *)dl.dli_fbase), 16));
		if (dl.dli_sname != NULL) {
			len = append(buf, len, sizeof(buf), " ");
			len = append(buf, len, sizeof(buf), dl.dli_sname);
		}
	} else
		len = append(buf, len, sizeof(buf), "?");
	len = append(buf, len, sizeof(buf) - 1, "\n");
	((ssize_t (*)(int, const void *, size_t))sym(F_WRITE))(logfd, buf,
	    len);
}

/*
 * Count a call of function i from caller, if selected; whether it must
 * fail.  Calls from inside the shim are not the program's: not counted.
 */
static int
hit(enum fn i, const void *caller)
{
	unsigned long long n;
	int fail, saved;

	if (inshim)
		return 0;
	setup();
	if (!(sel & BIT(i)))
		return 0;
	if (from != 0 && ((uintptr_t)caller >= proglo &&
	    (uintptr_t)caller < proghi) != (from == 1))
		return 0;
	n = __atomic_add_fetch(&count, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&fncount[i], 1, __ATOMIC_RELAXED);
	fail = at != 0 && (n == at || (sticky && n > at));
	if (logfd >= 0 && (fail || at == 0)) {
		saved = errno;
		inshim++;
		log_call(n, i, fail, caller);
		inshim--;
		errno = saved;
	}
	return fail;
}

#define HIT(i) hit((i), __builtin_return_address(0))
#define REAL(i, type) ((type)sym(i))

/* At exit: the number of calls counted, then "NAME COUNT" for each
 * function called. */
__attribute__((destructor)) static void
fini(void)
{
	char buf[64], num[32];
	size_t len;
	int fd, i;

	if (countpath == NULL)
		return;
	inshim++;
	num[sizeof(num) - 1] = '\0';
	fd = REAL(F_OPEN, int (*)(const char *, int, ...))(countpath,
	    O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	for (i = -1; fd >= 0 && i < F_FREE; i++) {
		if (i >= 0 && fncount[i] == 0)
			continue;
		len = 0;
		if (i >= 0) {
			len = append(buf, len, sizeof(buf), fns[i].name);
			len = append(buf, len, sizeof(buf), " ");
		}
		len = append(buf, len, sizeof(buf), fmt(num + sizeof(num) - 1,
		    i < 0 ? count : fncount[i], 10));
		len = append(buf, len, sizeof(buf), "\n");
		REAL(F_WRITE, ssize_t (*)(int, const void *, size_t))(fd, buf,
		    len);
	}
	if (fd >= 0)
		REAL(F_CLOSE, int (*)(int))(fd);
	inshim--;
}

/* A failed stdio call: errno, and the stream's error indicator as a
 * failed write would leave it (glibc's flag, where it is visible). */
static void
stdio_fail(FILE *f)
{
#ifdef _IO_ERR_SEEN
	if (f != NULL)
		f->_flags |= _IO_ERR_SEEN;
#else
	(void)f;
#endif
	errno = ferr;
}

/* write */

ssize_t
write(int fd, const void *p, size_t n)
{
	if (HIT(F_WRITE)) {
		if (!shortw) {
			errno = ferr;
			return -1;
		}
		if (n > 1)
			n /= 2;
	}
	return REAL(F_WRITE, ssize_t (*)(int, const void *, size_t))(fd, p,
	    n);
}

ssize_t
pwrite(int fd, const void *p, size_t n, off_t off)
{
	if (HIT(F_PWRITE)) {
		if (!shortw) {
			errno = ferr;
			return -1;
		}
		if (n > 1)
			n /= 2;
	}
	return REAL(F_PWRITE, ssize_t (*)(int, const void *, size_t,
	    off_t))(fd, p, n, off);
}

ssize_t
pwrite64(int fd, const void *p, size_t n, off64_t off)
{
	if (HIT(F_PWRITE64)) {
		if (!shortw) {
			errno = ferr;
			return -1;
		}
		if (n > 1)
			n /= 2;
	}
	return REAL(F_PWRITE64, ssize_t (*)(int, const void *, size_t,
	    off64_t))(fd, p, n, off);
}

ssize_t
writev(int fd, const struct iovec *iov, int n)
{
	if (HIT(F_WRITEV)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_WRITEV, ssize_t (*)(int, const struct iovec *,
	    int))(fd, iov, n);
}

/* fsync */

int
fsync(int fd)
{
	if (HIT(F_FSYNC)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_FSYNC, int (*)(int))(fd);
}

int
fdatasync(int fd)
{
	if (HIT(F_FDATASYNC)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_FDATASYNC, int (*)(int))(fd);
}

/* rename */

int
rename(const char *from, const char *to)
{
	if (HIT(F_RENAME)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_RENAME, int (*)(const char *, const char *))(from, to);
}

int
renameat(int fromfd, const char *from, int tofd, const char *to)
{
	if (HIT(F_RENAMEAT)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_RENAMEAT, int (*)(int, const char *, int,
	    const char *))(fromfd, from, tofd, to);
}

int
renameat2(int fromfd, const char *from, int tofd, const char *to,
    unsigned int flags)
{
	void *f;

	if (HIT(F_RENAMEAT2)) {
		errno = ferr;
		return -1;
	}
	if ((f = sym(F_RENAMEAT2)) == NULL) {
		errno = ENOSYS;
		return -1;
	}
	return ((int (*)(int, const char *, int, const char *,
	    unsigned int))f)(fromfd, from, tofd, to, flags);
}

/* mmap */

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	if (HIT(F_MMAP)) {
		errno = ferr;
		return MAP_FAILED;
	}
	return REAL(F_MMAP, void *(*)(void *, size_t, int, int, int,
	    off_t))(addr, len, prot, flags, fd, off);
}

void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off64_t off)
{
	if (HIT(F_MMAP64)) {
		errno = ferr;
		return MAP_FAILED;
	}
	return REAL(F_MMAP64, void *(*)(void *, size_t, int, int, int,
	    off64_t))(addr, len, prot, flags, fd, off);
}

/* malloc: a failed allocation sets ENOMEM whatever FAULT_ERRNO says. */

void *
malloc(size_t n)
{
	void *f;

	if ((f = sym(F_MALLOC)) == NULL)
		return boot_alloc(n);
	if (HIT(F_MALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return ((void *(*)(size_t))f)(n);
}

void *
calloc(size_t n, size_t size)
{
	void *f, *p;

	if ((f = sym(F_CALLOC)) == NULL) {
		if (size != 0 && n > SIZE_MAX / size)
			return NULL;
		if ((p = boot_alloc(n * size)) != NULL)
			memset(p, 0, n * size);
		return p;
	}
	if (HIT(F_CALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return ((void *(*)(size_t, size_t))f)(n, size);
}

void *
realloc(void *p, size_t n)
{
	size_t old;
	void *f, *np;

	if ((f = sym(F_REALLOC)) == NULL || is_boot(p)) {
		if ((np = malloc(n)) != NULL && p != NULL) {
			memcpy(&old, (char *)p - 16, sizeof(old));
			memcpy(np, p, old < n ? old : n);
		}
		return np;
	}
	if (HIT(F_REALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return ((void *(*)(void *, size_t))f)(p, n);
}

int
posix_memalign(void **pp, size_t align, size_t n)
{
	void *f;

	if ((f = sym(F_POSIX_MEMALIGN)) == NULL || HIT(F_POSIX_MEMALIGN))
		return ENOMEM;
	return ((int (*)(void **, size_t, size_t))f)(pp, align, n);
}

void *
aligned_alloc(size_t align, size_t n)
{
	void *f;

	if ((f = sym(F_ALIGNED_ALLOC)) == NULL || HIT(F_ALIGNED_ALLOC)) {
		errno = ENOMEM;
		return NULL;
	}
	return ((void *(*)(size_t, size_t))f)(align, n);
}

void
free(void *p)
{
	void *f;

	if (p == NULL || is_boot(p))
		return;
	if ((f = sym(F_FREE)) != NULL)
		((void (*)(void *))f)(p);
}

/* pread */

ssize_t
pread(int fd, void *p, size_t n, off_t off)
{
	if (HIT(F_PREAD)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_PREAD, ssize_t (*)(int, void *, size_t, off_t))(fd, p,
	    n, off);
}

ssize_t
pread64(int fd, void *p, size_t n, off64_t off)
{
	if (HIT(F_PREAD64)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_PREAD64, ssize_t (*)(int, void *, size_t,
	    off64_t))(fd, p, n, off);
}

/* open, for writing only: reads are not counted. */

static int
writing(int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY ||
	    (flags & (O_CREAT | O_TRUNC | O_APPEND)) != 0;
}

static int
writing_mode(const char *mode)
{
	return strpbrk(mode, "wa+") != NULL;
}

/* The mode argument of open, present with O_CREAT or O_TMPFILE. */
#ifdef O_TMPFILE
#define HAS_MODE(flags) ((flags) & O_CREAT || ((flags) & O_TMPFILE) == \
	O_TMPFILE)
#else
#define HAS_MODE(flags) ((flags) & O_CREAT)
#endif

int
open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (HAS_MODE(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, unsigned int);
		va_end(ap);
	}
	if (writing(flags) && HIT(F_OPEN)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_OPEN, int (*)(const char *, int, ...))(path, flags,
	    mode);
}

int
open64(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (HAS_MODE(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, unsigned int);
		va_end(ap);
	}
	if (writing(flags) && HIT(F_OPEN64)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_OPEN64, int (*)(const char *, int, ...))(path, flags,
	    mode);
}

int
openat(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (HAS_MODE(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, unsigned int);
		va_end(ap);
	}
	if (writing(flags) && HIT(F_OPENAT)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_OPENAT, int (*)(int, const char *, int, ...))(dirfd,
	    path, flags, mode);
}

int
openat64(int dirfd, const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (HAS_MODE(flags)) {
		va_start(ap, flags);
		mode = (mode_t)va_arg(ap, unsigned int);
		va_end(ap);
	}
	if (writing(flags) && HIT(F_OPENAT64)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_OPENAT64, int (*)(int, const char *, int, ...))(dirfd,
	    path, flags, mode);
}

int
creat(const char *path, mode_t mode)
{
	if (HIT(F_CREAT)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_CREAT, int (*)(const char *, mode_t))(path, mode);
}

FILE *
fopen(const char *path, const char *mode)
{
	if (writing_mode(mode) && HIT(F_FOPEN)) {
		errno = ferr;
		return NULL;
	}
	return REAL(F_FOPEN, FILE *(*)(const char *, const char *))(path,
	    mode);
}

FILE *
fopen64(const char *path, const char *mode)
{
	if (writing_mode(mode) && HIT(F_FOPEN64)) {
		errno = ferr;
		return NULL;
	}
	return REAL(F_FOPEN64, FILE *(*)(const char *, const char *))(path,
	    mode);
}

int
mkstemp(char *tmpl)
{
	if (HIT(F_MKSTEMP)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_MKSTEMP, int (*)(char *))(tmpl);
}

int
mkstemp64(char *tmpl)
{
	if (HIT(F_MKSTEMP64)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_MKSTEMP64, int (*)(char *))(tmpl);
}

int
mkdir(const char *path, mode_t mode)
{
	if (HIT(F_MKDIR)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_MKDIR, int (*)(const char *, mode_t))(path, mode);
}

/* ftruncate */

int
ftruncate(int fd, off_t len)
{
	if (HIT(F_FTRUNCATE)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_FTRUNCATE, int (*)(int, off_t))(fd, len);
}

int
ftruncate64(int fd, off64_t len)
{
	if (HIT(F_FTRUNCATE64)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_FTRUNCATE64, int (*)(int, off64_t))(fd, len);
}

/* spawn: the pipes, child processes and threads of a decompressor.  A
 * child runs without the shim: it is not the program under test. */

int
pipe(int fd[2])
{
	if (HIT(F_PIPE)) {
		errno = ferr;
		return -1;
	}
	return REAL(F_PIPE, int (*)(int *))(fd);
}

int
posix_spawnp(pid_t *pid, const char *file,
    const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
    char *const argv[], char *const envp[])
{
	char *env[256];
	size_t i, n = 0;

	if (HIT(F_POSIX_SPAWNP))
		return ferr;
	for (i = 0; envp != NULL && envp[i] != NULL && n < 255; i++)
		if (strncmp(envp[i], "LD_PRELOAD=", 11) != 0 &&
		    strncmp(envp[i], "FAULT_", 6) != 0)
			env[n++] = envp[i];
	env[n] = NULL;
	return REAL(F_POSIX_SPAWNP, int (*)(pid_t *, const char *,
	    const posix_spawn_file_actions_t *, const posix_spawnattr_t *,
	    char *const *, char *const *))(pid, file, fa, attr, argv, env);
}

int
pthread_create(pthread_t *t, const pthread_attr_t *attr,
    void *(*fn)(void *), void *arg)
{
	if (HIT(F_PTHREAD_CREATE))
		return ferr == EIO ? EAGAIN : ferr;
	return REAL(F_PTHREAD_CREATE, int (*)(pthread_t *,
	    const pthread_attr_t *, void *(*)(void *), void *))(t, attr, fn,
	    arg);
}

FILE *
fdopen(int fd, const char *mode)
{
	if (HIT(F_FDOPEN)) {
		errno = ENOMEM;
		return NULL;
	}
	return REAL(F_FDOPEN, FILE *(*)(int, const char *))(fd, mode);
}

/* close: as on Linux, the descriptor is closed even when it fails. */

int
close(int fd)
{
	int r;

	r = REAL(F_CLOSE, int (*)(int))(fd);
	if (r == 0 && HIT(F_CLOSE)) {
		errno = ferr;
		return -1;
	}
	return r;
}

/* stdio, on any stream but stderr (where the diagnostic goes). */

size_t
fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	if (f != stderr && size != 0 && n != 0 && HIT(F_FWRITE)) {
		stdio_fail(f);
		return 0;
	}
	return REAL(F_FWRITE, size_t (*)(const void *, size_t, size_t,
	    FILE *))(p, size, n, f);
}

int
fputs(const char *s, FILE *f)
{
	if (f != stderr && HIT(F_FPUTS)) {
		stdio_fail(f);
		return EOF;
	}
	return REAL(F_FPUTS, int (*)(const char *, FILE *))(s, f);
}

int
fputc(int c, FILE *f)
{
	if (f != stderr && HIT(F_FPUTC)) {
		stdio_fail(f);
		return EOF;
	}
	return REAL(F_FPUTC, int (*)(int, FILE *))(c, f);
}

int
putc(int c, FILE *f)
{
	if (f != stderr && HIT(F_PUTC)) {
		stdio_fail(f);
		return EOF;
	}
	return REAL(F_PUTC, int (*)(int, FILE *))(c, f);
}

int
putchar(int c)
{
	if (HIT(F_PUTCHAR)) {
		stdio_fail(stdout);
		return EOF;
	}
	return REAL(F_PUTCHAR, int (*)(int))(c);
}

int
puts(const char *s)
{
	if (HIT(F_PUTS)) {
		stdio_fail(stdout);
		return EOF;
	}
	return REAL(F_PUTS, int (*)(const char *))(s);
}

int
vfprintf(FILE *f, const char *format, va_list ap)
{
	if (f != stderr && HIT(F_VFPRINTF)) {
		stdio_fail(f);
		return -1;
	}
	return REAL(F_VFPRINTF, int (*)(FILE *, const char *,
	    va_list))(f, format, ap);
}

int
vprintf(const char *format, va_list ap)
{
	if (HIT(F_VPRINTF)) {
		stdio_fail(stdout);
		return -1;
	}
	return REAL(F_VFPRINTF, int (*)(FILE *, const char *,
	    va_list))(stdout, format, ap);
}

int
fprintf(FILE *f, const char *format, ...)
{
	va_list ap;
	int r;

	if (f != stderr && HIT(F_FPRINTF)) {
		stdio_fail(f);
		return -1;
	}
	va_start(ap, format);
	r = REAL(F_VFPRINTF, int (*)(FILE *, const char *, va_list))(f,
	    format, ap);
	va_end(ap);
	return r;
}

int
printf(const char *format, ...)
{
	va_list ap;
	int r;

	if (HIT(F_PRINTF)) {
		stdio_fail(stdout);
		return -1;
	}
	va_start(ap, format);
	r = REAL(F_VFPRINTF, int (*)(FILE *, const char *, va_list))(stdout,
	    format, ap);
	va_end(ap);
	return r;
}

int
fflush(FILE *f)
{
	if (f != stderr && HIT(F_FFLUSH)) {
		stdio_fail(f);
		return EOF;
	}
	return REAL(F_FFLUSH, int (*)(FILE *))(f);
}

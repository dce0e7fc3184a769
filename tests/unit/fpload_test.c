/*
 * near/fpload: IDs left in their files and read back after (as a join
 * of pairs does) are those a load with IDs holds, for any threads and
 * files, with bad lines, CRLF and IDs of any length among them; a file
 * changed in between is found out (SH_ECHANGED), a file gone is an
 * error of its own, and nothing is read from a stream that is no file.
 */
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "near/fpload.h"
#include "rng.h"
#include "tap.h"

static char path[2][4096];

static void
bad(void *ctx, unsigned long long line, int err, const char *p, size_t len)
{
	(void)line;
	(void)err;
	(void)p;
	(void)len;
	++*(int *)ctx;
}

/* Write lines fingerprint lines to file i: some bad, some CRLF, IDs of
 * 0 to 40 bytes. */
static void
make_file(int i, size_t lines)
{
	FILE *f = fopen(path[i], "w");
	size_t j, k, len;
	uint64_t r;

	for (j = 0; j < lines; j++) {
		r = next();
		if (r % 50 == 0)
			fprintf(f, "not a fingerprint %zu\n", j);
		fprintf(f, "%016llx\t", (unsigned long long)next());
		for (len = r >> 8 & 31, k = 0; k < len + (r % 7 == 0 ? 9 : 0);
		    k++)
			putc("abcdefghij/:."[next() % 13], f);
		fputs(r % 9 == 0 ? "\r\n" : "\n", f);
	}
	fclose(f);
}

/* Load both files into l, with IDs or, into files, without. */
static int
load(struct sh_fplist *l, int nthreads, struct sh_fpfiles *files,
    int *nbad)
{
	FILE *f;
	int i, e = 0;

	sh_fplist_init(l);
	for (i = 0; e == 0 && i < 2; i++) {
		f = fopen(path[i], "r");
		e = sh_fpload(l, f, path[i], nthreads, files, bad, nbad, NULL);
		fclose(f);
	}
	return e;
}

/* Whether the IDs of the entries of have in got are those of want. */
static int
same_ids(const struct sh_fplist *want, const struct sh_fplist *got,
    const uint64_t *have)
{
	const char *a, *b;
	size_t i, alen, blen;

	if (want->n != got->n || memcmp(want->fp, got->fp, want->n *
	    sizeof(*want->fp)) != 0)
		return 0;
	for (i = 0; i < want->n; i++) {
		if (!(have[i >> 6] >> (i & 63) & 1))
			continue;
		a = sh_fplist_id(want, i, &alen);
		b = sh_fplist_id(got, i, &blen);
		if (alen != blen || memcmp(a, b, alen) != 0)
			return 0;
	}
	return 1;
}

static uint64_t *
pick(size_t n, int every)
{
	uint64_t *have = calloc(n / 64 + 1, sizeof(*have));
	size_t i;

	for (i = 0; i < n; i++)
		if (every || next() % 3 == 0)
			have[i >> 6] |= (uint64_t)1 << (i & 63);
	return have;
}

/* Load path 0 and 1 without IDs; change file 0 by fn; read the IDs back.
 * Return the error, whether file 0 is named in *named. */
static int
changed(void (*fn)(void), int *named)
{
	struct sh_fplist l;
	struct sh_fpfiles files = { NULL, 0, 0 };
	const char *which = NULL;
	int nbad = 0, e, errnum;

	if ((e = load(&l, 2, &files, &nbad)) == 0) {
		fn();
		e = sh_fpload_ids(&l, &files, pick(l.n, 1), NULL, &which);
	}
	errnum = errno;
	*named = which != NULL && strcmp(which, path[0]) == 0;
	sh_fplist_free(&l);
	sh_fpfiles_free(&files);
	errno = errnum;
	return e;
}

/* A fingerprint digit changed in the middle of file 0, its size and
 * time kept. */
static void
flip_digit(void)
{
	struct stat st;
	struct timespec ts[2];
	char c;
	int fd = open(path[0], O_RDWR);
	off_t at;

	fstat(fd, &st);
	for (at = st.st_size / 2; pread(fd, &c, 1, at) == 1 && c != '\n';
	    at++)
		;
	c = '0';
	if (pread(fd, &c, 1, at + 1) == 1)
		c = c == '0' ? '1' : '0';
	if (pwrite(fd, &c, 1, at + 1) != 1)
		abort();
	ts[0] = st.st_atim;
	ts[1] = st.st_mtim;
	futimens(fd, ts);
	close(fd);
}

static void
append_line(void)
{
	FILE *f = fopen(path[0], "a");

	fputs("0123456789abcdef\tnew\n", f);
	fclose(f);
}

static void
remove_file(void)
{
	unlink(path[0]);
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR"), *which;
	struct sh_fplist with, without;
	struct sh_fpfiles files = { NULL, 0, 0 };
	uint64_t *have;
	size_t sum, j;
	int i, nthreads, every, nbad[2], e, fd, named;
	FILE *f;

	for (i = 0; i < 2; i++) {
		snprintf(path[i], sizeof(path[i]), "%s/fpload_testXXXXXX",
		    tmp != NULL ? tmp : "/tmp");
		if ((fd = mkstemp(path[i])) < 0) {
			ok(0, "temporary file");
			return tap_done();
		}
		close(fd);
	}
	/* 3.4 MiB: 3 shares of 3 threads; and 30 KiB: one. */
	make_file(0, 100000);
	make_file(1, 1000);
	for (nthreads = 1; nthreads <= 3; nthreads++)
		for (every = 0; every < 2; every++) {
			nbad[0] = nbad[1] = 0;
			e = load(&with, nthreads, NULL, &nbad[0]);
			ok(e == 0 && with.n > 100000 && !with.noids,
			    "%d threads: loaded with IDs", nthreads);
			e = load(&without, nthreads, &files, &nbad[1]);
			ok(e == 0 && without.noids && without.idoff == NULL &&
			    without.ids == NULL && nbad[0] == nbad[1] &&
			    nbad[0] > 1000, "%d threads: loaded without IDs "
			    "(%d bad lines)", nthreads, nbad[1]);
			for (sum = 0, j = 0; j < (size_t)files.v[0].nshares;
			    j++)
				sum += files.v[0].count[j];
			ok(files.n == 2 && files.v[0].nshares == nthreads &&
			    files.v[1].nshares == 1 && files.v[0].first == 0 &&
			    files.v[1].first == sum && sum +
			    files.v[1].count[0] == without.n,
			    "%d threads: the files and their shares",
			    nthreads);
			have = pick(with.n, every);
			e = sh_fpload_ids(&without, &files, have, NULL, &which);
			ok(e == 0 && same_ids(&with, &without, have),
			    "%d threads: %s IDs read back", nthreads, every ?
			    "all" : "a third of the");
			sh_fplist_free(&with);
			sh_fplist_free(&without);
			sh_fpfiles_free(&files);
		}

	e = changed(flip_digit, &named);
	ok(e == SH_ECHANGED && named,
	    "a fingerprint changed, size and time kept: SH_ECHANGED (%d)", e);
	e = changed(append_line, &named);
	ok(e == SH_ECHANGED && named, "a line appended: SH_ECHANGED (%d)", e);
	e = changed(remove_file, &named);
	ok(e == SH_EIO && errno == ENOENT && named,
	    "the file removed: SH_EIO, ENOENT (%d)", e);

	/* A pipe is no file to read back from. */
	sh_fplist_init(&without);
	f = popen("echo 0123456789abcdef\tx", "r");
	e = sh_fpload(&without, f, NULL, 2, &files, bad, &nbad[0], NULL);
	ok(e == SH_ENOTREG && without.n == 0 && files.n == 0,
	    "a pipe: SH_ENOTREG, nothing read");
	pclose(f);
	sh_fplist_free(&without);
	unlink(path[1]);
	return tap_done();
}

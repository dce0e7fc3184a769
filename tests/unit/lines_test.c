/*
 * base/lines: a regular file, read in blocks, gives the lines a pipe
 * gives, read by getdelim, and both the lines that were written: lines
 * across block boundaries, longer than a block, empty, CRLF, with NULs,
 * a last line without its delimiter, a byte range; a read that fails
 * once, told with its errno after the lines read before it.
 */
#define _GNU_SOURCE	/* fopencookie: a stream whose read fails once */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/lines.h"
#include "rng.h"
#include "tap.h"

#define MAXLINES 2000

static char *text;		/* the file */
static size_t textlen, textcap, starts[MAXLINES + 1], nlines;

/* Lines of random lengths, some longer than a block (64 KiB), ending
 * in delim or CR delim; the last without delim when open_end. */
static void
make_text(int delim, int open_end)
{
	size_t i, j, len;
	uint64_t r;

	textlen = 0;
	nlines = 1000 + next() % 1000;
	for (i = 0; i < nlines; i++) {
		starts[i] = textlen;
		r = next();
		len = r % 8 == 0 ? 0 : r % 97 == 0 ? 65536 + next() % 200000 :
		    next() % 300;
		if (textlen + len + 2 > textcap) {
			textcap = 2 * (textlen + len + 2);
			if ((text = realloc(text, textcap)) == NULL)
				abort();
		}
		for (j = 0; j < len; j++) {
			text[textlen] = (char)(next() % 256);
			if (text[textlen] == delim || text[textlen] == '\r')
				text[textlen] = 'x';
			textlen++;
		}
		if (r % 5 == 0)
			text[textlen++] = '\r';
		if (i + 1 < nlines || !open_end)
			text[textlen++] = (char)delim;
		else	/* an open last line of no byte is no line */
			text[textlen++] = 'x';
	}
	starts[nlines] = textlen;
}

/* The expected line i (without delim and one CR before it, CR only
 * dropped for '\n'). */
static size_t
want(size_t i, int delim, const char **p)
{
	size_t len = starts[i + 1] - starts[i];

	*p = text + starts[i];
	if (len > 0 && text[starts[i] + len - 1] == delim)
		len--;
	if (delim == '\n' && len > 0 && text[starts[i] + len - 1] == '\r')
		len--;
	return len;
}

/* Read f by lines from byte start to end (-1: to the end) and compare
 * them with lines first..: return the lines read, or -1 on a mismatch. */
static long
check(FILE *f, int delim, size_t first, long long end)
{
	struct sh_lines l;
	const char *p, *w;
	size_t len, i = first;
	int e;

	sh_lines_init(&l, f, delim);
	l.off = (long long)starts[first];
	l.end = end;
	while ((e = sh_lines_next(&l, &p, &len)) == 1) {
		if (i >= nlines || len != want(i, delim, &w) ||
		    memcmp(p, w, len) != 0 ||
		    l.lineoff != (long long)starts[i] ||
		    l.off != (long long)starts[i + 1]) {
			sh_lines_free(&l);
			return -1;
		}
		i++;
	}
	sh_lines_free(&l);
	return e == 0 ? (long)(i - first) : -1;
}

/* A stream of "line 0\n" to "line 99\n", read 50 bytes a time, whose
 * read number fail fails with EIO; the reads after it go on. */
struct flaky {
	char text[1000];
	size_t len, at;
	int reads, fail;
};

static ssize_t
flaky_read(void *c, char *buf, size_t n)
{
	struct flaky *k = c;

	if (++k->reads == k->fail) {
		errno = EIO;
		return -1;
	}
	if (n > 50)
		n = 50;
	if (n > k->len - k->at)
		n = k->len - k->at;
	memcpy(buf, k->text + k->at, n);
	k->at += n;
	return (ssize_t)n;
}

/* Lines of a flaky stream read as a file in blocks (block) or as a pipe
 * by getdelim: the lines, in order, up to the failure (blocks: the
 * lines after it too, read again), then SH_EIO, errno EIO and
 * its message (not errno 0's "Success").  Return 0 when so. */
static int
flaky_check(int block, int fail)
{
	cookie_io_functions_t io = { flaky_read, NULL, NULL, NULL };
	struct flaky k;
	struct sh_lines l;
	const char *p;
	char want[16];
	size_t len, i = 0, n;
	int r, bad = 0;
	FILE *f;

	memset(&k, 0, sizeof(k));
	for (k.len = 0; i < 100; i++)
		k.len += (size_t)sprintf(k.text + k.len, "line %zu\n", i);
	k.fail = fail;
	if ((f = fopencookie(&k, "r", io)) == NULL)
		return -1;
	setvbuf(f, NULL, _IOFBF, 64);
	sh_lines_init(&l, f, '\n');
	l.block = block;
	for (i = 0; (r = sh_lines_next(&l, &p, &len)) == 1; i++) {
		n = (size_t)sprintf(want, "line %zu", i);
		bad += len != n || memcmp(p, want, n) != 0;
	}
	bad += r != SH_EIO || errno != EIO ||
	    strcmp(sh_strerror(r), strerror(EIO)) != 0 || i == 0 || i > 100;
	sh_lines_free(&l);
	fclose(f);
	return bad;
}

int
main(void)
{
	const char *tmp = getenv("TMPDIR");
	char *full, cmd[4200];
	FILE *f, *pipe;
	size_t mid;
	long got, piped;
	int fd, round, delim, open_end;

	full = malloc(strlen(tmp != NULL ? tmp : "/tmp") + 32);
	sprintf(full, "%s/lines_testXXXXXX", tmp != NULL ? tmp : "/tmp");
	if ((fd = mkstemp(full)) < 0) {
		ok(0, "temporary file");
		return tap_done();
	}
	for (round = 0; round < 8; round++) {
		delim = round & 1 ? '\0' : '\n';
		open_end = round >> 1 & 1;
		make_text(delim, open_end);
		if (ftruncate(fd, 0) != 0 || pwrite(fd, text, textlen, 0) !=
		    (ssize_t)textlen) {
			ok(0, "file written");
			break;
		}
		f = fopen(full, "r");
		got = check(f, delim, 0, -1);
		fclose(f);
		snprintf(cmd, sizeof(cmd), "cat '%s'", full);
		pipe = popen(cmd, "r");
		piped = check(pipe, delim, 0, -1);
		pclose(pipe);
		ok(got == (long)nlines && piped == got, "%s-delimited, %s: "
		    "a file read in blocks and a pipe give the %zu lines "
		    "(%ld, %ld)", delim ? "newline" : "NUL", open_end ?
		    "the last line open" : "every line ended", nlines, got,
		    piped);

		/* A range: the lines starting in [start of line mid, start
		 * of line mid + 10 + 1 byte). */
		mid = nlines / 2;
		f = fopen(full, "r");
		fseek(f, (long)starts[mid], SEEK_SET);
		got = check(f, delim, mid, (long long)starts[mid + 10] + 1);
		fclose(f);
		ok(got == 11, "%s-delimited: a byte range gives the lines "
		    "starting in it (%ld)", delim ? "newline" : "NUL", got);
	}

	/* Shares (sh_lines_share): 1 to 4 of them read every line once,
	 * in order.  The text is the last round's. */
	for (round = 1; round <= 4; round++) {
		struct sh_lines l;
		const char *p, *w;
		size_t len, at = 0;
		int i, bad = 0;

		for (i = 0; i < round; i++) {
			f = fopen(full, "r");
			sh_lines_init(&l, f, '\0');
			bad += sh_lines_share(&l, (long long)textlen, i, round)
			    != 0;
			while (sh_lines_next(&l, &p, &len) == 1)
				bad += at >= nlines || len != want(at, '\0',
				    &w) || memcmp(p, w, len) != 0 ||
				    l.lineoff != (long long)starts[at++];
			sh_lines_free(&l);
			fclose(f);
		}
		ok(bad == 0 && at == nlines, "%d shares read the %zu lines "
		    "once, in order (%zu)", round, nlines, at);
	}

	/* Raw bytes after a line, then a seek back: a WARC reader's moves.
	 * The text is the last round's (newline-delimited, open end). */
	make_text('\n', 1);
	if (ftruncate(fd, 0) == 0 && pwrite(fd, text, textlen, 0) ==
	    (ssize_t)textlen) {
		struct sh_lines l;
		const char *p, *w;
		char raw[100];
		size_t len, got;
		int bad = 0;

		f = fopen(full, "r");
		sh_lines_init(&l, f, '\n');
		bad += sh_lines_next(&l, &p, &len) != 1;
		got = sh_lines_read(&l, raw, sizeof(raw));
		bad += got != sizeof(raw) || memcmp(raw, text + starts[1],
		    got) != 0;
		bad += sh_lines_seek(&l, (long long)starts[5]) != 0 ||
		    sh_lines_next(&l, &p, &len) != 1 ||
		    len != want(5, '\n', &w) || memcmp(p, w, len) != 0 ||
		    l.lineoff != (long long)starts[5];
		sh_lines_free(&l);
		fclose(f);
		ok(bad == 0, "raw bytes after a line, and a seek, read the "
		    "file's bytes");
	}

	/* An empty file: no line. */
	if (ftruncate(fd, 0) == 0) {
		f = fopen(full, "r");
		nlines = 0;
		starts[0] = 0;
		ok(check(f, '\n', 0, -1) == 0, "an empty file has no line");
		fclose(f);
	}
	/* A read that fails once, in the middle: told at once (getdelim)
	 * or after the lines of the block it cut short, with its errno. */
	for (round = 0; round < 2; round++) {
		int bad = 0, fail;

		for (fail = 3; fail < 12; fail++)
			bad += flaky_check(round, fail) != 0;
		ok(bad == 0, "%s: a read failing once in the middle gives the "
		    "lines before it, then SH_EIO, errno EIO", round ?
		    "blocks" : "getdelim");
	}
	errno = 0;
	ok(strcmp(sh_strerror(SH_EIO), "read error") == 0, "SH_EIO of errno 0 "
	    "is a read error, not \"Success\"");
	close(fd);
	unlink(full);
	free(full);
	free(text);
	return tap_done();
}

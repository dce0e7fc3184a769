/*
 * Opening the operands, and reading fingerprint lines from them.
 */
#define _GNU_SOURCE		/* fopencookie */
#include <sys/stat.h>
#include <sys/types.h>

#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/io.h"
#include "base/lines.h"
#include "base/zmap.h"
#include "base/zpipe.h"
#include "near/fpline.h"
#include "near/fplist.h"
#include "near/fpload.h"
#include "diag.h"
#include "input.h"
#include "progress.h"

/*
 * The operands read through a decompressor, or given back by a thread
 * after their first bytes were read to tell (base/zpipe.h), and what
 * diagnostics call them.  Standard input, once read so, is taken: "-"
 * again reads nothing.
 */
#define NZIN 16
static struct zin {
	FILE *f;
	struct sh_zpipe z;
	const char *shown;
	int ended;
	/* input_map_members: the decoded bytes read on z.out through a
	 * stream of ours, that zm maps (on the file's fd, zfd) as they
	 * pass; the map once the decompressor exited 0 */
	struct sh_zmapper *zm;
	int zfd;
	struct sh_zmap *map;
	/* input_spool: the decoded bytes as read, copied to spool (NULL
	 * once a write failed), and what file they are of */
	FILE *spool;
	const char *name;
	dev_t dev;
	ino_t ino;
} zin[NZIN];
static int stdin_taken;
static int map_members;
static int spooling;

/* The files decoded whole once with input_spool: their names as given,
 * and the copies of their decoded bytes, read again by input_open. */
static struct spooled {
	char *name;
	dev_t dev;
	ino_t ino;
	FILE *f;
} *spooled;
static size_t nspooled;
static int nomem;	/* a read stopped for want of memory, reported */

/* A read of shown stopped for want of memory (errno ENOMEM, or SH_ENOMEM
 * of a reader): said once, in the one message of it, and no operand read
 * after it (input_nomem). */
static void
say_nomem(const char *shown)
{
	warnx("%s: %s", shown, sh_strerror(SH_ENOMEM));
	nomem = 1;
}

int
input_nomem(void)
{
	return nomem;
}

/* What mapping z took, let go. */
static void
zin_unmap(struct zin *z)
{
	sh_zmap_abort(z->zm);
	sh_zmap_free(z->map);
	if (z->zfd >= 0)
		close(z->zfd);
	if (z->spool != NULL)
		fclose(z->spool);
	z->zm = NULL;
	z->map = NULL;
	z->zfd = -1;
	z->spool = NULL;
}

void
input_map_members(int on)
{
	map_members = on;
}

void
input_spool(int on)
{
	spooling = on;
}

/* The decoded bytes of a mapped or spooled file, read: given to its
 * mapper too, which a failure (out of memory) lets go, the map to be
 * built later; and copied to its spool, which a failure (the disk full)
 * lets go, the file to be decoded again. */
static ssize_t
mapped_read(void *c, char *buf, size_t n)
{
	struct zin *z = c;
	ssize_t k;

	while ((k = read(z->z.out, buf, n)) < 0 && errno == EINTR)
		;
	if (k > 0 && z->zm != NULL && sh_zmap_data(z->zm, buf,
	    (size_t)k) != 0) {
		sh_zmap_abort(z->zm);
		z->zm = NULL;
	}
	if (k > 0 && z->spool != NULL && fwrite(buf, 1, (size_t)k,
	    z->spool) != (size_t)k) {
		fclose(z->spool);
		z->spool = NULL;
	}
	return k;
}

static int
mapped_close(void *c)
{
	struct zin *z = c;

	return close(z->z.out);
}

/* The stream of the decoded bytes on z->out of entry i: a mapped one for
 * a gzip file with input_map_members (zfd, a copy of its descriptor, or
 * -1), and with input_spool (st: the file, NULL for a pipe) one whose
 * bytes are copied to a temporary file. */
static FILE *
zin_stream(int i, struct sh_zpipe *z, int zfd, const struct stat *st)
{
	static const cookie_io_functions_t io = { mapped_read, NULL, NULL,
		mapped_close };

	zin[i].zm = NULL;
	zin[i].map = NULL;
	zin[i].zfd = zfd;
	zin[i].spool = NULL;
	if (spooling && st != NULL && sh_tmpfile(input_tmpdir(),
	    &zin[i].spool) == 0) {
		(void)setvbuf(zin[i].spool, NULL, _IOFBF, 1 << 16);
		zin[i].dev = st->st_dev;
		zin[i].ino = st->st_ino;
	}
	if (zfd < 0 && zin[i].spool == NULL)
		return fdopen(z->out, "r");
	if (zfd >= 0 && sh_zmap_begin(&zin[i].zm, zfd) != 0)
		zin[i].zm = NULL;
	zin[i].z = *z;
	return fopencookie(&zin[i], "r", io);
}

/* The stream of the decoded bytes of f, of that kind, from z (r: how
 * starting it went; fed: a thread reads f now, and closes it); NULL on
 * error, reported.  A regular gzip file is mapped with
 * input_map_members. */
static FILE *
zin_open(FILE *f, int kind, struct sh_zpipe *z, int r,
    const struct stat *st, const char *shown)
{
	int fed = st == NULL;
	int i, e = errno, zfd = -1;


	if (r == 0 && !fed && map_members && kind == SH_Z_GZIP)
		zfd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
	if (f == stdin)
		stdin_taken = 1;
	else if (r != 0 || !fed)
		fclose(f);
	errno = e;
	if (r != 0) {
		if (kind != SH_Z_NONE)
			warn("%s: %s-compressed: cannot run %s", shown,
			    sh_z_name(kind), sh_z_name(kind));
		else
			warn("%s", shown);
		return NULL;
	}
	for (i = 0; i < NZIN && zin[i].f != NULL; i++)
		;
	if (i == NZIN || (zin[i].f = zin_stream(i, z, zfd, st)) == NULL) {
		warnx("%s: %s", shown, sh_strerror(SH_ENOMEM));
		close(z->out);
		(void)sh_zpipe_close(z, 0, NULL, 0);
		if (i < NZIN)
			zin_unmap(&zin[i]);
		else if (zfd >= 0)
			close(zfd);
		return NULL;
	}
	zin[i].z = *z;
	zin[i].shown = shown;
	zin[i].name = shown;
	zin[i].ended = 0;
	return zin[i].f;
}

/* The decoded bytes of file name as a spool of input_spool kept them,
 * read from the start; NULL when none are kept (or name is another file
 * now). */
static FILE *
spooled_open(const char *name)
{
	struct stat st;
	FILE *f;
	size_t i;
	int fd;

	for (i = 0; i < nspooled; i++)
		if (strcmp(spooled[i].name, name) == 0)
			break;
	if (i == nspooled || stat(name, &st) != 0 ||
	    st.st_dev != spooled[i].dev || st.st_ino != spooled[i].ino ||
	    (fd = dup(fileno(spooled[i].f))) < 0)
		return NULL;
	if (lseek(fd, 0, SEEK_SET) != 0 || (f = fdopen(fd, "r")) == NULL) {
		close(fd);
		return NULL;
	}
	return f;
}

/* Entry z read whole and ended well: its spool kept for input_open. */
static void
spool_keep(struct zin *z)
{
	struct spooled *p;

	if (z->spool == NULL)
		return;
	if (fflush(z->spool) != 0 || ferror(z->spool) || (p = realloc(spooled,
	    (nspooled + 1) * sizeof(*p))) == NULL) {
		fclose(z->spool);
		z->spool = NULL;
		return;
	}
	spooled = p;
	if ((p[nspooled].name = strdup(z->name)) == NULL) {
		fclose(z->spool);
		z->spool = NULL;
		return;
	}
	p[nspooled].dev = z->dev;
	p[nspooled].ino = z->ino;
	p[nspooled++].f = z->spool;
	z->spool = NULL;
}

FILE *
input_open(const char *name, const char **shown)
{
	unsigned char m[SH_Z_MAGIC];
	struct sh_zpipe z;
	struct stat st;
	FILE *f;
	ssize_t n;
	int c, kind, r;

	*shown = name;
	if (strcmp(name, "-") == 0) {
		*shown = "<stdin>";
		if (stdin_taken)
			return fopen("/dev/null", "r");
		f = stdin;
	} else if ((f = fopen(name, "r")) == NULL) {
		if (errno == ENOMEM)
			say_nomem(name);
		else
			warn("%s", name);
		return NULL;
	}
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode)) {
		/* A file: its first bytes read where they lie. */
		if ((n = pread(fileno(f), m, sizeof(m), ftello(f))) < 0 ||
		    (kind = sh_z_kind(m, (size_t)n)) == SH_Z_NONE)
			return f;
		r = sh_zpipe_open(&z, kind, fileno(f));
		return zin_open(f, kind, &z, r, &st, *shown);
	}
	/* A pipe: only a first byte that may start a compressed stream
	 * costs more than a look at it. */
	if ((c = getc(f)) == EOF) {
		if (ferror(f)) {
			warn("%s", *shown);
			input_close(f);
			return NULL;
		}
		return f;
	}
	ungetc(c, f);
	if (!sh_z_first(c))
		return f;
	n = (ssize_t)fread(m, 1, sizeof(m), f);
	kind = sh_z_kind(m, (size_t)n);
	r = sh_zpipe_feed(&z, kind, f, m, (size_t)n, f != stdin);
	return zin_open(f, kind, &z, r, NULL, *shown);
}

FILE *
input_again(const char *name, const char **shown)
{
	FILE *f;

	if ((f = spooled_open(name)) == NULL)
		return input_open(name, shown);
	*shown = name;
	return f;
}

/* The entry of f in zin, or NULL. */
static struct zin *
zin_find(FILE *f)
{
	int i;

	for (i = 0; i < NZIN; i++)
		if (f != NULL && zin[i].f == f)
			return &zin[i];
	return NULL;
}

const char *
input_compressed(FILE *f)
{
	struct zin *z = zin_find(f);

	return z != NULL ? sh_z_name(z->z.kind) : NULL;
}

int
input_end(FILE *f)
{
	struct zin *z = zin_find(f);
	char msg[256], buf[4096];

	if (z == NULL || z->ended)
		return 0;
	z->ended = 1;
	/* What a reader stopped short of: read, so that the decompressor
	 * tells how its stream ended, the same whenever it is asked. */
	if (z->z.pid > 0)
		while (fread(buf, 1, sizeof(buf), f) > 0)
			;
	if (sh_zpipe_close(&z->z, !ferror(f), msg, sizeof(msg)) == 0) {
		if (z->zm != NULL && !ferror(f) && sh_zmap_finish(z->zm,
		    &z->map) != 0)
			z->map = NULL;
		else if (z->zm != NULL && ferror(f))
			sh_zmap_abort(z->zm);
		z->zm = NULL;
		if (!ferror(f))
			spool_keep(z);
		return 0;
	}
	warnx("%s: %s: %s", z->shown, sh_z_name(z->z.kind), msg);
	return 2;
}

struct sh_zmap *
input_zmap(FILE *f)
{
	struct zin *z = zin_find(f);
	struct sh_zmap *m = NULL;

	if (z != NULL) {
		m = z->map;
		z->map = NULL;
	}
	return m;
}

void
input_close(FILE *f)
{
	struct zin *z = zin_find(f);

	if (f == NULL || f == stdin)
		return;
	if (z != NULL && !z->ended)
		(void)sh_zpipe_close(&z->z, 0, NULL, 0);
	fclose(f);
	if (z != NULL) {
		zin_unmap(z);
		z->f = NULL;
	}
}

void
input_lines(int n, char *const name[], input_line_fn *fn, void *ctx,
    int *status)
{
	struct sh_lines l;
	const char *p, *shown;
	size_t len;
	FILE *in;
	unsigned long long lines = 0;
	int i, r, stop = 0;

	for (i = 0; (i == 0 || i < n) && !stop && !nomem; i++) {
		if ((in = input_open(n ? name[i] : "-", &shown)) == NULL) {
			*status = 2;
			continue;
		}
		sh_lines_init(&l, in, '\n');
		while (!stop && (r = sh_lines_next(&l, &p, &len)) > 0) {
			stop = fn(ctx, p, len, shown, l.line);
			progress_items("lines", ++lines);
		}
		/* A file plainly of another format is left at once; a
		 * decompressor's failure is the cause of what follows. */
		if (stop == 2)
			r = stop = 0;	/* the next operand */
		else if (!stop && input_end(in) != 0)
			*status = 2;
		else if (!stop && r == SH_ENOMEM) {
			say_nomem(shown);
			*status = 2;
		} else if (!stop && r < 0) {
			warnx("%s: %s", shown, sh_strerror(r));
			*status = 2;
		}
		sh_lines_free(&l);
		input_close(in);
	}
}

/* The context of input_fps. */
struct fps {
	input_fp_fn *fn;
	void *ctx;
	int *status;
};

static int
fp_line(void *ctx, const char *p, size_t len, const char *name,
    unsigned long long line)
{
	struct fps *c = ctx;
	struct sh_fpline f;
	int r;

	if (line == 1 && diag_plain(name, p, len, DIAG_FPLINES)) {
		*c->status = 2;
		return 2;
	}
	if ((r = sh_fpline_parse(p, len, &f.fp, &f.id, &f.idlen)) != 0) {
		diag(r, name, line, NULL);
		diag_looks(name, p, len, DIAG_FPLINES);
		*c->status = 2;
		return 0;
	}
	f.line = p;
	f.len = len;
	f.name = name;
	f.lineno = line;
	c->fn(c->ctx, &f);
	return 0;
}

void
input_fps(int n, char *const name[], input_fp_fn *fn, void *ctx,
    int *status)
{
	struct fps c = { fn, ctx, status };

	input_lines(n, name, fp_line, &c, status);
}

/* The context of a bad line of input_fplist. */
struct badline {
	const char *name;
	int *status;
	int plain;		/* the file is of another format */
};

static void
bad_line(void *ctx, unsigned long long line, int e, const char *p,
    size_t len)
{
	struct badline *b = ctx;

	if (b->plain || (line == 1 && p != NULL && (b->plain =
	    diag_plain(b->name, p, len, DIAG_FPLINES)) != 0)) {
		*b->status = 2;
		return;
	}
	diag(e, b->name, line, NULL);
	if (p != NULL)
		diag_looks(b->name, p, len, DIAG_FPLINES);
	*b->status = 2;
}

const char *
input_tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d != NULL && *d != '\0' ? d : "/tmp";
}

const char *
input_tmpmsg(void)
{
	static char msg[4096 + 32];

	snprintf(msg, sizeof(msg), "%s: temporary file", input_tmpdir());
	return msg;
}

int
input_stdin(int n, char *const name[])
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(name[i], "-") == 0)
			return 1;
	return n == 0;
}

/* Whether the n operands name regular files (not standard input), not
 * compressed: files whose lines can be read again where they lie. */
static int
regular(int n, char *const name[])
{
	unsigned char m[SH_Z_MAGIC];
	struct stat st;
	ssize_t k;
	int i, fd;

	for (i = 0; i < n; i++) {
		if (strcmp(name[i], "-") == 0 || stat(name[i], &st) != 0 ||
		    !S_ISREG(st.st_mode) || (fd = open(name[i], O_RDONLY)) < 0)
			return 0;
		k = pread(fd, m, sizeof(m), 0);
		close(fd);
		if (k < 0 || sh_z_kind(m, (size_t)k) != SH_Z_NONE)
			return 0;
	}
	return n > 0;
}

/* Whether the regular file in, shown as name, plainly holds another
 * format than fingerprint lines (diag_plain), by its first line. */
static int
plain_file(FILE *in, const char *name)
{
	char head[DIAG_HEAD];
	struct stat st;
	ssize_t n;
	char *nl;

	if (fstat(fileno(in), &st) != 0 || !S_ISREG(st.st_mode) ||
	    (n = pread(fileno(in), head, sizeof(head), 0)) <= 0)
		return 0;
	if ((nl = memchr(head, '\n', (size_t)n)) != NULL)
		n = nl - head;
	return diag_plain(name, head, (size_t)n, DIAG_FPLINES);
}

void
input_fplist(int n, char *const name[], struct sh_fplist *l,
    struct sh_fpfiles *files, int nthreads, int *status)
{
	struct badline b;
	FILE *in;
	size_t before;
	int i, e;

	b.status = status;
	if (!regular(n, name))
		files = NULL;
	for (i = 0; (i == 0 || i < n) && !nomem; i++) {
		if ((in = input_open(n ? name[i] : "-", &b.name)) == NULL) {
			*status = 2;
			continue;
		}
		/* A file of another format is left out: before it is read,
		 * or, a stream, once it is. */
		b.plain = 0;
		before = l->n;
		if (plain_file(in, b.name)) {
			*status = 2;
			input_close(in);
			continue;
		}
		e = sh_fpload(l, in, in == stdin ? NULL : name[i], nthreads,
		    files, bad_line, &b, progress_lib());
		/* A decompressor's failure is the cause of what follows. */
		if (input_end(in) != 0)
			*status = 2;
		else if (e == SH_ENOMEM) {
			say_nomem(b.name);
			*status = 2;
		} else if (e != 0) {
			warnx("%s: %s", b.name, sh_strerror(e));
			*status = 2;
		}
		if (e == 0 && b.plain)
			sh_fplist_truncate(l, before);
		input_close(in);
	}
}

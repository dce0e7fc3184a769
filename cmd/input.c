/*
 * Opening the operands, and reading fingerprint lines from them.
 */
#include <sys/stat.h>

#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/lines.h"
#include "near/fpline.h"
#include "near/fplist.h"
#include "near/fpload.h"
#include "diag.h"
#include "input.h"
#include "progress.h"

FILE *
input_open(const char *name, const char **shown)
{
	FILE *f;

	*shown = name;
	if (strcmp(name, "-") == 0) {
		*shown = "<stdin>";
		return stdin;
	}
	if ((f = fopen(name, "r")) == NULL)
		warn("%s", name);
	return f;
}

void
input_close(FILE *f)
{
	if (f != NULL && f != stdin)
		fclose(f);
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

	for (i = 0; (i == 0 || i < n) && !stop; i++) {
		if ((in = input_open(n ? name[i] : "-", &shown)) == NULL) {
			*status = 2;
			continue;
		}
		sh_lines_init(&l, in, '\n');
		while (!stop && (r = sh_lines_next(&l, &p, &len)) > 0) {
			stop = fn(ctx, p, len, shown, l.line);
			progress_items("lines", ++lines);
		}
		if (stop == 2)
			r = stop = 0;	/* the next operand */
		if (!stop && r < 0) {
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

/* Whether the n operands name regular files (not standard input). */
static int
regular(int n, char *const name[])
{
	struct stat st;
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(name[i], "-") == 0 || stat(name[i], &st) != 0 ||
		    !S_ISREG(st.st_mode))
			return 0;
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
	for (i = 0; i == 0 || i < n; i++) {
		if ((in = input_open(n ? name[i] : "-", &b.name)) == NULL) {
			*status = 2;
			continue;
		}
		/* A file of another format is left out: before it is read,
		 * or, a stream, once it is. */
		b.plain = 0;
		before = l->n;
		if (plain_file(in, b.name))
			*status = 2;
		else if ((e = sh_fpload(l, in, in == stdin ? NULL : name[i],
		    nthreads, files, bad_line, &b, progress_lib())) != 0) {
			warnx("%s: %s", b.name, sh_strerror(e));
			*status = 2;
		} else if (b.plain)
			sh_fplist_truncate(l, before);
		input_close(in);
	}
}

#include <err.h>
#include <stdlib.h>

#include "base/errors.h"
#include "fpjoin.h"
#include "input.h"

void
fpjoin_fail(const struct sh_fpset *s, int e)
{
	if (s->failed != NULL)
		errx(2, "%s: %s", s->failed, sh_strerror(e));
	errx(2, "%s%s", s->budget && e == SH_EIO ? "temporary file: " : "",
	    sh_strerror(e));
}

struct reading {
	struct sh_fpset *s;
	struct sh_fplist *lines;
};

/* A line into the set, and whole into the lines if kept. */
static void
collect(void *ctx, const struct sh_fpline *f)
{
	struct reading *rd = ctx;
	int e;

	if ((e = sh_fpset_add(rd->s, f->fp, f->id, f->idlen)) != 0 ||
	    (rd->lines != NULL &&
	    (e = sh_fplist_add(rd->lines, f->fp, f->line, f->len)) != 0))
		fpjoin_fail(rd->s, e);
}

void
fpjoin_read(struct sh_fpset *s, struct sh_fplist *lines, int n,
    char *const name[], int ids, int nthreads, int *status)
{
	struct reading rd = { s, lines };

	if (lines == NULL && sh_fpset_list(s) != NULL)
		input_fplist(n, name, sh_fpset_list(s), ids ?
		    sh_fpset_files(s) : NULL, nthreads, status);
	else
		input_fps(n, name, collect, &rd, status);
}

/* A line of the pairs given. */
static int
given_pair(void *ctx, const char *p, size_t len, const char *name,
    unsigned long long line)
{
	struct sh_fpset *s = ctx;
	int e;

	if ((e = sh_fpset_given_line(s, p, len)) == 0)
		return 0;
	if (e == SH_EDUPID && sh_fpset_id(s, s->dup, &p, &len) == 0)
		errx(2, "-m: ID %.*s: %s", (int)len, p, sh_strerror(e));
	errx(2, "%s:%llu: %s%s", name, line, s->budget && e == SH_EIO ?
	    "temporary file: " : "", sh_strerror(e));
}

void
fpjoin_given(struct sh_fpset *s, const char *path)
{
	char *name = (char *)path;
	int status = 0;

	input_lines(1, &name, given_pair, s, &status);
	if (status)
		exit(2);
}

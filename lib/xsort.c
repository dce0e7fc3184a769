#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errors.h"
#include "xsort.h"

#define MINBUF 4096		/* records */
#define RUNBUF 4096		/* records read ahead per run */

struct run {
	FILE *f;
	struct sh_xrec *buf;
	size_t n, pos;
};

struct sh_xsort {
	char *tmpdir;
	struct sh_xrec *buf, *tmp;
	size_t cap, n, pos;
	struct run *runs;
	int nruns, merging;
	int *heap;		/* run numbers, smallest head first */
	int nheap;
};

struct sh_xsort *
sh_xsort_new(size_t budget, const char *tmpdir)
{
	struct sh_xsort *x;

	if ((x = calloc(1, sizeof(*x))) == NULL)
		return NULL;
	x->cap = budget / 2 / sizeof(struct sh_xrec);
	if (x->cap < MINBUF)
		x->cap = MINBUF;
	x->tmpdir = strdup(tmpdir != NULL ? tmpdir : "");
	x->buf = malloc(x->cap * sizeof(*x->buf));
	x->tmp = malloc(x->cap * sizeof(*x->tmp));
	if (x->tmpdir == NULL || x->buf == NULL || x->tmp == NULL) {
		sh_xsort_free(x);
		return NULL;
	}
	return x;
}

void
sh_xsort_free(struct sh_xsort *x)
{
	int i;

	if (x == NULL)
		return;
	for (i = 0; i < x->nruns; i++) {
		if (x->runs[i].f != NULL)
			fclose(x->runs[i].f);
		free(x->runs[i].buf);
	}
	free(x->runs);
	free(x->heap);
	free(x->buf);
	free(x->tmp);
	free(x->tmpdir);
	free(x);
}

int
sh_xsort_runs(const struct sh_xsort *x)
{
	return x->nruns;
}

/*
 * Stable LSD radix sort of buf[0..n) by b, then by a, 8 bits a pass,
 * skipping the bytes on which all records agree, and b altogether when
 * the records come in order of b already.
 */
static void
sort_buf(struct sh_xsort *x)
{
	size_t count[256], i, sum, c;
	struct sh_xrec *src = x->buf, *dst = x->tmp, *t;
	uint64_t v, da = 0, db = 0, d;
	int pass, shift, sorted_b = 1;

	if (x->n < 2)
		return;
	for (i = 1; i < x->n; i++) {
		da |= src[i].a ^ src[0].a;
		db |= src[i].b ^ src[0].b;
		sorted_b &= src[i].b >= src[i - 1].b;
	}
	for (pass = sorted_b ? 8 : 0; pass < 16; pass++) {
		shift = pass % 8 * 8;
		d = pass < 8 ? db : da;
		if ((d >> shift & 0xFF) == 0)
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < x->n; i++) {
			v = pass < 8 ? src[i].b : src[i].a;
			count[v >> shift & 0xFF]++;
		}
		for (i = 0, sum = 0; i < 256; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < x->n; i++) {
			v = pass < 8 ? src[i].b : src[i].a;
			dst[count[v >> shift & 0xFF]++] = src[i];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != x->buf)
		memcpy(x->buf, src, x->n * sizeof(*src));
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

/* Sort the buffer and write it out as a run. */
static int
spill(struct sh_xsort *x)
{
	struct run *nr;
	FILE *f;
	int e;

	sort_buf(x);
	if ((nr = realloc(x->runs, (size_t)(x->nruns + 1) *
	    sizeof(*nr))) == NULL)
		return SH_ENOMEM;
	x->runs = nr;
	if ((e = sh_tmpfile(x->tmpdir, &f)) != 0)
		return e;
	memset(&x->runs[x->nruns], 0, sizeof(*nr));
	x->runs[x->nruns++].f = f;
	if (fwrite(x->buf, sizeof(*x->buf), x->n, f) != x->n ||
	    fflush(f) != 0)
		return SH_EIO;
	x->n = 0;
	return 0;
}

int
sh_xsort_add(struct sh_xsort *x, uint64_t a, uint64_t b)
{
	int e;

	if (x->n == x->cap && (e = spill(x)) != 0)
		return e;
	x->buf[x->n].a = a;
	x->buf[x->n].b = b;
	x->n++;
	return 0;
}

static int
less(const struct sh_xrec *p, const struct sh_xrec *q)
{
	return p->a < q->a || (p->a == q->a && p->b < q->b);
}

/* Head record of run i. */
static const struct sh_xrec *
head(const struct sh_xsort *x, int i)
{
	return &x->runs[i].buf[x->runs[i].pos];
}

/* Fill run i's buffer; 0 when it is exhausted. */
static int
refill(struct sh_xsort *x, int i, int *err)
{
	struct run *r = &x->runs[i];

	r->pos = 0;
	r->n = fread(r->buf, sizeof(*r->buf), RUNBUF, r->f);
	if (r->n == 0 && ferror(r->f))
		*err = SH_EIO;
	return r->n > 0;
}

static void
sift(struct sh_xsort *x, int i)
{
	int c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= x->nheap)
			return;
		if (c + 1 < x->nheap && less(head(x, x->heap[c + 1]),
		    head(x, x->heap[c])))
			c++;
		if (!less(head(x, x->heap[c]), head(x, x->heap[i])))
			return;
		t = x->heap[c];
		x->heap[c] = x->heap[i];
		x->heap[i] = t;
		i = c;
	}
}

/* After the last add: sort what is in memory, or start the merge. */
static int
start(struct sh_xsort *x)
{
	int i, e = 0;

	x->merging = 1;
	if (x->nruns == 0) {
		sort_buf(x);
		return 0;
	}
	if (x->n > 0 && (e = spill(x)) != 0)
		return e;
	/* The sort buffers are no longer needed. */
	free(x->buf);
	free(x->tmp);
	x->buf = x->tmp = NULL;
	if ((x->heap = malloc((size_t)x->nruns * sizeof(*x->heap))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < x->nruns; i++) {
		if ((x->runs[i].buf = malloc(RUNBUF *
		    sizeof(struct sh_xrec))) == NULL)
			return SH_ENOMEM;
		if (fseek(x->runs[i].f, 0, SEEK_SET) != 0)
			return SH_EIO;
		if (refill(x, i, &e))
			x->heap[x->nheap++] = i;
		else if (e != 0)
			return e;
	}
	for (i = x->nheap / 2 - 1; i >= 0; i--)
		sift(x, i);
	return 0;
}

int
sh_xsort_next(struct sh_xsort *x, struct sh_xrec *r)
{
	struct run *top;
	int e = 0;

	if (!x->merging && (e = start(x)) != 0)
		return e;
	if (x->nruns == 0) {
		if (x->pos == x->n)
			return 0;
		*r = x->buf[x->pos++];
		return 1;
	}
	if (x->nheap == 0)
		return 0;
	top = &x->runs[x->heap[0]];
	*r = top->buf[top->pos++];
	if (top->pos == top->n && !refill(x, x->heap[0], &e)) {
		if (e != 0)
			return e;
		x->heap[0] = x->heap[--x->nheap];
	}
	sift(x, 0);
	return 1;
}

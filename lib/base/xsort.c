#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/io.h"
#include "base/xsort.h"

#define MINBUF 4096		/* records in the sort buffer, at least */
#define MINRUN 256		/* records read ahead per run, at least */

/* A sorted run: records [off, end) of the temporary file, in bytes, and
 * its read-ahead buffer while it is merged. */
struct run {
	uint64_t off, end;
	struct sh_xrec *buf;
	size_t n, pos;
};

struct sh_xsort {
	char *tmpdir;
	struct sh_xrec *buf, *tmp;
	size_t cap, n, pos;
	FILE *f;		/* all the runs, one after the other */
	uint64_t fend;		/* its length */
	struct run *runs;
	int nruns, merging, passes;
	struct sh_xrec *rbuf;	/* the read-ahead buffers of a merge */
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
	if (x == NULL)
		return;
	if (x->f != NULL)
		fclose(x->f);
	free(x->runs);
	free(x->rbuf);
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

int
sh_xsort_passes(const struct sh_xsort *x)
{
	return x->passes;
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

/* Append n records of v to the file. */
static int
append(struct sh_xsort *x, const struct sh_xrec *v, size_t n)
{
	int e;

	if (x->f == NULL && (e = sh_tmpfile(x->tmpdir, &x->f)) != 0)
		return e;
	if (fseeko(x->f, (off_t)x->fend, SEEK_SET) != 0 ||
	    fwrite(v, sizeof(*v), n, x->f) != n || fflush(x->f) != 0)
		return SH_EIO;
	x->fend += n * sizeof(*v);
	return 0;
}

/* Note the records from byte off to the end of the file as a run. */
static int
add_run(struct sh_xsort *x, uint64_t off)
{
	struct run *nr;

	if ((nr = realloc(x->runs, (size_t)(x->nruns + 1) *
	    sizeof(*nr))) == NULL)
		return SH_ENOMEM;
	x->runs = nr;
	memset(&x->runs[x->nruns], 0, sizeof(*nr));
	x->runs[x->nruns].off = off;
	x->runs[x->nruns++].end = x->fend;
	return 0;
}

/* Sort the buffer and write it out as a run. */
static int
spill(struct sh_xsort *x)
{
	uint64_t off = x->fend;
	int e;

	sort_buf(x);
	if ((e = append(x, x->buf, x->n)) != 0 || (e = add_run(x, off)) != 0)
		return e;
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

/* Fill run i's buffer of size records; 0 when it is exhausted. */
static int
refill(struct sh_xsort *x, int i, size_t size, int *err)
{
	struct run *r = &x->runs[i];
	uint64_t want = r->end - r->off;
	ssize_t got;

	if (want > size * sizeof(*r->buf))
		want = size * sizeof(*r->buf);
	r->pos = r->n = 0;
	if (want == 0)
		return 0;
	while ((got = pread(fileno(x->f), r->buf, (size_t)want,
	    (off_t)r->off)) < 0 && errno == EINTR)
		;
	if (got <= 0 || (size_t)got % sizeof(*r->buf) != 0) {
		if (got == 0)
			errno = EIO;
		*err = SH_EIO;
		return 0;
	}
	r->off += (uint64_t)got;
	r->n = (size_t)got / sizeof(*r->buf);
	return 1;
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

/* Merge runs [0, k): each reads ahead size records of x->rbuf. */
static int
merge_start(struct sh_xsort *x, int k, size_t size)
{
	int i, e = 0;

	x->nheap = 0;
	for (i = 0; i < k; i++) {
		x->runs[i].buf = x->rbuf + (size_t)i * size;
		if (refill(x, i, size, &e))
			x->heap[x->nheap++] = i;
		else if (e != 0)
			return e;
	}
	for (i = x->nheap / 2 - 1; i >= 0; i--)
		sift(x, i);
	return 0;
}

/* The next record of the merge into *r: 1, 0 at its end, or an error. */
static int
merge_next(struct sh_xsort *x, size_t size, struct sh_xrec *r)
{
	struct run *top;
	int e = 0;

	if (x->nheap == 0)
		return 0;
	top = &x->runs[x->heap[0]];
	*r = top->buf[top->pos++];
	if (top->pos == top->n && !refill(x, x->heap[0], size, &e)) {
		if (e != 0)
			return e;
		x->heap[0] = x->heap[--x->nheap];
	}
	sift(x, 0);
	return 1;
}

/*
 * Merge the first k runs into one at the end of the file, each reading
 * ahead size records, the output gathered in as many.
 */
static int
merge_pass(struct sh_xsort *x, int k, size_t size)
{
	struct sh_xrec *out = x->rbuf + (size_t)k * size;
	uint64_t off = x->fend;
	size_t n = 0;
	int e;

	if ((e = merge_start(x, k, size)) != 0)
		return e;
	while ((e = merge_next(x, size, &out[n])) == 1)
		if (++n == size) {
			if ((e = append(x, out, n)) != 0)
				return e;
			n = 0;
		}
	if (e != 0 || (e = append(x, out, n)) != 0)
		return e;
	x->nruns -= k;
	memmove(x->runs, x->runs + k, (size_t)x->nruns * sizeof(*x->runs));
	x->passes++;
	return add_run(x, off);
}

/*
 * After the last add: sort what is in memory, or start the merge.  The
 * sort buffers (the budget) become the read-ahead buffers of the runs, at
 * least MINRUN records each; while there are more runs than that allows,
 * the first ones are merged into one, so that memory stays in the budget.
 */
static int
start(struct sh_xsort *x)
{
	size_t room = 2 * x->cap, fanin = room / MINRUN;
	int e;

	x->merging = 1;
	if (x->nruns == 0) {
		sort_buf(x);
		return 0;
	}
	if (x->n > 0 && (e = spill(x)) != 0)
		return e;
	free(x->tmp);
	x->tmp = NULL;
	if ((x->rbuf = realloc(x->buf, room * sizeof(*x->rbuf))) == NULL)
		return SH_ENOMEM;
	x->buf = NULL;
	if ((x->heap = malloc((size_t)x->nruns * sizeof(*x->heap))) == NULL)
		return SH_ENOMEM;
	while ((size_t)x->nruns > fanin)
		if ((e = merge_pass(x, (int)fanin - 1, room / fanin)) != 0)
			return e;
	return merge_start(x, x->nruns, room / (size_t)x->nruns);
}

int
sh_xsort_next(struct sh_xsort *x, struct sh_xrec *r)
{
	int e;

	if (!x->merging && (e = start(x)) != 0)
		return e;
	if (x->nruns == 0) {
		if (x->pos == x->n)
			return 0;
		*r = x->buf[x->pos++];
		return 1;
	}
	return merge_next(x, 2 * x->cap / (size_t)x->nruns, r);
}

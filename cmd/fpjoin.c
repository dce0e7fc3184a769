#include <err.h>
#include <stdlib.h>

#include "base/errors.h"
#include "base/grow.h"
#include "fp/similar.h"
#include "near/fpline.h"
#include "diag.h"
#include "progress.h"
#include "usage.h"
#include "fpjoin.h"
#include "input.h"

void
fpjoin_plan(struct sh_plan *p, int k, int r, uint64_t n, int join)
{
	int e;

	if ((e = (join ? sh_plan_join : sh_plan_init)(p, k, r, n)) != 0)
		errx(2, "-k %d -r %d: %s", k, r, sh_strerror(e));
}

/* The edit route's plan, when its route is taken. */
static struct sh_editplan edit;
static int editroute;

const struct sh_bandplan *
fpjoin_route(struct sh_bandplan *p, int force, const char *threshold,
    uint32_t t, int alone, int measure)
{
	if (force && threshold == NULL)
		usage_only('B', "-a");
	if (measure == SH_SIM_EDIT && threshold != NULL && (force || alone)) {
		if (sh_editplan_init(&edit, t) != 0)
			errx(2, "-a %s: no bands hold 0.99 of the pairs at this "
			    "edit similarity", threshold);
		editroute = 1;
		*p = edit.all;
		return p;
	}
	if (!force && (threshold == NULL || !alone || t >= SH_BANDS_BELOW))
		return NULL;
	if (sh_bandplan_init(p, t, SH_BANDS_RECALL) == 0)
		return p;
	if (force)
		errx(2, "-B: no bands hold 0.99 of the pairs at -a %s",
		    threshold);
	return NULL;
}

void
fpjoin_fail(const struct sh_fpset *s, int e)
{
	/* A want of memory told already, when the input was read. */
	if (e == SH_ENOMEM && input_nomem())
		exit(2);
	if (s->failed != NULL)
		errx(2, "%s: %s", s->failed, sh_strerror(e));
	errx(2, "%s%s%s", s->budget && e == SH_EIO ? input_tmpmsg() : "",
	    s->budget && e == SH_EIO ? ": " : "", sh_strerror(e));
}

struct reading {
	struct sh_fpset *s;
	struct sh_linestore *lines;
};

/* Exit on error e of keeping line f: a want of memory names the line. */
static void
line_fail(const struct sh_fpset *s, const struct sh_fpline *f, int e)
{
	if (e == SH_ENOMEM)
		errx(2, "%s:%llu: %s", f->name, f->lineno, sh_strerror(e));
	fpjoin_fail(s, e);
}

/* A line into the set, and whole into the lines if kept. */
static void
collect(void *ctx, const struct sh_fpline *f)
{
	struct reading *rd = ctx;
	int e;

	if ((e = sh_fpset_add(rd->s, f->fp, f->id, f->idlen)) != 0 ||
	    (rd->lines != NULL &&
	    (e = sh_linestore_add(rd->lines, f->line, f->len)) != 0))
		line_fail(rd->s, f, e);
}

void
fpjoin_read(struct sh_fpset *s, struct sh_linestore *lines, int n,
    char *const name[], int ids, int nthreads, int *status)
{
	struct reading rd = { s, lines };

	if (lines == NULL && sh_fpset_list(s) != NULL)
		input_fplist(n, name, sh_fpset_list(s), ids ?
		    sh_fpset_files(s) : NULL, nthreads, status);
	else
		input_fps(n, name, collect, &rd, status);
	if (input_nomem())
		exit(2);
}

struct banding {
	struct reading rd;
	const struct sh_bandplan *p;
	uint64_t *keys[SH_SK_K];	/* band j's keys, line after line */
	size_t n, cap;
	struct sh_bandsort *x;	/* within a budget, instead */
	const char *name;	/* the first line without a sketch */
	unsigned long long line;
	int must;		/* every line must have one */
	int *status;
};

/* The band keys of the next line: to the sort within a budget, else to
 * the arrays, which grow alike. */
static void
keep(struct banding *bd, const uint64_t *key, const struct sh_fpline *f)
{
	size_t cap;
	int e, j;

	if (bd->x != NULL) {
		if ((e = sh_bandsort_add(bd->x, key)) != 0)
			line_fail(bd->rd.s, f, e);
		return;
	}
	if (bd->n == bd->cap) {
		for (j = 0; j < bd->p->b; j++) {
			cap = bd->cap;
			if (sh_grow(&bd->keys[j], &cap, bd->n + 1,
			    sizeof(*key)) != 0)
				line_fail(bd->rd.s, f, SH_ENOMEM);
		}
		bd->cap = cap;
	}
	for (j = 0; j < bd->p->b; j++)
		bd->keys[j][bd->n] = key[j];
	bd->n++;
}

/* A line into the set, and its sketch's band keys kept while every line
 * before had one. */
static void
band_line(void *ctx, const struct sh_fpline *f)
{
	struct banding *bd = ctx;
	struct sh_sketch sk;
	uint64_t key[SH_SK_K];
	int e, kind = 0;

	if (bd->name == NULL) {
		e = sh_fpline_sketch_kind(f->line, f->len, f->id, f->idlen,
		    &sk, &kind);
		/* A sketch of the other kind: every line is, as a rule. */
		if (e == 0 && (kind > 0) != editroute)
			errx(2, "%s:%llu: %s", f->name, f->lineno,
			    sh_strerror(kind ? SH_ESKCHARS : SH_ESKFEATS));
		if (e == SH_ENOSKETCH && bd->must)
			errx(2, "%s:%llu: %s", f->name, f->lineno,
			    sh_strerror(e));
		if (e == SH_ENOSKETCH) {
			bd->name = f->name;
			bd->line = f->lineno;
		} else if (e != 0) {
			diag(e, f->name, f->lineno, NULL);
			*bd->status = 2;
			return;
		} else {
			if (editroute)
				sh_editplan_keys(&edit, kind, &sk, key);
			else
				sh_bands_keys(bd->p, &sk, key);
			keep(bd, key, f);
		}
	}
	collect(&bd->rd, f);
}

/* A pair of the band sort into the set. */
static int
band_pair(void *ctx, uint32_t a, uint32_t b)
{
	return sh_fpset_pair(ctx, a, b);
}

/* fpjoin_read for the band route, then its pairs, or its groups with
 * o->groups: 1; or 0 after a warning, when a line has no sketch. */
static int
bands(struct sh_fpset *s, struct sh_linestore *lines,
    const struct fpjoin_opt *o, int n, char *const name[], int *status)
{
	struct banding bd = { { s, lines }, o->bp, { NULL }, 0, 0, NULL, NULL,
	    0, o->must, status };
	const uint64_t *const *key = (const uint64_t *const *)bd.keys;
	int e = 0, j;

	if (s->budget && (e = sh_bandsort_new(&bd.x, o->bp, o->shard,
	    s->budget / 2, s->tmpdir)) != 0)
		fpjoin_fail(s, e);
	input_fps(n, name, band_line, &bd, status);
	if (input_nomem())
		exit(2);
	if (bd.name != NULL)
		warnx("%s:%llu: %s: the fingerprints are searched instead, "
		    "slower", bd.name, bd.line, sh_strerror(SH_ENOSKETCH));
	else if (bd.x != NULL && o->groups != NULL &&
	    (e = sh_fpset_ready(s)) == 0)
		e = sh_bandsort_groups(bd.x, progress_lib(), o->groups);
	else if (bd.x != NULL)
		e = sh_bandsort_run(bd.x, progress_lib(), band_pair, s);
	else if (o->groups != NULL)
		e = sh_bands_groups(key, bd.n, o->bp, o->nthreads,
		    progress_lib(), o->groups);
	else
		e = sh_bands_join(key, bd.n, o->bp, o->nthreads, o->shard,
		    progress_lib(), &s->pairs);
	for (j = 0; j < o->bp->b; j++)
		free(bd.keys[j]);
	sh_bandsort_free(bd.x);
	if (e != 0)
		fpjoin_fail(s, e);
	return bd.name == NULL;
}

/* The classes of s for o->classes, its fingerprints read into memory
 * from the store within a budget. */
static void
classes(struct sh_fpset *s, const struct sh_plan *p,
    const struct fpjoin_opt *o)
{
	sh_fpval *fp = s->list.fp;
	size_t i, n = sh_fpset_n(s);
	int e = 0;

	if (s->budget && ((fp = malloc(n * sizeof(*fp) + 1)) == NULL ||
	    (e = sh_fpset_ready(s)) != 0))
		fpjoin_fail(s, e != 0 ? e : SH_ENOMEM);
	for (i = 0; s->budget && i < n; i++)
		if ((e = sh_fpset_fp(s, i, &fp[i])) != 0)
			fpjoin_fail(s, e);
	e = sh_classes_join(o->classes, fp, n, p, o->nthreads,
	    progress_lib());
	if (s->budget)
		free(fp);
	if (e != 0)
		fpjoin_fail(s, e);
}

int
fpjoin_pairs(struct sh_fpset *s, struct sh_linestore *lines,
    const struct fpjoin_opt *o, int n, char *const name[], int *status)
{
	struct sh_plan p;
	int e;

	if (lines != NULL && s->budget &&
	    (e = sh_linestore_disk(lines, s->tmpdir)) != 0)
		fpjoin_fail(s, e);
	if (o->bp != NULL && bands(s, lines, o, n, name, status))
		return o->groups != NULL;
	if (o->bp == NULL)
		fpjoin_read(s, lines, n, name, o->ids, o->nthreads, status);
	if (o->given != NULL) {
		fpjoin_given(s, o->given);
		return 0;
	}
	fpjoin_plan(&p, o->k, o->r, sh_fpset_n(s), 1);
	if (o->classes != NULL && o->shard == NULL && (!s->budget ||
	    sh_fpset_n(s) <= s->budget / FPJOIN_CLASSBYTES)) {
		classes(s, &p, o);
		return 2;
	}
	if ((e = sh_fpset_join(s, &p, o->nthreads, o->shard,
	    progress_lib())) != 0)
		fpjoin_fail(s, e);
	return 0;
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
	errx(2, "%s:%llu: %s%s%s", name, line, s->budget && e == SH_EIO ?
	    input_tmpmsg() : "", s->budget && e == SH_EIO ? ": " : "",
	    sh_strerror(e));
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

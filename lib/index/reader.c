#include <sys/stat.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "index/deletes.h"
#include "index/index.h"
#include "index/ixfile.h"
#include "index/times.h"

void
sh_index_close(struct sh_index *ix)
{
	int i;

	for (i = 0; ix->seg != NULL && i < ix->nseg; i++)
		sh_seg_close(&ix->seg[i]);
	for (i = 0; ix->del != NULL && i < ix->nseg; i++)
		sh_segdel_free(&ix->del[i]);
	free(ix->seg);
	free(ix->del);
	free(ix->name);
	free(ix->nfp);
	free(ix->nid);
	free(ix->dname);
	free(ix->ndel);
	memset(ix, 0, sizeof(*ix));
}

/* The path of segment i of ix, into where. */
static void
segpath(const struct sh_index *ix, int i, char *where)
{
	sh_ixfile_join(where, ix->path, *ix->name[i] ? ix->name[i] : NULL,
	    NULL);
}

/* Whether segment i of ix is the file of a segment before it. */
static int
same_file(const struct sh_index *ix, int i)
{
	struct stat a, b;
	int j;

	if (fstat(ix->seg[i].fd, &a) != 0)
		return 0;
	for (j = 0; j < i; j++)
		if (fstat(ix->seg[j].fd, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return 1;
	return 0;
}

/* Open the segments ix names, and read their deletions; an absent file
 * is SH_EIO with ENOENT. */
static int
open_segments(struct sh_index *ix, const char *dir, char *where)
{
	char path[SH_WHERE];
	int i, e;

	if ((ix->seg = calloc((size_t)ix->nseg + 1, sizeof(*ix->seg))) ==
	    NULL || (ix->del = calloc((size_t)ix->nseg + 1,
	    sizeof(*ix->del))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < ix->nseg; i++) {
		sh_ixfile_join(path, dir, ix->name[i], NULL);
		if ((e = sh_seg_open(&ix->seg[i], path, 1)) != 0)
			return sh_ixfile_fail(where, path, NULL, e);
		/* One file named twice (hard links): its entries would be
		 * answered twice; a writer never names one so. */
		if (same_file(ix, i))
			return sh_ixfile_fail(where, path, NULL, SH_ECORRUPT);
		/* Every segment of the kind and plan of the MANIFEST. */
		if (ix->seg[i].nfp != ix->nfp[i] ||
		    ix->seg[i].nid != ix->nid[i] ||
		    ix->seg[i].bands != ix->bands ||
		    ix->seg[i].rows != ix->rows || ix->seg[i].t != ix->t)
			return sh_ixfile_fail(where, path, NULL, SH_ECORRUPT);
		if (!*ix->dname[i])
			continue;
		sh_ixfile_join(path, dir, ix->dname[i], NULL);
		if ((e = sh_segdel_read(&ix->del[i], path, &ix->seg[i])) == 0 &&
		    ix->del[i].n != ix->ndel[i])
			e = SH_ECORRUPT;
		if (e != 0)
			return sh_ixfile_fail(where, path, NULL, e);
		ix->ndeleted++;
	}
	return 0;
}

/* Leave out of v[0..n) the hits of entries deleted whole; return how
 * many are left, in their order. */
static size_t
live_hits(const struct sh_index *ix, struct sh_hit *v, size_t n)
{
	size_t i, m;

	if (ix->ndeleted == 0)
		return n;
	for (i = m = 0; i < n; i++)
		if (!sh_segdel_dead(&ix->del[v[i].seg], v[i].pos))
			v[m++] = v[i];
	return m;
}

int
sh_index_open(struct sh_index *ix, const char *path, char *where)
{
	struct stat st;
	uint64_t sum = 0;
	int tries, e;

	memset(ix, 0, sizeof(*ix));
	if (strlen(path) > SH_IXFILE_DIRMAX) {
		errno = ENAMETOOLONG;
		return sh_ixfile_fail(where, path, NULL, SH_EIO);
	}
	sh_ixfile_join(ix->path, path, NULL, NULL);
	if (stat(path, &st) != 0)
		return sh_ixfile_fail(where, path, NULL, SH_EIO);
	if (S_ISREG(st.st_mode)) {
		if ((ix->seg = calloc(1, sizeof(*ix->seg))) == NULL ||
		    (ix->del = calloc(1, sizeof(*ix->del))) == NULL) {
			sh_index_close(ix);
			return SH_ENOMEM;
		}
		if ((e = sh_seg_open(&ix->seg[0], path, 0)) != 0) {
			sh_index_close(ix);
			return sh_ixfile_fail(where, path, NULL, e);
		}
		ix->k = ix->seg[0].plan.k;
		ix->t = ix->seg[0].t;
		ix->bands = ix->seg[0].bands;
		ix->rows = ix->seg[0].rows;
		if ((e = sh_ixfile_addname(ix, "", ix->seg[0].nfp,
		    ix->seg[0].nid)) != 0)
			sh_index_close(ix);
		return e;
	}
	/* A writer may remove a segment between MANIFEST and open: then
	 * the MANIFEST has changed, and is read again; a MANIFEST that
	 * names a segment missing, read twice the same, is not retried. */
	for (tries = 0; tries < 100; tries++) {
		sh_index_close(ix);
		sh_ixfile_join(ix->path, path, NULL, NULL);
		e = sh_ixfile_manifest(ix, path, where);
		if (e == SH_EIO && errno == ENOENT)
			return sh_ixfile_fail(where, path, NULL, SH_EMAGIC);
		if (e == 0 && (e = open_segments(ix, path, where)) == 0)
			return 0;
		if (e != SH_EIO || errno != ENOENT ||
		    (tries > 0 && ix->sum == sum))
			break;
		sum = ix->sum;
	}
	sh_index_close(ix);
	return e;
}

/* fn on every segment, oldest first, up to the first error (where then
 * names its segment). */
static int
each_segment(struct sh_index *ix, int (*fn)(struct sh_seg *), char *where)
{
	int i, e;

	for (i = 0; i < ix->nseg; i++)
		if ((e = fn(&ix->seg[i])) != 0) {
			segpath(ix, i, where);
			return e;
		}
	return 0;
}

int
sh_index_load(struct sh_index *ix, char *where)
{
	return each_segment(ix, sh_seg_load, where);
}

int
sh_index_ids(struct sh_index *ix, const struct sh_hit *h, const char **p,
    size_t *len, char *where)
{
	int e;

	if ((e = sh_segdel_ids(&ix->del[h->seg], &ix->seg[h->seg], h->pos, p,
	    len)) != 0)
		segpath(ix, h->seg, where);
	return e;
}

int
sh_index_loc(struct sh_index *ix, const struct sh_hit *h,
    struct sh_segloc *l, char *where)
{
	int e;

	/* A deleted entry is never read: no location is given for it. */
	if (!ix->bands || sh_segdel_dead(&ix->del[h->seg], h->pos)) {
		memset(l, 0, sizeof(*l));
		return 0;
	}
	if ((e = sh_seg_loc(&ix->seg[h->seg], h->pos, l)) < 0)
		segpath(ix, h->seg, where);
	return e;
}

static int
cmp_hit(const void *a, const void *b)
{
	const struct sh_hit *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	if (x->fp != y->fp)
		return x->fp < y->fp ? -1 : 1;
	return (x->seg > y->seg) - (x->seg < y->seg);
}

/* Queries ahead whose IDs a batch search asks for. */
#define AHEAD 8

int
sh_index_search_each(struct sh_index *ix, const sh_fpval *q, size_t n,
    int k, struct sh_hits *h, sh_index_fn *fn, void *ctx, char *where)
{
	struct sh_hits one;
	size_t *start, i, j, len;
	const char *p;
	int e = 0;

	if (ix->bands)
		return sh_ixfile_fail(where, ix->path, NULL, SH_EKIND);
	if ((start = malloc((n + 1) * sizeof(*start))) == NULL)
		return SH_ENOMEM;
	h->n = 0;
	for (i = 0; i < (size_t)ix->nseg && e == 0; i++)
		if ((e = sh_seg_search_batch(&ix->seg[i], q, n, k, (int)i, h,
		    start)) != 0)
			segpath(ix, (int)i, where);
	/* One segment's hits are grouped already; several segments' are
	 * grouped query by query in turn. */
	if (e == 0 && ix->nseg != 1)
		e = sh_hits_group(h, 0, n, start);
	/* The IDs of query i + AHEAD's hits are asked for, and their
	 * offsets, read from memory by then, those of query i + 2 AHEAD,
	 * so that fn reads IDs in cache. */
	for (i = 0; i < n && e == 0; i++) {
		if (i + 2 * AHEAD < n)
			for (j = start[i + 2 * AHEAD]; j < start[i + 2 * AHEAD +
			    1]; j++)
				sh_seg_prefetch_ids(&ix->seg[h->v[j].seg],
				    h->v[j].pos);
		if (i + AHEAD < n)
			for (j = start[i + AHEAD]; j < start[i + AHEAD + 1];
			    j++)
				if (sh_seg_ids(&ix->seg[h->v[j].seg],
				    h->v[j].pos, &p, &len) == 0)
					SH_PREFETCH(p);
		one.n = one.cap = start[i + 1] - start[i];
		one.v = one.n > 0 ? h->v + start[i] : NULL;
		one.n = live_hits(ix, one.v, one.n);
		if (one.n > 1)
			qsort(one.v, one.n, sizeof(*one.v), cmp_hit);
		e = fn(ctx, i, &one);
	}
	free(start);
	return e;
}

int
sh_index_bands_each(struct sh_index *ix, const sh_fpval *q,
    const uint64_t *key, size_t n, struct sh_hits *h, sh_index_fn *fn,
    void *ctx, char *where)
{
	struct sh_hits one;
	size_t *start, i;
	int s, e = 0;

	if (!ix->bands)
		return sh_ixfile_fail(where, ix->path, NULL, SH_EKIND);
	if ((start = malloc((n + 1) * sizeof(*start))) == NULL)
		return SH_ENOMEM;
	h->n = 0;
	for (s = 0; s < ix->nseg && e == 0; s++)
		if ((e = sh_seg_bands(&ix->seg[s], key, q, n, s, h)) != 0)
			segpath(ix, s, where);
	/* Segment after segment: the hits grouped by query, each query's
	 * segments in order. */
	if (e == 0)
		e = sh_hits_group(h, 0, n, start);
	for (i = 0; i < n && e == 0; i++) {
		one.n = one.cap = start[i + 1] - start[i];
		one.v = one.n > 0 ? h->v + start[i] : NULL;
		one.n = live_hits(ix, one.v, one.n);
		e = fn(ctx, i, &one);
	}
	free(start);
	return e;
}

int
sh_index_search(struct sh_index *ix, sh_fpval fp, int k, struct sh_hits *h,
    char *where)
{
	size_t first = h->n;
	int i, e;

	if (ix->bands)
		return sh_ixfile_fail(where, ix->path, NULL, SH_EKIND);
	for (i = 0; i < ix->nseg; i++)
		if ((e = sh_seg_search(&ix->seg[i], fp, k, i, h)) != 0) {
			segpath(ix, i, where);
			return e;
		}
	if (h->n > first)
		h->n = first + live_hits(ix, h->v + first, h->n - first);
	if (h->n > first)
		qsort(h->v + first, h->n - first, sizeof(*h->v), cmp_hit);
	return 0;
}

void
sh_index_stats(const struct sh_index *ix, struct sh_ixstats *st)
{
	int i;

	memset(st, 0, sizeof(*st));
	st->k = ix->k;
	st->shard = ix->shard;
	if (st->shard.n == 0)
		st->shard.n = 1;
	st->nseg = ix->nseg;
	for (i = 0; i < ix->nseg; i++) {
		st->nfp += ix->seg[i].nfp - ix->del[i].ndead;
		st->nid += ix->seg[i].nid - ix->del[i].n;
		st->dfp += ix->del[i].ndead;
		st->did += ix->del[i].n;
		st->bytes += ix->seg[i].size;
		if (!ix->bands)
			st->candidates += sh_seg_candidates(&ix->seg[i],
			    ix->k);
	}
}

int
sh_index_segstat(const struct sh_index *ix, int i, struct sh_segstat *s)
{
	const struct sh_seg *g;

	if (i < 0 || i >= ix->nseg)
		return SH_ERANGE;
	g = &ix->seg[i];
	s->name = *ix->name[i] ? ix->name[i] : ix->path;
	s->nfp = g->nfp - ix->del[i].ndead;
	s->nid = g->nid - ix->del[i].n;
	s->dfp = ix->del[i].ndead;
	s->did = ix->del[i].n;
	s->blocks = g->plan.nblocks;
	s->keyblocks = g->plan.nkey;
	s->tables = g->bands ? g->bands : g->plan.ntables;
	s->dirbits = g->dirbits;
	s->lean = g->lean;
	s->places = g->files != 0;
	s->bytes = g->size;
	return 0;
}

int
sh_index_next(struct sh_index *ix, struct sh_ixcursor *c, sh_fpval *fp,
    const char **p, size_t *len, char *where)
{
	int e;

	for (;;) {
		while (c->seg < ix->nseg && c->pos >= ix->seg[c->seg].nfp) {
			sh_seg_advise(&ix->seg[c->seg], 0);
			c->seg++;
			c->pos = 0;
		}
		if (c->seg >= ix->nseg)
			return 0;
		if (c->pos == 0)
			sh_seg_advise(&ix->seg[c->seg], 1);
		if (!sh_segdel_dead(&ix->del[c->seg], c->pos))
			break;
		c->pos++;
	}
	if ((e = sh_seg_fp(&ix->seg[c->seg], c->pos, fp)) != 0 ||
	    (e = sh_segdel_ids(&ix->del[c->seg], &ix->seg[c->seg], c->pos, p,
	    len)) != 0) {
		segpath(ix, c->seg, where);
		return e;
	}
	c->pos++;
	return 1;
}

int
sh_index_verify(struct sh_index *ix, char *where)
{
	char path[SH_WHERE], tname[32];
	struct sh_times t;
	int i, e;

	if ((e = each_segment(ix, sh_seg_verify, where)) != 0)
		return e;
	for (i = 0; i < ix->nseg; i++) {
		if ((e = sh_segdel_verify(&ix->del[i], &ix->seg[i])) != 0)
			return sh_ixfile_fail(where, ix->path, ix->dname[i], e);
		/* The add times, where the segment has them. */
		if (!*ix->name[i])
			continue;
		sh_ixfile_timfor(tname, ix->name[i]);
		sh_ixfile_join(path, ix->path, tname, NULL);
		if ((e = sh_times_open(&t, path, ix->seg[i].nid, 0)) != 0)
			return sh_ixfile_fail(where, path, NULL, e);
		sh_times_close(&t);
	}
	return 0;
}

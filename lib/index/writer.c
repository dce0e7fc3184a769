#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/hash.h"
#include "base/grow.h"
#include "base/hmap.h"
#include "base/io.h"
#include "base/radix.h"
#include "index/deletes.h"
#include "index/ixfile.h"
#include "index/times.h"
#include "index/writer.h"

/* Merging: the sources are segments, oldest first, then the batch.  It
 * is read twice, to count the fingerprints then to write
 * (sh_seg_write_from), so that only the IDs of one fingerprint are
 * held. */
struct merge {
	struct sh_seg *seg;
	struct sh_segdel *del;	/* their deletions, left out */
	struct sh_times *times;	/* the add times of their IDs */
	uint64_t *tcur;		/* the number of each one's next ID */
	struct sh_timesw *tw;	/* where the times go, while writing */
	uint32_t now;		/* the batch's */
	int nseg;
	const struct sh_fplist *batch;
	const struct sh_shard *shard;
	struct entry {
		sh_fpval fp;
		uint64_t i;
	} *order;		/* batch entries by (fp, input order) */
	size_t nbatch;		/* those in the shard */
	char *bids;		/* their IDs in that order, each ending in
				 * '\n', entry h's from boff[h] */
	uint64_t *boff, bidbytes;
	uint64_t *head;		/* next entry of each source */
	uint64_t *cur;		/* its fingerprint, while live */
	int *live;
	char *ids;		/* the IDs of the last entry */
	size_t idlen, idcap;
	uint64_t n;		/* entries so far */
	int count;		/* count only: no IDs taken */
	int bad;		/* the source that failed */
};

static int
cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->fp != y->fp)
		return x->fp < y->fp ? -1 : 1;
	return (x->i > y->i) - (x->i < y->i);
}

static int
put_ids(struct merge *m, const char *p, size_t len)
{
	size_t cap;
	char *nb;

	if (m->idlen + len + 1 > m->idcap) {
		for (cap = m->idcap ? m->idcap : 4096; cap < m->idlen + len +
		    1; cap *= 2)
			;
		if ((nb = realloc(m->ids, cap)) == NULL)
			return SH_ENOMEM;
		m->ids = nb;
		m->idcap = cap;
	}
	memcpy(m->ids + m->idlen, p, len);
	m->idlen += len;
	return 0;
}

/* Head fingerprint of source s into *fp; 0 when s is exhausted. */
static int
head(struct merge *m, int s, sh_fpval *fp, int *err)
{
	if (s < m->nseg) {
		while (sh_segdel_dead(&m->del[s], m->head[s]))
			m->tcur[s] += sh_segdel_nids(&m->del[s], m->head[s]++);
		if (m->head[s] >= m->seg[s].nfp)
			return 0;
		return (*err = sh_seg_fp(&m->seg[s], m->head[s], fp)) == 0;
	}
	if (m->head[s] >= m->nbatch)
		return 0;
	*fp = m->order[m->head[s]].fp;
	return 1;
}

/* Append the IDs source s has for fp, but those deleted, with their
 * times (unless counting), and move past them. */
static int
take(struct merge *m, int s, sh_fpval fp)
{
	const char *p, *id;
	size_t len, idlen;
	uint64_t i, pos;
	uint32_t ord;
	int e;

	if (s < m->nseg) {
		pos = m->head[s]++;
		if (m->count)
			return 0;
		if ((e = sh_seg_ids(&m->seg[s], pos, &p, &len)) != 0)
			return e;
		for (ord = 0; sh_ids_next(&p, &len, &id, &idlen); ord++) {
			if (sh_segdel_gone(&m->del[s], pos, ord))
				continue;
			if ((e = put_ids(m, id, idlen + 1)) != 0)
				return e;
			sh_times_put(m->tw, sh_times_at(&m->times[s],
			    m->tcur[s] + ord));
		}
		m->tcur[s] += ord;
		return 0;
	}
	for (i = m->head[s]; m->head[s] < m->nbatch &&
	    m->order[m->head[s]].fp == fp; m->head[s]++)
		if (!m->count)
			sh_times_put(m->tw, m->now);
	return m->count ? 0 : put_ids(m, m->bids + m->boff[i],
	    (size_t)(m->boff[m->head[s]] - m->boff[i]));
}

/* Every source at its first entry, nothing counted.  Return 0 or an
 * error of the segment m->bad. */
static int
merge_rewind(struct merge *m)
{
	int s, e = 0;

	m->n = 0;
	for (s = 0; s <= m->nseg; s++) {
		m->head[s] = 0;
		m->tcur[s] = 0;
		if (!(m->live[s] = head(m, s, &m->cur[s], &e)) && e != 0) {
			m->bad = s;
			return e;
		}
	}
	return 0;
}

/* Ready m to merge its sources: the batch's entries of the shard in
 * order.  Return 0, SH_ENOMEM or an error of the segment m->bad. */
static int
merge_start(struct merge *m)
{
	const char *p;
	uint64_t i, at;
	size_t len;

	m->bad = -1;
	m->order = malloc(m->batch->n * sizeof(*m->order) + 1);
	m->head = calloc((size_t)m->nseg + 1, sizeof(*m->head));
	m->tcur = calloc((size_t)m->nseg + 1, sizeof(*m->tcur));
	m->cur = calloc((size_t)m->nseg + 1, sizeof(*m->cur));
	m->live = calloc((size_t)m->nseg + 1, sizeof(*m->live));
	m->boff = malloc((m->batch->n + 1) * sizeof(*m->boff));
	if (m->order == NULL || m->head == NULL || m->tcur == NULL ||
	    m->cur == NULL ||
	    m->live == NULL || m->boff == NULL)
		return SH_ENOMEM;
	/* Entries outside the index's shard are not its own. */
	for (i = m->nbatch = 0; i < m->batch->n; i++)
		if (sh_shard_fp(m->shard, m->batch->fp[i]) == m->shard->i) {
			m->order[m->nbatch].fp = m->batch->fp[i];
			m->order[m->nbatch++].i = i;
			sh_fplist_id(m->batch, (size_t)i, &len);
			m->bidbytes += len + 1;
		}
	qsort(m->order, m->nbatch, sizeof(*m->order), cmp_entry);
	/* The IDs gathered in that order, in a loop of their own, whose
	 * cache misses overlap; the merge then reads them in order. */
	if ((m->bids = malloc(m->bidbytes + 1)) == NULL)
		return SH_ENOMEM;
	for (i = 0, at = 0; i < m->nbatch; i++) {
		p = sh_fplist_id(m->batch, (size_t)m->order[i].i, &len);
		memcpy(m->bids + at, p, len);
		m->bids[at + len] = '\n';
		m->boff[i] = at;
		at += len + 1;
	}
	m->boff[m->nbatch] = at;
	return merge_rewind(m);
}

/* The next entry of the merge (struct sh_segsrc): every source holding
 * the least fingerprint gives its IDs, oldest first. */
static int
merge_next(void *ctx, sh_fpval *fp, const char **ids, size_t *len)
{
	struct merge *m = ctx;
	sh_fpval min = 0;
	int s, any, e = 0;

	for (s = 0, any = 0; s <= m->nseg; s++)
		if (m->live[s] && (!any || m->cur[s] < min)) {
			min = m->cur[s];
			any = 1;
		}
	if (!any)
		return 0;
	m->idlen = 0;
	for (s = 0; s <= m->nseg; s++) {
		if (!m->live[s] || m->cur[s] != min)
			continue;
		if ((e = take(m, s, min)) != 0 || (!(m->live[s] =
		    head(m, s, &m->cur[s], &e)) && e != 0)) {
			m->bad = s;
			return e;
		}
	}
	m->n++;
	*fp = min;
	*ids = m->ids;
	*len = m->idlen;
	return 1;
}

static void
merge_free(struct merge *m)
{
	free(m->order);
	free(m->head);
	free(m->tcur);
	free(m->cur);
	free(m->live);
	free(m->ids);
	free(m->bids);
	free(m->boff);
}

static int
sync_dir(const char *dir)
{
	int fd, e;

	if ((fd = open(dir, O_RDONLY)) < 0)
		return SH_EIO;
	e = fsync(fd) != 0 && errno != EINVAL ? SH_EIO : 0;
	close(fd);
	return e;
}

/* Unlink path, leaving errno as it was: it tells why we got here. */
static void
remove_keep_errno(const char *path)
{
	int saved = errno;

	unlink(path);
	errno = saved;
}

/* Rename tmp to path, which must not exist: a segment never replaces a
 * file, whatever a MANIFEST says.  A hard link does it at once; where
 * the file system has none, path is looked for first (the writer holds
 * the lock).  Return 0, or -1 with errno set (EEXIST). */
static int
put_new(const char *tmp, const char *path)
{
	struct stat st;

	if (link(tmp, path) == 0)
		return unlink(tmp);
	if (errno != EPERM && errno != EOPNOTSUPP && errno != ENOSYS)
		return -1;
	if (lstat(path, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(tmp, path);
}

/* What put_file writes into the file fd: 0 or an SH_E* code. */
typedef int put_fn(int fd, void *ctx);

/* Create DIR/NAME.tmp, new, open for reading and writing, into *fd (a
 * writer removed any of that name at the start). */
static int
put_begin(const char *dir, const char *name, int *fd, char *where)
{
	char tmp[SH_WHERE];
	int e;

	sh_ixfile_join(tmp, dir, name, ".tmp");
	if ((e = sh_ixfile_open(tmp, O_RDWR | O_CREAT | O_EXCL, fd)) != 0)
		return sh_ixfile_fail(where, tmp, NULL, e);
	return 0;
}

/*
 * Finish the file DIR/NAME.tmp open as fd, written with result e: sync
 * it, close it and rename it to DIR/NAME, then sync the directory; on
 * any error, or when e is one, the temporary file is removed.
 * *renamed (when not NULL) tells whether the rename was done, also when
 * syncing the directory then failed: a MANIFEST is then the index's,
 * maybe not yet on disk.  seg: a segment or a file beside one, which is
 * nobody's until a MANIFEST names it, and never replaces a file.
 */
static int
put_end(const char *dir, const char *name, int fd, int e, int seg,
    char *where, int *renamed)
{
	char tmp[SH_WHERE], path[SH_WHERE];

	if (renamed != NULL)
		*renamed = 0;
	sh_ixfile_join(path, dir, name, NULL);
	sh_ixfile_join(tmp, dir, name, ".tmp");
	if (e == 0 && fsync(fd) != 0)
		e = SH_EIO;
	if (close(fd) != 0 && e == 0)
		e = SH_EIO;
	if (e == 0 && (seg ? put_new(tmp, path) : rename(tmp, path)) != 0)
		e = SH_EIO;
	else if (e == 0) {
		/* Renamed: a MANIFEST is now the index, so stays; a segment
		 * is nobody's yet, so goes. */
		if (renamed != NULL)
			*renamed = 1;
		if ((e = sync_dir(dir)) == 0)
			return 0;
		sh_ixfile_fail(where, dir, NULL, e);
		if (seg)
			remove_keep_errno(path);
		return e;
	}
	sh_ixfile_fail(where, tmp, NULL, e);
	remove_keep_errno(tmp);
	return e;
}

/* Write a file by fn to DIR/NAME (put_begin, put_end). */
static int
put_file(const char *dir, const char *name, put_fn *fn, void *ctx, int seg,
    char *where, int *renamed)
{
	int fd, e;

	if (renamed != NULL)
		*renamed = 0;
	if ((e = put_begin(dir, name, &fd, where)) != 0)
		return e;
	return put_end(dir, name, fd, fn(fd, ctx), seg, where, renamed);
}

/* put_file's writers: text, a segment of fingerprint tables, a segment
 * of band tables. */
struct text {
	const char *p;
	size_t len;
};

static int
put_text(int fd, void *ctx)
{
	struct text *t = ctx;

	return sh_write_all(fd, t->p, t->len);
}

struct segw {
	const struct sh_plan *plan;
	int lean;
	const struct sh_segsrc *src;
	size_t budget;
	const struct sh_progress *pg;
};

static int
put_seg(int fd, void *ctx)
{
	struct segw *g = ctx;

	return sh_seg_write_from(fd, g->plan, g->lean, g->src, g->budget,
	    g->pg);
}

struct bandw {
	const struct sh_index *ix;
	const struct sh_bandsrc *src;
	int nsrc;
	const struct sh_progress *pg;
};

static int
put_bands(int fd, void *ctx)
{
	struct bandw *g = ctx;

	return sh_seg_write_bands(fd, g->ix->t, g->ix->bands, g->ix->rows,
	    g->src, g->nsrc, g->pg);
}

static int
put_manifest(const char *dir, const struct sh_index *ix, char *where,
    int *renamed)
{
	size_t cap = 128 + 128 * (size_t)ix->nseg, len;
	char *buf;
	int i, e, del;

	*renamed = 0;
	if ((buf = malloc(cap)) == NULL)
		return sh_ixfile_fail(where, dir, NULL, SH_ENOMEM);
	/* A lean index is version 2, band tables 3, and one with
	 * deletions 4, which older readers refuse. */
	for (i = 0, del = 0; i < ix->nseg; i++)
		del |= *ix->dname[i] != '\0';
	if (ix->bands)
		len = (size_t)snprintf(buf, cap, "sh-index %d\nbands %u %d %d "
		    "shard %u %u next %llu\n", del ? 4 : 3, (unsigned)ix->t,
		    ix->bands, ix->rows, ix->shard.i, ix->shard.n,
		    (unsigned long long)ix->next);
	else
		len = (size_t)snprintf(buf, cap, "sh-index %d\nk %d plan %d "
		    "%d shard %u %u next %llu%s\n", del ? 4 : ix->lean ? 2 : 1,
		    ix->k, ix->b, ix->r, ix->shard.i, ix->shard.n,
		    (unsigned long long)ix->next, ix->lean ? " lean" : "");
	for (i = 0; i < ix->nseg; i++) {
		len += (size_t)snprintf(buf + len, cap - len, "%s %llu %llu",
		    ix->name[i], (unsigned long long)ix->nfp[i],
		    (unsigned long long)ix->nid[i]);
		if (*ix->dname[i])
			len += (size_t)snprintf(buf + len, cap - len,
			    " %s %llu", ix->dname[i],
			    (unsigned long long)ix->ndel[i]);
		buf[len++] = '\n';
	}
	len += (size_t)snprintf(buf + len, cap - len, "end ");
	sh_hex_format(sh_hash64(buf, len - 4, 0), buf + len);
	len += SH_HEX_LEN;
	buf[len++] = '\n';
	e = put_file(dir, "MANIFEST", put_text, &(struct text){ buf, len }, 0,
	    where, renamed);
	free(buf);
	return e;
}

/* Whether dir/name is a file that writers of an index leave behind: a
 * temporary file of theirs, a segment, a deletion file or a times file
 * (with magic, its magic read). */
static int
leftover(const char *dir, const char *name, int magic)
{
	char path[SH_WHERE], seg[32];
	size_t len = strlen(name);

	if (strcmp(name, "MANIFEST.tmp") == 0)
		return 1;
	if (len > 4 && len - 4 < sizeof(seg) &&
	    strcmp(name + len - 4, ".tmp") == 0) {
		memcpy(seg, name, len - 4);
		seg[len - 4] = '\0';
		return sh_ixfile_segname(seg) || sh_ixfile_delname(seg) ||
		    sh_ixfile_timname(seg);
	}
	sh_ixfile_join(path, dir, name, NULL);
	if (sh_ixfile_delname(name))
		return !magic || sh_segdel_is(path);
	if (sh_ixfile_timname(name))
		return !magic || sh_times_is(path);
	return sh_ixfile_segname(name) && (!magic || sh_seg_is(path));
}

/*
 * Remove what the MANIFEST of ix does not name: the temporary files and
 * segments left by a killed writer.  With check, remove nothing but
 * fail with SH_EMAGIC if dir holds anything else than the files of an
 * index (it is not an index, and is left alone): by their names, and
 * with check 2 by the magic of segments the MANIFEST does not name.
 * Check 0 removes those with the magic of their kind, check 3 every
 * one named like a writer's file.
 */
static int
tidy(const char *dir, const struct sh_index *ix, int check)
{
	char path[SH_WHERE];
	struct dirent *de;
	DIR *d;
	int i, live;

	if ((d = opendir(dir)) == NULL)
		return SH_EIO;
	while ((de = readdir(d)) != NULL) {
		for (i = 0, live = 0; i < ix->nseg; i++)
			live |= strcmp(ix->name[i], de->d_name) == 0 ||
			    strcmp(ix->dname[i], de->d_name) == 0 ||
			    (sh_ixfile_timname(de->d_name) &&
			    strcmp(ix->name[i] + 4, de->d_name + 4) == 0);
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, "LOCK") == 0 ||
		    strcmp(de->d_name, "MANIFEST") == 0 || live)
			continue;
		if (!leftover(dir, de->d_name, check == 0 || check == 2)) {
			if (check == 1 || check == 2) {
				closedir(d);
				return SH_EMAGIC;
			}
			continue;
		}
		if (check == 1 || check == 2)
			continue;
		sh_ixfile_join(path, dir, de->d_name, NULL);
		unlink(path);
	}
	closedir(d);
	return 0;
}

/* Settings of a new or replaced index. */
static void
settings(struct sh_index *ix, const struct sh_ixopt *o)
{
	ix->k = o->k >= 0 ? o->k : SH_INDEX_K;
	ix->b = o->b;
	ix->r = o->r;
	ix->lean = o->lean;
	ix->t = o->t;
	ix->bands = o->bands;
	ix->rows = o->rows;
	ix->shard = o->shard;
	if (ix->shard.n == 0) {
		ix->shard.i = 0;
		ix->shard.n = 1;
	}
	if (ix->next == 0)
		ix->next = 1;
}

struct sh_ixwriter {
	char dir[SH_WHERE];
	int lock;
	struct sh_index ix;	/* the MANIFEST being made */
	int nold;		/* its first nold segments were there before */
	char (*drop)[32];	/* files to remove after the commit */
	int ndrop;
	char (*made)[32];	/* deletion files made since, nobody's
				 * until the commit */
	int nmade;
	int dirty;		/* the MANIFEST must be written */
	int build;		/* replaces the index: one segment in the end */
	size_t budget;
	const struct sh_progress *pg;
	uint32_t now;		/* the add time of what is added */
	int mkdir;		/* this writer made the directory */
};

/* Bytes a batch holds in memory, about. */
static uint64_t
batch_bytes(const struct sh_ixwriter *w, const struct sh_fplist *batch)
{
	return batch->n * (16 + 8 * (uint64_t)w->ix.bands) + batch->idlen;
}

int
sh_ixw_full(const struct sh_ixwriter *w, const struct sh_fplist *batch)
{
	return w->budget != 0 && batch_bytes(w, batch) * 4 > w->budget;
}

/* Append name to the list *v of *n names.  Return 0 or SH_ENOMEM. */
static int
push_name(char (**v)[32], int *n, const char *name)
{
	void *nv;

	if ((nv = realloc(*v, (size_t)(*n + 1) * sizeof(**v))) == NULL)
		return SH_ENOMEM;
	*v = nv;
	snprintf((*v)[(*n)++], sizeof(**v), "%s", name);
	return 0;
}

/* Remove file name of w's directory: now if this writer made it since
 * the commit (mine), else after the commit. */
static int
drop_file(struct sh_ixwriter *w, const char *name, int mine)
{
	char path[SH_WHERE];

	w->dirty = 1;
	if (!mine)
		return push_name(&w->drop, &w->ndrop, name);
	sh_ixfile_join(path, w->dir, name, NULL);
	unlink(path);
	return 0;
}

/* Whether w made deletion file name since the commit; forget it. */
static int
made(struct sh_ixwriter *w, const char *name)
{
	int i;

	for (i = 0; i < w->nmade; i++)
		if (strcmp(w->made[i], name) == 0) {
			memmove(w->made[i], w->made[i + 1], (size_t)(w->nmade -
			    i - 1) * sizeof(*w->made));
			w->nmade--;
			return 1;
		}
	return 0;
}

/* Remove segment i, its times and its deletion file, as drop_file
 * does. */
static int
drop_segment(struct sh_ixwriter *w, int i)
{
	char tname[32];
	int e;

	if (*w->ix.dname[i] && (e = drop_file(w, w->ix.dname[i], made(w,
	    w->ix.dname[i]))) != 0)
		return e;
	sh_ixfile_timfor(tname, w->ix.name[i]);
	if ((e = drop_file(w, tname, i >= w->nold)) != 0)
		return e;
	return drop_file(w, w->ix.name[i], i >= w->nold);
}

/*
 * The batch of a band index as a source (segment.h): its entries in
 * input order, each band's keys sorted when first asked for: by their
 * top 32 bits with the entry below (a radix sort, stable), then runs
 * of equal top bits by the whole key.
 */
struct bbatch {
	const struct sh_fplist *l;
	uint32_t *sel;		/* the lines of the index's shard, n */
	uint64_t n;
	const uint64_t *keys;	/* key j of line i at keys[i b + j] */
	const struct sh_segloc *locs;	/* line i's at locs[i]; NULL none */
	int b, band;		/* bands; the band sorted, -1 none */
	uint64_t *w, *tmp;	/* its order: top bits, then entry */
	struct sh_kv *kv;	/* a run of equal top bits, sorted whole */
	size_t kvcap;
	char *id;		/* an ID and its newline */
	size_t idcap;
};

/* Key j of the entry at w, a word of bb->w. */
static uint64_t
bb_at(const struct bbatch *bb, int j, uint64_t w)
{
	return bb->keys[bb->sel[w & 0xffffffff] * (uint64_t)bb->b +
	    (uint64_t)j];
}

static int
bb_entry(void *ctx, uint64_t i, sh_fpval *fp, const char **id, size_t *len)
{
	struct bbatch *bb = ctx;
	const char *p;
	size_t n;

	i = bb->sel[i];
	p = sh_fplist_id(bb->l, (size_t)i, &n);
	if (sh_grow(&bb->id, &bb->idcap, n + 1, 1) != 0)
		return SH_ENOMEM;
	memcpy(bb->id, p, n);
	bb->id[n] = '\n';
	*fp = bb->l->fp[i];
	*id = bb->id;
	*len = n + 1;
	return 0;
}

static int
bb_loc(void *ctx, uint64_t i, struct sh_segloc *l)
{
	struct bbatch *bb = ctx;

	*l = bb->locs[bb->sel[i]];
	return 0;
}

static int
bb_key(void *ctx, int j, uint64_t i, uint64_t *key, uint32_t *ref)
{
	struct bbatch *bb = ctx;
	uint64_t n = bb->n, r, a, x;

	if (j != bb->band) {
		for (r = 0; r < n; r++)
			bb->w[r] = bb_at(bb, j, r) >> 32 << 32 | r;
		sh_radix_bits(&bb->w, &bb->tmp, (size_t)n, 32, 32, 11);
		/* A run of equal top bits is in order of entry; where its
		 * whole keys differ (rare, unless made so), it is sorted
		 * whole: O(n log n) whatever the keys. */
		for (r = 0; r < n; r = a) {
			for (a = r + 1; a < n && bb->w[a] >> 32 ==
			    bb->w[r] >> 32 && bb_at(bb, j, bb->w[a]) ==
			    bb_at(bb, j, bb->w[r]); a++)
				;
			if (a == n || bb->w[a] >> 32 != bb->w[r] >> 32)
				continue;
			while (a < n && bb->w[a] >> 32 == bb->w[r] >> 32)
				a++;
			if (sh_grow(&bb->kv, &bb->kvcap, (size_t)(a - r),
			    sizeof(*bb->kv)) != 0)
				return SH_ENOMEM;
			for (x = r; x < a; x++) {
				bb->kv[x - r].k = bb_at(bb, j, bb->w[x]);
				bb->kv[x - r].i = (uint32_t)bb->w[x];
			}
			qsort(bb->kv, (size_t)(a - r), sizeof(*bb->kv),
			    sh_kv_cmp);
			for (x = r; x < a; x++)
				bb->w[x] = bb->kv[x - r].k >> 32 << 32 |
				    bb->kv[x - r].i;
		}
		bb->band = j;
	}
	*ref = (uint32_t)(bb->w[i] & 0xffffffff);
	*key = bb_at(bb, j, bb->w[i]);
	return 0;
}

/* The add times of segment name of dir, open as seg, into *t: those of
 * its times file, or for a segment written before they were kept, the
 * time of its file. */
static int
open_times(const char *dir, const char *name, const struct sh_seg *seg,
    struct sh_times *t, char *where)
{
	char path[SH_WHERE], tname[32];
	struct stat st;
	uint32_t fixed = 0;
	int e;

	sh_ixfile_join(path, dir, name, NULL);
	if (stat(path, &st) == 0 && st.st_mtime > 0)
		fixed = (uint64_t)st.st_mtime > UINT32_MAX ? UINT32_MAX :
		    (uint32_t)st.st_mtime;
	sh_ixfile_timfor(tname, name);
	sh_ixfile_join(path, dir, tname, NULL);
	if ((e = sh_times_open(t, path, seg->nid, fixed)) != 0)
		return sh_ixfile_fail(where, path, NULL, e);
	return 0;
}

/* The add times of a band segment merged from m's segments and batch
 * bb: each entry's, in order, but those deleted. */
static void
band_times(struct sh_timesw *tw, const struct merge *m,
    const struct bbatch *bb)
{
	uint64_t u;
	int s;

	for (s = 0; s < m->nseg; s++)
		for (u = 0; u < m->seg[s].nfp; u++)
			if (!sh_segdel_dead(&m->del[s], u))
				sh_times_put(tw, sh_times_at(&m->times[s], u));
	for (u = 0; u < bb->n; u++)
		sh_times_put(tw, m->now);
}

/* A band source that, failing, says which it is in *bad: the segments
 * merged that fail are named, not the segment being written. */
struct bandfrom {
	struct sh_bandsrc in;
	int *bad, s;
};

static int
from_entry(void *ctx, uint64_t i, sh_fpval *fp, const char **id,
    size_t *len)
{
	struct bandfrom *f = ctx;
	int e;

	if ((e = f->in.entry(f->in.ctx, i, fp, id, len)) != 0)
		*f->bad = f->s;
	return e;
}

static int
from_loc(void *ctx, uint64_t i, struct sh_segloc *l)
{
	struct bandfrom *f = ctx;
	int e;

	if ((e = f->in.loc(f->in.ctx, i, l)) != 0)
		*f->bad = f->s;
	return e;
}

static int
from_key(void *ctx, int j, uint64_t i, uint64_t *key, uint32_t *ref)
{
	struct bandfrom *f = ctx;
	int e;

	if ((e = f->in.key(f->in.ctx, j, i, key, ref)) != 0)
		*f->bad = f->s;
	return e;
}

/* The batch with its keys (NULL but for a band index) as a new segment
 * of w, merged with the newest segments while the older neighbour holds
 * fewer than 4 times the fingerprints merged so far (size-tiered, as in
 * an LSM tree): with all, with every segment.  The merge streams: it
 * holds the batch, not the segments. */
static int
add(struct sh_ixwriter *w, const struct sh_fplist *batch,
    const uint64_t *keys, const struct sh_segloc *locs, int all,
    char *where)
{
	struct sh_index *ix = &w->ix;
	struct merge m;
	struct sh_plan plan;
	struct sh_segsrc src;
	struct sh_bandsrc *bsrc = NULL;
	struct sh_delband *dband = NULL;
	struct bandfrom *from = NULL;
	struct bbatch bb;
	struct sh_timesw tw;
	char path[SH_WHERE], name[32], tname[32];
	const char *ids;
	sh_fpval fp;
	uint64_t size, n = 0, gone;
	size_t len, x;
	int i, j = 0, e = 0, tfd;

	if (batch->n == 0 && !all)
		return 0;
	if ((uint64_t)batch->n >= (uint64_t)1 << 32)
		return sh_ixfile_fail(where, w->dir, NULL, SH_ERANGE);
	for (size = batch->n; j < ix->nseg && (all ||
	    ix->nfp[ix->nseg - 1 - j] < 4 * size); j++)
		size += ix->nfp[ix->nseg - 1 - j];
	memset(&m, 0, sizeof(m));
	memset(&bb, 0, sizeof(bb));
	m.now = w->now;
	if ((m.seg = calloc((size_t)j + 1, sizeof(*m.seg))) == NULL ||
	    (m.del = calloc((size_t)j + 1, sizeof(*m.del))) == NULL ||
	    (m.times = calloc((size_t)j + 1, sizeof(*m.times))) == NULL ||
	    (dband = calloc((size_t)j + 1, sizeof(*dband))) == NULL ||
	    (bsrc = calloc((size_t)j + 1, sizeof(*bsrc))) == NULL ||
	    (from = calloc((size_t)j + 1, sizeof(*from))) == NULL) {
		e = SH_ENOMEM;
		goto out;
	}
	for (m.nseg = 0; m.nseg < j; m.nseg++) {
		sh_ixfile_join(path, w->dir, ix->name[ix->nseg - j + m.nseg],
		    NULL);
		if ((e = sh_seg_open(&m.seg[m.nseg], path, 1)) == 0 &&
		    (m.seg[m.nseg].bands != ix->bands ||
		    m.seg[m.nseg].rows != ix->rows ||
		    m.seg[m.nseg].t != ix->t)) {
			sh_seg_close(&m.seg[m.nseg]);
			e = SH_ECORRUPT;
		}
		if (e != 0) {
			sh_ixfile_fail(where, path, NULL, e);
			goto out;
		}
		sh_seg_advise(&m.seg[m.nseg], 1);	/* read in order */
		sh_seg_bandsrc(&m.seg[m.nseg], &bsrc[m.nseg]);
		n += m.seg[m.nseg].nfp;
		if ((e = open_times(w->dir, ix->name[ix->nseg - j + m.nseg],
		    &m.seg[m.nseg], &m.times[m.nseg], where)) != 0) {
			m.nseg++;	/* open: closed at out */
			goto out;
		}
		/* Its deletions are left out, and so dropped. */
		if (!*ix->dname[ix->nseg - j + m.nseg])
			continue;
		sh_ixfile_join(path, w->dir, ix->dname[ix->nseg - j + m.nseg],
		    NULL);
		if ((e = sh_segdel_read(&m.del[m.nseg], path,
		    &m.seg[m.nseg])) == 0 && (e = sh_segdel_bytes(
		    &m.del[m.nseg], &m.seg[m.nseg], &gone)) == 0 && ix->bands)
			sh_segdel_band(&m.del[m.nseg], &bsrc[m.nseg],
			    &dband[m.nseg], &bsrc[m.nseg]);
		if (e != 0) {
			sh_ixfile_fail(where, path, NULL, e);
			m.nseg++;
			goto out;
		}
		bsrc[m.nseg].idbytes -= gone;
		n -= m.del[m.nseg].ndead;
	}
	m.bad = -1;
	if (ix->bands) {
		/* Band tables: the segments' entries, then the batch's
		 * lines of the index's shard. */
		bb.l = batch;
		bb.keys = keys;
		bb.b = ix->bands;
		bb.band = -1;
		bsrc[j].entry = bb_entry;
		bsrc[j].key = bb_key;
		bsrc[j].loc = locs != NULL ? bb_loc : NULL;
		bsrc[j].ctx = &bb;
		bb.locs = locs;
		if ((bb.sel = malloc(batch->n * 4 + 1)) == NULL ||
		    (bb.w = malloc(batch->n * 8 + 1)) == NULL ||
		    (bb.tmp = malloc(batch->n * 8 + 1)) == NULL)
			e = SH_ENOMEM;
		for (x = 0; e == 0 && x < batch->n; x++)
			if (sh_shard_fp(&ix->shard, batch->fp[x]) ==
			    ix->shard.i) {
				bb.sel[bb.n++] = (uint32_t)x;
				sh_fplist_id(batch, x, &len);
				bsrc[j].idbytes += len + 1;
			}
		bsrc[j].n = bb.n;
		n += bb.n;
		for (i = 0; i < j; i++) {
			from[i].in = bsrc[i];
			from[i].bad = &m.bad;
			from[i].s = i;
			bsrc[i].entry = from_entry;
			bsrc[i].key = from_key;
			bsrc[i].loc = bsrc[i].loc != NULL ? from_loc : NULL;
			bsrc[i].ctx = &from[i];
		}
	} else {
		/* Fingerprint tables: the fingerprints counted first; the
		 * IDs are those of all the sources. */
		m.batch = batch;
		m.shard = &ix->shard;
		if ((e = merge_start(&m)) == 0) {
			m.count = 1;
			while ((e = merge_next(&m, &fp, &ids, &len)) == 1)
				;
			m.count = 0;
			n = src.nfp = m.n;
			src.nid = m.nbatch;
			src.idbytes = m.bidbytes;
			for (i = 0; i < m.nseg; i++) {
				src.nid += m.seg[i].nid - m.del[i].n;
				src.idbytes += bsrc[i].idbytes;
			}
			src.next = merge_next;
			src.ctx = &m;
			if (e == 0)
				e = merge_rewind(&m);
		}
		if (e == 0 && ix->b != 0)
			e = sh_plan_blocks(&plan, ix->b, ix->r);
		else if (e == 0 && ix->lean)
			e = sh_plan_blocks(&plan, 2, 1);
		else if (e == 0)
			e = sh_plan_index(&plan, ix->k, src.nfp);
		plan.k = ix->k;
	}
	if (e != 0) {
		if (m.bad >= 0 && m.bad < j)
			sh_ixfile_fail(where, w->dir,
			    ix->name[ix->nseg - j + m.bad], e);
		goto out;
	}
	for (i = ix->nseg - j; e == 0 && i < ix->nseg; i++)
		e = drop_segment(w, i);
	if (e != 0)
		goto out;
	ix->nseg -= j;
	if (w->nold > ix->nseg)
		w->nold = ix->nseg;
	if (n > 0 && ix->next == UINT64_MAX)
		e = sh_ixfile_fail(where, w->dir, "MANIFEST", SH_ERANGE);
	else if (n > 0) {
		snprintf(name, sizeof(name), "seg-%06llu",
		    (unsigned long long)ix->next++);
		/* Its IDs' add times, written as the segment is, land
		 * before it is named. */
		sh_ixfile_timfor(tname, name);
		if ((e = put_begin(w->dir, tname, &tfd, where)) != 0)
			goto out;
		sh_times_begin(&tw, tfd, ix->bands ? n : src.nid);
		m.tw = &tw;
		if (ix->bands)
			e = put_file(w->dir, name, put_bands, &(struct bandw){
			    ix, bsrc, j + 1, w->pg }, 1, where, NULL);
		else
			e = put_file(w->dir, name, put_seg, &(struct segw){
			    &plan, ix->lean, &src, w->budget / 2, w->pg }, 1,
			    where, NULL);
		/* A segment merged that fails names itself, not the new. */
		if (e != 0 && m.bad >= 0 && m.bad < j)
			sh_ixfile_fail(where, w->dir, ix->name[ix->nseg +
			    m.bad], e);
		if (e != 0) {
			close(tfd);
			sh_ixfile_join(path, w->dir, tname, ".tmp");
			remove_keep_errno(path);
			goto out;
		}
		if (ix->bands)
			band_times(&tw, &m, &bb);
		if ((e = put_end(w->dir, tname, tfd, sh_times_end(&tw), 1,
		    where, NULL)) == 0 && (e = sh_ixfile_addname(ix, name, n,
		    ix->bands ? n : src.nid)) != 0) {
			/* Not named in ix, so nobody's: sh_ixw_close would
			 * not find them. */
			sh_ixfile_fail(where, w->dir, NULL, e);
			sh_ixfile_join(path, w->dir, tname, NULL);
			remove_keep_errno(path);
		}
		if (e != 0) {
			sh_ixfile_join(path, w->dir, name, NULL);
			remove_keep_errno(path);
		}
		w->dirty = 1;
	}
out:
	for (i = 0; i < m.nseg; i++) {
		sh_seg_close(&m.seg[i]);
		sh_segdel_free(&m.del[i]);
		sh_times_close(&m.times[i]);
	}
	free(m.seg);
	free(m.del);
	free(m.times);
	free(dband);
	free(from);
	free(bsrc);
	free(bb.sel);
	free(bb.w);
	free(bb.tmp);
	free(bb.kv);
	free(bb.id);
	merge_free(&m);
	return e;
}

int
sh_ixw_add(struct sh_ixwriter *w, const struct sh_fplist *batch,
    const uint64_t *keys, const struct sh_segloc *locs, char *where)
{
	if ((w->ix.bands != 0) != (keys != NULL) || (locs != NULL &&
	    keys == NULL))
		return sh_ixfile_fail(where, w->dir, NULL, SH_EKIND);
	return add(w, batch, keys, locs, 0, where);
}

int
sh_ixw_merge(struct sh_ixwriter *w, char *where)
{
	struct sh_fplist none;
	int i, del = 0;

	for (i = 0; i < w->ix.nseg; i++)
		del |= *w->ix.dname[i] != '\0';
	if (w->ix.nseg < 2 && !del)
		return 0;
	memset(&none, 0, sizeof(none));
	return add(w, &none, NULL, NULL, 1, where);
}

/* The IDs of a list, a set: by their hash (never 0), the entries of
 * one hash chained through next. */
struct idset {
	const struct sh_fplist *l;
	struct sh_hmap map;
	uint32_t *next;
};

static uint64_t
idkey(const char *p, size_t len)
{
	uint64_t h = sh_hash64(p, len, 0);

	return h != 0 ? h : 1;
}

/* The first entry of the set's list with ID p[0..len), or -1. */
static int64_t
idset_find(const struct idset *set, const char *p, size_t len)
{
	const char *q;
	size_t qlen;
	uint32_t v;

	if (!sh_hmap_get(&set->map, idkey(p, len), &v))
		return -1;
	for (; v != UINT32_MAX; v = set->next[v]) {
		q = sh_fplist_id(set->l, v, &qlen);
		if (qlen == len && memcmp(p, q, len) == 0)
			return v;
	}
	return -1;
}

static int
idset_make(struct idset *set, const struct sh_fplist *l)
{
	const char *p;
	size_t i, len;
	uint32_t old, *at;
	int r;

	memset(set, 0, sizeof(*set));
	set->l = l;
	if (l->n >= UINT32_MAX)
		return SH_ERANGE;
	if ((set->next = malloc(l->n * sizeof(*set->next) + 1)) == NULL ||
	    sh_hmap_reserve(&set->map, l->n) != 0)
		return SH_ENOMEM;
	/* An entry goes to the end of its hash's chain: the first of an ID
	 * stays first. */
	for (i = 0; i < l->n; i++) {
		p = sh_fplist_id(l, i, &len);
		set->next[i] = UINT32_MAX;
		if ((r = sh_hmap_add(&set->map, idkey(p, len), (uint32_t)i,
		    &old)) < 0)
			return r;
		if (r == 1) {
			for (at = &set->next[old]; *at != UINT32_MAX;
			    at = &set->next[*at])
				;
			*at = (uint32_t)i;
		}
	}
	return 0;
}

struct delw {
	const struct sh_delrec *rec;
	uint64_t n;
};

static int
put_del(int fd, void *ctx)
{
	struct delw *g = ctx;

	return sh_segdel_write(fd, g->rec, g->n);
}

/* Whether ID number idno of a segment (in its order), id[0..len), goes:
 * a prune's question. */
typedef int gone_fn(void *ctx, uint64_t idno, const char *id, size_t len);

/* A prune: its question, and its records so far. */
struct prune {
	gone_fn *gone;
	void *ctx;
	struct sh_delrec *rec;
	size_t cap;
	uint64_t n;		/* records */
	uint64_t fresh;		/* new ones */
	uint64_t dead;		/* entries deleted whole */
};

/* The records of segment s: those of d, and one for each other ID that
 * pr->gone says goes (entries in order, IDs in order).  Return 0,
 * SH_ENOMEM, SH_ERANGE or SH_ECORRUPT. */
static int
prune_in(struct sh_seg *s, const struct sh_segdel *d, struct prune *pr)
{
	const char *p, *id;
	size_t len, idlen;
	uint64_t pos, oc = 0, first, o, idno = 0, had;
	uint32_t ord;
	int e, isnew;

	pr->n = pr->fresh = pr->dead = 0;
	sh_seg_advise(s, 1);
	for (pos = 0; pos < s->nfp; pos++) {
		/* The records of entry pos so far: d->rec[first .. oc). */
		for (first = oc; oc < d->n && d->rec[oc].pos == pos; oc++)
			;
		if (sh_grow(&pr->rec, &pr->cap, (size_t)(pr->n + oc - first),
		    sizeof(*pr->rec)) != 0)
			return SH_ENOMEM;
		if (sh_segdel_dead(d, pos)) {
			memcpy(pr->rec + pr->n, d->rec + first,
			    (size_t)(oc - first) * sizeof(*pr->rec));
			pr->n += oc - first;
			pr->dead++;
			idno += d->rec[first].nids;
			continue;
		}
		if ((e = sh_seg_ids(s, pos, &p, &len)) != 0)
			return e;
		/* Its records, old and new, in order of ID. */
		o = first;
		had = pr->n;
		for (ord = 0; sh_ids_next(&p, &len, &id, &idlen); ord++) {
			if (ord == UINT32_MAX)
				return SH_ERANGE;
			if ((isnew = !(o < oc && d->rec[o].ord == ord)) == 0)
				o++;
			else if (!pr->gone(pr->ctx, idno + ord, id, idlen))
				continue;
			if (sh_grow(&pr->rec, &pr->cap, (size_t)pr->n + 1,
			    sizeof(*pr->rec)) != 0)
				return SH_ENOMEM;
			pr->rec[pr->n].pos = pos;
			pr->rec[pr->n++].ord = ord;
			pr->fresh += isnew;
		}
		if (o != oc)
			return SH_ECORRUPT;
		for (o = had; o < pr->n; o++)
			pr->rec[o].nids = ord;
		pr->dead += pr->n - had == ord;
		idno += ord;
	}
	return 0;
}

/*
 * Remove segment i from w's index (its files as drop_segment does).
 */
static int
forget_segment(struct sh_ixwriter *w, int i)
{
	struct sh_index *ix = &w->ix;
	size_t k = (size_t)(ix->nseg - i - 1);
	int e;

	if ((e = drop_segment(w, i)) != 0)
		return e;
	memmove(ix->name + i, ix->name + i + 1, k * sizeof(*ix->name));
	memmove(ix->nfp + i, ix->nfp + i + 1, k * sizeof(*ix->nfp));
	memmove(ix->nid + i, ix->nid + i + 1, k * sizeof(*ix->nid));
	memmove(ix->dname + i, ix->dname + i + 1, k * sizeof(*ix->dname));
	memmove(ix->ndel + i, ix->ndel + i + 1, k * sizeof(*ix->ndel));
	ix->nseg--;
	if (i < w->nold)
		w->nold--;
	w->dirty = 1;
	return 0;
}

/*
 * Prune segment i of w's index, open as seg: its deletions so far and
 * those pr says, in a new deletion file that replaces the old one at
 * the commit; or, when every entry is then deleted, the segment goes
 * whole (*forgot set).  Nothing when pr deletes nothing new.
 */
static int
prune_segment(struct sh_ixwriter *w, int i, struct sh_seg *seg,
    struct prune *pr, int *forgot, char *where)
{
	struct sh_index *ix = &w->ix;
	struct sh_segdel d;
	char path[SH_WHERE], name[32];
	int e = 0;

	*forgot = 0;
	memset(&d, 0, sizeof(d));
	if (*ix->dname[i]) {
		sh_ixfile_join(path, w->dir, ix->dname[i], NULL);
		if ((e = sh_segdel_read(&d, path, seg)) != 0)
			return sh_ixfile_fail(where, path, NULL, e);
	}
	e = prune_in(seg, &d, pr);
	sh_segdel_free(&d);
	if (e != 0)
		return sh_ixfile_fail(where, w->dir, ix->name[i], e);
	if (pr->fresh == 0)
		return 0;
	if (pr->dead == seg->nfp) {
		*forgot = 1;
		return forget_segment(w, i) != 0 ? sh_ixfile_fail(where,
		    w->dir, NULL, SH_ENOMEM) : 0;
	}
	/* Its deletions so far, in a file of their own. */
	if (ix->next == UINT64_MAX)
		return sh_ixfile_fail(where, w->dir, "MANIFEST", SH_ERANGE);
	snprintf(name, sizeof(name), "del-%06llu",
	    (unsigned long long)ix->next++);
	/* Known as made before it is, so that nothing is left. */
	if ((e = push_name(&w->made, &w->nmade, name)) != 0)
		return sh_ixfile_fail(where, w->dir, NULL, e);
	if ((e = put_file(w->dir, name, put_del, &(struct delw){ pr->rec,
	    pr->n }, 1, where, NULL)) != 0) {
		w->nmade--;
		return e;
	}
	if (*ix->dname[i] && (e = drop_file(w, ix->dname[i], made(w,
	    ix->dname[i]))) != 0)
		return sh_ixfile_fail(where, w->dir, NULL, e);
	memcpy(ix->dname[i], name, sizeof(name));
	ix->ndel[i] = pr->n;
	w->dirty = 1;
	return 0;
}

/* sh_ixw_delete's question: an ID of the set, first seen entry found. */
struct idgone {
	const struct idset *set;
	unsigned char *found;
};

static int
id_gone(void *ctx, uint64_t idno, const char *id, size_t len)
{
	struct idgone *g = ctx;
	int64_t f;

	(void)idno;
	if ((f = idset_find(g->set, id, len)) < 0)
		return 0;
	g->found[f] = 1;
	return 1;
}

int
sh_ixw_delete(struct sh_ixwriter *w, const struct sh_fplist *ids,
    unsigned char *found, char *where)
{
	struct sh_index *ix = &w->ix;
	struct sh_seg seg;
	struct idset set;
	struct idgone g;
	struct prune pr;
	char path[SH_WHERE];
	int i, e, forgot;

	memset(found, 0, ids->n);
	memset(&pr, 0, sizeof(pr));
	g.set = &set;
	g.found = found;
	pr.gone = id_gone;
	pr.ctx = &g;
	if ((e = idset_make(&set, ids)) != 0)
		goto out;
	for (i = 0; i < ix->nseg && e == 0; i++) {
		sh_ixfile_join(path, w->dir, ix->name[i], NULL);
		if ((e = sh_seg_open(&seg, path, 1)) != 0) {
			sh_ixfile_fail(where, path, NULL, e);
			break;
		}
		e = prune_segment(w, i, &seg, &pr, &forgot, where);
		sh_seg_close(&seg);
		i -= forgot;
	}
out:
	free(pr.rec);
	free(set.next);
	sh_hmap_free(&set.map);
	return e;
}

/* sh_ixw_expire's question: added before the cutoff. */
struct oldgone {
	const struct sh_times *t;
	uint32_t cutoff;
};

static int
old_gone(void *ctx, uint64_t idno, const char *id, size_t len)
{
	struct oldgone *g = ctx;

	(void)id;
	(void)len;
	return sh_times_at(g->t, idno) < g->cutoff;
}

int
sh_ixw_expire(struct sh_ixwriter *w, uint32_t cutoff, char *where)
{
	struct sh_index *ix = &w->ix;
	struct sh_times t;
	struct sh_seg seg;
	struct oldgone g;
	struct prune pr;
	char path[SH_WHERE];
	int i, e = 0, forgot;

	memset(&pr, 0, sizeof(pr));
	g.t = &t;
	g.cutoff = cutoff;
	pr.gone = old_gone;
	pr.ctx = &g;
	for (i = 0; i < ix->nseg && e == 0; i++) {
		sh_ixfile_join(path, w->dir, ix->name[i], NULL);
		if ((e = sh_seg_open(&seg, path, 1)) != 0) {
			sh_ixfile_fail(where, path, NULL, e);
			break;
		}
		forgot = 0;
		/* A segment all older goes whole, one all newer stays,
		 * without reading its IDs. */
		if ((e = open_times(w->dir, ix->name[i], &seg, &t,
		    where)) == 0) {
			if (t.max < cutoff && (e = forget_segment(w, i)) == 0)
				forgot = 1;
			else if (e == 0 && t.min < cutoff)
				e = prune_segment(w, i, &seg, &pr, &forgot,
				    where);
			else if (e != 0)
				sh_ixfile_fail(where, w->dir, NULL, e);
			sh_times_close(&t);
		}
		sh_seg_close(&seg);
		i -= forgot;
	}
	free(pr.rec);
	return e;
}

int
sh_ixw_commit(struct sh_ixwriter *w, char *where)
{
	struct sh_fplist none;
	char path[SH_WHERE];
	int i, e, renamed;

	if (!w->dirty)
		return 0;
	/* A build made in several batches ends as one segment. */
	memset(&none, 0, sizeof(none));
	if (w->build && w->ix.nseg > 1 && (e = add(w, &none, NULL, NULL, 1,
	    where)) != 0)
		return e;
	if ((e = put_manifest(w->dir, &w->ix, where, &renamed)) != 0) {
		if (renamed) {
			/* The new MANIFEST is in place, perhaps not yet on
			 * disk: its segments and the old ones all stay. */
			w->dirty = 0;
			w->ndrop = 0;
			w->nmade = 0;
			w->nold = w->ix.nseg;
		}
		return e;
	}
	w->dirty = 0;
	w->nmade = 0;
	for (i = 0; i < w->ndrop; i++) {
		sh_ixfile_join(path, w->dir, w->drop[i], NULL);
		unlink(path);
	}
	w->ndrop = 0;
	w->nold = w->ix.nseg;
	return 0;
}

int
sh_ixw_pending(const struct sh_ixwriter *w)
{
	return w->dirty;
}

void
sh_ixw_close(struct sh_ixwriter *w)
{
	char path[SH_WHERE], tname[32];
	int i;

	if (w == NULL)
		return;
	/* Segments made but not committed are nobody's. */
	for (i = w->nold; i < w->ix.nseg; i++) {
		sh_ixfile_join(path, w->dir, w->ix.name[i], NULL);
		unlink(path);
		sh_ixfile_timfor(tname, w->ix.name[i]);
		sh_ixfile_join(path, w->dir, tname, NULL);
		unlink(path);
	}
	for (i = 0; i < w->nmade; i++) {
		sh_ixfile_join(path, w->dir, w->made[i], NULL);
		unlink(path);
	}
	sh_index_close(&w->ix);
	/* A directory this writer made and never gave a MANIFEST is
	 * removed again, its LOCK first (rmdir fails if another writer
	 * has put anything in it). */
	sh_ixfile_join(path, w->dir, "MANIFEST", NULL);
	if (w->mkdir && access(path, F_OK) != 0 && errno == ENOENT) {
		sh_ixfile_join(path, w->dir, "LOCK", NULL);
		unlink(path);
		rmdir(w->dir);
	}
	if (w->lock >= 0)
		close(w->lock);
	free(w->drop);
	free(w->made);
	free(w);
}

int
sh_ixw_open(struct sh_ixwriter **wp, const char *dir,
    const struct sh_ixopt *o, char *where)
{
	struct sh_ixwriter *w;
	struct sh_index chk;
	char lock[SH_WHERE];
	int e, fresh, i, made;

	*wp = NULL;
	if (strlen(dir) > SH_IXFILE_DIRMAX)
		errno = ENAMETOOLONG;
	if (strlen(dir) > SH_IXFILE_DIRMAX || ((made = mkdir(dir, 0777) ==
	    0) == 0 && errno != EEXIST))
		return sh_ixfile_fail(where, dir, NULL, SH_EIO);
	if ((w = calloc(1, sizeof(*w))) == NULL) {
		if (made)
			rmdir(dir);
		return SH_ENOMEM;
	}
	w->mkdir = made;
	w->lock = -1;
	w->budget = o->budget;
	w->now = o->now != 0 ? o->now : (uint32_t)time(NULL);
	w->build = o->replace;
	w->pg = o->pg;
	sh_ixfile_join(w->dir, dir, NULL, NULL);
	sh_ixfile_join(lock, dir, "LOCK", NULL);
	/* A directory that holds anything else is not an index, and is
	 * left alone; LOCK is no link, FIFO or device. */
	if ((e = tidy(dir, &w->ix, 1)) != 0) {
		/* Or it cannot be listed (errno tells why: no memory). */
		e = sh_ixfile_fail(where, dir, NULL, e);
		goto out;
	}
	if ((e = sh_ixfile_open(lock, O_RDWR | O_CREAT, &w->lock)) != 0) {
		w->lock = -1;
		e = sh_ixfile_fail(where, lock, NULL, e);
		goto out;
	}
	while ((e = flock(w->lock, LOCK_EX)) != 0 && errno == EINTR)
		;
	if (e != 0) {
		e = sh_ixfile_fail(where, lock, NULL, SH_EIO);
		goto out;
	}
	e = sh_ixfile_manifest(&w->ix, dir, where);
	/* The segments named so far are the index's, even when reading
	 * the MANIFEST failed half-way: never removed on the way out. */
	w->nold = w->ix.nseg;
	if ((fresh = e == SH_EIO && errno == ENOENT)) {
		settings(&w->ix, o);
		w->dirty = 1;
		e = 0;
	} else if (e != 0)
		goto out;
	else if (o->replace && !o->force)
		e = sh_ixfile_fail(where, dir, NULL, SH_EEXIST);
	else if (o->k >= 0 && o->k != w->ix.k && !o->replace)
		e = sh_ixfile_fail(where, dir, NULL, SH_EKMISMATCH);
	else if (!o->replace && (o->bands != w->ix.bands ||
	    o->rows != w->ix.rows || o->t != w->ix.t))
		e = sh_ixfile_fail(where, dir, NULL, SH_EKIND);
	else if (o->shard.n != 0 && !o->replace && (o->shard.n !=
	    w->ix.shard.n || o->shard.i != w->ix.shard.i))
		e = sh_ixfile_fail(where, dir, NULL, SH_ESHARD);
	else if (!o->replace && (e = sh_index_open(&chk, dir, where)) == 0)
		/* An add checks what a reader checks: each segment named is
		 * there, of the index's kind, its header and checksums
		 * whole, its counts those of the MANIFEST. */
		sh_index_close(&chk);
	/* With a MANIFEST, the directory is an index: what it does not
	 * name, by its name a file of writers, is a leftover, whatever it
	 * holds (an empty segment, a FIFO, a link, removed unread).
	 * Without, a segment must have its magic to be removed. */
	if (e == 0 && ((fresh && (e = tidy(dir, &w->ix, 2)) != 0) ||
	    (e = tidy(dir, &w->ix, fresh ? 0 : 3)) != 0))
		sh_ixfile_fail(where, dir, NULL, e);
	w->nold = w->ix.nseg;
	if (e == 0 && !fresh && o->replace) {
		/* A build replaces every segment, at the commit. */
		settings(&w->ix, o);
		for (i = 0; e == 0 && i < w->ix.nseg; i++)
			e = drop_segment(w, i);
		w->ix.nseg = w->nold = 0;
		w->dirty = 1;
	}
out:
	if (e != 0) {
		/* Removing what it made keeps the errno a message quotes. */
		i = errno;
		sh_ixw_close(w);
		errno = i;
	} else
		*wp = w;
	return e;
}

#include <sys/file.h>
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/hex.h"
#include "base/io.h"
#include "index/index.h"

#define MANIFEST_MAX (64 << 20)

/* Longest index path: room is left for "/seg-NNN.tmp" names. */
#define DIRMAX (SH_WHERE - 64)

/* out = dir "/" name suffix, cut to SH_WHERE - 1 bytes; name and suffix
 * may be NULL. */
static void
join(char *out, const char *dir, const char *name, const char *suffix)
{
	const char *part[4];
	size_t n = 0, len;
	int i;

	part[0] = dir;
	part[1] = name != NULL ? "/" : NULL;
	part[2] = name;
	part[3] = suffix;
	for (i = 0; i < 4; i++) {
		if (part[i] == NULL)
			continue;
		len = strlen(part[i]);
		if (len > SH_WHERE - 1 - n)
			len = SH_WHERE - 1 - n;
		memcpy(out + n, part[i], len);
		n += len;
	}
	out[n] = '\0';
}

static int
fail(char *where, const char *dir, const char *name, int e)
{
	int saved = errno;

	join(where, dir, name, NULL);
	errno = saved;
	return e;
}

static void
free_names(struct sh_index *ix)
{
	free(ix->name);
	free(ix->nfp);
	free(ix->nid);
	ix->name = NULL;
	ix->nfp = ix->nid = NULL;
	ix->nseg = 0;
}

static int
add_name(struct sh_index *ix, const char *name, uint64_t nfp, uint64_t nid)
{
	void *a, *b, *c;
	size_t n = (size_t)ix->nseg + 1;

	a = realloc(ix->name, n * sizeof(*ix->name));
	if (a != NULL)
		ix->name = a;
	b = realloc(ix->nfp, n * sizeof(*ix->nfp));
	if (b != NULL)
		ix->nfp = b;
	c = realloc(ix->nid, n * sizeof(*ix->nid));
	if (c != NULL)
		ix->nid = c;
	if (a == NULL || b == NULL || c == NULL)
		return SH_ENOMEM;
	snprintf(ix->name[ix->nseg], sizeof(*ix->name), "%s", name);
	ix->nfp[ix->nseg] = nfp;
	ix->nid[ix->nseg] = nid;
	ix->nseg++;
	return 0;
}

/* A segment name: "seg-" and 1 to 20 digits. */
static int
segname(const char *s)
{
	size_t n = strspn(s + 4, "0123456789");

	return strncmp(s, "seg-", 4) == 0 && n >= 1 && n <= 20 &&
	    s[4 + n] == '\0';
}

/* Parse the MANIFEST text p[0..len): its last line is "end " and the
 * XXH64 of everything before it. */
static int
parse_manifest(struct sh_index *ix, char *p, size_t len)
{
	char *line, *last, *nl, name[32];
	unsigned long long a, b;
	uint64_t sum;
	int n, v, i;

	if (len < 9 || memcmp(p, "sh-index ", 9) != 0)
		return SH_EMAGIC;
	if (p[len - 1] != '\n')
		return SH_ETRUNC;
	for (last = p + len - 1; last > p && last[-1] != '\n'; last--)
		;
	if (strncmp(last, "end ", 4) != 0)
		return SH_ETRUNC;
	if (sh_hex_parse(last + 4, (size_t)(p + len - 1 - (last + 4)),
	    &sum) != 0 || sum != sh_hash64(p, (size_t)(last - p), 0))
		return SH_ECORRUPT;
	for (line = p, i = 0; line < last; line = nl + 1, i++) {
		nl = memchr(line, '\n', (size_t)(last - line));
		*nl = '\0';
		n = -1;
		if (i == 0) {
			if (sscanf(line, "sh-index %d%n", &v, &n) != 1 ||
			    line[n] != '\0')
				return SH_ECORRUPT;
			if (v != 1)
				return SH_EVERSION;
		} else if (i == 1) {
			if (sscanf(line, "k %d plan %d %d shard %u %u next %llu%n",
			    &ix->k, &ix->b, &ix->r, &ix->shard.i, &ix->shard.n,
			    &a, &n) != 6 || line[n] != '\0' ||
			    ix->k < 0 || ix->k > SH_PLAN_KMAX || ix->b < 0 ||
			    ix->b > SH_PLAN_BMAX || ix->r < 0 || ix->r > ix->b ||
			    !ix->b != !ix->r ||
			    ix->shard.n < 1 || ix->shard.i >= ix->shard.n)
				return SH_ECORRUPT;
			ix->next = a;
		} else if (sscanf(line, "%31s %llu %llu%n", name, &a, &b,
		    &n) != 3 || line[n] != '\0' || !segname(name))
			return SH_ECORRUPT;
		else if (add_name(ix, name, a, b) != 0)
			return SH_ENOMEM;
	}
	return i >= 2 ? 0 : SH_ECORRUPT;
}

/* Read DIR/MANIFEST into ix.  SH_EIO with errno ENOENT when absent. */
static int
read_manifest(struct sh_index *ix, const char *dir, char *where)
{
	char path[SH_WHERE], *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	FILE *f;
	int e;

	free_names(ix);
	join(path, dir, "MANIFEST", NULL);
	if ((f = fopen(path, "r")) == NULL)
		return fail(where, path, NULL, SH_EIO);
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			if (cap > MANIFEST_MAX ||
			    (nb = realloc(buf, cap)) == NULL) {
				free(buf);
				fclose(f);
				return fail(where, path, NULL, cap >
				    MANIFEST_MAX ? SH_ECORRUPT : SH_ENOMEM);
			}
			buf = nb;
		}
		if ((got = fread(buf + len, 1, cap - len, f)) == 0)
			break;
		len += got;
	}
	e = ferror(f) ? SH_EIO : parse_manifest(ix, buf, len);
	fclose(f);
	free(buf);
	return e ? fail(where, path, NULL, e) : 0;
}

void
sh_index_close(struct sh_index *ix)
{
	int i;

	for (i = 0; ix->seg != NULL && i < ix->nseg; i++)
		sh_seg_close(&ix->seg[i]);
	free(ix->seg);
	free_names(ix);
	memset(ix, 0, sizeof(*ix));
}

/* Open the segments ix names; an absent one is SH_EIO with ENOENT. */
static int
open_segments(struct sh_index *ix, const char *dir, char *where)
{
	char path[SH_WHERE];
	int i, e;

	if ((ix->seg = calloc((size_t)ix->nseg + 1, sizeof(*ix->seg))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < ix->nseg; i++) {
		join(path, dir, ix->name[i], NULL);
		if ((e = sh_seg_open(&ix->seg[i], path)) != 0)
			return fail(where, path, NULL, e);
		if (ix->seg[i].nfp != ix->nfp[i] ||
		    ix->seg[i].nid != ix->nid[i])
			return fail(where, path, NULL, SH_ECORRUPT);
	}
	return 0;
}

int
sh_index_open(struct sh_index *ix, const char *path, char *where)
{
	struct stat st;
	int tries, e;

	memset(ix, 0, sizeof(*ix));
	if (strlen(path) > DIRMAX) {
		errno = ENAMETOOLONG;
		return fail(where, path, NULL, SH_EIO);
	}
	join(ix->path, path, NULL, NULL);
	if (stat(path, &st) != 0)
		return fail(where, path, NULL, SH_EIO);
	if (S_ISREG(st.st_mode)) {
		if ((ix->seg = calloc(1, sizeof(*ix->seg))) == NULL)
			return SH_ENOMEM;
		if ((e = sh_seg_open(&ix->seg[0], path)) != 0) {
			sh_index_close(ix);
			return fail(where, path, NULL, e);
		}
		ix->k = ix->seg[0].plan.k;
		return add_name(ix, "", ix->seg[0].nfp, ix->seg[0].nid);
	}
	/* A writer may remove a segment between MANIFEST and open. */
	for (tries = 0; tries < 100; tries++) {
		sh_index_close(ix);
		join(ix->path, path, NULL, NULL);
		e = read_manifest(ix, path, where);
		if (e == SH_EIO && errno == ENOENT)
			return fail(where, path, NULL, SH_EMAGIC);
		if (e == 0 && (e = open_segments(ix, path, where)) == 0)
			return 0;
		if (e != SH_EIO || errno != ENOENT)
			break;
	}
	sh_index_close(ix);
	return e;
}

int
sh_index_ids(struct sh_index *ix, const struct sh_hit *h, const char **p,
    size_t *len, char *where)
{
	int e;

	if ((e = sh_seg_ids(&ix->seg[h->seg], h->pos, p, len)) != 0)
		sh_index_segpath(ix, h->seg, where);
	return e;
}

void
sh_index_segpath(const struct sh_index *ix, int i, char *where)
{
	join(where, ix->path, *ix->name[i] ? ix->name[i] : NULL, NULL);
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

int
sh_index_search(struct sh_index *ix, uint64_t fp, int k, struct sh_hits *h,
    char *where)
{
	size_t first = h->n;
	int i, e;

	for (i = 0; i < ix->nseg; i++)
		if ((e = sh_seg_search(&ix->seg[i], fp, k, i, h)) != 0) {
			sh_index_segpath(ix, i, where);
			return e;
		}
	if (h->n > first)
		qsort(h->v + first, h->n - first, sizeof(*h->v), cmp_hit);
	return 0;
}

/* Merging: the sources are segments, oldest first, then the batch. */
struct merge {
	struct sh_seg *seg;
	int nseg;
	const struct sh_fplist *batch;
	const struct sh_shard *shard;
	struct entry {
		uint64_t fp, i;
	} *order;		/* batch entries by (fp, input order) */
	size_t nbatch;		/* those in the shard */
	uint64_t *head;		/* next entry of each source */
	uint64_t *cur;		/* its fingerprint, while live */
	int *live;
	uint64_t *fp, *idoff;	/* the result */
	char *ids;
	size_t n, nid, idlen, idcap;
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
put_ids(struct merge *m, const char *p, size_t len, int newline)
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
	if (newline) {
		m->ids[m->idlen++] = '\n';
		m->nid++;
	}
	return 0;
}

/* Head fingerprint of source s into *fp; 0 when s is exhausted. */
static int
head(struct merge *m, int s, uint64_t *fp, int *err)
{
	if (s < m->nseg) {
		if (m->head[s] >= m->seg[s].nfp)
			return 0;
		return (*err = sh_seg_fp(&m->seg[s], m->head[s], fp)) == 0;
	}
	if (m->head[s] >= m->nbatch)
		return 0;
	*fp = m->order[m->head[s]].fp;
	return 1;
}

/* Append the IDs source s has for fp, and move past them. */
static int
take(struct merge *m, int s, uint64_t fp)
{
	const char *p;
	size_t len;
	uint64_t i;
	int e;

	if (s < m->nseg) {
		if ((e = sh_seg_ids(&m->seg[s], m->head[s]++, &p, &len)) != 0)
			return e;
		for (i = 0; i < len; i++)
			m->nid += p[i] == '\n';
		return put_ids(m, p, len, 0);
	}
	for (; m->head[s] < m->nbatch; m->head[s]++) {
		i = m->order[m->head[s]].i;
		if (m->order[m->head[s]].fp != fp)
			break;
		p = sh_fplist_id(m->batch, (size_t)i, &len);
		if ((e = put_ids(m, p, len, 1)) != 0)
			return e;
	}
	return 0;
}

/* Merge the sources into m->fp, m->idoff, m->ids.  Return 0, SH_ENOMEM,
 * or SH_ECORRUPT with *bad the failing segment. */
static int
merge(struct merge *m, int *bad)
{
	uint64_t total = m->batch->n, i, min = 0;
	int s, any, e = 0;

	for (s = 0; s < m->nseg; s++)
		total += m->seg[s].nfp;
	m->order = malloc(m->batch->n * sizeof(*m->order) + 1);
	m->head = calloc((size_t)m->nseg + 1, sizeof(*m->head));
	m->cur = calloc((size_t)m->nseg + 1, sizeof(*m->cur));
	m->live = calloc((size_t)m->nseg + 1, sizeof(*m->live));
	m->fp = malloc(total * sizeof(*m->fp) + 1);
	m->idoff = malloc((total + 1) * sizeof(*m->idoff));
	if (m->order == NULL || m->head == NULL || m->cur == NULL ||
	    m->live == NULL || m->fp == NULL || m->idoff == NULL)
		return SH_ENOMEM;
	/* Entries outside the index's shard are not its own. */
	for (i = m->nbatch = 0; i < m->batch->n; i++)
		if (sh_shard_fp(m->shard, m->batch->fp[i]) == m->shard->i) {
			m->order[m->nbatch].fp = m->batch->fp[i];
			m->order[m->nbatch++].i = i;
		}
	qsort(m->order, m->nbatch, sizeof(*m->order), cmp_entry);
	m->idoff[0] = 0;
	for (s = 0; s <= m->nseg; s++)
		if (!(m->live[s] = head(m, s, &m->cur[s], &e)) && e != 0) {
			*bad = s;
			return e;
		}
	for (;;) {
		for (s = 0, any = 0; s <= m->nseg; s++)
			if (m->live[s] && (!any || m->cur[s] < min)) {
				min = m->cur[s];
				any = 1;
			}
		if (!any)
			return 0;
		/* Every source holding min, oldest first; then its next. */
		for (s = 0; s <= m->nseg; s++) {
			if (!m->live[s] || m->cur[s] != min)
				continue;
			if ((e = take(m, s, min)) != 0 || (!(m->live[s] =
			    head(m, s, &m->cur[s], &e)) && e != 0)) {
				*bad = s;
				return e;
			}
		}
		m->fp[m->n++] = min;
		m->idoff[m->n] = m->idlen;
	}
}

static void
merge_free(struct merge *m)
{
	free(m->order);
	free(m->head);
	free(m->cur);
	free(m->live);
	free(m->fp);
	free(m->idoff);
	free(m->ids);
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

/* Write data to DIR/NAME.tmp, sync it, rename it to DIR/NAME. */
static int
put_file(const char *dir, const char *name, const struct sh_plan *plan,
    const struct sh_segdata *d, const char *text, size_t len, char *where)
{
	char tmp[SH_WHERE], path[SH_WHERE];
	int fd, e = 0;

	join(path, dir, name, NULL);
	join(tmp, dir, name, ".tmp");
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666)) < 0)
		return fail(where, tmp, NULL, SH_EIO);
	if (d != NULL)
		e = sh_seg_write(fd, plan, d);
	else
		e = sh_write_all(fd, text, len);
	if (e == 0 && fsync(fd) != 0)
		e = SH_EIO;
	if (close(fd) != 0 && e == 0)
		e = SH_EIO;
	if (e == 0 && rename(tmp, path) != 0)
		e = SH_EIO;
	if (e == 0 && (e = sync_dir(dir)) == 0)
		return 0;
	fail(where, tmp, NULL, e);
	unlink(tmp);
	return e;
}

static int
put_manifest(const char *dir, const struct sh_index *ix, char *where)
{
	size_t cap = 128 + 80 * (size_t)ix->nseg, len;
	char *buf;
	int i, e;

	if ((buf = malloc(cap)) == NULL)
		return SH_ENOMEM;
	len = (size_t)snprintf(buf, cap, "sh-index 1\nk %d plan %d %d "
	    "shard %u %u next %llu\n", ix->k, ix->b, ix->r, ix->shard.i,
	    ix->shard.n, (unsigned long long)ix->next);
	for (i = 0; i < ix->nseg; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s %llu %llu\n",
		    ix->name[i], (unsigned long long)ix->nfp[i],
		    (unsigned long long)ix->nid[i]);
	len += (size_t)snprintf(buf + len, cap - len, "end ");
	sh_hex_format(sh_hash64(buf, len - 4, 0), buf + len);
	len += SH_HEX_LEN;
	buf[len++] = '\n';
	e = put_file(dir, "MANIFEST", NULL, NULL, buf, len, where);
	free(buf);
	return e;
}

/*
 * Remove what the MANIFEST of ix does not name: temporary files and
 * segments left by a killed writer.  With check, remove nothing but fail
 * with SH_EMAGIC if dir holds anything an index does not (it is not an
 * index).
 */
static int
tidy(const char *dir, const struct sh_index *ix, int check)
{
	char path[SH_WHERE];
	struct dirent *de;
	size_t len;
	DIR *d;
	int i, live;

	if ((d = opendir(dir)) == NULL)
		return SH_EIO;
	while ((de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		for (i = 0, live = 0; i < ix->nseg; i++)
			live |= strcmp(ix->name[i], de->d_name) == 0;
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0 ||
		    strcmp(de->d_name, "LOCK") == 0 ||
		    strcmp(de->d_name, "MANIFEST") == 0 || live)
			continue;
		if (!segname(de->d_name) && (len < 4 ||
		    strcmp(de->d_name + len - 4, ".tmp") != 0)) {
			if (check) {
				closedir(d);
				return SH_EMAGIC;
			}
			continue;
		}
		if (check)
			continue;
		join(path, dir, de->d_name, NULL);
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
	char (*drop)[32];	/* segments to remove after the commit */
	int ndrop;
	int dirty;		/* the MANIFEST must be written */
	size_t budget;
};

/* Bytes a batch holds in memory, about. */
static uint64_t
batch_bytes(const struct sh_fplist *batch)
{
	return batch->n * 16 + batch->idlen;
}

int
sh_ixw_full(const struct sh_ixwriter *w, const struct sh_fplist *batch)
{
	return w->budget != 0 && batch_bytes(batch) * 4 > w->budget;
}

/* Bytes a merge of the last j segments of w and a batch holds, about:
 * the segments' sizes, thrice (merge, tables, sort), and the batch. */
static uint64_t
merge_cost(struct sh_ixwriter *w, int j, uint64_t batch)
{
	char path[SH_WHERE];
	struct stat st;
	uint64_t c = batch;
	int i;

	for (i = w->ix.nseg - j; i < w->ix.nseg; i++) {
		join(path, w->dir, w->ix.name[i], NULL);
		c += stat(path, &st) == 0 ? 3 * (uint64_t)st.st_size : 0;
	}
	return c;
}

/* Remember segment i for removal: now if this writer made it, else after
 * the commit. */
static int
drop_segment(struct sh_ixwriter *w, int i)
{
	char path[SH_WHERE];
	void *nd;

	w->dirty = 1;
	if (i >= w->nold) {
		join(path, w->dir, w->ix.name[i], NULL);
		unlink(path);
		return 0;
	}
	if ((nd = realloc(w->drop, (size_t)(w->ndrop + 1) *
	    sizeof(*w->drop))) == NULL)
		return SH_ENOMEM;
	w->drop = nd;
	memcpy(w->drop[w->ndrop++], w->ix.name[i], sizeof(*w->drop));
	return 0;
}

int
sh_ixw_add(struct sh_ixwriter *w, const struct sh_fplist *batch,
    char *where)
{
	struct sh_index *ix = &w->ix;
	struct merge m;
	struct sh_plan plan;
	struct sh_segdata sd;
	char path[SH_WHERE], name[32];
	uint64_t size, bytes = batch_bytes(batch);
	int i, j = 0, bad = -1, e = 0;

	if (batch->n == 0)
		return 0;
	/* Size-tiered: merge the newest while they are not much larger. */
	for (size = batch->n; j < ix->nseg && ix->nfp[ix->nseg - 1 - j] <
	    4 * size && (w->budget == 0 || merge_cost(w, j + 1, bytes) <=
	    w->budget); j++)
		size += ix->nfp[ix->nseg - 1 - j];
	memset(&m, 0, sizeof(m));
	if ((m.seg = calloc((size_t)j + 1, sizeof(*m.seg))) == NULL)
		return SH_ENOMEM;
	for (m.nseg = 0; m.nseg < j; m.nseg++) {
		join(path, w->dir, ix->name[ix->nseg - j + m.nseg], NULL);
		if ((e = sh_seg_open(&m.seg[m.nseg], path)) != 0) {
			fail(where, path, NULL, e);
			goto out;
		}
	}
	m.batch = batch;
	m.shard = &ix->shard;
	if ((e = merge(&m, &bad)) != 0) {
		if (bad >= 0 && bad < j)
			fail(where, w->dir, ix->name[ix->nseg - j + bad], e);
		goto out;
	}
	if (ix->b != 0)
		e = sh_plan_blocks(&plan, ix->b, ix->r);
	else
		e = sh_plan_index(&plan, ix->k, m.n);
	plan.k = ix->k;
	for (i = ix->nseg - j; e == 0 && i < ix->nseg; i++)
		e = drop_segment(w, i);
	if (e != 0)
		goto out;
	ix->nseg -= j;
	if (w->nold > ix->nseg)
		w->nold = ix->nseg;
	if (m.n > 0) {
		snprintf(name, sizeof(name), "seg-%06llu",
		    (unsigned long long)ix->next++);
		sd.fp = m.fp;
		sd.idoff = m.idoff;
		sd.ids = m.ids;
		sd.nfp = m.n;
		sd.nid = m.nid;
		if ((e = put_file(w->dir, name, &plan, &sd, NULL, 0, where)) ==
		    0)
			e = add_name(ix, name, m.n, m.nid);
		w->dirty = 1;
	}
out:
	for (i = 0; i < m.nseg; i++)
		sh_seg_close(&m.seg[i]);
	free(m.seg);
	merge_free(&m);
	return e;
}

int
sh_ixw_commit(struct sh_ixwriter *w, char *where)
{
	char path[SH_WHERE];
	int i, e;

	if (!w->dirty)
		return 0;
	if ((e = put_manifest(w->dir, &w->ix, where)) != 0)
		return e;
	w->dirty = 0;
	for (i = 0; i < w->ndrop; i++) {
		join(path, w->dir, w->drop[i], NULL);
		unlink(path);
	}
	w->ndrop = 0;
	w->nold = w->ix.nseg;
	return 0;
}

void
sh_ixw_close(struct sh_ixwriter *w)
{
	char path[SH_WHERE];
	int i;

	if (w == NULL)
		return;
	/* Segments made but not committed are nobody's. */
	for (i = w->nold; i < w->ix.nseg; i++) {
		join(path, w->dir, w->ix.name[i], NULL);
		unlink(path);
	}
	sh_index_close(&w->ix);
	if (w->lock >= 0)
		close(w->lock);
	free(w->drop);
	free(w);
}

int
sh_ixw_open(struct sh_ixwriter **wp, const char *dir,
    const struct sh_ixopt *o, char *where)
{
	struct sh_ixwriter *w;
	char lock[SH_WHERE];
	int e, fresh, i;

	*wp = NULL;
	if (strlen(dir) > DIRMAX)
		errno = ENAMETOOLONG;
	if (strlen(dir) > DIRMAX || (mkdir(dir, 0777) != 0 &&
	    errno != EEXIST))
		return fail(where, dir, NULL, SH_EIO);
	if ((w = calloc(1, sizeof(*w))) == NULL)
		return SH_ENOMEM;
	w->lock = -1;
	w->budget = o->budget;
	join(w->dir, dir, NULL, NULL);
	join(lock, dir, "LOCK", NULL);
	if (tidy(dir, &w->ix, 1) != 0 && access(lock, F_OK) != 0) {
		e = fail(where, dir, NULL, SH_EMAGIC);
		goto out;
	}
	if ((w->lock = open(lock, O_RDWR | O_CREAT, 0666)) < 0) {
		e = fail(where, lock, NULL, SH_EIO);
		goto out;
	}
	while ((e = flock(w->lock, LOCK_EX)) != 0 && errno == EINTR)
		;
	if (e != 0) {
		e = fail(where, lock, NULL, SH_EIO);
		goto out;
	}
	e = read_manifest(&w->ix, dir, where);
	if ((fresh = e == SH_EIO && errno == ENOENT)) {
		settings(&w->ix, o);
		w->dirty = 1;
		e = 0;
	} else if (e != 0)
		goto out;
	else if (o->replace && !o->force)
		e = fail(where, dir, NULL, SH_EEXIST);
	else if (o->k >= 0 && o->k != w->ix.k && !o->replace)
		e = fail(where, dir, NULL, SH_EKMISMATCH);
	else if (o->shard.n != 0 && !o->replace && (o->shard.n !=
	    w->ix.shard.n || o->shard.i != w->ix.shard.i))
		e = fail(where, dir, NULL, SH_ESHARD);
	if (e == 0 && (e = tidy(dir, &w->ix, 0)) != 0)
		fail(where, dir, NULL, e);
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
	if (e != 0)
		sh_ixw_close(w);
	else
		*wp = w;
	return e;
}

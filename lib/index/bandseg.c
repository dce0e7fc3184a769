/*
 * Band segments (segment.h, version 3): writing them from sources whose
 * tables are merged, checking their header and structure, and searching
 * their tables.  The layout is in sh-index(5).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "index/segint.h"
#include "index/segment.h"

#define HDR SH_SEG_HDR
#define CH SH_SEG_CHUNK
#define BANDS_MAX 128		/* SH_SK_K: at most one row a band */

/* Section offsets in the body: fingerprints, keys, entries of the keys,
 * directories, ID offsets, IDs, and in version 4 the locations (LOC
 * bytes an entry) and the file table (filebytes); the body's length, 0
 * when the counts overflow any file. */
#define LOC 48
#define NOFILE 0xffffffffu

static uint64_t
layout(uint64_t b, int d, uint64_t n, uint64_t idbytes, int locs,
    uint64_t filebytes, uint64_t off[8])
{
	uint64_t dirs = b * (((uint64_t)1 << d) + 1) * 4;

	if (n >= (uint64_t)1 << 32 || idbytes >= (uint64_t)1 << 56 ||
	    filebytes >= (uint64_t)1 << 40 || b < 1 || b > BANDS_MAX)
		return 0;
	off[0] = 0;
	off[1] = n * 8;
	off[2] = off[1] + b * n * 8;
	off[3] = off[2] + (b * n * 4 + 7) / 8 * 8;
	off[4] = off[3] + (dirs + 7) / 8 * 8;
	off[5] = off[4] + (n + 1) * 8;
	off[6] = (off[5] + idbytes + 7) / 8 * 8;
	if (!locs)
		return off[7] = off[6];
	off[7] = off[6] + n * LOC;
	return (off[7] + filebytes + 7) / 8 * 8;
}

/* The distinct paths of the locations written, numbered in order of
 * first sight: the file table. */
struct paths {
	struct sh_hmap byhash;	/* hash of a path: 1 + its number */
	char *pool;		/* the paths, each ending in NUL */
	size_t len, cap;
	uint64_t *at;		/* where path i starts in pool */
	size_t n, atcap;
	uint32_t last;		/* the number of the path asked last */
};

static uint64_t
path_hash(const char *p)
{
	return sh_hash64(p, strlen(p), 0);
}

/* The number of path p in t, added when new. */
static int
path_num(struct paths *t, const char *p, uint32_t *num)
{
	size_t len = strlen(p), i;
	uint64_t h;
	uint32_t v;
	int known;

	if (len == 0 || len > SH_SEGLOC_PATH)
		return SH_EINVAL;
	if (t->n > 0 && strcmp(t->pool + t->at[t->last], p) == 0) {
		*num = t->last;
		return 0;
	}
	h = path_hash(p);
	if ((known = sh_hmap_get(&t->byhash, h, &v)) &&
	    strcmp(t->pool + t->at[v - 1], p) == 0) {
		*num = t->last = v - 1;
		return 0;
	}
	/* Another path of that hash (never, but for a forger): the
	 * others looked for in turn. */
	for (i = 0; known && i < t->n; i++)
		if (strcmp(t->pool + t->at[i], p) == 0) {
			*num = t->last = (uint32_t)i;
			return 0;
		}
	if (t->n >= NOFILE || sh_grow(&t->pool, &t->cap, t->len + len + 1,
	    1) != 0 || sh_grow(&t->at, &t->atcap, t->n + 1,
	    sizeof(*t->at)) != 0 || (!known &&
	    sh_hmap_put(&t->byhash, h, (uint32_t)t->n + 1) != 0))
		return SH_ENOMEM;
	memcpy(t->pool + t->len, p, len + 1);
	t->at[t->n] = t->len;
	t->len += len + 1;
	*num = t->last = (uint32_t)t->n++;
	return 0;
}

static void
paths_free(struct paths *t)
{
	sh_hmap_free(&t->byhash);
	free(t->pool);
	free(t->at);
}

/* Directory bits for n entries: buckets of 4 to 8 keys on average, so
 * that a directory costs at most a byte an entry. */
static int
dirbits(uint64_t n)
{
	int d = 0;

	while (d < 30 && (uint64_t)1 << (d + 2) <= n)
		d++;
	return d;
}

static uint64_t
prefix(uint64_t key, int d)
{
	return d ? key >> (64 - d) : 0;
}

/* Entry i of src's location as written: LOC bytes, its file numbered
 * in t (NOFILE: none). */
static int
put_loc(struct sh_segout *o, const struct sh_bandsrc *src, uint64_t i,
    struct paths *t)
{
	struct sh_segloc l;
	uint32_t num = NOFILE;
	int e;

	memset(&l, 0, sizeof(l));
	if (src->loc != NULL && (e = src->loc(src->ctx, i, &l)) != 0)
		return e;
	/* A record lies in a file, framing and all: never empty. */
	if (l.path != NULL && (l.size == 0 || l.off + l.size < l.off))
		return SH_EINVAL;
	if (l.path != NULL && (e = path_num(t, l.path, &num)) != 0)
		return e;
	if (num == NOFILE)
		memset(&l, 0, sizeof(l));
	if ((e = sh_segout_le(o, num, 4)) != 0 ||
	    (e = sh_segout_le(o, l.mode, 4)) != 0 ||
	    (e = sh_segout_le(o, l.off, 8)) != 0 ||
	    (e = sh_segout_le(o, l.size, 8)) != 0 ||
	    (e = sh_segout_le(o, l.coff, 8)) != 0 ||
	    (e = sh_segout_le(o, l.skip, 8)) != 0)
		return e;
	return sh_segout_le(o, l.line, 8);
}

/* The entries of every source, in order: fingerprints, ID offsets, IDs
 * (idbytes of them, as the sources said), and with t their locations,
 * whose paths t numbers. */
static int
write_entries(int fd, const uint64_t *off, const struct sh_bandsrc *src,
    int nsrc, uint64_t idbytes, struct paths *t)
{
	struct sh_segout *o;
	const char *id;
	uint64_t i, at = 0;
	sh_fpval fp;
	size_t len;
	int s, e = 0;

	if ((o = malloc(4 * sizeof(*o))) == NULL)
		return SH_ENOMEM;
	sh_segout_at(&o[0], fd, off[0]);
	sh_segout_at(&o[1], fd, off[4]);
	sh_segout_at(&o[2], fd, off[5]);
	sh_segout_at(&o[3], fd, off[6]);
	for (s = 0; s < nsrc && e == 0; s++)
		for (i = 0; i < src[s].n && e == 0; i++) {
			if ((e = src[s].entry(src[s].ctx, i, &fp, &id,
			    &len)) != 0)
				break;
			if (len == 0 || id[len - 1] != '\n' ||
			    memchr(id, '\n', len - 1) != NULL) {
				e = SH_ECORRUPT;
				break;
			}
			if (len > idbytes - at) {
				e = SH_ECORRUPT;
				break;
			}
			if ((e = sh_segout_le(&o[0], fp, 8)) == 0 &&
			    (e = sh_segout_le(&o[1], at, 8)) == 0)
				e = sh_segout_bytes(&o[2], id, len);
			if (e == 0 && t != NULL)
				e = put_loc(&o[3], &src[s], i, t);
			at += len;
		}
	if (e == 0 && at != idbytes)
		e = SH_ECORRUPT;
	if (e == 0 && (e = sh_segout_le(&o[1], at, 8)) == 0 &&
	    (e = sh_segout_flush(&o[0])) == 0 &&
	    (e = sh_segout_flush(&o[1])) == 0 &&
	    (e = sh_segout_flush(&o[2])) == 0)
		e = sh_segout_flush(&o[3]);
	/* The file table, after the locations. */
	if (e == 0 && t != NULL) {
		sh_segout_at(&o[0], fd, off[7]);
		if ((e = sh_segout_bytes(&o[0], t->pool, t->len)) == 0)
			e = sh_segout_flush(&o[0]);
	}
	free(o);
	return e;
}

/* A source's place in the merge of one band's tables. */
struct head {
	uint64_t i, base;	/* next of its keys; its first entry */
	uint64_t key;
	uint32_t ref;
	int live;
};

static int
head_next(const struct sh_bandsrc *src, int j, struct head *h)
{
	int e;

	if (h->i >= src->n) {
		h->live = 0;
		return 0;
	}
	if ((e = src->key(src->ctx, j, h->i++, &h->key, &h->ref)) != 0)
		return e;
	if (h->ref >= src->n)
		return SH_ECORRUPT;
	h->live = 1;
	return 0;
}

/* Band j: the sources' keys merged, with their entries, and its
 * directory. */
static int
write_band(int fd, const uint64_t *off, int d, uint64_t n, int j,
    const struct sh_bandsrc *src, int nsrc, struct head *hd,
    uint32_t *dir, struct sh_segout *o)
{
	uint64_t base = 0, i, nd = ((uint64_t)1 << d) + 1, p, last = 0;
	int s, m, e = 0, first = 1;

	for (s = 0; s < nsrc && e == 0; s++) {
		hd[s].i = 0;
		hd[s].base = base;
		base += src[s].n;
		e = head_next(&src[s], j, &hd[s]);
	}
	memset(dir, 0, nd * sizeof(*dir));
	sh_segout_at(&o[0], fd, off[1] + (uint64_t)j * n * 8);
	sh_segout_at(&o[1], fd, off[2] + (uint64_t)j * n * 4);
	for (i = 0; i < n && e == 0; i++) {
		/* The least key, the oldest source on a tie: entries stay
		 * ascending within a key. */
		for (s = 0, m = -1; s < nsrc; s++)
			if (hd[s].live && (m < 0 || hd[s].key < hd[m].key))
				m = s;
		if (m < 0 || (!first && hd[m].key < last))
			return SH_ECORRUPT;
		first = 0;
		last = hd[m].key;
		p = prefix(last, d);
		dir[p + 1]++;
		if ((e = sh_segout_le(&o[0], last, 8)) == 0 &&
		    (e = sh_segout_le(&o[1], hd[m].base + hd[m].ref, 4)) == 0)
			e = head_next(&src[m], j, &hd[m]);
	}
	for (s = 0; s < nsrc && e == 0; s++)
		if (hd[s].live)
			e = SH_ECORRUPT;
	for (p = 1; p < nd; p++)
		dir[p] += dir[p - 1];
	if (e == 0 && (e = sh_segout_flush(&o[0])) == 0)
		e = sh_segout_flush(&o[1]);
	sh_segout_at(&o[0], fd, off[3] + (uint64_t)j * nd * 4);
	for (p = 0; p < nd && e == 0; p++)
		e = sh_segout_le(&o[0], dir[p], 4);
	return e == 0 ? sh_segout_flush(&o[0]) : e;
}

int
sh_seg_write_bands(int fd, uint32_t thr, int b, int r,
    const struct sh_bandsrc *src, int nsrc, const struct sh_progress *pg)
{
	uint64_t off[8], n = 0, idbytes = 0, bodylen, nchunks = 0, sum = 0,
	    v[16];
	struct sh_segout *o = NULL;
	struct head *hd = NULL;
	struct paths t;
	uint32_t *dir = NULL;
	int s, j, d, e = 0, locs = 0;

	for (s = 0; s < nsrc; s++) {
		n += src[s].n;
		idbytes += src[s].idbytes;
		locs |= src[s].loc != NULL;
	}
	d = dirbits(n);
	memset(&t, 0, sizeof(t));
	if (r < 1 || b * r > BANDS_MAX ||
	    (bodylen = layout((uint64_t)b, d, n, idbytes, locs, 0,
	    off)) == 0)
		return SH_ERANGE;
	if ((o = malloc(2 * sizeof(*o))) == NULL ||
	    (hd = calloc((size_t)nsrc + 1, sizeof(*hd))) == NULL ||
	    (dir = malloc((((size_t)1 << d) + 1) * sizeof(*dir))) == NULL)
		e = SH_ENOMEM;
	else if (ftruncate(fd, (off_t)(HDR + bodylen)) != 0)
		e = SH_EIO;
	else
		e = write_entries(fd, off, src, nsrc, idbytes, locs ? &t :
		    NULL);
	/* The file table's length known, the body's is. */
	if (e == 0 && (bodylen = layout((uint64_t)b, d, n, idbytes, locs,
	    t.len, off)) == 0)
		e = SH_ERANGE;
	nchunks = (bodylen + CH - 1) / CH;
	if (e == 0 && ftruncate(fd, (off_t)(HDR + bodylen + 8 * nchunks)) !=
	    0)
		e = SH_EIO;
	for (j = 0; j < b && e == 0; j++)
		if ((e = write_band(fd, off, d, n, j, src, nsrc, hd, dir,
		    o)) == 0)
			sh_progress(pg, "band", (uint64_t)j + 1, (uint64_t)b);
	if (e == 0)
		e = sh_seg_sums(fd, bodylen, nchunks, &sum);
	if (e == 0) {
		memset(v, 0, sizeof(v));
		v[H_VERSION] = locs ? SH_SEG_VERSION_LOCS :
		    SH_SEG_VERSION_BANDS;
		v[H_K] = thr;
		v[H_BLOCKS] = v[H_TABLES] = (uint64_t)b;
		v[H_KEY] = (uint64_t)r;
		v[H_DIRBITS] = (uint64_t)d;
		v[H_NFP] = v[H_NID] = n;
		v[H_IDBYTES] = idbytes;
		v[H_BODYLEN] = bodylen;
		v[H_NCHUNKS] = nchunks;
		v[H_SUMS] = sum;
		v[H_RESERVED] = t.len;
		e = sh_seg_header(fd, v);
	}
	paths_free(&t);
	free(o);
	free(hd);
	free(dir);
	return e;
}

int
sh_bandseg_header(struct sh_seg *s, const uint64_t *v, uint64_t size)
{
	uint64_t off[8];
	int e, locs = v[H_VERSION] == SH_SEG_VERSION_LOCS;

	if ((!locs && v[H_RESERVED] != 0) || v[H_K] > 1000000 || v[H_BLOCKS] < 1 || v[H_KEY] < 1 ||
	    v[H_BLOCKS] * v[H_KEY] > BANDS_MAX ||
	    v[H_TABLES] != v[H_BLOCKS] || v[H_NID] != v[H_NFP] ||
	    v[H_DIRBITS] > 30 || v[H_CHUNK] != CH)
		return SH_ECORRUPT;
	s->t = (uint32_t)v[H_K];
	s->bands = (int)v[H_BLOCKS];
	s->rows = (int)v[H_KEY];
	s->dirbits = (int)v[H_DIRBITS];
	s->nfp = s->nid = v[H_NFP];
	s->idbytes = v[H_IDBYTES];
	s->bodylen = layout(v[H_BLOCKS], s->dirbits, s->nfp, s->idbytes,
	    locs, v[H_RESERVED], off);
	if (s->dirbits != dirbits(s->nfp))
		return SH_ECORRUPT;
	if ((e = sh_seg_sized(s, v, size)) != 0)
		return e;
	s->tables = off[0];
	s->keys = off[1];
	s->refs = off[2];
	s->dirs = off[3];
	s->idoff = off[4];
	s->ids = off[5];
	if (locs) {
		s->locs = off[6];
		s->files = off[7];
		s->filebytes = v[H_RESERVED];
	}
	return 0;
}

/* The directory entry of prefix p of band j. */
static uint32_t
dirent(const struct sh_seg *s, int j, uint64_t p)
{
	return rd32(s->body + s->dirs + ((uint64_t)j * (((uint64_t)1 <<
	    s->dirbits) + 1) + p) * 4);
}

int
sh_bandseg_verify(struct sh_seg *s)
{
	uint64_t n = s->nfp, i, p, key, prev = 0, nd, at, next;
	struct sh_segloc l;
	uint32_t ref, prevref = 0;
	unsigned char *seen;
	int j, e = 0;

	/* The body's checksums hold (sh_seg_verify): now its structure.
	 * Each band's keys ascend, ties by entry, its entries are each
	 * entry once, its directory bounds every prefix's keys. */
	nd = ((uint64_t)1 << s->dirbits) + 1;
	if ((seen = malloc(n / 8 + 1)) == NULL)
		return SH_ENOMEM;
	for (j = 0; j < s->bands && e == 0; j++) {
		memset(seen, 0, n / 8 + 1);
		if (dirent(s, j, 0) != 0 || dirent(s, j, nd - 1) != n)
			e = SH_ECORRUPT;
		for (p = 0, i = 0; i < n && e == 0; i++) {
			key = rd64(s->body + s->keys + ((uint64_t)j * n + i) *
			    8);
			ref = rd32(s->body + s->refs + ((uint64_t)j * n + i) *
			    4);
			if (ref >= n || (seen[ref / 8] >> (ref % 8) & 1) ||
			    (i > 0 && (key < prev || (key == prev &&
			    ref < prevref)))) {
				e = SH_ECORRUPT;
				break;
			}
			seen[ref / 8] |= (unsigned char)(1 << (ref % 8));
			/* Key i lies in its prefix's bucket. */
			while (p + 1 < nd && dirent(s, j, p + 1) <= i)
				p++;
			if (p != prefix(key, s->dirbits) ||
			    dirent(s, j, p) > i)
				e = SH_ECORRUPT;
			prev = key;
			prevref = ref;
		}
		for (p = 0; p + 1 < nd && e == 0; p++)
			if (dirent(s, j, p) > dirent(s, j, p + 1))
				e = SH_ECORRUPT;
	}
	free(seen);
	/* The IDs: one each, ending in a newline. */
	for (i = 0, at = 0; i <= n && e == 0; i++, at = next) {
		next = rd64(s->body + s->idoff + 8 * i);
		if ((i == 0 && next != 0) || next < at || next > s->idbytes ||
		    (i > 0 && (next == at || s->body[s->ids + next - 1] !=
		    '\n' || memchr(s->body + s->ids + at, '\n',
		    (size_t)(next - at - 1)) != NULL)) ||
		    (i == n && next != s->idbytes))
			e = SH_ECORRUPT;
	}
	/* The locations: each of a file of the table, or none. */
	for (i = 0; i < n && s->files != 0 && e == 0; i++)
		if ((e = sh_seg_loc(s, i, &l)) > 0)
			e = 0;
	return e;
}

/* The file table of s read, checked and copied, once: nfile paths, each
 * ending in NUL, none empty. */
static int
file_table(struct sh_seg *s)
{
	uint64_t i, n = 0;
	char *p;
	int e;

	if (s->filetab != NULL || s->filebytes == 0)
		return 0;
	if ((e = sh_seg_need(s, s->files, s->filebytes)) != 0)
		return e;
	if ((p = malloc((size_t)s->filebytes)) == NULL)
		return SH_ENOMEM;
	memcpy(p, s->body + s->files, (size_t)s->filebytes);
	for (i = 0; i < s->filebytes; i++)
		if (p[i] == '\0' && (i == 0 || p[i - 1] == '\0' ||
		    ++n >= NOFILE)) {
			free(p);
			return SH_ECORRUPT;
		}
	if (p[s->filebytes - 1] != '\0') {
		free(p);
		return SH_ECORRUPT;
	}
	if ((s->file = malloc(n * sizeof(*s->file))) == NULL) {
		free(p);
		return SH_ENOMEM;
	}
	for (i = 0, n = 0; i < s->filebytes; i += strlen(p + i) + 1)
		s->file[n++] = p + i;
	s->nfile = (uint32_t)n;
	s->filetab = p;
	return 0;
}

int
sh_seg_loc(struct sh_seg *s, uint64_t i, struct sh_segloc *l)
{
	const unsigned char *p;
	uint32_t f;
	int e;

	memset(l, 0, sizeof(*l));
	if (s->files == 0)
		return 0;
	if (i >= s->nfp)
		return SH_ECORRUPT;
	if ((e = file_table(s)) != 0 ||
	    (e = sh_seg_need(s, s->locs + i * LOC, LOC)) != 0)
		return e;
	p = s->body + s->locs + i * LOC;
	if ((f = rd32(p)) == NOFILE)
		return 0;
	if (f >= s->nfile)
		return SH_ECORRUPT;
	l->path = s->file[f];
	l->mode = rd32(p + 4);
	l->off = rd64(p + 8);
	l->size = rd64(p + 16);
	l->coff = rd64(p + 24);
	l->skip = rd64(p + 32);
	l->line = rd64(p + 40);
	/* A record lies in a file: a lie here is told, not read. */
	if (l->size == 0 || l->off + l->size < l->off)
		return SH_ECORRUPT;
	return 1;
}

/* A band segment as a source: its own reads, checked. */
static int
seg_entry(void *ctx, uint64_t i, sh_fpval *fp, const char **id,
    size_t *len)
{
	struct sh_seg *s = ctx;
	int e;

	if ((e = sh_seg_fp(s, i, fp)) != 0)
		return e;
	return sh_seg_ids(s, i, id, len);
}

static int
seg_key(void *ctx, int j, uint64_t i, uint64_t *key, uint32_t *ref)
{
	struct sh_seg *s = ctx;
	uint64_t at = (uint64_t)j * s->nfp + i;
	int e;

	if (j < 0 || j >= s->bands || i >= s->nfp)
		return SH_ECORRUPT;
	if ((e = sh_seg_need(s, s->keys + at * 8, 8)) != 0 ||
	    (e = sh_seg_need(s, s->refs + at * 4, 4)) != 0)
		return e;
	*key = rd64(s->body + s->keys + at * 8);
	*ref = rd32(s->body + s->refs + at * 4);
	/* An entry of the segment: its users index by it at once. */
	return *ref < s->nfp ? 0 : SH_ECORRUPT;
}

static int
seg_loc(void *ctx, uint64_t i, struct sh_segloc *l)
{
	int e = sh_seg_loc(ctx, i, l);

	return e < 0 ? e : 0;
}

void
sh_seg_bandsrc(struct sh_seg *s, struct sh_bandsrc *src)
{
	src->n = s->nfp;
	src->idbytes = s->idbytes;
	src->entry = seg_entry;
	src->key = seg_key;
	src->loc = s->files != 0 ? seg_loc : NULL;
	src->ctx = s;
}

static int
cmp_hit(const void *a, const void *b)
{
	const struct sh_hit *x = a, *y = b;

	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Queries a group of the batch: their directory entries, then their
 * keys, asked for ahead so that the misses overlap. */
#define GROUP 16

/* The hits of query q (keys key[0..bands), fingerprint fp) from the
 * ranges of its keys found (lo[j], hi[j]), appended to h, each entry
 * once, in order of entry. */
static int
query_hits(struct sh_seg *s, const uint64_t *key, sh_fpval fp,
    const uint32_t *lo, const uint32_t *hi, int seg, uint32_t q,
    struct sh_hits *h)
{
	uint64_t i, n = s->nfp, at, first = h->n;
	uint32_t ref;
	struct sh_hit x;
	int j, e;

	x.seg = seg;
	x.q = q;
	for (j = 0; j < s->bands; j++) {
		at = (uint64_t)j * n;
		if ((e = sh_seg_need(s, s->keys + (at + lo[j]) * 8,
		    (uint64_t)(hi[j] - lo[j]) * 8)) != 0)
			return e;
		for (i = lo[j]; i < hi[j]; i++) {
			if (rd64(s->body + s->keys + (at + i) * 8) != key[j])
				continue;
			if ((e = sh_seg_need(s, s->refs + (at + i) * 4,
			    4)) != 0)
				return e;
			if ((ref = rd32(s->body + s->refs + (at + i) * 4)) >= n)
				return SH_ECORRUPT;
			x.pos = ref;
			if (sh_grow(&h->v, &h->cap, h->n + 1,
			    sizeof(*h->v)) != 0)
				return SH_ENOMEM;
			h->v[h->n++] = x;
		}
	}
	/* An entry agreeing in several bands is one hit. */
	if (h->n - first > 1)
		qsort(h->v + first, h->n - first, sizeof(*h->v), cmp_hit);
	for (i = at = first; i < h->n; i++)
		if (i == first || h->v[i].pos != h->v[at - 1].pos)
			h->v[at++] = h->v[i];
	h->n = at;
	for (i = first; i < h->n; i++) {
		if ((e = sh_seg_fp(s, h->v[i].pos, &h->v[i].fp)) != 0)
			return e;
		h->v[i].dist = sh_hamming(h->v[i].fp, fp);
	}
	return 0;
}

int
sh_seg_bands(struct sh_seg *s, const uint64_t *key, const sh_fpval *fp,
    size_t nq, int seg, struct sh_hits *h)
{
	static const uint64_t none;
	uint32_t lo[GROUP][BANDS_MAX], hi[GROUP][BANDS_MAX];
	uint64_t nd = ((uint64_t)1 << s->dirbits) + 1, dirat, k;
	size_t g, q, m, b = (size_t)s->bands;
	int j, e;

	if (s->nfp == 0)
		return 0;
	for (g = 0; g < nq; g += GROUP) {
		m = nq - g < GROUP ? nq - g : GROUP;
		for (q = 0; q < m; q++)
			for (j = 0; j < s->bands; j++)
				SH_PREFETCH(s->body + s->dirs + ((uint64_t)j *
				    nd + prefix(key[(g + q) * b + (size_t)j],
				    s->dirbits)) * 4);
		for (q = 0; q < m; q++)
			for (j = 0; j < s->bands; j++) {
				k = key[(g + q) * b + (size_t)j];
				dirat = s->dirs + ((uint64_t)j * nd + prefix(k,
				    s->dirbits)) * 4;
				if ((e = sh_seg_need(s, dirat, 8)) != 0)
					return e;
				lo[q][j] = rd32(s->body + dirat);
				hi[q][j] = rd32(s->body + dirat + 4);
				if (lo[q][j] > hi[q][j] || hi[q][j] > s->nfp)
					return SH_ECORRUPT;
				SH_PREFETCH(lo[q][j] < hi[q][j] ? s->body +
				    s->keys + ((uint64_t)j * s->nfp +
				    lo[q][j]) * 8 : (const void *)&none);
			}
		for (q = 0; q < m; q++)
			if ((e = query_hits(s, key + (g + q) * b, fp[g + q],
			    lo[q], hi[q], seg, (uint32_t)(g + q), h)) != 0)
				return e;
	}
	return 0;
}

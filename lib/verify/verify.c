#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "base/io.h"
#include "base/threads.h"
#include "base/zpipe.h"
#include "fp/similar.h"
#include "near/fpset.h"
#include "near/pairline.h"
#include "verify/verify.h"

/* A document's features, kept with its ID; buf holds them when they
 * were read back from the spill file. */
struct doc {
	char *id;
	size_t idlen, idcap;
	int ok;
	int hasfp;		/* fp is the document's fingerprint */
	sh_fpval fp;
	struct sh_fvec v;
	uint64_t *buf;
	size_t bufcap;
	uint32_t *cbuf;		/* characters read back (edit) */
	size_t cbufcap;
};

/*
 * The cache: the features of every document cut so far (their hashes, and
 * their weights when the measure reads them; no text), or for the edit
 * measure its characters instead (4 bytes each), and its ID, found
 * by the hash of the ID.  IDs and, within the budget, features lie in
 * blocks of BLOCK bytes that never move, in huge pages where the system
 * gives them (faulting in 4 KiB pages cost a sixth of cutting); past the
 * budget features go to the end of an unnamed temporary file, from where
 * a pair reads them back.  They reach the file through a buffer of
 * SPILLBUF bytes, written when full (a write a document cost more than
 * cutting it); a pair reads the features still in it from there.
 */
#define BLOCK (8 << 20)
#define SPILLBUF (64 << 10)

struct block {
	struct block *next;
	size_t used, cap;
	uint64_t data[];	/* 8-byte aligned, as sh_fvent needs */
};

struct cached {
	const char *id;
	size_t idlen;
	int hasfp;		/* as in struct doc */
	sh_fpval fp;
	struct sh_fset v;	/* a view into a block; h (edit: c) NULL:
				   spilled */
	off_t off;		/* where in the spill file */
};

/* A document to cut ahead (sh_verify_queue): its ID, in the queue's
 * buffer, and the entry of a set it is (NOSLOT: none). */
#define NOSLOT UINT32_MAX

struct adoc {
	size_t id, idlen;
	uint32_t e;
};

/* A pair of entries measured ahead (sh_verify_pairs); known 0: left to
 * sh_verify_entries. */
struct pre {
	uint32_t a, b, sim;
	int known;
};
#define CHUNK 64		/* pairs a thread takes at a time */

/* A thread of sh_verify_ahead, reading with a map of its own (the first
 * one's is the verifier's), cutting with a fingerprinter of its own,
 * STEP documents at a time: the lock over the batch and the cache is
 * then taken once for STEP, seldom while the other thread holds it. */
#define STEP 8
#define QUEUE 16384		/* documents queued, cut when full */

struct cutter {
	struct sh_verify *v;
	struct sh_docmap *m;
	struct sh_fp *f;
	struct sh_fvec fv[STEP];
	const struct adoc *d[STEP];
	int ok[STEP];
	sh_fpval fp[STEP];
	struct sh_edit *ws;	/* edit: sh_verify_pairs' work space */
};

struct sh_verify {
	struct sh_docmap *m;
	struct sh_fp *f;
	int tokens, measure;
	struct sh_edit *ws;	/* edit: the work space of sh_verify_ids */
	uint32_t floor;		/* sh_verify_floor */
	uint32_t *slot;		/* sh_verify_entries: entry e's features
				   are ent[slot[e] - 1]; 0: not known */
	size_t nslot;
	struct doc d[2];
	size_t budget, bytes;	/* the cache's budget and use */
	struct sh_hmap map;	/* hash of an ID -> entry + 1 */
	struct cached *ent;
	size_t nent, cap;
	struct block *blk;	/* newest first */
	const char *tmpdir;
	FILE *spill;		/* NULL: none yet */
	off_t spillend;		/* the features spilled, buffer included */
	char *sbuf;		/* the last sblen bytes of those, unwritten */
	size_t sblen;
	int nospill;		/* the spill file failed: keep no more (what
				   sbuf holds stays readable there) */
	/* sh_verify_ahead: the threads, the queue and its IDs; the lock
	 * over the cache and next while they cut (next: the pair to measure
	 * in sh_verify_pairs). */
	struct cutter *cut;
	int nthreads;
	struct adoc *ad;
	size_t nad, adcap, next;
	char *ids;
	size_t idused, idcap;
	struct sh_hmap seen;	/* hashes of the IDs queued */
	struct sh_hmap failed;	/* hashes of the IDs that failed to be cut
				   ahead: left to their pairs for good */
	pthread_mutex_t mu;
	/* sh_verify_pairs: the pairs measured, the next one asked for */
	struct pre *pre;
	size_t npre, precap, prei;
};

struct sh_verify *
sh_verify_new(struct sh_docmap *m, struct sh_fp *f, int tokens, int measure,
    size_t budget, const char *tmpdir)
{
	struct sh_verify *v;

	if ((v = calloc(1, sizeof(*v))) == NULL)
		return NULL;
	v->budget = budget;
	v->tmpdir = tmpdir;
	v->m = m;
	v->f = f;
	v->tokens = tokens;
	v->measure = measure;
	sh_fvec_init(&v->d[0].v, 0);
	sh_fvec_init(&v->d[1].v, 0);
	pthread_mutex_init(&v->mu, NULL);
	if (measure == SH_SIM_EDIT && (v->ws = sh_edit_new()) == NULL) {
		sh_verify_free(v);
		return NULL;
	}
	return v;
}

void
sh_verify_free(struct sh_verify *v)
{
	struct block *b, *next;
	int i, j;

	if (v == NULL)
		return;
	for (i = 0; i < v->nthreads; i++) {
		for (j = 0; j < STEP; j++)
			sh_fvec_free(&v->cut[i].fv[j]);
		sh_edit_free(v->cut[i].ws);
		if (i > 0) {
			sh_fp_free(v->cut[i].f);
			sh_docmap_free(v->cut[i].m);
		}
	}
	free(v->cut);
	free(v->ad);
	free(v->ids);
	sh_hmap_free(&v->seen);
	sh_hmap_free(&v->failed);
	pthread_mutex_destroy(&v->mu);
	for (i = 0; i < 2; i++) {
		free(v->d[i].id);
		free(v->d[i].buf);
		free(v->d[i].cbuf);
		sh_fvec_free(&v->d[i].v);
	}
	sh_edit_free(v->ws);
	free(v->slot);
	free(v->pre);
	for (b = v->blk; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	sh_hmap_free(&v->map);
	free(v->ent);
	if (v->spill != NULL)
		fclose(v->spill);
	free(v->sbuf);
	free(v);
}

/* Room for n bytes in the blocks, aligned; NULL when out of memory. */
static void *
cache_room(struct sh_verify *v, size_t n)
{
	struct block *b = v->blk;
	size_t cap;
	void *p;

	n = (n + 7) / 8 * 8;
	if (b == NULL || b->cap - b->used < n) {
		cap = n > BLOCK ? n : BLOCK;
		if ((b = malloc(sizeof(*b) + cap)) == NULL)
			return NULL;
		sh_hugepages(b->data, cap);
		b->next = v->blk;
		b->used = 0;
		b->cap = cap;
		v->blk = b;
		v->bytes += sizeof(*b) + cap;
	}
	p = (char *)b->data + b->used;
	b->used += n;
	return p;
}

/* The cached entry of document id[0..len), or NULL. */
static const struct cached *
cache_get(const struct sh_verify *v, const char *id, size_t len)
{
	const struct cached *c;
	uint32_t i;

	if (!sh_hmap_get(&v->map, sh_hash64(id, len, 0), &i))
		return NULL;
	c = &v->ent[i];
	return c->idlen == len && memcmp(c->id, id, len) == 0 ? c : NULL;
}

/* The bytes of what the cache keeps of fs: its features (and their
 * weights), or its characters for edit. */
static size_t
kept_bytes(const struct sh_verify *v, const struct sh_fset *fs)
{
	if (v->measure == SH_SIM_EDIT)
		return fs->nc * sizeof(*fs->c);
	return fs->n * sizeof(*fs->h) * (sh_sim_weights(v->measure) ? 2 : 1);
}

/* Whether cached entry c is in memory, not spilled. */
static int
in_memory(const struct sh_verify *v, const struct cached *c)
{
	return v->measure == SH_SIM_EDIT ? c->v.c != NULL : c->v.h != NULL;
}

/* Write the features fs to the end of the spill, into *c: to its buffer,
 * written to the file first when they do not fit (and they past it when
 * they never would).  Return 0, or -1 when they cannot be (the cache then
 * keeps no more). */
static int
spill(struct sh_verify *v, const struct sh_fset *fs, struct cached *c)
{
	size_t total = kept_bytes(v, fs);
	size_t n = v->measure == SH_SIM_EDIT ? total : fs->n * sizeof(*fs->h);
	const void *first = v->measure == SH_SIM_EDIT ? (const void *)fs->c :
	    (const void *)fs->h;
	int fd;

	if (v->nospill || (v->sbuf == NULL &&
	    (v->sbuf = malloc(SPILLBUF)) == NULL) || (v->spill == NULL &&
	    sh_tmpfile(v->tmpdir, &v->spill) != 0))
		goto fail;
	fd = fileno(v->spill);
	if (v->sblen + total > SPILLBUF) {
		if (sh_write_all(fd, v->sbuf, v->sblen) != 0)
			goto fail;
		v->sblen = 0;
	}
	if (total > SPILLBUF) {
		if (sh_write_all(fd, first, n) != 0 || (total > n &&
		    sh_write_all(fd, fs->w, n) != 0))
			goto fail;
	} else {
		memcpy(v->sbuf + v->sblen, first, n);
		if (total > n)
			memcpy(v->sbuf + v->sblen + n, fs->w, n);
		v->sblen += total;
	}
	c->v = *fs;
	c->v.h = c->v.w = NULL;
	c->v.c = NULL;
	c->off = v->spillend;
	v->spillend += (off_t)total;
	return 0;
fail:
	v->nospill = 1;
	return -1;
}

/* Keep a copy of the features fs of document id[0..len), and its
 * fingerprint *fp (NULL: not known): in memory within the budget, else in
 * the spill file (a miss costs only speed).  Return its entry, or NOSLOT
 * when none was made. */
static uint32_t
cache_put(struct sh_verify *v, const char *id, size_t len,
    const struct sh_fset *fs, const sh_fpval *fp)
{
	struct cached *c;
	uint64_t *h, *w = NULL;
	uint32_t old;
	size_t n = v->measure == SH_SIM_EDIT ? kept_bytes(v, fs) :
	    fs->n * sizeof(*fs->h);
	char *p;

	if (v->nent >= UINT32_MAX || (v->nent == v->cap &&
	    sh_grow(&v->ent, &v->cap, v->nent + 1, sizeof(*v->ent)) != 0))
		return NOSLOT;
	if (sh_hmap_add(&v->map, sh_hash64(id, len, 0), (uint32_t)v->nent,
	    &old) != 0)
		return NOSLOT;	/* a hash two IDs share, or no memory */
	c = &v->ent[v->nent];
	if ((p = cache_room(v, len + 1)) == NULL)
		goto fail;
	if (v->bytes >= v->budget) {
		if (spill(v, fs, c) != 0)
			goto fail;
	} else {
		if ((h = cache_room(v, n + 1)) == NULL ||
		    (sh_sim_weights(v->measure) &&
		    (w = cache_room(v, n + 1)) == NULL))
			goto fail;
		c->v = *fs;
		if (v->measure == SH_SIM_EDIT) {
			memcpy(h, fs->c, n);
			c->v.c = (const uint32_t *)(void *)h;
			c->v.h = NULL;
		} else {
			memcpy(h, fs->h, n);
			c->v.h = h;
		}
		if (w != NULL)
			memcpy(w, fs->w, n);
		c->v.w = w;
	}
	memcpy(p, id, len);
	c->id = p;
	c->idlen = len;
	c->hasfp = fp != NULL;
	c->fp = fp != NULL ? *fp : 0;
	return (uint32_t)v->nent++;
fail:
	sh_hmap_del(&v->map, sh_hash64(id, len, 0));
	return NOSLOT;
}

/* Read bytes [off, off + n) of the spill into p, from its buffer where
 * they still are.  Return 0 or SH_EIO. */
static int
spill_read(const struct sh_verify *v, off_t off, void *p, size_t n)
{
	ssize_t r;

	if (off >= v->spillend - (off_t)v->sblen)
		memcpy(p, v->sbuf + (off - (v->spillend - (off_t)v->sblen)),
		    n);
	else if ((r = pread(fileno(v->spill), p, n, off)) < 0 ||
	    (size_t)r != n)
		return SH_EIO;
	return 0;
}

/* The characters of spilled entry c into *fv, read into d's buffer. */
static int
read_chars(const struct sh_verify *v, const struct cached *c,
    struct doc *d, struct sh_fset *fv)
{
	int r;

	if (d->cbufcap < c->v.nc && sh_grow(&d->cbuf, &d->cbufcap, c->v.nc,
	    sizeof(*d->cbuf)) != 0)
		return SH_ENOMEM;
	if ((r = spill_read(v, c->off, d->cbuf, c->v.nc *
	    sizeof(*d->cbuf))) != 0)
		return r;
	fv->c = d->cbuf;
	return 0;
}

/* The features of cached entry c into *fv, read into d's buffer when
 * spilled.  Return 0, SH_EIO or SH_ENOMEM. */
static int
cache_read(struct sh_verify *v, const struct cached *c, struct doc *d,
    struct sh_fset *fv)
{
	size_t n = c->v.n * (sh_sim_weights(v->measure) ? 2 : 1);
	int r;

	*fv = c->v;
	if (in_memory(v, c))
		return 0;
	if (v->measure == SH_SIM_EDIT)
		return read_chars(v, c, d, fv);
	if (d->bufcap < n &&
	    sh_grow(&d->buf, &d->bufcap, n, sizeof(*d->buf)) != 0)
		return SH_ENOMEM;
	if ((r = spill_read(v, c->off, d->buf, n * sizeof(*d->buf))) != 0)
		return r;
	fv->h = d->buf;
	fv->w = sh_sim_weights(v->measure) ? d->buf + c->v.n : NULL;
	return 0;
}

/*
 * The features of document id[0..len) into *fv, a view that the next
 * load of d and the emptying of the cache end: from d when it holds them,
 * from the cache, or else read and cut into d (and the cache), its
 * fingerprint kept with them when fp is not NULL; then checked to be *fp
 * (fp not NULL), whichever pair cut it.  Their place in the cache into
 * *slot, or NOSLOT.
 */
static int
load(struct sh_verify *v, struct doc *d, const char *id, size_t len,
    const sh_fpval *fp, size_t *col, struct sh_fset *fv, uint32_t *slot)
{
	const struct cached *c;
	struct sh_rec rec;
	sh_fpval f;
	char *p;
	int r, bad, hasfp;

	*slot = NOSLOT;
	if (d->ok && d->idlen == len && memcmp(d->id, id, len) == 0) {
		*fv = d->v.set;
		hasfp = d->hasfp;
		f = d->fp;
	} else if ((c = cache_get(v, id, len)) != NULL) {
		if ((r = cache_read(v, c, d, fv)) != 0)
			return r;
		hasfp = c->hasfp;
		f = c->fp;
		*slot = (uint32_t)(c - v->ent);
	} else {
		d->ok = 0;
		if ((r = sh_docmap_get(v->m, id, len, &rec)) <= 0)
			return r == 0 ? SH_ENODOC : r;
		/* The edit measure reads the characters; the features only
		 * make the fingerprint to check. */
		if (v->measure == SH_SIM_EDIT)
			sh_fvec_chars(&d->v, fp != NULL ? SH_FVEC_BOTH :
			    SH_FVEC_CHARS);
		if ((r = sh_fvec_doc(&d->v, v->f, rec.text, rec.len,
		    v->tokens, &bad, col)) != 0) {
			/* token lists are "ID<TAB>LIST" */
			*col += rec.idlen + 1;
			return r;
		}
		if (d->idcap < len + 1) {
			if ((p = realloc(d->id, len + 1)) == NULL)
				return SH_ENOMEM;
			d->id = p;
			d->idcap = len + 1;
		}
		memcpy(d->id, id, len);
		d->idlen = len;
		d->ok = 1;
		hasfp = d->hasfp = fp != NULL;
		f = d->fp = fp != NULL ? sh_fvec_fp(&d->v) : 0;
		*fv = d->v.set;
		*slot = cache_put(v, id, len, &d->v.set, hasfp ? &f : NULL);
	}
	return fp != NULL && hasfp && f != *fp ? SH_EFPDIFF : 0;
}

/* Whether the slots hold entry e, grown to when they did not. */
static int
has_slot(struct sh_verify *v, uint32_t e)
{
	size_t n = v->nslot;

	if (e >= n && sh_grow(&v->slot, &v->nslot, (size_t)e + 1,
	    sizeof(*v->slot)) == 0)
		memset(v->slot + n, 0, (v->nslot - n) * sizeof(*v->slot));
	return e < v->nslot;
}

/* Entry e's features are ent[i]: kept when there is room for it. */
static void
set_slot(struct sh_verify *v, uint32_t e, uint32_t i)
{
	if (has_slot(v, e))
		v->slot[e] = i + 1;
}

/* The cached entry of entry e of a set, or NULL when not known. */
static const struct cached *
slot_get(const struct sh_verify *v, uint32_t e)
{
	return e < v->nslot && v->slot[e] != 0 ? &v->ent[v->slot[e] - 1] :
	    NULL;
}

/* sh_verify_ids, and with e not NULL sh_verify_entries of entries e[0]
 * and e[1]: an entry whose features are in the cache is found there by
 * its number, not by its ID. */
static int
verify(struct sh_verify *v, const char *const id[2], const size_t len[2],
    const sh_fpval *fp, const uint32_t *e, uint32_t *sim, int *which,
    size_t *col)
{
	const struct cached *c;
	struct sh_fset f[2];
	uint32_t slot;
	int r, i;

	for (i = 0; i < 2; i++) {
		*which = i;
		if (e != NULL && (c = slot_get(v, e[i])) != NULL) {
			if ((r = cache_read(v, c, &v->d[i], &f[i])) != 0)
				return r;
			if (fp != NULL && c->hasfp && c->fp != fp[i])
				return SH_EFPDIFF;
			continue;
		}
		if ((r = load(v, &v->d[i], id[i], len[i], fp ? &fp[i] : NULL,
		    col, &f[i], &slot)) != 0)
			return r;
		if (e != NULL && slot != NOSLOT)
			set_slot(v, e[i], slot);
	}
	if (v->measure == SH_SIM_EDIT)
		return sh_sim_edit(v->ws, &f[0], &f[1], v->floor, sim);
	*sim = sh_sim_min(v->measure, &f[0], &f[1], v->floor);
	return 0;
}

int
sh_verify_ids(struct sh_verify *v, const char *const id[2],
    const size_t len[2], const sh_fpval *fp, uint32_t *sim, int *which,
    size_t *col)
{
	return verify(v, id, len, fp, NULL, sim, which, col);
}

void
sh_verify_floor(struct sh_verify *v, uint32_t min)
{
	v->floor = min;
}

int
sh_verify_entries(struct sh_verify *v, struct sh_fpset *s, uint32_t a,
    uint32_t b, uint32_t *sim, const char *id[2], size_t len[2], int *which,
    size_t *col)
{
	const struct pre *p;
	sh_fpval fp[2];
	int e;

	*which = -1;
	if (v->prei < v->npre) {
		p = &v->pre[v->prei++];
		if (p->a != a || p->b != b)
			v->npre = 0;	/* not the pairs measured */
		else if (p->known) {	/* fingerprints checked */
			*sim = p->sim;
			return sh_fpset_ids(s, a, b, id, len);
		}
	}
	if ((e = sh_fpset_fp(s, a, &fp[0])) != 0 ||
	    (e = sh_fpset_fp(s, b, &fp[1])) != 0 ||
	    (e = sh_fpset_ids(s, a, b, id, len)) != 0)
		return e;
	return verify(v, id, len, fp, (const uint32_t[2]){ a, b }, sim,
	    which, col);
}

int
sh_verify_threads(struct sh_verify *v, const struct sh_fpopt *o, int n)
{
	struct cutter *c;
	int t, j;

	if (v->cut != NULL || n < 2)
		return 0;
	n = n < SH_THREADS_MAX ? n : SH_THREADS_MAX;
	if ((v->cut = calloc((size_t)n, sizeof(*v->cut))) == NULL)
		return SH_ENOMEM;
	for (t = 0; t < n; t++) {
		c = &v->cut[t];
		c->v = v;
		c->m = v->m;
		c->f = v->f;
		if (t > 0 && (sh_docmap_clone(v->m, &c->m) != 0 ||
		    (c->f = sh_fp_new(o)) == NULL)) {
			if (c->m != v->m)
				sh_docmap_free(c->m);
			break;
		}
		for (j = 0; j < STEP; j++) {
			sh_fvec_init(&c->fv[j], 0);
			if (v->measure == SH_SIM_EDIT)
				sh_fvec_chars(&c->fv[j], SH_FVEC_BOTH);
		}
		/* Without one, sh_verify_pairs leaves its pairs to
		 * sh_verify_entries. */
		if (v->measure == SH_SIM_EDIT)
			c->ws = sh_edit_new();
		v->nthreads = t + 1;
	}
	return 0;
}

struct sh_docmap *
sh_verify_map(const struct sh_verify *v)
{
	return v->m;
}

int
sh_verify_nthreads(const struct sh_verify *v)
{
	return v->nthreads > 1 ? v->nthreads : 1;
}

/* A thread of sh_verify_ahead: the next STEP documents of the queue,
 * each read, cut and fingerprinted, then those that went well kept in
 * the cache, until none is left. */
static void *
cut_ahead(void *arg)
{
	struct cutter *c = arg;
	struct sh_verify *v = c->v;
	struct sh_rec rec;
	size_t col;
	uint32_t slot;
	int bad, i, n = 0;

	for (;;) {
		pthread_mutex_lock(&v->mu);
		for (i = 0; i < n; i++)
			if (c->ok[i]) {
				/* queue grew the slots to hold e */
				if ((slot = cache_put(v, v->ids + c->d[i]->id,
				    c->d[i]->idlen, &c->fv[i].set,
				    &c->fp[i])) != NOSLOT &&
				    c->d[i]->e != NOSLOT)
					v->slot[c->d[i]->e] = slot + 1;
			} else
				sh_hmap_put(&v->failed, sh_hash64(v->ids +
				    c->d[i]->id, c->d[i]->idlen, 0), 1);
		for (n = 0; n < STEP && v->next < v->nad; n++)
			c->d[n] = &v->ad[v->next++];
		pthread_mutex_unlock(&v->mu);
		if (n == 0)
			return NULL;
		for (i = 0; i < n; i++)
			if ((c->ok[i] = sh_docmap_get(c->m, v->ids +
			    c->d[i]->id, c->d[i]->idlen, &rec) == 1 &&
			    sh_fvec_doc(&c->fv[i], c->f, rec.text, rec.len,
			    v->tokens, &bad, &col) == 0))
				c->fp[i] = sh_fvec_fp(&c->fv[i]);
	}
}

/* sh_verify_queue, of entry e of a set (NOSLOT: none), its slot grown
 * to hold it for the cutters, or set when the cache holds its ID. */
static void
queue(struct sh_verify *v, const char *id, size_t len, uint32_t e)
{
	const struct cached *c;
	struct adoc *d;
	uint64_t h;

	if (v->nthreads < 2 || (v->nospill && v->bytes >= v->budget))
		return;
	if (v->nad == QUEUE)
		sh_verify_ahead(v);
	if ((c = cache_get(v, id, len)) != NULL) {
		if (e != NOSLOT)
			set_slot(v, e, (uint32_t)(c - v->ent));
		return;
	}
	if (sh_hmap_get(&v->seen, h = sh_hash64(id, len, 0), NULL) ||
	    sh_hmap_get(&v->failed, h, NULL) ||
	    sh_grow(&v->ad, &v->adcap, v->nad + 1, sizeof(*v->ad)) != 0 ||
	    sh_grow(&v->ids, &v->idcap, v->idused + len + 1, 1) != 0 ||
	    sh_hmap_put(&v->seen, h, 0) != 0)
		return;
	d = &v->ad[v->nad++];
	d->id = v->idused;
	d->idlen = len;
	d->e = e != NOSLOT && has_slot(v, e) ? e : NOSLOT;
	memcpy(v->ids + v->idused, id, len);
	v->idused += len;
}

void
sh_verify_queue(struct sh_verify *v, const char *id, size_t len)
{
	queue(v, id, len, NOSLOT);
}

void
sh_verify_queue_entry(struct sh_verify *v, struct sh_fpset *s, uint32_t e)
{
	const char *id;
	size_t len;

	if (v->nthreads >= 2 && slot_get(v, e) == NULL &&
	    sh_fpset_id(s, e, &id, &len) == 0)
		queue(v, id, len, e);
}

void
sh_verify_ahead(struct sh_verify *v)
{
	v->next = 0;
	/* The located documents queued, read together first. */
	if (v->nad > 0) {
		sh_docmap_ahead(v->m);
		sh_threads_run(v->cut, sizeof(*v->cut), v->nthreads,
		    cut_ahead);
	}
	v->nad = v->idused = 0;
	sh_hmap_clear(&v->seen);
}

/* A thread of sh_verify_pairs: the next CHUNK pairs, until none is
 * left. */
static void *
measure(void *arg)
{
	struct cutter *c = arg;
	struct sh_verify *v = c->v;
	struct pre *p;
	size_t i, end;

	for (;;) {
		pthread_mutex_lock(&v->mu);
		i = v->next;
		end = v->next = v->npre - i > CHUNK ? i + CHUNK : v->npre;
		pthread_mutex_unlock(&v->mu);
		if (i == end)
			return NULL;
		for (p = &v->pre[i]; p < &v->pre[end]; p++)
			if (!p->known)
				continue;
			else if (v->measure != SH_SIM_EDIT)
				p->sim = sh_sim_min(v->measure,
				    &slot_get(v, p->a)->v,
				    &slot_get(v, p->b)->v, v->floor);
			else if (c->ws == NULL || sh_sim_edit(c->ws,
			    &slot_get(v, p->a)->v, &slot_get(v, p->b)->v,
			    v->floor, &p->sim) != 0)
				p->known = 0;
	}
}

void
sh_verify_pairs(struct sh_verify *v, struct sh_fpset *s, const uint32_t *e,
    size_t n)
{
	const struct cached *c;
	sh_fpval fp;
	struct pre *p;
	size_t i, known = 0;
	int j;

	v->npre = v->prei = 0;
	if (v->nthreads < 2 || n == 0 ||
	    sh_grow(&v->pre, &v->precap, n, sizeof(*v->pre)) != 0)
		return;
	for (i = 0; i < n; i++) {
		p = &v->pre[i];
		p->a = e[2 * i];
		p->b = e[2 * i + 1];
		p->known = 1;
		for (j = 0; j < 2 && p->known; j++)
			p->known = (c = slot_get(v, e[2 * i + j])) != NULL &&
			    in_memory(v, c) &&
			    sh_fpset_fp(s, e[2 * i + j], &fp) == 0 &&
			    (!c->hasfp || c->fp == fp);
		known += p->known;
	}
	v->npre = n;
	v->next = 0;
	if (known > 0)
		sh_threads_run(v->cut, sizeof(*v->cut), v->nthreads, measure);
}

int
sh_verify_line(struct sh_verify *v, const char *p, size_t len,
    uint32_t *sim, const char **id, size_t *idlen, size_t *col)
{
	const char *ids[2];
	size_t lens[2];
	int r, i = 0;

	if ((r = sh_pairline_parse(p, len, &ids[0], &lens[0], &ids[1],
	    &lens[1])) != 0)
		return r;
	r = sh_verify_ids(v, ids, lens, NULL, sim, &i, col);
	*id = ids[i];
	*idlen = lens[i];
	return r;
}

/* The features of rec, cut by f into v, its ID copied into *id: 1 or an
 * error of sh_fvec_doc (*col then past the ID). */
static int
cut_rec(const struct sh_rec *rec, struct sh_fp *f, int tokens,
    struct sh_fvec *v, char **id, size_t *col, struct sh_docsrc *src)
{
	size_t n;
	int r, bad;

	if (src != NULL) {
		src->off = rec->off;
		src->size = rec->size;
		src->html = rec->html;
		src->csdetected = rec->csdetected;
		n = rec->cs == NULL ? 0 : rec->cslen < sizeof(src->charset) ?
		    rec->cslen : sizeof(src->charset) - 1;
		memcpy(src->charset, rec->cs == NULL ? "" : rec->cs, n);
		src->charset[n] = '\0';
	}

	sh_fvec_chars(v, SH_FVEC_BOTH);
	if ((r = sh_fvec_doc(v, f, rec->text, rec->len, tokens, &bad,
	    col)) != 0) {
		if (r == SH_EWEIGHT || r == SH_EEMPTYTOK || r == SH_ERANGE)
			*col += rec->idlen + 1;
		return r;
	}
	if ((*id = malloc(rec->idlen + 1)) == NULL)
		return SH_ENOMEM;
	memcpy(*id, rec->id, rec->idlen);
	(*id)[rec->idlen] = '\0';
	return 1;
}

int
sh_verify_doc(struct sh_docmap *m, const char *id, struct sh_fp *f,
    int tokens, struct sh_fvec *v, char **idout, size_t *col,
    struct sh_docsrc *src)
{
	struct sh_rec rec;
	int r;

	*col = 0;
	if ((r = sh_docmap_get(m, id, strlen(id), &rec)) != 1)
		return r;
	return cut_rec(&rec, f, tokens, v, idout, col, src);
}

int
sh_verify_file(const char *path, const struct sh_recopt *o,
    struct sh_fp *f, int tokens, struct sh_fvec *v, char **id,
    unsigned long long *line, size_t *col, struct sh_docsrc *src)
{
	struct sh_reader rd;
	struct sh_rec rec = { 0 };
	struct sh_zpipe z;
	char msg[256];
	FILE *in;
	int r, whole;

	*col = 0;
	if ((in = fopen(path, "r")) == NULL)
		return SH_EIO;
	/* A compressed file is read decoded, as sh-fp reads it. */
	if ((r = sh_zpipe_decode(&in, &z)) != 0)
		return r;
	sh_reader_open(&rd, in, o, path, 0);
	while ((r = sh_reader_next(&rd, &rec)) < 0 && sh_rec_skippable(r) &&
	    o->skip)
		;
	*line = rec.line;
	if (r == 1)
		r = cut_rec(&rec, f, tokens, v, id, col, src);
	sh_reader_free(&rd);
	whole = feof(in) && !ferror(in);
	fclose(in);
	if (z.kind != SH_Z_NONE && sh_zpipe_close(&z, whole, msg,
	    sizeof(msg)) != 0 && r >= 0)
		r = SH_EZ;
	return r;
}

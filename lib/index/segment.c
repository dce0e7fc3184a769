#define _GNU_SOURCE	/* mremap */

#include <sys/mman.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/io.h"
#include "index/segint.h"
#include "index/segment.h"

#if SH_FP_BITS != 64
#error "segments hold 8-byte fingerprints (sh-index(5))"
#endif

#define HDR SH_SEG_HDR
#define CH SH_SEG_CHUNK

/* Section sizes, from the counts; 0 when they overflow any file.  A lean
 * segment holds table 0 whole and, for each other table, a tag byte and a
 * 4-byte reference to table 0 per entry; its ID offsets are 4 bytes,
 * relative to a base every SH_SEG_IDGROUP entries. */
static uint64_t
layout(uint64_t ntables, int d, uint64_t nfp, uint64_t idbytes, int lean,
    uint64_t off[4])
{
	uint64_t dirs = ntables * (((uint64_t)1 << d) + 1) * 4, tab, ido;

	if (nfp >= (uint64_t)1 << 32 || idbytes >= (uint64_t)1 << 56 ||
	    ntables < 1)
		return 0;
	tab = lean ? nfp * 8 + (ntables - 1) * nfp * 5 : ntables * nfp * 8;
	ido = lean ? (nfp / SH_SEG_IDGROUP + 1) * 8 + (nfp + 1) * 4 :
	    (nfp + 1) * 8;
	off[0] = 0;
	off[1] = (tab + 7) / 8 * 8;
	off[2] = off[1] + (dirs + 7) / 8 * 8;
	off[3] = off[2] + (ido + 7) / 8 * 8;
	return (off[3] + idbytes + 7) / 8 * 8;
}

/* Directory bits of a lean segment: buckets of 16 to 32 entries, so that
 * the directory costs at most a quarter byte per entry and table. */
static int
lean_dirbits(uint64_t n, int keybits)
{
	return sh_plan_dirbits(n >> 3, keybits);
}

static uint64_t
prefix(uint64_t v, int d)
{
	return d ? v >> (64 - d) : 0;
}

/*
 * Writing.  Every section's size follows from the counts, so each is
 * written at its offset by a buffered stream of its own, the gaps left
 * as holes (zero padding); the tables past 0 are made from table 0 read
 * back, in passes that fit the memory budget; the chunk checksums come
 * last, from the body read back.
 */
/* Stable LSD radix sort of v[0..n) by its top d bits, and of *tg[0..n)
 * with it when *tg is not NULL; tmp and tgtmp have room for n.  Returns
 * the array holding the result (*tg then holds the tags'). */
static uint64_t *
sort_top(uint64_t *v, uint64_t *tmp, unsigned char **tg,
    unsigned char *tgtmp, size_t n, int d)
{
	size_t count[2048], i, sum, c;
	unsigned char *tt;
	uint64_t *t;
	int shift;

	for (shift = 64 - d; shift < 64; shift += 11) {
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++)
			count[v[i] >> shift & 2047]++;
		for (i = 0, sum = 0; i < 2048; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++) {
			c = count[v[i] >> shift & 2047]++;
			tmp[c] = v[i];
			if (*tg != NULL)
				tgtmp[c] = (*tg)[i];
		}
		t = v;
		v = tmp;
		tmp = t;
		tt = *tg;
		*tg = tgtmp;
		tgtmp = tt;
	}
	return v;
}

/* What a write needs to know. */
struct wr {
	int fd, lean, d;
	const struct sh_plan *plan;
	uint64_t nfp, off[4];
	size_t nd;			/* directory entries a table */
	uint32_t *dir;			/* all tables' directories */
	struct sh_segout o[4];
};

/* Table 0, the ID offsets and the IDs, from src.  Return 0, SH_EIO,
 * SH_ERANGE (lean IDs of a group over 4 GiB), SH_ECORRUPT (the source
 * breaks its order or its counts) or the source's error. */
static int
write_first(struct wr *w, const struct sh_segsrc *src)
{
	struct sh_segout *t0 = &w->o[0], *io = &w->o[1], *rel = &w->o[2],
	    *ids = &w->o[3];
	uint64_t i, at = 0, base = 0, nid = 0, j;
	sh_fpval fp, prev = 0;
	const char *p;
	size_t len;
	int r, e = 0;

	sh_segout_at(t0, w->fd, w->off[0]);
	sh_segout_at(io, w->fd, w->off[2]);
	sh_segout_at(rel, w->fd, w->off[2] + (w->nfp / SH_SEG_IDGROUP + 1) * 8);
	sh_segout_at(ids, w->fd, w->off[3]);
	for (i = 0; e == 0; i++) {
		/* Where entry i's IDs start. */
		if (!w->lean)
			e = sh_segout_le(io, at, 8);
		else {
			if (i % SH_SEG_IDGROUP == 0) {
				base = at;
				e = sh_segout_le(io, at, 8);
			}
			if (e == 0)
				e = at - base > UINT32_MAX ? SH_ERANGE :
				    sh_segout_le(rel, at - base, 4);
		}
		if (e != 0 || (r = src->next(src->ctx, &fp, &p, &len)) == 0)
			break;
		if (r < 0)
			return r;
		if (i >= w->nfp || (i > 0 && fp <= prev) || len == 0 ||
		    p[len - 1] != '\n')
			return SH_ECORRUPT;
		for (j = 0; j < len; j++)
			nid += p[j] == '\n';
		w->dir[prefix(fp, w->d) + 1]++;
		prev = fp;
		at += len;
		if ((e = sh_segout_le(t0, fp, 8)) == 0)
			e = sh_segout_bytes(ids, p, len);
	}
	if (e == 0 && (i != w->nfp || at != src->idbytes || nid != src->nid))
		e = SH_ECORRUPT;
	for (j = 0; j < 4 && e == 0; j++)
		e = sh_segout_flush(&w->o[j]);
	return e;
}

/* Table t > 0 from table 0 read back: its entries in passes over runs
 * of prefixes that hold at most per entries (a longer bucket alone),
 * each sorted by prefix.  Return 0, SH_ENOMEM or SH_EIO. */
static int
write_table(struct wr *w, int t, uint64_t per)
{
	static const size_t rb = 8192;	/* fingerprints read at a time */
	uint32_t *dir = w->dir + (size_t)t * w->nd;
	uint64_t *v = NULL, *tmp = NULL, *buf = NULL, *s, pv, p, lo, hi, m,
	    i, j, max = 0;
	unsigned char *tg = NULL, *tgtmp = NULL, *tags;
	struct sh_segout *ent = &w->o[0], *ref = &w->o[1];
	size_t nb, k;
	int e = 0;

	if ((buf = malloc(rb * 8)) == NULL)
		return SH_ENOMEM;
	/* The bucket sizes first: they bound the passes. */
	for (i = 0; i < w->nfp && e == 0; i += nb) {
		nb = w->nfp - i < rb ? (size_t)(w->nfp - i) : rb;
		e = sh_pread_all(w->fd, buf, nb * 8, HDR + w->off[0] + 8 * i);
		for (k = 0; k < nb && e == 0; k++)
			dir[prefix(sh_plan_perm(w->plan, t, rd64((unsigned char *)
			    (buf + k))), w->d) + 1]++;
	}
	for (p = 0; p + 1 < w->nd; p++)
		dir[p + 1] += dir[p];
	for (lo = 0; lo + 1 < w->nd && e == 0; lo = hi) {
		for (hi = lo + 1; hi + 1 < w->nd && dir[hi + 1] - dir[lo] <=
		    per; hi++)
			;
		m = dir[hi] - dir[lo];
		if (m > max) {
			free(v);
			free(tmp);
			free(tg);
			free(tgtmp);
			v = malloc(m * 8 + 1);
			tmp = malloc(m * 8 + 1);
			tg = w->lean ? malloc(m + 1) : NULL;
			tgtmp = w->lean ? malloc(m + 1) : NULL;
			max = m;
			if (v == NULL || tmp == NULL || (w->lean &&
			    (tg == NULL || tgtmp == NULL))) {
				e = SH_ENOMEM;
				break;
			}
		}
		for (i = j = 0; i < w->nfp && e == 0; i += nb) {
			nb = w->nfp - i < rb ? (size_t)(w->nfp - i) : rb;
			e = sh_pread_all(w->fd, buf, nb * 8, HDR + w->off[0] +
			    8 * i);
			for (k = 0; k < nb && e == 0; k++) {
				pv = sh_plan_perm(w->plan, t, rd64(
				    (unsigned char *)(buf + k)));
				p = prefix(pv, w->d);
				if (p < lo || p >= hi)
					continue;
				if (j == m) {
					e = SH_ECORRUPT;	/* changed */
					break;
				}
				/* Lean: prefix, position; the tag beside. */
				if (w->lean) {
					v[j] = (w->d ? p << (64 - w->d) : 0) |
					    (i + k);
					tg[j] = (unsigned char)(pv >>
					    (56 - w->d));
				} else
					v[j] = pv;
				j++;
			}
		}
		if (e != 0 || (e = j == m ? 0 : SH_ECORRUPT) != 0)
			break;
		tags = tg;
		s = sort_top(v, tmp, &tags, tgtmp, m, w->d);
		if (w->lean)
			e = sh_segout_bytes(ent, tags, m);
		for (i = 0; i < m && e == 0; i++)
			e = w->lean ? sh_segout_le(ref, s[i], 4) : sh_segout_le(ent, s[i], 8);
	}
	if (e == 0 && (e = sh_segout_flush(ent)) == 0)
		e = sh_segout_flush(ref);
	free(v);
	free(tmp);
	free(tg);
	free(tgtmp);
	free(buf);
	return e;
}

int
sh_seg_write_from(int fd, const struct sh_plan *plan, int lean,
    const struct sh_segsrc *src, size_t budget,
    const struct sh_progress *pg)
{
	uint64_t bodylen, nchunks, per, sum = 0, i, v[16];
	struct wr *w;
	int t, e = 0;

	if ((w = calloc(1, sizeof(*w))) == NULL)
		return SH_ENOMEM;
	w->fd = fd;
	w->lean = lean;
	w->plan = plan;
	w->nfp = src->nfp;
	w->d = (lean ? lean_dirbits : sh_plan_dirbits)(src->nfp,
	    sh_plan_minkey(plan));
	w->nd = ((size_t)1 << w->d) + 1;
	if ((bodylen = layout(plan->ntables, w->d, src->nfp, src->idbytes,
	    lean, w->off)) == 0) {
		free(w);
		return SH_ERANGE;
	}
	nchunks = (bodylen + CH - 1) / CH;
	/* A pass of a table holds 8 bytes an entry twice, and its tags. */
	per = budget ? budget / (lean ? 18 : 16) : src->nfp;
	if ((w->dir = calloc(plan->ntables * w->nd, sizeof(*w->dir))) ==
	    NULL)
		e = SH_ENOMEM;
	else if (ftruncate(fd, (off_t)(HDR + bodylen + 8 * nchunks)) != 0)
		e = SH_EIO;
	else
		e = write_first(w, src);
	for (i = 1; i < w->nd && e == 0; i++)
		w->dir[i] += w->dir[i - 1];
	if (e == 0)
		sh_progress(pg, "table", 1, (uint64_t)plan->ntables);
	for (t = 1; t < plan->ntables && e == 0; t++) {
		sh_segout_at(&w->o[0], fd, w->off[0] + (lean ? w->nfp * 8 +
		    (uint64_t)(t - 1) * w->nfp * 5 : (uint64_t)t * w->nfp * 8));
		sh_segout_at(&w->o[1], fd, w->off[0] + w->nfp * 8 +
		    (uint64_t)(t - 1) * w->nfp * 5 + w->nfp);
		if ((e = write_table(w, t, per)) == 0)
			sh_progress(pg, "table", (uint64_t)t + 1,
			    (uint64_t)plan->ntables);
	}
	sh_segout_at(&w->o[0], fd, w->off[1]);
	for (i = 0; i < plan->ntables * w->nd && e == 0; i++)
		e = sh_segout_le(&w->o[0], w->dir[i], 4);
	if (e == 0 && (e = sh_segout_flush(&w->o[0])) == 0)
		e = sh_seg_sums(fd, bodylen, nchunks, &sum);
	if (e == 0) {
		memset(v, 0, sizeof(v));
		v[H_VERSION] = lean ? SH_SEG_VERSION_LEAN : SH_SEG_VERSION;
		v[H_K] = (uint64_t)plan->k;
		v[H_BLOCKS] = (uint64_t)plan->nblocks;
		v[H_KEY] = (uint64_t)plan->nkey;
		v[H_TABLES] = (uint64_t)plan->ntables;
		v[H_DIRBITS] = (uint64_t)w->d;
		v[H_NFP] = src->nfp;
		v[H_NID] = src->nid;
		v[H_IDBYTES] = src->idbytes;
		v[H_BODYLEN] = bodylen;
		v[H_NCHUNKS] = nchunks;
		v[H_SUMS] = sum;
		e = sh_seg_header(fd, v);
	}
	free(w->dir);
	free(w);
	return e;
}

/* The source of sh_seg_write: the arrays of a struct sh_segdata. */
struct arrays {
	const struct sh_segdata *d;
	uint64_t i;
};

static int
next_array(void *ctx, sh_fpval *fp, const char **ids, size_t *len)
{
	struct arrays *a = ctx;

	if (a->i >= a->d->nfp)
		return 0;
	*fp = a->d->fp[a->i];
	*ids = a->d->ids + a->d->idoff[a->i];
	*len = (size_t)(a->d->idoff[a->i + 1] - a->d->idoff[a->i]);
	a->i++;
	return 1;
}

int
sh_seg_write(int fd, const struct sh_plan *plan, int lean,
    const struct sh_segdata *d, size_t budget, const struct sh_progress *pg)
{
	struct arrays a = { d, 0 };
	struct sh_segsrc src;

	src.nfp = d->nfp;
	src.nid = d->nid;
	src.idbytes = d->nfp ? d->idoff[d->nfp] : 0;
	src.next = next_array;
	src.ctx = &a;
	return sh_seg_write_from(fd, plan, lean, &src, budget, pg);
}

/* Check the header h of a file of size bytes, filling *s. */
static int
check_header(struct sh_seg *s, const unsigned char *h, uint64_t size)
{
	uint64_t off[4], v[16];
	int i, e;

	for (i = 0; i < 16; i++)
		v[i] = rd64(h + 8 * i);
	if (v[H_SELF] != sh_hash64(h, 8 * H_SELF, 0))
		return SH_ECORRUPT;
	if (v[H_VERSION] == SH_SEG_VERSION_BANDS ||
	    v[H_VERSION] == SH_SEG_VERSION_LOCS)
		return sh_bandseg_header(s, v, size);
	if (v[H_VERSION] != SH_SEG_VERSION &&
	    v[H_VERSION] != SH_SEG_VERSION_LEAN)
		return SH_EVERSION;
	s->lean = v[H_VERSION] == SH_SEG_VERSION_LEAN;
	if (v[H_K] > SH_PLAN_KMAX || v[H_BLOCKS] > SH_PLAN_BMAX ||
	    v[H_KEY] > v[H_BLOCKS] || sh_plan_blocks(&s->plan,
	    (int)v[H_BLOCKS], (int)v[H_KEY]) != 0 ||
	    v[H_TABLES] != (uint64_t)s->plan.ntables ||
	    v[H_DIRBITS] > (uint64_t)sh_plan_minkey(&s->plan) || v[H_DIRBITS] > 30 ||
	    v[H_NID] < v[H_NFP] || v[H_CHUNK] != CH)
		return SH_ECORRUPT;
	s->plan.k = (int)v[H_K];
	s->dirbits = (int)v[H_DIRBITS];
	s->nfp = v[H_NFP];
	s->nid = v[H_NID];
	s->idbytes = v[H_IDBYTES];
	s->bodylen = layout(v[H_TABLES], s->dirbits, s->nfp, s->idbytes,
	    s->lean, off);
	if ((e = sh_seg_sized(s, v, size)) != 0)
		return e;
	s->tables = off[0];
	s->dirs = off[1];
	s->idoff = off[2];
	s->ids = off[3];
	return 0;
}

int
sh_seg_is(const char *path)
{
	unsigned char m[8];
	struct stat st;
	int fd, is;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW)) < 0)
		return 0;
	is = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    pread(fd, m, 8, 0) == 8 && memcmp(m, sh_seg_magic, 8) == 0;
	close(fd);
	return is;
}

int
sh_seg_open(struct sh_seg *s, const char *path, int nofollow)
{
	unsigned char h[HDR];
	struct stat st;
	ssize_t got;
	void *map;
	int fd, e, saved;

	memset(s, 0, sizeof(*s));
	/* Not blocking: a FIFO would hang the open, then is refused. */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | (nofollow ? O_NOFOLLOW :
	    0))) < 0)
		return SH_EIO;
	e = fstat(fd, &st) != 0 ? SH_EIO : !S_ISREG(st.st_mode) ?
	    SH_ENOTREG : (got = pread(fd, h, HDR, 0)) < 0 ? SH_EIO : 0;
	if (e != 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return e;
	}
	if (memcmp(h, sh_seg_magic, got < 8 ? (size_t)got : 8) != 0) {
		close(fd);
		return SH_EMAGIC;
	}
	if (got < HDR) {
		close(fd);
		return SH_ETRUNC;
	}
	if ((e = check_header(s, h, (uint64_t)st.st_size)) != 0) {
		close(fd);
		return e;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		saved = errno;
		close(fd);
		errno = saved;
		return SH_EIO;
	}
	s->map = map;
	s->fd = fd;
	s->size = (size_t)st.st_size;
	s->body = s->map + HDR;
	s->sums = s->body + s->bodylen;
	sh_seg_advise(s, 0);
	if ((s->checked = calloc(s->nchunks / 8 + 1, 1)) == NULL) {
		sh_seg_close(s);
		return SH_ENOMEM;
	}
	s->sumsum = rd64(h + 8 * H_SUMS);
	if (s->sumsum != sh_hash64(s->sums, s->nchunks * 8, 0)) {
		sh_seg_close(s);
		return SH_ECORRUPT;
	}
	return 0;
}


/*
 * Map in the pages of the file mapping p[0..len), the ID offsets and IDs
 * of a loaded segment of size bytes, read ahead where the cache lacks
 * them, when the whole segment takes at most half the memory: the
 * matches then read them without a page fault each (at 100 million
 * fingerprints, 10 tables, queries of which a tenth match: 0.3 s of 3.6
 * a run of 3 million).  A larger segment, such as a lean billion,
 * leaves them to be read as matches come, never more than those.
 * Return whether the pages were asked for; nothing fails.
 */
static int
populate(unsigned char *p, size_t len, size_t size)
{
#ifdef MADV_POPULATE_READ
	long pages = sysconf(_SC_PHYS_PAGES), pg = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || pg <= 0 || size > (size_t)pages / 2 * (size_t)pg)
		return 0;
	madvise(p, len, MADV_SEQUENTIAL);
	madvise(p, len, MADV_POPULATE_READ);
	madvise(p, len, MADV_RANDOM);
	return 1;
#else
	(void)p;
	(void)len;
	(void)size;
	return 0;
#endif
}

/* Read file bytes [off, off + n) of fd into p.  Return 0, SH_EIO (errno
 * set) or SH_ETRUNC (the file ends before). */
static int
readin(int fd, unsigned char *p, size_t n, size_t off)
{
	ssize_t r;

	while (n > 0) {
		if ((r = pread(fd, p, n, (off_t)off)) < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return SH_EIO;
		if (r == 0)
			return SH_ETRUNC;
		p += r;
		off += (size_t)r;
		n -= (size_t)r;
	}
	return 0;
}

int
sh_seg_load(struct sh_seg *s)
{
	size_t keep, off, n, step = (size_t)1 << 26;
	uint64_t c, len;
	unsigned char *m;
	void *v;
	int e, saved;

	/* The file may have changed since it was opened: the checksums
	 * must be those its header vouched for. */
	if (sh_hash64(s->sums, s->nchunks * 8, 0) != s->sumsum)
		return SH_ECORRUPT;
	/* What is copied: the tables and directories, up to the page of the
	 * ID offsets.  The rest, read only for matches, stays mapped, moved
	 * behind the copy: the whole range is reserved (no memory is
	 * committed for it), the copy's part made memory.  Without mremap,
	 * the whole file is copied. */
	keep = s->size;
#ifdef MREMAP_FIXED
	keep = (HDR + s->idoff) / (size_t)sysconf(_SC_PAGESIZE) *
	    (size_t)sysconf(_SC_PAGESIZE);
#endif
	v = mmap(NULL, s->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS |
	    MAP_NORESERVE, -1, 0);
	if (v == MAP_FAILED)
		return SH_ENOMEM;
	m = v;
	if (keep > 0 && mmap(m, keep, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED) {
		munmap(m, s->size);
		return SH_ENOMEM;
	}
	sh_hugepages(m, keep);
	/* The copy read from the file in steps, each step's chunks checked
	 * so that searches read checked memory only.  A chunk that fails
	 * stays unchecked: the search that reads it fails, as it would have
	 * on the mapping.  Chunks past the copy are checked at the end
	 * when they are mapped in, else when first read, as on the
	 * mapping.  Read, not copied from the mapping:
	 * faulting the mapping in from a cold page cache ran at 50 MB/s,
	 * the CPU in the kernel's read-ahead, where read runs at the disk's
	 * speed. */
	posix_fadvise(s->fd, 0, (off_t)keep, POSIX_FADV_SEQUENTIAL);
	memset(s->checked, 0, s->nchunks / 8 + 1);
	for (off = c = 0; off < keep; off += n) {
		n = keep - off < step ? keep - off : step;
		if ((e = readin(s->fd, m + off, n, off)) != 0)
			goto fail;
		for (; c < s->nchunks; c++) {
			len = c == s->nchunks - 1 ? s->bodylen - c * CH : CH;
			if (HDR + c * CH + len > off + n)
				break;
			if (sh_hash64(m + HDR + c * CH, (size_t)len, 0) ==
			    rd64(s->sums + 8 * c))
				s->checked[c / 8] |= (unsigned char)(1 <<
				    (c % 8));
		}
	}
#ifdef MREMAP_FIXED
	if (keep < s->size && mremap((void *)(s->map + keep), s->size - keep,
	    s->size - keep, MREMAP_MAYMOVE | MREMAP_FIXED, m + keep) ==
	    MAP_FAILED) {
		e = SH_ENOMEM;
		goto fail;
	}
#endif
	s->upto = 0;
	sh_seg_advance(s);
	if (keep > 0)
		munmap((void *)s->map, keep);
	s->map = m;
	s->body = s->map + HDR;
	s->sums = s->body + s->bodylen;
	/* The chunk that straddles the copy's end is whole again: checked
	 * now, the checked prefix covers every table and directory (or
	 * stops at a chunk that fails, as searches then do). */
	(void)sh_seg_check(s, 0, s->idoff);
	/* The ID offsets and IDs mapped in are checked here too, in order,
	 * not a chunk of 4 KiB at random for each match: at 100 million
	 * fingerprints, 10 tables, 3 million queries of which a tenth
	 * match took 2.56 s after the load instead of 3.16 (medians of 5),
	 * and the load took no longer, within the noise. */
	if (keep < s->size && populate(m + keep, s->size - keep, s->size))
		for (c = s->idoff / CH; c < s->nchunks; c++)
			(void)sh_seg_check(s, c * CH, 1);
	return 0;
fail:
	/* The segment stays mapped, its chunks to be checked again. */
	saved = errno;
	munmap(m, s->size);
	memset(s->checked, 0, s->nchunks / 8 + 1);
	s->upto = 0;
	errno = saved;
	return e;
}

void
sh_seg_advise(struct sh_seg *s, int sequential)
{
	/* Hints: nothing fails. */
	madvise((void *)s->map, s->size, sequential ? MADV_SEQUENTIAL :
	    MADV_RANDOM);
}

void
sh_seg_close(struct sh_seg *s)
{
	if (s->map != NULL) {
		munmap((void *)s->map, s->size);
		close(s->fd);
	}
	free(s->checked);
	free(s->filetab);
	free(s->file);
	memset(s, 0, sizeof(*s));
}

/* Offset in the body of the directory entry of prefix p in table t. */
static uint64_t
dirent(const struct sh_seg *s, int t, uint64_t p)
{
	return s->dirs + ((uint64_t)t * (((uint64_t)1 << s->dirbits) + 1) +
	    p) * 4;
}

/* Offset in the body of the entries of table t: 8 bytes each, or in a
 * lean segment beyond table 0 the tag bytes, then the references. */
static uint64_t
entries(const struct sh_seg *s, int t)
{
	if (s->lean && t > 0)
		return s->tables + s->nfp * 8 + (uint64_t)(t - 1) * s->nfp * 5;
	return s->tables + (uint64_t)t * s->nfp * 8;
}

static int
entsize(const struct sh_seg *s, int t)
{
	return s->lean && t > 0 ? 1 : 8;
}

/* The entries [*lo, *hi) that the directory entry at d (its bytes
 * checked) gives.  Return 0, or SH_ECORRUPT when they are not in the
 * table. */
static inline int
dirread(const struct sh_seg *s, const unsigned char *d, uint64_t *lo,
    uint64_t *hi)
{
	*lo = rd32(d);
	*hi = rd32(d + 4);
	return *lo > *hi || *hi > s->nfp ? SH_ECORRUPT : 0;
}

/* Entries [*lo, *hi) of table t whose permuted value has prefix p. */
static int
bucket(struct sh_seg *s, int t, uint64_t p, uint64_t *lo, uint64_t *hi)
{
	uint64_t at = dirent(s, t, p);
	int e;

	if ((e = sh_seg_need(s, at, 8)) != 0 ||
	    (e = dirread(s, s->body + at, lo, hi)) != 0)
		return e;
	return sh_seg_need(s, entries(s, t) + *lo * entsize(s, t),
	    (*hi - *lo) * entsize(s, t));
}

/* Entry i of lean table t: its position in table 0.  Return 0 or
 * SH_ECORRUPT. */
static int
reference(struct sh_seg *s, int t, uint64_t i, uint64_t *pos)
{
	uint64_t at = entries(s, t) + s->nfp + 4 * i;
	int e;

	if ((e = sh_seg_need(s, at, 4)) != 0)
		return e;
	*pos = rd32(s->body + at);
	return *pos < s->nfp ? 0 : SH_ECORRUPT;
}

/*
 * The first entry at or after i, before hi, of the table at e within k of
 * q; hi when none.  This loop is where searches spend their time, so on
 * x86 it is also compiled for the popcnt instruction and for AVX-512,
 * used where the CPU has them (sh_seg_vector).
 */
#define NEXT_HIT(name, count)						\
static uint64_t								\
name(const unsigned char *e, uint64_t i, uint64_t hi, uint64_t q, int k)	\
{									\
	for (; i < hi; i++)						\
		if (count(rd64(e + 8 * i) ^ q) <= k)			\
			break;						\
	return i;							\
}

#define SWAR_COUNT(x) sh_hamming((x), 0)
NEXT_HIT(next_hit_swar, SWAR_COUNT)

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_POPCNT_DISPATCH
__attribute__((target("popcnt")))
NEXT_HIT(next_hit_popcnt, __builtin_popcountll)
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_AVX512_DISPATCH
/* Eight entries at a time: their distances to q by the vector popcount
 * of AVX-512 (VPOPCNTDQ), compared with k in one mask.  The entries are
 * little-endian, as x86 loads them. */
__attribute__((target("popcnt,avx512f,avx512vpopcntdq")))
static uint64_t
next_hit_avx512(const unsigned char *e, uint64_t i, uint64_t hi, uint64_t q,
    int k)
{
	__m512i vq = _mm512_set1_epi64((long long)q);
	__m512i vk = _mm512_set1_epi64(k);
	__mmask8 m;

	for (; i + 8 <= hi; i += 8) {
		m = _mm512_cmple_epu64_mask(_mm512_popcnt_epi64(
		    _mm512_xor_si512(_mm512_loadu_si512(e + 8 * i), vq)), vk);
		if (m != 0)
			return i + (uint64_t)__builtin_ctz(m);
	}
	for (; i < hi; i++)
		if (__builtin_popcountll(rd64(e + 8 * i) ^ q) <= k)
			break;
	return i;
}
#endif

static int vector_scan = 1;

void
sh_seg_vector(int on)
{
	vector_scan = on;
}

static uint64_t
next_hit(const unsigned char *e, uint64_t i, uint64_t hi, uint64_t q, int k)
{
#ifdef HAVE_AVX512_DISPATCH
	if (vector_scan && __builtin_cpu_supports("avx512vpopcntdq"))
		return next_hit_avx512(e, i, hi, q, k);
#endif
#ifdef HAVE_POPCNT_DISPATCH
	if (vector_scan && __builtin_cpu_supports("popcnt"))
		return next_hit_popcnt(e, i, hi, q, k);
#endif
	return next_hit_swar(e, i, hi, q, k);
}

/* Buckets are gathered, prefetched together so that their cache misses
 * overlap, then scanned; so are the references of a lean table that its
 * tag bytes let through. */
#define NRANGE 32
#define NCAND 64
#define UNKNOWN UINT64_MAX	/* position of a hit not yet located */

struct probe {
	struct sh_seg *s;
	struct sh_hits *h;
	int k, seg, t, rho;
	uint64_t q;			/* the query permuted for table t */
	uint32_t qi;			/* its number in a batch */
	struct range {
		uint64_t lo, hi, q;	/* the query permuted for table t */
		uint32_t qi;
		int t, flips;		/* prefix bits flipped from q's */
	} r[NRANGE];
	int n;
	struct cand {
		uint64_t i;		/* entry of lean table t */
		const struct range *r;	/* that gathered it */
	} c[NCAND];
	int nc;
};

/* Bits set in each byte. */
static const unsigned char pop8[256] = {
#define B2(n) n, n + 1, n + 1, n + 2
#define B4(n) B2(n), B2(n + 1), B2(n + 1), B2(n + 2)
#define B6(n) B4(n), B4(n + 1), B4(n + 1), B4(n + 2)
	B6(0), B6(1), B6(1), B6(2)
#undef B2
#undef B4
#undef B6
};

/* Append one hit.  Return 0 or SH_ENOMEM. */
static int
hits_add(struct sh_hits *h, const struct sh_hit *x)
{
	struct sh_hit *nv;
	size_t cap;

	if (h->n == h->cap) {
		cap = h->cap ? 2 * h->cap : 16;
		if ((nv = realloc(h->v, cap * sizeof(*nv))) == NULL)
			return SH_ENOMEM;
		h->v = nv;
		h->cap = cap;
	}
	h->v[h->n++] = *x;
	return 0;
}

/* Check the entries of lean tables gathered in pr against table 0. */
static int
scan_cands(struct probe *pr)
{
	struct sh_seg *s = pr->s;
	const unsigned char *t0 = s->body + s->tables;
	uint64_t pos[NCAND];
	struct sh_hit x;
	int j, e;

	for (j = 0; j < pr->nc; j++) {
		if ((e = reference(s, pr->c[j].r->t, pr->c[j].i, &pos[j])) != 0)
			return e;
		SH_PREFETCH(t0 + 8 * pos[j]);
	}
	for (j = 0; j < pr->nc; j++) {
		if ((e = sh_seg_need(s, s->tables + 8 * pos[j], 8)) != 0)
			return e;
		x.fp = rd64(t0 + 8 * pos[j]);
		if ((x.dist = sh_hamming(x.fp, sh_plan_unperm(&s->plan,
		    pr->c[j].r->t, pr->c[j].r->q))) > pr->k)
			continue;
		x.pos = pos[j];
		x.seg = pr->seg;
		x.q = pr->c[j].r->qi;
		if ((e = hits_add(pr->h, &x)) != 0)
			return e;
	}
	pr->nc = 0;
	return 0;
}

/* The lowest bit set in m, not 0. */
static int
lowest(uint64_t m)
{
#if defined(__GNUC__)
	return __builtin_ctzll(m);
#else
	int i;

	for (i = 0; !(m >> i & 1); i++)
		;
	return i;
#endif
}

/* Bit j set for each of tag[0..n) (n at most 64) that may lie within
 * kk of q, its key bits (key) within rr. */
static uint64_t
tags_pass_c(const unsigned char *tag, int n, unsigned q, unsigned key,
    int kk, int rr)
{
	uint64_t m = 0;
	unsigned x;
	int j;

	for (j = 0; j < n; j++) {
		x = tag[j] ^ q;
		if (pop8[x] <= kk && pop8[x & key] <= rr)
			m |= (uint64_t)1 << j;
	}
	return m;
}

#ifdef HAVE_AVX512_DISPATCH
/* 64 tags at a time: the bits set in each byte by two table lookups of
 * a nibble (vpshufb), compared in one mask. */
__attribute__((target("avx512f,avx512bw")))
static uint64_t
tags_pass_avx512(const unsigned char *tag, int n, unsigned q, unsigned key,
    int kk, int rr)
{
	const __m512i lut = _mm512_set4_epi32(0x04030302, 0x03020201,
	    0x03020201, 0x02010100), nib = _mm512_set1_epi8(0x0f);
	__mmask64 m = n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
	__m512i x, xk, px, pk;

	x = _mm512_xor_si512(_mm512_maskz_loadu_epi8(m, tag),
	    _mm512_set1_epi8((char)q));
	xk = _mm512_and_si512(x, _mm512_set1_epi8((char)key));
	px = _mm512_add_epi8(_mm512_shuffle_epi8(lut, _mm512_and_si512(x,
	    nib)), _mm512_shuffle_epi8(lut, _mm512_and_si512(
	    _mm512_srli_epi16(x, 4), nib)));
	pk = _mm512_add_epi8(_mm512_shuffle_epi8(lut, _mm512_and_si512(xk,
	    nib)), _mm512_shuffle_epi8(lut, _mm512_and_si512(
	    _mm512_srli_epi16(xk, 4), nib)));
	return m & _mm512_cmple_epu8_mask(px, _mm512_set1_epi8((char)kk)) &
	    _mm512_cmple_epu8_mask(pk, _mm512_set1_epi8((char)rr));
}
#endif

static uint64_t
tags_pass(const unsigned char *tag, int n, unsigned q, unsigned key, int kk,
    int rr)
{
#ifdef HAVE_AVX512_DISPATCH
	if (vector_scan && __builtin_cpu_supports("avx512bw"))
		return tags_pass_avx512(tag, n, q, key, kk, rr);
#endif
	return tags_pass_c(tag, n, q, key, kk, rr);
}

/* The entries of lean range r whose tags may lie within the distance,
 * and their key bits within the radius, less the prefix bits flipped:
 * into the candidates, their references asked for. */
static int
scan_tags(struct probe *pr, const struct range *r)
{
	struct sh_seg *s = pr->s;
	const unsigned char *tag = s->body + entries(s, r->t);
	unsigned q = (unsigned)(r->q >> (56 - s->dirbits)) & 255, key;
	int kb = s->plan.keybits[r->t] - s->dirbits, n, e;
	uint64_t i, j, m;

	key = kb >= 8 ? 255 : 255u << (8 - kb) & 255;
	for (i = r->lo; i < r->hi; i += 64) {
		n = r->hi - i < 64 ? (int)(r->hi - i) : 64;
		m = tags_pass(tag + i, n, q, key, pr->k - r->flips,
		    pr->rho - r->flips);
		for (; m != 0; m &= m - 1) {
			j = i + (uint64_t)lowest(m);
			if (pr->nc == NCAND && (e = scan_cands(pr)) != 0)
				return e;
			SH_PREFETCH(tag + s->nfp + 4 * j);
			pr->c[pr->nc].r = r;
			pr->c[pr->nc++].i = j;
		}
	}
	return 0;
}

static int
scan(struct probe *pr)
{
	const unsigned char *e;
	const struct range *r;
	struct sh_hit x;
	uint64_t i, v;
	int j, err;

	for (j = 0; j < pr->n; j++) {
		r = &pr->r[j];
		if (pr->s->lean && r->t > 0) {
			if ((err = scan_tags(pr, r)) != 0)
				return err;
			continue;
		}
		e = pr->s->body + entries(pr->s, r->t);
		for (i = r->lo; (i = next_hit(e, i, r->hi, r->q, pr->k)) <
		    r->hi; i++) {
			v = rd64(e + 8 * i);
			x.dist = sh_hamming(v, r->q);
			x.fp = sh_plan_unperm(&pr->s->plan, r->t, v);
			/* Table 0 is sorted fingerprints: the identity. */
			x.pos = r->t == 0 ? i : UNKNOWN;
			x.seg = pr->seg;
			x.q = r->qi;
			if ((err = hits_add(pr->h, &x)) != 0)
				return err;
		}
	}
	pr->n = 0;
	return scan_cands(pr);
}

/* Gather entries [lo, hi) of table pr->t for the query in pr, flips of
 * the prefix bits flipped, and ask for their cache lines (the last too
 * when a few entries straddle two). */
static int
push_range(struct probe *pr, uint64_t lo, uint64_t hi, int flips)
{
	const unsigned char *b;
	struct range *r;
	uintptr_t a, end;
	int e, w;

	if (lo == hi)
		return 0;
	if (pr->n == NRANGE && (e = scan(pr)) != 0)
		return e;
	r = &pr->r[pr->n++];
	r->lo = lo;
	r->hi = hi;
	r->qi = pr->qi;
	r->t = pr->t;
	r->q = pr->q;
	r->flips = flips;
	w = entsize(pr->s, r->t);
	b = pr->s->body + entries(pr->s, r->t);
	end = (uintptr_t)(b + w * hi);
	for (a = (uintptr_t)(b + w * lo) & ~(uintptr_t)63; a < end; a += 64)
		SH_PREFETCH((const void *)a);
	return 0;
}

/* Gather the bucket of prefix p in table pr->t for the query in pr, p
 * having flips of its bits flipped. */
static int
add_range(struct probe *pr, uint64_t p, int flips)
{
	uint64_t lo, hi;
	int e;

	if ((e = bucket(pr->s, pr->t, p, &lo, &hi)) != 0)
		return e;
	return push_range(pr, lo, hi, flips);
}

/* Gather the bucket of every prefix within rho of p in table pr->t,
 * flipping bits from bit `from' up, each prefix once. */
static int
probe(struct probe *pr, uint64_t p, int from, int rho)
{
	int b, e;

	if ((e = add_range(pr, p, pr->rho - rho)) != 0)
		return e;
	for (b = from; rho > 0 && b < pr->s->dirbits; b++)
		if ((e = probe(pr, p ^ (uint64_t)1 << b, b + 1, rho - 1)) != 0)
			return e;
	return 0;
}

static int
cmp_hit(const void *a, const void *b)
{
	const struct sh_hit *x = a, *y = b;

	return x->fp < y->fp ? -1 : x->fp > y->fp;
}

/* Position of fp in table 0, which is sorted. */
static int
locate(struct sh_seg *s, uint64_t fp, uint64_t *pos)
{
	uint64_t lo, hi, i;
	int e;

	if ((e = bucket(s, 0, prefix(fp, s->dirbits), &lo, &hi)) != 0)
		return e;
	for (i = lo; i < hi; i++)
		if (rd64(s->body + s->tables + 8 * i) == fp) {
			*pos = i;
			return 0;
		}
	return SH_ECORRUPT;
}

/* Ask for the directory entries of fp's prefix in every table. */
static void
prefetch_dirs(struct sh_seg *s, sh_fpval fp)
{
	int t;

	for (t = 0; t < s->plan.ntables; t++)
		SH_PREFETCH(s->body + dirent(s, t, prefix(sh_plan_perm(&s->plan,
		    t, fp), s->dirbits)));
}

/* A probe of segment s at distance k, for hits into h. */
static void
probe_init(struct probe *pr, struct sh_seg *s, int k, int seg,
    struct sh_hits *h)
{
	pr->s = s;
	pr->h = h;
	pr->k = k;
	pr->seg = seg;
	pr->n = pr->nc = 0;
	pr->qi = 0;
	pr->rho = sh_plan_radius(&s->plan, k);
}

/* Keep one of each entry among the hits h->v[first ..) sorted by
 * fingerprint, with its position when a table knows it; the end. */
static size_t
uniq_hits(struct sh_hits *h, size_t first, size_t end, size_t to)
{
	size_t i, n = to;

	for (i = first; i < end; i++)
		if (n == to || h->v[i].fp != h->v[n - 1].fp)
			h->v[n++] = h->v[i];
		else if (h->v[n - 1].pos == UNKNOWN)
			h->v[n - 1].pos = h->v[i].pos;
	return n;
}

/* The positions of the hits h->v[first ..) that no table knew. */
static int
locate_hits(struct sh_seg *s, struct sh_hits *h, size_t first)
{
	size_t i;
	int e;

	for (i = first; i < h->n; i++)
		if (h->v[i].pos == UNKNOWN &&
		    (e = locate(s, h->v[i].fp, &h->v[i].pos)) != 0)
			return e;
	return 0;
}

int
sh_seg_search(struct sh_seg *s, sh_fpval fp, int k, int seg,
    struct sh_hits *h)
{
	struct probe pr;
	size_t first = h->n;
	uint64_t p;
	int rho, t, b, e = 0;

	if (s->nfp == 0)
		return 0;
	probe_init(&pr, s, k, seg, h);
	rho = pr.rho;
	/* The directory entries of every table first, and those one bit
	 * away when probing: their cache misses overlap instead of coming
	 * one by one. */
	prefetch_dirs(s, fp);
	for (t = 0; rho > 0 && t < s->plan.ntables; t++) {
		p = prefix(sh_plan_perm(&s->plan, t, fp), s->dirbits);
		for (b = 0; b < s->dirbits; b++)
			SH_PREFETCH(s->body + dirent(s, t, p ^ (uint64_t)1 << b));
	}
	for (pr.t = 0; pr.t < s->plan.ntables && e == 0; pr.t++) {
		pr.q = sh_plan_perm(&s->plan, pr.t, fp);
		e = probe(&pr, prefix(pr.q, s->dirbits), 0, rho);
	}
	if (e != 0 || (e = scan(&pr)) != 0)
		return e;
	if (h->n == first)
		return 0;
	/* Several tables find the same entry: keep one of each, with its
	 * position when one of them knows it. */
	qsort(h->v + first, h->n - first, sizeof(*h->v), cmp_hit);
	h->n = uniq_hits(h, first, h->n, first);
	return locate_hits(s, h, first);
}

int
sh_hits_group(struct sh_hits *h, size_t first, size_t nq, size_t *start)
{
	size_t i, m = h->n - first;
	struct sh_hit *tmp;

	memset(start, 0, (nq + 1) * sizeof(*start));
	for (i = first; i < h->n; i++)
		start[h->v[i].q + 1]++;
	for (i = 0; i < nq; i++)
		start[i + 1] += start[i];
	if (m < 2)
		return 0;
	if ((tmp = malloc(m * sizeof(*tmp))) == NULL)
		return SH_ENOMEM;
	for (i = first; i < h->n; i++)
		tmp[start[h->v[i].q]++] = h->v[i];
	/* start[i] is now where group i + 1 starts. */
	for (i = nq; i > 0; i--)
		start[i] = start[i - 1];
	start[0] = 0;
	memcpy(h->v + first, tmp, m * sizeof(*tmp));
	free(tmp);
	return 0;
}

/* Probes sorted at a time by a batch search, at most (32 MiB of keys),
 * and probes of a query beyond which it is searched alone. */
#define BATCH_KEYS ((size_t)1 << 21)
#define BATCH_PROBES 256

/* Key of query i for each prefix within rho of p, flipping bits from
 * bit `from' up, each once: the prefix in the top d bits, i below. */
static void
emit(uint64_t *key, size_t *nk, uint64_t p, int from, int rho, int d,
    uint64_t i)
{
	int b;

	key[(*nk)++] = (d ? p << (64 - d) : 0) | i;
	for (b = from; rho > 0 && b < d; b++)
		emit(key, nk, p ^ (uint64_t)1 << b, b + 1, rho - 1, d, i);
}

/* The buckets of queries q[lo .. lo + m) in every table, table by
 * table, probed in order of the top b bits of their prefix, b the bits
 * of the number of probes (or all the prefix's, if fewer): then the
 * probes that follow each other read the table in order, as a full sort
 * would have them, and a sparse sweep (65,536 probes a table of 2^25
 * buckets) takes one or two passes of the radix sort, not three.  The
 * order of hits does not matter.  key and tmp have room for m probes a
 * query, pq for m queries permuted.  Return 0, SH_ENOMEM or
 * SH_ECORRUPT. */
static int
sweep(struct probe *pr, const sh_fpval *q, size_t lo, size_t m,
    uint64_t *key, uint64_t *tmp, uint64_t *pq)
{
	struct sh_seg *s = pr->s;
	unsigned char *notags = NULL;
	const unsigned char *dir;
	uint64_t *v, p, low, dlo, dhi;
	size_t i, j, nk;
	int d = s->dirbits, b, f, e = 0, direct;

	low = d ? ~(uint64_t)0 >> d : ~(uint64_t)0;
	/* Where the tables and directories are all checked (a loaded
	 * segment), the directory is read directly. */
	direct = !s->lean && s->upto >= s->idoff;
	for (pr->t = 0; pr->t < s->plan.ntables && e == 0; pr->t++) {
		dir = s->body + dirent(s, pr->t, 0);
		for (i = 0, nk = 0; i < m; i++) {
			pq[i] = sh_plan_perm(&s->plan, pr->t, q[lo + i]);
			if (pr->rho == 0)
				key[nk++] = (pq[i] & ~low) | i;
			else
				emit(key, &nk, prefix(pq[i], d), 0, pr->rho, d,
				    i);
		}
		for (b = 0; b < d && (size_t)1 << b < nk; b++)
			;
		v = sort_top(key, tmp, &notags, NULL, nk, b);
		for (j = 0; j < nk && e == 0; j++) {
			/* The directory entries of the next ranges
			 * gathered, and their permuted queries. */
			if (j + NRANGE < nk) {
				SH_PREFETCH(s->body + dirent(s, pr->t,
				    prefix(v[j + NRANGE], d)));
				SH_PREFETCH(pq + (v[j + NRANGE] & low));
			}
			i = (size_t)(v[j] & low);
			p = prefix(v[j], d);
			pr->qi = (uint32_t)(lo + i);
			pr->q = pq[i];
			f = sh_hamming(p, prefix(pr->q, d));
			if (!direct)
				e = add_range(pr, p, f);
			else if ((e = dirread(s, dir + 4 * p, &dlo, &dhi)) == 0)
				e = push_range(pr, dlo, dhi, f);
		}
	}
	return e;
}

int
sh_seg_search_batch(struct sh_seg *s, const sh_fpval *q, size_t n, int k,
    int seg, struct sh_hits *h, size_t *start)
{
	size_t first = h->n, per, lo, i, to, end;
	uint64_t *key;
	struct probe pr;
	double probes;
	int e = 0;

	probe_init(&pr, s, k, seg, h);
	probes = sh_plan_probes(s->dirbits, pr.rho);
	if (s->nfp == 0 || n == 0 || probes > BATCH_PROBES) {
		/* Too many probes a query to sort: one by one, in order. */
		for (i = 0; i < n && e == 0; i++) {
			start[i] = h->n - first;
			e = sh_seg_search(s, q[i], k, seg, h);
			for (to = first + start[i]; to < h->n; to++)
				h->v[to].q = (uint32_t)i;
		}
		start[n] = h->n - first;
		return e;
	}
	per = BATCH_KEYS / (size_t)probes;
	per = per < n ? per : n;
	if ((key = malloc((2 * (size_t)probes + 1) * per * 8)) == NULL)
		return SH_ENOMEM;
	for (lo = 0; lo < n && e == 0; lo += per)
		e = sweep(&pr, q, lo, n - lo < per ? n - lo : per, key,
		    key + per * (size_t)probes, key + 2 * per * (size_t)probes);
	free(key);
	if (e != 0 || (e = scan(&pr)) != 0 ||
	    (e = sh_hits_group(h, first, n, start)) != 0)
		return e;
	/* Each query's hits: by fingerprint, each entry once, located. */
	for (i = 0, to = first; i < n; i++) {
		lo = first + start[i];
		end = first + start[i + 1];
		start[i] = to - first;
		if (end - lo > 1)
			qsort(h->v + lo, end - lo, sizeof(*h->v), cmp_hit);
		to = uniq_hits(h, lo, end, to);
	}
	start[n] = to - first;
	h->n = to;
	return locate_hits(s, h, first);
}

void
sh_seg_prefetch_ids(const struct sh_seg *s, uint64_t i)
{
	uint64_t at, rel;

	if (i >= s->nfp)
		return;
	sh_seg_idoff_at(s, i, &at, &rel);
	SH_PREFETCH(s->body + at);
	if (s->lean)
		SH_PREFETCH(s->body + rel);
}

int
sh_ids_next(const char **p, size_t *len, const char **id, size_t *idlen)
{
	const char *nl;

	if (*len == 0 || (nl = memchr(*p, '\n', *len)) == NULL)
		return 0;
	*id = *p;
	*idlen = (size_t)(nl - *p);
	*len -= *idlen + 1;
	*p = nl + 1;
	return 1;
}

/* Table t: prefixes in order and agreeing with the directory; every
 * entry a fingerprint of table 0, the sum of their hashes sum0.  A lean
 * table's entries: references in ascending order within a bucket, and
 * tags those of the fingerprints they refer to. */
static int
verify_table(struct sh_seg *s, int t, uint64_t sum0)
{
	uint64_t p, lo, hi, i, v, fp, pos, prev, sum = 0;
	const unsigned char *ent = s->body + entries(s, t);
	int e;

	for (p = 0, i = 0; p < (uint64_t)1 << s->dirbits; p++) {
		if ((e = bucket(s, t, p, &lo, &hi)) != 0)
			return e;
		if (lo != i)
			return SH_ECORRUPT;
		for (prev = 0; i < hi; i++) {
			if (s->lean && t > 0) {
				if ((e = reference(s, t, i, &pos)) != 0)
					return e;
				if (i > lo && pos <= prev)
					return SH_ECORRUPT;
				prev = pos;
				fp = rd64(s->body + s->tables + 8 * pos);
				v = sh_plan_perm(&s->plan, t, fp);
				if (ent[i] != (unsigned char)(v >>
				    (56 - s->dirbits)))
					return SH_ECORRUPT;
			} else {
				v = rd64(ent + 8 * i);
				fp = sh_plan_unperm(&s->plan, t, v);
				if (locate(s, fp, &pos) != 0)
					return SH_ECORRUPT;
			}
			if (prefix(v, s->dirbits) != p)
				return SH_ECORRUPT;
			sum += sh_hash64(&fp, 8, 0);
		}
	}
	return i == s->nfp && sum == sum0 ? 0 : SH_ECORRUPT;
}

int
sh_seg_verify(struct sh_seg *s)
{
	uint64_t i, a, nl = 0, fp, prev = 0, sum = 0;
	const char *p;
	size_t len, j;
	int t, e;

	sh_seg_advise(s, 1);
	e = sh_seg_need(s, 0, s->bodylen);
	sh_seg_advise(s, 0);
	if (e != 0)
		return e;
	if (s->bands > 0)
		return sh_bandseg_verify(s);
	/* Table 0 ascending; the others hold the same fingerprints. */
	for (i = 0; i < s->nfp; i++) {
		fp = rd64(s->body + s->tables + 8 * i);
		if (i > 0 && fp <= prev)
			return SH_ECORRUPT;
		sum += sh_hash64(&fp, 8, 0);
		prev = fp;
	}
	for (t = 0; t < s->plan.ntables; t++)
		if ((e = verify_table(s, t, sum)) != 0)
			return e;
	if (sh_seg_idstart(s, 0, &a) != 0 || a != 0 ||
	    sh_seg_idstart(s, s->nfp, &a) != 0 || a != s->idbytes)
		return SH_ECORRUPT;
	for (i = 0; i < s->nfp; i++) {
		if ((e = sh_seg_ids(s, i, &p, &len)) != 0)
			return e;
		for (j = 0; j < len; j++)
			nl += p[j] == '\n';
	}
	return nl == s->nid ? 0 : SH_ECORRUPT;
}

double
sh_seg_candidates(const struct sh_seg *s, int k)
{
	return s->plan.ntables * sh_plan_probes(s->dirbits,
	    sh_plan_radius(&s->plan, k)) * ((double)s->nfp / ((uint64_t)1 <<
	    s->dirbits));
}

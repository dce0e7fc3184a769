/*
 * Fuzz target: index segments (index/segment.h) read through an index
 * directory (index/index.h).  The input is a segment file: it is put in
 * a directory beside a MANIFEST naming it (with the counts its header
 * gives, so that the segment itself is what is tested), opened, checked
 * (sh_index_verify), dumped (sh_index_next) and searched.  A segment
 * that verifies must dump its nfp fingerprints in ascending order with
 * nid IDs, and answer every search exactly as a scan of its entries
 * does; one that does not may fail with SH_ECORRUPT, never crash.
 *
 * The custom mutator knows the layout (sh-index(5)): it mutates a
 * section of the body, a header field or the entries themselves (a
 * segment written anew with sh_seg_write, with other fingerprints, IDs
 * or plan), and recomputes the chunk checksums and the header's, so that
 * mutants get past them to the structure behind.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/hash.h"
#include "index/index.h"
#include "index/segment.h"
#include "near/plan.h"
#include "util.h"

#define HDR 128
#define CH SH_SEG_CHUNK
#define PROBE_MAX 100000	/* buckets a query may probe */

enum {
	H_MAGIC, H_VERSION, H_K, H_BLOCKS, H_KEY, H_TABLES, H_DIRBITS, H_NFP,
	H_NID, H_IDBYTES, H_BODYLEN, H_CHUNK, H_NCHUNKS, H_SUMS, H_RESERVED,
	H_SELF
};

static uint64_t
rd64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The MANIFEST of a lone segment "seg-000001" of nfp and nid entries;
 * with band, the header fields of a band segment from its threshold on
 * (threshold, bands, rows), an index of band tables. */
static size_t
manifest(char *buf, size_t cap, int k, uint64_t nfp, uint64_t nid,
    const uint8_t *band)
{
	char hex[SH_HEX_LEN];
	int n;

	if (band != NULL)
		n = snprintf(buf, cap, "sh-index 3\nbands %llu %llu %llu shard "
		    "0 1 next 2\nseg-000001 %llu %llu\nend ",
		    (unsigned long long)rd64(band),
		    (unsigned long long)rd64(band + 8),
		    (unsigned long long)rd64(band + 16),
		    (unsigned long long)nfp, (unsigned long long)nid);
	else
		n = snprintf(buf, cap, "sh-index 1\nk %d plan 0 0 shard 0 1 "
		    "next 2\nseg-000001 %llu %llu\nend ", k,
		    (unsigned long long)nfp, (unsigned long long)nid);
	if (n < 0 || (size_t)n + SH_HEX_LEN + 1 > cap)
		n = snprintf(buf, cap, "sh-index 1\nend ");
	sh_hex_format(sh_hash64(buf, (size_t)n - 4, 0), hex);
	memcpy(buf + n, hex, SH_HEX_LEN);
	buf[n + SH_HEX_LEN] = '\n';
	return (size_t)n + SH_HEX_LEN + 1;
}

static int
cmp_hit(const void *a, const void *b)
{
	const struct sh_hit *x = a, *y = b;

	if (x->dist != y->dist)
		return x->dist < y->dist ? -1 : 1;
	return (x->fp > y->fp) - (x->fp < y->fp);
}

/* sh_index_search_each: query 0's hits must be those of the search
 * alone (ctx), in the same order, where the segment verified (ctx NULL
 * where it did not: anything but a crash goes). */
static int
first_agrees(void *ctx, size_t i, const struct sh_hits *h)
{
	const struct sh_hits *one = ctx;
	size_t j;

	if (i > 0 || one == NULL)
		return 0;
	FZ_CHECK(h->n == one->n);
	for (j = 0; j < h->n; j++)
		FZ_CHECK(h->v[j].fp == one->v[j].fp &&
		    h->v[j].pos == one->v[j].pos &&
		    h->v[j].dist == one->v[j].dist);
	return 0;
}

/* Search ix for q within k; with all of its entries fp[0..n) known
 * (the segment verified), the hits must be exactly those of a scan. */
static void
query(struct sh_index *ix, sh_fpval q, int k, const sh_fpval *fp,
    size_t n, int valid, struct sh_hits *want)
{
	struct sh_hits h = { 0 }, all = { 0 };
	struct sh_seg *s = &ix->seg[0];
	char where[SH_WHERE];
	const char *ids;
	sh_fpval v, batch[2] = { q, q ^ 1 };
	size_t i, len;
	int e, d;

	if (s->plan.ntables * sh_plan_probes(s->dirbits,
	    sh_plan_radius(&s->plan, k)) > PROBE_MAX)
		return;
	/* Queries of either parity: the fastest scan, or the portable. */
	sh_seg_vector((int)(q & 1));
	e = sh_index_search(ix, q, k, &h, where);
	FZ_CHECK(e == 0 || (!valid && e == SH_ECORRUPT));
	/* In a batch, q answers alike. */
	if (e == 0) {
		e = sh_index_search_each(ix, batch, 2, k, &all, first_agrees,
		    valid ? &h : NULL, where);
		FZ_CHECK(e == 0 || (!valid && e == SH_ECORRUPT));
	}
	sh_seg_vector(1);
	free(all.v);
	for (i = 0; i < h.n; i++) {
		e = sh_index_ids(ix, &h.v[i], &ids, &len, where);
		FZ_CHECK(e == 0 || (!valid && e == SH_ECORRUPT));
	}
	if (valid) {
		want->n = 0;
		for (i = 0; i < n; i++)
			if ((d = sh_hamming(fp[i], q)) <= k) {
				want->v[want->n].fp = fp[i];
				want->v[want->n].dist = d;
				want->v[want->n++].pos = i;
			}
		qsort(want->v, want->n, sizeof(*want->v), cmp_hit);
		FZ_CHECK(h.n == want->n);
		for (i = 0; i < h.n; i++) {
			FZ_CHECK(h.v[i].fp == want->v[i].fp &&
			    h.v[i].dist == want->v[i].dist &&
			    h.v[i].pos == want->v[i].pos && h.v[i].seg == 0);
			FZ_CHECK(sh_seg_fp(s, h.v[i].pos, &v) == 0 &&
			    v == h.v[i].fp);
		}
	}
	free(h.v);
}

/*
 * The location of each entry of band segment s (the first 4096), read
 * twice: the second read, from the file table then copied, gives the
 * same.  Where s verified (valid), none is corrupt, and each of version
 * 3 is none; a location read is of a path of the file table, not empty,
 * of a record of some bytes.  Anything read from a damaged segment may
 * be SH_ECORRUPT, never a crash.
 */
static void
locations(struct sh_seg *s, int valid)
{
	struct sh_segloc l, again;
	uint64_t i;
	int e;

	for (i = 0; i < s->nfp && i < 4096; i++) {
		e = sh_seg_loc(s, i, &l);
		FZ_CHECK(e == 0 || e == 1 || e == SH_ENOMEM ||
		    (!valid && e == SH_ECORRUPT));
		if (e == SH_ENOMEM || e == SH_ECORRUPT)
			continue;
		if (e == 0) {
			FZ_CHECK(l.path == NULL);
			continue;
		}
		FZ_CHECK(s->files != 0 && s->nfile > 0);
		FZ_CHECK(l.path != NULL && *l.path != '\0');
		FZ_CHECK(l.path >= s->filetab &&
		    l.path < s->filetab + s->filebytes);
		FZ_CHECK(l.size > 0 && l.off + l.size > l.off);
		fz_keep(l.mode + l.coff + l.skip + l.line);
		FZ_CHECK(sh_seg_loc(s, i, &again) == 1 &&
		    again.path == l.path && again.mode == l.mode &&
		    again.off == l.off && again.size == l.size &&
		    again.coff == l.coff && again.skip == l.skip &&
		    again.line == l.line);
	}
	if (valid && s->files == 0)
		FZ_CHECK(s->nfile == 0 && s->filetab == NULL);
}

/* The segment of ix, verified or not: dump it, then search it. */
static void
exercise(struct sh_index *ix, const uint8_t *data, size_t size)
{
	struct sh_ixcursor c = { 0, 0 };
	struct sh_ixstats st;
	struct sh_segstat ss;
	struct sh_hits want = { 0 };
	struct sh_seg *s = &ix->seg[0];
	char where[SH_WHERE];
	const char *ids, *id;
	sh_fpval *fp, v, q;
	size_t n = 0, len, idlen;
	uint64_t nid = 0, h = sh_hash64(data, size, 0);
	int valid, e, j, ks[4];

	sh_index_stats(ix, &st);
	FZ_CHECK(st.nseg == 1 && st.nfp == s->nfp && st.nid == s->nid);
	/* Band tables (version 3, or 4 with locations): checked and their
	 * locations read, not searched by distance
	 * (tests/unit/bandix_test.c searches them). */
	if (s->bands > 0) {
		e = sh_index_verify(ix, where);
		FZ_CHECK(e == 0 || e == SH_ECORRUPT);
		locations(s, e == 0);
		FZ_CHECK(sh_index_search(ix, 0, 0, &want, where) == SH_EKIND);
		return;
	}
	FZ_CHECK(sh_index_segstat(ix, 0, &ss) == 0);
	FZ_CHECK(sh_index_segstat(ix, 1, &ss) == SH_ERANGE);
	e = sh_index_verify(ix, where);
	FZ_CHECK(e == 0 || e == SH_ECORRUPT);
	valid = e == 0;
	/* The file holds 8 bytes an entry at least. */
	FZ_CHECK(s->nfp <= size / 8);
	if ((fp = malloc((size_t)s->nfp * sizeof(*fp) + 1)) == NULL ||
	    (want.v = malloc((size_t)s->nfp * sizeof(*want.v) + 1)) == NULL)
		abort();
	while ((e = sh_index_next(ix, &c, &v, &ids, &len, where)) == 1) {
		FZ_CHECK(n < s->nfp && len > 0 && ids[len - 1] == '\n');
		FZ_CHECK(n == 0 || v > fp[n - 1] || !valid);
		fp[n++] = v;
		while (sh_ids_next(&ids, &len, &id, &idlen) == 1)
			nid++;
		FZ_CHECK(len == 0);
	}
	FZ_CHECK(e == 0 || (!valid && e == SH_ECORRUPT));
	if (valid)
		FZ_CHECK(n == s->nfp && nid == s->nid);
	/* Queries at entries, next to them and anywhere; at distance 0,
	 * the plan's and beyond it. */
	ks[0] = 0;
	ks[1] = s->plan.k;
	ks[2] = s->plan.k + 1;
	ks[3] = s->plan.k + 3;
	for (j = 0; j < 8; j++) {
		q = n > 0 ? fp[(h >> 8 * j) % n] : h;
		if (j & 1)
			q ^= (sh_fpval)1 << (h >> 6 * j & 63);
		if (j & 2)
			q ^= (sh_fpval)1 << (h >> (6 * j + 3) & 63);
		if (j == 7)
			q = h;
		query(ix, q, ks[j % 4], fp, n, valid, &want);
	}
	free(want.v);
	free(fp);
}

/* IDs that segments written by the mutator and the seeds hold. */
static const char *const del_ids[] = { "new", "p", "x", "d0", "d1", "d8", "i0",
    "i1", "b0", "n1" };

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_index ix;
	char where[SH_WHERE], m[256];
	uint64_t nfp = 0, nid = 0, k = 0;
	size_t mlen;
	int e;

	if (size >= HDR) {
		k = rd64(data + 8 * H_K);
		nfp = rd64(data + 8 * H_NFP);
		nid = rd64(data + 8 * H_NID);
	}
	mlen = manifest(m, sizeof(m), k <= SH_PLAN_KMAX ? (int)k : 0, nfp,
	    nid, size >= HDR && (rd64(data + 8 * H_VERSION) ==
	    SH_SEG_VERSION_BANDS || rd64(data + 8 * H_VERSION) ==
	    SH_SEG_VERSION_LOCS) ? data + 8 * H_K : NULL);
	fz_file("seg-000001", data, size);
	fz_file("MANIFEST", m, mlen);
	e = sh_index_open(&ix, fz_dir(), where);
	/* Inputs of odd size are searched in a copy in memory (sh-near
	 * -K); the file has not changed, so the load cannot fail on it. */
	if (e == 0 && size % 2 == 1) {
		e = sh_index_load(&ix, where);
		FZ_CHECK(e == 0 || e == SH_ENOMEM);
		e = 0;		/* SH_ENOMEM leaves it mapped */
	}
	/* The segment is mapped or copied: its file is no longer needed. */
	fz_unlink("seg-000001");
	fz_unlink("MANIFEST");
	if (e != 0) {
		FZ_CHECK(e == SH_EMAGIC || e == SH_EVERSION || e == SH_ETRUNC ||
		    e == SH_ECORRUPT || e == SH_ENOMEM);
		return 0;
	}
	FZ_CHECK(ix.nseg == 1 && ix.seg[0].nfp == nfp);
	exercise(&ix, data, size);
	sh_index_close(&ix);
	/* The writers' paths too: a delete (some of the mutator's IDs),
	 * a merge that reads it all back, an expire; on a band segment,
	 * the merge of its tables with its deletions. */
	fz_file("seg-000001", data, size);
	fz_file("MANIFEST", m, mlen);
	fz_writers(del_ids, sizeof(del_ids) / sizeof(del_ids[0]));
	return 0;
}

#ifdef SH_LIBFUZZER
/* The structure-aware mutator: libFuzzer only. */

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
    unsigned seed);

static const unsigned char magic[8] = "\x89SHX\r\n\x1a\n";
static uint64_t rng;

static void
put64(uint8_t *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> 8 * i);
}

static uint64_t
rnd(uint64_t n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? rng % n : rng;
}

/* Section sizes, as segment.c has them; 0 when they overflow. */
static uint64_t
layout(uint64_t ntables, uint64_t d, uint64_t nfp, uint64_t idbytes,
    int lean, uint64_t off[4])
{
	uint64_t dirs, tab, ido;

	if (d > 30 || ntables > SH_PLAN_TMAX || ntables < 1 ||
	    nfp >= (uint64_t)1 << 32 || idbytes >= (uint64_t)1 << 56)
		return 0;
	dirs = ntables * (((uint64_t)1 << d) + 1) * 4;
	tab = lean ? nfp * 8 + (ntables - 1) * nfp * 5 : ntables * nfp * 8;
	ido = lean ? (nfp / SH_SEG_IDGROUP + 1) * 8 + (nfp + 1) * 4 :
	    (nfp + 1) * 8;
	off[0] = 0;
	off[1] = (tab + 7) / 8 * 8;
	off[2] = off[1] + (dirs + 7) / 8 * 8;
	off[3] = off[2] + (ido + 7) / 8 * 8;
	return (off[3] + idbytes + 7) / 8 * 8;
}

/* Whether image p (a header at least) is of a lean segment. */
static int
lean(const uint8_t *p)
{
	return rd64(p + 8 * H_VERSION) == SH_SEG_VERSION_LEAN;
}

/* Where the IDs of entry i start, read from the ID offsets at p. */
static uint64_t
idstart(const uint8_t *p, int lean, uint64_t nfp, uint64_t i)
{
	if (!lean)
		return rd64(p + 8 * i);
	return rd64(p + 8 * (i / SH_SEG_IDGROUP)) + (rd64(p + 8 *
	    (nfp / SH_SEG_IDGROUP + 1) + 4 * i) & 0xffffffff);
}

/* Make the checksums agree with the bytes: the chunks' when the header's
 * sizes fit the file, then the checksum section's, then the header's. */
static void
fix_sums(uint8_t *p, size_t size)
{
	uint64_t bodylen, nchunks, c, n;
	uint8_t *sums;

	if (size < HDR)
		return;
	bodylen = rd64(p + 8 * H_BODYLEN);
	nchunks = rd64(p + 8 * H_NCHUNKS);
	if (bodylen <= size && nchunks <= size / 8 &&
	    HDR + bodylen + 8 * nchunks == size &&
	    nchunks == (bodylen + CH - 1) / CH) {
		sums = p + HDR + bodylen;
		for (c = 0; c < nchunks; c++) {
			n = c == nchunks - 1 ? bodylen - c * CH : CH;
			put64(sums + 8 * c, sh_hash64(p + HDR + c * CH,
			    (size_t)n, 0));
		}
		put64(p + 8 * H_SUMS, sh_hash64(sums, (size_t)nchunks * 8, 0));
	}
	put64(p + 8 * H_SELF, sh_hash64(p, 8 * H_SELF, 0));
}

/* Resize the file to the layout its header gives, fixing the derived
 * fields; return the new size, or 0 when it does not fit max. */
static size_t
fit_layout(uint8_t *p, size_t size, size_t max)
{
	static struct sh_plan plan;
	uint64_t off[4], bodylen, nchunks, need;
	uint64_t b = rd64(p + 8 * H_BLOCKS), r = rd64(p + 8 * H_KEY);

	if (b > SH_PLAN_BMAX || r > b ||
	    sh_plan_blocks(&plan, (int)b, (int)r) != 0)
		return 0;
	put64(p + 8 * H_TABLES, (uint64_t)plan.ntables);
	if ((bodylen = layout((uint64_t)plan.ntables, rd64(p + 8 * H_DIRBITS),
	    rd64(p + 8 * H_NFP), rd64(p + 8 * H_IDBYTES), lean(p), off)) == 0)
		return 0;
	nchunks = (bodylen + CH - 1) / CH;
	need = HDR + bodylen + 8 * nchunks;
	if (need > max)
		return 0;
	if (need > size)
		memset(p + size, 0, (size_t)(need - size));
	put64(p + 8 * H_BODYLEN, bodylen);
	put64(p + 8 * H_NCHUNKS, nchunks);
	put64(p + 8 * H_CHUNK, CH);
	return (size_t)need;
}

/* The entries of a segment being rewritten. */
struct ent {
	sh_fpval fp;
	char *ids;	/* each ID ending in '\n'; malloc'd */
	size_t len;
};

struct ents {
	struct ent *v;
	size_t n, cap;
};

static void
ents_add(struct ents *e, sh_fpval fp, const char *ids, size_t len)
{
	struct ent *nv;
	char *c;

	if (e->n == e->cap) {
		e->cap = e->cap ? 2 * e->cap : 16;
		if ((nv = realloc(e->v, e->cap * sizeof(*nv))) == NULL)
			abort();
		e->v = nv;
	}
	/* A list that does not end in a newline gets one. */
	if ((c = malloc(len + 1)) == NULL)
		abort();
	memcpy(c, ids, len);
	if (len == 0 || c[len - 1] != '\n')
		c[len++] = '\n';
	e->v[e->n].fp = fp;
	e->v[e->n].ids = c;
	e->v[e->n++].len = len;
}

static void
ents_free(struct ents *e)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].ids);
	free(e->v);
}

static int
cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return (x->fp > y->fp) - (x->fp < y->fp);
}

/* The entries of image p[0..size) as far as they can be read; bytes that
 * are no segment give fingerprints of their own. */
static void
decode(const uint8_t *p, size_t size, struct ents *e)
{
	uint64_t nfp, idbytes, off[4], bodylen, i, a, b, ntab;
	const uint8_t *body = p + HDR, *ids;
	char name[32];
	int n;

	if (size >= HDR && memcmp(p, magic, 8) == 0) {
		nfp = rd64(p + 8 * H_NFP);
		idbytes = rd64(p + 8 * H_IDBYTES);
		ntab = rd64(p + 8 * H_TABLES);
		bodylen = layout(ntab, rd64(p + 8 * H_DIRBITS), nfp, idbytes,
		    lean(p), off);
		if (bodylen != 0 && bodylen <= size - HDR) {
			ids = body + off[3];
			for (i = 0; i < nfp && i < 4096; i++) {
				a = idstart(body + off[2], lean(p), nfp, i);
				b = idstart(body + off[2], lean(p), nfp, i + 1);
				if (a < b && b <= idbytes)
					ents_add(e, rd64(body + 8 * i),
					    (const char *)ids + a, b - a);
				else
					ents_add(e, rd64(body + 8 * i), "x", 1);
			}
			return;
		}
	}
	for (i = 0; i + 8 <= size && i < 8 * 64; i += 8) {
		n = snprintf(name, sizeof(name), "d%llu",
		    (unsigned long long)i);
		ents_add(e, rd64(p + i), name, (size_t)n);
	}
}

/* Change the entries: fingerprints added, near others or not, changed
 * or dropped; IDs added or mutated.  rnd(0) is any 64-bit value. */
static void
mutate_ents(struct ents *e, size_t max)
{
	char buf[512], name[32];
	struct ent *x;
	sh_fpval fp;
	size_t len;
	int i, n = 1 + (int)rnd(3), j, bits, m;

	for (i = 0; i < n; i++) {
		x = e->n ? &e->v[rnd(e->n)] : NULL;
		switch (rnd(8)) {
		case 0:
			fp = rnd(0);
			ents_add(e, fp, "new", 3);
			break;
		case 1:
		case 2:
			/* A neighbour: within reach of a search. */
			fp = x ? x->fp : rnd(0);
			for (bits = 1 + (int)rnd(6), j = 0; j < bits; j++)
				fp ^= (sh_fpval)1 << rnd(64);
			m = snprintf(name, sizeof(name), "n%llu",
			    (unsigned long long)rnd(1000));
			ents_add(e, fp, name, (size_t)m);
			break;
		case 3:
			/* Many with one prefix: a long bucket. */
			fp = x ? x->fp : rnd(0);
			for (j = 0; j < 8; j++)
				ents_add(e, fp ^ rnd(256), "p", 1);
			break;
		case 4:
			if (x != NULL) {
				free(x->ids);
				*x = e->v[--e->n];
			}
			break;
		case 5:
			if (x != NULL)
				x->fp ^= (sh_fpval)1 << rnd(64);
			break;
		case 6:
			if (x != NULL && x->len < sizeof(buf)) {
				memcpy(buf, x->ids, x->len);
				len = LLVMFuzzerMutate((uint8_t *)buf, x->len,
				    sizeof(buf) - 1);
				free(x->ids);
				x->ids = NULL;
				fp = x->fp;
				*x = e->v[--e->n];
				ents_add(e, fp, buf, len);
			}
			break;
		default:
			if (x != NULL && x->len + 16 < max) {
				fp = x->fp;
				len = x->len;
				memcpy(buf, x->ids, len < 256 ? len : 256);
				len = len < 256 ? len : 256;
				memcpy(buf + len, "again\n", 6);
				free(x->ids);
				*x = e->v[--e->n];
				ents_add(e, fp, buf, len + 6);
			}
			break;
		}
	}
}

/* Write the entries anew as a segment into p (room for max); return its
 * size, or 0. */
static size_t
rewrite(uint8_t *p, size_t size, size_t max)
{
	static struct sh_plan plan;
	static uint64_t pb, pr;	/* its blocks and key blocks */
	struct ents e = { 0 };
	struct sh_segdata sd;
	sh_fpval *fp = NULL;
	uint64_t *idoff = NULL, b = 0, r = 0, k = 3, i, j;
	char *ids = NULL, path[4200];
	size_t n = 0, len = 0, out = 0;
	ssize_t got;
	int fd = -1, ok, thin = 0;

	decode(p, size, &e);
	mutate_ents(&e, max);
	if (size >= HDR && memcmp(p, magic, 8) == 0) {
		b = rd64(p + 8 * H_BLOCKS);
		r = rd64(p + 8 * H_KEY);
		k = rd64(p + 8 * H_K);
		thin = lean(p);
	}
	if (rnd(4) == 0) {
		b = 1 + rnd(SH_PLAN_BMAX);
		r = 1 + rnd(b);
		k = rnd(SH_PLAN_KMAX + 1);
		thin = (int)rnd(2);
	}
	if (k > SH_PLAN_KMAX)
		k = 3;
	if (e.n > 0)
		qsort(e.v, e.n, sizeof(*e.v), cmp_ent);
	if ((fp = malloc((e.n + 1) * sizeof(*fp))) == NULL ||
	    (idoff = malloc((e.n + 1) * sizeof(*idoff))) == NULL)
		abort();
	/* Distinct fingerprints: the IDs of a repeated one are merged. */
	for (i = 0; i < e.n; i++)
		len += e.v[i].len;
	if ((ids = malloc(len + 1)) == NULL)
		abort();
	len = 0;
	for (i = 0; i < e.n; i = j) {
		fp[n] = e.v[i].fp;
		idoff[n++] = len;
		for (j = i; j < e.n && e.v[j].fp == e.v[i].fp; j++) {
			memcpy(ids + len, e.v[j].ids, e.v[j].len);
			len += e.v[j].len;
		}
	}
	idoff[n] = len;
	sd.fp = fp;
	sd.idoff = idoff;
	sd.ids = ids;
	sd.nfp = n;
	for (sd.nid = 0, i = 0; i < len; i++)
		sd.nid += ids[i] == '\n';
	/* sh_plan_blocks walks 2^b block sets: keep the last plan made. */
	ok = pb != 0 && b == pb && r == pr;
	if (!ok && b >= 1 && b <= SH_PLAN_BMAX && r >= 1 && r <= b &&
	    sh_plan_blocks(&plan, (int)b, (int)r) == 0 &&
	    plan.ntables <= 64) {
		pb = b;
		pr = r;
		ok = 1;
	}
	while (!ok) {
		b = 1 + rnd(8);
		r = 1 + rnd(b);
		ok = sh_plan_blocks(&plan, (int)b, (int)r) == 0 &&
		    plan.ntables <= 64;
		pb = ok ? b : 0;
		pr = r;
	}
	plan.k = (int)k;
	snprintf(path, sizeof(path), "%s/mutant", fz_dir());
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0)
		abort();
	unlink(path);
	if (sh_seg_write(fd, &plan, thin, &sd, 0, NULL) == 0 &&
	    lseek(fd, 0, SEEK_END) <= (off_t)max && lseek(fd, 0, SEEK_SET) == 0)
		while (out < max && (got = read(fd, p + out, max - out)) > 0)
			out += (size_t)got;
	close(fd);
	free(ids);
	free(idoff);
	free(fp);
	ents_free(&e);
	return out;
}

/* A field of the header changed, the file fitted to it or not. */
static size_t
mutate_header(uint8_t *p, size_t size, size_t max)
{
	static const int field[] = {
		H_VERSION, H_K, H_BLOCKS, H_KEY, H_TABLES, H_DIRBITS, H_NFP,
		H_NID, H_IDBYTES, H_BODYLEN, H_CHUNK, H_NCHUNKS, H_RESERVED
	};
	int f = field[rnd(sizeof(field) / sizeof(field[0]))];
	uint64_t v = rd64(p + 8 * f);
	size_t n;

	switch (rnd(4)) {
	case 0:
		v++;
		break;
	case 1:
		v--;
		break;
	case 2:
		v = rnd(33);
		break;
	default:
		v = (uint64_t)1 << rnd(64);
		break;
	}
	put64(p + 8 * f, v);
	if (rnd(2) && (n = fit_layout(p, size, max)) != 0)
		size = n;
	return size;
}

/* Bytes of one section of the body mutated in place, its size kept. */
static void
mutate_body(uint8_t *p, size_t size)
{
	uint64_t off[5], bodylen, at, len, ntab;
	uint8_t *body = p + HDR;
	size_t got;
	int s;

	ntab = rd64(p + 8 * H_TABLES);
	bodylen = layout(ntab, rd64(p + 8 * H_DIRBITS), rd64(p + 8 * H_NFP),
	    rd64(p + 8 * H_IDBYTES), lean(p), off);
	if (bodylen == 0 || bodylen > size - HDR) {
		/* No layout: the body is one section. */
		bodylen = size - HDR;
		memset(off, 0, sizeof(off));
	}
	off[4] = bodylen;
	s = (int)rnd(4);
	at = off[s];
	len = off[s + 1] - at;
	if (len == 0) {
		at = 0;
		len = bodylen;
	}
	if (len == 0)
		return;
	switch (rnd(3)) {
	case 0:
		body[at + rnd(len)] ^= (uint8_t)(1 << rnd(8));
		break;
	case 1:
		/* One 4- or 8-byte value off by one: an offset, a count. */
		if (len >= 8) {
			at += rnd(len - 7) & ~(uint64_t)3;
			put64(body + at, rd64(body + at) + (rnd(2) ? 1 : -1));
		}
		break;
	default:
		got = LLVMFuzzerMutate(body + at, (size_t)len, (size_t)len);
		(void)got;	/* a shorter result leaves the tail as it was */
		break;
	}
}

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
    unsigned seed)
{
	size_t n;

	rng = (uint64_t)seed * 0x9E3779B97F4A7C15ULL | 1;
	if (size < HDR || memcmp(data, magic, 8) != 0) {
		if (rnd(2) == 0 && (n = rewrite(data, size, max)) != 0)
			return n;
		return LLVMFuzzerMutate(data, size, max);
	}
	switch (rnd(10)) {
	case 0:
	case 1:
	case 2:
		if ((n = rewrite(data, size, max)) != 0)
			return n;
		return LLVMFuzzerMutate(data, size, max);
	case 3:
	case 4:
		size = mutate_header(data, size, max);
		break;
	case 5:
	case 6:
	case 7:
	case 8:
		if (size > HDR)
			mutate_body(data, size);
		break;
	default:
		/* Bytes anywhere, checksums left wrong half the time. */
		size = LLVMFuzzerMutate(data, size, max);
		if (rnd(2))
			return size;
		break;
	}
	fix_sums(data, size);
	return size;
}
#endif

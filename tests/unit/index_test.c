/*
 * Index segments against brute force: the probe radius of every plan,
 * permutations, and searches at every distance 0..10 in segments of
 * random, planted and adversarial sets, with chosen and forced plans;
 * each segment written, reopened and verified.  Then an index of three
 * segments, written and read back through the statistics, the entries
 * and the verification of the reader.
 */
#include <sys/mman.h>
#include <sys/stat.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/hash.h"
#include "index/index.h"
#include "index/segment.h"
#include "index/writer.h"
#include "near/fplist.h"
#include "near/plan.h"
#include "fpsets.h"
#include "rmdir.h"
#include "tap.h"

#define N 2000
#define NQ 150

/* Largest sum of the r smallest of b counts summing to k, by search. */
static int
worst(int b, int r, int k, int *d, int i)
{
	int v, best = 0, s, j, m, tmp[SH_PLAN_BMAX];

	if (i == b - 1) {
		d[i] = k;
		memcpy(tmp, d, (size_t)b * sizeof(*d));
		for (j = 0; j < b; j++)		/* sort, small b */
			for (m = j + 1; m < b; m++)
				if (tmp[m] < tmp[j]) {
					v = tmp[j];
					tmp[j] = tmp[m];
					tmp[m] = v;
				}
		for (j = 0, s = 0; j < r; j++)
			s += tmp[j];
		return s;
	}
	for (v = 0; v <= k; v++) {
		d[i] = v;
		if ((s = worst(b, r, k - v, d, i + 1)) > best)
			best = s;
	}
	return best;
}

static int
cmp64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Sort and drop repeats; return the new count. */
static size_t
uniq(uint64_t *v, size_t n)
{
	size_t i, m = 0;

	qsort(v, n, sizeof(*v), cmp64);
	for (i = 0; i < n; i++)
		if (m == 0 || v[i] != v[m - 1])
			v[m++] = v[i];
	return m;
}

/* Segment data of fp[0..n) (sorted, distinct) into *d, IDs "iN\n". */
static void
segdata(const uint64_t *fp, size_t n, struct sh_segdata *d)
{
	static uint64_t idoff[N + 1];
	static char ids[N * 8];
	size_t i, len = 0;

	for (i = 0; i < n; i++) {
		idoff[i] = len;
		len += (size_t)sprintf(ids + len, "i%zu\n", i);
	}
	idoff[n] = len;
	d->fp = fp;
	d->idoff = idoff;
	d->ids = ids;
	d->nfp = n;
	d->nid = n;
}

/* sh_seg_write of d into the file at path, made anew. */
static int
write_segment(const char *path, const struct sh_plan *plan, int lean,
    const struct sh_segdata *d, size_t budget)
{
	FILE *f;
	int e;

	if ((f = fopen(path, "w+")) == NULL)
		return -100;
	e = sh_seg_write(fileno(f), plan, lean, d, budget, NULL);
	fclose(f);
	return e;
}

/* Write a segment of fp[0..n) (sorted, distinct) with plan to path, IDs
 * "iN\n", and open it into *s.  Return 0 or an error. */
static int
make_segment(const char *path, const struct sh_plan *plan, int lean,
    const uint64_t *fp, size_t n, struct sh_seg *s)
{
	struct sh_segdata d;
	int e;

	segdata(fp, n, &d);
	e = write_segment(path, plan, lean, &d, 0);
	return e ? e : sh_seg_open(s, path, 0);
}

/* Put v at byte p of a file, little-endian, or read it back. */
static void
put_at(FILE *f, long p, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> 8 * i);
	fseek(f, p, SEEK_SET);
	fwrite(b, 1, 8, f);
	fflush(f);
}

static uint64_t
get_at(FILE *f, long p)
{
	unsigned char b[8] = { 0 };
	uint64_t v = 0;
	int i;

	fseek(f, p, SEEK_SET);
	if (fread(b, 1, 8, f) != 8)
		return 0;
	for (i = 7; i >= 0; i--)
		v = v << 8 | b[i];
	return v;
}

/* Rehash what a forger rehashes: the chunk holding body byte off, the
 * checksum section, then the header (sh-index(5)). */
static void
reseal(FILE *f, uint64_t bodylen, uint64_t nchunks, uint64_t off)
{
	static unsigned char buf[SH_SEG_CHUNK], sums[1 << 16], hdr[128];
	uint64_t c = off / SH_SEG_CHUNK, n;
	long sumsat = (long)(128 + bodylen);

	n = c == nchunks - 1 ? bodylen - c * SH_SEG_CHUNK : SH_SEG_CHUNK;
	fseek(f, (long)(128 + c * SH_SEG_CHUNK), SEEK_SET);
	if (fread(buf, 1, (size_t)n, f) != n)
		return;
	put_at(f, sumsat + (long)(8 * c), sh_hash64(buf, (size_t)n, 0));
	fseek(f, sumsat, SEEK_SET);
	if (fread(sums, 1, (size_t)(8 * nchunks), f) != 8 * nchunks)
		return;
	put_at(f, 8 * 13, sh_hash64(sums, (size_t)(8 * nchunks), 0));
	fseek(f, 0, SEEK_SET);
	if (fread(hdr, 1, 128, f) != 128)
		return;
	put_at(f, 8 * 15, sh_hash64(hdr, 120, 0));
}

/*
 * A segment is untrusted input: a forger who recomputes every checksum
 * can still not make a read leave the file.  Each header field set to a
 * lie, and the header resealed, is refused at open; a directory offset
 * or an ID offset pointing past its section, resealed, is SH_ECORRUPT
 * from the search, the IDs and verify.
 */
static void
forged(const char *path, int lean)
{
	static uint64_t fp[N];
	static const struct {
		int field;
		uint64_t delta, value;	/* value when delta is 0 */
		const char *what;
	} lie[] = {
		{ 2, 0, 17, "k above 16" },
		{ 3, 0, 21, "21 blocks" },
		{ 3, 0, 0, "no blocks" },
		{ 4, 1, 0, "one key block more" },
		{ 5, 1, 0, "one table more" },
		{ 6, 0, 31, "31 directory bits" },
		{ 7, 1, 0, "one fingerprint more" },
		{ 7, 0, (uint64_t)1 << 32, "2^32 fingerprints" },
		{ 7, 0, ~(uint64_t)0, "2^64 - 1 fingerprints" },
		{ 8, 0, 1, "fewer IDs than fingerprints" },
		{ 9, 8, 0, "8 ID bytes more" },
		{ 9, 0, (uint64_t)1 << 62, "2^62 ID bytes" },
		{ 10, 4096, 0, "a body 4096 bytes longer" },
		{ 11, 0, 8192, "8192-byte chunks" },
		{ 12, 1, 0, "one chunk more" },
	};
	struct sh_hits h = { 0 };
	struct sh_plan plan;
	struct sh_seg s;
	const char *ids;
	size_t n, i, len;
	uint64_t v, dirs, idoff, bodylen, nchunks, refs;
	const char *layout = lean ? "lean" : "full";
	FILE *f;
	int bad = 0, e;

	make_set(fp, N, 0, 3);
	n = uniq(fp, N);
	if (lean)
		sh_plan_blocks(&plan, 2, 1);
	else
		sh_plan_index(&plan, 3, n);
	plan.k = 3;
	if (make_segment(path, &plan, lean, fp, n, &s) != 0) {
		ok(0, "forged: segment written");
		return;
	}
	dirs = s.dirs;
	/* Where entry 2's ID offset is (a relative one when lean), and
	 * table 1's first reference. */
	idoff = s.idoff + (lean ? (n / SH_SEG_IDGROUP + 1) * 8 + 8 : 16);
	refs = s.tables + 9 * n;
	bodylen = s.bodylen;
	nchunks = s.nchunks;
	sh_seg_close(&s);
	if ((f = fopen(path, "r+")) == NULL) {
		ok(0, "forged: segment reopened");
		sh_seg_close(&s);
		return;
	}
	for (i = 0; i < sizeof(lie) / sizeof(lie[0]); i++) {
		v = get_at(f, 8 * lie[i].field);
		put_at(f, 8 * lie[i].field, lie[i].delta ? v + lie[i].delta :
		    lie[i].value);
		reseal(f, bodylen, nchunks, 0);
		if ((e = sh_seg_open(&s, path, 0)) == 0 ||
		    (e != SH_ECORRUPT && e != SH_ETRUNC)) {
			printf("# header with %s: open gave %d\n",
			    lie[i].what, e);
			bad++;
		}
		if (e == 0)
			sh_seg_close(&s);
		put_at(f, 8 * lie[i].field, v);
		reseal(f, bodylen, nchunks, 0);
	}
	ok(bad == 0, "%s: a header resealed with any of %zu lies is refused "
	    "at open", layout, sizeof(lie) / sizeof(lie[0]));

	/* Bucket 0 of table 0 ending past the table. */
	v = get_at(f, (long)(128 + dirs));
	put_at(f, (long)(128 + dirs), (v & 0xffffffff) | (uint64_t)0xfffffff0 <<
	    32);
	reseal(f, bodylen, nchunks, dirs);
	bad = sh_seg_open(&s, path, 0) != 0;
	bad += !bad && sh_seg_search(&s, 0, 3, 0, &h) != SH_ECORRUPT;
	if (!bad) {
		/* Nor by a batch that reaches it. */
		static size_t start[3];
		sh_fpval bq[2] = { fp[n - 1], 0 };

		h.n = 0;
		bad += sh_seg_search_batch(&s, bq, 2, 3, 0, &h, start) !=
		    SH_ECORRUPT;
		/* Nor once loaded, where a batch reads the directory
		 * without the checks of each read. */
		bad += sh_seg_load(&s) != 0;
		h.n = 0;
		bad += !bad && sh_seg_search_batch(&s, bq, 2, 3, 0, &h,
		    start) != SH_ECORRUPT;
	}
	for (i = 0; !bad && i < n; i += 97) {
		h.n = 0;
		e = sh_seg_search(&s, fp[i], 3, 0, &h);
		bad += e != 0 && e != SH_ECORRUPT;
	}
	bad += !bad && sh_seg_verify(&s) != SH_ECORRUPT;
	ok(bad == 0, "%s: a directory offset past its table, resealed: a "
	    "search reaching it, loaded or not, and verify are SH_ECORRUPT, "
	    "others fail or answer", layout);
	if (!bad)
		sh_seg_close(&s);
	put_at(f, (long)(128 + dirs), v);
	reseal(f, bodylen, nchunks, dirs);

	/* Entry 1's IDs ending past the ID section. */
	v = get_at(f, (long)(128 + idoff));
	put_at(f, (long)(128 + idoff), lean ? (v & ~(uint64_t)0xffffffff) |
	    0xfffffff0 : (uint64_t)1 << 40);
	reseal(f, bodylen, nchunks, idoff);
	bad = sh_seg_open(&s, path, 0) != 0;
	bad += !bad && (sh_seg_ids(&s, 1, &ids, &len) != SH_ECORRUPT ||
	    sh_seg_ids(&s, 2, &ids, &len) != SH_ECORRUPT ||
	    sh_seg_ids(&s, 0, &ids, &len) != 0 ||
	    sh_seg_verify(&s) != SH_ECORRUPT);
	ok(bad == 0, "%s: an ID offset past the ID section, resealed: the "
	    "IDs of both entries it bounds and verify are SH_ECORRUPT",
	    layout);
	if (!bad)
		sh_seg_close(&s);
	put_at(f, (long)(128 + idoff), v);
	reseal(f, bodylen, nchunks, idoff);

	/* A reference of table 1 past table 0: a search reading it
	 * (at k 64, all of them) and verify are SH_ECORRUPT. */
	if (lean) {
		v = get_at(f, (long)(128 + refs));
		put_at(f, (long)(128 + refs), (v & ~(uint64_t)0xffffffff) |
		    0xfffffff0);
		reseal(f, bodylen, nchunks, refs);
		bad = sh_seg_open(&s, path, 0) != 0;
		h.n = 0;
		bad += !bad && (sh_seg_search(&s, 0, 64, 0, &h) !=
		    SH_ECORRUPT || sh_seg_verify(&s) != SH_ECORRUPT);
		ok(bad == 0, "lean: a reference past table 0, resealed: a "
		    "search reading it and verify are SH_ECORRUPT");
		if (!bad)
			sh_seg_close(&s);
	}
	fclose(f);
	free(h.v);
}

/* Whether a batch search of q[0..nq) at k gives each query the hits of
 * its own search, in the same order, tagged with its number. */
static int
batch_agrees(struct sh_seg *s, const uint64_t *q, size_t nq, int k)
{
	static size_t start[NQ + 1];
	struct sh_hits one = { 0 }, all = { 0 };
	size_t i, j;
	int good;

	good = nq <= NQ && sh_seg_search_batch(s, q, nq, k, 0, &all,
	    start) == 0 && start[0] == 0 && start[nq] == all.n;
	for (i = 0; good && i < nq; i++) {
		one.n = 0;
		good = sh_seg_search(s, q[i], k, 0, &one) == 0 &&
		    one.n == start[i + 1] - start[i];
		for (j = 0; good && j < one.n; j++)
			good = one.v[j].fp == all.v[start[i] + j].fp &&
			    one.v[j].pos == all.v[start[i] + j].pos &&
			    one.v[j].dist == all.v[start[i] + j].dist &&
			    all.v[start[i] + j].q == i;
	}
	free(one.v);
	free(all.v);
	return good;
}

/* The bytes of the file at path into buf (room for max); the length. */
static size_t
slurp(const char *path, unsigned char *buf, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return 0;
	n = fread(buf, 1, max, f);
	fclose(f);
	return n;
}

/*
 * A write in a budget of a few entries a pass gives the same bytes as
 * without one: every set (skewed ones make buckets longer than a pass),
 * full and lean, several plans.  Data whose counts or order lie is
 * SH_ECORRUPT.
 */
static void
budgeted(const char *path)
{
	static uint64_t fp[N];
	static unsigned char want[1 << 18], got[1 << 18];
	static const int plans[][3] = {
		{ 4, 1, 0 }, { 5, 2, 0 }, { 2, 1, 1 }, { 4, 1, 1 }, { 5, 2, 1 }
	};
	struct sh_segdata d;
	struct sh_plan plan;
	size_t n = 0, nw, ng;
	uint64_t keep;
	int kind, p, bad = 0;

	for (kind = 0; kind < 4; kind++) {
		make_set(fp, N, kind, 3);
		n = uniq(fp, N);
		segdata(fp, n, &d);
		for (p = 0; p < 5; p++) {
			sh_plan_blocks(&plan, plans[p][0], plans[p][1]);
			plan.k = 3;
			nw = write_segment(path, &plan, plans[p][2], &d, 0) ?
			    0 : slurp(path, want, sizeof(want));
			ng = write_segment(path, &plan, plans[p][2], &d,
			    18 * 37) ? 0 : slurp(path, got, sizeof(got));
			if (nw == 0 || nw == sizeof(want) || ng != nw ||
			    memcmp(want, got, nw) != 0) {
				printf("# set %d plan %d: %zu against %zu bytes\n",
				    kind, p, ng, nw);
				bad++;
			}
		}
	}
	ok(bad == 0, "a write in a budget of 37 entries a pass gives the "
	    "same bytes, full and lean");

	/* One ID more announced than there are; then two entries out of
	 * order. */
	d.nid = n + 1;
	bad = write_segment(path, &plan, 1, &d, 0) != SH_ECORRUPT;
	d.nid = n;
	keep = fp[1];
	fp[1] = fp[0];
	bad += write_segment(path, &plan, 0, &d, 0) != SH_ECORRUPT;
	fp[1] = keep;
	ok(bad == 0, "data that breaks its counts or its order: "
	    "SH_ECORRUPT");
}

/*
 * A lean table whose one bucket holds every entry: they all share their
 * low half, which is table 1's key, and queries differ from them in 2
 * or 3 bits of the top half, so table 1 alone finds them, scanning
 * across many 64-tag blocks.
 */
static void
long_bucket(const char *path)
{
	static uint64_t fp[N];
	struct sh_hits h = { 0 };
	struct sh_plan plan;
	struct sh_seg s;
	uint64_t q;
	size_t n, i, j, nw;
	int v, bad = 0;

	for (i = 0; i < N; i++)
		fp[i] = next() << 32 | 0x89abcdef;
	n = uniq(fp, N);
	sh_plan_blocks(&plan, 2, 1);
	plan.k = 3;
	if (make_segment(path, &plan, 1, fp, n, &s) != 0) {
		ok(0, "long bucket: segment written");
		return;
	}
	for (v = 1; v >= 0; v--) {
		sh_seg_vector(v);
		for (i = 0; i < 100; i++) {
			q = fp[next() % n];
			q ^= (uint64_t)1 << (32 + next() % 32);
			q ^= (uint64_t)1 << (32 + next() % 32);
			if (i % 2)
				q ^= (uint64_t)1 << (32 + next() % 32);
			for (j = 0, nw = 0; j < n; j++)
				nw += sh_hamming(fp[j], q) <= 3;
			h.n = 0;
			bad += sh_seg_search(&s, q, 3, 0, &h) != 0 || h.n != nw ||
			    nw == 0;
		}
	}
	sh_seg_vector(1);
	ok(bad == 0, "lean: a bucket of all %zu entries, searched with the "
	    "vector and the portable tag scan, equals brute force", n);
	sh_seg_close(&s);
	free(h.v);
}

/*
 * A file changed between open and sh_seg_load: a changed checksum table
 * fails the load, a changed chunk fails the reads of it from the copy.
 */
static void
changed(const char *path, int lean)
{
	static uint64_t fp[N];
	struct sh_plan plan;
	struct sh_hits h = { NULL, 0, 0 };
	struct sh_seg s;
	const char *ids;
	uint64_t v, sumsat, at, x;
	size_t n, i, len;
	FILE *f;
	int bad = 0, e, fails = 0;

	make_set(fp, N, 0, 3);
	n = uniq(fp, N);
	sh_plan_index(&plan, 3, n);
	if (make_segment(path, &plan, lean, fp, n, &s) != 0 ||
	    (f = fopen(path, "r+")) == NULL) {
		ok(0, "changed: segment written");
		return;
	}
	sumsat = 128 + s.bodylen;
	v = get_at(f, (long)sumsat);
	put_at(f, (long)sumsat, v ^ 1);
	bad += sh_seg_load(&s) != SH_ECORRUPT;
	sh_seg_close(&s);
	put_at(f, (long)sumsat, v);
	ok(bad == 0, "%s: a checksum changed after open fails the load",
	    lean ? "lean" : "full");

	/* The first byte of the IDs ("i0\n" of entry 0) changed: no
	 * structure check sees it, only the chunk's checksum. */
	bad = sh_seg_open(&s, path, 0) != 0;
	at = bad ? 0 : 128 + s.ids;
	v = get_at(f, (long)at);
	put_at(f, (long)at, v ^ 3);
	bad += !bad && sh_seg_load(&s) != 0;
	for (i = 0; !bad && i < n; i++) {
		e = sh_seg_ids(&s, i, &ids, &len);
		if (e == SH_ECORRUPT)
			fails++;
		else
			bad += e != 0 || len < 2 || ids[0] != 'i';
	}
	bad += sh_seg_ids(&s, 0, &ids, &len) != SH_ECORRUPT ||
	    fails == (int)n || sh_seg_verify(&s) != SH_ECORRUPT;
	ok(bad == 0, "%s: an ID changed before the load: the IDs of its "
	    "chunk are SH_ECORRUPT (%d of %zu entries), the others are read",
	    lean ? "lean" : "full", fails, n);
	sh_seg_close(&s);
	put_at(f, (long)at, v);

	/* After the load, the tables are a copy and the IDs still the
	 * file's: table 0 changed then is not seen, an ID changed then is.
	 * Where the load maps the IDs in, it checks them (a small file):
	 * the ID is read as the file now has it; elsewhere its chunk, not
	 * yet read, fails. */
	bad = sh_seg_open(&s, path, 0) != 0 || sh_seg_load(&s) != 0;
	put_at(f, (long)(128 + s.tables), 0);
	put_at(f, (long)at, v ^ 3);
	bad += sh_seg_fp(&s, 0, &fp[0]) != 0 || fp[0] == 0;
#ifdef MADV_POPULATE_READ
	bad += sh_seg_ids(&s, 0, &ids, &len) != 0 || ids[0] != ('i' ^ 3);
#else
	bad += sh_seg_ids(&s, 0, &ids, &len) != SH_ECORRUPT;
#endif
	ok(bad == 0, "%s: loaded, the tables are a copy, the IDs are "
	    "mapped", lean ? "lean" : "full");
	sh_seg_close(&s);
	put_at(f, (long)at, v);

	/* Table 0's first chunk changed before the load: it stays
	 * unchecked in the copy, so reads and searches of it fail, and
	 * those of the chunks after it do not. */
	bad = sh_seg_open(&s, path, 0) != 0;
	at = bad ? 0 : 128 + s.tables;
	put_at(f, (long)at, fp[0] ^ 1);
	bad += !bad && sh_seg_load(&s) != 0;
	bad += sh_seg_fp(&s, 0, &x) != SH_ECORRUPT ||
	    sh_seg_fp(&s, n - 1, &x) != 0 || x != fp[n - 1] ||
	    sh_seg_search(&s, fp[0], 3, 0, &h) != SH_ECORRUPT;
	ok(bad == 0, "%s: loaded, a table chunk changed before: its reads "
	    "fail, the later chunks' do not", lean ? "lean" : "full");
	sh_seg_close(&s);
	put_at(f, (long)at, fp[0]);
	free(h.v);
	fclose(f);
}

/* Whether s ends in t. */
static int
endswith(const char *s, const char *t)
{
	size_t n = strlen(s), m = strlen(t);

	return n >= m && strcmp(s + n - m, t) == 0;
}

/* Size of the file dir/name, or -1. */
static long long
fsize(const char *dir, const char *name)
{
	char path[4096];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return stat(path, &st) == 0 ? (long long)st.st_size : -1;
}

/*
 * Three batches of 400, 60 and 5 fingerprints, the last holding again
 * the first fingerprint of the first, added one by one (too small to be
 * merged: three segments), then read back.
 */
static void
index_stats(const char *tmp)
{
	static const size_t size[3] = { 400, 60, 5 };
	static uint64_t fp[3][400];
	char dir[4096], path[4200], where[SH_WHERE], name[32];
	struct sh_ixwriter *w = NULL;
	struct sh_ixopt o;
	struct sh_fplist l;
	struct sh_index ix;
	struct sh_ixstats st;
	struct sh_segstat ss;
	struct sh_ixcursor c;
	const char *p, *id;
	size_t len, idlen, i, n;
	uint64_t f, last = 0;
	double cand;
	long long bytes;
	int b, e, bad, ch;
	FILE *out;

	snprintf(dir, sizeof(dir), "%s/index_test.%ld.ix", tmp, (long)getpid());
	/* Added, not built: a build ends as one segment. */
	memset(&o, 0, sizeof(o));
	o.k = -1;
	e = sh_ixw_open(&w, dir, &o, where);
	for (b = 0; e == 0 && b < 3; b++) {
		sh_fplist_init(&l);
		for (i = 0; e == 0 && i < size[b]; i++) {
			fp[b][i] = b == 2 && i == 0 ? fp[0][0] : next();
			n = (size_t)snprintf(name, sizeof(name), "%c%zu",
			    'a' + b, i);
			e = sh_fplist_add(&l, fp[b][i], name, n);
		}
		if (e == 0)
			e = sh_ixw_add(w, &l, NULL, NULL, where);
		sh_fplist_free(&l);
		qsort(fp[b], size[b], sizeof(fp[b][0]), cmp64);
	}
	if (e == 0)
		e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	ok(e == 0, "index of three batches written");
	if (e != 0 || (e = sh_index_open(&ix, dir, where)) != 0) {
		ok(0, "index of three batches opened: %s", sh_strerror(e));
		rmindex(dir);
		return;
	}

	sh_index_stats(&ix, &st);
	for (i = 0, bytes = 0, cand = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "seg-%06zu", i + 1);
		bytes += fsize(dir, name);
		cand += sh_seg_candidates(&ix.seg[i], ix.k);
	}
	ok(st.k == SH_INDEX_K && st.shard.i == 0 && st.shard.n == 1 &&
	    st.nseg == 3 && st.nfp == 465 && st.nid == 465 &&
	    (long long)st.bytes == bytes && st.candidates == cand &&
	    cand > 0, "stats: k, shard, 3 segments, 465 fingerprints and IDs, "
	    "the files' bytes, candidates summed");

	for (i = 0, bad = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "seg-%06zu", i + 1);
		bad += sh_index_segstat(&ix, (int)i, &ss) != 0 ||
		    strcmp(ss.name, name) != 0 || ss.nfp != size[i] ||
		    ss.nid != size[i] || ss.bytes != (uint64_t)fsize(dir,
		    name) || ss.blocks != ix.seg[i].plan.nblocks ||
		    ss.keyblocks != ix.seg[i].plan.nkey ||
		    ss.tables != ix.seg[i].plan.ntables || ss.tables < 1 ||
		    ss.dirbits != ix.seg[i].dirbits;
	}
	ok(bad == 0 && sh_index_segstat(&ix, 3, &ss) == SH_ERANGE &&
	    sh_index_segstat(&ix, -1, &ss) == SH_ERANGE,
	    "segstat: each segment's name, counts, plan and bytes; "
	    "SH_ERANGE past either end");

	/* The entries: segment by segment, each by ascending fingerprint,
	 * one ID each, the one its batch gave. */
	memset(&c, 0, sizeof(c));
	for (b = 0, i = 0, n = 0, bad = 0; (e = sh_index_next(&ix, &c, &f,
	    &p, &len, where)) == 1; n++, i++) {
		if (i == size[b]) {
			b++;
			i = 0;
		}
		bad += b > 2 || f != fp[b][i] || (i > 0 && f <= last) ||
		    !sh_ids_next(&p, &len, &id, &idlen) || idlen < 2 ||
		    id[0] != 'a' + b || sh_ids_next(&p, &len, &id, &idlen);
		last = f;
	}
	ok(e == 0 && n == 465 && bad == 0 && sh_index_next(&ix, &c, &f, &p,
	    &len, where) == 0, "next: every entry once, in segment order, "
	    "then 0 again");

	ok(sh_index_verify(&ix, where) == 0, "verify: a whole index");
	sh_index_close(&ix);

	/* A byte of the second segment's fingerprints changed. */
	snprintf(path, sizeof(path), "%s/seg-000002", dir);
	if ((out = fopen(path, "r+")) != NULL) {
		fseek(out, 200, SEEK_SET);
		ch = fgetc(out);
		fseek(out, 200, SEEK_SET);
		fputc(ch ^ 1, out);
		fclose(out);
	}
	if ((e = sh_index_open(&ix, dir, where)) == 0) {
		where[0] = '\0';
		e = sh_index_verify(&ix, where);
		ok(e == SH_ECORRUPT && endswith(where, "/seg-000002"),
		    "verify: a corrupt segment is SH_ECORRUPT, where names it");
		memset(&c, 0, sizeof(c));
		where[0] = '\0';
		for (n = 0; (e = sh_index_next(&ix, &c, &f, &p, &len,
		    where)) == 1; n++)
			;
		ok(e == SH_ECORRUPT && n == 400 && endswith(where,
		    "/seg-000002"), "next: the entries before the corrupt "
		    "segment, then SH_ECORRUPT naming it");
		sh_index_close(&ix);
	} else
		ok(0, "index with a corrupt segment opened: %s",
		    sh_strerror(e));

	/* A lone segment file: its path for a name, the whole range. */
	snprintf(path, sizeof(path), "%s/seg-000003", dir);
	if ((e = sh_index_open(&ix, path, where)) == 0) {
		sh_index_stats(&ix, &st);
		ok(st.nseg == 1 && st.nfp == 5 && st.shard.i == 0 &&
		    st.shard.n == 1 && sh_index_segstat(&ix, 0, &ss) == 0 &&
		    strcmp(ss.name, path) == 0, "a lone segment file: one "
		    "segment named by its path, shard 0/1");
		sh_index_close(&ix);
	} else
		ok(0, "lone segment opened: %s", sh_strerror(e));
	rmindex(dir);
}

int
main(void)
{
	static uint64_t fp[N], q[NQ], want[N];
	static const int forced[][2] = {
		{ 1, 1 }, { 2, 1 }, { 4, 1 }, { 5, 2 }, { 6, 2 }, { 8, 3 },
		{ 3, 3 }
	};
	struct sh_hits h = { 0 };
	struct sh_plan plan;
	struct sh_seg s;
	char path[4096];
	const char *tmp = getenv("TMPDIR");
	size_t n, i, j, nw;
	int b, r, k, ks, kind, p, pl, lean, d[SH_PLAN_BMAX], bad, ok_all;
	uint64_t x, y;

	/* The probe radius is the worst case of the r least differing
	 * blocks. */
	for (b = 1, bad = 0; b <= 7; b++)
		for (r = 1; r <= b; r++)
			for (k = 0; k <= 10; k++) {
				sh_plan_blocks(&plan, b, r);
				bad += sh_plan_radius(&plan, k) !=
				    worst(b, r, k, d, 0);
			}
	ok(bad == 0, "probe radius equals the worst case, b 1..7, k 0..10");

	for (p = 0, bad = 0; p < 7; p++) {
		sh_plan_blocks(&plan, forced[p][0], forced[p][1]);
		for (i = 0; i < 1000; i++) {
			x = next();
			y = flip(x, (int)(next() % 9));
			for (b = 0; b < plan.ntables; b++)
				bad += sh_plan_unperm(&plan, b,
				    sh_plan_perm(&plan, b, x)) != x ||
				    sh_hamming(sh_plan_perm(&plan, b, x),
				    sh_plan_perm(&plan, b, y)) !=
				    sh_hamming(x, y) ||
				    sh_plan_perm(&plan, b, x) >>
				    (64 - plan.keybits[b]) !=
				    sh_plan_key(&plan, b, x);
			/* The portable permutation is the same. */
			for (b = 0; b < plan.ntables; b++) {
				y = sh_plan_perm(&plan, b, x);
				sh_plan_vector(0);
				bad += sh_plan_perm(&plan, b, x) != y;
				sh_plan_vector(1);
			}
		}
		bad += sh_plan_perm(&plan, 0, x) != x;
	}
	ok(bad == 0, "permutations: inverse, distance kept, key on top, "
	    "table 0 the identity, the portable one the same");

	snprintf(path, sizeof(path), "%s/index_test.%ld.seg",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp", (long)getpid());
	for (kind = 0; kind < 4; kind++)
		for (ks = 0; ks <= 8; ks += 4) {
			make_set(fp, N, kind, ks);
			n = uniq(fp, N);
			for (i = 0; i < NQ; i++)
				q[i] = i % 3 == 0 ? next() : flip(fp[next() %
				    n], (int)(next() % 6));
			/* Every plan in both layouts. */
			for (pl = 0; pl < 16; pl++) {
				p = pl % 8 - 1;
				lean = pl >= 8;
				if (p < 0)
					sh_plan_index(&plan, ks, n);
				else
					sh_plan_blocks(&plan, forced[p][0],
					    forced[p][1]);
				plan.k = ks;
				/* Odd sets search a copy in memory. */
				if (make_segment(path, &plan, lean, fp, n,
				    &s) != 0 || ((kind & 1) && sh_seg_load(&s) != 0) ||
				    sh_seg_verify(&s) != 0) {
					ok(0, "set %d: segment b=%d r=%d written "
					    "and verified", kind, plan.nblocks,
					    plan.nkey);
					continue;
				}
				ok_all = 1;
				for (k = 0; k <= 10; k++)
					for (i = 0; i < NQ; i++) {
						for (j = 0, nw = 0; j < n; j++)
							if (sh_hamming(fp[j],
							    q[i]) <= k)
								want[nw++] =
								    fp[j];
						h.n = 0;
						if (sh_seg_search(&s, q[i], k,
						    0, &h) != 0 || h.n != nw)
							ok_all = 0;
						for (j = 0; ok_all && j < nw;
						    j++)
							ok_all = h.v[j].fp ==
							    want[j] &&
							    fp[h.v[j].pos] ==
							    want[j] &&
							    h.v[j].dist ==
							    sh_hamming(want[j],
							    q[i]);
					}
				/* A batch of the queries answers alike. */
				for (k = 0; k <= 10 && ok_all; k++)
					ok_all = batch_agrees(&s, q, NQ, k);
				/* The portable scan answers alike. */
				sh_seg_vector(0);
				for (i = 0; i < NQ && ok_all; i++) {
					size_t m = h.n = 0;

					for (j = 0; j < n; j++)
						m += sh_hamming(fp[j], q[i]) <= 7;
					ok_all = sh_seg_search(&s, q[i], 7, 0,
					    &h) == 0 && h.n == m;
				}
				sh_seg_vector(1);
				ok(ok_all, "set %d, served k=%d, plan b=%d r=%d "
				    "(%d tables, %s%s): searches at k 0..10 "
				    "equal brute force, one by one or batched",
				    kind, ks, plan.nblocks, plan.nkey,
				    plan.ntables, lean ? "lean" :
				    "full", kind & 1 ? ", loaded" : "");
				sh_seg_close(&s);
			}
		}
	forged(path, 0);
	forged(path, 1);
	changed(path, 0);
	changed(path, 1);
	long_bucket(path);
	budgeted(path);
	unlink(path);
	free(h.v);
	index_stats(tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	return tap_done();
}

/*
 * Document locations in band segments: each entry added with one reads
 * it back from a reopened index, through merges of batches with and
 * without them, through deletions and the merge that drops them (a
 * deleted entry gives none); a segment of entries without any stays of
 * version 3; verify passes on what is written and fails on a file
 * number past the file table; a path too long is refused.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "index/index.h"
#include "index/writer.h"
#include "near/fplist.h"
#include "rng.h"
#include "rmdir.h"
#include "tap.h"

#define B 4
#define R 2
#define N 1200

static uint64_t key[N][B];
static sh_fpval fp[N];
static struct sh_segloc loc[N];
static char paths[5][64];

/* Entry i's location: none for every seventh, else of one of five
 * files, its numbers made from i. */
static void
make_entries(void)
{
	size_t i, j;

	for (i = 0; i < 5; i++)
		snprintf(paths[i], sizeof(paths[i]), "/archive/%zu/crawl-%zu"
		    ".warc.gz", i, i * 31);
	for (i = 0; i < N; i++) {
		fp[i] = next();
		for (j = 0; j < B; j++)
			key[i][j] = next() % 50;	/* many shared */
		memset(&loc[i], 0, sizeof(loc[i]));
		if (i % 7 == 3)
			continue;
		loc[i].path = paths[(i / 3) % 5];
		loc[i].mode = (uint32_t)(i % 4);
		loc[i].off = (uint64_t)i * 1000003;
		loc[i].size = 100 + i;
		loc[i].coff = (uint64_t)i * 333;
		loc[i].skip = i % 17;
		loc[i].line = i + 1;
	}
}

static int
add_batch(struct sh_ixwriter *w, size_t from, size_t to, int locs,
    char *where)
{
	static uint64_t k[N * B];
	struct sh_fplist l;
	char id[32];
	size_t i;
	int e = 0;

	sh_fplist_init(&l);
	for (i = from; i < to && e == 0; i++) {
		memcpy(k + (i - from) * B, key[i], sizeof(key[i]));
		e = sh_fplist_add(&l, fp[i], id, (size_t)snprintf(id,
		    sizeof(id), "e%zu", i));
	}
	if (e == 0)
		e = sh_ixw_add(w, &l, k, locs ? loc + from : NULL, where);
	sh_fplist_free(&l);
	return e;
}

/* Entry i of the index (the entries in order of addition, gone[] left
 * out) against loc[i]: how many differ.  With nolocs, [nofrom, noto)
 * were added without locations. */
static int
check(struct sh_index *ix, const unsigned char *gone, size_t nofrom,
    size_t noto)
{
	struct sh_segloc l;
	struct sh_hit h;
	const char *p;
	size_t len, i, pos = 0;
	char id[32];
	int s = 0, bad = 0, r;
	char where[SH_WHERE];

	memset(&h, 0, sizeof(h));
	for (i = 0; i < N; i++) {
		if (gone[i])
			continue;
		while (s < ix->nseg && pos >= ix->seg[s].nfp) {
			s++;
			pos = 0;
		}
		if (s == ix->nseg)
			return bad + 1;
		h.seg = s;
		h.pos = pos++;
		snprintf(id, sizeof(id), "e%zu\n", i);
		if (sh_index_ids(ix, &h, &p, &len, where) != 0 ||
		    len != strlen(id) || memcmp(p, id, len) != 0) {
			bad++;
			continue;
		}
		r = sh_index_loc(ix, &h, &l, where);
		if (loc[i].path == NULL || (i >= nofrom && i < noto))
			bad += r != 0;
		else
			bad += r != 1 || strcmp(l.path, loc[i].path) != 0 ||
			    l.mode != loc[i].mode || l.off != loc[i].off ||
			    l.size != loc[i].size || l.coff != loc[i].coff ||
			    l.skip != loc[i].skip || l.line != loc[i].line;
	}
	return bad;
}

int
main(void)
{
	static const size_t cut[] = { 0, 1000, 1150, 1190, N };
	static unsigned char gone[N];
	char dir[4096], where[SH_WHERE], path[4200], cmd[4300], *lpath;
	const char *tmp = getenv("TMPDIR");
	struct sh_ixwriter *w = NULL;
	struct sh_ixopt o;
	struct sh_index ix;
	struct sh_fplist del;
	unsigned char *found;
	struct sh_segloc big;
	char id[32];
	size_t i;
	int e, b, n, v;
	FILE *f;

	make_entries();
	snprintf(dir, sizeof(dir), "%s/ixlocs_test.%ld.ix", tmp ? tmp : "/tmp",
	    (long)getpid());
	memset(&o, 0, sizeof(o));
	o.k = -1;
	o.t = 800000;
	o.bands = B;
	o.rows = R;

	/* Batches without locations: version 3, as before. */
	e = sh_ixw_open(&w, dir, &o, where);
	if (e == 0)
		e = add_batch(w, 0, 100, 0, where);
	if (e == 0)
		e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	e = e ? e : sh_index_open(&ix, dir, where);
	ok(e == 0 && ix.nseg == 1 && sh_index_loc(&ix, &(struct sh_hit){ 0,
	    5, 0, 0, 0 }, &big, where) == 0,
	    "a batch without locations: none read back");
	if (e == 0) {
		snprintf(path, sizeof(path), "%s/%s", dir, ix.name[0]);
		f = fopen(path, "rb");
		v = -1;
		if (f != NULL && fseek(f, 8, SEEK_SET) == 0)
			v = fgetc(f);
		if (f != NULL)
			fclose(f);
		ok(v == SH_SEG_VERSION_BANDS, "its segment is of version 3");
		sh_index_close(&ix);
	}
	rmindex(dir);

	/* Four batches, the second without locations, merging. */
	e = sh_ixw_open(&w, dir, &o, where);
	for (b = 0; e == 0 && b < 4; b++)
		if ((e = add_batch(w, cut[b], cut[b + 1], b != 1,
		    where)) == 0)
			e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	e = e ? e : sh_index_open(&ix, dir, where);
	ok(e == 0, "4 batches written: %s", sh_strerror(e));
	if (e != 0)
		return tap_done();
	ok(sh_index_verify(&ix, where) == 0, "verify passes (%d segments)",
	    ix.nseg);
	ok(check(&ix, gone, cut[1], cut[2]) == 0,
	    "every entry's location read back, none for those without");
	sh_index_close(&ix);

	/* Deletions: a deleted entry gives none; the merge drops it and
	 * keeps the others' locations. */
	sh_fplist_init(&del);
	for (i = 0; i < N; i += 5) {
		gone[i] = 1;
		sh_fplist_add(&del, 0, id, (size_t)snprintf(id, sizeof(id),
		    "e%zu", i));
	}
	found = calloc(del.n + 1, 1);
	e = sh_ixw_open(&w, dir, &o, where);
	if (e == 0)
		e = sh_ixw_delete(w, &del, found, where);
	if (e == 0)
		e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	e = e ? e : sh_index_open(&ix, dir, where);
	for (i = 0, n = 0; e == 0 && i < ix.seg[0].nfp; i += 5)
		n += sh_index_loc(&ix, &(struct sh_hit){ 0, i, 0, 0, 0 }, &big,
		    where) != 0;
	ok(e == 0 && n == 0, "a deleted entry has no location");
	if (e == 0)
		sh_index_close(&ix);
	e = sh_ixw_open(&w, dir, &o, where);
	if (e == 0)
		e = sh_ixw_merge(w, where);
	if (e == 0)
		e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	e = e ? e : sh_index_open(&ix, dir, where);
	ok(e == 0 && ix.nseg == 1 && ix.seg[0].nfp == N - del.n &&
	    sh_index_verify(&ix, where) == 0 &&
	    check(&ix, gone, cut[1], cut[2]) == 0,
	    "merged, deletions dropped: the others' locations kept");
	free(found);
	sh_fplist_free(&del);
	if (e != 0)
		return tap_done();

	/* A file number past the table, re-signed: verify and the read
	 * say corrupt. */
	snprintf(path, sizeof(path), "%s/%s", dir, ix.name[0]);
	{
		struct sh_seg *s = &ix.seg[0];
		uint64_t at = 128 + s->locs + 48 * 2;

		sh_index_close(&ix);
		f = fopen(path, "r+b");
		if (f != NULL) {
			fseek(f, (long)at, SEEK_SET);
			fputc(0x7f, f);
			fclose(f);
		}
	}
	snprintf(cmd, sizeof(cmd), "tests/unit/forge seal '%s'", path);
	e = system(cmd) != 0 ? SH_EIO : sh_index_open(&ix, dir, where);
	ok(e == 0 && sh_index_verify(&ix, where) == SH_ECORRUPT &&
	    sh_index_loc(&ix, &(struct sh_hit){ 0, 2, 0, 0, 0 }, &big,
	    where) == SH_ECORRUPT && sh_index_loc(&ix, &(struct sh_hit){ 0,
	    1, 0, 0, 0 }, &big, where) == 1, "a file number past the table, "
	    "re-signed: verify and its read fail, the others are read");
	if (e == 0)
		sh_index_close(&ix);
	rmindex(dir);

	/* A path too long for a location is refused. */
	lpath = malloc(SH_SEGLOC_PATH + 2);
	memset(lpath, 'a', SH_SEGLOC_PATH + 1);
	lpath[0] = '/';
	lpath[SH_SEGLOC_PATH + 1] = '\0';
	loc[1].path = lpath;
	e = sh_ixw_open(&w, dir, &o, where);
	if (e == 0)
		e = add_batch(w, 0, 10, 1, where);
	sh_ixw_close(w);
	ok(e == SH_EINVAL, "a path of %d bytes: SH_EINVAL",
	    SH_SEGLOC_PATH + 1);
	free(lpath);
	rmindex(dir);
	return tap_done();
}

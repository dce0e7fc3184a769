/*
 * Indexes of band tables against brute force: entries with planted
 * shared keys (families of equal keys, pairs agreeing in one band, keys
 * equal in their top 32 bits only) written by sh_ixw in batches that
 * merge, then every query's hits compared with the entries that share a
 * key with it, in order of entry, each once; the segment verified, a
 * flipped byte caught, and an add of the other kind refused.
 */
#include <sys/stat.h>

#include <dirent.h>
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

#define B 7
#define R 3
#define N 3000
#define NQ 400

static uint64_t key[N][B];
static sh_fpval fp[N];

/* The entries' keys: random, with families of equal keys in every band,
 * pairs equal in one band, and keys that share their top 32 bits. */
static void
make_keys(void)
{
	size_t i, j, a;

	for (i = 0; i < N; i++) {
		fp[i] = next();
		for (j = 0; j < B; j++)
			key[i][j] = next();
	}
	for (i = 100; i < 160; i++)		/* a family of 61 */
		memcpy(key[i], key[99], sizeof(key[i]));
	for (i = 0; i < 400; i++) {		/* pairs in one band */
		a = next() % N;
		j = next() % B;
		key[next() % N][j] = key[a][j];
	}
	for (i = 0; i < 200; i++) {		/* equal top bits */
		a = next() % N;
		j = next() % B;
		key[next() % N][j] = (key[a][j] & ~(uint64_t)0xffffffff) |
		    (next() & 0xffffffff);
	}
}

/* Entries [from, to) as a batch with their keys, entry by entry. */
static int
add_batch(struct sh_ixwriter *w, size_t from, size_t to, char *where)
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
		e = sh_ixw_add(w, &l, k, NULL, where);
	sh_fplist_free(&l);
	return e;
}

struct got {
	size_t q;		/* the query's entry */
	int bad, n;
};

/* The hits of query i against brute force: entries sharing a key with
 * it, ascending, each once, the distance of their fingerprints. */
static int
check_hits(void *ctx, size_t i, const struct sh_hits *h)
{
	struct got *g = ctx;
	size_t e, at = 0, q = g->q;
	int j, share;

	(void)i;
	for (e = 0; e < N; e++) {
		for (j = 0, share = 0; j < B; j++)
			share |= key[e][j] == key[q][j];
		if (!share)
			continue;
		g->n++;
		if (at >= h->n || h->v[at].pos != e || h->v[at].seg != 0 ||
		    h->v[at].fp != fp[e] ||
		    h->v[at].dist != sh_hamming(fp[e], fp[q]))
			g->bad++;
		at++;
	}
	g->bad += at != h->n;
	return 0;
}

int
main(void)
{
	static const size_t cut[] = { 0, 2000, 2500, 2990, N };
	char dir[4096], where[SH_WHERE], path[4200];
	const char *tmp = getenv("TMPDIR");
	struct sh_ixwriter *w = NULL;
	struct sh_ixopt o;
	struct sh_index ix;
	struct sh_hits h = { 0 };
	struct got g;
	const char *p;
	size_t i, len, nq;
	int e, bad, n, b;
	FILE *f;

	make_keys();
	snprintf(dir, sizeof(dir), "%s/bandix_test.%ld.ix", tmp ? tmp : "/tmp",
	    (long)getpid());
	/* Four batches: the last ones merge into the first (size-tiered)
	 * or stay apart; either way one index. */
	memset(&o, 0, sizeof(o));
	o.k = -1;
	o.t = 800000;
	o.bands = B;
	o.rows = R;
	e = sh_ixw_open(&w, dir, &o, where);
	for (b = 0; e == 0 && b < 4; b++)
		if ((e = add_batch(w, cut[b], cut[b + 1], where)) == 0)
			e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	ok(e == 0, "band index of 4 batches written: %s", sh_strerror(e));

	/* A build merges every batch into one segment. */
	o.replace = o.force = 1;
	e = sh_ixw_open(&w, dir, &o, where);
	for (b = 0; e == 0 && b < 4; b++)
		e = add_batch(w, cut[b], cut[b + 1], where);
	if (e == 0)
		e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	ok(e == 0, "band index rebuilt from 4 batches");
	if (e != 0 || (e = sh_index_open(&ix, dir, where)) != 0) {
		ok(0, "band index opened: %s", sh_strerror(e));
		rmindex(dir);
		return tap_done();
	}
	ok(ix.nseg == 1 && ix.t == 800000 && ix.bands == B && ix.rows == R &&
	    ix.seg[0].nfp == N && ix.seg[0].nid == N,
	    "one segment of %d entries, its plan that of the MANIFEST", N);
	ok(sh_index_verify(&ix, where) == 0, "verify passes");

	/* Every entry as a query, then the entries in order. */
	for (i = 0, bad = 0, n = 0; i < NQ; i++) {
		memset(&g, 0, sizeof(g));
		g.q = i < 100 ? 99 + i : next() % N;
		e = sh_index_bands_each(&ix, &fp[g.q], key[g.q], 1, &h,
		    check_hits, &g, where);
		bad += e != 0 || g.bad != 0;
		n += g.n;
	}
	ok(bad == 0 && n > NQ, "%d queries: the entries sharing a key, in "
	    "order, each once (%d hits)", NQ, n);
	for (i = 0, bad = 0; i < N; i++) {
		snprintf(path, sizeof(path), "e%zu\n", i);
		bad += sh_index_ids(&ix, &(struct sh_hit){ 0, i, 0, 0, 0 }, &p,
		    &len, where) != 0 || len != strlen(path) ||
		    memcmp(p, path, len) != 0;
	}
	ok(bad == 0, "entry i holds ID e<i>: the batches in order");
	ok(sh_index_search(&ix, fp[0], 3, &h, where) == SH_EKIND &&
	    sh_index_search_each(&ix, fp, 1, 3, &h, check_hits, &g,
	    where) == SH_EKIND, "a distance search of band tables: SH_EKIND");
	snprintf(path, sizeof(path), "%s/%s", dir, ix.name[0]);
	sh_index_close(&ix);

	/* Adds of the other kind, or of another plan, are refused. */
	memset(&o, 0, sizeof(o));
	o.k = -1;
	ok(sh_ixw_open(&w, dir, &o, where) == SH_EKIND,
	    "an add of fingerprint tables to band tables: SH_EKIND");
	o.t = 900000;
	o.bands = B;
	o.rows = R;
	ok(sh_ixw_open(&w, dir, &o, where) == SH_EKIND,
	    "an add for another similarity: SH_EKIND");

	/* A flipped byte in a band table: verify fails, and a search
	 * that reads it errs, never a wrong answer. */
	if ((f = fopen(path, "r+b")) != NULL) {
		fseek(f, 128 + N * 8 + 5 * 8 * N + 8 * 1000, SEEK_SET);
		n = fgetc(f);
		fseek(f, -1, SEEK_CUR);
		fputc(n ^ 0x10, f);
		fclose(f);
	}
	e = sh_index_open(&ix, dir, where);
	ok(e == 0 && sh_index_verify(&ix, where) == SH_ECORRUPT &&
	    strcmp(where, path) == 0, "a flipped byte of band 5: verify "
	    "fails naming the segment");
	for (i = 0, bad = 0, nq = 0; e == 0 && i < N; i++) {
		memset(&g, 0, sizeof(g));
		g.q = i;
		e = sh_index_bands_each(&ix, &fp[i], key[i], 1, &h,
		    check_hits, &g, where);
		if (e == SH_ECORRUPT) {
			nq++;
			e = 0;
		} else
			bad += e != 0 || g.bad != 0;
	}
	ok(bad == 0 && nq > 0, "then every query is right or fails "
	    "(%zu failed)", nq);
	sh_index_close(&ix);
	free(h.v);
	rmindex(dir);
	return tap_done();
}

/*
 * MANIFESTs that lie, with valid checksums (a forger recomputes them):
 * a next that names a live segment, or that cannot grow, or overflows;
 * a segment named twice; counts that cannot be; names too long;
 * deletion files (version 4) misnumbered, named twice, or deleting more
 * IDs than their segment holds.  Each
 * is refused by readers and writers, and a writer refused leaves every
 * segment as it was.
 */
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
#include "index/writer.h"
#include "near/fplist.h"
#include "rng.h"
#include "rmdir.h"
#include "tap.h"

static char dir[4096];

/* Write MANIFEST lines text (without the end line) with its checksum. */
static void
forge(const char *text)
{
	char path[4200], hex[SH_HEX_LEN + 1];
	FILE *f;

	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	sh_hex_format(sh_hash64(text, strlen(text), 0), hex);
	hex[SH_HEX_LEN] = '\0';
	if ((f = fopen(path, "w")) != NULL) {
		fprintf(f, "%send %s\n", text, hex);
		fclose(f);
	}
}

/* A batch of n random fingerprints, IDs PREFIX0.. */
static int
add(const char *prefix, int n, int replace, char *where)
{
	struct sh_ixwriter *w = NULL;
	struct sh_ixopt o;
	struct sh_fplist l;
	char id[32];
	int i, e;

	memset(&o, 0, sizeof(o));
	o.k = -1;
	o.replace = o.force = replace;
	sh_fplist_init(&l);
	for (i = 0, e = 0; i < n && e == 0; i++)
		e = sh_fplist_add(&l, next(), id, (size_t)snprintf(id,
		    sizeof(id), "%s%d", prefix, i));
	if (e == 0 && (e = sh_ixw_open(&w, dir, &o, where)) == 0 &&
	    (e = sh_ixw_add(w, &l, NULL, NULL, where)) == 0)
		e = sh_ixw_commit(w, where);
	sh_ixw_close(w);
	sh_fplist_free(&l);
	return e;
}

/* XXH64 of the index's segment files, named in order. */
static uint64_t
segsum(void)
{
	char path[4200], buf[65536];
	uint64_t sum = 0;
	size_t n;
	FILE *f;
	int i;

	for (i = 1; i <= 3; i++) {
		snprintf(path, sizeof(path), "%s/seg-%06d", dir, i);
		if ((f = fopen(path, "rb")) == NULL)
			continue;
		while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
			sum = sh_hash64(buf, n, sum);
		fclose(f);
		sum += (uint64_t)i;
	}
	return sum;
}

int
main(void)
{
	static const struct {
		const char *text, *what;
	} lie[] = {
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 2\n"
		  "seg-000001 500 500\nseg-000002 20 20\n",
		  "next naming a live segment" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 1\n"
		  "seg-000001 500 500\nseg-000002 20 20\n",
		  "next below every segment" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next "
		  "18446744073709551616\nseg-000001 500 500\nseg-000002 20 20\n",
		  "next past 2^64 - 1" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 3\n"
		  "seg-000001 500 500\nseg-000001 500 500\n",
		  "a segment named twice" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 3\n"
		  "seg-000001 500 499\nseg-000002 20 20\n",
		  "fewer IDs than fingerprints" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 3\n"
		  "seg-000000000000000000001 500 500\nseg-000002 20 20\n",
		  "a name of 21 digits" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 3\n"
		  "seg-000001 500 500\nseg-000002 20 -20\n",
		  "a negative count" },
		{ "sh-index 1\nk 3 plan 0 0 shard 0 1 next 4\n"
		  "seg-000001 500 500 del-000003 1\nseg-000002 20 20\n",
		  "a deletion file in a MANIFEST of version 1" },
		{ "sh-index 4\nk 3 plan 0 0 shard 0 1 next 3\n"
		  "seg-000001 500 500 del-000003 1\nseg-000002 20 20\n",
		  "a deletion file numbered at next" },
		{ "sh-index 4\nk 3 plan 0 0 shard 0 1 next 4\n"
		  "seg-000001 500 500 del-000002 1\nseg-000002 20 20\n",
		  "a deletion file of a segment's number" },
		{ "sh-index 4\nk 3 plan 0 0 shard 0 1 next 4\n"
		  "seg-000001 500 500 del-000003 1\n"
		  "seg-000002 20 20 del-000003 1\n",
		  "a deletion file named twice" },
		{ "sh-index 4\nk 3 plan 0 0 shard 0 1 next 4\n"
		  "seg-000001 500 500\nseg-000002 20 20 del-000003 21\n",
		  "more IDs deleted than held" },
		{ "sh-index 4\nk 3 plan 0 0 shard 0 1 next 4\n"
		  "seg-000001 500 500\nseg-000002 20 20 del-000003 0\n",
		  "a deletion file deleting nothing" },
	};
	char where[SH_WHERE], path[4200];
	const char *tmp = getenv("TMPDIR");
	struct sh_index ix;
	uint64_t before;
	size_t i;
	int e, bad;

	snprintf(dir, sizeof(dir), "%s/manifest_test.%ld.ix", tmp ? tmp :
	    "/tmp", (long)getpid());
	snprintf(path, sizeof(path), "%s/MANIFEST", dir);
	/* 500, then 20 (not merged): seg-000001, seg-000002, next 3. */
	e = add("a", 500, 1, where);
	if (e == 0)
		e = add("b", 20, 0, where);
	ok(e == 0 && sh_index_open(&ix, dir, where) == 0 && ix.nseg == 2 &&
	    ix.next == 3, "an index of two segments, next 3");
	sh_index_close(&ix);
	before = segsum();

	for (i = 0; i < sizeof(lie) / sizeof(lie[0]); i++) {
		forge(lie[i].text);
		e = sh_index_open(&ix, dir, where);
		bad = e != SH_ECORRUPT || strcmp(where, path) != 0;
		if (e == 0)
			sh_index_close(&ix);
		e = add("c", 30, 0, where);
		bad += e != SH_ECORRUPT || strcmp(where, path) != 0;
		ok(bad == 0 && segsum() == before, "%s: readers and writers "
		    "refuse it, naming the MANIFEST; every segment as it was",
		    lie[i].what);
	}

	/* A next that cannot grow: the add is refused, nothing changes. */
	forge("sh-index 1\nk 3 plan 0 0 shard 0 1 next 18446744073709551615\n"
	    "seg-000001 500 500\nseg-000002 20 20\n");
	ok(sh_index_open(&ix, dir, where) == 0, "next 2^64 - 1 reads");
	sh_index_close(&ix);
	e = add("c", 30, 0, where);
	ok(e == SH_ERANGE && strcmp(where, path) == 0 && segsum() == before,
	    "then an add: number out of range, naming the MANIFEST; the "
	    "segments as they were");

	/* The truth again: the index works. */
	forge("sh-index 1\nk 3 plan 0 0 shard 0 1 next 3\n"
	    "seg-000001 500 500\nseg-000002 20 20\n");
	ok(add("c", 30, 0, where) == 0 && sh_index_open(&ix, dir,
	    where) == 0 && sh_index_verify(&ix, where) == 0,
	    "the true MANIFEST back: an add, verify passes");
	sh_index_close(&ix);
	rmindex(dir);
	return tap_done();
}

/*
 * Fuzz target: the MANIFEST of an index directory (index/ixfile.c, read
 * through index/index.h).  The input is the MANIFEST.  Beside it lie two
 * valid segments, written once: seg-000001 of 10 fingerprints and
 * seg-000002 of 2.  An index that opens names only those (a MANIFEST
 * names files of its directory only), with the counts of their headers;
 * it verifies, dumps every entry of the segments it names, and finds each
 * of them at distance 0.  Any other MANIFEST fails with SH_EMAGIC,
 * SH_EVERSION, SH_ETRUNC, SH_ECORRUPT, SH_ESEGMAX, SH_EIO (a segment
 * named that is not there) or SH_ENOMEM, never a crash.  Then the
 * writers run on it (fz_writers: a delete, a merge, an expire), which
 * must fail alike or succeed.
 *
 * The custom mutator keeps the last line, "end" and the checksum of what
 * comes before, true for most mutants, so that they get past it.
 */
#include <fcntl.h>
#include <stdio.h>
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

#define NFP1 10
#define NFP2 2

/* The fingerprints of the segments: segment 1 the first NFP1. */
static sh_fpval fps[NFP1 + NFP2];

/* Segment name of nfp fingerprints from fp, IDs "iN". */
static void
write_segment(const char *name, const sh_fpval *fp, size_t nfp)
{
	char ids[NFP1 * 8], path[4096 + 64];
	uint64_t idoff[NFP1 + 1];
	struct sh_segdata d;
	struct sh_plan plan;
	size_t i, len = 0;
	int fd;

	for (i = 0; i < nfp; i++) {
		idoff[i] = len;
		len += (size_t)snprintf(ids + len, sizeof(ids) - len, "i%zu\n",
		    i);
	}
	idoff[nfp] = len;
	d.fp = fp;
	d.idoff = idoff;
	d.ids = ids;
	d.nfp = nfp;
	d.nid = nfp;
	sh_plan_index(&plan, 3, nfp);
	snprintf(path, sizeof(path), "%s/%s", fz_dir(), name);
	if ((fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600)) < 0 ||
	    sh_seg_write(fd, &plan, 0, &d, 0, NULL) != 0 || close(fd) != 0) {
		perror(path);
		abort();
	}
}

static void
setup(void)
{
	static int done;
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	size_t i;

	if (done)
		return;
	done = 1;
	/* Ascending and distinct within each segment. */
	for (i = 0; i < NFP1 + NFP2; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		fps[i] = (i == 0 || i == NFP1 ? 0 : fps[i - 1]) + (x >> 8) + 1;
	}
	write_segment("seg-000001", fps, NFP1);
	write_segment("seg-000002", fps + NFP1, NFP2);
}

/* The writers on the directory as the MANIFEST left it (a delete, a
 * merge, an expire, fz_writers), then the segments written again for
 * the next input. */
static void
writers(void)
{
	static const char *const ids[] = { "i0", "i1", "i9" };

	fz_writers(ids, sizeof(ids) / sizeof(ids[0]));
	write_segment("seg-000001", fps, NFP1);
	write_segment("seg-000002", fps + NFP1, NFP2);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_index ix;
	struct sh_ixcursor c = { 0, 0 };
	struct sh_ixstats st;
	struct sh_segstat ss;
	struct sh_hits h = { 0 };
	char where[SH_WHERE];
	const char *ids;
	sh_fpval v;
	size_t len, n = 0, want = 0, i;
	int e, s, found;

	setup();
	fz_file("MANIFEST", data, size);
	e = sh_index_open(&ix, fz_dir(), where);
	if (e != 0) {
		FZ_CHECK(e == SH_EMAGIC || e == SH_EVERSION || e == SH_ETRUNC ||
		    e == SH_ECORRUPT || e == SH_ESEGMAX || e == SH_EIO ||
		    e == SH_ENOMEM);
		writers();
		return 0;
	}
	sh_index_stats(&ix, &st);
	for (s = 0; s < ix.nseg; s++) {
		FZ_CHECK(sh_index_segstat(&ix, s, &ss) == 0);
		FZ_CHECK(strcmp(ss.name, "seg-000001") == 0 ||
		    strcmp(ss.name, "seg-000002") == 0);
		want += ss.nfp;
	}
	FZ_CHECK(st.nfp == want && st.nseg == ix.nseg);
	FZ_CHECK(sh_index_verify(&ix, where) == 0);
	while ((e = sh_index_next(&ix, &c, &v, &ids, &len, where)) == 1) {
		for (i = 0, found = 0; i < NFP1 + NFP2; i++)
			found |= fps[i] == v;
		FZ_CHECK(found);
		n++;
	}
	FZ_CHECK(e == 0 && n == want);
	/* Each fingerprint is found once per segment that holds it. */
	for (i = 0; i < NFP1 + NFP2; i++) {
		h.n = 0;
		FZ_CHECK(sh_index_search(&ix, fps[i], 0, &h, where) == 0);
		for (s = 0, found = 0; s < ix.nseg; s++) {
			sh_index_segstat(&ix, s, &ss);
			found += strcmp(ss.name, i < NFP1 ? "seg-000001" :
			    "seg-000002") == 0;
		}
		FZ_CHECK(h.n == (size_t)found);
	}
	free(h.v);
	sh_index_close(&ix);
	writers();
	return 0;
}

#ifdef SH_LIBFUZZER
/* The mutator: libFuzzer only. */

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
    unsigned seed);

size_t
LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max,
    unsigned seed)
{
	char hex[SH_HEX_LEN];
	size_t body = size;

	/* The body: all before a last line starting "end ". */
	if (size > 0 && data[size - 1] == '\n') {
		for (body = size - 1; body > 0 && data[body - 1] != '\n';
		    body--)
			;
		if (size - body < 4 || memcmp(data + body, "end ", 4) != 0)
			body = size;
	}
	if (max < 4 + SH_HEX_LEN + 1)
		return LLVMFuzzerMutate(data, size, max);
	body = LLVMFuzzerMutate(data, body, max - 4 - SH_HEX_LEN - 1);
	/* Most mutants get a true checksum; the others keep what they had
	 * or none. */
	if (seed % 8 != 0) {
		memcpy(data + body, "end ", 4);
		sh_hex_format(sh_hash64(data, body, 0), hex);
		memcpy(data + body + 4, hex, SH_HEX_LEN);
		data[body + 4 + SH_HEX_LEN] = '\n';
		body += 4 + SH_HEX_LEN + 1;
	}
	return body;
}
#endif

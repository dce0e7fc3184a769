/*
 * Fuzz target: pair lines (near/pairline.h), as IDs and as fingerprints.
 * The input is lines; each that parses is written back with
 * sh_pairline_write, with a distance and a similarity taken from the
 * line, and must parse again to the same pair, its further fields those
 * written.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/hash.h"
#include "near/fpline.h"
#include "near/pairline.h"
#include "util.h"

/* The fields after the pair of line p[0..len): "DIST" and "SIM", which
 * must be dist and sim in millionths. */
static void
check_rest(const char *p, size_t len, int dist, long sim)
{
	char want[64];
	int n = 0;

	if (dist >= 0)
		n += snprintf(want + n, sizeof(want) - (size_t)n, "\t%d", dist);
	if (sim >= 0)
		n += snprintf(want + n, sizeof(want) - (size_t)n, "\t%ld.%06ld",
		    sim / 1000000, sim % 1000000);
	FZ_CHECK(len == (size_t)n && memcmp(p, want, len) == 0);
}

static void
line(const char *p, size_t len)
{
	const char *a, *b, *a2, *b2;
	size_t alen, blen, alen2, blen2, olen = 0;
	uint64_t h = sh_hash64(p, len, 0);
	int dist = (int)(h % 70) - 1;
	long sim = (long)((h >> 8) % 1000002) - 1;
	sh_fpval x, y;
	char *buf = NULL;
	FILE *out;
	int r;

	r = sh_fppair_parse(p, len, &x, &y);
	FZ_CHECK(r == 0 || r == SH_EFIELDS || r == SH_EHEX);
	r = sh_pairline_parse(p, len, &a, &alen, &b, &blen);
	FZ_CHECK(r == 0 || r == SH_EFIELDS);
	if (r != 0)
		return;
	FZ_CHECK(a == p && b == a + alen + 1 && b + blen <= p + len);
	FZ_CHECK(memchr(a, '\t', alen) == NULL &&
	    memchr(b, '\t', blen) == NULL);
	out = fz_sink(&buf, &olen);
	FZ_CHECK(sh_pairline_write(out, a, alen, b, blen, dist, sim, NULL) == 0);
	fclose(out);
	FZ_CHECK(olen > 0 && buf[olen - 1] == '\n');
	FZ_CHECK(sh_pairline_parse(buf, olen - 1, &a2, &alen2, &b2,
	    &blen2) == 0);
	FZ_CHECK(alen2 == alen && memcmp(a2, a, alen) == 0);
	FZ_CHECK(blen2 == blen && memcmp(b2, b, blen) == 0);
	check_rest(b2 + blen2, (size_t)(buf + olen - 1 - (b2 + blen2)), dist,
	    sim);
	free(buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz_lines(data, size, line);
	return 0;
}

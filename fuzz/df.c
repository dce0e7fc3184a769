/*
 * Fuzz target: DF lines and files (feat/df.h).  The input is lines:
 * each is parsed, and all of them are merged as sorted DF files are
 * (sh_dfmerge); the merge of lines that are accepted must be a valid
 * DF file whose merge is itself.  The lines are also counted as
 * documents (sh_df_add): the DF file written must be valid, merge to
 * itself and load as IDF weights (feat/idf.h).
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "feat/df.h"
#include "feat/idf.h"
#include "fp/fingerprint.h"
#include "util.h"

/* Merge the lines of p[0..n) into *out, *outlen (malloc'd).  Return 0 or
 * the first error. */
static int
merge(const char *p, size_t n, char **out, size_t *outlen)
{
	struct sh_dfmerge m;
	const char *end = p + n, *nl;
	FILE *f;
	int r = 0;

	*out = NULL;
	*outlen = 0;
	f = fz_sink(out, outlen);
	sh_dfmerge_init(&m);
	for (; p < end && r == 0; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		r = sh_dfmerge_line(&m, p, (size_t)(nl - p), f);
	}
	if (r == 0)
		r = sh_dfmerge_end(&m, f);
	sh_dfmerge_free(&m);
	fclose(f);
	return r;
}

/* A DF file p[0..n): the count line, then tokens in strictly ascending
 * byte order, each counted in 1 to N documents when counted is set. */
static void
check_file(const char *p, size_t n, int counted, uint64_t *ndocs)
{
	const char *end = p + n, *nl, *tok, *prev = NULL;
	size_t tlen, plen = 0;
	uint64_t v;
	int first = 1, c;

	FZ_CHECK(n > 0 && p[n - 1] == '\n');
	for (; p < end; p = nl + 1) {
		nl = memchr(p, '\n', (size_t)(end - p));
		FZ_CHECK(sh_df_parse(p, (size_t)(nl - p), &tok, &tlen,
		    &v) == 0);
		if (first) {
			FZ_CHECK(tlen == 0);
			*ndocs = v;
			first = 0;
			continue;
		}
		FZ_CHECK(tlen > 0);
		if (counted)
			FZ_CHECK(v >= 1 && v <= *ndocs);
		if (prev != NULL) {
			c = memcmp(prev, tok, plen < tlen ? plen : tlen);
			FZ_CHECK(c < 0 || (c == 0 && plen < tlen));
		}
		prev = tok;
		plen = tlen;
	}
}

/* Merging the DF file p[0..n) gives it back. */
static void
check_merge_same(const char *p, size_t n)
{
	char *again;
	size_t alen;

	/* The merge takes lines without their ends. */
	FZ_CHECK(merge(p, n - 1, &again, &alen) == 0);
	FZ_CHECK(alen == n && memcmp(again, p, n) == 0);
	free(again);
}

/* Count the lines of p[0..n) as documents; check the file written. */
static void
count(const char *p, size_t n)
{
	struct sh_fpopt o = SH_FPOPT_V1;
	const struct sh_bag *bag;
	const char *end = p + n, *nl, *path;
	struct sh_idf *idf = NULL;
	struct sh_df *d;
	struct sh_fp *f;
	unsigned long long line;
	uint64_t ndocs = 0, docs = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	int bad;

	if ((d = sh_df_new()) == NULL || (f = sh_fp_new(&o)) == NULL)
		abort();
	for (; p < end; p = nl + 1, docs++) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		FZ_CHECK(sh_fp_features(f, p, (size_t)(nl - p), &bag,
		    &bad) == 0);
		FZ_CHECK(sh_df_add(d, bag) == 0);
	}
	out = fz_sink(&buf, &len);
	FZ_CHECK(sh_df_write(d, out) == 0);
	fclose(out);
	check_file(buf, len, 1, &ndocs);
	FZ_CHECK(ndocs == docs);
	check_merge_same(buf, len);
	path = fz_file("df", buf, len);
	FZ_CHECK(sh_idf_load(path, &idf, &line) == 0);
	fz_unlink("df");
	sh_idf_free(idf);
	free(buf);
	sh_fp_free(f);
	sh_df_free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *end = p + size, *nl, *tok;
	char *out;
	size_t tlen, olen, i;
	uint64_t v, ndocs;
	int r;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		r = sh_df_parse(p, (size_t)(nl - p), &tok, &tlen, &v);
		FZ_CHECK(r == 0 || r == SH_EDFLINE || r == SH_ERANGE);
		if (r != 0)
			continue;
		FZ_CHECK(tok == p && v <= SH_DF_MAX);
		for (i = 0; i < tlen; i++)
			FZ_CHECK((unsigned char)tok[i] > ' ');
	}
	p = (const char *)data;
	r = merge(p, size, &out, &olen);
	FZ_CHECK(r == 0 || r == SH_EDFLINE || r == SH_ERANGE ||
	    r == SH_EUNSORTED);
	if (r == 0) {
		check_file(out, olen, 0, &ndocs);
		check_merge_same(out, olen);
	}
	free(out);
	count(p, size);
	return 0;
}

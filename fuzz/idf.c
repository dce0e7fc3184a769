/*
 * Fuzz target: the IDF loader (feat/idf.h), DF files and jieba-style
 * files.  The input is the file.  A file that loads must give each word
 * the value of its last line (jieba) or the smoothed idf of its count
 * (DF), and words not in it the median (jieba) or the idf of df = 0; an
 * error names a line of the file.  The first 16 bytes also test
 * sh_idf_ln against libm.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "feat/df.h"
#include "feat/idf.h"
#include "feat/weight.h"
#include "util.h"

#define NCHECK 512	/* lines whose values are checked */

struct ent {
	uint64_t h, v;
};

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static void
check_ln(const uint8_t *p, size_t n)
{
	uint64_t a = 0, b = 0, r;
	double want;
	size_t i;

	if (n < 16)
		return;
	for (i = 0; i < 8; i++) {
		a = a << 8 | p[i];
		b = b << 8 | p[8 + i];
	}
	a += a == 0;
	b += b == 0;
	if (a < b) {
		r = a;
		a = b;
		b = r;
	}
	r = sh_idf_ln(a, b);
	want = SH_W_UNIT * (log((double)a) - log((double)b));
	FZ_CHECK(fabs((double)r - want) <= 1.0);
}

/* The entries of a file that loaded: its lines as the loader cuts them,
 * one entry a word, into e (at most NCHECK); their number, or -1 when
 * the file has more lines than that.  *df is set for a DF file. */
static int
entries(const char *p, size_t n, struct ent *e, int *df, uint64_t *ndocs)
{
	const char *end = p + n, *nl, *tok, *sp;
	size_t len, tlen, i;
	uint64_t v;
	int ne = 0, first = 1;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		len = (size_t)(nl - p);
		if (len > 0 && p[len - 1] == '\r')
			len--;
		if (len == 0)
			continue;
		if (first) {
			first = 0;
			*df = p[0] == '\t';
			if (*df) {
				FZ_CHECK(sh_df_parse(p, len, &tok, &tlen,
				    ndocs) == 0 && tlen == 0);
				continue;
			}
		}
		if (ne == NCHECK)
			return -1;
		if (*df) {
			FZ_CHECK(sh_df_parse(p, len, &tok, &tlen, &v) == 0);
			e[ne].h = sh_hash64(tok, tlen, 0);
			e[ne].v = SH_W_UNIT + sh_idf_ln(*ndocs + 1, v + 1);
		} else {
			sp = memchr(p, ' ', len);
			FZ_CHECK(sp != NULL);
			for (i = (size_t)(sp - p); i < len && p[i] == ' '; i++)
				;
			FZ_CHECK(sh_weight_parse(p + i, len - i, &v) == 0);
			e[ne].h = sh_hash64(p, (size_t)(sp - p), 0);
			e[ne].v = v;
		}
		ne++;
	}
	return ne;
}

static void
check_values(const struct sh_idf *d, const char *p, size_t n)
{
	static struct ent e[NCHECK];
	static uint64_t v[NCHECK];
	uint64_t ndocs = 0;
	int ne, nv = 0, i, j, df = 0;

	if ((ne = entries(p, n, e, &df, &ndocs)) < 0)
		return;
	for (i = 0; i < ne; i++) {
		for (j = i + 1; j < ne && e[j].h != e[i].h; j++)
			;
		if (j < ne)
			continue;	/* not the word's last line */
		FZ_CHECK(sh_idf_get(d, e[i].h) == e[i].v);
		v[nv++] = e[i].v;
	}
	if (df)
		FZ_CHECK(sh_idf_default(d) == SH_W_UNIT +
		    sh_idf_ln(ndocs + 1, 1));
	else {
		FZ_CHECK(nv > 0);
		qsort(v, (size_t)nv, sizeof(*v), cmp_u64);
		FZ_CHECK(sh_idf_default(d) == v[nv / 2]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_idf *d = NULL;
	unsigned long long line = 0, nlines = 0;
	const char *path;
	size_t i;
	int r;

	check_ln(data, size);
	for (i = 0; i < size; i++)
		nlines += data[i] == '\n';
	nlines += size > 0 && data[size - 1] != '\n';
	path = fz_file("idf", data, size);
	r = sh_idf_load(path, &d, &line);
	fz_unlink("idf");
	if (r == 0) {
		FZ_CHECK(d != NULL && line == 0);
		FZ_CHECK(sh_idf_default(d) <= SH_IDF_MAX);
		check_values(d, (const char *)data, size);
	} else {
		FZ_CHECK(d == NULL);
		FZ_CHECK(r == SH_EDFLINE || r == SH_ERANGE || r == SH_EDFN ||
		    r == SH_EIDFLINE || r == SH_ENOIDF);
		if (r == SH_ENOIDF)
			FZ_CHECK(line == 0);
		else
			FZ_CHECK(line >= 1 && line <= nlines);
	}
	sh_idf_free(d);
	return 0;
}

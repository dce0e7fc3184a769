/*
 * Stop words, IDF weights and document frequencies: the hash map, the
 * integer logarithm against libm away from rounding ties, rounding of
 * tf idf, both IDF file formats and their errors, DF lines, the merge of
 * sorted DF lines, and stop-word lists folded like text.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "feat/df.h"
#include "feat/idf.h"
#include "feat/stopword.h"
#include "rng.h"
#include "tap.h"

static char path[64];

/* Write s to a fresh temporary file named in path. */
static void
put_file(const char *s)
{
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/sh-idf-test.%ld", (long)getpid());
	if ((f = fopen(path, "w")) == NULL)
		abort();
	fputs(s, f);
	fclose(f);
}

static uint64_t
idf_of(const struct sh_idf *d, const char *tok)
{
	return sh_idf_get(d, sh_hash64(tok, strlen(tok), 0));
}

/* Load s as an IDF file; return the error, the line in *line. */
static int
load(const char *s, struct sh_idf **d, unsigned long long *line)
{
	put_file(s);
	return sh_idf_load(path, d, line);
}

/* Load s through a pipe, a file that cannot be read twice. */
static int
load_pipe(const char *s, struct sh_idf **d, unsigned long long *line)
{
	char name[32];
	int fd[2], r;

	if (strlen(s) > 65536 || pipe(fd) != 0 ||
	    write(fd[1], s, strlen(s)) != (ssize_t)strlen(s))
		abort();
	close(fd[1]);
	snprintf(name, sizeof(name), "/dev/fd/%d", fd[0]);
	r = sh_idf_load(name, d, line);
	close(fd[0]);
	return r;
}

/* A jieba file: w0..w999 weigh 1 + i / 1000; "a" weighs 5 on the first
 * line and 7 on line 501, "b" 2 on line 3 and 3 on line 5. */
static void
big_jieba(char *buf, size_t size)
{
	size_t n = 0;
	int i;

	for (i = 0; i < 1000; i++) {
		if (i == 0)
			n += (size_t)snprintf(buf + n, size - n, "a 5\n");
		if (i == 2)
			n += (size_t)snprintf(buf + n, size - n, "b 2\n");
		if (i == 4)
			n += (size_t)snprintf(buf + n, size - n, "b 3\n");
		if (i == 500)
			n += (size_t)snprintf(buf + n, size - n, "a 7\n");
		n += (size_t)snprintf(buf + n, size - n, "w%d %d.%03d\n", i,
		    1 + i / 1000, i % 1000);
	}
}

/* Merge the lines of in (one string, '\n'-separated) into out. */
static int
merge(const char *in, char *out, size_t size)
{
	struct sh_dfmerge m;
	FILE *f = tmpfile();
	const char *p, *nl;
	size_t n;
	int r = 0;

	sh_dfmerge_init(&m);
	for (p = in; r == 0 && *p != '\0'; p = nl + 1) {
		nl = strchr(p, '\n');
		r = sh_dfmerge_line(&m, p, (size_t)(nl - p), f);
	}
	if (r == 0)
		r = sh_dfmerge_end(&m, f);
	sh_dfmerge_free(&m);
	rewind(f);
	n = fread(out, 1, size - 1, f);
	out[n] = '\0';
	fclose(f);
	return r;
}

static int
stop_has(const struct sh_stop *s, const char *w)
{
	return sh_stop_has(s, sh_hash64(w, strlen(w), 0));
}

int
main(void)
{
	struct sh_hmap m = { 0 };
	struct sh_idf *d;
	struct sh_stop *s;
	unsigned long long line;
	const char *tok;
	size_t tlen;
	uint64_t a, b, v, got, worst = 0;
	uint32_t val;
	double x, frac;
	char out[256], big[20000];
	size_t nslot;
	int i, bad = 0, far = 0, bad2;

	/* The map. */
	for (i = 0; i < 100000; i++)
		if (sh_hmap_put(&m, next() | 1, (uint32_t)i) != 0)
			bad++;
	rng_state = 0x9E3779B97F4A7C15ULL;
	for (i = 0; i < 100000; i++)
		if (!sh_hmap_get(&m, next() | 1, &val) || val != (uint32_t)i)
			bad++;
	ok(bad == 0 && m.n == 100000, "map: 100000 keys put and found");
	ok(!sh_hmap_get(&m, 2, NULL) && !sh_hmap_get(&m, 0, NULL),
	    "map: absent keys, 0 included");
	sh_hmap_put(&m, 0, 7);
	sh_hmap_put(&m, 0, 8);
	sh_hmap_put(&m, 4, 1);
	sh_hmap_put(&m, 4, 2);
	ok(sh_hmap_get(&m, 0, &val) && val == 8 && sh_hmap_get(&m, 4, &val) &&
	    val == 2 && m.n == 100002, "map: key 0, a second put replaces");
	sh_hmap_free(&m);
	nslot = (sh_hmap_reserve(&m, 5000) == 0) ? m.nslot : 0;
	for (i = 0, bad = 0; i < 5000; i++)
		if (sh_hmap_put(&m, (uint64_t)i + 1, (uint32_t)i) != 0)
			bad++;
	ok(bad == 0 && nslot == 16384 && m.nslot == nslot &&
	    sh_hmap_get(&m, 5000, &val) && val == 4999 &&
	    sh_hmap_reserve(&m, 10) == 0 && m.nslot == nslot,
	    "map: reserved room for 5000 keys, no growth after");
	sh_hmap_free(&m);
	ok(!sh_hmap_get(&m, 4, NULL) && m.n == 0, "map: empty after free");

	/* The logarithm. */
	ok(sh_idf_ln(1, 1) == 0 && sh_idf_ln(2, 1) == 693 &&
	    sh_idf_ln(4, 3) == 288 && sh_idf_ln(1000000, 1) == 13816 &&
	    sh_idf_ln(1ULL << 63, 1) == 43668 && sh_idf_ln(3, 2) == 405,
	    "1000 ln(a / b): known values");
	bad = 0;
	for (i = 0; i < 1000000; i++) {
		a = next() >> (next() % 63);
		b = next() >> (next() % 64);
		if (a == 0)
			a = 1;
		if (b == 0)
			b = 1;
		if (a < b) {
			v = a;
			a = b;
			b = v;
		}
		got = sh_idf_ln(a, b);
		x = 1000 * (log((double)a) - log((double)b));
		frac = x - floor(x);
		if (fabs(frac - 0.5) > 1e-5) {
			far++;
			if (got != (uint64_t)floor(x + 0.5))
				bad++;
		}
		if (fabs((double)got - x) > 0.5 + 1e-5)
			worst++;
	}
	ok(bad == 0 && worst == 0 && far > 999000,
	    "1000 ln(a / b) rounds like libm away from ties (%d of %d)", far,
	    i);

	/* tf idf. */
	ok(sh_idf_scale(1000, 1693) == 1693 && sh_idf_scale(2000, 1288) ==
	    2576 && sh_idf_scale(1, 500) == 1 && sh_idf_scale(1, 499) == 0 &&
	    sh_idf_scale(1693, 2000) == 3386 && sh_idf_scale(0, 5) == 0,
	    "w idf rounds half up to units");

	/* DF lines. */
	ok(sh_df_parse("ab\t12", 5, &tok, &tlen, &v) == 0 && tlen == 2 &&
	    v == 12 && sh_df_parse("\t3", 2, &tok, &tlen, &v) == 0 &&
	    tlen == 0 && v == 3, "DF lines and the count line");
	ok(sh_df_parse("ab", 2, &tok, &tlen, &v) == SH_EDFLINE &&
	    sh_df_parse("ab\t", 3, &tok, &tlen, &v) == SH_EDFLINE &&
	    sh_df_parse("ab\t1x", 5, &tok, &tlen, &v) == SH_EDFLINE &&
	    sh_df_parse("a b\t1", 5, &tok, &tlen, &v) == SH_EDFLINE &&
	    sh_df_parse("ab\t-1", 5, &tok, &tlen, &v) == SH_EDFLINE &&
	    sh_df_parse("ab\t1\t2", 6, &tok, &tlen, &v) == SH_EDFLINE,
	    "bad DF lines");
	ok(sh_df_parse("a\t9223372036854775807", 21, &tok, &tlen, &v) == 0 &&
	    v == SH_DF_MAX && sh_df_parse("a\t9223372036854775808", 21, &tok,
	    &tlen, &v) == SH_ERANGE, "counts below 2^63");

	/* Merge. */
	ok(merge("\t2\n\t3\na\t1\na\t4\nab\t2\nb\t1\n", out, sizeof(out)) == 0 &&
	    strcmp(out, "\t5\na\t5\nab\t2\nb\t1\n") == 0,
	    "merge sums counts of equal tokens");
	ok(merge("", out, sizeof(out)) == 0 && strcmp(out, "\t0\n") == 0 &&
	    merge("\t4\n", out, sizeof(out)) == 0 && strcmp(out, "\t4\n") ==
	    0, "merge of nothing, of counts only");
	ok(merge("\t1\nb\t1\na\t1\n", out, sizeof(out)) == SH_EUNSORTED &&
	    merge("\t1\na\t1\n\t1\n", out, sizeof(out)) == SH_EUNSORTED &&
	    merge("\t1\nab\t1\na\t1\n", out, sizeof(out)) == SH_EUNSORTED,
	    "merge refuses unsorted lines");
	ok(merge("\t1\na\t9223372036854775807\na\t1\n", out, sizeof(out)) ==
	    SH_ERANGE, "merge: sum over 2^63 - 1");

	/* IDF files. */
	ok(load("\t3\nthe\t2\ncat\t1\nzero\t0\n", &d, &line) == 0 &&
	    idf_of(d, "the") == 1288 && idf_of(d, "cat") == 1693 &&
	    idf_of(d, "zero") == 2386 && idf_of(d, "dog") == 2386 &&
	    sh_idf_default(d) == 2386, "DF file: 1 + ln((N + 1) / (df + 1))");
	sh_idf_free(d);
	ok(load("\t0\n", &d, &line) == 0 && idf_of(d, "x") == 1000,
	    "DF file of no documents: every idf is 1");
	sh_idf_free(d);
	ok(load("b 3.5\r\na 1\n\nc 2.25\nd 9.0004\nb 4", &d, &line) == 0 &&
	    idf_of(d, "a") == 1000 && idf_of(d, "b") == 4000 &&
	    idf_of(d, "c") == 2250 && idf_of(d, "d") == 9000 &&
	    sh_idf_default(d) == 4000, "jieba file: values, CRLF, the last "
	    "of a word twice, the median (index n / 2) for the rest");
	sh_idf_free(d);
	big_jieba(big, sizeof(big));
	ok(load(big, &d, &line) == 0 && idf_of(d, "a") == 7000 &&
	    idf_of(d, "b") == 3000 && idf_of(d, "w999") == 1999,
	    "jieba file of 1000 words: the last value of a word twice, near "
	    "and far apart");
	sh_idf_free(d);
	ok(load_pipe(big, &d, &line) == 0 && idf_of(d, "a") == 7000 &&
	    idf_of(d, "b") == 3000 && idf_of(d, "w999") == 1999,
	    "the same file through a pipe, not sized ahead");
	sh_idf_free(d);
	ok(load("\t3\na\t1\nb\t4\n", &d, &line) == SH_EDFN && line == 3 &&
	    d == NULL, "DF above N: its line");
	ok(load("\t3\na 1\n", &d, &line) == SH_EDFLINE && line == 2 &&
	    load("\t3\n\t3\n", &d, &line) == SH_EDFLINE && line == 2 &&
	    load("\tx\n", &d, &line) == SH_EDFLINE && line == 1,
	    "bad DF file lines");
	ok(load("a 1\nb\n", &d, &line) == SH_EIDFLINE && line == 2 &&
	    load("a\t1\n", &d, &line) == SH_EIDFLINE && line == 1 &&
	    load("a 1\n 2\n", &d, &line) == SH_EIDFLINE && line == 2 &&
	    load("a -1\n", &d, &line) == SH_EIDFLINE && line == 1 &&
	    load("a 1001\n", &d, &line) == SH_ERANGE && line == 1,
	    "bad jieba lines; a DF file without its count line");
	ok(load("", &d, &line) == SH_ENOIDF && line == 0 &&
	    load("\n\n", &d, &line) == SH_ENOIDF, "empty IDF file");
	remove(path);
	ok(sh_idf_load(path, &d, &line) == SH_EIO && line == 0,
	    "missing IDF file");

	/* Stop words. */
	s = sh_stop_new();
	ok(sh_stop_load(s, "@en", 0, &line) == 0 && stop_has(s, "the") &&
	    stop_has(s, "and") && stop_has(s, "t") && !stop_has(s, "cat") &&
	    !stop_has(s, "的"), "@en");
	ok(sh_stop_load(s, "@zh", 0, &line) == 0 && stop_has(s, "的") &&
	    stop_has(s, "我们") && stop_has(s, "为什么") && !stop_has(s, "书"),
	    "@zh");
	ok(sh_stop_load(s, "@fr", 0, &line) == SH_EINVAL, "unknown built-in list");
	sh_stop_free(s);
	s = sh_stop_new();
	put_file("# a comment\nFoo  ＢＡＲ # baz\n\tStraße don't,\n");
	ok(sh_stop_load(s, path, 0, &line) == 0 && line == 0 &&
	    sh_stop_count(s) == 5 && stop_has(s, "foo") &&
	    stop_has(s, "bar") && stop_has(s, "strasse") &&
	    stop_has(s, "don") && stop_has(s, "t") && !stop_has(s, "baz") &&
	    !stop_has(s, "a"), "list file: folded like text, comments");
	put_file("ok\nbad\xff\n");
	ok(sh_stop_load(s, path, 0, &line) == SH_EUTF8 && line == 2,
	    "invalid UTF-8 in a list: its line");
	remove(path);
	ok(sh_stop_load(s, path, 0, &line) == SH_EIO && line == 0,
	    "missing list file");
	bad2 = 0;
	ok(sh_stop_add(s, "\xff", 1, 0, &bad2) == 0 && bad2 == 1,
	    "sh_stop_add reports invalid UTF-8");
	sh_stop_free(s);
	return tap_done();
}

#include <sys/stat.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "base/lines.h"
#include "base/num.h"
#include "feat/df.h"
#include "feat/idf.h"

struct sh_idf {
	struct sh_hmap map;
	uint64_t dflt;
};

/* SH_W_UNIT ln 2 in units of 2^-32. */
#define LN2_Q32 2977044471820ULL

/* a b / 2^64 rounded half up, without a 128-bit type. */
static uint64_t
mul_hi_round(uint64_t a, uint64_t b)
{
	uint64_t a0 = a & 0xffffffff, a1 = a >> 32;
	uint64_t b0 = b & 0xffffffff, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (p01 & 0xffffffff) + (p10 & 0xffffffff);

	return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32) +
	    ((mid >> 31) & 1);
}

uint64_t
sh_idf_ln(uint64_t a, uint64_t b)
{
	return mul_hi_round(sh_log2_q32(a) - sh_log2_q32(b), LN2_Q32);
}

uint64_t
sh_idf_scale(uint64_t w, uint64_t idf)
{
	return (w * idf + SH_W_UNIT / 2) / SH_W_UNIT;
}

uint64_t
sh_idf_get(const struct sh_idf *d, uint64_t h)
{
	uint32_t v;

	return sh_hmap_get(&d->map, h, &v) ? v : d->dflt;
}

void
sh_idf_prefetch(const struct sh_idf *d, uint64_t h)
{
	sh_hmap_prefetch(&d->map, h);
}

uint64_t
sh_idf_default(const struct sh_idf *d)
{
	return d->dflt;
}

void
sh_idf_free(struct sh_idf *d)
{
	if (d == NULL)
		return;
	sh_hmap_free(&d->map);
	free(d);
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* The median of the values, as jieba takes it: index n / 2 sorted. */
static int
median(struct sh_idf *d)
{
	const struct sh_hmap *m = &d->map;
	uint32_t *v;
	size_t i, n = 0;

	if ((v = malloc(m->n * sizeof(*v))) == NULL)
		return SH_ENOMEM;
	if (m->zero)
		v[n++] = m->zval;
	for (i = 0; i < m->nslot; i++)
		if (m->slot[i].key != 0)
			v[n++] = m->slot[i].val;
	qsort(v, n, sizeof(*v), cmp_u32);
	d->dflt = v[n / 2];
	free(v);
	return 0;
}

/* "WORD IDF": a word, spaces, a decimal. */
static int
jieba_line(const char *p, size_t len, struct sh_hmapslot *e)
{
	const char *sp;
	size_t i;
	uint64_t w;

	if ((sp = memchr(p, ' ', len)) == NULL || sp == p ||
	    memchr(p, '\t', (size_t)(sp - p)) != NULL)
		return SH_EIDFLINE;
	for (i = (size_t)(sp - p); i < len && p[i] == ' '; i++)
		;
	if (sh_weight_parse(p + i, len - i, &w) != 0)
		return SH_EIDFLINE;
	if (w > SH_IDF_MAX)
		return SH_ERANGE;
	e->key = sh_hash64(p, (size_t)(sp - p), 0);
	e->val = (uint32_t)w;
	return 0;
}

/* The idf of the small counts, most lines of a DF file, computed once. */
#define NSMALL 256

/* "TOKEN<TAB>DF" of a file of ndocs documents. */
static int
df_line(uint64_t ndocs, uint32_t *small, const char *p, size_t len,
    struct sh_hmapslot *e)
{
	const char *tok;
	size_t tlen;
	uint64_t df;
	uint32_t idf;
	int r;

	if ((r = sh_df_parse(p, len, &tok, &tlen, &df)) != 0)
		return r;
	if (tlen == 0)
		return SH_EDFLINE;
	if (df > ndocs)
		return SH_EDFN;
	if (df >= NSMALL || (idf = small[df]) == 0) {
		idf = (uint32_t)(SH_W_UNIT + sh_idf_ln(ndocs + 1, df + 1));
		if (df < NSMALL)
			small[df] = idf;
	}
	e->key = sh_hash64(tok, tlen, 0);
	e->val = idf;
	return 0;
}

enum { F_UNKNOWN, F_DF, F_JIEBA };

#define PEND 16		/* entries whose slots are being fetched */

/* The lines of f if it is a regular file, counted ahead and f rewound,
 * into *n, else 0: a hint, so that the map is sized once.  Return 0 or
 * SH_EIO (errno set): a file that fails to be read or rewound is not
 * read from where the count stopped. */
static int
count_lines(FILE *f, size_t *n)
{
	struct stat st;
	char buf[1 << 16], *p, *end;
	size_t got;

	*n = 0;
	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		return 0;
	while ((got = fread(buf, 1, sizeof(buf), f)) > 0)
		for (p = buf, end = buf + got;
		    (p = memchr(p, '\n', (size_t)(end - p))) != NULL; p++)
			++*n;
	if (ferror(f) || fseek(f, 0, SEEK_SET) != 0)
		return SH_EIO;
	return 0;
}

static int
load(struct sh_idf *d, FILE *f, unsigned long long *line)
{
	const char *tok;
	char *buf = NULL;
	size_t cap = 0, len, tlen;
	uint64_t ndocs = 0;
	uint32_t small[NSMALL] = { 0 };
	struct sh_hmapslot e, pend[PEND];
	size_t npend = 0, i;
	ssize_t n;
	int r = 0, fmt = F_UNKNOWN;

	if ((r = count_lines(f, &i)) != 0)
		return r;
	if (sh_hmap_reserve(&d->map, i) != 0)
		return SH_ENOMEM;
	/* A line cut short by a failed read is not parsed: the failure is
	 * told, while errno is its read's. */
	while ((n = getline(&buf, &cap, f)) != -1 && !ferror(f)) {
		++*line;
		len = (size_t)n;
		if (len > 0 && buf[len - 1] == '\n')
			len--;
		if (len > 0 && buf[len - 1] == '\r')
			len--;
		if (len == 0)
			continue;
		if (fmt == F_UNKNOWN && buf[0] == '\t') {
			fmt = F_DF;
			if ((r = sh_df_parse(buf, len, &tok, &tlen, &ndocs)) !=
			    0)
				break;
			/* The smoothed idf of df = 0. */
			d->dflt = SH_W_UNIT + sh_idf_ln(ndocs + 1, 1);
			continue;
		}
		if (fmt == F_UNKNOWN)
			fmt = F_JIEBA;
		if (fmt == F_DF)
			r = df_line(ndocs, small, buf, len, &e);
		else
			r = jieba_line(buf, len, &e);
		if (r != 0)
			break;
		/*
		 * Entries wait in a ring while their slots are fetched, so
		 * that the cache misses of a large file overlap; they go in
		 * in file order, the last value of a word winning.
		 */
		sh_hmap_prefetch(&d->map, e.key);
		if (npend >= PEND)
			r = sh_hmap_put(&d->map, pend[npend % PEND].key,
			    pend[npend % PEND].val);
		pend[npend++ % PEND] = e;
		if (r != 0)
			break;
	}
	for (i = npend > PEND ? npend - PEND : 0; r == 0 && i < npend; i++)
		r = sh_hmap_put(&d->map, pend[i % PEND].key,
		    pend[i % PEND].val);
	if (r == 0) {
		*line = 0;
		r = sh_lines_error(f);
		if (r == 0 && fmt == F_UNKNOWN)
			r = SH_ENOIDF;
		else if (r == 0 && fmt == F_JIEBA)
			r = median(d);
	} else if (r == SH_ENOMEM)
		*line = 0;
	free(buf);
	return r;
}

int
sh_idf_load(const char *path, struct sh_idf **out, unsigned long long *line)
{
	struct sh_idf *d;
	FILE *f;
	int r, e;

	*out = NULL;
	*line = 0;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return SH_ENOMEM;
	if ((f = fopen(path, "r")) == NULL) {
		free(d);
		return SH_EIO;
	}
	r = load(d, f, line);
	e = errno;
	fclose(f);
	errno = e;
	if (r != 0) {
		sh_idf_free(d);
		return r;
	}
	*out = d;
	return 0;
}

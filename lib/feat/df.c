#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hmap.h"
#include "feat/df.h"

#define BLOCK (64 * 1024)
#define AHEAD 8		/* features whose slot is fetched ahead */

struct dfent {
	uint64_t n;
	const char *text;	/* in a block, never moved */
	size_t len;
};

struct block {
	struct block *next;
	size_t used, cap;
	char text[];
};

struct sh_df {
	struct dfent *ent;
	size_t n, cap;
	struct sh_hmap map;	/* hash to entry number */
	struct block *blk;	/* newest first */
	uint64_t docs;
};

int
sh_df_parse(const char *p, size_t len, const char **tok, size_t *toklen,
    uint64_t *n)
{
	const char *tab;
	uint64_t v = 0;
	size_t i;

	if ((tab = memchr(p, '\t', len)) == NULL)
		return SH_EDFLINE;
	*tok = p;
	*toklen = (size_t)(tab - p);
	for (i = 0; i < *toklen; i++)
		if ((unsigned char)p[i] <= ' ')
			return SH_EDFLINE;
	i = *toklen + 1;
	if (i == len)
		return SH_EDFLINE;
	for (; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return SH_EDFLINE;
		if (v > (SH_DF_MAX - (uint64_t)(p[i] - '0')) / 10)
			return SH_ERANGE;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	*n = v;
	return 0;
}

struct sh_df *
sh_df_new(void)
{
	return calloc(1, sizeof(struct sh_df));
}

void
sh_df_free(struct sh_df *d)
{
	struct block *b, *next;

	if (d == NULL)
		return;
	for (b = d->blk; b != NULL; b = next) {
		next = b->next;
		free(b);
	}
	free(d->ent);
	sh_hmap_free(&d->map);
	free(d);
}

/* A copy of p[0..len) in the text blocks, or NULL when out of memory. */
static const char *
keep(struct sh_df *d, const char *p, size_t len)
{
	struct block *b = d->blk;
	size_t cap;
	char *t;

	if (b == NULL || b->cap - b->used < len) {
		cap = len > BLOCK ? len : BLOCK;
		if ((b = malloc(sizeof(*b) + cap)) == NULL)
			return NULL;
		b->next = d->blk;
		b->used = 0;
		b->cap = cap;
		d->blk = b;
	}
	t = b->text + b->used;
	memcpy(t, p, len);
	b->used += len;
	return t;
}

int
sh_df_add(struct sh_df *d, const struct sh_bag *bag)
{
	const struct sh_bagent *e;
	const char *text = sh_bag_text(bag);
	struct dfent *ne;
	size_t i, n;
	uint32_t j;
	int r;

	n = sh_bag_entries(bag, &e);
	d->docs++;
	for (i = 0; i < n; i++) {
		if (i + AHEAD < n)
			sh_hmap_prefetch(&d->map, e[i + AHEAD].hash);
		if (d->n < UINT32_MAX)
			r = sh_hmap_add(&d->map, e[i].hash, (uint32_t)d->n, &j);
		else if ((r = sh_hmap_get(&d->map, e[i].hash, &j)) == 0)
			return SH_ENOMEM;	/* entry numbers are 32-bit */
		if (r < 0)
			return r;
		if (r == 1) {
			d->ent[j].n++;
			continue;
		}
		if ((d->n == d->cap && sh_grow(&d->ent, &d->cap, d->n + 1,
		    sizeof(*d->ent)) != 0) ||
		    (d->ent[d->n].text = keep(d, text + e[i].off,
		    e[i].len)) == NULL) {
			sh_hmap_del(&d->map, e[i].hash);
			return SH_ENOMEM;
		}
		ne = &d->ent[d->n++];
		ne->n = 1;
		ne->len = e[i].len;
	}
	return 0;
}

static int
cmp_text(const char *a, size_t alen, const char *b, size_t blen)
{
	int c;

	if ((c = memcmp(a, b, alen < blen ? alen : blen)) != 0)
		return c;
	return (alen > blen) - (alen < blen);
}

static int
cmp_ent(const void *a, const void *b)
{
	const struct dfent *x = a, *y = b;

	return cmp_text(x->text, x->len, y->text, y->len);
}

static int
put_line(FILE *out, const char *tok, size_t len, uint64_t n)
{
	if (fwrite(tok, 1, len, out) != len ||
	    fprintf(out, "\t%llu\n", (unsigned long long)n) < 0)
		return SH_EIO;
	return 0;
}

int
sh_df_write(struct sh_df *d, FILE *out)
{
	size_t i;
	int r;

	if (d->n > 0)
		qsort(d->ent, d->n, sizeof(*d->ent), cmp_ent);
	if ((r = put_line(out, "", 0, d->docs)) != 0)
		return r;
	for (i = 0; i < d->n; i++)
		if ((r = put_line(out, d->ent[i].text, d->ent[i].len,
		    d->ent[i].n)) != 0)
			return r;
	return 0;
}

void
sh_dfmerge_init(struct sh_dfmerge *m)
{
	memset(m, 0, sizeof(*m));
}

void
sh_dfmerge_free(struct sh_dfmerge *m)
{
	free(m->tok);
	sh_dfmerge_init(m);
}

/* States: before any token (count lines are summed), then holding one. */
enum { M_COUNT, M_TOKEN };

int
sh_dfmerge_line(struct sh_dfmerge *m, const char *p, size_t len, FILE *out)
{
	const char *tok;
	size_t tlen;
	uint64_t n;
	int r, c;

	if ((r = sh_df_parse(p, len, &tok, &tlen, &n)) != 0)
		return r;
	if (tlen == 0) {
		if (m->state != M_COUNT)
			return SH_EUNSORTED;
		if (m->docs > SH_DF_MAX - n)
			return SH_ERANGE;
		m->docs += n;
		return 0;
	}
	if (m->state == M_COUNT) {
		if ((r = put_line(out, "", 0, m->docs)) != 0)
			return r;
		m->state = M_TOKEN;
		c = 1;
	} else if ((c = cmp_text(tok, tlen, m->tok, m->len)) < 0)
		return SH_EUNSORTED;
	if (c == 0) {
		if (m->n > SH_DF_MAX - n)
			return SH_ERANGE;
		m->n += n;
		return 0;
	}
	if (m->len > 0 && (r = put_line(out, m->tok, m->len, m->n)) != 0)
		return r;
	if (tlen > m->cap && sh_grow(&m->tok, &m->cap, tlen, 1) != 0)
		return SH_ENOMEM;
	memcpy(m->tok, tok, tlen);
	m->len = tlen;
	m->n = n;
	return 0;
}

int
sh_dfmerge_end(struct sh_dfmerge *m, FILE *out)
{
	if (m->state == M_COUNT)
		return put_line(out, "", 0, m->docs);
	return put_line(out, m->tok, m->len, m->n);
}

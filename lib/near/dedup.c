#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "near/dedup.h"

#define NONE 0xFFFFFFFFu

struct sh_dedup {
	struct sh_plan plan;
	sh_fpval *fp;		/* kept fingerprints */
	uint32_t n, cap;
	int logb;		/* 2^logb buckets per table, >= cap */
	uint32_t *head;		/* head[t << logb | bucket] */
	uint32_t *next;		/* next[t * cap + i] */
};

static uint32_t
bucket(const struct sh_dedup *d, int t, sh_fpval fp)
{
	uint64_t x = (fp & d->plan.tmask[t]) * 0x9E3779B97F4A7C15ULL;

	/* Mix the high bits down: a key may sit in the top of the word. */
	x ^= x >> 29;
	return (uint32_t)((x * 0xBF58476D1CE4E5B9ULL) >> (64 - d->logb));
}

struct sh_dedup *
sh_dedup_new(const struct sh_plan *plan)
{
	struct sh_dedup *d;

	if ((d = calloc(1, sizeof(*d))) == NULL)
		return NULL;
	d->plan = *plan;
	return d;
}

void
sh_dedup_free(struct sh_dedup *d)
{
	if (d == NULL)
		return;
	free(d->fp);
	free(d->head);
	free(d->next);
	free(d);
}

uint64_t
sh_dedup_kept(const struct sh_dedup *d)
{
	return d->n;
}

/* Double the capacity and rechain everything. */
static int
grow(struct sh_dedup *d)
{
	size_t T = (size_t)d->plan.ntables, nb;
	uint32_t cap = d->cap ? 2 * d->cap : 1024, i, b;
	uint32_t *head, *next;
	uint64_t *fp;
	int logb = d->logb ? d->logb + 1 : 10, t;

	if (d->cap >= 0x80000000u)
		return SH_ENOMEM;
	nb = (size_t)1 << logb;
	fp = realloc(d->fp, cap * sizeof(*fp));
	if (fp == NULL)
		return SH_ENOMEM;
	d->fp = fp;
	head = malloc(T * nb * sizeof(*head));
	next = malloc(T * cap * sizeof(*next));
	if (head == NULL || next == NULL) {
		free(head);
		free(next);
		return SH_ENOMEM;
	}
	memset(head, 0xFF, T * nb * sizeof(*head));
	free(d->head);
	free(d->next);
	d->head = head;
	d->next = next;
	d->cap = cap;
	d->logb = logb;
	for (t = 0; t < (int)T; t++)
		for (i = 0; i < d->n; i++) {
			b = bucket(d, t, d->fp[i]);
			next[(size_t)t * cap + i] = head[(size_t)t << logb | b];
			head[(size_t)t << logb | b] = i;
		}
	return 0;
}

int
sh_dedup_add(struct sh_dedup *d, sh_fpval fp)
{
	uint32_t i, b;
	size_t h;
	int t;

	for (t = 0; d->n > 0 && t < d->plan.ntables; t++) {
		b = bucket(d, t, fp);
		for (i = d->head[(size_t)t << d->logb | b]; i != NONE;
		    i = d->next[(size_t)t * d->cap + i])
			if (sh_hamming(d->fp[i], fp) <= d->plan.k)
				return 1;
	}
	if (d->n == d->cap && grow(d) != 0)
		return SH_ENOMEM;
	i = d->n++;
	d->fp[i] = fp;
	for (t = 0; t < d->plan.ntables; t++) {
		h = (size_t)t << d->logb | bucket(d, t, fp);
		d->next[(size_t)t * d->cap + i] = d->head[h];
		d->head[h] = i;
	}
	return 0;
}

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "near/fplist.h"

void
sh_fplist_init(struct sh_fplist *l)
{
	memset(l, 0, sizeof(*l));
}

void
sh_fplist_free(struct sh_fplist *l)
{
	free(l->fp);
	free(l->ids);
	free(l->idoff);
	free(l->have);
	free(l->rank);
	sh_fplist_init(l);
}

void
sh_fplist_clear(struct sh_fplist *l)
{
	l->n = 0;
	l->idlen = 0;
}

/* Room for need entries in fp and, with IDs, idoff (one more element: its
 * cap + 1).  Return 0 or SH_ENOMEM. */
static int
reserve(struct sh_fplist *l, size_t need)
{
	size_t cap = l->cap;
	void *p;

	if (need <= l->cap)
		return 0;
	if (sh_grow(&l->fp, &cap, need, sizeof(*l->fp)) != 0)
		return SH_ENOMEM;
	/* The joins read it at random. */
	sh_hugepages(l->fp, cap * sizeof(*l->fp));
	if (!l->noids) {
		if ((p = realloc(l->idoff, (cap + 1) * sizeof(*l->idoff))) ==
		    NULL)
			return SH_ENOMEM;
		l->idoff = p;
		l->idoff[0] = 0;
	}
	l->cap = cap;
	return 0;
}

int
sh_fplist_reserve(struct sh_fplist *l, size_t n)
{
	return n > SIZE_MAX / sizeof(*l->fp) - l->n ? SH_ENOMEM :
	    reserve(l, l->n + n);
}

int
sh_fplist_add(struct sh_fplist *l, sh_fpval fp, const char *id, size_t idlen)
{
	if (reserve(l, l->n + 1) != 0)
		return SH_ENOMEM;
	if (!l->noids) {
		if (l->idcap - l->idlen < idlen && sh_grow(&l->ids, &l->idcap,
		    l->idlen + idlen, 1) != 0)
			return SH_ENOMEM;
		if (idlen > 0)
			memcpy(l->ids + l->idlen, id, idlen);
		l->idlen += idlen;
		l->idoff[l->n + 1] = l->idlen;
	}
	l->fp[l->n++] = fp;
	return 0;
}

void
sh_fplist_truncate(struct sh_fplist *l, size_t n)
{
	if (n >= l->n)
		return;
	l->n = n;
	if (!l->noids && l->idoff != NULL)
		l->idlen = l->idoff[n];
}

int
sh_fplist_append(struct sh_fplist *dst, const struct sh_fplist *src)
{
	size_t i, base = dst->idlen;

	if (src->n == 0)
		return 0;
	if (reserve(dst, dst->n + src->n) != 0 || (dst->idcap - dst->idlen <
	    src->idlen && sh_grow(&dst->ids, &dst->idcap, dst->idlen +
	    src->idlen, 1) != 0))
		return SH_ENOMEM;
	memcpy(dst->fp + dst->n, src->fp, src->n * sizeof(*src->fp));
	if (src->idlen > 0)
		memcpy(dst->ids + dst->idlen, src->ids, src->idlen);
	for (i = 1; !dst->noids && i <= src->n; i++)
		dst->idoff[dst->n + i] = base + src->idoff[i];
	dst->n += src->n;
	dst->idlen += src->idlen;
	return 0;
}

int
sh_fplist_ids_for(struct sh_fplist *l, uint64_t *have)
{
	size_t w, words = (l->n + 63) / 64;
	uint32_t set = 0;

	l->have = have;
	if ((l->rank = malloc((words + 1) * sizeof(*l->rank))) == NULL)
		return SH_ENOMEM;
	for (w = 0; w < words; w++) {
		if (w == words - 1 && l->n % 64 != 0)
			have[w] &= ((uint64_t)1 << (l->n % 64)) - 1;
		l->rank[w] = set;
		set += (uint32_t)sh_hamming(have[w], 0);
	}
	l->rank[words] = set;
	free(l->idoff);
	if ((l->idoff = calloc((size_t)set + 1, sizeof(*l->idoff))) == NULL)
		return SH_ENOMEM;
	return 0;
}

void
sh_fplist_ids_done(struct sh_fplist *l, char *ids, size_t len)
{
	size_t j, slots = l->rank[(l->n + 63) / 64];

	free(l->ids);
	l->ids = ids;
	l->idlen = l->idcap = len;
	for (j = 1; j <= slots; j++)
		l->idoff[j] += l->idoff[j - 1];
}

const char *
sh_fplist_id(const struct sh_fplist *l, size_t i, size_t *len)
{
	size_t j = sh_fplist_slot(l, i);

	*len = l->idoff[j + 1] - l->idoff[j];
	return l->ids + l->idoff[j];
}

void
sh_fplist_prefetch(const struct sh_fplist *l, size_t i, int step)
{
	if (step == 0) {
		SH_PREFETCH(&l->fp[i]);
		if (l->have != NULL) {
			SH_PREFETCH(&l->have[i >> 6]);
			SH_PREFETCH(&l->rank[i >> 6]);
		} else
			SH_PREFETCH(&l->idoff[i]);
	} else if (step == 1)
		SH_PREFETCH(&l->idoff[sh_fplist_slot(l, i)]);
	else
		SH_PREFETCH(l->ids + l->idoff[sh_fplist_slot(l, i)]);
}

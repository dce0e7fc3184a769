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
	sh_fplist_init(l);
}

void
sh_fplist_clear(struct sh_fplist *l)
{
	l->n = 0;
	l->idlen = 0;
}

/* Room for need entries in fp and idoff (one more element: its cap + 1).
 * Return 0 or SH_ENOMEM. */
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
	if ((p = realloc(l->idoff, (cap + 1) * sizeof(*l->idoff))) == NULL)
		return SH_ENOMEM;
	l->idoff = p;
	l->cap = cap;
	l->idoff[0] = 0;
	return 0;
}

int
sh_fplist_add(struct sh_fplist *l, sh_fpval fp, const char *id, size_t idlen)
{
	if (reserve(l, l->n + 1) != 0 || (l->idcap - l->idlen < idlen &&
	    sh_grow(&l->ids, &l->idcap, l->idlen + idlen, 1) != 0))
		return SH_ENOMEM;
	if (idlen > 0)
		memcpy(l->ids + l->idlen, id, idlen);
	l->idlen += idlen;
	l->fp[l->n++] = fp;
	l->idoff[l->n] = l->idlen;
	return 0;
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
	for (i = 1; i <= src->n; i++)
		dst->idoff[dst->n + i] = base + src->idoff[i];
	dst->n += src->n;
	dst->idlen += src->idlen;
	return 0;
}

const char *
sh_fplist_id(const struct sh_fplist *l, size_t i, size_t *len)
{
	*len = l->idoff[i + 1] - l->idoff[i];
	return l->ids + l->idoff[i];
}

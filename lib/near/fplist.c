#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "near/fplist.h"
#include "base/hex.h"

int
sh_fpline_parse(const char *p, size_t len, uint64_t *fp, const char **id,
    size_t *idlen)
{
	const char *tab;

	if ((tab = memchr(p, '\t', len)) == NULL)
		return SH_EFIELDS;
	if (sh_hex_parse(p, (size_t)(tab - p), fp) != 0)
		return SH_EHEX;
	*id = tab + 1;
	*idlen = len - (size_t)(tab + 1 - p);
	return 0;
}

int
sh_pairline_parse(const char *p, size_t len, const char **a, size_t *alen,
    const char **b, size_t *blen)
{
	const char *tab;

	if ((tab = memchr(p, '\t', len)) == NULL)
		return SH_EFIELDS;
	*a = p;
	*alen = (size_t)(tab - p);
	*b = tab + 1;
	*blen = len - *alen - 1;
	if ((tab = memchr(*b, '\t', *blen)) != NULL)
		*blen = (size_t)(tab - *b);
	return 0;
}

int
sh_fppair_parse(const char *p, size_t len, uint64_t *a, uint64_t *b)
{
	const char *rest, *tab;
	size_t n;
	int r;

	if ((r = sh_fpline_parse(p, len, a, &rest, &n)) != 0)
		return r;
	if ((tab = memchr(rest, '\t', n)) != NULL)
		n = (size_t)(tab - rest);
	return sh_hex_parse(rest, n, b) != 0 ? SH_EHEX : 0;
}

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

int
sh_fplist_add(struct sh_fplist *l, uint64_t fp, const char *id, size_t idlen)
{
	size_t cap;
	void *p;

	if (l->n == l->cap) {
		/* idoff has one more element than fp: its cap + 1. */
		cap = l->cap;
		if (sh_grow(&l->fp, &cap, l->n + 1, sizeof(*l->fp)) != 0)
			return SH_ENOMEM;
		if ((p = realloc(l->idoff, (cap + 1) * sizeof(*l->idoff))) ==
		    NULL)
			return SH_ENOMEM;
		l->idoff = p;
		l->cap = cap;
		l->idoff[0] = 0;
	}
	if (l->idcap - l->idlen < idlen &&
	    sh_grow(&l->ids, &l->idcap, l->idlen + idlen, 1) != 0)
		return SH_ENOMEM;
	if (idlen > 0)
		memcpy(l->ids + l->idlen, id, idlen);
	l->idlen += idlen;
	l->fp[l->n++] = fp;
	l->idoff[l->n] = l->idlen;
	return 0;
}

const char *
sh_fplist_id(const struct sh_fplist *l, size_t i, size_t *len)
{
	*len = l->idoff[i + 1] - l->idoff[i];
	return l->ids + l->idoff[i];
}

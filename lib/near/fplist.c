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

int
sh_fplist_add(struct sh_fplist *l, sh_fpval fp, const char *id, size_t idlen)
{
	size_t cap;
	void *p;

	if (l->n == l->cap) {
		/* idoff has one more element than fp: its cap + 1. */
		cap = l->cap;
		if (sh_grow(&l->fp, &cap, l->n + 1, sizeof(*l->fp)) != 0)
			return SH_ENOMEM;
		/* The joins read it at random. */
		sh_hugepages(l->fp, cap * sizeof(*l->fp));
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

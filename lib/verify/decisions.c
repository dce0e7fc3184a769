#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "verify/decisions.h"

/* The second hash of an ID, of another seed. */
#define SEED2 0x9e3779b97f4a7c15ULL

/* Hashes of entry i: its ID's two, then its REP's two. */
#define H(d, i) ((d)->h + 4 * (size_t)(i))

int
sh_decisions_add(struct sh_decisions *d, struct sh_fpset *s, const char *p,
    size_t len)
{
	const char *tab = memchr(p, '\t', len), *id;
	size_t idlen, replen;
	uint64_t *v;
	uint32_t old;
	int e;

	if (tab == NULL)
		return SH_EFIELDS;
	id = tab + 1;
	idlen = len - (size_t)(id - p);
	replen = (size_t)(tab - p);
	if (replen == 0 || idlen == 0 || memchr(id, '\t', idlen) != NULL)
		return SH_EDECIDE;
	if (d->n >= UINT32_MAX - 1)
		return SH_ERANGE;
	if (d->n == d->cap) {
		if ((v = realloc(d->h, 4 * (d->cap ? 2 * d->cap : 1024) *
		    sizeof(*v))) == NULL)
			return SH_ENOMEM;
		d->h = v;
		d->cap = d->cap ? 2 * d->cap : 1024;
	}
	v = H(d, d->n);
	v[0] = sh_hash64(id, idlen, 0);
	v[1] = sh_hash64(id, idlen, SEED2);
	v[2] = sh_hash64(p, replen, 0);
	v[3] = sh_hash64(p, replen, SEED2);
	if ((e = sh_hmap_add(&d->first, v[0], (uint32_t)d->n, &old)) < 0)
		return e;
	if ((e = sh_fpset_add(s, 0, id, idlen)) != 0)
		return e;
	d->n++;
	return 0;
}

int
sh_decisions_anchors(struct sh_decisions *d, uint32_t *rep, size_t *bad)
{
	const uint64_t *v;
	size_t i, j;
	uint32_t a;

	for (i = 0; i < d->n; i++) {
		v = H(d, i);
		if (!sh_hmap_get(&d->first, v[2], &a) || H(d, a)[1] != v[3]) {
			/* Another ID shares the first hash: look further. */
			for (j = 0; j < d->n; j++)
				if (H(d, j)[0] == v[2] && H(d, j)[1] == v[3])
					break;
			if (j == d->n) {
				*bad = i;
				return SH_ENODOC;
			}
			a = (uint32_t)j;
		}
		rep[i] = a;
	}
	return 0;
}

void
sh_decisions_free(struct sh_decisions *d)
{
	sh_hmap_free(&d->first);
	free(d->h);
	memset(d, 0, sizeof(*d));
}

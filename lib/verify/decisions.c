#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "verify/decisions.h"

/* A new entry of ID id[0..len) anchored at rep (SIZE_MAX: itself) into
 * *i. */
static int
add(struct sh_decisions *d, struct sh_fpset *s, const char *id, size_t len,
    size_t rep, size_t *i)
{
	uint32_t *v;
	size_t cap;
	int e;

	if (d->n >= UINT32_MAX - 1)
		return SH_ERANGE;
	if (d->n == d->cap) {
		cap = d->cap ? 2 * d->cap : 1024;
		if ((v = realloc(d->rep, cap * sizeof(*v))) == NULL)
			return SH_ENOMEM;
		d->rep = v;
		d->cap = cap;
	}
	if ((e = sh_fpset_add(s, 0, id, len)) != 0)
		return e;
	*i = d->n++;
	d->rep[*i] = (uint32_t)(rep == SIZE_MAX ? *i : rep);
	return 0;
}

/* The first entry of ID id[0..len) into *i, added when there is none
 * (or the first of its hash has another ID). */
static int
anchor(struct sh_decisions *d, struct sh_fpset *s, const char *id,
    size_t len, size_t *i)
{
	const char *has;
	size_t haslen;
	uint64_t h = sh_hash64(id, len, 0);
	uint32_t a;
	int e;

	if (sh_hmap_get(&d->first, h, &a)) {
		if ((e = sh_fpset_id(s, a, &has, &haslen)) != 0)
			return e;
		if (haslen == len && memcmp(has, id, len) == 0) {
			*i = a;
			return 0;
		}
	}
	if ((e = add(d, s, id, len, SIZE_MAX, i)) != 0)
		return e;
	return sh_hmap_add(&d->first, h, (uint32_t)*i, &a) < 0 ?
	    SH_ENOMEM : 0;
}

int
sh_decisions_add(struct sh_decisions *d, struct sh_fpset *s,
    struct sh_docmap *m, const char *p, size_t len)
{
	const char *tab = memchr(p, '\t', len), *id;
	size_t idlen, replen, a, i;
	int e;

	if (tab == NULL)
		return SH_EFIELDS;
	id = tab + 1;
	idlen = len - (size_t)(id - p);
	replen = (size_t)(tab - p);
	if (replen == 0 || idlen == 0 || memchr(id, '\t', idlen) != NULL)
		return SH_EDECIDE;
	if (!sh_docmap_holds(m, id, idlen))
		return 0;
	if (replen == idlen && memcmp(p, id, idlen) == 0)
		return anchor(d, s, id, idlen, &i);
	if ((e = anchor(d, s, p, replen, &a)) != 0)
		return e;
	return add(d, s, id, idlen, a, &i);
}

void
sh_decisions_free(struct sh_decisions *d)
{
	sh_hmap_free(&d->first);
	free(d->rep);
	memset(d, 0, sizeof(*d));
}

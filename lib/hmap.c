#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "hmap.h"

static size_t
probe(const struct sh_hmapslot *slot, size_t nslot, uint64_t k)
{
	size_t i, mask = nslot - 1;

	for (i = (size_t)k & mask; slot[i].key != 0 && slot[i].key != k;
	    i = (i + 1) & mask)
		;
	return i;
}

static int
grow(struct sh_hmap *m)
{
	struct sh_hmapslot *ns;
	size_t nn = m->nslot ? 2 * m->nslot : 256, i;

	if ((ns = calloc(nn, sizeof(*ns))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < m->nslot; i++)
		if (m->slot[i].key != 0)
			ns[probe(ns, nn, m->slot[i].key)] = m->slot[i];
	free(m->slot);
	m->slot = ns;
	m->nslot = nn;
	return 0;
}

int
sh_hmap_put(struct sh_hmap *m, uint64_t k, uint32_t v)
{
	size_t i;

	if (k == 0) {
		m->n += !m->zero;
		m->zero = 1;
		m->zval = v;
		return 0;
	}
	if (2 * (m->n + 1) > m->nslot && grow(m) != 0)
		return SH_ENOMEM;
	i = probe(m->slot, m->nslot, k);
	if (m->slot[i].key == 0) {
		m->slot[i].key = k;
		m->n++;
	}
	m->slot[i].val = v;
	return 0;
}

int
sh_hmap_get(const struct sh_hmap *m, uint64_t k, uint32_t *v)
{
	size_t i;

	if (k == 0) {
		if (m->zero && v != NULL)
			*v = m->zval;
		return m->zero;
	}
	if (m->nslot == 0)
		return 0;
	i = probe(m->slot, m->nslot, k);
	if (m->slot[i].key == 0)
		return 0;
	if (v != NULL)
		*v = m->slot[i].val;
	return 1;
}

void
sh_hmap_prefetch(const struct sh_hmap *m, uint64_t k)
{
#if defined(__GNUC__)
	if (m->nslot > 0)
		__builtin_prefetch(&m->slot[(size_t)k & (m->nslot - 1)]);
#else
	(void)m;
	(void)k;
#endif
}

void
sh_hmap_free(struct sh_hmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

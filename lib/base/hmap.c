#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hmap.h"

static size_t
probe(const struct sh_hmapslot *slot, size_t nslot, uint64_t k)
{
	size_t i, mask = nslot - 1;

	for (i = (size_t)k & mask; slot[i].key != 0 && slot[i].key != k;
	    i = (i + 1) & mask)
		;
	return i;
}

/* Move the keys into nn slots, a power of two above twice their count. */
static int
resize(struct sh_hmap *m, size_t nn)
{
	struct sh_hmapslot *ns;
	size_t i;

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
	if (2 * (m->n + 1) > m->nslot &&
	    resize(m, m->nslot ? 2 * m->nslot : 256) != 0)
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
sh_hmap_reserve(struct sh_hmap *m, size_t n)
{
	size_t nn = m->nslot ? m->nslot : 256;

	if (n > SIZE_MAX / 4 / sizeof(*m->slot))
		return SH_ENOMEM;
	while (2 * n > nn)
		nn *= 2;
	return nn > m->nslot ? resize(m, nn) : 0;
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

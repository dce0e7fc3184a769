#include <stdlib.h>
#include <string.h>

#include "errors.h"
#include "hmap.h"

static size_t
probe(const uint64_t *key, size_t nslot, uint64_t k)
{
	size_t i, mask = nslot - 1;

	for (i = (size_t)k & mask; key[i] != 0 && key[i] != k;
	    i = (i + 1) & mask)
		;
	return i;
}

static int
grow(struct sh_hmap *m)
{
	uint64_t *nk;
	uint32_t *nv;
	size_t nn = m->nslot ? 2 * m->nslot : 256, i, j;

	nk = calloc(nn, sizeof(*nk));
	nv = malloc(nn * sizeof(*nv));
	if (nk == NULL || nv == NULL) {
		free(nk);
		free(nv);
		return SH_ENOMEM;
	}
	for (i = 0; i < m->nslot; i++)
		if (m->key[i] != 0) {
			j = probe(nk, nn, m->key[i]);
			nk[j] = m->key[i];
			nv[j] = m->val[i];
		}
	free(m->key);
	free(m->val);
	m->key = nk;
	m->val = nv;
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
	i = probe(m->key, m->nslot, k);
	if (m->key[i] == 0) {
		m->key[i] = k;
		m->n++;
	}
	m->val[i] = v;
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
	i = probe(m->key, m->nslot, k);
	if (m->key[i] == 0)
		return 0;
	if (v != NULL)
		*v = m->val[i];
	return 1;
}

void
sh_hmap_free(struct sh_hmap *m)
{
	free(m->key);
	free(m->val);
	memset(m, 0, sizeof(*m));
}

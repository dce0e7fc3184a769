#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hmap.h"

#define HMAP_HUGE (4 << 20)	/* bytes of slots from which to ask for
				 * huge pages */

/* Move the keys into nn slots, a power of two above twice their count. */
static int
resize(struct sh_hmap *m, size_t nn)
{
	struct sh_hmap t = { 0 };
	size_t i;

	if ((t.slot = calloc(nn, sizeof(*t.slot))) == NULL)
		return SH_ENOMEM;
	/* A large map is probed at random: 2 MiB pages spare a TLB miss a
	 * probe. */
	if (nn >= HMAP_HUGE / sizeof(*t.slot))
		sh_hugepages(t.slot, nn * sizeof(*t.slot));
	t.nslot = nn;
	for (i = 0; i < m->nslot; i++)
		if (m->slot[i].key != 0)
			t.slot[sh_hmap_probe(&t, m->slot[i].key)] = m->slot[i];
	free(m->slot);
	m->slot = t.slot;
	m->nslot = nn;
	return 0;
}

/* Twice the slots, or the first 256: called when one more key would
 * make the map more than half full. */
static int
grow(struct sh_hmap *m)
{
	return resize(m, m->nslot ? 2 * m->nslot : 256);
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
	i = sh_hmap_probe(m, k);
	if (m->slot[i].key == 0) {
		m->slot[i].key = k;
		m->n++;
	}
	m->slot[i].val = v;
	return 0;
}

int
sh_hmap_add_slow(struct sh_hmap *m, uint64_t k, uint32_t v, uint32_t *old)
{
	if (k == 0) {
		if (m->zero) {
			*old = m->zval;
			return 1;
		}
		m->n++;
		m->zero = 1;
		m->zval = v;
		return 0;
	}
	if (2 * (m->n + 1) > m->nslot && grow(m) != 0)
		return SH_ENOMEM;
	return sh_hmap_add(m, k, v, old);
}

int
sh_hmap_del(struct sh_hmap *m, uint64_t k)
{
	size_t i, j, mask;

	if (k == 0) {
		if (!m->zero)
			return 0;
		m->zero = 0;
		m->n--;
		return 1;
	}
	if (m->nslot == 0)
		return 0;
	i = sh_hmap_probe(m, k);
	if (m->slot[i].key == 0)
		return 0;
	/*
	 * Slot i is the hole.  A key further on in the run may fill it when
	 * the hole lies between the key's home and its slot j (cyclically):
	 * it is then found on the way from home, as before.
	 */
	mask = m->nslot - 1;
	for (j = (i + 1) & mask; m->slot[j].key != 0; j = (j + 1) & mask)
		if (((j - (size_t)m->slot[j].key) & mask) >= ((j - i) & mask)) {
			m->slot[i] = m->slot[j];
			i = j;
		}
	m->slot[i].key = 0;
	m->n--;
	return 1;
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
	i = sh_hmap_probe(m, k);
	if (m->slot[i].key == 0)
		return 0;
	if (v != NULL)
		*v = m->slot[i].val;
	return 1;
}

void
sh_hmap_prefetch(const struct sh_hmap *m, uint64_t k)
{
	if (m->nslot > 0)
		SH_PREFETCH(&m->slot[(size_t)k & (m->nslot - 1)]);
}

void
sh_hmap_clear(struct sh_hmap *m)
{
	if (m->nslot > 0)
		memset(m->slot, 0, m->nslot * sizeof(*m->slot));
	m->n = 0;
	m->zero = 0;
}

void
sh_hmap_free(struct sh_hmap *m)
{
	free(m->slot);
	memset(m, 0, sizeof(*m));
}

#define HSET_MIN 16384	/* slots at least (sh_hset in hmap.h) */
#define HSET_SHIFT 50	/* 64 - log2(HSET_MIN) */

/* Put key k, not in the set, in the first free slot from its home. */
static void
hset_put(uint64_t *slot, uint64_t *bits, size_t mask, int shift, uint64_t k)
{
	size_t i;

	for (i = (size_t)(k >> shift); bits[i >> 6] >> (i & 63) & 1;
	    i = (i + 1) & mask)
		;
	bits[i >> 6] |= (uint64_t)1 << (i & 63);
	slot[i] = k;
}

size_t
sh_hset_add_many(struct sh_hset *s, const uint64_t *h, size_t n,
    uint64_t *fresh)
{
	uint64_t *slot = s->slot, *bits = s->bits, k;
	size_t i, j, mask = s->nslot - 1, nf = 0;
	int shift = s->shift;

	for (i = 0; i < n; i++) {
		k = h[i];
		for (j = (size_t)(k >> shift); bits[j >> 6] >> (j & 63) & 1;
		    j = (j + 1) & mask)
			if (slot[j] == k)
				goto seen;
		bits[j >> 6] |= (uint64_t)1 << (j & 63);
		slot[j] = k;
		fresh[nf++] = k;
seen:		;
	}
	s->n += nf;
	return nf;
}

int
sh_hset_reserve(struct sh_hset *s, size_t more)
{
	size_t want, nb, i;
	uint64_t *slot, *bits;
	int shift;

	if (more > SIZE_MAX / 32 - s->n)
		return SH_ERANGE;
	want = 2 * (s->n + more);
	if (want <= s->nslot)
		return 0;
	for (nb = HSET_MIN, shift = HSET_SHIFT; nb < want; nb *= 2, shift--)
		;
	slot = malloc(nb * sizeof(*slot));
	bits = calloc(nb / 64, sizeof(*bits));
	if (slot == NULL || bits == NULL) {
		free(slot);
		free(bits);
		return SH_ENOMEM;
	}
	/* More slots: the keys put again. */
	for (i = 0; i < s->nslot; i++)
		if (s->bits[i >> 6] >> (i & 63) & 1)
			hset_put(slot, bits, nb - 1, shift, s->slot[i]);
	free(s->slot);
	free(s->bits);
	s->slot = slot;
	s->bits = bits;
	s->nslot = nb;
	s->shift = shift;
	return 0;
}

void
sh_hset_clear(struct sh_hset *s)
{
	if (s->nslot > HSET_MIN && s->nslot > 32 * s->n) {
		sh_hset_free(s);
		return;
	}
	if (s->bits != NULL)
		memset(s->bits, 0, s->nslot / 8);
	s->n = 0;
}

void
sh_hset_free(struct sh_hset *s)
{
	free(s->slot);
	free(s->bits);
	memset(s, 0, sizeof(*s));
}

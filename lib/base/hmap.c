#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hmap.h"

/* Move the keys into nn slots, a power of two above twice their count. */
static int
resize(struct sh_hmap *m, size_t nn)
{
	struct sh_hmap t = { 0 };
	size_t i;

	if ((t.slot = calloc(nn, sizeof(*t.slot))) == NULL)
		return SH_ENOMEM;
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

size_t
sh_hset_add_many(struct sh_hset *s, const uint64_t *h, size_t n,
    uint64_t *fresh)
{
	uint64_t *key = s->key, *bits = s->bits, k, m;
	uint32_t *next = s->next, *head = s->head, j;
	size_t i, b, nk = s->n, nf = 0;
	int shift = s->shift;

	for (i = 0; i < n; i++) {
		k = h[i];
		b = (size_t)(k >> shift);
		m = (uint64_t)1 << (b & 63);
		if (bits[b >> 6] & m) {
			for (j = head[b]; j != UINT32_MAX; j = next[j])
				if (key[j] == k)
					break;
			if (j != UINT32_MAX)
				continue;
			next[nk] = head[b];
		} else {
			bits[b >> 6] |= m;
			next[nk] = UINT32_MAX;
		}
		head[b] = (uint32_t)nk;
		key[nk++] = k;
		fresh[nf++] = k;
	}
	s->n = nk;
	return nf;
}

int
sh_hset_reserve(struct sh_hset *s, size_t more)
{
	size_t want = s->n + more, cap, nb, i, b;
	uint64_t *key, *bits;
	uint32_t *next, *head;
	int shift;

	if (more > UINT32_MAX - s->n)
		return SH_ERANGE;
	if (want > s->cap) {
		cap = 2 * want > 4096 ? 2 * want : 4096;
		if (cap > UINT32_MAX)
			cap = UINT32_MAX;
		if ((key = realloc(s->key, cap * sizeof(*key))) == NULL)
			return SH_ENOMEM;
		s->key = key;
		if ((next = realloc(s->next, cap * sizeof(*next))) == NULL)
			return SH_ENOMEM;
		s->next = next;
		s->cap = cap;
	}
	for (nb = 4096, shift = 52; nb < want; nb *= 2, shift--)
		;
	if (nb <= s->nbucket)
		return 0;
	/* More buckets: the chains made again from the keys. */
	head = malloc(nb * sizeof(*head));
	bits = calloc(nb / 64, sizeof(*bits));
	if (head == NULL || bits == NULL) {
		free(head);
		free(bits);
		return SH_ENOMEM;
	}
	free(s->head);
	free(s->bits);
	s->head = head;
	s->bits = bits;
	s->nbucket = nb;
	s->shift = shift;
	for (i = 0; i < s->n; i++) {
		b = (size_t)(s->key[i] >> shift);
		s->next[i] = bits[b >> 6] >> (b & 63) & 1 ? head[b] :
		    UINT32_MAX;
		bits[b >> 6] |= (uint64_t)1 << (b & 63);
		head[b] = (uint32_t)i;
	}
	return 0;
}

void
sh_hset_clear(struct sh_hset *s)
{
	if (s->cap > 4096 && s->cap > 16 * s->n) {
		sh_hset_free(s);
		return;
	}
	if (s->bits != NULL)
		memset(s->bits, 0, s->nbucket / 8);
	s->n = 0;
}

void
sh_hset_free(struct sh_hset *s)
{
	free(s->key);
	free(s->next);
	free(s->head);
	free(s->bits);
	memset(s, 0, sizeof(*s));
}

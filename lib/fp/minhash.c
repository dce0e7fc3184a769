#include <string.h>

#include "fp/minhash.h"

#define EMPTY (~(uint64_t)0)
#define TRIES 65536

void
sh_minhash_init(struct sh_minhash *a)
{
	memset(a->m, 0xFF, sizeof(a->m));
}

void
sh_minhash_add_many(struct sh_minhash *a, const uint64_t *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sh_minhash_add(a, h[i]);
}

/* The bin whose value empty bin i takes. */
static unsigned
probe(const struct sh_minhash *a, unsigned i)
{
	uint64_t t;
	unsigned j;

	for (t = 1; t <= TRIES; t++) {
		j = (unsigned)(sh_minhash_mix(SH_MINHASH_PROBE ^
		    ((uint64_t)i << 32 | t)) >> 57);
		if (a->m[j] != EMPTY)
			return j;
	}
	for (j = (i + 1) % SH_SK_K; a->m[j] == EMPTY; j = (j + 1) % SH_SK_K)
		;
	return j;
}

int
sh_minhash_final(const struct sh_minhash *a, struct sh_sketch *s)
{
	unsigned i, empty = 0;

	for (i = 0; i < SH_SK_K; i++) {
		s->v[i] = (uint16_t)a->m[i];
		empty += a->m[i] == EMPTY;
	}
	if (empty == SH_SK_K) {
		memset(s, 0, sizeof(*s));
		return 0;
	}
	for (i = 0; empty > 0 && i < SH_SK_K; i++)
		if (a->m[i] == EMPTY) {
			s->v[i] = (uint16_t)a->m[probe(a, i)];
			empty--;
		}
	return 1;
}

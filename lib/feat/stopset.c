#include <stdlib.h>

#include "base/errors.h"
#include "base/hmap.h"
#include "feat/stopset.h"

/* A bit per 2^-13 of the hash space, set for each entry: most features
 * are told apart from the stop words by one load, in 1 KB. */
#define FILTER_BITS 13

struct sh_stop {
	struct sh_hmap set;	/* values unused */
	uint64_t filter[(1 << FILTER_BITS) / 64];
};

/* The filter bit of hash h: its top bits, which the map does not use. */
#define FBIT(h) ((h) >> (64 - FILTER_BITS))

struct sh_stop *
sh_stop_new(void)
{
	return calloc(1, sizeof(struct sh_stop));
}

void
sh_stop_free(struct sh_stop *s)
{
	if (s == NULL)
		return;
	sh_hmap_free(&s->set);
	free(s);
}

int
sh_stop_put(struct sh_stop *s, uint64_t h)
{
	if (sh_hmap_put(&s->set, h, 0) != 0)
		return SH_ENOMEM;
	s->filter[FBIT(h) / 64] |= 1ULL << FBIT(h) % 64;
	return 0;
}

int
sh_stop_has(const struct sh_stop *s, uint64_t h)
{
	return (s->filter[FBIT(h) / 64] >> FBIT(h) % 64 & 1) &&
	    sh_hmap_get(&s->set, h, NULL);
}

size_t
sh_stop_count(const struct sh_stop *s)
{
	return s->set.n;
}

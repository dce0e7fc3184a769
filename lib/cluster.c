#include "cluster.h"

static uint32_t
find(uint32_t *up, uint32_t i)
{
	while (up[i] != i) {
		up[i] = up[up[i]];
		i = up[i];
	}
	return i;
}

void
sh_cluster(size_t n, const struct sh_pairs *p, uint32_t *rep)
{
	uint32_t a, b;
	size_t i;

	for (i = 0; i < n; i++)
		rep[i] = (uint32_t)i;
	for (i = 0; i < p->n; i++) {
		a = find(rep, (uint32_t)(p->v[i] >> 32));
		b = find(rep, (uint32_t)p->v[i]);
		/* The smaller root survives: roots are component minima. */
		if (a < b)
			rep[b] = a;
		else if (b < a)
			rep[a] = b;
	}
	for (i = 0; i < n; i++)
		rep[i] = find(rep, (uint32_t)i);
}

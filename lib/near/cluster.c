#include "near/cluster.h"

uint32_t
sh_cluster_find(uint32_t *up, uint32_t i)
{
	while (up[i] != i) {
		up[i] = up[up[i]];
		i = up[i];
	}
	return i;
}

void
sh_cluster_start(size_t n, uint32_t *rep)
{
	size_t i;

	for (i = 0; i < n; i++)
		rep[i] = (uint32_t)i;
}

void
sh_cluster_union(uint32_t *rep, uint32_t a, uint32_t b)
{
	a = sh_cluster_find(rep, a);
	b = sh_cluster_find(rep, b);
	/* The smaller root survives: roots are component minima. */
	if (a < b)
		rep[b] = a;
	else if (b < a)
		rep[a] = b;
}

void
sh_cluster_finish(size_t n, uint32_t *rep)
{
	size_t i;

	for (i = 0; i < n; i++)
		rep[i] = sh_cluster_find(rep, (uint32_t)i);
}

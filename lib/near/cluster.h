/*
 * Connected components of the "within distance k" graph.
 */
#ifndef SH_CLUSTER_H
#define SH_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Union-find over indices 0..n, with path halving, no memory beyond rep:
 * start, join a and b for every edge, then finish to set every rep[i] to
 * the smallest index of i's connected component.
 */
void sh_cluster_start(size_t n, uint32_t *rep);
void sh_cluster_union(uint32_t *rep, uint32_t a, uint32_t b);
void sh_cluster_finish(size_t n, uint32_t *rep);

/* The root of i's component so far (between start and finish). */
uint32_t sh_cluster_find(uint32_t *rep, uint32_t i);

#endif

/*
 * Connected components of the "within distance k" graph.
 */
#ifndef SH_CLUSTER_H
#define SH_CLUSTER_H

#include <stddef.h>
#include <stdint.h>

#include "join.h"

/*
 * Set rep[i], for i in 0..n, to the smallest index of i's connected
 * component in the graph whose edges are the pairs p (indices below n).
 * Union-find with path halving; O((n + pairs) alpha(n)) time, no memory
 * beyond rep.
 */
void sh_cluster(size_t n, const struct sh_pairs *p, uint32_t *rep);

/* The same, one edge at a time: start, join a and b for every pair, then
 * finish to set every rep[i] to its component's smallest index. */
void sh_cluster_start(size_t n, uint32_t *rep);
void sh_cluster_union(uint32_t *rep, uint32_t a, uint32_t b);
void sh_cluster_finish(size_t n, uint32_t *rep);

#endif

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "near/cluster.h"
#include "verify/groups.h"

#define NONE ((size_t)-1)

/* Entries cut ahead at a time: their members' documents. */
#define AHEAD 4096

/* Whether entries a and b match: 1, 0, or an error of the set. */
static int
verified(struct sh_matcher *mt, struct sh_fpset *s, uint32_t a, uint32_t b)
{
	struct sh_match m;

	if (mt->vf == NULL)
		return 1;
	return a < b ? sh_match_pair(mt, s, a, b, &m) :
	    sh_match_pair(mt, s, b, a, &m);
}

/* The components of a group so far: component c holds the members at
 * positions head[c], next[head[c]], ... up to tail[c]. */
struct comps {
	size_t *head, *tail, *next;
	size_t n;
};

/* Append the list of component c to that of component into, and drop c. */
static void
merge(struct comps *k, size_t into, size_t c)
{
	k->next[k->tail[into]] = k->head[c];
	k->tail[into] = k->tail[c];
	memmove(k->head + c, k->head + c + 1, (k->n - c - 1) *
	    sizeof(*k->head));
	memmove(k->tail + c, k->tail + c + 1, (k->n - c - 1) *
	    sizeof(*k->tail));
	k->n--;
}

/* The members e[0..m) of one group, verified into the components rep. */
static int
group(struct sh_matcher *mt, struct sh_fpset *s, const uint32_t *e,
    size_t m, uint32_t *rep, struct comps *k)
{
	size_t i, c, p, in;
	uint32_t x;
	int r;

	k->n = 0;
	for (i = 0; i < m; i++) {
		x = e[i];
		in = NONE;	/* the component x joined */
		for (c = 0; c < k->n; c++) {
			r = 0;
			if (sh_cluster_find(rep, e[k->head[c]]) ==
			    sh_cluster_find(rep, x))
				r = 1;
			for (p = k->head[c]; r == 0 && p != NONE; p = k->next[p])
				if ((r = verified(mt, s, e[p], x)) < 0)
					return r;
				else if (r > 0)
					sh_cluster_union(rep, e[p], x);
			if (r == 0)
				continue;
			if (in == NONE)
				in = c;
			else
				merge(k, in, c--);
		}
		k->next[i] = NONE;
		if (in == NONE) {
			in = k->n++;
			k->head[in] = i;
		} else
			k->next[k->tail[in]] = i;
		k->tail[in] = i;
	}
	return 0;
}

int
sh_groups_clusters(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, uint32_t *rep)
{
	struct comps k = { NULL, NULL, NULL, 0 };
	size_t i, j, m, most = 0;
	int e = 0;

	sh_cluster_start(sh_fpset_n(s), rep);
	for (i = 0; i < g->ng; i++)
		if (g->at[i + 1] - g->at[i] > most)
			most = g->at[i + 1] - g->at[i];
	if (most > 0 && ((k.head = malloc(most * sizeof(*k.head))) == NULL ||
	    (k.tail = malloc(most * sizeof(*k.tail))) == NULL ||
	    (k.next = malloc(most * sizeof(*k.next))) == NULL))
		e = SH_ENOMEM;
	for (i = 0; e == 0 && i < g->ng; i = j) {
		/* The documents of the next groups, cut ahead. */
		for (j = i, m = 0; j < g->ng && (m == 0 || m + g->at[j + 1] -
		    g->at[j] <= AHEAD); j++)
			m += g->at[j + 1] - g->at[j];
		if (mt->vf != NULL)
			sh_match_ahead(mt->vf, s, g->e + g->at[i], m);
		for (; i < j && e == 0; i++)
			e = group(mt, s, g->e + g->at[i], g->at[i + 1] -
			    g->at[i], rep, &k);
	}
	sh_cluster_finish(sh_fpset_n(s), rep);
	free(k.head);
	free(k.tail);
	free(k.next);
	return e;
}

int
sh_groups_write(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, FILE *out)
{
	uint32_t *rep;
	int e;

	if ((rep = malloc(sh_fpset_n(s) * sizeof(*rep) + 1)) == NULL)
		return SH_ENOMEM;
	if ((e = sh_groups_clusters(mt, s, g, rep)) == 0)
		e = sh_match_write_clusters(s, rep, out);
	free(rep);
	return e;
}

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

/* The groups of each entry: entry x is at the positions (in g->e)
 * pos[off[x] .. off[x + 1]), in the order of the groups. */
static int
positions(const struct sh_bandgroups *g, size_t n, size_t **off,
    size_t **pos)
{
	size_t i, *o, *p;

	if ((o = calloc(n + 1, sizeof(*o))) == NULL ||
	    (p = malloc((g->n + 1) * sizeof(*p))) == NULL) {
		free(o);
		return SH_ENOMEM;
	}
	for (i = 0; i < g->n; i++)
		o[g->e[i] + 1]++;
	for (i = 0; i < n; i++)
		o[i + 1] += o[i];
	for (i = 0; i < g->n; i++)
		p[o[g->e[i]]++] = i;
	for (i = n; i > 0; i--)
		o[i] = o[i - 1];
	o[0] = 0;
	*off = o;
	*pos = p;
	return 0;
}

int
sh_groups_firsts(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, uint8_t *kept)
{
	size_t n = sh_fpset_n(s), *off = NULL, *pos = NULL, *head, *tail,
	    *next = NULL, x, y, i, p, q;
	uint32_t *grp = NULL, *want = NULL, w;
	int e, r = 0;

	if (g->ng >= 0xFFFFFFFF)
		return SH_ERANGE;
	head = tail = NULL;
	if ((e = positions(g, n, &off, &pos)) != 0 ||
	    (grp = malloc((g->n + 1) * sizeof(*grp))) == NULL ||
	    (next = malloc((g->n + 1) * sizeof(*next))) == NULL ||
	    (head = malloc((g->ng + 1) * sizeof(*head))) == NULL ||
	    (tail = malloc((g->ng + 1) * sizeof(*tail))) == NULL ||
	    (want = malloc(2 * AHEAD * sizeof(*want))) == NULL) {
		e = SH_ENOMEM;
		goto out;
	}
	for (i = 0; i < g->ng; i++) {
		head[i] = NONE;
		for (p = g->at[i]; p < g->at[i + 1]; p++)
			grp[p] = (uint32_t)i;
	}
	for (x = 0; x < n && e == 0; x++) {
		if (x % AHEAD == 0 && mt->vf != NULL) {
			/* These entries and the first kept of their groups. */
			for (w = 0, y = x; y < n && y < x + AHEAD; y++) {
				want[w++] = (uint32_t)y;
				for (i = off[y]; i < off[y + 1] && w < 2 * AHEAD;
				    i++)
					if (head[grp[pos[i]]] != NONE)
						want[w++] = g->e[head[grp[pos[i]]]];
				if (w > AHEAD)
					break;
			}
			sh_match_ahead(mt->vf, s, want, w);
		}
		for (i = off[x]; i < off[x + 1] && kept[x] && e == 0; i++)
			for (q = head[grp[pos[i]]]; q != NONE; q = next[q]) {
				if ((r = verified(mt, s, g->e[q],
				    (uint32_t)x)) < 0) {
					e = r;
					break;
				}
				if (r > 0) {
					kept[x] = 0;
					break;
				}
			}
		for (i = off[x]; i < off[x + 1] && kept[x]; i++) {
			p = pos[i];
			next[p] = NONE;
			if (head[grp[p]] == NONE)
				head[grp[p]] = p;
			else
				next[tail[grp[p]]] = p;
			tail[grp[p]] = p;
		}
	}
out:
	free(off);
	free(pos);
	free(grp);
	free(next);
	free(head);
	free(tail);
	free(want);
	return e;
}

int
sh_groups_write(struct sh_matcher *mt, struct sh_fpset *s,
    const struct sh_bandgroups *g, int clusters,
    const struct sh_ixlook *lk, struct sh_linestore *lines, FILE *out)
{
	size_t n = sh_fpset_n(s);
	uint32_t *rep = NULL;
	uint8_t *kept = NULL;
	int e;

	if (clusters) {
		if ((rep = malloc(n * sizeof(*rep) + 1)) == NULL)
			return SH_ENOMEM;
		if ((e = sh_groups_clusters(mt, s, g, rep)) == 0)
			e = sh_match_write_clusters(s, rep, out);
	} else {
		if ((kept = malloc(n + 1)) == NULL)
			return SH_ENOMEM;
		if ((e = sh_match_unindexed(mt, s, lk, lines, kept)) == 0 &&
		    (e = sh_groups_firsts(mt, s, g, kept)) == 0)
			e = sh_match_write_kept(lines, kept, out);
	}
	free(rep);
	free(kept);
	return e;
}

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/radix.h"
#include "near/classes.h"
#include "near/cluster.h"
#include "near/join.h"

void
sh_classes_free(struct sh_classes *c)
{
	free(c->cls);
	free(c->first);
	free(c->mem);
	free(c->nat);
	free(c->nb);
	memset(c, 0, sizeof(*c));
}

/* The neighbours of nc classes from the pairs p[0..np) (i << 32 | j,
 * i < j, ascending): each list ascending, as the pairs come. */
static int
neighbours(struct sh_classes *c, const uint64_t *p, size_t np)
{
	size_t i, *at;
	uint32_t a, b;

	if ((c->nat = calloc(c->nc + 2, sizeof(*c->nat))) == NULL ||
	    (c->nb = malloc(2 * np * sizeof(*c->nb) + 1)) == NULL)
		return SH_ENOMEM;
	at = c->nat + 1;
	for (i = 0; i < np; i++) {
		at[p[i] >> 32]++;
		at[(uint32_t)p[i]]++;
	}
	for (i = 1; i < c->nc; i++)
		at[i] += at[i - 1];
	/* at[c] now ends class c's list; fill it from the start. */
	for (i = c->nc; i > 0; i--)
		at[i - 1] = i > 1 ? at[i - 2] : 0;
	for (i = 0; i < np; i++) {
		a = (uint32_t)(p[i] >> 32);
		b = (uint32_t)p[i];
		c->nb[at[a]++] = b;
		c->nb[at[b]++] = a;
	}
	/* at[c] is the end of class c's list: nat[c + 1]. */
	c->nat[0] = 0;
	return 0;
}

int
sh_classes_join(struct sh_classes *c, const sh_fpval *fp, size_t n,
    const struct sh_plan *plan, int nthreads, const struct sh_progress *pg)
{
	struct sh_kv *kv;
	struct sh_pairs pairs = { NULL, 0, 0 };
	sh_fpval *u = NULL;
	size_t i, nc;
	int e = SH_ENOMEM;

	memset(c, 0, sizeof(*c));
	if (n >= 0xFFFFFFFF)
		return SH_ERANGE;
	c->n = n;
	if ((kv = malloc(n * sizeof(*kv) + 1)) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < n; i++) {
		kv[i].k = fp[i];
		kv[i].i = (uint32_t)i;
	}
	qsort(kv, n, sizeof(*kv), sh_kv_cmp);
	for (i = nc = 0; i < n; i++)
		nc += i == 0 || kv[i].k != kv[i - 1].k;
	c->nc = nc;
	if ((c->cls = malloc(n * sizeof(*c->cls) + 1)) == NULL ||
	    (c->mem = malloc(n * sizeof(*c->mem) + 1)) == NULL ||
	    (c->first = malloc((nc + 1) * sizeof(*c->first))) == NULL ||
	    (u = malloc(nc * sizeof(*u) + 1)) == NULL)
		goto out;
	for (i = nc = 0; i < n; i++) {
		if (i == 0 || kv[i].k != kv[i - 1].k) {
			c->first[nc] = (uint32_t)i;
			u[nc++] = kv[i].k;
		}
		c->mem[i] = kv[i].i;
		c->cls[kv[i].i] = (uint32_t)(nc - 1);
	}
	c->first[nc] = (uint32_t)n;
	free(kv);
	kv = NULL;
	if ((e = sh_join(u, nc, plan, nthreads, NULL, pg, &pairs)) == 0)
		e = neighbours(c, pairs.v, pairs.n);
out:
	free(kv);
	free(u);
	free(pairs.v);
	if (e != 0)
		sh_classes_free(c);
	return e;
}

int
sh_classes_pairs(struct sh_classes *c, struct sh_fpset *s)
{
	struct sh_pairs pairs = { NULL, 0, 0 };
	uint32_t a, b;
	int e, dist;

	memset(c, 0, sizeof(*c));
	if ((c->n = c->nc = sh_fpset_n(s)) >= 0xFFFFFFFF)
		return SH_ERANGE;
	while ((e = sh_fpset_next(s, &a, &b, &dist)) > 0)
		if ((e = sh_pairs_add(&pairs, (uint64_t)a << 32 | b)) != 0)
			break;
	if (e == 0)
		e = neighbours(c, pairs.v, pairs.n);
	free(pairs.v);
	if (e != 0)
		sh_classes_free(c);
	return e;
}

void
sh_classes_components(const struct sh_classes *c, uint32_t *rep)
{
	size_t i, j;

	sh_cluster_start(c->n, rep);
	for (i = 0; i < c->nc; i++) {
		for (j = c->nat[i]; j < c->nat[i + 1]; j++)
			if (c->nb[j] > i)
				sh_cluster_union(rep, c->cls != NULL ?
				    c->mem[c->first[i]] : (uint32_t)i,
				    c->cls != NULL ? c->mem[c->first[c->nb[j]]] :
				    c->nb[j]);
		if (c->cls != NULL)
			for (j = c->first[i] + 1; j < c->first[i + 1]; j++)
				sh_cluster_union(rep, c->mem[c->first[i]],
				    c->mem[j]);
	}
	sh_cluster_finish(c->n, rep);
}

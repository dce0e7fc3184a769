#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "near/classes.h"
#include "verify/groups.h"
#include "verify/keep.h"
#include "keep.h"
#include "usage.h"

int
keepopt_mode(struct keepopt *ko, int ch)
{
	if (ch == 'g' && ko->mode == 'g')
		ko->components = 1;
	ko->mode = ch;
	return ch;
}

int
keepopt_set(struct keepopt *ko, int ch, const char *arg)
{
	if (ch == 'Z') {
		clean_set(&ko->z, arg);
		return 1;
	}
	if (figopt_set(&ko->fig, ch, arg))
		return 1;
	if (ch != 'Y')
		return 0;
	if (strcmp(arg, "first") == 0)
		ko->rule = KEEP_FIRST;
	else if (strcmp(arg, "longest") == 0)
		ko->rule = KEEP_LONGEST;
	else
		errx(2, "-Y %s: not first or longest", arg);
	return 1;
}

void
keepopt_check(struct keepopt *ko, const struct vdocs *vd, int recmode)
{
	clean_open(&ko->z, ko->mode, ko->components, vd, recmode);
	figopt_check(&ko->fig, ko->mode, ko->components, vd, ko->z.path);
}

/* Whether entry i of s meets another one: of its class or a neighbour,
 * or a member of a group. */
static int
meets(const struct sh_classes *c, const uint8_t *grouped, size_t i)
{
	uint32_t cl;

	if (grouped != NULL)
		return grouped[i];
	cl = sh_classes_of(c, i);
	return c->nat[cl] < c->nat[cl + 1] || (c->cls != NULL &&
	    c->first[cl + 1] - c->first[cl] > 1);
}

/* -Y longest: the rank of each entry that meets another, the length of
 * its text in m (NaN, last, for an ID m has not); 0 for the others,
 * never compared. */
static double *
lengths(struct sh_fpset *s, struct sh_docmap *m, const struct sh_classes *c,
    const struct sh_bandgroups *g)
{
	struct sh_rec rec;
	const char *id;
	size_t i, n = sh_fpset_n(s), len;
	uint8_t *grouped = NULL;
	double *rank;
	int e;

	if ((rank = malloc(n * sizeof(*rank) + 1)) == NULL ||
	    (g != NULL && (grouped = calloc(n + 1, 1)) == NULL))
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	for (i = 0; g != NULL && i < g->n; i++)
		grouped[g->e[i]] = 1;
	for (i = 0; i < n; i++) {
		rank[i] = 0;
		if (!meets(c, grouped, i))
			continue;
		if ((e = sh_fpset_id(s, i, &id, &len)) != 0)
			fpjoin_fail(s, e);
		if ((e = sh_docmap_get(m, id, len, &rec)) < 0)
			errx(2, "-Y: %.*s: %s", (int)len, id, sh_strerror(e));
		rank[i] = e == 1 ? (double)rec.len : NAN;
	}
	free(grouped);
	return rank;
}

int
keep_run(struct keepopt *ko, struct sh_fpset *s,
    struct fpjoin_opt *jo, struct sh_matcher *mt,
    const struct sh_ixlook *lk, struct sh_linestore *lines,
    struct sh_docmap *docs, int n, char *const name[], int *status)
{
	struct sh_classes c = { 0, 0, NULL, NULL, NULL, NULL, NULL };
	struct sh_bandgroups groups = { NULL, 0, 0, NULL, 0, 0 };
	uint32_t *rep = NULL;
	uint8_t *kept = NULL;
	double *rank = NULL;
	size_t i, m;
	int e, route;

	jo->groups = &groups;
	jo->classes = ko->components && mt->vf != NULL ? NULL : &c;
	route = fpjoin_pairs(s, ko->mode == 'u' ? lines : NULL, jo, n, name,
	    status);
	if (ko->components && ko->rule != KEEP_FIRST)
		errx(2, "-Y: not with -gg, whose REP is the first member");
	if (ko->components && route == 2) {
		/* Unverified: the components of the classes. */
		if ((rep = malloc(sh_fpset_n(s) * sizeof(*rep) + 1)) == NULL)
			return SH_ENOMEM;
		sh_classes_components(&c, rep);
		e = sh_match_write_clusters(s, rep, stdout);
		sh_classes_free(&c);
		free(rep);
		return e;
	}
	if (ko->components) {
		e = route == 1 ? sh_groups_write(mt, s, &groups, 1, lk, lines,
		    stdout) : (int)sh_match_write(mt, s, 1, stdout);
		sh_bandgroups_free(&groups);
		return e < 0 ? e : 0;
	}
	m = sh_fpset_n(s);
	if ((rep = malloc(m * sizeof(*rep) + 1)) == NULL ||
	    (kept = malloc(m + 1)) == NULL)
		e = SH_ENOMEM;
	else if (route == 0)
		e = sh_classes_pairs(&c, s);
	else
		e = 0;
	*lk->where = '\0';
	if (e == 0 && ko->mode == 'u')
		e = sh_match_unindexed(mt, s, lk, lines, kept);
	for (i = 0; e == 0 && i < m; i++)
		rep[i] = ko->mode == 'u' && !kept[i] ? SH_KEEP_OUT : 0;
	if (e == 0 && ko->rule == KEEP_LONGEST)
		rank = lengths(s, docs, &c, route == 1 ? &groups : NULL);
	if (e == 0)
		e = route == 1 ? sh_keep_groups(mt, s, &groups, rank, rep) :
		    sh_keep_classes(mt, s, &c, rank, rep);
	if (e == 0)
		clean_write(&ko->z, s, rep);
	if (e == 0)
		figures_write(&ko->fig, ko->mode, s, rep, mt);
	/* -g: each line with the copy it stays with; -u: those kept. */
	if (e == 0 && ko->mode == 'g')
		e = sh_match_write_clusters(s, rep, stdout);
	else if (e == 0) {
		for (i = 0; i < m; i++)
			kept[i] = rep[i] == i;
		e = sh_match_write_kept(lines, kept, stdout);
	}
	sh_classes_free(&c);
	sh_bandgroups_free(&groups);
	free(rep);
	free(kept);
	free(rank);
	return e;
}

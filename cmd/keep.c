#include <err.h>
#include <stdio.h>
#include <stdlib.h>

#include "base/errors.h"
#include "near/classes.h"
#include "verify/groups.h"
#include "verify/keep.h"
#include "keep.h"

int
keepopt_mode(struct keepopt *ko, int ch)
{
	if (ch == 'g' && ko->mode == 'g')
		ko->components = 1;
	ko->mode = ch;
	return ch;
}

/* -u: the lines of the entries kept. */
static int
write_kept(struct sh_linestore *lines, const uint32_t *rep, size_t n)
{
	const char *p;
	size_t i, len;
	int e;

	for (i = 0; i < n; i++)
		if (rep[i] == i) {
			if ((e = sh_linestore_get(lines, i, &p, &len)) != 0)
				return e;
			if (fwrite(p, 1, len, stdout) != len ||
			    putchar('\n') == EOF)
				return SH_EIO;
		}
	return 0;
}

int
keep_run(const struct keepopt *ko, struct sh_fpset *s,
    struct fpjoin_opt *jo, struct sh_matcher *mt,
    const struct sh_ixlook *lk, struct sh_linestore *lines, int n,
    char *const name[], int *status)
{
	struct sh_classes c = { 0, 0, NULL, NULL, NULL, NULL, NULL };
	struct sh_bandgroups groups = { NULL, 0, 0, NULL, 0, 0 };
	uint32_t *rep = NULL;
	uint8_t *kept = NULL;
	size_t i, m;
	int e, route;

	jo->groups = &groups;
	jo->classes = ko->components && mt->vf != NULL ? NULL : &c;
	route = fpjoin_pairs(s, ko->mode == 'u' ? lines : NULL, jo, n, name,
	    status);
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
	if (e == 0)
		e = route == 1 ? sh_keep_groups(mt, s, &groups, NULL, rep) :
		    sh_keep_classes(mt, s, &c, NULL, rep);
	if (e == 0)
		e = ko->mode == 'g' ? sh_keep_write(s, rep, stdout) :
		    write_kept(lines, rep, m);
	sh_classes_free(&c);
	sh_bandgroups_free(&groups);
	free(rep);
	free(kept);
	return e;
}

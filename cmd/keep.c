#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "near/classes.h"
#include "text/recfield.h"
#include "verify/decisions.h"
#include "verify/groups.h"
#include "verify/keep.h"
#include "input.h"
#include "keep.h"
#include "usage.h"

int
keepopt_mode(struct keepopt *ko, int ch)
{
	if (ch == 'E') {
		ko->decided = 1;
		ch = 'g';
	}
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
	ko->rulearg = arg;
	ko->field = NULL;
	if (strcmp(arg, "first") == 0)
		ko->rule = KEEP_FIRST;
	else if (strcmp(arg, "longest") == 0)
		ko->rule = KEEP_LONGEST;
	else if (strcmp(arg, "newest") == 0)
		ko->rule = KEEP_NEWEST;
	else if (strncmp(arg, "newest:", 7) == 0 && arg[7] != '\0') {
		ko->rule = KEEP_NEWEST;
		ko->field = arg + 7;
	} else if (strncmp(arg, "max:", 4) == 0 && arg[4] != '\0') {
		ko->rule = KEEP_MAX;
		ko->field = arg + 4;
	} else
		errx(2, "-Y %s: not first, longest, newest, newest:FIELD or "
		    "max:FIELD", arg);
	return 1;
}

void
keepopt_check(struct keepopt *ko, const struct vdocs *vd, int recmode)
{
	const char *y = ko->rulearg, *q;

	/* -E decides nothing: the letters of deciding are not for it. */
	for (q = usage_given(); ko->decided && *q != '\0'; q++)
		if (strchr("BJKLPRSYagikmru", *q) != NULL)
			usage_conflict('E', *q);
	if (ko->decided && ko->z.path[0] == NULL)
		usage_only('E', "-Z");
	if (ko->decided && (recmode == SH_REC_LINE || recmode == SH_REC_PARA))
		errx(2, "-E: the IDs of lines and paragraphs are their "
		    "numbers in a file, which decisions over several files "
		    "cannot name: give the records IDs (-f tab, jsonl, warc)");
	ko->vd = vd;
	if (ko->rule == KEEP_NEWEST && ko->field == NULL &&
	    recmode == SH_REC_WARC)
		ko->field = "WARC-Date";
	if (ko->rule >= KEEP_NEWEST) {
		if (recmode != SH_REC_WARC && recmode != SH_REC_JSON &&
		    recmode != SH_REC_TAB && recmode != SH_REC_NUL)
			errx(2, "-Y %s: the %s framing has no fields", y,
			    sh_rec_modename(recmode));
		if (ko->field == NULL)
			errx(2, "-Y newest: name the field of the date: "
			    "newest:FIELD");
		if (!sh_recfield_named(recmode, ko->field))
			errx(2, "-Y %s: %s: not a column's number (the ID is "
			    "column 1)", y, ko->field);
		clean_again(vd, recmode, "-Y", "for their fields");
	}
	clean_open(&ko->z, ko->mode, ko->components, vd, recmode);
	/* What is read again is decoded once. */
	if (ko->z.path[0] != NULL || ko->rule >= KEEP_NEWEST)
		input_spool(1);
	figopt_check(&ko->fig, ko->mode, ko->components, vd, ko->z.path);
}

/* -E: the decisions read, into set s, for the documents of m. */
struct decided {
	struct sh_decisions d;
	struct sh_fpset *s;
	struct sh_docmap *m;
};

/* -E: a decision line read; a bad one ends the run, whose records
 * could not go where the decisions say. */
static int
decided_line(void *ctx, const char *p, size_t len, const char *name,
    unsigned long long line)
{
	struct decided *dc = ctx;
	int e;

	if ((e = sh_decisions_add(&dc->d, dc->s, dc->m, p, len)) != 0)
		errx(2, "%s:%llu: %s", name, line, sh_strerror(e));
	return 0;
}

/* -E: the decisions of the operands, and the records where they go. */
static void
decided_run(struct keepopt *ko, struct sh_fpset *s, struct sh_docmap *m,
    int n, char *const name[], int *status)
{
	struct decided dc;

	memset(&dc, 0, sizeof(dc));
	dc.s = s;
	dc.m = m;
	input_lines(n, name, decided_line, &dc, status);
	if (*status != 0)
		exit(2);
	clean_write(&ko->z, s, dc.d.rep);
	sh_decisions_free(&dc.d);
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

/* -Y newest, max: the rank of each entry of s, its field's value (NaN,
 * last, where it has none, which a warning counts). */
static double *
fields(const struct keepopt *ko, struct sh_fpset *s)
{
	size_t n = sh_fpset_n(s), none;
	double *rank;

	if ((rank = malloc(n * sizeof(*rank) + 1)) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	if ((none = clean_ranks(ko->vd, s, ko->rule == KEEP_NEWEST,
	    ko->field, rank)) > 0)
		warnx("-Y %s: %zu of %zu document(s) without a %s in %s%s: "
		    "they come after those with one", ko->rulearg, none, n,
		    ko->rule == KEEP_NEWEST ? "date" : "number",
		    ko->vd->o->rec.mode == SH_REC_TAB || ko->vd->o->rec.mode ==
		    SH_REC_NUL ? "column " : "", ko->field);
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

	/* The documents are read: the operands are not copied. */
	input_spool(0);
	if (ko->decided) {
		decided_run(ko, s, docs, n, name, status);
		return 0;
	}
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
		e = route == 1 ? sh_groups_write(mt, s, &groups, stdout) :
		    (int)sh_match_write(mt, s, 1, stdout);
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
	if (e == 0 && ko->rule >= KEEP_NEWEST)
		rank = fields(ko, s);
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

#include <sys/stat.h>

#include <err.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "base/errors.h"
#include "fp/similar.h"
#include "text/docmap.h"
#include "text/record.h"
#include "verify/figures.h"
#include "figures.h"
#include "usage.h"

int
figopt_set(struct figopt *fo, int ch, const char *arg)
{
	int e;

	if (ch == 'R')
		fo->path = arg;
	else if (ch != 'L')
		return 0;
	else if ((e = sh_sim_parse(fo->guard = arg, &fo->share)) != 0)
		errx(2, "-L %s: %s", arg, sh_strerror(e));
	return 1;
}

void
figopt_check(struct figopt *fo, int mode, int components,
    const struct vdocs *vd, const char *const zpath[2])
{
	struct stat st, rs;
	size_t i;
	int k;

	if (fo->guard != NULL && fo->path == NULL)
		usage_only('L', "-R");
	if (fo->path == NULL)
		return;
	if (mode == 0)
		usage_only('R', "-g or -u");
	if (components)
		errx(2, "-R: not with -gg: the figures are of -g's clusters");
	if (mode == 'u' && vd->nnames == 0)
		errx(2, "-R: with -u, only with -v");
	if (fo->guard == NULL)
		(void)sh_sim_parse(fo->guard = FIGURES_GUARD, &fo->share);
	fo->vd = vd;
	for (i = 0; stat(fo->path, &rs) == 0 && i < vd->nnames; i++)
		if (stat(vd->names[i], &st) == 0 && st.st_dev == rs.st_dev &&
		    st.st_ino == rs.st_ino)
			errx(2, "-R %s: a file of -v", fo->path);
	for (k = 0; k < 2 && zpath[k] != NULL; k++)
		if (strcmp(zpath[k], fo->path) == 0 || (stat(fo->path, &rs) ==
		    0 && stat(zpath[k], &st) == 0 && st.st_dev == rs.st_dev &&
		    st.st_ino == rs.st_ino))
			errx(2, "-R %s: a file of -Z", fo->path);
	if ((fo->out = fopen(fo->path, "w")) == NULL)
		err(2, "%s", fo->path);
}

static void
warn_over(void *ctx, const struct sh_figover *o)
{
	const struct figopt *fo = ctx;

	warnx("%s%s: one cluster holds %llu of the %llu documents, more than "
	    "-L %s: the copy that stays is \"%.*s\"", o->host ? "host " : "",
	    o->host ? o->name : fo->vd->names[o->file], o->members,
	    o->documents, fo->guard, (int)o->keptlen, o->kept);
}

void
figures_write(struct figopt *fo, int mode, struct sh_fpset *s,
    const uint32_t *rep, const struct sh_matcher *mt)
{
	const struct vdocs *vd = fo->vd;
	struct sh_figcounts c;
	const struct sh_docmap_counts *dc;
	struct sh_figures *f;
	struct sh_docmap *m;
	int e;

	if (fo->path == NULL)
		return;
	m = vd->m != NULL && vd->o->rec.mode != SH_REC_FILE ? vd->m : NULL;
	memset(&c, 0, sizeof(c));
	c.mode = mode;
	c.documents = c.nstatus = c.ntype = c.nbinary = c.nbad = c.ndups =
	    c.nbadcs = ULLONG_MAX;
	if (m != NULL) {
		dc = sh_docmap_counts(m);
		c.documents = sh_docmap_count(m) - vd->ndups;
		c.nstatus = dc->nstatus;
		c.ntype = dc->ntype;
		c.nbinary = dc->nbinary;
		c.nbadcs = dc->nbadcs;
		c.nbad = vd->nbad + sh_docmap_skipped(m);
		c.ndups = vd->ndups;
	}
	c.candidates = mt->ncand;
	c.verified = mt->vf != NULL ? mt->nverified : ULLONG_MAX;
	c.accepted = mt->vf != NULL ? mt->nmatched : ULLONG_MAX;
	c.guard = fo->share;
	if ((e = sh_figures_new(&f, s, rep, m, vd->nnames)) != 0)
		errx(2, "-R: %s", sh_strerror(e));
	if (sh_figures_json(f, &c, vd->names, fo->out) != 0 ||
	    fclose(fo->out) != 0)
		err(2, "%s", fo->path);
	fo->out = NULL;
	sh_figures_table(f, &c, stderr);
	sh_figures_guard(f, fo->share, warn_over, fo);
	sh_figures_free(f);
}

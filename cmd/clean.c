#include <sys/stat.h>

#include <err.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "text/docmap.h"
#include "text/record.h"
#include "text/recfield.h"
#include "text/recwrite.h"
#include "verify/keep.h"
#include "clean.h"
#include "input.h"
#include "usage.h"

void
clean_set(struct clean *c, const char *path)
{
	int all = strncmp(path, "all:", 4) == 0;

	if (c->path[0] != NULL && (all || c->all))
		errx(2, "-Z %s: -Z all: writes every record to one file, with "
		    "no other -Z", path);
	if (all && path[4] == '\0')
		errx(2, "-Z %s: no file after all:", path);
	if (c->path[1] != NULL)
		errx(2, "-Z %s: at most twice: the records that stay, then "
		    "those removed", path);
	c->all = all;
	c->path[c->path[0] != NULL] = all ? path + 4 : path;
}

void
clean_again(const struct vdocs *vd, int recmode, const char *opt,
    const char *why)
{
	struct stat st;
	size_t i;

	for (i = 0; recmode != SH_REC_FILE && i < vd->nnames; i++) {
		if (strcmp(vd->names[i], "-") == 0)
			errx(2, "%s: -v -: standard input is read once, and "
			    "its records cannot be read again %s", opt, why);
		if (stat(vd->names[i], &st) == 0 && !S_ISREG(st.st_mode))
			errx(2, "%s: -v %s: not a regular file: its records "
			    "cannot be read again %s", opt, vd->names[i], why);
	}
}

void
clean_open(struct clean *c, int mode, int components,
    const struct vdocs *vd, int recmode)
{
	struct stat st, zs;
	size_t i;
	int k;

	if (c->path[0] == NULL)
		return;
	if (mode == 0)
		usage_only('Z', "-g or -u");
	if (components)
		errx(2, "-Z: not with -gg: the copies that stay are those "
		    "of -g");
	if (c->all && strchr(usage_given(), 'i') != NULL)
		errx(2, "-Z all:%s: not with -i: a copy that stays may be "
		    "one of the index, which has no record", c->path[0]);
	c->vd = vd;
	clean_again(vd, recmode, "-Z", "to write them");
	if (c->path[1] != NULL && strcmp(c->path[0], c->path[1]) == 0)
		errx(2, "-Z %s: the records that stay and those removed go "
		    "to one file", c->path[0]);
	for (k = 0; k < 2 && c->path[k] != NULL; k++) {
		for (i = 0; stat(c->path[k], &zs) == 0 && i < vd->nnames;
		    i++)
			if (stat(vd->names[i], &st) == 0 &&
			    st.st_dev == zs.st_dev && st.st_ino == zs.st_ino)
				errx(2, "-Z %s: a file of -v", c->path[k]);
		if ((c->out[k] = fopen(c->path[k], "w")) == NULL)
			err(2, "%s", c->path[k]);
	}
}

/* An entry's key in the map and where it goes (its input order, for
 * the first of one key). */
struct fate {
	uint64_t key;
	uint32_t i;
	uint32_t out;
};

static int
cmp_fate(const void *a, const void *b)
{
	const struct fate *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The walk over the documents: the file read, and where its records
 * go. */
struct walk {
	struct clean *c;	/* NULL: the fields of -Y read */
	const struct vdocs *vd;
	const struct fate *f;
	size_t nf;
	struct sh_fpset *s;
	const uint32_t *rep;
	double *rank;		/* -Y: the field's value of each entry */
	int date;		/* taken as a date */
	const char *field;
	struct sh_recwrite *w;
	FILE *in;		/* the file read, names[cur] */
	size_t cur, next;	/* the next file not read yet */
};

/* Exit on error e of writing the records of the file read. */
static void
fail(const struct walk *k, int e)
{
	const char *name = k->vd->names[k->cur];

	/* A decompressor's failure is the cause. */
	if (input_end(k->in) != 0)
		exit(2);
	if (e == SH_EIO && (ferror(k->in) || k->c == NULL))
		err(2, "%s", name);
	if (e == SH_EIO)
		err(2, "%s", ferror(k->c->out[0]) || k->c->out[1] == NULL ?
		    k->c->path[0] : k->c->path[1]);
	errx(2, "%s: %s", name, sh_strerror(e));
}

/* The end of the file read. */
static void
end_file(struct walk *k)
{
	int e;

	if (k->in == NULL)
		return;
	if ((e = sh_recwrite_end(k->w)) != 0)
		fail(k, e);
	if (input_end(k->in) != 0)
		exit(2);
	input_close(k->in);
	k->in = NULL;
}

static void
open_file(struct walk *k, size_t i)
{
	const char *shown;

	if ((k->in = input_again(k->vd->names[i], &shown)) == NULL)
		exit(2);
	k->cur = i;
	sh_recwrite_start(k->w, k->in);
}

/* The file read ended, the files before file src read whole (none of
 * their records a document), and file src started (none: nnames). */
static void
next_file(struct walk *k, size_t src)
{
	end_file(k);
	for (; k->next < src; k->next++) {
		open_file(k, k->next);
		end_file(k);
	}
	if (src < k->vd->nnames) {
		open_file(k, src);
		k->next = src + 1;
	}
}

/* The note of entry i, whose anchor is rep[i], for w: with all:, its
 * anchor's ID and its fate; else, removed to the second file, the
 * anchor's ID; none for one removed against the index. */
static int
note(const struct clean *c, struct sh_fpset *s, const uint32_t *rep,
    size_t i, struct sh_recwrite *w)
{
	const char *id;
	size_t len;
	int e;

	if (rep[i] == SH_KEEP_OUT || (!c->all && (rep[i] == i ||
	    c->out[1] == NULL)))
		return 0;
	if ((e = sh_fpset_id(s, rep[i], &id, &len)) != 0)
		errx(2, "%s", sh_strerror(e));
	return sh_recwrite_note(w, id, len, c->all ? rep[i] != i : -1);
}

/* The first fate of k whose key is not below key. */
static size_t
first_fate(const struct walk *k, uint64_t key)
{
	size_t lo = 0, hi = k->nf, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (k->f[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
walk_doc(void *ctx, size_t src, uint64_t key, long long off, long long size)
{
	struct walk *k = ctx;
	size_t lo;
	int e, out = 0;

	if (k->in == NULL || src != k->cur)
		next_file(k, src);
	if ((lo = first_fate(k, key)) < k->nf && k->f[lo].key == key) {
		out = (int)k->f[lo].out;
		if ((e = note(k->c, k->s, k->rep, k->f[lo].i, k->w)) != 0)
			fail(k, e);
	}
	if ((e = sh_recwrite_doc(k->w, off, size, k->c->all ? 0 : out)) != 0)
		fail(k, e);
	return 0;
}

/* -F: the documents are files; their names, a line each, with their
 * notes as TAB columns. */
static void
write_names(struct clean *c, struct sh_fpset *s, const uint32_t *rep)
{
	const char *id;
	size_t i, len;
	FILE *f;
	int e, o;

	for (i = 0; i < sh_fpset_n(s); i++) {
		o = c->all ? 0 : rep[i] != i;
		if ((f = c->out[o]) == NULL)
			continue;
		if ((e = sh_fpset_id(s, i, &id, &len)) != 0)
			errx(2, "%s", sh_strerror(e));
		if (fwrite(id, 1, len, f) != len)
			err(2, "%s", c->path[o]);
		if (rep[i] != SH_KEEP_OUT && (c->all || rep[i] != i)) {
			if ((e = sh_fpset_id(s, rep[i], &id, &len)) != 0)
				errx(2, "%s", sh_strerror(e));
			if (putc('\t', f) == EOF || fwrite(id, 1, len, f) !=
			    len || (c->all && fprintf(f, "\t%s", rep[i] == i ?
			    SH_RECWRITE_KEPT : SH_RECWRITE_REMOVED) < 0))
				err(2, "%s", c->path[o]);
		}
		if (putc('\n', f) == EOF)
			err(2, "%s", c->path[o]);
	}
}

/* The entries of s by their keys in the map of vd, each with where it
 * goes (rep NULL: nowhere yet). */
static struct fate *
fates(const struct vdocs *vd, struct sh_fpset *s, const uint32_t *rep)
{
	struct fate *f;
	const char *id;
	size_t i, n = sh_fpset_n(s), len;
	int e;

	if ((f = malloc(n * sizeof(*f) + 1)) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	for (i = 0; i < n; i++) {
		if ((e = sh_fpset_id(s, i, &id, &len)) != 0)
			errx(2, "%s", sh_strerror(e));
		f[i].key = sh_docmap_key(vd->m, id, len);
		f[i].i = (uint32_t)i;
		f[i].out = rep != NULL && rep[i] != i;
	}
	qsort(f, n, sizeof(*f), cmp_fate);
	return f;
}

void
clean_write(struct clean *c, struct sh_fpset *s, const uint32_t *rep)
{
	struct walk k;
	int e, k2;

	if (c->path[0] == NULL)
		return;
	if (c->vd->o->rec.mode == SH_REC_FILE)
		write_names(c, s, rep);
	else {
		memset(&k, 0, sizeof(k));
		k.c = c;
		k.vd = c->vd;
		k.f = fates(c->vd, s, rep);
		k.nf = sh_fpset_n(s);
		k.s = s;
		k.rep = rep;
		if (sh_recwrite_new(&k.w, c->vd->o->rec.mode, c->out) != 0)
			errx(2, "%s", sh_strerror(SH_ENOMEM));
		if ((e = sh_docmap_walk(c->vd->m, walk_doc, &k)) != 0)
			err(2, "%s", input_tmpmsg());
		next_file(&k, c->vd->nnames);
		sh_recwrite_free(k.w);
		free((void *)k.f);
	}
	for (k2 = 0; k2 < 2 && c->path[k2] != NULL; k2++)
		if (fclose(c->out[k2]) != 0)
			err(2, "%s", c->path[k2]);
}

/* -Y newest, max: the value of the field of the record, for the entries
 * of its key not given one yet (of records of one ID, the first). */
static int
walk_rank(void *ctx, size_t src, uint64_t key, long long off,
    long long size)
{
	struct walk *k = ctx;
	struct fate *f = (struct fate *)k->f;
	struct sh_jval v;
	const char *p;
	size_t lo, len;
	double x = NAN;
	int e, r;

	if (k->in == NULL || src != k->cur)
		next_file(k, src);
	if ((e = sh_recwrite_doc(k->w, off, size, 0)) != 0)
		fail(k, e);
	lo = first_fate(k, key);
	if (lo == k->nf || f[lo].key != key || f[lo].out)
		return 0;
	sh_recwrite_last(k->w, &p, &len);
	if ((r = sh_recfield_get(k->vd->o->rec.mode, p, len, k->field,
	    &v)) < 0)
		fail(k, r);
	if (r == 1 && !(k->date ? sh_recfield_date(&v, &x) :
	    sh_recfield_number(&v, &x)))
		x = NAN;
	for (; lo < k->nf && f[lo].key == key; lo++) {
		f[lo].out = 1;
		k->rank[f[lo].i] = x;
	}
	return 0;
}

size_t
clean_ranks(const struct vdocs *vd, struct sh_fpset *s, int date,
    const char *field, double *rank)
{
	struct walk k;
	FILE *none[2] = { NULL, NULL };
	size_t i, n = sh_fpset_n(s), missing = 0;
	int e;

	for (i = 0; i < n; i++)
		rank[i] = NAN;
	memset(&k, 0, sizeof(k));
	k.vd = vd;
	k.f = fates(vd, s, NULL);
	k.nf = n;
	k.rank = rank;
	k.date = date;
	k.field = field;
	if (sh_recwrite_new(&k.w, vd->o->rec.mode, none) != 0)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	sh_recwrite_hold(k.w);
	if ((e = sh_docmap_walk(vd->m, walk_rank, &k)) != 0)
		err(2, "%s", input_tmpmsg());
	next_file(&k, vd->nnames);
	sh_recwrite_free(k.w);
	free((void *)k.f);
	for (i = 0; i < n; i++)
		missing += isnan(rank[i]) != 0;
	return missing;
}

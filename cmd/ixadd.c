#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "index/index.h"
#include "near/dedup.h"
#include "near/fpline.h"
#include "near/fplist.h"
#include "verify/locate.h"
#include "verify/match.h"
#include "verify/vfilter.h"
#include "diag.h"
#include "fpjoin.h"
#include "input.h"
#include "ixadd.h"
#include "usage.h"
#include "progress.h"

static char where[SH_WHERE];
static int status;
static struct sh_ixwriter *w;	/* within a budget or with -u: writing
				   while reading */
static const struct sh_bandplan *bp;
static struct sh_fplist batch;	/* the batch */
static uint64_t *keys;		/* and the band keys of its lines */
static size_t keycap;
static struct sh_ixqueue queue;	/* -u: the lines looked up */
static struct sh_fplist added;	/* and those kept, whole */
static struct sh_shard shard;	/* and the shard the index holds */
static char tmp[SH_WHERE];	/* -l: the list, before the commit */
static struct sh_vfilter vf;	/* -u -v on band tables: the lines
				   verified */
static struct ixdocs *docs;	/* and their documents */
static struct sh_locator *loc;	/* -v on band tables: where they lie */
static struct sh_segloc *locs;	/* and the batch's lines' */
static size_t loccap;
static const char *ixpath;	/* the index, when where names no file */

/* The band keys of the batch for sh_ixw_add: never NULL for an index of
 * band tables, even when the batch is empty. */
static const uint64_t *
batch_keys(void)
{
	static const uint64_t none;

	return !bp->b ? NULL : keys != NULL ? keys : &none;
}

/* Report error e of where and exit, first removing what the writer
 * made and did not commit (the message is made before: removing may
 * change errno, which it may quote). */
static void
fail(int e)
{
	char msg[SH_WHERE + 256];

	snprintf(msg, sizeof(msg), "%s: %s%s", *where ? where : ixpath,
	    sh_strerror(e), e == SH_EEXIST ? " (use -O to replace it)" : "");
	sh_ixw_close(w);
	if (*tmp != '\0')
		unlink(tmp);
	errx(2, "%s", msg);
}

void
ixdocs_init(struct ixdocs *d)
{
	memset(d, 0, sizeof(*d));
	docopt_init(&d->o);
	d->measure = SH_SIM_JACCARD;
}

int
ixdocs_set(struct ixdocs *d, int ch, const char *arg)
{
	int e;

	if (ch == 'v')
		vdocs_name(&d->vd, arg);
	else if (ch == 't')
		d->tokens = 1;
	else if (ch == 'J') {
		if ((e = d->measure = sh_sim_measure(arg)) < 0)
			errx(2, "-J %s: %s", arg, sh_strerror(e));
	} else
		return docopt_set(&d->o, ch, arg);
	return 1;
}

/* -u -v: a candidate whose document cannot be verified ends the add, the
 * index as it was; vdocs_error says why, in one line. */
static void
bad_pair(void *ctx, int e, const char *id, size_t len, size_t col)
{
	(void)ctx;
	vdocs_error(&docs->vd, e, NULL, 0, id, len, col);
	sh_ixw_close(w);
	if (*tmp != '\0')
		unlink(tmp);
	exit(2);
}

/* -u -v: the documents read (before the lock), with n operands name[0..n)
 * to be read after them. */
static void
docs_open(int n, char *const name[])
{
	size_t i;

	for (i = 0; i < docs->vd.nnames; i++)
		if (strcmp(docs->vd.names[i], "-") == 0 && input_stdin(n, name))
			errx(2, "-v -: standard input cannot hold both the "
			    "documents and the fingerprints");
	if (docs->tokens && docs->o.rec.mode != SH_REC_TAB)
		usage_conflict('t', docs->o.modech);
	docopt_load(&docs->o);
	/* The places kept: each .warc.gz mapped as it is read. */
	input_map_members(1);
	vdocs_open(&docs->vd, &docs->o, docs->tokens, docs->measure,
	    (size_t)256 << 20, 0, &status);
	input_map_members(0);
	if (sh_verify_threads(docs->vd.vf, &docs->o.fp,
	    (int)sysconf(_SC_NPROCESSORS_ONLN)) != 0 ||
	    sh_locator_new(&loc, docs->vd.m, docs->o.rec.mode) != 0)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
}

/* -v: where the document of the line of ID id[0..idlen) lies, into the
 * batch's locations at i.  A document that is not there, or cannot be
 * read, leaves the index as it was. */
static void
locate(size_t i, const char *id, size_t idlen)
{
	static int warned;
	char msg[256] = "";
	int r;

	if (sh_grow(&locs, &loccap, i + 1, sizeof(*locs)) != 0) {
		*where = '\0';
		fail(SH_ENOMEM);
	}
	if ((r = sh_locator_find(loc, id, idlen, &locs[i], msg,
	    sizeof(msg))) == 1)
		return;
	if (r == 0 && sh_locator_unplaced(loc) != NULL) {
		if (!warned++)
			warnx("%s: not a file: its documents' places are not "
			    "kept", sh_locator_unplaced(loc));
		return;
	}
	sh_ixw_close(w);
	if (r == SH_EZ)		/* mapping a compressed file's members */
		errx(2, "%s: %s: %s", docs->vd.path, sh_strerror(r), msg);
	vdocs_error(&docs->vd, r == 0 ? SH_ENODOC : r, NULL, 0, id, idlen,
	    0);
	exit(2);
}

/* The lines of the change to f: those of l, or with found those whose
 * flag is set; then flushed.  Return 0, or -1 with errno set. */
static int
put_lines(FILE *f, const struct sh_fplist *l, const unsigned char *found)
{
	const char *p;
	size_t i, len;

	for (i = 0; i < l->n; i++)
		if (found == NULL || found[i]) {
			p = sh_fplist_id(l, i, &len);
			fwrite(p, 1, len, f);
			putc('\n', f);
		}
	return fflush(f) != 0 || ferror(f) ? -1 : 0;
}

/* Commit w's change (the lines of l, or of found; none when l is NULL)
 * and list it: with list, written to list ".tmp" and synced before the
 * commit, renamed to list after; else to stdout after.  A failure after
 * the commit is exit status 3 and says so. */
static void
commit_list(const char *path, const char *list, const struct sh_fplist *l,
    const unsigned char *found)
{
	char dir[SH_WHERE];
	FILE *f = NULL;
	int e, fd;

	if (list != NULL && l != NULL) {
		/* A list left by a run killed after its commit is the
		 * only record of that change: never written over. */
		snprintf(tmp, sizeof(tmp), "%s.tmp", list);
		if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL, 0666)) < 0 ||
		    (f = fdopen(fd, "w")) == NULL) {
			e = errno;
			if (fd >= 0) {	/* made here: not an earlier run's */
				close(fd);
				unlink(tmp);
			}
			snprintf(where, SH_WHERE, "%s", tmp);
			*tmp = '\0';
			if (e == EEXIST) {
				sh_ixw_close(w);
				errx(2, "%s: the list of an earlier run, perhaps "
				    "committed (see sh-index(1))", where);
			}
			errno = e;
			fail(SH_EIO);
		}
		if (put_lines(f, l, found) != 0 || fsync(fd) != 0 ||
		    fclose(f) != 0) {
			snprintf(where, SH_WHERE, "%s", tmp);
			fail(SH_EIO);
		}
	}
	/* Without a list, a commit that failed is an error (exit 2) as
	 * ever: a rerun does what it did. */
	if ((e = sh_ixw_commit(w, where)) != 0 && (l == NULL ||
	    sh_ixw_pending(w)))
		fail(e);
	sh_ixw_close(w);
	w = NULL;
	if (e != 0) {
		/* In place, perhaps not on disk: the list goes out all the
		 * same. */
		warnx("%s: committed, perhaps not on disk: %s", where,
		    sh_strerror(e));
	}
	if (l == NULL)
		;
	else if (list != NULL) {
		snprintf(dir, sizeof(dir), "%s", list);
		if (rename(tmp, list) != 0 || (fd = open(dirname(dir),
		    O_RDONLY)) < 0 || ((fsync(fd) != 0 && errno != EINVAL) |
		    close(fd)) != 0)
			errx(3, "%s: committed, the list left in %s: %s", path,
			    tmp, strerror(errno));
	} else {
		/* A reader gone is an error to report, not a signal. */
		signal(SIGPIPE, SIG_IGN);
		if (put_lines(stdout, l, found) != 0)
			errx(3, "%s: committed, output lost: stdout: %s", path,
			    strerror(errno));
	}
	if (e != 0)
		exit(3);
}

/* Append fp and its ID to the batch, with the band keys of sketch sk;
 * within a budget, write the batch as a segment each time it holds a
 * quarter of it. */
static void
keep(sh_fpval fp, const char *id, size_t idlen, const struct sh_sketch *sk)
{
	int r = 0;

	if (bp->b && (r = sh_grow(&keys, &keycap, (batch.n + 1) *
	    (size_t)bp->b, sizeof(*keys))) == 0)
		sh_bands_keys(bp, sk, keys + batch.n * (size_t)bp->b);
	if (r != 0 || (r = sh_fplist_add(&batch, fp, id, idlen)) != 0) {
		*where = '\0';
		fail(r);
	}
	if (loc != NULL)
		locate(batch.n - 1, id, idlen);
	if (w != NULL && status == 0 && sh_ixw_full(w, &batch)) {
		/* None once the input had an error: nothing will be kept. */
		if ((r = sh_ixw_add(w, &batch, batch_keys(), loc != NULL ?
		    locs : NULL, where)) != 0)
			fail(r);
		sh_fplist_clear(&batch);
	}
}

/* A line read: kept, or with -u looked up first. */
static void
add_line(void *ctx, const struct sh_fpline *f)
{
	struct sh_sketch sk;
	int r;

	(void)ctx;
	if (vf.ix != NULL)
		r = sh_vfilter_add(&vf, f->fp, f->line, f->len, where);
	else if (queue.ix != NULL)
		r = sh_ixqueue_add(&queue, f->fp, f->id, f->idlen, f->line,
		    f->len, where);
	else if ((r = bp->b ? sh_fpline_sketch(f->line, f->len, f->id,
	    f->idlen, &sk) : 0) == 0)
		keep(f->fp, f->id, f->idlen, &sk);
	if (r == 0)
		return;
	if (*where != '\0' || r == SH_ENOMEM)
		fail(r);
	/* A line without a good sketch: reported, and nothing written. */
	diag(r, f->name, f->lineno, NULL);
	status = 2;
}

/* -u: a line new to the index and to the lines before it. */
static void
pass_line(void *ctx, const char *line, size_t len)
{
	struct sh_sketch sk;
	const char *id;
	size_t idlen;
	sh_fpval fp;
	int r;

	(void)ctx;
	/* Read whole before: neither can fail. */
	sh_fpline_parse(line, len, &fp, &id, &idlen);
	if (sh_shard_fp(&shard, fp) != shard.i)
		return;		/* another shard's: not added */
	if (bp->b)
		sh_fpline_sketch(line, len, id, idlen, &sk);
	keep(fp, id, idlen, &sk);
	if ((r = sh_fplist_add(&added, 0, line, len)) != 0) {
		*where = '\0';
		fail(r);
	}
}

void
ixadd_run(const char *path, const struct sh_ixopt *o,
    const struct sh_bandplan *b, int newonly, const char *list,
    struct ixdocs *d, int n, char *const name[])
{
	static struct sh_matcher mt;	/* no documents: every hit */
	static struct sh_matcher vmt;	/* -v: at the index's similarity */
	struct sh_dedup *dedup = NULL;
	struct sh_index ix;
	struct sh_plan p;
	int e;

	ixpath = path;
	bp = b;
	sh_fplist_init(&batch);
	sh_fplist_init(&added);
	/* On band tables, the documents of -v are read before the lock is
	 * taken: the index keeps where they lie, and -u verifies against
	 * them. */
	if (d != NULL && d->vd.nnames > 0 && !bp->b && !newonly)
		errx(2, "-v: an index of fingerprint tables keeps no "
		    "documents: -v is for band tables (-a)");
	docs = bp->b ? d : NULL;
	if (docs != NULL && docs->vd.nnames > 0)
		docs_open(n, name);
	if (status) {
		diag_done();
		errx(2, "%s: not written: the documents have errors", path);
	}
	if ((o->budget || newonly) && (e = sh_ixw_open(&w, path, o,
	    where)) != 0)
		fail(e);
	/* -u: the index as it stands under the lock, and the lines passed
	 * so far, at the index's distance or by its bands. */
	if (newonly) {
		/* A new index is made first, empty, to be read. */
		if ((e = sh_ixw_commit(w, where)) != 0 ||
		    (e = sh_index_open(&ix, path, where)) != 0)
			fail(e);
		shard = ix.shard;
		if (docs != NULL && docs->vd.vf != NULL && ix.bands) {
			/* At the index's similarity, as it stands. */
			vmt = (struct sh_matcher){ docs->vd.vf, ix.t, bad_pair,
			    NULL, progress_lib(), 0, 0, 0 };
			sh_verify_floor(docs->vd.vf, ix.t);
			sh_vfilter_init(&vf, &vmt, &ix, pass_line, NULL);
		}
		sh_ixqueue_init(&queue, &mt, &ix, o->k >= 0 ? o->k : ix.k,
		    NULL, NULL);
		fpjoin_plan(&p, queue.k, 0, 1 << 24, 0);
		if ((dedup = sh_dedup_new(&p)) == NULL) {
			*where = '\0';
			fail(SH_ENOMEM);
		}
		sh_ixqueue_filter(&queue, dedup, pass_line);
	}
	input_fps(n, name, add_line, NULL, &status);
	if (newonly && status == 0 && ((e = vf.ix != NULL ?
	    sh_vfilter_flush(&vf, where) : sh_ixqueue_flush(&queue,
	    where)) != 0))
		fail(e);
	if (status) {
		sh_ixw_close(w);
		diag_done();
		errx(2, "%s: not written: the input has errors", path);
	}
	if ((w == NULL && (e = sh_ixw_open(&w, path, o, where)) != 0) ||
	    (e = sh_ixw_add(w, &batch, batch_keys(), loc != NULL ? locs :
	    NULL, where)) != 0)
		fail(e);
	/* What was added, once it is the index's. */
	commit_list(path, list, newonly ? &added : NULL, NULL);
	if (vf.ix != NULL)
		progress_total("pairs verified", vmt.nverified);
	if (newonly) {
		sh_vfilter_free(&vf);
		sh_ixqueue_free(&queue);
		sh_dedup_free(dedup);
		sh_index_close(&ix);
	}
	sh_fplist_free(&batch);
	sh_fplist_free(&added);
	free(keys);
	sh_locator_free(loc);
	free(locs);
	if (docs != NULL) {
		vdocs_close(&docs->vd);
		docopt_free(&docs->o);
	}
}

/* delete: an ID a line, or a fingerprint line's ID. */
static int
del_line(void *ctx, const char *p, size_t len, const char *name,
    unsigned long long lineno)
{
	const char *id = p;
	size_t idlen = len;
	sh_fpval fp;
	int r;

	(void)ctx;
	if (len == 0)
		return 0;
	if (memchr(p, '\t', len) != NULL &&
	    (r = sh_fpline_parse(p, len, &fp, &id, &idlen)) != 0) {
		diag(r, name, lineno, NULL);
		status = 2;
		return 0;
	}
	if ((r = sh_fplist_add(&batch, 0, id, idlen)) != 0) {
		*where = '\0';
		fail(r);
	}
	return 0;
}

void
ixdel_run(const char *path, const struct sh_ixopt *o, int verb,
    uint32_t cutoff, const char *list, int n, char *const name[])
{
	unsigned char *found = NULL;
	int e;

	ixpath = path;
	sh_fplist_init(&batch);
	if (verb == 'd') {
		input_lines(n, name, del_line, NULL, &status);
		if (status) {
			diag_done();
			errx(2, "%s: not written: the input has errors", path);
		}
		if ((found = malloc(batch.n + 1)) == NULL) {
			*where = '\0';
			fail(SH_ENOMEM);
		}
	}
	if ((e = sh_ixw_open(&w, path, o, where)) != 0 ||
	    (e = verb == 'd' ? sh_ixw_delete(w, &batch, found, where) :
	    verb == 'e' ? sh_ixw_expire(w, cutoff, where) :
	    sh_ixw_merge(w, where)) != 0)
		fail(e);
	/* What was deleted, once the index says so. */
	commit_list(path, list, found != NULL ? &batch : NULL, found);
	free(found);
	sh_fplist_free(&batch);
}

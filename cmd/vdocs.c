#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/io.h"
#include "base/threads.h"
#include "diag.h"
#include "input.h"
#include "progress.h"
#include "vdocs.h"

/*
 * Documents that are no regular file (a pipe, a process substitution, a
 * device) are copied once into an unnamed temporary file in TMPDIR, read
 * then where they lie, each reader through a name of its own for the
 * descriptor (/proc/self/fd/N, Linux), so that they keep offsets of their
 * own.  Return the name to open: path itself, or that one.
 */
static const char *
spill(struct vdocs *d, const char *path)
{
	static char name[64];
	static struct sh_drain dr;	/* 64 KiB, once a process */
	struct stat st;
	FILE *in;

	if (stat(path, &st) != 0 || S_ISREG(st.st_mode) ||
	    S_ISDIR(st.st_mode))
		return path;
	if ((in = fopen(path, "r")) == NULL)
		err(2, "%s", path);
	dr.stop = NULL;
	if (sh_tmpfile(input_tmpdir(), &d->spill) != 0)
		err(2, "%s", input_tmpmsg());
	if (sh_drain(fileno(in), fileno(d->spill), &dr) != 0)
		err(2, "%s", dr.writing ? input_tmpmsg() : path);
	fclose(in);
	snprintf(name, sizeof(name), "/proc/self/fd/%d", fileno(d->spill));
	if (stat(name, &st) != 0)
		errx(2, "%s: not a regular file, and no /proc to read a copy "
		    "through: -v reads the documents where they lie", path);
	return name;
}

/* vdocs_open, without the drain. */
static void
open_docs(struct vdocs *d, const char *path, struct docopt *o, int tokens,
    int measure, size_t budget, int *status)
{
	struct sh_rec rec;
	unsigned long long n = 0;
	long long dups;
	char ids[400];
	int r;

	d->path = path;
	if ((r = sh_docmap_open(&d->m, spill(d, path), &o->rec)) != 0)
		errx(2, "%s: %s", path, r == SH_EINVAL ? "-v with -F takes "
		    "a directory: the documents are the files the IDs name, "
		    "below it (-v . for the paths sh-fp -F was given)" :
		    sh_strerror(r));
	/* Documents of another format stop at the first record. */
	if ((r = sh_docmap_scan(d->m, &rec)) != 0 &&
	    sh_docmap_reader(d->m) != NULL &&
	    diag_reader(path, sh_docmap_reader(d->m)))
		exit(2);
	for (; r != 0; r = sh_docmap_scan(d->m, &rec)) {
		if (r == 1) {
			progress_items("documents", ++n);
			continue;
		}
		if (r == SH_EIO || r == SH_ENOMEM || r == SH_EGZIP)
			errx(2, "%s: %s", path, sh_strerror(r));
		diag(r, path, rec.line, NULL);
		if (r == SH_ETAB || r == SH_EJSON)
			diag_looks(path, rec.text, rec.len, r == SH_ETAB ?
			    DIAG_DOCS : DIAG_JSONDOCS);
		if (!sh_rec_skippable(r))
			exit(2);
		*status = 2;
	}
	if (sh_docmap_skipped(d->m))
		warnx("skipped %llu bad record(s)", sh_docmap_skipped(d->m));
	/* Records of an ID seen before are never read: said once. */
	if ((dups = sh_docmap_dups(d->m, ids, sizeof(ids))) < 0)
		errx(2, "%s: %s", path, sh_strerror((int)dups));
	if (dups > 0)
		warnx("%s: %lld document(s) with the ID of one before, not "
		    "read (the first of an ID is): %s%s", path, dups, ids,
		    dups > 3 ? ", ..." : "");
	if ((d->fp = sh_fp_new(&o->fp)) == NULL ||
	    (d->vf = sh_verify_new(d->m, d->fp, tokens, measure, budget,
	    input_tmpdir())) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
}

/* What vdocs_open does at once: open the documents (part 0), and drain
 * standard input into tmp (part 1). */
struct part {
	int part;
	struct vdocs *d;
	const char *path;
	struct docopt *o;
	int tokens, measure;
	size_t budget;
	int *status;
	FILE *tmp;
	struct sh_drain *drain;
	int err;
};

/* The documents are read (part 0 is done): the copy of part 1 ends. */
static pthread_mutex_t docs_lock = PTHREAD_MUTEX_INITIALIZER;
static int docs_read;

static int
docs_done(void *ctx)
{
	int done;

	(void)ctx;
	pthread_mutex_lock(&docs_lock);
	done = docs_read;
	pthread_mutex_unlock(&docs_lock);
	return done;
}

/* A copy cut short: its part, the chunk held and the rest of the pipe in,
 * relayed into a new pipe (out) as its reader takes them. */
struct relay {
	int tmp, in, out;
	struct sh_drain *drain;
};

static void *
relay(void *arg)
{
	struct relay *r = arg;
	struct sh_drain d;

	d.stop = NULL;
	/* A write fails only when the reader is gone: the program ends. */
	if (sh_drain(r->tmp, r->out, &d) == 0 &&
	    sh_write_all(r->out, r->drain->held, r->drain->nheld) == 0)
		(void)sh_drain(r->in, r->out, &d);
	close(r->out);
	close(r->in);
	close(r->tmp);
	free(r->drain);
	free(r);
	return NULL;
}

/*
 * Standard input becomes a pipe that a thread fills with the copy's
 * part in tmp, the chunk held and the rest of standard input.
 */
static void
relay_start(FILE *tmp, struct sh_drain *drain)
{
	struct relay *r;
	pthread_t th;
	int fd[2];

	if ((r = malloc(sizeof(*r))) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	if (ftruncate(fileno(tmp), (off_t)drain->done) != 0 ||
	    lseek(fileno(tmp), 0, SEEK_SET) != 0 ||
	    (r->tmp = dup(fileno(tmp))) < 0)
		err(2, "%s", input_tmpmsg());
	if ((r->in = dup(STDIN_FILENO)) < 0 || pipe(fd) != 0 ||
	    dup2(fd[0], STDIN_FILENO) < 0)
		err(2, "<stdin>");
	close(fd[0]);
	r->out = fd[1];
	r->drain = drain;
	if ((errno = pthread_create(&th, NULL, relay, r)) != 0)
		err(2, "thread");
	pthread_detach(th);
}

static void *
do_part(void *arg)
{
	struct part *p = arg;

	if (p->part == 0) {
		open_docs(p->d, p->path, p->o, p->tokens, p->measure,
		    p->budget, p->status);
		pthread_mutex_lock(&docs_lock);
		docs_read = 1;
		pthread_mutex_unlock(&docs_lock);
	} else if (sh_drain(STDIN_FILENO, fileno(p->tmp), p->drain) != 0)
		p->err = errno;
	return NULL;
}

void
vdocs_open(struct vdocs *d, const char *path, struct docopt *o, int tokens,
    int measure, size_t budget, int drain, int *status)
{
	struct part p[2];
	struct sh_drain *dr;
	struct stat st;
	FILE *tmp;

	if (!drain || fstat(STDIN_FILENO, &st) != 0 || S_ISREG(st.st_mode) ||
	    sh_tmpfile(input_tmpdir(), &tmp) != 0) {
		open_docs(d, path, o, tokens, measure, budget, status);
		return;
	}
	if ((dr = malloc(sizeof(*dr))) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	dr->stop = docs_done;
	dr->ctx = NULL;
	docs_read = 0;		/* no thread yet */
	p[0] = (struct part){ 0, d, path, o, tokens, measure, budget, status,
	    tmp, dr, 0 };
	p[1] = p[0];
	p[1].part = 1;
	sh_threads_run(p, sizeof(p[0]), 2, do_part);
	if (p[1].err != 0 && !dr->writing) {
		errno = p[1].err;
		err(2, "<stdin>");
	}
	if (p[1].err != 0) {
		/* The disk filled: the rest comes from the pipe. */
		warnx("%s: %s: the rest of <stdin> is read as it comes",
		    input_tmpmsg(), strerror(p[1].err));
		relay_start(tmp, dr);
	} else if (dr->stopped) {
		/* The documents are read: the rest comes from the pipe. */
		relay_start(tmp, dr);
	} else {
		if (lseek(fileno(tmp), 0, SEEK_SET) != 0 ||
		    dup2(fileno(tmp), STDIN_FILENO) < 0)
			err(2, "%s", input_tmpmsg());
		free(dr);
	}
	fclose(tmp);
}

int
vdocs_error(const struct vdocs *d, int e, const char *name,
    unsigned long long line, const char *id, size_t idlen, size_t col)
{
	char shown[204];

	/* An ID read from a pair line as it came: no raw byte of it. */
	if (e == SH_ENODOC || e == SH_EWEIGHT || e == SH_EEMPTYTOK ||
	    e == SH_ERANGE || e == SH_EFPDIFF)
		diag_bytes(id, idlen, shown, sizeof(shown));
	if (e == SH_ENODOC)
		diag(e, name, line, "no document %s in %s", shown, d->path);
	else if (e == SH_EWEIGHT || e == SH_EEMPTYTOK || e == SH_ERANGE)
		diag(e, NULL, 0, "%s: document %s: column %zu: %s", d->path,
		    shown, col, sh_strerror(e));
	else if (e == SH_EFIELDS && name != NULL)
		diag(e, name, line, NULL);
	else if (e == SH_EFPDIFF)
		errx(2, "%s: document %s: %s", d->path, shown,
		    sh_strerror(e));
	else
		errx(2, "%s: %s", d->path, sh_strerror(e));
	return 2;
}

void
vdocs_close(struct vdocs *d)
{
	sh_verify_free(d->vf);
	sh_docmap_free(d->m);
	sh_fp_free(d->fp);
	if (d->spill != NULL)
		fclose(d->spill);
}

#include <sys/stat.h>

#include <err.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/zmap.h"
#include "base/grow.h"
#include "base/io.h"
#include "base/lines.h"
#include "base/threads.h"
#include "diag.h"
#include "input.h"
#include "progress.h"
#include "vdocs.h"

/* Add name (taken) to the files of d. */
static void
add_name(struct vdocs *d, char *name)
{
	if (name == NULL || (d->nnames == d->cap && sh_grow(&d->names,
	    &d->cap, d->nnames + 1, sizeof(*d->names)) != 0))
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	d->names[d->nnames++] = name;
}

const char *
vdocs_name(struct vdocs *d, const char *arg)
{
	struct sh_lines l;
	const char *p;
	size_t len, n = d->nnames;
	FILE *f;
	int r;

	if (arg[0] != '@') {
		add_name(d, strdup(arg));
		return arg;
	}
	/* @list: the files it names, a line each, as they are written. */
	if ((f = fopen(arg + 1, "r")) == NULL)
		err(2, "%s", arg + 1);
	sh_lines_init(&l, f, '\n');
	while ((r = sh_lines_next(&l, &p, &len)) == 1) {
		if (memchr(p, '\0', len) != NULL)
			errx(2, "%s:%llu: a NUL byte in a file name", arg + 1,
			    l.line);
		if (len > 0)
			add_name(d, strndup(p, len));
	}
	if (r < 0)
		errx(2, "%s: %s", arg + 1, sh_strerror(r));
	sh_lines_free(&l);
	fclose(f);
	if (d->nnames == n)
		errx(2, "%s: no file named", arg + 1);
	return arg;
}

/* What messages call the documents: the file, or the first files and
 * how many more. */
static char *
docs_shown(const struct vdocs *d)
{
	char buf[512];
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < d->nnames && i < 3 && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s",
		    i ? ", " : "", d->names[i]);
	if (i < d->nnames && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " and %zu more",
		    d->nnames - i);
	return strdup(buf);
}

/* Add the documents of file name to the map, and read them once; a
 * regular file is read again where it lies, any other stream (a pipe, a
 * decompressor's output) kept as read. */
static void
add_docs(struct vdocs *d, const char *name, int *status)
{
	struct sh_rec rec;
	struct stat st;
	struct sh_zmap *z;
	const char *shown;
	FILE *in = NULL;
	unsigned long long n = sh_docmap_count(d->m);
	char why[400];
	int r;

	if (d->o->rec.mode == SH_REC_FILE)
		r = sh_docmap_add(d->m, name);
	else if ((in = input_open(name, &shown)) == NULL)
		exit(2);
	else if (input_compressed(in) == NULL && strcmp(name, "-") != 0 &&
	    fstat(fileno(in), &st) == 0 && S_ISREG(st.st_mode)) {
		input_close(in);
		in = NULL;
		r = sh_docmap_add(d->m, name);
	} else
		r = sh_docmap_add_stream(d->m, in, shown);
	if (r != 0)
		errx(2, "%s: %s", in != NULL && r == SH_EIO ? input_tmpmsg() :
		    name, r == SH_EINVAL ? "-v with -F takes a directory (one): "
		    "the documents are the files the IDs name, below it (-v . "
		    "for the paths sh-fp -F was given)" : sh_strerror(r));
	/* Documents of another format stop at the first record. */
	if ((r = sh_docmap_scan(d->m, &rec)) != 0 &&
	    sh_docmap_reader(d->m) != NULL &&
	    diag_reader(name, sh_docmap_reader(d->m)))
		exit(2);
	for (; r != 0; r = sh_docmap_scan(d->m, &rec)) {
		if (r == 1) {
			progress_items("documents", ++n);
			continue;
		}
		/* A decompressor's failure is the cause of what follows. */
		if (input_end(in) != 0)
			exit(2);
		if (r == SH_EIO && in != NULL && !ferror(in))
			err(2, "%s", input_tmpmsg());
		if (r == SH_EIO || r == SH_ENOMEM || r == SH_EGZIP ||
		    r == SH_ERANGE)
			errx(2, "%s: %s", name, sh_strerror(r));
		diag(r, name, rec.line, "%s", docopt_recerr(&d->o->rec, r, why,
		    sizeof(why)));
		if (r == SH_ETAB || r == SH_EJSON)
			diag_looks(name, rec.text, rec.len, r == SH_ETAB ?
			    DIAG_DOCS : DIAG_JSONDOCS);
		if (!sh_rec_skippable(r))
			exit(2);
		d->nbad++;
		*status = 2;
	}
	if (input_end(in) != 0)
		exit(2);
	if ((z = input_zmap(in)) != NULL && sh_docmap_set_zmap(d->m, z) != 0)
		sh_zmap_free(z);
	input_close(in);
}

/* vdocs_open, without the drain. */
static void
open_docs(struct vdocs *d, struct docopt *o, int tokens, int measure,
    size_t budget, int *status)
{
	long long dups;
	char ids[400];
	size_t i;

	d->o = o;
	if ((d->path = docs_shown(d)) == NULL || sh_docmap_new(&d->m,
	    &o->rec, d->nnames > 1, input_tmpdir()) != 0)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	for (i = 0; i < d->nnames; i++)
		add_docs(d, d->names[i], status);
	if (sh_docmap_skipped(d->m))
		warnx("skipped %llu bad record(s)", sh_docmap_skipped(d->m));
	/* Records of an ID seen before are never read: said once. */
	if ((dups = sh_docmap_dups(d->m, ids, sizeof(ids))) < 0)
		errx(2, "%s: %s", d->path, sh_strerror((int)dups));
	d->ndups = (unsigned long long)dups;
	if (dups > 0)
		warnx("%s: %lld document(s) with the ID of one before, not "
		    "read (the first of an ID is): %s%s", d->path, dups, ids,
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
		open_docs(p->d, p->o, p->tokens, p->measure, p->budget,
		    p->status);
		pthread_mutex_lock(&docs_lock);
		docs_read = 1;
		pthread_mutex_unlock(&docs_lock);
	} else if (sh_drain(STDIN_FILENO, fileno(p->tmp), p->drain) != 0)
		p->err = errno;
	return NULL;
}

void
vdocs_open(struct vdocs *d, struct docopt *o, int tokens, int measure,
    size_t budget, int drain, int *status)
{
	struct part p[2];
	struct sh_drain *dr;
	struct stat st;
	FILE *tmp;

	if (tokens && measure == SH_SIM_EDIT)
		errx(2, "-J edit: compares texts, not token lists (-t)");
	if (!drain || fstat(STDIN_FILENO, &st) != 0 || S_ISREG(st.st_mode) ||
	    sh_tmpfile(input_tmpdir(), &tmp) != 0) {
		open_docs(d, o, tokens, measure, budget, status);
		return;
	}
	if ((dr = malloc(sizeof(*dr))) == NULL)
		errx(2, "%s", sh_strerror(SH_ENOMEM));
	dr->stop = docs_done;
	dr->ctx = NULL;
	docs_read = 0;		/* no thread yet */
	p[0] = (struct part){ 0, d, o, tokens, measure, budget, status, tmp,
	    dr, 0 };
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
	const char *at = d->m != NULL ? sh_docmap_failed(d->m) : NULL;
	char shown[204];

	/* An ID read from a pair line as it came: no raw byte of it. */
	if (e == SH_ENODOC || e == SH_EWEIGHT || e == SH_EEMPTYTOK ||
	    e == SH_ERANGE || e == SH_EFPDIFF || at != NULL)
		diag_bytes(id, idlen, shown, sizeof(shown));
	/* A document read where an index says it lies: that file named. */
	if (at != NULL && e != SH_ENODOC && e != SH_EFPDIFF)
		errx(2, "%s: document %s, where the index says it lies: %s%s%s",
		    at, shown, sh_strerror(e), e == SH_EZ ? ": " : "",
		    e == SH_EZ ? sh_docmap_zmsg(d->m) : "");
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
	size_t i;

	sh_verify_free(d->vf);
	sh_docmap_free(d->m);
	sh_fp_free(d->fp);
	for (i = 0; i < d->nnames; i++)
		free(d->names[i]);
	free(d->names);
	free((char *)d->path);
}

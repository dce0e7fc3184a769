#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/lines.h"
#include "near/fpline.h"
#include "near/fpload.h"

#define MINSHARE ((long long)1 << 20)	/* bytes a thread is worth */

#define STEP 4096			/* lines between reports */

/* What the threads share: the lines read, reported. */
struct tally {
	pthread_mutex_t mu;
	uint64_t lines;
	const struct sh_progress *pg;
};

struct bad {
	unsigned long long line;	/* in the share */
	int err;
};

/* A thread's share: the lines starting in share i of n of its stream,
 * of size bytes (n 1: the whole stream, as it comes). */
struct share {
	FILE *f;
	long long size;
	int i, n;
	struct tally *tally;
	unsigned long long lines;
	int err, errnum;
	/* Reading the fingerprints: */
	struct sh_fplist *l;	/* where its entries go */
	struct sh_fplist own;
	struct bad *bad;
	size_t nbad, badcap;
	char head[SH_FPLOAD_HEAD];	/* the start of its first bad line */
	size_t headlen;
	/* Reading the IDs back (sh_fpload_ids): entries [first, end) of l,
	 * the IDs of those in l->have into ids (their lengths into
	 * l->idoff). */
	const struct sh_fpfile *file;
	size_t first, end;
	char *ids;
	size_t idlen, idcap;
};

/* Count a line read, reported every STEP. */
static void
tally(struct share *s)
{
	if (++s->lines % STEP == 0) {
		pthread_mutex_lock(&s->tally->mu);
		s->tally->lines += STEP;
		sh_progress(s->tally->pg, "lines", s->tally->lines, 0);
		pthread_mutex_unlock(&s->tally->mu);
	}
}

static void *
read_share(void *arg)
{
	struct share *s = arg;
	struct sh_lines in;
	const char *p, *id;
	size_t len, idlen;
	sh_fpval fp;
	int c, e = 0;

	sh_lines_init(&in, s->f, '\n');
	if (s->n > 1)
		e = sh_lines_share(&in, s->size, s->i, s->n);
	while (e == 0 && (e = sh_lines_next(&in, &p, &len)) == 1) {
		e = 0;
		tally(s);
		if ((c = sh_fpline_parse(p, len, &fp, &id, &idlen)) == 0)
			e = sh_fplist_add(s->l, fp, id, idlen);
		else if (s->nbad < s->badcap || sh_grow(&s->bad, &s->badcap,
		    s->nbad + 1, sizeof(*s->bad)) == 0) {
			if (s->nbad == 0) {
				s->headlen = len < sizeof(s->head) ? len :
				    sizeof(s->head);
				memcpy(s->head, p, s->headlen);
			}
			s->bad[s->nbad].line = s->lines;
			s->bad[s->nbad++].err = c;
		} else
			e = SH_ENOMEM;
	}
	s->err = e;
	s->errnum = errno;
	sh_lines_free(&in);
	return NULL;
}

/* How many threads read f: those whose share is worth it and whose
 * stream of path opens the same file; their streams opened into sh. */
static int
open_shares(FILE *f, const char *path, int nthreads, struct share *sh)
{
	struct stat st, st2;
	long long size;
	int n, i;

	if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode))
		return 1;
	size = (long long)st.st_size;
	if (nthreads > SH_THREADS_MAX)
		nthreads = SH_THREADS_MAX;
	for (n = 1; n < nthreads && size / (n + 1) >= MINSHARE; n++)
		;
	sh[0].f = f;
	for (i = 1; i < n; i++) {
		if ((sh[i].f = fopen(path, "r")) == NULL ||
		    fstat(fileno(sh[i].f), &st2) != 0 ||
		    st2.st_dev != st.st_dev || st2.st_ino != st.st_ino) {
			if (sh[i].f != NULL)
				fclose(sh[i].f);
			while (--i > 0)
				fclose(sh[i].f);
			return 1;
		}
	}
	for (i = 0; i < n; i++) {
		sh[i].size = size;
		sh[i].i = i;
		sh[i].n = n;
	}
	return n;
}

/* What the regular file f is now.  Return 0, SH_EIO or SH_ENOTREG. */
static int
identify(FILE *f, struct sh_fpstat *was)
{
	struct stat st;

	if (fstat(fileno(f), &st) != 0)
		return SH_EIO;
	if (!S_ISREG(st.st_mode))
		return SH_ENOTREG;
	memset(was, 0, sizeof(*was));
	was->dev = (unsigned long long)st.st_dev;
	was->ino = (unsigned long long)st.st_ino;
	was->size = (long long)st.st_size;
	was->mtime_s = (unsigned long long)st.st_mtim.tv_sec;
	was->mtime_ns = (unsigned long long)st.st_mtim.tv_nsec;
	return 0;
}

/* A new file of files, for path.  Return 0 or SH_ENOMEM. */
static int
add_file(struct sh_fpfiles *fs, const char *path, struct sh_fpfile **file)
{
	if (fs->n == fs->cap && sh_grow(&fs->v, &fs->cap, fs->n + 1,
	    sizeof(*fs->v)) != 0)
		return SH_ENOMEM;
	*file = &fs->v[fs->n];
	memset(*file, 0, sizeof(**file));
	if (((*file)->path = strdup(path)) == NULL)
		return SH_ENOMEM;
	fs->n++;
	return 0;
}

void
sh_fpfiles_free(struct sh_fpfiles *fs)
{
	size_t i;

	for (i = 0; i < fs->n; i++)
		free(fs->v[i].path);
	free(fs->v);
	memset(fs, 0, sizeof(*fs));
}

int
sh_fpload(struct sh_fplist *l, FILE *f, const char *path, int nthreads,
    struct sh_fpfiles *files, sh_fpload_bad_fn *bad, void *ctx,
    const struct sh_progress *pg)
{
	struct tally tally;
	struct share sh[SH_THREADS_MAX];
	struct sh_fpfile *file = NULL;
	struct sh_fpstat was;
	unsigned long long before = 0;
	size_t j, had, first = l->n;
	int n, i, err = 0, errnum = 0;

	if (files != NULL) {
		if (path == NULL)
			return SH_ENOTREG;
		if ((err = identify(f, &was)) != 0 ||
		    (err = add_file(files, path, &file)) != 0)
			return err;
		file->was = was;
		file->first = first;
		l->noids = 1;
	}
	memset(sh, 0, sizeof(sh));
	n = path == NULL ? 1 : open_shares(f, path, nthreads, sh);
	if (n == 1) {
		sh[0].f = f;
		sh[0].n = 1;
	}
	tally.lines = 0;
	tally.pg = pg;
	pthread_mutex_init(&tally.mu, NULL);
	for (i = 0; i < n; i++) {
		sh[i].l = i == 0 ? l : &sh[i].own;
		sh[i].own.noids = l->noids;
		sh[i].tally = &tally;
	}
	/* A line holds at least 17 bytes: room for all of a file's, if
	 * the system grants the address space (else the list grows). */
	if (sh[0].size > 0)
		(void)sh_fplist_reserve(l, (size_t)(sh[0].size / 17 + 1));
	sh_threads_run(sh, sizeof(*sh), n, read_share);
	for (i = 0; i < n; i++) {
		if (err == 0 && sh[i].err != 0) {
			err = sh[i].err;
			errnum = sh[i].errnum;
		}
		had = i == 0 ? first : l->n;
		if (err == 0 && i > 0)
			err = sh_fplist_append(l, &sh[i].own);
		if (file != NULL)
			file->count[i] = l->n - had;
		for (j = 0; err == 0 && j < sh[i].nbad; j++)
			bad(ctx, before + sh[i].bad[j].line, sh[i].bad[j].err,
			    j == 0 ? sh[i].head : NULL, sh[i].headlen);
		before += sh[i].lines;
		sh_fplist_free(&sh[i].own);
		free(sh[i].bad);
		if (i > 0)
			fclose(sh[i].f);
	}
	if (file != NULL)
		file->nshares = n;
	pthread_mutex_destroy(&tally.mu);
	errno = errnum;
	return err;
}

/* Read the IDs of share s back (sh_fpload_ids). */
static void *
read_ids(void *arg)
{
	struct share *s = arg;
	struct sh_fplist *l = s->l;
	struct sh_fpstat now;
	struct sh_lines in;
	const char *p, *id;
	size_t len, idlen, i = s->first, slot;
	sh_fpval fp;
	int e;

	if ((s->f = fopen(s->file->path, "r")) == NULL) {
		s->err = SH_EIO;
		s->errnum = errno;
		return NULL;
	}
	if ((e = identify(s->f, &now)) == 0 && memcmp(&now, &s->file->was,
	    sizeof(now)) != 0)
		e = SH_ECHANGED;
	sh_lines_init(&in, s->f, '\n');
	if (e == 0 && s->n > 1)
		e = sh_lines_share(&in, s->size, s->i, s->n);
	slot = sh_fplist_slot(l, i);
	while (e == 0 && i < s->end && (e = sh_lines_next(&in, &p, &len)) ==
	    1) {
		e = 0;
		tally(s);
		if (sh_fpline_parse(p, len, &fp, &id, &idlen) != 0)
			continue;
		if (fp != l->fp[i]) {
			e = SH_ECHANGED;
			break;
		}
		if (l->have[i >> 6] >> (i & 63) & 1) {
			if (s->idcap - s->idlen < idlen && sh_grow(&s->ids,
			    &s->idcap, s->idlen + idlen, 1) != 0) {
				e = SH_ENOMEM;
				break;
			}
			if (idlen > 0)
				memcpy(s->ids + s->idlen, id, idlen);
			s->idlen += idlen;
			l->idoff[++slot] = idlen;
		}
		i++;
	}
	if (e == 0 && i < s->end)
		e = SH_ECHANGED;
	s->err = e;
	s->errnum = errno;
	sh_lines_free(&in);
	return NULL;
}

int
sh_fpload_ids(struct sh_fplist *l, const struct sh_fpfiles *files,
    uint64_t *have, const struct sh_progress *pg, const char **path)
{
	struct tally tally;
	struct share sh[SH_THREADS_MAX];
	const struct sh_fpfile *file;
	char *ids = NULL;
	size_t i, first, len = 0, cap = 0;
	int j, e, errnum = 0;

	if ((e = sh_fplist_ids_for(l, have)) != 0)
		return e;
	tally.lines = 0;
	tally.pg = pg;
	pthread_mutex_init(&tally.mu, NULL);
	for (i = 0; e == 0 && i < files->n; i++) {
		file = &files->v[i];
		memset(sh, 0, sizeof(sh));
		first = file->first;
		for (j = 0; j < file->nshares; j++) {
			sh[j].file = file;
			sh[j].l = l;
			sh[j].tally = &tally;
			sh[j].size = file->was.size;
			sh[j].i = j;
			sh[j].n = file->nshares;
			sh[j].first = first;
			sh[j].end = first += file->count[j];
		}
		sh_threads_run(sh, sizeof(*sh), file->nshares, read_ids);
		for (j = 0; j < file->nshares; j++) {
			if (e == 0 && (e = sh[j].err) != 0)
				errnum = sh[j].errnum;
			if (e == 0 && cap - len < sh[j].idlen && sh_grow(&ids,
			    &cap, len + sh[j].idlen, 1) != 0)
				e = SH_ENOMEM;
			if (e == 0 && sh[j].idlen > 0) {
				memcpy(ids + len, sh[j].ids, sh[j].idlen);
				len += sh[j].idlen;
			}
			free(sh[j].ids);
			if (sh[j].f != NULL)
				fclose(sh[j].f);
		}
		if (e != 0)
			*path = file->path;
	}
	pthread_mutex_destroy(&tally.mu);
	if (e != 0) {
		free(ids);
		errno = errnum;
		return e;
	}
	sh_fplist_ids_done(l, ids, len);
	return 0;
}

#include <sys/stat.h>

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/lines.h"
#include "base/threads.h"
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
	struct sh_fplist *l;	/* where its entries go */
	struct sh_fplist own;
	struct tally *tally;
	struct bad *bad;
	size_t nbad, badcap;
	unsigned long long lines;
	int err, errnum;
};

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
		if (++s->lines % STEP == 0) {
			pthread_mutex_lock(&s->tally->mu);
			s->tally->lines += STEP;
			sh_progress(s->tally->pg, "lines", s->tally->lines, 0);
			pthread_mutex_unlock(&s->tally->mu);
		}
		if ((c = sh_fpline_parse(p, len, &fp, &id, &idlen)) == 0)
			e = sh_fplist_add(s->l, fp, id, idlen);
		else if (s->nbad < s->badcap || sh_grow(&s->bad, &s->badcap,
		    s->nbad + 1, sizeof(*s->bad)) == 0) {
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

int
sh_fpload(struct sh_fplist *l, FILE *f, const char *path, int nthreads,
    sh_fpload_bad_fn *bad, void *ctx, const struct sh_progress *pg)
{
	struct tally tally;
	struct share sh[SH_THREADS_MAX];
	unsigned long long before = 0;
	size_t j;
	int n, i, err = 0, errnum = 0;

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
		sh[i].tally = &tally;
	}
	sh_threads_run(sh, sizeof(*sh), n, read_share);
	for (i = 0; i < n; i++) {
		if (err == 0 && sh[i].err != 0) {
			err = sh[i].err;
			errnum = sh[i].errnum;
		}
		if (err == 0 && i > 0)
			err = sh_fplist_append(l, &sh[i].own);
		for (j = 0; err == 0 && j < sh[i].nbad; j++)
			bad(ctx, before + sh[i].bad[j].line, sh[i].bad[j].err);
		before += sh[i].lines;
		sh_fplist_free(&sh[i].own);
		free(sh[i].bad);
		if (i > 0)
			fclose(sh[i].f);
	}
	pthread_mutex_destroy(&tally.mu);
	errno = errnum;
	return err;
}

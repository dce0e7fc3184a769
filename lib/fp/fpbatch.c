#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "fp/fpbatch.h"

#define MAXTHREADS 64
#define STEP 8			/* documents a thread takes at once */
#define FULL_DOCS 256		/* per thread */
#define FULL_BYTES (1 << 20)	/* per thread */

int
sh_fpbatch_init(struct sh_fpbatch *b, const struct sh_fpopt *o,
    int nthreads, int tokens)
{
	int t;

	memset(b, 0, sizeof(*b));
	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > MAXTHREADS)
		nthreads = MAXTHREADS;
	if ((b->fp = calloc((size_t)nthreads, sizeof(*b->fp))) == NULL)
		return SH_ENOMEM;
	b->nthreads = nthreads;
	b->tokens = tokens;
	b->sketch = o->csketch ? 2 : o->sketch;
	for (t = 0; t < nthreads; t++)
		if ((b->fp[t] = sh_fp_new(o)) == NULL) {
			sh_fpbatch_free(b);
			return SH_ENOMEM;
		}
	return 0;
}

void
sh_fpbatch_free(struct sh_fpbatch *b)
{
	int t;

	for (t = 0; b->fp != NULL && t < b->nthreads; t++)
		sh_fp_free(b->fp[t]);
	free(b->fp);
	free(b->doc);
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

int
sh_fpbatch_add(struct sh_fpbatch *b, const char *id, size_t idlen,
    const char *text, size_t len, unsigned long long line, int rerr)
{
	struct sh_fpdoc *d;

	if (rerr)
		idlen = len = 0;
	if (idlen + len < idlen || b->used + idlen + len < b->used ||
	    sh_grow(&b->buf, &b->bufcap, b->used + idlen + len, 1) != 0 ||
	    sh_grow(&b->doc, &b->cap, b->n + 1, sizeof(*b->doc)) != 0)
		return SH_ENOMEM;
	d = &b->doc[b->n++];
	memset(d, 0, sizeof(*d));
	d->line = line;
	d->rerr = rerr;
	d->id = b->used;
	d->idlen = idlen;
	if (idlen > 0)
		memcpy(b->buf + b->used, id, idlen);
	b->used += idlen;
	d->text = b->used;
	d->len = len;
	if (len > 0)
		memcpy(b->buf + b->used, text, len);
	b->used += len;
	return 0;
}

int
sh_fpbatch_full(const struct sh_fpbatch *b)
{
	return b->n >= (size_t)FULL_DOCS * (size_t)b->nthreads ||
	    b->used >= (size_t)FULL_BYTES * (size_t)b->nthreads;
}

const char *
sh_fpbatch_id(const struct sh_fpbatch *b, const struct sh_fpdoc *d)
{
	return b->buf + d->id;
}

void
sh_fpbatch_clear(struct sh_fpbatch *b)
{
	b->n = 0;
	b->used = 0;
}

/* The threads of a run share the next document to take. */
struct share {
	struct sh_fpbatch *b;
	pthread_mutex_t mu;
	size_t next;
};

struct worker {
	struct share *sh;
	struct sh_fp *fp;
};

static void
doc_fp(const struct sh_fpbatch *b, struct sh_fp *fp, struct sh_fpdoc *d)
{
	const char *text = b->buf + d->text;

	if (d->rerr)
		return;
	if (b->tokens)
		d->err = sh_fp_tokens(fp, text, d->len, &d->fp, &d->total,
		    &d->col);
	else
		d->err = sh_fp_text(fp, text, d->len, &d->fp, &d->total,
		    &d->bad);
	d->nfeat = sh_fp_count(fp);
	d->skind = 0;
	if (b->sketch == 1 && d->err == 0)
		sh_fp_sketch(fp, &d->sk);
	/* A text with features has characters: the empty sketch of kind 1
	 * is for safety only. */
	if (b->sketch == 2 && d->err == 0 &&
	    !sh_fp_csketch(fp, &d->sk, &d->skind)) {
		memset(&d->sk, 0, sizeof(d->sk));
		d->skind = 1;
	}
}

static void *
work(void *arg)
{
	struct worker *w = arg;
	struct share *sh = w->sh;
	size_t i, end;

	for (;;) {
		pthread_mutex_lock(&sh->mu);
		i = sh->next;
		if (i < sh->b->n)
			sh->next += STEP;
		pthread_mutex_unlock(&sh->mu);
		if (i >= sh->b->n)
			return NULL;
		end = i + STEP < sh->b->n ? i + STEP : sh->b->n;
		for (; i < end; i++)
			doc_fp(sh->b, w->fp, &sh->b->doc[i]);
	}
}

void
sh_fpbatch_run(struct sh_fpbatch *b)
{
	struct worker w[MAXTHREADS];
	pthread_t tid[MAXTHREADS];
	struct share sh;
	size_t i;
	int t, started;

	if (b->nthreads == 1 || b->n <= STEP) {
		for (i = 0; i < b->n; i++)
			doc_fp(b, b->fp[0], &b->doc[i]);
		return;
	}
	sh.b = b;
	sh.next = 0;
	pthread_mutex_init(&sh.mu, NULL);
	for (t = 0; t < b->nthreads; t++) {
		w[t].sh = &sh;
		w[t].fp = b->fp[t];
	}
	for (started = 1; started < b->nthreads; started++)
		if (pthread_create(&tid[started], NULL, work, &w[started]) != 0)
			break;
	work(&w[0]);
	for (t = 1; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&sh.mu);
}

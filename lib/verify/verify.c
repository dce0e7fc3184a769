#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "fp/similar.h"
#include "near/pairline.h"
#include "verify/verify.h"

/* A document's features, kept with its ID. */
struct doc {
	char *id;
	size_t idlen, idcap;
	int ok;
	struct sh_fvec v;
};

struct sh_verify {
	struct sh_docmap *m;
	struct sh_fp *f;
	int tokens, measure;
	struct doc d[2];
};

struct sh_verify *
sh_verify_new(struct sh_docmap *m, struct sh_fp *f, int tokens, int measure)
{
	struct sh_verify *v;

	if ((v = calloc(1, sizeof(*v))) == NULL)
		return NULL;
	v->m = m;
	v->f = f;
	v->tokens = tokens;
	v->measure = measure;
	sh_fvec_init(&v->d[0].v, 0);
	sh_fvec_init(&v->d[1].v, 0);
	return v;
}

void
sh_verify_free(struct sh_verify *v)
{
	int i;

	if (v == NULL)
		return;
	for (i = 0; i < 2; i++) {
		free(v->d[i].id);
		sh_fvec_free(&v->d[i].v);
	}
	free(v);
}

/* The features of document id[0..len) into d, unless d holds them. */
static int
load(struct sh_verify *v, struct doc *d, const char *id, size_t len,
    size_t *col)
{
	struct sh_rec rec;
	char *p;
	int r, bad;

	if (d->ok && d->idlen == len && memcmp(d->id, id, len) == 0)
		return 0;
	d->ok = 0;
	if ((r = sh_docmap_get(v->m, id, len, &rec)) <= 0)
		return r == 0 ? SH_ENODOC : r;
	if ((r = sh_fvec_doc(&d->v, v->f, rec.text, rec.len, v->tokens, &bad,
	    col)) != 0) {
		*col += rec.idlen + 1;	/* token lists are "ID<TAB>LIST" */
		return r;
	}
	if (d->idcap < len + 1) {
		if ((p = realloc(d->id, len + 1)) == NULL)
			return SH_ENOMEM;
		d->id = p;
		d->idcap = len + 1;
	}
	memcpy(d->id, id, len);
	d->idlen = len;
	d->ok = 1;
	return 0;
}

int
sh_verify_line(struct sh_verify *v, const char *p, size_t len,
    uint32_t *sim, const char **id, size_t *idlen, size_t *col)
{
	const char *id1, *id2;
	size_t n1, n2;
	int r;

	if ((r = sh_pairline_parse(p, len, &id1, &n1, &id2, &n2)) != 0)
		return r;
	*id = id1;
	*idlen = n1;
	if ((r = load(v, &v->d[0], id1, n1, col)) != 0)
		return r;
	*id = id2;
	*idlen = n2;
	if ((r = load(v, &v->d[1], id2, n2, col)) != 0)
		return r;
	*sim = sh_sim(v->measure, &v->d[0].v, &v->d[1].v);
	return 0;
}

int
sh_verify_file(const char *path, const struct sh_recopt *o,
    struct sh_fp *f, int tokens, struct sh_fvec *v, char **id,
    unsigned long long *line, size_t *col)
{
	struct sh_reader rd;
	struct sh_rec rec = { 0 };
	FILE *in;
	int r, bad;

	*col = 0;
	if ((in = fopen(path, "r")) == NULL)
		return SH_EIO;
	sh_reader_open(&rd, in, o, path, 0);
	while ((r = sh_reader_next(&rd, &rec)) < 0 && sh_rec_skippable(r) &&
	    o->skip)
		;
	*line = rec.line;
	if (r == 1 && (r = sh_fvec_doc(v, f, rec.text, rec.len, tokens, &bad,
	    col)) == 0) {
		if ((*id = malloc(rec.idlen + 1)) == NULL)
			r = SH_ENOMEM;
		else {
			memcpy(*id, rec.id, rec.idlen);
			(*id)[rec.idlen] = '\0';
			r = 1;
		}
	} else if (r == SH_EWEIGHT || r == SH_EEMPTYTOK || r == SH_ERANGE)
		*col += rec.idlen + 1;
	sh_reader_free(&rd);
	fclose(in);
	return r;
}

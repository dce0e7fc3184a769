#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/lines.h"
#include "feat/stopword.h"
#include "feat/tokenize.h"
#include "text/stoplist.h"

/* A stop-word list being loaded: the set and the tokenizer that cuts
 * its entries. */
struct load {
	struct sh_stop *set;
	struct sh_tok *tok;
	int nomem;
};

static void
add_feature(void *ctx, const char *tok, size_t len, uint64_t h)
{
	struct load *l = ctx;

	(void)tok;
	(void)len;
	if (sh_stop_put(l->set, h) != 0)
		l->nomem = 1;
}

static int
add(struct load *l, const char *p, size_t len, int *bad)
{
	l->nomem = 0;
	if (sh_tok_run(l->tok, p, len, add_feature, l, bad) < 0 || l->nomem)
		return SH_ENOMEM;
	return 0;
}

static int
load_file(struct load *l, FILE *f, unsigned long long *line)
{
	char *buf = NULL, *hash;
	size_t cap = 0;
	ssize_t n;
	int r = 0, bad;

	/* A line cut short by a failed read is not taken (the failure is
	 * told, while errno is its read's). */
	while ((n = getline(&buf, &cap, f)) != -1 && !ferror(f)) {
		++*line;
		if ((hash = memchr(buf, '#', (size_t)n)) != NULL)
			n = hash - buf;
		bad = 0;
		if ((r = add(l, buf, (size_t)n, &bad)) != 0)
			break;
		if (bad) {
			r = SH_EUTF8;
			break;
		}
	}
	if (r == 0)
		r = sh_lines_error(f);
	free(buf);
	return r;
}

/* A tokenizer cutting entries as text is cut with option simplify:
 * SH_TOK_MAX-grams, so that a run of ideographs gives itself, and no
 * shingles. */
static int
load_open(struct load *l, struct sh_stop *s, int simplify)
{
	struct sh_tokopt o = { .ngram = SH_TOK_MAX, .shingle = 1,
	    .simplify = simplify };

	l->set = s;
	return (l->tok = sh_tok_new(&o)) == NULL ? SH_ENOMEM : 0;
}

int
sh_stop_add(struct sh_stop *s, const char *p, size_t len, int simplify,
    int *bad)
{
	struct load l;
	int r;

	if ((r = load_open(&l, s, simplify)) == 0)
		r = add(&l, p, len, bad);
	sh_tok_free(l.tok);
	return r;
}

int
sh_stop_load(struct sh_stop *s, const char *name, int simplify,
    unsigned long long *line)
{
	struct load l;
	FILE *f;
	int r, bad, e;

	*line = 0;
	if (strcmp(name, "@en") == 0)
		return sh_stop_add(s, sh_stoplist_en, sh_stoplist_enlen, simplify,
		    &bad);
	if (strcmp(name, "@zh") == 0)
		return sh_stop_add(s, sh_stoplist_zh, sh_stoplist_zhlen, simplify,
		    &bad);
	if (name[0] == '@')
		return SH_EINVAL;
	if ((f = fopen(name, "r")) == NULL)
		return SH_EIO;
	if ((r = load_open(&l, s, simplify)) == 0)
		r = load_file(&l, f, line);
	e = errno;
	sh_tok_free(l.tok);
	fclose(f);
	errno = e;
	if (r != SH_EUTF8)
		*line = 0;
	return r;
}

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/lines.h"
#include "base/num.h"
#include "feat/dict.h"
#include "text/fold.h"
#include "text/unicode.h"

/*
 * The words and all their prefixes form a trie whose edges live in one
 * open-addressing hash table keyed by (parent node, code point); node 0 is
 * the root, so child 0 marks an empty slot.  Per node: the score of the
 * word ending there, or NOWORD for a prefix only.  While loading, the same
 * array holds frequencies (-1 for a prefix only).
 */
#define NOWORD INT64_MIN
#define TOTAL_MAX (1ull << 62)

struct slot {
	uint32_t parent, cp, child;
};

struct sh_dict {
	struct slot *tab;
	int bits;		/* the table has 2^bits slots */
	int64_t *score;
	uint32_t nodes, cap;	/* nodes in use (root included), room */
	size_t words;
	int64_t unknown;	/* score of a character not in it: -log2 T */
};

static size_t
slot_of(const struct sh_dict *d, uint32_t parent, uint32_t cp)
{
	uint64_t k = ((uint64_t)parent << 32 | cp) * 0x9E3779B97F4A7C15ull;

	return (size_t)(k >> (64 - d->bits));
}

/* The child of node parent by cp, or 0. */
static uint32_t
child(const struct sh_dict *d, uint32_t parent, uint32_t cp)
{
	size_t mask = ((size_t)1 << d->bits) - 1;
	size_t i = slot_of(d, parent, cp);
	const struct slot *s;

	for (;; i = (i + 1) & mask) {
		s = &d->tab[i];
		if (s->child == 0)
			return 0;
		if (s->parent == parent && s->cp == cp)
			return s->child;
	}
}

/* Double the table, keeping it at most half full. */
static int
grow_table(struct sh_dict *d)
{
	struct slot *old = d->tab, *s;
	size_t i, j, n = old ? (size_t)1 << d->bits : 0, mask;
	int bits = old ? d->bits + 1 : 12;

	if (bits > 32 || (d->tab = calloc((size_t)1 << bits,
	    sizeof(*d->tab))) == NULL) {
		d->tab = old;
		return SH_ENOMEM;
	}
	d->bits = bits;
	mask = ((size_t)1 << bits) - 1;
	for (i = 0; i < n; i++) {
		s = &old[i];
		if (s->child == 0)
			continue;
		for (j = slot_of(d, s->parent, s->cp); d->tab[j].child != 0;
		    j = (j + 1) & mask)
			;
		d->tab[j] = *s;
	}
	free(old);
	return 0;
}

/* The child of parent by cp, made (as a prefix only) if missing; 0 when
 * out of memory. */
static uint32_t
add_child(struct sh_dict *d, uint32_t parent, uint32_t cp)
{
	size_t i, mask;
	uint32_t c;
	int64_t *np;

	if ((c = child(d, parent, cp)) != 0)
		return c;
	if ((size_t)d->nodes + 1 > ((size_t)1 << d->bits) / 2 &&
	    grow_table(d) != 0)
		return 0;
	if (d->nodes == d->cap) {
		if (d->cap > UINT32_MAX / 2 || (np = realloc(d->score,
		    2 * (size_t)d->cap * sizeof(*np))) == NULL)
			return 0;
		d->score = np;
		d->cap *= 2;
	}
	mask = ((size_t)1 << d->bits) - 1;
	for (i = slot_of(d, parent, cp); d->tab[i].child != 0;
	    i = (i + 1) & mask)
		;
	c = d->nodes++;
	d->tab[i].parent = parent;
	d->tab[i].cp = cp;
	d->tab[i].child = c;
	d->score[c] = -1;
	return c;
}

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' ||
	    c == '\f';
}

/* Parse one line p[0..len) into the word's bytes and its frequency;
 * return 1, 0 for a blank line, or SH_EDICT / SH_ERANGE. */
static int
parse_line(char *p, size_t len, char **word, size_t *wlen, uint64_t *freq)
{
	size_t i = 0, w;
	uint64_t f = 0;

	while (len > 0 && blank(p[len - 1]))
		len--;
	while (i < len && blank(p[i]))
		i++;
	if (i == len)
		return 0;
	for (w = i; i < len && p[i] != ' ' && p[i] != '\t'; i++)
		;
	*word = p + w;
	*wlen = i - w;
	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (*wlen > SH_DICT_WORD_MAX || i == len || p[i] < '0' || p[i] > '9')
		return SH_EDICT;
	for (; i < len && p[i] >= '0' && p[i] <= '9'; i++) {
		if (f > (TOTAL_MAX - (uint64_t)(p[i] - '0')) / 10)
			return SH_ERANGE;
		f = f * 10 + (uint64_t)(p[i] - '0');
	}
	if (i < len && p[i] != ' ' && p[i] != '\t')
		return SH_EDICT;
	*freq = f;
	return 1;
}

/* Add word p[0..len) of frequency f; key has room for the folded word. */
static int
add_word(struct sh_dict *d, const char *p, size_t len, uint64_t f,
    int simplify, uint32_t *key)
{
	uint32_t node = 0;
	size_t i, n;
	int bad = 0;

	n = sh_fold_text(p, len, simplify, key, &bad);
	if (bad)
		return SH_EUTF8;
	if (n == 0)
		return 0;	/* folds away: it can never match */
	for (i = 0; i < n; i++)
		if ((node = add_child(d, node, key[i])) == 0)
			return SH_ENOMEM;
	d->score[node] = (int64_t)f;
	return 0;
}

int
sh_dict_load(FILE *fp, int simplify, struct sh_dict **dp,
    unsigned long long *line)
{
	struct sh_dict *d;
	char *buf = NULL, *word;
	uint32_t *key, i;
	size_t cap = 0, wlen;
	ssize_t len;
	uint64_t f, total = 0;
	int64_t logt;
	int r = 0;

	*line = 0;
	*dp = NULL;
	if ((d = calloc(1, sizeof(*d))) == NULL)
		return SH_ENOMEM;
	if ((key = malloc(SH_DICT_WORD_MAX * SH_UC_FOLD_MAX *
	    sizeof(*key))) == NULL) {
		free(d);
		return SH_ENOMEM;
	}
	d->nodes = 1;
	d->cap = 1024;
	if ((d->score = malloc(d->cap * sizeof(*d->score))) == NULL ||
	    grow_table(d) != 0) {
		sh_dict_free(d);
		free(key);
		return SH_ENOMEM;
	}
	d->score[0] = -1;
	errno = 0;
	/* A line cut short by a failed read is not parsed (the failure
	 * is told, while errno is its read's). */
	while ((len = getline(&buf, &cap, fp)) != -1 && !ferror(fp)) {
		++*line;
		if ((r = parse_line(buf, (size_t)len, &word, &wlen, &f)) < 0)
			break;
		if (r == 0)
			continue;
		if (f > TOTAL_MAX - total) {
			r = SH_ERANGE;
			break;
		}
		total += f;
		if ((r = add_word(d, word, wlen, f, simplify, key)) != 0)
			break;
	}
	if (r == 0 && (r = sh_lines_error(fp)) != 0)
		*line = 0;
	else if (r == SH_ENOMEM)
		*line = 0;
	free(buf);
	free(key);
	if (r != 0) {
		sh_dict_free(d);
		return r;
	}
	/* Scores from frequencies, now that the total is known. */
	logt = (int64_t)sh_log2_q32(total > 0 ? total : 1);
	d->unknown = -logt;
	for (i = 0; i < d->nodes; i++) {
		if (d->score[i] > 0) {
			d->score[i] = (int64_t)sh_log2_q32((uint64_t)d->score[i]) - logt;
			d->words++;
		} else
			d->score[i] = NOWORD;
	}
	*dp = d;
	return 0;
}

void
sh_dict_free(struct sh_dict *d)
{
	if (d == NULL)
		return;
	free(d->tab);
	free(d->score);
	free(d);
}

size_t
sh_dict_words(const struct sh_dict *d)
{
	return d->words;
}

void
sh_dictcut_free(struct sh_dictcut *w)
{
	free(w->score);
	free(w->next);
	free(w->mark);
	w->score = NULL;
	w->next = NULL;
	w->mark = NULL;
	w->cap = 0;
}

static int
reserve(struct sh_dictcut *w, size_t n)
{
	int64_t *s;
	uint32_t *x;
	unsigned char *m;
	size_t cap = w->cap ? w->cap : 256;

	if (n <= w->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	if ((s = realloc(w->score, cap * sizeof(*s))) == NULL)
		return SH_ENOMEM;
	w->score = s;
	if ((x = realloc(w->next, cap * sizeof(*x))) == NULL)
		return SH_ENOMEM;
	w->next = x;
	if ((m = realloc(w->mark, cap)) == NULL)
		return SH_ENOMEM;
	w->mark = m;
	w->cap = cap;
	return 0;
}

/*
 * The last position k in (0, n) that no word can cross: every word
 * starting before k ends by k, and no prefix starting before k is still
 * open at n (it could grow into a word with what follows).  n if none.
 */
static size_t
safe_end(const struct sh_dict *d, const uint32_t *cp,
    const unsigned char *mark, size_t n)
{
	size_t q, i, reach = 0, k = n;
	uint32_t node;

	for (q = 0; q < n; q++) {
		if (q > 0 && !mark[q] && reach <= q)
			k = q;
		if (mark[q])
			continue;
		if (reach < q + 1)
			reach = q + 1;
		for (node = 0, i = q; i < n; i++) {
			if ((node = child(d, node, cp[i])) == 0)
				break;
			if (d->score[node] != NOWORD && reach < i + 1)
				reach = i + 1;
		}
		if (i == n && node != 0)
			reach = SIZE_MAX;	/* open at the end */
	}
	return k;
}

long long
sh_dict_cut(const struct sh_dict *d, struct sh_dictcut *w, const uint32_t *cp,
    size_t n, int more, sh_dict_fn *fn, void *ctx)
{
	size_t q, i, e, best_end;
	uint32_t node;
	int64_t s, best;

	if (n > SH_DICT_RUN_MAX) {
		n = SH_DICT_RUN_MAX;
		more = 1;
	}
	if (n == 0)
		return 0;
	if (reserve(w, n + 1) != 0)
		return SH_ENOMEM;
	w->mark[0] = 0;
	for (i = 1; i < n; i++)
		w->mark[i] = cp[i] >= 0x300 && sh_uc_ccc(cp[i]) != 0;
	w->mark[n] = 0;
	if (more)
		n = safe_end(d, cp, w->mark, n);

	/* Best sums from the end back, jieba's calc(). */
	w->score[n] = 0;
	for (q = n; q-- > 0;) {
		if (w->mark[q])
			continue;
		best = 0;
		best_end = 0;
		for (node = 0, i = q; i < n; i++) {
			if ((node = child(d, node, cp[i])) == 0)
				break;
			if (w->mark[i + 1] || d->score[node] == NOWORD)
				continue;
			s = d->score[node] + w->score[i + 1];
			if (best_end == 0 || s >= best) {
				best = s;
				best_end = i + 1;
			}
		}
		if (best_end == 0) {
			for (e = q + 1; w->mark[e]; e++)
				;
			best = d->unknown + w->score[e];
			best_end = e;
		}
		w->score[q] = best;
		w->next[q] = (uint32_t)best_end;
	}
	for (q = 0; q < n; q = w->next[q])
		fn(ctx, q, w->next[q] - q);
	return (long long)n;
}

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/utf8.h"
#include "feat/dict.h"
#include "feat/stopset.h"
#include "feat/tokenize.h"
#include "text/fold.h"

#define CLUSTER 16
#define RUN 4096		/* longest piece of a run cut with a dictionary */

struct buf {
	char *p;
	size_t len, cap;
};

struct sh_tok {
	struct sh_tokopt o;
	sh_tok_fn *fn;
	void *ctx;
	long long nfeat;
	int nomem;

	/* Current word: bytes, and where its last character starts. */
	struct buf w;
	size_t wlast;
	uint32_t wprev;

	/* Shingle window: up to o.shingle words joined by '_', the bytes
	 * s.p[sbeg .. s.len); word i of it starts at s.p[sstart[i]]. */
	struct buf s;
	size_t sbeg, sstart[SH_TOK_MAX];
	int swords, semitted;

	/* N-gram run: bytes of its last o.ngram characters, each a base and
	 * the marks that did not compose with it, at most CLUSTER bytes: the
	 * window g[gbeg .. gbeg + glen), in room for two windows so that it
	 * slides by a step of gbeg and moves to the front only when full. */
	char g[2 * CLUSTER * (SH_TOK_MAX + 1)];
	size_t gbeg, glen, gclen[SH_TOK_MAX + 1];
	int gchars;
	uint32_t gprev;

	/* With a dictionary, the run's code points instead: where its last
	 * character starts, that character's base and its length in bytes;
	 * and the bytes of the word being emitted. */
	uint32_t *run;
	size_t rlen, rcap, rlast, rclen;
	uint32_t rprev;
	struct sh_dictcut cut;
	struct buf dw;
};

/* ASCII fold: digits and letters, lowercased, are word bytes; every other
 * byte, non-ASCII included, is 0. */
static const unsigned char ascii[256] = {
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37,
	0x38, 0x39, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
	0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f,
	0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
	0x78, 0x79, 0x7a, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67,
	0x68, 0x69, 0x6a, 0x6b, 0x6c, 0x6d, 0x6e, 0x6f,
	0x70, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76, 0x77,
	0x78, 0x79, 0x7a, 0x00, 0x00, 0x00, 0x00, 0x00,
};

/* Make room in b for at least reserve more bytes. */
static int
buf_grow(struct buf *b, size_t reserve)
{
	char *np;
	size_t cap = b->cap ? b->cap : 64;

	if (b->cap - b->len >= reserve)
		return 0;
	while (cap - b->len < reserve)
		cap *= 2;
	if ((np = realloc(b->p, cap)) == NULL)
		return SH_ENOMEM;
	b->p = np;
	b->cap = cap;
	return 0;
}

/* Append p[0..n) to b, making room for at least reserve more bytes.  The
 * bytes are few (a word, a character): copied in a loop, not by a call. */
static inline int
buf_put(struct buf *b, const char *p, size_t n, size_t reserve)
{
	char *o;
	size_t i;

	if (reserve < n)
		reserve = n;
	if (b->cap - b->len < reserve && buf_grow(b, reserve) != 0)
		return SH_ENOMEM;
	for (o = b->p + b->len, i = 0; i < n; i++)
		o[i] = p[i];
	b->len += n;
	return 0;
}

struct sh_tok *
sh_tok_new(const struct sh_tokopt *o)
{
	struct sh_tok *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->o = *o;
	return t;
}

void
sh_tok_free(struct sh_tok *t)
{
	if (t == NULL)
		return;
	free(t->w.p);
	free(t->s.p);
	free(t->run);
	free(t->dw.p);
	sh_dictcut_free(&t->cut);
	free(t);
}

/* Emit feature p[0..n) of hash h. */
static void
emit_h(struct sh_tok *t, const char *p, size_t n, uint64_t h)
{
	t->fn(t->ctx, p, n, h);
	t->nfeat++;
}

static void
emit(struct sh_tok *t, const char *p, size_t n)
{
	emit_h(t, p, n, sh_hash64(p, n, 0));
}

/* Whether p[0..n), of hash h, is a stop word: one probe, only when a
 * stop-word set is given. */
static int
stopped(const struct sh_tok *t, uint64_t h)
{
	return t->o.stop != NULL && sh_stop_has(t->o.stop, h);
}

static void
emit_gram(struct sh_tok *t)
{
	uint64_t h = sh_hash64(t->g + t->gbeg, t->glen, 0);

	if (!stopped(t, h))
		emit_h(t, t->g + t->gbeg, t->glen, h);
}

/* End of a stretch of words: flush a short shingle window. */
static void
seg_end(struct sh_tok *t)
{
	if (t->swords > 0 && !t->semitted)
		emit(t, t->s.p + t->sbeg, t->s.len - t->sbeg);
	t->swords = 0;
	t->semitted = 0;
	t->s.len = t->sbeg = 0;
}

/* The word p[0..n) joins the word stream. */
static void
word_push(struct sh_tok *t, const char *p, size_t n)
{
	uint64_t h = 0;
	size_t drop;
	int i;

	if (t->o.shingle == 1 || t->o.stop != NULL)
		h = sh_hash64(p, n, 0);
	if (stopped(t, h))
		return;
	if (t->o.shingle == 1) {
		emit_h(t, p, n, h);
		return;
	}
	if (t->swords == t->o.shingle) {
		/* Slide: drop the oldest word and its '_'. */
		t->sbeg = t->sstart[1];
		for (i = 1; i < t->swords; i++)
			t->sstart[i - 1] = t->sstart[i];
		t->swords--;
	}
	if (t->s.cap - t->s.len < n + 1) {
		/* Out of room: the window moves to the front, and the buffer
		 * grows to leave room for many more words after it. */
		drop = t->sbeg;
		if (drop > 0)
			memmove(t->s.p, t->s.p + drop, t->s.len - drop);
		t->s.len -= drop;
		t->sbeg = 0;
		for (i = 0; i < t->swords; i++)
			t->sstart[i] -= drop;
		if (buf_grow(&t->s, n + 1 + 256) != 0)
			t->nomem = 1;
	}
	if (t->swords > 0 && buf_put(&t->s, "_", 1, 0) != 0)
		t->nomem = 1;
	t->sstart[t->swords] = t->s.len;
	if (buf_put(&t->s, p, n, 0) != 0)
		t->nomem = 1;
	t->swords++;
	if (t->swords == t->o.shingle) {
		emit(t, t->s.p + t->sbeg, t->s.len - t->sbeg);
		t->semitted = 1;
	}
}

static void
word_end(struct sh_tok *t)
{
	if (t->w.len == 0)
		return;
	word_push(t, t->w.p, t->w.len);
	t->w.len = 0;
}

/*
 * The window holds the last min(run, n) characters of the run.  The n-gram
 * ending at the newest character is emitted only when the next character
 * arrives or the run ends, so that a following mark can still compose.
 */
static void
gram_end(struct sh_tok *t)
{
	if (t->gchars > 0)
		emit_gram(t);
	t->gchars = 0;
	t->gbeg = t->glen = 0;
}

/* A dictionary word, code points start..start+len of the run. */
static void
dict_word(void *ctx, size_t start, size_t len)
{
	struct sh_tok *t = ctx;
	char enc[4];
	size_t i;

	t->dw.len = 0;
	for (i = start; i < start + len; i++)
		if (buf_put(&t->dw, enc, sh_utf8_encode(t->run[i], enc),
		    0) != 0) {
			t->nomem = 1;
			return;
		}
	word_push(t, t->dw.p, t->dw.len);
}

/* Cut the run into dictionary words: all of it, or with more != 0 what
 * can be cut before the rest of it is known. */
static void
dict_cut(struct sh_tok *t, int more)
{
	long long k;

	k = sh_dict_cut(t->o.dict, &t->cut, t->run, t->rlen, more, dict_word,
	    t);
	if (k < 0) {
		t->nomem = 1;
		k = (long long)t->rlen;
	}
	memmove(t->run, t->run + k, (t->rlen - (size_t)k) * sizeof(*t->run));
	t->rlen -= (size_t)k;
	t->rlast = t->rlen > 0 ? t->rlast - (size_t)k : 0;
}

/* End of an n-gram run or of a dictionary run, if one is open. */
static void
run_end(struct sh_tok *t)
{
	if (t->gchars > 0)
		gram_end(t);
	else if (t->rlen > 0)
		dict_cut(t, 0);
}

/* Append cp to the dictionary run, first cutting the words that can be
 * cut when the run fills its buffer.  Return 0, or -1 out of memory. */
static int
run_push(struct sh_tok *t, uint32_t cp)
{
	uint32_t *np;
	size_t cap;

	if (t->rlen == t->rcap) {
		if (t->rcap < RUN) {
			cap = t->rcap ? 2 * t->rcap : 64;
			if ((np = realloc(t->run, cap * sizeof(*np))) == NULL) {
				t->nomem = 1;
				return -1;
			}
			t->run = np;
			t->rcap = cap;
		} else
			dict_cut(t, 1);
	}
	t->run[t->rlen++] = cp;
	return 0;
}

/* A character of a dictionary run, n bytes long. */
static void
dict_char(struct sh_tok *t, uint32_t cp, size_t n)
{
	word_end(t);
	if (run_push(t, cp) != 0)
		return;
	t->rlast = t->rlen - 1;
	t->rprev = cp;
	t->rclen = n;
}

/* Append the n (<= 4) bytes of a character to the n-gram window. */
static inline void
gram_put(struct sh_tok *t, const char *enc, size_t n)
{
	char *o;

	if (t->gbeg + t->glen + n > sizeof(t->g)) {
		memmove(t->g, t->g + t->gbeg, t->glen);
		t->gbeg = 0;
	}
	o = t->g + t->gbeg + t->glen;
	t->glen += n;
	while (n-- > 0)
		*o++ = *enc++;
}

/* Append the folded code point cp to the current word or n-gram run. */
static void
put(struct sh_tok *t, uint32_t cp)
{
	char enc[4];
	size_t n;
	uint32_t c;
	int cls, i;

	/* A mark composes with the character just before it, or stays
	 * with it in an n-gram or a dictionary run (marks past CLUSTER
	 * bytes are dropped); in a word it is a letter like the others. */
	if (t->w.len > 0) {
		if (sh_fold_join(t->wprev, cp, &c) == SH_FOLD_COMPOSE) {
			t->w.len = t->wlast;
			n = sh_utf8_encode(c, enc);
			if (buf_put(&t->w, enc, n, 0) != 0)
				t->nomem = 1;
			t->wprev = c;
			return;
		}
	} else if (t->rlen > 0) {
		switch (sh_fold_join(t->rprev, cp, &c)) {
		case SH_FOLD_COMPOSE:
			t->rlen = t->rlast;
			t->run[t->rlen++] = c;
			t->rprev = c;
			t->rclen = sh_utf8_encode(c, enc);
			return;
		case SH_FOLD_MARK:
			n = sh_utf8_encode(cp, enc);
			if (t->rclen + n <= CLUSTER && run_push(t, cp) == 0)
				t->rclen += n;
			return;
		}
	} else if (t->gchars > 0) {
		switch (sh_fold_join(t->gprev, cp, &c)) {
		case SH_FOLD_COMPOSE:
			n = sh_utf8_encode(c, enc);
			t->glen -= t->gclen[t->gchars - 1];
			gram_put(t, enc, n);
			t->gclen[t->gchars - 1] = n;
			t->gprev = c;
			return;
		case SH_FOLD_MARK:
			n = sh_utf8_encode(cp, enc);
			if (t->gclen[t->gchars - 1] + n <= CLUSTER) {
				gram_put(t, enc, n);
				t->gclen[t->gchars - 1] += n;
			}
			return;
		}
	}
	cls = sh_uc_class(cp);
	if (cls == SH_UC_SEP) {
		word_end(t);
		run_end(t);
		return;
	}
	n = sh_utf8_encode(cp, enc);
	if (cls == SH_UC_WORD) {
		run_end(t);
		t->wlast = t->w.len;
		t->wprev = cp;
		if (buf_put(&t->w, enc, n, 0) != 0)
			t->nomem = 1;
		return;
	}
	if (t->o.dict != NULL) {
		dict_char(t, cp, n);
		return;
	}
	word_end(t);
	seg_end(t);
	if (t->gchars == t->o.ngram) {
		emit_gram(t);
		/* Slide: drop the oldest character. */
		t->gbeg += t->gclen[0];
		t->glen -= t->gclen[0];
		for (i = 1; i < t->gchars; i++)
			t->gclen[i - 1] = t->gclen[i];
		t->gchars--;
	}
	gram_put(t, enc, n);
	t->gclen[t->gchars++] = n;
	t->gprev = cp;
}

long long
sh_tok_run(struct sh_tok *t, const char *text, size_t len, sh_tok_fn *fn,
    void *ctx, int *bad)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	const unsigned char *lim;
	uint32_t cp, f[SH_UC_FOLD_MAX];
	unsigned char c;
	char *o;
	int i, nf;

	t->fn = fn;
	t->ctx = ctx;
	t->nfeat = 0;
	t->nomem = 0;
	/* A run cut short by SH_ENOMEM may have left words behind. */
	t->w.len = t->s.len = t->sbeg = t->gbeg = t->glen = t->rlen = 0;
	t->swords = t->semitted = t->gchars = 0;
	while (p < end) {
		if (*p < 0x80) {
			if (ascii[*p] == 0) {
				p++;
				if (t->w.len > 0)
					word_end(t);
				run_end(t);
				continue;
			}
			/* A run of ASCII word bytes, folded as it is copied, in
			 * slices that fit the room made for them. */
			run_end(t);
			do {
				if (t->w.cap - t->w.len < 64 &&
				    buf_put(&t->w, NULL, 0, 64) != 0)
					return SH_ENOMEM;
				o = t->w.p + t->w.len;
				lim = end - p > 64 ? p + 64 : end;
				while (p < lim && (c = ascii[*p]) != 0) {
					*o++ = (char)c;
					p++;
				}
				t->w.len = (size_t)(o - t->w.p);
			} while (p == lim && p < end);
			t->wlast = t->w.len - 1;
			t->wprev = (unsigned char)t->w.p[t->wlast];
			continue;
		}
		p += sh_utf8_decode(p, (size_t)(end - p), &cp, bad);
		nf = sh_fold_cp(cp, t->o.simplify, f);
		for (i = 0; i < nf; i++)
			put(t, f[i]);
	}
	word_end(t);
	run_end(t);
	seg_end(t);
	if (t->nomem)
		return SH_ENOMEM;
	return t->nfeat;
}

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
#define PACKS 8			/* blocks of ASCII text packed together */

/* A growing buffer, allocated SH_HASH_READ bytes past cap: the hashing
 * reads that many bytes from the start of each feature in it. */
struct buf {
	char *p;
	size_t len, cap;
};

struct sh_tok {
	struct sh_tokopt o;
	sh_tok_fn *fn;		/* one of fn, hfn */
	sh_tok_hash_fn *hfn;
	void *ctx;
	long long nfeat;
	int nomem;

	/* Word stream: the words of the shingle window, each followed by
	 * '_', then the current word, all in s.  Word i of the window starts
	 * at s.p[sstart[(shead + i) & (SH_TOK_MAX - 1)]] (a ring: SH_TOK_MAX
	 * is a power of two); the current word is s.p[wbeg .. s.len), empty
	 * when no word is open, and its last character starts wlast bytes
	 * into it and is wprev.  A shingle is a slice of s: no copy. */
	struct buf s;
	size_t wbeg, wlast, sstart[SH_TOK_MAX];
	uint32_t wprev;
	unsigned shead, swords;
	int semitted;

	/* N-gram run: bytes of its last o.ngram characters, each a base and
	 * the marks that did not compose with it, at most CLUSTER bytes: the
	 * window g[gbeg .. gbeg + glen), in room for two windows so that it
	 * slides by a step of gbeg and moves to the front only when full. */
	char g[2 * CLUSTER * (SH_TOK_MAX + 1) + SH_HASH_READ];
	size_t gbeg, glen, gclen[SH_TOK_MAX + 1];
	int gchars;
	int gjoin;		/* the last character taken was the run's:
				 * a mark joins it (spanning runs) */
	uint32_t gprev;

	/* With a dictionary, the run's code points instead: where its last
	 * character starts, that character's base and its length in bytes;
	 * and the bytes of the word being emitted. */
	uint32_t *run;
	size_t rlen, rcap, rlast, rclen;
	uint32_t rprev;
	struct sh_dictcut cut;

	uint64_t shuf[256];	/* the shuffles of pack_avx2 */

	/* Bit c - 0x3000 (c < 0x3040) or c - 0xFF00 + 64: whether code
	 * point c of the CJK punctuation and the fullwidth forms folds to
	 * separators only (see seps), the commas and stops of CJK text. */
	uint64_t sep[3];

	/* Features not yet hashed, in text order: slices of s or g, which
	 * are flushed before those bytes move or are written again. */
	struct sh_hashbatch pend;
	int npend;
	uint64_t pstop;		/* bit i: pending feature i is an n-gram,
				 * dropped at flush when a stop word */

	/* With stop words: the words of the blocks packed, hashed together
	 * to be told from the stop words. */
	struct sh_hashbatch words;
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
	if ((np = realloc(b->p, cap + SH_HASH_READ)) == NULL)
		return SH_ENOMEM;
	b->p = np;
	b->cap = cap;
	return 0;
}

static void shuffles(uint64_t shuf[256]);

/* Fill t->sep: the code points that fold to one or more separators,
 * which join nothing before them (text/fold.h). */
static void
seps(struct sh_tok *t)
{
	uint32_t cp, c, f[SH_UC_FOLD_MAX];
	int i, j, nf, sep;

	for (i = 0; i < 3 * 64; i++) {
		cp = i < 64 ? 0x3000 + (uint32_t)i : 0xFF00 + (uint32_t)i - 64;
		nf = sh_fold_cp(cp, t->o.simplify, f);
		for (sep = nf > 0, j = 0; j < nf; j++)
			sep &= sh_uc_class(f[j]) == SH_UC_SEP &&
			    sh_fold_join(0, f[j], &c) == SH_FOLD_NEW;
		t->sep[i / 64] |= (uint64_t)sep << i % 64;
	}
}

struct sh_tok *
sh_tok_new(const struct sh_tokopt *o)
{
	struct sh_tok *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return NULL;
	t->o = *o;
	shuffles(t->shuf);
	seps(t);
	return t;
}

void
sh_tok_free(struct sh_tok *t)
{
	if (t == NULL)
		return;
	free(t->s.p);
	free(t->run);
	sh_dictcut_free(&t->cut);
	free(t);
}

/* The n pending features of hashes h without the n-grams that are stop
 * words; return how many are left. */
static int
drop_stopped(struct sh_tok *t, uint64_t *h, int n)
{
	int i, k;

	for (i = k = 0; i < n; i++)
		if (!(t->pstop >> i & 1) || !sh_stop_has(t->o.stop, h[i])) {
			h[k] = h[i];
			t->pend.p[k] = t->pend.p[i];
			t->pend.len[k++] = t->pend.len[i];
		}
	t->pstop = 0;
	return k;
}

/* Hash and emit the pending features, all at once (each readable for
 * SH_HASH_READ bytes from its start: s and g leave room). */
static void
flush(struct sh_tok *t)
{
	uint64_t h[SH_HASH_BATCH];
	int i, n = t->npend;

	if (n == 0)
		return;
	sh_hashbatch_run(&t->pend, (size_t)n, h);
	if (t->pstop != 0)
		n = drop_stopped(t, h, n);
	if (t->hfn != NULL)
		t->hfn(t->ctx, h, (size_t)n);
	else
		for (i = 0; i < n; i++)
			t->fn(t->ctx, t->pend.p[i], t->pend.len[i], h[i]);
	t->nfeat += n;
	t->npend = 0;
}

/* Emit feature p[0..n) of hash h, after those pending. */
static void
emit_h(struct sh_tok *t, const char *p, size_t n, uint64_t h)
{
	if (t->npend > 0)
		flush(t);
	if (t->hfn != NULL)
		t->hfn(t->ctx, &h, 1);
	else
		t->fn(t->ctx, p, n, h);
	t->nfeat++;
}

/* Feature p[0..n) pending as the np-th, the batch flushed first when
 * full (np being t->npend's value, kept by the caller in a local).
 * Return the features pending now. */
static inline int
pend(struct sh_tok *t, int np, const char *p, size_t n)
{
	if (np == SH_HASH_BATCH) {
		t->npend = np;
		flush(t);
		np = 0;
	}
	sh_hashbatch_set(&t->pend, (size_t)np, p, n);
	return np + 1;
}

/* Emit feature p[0..n), hashed later: its bytes must stay until flush. */
static void
emit(struct sh_tok *t, const char *p, size_t n)
{
	t->npend = pend(t, t->npend, p, n);
}

/* Whether p[0..n), of hash h, is a stop word: one probe, only when a
 * stop-word set is given. */
static int
stopped(const struct sh_tok *t, uint64_t h)
{
	return t->o.stop != NULL && sh_stop_has(t->o.stop, h);
}

/* Emit the n-gram of the window, told from the stop words at flush. */
static void
emit_gram(struct sh_tok *t)
{
	emit(t, t->g + t->gbeg, t->glen);
	if (t->o.stop != NULL)
		t->pstop |= (uint64_t)1 << (t->npend - 1);
}

/* Whether a word is open. */
static inline int
in_word(const struct sh_tok *t)
{
	return t->s.len > t->wbeg;
}

/*
 * Make room in s for n more bytes.  When out of room, the window and the
 * current word move to the front, and the buffer grows to leave room for
 * many more words after them: a move is rare.
 */
static int
s_room(struct sh_tok *t, size_t n)
{
	size_t drop;
	unsigned i;

	if (t->s.cap - t->s.len >= n)
		return 0;
	flush(t);
	drop = t->swords > 0 ? t->sstart[t->shead] : t->wbeg;
	if (drop > 0)
		memmove(t->s.p, t->s.p + drop, t->s.len - drop);
	t->s.len -= drop;
	t->wbeg -= drop;
	for (i = 0; i < t->swords; i++)
		t->sstart[(t->shead + i) & (SH_TOK_MAX - 1)] -= drop;
	if (t->s.cap - t->s.len >= n)
		return 0;
	if (buf_grow(&t->s, n + 4096) != 0) {
		t->nomem = 1;
		return SH_ENOMEM;
	}
	return 0;
}

/* Append the n (<= 4) bytes of a character to the current word; enc
 * holds 4 bytes. */
static void
word_put(struct sh_tok *t, const char *enc, size_t n)
{
	char *o;

	if (s_room(t, 4) != 0)
		return;
	o = t->s.p + t->s.len;
	t->s.len += n;
	memcpy(o, enc, 4);	/* one move, not a call */
}

/* End of a stretch of words: flush a short shingle window. */
static void
seg_end(struct sh_tok *t)
{
	if (t->swords == 0)
		return;
	if (!t->semitted)
		emit(t, t->s.p + t->sstart[t->shead],
		    t->s.len - 1 - t->sstart[t->shead]);
	/* The next stretch starts after this one: its bytes stay for the
	 * features pending. */
	t->shead = t->swords = 0;
	t->semitted = 0;
	t->wbeg = t->s.len;
}

/*
 * window_add for shingles of 3 words, the default, once the window is
 * full, over nb packed blocks: each word ends one shingle, and the
 * window's three starts stay in registers, oldest first, not in the
 * ring.
 */
static void
window_full3(struct sh_tok *t, const size_t *base, const uint64_t *ends,
    int nb)
{
	const char *sp = t->s.p;
	unsigned head = t->shead;
	size_t r0 = t->sstart[head], r1, r2, u, wbeg = t->wbeg;
	uint64_t e;
	int b, np = t->npend;

	r1 = t->sstart[(head + 1) & (SH_TOK_MAX - 1)];
	r2 = t->sstart[(head + 2) & (SH_TOK_MAX - 1)];
	for (b = 0; b < nb; b++)
		for (e = ends[b]; e != 0; e &= e - 1) {
			u = base[b] + (size_t)__builtin_ctzll(e);
			r0 = r1;
			r1 = r2;
			r2 = wbeg;
			np = pend(t, np, sp + r0, u - r0);
			wbeg = u + 1;
		}
	t->sstart[head] = r0;
	t->sstart[(head + 1) & (SH_TOK_MAX - 1)] = r1;
	t->sstart[(head + 2) & (SH_TOK_MAX - 1)] = r2;
	t->npend = np;
	t->semitted = 1;
	t->wbeg = wbeg;
}

/*
 * The words that the '_' bytes of ends (bit i: s.p[base + i]) end join
 * the shingle window, in turn: word s.p[wbeg .. u) with its '_' at u (no
 * stop word; with shingle 1 each word is its own shingle), the window's
 * ring kept in locals meanwhile.
 */
static void
window_ring(struct sh_tok *t, size_t base, uint64_t ends)
{
	unsigned w = (unsigned)t->o.shingle, head = t->shead;
	unsigned nw = t->swords;
	int np = t->npend, emitted = t->semitted;
	size_t wbeg = t->wbeg, u, first;

	for (; ends != 0; ends &= ends - 1) {
		u = base + (size_t)__builtin_ctzll(ends);
		if (nw == w) {
			head = (head + 1) & (SH_TOK_MAX - 1);
			nw--;
		}
		t->sstart[(head + nw++) & (SH_TOK_MAX - 1)] = wbeg;
		if (nw == w) {
			first = t->sstart[head];
			np = pend(t, np, t->s.p + first, u - first);
			emitted = 1;
		}
		wbeg = u + 1;
	}
	t->shead = head;
	t->swords = nw;
	t->npend = np;
	t->semitted = emitted;
	t->wbeg = wbeg;
}

/* window_ring over nb packed blocks, the words of block b ending at the
 * '_' bytes of ends[b] (bit i: s.p[base[b] + i]). */
static void
window_add(struct sh_tok *t, const size_t *base, const uint64_t *ends,
    int nb)
{
	int b;

	for (b = 0; b < nb; b++) {
		if (t->o.shingle == 3 && t->swords == 3) {
			window_full3(t, base + b, ends + b, nb - b);
			return;
		}
		window_ring(t, base[b], ends[b]);
	}
}

/* The current word, if any, joins the word stream. */
static void
word_end(struct sh_tok *t)
{
	size_t n = t->s.len - t->wbeg, u;
	const char *p;
	uint64_t h = 0, one = 1;

	if (n == 0)
		return;		/* s may be unallocated yet */
	p = t->s.p + t->wbeg;
	if (t->o.shingle == 1 || t->o.stop != NULL)
		h = sh_hash64(p, n, 0);
	if (stopped(t, h) || t->o.shingle == 1) {
		if (t->o.shingle == 1 && !stopped(t, h))
			emit_h(t, p, n, h);
		t->s.len = t->wbeg;
		return;
	}
	if (s_room(t, 1) != 0)
		return;
	t->s.p[t->s.len] = '_';
	u = t->s.len++;
	window_add(t, &u, &one, 1);
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
	/* The next run starts after this one, as seg_end. */
	t->gchars = 0;
	t->gbeg += t->glen;
	t->glen = 0;
}

/* A dictionary word, code points start..start+len of the run. */
static void
dict_word(void *ctx, size_t start, size_t len)
{
	struct sh_tok *t = ctx;
	char enc[4] = { 0 };
	size_t i;

	/* No word is open: a run ends every word before it. */
	for (i = start; i < start + len; i++)
		word_put(t, enc, sh_utf8_encode(t->run[i], enc));
	word_end(t);
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

/* A separator or a word after the characters of a run: the run ends,
 * but with o.span an n-gram run goes on after it (only its last
 * character takes no more marks). */
static void
run_break(struct sh_tok *t)
{
	if (t->o.span && t->o.dict == NULL) {
		t->gjoin = 0;
		return;
	}
	run_end(t);
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

/* Append the n (<= 4) bytes of a character to the n-gram window; enc
 * holds 4 bytes. */
static inline void
gram_put(struct sh_tok *t, const char *enc, size_t n)
{
	char *o;

	if (t->gbeg + t->glen + 4 > sizeof(t->g) - SH_HASH_READ) {
		flush(t);
		memmove(t->g, t->g + t->gbeg, t->glen);
		t->gbeg = 0;
	}
	o = t->g + t->gbeg + t->glen;
	t->glen += n;
	memcpy(o, enc, 4);	/* one move, not a call */
}

/* Append cp, a character of an n-gram run encoded in enc[0..n) (4 bytes
 * readable), to the run, after any mark joined it. */
static void
gram_char(struct sh_tok *t, uint32_t cp, const char *enc, size_t n)
{
	int i;

	if (t->o.dict != NULL) {
		dict_char(t, cp, n);
		return;
	}
	word_end(t);
	if (!t->o.span)
		seg_end(t);
	t->gjoin = 1;
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

/* The code point of the valid 3-byte UTF-8 sequence at p. */
static inline uint32_t
cp3(const unsigned char *p)
{
	return (uint32_t)(*p & 0x0F) << 12 | (uint32_t)(p[1] & 0x3F) << 6 |
	    (p[2] & 0x3F);
}

/*
 * The Han characters from p on, before end, that need no table: three
 * valid bytes each (one more readable), U+4E00 to U+9FFF, which fold to
 * themselves (text/fold.h) and, with simplify, simplify to themselves.
 * Return how many.
 */
static size_t
han_chars(const struct sh_tok *t, const unsigned char *p,
    const unsigned char *end)
{
	const unsigned char *q;
	uint32_t cp;

	for (q = p; end - q >= 4 && *q >= 0xE4 && *q <= 0xE9 &&
	    (q[1] & 0xC0) == 0x80 && (q[2] & 0xC0) == 0x80; q += 3) {
		cp = cp3(q);
		if (cp < SH_FOLD_HAN_FIRST ||
		    (t->o.simplify && sh_uc_simplify(cp) != cp))
			break;
	}
	return (size_t)(q - p) / 3;
}

/*
 * gram_char for the m characters at p that han_chars found, the bulk of
 * Chinese text.  Once the window holds n of them, each next one emits
 * the window and slides it by its 3 bytes: the bytes are copied as many
 * at a time as g has room for, and the window's lengths stay 3.
 */
static void
gram_han(struct sh_tok *t, const unsigned char *p, size_t m)
{
	size_t i, k, n = (size_t)t->o.ngram;

	if (t->o.dict == NULL && t->gchars == 0) {
		/* A new run: its first n characters emit nothing. */
		word_end(t);
		if (!t->o.span)
			seg_end(t);
		i = m < n ? m : n;
		if (t->gbeg + 3 * i > sizeof(t->g) - SH_HASH_READ) {
			flush(t);
			t->gbeg = 0;
		}
		memcpy(t->g + t->gbeg, p, 3 * i);
		p += 3 * i;
		t->glen = 3 * i;
		t->gchars = (int)i;
		for (k = 0; k < i; k++)
			t->gclen[k] = 3;
	} else
		for (i = 0; i < m && (i < n || t->o.dict != NULL); i++, p += 3)
			gram_char(t, cp3(p), (const char *)p, 3);
	m -= i;
	while (m > 0) {
		k = (sizeof(t->g) - SH_HASH_READ - t->gbeg - t->glen) / 3;
		if (k == 0) {
			flush(t);
			memmove(t->g, t->g + t->gbeg, t->glen);
			t->gbeg = 0;
			continue;
		}
		k = k < m ? k : m;
		memcpy(t->g + t->gbeg + t->glen, p, 3 * k);
		for (i = 0; i < k; i++, t->gbeg += 3)
			if (t->o.stop != NULL)
				emit_gram(t);
			else
				emit(t, t->g + t->gbeg, t->glen);
		p += 3 * k;
		m -= k;
	}
	t->gprev = cp3(p - 3);
	t->gjoin = 1;
}

/* Whether p starts a character of t->sep: put would end the word and
 * the run, and do nothing else. */
static inline int
sep_char(const struct sh_tok *t, const unsigned char *p,
    const unsigned char *end)
{
	uint32_t i;

	if (end - p < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80)
		return 0;
	if (p[0] == 0xE3 && p[1] == 0x80)
		i = p[2] & 0x3F;
	else if (p[0] == 0xEF && (p[1] == 0xBC || p[1] == 0xBD))
		i = 64 + (uint32_t)(p[1] & 1) * 64 + (p[2] & 0x3F);
	else
		return 0;
	return (int)(t->sep[i / 64] >> i % 64 & 1);
}

/* Append the folded code point cp to the current word or n-gram run. */
static void
put(struct sh_tok *t, uint32_t cp)
{
	char enc[4] = { 0 };
	size_t n;
	uint32_t c;
	int cls;

	/* A mark composes with the character just before it, or stays
	 * with it in an n-gram or a dictionary run (marks past CLUSTER
	 * bytes are dropped); in a word it is a letter like the others. */
	if (in_word(t)) {
		if (sh_fold_join(t->wprev, cp, &c) == SH_FOLD_COMPOSE) {
			t->s.len = t->wbeg + t->wlast;
			word_put(t, enc, sh_utf8_encode(c, enc));
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
	} else if (t->gchars > 0 && t->gjoin) {
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
		run_break(t);
		return;
	}
	n = sh_utf8_encode(cp, enc);
	if (cls == SH_UC_WORD) {
		run_break(t);
		t->wlast = t->s.len - t->wbeg;
		t->wprev = cp;
		word_put(t, enc, n);
		return;
	}
	gram_char(t, cp, enc, n);
}

/*
 * Packing ASCII text, 64 bytes at a time: of the n (<= 64) bytes at p,
 * those before the first non-ASCII byte are taken.  Word bytes (ascii[]
 * above) are written folded to out, and the first separator after each
 * word, a word open before p if *inword, as '_'; other separators are
 * dropped.  out has room for 64 bytes.  Set *k to the bytes written, bit
 * i of *ends when out[i] is a '_', and *inword to whether the last byte
 * taken is a word byte; return the bytes taken.
 */
static size_t
pack_c(const unsigned char *p, size_t n, int *inword, char *out, size_t *k,
    uint64_t *ends)
{
	uint64_t e = 0;
	size_t i, j = 0;
	unsigned char c;
	int w = *inword;

	for (i = 0; i < n && p[i] < 0x80; i++) {
		c = ascii[p[i]];
		out[j] = c != 0 ? (char)c : '_';
		e |= (uint64_t)(c == 0 && w) << j;
		j += (c != 0) | w;
		w = c != 0;
	}
	*inword = w;
	*k = j;
	*ends = e;
	return i;
}

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define HAVE_PACK_AVX512
/* pack_c in a few instructions: AVX-512 compares and, from VBMI2, the
 * byte compress. */
__attribute__((target("avx512f,avx512bw,avx512vbmi2,popcnt,bmi")))
static size_t
pack_avx512(const unsigned char *p, size_t n, int *inword, char *out,
    size_t *k, uint64_t *ends)
{
	__mmask64 lm = n == 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1;
	__mmask64 hi, w, e, keep;
	__m512i v, low, packed;
	size_t cnt;

	v = _mm512_maskz_loadu_epi8(lm, p);
	if ((hi = _mm512_movepi8_mask(v) & lm) != 0) {
		n = (size_t)__builtin_ctzll(hi);
		lm = ((__mmask64)1 << n) - 1;
	}
	low = _mm512_or_si512(v, _mm512_set1_epi8(0x20));
	w = (_mm512_cmple_epu8_mask(_mm512_sub_epi8(low,
	    _mm512_set1_epi8('a')), _mm512_set1_epi8(25)) |
	    _mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8('0')),
	    _mm512_set1_epi8(9))) & lm;
	e = (w << 1 | (__mmask64)(*inword != 0)) & ~w & lm;
	keep = w | e;
	packed = _mm512_maskz_compress_epi8(keep, _mm512_mask_blend_epi8(w,
	    _mm512_set1_epi8('_'), low));
	_mm512_storeu_si512(out, packed);
	cnt = (size_t)__builtin_popcountll(keep);
	*ends = _mm512_cmpeq_epi8_mask(packed, _mm512_set1_epi8('_')) &
	    (cnt == 64 ? ~(uint64_t)0 : ((uint64_t)1 << cnt) - 1);
	*k = cnt;
	if (n > 0)
		*inword = (int)(w >> (n - 1) & 1);
	return n;
}

/*
 * pack_c with AVX2, which has no byte compress: the bytes are compared
 * 32 at a time, then packed 8 at a time by a byte shuffle, shuf[m] (see
 * shuffles) for the bits m of the 8 kept.  p is copied when it holds
 * fewer than 64 bytes, so that no byte past it is read.
 */
__attribute__((target("avx2,popcnt,bmi")))
static size_t
pack_avx2(const unsigned char *p, size_t n, int *inword, char *out,
    size_t *k, uint64_t *ends, const uint64_t *shuf)
{
	unsigned char in[64], fold[64];
	const unsigned char *q = p;
	uint64_t lm = n == 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
	uint64_t hi = 0, w = 0, e, keep, m, eq;
	__m256i v, low, ww;
	size_t cnt = 0, g;
	int h;

	if (n < 64) {
		memset(in, ' ', sizeof(in));
		memcpy(in, p, n);
		q = in;
	}
	for (h = 0; h < 2; h++) {
		v = _mm256_loadu_si256((const __m256i *)(q + 32 * h));
		hi |= (uint64_t)(uint32_t)_mm256_movemask_epi8(v) << 32 * h;
		low = _mm256_or_si256(v, _mm256_set1_epi8(0x20));
		ww = _mm256_or_si256(_mm256_and_si256(_mm256_cmpgt_epi8(low,
		    _mm256_set1_epi8('a' - 1)), _mm256_cmpgt_epi8(
		    _mm256_set1_epi8('z' + 1), low)), _mm256_and_si256(
		    _mm256_cmpgt_epi8(v, _mm256_set1_epi8('0' - 1)),
		    _mm256_cmpgt_epi8(_mm256_set1_epi8('9' + 1), v)));
		w |= (uint64_t)(uint32_t)_mm256_movemask_epi8(ww) << 32 * h;
		_mm256_storeu_si256((__m256i *)(fold + 32 * h),
		    _mm256_blendv_epi8(_mm256_set1_epi8('_'), low, ww));
	}
	if ((hi &= lm) != 0) {
		n = (size_t)__builtin_ctzll(hi);
		lm = ((uint64_t)1 << n) - 1;
	}
	w &= lm;
	e = (w << 1 | (uint64_t)(*inword != 0)) & ~w & lm;
	keep = w | e;
	for (g = 0; g < 8; g++) {
		m = keep >> 8 * g & 0xFF;
		_mm_storel_epi64((__m128i *)(out + cnt), _mm_shuffle_epi8(
		    _mm_loadl_epi64((const __m128i *)(fold + 8 * g)),
		    _mm_cvtsi64_si128((long long)shuf[m])));
		cnt += (size_t)__builtin_popcountll(m);
	}
	eq = (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
	    _mm256_loadu_si256((const __m256i *)out),
	    _mm256_set1_epi8('_'))) | (uint64_t)(uint32_t)
	    _mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_loadu_si256(
	    (const __m256i *)(out + 32)), _mm256_set1_epi8('_'))) << 32;
	*ends = eq & (cnt == 64 ? ~(uint64_t)0 : ((uint64_t)1 << cnt) - 1);
	*k = cnt;
	if (n > 0)
		*inword = (int)(w >> (n - 1) & 1);
	return n;
}
#endif

/* The shuffles of pack_avx2: byte j of shuf[m] is the place of the j-th
 * set bit of m, 0x80 (a zero) past the last. */
static void
shuffles(uint64_t shuf[256])
{
	unsigned m, b, j;

	for (m = 0; m < 256; m++) {
		shuf[m] = ~(uint64_t)0x7F7F7F7F7F7F7F7F;	/* all 0x80 */
		for (b = j = 0; b < 8; b++)
			if (m >> b & 1) {
				shuf[m] &= ~((uint64_t)0xFF << 8 * j);
				shuf[m] |= (uint64_t)b << 8 * j++;
			}
	}
}

static int code_level = 2;	/* sh_tok_vector */

void
sh_tok_vector(int level)
{
	code_level = level;
}

static size_t
pack(const struct sh_tok *t, const unsigned char *p, size_t n, int *inword,
    char *out, size_t *k, uint64_t *ends)
{
#ifdef HAVE_PACK_AVX512
	if (code_level >= 2 && __builtin_cpu_supports("avx512vbmi2"))
		return pack_avx512(p, n, inword, out, k, ends);
	if (code_level >= 1 && __builtin_cpu_supports("avx2"))
		return pack_avx2(p, n, inword, out, k, ends, t->shuf);
#else
	(void)t;
#endif
	return pack_c(p, n, inword, out, k, ends);
}

/*
 * window_add over nb packed blocks, but the stop words are cut out of s
 * with their '_'.  The words are hashed together, SH_HASH_BATCH at a
 * time; then each word kept moves down over those cut before it, and
 * the word open after the last '_' too; then the kept words' '_' bytes,
 * where they are now, join the window.
 */
static void
words_stopped(struct sh_tok *t, const size_t *base, const uint64_t *ends,
    int nb)
{
	size_t at[64 * PACKS], ub[PACKS], from, n, w = t->wbeg, u0 = 0;
	uint64_t h[64 * PACKS], kept[PACKS], e;
	int b, i, j, k, nw = 0, nk = 0;

	for (b = 0; b < nb; b++)
		for (e = ends[b]; e != 0; e &= e - 1)
			at[nw++] = base[b] + (size_t)__builtin_ctzll(e);
	if (nw == 0)
		return;
	for (i = 0; i < nw; i += k) {
		k = nw - i < SH_HASH_BATCH ? nw - i : SH_HASH_BATCH;
		for (j = i; j < i + k; j++) {
			from = j == 0 ? t->wbeg : at[j - 1] + 1;
			sh_hashbatch_set(&t->words, (size_t)(j - i),
			    t->s.p + from, at[j] - from);
		}
		sh_hashbatch_run(&t->words, (size_t)k, h + i);
	}
	/* Bit i of kept[b]: a kept word's '_' at u0 + 64 b + i, u0 the
	 * first one's; the words kept span fewer bytes than the blocks. */
	memset(kept, 0, sizeof(kept));
	for (i = 0; i < nw; i++) {
		if (stopped(t, h[i]))
			continue;
		from = i == 0 ? t->wbeg : at[i - 1] + 1;
		n = at[i] + 1 - from;
		if (w != from)
			memmove(t->s.p + w, t->s.p + from, n);
		w += n;
		if (nk++ == 0)
			u0 = w - 1;
		kept[(w - 1 - u0) / 64] |= (uint64_t)1 << (w - 1 - u0) % 64;
	}
	from = at[nw - 1] + 1;
	if (w != from)
		memmove(t->s.p + w, t->s.p + from, t->s.len - from);
	t->s.len = w + (t->s.len - from);
	if (nk == 0)
		return;
	for (b = 0; b <= (int)((w - 1 - u0) / 64); b++)
		ub[b] = u0 + 64 * (size_t)b;
	window_add(t, ub, kept, b);
}

/*
 * The ASCII bytes from p on, before end: packed into s, where each word
 * ended joins the window.  Up to PACKS blocks of 64 bytes are packed
 * before their words join, so that the packing of one block need not
 * wait for the window of the one before.  Return where the ASCII bytes
 * end.
 */
static const unsigned char *
ascii_words(struct sh_tok *t, const unsigned char *p,
    const unsigned char *end)
{
	uint64_t ends[PACKS];
	size_t base[PACKS], k, n = 0, used = 0;
	int nb, inword;

	run_break(t);
	inword = in_word(t);
	while (p < end && used == n) {
		if (s_room(t, 64 * PACKS) != 0)
			return end;
		for (nb = 0; nb < PACKS && p < end && used == n; nb++) {
			n = end - p < 64 ? (size_t)(end - p) : 64;
			base[nb] = t->s.len;
			used = pack(t, p, n, &inword, t->s.p + base[nb], &k,
			    &ends[nb]);
			t->s.len += k;
			p += used;
		}
		if (t->o.stop != NULL)
			words_stopped(t, base, ends, nb);
		else
			window_add(t, base, ends, nb);
	}
	if (inword) {
		t->wlast = t->s.len - 1 - t->wbeg;
		t->wprev = (unsigned char)t->s.p[t->s.len - 1];
	}
	return p;
}

/* sh_tok_run and sh_tok_hashes, with t->fn or t->hfn set. */
static long long
run(struct sh_tok *t, const char *text, size_t len, int *bad)
{
	const unsigned char *p = (const unsigned char *)text;
	const unsigned char *end = p + len;
	uint32_t cp, f[SH_UC_FOLD_MAX];
	size_t m;
	int i, nf;

	t->nfeat = 0;
	t->nomem = 0;
	/* A run cut short by SH_ENOMEM may have left words behind. */
	t->s.len = t->wbeg = t->gbeg = t->glen = t->rlen = 0;
	t->shead = t->swords = t->semitted = t->gchars = t->npend = 0;
	t->gjoin = 0;
	t->pstop = 0;
	while (p < end) {
		if (*p < 0x80) {
			p = ascii_words(t, p, end);
			continue;
		}
		/* The bulk of Chinese text: Han characters folded as they
		 * are (text/fold.h). */
		if (code_level >= 1 && (m = han_chars(t, p, end)) > 0) {
			gram_han(t, p, m);
			p += 3 * m;
			continue;
		}
		if (code_level >= 1 && sep_char(t, p, end)) {
			word_end(t);
			run_break(t);
			p += 3;
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
	flush(t);
	if (t->nomem)
		return SH_ENOMEM;
	return t->nfeat;
}

long long
sh_tok_run(struct sh_tok *t, const char *text, size_t len, sh_tok_fn *fn,
    void *ctx, int *bad)
{
	t->fn = fn;
	t->hfn = NULL;
	t->ctx = ctx;
	return run(t, text, len, bad);
}

long long
sh_tok_hashes(struct sh_tok *t, const char *text, size_t len,
    sh_tok_hash_fn *fn, void *ctx, int *bad)
{
	t->fn = NULL;
	t->hfn = fn;
	t->ctx = ctx;
	return run(t, text, len, bad);
}

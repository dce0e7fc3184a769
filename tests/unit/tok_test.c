/*
 * The tokenizer's ASCII packing, its bulk Han and CJK punctuation paths
 * and batched hashing (lib/feat/tokenize.c): the vector codes (AVX-512,
 * AVX2) and the portable code, one character at a time, give the same
 * features and hashes on random text of every kind, and on ASCII text
 * they give those of the contract of feat/tokenize.h, computed here the
 * simple way.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/utf8.h"
#include "feat/stopset.h"
#include "feat/tokenize.h"
#include "rng.h"
#include "tap.h"

#define CAP (1 << 20)

struct feats {
	char buf[CAP];
	size_t len;
	int over;
};

/* Each feature and its hash, space-separated. */
static void
collect(void *ctx, const char *tok, size_t len, uint64_t h)
{
	struct feats *f = ctx;
	int i;

	if (f->len + len + 19 > CAP) {
		f->over = 1;
		return;
	}
	memcpy(f->buf + f->len, tok, len);
	f->len += len;
	f->buf[f->len++] = '/';
	for (i = 60; i >= 0; i -= 4)
		f->buf[f->len++] = "0123456789abcdef"[h >> i & 15];
	f->buf[f->len++] = ' ';
}

static struct feats got, mid, want;

/* The hashes of a run, by either entry. */
struct hashes {
	uint64_t h[CAP / 8];
	size_t n;
};

static struct hashes hone, hbatch;

static void
one_hash(void *ctx, const char *tok, size_t len, uint64_t h)
{
	struct hashes *a = ctx;

	(void)tok;
	(void)len;
	if (a->n < CAP / 8)
		a->h[a->n++] = h;
}

static void
batch_hashes(void *ctx, const uint64_t *h, size_t n)
{
	struct hashes *a = ctx;

	while (n-- > 0 && a->n < CAP / 8)
		a->h[a->n++] = *h++;
}

/* sh_tok_hashes gives the hashes that sh_tok_run gives. */
static int
same_hashes(struct sh_tok *t, const char *text, size_t len)
{
	int bad = 0;

	hone.n = hbatch.n = 0;
	if (sh_tok_run(t, text, len, one_hash, &hone, &bad) < 0 ||
	    sh_tok_hashes(t, text, len, batch_hashes, &hbatch, &bad) < 0)
		return 0;
	return hone.n == hbatch.n &&
	    memcmp(hone.h, hbatch.h, hone.n * sizeof(hone.h[0])) == 0;
}

static int
run(struct sh_tok *t, const char *text, size_t len, struct feats *f)
{
	int bad = 0;

	f->len = 0;
	f->over = 0;
	return sh_tok_run(t, text, len, collect, f, &bad) >= 0 && !f->over;
}

/* The features of ASCII text by the contract: words are maximal runs of
 * letters and digits, lowercased; with shingle size w, each w consecutive
 * words joined by '_', or all of them when fewer. */
static int
isword(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9');
}

/* The stop words of the runs with some: words the texts make often. */
static const char *const stops[] = { "a", "x", "ab", "9" };

static int
is_stop(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		if (strlen(stops[i]) == n && memcmp(stops[i], p, n) == 0)
			return 1;
	return 0;
}

/* With stop != 0, the stop words above are dropped before shingling. */
static void
model(const char *text, size_t len, int w, int stop, struct feats *f)
{
	static char words[CAP];
	static size_t start[CAP], end[CAP];
	static char feat[CAP];
	size_t i, n = 0, nw = 0, a, b, k;
	int in = 0;

	for (i = 0; i < len; i++) {
		if (isword(text[i])) {
			if (!in)
				start[nw++] = n;
			words[n++] = (char)(text[i] | (text[i] >= 'A' &&
			    text[i] <= 'Z' ? 32 : 0));
			end[nw - 1] = n;
		}
		in = isword(text[i]);
		if (stop && !in && nw > 0 && end[nw - 1] == n &&
		    is_stop(words + start[nw - 1], n - start[nw - 1])) {
			n = start[nw - 1];
			nw--;
		}
	}
	if (stop && nw > 0 && is_stop(words + start[nw - 1],
	    end[nw - 1] - start[nw - 1]))
		nw--;
	f->len = 0;
	f->over = 0;
	for (i = 0; i + (size_t)w <= nw || (i == 0 && nw > 0); i++) {
		b = i + (size_t)w <= nw ? i + (size_t)w : nw;
		for (k = 0, a = i; a < b; a++) {
			memcpy(feat + k, words + start[a], end[a] - start[a]);
			k += end[a] - start[a];
			if (a + 1 < b)
				feat[k++] = '_';
		}
		collect(f, feat, k, sh_hash64(feat, k, 0));
	}
}

/* Random text: ASCII only when ascii, else with UTF-8 letters, marks, Han
 * characters and invalid bytes too; long words and long gaps at times. */
static size_t
gen(char *p, size_t cap, int ascii)
{
	static const char *const piece[] = {
		"a", "b", "Z", "9", "x", "Q", " ", " ", ",", ".", "_", "-",
		"\t", "(", "@", "`", "{", "[", "/", ":",
		"\xc3\xa9", "e\xcc\x81", "\xcc\x81", "\xe4\xb8\xad",
		"\xe5\x9b\xbd", "\xc3\x9f", "\xff", "\xe4\xb8", "\xef\xbc\xa1",
		"\xe5\x9c\x8b", "\xef\xbc\x8c", "\xe3\x80\x82",
		"\xe3\x80\x80", "\xe3\x80\x81", "\xef\xbd\x9e",
		"\xe4\xb8\xad\xe5\x9b\xbd\xe4\xba\xba\xe5\x9c\x8b"
	};
	/* Han characters, one traditional (simplify changes it). */
	static const char *const han[] = { "\xe4\xb8\xad", "\xe5\x9b\xbd",
	    "\xe4\xba\xba", "\xe5\x9c\x8b" };
	size_t n = 0, len, i, k, np = ascii ? 20 : sizeof(piece) /
	    sizeof(piece[0]);
	const char *s;

	len = next() % 400;
	while (n < len && n + 700 < cap) {
		if (next() % 50 == 0) {
			/* A run longer than a block of 64 or, of Han
			 * characters, than the n-gram window's buffer. */
			k = 60 + next() % 140;
			if (!ascii && next() % 3 == 0) {
				for (i = 0; i < k; i++, n += 3)
					memcpy(p + n, han[next() % 4], 3);
				continue;
			}
			s = next() % 2 ? "w" : " ";
			for (i = 0; i < k; i++)
				p[n++] = *s;
			continue;
		}
		s = piece[next() % np];
		k = strlen(s);
		memcpy(p + n, s, k);
		n += k;
	}
	return n;
}

/*
 * Each character of the CJK punctuation block (U+3000 to U+303F) and of
 * the fullwidth forms up to U+FF7F, which the bulk path may take as a
 * separator without decoding it, between Han characters, after a word,
 * after a mark: cut at every level as one character at a time cuts it.
 */
static int
punctuation_agrees(void)
{
	static const struct sh_tokopt opts[] = {
		{ .ngram = 2, .shingle = 2 }, { .ngram = 5, .shingle = 3,
		.simplify = 1 } };
	/* The text around the character, which goes at each NULL. */
	static const char *const part[] = { "\xe4\xb8\xad\xe5\x9b\xbd", NULL,
	    "\xe4\xba\xba" "ab", NULL, "cd e\xcc\x81", NULL,
	    "\xe4\xb8\xad\xe5\x9b\xbd" };
	char text[64], enc[4];
	struct sh_tok *t;
	size_t len, n, m, i, j;
	uint32_t cp;
	int agree = 1, lv;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++) {
		if ((t = sh_tok_new(&opts[i])) == NULL)
			return 0;
		for (cp = 0x3000; cp < 0xFF80; cp++) {
			if (cp == 0x3040)
				cp = 0xFF00;
			n = sh_utf8_encode(cp, enc);
			for (len = j = 0; j < sizeof(part) / sizeof(part[0]);
			    j++, len += m) {
				m = part[j] != NULL ? strlen(part[j]) : n;
				memcpy(text + len, part[j] != NULL ? part[j] :
				    enc, m);
			}
			for (lv = 2; lv >= 0; lv -= 2) {
				sh_tok_vector(lv);
				if (!run(t, text, len, lv ? &got : &want))
					agree = 0;
			}
			if (got.len != want.len ||
			    memcmp(got.buf, want.buf, got.len) != 0)
				agree = 0;
		}
		sh_tok_free(t);
	}
	sh_tok_vector(2);
	return agree;
}

/*
 * Spanning runs: a text of Han characters and words, and the same with
 * separators (CJK and ASCII punctuation, spaces, line breaks) put at
 * random between its pieces, give the same features in the same order,
 * at every level, for n = 1, 2, 5 and w = 1, 3.
 */
static int
span_agrees(void)
{
	static const char *const han[] = { "\xe4\xb8\xad", "\xe5\x9b\xbd",
	    "\xe4\xba\xba", "\xe6\x96\x87" };
	static const char *const word[] = { "ab", "Xyz", "9" };
	static const char *const sep[] = { "\xef\xbc\x8c", " ", "\n",
	    "\xe3\x80\x82", ", ", "\xe3\x80\x81", "\xef\xbc\x81 " };
	static const int ns[] = { 1, 2, 5 };
	char a[512], b[8192];
	struct sh_tokopt o = { 0 };
	struct sh_tok *t;
	size_t na, nb;
	int i, j, u, prev, lv, agree = 1, ni, wi;
	const char *s, *q;

	for (ni = 0; ni < 3; ni++)
	for (wi = 1; wi <= 3; wi += 2) {
		o.ngram = ns[ni];
		o.shingle = wi;
		o.span = 1;
		if ((t = sh_tok_new(&o)) == NULL)
			return 0;
		for (i = 0; i < 300; i++) {
			na = nb = 0;
			for (prev = -1, j = 0; j < 1 + (int)(next() % 40);
			    j++) {
				u = (int)(next() % 3) == 0;
				s = u ? word[next() % 3] : han[next() % 4];
				if (prev == 1 && u) {
					a[na++] = ' ';
					b[nb++] = ' ';
				}
				while (next() % 2) {
					q = sep[next() % 7];
					memcpy(b + nb, q, strlen(q));
					nb += strlen(q);
				}
				memcpy(a + na, s, strlen(s));
				na += strlen(s);
				memcpy(b + nb, s, strlen(s));
				nb += strlen(s);
				prev = u;
			}
			for (lv = 2; lv >= 0; lv--) {
				sh_tok_vector(lv);
				if (!run(t, a, na, &want) || !run(t, b, nb,
				    &got) || got.len != want.len ||
				    memcmp(got.buf, want.buf, got.len) != 0)
					agree = 0;
			}
		}
		sh_tok_free(t);
	}
	sh_tok_vector(2);
	return agree;
}

int
main(void)
{
	static const int shingles[] = { 1, 2, 3, 5, 16 };
	static const int ngrams[] = { 1, 2, 5 };
	static char text[4096];
	char *exact;
	struct sh_tokopt o = { 0 };
	struct sh_tok *t;
	struct sh_stop *stop;
	size_t len, si, ni;
	int i, st, ascii, agree, fits, batched, ok1, ok2;
	long met = 0;

	if ((stop = sh_stop_new()) == NULL)
		return 1;
	for (i = 0; i < (int)(sizeof(stops) / sizeof(stops[0])); i++)
		if (sh_stop_put(stop, sh_hash64(stops[i], strlen(stops[i]),
		    0)) != 0)
			return 1;
	/* Every shingle and n-gram size without stop words, the shingle
	 * sizes with n = 5 and stop words, and every size with spanning
	 * runs (st 2). */
	for (st = 0; st < 3; st++)
	for (si = 0; si < sizeof(shingles) / sizeof(shingles[0]); si++)
		for (ni = 0; ni < sizeof(ngrams) / sizeof(ngrams[0]); ni++) {
			if (st == 1 && ngrams[ni] != 5)
				continue;
			o.shingle = shingles[si];
			o.ngram = ngrams[ni];
			o.simplify = (int)(si % 2);	/* ASCII alike */
			o.stop = st == 1 ? stop : NULL;
			o.span = st == 2;
			if ((t = sh_tok_new(&o)) == NULL)
				return 1;
			agree = fits = batched = 1;
			for (i = 0; i < 2000; i++) {
				ascii = i % 2;
				len = gen(text, sizeof(text), ascii);
				/* At the end of an allocation, so that a read
				 * past len shows under AddressSanitizer. */
				if ((exact = malloc(len ? len : 1)) == NULL)
					return 1;
				memcpy(exact, text, len);
				sh_tok_vector(1);	/* AVX2 */
				sh_hash_vector(1);
				ok1 = run(t, exact, len, &mid);
				sh_tok_vector(2);	/* AVX-512 */
				ok1 &= run(t, exact, len, &got);
				free(exact);
				sh_tok_vector(0);
				sh_hash_vector(0);
				ok2 = run(t, text, len, &want);
				if (!ok1 || !ok2 || got.len != want.len ||
				    memcmp(got.buf, want.buf, got.len) != 0 ||
				    mid.len != want.len ||
				    memcmp(mid.buf, want.buf, mid.len) != 0)
					agree = 0;
				if (!same_hashes(t, text, len))
					batched = 0;
				if (ascii && st == 1) {
					/* Count the texts where stop words
					 * change something. */
					model(text, len, o.shingle, 0, &want);
					met += want.len;
					model(text, len, o.shingle, 1, &want);
					met -= want.len;
				}
				if (ascii) {
					model(text, len, o.shingle, st == 1,
					    &want);
					if (got.len != want.len ||
					    memcmp(got.buf, want.buf, got.len))
						fits = 0;
				}
			}
			sh_tok_vector(2);
			sh_hash_vector(1);
			ok(agree, "-w %d -n %d%s: AVX-512, AVX2 and portable "
			    "code give the same features and hashes on 2000 "
			    "texts", o.shingle, o.ngram,
			    st == 1 ? " -s" : st ? " span" : "");
			ok(fits, "-w %d -n %d%s: ASCII text gives the features "
			    "of the contract", o.shingle, o.ngram,
			    st == 1 ? " -s" : st ? " span" : "");
			ok(batched, "-w %d -n %d%s: the hashes in batches are "
			    "those one at a time", o.shingle, o.ngram,
			    st == 1 ? " -s" : st ? " span" : "");
			sh_tok_free(t);
		}
	ok(punctuation_agrees(), "CJK punctuation and fullwidth forms: each "
	    "cut at every level as one character at a time cuts it");
	ok(span_agrees(), "spanning runs: separators put between Han "
	    "characters and words change no feature, at every level");
	ok(met > 0, "stop words were met in the texts (%ld bytes of features "
	    "fewer)", met);
	sh_stop_free(stop);
	return tap_done();
}

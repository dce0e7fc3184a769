/*
 * Dictionary segmentation: cuts of a small dictionary worked out by hand
 * (and the same as jieba's, HMM off), ties, characters outside the
 * dictionary, prefixes and words of frequency 0, folding and combining
 * marks, long runs cut in pieces, bad dictionary lines, the integer log2,
 * and the tokenizer without a dictionary left as it was.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/num.h"
#include "base/utf8.h"
#include "feat/dict.h"
#include "feat/tokenize.h"
#include "text/fold.h"
#include "rng.h"
#include "tap.h"

/* Total frequency 99: 中国人 (4/99) beats 中国 人 (20/99 * 10/99). */
static const char dict_text[] =
    "中 5\n国 5\n中国 20\n人 10\n民 3\n人民 15\n中国人 4\n"
    "共和国 8\n共和 6\n"
    "甲 2\n乙丙 8\n甲乙 4\n丙 4\n"		/* 甲乙 丙 ties 甲 乙丙 */
    "丁戊 0\n丁戊己 5\n";			/* 丁戊: a prefix only */

static char out[1 << 16];
static size_t outlen;

static void
add_out(const char *p, size_t n)
{
	if (outlen > 0 && outlen < sizeof(out) - 1)
		out[outlen++] = '/';
	if (n > sizeof(out) - 1 - outlen)
		n = sizeof(out) - 1 - outlen;
	memcpy(out + outlen, p, n);
	outlen += n;
	out[outlen] = '\0';
}

static struct sh_dict *
load(const char *text, int *err, unsigned long long *line)
{
	struct sh_dict *d = NULL;
	FILE *fp;

	if ((fp = fmemopen((void *)text, strlen(text), "r")) == NULL)
		return NULL;
	*err = sh_dict_load(fp, 0, &d, line);
	fclose(fp);
	return d;
}

/* Load text and return the error and its line, as "E:LINE". */
static const char *
load_err(const char *text)
{
	static char buf[64];
	struct sh_dict *d;
	unsigned long long line;
	int err;

	d = load(text, &err, &line);
	sh_dict_free(d);
	snprintf(buf, sizeof(buf), "%d:%llu", err, line);
	return buf;
}

static uint32_t run[1 << 16];

static void
add_word(void *ctx, size_t start, size_t len)
{
	char w[256];
	size_t i, n = 0;

	(void)ctx;
	for (i = start; i < start + len && n + 4 <= sizeof(w); i++)
		n += sh_utf8_encode(run[i], w + n);
	add_out(w, n);
}

/* The cut of text by sh_dict_cut, words separated by '/'. */
static const char *
cut(const struct sh_dict *d, const char *text)
{
	struct sh_dictcut w = { 0 };
	size_t n;
	int bad = 0;

	outlen = 0;
	out[0] = '\0';
	n = sh_fold_text(text, strlen(text), 0, run, &bad);
	if (sh_dict_cut(d, &w, run, n, 0, add_word, NULL) != (long long)n)
		strcpy(out, "(error)");
	sh_dictcut_free(&w);
	return out;
}

static void
add_feature(void *ctx, const char *tok, size_t len, uint64_t h)
{
	(void)ctx;
	/* The hash comes with the feature: a wrong one shows in the cut. */
	if (h != sh_hash64(tok, len, 0))
		add_out("#", 1);
	add_out(tok, len);
}

/* The features of text from the tokenizer, separated by '/'. */
static const char *
features(const struct sh_dict *d, int ngram, int shingle, const char *text,
    size_t len)
{
	struct sh_tokopt o;
	struct sh_tok *t;
	int bad = 0;

	memset(&o, 0, sizeof(o));
	o.ngram = ngram;
	o.shingle = shingle;
	o.dict = d;
	outlen = 0;
	out[0] = '\0';
	if ((t = sh_tok_new(&o)) == NULL ||
	    sh_tok_run(t, text, len, add_feature, NULL, &bad) < 0)
		strcpy(out, "(error)");
	sh_tok_free(t);
	return out;
}

static const char *
tok(const struct sh_dict *d, int shingle, const char *text)
{
	return features(d, 2, shingle, text, strlen(text));
}

static int
same(const char *got, const char *want)
{
	if (strcmp(got, want) == 0)
		return 1;
	printf("#   got:  %s\n#   want: %s\n", got, want);
	return 0;
}

/* A long run: n characters drawn from the dictionary's, with some outside
 * it, as UTF-8. */
static size_t
long_run(char *buf, size_t n)
{
	static const uint32_t ch[] = { 0x4E2D, 0x56FD, 0x4EBA, 0x6C11,
	    0x5171, 0x548C, 0x7532, 0x4E59, 0x4E19, 0x4E01, 0x620A, 0x5DF1,
	    0x597D };
	size_t i, len = 0;

	for (i = 0; i < n; i++)
		len += sh_utf8_encode(ch[next() % (sizeof(ch) /
		    sizeof(ch[0]))], buf + len);
	return len;
}

/* Cut run[0..n) in one call of sh_dict_cut with the sum of two halves, to
 * compare with the tokenizer. */
static const char *
cut_parts(const struct sh_dict *d, size_t n, size_t split)
{
	struct sh_dictcut w = { 0 };

	outlen = 0;
	out[0] = '\0';
	if (split == 0 || split > n)
		split = n;
	sh_dict_cut(d, &w, run, split, 0, add_word, NULL);
	if (split < n) {
		memmove(run, run + split, (n - split) * sizeof(run[0]));
		sh_dict_cut(d, &w, run, n - split, 0, add_word, NULL);
	}
	sh_dictcut_free(&w);
	return out;
}

int
main(void)
{
	static char text[60000], want[sizeof(out)];
	struct sh_dict *d, *d2;
	unsigned long long line;
	int64_t l, prev;
	uint64_t x;
	size_t len, n, i;
	int err, bad, mono;

	d = load(dict_text, &err, &line);
	ok(d != NULL && err == 0 && line == 15, "the test dictionary loads");
	ok(sh_dict_words(d) == 14, "14 words of frequency above 0");

	/* Cuts; jieba gives the same with HMM=False. */
	ok(same(cut(d, "中国人民"), "中国/人民"), "中国/人民");
	ok(same(cut(d, "中国人"), "中国人"), "one word beats two rarer ones");
	ok(same(cut(d, "人民中国人民"), "人民/中国/人民"), "人民/中国/人民");
	ok(same(cut(d, "中华人民共和国"), "中/华/人民/共和国"),
	    "a character outside the dictionary is a word of its own");
	ok(same(cut(d, "好好"), "好/好"), "only unknown characters");
	ok(same(cut(d, "甲乙丙"), "甲乙/丙"),
	    "a tie goes to the longer first word");
	ok(same(cut(d, "丁戊"), "丁/戊"),
	    "a word of frequency 0 is a prefix only");
	ok(same(cut(d, "丁戊己"), "丁戊己"), "the word behind that prefix");
	ok(same(cut(d, "中"), "中"), "one character");
	ok(same(cut(d, ""), ""), "empty run: no words");

	/* Through the tokenizer: words join the word stream. */
	ok(same(tok(d, 1, "Abc中国人民, 共和国def"),
	    "abc/中国/人民/共和国/def"), "words among Latin words");
	ok(same(tok(d, 2, "Abc中国人民, 共和国def"),
	    "abc_中国/中国_人民/人民_共和国/共和国_def"),
	    "-w 2: shingles span Latin and dictionary words");
	ok(same(tok(d, 3, "中国人民"), "中国_人民"),
	    "-w 3: fewer words give one feature");
	ok(same(features(d, 5, 1, "中国人民", strlen("中国人民")),
	    "中国/人民"), "the n-gram size is unused");
	ok(same(tok(NULL, 1, "中国人民 abc"), "中国/国人/人民/abc"),
	    "no dictionary: bigrams as before");
	ok(same(tok(d, 2, "the quick brown fox"),
	    tok(NULL, 2, "the quick brown fox")) &&
	    same(tok(d, 1, "the quick, brown fox"), "the/quick/brown/fox"),
	    "text without n-gram scripts: the same with a dictionary");

	/* Folding: a compatibility ideograph, halfwidth kana and a voiced
	 * mark fold as the text does; marks stay with their character. */
	d2 = load("\xef\xa4\x80\xe6\x96\x87 9\n"	/* U+F900 文 */
	    "ガギ 5\nｸﾞ 3\n"
	    "\xe0\xb8\x81\xe0\xb9\x88\xe0\xb8\x82 5\n"	/* ก่ข */
	    "\xe0\xb8\x84\xe0\xb8\x87 5\n"		/* คง */
	    "\xef\xbb\xbf 7\n", &err, &line);		/* folds away */
	ok(d2 != NULL && sh_dict_words(d2) == 5, "folded words load");
	ok(same(tok(d2, 1, "\xe8\xb1\x88\xe6\x96\x87"), "\xe8\xb1\x88\xe6\x96\x87"),
	    "U+F900 in the dictionary matches U+8C48 in the text");
	ok(same(tok(d2, 1, "\xef\xa4\x80\xe6\x96\x87"), "\xe8\xb1\x88\xe6\x96\x87"),
	    "and U+F900 in the text");
	ok(same(tok(d2, 1, "ｶﾞｷﾞグ"), "ガギ/グ"),
	    "halfwidth kana with voiced marks fold to dictionary words");
	ok(same(tok(d2, 1, "ｶｷﾞ"), "カ/ギ"), "no word: characters");
	ok(same(tok(d2, 1, "\xe0\xb8\x81\xe0\xb9\x88\xe0\xb8\x82"
	    "\xe0\xb8\x84\xe0\xb9\x88\xe0\xb8\x87"),
	    "\xe0\xb8\x81\xe0\xb9\x88\xe0\xb8\x82/"
	    "\xe0\xb8\x84\xe0\xb9\x88/\xe0\xb8\x87"),
	    "a tone mark stays with its consonant, and is part of the key");
	sh_dict_free(d2);

	/* Long runs: cut in pieces of 4096 code points, the words are those
	 * of the whole run. */
	len = long_run(text, 12000);
	n = sh_fold_text(text, len, 0, run, &bad);
	strcpy(want, cut_parts(d, n, 0));
	ok(n == 12000 && same(features(d, 2, 1, text, len), want),
	    "a run of 12000 characters: the same as cut at once");
	for (len = 0, i = 0; i < 5001; i++)
		len += sh_utf8_encode(0x4E2D, text + len);
	d2 = load("中中 5\n", &err, &line);
	n = sh_fold_text(text, len, 0, run, &bad);
	strcpy(want, cut_parts(d2, n, 4096));
	ok(same(features(d2, 2, 1, text, len), want),
	    "a run no place of which is safe is cut at 4096");
	n = sh_fold_text(text, len, 0, run, &bad);
	{
		struct sh_dictcut w = { 0 };

		outlen = 0;
		ok(sh_dict_cut(d2, &w, run, n, 1, add_word, NULL) ==
		    (long long)n, "more != 0, no safe place: all is cut");
		outlen = 0;
		ok(sh_dict_cut(d, &w, run, 3, 1, add_word, NULL) == 2 &&
		    same(out, "中/中"),
		    "more != 0: cut up to the last safe place");
		sh_dictcut_free(&w);
	}
	sh_dict_free(d2);
	sh_dict_free(d);

	/* Dictionary lines. */
	ok(strcmp(load_err("a 1\n\n  \t\nb 2 n\nc\t3\td\r\n d 4 \n"),
	    "0:6") == 0, "blank lines, tags, TABs, CRLF, surrounding blanks");
	ok(strcmp(load_err("a 1"), "0:1") == 0, "no final newline");
	ok(strcmp(load_err(""), "0:0") == 0, "empty file");
	ok(strcmp(load_err("a 1\nb\n"), "-30:2") == 0, "no frequency");
	ok(strcmp(load_err("a 1\n\nb x\n"), "-30:3") == 0,
	    "frequency not a number");
	ok(strcmp(load_err("b 12x\n"), "-30:1") == 0, "trailing garbage");
	ok(strcmp(load_err("b -1\n"), "-30:1") == 0, "negative frequency");
	ok(strcmp(load_err("a 1\n\xff\xfe 2\n"), "-22:2") == 0,
	    "invalid UTF-8");
	ok(strcmp(load_err("a 4611686018427387904\n"), "0:1") == 0 &&
	    strcmp(load_err("a 4611686018427387905\n"), "-4:1") == 0,
	    "a frequency up to 2^62");
	ok(strcmp(load_err("a 4611686018427387904\nb 1\n"), "-4:2") == 0,
	    "a total over 2^62");
	memset(text, 'a', SH_DICT_WORD_MAX + 1);
	strcpy(text + SH_DICT_WORD_MAX, " 1\n");
	ok(strcmp(load_err(text), "0:1") == 0, "a word of 1024 bytes");
	memset(text, 'a', SH_DICT_WORD_MAX + 1);
	strcpy(text + SH_DICT_WORD_MAX + 1, " 1\n");
	ok(strcmp(load_err(text), "-30:1") == 0, "a word of 1025 bytes");
	d = load("甲 3\n甲 0\n乙 0\n乙 2\nＡ 1\na 5\n", &err, &line);
	ok(d != NULL && sh_dict_words(d) == 2,
	    "a word listed again takes its last frequency");
	sh_dict_free(d);

	/* log2 in units of 2^-32. */
	ok((int64_t)sh_log2_q32(0) == 0 && (int64_t)sh_log2_q32(1) == 0 &&
	    (int64_t)sh_log2_q32(2) == (int64_t)1 << 32 &&
	    (int64_t)sh_log2_q32(1ull << 40) == (int64_t)40 << 32 &&
	    (int64_t)sh_log2_q32(1ull << 63) == (int64_t)63 << 32,
	    "powers of two are exact");
	mono = 1;
	prev = -1;
	for (i = 0; i < 100000; i++) {
		x = i < 50000 ? i + 1 : next() >> (next() % 64);
		if (x == 0)
			x = 1;
		l = (int64_t)sh_log2_q32(x);
		if (fabs((double)l - ldexp(log2((double)x), 32)) > 2.5) {
			printf("#   log2(%llu): %lld\n", (unsigned long long)x,
			    (long long)l);
			mono = 0;
			break;
		}
		if (i < 50000 && l < prev)
			mono = 0;
		prev = l;
	}
	ok(mono, "within 2 units of libm, and monotonic over 1..50000");
	ok((int64_t)sh_log2_q32(3) == 6807362105 && (int64_t)sh_log2_q32(99) == 28472869876,
	    "frozen: log2 3 and log2 99");
	return tap_done();
}

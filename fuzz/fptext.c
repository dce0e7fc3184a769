/*
 * Fuzz target: text fingerprints (fp/fingerprint.h), through the
 * tokenizer, folding, dictionaries, stop words and IDF weights.  The
 * first byte of the input picks the options: bits 0-1 the n-gram and
 * shingle sizes (-n 5 -w 3, -n 2 -w 1, -n 1 -w 1, -n 16 -w 16), bits 2-3
 * the weights (binary, tf, logtf, binary), bit 4 -z, bit 5 -d with a
 * small dictionary, bit 6 -s @en -s @zh, bit 7 -D with a small DF file;
 * the rest is the text.  The fingerprint must be the same twice and by
 * the portable code, character by character (sh_fp_vector(0)), equal
 * the simhash of the features sh_fp_each gives, and equal the
 * fingerprint of those features written as a token list (sh-tokenize |
 * sh-fp -t).
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "feat/dict.h"
#include "feat/toklist.h"
#include "fp/fingerprint.h"
#include "util.h"

static const int sizes[4][2] = { { 5, 3 }, { 2, 1 }, { 1, 1 }, { 16, 16 } };
static const int weights[4] = { SH_W_BINARY, SH_W_TF, SH_W_LOGTF,
	SH_W_BINARY };

static const char dict[] =
    "北京 300 ns\n我们 200 r\n天气 100 n\n长城 80 ns\n今天 150 t\n"
    "去 50 v\n看 50 v\n很 40 d\n好 60 a\n不错 30 a\n"
    "中华人民共和国 5 ns\n"
    "中华 20 nz\n人民 40 n\n共和国 10 n\n東京 10 ns\nＡＢＣ 3 x\n";

static const char df[] =
    "\t10\nthe\t9\nfox\t1\nquick\t2\n北京\t3\n我们\t8\n";

/* The features of a text, with their weights, and as a token list. */
struct feats {
	uint64_t total, set[64];
	FILE *list;
	int first;
};

static void
feature(void *ctx, uint64_t h, uint64_t w, const char *tok, size_t len)
{
	struct feats *s = ctx;
	int b;

	FZ_CHECK(len > 0 && h == sh_hash64(tok, len, 0));
	FZ_CHECK(memchr(tok, ' ', len) == NULL &&
	    memchr(tok, '\t', len) == NULL);
	s->total += w;
	for (b = 0; b < 64; b++)
		s->set[b] += h >> b & 1 ? w : 0;
	FZ_CHECK(sh_toklist_put(s->list, tok, len, w, s->first) == 0);
	s->first = 0;
}

static int
load(struct sh_fpopt *o, unsigned opt)
{
	unsigned long long line;
	const char *path;
	FILE *in;
	int r = 0;

	o->tok.ngram = sizes[opt & 3][0];
	o->tok.shingle = sizes[opt & 3][1];
	o->weight = weights[opt >> 2 & 3];
	o->tok.simplify = opt >> 4 & 1;
	if (opt & 32) {
		in = fz_memfile((const uint8_t *)dict, sizeof(dict) - 1);
		r = sh_dict_load(in, o->tok.simplify, &o->dict, &line);
		o->tok.dict = o->dict;
		fclose(in);
	}
	if (r == 0 && opt & 64 &&
	    (r = sh_fpopt_stop(o, "@en", &line)) == 0)
		r = sh_fpopt_stop(o, "@zh", &line);
	if (r == 0 && opt & 128) {
		path = fz_file("idf", df, sizeof(df) - 1);
		r = sh_fpopt_idf(o, path, &line);
		fz_unlink("idf");
	}
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sh_fpopt o = SH_FPOPT_DEFAULT;
	struct feats s;
	unsigned opt = fz_byte(&data, &size);
	const char *p = (const char *)data;
	struct sh_fp *f;
	sh_fpval fp, fp2, want = 0;
	uint64_t total, total2;
	char *list = NULL;
	size_t len = 0, col = 0;
	int bad = 0, bad2 = 0, b;

	FZ_CHECK(load(&o, opt) == 0);
	if ((f = sh_fp_new(&o)) == NULL)
		abort();
	FZ_CHECK(sh_fp_text(f, p, size, &fp, &total, &bad) == 0);
	FZ_CHECK(sh_fp_text(f, p, size, &fp2, &total2, &bad2) == 0);
	FZ_CHECK(fp == fp2 && total == total2 && bad == bad2);
	FZ_CHECK(total != 0 || fp == 0);
	bad2 = 0;
	sh_fp_vector(0);
	FZ_CHECK(sh_fp_text(f, p, size, &fp2, &total2, &bad2) == 0);
	sh_fp_vector(2);
	FZ_CHECK(fp == fp2 && total == total2 && bad == bad2);

	memset(&s, 0, sizeof(s));
	s.first = 1;
	s.list = fz_sink(&list, &len);
	FZ_CHECK(sh_fp_each(f, p, size, 0, feature, &s, &bad2, &col) == 0);
	fclose(s.list);
	for (b = 0; b < 64; b++)
		if (2 * s.set[b] > s.total)
			want |= (sh_fpval)1 << b;
	FZ_CHECK((total == 0) == (s.total == 0));
	FZ_CHECK(total == 0 || fp == want);

	FZ_CHECK(sh_fp_tokens(f, list, len, &fp2, &total2, &col) == 0);
	FZ_CHECK(fp2 == fp && (total2 == 0) == (total == 0));
	free(list);
	sh_fp_free(f);
	sh_fpopt_free(&o);
	return 0;
}

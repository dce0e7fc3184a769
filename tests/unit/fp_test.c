/*
 * Frozen fingerprints, versions 1 to 3: whole documents in English, Chinese,
 * mixed script, Japanese, Korean and compatibility forms, under each
 * weight scheme and with n-gram/shingle options.  A change here is a new
 * fingerprint version, never an edit.  Also: the term-frequency fast path
 * agrees with the weighted token path for every document and scheme.
 */
#include <string.h>

#include "feat/weight.h"
#include "fp/fingerprint.h"
#include "tap.h"

static const char *doc[] = {
	"The quick brown fox jumps over the lazy dog.",
	"中华人民共和国成立于一九四九年，首都北京。",
	"Simhash 算法由 Charikar 在 2002 年提出, used by Google for "
	    "near-duplicate detection.",
	"日本語のテキストもカタカナとひらがなで処理できます。",
	"한국어 문장도 처리할 수 있습니다.",
	"ＦＵＬＬ-width Straße ﬁnance Ｃａｆé",
	/* Words repeated, so that tf, binary and log-tf all differ. */
	"to be or not to be, that is the question: to be, to be, to be, "
	    "or not",
};

static const struct {
	const char *name;
	struct sh_fpopt o;
	uint64_t fp[7];
} vec[] = {
	{ "version 1", SH_FPOPT_V1, {
	    0x593b03225397e4aeULL, 0x08fc73454807c8cbULL,
	    0x98ddbd6b745b3302ULL, 0xc3febcc22086960fULL,
	    0xe48d1803c820001aULL, 0x3d10ec753def5c9dULL,
	    0x0a1f034230139948ULL } },
	{ "-W binary", SH_FPOPT_INIT(2, 1, SH_W_BINARY), {
	    0x193303025216e48aULL, 0x08fc73454807c8cbULL,
	    0x98ddbd6b745b3302ULL, 0xc3febcc22086960fULL,
	    0xe48d1803c820001aULL, 0x3d10ec753def5c9dULL,
	    0x0a1f0342380b1158ULL } },
	{ "-W logtf", SH_FPOPT_INIT(2, 1, SH_W_LOGTF), {
	    0x593b03225397e4aeULL, 0x08fc73454807c8cbULL,
	    0x98ddbd6b745b3302ULL, 0xc3febcc22086960fULL,
	    0xe48d1803c820001aULL, 0x3d10ec753def5c9dULL,
	    0x0a1f034230139158ULL } },
	{ "-n 3 -w 2", SH_FPOPT_INIT(3, 2, SH_W_TF), {
	    0x4d4b48084418509eULL, 0xffc45e7951c4b0f6ULL,
	    0xb5c5ad882ccc2a4fULL, 0xe60e6b5993bb46c7ULL,
	    0xc04809e4880082c0ULL, 0x58a70726f88213fcULL,
	    0xd7c31dd332e718e0ULL } },
	{ "version 2", SH_FPOPT_V2, {
	    0x8bd2b4bd2ee75d6cULL, 0xa4a6501240942547ULL,
	    0xc465d1d9b8dbd3deULL, 0xee87960dcb26da46ULL,
	    0x864989ec8c60f0ceULL, 0x7b92055d5d952bb3ULL,
	    0xe216495a8525c03fULL } },
	{ "default (version 3)", SH_FPOPT_DEFAULT, {
	    0x8bd2b4bd2ee75d6cULL, 0x9ce6503a739d5dc7ULL,
	    0x4444df5bdbf8c3d6ULL, 0xee87960dcb26da46ULL,
	    0x2a74d5aa18894130ULL, 0x7b92055d5d952bb3ULL,
	    0xe216495a8525c03fULL } },
};

#define NDOC (sizeof(doc) / sizeof(doc[0]))
#define NVEC (sizeof(vec) / sizeof(vec[0]))

/* Rebuild the token line sh-tokenize prints, then fingerprint it. */
static uint64_t
via_tokens(struct sh_fp *f, int scheme, const char *text)
{
	const struct sh_bagent *e;
	const struct sh_bag *bag;
	static char line[65536];
	uint64_t fp, total;
	size_t i, n, len = 0, col;
	int bad = 0;

	if (sh_fp_features(f, text, strlen(text), &bag, &bad) != 0)
		return 0;
	n = sh_bag_entries(bag, &e);
	for (i = 0; i < n && len + e[i].len + 32 < sizeof(line); i++) {
		memcpy(line + len, sh_bag_text(bag) + e[i].off, e[i].len);
		len += e[i].len;
		line[len++] = '^';
		len += sh_weight_format(sh_weight(scheme, e[i].count),
		    line + len);
		line[len++] = ' ';
	}
	if (sh_fp_tokens(f, line, len, &fp, &total, &col) != 0 || total == 0)
		return 0;
	return fp;
}

int
main(void)
{
	struct sh_fpopt def = SH_FPOPT_DEFAULT;
	struct sh_fp *f;
	uint64_t fp, fp2, total;
	size_t v, d, col;
	int bad;

	for (v = 0; v < NVEC; v++) {
		f = sh_fp_new(&vec[v].o);
		for (d = 0; d < NDOC; d++) {
			bad = 0;
			ok(sh_fp_text(f, doc[d], strlen(doc[d]), &fp, &total,
			    &bad) == 0 && fp == vec[v].fp[d] && total > 0 &&
			    bad == 0, "%s, document %zu: %016llx", vec[v].name,
			    d, (unsigned long long)fp);
			ok(via_tokens(f, vec[v].o.weight, doc[d]) == fp,
			    "%s, document %zu: token path agrees", vec[v].name,
			    d);
		}
		sh_fp_free(f);
	}

	ok(vec[0].fp[NDOC - 1] != vec[1].fp[NDOC - 1] &&
	    vec[0].fp[NDOC - 1] != vec[2].fp[NDOC - 1] &&
	    vec[1].fp[NDOC - 1] != vec[2].fp[NDOC - 1],
	    "the three weight schemes give three fingerprints");

	f = sh_fp_new(&def);
	sh_fp_text(f, "", 0, &fp, &total, &bad);
	ok(total == 0, "empty document: no features");
	sh_fp_text(f, " ,.!? — …", strlen(" ,.!? — …"), &fp, &total, &bad);
	ok(total == 0, "punctuation only: no features");
	sh_fp_text(f, "abc", 3, &fp, &total, &bad);
	ok(fp == 0x44bc2cf5ad770999ULL && total > 0,
	    "one feature: the fingerprint is its XXH64");
	sh_fp_text(f, doc[5], strlen(doc[5]), &fp, &total, &bad);
	sh_fp_text(f, "full width strasse finance café", 32, &fp2, &total,
	    &bad);
	ok(fp == fp2, "compatibility forms and case fold away");
	sh_fp_text(f, "cafe\xcc\x81", 6, &fp, &total, &bad);
	sh_fp_text(f, "caf\xc3\xa9", 5, &fp2, &total, &bad);
	ok(fp == fp2, "decomposed and precomposed é agree");
	sh_fp_tokens(f, "b^2 a", 5, &fp, &total, &col);
	sh_fp_tokens(f, "a b b", 5, &fp2, &total, &col);
	ok(fp == fp2, "token order does not matter, b^2 is b b");
	ok(sh_fp_tokens(f, "a b^x", 5, &fp, &total, &col) != 0 && col == 3,
	    "bad weight is reported at its column");
	sh_fp_free(f);
	return tap_done();
}

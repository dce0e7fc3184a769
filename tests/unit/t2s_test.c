/*
 * Traditional to simplified Chinese: spot checks of the table
 * (lib/text/t2s.c), its properties over every code point, and the tokenizer's
 * simplify option.  The exhaustive comparison with the Unihan database is
 * tools/gen-t2s --check, which needs the UCD files; this test does not.
 */
#include <stdint.h>
#include <string.h>

#include "feat/tokenize.h"
#include "text/unicode.h"
#include "tap.h"

struct feats {
	char buf[512];
	size_t len;
};

/* Features joined by spaces into a string. */
static void
collect(void *ctx, const char *tok, size_t len, uint64_t h)
{
	struct feats *f = ctx;

	(void)h;
	if (f->len + len + 2 > sizeof(f->buf))
		return;
	if (f->len > 0)
		f->buf[f->len++] = ' ';
	memcpy(f->buf + f->len, tok, len);
	f->len += len;
	f->buf[f->len] = '\0';
}

/* Do the features of text, tokenized with simplify s, read want? */
static int
tokens(int s, const char *text, const char *want)
{
	struct sh_tokopt o = { .ngram = 2, .shingle = 1 };
	struct sh_tok *t;
	struct feats f;
	int bad = 0;
	long long n;

	o.simplify = s;
	if ((t = sh_tok_new(&o)) == NULL)
		return 0;
	f.len = 0;
	f.buf[0] = '\0';
	n = sh_tok_run(t, text, strlen(text), collect, &f, &bad);
	sh_tok_free(t);
	if (n < 0 || strcmp(f.buf, want) != 0) {
		printf("# got \"%s\", want \"%s\"\n", f.buf, want);
		return 0;
	}
	return 1;
}

int
main(void)
{
	uint32_t cp, s, out[SH_UC_FOLD_MAX];
	unsigned long changed = 0;
	int idem = 1, kept = 1;

	/* Known pairs. */
	ok(sh_uc_simplify(0x570B) == 0x56FD, "U+570B 國 to U+56FD 国");
	ok(sh_uc_simplify(0x8AAA) == 0x8BF4, "U+8AAA 說 to U+8BF4 说");
	ok(sh_uc_simplify(0x5F8C) == 0x540E, "U+5F8C 後 to U+540E 后");
	ok(sh_uc_simplify(0x8A9E) == 0x8BED, "U+8A9E 語 to U+8BED 语");
	ok(sh_uc_simplify(0x9AD4) == 0x4F53, "U+9AD4 體 to U+4F53 体");
	ok(sh_uc_simplify(0x842C) == 0x4E07, "U+842C 萬 to U+4E07 万");
	ok(sh_uc_simplify(0x767C) == 0x53D1 && sh_uc_simplify(0x9AEE) ==
	    0x53D1, "U+767C 發 and U+9AEE 髮 both to U+53D1 发");
	ok(sh_uc_simplify(0x85B4) == 0x82CE, "U+85B4 薴 to U+82CE 苎, the "
	    "chain through U+82E7 苧 followed");
	ok(sh_uc_simplify(0x82E7) == 0x82CE, "U+82E7 苧 to U+82CE 苎");

	/* Left alone. */
	ok(sh_uc_simplify(0x56FD) == 0x56FD, "U+56FD 国, simplified, stays");
	ok(sh_uc_simplify(0x4E2D) == 0x4E2D, "U+4E2D 中, the same in both, "
	    "stays");
	ok(sh_uc_simplify(0x4E7E) == 0x4E7E, "U+4E7E 乾, its own simplified "
	    "variant beside 干, stays");
	ok(sh_uc_simplify(0x8457) == 0x8457, "U+8457 著, its own simplified "
	    "variant beside 着, stays");
	ok(sh_uc_simplify(0x9762) == 0x9762, "U+9762 面, listed as its own "
	    "only variant, stays");
	ok(sh_uc_simplify('a') == 'a' && sh_uc_simplify(0) == 0,
	    "ASCII stays");
	ok(sh_uc_simplify(0x3042) == 0x3042, "U+3042 hiragana a stays");
	ok(sh_uc_simplify(0xAC00) == 0xAC00, "U+AC00 Hangul syllable stays");
	ok(sh_uc_simplify(0xF900) == 0xF900, "U+F900 compatibility "
	    "ideograph, which folding removes, stays");
	ok(sh_uc_simplify(0x10FFFF) == 0x10FFFF &&
	    sh_uc_simplify(0x110000) == 0x110000 &&
	    sh_uc_simplify(0xFFFFFFFF) == 0xFFFFFFFF,
	    "U+10FFFF, 0x110000 and 0xFFFFFFFF stay");

	/* Properties over every code point. */
	for (cp = 0; cp < 0x110000; cp++) {
		if ((s = sh_uc_simplify(cp)) == cp)
			continue;
		changed++;
		if (sh_uc_simplify(s) != s)
			idem = 0;
		if (sh_uc_class(cp) != SH_UC_GRAM ||
		    sh_uc_class(s) != SH_UC_GRAM ||
		    sh_uc_fold(s, out) != 1 || out[0] != s)
			kept = 0;
	}
	ok(changed == 6262, "6262 code points simplified (%lu)", changed);
	ok(idem, "simplifying twice is simplifying once");
	ok(kept, "sources and targets are n-gram characters, targets fold "
	    "to themselves");

	/* The tokenizer. */
	ok(tokens(0, "國語說", "國語 語說"), "without simplify, traditional "
	    "text stays");
	ok(tokens(1, "國語說", "国语 语说"), "with simplify, traditional "
	    "bigrams become simplified");
	ok(tokens(1, "国语说", "国语 语说"), "with simplify, simplified "
	    "text stays");
	ok(tokens(1, "\xef\xa4\x80\xe2\xbe\xa8", "岂门"), "simplify after "
	    "folding: U+F900 folds to 豈 then 岂, U+2FA8 radical to 門 then "
	    "门");
	ok(tokens(1, "Straße 後來", "strasse 后来"), "words fold as "
	    "before");
	return tap_done();
}

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/lines.h"
#include "feat/stopword.h"
#include "feat/tokenize.h"

/*
 * The built-in lists, written for this project.  English: articles,
 * pronouns, prepositions, conjunctions, auxiliaries, a few adverbs of
 * degree and the pieces that contractions leave ("don't" is "don" "t").
 */
static const char stop_en[] =
    "a an the "
    "i me my mine myself you your yours yourself yourselves he him his "
    "himself she her hers herself it its itself we us our ours ourselves "
    "they them their theirs themselves one "
    "this that these those who whom whose which what "
    "am is are was were be been being have has had having do does did "
    "doing will would shall should can could may might must "
    "of in on at by for with about against between into through during "
    "before after above below to from up down out off over under again "
    "further upon within without among "
    "and but or nor so yet if because as until while than whether "
    "although though unless since "
    "not no there here when where why how all any both each few more most "
    "other some such only own same too very just also then "
    "s t d ll m re ve";

/* Chinese: particles, pronouns, prepositions, conjunctions, auxiliaries
 * and their common compounds. */
static const char stop_zh[] =
    "的 了 是 在 和 也 就 都 而 及 与 着 或 之 于 被 把 对 从 向 以 为 "
    "让 给 跟 同 但 并 且 又 还 则 却 所 其 此 这 那 得 地 过 "
    "吗 呢 吧 啊 呀 哦 嘛 啦 么 "
    "我 你 您 他 她 它 我们 你们 他们 她们 它们 咱们 自己 "
    "这个 那个 这些 那些 这里 那里 这样 那样 这种 那种 "
    "什么 怎么 怎样 为什么 哪里 哪个 "
    "因为 所以 但是 而且 并且 或者 如果 虽然 即使 然后 因此 于是 "
    "不过 可是 只是 还是 就是 也是 都是 而是 以及 由于 关于 对于 "
    "通过 按照 根据 为了 除了 的话 之后 之前 之间 之一 其中 等 等等 "
    "一个 一些 一种 已经 可以 没有 不是";

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

	while ((n = getline(&buf, &cap, f)) != -1) {
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
		return sh_stop_add(s, stop_en, sizeof(stop_en) - 1, simplify,
		    &bad);
	if (strcmp(name, "@zh") == 0)
		return sh_stop_add(s, stop_zh, sizeof(stop_zh) - 1, simplify,
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

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "feat/stopword.h"
#include "feat/tokenize.h"

/* A bit per 2^-13 of the hash space, set for each entry: most features
 * are told apart from the stop words by one load, in 1 KB. */
#define FILTER_BITS 13

struct sh_stop {
	struct sh_hmap set;	/* values unused */
	struct sh_tok *tok;	/* cuts entries: SH_TOK_MAX-grams, no shingles */
	uint64_t filter[(1 << FILTER_BITS) / 64];
	int nomem;
};

/* The filter bit of hash h: its top bits, which the map does not use. */
#define FBIT(h) ((h) >> (64 - FILTER_BITS))

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

struct sh_stop *
sh_stop_new(int simplify)
{
	struct sh_tokopt o = { .ngram = SH_TOK_MAX, .shingle = 1,
	    .simplify = simplify };
	struct sh_stop *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return NULL;
	if ((s->tok = sh_tok_new(&o)) == NULL) {
		free(s);
		return NULL;
	}
	return s;
}

void
sh_stop_free(struct sh_stop *s)
{
	if (s == NULL)
		return;
	sh_hmap_free(&s->set);
	sh_tok_free(s->tok);
	free(s);
}

static void
add_feature(void *ctx, const char *tok, size_t len, uint64_t h)
{
	struct sh_stop *s = ctx;

	(void)tok;
	(void)len;
	s->filter[FBIT(h) / 64] |= 1ULL << FBIT(h) % 64;
	if (sh_hmap_put(&s->set, h, 0) != 0)
		s->nomem = 1;
}

int
sh_stop_add(struct sh_stop *s, const char *p, size_t len, int *bad)
{
	s->nomem = 0;
	if (sh_tok_run(s->tok, p, len, add_feature, s, bad) < 0 || s->nomem)
		return SH_ENOMEM;
	return 0;
}

static int
load_file(struct sh_stop *s, FILE *f, unsigned long long *line)
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
		if ((r = sh_stop_add(s, buf, (size_t)n, &bad)) != 0)
			break;
		if (bad) {
			r = SH_EUTF8;
			break;
		}
	}
	if (r == 0 && ferror(f))
		r = SH_EIO;
	free(buf);
	return r;
}

int
sh_stop_load(struct sh_stop *s, const char *name, unsigned long long *line)
{
	FILE *f;
	int r, bad, e;

	*line = 0;
	if (strcmp(name, "@en") == 0)
		return sh_stop_add(s, stop_en, sizeof(stop_en) - 1, &bad);
	if (strcmp(name, "@zh") == 0)
		return sh_stop_add(s, stop_zh, sizeof(stop_zh) - 1, &bad);
	if (name[0] == '@')
		return SH_EINVAL;
	if ((f = fopen(name, "r")) == NULL)
		return SH_EIO;
	r = load_file(s, f, line);
	e = errno;
	fclose(f);
	errno = e;
	if (r != SH_EUTF8)
		*line = 0;
	return r;
}

int
sh_stop_has(const struct sh_stop *s, uint64_t h)
{
	return (s->filter[FBIT(h) / 64] >> FBIT(h) % 64 & 1) &&
	    sh_hmap_get(&s->set, h, NULL);
}

size_t
sh_stop_count(const struct sh_stop *s)
{
	return s->set.n;
}

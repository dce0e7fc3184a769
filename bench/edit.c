/*
 * edit: make edited copies of documents for the accuracy evaluation.
 * Reads "ID<TAB>TEXT" lines; for the document on input line N it prints,
 * for each edit kind, rate and copy C, one line "N|KIND|RATE|C<TAB>TEXT'".
 *
 * Characters are UTF-8 code points.  Words are runs of non-space
 * characters, except that a run of ideographs (Han, kana, hangul) is cut
 * into words of two characters, a rough stand-in for Chinese words, which
 * are not delimited by spaces.  Bytes that are not valid UTF-8 are kept as
 * one-byte units and never copied elsewhere, so the edits create no
 * invalid UTF-8.  Output depends only on the input and -s.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { OP_INS, OP_DEL, OP_SUB, OP_HEAD, OP_TAIL, OP_BOIL };

static const struct kind {
	const char	*name;
	int		 words;
	int		 op;
} kinds[] = {
	{ "char-ins", 0, OP_INS },
	{ "char-del", 0, OP_DEL },
	{ "char-sub", 0, OP_SUB },
	{ "word-ins", 1, OP_INS },
	{ "word-del", 1, OP_DEL },
	{ "word-sub", 1, OP_SUB },
	{ "crop-head", 0, OP_HEAD },
	{ "crop-tail", 0, OP_TAIL },
	{ "boiler", 0, OP_BOIL },
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

/* Percent of units edited: the per-unit edits at each, the rest at 10. */
static const int rates[] = { 1, 3, 5, 10 };
#define NRATES	(sizeof(rates) / sizeof(rates[0]))
#define FIXRATE	10

/* Appended by "boiler", repeated as needed and cut to length. */
static const char footer_en[] =
    "This document is provided as is, without warranty of any kind, "
    "express or implied, including but not limited to the warranties of "
    "merchantability and fitness for a particular purpose. Visit our web "
    "site for the latest version, subscribe to our newsletter and follow "
    "us for updates. All rights reserved.";
static const char footer_zh[] =
    "本文档按“原样”提供，不附带任何明示或暗示的担保，"
    "包括但不限于适销性和特定用途适用性的担保。"
    "欢迎访问我们的网站获取最新版本，"
    "订阅我们的新闻通讯并关注我们以获取更新。"
    "版权所有，保留一切权利。";

/*
 * A unit (character or word) is text[off, off + len), followed in the
 * text by the white space text[soff, soff + slen).
 */
struct unit {
	size_t	off, len;
	size_t	soff, slen;
};

static struct unit	*units;
static size_t		 nunits, unitcap;
static size_t		*pool;		/* units that may be copied */
static size_t		 npool;
static size_t		*marks;		/* per unit: edits at that unit */
static size_t		 markcap;
static const char	*text;		/* document being edited */
static size_t		 textlen;
static size_t		 prefix;	/* leading white space, word mode */
static uint64_t		 rng;

/* The emitter: tracks the last word written to join new words sensibly. */
static struct {
	int		 any;
	int		 wordmode;
	int		 prevnew;
	long		 prevlast;	/* last code point of previous unit */
} em;

static void
usage(void)
{
	fprintf(stderr, "usage: edit [-c copies] [-s seed]\n");
	exit(2);
}

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z;

	z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0, without modulo bias. */
static uint64_t
below(uint64_t n)
{
	uint64_t r, min;

	min = (0 - n) % n;
	do
		r = splitmix64(&rng);
	while (r < min);
	return r % n;
}

/*
 * Decode the code point at p[0, n), n > 0.  Sets *len to its length;
 * returns -1 with *len = 1 for a byte that does not start a valid
 * sequence (overlong forms and surrogates included).
 */
static long
decode(const unsigned char *p, size_t n, size_t *len)
{
	long c, min;
	size_t i, l;

	*len = 1;
	if (p[0] < 0x80)
		return p[0];
	if (p[0] >= 0xc2 && p[0] <= 0xdf) {
		l = 2;
		c = p[0] & 0x1f;
		min = 0x80;
	} else if (p[0] >= 0xe0 && p[0] <= 0xef) {
		l = 3;
		c = p[0] & 0x0f;
		min = 0x800;
	} else if (p[0] >= 0xf0 && p[0] <= 0xf4) {
		l = 4;
		c = p[0] & 0x07;
		min = 0x10000;
	} else
		return -1;
	if (l > n)
		return -1;
	for (i = 1; i < l; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return -1;
		c = c << 6 | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return -1;
	*len = l;
	return c;
}

static int
isspacecp(long c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' ||
	    c == 0x3000;
}

/* Ideographic letters: cut into two-character words. */
static int
isideo(long c)
{
	return (c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xac00 && c <= 0xd7af) ||
	    (c >= 0xf900 && c <= 0xfaff) || (c >= 0x20000 && c <= 0x3ffff);
}

/* Wide (East Asian) characters need no space between them. */
static int
iswidecp(long c)
{
	return (c >= 0x2e80 && c <= 0xa4cf) || (c >= 0xac00 && c <= 0xd7af) ||
	    (c >= 0xf900 && c <= 0xfaff) || (c >= 0xfe30 && c <= 0xfe4f) ||
	    (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6) ||
	    (c >= 0x20000 && c <= 0x3ffff);
}

static long
firstcp(const char *p, size_t n)
{
	size_t l;

	return decode((const unsigned char *)p, n, &l);
}

static long
lastcp(const char *p, size_t n)
{
	size_t i, l;
	long c;

	for (i = n; i > 0 && n - i < 4; i--) {
		if (((unsigned char)p[i - 1] & 0xc0) != 0x80) {
			c = decode((const unsigned char *)p + i - 1, n - i + 1,
			    &l);
			return l == n - i + 1 ? c : -1;
		}
	}
	return -1;
}

static void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

/* Append a unit; returns -1 on memory exhaustion. */
static int
addunit(size_t off, size_t len)
{
	struct unit *u;
	size_t *p;
	size_t cap;

	if (nunits == unitcap) {
		cap = unitcap ? unitcap * 2 : 1024;
		if ((u = xreallocarray(units, cap, sizeof(*u))) == NULL)
			return -1;
		units = u;
		if ((p = xreallocarray(pool, cap, sizeof(*p))) == NULL)
			return -1;
		pool = p;
		unitcap = cap;
	}
	u = &units[nunits++];
	u->off = off;
	u->len = len;
	u->soff = off + len;
	u->slen = 0;
	return 0;
}

/*
 * Cut text into units: code points, or words.  Fills units and pool (the
 * units an insertion or substitution may copy: valid non-space characters,
 * or any word).  Returns -1 on memory exhaustion.
 */
static int
split(int words)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i, l, start, nideo;
	long c;
	int inideo;

	nunits = npool = 0;
	prefix = 0;
	if (!words) {
		for (i = 0; i < textlen; i += l) {
			c = decode(p + i, textlen - i, &l);
			if (addunit(i, l) == -1)
				return -1;
			if (c >= 0 && !isspacecp(c))
				pool[npool++] = nunits - 1;
		}
		return 0;
	}
	for (i = 0; i < textlen; i += l) {
		c = decode(p + i, textlen - i, &l);
		if (!isspacecp(c))
			break;
	}
	prefix = i;
	while (i < textlen) {
		/* A word: a non-ideographic run or two ideographs. */
		start = i;
		c = decode(p + i, textlen - i, &l);
		inideo = isideo(c);
		nideo = 0;
		while (i < textlen) {
			c = decode(p + i, textlen - i, &l);
			if (isspacecp(c) || isideo(c) != inideo ||
			    (inideo && nideo == 2))
				break;
			nideo++;
			i += l;
		}
		if (addunit(start, i - start) == -1)
			return -1;
		pool[npool++] = nunits - 1;
		while (i < textlen) {
			c = decode(p + i, textlen - i, &l);
			if (!isspacecp(c))
				break;
			i += l;
		}
		units[nunits - 1].slen = i - units[nunits - 1].soff;
	}
	return 0;
}

static void
put(const char *p, size_t n)
{
	fwrite(p, 1, n, stdout);
}

static void
emitstart(int wordmode)
{
	em.any = 0;
	em.wordmode = wordmode;
	em.prevnew = 0;
	em.prevlast = -1;
	put(text, prefix);
}

/*
 * Write the unit p[0, n) after the white space gap[0, gn); isnew says the
 * unit is not the original one, edge that a unit was deleted before it.
 * Where an edit brings two units together without white space between
 * them, word mode puts a space unless both sides are wide characters.
 */
static void
emit(const char *p, size_t n, const char *gap, size_t gn, int edge,
    int isnew)
{
	if (em.any) {
		if (gn > 0)
			put(gap, gn);
		else if (em.wordmode && (edge || isnew || em.prevnew) &&
		    !(iswidecp(em.prevlast) && iswidecp(firstcp(p, n))))
			put(" ", 1);
	}
	put(p, n);
	em.any = 1;
	em.prevnew = isnew;
	em.prevlast = lastcp(p, n);
}

static void
emitunit(size_t i, const char *gap, size_t gn, int edge, int isnew)
{
	emit(text + units[i].off, units[i].len, gap, gn, edge, isnew);
}

/* Number of units to edit at rate percent: rounded, at least one. */
static size_t
edits(size_t n, int rate)
{
	uint64_t k;

	k = ((uint64_t)n * rate + 50) / 100;
	if (k == 0 && n > 0)
		k = 1;
	return k > n ? n : k;
}

/* A unit of the pool, if possible not equal to unit avoid. */
static size_t
pick(size_t avoid)
{
	size_t j;
	int tries;

	j = pool[below(npool)];
	for (tries = 0; tries < 8; tries++) {
		if (avoid >= nunits || units[j].len != units[avoid].len ||
		    memcmp(text + units[j].off, text + units[avoid].off,
		    units[j].len) != 0)
			break;
		j = pool[below(npool)];
	}
	return j;
}

/* Insert k units copied from the document at random gaps. */
static void
doins(size_t k)
{
	size_t i, j, gap, gn;

	memset(marks, 0, (nunits + 1) * sizeof(*marks));
	for (j = 0; j < k; j++)
		marks[below(nunits + 1)]++;
	for (i = 0; i <= nunits; i++) {
		gap = i > 0 ? units[i - 1].soff : 0;
		gn = i > 0 && i < nunits ? units[i - 1].slen : 0;
		for (j = 0; j < marks[i]; j++)
			emitunit(pick(SIZE_MAX), text + gap, gn, 0, 1);
		if (i < nunits)
			emitunit(i, text + gap, gn, 0, 0);
	}
}

/* Delete or substitute k distinct units chosen by selection sampling. */
static void
dodelsub(size_t k, int sub)
{
	size_t i, left, gap, gn;
	int touched;

	gap = gn = 0;
	touched = 0;
	left = k;
	for (i = 0; i < nunits; i++) {
		if (left > 0 && below(nunits - i) < left) {
			left--;
			if (sub) {
				emitunit(pick(i), text + gap, gn, touched, 1);
				touched = 0;
				gap = units[i].soff;
				gn = units[i].slen;
				continue;
			}
			/* A deleted word's white space survives. */
			if (gn == 0) {
				gap = units[i].soff;
				gn = units[i].slen;
			}
			touched = 1;
			continue;
		}
		emitunit(i, text + gap, gn, touched, 0);
		touched = 0;
		gap = units[i].soff;
		gn = units[i].slen;
	}
}

/* Append m characters of the footer matching the document's script. */
static void
doboiler(size_t m)
{
	const char *f;
	size_t i, n, l, nideo, nchar, fn;
	long c;

	nideo = nchar = 0;
	for (i = 0; i < nunits; i++) {
		c = decode((const unsigned char *)text + units[i].off,
		    units[i].len, &l);
		if (!isspacecp(c))
			nchar++;
		if (isideo(c))
			nideo++;
	}
	if (nideo * 10 >= nchar) {
		f = footer_zh;
		fn = sizeof(footer_zh) - 1;
	} else {
		f = footer_en;
		fn = sizeof(footer_en) - 1;
	}
	put(text, textlen);
	put(" ", 1);
	for (i = n = 0; n < m; n++) {
		if (i == fn) {
			put(" ", 1);
			i = 0;
			continue;
		}
		decode((const unsigned char *)f + i, fn - i, &l);
		put(f + i, l);
		i += l;
	}
}

/* Word edits drop the white space at the end: put it back. */
static void
trailing(void)
{
	put(text + units[nunits - 1].soff, units[nunits - 1].slen);
}

static void
edit(int kind, int rate)
{
	size_t k;

	switch (kinds[kind].op) {
	case OP_INS:
		doins(edits(nunits, rate));
		break;
	case OP_DEL:
	case OP_SUB:
		dodelsub(edits(nunits, rate), kinds[kind].op == OP_SUB);
		break;
	case OP_HEAD:
		k = edits(nunits, rate);
		if (k < nunits)
			put(text + units[k].off, textlen - units[k].off);
		break;
	case OP_TAIL:
		k = edits(nunits, rate);
		if (k < nunits)
			put(text, units[nunits - k].off);
		break;
	case OP_BOIL:
		doboiler(edits(nunits, rate));
		break;
	}
}

/* Print every edited copy of document number lineno.  -1: no memory. */
static int
document(uint64_t seed, uintmax_t lineno, long copies)
{
	size_t *p, r, nr;
	long c;
	int kind, words, rate;

	for (words = 0; words <= 1; words++) {
		if (split(words) == -1)
			return -1;
		if (npool == 0)
			return 0;
		if (nunits + 1 > markcap) {
			if ((p = xreallocarray(marks, nunits + 1,
			    sizeof(*p))) == NULL)
				return -1;
			marks = p;
			markcap = nunits + 1;
		}
		for (kind = 0; kind < (int)NKINDS; kind++) {
			if (kinds[kind].words != words)
				continue;
			nr = kinds[kind].op <= OP_SUB ? NRATES : 1;
			for (r = 0; r < nr; r++) {
				rate = nr > 1 ? rates[r] : FIXRATE;
				for (c = 1; c <= copies; c++) {
					/* Each copy has its own stream. */
					rng = seed;
					rng = splitmix64(&rng) ^ lineno;
					rng = splitmix64(&rng) ^ (uint64_t)kind;
					rng = splitmix64(&rng) ^ (uint64_t)rate;
					rng = splitmix64(&rng) ^ (uint64_t)c;
					printf("%ju|%s|%d|%ld\t", lineno,
					    kinds[kind].name, rate, c);
					emitstart(words);
					edit(kind, rate);
					if (words)
						trailing();
					putchar('\n');
				}
			}
		}
	}
	return 0;
}

int
main(int argc, char *argv[])
{
	char *line = NULL, *end, *tab;
	size_t cap = 0;
	ssize_t n;
	uintmax_t lineno = 0;
	uint64_t seed = 1;
	unsigned long long ull;
	long copies = 1;
	int ch, status = 0;

	while ((ch = getopt(argc, argv, "c:s:")) != -1) {
		switch (ch) {
		case 'c':
			errno = 0;
			copies = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || copies < 1 ||
			    copies > 1000) {
				fprintf(stderr, "edit: -c %s: must be 1 to "
				    "1000\n", optarg);
				exit(2);
			}
			break;
		case 's':
			errno = 0;
			ull = strtoull(optarg, &end, 10);
			if (errno || *end || end == optarg || *optarg == '-') {
				fprintf(stderr, "edit: -s %s: invalid seed\n",
				    optarg);
				exit(2);
			}
			seed = ull;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 0)
		usage();

	while ((n = getline(&line, &cap, stdin)) != -1) {
		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			line[--n] = '\0';
		if ((tab = memchr(line, '\t', n)) == NULL) {
			fprintf(stderr, "edit: <stdin>:%ju: no tab, line "
			    "skipped\n", lineno);
			status = 2;
			continue;
		}
		text = tab + 1;
		textlen = (size_t)n - (size_t)(text - line);
		if (document(seed, lineno, copies) == -1) {
			fprintf(stderr, "edit: <stdin>:%ju: %s\n", lineno,
			    strerror(ENOMEM));
			exit(2);
		}
	}
	if (ferror(stdin)) {
		fprintf(stderr, "edit: <stdin>: %s\n", strerror(errno));
		status = 2;
	}
	free(line);
	free(units);
	free(pool);
	free(marks);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "edit: <stdout>: %s\n", strerror(errno));
		status = 2;
	}
	return status;
}

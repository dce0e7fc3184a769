#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/utf8.h"
#include "text/fold.h"
#include "text/html.h"
#include "text/maintext.h"
#include "text/stoplist.h"
#include "text/unicode.h"

/* jusText's defaults, lengths in characters. */
#define LEN_LOW 70		/* under it a block is short */
#define LEN_HIGH 200		/* over it a dense block is good */
#define LEN_BOILER 600		/* over it prose in boilerplate is good */
#define LINK_MAX 20		/* link density over it, in hundredths: bad */
#define HEAD_DIST 200		/* a heading this close to good is kept */
/* Stop-word densities in hundredths, low and high: near-good from low,
 * good from high.  The built-in English list is shorter than jusText's
 * (whose thresholds are 30 and 32), and the Chinese function characters
 * are a smaller share of a text than English function words. */
#define EN_LOW 25
#define EN_HIGH 30
#define ZH_LOW 8
#define ZH_HIGH 11
/* Blocks of a page at most: the rest of a larger one is one block. */
#define MAXBLOCKS (1u << 20)
/* Containers of a page at most: those past it are not told apart from
 * the one they lie in. */
#define MAXELEMS (1u << 20)
#define NTAGS (sizeof(tags) / sizeof(tags[0]))

enum { BAD, SHORT, NEARGOOD, GOOD };

/* Block flags. */
enum {
	F_HEADING = 1,		/* in h1-h6 */
	F_PRE = 2,		/* in pre */
	F_MARKUP = 4,		/* in head or select, or a copyright sign */
	F_BOILER = 8,		/* in an element that says boilerplate */
	F_HARD = 16		/* in one that says more than "sidebar" */
};

struct block {
	size_t start, end;	/* its text, out[start..end) */
	size_t len, linklen;	/* characters, and those inside <a> */
	size_t words, stops;	/* words, and stop words among them */
	size_t grams, gstops;	/* ideographs (and kana, Hangul), and the
				 * function characters among them */
	uint32_t cont;		/* 1 + the innermost container it lies in,
				 * or 0 */
	unsigned char flags, cf, cls;
};

/* A container element (T_CONT) of the page: out[open..close) is its
 * text, close SIZE_MAX while it is open. */
struct elem {
	size_t open, close;
	uint32_t parent;	/* 1 + the element it lies in, or 0 */
	uint32_t depth;		/* containers it lies in */
	unsigned char tag;	/* its index in tags[] */
};

/* Tags that matter, sorted by name. */
enum {
	T_BLOCK = 1,		/* starts and ends a block */
	T_BOX = 2,		/* may say boilerplate by class, id or role */
	T_BOILER = 4,		/* says boilerplate itself */
	T_UNLINK = 16,		/* its end tag ends a link left open */
	T_CONT = 32		/* a container: may hold a whole article */
};

enum {
	K_OTHER, K_A, K_BR, K_H, K_HEAD, K_BODY, K_PRE, K_SELECT, K_HEADER,
	K_FOOTER, K_DIV, K_LIST, K_TABLE, K_SECTION, K_FORM, K_NAV,
	K_ASIDE, K_MENU, K_ARTICLE, K_MAIN, K_CELL, K_ROW
};

static const struct tag {
	const char *name;
	unsigned char kind, flags;
} tags[] = {
	{ "a", K_A, 0 },
	{ "address", K_OTHER, T_BLOCK },
	{ "article", K_ARTICLE, T_BLOCK | T_CONT },
	{ "aside", K_ASIDE, T_BLOCK | T_BOX | T_BOILER | T_CONT },
	{ "blockquote", K_OTHER, T_BLOCK | T_CONT },
	{ "body", K_BODY, T_BLOCK },
	{ "br", K_BR, 0 },
	{ "caption", K_OTHER, T_BLOCK },
	{ "center", K_OTHER, T_BLOCK | T_CONT },
	{ "details", K_OTHER, T_BLOCK | T_CONT },
	{ "dialog", K_OTHER, T_BLOCK | T_CONT },
	{ "div", K_DIV, T_BLOCK | T_BOX | T_CONT },
	{ "dl", K_LIST, T_BLOCK | T_BOX | T_UNLINK | T_CONT },
	{ "fieldset", K_OTHER, T_BLOCK | T_CONT },
	{ "figcaption", K_OTHER, T_BLOCK },
	{ "figure", K_OTHER, T_BLOCK | T_CONT },
	{ "footer", K_FOOTER, T_BLOCK | T_BOX | T_BOILER | T_CONT },
	{ "form", K_FORM, T_BLOCK | T_BOX | T_CONT },
	{ "frameset", K_OTHER, T_BLOCK },
	{ "h1", K_H, T_BLOCK | T_UNLINK },
	{ "h2", K_H, T_BLOCK | T_UNLINK },
	{ "h3", K_H, T_BLOCK | T_UNLINK },
	{ "h4", K_H, T_BLOCK | T_UNLINK },
	{ "h5", K_H, T_BLOCK | T_UNLINK },
	{ "h6", K_H, T_BLOCK | T_UNLINK },
	{ "head", K_HEAD, T_BLOCK },
	{ "header", K_HEADER, T_BLOCK | T_BOX | T_BOILER | T_CONT },
	{ "hr", K_OTHER, T_BLOCK },
	{ "html", K_OTHER, T_BLOCK },
	{ "iframe", K_OTHER, T_BLOCK },
	{ "legend", K_OTHER, T_BLOCK },
	{ "li", K_OTHER, T_UNLINK },
	{ "main", K_MAIN, T_BLOCK | T_CONT },
	{ "menu", K_MENU, T_BLOCK | T_BOX | T_BOILER | T_CONT },
	{ "nav", K_NAV, T_BLOCK | T_BOX | T_BOILER | T_CONT },
	{ "noscript", K_OTHER, T_BLOCK },
	{ "ol", K_LIST, T_BLOCK | T_BOX | T_UNLINK | T_CONT },
	{ "option", K_OTHER, T_BLOCK },
	{ "p", K_OTHER, T_BLOCK | T_UNLINK },
	{ "pre", K_PRE, T_BLOCK },
	{ "section", K_SECTION, T_BLOCK | T_BOX | T_CONT },
	{ "select", K_SELECT, T_BLOCK },
	{ "summary", K_OTHER, T_BLOCK },
	{ "table", K_TABLE, T_BLOCK | T_BOX | T_UNLINK | T_CONT },
	{ "tbody", K_OTHER, T_BLOCK },
	{ "td", K_CELL, T_BLOCK | T_UNLINK | T_CONT },
	{ "textarea", K_OTHER, T_BLOCK },
	{ "tfoot", K_OTHER, T_BLOCK },
	{ "th", K_CELL, T_BLOCK | T_UNLINK | T_CONT },
	{ "thead", K_OTHER, T_BLOCK },
	{ "title", K_OTHER, T_BLOCK },
	{ "tr", K_ROW, T_BLOCK | T_UNLINK },
	{ "ul", K_LIST, T_BLOCK | T_BOX | T_UNLINK | T_CONT },
};

/* Words of a class, id or role that say boilerplate, as a part of it
 * ("site-footer", "cookie_notice"), alone or with one of the prefixes
 * or suffixes below ("topnav", "navbar", "breadcrumbs", "mainmenu"). */
struct str {
	const char *s;
	size_t n;
};
#define S(s) { s, sizeof(s) - 1 }
static const struct str boilerwords[] = {
	S("nav"), S("navigation"), S("menu"), S("footer"), S("sidebar"),
	S("breadcrumb"), S("cookie"), S("consent"), S("masthead"),
	S("toolbar"), S("social"), S("share"), S("skip"), S("banner"),
	S("gdpr"), S("related"), S("widget"), S("advert"), S("sponsor"),
	S("promo"), S("contentinfo"), S("complementary"), S("copyright")
};
static const struct str boilerpre[] = {
	S(""), S("top"), S("main"), S("site"), S("page"), S("sub"),
	S("global"), S("side"), S("bottom")
};
static const struct str boilersuf[] = {
	S(""), S("s"), S("bar"), S("links"), S("box"), S("area"), S("wrap"),
	S("wrapper"), S("menu")
};
#undef S

#define EN_SLOTS 512		/* the English hash table, a power of 2 */
#define EN_WORD 16		/* longer words are no stop words */
#define TAG_SLOTS 256		/* the tag names' hash table, a power of 2 */
#define BOXES 16		/* boilerplate elements open at once */

/* Classes of bytes, for the scan of the text. */
enum { C_OTHER, C_ALNUM, C_SPACE, C_HIGH };

struct sh_maintext {
	struct block *b;	/* the page's blocks; b[nb - 1] is open */
	size_t nb, cap;
	struct elem *e;		/* the page's containers */
	size_t ne, ecap;
	uint32_t top;		/* 1 + the innermost one open, or 0 */
	uint32_t opened[NTAGS];	/* open containers by tag */
	/* The English stop words, by their bytes packed in two words
	 * (little-endian, zero after the end; a word has no zero byte),
	 * lo == 0 for an empty slot. */
	struct {
		uint64_t lo, hi;
	} en[EN_SLOTS];
	size_t enmax;		/* the longest stop word */
	/* The function characters among the Han of text/fold.h. */
	unsigned char zh[(SH_FOLD_HAN_LAST - SH_FOLD_HAN_FIRST + 1) / 8];
	unsigned char ctab[256];	/* the class of each byte */
	unsigned char tagtab[TAG_SLOTS];	/* 1 + index in tags[], or 0 */
	/* The scan. */
	char *out;
	size_t done;		/* out[0..done) counted */
	int nomem;
	int inlink, inhead, inselect, scope, space, br;
	size_t linkpend;	/* characters of the open link in the block */
	int linkword;		/* whether they hold a letter or digit */
	struct {
		unsigned char kind;
		unsigned char side;	/* it says only "sidebar" */
		size_t depth;	/* open elements of its kind, itself in */
	} box[BOXES];
	size_t nbox, nhard;	/* open, and those not side */
	/* The word being read, when a letter past ASCII may go on with it:
	 * its length (EN_WORD + 1 when it is no stop word) and bytes. */
	size_t wlen;
	uint64_t wlo, whi;
};

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c | 0x20 : c;
}

static int
alnum(int c)
{
	c = lower(c);
	return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* The n < EN_WORD bytes of p, lowercase (they are letters and digits:
 * setting bit 5 lowers a letter and keeps a digit), packed; p[0..room)
 * may be read. */
static void
pack(const unsigned char *p, size_t n, size_t room, uint64_t *lo,
    uint64_t *hi)
{
	static const union {
		uint16_t u;
		unsigned char c[2];
	} one = { 1 };
	uint64_t a = 0, b = 0;
	size_t i;

	if (room >= 16 && one.c[0] == 1) {
		/* Little-endian: two loads, the bytes past n masked. */
		memcpy(&a, p, 8);
		memcpy(&b, p + 8, 8);
		a |= 0x2020202020202020u;
		b |= 0x2020202020202020u;
		*lo = n >= 8 ? a : a & (((uint64_t)1 << 8 * n) - 1);
		*hi = n <= 8 ? 0 : b & (((uint64_t)1 << 8 * (n - 8)) - 1);
		return;
	}
	for (i = 0; i < n && i < 8; i++)
		a |= (uint64_t)(p[i] | 0x20) << 8 * i;
	for (; i < n; i++)
		b |= (uint64_t)(p[i] | 0x20) << 8 * (i - 8);
	*lo = a;
	*hi = b;
}

static size_t
en_slot(uint64_t lo, uint64_t hi)
{
	return (size_t)(((lo ^ hi * 0xC2B2AE3D27D4EB4Fu) *
	    0x9E3779B97F4A7C15u) >> 55) & (EN_SLOTS - 1);
}

/* The slot of a tag name's hash h (h = h * 31 + byte, from 0). */
#define TAG_SLOT(h) ((h) * 2654435761u >> 24 & (TAG_SLOTS - 1))

struct sh_maintext *
sh_maintext_new(void)
{
	struct sh_maintext *m;
	const char *p = sh_stoplist_en, *e = p + sh_stoplist_enlen, *w;
	size_t n, i, k, used;
	uint64_t lo, hi;
	uint32_t cp, h;
	int bad, c;

	if ((m = calloc(1, sizeof(*m))) == NULL)
		return NULL;
	while (p < e) {
		for (w = p; p < e && *p != ' '; p++)
			;
		if ((n = (size_t)(p - w)) > 0 && n < EN_WORD) {
			pack((const unsigned char *)w, n, n, &lo, &hi);
			for (i = en_slot(lo, hi); m->en[i].lo != 0;
			    i = (i + 1) & (EN_SLOTS - 1))
				;
			m->en[i].lo = lo;
			m->en[i].hi = hi;
			if (n > m->enmax)
				m->enmax = n;
		}
		p += p < e;
	}
	/* The one-character entries of the Chinese list. */
	for (p = sh_stoplist_zh, e = p + sh_stoplist_zhlen; p < e; p += k) {
		for (k = 0, w = p; p + k < e && p[k] != ' '; k++)
			;
		used = sh_utf8_decode((const unsigned char *)w, k, &cp, &bad);
		if (k > 0 && used == k && cp >= SH_FOLD_HAN_FIRST &&
		    cp <= SH_FOLD_HAN_LAST)
			m->zh[(cp - SH_FOLD_HAN_FIRST) / 8] |=
			    1u << (cp - SH_FOLD_HAN_FIRST) % 8;
		k += p + k < e;
	}
	for (c = 0; c < 256; c++)
		m->ctab[c] = c >= 0x80 ? C_HIGH : alnum(c) ? C_ALNUM :
		    c == ' ' || (c >= '\t' && c <= '\r') ? C_SPACE : C_OTHER;
	for (k = 0; k < NTAGS; k++) {
		for (h = 0, w = tags[k].name; *w != '\0'; w++)
			h = h * 31 + (unsigned char)*w;
		for (i = TAG_SLOT(h); m->tagtab[i] != 0;
		    i = (i + 1) & (TAG_SLOTS - 1))
			;
		m->tagtab[i] = (unsigned char)(k + 1);
	}
	return m;
}

void
sh_maintext_free(struct sh_maintext *m)
{
	if (m == NULL)
		return;
	free(m->b);
	free(m->e);
	free(m);
}

/* Whether the word of n bytes packed in lo, hi is a stop word. */
static int
en_stop(const struct sh_maintext *m, size_t n, uint64_t lo, uint64_t hi)
{
	size_t i;

	if (n > m->enmax)
		return 0;
	for (i = en_slot(lo, hi); m->en[i].lo != 0;
	    i = (i + 1) & (EN_SLOTS - 1))
		if (m->en[i].lo == lo && m->en[i].hi == hi)
			return 1;
	return 0;
}

/* The word being read ends. */
static void
end_word(struct sh_maintext *m, struct block *b)
{
	if (m->wlen == 0)
		return;
	b->words++;
	b->stops += (size_t)en_stop(m, m->wlen, m->wlo, m->whi);
	m->wlen = 0;
}

/*
 * Count out[done..to) into the open block.  A word is a run of ASCII
 * letters and digits and of letters past ASCII.  It is counted where it
 * ends; but a byte past ASCII after it may be a letter that goes on with
 * it, so until that is known it stays open in wlen (and in m->wlen when
 * a take ends after a letter past ASCII; a tag's space or the end of the
 * block ends it).  The block's counts stay in locals during the scan.
 */
static void
take(struct sh_maintext *m, size_t to)
{
	struct block *b = &m->b[m->nb - 1];
	const unsigned char *p = (const unsigned char *)m->out;
	const unsigned char *ct = m->ctab;
	size_t i = m->done, len0 = b->len, n, w;
	size_t len = b->len, words = b->words, stops = b->stops;
	size_t grams = b->grams, gstops = b->gstops, wlen = m->wlen;
	uint64_t lo = m->wlo, hi = m->whi;
	uint32_t cp;
	int bad, c, uc, space = m->space, word = 0, copy = 0;

	while (i < to) {
		c = ct[p[i]];
		if (c == C_ALNUM) {
			/* A run of ASCII letters and digits at once. */
			for (w = i++; i < to && ct[p[i]] == C_ALNUM; i++)
				;
			n = i - w;
			len += n + (space && len > 0);
			space = 0;
			word = 1;
			if (wlen == 0 && n <= m->enmax) {
				wlen = n;
				pack(p + w, n, to - w, &lo, &hi);
			} else
				wlen = EN_WORD + 1;
			if (i < to && p[i] >= 0x80)
				continue;
			words++;
			if (wlen <= m->enmax)
				stops += (size_t)en_stop(m, wlen, lo, hi);
			wlen = 0;
			continue;
		}
		if (wlen != 0 && c != C_HIGH) {
			words++;
			if (wlen <= m->enmax)
				stops += (size_t)en_stop(m, wlen, lo, hi);
			wlen = 0;
		}
		if (c == C_SPACE) {
			space = 1;
			i++;
			continue;
		}
		if (c == C_OTHER) {
			len += 1 + (space && len > 0);
			space = 0;
			i++;
			continue;
		}
		/* Han U+4E00..U+9FFF, three bytes, without the decoder. */
		if (p[i] >= 0xE4 && p[i] <= 0xE9 && to - i >= 3 &&
		    (p[i + 1] & 0xC0) == 0x80 && (p[i + 2] & 0xC0) == 0x80 &&
		    (cp = (uint32_t)(p[i] & 0x0F) << 12 |
		    (uint32_t)(p[i + 1] & 0x3F) << 6 | (p[i + 2] & 0x3F)) >=
		    SH_FOLD_HAN_FIRST) {
			i += 3;
			uc = SH_UC_GRAM;
		} else {
			i += sh_utf8_decode(p + i, to - i, &cp, &bad);
			uc = sh_uc_class(cp);
			if (cp == 0xA0 || cp == 0x3000 || (cp >= 0x2000 &&
			    cp <= 0x200A))
				uc = -1;	/* a space */
			else if (cp == 0xA9)
				copy = 1;
		}
		if (uc == SH_UC_WORD) {
			/* A letter past ASCII: a word, never a stop word. */
			wlen = EN_WORD + 1;
			len += 1 + (space && len > 0);
			space = 0;
			word = 1;
			continue;
		}
		if (wlen != 0) {
			words++;
			if (wlen <= m->enmax)
				stops += (size_t)en_stop(m, wlen, lo, hi);
			wlen = 0;
		}
		if (uc == -1) {
			space = 1;
			continue;
		}
		if (uc == SH_UC_GRAM) {
			grams++;
			if (cp >= SH_FOLD_HAN_FIRST && cp <= SH_FOLD_HAN_LAST &&
			    m->zh[(cp - SH_FOLD_HAN_FIRST) / 8] >>
			    (cp - SH_FOLD_HAN_FIRST) % 8 & 1)
				gstops++;
			len += 3 + (space && len > 0);
		} else
			len += 1 + (space && len > 0);
		space = 0;
		word |= uc == SH_UC_GRAM;
	}
	b->len = len;
	b->words = words;
	b->stops = stops;
	b->grams = grams;
	b->gstops = gstops;
	m->wlen = wlen;
	m->wlo = lo;
	m->whi = hi;
	m->space = space;
	if (copy)
		b->flags |= F_MARKUP;
	if (m->inlink)
		m->linkword |= word;
	if (b->len > len0) {
		m->br = 0;
		if (m->inlink)
			m->linkpend += b->len - len0;
		if (m->inhead || m->inselect)
			b->flags |= F_MARKUP;
		if (m->nbox > 0)
			b->flags |= F_BOILER;
		if (m->nhard > 0)
			b->flags |= F_HARD;
	}
	m->done = to;
}

/*
 * The characters of the open link so far count as link text, unless the
 * link holds no letter or digit: a permalink's pilcrow or a "#", an
 * arrow, an icon's bullet lead nowhere a reader reads (a Sphinx or
 * DocBook page has one by each heading and definition), and would make
 * short blocks bad.
 */
static void
end_link(struct sh_maintext *m, struct block *b)
{
	if (m->linkword)
		b->linklen += m->linkpend;
	m->linkpend = 0;
	m->linkword = 0;
}

/* End the open block at out[at] and open the next. */
static void
cut(struct sh_maintext *m, size_t at)
{
	struct block *b = &m->b[m->nb - 1];

	end_word(m, b);
	end_link(m, b);
	m->space = 0;
	m->br = 0;
	if (b->len > 0) {
		if (m->nb == MAXBLOCKS)
			return;
		b->end = at;
		if (sh_grow(&m->b, &m->cap, m->nb + 1, sizeof(*m->b)) != 0) {
			m->nomem = 1;
			return;
		}
		b = &m->b[m->nb++];
		memset(b, 0, sizeof(*b));
		b->start = at;
	} else {
		/* White space only: it goes with the next block. */
		at = b->start;
		memset(b, 0, sizeof(*b));
		b->start = at;
	}
	b->cont = m->top;
}

/* Close the innermost container open. */
static void
close_top(struct sh_maintext *m, size_t at)
{
	struct elem *e = &m->e[m->top - 1];

	e->close = at;
	m->opened[e->tag]--;
	m->top = e->parent;
}

/*
 * The containers open, at the tag tg at out[at] (an end tag when end):
 * an end tag closes the innermost one of its name and those within it
 * (when none of its name is open, nothing); a cell or a row closes the
 * cell open just before it, as HTML does.  Each container is closed at
 * most once, so the whole page costs a step a tag.
 */
static void
contain(struct sh_maintext *m, const struct tag *tg, int end, const char *t,
    size_t n, size_t at)
{
	unsigned char ti = (unsigned char)(tg - tags);
	struct elem *e;

	if (end) {
		if (m->opened[ti] == 0)
			return;
		while (m->e[m->top - 1].tag != ti)
			close_top(m, at);
		close_top(m, at);
		return;
	}
	if (n >= 2 && t[n - 1] == '>' && t[n - 2] == '/')
		return;
	if ((tg->kind == K_CELL || tg->kind == K_ROW) && m->top > 0 &&
	    tags[m->e[m->top - 1].tag].kind == K_CELL)
		close_top(m, at);
	if (!(tg->flags & T_CONT) || m->ne == MAXELEMS)
		return;
	if (sh_grow(&m->e, &m->ecap, m->ne + 1, sizeof(*m->e)) != 0) {
		m->nomem = 1;
		return;
	}
	e = &m->e[m->ne++];
	e->open = at;
	e->close = SIZE_MAX;
	e->parent = m->top;
	e->depth = m->top > 0 ? m->e[m->top - 1].depth + 1 : 0;
	e->tag = ti;
	m->opened[ti]++;
	m->top = (uint32_t)m->ne;
}

/* The tag named name[0..n), lowercase, whose hash is h (TAG_SLOT), or
 * NULL. */
static const struct tag *
lookup(const struct sh_maintext *m, const char *name, size_t n, uint32_t h)
{
	const struct tag *tg;
	size_t i;

	for (i = TAG_SLOT(h); m->tagtab[i] != 0;
	    i = (i + 1) & (TAG_SLOTS - 1)) {
		tg = &tags[m->tagtab[i] - 1];
		if (strncmp(tg->name, name, n) == 0 && tg->name[n] == '\0')
			return tg;
	}
	return NULL;
}

/* Whether p[0..n) starts with w, in any case. */
static int
named(const char *p, size_t n, const char *w)
{
	size_t i;

	for (i = 0; w[i] != '\0'; i++)
		if (i == n || lower(p[i]) != w[i])
			return 0;
	return 1;
}

/* Whether one of the n strings of list is p[0..len). */
static int
among(const struct str *list, size_t n, const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (list[i].n == len && memcmp(list[i].s, p, len) == 0)
			return 1;
	return 0;
}

#define NITEMS(a) (sizeof(a) / sizeof((a)[0]))

/* Whether the part p[0..n) of an attribute's value (letters and digits)
 * says boilerplate, a prefix, a word and a suffix of the lists: 1, or 2
 * when the word is "sidebar"; else 0. */
static int
boilerpart(const char *p, size_t n)
{
	char part[24];
	size_t i, a, z, lp, ls;

	if (n < 3 || n >= sizeof(part))
		return 0;
	for (i = 0; i < n; i++)
		part[i] = (char)(p[i] | 0x20);
	for (a = 0; a < NITEMS(boilerpre); a++) {
		lp = boilerpre[a].n;
		if (lp + 3 > n || memcmp(part, boilerpre[a].s, lp) != 0)
			continue;
		for (z = 0; z < NITEMS(boilersuf); z++) {
			ls = boilersuf[z].n;
			if (lp + ls + 3 > n ||
			    memcmp(part + n - ls, boilersuf[z].s, ls) != 0)
				continue;
			if (n - lp - ls == 7 && memcmp(part + lp, "sidebar",
			    7) == 0)
				return 2;
			if (among(boilerwords, NITEMS(boilerwords), part + lp,
			    n - lp - ls))
				return 1;
		}
	}
	return 0;
}

/* Whether the class, id or role of the start tag t[0..n) says
 * boilerplate: 1, or 2 when they say only "sidebar"; else 0. */
static int
boilerattr(const char *t, size_t n)
{
	size_t i = 0, k, end;
	int says = 0, c;
	char q;

	while (i < n) {
		/* An attribute name after a space. */
		if (!(t[i] == ' ' || t[i] == '\t' || t[i] == '\n' ||
		    t[i] == '\r' || t[i] == '\f')) {
			i++;
			continue;
		}
		i++;
		if (!named(t + i, n - i, "class=") &&
		    !named(t + i, n - i, "id=") &&
		    !named(t + i, n - i, "role="))
			continue;
		while (t[i] != '=')
			i++;
		/* The tag may end there, at the end of the input. */
		if (++i == n)
			break;
		q = t[i] == '"' || t[i] == '\'' ? t[i++] : 0;
		for (end = i; end < n && (q ? t[end] != q : t[end] != ' ' &&
		    t[end] != '>'); end++)
			;
		/* Its parts, split at every other character than letters
		 * and digits. */
		while (i < end) {
			for (k = i; k < end && alnum(t[k]); k++)
				;
			if (k > i && (c = boilerpart(t + i, k - i)) == 1)
				return 1;
			if (k > i && c == 2)
				says = 2;
			i = k + 1;
		}
	}
	return says;
}

/* The boilerplate elements open, at tag tg (an end tag when end). */
static void
boxes(struct sh_maintext *m, const struct tag *tg, int end, const char *t,
    size_t n)
{
	size_t i;
	int says;

	if (end) {
		for (i = 0; i < m->nbox; i++)
			if (m->box[i].kind == tg->kind &&
			    --m->box[i].depth == 0) {
				/* Those within it end with it. */
				m->nbox = i;
				break;
			}
		for (i = m->nhard = 0; i < m->nbox; i++)
			m->nhard += !m->box[i].side;
		return;
	}
	/* <div/> opens nothing. */
	if (n >= 2 && t[n - 1] == '>' && t[n - 2] == '/')
		return;
	for (i = 0; i < m->nbox; i++)
		if (m->box[i].kind == tg->kind)
			m->box[i].depth++;
	says = (tg->flags & T_BOILER) && !(m->scope > 0 &&
	    (tg->kind == K_HEADER || tg->kind == K_FOOTER));
	if (m->nbox < BOXES && (says || (says = boilerattr(t, n)) != 0)) {
		m->box[m->nbox].kind = tg->kind;
		m->box[m->nbox].depth = 1;
		m->box[m->nbox].side = says == 2;
		m->nhard += says != 2;
		m->nbox++;
	}
}

/* A tag met in the scan (html.h). */
static void
on_tag(void *ctx, const char *t, size_t n, size_t at)
{
	struct sh_maintext *m = ctx;
	const struct tag *tg;
	char name[12];
	size_t i = 1, k = 0;
	uint32_t h = 0;
	int end = 0, c;

	if (m->nomem)
		return;
	take(m, at);
	if (i < n && t[i] == '/') {
		end = 1;
		i++;
	}
	while (i < n && m->ctab[(unsigned char)t[i]] == C_ALNUM &&
	    k < sizeof(name)) {
		c = t[i++] | 0x20;
		name[k++] = (char)c;
		h = h * 31 + (uint32_t)c;
	}
	if (k == 0 || (i < n && m->ctab[(unsigned char)t[i]] == C_ALNUM) ||
	    (tg = lookup(m, name, k, h)) == NULL)
		return;
	switch (tg->kind) {
	case K_A:
		/* <a id="x"/> of XHTML opens nothing. */
		if (end || t[n - 1] != '>' || t[n - 2] != '/') {
			end_link(m, &m->b[m->nb - 1]);
			m->inlink = !end;
		}
		return;
	case K_BR:
		/* Two in a row end a block. */
		if (m->br)
			cut(m, at);
		m->br = 1;
		return;
	case K_HEAD:
		m->inhead = !end;
		break;
	case K_BODY:
		m->inhead = 0;
		break;
	case K_SELECT:
		m->inselect = !end;
		break;
	case K_ARTICLE:
	case K_MAIN:
		if (!end)
			m->scope++;
		else if (m->scope > 0)
			m->scope--;
		break;
	}
	if (end && tg->flags & T_UNLINK && m->inlink) {
		end_link(m, &m->b[m->nb - 1]);
		m->inlink = 0;
	}
	if (tg->flags & T_BOX)
		boxes(m, tg, end, t, n);
	if (tg->flags & T_CONT || tg->kind == K_ROW)
		contain(m, tg, end, t, n, at);
	if (!(tg->flags & T_BLOCK) || m->nomem)
		return;
	cut(m, at);
	if (!end && !m->nomem && tg->kind == K_H)
		m->b[m->nb - 1].flags |= F_HEADING;
	if (!end && !m->nomem && tg->kind == K_PRE)
		m->b[m->nb - 1].flags |= F_PRE;
}

/* The class of b by itself, jusText's context-free one. */
static int
classify(const struct block *b)
{
	int zh = b->grams > b->words;
	size_t units = zh ? b->grams : b->words;
	size_t stops = zh ? b->gstops : b->stops;
	/* Densities in hundredths, compared in integers. */
	size_t lo = zh ? ZH_LOW : EN_LOW, hi = zh ? ZH_HIGH : EN_HIGH;
	int dense = stops * 100 >= units * hi && units > 0;
	int fair = stops * 100 >= units * lo && units > 0;

	if (b->flags & F_MARKUP || b->linklen * 100 > b->len * LINK_MAX)
		return BAD;
	if (b->flags & F_BOILER)
		return b->len > LEN_BOILER && dense ? GOOD : BAD;
	if (b->flags & F_PRE && b->len >= LEN_LOW)
		return NEARGOOD;
	if (b->len < LEN_LOW)
		return b->linklen > 0 ? BAD : SHORT;
	if (dense)
		return b->len > LEN_HIGH ? GOOD : NEARGOOD;
	return fair ? NEARGOOD : BAD;
}

/* Whether a good block follows b[i] within HEAD_DIST characters. */
static int
good_after(const struct block *b, size_t nb, size_t i)
{
	size_t j, dist = 0;

	for (j = i + 1; j < nb && dist <= HEAD_DIST; j++) {
		if (b[j].cls == GOOD)
			return 1;
		dist += b[j].len;
	}
	return 0;
}

/* 1 + the smallest container that holds both a and b (each 1 + a
 * container, or 0), or 0. */
static uint32_t
common(const struct elem *e, uint32_t a, uint32_t b)
{
	while (a != b && a != 0 && b != 0) {
		if (e[a - 1].depth >= e[b - 1].depth)
			a = e[a - 1].parent;
		else
			b = e[b - 1].parent;
	}
	return a == b ? a : 0;
}

/* Whether the block b lies in the container c, 1 + its index. */
static int
within(const struct elem *e, const struct block *b, uint32_t c)
{
	return b->cont != 0 && e[b->cont - 1].open >= e[c - 1].open &&
	    e[b->cont - 1].open < e[c - 1].close;
}

/* The classes of the blocks in their context, as jusText revises them. */
static void
revise(struct block *b, size_t nb, const struct elem *e)
{
	size_t i, last;
	int p1, p2, n1, n2, c;
	uint32_t art;

	for (i = 0; i < nb; i++)
		b[i].cls = b[i].cf = (unsigned char)classify(&b[i]);
	/* A short heading before good text is near-good. */
	for (i = 0; i < nb; i++)
		if (b[i].flags & F_HEADING && b[i].cls == SHORT &&
		    good_after(b, nb, i))
			b[i].cls = NEARGOOD;
	/* Short blocks take the class of their neighbours: the nearest
	 * that is neither short nor near-good on each side (p1, n1; the
	 * page's ends count as bad), or near-good next to good.  The
	 * nearest that is not short (p2, n2) is kept in cf's high bits
	 * during the sweep. */
	p1 = p2 = BAD;
	for (i = 0; i < nb; i++) {
		b[i].cf |= (unsigned char)(p1 << 2 | p2 << 4);
		if (b[i].cls != SHORT) {
			p2 = b[i].cls;
			if (b[i].cls != NEARGOOD)
				p1 = b[i].cls;
		}
	}
	n1 = n2 = BAD;
	for (i = nb; i-- > 0;) {
		c = b[i].cls;
		if (c == SHORT) {
			p1 = b[i].cf >> 2 & 3;
			p2 = b[i].cf >> 4 & 3;
			if (p1 == GOOD && n1 == GOOD)
				b[i].cls = GOOD;
			else if (p1 == BAD && n1 == BAD)
				b[i].cls = BAD;
			else if ((p1 == BAD && p2 == NEARGOOD) ||
			    (n1 == BAD && n2 == NEARGOOD))
				b[i].cls = GOOD;
			else
				b[i].cls = BAD;
		} else {
			n2 = c;
			if (c != NEARGOOD)
				n1 = c;
		}
		b[i].cf &= 3;
	}
	/* Near-good blocks: bad between two bad ones, else good; the one
	 * before already revised, as jusText does in order. */
	n1 = BAD;
	for (i = nb; i-- > 0;) {
		b[i].cf |= (unsigned char)(n1 << 2);
		if (b[i].cls != NEARGOOD)
			n1 = b[i].cls;
	}
	p1 = BAD;
	for (i = 0; i < nb; i++) {
		n1 = b[i].cf >> 2 & 3;
		b[i].cf &= 3;
		if (b[i].cls == NEARGOOD)
			b[i].cls = p1 == BAD && n1 == BAD ? BAD : GOOD;
		p1 = b[i].cls;
	}
	/* Headings not bad by themselves, before good text. */
	for (i = 0; i < nb; i++)
		if (b[i].flags & F_HEADING && b[i].cls == BAD &&
		    b[i].cf != BAD && good_after(b, nb, i))
			b[i].cls = GOOD;
	/* Between two good blocks, what is bad for its links or its
	 * words belongs to the text (an article's tables and lists of
	 * links), and so does boilerplate without links; and a box that
	 * says only "sidebar", whatever its links: a site's sidebar lies
	 * beside the article, not within its text, so this one is the
	 * article's own (DocBook's, with its references). */
	for (i = 0; i < nb && b[i].cls != GOOD; i++)
		;
	for (last = nb; last > i && b[last - 1].cls != GOOD; last--)
		;
	/* So does the rest of the smallest container that holds them
	 * all, the article's element (a div, section, article, main, td
	 * and the like; the body is none): its title, its table of
	 * contents, its lists of definitions before the first good block
	 * and after the last, which jusText, knowing no markup, drops. */
	if (i < last && (art = common(e, b[i].cont, b[last - 1].cont)) != 0) {
		while (i > 0 && within(e, &b[i - 1], art))
			i--;
		while (last < nb && within(e, &b[last], art))
			last++;
	}
	for (; i < last; i++)
		if (!(b[i].flags & F_MARKUP) && (!(b[i].flags & F_HARD) ||
		    b[i].linklen * 100 <= b[i].len * LINK_MAX))
			b[i].cls = GOOD;
}

int
sh_maintext(struct sh_maintext *m, const char *in, size_t len, char *out,
    size_t *outlen)
{
	struct block *b;
	size_t i, o, nb, kept, text;

	m->nb = 0;
	m->nomem = 0;
	if (sh_grow(&m->b, &m->cap, 1, sizeof(*m->b)) != 0)
		m->nomem = 1;
	else {
		memset(&m->b[0], 0, sizeof(m->b[0]));
		m->nb = 1;
	}
	m->out = out;
	m->done = 0;
	m->inlink = m->inhead = m->inselect = m->scope = m->space = 0;
	m->br = 0;
	m->nbox = m->nhard = 0;
	m->wlen = 0;
	m->linkpend = 0;
	m->linkword = 0;
	m->ne = 0;
	m->top = 0;
	memset(m->opened, 0, sizeof(m->opened));
	*outlen = sh_html_scan(in, len, out, on_tag, m);
	if (m->nomem)
		return SH_ENOMEM;
	take(m, *outlen);
	b = m->b;
	end_word(m, &b[m->nb - 1]);
	end_link(m, &b[m->nb - 1]);
	b[m->nb - 1].end = *outlen;
	nb = m->nb - (b[m->nb - 1].len == 0);
	revise(b, nb, m->e);
	for (i = kept = text = 0; i < nb; i++) {
		kept += b[i].cls == GOOD ? b[i].len : 0;
		text += b[i].flags & (F_MARKUP | F_BOILER) ? 0 : b[i].len;
	}
	/* Little good text, as on a page of short paragraphs: what is not
	 * bad by itself, if that is half the text; or else, as on a page that is a list of links (a
	 * table of contents), what is not boilerplate by its markup; or
	 * else everything. */
	if (kept * 4 < text) {
		for (i = kept = 0; i < nb; i++)
			if (b[i].cf != BAD)
				kept += b[i].len;
		for (i = 0; i < nb; i++)
			b[i].cls = b[i].flags & (F_MARKUP | F_BOILER) ||
			    (kept * 2 >= text && b[i].cf == BAD) ? BAD : GOOD;
	} else if (kept == 0)
		return 0;
	for (i = o = 0; i < nb; i++)
		if (b[i].cls == GOOD) {
			memmove(out + o, out + b[i].start,
			    b[i].end - b[i].start);
			o += b[i].end - b[i].start;
		}
	*outlen = o;
	return 0;
}

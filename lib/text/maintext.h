/*
 * The main content of an HTML page: its text as sh_html_text writes it
 * (html.h), with the navigation, headers, footers, link lists and
 * notices left out, so that one article under two site templates gives
 * the same text.
 *
 * The page is cut into blocks at block-level tags (p, div, li's list,
 * td, h1-h6, pre, section, article, nav, header, footer, aside, table,
 * tr, form, title, two <br> in a row, ...), and each block is classed as
 * jusText does (Pomikalek, 2011):
 *   - bad when more than a fifth of its characters lie inside <a> (a
 *     link without a letter or digit, as a permalink's pilcrow, is no
 *     link), when it holds a copyright sign, lies in <head> or
 *     <select>, or lies in an element that says it is boilerplate (nav,
 *     aside, menu, a header or footer outside article and main, or a
 *     class, id or role naming nav, menu, footer, sidebar, breadcrumb,
 *     cookie, consent, banner and the like, alone or with one of a few
 *     prefixes and suffixes: "topnav", "site-footer") unless it is very
 *     long prose;
 *   - else short under 70 characters, and by its stop-word density (the
 *     built-in lists of text/stoplist.h: English words, or the Chinese
 *     function characters among the ideographs when they outnumber the
 *     words) good when dense and over 200 characters, near-good when
 *     dense or fairly dense, bad otherwise; a <pre> block over 70
 *     characters is near-good whatever its words;
 * then by its neighbours: a short block between good ones is good,
 * between bad ones bad, and near-good next to good on one side; a
 * near-good block between two bad ones is bad, else good; a heading
 * followed within 200 characters by a good block is kept.  Lengths count
 * characters, spaces collapsed, an ideograph as three (Chinese has no
 * spaces and says more a character).  Then what lies between the first
 * good block and the last is kept too (an article's tables and lists of
 * links), and so is the rest of the smallest container element (div,
 * section, article, main, td, list, table and the like; not the body)
 * that holds them all: the article's title, table of contents and
 * definitions before and after its prose; of it all, boilerplate with
 * links is dropped, but for a box that says only "sidebar" (a site's
 * sidebar lies beside the article, not within it).  When that keeps
 * less than a quarter of the text outside boilerplate elements, the
 * blocks that are not bad by themselves are kept if they are half of
 * it, else all but the boilerplate elements, and when there are none,
 * the whole text: a page never loses all its text.
 *
 * The text kept is the concatenation of the kept blocks' text, each
 * exactly as sh_html_text writes it (a block starts with the white space
 * before the tag that opened it, and that tag's space).  Deterministic;
 * linear in the input (an end tag closes the elements left open within
 * its element, a cell the cell before it, each once).
 */
#ifndef SH_MAINTEXT_H
#define SH_MAINTEXT_H

#include <stddef.h>

struct sh_maintext;

/* A workspace (the blocks of a page and the stop-word tables), reused
 * from page to page; NULL when out of memory.  One per thread. */
struct sh_maintext *sh_maintext_new(void);

/*
 * Write the main content of the HTML in[0..len) as text to out, which
 * has room for len bytes (the text is never longer; out may equal in),
 * and its length to *outlen.  Any bytes are taken (invalid UTF-8 counts
 * as characters of no word).  Return 0, or SH_ENOMEM (the block list
 * could not grow; out then holds the plain reduction, sh_html_text's,
 * and *outlen its length).
 */
int sh_maintext(struct sh_maintext *m, const char *in, size_t len, char *out,
    size_t *outlen);

/* Free m; NULL is ignored. */
void sh_maintext_free(struct sh_maintext *m);

#endif

/*
 * HTML to text, for crawled pages: drop comments and the contents of
 * script and style elements, turn every tag into a space, and decode
 * character references (decimal, hex and the common named ones; others
 * stay as they are).  Not a full HTML5 parser: enough to fingerprint the
 * text a reader sees.
 */
#ifndef SH_HTML_H
#define SH_HTML_H

#include <stddef.h>

/* Write the text of in[0..len) to out, which has room for len bytes (the
 * text is never longer); return its length.  out may equal in. */
size_t sh_html_text(const char *in, size_t len, char *out);

/*
 * A tag that sh_html_scan turns into a space: tag[0..len) runs from its
 * '<' to its '>' included (or to the end of the input), and at is the
 * offset in out of the space written for it.  Comments, doctypes,
 * processing instructions, and script and style elements (which are
 * dropped whole) are not reported.
 */
typedef void sh_html_tagfn(void *ctx, const char *tag, size_t len,
    size_t at);

/*
 * sh_html_text, calling fn(ctx, ...) on each element tag, start or end,
 * before its space is written (so with out == in the tag's bytes are
 * still in place); the text of out[0..at) is written by then.  fn may be
 * NULL.  Return the length of the text, the same as sh_html_text's.
 */
size_t sh_html_scan(const char *in, size_t len, char *out, sh_html_tagfn *fn,
    void *ctx);

/*
 * Whether in[0..len) starts as HTML, by the first bytes as the WHATWG
 * MIME Sniffing standard reads them: after white space (and a UTF-8 byte
 * order mark), "<!DOCTYPE HTML", "<HTML", "<HEAD", "<SCRIPT", "<IFRAME",
 * "<H1", "<DIV", "<FONT", "<TABLE", "<A", "<STYLE", "<TITLE", "<B",
 * "<BODY", "<BR", "<P" or "<!--", in any case, then a space or '>'
 * ("<!--" then anything).
 */
int sh_html_sniff(const char *in, size_t len);

/* Whether a file name says HTML: it ends in .html, .htm, .xhtml or
 * .shtml, in any case. */
int sh_html_name(const char *name);

#endif

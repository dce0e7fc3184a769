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

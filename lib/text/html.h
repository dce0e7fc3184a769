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

#endif

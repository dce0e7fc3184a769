/*
 * Text in other charsets, made UTF-8 with iconv(3) of the C library:
 * a GBK or Big5 page of a Chinese crawl, say.  The charset comes from the
 * caller (an option, or the HTTP Content-Type of a WARC response), or is
 * found in an HTML page's own <meta charset> declaration.
 *
 * The conversion is that of the C library's converters (glibc's gconv
 * modules), the same for the same library; a byte sequence the charset
 * does not allow, and the rest of the text after it, is kept as it is,
 * which the tokenizer then reads as UTF-8 (an invalid byte becomes
 * U+FFFD), as it reads text of no known charset.
 */
#ifndef SH_CHARSET_H
#define SH_CHARSET_H

#include <stddef.h>

struct sh_charset;

/* A new converter, or NULL when out of memory. */
struct sh_charset *sh_charset_new(void);
void sh_charset_free(struct sh_charset *c);

/* Whether the C library converts from charset name to UTF-8. */
int sh_charset_known(const char *name);

/*
 * Whether name (name[0..len), not NUL-terminated) is UTF-8 or a subset of
 * it (ASCII): text needing no conversion.  Case is ignored.
 */
int sh_charset_utf8(const char *name, size_t len);

/*
 * Convert p[0..len) from charset name[0..namelen) to UTF-8 into *out
 * (c's buffer, valid until the next call), its length in *outlen.  Return
 * 0; SH_EINVAL when the C library has no such charset (nothing is
 * converted); SH_EUTF8 when a byte sequence is invalid in that charset
 * (*out then holds the text converted up to it and the rest as it was);
 * or SH_ENOMEM.  The converter of the last charset is kept open for the
 * next call.
 */
int sh_charset_conv(struct sh_charset *c, const char *name, size_t namelen,
    const char *p, size_t len, const char **out, size_t *outlen);

/* The bytes of input the last sh_charset_conv converted: all of them but
 * after SH_EUTF8, those before the invalid sequence. */
size_t sh_charset_done(const struct sh_charset *c);

/*
 * The charset an HTML page p[0..len) declares in a <meta charset=...> or
 * <meta http-equiv=Content-Type content="...; charset=..."> within its
 * first 1024 bytes: its name into *name, *namelen (pointing into p).
 * Return 1, or 0 when there is none.
 */
int sh_charset_meta(const char *p, size_t len, const char **name,
    size_t *namelen);

#endif

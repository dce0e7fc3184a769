/*
 * Just enough JSON (RFC 8259) for JSON Lines records: check that a line
 * is one well-formed value and find the values of a few dotted field
 * paths in it ("id", "meta.url"), then decode strings.  A path segment
 * names an object member; when a member appears twice, the first wins.
 * Nesting is limited to SH_JSON_DEPTH levels.
 */
#ifndef SH_JSON_H
#define SH_JSON_H

#include <stddef.h>

#define SH_JSON_DEPTH 256
#define SH_JSON_PATHS 4

enum { SH_JSON_NONE, SH_JSON_STRING, SH_JSON_NUMBER, SH_JSON_OTHER };

/* A value found: its type and its text, p[0..len) (for a string, with
 * the quotes). */
struct sh_jval {
	int type;
	const char *p;
	size_t len;
};

/*
 * Check that p[0..len) is one JSON value, surrounded by white space only,
 * and set out[i] to the value at paths[i] (type SH_JSON_NONE when
 * absent), for npaths <= SH_JSON_PATHS paths.  Return 0 or SH_EJSON.
 */
int sh_json_find(const char *p, size_t len, const char *const *paths,
    int npaths, struct sh_jval *out);

/*
 * Decode the string value v (escapes, \u surrogate pairs; a lone
 * surrogate becomes U+FFFD) into *buf, growing it (*cap bytes); set *n
 * to the decoded length.  Return 0 or SH_ENOMEM.
 */
int sh_json_string(const struct sh_jval *v, char **buf, size_t *cap,
    size_t *n);

/* Bytes that sh_json_escape may write for len bytes. */
#define SH_JSON_ESCAPED(len) (6 * (len))

/*
 * The body of a JSON string of the bytes p[0..len), without its quotes,
 * into dst (SH_JSON_ESCAPED(len) bytes): '"' and '\\' escaped with a
 * backslash, control bytes and DEL as \u00XX, every other byte as it is
 * (valid UTF-8 stays so).  Return the bytes written.
 */
size_t sh_json_escape(const char *p, size_t len, char *dst);

#endif

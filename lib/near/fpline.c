#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "near/fpline.h"

int
sh_fpline_parse(const char *p, size_t len, sh_fpval *fp, const char **id,
    size_t *idlen)
{
	const char *tab;

	/* The TAB where it belongs, else the first one: a TAB before it
	 * is no hex digit either way. */
	if (len > SH_HEX_LEN && p[SH_HEX_LEN] == '\t')
		tab = p + SH_HEX_LEN;
	else if ((tab = memchr(p, '\t', len)) == NULL)
		return SH_EFIELDS;
	if (sh_hex_parse(p, (size_t)(tab - p), fp) != 0)
		return SH_EHEX;
	*id = tab + 1;
	*idlen = len - (size_t)(tab + 1 - p);
	if ((tab = memchr(*id, '\t', *idlen)) != NULL)
		*idlen = (size_t)(tab - *id);
	return 0;
}

int
sh_fpline_sketch_kind(const char *p, size_t len, const char *id,
    size_t idlen, struct sh_sketch *s, int *kind)
{
	const char *f = id + idlen + 1, *end = p + len, *tab;

	if (f > end || !sh_sketch_is(f, (size_t)(end - f)))
		return SH_ENOSKETCH;
	if ((tab = memchr(f, '\t', (size_t)(end - f))) != NULL)
		end = tab;
	*kind = sh_sketch_kind(f, (size_t)(end - f));
	return sh_sketch_parse(f, (size_t)(end - f), s);
}

int
sh_fpline_sketch(const char *p, size_t len, const char *id, size_t idlen,
    struct sh_sketch *s)
{
	int e, kind;

	if ((e = sh_fpline_sketch_kind(p, len, id, idlen, s, &kind)) != 0)
		return e;
	return kind > 0 ? SH_ESKCHARS : 0;
}

int
sh_fpline_write(FILE *out, sh_fpval fp, const char *id, size_t idlen)
{
	char hex[SH_HEX_LEN + 1];

	sh_hex_format(fp, hex);
	hex[SH_HEX_LEN] = '\t';
	if (fwrite(hex, 1, sizeof(hex), out) != sizeof(hex) ||
	    fwrite(id, 1, idlen, out) != idlen)
		return SH_EIO;
	return 0;
}

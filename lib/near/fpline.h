/*
 * Fingerprint lines, "HEX<TAB>ID": the fingerprint as 16 hex digits
 * (base/fpval.h), a TAB, and the ID up to the next TAB or the line's end
 * (possibly empty; IDs are written escaped, text/record.h, so that they
 * hold no TAB).  Further fields, as the feature count of sh-fp -c, may
 * follow: they are no part of the ID.  sh-fp and sh-index dump write
 * these lines, sh-near and sh-index read them.
 */
#ifndef SH_FPLINE_H
#define SH_FPLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/fpval.h"

/*
 * Parse a fingerprint line p[0..len).  Return 0, or SH_EFIELDS (no TAB)
 * or SH_EHEX.  *id points into p; further fields are left out of it.
 */
int sh_fpline_parse(const char *p, size_t len, sh_fpval *fp,
    const char **id, size_t *idlen);

/* Write fp and the ID id[0..idlen) to out as a fingerprint line without
 * its end: the caller writes the '\n', after any further field (sh-fp
 * -c).  Return 0 or SH_EIO (errno set). */
int sh_fpline_write(FILE *out, sh_fpval fp, const char *id, size_t idlen);

#endif

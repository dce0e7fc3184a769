/*
 * Fingerprint lines, "HEX<TAB>ID": the fingerprint as 16 hex digits
 * (base/fpval.h), a TAB, and the ID up to the next TAB or the line's end
 * (possibly empty; IDs are written escaped, text/record.h, so that they
 * hold no TAB).  Further fields may follow: they are no part of the ID.
 * The first of them may be the document's MinHash sketch (base/sketch.h,
 * sh-fp -B), then the feature count of sh-fp -c.  sh-fp and sh-index
 * dump write these lines, sh-near and sh-index read them.
 */
#ifndef SH_FPLINE_H
#define SH_FPLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/fpval.h"
#include "base/sketch.h"

/*
 * Parse a fingerprint line p[0..len).  Return 0, or SH_EFIELDS (no TAB)
 * or SH_EHEX.  *id points into p; further fields are left out of it.
 */
int sh_fpline_parse(const char *p, size_t len, sh_fpval *fp,
    const char **id, size_t *idlen);

/* The sketch of line p[0..len), whose ID sh_fpline_parse found at
 * id[0..idlen), into *s.  Return 0, SH_ENOSKETCH (the field after the ID
 * does not start as a sketch, or there is none), SH_ESKCHARS (a sketch
 * of the characters, kind above 0), or an error of sh_sketch_parse.
 * sh_fpline_sketch_kind takes a sketch of any kind and sets *kind to
 * it (base/sketch.h). */
int sh_fpline_sketch(const char *p, size_t len, const char *id,
    size_t idlen, struct sh_sketch *s);
int sh_fpline_sketch_kind(const char *p, size_t len, const char *id,
    size_t idlen, struct sh_sketch *s, int *kind);

/* Write fp and the ID id[0..idlen) to out as a fingerprint line without
 * its end: the caller writes the '\n', after any further field (sh-fp
 * -c).  Return 0 or SH_EIO (errno set). */
int sh_fpline_write(FILE *out, sh_fpval fp, const char *id, size_t idlen);

#endif

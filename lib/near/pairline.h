/*
 * Pair lines: two fields and whatever follows, TAB-separated.  sh-near
 * writes pairs of IDs with their distance, "ID1<TAB>ID2<TAB>DIST" (index
 * matches: "QUERY<TAB>ID<TAB>DIST"; clusters: "FIRST<TAB>ID", no
 * distance), and with -v their similarity after it; sh-dist -v and sh-near -m read them; sh-dist reads pairs of
 * fingerprints, "HEX1<TAB>HEX2".
 */
#ifndef SH_PAIRLINE_H
#define SH_PAIRLINE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/fpval.h"

/*
 * Parse a pair line p[0..len): two IDs and whatever follows.  Return 0
 * or SH_EFIELDS (no TAB).  *a and *b point into p.
 */
int sh_pairline_parse(const char *p, size_t len, const char **a,
    size_t *alen, const char **b, size_t *blen);

/*
 * Write the pair a[0..alen), b[0..blen) as a line to out, with the
 * distance dist as a further field unless dist < 0, then the similarity
 * sim in millionths, written with six decimals ("0.912500"), unless
 * sim < 0, then the field more unless it is NULL.  Return 0 or SH_EIO
 * (errno set).
 */
int sh_pairline_write(FILE *out, const char *a, size_t alen, const char *b,
    size_t blen, int dist, long sim, const char *more);

/*
 * Parse the first two fields of p[0..len) as fingerprints (any further
 * fields are ignored).  Return 0, SH_EFIELDS or SH_EHEX.
 */
int sh_fppair_parse(const char *p, size_t len, sh_fpval *a, sh_fpval *b);

#endif

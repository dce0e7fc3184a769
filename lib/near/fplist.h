/*
 * Fingerprint lines "HEX<TAB>ID" and an in-memory list of them.
 */
#ifndef SH_FPLIST_H
#define SH_FPLIST_H

#include <stddef.h>
#include <stdint.h>

/*
 * Parse a fingerprint line p[0..len): 16 hex digits, a TAB, and the ID,
 * which is the rest of the line (possibly empty).  Return 0, or SH_EFIELDS
 * (no TAB) or SH_EHEX.  *id points into p.
 */
int sh_fpline_parse(const char *p, size_t len, uint64_t *fp,
    const char **id, size_t *idlen);

/*
 * Parse a pair line p[0..len) as sh-near prints it: two IDs and whatever
 * follows, TAB-separated ("ID1<TAB>ID2<TAB>DIST").  Return 0 or
 * SH_EFIELDS (no TAB).  *a and *b point into p.
 */
int sh_pairline_parse(const char *p, size_t len, const char **a,
    size_t *alen, const char **b, size_t *blen);

/*
 * Parse the first two TAB-separated fields of p[0..len) as fingerprints
 * (any further fields are ignored).  Return 0, SH_EFIELDS or SH_EHEX.
 */
int sh_fppair_parse(const char *p, size_t len, uint64_t *a, uint64_t *b);

/* Fingerprints with their IDs, in input order; entry i is fp[i]. */
struct sh_fplist {
	uint64_t *fp;
	size_t n, cap;
	char *ids;		/* all IDs, back to back */
	size_t *idoff;		/* ID i is ids[idoff[i] .. idoff[i + 1]) */
	size_t idlen, idcap;
};

/* An empty list; free with sh_fplist_free (the struct itself is the
 * caller's). */
void sh_fplist_init(struct sh_fplist *l);
void sh_fplist_free(struct sh_fplist *l);

/* Append fp with ID id[0..idlen) (copied).  Return 0 or SH_ENOMEM. */
int sh_fplist_add(struct sh_fplist *l, uint64_t fp, const char *id,
    size_t idlen);

/* ID of entry i, its length in *len. */
const char *sh_fplist_id(const struct sh_fplist *l, size_t i, size_t *len);

#endif

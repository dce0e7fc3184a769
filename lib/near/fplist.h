/*
 * An in-memory list of fingerprints with their IDs (near/fpline.h reads
 * them).
 */
#ifndef SH_FPLIST_H
#define SH_FPLIST_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"

/* Fingerprints with their IDs, in input order; entry i is fp[i]. */
struct sh_fplist {
	sh_fpval *fp;
	size_t n, cap;
	char *ids;		/* all IDs, back to back */
	size_t *idoff;		/* ID i is ids[idoff[i] .. idoff[i + 1]) */
	size_t idlen, idcap;
};

/* An empty list; free with sh_fplist_free (the struct itself is the
 * caller's). */
void sh_fplist_init(struct sh_fplist *l);
void sh_fplist_free(struct sh_fplist *l);

/* Empty l, keeping its memory for the next lines. */
void sh_fplist_clear(struct sh_fplist *l);

/* Append fp with ID id[0..idlen) (copied).  Return 0 or SH_ENOMEM. */
int sh_fplist_add(struct sh_fplist *l, sh_fpval fp, const char *id,
    size_t idlen);

/* Append the entries of src to dst.  Return 0 or SH_ENOMEM (dst is
 * unchanged then). */
int sh_fplist_append(struct sh_fplist *dst, const struct sh_fplist *src);

/* ID of entry i, its length in *len. */
const char *sh_fplist_id(const struct sh_fplist *l, size_t i, size_t *len);

#endif

/*
 * An in-memory list of fingerprints with their IDs (near/fpline.h reads
 * them).  The IDs may also be left out while the list is built, and only
 * those of some entries added after (near/fpload.h reads them back from
 * their files): a join then holds 8 bytes per fingerprint, not 16 plus
 * the IDs.
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
	int noids;		/* sh_fplist_add keeps no ID */
	char *ids;		/* the IDs, back to back */
	size_t *idoff;		/* ID j is ids[idoff[j] .. idoff[j + 1]) */
	size_t idlen, idcap;
	uint64_t *have;		/* NULL: entry i has ID i; else bit i set:
				 * entry i has ID sh_fplist_slot(i) */
	uint32_t *rank;		/* bits set in have before word w */
};

/* An empty list; free with sh_fplist_free (the struct itself is the
 * caller's). */
void sh_fplist_init(struct sh_fplist *l);
void sh_fplist_free(struct sh_fplist *l);

/* Empty l, keeping its memory for the next lines. */
void sh_fplist_clear(struct sh_fplist *l);

/* Append fp with ID id[0..idlen) (copied; not if l->noids).  Return 0 or
 * SH_ENOMEM. */
int sh_fplist_add(struct sh_fplist *l, sh_fpval fp, const char *id,
    size_t idlen);

/* Drop the entries from n on (n <= l->n) of a list whose IDs are
 * kept in it (have NULL), keeping its memory. */
void sh_fplist_truncate(struct sh_fplist *l, size_t n);

/* Append the entries of src to dst, both with IDs or both without.
 * Return 0 or SH_ENOMEM (dst is unchanged then). */
int sh_fplist_append(struct sh_fplist *dst, const struct sh_fplist *src);

/* Room for n more entries, so that adding them moves no entry: for a
 * caller that knows a bound (a file's size).  Room never touched costs
 * address space only; room asked for at once is in huge pages where the
 * system gives them, where an array grown by realloc keeps small pages
 * in the part it had.  Return 0 or SH_ENOMEM. */
int sh_fplist_reserve(struct sh_fplist *l, size_t n);

/*
 * Of a list built without IDs: give IDs to the entries whose bit is set
 * in have (n bits, which l then owns): room for them in l->idoff, whose
 * element sh_fplist_slot(i) + 1 is then to be set to the length of the
 * ID of entry i, and whose bytes are given by sh_fplist_ids_done.
 * Return 0 or SH_ENOMEM (l owns have either way).
 */
int sh_fplist_ids_for(struct sh_fplist *l, uint64_t *have);

/* The bytes of the IDs: ids[0..len), entry i's at the sum of the
 * lengths before its slot (l takes ids, a malloc'd block). */
void sh_fplist_ids_done(struct sh_fplist *l, char *ids, size_t len);

/* The slot of entry i's ID: i, or the entries given IDs before it. */
static inline size_t
sh_fplist_slot(const struct sh_fplist *l, size_t i)
{
	if (l->have == NULL)
		return i;
	return l->rank[i >> 6] + (size_t)sh_hamming(l->have[i >> 6] &
	    (((uint64_t)1 << (i & 63)) - 1), 0);
}

/* ID of entry i (one that has an ID), its length in *len. */
const char *sh_fplist_id(const struct sh_fplist *l, size_t i, size_t *len);

/* Ask for what sh_fplist_id(l, i) reads, in three steps (0, 1, 2) made
 * in turn a few entries apart. */
void sh_fplist_prefetch(const struct sh_fplist *l, size_t i, int step);

#endif

/*
 * The deletions of a segment (sh-index(5)): which IDs of its entries
 * are deleted, in a file of their own ("del-N") that the MANIFEST names
 * beside the segment.  A segment never changes, so a delete writes its
 * segment a new deletion file, all of its deletions so far, and a new
 * MANIFEST; a merge leaves the deleted IDs out of the segment it writes,
 * whose deletions are then none.  Shared by the reader, the writer and
 * no one else, like ixfile.h.
 *
 * The file: a magic of 8 bytes, the version (1) and the count n of
 * records, 8 bytes each, little-endian; n records of 16 bytes (the
 * entry, 8 bytes; which of its IDs, 0 the first, and how many IDs the
 * entry holds, 4 bytes each), ascending by entry then ID, none twice;
 * then the XXH64 of all that, 8 bytes.
 */
#ifndef SH_DELETES_H
#define SH_DELETES_H

#include <stddef.h>
#include <stdint.h>

#include "index/segment.h"

/* ID ord of the entry pos, of nids IDs, is deleted. */
struct sh_delrec {
	uint64_t pos;
	uint32_t ord, nids;
};

/* The deletions of a segment, read; a zeroed struct is none. */
struct sh_segdel {
	struct sh_delrec *rec;	/* the file's records */
	uint64_t n;		/* IDs deleted */
	uint64_t ndead;		/* entries whose every ID is deleted */
	uint64_t *dead;		/* those entries, a bit each; NULL: none */
	uint64_t *part;		/* entries with some IDs deleted, not all */
	uint64_t *kpos;		/* those entries, ascending, nk */
	uint64_t *koff;		/* their IDs kept: entry kpos[i]'s at */
	char *kept;		/* kept[koff[i] .. koff[i + 1]) */
	size_t nk;
};

/*
 * Read the deletion file path of segment s into *d, zeroed before:
 * records within s's entries, each entry's as many as its IDs at most,
 * every count of an entry's IDs the same (trusted here, checked by
 * sh_segdel_verify).  The IDs kept of entries partly deleted are read
 * from s.  Return 0, SH_EIO (errno set), SH_ENOTREG, SH_EMAGIC,
 * SH_EVERSION, SH_ETRUNC, SH_ECORRUPT or SH_ENOMEM; *d then holds
 * nothing to free.  Cost: the file, and the IDs of the entries partly
 * deleted.
 */
int sh_segdel_read(struct sh_segdel *d, const char *path, struct sh_seg *s);

/* Every record's count of IDs that of its entry in s.  Return 0 or
 * SH_ECORRUPT.  Cost: the IDs of every entry deleted. */
int sh_segdel_verify(const struct sh_segdel *d, struct sh_seg *s);

/* Free what d holds; d is then none. */
void sh_segdel_free(struct sh_segdel *d);

/* Whether entry pos is deleted whole. */
static inline int
sh_segdel_dead(const struct sh_segdel *d, uint64_t pos)
{
	return d->dead != NULL && (d->dead[pos >> 6] >> (pos & 63) & 1);
}

/* Whether ID ord of entry pos is deleted. */
int sh_segdel_gone(const struct sh_segdel *d, uint64_t pos, uint32_t ord);

/* The IDs entry pos holds, by its records; 0 when it has none. */
uint32_t sh_segdel_nids(const struct sh_segdel *d, uint64_t pos);

/* The IDs of entry pos of s that are not deleted (sh_seg_ids), valid
 * while d and s are; none of an entry deleted whole.  Return 0 or
 * SH_ECORRUPT. */
int sh_segdel_ids(const struct sh_segdel *d, struct sh_seg *s, uint64_t pos,
    const char **p, size_t *len);

/* The bytes of the IDs d deletes from s, each with its newline, into
 * *bytes.  Return 0 or SH_ECORRUPT.  Cost: the IDs of every entry
 * deleted. */
int sh_segdel_bytes(const struct sh_segdel *d, struct sh_seg *s,
    uint64_t *bytes);

/*
 * The entries of band segment source in that d leaves, as *out: entry
 * and key numbers those of the entries left, in order, with their
 * locations when in has them.  Its entries and each band's keys are
 * best asked for in order, as sh_seg_write_bands
 * does (asking again from further back reads from the start).  *f holds
 * the state; d and in must outlive it.
 */
struct sh_delband {
	struct sh_bandsrc in;
	const struct sh_segdel *d;
	uint64_t li, ui;	/* entry li left is entry ui of in */
	int band;		/* band of the key cursor, -1 none */
	uint64_t kl, ku;	/* key kl left is at or past key ku of in */
};
void sh_segdel_band(const struct sh_segdel *d, const struct sh_bandsrc *in,
    struct sh_delband *f, struct sh_bandsrc *out);

/* Write the deletion file of rec[0..n) (in order) to fd.  Return 0 or
 * SH_EIO (errno set). */
int sh_segdel_write(int fd, const struct sh_delrec *rec, uint64_t n);

/* Whether path is a regular file with a deletion file's magic. */
int sh_segdel_is(const char *path);

#endif

/*
 * Writing a fingerprint index (index.h; the files in sh-index(5)).
 *
 * New fingerprints go into a new segment; the newest segments are merged
 * with it while the older neighbour holds fewer than 4 times the
 * fingerprints merged so far (size-tiered, as in an LSM tree), so each
 * fingerprint is rewritten O(log n) times and there are O(log n)
 * segments.
 *
 * Functions that fail on a file write its path into where[SH_WHERE].
 */
#ifndef SH_WRITER_H
#define SH_WRITER_H

#include <stddef.h>

#include "base/progress.h"
#include "base/shard.h"
#include "index/index.h"
#include "near/fplist.h"

/* How to write: the distance served (-1: the index's, or SH_INDEX_K for
 * a new one), a forced plan (b, r; 0 to choose by size), the layout of a
 * new index's segments (kept by every later add), the shard a new
 * index holds (fingerprints of other shards are left out, now and in
 * every later add), and whether to replace the whole index (build)
 * rather than add to it. */
struct sh_ixopt {
	int k;
	int b, r;
	int lean;		/* lean segments (index.h) */
	uint32_t t;		/* band tables for similarity t (millionths)
				 * with bands and rows (near/bands.h); 0:
				 * fingerprint tables.  An add gives the
				 * index's own. */
	int bands, rows;
	struct sh_shard shard;	/* n = 0: the whole range */
	int replace;
	int force;		/* replace even an existing index */
	size_t budget;		/* memory for writing, bytes; 0: no limit */
	uint32_t now;		/* the add time of the lines added (seconds
				 * since the epoch); 0: the time of open */
	const struct sh_progress *pg;	/* the tables of each segment
				 * written are reported to it; NULL: none */
};

/*
 * Writing an index, at dir, created when absent.  Open takes the lock
 * and checks the index: with o->replace (build) an existing index is
 * replaced only with o->force (else SH_EEXIST), otherwise o->k and
 * o->shard, when set, must match it (else SH_EKMISMATCH, SH_ESHARD), and
 * o's band plan the index's (else SH_EKIND).
 * Each add writes a batch as a new segment, merged with the newest ones,
 * and beside it the add time of each of its IDs (times.h: o->now for
 * the batch's, the merged segments' own for theirs), not yet in the
 * MANIFEST; commit writes the MANIFEST when anything
 * changed (the index then holds, with o->replace, the batches alone,
 * merged into one segment), and only then removes the segments it
 * replaces; close unlocks and removes the segments of adds not
 * committed.  Return 0 or an error of opening an index (sh_index_open),
 * of the checks, or of writing (SH_EIO, errno set).
 *
 * Open allocates *w (NULL on error), freed by close, which accepts NULL;
 * an add reads batch and keeps nothing of it.  Merges stream from the
 * segments (sh_seg_write_from): an add holds in memory the batch, 24
 * bytes per fingerprint of it and its IDs again to put it in order, and
 * for making each table of the new segment 16 bytes per fingerprint of
 * the segment (18 lean), or half of o->budget when that is less.
 *
 * An index of band tables takes with each batch the band keys of its
 * entries (keys[i b + j] key j of entry i, sh_bands_keys; NULL for the
 * other kind, else SH_EKIND), and where their documents lie (locs[i]
 * entry i's, segment.h, its path copied; locs NULL: none is known; an
 * entry's path NULL: its is not), which its segments keep from then on
 * (merged, they keep those of every entry merged; sh_index_loc reads
 * them); its merges stream, and an add holds the batch, its keys and 16
 * bytes an entry of it to sort each band.
 */
struct sh_ixwriter;
int sh_ixw_open(struct sh_ixwriter **w, const char *dir,
    const struct sh_ixopt *o, char *where);
int sh_ixw_add(struct sh_ixwriter *w, const struct sh_fplist *batch,
    const uint64_t *keys, const struct sh_segloc *locs, char *where);
/* Whether batch holds a quarter of w's budget (never without one): the
 * time for a writer within a budget to add it as a segment and free it. */
int sh_ixw_full(const struct sh_ixwriter *w, const struct sh_fplist *batch);
int sh_ixw_commit(struct sh_ixwriter *w, char *where);

/* Whether w holds changes that no MANIFEST in place names: after a
 * commit that failed, 1 when the index is as it was, 0 when the new
 * MANIFEST is in place (readers see it) but perhaps not on disk. */
int sh_ixw_pending(const struct sh_ixwriter *w);

/*
 * Delete from w's index every ID equal to an ID of the list ids (its
 * fingerprints are not looked at; IDs as stored, escaped as in
 * fingerprint lines): for each segment holding some, a new deletion file
 * with all its deletions so far (deletes.h) replaces the old one at the
 * commit; a segment whose every entry is then deleted goes whole.  found[i] is set to 1 when entry i of ids is an ID deleted
 * now, the first entry of an ID only; 0 when not (not in the index,
 * deleted before, or a repeat).  Every reader leaves out what is
 * deleted; merges drop it.  Return 0, SH_ENOMEM, SH_ERANGE, or an error
 * of reading a segment or writing a file (where names it).  Cost: reads
 * every ID of the index once.
 */
int sh_ixw_delete(struct sh_ixwriter *w, const struct sh_fplist *ids,
    unsigned char *found, char *where);

/*
 * Delete from w's index every ID added before cutoff (seconds since the
 * epoch), as sh_ixw_delete does; a segment whose IDs all go is removed
 * whole (so is one that sh_ixw_delete empties), one whose IDs all stay
 * is not read.  An ID of a segment written before add times were kept
 * counts as added when its segment file was last written.  Return as
 * sh_ixw_delete.
 */
int sh_ixw_expire(struct sh_ixwriter *w, uint32_t cutoff, char *where);

/* Merge every segment of w's index into one, leaving out what is
 * deleted (nothing when the index is one segment without deletions).
 * Return as sh_ixw_add. */
int sh_ixw_merge(struct sh_ixwriter *w, char *where);
void sh_ixw_close(struct sh_ixwriter *w);

#endif

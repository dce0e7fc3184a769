/*
 * A persistent fingerprint index: a directory holding immutable segment
 * files (segment.h) and a MANIFEST naming the live ones (sh-index(5)).
 *
 * Writers take an exclusive flock(2) on the directory's LOCK file, so
 * concurrent writers run one after the other.  A writer never changes a
 * file in place: it writes a new segment and a new MANIFEST, each to a
 * temporary name, fsyncs them and renames them into place; only then are
 * replaced segments unlinked.  Killed at any moment, it leaves the
 * previous index whole (a later writer removes its leftovers).  Readers
 * take no lock: they open the segments the MANIFEST names, and read it
 * again if a writer removed one in between.
 *
 * New fingerprints go into a new segment; the newest segments are merged
 * with it while the older neighbour holds fewer than 4 times the
 * fingerprints merged so far (size-tiered, as in an LSM tree), so each
 * fingerprint is rewritten O(log n) times and there are O(log n)
 * segments.  Segments stay in the order their fingerprints were added,
 * and the IDs of a fingerprint stay in that order too.
 *
 * Functions that fail on a file write its path into where[SH_WHERE].
 */
#ifndef SH_INDEX_H
#define SH_INDEX_H

#include <stdint.h>

#include "near/fplist.h"
#include "index/segment.h"
#include "base/shard.h"

#define SH_WHERE 4096
#define SH_INDEX_K 3		/* distance served by default */

struct sh_index {
	char path[SH_WHERE];
	int k;			/* distance the index serves */
	int b, r;		/* forced plan, or 0 */
	struct sh_shard shard;	/* the fingerprints it holds (shard.h) */
	uint64_t next;		/* number of the next segment */
	int nseg;
	char (*name)[32];	/* segment file names, oldest first ("" for
				 * a lone segment file) */
	uint64_t *nfp, *nid;	/* their counts, per the MANIFEST */
	struct sh_seg *seg;	/* the open segments */
};

/*
 * Open the index at path: a directory, or a single segment file.
 * Return 0, SH_EIO (errno set), SH_EMAGIC, SH_EVERSION, SH_ETRUNC,
 * SH_ECORRUPT or SH_ENOMEM.
 */
int sh_index_open(struct sh_index *ix, const char *path, char *where);
void sh_index_close(struct sh_index *ix);

/* The IDs of hit h (sh_seg_ids); where names the segment on error. */
int sh_index_ids(struct sh_index *ix, const struct sh_hit *h,
    const char **p, size_t *len, char *where);

/* The path of segment i of ix, into where. */
void sh_index_segpath(const struct sh_index *ix, int i, char *where);

/*
 * Append to *h every indexed fingerprint within k (0..64) of fp, ordered
 * by distance, then fingerprint, then segment.  Return 0, SH_ENOMEM or
 * SH_ECORRUPT (where names the segment).
 */
int sh_index_search(struct sh_index *ix, uint64_t fp, int k,
    struct sh_hits *h, char *where);

/* How to write: the distance served (-1: the index's, or SH_INDEX_K for
 * a new one), a forced plan (b, r; 0 to choose by size), the shard a new
 * index holds (fingerprints of other shards are left out, now and in
 * every later add), and whether to replace the whole index (build)
 * rather than add to it. */
struct sh_ixopt {
	int k;
	int b, r;
	struct sh_shard shard;	/* n = 0: the whole range */
	int replace;
	int force;		/* replace even an existing index */
	size_t budget;		/* memory for merges, bytes; 0: no limit */
};

/*
 * Writing an index, at dir, created when absent.  Open takes the lock
 * and checks the index: with o->replace (build) an existing index is
 * replaced only with o->force (else SH_EEXIST), otherwise o->k and
 * o->shard, when set, must match it (else SH_EKMISMATCH, SH_ESHARD).
 * Each add writes a batch as a new segment, merged with the newest ones
 * (within o->budget when set), not yet in the MANIFEST; commit writes
 * the MANIFEST when anything changed (the index then holds, with
 * o->replace, the batches alone), and only then removes the segments it
 * replaces; close unlocks and removes the segments of adds not
 * committed.  Return 0 or an error of opening an index (sh_index_open),
 * of the checks, or of writing (SH_EIO, errno set).
 */
struct sh_ixwriter;
int sh_ixw_open(struct sh_ixwriter **w, const char *dir,
    const struct sh_ixopt *o, char *where);
int sh_ixw_add(struct sh_ixwriter *w, const struct sh_fplist *batch,
    char *where);
/* Whether batch holds a quarter of w's budget (never without one): the
 * time for a writer within a budget to add it as a segment and free it. */
int sh_ixw_full(const struct sh_ixwriter *w, const struct sh_fplist *batch);
int sh_ixw_commit(struct sh_ixwriter *w, char *where);
void sh_ixw_close(struct sh_ixwriter *w);

#endif

/*
 * A persistent fingerprint index, read: a directory holding immutable
 * segment files (segment.h) and a MANIFEST naming the live ones
 * (sh-index(5)), or a single segment file.  writer.h writes it.  Its
 * segments hold fingerprint tables, searched within a distance, or all
 * of them band tables of one plan (ix->bands), asked by the band keys of
 * sketches; each kind's search refuses the other (SH_EKIND).
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
 * Segments stay in the order their fingerprints were added, and the IDs
 * of a fingerprint stay in that order too.
 *
 * IDs deleted (sh-index delete and expire: a deletion file beside a
 * segment, deletes.h) are left out of every answer: searches give no hit
 * of an entry whose IDs are all deleted, sh_index_ids and sh_index_next
 * give the IDs not deleted, sh_index_next skips the entries deleted
 * whole, and the counts of sh_index_stats and sh_index_segstat are of
 * what is left (and, apart, of what is deleted).  The cost while
 * deletions are few: a bit test a hit.
 *
 * Functions that fail on a file write its path into where[SH_WHERE].
 */
#ifndef SH_INDEX_H
#define SH_INDEX_H

#include <stdint.h>

#include "base/fpval.h"
#include "base/shard.h"
#include "index/segment.h"

struct sh_segdel;

#define SH_WHERE 4096
#define SH_INDEX_K 3		/* distance served by default */

/* Most segments an index holds (SH_ESEGMAX past it).  The merge policy
 * (writer.h) makes at most 17: each segment holds at least 4 times the
 * fingerprints of its newer neighbour, and fewer than 2^32. */
#define SH_INDEX_SEGMAX 64

struct sh_index {
	char path[SH_WHERE];
	int k;			/* distance the index serves */
	int b, r;		/* forced plan, or 0 */
	int lean;		/* segments lean (sh_seg_write), of the
				 * forced plan or else of 2 tables */
	uint32_t t;		/* an index of band tables: the similarity
				 * it serves (millionths), its bands and
				 * rows (near/bands.h); else 0 */
	int bands, rows;
	struct sh_shard shard;	/* the fingerprints it holds (shard.h) */
	uint64_t next;		/* number of the next segment */
	uint64_t sum;		/* the MANIFEST's checksum (its end line) */
	int nseg;
	char (*name)[32];	/* segment file names, oldest first ("" for
				 * a lone segment file) */
	uint64_t *nfp, *nid;	/* their counts, per the MANIFEST */
	char (*dname)[32];	/* their deletion files ("": none) */
	uint64_t *ndel;		/* and the IDs each deletes */
	struct sh_seg *seg;	/* the open segments */
	struct sh_segdel *del;	/* and their deletions (deletes.h) */
	int ndeleted;		/* segments with deletions */
};

/*
 * Open the index at path: a directory, or a single segment file.
 * Return 0, SH_EIO (errno set), SH_EMAGIC, SH_EVERSION, SH_ETRUNC,
 * SH_ECORRUPT, SH_ESEGMAX or SH_ENOMEM.  A segment found missing is
 * looked for again only in a MANIFEST that has changed since (a writer
 * replaced it), up to 100 times; one the same MANIFEST names twice is
 * SH_EIO with ENOENT at once.  Fills the caller's *ix, which close
 * empties (zeroed again); on error nothing is left to close.  Opening
 * maps each segment and checks its header and checksum table
 * (segment.h), not its body, and reads its deletion file whole
 * (deletes.h; 16 bytes an ID deleted, 2 bits an entry of the segment).
 */
int sh_index_open(struct sh_index *ix, const char *path, char *where);
void sh_index_close(struct sh_index *ix);

/* sh_seg_load on every segment of ix: for long query streams.  Return 0,
 * SH_ENOMEM or SH_ECORRUPT, where naming the segment. */
int sh_index_load(struct sh_index *ix, char *where);

/* The IDs of hit h (sh_seg_ids); where names the segment on error. */
int sh_index_ids(struct sh_index *ix, const struct sh_hit *h,
    const char **p, size_t *len, char *where);

/*
 * For an index of band tables: where the document of hit h lies, as the
 * segment keeps it (segment.h: sh_seg_loc; its path valid until close).
 * Return 1; 0 when none is kept (the entry added without its documents,
 * or deleted, or the index of the other kind); SH_ECORRUPT or SH_ENOMEM
 * (where names the segment).
 */
int sh_index_loc(struct sh_index *ix, const struct sh_hit *h,
    struct sh_segloc *l, char *where);

/* Called with the hits of query i: return 0 to go on. */
typedef int sh_index_fn(void *ctx, size_t i, const struct sh_hits *h);

/*
 * sh_index_search at distance k for each of q[0..n) (n below 2^32),
 * calling fn(ctx, i, hits) in order of i with the hits of q[i], as
 * sh_index_search orders them.  The queries are searched together, each
 * segment's tables swept in order (sh_seg_search_batch); h holds the
 * hits of them all.  Return 0, what fn returned when not 0, SH_ENOMEM,
 * or an error of a search (where names the segment).
 */
int sh_index_search_each(struct sh_index *ix, const sh_fpval *q, size_t n,
    int k, struct sh_hits *h, sh_index_fn *fn, void *ctx, char *where);

/*
 * For an index of band tables: the entries that agree with query i in a
 * band, for each of q[0..n) (fingerprints, n below 2^32) whose band keys
 * are key[i ix->bands .. (i + 1) ix->bands) (sh_bands_keys), calling
 * fn(ctx, i, hits) in order of i with the hits of q[i], segment by
 * segment (oldest first), entries in the order they were added (field
 * pos), each once; dist is the distance of the fingerprints.  h holds
 * the hits of them all.  Return 0,
 * what fn returned when not 0, SH_ENOMEM or SH_ECORRUPT (where names
 * the segment).  sh_index_search_each and sh_index_search return
 * SH_EKIND for such an index, this function for the other kind.
 */
int sh_index_bands_each(struct sh_index *ix, const sh_fpval *q,
    const uint64_t *key, size_t n, struct sh_hits *h, sh_index_fn *fn,
    void *ctx, char *where);

/*
 * Append to *h every indexed fingerprint within k (0..64) of fp, ordered
 * by distance, then fingerprint, then segment.  Return 0, SH_ENOMEM or
 * SH_ECORRUPT (where names the segment).
 */
int sh_index_search(struct sh_index *ix, sh_fpval fp, int k,
    struct sh_hits *h, char *where);

/* What an index holds, over all its segments. */
struct sh_ixstats {
	int k;			/* distance served */
	struct sh_shard shard;	/* shard held (0/1: a lone segment file) */
	int nseg;		/* segments */
	uint64_t nfp, nid;	/* fingerprints (one held by two segments
				 * counts twice), IDs, not deleted */
	uint64_t dfp, did;	/* deleted: entries whole, IDs */
	uint64_t bytes;		/* size of the segment files */
	double candidates;	/* entries a search at k compares, expected
				 * for random fingerprints (segment.h) */
};

/* Totals of ix into *st, read from the open segments.  Cost: O(segments),
 * no I/O. */
void sh_index_stats(const struct sh_index *ix, struct sh_ixstats *st);

/* One segment of an index. */
struct sh_segstat {
	const char *name;	/* file name in the index directory, or the
				 * index's path for a lone segment file;
				 * points into ix, valid until close */
	uint64_t nfp, nid;	/* fingerprints, IDs, not deleted */
	uint64_t dfp, did;	/* deleted: entries whole, IDs */
	int blocks, keyblocks, tables;	/* its plan (plan.h) */
	int lean;		/* its layout (sh_seg_write) */
	int places;		/* band tables that keep where their
				 * documents lie (version 4) */
	int dirbits;		/* its tables' directories: 2^dirbits + 1
				 * offsets each (sh-index(5)) */
	uint64_t bytes;		/* file size */
};

/* Segment i of ix (0 the oldest) into *s.  Return 0, or SH_ERANGE when i
 * is not below ix->nseg.  No I/O. */
int sh_index_segstat(const struct sh_index *ix, int i, struct sh_segstat *s);

/* A place in the entries of an index, for sh_index_next; zeroed, the
 * first entry. */
struct sh_ixcursor {
	int seg;
	uint64_t pos;
};

/*
 * The entry of ix at *c, then *c moved past it: every entry of every
 * segment, segments oldest first, entries by ascending fingerprint.  Its
 * fingerprint into *fp, its IDs into p[0..*len) as sh_seg_ids gives them
 * (take them with sh_ids_next; they stay valid until close).  Return 1,
 * 0 after the last entry, or SH_ECORRUPT (where names the segment).
 * Cost: the checksum of each chunk read is checked once.
 */
int sh_index_next(struct sh_index *ix, struct sh_ixcursor *c, sh_fpval *fp,
    const char **p, size_t *len, char *where);

/*
 * Check every segment whole (sh_seg_verify), oldest first.  Return 0,
 * or SH_ECORRUPT or SH_ENOMEM with where naming the first segment at
 * fault.  Cost: reads all of every segment.
 */
int sh_index_verify(struct sh_index *ix, char *where);

#endif

/*
 * Index segments: one immutable file holding distinct fingerprints, the
 * list of IDs of each, and the permuted tables of a plan (plan.h) that
 * answer Hamming-distance queries.  The layout is in sh-index(5): a
 * 128-byte header with its own checksum, the body, and an XXH64 checksum
 * per 4 KiB chunk of the body.
 *
 * Opening maps the file and checks the header and the chunk checksum
 * table, which costs milliseconds whatever the size.  Every later read of
 * the body first checks the checksums of the chunks it touches, once per
 * chunk, so a corrupt byte is an error (SH_ECORRUPT), never a wrong
 * answer.  A segment is not safe for concurrent use by several threads.
 */
#ifndef SH_SEGMENT_H
#define SH_SEGMENT_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "base/progress.h"
#include "near/plan.h"

#define SH_SEG_VERSION 1		/* full: every table holds fingerprints */
#define SH_SEG_VERSION_LEAN 2	/* lean: references to table 0 */
#define SH_SEG_VERSION_BANDS 3	/* band tables (sh_seg_write_bands) */
#define SH_SEG_VERSION_LOCS 4	/* band tables and document locations */
#define SH_SEG_IDGROUP 1024	/* ID offsets per base, lean */
#define SH_SEG_CHUNK 4096

/* What a segment stores: fp[0..nfp) ascending and distinct; the IDs of
 * fp[i] are ids[idoff[i] .. idoff[i + 1]), each ending in '\n'. */
struct sh_segdata {
	const sh_fpval *fp;
	const uint64_t *idoff;
	const char *ids;
	uint64_t nfp, nid;
};

struct sh_seg {
	const unsigned char *map, *body;
	size_t size;
	int fd;			/* the file, open while map is set */
	struct sh_plan plan;
	int dirbits;		/* the distance served is plan.k */
	int lean;		/* layout (sh_seg_write) */
	int bands, rows;	/* a band segment: its plan; else 0 */
	uint32_t t;		/* and the threshold it serves */
	uint64_t nfp, nid, idbytes, bodylen, nchunks;
	uint64_t keys, refs;	/* band segment: section offsets in body */
	uint64_t tables, dirs, idoff, ids;	/* section offsets in body */
	uint64_t locs, files, filebytes;	/* version 4: the locations,
					 * the file table and its bytes */
	char *filetab;		/* the file table copied, once read */
	char **file;		/* and its paths, nfile of them */
	uint32_t nfile;
	const unsigned char *sums;
	uint64_t sumsum;		/* XXH64 of sums, from the header */
	unsigned char *checked;	/* bit per chunk, checksum verified */
	uint64_t upto;		/* body bytes below: all chunks verified */
};

/* A fingerprint found by a search: entry pos of segment seg, for query
 * number q of a batch (0 for a single search). */
struct sh_hit {
	sh_fpval fp;
	uint64_t pos;
	int seg, dist;
	uint32_t q;
};

struct sh_hits {
	struct sh_hit *v;
	size_t n, cap;
};

/*
 * Write a segment of d, searched with plan (its k is recorded as the
 * distance the index serves), to the file descriptor fd, an empty file
 * open for reading and writing.  Nothing is synced.  d->nfp must be below 2^32.  Each table
 * written is reported to pg ("table", base/progress.h; NULL: none).
 *
 * With lean, only table 0 holds the fingerprints (8 bytes each); every
 * other table holds, per entry, 8 bits of its permuted fingerprint (its
 * tag) and the entry's position in table 0 (5 bytes), its buckets hold
 * 16 to 32 entries, and the ID offsets take 4 bytes: a plan of 2 tables
 * costs about 17.5 bytes a fingerprint besides the IDs, against 26 to 28
 * in full.  Searches give the same answers either way; a lean search
 * reads table 0 again for the few entries of other tables whose tags
 * pass.  The IDs of SH_SEG_IDGROUP consecutive entries must then take
 * less than 4 GiB.  budget is that of sh_seg_write_from (0: no limit).
 *
 * Return 0, SH_ENOMEM, SH_ERANGE, SH_EIO, or SH_ECORRUPT when d's
 * fingerprints are not ascending or its counts do not add up.
 */
int sh_seg_write(int fd, const struct sh_plan *plan, int lean,
    const struct sh_segdata *d, size_t budget, const struct sh_progress *pg);

/*
 * What sh_seg_write_from writes: nfp fingerprints, nid IDs of idbytes
 * bytes in all, which next gives one by one, in ascending order of
 * fingerprint: it sets *fp and its IDs (*len bytes at *ids, each ID
 * ending in '\n', valid until the next call) and returns 1, or 0 after
 * the last, or a negative SH_E* code.
 */
struct sh_segsrc {
	uint64_t nfp, nid, idbytes;
	int (*next)(void *ctx, sh_fpval *fp, const char **ids, size_t *len);
	void *ctx;
};

/*
 * sh_seg_write from a source read once, in about budget bytes of memory
 * besides the directories (0: no limit): the tables past 0 are made
 * from table 0 read back from fd (open for reading and writing), in as
 * many passes as the budget needs.  The file is the same whatever the
 * budget.  Return 0, SH_ENOMEM, SH_ERANGE, SH_EIO, an error of the
 * source, or SH_ECORRUPT when the source breaks its order or counts.
 */
int sh_seg_write_from(int fd, const struct sh_plan *plan, int lean,
    const struct sh_segsrc *src, size_t budget,
    const struct sh_progress *pg);

/*
 * Band segments (version 3): the band tables of a MinHash band plan
 * (near/bands.h) of b bands of r rows for threshold t (millionths), over
 * entries kept in the order they were added, one ID each.  Per entry its
 * fingerprint and its ID; per band, the entries' keys (sh_bands_keys)
 * ascending, ties by entry, each with its entry, behind a directory of
 * the keys' top bits.  About 8 + 13 b bytes an entry besides the IDs.
 *
 * What a band segment is written from: n entries whose IDs take idbytes
 * (each ending in '\n'); entry i's fingerprint and ID (valid until the
 * next call); band j's i-th key in ascending order with its entry (ties
 * by entry), asked for band after band, each in order; and, unless loc
 * is NULL, entry i's location (below; its path valid until the next
 * call), asked for once, in order of entry, after its ID.  Each returns
 * 0 or a negative SH_E* code.
 */
struct sh_segloc;

struct sh_bandsrc {
	uint64_t n, idbytes;
	int (*entry)(void *ctx, uint64_t i, sh_fpval *fp, const char **id,
	    size_t *len);
	int (*key)(void *ctx, int j, uint64_t i, uint64_t *key,
	    uint32_t *ref);
	int (*loc)(void *ctx, uint64_t i, struct sh_segloc *l);
	void *ctx;
};

/*
 * Where the document of a band entry lies, for verification to read its
 * record back (sh-index(5)): its file (path, NUL-terminated, of 1 to
 * SH_SEGLOC_PATH bytes; NULL: the entry has no location), the framing
 * of its records (a number this layer keeps and does not read: SH_REC_*
 * of text/record.h), its record's bytes [off, off + size) in the file as
 * decoded, where decoding starts to read them (compressed offset coff,
 * then skip decoded bytes: base/zmap.h) and its line number (the ID of
 * the framings that number records).
 */
#define SH_SEGLOC_PATH 4096

struct sh_segloc {
	const char *path;
	uint32_t mode;
	uint64_t off, size, coff, skip, line;
};

/*
 * Write to fd (an empty file open for reading and writing) the band
 * segment of the entries of src[0..nsrc) one after the other, each
 * source's entries numbered after those before: their tables merged.
 * When some source has locations (loc), the segment is of version 4 and
 * keeps each entry's (none for the entries of the others); else it is of
 * version 3, byte for byte as before locations were kept.
 * Nothing is synced; each band written is reported to pg ("band").
 * Memory: the directory of one band, and the distinct paths of the
 * locations with 16 bytes each.  Return 0, SH_ENOMEM, SH_EIO,
 * SH_ERANGE (2^32 entries or more), SH_ECORRUPT (a source breaks its
 * order), SH_EINVAL (a path empty or too long, a record of no bytes)
 * or a source's error.
 */
int sh_seg_write_bands(int fd, uint32_t t, int b, int r,
    const struct sh_bandsrc *src, int nsrc, const struct sh_progress *pg);

/* The entries and tables of the open band segment s as a source, its
 * reads checked like every other: a band or entry out of range, or a
 * key whose entry is not one of s's, is SH_ECORRUPT.  Its locations
 * are the source's when it keeps them (version 4; else loc is NULL). */
void sh_seg_bandsrc(struct sh_seg *s, struct sh_bandsrc *src);

/*
 * The location of entry i (< nfp) of band segment s into *l, its path
 * valid until s is closed.  Return 1; 0 when the entry has none (or s
 * keeps none: version 3); SH_ECORRUPT (a file number past the file
 * table, a table that is not nfile paths); SH_ENOMEM.  Cost: the file
 * table read and copied at the first call (its chunks checked), then
 * the 48 bytes of the entry's location.
 */
int sh_seg_loc(struct sh_seg *s, uint64_t i, struct sh_segloc *l);

/*
 * For each query i of q[0..nq) (fingerprints; nq below 2^32), whose band
 * keys are key[i b .. (i + 1) b) (b = s->bands), append to *h, tagged
 * with segment number seg and query number i, each entry of band
 * segment s that agrees with it in some band, once, in order of entry,
 * its distance that of its fingerprint to q[i]: the hits of query 0,
 * then of query 1, and so on.  The directory entries and keys of 16
 * queries at a time are asked for ahead, so that their cache misses
 * overlap.  Return 0, SH_ENOMEM or SH_ECORRUPT.
 */
int sh_seg_bands(struct sh_seg *s, const uint64_t *key, const sh_fpval *q,
    size_t nq, int seg, struct sh_hits *h);

/*
 * Open and map path into *s; with nofollow, a symbolic link is refused
 * (SH_EIO, errno ELOOP), as for the segments an index names; so is
 * anything but a regular file (SH_ENOTREG), without waiting on a FIFO.
 * Return 0, SH_EIO (errno set), SH_ENOTREG, SH_EMAGIC, SH_EVERSION,
 * SH_ETRUNC, SH_ECORRUPT or SH_ENOMEM.
 */
int sh_seg_open(struct sh_seg *s, const char *path, int nofollow);

/* Whether path is a regular file (not through a link) that starts with
 * the magic of a segment. */
int sh_seg_is(const char *path);
void sh_seg_close(struct sh_seg *s);

/*
 * Hint how the segment's file mapping will be read: sequentially (the
 * kernel reads ahead) or at random (only the pages touched are read).
 * Open sets random: searches touch a few pages each, and reading ahead
 * around each would fill the page cache with pages never used, which
 * on an index larger than the memory evicts those in use (a billion
 * fingerprints read 780 GB from disk for 3 million queries).  Verify,
 * load, sh_index_next (at the start of a segment) and merges read
 * sequentially.
 */
void sh_seg_advise(struct sh_seg *s, int sequential);

/*
 * Read the open segment's tables and directories from its file into
 * anonymous memory, in huge pages where the kernel gives them
 * (MADV_HUGEPAGE), and search the copy: a search then misses the TLB far
 * less, which pays off over long query streams on a large index.  The
 * ID offsets and IDs, read only for matches, stay mapped at the same
 * place after the copy (mremap; where there is none, the whole file is
 * copied).  Costs a read of the tables and their size in memory.  The
 * checksum table must match the header read at open, and each chunk's
 * checksum is checked as it is copied: a chunk that fails stays
 * unchecked, and the searches that read it fail, as on the mapping.
 * When the whole file takes at most half the physical memory, the pages
 * of the ID offsets and IDs are mapped in too (read from the file where
 * the page cache lacks them), so that matches take no page fault, and
 * their chunks checked in order, failures left unchecked as above.
 * Return 0, or with the segment still mapped: SH_ENOMEM, SH_EIO (a read
 * failed, errno set), SH_ETRUNC (the file is shorter than at open) or
 * SH_ECORRUPT (the checksum table changed since open).
 */
int sh_seg_load(struct sh_seg *s);

/*
 * Append to *h every entry within distance k (0..64) of fp, each once,
 * in ascending order of fingerprint, tagged with segment number seg.  k
 * may exceed the plan's: more keys are probed.  Return 0, SH_ENOMEM or
 * SH_ECORRUPT.
 */
int sh_seg_search(struct sh_seg *s, sh_fpval fp, int k, int seg,
    struct sh_hits *h);

/*
 * sh_seg_search for each of q[0..n) (n below 2^32) at once.  The hits
 * of q[i], their field q set to i and in the order sh_seg_search gives
 * them, are appended to *h in order of query: those of q[i] are h->v[f +
 * start[i] .. f + start[i + 1]), where f is h->n on entry and start has
 * room for n + 1.  The queries' probes are sorted by the top bits of
 * their prefix, table by table, so that each table is read in order:
 * over many queries the tables are swept rather than read at random
 * (1.4 to 1.7 times as fast for 65,536 at a time).  Where a query
 * probes more than 256 buckets a table (a k far above the plan's), each
 * is searched alone.  Memory: up to 48 MiB for the sort and the queries
 * permuted, beside the hits.  Return 0, SH_ENOMEM or SH_ECORRUPT.
 */
int sh_seg_search_batch(struct sh_seg *s, const sh_fpval *q, size_t n,
    int k, int seg, struct sh_hits *h, size_t *start);

/* Group h->v[first .. h->n) by query (field q, below nq), stably: those
 * of query i are then h->v[first + start[i] .. first + start[i + 1]),
 * start having room for nq + 1.  Return 0 or SH_ENOMEM. */
int sh_hits_group(struct sh_hits *h, size_t first, size_t nq,
    size_t *start);

/* Fingerprint of entry i (< nfp), and its IDs: *len bytes at *p, each ID
 * ending in '\n'.  Return 0 or SH_ECORRUPT. */
int sh_seg_fp(struct sh_seg *s, uint64_t i, sh_fpval *fp);
int sh_seg_ids(struct sh_seg *s, uint64_t i, const char **p, size_t *len);

/* Ask the memory for what sh_seg_ids(s, i) reads first, the ID offsets
 * of entry i (< nfp), without waiting for it: a hint, which checks
 * nothing. */
void sh_seg_prefetch_ids(const struct sh_seg *s, uint64_t i);

/* Take the next ID from an ID list p[0..*len) as sh_seg_ids gives it:
 * return 1 with id[0..*idlen), moving *p and *len past it, or 0 at the
 * end of the list. */
int sh_ids_next(const char **p, size_t *len, const char **id,
    size_t *idlen);

/*
 * Whether searches scan buckets with the fastest instructions the CPU
 * has (1, the default: AVX-512 vector popcount, else popcnt) or with
 * portable C only (0), for tests that hold one to the other.  Not
 * thread-safe; results do not depend on it.
 */
void sh_seg_vector(int on);

/* Verify the checksums of the chunks holding body[off .. off + len),
 * which must lie in the body: every read of the body passes here. */
int sh_seg_check(struct sh_seg *s, uint64_t off, uint64_t len);

/* Whether body bytes [off, off + len) lie within the segment and their
 * chunks' checksums hold: 0 or SH_ECORRUPT.  Each chunk is checked once;
 * below s->upto, all are, which is where searches on a loaded segment
 * stay. */
static inline int
sh_seg_need(struct sh_seg *s, uint64_t off, uint64_t len)
{
	if (off <= s->upto && len <= s->upto - off)
		return 0;
	return sh_seg_check(s, off, len);
}

/* Check every checksum and the whole structure.  Return 0 or
 * SH_ECORRUPT (or SH_ENOMEM). */
int sh_seg_verify(struct sh_seg *s);

/* Expected entries compared by a search at distance k, for uniformly
 * random fingerprints. */
double sh_seg_candidates(const struct sh_seg *s, int k);

#endif

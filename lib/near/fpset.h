/*
 * The fingerprints of a join, with their IDs in input order, and the
 * pairs found among them.  Without a budget everything is in memory
 * (fplist.h, join.h); with one, the fingerprints and IDs are on disk
 * (fpstore.h) and the pairs go through an external sort (xsort.h), and the
 * output is the same.  Entries are numbered 0..n-1 in order of addition.
 *
 * The pairs come from the join (sh_fpset_join), or are given by ID
 * (sh_fpset_given): the outputs of a sharded join, in any order, are then
 * put back into the order of one process.  Given pairs name entries by ID,
 * so IDs must be unique; the ID map costs 16 to 32 bytes per entry in
 * memory, besides the budget.
 */
#ifndef SH_FPSET_H
#define SH_FPSET_H

#include <stddef.h>
#include <stdint.h>

#include "base/fpval.h"
#include "base/shard.h"
#include "base/xsort.h"
#include "near/fpload.h"
#include "near/fplist.h"
#include "near/fpstore.h"
#include "near/join.h"
#include "near/plan.h"

#define SH_FPSET_AHEAD 16

struct sh_fpset {
	size_t budget;		/* 0: in memory */
	const char *tmpdir;
	struct sh_fplist list;	/* in memory, its IDs there or in */
	struct sh_fpfiles files;	/* its files; or */
	struct sh_fpstore store;	/* within the budget */
	struct sh_pairs pairs;	/* in memory, or */
	struct sh_xsort *x;	/* within the budget */
	size_t at;		/* next pair in memory */
	uint64_t last;		/* last pair returned, + 1 (0: none) */
	uint64_t *map;		/* ID map: (tag << 32 | entry + 1) slots */
	size_t dup;		/* an entry whose ID another one has */
	size_t mapcap;
	struct sh_xrec ahead[SH_FPSET_AHEAD];	/* pairs read ahead */
	size_t ahead_n, ahead_at;
	char *buf, *buf2;	/* IDs read from the store */
	size_t bufcap, buf2cap;
	const char *failed;	/* the file of an error of sh_fpset_join */
	int unsorted;		/* pairs added one by one, in any order */
	int ready;		/* the store flushed for reading at random */
};

/* Open an empty set; budget 0 keeps everything in memory, else the bytes
 * its external sorts share, spilling to tmpdir (NULL: /tmp).  Return 0 or
 * SH_EIO.  Closing an opened set frees everything. */
int sh_fpset_open(struct sh_fpset *s, size_t budget, const char *tmpdir);
void sh_fpset_close(struct sh_fpset *s);

/* Append fp with ID id[0..len).  Return 0, SH_ENOMEM or SH_EIO. */
int sh_fpset_add(struct sh_fpset *s, sh_fpval fp, const char *id,
    size_t len);

/* The list an in-memory set adds to (sh_fplist_add, or near/fpload.h
 * for many at once); NULL within a budget. */
struct sh_fplist *sh_fpset_list(struct sh_fpset *s);

/* The files of an in-memory set whose IDs are left in them while the
 * join runs (sh_fpload with them, for every entry); NULL within a
 * budget.  Only the IDs of the entries in pairs are read back, so such
 * a set serves sh_fpset_next alone, and sh_fpset_id and sh_fpset_ids for
 * the entries of the pairs. */
struct sh_fpfiles *sh_fpset_files(struct sh_fpset *s);

/* Number of entries. */
size_t sh_fpset_n(const struct sh_fpset *s);

/* Fingerprint of entry i into *fp.  Return 0 or SH_EIO. */
int sh_fpset_fp(struct sh_fpset *s, size_t i, sh_fpval *fp);

/* ID of entry i in *id (valid until the next call), its length in *len.
 * Return 0, SH_ENOMEM or SH_EIO. */
int sh_fpset_id(struct sh_fpset *s, size_t i, const char **id,
    size_t *len);

/* The IDs of entries a and b in id[0], len[0] and id[1], len[1], both
 * valid until the next call.  Return 0, SH_ENOMEM or SH_EIO. */
int sh_fpset_ids(struct sh_fpset *s, size_t a, size_t b, const char *id[2],
    size_t len[2]);

/* After the last add: the join (join.h) over all entries, with nthreads
 * threads in memory, one within a budget, its tables reported to pg
 * (NULL: none); then the IDs of the entries in pairs, if left in their
 * files, read back (sh_fpload_ids: its lines reported to pg too).
 * Return 0 or an error of sh_join, sh_join_ext or sh_fpload_ids, whose
 * file is then s->failed. */
int sh_fpset_join(struct sh_fpset *s, const struct sh_plan *plan,
    int nthreads, const struct sh_shard *shard,
    const struct sh_progress *pg);

/*
 * After the last add, instead of the join: the pair of the entries with
 * IDs a[0..alen) and b[0..blen), in either order (a pair of an ID with
 * itself is ignored).  Return 0, SH_EUNKNOWN
 * (no such ID), SH_EDUPID (two entries have the same ID, entry s->dup
 * among them: found when the map is built, at the first call), SH_ERANGE
 * (2^32 - 1 entries or more), SH_ENOMEM or SH_EIO.
 */
int sh_fpset_given(struct sh_fpset *s, const char *a, size_t alen,
    const char *b, size_t blen);

/* After the last add, for a caller that reads entries at random
 * without a join: within a budget, the store flushed for it (the join
 * and the pairs do it themselves).  Return 0 or SH_EIO. */
int sh_fpset_ready(struct sh_fpset *s);

/* After the last add, instead of the join: the pair of entries a < b,
 * found elsewhere (the band route), in any order, repeats left out when
 * read; within a budget, into an external sort of half of it.  Return 0,
 * SH_ENOMEM or SH_EIO. */
int sh_fpset_pair(struct sh_fpset *s, uint32_t a, uint32_t b);

/* sh_fpset_given for the pair line p[0..len) (near/pairline.h).  Return
 * as sh_fpset_given, or an error of sh_pairline_parse. */
int sh_fpset_given_line(struct sh_fpset *s, const char *p, size_t len);

/*
 * The pairs, one per call, in order of (earlier entry, later entry), each
 * once: *a < *b and their distance.  Return 1, 0 at the end, or SH_ENOMEM,
 * SH_EIO.
 */
int sh_fpset_next(struct sh_fpset *s, uint32_t *a, uint32_t *b, int *dist);

#endif

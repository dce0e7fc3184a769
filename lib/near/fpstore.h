/*
 * Fingerprints with their IDs, in input order, kept in unnamed temporary
 * files rather than in memory (sh_tmpfile, base/io.h): 16 bytes per
 * fingerprint plus its ID on disk, a few buffers of 64 KiB in memory.
 * For the joins that must fit a memory budget.
 */
#ifndef SH_FPSTORE_H
#define SH_FPSTORE_H

#include <stdint.h>
#include <stdio.h>

#include "base/fpval.h"

struct sh_fpstore {
	FILE *fps, *offs, *ids;	/* u64 fingerprints, u64 ID ends, IDs */
	uint64_t n, idlen;
	uint64_t at;		/* sh_fpstore_nextid: end of the last ID */
	uint64_t rd;		/* fingerprints read from the mapping */
	int mapped;		/* the files mapped, each a NULL map when
				   that failed (read with pread then) */
	const unsigned char *map[3];	/* fps, offs, ids */
	size_t maplen[3];
	unsigned char *wb[3];	/* what the adds wrote, not yet in the
				   files: a call per buffer, not per add */
	size_t wn[3];
};

/* Open an empty store in tmpdir.  Return 0 or SH_EIO.  Closing NULL does
 * nothing. */
int sh_fpstore_open(struct sh_fpstore *s, const char *tmpdir);
void sh_fpstore_close(struct sh_fpstore *s);

/* Append fp with ID id[0..idlen).  Return 0 or SH_EIO. */
int sh_fpstore_add(struct sh_fpstore *s, sh_fpval fp, const char *id,
    size_t idlen);

/* Read the fingerprints (from the mapping below, where there is one), or
 * the IDs (into *buf, grown, *cap bytes, the
 * length in *len), from the first, one per call, after the adds:
 * sh_fpstore_rewind, then sh_fpstore_next or sh_fpstore_nextid (1, 0 at
 * the end, SH_ENOMEM, SH_EIO).  The two cursors are independent. */
int sh_fpstore_rewind(struct sh_fpstore *s);
int sh_fpstore_next(struct sh_fpstore *s, sh_fpval *fp);
/* The next fingerprints, at most max of them, at *v: in the mapping, or
 * read into buf (room for max).  Return how many (0 at the end) or
 * SH_EIO. */
long sh_fpstore_read(struct sh_fpstore *s, sh_fpval *buf, size_t max,
    const sh_fpval **v);
int sh_fpstore_nextid(struct sh_fpstore *s, char **buf, size_t *cap,
    size_t *len);

/* Ask for what sh_fpstore_id(s, i) will read, to be read soon: the
 * offsets, or with ids the ID bytes (which reads the offsets).  A hint,
 * for the mapped store. */
void sh_fpstore_prefetch(struct sh_fpstore *s, uint64_t i, int ids);

/* Random access, after sh_fpstore_rewind, by position: the cursors are
 * not moved.  At the first, the three files are mapped read-only, so a
 * lookup is a copy from the page cache, not a system call (pread where a
 * mapping fails).  Their pages are the kernel's cache of the files, not
 * the process's memory: they are given back under memory pressure.  The
 * fingerprint of entry i: return 0 or SH_EIO. */
int sh_fpstore_fp(struct sh_fpstore *s, uint64_t i, sh_fpval *fp);

/* The ID of entry i into *buf (grown, *cap bytes), its length in *len.
 * Return 0, SH_ENOMEM or SH_EIO. */
int sh_fpstore_id(struct sh_fpstore *s, uint64_t i, char **buf,
    size_t *cap, size_t *len);

#endif

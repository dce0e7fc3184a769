/*
 * File I/O the library shares: whole writes to a descriptor, unnamed
 * temporary files, and the copy of a descriptor to its end.
 */
#ifndef SH_IO_H
#define SH_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * Write all of p[0..len) to fd at its current offset, again after a
 * short write or EINTR.  len may be 0 (nothing is written).  Return 0 or
 * SH_EIO (errno set); on error some of p may have been written.
 */
int sh_write_all(int fd, const void *p, size_t len);

/*
 * The same at offset off, the descriptor's offset unchanged (pwrite);
 * and the reading of all of p[0..len) from offset off, a read past the
 * end being SH_EIO (errno EIO).  Return 0 or SH_EIO (errno set).
 */
int sh_pwrite_all(int fd, const void *p, size_t len, uint64_t off);
int sh_pread_all(int fd, void *p, size_t len, uint64_t off);

/*
 * An unnamed temporary file in tmpdir (NULL or "": /tmp), open for
 * reading and writing, into *f: it is created as tmpdir/sh-tmp.XXXXXX
 * and unlinked at once, so nothing is left behind whatever ends the
 * process.  The caller owns *f and fcloses it.  Return 0 or SH_EIO
 * (errno set; ENAMETOOLONG when the path does not fit 4 KiB).
 */
int sh_tmpfile(const char *tmpdir, FILE **f);

/* What sh_drain did: its last chunk read is held when writing it
 * failed, or when stop ended the copy.  The caller sets stop and ctx
 * first. */
#define SH_DRAIN_CHUNK 65536
struct sh_drain {
	int (*stop)(void *ctx);	/* NULL, or asked of each chunk read before
				   it is copied (set by another thread, say):
				   1 ends the copy, that chunk held */
	void *ctx;
	uint64_t done;		/* bytes written to the copy */
	size_t nheld;		/* bytes of held read but not in the copy */
	int writing;		/* the error was in writing */
	int stopped;		/* stop ended the copy before fd's end */
	char held[SH_DRAIN_CHUNK];
};

/*
 * Copy what descriptor fd reads, to its end or until d->stop says 1, to
 * descriptor to, a chunk at a time.  Return 0, or SH_EIO (errno set)
 * with d->writing 0 when reading fd failed, 1 when writing to did.
 * After a failed write or a stop, to's first d->done bytes,
 * d->held[0..d->nheld) and what fd has not given yet are, in order, all
 * that fd gives (bytes of to past d->done may be any).
 */
int sh_drain(int fd, int to, struct sh_drain *d);

#endif

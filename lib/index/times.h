/*
 * The add times of a segment's IDs (sh-index(5)): "tim-N" beside
 * "seg-N", written with it, so that sh-index expire knows when each ID
 * came.  Readers of the index never need it; writers carry the times
 * through merges and read them to expire.  Shared by the writer and no
 * one else, like ixfile.h.
 *
 * The file: a magic of 8 bytes, the version (1) and the count n of IDs,
 * 8 bytes each, little-endian; n times of 4 bytes, seconds since the
 * epoch (UTC), one per ID in the segment's order (entries as stored, the
 * IDs of an entry in their order); the least and the greatest time, 4
 * bytes each (both 0 when n is 0); then the XXH64 of all that, 8 bytes.
 */
#ifndef SH_TIMES_H
#define SH_TIMES_H

#include <stddef.h>
#include <stdint.h>

#include "base/hash.h"

/* Writing a times file to fd, n times; a zeroed struct is not begun. */
struct sh_timesw {
	int fd;
	uint64_t want, n;	/* times announced, and put */
	uint32_t min, max;
	int err;		/* the first write error, kept */
	struct sh_hash64_state h;
	size_t len;
	unsigned char buf[65536];
};

/* Start writing n times to fd (empty, open for writing); then put each
 * time in order, then end, which writes what is left and returns 0,
 * SH_EIO (errno set) or SH_ECORRUPT when the times put are not n. */
void sh_times_begin(struct sh_timesw *t, int fd, uint64_t n);
void sh_times_put(struct sh_timesw *t, uint32_t v);
int sh_times_end(struct sh_timesw *t);

/* A times file read: time i of n; a segment written before add times
 * were kept has none, and every one of its IDs the time given. */
struct sh_times {
	const unsigned char *p;	/* the n times; NULL: all are fixed */
	uint64_t n;
	uint32_t fixed, min, max;
	void *map;
	size_t maplen;
};

/*
 * Map the times file path, which must hold n times, and check it whole
 * (magic, version, size, order of least and greatest, checksum); when
 * there is no such file, every time is fixed.  Return 0, SH_EIO (errno
 * set), SH_ENOTREG, SH_EMAGIC, SH_EVERSION, SH_ETRUNC, SH_ECORRUPT or
 * SH_ENOMEM; *t then holds nothing.  Cost: reads the file once.
 */
int sh_times_open(struct sh_times *t, const char *path, uint64_t n,
    uint32_t fixed);
void sh_times_close(struct sh_times *t);

static inline uint32_t
sh_times_at(const struct sh_times *t, uint64_t i)
{
	const unsigned char *q;

	if (t->p == NULL)
		return t->fixed;
	q = t->p + 4 * i;
	return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
	    (uint32_t)q[3] << 24;
}

/* Whether path is a regular file with a times file's magic. */
int sh_times_is(const char *path);

#endif

/*
 * Where decoding may start in a compressed file, and a decoded byte
 * range read from there, so that one record of a large archive is read
 * back without decoding the file before it.
 *
 * A gzip file may be a run of members, each a whole gzip stream (wget,
 * Heritrix and Common Crawl write a .warc.gz as one member a record);
 * decoding may start at any member's first byte.  The map holds each
 * member's start: its offset in the compressed file (coff) and in the
 * decoded stream (doff).  Nothing here inflates: the file is decoded by
 * its decompressor run as a child (base/zpipe.h), fed by this module's
 * own reads of the file.  A member starts at compressed offset p > 0
 * when bytes p.. are a gzip member header (1f 8b 08 and a flag byte
 * without its reserved bits) and the 8 bytes before p, the previous
 * member's trailer, hold the CRC-32 (base/crc32.h) and the length mod
 * 2^32 of the decoded bytes since the previous member's start, as
 * gzip(1) checks them: the compressed bytes are scanned for headers as
 * they are fed, the decoded ones checked as they come, in one pass over
 * each, so that header bytes inside deflate data (a stored .gz, say)
 * are no start.  A trailer of zeros (an empty member's) is taken only
 * where the compressed bytes show the empty member whole, and a member
 * only when it is no longer than its decoded bytes stored (its header,
 * a quarter more and 72 bytes: gzip and zlib write none longer), so
 * that a later member of the same few bytes ends none before it.  A
 * member not told so (from another encoder) leaves the map without its
 * start and those after it: reading from the start before costs more,
 * and reads the same bytes.  A file of one member, of another kind
 * (bzip2, xz, zstd) or not compressed has the one start (0, 0).
 */
#ifndef SH_ZMAP_H
#define SH_ZMAP_H

#include <stddef.h>

struct sh_zmap;

/*
 * The map of the file open on fd (read with pread(2) from offset 0 to
 * its end: fd's offset is not used, nor moved) into *m, the caller's to
 * free.  Its kind is told by its first bytes (base/zpipe.h: sh_z_kind).
 * Return 0; SH_EIO (errno set: reading fd, or starting the decompressor,
 * ENOENT when it is not found); SH_ENOMEM; or SH_EZ when the
 * decompressor failed (a truncated or corrupt file), with msg[0..cap)
 * (cap > 0) its first message, as sh_zpipe_close gives it.  *m is NULL
 * on error.  Cost: the file decoded once by its decompressor, its
 * decoded bytes' CRC-32 computed (a gzip file only), and 16 bytes of
 * memory a member (up to 32 while the map is built: the array grows by
 * doubling), and while it is built 24 bytes for each header read ahead
 * of the decoded bytes that end its member (about 300 KiB of the file:
 * the decompressor's buffers) and 128 KiB of buffers; a file of another
 * kind is read for its first bytes alone.
 */
int sh_zmap_build(struct sh_zmap **m, int fd, char *msg, size_t cap);

/* The kind of the file mapped (SH_Z_*), and its member starts (1 for
 * every kind but a gzip file of several members). */
int sh_zmap_kind(const struct sh_zmap *m);
size_t sh_zmap_count(const struct sh_zmap *m);

/* Member start i (i < sh_zmap_count): its compressed and its decoded
 * offset, in the order of the file. */
void sh_zmap_start(const struct sh_zmap *m, size_t i,
    unsigned long long *coff, unsigned long long *doff);

/*
 * The same map built from the decoded bytes of the file open on fd as
 * another reads them (its own decompressor run, say): sh_zmap_begin
 * into *z, the decoded bytes given in order, from the first, to
 * sh_zmap_data, and sh_zmap_finish after the last, which gives the map
 * into *m (the caller's to free) and frees z; or sh_zmap_abort.  The
 * compressed bytes are read with pread(2) as the decoded ones come, a
 * little ahead of them.  A file of another kind has its one start, its
 * bytes not looked at.  Return 0; SH_EIO (errno set: reading fd);
 * SH_ENOMEM; or for sh_zmap_data and sh_zmap_finish, the first error of
 * the calls before (then no map).  Memory: as sh_zmap_build's, with
 * the headers of 64 KiB and twice the member read ahead.  The map is
 * the one sh_zmap_build makes of the same file.
 */
struct sh_zmapper;
int sh_zmap_begin(struct sh_zmapper **z, int fd);
int sh_zmap_data(struct sh_zmapper *z, const void *d, size_t n);
int sh_zmap_finish(struct sh_zmapper *z, struct sh_zmap **m);
void sh_zmap_abort(struct sh_zmapper *z);

/*
 * Where to start decoding to read decoded byte off: the last member
 * start at or before off (of members starting at one decoded offset,
 * such as empty ones, the last), its compressed offset into *coff and
 * off less its decoded offset into *skip.  For a file not compressed,
 * *coff = off and *skip = 0.  Cost: a binary search.
 */
void sh_zmap_find(const struct sh_zmap *m, unsigned long long off,
    unsigned long long *coff, unsigned long long *skip);

void sh_zmap_free(struct sh_zmap *m);

/*
 * Read n decoded bytes into buf, skip bytes after compressed offset
 * coff of the file open on fd, of kind (SH_Z_*; coff a member start of
 * a gzip file, 0 for the other compressed kinds), as sh_zmap_find gives
 * them.  Not compressed (SH_Z_NONE): pread(2) of n bytes at coff + skip.
 * Else the decompressor, run as a child, is fed by pread(2) from coff
 * (fd's offset is not used), the first skip bytes it writes are dropped
 * and the n after them kept; it is waited for: no child is left behind.
 * A gzip file is fed one member at a time, to the next member header
 * after coff, where the input ends: gzip decodes the member whole and
 * checks its CRC, so that the compressed bytes read are those of the
 * members the range lies in and at most a sixteenth more (and 256
 * bytes).  Were that header inside deflate data (a stored .gz), gzip
 * fails at the cut having written less than the trailer there says, and
 * the member is decoded again, fed on to the end of the file; so is a
 * file of another kind: then the decompressor is ended as soon as the
 * range is read, before it checks what follows.  Return 0; SH_ECHANGED
 * when the file holds fewer than skip + n decoded bytes after coff;
 * SH_EIO (errno set: reading fd, or starting the decompressor);
 * SH_ENOMEM; or SH_EZ, the decompressor failed where the range lies
 * (the file corrupt or cut short there, or coff no member start), with
 * msg[0..cap) (cap > 0) its message.
 */
int sh_zrange_read(int fd, int kind, unsigned long long coff,
    unsigned long long skip, void *buf, size_t n, char *msg, size_t cap);

/* A range of sh_zranges_read: n decoded bytes skip bytes after member
 * start coff into buf; got, how many were read (n, or fewer where the
 * file ends); tag, the caller's, left as it is. */
struct sh_zrange {
	unsigned long long coff, skip;
	void *buf;
	size_t n, got, tag;
};

/*
 * The ranges r[0..n) of the gzip file open on fd (coff member starts,
 * as sh_zmap_find gives them), sorted here by coff and skip, read by one
 * decompressor run: fed from each coff, in order, to the member start
 * whose trailers say the decoded bytes reach the largest skip + n of
 * that coff's ranges, then from the next coff on, so that gzip decodes
 * and checks whole members and the compressed bytes read are those of
 * the members the ranges lie in (and, for each coff, up to a sixteenth
 * more and 256 bytes, as sh_zrange_read).  Return 0, every range read
 * (its got less than n only where the file ends); else nothing is to be
 * taken from the buffers, and each range is to be read by
 * sh_zrange_read, which tells what is wrong: SH_ECHANGED (the members of
 * one coff reach into the next one's, or the trailers lie: a header
 * inside deflate data, the file changed), SH_EZ (the decompressor
 * failed: msg[0..cap) says why), SH_EIO (errno set) or SH_ENOMEM.
 * Cost: one decompressor run, its input fed and its output copied.
 */
int sh_zranges_read(int fd, struct sh_zrange *r, size_t n, char *msg,
    size_t cap);

#endif

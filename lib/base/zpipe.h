/*
 * Compressed streams, read as the system's own decompressor writes them:
 * gzip (multi-member files such as a .warc.gz included), bzip2, xz and
 * zstd are told by their magic bytes, and decoded by "gzip -dc",
 * "bzip2 -dc", "xz -dc" or "zstd -dc" run as a child process, as tar and
 * man do, so that nothing but libc is linked.  The program is looked
 * for in PATH.
 *
 * The child reads the compressed bytes from a descriptor (a regular
 * file, at its offset) or from a pipe that a thread fills (a stream
 * whose first bytes were read to tell its kind), and writes the decoded
 * bytes to a pipe the caller reads.  Its messages go to a pipe of their
 * own: sh_zpipe_close gives the first line of them.  Every descriptor
 * made here is close-on-exec, so no other child holds them open.  A
 * child is never left behind: sh_zpipe_close waits for it; if the
 * caller dies first, the child's next write fails (SIGPIPE or EPIPE)
 * and it ends.
 */
#ifndef SH_ZPIPE_H
#define SH_ZPIPE_H

#include <sys/types.h>

#include <stddef.h>
#include <stdio.h>

/* The kinds of stream; SH_Z_NONE is not compressed. */
enum { SH_Z_NONE, SH_Z_GZIP, SH_Z_BZIP2, SH_Z_XZ, SH_Z_ZSTD };

/* The bytes sh_z_kind needs to tell every kind. */
#define SH_Z_MAGIC 6

/* The kind of a stream whose first bytes are p[0..len) (fewer than
 * SH_Z_MAGIC: those there are, which may tell too little). */
int sh_z_kind(const void *p, size_t len);

/* Whether byte c may start a compressed stream (then SH_Z_MAGIC bytes
 * are needed to tell). */
int sh_z_first(int c);

/* The program of kind: "gzip", "bzip2", "xz" or "zstd"; NULL for
 * SH_Z_NONE. */
const char *sh_z_name(int kind);

struct sh_zpipe {
	int kind;
	pid_t pid;		/* the decompressor; 0: none (a plain stream
				 * fed back, SH_Z_NONE) */
	int out;		/* read end of what it writes: the decoded
				 * stream, the caller's to read and close */
	int err;		/* read end of its messages; -1: none */
};

/*
 * Start the decompressor of kind (not SH_Z_NONE) reading descriptor fd
 * from its offset to its end (fd is not closed here: the child has a
 * copy).  Return 0 with z->out to read, or SH_EIO (errno set; ENOENT
 * when the program is not found).
 */
int sh_zpipe_open(struct sh_zpipe *z, int kind, int fd);

/*
 * The same for stream fp, of which prefix[0..n) has been read already:
 * a thread writes those bytes, then the rest of fp, to the
 * decompressor, and closes fp at its end when own != 0 (never read fp
 * again).  With kind SH_Z_NONE no program runs: z->out gives the bytes
 * back as they were.  Return 0, SH_EIO (errno set) or SH_ENOMEM.
 */
int sh_zpipe_feed(struct sh_zpipe *z, int kind, FILE *fp, const void *prefix,
    size_t n, int own);

/*
 * When the file *fp (open at its start) is compressed, by its first
 * bytes, start its decompressor, close *fp and put in its place a stream
 * of the decoded bytes, the caller's to fclose before sh_zpipe_close;
 * else leave it as it is, z->kind SH_Z_NONE.  Return 0, or SH_EIO (errno
 * set) or SH_ENOMEM, *fp then closed.
 */
int sh_zpipe_decode(FILE **fp, struct sh_zpipe *z);

/*
 * After z->out is closed: end the decompressor (at once, when whole is
 * 0: the stream was not read to its end) and wait for it.  Return 0,
 * or, when whole != 0 and it failed, SH_EZ with msg[0..cap) (cap > 0)
 * the first line of its messages without its name and the stream's
 * ("unexpected end of file"), or else how it ended ("exit status 1",
 * "killed by signal 9").
 */
int sh_zpipe_close(struct sh_zpipe *z, int whole, char *msg, size_t cap);

#endif

/*
 * Fingerprint lines of a regular file read into a list by several
 * threads: the join's input, which one thread would parse while the
 * other cores wait (a quarter of a 100-million join on 2 cores).
 *
 * The IDs may be left in the files while the join runs, and only those
 * of the entries in pairs read back after it: the join then holds 8
 * bytes per fingerprint instead of 16 plus the IDs (IDs of 10 bytes: a
 * third of its memory; URLs: most of it).
 */
#ifndef SH_FPLOAD_H
#define SH_FPLOAD_H

#include <stdint.h>
#include <stdio.h>

#include "base/progress.h"
#include "base/threads.h"
#include "near/fplist.h"

/* A line that is no fingerprint line: its number in the file (from 1)
 * and the error of sh_fpline_parse; for the first of a share of the
 * file, p[0..len) holds its first SH_FPLOAD_HEAD bytes at most, else p
 * is NULL. */
#define SH_FPLOAD_HEAD 512
typedef void sh_fpload_bad_fn(void *ctx, unsigned long long line, int err,
    const char *p, size_t len);

/* A file whose IDs were left in it: what it was when read, and its
 * entries, share by share. */
struct sh_fpfile {
	char *path;
	struct sh_fpstat {
		unsigned long long dev, ino, mtime_s, mtime_ns;
		long long size;
	} was;
	size_t first;			/* its first entry */
	int nshares;
	size_t count[SH_THREADS_MAX];	/* entries of each share */
};

/* The files of a list built without IDs; zero is empty. */
struct sh_fpfiles {
	struct sh_fpfile *v;
	size_t n, cap;
};

void sh_fpfiles_free(struct sh_fpfiles *fs);

/*
 * Add the fingerprint lines of the regular file f (open at its start;
 * path opens it again; NULL, or f not a regular file: one thread reads
 * it, as it comes) to l, in order, as reading them one by one with
 * base/lines and near/fpline would: each of nthreads threads reads the
 * lines that start in its share of the bytes (at least 1 MiB; a stream
 * of path, which must be the same file, else one thread reads it all),
 * into a list of its own, then appended to l.  A line that is not one
 * is left out and given to bad, in order, once all are read.  The lines
 * read are reported to pg ("lines", every 4096).
 *
 * With files (else NULL), the IDs are left in the file (l->noids, set
 * here, must be so for every file of l), which path must name and which
 * is added to files for sh_fpload_ids.
 *
 * Memory: l, plus the lists of the other threads until they are
 * appended.  Return 0, SH_ENOMEM, SH_EIO (errno set), SH_EGZIP (the
 * file starts with the gzip magic: nothing is read) or, with files,
 * SH_ENOTREG (f is not a regular file, or path NULL).
 */
int sh_fpload(struct sh_fplist *l, FILE *f, const char *path, int nthreads,
    struct sh_fpfiles *files, sh_fpload_bad_fn *bad, void *ctx,
    const struct sh_progress *pg);

/*
 * Of a list l built without IDs from files: the IDs of the entries whose
 * bit is set in have (l->n bits; l takes it, sh_fplist_ids_for), read
 * back from the files by as many threads as read them.  Each file must
 * be as it was read (same file, size and modification time, and the
 * same fingerprint lines), else SH_ECHANGED.  Lines are reported to pg.
 * Memory: the IDs read, and those of one file's shares twice while they
 * are put together.  Return 0, SH_ENOMEM, SH_EIO (errno set) or
 * SH_ECHANGED; on error *path names the file.
 */
int sh_fpload_ids(struct sh_fplist *l, const struct sh_fpfiles *files,
    uint64_t *have, const struct sh_progress *pg, const char **path);

#endif

/*
 * Fingerprint lines of a regular file read into a list by several
 * threads: the join's input, which one thread would parse while the
 * other cores wait (a quarter of a 100-million join on 2 cores).
 */
#ifndef SH_FPLOAD_H
#define SH_FPLOAD_H

#include <stdio.h>

#include "base/progress.h"
#include "near/fplist.h"

/* A line that is no fingerprint line: its number in the file (from 1)
 * and the error of sh_fpline_parse. */
typedef void sh_fpload_bad_fn(void *ctx, unsigned long long line, int err);

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
 * Memory: l, plus the lists of the other threads until they are
 * appended.  Return 0, SH_ENOMEM, SH_EIO (errno set) or SH_EGZIP (the
 * file starts with the gzip magic: nothing is read).
 */
int sh_fpload(struct sh_fplist *l, FILE *f, const char *path, int nthreads,
    sh_fpload_bad_fn *bad, void *ctx, const struct sh_progress *pg);

#endif

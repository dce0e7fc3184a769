/*
 * Verification against a file of documents (-v docs), for sh-dist and
 * sh-near: pass one over the file, the verifier over it, and the
 * diagnostics of a pair that cannot be verified.
 */
#ifndef VDOCS_H
#define VDOCS_H

#include <stdio.h>

#include "text/docmap.h"
#include "verify/verify.h"
#include "docopt.h"

struct vdocs {
	char **names;		/* the files of -v, in order */
	size_t nnames, cap;
	const char *path;	/* what messages call them */
	const struct docopt *o;
	struct sh_docmap *m;
	struct sh_fp *fp;
	struct sh_verify *vf;
	/* Records reported bad and skipped, and of an ID seen before. */
	unsigned long long nbad, ndups;
};

/*
 * Add the documents of -v arg to d: the file arg ("-": standard input),
 * or with "@list" the files that list names, a line each, as written
 * (an empty line names none).  Return arg.  A list that cannot be read, or names no file, ends the program
 * with status 2.
 */
const char *vdocs_name(struct vdocs *d, const char *arg);

/*
 * Map the documents of the files named to d, in order (a regular file
 * read again where it lies; a pipe, or a compressed file read through
 * its decompressor, once, its records kept in an unnamed temporary file
 * in TMPDIR as the reader returns them: docmap.h), read and cut with
 * the options of o (loaded, docopt_load), as token lists when tokens !=
 * 0, and make the verifier comparing them by measure, keeping about
 * budget bytes of features in memory and the rest in a temporary file
 * in TMPDIR.  With several files, line and paragraph IDs are
 * "NAME:N", as sh-fp gives them; of records of one ID the first is
 * read, the others counted and named once.  A bad record is reported
 * and sets *status to 2, or ends the program with status 2 when
 * reading cannot go on; so do running out of memory and a decompressor
 * that fails.
 *
 * With drain != 0, for a caller that will read all of standard input
 * before anything else, a pipe on standard input is meanwhile copied by
 * a second thread into an unnamed temporary file in TMPDIR, so that the
 * pipe's writer is not held up while the documents are read.  When the
 * pipe ends first, the copy takes its place.  Else the copy ends once
 * the documents are read (or, with a warning, when it fills the disk),
 * and standard input becomes a pipe that a thread fills with the part
 * copied and then the rest of the original, as it comes.  Failing to
 * read it ends the program with status 2.
 */
void vdocs_open(struct vdocs *d, struct docopt *o, int tokens, int measure,
    size_t budget, int drain, int *status);

/*
 * Report error e of sh_verify_ids or sh_verify_line about the document
 * id[0..idlen) (col: its column, for token-list errors), met on line
 * name:line of the pairs (name NULL: none): on stderr, one line.  Return
 * 2 for the errors of one pair; end the program with status 2 for the
 * others (I/O, memory, a fingerprint not the document's).
 */
int vdocs_error(const struct vdocs *d, int e, const char *name,
    unsigned long long line, const char *id, size_t idlen, size_t col);

void vdocs_close(struct vdocs *d);

#endif

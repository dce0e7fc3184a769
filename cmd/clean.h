/*
 * sh-near -Z: the deduplicated dataset.  Once the keep decisions are
 * made (keep.h), the records of the documents of -v are read again, in
 * input order, and written byte for byte in their own framing
 * (text/recwrite.h): those that stay to the first file of -Z, those
 * removed to the second, when given, each with the ID of the copy that
 * stays (a note: text/recwrite.h); or with -Z all:FILE every record to
 * FILE, each document with the ID of the copy that stays and its fate,
 * kept or removed.  With -F, the IDs (names) of the files, a line each,
 * the notes as TAB columns.  Every error ends the program with status 2
 * and a one-line message.
 */
#ifndef CLEAN_H
#define CLEAN_H

#include <stdint.h>
#include <stdio.h>

#include "near/fpset.h"
#include "vdocs.h"

struct clean {
	const char *path[2];	/* -Z, given once or twice; NULL: not */
	int all;		/* -Z all:FILE, path[0] FILE */
	FILE *out[2];
	const struct vdocs *vd;
};

/* With opt (a letter, "-Z"), the documents of vd, read in framing
 * recmode, are read again: end the program with status 2 when one
 * cannot be (standard input, a pipe), naming why they are. */
void clean_again(const struct vdocs *vd, int recmode, const char *opt,
    const char *why);

/* Take -Z path ("all:FILE": every record, noted, to FILE); a third, or
 * another with all:, ends the program with status 2. */
void clean_set(struct clean *c, const char *path);

/*
 * Before the run: with -Z given, check that it goes with -g or -u
 * (mode, 'g' or 'u'), not with -gg (components), and that the
 * documents of vd, read in framing recmode, can be read again (regular files, compressed or not;
 * not standard input nor a pipe) and are none of the files -Z names,
 * and that all: goes without an index (-i: the copy that stays may be
 * one of the index); create the files of -Z.
 */
void clean_open(struct clean *c, int mode, int components,
    const struct vdocs *vd, int recmode);

/*
 * Write the records of the entries of s whose anchors rep (verify/keep.h)
 * tell where they go: rep[i] == i stays, any other goes (against entry
 * rep[i], or SH_KEEP_OUT: against the index, no note); a document of
 * the files that no entry names stays, as do the bytes that are no
 * documents, both without a note.  The files of -Z are closed.
 */
void clean_write(struct clean *c, struct sh_fpset *s, const uint32_t *rep);

/*
 * -Y newest, max: read the documents of vd again, in input order, for
 * the value of field (text/recfield.h) of the record of each entry of s:
 * taken as a date (date != 0) or a number, into rank[i] (NaN where the
 * record has none, or no record is the entry's).  Return the number of
 * NaNs.  Cost: a pass over the files, each record read whole.
 */
size_t clean_ranks(const struct vdocs *vd, struct sh_fpset *s, int date,
    const char *field, double *rank);

#endif

/*
 * sh-near -Z: the deduplicated dataset.  Once the keep decisions are
 * made (keep.h), the records of the documents of -v are read again, in
 * input order, and written byte for byte in their own framing
 * (text/recwrite.h): those that stay to the first file of -Z, those
 * removed to the second, when given; with -F, the IDs (names) of the
 * files, a line each.  Every error ends the program with status 2 and a
 * one-line message.
 */
#ifndef CLEAN_H
#define CLEAN_H

#include <stdint.h>
#include <stdio.h>

#include "near/fpset.h"
#include "vdocs.h"

struct clean {
	const char *path[2];	/* -Z, given once or twice; NULL: not */
	FILE *out[2];
	const struct vdocs *vd;
};

/* Take -Z path; a third ends the program with status 2. */
void clean_set(struct clean *c, const char *path);

/*
 * Before the run: with -Z given, check that it goes with -g or -u
 * (mode, 'g' or 'u'), not with -gg (components), and that the
 * documents of vd, read in framing recmode, can be read again (regular files, compressed or not;
 * not standard input nor a pipe) and are none of the files -Z names;
 * create the files of -Z.
 */
void clean_open(struct clean *c, int mode, int components,
    const struct vdocs *vd, int recmode);

/*
 * Write the records of the entries of s whose anchors rep (verify/keep.h)
 * tell where they go: rep[i] == i stays, any other goes; a document of
 * the files that no entry names stays, as do the bytes that are no
 * documents.  The files of -Z are closed.
 */
void clean_write(struct clean *c, struct sh_fpset *s, const uint32_t *rep);

#endif

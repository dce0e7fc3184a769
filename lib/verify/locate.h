/*
 * Document locations between the two stacks.  At an add (sh-index build
 * and add -v), where each document of a map lies, as a band index keeps
 * it (index/segment.h: sh_segloc): its file's absolute path, its
 * framing, its record's bytes in the file as decoded and, for a
 * compressed file, the member to start decoding from (base/zmap.h).  At
 * a query, an index hit's location handed to the verifier's map
 * (text/docmap.h: sh_docmap_locate), so that its document is read where
 * it lies rather than looked for among the documents given.
 */
#ifndef SH_LOCATE_H
#define SH_LOCATE_H

#include <stddef.h>

#include "index/index.h"
#include "text/docmap.h"

struct sh_locator;

/*
 * A locator of the documents of m (scanned whole: after its last scan),
 * whose records are of framing mode (SH_REC_*), into *lc, the caller's
 * to free.  Return 0 or SH_ENOMEM.
 */
int sh_locator_new(struct sh_locator **lc, struct sh_docmap *m, int mode);

/*
 * Where the document of ID id[0..idlen) lies into *l, its path valid
 * until lc is freed.  Return 1; 0 when m has no such document, or its
 * file has no place to be read from again (a pipe, standard input: the
 * first such file's name into lc's sh_locator_unplaced); SH_EIO (errno
 * set: the file's real path, or reading it), SH_ENOMEM, SH_EZ (its
 * decompressor failed: msg[0..cap) says why) or an error of
 * sh_docmap_where.  Cost: a lookup in m; the first time a file is met,
 * its real path, and for a compressed file its member map: the one m
 * was given as it read the file (sh_docmap_set_zmap), else built
 * (sh_zmap_build: the file decoded once more).
 */
int sh_locator_find(struct sh_locator *lc, const char *id, size_t idlen,
    struct sh_segloc *l, char *msg, size_t cap);

/* The first file of m that had a document asked for but no place, or
 * NULL. */
const char *sh_locator_unplaced(const struct sh_locator *lc);

void sh_locator_free(struct sh_locator *lc);

/*
 * Hand the location that ix keeps for hit h, whose ID is id[0..len), to
 * map m (NULL: none), which reads the document there when asked for by
 * the name written into name[SH_DOCMAP_NAME] (sh_docmap_locate, _name:
 * never a document of m's own files, even of that ID), and its file's
 * path to *file (valid until ix is closed; NULL when ix keeps none)
 * unless file is NULL.  Return 1 with m not NULL and a location handed
 * to it; 0 when ix keeps none, or m is NULL: the document is m's of ID
 * id; SH_ENOMEM or SH_ECORRUPT (where names the segment).
 */
int sh_locate_hit(struct sh_index *ix, const struct sh_hit *h,
    const char *id, size_t len, struct sh_docmap *m, const char **file,
    char *name, char *where);

#endif

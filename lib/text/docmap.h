/*
 * An offset table over a file of documents, to read any document again by
 * its ID when the file is far larger than memory.  One pass over the file
 * keeps, for each record, a key and where its bytes lie (sh_rec off and
 * size); a lookup finds the key, seeks back and parses the record again.
 *
 * The key is the record's line number in the framings whose IDs are line
 * numbers (line, para), else the 64-bit hash of its ID; records whose IDs
 * share a hash are read in file order and their IDs compared, so of
 * several records with one ID the first in the file is found.
 * Memory: 24 bytes per record (the table grows by doubling: up to 48
 * while it is built), and the reader's buffers for the largest record,
 * for the map and for each clone.
 */
#ifndef SH_DOCMAP_H
#define SH_DOCMAP_H

#include "text/record.h"

struct sh_docmap;

/*
 * A new, empty map into *m over the regular file path, opened here and
 * closed by sh_docmap_free, read with record options o (not copied).
 * With the file framing (SH_REC_FILE), where a file is one document,
 * path is a directory instead: the document of an ID is the file the ID
 * names once unescaped (record.h), below path when relative, read whole;
 * there is nothing to scan.  Return 0, SH_EIO (errno set), SH_ENOTREG,
 * SH_ENOMEM or SH_EINVAL (the file framing, and path no directory).
 */
int sh_docmap_open(struct sh_docmap **m, const char *path,
    const struct sh_recopt *o);

/*
 * Pass one: read the next record and keep its place.  Return 1 with *rec
 * set, 0 at the end (the table then sorted), or an error of
 * sh_reader_next; a skippable one (sh_rec_skippable) leaves that record
 * out, and the scan goes on.  With the record option skip set, those are
 * not returned but counted.
 */
int sh_docmap_scan(struct sh_docmap *m, struct sh_rec *rec);

/* The reader of pass one, for a caller telling what the file holds
 * (its first line, in->head): NULL with the file framing, where the
 * files are read when asked for. */
const struct sh_reader *sh_docmap_reader(const struct sh_docmap *m);

/*
 * The first document whose ID is id[0..idlen) into *rec, valid until the
 * next call.  Call after the last scan.  Return 1, 0 when there is none,
 * SH_EIO (errno set), SH_ENOMEM or SH_ECHANGED (the file no longer
 * holds that record where pass one found it).  Cost: a binary search and
 * reading the record.  The table is sorted once, O(n log n), by the scan
 * that meets the end of the file (else by the first call).
 */
int sh_docmap_get(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_rec *rec);

/*
 * A clone of m into *c, for another thread to call sh_docmap_get: the
 * same file opened again, read on its own, and m's table, borrowed (sorted
 * now, when it is not yet).  Call after the last scan; free c before m.
 * Return 0, SH_EIO (errno set), SH_ECHANGED (the path now names another
 * file) or SH_ENOMEM.
 */
int sh_docmap_clone(struct sh_docmap *m, struct sh_docmap **c);

/*
 * After the last scan: how many records have the ID of a record before
 * them (never found: sh_docmap_get finds the first); the IDs of the
 * first three of them in the file, quoted, ", " between, into ids[cap]
 * (cut to fit).  Return that count, or an error of reading a record
 * again (as sh_docmap_get).  Cost: O(records), and a record's ID
 * compared for each pair of records whose IDs share a hash.
 */
long long sh_docmap_dups(struct sh_docmap *m, char *ids, size_t cap);

/* Records kept, and bad records skipped. */
size_t sh_docmap_count(const struct sh_docmap *m);
unsigned long long sh_docmap_skipped(const struct sh_docmap *m);

void sh_docmap_free(struct sh_docmap *m);

#endif

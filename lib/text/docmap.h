/*
 * An offset table over files of documents, to read any document again by
 * its ID when the files are far larger than memory.  One pass over each
 * file keeps, for each record, a key and where its bytes lie (sh_rec off
 * and size); a lookup finds the key, seeks back and parses the record
 * again.  A stream that cannot be read again where it lies (a
 * decompressor's output) is kept instead as the reader returns it: its
 * records' IDs and texts (after charset conversion and HTML reduction)
 * go to an unnamed temporary file, from which a lookup reads them.
 *
 * The key is, in the framings whose IDs are line numbers (line, para),
 * the record's line number, with prefix ("NAME:N") the number of its
 * file (in the order added; of files of one name, the first) above it:
 * without prefix the files' lines of one number share a key, and the
 * first file's is found.  In the other framings the key is the 64-bit
 * hash of the ID; records whose IDs share a hash are read in the order
 * of the files and of their records and their IDs compared, so of
 * several records with one ID the first is found.
 * Memory: 24 bytes per record (the table grows by doubling: up to 48
 * while it is built), with prefix up to 24 bytes per file (the files by
 * name, a hash table), and the reader's buffers for the largest record,
 * for the map and for each clone; for located records (sh_docmap_locate)
 * see there.  Up to 2^20 files of up to 2^44 bytes
 * each.
 */
#ifndef SH_DOCMAP_H
#define SH_DOCMAP_H

#include <stddef.h>
#include <stdint.h>

#include "text/recloc.h"
#include "text/record.h"

struct sh_docmap;

/*
 * A new map into *m with no file yet, read with record options o (not
 * copied); with prefix, the IDs of the line and para framings are
 * "NAME:N" (as sh-fp gives them when it reads several files); texts of
 * streams kept in an unnamed file in tmpdir (NULL: /tmp).  Return 0 or
 * SH_ENOMEM.
 */
int sh_docmap_new(struct sh_docmap **m, const struct sh_recopt *o,
    int prefix, const char *tmpdir);

/*
 * Add the regular file path to m, opened here and closed by
 * sh_docmap_free; scan it next.  With the file framing (SH_REC_FILE),
 * where a file is one document, path is a directory instead (the only
 * one of m): the document of an ID is the file the ID names once
 * unescaped (record.h), below path when relative, read whole (through
 * its decompressor when it is compressed: base/zpipe.h); there is
 * nothing to scan.  Return 0, SH_EIO (errno set), SH_ENOTREG,
 * SH_ENOMEM, SH_ERANGE (too many files, or a file too large) or
 * SH_EINVAL (the file framing, and path no directory or not the first).
 */
int sh_docmap_add(struct sh_docmap *m, const char *path);

/*
 * Add stream fp (not closed here; read by the scan that comes next,
 * never again) named name (copied) to m: its records are kept in
 * the temporary file as the scan reads them.  Return 0, SH_EIO (errno
 * set: the temporary file), SH_ENOMEM, SH_ERANGE or SH_EINVAL (the file
 * framing).
 */
int sh_docmap_add_stream(struct sh_docmap *m, FILE *fp, const char *name);

/* sh_docmap_new (no prefix, /tmp) and sh_docmap_add of path. */
int sh_docmap_open(struct sh_docmap **m, const char *path,
    const struct sh_recopt *o);

/*
 * Pass one, over the file added last: read its next record and keep its
 * place.  Return 1 with *rec set, 0 at the end, or an error of
 * sh_reader_next (or SH_EIO, errno set, writing a stream's record to
 * the temporary file); a skippable one (sh_rec_skippable) leaves that
 * record out, and the scan goes on.  With the record option skip set,
 * those are not returned but counted.
 */
int sh_docmap_scan(struct sh_docmap *m, struct sh_rec *rec);

/* The reader of pass one over the file added last, for a caller telling
 * what the file holds (its first line, in->head): NULL once its scan
 * has ended, and with the file framing, where the files are read when
 * asked for. */
const struct sh_reader *sh_docmap_reader(const struct sh_docmap *m);

/*
 * The first document whose ID is id[0..idlen) into *rec, valid until the
 * next call.  Call after the last scan.  An ID is looked for among the
 * scanned files' records; a name of sh_docmap_name reads that located
 * record (sh_docmap_locate) alone, by sh_recloc_read with m's record
 * options (a buffer for each map and clone): in the framings not
 * numbered (l->mode not SH_REC_LINE or SH_REC_PARA) its ID must be the
 * one it was located under; in the numbered ones rec->id is that ID (m's
 * copy) rather than the line number that the record's file alone gives.
 * Return 1, 0 when there is none, SH_EIO (errno set), SH_ENOMEM or
 * SH_ECHANGED (the file no longer holds that record where pass one found
 * it, or a located record's bytes are no record of that size or of
 * another ID: the file changed, or the location is wrong) or SH_EZ (the
 * decompressor failed: with the file framing, or reading a located
 * record, sh_docmap_zmsg tells why), or an error of sh_recloc_read for a
 * located record (sh_docmap_failed names its file).  Cost: a binary
 * search (and for "NAME:N" a hash lookup of NAME, whatever the number of
 * files) and reading the record (and opening its file, when the record
 * before was of another); for a located record, reading it as
 * sh_recloc_read does.  The table is sorted once, O(n log n), by the
 * first call after a scan (or by sh_docmap_dups).
 */
int sh_docmap_get(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_rec *rec);

/*
 * Where a record lies, as sh_docmap_where gives it: its file (src, 0 for
 * the first added, and path its name as added, m's until sh_docmap_free),
 * whether that file was a stream (kept: a decompressor's output or a
 * pipe, its records read from the temporary file), its bytes [off, off +
 * size) in the file as read (decoded, for a stream: as the reader gave
 * them, sh_rec off and size) and its line number: in the framings that
 * number lines (line, para) the record's; in the others, for a stream,
 * the line the reader gave (sh_rec line), and for a regular file 0 (the
 * table does not hold it).
 */
struct sh_docplace {
	size_t src;
	const char *path;
	int kept;
	long long off, size;
	unsigned long long line;
};

/*
 * After the last scan: where the first record of the scanned files
 * whose ID is id[0..idlen) lies, into *w.  A record whose key
 * (sh_docmap_key) no other record has is taken without being read, so
 * that in the framings not numbered an ID of the same 64-bit hash as that record's (another ID,
 * one no record has) is taken for it; where records share the key they
 * are read again, in the order of the files and of their records, and
 * their IDs compared, as sh_docmap_get does.  Return 1; 0 when no
 * record has that ID; SH_EINVAL with the file framing (no table); or,
 * reading records again, an error of sh_docmap_get (for a stream,
 * SH_EIO, errno set: reading its record's head in the temporary file).
 * Cost: a binary search (the table sorted once, as for sh_docmap_get),
 * for a stream a pread(2) of its record's head, and the records of a
 * shared key read.
 */
int sh_docmap_where(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_docplace *w);

/*
 * Add to m that the document of ID id[0..idlen) (copied) lies at l
 * (copied, but for l->path, which must outlive m and its clones): a
 * located record, its number into *n, read by sh_docmap_get when asked
 * for by its name (sh_docmap_name), never in place of a scanned record
 * of that ID nor of another located one: a page archived under the ID
 * of a page given is another document.  The same ID at the same place
 * (path, framing, offset and size) again is the record located before,
 * of the same number.  May be called before or after scans and
 * lookups, by the caller of the original map alone (not on a clone),
 * never while a clone reads: the clones borrow the located records, as
 * they do the table (and so read those located after them too).
 * Return 0; SH_ENOMEM; SH_ERANGE (2^32 - 1 located records); SH_EINVAL
 * (the file framing, l->mode SH_REC_FILE, or m a clone).  Memory: for
 * each located record, an entry of 80 bytes (up to 160: the array of
 * entries grows by doubling), the ID's bytes and a NUL (the same
 * doubling), and 32 to 64 bytes of hash slots (base/hmap.h), besides
 * the buffers of the reads, for the map and for each clone: struct
 * sh_recbuf, the largest located record's bytes.  Cost: a hash lookup,
 * the records of the same 64-bit hash of ID compared.
 */
int sh_docmap_locate(struct sh_docmap *m, const char *id, size_t idlen,
    const struct sh_recloc *l, uint32_t *n);

/*
 * Read ahead the records located since the last call, that sh_docmap_get
 * may read them from memory: of each gzip file, those of its members
 * read by one decompressor run (base/zmap.h: sh_zranges_read) rather
 * than one run a record.  The bytes read ahead by the call before are
 * let go, unless none was located since (then nothing changes).  A file that cannot be read so (not gzip, a member that is no
 * start, a decompressor that fails) is left to be read a record at a
 * time, which tells what is wrong.  By the caller of the original map
 * alone, never while a clone reads (as sh_docmap_locate).  Memory: the
 * records' bytes, up to SH_DOCMAP_AHEAD (past it, records are read one
 * by one), and 64 bytes a record while they are read.  The records read
 * are the same whether or not this is called.
 */
#define SH_DOCMAP_AHEAD ((size_t)64 << 20)
void sh_docmap_ahead(struct sh_docmap *m);

/*
 * The name of located record n into name[SH_DOCMAP_NAME], NUL after it;
 * its length returned.  A name begins with a line feed, which no ID
 * holds, so it is never a scanned record's ID: a caller keeping
 * documents by their IDs keeps a located one by its name apart.
 */
#define SH_DOCMAP_NAME 10
size_t sh_docmap_name(uint32_t n, char *name);

/*
 * The member map (base/zmap.h) of the file of the stream added last
 * (sh_docmap_add_stream), built as it was read, for sh_docmap_zmap to
 * give: m's from now on, to free.  Return 0, or SH_EINVAL (the last
 * file no stream, a map given it already, or m a clone: z is the
 * caller's still).
 */
struct sh_zmap;
int sh_docmap_set_zmap(struct sh_docmap *m, struct sh_zmap *z);

/* The member map given for file src (0 for the first added), or NULL:
 * m's, valid until it is freed. */
const struct sh_zmap *sh_docmap_zmap(const struct sh_docmap *m,
    size_t src);

/*
 * After an error of sh_docmap_get or sh_docmap_where on m (not its
 * clones, which have their own): sh_docmap_failed, the path of the
 * located record whose read failed, when the last such error was of a
 * located record, NULL when it was not (or no such error yet); and
 * sh_docmap_zmsg, the decompressor's message of the last located read
 * that failed with SH_EZ, "" when none has.  Both valid until the next
 * call on m.
 */
const char *sh_docmap_failed(const struct sh_docmap *m);
const char *sh_docmap_zmsg(const struct sh_docmap *m);

/*
 * A clone of m into *c, for another thread to call sh_docmap_get: the
 * same files opened again as it reads them, on its own, and m's table,
 * located records and temporary file, borrowed (the table sorted now,
 * when it is not yet).
 * Call after the last scan; free c before m.  Return 0 or SH_ENOMEM.
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

/*
 * The key of the table that a record of ID id[0..idlen) has (0, which
 * no record has, for an ID that no numbered framing gives): for
 * sh_docmap_walk's callers to find a record's ID among theirs.  IDs of
 * one 64-bit hash share a key: only numbered IDs (line, para) are told
 * apart exactly.
 */
uint64_t sh_docmap_key(const struct sh_docmap *m, const char *id,
    size_t idlen);

/*
 * Whether some record has the key of ID id[0..idlen) (sh_docmap_key): a
 * record of that ID, or (rarely) of another ID of the same 64-bit hash;
 * for a name of sh_docmap_name, whether that located record is.  Call
 * after the last scan.  Cost: a binary search (the table sorted once,
 * as for sh_docmap_get); nothing is read.  The file framing holds every
 * ID.
 */
int sh_docmap_holds(struct sh_docmap *m, const char *id, size_t idlen);

/* A record of file src (0 for the first added) whose key is key and
 * whose bytes are [off, off + size) of the file as read (decoded, for a
 * compressed file; the framing included, as sh_rec gives them). */
typedef int sh_docmap_walk_fn(void *ctx, size_t src, uint64_t key,
    long long off, long long size);

/*
 * After the last scan, with no clone in use meanwhile: call fn(ctx, ...)
 * for each record of m in the order of the files and of their records,
 * until it returns nonzero.  Return fn's nonzero return, else 0 or
 * SH_EIO (errno set: reading the temporary file).  Cost: the table
 * sorted twice, by place and back by key, O(n log n).  The file
 * framing (no table) calls fn for none.
 */
int sh_docmap_walk(struct sh_docmap *m, sh_docmap_walk_fn *fn, void *ctx);

/* A key of the table, and the file (0 for the first added) of its
 * first record, for sh_docmap_keys. */
typedef int sh_docmap_key_fn(void *ctx, uint64_t key, size_t src);

/*
 * After the last scan, with no clone in use meanwhile: call fn(ctx, key,
 * src) for each key of m's records in increasing order, src the file of
 * the first record of that key (the one sh_docmap_get finds, for the IDs
 * of that key), until fn returns nonzero.  Return fn's nonzero return,
 * else 0.  Cost: the table sorted, once, as for sh_docmap_get; no record
 * read.  The file framing (no table) calls fn for none.
 */
int sh_docmap_keys(struct sh_docmap *m, sh_docmap_key_fn *fn, void *ctx);

/* Records kept, and bad records skipped. */
size_t sh_docmap_count(const struct sh_docmap *m);
unsigned long long sh_docmap_skipped(const struct sh_docmap *m);

/* What the readers of the scans ended counted (struct sh_reader in
 * record.h), summed over the files: WARC responses skipped for their
 * HTTP status or media type, documents skipped as binary, records in a
 * charset the C library does not know (read as UTF-8). */
struct sh_docmap_counts {
	unsigned long long nstatus, ntype, nbinary, nbadcs;
};
const struct sh_docmap_counts *sh_docmap_counts(const struct sh_docmap *m);

void sh_docmap_free(struct sh_docmap *m);

#endif

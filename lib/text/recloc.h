/*
 * One record read back by its location, without reading the file
 * before it: the record's bytes read where they lie (through the
 * file's decompressor from a member start, for a compressed file:
 * base/zmap.h) and parsed as the reader parses them in the file, so
 * that the record is the one sh_docmap_get gives for its ID, with the
 * same record options (charset conversion, HTML reduction, main text).
 */
#ifndef SH_RECLOC_H
#define SH_RECLOC_H

#include "text/record.h"

/*
 * Where a record lies: its file, its framing (SH_REC_*, not
 * SH_REC_FILE), its bytes [off, off + size) in the file as decoded
 * (sh_rec off and size: the framing included), and where decoding
 * starts to read them: compressed offset coff and skip decoded bytes
 * from there (sh_zmap_find of off); for a file not compressed coff =
 * off and skip = 0.  line is the record's line number in the framings
 * that number them (line, para: the ID is that number; 0 gives 1), not
 * read otherwise.
 */
struct sh_recloc {
	const char *path;
	int mode;
	unsigned long long off, size, coff, skip;
	unsigned long long line;
};

/* What reading keeps between records: the file open last, the
 * record's bytes, the reader over them.  Zero it before the first
 * read; free it with sh_recloc_free. */
struct sh_recbuf {
	char *path;		/* the file open, on fd, of kind */
	int fd, kind, open;
	char *buf;
	size_t cap;
	struct sh_reader rd;
	FILE *fp;		/* the reader's stream over buf; NULL: none */
	char msg[256];		/* the decompressor's message, after SH_EZ */
};

/*
 * The record at l into *rec, parsed with the options of o (its mode
 * aside: l->mode is), its off and size those of the file, valid until
 * the next call with b.  The file is opened when it is not the one b
 * read last.  Return 1; SH_ECHANGED when the bytes there are no longer
 * one record of that size (the file changed, or the location is
 * wrong); SH_EIO (errno set: opening or reading the file); SH_ENOMEM;
 * SH_EZ (the decompressor failed: b->msg says why); SH_EINVAL
 * (SH_REC_FILE); or an error of sh_reader_next, a bad record's (never
 * one that pass one kept; for a WARC record, a record cut short is
 * SH_ECHANGED).  Cost: one open for a file other than the last; for a
 * compressed file, a decompressor run from coff and the compressed
 * bytes of the members the record lies in read (sh_zrange_read); the
 * record parsed.
 */
int sh_recloc_read(const struct sh_recloc *l, const struct sh_recopt *o,
    struct sh_rec *rec, struct sh_recbuf *b);

/* The decoded bytes to read for the record at l: its size, and a byte
 * more but for a WARC record (its framing tells where it ends), so that
 * a record that would go on past the location is told. */
size_t sh_recloc_want(const struct sh_recloc *l);

/*
 * The record at l parsed from p[0..n), its bytes read elsewhere (n =
 * sh_recloc_want, or l->size where the file ended), as sh_recloc_read
 * parses those it reads; p must outlive the use of *rec.  Return as
 * sh_recloc_read; SH_ECHANGED when n < l->size.
 */
int sh_recloc_parse(const struct sh_recloc *l, const struct sh_recopt *o,
    const char *p, size_t n, struct sh_rec *rec, struct sh_recbuf *b);

/* Close and free what b holds; b may be read with again (zeroed). */
void sh_recloc_free(struct sh_recbuf *b);

#endif

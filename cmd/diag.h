/*
 * Messages about the lines and records of the input, which a wrong
 * input repeats for every line: the first DIAG_MAX are printed, "PROG:
 * NAME:LINE: MESSAGE", the others counted by kind (an SH_E* code), and
 * at exit one line a kind tells how many more there were.  When
 * the first line at fault looks like another format than the one read
 * (a WARC record, JSON Lines, binary bytes), one line says so.
 * Thread-safe.
 */
#ifndef DIAG_H
#define DIAG_H

#include <stddef.h>

#define DIAG_MAX 10

/* A message of kind e about line line of name (NULL: about no line):
 * the text of fmt, or sh_strerror(e) when fmt is NULL. */
void diag(int e, const char *name, unsigned long long line,
    const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Tell the messages left out now, kind by kind ("and N more: MESSAGE"),
 * and count again from 0: for a caller about to end with a message of
 * its own.  At exit, this is done anyway. */
void diag_done(void);

/* A document whose text holds invalid UTF-8: counted, the first one's
 * ID kept, and every ID written, a line each, to the file name (-U)
 * that diag_invalid_list opens (exit 2 when it cannot);
 * diag_invalid_report tells the count and that ID, once, and closes the
 * list (exit 2 when it could not be written). */
void diag_invalid_list(const char *name);
void diag_invalid(const char *id, size_t idlen);
void diag_invalid_report(void);

/* What a line was read as, for diag_looks and diag_plain: fingerprint
 * lines, documents (ID<TAB>TEXT lines), documents in JSON Lines, in
 * other lines (-l, -f para, -f nul), in WARC, whole files (-F), pairs
 * of IDs (sh-dist -v), pairs of fingerprints (sh-dist -p). */
enum {
	DIAG_FPLINES, DIAG_DOCS, DIAG_JSONDOCS, DIAG_LINES, DIAG_WARCDOCS,
	DIAG_FILEDOCS, DIAG_PAIRS, DIAG_FPPAIRS
};

/* The DIAG_* of documents read in record framing mode (text/record.h). */
int diag_docs(int mode);

/* Whether p[0..len), a line that is not what was expected (read as
 * fingerprint lines, documents, or documents in JSON Lines), looks like
 * another format: if so, say once what it looks like and what reads it
 * ("NAME: the input looks like WARC: fingerprint it first ...", or of
 * documents: "NAME: the documents look like WARC: read them with -f
 * warc"). */
void diag_looks(const char *name, const char *p, size_t len, int as);

/*
 * Whether p[0..len), the first bytes of the first line of the stream
 * name (at most DIAG_HEAD of them are looked at), read as as, shows
 * that it plainly holds another format: compressed data (gzip, bzip2,
 * xz, zstd), binary data (the magic number of a binary format, or
 * control bytes), WARC, JSON Lines, fingerprint lines, pairs of IDs
 * or documents, each where it is not the format read.  If so, say so in
 * one line, what it looks like and what reads it, and return 1: the
 * caller then reads no more of the stream and prints nothing of it.  A
 * line that is merely bad is not plainly another format.  The message
 * holds no byte of the input.
 */
#define DIAG_HEAD 512
int diag_plain(const char *name, const char *p, size_t len, int as);

/* diag_plain of the first line that the reader r of stream name read
 * (none yet: 0), as its framing reads documents. */
struct sh_reader;
int diag_reader(const char *name, const struct sh_reader *r);

/* The ID id[0..len) for a message, into out (size cap): control bytes
 * and bytes of no UTF-8 sequence as \xHH, cut with "..." to fit.
 * Return out. */
char *diag_bytes(const char *id, size_t len, char *out, size_t cap);

#endif

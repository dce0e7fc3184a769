/*
 * Records written again, byte for byte, each to one of two outputs
 * (sh-near -Z: the records that stay, and those removed): the writer
 * beside the reader of text/record.h, for every framing but SH_REC_FILE.
 * The caller names the documents of a stream, in the order of the
 * stream, by where the reader found them (sh_rec off and size, as
 * sh_docmap_walk gives them), and the output each goes to; every other
 * byte of the stream goes to output 0 as it is: the lines that are no
 * documents (bad records skipped), the blank lines between paragraphs,
 * and in WARC the records of other types, but for those that go with a
 * document.
 *
 * WARC: the writer frames the records itself, as the reader does (by
 * Content-Length), each record taking in the blank lines after its
 * block.  A record that is no document goes with a document next to it
 * (the record just before it, or any after it up to the next document)
 * when they are linked: when the WARC-Record-ID of one is a
 * WARC-Concurrent-To of the other, or both are concurrent to one
 * record.  So a response's request (before it, as wget and Common Crawl
 * write it, or after it, as Heritrix does) and its metadata go where
 * the response goes; the warcinfo, the responses that are no document
 * with their requests, the resources, go to output 0.
 *
 * Nothing is changed and nothing added, but for this: when the last
 * record of a stream lacks its end (a last line without its delimiter,
 * a paragraph without a blank line after it, a WARC record without the
 * blank lines after its block), the end is written to its output before
 * the next bytes written there (of the next stream), so that the
 * records stay apart.  So output 0 holds the stream without the records
 * of output 1, and output 1 those records, in order.
 *
 * Memory: a buffer of 64 KiB; with WARC, two records besides (the one
 * read, and one held while where it goes is not known).
 */
#ifndef SH_RECWRITE_H
#define SH_RECWRITE_H

#include <stdio.h>

struct sh_recwrite;

/*
 * A writer into *w of records of framing mode (SH_REC_*, not
 * SH_REC_FILE) to out[0] and out[1] (not closed here; NULL: that
 * output's bytes are not written).  Return 0, SH_EINVAL (SH_REC_FILE)
 * or SH_ENOMEM.
 */
int sh_recwrite_new(struct sh_recwrite **w, int mode, FILE *const out[2]);

/* Read stream in (not closed here) next, from where it is: its offsets
 * count from there. */
void sh_recwrite_start(struct sh_recwrite *w, FILE *in);

/*
 * The document whose bytes are [off, off + size) of the stream goes to
 * output o (0 or 1); the bytes before it since the document before, to
 * output 0 (WARC: or where the records linked to a document go).
 * Return 0, SH_ECHANGED (no record lies there: the stream is not the
 * one read before, or the documents are not in its order), SH_EWARC (a
 * WARC record's framing lost), SH_ENOMEM or SH_EIO (errno set: reading,
 * when the stream's error flag is set, else writing).
 */
int sh_recwrite_doc(struct sh_recwrite *w, long long off, long long size,
    int o);

/* The rest of the stream, to output 0 (WARC: or with the document
 * before); return as sh_recwrite_doc. */
int sh_recwrite_end(struct sh_recwrite *w);

void sh_recwrite_free(struct sh_recwrite *w);

#endif

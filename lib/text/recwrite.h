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
 * A document may carry a note (sh_recwrite_note): the ID of the copy
 * that stays, and whether it is that copy, added where each framing has
 * room for it, nothing else changed:
 *   WARC         header lines before the blank line that ends the WARC
 *                header, "Sh-Near-Kept-Copy: ID" then "Sh-Near-Fate: kept"
 *                (or removed), ending as that blank line does; on the
 *                records that go with the document too;
 *   JSON Lines   members at the end of the object, "sh_near_kept_copy"
 *                (the ID unescaped, a JSON string) then "sh_near_fate";
 *   the others   TAB columns at the end of the record's last line of text
 *                (before its line end, or NUL): the ID, then the fate.
 * The ID is written as given (the escaped form of record.h, which holds
 * no TAB, CR or LF), but in JSON.
 *
 * Memory: a buffer of 64 KiB; with WARC, two records besides (the one
 * read, and one held while where it goes is not known); with a note or
 * with sh_recwrite_hold, the document read.
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

/* The names of the notes, and the two fates. */
#define SH_RECWRITE_WARC_COPY "Sh-Near-Kept-Copy"
#define SH_RECWRITE_WARC_FATE "Sh-Near-Fate"
#define SH_RECWRITE_JSON_COPY "sh_near_kept_copy"
#define SH_RECWRITE_JSON_FATE "sh_near_fate"
#define SH_RECWRITE_KEPT "kept"
#define SH_RECWRITE_REMOVED "removed"

/*
 * The next document given to sh_recwrite_doc carries a note: the ID
 * id[0..len) (copied) of the copy that stays and, with fate 0 (kept)
 * or 1 (removed), its fate; fate -1 leaves the fate out.  A note is
 * written only to an output that is not NULL.  Return 0 or SH_ENOMEM.
 */
int sh_recwrite_note(struct sh_recwrite *w, const char *id, size_t len,
    int fate);

/* Read each document whole, for sh_recwrite_last (WARC records are read
 * so anyway). */
void sh_recwrite_hold(struct sh_recwrite *w);

/* The bytes of the document last given to sh_recwrite_doc, as read,
 * framing included (WARC: its header and block, without the blank lines
 * after it), valid until the next call on w; only with a note on it or
 * with sh_recwrite_hold (else empty or another's). */
void sh_recwrite_last(const struct sh_recwrite *w, const char **p,
    size_t *len);

/* The rest of the stream, to output 0 (WARC: or with the document
 * before); return as sh_recwrite_doc. */
int sh_recwrite_end(struct sh_recwrite *w);

void sh_recwrite_free(struct sh_recwrite *w);

#endif

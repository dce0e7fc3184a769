/*
 * Verification of candidate pairs: the exact similarity (similar.h) of two
 * documents named by their IDs in a pair line, the documents looked up in
 * a map (docmap.h), each cut once and its features kept.
 */
#ifndef SH_VERIFY_H
#define SH_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "fp/fingerprint.h"
#include "fp/similar.h"
#include "text/docmap.h"
#include "text/record.h"

struct sh_verify;

/*
 * New verifier looking documents up in m and cutting them with f (neither
 * copied nor freed here), as token lists when tokens != 0, comparing them
 * by measure (SH_SIM_*).  Each document is read and cut once: its
 * features are kept, in memory while they take less than budget bytes (8
 * bytes a feature, 16 when the measure reads weights; for the edit
 * measure, its characters instead, 4 bytes each, and its features only
 * to check its fingerprint, not kept), past it in an
 * unnamed temporary file in tmpdir (NULL: /tmp), read back for each pair;
 * its ID stays in memory.  Should the file fail (a full disk), later
 * documents are cut again for each pair.  The results do not depend on
 * any of this.  NULL when out of memory.
 */
struct sh_verify *sh_verify_new(struct sh_docmap *m, struct sh_fp *f,
    int tokens, int measure, size_t budget, const char *tmpdir);
void sh_verify_free(struct sh_verify *v);

/*
 * Similarity, in millionths, of the pair on line p[0..len),
 * "ID1<TAB>ID2" and any further TAB-separated fields, into *sim.  Return
 * 0; SH_EFIELDS (no TAB); SH_ENODOC, or a token-list error of sh_fp_each
 * (SH_EWEIGHT, SH_EEMPTYTOK, SH_ERANGE, with *col the 1-based column in
 * the document's line), with *id, *idlen the first ID at fault (in p);
 * an error of sh_docmap_get; or SH_ENOMEM.  Token lists have no
 * characters: by the edit measure, their pairs are 0.
 */
int sh_verify_line(struct sh_verify *v, const char *p, size_t len,
    uint32_t *sim, const char **id, size_t *idlen, size_t *col);

/*
 * Similarity, in millionths, of the documents of IDs id[0] and id[1]
 * (lengths len[0], len[1]) into *sim.  With fp (else NULL), each document
 * is checked to make the fingerprint fp[i] under f's options, which
 * catches fingerprints made with other options: its fingerprint is kept
 * with its features when it is cut, so the check is the same whichever
 * pair, or thread, cut it (a document cut by sh_verify_line, without
 * one, is not checked).  Return 0, or SH_ENODOC, SH_EFPDIFF or an error
 * of sh_verify_line with *which the index (0, 1) of the document at
 * fault.  The edit measure needs no more memory than the longer
 * document's characters, 24 bytes each, kept for the next pairs.
 */
int sh_verify_ids(struct sh_verify *v, const char *const id[2],
    const size_t len[2], const sh_fpval *fp, uint32_t *sim, int *which,
    size_t *col);

/*
 * Pairs of similarity below min (millionths) are of no interest to the
 * caller: sh_verify_ids may give them any similarity below min, which it
 * finds faster (sh_sim_min).  By default 0: every similarity measured.
 */
void sh_verify_floor(struct sh_verify *v, uint32_t min);

/*
 * The similarity of entries a and b of set s (near/fpset.h), as
 * sh_verify_ids gives it for their IDs and fingerprints, which are
 * checked (or as sh_verify_pairs measured it); their IDs into id and
 * len, valid until the next call on s.  Return as sh_verify_ids, or an
 * error of the set with *which -1.  The features of an entry once cut
 * are found again by its number (4 bytes an entry up to the largest
 * asked for), so every call on v is of the same set.
 */
struct sh_fpset;
int sh_verify_entries(struct sh_verify *v, struct sh_fpset *s, uint32_t a,
    uint32_t b, uint32_t *sim, const char *id[2], size_t len[2], int *which,
    size_t *col);

/*
 * Let sh_verify_ahead cut documents on n threads (at most
 * SH_THREADS_MAX): the first with the verifier's map and fingerprinter,
 * each other one with a clone of the map (sh_docmap_clone) and a
 * fingerprinter of its own made with options o, which must outlive v.
 * A thread that cannot have them is left out.  Return 0, or SH_ENOMEM
 * (v is as before).
 */
int sh_verify_threads(struct sh_verify *v, const struct sh_fpopt *o,
    int n);

/* The map v looks documents up in (its threads' clones borrow what is
 * added to it: text/docmap.h). */
struct sh_docmap *sh_verify_map(const struct sh_verify *v);

/* The threads that sh_verify_ahead cuts on: 1 before sh_verify_threads
 * (or when it made none). */
int sh_verify_nthreads(const struct sh_verify *v);

/*
 * Queue the document of ID id[0..len) to be cut ahead, unless the cache
 * or the queue holds that ID (or one that shares its hash), or v has
 * fewer than 2 threads, or the cache keeps no more.  sh_verify_ahead
 * reads the located documents of the map ahead (text/docmap.h:
 * sh_docmap_ahead), then cuts the queued documents on the threads of
 * sh_verify_threads and
 * keeps them in the cache with their fingerprints, so that their pairs
 * find them cut; so does a queue of 16384 documents before it takes
 * another.  A document that cannot be read or cut is left to
 * sh_verify_ids for good, which meets the error again in the pairs'
 * order.  Memory: the IDs queued, the hashes of those that failed, and
 * per thread what sh_verify holds for 8 documents.
 */
void sh_verify_queue(struct sh_verify *v, const char *id, size_t len);
void sh_verify_ahead(struct sh_verify *v);

/* The same for entry e of set s (near/fpset.h), unless its features are
 * known to sh_verify_entries already; once cut, they are found by its
 * number, not by its ID. */
void sh_verify_queue_entry(struct sh_verify *v, struct sh_fpset *s,
    uint32_t e);

/*
 * Measure ahead, on the threads of sh_verify_threads, the pairs of entries
 * of s e[2 i], e[2 i + 1] (i below n) whose features are in the cache's
 * memory and made their fingerprints (cut ahead, for instance): the next
 * n calls of sh_verify_entries, when they ask for these pairs in this
 * order, give their answers without measuring; a call for another pair
 * ends them.
 * Memory: 16 bytes a pair.  Nothing is done with fewer than 2 threads, or
 * out of memory; the results do not depend on it.
 */
void sh_verify_pairs(struct sh_verify *v, struct sh_fpset *s,
    const uint32_t *e, size_t n);

/*
 * Where the text of a document came from and what it went through, for
 * sh_explain_write: the file and its framing (set by the caller), the
 * record's bytes in it (sh_rec off and size), and its html, charset
 * (copied, cut to fit; "" when taken as UTF-8) and csdetected
 * (record.h).
 */
struct sh_docsrc {
	const char *path;	/* not copied */
	int mode;		/* SH_REC_* */
	long long off, size;
	int html, csdetected;
	char charset[64];
};

/*
 * The first record of file path, read with record options o (not copied;
 * bad records skipped when o->skip is set), cut by f into v (its features
 * and its characters, SH_FVEC_BOTH, similar.h; as a token
 * list when tokens != 0), its ID copied into *id (NUL-terminated, the
 * caller's to free).  Return 1; 0 when the file holds no record; SH_EIO
 * (errno set) or SH_ENOMEM; a token-list error (see sh_verify_line), with
 * *line and *col saying where; or another error of sh_reader_next, with
 * *line where it was met.  On 1, the record's place and transformations
 * into *src (but its path and mode) unless src is NULL.
 */
int sh_verify_file(const char *path, const struct sh_recopt *o,
    struct sh_fp *f, int tokens, struct sh_fvec *v, char **id,
    unsigned long long *line, size_t *col, struct sh_docsrc *src);

/* The same for the document of ID id (NUL-terminated) in map m (its first
 * record of that ID), its ID into *idout.  Return 1; 0 when there is
 * none; SH_EIO, SH_ENOMEM, SH_ECHANGED (sh_docmap_get), or a token-list
 * error with *col saying where. */
int sh_verify_doc(struct sh_docmap *m, const char *id, struct sh_fp *f,
    int tokens, struct sh_fvec *v, char **idout, size_t *col,
    struct sh_docsrc *src);

#endif

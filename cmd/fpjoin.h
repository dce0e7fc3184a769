/*
 * sh-near's pairs before they are written: its input read into a
 * fingerprint set, then the pairs made by the join or taken from a file
 * of given pairs (-m).  Every error that stops the run ends the program
 * with status 2 and a one-line message.
 */
#ifndef FPJOIN_H
#define FPJOIN_H

#include "near/bands.h"
#include "near/fpset.h"
#include "near/plan.h"
#include "near/fplist.h"

/*
 * Read the fingerprint lines of the n operands name[0..n) into s, and,
 * with lines not NULL, each line whole into lines too.  With ids != 0
 * the IDs may be left in the operands' files (sh_fpset_files): for a
 * caller that needs only those of the entries in pairs.  Lines are read
 * by nthreads threads where s allows it.  Bad lines and files are
 * reported and set *status to 2.
 */
void fpjoin_read(struct sh_fpset *s, struct sh_fplist *lines, int n,
    char *const name[], int ids, int nthreads, int *status);

/* The plan for n fingerprints at distance k, r key blocks (0: chosen):
 * of the join (join != 0), or of the streaming filter; a bad one ends
 * the program with status 2. */
void fpjoin_plan(struct sh_plan *p, int k, int r, uint64_t n, int join);

/*
 * sh-near's pairs: the n operands name[0..n) read into s (and whole into
 * lines when not NULL), then the pairs of the band route with plan bp
 * (else NULL), its lines read in memory, when every line has a sketch
 * (near/bands.h, on nthreads threads); else, after a warning that names
 * the first line without one, or without bp, as fpjoin_read reads them
 * (ids as there), those given in the file given (not NULL,
 * fpjoin_given) or those of the join within k (r key blocks, one shard
 * when not NULL).  A sketch that is there but bad is reported and sets
 * *status to 2, as a bad line is.
 */
void fpjoin_pairs(struct sh_fpset *s, struct sh_fplist *lines,
    const struct sh_bandplan *bp, const char *given, int k, int r,
    const struct sh_shard *shard, int n, char *const name[], int ids,
    int nthreads, int *status);

/* The pairs of s: those of the file path (ID1<TAB>ID2... lines, "-" for
 * standard input), instead of a join. */
void fpjoin_given(struct sh_fpset *s, const char *path);

/* End the program on error e of s: "FILE: message" for a file s names,
 * "temporary file: message" for I/O within a budget. */
void fpjoin_fail(const struct sh_fpset *s, int e) __attribute__((noreturn));

#endif

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

/*
 * fpjoin_read for the band route: the lines into s, in memory, each
 * whole into lines too when not NULL, and the p->b band keys of each
 * line's sketch (near/bands.h) appended to *keys (the caller's to free).
 * Return 1 when every line had a sketch; else 0 with *keys NULL, after
 * a warning that names the first line without one and says that the
 * fingerprints are searched instead.  A sketch that is there but bad is
 * reported and sets *status to 2, as a bad line is.
 */
int fpjoin_read_bands(struct sh_fpset *s, struct sh_fplist *lines,
    const struct sh_bandplan *p, uint64_t **keys, int n,
    char *const name[], int *status);

/* The pairs of s: those of the file path (ID1<TAB>ID2... lines, "-" for
 * standard input), instead of a join. */
void fpjoin_given(struct sh_fpset *s, const char *path);

/* End the program on error e of s: "FILE: message" for a file s names,
 * "temporary file: message" for I/O within a budget. */
void fpjoin_fail(const struct sh_fpset *s, int e) __attribute__((noreturn));

#endif

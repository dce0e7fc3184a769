/*
 * sh-near's pairs before they are written: its input read into a
 * fingerprint set, then the pairs made by the join or taken from a file
 * of given pairs (-m).  Every error that stops the run ends the program
 * with status 2 and a one-line message.
 */
#ifndef FPJOIN_H
#define FPJOIN_H

#include "near/bands.h"
#include "near/classes.h"
#include "near/fpset.h"
#include "near/plan.h"
#include "near/linestore.h"

/*
 * Read the fingerprint lines of the n operands name[0..n) into s, and,
 * with lines not NULL, each line whole into lines too.  With ids != 0
 * the IDs may be left in the operands' files (sh_fpset_files): for a
 * caller that needs only those of the entries in pairs.  Lines are read
 * by nthreads threads where s allows it.  Bad lines and files are
 * reported and set *status to 2.
 */
void fpjoin_read(struct sh_fpset *s, struct sh_linestore *lines, int n,
    char *const name[], int ids, int nthreads, int *status);

/* The plan for n fingerprints at distance k, r key blocks (0: chosen):
 * of the join (join != 0), or of the streaming filter; a bad one ends
 * the program with status 2. */
void fpjoin_plan(struct sh_plan *p, int k, int r, uint64_t n, int join);

/*
 * The band route of sh-near: forced (-B), or chosen for a threshold
 * alone (alone: without -k, -i or -m) below SH_BANDS_BELOW: its
 * plan for threshold t (the text of -a, NULL when not given) into *p,
 * and p returned; else NULL.  -B without -a, or at a threshold that no
 * plan holds, ends the program with status 2.  With measure
 * SH_SIM_EDIT, the edit route at any threshold (near/bands.h,
 * sh_editplan): the sketches must then be of the characters (sh-fp
 * -BB), and without it of the features; a line of the other kind ends
 * the program with status 2.
 */
const struct sh_bandplan *fpjoin_route(struct sh_bandplan *p, int force,
    const char *threshold, uint32_t t, int alone, int measure);

/* What the classes take in memory, a line, at most. */
#define FPJOIN_CLASSBYTES 48

/* How sh-near's pairs are made (fpjoin_pairs). */
struct fpjoin_opt {
	const struct sh_bandplan *bp;	/* the band route's plan, or NULL */
	int must;		/* -B: every line must have a sketch */
	struct sh_bandgroups *groups;	/* the band route's groups instead
					   of its pairs, or NULL */
	const char *given;	/* -m: the pairs' file, or NULL */
	int k, r;		/* the join's distance and key blocks */
	const struct sh_shard *shard;	/* -P, or NULL */
	int ids;		/* IDs may be left in the files */
	int nthreads;
	struct sh_classes *classes;	/* the join's classes instead of
					   its pairs (in memory, no -m, no
					   -P), or NULL */
};

/*
 * sh-near's pairs: the n operands name[0..n) read into s (and whole into
 * lines when not NULL: an empty store, put on disk when s has a budget),
 * then, with o->bp, the band route (near/bands.h),
 * when every line has a sketch: its pairs into s (on o->nthreads threads
 * in memory; sorted on disk within the budget of s, sh_bandsort), or
 * with o->groups its groups into *o->groups, and then return 1 for the
 * groups.  Else, after a warning that names the first line without a
 * sketch (with o->must, an error that ends the program with status 2
 * instead), or without o->bp, as fpjoin_read reads them: the pairs
 * given in the file o->given (fpjoin_given), or those of the join within
 * o->k (o->r key blocks, o->shard), or with o->classes (and no shard)
 * the classes of the join into *o->classes (near/classes.h), and then
 * return 2: in memory, or within a budget when it holds
 * FPJOIN_CLASSBYTES a line (they are made in memory, the fingerprints
 * read back from disk; else the pairs are made).  Return 0 but for groups and classes.  A sketch
 * that is there but bad is reported and sets *status to 2, as a bad line
 * is.
 */
int fpjoin_pairs(struct sh_fpset *s, struct sh_linestore *lines,
    const struct fpjoin_opt *o, int n, char *const name[], int *status);

/* The pairs of s: those of the file path (ID1<TAB>ID2... lines, "-" for
 * standard input), instead of a join. */
void fpjoin_given(struct sh_fpset *s, const char *path);

/* End the program on error e of s: "FILE: message" for a file s names,
 * "temporary file: message" for I/O within a budget. */
void fpjoin_fail(const struct sh_fpset *s, int e) __attribute__((noreturn));

#endif

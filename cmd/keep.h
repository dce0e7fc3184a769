/*
 * sh-near's keep decisions (-g, -u): which copy of each family stays,
 * and the copy each other one is removed against (verify/keep.h), or
 * with -g given twice the connected components of the matches, as
 * before; their output written.  Every error that stops the run ends
 * the program with status 2 and a one-line message.
 */
#ifndef KEEP_H
#define KEEP_H

#include "near/fpset.h"
#include "near/linestore.h"
#include "text/docmap.h"
#include "verify/match.h"
#include "clean.h"
#include "figures.h"
#include "fpjoin.h"

/* -Y: which copy stays: the first, the longest text, the newest date,
 * the highest number (of a field, text/recfield.h). */
enum { KEEP_FIRST, KEEP_LONGEST, KEEP_NEWEST, KEEP_MAX };

struct keepopt {
	int mode;		/* 'g' or 'u'; 0: neither */
	int components;		/* -g twice */
	int decided;		/* -E: the operands are decisions */
	int rule;		/* KEEP_* */
	const char *rulearg;	/* -Y as given */
	const char *field;	/* of KEEP_NEWEST and KEEP_MAX; NULL: none
				 * named */
	const struct vdocs *vd;	/* -v */
	struct clean z;		/* -Z */
	struct figopt fig;	/* -R, -L */
};

/* Take -g or -u (ch): return ch; or -E, the decisions of -g read
 * instead of made: return 'g'. */
int keepopt_mode(struct keepopt *ko, int ch);

/* Take option ch with argument arg: -Y first, longest, newest,
 * newest:FIELD or max:FIELD (another rule ends the program with status
 * 2), -Z file (clean.h), -R and -L (figures.h).  Return 1, or 0 when ch
 * is not one. */
int keepopt_set(struct keepopt *ko, int ch, const char *arg);

/* After the options: check the field of -Y and those of -Z against the
 * mode and the documents vd (read in framing recmode), and create the
 * files of -Z (clean_open); -E goes with -Z alone of them, and needs IDs
 * of their own (not the numbers of lines or paragraphs); and those of -R
 * (figopt_check). */
void keepopt_check(struct keepopt *ko, const struct vdocs *vd,
    int recmode);

/*
 * The output of -g or -u: the operands name[0..n) read into s (whole
 * into lines for -u) and joined as jo says (fpjoin_pairs), the
 * decisions made with mt (and the index of lk for -u; with the rule
 * longest, the texts' lengths taken from the documents m; with newest
 * and max, the fields' values read from the files of -v), written to
 * standard output: for -g a line an entry, the ID of the copy it stays
 * with then its own; for -u the lines kept; with -Z, the records of
 * the documents, where they go (clean_write); with -R, the figures
 * (figures_write).  With -E, the operands' lines are the decisions
 * (verify/decisions.h): the records go where they say, and nothing else
 * is written.  Return 0 or an error for
 * the caller to report (lk->where names the file of an index error).
 */
int keep_run(struct keepopt *ko, struct sh_fpset *s,
    struct fpjoin_opt *jo, struct sh_matcher *mt,
    const struct sh_ixlook *lk, struct sh_linestore *lines,
    struct sh_docmap *m, int n, char *const name[], int *status);

#endif

/*
 * sh-near -R: the figures of a run of -g or -u (verify/figures.h),
 * written as a JSON object to the file -R names and as a short table on
 * standard error, with a warning for each file of the documents and
 * each host where one cluster holds more than the share of -L of the
 * documents (the template guard).  Every error ends the program with
 * status 2 and a one-line message.
 */
#ifndef FIGURES_H
#define FIGURES_H

#include <stdint.h>
#include <stdio.h>

#include "near/fpset.h"
#include "verify/match.h"
#include "vdocs.h"

/* -L's default: more than half. */
#define FIGURES_GUARD "0.5"

struct figopt {
	const char *path;	/* -R; NULL: no figures */
	FILE *out;
	const char *guard;	/* -L as given; NULL: FIGURES_GUARD */
	uint32_t share;		/* its millionths */
	const struct vdocs *vd;
};

/* Take option ch with argument arg: -R file, -L share (a bad share ends
 * the program with status 2).  Return 1, or 0 when ch is not one. */
int figopt_set(struct figopt *fo, int ch, const char *arg);

/* After the options: check them against the mode ('g', 'u' or 0), the
 * documents vd (-v; vd->names empty: none) and the files of -Z, zpath
 * (NULL: not given; created before), and create the file of -R. */
void figopt_check(struct figopt *fo, int mode, int components,
    const struct vdocs *vd, const char *const zpath[2]);

/* With -R: the figures of the entries of s and their anchors rep
 * (verify/keep.h), with the counts of mt, written; the guard's warnings
 * on standard error; the file of -R closed. */
void figures_write(struct figopt *fo, int mode, struct sh_fpset *s,
    const uint32_t *rep, const struct sh_matcher *mt);

#endif

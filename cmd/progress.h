/*
 * Progress of a long run on stderr, with --progress: about once a second
 * a line "PROGRAM: 1200000 documents, 110000/s", or for the tables of a
 * join "PROGRAM: table 3 of 10" (a library count of unknown total is
 * shown as the first); nothing otherwise.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

#include <time.h>

#include "base/progress.h"

/* Set by --progress (usage_init). */
extern int progress_on;

/* n items (what: "documents", "lines", "pairs", "queries") done so far;
 * cheap enough to call for each. */
void progress_items(const char *what, unsigned long long n);

/* With --progress, a line "PROGRAM: n what" at the end of a run. */
void progress_total(const char *what, unsigned long long n);

/* With --progress, a line "PROGRAM: what in 1.234 s", what having begun
 * at *t, which progress_clock set. */
void progress_clock(struct timespec *t);
void progress_took(const char *what, const struct timespec *t);

/* The report for a library operation (base/progress.h), NULL without
 * --progress. */
const struct sh_progress *progress_lib(void);

#endif

/*
 * sh-index build, add, delete, expire and merge: the input lines into batches for the index
 * writer (index/writer.h), each line with the band keys of its sketch
 * for band tables; within a budget, a batch is written as a segment
 * each time it fills a quarter of it.  With newonly (add -u), each line
 * is first looked up, under the writer's lock, in the index and among
 * the lines kept before it (sh-near -u -i's filter, match.h): only the
 * new ones are added, and printed once the index holds them; or with a
 * list file, written to it (through list ".tmp", synced before the
 * commit, renamed after), so that no failure after the commit can lose
 * them.  A failure after the commit (the list not written, the
 * MANIFEST in place but not synced) ends the program with status 3.
 * With documents (-v) on band tables, add -u verifies each line's
 * candidates against them instead (verify/vfilter.h): only the lines
 * with no candidate at or above the index's similarity are added.
 */
#ifndef IXADD_H
#define IXADD_H

#include <stdint.h>

#include "index/writer.h"
#include "near/bands.h"
#include "docopt.h"
#include "vdocs.h"

/*
 * The letters of the documents of add -u -v (for sh-index's getopt):
 * -v, -J, -t and sh-near's document options, but -l and -T, which are
 * sh-index's (-f line frames lines), and -f takes a framing.
 */
#define IXDOCS_LETTERS "AC:FGHI:J:M:Xef:tv:y:" DOCOPT_FEAT

/* The documents of an add, and the options they are read and compared
 * with. */
struct ixdocs {
	struct vdocs vd;	/* the files of -v */
	struct docopt o;
	int measure;		/* -J */
	int tokens;		/* -t */
};

void ixdocs_init(struct ixdocs *d);

/* Take option ch with argument arg (NULL for a flag) of IXDOCS_LETTERS:
 * return 1, or 0 when ch is not one of them.  A bad value ends the
 * program with status 2 and a diagnostic. */
int ixdocs_set(struct ixdocs *d, int ch, const char *arg);

/*
 * Write the lines of the n operands name[0..n) (stdin when n is 0) into
 * the index at path, as o says; bp->b is 0 for fingerprint tables, else
 * the plan of o's band tables.  With newonly and docs (else NULL) on
 * band tables, the documents are read before the lock is taken, and a
 * line's candidates verified against them.  Return on success; every
 * error ends the program with status 2 and one line, the writer's
 * segments not committed removed: a bad line (each reported), a bad
 * record of the documents or a candidate that cannot be verified (no
 * such document) leaves the index as it was.
 */
void ixadd_run(const char *path, const struct sh_ixopt *o,
    const struct sh_bandplan *bp, int newonly, const char *list,
    struct ixdocs *docs, int n, char *const name[]);

/*
 * sh-index delete (verb 'd'): delete from the index at path the IDs of
 * the n operands name[0..n) (stdin when n is 0), one a line or the ID
 * of a fingerprint line, empty lines skipped, and print each ID deleted,
 * once, in input order.  sh-index expire ('e'): delete the IDs added
 * before cutoff.  sh-index merge ('m'): merge its segments into one,
 * dropping what is deleted.  o: the index's kind.  The IDs deleted go
 * to list, and errors end it, as ixadd_run's.
 */
void ixdel_run(const char *path, const struct sh_ixopt *o, int verb,
    uint32_t cutoff, const char *list, int n, char *const name[]);

#endif

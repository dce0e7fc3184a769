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
 */
#ifndef IXADD_H
#define IXADD_H

#include <stdint.h>

#include "index/writer.h"
#include "near/bands.h"

/*
 * Write the lines of the n operands name[0..n) (stdin when n is 0) into
 * the index at path, as o says; bp->b is 0 for fingerprint tables, else
 * the plan of o's band tables.  Return on success; every error ends the
 * program with status 2 and one line, the writer's segments not
 * committed removed: a bad line (each reported) leaves the index as it
 * was.
 */
void ixadd_run(const char *path, const struct sh_ixopt *o,
    const struct sh_bandplan *bp, int newonly, const char *list, int n,
    char *const name[]);

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

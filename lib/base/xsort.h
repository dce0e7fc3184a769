/*
 * External sort of 16-byte records (a, b) by a, then b, within a memory
 * budget: records gather in a buffer of half the budget; a full buffer is
 * sorted and appended as a run to one unnamed temporary file (created in
 * a directory, then unlinked at once, so that nothing is left behind
 * whatever ends the process); at the end the runs are merged, the whole
 * budget shared among their read-ahead buffers, 4 KiB a run at least:
 * while there are more runs than that allows, the first ones are merged
 * into one first.  Memory and open files thus stay the same whatever the
 * input; the disk holds the records once, and once more for each extra
 * pass.  With no run written, nothing touches the disk.
 */
#ifndef SH_XSORT_H
#define SH_XSORT_H

#include <stddef.h>
#include <stdint.h>

struct sh_xrec {
	uint64_t a, b;
};

struct sh_xsort;

/*
 * New sorter using about budget bytes (at least 128 KiB are used) and
 * temporary files in tmpdir (NULL: /tmp).  NULL when out of memory.
 */
struct sh_xsort *sh_xsort_new(size_t budget, const char *tmpdir);
void sh_xsort_free(struct sh_xsort *x);

/* Add a record.  Return 0, SH_ENOMEM or SH_EIO (errno set). */
int sh_xsort_add(struct sh_xsort *x, uint64_t a, uint64_t b);

/*
 * The records in order, one per call, after the last add: return 1, 0
 * at the end, or SH_ENOMEM, SH_EIO (errno set).
 */
int sh_xsort_next(struct sh_xsort *x, struct sh_xrec *r);

/* Runs on disk: written so far, or after the last add those left to the
 * final merge. */
int sh_xsort_runs(const struct sh_xsort *x);

/* Merge passes made before the final merge. */
int sh_xsort_passes(const struct sh_xsort *x);

#endif

/*
 * Edit distance: the Levenshtein distance of two sequences of code points
 * (any 32-bit values), the fewest insertions, deletions and substitutions
 * of one element that make one sequence the other.
 *
 * The common prefix and suffix are set aside first.  What is left of the
 * shorter sequence, the pattern, is held as bit vectors of 64 elements
 * (Myers 1999, in the form of Hyyrö 2001), each element of the longer one
 * advancing a column of the dynamic program 64 cells at a time.  With a
 * bound max on the distance of interest, a pair whose lengths differ by
 * more is answered at once, only the blocks of 64 rows that cross the
 * band of cells within max of the diagonal (Ukkonen 1985) are computed,
 * and the work stops once every cell of the band is above max.
 */
#ifndef SH_EDIT_H
#define SH_EDIT_H

#include <stddef.h>
#include <stdint.h>

/* Room that distances of patterns over 64 elements work in: grown to the
 * longest pattern, kept between calls.  Not shared between threads. */
struct sh_edit;

/* A new, empty work space, or NULL when out of memory. */
struct sh_edit *sh_edit_new(void);
void sh_edit_free(struct sh_edit *e);

/*
 * The Levenshtein distance of a[0..na) and b[0..nb) when it is at most
 * max; else max + 1 (whatever the distance beyond it).  A max of at
 * least the longer length asks for the distance itself.  e is the work
 * space for patterns of more than 64 elements (NULL: one allocated and
 * freed in the call).  Return the distance, or SH_ENOMEM.  Cost: with p
 * the pattern and m, n the elements of the shorter and the longer left
 * once the common ends are set aside, O(n) for m up to 64; else
 * O(n min(m, max) / 64) and some 50 bytes a pattern element, and up to
 * 2 MiB more where it saves a look-up per block (sh_edit_dense).
 */
long long sh_edit_dist(struct sh_edit *e, const uint32_t *a, size_t na,
    const uint32_t *b, size_t nb, size_t max);

/*
 * Whether a pattern of more than 64 elements is looked up in one table
 * for all its blocks, rows of D + 1 bit vectors by block for its D
 * distinct elements, where they fit in 2 MiB (on != 0, the default), or
 * in a table of each block; results do not depend on it, for tests to
 * hold each to the other.  Not thread-safe.
 */
void sh_edit_dense(int on);

#endif

/*
 * A stop-word set: the 64-bit hashes of the features the tokenizer drops
 * (feat/tokenize.h).  A feature is a stop word exactly when its hash
 * (sh_hash64, seed 0) is in the set, as features are told apart
 * everywhere else.  The set is filled by feat/stopword.h, which cuts the
 * entries of a list as text is cut.  Memory: that of base/hmap.h, 32 to
 * 64 bytes per entry, and a filter of 1 KB.
 */
#ifndef SH_STOPSET_H
#define SH_STOPSET_H

#include <stddef.h>
#include <stdint.h>

struct sh_stop;

/* New empty set, or NULL when out of memory. */
struct sh_stop *sh_stop_new(void);
void sh_stop_free(struct sh_stop *s);

/* Add feature hash h.  Return 0 or SH_ENOMEM (the set is unchanged). */
int sh_stop_put(struct sh_stop *s, uint64_t h);

/* Whether feature hash h is a stop word: one load of the filter for most
 * features, one probe of the map for the others. */
int sh_stop_has(const struct sh_stop *s, uint64_t h);

/* Entries in the set. */
size_t sh_stop_count(const struct sh_stop *s);

#endif

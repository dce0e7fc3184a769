/*
 * A bag of features for one document: distinct feature hashes with their
 * counts, in order of first occurrence, and optionally their text.
 * Features are told apart by their 64-bit hash alone, exactly as the
 * fingerprint tells them apart; a base/hmap numbers them.  Memory is
 * kept between documents (sh_bag_clear is O(distinct features), however
 * large the bag has grown); no allocation per feature once the bag has
 * grown to the largest document: 64 to 128 bytes per distinct feature of
 * that document (an entry of 32 bytes, 1 to 2 per feature as the array
 * doubles; 2 to 4 map slots of 16 bytes), plus the text kept.
 */
#ifndef SH_BAG_H
#define SH_BAG_H

#include <stddef.h>
#include <stdint.h>

struct sh_bagent {
	uint64_t hash;
	uint64_t count;
	size_t off, len;	/* text, when kept: sh_bag_text(b) + off */
};

struct sh_bag;

/* New empty bag; keep_text != 0 keeps each feature's first text. */
struct sh_bag *sh_bag_new(int keep_text);
void sh_bag_free(struct sh_bag *b);
void sh_bag_clear(struct sh_bag *b);

/* Count one occurrence of feature h (text tok[0..len), copied if kept).
 * Return 0 or SH_ENOMEM (the bag is unchanged then), also for a new
 * feature beyond 2^32 - 1 distinct ones: entries are numbered in 32 bits. */
int sh_bag_add(struct sh_bag *b, uint64_t h, const char *tok, size_t len);

/* Distinct features, in order of first occurrence: n entries at *ents.
 * Valid until the next add or clear. */
size_t sh_bag_entries(const struct sh_bag *b, const struct sh_bagent **ents);

/* Base of the kept text. */
const char *sh_bag_text(const struct sh_bag *b);

#endif

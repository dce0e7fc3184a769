/*
 * The sketch of a document's characters, for the edit measure
 * (similar.h): a MinHash sketch (minhash.h) of its character n-grams,
 * the characters being those the edit measure compares (text/fold.h,
 * sh_fold_chars: folded letters, marks and digits, spaces and
 * punctuation dropped), so that texts of any script are cut alike.
 *
 * The n-grams are chosen by the length they cover, a character of class
 * SH_UC_GRAM (Han, kana, Hangul, Thai...: each carries much of a text)
 * counting 3 and any other (the letters and digits of alphabets) 1: the
 * n-gram at each character is the fewest characters from it on that
 * count at least 3, so one ideograph, three letters, or a letter or two
 * and the ideograph after them; n-grams that would run past the end
 * are none, and a text whose characters count less than 3 in all is one
 * n-gram of them all.  Texts of any script and any mix of them are cut
 * by one rule, so that any two can be compared.  The set sketched holds
 * the k-th occurrence (k = 0, 1, ...) of each n-gram g as
 * sh_minhash_mix(h + k) for k > 0 and h itself for k = 0, h =
 * sh_hash64 of g's code points in UTF-8 with seed 0: the multiset of
 * the n-grams, whose Jaccard similarity has the q-gram bound (Ukkonen
 * 1992): a text of ideographs only at edit similarity t to another has
 * a Jaccard similarity of at least t / (2 - t) with it.  Each member x
 * of the set is sketched in m copies, x and sh_minhash_mix(x + i C) for
 * i = 1 .. m - 1, C = 0x9e3779b97f4a7c15, m = ceil(4 K / N) for the N
 * members (1 from 4 K on), which leaves the Jaccard similarity as it
 * is: so a short text fills the K bins itself, each from its own
 * copies, few are empty, and the bins agree nearly independently, as
 * the bands need (densification would copy a few bins into the others).
 *
 * The kind of the sketch (base/sketch.h) tells how much of the text is
 * of class SH_UC_GRAM, for the band plans of near/bands.h: 1 for at
 * least 70 % of its characters, 3 for at most 30 %, 2 between.
 *
 * Frozen by tests/unit/minhash_test.c; any change is a new tag.
 */
#ifndef SH_CHARSKETCH_H
#define SH_CHARSKETCH_H

#include <stddef.h>
#include <stdint.h>

#include "base/sketch.h"

/* The kind of characters c[0..n) (n >= 1), as above. */
int sh_charsketch_kind(const uint32_t *c, size_t n);

/*
 * The sketch of characters c[0..n) into *s, and its kind into *kind.
 * *buf, an array of *cap hashes grown as needed (sh_grow), is the work
 * space, kept between calls.  Return 1, 0 when n is 0 (no sketch), or
 * SH_ENOMEM.  Cost: O(n), and some 4 K hashes for a short text;
 * 40 n bytes of work space.
 */
int sh_charsketch(const uint32_t *c, size_t n, uint64_t **buf, size_t *cap,
    struct sh_sketch *s, int *kind);

#endif

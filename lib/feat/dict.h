/*
 * Word dictionaries for the scripts written without spaces, and the
 * segmentation that jieba (a widely used Chinese segmenter) does without
 * its HMM: the most probable sequence of dictionary words.
 *
 * A dictionary is read from jieba's text format: one "WORD FREQ [TAG]"
 * line per word, fields separated by spaces or TABs, FREQ a decimal count;
 * leading and trailing white space and blank lines are ignored, the TAG
 * and anything after it too.  Words are folded as the tokenizer folds
 * text (sh_fold_text, text/fold.h), so that they match folded text.  As in jieba, a
 * word listed twice takes its last frequency, every line adds to the
 * total T, and a word of frequency 0 is no word (only a prefix).
 *
 * A run of code points is cut as jieba cuts a block: from each position,
 * the dictionary words that start there are the choices; a position with
 * none takes its single character.  A word w scores log2(f(w)) - log2(T),
 * a single character not in the dictionary -log2(T); the cut maximises the
 * sum of the scores, computed from the end of the run back to its start,
 * and between equal sums takes the longer word at the earliest position
 * that differs (jieba's max over (score, end) tuples).  Scores are fixed
 * point with 32 fractional bits, computed with integers only
 * (sh_log2_q32, num.h), so that the cut is the same on every machine; they are
 * log2 where jieba uses ln, which scales every sum alike and changes no
 * choice.  A character is a code point with the combining marks after it
 * (canonical combining class other than 0): a cut never separates them.
 */
#ifndef SH_DICT_H
#define SH_DICT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Longest run sh_dict_cut takes in one call (sums of scores fit 64 bits). */
#define SH_DICT_RUN_MAX (1u << 24)
#define SH_DICT_WORD_MAX 1024	/* longest word, in bytes */

struct sh_dict;

/*
 * Read a dictionary from fp (to its end; not closed) into *d, its words
 * folded as sh_fold_text(..., simplify, ...) folds them: with simplify
 * they match the text of a tokenizer with that option.  Return 0,
 * or an error with *line set to the 1-based line at fault: SH_EDICT (not
 * "WORD FREQ [TAG]", or a word over SH_DICT_WORD_MAX bytes), SH_EUTF8 (a
 * word that is not UTF-8), SH_ERANGE (the frequencies add up to more than
 * 2^62); or SH_EIO (errno set) or SH_ENOMEM with *line 0.  On success
 * *line is the number of lines.  Memory: 32 to 64 bytes per distinct
 * prefix of a word (jieba's dict.txt: 498,103 prefixes, 16 MiB).
 */
int sh_dict_load(FILE *fp, int simplify, struct sh_dict **d,
    unsigned long long *line);
void sh_dict_free(struct sh_dict *d);

/* Number of words (distinct after folding, frequency above 0). */
size_t sh_dict_words(const struct sh_dict *d);

/* Called for each word of a cut, in order: code points start..start+len
 * of the run. */
typedef void sh_dict_fn(void *ctx, size_t start, size_t len);

/* Buffers of sh_dict_cut, reused across calls; zero-initialise, release
 * with sh_dictcut_free.  They grow to the longest run cut. */
struct sh_dictcut {
	int64_t *score;		/* best sum from each position to the end */
	uint32_t *next;		/* where the word chosen there ends */
	unsigned char *mark;	/* 1: the code point continues a character */
	size_t cap;
};

void sh_dictcut_free(struct sh_dictcut *w);

/*
 * Cut the run cp[0..n) (folded code points) into words and call fn(ctx,
 * ...) for each, in order.  With more == 0 the run ends at n: all of it is
 * cut and n returned.  With more != 0 the run goes on after n: only
 * cp[0..k) is cut, k the last position > 0 that no word of the dictionary
 * can cross whatever follows, and k is returned; the caller passes cp[k..n)
 * again with what follows, and the words come out as if the whole run had
 * been cut at once.  If there is no such position, k is n, a cut the
 * dictionary may not have made.  A run longer than SH_DICT_RUN_MAX is
 * taken as its first SH_DICT_RUN_MAX code points with more != 0.  Return
 * k (0 when n is 0), or SH_ENOMEM before any call of fn.  Time: O(n) walks
 * of the dictionary, each as long as the longest word matching there.
 */
long long sh_dict_cut(const struct sh_dict *d, struct sh_dictcut *w,
    const uint32_t *cp, size_t n, int more, sh_dict_fn *fn, void *ctx);

#endif

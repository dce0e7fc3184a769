/*
 * A MinHash sketch value: SH_SK_K values of 16 bits, and its text form;
 * the Jaccard similarity two sketches estimate.  Like base/fpval.h for
 * the fingerprint, this is the value that crosses from the document
 * stack, which makes it (fp/minhash.h), to the fingerprint stack, which
 * bands it (near/bands.h).
 *
 * Value i of two sketches is equal with probability J + (1 - J) 2^-16
 * for documents of Jaccard similarity J (fp/minhash.h); the estimate
 * corrects for the 2^-16.
 *
 * Text form, version 1: "m1:" then the SH_SK_K values in order, each as
 * 4 lowercase hex digits, most significant first: SH_SK_TEXT bytes.
 * Input may be either case; any other version is refused.  The sketch
 * of a document's characters (fp/charsketch.h, for the edit measure),
 * version 1, has the same form but its tag, "e1:" to "e3:", the digit
 * its kind, how much of the text is of ideographic scripts (1 most, 3
 * little, 2 between); kind 0 is "m1:".
 */
#ifndef SH_SKETCH_H
#define SH_SKETCH_H

#include <stddef.h>
#include <stdint.h>

#define SH_SK_VERSION 1
#define SH_SK_K 128
#define SH_SK_TAG "m1:"
#define SH_SK_TAGLEN 3
#define SH_SK_TEXT (SH_SK_TAGLEN + 4 * SH_SK_K)
#define SH_SK_KINDS 3		/* the kinds of the characters' sketch */

struct sh_sketch {
	uint16_t v[SH_SK_K];
};

/* Whether p[0..n) starts as a sketch does, of any version ("m" or "e"
 * and a digit): a field that is meant to be one. */
int sh_sketch_is(const char *p, size_t n);

/* Parse p[0..n) into *s.  Return 0, SH_ESKVERSION (a sketch of
 * another version) or SH_ESKETCH. */
int sh_sketch_parse(const char *p, size_t n, struct sh_sketch *s);

/* The kind of the sketch p[0..n) that sh_sketch_parse took: 0 for
 * "m1:", k for "ek:". */
int sh_sketch_kind(const char *p, size_t n);

/* Write s as its text form into out (SH_SK_TEXT bytes, not
 * NUL-terminated); sh_sketch_format_kind with the tag of kind (0 to
 * SH_SK_KINDS). */
void sh_sketch_format(const struct sh_sketch *s, char out[SH_SK_TEXT]);
void sh_sketch_format_kind(const struct sh_sketch *s, int kind,
    char out[SH_SK_TEXT]);

/* The values of a and b that are equal, 0..SH_SK_K. */
int sh_sketch_equal(const struct sh_sketch *a, const struct sh_sketch *b);

/*
 * The Jaccard similarity that m equal values of SH_SK_K estimate, in
 * millionths: (m / K - 2^-16) / (1 - 2^-16), 0 when below 0, rounded
 * half up; exact integer arithmetic.  Its standard error at J is about
 * sqrt(J (1 - J) / K): 0.035 at J = 0.8.
 */
uint32_t sh_sketch_sim(int m);

#endif

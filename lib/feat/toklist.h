/*
 * Token lists: the weighted features of a document as text, the format of
 * the classic C++ simhash example: "TOKEN^W TOKEN^W ...", tokens separated
 * by spaces (TABs are read as spaces too), W the token's weight in decimal
 * (feat/weight.h), 1 when "^W" is left out; a token holding '^' is split
 * at the last one.  sh-tokenize writes them; sh-fp -t and sh-dist -t read
 * them, each token hashed as its bytes are (sh_hash64, seed 0), unfolded.
 */
#ifndef SH_TOKLIST_H
#define SH_TOKLIST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A weighted feature: its hash, its weight in units and its text,
 * tok[0..len), valid only during the call. */
typedef void sh_wfeat_fn(void *ctx, uint64_t hash, uint64_t w,
    const char *tok, size_t len);

/*
 * Parse the token list p[0..len), calling fn(ctx, ...) for each token in
 * order.  Return 0, or SH_EWEIGHT (a bad weight), SH_EEMPTYTOK (nothing
 * before the '^') or SH_ERANGE (weights adding up to more than
 * SH_W_TOTAL_MAX) with *col the 1-based byte column of the bad token in p,
 * fn having been called for the tokens before it.
 */
int sh_toklist_parse(const char *p, size_t len, sh_wfeat_fn *fn, void *ctx,
    size_t *col);

/* Write token tok[0..len) of weight w (units) to out as "TOKEN^W", after
 * a space unless it is the first of its list.  Return 0 or SH_EIO. */
int sh_toklist_put(FILE *out, const char *tok, size_t len, uint64_t w,
    int first);

#endif

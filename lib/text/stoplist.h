/*
 * The built-in stop-word lists, as text: words separated by single
 * spaces, in UTF-8.  feat/stopword.h loads them as "@en" and "@zh" (cut
 * and folded like text there); text/maintext.h reads them to tell prose
 * from navigation.  Data only, so that one list serves both layers.
 */
#ifndef SH_STOPLIST_H
#define SH_STOPLIST_H

#include <stddef.h>

/* English function words: articles, pronouns, prepositions,
 * conjunctions, auxiliaries, a few adverbs of degree and the pieces that
 * contractions leave ("don't" is "don" "t"); lowercase ASCII. */
extern const char sh_stoplist_en[];
extern const size_t sh_stoplist_enlen;	/* strlen(sh_stoplist_en) */

/* Chinese function words: particles, pronouns, prepositions,
 * conjunctions, auxiliaries and their common compounds. */
extern const char sh_stoplist_zh[];
extern const size_t sh_stoplist_zhlen;

#endif

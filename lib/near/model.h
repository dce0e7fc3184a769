/*
 * The candidate distance for a similarity threshold: how far apart the
 * fingerprints of two documents of similarity t may lie, so that a search
 * within that distance finds a stated share of such pairs.
 *
 * The model (Charikar, STOC 2002): each bit of a simhash is the sign of a
 * random hyperplane through the features' weight vector, so two documents
 * whose vectors make an angle theta differ in a bit with probability
 * p = theta / pi, and in d of the 64 bits with the binomial probability
 * C(64, d) p^d (1 - p)^(64 - d).  Two sets of features of equal size at
 * Jaccard similarity J, weighted alike (binary weights), have the cosine
 * 2J / (1 + J).  sh_model_k(t, r) is the least k such that a pair at
 * exactly J = t lies within k with probability at least r; pairs above t
 * lie closer, so the share of all pairs at or above t found is higher.
 * With other weights the model is a guide, which make eval measures.
 */
#ifndef SH_MODEL_H
#define SH_MODEL_H

#include <stdint.h>

/* The recall sh-near plans for: 0.95, in millionths. */
#define SH_MODEL_RECALL 950000

/*
 * The least k (0..64) that holds a pair at Jaccard similarity sim
 * (millionths, 0..1000000) within k with probability at least recall
 * (millionths).
 */
int sh_model_k(uint32_t sim, uint32_t recall);

/* The distance sh-near searches for threshold sim: sh_model_k at
 * SH_MODEL_RECALL, at most SH_PLAN_KMAX. */
int sh_model_search(uint32_t sim);

/* The expected distance of a pair at Jaccard similarity sim, in bits. */
double sh_model_mean(uint32_t sim);

#endif

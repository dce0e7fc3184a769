#include <math.h>

#include "base/fpval.h"
#include "near/model.h"
#include "near/plan.h"

/* Probability that one bit differs at Jaccard similarity sim. */
static double
pbit(uint32_t sim)
{
	double j = sim / 1e6, c = 2 * j / (1 + j);

	if (c >= 1)
		return 0;
	return acos(c) / acos(-1.0);
}

double
sh_model_mean(uint32_t sim)
{
	return SH_FP_BITS * pbit(sim);
}

int
sh_model_k(uint32_t sim, uint32_t recall)
{
	double p = pbit(sim), term, cdf, want = recall / 1e6;
	int k, n = SH_FP_BITS;

	if (p <= 0)
		return 0;
	/* term = C(n, k) p^k (1 - p)^(n - k), summed upwards from k = 0.  A
	 * hair below the recall asked, so that rounding in the sum never
	 * moves k when the answer is exact. */
	term = pow(1 - p, n);
	cdf = term;
	for (k = 0; k < n && cdf < want - 1e-12; k++) {
		term *= (double)(n - k) / (k + 1) * p / (1 - p);
		cdf += term;
	}
	return k;
}

int
sh_model_search(uint32_t sim)
{
	int k = sh_model_k(sim, SH_MODEL_RECALL);

	return k < SH_PLAN_KMAX ? k : SH_PLAN_KMAX;
}

#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/utf8.h"
#include "fp/charsketch.h"
#include "fp/minhash.h"
#include "text/unicode.h"

#define SPAN 3			/* what an n-gram covers */
#define COPY 0x9e3779b97f4a7c15ULL	/* the step between copies */

int
sh_charsketch_kind(const uint32_t *c, size_t n)
{
	size_t i, g = 0;

	for (i = 0; i < n; i++)
		g += sh_uc_class(c[i]) == SH_UC_GRAM;
	return 10 * g >= 7 * n ? 1 : 10 * g <= 3 * n ? 3 : 2;
}

int
sh_charsketch(const uint32_t *c, size_t n, uint64_t **buf, size_t *cap,
    struct sh_sketch *s, int *kind)
{
	struct sh_minhash mh;
	char enc[4 * SPAN];
	size_t i, j, len, ng, k, m, t;
	uint64_t *h, *key, *cnt;
	int w, b;

	if (n == 0)
		return 0;
	*kind = sh_charsketch_kind(c, n);
	/* The hashes, then a table of 2^b >= 2 n slots: keys and counts. */
	for (b = 4; ((size_t)1 << b) < 2 * n; b++)
		;
	t = (size_t)1 << b;
	if (sh_grow(buf, cap, n + 2 * t, sizeof(**buf)) != 0)
		return SH_ENOMEM;
	h = *buf;
	key = h + n;
	cnt = key + t;
	memset(key, 0, 2 * t * sizeof(*key));
	for (ng = i = 0; i < n; i++) {
		for (w = 0, len = 0, j = i; j < n && w < SPAN; j++) {
			w += sh_uc_class(c[j]) == SH_UC_GRAM ? SPAN : 1;
			len += sh_utf8_encode(c[j], enc + len);
		}
		if (w < SPAN && i > 0)
			break;
		h[ng++] = sh_hash64(enc, len, 0);
	}
	/* The k-th of equal hashes, the k-th occurrence of an n-gram:
	 * counted in the table, probed linearly. */
	for (i = 0; i < ng; i++) {
		for (j = h[i] >> (64 - b); cnt[j] != 0 && key[j] != h[i];
		    j = (j + 1) & (t - 1))
			;
		key[j] = h[i];
		if ((k = cnt[j]++) > 0)
			h[i] = sh_minhash_mix(h[i] + k);
	}
	/* Each n-gram in m copies, so that some 4 K of them fill the bins
	 * and few are empty, however short the text. */
	m = ng >= 4 * SH_SK_K ? 1 : (4 * SH_SK_K + ng - 1) / ng;
	sh_minhash_init(&mh);
	for (i = 0; i < ng; i++) {
		sh_minhash_add(&mh, h[i]);
		for (k = 1; k < m; k++)
			sh_minhash_add(&mh, sh_minhash_mix(h[i] +
			    k * COPY));
	}
	return sh_minhash_final(&mh, s);
}

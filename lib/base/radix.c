#include <string.h>

#include "base/radix.h"

void
sh_radix_bits(uint64_t **v, uint64_t **tmp, size_t n, int from, int bits,
    int maxw)
{
	size_t count[1 << 11], i, sum, c;
	uint64_t *a = *v, *b = *tmp, *t, mask;
	int passes, w, p, shift;

	if (bits == 0 || n < 2)
		return;
	passes = (bits + maxw - 1) / maxw;
	w = (bits + passes - 1) / passes;
	mask = ((uint64_t)1 << w) - 1;
	for (p = 0, shift = from; p < passes; p++, shift += w) {
		memset(count, 0, sizeof(count[0]) << w);
		for (i = 0; i < n; i++)
			count[a[i] >> shift & mask]++;
		for (i = 0, sum = 0; i <= mask; i++) {
			c = count[i];
			count[i] = sum;
			sum += c;
		}
		for (i = 0; i < n; i++)
			b[count[a[i] >> shift & mask]++] = a[i];
		t = a;
		a = b;
		b = t;
	}
	*v = a;
	*tmp = b;
}

int
sh_kv_cmp(const void *a, const void *b)
{
	const struct sh_kv *x = a, *y = b;

	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

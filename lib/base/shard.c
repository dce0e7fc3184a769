#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/num.h"
#include "base/shard.h"

#if SH_FP_BITS != 64
#error "sh_shard_fp splits the range of a 64-bit word"
#endif

int
sh_shard_parse(const char *arg, struct sh_shard *s)
{
	const char *slash = strchr(arg, '/');
	char buf[32];
	long long i, n;
	size_t len;

	if (slash == NULL || (len = (size_t)(slash - arg)) >= sizeof(buf))
		return SH_EINVAL;
	memcpy(buf, arg, len);
	buf[len] = '\0';
	if (sh_strtonum(slash + 1, 1, 65536, &n) != 0 ||
	    sh_strtonum(buf, 0, n - 1, &i) != 0)
		return SH_EINVAL;
	s->i = (uint32_t)i;
	s->n = (uint32_t)n;
	return 0;
}

static uint32_t
ways(const struct sh_shard *s, int T)
{
	return (s->n + (uint32_t)T - 1) / (uint32_t)T;
}

uint32_t
sh_shard_run(const struct sh_shard *s, int t, int T, uint64_t key)
{
	uint64_t h = key * 0x9E3779B97F4A7C15ULL;

	h ^= h >> 32;
	return (uint32_t)(((uint64_t)t + (uint64_t)T * (h % ways(s, T))) %
	    s->n);
}

int
sh_shard_table(const struct sh_shard *s, int t, int T)
{
	uint32_t j;

	for (j = 0; j < ways(s, T); j++)
		if (((uint64_t)t + (uint64_t)T * j) % s->n == s->i)
			return 1;
	return 0;
}

uint32_t
sh_shard_fp(const struct sh_shard *s, sh_fpval fp)
{
	/* floor(fp * n / 2^64), from the high and low halves. */
	uint64_t hi = (fp >> 32) * s->n, lo = (fp & 0xFFFFFFFF) * s->n;

	return (uint32_t)((hi + (lo >> 32)) >> 32);
}

void
sh_shard_bytes(const struct sh_shard *s, long long size, long long *start,
    long long *end)
{
	long long n = s->n;

	*start = size / n * s->i + size % n * s->i / n;
	*end = size / n * (s->i + 1) + size % n * (s->i + 1) / n;
}

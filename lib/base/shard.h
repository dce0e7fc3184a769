/*
 * Shards: splitting heavy work between processes or machines so that
 * the union of the shards' outputs is the output of one process, each
 * result made by exactly one shard.
 *
 * A join is split by its units of work, the runs of equal key of each
 * table: with n shards and T tables, the run of key `key' in table t
 * belongs to shard (t + T * (h(key) mod m)) mod n, m = ceil(n / T).  With
 * n <= T a shard takes whole tables; beyond, tables are cut by key.
 * An index is split by fingerprint range: fingerprint f belongs to shard
 * floor(f * n / 2^64), so every shard is an index of its own and a query
 * goes to every shard.
 */
#ifndef SH_SHARD_H
#define SH_SHARD_H

#include <stdint.h>

#include "base/fpval.h"

struct sh_shard {
	uint32_t i, n;		/* shard i of n, 0 <= i < n */
};

/* Parse "I/N" (0 <= I < N <= 65536) into *s.  Return 0 or SH_EINVAL. */
int sh_shard_parse(const char *arg, struct sh_shard *s);

/* The shard of the run of key in table t of T. */
uint32_t sh_shard_run(const struct sh_shard *s, int t, int T, uint64_t key);

/* Whether shard s has any run of table t of T. */
int sh_shard_table(const struct sh_shard *s, int t, int T);

/*
 * The bytes [*start, *end) of a file of size bytes that shard s holds,
 * as sh-fp -P cuts a file: n byte ranges in order, their sizes apart by
 * one at most.
 */
void sh_shard_bytes(const struct sh_shard *s, long long size,
    long long *start, long long *end);

/* The shard of fingerprint fp in an index split n ways. */
uint32_t sh_shard_fp(const struct sh_shard *s, sh_fpval fp);

#endif

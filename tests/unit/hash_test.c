/*
 * Frozen vectors of the feature hash (XXH64, seed 0), agreeing with the
 * reference xxhsum -H1.  Input byte i of a vector of length n is
 * (7 i + 1) mod 256.  Each is checked one-shot, streamed whole, streamed
 * byte by byte, and streamed in uneven pieces.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "tap.h"

static const struct {
	size_t len;
	uint64_t h;
} vec[] = {
	{ 0, 0xef46db3751d8e999ULL },
	{ 1, 0x8a4127811b21e730ULL },
	{ 3, 0xb6e6c910c2fd373aULL },
	{ 4, 0x22eda2cf6af4c124ULL },
	{ 7, 0x34084d91a233a751ULL },
	{ 8, 0xc6f1803a5e0b3222ULL },
	{ 9, 0x9e8adf2a0ccdb6daULL },
	{ 15, 0x514c6f58d37ce6f1ULL },
	{ 16, 0xafe8f989a0735a8eULL },
	{ 31, 0x6ab1c40e29f50073ULL },
	{ 32, 0x5a0756fbe9ecd3d1ULL },
	{ 33, 0xdc50cdc37bb9c183ULL },
	{ 63, 0x10dd94885c71894aULL },
	{ 64, 0x90083da9cdb9d795ULL },
	{ 100, 0xd248bfc5208b0b16ULL },
	{ 1000, 0x6be03acbf959c413ULL },
};

int
main(void)
{
	unsigned char buf[1000];
	struct sh_hash64_state s;
	struct sh_hashbatch b;
	size_t i, j, k, m, len;
	const char *p;
	char *end;
	uint64_t out[SH_HASH_BATCH];
	int v, same;

	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)((7 * i + 1) % 256);
	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		ok(sh_hash64(buf, vec[i].len, 0) == vec[i].h,
		    "one-shot, length %zu", vec[i].len);
		sh_hash64_init(&s, 0);
		sh_hash64_update(&s, buf, vec[i].len);
		ok(sh_hash64_final(&s) == vec[i].h, "streamed whole, length %zu",
		    vec[i].len);
		sh_hash64_init(&s, 0);
		for (j = 0; j < vec[i].len; j++)
			sh_hash64_update(&s, buf + j, 1);
		ok(sh_hash64_final(&s) == vec[i].h,
		    "streamed byte by byte, length %zu", vec[i].len);
		sh_hash64_init(&s, 0);
		for (j = 0; j < vec[i].len; j += k) {
			k = 1 + j % 37;
			if (k > vec[i].len - j)
				k = vec[i].len - j;
			sh_hash64_update(&s, buf + j, k);
		}
		ok(sh_hash64_final(&s) == vec[i].h,
		    "streamed in pieces, length %zu", vec[i].len);
	}
	ok(sh_hash64("abc", 3, 0) == 0x44bc2cf5ad770999ULL, "\"abc\"");
	ok(sh_hash64("\xe4\xb8\xad\xe5\x9b\xbd", 6, 0) == 0x542d47d6954e3f0eULL,
	    "\"中国\"");
	ok(sh_hash64("abc", 3, 1) != sh_hash64("abc", 3, 0), "seed matters");

	/* Many at once (1 to 32: eights and the rest), every length 0 to 71
	 * in every lane, vector and portable, against the one-shot hash; and
	 * under 32 bytes at the start of an allocation of SH_HASH_READ, all
	 * that the batch may read (so a sanitizer sees any byte past it). */
	if ((end = malloc(SH_HASH_READ)) == NULL)
		return 1;
	memcpy(end, buf + 3, SH_HASH_READ);
	for (v = 0; v <= 1; v++) {
		sh_hash_vector(v);
		same = 1;
		for (i = 0; i < 72 * SH_HASH_BATCH; i++) {
			m = 1 + i % SH_HASH_BATCH;
			for (j = 0; j < m; j++) {
				len = (i + j * 9) % 72;
				p = (const char *)buf + (i * 13 + j * 101) %
				    (sizeof(buf) - 72);
				sh_hashbatch_set(&b, j, p, len);
			}
			sh_hashbatch_run(&b, m, out);
			for (j = 0; j < m; j++)
				if (out[j] != sh_hash64(b.p[j], b.len[j], 0))
					same = 0;
		}
		ok(same, "many at once (%s) equal the one-shot hash at "
		    "lengths 0 to 71", v ? "vector" : "portable");
		for (j = 0; j < SH_HASH_BATCH; j++)
			sh_hashbatch_set(&b, j, end, j);
		sh_hashbatch_run(&b, SH_HASH_BATCH, out);
		same = 1;
		for (j = 0; j < SH_HASH_BATCH; j++)
			if (out[j] != sh_hash64(end, j, 0))
				same = 0;
		ok(same, "many at once (%s) read no more than SH_HASH_READ "
		    "bytes", v ? "vector" : "portable");
	}
	free(end);
	sh_hash_vector(1);
	return tap_done();
}

#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/sketch.h"

int
sh_sketch_is(const char *p, size_t n)
{
	return n >= 2 && (p[0] == 'm' || p[0] == 'e') && p[1] >= '0' &&
	    p[1] <= '9';
}

int
sh_sketch_kind(const char *p, size_t n)
{
	return n >= 2 && p[0] == 'e' ? p[1] - '0' : 0;
}

int
sh_sketch_parse(const char *p, size_t n, struct sh_sketch *s)
{
	const unsigned char *u;
	unsigned v, bad = 0;
	size_t i;

	if (!sh_sketch_is(p, n) || n < SH_SK_TAGLEN)
		return SH_ESKETCH;
	if ((p[0] == 'm' ? p[1] != SH_SK_TAG[1] : p[1] == '0' ||
	    p[1] > '0' + SH_SK_KINDS) || p[2] != ':')
		return SH_ESKVERSION;
	if (n != SH_SK_TEXT)
		return SH_ESKETCH;
	u = (const unsigned char *)p + SH_SK_TAGLEN;
	for (i = 0; i < SH_SK_K; i++, u += 4) {
		v = (unsigned)sh_hexval[u[0]] << 12 |
		    (unsigned)sh_hexval[u[1]] << 8 |
		    (unsigned)sh_hexval[u[2]] << 4 | sh_hexval[u[3]];
		bad |= sh_hexval[u[0]] | sh_hexval[u[1]] | sh_hexval[u[2]] |
		    sh_hexval[u[3]];
		s->v[i] = (uint16_t)v;
	}
	return bad & 16 ? SH_ESKETCH : 0;
}

/* The two hex digits of each byte, 0 to 255. */
static const char pairs[] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

void
sh_sketch_format(const struct sh_sketch *s, char out[SH_SK_TEXT])
{
	sh_sketch_format_kind(s, 0, out);
}

void
sh_sketch_format_kind(const struct sh_sketch *s, int kind,
    char out[SH_SK_TEXT])
{
	size_t i;
	unsigned v;

	memcpy(out, SH_SK_TAG, SH_SK_TAGLEN);
	if (kind > 0) {
		out[0] = 'e';
		out[1] = (char)('0' + kind);
	}
	out += SH_SK_TAGLEN;
	for (i = 0; i < SH_SK_K; i++) {
		v = s->v[i];
		memcpy(out + 4 * i, pairs + 2 * (v >> 8), 2);
		memcpy(out + 4 * i + 2, pairs + 2 * (v & 255), 2);
	}
}

int
sh_sketch_equal(const struct sh_sketch *a, const struct sh_sketch *b)
{
	int i, m = 0;

	for (i = 0; i < SH_SK_K; i++)
		m += a->v[i] == b->v[i];
	return m;
}

uint32_t
sh_sketch_sim(int m)
{
	/* (m 2^16 - K) / (K (2^16 - 1)) in millionths, half up. */
	int64_t num = (int64_t)m * 65536 - SH_SK_K, den = SH_SK_K * 65535LL;

	if (num <= 0)
		return 0;
	return (uint32_t)((num * 2000000 + den) / (2 * den));
}

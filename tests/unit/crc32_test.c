/*
 * CRC-32 (gzip's): the published check values, agreement with a
 * bit-at-a-time reference on random bytes at every alignment and cut,
 * streamed whole, byte by byte and in uneven pieces, and agreement with
 * the CRC in the trailer that gzip(1) writes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/crc32.h"
#include "rng.h"
#include "tap.h"

/* The definition, one bit at a time. */
static uint32_t
ref_crc(uint32_t crc, const unsigned char *p, size_t len)
{
	uint32_t c = ~crc;
	int k;

	while (len-- > 0) {
		c ^= *p++;
		for (k = 0; k < 8; k++)
			c = c & 1 ? c >> 1 ^ 0xedb88320U : c >> 1;
	}
	return ~c;
}

static const struct {
	const char *s;
	uint32_t crc;
} vec[] = {
	{ "", 0x00000000U },
	{ "a", 0xe8b7be43U },
	{ "abc", 0x352441c2U },
	{ "123456789", 0xcbf43926U },
	{ "message digest", 0x20159d7fU },
	{ "abcdefghijklmnopqrstuvwxyz", 0x4c2750bdU },
	{ "The quick brown fox jumps over the lazy dog", 0x414fa339U },
};

/* The CRC gzip writes in the trailer of p[0..len) compressed into *crc:
 * 0, or -1 when gzip could not be run. */
static int
gzip_crc(const unsigned char *p, size_t len, uint32_t *crc)
{
	char path[] = "/tmp/crc32_test.XXXXXX", cmd[100];
	unsigned char t[8];
	FILE *f;
	long n;
	int fd, k;

	if ((fd = mkstemp(path)) < 0 || (f = fdopen(fd, "w")) == NULL)
		return -1;
	if (fwrite(p, 1, len, f) != len || fclose(f) != 0) {
		unlink(path);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "gzip -c %s", path);
	if ((f = popen(cmd, "r")) == NULL) {
		unlink(path);
		return -1;
	}
	for (n = 0; fread(t + n % 8, 1, 1, f) == 1; n++)
		;
	pclose(f);
	unlink(path);
	if (n < 18)
		return -1;
	/* The trailer's first four bytes, little-endian, lie at t[n % 8]. */
	*crc = 0;
	for (k = 3; k >= 0; k--)
		*crc = *crc << 8 | t[(n + k) % 8];
	return 0;
}

int
main(void)
{
	static unsigned char buf[70000];
	size_t i, j, len, off, cut;
	uint32_t c, want;
	int same;

	for (i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		len = strlen(vec[i].s);
		ok(sh_crc32(0, vec[i].s, len) == vec[i].crc,
		    "check value of \"%s\"", vec[i].s);
		ok(ref_crc(0, (const unsigned char *)vec[i].s, len) ==
		    vec[i].crc, "reference check value of \"%s\"", vec[i].s);
		for (c = 0, j = 0; j < len; j++)
			c = sh_crc32(c, vec[i].s + j, 1);
		ok(c == vec[i].crc, "byte by byte, \"%s\"", vec[i].s);
	}
	ok(sh_crc32(0x12345678U, NULL, 0) == 0x12345678U,
	    "no bytes leave the CRC as it is");
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)next();
	/* Every length to 64 at every alignment to 8, then long ones. */
	for (same = 1, len = 0; len <= 64; len++)
		for (off = 0; off < 8; off++)
			same &= sh_crc32(0, buf + off, len) ==
			    ref_crc(0, buf + off, len);
	ok(same, "lengths 0 to 64 at offsets 0 to 7 agree with the reference");
	for (same = 1, i = 0; i < 200; i++) {
		off = (size_t)(next() % 64);
		len = (size_t)(next() % (sizeof(buf) - off));
		cut = len ? (size_t)(next() % len) : 0;
		want = ref_crc(0, buf + off, len);
		same &= sh_crc32(0, buf + off, len) == want;
		same &= sh_crc32(sh_crc32(0, buf + off, cut), buf + off + cut,
		    len - cut) == want;
	}
	ok(same, "200 random ranges, whole and cut in two, agree");
	for (c = 0, off = 0; off < sizeof(buf); off += len) {
		len = (size_t)(next() % 5000);
		if (len > sizeof(buf) - off)
			len = sizeof(buf) - off;
		c = sh_crc32(c, buf + off, len);
	}
	ok(c == ref_crc(0, buf, sizeof(buf)), "uneven pieces of 70000 bytes");
	ok(gzip_crc(buf, sizeof(buf), &want) == 0 &&
	    sh_crc32(0, buf, sizeof(buf)) == want,
	    "the CRC in gzip's trailer of 70000 random bytes");
	ok(gzip_crc((const unsigned char *)"123456789", 9, &want) == 0 &&
	    want == 0xcbf43926U, "gzip's trailer of \"123456789\"");
	return tap_done();
}

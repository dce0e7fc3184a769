/*
 * forge: lie in an index file and sign the lie, for the tests of
 * hostile index directories (a forger can recompute every checksum:
 * only the checks of every number against what it indexes stand).
 *
 *	forge set FILE OFFSET WIDTH VALUE	write VALUE, WIDTH (1, 4 or
 *						8) bytes little-endian, at
 *						OFFSET of FILE
 *	forge seal FILE				sign FILE again, as its magic
 *						says: a segment (every chunk
 *						checksum, the checksum
 *						table's, the header's), a
 *						deletion or times file (its
 *						closing XXH64), a MANIFEST
 *						(its "end" line)
 *
 * The formats are in sh-index(5).  Exit 0, or 2 with a message.
 */
#include <err.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"

static unsigned char *
slurp(const char *path, size_t *len)
{
	unsigned char *p = NULL;
	size_t cap = 0, got;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		err(2, "%s", path);
	*len = 0;
	for (;;) {
		if (*len == cap && (p = realloc(p, cap = 2 * cap + 4096)) ==
		    NULL)
			err(2, NULL);
		if ((got = fread(p + *len, 1, cap - *len, f)) == 0)
			break;
		*len += got;
	}
	if (ferror(f))
		err(2, "%s", path);
	fclose(f);
	return p;
}

static void
spill(const char *path, const unsigned char *p, size_t len)
{
	FILE *f;

	if ((f = fopen(path, "wb")) == NULL || fwrite(p, 1, len, f) != len ||
	    fclose(f) != 0)
		err(2, "%s", path);
}

static void
put(unsigned char *p, uint64_t v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

static uint64_t
get(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void
seal(const char *path)
{
	unsigned char *p;
	uint64_t bodylen, nchunks, c, n;
	size_t len, at;

	p = slurp(path, &len);
	if (len >= 128 && memcmp(p, "\x89SHX\r\n\x1a\n", 8) == 0) {
		bodylen = get(p + 8 * 10);
		nchunks = get(p + 8 * 12);
		/* Sizes past the file: the header alone is signed. */
		if (bodylen > len - 128 || nchunks > (len - 128 - bodylen) / 8)
			nchunks = bodylen = 0;
		for (c = 0; c < nchunks && c * 4096 < bodylen; c++) {
			n = bodylen - c * 4096 < 4096 ? bodylen - c * 4096 :
			    4096;
			put(p + 128 + bodylen + 8 * c, sh_hash64(p + 128 +
			    c * 4096, (size_t)n, 0), 8);
		}
		if (nchunks > 0)
			put(p + 8 * 13, sh_hash64(p + 128 + bodylen,
			    (size_t)(8 * nchunks), 0), 8);
		put(p + 8 * 15, sh_hash64(p, 120, 0), 8);
	} else if (len >= 16 && (memcmp(p, "\x89SHD", 4) == 0 ||
	    memcmp(p, "\x89SHT", 4) == 0))
		put(p + len - 8, sh_hash64(p, len - 8, 0), 8);
	else if (len >= 9 && memcmp(p, "sh-index ", 9) == 0) {
		/* Everything before the last line, and "end " its hash. */
		for (at = len - 1; at > 0 && p[at - 1] != '\n'; at--)
			;
		if ((p = realloc(p, at + 22)) == NULL)
			err(2, NULL);
		len = at + (size_t)snprintf((char *)p + at, 22, "end %016llx\n",
		    (unsigned long long)sh_hash64(p, at, 0));
	} else
		errx(2, "%s: not an index file", path);
	spill(path, p, len);
	free(p);
}

int
main(int argc, char **argv)
{
	unsigned char *p;
	unsigned long long off, v;
	size_t len;
	int w;

	if (argc == 3 && strcmp(argv[1], "seal") == 0) {
		seal(argv[2]);
		return 0;
	}
	if (argc != 6 || strcmp(argv[1], "set") != 0)
		errx(2, "usage: forge set FILE OFFSET WIDTH VALUE | "
		    "forge seal FILE");
	off = strtoull(argv[3], NULL, 0);
	w = atoi(argv[4]);
	v = strtoull(argv[5], NULL, 0);
	p = slurp(argv[2], &len);
	if ((w != 1 && w != 4 && w != 8) || off > len || w > (int)(len - off))
		errx(2, "%s: %llu bytes at %llu: past the file", argv[2],
		    (unsigned long long)w, off);
	put(p + off, v, w);
	spill(argv[2], p, len);
	free(p);
	return 0;
}

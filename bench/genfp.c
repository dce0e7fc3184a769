/*
 * bench/genfp: deterministic fingerprint lines for the search benchmarks.
 * usage: bench/genfp [-p planted] [-s seed] N
 * Prints N lines "HEX<TAB>fN": uniform random fingerprints, except that a
 * share of `planted` percent (default 10) are copies of an earlier one with
 * 0 to 4 bits flipped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/fpval.h"

static uint64_t state;

/* splitmix64 */
static uint64_t
next(void)
{
	uint64_t z = (state += 0x9E3779B97F4A7C15ULL);

	z = (z ^ z >> 30) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ z >> 27) * 0x94D049BB133111EBULL;
	return z ^ z >> 31;
}

int
main(int argc, char *argv[])
{
	unsigned long long n, i, planted = 10;
	uint64_t *fp, x;
	char hex[SH_HEX_LEN];
	int c, f;

	state = 1;
	while ((c = getopt(argc, argv, "p:s:")) != -1) {
		switch (c) {
		case 'p':
			planted = strtoull(optarg, NULL, 10);
			break;
		case 's':
			state = strtoull(optarg, NULL, 10);
			break;
		default:
			goto usage;
		}
	}
	if (optind + 1 != argc)
		goto usage;
	n = strtoull(argv[optind], NULL, 10);
	/* Only planted copies need the earlier ones: -p 0 runs in no
	 * memory, for sizes beyond it. */
	if ((fp = malloc((planted ? n : 1) * sizeof(*fp) + 1)) == NULL)
		return 2;
	for (i = 0; i < n; i++) {
		x = next();
		if (i > 0 && next() % 100 < planted) {
			x = fp[next() % i];
			for (f = (int)(next() % 5); f > 0; f--)
				x ^= (uint64_t)1 << (next() % 64);
		}
		fp[planted ? i : 0] = x;
		sh_hex_format(x, hex);
		fwrite(hex, 1, sizeof(hex), stdout);
		printf("\tf%llu\n", i + 1);
	}
	free(fp);
	return fflush(stdout) != 0 || ferror(stdout) ? 2 : 0;
usage:
	fprintf(stderr, "usage: bench/genfp [-p planted] [-s seed] N\n");
	return 2;
}

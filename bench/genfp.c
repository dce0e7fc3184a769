/*
 * bench/genfp: deterministic fingerprint lines for the search benchmarks.
 * usage: bench/genfp [-m] [-p planted] [-s seed] N
 * Prints N lines "HEX<TAB>fN": uniform random fingerprints, except that a
 * share of `planted` percent (default 10) are copies of an earlier one with
 * 0 to 4 bits flipped.  With -m, each line ends in a sketch ("m1:" and
 * 128 values, sh-fp -B's form): uniform random values, a copy's those of
 * its original with 0 to 12 of them changed (Jaccard about 0.9 and up).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* The low 16 bits of v as 4 hex digits at p. */
static void
hex4(char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 4; i++)
		p[i] = "0123456789abcdef"[v >> (12 - 4 * i) & 15];
}

/* Print the sketch whose values come from seed, with change of them
 * (0..12) replaced, chosen by the generator. */
static void
sketch(uint64_t seed, int change)
{
	static char out[3 + 4 * 128 + 1];
	uint64_t save, v;
	int i, at[12];

	for (i = 0; i < change; i++)
		at[i] = (int)(next() % 128);
	save = state;
	state = seed;
	memcpy(out, "m1:", 3);
	for (i = 0; i < 128; i++) {
		v = next();
		hex4(out + 3 + 4 * i, v);
	}
	state = save;
	for (i = 0; i < change; i++)
		hex4(out + 3 + 4 * at[i], next());
	out[sizeof(out) - 1] = '\0';
	printf("\t%s", out);
}

int
main(int argc, char *argv[])
{
	unsigned long long n, i, planted = 10;
	uint64_t *fp, *seed = NULL, x, sd;
	char hex[SH_HEX_LEN];
	int c, f, m = 0, change;

	state = 1;
	while ((c = getopt(argc, argv, "mp:s:")) != -1) {
		switch (c) {
		case 'm':
			m = 1;
			break;
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
	if ((fp = malloc((planted ? n : 1) * sizeof(*fp) + 1)) == NULL ||
	    (m && (seed = malloc((planted ? n : 1) * sizeof(*seed) +
	    1)) == NULL))
		return 2;
	for (i = 0; i < n; i++) {
		x = next();
		sd = m ? next() : 0;
		change = 0;
		if (i > 0 && next() % 100 < planted) {
			c = (int)(next() % i);
			x = fp[c];
			sd = m ? seed[c] : 0;
			for (f = (int)(next() % 5); f > 0; f--)
				x ^= (uint64_t)1 << (next() % 64);
			change = m ? (int)(next() % 13) : 0;
		}
		fp[planted ? i : 0] = x;
		if (m)
			seed[planted ? i : 0] = sd;
		sh_hex_format(x, hex);
		fwrite(hex, 1, sizeof(hex), stdout);
		printf("\tf%llu", i + 1);
		if (m)
			sketch(sd, change);
		putchar('\n');
	}
	free(fp);
	free(seed);
	return fflush(stdout) != 0 || ferror(stdout) ? 2 : 0;
usage:
	fprintf(stderr, "usage: bench/genfp [-m] [-p planted] [-s seed] N\n");
	return 2;
}

/*
 * evalstat: score fingerprints of edited copies against their sources.
 * SRC holds "HEX<TAB>N" lines, N the source number; COPIES holds
 * "HEX<TAB>N|KIND|RATE|COPY" lines as made by bench/edit and a
 * fingerprinter.  Prints, per edit kind and rate, how many copies lie
 * within each distance k of their source, then how many pairs of
 * unrelated sources do (the false positives) and, with -p, the closest
 * such pairs as "closest D<TAB>N1<TAB>N2" lines.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fpval.h"
#include "near/fpline.h"

#define MAXK		16
#define MAXPAIRS	1000
#define ALLPAIRS	20000		/* up to this many sources: all pairs */
#define NSAMPLE		10000000	/* else this many random pairs */

struct pair {
	int	 d;
	size_t	 i, j;			/* source numbers */
};

struct group {
	char		*name;		/* "KIND|RATE" */
	uint64_t	 hist[65];
	uint64_t	 n;
};

static struct group	*groups;
static size_t		 ngroups;
static uint64_t		*srcfp;		/* indexed by source number */
static unsigned char	*srcok;
static size_t		 srccap;
static int		 status;
static struct pair	 best[MAXPAIRS];	/* closest unrelated pairs */
static int		 nbest, maxbest;

static void
usage(void)
{
	fprintf(stderr,
	    "usage: evalstat [-k k]... [-p pairs] src.fp copies.fp\n");
	exit(2);
}

static void *
xrealloc(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		fprintf(stderr, "evalstat: %s\n", strerror(ENOMEM));
		exit(2);
	}
	if ((p = realloc(p, n * size)) == NULL) {
		fprintf(stderr, "evalstat: %s\n", strerror(errno));
		exit(2);
	}
	return p;
}

static uint64_t
splitmix64(uint64_t *s)
{
	uint64_t z;

	z = (*s += UINT64_C(0x9e3779b97f4a7c15));
	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

static uint64_t
below(uint64_t *s, uint64_t n)
{
	uint64_t r, min;

	min = (0 - n) % n;
	do
		r = splitmix64(s);
	while (r < min);
	return r % n;
}

/* Parse a source number p[0, n) ending at '|' or the end.  -1: bad. */
static int
parsenum(const char *p, size_t n, size_t *num, size_t *used)
{
	size_t i, v = 0;

	for (i = 0; i < n && p[i] != '|'; i++) {
		if (p[i] < '0' || p[i] > '9' || v > (SIZE_MAX - 9) / 10)
			return -1;
		v = v * 10 + (size_t)(p[i] - '0');
	}
	if (i == 0 || v == 0)
		return -1;
	*num = v;
	*used = i;
	return 0;
}

static struct group *
group(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < ngroups; i++)
		if (strlen(groups[i].name) == n &&
		    memcmp(groups[i].name, name, n) == 0)
			return &groups[i];
	groups = xrealloc(groups, ngroups + 1, sizeof(*groups));
	memset(&groups[ngroups], 0, sizeof(*groups));
	groups[ngroups].name = xrealloc(NULL, n + 1, 1);
	memcpy(groups[ngroups].name, name, n);
	groups[ngroups].name[n] = '\0';
	return &groups[ngroups++];
}

static void
bad(const char *file, uintmax_t lineno, const char *what)
{
	fprintf(stderr, "evalstat: %s:%ju: %s\n", file, lineno, what);
	status = 2;
}

/* Read the file; copies says which of the two it is. */
static void
readfp(const char *file, int copies, uint64_t *nocopysrc)
{
	FILE *fp;
	char *line = NULL;
	const char *id, *bar;
	size_t cap = 0, num, used, idn, c;
	ssize_t n;
	uintmax_t lineno = 0;
	uint64_t v;
	struct group *g;

	if ((fp = fopen(file, "r")) == NULL) {
		fprintf(stderr, "evalstat: %s: %s\n", file, strerror(errno));
		exit(2);
	}
	while ((n = getline(&line, &cap, fp)) != -1) {
		lineno++;
		if (n > 0 && line[n - 1] == '\n')
			n--;
		if (sh_fpline_parse(line, (size_t)n, &v, &id, &idn) != 0) {
			bad(file, lineno, "not a fingerprint line");
			continue;
		}
		if (parsenum(id, idn, &num, &used) == -1 ||
		    (!copies && used != idn) || (copies && used == idn)) {
			bad(file, lineno, copies ?
			    "not an N|KIND|RATE|COPY id" :
			    "id is not a source number");
			continue;
		}
		if (!copies) {
			if (num >= srccap) {
				c = srccap ? srccap : 1024;
				while (c <= num)
					c *= 2;
				srcfp = xrealloc(srcfp, c, sizeof(*srcfp));
				srcok = xrealloc(srcok, c, 1);
				memset(srcok + srccap, 0, c - srccap);
				srccap = c;
			}
			if (srcok[num])
				bad(file, lineno, "duplicate source number");
			srcfp[num] = v;
			srcok[num] = 1;
			continue;
		}
		/* The group is KIND|RATE: up to the third '|'. */
		id += used + 1;
		idn -= used + 1;
		bar = memchr(id, '|', idn);
		if (bar != NULL)
			bar = memchr(bar + 1, '|',
			    idn - (size_t)(bar + 1 - id));
		if (bar == NULL)
			bar = id + idn;
		if (num >= srccap || !srcok[num]) {
			(*nocopysrc)++;
			continue;
		}
		g = group(id, (size_t)(bar - id));
		g->hist[sh_hamming(v, srcfp[num])]++;
		g->n++;
	}
	if (ferror(fp)) {
		fprintf(stderr, "evalstat: %s: %s\n", file, strerror(errno));
		status = 2;
	}
	free(line);
	fclose(fp);
}

/* Keep the pair if it is among the maxbest closest seen so far. */
static void
keep(int d, size_t i, size_t j)
{
	int k;

	if (nbest == maxbest && (maxbest == 0 || d >= best[nbest - 1].d))
		return;
	if (nbest < maxbest)
		nbest++;
	for (k = nbest - 1; k > 0 && best[k - 1].d > d; k--)
		best[k] = best[k - 1];
	best[k].d = d;
	best[k].i = i < j ? i : j;
	best[k].j = i < j ? j : i;
}

static double
mean(const uint64_t *hist, uint64_t n)
{
	double s = 0;
	int d;

	for (d = 0; d <= 64; d++)
		s += (double)d * (double)hist[d];
	return n ? s / (double)n : 0;
}

/* Smallest d with at least q of the mass at or below it. */
static int
quantile(const uint64_t *hist, uint64_t n, double q)
{
	uint64_t c = 0;
	int d;

	for (d = 0; d <= 64; d++) {
		c += hist[d];
		if ((double)c >= q * (double)n)
			return d;
	}
	return 64;
}

static uint64_t
within(const uint64_t *hist, int k)
{
	uint64_t c = 0;
	int d;

	for (d = 0; d <= k; d++)
		c += hist[d];
	return c;
}

static double
pct(uint64_t a, uint64_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0;
}

static void
report(const int *ks, int nk, uint64_t nocopysrc)
{
	uint64_t *fps, hist[65] = { 0 }, npairs, s, x;
	size_t *nums, i, j, m;
	char name[64], head[16];
	const char *bar;
	int k, d;

	printf("%-10s %5s %8s", "edit", "rate", "copies");
	for (k = 0; k < nk; k++) {
		snprintf(head, sizeof(head), "d<=%d", ks[k]);
		printf(" %8s", head);
	}
	printf(" %6s %4s %4s\n", "mean", "p50", "p90");
	for (i = 0; i < ngroups; i++) {
		bar = strchr(groups[i].name, '|');
		if (bar == NULL)
			bar = groups[i].name + strlen(groups[i].name);
		snprintf(name, sizeof(name), "%.*s",
		    (int)(bar - groups[i].name), groups[i].name);
		printf("%-10s %4s%% %8ju", name, *bar ? bar + 1 : "-",
		    (uintmax_t)groups[i].n);
		for (k = 0; k < nk; k++)
			printf(" %7.2f%%", pct(within(groups[i].hist, ks[k]),
			    groups[i].n));
		printf(" %6.2f %4d %4d\n", mean(groups[i].hist, groups[i].n),
		    quantile(groups[i].hist, groups[i].n, 0.5),
		    quantile(groups[i].hist, groups[i].n, 0.9));
	}
	if (nocopysrc > 0)
		printf("(%ju copies skipped: their source has no "
		    "fingerprint)\n", (uintmax_t)nocopysrc);

	fps = xrealloc(NULL, srccap ? srccap : 1, sizeof(*fps));
	nums = xrealloc(NULL, srccap ? srccap : 1, sizeof(*nums));
	for (i = m = 0; i < srccap; i++)
		if (srcok[i]) {
			nums[m] = i;
			fps[m++] = srcfp[i];
		}
	if (m <= ALLPAIRS) {
		for (i = 0; i < m; i++)
			for (j = i + 1; j < m; j++) {
				d = sh_hamming(fps[i], fps[j]);
				hist[d]++;
				if (nbest < maxbest ||
				    (nbest > 0 && d < best[nbest - 1].d))
					keep(d, nums[i], nums[j]);
			}
		npairs = (uint64_t)m * (m > 0 ? m - 1 : 0) / 2;
		printf("\nunrelated source pairs: all %ju pairs of %zu "
		    "sources\n", (uintmax_t)npairs, m);
	} else {
		s = UINT64_C(0x5eed);
		for (x = 0; x < NSAMPLE; x++) {
			i = (size_t)below(&s, m);
			j = (size_t)below(&s, m - 1);
			if (j >= i)
				j++;
			d = sh_hamming(fps[i], fps[j]);
			hist[d]++;
			if (nbest < maxbest ||
			    (nbest > 0 && d < best[nbest - 1].d))
				keep(d, nums[i], nums[j]);
		}
		npairs = NSAMPLE;
		printf("\nunrelated source pairs: %ju random pairs of %zu "
		    "sources\n", (uintmax_t)npairs, m);
	}
	for (k = 0; k < nk; k++)
		printf("  d<=%-2d %9.5f%%  (%ju of %ju)\n", ks[k],
		    pct(within(hist, ks[k]), npairs),
		    (uintmax_t)within(hist, ks[k]), (uintmax_t)npairs);
	for (d = 0; d < 64 && hist[d] == 0; d++)
		continue;
	printf("  mean %.2f, p1 %d, min %d\n", mean(hist, npairs),
	    quantile(hist, npairs, 0.01), npairs ? d : 0);
	for (k = 0; k < nbest; k++)
		printf("  closest %d\t%zu\t%zu\n", best[k].d, best[k].i,
		    best[k].j);
	free(fps);
	free(nums);
}

int
main(int argc, char *argv[])
{
	int ks[MAXK], nk = 0, ch;
	uint64_t nocopysrc = 0;
	size_t i;
	long k;
	char *end;

	while ((ch = getopt(argc, argv, "k:p:")) != -1) {
		switch (ch) {
		case 'k':
			errno = 0;
			k = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || k < 0 || k > 64) {
				fprintf(stderr, "evalstat: -k %s: must be 0 "
				    "to 64\n", optarg);
				exit(2);
			}
			if (nk == MAXK) {
				fprintf(stderr, "evalstat: at most %d -k\n",
				    MAXK);
				exit(2);
			}
			ks[nk++] = (int)k;
			break;
		case 'p':
			errno = 0;
			k = strtol(optarg, &end, 10);
			if (errno || *end || end == optarg || k < 0 ||
			    k > MAXPAIRS) {
				fprintf(stderr, "evalstat: -p %s: must be 0 "
				    "to %d\n", optarg, MAXPAIRS);
				exit(2);
			}
			maxbest = (int)k;
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (argc != 2)
		usage();
	if (nk == 0) {
		ks[nk++] = 3;
		ks[nk++] = 6;
	}

	readfp(argv[0], 0, &nocopysrc);
	readfp(argv[1], 1, &nocopysrc);
	report(ks, nk, nocopysrc);

	for (i = 0; i < ngroups; i++)
		free(groups[i].name);
	free(groups);
	free(srcfp);
	free(srcok);
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "evalstat: <stdout>: %s\n", strerror(errno));
		status = 2;
	}
	return status;
}

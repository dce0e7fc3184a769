/*
 * editjoin: every pair of documents at edit similarity at least t, the
 * exact truth of the short-text route (bench/short.sh).  Reads
 * "ID<TAB>TEXT" lines and prints "ID1<TAB>ID2<TAB>S" for each pair whose
 * similarity by sh-dist -J edit (1 - d / max(|a|, |b|) over the folded
 * letters, marks and digits, sh_fold_chars and sh_sim_edit of the
 * library, so the same values to the millionth) is at least t (-t, 0.8).
 *
 * Brute force but for the lengths: the documents are taken by length,
 * and a document is compared with each longer one as long as the
 * lengths alone leave the threshold reachable; sh_sim_edit stops once a
 * pair cannot make it.  Pairs are printed ID1 on the earlier line, in
 * the order of the lines of ID1 then ID2.  Documents without characters
 * are never paired.  Exit 0, or 2 on a read error or a line without a
 * TAB, after which nothing is printed.
 *
 * usage: editjoin [-t min] [file]
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "fp/edit.h"
#include "fp/similar.h"
#include "text/fold.h"

struct doc {
	char *id;
	uint32_t *c;
	size_t nc, line;
};

struct pair {
	size_t a, b;
	uint32_t sim;
};

static int
bylen(const void *x, const void *y)
{
	const struct doc *a = x, *b = y;

	if (a->nc != b->nc)
		return a->nc < b->nc ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int
byline(const void *x, const void *y)
{
	const struct pair *a = x, *b = y;

	if (a->a != b->a)
		return a->a < b->a ? -1 : 1;
	return a->b < b->b ? -1 : a->b > b->b;
}

static void
fail(const char *what)
{
	fprintf(stderr, "editjoin: %s\n", what);
	exit(2);
}

int
main(int argc, char *argv[])
{
	struct doc *d = NULL;
	struct pair *p = NULL;
	struct sh_edit *ws;
	struct sh_fset fa, fb;
	char *line = NULL, *tab, **ids;
	size_t cap = 0, n = 0, dcap = 0, np = 0, pcap = 0, i, j, ccap;
	ssize_t len;
	uint32_t t = 800000, sim;
	FILE *in = stdin;
	int ch, bad;

	while ((ch = getopt(argc, argv, "t:")) != -1)
		if (ch != 't' || sh_sim_parse(optarg, &t) != 0)
			fail("usage: editjoin [-t min] [file]");
	if (optind < argc && (in = fopen(argv[optind], "r")) == NULL)
		fail("cannot open the input");
	while ((len = getline(&line, &cap, in)) > 0) {
		if (line[len - 1] == '\n')
			line[--len] = '\0';
		if ((tab = memchr(line, '\t', (size_t)len)) == NULL)
			fail("a line without a TAB");
		if (n == dcap && (d = realloc(d, (dcap = 2 * dcap + 1024) *
		    sizeof(*d))) == NULL)
			fail("out of memory");
		*tab = '\0';
		if ((d[n].id = strdup(line)) == NULL)
			fail("out of memory");
		d[n].c = NULL;
		ccap = 0;
		bad = 0;
		if (sh_fold_chars(tab + 1, (size_t)(line + len - tab - 1), 0,
		    &d[n].c, &ccap, &d[n].nc, &bad) != 0)
			fail("out of memory");
		d[n].line = n;
		n++;
	}
	if (ferror(in))
		fail("read error");
	if ((ids = malloc((n + 1) * sizeof(*ids))) == NULL ||
	    (ws = sh_edit_new()) == NULL)
		fail("out of memory");
	for (i = 0; i < n; i++)
		ids[i] = d[i].id;
	qsort(d, n, sizeof(*d), bylen);
	memset(&fa, 0, sizeof(fa));
	memset(&fb, 0, sizeof(fb));
	for (i = 0; i < n; i++) {
		if (d[i].nc == 0)
			continue;
		fa.c = d[i].c;
		fa.nc = d[i].nc;
		for (j = i + 1; j < n; j++) {
			/* The longer one's length alone: 1 - (nj - ni) / nj,
			 * rounded, below t for this one and every longer
			 * one. */
			if (2 * (uint64_t)d[i].nc * SH_SIM_ONE <
			    (uint64_t)d[j].nc * (2 * (uint64_t)t - 1))
				break;
			fb.c = d[j].c;
			fb.nc = d[j].nc;
			if (sh_sim_edit(ws, &fa, &fb, t, &sim) != 0)
				fail("out of memory");
			if (sim < t)
				continue;
			if (np == pcap && (p = realloc(p, (pcap = 2 * pcap +
			    1024) * sizeof(*p))) == NULL)
				fail("out of memory");
			p[np].a = d[i].line < d[j].line ? d[i].line : d[j].line;
			p[np].b = d[i].line < d[j].line ? d[j].line : d[i].line;
			p[np++].sim = sim;
		}
	}
	qsort(p, np, sizeof(*p), byline);
	for (i = 0; i < np; i++)
		printf("%s\t%s\t%u.%06u\n", ids[p[i].a], ids[p[i].b],
		    p[i].sim / SH_SIM_ONE, p[i].sim % SH_SIM_ONE);
	if (fflush(stdout) != 0 || ferror(stdout))
		fail("write error");
	for (i = 0; i < n; i++) {
		free(d[i].id);
		free(d[i].c);
	}
	free(d);
	free(p);
	free(ids);
	free(line);
	sh_edit_free(ws);
	if (in != stdin)
		fclose(in);
	return 0;
}

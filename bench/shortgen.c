/*
 * shortgen: a short-text set with reposts, for bench/short.sh.  Reads
 * "ID<TAB>TEXT" lines and prints each, and after every other one a
 * repost "ID~<TAB>TEXT'": the text with m random edits, m drawn
 * uniformly from 1 to a third of its characters (at least 1), each edit
 * one of: a character substituted by one drawn from all the input's
 * characters other than spaces, one inserted likewise, one deleted, or
 * a punctuation mark or a space inserted (CJK or ASCII, as a repost
 * adds them).  Characters are UTF-8 code points, an invalid byte one of
 * its own, never copied elsewhere.  Output depends only on the input
 * and -s.
 *
 * usage: shortgen [-s seed] [file]
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ch {
	char b[4];
	int n;
};

static uint64_t rng = 1;

static uint64_t
next(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
fail(const char *what)
{
	fprintf(stderr, "shortgen: %s\n", what);
	exit(2);
}

/* The length of the UTF-8 character at p (n bytes left): 1 for a byte
 * that starts no valid-looking sequence. */
static int
clen(const unsigned char *p, size_t n)
{
	int l = p[0] < 0xC2 ? 1 : p[0] < 0xE0 ? 2 : p[0] < 0xF0 ? 3 :
	    p[0] < 0xF5 ? 4 : 1;
	int i;

	if ((size_t)l > n)
		return 1;
	for (i = 1; i < l; i++)
		if ((p[i] & 0xC0) != 0x80)
			return 1;
	return l;
}

static const char *const punct[] = { "\xef\xbc\x8c", "\xe3\x80\x82",
    "\xe3\x80\x81", "\xef\xbc\x81", ",", ".", " ", "!", "?" };

int
main(int argc, char *argv[])
{
	char **line = NULL, *l = NULL, *tab;
	struct ch *pool = NULL, *c = NULL, *o;
	size_t n = 0, cap = 0, lcap = 0, np = 0, pcap = 0, nc, ccap = 0, i;
	size_t k, m, at;
	ssize_t len;
	FILE *in = stdin;
	int ch, w;

	while ((ch = getopt(argc, argv, "s:")) != -1)
		if (ch == 's')
			rng = strtoull(optarg, NULL, 10);
		else
			fail("usage: shortgen [-s seed] [file]");
	if (optind < argc && (in = fopen(argv[optind], "r")) == NULL)
		fail("cannot open the input");
	while ((len = getline(&l, &lcap, in)) > 0) {
		if (l[len - 1] == '\n')
			l[--len] = '\0';
		if ((tab = strchr(l, '\t')) == NULL)
			fail("a line without a TAB");
		if (n == cap && (line = realloc(line, (cap = 2 * cap + 1024) *
		    sizeof(*line))) == NULL)
			fail("out of memory");
		if ((line[n++] = strdup(l)) == NULL)
			fail("out of memory");
		for (i = (size_t)(tab + 1 - l); i < (size_t)len; i += w) {
			w = clen((unsigned char *)l + i, (size_t)len - i);
			if (w == 1 && (l[i] == ' ' || (unsigned char)l[i] >= 0x80))
				continue;
			if (np == pcap && (pool = realloc(pool, (pcap = 2 *
			    pcap + 4096) * sizeof(*pool))) == NULL)
				fail("out of memory");
			memcpy(pool[np].b, l + i, (size_t)w);
			pool[np++].n = w;
		}
	}
	if (ferror(in))
		fail("read error");
	for (k = 0; k < n; k++) {
		printf("%s\n", line[k]);
		if (k % 2 != 0 || np == 0)
			continue;
		tab = strchr(line[k], '\t');
		len = (ssize_t)strlen(tab + 1);
		for (nc = 0, i = 0; i < (size_t)len; i += w, nc++) {
			w = clen((unsigned char *)tab + 1 + i, (size_t)len - i);
			if (nc + 2 >= ccap && (c = realloc(c, (ccap = 2 * ccap +
			    256) * sizeof(*c))) == NULL)
				fail("out of memory");
			memcpy(c[nc].b, tab + 1 + i, (size_t)w);
			c[nc].n = w;
		}
		m = 1 + next() % (nc / 3 > 1 ? nc / 3 : 1);
		for (i = 0; i < m; i++) {
			if (nc + 2 >= ccap && (c = realloc(c, (ccap = 2 * ccap +
			    256) * sizeof(*c))) == NULL)
				fail("out of memory");
			at = nc ? next() % nc : 0;
			switch (next() % 4) {
			case 0:		/* substituted */
				if (nc > 0) {
					c[at] = pool[next() % np];
					break;
				}
				/* FALLTHROUGH */
			case 1:		/* inserted */
				memmove(c + at + 1, c + at, (nc - at) *
				    sizeof(*c));
				c[at] = pool[next() % np];
				nc++;
				break;
			case 2:		/* deleted */
				if (nc > 1) {
					memmove(c + at, c + at + 1, (nc - at -
					    1) * sizeof(*c));
					nc--;
				}
				break;
			default:	/* punctuation or a space */
				memmove(c + at + 1, c + at, (nc - at) *
				    sizeof(*c));
				o = &c[at];
				w = (int)(next() % (sizeof(punct) /
				    sizeof(punct[0])));
				o->n = (int)strlen(punct[w]);
				memcpy(o->b, punct[w], (size_t)o->n);
				nc++;
			}
		}
		printf("%.*s~\t", (int)(tab - line[k]), line[k]);
		for (i = 0; i < nc; i++)
			fwrite(c[i].b, 1, (size_t)c[i].n, stdout);
		putchar('\n');
	}
	if (fflush(stdout) != 0 || ferror(stdout))
		fail("write error");
	for (k = 0; k < n; k++)
		free(line[k]);
	free(line);
	free(l);
	free(pool);
	free(c);
	if (in != stdin)
		fclose(in);
	return 0;
}

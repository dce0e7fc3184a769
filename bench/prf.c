/*
 * prf: score the pairs a method found against the true pairs.  TRUTH and
 * PAIRS hold "ID1<TAB>ID2[<TAB>...]" lines; a pair is unordered, counts
 * once however often it is listed, and is ignored when ID1 equals ID2.
 * Prints "tp fp fn precision recall f1": precision is 1 when no pair is
 * predicted, recall 1 when there is no true pair, f1 0 when both are 0.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A set of byte strings: exact compare, keys copied. */
struct set {
	char		*keys;
	size_t		 nkeys, keycap;
	struct ent {
		size_t	 off;
		uint32_t len, hash;
	}		*ents;
	size_t		 n, entcap;
	uint32_t	*tab;		/* 1 + entry, 0 if empty */
	size_t		 tabcap;
};

static const char	*progname = "prf";
static char		*kbuf;		/* the canonical pair */
static size_t		 kbufcap;

static void
usage(void)
{
	fprintf(stderr, "usage: prf truth pairs\n");
	exit(2);
}

static void
nomem(void)
{
	fprintf(stderr, "%s: %s\n", progname, strerror(ENOMEM));
	exit(2);
}

/* Make room for need elements of size bytes in *p, capacity *cap. */
static void *
grow(void *p, size_t *cap, size_t need, size_t size)
{
	size_t n;

	if (need <= *cap)
		return p;
	n = *cap ? *cap : 64;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			nomem();
		n *= 2;
	}
	if ((p = realloc(p, n * size)) == NULL)
		nomem();
	*cap = n;
	return p;
}

/* FNV-1a with a final mix so that the low bits index the table well. */
static uint32_t
hash(const char *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	return (uint32_t)h;
}

static void
set_rehash(struct set *s)
{
	size_t i, j, mask;

	free(s->tab);
	s->tabcap = s->tabcap ? s->tabcap * 2 : 1024;
	if (s->tabcap > (size_t)UINT32_MAX + 1 ||
	    (s->tab = calloc(s->tabcap, sizeof(*s->tab))) == NULL)
		nomem();
	mask = s->tabcap - 1;
	for (i = 0; i < s->n; i++) {
		for (j = s->ents[i].hash & mask; s->tab[j]; j = (j + 1) & mask)
			;
		s->tab[j] = i + 1;
	}
}

/*
 * Look k[0, len) up in s; if absent and add is set, add it.  Return 1 if
 * it was there, else 0.
 */
static int
set_find(struct set *s, const char *k, size_t len, int add)
{
	uint32_t h = hash(k, len);
	size_t i, mask;
	struct ent *e;

	if (s->tab == NULL)
		set_rehash(s);
	mask = s->tabcap - 1;
	for (i = h & mask; s->tab[i]; i = (i + 1) & mask) {
		e = &s->ents[s->tab[i] - 1];
		if (e->hash == h && e->len == len &&
		    memcmp(s->keys + e->off, k, len) == 0)
			return 1;
	}
	if (!add)
		return 0;
	if (s->n == UINT32_MAX - 1 || len > UINT32_MAX) {
		fprintf(stderr, "%s: too many pairs\n", progname);
		exit(2);
	}
	s->keys = grow(s->keys, &s->keycap, s->nkeys + len, 1);
	memcpy(s->keys + s->nkeys, k, len);
	s->ents = grow(s->ents, &s->entcap, s->n + 1, sizeof(*s->ents));
	e = &s->ents[s->n];
	e->off = s->nkeys;
	e->len = len;
	e->hash = h;
	s->nkeys += len;
	s->tab[i] = ++s->n;
	if (s->n * 2 > s->tabcap)
		set_rehash(s);
	return 0;
}

static void
set_free(struct set *s)
{
	free(s->keys);
	free(s->ents);
	free(s->tab);
}

/*
 * Write the canonical form of the pair on line[0, len) to kbuf: the
 * smaller ID (bytewise, a prefix first), a TAB, the larger, its length
 * in *klen.  Return 1, or 0 if the two IDs are equal, -1 if the line has
 * no TAB.
 */
static int
canon(const char *line, size_t len, size_t *klen)
{
	const char *a = line, *b, *t;
	size_t na, nb, n;
	int c;

	if ((t = memchr(line, '\t', len)) == NULL)
		return -1;
	na = t - a;
	b = t + 1;
	nb = len - na - 1;
	if ((t = memchr(b, '\t', nb)) != NULL)
		nb = t - b;
	n = na < nb ? na : nb;
	if ((c = memcmp(a, b, n)) == 0)
		c = (na > nb) - (na < nb);
	if (c == 0)
		return 0;
	if (c > 0) {
		t = a, a = b, b = t;
		n = na, na = nb, nb = n;
	}
	kbuf = grow(kbuf, &kbufcap, na + nb + 1, 1);
	memcpy(kbuf, a, na);
	kbuf[na] = '\t';
	memcpy(kbuf + na + 1, b, nb);
	*klen = na + nb + 1;
	return 1;
}

/*
 * Read the pairs of file name into s.  With truth not NULL, count in *tp
 * the new pairs found in truth and in *fp the others.  Return -1 after
 * reporting an error.
 */
static int
readpairs(const char *name, struct set *s, struct set *truth,
    unsigned long long *tp, unsigned long long *fp)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0, lineno = 0, len, klen;
	ssize_t n;
	int c, rv = 0;

	if (strcmp(name, "-") == 0) {
		f = stdin;
		name = "<stdin>";
	} else if ((f = fopen(name, "r")) == NULL) {
		fprintf(stderr, "%s: %s: %s\n", progname, name,
		    strerror(errno));
		return -1;
	}
	while ((n = getline(&line, &cap, f)) != -1) {
		lineno++;
		len = n;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if ((c = canon(line, len, &klen)) == -1) {
			fprintf(stderr, "%s: %s:%zu: no TAB\n", progname, name,
			    lineno);
			rv = -1;
			break;
		}
		if (c == 0 || set_find(s, kbuf, klen, 1))
			continue;
		if (truth == NULL)
			continue;
		if (set_find(truth, kbuf, klen, 0))
			(*tp)++;
		else
			(*fp)++;
	}
	if (rv == 0 && ferror(f)) {
		fprintf(stderr, "%s: %s: %s\n", progname, name,
		    strerror(errno));
		rv = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return rv;
}

int
main(int argc, char *argv[])
{
	struct set truth, pred;
	unsigned long long tp = 0, fp = 0, fn;
	double p, r, f1;
	int rv;

	if (argc != 3 || (argv[1][0] == '-' && argv[1][1] != '\0'))
		usage();
	memset(&truth, 0, sizeof(truth));
	memset(&pred, 0, sizeof(pred));
	if ((rv = readpairs(argv[1], &truth, NULL, NULL, NULL)) == 0)
		rv = readpairs(argv[2], &pred, &truth, &tp, &fp);
	if (rv == 0) {
		fn = truth.n - tp;
		p = tp + fp ? (double)tp / (tp + fp) : 1;
		r = truth.n ? (double)tp / truth.n : 1;
		f1 = p + r > 0 ? 2 * p * r / (p + r) : 0;
		printf("%llu %llu %llu %.4f %.4f %.4f\n", tp, fp, fn, p, r, f1);
	}
	set_free(&truth);
	set_free(&pred);
	free(kbuf);
	if (rv != 0)
		return 2;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", progname, strerror(errno));
		return 2;
	}
	return 0;
}

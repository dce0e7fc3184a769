/*
 * jaccard: exact all-pairs Jaccard similarity join over shingle sets, the
 * ground truth of the accuracy evaluation.  Reads "ID<TAB>TEXT" lines and
 * prints "ID1<TAB>ID2<TAB>J" for every pair of documents whose shingle
 * sets have |A & B| / |A | B| >= t, or with -s "ID<TAB>SIZE" per document.
 *
 * Shingles.  TEXT is decoded as UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF); a byte that does not start a valid
 * sequence is a separator on its own and decoding resumes at the next
 * byte.  Each code point is of one of three classes:
 *   CJK        U+3040-30FF (kana), U+3400-4DBF, U+4E00-9FFF, U+F900-FAFF,
 *              U+AC00-D7AF (hangul), U+20000-2FFFF;
 *   separator  every ASCII character but the letters and digits, and
 *              U+0080-00A9, U+00AB-00B1, U+00B4, U+00B6-00B8, U+00BB,
 *              U+00BF, U+00D7, U+00F7 (Latin-1 controls, spaces,
 *              punctuation and symbols), U+2000-206F (general
 *              punctuation), U+20A0-20CF (currency), U+2190-2BFF (arrows,
 *              mathematical and technical symbols, box drawing, shapes,
 *              dingbats), U+2E00-2E7F (supplemental punctuation),
 *              U+3000-303F (CJK symbols and punctuation), U+FE10-FE1F,
 *              U+FE30-FE6F (vertical, compatibility and small forms),
 *              U+FEFF, U+FF00-FF0F, U+FF1A-FF20, U+FF3B-FF40,
 *              U+FF5B-FF65 (full-width and half-width punctuation),
 *              U+FFF0-FFFF (specials), U+1F000-1FAFF (emoji, symbols);
 *   word       the ASCII letters and digits and every other code point.
 * A word is a maximal run of word characters, ASCII letters lowercased;
 * a CJK character ends a word.  Shingles never reach across the other
 * script: a stretch of words runs up to the next CJK character (separators
 * do not end it), and a run of CJK characters up to the next character
 * that is not CJK, as the tokenizer of sh-fp cuts text.  A word shingle
 * is W (-w, 3) consecutive words of a stretch, a CJK shingle C (-c, 5)
 * consecutive characters of a run; a stretch or run that is shorter than
 * its n makes one shingle of all of it.  With -S (spanning), the words of
 * the document form one stream and its CJK characters another, separators
 * and the other script skipped, so that shingles reach across them.  The set of a
 * document is the union of its distinct word and CJK shingles, as byte
 * strings: "w" and the words joined by one space, or "c" and the
 * characters as they are in TEXT.  Shingles are interned exactly (full
 * compare), never reduced to hashes.
 *
 * The join.  Shingles are ranked by increasing document frequency (ties
 * by first appearance), each set is sorted by rank, and the documents are
 * taken by increasing set size (ties by line).  Document x probes the
 * inverted lists of the first |x| - ceil(t |x|) + 1 shingles of its set
 * (its prefix) and is then added to those lists; a pair needs a common
 * shingle in both prefixes.  Lists drop documents below t |x| (size
 * filter) and a candidate whose shared prefix shingles and remaining
 * lengths cannot reach the overlap needed is dropped (PPJoin's positional
 * filter).  Survivors are verified by merging the two sets.  All tests
 * use integers, t in millionths: a pair qualifies when
 * inter * 1000000 >= t * union.  Documents with an empty set are never
 * paired; duplicate IDs are different documents.
 *
 * Output: pairs sorted by the line of ID1, then of ID2, ID1 on the
 * earlier line (lines count on from one file to the next), J as "%.6f"
 * of inter / union.  After an error (a file that cannot be read, a line
 * without TAB) nothing is printed and the exit status is 2: the truth of
 * part of the input would mislead.  Cost: reading is linear, the join
 * about the number of prefix list entries visited plus one merge per
 * candidate that survives the filters; memory about 50 bytes a distinct
 * shingle and 4 a set element, at the peak while reading.
 */

#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MILLION		1000000
#define MAXN		1000		/* largest -w and -c */

enum { C_SEP, C_WORD, C_CJK };

/* A word or CJK character: text[off, off + len). */
struct span {
	size_t		 off, len;
};

/* A distinct shingle; its id is its index in shingles[]. */
struct shingle {
	uint64_t	 off;		/* key in keys[] */
	uint32_t	 len;
	uint32_t	 hash;
	uint32_t	 df;		/* documents holding it */
	uint32_t	 last;		/* 1 + last document counted */
};

struct doc {
	size_t		 idoff;		/* ID in idbuf[] */
	size_t		 idlen;
	size_t		 eoff;		/* set in elems[] */
	uint32_t	 n;		/* set size */
};

/* A prefix list entry: document doc has the shingle at position pos. */
struct post {
	uint32_t	 doc, pos;
};

struct pair {
	uint32_t	 a, b;		/* documents, a < b */
	uint32_t	 inter, uni;
};

/* Non-ASCII separators, inclusive ranges in increasing order. */
static const uint32_t sepranges[][2] = {
	{ 0x0080, 0x00a9 }, { 0x00ab, 0x00b1 }, { 0x00b4, 0x00b4 },
	{ 0x00b6, 0x00b8 }, { 0x00bb, 0x00bb }, { 0x00bf, 0x00bf },
	{ 0x00d7, 0x00d7 }, { 0x00f7, 0x00f7 }, { 0x2000, 0x206f },
	{ 0x20a0, 0x20cf }, { 0x2190, 0x2bff }, { 0x2e00, 0x2e7f },
	{ 0x3000, 0x303f }, { 0xfe10, 0xfe1f }, { 0xfe30, 0xfe6f },
	{ 0xfeff, 0xfeff }, { 0xff00, 0xff0f }, { 0xff1a, 0xff20 },
	{ 0xff3b, 0xff40 }, { 0xff5b, 0xff65 }, { 0xfff0, 0xffff },
	{ 0x1f000, 0x1faff },
};
#define NSEPRANGES	(sizeof(sepranges) / sizeof(sepranges[0]))

static const char	*progname = "jaccard";
static uint32_t		 tm;		/* threshold in millionths */
static size_t		 wn = 3, cn = 5;

static struct shingle	*shingles;
static size_t		 nshingles, shcap;
static char		*keys;
static size_t		 nkeys, keycap;
static uint32_t		*table;		/* 1 + id, 0: empty */
static size_t		 tabcap;
static struct doc	*docs;
static size_t		 ndocs, doccap;
static char		*idbuf;
static size_t		 nidbuf, idcap;
static uint32_t		*elems;		/* the sets, end to end */
static size_t		 nelems, elemcap;
static int		 spanning;	/* -S */
static struct span	*words, *cjks;
static size_t		 wordcap, cjkcap;
static char		*kbuf;		/* the shingle being built */
static size_t		 kbufcap;
static struct pair	*pairs;
static size_t		 npairs, paircap;

/*
 * The join works on ranks (see rank()).  The prefix lists are for the
 * ranks nrare and up: a rarer shingle is in one set only and cannot make
 * a pair.  The list of rank nrare + r is posts[head[r], fill[r]), its
 * documents in the order they were added, so by increasing size; head[r]
 * moves past those too small for the documents still to come.
 */
static size_t		 nrare;
static struct post	*posts;
static size_t		*head, *fill;
static int32_t		*acc;		/* shared, -1: ruled out */
static uint32_t		*touched;	/* documents with acc != 0 */

static void
usage(void)
{
	fprintf(stderr, "usage: jaccard [-S] [-c n] [-w n] -t threshold [file ...]\n"
	    "       jaccard -s [-S] [-c n] [-w n] [file ...]\n");
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
rehash(void)
{
	size_t i, j, mask;

	free(table);
	tabcap = tabcap ? tabcap * 2 : 1024;
	if (tabcap > (size_t)UINT32_MAX + 1 ||
	    (table = calloc(tabcap, sizeof(*table))) == NULL)
		nomem();
	mask = tabcap - 1;
	for (i = 0; i < nshingles; i++) {
		for (j = shingles[i].hash & mask; table[j]; j = (j + 1) & mask)
			;
		table[j] = i + 1;
	}
}

/* The id of shingle k[0, len), added if new. */
static uint32_t
intern(const char *k, size_t len)
{
	uint32_t h = hash(k, len);
	size_t i, mask = tabcap - 1;
	struct shingle *s;

	for (i = h & mask; table[i]; i = (i + 1) & mask) {
		s = &shingles[table[i] - 1];
		if (s->hash == h && s->len == len &&
		    memcmp(keys + s->off, k, len) == 0)
			return table[i] - 1;
	}
	if (nshingles == UINT32_MAX - 1) {
		fprintf(stderr, "%s: too many shingles\n", progname);
		exit(2);
	}
	keys = grow(keys, &keycap, nkeys + len, 1);
	memcpy(keys + nkeys, k, len);
	shingles = grow(shingles, &shcap, nshingles + 1, sizeof(*shingles));
	s = &shingles[nshingles];
	s->off = nkeys;
	s->len = len;
	s->hash = h;
	s->df = 0;
	s->last = 0;
	nkeys += len;
	table[i] = ++nshingles;
	if (nshingles * 2 > tabcap)
		rehash();
	return nshingles - 1;
}

/* Put shingle k[0, len) in the set of the document being read. */
static void
add(const char *k, size_t len)
{
	uint32_t id = intern(k, len);
	struct shingle *s = &shingles[id];

	if (s->last == ndocs + 1)
		return;
	s->last = ndocs + 1;
	s->df++;
	elems = grow(elems, &elemcap, nelems + 1, sizeof(*elems));
	elems[nelems++] = id;
}

/*
 * Decode the code point at p[0, len), len > 0, into *cp: return its
 * length in bytes, or 0 if p does not start a valid UTF-8 sequence.
 */
static size_t
decode(const unsigned char *p, size_t len, uint32_t *cp)
{
	uint32_t c = p[0], lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2;
		c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3;
		if (c == 0xe0)
			lo = 0xa0;
		else if (c == 0xed)
			hi = 0x9f;
		c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4;
		if (c == 0xf0)
			lo = 0x90;
		else if (c == 0xf4)
			hi = 0x8f;
		c &= 0x07;
	} else
		return 0;
	if (len < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 1; i < n; i++) {
		if (i > 1 && (p[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3f);
	}
	*cp = c;
	return n;
}

static int
cpclass(uint32_t c)
{
	size_t i;

	if (c < 0x80)
		return ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
		    (c >= '0' && c <= '9') ? C_WORD : C_SEP;
	if ((c >= 0x3040 && c <= 0x30ff) || (c >= 0x3400 && c <= 0x4dbf) ||
	    (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) ||
	    (c >= 0xac00 && c <= 0xd7af) || (c >= 0x20000 && c <= 0x2ffff))
		return C_CJK;
	for (i = 0; i < NSEPRANGES && c >= sepranges[i][0]; i++)
		if (c <= sepranges[i][1])
			return C_SEP;
	return C_WORD;
}

/* Append the span off, len to *v (len 0: a break between stretches). */
static void
push(struct span **v, size_t *cap, size_t *n, size_t off, size_t len)
{
	*v = grow(*v, cap, *n + 1, sizeof(**v));
	(*v)[*n].off = off;
	(*v)[(*n)++].len = len;
}

/* End the stretch or run of v[0, *n), unless spanning or ended. */
static void
cut(struct span **v, size_t *cap, size_t *n)
{
	if (!spanning && *n > 0 && (*v)[*n - 1].len != 0)
		push(v, cap, n, 0, 0);
}

/*
 * Cut text[0, len) into the words, words[0, *nw), and the CJK characters,
 * cjks[0, *nc), each with breaks (spans of length 0) where a stretch or
 * a run ends; ASCII letters of words are lowercased in place.
 */
static void
scan(char *text, size_t len, size_t *nw, size_t *nc)
{
	const unsigned char *p = (const unsigned char *)text;
	size_t i = 0, n, start = 0;
	int cl, inword = 0;
	uint32_t c;

	*nw = *nc = 0;
	while (i < len) {
		if ((n = decode(p + i, len - i, &c)) == 0) {
			n = 1;
			cl = C_SEP;
		} else
			cl = cpclass(c);
		if (cl != C_CJK)
			cut(&cjks, &cjkcap, nc);
		if (cl == C_WORD) {
			if (!inword)
				start = i;
			inword = 1;
			if (c >= 'A' && c <= 'Z')
				text[i] = c + ('a' - 'A');
		} else {
			if (inword)
				push(&words, &wordcap, nw, start, i - start);
			inword = 0;
			if (cl == C_CJK) {
				cut(&words, &wordcap, nw);
				push(&cjks, &cjkcap, nc, i, n);
			}
		}
		i += n;
	}
	if (inword)
		push(&words, &wordcap, nw, start, i - start);
}

/*
 * Add the shingles of n consecutive units of v[0, nv) of text, or one of
 * all of them if there are fewer: tag, then the units joined by sep (none
 * if sep is 0).  Return -1 if a shingle is too long to intern.
 */
static int
shingle(const char *text, const struct span *v, size_t nv, size_t n,
    char tag, char sep)
{
	size_t i, j, len;

	if (nv < n)
		n = nv;
	for (i = 0; n > 0 && i + n <= nv; i++) {
		len = 1;
		for (j = i; j < i + n; j++)
			len += v[j].len + (sep && j > i);
		if (len > UINT32_MAX)
			return -1;
		kbuf = grow(kbuf, &kbufcap, len, 1);
		kbuf[0] = tag;
		len = 1;
		for (j = i; j < i + n; j++) {
			if (sep && j > i)
				kbuf[len++] = sep;
			memcpy(kbuf + len, text + v[j].off, v[j].len);
			len += v[j].len;
		}
		add(kbuf, len);
	}
	return 0;
}

/* The shingles of each stretch or run of v[0, nv), as shingle does. */
static int
cutshingles(const char *text, const struct span *v, size_t nv, size_t n,
    char tag, char sep)
{
	size_t a, b;

	for (a = 0; a < nv; a = b + 1) {
		for (b = a; b < nv && v[b].len != 0; b++)
			;
		if (shingle(text, v + a, b - a, n, tag, sep) == -1)
			return -1;
	}
	return 0;
}

/* Add the document of ID id[0, idlen) and TEXT text[0, len). */
static int
adddoc(const char *id, size_t idlen, char *text, size_t len)
{
	struct doc *d;
	size_t nw, nc;

	if (ndocs == UINT32_MAX - 1) {
		fprintf(stderr, "%s: too many documents\n", progname);
		return -1;
	}
	docs = grow(docs, &doccap, ndocs + 1, sizeof(*docs));
	d = &docs[ndocs];
	idbuf = grow(idbuf, &idcap, nidbuf + idlen + 1, 1);
	memcpy(idbuf + nidbuf, id, idlen);
	d->idoff = nidbuf;
	d->idlen = idlen;
	nidbuf += idlen;
	d->eoff = nelems;
	scan(text, len, &nw, &nc);
	if (cutshingles(text, words, nw, wn, 'w', ' ') == -1 ||
	    cutshingles(text, cjks, nc, cn, 'c', 0) == -1)
		return -1;
	if (nelems - d->eoff > UINT32_MAX)
		return -1;
	d->n = nelems - d->eoff;
	ndocs++;
	return 0;
}

/* Read the documents of fp; return -1 after reporting an error. */
static int
readdocs(FILE *fp, const char *name)
{
	char *line = NULL, *tab;
	size_t cap = 0, lineno = 0, len;
	ssize_t n;
	int rv = 0;

	while ((n = getline(&line, &cap, fp)) != -1) {
		lineno++;
		len = n;
		if (len > 0 && line[len - 1] == '\n')
			len--;
		if ((tab = memchr(line, '\t', len)) == NULL) {
			fprintf(stderr, "%s: %s:%zu: no TAB\n", progname,
			    name, lineno);
			rv = -1;
			break;
		}
		if (adddoc(line, tab - line, tab + 1,
		    len - (tab + 1 - line)) == -1) {
			fprintf(stderr, "%s: %s:%zu: document too large\n",
			    progname, name, lineno);
			rv = -1;
			break;
		}
	}
	if (rv == 0 && ferror(fp)) {
		fprintf(stderr, "%s: %s: %s\n", progname, name,
		    strerror(errno));
		rv = -1;
	}
	free(line);
	return rv;
}

static int
cmpu32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

static int
cmpsize(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (docs[x].n != docs[y].n)
		return docs[x].n < docs[y].n ? -1 : 1;
	return (x > y) - (x < y);
}

static int
cmppair(const void *a, const void *b)
{
	const struct pair *x = a, *y = b;

	if (x->a != y->a)
		return x->a < y->a ? -1 : 1;
	return (x->b > y->b) - (x->b < y->b);
}

/*
 * Replace shingle ids by their rank in increasing document frequency,
 * ties by id, and sort each set by rank.  Return how many ranks, from 0,
 * belong to shingles of one document.  Frees the shingle table.
 */
static size_t
rank(void)
{
	size_t *start, i, rare, maxdf = 0;
	uint32_t *rk;

	for (i = 0; i < nshingles; i++)
		if (shingles[i].df > maxdf)
			maxdf = shingles[i].df;
	if ((start = calloc(maxdf + 3, sizeof(*start))) == NULL ||
	    (rk = malloc((nshingles + 1) * sizeof(*rk))) == NULL)
		nomem();
	for (i = 0; i < nshingles; i++)
		start[shingles[i].df + 1]++;
	for (i = 1; i <= maxdf + 1; i++)
		start[i] += start[i - 1];
	rare = start[2];
	for (i = 0; i < nshingles; i++)
		rk[i] = start[shingles[i].df]++;
	free(start);
	free(shingles);
	free(keys);
	free(table);
	shingles = NULL;
	keys = NULL;
	table = NULL;
	for (i = 0; i < nelems; i++)
		elems[i] = rk[elems[i]];
	free(rk);
	for (i = 0; i < ndocs; i++)
		if (docs[i].n > 1)
			qsort(elems + docs[i].eoff, docs[i].n, sizeof(*elems),
			    cmpu32);
	return rare;
}

/* The least overlap of sets of sizes nx and ny with Jaccard >= t. */
static uint32_t
minoverlap(uint64_t nx, uint64_t ny)
{
	return ((uint64_t)tm * (nx + ny) + MILLION + tm - 1) / (MILLION + tm);
}

/* The prefix length of a set of n: n - ceil(t n) + 1. */
static uint32_t
prefixlen(uint64_t n)
{
	return n - ((uint64_t)tm * n + MILLION - 1) / MILLION + 1;
}

/* Merge sets x and y; record the pair if it qualifies. */
static void
verify(uint32_t x, uint32_t y)
{
	const uint32_t *a = elems + docs[x].eoff, *b = elems + docs[y].eoff;
	uint32_t na = docs[x].n, nb = docs[y].n, i = 0, j = 0, inter = 0;
	uint32_t need = minoverlap(na, nb), uni;

	while (i < na && j < nb) {
		if (a[i] == b[j]) {
			inter++;
			i++;
			j++;
		} else {
			if (a[i] < b[j])
				i++;
			else
				j++;
			if (inter + (na - i < nb - j ? na - i : nb - j) < need)
				return;
		}
	}
	uni = na + nb - inter;
	if ((uint64_t)inter * MILLION < (uint64_t)tm * uni)
		return;
	pairs = grow(pairs, &paircap, npairs + 1, sizeof(*pairs));
	pairs[npairs].a = x < y ? x : y;
	pairs[npairs].b = x < y ? y : x;
	pairs[npairs].inter = inter;
	pairs[npairs++].uni = uni;
}

/* Lay out the lists for the documents of order[0, norder), empty. */
static void
lists_new(const uint32_t *order, size_t norder)
{
	size_t nlist = nshingles - nrare, k, r, n, total = 0;
	const uint32_t *s;
	uint32_t i, px;

	head = calloc(nlist + 1, sizeof(*head));
	fill = calloc(nlist + 1, sizeof(*fill));
	acc = calloc(ndocs + 1, sizeof(*acc));
	touched = malloc((ndocs + 1) * sizeof(*touched));
	if (!head || !fill || !acc || !touched)
		nomem();
	for (k = 0; k < norder; k++) {
		s = elems + docs[order[k]].eoff;
		px = prefixlen(docs[order[k]].n);
		for (i = 0; i < px; i++)
			if (s[i] >= nrare)
				fill[s[i] - nrare]++;
	}
	for (r = 0; r < nlist; r++) {
		n = fill[r];
		head[r] = fill[r] = total;
		total += n;
	}
	if ((posts = malloc((total + 1) * sizeof(*posts))) == NULL)
		nomem();
}

static void
lists_free(void)
{
	free(posts);
	free(head);
	free(fill);
	free(acc);
	free(touched);
}

/*
 * Pair document x with the documents already in the lists: gather those
 * that share a prefix shingle and pass the size and positional filters,
 * then verify them.
 */
static void
probe(uint32_t x)
{
	const uint32_t *s = elems + docs[x].eoff;
	uint32_t nx = docs[x].n, px = prefixlen(nx), i, y, ny, rest;
	uint32_t minsize = ((uint64_t)tm * nx + MILLION - 1) / MILLION;
	size_t h, end, r, ntouched = 0;

	for (i = 0; i < px; i++) {
		if (s[i] < nrare)
			continue;
		r = s[i] - nrare;
		end = fill[r];
		for (h = head[r]; h < end && docs[posts[h].doc].n < minsize;
		    h++)
			;
		head[r] = h;
		for (; h < end; h++) {
			y = posts[h].doc;
			if (acc[y] < 0)
				continue;
			if (acc[y] == 0)
				touched[ntouched++] = y;
			/*
			 * acc[y] counts the shared shingles before this one:
			 * with this one and at most all the rest of the
			 * shorter remainder, can they reach the overlap?
			 */
			ny = docs[y].n;
			rest = nx - i - 1;
			if (ny - posts[h].pos - 1 < rest)
				rest = ny - posts[h].pos - 1;
			if (acc[y] + 1 + rest >= minoverlap(nx, ny))
				acc[y]++;
			else
				acc[y] = -1;
		}
	}
	for (h = 0; h < ntouched; h++) {
		y = touched[h];
		if (acc[y] > 0)
			verify(x, y);
		acc[y] = 0;
	}
}

/* Add the prefix of document x to the lists. */
static void
index_doc(uint32_t x)
{
	const uint32_t *s = elems + docs[x].eoff;
	uint32_t i, px = prefixlen(docs[x].n);
	size_t r;

	for (i = 0; i < px; i++) {
		if (s[i] < nrare)
			continue;
		r = s[i] - nrare;
		posts[fill[r]].doc = x;
		posts[fill[r]++].pos = i;
	}
}

/* Fill pairs[] with the qualifying pairs, sorted. */
static void
join(void)
{
	uint32_t *order;
	size_t k, norder = 0;

	if ((order = malloc((ndocs + 1) * sizeof(*order))) == NULL)
		nomem();
	for (k = 0; k < ndocs; k++)
		if (docs[k].n > 0)
			order[norder++] = k;
	if (norder > 1)
		qsort(order, norder, sizeof(*order), cmpsize);
	lists_new(order, norder);
	for (k = 0; k < norder; k++) {
		probe(order[k]);
		index_doc(order[k]);
	}
	lists_free();
	free(order);
	if (npairs > 1)
		qsort(pairs, npairs, sizeof(*pairs), cmppair);
}

static void
putid(uint32_t d)
{
	fwrite(idbuf + docs[d].idoff, 1, docs[d].idlen, stdout);
}

/* Parse a threshold of at most 6 decimals, 0 < t <= 1, into *t. */
static int
parsethresh(const char *s, uint32_t *t)
{
	uint64_t v = 0, scale = MILLION;
	int digits = 0;

	for (; *s >= '0' && *s <= '9'; s++, digits++)
		if ((v = v * 10 + (*s - '0')) > 1)
			return -1;
	v *= MILLION;
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, digits++) {
			if ((scale /= 10) == 0)
				return -1;
			v += (*s - '0') * scale;
		}
	if (*s != '\0' || digits == 0 || v == 0 || v > MILLION)
		return -1;
	*t = v;
	return 0;
}

static size_t
parsen(int opt, const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (end == s || *end != '\0') {
		fprintf(stderr, "%s: -%c %s: invalid value\n", progname, opt,
		    s);
		exit(2);
	}
	if (errno == ERANGE || v < 1 || v > MAXN) {
		fprintf(stderr, "%s: -%c %s: number out of range\n", progname,
		    opt, s);
		exit(2);
	}
	return v;
}

static void
cleanup(void)
{
	free(shingles);
	free(keys);
	free(table);
	free(docs);
	free(idbuf);
	free(elems);
	free(words);
	free(cjks);
	free(kbuf);
	free(pairs);
}

int
main(int argc, char *argv[])
{
	FILE *fp;
	size_t i;
	int ch, sflag = 0, tflag = 0, status = 0;

	while ((ch = getopt(argc, argv, "Sc:st:w:")) != -1) {
		switch (ch) {
		case 'S':
			spanning = 1;
			break;
		case 'c':
			cn = parsen(ch, optarg);
			break;
		case 's':
			sflag = 1;
			break;
		case 't':
			if (parsethresh(optarg, &tm) == -1) {
				fprintf(stderr, "%s: -t %s: threshold not in "
				    "(0, 1] with at most 6 decimals\n",
				    progname, optarg);
				return 2;
			}
			tflag = 1;
			break;
		case 'w':
			wn = parsen(ch, optarg);
			break;
		default:
			usage();
		}
	}
	argc -= optind;
	argv += optind;
	if (!tflag && !sflag)
		usage();

	rehash();
	if (argc == 0)
		status = readdocs(stdin, "<stdin>");
	for (i = 0; i < (size_t)argc && status == 0; i++) {
		if (strcmp(argv[i], "-") == 0) {
			status = readdocs(stdin, "<stdin>");
			continue;
		}
		if ((fp = fopen(argv[i], "r")) == NULL) {
			fprintf(stderr, "%s: %s: %s\n", progname, argv[i],
			    strerror(errno));
			status = -1;
			break;
		}
		status = readdocs(fp, argv[i]);
		fclose(fp);
	}
	if (status == 0 && sflag) {
		for (i = 0; i < ndocs; i++) {
			putid(i);
			printf("\t%lu\n", (unsigned long)docs[i].n);
		}
	} else if (status == 0) {
		nrare = rank();
		join();
		for (i = 0; i < npairs; i++) {
			putid(pairs[i].a);
			putchar('\t');
			putid(pairs[i].b);
			printf("\t%.6f\n",
			    (double)pairs[i].inter / pairs[i].uni);
		}
	}
	cleanup();
	if (status != 0)
		return 2;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		fprintf(stderr, "%s: stdout: %s\n", progname, strerror(errno));
		return 2;
	}
	return 0;
}

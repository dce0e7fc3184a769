#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "fp/edit.h"

/*
 * The pattern's elements by value: for each, the bit vector of the rows
 * (of a block of 64) it is at, in an open-addressed table of twice as
 * many slots as it can hold, so that a probe seldom goes past one.  A
 * mask of 0 is an empty slot.
 */
#define SLOT_BITS 7
#define SLOTS (1 << SLOT_BITS)

struct peq {
	uint64_t mask[SLOTS];
	uint32_t key[SLOTS];
};

/* A block of 64 rows in the column done last: its vertical deltas (+1
 * and -1 at the bits set) and the value of its bottom row; its rows (64
 * but in the last block) and the bit of the bottom one. */
struct blk {
	uint64_t pv, mv;
	size_t score;
	size_t rows;
	uint64_t bot;
};

struct sh_edit {
	struct peq *peq;	/* all empty between calls */
	struct blk *blk;
	size_t cap;		/* blocks of both */
	unsigned char *used;	/* the slot of each pattern element */
	size_t ucap;
};

struct sh_edit *
sh_edit_new(void)
{
	return calloc(1, sizeof(struct sh_edit));
}

void
sh_edit_free(struct sh_edit *e)
{
	if (e == NULL)
		return;
	free(e->peq);
	free(e->blk);
	free(e->used);
	free(e);
}

/* The first slot of value c in a table of 2^bits slots. */
static inline unsigned
slot0(uint32_t c, int bits)
{
	return (uint32_t)(c * 0x9E3779B1u) >> (32 - bits);
}

/* The slot of c in mask and key (2^bits slots): its own, or the empty
 * one where it would go. */
static inline unsigned
find(const uint64_t *mask, const uint32_t *key, uint32_t c, int bits)
{
	unsigned s = slot0(c, bits), end = (1u << bits) - 1;

	while (mask[s] != 0 && key[s] != c)
		s = (s + 1) & end;
	return s;
}

/*
 * One column of a block of the dynamic program (Hyyrö's form of Myers'
 * step): the pattern rows equal to the text's element at eq, the
 * horizontal delta entering at the top hin (-1, 0, 1); the deltas of the
 * column in *b updated; return the horizontal delta leaving at row bit
 * hi.
 */
static inline int
step(struct blk *b, uint64_t eq, int hin, uint64_t hi)
{
	uint64_t pv = b->pv, mv = b->mv, neg = hin < 0;
	uint64_t xv = eq | mv, xh, ph, mh;
	int hout;

	eq |= neg;
	xh = (((eq & pv) + pv) ^ pv) | eq;
	ph = mv | ~(xh | pv);
	mh = pv & xh;
	/* Without a branch: the sign of a delta is no guess. */
	hout = (int)((ph & hi) != 0) - (int)((mh & hi) != 0);
	ph = ph << 1 | (uint64_t)(hin > 0);
	mh = mh << 1 | neg;
	b->pv = mh | ~(xv | ph);
	b->mv = ph & xv;
	return hout;
}

/* The distance of pattern p[0..m), 1 <= m <= 64, and text t[0..n), n >=
 * m, when at most max (at most n); else max + 1. */
static size_t
dist64(const uint32_t *p, size_t m, const uint32_t *t, size_t n, size_t max)
{
	uint64_t mask[SLOTS], hi = (uint64_t)1 << (m - 1);
	uint32_t key[SLOTS];
	struct blk b = { ~(uint64_t)0, 0, m, m, 0 };
	unsigned s;
	size_t i;
	int bits = 1;

	while (((size_t)1 << bits) < 2 * m)
		bits++;
	memset(mask, 0, sizeof(*mask) << bits);
	for (i = 0; i < m; i++) {
		s = find(mask, key, p[i], bits);
		key[s] = p[i];
		mask[s] |= (uint64_t)1 << i;
	}
	for (i = 0; i < n; i++) {
		s = find(mask, key, t[i], bits);
		b.score += (size_t)step(&b, mask[s], 1, hi);
		/* The last row falls by at most 1 a column. */
		if (b.score > max + (n - i - 1))
			return max + 1;
	}
	return b.score;
}

/*
 * dist64 for m > 64, in blocks: at column j (1-based), only the rows
 * from j - above to j + below matter, those of a path within max of the
 * two ends (a cell (i, j) is at least |i - j| from the start and |(m -
 * i) - (n - j)| from the end).  A block enters below with the values a
 * path down from the one above gives it, and the topmost block takes a
 * +1 from above once the blocks over it left: both are values of paths,
 * never below the distances, and the cells of a path of cost max or less
 * come out exact.  Return as dist64, or SH_ENOMEM.
 */
static long long
dist_blocks(struct sh_edit *e, const uint32_t *p, size_t m, const uint32_t *t,
    size_t n, size_t max)
{
	size_t nb = (m + 63) / 64, above, below, i, j, lo, hi, first, last, b;
	size_t low, v, d;
	struct blk *bk;
	struct peq *q;
	uint64_t eq;
	uint32_t c;
	unsigned s, s0;
	int hin;

	if (e->cap < nb) {
		free(e->peq);
		free(e->blk);
		e->blk = NULL;
		e->cap = 0;
		if ((e->peq = calloc(nb, sizeof(*e->peq))) == NULL ||
		    (e->blk = malloc(nb * sizeof(*e->blk))) == NULL)
			return SH_ENOMEM;
		e->cap = nb;
	}
	if (e->ucap < m && sh_grow(&e->used, &e->ucap, m, 1) != 0)
		return SH_ENOMEM;
	for (i = 0; i < m; i++) {
		q = &e->peq[i / 64];
		s = find(q->mask, q->key, p[i], SLOT_BITS);
		q->key[s] = p[i];
		q->mask[s] |= (uint64_t)1 << (i % 64);
		e->used[i] = (unsigned char)s;
	}
	above = (max + (n - m)) / 2;
	below = (max - (n - m)) / 2;
	first = 0;
	last = 0;
	d = max + 1;
	for (j = 1; j <= n; j++) {
		lo = j > above ? j - above : 1;
		hi = j + below < m ? j + below : m;
		/* Blocks entering: from column 0 (j = 1) they are exact. */
		for (b = j == 1 ? 0 : last + 1; b <= (hi - 1) / 64; b++) {
			bk = &e->blk[b];
			bk->pv = ~(uint64_t)0;
			bk->mv = 0;
			bk->rows = b + 1 < nb ? 64 : m - 64 * b;
			bk->bot = (uint64_t)1 << (bk->rows - 1);
			bk->score = (b > 0 ? e->blk[b - 1].score : 0) +
			    bk->rows;
			last = b;
		}
		first = (lo - 1) / 64;
		c = t[j - 1];
		s0 = slot0(c, SLOT_BITS);
		hin = 1;
		low = (size_t)-1;
		for (b = first; b <= last; b++) {
			q = &e->peq[b];
			for (s = s0; q->mask[s] != 0 && q->key[s] != c;
			    s = (s + 1) & (SLOTS - 1))
				;
			eq = q->mask[s];
			bk = &e->blk[b];
			hin = step(bk, eq, hin, bk->bot);
			bk->score += (size_t)hin;
			/* No cell of the block is below this. */
			v = bk->score + 1 > bk->rows ? bk->score + 1 - bk->rows :
			    0;
			low = v < low ? v : low;
		}
		if (low > max)
			goto out;
	}
	d = e->blk[nb - 1].score;
out:
	for (i = 0; i < m; i++)
		e->peq[i / 64].mask[e->used[i]] = 0;
	return (long long)(d > max ? max + 1 : d);
}

long long
sh_edit_dist(struct sh_edit *e, const uint32_t *a, size_t na,
    const uint32_t *b, size_t nb, size_t max)
{
	const uint32_t *t;
	struct sh_edit *own = NULL;
	size_t n;
	long long r;

	/* The common ends cost nothing; then a is the shorter. */
	while (na > 0 && nb > 0 && a[0] == b[0]) {
		a++;
		b++;
		na--;
		nb--;
	}
	while (na > 0 && nb > 0 && a[na - 1] == b[nb - 1]) {
		na--;
		nb--;
	}
	if (na > nb) {
		t = a;
		a = b;
		b = t;
		n = na;
		na = nb;
		nb = n;
	}
	if (max > nb)
		max = nb;
	if (nb - na > max)
		return (long long)max + 1;
	if (na == 0)
		return (long long)nb;
	if (na <= 64)
		return (long long)dist64(a, na, b, nb, max);
	if (e == NULL && (e = own = sh_edit_new()) == NULL)
		return SH_ENOMEM;
	r = dist_blocks(e, a, na, b, nb, max);
	sh_edit_free(own);
	return r;
}

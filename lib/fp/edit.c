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

/* The pattern's column done last: its vertical deltas (+1 and -1 at the
 * bits set) and the value of its bottom row. */
struct blk {
	uint64_t pv, mv;
	size_t score;
};

/*
 * The dense form, where it fits in DENSE words: each distinct element of
 * the pattern numbered (in a table of keys and numbers + 1, 0 empty),
 * and for each block, D + 1 bit vectors: those of the elements numbered
 * 0 to D - 1 (the distinct elements), then 0 for the elements of the
 * text that are not in the pattern.  The text's elements are then looked
 * up once for all the blocks.
 */
#define DENSE (1 << 18)

static int dense_on = 1;

struct sh_edit {
	struct peq *peq;	/* all empty between calls */
	size_t cap;		/* its blocks */
	unsigned char *used;	/* the slot of each pattern element */
	size_t ucap;
	uint32_t *ikey, *inum;	/* the numbers; inum all 0 between calls */
	size_t islots;
	uint32_t *pnum;		/* the number of each pattern element */
	uint32_t *islot;	/* the slot of each number */
	size_t pcap;
	uint64_t *rows;		/* the dense table */
	size_t rcap;
	unsigned char *h;	/* a block's horizontal deltas, by column */
	size_t hcap;
	uint32_t *tid;		/* the numbers of the text's elements */
	size_t tcap;
};

void
sh_edit_dense(int on)
{
	dense_on = on;
}

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
	free(e->used);
	free(e->ikey);
	free(e->inum);
	free(e->pnum);
	free(e->islot);
	free(e->rows);
	free(e->h);
	free(e->tid);
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
	struct blk b = { ~(uint64_t)0, 0, m };
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
 * The dense table of pattern p[0..m) in nb blocks, when it fits: return
 * its distinct elements D (for each block, rows 0 to D of e->rows, the
 * bit vectors of the elements numbered 0 to D - 1 and 0; the numbers in
 * e->inum, 2^*bits slots), 0 when it does not fit (nothing left in the
 * numbers), or SH_ENOMEM.
 */
static long long
dense(struct sh_edit *e, const uint32_t *p, size_t m, size_t nb, int *bits)
{
	size_t i, k, nd = 0, slots;
	unsigned s;

	*bits = 1;
	while (((size_t)1 << *bits) < 2 * m)
		(*bits)++;
	slots = (size_t)1 << *bits;
	if (e->islots < slots) {
		free(e->ikey);
		free(e->inum);
		e->islots = 0;
		if ((e->ikey = malloc(slots * sizeof(*e->ikey))) == NULL ||
		    (e->inum = calloc(slots, sizeof(*e->inum))) == NULL)
			return SH_ENOMEM;
		e->islots = slots;
	}
	if (e->pcap < m) {
		free(e->pnum);
		free(e->islot);
		e->pcap = 0;
		if ((e->pnum = malloc(m * sizeof(*e->pnum))) == NULL ||
		    (e->islot = malloc(m * sizeof(*e->islot))) == NULL)
			return SH_ENOMEM;
		e->pcap = m;
	}
	for (i = 0; i < m; i++) {
		s = slot0(p[i], *bits);
		while (e->inum[s] != 0 && e->ikey[s] != p[i])
			s = (s + 1) & (unsigned)(slots - 1);
		if (e->inum[s] == 0) {
			e->ikey[s] = p[i];
			e->islot[nd] = s;
			e->inum[s] = (uint32_t)++nd;
		}
		e->pnum[i] = e->inum[s] - 1;
	}
	if ((nd + 1) * nb > DENSE || (e->rcap < (nd + 1) * nb &&
	    sh_grow(&e->rows, &e->rcap, (nd + 1) * nb, sizeof(*e->rows)) !=
	    0)) {
		for (k = 0; k < nd; k++)
			e->inum[e->islot[k]] = 0;
		return (nd + 1) * nb > DENSE ? 0 : SH_ENOMEM;
	}
	memset(e->rows, 0, (nd + 1) * nb * sizeof(*e->rows));
	for (i = 0; i < m; i++)
		e->rows[i / 64 * (nd + 1) + e->pnum[i]] |= (uint64_t)1 <<
		    (i % 64);
	return (long long)nd;
}

/*
 * dist64 for m > 64, in blocks of 64 rows, one block at a time over the
 * columns it is needed in, its deltas in registers, the horizontal delta
 * at its bottom row left in e->h for the block below.  At column j
 * (1-based), only the rows from j - above to j + below matter, those of
 * a path within max of the two ends (a cell (i, j) is at least |i - j|
 * from the start and |(m - i) - (n - j)| from the end).  A block enters
 * with the values a path down from the one above gives it, and takes a
 * +1 from above once the block over it left: both are values of paths,
 * never below the distances, and the cells of a path of cost max or less
 * come out exact.  Every path crosses the bottom row of each block: once
 * the value there plus the least cost to the end is above max at each
 * column, so is the distance.  Return as dist64, or SH_ENOMEM.
 */
static long long
dist_blocks(struct sh_edit *e, const uint32_t *p, size_t m, const uint32_t *t,
    size_t n, size_t max)
{
	size_t nb = (m + 63) / 64, above, below, i, j, b, js, je, nextjs;
	size_t rows, score = 0, enter = 0, prevend = 0, low, v, rest, d;
	const uint64_t *rb = NULL;
	struct peq *q;
	uint64_t eq, bot, pv, mv, xv, xh, ph, mh, neg;
	uint32_t c;
	unsigned s;
	long long nd = 0;
	int hin, bits = 0;

	if (e->cap < nb) {
		free(e->peq);
		e->cap = 0;
		if ((e->peq = calloc(nb, sizeof(*e->peq))) == NULL)
			return SH_ENOMEM;
		e->cap = nb;
	}
	if ((e->hcap < n + 1 && sh_grow(&e->h, &e->hcap, n + 1, 1) != 0) ||
	    (e->tcap < n && sh_grow(&e->tid, &e->tcap, n,
	    sizeof(*e->tid)) != 0) ||
	    (e->ucap < m && sh_grow(&e->used, &e->ucap, m, 1) != 0) ||
	    (dense_on && (nd = dense(e, p, m, nb, &bits)) < 0))
		return SH_ENOMEM;
	if (nd > 0)
		/* The text's elements numbered once for every block. */
		for (j = 0; j < n; j++) {
			s = slot0(t[j], bits);
			while (e->inum[s] != 0 && e->ikey[s] != t[j])
				s = (s + 1) & ((1u << bits) - 1);
			e->tid[j] = e->inum[s] != 0 ? e->inum[s] - 1 :
			    (uint32_t)nd;
		}
	for (i = 0; nd == 0 && i < m; i++) {
		q = &e->peq[i / 64];
		s = find(q->mask, q->key, p[i], SLOT_BITS);
		q->key[s] = p[i];
		q->mask[s] |= (uint64_t)1 << (i % 64);
		e->used[i] = (unsigned char)s;
	}
	above = (max + (n - m)) / 2;
	below = (max - (n - m)) / 2;
	d = max + 1;
	for (b = 0; b < nb; b++) {
		rows = b + 1 < nb ? 64 : m - 64 * b;
		bot = (uint64_t)1 << (rows - 1);
		/* The columns where the block is needed, and where the next
		 * one enters. */
		js = 64 * b + 1 > below ? 64 * b + 1 - below : 1;
		je = 64 * b + 64 + above < n ? 64 * b + 64 + above : n;
		nextjs = 64 * b + 65 > below ? 64 * b + 65 - below : 1;
		/* Below a block that left, +1 from above. */
		for (j = prevend + 1; j <= je; j++)
			e->h[j] = 1;
		/* Entering at column js - 1: the value above, then down. */
		score = enter + rows;
		enter = score;
		pv = ~(uint64_t)0;
		mv = 0;
		rest = m - 64 * b - rows;
		low = (size_t)-1;
		if (nd > 0)
			rb = e->rows + b * ((size_t)nd + 1);
		q = &e->peq[b];
		for (j = js; j <= je; j++) {
			if (nd > 0)
				eq = rb[e->tid[j - 1]];
			else {
				c = t[j - 1];
				eq = q->mask[find(q->mask, q->key, c,
				    SLOT_BITS)];
			}
			/* step(), with the deltas in registers */
			hin = (signed char)e->h[j];
			neg = hin < 0;
			xv = eq | mv;
			eq |= neg;
			xh = (((eq & pv) + pv) ^ pv) | eq;
			ph = mv | ~(xh | pv);
			mh = pv & xh;
			score += (size_t)((ph & bot) != 0);
			score -= (size_t)((mh & bot) != 0);
			e->h[j] = (unsigned char)(signed char)
			    ((int)((ph & bot) != 0) - (int)((mh & bot) != 0));
			ph = ph << 1 | (uint64_t)(hin > 0);
			mh = mh << 1 | neg;
			pv = mh | ~(xv | ph);
			mv = ph & xv;
			if (j + 1 == nextjs)
				enter = score;
			v = score + (rest > n - j ? rest - (n - j) :
			    (n - j) - rest);
			low = v < low ? v : low;
		}
		if (low > max)
			goto out;
		prevend = je;
	}
	d = score;
out:
	for (i = 0; nd == 0 && i < m; i++)
		e->peq[i / 64].mask[e->used[i]] = 0;
	for (i = 0; i < (size_t)nd; i++)
		e->inum[e->islot[i]] = 0;
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

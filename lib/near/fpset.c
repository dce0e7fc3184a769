#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/grow.h"
#include "base/hash.h"
#include "near/fpset.h"
#include "near/pairline.h"

int
sh_fpset_open(struct sh_fpset *s, size_t budget, const char *tmpdir)
{
	memset(s, 0, sizeof(*s));
	s->budget = budget;
	s->tmpdir = tmpdir;
	sh_fplist_init(&s->list);
	return budget ? sh_fpstore_open(&s->store, tmpdir) : 0;
}

void
sh_fpset_close(struct sh_fpset *s)
{
	if (s->budget)
		sh_fpstore_close(&s->store);
	sh_fplist_free(&s->list);
	sh_fpfiles_free(&s->files);
	sh_xsort_free(s->x);
	free(s->pairs.v);
	free(s->map);
	free(s->buf);
	free(s->buf2);
	memset(s, 0, sizeof(*s));
}

int
sh_fpset_add(struct sh_fpset *s, sh_fpval fp, const char *id, size_t len)
{
	if (s->budget)
		return sh_fpstore_add(&s->store, fp, id, len);
	return sh_fplist_add(&s->list, fp, id, len);
}

struct sh_fplist *
sh_fpset_list(struct sh_fpset *s)
{
	return s->budget ? NULL : &s->list;
}

struct sh_fpfiles *
sh_fpset_files(struct sh_fpset *s)
{
	return s->budget ? NULL : &s->files;
}

size_t
sh_fpset_n(const struct sh_fpset *s)
{
	return s->budget ? (size_t)s->store.n : s->list.n;
}

int
sh_fpset_fp(struct sh_fpset *s, size_t i, sh_fpval *fp)
{
	if (s->budget)
		return sh_fpstore_fp(&s->store, i, fp);
	*fp = s->list.fp[i];
	return 0;
}

int
sh_fpset_id(struct sh_fpset *s, size_t i, const char **id, size_t *len)
{
	int e;

	if (!s->budget) {
		*id = sh_fplist_id(&s->list, i, len);
		return 0;
	}
	if ((e = sh_fpstore_id(&s->store, i, &s->buf, &s->bufcap, len)) != 0)
		return e;
	*id = s->buf;
	return 0;
}

int
sh_fpset_ids(struct sh_fpset *s, size_t a, size_t b, const char *id[2],
    size_t len[2])
{
	int e;

	if (!s->budget) {
		id[0] = sh_fplist_id(&s->list, a, &len[0]);
		id[1] = sh_fplist_id(&s->list, b, &len[1]);
		return 0;
	}
	if ((e = sh_fpstore_id(&s->store, a, &s->buf, &s->bufcap,
	    &len[0])) != 0 || (e = sh_fpstore_id(&s->store, b, &s->buf2,
	    &s->buf2cap, &len[1])) != 0)
		return e;
	id[0] = s->buf;
	id[1] = s->buf2;
	return 0;
}

int
sh_fpset_join(struct sh_fpset *s, const struct sh_plan *plan, int nthreads,
    const struct sh_shard *shard, const struct sh_progress *pg)
{
	uint64_t *have;
	size_t i;
	uint32_t a, b;
	int e;

	if (s->budget)
		return sh_join_ext(&s->store, plan, shard, s->budget,
		    s->tmpdir, pg, &s->x);
	if ((e = sh_join(s->list.fp, s->list.n, plan, nthreads, shard, pg,
	    &s->pairs)) != 0 || s->files.n == 0)
		return e;
	/* The entries whose IDs are read back: those of the pairs. */
	if ((have = calloc(s->list.n / 64 + 1, sizeof(*have))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < s->pairs.n; i++) {
		a = (uint32_t)(s->pairs.v[i] >> 32);
		b = (uint32_t)s->pairs.v[i];
		have[a >> 6] |= (uint64_t)1 << (a & 63);
		have[b >> 6] |= (uint64_t)1 << (b & 63);
	}
	return sh_fpload_ids(&s->list, &s->files, have, pg, &s->failed);
}

/*
 * The ID map: open addressing over 2^b >= 2n slots, each the top 32 bits
 * of the ID's hash and the entry + 1 (0: empty).  *slot is where the ID
 * id[0..len) is (return 1) or would go (return 0); < 0 on error.  An entry
 * whose tag matches is told apart by its ID, read again.
 */
static int
find(struct sh_fpset *s, const char *id, size_t len, uint64_t h,
    size_t *slot)
{
	const char *other;
	size_t i, olen;
	uint64_t v;
	int e;

	for (i = h & (s->mapcap - 1);; i = (i + 1) & (s->mapcap - 1)) {
		if ((v = s->map[i]) == 0)
			break;
		if (v >> 32 != h >> 32)
			continue;
		if ((e = sh_fpset_id(s, (size_t)(v & 0xFFFFFFFF) - 1, &other,
		    &olen)) != 0)
			return e;
		if (olen == len && memcmp(other, id, len) == 0) {
			*slot = i;
			return 1;
		}
	}
	*slot = i;
	return 0;
}

static int
map_build(struct sh_fpset *s)
{
	const char *id;
	char *own = NULL;	/* a stored ID: find() reads others in s->buf */
	size_t i, n = sh_fpset_n(s), len, cap = 0, slot;
	uint64_t h;
	int e = 0;

	if (n >= 0xFFFFFFFF)
		return SH_ERANGE;
	for (s->mapcap = 16; s->mapcap < 2 * n; s->mapcap *= 2)
		;
	if ((s->map = calloc(s->mapcap, sizeof(*s->map))) == NULL)
		return SH_ENOMEM;
	for (i = 0; i < n && e == 0; i++) {
		if (!s->budget)
			id = sh_fplist_id(&s->list, i, &len);
		else if ((e = sh_fpstore_nextid(&s->store, &own, &cap,
		    &len)) != 1) {
			e = e ? e : SH_EIO;	/* fewer IDs than entries */
			break;
		} else
			id = own;
		h = sh_hash64(id, len, 0);
		if ((e = find(s, id, len, h, &slot)) == 0)
			s->map[slot] = (h >> 32) << 32 | (i + 1);
		else if (e == 1) {
			s->dup = i;
			e = SH_EDUPID;
		}
	}
	free(own);
	return e;
}

/* Entry of ID id[0..len) into *i. */
static int
lookup(struct sh_fpset *s, const char *id, size_t len, uint64_t *i)
{
	size_t slot;
	int e;

	if ((e = find(s, id, len, sh_hash64(id, len, 0), &slot)) < 0)
		return e;
	if (e == 0)
		return SH_EUNKNOWN;
	*i = (s->map[slot] & 0xFFFFFFFF) - 1;
	return 0;
}

int
sh_fpset_given_line(struct sh_fpset *s, const char *p, size_t len)
{
	const char *a, *b;
	size_t alen, blen;
	int e;

	if ((e = sh_pairline_parse(p, len, &a, &alen, &b, &blen)) != 0)
		return e;
	return sh_fpset_given(s, a, alen, b, blen);
}

int
sh_fpset_given(struct sh_fpset *s, const char *a, size_t alen,
    const char *b, size_t blen)
{
	uint64_t i, j, t;
	int e = 0;

	if (s->map == NULL) {
		if ((e = sh_fpset_ready(s)) != 0)
			return e;
		if (s->budget && (s->x = sh_xsort_new(s->budget,
		    s->tmpdir)) == NULL)
			return SH_ENOMEM;
		if ((e = map_build(s)) != 0) {
			free(s->map);
			s->map = NULL;
			return e;
		}
	}
	/* The second lookup may overwrite the first ID's buffer: fine, only
	 * the entry numbers are kept. */
	if ((e = lookup(s, a, alen, &i)) != 0 ||
	    (e = lookup(s, b, blen, &j)) != 0)
		return e;
	if (i == j)
		return 0;
	if (i > j) {
		t = i;
		i = j;
		j = t;
	}
	return sh_fpset_pair(s, (uint32_t)i, (uint32_t)j);
}

int
sh_fpset_ready(struct sh_fpset *s)
{
	int e;

	if (!s->budget || s->ready)
		return 0;
	if ((e = sh_fpstore_rewind(&s->store)) == 0)
		s->ready = 1;
	return e;
}

int
sh_fpset_pair(struct sh_fpset *s, uint32_t a, uint32_t b)
{
	sh_fpval fa, fb;
	int e = 0;

	s->unsorted = 1;
	if (!s->budget)
		return sh_pairs_add(&s->pairs, (uint64_t)a << 32 | b);
	if ((e = sh_fpset_ready(s)) != 0)
		return e;
	if (s->x == NULL && (s->x = sh_xsort_new(s->budget / 2,
	    s->tmpdir)) == NULL)
		return SH_ENOMEM;
	if ((e = sh_fpstore_fp(&s->store, a, &fa)) != 0 ||
	    (e = sh_fpstore_fp(&s->store, b, &fb)) != 0)
		return e;
	return sh_xsort_add(s->x, (uint64_t)a << 32 | b,
	    (uint64_t)sh_hamming(fa, fb));
}

/* The next pair of the external sort, read AHEAD at a time so that the
 * stored IDs of the later entries are asked for ahead, their misses
 * overlapping.  Return 1, 0 at the end, or an error. */
static int
next_spilled(struct sh_fpset *s, struct sh_xrec *r)
{
	int e = 1;

	if (s->ahead_at == s->ahead_n) {
		s->ahead_at = s->ahead_n = 0;
		while (s->x != NULL && s->ahead_n < SH_FPSET_AHEAD &&
		    (e = sh_xsort_next(s->x, &s->ahead[s->ahead_n])) == 1)
			sh_fpstore_prefetch(&s->store,
			    s->ahead[s->ahead_n++].a & 0xFFFFFFFF, 0);
		if (e < 0 || s->ahead_n == 0)
			return e < 0 ? e : 0;
	}
	if (s->ahead_at + 4 < s->ahead_n)
		sh_fpstore_prefetch(&s->store, s->ahead[s->ahead_at + 4].a &
		    0xFFFFFFFF, 1);
	*r = s->ahead[s->ahead_at++];
	return 1;
}

int
sh_fpset_next(struct sh_fpset *s, uint32_t *a, uint32_t *b, int *dist)
{
	struct sh_xrec r;
	uint32_t j;
	int e = 0;

	if (s->at == 0 && s->last == 0 && !s->budget && s->unsorted)
		sh_pairs_sort(&s->pairs);
	do {
		if (!s->budget) {
			if (s->at == s->pairs.n)
				return 0;
			/* The later entries lie anywhere: their fingerprints
			 * and IDs asked for ahead, the misses overlapping. */
			for (j = 0; j < 3; j++)
				if (s->at + (16 >> j) < s->pairs.n)
					sh_fplist_prefetch(&s->list, (uint32_t)
					    s->pairs.v[s->at + (16 >> j)],
					    (int)j);
			r.a = s->pairs.v[s->at++];
			r.b = (uint64_t)sh_hamming(s->list.fp[r.a >> 32],
			    s->list.fp[r.a & 0xFFFFFFFF]);
		} else if ((e = next_spilled(s, &r)) <= 0)
			return e;
		/* A pair given twice (a shard's output given twice) is one
		 * pair. */
	} while (s->last == r.a + 1);
	s->last = r.a + 1;
	*a = (uint32_t)(r.a >> 32);
	*b = (uint32_t)r.a;
	*dist = (int)r.b;
	return 1;
}

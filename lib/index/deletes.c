#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/io.h"
#include "index/deletes.h"
#include "index/ixfile.h"
#include "index/segint.h"

static const unsigned char magic[8] = "\x89SHD\r\n\x1a\n";

#define HEAD 24		/* magic, version, count */
#define REC 16

void
sh_segdel_free(struct sh_segdel *d)
{
	free(d->rec);
	free(d->dead);
	free(d->part);
	free(d->kpos);
	free(d->koff);
	free(d->kept);
	memset(d, 0, sizeof(*d));
}

static void
setbit(uint64_t *m, uint64_t i)
{
	m[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* Whether entry pos is deleted in part. */
static int
partly(const struct sh_segdel *d, uint64_t pos)
{
	return d->part != NULL && (d->part[pos >> 6] >> (pos & 63) & 1);
}

/* The records of d, from the file's bytes p (n records), checked. */
static int
records(struct sh_segdel *d, const unsigned char *p, struct sh_seg *s)
{
	struct sh_delrec *r;
	uint64_t i, first;

	for (i = 0; i < d->n; i++, p += REC) {
		r = &d->rec[i];
		r->pos = rd64(p);
		r->ord = rd32(p + 8);
		r->nids = rd32(p + 12);
		if (r->pos >= s->nfp || r->ord >= r->nids ||
		    (s->bands && r->nids != 1))
			return SH_ECORRUPT;
		if (i > 0 && (r[-1].pos > r->pos || (r[-1].pos == r->pos &&
		    (r[-1].ord >= r->ord || r[-1].nids != r->nids))))
			return SH_ECORRUPT;
	}
	/* Each entry's records: all its IDs (dead), or some (part). */
	for (i = 0; i < d->n; i = first) {
		for (first = i; first < d->n && d->rec[first].pos ==
		    d->rec[i].pos; first++)
			;
		if (first - i == d->rec[i].nids) {
			setbit(d->dead, d->rec[i].pos);
			d->ndead++;
		} else {
			setbit(d->part, d->rec[i].pos);
			d->nk++;
		}
	}
	return 0;
}

/* The IDs kept of the entries partly deleted, read from s. */
static int
kept(struct sh_segdel *d, struct sh_seg *s)
{
	const char *p, *id;
	size_t len, idlen, cap = 0, k = 0, at = 0;
	uint64_t i, j;
	uint32_t ord;
	int e;

	d->kpos = malloc(d->nk * sizeof(*d->kpos) + 1);
	d->koff = malloc((d->nk + 1) * sizeof(*d->koff));
	if (d->kpos == NULL || d->koff == NULL)
		return SH_ENOMEM;
	for (i = 0; i < d->n; i = j) {
		for (j = i; j < d->n && d->rec[j].pos == d->rec[i].pos; j++)
			;
		if (!partly(d, d->rec[i].pos))
			continue;
		if ((e = sh_seg_ids(s, d->rec[i].pos, &p, &len)) != 0)
			return e;
		d->kpos[k] = d->rec[i].pos;
		d->koff[k++] = at;
		for (ord = 0; sh_ids_next(&p, &len, &id, &idlen); ord++) {
			if (i < j && d->rec[i].ord == ord) {
				i++;
				continue;
			}
			if (sh_grow(&d->kept, &cap, at + idlen + 1, 1) != 0)
				return SH_ENOMEM;
			memcpy(d->kept + at, id, idlen);
			d->kept[at + idlen] = '\n';
			at += idlen + 1;
		}
		/* The entry holds the IDs its records say. */
		if (i != j || ord != d->rec[j - 1].nids)
			return SH_ECORRUPT;
	}
	d->koff[k] = at;
	return 0;
}

int
sh_segdel_read(struct sh_segdel *d, const char *path, struct sh_seg *s)
{
	unsigned char *buf = NULL, m[8];
	struct stat st;
	uint64_t words;
	int fd, e;

	memset(d, 0, sizeof(*d));
	if ((e = sh_ixfile_open(path, O_RDONLY, &fd)) != 0)
		return e;
	if (fstat(fd, &st) != 0) {
		e = SH_EIO;
		goto out;
	}
	if ((uint64_t)st.st_size < HEAD + 8) {
		e = SH_ETRUNC;
		goto out;
	}
	/* Another file first: its size says nothing. */
	if ((e = sh_pread_all(fd, m, 8, 0)) != 0)
		goto out;
	if (memcmp(m, magic, 8) != 0) {
		e = SH_EMAGIC;
		goto out;
	}
	/* No more records than the segment has IDs. */
	if ((uint64_t)st.st_size > HEAD + 8 + (uint64_t)REC * s->nid) {
		e = SH_ECORRUPT;
		goto out;
	}
	if ((buf = malloc((size_t)st.st_size)) == NULL) {
		e = SH_ENOMEM;
		goto out;
	}
	if ((e = sh_pread_all(fd, buf, (size_t)st.st_size, 0)) != 0)
		goto out;
	d->n = rd64(buf + 16);
	if (rd64(buf + 8) != 1)
		e = SH_EVERSION;
	else if (d->n > s->nid || (uint64_t)st.st_size != HEAD + 8 +
	    REC * d->n)
		e = (uint64_t)st.st_size < HEAD + 8 + REC * d->n &&
		    d->n <= s->nid ? SH_ETRUNC : SH_ECORRUPT;
	else if (rd64(buf + st.st_size - 8) != sh_hash64(buf,
	    (size_t)st.st_size - 8, 0))
		e = SH_ECORRUPT;
	if (e != 0)
		goto out;
	words = (s->nfp + 63) / 64 + 1;
	d->rec = malloc(d->n * sizeof(*d->rec) + 1);
	d->dead = calloc((size_t)words, 8);
	d->part = calloc((size_t)words, 8);
	if (d->rec == NULL || d->dead == NULL || d->part == NULL)
		e = SH_ENOMEM;
	if (e == 0 && (e = records(d, buf + HEAD, s)) == 0)
		e = kept(d, s);
out:
	free(buf);
	close(fd);
	if (e != 0)
		sh_segdel_free(d);
	return e;
}

int
sh_segdel_verify(const struct sh_segdel *d, struct sh_seg *s)
{
	const char *p, *id;
	size_t len, idlen;
	uint64_t i, n;
	int e;

	for (i = 0; i < d->n; i++) {
		if (i > 0 && d->rec[i - 1].pos == d->rec[i].pos)
			continue;
		if ((e = sh_seg_ids(s, d->rec[i].pos, &p, &len)) != 0)
			return e;
		for (n = 0; sh_ids_next(&p, &len, &id, &idlen); n++)
			;
		if (n != d->rec[i].nids)
			return SH_ECORRUPT;
	}
	return 0;
}

/* The first record of entry pos, or of the first entry after it, at
 * or after ord. */
static uint64_t
find(const struct sh_segdel *d, uint64_t pos, uint32_t ord)
{
	uint64_t lo = 0, hi = d->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->rec[mid].pos < pos || (d->rec[mid].pos == pos &&
		    d->rec[mid].ord < ord))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int
sh_segdel_gone(const struct sh_segdel *d, uint64_t pos, uint32_t ord)
{
	uint64_t i;

	if (!partly(d, pos))
		return sh_segdel_dead(d, pos);
	i = find(d, pos, ord);
	return i < d->n && d->rec[i].pos == pos && d->rec[i].ord == ord;
}

uint32_t
sh_segdel_nids(const struct sh_segdel *d, uint64_t pos)
{
	uint64_t i = find(d, pos, 0);

	return i < d->n && d->rec[i].pos == pos ? d->rec[i].nids : 0;
}

int
sh_segdel_ids(const struct sh_segdel *d, struct sh_seg *s, uint64_t pos,
    const char **p, size_t *len)
{
	size_t lo = 0, hi = d->nk, mid;

	if (!partly(d, pos)) {
		if (!sh_segdel_dead(d, pos))
			return sh_seg_ids(s, pos, p, len);
		*p = "";
		*len = 0;
		return 0;
	}
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->kpos[mid] < pos)
			lo = mid + 1;
		else
			hi = mid;
	}
	*p = d->kept + d->koff[lo];
	*len = (size_t)(d->koff[lo + 1] - d->koff[lo]);
	return 0;
}

int
sh_segdel_bytes(const struct sh_segdel *d, struct sh_seg *s,
    uint64_t *bytes)
{
	const char *p, *id;
	size_t len, idlen;
	uint64_t i, j, k;
	uint32_t ord;
	int e;

	*bytes = 0;
	for (i = 0; i < d->n; i = j) {
		for (j = i; j < d->n && d->rec[j].pos == d->rec[i].pos; j++)
			;
		if ((e = sh_seg_ids(s, d->rec[i].pos, &p, &len)) != 0)
			return e;
		for (ord = 0, k = i; sh_ids_next(&p, &len, &id, &idlen); ord++)
			if (k < j && d->rec[k].ord == ord) {
				*bytes += idlen + 1;
				k++;
			}
		if (k != j)
			return SH_ECORRUPT;
	}
	return 0;
}

/* Entry u of the band source and those after it that are deleted:
 * the first of them left. */
static uint64_t
skip_dead(const struct sh_segdel *d, uint64_t u)
{
	while (sh_segdel_dead(d, u))
		u++;
	return u;
}

/* Entry i of those left: f->ui, the entry of in it is. */
static int
band_seek(struct sh_delband *f, uint64_t i)
{
	if (i < f->li) {
		f->li = 0;
		f->ui = skip_dead(f->d, 0);
	}
	for (; f->li < i; f->li++)
		f->ui = skip_dead(f->d, f->ui + 1);
	return f->ui < f->in.n ? 0 : SH_ECORRUPT;
}

static int
band_entry(void *ctx, uint64_t i, sh_fpval *fp, const char **id,
    size_t *len)
{
	struct sh_delband *f = ctx;
	int e;

	if ((e = band_seek(f, i)) != 0)
		return e;
	return f->in.entry(f->in.ctx, f->ui, fp, id, len);
}

static int
band_loc(void *ctx, uint64_t i, struct sh_segloc *l)
{
	struct sh_delband *f = ctx;
	int e;

	if ((e = band_seek(f, i)) != 0)
		return e;
	return f->in.loc(f->in.ctx, f->ui, l);
}

static int
band_key(void *ctx, int j, uint64_t i, uint64_t *key, uint32_t *ref)
{
	struct sh_delband *f = ctx;
	int e;

	if (j != f->band || i < f->kl) {
		f->band = j;
		f->kl = f->ku = 0;
	}
	for (;; f->ku++) {
		if (f->ku >= f->in.n)
			return SH_ECORRUPT;
		if ((e = f->in.key(f->in.ctx, j, f->ku, key, ref)) != 0)
			return e;
		/* The bitmap holds the source's entries, no more. */
		if (*ref >= f->in.n)
			return SH_ECORRUPT;
		if (sh_segdel_dead(f->d, *ref))
			continue;
		if (f->kl++ == i)
			break;
	}
	f->ku++;
	/* Its entry numbered among those left: a band entry holds one ID,
	 * so the records before it are the entries deleted before it. */
	*ref -= (uint32_t)find(f->d, *ref, 0);
	return 0;
}

void
sh_segdel_band(const struct sh_segdel *d, const struct sh_bandsrc *in,
    struct sh_delband *f, struct sh_bandsrc *out)
{
	memset(f, 0, sizeof(*f));
	f->in = *in;
	f->d = d;
	f->band = -1;
	f->ui = skip_dead(d, 0);
	*out = *in;
	out->n = in->n - d->ndead;
	out->entry = band_entry;
	out->key = band_key;
	out->loc = in->loc != NULL ? band_loc : NULL;
	out->ctx = f;
}

int
sh_segdel_write(int fd, const struct sh_delrec *rec, uint64_t n)
{
	struct sh_hash64_state h;
	unsigned char b[256 * REC];
	uint64_t i;
	size_t at;
	int e;

	memcpy(b, magic, 8);
	put64(b + 8, 1);
	put64(b + 16, n);
	sh_hash64_init(&h, 0);
	for (i = 0, at = HEAD; i <= n; i++) {
		if (i == n || at + REC > sizeof(b)) {
			sh_hash64_update(&h, b, at);
			if ((e = sh_write_all(fd, b, at)) != 0)
				return e;
			at = 0;
		}
		if (i < n) {
			put64(b + at, rec[i].pos);
			put64(b + at + 8, (uint64_t)rec[i].ord |
			    (uint64_t)rec[i].nids << 32);
			at += REC;
		}
	}
	put64(b, sh_hash64_final(&h));
	return sh_write_all(fd, b, 8);
}

int
sh_segdel_is(const char *path)
{
	return sh_ixfile_magic(path, magic);
}

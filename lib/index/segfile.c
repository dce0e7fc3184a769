/*
 * The file of a segment (segint.h), under both kinds of tables: its
 * header and checksums written and checked, its body's chunks checked
 * as they are read, and the entries' fingerprints and IDs, laid out
 * alike in every version.  segment.c (fingerprint tables) and bandseg.c
 * (band tables) stand on it; it knows neither.
 */
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/hash.h"
#include "base/io.h"
#include "index/segint.h"
#include "index/segment.h"

#define HDR SH_SEG_HDR
#define CH SH_SEG_CHUNK

const unsigned char sh_seg_magic[8] = "\x89SHX\r\n\x1a\n";

void
sh_segout_at(struct sh_segout *o, int fd, uint64_t off)
{
	o->fd = fd;
	o->off = HDR + off;
	o->n = 0;
}

int
sh_segout_flush(struct sh_segout *o)
{
	if (o->n > 0 && sh_pwrite_all(o->fd, o->buf, o->n, o->off) != 0)
		return SH_EIO;
	o->off += o->n;
	o->n = 0;
	return 0;
}

int
sh_segout_bytes(struct sh_segout *o, const void *p, size_t len)
{
	const unsigned char *c = p;
	size_t m;
	int e;

	while (len > 0) {
		m = SH_SEGOUT_BUF - o->n < len ? SH_SEGOUT_BUF - o->n : len;
		memcpy(o->buf + o->n, c, m);
		o->n += m;
		c += m;
		len -= m;
		if (o->n == SH_SEGOUT_BUF && (e = sh_segout_flush(o)) != 0)
			return e;
	}
	return 0;
}

/* v in n little-endian bytes. */
int
sh_segout_le(struct sh_segout *o, uint64_t v, int n)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> 8 * i);
	return sh_segout_bytes(o, b, (size_t)n);
}

/* The checksums of the body read back, into the checksum section, and
 * the XXH64 of that section into *sum.  Return 0, SH_ENOMEM or SH_EIO. */
int
sh_seg_sums(int fd, uint64_t bodylen, uint64_t nchunks, uint64_t *sum)
{
	static const size_t rb = 256 * CH;
	unsigned char *buf, *sums;
	uint64_t c, at, n, len, h;
	int i, e = 0;

	buf = malloc(rb);
	sums = malloc(nchunks * 8 + 1);
	for (at = 0, c = 0; buf != NULL && sums != NULL && at < bodylen &&
	    e == 0; at += n) {
		n = bodylen - at < rb ? bodylen - at : rb;
		if ((e = sh_pread_all(fd, buf, (size_t)n, HDR + at)) != 0)
			break;
		for (len = 0; len < n; len += CH, c++) {
			h = sh_hash64(buf + len, (size_t)(n - len < CH ?
			    n - len : CH), 0);
			for (i = 0; i < 8; i++)
				sums[8 * c + (uint64_t)i] =
				    (unsigned char)(h >> 8 * i);
		}
	}
	if (buf == NULL || sums == NULL)
		e = SH_ENOMEM;
	if (e == 0) {
		*sum = sh_hash64(sums, (size_t)nchunks * 8, 0);
		e = sh_pwrite_all(fd, sums, (size_t)nchunks * 8, HDR +
		    bodylen);
	}
	free(buf);
	free(sums);
	return e;
}

int
sh_seg_header(int fd, uint64_t *v)
{
	unsigned char hdr[HDR];
	int i;

	memset(hdr, 0, sizeof(hdr));
	memcpy(hdr, sh_seg_magic, 8);
	v[H_CHUNK] = CH;
	for (i = H_VERSION; i < H_SELF; i++)
		put64(hdr + 8 * i, v[i]);
	put64(hdr + 8 * H_SELF, sh_hash64(hdr, 8 * H_SELF, 0));
	return sh_pwrite_all(fd, hdr, HDR, 0);
}

int
sh_seg_sized(struct sh_seg *s, const uint64_t *v, uint64_t size)
{
	if (s->bodylen == 0 || s->bodylen != v[H_BODYLEN] ||
	    v[H_NCHUNKS] != (s->bodylen + CH - 1) / CH)
		return SH_ECORRUPT;
	s->nchunks = v[H_NCHUNKS];
	if (size < HDR + s->bodylen + 8 * s->nchunks)
		return SH_ETRUNC;
	if (size > HDR + s->bodylen + 8 * s->nchunks)
		return SH_ECORRUPT;
	return 0;
}

/* Move s->upto past the chunks checked from there on. */
void
sh_seg_advance(struct sh_seg *s)
{
	uint64_t c;

	for (c = s->upto / CH; c < s->nchunks &&
	    (s->checked[c / 8] >> (c % 8) & 1); c++)
		;
	s->upto = c == s->nchunks ? s->bodylen : c * CH;
}

int
sh_seg_check(struct sh_seg *s, uint64_t off, uint64_t len)
{
	uint64_t c, last, n;

	if (off > s->bodylen || len > s->bodylen - off)
		return SH_ECORRUPT;
	if (len == 0)
		return 0;
	for (c = off / CH, last = (off + len - 1) / CH; c <= last; c++) {
		if (s->checked[c / 8] >> (c % 8) & 1)
			continue;
		n = c == s->nchunks - 1 ? s->bodylen - c * CH : CH;
		if (sh_hash64(s->body + c * CH, (size_t)n, 0) !=
		    rd64(s->sums + 8 * c))
			return SH_ECORRUPT;
		s->checked[c / 8] |= (unsigned char)(1 << (c % 8));
	}
	if (off <= s->upto)
		sh_seg_advance(s);
	return 0;
}

int
sh_seg_fp(struct sh_seg *s, uint64_t i, sh_fpval *fp)
{
	if (i >= s->nfp || sh_seg_need(s, s->tables + 8 * i, 8) != 0)
		return SH_ECORRUPT;
	*fp = rd64(s->body + s->tables + 8 * i);
	return 0;
}

/* Where the ID offset of entry i (0..nfp) lies in the body: 8 bytes at
 * *at, plus, lean, the 4 at *rel. */
void
sh_seg_idoff_at(const struct sh_seg *s, uint64_t i, uint64_t *at, uint64_t *rel)
{
	*at = s->idoff + 8 * (s->lean ? i / SH_SEG_IDGROUP : i);
	*rel = s->idoff + (s->nfp / SH_SEG_IDGROUP + 1) * 8 + 4 * i;
}

/* Where the IDs of entry i (0..nfp) start in the ID section. */
int
sh_seg_idstart(struct sh_seg *s, uint64_t i, uint64_t *off)
{
	uint64_t at, rel;
	int e;

	sh_seg_idoff_at(s, i, &at, &rel);
	if ((e = sh_seg_need(s, at, 8)) != 0)
		return e;
	*off = rd64(s->body + at);
	if (!s->lean)
		return 0;
	if ((e = sh_seg_need(s, rel, 4)) != 0)
		return e;
	*off += rd32(s->body + rel);
	return 0;
}

int
sh_seg_ids(struct sh_seg *s, uint64_t i, const char **p, size_t *len)
{
	uint64_t a, b;
	int e;

	if (i >= s->nfp)
		return SH_ECORRUPT;
	if ((e = sh_seg_idstart(s, i, &a)) != 0 || (e = sh_seg_idstart(s, i + 1, &b)) != 0)
		return e;
	if (a >= b || b > s->idbytes || (e = sh_seg_need(s, s->ids + a, b - a)) != 0)
		return SH_ECORRUPT;
	*p = (const char *)s->body + s->ids + a;
	*len = (size_t)(b - a);
	if ((*p)[*len - 1] != '\n')
		return SH_ECORRUPT;
	return 0;
}


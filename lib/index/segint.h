/*
 * Internals of the segment module (segment.h), shared by its files and
 * by no one else: segfile.c, the file (header, checksums, the chunks
 * checked as read, the entries' fingerprints and IDs), which the other
 * two stand on; segment.c, the fingerprint tables (versions 1 and 2),
 * which calls on bandseg.c, the band tables (version 3), for those, and
 * never the other way round.  The layout is in sh-index(5).
 */
#ifndef SH_SEGINT_H
#define SH_SEGINT_H

#include <stddef.h>
#include <stdint.h>


struct sh_seg;

#define SH_SEG_HDR 128
#define SH_SEGOUT_BUF 65536

/* The 16 header fields, 8 bytes each; a band segment keeps its
 * threshold in H_K, its bands in H_BLOCKS and H_TABLES, its rows in
 * H_KEY, and in version 4 the bytes of its file table in H_RESERVED (0
 * in every other). */
enum {
	H_MAGIC, H_VERSION, H_K, H_BLOCKS, H_KEY, H_TABLES, H_DIRBITS, H_NFP,
	H_NID, H_IDBYTES, H_BODYLEN, H_CHUNK, H_NCHUNKS, H_SUMS, H_RESERVED,
	H_SELF
};

extern const unsigned char sh_seg_magic[8];

static inline uint64_t
rd64(const unsigned char *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	    (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static inline uint32_t
rd32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static inline void
put64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> 8 * i);
}

/* A buffered stream writing one section of the body: every section's
 * place follows from the counts, so each has a stream of its own. */
struct sh_segout {
	int fd;
	uint64_t off;			/* file offset of buf[0] */
	size_t n;
	unsigned char buf[SH_SEGOUT_BUF];
};

/* Start o at body offset off of fd; then bytes, or v in n little-endian
 * bytes; flush writes what is buffered.  Return 0 or SH_EIO. */
void sh_segout_at(struct sh_segout *o, int fd, uint64_t off);
int sh_segout_bytes(struct sh_segout *o, const void *p, size_t len);
int sh_segout_le(struct sh_segout *o, uint64_t v, int n);
int sh_segout_flush(struct sh_segout *o);

/* The chunk checksums of the body of fd read back, written after it,
 * and their XXH64 into *sum.  Return 0, SH_ENOMEM or SH_EIO. */
int sh_seg_sums(int fd, uint64_t bodylen, uint64_t nchunks, uint64_t *sum);

/* Write header fields v[0..H_SELF) to fd, the magic and the header's own
 * checksum added.  Return 0 or SH_EIO. */
int sh_seg_header(int fd, uint64_t *v);

/* With s->bodylen from the counts of header fields v: whether the
 * header's body length and chunk count agree, and a file of size bytes
 * holds the header, the body and the checksums exactly (else
 * SH_ETRUNC or SH_ECORRUPT); s->nchunks set. */
int sh_seg_sized(struct sh_seg *s, const uint64_t *v, uint64_t size);

/* Of segfile.c: move s->upto past the chunks checked from there on;
 * where the ID offset of entry i lies (lean: its group's base at *at,
 * its own part at *rel); and where entry i's IDs (0..nfp) start in the
 * ID section, into *off (0 or SH_ECORRUPT). */
void sh_seg_advance(struct sh_seg *s);
void sh_seg_idoff_at(const struct sh_seg *s, uint64_t i, uint64_t *at,
    uint64_t *rel);
int sh_seg_idstart(struct sh_seg *s, uint64_t i, uint64_t *off);

/* Of a band segment (bandseg.c): check the header fields v of a file of
 * size bytes and fill *s (sh_seg_open's part for version 3); check the
 * whole structure (sh_seg_verify's). */
int sh_bandseg_header(struct sh_seg *s, const uint64_t *v, uint64_t size);
int sh_bandseg_verify(struct sh_seg *s);

#endif

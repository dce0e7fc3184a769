#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/crc32.h"
#include "base/errors.h"
#include "base/grow.h"
#include "base/io.h"
#include "base/zmap.h"
#include "base/zpipe.h"

/* The shortest gzip member: a 10-byte header, 2 bytes of deflate data
 * (an empty final block) and the 8-byte trailer. */
#define MIN_MEMBER 20
/* A header at p is told by bytes p - 8 (its trailer before it) to
 * p + 3 (its flag byte): that many bytes of what was read before are
 * kept in front of each block read. */
#define TAIL 11
#define BLOCK 65536
/* The first read of a member fed to its end alone, and the share of
 * what was read that each next read may be. */
#define FIRST 256
#define SHARE 16
#define NONE UINT64_MAX

struct start {
	uint64_t coff, doff;
};

struct sh_zmap {
	int kind;
	struct start *s;
	size_t n, cap;
};

/*
 * The decompressor's input, read from the file and fed to it; what it
 * writes, given to out.  found is told of each member header that the
 * bytes read show (at compressed offset p, the 8 bytes before p read as
 * a trailer); it may set stop, where feeding ends.
 */
struct feed {
	int fd;			/* the file */
	int to;			/* the decompressor's input; -1: closed */
	uint64_t pos;		/* the file's next byte to read */
	uint64_t stop;		/* fed up to it, then closed (NONE: none) */
	uint32_t isize;		/* the length in the trailer before stop */
	uint64_t seg;		/* where feeding began */
	int cut;		/* reads of FIRST bytes, growing by SHARE */
	unsigned char *buf;	/* up to TAIL bytes read before, then the
				 * block: the window w = buf + TAIL - tl */
	size_t tl, wlen;	/* the window's bytes, of file offset base */
	uint64_t base;
	uint64_t fed, avail;	/* fed up to fed; may be fed up to avail */
	int eof;		/* the file read to its end */
	unsigned char *obuf;	/* what the decompressor writes */
	void *ctx;
	int (*found)(struct feed *, uint64_t p, uint32_t crc, uint32_t isize);
	int (*out)(struct feed *, const unsigned char *d, size_t k);
	/* fed to stop (or the end): 1 when it moved the feed on (feed_at),
	 * 0 to end the input; NULL: end it */
	int (*next)(struct feed *);
};

static uint32_t
le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	    (uint32_t)p[3] << 24;
}

static int
feed_init(struct feed *f, int fd, uint64_t from, int cut)
{
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->to = -1;
	f->pos = f->seg = f->fed = f->avail = from;
	f->stop = NONE;
	f->cut = cut;
	if ((f->buf = malloc(TAIL + BLOCK)) == NULL ||
	    (f->obuf = malloc(BLOCK)) == NULL) {
		free(f->buf);
		return SH_ENOMEM;
	}
	return 0;
}

/* Feed on from offset from, as a new segment: nothing read ahead. */
static void
feed_at(struct feed *f, uint64_t from)
{
	f->pos = f->seg = f->fed = f->avail = f->base = from;
	f->stop = NONE;
	f->tl = f->wlen = 0;
	f->eof = 0;
}

static void
feed_free(struct feed *f)
{
	free(f->buf);
	free(f->obuf);
}

/*
 * Read the next block, the last TAIL bytes before it kept in front, and
 * tell found of the headers whose flag byte it holds.  The last 3 bytes
 * of a block wait for the next to be fed, so that no byte of a header
 * is fed before the header is told; feeding ends at stop.  Return 0,
 * SH_EIO (errno set) or found's error.
 */
static int
fill(struct feed *f)
{
	const unsigned char *w, *q, *end;
	uint64_t p;
	size_t keep, want;
	ssize_t n;
	int r;

	keep = f->wlen < TAIL ? f->wlen : TAIL;
	memmove(f->buf + TAIL - keep, f->buf + TAIL - f->tl + f->wlen - keep,
	    keep);
	f->tl = keep;
	f->base = f->pos - keep;
	want = BLOCK;
	if (f->cut) {
		want = (size_t)((f->pos - f->seg) / SHARE);
		want = want < FIRST ? FIRST : want > BLOCK ? BLOCK : want;
	}
	while ((n = pread(f->fd, f->buf + TAIL, want, (off_t)f->pos)) < 0)
		if (errno != EINTR)
			return SH_EIO;
	f->wlen = keep + (size_t)n;
	if (n == 0) {
		f->eof = 1;
		f->avail = f->pos;
		return 0;
	}
	/* Headers p whose bytes p - 8 .. p + 3 are here now, the last of
	 * them new. */
	w = f->buf + TAIL - f->tl;
	end = w + f->wlen - 3;
	for (q = w + 8; q < end && f->stop == NONE &&
	    (q = memchr(q, 0x1f, (size_t)(end - q))) != NULL; q++) {
		if (q[1] != 0x8b || q[2] != 8 || (q[3] & 0xe0) != 0)
			continue;
		p = f->base + (uint64_t)(q - w);
		if ((r = f->found(f, p, le32(q - 8), le32(q - 4))) != 0)
			return r;
	}
	f->pos += (uint64_t)n;
	f->avail = f->stop != NONE ? f->stop : f->pos - 3 > f->fed ?
	    f->pos - 3 : f->fed;
	return 0;
}

/* Both ends of a new socket pair close-on-exec, ours (sv[0]) not
 * blocking: a socket, so that a write to a decompressor that has ended
 * is EPIPE, never SIGPIPE (MSG_NOSIGNAL), whatever the caller's
 * signals. */
static int
input_pair(int sv[2])
{
	int e;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
		return -1;
	if (fcntl(sv[0], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(sv[1], F_SETFD, FD_CLOEXEC) == -1 ||
	    fcntl(sv[0], F_SETFL, fcntl(sv[0], F_GETFL) | O_NONBLOCK) == -1) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		errno = e;
		return -1;
	}
	return 0;
}

/*
 * Run the decompressor of kind fed by f, its output given to f->out,
 * until out says enough (1) or fails, or the output ends.  Return 1
 * (the child ended early and waited for), 0 (the output ended and the
 * child exited 0), SH_EZ (it failed: msg[0..cap)), SH_EIO (errno set),
 * SH_ENOMEM, or out's or found's error.
 */
static int
pump(struct feed *f, int kind, char *msg, size_t cap)
{
	struct sh_zpipe z;
	struct pollfd pf[2];
	ssize_t k;
	int sv[2], r, e, np;

	if (input_pair(sv) != 0)
		return SH_EIO;
	if ((r = sh_zpipe_open(&z, kind, sv[1])) != 0) {
		e = errno;
		close(sv[0]);
		close(sv[1]);
		errno = e;
		return r;
	}
	close(sv[1]);
	f->to = sv[0];
	for (r = 0;;) {
		/* A block fed: the next read, or the end of the input. */
		if (f->to >= 0 && f->fed == f->avail) {
			if ((f->eof || f->fed >= f->stop) &&
			    (f->next == NULL || !f->next(f))) {
				close(f->to);
				f->to = -1;
			} else if (!f->eof && f->fed < f->stop &&
			    (r = fill(f)) != 0)
				break;
			continue;
		}
		pf[0].fd = z.out;
		pf[0].events = POLLIN;
		np = 1;
		if (f->to >= 0) {
			pf[1].fd = f->to;
			pf[1].events = POLLOUT;
			np = 2;
		}
		if (poll(pf, (nfds_t)np, -1) < 0) {
			if (errno == EINTR)
				continue;
			r = SH_EIO;
			break;
		}
		if (np == 2 && (pf[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			k = send(f->to, f->buf + TAIL - f->tl +
			    (f->fed - f->base), (size_t)(f->avail - f->fed),
			    MSG_NOSIGNAL);
			if (k > 0)
				f->fed += (uint64_t)k;
			else if (errno == EPIPE || errno == ECONNRESET) {
				/* It ended: what it wrote, and how, tell. */
				close(f->to);
				f->to = -1;
			} else if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR) {
				r = SH_EIO;
				break;
			}
		}
		if (pf[0].revents & (POLLIN | POLLERR | POLLHUP)) {
			if ((k = read(z.out, f->obuf, BLOCK)) < 0) {
				if (errno == EINTR)
					continue;
				r = SH_EIO;
				break;
			}
			if (k == 0)
				break;
			if ((r = f->out(f, f->obuf, (size_t)k)) != 0)
				break;
		}
	}
	e = errno;
	close(z.out);
	if (f->to >= 0)
		close(f->to);
	f->to = -1;
	if (sh_zpipe_close(&z, r == 0, msg, cap) != 0 && r == 0)
		r = SH_EZ;
	errno = e;
	return r;
}

/*
 * Feed the decompressor of kind from offset from of fd (cut as for
 * feed_init) with the callbacks and ctx that the caller set in *f, until
 * pump ends; then f's buffers are freed, its other fields left for the
 * caller.  Return as pump.
 */
static int
feed_pump(struct feed *f, int fd, uint64_t from, int cut, int kind,
    char *msg, size_t cap)
{
	struct feed cb = *f;
	int r, e;

	if ((r = feed_init(f, fd, from, cut)) != 0)
		return r;
	f->ctx = cb.ctx;
	f->found = cb.found;
	f->out = cb.out;
	f->next = cb.next;
	r = pump(f, kind, msg, cap);
	e = errno;
	feed_free(f);
	errno = e;
	return r;
}

/* A header seen while the map is built: at compressed offset pos, its
 * trailer's CRC and length; len, the decoded length since the member
 * start ds where the member before it would end (isize, or past it by
 * a multiple of 2^32 once passed: a member of 4 GiB or more). */
struct cand {
	uint64_t pos, len;
	uint32_t crc, isize;
};

struct build {
	struct sh_zmap *m;
	int fd;
	uint64_t cs, ds;	/* the member read: its start, compressed and
				 * decoded */
	uint64_t hl;		/* the length of its header */
	uint64_t x;		/* decoded bytes so far */
	uint32_t crc;		/* theirs since ds */
	/* The headers, a heap by len and then offset: those before cs are
	 * dropped as they come to the top. */
	struct cand *c;
	size_t nc, ccap;
	size_t nwrap;		/* of them with len past isize */
};

static int
cand_before(const struct cand *a, const struct cand *b)
{
	return a->len != b->len ? a->len < b->len : a->pos < b->pos;
}

static void
sift_down(struct build *b, size_t i)
{
	struct cand t;
	size_t k;

	for (; (k = 2 * i + 1) < b->nc; i = k) {
		if (k + 1 < b->nc && cand_before(&b->c[k + 1], &b->c[k]))
			k++;
		if (!cand_before(&b->c[k], &b->c[i]))
			break;
		t = b->c[i];
		b->c[i] = b->c[k];
		b->c[k] = t;
	}
}

static void
sift_up(struct build *b, size_t i)
{
	struct cand t;

	for (; i > 0 && cand_before(&b->c[i], &b->c[(i - 1) / 2]);
	    i = (i - 1) / 2) {
		t = b->c[i];
		b->c[i] = b->c[(i - 1) / 2];
		b->c[(i - 1) / 2] = t;
	}
}

static void
pop_top(struct build *b)
{
	b->c[0] = b->c[--b->nc];
	sift_down(b, 0);
}

/* The length at or past rel where a member isize long mod 2^32 ends. */
static uint64_t
len_at(uint32_t isize, uint64_t rel)
{
	uint64_t e = isize;

	if (e < rel)
		e += (rel - e + 0xffffffffULL) >> 32 << 32;
	return e;
}

/* The length of the member header at b[0..n) (its fixed part and the
 * optional fields its flags say), or *len 0 when it ends past n. */
static void
header_len(const unsigned char *b, size_t n, uint64_t *len)
{
	size_t h = 10, k;
	unsigned flg;

	*len = 0;
	if (n < 10)
		return;
	flg = b[3];
	if ((flg & 4) && h + 2 <= n)
		h += 2 + ((size_t)b[h] | (size_t)b[h + 1] << 8);
	for (k = 8; k <= 16; k += 8)
		if (flg & k) {
			while (h < n && b[h] != 0)
				h++;
			h++;
		}
	if (flg & 2)
		h += 2;
	if (h <= n)
		*len = h;
}

/*
 * Whether the compressed bytes [cs, p) of fd are an empty member: a
 * header, its optional fields, an empty deflate stream as gzip and zlib
 * write it (a fixed block, or a stored one, holding nothing) and a
 * trailer (of zeros: the caller's).  An empty member is the one whose
 * trailer the decoded bytes cannot tell from a run of 8 zero bytes
 * before a header inside data: its decoded bytes are none, whether they
 * have come yet or not.  A member it does not tell stays unknown, its
 * start not in the map: fewer starts, never a false one.
 */
static int
empty_member(int fd, uint64_t cs, uint64_t p)
{
	unsigned char b[600];
	size_t n = (size_t)(p - cs);
	uint64_t h;

	if (p - cs > sizeof(b) || sh_pread_all(fd, b, n, cs) != 0)
		return 0;
	header_len(b, n, &h);
	if (h == 0 || h + 8 > n)
		return 0;
	n -= (size_t)h + 8;
	return (n == 2 && memcmp(b + h, "\x03\0", 2) == 0) ||
	    (n == 5 && memcmp(b + h, "\x01\0\0\xff\xff", 5) == 0);
}

/* The header length of the member begun at b->cs; where it cannot be
 * told, as long as any member is. */
static void
start_header(struct build *b)
{
	unsigned char h[1024];
	ssize_t n;

	while ((n = pread(b->fd, h, sizeof(h), (off_t)b->cs)) < 0 &&
	    errno == EINTR)
		;
	header_len(h, n > 0 ? (size_t)n : 0, &b->hl);
	if (b->hl == 0)
		b->hl = UINT64_MAX / 2;
}

/*
 * The headers whose member before would end here, at decoded offset x:
 * the first (by offset) whose trailer holds the CRC and length of the
 * decoded bytes since ds starts a member, and the others before it are
 * inside data; then again from it (an empty member follows at once).
 * The decoded bytes past x cannot come before the header that ends them
 * is found: the decompressor needs the compressed bytes after it, which
 * are read, and their headers found, before they are fed.  Those before
 * x may come late, so a trailer of zeros is taken only where the
 * compressed bytes show an empty member; and a member must be no longer
 * than its decoded bytes stored (its header, a quarter more, 72 bytes),
 * so that a later member of the same few bytes ends none before it.  A
 * header whose trailer does not fit waits for its length to come round
 * again (a member of 4 GiB or more).
 */
static int
settle(struct build *b)
{
	struct sh_zmap *m = b->m;
	struct cand *t;
	size_t i;

	while (b->nc > 0) {
		t = &b->c[0];
		if (t->pos < b->cs + MIN_MEMBER) {
			pop_top(b);
			continue;
		}
		if (t->len != b->x - b->ds)
			return 0;
		if (t->crc != b->crc || t->pos - b->cs > b->hl + (b->x -
		    b->ds) + (b->x - b->ds) / 4 + 72 ||
		    (b->x == b->ds && !empty_member(b->fd, b->cs, t->pos))) {
			t->len += (uint64_t)1 << 32;
			b->nwrap++;
			sift_down(b, 0);
			continue;
		}
		if (m->n == m->cap && sh_grow(&m->s, &m->cap, m->n + 1,
		    sizeof(*m->s)) != 0)
			return SH_ENOMEM;
		m->s[m->n].coff = b->cs = t->pos;
		m->s[m->n].doff = b->ds = b->x;
		m->n++;
		b->crc = 0;
		start_header(b);
		pop_top(b);
		/* Lengths run from the new start: those passed before, from
		 * their trailers again. */
		if (b->nwrap > 0) {
			for (i = 0; i < b->nc; i++)
				b->c[i].len = b->c[i].isize;
			for (i = b->nc / 2; i > 0; i--)
				sift_down(b, i - 1);
			b->nwrap = 0;
		}
	}
	return 0;
}

static int
build_found(struct feed *f, uint64_t p, uint32_t crc, uint32_t isize)
{
	struct build *b = f->ctx;
	struct cand *c;

	if (b->nc == b->ccap && sh_grow(&b->c, &b->ccap, b->nc + 1,
	    sizeof(*b->c)) != 0)
		return SH_ENOMEM;
	c = &b->c[b->nc];
	c->pos = p;
	c->crc = crc;
	c->isize = isize;
	if ((c->len = len_at(isize, b->x - b->ds)) != isize)
		b->nwrap++;
	sift_up(b, b->nc++);
	return settle(b);
}

/* Decoded bytes: their CRC, stopping at each length where a header's
 * member before would end. */
static int
build_out(struct feed *f, const unsigned char *d, size_t k)
{
	struct build *b = f->ctx;
	uint64_t step;
	int r;

	while (k > 0) {
		if ((r = settle(b)) != 0)
			return r;
		step = k;
		if (b->nc > 0 && b->c[0].len - (b->x - b->ds) < step)
			step = b->c[0].len - (b->x - b->ds);
		b->crc = sh_crc32(b->crc, d, (size_t)step);
		b->x += step;
		d += step;
		k -= (size_t)step;
	}
	return settle(b);
}

int
sh_zmap_build(struct sh_zmap **mp, int fd, char *msg, size_t cap)
{
	unsigned char magic[SH_Z_MAGIC];
	struct sh_zmap *m;
	struct build b;
	struct feed f;
	ssize_t k;
	int r;

	*mp = NULL;
	*msg = '\0';
	while ((k = pread(fd, magic, sizeof(magic), 0)) < 0)
		if (errno != EINTR)
			return SH_EIO;
	if ((m = calloc(1, sizeof(*m))) == NULL ||
	    sh_grow(&m->s, &m->cap, 1, sizeof(*m->s)) != 0) {
		free(m);
		return SH_ENOMEM;
	}
	m->s[0].coff = m->s[0].doff = 0;
	m->n = 1;
	if ((m->kind = sh_z_kind(magic, (size_t)k)) != SH_Z_GZIP) {
		*mp = m;
		return 0;
	}
	memset(&b, 0, sizeof(b));
	b.m = m;
	b.fd = fd;
	start_header(&b);
	f = (struct feed){ .ctx = &b, .found = build_found,
	    .out = build_out };
	r = feed_pump(&f, fd, 0, 0, SH_Z_GZIP, msg, cap);
	free(b.c);
	if (r != 0) {
		sh_zmap_free(m);
		return r;
	}
	*mp = m;
	return 0;
}

#define SLACK 65536

/* A map built from decoded bytes read elsewhere: the build, and the
 * compressed file scanned for headers (never fed); on, for a gzip file
 * (else the map is its one start); e, the first error. */
struct sh_zmapper {
	struct build b;
	struct feed f;
	int on, e;
};

int
sh_zmap_begin(struct sh_zmapper **zp, int fd)
{
	unsigned char magic[SH_Z_MAGIC];
	struct sh_zmapper *z;
	struct sh_zmap *m;
	ssize_t k;

	*zp = NULL;
	while ((k = pread(fd, magic, sizeof(magic), 0)) < 0)
		if (errno != EINTR)
			return SH_EIO;
	if ((z = calloc(1, sizeof(*z))) == NULL)
		return SH_ENOMEM;
	if ((m = z->b.m = calloc(1, sizeof(*m))) == NULL ||
	    sh_grow(&m->s, &m->cap, 1, sizeof(*m->s)) != 0) {
		sh_zmap_abort(z);
		return SH_ENOMEM;
	}
	m->s[0].coff = m->s[0].doff = 0;
	m->n = 1;
	z->b.fd = fd;
	if ((m->kind = sh_z_kind(magic, (size_t)k)) == SH_Z_GZIP) {
		if (feed_init(&z->f, fd, 0, 0) != 0) {
			sh_zmap_abort(z);
			return SH_ENOMEM;
		}
		z->f.ctx = &z->b;
		z->f.found = build_found;
		z->on = 1;
		start_header(&z->b);
	}
	*zp = z;
	return 0;
}

int
sh_zmap_data(struct sh_zmapper *z, const void *d, size_t k)
{
	struct build *b = &z->b;
	uint64_t hl, x, lim;

	if (!z->on || z->e != 0)
		return z->e;
	/* Every header that may end a member of these bytes found before
	 * them, as the decompressor reads it before it writes them: no
	 * further than twice the header and the decoded bytes of the
	 * member read up to their end (a member is no longer than its
	 * header, its decoded bytes and a quarter more: settle's bound),
	 * and SLACK bytes for the members' own headers and trailers. */
	for (;;) {
		x = b->x + k - b->ds;
		hl = b->hl < SLACK ? b->hl : SLACK;
		lim = b->cs + 2 * (hl + x) + SLACK;
		if (z->e != 0 || z->f.eof || z->f.pos > lim)
			break;
		z->e = fill(&z->f);
	}
	if (z->e == 0)
		z->e = build_out(&z->f, d, k);
	return z->e;
}

int
sh_zmap_finish(struct sh_zmapper *z, struct sh_zmap **mp)
{
	int e = z->e;

	*mp = NULL;
	if (e == 0) {
		*mp = z->b.m;
		z->b.m = NULL;
	}
	sh_zmap_abort(z);
	return e;
}

void
sh_zmap_abort(struct sh_zmapper *z)
{
	if (z == NULL)
		return;
	if (z->on)
		feed_free(&z->f);
	free(z->b.c);
	sh_zmap_free(z->b.m);
	free(z);
}

int
sh_zmap_kind(const struct sh_zmap *m)
{
	return m->kind;
}

size_t
sh_zmap_count(const struct sh_zmap *m)
{
	return m->n;
}

void
sh_zmap_start(const struct sh_zmap *m, size_t i, unsigned long long *coff,
    unsigned long long *doff)
{
	*coff = m->s[i].coff;
	*doff = m->s[i].doff;
}

void
sh_zmap_find(const struct sh_zmap *m, unsigned long long off,
    unsigned long long *coff, unsigned long long *skip)
{
	size_t lo = 0, hi = m->n, mid;

	if (m->kind == SH_Z_NONE) {
		*coff = off;
		*skip = 0;
		return;
	}
	/* The first start past off; the one before it is the last at or
	 * before (the first, at 0, always is). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->s[mid].doff <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	*coff = m->s[lo - 1].coff;
	*skip = off - m->s[lo - 1].doff;
}

void
sh_zmap_free(struct sh_zmap *m)
{
	if (m == NULL)
		return;
	free(m->s);
	free(m);
}

/* Of decoded bytes d[0..k), those at [x, x + k) of the stream, the ones
 * in [skip, skip + n) copied into buf (its byte 0 at skip); return where
 * they end in buf, 0 when none is. */
static size_t
copy_in(void *buf, uint64_t skip, uint64_t n, const unsigned char *d,
    uint64_t x, size_t k)
{
	uint64_t lo = x > skip ? x : skip, hi = x + k;

	if (hi > skip + n)
		hi = skip + n;
	if (lo >= hi)
		return 0;
	memcpy((unsigned char *)buf + (lo - skip), d + (lo - x),
	    (size_t)(hi - lo));
	return (size_t)(hi - skip);
}

/* A range read: decoded bytes [skip, skip + n) after the start, into
 * buf; x, those seen so far. */
struct range {
	uint64_t x, skip, n;
	unsigned char *buf;
};

/* The first member start after the one fed from: feeding ends there. */
static int
range_found(struct feed *f, uint64_t p, uint32_t crc, uint32_t isize)
{
	(void)crc;
	if (f->cut && p >= f->seg + MIN_MEMBER) {
		f->stop = p;
		f->isize = isize;
	}
	return 0;
}

/* The bytes of the range kept.  A member fed to its end alone is
 * decoded to it, so that gzip checks its CRC before the range counts as
 * read; else the decompressor is ended once the range is read. */
static int
range_out(struct feed *f, const unsigned char *d, size_t k)
{
	struct range *g = f->ctx;

	(void)copy_in(g->buf, g->skip, g->n, d, g->x, k);
	g->x += k;
	return !f->cut && g->x >= g->skip + g->n;
}

int
sh_zrange_read(int fd, int kind, unsigned long long coff,
    unsigned long long skip, void *buf, size_t n, char *msg, size_t cap)
{
	struct range g;
	struct feed f;
	uint64_t seg = coff, base = 0;
	ssize_t k;
	size_t got;
	int r, cut = kind == SH_Z_GZIP;

	*msg = '\0';
	if (kind == SH_Z_NONE) {
		for (got = 0; got < n; got += (size_t)k)
			if ((k = pread(fd, (char *)buf + got, n - got,
			    (off_t)(coff + skip + got))) == 0)
				return SH_ECHANGED;
			else if (k < 0 && errno != EINTR)
				return SH_EIO;
			else if (k < 0)
				k = 0;
		return 0;
	}
	if (n == 0)
		return 0;
	g.skip = skip;
	g.n = n;
	g.buf = buf;
	for (;;) {
		f = (struct feed){ .ctx = &g, .found = range_found,
		    .out = range_out };
		g.x = base;
		r = feed_pump(&f, fd, seg, cut, kind, msg, cap);
		if (r == 1 || (r == 0 && g.x >= skip + n))
			return 0;
		/* Fed to a member start: the members before it were whole,
		 * and the range goes on after them. */
		if (r == 0 && f.stop != NONE) {
			seg = f.stop;
			base = g.x;
			continue;
		}
		if (r == 0)
			return SH_ECHANGED;
		/*
		 * At the cut, gzip failed.  When it wrote as many bytes as the
		 * trailer there holds, it had the member whole, the bytes
		 * before it did not check: the file is corrupt.  Else the
		 * cut was inside data (header bytes in it), and the member
		 * is decoded again, fed to the end.
		 */
		if (r == SH_EZ && f.stop != NONE &&
		    (uint32_t)(g.x - base) != f.isize) {
			cut = 0;
			*msg = '\0';
			continue;
		}
		return r;
	}
}

/* A segment of a batch: the ranges r[r0, r1) of one member start coff,
 * fed from it to the member start where the decoded bytes first reach
 * need (the largest skip + n of its ranges); dlen, their decoded length
 * once that start is found (NONE before, and for a segment fed to the
 * end of the file). */
struct seg {
	uint64_t coff, need, dlen;
	size_t r0, r1;
};

/* A batch read: its ranges, its segments, the segment fed (in) and the
 * one written (out), the decoded bytes of the one fed since its start
 * as the trailers tell them (sum), and of the one written (x); bad, a
 * member start not where a segment starts. */
struct batch {
	struct sh_zrange *r;
	struct seg *s;
	size_t ns, cap, in, out, rc;
	uint64_t sum, x;
	int bad;
};

static int
batch_found(struct feed *f, uint64_t p, uint32_t crc, uint32_t isize)
{
	struct batch *b = f->ctx;
	struct seg *s = &b->s[b->in];

	(void)crc;
	if (p < f->seg + MIN_MEMBER)
		return 0;
	b->sum += isize;
	/* The next segment's start passed, or reached before this one's
	 * bytes are: its members are this one's (no batch). */
	if (b->in + 1 < b->ns && (p > s[1].coff ||
	    (p == s[1].coff && b->sum < s->need))) {
		b->bad = 1;
		return SH_ECHANGED;
	}
	if (b->sum >= s->need) {
		f->stop = p;
		s->dlen = b->sum;
	}
	return 0;
}

/* The segment fed whole: on to the next one's start. */
static int
batch_next(struct feed *f)
{
	struct batch *b = f->ctx;

	if (++b->in == b->ns)
		return 0;
	if (f->eof) {
		b->bad = 1;
		return 0;
	}
	b->sum = 0;
	feed_at(f, b->s[b->in].coff);
	return 1;
}

/* The decoded bytes of the segment written, given to its ranges (sorted
 * by skip, rc the first not yet whole); past its length, to the next. */
static int
batch_out(struct feed *f, const unsigned char *d, size_t k)
{
	struct batch *b = f->ctx;
	struct sh_zrange *g;
	struct seg *s;
	uint64_t end;
	size_t j, take, got;

	while (k > 0) {
		if (b->out == b->ns) {
			b->bad = 1;
			return SH_ECHANGED;
		}
		s = &b->s[b->out];
		take = s->dlen != NONE && s->dlen - b->x < k ?
		    (size_t)(s->dlen - b->x) : k;
		end = b->x + take;
		for (j = b->rc; j < s->r1 && b->r[j].skip < end; j++) {
			g = &b->r[j];
			if ((got = copy_in(g->buf, g->skip, g->n, d, b->x,
			    take)) > 0)
				g->got = got;
		}
		while (b->rc < s->r1 && b->r[b->rc].skip + b->r[b->rc].n <=
		    end)
			b->rc++;
		b->x = end;
		d += take;
		k -= take;
		if (s->dlen != NONE && b->x == s->dlen) {
			b->out++;
			b->x = 0;
			b->rc = s->r1;
		}
	}
	return 0;
}

static int
by_start(const void *x, const void *y)
{
	const struct sh_zrange *a = x, *b = y;

	if (a->coff != b->coff)
		return a->coff < b->coff ? -1 : 1;
	return a->skip < b->skip ? -1 : a->skip > b->skip;
}

int
sh_zranges_read(int fd, struct sh_zrange *r, size_t n, char *msg,
    size_t cap)
{
	struct batch b;
	struct feed f;
	size_t i;
	int e;

	*msg = '\0';
	memset(&b, 0, sizeof(b));
	qsort(r, n, sizeof(*r), by_start);
	for (i = 0; i < n; i++) {
		r[i].got = 0;
		if (b.ns == 0 || b.s[b.ns - 1].coff != r[i].coff) {
			if (sh_grow(&b.s, &b.cap, b.ns + 1, sizeof(*b.s)) != 0) {
				free(b.s);
				return SH_ENOMEM;
			}
			b.s[b.ns].coff = r[i].coff;
			b.s[b.ns].need = 0;
			b.s[b.ns].dlen = NONE;
			b.s[b.ns].r0 = i;
			b.ns++;
		}
		b.s[b.ns - 1].r1 = i + 1;
		if (r[i].skip + r[i].n > b.s[b.ns - 1].need)
			b.s[b.ns - 1].need = r[i].skip + r[i].n;
	}
	if (n == 0)
		return 0;
	b.r = r;
	f = (struct feed){ .ctx = &b, .found = batch_found, .out = batch_out,
	    .next = batch_next };
	e = feed_pump(&f, fd, b.s[0].coff, 1, SH_Z_GZIP, msg, cap);
	/* Every segment written whole, to the length its trailers say. */
	if (e == 0 && (b.bad || b.in != b.ns || (b.out != b.ns &&
	    (b.out != b.ns - 1 || b.s[b.out].dlen != NONE))))
		e = SH_ECHANGED;
	free(b.s);
	return e;
}

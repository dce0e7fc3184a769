/*
 * Member starts of gzip files and decoded ranges read from them: files
 * made as wget makes a .warc.gz, each record compressed alone by
 * gzip(1) and the members put end to end, of random sizes and levels,
 * with empty members, records holding gzip headers (a member stored
 * whole inside another, behind stored blocks of random bytes), a file of
 * one member and of each other kind; the map holds exactly the members
 * made, and every range read equals the same bytes of the file decoded
 * whole, at random offsets, from its member start and from starts
 * before it; a truncated and a corrupt file fail with gzip's message
 * where their damage is read, and read well elsewhere; no child is left.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/zmap.h"
#include "base/zpipe.h"
#include "rng.h"
#include "tap.h"

static char dir[] = "/tmp/zmap_test.XXXXXX";
static char pbuf[4][100];

static const char *
path(int i, const char *name)
{
	snprintf(pbuf[i], sizeof(pbuf[i]), "%s/%s", dir, name);
	return pbuf[i];
}

static int
put(const char *p, const void *s, size_t n)
{
	FILE *f = fopen(p, "w");

	if (f == NULL)
		return -1;
	if (fwrite(s, 1, n, f) != n) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

/* The whole file p into *len bytes (malloc'd), or NULL. */
static unsigned char *
get(const char *p, size_t *len)
{
	unsigned char *b;
	FILE *f;
	long n;

	*len = 0;
	if ((f = fopen(p, "r")) == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 || (b = malloc((size_t)n + 1)) ==
	    NULL) {
		fclose(f);
		return NULL;
	}
	if (fread(b, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(b);
		return NULL;
	}
	fclose(f);
	*len = (size_t)n;
	return b;
}

static int
run(const char *fmt, const char *a, const char *b)
{
	char cmd[1000];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

/* Append file src to file dst. */
static int
append(const char *dst, const char *src)
{
	return run("cat '%s' >>'%s'", src, dst) == 0 ? 0 : -1;
}

/* One record's bytes, of kind k: text, random bytes, random bytes around
 * gzip headers (and a whole member), or nothing. */
static size_t
record(unsigned char *b, int k, size_t len)
{
	static const char words[] = "the WARC-Target-URI of a page on the "
	    "crawl holds text and markup <p> that compresses well </p>\n";
	size_t i;

	switch (k) {
	case 0:
		for (i = 0; i < len; i++)
			b[i] = (unsigned char)words[(i * 7 + next() % 3) %
			    (sizeof(words) - 1)];
		return len;
	case 1:
	case 2:
		for (i = 0; i < len; i++)
			b[i] = (unsigned char)next();
		/* Header bytes, a valid flag after them, at random places,
		 * some with a trailer of zeros before them. */
		for (i = 0; k == 2 && len >= 24 && i < 1 + len / 2000; i++) {
			size_t at = 8 + (size_t)(next() % (len - 20));

			memcpy(b + at, "\x1f\x8b\x08", 3);
			b[at + 3] = (unsigned char)(next() % 2 ? 0 : 8);
			if (next() % 2)
				memset(b + at - 8, 0, 8);
		}
		return len;
	}
	return 0;
}

/* Decoded starts of the members made; their number. */
#define MAXM 400
static unsigned long long mc[MAXM], md[MAXM];
static size_t nm;
/* Whether member i holds header bytes inside its data (a record of
 * kind 2, the member stored inside it), which no batch reads past. */
static int mhdr[MAXM];

/*
 * Make dir/multi.gz: nrec records, each compressed alone at a random
 * level (-1 stores random bytes), one of them holding a gzip member of
 * its own stored whole (gzip -1 of a gzip file), end to end; dir/multi
 * the same decoded.  Return 0 or -1.
 */
static int
make_multi(int nrec)
{
	static unsigned char b[200000];
	const char *rec = path(0, "rec"), *gz = path(1, "rec.gz");
	const char *multi = path(2, "multi.gz"), *plain = path(3, "multi");
	unsigned long long coff = 0, doff = 0;
	char cmd[2000];
	size_t len, glen;
	unsigned char *g;
	int i, k;

	if (put(multi, "", 0) != 0 || put(plain, "", 0) != 0)
		return -1;
	nm = 0;
	for (i = 0; i < nrec; i++) {
		k = (int)(next() % 8);
		k = k < 4 ? 0 : k < 6 ? k - 3 : 3;
		len = (size_t)(next() % (next() % 4 ? 6000 : 150000));
		/* The last a long text, that a cut 30 bytes before the end
		 * falls in. */
		if (i == nrec - 1) {
			k = 0;
			len = 20000;
		}
		len = record(b, k, len);
		if (put(rec, b, len) != 0)
			return -1;
		if (i == nrec / 2) {
			/* A member inside a member: a gzip file, stored. */
			snprintf(cmd, sizeof(cmd), "gzip -c '%s' >'%s.in' && "
			    "gzip -1 -c '%s.in' >'%s' && cat '%s.in' >'%s'",
			    rec, rec, rec, gz, rec, rec);
			if (system(cmd) != 0)
				return -1;
		} else {
			snprintf(cmd, sizeof(cmd), "gzip -%d %s -c '%s' >'%s'",
			    k == 1 || k == 2 ? 1 : 1 + (int)(next() % 9),
			    next() % 2 ? "-n" : "-N", rec, gz);
			if (system(cmd) != 0)
				return -1;
		}
		if ((g = get(gz, &glen)) == NULL)
			return -1;
		free(g);
		free(get(rec, &len));
		if (append(multi, gz) != 0 || append(plain, rec) != 0)
			return -1;
		mc[nm] = coff;
		md[nm] = doff;
		mhdr[nm] = k == 2 || i == nrec / 2;
		nm++;
		coff += glen;
		doff += len;
	}
	return 0;
}

/* The member start at or before decoded offset off, as made: the last
 * of those at off. */
static void
made_find(unsigned long long off, unsigned long long *coff,
    unsigned long long *skip)
{
	size_t i;

	for (i = 0; i + 1 < nm && md[i + 1] <= off; i++)
		;
	*coff = mc[i];
	*skip = off - md[i];
}

static int
open_ro(const char *p)
{
	return open(p, O_RDONLY);
}

/* Whether any child of this process is left (not waited for). */
static int
children_left(void)
{
	return !(waitpid(-1, NULL, WNOHANG) == -1 && errno == ECHILD);
}

/*
 * count random ranges of the file of kind open on fd, against its
 * decoded bytes d[0..dlen): from the start the map gives, and (for a
 * multi-member file) from an earlier member start.  How many differ.
 */
static int
ranges(const struct sh_zmap *m, int fd, int kind, const unsigned char *d,
    size_t dlen, int count, int earlier)
{
	static unsigned char buf[300000];
	unsigned long long off, coff, skip, c2, s2;
	size_t n, j;
	char msg[200];
	int i, bad = 0, r;

	for (i = 0; i < count; i++) {
		off = dlen ? next() % dlen : 0;
		n = (size_t)(next() % (next() % 4 ? 3000 : sizeof(buf)));
		if (n > dlen - off)
			n = (size_t)(dlen - off);
		sh_zmap_find(m, off, &coff, &skip);
		r = sh_zrange_read(fd, kind, coff, skip, buf, n, msg,
		    sizeof(msg));
		if (r != 0 || memcmp(buf, d + off, n) != 0) {
			printf("# range %llu+%zu from %llu,%llu: %d %s\n", off,
			    n, coff, skip, r, msg);
			bad++;
		}
		if (!earlier || nm == 0)
			continue;
		made_find(off, &c2, &s2);
		for (j = 0; j < nm && mc[j] != c2; j++)
			;
		j = j > 3 ? j - (size_t)(next() % 4) : 0;
		r = sh_zrange_read(fd, kind, mc[j], off - md[j], buf, n, msg,
		    sizeof(msg));
		if (r != 0 || memcmp(buf, d + off, n) != 0) {
			printf("# range %llu+%zu from member %zu: %d %s\n",
			    off, n, j, r, msg);
			bad++;
		}
	}
	return bad;
}

/*
 * count batches of sh_zranges_read against d[0..dlen): of whole members
 * (records, as a .warc.gz holds them: each batch must be read in one
 * run; empty members, and members with header bytes in their data,
 * where a trailer would lie, left out), or of random ranges (a batch may be refused, then each range is
 * for sh_zrange_read; one read must be right).  How many batches are
 * wrong; *refused, how many were refused.
 */
static int
batches(const struct sh_zmap *m, int fd, const unsigned char *d,
    size_t dlen, int count, int whole, int *refused)
{
	static unsigned char buf[40][4000];
	struct sh_zrange r[40];
	unsigned long long off[40];
	size_t k, j, want, mi;
	char msg[200];
	int i, bad = 0, e;

	*refused = 0;
	for (i = 0; i < count; i++) {
		k = 1 + (size_t)(next() % 40);
		for (j = 0; j < k; j++) {
			if (whole) {
				do {
					mi = (size_t)(next() % nm);
					r[j].n = (size_t)((mi + 1 < nm ?
					    md[mi + 1] : dlen) - md[mi]);
				} while (mhdr[mi] || r[j].n == 0);
				off[j] = md[mi];
			} else {
				off[j] = next() % (dlen + 1);
				r[j].n = (size_t)(next() % sizeof(buf[0]));
			}
			if (r[j].n > sizeof(buf[0]))
				r[j].n = sizeof(buf[0]);
			sh_zmap_find(m, off[j], &r[j].coff, &r[j].skip);
			r[j].buf = buf[j];
		}
		if ((e = sh_zranges_read(fd, r, k, msg, sizeof(msg))) != 0) {
			*refused += 1;
			bad += whole;
			continue;
		}
		for (j = 0; j < k; j++) {
			/* Sorted: the offset is the range's own. */
			for (mi = 0; mi < nm && mc[mi] != r[j].coff; mi++)
				;
			off[j] = (mi < nm ? md[mi] : 0) + r[j].skip;
			want = off[j] > dlen ? 0 : dlen - off[j] < r[j].n ?
			    (size_t)(dlen - off[j]) : r[j].n;
			if (r[j].got != want || memcmp(r[j].buf, d + off[j],
			    want) != 0) {
				printf("# batch %d range %zu: %llu+%zu got %zu\n",
				    i, j, off[j], r[j].n, r[j].got);
				bad++;
				break;
			}
		}
	}
	return bad;
}

/*
 * Whether the map of the file open on fd built from its decoded bytes
 * d[0..dlen), given in chunks of random sizes (sh_zmap_begin), is m.
 */
static int
mapped(const struct sh_zmap *m, int fd, const unsigned char *d,
    size_t dlen)
{
	struct sh_zmapper *z;
	struct sh_zmap *b;
	unsigned long long c1, d1, c2, d2;
	size_t at, k, i;
	int same;

	if (sh_zmap_begin(&z, fd) != 0)
		return 0;
	for (at = 0; at < dlen; at += k) {
		k = (size_t)(next() % (next() % 2 ? 100 : 70000));
		k = k < dlen - at ? k : dlen - at;
		if (sh_zmap_data(z, d + at, k) != 0)
			break;
	}
	if (sh_zmap_finish(z, &b) != 0)
		return 0;
	same = sh_zmap_kind(b) == sh_zmap_kind(m) &&
	    sh_zmap_count(b) == sh_zmap_count(m);
	for (i = 0; same && i < sh_zmap_count(m); i++) {
		sh_zmap_start(m, i, &c1, &d1);
		sh_zmap_start(b, i, &c2, &d2);
		same = c1 == c2 && d1 == d2;
	}
	sh_zmap_free(b);
	return same;
}

int
main(void)
{
	struct sh_zmap *m;
	unsigned long long coff, skip, c2, s2, off;
	unsigned char *d, *z, buf[100];
	size_t dlen, zlen, i;
	char msg[200];
	int fd, r, same, k;
	static const char *const other[] = { "bzip2", "xz", "zstd -q" };
	static const int okind[] = { SH_Z_BZIP2, SH_Z_XZ, SH_Z_ZSTD };

	if (mkdtemp(dir) == NULL || make_multi(300) != 0) {
		ok(0, "test files made");
		return tap_done();
	}
	d = get(path(3, "multi"), &dlen);
	z = get(path(2, "multi.gz"), &zlen);
	fd = open_ro(path(2, "multi.gz"));
	r = sh_zmap_build(&m, fd, msg, sizeof(msg));
	ok(r == 0 && sh_zmap_kind(m) == SH_Z_GZIP, "map of %zu members "
	    "(%zu bytes, %zu decoded) built: %d %s", nm, zlen, dlen, r, msg);
	if (r != 0)
		return tap_done();
	ok(sh_zmap_count(m) == nm, "as many starts as members: %zu",
	    sh_zmap_count(m));
	for (same = 1, i = 0; i < nm; i++) {
		sh_zmap_find(m, md[i], &coff, &skip);
		made_find(md[i], &c2, &s2);
		same &= coff == c2 && skip == s2;
	}
	ok(same, "each member's decoded start gives the last member there");
	for (same = 1, i = 0; i < 2000; i++) {
		off = next() % (dlen + 1);
		sh_zmap_find(m, off, &coff, &skip);
		made_find(off, &c2, &s2);
		same &= coff == c2 && skip == s2;
	}
	ok(same, "2000 random offsets give the member made there");
	ok(ranges(m, fd, SH_Z_GZIP, d, dlen, 250, 1) == 0,
	    "250 random ranges, from their start and from starts before");
	ok(mapped(m, fd, d, dlen) && mapped(m, fd, d, dlen),
	    "the map built from the decoded bytes read elsewhere is the same");
	r = sh_zrange_read(fd, SH_Z_GZIP, mc[nm - 1], dlen - md[nm - 1], buf,
	    1, msg, sizeof(msg));
	ok(r == SH_ECHANGED, "a byte past the end: file changed (%d)", r);
	r = sh_zrange_read(fd, SH_Z_GZIP, 1, 0, buf, 1, msg, sizeof(msg));
	ok(r == SH_EZ && strcmp(msg, "not in gzip format") == 0,
	    "from no member start: \"%s\"", msg);
	ok(batches(m, fd, d, dlen, 60, 1, &k) == 0 && k == 0,
	    "60 batches of whole members, each read by one run");
	ok(batches(m, fd, d, dlen, 100, 0, &k) == 0, "100 batches of "
	    "random ranges read right, or refused (%d)", k);
	ok(!children_left(), "no child left");
	sh_zmap_free(m);
	close(fd);

	/*
	 * Members whose next header begins in the last 3 bytes of the first
	 * block read (256 bytes): random bytes stored by gzip -1 -n, 23
	 * bytes more than they are, 249 to 256 bytes long.
	 */
	{
		static unsigned char rb[500];
		size_t len, elen;
		int j;

		for (same = 1, j = 0; j < 8 && same; j++) {
			for (i = 0; i < sizeof(rb); i++)
				rb[i] = (unsigned char)next();
			len = 226 + (size_t)j;
			snprintf(msg, sizeof(msg), "%s", path(1, "edge.gz"));
			if (put(path(0, "rec"), rb, len) != 0 ||
			    run("gzip -1 -n -c '%s' >'%s'", path(0, "rec"),
			    msg) != 0 || run("gzip -n -c '%s' >>'%s'",
			    path(0, "rec"), msg) != 0) {
				same = 0;
				break;
			}
			free(get(msg, &elen));
			fd = open_ro(msg);
			r = sh_zrange_read(fd, SH_Z_GZIP, 0, 0, buf, 1, msg,
			    sizeof(msg));
			same &= r == 0 && buf[0] == rb[0] && elen == 2 * len + 46;
			r = sh_zrange_read(fd, SH_Z_GZIP, 0, len - 1, buf, 2,
			    msg, sizeof(msg));
			same &= r == 0 && buf[0] == rb[len - 1] &&
			    buf[1] == rb[0];
			close(fd);
		}
		ok(same, "members ending in the last bytes of a block read");
	}

	/* Plain: the range at coff + skip. */
	fd = open_ro(path(3, "multi"));
	ok(sh_zmap_build(&m, fd, msg, sizeof(msg)) == 0 &&
	    sh_zmap_kind(m) == SH_Z_NONE && sh_zmap_count(m) == 1,
	    "a plain file: one start");
	sh_zmap_find(m, 12345, &coff, &skip);
	ok(coff == 12345 && skip == 0, "a plain file's offset is its own");
	ok(mapped(m, fd, d, dlen), "a plain file's map from its bytes: the "
	    "same");
	ok(ranges(m, fd, SH_Z_NONE, d, dlen, 200, 0) == 0,
	    "200 random ranges of the plain file");
	ok(sh_zrange_read(fd, SH_Z_NONE, dlen - 1, 0, buf, 2, msg,
	    sizeof(msg)) == SH_ECHANGED, "past its end: file changed");
	sh_zmap_free(m);
	close(fd);

	/* One member, and the other kinds. */
	for (k = -1; k < 3; k++) {
		const char *name = k < 0 ? "gzip" : other[k];
		char cmd[700];

		snprintf(cmd, sizeof(cmd), "%s -c '%s' >'%s'", name,
		    path(3, "multi"), path(1, "one"));
		if (system(cmd) != 0) {
			ok(1, "# skip %s: not installed", name);
			continue;
		}
		fd = open_ro(path(1, "one"));
		r = sh_zmap_build(&m, fd, msg, sizeof(msg));
		ok(r == 0 && sh_zmap_kind(m) == (k < 0 ? SH_Z_GZIP : okind[k])
		    && sh_zmap_count(m) == 1, "%s of one stream: one start",
		    name);
		if (r == 0)
			ok(ranges(m, fd, sh_zmap_kind(m), d, dlen, 30, 0) == 0 &&
			    mapped(m, fd, d, dlen), "30 random ranges of %s; "
			    "its map from its decoded bytes the same", name);
		sh_zmap_free(m);
		close(fd);
	}

	/* Truncated in its last member, and corrupt in one in the middle. */
	if (put(path(1, "trunc.gz"), z, zlen - 30) != 0)
		return tap_done();
	fd = open_ro(path(1, "trunc.gz"));
	r = sh_zmap_build(&m, fd, msg, sizeof(msg));
	ok(r == SH_EZ && m == NULL && strcmp(msg, "unexpected end of file") ==
	    0, "truncated: \"%s\"", msg);
	for (i = nm - 2; md[i] == md[nm - 1]; i--)
		;
	r = sh_zrange_read(fd, SH_Z_GZIP, mc[i], md[nm - 1] - md[i] - 1, buf,
	    1, msg, sizeof(msg));
	ok(r == 0 && buf[0] == d[md[nm - 1] - 1],
	    "truncated: the last byte before the cut member reads");
	r = sh_zrange_read(fd, SH_Z_GZIP, mc[nm - 1], 0, buf, 1, msg,
	    sizeof(msg));
	ok(r == SH_EZ && strcmp(msg, "unexpected end of file") == 0,
	    "truncated: the cut member's first byte \"%s\"", msg);
	close(fd);
	for (i = nm / 3; mc[i + 1] - mc[i] < 200 || md[i + 1] - md[i] < 200;
	    i++)
		;
	z[mc[i] + (mc[i + 1] - mc[i]) / 2] ^= 0x55;
	if (put(path(1, "bad.gz"), z, zlen) != 0)
		return tap_done();
	fd = open_ro(path(1, "bad.gz"));
	r = sh_zmap_build(&m, fd, msg, sizeof(msg));
	ok(r == SH_EZ && m == NULL && *msg != '\0', "corrupt: \"%s\"", msg);
	r = sh_zrange_read(fd, SH_Z_GZIP, mc[i], 0, buf, 1, msg, sizeof(msg));
	ok(r == SH_EZ && *msg != '\0', "corrupt: its member fails: \"%s\"",
	    msg);
	r = sh_zrange_read(fd, SH_Z_GZIP, mc[i + 1], 0, buf, 1, msg,
	    sizeof(msg));
	ok(r == 0 && buf[0] == d[md[i + 1]], "corrupt: the member after it "
	    "reads");
	r = sh_zrange_read(fd, SH_Z_GZIP, mc[i - 1], 0, buf, 1, msg,
	    sizeof(msg));
	ok(r == 0 && buf[0] == d[md[i - 1]], "corrupt: the one before too");
	close(fd);
	ok(!children_left(), "no child left");
	ok(sh_zmap_build(&m, -1, msg, sizeof(msg)) == SH_EIO && errno == EBADF,
	    "a bad descriptor: an I/O error");
	free(d);
	free(z);
	run("rm -rf '%s'%s", dir, "");
	return tap_done();
}

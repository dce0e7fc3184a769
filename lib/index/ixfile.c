#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/hash.h"
#include "base/sketch.h"
#include "index/ixfile.h"

#define MANIFEST_MAX (64 << 20)

void
sh_ixfile_join(char *out, const char *dir, const char *name, const char *suffix)
{
	const char *part[4];
	size_t n = 0, len;
	int i;

	part[0] = dir;
	part[1] = name != NULL ? "/" : NULL;
	part[2] = name;
	part[3] = suffix;
	for (i = 0; i < 4; i++) {
		if (part[i] == NULL)
			continue;
		len = strlen(part[i]);
		if (len > SH_WHERE - 1 - n)
			len = SH_WHERE - 1 - n;
		memcpy(out + n, part[i], len);
		n += len;
	}
	out[n] = '\0';
}

int
sh_ixfile_fail(char *where, const char *dir, const char *name, int e)
{
	int saved = errno;

	sh_ixfile_join(where, dir, name, NULL);
	errno = saved;
	return e;
}

int
sh_ixfile_open(const char *path, int flags, int *fdp)
{
	struct stat st;
	int fd, saved, e = SH_EIO;

	if ((fd = open(path, flags | O_NOFOLLOW | O_NONBLOCK, 0666)) < 0)
		return SH_EIO;
	if (fstat(fd, &st) == 0 && (e = S_ISREG(st.st_mode) ? 0 :
	    SH_ENOTREG) == 0 && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) &
	    ~O_NONBLOCK) != 0)
		e = SH_EIO;
	if (e != 0) {
		saved = errno;
		close(fd);
		errno = saved;
		return e;
	}
	*fdp = fd;
	return 0;
}

/* Whether s is prefix and 1 to 20 digits. */
static int
numbered(const char *s, const char *prefix)
{
	size_t n;

	/* The prefix first: s + 4 may lie past the end of a short name. */
	if (strncmp(s, prefix, 4) != 0)
		return 0;
	n = strspn(s + 4, "0123456789");
	return n >= 1 && n <= 20 && s[4 + n] == '\0';
}

int
sh_ixfile_magic(const char *path, const unsigned char *magic)
{
	unsigned char m[8];
	int fd, is;

	if (sh_ixfile_open(path, O_RDONLY, &fd) != 0)
		return 0;
	is = pread(fd, m, 8, 0) == 8 && memcmp(m, magic, 8) == 0;
	close(fd);
	return is;
}

int
sh_ixfile_segname(const char *s)
{
	return numbered(s, "seg-");
}

int
sh_ixfile_delname(const char *s)
{
	return numbered(s, "del-");
}

int
sh_ixfile_timname(const char *s)
{
	return numbered(s, "tim-");
}

void
sh_ixfile_timfor(char *out, const char *seg)
{
	snprintf(out, 32, "tim-%s", seg + 4);
}

int
sh_ixfile_addname(struct sh_index *ix, const char *name, uint64_t nfp,
    uint64_t nid)
{
	void *a, *b, *c, *d, *f;
	size_t n = (size_t)ix->nseg + 1;

	a = realloc(ix->name, n * sizeof(*ix->name));
	if (a != NULL)
		ix->name = a;
	b = realloc(ix->nfp, n * sizeof(*ix->nfp));
	if (b != NULL)
		ix->nfp = b;
	c = realloc(ix->nid, n * sizeof(*ix->nid));
	if (c != NULL)
		ix->nid = c;
	d = realloc(ix->dname, n * sizeof(*ix->dname));
	if (d != NULL)
		ix->dname = d;
	f = realloc(ix->ndel, n * sizeof(*ix->ndel));
	if (f != NULL)
		ix->ndel = f;
	if (a == NULL || b == NULL || c == NULL || d == NULL || f == NULL)
		return SH_ENOMEM;
	snprintf(ix->name[ix->nseg], sizeof(*ix->name), "%s", name);
	ix->nfp[ix->nseg] = nfp;
	ix->nid[ix->nseg] = nid;
	*ix->dname[ix->nseg] = '\0';
	ix->ndel[ix->nseg] = 0;
	ix->nseg++;
	return 0;
}

/* A decimal number of 1 to 20 digits at *p, below 2^64, into *v; *p
 * moved past it.  Return 0 or SH_ECORRUPT. */
static int
num(const char **p, uint64_t *v)
{
	const char *s = *p;
	uint64_t x = 0;

	if (*s < '0' || *s > '9')
		return SH_ECORRUPT;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (x > (UINT64_MAX - (uint64_t)(*s - '0')) / 10)
			return SH_ECORRUPT;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*v = x;
	return 0;
}

/* Line p as fmt says: literal text, and "#" for a number (num) stored
 * in the next of v[]; nothing may follow.  Return 0 or SH_ECORRUPT. */
static int
scan(const char *p, const char *fmt, uint64_t *v)
{
	for (; *fmt != '\0'; fmt++)
		if (*fmt == '#') {
			if (num(&p, v++) != 0)
				return SH_ECORRUPT;
		} else if (*p++ != *fmt)
			return SH_ECORRUPT;
	return *p == '\0' ? 0 : SH_ECORRUPT;
}

static int
cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* The MANIFEST of ix as a whole: every segment and deletion file named
 * once, numbered below next, no two of one number; a segment holding at
 * least an ID per fingerprint (one each in band tables), its deletions
 * of some of them. */
static int
whole(const struct sh_index *ix)
{
	uint64_t *num_of, v;
	const char *p;
	size_t n = 0;
	int i, e = 0;

	if ((num_of = malloc(2 * (size_t)ix->nseg * sizeof(*num_of) + 1)) ==
	    NULL)
		return SH_ENOMEM;
	for (i = 0; i < ix->nseg && e == 0; i++) {
		p = ix->name[i] + 4;
		if (num(&p, &num_of[n++]) != 0 || num_of[n - 1] >= ix->next ||
		    ix->nid[i] < ix->nfp[i] ||
		    (ix->bands && ix->nid[i] != ix->nfp[i]) ||
		    ix->ndel[i] > ix->nid[i] || !*ix->dname[i] != !ix->ndel[i])
			e = SH_ECORRUPT;
		p = ix->dname[i] + 4;
		if (e == 0 && *ix->dname[i] && (num(&p, &num_of[n++]) != 0 ||
		    num_of[n - 1] >= ix->next))
			e = SH_ECORRUPT;
	}
	if (e == 0)
		qsort(num_of, n, sizeof(*num_of), cmp_u64);
	for (v = 1; e == 0 && v < n; v++)
		if (num_of[v - 1] == num_of[v])
			e = SH_ECORRUPT;
	free(num_of);
	return e;
}

/* Parse the MANIFEST text p[0..len): its last line is "end " and the
 * XXH64 of everything before it. */
static int
parse_manifest(struct sh_index *ix, char *p, size_t len)
{
	char *line, *last, *nl, *del;
	uint64_t sum, v[6];
	int i, deletes = 0;

	if (len < 9 || memcmp(p, "sh-index ", 9) != 0)
		return SH_EMAGIC;
	if (p[len - 1] != '\n')
		return SH_ETRUNC;
	for (last = p + len - 1; last > p && last[-1] != '\n'; last--)
		;
	if (strncmp(last, "end ", 4) != 0)
		return SH_ETRUNC;
	if (sh_hex_parse(last + 4, (size_t)(p + len - 1 - (last + 4)),
	    &sum) != 0 || sum != sh_hash64(p, (size_t)(last - p), 0))
		return SH_ECORRUPT;
	ix->sum = sum;
	for (line = p, i = 0; line < last; line = nl + 1, i++) {
		nl = memchr(line, '\n', (size_t)(last - line));
		*nl = '\0';
		if (i == 0) {
			if (scan(line, "sh-index #", v) != 0)
				return SH_ECORRUPT;
			if (v[0] < 1 || v[0] > 4)
				return SH_EVERSION;
			ix->lean = v[0] == 2;
			ix->bands = v[0] == 3;
			deletes = v[0] == 4;
			continue;
		}
		if (i == 1 && deletes) {
			/* Version 4, with deletions: line 2 says the kind. */
			ix->bands = strncmp(line, "bands ", 6) == 0;
			ix->lean = nl - line > 5 && strcmp(nl - 5, " lean") ==
			    0;
		}
		if (i == 1 && ix->bands) {
			/* Version 3: band tables. */
			if (scan(line, "bands # # # shard # # next #", v) != 0 ||
			    v[0] > 1000000 || v[1] < 1 || v[2] < 1 ||
			    v[1] > SH_SK_K / v[2])
				return SH_ECORRUPT;
			ix->t = (uint32_t)v[0];
			ix->bands = (int)v[1];
			ix->rows = (int)v[2];
		} else if (i == 1) {
			if (scan(line, ix->lean ? "k # plan # # shard # # next "
			    "# lean" : "k # plan # # shard # # next #", v) != 0 ||
			    v[0] > SH_PLAN_KMAX || v[1] > SH_PLAN_BMAX ||
			    v[2] > v[1] || !v[1] != !v[2])
				return SH_ECORRUPT;
			ix->k = (int)v[0];
			ix->b = (int)v[1];
			ix->r = (int)v[2];
		} else if (i - 1 > SH_INDEX_SEGMAX)
			return SH_ESEGMAX;
		else if ((scan(line, "seg-# # #", v) != 0 &&
		    (scan(line, "seg-# # # del-# #", v) != 0 || !deletes)) ||
		    (size_t)(strchr(line, ' ') - line) > 24)
			return SH_ECORRUPT;
		else {
			del = strstr(line, " del-");
			*strchr(line, ' ') = '\0';
			if (sh_ixfile_addname(ix, line, v[1], v[2]) != 0)
				return SH_ENOMEM;
			if (del != NULL && (size_t)(strchr(del + 1, ' ') -
			    del) > 25)
				return SH_ECORRUPT;
			if (del != NULL) {
				*strchr(del + 1, ' ') = '\0';
				memcpy(ix->dname[ix->nseg - 1], del + 1,
				    strlen(del + 1) + 1);
				ix->ndel[ix->nseg - 1] = v[4];
			}
		}
		if (i == 1) {
			/* Both kinds end in shard I S next N. */
			if (v[4] < 1 || v[4] > UINT32_MAX || v[3] >= v[4])
				return SH_ECORRUPT;
			ix->shard.i = (uint32_t)v[3];
			ix->shard.n = (uint32_t)v[4];
			ix->next = v[5];
		}
	}
	return i >= 2 ? whole(ix) : SH_ECORRUPT;
}

int
sh_ixfile_manifest(struct sh_index *ix, const char *dir, char *where)
{
	char path[SH_WHERE], *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	FILE *f;
	int e, fd;

	sh_ixfile_join(path, dir, "MANIFEST", NULL);
	/* The MANIFEST, like the segments it names, is no link, nor a
	 * FIFO or a device, which could hang the reader. */
	if ((e = sh_ixfile_open(path, O_RDONLY, &fd)) != 0)
		return sh_ixfile_fail(where, path, NULL, e);
	if ((f = fdopen(fd, "r")) == NULL) {
		e = errno;
		close(fd);
		errno = e;
		return sh_ixfile_fail(where, path, NULL, SH_EIO);
	}
	for (;;) {
		if (len == cap) {
			cap = cap ? 2 * cap : 4096;
			if (cap > MANIFEST_MAX ||
			    (nb = realloc(buf, cap)) == NULL) {
				free(buf);
				fclose(f);
				return sh_ixfile_fail(where, path, NULL, cap >
				    MANIFEST_MAX ? SH_ECORRUPT : SH_ENOMEM);
			}
			buf = nb;
		}
		if ((got = fread(buf + len, 1, cap - len, f)) == 0)
			break;
		len += got;
	}
	e = ferror(f) ? SH_EIO : parse_manifest(ix, buf, len);
	fclose(f);
	free(buf);
	return e ? sh_ixfile_fail(where, path, NULL, e) : 0;
}

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
sh_ixfile_segname(const char *s)
{
	size_t n;

	/* The prefix first: s + 4 may lie past the end of a short name. */
	if (strncmp(s, "seg-", 4) != 0)
		return 0;
	n = strspn(s + 4, "0123456789");
	return n >= 1 && n <= 20 && s[4 + n] == '\0';
}

int
sh_ixfile_addname(struct sh_index *ix, const char *name, uint64_t nfp,
    uint64_t nid)
{
	void *a, *b, *c;
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
	if (a == NULL || b == NULL || c == NULL)
		return SH_ENOMEM;
	snprintf(ix->name[ix->nseg], sizeof(*ix->name), "%s", name);
	ix->nfp[ix->nseg] = nfp;
	ix->nid[ix->nseg] = nid;
	ix->nseg++;
	return 0;
}

/* Parse the MANIFEST text p[0..len): its last line is "end " and the
 * XXH64 of everything before it. */
static int
parse_manifest(struct sh_index *ix, char *p, size_t len)
{
	char *line, *last, *nl, name[32];
	unsigned long long a, b;
	uint64_t sum;
	int n, v, i;

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
	for (line = p, i = 0; line < last; line = nl + 1, i++) {
		nl = memchr(line, '\n', (size_t)(last - line));
		*nl = '\0';
		n = -1;
		if (i == 0) {
			if (sscanf(line, "sh-index %d%n", &v, &n) != 1 ||
			    line[n] != '\0')
				return SH_ECORRUPT;
			if (v < 1 || v > 3)
				return SH_EVERSION;
			ix->lean = v == 2;
			ix->bands = v == 3;
		} else if (i == 1 && ix->bands) {
			/* Version 3: band tables. */
			if (sscanf(line, "bands %u %d %d shard %u %u next "
			    "%llu%n", &ix->t, &ix->bands, &ix->rows,
			    &ix->shard.i, &ix->shard.n, &a, &n) != 6 ||
			    line[n] != '\0' || ix->t > 1000000 ||
			    ix->bands < 1 || ix->rows < 1 ||
			    ix->bands > SH_SK_K / ix->rows ||
			    ix->shard.n < 1 || ix->shard.i >= ix->shard.n)
				return SH_ECORRUPT;
			ix->next = a;
		} else if (i == 1) {
			if (sscanf(line, "k %d plan %d %d shard %u %u next %llu%n",
			    &ix->k, &ix->b, &ix->r, &ix->shard.i, &ix->shard.n,
			    &a, &n) != 6 || strcmp(line + n, ix->lean ?
			    " lean" : "") != 0 ||
			    ix->k < 0 || ix->k > SH_PLAN_KMAX || ix->b < 0 ||
			    ix->b > SH_PLAN_BMAX || ix->r < 0 || ix->r > ix->b ||
			    !ix->b != !ix->r ||
			    ix->shard.n < 1 || ix->shard.i >= ix->shard.n)
				return SH_ECORRUPT;
			ix->next = a;
		} else if (sscanf(line, "%31s %llu %llu%n", name, &a, &b,
		    &n) != 3 || line[n] != '\0' || !sh_ixfile_segname(name))
			return SH_ECORRUPT;
		else if (sh_ixfile_addname(ix, name, a, b) != 0)
			return SH_ENOMEM;
	}
	return i >= 2 ? 0 : SH_ECORRUPT;
}

int
sh_ixfile_manifest(struct sh_index *ix, const char *dir, char *where)
{
	char path[SH_WHERE], *buf = NULL, *nb;
	size_t len = 0, cap = 0, got;
	FILE *f;
	int e, fd;

	sh_ixfile_join(path, dir, "MANIFEST", NULL);
	/* The MANIFEST, like the segments it names, is no link. */
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW)) < 0 ||
	    (f = fdopen(fd, "r")) == NULL) {
		e = errno;
		if (fd >= 0)
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

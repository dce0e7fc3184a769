#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/zmap.h"
#include "text/recloc.h"
#include "verify/locate.h"

/* A file of the map, once met: its real path, and its member map when
 * it was read through a decompressor (zm: the map's, or z, built here);
 * placed 0 when it has none. */
struct file {
	int met, placed;
	char *path;
	const struct sh_zmap *zm;
	struct sh_zmap *z;
};

struct sh_locator {
	struct sh_docmap *m;
	int mode;
	struct file *f;
	size_t nf, fcap;
	const char *unplaced;
};

int
sh_locator_new(struct sh_locator **lc, struct sh_docmap *m, int mode)
{
	if ((*lc = calloc(1, sizeof(**lc))) == NULL)
		return SH_ENOMEM;
	(*lc)->m = m;
	(*lc)->mode = mode;
	return 0;
}

/* File src of the map met: its path made absolute, and for a stream
 * (what a decompressor wrote) of a regular file, its member map. */
static int
meet(struct sh_locator *lc, const struct sh_docplace *w, struct file *f,
    char *msg, size_t cap)
{
	struct stat st;
	int fd, e;

	f->met = 1;
	if (stat(w->path, &st) != 0 || !S_ISREG(st.st_mode) ||
	    strcmp(w->path, "-") == 0) {
		if (lc->unplaced == NULL)
			lc->unplaced = w->path;
		return 0;
	}
	if ((f->path = realpath(w->path, NULL)) == NULL)
		return errno == ENOMEM ? SH_ENOMEM : SH_EIO;
	/* A stream's member map: the one built as the map read it, else
	 * built now. */
	if (w->kept && (f->zm = sh_docmap_zmap(lc->m, w->src)) == NULL) {
		if ((fd = open(f->path, O_RDONLY)) < 0)
			return SH_EIO;
		e = sh_zmap_build(&f->z, fd, msg, cap);
		close(fd);
		if (e != 0)
			return e;
		f->zm = f->z;
	}
	f->placed = 1;
	return 0;
}

int
sh_locator_find(struct sh_locator *lc, const char *id, size_t idlen,
    struct sh_segloc *l, char *msg, size_t cap)
{
	struct sh_docplace w;
	unsigned long long coff, skip;
	struct file *f;
	size_t n;
	int r;

	memset(l, 0, sizeof(*l));
	if ((r = sh_docmap_where(lc->m, id, idlen, &w)) != 1)
		return r;
	if (w.src >= lc->nf) {
		n = lc->nf;
		if (sh_grow(&lc->f, &lc->fcap, w.src + 1, sizeof(*lc->f)) != 0)
			return SH_ENOMEM;
		memset(lc->f + n, 0, (w.src + 1 - n) * sizeof(*lc->f));
		lc->nf = w.src + 1;
	}
	f = &lc->f[w.src];
	if (!f->met && (r = meet(lc, &w, f, msg, cap)) != 0)
		return r;
	if (!f->placed)
		return 0;
	l->path = f->path;
	l->mode = (uint32_t)lc->mode;
	l->off = (uint64_t)w.off;
	l->size = (uint64_t)w.size;
	l->line = w.line;
	if (f->zm != NULL) {
		sh_zmap_find(f->zm, l->off, &coff, &skip);
		l->coff = coff;
		l->skip = skip;
	} else
		l->coff = l->off;
	return 1;
}

const char *
sh_locator_unplaced(const struct sh_locator *lc)
{
	return lc->unplaced;
}

void
sh_locator_free(struct sh_locator *lc)
{
	size_t i;

	if (lc == NULL)
		return;
	for (i = 0; i < lc->nf; i++) {
		free(lc->f[i].path);
		sh_zmap_free(lc->f[i].z);
	}
	free(lc->f);
	free(lc);
}

int
sh_locate_hit(struct sh_index *ix, const struct sh_hit *h,
    const char *id, size_t len, struct sh_docmap *m, const char **file,
    char *name, char *where)
{
	struct sh_segloc s;
	struct sh_recloc l;
	uint32_t n;
	int r;

	if (file != NULL)
		*file = NULL;
	if ((r = sh_index_loc(ix, h, &s, where)) != 1)
		return r;
	if (file != NULL)
		*file = s.path;
	if (m == NULL)
		return 0;
	memset(&l, 0, sizeof(l));
	l.path = s.path;
	l.mode = (int)s.mode;
	l.off = s.off;
	l.size = s.size;
	l.coff = s.coff;
	l.skip = s.skip;
	l.line = s.line;
	if ((r = sh_docmap_locate(m, id, len, &l, &n)) != 0) {
		*where = '\0';
		return r;
	}
	sh_docmap_name(n, name);
	return 1;
}

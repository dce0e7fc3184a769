#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/grow.h"
#include "base/hash.h"
#include "text/docmap.h"

struct ent {
	uint64_t key;
	long long off, size;
};

struct sh_docmap {
	struct sh_reader rd;
	const struct sh_recopt *o;
	struct ent *e;		/* a clone's is its original's */
	size_t n, cap;
	int numbered;		/* keys are line numbers */
	int sorted;
	int skip;
	int clone;
	unsigned long long nskip;
	/* -F: the documents are files, their IDs paths below dir. */
	char *dir;
	char *name, *path;	/* the ID unescaped, and the file's path */
	size_t namecap, pathcap;
	int open;		/* rd reads a file of dir */
};

int
sh_docmap_open(struct sh_docmap **m, const char *path,
    const struct sh_recopt *o)
{
	struct stat st;
	FILE *fp;

	/* -F: a directory, and nothing to read yet. */
	if (o->mode == SH_REC_FILE) {
		if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
			return SH_EINVAL;
		if ((*m = calloc(1, sizeof(**m))) == NULL ||
		    ((*m)->dir = strdup(path)) == NULL) {
			free(*m);
			return SH_ENOMEM;
		}
		(*m)->o = o;
		(*m)->sorted = 1;
		return 0;
	}
	if ((fp = fopen(path, "r")) == NULL)
		return SH_EIO;
	if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(fp);
		return SH_ENOTREG;
	}
	if ((*m = calloc(1, sizeof(**m))) == NULL) {
		fclose(fp);
		return SH_ENOMEM;
	}
	sh_reader_open(&(*m)->rd, fp, o, path, 0);
	(*m)->o = o;
	(*m)->numbered = o->mode == SH_REC_LINE || o->mode == SH_REC_PARA;
	(*m)->sorted = 1;
	(*m)->skip = o->skip;
	return 0;
}

void
sh_docmap_free(struct sh_docmap *m)
{
	if (m == NULL)
		return;
	if (m->dir == NULL || m->open) {
		fclose(m->rd.in.fp);
		sh_reader_free(&m->rd);
	}
	if (!m->clone)
		free(m->e);
	free(m->dir);
	free(m->name);
	free(m->path);
	free(m);
}

size_t
sh_docmap_count(const struct sh_docmap *m)
{
	return m->n;
}

unsigned long long
sh_docmap_skipped(const struct sh_docmap *m)
{
	return m->nskip;
}

static uint64_t
id_key(const char *id, size_t idlen)
{
	return sh_hash64(id, idlen, 0);
}

/* By key, then by place in the file. */
static int
cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

/* The table in key order: sorted at the end of the scan, or at the
 * first lookup when the scan was not read to its end. */
static void
sort_table(struct sh_docmap *m)
{
	if (m->sorted)
		return;
	qsort(m->e, m->n, sizeof(m->e[0]), cmp_ent);
	m->sorted = 1;
}

int
sh_docmap_scan(struct sh_docmap *m, struct sh_rec *rec)
{
	struct ent *e;
	int r;

	if (m->dir != NULL)
		return 0;	/* -F: files, found when asked for */
	while ((r = sh_reader_next(&m->rd, rec)) != 1) {
		if (r == 0)
			sort_table(m);
		if (!m->skip || !sh_rec_skippable(r))
			return r;
		m->nskip++;
	}
	if (m->n == m->cap &&
	    sh_grow(&m->e, &m->cap, m->n + 1, sizeof(*m->e)) != 0)
		return SH_ENOMEM;
	e = &m->e[m->n];
	e->key = m->numbered ? rec->line : id_key(rec->id, rec->idlen);
	e->off = rec->off;
	e->size = rec->size;
	if (m->n > 0 && e->key < e[-1].key)
		m->sorted = 0;
	m->n++;
	return 1;
}

const struct sh_reader *
sh_docmap_reader(const struct sh_docmap *m)
{
	return m->dir != NULL ? NULL : &m->rd;
}

/* The line number written as id[0..len) ("17", no sign, no leading
 * zero), or 0 when it is none. */
static uint64_t
line_key(const char *id, size_t len)
{
	uint64_t v = 0;
	size_t i;

	if (len == 0 || len > 19 || id[0] == '0')
		return 0;
	for (i = 0; i < len; i++) {
		if (id[i] < '0' || id[i] > '9')
			return 0;
		v = v * 10 + (uint64_t)(id[i] - '0');
	}
	return v;
}

int
sh_docmap_clone(struct sh_docmap *m, struct sh_docmap **c)
{
	struct stat a, b;
	FILE *fp;

	if (m->dir != NULL) {
		if ((*c = calloc(1, sizeof(**c))) == NULL ||
		    ((*c)->dir = strdup(m->dir)) == NULL) {
			free(*c);
			return SH_ENOMEM;
		}
		(*c)->o = m->o;
		(*c)->sorted = (*c)->clone = 1;
		return 0;
	}
	if ((fp = fopen(m->rd.name, "r")) == NULL)
		return SH_EIO;
	if (fstat(fileno(m->rd.in.fp), &a) != 0 ||
	    fstat(fileno(fp), &b) != 0 || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino) {
		fclose(fp);
		return SH_ECHANGED;
	}
	if ((*c = malloc(sizeof(**c))) == NULL) {
		fclose(fp);
		return SH_ENOMEM;
	}
	sort_table(m);
	**c = *m;
	(*c)->clone = 1;
	(*c)->cap = 0;
	sh_reader_open(&(*c)->rd, fp, m->o, m->rd.name, 0);
	return 0;
}

/* Read entry i's record again into *rec. */
static int
reread(struct sh_docmap *m, size_t i, struct sh_rec *rec)
{
	int r;

	if (sh_reader_seek(&m->rd, m->e[i].off, m->e[i].size,
	    m->numbered ? m->e[i].key : 0) != 0)
		return SH_EIO;
	if ((r = sh_reader_next(&m->rd, rec)) < 0 && !sh_rec_skippable(r))
		return r;
	if (r != 1 || rec->off != m->e[i].off || rec->size != m->e[i].size)
		return SH_ECHANGED;
	return 1;
}

long long
sh_docmap_dups(struct sh_docmap *m, char *ids, size_t cap)
{
	struct sh_rec rec;
	long long n = 0;
	size_t i, j, k, few[3], nfew = 0, len;
	char *id = NULL;
	size_t idlen = 0;
	int r = 1;

	*ids = '\0';
	sort_table(m);
	if (m->numbered || m->dir != NULL)
		return 0;
	/* Runs of one hash: each record's ID against the first of the run
	 * (others differ only where 64-bit hashes collide; such a record
	 * is then counted when its ID equals the run's first).  The three
	 * first in the file are kept. */
	for (i = 0; i < m->n && r == 1; i = j) {
		for (j = i + 1; j < m->n && m->e[j].key == m->e[i].key; j++)
			;
		if (j - i < 2 || (r = reread(m, i, &rec)) != 1)
			continue;
		free(id);
		if ((id = malloc(rec.idlen + 1)) == NULL) {
			r = SH_ENOMEM;
			break;
		}
		memcpy(id, rec.id, rec.idlen);
		idlen = rec.idlen;
		for (; i + 1 < j && (r = reread(m, i + 1, &rec)) == 1; i++) {
			if (rec.idlen != idlen || memcmp(rec.id, id, idlen) != 0)
				continue;
			n++;
			for (k = nfew; k > 0 && m->e[few[k - 1]].off >
			    m->e[i + 1].off; k--)
				if (k < 3)
					few[k] = few[k - 1];
			if (k < 3) {
				few[k] = i + 1;
				nfew += nfew < 3;
			}
		}
	}
	for (k = 0; k < nfew && r == 1; k++)
		if ((r = reread(m, few[k], &rec)) == 1) {
			len = strlen(ids);
			snprintf(ids + len, cap - len, "%s\"%.*s\"", k ? ", " :
			    "", (int)(rec.idlen > 100 ? 100 : rec.idlen),
			    rec.id);
		}
	free(id);
	return r == 1 ? n : r;
}

/* -F: the document of ID id is the file of that path, below m->dir when
 * the path is relative, read whole as sh-fp -F reads it. */
static int
get_file(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_rec *rec)
{
	struct stat st;
	size_t n, d = strlen(m->dir);
	FILE *fp;
	int r;

	if (m->open) {
		fclose(m->rd.in.fp);
		sh_reader_free(&m->rd);
		m->open = 0;
	}
	if (sh_grow(&m->name, &m->namecap, idlen + 1, 1) != 0 ||
	    sh_grow(&m->path, &m->pathcap, d + idlen + 2, 1) != 0)
		return SH_ENOMEM;
	n = sh_rec_unescape(id, idlen, m->name);
	m->name[n] = '\0';
	if (n == 0 || memchr(m->name, '\0', n) != NULL)
		return 0;
	if (m->name[0] == '/')
		memcpy(m->path, m->name, n + 1);
	else
		snprintf(m->path, m->pathcap, "%s/%s", m->dir, m->name);
	if ((fp = fopen(m->path, "r")) == NULL)
		return 0;
	if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(fp);
		return 0;
	}
	sh_reader_open(&m->rd, fp, m->o, m->name, 0);
	m->open = 1;
	if ((r = sh_reader_next(&m->rd, rec)) != 1)
		return r < 0 && !sh_rec_skippable(r) ? r : 0;
	/* The same ID, as the reader escapes a name. */
	return rec->idlen == idlen && memcmp(rec->id, id, idlen) == 0;
}

int
sh_docmap_get(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_rec *rec)
{
	uint64_t key;
	size_t lo = 0, hi = m->n;
	int r;

	if (m->dir != NULL)
		return get_file(m, id, idlen, rec);
	sort_table(m);
	if (m->numbered) {
		if ((key = line_key(id, idlen)) == 0)
			return 0;
	} else
		key = id_key(id, idlen);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->e[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < m->n && m->e[lo].key == key; lo++) {
		if (sh_reader_seek(&m->rd, m->e[lo].off, m->e[lo].size,
		    m->numbered ? key : 0) != 0)
			return SH_EIO;
		if ((r = sh_reader_next(&m->rd, rec)) < 0 &&
		    !sh_rec_skippable(r))
			return r;
		if (r != 1 || rec->off != m->e[lo].off ||
		    rec->size != m->e[lo].size)
			return SH_ECHANGED;
		if (m->numbered || (rec->idlen == idlen &&
		    memcmp(rec->id, id, idlen) == 0))
			return 1;
	}
	return 0;
}

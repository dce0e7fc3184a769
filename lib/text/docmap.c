#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/fpval.h"
#include "base/grow.h"
#include "base/hash.h"
#include "base/hmap.h"
#include "base/io.h"
#include "base/zmap.h"
#include "base/zpipe.h"
#include "text/docmap.h"

/* An entry's place: its file in the top SRC_BITS bits, its offset in
 * that file (or in the temporary file, for a stream's record) below. */
#define SRC_BITS 20
#define OFF_BITS (64 - SRC_BITS)
#define MAX_SRC ((size_t)1 << SRC_BITS)
#define MAX_OFF ((long long)1 << (OFF_BITS - 1))
#define PLACE(src, off) ((long long)((uint64_t)(src) << OFF_BITS | \
	(uint64_t)(off)))
#define SRC_OF(place) ((size_t)((uint64_t)(place) >> OFF_BITS))
#define OFF_OF(place) ((long long)((uint64_t)(place) & \
	(((uint64_t)1 << OFF_BITS) - 1)))

struct ent {
	uint64_t key;
	long long place, size;
};

/* A file of documents: a regular file read where it lies, or a stream
 * whose records are in the temporary file (kept). */
struct src {
	char *path;		/* its name */
	int kept;
	dev_t dev;
	ino_t ino;
	struct sh_zmap *z;	/* a stream's file's member map, or NULL */
};

/* The head of a stream's record in the temporary file, before its ID,
 * its charset's name and its text: what the reader returned. */
struct kept {
	uint64_t line, idlen, len, cslen;
	int64_t off, size;
	int32_t html, csdetected;
};

/* A located record: where it lies (l.path the caller's), its ID at
 * ids[id, id + idlen) of its set, and 1 + the next entry of the same
 * hash of ID (0: none). */
struct loc {
	struct sh_recloc l;
	size_t id, idlen;
	uint32_t next;
	int ahead;		/* its bytes read ahead: pre[at, at + n) */
	size_t at, n;
};

/* The located records of a map, borrowed by its clones: the entries,
 * their IDs end to end (each with a NUL after it), and by the 64-bit
 * hash of an ID the first entry of that hash. */
struct locs {
	struct loc *e;
	size_t n, cap;
	char *ids;
	size_t idsn, idscap;
	struct sh_hmap byid;
	/* Read ahead by the last sh_docmap_ahead: the bytes of entries
	 * [from, to) that it read, and those after them not yet asked. */
	char *pre;
	size_t precap, from, to;
};

struct sh_docmap {
	const struct sh_recopt *o;
	int prefix;
	const char *tmpdir;
	/* The original's, borrowed by its clones. */
	struct ent *e;
	size_t n, cap;
	struct src *src;
	size_t nsrc, srccap;
	/* With numbered keys and prefix: the files by their names, for the
	 * "NAME:N" of an ID.  Open addressing by the hash of the name, of
	 * 1 + the file's index (0: empty), nslots a power of 2 at least
	 * twice nsrc; of files of one name, the first comes first. */
	uint32_t *byname;
	size_t nslots;
	FILE *tmp;		/* the streams' records; NULL: none yet */
	long long tmpoff;	/* its size */
	int numbered;		/* keys are line numbers */
	int sorted;
	int clone;
	unsigned long long nskip;
	struct sh_docmap_counts counts;	/* of the scans ended */
	/* The scan of the file added last. */
	struct sh_reader scan;
	FILE *scanfp;		/* NULL: a stream, not closed here */
	int scanning;
	/* Lookups: the reader of file look (-1: none), or a stream's
	 * record read into buf. */
	struct sh_reader rd;
	long long look;
	char *buf;
	size_t bufcap;
	/* -F: the documents are files, their IDs paths below dir. */
	char *dir;
	char *name, *path;	/* the ID unescaped, and the file's path */
	size_t namecap, pathcap;
	/* Located records: the original's, and this map's reading of
	 * them; the file of the last failure, when located, and the
	 * decompressor's last message. */
	struct locs *locs;
	struct sh_recbuf rb;
	const char *failed;
	char zmsg[sizeof(((struct sh_recbuf *)0)->msg)];
};

int
sh_docmap_new(struct sh_docmap **m, const struct sh_recopt *o, int prefix,
    const char *tmpdir)
{
	if ((*m = calloc(1, sizeof(**m))) == NULL)
		return SH_ENOMEM;
	if (((*m)->locs = calloc(1, sizeof(*(*m)->locs))) == NULL) {
		free(*m);
		*m = NULL;
		return SH_ENOMEM;
	}
	(*m)->o = o;
	(*m)->prefix = prefix;
	(*m)->tmpdir = tmpdir;
	(*m)->numbered = o->mode == SH_REC_LINE || o->mode == SH_REC_PARA;
	(*m)->sorted = 1;
	(*m)->look = -1;
	return 0;
}

/* The end of the scan of the file added before. */
static void
end_scan(struct sh_docmap *m)
{
	if (!m->scanning)
		return;
	if (m->scanfp != NULL)
		fclose(m->scanfp);
	m->counts.nstatus += m->scan.nstatus;
	m->counts.ntype += m->scan.ntype;
	m->counts.nbinary += m->scan.nbinary;
	m->counts.nbadcs += m->scan.nbadcs;
	sh_reader_free(&m->scan);
	m->scanning = 0;
}

/* File i into m->byname. */
static void
name_put(struct sh_docmap *m, size_t i)
{
	const char *p = m->src[i].path;
	size_t j = (size_t)sh_hash64(p, strlen(p), 0) & (m->nslots - 1);

	while (m->byname[j] != 0)
		j = (j + 1) & (m->nslots - 1);
	m->byname[j] = (uint32_t)i + 1;
}

/* File i, the last, into m->byname, which grows (the files before
 * put again in their order); return 0 or SH_ENOMEM. */
static int
name_add(struct sh_docmap *m, size_t i)
{
	uint32_t *t;
	size_t k, n;

	if (2 * (i + 1) > m->nslots) {
		n = m->nslots ? 2 * m->nslots : 64;
		if ((t = calloc(n, sizeof(*t))) == NULL)
			return SH_ENOMEM;
		free(m->byname);
		m->byname = t;
		m->nslots = n;
		for (k = 0; k < i; k++)
			name_put(m, k);
	}
	name_put(m, i);
	return 0;
}

/* A new source into m->src, path (copied); return it or NULL (*e the
 * error). */
static struct src *
new_src(struct sh_docmap *m, const char *path, int *e)
{
	struct src *s;

	*e = SH_ERANGE;
	if (m->nsrc == MAX_SRC || m->dir != NULL)
		return NULL;
	*e = SH_ENOMEM;
	if (m->nsrc == m->srccap && sh_grow(&m->src, &m->srccap,
	    m->nsrc + 1, sizeof(*m->src)) != 0)
		return NULL;
	s = &m->src[m->nsrc];
	memset(s, 0, sizeof(*s));
	if ((s->path = strdup(path)) == NULL)
		return NULL;
	if (m->numbered && m->prefix && name_add(m, m->nsrc) != 0) {
		free(s->path);
		return NULL;
	}
	m->nsrc++;
	return s;
}

int
sh_docmap_add(struct sh_docmap *m, const char *path)
{
	struct stat st;
	struct src *s;
	FILE *fp;
	int e;

	/* -F: a directory, and nothing to read yet. */
	if (m->o->mode == SH_REC_FILE) {
		if (m->dir != NULL || m->nsrc > 0 || stat(path, &st) != 0 ||
		    !S_ISDIR(st.st_mode))
			return SH_EINVAL;
		return (m->dir = strdup(path)) == NULL ? SH_ENOMEM : 0;
	}
	if ((fp = fopen(path, "r")) == NULL)
		return SH_EIO;
	if (fstat(fileno(fp), &st) != 0 || !S_ISREG(st.st_mode)) {
		fclose(fp);
		return SH_ENOTREG;
	}
	if (st.st_size >= MAX_OFF || (s = new_src(m, path, &e)) == NULL) {
		fclose(fp);
		return st.st_size >= MAX_OFF ? SH_ERANGE : e;
	}
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	end_scan(m);
	sh_reader_open(&m->scan, fp, m->o, s->path, m->prefix);
	m->scanfp = fp;
	m->scanning = 1;
	return 0;
}

int
sh_docmap_add_stream(struct sh_docmap *m, FILE *fp, const char *name)
{
	struct src *s;
	int e;

	if (m->o->mode == SH_REC_FILE)
		return SH_EINVAL;
	if (m->tmp == NULL && (e = sh_tmpfile(m->tmpdir, &m->tmp)) != 0)
		return e;
	if ((s = new_src(m, name, &e)) == NULL)
		return e;
	s->kept = 1;
	end_scan(m);
	sh_reader_open(&m->scan, fp, m->o, s->path, m->prefix);
	m->scanfp = NULL;
	m->scanning = 1;
	return 0;
}

int
sh_docmap_open(struct sh_docmap **m, const char *path,
    const struct sh_recopt *o)
{
	int r;

	if ((r = sh_docmap_new(m, o, 0, NULL)) != 0)
		return r;
	if ((r = sh_docmap_add(*m, path)) != 0) {
		sh_docmap_free(*m);
		*m = NULL;
	}
	return r;
}

void
sh_docmap_free(struct sh_docmap *m)
{
	size_t i;

	if (m == NULL)
		return;
	end_scan(m);
	if (m->look >= 0) {
		fclose(m->rd.in.fp);
		sh_reader_free(&m->rd);
	}
	if (!m->clone) {
		free(m->e);
		for (i = 0; i < m->nsrc; i++) {
			free(m->src[i].path);
			sh_zmap_free(m->src[i].z);
		}
		free(m->src);
		free(m->byname);
		if (m->tmp != NULL)
			fclose(m->tmp);
		free(m->locs->e);
		free(m->locs->ids);
		free(m->locs->pre);
		sh_hmap_free(&m->locs->byid);
		free(m->locs);
	}
	sh_recloc_free(&m->rb);
	free(m->buf);
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

const struct sh_docmap_counts *
sh_docmap_counts(const struct sh_docmap *m)
{
	return &m->counts;
}

static uint64_t
id_key(const char *id, size_t idlen)
{
	return sh_hash64(id, idlen, 0);
}

/* By key, then by file and place in it. */
static int
cmp_ent(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	if (x->place != y->place)
		return x->place < y->place ? -1 : 1;
	return 0;
}

/* The table in key order, sorted once after the scans. */
static void
sort_table(struct sh_docmap *m)
{
	if (m->sorted)
		return;
	qsort(m->e, m->n, sizeof(m->e[0]), cmp_ent);
	m->sorted = 1;
}

/* Keep the stream's record rec in the temporary file; its place there
 * into *off, its bytes into *size. */
static int
keep(struct sh_docmap *m, const struct sh_rec *rec, long long *off,
    long long *size)
{
	struct kept k;

	memset(&k, 0, sizeof(k));
	k.line = rec->line;
	k.idlen = rec->idlen;
	k.len = rec->len;
	k.cslen = rec->cs != NULL ? rec->cslen : 0;
	k.off = rec->off;
	k.size = rec->size;
	k.html = rec->html;
	k.csdetected = rec->csdetected;
	*off = m->tmpoff;
	*size = (long long)(sizeof(k) + k.idlen + k.cslen + k.len);
	if (m->tmpoff + *size >= MAX_OFF)
		return SH_ERANGE;
	if (fwrite(&k, sizeof(k), 1, m->tmp) != 1 ||
	    fwrite(rec->id, 1, rec->idlen, m->tmp) != rec->idlen ||
	    (k.cslen > 0 && fwrite(rec->cs, 1, k.cslen, m->tmp) != k.cslen) ||
	    fwrite(rec->text, 1, rec->len, m->tmp) != rec->len)
		return SH_EIO;
	m->tmpoff += *size;
	return 0;
}

int
sh_docmap_scan(struct sh_docmap *m, struct sh_rec *rec)
{
	struct ent *e;
	long long off, size;
	int r;

	if (!m->scanning)
		return 0;	/* -F: files, found when asked for */
	while ((r = sh_reader_next(&m->scan, rec)) != 1) {
		if (r == 0) {
			end_scan(m);
			return m->tmp != NULL && fflush(m->tmp) != 0 ?
			    SH_EIO : 0;
		}
		if (!m->o->skip || !sh_rec_skippable(r))
			return r;
		m->nskip++;
	}
	off = rec->off;
	size = rec->size;
	if (m->scanfp == NULL && (r = keep(m, rec, &off, &size)) != 0)
		return r;
	if (m->n == m->cap &&
	    sh_grow(&m->e, &m->cap, m->n + 1, sizeof(*m->e)) != 0)
		return SH_ENOMEM;
	e = &m->e[m->n];
	e->key = m->numbered ? (uint64_t)PLACE(m->prefix ? m->nsrc - 1 : 0,
	    rec->line) : id_key(rec->id, rec->idlen);
	e->place = PLACE(m->nsrc - 1, off);
	e->size = size;
	if (m->n > 0 && cmp_ent(e, e - 1) < 0)
		m->sorted = 0;
	m->n++;
	return 1;
}

const struct sh_reader *
sh_docmap_reader(const struct sh_docmap *m)
{
	return m->scanning ? &m->scan : NULL;
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

/* The key of a numbered ID: "N", or "NAME:N" of the first file named
 * so, found by its name's hash whatever the number of files. */
static uint64_t
numbered_key(const struct sh_docmap *m, const char *id, size_t len)
{
	const char *colon, *p;
	size_t i, n;
	uint32_t k;

	if (!m->prefix)
		return line_key(id, len);
	for (colon = NULL, i = len; i > 0 && colon == NULL; i--)
		if (id[i - 1] == ':')
			colon = id + i - 1;
	if (colon == NULL || m->nslots == 0)
		return 0;
	n = (size_t)(colon - id);
	for (i = (size_t)sh_hash64(id, n, 0) & (m->nslots - 1);
	    (k = m->byname[i]) != 0; i = (i + 1) & (m->nslots - 1)) {
		p = m->src[k - 1].path;
		if (strlen(p) == n && memcmp(p, id, n) == 0)
			return (uint64_t)PLACE(k - 1, line_key(colon + 1,
			    len - n - 1));
	}
	return 0;
}

int
sh_docmap_clone(struct sh_docmap *m, struct sh_docmap **c)
{
	end_scan(m);
	sort_table(m);
	if ((*c = malloc(sizeof(**c))) == NULL)
		return SH_ENOMEM;
	**c = *m;
	(*c)->clone = 1;
	(*c)->cap = (*c)->srccap = 0;
	(*c)->look = -1;
	(*c)->buf = NULL;
	(*c)->bufcap = 0;
	(*c)->name = (*c)->path = NULL;
	(*c)->namecap = (*c)->pathcap = 0;
	memset(&(*c)->rb, 0, sizeof((*c)->rb));
	(*c)->failed = NULL;
	(*c)->zmsg[0] = '\0';
	if (m->dir != NULL && ((*c)->dir = strdup(m->dir)) == NULL) {
		free(*c);
		return SH_ENOMEM;
	}
	return 0;
}

/* The reader of m->rd on file src, opened when it is not (and checked
 * to be the file the scan read). */
static int
look_at(struct sh_docmap *m, size_t src)
{
	const struct src *s = &m->src[src];
	struct stat st;
	FILE *fp;

	if (m->look == (long long)src)
		return 0;
	if (m->look >= 0) {
		fclose(m->rd.in.fp);
		sh_reader_free(&m->rd);
		m->look = -1;
	}
	if ((fp = fopen(s->path, "r")) == NULL)
		return SH_EIO;
	if (fstat(fileno(fp), &st) != 0 || st.st_dev != s->dev ||
	    st.st_ino != s->ino) {
		fclose(fp);
		return SH_ECHANGED;
	}
	sh_reader_open(&m->rd, fp, m->o, s->path, m->prefix);
	m->look = (long long)src;
	return 0;
}

/* A stream's record kept at off, size bytes, into *rec. */
static int
read_kept(struct sh_docmap *m, long long off, long long size,
    struct sh_rec *rec)
{
	struct kept k;

	if (sh_grow(&m->buf, &m->bufcap, (size_t)size, 1) != 0)
		return SH_ENOMEM;
	if (sh_pread_all(fileno(m->tmp), m->buf, (size_t)size,
	    (uint64_t)off) != 0)
		return SH_EIO;
	memcpy(&k, m->buf, sizeof(k));
	if (sizeof(k) + k.idlen + k.cslen + k.len != (uint64_t)size)
		return SH_ECHANGED;
	memset(rec, 0, sizeof(*rec));
	rec->id = m->buf + sizeof(k);
	rec->idlen = (size_t)k.idlen;
	rec->cs = k.cslen > 0 ? rec->id + k.idlen : NULL;
	rec->cslen = (size_t)k.cslen;
	rec->text = rec->id + k.idlen + k.cslen;
	rec->len = (size_t)k.len;
	rec->line = k.line;
	rec->off = k.off;
	rec->size = k.size;
	rec->html = k.html;
	rec->csdetected = k.csdetected;
	return 1;
}

/* Read entry i's record again into *rec. */
static int
reread(struct sh_docmap *m, size_t i, struct sh_rec *rec)
{
	size_t src = SRC_OF(m->e[i].place);
	long long off = OFF_OF(m->e[i].place), size = m->e[i].size;
	int r;

	if (m->src[src].kept)
		return read_kept(m, off, size, rec);
	if ((r = look_at(m, src)) != 0)
		return r;
	if (sh_reader_seek(&m->rd, off, size, m->numbered ?
	    (unsigned long long)OFF_OF(m->e[i].key) : 0) != 0)
		return SH_EIO;
	if ((r = sh_reader_next(&m->rd, rec)) < 0 && !sh_rec_skippable(r))
		return r;
	if (r != 1 || rec->off != off || rec->size != size)
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
	 * first in the files are kept. */
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
			for (k = nfew; k > 0 && m->e[few[k - 1]].place >
			    m->e[i + 1].place; k--)
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
	struct sh_zpipe z;
	struct stat st;
	size_t n, d = strlen(m->dir);
	char msg[256];
	FILE *fp;
	int r;

	if (m->look >= 0) {
		fclose(m->rd.in.fp);
		sh_reader_free(&m->rd);
		m->look = -1;
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
	/* A compressed file is read decoded, as sh-fp -F reads it. */
	if ((r = sh_zpipe_decode(&fp, &z)) != 0)
		return r;
	sh_reader_open(&m->rd, fp, m->o, m->name, 0);
	m->look = 0;
	r = sh_reader_next(&m->rd, rec);
	if (z.kind != SH_Z_NONE && sh_zpipe_close(&z, feof(fp) &&
	    !ferror(fp), msg, sizeof(msg)) != 0)
		return SH_EZ;
	if (r != 1)
		return r < 0 && !sh_rec_skippable(r) ? r : 0;
	/* The same ID, as the reader escapes a name. */
	return rec->idlen == idlen && memcmp(rec->id, id, idlen) == 0;
}

/* The first place of the table, sorted, whose key is not below key. */
static size_t
first_of(struct sh_docmap *m, uint64_t key)
{
	size_t lo = 0, hi = m->n, mid;

	sort_table(m);
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (m->e[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first entry of the table, from lo on, whose key is key and whose
 * record has ID id (read again into *rec, unless numbered), into *at.
 * Return 1, 0 when none has, or an error of reread. */
static int
find(struct sh_docmap *m, size_t lo, uint64_t key, const char *id,
    size_t idlen, struct sh_rec *rec, size_t *at)
{
	int r;

	for (; lo < m->n && m->e[lo].key == key; lo++) {
		if ((r = reread(m, lo, rec)) != 1)
			return r;
		if (m->numbered || (rec->idlen == idlen &&
		    memcmp(rec->id, id, idlen) == 0)) {
			*at = lo;
			return 1;
		}
	}
	return 0;
}

/* The located record of name id[0..idlen) (sh_docmap_name), or NULL
 * when it is no name of one. */
static const struct loc *
located(const struct sh_docmap *m, const char *id, size_t idlen)
{
	uint32_t n = 0, d;
	size_t i;

	if (idlen != SH_DOCMAP_NAME - 1 || id[0] != '\n')
		return NULL;
	for (i = 1; i < idlen; i++) {
		if ((d = sh_hexval[(unsigned char)id[i]]) > 15)
			return NULL;
		n = n << 4 | d;
	}
	return n < m->locs->n ? &m->locs->e[n] : NULL;
}

size_t
sh_docmap_name(uint32_t n, char *name)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	name[0] = '\n';
	for (i = SH_DOCMAP_NAME - 2; i >= 1; i--, n >>= 4)
		name[i] = hex[n & 15];
	name[SH_DOCMAP_NAME - 1] = '\0';
	return SH_DOCMAP_NAME - 1;
}

/* The located record l into *rec. */
static int
read_located(struct sh_docmap *m, const struct loc *l, struct sh_rec *rec)
{
	const char *id = m->locs->ids + l->id;
	int r;

	if (l->ahead)
		r = sh_recloc_parse(&l->l, m->o, m->locs->pre + l->at, l->n,
		    rec, &m->rb);
	else
		r = sh_recloc_read(&l->l, m->o, rec, &m->rb);
	if (r != 1) {
		if (r == SH_EZ)
			memcpy(m->zmsg, m->rb.msg, sizeof(m->zmsg));
		m->failed = l->l.path;
		return r;
	}
	if (l->l.mode == SH_REC_LINE || l->l.mode == SH_REC_PARA) {
		rec->id = id;
		rec->idlen = l->idlen;
	} else if (rec->idlen != l->idlen || memcmp(rec->id, id,
	    l->idlen) != 0) {
		m->failed = l->l.path;
		return SH_ECHANGED;
	}
	return 1;
}

int
sh_docmap_get(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_rec *rec)
{
	const struct loc *l;
	uint64_t key;
	size_t at;
	int r = 0;

	if (m->dir != NULL) {
		if ((r = get_file(m, id, idlen, rec)) < 0)
			m->failed = NULL;
		return r;
	}
	if ((l = located(m, id, idlen)) != NULL)
		return read_located(m, l, rec);
	/* 0 is no numbered key; a hash may be 0. */
	key = sh_docmap_key(m, id, idlen);
	if ((key != 0 || !m->numbered) && (r = find(m, first_of(m, key),
	    key, id, idlen, rec, &at)) < 0)
		m->failed = NULL;
	return r;
}

int
sh_docmap_where(struct sh_docmap *m, const char *id, size_t idlen,
    struct sh_docplace *w)
{
	struct sh_rec rec;
	struct kept k;
	uint64_t key;
	size_t at, src;
	int r;

	if (m->dir != NULL)
		return SH_EINVAL;
	/* 0 is no numbered key; a hash may be 0. */
	if ((key = sh_docmap_key(m, id, idlen)) == 0 && m->numbered)
		return 0;
	at = first_of(m, key);
	if (at == m->n || m->e[at].key != key)
		return 0;
	/* A key of one record, or a numbered one (of the first file), is
	 * taken unread; records of one hash are read. */
	if (!m->numbered && at + 1 < m->n && m->e[at + 1].key == key &&
	    (r = find(m, at, key, id, idlen, &rec, &at)) != 1) {
		if (r < 0)
			m->failed = NULL;
		return r;
	}
	src = SRC_OF(m->e[at].place);
	w->src = src;
	w->path = m->src[src].path;
	w->kept = m->src[src].kept;
	w->off = OFF_OF(m->e[at].place);
	w->size = m->e[at].size;
	w->line = m->numbered ? (unsigned long long)OFF_OF(m->e[at].key) : 0;
	if (w->kept) {
		if (sh_pread_all(fileno(m->tmp), &k, sizeof(k),
		    (uint64_t)w->off) != 0) {
			m->failed = NULL;
			return SH_EIO;
		}
		w->off = k.off;
		w->size = k.size;
		w->line = k.line;
	}
	return 1;
}

/* Whether a and b are one record's place. */
static int
same_place(const struct sh_recloc *a, const struct sh_recloc *b)
{
	return a->mode == b->mode && a->off == b->off && a->size == b->size &&
	    strcmp(a->path, b->path) == 0;
}

int
sh_docmap_locate(struct sh_docmap *m, const char *id, size_t idlen,
    const struct sh_recloc *l, uint32_t *n)
{
	struct locs *ls = m->locs;
	struct loc *e;
	uint64_t h = id_key(id, idlen);
	uint32_t i;
	int have;

	if (m->clone || m->dir != NULL || l->mode == SH_REC_FILE)
		return SH_EINVAL;
	/* An ID of that hash: the same one at the same place, or the last
	 * of its chain (i) to link the new entry after. */
	if ((have = sh_hmap_get(&ls->byid, h, &i)) != 0)
		for (;; i = ls->e[i].next - 1) {
			e = &ls->e[i];
			if (e->idlen == idlen && memcmp(ls->ids + e->id, id,
			    idlen) == 0 && same_place(&e->l, l)) {
				*n = i;
				return 0;
			}
			if (e->next == 0)
				break;
		}
	if (ls->n >= UINT32_MAX - 1)
		return SH_ERANGE;
	if (idlen >= SIZE_MAX - ls->idsn ||
	    sh_grow(&ls->ids, &ls->idscap, ls->idsn + idlen + 1, 1) != 0 ||
	    sh_grow(&ls->e, &ls->cap, ls->n + 1, sizeof(*ls->e)) != 0)
		return SH_ENOMEM;
	if (!have && sh_hmap_put(&ls->byid, h, (uint32_t)ls->n) != 0)
		return SH_ENOMEM;
	if (have)
		ls->e[i].next = (uint32_t)ls->n + 1;
	*n = (uint32_t)ls->n;
	e = &ls->e[ls->n++];
	e->l = *l;
	e->id = ls->idsn;
	e->idlen = idlen;
	e->next = 0;
	e->ahead = 0;
	memcpy(ls->ids + ls->idsn, id, idlen);
	ls->ids[ls->idsn + idlen] = '\0';
	ls->idsn += idlen + 1;
	return 0;
}

/* A located record to read ahead: its file, and its entry. */
struct pick {
	const char *path;
	uint32_t i;
};

/* By file (sh_zranges_read puts each file's in order). */
static int
cmp_pick(const void *a, const void *b)
{
	return strcmp(((const struct pick *)a)->path,
	    ((const struct pick *)b)->path);
}

/* The picks v[0..n) of one file read by one decompressor run into
 * their entries' bytes, when the file is gzip; else left to be read
 * one by one. */
static void
ahead_file(struct locs *ls, const struct pick *v, size_t n,
    struct sh_zrange *r)
{
	unsigned char magic[SH_Z_MAGIC];
	struct loc *e;
	char msg[256];
	ssize_t k;
	size_t i;
	int fd;

	if ((fd = open(v[0].path, O_RDONLY | O_CLOEXEC)) < 0)
		return;
	if ((k = pread(fd, magic, sizeof(magic), 0)) <= 0 ||
	    sh_z_kind(magic, (size_t)k) != SH_Z_GZIP) {
		close(fd);
		return;
	}
	for (i = 0; i < n; i++) {
		e = &ls->e[v[i].i];
		r[i].coff = e->l.coff;
		r[i].skip = e->l.skip;
		r[i].buf = ls->pre + e->at;
		r[i].n = e->n;
		r[i].tag = v[i].i;
	}
	if (sh_zranges_read(fd, r, n, msg, sizeof(msg)) == 0)
		for (i = 0; i < n; i++) {
			e = &ls->e[r[i].tag];
			e->n = r[i].got;
			e->ahead = 1;
		}
	close(fd);
}

void
sh_docmap_ahead(struct sh_docmap *m)
{
	struct locs *ls = m->locs;
	struct sh_zrange *r = NULL;
	struct pick *v = NULL;
	struct loc *e;
	size_t i, j, n = 0, bytes = 0, want;

	/* Nothing located since: what was read stays. */
	if (m->clone || ls->n == ls->to)
		return;
	for (i = ls->from; i < ls->to; i++)
		ls->e[i].ahead = 0;
	ls->from = ls->to;
	ls->to = ls->n;
	if (ls->to - ls->from < 2 || (v = calloc(ls->to - ls->from,
	    sizeof(*v))) == NULL || (r = calloc(ls->to - ls->from,
	    sizeof(*r))) == NULL)
		goto out;
	/* Compressed records (those read from elsewhere than their
	 * offset), as many as SH_DOCMAP_AHEAD bytes hold. */
	for (i = ls->from; i < ls->to; i++) {
		e = &ls->e[i];
		want = sh_recloc_want(&e->l);
		if ((e->l.coff == e->l.off && e->l.skip == 0 &&
		    e->l.off != 0) ||
		    e->l.mode == SH_REC_FILE || e->l.size == 0 ||
		    want > SH_DOCMAP_AHEAD - bytes)
			continue;
		e->at = bytes;
		e->n = want;
		bytes += want;
		v[n].path = e->l.path;
		v[n].i = (uint32_t)i;
		n++;
	}
	if (n < 2 || sh_grow(&ls->pre, &ls->precap, bytes, 1) != 0)
		goto out;
	qsort(v, n, sizeof(*v), cmp_pick);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(v[j].path, v[i].path) == 0; j++)
			;
		if (j - i > 1)
			ahead_file(ls, v + i, j - i, r);
	}
out:
	free(v);
	free(r);
}

int
sh_docmap_set_zmap(struct sh_docmap *m, struct sh_zmap *z)
{
	struct src *s;

	if (m->clone || m->nsrc == 0 || !(s = &m->src[m->nsrc - 1])->kept ||
	    s->z != NULL)
		return SH_EINVAL;
	s->z = z;
	return 0;
}

const struct sh_zmap *
sh_docmap_zmap(const struct sh_docmap *m, size_t src)
{
	return src < m->nsrc ? m->src[src].z : NULL;
}

const char *
sh_docmap_failed(const struct sh_docmap *m)
{
	return m->failed;
}

const char *
sh_docmap_zmsg(const struct sh_docmap *m)
{
	return m->zmsg;
}

uint64_t
sh_docmap_key(const struct sh_docmap *m, const char *id, size_t idlen)
{
	return m->numbered ? numbered_key(m, id, idlen) : id_key(id, idlen);
}

int
sh_docmap_holds(struct sh_docmap *m, const char *id, size_t idlen)
{
	uint64_t key;
	size_t lo;

	if (m->dir != NULL || located(m, id, idlen) != NULL)
		return 1;
	/* 0 is no numbered key; a hash may be 0. */
	if ((key = sh_docmap_key(m, id, idlen)) != 0 || !m->numbered) {
		lo = first_of(m, key);
		if (lo < m->n && m->e[lo].key == key)
			return 1;
	}
	return 0;
}

/* By place alone: each record has its own. */
static int
cmp_place(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	return x->place < y->place ? -1 : x->place > y->place;
}

int
sh_docmap_keys(struct sh_docmap *m, sh_docmap_key_fn *fn, void *ctx)
{
	size_t i;
	int r = 0;

	end_scan(m);
	sort_table(m);
	for (i = 0; i < m->n && r == 0; i++)
		if (i == 0 || m->e[i].key != m->e[i - 1].key)
			r = fn(ctx, m->e[i].key, SRC_OF(m->e[i].place));
	return r;
}

int
sh_docmap_walk(struct sh_docmap *m, sh_docmap_walk_fn *fn, void *ctx)
{
	struct kept k;
	long long off, size;
	size_t i, src;
	int r = 0;

	end_scan(m);
	if (m->n == 0)
		return 0;
	qsort(m->e, m->n, sizeof(m->e[0]), cmp_place);
	for (i = 0; i < m->n && r == 0; i++) {
		src = SRC_OF(m->e[i].place);
		off = OFF_OF(m->e[i].place);
		size = m->e[i].size;
		/* A stream's record: its place in the stream is in its head. */
		if (m->src[src].kept) {
			if (sh_pread_all(fileno(m->tmp), &k, sizeof(k),
			    (uint64_t)off) != 0) {
				r = SH_EIO;
				break;
			}
			off = k.off;
			size = k.size;
		}
		r = fn(ctx, src, m->e[i].key, off, size);
	}
	m->sorted = 0;
	sort_table(m);
	return r;
}

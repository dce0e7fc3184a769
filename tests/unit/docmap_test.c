/*
 * The offset table: in every framing, each record read back by its ID,
 * through the map or a clone of it, is the record a sequential read
 * returns; the first of duplicate IDs wins; a missing ID, a pipe, the
 * file framing, a file changed under the map and a path that names
 * another file when cloned are told apart.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/errors.h"
#include "base/zmap.h"
#include "text/docmap.h"
#include "text/recloc.h"
#include "text/record.h"
#include "rng.h"
#include "tap.h"

static char path[] = "/tmp/docmap_test.XXXXXX";

static void
put(const char *s, size_t n)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fwrite(s, 1, n, f);
		fclose(f);
	}
}

/*
 * Map the file in mode (read where it lies, or as a stream whose
 * records the map keeps), then look every record of a sequential read
 * up by its ID (records with an earlier duplicate ID excepted), in turn
 * through the map and a clone of it: how many came back different, or
 * -1.
 */
static int
roundtrip(int mode, int stream, size_t *nrec)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_docmap *m, *c;
	struct sh_reader rd;
	struct sh_rec rec, got;
	char *id, *text, *seen = NULL;
	size_t seenlen = 0, k = 0;
	FILE *f, *s = NULL;
	int r, bad = 0;

	o.mode = mode;
	if (!stream && sh_docmap_open(&m, path, &o) != 0)
		return -1;
	if (stream && (sh_docmap_new(&m, &o, 0, NULL) != 0 ||
	    (s = fopen(path, "r")) == NULL ||
	    sh_docmap_add_stream(m, s, path) != 0))
		return -1;
	while ((r = sh_docmap_scan(m, &rec)) != 0)
		if (r < 0 && !sh_rec_skippable(r))
			return -1;
	if (s != NULL)
		fclose(s);
	*nrec = sh_docmap_count(m);
	if (sh_docmap_clone(m, &c) != 0 || (f = fopen(path, "r")) == NULL)
		return -1;
	sh_reader_open(&rd, f, &o, path, 0);
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r < 0)
			continue;
		id = malloc(rec.idlen + 3);
		text = malloc(rec.len + 1);
		memcpy(id + 1, rec.id, rec.idlen);
		id[0] = id[rec.idlen + 1] = '\n';
		id[rec.idlen + 2] = '\0';
		memcpy(text, rec.text, rec.len);
		if (seen == NULL || strstr(seen, id) == NULL) {
			if (sh_docmap_get(k++ % 2 ? c : m, id + 1, rec.idlen,
			    &got) != 1 ||
			    got.len != rec.len || memcmp(got.text, text,
			    rec.len) != 0 || got.idlen != rec.idlen ||
			    memcmp(got.id, id + 1, rec.idlen) != 0)
				bad++;
			seen = realloc(seen, seenlen + rec.idlen + 3);
			memcpy(seen + seenlen, id, rec.idlen + 3);
			seenlen += rec.idlen + 1;
		}
		free(id);
		free(text);
	}
	sh_reader_free(&rd);
	fclose(f);
	free(seen);
	sh_docmap_free(c);
	sh_docmap_free(m);
	return bad;
}

/* A record of a sequential read, as sh_docmap_where should place it. */
struct want {
	char *id;
	size_t idlen;
	long long off, size;
	unsigned long long line;
};

/*
 * Map the file in mode (regular, or as a stream), then ask
 * sh_docmap_where for every record of a sequential read: the first of
 * each ID is where the reader found it (its line too, but for a regular
 * file in a framing not numbered: 0), a later one of that ID gives the
 * first's place; an ID of no record is none.  How many came out
 * otherwise, or -1.
 */
static int
places(int mode, int stream)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_docmap *m;
	struct sh_docplace w;
	struct sh_reader rd;
	struct sh_rec rec;
	struct want *v = NULL;
	size_t nv = 0, i;
	FILE *f, *s = NULL;
	int r, bad = 0, numbered = mode == SH_REC_LINE || mode == SH_REC_PARA;

	o.mode = mode;
	if (!stream && sh_docmap_open(&m, path, &o) != 0)
		return -1;
	if (stream && (sh_docmap_new(&m, &o, 0, NULL) != 0 ||
	    (s = fopen(path, "r")) == NULL ||
	    sh_docmap_add_stream(m, s, path) != 0))
		return -1;
	while ((r = sh_docmap_scan(m, &rec)) != 0)
		if (r < 0 && !sh_rec_skippable(r))
			return -1;
	if (s != NULL)
		fclose(s);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	sh_reader_open(&rd, f, &o, path, 0);
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r < 0)
			continue;
		for (i = 0; i < nv && (v[i].idlen != rec.idlen ||
		    memcmp(v[i].id, rec.id, rec.idlen) != 0); i++)
			;
		if (i == nv) {
			v = realloc(v, (nv + 1) * sizeof(*v));
			v[nv].id = malloc(rec.idlen + 1);
			memcpy(v[nv].id, rec.id, rec.idlen);
			v[nv].idlen = rec.idlen;
			v[nv].off = rec.off;
			v[nv].size = rec.size;
			v[nv].line = numbered || stream ? rec.line : 0;
			nv++;
		}
		memset(&w, 0xff, sizeof(w));
		bad += sh_docmap_where(m, rec.id, rec.idlen, &w) != 1 ||
		    w.src != 0 || w.path == NULL || strcmp(w.path, path) != 0 ||
		    w.kept != stream || w.off != v[i].off ||
		    w.size != v[i].size || w.line != v[i].line;
	}
	bad += sh_docmap_where(m, "no such ID", 10, &w) != 0;
	sh_reader_free(&rd);
	fclose(f);
	for (i = 0; i < nv; i++)
		free(v[i].id);
	free(v);
	sh_docmap_free(m);
	return bad;
}

static void
put2(const char *name, const char *s, size_t n)
{
	FILE *f = fopen(name, "w");

	if (f) {
		fwrite(s, 1, n, f);
		fclose(f);
	}
}

/* Located records: file b's, in mode, and its name and its .gz; the
 * record options of the map that located() leaves to its caller; the
 * IDs of b's records in order and the numbers they were located under,
 * for lname() to give a record's name. */
static char bpath[sizeof(path) + 8], gzpath[sizeof(path) + 8];
static struct sh_recopt lopt;
#define BMAX 1024
static char *bid[BMAX];
static uint32_t bnum[BMAX];
static size_t nb;

/* The name of b's first record of ID id[0..len), "" when none. */
static const char *
lname(const char *id, size_t len)
{
	static char name[SH_DOCMAP_NAME];
	size_t k;

	for (k = 0; k < nb; k++)
		if (bid[k] != NULL && strlen(bid[k]) == len &&
		    memcmp(bid[k], id, len) == 0) {
			sh_docmap_name(bnum[k], name);
			return name;
		}
	return "";
}

/*
 * The locations of b's records (sh_docmap_where on a map over b; for a
 * compressed file gz, of gz's decoded bytes, sh_zmap_find of the
 * offset) added to m, in two halves, the first before m's scans and
 * the second after; -1 on an error.
 */
static int
locate_b(struct sh_docmap *m, const struct sh_recopt *o, int prefix,
    const char *gz, int half)
{
	struct sh_docmap *b;
	struct sh_docplace w;
	struct sh_recloc l;
	struct sh_reader rd;
	struct sh_rec rec;
	struct sh_zmap *zm = NULL;
	char msg[256];
	FILE *f;
	int fd, r, bad = 0;
	size_t k = 0;

	if (sh_docmap_new(&b, o, prefix, NULL) != 0 ||
	    sh_docmap_add(b, bpath) != 0)
		return -1;
	while ((r = sh_docmap_scan(b, &rec)) != 0)
		if (r < 0 && !sh_rec_skippable(r))
			return -1;
	if (gz != NULL) {
		if ((fd = open(gz, O_RDONLY)) < 0)
			return -1;
		r = sh_zmap_build(&zm, fd, msg, sizeof(msg));
		close(fd);
		if (r != 0)
			return -1;
	}
	if ((f = fopen(bpath, "r")) == NULL)
		return -1;
	sh_reader_open(&rd, f, o, bpath, prefix);
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r < 0 || (int)(k++ % 2) != half)
			continue;
		if (sh_docmap_where(b, rec.id, rec.idlen, &w) != 1) {
			bad++;
			continue;
		}
		memset(&l, 0, sizeof(l));
		l.path = gz != NULL ? gz : bpath;
		l.mode = o->mode;
		l.off = l.coff = (unsigned long long)w.off;
		l.size = (unsigned long long)w.size;
		l.line = w.line;
		if (zm != NULL)
			sh_zmap_find(zm, l.off, &l.coff, &l.skip);
		if (k - 1 >= BMAX || sh_docmap_locate(m, rec.id, rec.idlen,
		    &l, &bnum[k - 1]) != 0) {
			bad++;
			continue;
		}
		free(bid[k - 1]);
		bid[k - 1] = strndup(rec.id, rec.idlen);
		nb = nb > k ? nb : k;
	}
	sh_reader_free(&rd);
	fclose(f);
	sh_zmap_free(zm);
	sh_docmap_free(b);
	return bad ? -1 : 0;
}

/*
 * A map over file path (A) and the located records of b (through gz,
 * when not NULL): every ID of a sequential read of b, through the map
 * and a clone, gives by its name (lname) b's first record of that ID
 * (text, ID, off and size), and by itself A's record where A has the
 * ID, else none; holds() each.  How many came out otherwise, or -1.  The
 * map into *mp, when not NULL, for the caller to go on with.
 */
static int
located(int mode, int prefix, const char *gz, struct sh_docmap **mp)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_docmap *m, *c, *c2, *a;
	struct sh_reader rd;
	struct sh_rec rec, got, ina;
	const char *name;
	char *seen = NULL, *id, *text;
	size_t seenlen = 0, k = 0;
	FILE *f;
	int r, bad = 0, inA;

	o.mode = mode;
	lopt = o;
	if (sh_docmap_new(&m, &lopt, prefix, NULL) != 0 ||
	    locate_b(m, &o, prefix, gz, 0) != 0 ||
	    sh_docmap_add(m, path) != 0)
		return -1;
	while ((r = sh_docmap_scan(m, &rec)) != 0)
		if (r < 0 && !sh_rec_skippable(r))
			return -1;
	if (locate_b(m, &o, prefix, gz, 1) != 0 ||
	    sh_docmap_new(&a, &o, prefix, NULL) != 0 ||
	    sh_docmap_add(a, path) != 0)
		return -1;
	while ((r = sh_docmap_scan(a, &rec)) != 0)
		if (r < 0 && !sh_rec_skippable(r))
			return -1;
	if (sh_docmap_clone(m, &c) != 0 || (f = fopen(bpath, "r")) == NULL)
		return -1;
	sh_reader_open(&rd, f, &o, bpath, prefix);
	while ((r = sh_reader_next(&rd, &rec)) != 0) {
		if (r < 0)
			continue;
		id = malloc(rec.idlen + 3);
		memcpy(id + 1, rec.id, rec.idlen);
		id[0] = id[rec.idlen + 1] = '\n';
		id[rec.idlen + 2] = '\0';
		if (seen != NULL && strstr(seen, id) != NULL) {
			free(id);
			continue;
		}
		seen = realloc(seen, seenlen + rec.idlen + 3);
		memcpy(seen + seenlen, id, rec.idlen + 3);
		seenlen += rec.idlen + 1;
		/* By its name, b's record; by its ID, A's or none. */
		text = malloc(rec.len + 1);
		memcpy(text, rec.text, rec.len);
		c2 = k++ % 2 ? c : m;
		name = lname(id + 1, rec.idlen);
		bad += sh_docmap_holds(c2, name, strlen(name)) != 1;
		if (sh_docmap_get(c2, name, strlen(name), &got) != 1 ||
		    got.len != rec.len || memcmp(got.text, text, rec.len) != 0 ||
		    got.idlen != rec.idlen ||
		    memcmp(got.id, id + 1, rec.idlen) != 0 ||
		    got.off != rec.off || got.size != rec.size)
			bad++;
		free(text);
		if ((inA = sh_docmap_get(a, id + 1, rec.idlen, &ina)) < 0)
			bad++;
		text = inA == 1 ? malloc(ina.len + 1) : NULL;
		if (text != NULL)
			memcpy(text, ina.text, ina.len);
		bad += sh_docmap_holds(c2, id + 1, rec.idlen) != inA;
		r = sh_docmap_get(c2, id + 1, rec.idlen, &got);
		if (r != inA || (r == 1 && (got.len != ina.len ||
		    memcmp(got.text, text, got.len) != 0)))
			bad++;
		free(text);
		free(id);
	}
	bad += sh_docmap_get(m, "no such ID", 10, &got) != 0 ||
	    sh_docmap_holds(c, "no such ID", 10) != 0 ||
	    sh_docmap_failed(m) != NULL || *sh_docmap_zmsg(c) != '\0';
	sh_reader_free(&rd);
	fclose(f);
	free(seen);
	sh_docmap_free(c);
	sh_docmap_free(a);
	if (mp != NULL)
		*mp = m;
	else
		sh_docmap_free(m);
	return bad;
}


/* sh_docmap_keys: the keys and files seen, in order. */
struct seen {
	uint64_t key[8];
	size_t src[8], n;
};

static int
saw(void *ctx, uint64_t key, size_t src)
{
	struct seen *v = ctx;

	if (v->n == 8)
		return 1;
	v->key[v->n] = key;
	v->src[v->n++] = src;
	return 0;
}

/* The file that sh_docmap_keys gives for ID id in v, or 9. */
static size_t
src_of(const struct seen *v, const struct sh_docmap *m, const char *id)
{
	size_t i;

	for (i = 0; i < v->n; i++)
		if (v->key[i] == sh_docmap_key(m, id, strlen(id)))
			return v->src[i];
	return 9;
}

static const char *
word(void)
{
	static const char *w[] = {
		"the", "fox", "長城", "dog", "x", "tab\there", "end\r"
	};

	return w[next() % 7];
}

/* The JSON Lines of b: IDs prefix%d (some twice), and one of A's. */
static size_t
jsonl_b(char *buf, char idc)
{
	size_t n = 0, i;

	for (i = 0; i < 600; i++)
		n += (size_t)sprintf(buf + n, "{\"id\": \"%c%zu\", \"text\": "
		    "\"%s %s \\u9577%zu\"}\n", idc, next() % 500, word(),
		    word(), i);
	n += (size_t)sprintf(buf + n, "{\"id\": \"a7\", \"text\": "
	    "\"b's a7\"}\n");
	return n;
}

int
main(void)
{
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_docmap *m, *c;
	struct sh_rec rec;
	struct seen sv;
	size_t n, i, j;
	char *buf, other[sizeof(path) + 4], ids[64];
	int fd;

	if ((fd = mkstemp(path)) < 0)
		return 1;
	close(fd);

	put("a\tfirst\nb\tsecond\r\nno tab\na\tdup\n\tempty id\nc\tlast", 47);
	o.mode = SH_REC_TAB;
	ok(sh_docmap_open(&m, path, &o) == 0, "open a regular file");
	ok(sh_docmap_scan(m, &rec) == 1 && rec.off == 0 && rec.size == 8 &&
	    sh_docmap_scan(m, &rec) == 1 && rec.off == 8 && rec.size == 10 &&
	    sh_docmap_scan(m, &rec) == SH_ETAB && rec.line == 3,
	    "scan: byte ranges, a bad record reported");
	while (sh_docmap_scan(m, &rec) != 0)
		;
	ok(sh_docmap_count(m) == 5, "five records kept");
	ok(sh_docmap_get(m, "a", 1, &rec) == 1 && rec.len == 5 &&
	    memcmp(rec.text, "first", 5) == 0, "the first of two IDs wins");
	ok(sh_docmap_get(m, "b", 1, &rec) == 1 && rec.len == 6 &&
	    memcmp(rec.text, "second", 6) == 0, "CRLF dropped as when read");
	ok(sh_docmap_get(m, "c", 1, &rec) == 1 && rec.len == 4 &&
	    sh_docmap_get(m, "", 0, &rec) == 1 && rec.len == 8,
	    "a last line without newline; an empty ID");
	ok(sh_docmap_get(m, "d", 1, &rec) == 0 &&
	    sh_docmap_get(m, "a\tfirst", 7, &rec) == 0, "missing IDs: 0");
	sh_docmap_free(m);

	/* Far from the end, so that no buffer holds the old bytes. */
	buf = malloc(1 << 20);
	n = (size_t)sprintf(buf, "a\tfirst\n");
	for (i = 0; i < 5000; i++)
		n += (size_t)sprintf(buf + n, "f%zu\tfiller\n", i);
	put(buf, n);
	ok(sh_docmap_open(&m, path, &o) == 0, "reopen");
	while (sh_docmap_scan(m, &rec) != 0)
		;
	buf[2] = 'F';
	buf[3] = 'F';
	buf[4] = '\n';
	put(buf, n);
	ok(sh_docmap_get(m, "a", 1, &rec) == SH_ECHANGED,
	    "a record that no longer reads the same: changed");
	sh_docmap_free(m);

	/* A clone opens the path again: another file there is refused. */
	snprintf(other, sizeof(other), "%s.new", path);
	ok(sh_docmap_open(&m, path, &o) == 0, "open to clone");
	while (sh_docmap_scan(m, &rec) != 0)
		;
	put(buf, n);
	ok(sh_docmap_clone(m, &c) == 0 && sh_docmap_get(c, "f7", 2, &rec) ==
	    1 && rec.len == 6 && sh_docmap_get(m, "f7", 2, &rec) == 1,
	    "a clone reads the same file as its map");
	sh_docmap_free(c);
	rename(path, other);
	put(buf, n);
	ok(sh_docmap_clone(m, &c) == 0 && sh_docmap_get(c, "f7", 2, &rec) ==
	    SH_ECHANGED && sh_docmap_get(m, "f7", 2, &rec) == 1,
	    "a clone of a path that names another file: changed");
	sh_docmap_free(c);
	sh_docmap_free(m);

	/* Two files: the first of an ID in either wins, counted. */
	put("a\tone\nb\ttwo\n", 12);
	put2(other, "c\tthree\na\tagain\n", 16);
	ok(sh_docmap_new(&m, &o, 0, NULL) == 0 && sh_docmap_add(m, other) ==
	    0, "a first file");
	while (sh_docmap_scan(m, &rec) != 0)
		;
	ok(sh_docmap_add(m, path) == 0, "a second file");
	while (sh_docmap_scan(m, &rec) != 0)
		;
	ok(sh_docmap_count(m) == 4 && sh_docmap_dups(m, ids, sizeof(ids)) ==
	    1 && strcmp(ids, "\"a\"") == 0, "a duplicate across files");
	ok(sh_docmap_get(m, "a", 1, &rec) == 1 && rec.len == 5 &&
	    sh_docmap_get(m, "b", 1, &rec) == 1 && rec.len == 3 &&
	    sh_docmap_get(m, "c", 1, &rec) == 1 && rec.len == 5,
	    "each ID read from its file, the first file's a");
	memset(&sv, 0, sizeof(sv));
	ok(sh_docmap_keys(m, saw, &sv) == 0 && sv.n == 3 &&
	    sv.key[0] < sv.key[1] && sv.key[1] < sv.key[2] &&
	    src_of(&sv, m, "a") == 0 && src_of(&sv, m, "b") == 1 &&
	    src_of(&sv, m, "c") == 0, "keys: each once, in order, with the "
	    "file of its first record");
	sh_docmap_free(m);
	remove(other);
	remove(other);

	o.skip = 1;
	put("x\n\ty\n", 5);
	ok(sh_docmap_open(&m, path, &o) == 0 && sh_docmap_scan(m, &rec) == 1 &&
	    sh_docmap_scan(m, &rec) == 0 && sh_docmap_skipped(m) == 1,
	    "skip: bad records counted, not returned");
	sh_docmap_free(m);
	o.skip = 0;

	o.mode = SH_REC_FILE;
	ok(sh_docmap_open(&m, path, &o) == SH_EINVAL, "not the file framing");
	o.mode = SH_REC_TAB;
	ok(sh_docmap_open(&m, "/dev/null", &o) == SH_ENOTREG,
	    "not a device");
	ok(sh_docmap_open(&m, "/nonexistent/x", &o) == SH_EIO,
	    "a missing file");

	/* A random corpus in every framing. */
	for (i = n = 0; i < 3000; i++) {
		n += (size_t)sprintf(buf + n, "d%zu\t", next() % 2000);
		for (j = next() % 8; j > 0; j--)
			n += (size_t)sprintf(buf + n, "%s ", word());
		buf[n++] = '\n';
	}
	put(buf, n);
	ok(roundtrip(SH_REC_TAB, 0, &n) == 0 && n == 3000,
	    "tab: every ID reads back its first record");
	ok(places(SH_REC_TAB, 0) == 0,
	    "tab: where() places each record");
	ok(roundtrip(SH_REC_TAB, 1, &n) == 0 && n == 3000,
	    "tab: every ID reads back its first record, kept from a stream");
	ok(places(SH_REC_TAB, 1) == 0,
	    "tab: where() places each record, kept from a stream");
	ok(roundtrip(SH_REC_LINE, 0, &n) == 0 && n == 3000,
	    "line: every line number reads back its line");
	ok(places(SH_REC_LINE, 0) == 0,
	    "line: where() places each record");
	ok(roundtrip(SH_REC_LINE, 1, &n) == 0 && n == 3000,
	    "line: every line number reads back its line, kept from a stream");
	ok(places(SH_REC_LINE, 1) == 0,
	    "line: where() places each record, kept from a stream");
	for (i = n = 0; i < 2000; i++) {
		if (next() % 3 == 0)
			n += (size_t)sprintf(buf + n, " \t\n");
		n += (size_t)sprintf(buf + n, "%s %s\n", word(), word());
		if (next() % 2)
			n += (size_t)sprintf(buf + n, "%s\n", word());
		buf[n++] = '\n';
	}
	put(buf, n);
	ok(roundtrip(SH_REC_PARA, 0, &n) == 0 && n > 1000,
	    "para: every paragraph reads back by its line number");
	ok(places(SH_REC_PARA, 0) == 0,
	    "para: where() places each record");
	ok(roundtrip(SH_REC_PARA, 1, &n) == 0 && n > 1000,
	    "para: every paragraph reads back by its line number, kept from a stream");
	ok(places(SH_REC_PARA, 1) == 0,
	    "para: where() places each record, kept from a stream");
	for (i = n = 0; i < 2000; i++)
		n += (size_t)sprintf(buf + n, "{\"id\": \"j%zu\", \"text\": "
		    "\"%s\\n\\u9577%zu\"}\n", next() % 1500, i % 2 ? "fox" :
		    "長城", i);
	n += (size_t)sprintf(buf + n, "{\"id\": 7}\n");
	put(buf, n);
	ok(roundtrip(SH_REC_JSON, 0, &n) == 0 && n == 2000,
	    "jsonl: every ID reads back its first record");
	ok(places(SH_REC_JSON, 0) == 0,
	    "jsonl: where() places each record");
	ok(roundtrip(SH_REC_JSON, 1, &n) == 0 && n == 2000,
	    "jsonl: every ID reads back its first record, kept from a stream");
	ok(places(SH_REC_JSON, 1) == 0,
	    "jsonl: where() places each record, kept from a stream");
	for (i = n = 0; i < 1000; i++) {
		n += (size_t)sprintf(buf + n, "n%zu\t%s\n%s", next() % 800,
		    word(), word());
		buf[n++] = '\0';
	}
	put(buf, n);
	ok(roundtrip(SH_REC_NUL, 0, &n) == 0 && n == 1000,
	    "nul: records holding newlines");
	ok(places(SH_REC_NUL, 0) == 0,
	    "nul: where() places each record");
	ok(roundtrip(SH_REC_NUL, 1, &n) == 0 && n == 1000,
	    "nul: records holding newlines, kept from a stream");
	ok(places(SH_REC_NUL, 1) == 0,
	    "nul: where() places each record, kept from a stream");
	for (i = n = 0; i < 500; i++)
		n += (size_t)sprintf(buf + n, "WARC/1.0\r\nWARC-Type: %s\r\n"
		    "WARC-Target-URI: u%zu\r\nContent-Length: 9\r\n\r\n"
		    "a b\nc d\ne\r\n\r\n", i % 4 ? "conversion" : "request",
		    next() % 400);
	put(buf, n);
	ok(roundtrip(SH_REC_WARC, 0, &n) == 0 && n > 300 && n < 500,
	    "warc: records after records of other types");
	ok(places(SH_REC_WARC, 0) == 0,
	    "warc: where() places each record");
	ok(roundtrip(SH_REC_WARC, 1, &n) == 0 && n > 300 && n < 500,
	    "warc: records after records of other types, kept from a stream");
	ok(places(SH_REC_WARC, 1) == 0,
	    "warc: where() places each record, kept from a stream");
	free(buf);

	/* Numbered lines of 300 files, "NAME:N": each from its file,
	 * through the map and a clone; a name of no file, no line. */
	{
		char names[300][sizeof(path) + 16], id[sizeof(path) + 32],
		    line[64];
		int bad = 0, k, l;

		o.mode = SH_REC_LINE;
		if (sh_docmap_new(&m, &o, 1, NULL) != 0)
			bad++;
		for (k = 0; k < 300 && bad == 0; k++) {
			snprintf(names[k], sizeof(names[k]), "%s.%d", path, k);
			put2(names[k], line, (size_t)sprintf(line,
			    "file %d one\nfile %d two\n", k, k));
			bad += sh_docmap_add(m, names[k]) != 0;
			while ((l = sh_docmap_scan(m, &rec)) == 1)
				;
		}
		bad += bad != 0 || sh_docmap_clone(m, &c) != 0;
		for (k = 0; k < 300 && bad == 0; k++)
			for (l = 1; l <= 2; l++) {
				n = (size_t)snprintf(id, sizeof(id), "%s:%d",
				    names[k], l);
				j = (size_t)sprintf(line, "file %d %s", k,
				    l == 1 ? "one" : "two");
				bad += sh_docmap_get(k % 2 ? c : m, id, n,
				    &rec) != 1 || rec.len != j ||
				    memcmp(rec.text, line, j) != 0;
			}
		n = (size_t)snprintf(id, sizeof(id), "%s.x:1", path);
		bad += bad != 0 || sh_docmap_get(m, id, n, &rec) != 0;
		ok(bad == 0, "line, 300 files: NAME:N from file NAME, through "
		    "the map and a clone; another name is none");
		sh_docmap_free(c);
		sh_docmap_free(m);
		for (k = 0; k < 300; k++)
			remove(names[k]);
	}

	/* Located records: b's read through a map over A. */
	{
		char cmd[300], id[16], nm[SH_DOCMAP_NAME], nm2[SH_DOCMAP_NAME];
		struct sh_docplace w;
		struct sh_recloc l;
		uint32_t u, v;
		int r;

		snprintf(bpath, sizeof(bpath), "%s.b", path);
		snprintf(gzpath, sizeof(gzpath), "%s.b.gz", path);
		buf = malloc(1 << 20);
		n = (size_t)sprintf(buf, "{\"id\": \"a7\", \"text\": "
		    "\"A's a7 first\"}\n");
		for (i = 0; i < 300; i++)
			n += (size_t)sprintf(buf + n, "{\"id\": \"a%zu\", "
			    "\"text\": \"A's %s %zu\"}\n", next() % 200,
			    word(), i);
		put(buf, n);
		n = jsonl_b(buf, 'b');
		put2(bpath, buf, n);
		ok(located(SH_REC_JSON, 0, NULL, NULL) == 0, "jsonl: b's "
		    "located records read back as b's, A's ID as A's, "
		    "through the map and a clone");
		snprintf(cmd, sizeof(cmd), "gzip -c '%s' >'%s'", bpath,
		    gzpath);
		ok(system(cmd) == 0 && located(SH_REC_JSON, 0, gzpath,
		    NULL) == 0, "jsonl: b's located records read back "
		    "through gzip");
		/* Two members, the cut inside a record. */
		snprintf(cmd, sizeof(cmd), "head -c 5000 '%s' | gzip -c >'%s' "
		    "&& tail -c +5001 '%s' | gzip -c >>'%s'", bpath, gzpath,
		    bpath, gzpath);
		ok(system(cmd) == 0 && located(SH_REC_JSON, 0, gzpath,
		    NULL) == 0, "jsonl: b's located records read back "
		    "through gzip, two members");

		/* A gzip file corrupt inside: the decompressor's message. */
		snprintf(cmd, sizeof(cmd), "gzip -c '%s' >'%s'", bpath,
		    gzpath);
		r = system(cmd) == 0 ? located(SH_REC_JSON, 0, gzpath, &m) : -1;
		if ((fd = open(gzpath, O_WRONLY)) < 0 ||
		    pwrite(fd, "\xff\xff\xff\xff\xff\xff\xff\xff", 8,
		    200) != 8 || close(fd) != 0)
			r = -1;
		if (sscanf(buf, "{\"id\": \"%15[^\"]", id) != 1)
			r = -1;
		strcpy(nm, lname(id, strlen(id)));
		ok(r == 0 && sh_docmap_get(m, nm, strlen(nm), &rec) == SH_EZ &&
		    *sh_docmap_zmsg(m) != '\0' && sh_docmap_failed(m) != NULL &&
		    strcmp(sh_docmap_failed(m), gzpath) == 0,
		    "a corrupt gzip file: SH_EZ, its message and its name");
		sh_docmap_free(m);

		/* b rewritten, the same bytes but other IDs: changed. */
		r = located(SH_REC_JSON, 0, NULL, &m);
		strcpy(nm, lname(id, strlen(id)));
		for (i = 0; i + 8 < n; i++)
			if (memcmp(buf + i, "\"id\": \"b", 8) == 0)
				buf[i + 7] = 'c';
		put2(bpath, buf, n);
		ok(r == 0 && sh_docmap_get(m, nm, strlen(nm), &rec) ==
		    SH_ECHANGED && sh_docmap_failed(m) != NULL &&
		    strcmp(sh_docmap_failed(m), bpath) == 0 &&
		    sh_docmap_get(m, "a7", 2, &rec) == 1 && rec.len == 12 &&
		    memcmp(rec.text, "A's a7 first", 12) == 0 &&
		    sh_docmap_failed(m) != NULL, "a located file rewritten with "
		    "other IDs: changed, and named");
		/* A failure of a scanned file's record names none. */
		ok(sh_docmap_clone(m, &c) == 0 && sh_docmap_get(c, nm,
		    strlen(nm), &rec) == SH_ECHANGED &&
		    sh_docmap_failed(c) != NULL && (put("", 0), 1) &&
		    sh_docmap_get(c, "a7", 2, &rec) == SH_ECHANGED &&
		    sh_docmap_failed(c) == NULL, "a scanned file changed: "
		    "no located file failed");
		sh_docmap_free(c);
		remove(bpath);
		ok(sh_docmap_clone(m, &c) == 0 && sh_docmap_get(c, nm,
		    strlen(nm), &rec) == SH_EIO && sh_docmap_failed(c) != NULL &&
		    strcmp(sh_docmap_failed(c), bpath) == 0,
		    "a located file gone: SH_EIO, and named");
		sh_docmap_free(c);
		/* Other locations, in A's emptied file: a read of them is
		 * SH_ECHANGED. */
		memset(&l, 0, sizeof(l));
		l.path = path;
		l.mode = SH_REC_JSON;
		l.size = 1;
		ok(sh_docmap_clone(m, &c) == 0 && sh_docmap_locate(c, "z", 1,
		    &l, &u) == SH_EINVAL &&
		    sh_docmap_locate(m, "a7", 2, &l, &u) == 0 &&
		    sh_docmap_name(u, nm2) == SH_DOCMAP_NAME - 1 &&
		    sh_docmap_get(c, nm2, strlen(nm2), &rec) == SH_ECHANGED &&
		    sh_docmap_failed(c) == path &&
		    sh_docmap_get(c, "a7", 2, &rec) == SH_ECHANGED &&
		    sh_docmap_failed(c) == NULL &&
		    sh_docmap_locate(m, id, strlen(id), &l, &u) == 0 &&
		    sh_docmap_locate(m, id, strlen(id), &l, &v) == 0 && u == v &&
		    sh_docmap_name(u, nm2) > 0 && strcmp(nm, nm2) != 0 &&
		    sh_docmap_get(c, nm, strlen(nm), &rec) == SH_EIO &&
		    sh_docmap_get(c, nm2, strlen(nm2), &rec) == SH_ECHANGED &&
		    sh_docmap_holds(c, nm2, strlen(nm2)) == 1 &&
		    sh_docmap_get(c, "\nffffffff", 9, &rec) == 0 &&
		    sh_docmap_holds(c, "\nffffffff", 9) == 0,
		    "locate: not on a clone; a located record is read by its "
		    "name, never for a scanned one of its ID; an ID located "
		    "at another place is another record, at the same place "
		    "the same; a clone sees what is located after it");
		sh_docmap_free(c);
		sh_docmap_free(m);

		/* Numbered lines: b's by "NAME:N", or by N when A has none. */
		for (i = n = 0; i < 300; i++)
			n += (size_t)sprintf(buf + n, "A's line %zu %s\n", i,
			    word());
		put(buf, n);
		for (i = n = 0; i < 700; i++)
			n += (size_t)sprintf(buf + n, "b's line %zu %s\n", i,
			    word());
		put2(bpath, buf, n);
		ok(located(SH_REC_LINE, 1, NULL, NULL) == 0, "line, NAME:N: "
		    "b's located lines read back with their IDs");
		ok(located(SH_REC_LINE, 0, NULL, NULL) == 0, "line: A's lines "
		    "first, b's after them located");
		snprintf(cmd, sizeof(cmd), "gzip -c '%s' >'%s'", bpath,
		    gzpath);
		ok(system(cmd) == 0 && located(SH_REC_LINE, 1, gzpath,
		    NULL) == 0, "line, NAME:N: through gzip");

		o.mode = SH_REC_FILE;
		ok(sh_docmap_new(&m, &o, 0, NULL) == 0 &&
		    sh_docmap_add(m, "/") == 0 &&
		    sh_docmap_where(m, "x", 1, &w) == SH_EINVAL &&
		    sh_docmap_locate(m, "x", 1, &l, &u) == SH_EINVAL,
		    "the file framing: no where, no location");
		sh_docmap_free(m);
		remove(gzpath);
		remove(bpath);
		free(buf);
		for (i = 0; i < nb; i++)
			free(bid[i]);
	}

	unlink(path);
	return tap_done();
}

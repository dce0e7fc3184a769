/*
 * Records read back by their locations: in a crawl of wget's, and in a
 * WARC file and a TAB and a paragraph file made as wget makes a .warc.gz (records compressed a
 * few at a time by gzip(1), the members end to end), and in the same
 * files plain, every record read by its location (sh_zmap_find of its
 * offset) is the record sh_docmap_get gives for its ID, with each of
 * the record options that change a text (HTML reduced or not, main
 * text, a charset); a location that is wrong or whose file changed is
 * SH_ECHANGED, a missing file SH_EIO.
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

static char dir[] = "/tmp/recloc_test.XXXXXX";
static char plain[100], gz[100], part[100], cmd[400];

static const char *const charsets[] = { "", "utf-8", "iso-8859-1",
	"windows-1252" };

/* One record of mode i into f: a WARC response (HTML in a charset, a
 * page's main text among boilerplate) or request, a TAB line, or a
 * paragraph. */
static void
record(FILE *f, int mode, int i)
{
	char body[4000], head[300];
	const char *cs = charsets[next() % 4];
	size_t n = 0, j, words = 5 + (size_t)(next() % 120);

	if (mode == SH_REC_TAB) {
		fprintf(f, "doc%d\t", i);
		for (j = 0; j < words; j++)
			fprintf(f, "w%u ", (unsigned)(next() % 50));
		fprintf(f, "\n");
		return;
	}
	if (mode == SH_REC_PARA) {
		for (j = 0; j < words; j++)
			fprintf(f, "p%u%s", (unsigned)(next() % 50),
			    j % 9 == 8 ? "\n" : " ");
		fprintf(f, "\n\n");
		return;
	}
	n += (size_t)snprintf(body + n, sizeof(body) - n, "<html><head>"
	    "<title>Page %d</title></head><body><nav>Home About Blog "
	    "Contact</nav><article>", i);
	for (j = 0; j < words && n < sizeof(body) - 100; j++)
		n += (size_t)snprintf(body + n, sizeof(body) - n, "%s%s word%u "
		    "caf\xe9", j % 12 == 0 ? "<p>" : "", j % 12 == 11 ? "</p>" :
		    "", (unsigned)(next() % 80));
	n += (size_t)snprintf(body + n, sizeof(body) - n, "</article>"
	    "<footer>Copyright</footer></body></html>");
	snprintf(head, sizeof(head), "HTTP/1.1 200 OK\r\nContent-Type: "
	    "text/html%s%s\r\n\r\n", *cs ? "; charset=" : "", cs);
	if (next() % 5 == 0) {
		fprintf(f, "WARC/1.0\r\nWARC-Type: request\r\n"
		    "WARC-Target-URI: http://example.org/%d\r\n"
		    "Content-Length: 5\r\n\r\nGET /\r\n\r\n", i);
		return;
	}
	fprintf(f, "WARC/1.0\r\nWARC-Type: response\r\n"
	    "WARC-Target-URI: http://example.org/%d\r\n"
	    "WARC-Record-ID: <urn:uuid:%08x>\r\n"
	    "Content-Length: %zu\r\n\r\n%s%s\r\n\r\n", i,
	    (unsigned)next(), strlen(head) + n, head, body);
}

/* dir/plain.gz of nrec records of mode, a member for each run of none
 * to three records, and dir/plain the same decoded. */
static int
make(int mode, int nrec)
{
	FILE *f;
	int i = 0, k;

	snprintf(cmd, sizeof(cmd), ": >'%s'", gz);
	if (system(cmd) != 0)
		return -1;
	while (i < nrec) {
		if ((f = fopen(part, "w")) == NULL)
			return -1;
		for (k = (int)(next() % 4); k > 0 && i < nrec; k--)
			record(f, mode, i++);
		snprintf(cmd, sizeof(cmd), "gzip -%d -c '%s' >>'%s'",
		    1 + (int)(next() % 9), part, gz);
		if (fclose(f) != 0 || system(cmd) != 0)
			return -1;
	}
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s' >'%s'", gz, plain);
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * Each record of file path (compressed or not), read in turn by a
 * reader of the decoded file, then by its location, against what
 * sh_docmap_get gives for its ID from the compressed file read as a
 * stream (as sh-near -v reads it): how many differ, or -1.  *nrec, the
 * records.
 */
static int
check(const char *path, const struct sh_recopt *o, int *nrec)
{
	struct sh_docmap *dm;
	struct sh_zmap *zm;
	struct sh_reader rd;
	struct sh_recbuf b;
	struct sh_recloc l;
	struct sh_rec seq, got, want;
	char msg[200], *id;
	FILE *in, *z;
	int fd, r, bad = 0;

	*nrec = 0;
	memset(&b, 0, sizeof(b));
	snprintf(cmd, sizeof(cmd), "gzip -dc '%s'", gz);
	if ((z = popen(cmd, "r")) == NULL || sh_docmap_new(&dm, o, 0, NULL) !=
	    0 || sh_docmap_add_stream(dm, z, gz) != 0)
		return -1;
	while ((r = sh_docmap_scan(dm, &seq)) != 0)
		if (r < 0)
			return -1;
	pclose(z);
	if ((fd = open(path, O_RDONLY)) < 0 ||
	    sh_zmap_build(&zm, fd, msg, sizeof(msg)) != 0)
		return -1;
	close(fd);
	if ((in = fopen(plain, "r")) == NULL)
		return -1;
	sh_reader_open(&rd, in, o, plain, 0);
	while ((r = sh_reader_next(&rd, &seq)) != 0) {
		if (r < 0)
			return -1;
		(*nrec)++;
		l.path = path;
		l.mode = o->mode;
		l.off = (unsigned long long)seq.off;
		l.size = (unsigned long long)seq.size;
		l.line = seq.line;
		sh_zmap_find(zm, l.off, &l.coff, &l.skip);
		if ((id = malloc(seq.idlen + 1)) == NULL)
			return -1;
		memcpy(id, seq.id, seq.idlen);
		r = sh_recloc_read(&l, o, &got, &b);
		if (r != 1 || sh_docmap_get(dm, id, seq.idlen, &want) != 1 ||
		    got.idlen != want.idlen || memcmp(got.id, want.id,
		    got.idlen) != 0 || got.len != want.len ||
		    memcmp(got.text, want.text, got.len) != 0 ||
		    got.off != want.off || got.size != want.size ||
		    got.html != want.html || (got.cs == NULL) != (want.cs == NULL) ||
		    (got.cs != NULL && (got.cslen != want.cslen ||
		    memcmp(got.cs, want.cs, got.cslen) != 0)) ||
		    got.line != seq.line) {
			printf("# %.*s at %llu: %d %s\n", (int)seq.idlen, id,
			    l.off, r, b.msg);
			bad++;
		}
		free(id);
	}
	sh_reader_free(&rd);
	fclose(in);
	sh_zmap_free(zm);
	sh_docmap_free(dm);
	sh_recloc_free(&b);
	return bad;
}

int
main(void)
{
	static const int modes[] = { SH_REC_WARC, SH_REC_PARA, SH_REC_TAB };
	struct sh_recopt o = SH_RECOPT_DEFAULT;
	struct sh_recbuf b;
	struct sh_recloc l;
	struct sh_rec rec;
	int i, v, n = 0, r;

	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(plain, sizeof(plain), "%s/plain", dir);
	snprintf(gz, sizeof(gz), "%s/plain.gz", dir);
	snprintf(part, sizeof(part), "%s/part", dir);
	/* A crawl of wget's, a member a record. */
	o.mode = SH_REC_WARC;
	snprintf(cmd, sizeof(cmd), "cp tests/fixtures/crawl.warc.gz '%s' && "
	    "gzip -dc '%s' >'%s'", gz, gz, plain);
	r = system(cmd) == 0 ? check(gz, &o, &n) : -1;
	ok(r == 0 && n > 0, "wget's crawl: %d records of the .gz by location "
	    "as by ID", n);
	for (i = 0; i < 3; i++) {
		if (make(modes[i], modes[i] == SH_REC_WARC ? 150 : 300) != 0) {
			ok(0, "%s files made", sh_rec_modename(modes[i]));
			continue;
		}
		for (v = 0; v < (modes[i] == SH_REC_WARC ? 4 : 1); v++) {
			memset(&o, 0, sizeof(o));
			o.mode = modes[i];
			o.html = v == 1 ? SH_HTML_NEVER : SH_HTML_AUTO;
			o.maintext = v == 2;
			o.charset = v == 3 ? "iso-8859-1" : NULL;
			r = check(gz, &o, &n);
			ok(r == 0 && n > 0, "%s (options %d): %d records of the "
			    ".gz by location as by ID", sh_rec_modename(o.mode),
			    v, n);
			r = check(plain, &o, &n);
			ok(r == 0 && n > 0, "%s (options %d): %d records of the "
			    "plain file", sh_rec_modename(o.mode), v, n);
		}
	}
	/* The TAB file is last made: a location one byte off, one too long,
	 * a file gone. */
	memset(&o, 0, sizeof(o));
	o.mode = SH_REC_TAB;
	memset(&b, 0, sizeof(b));
	l.path = plain;
	l.mode = SH_REC_TAB;
	l.off = l.coff = 1;
	l.skip = 0;
	l.size = 10;
	l.line = 0;
	ok(sh_recloc_read(&l, &o, &rec, &b) == SH_ECHANGED,
	    "a record not where the location says: file changed");
	l.off = l.coff = 0;
	l.size = 100000;
	ok(sh_recloc_read(&l, &o, &rec, &b) == SH_ECHANGED,
	    "a location past the end: file changed");
	l.path = part;
	unlink(part);
	ok(sh_recloc_read(&l, &o, &rec, &b) == SH_EIO, "a file gone: an I/O "
	    "error");
	l.mode = SH_REC_FILE;
	ok(sh_recloc_read(&l, &o, &rec, &b) == SH_EINVAL, "the file framing: "
	    "invalid");
	sh_recloc_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return tap_done();
}

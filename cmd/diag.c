#include <ctype.h>
#include <err.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
#include "base/utf8.h"
#include "base/zpipe.h"
#include "text/record.h"
#include "diag.h"

#define KINDS 64		/* -SH_E* codes counted apart */

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long long shown, left[KINDS];
static int looked, registered;

void
diag_done(void)
{
	int k;

	pthread_mutex_lock(&lock);
	for (k = 0; k < KINDS; k++) {
		if (left[k] > 0)
			warnx("and %llu more: %s", left[k], sh_strerror(-k));
		left[k] = 0;
	}
	shown = 0;
	pthread_mutex_unlock(&lock);
}

void
diag(int e, const char *name, unsigned long long line, const char *fmt,
    ...)
{
	char text[512];
	va_list ap;
	int k = -e > 0 && -e < KINDS ? -e : 0, print;

	pthread_mutex_lock(&lock);
	if (!registered)
		registered = atexit(diag_done) == 0;
	if ((print = shown < DIAG_MAX) != 0)
		shown++;
	else
		left[k]++;
	pthread_mutex_unlock(&lock);
	if (!print)
		return;
	if (fmt != NULL) {
		va_start(ap, fmt);
		vsnprintf(text, sizeof(text), fmt, ap);
		va_end(ap);
	}
	if (name != NULL)
		warnx("%s:%llu: %s", name, line, fmt != NULL ? text :
		    sh_strerror(e));
	else
		warnx("%s", fmt != NULL ? text : sh_strerror(e));
}

static unsigned long long ninvalid;
static char firstbad[201];
static FILE *list;
static const char *listname;

void
diag_invalid_list(const char *name)
{
	if ((list = fopen(name, "w")) == NULL)
		err(2, "%s", name);
	listname = name;
}

void
diag_invalid(const char *id, size_t idlen)
{
	if (ninvalid++ == 0)
		diag_bytes(id, idlen, firstbad, sizeof(firstbad));
	if (list != NULL) {
		fwrite(id, 1, idlen, list);
		putc('\n', list);
	}
}

void
diag_invalid_report(void)
{
	if (ninvalid > 0)
		warnx("%llu document(s) with invalid UTF-8, the first \"%s\" "
		    "(-C names a charset%s)", ninvalid, firstbad, list ? "" :
		    "; -U lists them");
	ninvalid = 0;
	if (list != NULL && (ferror(list) | fclose(list)) != 0)
		err(2, "%s", listname);
	list = NULL;
}

void
diag_looks(const char *name, const char *p, size_t len, int as)
{
	const char *what = NULL;
	size_t i, ctl;
	int docs = as != DIAG_FPLINES;

	for (i = ctl = 0; i < len && i < 512; i++)
		ctl += (unsigned char)p[i] < 0x20 && p[i] != '\t' &&
		    p[i] != '\r' && p[i] != '\n';
	if (len >= 5 && memcmp(p, "WARC/", 5) == 0)
		what = docs ? "WARC: read them with -f warc" :
		    "WARC: fingerprint it first (sh-fp -f warc)";
	else if (len > 0 && p[0] == '{' && as != DIAG_JSONDOCS)
		what = docs ? "JSON Lines: read them with -f jsonl (-I and -T "
		    "name the fields)" : "JSON Lines: fingerprint it first "
		    "(sh-fp -f jsonl)";
	else if (memchr(p, '\0', len < 512 ? len : 512) != NULL ||
	    ctl * 10 > (len < 512 ? len : 512))
		what = "binary data, not text";
	pthread_mutex_lock(&lock);
	if (what != NULL && !looked) {
		looked = 1;
		warnx("%s: the %s like %s", name, docs ? "documents look" :
		    "input looks", what);
	}
	pthread_mutex_unlock(&lock);
}

int
diag_docs(int mode)
{
	switch (mode) {
	case SH_REC_TAB:
		return DIAG_DOCS;
	case SH_REC_JSON:
		return DIAG_JSONDOCS;
	case SH_REC_WARC:
		return DIAG_WARCDOCS;
	case SH_REC_FILE:
		return DIAG_FILEDOCS;
	}
	return DIAG_LINES;
}

/* What the first line of a stream looks like. */
enum {
	K_NONE, K_COMPRESSED, K_BINARY, K_WARC, K_JSON, K_FP, K_PAIR, K_DOC
};

/* The length of the field p[0..len) starts with, up to a TAB. */
static size_t
field(const char *p, size_t len)
{
	const char *t = memchr(p, '\t', len);

	return t != NULL ? (size_t)(t - p) : len;
}

/* Whether p[0..n) is 16 hex digits. */
static int
hex16(const char *p, size_t n)
{
	size_t i;

	if (n != 16)
		return 0;
	for (i = 0; i < n; i++)
		if (!isxdigit((unsigned char)p[i]))
			return 0;
	return 1;
}

/* Whether p[0..n) looks like an ID of a tool's output: printable ASCII,
 * no space. */
static int
idlike(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] <= ' ' || p[i] > '~')
			return 0;
	return n > 0;
}

/* Whether p[0..n) is a number: digits, and a fraction. */
static int
number(const char *p, size_t n)
{
	size_t i = 0, d = 0;

	while (i < n && isdigit((unsigned char)p[i]))
		i++, d++;
	if (i < n && p[i] == '.')
		for (i++; i < n && isdigit((unsigned char)p[i]); i++)
			d++;
	return d > 0 && i == n;
}

/* Of the fields of p[0..len) from field k on: the next one, at *f, *n;
 * 0 when there is none. */
static int
next_field(const char *p, size_t len, size_t *at, const char **f,
    size_t *n)
{
	if (*at > len)
		return 0;
	*f = p + *at;
	*n = field(*f, len - *at);
	*at += *n + 1;
	return 1;
}

static int
kind(const char *p, size_t len)
{
	static const char *const magic[] = {
		"\177ELF", "%PDF-", "PK\x03\x04", "\x89PNG", "\xff\xd8\xff",
		"GIF87a", "GIF89a", "OggS", "\xca\xfe\xba\xbe"
	};
	const char *f[4];
	size_t n[4], at = 0, i, ctl = 0, nf, sp;
	const char *nl;
	int full = len < DIAG_HEAD;

	/* The first line: a NUL record's may be followed by more. */
	if (len > DIAG_HEAD)
		len = DIAG_HEAD;
	if ((nl = memchr(p, '\n', len)) != NULL) {
		len = (size_t)(nl - p);
		full = 1;
	}
	if (len > 0 && p[len - 1] == '\r')
		len--;
	if (sh_z_kind(p, len) != SH_Z_NONE)
		return K_COMPRESSED;
	for (i = 0; i < sizeof(magic) / sizeof(magic[0]); i++)
		if (len >= strlen(magic[i]) && memcmp(p, magic[i],
		    strlen(magic[i])) == 0)
			return K_BINARY;
	for (i = 0; i < len; i++)
		ctl += ((unsigned char)p[i] < 0x20 &&
		    strchr("\t\n\v\f\r\033", p[i]) == NULL) || p[i] == 127;
	if (ctl >= 2 && ctl * 10 > len)
		return K_BINARY;
	if (len >= 7 && memcmp(p, "WARC/1.", 7) == 0)
		return K_WARC;
	for (i = 0; i < len && (p[i] == ' ' || p[i] == '\r'); i++)
		;
	if (i < len && p[i] == '{' && memchr(p, '\t', len) == NULL) {
		for (i++; i < len && strchr(" \t\r", p[i]) != NULL; i++)
			;
		if (i == len || p[i] == '"' || p[i] == '}')
			return K_JSON;
	}
	for (nf = 0; nf < 4 && next_field(p, len, &at, &f[nf], &n[nf]); nf++)
		;
	if (nf < 2)
		return K_NONE;
	/* HEX<TAB>ID, then a sketch or a count (sh-fp -B, -c). */
	if (hex16(f[0], n[0]) && idlike(f[1], n[1]) && !hex16(f[1], n[1]) &&
	    (nf == 2 || (n[2] >= 3 && memcmp(f[2], "m1:", 3) == 0) ||
	    (nf == 3 && number(f[2], n[2]))))
		return K_FP;
	if (hex16(f[0], n[0]))
		return K_NONE;
	/* ID<TAB>ID<TAB>DISTANCE or SIMILARITY, and a similarity. */
	if (nf >= 3 && idlike(f[0], n[0]) && idlike(f[1], n[1]) &&
	    number(f[2], n[2]) && (nf == 3 || number(f[3], n[3]) || !full))
		return K_PAIR;
	/* ID<TAB>TEXT: words, or a long text. */
	if (nf == 2 && n[0] > 0) {
		for (i = sp = 0; i < n[1]; i++)
			sp += f[1][i] == ' ';
		if (sp >= 3 || n[1] >= 200)
			return K_DOC;
	}
	return K_NONE;
}

int
diag_plain(const char *name, const char *p, size_t len, int as)
{
	/* The programs that decompress to standard output, by kind. */
	static const char *const cat[] = { "", "zcat", "bzcat", "xzcat",
	    "zstdcat" };
	int k = kind(p, len), docs = as != DIAG_FPLINES && as != DIAG_PAIRS &&
	    as != DIAG_FPPAIRS, z = sh_z_kind(p, len);
	const char *what;

	if (k == K_NONE || (as == DIAG_FPLINES && k == K_FP) ||
	    (as == DIAG_PAIRS && k == K_PAIR) ||
	    ((as == DIAG_JSONDOCS || as == DIAG_LINES) && k == K_JSON) ||
	    (as == DIAG_WARCDOCS && k == K_WARC) ||
	    ((as == DIAG_DOCS || as == DIAG_LINES) && k == K_DOC) ||
	    (as == DIAG_FILEDOCS && k != K_WARC && z != SH_Z_GZIP))
		return 0;
	if (k == K_COMPRESSED) {
		warnx("%s: %s-compressed: decompress it first (%s)", name,
		    sh_z_name(z), cat[z]);
		return 1;
	}
	switch (k) {
	case K_BINARY:
		what = "binary data, not text";
		break;
	case K_WARC:
		what = docs ? "WARC: read them with -f warc" :
		    "WARC: fingerprint it first (sh-fp -f warc)";
		break;
	case K_JSON:
		what = docs ? "JSON Lines: read them with -f jsonl (-I and -T "
		    "name the fields)" : "JSON Lines: fingerprint it first "
		    "(sh-fp -f jsonl)";
		break;
	case K_FP:
		what = docs ? "fingerprint lines: sh-near and sh-index read "
		    "them" : "fingerprint lines: sh-near finds their pairs";
		break;
	case K_PAIR:
		what = as == DIAG_FPPAIRS ? "pairs of IDs: sh-dist -v reads "
		    "them" : "pairs of IDs: sh-dist -v and sh-near -m read "
		    "them";
		break;
	default:
		what = docs ? "ID<TAB>TEXT lines: read them without -f" :
		    as == DIAG_PAIRS ? "documents: -v names them, the input "
		    "is pairs of IDs (sh-near prints them)" :
		    "documents: fingerprint them first (sh-fp)";
	}
	warnx("%s: the %s like %s", name, docs ? "documents look" :
	    "input looks", what);
	return 1;
}

char *
diag_bytes(const char *id, size_t len, char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)id;
	size_t i, n = 0, k, j;
	uint32_t cp;
	int bad;

	for (i = 0; i < len && cap > 0; i += k) {
		bad = 0;
		k = p[i] >= 0x80 ? sh_utf8_decode(p + i, len - i, &cp, &bad) :
		    1;
		/* Room for the escape or the sequence, and for "...". */
		if (n + 4 + 3 >= cap) {
			memcpy(out + n, "...", 3);
			n += 3;
			break;
		}
		if (p[i] < 0x20 || p[i] == 127 || bad) {
			out[n++] = '\\';
			out[n++] = 'x';
			out[n++] = hex[p[i] >> 4];
			out[n++] = hex[p[i] & 15];
			k = 1;
		} else
			for (j = 0; j < k; j++)
				out[n++] = (char)p[i + j];
	}
	if (cap > 0)
		out[n < cap ? n : cap - 1] = '\0';
	return out;
}

int
diag_reader(const char *name, const struct sh_reader *r)
{
	return r->in.hashead && diag_plain(name, r->in.head, r->in.headlen,
	    diag_docs(r->mode));
}

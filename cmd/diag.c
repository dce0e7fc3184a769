#include <err.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/errors.h"
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
		snprintf(firstbad, sizeof(firstbad), "%.*s", (int)(idlen >
		    200 ? 200 : idlen), id);
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

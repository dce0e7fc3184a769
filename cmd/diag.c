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
static unsigned long long count[KINDS];
static int looked, registered;

void
diag_done(void)
{
	int k;

	pthread_mutex_lock(&lock);
	for (k = 0; k < KINDS; k++) {
		if (count[k] > DIAG_MAX)
			warnx("and %llu more: %s", count[k] - DIAG_MAX,
			    sh_strerror(-k));
		count[k] = 0;
	}
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
	print = ++count[k] <= DIAG_MAX;
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

void
diag_looks(const char *name, const char *p, size_t len)
{
	const char *what = NULL;
	size_t i, ctl;

	for (i = ctl = 0; i < len && i < 512; i++)
		ctl += (unsigned char)p[i] < 0x20 && p[i] != '\t' &&
		    p[i] != '\r';
	if (len >= 5 && memcmp(p, "WARC/", 5) == 0)
		what = "WARC: fingerprint it first (sh-fp -f warc -H)";
	else if (len > 0 && p[0] == '{')
		what = "JSON Lines: fingerprint it first (sh-fp -f jsonl)";
	else if (memchr(p, '\0', len < 512 ? len : 512) != NULL ||
	    ctl * 10 > (len < 512 ? len : 512))
		what = "binary data, not text";
	pthread_mutex_lock(&lock);
	if (what != NULL && !looked) {
		looked = 1;
		warnx("%s: the input looks like %s", name, what);
	}
	pthread_mutex_unlock(&lock);
}

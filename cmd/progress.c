/*
 * --progress: lines on stderr about once a second.
 */
#include <err.h>
#include <time.h>

#include "progress.h"

int progress_on;

static struct timespec start, last;
static unsigned long calls;

/* Seconds since t, now into *now. */
static double
since(const struct timespec *t, struct timespec *now)
{
	clock_gettime(CLOCK_MONOTONIC, now);
	return (double)(now->tv_sec - t->tv_sec) +
	    (double)(now->tv_nsec - t->tv_nsec) / 1e9;
}

/* Whether a second has passed since the last line (the first call
 * starts the clock). */
static int
due(void)
{
	struct timespec now;

	if (start.tv_sec == 0 && start.tv_nsec == 0) {
		clock_gettime(CLOCK_MONOTONIC, &start);
		last = start;
		return 0;
	}
	if (since(&last, &now) < 1.0)
		return 0;
	last = now;
	return 1;
}

void
progress_items(const char *what, unsigned long long n)
{
	struct timespec now;
	double s;

	/* The clock is read every 1024 items. */
	if (!progress_on || (calls++ % 1024 != 0) || !due())
		return;
	s = since(&start, &now);
	warnx("%llu %s, %.0f/s", n, what, s > 0 ? (double)n / s : 0.0);
}

void
progress_total(const char *what, unsigned long long n)
{
	if (progress_on)
		warnx("%llu %s", n, what);
}

void
progress_clock(struct timespec *t)
{
	clock_gettime(CLOCK_MONOTONIC, t);
}

void
progress_took(const char *what, const struct timespec *t)
{
	struct timespec now;

	if (progress_on)
		warnx("%s in %.3f s", what, since(t, &now));
}

static void
table(void *ctx, const char *what, uint64_t done, uint64_t total)
{
	(void)ctx;
	if (total == 0) {
		progress_items(what, done);
		return;
	}
	if (due() || done == total)
		warnx("%s %llu of %llu", what, (unsigned long long)done,
		    (unsigned long long)total);
}

const struct sh_progress *
progress_lib(void)
{
	static const struct sh_progress pg = { table, NULL };

	return progress_on ? &pg : NULL;
}

/*
 * Progress of a long library operation, reported to the caller, who may
 * show it: the library itself never prints.  An operation takes a
 * const struct sh_progress * (NULL: no report) and calls sh_progress
 * after each unit of its work.
 */
#ifndef SH_PROGRESS_H
#define SH_PROGRESS_H

#include <stdint.h>

struct sh_progress {
	/* Called with what is being done ("table"), the units done and
	 * the units in all, 0 when not known ("pairs verified"); from any
	 * thread, never two at once. */
	void (*fn)(void *ctx, const char *what, uint64_t done,
	    uint64_t total);
	void *ctx;
};

static inline void
sh_progress(const struct sh_progress *pg, const char *what, uint64_t done,
    uint64_t total)
{
	if (pg != NULL && pg->fn != NULL)
		pg->fn(pg->ctx, what, done, total);
}

#endif

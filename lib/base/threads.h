/*
 * Work shared by threads: the one place where threads are started and
 * waited for.
 */
#ifndef SH_THREADS_H
#define SH_THREADS_H

#include <stddef.h>

#define SH_THREADS_MAX 64

/*
 * Call fn on each of the n items (item i at (char *)items + i * size),
 * each in a thread of its own but the first, which runs in the caller's;
 * an item whose thread cannot start runs in the caller's after the
 * others.  Return when all are done.  n is at most SH_THREADS_MAX.
 */
void sh_threads_run(void *items, size_t size, int n, void *(*fn)(void *));

/*
 * Start fn(arg) in a thread of its own that nobody waits for (detached):
 * for work that ends on its own, such as feeding a pipe.  Return 0 or an
 * errno value (the thread did not start).
 */
int sh_thread_start(void *(*fn)(void *), void *arg);

#endif

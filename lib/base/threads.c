#include <pthread.h>

#include "base/threads.h"

void
sh_threads_run(void *items, size_t size, int n, void *(*fn)(void *))
{
	pthread_t tid[SH_THREADS_MAX];
	char *item = items;
	int i, started;

	for (started = 1; started < n; started++)
		if (pthread_create(&tid[started], NULL, fn, item +
		    (size_t)started * size) != 0)
			break;
	if (n > 0)
		fn(item);
	for (i = 1; i < started; i++)
		pthread_join(tid[i], NULL);
	for (i = started; i < n; i++)
		fn(item + (size_t)i * size);
}

int
sh_thread_start(void *(*fn)(void *), void *arg)
{
	pthread_t tid;
	int e;

	if ((e = pthread_create(&tid, NULL, fn, arg)) == 0)
		pthread_detach(tid);
	return e;
}

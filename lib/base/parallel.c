/* A fixed set of threads taking job indices from a shared counter: see
 * parallel.h. */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>

#include "base/parallel.h"

struct work {
	atomic_size_t next;
	size_t n;
	void (*job)(size_t i, void *arg);
	void *arg;
};

static void *worker(void *p)
{
	struct work *w = p;
	size_t i;

	while ((i = atomic_fetch_add(&w->next, 1)) < w->n)
		w->job(i, w->arg);
	return NULL;
}

void parallel_for(size_t n, unsigned max_threads,
		  void (*job)(size_t i, void *arg), void *arg)
{
	pthread_t threads[PARALLEL_MAX_THREADS];
	struct work w = { .n = n, .job = job, .arg = arg };
	size_t want = n < max_threads ? n : max_threads, started = 0;

	atomic_init(&w.next, 0);
	if (want > PARALLEL_MAX_THREADS)
		want = PARALLEL_MAX_THREADS;
	/* The caller is one of the workers; a thread that cannot be
	 * started only means fewer at once. */
	while (started + 1 < want &&
	       thread_start_signal_free(&threads[started], worker, &w) == 0)
		started++;
	worker(&w);
	for (size_t t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
}

int thread_start_signal_free(pthread_t *thread, void *(*fn)(void *),
			     void *arg)
{
	sigset_t all, old;
	int rc;

	/* The new thread inherits the mask in force when it is created. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = pthread_create(thread, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

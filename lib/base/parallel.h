/* Runs independent blocking jobs at once on a few threads: setup steps
 * that wait on the network (a rendezvous that times out, an AH whose next
 * hop never answers ARP) then cost one wait, not one per destination. */
#ifndef IBAHPROBE_PARALLEL_H
#define IBAHPROBE_PARALLEL_H

#include <pthread.h>
#include <stddef.h>

#define PARALLEL_MAX_THREADS 32

/* Calls job(i, arg) once for every i in [0, n), on up to max_threads
 * threads (the caller's among them), and returns when all are done. Jobs
 * must not touch each other's data. Without threads it runs them in
 * turn. */
void parallel_for(size_t n, unsigned max_threads,
		  void (*job)(size_t i, void *arg), void *arg);

/* pthread_create with SIGINT, SIGTERM and the other asynchronous signals
 * blocked in the new thread: they reach the main thread, whose poll()
 * they must interrupt, and never a helper in the middle of a system
 * call. Returns 0 or an errno. */
int thread_start_signal_free(pthread_t *thread, void *(*fn)(void *),
			     void *arg);

#endif

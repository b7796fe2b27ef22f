/* Unit tests of parallel_for: every job runs exactly once, whatever the
 * counts, and the jobs really run at the same time. */
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>

#include "base/parallel.h"
#include "tap.h"

struct counted {
	size_t n;
	atomic_int *runs;
};

static void count_job(size_t i, void *arg)
{
	struct counted *c = arg;

	if (i < c->n)
		atomic_fetch_add(&c->runs[i], 1);
}

static void test_every_job_once(void)
{
	static const size_t sizes[] = { 0, 1, 2, 5, 33, 1000 };
	static const unsigned threads[] = { 0, 1, 4, 32, 1000 };

	for (size_t a = 0; a < sizeof(sizes) / sizeof(sizes[0]); a++)
		for (size_t b = 0; b < sizeof(threads) / sizeof(threads[0]); b++) {
			struct counted c = { sizes[a], calloc(sizes[a] + 1, sizeof(atomic_int)) };
			bool once = true;

			parallel_for(c.n, threads[b], count_job, &c);
			for (size_t i = 0; i < c.n; i++)
				once = once && atomic_load(&c.runs[i]) == 1;
			ok(once, "%zu jobs on up to %u threads: each ran once",
			   sizes[a], threads[b]);
			free(c.runs);
		}
}

/* Each job waits (up to 10 s) until all of them have started: run one
 * after the other, the first would wait alone and see only itself. */
struct meeting {
	atomic_int started;
	int want;
	atomic_int all_met;
};

static void meet_job(size_t i, void *arg)
{
	struct meeting *m = arg;
	struct timespec pause = { 0, 1000000 };

	(void)i;
	atomic_fetch_add(&m->started, 1);
	for (int k = 0; k < 10000 && atomic_load(&m->started) < m->want; k++)
		nanosleep(&pause, NULL);
	if (atomic_load(&m->started) >= m->want)
		atomic_fetch_add(&m->all_met, 1);
}

static void test_at_once(void)
{
	struct meeting m = { .want = 8 };

	parallel_for(8, 8, meet_job, &m);
	is_int(atomic_load(&m.all_met), 8, "8 jobs on 8 threads all run at once");
}

int main(void)
{
	test_every_job_once();
	test_at_once();
	return tap_done();
}

/* One thread that makes AHs again; see ah_renewer.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "verbs/ah_renewer.h"
#include "base/parallel.h"

bool ah_renew_due(bool renewing, bool round_lost, uint64_t made_ns,
		  uint64_t now_ns, uint64_t max_age_ns)
{
	if (renewing)
		return false;
	if (round_lost)
		return true;
	return max_age_ns && now_ns >= made_ns &&
	       now_ns - made_ns >= max_age_ns;
}

static void *renewer_main(void *arg)
{
	struct ah_renewer *r = arg;

	pthread_mutex_lock(&r->lock);
	for (;;) {
		struct ah_renewal job;

		while (!r->stopping && r->queued == 0)
			pthread_cond_wait(&r->work, &r->lock);
		if (r->stopping)
			break;
		job = r->queue[0];
		memmove(r->queue, r->queue + 1, --r->queued * sizeof(job));
		pthread_mutex_unlock(&r->lock);
		errno = 0;
		job.ah = ibv_create_ah(r->pd, &job.attr);
		job.error = job.ah ? 0 : errno;
		pthread_mutex_lock(&r->lock);
		r->done[r->done_count++] = job;
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int ah_renewer_start(struct ah_renewer *r, struct ibv_pd *pd, size_t capacity,
		     char *err, size_t errlen)
{
	int rc;

	memset(r, 0, sizeof(*r));
	r->pd = pd;
	r->capacity = capacity ? capacity : 1;
	r->queue = calloc(r->capacity, sizeof(*r->queue));
	r->done = calloc(r->capacity, sizeof(*r->done));
	if (!r->queue || !r->done) {
		snprintf(err, errlen, "out of memory");
		ah_renewer_stop(r);
		return -1;
	}
	pthread_mutex_init(&r->lock, NULL);
	pthread_cond_init(&r->work, NULL);
	rc = thread_start_signal_free(&r->tid, renewer_main, r);
	if (rc) {
		snprintf(err, errlen, "cannot start the AH renewer: %s",
			 strerror(rc));
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->work);
		free(r->queue);
		free(r->done);
		memset(r, 0, sizeof(*r));
		return -1;
	}
	r->started = true;
	return 0;
}

int ah_renewer_submit(struct ah_renewer *r, size_t id,
		      const struct ibv_ah_attr *attr)
{
	int rc = -1;

	if (!r->started)
		return -1;
	pthread_mutex_lock(&r->lock);
	/* One in the worker's hands counts as neither: keep room for it. */
	if (r->queued + r->done_count + 1 < r->capacity) {
		r->queue[r->queued++] = (struct ah_renewal){ .id = id,
							      .attr = *attr };
		pthread_cond_signal(&r->work);
		rc = 0;
	}
	pthread_mutex_unlock(&r->lock);
	return rc;
}

size_t ah_renewer_take(struct ah_renewer *r, struct ah_renewal *out,
		       size_t max)
{
	size_t n;

	if (!r->started)
		return 0;
	pthread_mutex_lock(&r->lock);
	n = r->done_count < max ? r->done_count : max;
	memcpy(out, r->done, n * sizeof(*out));
	memmove(r->done, r->done + n, (r->done_count - n) * sizeof(*out));
	r->done_count -= n;
	pthread_mutex_unlock(&r->lock);
	return n;
}

void ah_renewer_stop(struct ah_renewer *r)
{
	if (r->started) {
		pthread_mutex_lock(&r->lock);
		r->stopping = true;
		pthread_cond_broadcast(&r->work);
		pthread_mutex_unlock(&r->lock);
		pthread_join(r->tid, NULL);
		for (size_t i = 0; i < r->done_count; i++)
			if (r->done[i].ah)
				ibv_destroy_ah(r->done[i].ah);
		pthread_mutex_destroy(&r->lock);
		pthread_cond_destroy(&r->work);
	}
	free(r->queue);
	free(r->done);
	memset(r, 0, sizeof(*r));
}

/* AHs made again off the sending thread, for long runs (probe
 * --continuous): a RoCE AH carries the next hop's MAC from when it was
 * made (rdma-core providers/mlx5/verbs.c mlx5_create_ah copies the
 * kernel's resp.dmac) and no verbs event follows a neighbour change, so
 * an AH is made again when old or after a round with loss; ibv_create_ah
 * may wait seconds for a silent neighbour, so one worker thread does it
 * and the caller swaps the result in between rounds. */
#ifndef IBAHPROBE_AH_RENEWER_H
#define IBAHPROBE_AH_RENEWER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

/* Whether an AH is to be made again now: not while one is being made;
 * after a round that lost probes (a stale MAC loses them all, and the
 * next round should not be judged on it), or once it is max_age_ns old
 * (0: no age bound). */
bool ah_renew_due(bool renewing, bool round_lost, uint64_t made_ns,
		  uint64_t now_ns, uint64_t max_age_ns);

struct ah_renewal {
	size_t id;		/* the caller's (a cell index) */
	struct ibv_ah_attr attr;
	struct ibv_ah *ah;	/* result; NULL: failed */
	int error;
};

struct ah_renewer {
	struct ibv_pd *pd;
	pthread_mutex_t lock;
	pthread_cond_t work;
	pthread_t tid;
	bool started, stopping;
	struct ah_renewal *queue, *done;
	size_t capacity, queued, done_count;
};

/* capacity: jobs waiting and results not yet taken, together. */
int ah_renewer_start(struct ah_renewer *r, struct ibv_pd *pd, size_t capacity,
		     char *err, size_t errlen);
/* -1 when full. */
int ah_renewer_submit(struct ah_renewer *r, size_t id,
		      const struct ibv_ah_attr *attr);
size_t ah_renewer_take(struct ah_renewer *r, struct ah_renewal *out,
		       size_t max);
/* Joins the worker (one inside ibv_create_ah is waited for) and
 * destroys the AHs of results never taken. */
void ah_renewer_stop(struct ah_renewer *r);

#endif

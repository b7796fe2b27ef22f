/* Reply AHs created off the receive path. ibv_create_ah on RoCE resolves
 * the next hop's MAC and can block for seconds (a silent neighbour); a
 * responder that did that in its receive loop would stall every other
 * sender's replies. Workers run ibv_init_ah_from_wc and ibv_create_ah; the
 * loop hands them jobs and picks up results when ah_workers_fd() polls
 * readable. */
#ifndef IBAHPROBE_AH_WORKER_H
#define IBAHPROBE_AH_WORKER_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/device.h"
#include "wire/grh.h"
#include "verbs/provider.h"

#define AH_WORKER_THREADS 4
#define AH_WORKER_QUEUE 64

struct ah_job {
	/* Which cache entry the result is for (reverse_cache_pending). */
	size_t slot;
	uint32_t generation;
	uint32_t epoch;		/* the cache's, when submitted */
	/* A successor for a READY entry's AH (age or neighbour change),
	 * not a first one: the entry keeps answering meanwhile. */
	bool refresh;
	/* Input: the completion and GRH area as received. */
	struct ibv_wc wc;
	uint8_t grh[GRH_BYTES];
	uint8_t asked_sl;
	/* Whose hop limit the reply leaves with: the responder's provider,
	 * and the local GID the probe reached (the reply's source: its
	 * netdev binds the route lookup, its type the RoCE v1 exception). */
	enum provider provider;
	bool sgid_roce_v1;
	char netdev[IF_NAMESIZE];
	/* The reply's source GID index where the request's VLAN chose
	 * another than ibv_init_ah_from_wc's first equal GID
	 * (responder_vlan_reply_gid). */
	bool sgid_by_vlan;
	uint8_t sgid_index;
	/* The probe came through a group (reverse_mcast_ah_build): attr is
	 * built already, as ibv_init_ah_from_wc refuses a multicast DGID;
	 * no_sgid: we have no GID to answer the sender's family from. */
	bool from_group, no_sgid;
	/* Output. */
	struct ibv_ah_attr attr;
	struct ibv_ah *ah;	/* NULL: failed */
	int error;		/* errno; 0: the driver gave no reason */
	bool init_failed;	/* ibv_init_ah_from_wc failed, not create */
	bool hop_limit_sent_known;	/* reverse_hop_limit_sent */
	uint8_t hop_limit_sent;
	/* RoCE: the neighbour whose MAC the AH took (the route's gateway
	 * toward the sender, or the sender on link), IPv4 mapped. */
	bool next_hop_known;
	uint8_t next_hop[16];
};

struct ah_workers {
	struct ibv_context *context;
	struct ibv_pd *pd;
	uint8_t port_num;
	enum link_layer link_layer;
	int event_fd;		/* readable while results wait */
	pthread_mutex_t lock;
	pthread_cond_t work;
	bool stopping;
	struct ah_job *queue, *done;
	size_t queued, done_count;
	size_t threads;
	pthread_t tids[AH_WORKER_THREADS];
};

int ah_workers_start(struct ah_workers *w, struct ibv_context *context,
		     struct ibv_pd *pd, uint8_t port_num,
		     enum link_layer link_layer, char *err, size_t errlen);
/* Queues a job; -EAGAIN when AH_WORKER_QUEUE jobs wait already. */
int ah_workers_submit(struct ah_workers *w, const struct ah_job *job);
int ah_workers_fd(const struct ah_workers *w);
/* Takes up to max finished jobs. */
size_t ah_workers_take(struct ah_workers *w, struct ah_job *out, size_t max);
/* Stops and joins the workers (one blocked in ibv_create_ah is waited
 * for); AHs of results never taken are destroyed. */
void ah_workers_stop(struct ah_workers *w);

/* What a worker does, without the threads: builds the reply AH of one
 * job (ibv_init_ah_from_wc unless from_group, reverse_ah_finish,
 * ibv_create_ah). */
void ah_job_run(struct ibv_context *context, struct ibv_pd *pd,
		uint8_t port_num, enum link_layer link_layer,
		struct ah_job *job);

#endif

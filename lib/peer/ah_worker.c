/* Worker threads that create reply AHs; see ah_worker.h. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <arpa/inet.h>

#include "peer/ah_worker.h"
#include "base/gid.h"
#include "base/parallel.h"
#include "peer/reverse_ah.h"
#include "verbs/route_info.h"

/* The kernel's rdma_link_local_addr (fe80::/64), which
 * ib_resolve_unicast_gid_dmac asks before it takes the route's hop
 * limit. */
static bool kernel_link_local(const union ibv_gid *gid)
{
	static const uint8_t prefix[8] = { 0xfe, 0x80 };

	return memcmp(gid->raw, prefix, sizeof(prefix)) == 0;
}

/* The hop limit the reply will leave with (reverse_hop_limit_sent): the
 * route's needs a route lookup toward the prober, done here, once per
 * reply AH, off the receive path. */
static void find_hop_limit_sent(enum link_layer link_layer,
				struct ah_job *job)
{
	struct hop_limit_rule_input rule_in = {
		.provider = job->provider,
		.link_layer = link_layer,
		.sgid_roce_v1 = job->sgid_roce_v1,
		.dgid_link_local = kernel_link_local(&job->attr.grh.dgid),
	};
	struct reverse_hop_limit_input in = {
		.is_global = job->attr.is_global,
		.ah_hop_limit = job->attr.grh.hop_limit,
	};
	struct route_info route;
	char why[200], addr[GID_TEXT_MAX], err[256];

	in.rule = provider_hop_limit_rule(&rule_in, why, sizeof(why));
	if (in.rule == HOP_LIMIT_RULE_ROUTE && in.is_global) {
		gid_format(&job->attr.grh.dgid, addr, sizeof(addr));
		if (route_lookup(addr, job->netdev[0] ? job->netdev : NULL,
				 &route, err, sizeof(err)) == 0) {
			in.route_known = true;
			in.route_hop_limit = route.hop_limit;
		}
	}
	job->hop_limit_sent_known =
		reverse_hop_limit_sent(&in, &job->hop_limit_sent);
}

/* The neighbour the AH's MAC belongs to, for the neighbour watch:
 * the kernel resolved the DMAC through the route toward the DGID
 * (ib_resolve_eth_dmac -> rdma_addr_find_l2_eth_by_grh -> the route's
 * gateway, or the address itself on link). */
static void find_next_hop(enum link_layer link_layer, struct ah_job *job)
{
	struct route_info route;
	char addr[GID_TEXT_MAX], err[256];
	struct in6_addr a6;
	struct in_addr a4;
	const char *hop;

	job->next_hop_known = false;
	if (link_layer != LINK_LAYER_ETHERNET || !job->attr.is_global)
		return;
	gid_format(&job->attr.grh.dgid, addr, sizeof(addr));
	if (route_lookup(addr, job->netdev[0] ? job->netdev : NULL, &route,
			 err, sizeof(err)))
		return;
	hop = route.has_gateway ? route.gateway : addr;
	memset(job->next_hop, 0, sizeof(job->next_hop));
	if (inet_pton(AF_INET6, hop, &a6) == 1) {
		memcpy(job->next_hop, &a6, 16);
	} else if (inet_pton(AF_INET, hop, &a4) == 1) {
		job->next_hop[10] = job->next_hop[11] = 0xff;
		memcpy(job->next_hop + 12, &a4, 4);
	} else {
		return;
	}
	job->next_hop_known = true;
}

void ah_job_run(struct ibv_context *context, struct ibv_pd *pd,
		uint8_t port_num, enum link_layer link_layer,
		struct ah_job *job)
{
	errno = 0;
	if (job->from_group && job->no_sgid) {
		job->error = EADDRNOTAVAIL;
		return;
	}
	/* libibverbs reads the flow label from bytes 0..3 and the form from
	 * bytes 0 and 20: the area is as received, with our sentinel. */
	if (!job->from_group &&
	    ibv_init_ah_from_wc(context, port_num, &job->wc,
				(struct ibv_grh *)job->grh, &job->attr)) {
		job->error = errno;
		job->init_failed = true;
		return;
	}
	if (job->sgid_by_vlan)
		job->attr.grh.sgid_index = job->sgid_index;
	reverse_ah_finish(&job->attr, link_layer, job->asked_sl);
	errno = 0;
	job->ah = ibv_create_ah(pd, &job->attr);
	if (!job->ah) {
		job->error = errno;
		return;
	}
	find_hop_limit_sent(link_layer, job);
	find_next_hop(link_layer, job);
}

static void *worker_main(void *arg)
{
	struct ah_workers *w = arg;
	uint64_t one = 1;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		struct ah_job job;

		while (!w->stopping && w->queued == 0)
			pthread_cond_wait(&w->work, &w->lock);
		if (w->stopping)
			break;
		job = w->queue[0];
		memmove(w->queue, w->queue + 1,
			--w->queued * sizeof(*w->queue));
		pthread_mutex_unlock(&w->lock);
		ah_job_run(w->context, w->pd, w->port_num, w->link_layer, &job);
		pthread_mutex_lock(&w->lock);
		/* done has room for every job there can be: queued + running. */
		w->done[w->done_count++] = job;
		if (write(w->event_fd, &one, sizeof(one)) < 0) {
			/* eventfd counts saturate far beyond this; nothing to do */
		}
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int ah_workers_start(struct ah_workers *w, struct ibv_context *context,
		     struct ibv_pd *pd, uint8_t port_num,
		     enum link_layer link_layer, char *err, size_t errlen)
{
	memset(w, 0, sizeof(*w));
	w->context = context;
	w->pd = pd;
	w->port_num = port_num;
	w->link_layer = link_layer;
	w->event_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	w->queue = calloc(AH_WORKER_QUEUE, sizeof(*w->queue));
	w->done = calloc(AH_WORKER_QUEUE + AH_WORKER_THREADS, sizeof(*w->done));
	if (w->event_fd < 0 || !w->queue || !w->done) {
		snprintf(err, errlen, "cannot set up the AH workers: %s",
			 strerror(errno ? errno : ENOMEM));
		goto fail;
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->work, NULL);
	for (; w->threads < AH_WORKER_THREADS; w->threads++) {
		int rc = thread_start_signal_free(&w->tids[w->threads],
						  worker_main, w);

		if (rc) {
			snprintf(err, errlen, "cannot start an AH worker: %s",
				 strerror(rc));
			ah_workers_stop(w);
			return -1;
		}
	}
	return 0;
fail:
	if (w->event_fd >= 0)
		close(w->event_fd);
	free(w->queue);
	free(w->done);
	memset(w, 0, sizeof(*w));
	w->event_fd = -1;
	return -1;
}

int ah_workers_submit(struct ah_workers *w, const struct ah_job *job)
{
	int rc = 0;

	pthread_mutex_lock(&w->lock);
	/* Results not yet taken hold room in done: keep queue + running +
	 * done within its size. */
	if (w->queued >= AH_WORKER_QUEUE ||
	    w->queued + w->done_count >= AH_WORKER_QUEUE) {
		rc = -EAGAIN;
	} else {
		w->queue[w->queued++] = *job;
		pthread_cond_signal(&w->work);
	}
	pthread_mutex_unlock(&w->lock);
	return rc;
}

int ah_workers_fd(const struct ah_workers *w)
{
	return w->event_fd;
}

size_t ah_workers_take(struct ah_workers *w, struct ah_job *out, size_t max)
{
	uint64_t count;
	size_t n;

	if (read(w->event_fd, &count, sizeof(count)) < 0) {
		/* EAGAIN: nothing signalled; the done list says the truth */
	}
	pthread_mutex_lock(&w->lock);
	n = w->done_count < max ? w->done_count : max;
	memcpy(out, w->done, n * sizeof(*out));
	memmove(w->done, w->done + n, (w->done_count - n) * sizeof(*w->done));
	w->done_count -= n;
	if (w->done_count) {
		uint64_t one = 1;

		if (write(w->event_fd, &one, sizeof(one)) < 0) {
			/* see worker_main */
		}
	}
	pthread_mutex_unlock(&w->lock);
	return n;
}

void ah_workers_stop(struct ah_workers *w)
{
	if (!w->queue)
		return;
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_broadcast(&w->work);
	pthread_mutex_unlock(&w->lock);
	for (size_t i = 0; i < w->threads; i++)
		pthread_join(w->tids[i], NULL);
	for (size_t i = 0; i < w->done_count; i++)
		if (w->done[i].ah)
			ibv_destroy_ah(w->done[i].ah);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->work);
	close(w->event_fd);
	free(w->queue);
	free(w->done);
	memset(w, 0, sizeof(*w));
	w->event_fd = -1;
}

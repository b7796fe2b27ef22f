/* serve's upkeep beside the answer loop: the receive queue's depth and
 * its drops (the port's counter, sampled; an empty queue seen), and the
 * neighbour watch that marks reply AHs whose next hop moved. */
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "base/monotonic.h"
#include "peer/responder.h"
#include "verbs/hw_counters.h"
#include "verbs/neigh_watch.h"

/* Receive drops (rq_drops.h): how many receives a poll took before any
 * was posted again, and a sample of the port's counter once a second. */
void responder_note_receives_taken(struct responder *r,
				const struct ud_completion *comps, int n)
{
	uint64_t taken = 0;

	for (int i = 0; i < n; i++)
		taken += ud_wc_is_recv(&comps[i].wc);
	rq_drop_note_taken(&r->rq_drops, taken);
}

void responder_sample_rq_drops(struct responder *r, uint64_t now)
{
	uint64_t counter = 0;
	bool read = r->rq_drops.counter_name &&
		    hw_counter_read(HW_COUNTERS_ROOT, r->dev->name,
				    r->port->port_num,
				    r->rq_drops.counter_name, &counter) == 0;

	rq_drop_sample_add(&r->rq_drops, now, read, counter);
}

/* Neighbour changes since the last look: read without waiting on
 * every turn of the loop (which wakes at least once a second, and at
 * once for a probe), so the poll set stays as it is. */
void responder_watch_neighbours(struct responder *r)
{
	struct neigh_change changes[32];
	bool overrun;
	size_t n, moved = 0;

	if (r->neigh_fd < 0)
		return;
	do {
		n = neigh_watch_read(r->neigh_fd, changes, 32, &overrun);
		if (overrun)
			moved += reverse_cache_all_moved(&r->reverse);
		for (size_t i = 0; i < n; i++)
			moved += reverse_cache_neigh_changed(&r->reverse,
							     &changes[i]);
	} while (n == 32);
	if (moved) {
		r->neigh_moves += moved;
		diag_verbose(1, "a next hop's neighbour entry changed: %zu "
			     "reply AHs made again on their next request",
			     moved);
	}
}

/* The device's max_qp_wr, asked before the QP exists (0: unknown). */
static uint32_t device_max_qp_wr(const char *name)
{
	struct ibv_device **devs;
	struct ibv_device_attr attr;
	uint32_t max = 0;
	int n;

	devs = ibv_get_device_list(&n);
	for (int i = 0; devs && i < n && !max; i++) {
		struct ibv_context *ctx;

		if (strcmp(ibv_get_device_name(devs[i]), name) != 0)
			continue;
		ctx = ibv_open_device(devs[i]);
		if (ctx && ibv_query_device(ctx, &attr) == 0 &&
		    attr.max_qp_wr > 0)
			max = (uint32_t)attr.max_qp_wr;
		if (ctx)
			ibv_close_device(ctx);
	}
	if (devs)
		ibv_free_device_list(devs);
	return max;
}

int responder_pick_rq_depth(struct responder *r, char *err, size_t len)
{
	return responder_rq_depth_for(r->config.rq_depth,
				      device_max_qp_wr(r->dev->name),
				      r->dev->name, &r->rq_depth, err, len);
}

/* The receive-drop counter of our port, said at -v either way. */
const char *responder_rq_drop_counter(const struct responder *r)
{
	const struct rq_drop_counter *c =
		rq_drop_counter_find(HW_COUNTERS_ROOT, r->dev->name,
				     r->port->port_num);

	if (c)
		diag_verbose(1, "receive-queue drops of %s port %u: counted "
			     "by hw_counters/%s (%s)", r->dev->name,
			     r->port->port_num, c->name, c->source);
	else
		diag_verbose(1, "receive-queue drops of %s port %u: no "
			     "counter for them under hw_counters/; only the "
			     "times serve finds its receive queue empty are "
			     "told", r->dev->name, r->port->port_num);
	return c ? c->name : NULL;
}

/* RoCE only: InfiniBand AHs hold no MAC. */
void responder_open_neighbour_watch(struct responder *r)
{
	char why[DIAG_MSG_MAX];

	r->neigh_fd = -1;
	if (r->port->link_layer != LINK_LAYER_ETHERNET)
		return;
	r->neigh_fd = neigh_watch_open(why, sizeof(why));
	if (r->neigh_fd < 0)
		diag_verbose(1, "%s: reply AHs are made again only after %u s",
			     why, r->config.ah_max_age_s);
}

/* The unicast side of a multicast boundary: see mcast_unicast.h. The
 * set-up is trace's on RoCE (cmd/trace_roce.c): the probe engine's
 * session for the rendezvous, the source GID and our UD QP, then
 * lib/trace/roce_tracer.h with one flow (flow label 0) per member. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe/mcast_unicast.h"
#include "probe/probe_engine.h"
#include "probe/roce_flow_cell.h"
#include "trace/roce_tracer.h"

/* Few hops: a member is on the fabric of the group, not across the
 * internet; two queries a hop ride out one lost datagram. */
#define MCAST_UNICAST_MAX_HOPS 16
#define MCAST_UNICAST_QUERIES 2

static void take_flow(const struct probe_session *s, struct roce_flow *f,
		      const struct probe_cell *c)
{
	roce_flow_from_cell(s, f, c);
	f->fidelity.method = TRACE_METHOD_SOCKET;
	f->fidelity.priority = -1;
	f->udp_sport = roce_flow_label_to_udp_sport(0);
	if (!c->target->ready)
		snprintf(f->error, sizeof(f->error), "%s",
			 c->target->error[0] ? c->target->error
					     : "no responder");
	else if (c->error[0])
		snprintf(f->error, sizeof(f->error), "%s", c->error);
}

/* A traced flow's routers: its path less the responder's own line at
 * the end. */
static void take_path(struct roce_flow *f, struct mcast_unicast_member *m)
{
	size_t routers;

	roce_flow_path(f, MCAST_UNICAST_QUERIES);
	m->traced = true;
	m->reached = f->trace.end == ROCE_TRACE_REACHED;
	routers = m->reached && f->path_len ? f->path_len - 1 : f->path_len;
	for (size_t i = 0; i < routers; i++) {
		snprintf(m->routers[i], sizeof(m->routers[i]), "%s",
			 f->path[i] ? f->path[i] : "");
		m->router_view[i] = f->path[i] ? m->routers[i] : NULL;
	}
	m->router_count = routers;
}

/* Nothing to do between flows: the paths are read once all are over. */
static int no_progress(void *ctx, bool quiet)
{
	(void)ctx;
	(void)quiet;
	return 0;
}

int mcast_unicast_trace(const struct device_info *dev,
			const struct port_info *port, int gid_index,
			uint32_t timeout_ms, const struct dest_list *members,
			struct mcast_unicast_member *out, char *err,
			size_t errlen)
{
	struct probe_session s = {
		.settings = {
			.count = 1, .size = PROBE_REQUEST_MIN_SIZE,
			.window = 1, .timeout_ms = timeout_ms,
			.gid_index = gid_index, .skip_local_port = true,
		},
	};
	struct probe_target *targets;
	struct roce_flow *flows;
	struct roce_tracer tracer = { .raw_fd = { -1, -1 } };
	size_t n = members->count, ready = 0;
	int rc = -1;

	memset(out, 0, n * sizeof(*out));
	probe_session_init(&s, dev, port);
	targets = calloc(n ? n : 1, sizeof(*targets));
	flows = calloc(n ? n : 1, sizeof(*flows));
	if (!targets || !flows || probe_session_alloc_cells(&s, n)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		targets[i].dest = &members->items[i];
		s.cells[i].target = &targets[i];
		s.cells[i].asked = (struct probe_params){ .hop_limit = 64 };
	}
	probe_session_resolve_targets(&s);
	for (size_t i = 0; i < n; i++)
		ready += targets[i].ready;
	if (ready && probe_session_open(&s, dev, port, err, errlen))
		goto out;
	if (ready)
		probe_session_prepare(&s);
	roce_tracer_init(&tracer, &s.ep, s.probe_id, MCAST_UNICAST_MAX_HOPS,
			 MCAST_UNICAST_QUERIES, timeout_ms);
	tracer.silent_after = ROCE_TRACE_SILENT_AFTER;
	tracer.provider = s.provider;
	for (size_t i = 0; i < n; i++)
		take_flow(&s, &flows[i], &s.cells[i]);
	if (ready && roce_tracer_run(&tracer, flows, n, no_progress, NULL)) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		if (flows[i].error[0])
			snprintf(out[i].error, sizeof(out[i].error), "%s",
				 flows[i].error);
		else
			take_path(&flows[i], &out[i]);
	}
	rc = 0;
out:
	roce_tracer_close(&tracer);
	if (s.cells)
		probe_session_close(&s);
	free(flows);
	free(targets);
	return rc;
}

void mcast_unicast_as_silent(const struct mcast_unicast_member *m,
			     struct mcast_silent_member *s)
{
	*s = (struct mcast_silent_member){
		.unicast_probed = m->traced,
		.unicast_reached = m->reached,
		.path = { .routers = m->router_view,
			  .count = m->router_count },
	};
}

/* The unicast side of a multicast boundary: the expected members that
 * were silent to a group, each traced once as `trace` does on RoCE (the
 * rendezvous with its serve, RoCE v2 datagrams hop by hop, the routers'
 * time exceeded, the responder's reply at the end), for whether it
 * answers unicast and over which routers (probe/mcast_boundary.h). */
#ifndef IBAHPROBE_MCAST_UNICAST_H
#define IBAHPROBE_MCAST_UNICAST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/dest.h"
#include "base/diag.h"
#include "probe/mcast_boundary.h"
#include "trace/roce_trace.h"
#include "verbs/device.h"

struct mcast_unicast_member {
	bool traced;		/* false: error says why */
	bool reached;		/* its responder answered the trace */
	char error[DIAG_MSG_MAX * 2];
	/* The routers of its path, in order ("" where a hop was silent),
	 * the member itself not among them. */
	char routers[ROCE_TRACE_MAX_HOPS][46];
	size_t router_count;
	/* routers as mcast_boundary takes them (NULL for a silent hop). */
	const char *router_view[ROCE_TRACE_MAX_HOPS];
};

/* Traces each of members (RoCE destinations: addresses or host names,
 * with their rendezvous ports) from dev's port; out has one per member.
 * gid_index -1: chosen per member. Returns 0, or -1 with err set when
 * nothing could be traced (out of memory, no QP). */
int mcast_unicast_trace(const struct device_info *dev,
			const struct port_info *port, int gid_index,
			uint32_t timeout_ms, const struct dest_list *members,
			struct mcast_unicast_member *out, char *err,
			size_t errlen);

/* What member m says to mcast_boundary_infer. */
void mcast_unicast_as_silent(const struct mcast_unicast_member *m,
			     struct mcast_silent_member *s);

#endif

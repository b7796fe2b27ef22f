/* A RoCE v2 trace on the page: per flow its hops (text lines and the
 * JSON objects of ibahprobe.trace.v1, each field through one out_ call),
 * where the traffic class changed, and after a sweep of several flows of
 * a destination the distinct router paths they took. */
#ifndef IBAHPROBE_ROCE_TRACE_PRINT_H
#define IBAHPROBE_ROCE_TRACE_PRINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/roce_tracer.h"
#include "trace/trace_paths.h"
#include "verbs/provider.h"

#define ROCE_TRACE_SCHEMA "ibahprobe.trace.v1"

struct roce_trace_printer {
	/* Who traced, as probe's results name their source (source.host,
	 * device), so report --traces joins a flow with the probe results
	 * of the same host, source GID and destination. */
	const char *host, *device;
	unsigned queries;	/* per hop */
	/* Several flows per destination (flow labels or UDP source
	 * ports): the path summary, and in text the flows with -v only. */
	bool sweep;
	bool printed;	/* something is on the page (a blank line goes between) */
	/* The probing device's provider: whether a flow's UDP source port
	 * is the probes' (roce_trace_label_note). */
	enum provider provider;
	/* Where the flow labels came from (trace's --flow-label, -f FILE's
	 * flow-label line, --failed RESULTS): each record's
	 * "flow_label_source"; NULL: "default". */
	const char *flow_label_source;
	/* Scratch for one destination's flows (flows_max of them). */
	struct trace_path_flow *pf;
	unsigned *index;
	uint32_t *labels;
};

/* Returns 0, or -1 when out of memory (then free it all the same). */
/* Whether a trace of flow label flow_label (not a --udp-sport) follows
 * the probes of provider p: mlx5 and hns send flow label 0 from a random
 * UDP source port per AH (mlx5_ah_set_udp_sport, providers/mlx5/verbs.c;
 * hns get_ah_udp_sport, providers/hns/hns_roce_u_verbs.c), so the trace
 * of label 0 (port 0xc000) need not take their path. false with a
 * sentence saying so in buf; true (buf empty) otherwise. */
bool roce_trace_label_followed(enum provider p, bool port_given,
			       uint32_t flow_label, char *buf, size_t len);

int roce_trace_printer_init(struct roce_trace_printer *p, const char *host,
			    const char *device, unsigned queries, bool sweep,
			    size_t flows_max);
void roce_trace_printer_free(struct roce_trace_printer *p);

/* Once a destination's n flows are traced (roce_flow_path): their path
 * numbers, then the flows and, for a sweep, the path summary (text).
 * Returns -1 when out of memory. */
int roce_trace_print_destination(struct roce_trace_printer *p,
				 struct roce_flow *flows, size_t n);

#endif

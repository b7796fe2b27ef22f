/* ibahprobe trace on a RoCE v2 port: hop by hop with real RoCE v2 UD
 * datagrams from a kernel UDP socket (lib/trace/roce_sock.h, lib/wire/roce_packet.h),
 * routers answering time exceeded, the responder answering the last one
 * (cmd/trace.c hands RoCE ports here). */
#ifndef IBAHPROBE_TRACE_ROCE_H
#define IBAHPROBE_TRACE_ROCE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "base/dest.h"
#include "base/parse.h"

/* One flow of a destination: a flow label, or a UDP source port as
 * given (by_port). */
struct trace_flow_key {
	uint32_t value;
	bool by_port;
};

struct trace_roce_options {
	unsigned max_hops, queries;
	/* Queries in flight at once over all flows (1: one at a time), and
	 * sent per second at most. */
	unsigned max_in_flight;
	uint32_t rate;
	/* --max-hops was given: sweep to it, even when nothing answers
	 * after the last router (else ROCE_TRACE_SILENT_AFTER ends it). */
	bool max_hops_given;
	/* Flow labels (each one flow, one path under ECMP) and traffic
	 * classes to trace; empty: 0 only. */
	const struct value_list *flow_labels, *traffic_classes;
	/* UDP source ports to trace instead of flow labels (the port a
	 * probe result's wire_udp_sport names); empty: by flow label. */
	const struct value_list *udp_sports;
	/* --nic: UD sends from our QP (lib/trace/nic_tracer.h) instead of
	 * the socket's crafted datagrams. */
	bool nic;
	/* --failed: each destination traced with its own flow label, or
	 * UDP source port, one per destination (NULL: the lists above). */
	const struct trace_flow_key *per_dest;
	/* Where the flow labels came from, the records'
	 * "flow_label_source": "default", "command_line", "file",
	 * "failed". */
	const char *flow_label_source;
};

/* Traces every destination (rendezvous with its serve first, as probe
 * does); the exit status: 0 every flow reached its responder, 1 some did
 * not, 2/3 as usual (3 also for --nic where the provider does not send
 * the AH's hop limit or without CAP_NET_RAW). */
int trace_roce_run(const struct common_opts *common,
		   const struct dest_list *dests,
		   const struct trace_roce_options *o);

#endif

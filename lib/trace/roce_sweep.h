/* Many RoCE v2 traces at once (a flow-label sweep, several destinations),
 * as Paris traceroute and scamper keep probes in flight: which flow sends
 * its next query now, given each flow's own schedule (roce_trace.h), the
 * queries in flight over all flows, a bounded query rate and the flows
 * that may not run together (one UDP source port of one source address is
 * one socket: two flows on it at once could not tell their ICMP apart).
 *
 * Pure, like roce_trace.h: the caller asks roce_sweep_next() what to do
 * at a time, opens a flow's socket when told it starts, sends, feeds the
 * answers to the flow's trace, and closes the socket when told the flow is
 * done (tests/unit/test_roce_sweep.c). */
#ifndef IBAHPROBE_ROCE_SWEEP_H
#define IBAHPROBE_ROCE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/roce_trace.h"

/* Queries per second over a whole run, by default: below the 1000 ICMP
 * messages per second a Linux router sends at most
 * (net.ipv4.icmp_msgs_per_sec), a few times what mtr sends to a path of
 * 16 hops in a second. */
#define ROCE_SWEEP_DEFAULT_RATE 50
#define ROCE_SWEEP_MAX_RATE 10000
/* Queries in flight over a whole run, by default: as many as traceroute
 * sends at once (-N 16), twice. */
#define ROCE_SWEEP_DEFAULT_IN_FLIGHT 32
#define ROCE_SWEEP_MAX_IN_FLIGHT 1024

struct roce_sweep_settings {
	unsigned max_in_flight;	/* queries, over all flows; 1: serial */
	uint32_t rate;		/* queries per second, evenly spaced */
};

enum roce_sweep_flow_state {
	ROCE_SWEEP_PENDING,
	ROCE_SWEEP_RUNNING,
	ROCE_SWEEP_FINISHED,
};

struct roce_sweep_flow {
	struct roce_trace *trace;	/* initialised by the caller */
	/* Flows of equal key never run at once (the source address and
	 * UDP source port they bind). */
	uint64_t key;
	enum roce_sweep_flow_state state;
};

struct roce_sweep {
	struct roce_sweep_settings settings;
	struct roce_sweep_flow *flows;
	size_t count;
	size_t *running;	/* indices of the running flows, in order */
	size_t running_count;
	size_t first_pending;	/* no flow before it is pending */
	size_t finished;
	uint64_t next_send_ns;	/* the rate: the earliest next send */
	bool started;		/* something was sent (next_send_ns holds) */
	/* No flow starts and none sends (the caller waits for quiet). */
	bool hold;
};

enum roce_sweep_step_kind {
	ROCE_SWEEP_START,	/* open flow's socket, then ask again */
	ROCE_SWEEP_SEND,	/* send step of flow */
	ROCE_SWEEP_FLOW_DONE,	/* flow's trace ended: close its socket */
	ROCE_SWEEP_WAIT,	/* nothing before until_ns (answers aside) */
	ROCE_SWEEP_DONE,	/* every flow finished */
};

struct roce_sweep_step {
	enum roce_sweep_step_kind kind;
	size_t flow;
	struct roce_step step;	/* SEND */
	uint64_t until_ns;	/* WAIT; UINT64_MAX: only answers */
};

/* -1 when the settings are out of range or out of memory. Every flow
 * pending; set each one's trace and key before the first step. */
int roce_sweep_init(struct roce_sweep *s, const struct roce_sweep_settings *st,
		    size_t count);
void roce_sweep_free(struct roce_sweep *s);
/* A flow that will not run (it failed before, or its socket did not
 * open): finished without a FLOW_DONE step. */
void roce_sweep_drop(struct roce_sweep *s, size_t flow);
/* What to do at now_ns. A SEND counts as sent at now_ns (the flow's
 * trace and the rate). */
struct roce_sweep_step roce_sweep_next(struct roce_sweep *s, uint64_t now_ns);
/* Queries in flight over the running flows. */
unsigned roce_sweep_in_flight(const struct roce_sweep *s);

#endif

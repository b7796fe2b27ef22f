/* The flows to trace after a probe run, as 007 traces the flows that lost
 * packets: each distinct (destination, flow label) of the run's results
 * whose status is not reachable, and on RoCE the UDP source port its
 * probes carried where the result names it (wire_udp_sport), read from
 * probe -j or --jsonl output (trace --failed). */
#ifndef IBAHPROBE_FAILED_FLOWS_H
#define IBAHPROBE_FAILED_FLOWS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/strmap.h"

/* More distinct failing flows than this in one input is refused: a
 * whole fabric's failures are traced in parts, by the hosts that saw
 * them. */
#define FAILED_FLOWS_MAX 100000

struct failed_flow {
	char *dest;		/* the result's "dest", as probe was given it */
	uint32_t flow_label;
	int32_t udp_sport;	/* wire_udp_sport; -1: not named */
	unsigned long line;	/* where its first result ended */
};

struct failed_flows {
	size_t count, capacity;
	struct failed_flow *items;	/* in the order first seen */
	/* The results read, and of them the reachable ones (skipped). */
	size_t results, reachable;
	struct strmap seen;
};

/* Reads the records of in (label names it in messages: "FILE:LINE: ...")
 * into flows: JSON values one after another, each a record or an array
 * of records; records of other kinds than "result" (summary, error)
 * are skipped. Returns 0, or -1 with err: input that is no JSON, a
 * value that is no probe record, a result without its dest, status or
 * params.flow_label, or with values out of range. */
int failed_flows_read(struct failed_flows *flows, FILE *in,
		      const char *label, char *err, size_t errlen);
void failed_flows_free(struct failed_flows *flows);

#endif

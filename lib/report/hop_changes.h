/* A changed hop count as a signal (report --traces): a probe result that
 * crossed another number of routers than the complete trace of the same
 * flow. Either the route changed between probe and trace (a link went
 * down, ECMP rehashed, a router was added), or a router on the way does
 * not decrement the hop limit (or rewrites it): both worth naming beside
 * the loss, as issue 27 asks. Only RoCE traces whose every hop answered
 * up to the destination count: a silent hop hides how many there were. */
#ifndef IBAHPROBE_HOP_CHANGES_H
#define IBAHPROBE_HOP_CHANGES_H

#include <stddef.h>

#include "report/report_matrix.h"
#include "report/report_traces.h"

struct hop_change {
	const struct report_record *record;
	const struct report_trace_flow *trace;
	int hops;		/* the result's (hop limit sent - seen) */
	int trace_hops;		/* the routers its trace crossed */
};

struct hop_changes {
	struct hop_change *items;	/* in the results' order */
	size_t count;
	size_t compared;	/* results with a complete trace and hops */
};

/* The routers a RoCE trace crossed to its destination, when it reached
 * it with every hop answering (links and routers alternating from the
 * source, the last link ending at the destination's address); -1 when
 * not known (a silent hop, no answer from the destination, InfiniBand). */
int hop_changes_trace_hops(const struct report_trace_flow *fl,
			   const struct report_traces *t);

/* 0, or -1 when memory ran out. */
int hop_changes_find(struct hop_changes *hc, const struct report *r,
		     const struct report_traces *t);
void hop_changes_free(struct hop_changes *hc);

#endif

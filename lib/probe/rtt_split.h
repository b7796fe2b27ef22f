/* One round trip split into the network's share and the responder's:
 * network = (t4 - t1) - (t3 - t2), from whichever stamps each end has
 * (device completion timestamps, or CLOCK_MONOTONIC as completions were
 * polled). A function of plain numbers, so every mix is unit-tested. */
#ifndef IBAHPROBE_RTT_SPLIT_H
#define IBAHPROBE_RTT_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/stamp_source.h"

/* What one answered probe brought together. Differences are taken on one
 * clock each (the prober's for t4 - t1, the responder's for t3 - t2), so
 * the two hosts' clocks need not agree. */
struct rtt_stamps {
	/* The prober's CLOCK_MONOTONIC: right before ibv_post_send, and as
	 * the reply's completion was polled; its wait mode. */
	uint64_t sent_ns, received_ns;
	enum stamp_source prober_wait;	/* STAMP_SW_EVENT or STAMP_SW_BUSY */
	/* t4 - t1 from the prober's device: the request's send completion
	 * to the reply's receive completion, already in ns. */
	bool prober_hw;
	uint64_t prober_hw_ns;
	/* The responder's software dwell (request polled to reply posted)
	 * and its wait mode; unknown from an older responder. */
	bool dwell_known;
	uint64_t dwell_ns;
	enum stamp_source responder_wait;
	/* t3 - t2 from the responder's device (its stamps message). */
	bool responder_hw;
	uint64_t responder_hw_ns;
};

struct rtt_split {
	uint64_t rtt_ns;	/* end to end, the prober's software stamps */
	bool network_known;
	uint64_t network_ns;
	bool dwell_known;
	uint64_t dwell_ns;	/* the responder's share that was taken off */
	/* What the network figure rests on: the weaker of the two ends'
	 * sources; STAMP_UNKNOWN when it is not known. */
	enum stamp_source source;
	/* The responder's share came out longer than the round trip (one
	 * host's clock ran off, or mixed stamps): network is 0. */
	bool clock_error;
};

void rtt_split(const struct rtt_stamps *in, struct rtt_split *out);

#endif

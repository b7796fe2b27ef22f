/* A continuous run's rounds (probe --continuous --interval-round): what
 * one destination and parameter set did in the round just closed (its
 * own counts and RTT quantiles, for JSON Lines and the loss gauge) and
 * since the start (64-bit totals, for Prometheus counters). Pure: the
 * caller passes the cell's running counts and the clocks. */
#ifndef IBAHPROBE_PROBE_ROUND_H
#define IBAHPROBE_PROBE_ROUND_H

#include <stdbool.h>
#include <stdint.h>

#include "probe/rtt_stats.h"

/* The cell's state when a round closes. */
struct probe_round_input {
	uint32_t resolved;	/* probes answered or past their deadline */
	uint32_t received;	/* answered in time (each has an RTT sample) */
	const struct rtt_samples *rtt;
	uint64_t last_reply_ns;	/* CLOCK_MONOTONIC; 0: never answered */
	uint64_t now_ns;	/* CLOCK_MONOTONIC at the round's end */
	double now_unix;	/* CLOCK_REALTIME at the same moment */
};

struct probe_round_cell {
	/* The cell's counts when the previous round closed: the engine's
	 * 32-bit counters, so a delta stays right across their wrap. */
	uint32_t resolved_mark, received_mark;
	/* The round just closed. */
	uint32_t sent, received;
	bool has_rtt;
	struct rtt_summary rtt;	/* of the round's replies only */
	/* Since the start of the run. */
	uint64_t sent_total, received_total;
	uint64_t rtt_count;
	double rtt_sum_s;
	double last_success_unix;	/* 0: never */
};

/* Closes the round of one cell: the round's counts are the deltas since
 * the previous close, its RTT quantiles those of its newest replies. */
void probe_round_close(struct probe_round_cell *r,
		       const struct probe_round_input *in);

/* The round's loss ratio (lost / resolved); false when no probe of this
 * round resolved (nothing to say, rather than 0). */
bool probe_round_loss_ratio(const struct probe_round_cell *r, double *ratio);

#endif

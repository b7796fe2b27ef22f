/* serve's evidence that probes died in its own receive queue: samples of
 * the port's receive-drop counter (verbs/hw_counters.h) and of the times
 * serve saw its receive queue run empty, kept over time so the count
 * question can be answered for the span of one prober's run (the
 * question's age_ms). Pure: the caller reads the counter and the clock. */
#ifndef IBAHPROBE_RQ_DROPS_H
#define IBAHPROBE_RQ_DROPS_H

#include <stdbool.h>
#include <stdint.h>

#include "peer/rendezvous_count.h"

/* One sample a second, ten minutes of them: a longer run's answer covers
 * its last ten minutes and says so (covers_run false). */
#define RQ_DROP_SAMPLE_NS 1000000000ull
#define RQ_DROP_SAMPLES 600

struct rq_drop_sample {
	uint64_t at_ns;
	uint64_t counter;	/* meaningless without a counter */
	uint64_t rq_empty;
};

struct rq_drop_history {
	const char *counter_name;	/* NULL: the port has none */
	struct rq_drop_sample samples[RQ_DROP_SAMPLES];
	uint32_t first, count;	/* a ring: oldest at first */
	/* Receive WQEs posted and receive completions taken since open,
	 * and the times serve found every posted receive consumed. */
	uint64_t recv_posted, recv_taken, rq_empty;
};

/* counter_name: rq_drop_counter_pick's, NULL when none; recv_depth: the
 * receives posted at open. */
void rq_drop_history_init(struct rq_drop_history *h, const char *counter_name,
			  uint64_t recv_depth);

/* A poll took taken receive completions, before any of them was posted
 * again: when that consumed every receive posted so far, the queue was
 * empty (a packet arriving then was dropped by the device). */
void rq_drop_note_taken(struct rq_drop_history *h, uint64_t taken);
/* One receive posted again. */
void rq_drop_note_posted(struct rq_drop_history *h);

/* Whether a new sample is due (a second since the last, or none yet). */
bool rq_drop_sample_due(const struct rq_drop_history *h, uint64_t now_ns);
/* Adds a sample (counter ignored without a counter_name; a counter that
 * could not be read this time repeats the last value). */
void rq_drop_sample_add(struct rq_drop_history *h, uint64_t now_ns,
			bool counter_read, uint64_t counter);

/* What happened since since_ns, from the last sample at or before it
 * (the oldest when none is that old: covers_run false) to the newest. */
void rq_drop_history_since(const struct rq_drop_history *h, uint64_t since_ns,
			   struct rendezvous_rq_drops *out);

#endif

/* The parts of one round trip's timing arrive apart: the request's send
 * completion (t1 on the device clock), the reply (the prober's software
 * stamps, t4, the responder's software dwell), and, from a responder
 * with device timestamps, a stamps message with t3 - t2 after the reply
 * itself was sent. The join holds them by sequence until the round trip
 * can be split (rtt_split), or until the stamps message is overdue. */
#ifndef IBAHPROBE_RTT_JOIN_H
#define IBAHPROBE_RTT_JOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/rtt_split.h"

/* The device clock's difference of two raw stamps in ns (the UD
 * endpoint's, with its wrap; a test's own). */
typedef uint64_t (*rtt_join_delta_fn)(const void *clock, uint64_t from,
				      uint64_t to);
/* A round trip split: the cell it belongs to, its figures, and whether
 * it had waited for a stamps message (rtt_join_reply's stamps_follow). */
typedef void (*rtt_join_done_fn)(void *ctx, uint32_t cell,
				 const struct rtt_split *split, bool waited);

struct rtt_join_entry {
	bool used, replied;
	uint32_t sequence, cell;
	bool sent_hw, recv_hw;
	uint64_t sent_stamp, recv_stamp;	/* raw device units */
	struct rtt_stamps stamps;	/* the reply's, software */
	uint64_t wait_until_ns;	/* the stamps message is overdue then */
};

struct rtt_join {
	struct rtt_join_entry *entries;
	size_t size;
	rtt_join_delta_fn delta;
	const void *clock;
	rtt_join_done_fn done;
	void *ctx;
	size_t waiting;		/* replied, the stamps message not yet in */
};

/* size: more than the probes in flight plus those waiting for stamps
 * (a slot still waiting when its sequence comes round again is split
 * with what it has). Returns 0, or -1 out of memory. */
int rtt_join_init(struct rtt_join *j, size_t size, rtt_join_delta_fn delta,
		  const void *clock, rtt_join_done_fn done, void *ctx);
void rtt_join_free(struct rtt_join *j);

/* A request went out with this sequence for cell. */
void rtt_join_sent(struct rtt_join *j, uint32_t sequence, uint32_t cell);
/* Its send completion carried a device timestamp. */
void rtt_join_send_stamp(struct rtt_join *j, uint32_t sequence,
			 uint64_t stamp);
/* Its reply came in time: software stamps and dwell in `stamps`, the
 * receive completion's device stamp when recv_hw. With stamps_follow the
 * split waits for the stamps message until now + wait_ns; else it is
 * split now. Unknown sequences are split at once with what they have. */
void rtt_join_reply(struct rtt_join *j, uint32_t sequence, uint32_t cell,
		    const struct rtt_stamps *stamps, bool recv_hw,
		    uint64_t recv_stamp, bool stamps_follow, uint64_t now,
		    uint64_t wait_ns);
/* The responder's stamps message: its device dwell (t3 - t2) or none. */
void rtt_join_stamps(struct rtt_join *j, uint32_t sequence, bool known,
		     uint64_t hw_dwell_ns);
/* Splits every reply whose stamps message is overdue at now (all of them
 * with `all`: the run is over). */
void rtt_join_expire(struct rtt_join *j, uint64_t now, bool all);

#endif

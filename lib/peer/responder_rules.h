/* The decisions of serve's responder as plain functions of plain inputs:
 * why a packet gets no reply, the reply rate cap, where a reply goes
 * against its reply AH, what a device event does, when the loop stops and
 * what the rendezvous' count question gets. No device is touched here. */
#ifndef IBAHPROBE_RESPONDER_RULES_H
#define IBAHPROBE_RESPONDER_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "peer/rendezvous_count.h"
#include "peer/request_counts.h"
#include "peer/reverse_cache.h"
#include "wire/probe_wire.h"

/* Receive WQEs posted by default: every prober a plan can aim at one
 * host in a round ((group size - 1) + K, fleet_plan.h; 32 for a group of
 * 17 and the default K of 16) with its whole default window in flight
 * (PROBE_DEFAULT_WINDOW, 32) at once. serve --rq-depth changes it. */
#define RESPONDER_RECV_DEPTH 1024
#define RESPONDER_RECV_DEPTH_MAX 65536

/* Why a received packet got no reply. */
enum responder_drop {
	DROP_TRUNCATED, DROP_BAD_MAGIC, DROP_BAD_VERSION, DROP_BAD_KIND,
	DROP_BAD_LENGTH, DROP_NOT_REQUEST, DROP_RECV_ERROR, DROP_REVERSE_AH,
	DROP_REVERSE_BUSY, DROP_BAD_GRH, DROP_RATE_LIMIT, DROP_SEND_FAILED,
	DROP_COUNT,
};

/* The summary's key of each reason ("dropped": {...}). */
extern const char *const responder_drop_names[DROP_COUNT];

/* The reason for a probe header that did not decode. */
enum responder_drop responder_drop_for(enum probe_decode_error err);

/* Token bucket of the reply rate cap (--max-rate). */
struct reply_rate {
	double tokens;
	uint64_t last_refill_ns;
};

/* Full enough for one reply at once, counting from now_ns. */
void reply_rate_start(struct reply_rate *b, uint64_t now_ns);
/* Refills for the time since the last call (a burst of 100 ms at most)
 * and takes one token: false when there is none, the reply is dropped. */
bool reply_rate_take(struct reply_rate *b, uint32_t max_rate,
		     uint64_t now_ns);

/* What becomes of a valid request, by its sender's reply AH. */
enum reply_route {
	REPLY_START,	/* no entry: a slot, and a worker makes the AH */
	REPLY_SEND,	/* READY: sent now */
	REPLY_PARK,	/* PENDING: waits for the AH */
	REPLY_RETRY,	/* FAILED, back-off over: a worker tries again */
	REPLY_BACK_OFF,	/* FAILED a moment ago: dropped (reverse_ah) */
};

/* e: the cache's entry for the request's key, NULL when none. */
enum reply_route reply_route_for(const struct reverse_entry *e,
				 uint64_t now_ns);

/* What a worker's finished AH job means. */
enum ah_result_fate {
	AH_RESULT_STALE,	/* slot reused or port changed: discarded */
	AH_RESULT_FAILED,	/* no AH: back-off, parked replies dropped */
	AH_RESULT_READY,	/* the parked replies go */
};

/* e: the pending entry the job names (reverse_cache_pending), NULL when
 * it was reused; the epochs are the job's and the responder's now. */
enum ah_result_fate ah_result_fate_of(const struct reverse_entry *e,
				      uint32_t job_epoch, uint32_t epoch,
				      bool made_ah);

/* What a worker's successor for a READY entry's AH means (refresh). */
enum ah_refresh_fate {
	AH_REFRESH_STALE,	/* entry reused or port changed: discarded */
	AH_REFRESH_KEEP_OLD,	/* no AH made: the old one goes on */
	AH_REFRESH_SWAP,	/* the new AH replaces the old, which retires */
};

/* e: the READY entry the job names (reverse_cache_ready), NULL when it
 * was dropped or reused. */
enum ah_refresh_fate ah_refresh_fate_of(const struct reverse_entry *e,
					uint32_t job_epoch, uint32_t epoch,
					bool made_ah);

/* A first failure with replies waiting is tried once more at once: on a
 * first contact the neighbour often answers just after the kernel gave
 * up on it (ARP/ND), and the replies parked meanwhile can still go. */
bool reverse_retry_at_once_wanted(const struct reverse_entry *e);

/* Whether a retired AH's sends have all completed, so it may go. */
bool reverse_retired_done(const struct reverse_retired *r,
			  uint64_t sends_completed);

/* What an asynchronous event of the device does to the responder. */
enum responder_event_action {
	EVENT_LOGGED,		/* said at -v, nothing else */
	EVENT_FATAL,		/* our QP, CQ or the device is dead: stop */
	EVENT_OTHER_PORT,	/* a port event of another port: ignored */
	EVENT_PORT_CHANGED,	/* drop the reply AHs, read the port again */
	/* As EVENT_PORT_CHANGED, and the SA record is registered again at
	 * once: the SM lost its records (restart, failover). */
	EVENT_PORT_REREGISTER,
};

enum responder_event_action responder_event_action_of(enum ibv_event_type type,
						      int event_port,
						      uint8_t our_port);

/* Why the loop stops now, or NULL to go on. fatal: an error was seen;
 * stop_signal: the signal that asked us to stop (0: none); count: stop
 * after this many answers (0: never); end_ns: the --duration deadline
 * (0: none). */
const char *responder_stop_reason(bool fatal, int stop_signal, uint64_t count,
				  uint64_t answered, uint64_t end_ns,
				  uint64_t now_ns);

/* How long to wait for completions, in ms: a second, or until just past
 * the --duration deadline when that is sooner. */
int responder_wait_ms(uint64_t end_ns, uint64_t now_ns);

/* The rendezvous' count question: a set absent from the table was never
 * seen when nothing evicted was used since the run began. On RoCE a LID
 * is no part of the set (request_set_key_of). */
void responder_count_answer(const struct request_counts *counts,
			    bool infiniband,
			    const struct rendezvous_count_question *q,
			    uint64_t now_ns,
			    struct rendezvous_count_answer *a);

/* The receive queue's depth: asked (serve --rq-depth; 0: the default,
 * RESPONDER_RECV_DEPTH, lowered to what the device allows), against the
 * device's max_qp_wr (0: unknown, not checked). -1 with err when asked
 * is more than the device allows. */
int responder_rq_depth_for(uint32_t asked, uint32_t max_qp_wr,
			   const char *device, uint32_t *depth, char *err,
			   size_t errlen);

#endif

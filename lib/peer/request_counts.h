/* The responder's count of the requests it received per prober set: a
 * set is one prober run (probe id) from one sender (source GID, LID and
 * QPN) with one parameter set (hop limit, traffic class, SL, flow label),
 * so the sets of a sweep are told apart. Each reply carries its set's
 * count, and the prober can ask for the final one over the rendezvous:
 * probes the responder never saw were lost on the way there, those it
 * answered but the prober missed on the way back. Bounded: when full, the
 * set used least recently is forgotten (a flood of senders cannot grow
 * it; a forgotten set's prober gets "unknown", never a wrong count). */
#ifndef IBAHPROBE_REQUEST_COUNTS_H
#define IBAHPROBE_REQUEST_COUNTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "wire/probe_wire.h"

/* Sets serve remembers (serve(8) says so). */
#define REQUEST_COUNTS_MAX 4096

struct request_set_key {
	uint32_t probe_id;
	union ibv_gid sgid;	/* zero without a GRH */
	uint16_t slid;		/* 0 on RoCE: LIDs mean nothing there */
	uint32_t src_qp;
	struct probe_params asked;
};

/* Why a request that arrived got no reply: the count answer says so, so
 * a prober can tell a responder still making its way back (first
 * contact: the neighbour of its reply AH not yet resolved) from a path
 * that is blocked. */
enum request_unanswered {
	/* No reply AH to the sender yet: parked while a worker makes it
	 * (beyond REVERSE_PARK_MAX parked, the rest dropped), or its
	 * creation failed and is backing off. */
	UNANSWERED_RESOLVING,
	UNANSWERED_RATE_LIMIT,	/* serve --max-rate */
	UNANSWERED_SEND_FAILED,	/* the reply's post failed */
	UNANSWERED_COUNT,
};

struct request_set_count {
	struct request_set_key key;
	uint32_t received;	/* valid requests that arrived */
	uint32_t answered;	/* replies posted */
	uint32_t unanswered[UNANSWERED_COUNT];	/* dropped, by reason */
	uint32_t parked;	/* waiting now for their reply AH */
	/* Of the answered, those posted only after waiting for their reply
	 * AH: a prober that stopped waiting first never saw them. */
	uint32_t answered_after_park;
	/* Links (slot indexes, REQUEST_COUNTS_NONE at the ends): the hash
	 * chain, and the use order (most recent first). */
	uint32_t hash_next, newer, older;
	uint64_t last_use_ns;	/* the caller's clock at its latest request */
};

#define REQUEST_COUNTS_NONE UINT32_MAX

struct request_counts {
	struct request_set_count *sets;
	uint32_t capacity, used;
	uint32_t *buckets;
	uint32_t bucket_mask;
	uint32_t seed;		/* keys a sender chooses cannot aim at one chain */
	uint32_t newest, oldest;
	uint64_t evicted;
	/* The latest last use of any set evicted so far: a set used only
	 * after it cannot have been evicted. */
	uint64_t newest_evicted_use_ns;
};

/* seed: random per process (getrandom); tests pass a fixed one. */
int request_counts_init(struct request_counts *t, uint32_t capacity,
			uint32_t seed);
void request_counts_free(struct request_counts *t);

/* One more request of key's set at now_ns: the set, created when new
 * (evicting the least recently used one when full). Never NULL once
 * initialised. */
struct request_set_count *request_counts_note(struct request_counts *t,
					      const struct request_set_key *k,
					      uint64_t now_ns);
/* One more reply posted for key's set, was_parked when it waited for
 * its reply AH (nothing when the set was forgotten meanwhile). */
void request_counts_note_answer(struct request_counts *t,
				const struct request_set_key *k,
				bool was_parked);
/* A request of key's set dropped unanswered, and why (nothing when the
 * set was forgotten meanwhile). */
void request_counts_note_unanswered(struct request_counts *t,
				    const struct request_set_key *k,
				    enum request_unanswered why);
/* A reply of key's set parked for its reply AH (parked true), or taken
 * from the park, sent or dropped (false). */
void request_counts_note_parked(struct request_counts *t,
				const struct request_set_key *k, bool parked);
/* The JSON name of a reason: "resolving", "rate_limited", "send_failed". */
const char *request_unanswered_name(enum request_unanswered why);
/* The set of key, or NULL when never seen or forgotten. */
const struct request_set_count *
request_counts_find(const struct request_counts *t,
		    const struct request_set_key *k);

/* The set a request belongs to, from the reply being built for it (the
 * echoed header and what was observed): the same key when the request
 * arrives and when its reply leaves, parked or not. On InfiniBand the
 * sender's LID is part of it; on RoCE wc.slid means nothing. */
void request_set_key_of(const struct probe_reply *r, bool infiniband,
			struct request_set_key *k);

/* Whether a set absent from the table was never seen, for a run that
 * began at since_ns: true when every set evicted so far was last used
 * before it (LRU order: none of the run's sets can have gone yet). */
bool request_counts_absent_means_unseen(const struct request_counts *t,
					uint64_t since_ns);

bool request_set_key_equal(const struct request_set_key *a,
			   const struct request_set_key *b);

#endif

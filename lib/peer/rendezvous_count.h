/* The rendezvous' one question: after a run with loss, how many requests
 * of one set (probe id, the prober's GID, LID and QPN, the parameters)
 * did the responder receive and answer? The prober sends one JSON line
 *   {"question":"count","probe_id":..,"qpn":..,"gid":"..","lid":..,
 *    "hop_limit":..,"traffic_class":..,"sl":..,"flow_label":..,
 *    "age_ms":..}
 * and serve answers
 *   {"version":1,"count":{"known":true,"received":N,"answered":N,
 *    "unanswered":{"resolving":N,"rate_limited":N,"send_failed":N}}}
 * ("known":false when it no longer remembers the set). "unanswered"
 * says why the requests it saw were not answered (request_unanswered;
 * "resolving" counts the replies still parked too), and
 * "answered_after_park":N inside "count" how many of the answered were
 * posted only after waiting for their reply AH (a prober that stopped
 * waiting first never saw them: first contact, not loss): an older serve
 * leaves it out and an older prober ignores it. An older serve
 * reads nothing and writes its usual line: that answer has no "count",
 * so the count is unknown, never zero. age_ms is how long ago the run
 * began: a set absent from the table was never seen when nothing the
 * table evicted was used since (request_counts_absent_means_unseen).
 * A newer serve adds, inside "count",
 *   "rq_drops":{"counter":"out_of_buffer","counter_delta":N,
 *               "rq_empty":N,"covers_run":true}
 * ("counter":null where its port has no receive-drop counter): how much
 * its port's receive-drop counter rose and how often serve found its
 * receive queue empty during the run (every sender's drops, not only
 * the asker's); an older prober ignores it, an older serve leaves it
 * out. */
#ifndef IBAHPROBE_RENDEZVOUS_COUNT_H
#define IBAHPROBE_RENDEZVOUS_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "peer/request_counts.h"
#include "wire/probe_wire.h"

/* A question line is short; a longer one is no question of ours. */
#define RENDEZVOUS_QUESTION_MAX 512

struct rendezvous_count_question {
	uint32_t probe_id;
	uint32_t qpn;
	union ibv_gid gid;	/* zero without a GRH */
	uint16_t lid;		/* 0 on RoCE */
	struct probe_params asked;
	uint32_t age_ms;
};

enum rendezvous_count_state {
	RENDEZVOUS_COUNT_KNOWN,
	RENDEZVOUS_COUNT_FORGOTTEN,	/* the responder lost track of it */
	RENDEZVOUS_COUNT_NOT_UNDERSTOOD,	/* an older serve */
};

/* Evidence of drops in the responder's receive queue over the run. */
struct rendezvous_rq_drops {
	bool present;		/* false: an older serve said nothing */
	bool counter_known;	/* its port has a receive-drop counter */
	char counter[32];	/* its name (hw_counters/), when known */
	uint64_t counter_delta;	/* its rise over the run */
	uint64_t rq_empty;	/* times serve found its receive queue empty */
	bool covers_run;	/* false: the samples begin after the run did */
};

struct rendezvous_count_answer {
	enum rendezvous_count_state state;
	uint32_t received, answered;
	/* Why the others were not answered; reasons_known false from an
	 * older serve. */
	bool reasons_known;
	uint32_t unanswered[UNANSWERED_COUNT];
	/* Of the answered, those posted only after waiting for their reply
	 * AH (first contact); after_park_known false from an older serve. */
	bool after_park_known;
	uint32_t answered_after_park;
	struct rendezvous_rq_drops rq_drops;
};

/* The question as one line (with its newline); NULL when out of memory. */
char *rendezvous_count_question_encode(const struct rendezvous_count_question *q);
/* 0: a count question, decoded; -1: not one (serve then writes its usual
 * line). */
int rendezvous_count_question_decode(const char *line,
				     struct rendezvous_count_question *q);

char *rendezvous_count_answer_encode(const struct rendezvous_count_answer *a);
/* Reads serve's answer: KNOWN or FORGOTTEN, or NOT_UNDERSTOOD for a
 * responder line without "count" (an older serve). -1 with err for an
 * answer that is neither. */
int rendezvous_count_answer_decode(const char *text,
				   struct rendezvous_count_answer *a,
				   char *err, size_t errlen);

/* Asks host:port; 0 with *a, or -1 with err (no connection, no answer). */
int rendezvous_ask_count(const char *host, uint16_t port, uint32_t timeout_ms,
			 const struct rendezvous_count_question *q,
			 struct rendezvous_count_answer *a, char *err,
			 size_t errlen);

#endif

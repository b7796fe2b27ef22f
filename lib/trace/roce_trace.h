/* The hop-by-hop schedule of a RoCE v2 trace of one flow (one source
 * address and UDP source port, one destination, one traffic class: a
 * fixed 5-tuple, so ECMP keeps it on one path, as Paris traceroute does):
 * for hop limit 1, 2, ... up to the most, a few queries each, each given
 * a deadline; one at a time, or several hops at once once the answers
 * name the query they answer (depth, lookahead); a router whose hop limit ran out answers
 * time exceeded, the destination's RDMA device takes the last datagram as
 * a UD send that `serve` answers, and a host with nothing on UDP 4791
 * answers port unreachable. The trace ends after the hop that reached the
 * destination (or got a final refusal), or at the most hops.
 *
 * Pure: the caller asks roce_trace_next() what to do at a time (send a
 * query with a hop limit and a tag, wait until a time, or stop), sends the
 * datagram itself, and tells roce_trace_answer() what came back under
 * which tag. No socket and no clock here, so the schedule is tested with
 * made-up times and answers (tests/unit/test_roce_trace.c). */
#ifndef IBAHPROBE_ROCE_TRACE_H
#define IBAHPROBE_ROCE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A RoCE fabric is a few routed hops; 64 is the IPv4 default TTL, so a
 * trace that goes on is looping. */
#define ROCE_TRACE_MAX_HOPS 64
#define ROCE_TRACE_MAX_QUERIES 10
#define ROCE_TRACE_DEFAULT_MAX_HOPS 16
#define ROCE_TRACE_DEFAULT_QUERIES 3
#define ROCE_TRACE_DEFAULT_WAIT_MS 1000
/* Silent hops after the last that answered which end a trace without
 * --max-hops: the responder's own hop (it answers there unless its
 * answers are lost on the way back) and 2 more, for a router that does
 * not say time exceeded. A sweep to 16 hops would only print '*'. */
#define ROCE_TRACE_SILENT_AFTER 3
/* Hops past the last that answered (or the last resolved) that queries
 * may go to at once, when silent_after does not say (--max-hops). */
#define ROCE_TRACE_LOOKAHEAD 3
/* Flows (flow labels x traffic classes) one destination is traced with:
 * an ECMP sweep of 64 labels is the common case. */
#define ROCE_TRACE_MAX_FLOWS 1024

enum roce_answer_kind {
	/* A router: the hop limit ran out there (ICMP time exceeded). */
	ROCE_ANSWER_TIME_EXCEEDED,
	/* The responder answered the datagram: the destination. */
	ROCE_ANSWER_REPLY,
	/* The destination host has nothing on UDP 4791 (no RDMA device
	 * there, or none on that address): ICMP port unreachable. */
	ROCE_ANSWER_PORT_UNREACHABLE,
	/* Any other unreachable (no route, prohibited): who refused, and
	 * the ICMP type and code. */
	ROCE_ANSWER_UNREACHABLE,
	/* Fragmentation needed / packet too big: a link on the way is
	 * narrower than the datagram (mtu). */
	ROCE_ANSWER_TOO_BIG,
};

struct roce_answer {
	enum roce_answer_kind kind;
	char from[46];		/* the answering address (INET6_ADDRSTRLEN) */
	uint64_t rtt_ns;
	int reply_ttl;		/* the answer's own hop limit on arrival; -1 */
	uint8_t icmp_type, icmp_code;	/* UNREACHABLE */
	uint32_t mtu;		/* TOO_BIG; 0 when not said */
	/* REPLY: the traffic class and hop limit the responder saw; -1
	 * when it did not say. */
	int seen_tclass, seen_hop_limit;
};

/* Why a trace stopped. */
enum roce_trace_end {
	ROCE_TRACE_RUNNING,
	ROCE_TRACE_REACHED,	/* the responder answered */
	ROCE_TRACE_REFUSED,	/* port unreachable from the destination host */
	ROCE_TRACE_UNREACHABLE,	/* another unreachable, or too big */
	ROCE_TRACE_MAX_HOPS_END,	/* the most hops, never reached */
	/* silent_after silent hops after the last that answered */
	ROCE_TRACE_SILENT_END,
	/* Silent after the last router, but the responder says it received
	 * datagrams of the silent hops (roce_trace_note_responder_count):
	 * its answers were lost on the way back. */
	ROCE_TRACE_ANSWERS_LOST,
};

struct roce_trace_settings {
	unsigned first_hop;	/* hop limit of the first query (>= 1) */
	unsigned max_hops;	/* the last hop limit tried (<= MAX_HOPS) */
	unsigned queries;	/* per hop, 1..MAX_QUERIES */
	uint64_t wait_ns;	/* a query's deadline after its send */
	/* After a hop something answered, this many silent hops end the
	 * trace (ROCE_TRACE_SILENT_END); 0: on to max_hops. */
	unsigned silent_after;
	/* Queries in flight at once, once an answer named its query (a
	 * router quoted our BTH, or the responder answered); 0 or 1: one
	 * at a time, as traceroute without -N. */
	unsigned depth;
	/* With depth > 1: queries go to hops up to this many past the last
	 * hop that answered or, when none did, past the last hop whose
	 * queries all ended; 0: ROCE_TRACE_LOOKAHEAD. Never past
	 * silent_after, where the trace would have ended. */
	unsigned lookahead;
};

/* Where one query of a hop is. */
enum roce_query_state {
	ROCE_QUERY_UNSENT,
	ROCE_QUERY_IN_FLIGHT,
	ROCE_QUERY_ANSWERED,
	ROCE_QUERY_SILENT,	/* its deadline passed without an answer */
	/* In flight when an answer came that could have been its own or
	 * another's (a router that quotes no BTH): sent again, one at a
	 * time, once its deadline passed. */
	ROCE_QUERY_VOID,
};

struct roce_trace_hop {
	unsigned hop_limit;
	unsigned sent;	/* queries sent (once a trace ended: all of them) */
	bool answered[ROCE_TRACE_MAX_QUERIES];
	struct roce_answer answers[ROCE_TRACE_MAX_QUERIES];
	uint8_t state[ROCE_TRACE_MAX_QUERIES];	/* enum roce_query_state */
	uint64_t sent_ns[ROCE_TRACE_MAX_QUERIES];	/* the latest send */
};

struct roce_trace {
	struct roce_trace_settings settings;
	struct roce_trace_hop hops[ROCE_TRACE_MAX_HOPS];
	/* Hops begun; once the trace ended, up to the hop that ended it
	 * (hops sent further ahead meanwhile are dropped). */
	unsigned hop_count;
	/* Queries in flight or void, and the latest sent (its tag and
	 * deadline); waiting: in_flight > 0. */
	unsigned in_flight;
	bool waiting;
	uint32_t tag;
	uint64_t deadline_ns;
	/* An answer named its query: several may be in flight (depth);
	 * never again once one could not be placed (unplaced_seen). */
	bool tagged, unplaced_seen;
	/* The responder's hop, as its answer's hop limit tells (the hop
	 * limit sent less the one that arrived: the routers crossed, plus
	 * one); no hop past it is begun. 0: not known. */
	unsigned responder_hop;
	enum roce_trace_end end;
	/* The hop limit of the last hop anything answered (once ended: up
	 * to the end); 0: none. */
	unsigned last_answered_hop;
	/* The responder's count of the silent tail's datagrams, when it
	 * was asked and answered (roce_trace_note_responder_count). */
	bool responder_count_known;
	uint32_t responder_received;
};

enum roce_step_kind {
	ROCE_STEP_SEND,		/* send query `query` with hop_limit, tag */
	ROCE_STEP_WAIT,		/* nothing to do before until_ns */
	ROCE_STEP_DONE,
};

struct roce_step {
	enum roce_step_kind kind;
	unsigned hop_limit, query;
	uint32_t tag;		/* (hop_limit << 8) | query: what the
				 * datagram carries to be matched */
	uint64_t until_ns;
};

/* -1 when the settings are out of range. */
int roce_trace_init(struct roce_trace *t,
		    const struct roce_trace_settings *settings);
/* What to do at now_ns. A SEND step counts as sent at now_ns: its
 * deadline runs from there. A query whose deadline passed is silent. */
struct roce_step roce_trace_next(struct roce_trace *t, uint64_t now_ns);
/* What roce_trace_next would do at now_ns, without sending: queries past
 * their deadline turn silent and the end is settled all the same. */
struct roce_step roce_trace_peek(struct roce_trace *t, uint64_t now_ns);
/* The SEND step of roce_trace_peek went out at now_ns. */
void roce_trace_sent(struct roce_trace *t, const struct roce_step *step,
		     uint64_t now_ns);
/* An answer under tag: taken (true) when it is for a query in flight,
 * else ignored (a late answer to a silent query, or a stray). */
bool roce_trace_answer(struct roce_trace *t, uint32_t tag,
		       const struct roce_answer *answer);
/* An answer named its query (the quote's PSN, the responder's
 * sequence): from now on up to depth queries go at once. */
void roce_trace_answers_tagged(struct roce_trace *t);
/* The one query in flight (none void), to which an answer that names no
 * query belongs; false when none or several are. */
bool roce_trace_only_in_flight(const struct roce_trace *t, uint32_t *tag);
/* The tags of the queries in flight or void (at most max); their count. */
size_t roce_trace_in_flight_tags(const struct roce_trace *t, uint32_t *tags,
				 size_t max);
/* An answer that names no query came while several were in flight (a
 * router quotes only the UDP header, RFC 792): it cannot be placed.
 * Every query in flight turns void and the trace goes one at a time
 * from now on. */
void roce_trace_answer_unplaced(struct roce_trace *t);
/* The silent hops a trace that ended without reaching the responder
 * (SILENT_END, MAX_HOPS_END; ANSWERS_LOST once asked) can ask the
 * responder about: from the hop
 * after the last that answered (a router) to its last hop. false when
 * there are none, or nothing answered (no router said the way goes on). */
bool roce_trace_silent_tail(const struct roce_trace *t, unsigned *first,
			    unsigned *last);
/* The responder's count of the datagrams of the silent tail it received:
 * above 0, the trace reached it and its answers were lost on the way back
 * (ROCE_TRACE_ANSWERS_LOST). */
void roce_trace_note_responder_count(struct roce_trace *t, uint32_t received);
/* The answer of a hop that ended the trace (REPLY first), or NULL. */
const struct roce_answer *roce_trace_hop_final(const struct roce_trace_hop *h,
						unsigned queries);

#endif

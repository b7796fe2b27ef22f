/* Which way probes were lost: the responder counts the requests of each
 * set it receives (request_counts) and the replies it posts; against
 * what the prober sent and got back, the difference splits into "lost on
 * the way there" (never seen) and "lost on the way back" (answered, the
 * reply never came). Pure logic over the counts, for probe and check. */
#ifndef IBAHPROBE_ONEWAY_LOSS_H
#define IBAHPROBE_ONEWAY_LOSS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "peer/rendezvous_count.h"

/* What the rendezvous said when asked for the final count. */
enum oneway_final {
	ONEWAY_FINAL_NOT_ASKED,	/* no rendezvous (--qpn) */
	ONEWAY_FINAL_LATER,	/* the run goes on: asked at its end */
	ONEWAY_FINAL_NO_ANSWER,	/* asked; nothing came back */
	ONEWAY_FINAL_OLD,	/* answered, but not the question: older serve */
	ONEWAY_FINAL_FORGOTTEN,	/* it no longer remembers the set */
	ONEWAY_FINAL_KNOWN,
};

struct oneway_input {
	uint32_t sent;		/* probes of the set */
	uint32_t arrived;	/* their replies that came back (late too) */
	enum oneway_final final;
	uint32_t final_received, final_answered;	/* FINAL_KNOWN */
	/* FINAL_KNOWN from a serve that says why it did not answer: how
	 * many for want of a reply AH to us (parked while its neighbour
	 * resolved, or its creation failed: first contact). */
	bool final_reasons_known;
	uint32_t final_resolving;
	/* Of the arrived, those that came after their deadline and say
	 * they waited at the responder for its reply AH to us: first
	 * contact, not replies back in time, nor lost on the way back. */
	uint32_t late_after_park;
	/* The largest count a reply carried (0: none, or an older
	 * responder's reply), and which probe of the set (1-based) that
	 * reply answered: the responder had then seen that many of the
	 * first reply_ordinal probes. */
	uint32_t reply_count, reply_ordinal;
	bool replies_seen;	/* any reply at all decoded */
	/* FINAL_KNOWN from a newer serve: drops in its own receive queue
	 * over the run (a UD packet that finds no posted receive is dropped
	 * by the device, not lost on the way there). */
	struct rendezvous_rq_drops rq;
};

enum oneway_direction {
	ONEWAY_NO_LOSS,
	ONEWAY_THERE,		/* the responder never saw them */
	ONEWAY_BACK,		/* it answered them; the replies were lost */
	ONEWAY_BOTH,
	ONEWAY_AT_RESPONDER,	/* seen, not answered (rate limit, no AH) */
	ONEWAY_UNKNOWN,
	/* Never seen by serve, and its receive queue overflowed meanwhile
	 * (its receive-drop counter rose by as many, or, without a
	 * counter, serve found the queue empty): dropped there. */
	ONEWAY_RQ_FULL,
};

struct oneway_verdict {
	enum oneway_direction direction;
	/* -1: unknown. responder_saw/answered are of `of` probes (the
	 * whole set when final, else the first reply_ordinal). */
	int64_t responder_saw, responder_answered, of;
	int64_t lost_there, lost_back, unanswered;
	/* Of the unanswered, those for want of a reply AH (first
	 * contact), and of the answered, those that came late because they
	 * waited for it (late_after_park: in resolving too, never in
	 * lost_back); -1: unknown. */
	int64_t resolving, answered_late;
	bool final;		/* counts cover the whole set */
	char text[360];		/* one finding; "" with no loss */
	/* What the responder's receive queue has to do with probes lost
	 * on the way there, a finding of its own; "" when nothing. */
	char note[200];
};

void oneway_judge(const struct oneway_input *in, struct oneway_verdict *out);
/* JSON names: "none", "there", "back", "both", "responder", "unknown",
 * "responder_queue". */
const char *oneway_direction_name(enum oneway_direction d);

#endif

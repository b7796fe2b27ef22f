/* The schedule of a RoCE v2 trace: see roce_trace.h. Each query of each
 * hop has a state; the trace is settled in hop order, as traceroute prints
 * it, so queries sent ahead never change how it ends: the end is the
 * first hop, in order, whose queries all ended and that ends the trace. */
#include <string.h>

#include "trace/roce_trace.h"

int roce_trace_init(struct roce_trace *t,
		    const struct roce_trace_settings *settings)
{
	memset(t, 0, sizeof(*t));
	if (settings->first_hop < 1 ||
	    settings->first_hop > settings->max_hops ||
	    settings->max_hops > ROCE_TRACE_MAX_HOPS ||
	    settings->queries < 1 ||
	    settings->queries > ROCE_TRACE_MAX_QUERIES || !settings->wait_ns)
		return -1;
	t->settings = *settings;
	return 0;
}

static bool final_kind(enum roce_answer_kind kind)
{
	return kind != ROCE_ANSWER_TIME_EXCEEDED;
}

const struct roce_answer *roce_trace_hop_final(const struct roce_trace_hop *h,
						unsigned queries)
{
	const struct roce_answer *found = NULL;

	for (unsigned q = 0; q < queries && q < ROCE_TRACE_MAX_QUERIES; q++) {
		if (!h->answered[q] || !final_kind(h->answers[q].kind))
			continue;
		if (h->answers[q].kind == ROCE_ANSWER_REPLY)
			return &h->answers[q];
		if (!found)
			found = &h->answers[q];
	}
	return found;
}

static bool hop_resolved(const struct roce_trace *t,
			 const struct roce_trace_hop *h)
{
	for (unsigned q = 0; q < t->settings.queries; q++)
		if (h->state[q] != ROCE_QUERY_ANSWERED &&
		    h->state[q] != ROCE_QUERY_SILENT)
			return false;
	return true;
}

static bool hop_answered(const struct roce_trace *t,
			 const struct roce_trace_hop *h)
{
	for (unsigned q = 0; q < t->settings.queries; q++)
		if (h->answered[q])
			return true;
	return false;
}

/* Walks the hops in order while their queries all ended: the first that
 * ends the trace (a final answer, the most hops, silent_after silent hops
 * after the last that answered) is its end. Like traceroute, the hop
 * that reached the destination is asked as many times as the others. */
static void settle(struct roce_trace *t)
{
	unsigned answered = 0;

	if (t->end != ROCE_TRACE_RUNNING)
		return;
	for (unsigned i = 0; i < t->hop_count; i++) {
		const struct roce_trace_hop *h = &t->hops[i];
		const struct roce_answer *final;

		if (!hop_resolved(t, h))
			break;
		if (hop_answered(t, h))
			answered = h->hop_limit;
		final = roce_trace_hop_final(h, t->settings.queries);
		if (final)
			t->end = final->kind == ROCE_ANSWER_REPLY
					 ? ROCE_TRACE_REACHED
				 : final->kind == ROCE_ANSWER_PORT_UNREACHABLE
					 ? ROCE_TRACE_REFUSED
					 : ROCE_TRACE_UNREACHABLE;
		else if (h->hop_limit >= t->settings.max_hops)
			t->end = ROCE_TRACE_MAX_HOPS_END;
		else if (t->settings.silent_after && answered &&
			 h->hop_limit - answered >= t->settings.silent_after)
			t->end = ROCE_TRACE_SILENT_END;
		if (t->end != ROCE_TRACE_RUNNING) {
			/* Queries sent past the end do not count. */
			t->hop_count = i + 1;
			t->last_answered_hop = answered;
			t->in_flight = 0;
			t->waiting = false;
			return;
		}
	}
}

/* Queries past their deadline: silent, or sent again (void ones). */
static void expire(struct roce_trace *t, uint64_t now_ns)
{
	for (unsigned i = 0; i < t->hop_count; i++) {
		struct roce_trace_hop *h = &t->hops[i];

		for (unsigned q = 0; q < t->settings.queries; q++) {
			if ((h->state[q] != ROCE_QUERY_IN_FLIGHT &&
			     h->state[q] != ROCE_QUERY_VOID) ||
			    now_ns < h->sent_ns[q] + t->settings.wait_ns)
				continue;
			if (h->state[q] == ROCE_QUERY_VOID) {
				h->state[q] = ROCE_QUERY_UNSENT;
				h->sent--;
			} else {
				h->state[q] = ROCE_QUERY_SILENT;	/* '*' */
			}
			t->in_flight--;
		}
	}
	t->waiting = t->in_flight > 0;
}

/* The last hop a new query may go to now (0: none). */
static unsigned hop_bound(const struct roce_trace *t)
{
	const struct roce_trace_settings *s = &t->settings;
	unsigned bound = s->max_hops, ahead, base = 0, answered = 0;

	if (t->responder_hop && t->responder_hop < bound)
		bound = t->responder_hop;
	if (s->depth <= 1 || !t->tagged)
		return bound;
	for (unsigned i = 0; i < t->hop_count; i++) {
		const struct roce_trace_hop *h = &t->hops[i];

		if (hop_answered(t, h))
			answered = h->hop_limit;
		if (base == i && hop_resolved(t, h))
			base = i + 1;	/* resolved from the first on */
	}
	base = base ? s->first_hop + base - 1 : s->first_hop - 1;
	/* With silent_after, from the last answer only: past it + silent
	 * after, the trace ends. */
	if (answered > base || (answered && s->silent_after))
		base = answered;
	ahead = s->lookahead ? s->lookahead : ROCE_TRACE_LOOKAHEAD;
	if (s->silent_after && s->silent_after < ahead)
		ahead = s->silent_after;
	if (base + ahead < bound)
		bound = base + ahead;
	return bound;
}

struct roce_step roce_trace_peek(struct roce_trace *t, uint64_t now_ns)
{
	struct roce_step step = { .kind = ROCE_STEP_DONE };
	unsigned cap = t->tagged && t->settings.depth > 1 ? t->settings.depth
							  : 1;
	unsigned bound;

	expire(t, now_ns);
	settle(t);
	if (t->end != ROCE_TRACE_RUNNING)
		return step;
	step.kind = ROCE_STEP_WAIT;
	step.until_ns = UINT64_MAX;
	for (unsigned i = 0; i < t->hop_count; i++)
		for (unsigned q = 0; q < t->settings.queries; q++) {
			const struct roce_trace_hop *h = &t->hops[i];
			uint64_t deadline = h->sent_ns[q] + t->settings.wait_ns;

			if ((h->state[q] == ROCE_QUERY_IN_FLIGHT ||
			     h->state[q] == ROCE_QUERY_VOID) &&
			    deadline < step.until_ns)
				step.until_ns = deadline;
		}
	if (t->in_flight >= cap)
		return step;
	step.kind = ROCE_STEP_DONE;
	/* The first query not sent: of a hop begun (a void query sent
	 * again included), else the first of the next hop. A hop's queries
	 * go one after the other, each once the one before it ended: they
	 * are its retries in time (a responder or router still resolving
	 * its way back answers the first late, the next in time), and hops
	 * go side by side. */
	bound = hop_bound(t);
	for (unsigned i = 0; i < t->hop_count; i++)
		for (unsigned q = 0; q < t->settings.queries; q++) {
			uint8_t before = q ? t->hops[i].state[q - 1]
					   : ROCE_QUERY_ANSWERED;

			if (before != ROCE_QUERY_ANSWERED &&
			    before != ROCE_QUERY_SILENT)
				break;
			if (t->hops[i].state[q] == ROCE_QUERY_UNSENT) {
				step.kind = ROCE_STEP_SEND;
				step.hop_limit = t->hops[i].hop_limit;
				step.query = q;
				step.tag = (uint32_t)step.hop_limit << 8 | q;
				return step;
			}
		}
	if (t->hop_count < ROCE_TRACE_MAX_HOPS &&
	    t->settings.first_hop + t->hop_count <= bound) {
		step.kind = ROCE_STEP_SEND;
		step.hop_limit = t->settings.first_hop + t->hop_count;
		step.query = 0;
		step.tag = (uint32_t)step.hop_limit << 8;
		return step;
	}
	if (t->in_flight)
		step.kind = ROCE_STEP_WAIT;
	else	/* nothing to send or wait for (cannot be): end, not hang */
		t->end = ROCE_TRACE_MAX_HOPS_END;
	return step;
}

void roce_trace_sent(struct roce_trace *t, const struct roce_step *step,
		     uint64_t now_ns)
{
	unsigned i = step->hop_limit - t->settings.first_hop;
	struct roce_trace_hop *h;

	if (step->kind != ROCE_STEP_SEND || i > t->hop_count ||
	    i >= ROCE_TRACE_MAX_HOPS || step->query >= t->settings.queries)
		return;
	h = &t->hops[i];
	if (i == t->hop_count) {
		memset(h, 0, sizeof(*h));
		h->hop_limit = step->hop_limit;
		t->hop_count++;
	}
	if (h->state[step->query] != ROCE_QUERY_UNSENT)
		return;
	h->state[step->query] = ROCE_QUERY_IN_FLIGHT;
	h->sent_ns[step->query] = now_ns;
	h->sent++;
	t->in_flight++;
	t->waiting = true;
	t->tag = step->tag;
	t->deadline_ns = now_ns + t->settings.wait_ns;
}

struct roce_step roce_trace_next(struct roce_trace *t, uint64_t now_ns)
{
	struct roce_step step = roce_trace_peek(t, now_ns);

	if (step.kind == ROCE_STEP_SEND)
		roce_trace_sent(t, &step, now_ns);
	return step;
}

bool roce_trace_answer(struct roce_trace *t, uint32_t tag,
		       const struct roce_answer *answer)
{
	unsigned hop = tag >> 8, q = tag & 0xff, i;
	struct roce_trace_hop *h;

	if (t->end != ROCE_TRACE_RUNNING || hop < t->settings.first_hop ||
	    q >= t->settings.queries)
		return false;
	i = hop - t->settings.first_hop;
	if (i >= t->hop_count)
		return false;
	h = &t->hops[i];
	if (h->state[q] != ROCE_QUERY_IN_FLIGHT &&
	    h->state[q] != ROCE_QUERY_VOID)
		return false;
	h->state[q] = ROCE_QUERY_ANSWERED;
	h->answered[q] = true;
	h->answers[q] = *answer;
	t->in_flight--;
	t->waiting = t->in_flight > 0;
	/* The responder saw the hop limit its datagram arrived with: the
	 * routers crossed are the difference (as probe counts its hops). */
	if (answer->kind == ROCE_ANSWER_REPLY && answer->seen_hop_limit >= 1 &&
	    (unsigned)answer->seen_hop_limit <= hop) {
		unsigned responder = hop - (unsigned)answer->seen_hop_limit + 1;

		if (!t->responder_hop || responder < t->responder_hop)
			t->responder_hop = responder;
	}
	settle(t);
	return true;
}

void roce_trace_answers_tagged(struct roce_trace *t)
{
	t->tagged = !t->unplaced_seen;
}

bool roce_trace_only_in_flight(const struct roce_trace *t, uint32_t *tag)
{
	uint32_t tags[2];

	if (roce_trace_in_flight_tags(t, tags, 2) != 1)
		return false;
	for (unsigned i = 0; i < t->hop_count; i++)
		for (unsigned q = 0; q < t->settings.queries; q++)
			if (t->hops[i].state[q] == ROCE_QUERY_VOID)
				return false;
	*tag = tags[0];
	return true;
}

size_t roce_trace_in_flight_tags(const struct roce_trace *t, uint32_t *tags,
				 size_t max)
{
	size_t n = 0;

	for (unsigned i = 0; i < t->hop_count; i++)
		for (unsigned q = 0; q < t->settings.queries; q++) {
			uint8_t st = t->hops[i].state[q];

			if (st != ROCE_QUERY_IN_FLIGHT && st != ROCE_QUERY_VOID)
				continue;
			if (n < max)
				tags[n] = t->hops[i].hop_limit << 8 | q;
			n++;
		}
	return n;
}

void roce_trace_answer_unplaced(struct roce_trace *t)
{
	/* Whose answers name no query is not known (any hop's router):
	 * one at a time from now on. */
	t->tagged = false;
	t->unplaced_seen = true;
	for (unsigned i = 0; i < t->hop_count; i++)
		for (unsigned q = 0; q < t->settings.queries; q++)
			if (t->hops[i].state[q] == ROCE_QUERY_IN_FLIGHT)
				t->hops[i].state[q] = ROCE_QUERY_VOID;
}

bool roce_trace_silent_tail(const struct roce_trace *t, unsigned *first,
			    unsigned *last)
{
	if ((t->end != ROCE_TRACE_SILENT_END &&
	     t->end != ROCE_TRACE_MAX_HOPS_END &&
	     t->end != ROCE_TRACE_ANSWERS_LOST) ||
	    !t->last_answered_hop || !t->hop_count ||
	    t->hops[t->hop_count - 1].hop_limit <= t->last_answered_hop)
		return false;
	*first = t->last_answered_hop + 1;
	*last = t->hops[t->hop_count - 1].hop_limit;
	return true;
}

void roce_trace_note_responder_count(struct roce_trace *t, uint32_t received)
{
	if (t->end != ROCE_TRACE_SILENT_END &&
	    t->end != ROCE_TRACE_MAX_HOPS_END)
		return;
	t->responder_count_known = true;
	t->responder_received = received;
	if (received)
		t->end = ROCE_TRACE_ANSWERS_LOST;
}

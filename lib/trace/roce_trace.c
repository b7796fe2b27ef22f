/* The schedule of a RoCE v2 trace: see roce_trace.h. */
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

/* After the query under way: the next query of the hop, or the next hop
 * once the hop's queries are all sent, or the end. */
static void advance(struct roce_trace *t)
{
	struct roce_trace_hop *h = &t->hops[t->hop_count - 1];
	const struct roce_answer *final;

	t->waiting = false;
	if (h->sent < t->settings.queries)
		return;
	for (unsigned q = 0; q < t->settings.queries; q++)
		if (h->answered[q])
			t->last_answered_hop = h->hop_limit;
	/* The hop is done: every query of it was sent and resolved. Like
	 * traceroute, the hop that reached the destination is asked as
	 * many times as the others, and ends the trace. */
	final = roce_trace_hop_final(h, t->settings.queries);
	if (final)
		t->end = final->kind == ROCE_ANSWER_REPLY ? ROCE_TRACE_REACHED
			 : final->kind == ROCE_ANSWER_PORT_UNREACHABLE
				 ? ROCE_TRACE_REFUSED
				 : ROCE_TRACE_UNREACHABLE;
	else if (h->hop_limit >= t->settings.max_hops)
		t->end = ROCE_TRACE_MAX_HOPS_END;
	else if (t->settings.silent_after && t->last_answered_hop &&
		 h->hop_limit - t->last_answered_hop >=
			 t->settings.silent_after)
		t->end = ROCE_TRACE_SILENT_END;
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

struct roce_step roce_trace_next(struct roce_trace *t, uint64_t now_ns)
{
	struct roce_step step = { .kind = ROCE_STEP_DONE };
	struct roce_trace_hop *h;

	if (t->waiting) {
		if (now_ns < t->deadline_ns) {
			step.kind = ROCE_STEP_WAIT;
			step.until_ns = t->deadline_ns;
			return step;
		}
		advance(t);	/* silent: shown as '*' */
	}
	if (t->end != ROCE_TRACE_RUNNING)
		return step;
	h = t->hop_count ? &t->hops[t->hop_count - 1] : NULL;
	if (!h || h->sent == t->settings.queries) {
		h = &t->hops[t->hop_count];
		memset(h, 0, sizeof(*h));
		h->hop_limit = t->settings.first_hop + t->hop_count;
		t->hop_count++;
	}
	step.kind = ROCE_STEP_SEND;
	step.hop_limit = h->hop_limit;
	step.query = h->sent++;
	step.tag = (uint32_t)step.hop_limit << 8 | step.query;
	t->tag = step.tag;
	t->waiting = true;
	t->deadline_ns = now_ns + t->settings.wait_ns;
	return step;
}

bool roce_trace_answer(struct roce_trace *t, uint32_t tag,
		       const struct roce_answer *answer)
{
	struct roce_trace_hop *h;
	unsigned q;

	if (!t->waiting || tag != t->tag || !t->hop_count)
		return false;
	h = &t->hops[t->hop_count - 1];
	q = tag & 0xff;
	if (q >= t->settings.queries)
		return false;
	h->answered[q] = true;
	h->answers[q] = *answer;
	advance(t);
	return true;
}

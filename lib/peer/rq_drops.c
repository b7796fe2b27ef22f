/* Samples of serve's receive drops; see rq_drops.h. */
#include <stdio.h>
#include <string.h>

#include "peer/rq_drops.h"

void rq_drop_history_init(struct rq_drop_history *h, const char *counter_name,
			  uint64_t recv_depth)
{
	memset(h, 0, sizeof(*h));
	h->counter_name = counter_name;
	h->recv_posted = recv_depth;
}

void rq_drop_note_taken(struct rq_drop_history *h, uint64_t taken)
{
	if (!taken)
		return;
	h->recv_taken += taken;
	if (h->recv_taken >= h->recv_posted)
		h->rq_empty++;
}

void rq_drop_note_posted(struct rq_drop_history *h)
{
	h->recv_posted++;
}

static const struct rq_drop_sample *nth(const struct rq_drop_history *h,
					uint32_t i)
{
	return &h->samples[(h->first + i) % RQ_DROP_SAMPLES];
}

bool rq_drop_sample_due(const struct rq_drop_history *h, uint64_t now_ns)
{
	return h->count == 0 ||
	       now_ns - nth(h, h->count - 1)->at_ns >= RQ_DROP_SAMPLE_NS;
}

void rq_drop_sample_add(struct rq_drop_history *h, uint64_t now_ns,
			bool counter_read, uint64_t counter)
{
	struct rq_drop_sample s = { .at_ns = now_ns, .rq_empty = h->rq_empty };

	if (counter_read)
		s.counter = counter;
	else if (h->count)
		s.counter = nth(h, h->count - 1)->counter;
	if (h->count == RQ_DROP_SAMPLES) {
		h->first = (h->first + 1) % RQ_DROP_SAMPLES;
		h->count--;
	}
	h->samples[(h->first + h->count++) % RQ_DROP_SAMPLES] = s;
}

void rq_drop_history_since(const struct rq_drop_history *h, uint64_t since_ns,
			   struct rendezvous_rq_drops *out)
{
	const struct rq_drop_sample *from, *to;

	memset(out, 0, sizeof(*out));
	out->present = true;
	out->counter_known = h->counter_name != NULL;
	if (h->counter_name)
		snprintf(out->counter, sizeof(out->counter), "%s",
			 h->counter_name);
	if (!h->count)
		return;
	from = nth(h, 0);
	out->covers_run = from->at_ns <= since_ns;
	for (uint32_t i = 1; i < h->count && nth(h, i)->at_ns <= since_ns; i++)
		from = nth(h, i);
	to = nth(h, h->count - 1);
	if (out->counter_known && to->counter >= from->counter)
		out->counter_delta = to->counter - from->counter;
	out->rq_empty = to->rq_empty - from->rq_empty;
}

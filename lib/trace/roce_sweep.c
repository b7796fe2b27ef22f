/* Many RoCE v2 traces at once: see roce_sweep.h. Flows start in order and
 * the earliest running flow sends first, so destinations end about in the
 * order they are printed; one query in flight is the serial trace. */
#include <stdlib.h>
#include <string.h>

#include "trace/roce_sweep.h"

int roce_sweep_init(struct roce_sweep *s, const struct roce_sweep_settings *st,
		    size_t count)
{
	memset(s, 0, sizeof(*s));
	if (st->max_in_flight < 1 ||
	    st->max_in_flight > ROCE_SWEEP_MAX_IN_FLIGHT || st->rate < 1 ||
	    st->rate > ROCE_SWEEP_MAX_RATE)
		return -1;
	s->settings = *st;
	s->count = count;
	s->flows = calloc(count ? count : 1, sizeof(*s->flows));
	s->running = calloc(st->max_in_flight, sizeof(*s->running));
	if (!s->flows || !s->running) {
		roce_sweep_free(s);
		return -1;
	}
	return 0;
}

void roce_sweep_free(struct roce_sweep *s)
{
	free(s->flows);
	free(s->running);
	s->flows = NULL;
	s->running = NULL;
}

static void unrun(struct roce_sweep *s, size_t flow)
{
	for (size_t i = 0; i < s->running_count; i++)
		if (s->running[i] == flow) {
			memmove(&s->running[i], &s->running[i + 1],
				(s->running_count - i - 1) *
					sizeof(*s->running));
			s->running_count--;
			return;
		}
}

void roce_sweep_drop(struct roce_sweep *s, size_t flow)
{
	if (flow >= s->count || s->flows[flow].state == ROCE_SWEEP_FINISHED)
		return;
	if (s->flows[flow].state == ROCE_SWEEP_RUNNING)
		unrun(s, flow);
	s->flows[flow].state = ROCE_SWEEP_FINISHED;
	s->finished++;
}

unsigned roce_sweep_in_flight(const struct roce_sweep *s)
{
	unsigned n = 0;

	for (size_t i = 0; i < s->running_count; i++)
		n += s->flows[s->running[i]].trace->in_flight;
	return n;
}

static bool key_running(const struct roce_sweep *s, uint64_t key)
{
	for (size_t i = 0; i < s->running_count; i++)
		if (s->flows[s->running[i]].key == key)
			return true;
	return false;
}

/* The first pending flow that may start now, or s->count. */
static size_t startable(struct roce_sweep *s)
{
	while (s->first_pending < s->count &&
	       s->flows[s->first_pending].state != ROCE_SWEEP_PENDING)
		s->first_pending++;
	for (size_t i = s->first_pending; i < s->count; i++)
		if (s->flows[i].state == ROCE_SWEEP_PENDING &&
		    !key_running(s, s->flows[i].key))
			return i;
	return s->count;
}

struct roce_sweep_step roce_sweep_next(struct roce_sweep *s, uint64_t now_ns)
{
	struct roce_sweep_step out = { .kind = ROCE_SWEEP_WAIT,
				       .until_ns = UINT64_MAX };
	uint64_t interval = 1000000000ull / s->settings.rate;
	bool may_send, wants_send = false;
	unsigned in_flight = 0;
	size_t next;

	/* Flows whose trace ended, first (their queries no longer count). */
	for (size_t i = 0; i < s->running_count; i++) {
		size_t k = s->running[i];
		struct roce_step st = roce_trace_peek(s->flows[k].trace, now_ns);

		if (st.kind == ROCE_STEP_DONE) {
			unrun(s, k);
			s->flows[k].state = ROCE_SWEEP_FINISHED;
			s->finished++;
			out.kind = ROCE_SWEEP_FLOW_DONE;
			out.flow = k;
			return out;
		}
		in_flight += s->flows[k].trace->in_flight;
	}
	if (s->finished == s->count) {
		out.kind = ROCE_SWEEP_DONE;
		return out;
	}
	/* A new flow while there is room: a running flow holds at least
	 * one query in flight, so they are bounded alike. */
	if (!s->hold && s->running_count < s->settings.max_in_flight &&
	    in_flight < s->settings.max_in_flight &&
	    (next = startable(s)) < s->count) {
		s->flows[next].state = ROCE_SWEEP_RUNNING;
		s->running[s->running_count++] = next;
		out.kind = ROCE_SWEEP_START;
		out.flow = next;
		return out;
	}
	may_send = !s->hold && in_flight < s->settings.max_in_flight;
	for (size_t i = 0; i < s->running_count; i++) {
		size_t k = s->running[i];
		struct roce_step st = roce_trace_peek(s->flows[k].trace, now_ns);

		if (st.kind == ROCE_STEP_WAIT && st.until_ns < out.until_ns)
			out.until_ns = st.until_ns;
		if (st.kind != ROCE_STEP_SEND || !may_send)
			continue;
		wants_send = true;
		if (s->started && now_ns < s->next_send_ns)
			continue;
		roce_trace_sent(s->flows[k].trace, &st, now_ns);
		/* Evenly spaced; after a wake-up later than one interval
		 * the spacing starts again from now (no burst to catch up). */
		if (!s->started || s->next_send_ns + interval <= now_ns)
			s->next_send_ns = now_ns + interval;
		else
			s->next_send_ns += interval;
		s->started = true;
		out.kind = ROCE_SWEEP_SEND;
		out.flow = k;
		out.step = st;
		return out;
	}
	if (wants_send && s->next_send_ns < out.until_ns)
		out.until_ns = s->next_send_ns;
	return out;
}

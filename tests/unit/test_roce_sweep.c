/* Many RoCE v2 traces at once (lib/trace/roce_sweep.c) with made-up times
 * and answers: one query in flight is the serial trace, flow after flow;
 * several flows and hops in flight under the bound and the rate; flows
 * on one source port never together; hold; the settings' bounds. */
#include <stdio.h>
#include <string.h>

#include "trace/roce_sweep.h"
#include "tap.h"

#define MS 1000000ull
#define FLOWS 4

/* Every flow: a router at hop 1, then silence (RoCE dropped after it);
 * flow k's router answers from 10.0.k.1. */
static bool router_then_silence(size_t flow, unsigned hl, struct roce_answer *a)
{
	if (hl != 1)
		return false;
	memset(a, 0, sizeof(*a));
	a->kind = ROCE_ANSWER_TIME_EXCEEDED;
	a->reply_ttl = a->seen_tclass = a->seen_hop_limit = -1;
	snprintf(a->from, sizeof(a->from), "10.0.%zu.1", flow);
	return true;
}

struct pending {
	uint64_t at;
	size_t flow;
	uint32_t tag;
	struct roce_answer a;
};

struct sweep_run {
	unsigned sends, most_in_flight, key_clashes, sends_too_close;
	size_t done_order[FLOWS], done;
	uint64_t took;
};

static struct roce_trace traces[FLOWS];

/* Runs FLOWS traces (silent_after 3, 3 queries, 1 s deadline) under st;
 * keys[k] as given; answers 1 ms after their send, each naming its
 * query. */
static struct sweep_run run(const struct roce_sweep_settings *st,
			    const uint64_t *keys)
{
	static struct pending pend[4096];
	struct roce_trace_settings ts = {
		.first_hop = 1, .max_hops = 16, .queries = 3,
		.wait_ns = 1000 * MS, .silent_after = 3,
		.depth = st->max_in_flight,
	};
	struct sweep_run out = { 0 };
	struct roce_sweep s;
	uint64_t now = 0, last_send = 0;
	size_t np = 0;

	if (roce_sweep_init(&s, st, FLOWS))
		return out;
	for (size_t k = 0; k < FLOWS; k++) {
		roce_trace_init(&traces[k], &ts);
		s.flows[k].trace = &traces[k];
		s.flows[k].key = keys[k];
	}
	for (unsigned steps = 0; steps < 100000; steps++) {
		struct roce_sweep_step x = roce_sweep_next(&s, now);
		uint64_t next;

		if (x.kind == ROCE_SWEEP_DONE)
			break;
		if (x.kind == ROCE_SWEEP_FLOW_DONE) {
			out.done_order[out.done++] = x.flow;
			continue;
		}
		if (x.kind == ROCE_SWEEP_START) {
			for (size_t i = 0; i + 1 < s.running_count; i++)
				out.key_clashes +=
					s.flows[s.running[i]].key == keys[x.flow];
			continue;
		}
		if (x.kind == ROCE_SWEEP_SEND) {
			struct roce_answer a;
			unsigned in_flight = roce_sweep_in_flight(&s);

			if (out.sends && now - last_send < 1000000000ull / st->rate)
				out.sends_too_close++;
			last_send = now;
			out.sends++;
			if (in_flight > out.most_in_flight)
				out.most_in_flight = in_flight;
			if (router_then_silence(x.flow, x.step.hop_limit, &a))
				pend[np++] = (struct pending){ now + MS, x.flow,
							       x.step.tag, a };
			continue;
		}
		next = x.until_ns;
		for (size_t i = 0; i < np; i++)
			if (pend[i].at < next)
				next = pend[i].at;
		now = next;
		for (size_t i = 0; i < np;) {
			if (pend[i].at > now) {
				i++;
				continue;
			}
			if (roce_trace_answer(&traces[pend[i].flow], pend[i].tag,
					      &pend[i].a))
				roce_trace_answers_tagged(&traces[pend[i].flow]);
			pend[i] = pend[--np];
		}
	}
	out.took = now;
	roce_sweep_free(&s);
	return out;
}

static const uint64_t distinct[FLOWS] = { 1, 2, 3, 4 };

static void test_serial(void)
{
	struct sweep_run r = run(&(struct roce_sweep_settings){ 1, 10000 },
				 distinct);

	is_int(r.done, FLOWS, "one in flight: every flow done");
	ok(r.done_order[0] == 0 && r.done_order[1] == 1 &&
		   r.done_order[2] == 2 && r.done_order[3] == 3,
	   "flow after flow, in order");
	is_int(r.most_in_flight, 1, "never two in flight");
	is_int(r.sends, FLOWS * 12, "hop 1 and 3 silent hops, 3 queries each");
	ok(r.took >= FLOWS * 9 * 1000 * MS,
	   "each silent query waits its own deadline: 9 s a flow");
	for (size_t k = 0; k < FLOWS; k++)
		ok(traces[k].end == ROCE_TRACE_SILENT_END &&
			   traces[k].hop_count == 4 &&
			   traces[k].last_answered_hop == 1,
		   "flow %zu: silent after its router, 3 hops on", k);
}

static void test_parallel(void)
{
	struct sweep_run r = run(&(struct roce_sweep_settings){ 32, 50 },
				 distinct);

	is_int(r.done, FLOWS, "in flight: every flow done");
	is_int(r.sends, FLOWS * 12, "the same queries as one at a time");
	ok(r.most_in_flight > FLOWS && r.most_in_flight <= 32,
	   "several flows and hops in flight, within the bound (%u)",
	   r.most_in_flight);
	is_int(r.sends_too_close, 0, "never faster than 50 a second");
	ok(r.took < 3600 * MS, "48 sends at 50/s and 3 deadlines (a hop's "
	   "queries one after the other), not 36 s (took %llu ms)",
	   (unsigned long long)(r.took / MS));
	for (size_t k = 0; k < FLOWS; k++)
		ok(traces[k].end == ROCE_TRACE_SILENT_END &&
			   traces[k].hop_count == 4 &&
			   strcmp(traces[k].hops[0].answers[2].from,
				  k == 0 ? "10.0.0.1" : k == 1 ? "10.0.1.1"
				  : k == 2 ? "10.0.2.1" : "10.0.3.1") == 0,
		   "flow %zu: the same trace as one at a time", k);

	r = run(&(struct roce_sweep_settings){ 4, 10000 }, distinct);
	ok(r.most_in_flight <= 4, "a bound of 4 holds (%u)", r.most_in_flight);
}

static void test_keys(void)
{
	static const uint64_t shared[FLOWS] = { 7, 8, 7, 7 };
	struct sweep_run r = run(&(struct roce_sweep_settings){ 32, 10000 },
				 shared);

	is_int(r.done, FLOWS, "flows on one port: all done");
	is_int(r.key_clashes, 0, "never two of one source port at once");
	ok(r.took >= 3 * 1000 * MS,
	   "the three on port 7 one after the other: a deadline each");
}

static void test_hold_and_settings(void)
{
	struct roce_trace_settings ts = {
		.first_hop = 1, .max_hops = 16, .queries = 3,
		.wait_ns = 1000 * MS,
	};
	struct roce_sweep s;
	struct roce_sweep_step x;

	is_int(roce_sweep_init(&s, &(struct roce_sweep_settings){ 0, 50 }, 1),
	       -1, "no query in flight refused");
	is_int(roce_sweep_init(&s, &(struct roce_sweep_settings){ 1, 0 }, 1),
	       -1, "rate 0 refused");
	is_int(roce_sweep_init(&s, &(struct roce_sweep_settings){
					   1, ROCE_SWEEP_MAX_RATE + 1 }, 1),
	       -1, "a rate above the most refused");
	is_int(roce_sweep_init(&s, &(struct roce_sweep_settings){
					   ROCE_SWEEP_MAX_IN_FLIGHT + 1, 50 }, 1),
	       -1, "more in flight than the most refused");
	roce_sweep_init(&s, &(struct roce_sweep_settings){ 8, 50 }, 2);
	roce_trace_init(&traces[0], &ts);
	roce_trace_init(&traces[1], &ts);
	s.flows[0].trace = &traces[0];
	s.flows[1].trace = &traces[1];
	s.hold = true;
	x = roce_sweep_next(&s, 0);
	ok(x.kind == ROCE_SWEEP_WAIT, "held: nothing starts");
	s.hold = false;
	x = roce_sweep_next(&s, 0);
	ok(x.kind == ROCE_SWEEP_START && x.flow == 0, "released: flow 0 starts");
	roce_sweep_drop(&s, 1);
	x = roce_sweep_next(&s, 0);
	ok(x.kind == ROCE_SWEEP_SEND && x.flow == 0 && x.step.hop_limit == 1,
	   "flow 0 sends hop 1; flow 1 dropped never starts");
	x = roce_sweep_next(&s, 0);
	ok(x.kind == ROCE_SWEEP_WAIT && x.until_ns == 1000 * MS,
	   "one at a time before an answer named its query: wait");
	roce_sweep_free(&s);
}

int main(void)
{
	test_serial();
	test_parallel();
	test_keys();
	test_hold_and_settings();
	return tap_done();
}

/* The schedule of a RoCE v2 trace (lib/trace/roce_trace.c) with made-up times
 * and answers: two routers then the responder; silent hops and queries;
 * a host without RoCE; a route that ends in an unreachable; the most
 * hops; late and stray answers; the settings' bounds; several queries in
 * flight once answers name their query, and a router whose answers do
 * not. */
#include <stdio.h>
#include <string.h>

#include "trace/roce_trace.h"
#include "tap.h"

#define MS 1000000ull

static struct roce_answer answer(enum roce_answer_kind kind, const char *from)
{
	struct roce_answer a = { .kind = kind, .reply_ttl = -1,
				 .seen_tclass = -1, .seen_hop_limit = -1 };

	snprintf(a.from, sizeof(a.from), "%s", from);
	a.rtt_ns = MS / 2;
	return a;
}

/* The fabric's answer to a query with hop limit hl (routers at 1..routers,
 * the destination after them); "silent" hops give nothing. */
typedef bool (*fabric_fn)(unsigned hl, unsigned query, struct roce_answer *a);

static bool two_routers(unsigned hl, unsigned query, struct roce_answer *a)
{
	(void)query;
	if (hl == 1)
		*a = answer(ROCE_ANSWER_TIME_EXCEEDED, "198.18.1.254");
	else if (hl == 2)
		*a = answer(ROCE_ANSWER_TIME_EXCEEDED, "198.18.3.2");
	else
		*a = answer(ROCE_ANSWER_REPLY, "198.18.4.4");
	return true;
}

static bool second_silent(unsigned hl, unsigned query, struct roce_answer *a)
{
	if (hl == 2)
		return false;
	return two_routers(hl, query, a);
}

static bool one_query_lost(unsigned hl, unsigned query, struct roce_answer *a)
{
	if (hl == 3 && query == 1)
		return false;
	return two_routers(hl, query, a);
}

static bool no_roce(unsigned hl, unsigned query, struct roce_answer *a)
{
	if (hl < 3)
		return two_routers(hl, query, a);
	*a = answer(ROCE_ANSWER_PORT_UNREACHABLE, "198.18.4.4");
	return true;
}

static bool no_route(unsigned hl, unsigned query, struct roce_answer *a)
{
	if (hl == 1)
		return two_routers(hl, query, a);
	*a = answer(ROCE_ANSWER_UNREACHABLE, "198.18.1.254");
	a->icmp_type = 3;
	a->icmp_code = 0;
	return true;
}

static bool black_hole(unsigned hl, unsigned query, struct roce_answer *a)
{
	if (hl == 1)
		return two_routers(hl, query, a);
	return false;
}

/* Runs t against fabric with answers after 1 ms; the time it took. */
static uint64_t run(struct roce_trace *t, fabric_fn fabric, unsigned *sends)
{
	uint64_t now = 0;
	struct roce_step step;

	*sends = 0;
	while ((step = roce_trace_next(t, now)).kind != ROCE_STEP_DONE) {
		struct roce_answer a;

		if (step.kind == ROCE_STEP_WAIT) {
			now = step.until_ns;
			continue;
		}
		(*sends)++;
		if (step.tag != (step.hop_limit << 8 | step.query))
			return 0;
		if (fabric(step.hop_limit, step.query, &a)) {
			now += MS;
			if (!roce_trace_answer(t, step.tag, &a))
				return 0;
		}
		if (*sends > 1000)
			return 0;
	}
	return now;
}

static const struct roce_trace_settings defaults = {
	.first_hop = 1, .max_hops = 16, .queries = 3, .wait_ns = 1000 * MS,
};

static void test_reached(void)
{
	struct roce_trace t;
	unsigned sends;
	uint64_t took;

	roce_trace_init(&t, &defaults);
	took = run(&t, two_routers, &sends);
	is_int(t.end, ROCE_TRACE_REACHED, "two routers, then the responder: reached");
	is_int(t.hop_count, 3, "three hops");
	is_int(sends, 9, "three queries each");
	is_int(took, 9 * MS, "no waiting when every query is answered");
	ok(strcmp(t.hops[0].answers[2].from, "198.18.1.254") == 0 &&
		   t.hops[1].answers[0].kind == ROCE_ANSWER_TIME_EXCEEDED &&
		   roce_trace_hop_final(&t.hops[2], 3)->kind == ROCE_ANSWER_REPLY,
	   "each hop's answers kept, the last one final");
	ok(!roce_trace_hop_final(&t.hops[0], 3), "a router hop is not final");
}

static void test_silence(void)
{
	struct roce_trace t;
	unsigned sends;
	uint64_t took;

	roce_trace_init(&t, &defaults);
	took = run(&t, second_silent, &sends);
	is_int(t.end, ROCE_TRACE_REACHED, "a silent router in between: still reached");
	ok(!t.hops[1].answered[0] && !t.hops[1].answered[1] &&
		   !t.hops[1].answered[2] && t.hops[1].sent == 3,
	   "the silent hop: three queries, no answer ('* * *')");
	is_int(took, 6 * MS + 3 * 1000 * MS, "each silent query waits its deadline");

	roce_trace_init(&t, &defaults);
	run(&t, one_query_lost, &sends);
	ok(t.end == ROCE_TRACE_REACHED && t.hops[2].answered[0] &&
		   !t.hops[2].answered[1] && t.hops[2].answered[2],
	   "one query of the last hop lost: the others reach, the trace ends");
}

static void test_refusals(void)
{
	struct roce_trace t;
	unsigned sends;

	roce_trace_init(&t, &defaults);
	run(&t, no_roce, &sends);
	ok(t.end == ROCE_TRACE_REFUSED && t.hop_count == 3,
	   "port unreachable from the destination host: refused at hop 3");
	roce_trace_init(&t, &defaults);
	run(&t, no_route, &sends);
	ok(t.end == ROCE_TRACE_UNREACHABLE && t.hop_count == 2 &&
		   t.hops[1].answers[0].icmp_type == 3,
	   "a router without a route: unreachable at hop 2, its ICMP kept");
	roce_trace_init(&t, &defaults);
	run(&t, black_hole, &sends);
	ok(t.end == ROCE_TRACE_MAX_HOPS_END && t.hop_count == 16 &&
		   sends == 48,
	   "a black hole after hop 1: every hop up to the most, then the end");
}

static void test_answers_matched(void)
{
	struct roce_trace t;
	struct roce_answer a = answer(ROCE_ANSWER_TIME_EXCEEDED, "10.0.0.1");
	struct roce_step s1, s2;

	roce_trace_init(&t, &defaults);
	ok(!roce_trace_answer(&t, 1 << 8, &a), "an answer before any send: ignored");
	s1 = roce_trace_next(&t, 0);
	is_int(s1.kind, ROCE_STEP_SEND, "first: a send");
	ok(s1.hop_limit == 1 && s1.query == 0 && s1.tag == 0x100,
	   "hop limit 1, query 0, tag 0x100");
	s2 = roce_trace_next(&t, 10 * MS);
	ok(s2.kind == ROCE_STEP_WAIT && s2.until_ns == 1000 * MS,
	   "before the deadline: wait until it");
	ok(!roce_trace_answer(&t, 0x101, &a), "another query's tag: ignored");
	s2 = roce_trace_next(&t, 1000 * MS);
	ok(s2.kind == ROCE_STEP_SEND && s2.query == 1 && s2.tag == 0x101,
	   "at the deadline: the next query");
	ok(!roce_trace_answer(&t, 0x100, &a), "a late answer to the silent query: ignored");
	ok(roce_trace_answer(&t, 0x101, &a), "the answer under way: taken");
	ok(!roce_trace_answer(&t, 0x101, &a), "the same answer twice: ignored");
}

static void test_settings(void)
{
	struct roce_trace t;
	struct roce_trace_settings s = defaults;
	unsigned sends;

	s.first_hop = 0;
	is_int(roce_trace_init(&t, &s), -1, "first hop 0 refused");
	s = defaults;
	s.max_hops = ROCE_TRACE_MAX_HOPS + 1;
	is_int(roce_trace_init(&t, &s), -1, "more than the most hops refused");
	s = defaults;
	s.queries = ROCE_TRACE_MAX_QUERIES + 1;
	is_int(roce_trace_init(&t, &s), -1, "too many queries refused");
	s = defaults;
	s.first_hop = 3;
	s.max_hops = 2;
	is_int(roce_trace_init(&t, &s), -1, "first hop past the most refused");
	s = defaults;
	s.first_hop = 2;
	s.queries = 1;
	roce_trace_init(&t, &s);
	run(&t, two_routers, &sends);
	ok(t.end == ROCE_TRACE_REACHED && t.hop_count == 2 &&
		   t.hops[0].hop_limit == 2 && sends == 2,
	   "first hop 2, one query each: hop limits 2 and 3");
	s = defaults;
	s.max_hops = ROCE_TRACE_MAX_HOPS;
	roce_trace_init(&t, &s);
	run(&t, black_hole, &sends);
	is_int(t.hop_count, ROCE_TRACE_MAX_HOPS, "the most hops fit");
}

/* The way back broken (issue 26): routers at 1 and 2 answer, the
 * responder's answers never come back. Without --max-hops the sweep ends
 * 3 silent hops after the last router; the silent tail is what the
 * responder is asked about; its count above 0 says the trace reached it. */
static bool way_back_lost(unsigned hl, unsigned query, struct roce_answer *a)
{
	if (hl <= 2)
		return two_routers(hl, query, a);
	return false;
}

static void test_silent_end(void)
{
	struct roce_trace_settings st = defaults;
	struct roce_trace t;
	unsigned sends, first = 0, last = 0;

	st.silent_after = ROCE_TRACE_SILENT_AFTER;
	roce_trace_init(&t, &st);
	run(&t, way_back_lost, &sends);
	is_int(t.end, ROCE_TRACE_SILENT_END, "silent after the last router: "
	       "ended");
	is_int(t.hop_count, 5, "at hop 2 + 3, not 16");
	is_int(t.last_answered_hop, 2, "the last router at hop 2");
	ok(roce_trace_silent_tail(&t, &first, &last) && first == 3 &&
		   last == 5, "the silent tail: hops 3-5");
	roce_trace_note_responder_count(&t, 0);
	is_int(t.end, ROCE_TRACE_SILENT_END, "the responder saw none: still "
	       "not reached");
	roce_trace_note_responder_count(&t, 9);
	is_int(t.end, ROCE_TRACE_ANSWERS_LOST, "it saw 9: reached, its answers "
	       "lost on the way back");
	is_int(t.responder_received, 9, "9 kept");
	ok(roce_trace_silent_tail(&t, &first, &last) && first == 3 &&
		   last == 5, "the tail still named once reached");

	/* --max-hops given: the sweep goes on to it. */
	roce_trace_init(&t, &defaults);
	run(&t, way_back_lost, &sends);
	ok(t.end == ROCE_TRACE_MAX_HOPS_END && t.hop_count == 16,
	   "silent_after 0: on to max_hops");
	ok(roce_trace_silent_tail(&t, &first, &last) && first == 3 &&
		   last == 16, "the tail: hops 3-16");

	/* A silent router between two that answer: not the end. */
	roce_trace_init(&t, &st);
	run(&t, second_silent, &sends);
	is_int(t.end, ROCE_TRACE_REACHED, "one silent router: still reached");
	ok(!roce_trace_silent_tail(&t, &first, &last), "no silent tail");

	/* Nothing answers at all: no router said the way goes on. */
	roce_trace_init(&t, &st);
	run(&t, black_hole, &sends);
	is_int(t.end, ROCE_TRACE_SILENT_END, "a black hole after hop 1: ended "
	       "at hop 4");
	is_int(t.hop_count, 4, "4 hops");
	roce_trace_note_responder_count(&t, 0);
	is_int(t.end, ROCE_TRACE_SILENT_END, "none received: not reached");
}

/* A query's answer on its way: due at `at`; named: it names its query
 * (a quoted BTH, the responder's sequence). */
struct pending {
	uint64_t at;
	uint32_t tag;
	bool named;
	struct roce_answer a;
};

struct parallel_run {
	unsigned sends, most_in_flight, highest_hop, hop_query_overlaps;
	uint64_t took;
};

/* Runs t against fabric with several queries in flight: every answer
 * comes 1 ms after its send; unnamed_hop's answers name no query (a
 * router that quotes 8 bytes past the IP header; ~0u: every hop's), so
 * they go to the only query in flight, or make the trace go one at a
 * time. */
static struct parallel_run run_parallel(struct roce_trace *t, fabric_fn fabric,
					unsigned unnamed_hop)
{
	static struct pending pend[4096];
	struct parallel_run out = { 0 };
	size_t np = 0;
	uint64_t now = 0;
	struct roce_step step;

	while ((step = roce_trace_next(t, now)).kind != ROCE_STEP_DONE &&
	       out.sends < 1000) {
		uint64_t next;

		if (step.kind == ROCE_STEP_SEND) {
			struct roce_answer a;

			out.sends++;
			if (step.query > 0 &&
			    t->hops[step.hop_limit - t->settings.first_hop]
					    .state[step.query - 1] !=
				    ROCE_QUERY_ANSWERED &&
			    t->hops[step.hop_limit - t->settings.first_hop]
					    .state[step.query - 1] !=
				    ROCE_QUERY_SILENT)
				out.hop_query_overlaps++;
			if (t->in_flight > out.most_in_flight)
				out.most_in_flight = t->in_flight;
			if (step.hop_limit > out.highest_hop)
				out.highest_hop = step.hop_limit;
			if (fabric(step.hop_limit, step.query, &a) &&
			    np < sizeof(pend) / sizeof(pend[0]))
				pend[np++] = (struct pending){
					.at = now + MS, .tag = step.tag,
					.named = unnamed_hop != ~0u &&
						 step.hop_limit != unnamed_hop,
					.a = a };
			continue;
		}
		next = step.until_ns;
		for (size_t i = 0; i < np; i++)
			if (pend[i].at < next)
				next = pend[i].at;
		now = next;
		for (size_t i = 0; i < np;) {
			uint32_t tag;

			if (pend[i].at > now) {
				i++;
				continue;
			}
			if (pend[i].named) {
				if (roce_trace_answer(t, pend[i].tag, &pend[i].a))
					roce_trace_answers_tagged(t);
			} else if (roce_trace_only_in_flight(t, &tag)) {
				roce_trace_answer(t, tag, &pend[i].a);
			} else if (roce_trace_in_flight_tags(t, &tag, 1)) {
				roce_trace_answer_unplaced(t);
			}
			pend[i] = pend[--np];
		}
	}
	out.took = now;
	return out;
}

static bool routers_then_responder(unsigned hl, unsigned query,
				   struct roce_answer *a)
{
	if (!two_routers(hl, query, a))
		return false;
	if (a->kind == ROCE_ANSWER_REPLY)
		a->seen_hop_limit = (int)hl - 2;	/* two routers */
	return true;
}

static void test_in_flight(void)
{
	struct roce_trace_settings st = defaults;
	struct parallel_run pr;
	struct roce_trace t;

	/* The way back broken: one deadline for the silent tail, not nine. */
	st.silent_after = ROCE_TRACE_SILENT_AFTER;
	st.depth = 16;
	roce_trace_init(&t, &st);
	pr = run_parallel(&t, way_back_lost, 0);
	is_int(t.end, ROCE_TRACE_SILENT_END, "in flight: silent after the last "
	       "router, ended");
	is_int(t.hop_count, 5, "at hop 2 + 3, as one at a time");
	is_int(pr.sends, 15, "the same 15 queries as one at a time");
	is_int(pr.highest_hop, 5, "none past the silent end");
	ok(pr.most_in_flight > 3, "several hops in flight at once");
	ok(pr.took < 3100 * MS, "a deadline per query of a hop (its retries "
	   "in time), the silent hops side by side: 3, not nine");
	is_int(pr.hop_query_overlaps, 0, "never two queries of one hop in "
	       "flight: a late first answer (first contact) leaves the next "
	       "its own deadline");

	/* Untagged until an answer names its query: the first goes alone. */
	roce_trace_init(&t, &st);
	ok(roce_trace_next(&t, 0).kind == ROCE_STEP_SEND &&
		   roce_trace_next(&t, 0).kind == ROCE_STEP_WAIT,
	   "before any answer named its query: one at a time");

	/* Answers that never name their query: one at a time throughout. */
	roce_trace_init(&t, &st);
	pr = run_parallel(&t, two_routers, ~0u);
	ok(t.end == ROCE_TRACE_REACHED && pr.most_in_flight == 1,
	   "no answer names its query: never two in flight");

	/* Reached: the responder's hop limit left says two routers, so
	 * nothing past hop 3 is begun once it answered, and the queries
	 * sent ahead of it do not make hops of the trace. */
	st = defaults;
	st.depth = 16;
	roce_trace_init(&t, &st);
	pr = run_parallel(&t, routers_then_responder, 0);
	ok(t.end == ROCE_TRACE_REACHED && t.hop_count == 3,
	   "in flight: reached at hop 3");
	is_int(t.responder_hop, 3, "the responder's hop from its hop limit");
	ok(pr.highest_hop <= 4, "never past hop 1 + the lookahead of 3");
	ok(t.hops[2].answered[0] && t.hops[2].answered[1] &&
		   t.hops[2].answered[2] &&
		   strcmp(t.hops[1].answers[1].from, "198.18.3.2") == 0,
	   "every query answered at its own hop");
	ok(pr.took < 10 * MS, "no deadline waited");

	/* A router that quotes no BTH while several are in flight: its
	 * answer cannot be placed; those in flight are asked again one at
	 * a time after their deadline, and each answer lands at its hop. */
	roce_trace_init(&t, &st);
	pr = run_parallel(&t, two_routers, 2);
	is_int(t.end, ROCE_TRACE_REACHED, "unnamed answers at hop 2: reached");
	ok(t.hops[1].answered[0] && t.hops[1].answered[1] &&
		   t.hops[1].answered[2] &&
		   strcmp(t.hops[1].answers[0].from, "198.18.3.2") == 0 &&
		   strcmp(t.hops[1].answers[2].from, "198.18.3.2") == 0,
	   "hop 2's answers all placed at hop 2");
	ok(t.hops[2].answers[0].kind == ROCE_ANSWER_REPLY &&
		   t.hops[2].answers[2].kind == ROCE_ANSWER_REPLY,
	   "no router answer placed at the responder's hop");
	ok(pr.took >= 1000 * MS && pr.took < 1100 * MS,
	   "one deadline for the queries made void");
}

int main(void)
{
	test_reached();
	test_silence();
	test_refusals();
	test_answers_matched();
	test_settings();
	test_silent_end();
	test_in_flight();
	return tap_done();
}

/* Unit tests of serve's responder decisions (responder_rules.h): the drop
 * reason of a packet that did not decode, the reply rate cap, where a
 * reply goes by its reply AH's state, what a worker's result means, what
 * a device event does, when the loop stops, and the count answer. */
#include <signal.h>
#include <string.h>

#include "peer/responder_rules.h"
#include "tap.h"

#define MS 1000000ull
#define S 1000000000ull

static void test_drop_for(void)
{
	is_int(responder_drop_for(PROBE_ERR_MAGIC), DROP_BAD_MAGIC,
	       "bad magic: bad_magic");
	is_int(responder_drop_for(PROBE_ERR_VERSION), DROP_BAD_VERSION,
	       "bad version: bad_version");
	is_int(responder_drop_for(PROBE_ERR_KIND), DROP_BAD_KIND,
	       "bad kind: bad_kind");
	is_int(responder_drop_for(PROBE_ERR_LENGTH), DROP_BAD_LENGTH,
	       "length disagrees: bad_length");
	is_int(responder_drop_for(PROBE_ERR_SHORT), DROP_TRUNCATED,
	       "too short: truncated");
	is_int(responder_drop_for(PROBE_ERR_COUNT), DROP_TRUNCATED,
	       "any other error: truncated");

	/* The summary's keys, as serve(8) and the JSON readers know them. */
	is_str(responder_drop_names[DROP_TRUNCATED], "truncated",
	       "key of truncated");
	is_str(responder_drop_names[DROP_REVERSE_BUSY], "reverse_ah_busy",
	       "key of reverse_ah_busy");
	is_str(responder_drop_names[DROP_RATE_LIMIT], "rate_limited",
	       "key of rate_limited");
	is_str(responder_drop_names[DROP_SEND_FAILED], "send_failed",
	       "key of send_failed (the last)");
	for (int i = 0; i < DROP_COUNT; i++) {
		bool unique = responder_drop_names[i] != NULL;

		for (int j = 0; unique && j < i; j++)
			unique = strcmp(responder_drop_names[i],
					responder_drop_names[j]) != 0;
		ok(unique, "drop reason %d has a key of its own", i);
	}
}

static void test_reply_rate(void)
{
	struct reply_rate b;
	uint64_t t0 = 5 * S;
	int taken;

	reply_rate_start(&b, t0);
	ok(reply_rate_take(&b, 1000, t0), "the first reply goes at once");
	ok(!reply_rate_take(&b, 1000, t0), "a second at the same instant not");
	ok(!reply_rate_take(&b, 1000, t0 + MS / 2),
	   "nor half a token later (1000/s: 0.5 ms)");
	ok(reply_rate_take(&b, 1000, t0 + MS),
	   "one token 1 ms later at 1000/s");

	/* After a long pause the burst is 100 ms worth, plus one. */
	reply_rate_start(&b, t0);
	taken = 0;
	while (taken < 1000 && reply_rate_take(&b, 100, t0 + 10 * S))
		taken++;
	is_int(taken, 11, "100/s after 10 s idle: a burst of 11, not 1000");
	reply_rate_start(&b, t0);
	taken = 0;
	while (taken < 100000 && reply_rate_take(&b, 20000, t0 + 60 * S))
		taken++;
	is_int(taken, 2001, "the default 20000/s: a burst of 2001");
	ok(!reply_rate_take(&b, 20000, t0 + 60 * S + 40000),
	   "drained: 40 us later still under one token");
	ok(reply_rate_take(&b, 20000, t0 + 60 * S + 50000),
	   "50 us later at 20000/s: one");
	ok(!reply_rate_take(&b, 20000, t0 + 60 * S + 50000),
	   "and only one");
}

static void test_reply_route(void)
{
	struct reverse_cache cache;
	struct reverse_key k = { .slid = 1 };
	struct ibv_ah *evicted, *fake = (struct ibv_ah *)&cache;
	struct ibv_ah_attr attr = { .dlid = 1 };
	struct reverse_entry *e;
	uint64_t now = 1000 * S;

	is_int(reverse_cache_init(&cache, 4), 0, "cache");
	is_int(reply_route_for(NULL, now), REPLY_START,
	       "a new sender: a slot and a worker");
	e = reverse_cache_claim(&cache, &k, 0, &evicted);
	is_int(reply_route_for(e, now), REPLY_PARK,
	       "AH being made: the reply is parked");
	reverse_entry_ready(e, fake, &attr);
	is_int(reply_route_for(e, now), REPLY_SEND, "AH ready: sent");
	reverse_entry_forget(e);
	e = reverse_cache_claim(&cache, &k, 0, &evicted);
	reverse_entry_failed(e, 113, false, now);
	is_int(reply_route_for(e, now + 1), REPLY_BACK_OFF,
	       "failed a moment ago: dropped, no new attempt");
	is_int(reply_route_for(e, now + REVERSE_RETRY_FIRST_NS - 1),
	       REPLY_BACK_OFF, "still in its back-off");
	is_int(reply_route_for(e, now + REVERSE_RETRY_FIRST_NS), REPLY_RETRY,
	       "back-off over: tried again");
	reverse_cache_free(&cache);
}

static void test_ah_results(void)
{
	struct reverse_entry e;

	memset(&e, 0, sizeof(e));
	is_int(ah_result_fate_of(NULL, 3, 3, true), AH_RESULT_STALE,
	       "slot reused meanwhile: discarded");
	is_int(ah_result_fate_of(&e, 2, 3, true), AH_RESULT_STALE,
	       "port changed meanwhile: the AH is discarded");
	is_int(ah_result_fate_of(&e, 2, 3, false), AH_RESULT_STALE,
	       "port changed meanwhile: the failure too");
	is_int(ah_result_fate_of(&e, 3, 3, true), AH_RESULT_READY,
	       "an AH of this epoch: ready");
	is_int(ah_result_fate_of(&e, 3, 3, false), AH_RESULT_FAILED,
	       "no AH: failed");

	e.failures = 1;
	e.parked_count = 2;
	ok(reverse_retry_at_once_wanted(&e),
	   "first failure with replies parked: once more at once");
	e.parked_count = 0;
	ok(!reverse_retry_at_once_wanted(&e),
	   "first failure, nothing parked: wait for the back-off");
	e.failures = 2;
	e.parked_count = 2;
	ok(!reverse_retry_at_once_wanted(&e),
	   "second failure in a row: wait for the back-off");

	struct reverse_retired r = { .last_send = 10 };

	ok(!reverse_retired_done(&r, 9), "a send still out: the AH stays");
	ok(reverse_retired_done(&r, 10), "its last send completed: it goes");
	ok(reverse_retired_done(&r, 11), "and later too");
}

static void test_events(void)
{
	static const enum ibv_event_type fatal[] = {
		IBV_EVENT_QP_FATAL, IBV_EVENT_QP_REQ_ERR,
		IBV_EVENT_QP_ACCESS_ERR, IBV_EVENT_CQ_ERR,
		IBV_EVENT_DEVICE_FATAL,
	};
	static const enum ibv_event_type port[] = {
		IBV_EVENT_PORT_ERR, IBV_EVENT_PORT_ACTIVE,
		IBV_EVENT_LID_CHANGE, IBV_EVENT_PKEY_CHANGE,
		IBV_EVENT_GID_CHANGE,
	};

	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		is_int(responder_event_action_of(fatal[i], 7, 1), EVENT_FATAL,
		       "%s: the responder stops",
		       ibv_event_type_str(fatal[i]));
	for (size_t i = 0; i < sizeof(port) / sizeof(port[0]); i++) {
		is_int(responder_event_action_of(port[i], 1, 1),
		       EVENT_PORT_CHANGED, "%s on our port: AHs dropped, port "
		       "read again", ibv_event_type_str(port[i]));
		is_int(responder_event_action_of(port[i], 2, 1),
		       EVENT_OTHER_PORT, "%s on another port: ignored",
		       ibv_event_type_str(port[i]));
	}
	is_int(responder_event_action_of(IBV_EVENT_CLIENT_REREGISTER, 1, 1),
	       EVENT_PORT_REREGISTER, "client reregister: register again");
	is_int(responder_event_action_of(IBV_EVENT_SM_CHANGE, 1, 1),
	       EVENT_PORT_REREGISTER, "SM change: register again");
	is_int(responder_event_action_of(IBV_EVENT_SM_CHANGE, 2, 1),
	       EVENT_OTHER_PORT, "SM change of another port: ignored");
	is_int(responder_event_action_of(IBV_EVENT_COMM_EST, 1, 1),
	       EVENT_LOGGED, "communication established: only said");
	is_int(responder_event_action_of(IBV_EVENT_SRQ_LIMIT_REACHED, 1, 1),
	       EVENT_LOGGED, "SRQ limit: only said");
}

static void test_stop(void)
{
	ok(responder_stop_reason(false, 0, 0, 5, 0, 100) == NULL,
	   "nothing asks to stop: go on");
	is_str(responder_stop_reason(true, SIGINT, 1, 5, 10, 100), "error",
	       "an error goes before everything");
	is_str(responder_stop_reason(false, SIGINT, 1, 5, 10, 100), "SIGINT",
	       "then the signal");
	is_str(responder_stop_reason(false, SIGTERM, 0, 0, 0, 0), "SIGTERM",
	       "SIGTERM named");
	is_str(responder_stop_reason(false, 0, 5, 5, 10, 100), "count",
	       "then the count");
	ok(responder_stop_reason(false, 0, 6, 5, 0, 100) == NULL,
	   "count not reached: go on");
	is_str(responder_stop_reason(false, 0, 0, 5, 100, 100), "duration",
	       "the duration's end");
	ok(responder_stop_reason(false, 0, 0, 5, 101, 100) == NULL,
	   "before it: go on");

	is_int(responder_wait_ms(0, 100), 1000, "no deadline: a second");
	is_int(responder_wait_ms(100 + 2 * S, 100), 1000,
	       "deadline in 2 s: a second");
	is_int(responder_wait_ms(100 + S, 100), 1000,
	       "deadline in exactly 1 s: a second");
	is_int(responder_wait_ms(100 + 5 * MS + MS / 2, 100), 6,
	       "deadline in 5.5 ms: just past it, 6 ms");
	is_int(responder_wait_ms(100 + 10, 100), 1,
	       "deadline in 10 ns: 1 ms");
}

static struct request_set_key set_key(uint32_t probe_id, uint16_t slid)
{
	struct request_set_key k;

	memset(&k, 0, sizeof(k));
	k.probe_id = probe_id;
	k.src_qp = 0x42;
	k.slid = slid;
	k.sgid.raw[15] = 9;
	k.asked.hop_limit = 64;
	return k;
}

static struct rendezvous_count_question question(uint32_t probe_id,
						 uint16_t lid, uint32_t age_ms)
{
	struct rendezvous_count_question q;

	memset(&q, 0, sizeof(q));
	q.probe_id = probe_id;
	q.qpn = 0x42;
	q.lid = lid;
	q.gid.raw[15] = 9;
	q.asked.hop_limit = 64;
	q.age_ms = age_ms;
	return q;
}

static void test_count_answer(void)
{
	struct request_counts t;
	struct request_set_key k = set_key(7, 3);
	struct rendezvous_count_question q;
	struct rendezvous_count_answer a;
	uint64_t now = 100 * S;

	is_int(request_counts_init(&t, 2, 1), 0, "count table of 2");
	for (int i = 0; i < 4; i++)
		request_counts_note(&t, &k, now - 10 * MS);
	for (int i = 0; i < 3; i++)
		request_counts_note_answer(&t, &k, false);

	q = question(7, 3, 1000);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 4 &&
		   a.answered == 3,
	   "a known set: received 4, answered 3");
	q = question(7, 4, 1000);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 0 &&
		   a.answered == 0,
	   "InfiniBand, another LID: another set, never seen, 0/0");
	q = question(8, 3, 1000);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 0,
	   "a run never seen, nothing evicted: known, 0");

	/* RoCE: LIDs mean nothing; the set is kept with slid 0. */
	k = set_key(9, 0);
	request_counts_note(&t, &k, now - 5 * MS);
	q = question(9, 17, 1000);
	responder_count_answer(&t, false, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 1,
	   "RoCE: the question's LID is ignored");
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 0,
	   "InfiniBand: the same question asks another set");

	/* A third set evicts the run 7 set, last used 10 ms ago. */
	k = set_key(10, 0);
	request_counts_note(&t, &k, now - MS);
	q = question(7, 3, 1000);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_FORGOTTEN && a.received == 0,
	   "an evicted set of a run still going: forgotten, no count");
	q = question(11, 0, 1000);
	responder_count_answer(&t, false, &q, now, &a);
	is_int(a.state, RENDEZVOUS_COUNT_FORGOTTEN,
	       "a run that began before the eviction: might have been it");
	q = question(11, 0, 5);
	responder_count_answer(&t, false, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 0,
	   "a run that began after the eviction: never seen, 0");
	q = question(11, 0, 200000);
	responder_count_answer(&t, false, &q, 50 * S, &a);
	is_int(a.state, RENDEZVOUS_COUNT_FORGOTTEN,
	       "a run older than the clock: since 0, not underflowed");
	request_counts_free(&t);
}

/* First contact: of 5 requests, 2 were dropped while the reply AH was
 * made (parking full or creation failed), 2 are still parked when the
 * prober asks, 1 went over --max-rate: the answer says so by reason. */
static void test_count_reasons(void)
{
	struct request_counts t;
	struct request_set_key k = set_key(7, 3);
	struct rendezvous_count_question q = question(7, 3, 1000);
	struct rendezvous_count_answer a;
	uint64_t now = 100 * S;

	request_counts_init(&t, 4, 1);
	for (int i = 0; i < 5; i++)
		request_counts_note(&t, &k, now - 10 * MS);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.reasons_known && a.unanswered[UNANSWERED_RESOLVING] == 0,
	   "nothing parked or dropped: no reason yet");
	for (int i = 0; i < 3; i++)
		request_counts_note_parked(&t, &k, true);
	request_counts_note_parked(&t, &k, false);
	request_counts_note_unanswered(&t, &k, UNANSWERED_RESOLVING);
	request_counts_note_unanswered(&t, &k, UNANSWERED_RESOLVING);
	request_counts_note_unanswered(&t, &k, UNANSWERED_RATE_LIMIT);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.state == RENDEZVOUS_COUNT_KNOWN && a.received == 5 &&
		   a.answered == 0, "5 seen, none answered");
	is_int(a.unanswered[UNANSWERED_RESOLVING], 4,
	       "2 dropped and 2 still parked: 4 waiting for the reply AH");
	is_int(a.unanswered[UNANSWERED_RATE_LIMIT], 1, "1 over --max-rate");
	for (int i = 0; i < 5; i++)
		request_counts_note_parked(&t, &k, false);
	responder_count_answer(&t, true, &q, now, &a);
	is_int(a.unanswered[UNANSWERED_RESOLVING], 2,
	       "the park never goes below empty");
	ok(a.after_park_known && a.answered_after_park == 0,
	   "none answered after a park yet");
	request_counts_note_answer(&t, &k, true);
	request_counts_note_answer(&t, &k, true);
	request_counts_note_answer(&t, &k, false);
	responder_count_answer(&t, true, &q, now, &a);
	ok(a.answered == 3 && a.answered_after_park == 2,
	   "3 answered, 2 of them after waiting for the reply AH");
	request_counts_free(&t);
}

/* serve --rq-depth against the device's max_qp_wr (rxe 0x4000 by
 * default, mlx5 0x8000). */
static void test_rq_depth(void)
{
	uint32_t depth = 0;
	char err[256] = "";

	is_int(responder_rq_depth_for(0, 32768, "mlx5_0", &depth, err,
				      sizeof(err)), 0, "default on mlx5");
	is_int(depth, RESPONDER_RECV_DEPTH, "the default, 1024");
	is_int(responder_rq_depth_for(0, 512, "tiny0", &depth, err,
				      sizeof(err)), 0, "default, small device");
	is_int(depth, 512, "lowered to max_qp_wr");
	is_int(responder_rq_depth_for(4, 16384, "rxe0", &depth, err,
				      sizeof(err)), 0, "asked 4");
	is_int(depth, 4, "4 it is");
	is_int(responder_rq_depth_for(0, 0, "x", &depth, err, sizeof(err)), 0,
	       "max unknown");
	is_int(depth, RESPONDER_RECV_DEPTH, "the default");
	is_int(responder_rq_depth_for(20000, 16384, "rxe0", &depth, err,
				      sizeof(err)), -1, "more than allowed");
	is_str(err, "--rq-depth 20000 is more than rxe0 allows (max_qp_wr "
		    "16384): give at most 16384", "says the limit");
}

int main(void)
{
	test_drop_for();
	test_reply_rate();
	test_reply_route();
	test_ah_results();
	test_events();
	test_stop();
	test_count_answer();
	test_count_reasons();
	test_rq_depth();
	return tap_done();
}

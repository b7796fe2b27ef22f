/* Unit tests of the loss-direction decision: the responder's final
 * count, a reply's running count, older responders and every way the
 * counts can be missing, with the exact sentences admins read. */
#include <string.h>

#include "probe/oneway_loss.h"
#include "tap.h"

static struct oneway_verdict judge(struct oneway_input in)
{
	struct oneway_verdict v;

	oneway_judge(&in, &v);
	return v;
}

static void test_final_count(void)
{
	struct oneway_verdict v;

	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 7,
					 .final_answered = 7,
					 .replies_seen = true });
	is_int(v.direction, ONEWAY_THERE, "never seen: there");
	is_str(v.text, "lost on the way there: the responder saw 7 of 10",
	       "there, both numbers");
	ok(v.lost_there == 3 && v.lost_back == 0 && v.final, "3 there, 0 back");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 10 });
	is_int(v.direction, ONEWAY_BACK, "answered, not back: back");
	is_str(v.text, "lost on the way back: the responder answered 10 of "
		       "10, 3 replies lost", "back, both numbers");
	ok(v.lost_there == 0 && v.lost_back == 3, "0 there, 3 back");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 0,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 10 });
	is_str(v.text, "lost on the way back: the responder answered 10 of "
		       "10, 10 replies lost", "nothing back at all: back");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 0,
					 .final = ONEWAY_FINAL_KNOWN });
	is_str(v.text, "lost on the way there: the responder saw 0 of 10",
	       "nothing seen at all: there");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 5,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 8,
					 .final_answered = 8 });
	is_int(v.direction, ONEWAY_BOTH, "some each way: both");
	is_str(v.text, "lost both ways: the responder saw 8 of 10 and "
		       "answered 8, 3 replies lost on the way back",
	       "both, every number");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 6,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 6 });
	is_int(v.direction, ONEWAY_AT_RESPONDER, "seen, not answered");
	is_str(v.text, "not answered: the responder saw 10 of 10 and answered "
		       "6 (its --max-rate, or no reverse path: serve -v says "
		       "which)", "the responder's own drops named");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 5,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 8 });
	is_str(v.text, "lost on the way back: the responder answered 8 of 10, "
		       "3 replies lost; 2 seen but not answered",
	       "back, and the unanswered said too");
	ok(v.lost_back == 3 && v.unanswered == 2, "3 back, 2 unanswered");

	/* A duplicated request counts twice at the responder: never more
	 * seen than sent, never negative loss. */
	v = judge((struct oneway_input){ .sent = 10, .arrived = 9,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 12,
					 .final_answered = 12 });
	ok(v.direction == ONEWAY_BACK && v.responder_saw == 10 &&
		   v.lost_back == 1, "duplicates clamp to what was sent");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 9,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 9,
					 .final_answered = 9 });
	ok(v.direction == ONEWAY_THERE && v.lost_there == 1,
	   "one lost there");
}

/* First contact: the responder saw every probe and could not answer
 * them yet, its reply AH to us still being made (the count answer's
 * "unanswered":{"resolving":N}); not a blocked path. */
static void test_first_contact(void)
{
	struct oneway_verdict v;

	v = judge((struct oneway_input){ .sent = 5, .arrived = 0,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 0,
					 .final_reasons_known = true,
					 .final_resolving = 5 });
	is_int(v.direction, ONEWAY_AT_RESPONDER, "seen, not answered");
	is_int(v.resolving, 5, "5 waited for the reply AH");
	is_str(v.text, "not answered: the responder was still resolving its "
		       "way back to you (first contact): it saw 5 of 5, none "
		       "answered yet (a rerun finds its reply AH made)",
	       "first contact, nothing answered");

	v = judge((struct oneway_input){ .sent = 5, .arrived = 3,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 3,
					 .final_reasons_known = true,
					 .final_resolving = 2 });
	is_str(v.text, "not answered: the responder was still resolving its "
		       "way back to you (first contact): it saw 5 of 5, 3 "
		       "answered after", "first contact, the rest answered");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 6,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 6,
					 .final_reasons_known = true,
					 .final_resolving = 2 });
	is_str(v.text, "not answered: the responder was still resolving its "
		       "way back to you (first contact): it saw 10 of 10, 6 "
		       "answered after; 2 more not answered (its --max-rate: "
		       "serve -v says)", "and the rate limit beside it");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 5,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 8,
					 .final_reasons_known = true,
					 .final_resolving = 2 });
	is_str(v.text, "lost on the way back: the responder answered 8 of 10, "
		       "3 replies lost; 2 not answered while the responder was "
		       "still resolving its way back to you (first contact)",
	       "back, with first contact beside it");

	v = judge((struct oneway_input){ .sent = 5, .arrived = 0,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 0,
					 .final_reasons_known = true });
	is_int(v.resolving, 0, "a newer serve, no AH waited: not first "
	       "contact");
	ok(strstr(v.text, "first contact") == NULL, "and not said");
	v = judge((struct oneway_input){ .sent = 5, .arrived = 0,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 0 });
	is_int(v.resolving, -1, "an older serve: not known why");
}

/* First contact, the other timing: the responder made its reply AH only
 * after the deadlines, then posted the parked replies, which came late
 * and say they waited: no loss on the way back, first contact all the
 * same. */
static void test_first_contact_answered_late(void)
{
	struct oneway_verdict v;

	v = judge((struct oneway_input){ .sent = 5, .arrived = 5,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 5,
					 .final_reasons_known = true,
					 .late_after_park = 5,
					 .replies_seen = true });
	is_int(v.direction, ONEWAY_AT_RESPONDER, "late: not lost back");
	ok(v.lost_back == 0 && v.lost_there == 0 && v.answered_late == 5 &&
		   v.resolving == 5, "5 answered late, none lost");
	is_str(v.text, "not answered: the responder was still resolving its "
		       "way back to you (first contact): it saw 5 of 5, 5 "
		       "answered late, once its reply AH was made",
	       "said as first contact");

	/* Two late after the park, one truly missing: that one stays loss
	 * on the way back. */
	v = judge((struct oneway_input){ .sent = 10, .arrived = 9,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 10,
					 .final_reasons_known = true,
					 .late_after_park = 2 });
	is_int(v.direction, ONEWAY_BACK, "one more missing: back");
	ok(v.lost_back == 1 && v.answered_late == 2 && v.resolving == 2,
	   "2 late, 1 lost back");
	is_str(v.text, "lost on the way back: the responder answered 10 of "
		       "10, 1 reply lost; 2 answered late, the responder still "
		       "resolving its way back to you (first contact)",
	       "both said");

	/* Nothing came late: the missing ones are lost back, whatever the
	 * responder parked. */
	v = judge((struct oneway_input){ .sent = 10, .arrived = 8,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 10,
					 .final_answered = 10,
					 .final_reasons_known = true });
	ok(v.direction == ONEWAY_BACK && v.lost_back == 2 &&
		   v.answered_late == 0 && v.resolving == 0,
	   "no late reply: the 2 missing are lost back");

	/* In time and late together, none unanswered. */
	v = judge((struct oneway_input){ .sent = 5, .arrived = 5,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 5,
					 .final_reasons_known = true,
					 .late_after_park = 2 });
	is_str(v.text, "not answered: the responder was still resolving its "
		       "way back to you (first contact): it saw 5 of 5, 3 "
		       "answered after, 2 answered late, once its reply AH was "
		       "made", "both parts said");

	/* Late without a count (an older serve, no rendezvous answer): the
	 * reply's running count covers the set. */
	v = judge((struct oneway_input){ .sent = 4, .arrived = 4,
					 .final = ONEWAY_FINAL_NO_ANSWER,
					 .reply_count = 4, .reply_ordinal = 4,
					 .late_after_park = 4,
					 .replies_seen = true });
	ok(v.direction == ONEWAY_AT_RESPONDER && v.lost_back == 0 &&
		   v.answered_late == 4, "from the running count too");

	/* Late replies that did not wait for an AH are back, as before. */
	v = judge((struct oneway_input){ .sent = 5, .arrived = 5,
					 .final = ONEWAY_FINAL_KNOWN,
					 .final_received = 5,
					 .final_answered = 5 });
	is_int(v.direction, ONEWAY_NO_LOSS, "late, unparked: no loss");
}

static void test_no_loss(void)
{
	struct oneway_verdict v;

	v = judge((struct oneway_input){ .sent = 5, .arrived = 5,
					 .reply_count = 5, .reply_ordinal = 5,
					 .replies_seen = true });
	ok(v.direction == ONEWAY_NO_LOSS && v.text[0] == '\0' &&
		   v.lost_there == 0 && v.lost_back == 0,
	   "every reply back: no finding");
	is_str(oneway_direction_name(v.direction), "none", "JSON name");
}

static void test_reply_counts(void)
{
	struct oneway_verdict v;

	/* The last probe was answered: its count is the final one. */
	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_NO_ANSWER,
					 .reply_count = 7, .reply_ordinal = 10,
					 .replies_seen = true });
	is_str(v.text, "lost on the way there: the responder saw 7 of 10",
	       "last reply's count is final");
	is_int(v.responder_answered, -1, "how many it answered: unknown");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_NO_ANSWER,
					 .reply_count = 10, .reply_ordinal = 10,
					 .replies_seen = true });
	is_str(v.text, "lost on the way back: the responder saw 10 of 10, 3 "
		       "replies lost", "without the answered count: saw");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 4,
					 .final = ONEWAY_FINAL_NO_ANSWER,
					 .reply_count = 4, .reply_ordinal = 6,
					 .replies_seen = true });
	is_int(v.direction, ONEWAY_THERE, "an earlier reply's shortfall");
	is_str(v.text, "lost on the way there: the responder saw 4 of the "
		       "first 6 (its final count unknown)", "says how far");
	ok(!v.final && v.of == 6 && v.lost_there == 2, "partial numbers");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 6,
					 .final = ONEWAY_FINAL_NO_ANSWER,
					 .reply_count = 6, .reply_ordinal = 6,
					 .replies_seen = true });
	is_int(v.direction, ONEWAY_UNKNOWN, "all of the first 6 seen: unknown");
	is_str(v.text, "loss direction unknown: its rendezvous did not answer "
		       "the question", "why unknown");
}

static void test_unknown(void)
{
	struct oneway_verdict v;

	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_OLD,
					 .replies_seen = true });
	is_int(v.direction, ONEWAY_UNKNOWN, "older responder: unknown");
	is_str(v.text, "loss direction unknown: the responder does not count "
		       "requests (an older ibahprobe serve)",
	       "never 'lost on the way there'");
	ok(v.lost_there == -1 && v.lost_back == -1, "both counts unknown");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 0,
					 .final = ONEWAY_FINAL_OLD });
	is_str(v.text, "loss direction unknown: the responder does not count "
		       "requests (an older ibahprobe serve)",
	       "an older rendezvous, no reply at all: still unknown");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_NO_ANSWER,
					 .replies_seen = true });
	is_str(v.text, "loss direction unknown: the responder does not count "
		       "requests (an older ibahprobe serve)",
	       "replies with count 0 are an older responder's");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 0,
					 .final = ONEWAY_FINAL_NOT_ASKED });
	is_str(v.text, "loss direction unknown: the responder's count could "
		       "not be asked (no rendezvous)", "--qpn, nothing back");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 0,
					 .final = ONEWAY_FINAL_FORGOTTEN });
	is_str(v.text, "loss direction unknown: the responder no longer "
		       "remembers this run (it keeps the most recent sets "
		       "only)", "evicted set");
	is_str(oneway_direction_name(ONEWAY_UNKNOWN), "unknown", "JSON name");

	v = judge((struct oneway_input){ .sent = 10, .arrived = 7,
					 .final = ONEWAY_FINAL_LATER,
					 .reply_count = 7, .reply_ordinal = 7,
					 .replies_seen = true });
	ok(v.direction == ONEWAY_UNKNOWN && v.text[0] == '\0',
	   "a running row: asked at the end, no finding yet");
}

/* The responder's receive-drop evidence (serve's count answer
 * "rq_drops"): mlx5-like with out_of_buffer, rxe-like without. */
static void test_rq_drops(void)
{
	struct rendezvous_rq_drops mlx5 = { .present = true,
					    .counter_known = true,
					    .counter = "out_of_buffer" };
	struct rendezvous_rq_drops rxe = { .present = true };
	struct oneway_input in = { .sent = 10, .arrived = 7,
				   .final = ONEWAY_FINAL_KNOWN,
				   .final_received = 7, .final_answered = 7,
				   .replies_seen = true };
	struct oneway_verdict v;

	in.rq = mlx5;
	in.rq.counter_delta = 3;
	v = judge(in);
	is_int(v.direction, ONEWAY_RQ_FULL, "counter rose by 3: the queue");
	is_str(v.text, "dropped at the responder (receive queue full): it saw "
		       "7 of 10; its port's out_of_buffer counter rose by 3 "
		       "during the run (every sender's drops count there)",
	       "names the counter");
	is_str(oneway_direction_name(v.direction), "responder_queue",
	       "JSON name");
	ok(v.lost_there == 3 && v.final, "still 3 the responder never saw");

	in.rq.counter_delta = 1;
	v = judge(in);
	is_int(v.direction, ONEWAY_THERE, "rose by fewer: there");
	is_str(v.text, "lost on the way there: the responder saw 7 of 10",
	       "the finding an older prober reads");
	is_str(v.note, "up to 1 of the probes the responder never saw were "
		       "dropped in its receive queue (its out_of_buffer counter "
		       "rose by as many during the run)",
	       "how many the counter accounts for, a finding of its own");

	in.rq.counter_delta = 0;
	v = judge(in);
	is_int(v.direction, ONEWAY_THERE, "did not move: there");
	is_str(v.note, "not dropped in the responder's receive queue: its "
		       "out_of_buffer counter did not move during the run",
	       "the queue ruled out");

	in.rq = rxe;
	v = judge(in);
	is_int(v.direction, ONEWAY_THERE, "rxe, queue never seen empty");
	is_str(v.text, "lost on the way there: the responder saw 7 of 10",
	       "rxe: the finding as before");
	is_str(v.note, "whether the responder's receive queue dropped some "
		       "cannot be told: its device counts no such drops",
	       "cannot tell");

	in.rq.rq_empty = 2;
	v = judge(in);
	is_int(v.direction, ONEWAY_RQ_FULL, "rxe, queue seen empty");
	is_str(v.text, "dropped at the responder (receive queue full), most "
		       "likely: it saw 7 of 10 and found its receive queue "
		       "empty 2 times during the run (its device counts no "
		       "such drops)", "likely, and why");

	in.rq = (struct rendezvous_rq_drops){ 0 };
	v = judge(in);
	is_str(v.text, "lost on the way there: the responder saw 7 of 10",
	       "an older serve: as before");
	ok(v.note[0] == '\0', "and nothing of the queue");

	/* Lost both ways: the direction stays, the queue is named. */
	in.rq = mlx5;
	in.rq.counter_delta = 3;
	in.final_received = 7;
	in.final_answered = 7;
	in.arrived = 5;
	v = judge(in);
	is_int(v.direction, ONEWAY_BOTH, "both ways stays both");
	ok(strstr(v.note, "up to 3 of the probes the responder never saw") !=
		   NULL, "with the queue's share");

	/* No loss there: the counter is not mentioned. */
	in.final_received = 10;
	in.final_answered = 10;
	in.arrived = 7;
	v = judge(in);
	is_int(v.direction, ONEWAY_BACK, "back: the queue is no matter");
	ok(strstr(v.text, "out_of_buffer") == NULL && v.note[0] == '\0',
	   "not mentioned");
}

int main(void)
{
	test_final_count();
	test_first_contact();
	test_first_contact_answered_late();
	test_no_loss();
	test_reply_counts();
	test_unknown();
	test_rq_drops();
	return tap_done();
}

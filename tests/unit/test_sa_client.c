/* The SA client's decisions without a fabric (lib/sa/sa_window.c): the
 * window, deadlines and retries, busy backoff, redirects, answers to
 * unknown TIDs, and giving up when the SA goes silent, driven by hand
 * with a fake sender and a clock the test sets. */
#include <errno.h>
#include <stdlib.h>

#include "sa/sa_status.h"
#include "sa/sa_window.h"
#include "tap.h"

#define MS 1000000ull
#define T0 (1000 * MS)	/* the clock starts at 1 s: 0 means "never" */

/* Stands in for umad: hands out TIDs, remembers each attempt's timeout,
 * and fails the sends it is told to. */
struct fake_sa {
	uint64_t now;
	uint32_t next_tid;
	unsigned sends;
	uint32_t timeouts[64];
	struct sa_query *sent[64];
	unsigned fail_from, fail_count;	/* sends fail_from.. fail */
};

static int fake_send(void *ctx, struct sa_query *q, uint32_t timeout_ms,
		     uint64_t *sent_ns)
{
	struct fake_sa *f = ctx;
	unsigned i = f->sends++;

	if (i < 64) {
		f->timeouts[i] = timeout_ms;
		f->sent[i] = q;
	}
	if (i >= f->fail_from && i < f->fail_from + f->fail_count)
		return -1;
	q->tid = f->next_tid++;
	*sent_ns = f->now;
	return 0;
}

static void start(struct sa_window *w, struct fake_sa *f,
		  struct sa_query *q, size_t n, unsigned window,
		  uint32_t timeout_ms, unsigned retries)
{
	*f = (struct fake_sa){ .now = T0, .next_tid = 100, .fail_from = ~0u };
	if (n)
		memset(q, 0, n * sizeof(*q));
	for (size_t i = 0; i < n; i++)
		q[i].request[3] = SA_METHOD_GET_TABLE;
	sa_window_start(w, q, n, window, timeout_ms, retries, fake_send, f);
}

static bool turn_at(struct sa_window *w, struct fake_sa *f, uint64_t now)
{
	f->now = now;
	return sa_window_turn(w, now);
}

/* Queries in the window: in flight, or pending and backing off. */
static unsigned occupying(const struct sa_query *q, size_t n, uint64_t now)
{
	unsigned k = 0;

	for (size_t i = 0; i < n; i++)
		k += q[i].in_flight || (q[i].result == SA_RESULT_PENDING &&
					q[i].resend_at_ns > now);
	return k;
}

static enum sa_answer_effect answer(struct sa_window *w, uint32_t tid,
				    uint16_t status, uint64_t now,
				    struct sa_query **qp)
{
	struct sa_answer a = { .tid = tid, .method = SA_METHOD_GET_TABLE_RESP,
			       .status = status };

	return sa_window_take(w, &a, now, qp);
}

/* The whole answer path of sa_client.c: take, then store and settle. */
static enum sa_answer_effect answer_ok(struct sa_window *w, uint32_t tid,
				       uint64_t now)
{
	struct sa_query *q;
	enum sa_answer_effect e = answer(w, tid, 0, now, &q);

	if (e == SA_ANSWER_RESULT)
		sa_window_settle(w, q, 0, now);
	return e;
}

static void test_window_never_exceeded(void)
{
	enum { N = 20, WINDOW = 4 };
	struct sa_query q[N];
	struct sa_window w;
	struct fake_sa f;
	uint64_t now = T0;
	unsigned most = 0, turns = 0;
	bool more;

	start(&w, &f, q, N, WINDOW, 100, 2);
	more = turn_at(&w, &f, now);
	is_int(f.sends, WINDOW, "window: the first turn sends a window's worth");
	ok(f.sent[0] == &q[0] && f.sent[3] == &q[3], "window: oldest first");
	/* Answer the newest query in flight each time, so the window has
	 * holes behind its oldest. */
	while (more && turns++ < 100) {
		uint32_t tid = 0;

		for (size_t i = 0; i < N; i++)
			if (q[i].in_flight)
				tid = q[i].tid;
		now += MS;
		is_int(answer_ok(&w, tid, now), SA_ANSWER_RESULT,
		       "window: answer to TID %u is a result", tid);
		more = turn_at(&w, &f, now);
		if (occupying(q, N, now) > most)
			most = occupying(q, N, now);
	}
	ok(!more, "window: every query ended");
	ok(most <= WINDOW, "window: never more than %d in flight (at most %u)",
	   WINDOW, most);
	is_int(f.sends, N, "window: one attempt each, no resend");
	for (size_t i = 0; i < N; i++)
		if (q[i].result != SA_RESULT_OK || q[i].attempts != 1)
			ok(false, "window: query %zu result %d after %u attempts",
			   i, q[i].result, q[i].attempts);
}

static void test_lost_answer_resent(void)
{
	struct sa_query q[1], *got;
	struct sa_window w;
	struct fake_sa f;
	uint32_t first_tid;

	start(&w, &f, q, 1, 4, 100, 2);
	ok(turn_at(&w, &f, T0), "lost: a query to run");
	first_tid = q[0].tid;
	ok(turn_at(&w, &f, T0 + 99 * MS), "lost: still waiting before its deadline");
	is_int(q[0].attempts, 1, "lost: not resent before the deadline");
	ok(turn_at(&w, &f, T0 + 100 * MS), "lost: still running after the deadline");
	is_int(q[0].attempts, 2, "lost: resent at the deadline");
	is_int(q[0].timed_out, 1, "lost: one attempt timed out");
	is_int(q[0].umad_error, 0, "lost: the new attempt starts clean");
	is_int(f.timeouts[1], 200, "lost: the resend waits twice as long");
	ok(q[0].tid != first_tid, "lost: the resend has a TID of its own");
	/* The answer to the first attempt came late: its TID is no more. */
	is_int(answer(&w, first_tid, 0, T0 + 150 * MS, &got), SA_ANSWER_NONE,
	       "lost: an answer to the given-up attempt is ignored");
	ok(got == NULL && q[0].in_flight, "lost: the query still waits for its resend");
	is_int(answer_ok(&w, q[0].tid, T0 + 160 * MS), SA_ANSWER_RESULT,
	       "lost: the resend's answer is the result");
	ok(!turn_at(&w, &f, T0 + 160 * MS), "lost: the run ends");
	is_int(q[0].result, SA_RESULT_OK, "lost: result OK");
}

static void test_retries_bounded(void)
{
	struct sa_query q[1];
	struct sa_window w;
	struct fake_sa f;
	uint64_t now = T0;
	unsigned turns = 0;

	start(&w, &f, q, 1, 4, 100, 2);
	while (turn_at(&w, &f, now) && turns++ < 1000)
		now += 10 * MS;
	is_int(q[0].attempts, 3, "retries: 1 + 2 retries sent");
	is_int(q[0].result, SA_RESULT_TIMEOUT, "retries: then a timeout");
	is_int(q[0].umad_error, ETIMEDOUT, "retries: as ETIMEDOUT");
	is_int(f.timeouts[0], 100, "retries: first attempt 100 ms");
	is_int(f.timeouts[1], 200, "retries: second 200 ms");
	is_int(f.timeouts[2], 400, "retries: third 400 ms");
	is_int(now - T0, 700 * MS, "retries: given up after 700 ms, the sum");
	{
		char words[300];

		sa_query_describe(&q[0], "path record", 100, words,
				  sizeof(words));
		is_str(words, "path record: no answer from the SA within 100 "
		       "ms (3 tries; an SM that restricts SA access may leave "
		       "untrusted requests unanswered)",
		       "a timeout names SA access restrictions as a cause");
	}
}

static void test_attempt_timeout(void)
{
	is_int(sa_attempt_timeout(0, 100), 100, "attempt timeout: first as given");
	is_int(sa_attempt_timeout(3, 100), 800, "attempt timeout: doubled per timeout");
	is_int(sa_attempt_timeout(8, 1), 256, "attempt timeout: 8 doublings");
	is_int(sa_attempt_timeout(30, 1), 256, "attempt timeout: no more than 8");
}

static void test_busy_backs_off(void)
{
	struct sa_query q[2], *got;
	struct sa_window w;
	struct fake_sa f;
	uint64_t resend_at;

	start(&w, &f, q, 2, 1, 100, 2);
	turn_at(&w, &f, T0);
	is_int(f.sends, 1, "busy: window 1, one sent");
	is_int(answer(&w, q[0].tid, MAD_STATUS_BUSY, T0 + MS, &got), SA_ANSWER_BUSY,
	       "busy: a busy answer is no result");
	ok(got == &q[0] && !q[0].in_flight, "busy: the attempt ended");
	resend_at = q[0].resend_at_ns;
	ok(resend_at > T0 + MS, "busy: a backoff before asking again");
	is_int(w.last_answer_ns, T0 + MS, "busy: the SA answered");
	turn_at(&w, &f, T0 + MS);
	is_int(f.sends, 1, "busy: nothing sent during the backoff");
	ok(f.sends == 1 && !q[1].in_flight,
	   "busy: the backoff keeps its place in the window");
	ok(sa_window_wait_ms(&w, T0 + MS) <= (int)((resend_at - T0 - MS) / MS) + 1,
	   "busy: the wait ends with the backoff");
	turn_at(&w, &f, resend_at);
	is_int(q[0].attempts, 2, "busy: asked again after the backoff");
	is_int(f.timeouts[1], 100, "busy: a busy answer does not double the timeout");
	is_int(q[0].timed_out, 0, "busy: no attempt counted as timed out");
}

static void test_busy_gives_up(void)
{
	struct sa_query q[1], *got = NULL;
	struct sa_window w;
	struct fake_sa f;
	uint64_t now = T0, budget = sa_query_budget_ns(100, 2);
	enum sa_answer_effect e = SA_ANSWER_BUSY;
	unsigned busy = 0;

	start(&w, &f, q, 1, 1, 100, 2);
	turn_at(&w, &f, now);
	while (e == SA_ANSWER_BUSY && busy < 100) {
		now += MS;
		e = answer(&w, q[0].tid, MAD_STATUS_BUSY, now, &got);
		busy++;
		if (e == SA_ANSWER_BUSY) {
			now = q[0].resend_at_ns;
			turn_at(&w, &f, now);
		}
	}
	is_int(e, SA_ANSWER_RESULT, "busy for good: the busy answer becomes the result");
	ok(busy > 1 && busy < 100, "busy for good: asked again %u times, not for ever", busy);
	ok(now <= T0 + budget, "busy for good: within the query's budget");
	sa_window_settle(&w, got, MAD_STATUS_BUSY, now);
	is_int(q[0].result, SA_RESULT_STATUS, "busy for good: SA_RESULT_STATUS");
	is_int(q[0].busy_answers, busy, "busy for good: every busy answer counted");
	ok(!turn_at(&w, &f, now), "busy for good: the run ends");
}

static void test_answers_that_are_not(void)
{
	struct sa_query q[1], *got;
	struct sa_window w;
	struct fake_sa f;
	struct sa_answer a;

	start(&w, &f, q, 1, 1, 100, 2);
	turn_at(&w, &f, T0);
	is_int(answer(&w, q[0].tid + 7, 0, T0, &got), SA_ANSWER_NONE,
	       "unknown TID: ignored");
	ok(got == NULL && q[0].in_flight && q[0].result == SA_RESULT_PENDING,
	   "unknown TID: the query still waits");
	is_int(w.last_answer_ns, 0, "unknown TID: not an answer of the SA");

	a = (struct sa_answer){ .tid = q[0].tid, .method = SA_METHOD_GET_TABLE };
	is_int(sa_window_take(&w, &a, T0, &got), SA_ANSWER_NONE,
	       "our TID, a request's method: ignored");
	ok(q[0].in_flight, "our TID, a request's method: still waiting");

	a = (struct sa_answer){ .tid = q[0].tid, .umad_status = ETIMEDOUT,
				.method = SA_METHOD_GET_TABLE_RESP };
	is_int(sa_window_take(&w, &a, T0 + MS, &got), SA_ANSWER_NONE,
	       "kernel timeout: no answer");
	is_int(q[0].umad_error, ETIMEDOUT, "kernel timeout: recorded");
	ok(q[0].in_flight, "kernel timeout: the attempt runs to its own deadline");
	turn_at(&w, &f, T0 + 2 * MS);
	is_int(q[0].attempts, 1, "kernel timeout: no resend before the deadline");
}

static void test_redirect(void)
{
	struct sa_query q[1], *got;
	struct sa_window w;
	struct fake_sa f;
	uint64_t now = T0;
	enum sa_answer_effect e = SA_ANSWER_REDIRECT;
	unsigned k = 0;

	start(&w, &f, q, 1, 1, 100, 2);
	turn_at(&w, &f, now);
	is_int(answer(&w, q[0].tid, MAD_STATUS_REDIRECT, now + MS, &got),
	       SA_ANSWER_REDIRECT, "redirect: the caller follows it");
	ok(!q[0].in_flight, "redirect: the attempt ended");
	turn_at(&w, &f, now + MS);
	is_int(q[0].attempts, 2, "redirect: asked again at once");
	is_int(q[0].timed_out, 0, "redirect: no retry used");
	while (e == SA_ANSWER_REDIRECT && k++ < 10) {
		now += MS;
		e = answer(&w, q[0].tid, MAD_STATUS_REDIRECT, now, &got);
		turn_at(&w, &f, now);
	}
	is_int(e, SA_ANSWER_REDIRECT_LOOP, "redirect: a loop is refused");
	is_int(q[0].redirects, SA_MAX_REDIRECTS + 1,
	       "redirect: after %d redirects followed", SA_MAX_REDIRECTS);
}

static void test_status_result(void)
{
	struct sa_query q[1], *got;
	struct sa_window w;
	struct fake_sa f;

	start(&w, &f, q, 1, 1, 100, 2);
	turn_at(&w, &f, T0);
	/* No records (status 0x0400): a final answer, not a busy one. */
	is_int(answer(&w, q[0].tid, 0x0400, T0 + MS, &got), SA_ANSWER_RESULT,
	       "status: a final non-zero status is a result");
	sa_window_settle(&w, got, 0x0400, T0 + MS);
	is_int(q[0].result, SA_RESULT_STATUS, "status: SA_RESULT_STATUS");
	is_int(q[0].status, 0x0400, "status: kept");
	ok(!turn_at(&w, &f, T0 + MS), "status: the run ends");
}

static void test_send_failed(void)
{
	struct sa_query q[3];
	struct sa_window w;
	struct fake_sa f;

	start(&w, &f, q, 3, 1, 100, 2);
	f.fail_from = 0;
	f.fail_count = 1;
	turn_at(&w, &f, T0);
	is_int(q[0].result, SA_RESULT_SEND_FAILED, "send failed: that is the result");
	is_int(q[0].attempts, 1, "send failed: one attempt counted");
	ok(q[1].in_flight && !q[2].in_flight,
	   "send failed: its place in the window goes to the next query");
}

static void test_silent_sa(void)
{
	struct sa_query q[4];
	struct sa_window w;
	struct fake_sa f;
	uint64_t now = T0;
	unsigned turns = 0;

	start(&w, &f, q, 4, 2, 100, 1);
	while (turn_at(&w, &f, now) && turns++ < 1000)
		now += 10 * MS;
	is_int(now - T0, 300 * MS, "silent SA: given up when the first query is out of retries");
	ok(!q[0].abandoned, "silent SA: the first ran out of its own retries");
	is_int(q[1].abandoned + q[2].abandoned + q[3].abandoned, 3,
	       "silent SA: the others abandoned");
	is_int(q[2].attempts + q[3].attempts, 0, "silent SA: the rest never sent");
	for (size_t i = 0; i < 4; i++)
		if (q[i].result != SA_RESULT_TIMEOUT || q[i].umad_error != ETIMEDOUT)
			ok(false, "silent SA: query %zu ended %d (%d)", i,
			   q[i].result, q[i].umad_error);

	/* An answer to another query since the first was sent: not silent,
	 * every query gets its own retries. */
	start(&w, &f, q, 4, 2, 100, 1);
	turn_at(&w, &f, T0);
	answer_ok(&w, q[1].tid, T0 + MS);
	now = T0 + MS;
	turns = 0;
	while (turn_at(&w, &f, now) && turns++ < 1000)
		now += 10 * MS;
	is_int(q[0].abandoned + q[2].abandoned + q[3].abandoned, 0,
	       "answering SA: nothing abandoned");
	is_int(q[2].attempts, 2, "answering SA: a later query used its retry");
	is_int(q[1].result, SA_RESULT_OK, "answering SA: the answered one is OK");
}

static void test_wait(void)
{
	struct sa_query q[1];
	struct sa_window w;
	struct fake_sa f;

	start(&w, &f, q, 1, 1, 100, 2);
	is_int(sa_window_wait_ms(&w, T0), 1001, "wait: nothing in flight, a second");
	turn_at(&w, &f, T0);
	is_int(sa_window_wait_ms(&w, T0), 101, "wait: until the deadline (+1 ms)");
	is_int(sa_window_wait_ms(&w, T0 + 500 * MS), 1, "wait: past the deadline, 1 ms");
}

static void test_no_queries(void)
{
	struct sa_window w;
	struct fake_sa f;

	start(&w, &f, NULL, 0, 4, 100, 2);
	ok(!turn_at(&w, &f, T0), "no queries: nothing to run");
	is_int(f.sends, 0, "no queries: nothing sent");
}

int main(void)
{
	test_window_never_exceeded();
	test_lost_answer_resent();
	test_retries_bounded();
	test_attempt_timeout();
	test_busy_backs_off();
	test_busy_gives_up();
	test_answers_that_are_not();
	test_redirect();
	test_status_result();
	test_send_failed();
	test_silent_sa();
	test_wait();
	test_no_queries();
	return tap_done();
}

/* An SA client run's window, deadlines, retries and answers, without I/O. */
#include <errno.h>
#include <stdlib.h>

#include "sa/sa_status.h"
#include "sa/sa_window.h"

#define MAD_METHOD_OFFSET 3

void sa_window_start(struct sa_window *w, struct sa_query *queries, size_t n,
		     unsigned window, uint32_t timeout_ms, unsigned retries,
		     sa_send_fn *send, void *send_ctx)
{
	*w = (struct sa_window){
		.queries = queries,
		.n = n,
		.window = window,
		.retries = retries,
		.timeout_ms = timeout_ms,
		.budget_ns = sa_query_budget_ns(timeout_ms, retries),
		.send = send,
		.send_ctx = send_ctx,
	};
	for (size_t i = 0; i < n; i++) {
		struct sa_query *q = &queries[i];

		q->result = SA_RESULT_PENDING;
		q->attempts = 0;
		q->timed_out = 0;
		q->busy_answers = 0;
		q->redirects = 0;
		q->resend_at_ns = 0;
		q->in_flight = false;
		q->abandoned = false;
		q->first_sent_ns = 0;
		q->response_len = 0;
		free(q->message);
		q->message = NULL;
	}
}

uint32_t sa_attempt_timeout(unsigned timed_out, uint32_t timeout_ms)
{
	unsigned shift = timed_out < 8 ? timed_out : 8;

	return timeout_ms << shift;
}

/* One attempt ended without an answer: retry with a longer timeout, or
 * give up. */
static void attempt_failed(struct sa_query *q, unsigned retries)
{
	q->in_flight = false;
	if (++q->timed_out > retries)
		q->result = SA_RESULT_TIMEOUT;
}

/* Ends every query still without an answer: the SA stopped answering. */
static void abandon_pending(struct sa_window *w)
{
	for (size_t i = 0; i < w->n; i++) {
		struct sa_query *q = &w->queries[i];

		if (q->result != SA_RESULT_PENDING)
			continue;
		q->in_flight = false;
		q->abandoned = true;
		q->result = SA_RESULT_TIMEOUT;
		if (!q->umad_error)
			q->umad_error = ETIMEDOUT;
	}
	w->next = w->n;
}

/* Ends the attempts past their deadline. Returns how many queries are
 * still in flight. */
static unsigned end_expired_attempts(struct sa_window *w, uint64_t now)
{
	unsigned in_flight = 0;

	for (size_t i = w->oldest; i < w->next; i++) {
		struct sa_query *q = &w->queries[i];

		if (q->in_flight && now >= q->deadline_ns) {
			if (!q->umad_error)
				q->umad_error = ETIMEDOUT;
			attempt_failed(q, w->retries);
			if (q->result == SA_RESULT_TIMEOUT &&
			    w->last_answer_ns < q->first_sent_ns) {
				abandon_pending(w);
				return 0;
			}
		}
		in_flight += q->in_flight;
	}
	return in_flight;
}

static bool send_attempt(struct sa_window *w, struct sa_query *q)
{
	uint32_t timeout_ms = sa_attempt_timeout(q->timed_out, w->timeout_ms);
	uint64_t sent_ns;

	q->attempts++;
	q->umad_error = 0;
	if (w->send(w->send_ctx, q, timeout_ms, &sent_ns)) {
		q->result = SA_RESULT_SEND_FAILED;
		return false;
	}
	q->in_flight = true;
	q->deadline_ns = sent_ns + (uint64_t)timeout_ms * 1000000u;
	if (!q->first_sent_ns)
		q->first_sent_ns = sent_ns;
	return true;
}

/* Sends while the window has room: queries sent before and waiting for
 * another attempt first, then new ones. */
static void fill_window(struct sa_window *w, uint64_t now, unsigned in_flight)
{
	for (size_t i = w->oldest; i < w->next && in_flight < w->window; i++) {
		struct sa_query *q = &w->queries[i];

		if (q->result != SA_RESULT_PENDING || q->in_flight)
			continue;
		/* Busy: its backoff keeps its place in the window. */
		if (q->resend_at_ns > now) {
			in_flight++;
			continue;
		}
		in_flight += send_attempt(w, q);
	}
	while (w->next < w->n && in_flight < w->window)
		in_flight += send_attempt(w, &w->queries[w->next++]);
}

static void skip_finished(struct sa_window *w)
{
	while (w->oldest < w->next &&
	       w->queries[w->oldest].result != SA_RESULT_PENDING)
		w->oldest++;
}

bool sa_window_turn(struct sa_window *w, uint64_t now)
{
	skip_finished(w);
	fill_window(w, now, end_expired_attempts(w, now));
	skip_finished(w);
	return w->oldest < w->n;
}

int sa_window_wait_ms(const struct sa_window *w, uint64_t now)
{
	uint64_t wake = now + 1000000000ull;

	for (size_t i = w->oldest; i < w->next; i++) {
		const struct sa_query *q = &w->queries[i];

		if (q->in_flight && q->deadline_ns < wake)
			wake = q->deadline_ns;
		if (!q->in_flight && q->result == SA_RESULT_PENDING &&
		    q->resend_at_ns > now && q->resend_at_ns < wake)
			wake = q->resend_at_ns;
	}
	return (int)((wake > now ? wake - now : 0) / 1000000) + 1;
}

static struct sa_query *find_in_flight(struct sa_window *w, uint32_t tid)
{
	for (size_t i = w->oldest; i < w->next; i++)
		if (w->queries[i].in_flight && w->queries[i].tid == tid)
			return &w->queries[i];
	return NULL;
}

enum sa_answer_effect sa_window_take(struct sa_window *w,
				     const struct sa_answer *a, uint64_t now,
				     struct sa_query **query)
{
	struct sa_query *q = find_in_flight(w, a->tid);

	*query = q;
	if (!q)
		return SA_ANSWER_NONE;	/* a late answer to an attempt we gave up on */
	if (a->umad_status) {
		q->umad_error = a->umad_status;
		return SA_ANSWER_NONE;
	}
	/* Our TID with another method is not the answer (a request of the
	 * SA's own, or a broken agent): keep waiting for the real one. */
	if (a->method != sa_response_method(q->request[MAD_METHOD_OFFSET]))
		return SA_ANSWER_NONE;
	switch (sa_status_action(a->status)) {
	case SA_STATUS_BUSY:
		/* IBA 13.4.7: busy means the SA discarded the request; ask
		 * again, later, while the deadline allows. */
		q->in_flight = false;
		q->busy_answers++;
		if (!sa_busy_retry(now, q->first_sent_ns + w->budget_ns,
				   q->busy_answers, w->timeout_ms,
				   &q->resend_at_ns))
			return SA_ANSWER_RESULT;	/* stayed busy: that is the result */
		w->last_answer_ns = now;
		return SA_ANSWER_BUSY;
	case SA_STATUS_REDIRECT:
		q->in_flight = false;
		if (++q->redirects > SA_MAX_REDIRECTS)
			return SA_ANSWER_REDIRECT_LOOP;
		q->resend_at_ns = 0;	/* at once, to the new place */
		w->last_answer_ns = now;
		return SA_ANSWER_REDIRECT;
	case SA_STATUS_DONE:
		break;
	}
	return SA_ANSWER_RESULT;
}

void sa_window_settle(struct sa_window *w, struct sa_query *q,
		      uint16_t status, uint64_t now)
{
	q->in_flight = false;
	q->status = status;
	q->result = status == 0 ? SA_RESULT_OK : SA_RESULT_STATUS;
	w->last_answer_ns = now;
}

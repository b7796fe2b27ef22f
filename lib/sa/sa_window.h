/* The decisions of an SA client's run over its queries, apart from umad:
 * which attempts ran out, what is sent next and with which timeout (the
 * window, retries, busy backoff), what an answer does (result, busy,
 * redirect, nothing), and how long to wait. sa_client.c sends and
 * receives around them; tests/unit/test_sa_client.c drives them by hand. */
#ifndef IBAHPROBE_SA_WINDOW_H
#define IBAHPROBE_SA_WINDOW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sa/sa_client.h"

/* Redirects one query follows: a redirect that points back (or around in
 * a circle) must not bounce it for good. */
#define SA_MAX_REDIRECTS 4

/* Sends one attempt of q with the attempt's timeout, giving q its TID.
 * Returns 0 with *sent_ns the time the attempt left, or -1. */
typedef int sa_send_fn(void *ctx, struct sa_query *q, uint32_t timeout_ms,
		       uint64_t *sent_ns);

struct sa_window {
	struct sa_query *queries;
	size_t n;
	unsigned window;	/* queries in flight or backing off, at most */
	unsigned retries;	/* attempts without an answer after the first */
	uint32_t timeout_ms;	/* of a first attempt */
	uint64_t budget_ns;	/* of a query, from its first send */
	sa_send_fn *send;
	void *send_ctx;
	/* Queries before oldest have a result, none from next on was sent:
	 * every scan covers only [oldest, next), which the window keeps
	 * short, so 100,000 destinations cost no more per answer than ten. */
	size_t oldest, next;
	uint64_t last_answer_ns;	/* of any query; 0: none yet */
};

/* Readies the queries (no result, no attempt) for a run. */
void sa_window_start(struct sa_window *w, struct sa_query *queries, size_t n,
		     unsigned window, uint32_t timeout_ms, unsigned retries,
		     sa_send_fn *send, void *send_ctx);

/* One turn at now: ends the attempts whose deadline passed (a query out of
 * retries while the SA answered nothing since it was first sent means the
 * SA is gone: every query still pending ends, abandoned), then fills the
 * window, retries and resends before new queries so the oldest finish
 * first. Returns false when every query has a result. */
bool sa_window_turn(struct sa_window *w, uint64_t now);

/* How long to wait for answers after the turn at now: until the nearest
 * deadline or end of a busy backoff, at most a second; at least 1 ms. */
int sa_window_wait_ms(const struct sa_window *w, uint64_t now);

/* A MAD that came back, as far as the window cares. */
struct sa_answer {
	uint32_t tid;		/* its lower 32 bits: the MAD layer owns the rest */
	int umad_status;	/* non-zero: no answer (ETIMEDOUT, a send error) */
	uint8_t method;
	uint16_t status;	/* MAD status */
};

enum sa_answer_effect {
	SA_ANSWER_NONE,		/* not an answer to a query in flight */
	SA_ANSWER_RESULT,	/* the query's result: store it, then settle */
	SA_ANSWER_BUSY,		/* asked again after a backoff */
	SA_ANSWER_REDIRECT,	/* follow it; the query is asked again at once */
	SA_ANSWER_REDIRECT_LOOP, /* redirected more than SA_MAX_REDIRECTS times */
};

/* What answer a, taken at now, does; *query is the query it answers (NULL
 * when none). A kernel's timeout or send error only records its status:
 * the attempt still ends at its own deadline, so a stack that fails sends
 * at once (no SM behind the SM LID) does not burn every retry within a
 * millisecond. */
enum sa_answer_effect sa_window_take(struct sa_window *w,
				     const struct sa_answer *a, uint64_t now,
				     struct sa_query **query);

/* q's answer (SA_ANSWER_RESULT) with MAD status status was stored at now. */
void sa_window_settle(struct sa_window *w, struct sa_query *q,
		      uint16_t status, uint64_t now);

/* The timeout of a query's next attempt: doubled by each one that got no
 * answer (up to 8 times); a busy SA answered, so busy answers do not. */
uint32_t sa_attempt_timeout(unsigned timed_out, uint32_t timeout_ms);

#endif

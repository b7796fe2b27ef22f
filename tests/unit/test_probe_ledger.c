/* The probing engine's bookkeeping (lib/probe/probe_ledger.c): the window,
 * the sequence ring crediting replies, deadlines, the next event and the
 * round-robin choice of the cell due, all without a device. */
#include <string.h>

#include "probe/probe_ledger.h"
#include "tap.h"

#define MS 1000000u

struct cells {
	size_t count;
	struct probe_send_state state[4];
};

static struct probe_send_state state_of(size_t i, const void *ctx)
{
	const struct cells *c = ctx;

	return c->state[i];
}

static struct probe_schedule schedule(const struct cells *c)
{
	return (struct probe_schedule){
		.cells = c->count, .state_of = state_of, .ctx = c,
	};
}

/* n cells, active, each wanting quota probes, due now. */
static void cells_init(struct cells *c, size_t n, uint32_t quota)
{
	memset(c, 0, sizeof(*c));
	c->count = n;
	for (size_t i = 0; i < n; i++)
		c->state[i] = (struct probe_send_state){
			.active = true, .quota = quota,
		};
}

/* What the engine does when it sends: a sequence, a slot, the interval. */
static int send(struct probe_ledger *l, struct cells *c, size_t i,
		uint64_t now, uint32_t interval_ms, uint32_t timeout_ms)
{
	uint32_t seq;

	if (probe_ledger_window_full(l))
		return -1;
	seq = probe_ledger_take_sequence(l);
	c->state[i].sent++;
	c->state[i].next_send_ns = now + (uint64_t)interval_ms * MS;
	probe_ledger_sent(l, seq, (uint32_t)i, c->state[i].sent, now,
			  now + (uint64_t)timeout_ms * MS);
	return (int)seq;
}

static void test_quota(void)
{
	is_int(probe_send_quota(3, 5), 3, "the cell's own count first");
	is_int(probe_send_quota(0, 5), 5, "else the session's");
	ok(probe_send_quota(0, 0) == UINT32_MAX,
	   "continuous (count 0): no quota");
}

static void test_wanted(void)
{
	struct probe_send_state c = { .active = true, .quota = 2 };

	ok(probe_send_wanted(&c), "active, under its quota: wants to send");
	c.sent = 2;
	ok(!probe_send_wanted(&c), "quota sent: no more");
	c.sent = 0;
	c.paused = true;
	ok(!probe_send_wanted(&c), "paused: nothing");
	c.paused = false;
	c.active = false;
	ok(!probe_send_wanted(&c), "no AH: nothing");
}

/* Window 1, two cells: they take turns, one probe in flight at a time. */
static void test_round_robin_window_one(void)
{
	struct probe_ledger l = { 0 };
	struct cells c;
	struct probe_schedule sch;
	struct probe_credit_info info;
	size_t rr = 0, order[6];
	uint64_t now = 1000 * MS;
	bool never_over = true;

	cells_init(&c, 2, 3);
	sch = schedule(&c);
	probe_ledger_init(&l, 1);
	for (int k = 0; k < 6; k++) {
		size_t i = probe_schedule_next_due(&sch, rr, now);
		int seq;

		order[k] = i;
		seq = send(&l, &c, i, now, 0, 1000);
		rr = (i + 1) % c.count;
		ok(probe_ledger_window_full(&l), "window 1: full after a send");
		never_over &= send(&l, &c, (i + 1) % 2, now, 0, 1000) < 0;
		now += MS;
		is_int(probe_ledger_credit(&l, (uint32_t)seq, now, &info),
		       PROBE_CREDIT_ANSWERED, "probe %d answered in time", k);
	}
	ok(never_over, "a send past the window is refused every time");
	ok(order[0] == 0 && order[1] == 1 && order[2] == 0 &&
	   order[3] == 1 && order[4] == 0 && order[5] == 1,
	   "two cells alternate: %zu %zu %zu %zu %zu %zu", order[0],
	   order[1], order[2], order[3], order[4], order[5]);
	is_int(probe_schedule_next_due(&sch, rr, now), 2,
	       "both quotas sent: no cell due");
	ok(!probe_schedule_more(&sch), "and none wants more");
	probe_ledger_free(&l);
}

static void test_skip_and_interval(void)
{
	struct cells c;
	struct probe_schedule sch;

	cells_init(&c, 3, 5);
	sch = schedule(&c);
	c.state[0].paused = true;
	is_int(probe_schedule_next_due(&sch, 0, 0), 1, "a paused cell is skipped");
	c.state[1].active = false;
	is_int(probe_schedule_next_due(&sch, 0, 0), 2,
	       "an inactive cell (no AH) is skipped");
	is_int(probe_schedule_next_due(&sch, 2, 0), 2, "from rr, itself first");
	c.state[2].next_send_ns = 50 * MS;
	is_int(probe_schedule_next_due(&sch, 0, 49 * MS), 3,
	       "its interval not over: none due");
	ok(probe_schedule_more(&sch), "though it still wants to send");
	is_int(probe_schedule_next_due(&sch, 0, 50 * MS), 2,
	       "due exactly at its next send time");
	c.state[0].paused = false;
	is_int(probe_schedule_next_due(&sch, 1, 0), 0,
	       "round-robin wraps past the end");
}

static void test_window_many(void)
{
	struct probe_ledger l = { 0 };
	struct cells c;
	struct probe_schedule sch;
	size_t rr = 0;
	int sent = 0;

	cells_init(&c, 3, 0);
	for (size_t i = 0; i < 3; i++)
		c.state[i].quota = probe_send_quota(0, 0);
	sch = schedule(&c);
	probe_ledger_init(&l, 4);
	for (;;) {
		size_t i = probe_schedule_next_due(&sch, rr, 0);

		if (i == c.count || send(&l, &c, i, 0, 0, 100) < 0)
			break;
		rr = (i + 1) % c.count;
		sent++;
	}
	is_int(sent, 4, "continuous cells: the window of 4 stops the sends");
	is_int(probe_ledger_in_flight(&l, 0), 2, "cell 0 has 2 in flight");
	is_int(probe_ledger_in_flight(&l, 1) + probe_ledger_in_flight(&l, 2),
	       2, "cells 1 and 2 one each");
	probe_ledger_free(&l);
}

struct expired_log {
	uint32_t cells[8];
	size_t n;
};

static void log_expired(uint32_t cell, void *ctx)
{
	struct expired_log *log = ctx;

	log->cells[log->n++] = cell;
}

static void test_deadlines(void)
{
	struct probe_ledger l = { 0 };
	struct expired_log log = { .n = 0 };
	struct probe_credit_info info;
	struct cells c;

	cells_init(&c, 3, 5);
	probe_ledger_init(&l, 4);
	send(&l, &c, 0, 0, 0, 30);	/* seq 0, due at 30 ms */
	send(&l, &c, 1, 0, 0, 10);	/* seq 1, due at 10 ms */
	send(&l, &c, 2, 0, 0, 20);	/* seq 2, due at 20 ms */
	probe_ledger_expire(&l, 9 * MS, log_expired, &log);
	is_int(log.n, 0, "before any deadline: nothing expires");
	probe_ledger_expire(&l, 10 * MS, log_expired, &log);
	ok(log.n == 1 && log.cells[0] == 1, "at 10 ms: the 10 ms deadline");
	probe_ledger_expire(&l, 20 * MS, log_expired, &log);
	ok(log.n == 2 && log.cells[1] == 2, "at 20 ms: the 20 ms deadline");
	is_int(probe_ledger_in_flight(&l, 0), 1, "the 30 ms probe still flies");
	probe_ledger_expire(&l, 20 * MS, log_expired, &log);
	is_int(log.n, 2, "an expired probe expires once");

	/* Late: 7 ms past its deadline, then 2 ms past another. */
	is_int(probe_ledger_credit(&l, 1, 17 * MS, &info), PROBE_CREDIT_LATE,
	       "a reply after its deadline is late");
	ok(info.cell == 1 && info.ordinal == 1 && info.late_by_ns == 7 * MS,
	   "late: cell 1, probe 1, 7 ms past (%llu ns)",
	   (unsigned long long)info.late_by_ns);
	is_int(probe_ledger_credit(&l, 2, 22 * MS, &info), PROBE_CREDIT_LATE,
	       "the other late reply");
	ok(info.late_by_ns == 2 * MS, "2 ms past its own deadline");
	is_int(probe_ledger_credit(&l, 1, 18 * MS, &info),
	       PROBE_CREDIT_DUPLICATE, "a late reply again: a duplicate");
	is_int(probe_ledger_credit(&l, 0, 25 * MS, &info),
	       PROBE_CREDIT_ANSWERED, "in time: answered");
	ok(info.rtt_ns == 25 * MS, "its RTT from the send: 25 ms");
	is_int(probe_ledger_credit(&l, 0, 26 * MS, &info),
	       PROBE_CREDIT_DUPLICATE, "a second reply: a duplicate");
	ok(!probe_ledger_any_in_flight(&l), "nothing in flight");
	probe_ledger_expire(&l, 100 * MS, log_expired, &log);
	is_int(log.n, 2, "an answered probe never expires");
	is_int(probe_ledger_credit(&l, 3, 26 * MS, &info),
	       PROBE_CREDIT_UNKNOWN, "a sequence never sent: unknown");
	probe_ledger_free(&l);
}

static void test_ring(void)
{
	struct probe_ledger l = { 0 };
	struct probe_credit_info info;
	struct cells c;
	int first;

	cells_init(&c, 1, 0);
	c.state[0].quota = UINT32_MAX;
	probe_ledger_init(&l, 1);
	first = send(&l, &c, 0, 0, 0, 10);
	probe_ledger_expire(&l, 10 * MS, NULL, NULL);
	/* A whole ring later the same slot of the ring is another probe's. */
	l.next_sequence = (uint32_t)first + PROBE_LEDGER_RING;
	send(&l, &c, 0, 20 * MS, 0, 10);
	is_int(probe_ledger_credit(&l, (uint32_t)first, 21 * MS, &info),
	       PROBE_CREDIT_UNKNOWN,
	       "a reply older than the ring: ignored, not late");
	is_int(probe_ledger_in_flight(&l, 0), 1,
	       "and the newer probe still waits for its own");
	is_int(probe_ledger_credit(&l, (uint32_t)first + PROBE_LEDGER_RING,
				   22 * MS, &info),
	       PROBE_CREDIT_ANSWERED, "the newer one answered");
	probe_ledger_free(&l);
}

static void test_next_event(void)
{
	struct probe_ledger l = { 0 };
	struct cells c;
	struct probe_schedule sch;
	uint64_t now = 1000 * MS;

	cells_init(&c, 2, 5);
	sch = schedule(&c);
	probe_ledger_init(&l, 4);
	c.state[0].sent = 5;
	c.state[1].sent = 5;
	ok(probe_next_event_ns(&l, &sch, now, true, false, 0) == now + 100 * MS,
	   "nothing pending: look again in 100 ms");
	ok(probe_next_event_ns(&l, &sch, now, true, true, now + 40 * MS) ==
		   now + 40 * MS, "the period, when it comes first");
	ok(probe_next_event_ns(&l, &sch, now, true, false, now + 40 * MS) ==
		   now + 100 * MS, "no period: its time is ignored");
	c.state[0].sent = 0;
	send(&l, &c, 0, now, 30, 60);	/* next send +30, deadline +60 */
	ok(probe_next_event_ns(&l, &sch, now, true, true, now + 40 * MS) ==
		   now + 30 * MS, "the next send, before period and deadline");
	ok(probe_next_event_ns(&l, &sch, now, false, true, now + 40 * MS) ==
		   now + 40 * MS, "cannot send: the sends do not count");
	ok(probe_next_event_ns(&l, &sch, now, false, false, 0) == now + 60 * MS,
	   "then the deadline");
	c.state[0].paused = true;
	ok(probe_next_event_ns(&l, &sch, now, true, false, 0) == now + 60 * MS,
	   "a paused cell's next send does not count");
	ok(probe_next_event_ns(&l, &sch, now + 70 * MS, false, false, 0) ==
		   now + 70 * MS, "a deadline passed: now, never before");
	probe_ledger_free(&l);
}

static void test_cell_done(void)
{
	struct probe_ledger l = { 0 };
	struct probe_credit_info info;
	struct cells c;
	int a, b;

	cells_init(&c, 1, 2);
	probe_ledger_init(&l, 4);
	a = send(&l, &c, 0, 0, 0, 10);
	ok(!probe_ledger_cell_done(&l, 0, 1, 2, 0), "quota not sent: not done");
	b = send(&l, &c, 0, 0, 0, 10);
	probe_ledger_credit(&l, (uint32_t)a, MS, &info);
	ok(!probe_ledger_cell_done(&l, 0, 2, 2, 1),
	   "one probe still in flight: not done");
	probe_ledger_credit(&l, (uint32_t)b, MS, &info);
	ok(probe_ledger_cell_done(&l, 0, 2, 2, 2),
	   "every probe resolved and answered: done");
	ok(!probe_ledger_cell_done(&l, 0, 2, 2, 1),
	   "resolved but one lost: not done (judged at the end)");
	ok(probe_ledger_cell_done(&(struct probe_ledger){ 0 }, 0, 1, 1, 1),
	   "a ledger never set up has nothing in flight");
	probe_ledger_free(&l);
}

int main(void)
{
	test_quota();
	test_wanted();
	test_round_robin_window_one();
	test_skip_and_interval();
	test_window_many();
	test_deadlines();
	test_ring();
	test_next_event();
	test_cell_done();
	return tap_done();
}

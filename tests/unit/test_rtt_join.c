/* Unit tests of the timing join: a round trip is split once its parts
 * are in (send stamp, reply, stamps message), or when the stamps message
 * is overdue, and never twice. */
#include <string.h>

#include "probe/rtt_join.h"
#include "tap.h"

struct seen {
	unsigned count;
	uint32_t cell;
	struct rtt_split split;
	bool waited;
};

static void done(void *ctx, uint32_t cell, const struct rtt_split *split,
		 bool waited)
{
	struct seen *s = ctx;

	s->count++;
	s->cell = cell;
	s->split = *split;
	s->waited = waited;
}

/* A 48-bit device clock counting ns, for the wrap. */
static uint64_t delta48(const void *clock, uint64_t from, uint64_t to)
{
	(void)clock;
	return (to - from) & ((1ull << 48) - 1);
}

static struct rtt_stamps reply_stamps(uint64_t rtt, uint64_t dwell)
{
	return (struct rtt_stamps){
		.sent_ns = 0, .received_ns = rtt,
		.prober_wait = STAMP_SW_EVENT, .dwell_known = true,
		.dwell_ns = dwell, .responder_wait = STAMP_SW_EVENT,
	};
}

int main(void)
{
	struct rtt_join j;
	struct seen s = { 0 };
	struct rtt_stamps st = reply_stamps(50000, 40000);

	is_int(rtt_join_init(&j, 8, delta48, NULL, done, &s), 0, "init");

	/* Software only: split at the reply. */
	rtt_join_sent(&j, 1, 3);
	rtt_join_reply(&j, 1, 3, &st, false, 0, false, 100, 1000);
	ok(s.count == 1 && s.cell == 3 && s.split.network_ns == 10000 &&
		   s.split.source == STAMP_SW_EVENT,
	   "software: split at the reply, 50 - 40 us");
	ok(!s.waited, "it did not wait");

	/* Hardware at both ends, the stamps message last; the device
	 * clock wraps between t1 and t4. */
	rtt_join_sent(&j, 2, 4);
	rtt_join_send_stamp(&j, 2, (1ull << 48) - 1000);
	rtt_join_reply(&j, 2, 4, &st, true, 2700, true, 100, 1000);
	is_int(s.count, 1, "waits for the stamps message");
	is_int(j.waiting, 1, "one waiting");
	rtt_join_stamps(&j, 2, true, 2000);
	ok(s.count == 2 && s.cell == 4 && s.split.source == STAMP_HW &&
		   s.split.network_ns == 1700,
	   "hw: t4 - t1 across the wrap is 3.7 us, minus 2 us: 1.7 us");
	is_int(j.waiting, 0, "none waiting");
	ok(s.waited, "it had waited: the cell's waiting count goes down");
	rtt_join_stamps(&j, 2, true, 2000);
	is_int(s.count, 2, "a second stamps message splits nothing");

	/* The stamps message never comes: split on expiry with the
	 * software dwell, after the wait only. */
	st = reply_stamps(50000, 2000);
	rtt_join_sent(&j, 3, 5);
	rtt_join_send_stamp(&j, 3, 100);
	rtt_join_reply(&j, 3, 5, &st, true, 3800, true, 100, 1000);
	rtt_join_expire(&j, 1099, false);
	is_int(s.count, 2, "not before it is overdue");
	rtt_join_expire(&j, 1100, false);
	ok(s.count == 3 && s.split.source == STAMP_SW_EVENT &&
		   s.split.network_ns == 1700,
	   "overdue: prober hw 3.7 us minus software dwell 2 us, named "
	   "sw-event");
	st = reply_stamps(50000, 40000);

	/* The send completion without a stamp: prober software. */
	rtt_join_sent(&j, 4, 6);
	rtt_join_reply(&j, 4, 6, &st, true, 3800, true, 100, 1000);
	rtt_join_stamps(&j, 4, true, 2000);
	ok(s.count == 4 && s.split.network_ns == 48000 &&
		   s.split.source == STAMP_SW_EVENT,
	   "no t1 stamp: 50 us software minus 2 us hw dwell");

	/* A reply whose slot was taken by a later sequence still counts,
	 * with what it has. */
	rtt_join_sent(&j, 5, 7);
	rtt_join_sent(&j, 13, 8);	/* 13 % 8 == 5 */
	rtt_join_reply(&j, 5, 7, &st, false, 0, true, 100, 1000);
	ok(s.count == 5 && s.cell == 7 && s.split.network_ns == 10000,
	   "out of the join: split at once");
	ok(s.waited, "and the caller told to wait is told it is over");
	is_int(j.waiting, 0, "nothing waits in the join for it");

	/* A waiting reply whose slot comes round is split first. */
	rtt_join_sent(&j, 6, 9);
	rtt_join_reply(&j, 6, 9, &st, false, 0, true, 100, 1000);
	rtt_join_sent(&j, 14, 10);
	ok(s.count == 6 && s.cell == 9, "a slot coming round splits its "
	   "waiting reply");
	is_int(j.waiting, 0, "and it waits no more");

	/* One reply waits, another of the same cell needs no stamps: only
	 * the waiting one counts as waited when it is split. */
	rtt_join_sent(&j, 15, 12);
	rtt_join_sent(&j, 16, 12);
	rtt_join_reply(&j, 15, 12, &st, false, 0, true, 100, 1000);
	rtt_join_reply(&j, 16, 12, &st, false, 0, false, 100, 1000);
	ok(s.count == 7 && !s.waited && j.waiting == 1,
	   "the reply without stamps is split, not waited; the other waits");
	rtt_join_stamps(&j, 15, false, 0);
	ok(s.count == 8 && s.waited && j.waiting == 0,
	   "the waiting one, when its stamps message comes, had waited");

	/* The run is over: every waiting reply is split. */
	rtt_join_sent(&j, 7, 11);
	rtt_join_reply(&j, 7, 11, &st, false, 0, true, 100, 1000000);
	rtt_join_expire(&j, 200, true);
	ok(s.count == 9 && s.cell == 11, "all: split at the end of the run");
	rtt_join_free(&j);
	return tap_done();
}

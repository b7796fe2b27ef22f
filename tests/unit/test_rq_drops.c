/* Unit tests of serve's receive-drop evidence: when a poll shows the
 * receive queue ran empty, and the counter's rise over a prober's run
 * from samples taken once a second. */
#include <string.h>

#include "peer/rq_drops.h"
#include "tap.h"

#define S 1000000000ull

static void test_rq_empty(void)
{
	struct rq_drop_history h;

	rq_drop_history_init(&h, NULL, 4);
	rq_drop_note_taken(&h, 3);
	is_int(h.rq_empty, 0, "3 of 4 taken: one still posted");
	for (int i = 0; i < 3; i++)
		rq_drop_note_posted(&h);
	rq_drop_note_taken(&h, 4);
	is_int(h.rq_empty, 1, "all 4 posted (7 in all) taken at once: empty");
	rq_drop_note_taken(&h, 0);
	is_int(h.rq_empty, 1, "an empty poll says nothing");
	for (int i = 0; i < 4; i++)
		rq_drop_note_posted(&h);
	rq_drop_note_taken(&h, 1);
	is_int(h.rq_empty, 1, "one taken of four posted: not empty");

	/* A deep queue taken 32 at a time, reposted between polls: never
	 * seen empty (what the man page says it cannot see). */
	rq_drop_history_init(&h, NULL, 256);
	for (int poll = 0; poll < 20; poll++) {
		rq_drop_note_taken(&h, 32);
		for (int i = 0; i < 32; i++)
			rq_drop_note_posted(&h);
	}
	is_int(h.rq_empty, 0, "depth 256, polls of 32: not seen");
}

static void test_since(void)
{
	struct rq_drop_history h;
	struct rendezvous_rq_drops d;

	rq_drop_history_init(&h, "out_of_buffer", 1024);
	ok(rq_drop_sample_due(&h, 5 * S), "the first sample is due");
	rq_drop_sample_add(&h, 10 * S, true, 100);
	ok(!rq_drop_sample_due(&h, 10 * S + S / 2), "not before a second");
	ok(rq_drop_sample_due(&h, 11 * S), "a second later");
	rq_drop_sample_add(&h, 11 * S, true, 100);
	rq_drop_sample_add(&h, 12 * S, false, 0);	/* unreadable once */
	h.rq_empty = 2;
	rq_drop_sample_add(&h, 13 * S, true, 130);

	rq_drop_history_since(&h, 11 * S + S / 2, &d);
	ok(d.present && d.counter_known && d.covers_run, "known, covered");
	is_str(d.counter, "out_of_buffer", "its name");
	is_int(d.counter_delta, 30, "from the sample before the run began");
	is_int(d.rq_empty, 2, "empty queue seen twice meanwhile");

	rq_drop_history_since(&h, 5 * S, &d);
	ok(!d.covers_run, "a run older than the samples: not covered");
	is_int(d.counter_delta, 30, "from the oldest sample");

	rq_drop_history_since(&h, 13 * S, &d);
	is_int(d.counter_delta, 0, "a run after the last rise: 0");

	rq_drop_history_init(&h, NULL, 8);
	rq_drop_sample_add(&h, S, false, 0);
	h.rq_empty = 5;
	rq_drop_sample_add(&h, 2 * S, false, 0);
	rq_drop_history_since(&h, S, &d);
	ok(d.present && !d.counter_known && d.counter[0] == '\0',
	   "rxe-like: no counter");
	is_int(d.rq_empty, 5, "but the empty queue seen");

	rq_drop_history_init(&h, "out_of_buffer", 8);
	for (uint64_t i = 0; i < RQ_DROP_SAMPLES + 10; i++)
		rq_drop_sample_add(&h, (i + 1) * S, true, i);
	is_int(h.count, RQ_DROP_SAMPLES, "the ring stays bounded");
	rq_drop_history_since(&h, 0, &d);
	is_int(d.counter_delta, RQ_DROP_SAMPLES - 1, "oldest kept to newest");
	ok(!d.covers_run, "the run began before the oldest kept");
}

int main(void)
{
	test_rq_empty();
	test_since();
	return tap_done();
}

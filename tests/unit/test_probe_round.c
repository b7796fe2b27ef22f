/* Unit tests of a continuous run's rounds: each round's own counts and
 * RTT quantiles from the cell's running ones, 64-bit totals across the
 * engine's 32-bit wrap, the last success placed on the wall clock. */
#include "probe/probe_round.h"
#include "tap.h"

#define NEAR(a, b) ((a) - (b) < 1e-9 && (b) - (a) < 1e-9)

int main(void)
{
	struct probe_round_cell r = { 0 };
	struct rtt_samples rtt = { 0 };
	struct probe_round_input in = { .rtt = &rtt, .now_ns = 50000000000ull,
					.now_unix = 1795000000.0 };
	double ratio;

	/* Round 1: 10 resolved, 9 answered at 10 us; the last at 49.5 s. */
	for (int i = 0; i < 9; i++)
		rtt_add(&rtt, 10000);
	in.resolved = 10;
	in.received = 9;
	in.last_reply_ns = 49500000000ull;
	probe_round_close(&r, &in);
	ok(r.sent == 10 && r.received == 9, "round 1: 10 sent, 9 received");
	ok(probe_round_loss_ratio(&r, &ratio) && NEAR(ratio, 0.1),
	   "loss ratio 0.1 (%g)", ratio);
	ok(r.has_rtt && r.rtt.count == 9 && NEAR(r.rtt.median_us, 10),
	   "RTT of the round");
	ok(NEAR(r.last_success_unix, 1794999999.5),
	   "last success half a second before the round closed (%.3f)",
	   r.last_success_unix);

	/* Round 2: 10 more, all answered at 30 us: its quantiles are its
	 * own, not mixed with round 1's 10 us. */
	for (int i = 0; i < 10; i++)
		rtt_add(&rtt, 30000);
	in.resolved = 20;
	in.received = 19;
	probe_round_close(&r, &in);
	ok(r.sent == 10 && r.received == 10, "round 2: its own counts");
	ok(probe_round_loss_ratio(&r, &ratio) && ratio == 0.0, "no loss");
	ok(NEAR(r.rtt.min_us, 30) && NEAR(r.rtt.max_us, 30),
	   "round 2's RTT only (min %g)", r.rtt.min_us);
	ok(r.sent_total == 20 && r.received_total == 19 && r.rtt_count == 19,
	   "totals since the start");
	ok(NEAR(r.rtt_sum_s, 9 * 10e-6 + 10 * 30e-6), "RTT sum in seconds "
	   "(%g)", r.rtt_sum_s);

	/* Round 3: nothing resolved (a responder gone, probes in flight). */
	probe_round_close(&r, &in);
	ok(!probe_round_loss_ratio(&r, &ratio), "no probe resolved: no "
	   "ratio, rather than a false 0");
	ok(!r.has_rtt && r.sent_total == 20, "no RTT; totals kept");

	/* The engine's counters wrap at 2^32: the delta stays right. */
	r.resolved_mark = 0xfffffffbu;
	r.received_mark = 0xfffffffbu;
	in.resolved = 5;
	in.received = 5;
	in.rtt = NULL;
	probe_round_close(&r, &in);
	ok(r.sent == 10 && r.received == 10 && r.sent_total == 30,
	   "across the wrap: 10 this round, 30 in all");
	/* Never answered: no last success. */
	r = (struct probe_round_cell){ 0 };
	in.last_reply_ns = 0;
	probe_round_close(&r, &in);
	ok(r.last_success_unix == 0, "never answered: last success 0");
	rtt_free(&rtt);
	return tap_done();
}

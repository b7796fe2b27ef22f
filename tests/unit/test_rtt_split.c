/* Unit tests of the round trip split: network = (t4 - t1) - (t3 - t2)
 * with hardware, software and mixed stamps, an older responder, and a
 * responder share longer than the round trip. */
#include "probe/rtt_split.h"
#include "tap.h"

static struct rtt_stamps software(uint64_t rtt, uint64_t dwell)
{
	return (struct rtt_stamps){
		.sent_ns = 1000000, .received_ns = 1000000 + rtt,
		.prober_wait = STAMP_SW_EVENT,
		.dwell_known = true, .dwell_ns = dwell,
		.responder_wait = STAMP_SW_EVENT,
	};
}

int main(void)
{
	struct rtt_stamps in = software(45000, 30000);
	struct rtt_split out;

	rtt_split(&in, &out);
	ok(out.network_known && out.network_ns == 15000,
	   "software: 45 us end to end, 30 us at the responder: 15 us");
	is_int(out.rtt_ns, 45000, "rtt stays end to end");
	is_str(stamp_source_name(out.source), "sw-event", "source sw-event");

	in.responder_wait = STAMP_SW_BUSY;
	rtt_split(&in, &out);
	is_str(stamp_source_name(out.source), "sw-event",
	       "busy responder, event prober: the weaker, sw-event");
	in.prober_wait = STAMP_SW_BUSY;
	rtt_split(&in, &out);
	is_str(stamp_source_name(out.source), "sw-busy", "both busy: sw-busy");

	/* First contact: the reply waited a second for ARP at the
	 * responder; the network's share stays microseconds. */
	in = software(1000020000ull, 1000000000ull);
	rtt_split(&in, &out);
	ok(out.network_ns == 20000 && out.dwell_ns == 1000000000ull,
	   "a 1 s neighbour wait is the responder's, not the network's");

	/* Hardware at both ends: the device stamps, whatever software saw
	 * (a slow wake-up at either end is outside them). */
	in = software(9000, 6000);
	in.prober_hw = true;
	in.prober_hw_ns = 3700;
	in.responder_hw = true;
	in.responder_hw_ns = 2000;
	rtt_split(&in, &out);
	ok(out.network_ns == 1700 && out.source == STAMP_HW,
	   "hw: (t4 - t1) - (t3 - t2) = 3.7 - 2.0 = 1.7 us");
	is_int(out.dwell_ns, 2000, "the responder share taken off is hw");
	is_int(out.rtt_ns, 9000, "end to end stays the software figure");

	/* Mixed: the prober's device stamps, the responder's software
	 * dwell (it has no timestamps): as good as the weaker end. */
	in.responder_hw = false;
	in.dwell_ns = 1500;
	rtt_split(&in, &out);
	ok(out.network_ns == 2200 && out.source == STAMP_SW_EVENT,
	   "prober hw, responder sw: 3.7 - 1.5 us, named sw-event");
	in.prober_hw = false;
	in.responder_hw = true;
	rtt_split(&in, &out);
	ok(out.network_ns == 7000 && out.source == STAMP_SW_EVENT,
	   "prober sw, responder hw: 9 - 2 us, named sw-event");

	/* An older responder says nothing of its dwell. */
	in = software(45000, 0);
	in.dwell_known = false;
	rtt_split(&in, &out);
	ok(!out.network_known && !out.dwell_known &&
		   out.source == STAMP_UNKNOWN && out.rtt_ns == 45000,
	   "older responder: network unknown, rtt kept");
	in.responder_wait = STAMP_UNKNOWN;
	in.dwell_known = true;
	in.dwell_ns = 100;
	rtt_split(&in, &out);
	is_str(stamp_source_name(out.source), "unknown",
	       "a dwell without a wait mode: source unknown");

	/* The responder's share longer than the round trip: a clock ran
	 * off; network 0, flagged, never a wrapped huge number. */
	in = software(5000, 7000);
	rtt_split(&in, &out);
	ok(out.clock_error && out.network_known && out.network_ns == 0,
	   "dwell > rtt: clock error, network 0");
	in = software(0, 0);
	in.received_ns = in.sent_ns - 1;
	rtt_split(&in, &out);
	ok(out.rtt_ns == 0 && !out.clock_error, "a reply stamped before its "
	   "send (stamps of two CPUs) is 0, not 2^64");
	return tap_done();
}

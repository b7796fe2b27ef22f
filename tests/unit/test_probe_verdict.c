/* Unit tests of probe verdicts: each finding named exactly when it holds,
 * with the values an admin needs in the sentence. */
#include <string.h>

#include "probe_verdict.h"
#include "tap.h"

static struct verdict_input reached(uint8_t asked_hl, uint8_t seen_hl)
{
	struct verdict_input in = {
		.asked = { .hop_limit = asked_hl, .traffic_class = 0x28,
			   .flow_label = 0x12345 },
		.sent = 5, .received = 5, .observed_valid = true,
		.known_hops = -1,
	};

	in.observed.grh_present = true;
	in.observed.hop_limit = seen_hl;
	in.observed.traffic_class = 0x28;
	in.observed.flow_label = 0x12345;
	return in;
}

static bool said(const struct verdict *v, const char *needle)
{
	for (size_t i = 0; i < v->text_count; i++)
		if (strstr(v->text[i], needle))
			return true;
	return false;
}

static void test_hops_and_hop_limit(void)
{
	struct verdict_input in = reached(64, 62);
	struct verdict v;

	verdict_judge(&in, &v);
	is_int(v.reach, REACH_REACHABLE, "all answered: reachable");
	is_int(v.hops, 2, "64 sent, 62 seen: 2 hops");
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH, "AH hop limit trusted");
	is_int(v.flags, 0, "nothing else to say");

	/* rxe: asked 7, the route's 64 left, 62 arrived. */
	in = reached(7, 62);
	in.link_ethernet = true;
	in.route_known = true;
	in.route_hop_limit = 64;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_HOP_LIMIT_NOT_HONOURED, "arrived above asked: "
	   "not honoured");
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_ROUTE, "source: route");
	is_int(v.hops, 2, "hops from the route's 64");
	ok(said(&v, "asked 7") && said(&v, "arrived 62"), "sentence names "
	   "asked and observed");

	/* The driver is known to ignore it even when below what was asked. */
	in = reached(200, 63);
	in.link_ethernet = true;
	in.route_known = true;
	in.route_hop_limit = 64;
	in.stack_ignores_ah_hop_limit = true;
	verdict_judge(&in, &v);
	is_int(v.hops, 1, "known-ignoring stack: hops from the route");

	/* Above asked but no route known: no hop count at all. */
	in = reached(7, 62);
	verdict_judge(&in, &v);
	is_int(v.hops, -1, "no trustworthy sent value: hops unknown");
	ok(said(&v, "more than was sent"), "and says why");
}

static void test_grh_changes(void)
{
	struct verdict_input in = reached(64, 63);
	struct verdict v;

	in.observed.traffic_class = 0x0a;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_TCLASS_REMARKED, "DSCP changed: remarked");
	ok(said(&v, "sent 0x28") && said(&v, "seen 0x0a"), "both values");

	in = reached(64, 63);
	in.observed.traffic_class = 0x2b;
	verdict_judge(&in, &v);
	ok(!(v.flags & VERDICT_TCLASS_REMARKED) &&
		   (v.flags & VERDICT_ECN_CHANGED), "only ECN changed");

	in = reached(64, 63);
	in.observed.flow_label = 0;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_FLOW_LABEL_NOT_CARRIED, "flow label 0: not "
	   "carried");
	in.observed.flow_label = 7;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_FLOW_LABEL_CHANGED, "flow label 7: changed");
	in.observed.grh_ipv4 = true;
	verdict_judge(&in, &v);
	ok(!(v.flags & (VERDICT_FLOW_LABEL_CHANGED |
			VERDICT_FLOW_LABEL_NOT_CARRIED)),
	   "IPv4 has no flow label to judge");

	in = reached(64, 63);
	in.observed.grh_present = false;
	verdict_judge(&in, &v);
	ok(v.flags == VERDICT_NO_GRH && v.hops == -1, "no GRH: nothing "
	   "observable");
}

static void test_loss(void)
{
	struct verdict_input in = reached(64, 63);
	struct verdict v;

	in.received = 3;
	verdict_judge(&in, &v);
	is_int(v.reach, REACH_PARTIAL, "3 of 5: partial loss");
	ok(said(&v, "2 of 5"), "counts in words");

	/* Route hop limit 1 toward a routed destination on rxe. */
	memset(&in, 0, sizeof(in));
	in.asked.hop_limit = 64;
	in.sent = 5;
	in.link_ethernet = true;
	in.route_known = true;
	in.route_hop_limit = 1;
	in.route_has_gateway = true;
	in.stack_ignores_ah_hop_limit = true;
	in.known_hops = -1;
	verdict_judge(&in, &v);
	is_int(v.reach, REACH_UNREACHABLE, "none answered: unreachable");
	ok(v.flags & VERDICT_HOP_LIMIT_EXPIRED, "hop limit 1 behind a "
	   "router: expiry named");

	/* Distance known from another set: hop limit 2, 2 hops away. */
	memset(&in, 0, sizeof(in));
	in.asked.hop_limit = 2;
	in.sent = 5;
	in.known_hops = 2;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_HOP_LIMIT_EXPIRED, "2 <= 2 hops: expiry");
	in.asked.hop_limit = 3;
	verdict_judge(&in, &v);
	ok(!(v.flags & VERDICT_HOP_LIMIT_EXPIRED), "3 > 2 hops: other cause");
	is_str(reachability_name(REACH_PARTIAL), "partial loss", "names");
	is_str(verdict_flag_name(VERDICT_TCLASS_REMARKED), "tclass_remarked",
	       "flag names");
}

int main(void)
{
	test_hops_and_hop_limit();
	test_grh_changes();
	test_loss();
	return tap_done();
}

/* Unit tests of probe verdicts: each finding named exactly when it holds,
 * with the values an admin needs in the sentence. */
#include <stdio.h>
#include <string.h>

#include "probe/probe_verdict.h"
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

/* The same on RoCE, with the route's hop limit (-1: unknown) and the
 * provider's rule. */
static struct verdict_input roce(uint8_t asked_hl, uint8_t seen_hl,
				 int route_hl, enum hop_limit_rule rule)
{
	struct verdict_input in = reached(asked_hl, seen_hl);

	in.link_ethernet = true;
	in.route_known = route_hl >= 0;
	in.route_hop_limit = route_hl >= 0 ? (uint8_t)route_hl : 0;
	in.hop_limit_rule = rule;
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
	is_int(v.reach, PROBE_STATUS_REACHABLE, "all answered: reachable");
	is_int(v.hops, 2, "64 sent, 62 seen: 2 hops");
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH, "AH hop limit trusted");
	is_int(v.flags, 0, "nothing else to say");

	/* rxe: asked 7, the route's 64 left, 62 arrived. */
	in = roce(7, 62, 64, HOP_LIMIT_RULE_AH);
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_HOP_LIMIT_NOT_HONOURED, "arrived above asked: "
	   "not honoured");
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_ROUTE, "source: route");
	is_int(v.hops, 2, "hops from the route's 64");
	ok(said(&v, "asked 7") && said(&v, "arrived 62"), "sentence names "
	   "asked and observed");

	/* The driver is known to ignore it even when below what was asked. */
	in = roce(200, 63, 64, HOP_LIMIT_RULE_ROUTE);
	verdict_judge(&in, &v);
	is_int(v.hops, 1, "known-ignoring stack: hops from the route");

	/* Above asked but no route known: no hop count at all. */
	in = reached(7, 62);
	verdict_judge(&in, &v);
	is_int(v.hops, -1, "no trustworthy sent value: hops unknown");
	ok(said(&v, "more than was sent"), "and says why");
}

/* The provider's rule decides whose hop limit left; what arrived can
 * only narrow it down, and an undecidable case gives no hop count. */
static void test_provider_rules(void)
{
	struct verdict_input in;
	struct verdict v;

	/* mlx5 on RoCE sends the AH's 7 even though the route says 64. */
	in = roce(7, 5, 64, HOP_LIMIT_RULE_AH);
	in.hop_limit_rule_why = "mlx5 builds the address vector in user space";
	verdict_judge(&in, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH, "mlx5: the AH's");
	is_int(v.hops, 2, "mlx5: 7 sent, 5 arrived: 2 hops");
	ok(!(v.flags & VERDICT_HOP_LIMIT_NOT_HONOURED), "honoured");
	ok(strstr(v.hop_limit_why, "user space") != NULL,
	   "the rule applied is kept for the report");

	/* irdma/bnxt_re: the kernel puts the route's 64 out, whatever the
	 * AH asks, even below what was asked. */
	in = roce(200, 63, 64, HOP_LIMIT_RULE_ROUTE);
	verdict_judge(&in, &v);
	is_int(v.hops, 1, "kernel AH: hops from the route's 64");
	ok(v.flags & VERDICT_HOP_LIMIT_NOT_HONOURED, "200 asked, 64 sent");
	in.route_known = false;
	verdict_judge(&in, &v);
	is_int(v.hops, -1, "kernel AH, route unknown: no hop count");
	ok(said(&v, "hop count unknown"), "and it says so");

	/* Unknown provider: both candidates fit what arrived. */
	in = roce(10, 8, 64, HOP_LIMIT_RULE_UNKNOWN);
	verdict_judge(&in, &v);
	is_int(v.hops, -1, "unknown provider, 10 or 64 could have left 8: "
	       "no hop count");
	in = roce(10, 62, 64, HOP_LIMIT_RULE_UNKNOWN);
	verdict_judge(&in, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_ROUTE,
	       "unknown provider, 62 arrived above 10 asked: the route's");
	is_int(v.hops, 2, "2 hops from 64");
	in = roce(100, 80, 64, HOP_LIMIT_RULE_UNKNOWN);
	verdict_judge(&in, &v);
	is_int(v.hop_limit_source, HOP_LIMIT_FROM_AH,
	       "80 arrived above the route's 64: the AH's 100");
	is_int(v.hops, 20, "20 hops");
	in = roce(64, 62, 64, HOP_LIMIT_RULE_UNKNOWN);
	verdict_judge(&in, &v);
	is_int(v.hops, 2, "asked = route = 64: either way 2 hops");
	/* Unknown provider, route lookup failed: 255 asked, 62 arrived;
	 * the route's 64 may have left as well as the AH's 255. */
	in = roce(255, 62, -1, HOP_LIMIT_RULE_UNKNOWN);
	verdict_judge(&in, &v);
	is_int(v.hops, -1, "unknown provider, unknown route: no hop count "
	       "(not 193)");
}

/* wc.sl is judged only when the responder says it is an SL (IB). */
static void test_sl(void)
{
	struct verdict_input in = reached(64, 64);
	struct verdict v;

	in.asked.sl = 3;
	in.observed.sl = 0;
	in.observed.grh_present = false;	/* in-subnet IB: no GRH */
	in.observed.sl_valid = true;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_SL_CHANGED, "IB: sent SL 3, arrived SL 0");
	ok(said(&v, "sent SL 3, arrived SL 0"), "in those words");
	in.observed.sl_valid = false;	/* RoCE: mlx5 puts the L3 type there */
	in.observed.sl = 2;
	verdict_judge(&in, &v);
	ok(!(v.flags & VERDICT_SL_CHANGED), "RoCE: wc.sl is no SL, not judged");
	is_str(verdict_flag_name(VERDICT_SL_CHANGED), "sl_changed",
	       "JSON name");
}

/* Causes of loss the prober can name from its side. */
static void test_loss_causes(void)
{
	struct verdict_input in;
	struct verdict v;

	memset(&in, 0, sizeof(in));
	in.sent = 10;
	in.received = 4;
	in.known_hops = -1;
	in.responder_restarted = true;
	in.old_qpn = 17;
	in.new_qpn = 18;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_RESPONDER_RESTARTED, "a new QPN: restarted");
	ok(said(&v, "QPN 17, now 18"), "both QPNs named");

	/* A continuous run followed it: when, from which QPN to which, and
	 * that the loss is its downtime; its counts are not asked. */
	memset(&in, 0, sizeof(in));
	in.sent = 60;
	in.received = 30;
	in.known_hops = -1;
	in.restart_followed = true;
	in.restarts_followed = 1;
	in.old_qpn = 17;
	in.new_qpn = 18;
	snprintf(in.restart_time, sizeof(in.restart_time), "22:01:05");
	in.oneway.sent = 60;
	in.oneway.arrived = 30;
	in.oneway.final = ONEWAY_FINAL_KNOWN;
	in.oneway.final_received = 10;
	in.oneway.final_answered = 10;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_RESPONDER_RESTARTED, "followed: restarted");
	ok(said(&v, "the responder restarted at 22:01:05 (QPN 17 -> 18): the "
		    "probes followed it; those sent while it was down are "
		    "lost"), "when and which QPNs, followed");
	ok(!said(&v, "lost on the way"), "the new QP's counts are not ours");
	in.restarts_followed = 3;
	verdict_judge(&in, &v);
	ok(said(&v, "restarted 3 times, last at 22:01:05"), "three restarts");

	memset(&in, 0, sizeof(in));
	in.sent = 5;
	in.known_hops = -1;
	in.size = 1000;
	in.port_mtu = 1024;
	in.rendezvous_answered = true;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_SIZE_SUSPECT, "1000 bytes of 1024 all lost: the "
	   "size is suspect");
	ok(said(&v, "every 1000-byte probe was lost") && said(&v, "--size"),
	   "named, with what to try");
	ok(v.flags & VERDICT_DATA_PATH_BLOCKED, "rendezvous up, UD lost");
	ok(said(&v, "UDP 4791"), "the data path named");
	in.size = 136;
	verdict_judge(&in, &v);
	ok(!(v.flags & VERDICT_SIZE_SUSPECT), "136 bytes: the size is not "
	   "suspect");
	in.received = 5;
	verdict_judge(&in, &v);
	ok(!(v.flags & (VERDICT_DATA_PATH_BLOCKED | VERDICT_SIZE_SUSPECT)),
	   "nothing lost: no cause named");
}

/* First contact (issue 26): a fresh responder saw all 5 and answered
 * none, its reply AH still being made; the rendezvous answered. Not
 * "blocked": that contradicts its own count. */
static void test_first_contact(void)
{
	struct verdict_input in;
	struct verdict v;

	memset(&in, 0, sizeof(in));
	in.sent = 5;
	in.known_hops = -1;
	in.size = 136;
	in.rendezvous_answered = true;
	in.oneway = (struct oneway_input){
		.sent = 5, .final = ONEWAY_FINAL_KNOWN, .final_received = 5,
		.final_reasons_known = true, .final_resolving = 5,
	};
	verdict_judge(&in, &v);
	is_int(v.reach, PROBE_STATUS_UNREACHABLE, "still unreachable: none "
	       "came back");
	ok(v.flags & VERDICT_FIRST_CONTACT, "first contact named");
	ok(!(v.flags & VERDICT_DATA_PATH_BLOCKED), "and no blocked path");
	ok(said(&v, "still resolving its way back to you (first contact)"),
	   "in those words");
	ok(!said(&v, "UDP 4791"), "UDP 4791 not blamed");
	is_str(verdict_flag_name(VERDICT_FIRST_CONTACT), "first_contact",
	       "JSON name");
	/* The same 5 seen and not answered, from an older serve that
	 * cannot say why: still no "blocked" (it saw them all). */
	in.oneway.final_reasons_known = false;
	in.oneway.final_resolving = 0;
	verdict_judge(&in, &v);
	ok(!(v.flags & (VERDICT_DATA_PATH_BLOCKED | VERDICT_FIRST_CONTACT)),
	   "seen but not answered, no reason: neither");
	/* Seen none: that is a blocked path. */
	in.oneway.final_received = 0;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_DATA_PATH_BLOCKED, "seen none: blocked");
}

/* --qpn/--qkey skip the responder's word on both: when nothing answers,
 * the hint points at them (a wrong Q_Key is dropped unseen), and only
 * then. */
static void test_given_qkey(void)
{
	struct verdict_input in;
	struct verdict v;

	memset(&in, 0, sizeof(in));
	in.sent = 5;
	in.known_hops = -1;
	in.qpn_given = true;
	in.given_qpn = 17;
	in.given_qkey = 0x11111111;
	verdict_judge(&in, &v);
	is_int(v.reach, PROBE_STATUS_UNREACHABLE, "none answered");
	ok(said(&v, "--qpn 17 --qkey 0x11111111 must both match the "
		    "responder's"), "the given QPN and Q_Key named");
	ok(said(&v, "serve prints them"), "and where the right ones are");
	for (size_t i = 0; i < v.text_count; i++)
		ok(strlen(v.text[i]) < sizeof(v.text[0]) - 1,
		   "sentence %zu not cut: %s", i, v.text[i]);
	in.received = 3;
	verdict_judge(&in, &v);
	ok(!said(&v, "--qkey"), "some answered: the keys are right, not "
	   "named");
	in.received = 0;
	in.qpn_given = false;
	verdict_judge(&in, &v);
	ok(!said(&v, "--qkey"), "from the rendezvous: not named");
}

static void test_grh_changes(void)
{
	struct verdict_input in = reached(64, 63);
	struct verdict v;

	in.observed.traffic_class = 0x0a;
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_TCLASS_REMARKED, "DSCP changed: remarked");
	ok(said(&v, "sent 0x28") && said(&v, "seen 0x0a"), "both values");
	in.observed.flow_label = 7;
	verdict_judge(&in, &v);
	ok(v.text_rewrite_end == v.text_rewrite_start + 2 &&
		   strstr(v.text[v.text_rewrite_start], "traffic class "
			  "remarked") == v.text[v.text_rewrite_start] &&
		   strstr(v.text[v.text_rewrite_start + 1], "flow label "
			  "changed") == v.text[v.text_rewrite_start + 1],
	   "the rewrites are marked as such (a sweep says them once)");
	in = reached(64, 63);
	verdict_judge(&in, &v);
	ok(v.text_rewrite_end == v.text_rewrite_start, "nothing rewritten: "
	   "no rewrite marked");

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
	is_int(v.reach, PROBE_STATUS_PARTIAL, "3 of 5: partial loss");
	ok(said(&v, "2 of 5"), "counts in words");

	/* Route hop limit 1 toward a routed destination on rxe. */
	memset(&in, 0, sizeof(in));
	in.asked.hop_limit = 64;
	in.sent = 5;
	in.link_ethernet = true;
	in.route_known = true;
	in.route_hop_limit = 1;
	in.route_has_gateway = true;
	in.hop_limit_rule = HOP_LIMIT_RULE_ROUTE;
	in.known_hops = -1;
	verdict_judge(&in, &v);
	is_int(v.reach, PROBE_STATUS_UNREACHABLE, "none answered: unreachable");
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
	is_str(probe_status_name(PROBE_STATUS_PARTIAL), "partial_loss", "names: one spelling, as in JSON");
	is_str(verdict_flag_name(VERDICT_TCLASS_REMARKED), "tclass_remarked",
	       "flag names");
}

/* The way back: hop limit the reply left with minus what arrived. */
static void test_hops_back(void)
{
	struct verdict_input in = roce(64, 61, 64, HOP_LIMIT_RULE_ROUTE);
	struct verdict v;

	in.reply_hop_limit_sent_known = true;
	in.reply_hop_limit_sent = 64;
	in.reply_grh_seen = true;
	in.reply_hop_limit_seen = 62;
	verdict_judge(&in, &v);
	ok(v.hops == 3 && v.hops_back == 2, "3 hops there, 2 back");
	ok(v.flags & VERDICT_ASYMMETRIC_HOPS, "asymmetric flag");
	ok(said(&v, "asymmetric routing: 3 hops there, 2 back"),
	   "named with both counts");
	is_str(verdict_flag_name(VERDICT_ASYMMETRIC_HOPS), "asymmetric_hops",
	       "JSON name");

	in.reply_hop_limit_seen = 61;
	verdict_judge(&in, &v);
	ok(v.hops_back == 3 && !(v.flags & VERDICT_ASYMMETRIC_HOPS) &&
		   v.text_count == 0, "symmetric: counted, nothing said");

	/* mlx5-like responder: 255 leaves, 252 arrives. */
	in.reply_hop_limit_sent = 255;
	in.reply_hop_limit_seen = 252;
	verdict_judge(&in, &v);
	is_int(v.hops_back, 3, "from the AH's 255");

	in.reply_hop_limit_sent_known = false;
	verdict_judge(&in, &v);
	ok(v.hops_back == -1 && !(v.flags & VERDICT_ASYMMETRIC_HOPS),
	   "older responder: hops back unknown, no asymmetry claimed");

	in.reply_hop_limit_sent_known = true;
	in.reply_grh_seen = false;
	verdict_judge(&in, &v);
	is_int(v.hops_back, -1, "reply without a GRH: unknown");

	in.reply_grh_seen = true;
	in.reply_hop_limit_sent = 64;
	in.reply_hop_limit_seen = 70;
	verdict_judge(&in, &v);
	is_int(v.hops_back, -1, "more arrived than left: no count");

	/* Forward unknown: hops back alone, no asymmetry. */
	in = reached(7, 62);
	in.reply_hop_limit_sent_known = true;
	in.reply_hop_limit_sent = 255;
	in.reply_grh_seen = true;
	in.reply_hop_limit_seen = 253;
	verdict_judge(&in, &v);
	ok(v.hops == -1 && v.hops_back == 2 &&
		   !(v.flags & VERDICT_ASYMMETRIC_HOPS),
	   "forward unknown: no asymmetry claimed");
}

/* Probes dropped in the responder's full receive queue: their own
 * verdict, never lost_there nor a blocked data path. */
static void test_responder_queue(void)
{
	struct verdict_input in = reached(64, 62);
	struct verdict v;

	in.sent = 10;
	in.received = 7;
	in.rendezvous_answered = true;
	in.oneway = (struct oneway_input){
		.sent = 10, .arrived = 7, .final = ONEWAY_FINAL_KNOWN,
		.final_received = 7, .final_answered = 7,
		.rq = { .present = true, .counter_known = true,
			.counter = "out_of_buffer", .counter_delta = 3 },
	};
	verdict_judge(&in, &v);
	ok((v.flags & VERDICT_RESPONDER_QUEUE) &&
		   !(v.flags & VERDICT_LOST_THERE),
	   "responder_queue, not lost_there");
	is_str(verdict_flag_name(VERDICT_RESPONDER_QUEUE), "responder_queue",
	       "JSON name");
	ok(said(&v, "dropped at the responder (receive queue full): it saw 7 "
		    "of 10; its port's out_of_buffer counter rose by 3 during "
		    "the run (every sender's drops count there)"),
	   "the finding");

	in.oneway.rq.counter_delta = 1;
	verdict_judge(&in, &v);
	ok((v.flags & VERDICT_LOST_THERE) &&
		   !(v.flags & VERDICT_RESPONDER_QUEUE),
	   "fewer dropped than lost: lost_there");
	ok(said(&v, "lost on the way there: the responder saw 7 of 10") &&
		   said(&v, "up to 1 of the probes the responder never saw "
			    "were dropped in its receive queue (its "
			    "out_of_buffer counter rose by as many during the "
			    "run)"),
	   "the queue's share, a finding of its own");

	in.received = 0;
	in.oneway.arrived = 0;
	in.oneway.final_received = in.oneway.final_answered = 0;
	in.oneway.rq.counter_delta = 10;
	verdict_judge(&in, &v);
	ok((v.flags & VERDICT_RESPONDER_QUEUE) &&
		   !(v.flags & VERDICT_DATA_PATH_BLOCKED),
	   "all dropped in the queue: no blocked data path claimed");
}

/* The loss direction joins the findings after the loss count. */
static void test_loss_direction(void)
{
	struct verdict_input in = reached(64, 62);
	struct verdict v;

	in.sent = 10;
	in.received = 7;
	in.oneway = (struct oneway_input){ .sent = 10, .arrived = 7,
					   .final = ONEWAY_FINAL_KNOWN,
					   .final_received = 7,
					   .final_answered = 7 };
	verdict_judge(&in, &v);
	ok(v.flags & VERDICT_LOST_THERE, "lost_there flag");
	ok(!(v.flags & VERDICT_LOST_BACK), "no lost_back flag");
	is_str(v.text[v.text_detail_start],
	       "lost on the way there: the responder saw 7 of 10",
	       "the first detail finding");
	in.oneway.final_received = in.oneway.final_answered = 10;
	verdict_judge(&in, &v);
	ok((v.flags & VERDICT_LOST_BACK) && !(v.flags & VERDICT_LOST_THERE),
	   "lost_back flag");
	ok(said(&v, "lost on the way back: the responder answered 10 of 10, "
		    "3 replies lost"), "back, both numbers");
	is_str(verdict_flag_name(VERDICT_LOST_BACK), "lost_back", "JSON name");

	in.responder_restarted = true;
	verdict_judge(&in, &v);
	ok(!said(&v, "lost on the way"), "restarted: its counts are not ours");
	in.responder_restarted = false;

	in.received = in.sent = 10;
	in.oneway.arrived = 10;
	verdict_judge(&in, &v);
	ok(v.oneway.direction == ONEWAY_NO_LOSS && !said(&v, "lost"),
	   "no loss: no direction");
}

/* Issue 25 item 5: nothing arrived in a partition where this port is a
 * limited member: the verdict names the partition rule. */
static void test_limited_partition(void)
{
	struct verdict_input in = reached(64, 64);
	struct verdict v;

	in.received = 0;
	in.observed_valid = false;
	in.pkey = 0x0012;
	in.local_pkey_membership = PKEY_MEMBER_LIMITED;
	in.remote_pkey_membership = PKEY_MEMBER_LIMITED;
	verdict_judge(&in, &v);
	is_int(v.reach, PROBE_STATUS_UNREACHABLE, "unreachable");
	ok(said(&v, "this port and the responder are both limited members of "
		    "partition 0x0012: two limited members cannot talk"),
	   "both limited: said");
	in.remote_pkey_membership = PKEY_MEMBER_UNKNOWN;
	verdict_judge(&in, &v);
	ok(said(&v, "this port is a limited member of partition 0x0012: it "
		    "cannot talk to another limited member"),
	   "we are limited, the responder unknown: said as a condition");
	in.remote_pkey_membership = PKEY_MEMBER_FULL;
	verdict_judge(&in, &v);
	ok(!said(&v, "limited member"), "the responder full: nothing said");
	in.local_pkey_membership = PKEY_MEMBER_FULL;
	in.remote_pkey_membership = PKEY_MEMBER_LIMITED;
	verdict_judge(&in, &v);
	ok(!said(&v, "limited member"), "we are full: nothing said");
	in.local_pkey_membership = PKEY_MEMBER_LIMITED;
	in.received = 5;
	verdict_judge(&in, &v);
	ok(!said(&v, "limited member"), "reached: nothing said");
}

int main(void)
{
	test_limited_partition();
	test_hops_and_hop_limit();
	test_provider_rules();
	test_sl();
	test_loss_causes();
	test_first_contact();
	test_given_qkey();
	test_grh_changes();
	test_loss();
	test_hops_back();
	test_loss_direction();
	test_responder_queue();
	return tap_done();
}

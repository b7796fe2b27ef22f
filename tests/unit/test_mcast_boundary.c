/* Where a multicast group stops (lib/probe/mcast_boundary.c): a member
 * silent to the group but reached unicast behind a router names the
 * router when the members that answered are on this side of it; no
 * router when it is on our link, down, or the evidence is short. */
#include <string.h>

#include "probe/mcast_boundary.h"
#include "tap.h"

#define PATH(...)                                                           \
	((struct mcast_unicast_path){                                       \
		.routers = (const char *const[]){ __VA_ARGS__ },            \
		.count = sizeof((const char *const[]){ __VA_ARGS__ }) /     \
			 sizeof(const char *) })

static const struct mcast_answered_member b_on_lan = { .hops = 0 };

static void test_router_not_routing(void)
{
	/* The VM's fabric: B on A's LAN answers (0 hops), C behind R1
	 * answers unicast over R1 only. */
	struct mcast_silent_member c = {
		.unicast_probed = true, .unicast_reached = true,
		.path = PATH("198.18.1.1"),
	};
	struct mcast_boundary b;
	char words[256];

	mcast_boundary_infer(&b_on_lan, 1, &c, &b);
	is_int(b.verdict, MCAST_BOUNDARY_ROUTER, "R1 is the boundary");
	is_int((int)b.router, 0, "the first router");
	ok(!b.routes_elsewhere, "it routes the group nowhere we saw");
	mcast_boundary_describe(&b, &c, "198.18.3.2", "c", "r1", "239.1.2.3",
				words, sizeof(words));
	is_str(words, "c (198.18.3.2) answers unicast over 198.18.1.1 (r1) "
	       "but not 239.1.2.3: r1 does not route the group (the "
	       "boundary)", "the sentence");
	mcast_boundary_describe(&b, &c, "198.18.3.2", NULL, NULL, "239.1.2.3",
				words, sizeof(words));
	is_str(words, "198.18.3.2 answers unicast over 198.18.1.1 but not "
	       "239.1.2.3: 198.18.1.1 does not route the group (the "
	       "boundary)", "without names");
	is_str(mcast_boundary_verdict_name(b.verdict), "router", "name");
}

static void test_deeper_boundary(void)
{
	/* A member 1 router away over R1 answers; the silent one is behind
	 * R1 then R2: R2 stops the group, not R1. */
	struct mcast_answered_member m[] = {
		{ .hops = 0 },
		{ .hops = 1, .path = PATH("10.0.0.1", "10.0.9.2") },
	};
	struct mcast_silent_member s = {
		.unicast_probed = true, .unicast_reached = true,
		.path = PATH("10.0.0.1", "10.0.1.1"),
	};
	struct mcast_boundary b;

	/* Its path's routers: the answered member is 1 router away, so
	 * only 10.0.0.1 counts as crossed, even though its path lists
	 * one more (the member's own address after the last router). */
	mcast_boundary_infer(m, 2, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_ROUTER, "a deeper boundary");
	is_int((int)b.router, 1, "the second router, past the crossed one");

	/* The answered member went over another first router: the
	 * group's reach over ours is not shown, ours is the boundary. */
	m[1].path = PATH("10.0.5.1");
	mcast_boundary_infer(m, 2, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_ROUTER, "another branch");
	is_int((int)b.router, 0, "our first router");
}

static void test_routes_elsewhere(void)
{
	/* Both behind R1; one answers over it: R1 routes the group, only
	 * not onto the silent member's link. */
	struct mcast_answered_member m = {
		.hops = 1, .path = PATH("198.18.1.1"),
	};
	struct mcast_silent_member s = {
		.unicast_probed = true, .unicast_reached = true,
		.path = PATH("198.18.1.1"),
	};
	struct mcast_boundary b;
	char words[256];

	mcast_boundary_infer(&m, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_ROUTER, "the last router");
	is_int((int)b.router, 0, "R1");
	ok(b.routes_elsewhere, "it routes the group elsewhere");
	mcast_boundary_describe(&b, &s, "198.18.3.2", NULL, "r1", "ff0e::1",
				words, sizeof(words));
	is_str(words, "198.18.3.2 answers unicast over 198.18.1.1 (r1) but "
	       "not ff0e::1: r1 does not route the group onto its link "
	       "(the boundary)", "onto its link");
}

static void test_no_boundary(void)
{
	struct mcast_silent_member s = {
		.unicast_probed = true, .unicast_reached = true,
		.path = PATH("198.18.1.1"),
	};
	struct mcast_answered_member far = { .hops = 2 };
	struct mcast_answered_member unknown = { .hops = -1 };
	struct mcast_boundary b;
	char words[256];

	mcast_boundary_infer(NULL, 0, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_UNKNOWN, "nobody answered");
	mcast_boundary_infer(&far, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_UNKNOWN,
	       "an answer from 2 routers away, path unknown");
	mcast_boundary_infer(&unknown, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_UNKNOWN, "hops unknown");

	s.unicast_reached = false;
	mcast_boundary_infer(&b_on_lan, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_MEMBER_DOWN, "silent unicast too");
	mcast_boundary_describe(&b, &s, "198.18.3.2", "c", NULL, "239.1.2.3",
				words, sizeof(words));
	is_str(words, "c (198.18.3.2) answers neither 239.1.2.3 nor unicast: "
	       "it is down or unreachable, not a multicast boundary",
	       "down");

	s.unicast_reached = true;
	s.path.count = 0;
	mcast_boundary_infer(&b_on_lan, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_SAME_LINK, "on our link");

	s.unicast_probed = false;
	mcast_boundary_infer(&b_on_lan, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_UNKNOWN, "not probed unicast");

	/* The router where it stops was silent to the trace. */
	s = (struct mcast_silent_member){
		.unicast_probed = true, .unicast_reached = true,
		.path = PATH(NULL, "10.0.1.1"),
	};
	mcast_boundary_infer(&b_on_lan, 1, &s, &b);
	is_int(b.verdict, MCAST_BOUNDARY_UNKNOWN, "a silent router");
	mcast_boundary_describe(&b, &s, "10.0.2.2", NULL, NULL, "239.1.2.3",
				words, sizeof(words));
	is_str(words, "10.0.2.2 is silent to 239.1.2.3; no boundary named: "
	       "the router where the group stops did not answer the trace",
	       "why");
}

int main(void)
{
	test_router_not_routing();
	test_deeper_boundary();
	test_routes_elsewhere();
	test_no_boundary();
	return tap_done();
}

/* Unit tests of the benchmark's fabric model (tests/tools/fabric): the
 * topology's sizes, ECMP that depends on the 5-tuple alone, the UDP port
 * taken from the library's fold of the flow label, fault placement and
 * the loss and remarking each fault shows. */
#include <string.h>

#include "../tools/fabric/fabric.h"
#include "tap.h"
#include "wire/roce_packet.h"

static void build(struct fabric *f, enum fabric_shape shape, unsigned hosts)
{
	struct fabric_rng rng = { 7 };

	ok(fabric_build(f, shape, hosts, 0, 0, &rng) == 0, "build %u hosts",
	   hosts);
}

static void test_sizes(void)
{
	struct fabric f;
	struct fabric_rng rng = { 1 };

	build(&f, FABRIC_CLOS, 64);
	ok(f.tors == 8 && f.pods == 2 && f.spines == 8 && f.cores == 8 &&
	   f.router_count == 24 && f.nic_count == 64, "64 hosts: 8 ToRs, 2 pods");
	fabric_free(&f);
	build(&f, FABRIC_CLOS, 2048);
	ok(f.tors == 128 && f.pods == 32 && f.cores == 16 &&
	   f.nic_count == 2048, "2,048 hosts: 128 ToRs in 32 pods");
	is_str(f.routers[0].name, "tor0", "routers named by tier");
	is_str(f.routers[128].name, "spine0", "spines after the ToRs");
	fabric_free(&f);
	build(&f, FABRIC_RAIL, 512);
	ok(f.nic_count == 2048 && f.tors == 128, "rail: 4 NICs a host, a ToR a rail");
	ok(f.nics[5].host == 1 && f.nics[5].rail == 1 &&
	   f.nics[5].tor == 1 && f.nics[1].tor == 1,
	   "NIC r of each host of a unit on rail ToR r");
	fabric_free(&f);
	ok(fabric_build(&f, FABRIC_CLOS, 60, 0, 0, &rng) == -1,
	   "a size that is no whole number of racks is refused");
}

static void test_ecmp(void)
{
	struct fabric f;
	unsigned a[FABRIC_MAX_PATH], b[FABRIC_MAX_PATH];
	size_t n, m;
	unsigned spines_seen = 0;

	build(&f, FABRIC_CLOS, 512);
	n = fabric_route(&f, 0, 300, 50000, a);
	m = fabric_route(&f, 0, 300, 50000, b);
	ok(n == 7 && n == m && memcmp(a, b, n * sizeof(*a)) == 0,
	   "one 5-tuple, one path of 5 routers across pods");
	ok(a[0] == 0 && a[6] == 300 && a[1] == fabric_node_router(&f, 0),
	   "from the NIC through its ToR to the NIC");
	n = fabric_route(&f, 0, 3, 50000, a);
	ok(n == 3, "same rack: through the ToR alone");
	n = fabric_route(&f, 0, 20, 50000, a);
	ok(n == 5, "same pod: ToR, spine, ToR");
	/* Many ports spread over every spine of the pod. */
	for (unsigned port = 49152; port < 49152 + 256; port++) {
		fabric_route(&f, 0, 300, (uint16_t)port, a);
		spines_seen |= 1u << (a[2] - fabric_node_router(&f, f.tors));
	}
	is_int(spines_seen, 0xf, "256 ports reach all 4 spines");
	ok(fabric_ecmp_hash(1, 2, 3, 4791, 5) == fabric_ecmp_hash(1, 2, 3, 4791, 5) &&
	   fabric_ecmp_hash(1, 2, 3, 4791, 5) != fabric_ecmp_hash(1, 2, 4, 4791, 5),
	   "the hash: the tuple alone, the port matters");
	fabric_free(&f);
}

static void test_probe_port(void)
{
	struct fabric f;
	struct fabric_state s;
	struct fabric_result r;
	struct fabric_rng rng = { 3 };

	build(&f, FABRIC_CLOS, 64);
	s = (struct fabric_state){ .fabric = &f };
	fabric_probe(&s, 0, 40, 0x12345, 0x68, 20, &r, &rng);
	is_int(r.sport, roce_flow_label_to_udp_sport(0x12345),
	       "the UDP port is the library's fold of the flow label");
	ok(r.received == 20 && r.lost_there == 0 && r.lost_back == 0,
	   "no background, no fault: nothing lost");
	fabric_free(&f);
}

static void test_faults(void)
{
	struct fabric f;
	struct fabric_state s;
	struct fabric_result r;
	struct fabric_trace t;
	struct fabric_rng rng = { 11 };
	unsigned path[FABRIC_MAX_PATH];
	size_t n;

	build(&f, FABRIC_CLOS, 64);
	s = (struct fabric_state){ .fabric = &f };
	ok(fabric_fault_place(&s, FAULT_DEAD_HOST, &rng) == 0 &&
	   fabric_fault_place(&s, FAULT_LOSSY_NIC, &rng) == 0,
	   "two faults placed");
	ok(fabric_fault_place(&s, FAULT_LOSSY_LINK, &rng) == -1,
	   "a third is refused");
	ok(f.nics[s.faults[1].a].host != s.faults[0].a,
	   "the lossy NIC is not on the dead host");
	ok(fabric_host_dead(&s, s.faults[0].a), "the dead host is dead");
	ok(fabric_nic_loss(&s, s.faults[0].a) == 1.0, "its NIC loses all");

	/* A dead link on a path: all lost there, the trace stops before it. */
	s = (struct fabric_state){ .fabric = &f };
	n = fabric_route(&f, 0, 40, roce_flow_label_to_udp_sport(5), path);
	s.faults[0] = (struct fault){ .kind = FAULT_DEAD_LINK, .a = path[2],
				      .b = path[3], .rate = 1 };
	s.fault_count = 1;
	ok(fabric_link_loss(&s, path[3], path[2]) == 1.0,
	   "a dead link is dead both ways");
	fabric_probe(&s, 0, 40, 5, 0x68, 20, &r, &rng);
	ok(r.path_len == n && r.lost_there == 20 && r.received == 0,
	   "a dead link on the path: every probe lost there");
	fabric_trace(&s, &r, &t, &rng);
	ok(!t.reached && t.hops[0].kind[0] == FABRIC_TIME_EXCEEDED &&
	   t.hops[1].kind[0] == FABRIC_TIME_EXCEEDED &&
	   t.hops[2].kind[0] == FABRIC_SILENT,
	   "the trace answers up to the link and is silent after it");

	/* A remarking spine: the responder sees DSCP 0, the ToR before it
	 * quotes 26, the routers after it 0. */
	s.faults[0] = (struct fault){ .kind = FAULT_ROUTER_REMARK,
				      .a = path[2] - f.nic_count };
	fabric_probe(&s, 0, 40, 5, 0x68, 20, &r, &rng);
	is_int(r.seen_tclass, 0, "remarked on the way: DSCP 0 arrives");
	fabric_trace(&s, &r, &t, &rng);
	ok(t.reached && t.hops[1].seen_tclass == 0x68 &&
	   t.hops[2].seen_tclass == 0, "the quotes change after the remarker");
	fabric_free(&f);
}

static void test_placement_spread(void)
{
	struct fabric f;
	struct fabric_rng rng = { 5 };
	unsigned uplinks = 0, core_links = 0, wrong = 0;

	build(&f, FABRIC_CLOS, 512);
	for (int i = 0; i < 200; i++) {
		struct fabric_state s = { .fabric = &f };
		unsigned lo, hi;

		if (fabric_fault_place(&s, FAULT_LOSSY_LINK, &rng)) {
			wrong++;
			continue;
		}
		lo = s.faults[0].a < s.faults[0].b ? s.faults[0].a : s.faults[0].b;
		hi = s.faults[0].a ^ s.faults[0].b ^ lo;
		if (lo < f.nic_count || s.faults[0].rate < 0.05 ||
		    s.faults[0].rate > 0.5)
			wrong++;
		else if (f.routers[lo - f.nic_count].tier != FABRIC_TOR)
			core_links++;
		else if ((hi - f.nic_count - f.tors) / f.spines_per_pod !=
			 (lo - f.nic_count) / f.racks_per_pod)
			wrong++;	/* a ToR's uplink leaves its pod */
		else
			uplinks++;
	}
	is_int(wrong, 0, "200 lossy links: between routers of one pod or "
	       "plane, rate 5-50%%");
	ok(uplinks > 50 && core_links > 50,
	   "ToR uplinks and spine-core links both drawn");
	fabric_free(&f);
}

int main(void)
{
	test_sizes();
	test_ecmp();
	test_probe_port();
	test_faults();
	test_placement_spread();
	return tap_done();
}

/* Tests of the thin rtnetlink wrapper against this host's kernel, on the
 * one route every Linux host has (loopback), and of -g auto asking the
 * kernel through it: bad input is refused with words, a local
 * destination is marked local, and the GID choice follows the answer. */
#include "port_fixture.h"
#include "verbs/route_info.h"
#include "verbs/sgid_select.h"
#include "tap.h"

static void test_lookup(void)
{
	struct route_info r;
	char err[DIAG_MSG_MAX] = "";

	is_int(route_lookup("127.0.0.1", NULL, &r, err, sizeof(err)), 0,
	       "route to 127.0.0.1: %s", err);
	is_int(r.family, AF_INET, "IPv4");
	ok(r.local, "a local destination (RTN_LOCAL)");
	is_str(r.oif, "lo", "through lo");
	is_str(r.source, "127.0.0.1", "the kernel's source address");
	ok(!r.has_gateway, "on link");

	is_int(route_lookup("::ffff:127.0.0.1", NULL, &r, err, sizeof(err)), 0,
	       "IPv4-mapped");
	is_int(r.family, AF_INET, "asked as IPv4, as RoCE v2 sends it");
	is_str(r.source, "127.0.0.1", "same source");

	is_int(route_lookup("127.0.0.1", "lo", &r, err, sizeof(err)), 0,
	       "bound to lo");
	is_str(r.oif, "lo", "through lo");

	is_int(route_lookup("10.0.0.1.2", NULL, &r, err, sizeof(err)), -1,
	       "not an address");
	is_str(err, "'10.0.0.1.2' is not an IP address", "says so");
	is_int(route_lookup("127.0.0.1", "no-such-if0", &r, err, sizeof(err)),
	       -1, "unknown interface");
	is_str(err, "no interface 'no-such-if0'", "says so");
}

/* A RoCE port whose GIDs sit on lo and on a netdev without routes: the
 * old rule (the first RoCE v2 GID of the family) took eth9's. */
static void test_select_asks_the_kernel(void)
{
	static struct gid_info gids[3];
	struct ah_port_facts f;
	struct sgid_choice c;
	union ibv_gid dgid = fixture_gid("127.0.0.1");

	roce_facts(&f);
	gids[0] = (struct gid_info){ .index = 0, .kind = GID_KIND_ROCE_V2,
				     .gid = fixture_gid("fe80::9"),
				     .netdev = "eth9" };
	gids[1] = (struct gid_info){ .index = 1, .kind = GID_KIND_ROCE_V2,
				     .gid = fixture_gid("10.9.9.9"),
				     .netdev = "eth9" };
	gids[2] = (struct gid_info){ .index = 4, .kind = GID_KIND_ROCE_V2,
				     .gid = fixture_gid("127.0.0.1"),
				     .netdev = "lo" };
	f.gids = gids;
	f.gid_count = 3;
	is_int(sgid_select(&f, &dgid, NULL, &c), 0, "127.0.0.1");
	is_int(c.index, 4, "the GID of the local address, not the first (1)");
	is_str(sgid_rule_name(c.rule), "local", "rule: local");
	ok(c.route_known, "the kernel answered");
	is_str(c.route_oif, "lo", "route_oif");
	is_str(c.route_source, "127.0.0.1", "route_source");
	is_str(c.reason, "127.0.0.1 is a local address of lo", "reason");

	/* A link-local destination without a scope, on a port whose
	 * link-local GIDs sit on one netdev: the route is asked through that
	 * netdev (here absent, so the answer is the fallback's reason). */
	dgid = fixture_gid("fe80::1");
	is_int(sgid_select(&f, &dgid, NULL, &c), 0, "fe80::1");
	is_int(c.index, 0, "the only link-local GID");
	is_str(c.reason, "the route was not usable (no interface 'eth9'): the "
			 "first RoCE v2 IPv6 link-local GID",
	       "the lookup was bound to eth9");
}

int main(void)
{
	test_lookup();
	test_select_asks_the_kernel();
	return tap_done();
}

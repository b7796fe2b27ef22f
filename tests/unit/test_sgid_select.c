/* Unit tests of the source-GID choice (-g auto): the GID on the netdev the
 * kernel's route leaves through, with the route's source address; then
 * that netdev's other addresses; then any GID of the family; RoCE v2
 * before v1; IPv6 link-local only for link-local; the IB subnet prefix;
 * and a reason in words every time. GID tables are laid out as mlx5
 * (v1 and v2 twins, index 0 v1 fe80, 1 v2 fe80, 2 v1 IPv4, 3 v2 IPv4) and
 * rxe (v2 only) lay them out. */
#include "port_fixture.h"
#include "verbs/sgid_select.h"
#include "tap.h"

struct gid_row {
	uint32_t index;
	const char *gid;
	enum gid_kind kind;
	const char *netdev;
};

static struct gid_info table[16];

static void load(struct ah_port_facts *f, const struct gid_row *rows,
		 size_t n)
{
	roce_facts(f);	/* a RoCE port; its GIDs are replaced */
	for (size_t i = 0; i < n; i++) {
		table[i].index = rows[i].index;
		table[i].gid = fixture_gid(rows[i].gid);
		table[i].kind = rows[i].kind;
		snprintf(table[i].netdev, sizeof(table[i].netdev), "%s",
			 rows[i].netdev);
	}
	f->gids = table;
	f->gid_count = n;
}

static struct route_info route_via(const char *oif, const char *source)
{
	struct route_info r;

	memset(&r, 0, sizeof(r));
	snprintf(r.oif, sizeof(r.oif), "%s", oif);
	snprintf(r.source, sizeof(r.source), "%s", source);
	return r;
}

static struct sgid_choice c;

static int pick(const struct ah_port_facts *f, const char *dgid,
		const struct route_info *route, const char *no_route)
{
	union ibv_gid gid = fixture_gid(dgid);

	memset(&c, 0xa5, sizeof(c));	/* nothing left over counts */
	return sgid_choose(f, &gid, route, no_route, &c);
}

#define V1 GID_KIND_ROCE_V1
#define V2 GID_KIND_ROCE_V2

/* mlx5 with a VLAN netdev eth1.100: the VLAN device inherits eth1's MAC,
 * so both have the same link-local address and GID fe80::1. */
static const struct gid_row mlx5_vlan[] = {
	{ 0, "fe80::1", V1, "eth1" },
	{ 1, "fe80::1", V2, "eth1" },
	{ 2, "10.0.0.1", V1, "eth1" },
	{ 3, "10.0.0.1", V2, "eth1" },
	{ 4, "fe80::1", V1, "eth1.100" },
	{ 5, "fe80::1", V2, "eth1.100" },
	{ 6, "10.100.0.1", V1, "eth1.100" },
	{ 7, "10.100.0.1", V2, "eth1.100" },
	{ 8, "2001:db8:1::1", V1, "eth1" },
	{ 9, "2001:db8:1::1", V2, "eth1" },
	{ 10, "2001:db8:100::1", V1, "eth1.100" },
	{ 11, "2001:db8:100::1", V2, "eth1.100" },
};

/* rxe: v2 only, two IPv4 addresses on one netdev. */
static const struct gid_row rxe_two_ips[] = {
	{ 0, "fe80::1", V2, "eth1" },
	{ 1, "10.0.0.1", V2, "eth1" },
	{ 2, "10.0.0.2", V2, "eth1" },
	{ 3, "2001:db8:1::1", V2, "eth1" },
};

static void test_vlan(void)
{
	struct ah_port_facts f;
	struct route_info r;

	load(&f, mlx5_vlan, sizeof(mlx5_vlan) / sizeof(mlx5_vlan[0]));

	r = route_via("eth1.100", "10.100.0.1");
	is_int(pick(&f, "10.100.0.9", &r, NULL), 0, "VLAN: on-link IPv4");
	is_int(c.index, 7, "the VLAN netdev's v2 GID, not eth1's (3) nor v1 (6)");
	is_str(sgid_rule_name(c.rule), "route", "rule: route");
	is_str(c.netdev, "eth1.100", "netdev of the GID");
	is_str(c.reason, "the route to 10.100.0.9 leaves via eth1.100 with "
			 "source 10.100.0.1", "reason");
	ok(c.route_known, "the route is part of the choice");
	is_str(c.route_oif, "eth1.100", "route_oif");
	is_str(c.route_source, "10.100.0.1", "route_source");

	r = route_via("eth1.100", "10.100.0.1");
	is_int(pick(&f, "192.0.2.7", &r, NULL), 0, "VLAN: routed via its gateway");
	is_int(c.index, 7, "still the VLAN GID: the first IPv4 GID (3) is wrong");

	r = route_via("eth1", "10.0.0.1");
	is_int(pick(&f, "10.0.0.9", &r, NULL), 0, "untagged destination");
	is_int(c.index, 3, "eth1's v2 GID, not its v1 twin (2)");

	/* Same link-local GID on both netdevs: only the netdev tells. */
	r = route_via("eth1.100", "fe80::1");
	is_int(pick(&f, "fe80::9", &r, NULL), 0, "link-local via the VLAN");
	is_int(c.index, 5, "the VLAN's link-local v2 GID, not eth1's (1)");
	r = route_via("eth1", "fe80::1");
	is_int(pick(&f, "fe80::9", &r, NULL), 0, "link-local via eth1");
	is_int(c.index, 1, "eth1's link-local v2 GID");

	r = route_via("eth1.100", "2001:db8:100::1");
	is_int(pick(&f, "2001:db8:7::9", &r, NULL), 0, "IPv6 global via VLAN");
	is_int(c.index, 11, "the VLAN's global v2 GID, not link-local (5)");
	is_str(c.reason, "the route to 2001:db8:7::9 leaves via eth1.100 with "
			 "source 2001:db8:100::1", "reason");
}

static void test_two_ips(void)
{
	struct ah_port_facts f;
	struct route_info r;

	load(&f, rxe_two_ips, sizeof(rxe_two_ips) / sizeof(rxe_two_ips[0]));

	r = route_via("eth1", "10.0.0.2");
	is_int(pick(&f, "10.0.0.9", &r, NULL), 0, "two IPs, source the second");
	is_int(c.index, 2, "the GID with the route's source, not the first IP");
	is_str(sgid_rule_name(c.rule), "route", "rule: route");

	/* No source in the answer: same netdev, first of the family. */
	r = route_via("eth1", "");
	is_int(pick(&f, "10.0.0.9", &r, NULL), 0, "route without a source");
	is_int(c.index, 1, "the first IPv4 GID of eth1");
	is_str(sgid_rule_name(c.rule), "route_netdev", "rule: route_netdev");
	is_str(c.reason, "the route to 10.0.0.9 leaves via eth1 (no source "
			 "address): an IPv4 address of eth1", "reason");
	is_str(c.route_source, "", "no route_source");

	/* A source with no GID (the address came after the table was read). */
	r = route_via("eth1", "10.0.0.3");
	is_int(pick(&f, "10.0.0.9", &r, NULL), 0, "source without a GID");
	is_int(c.index, 1, "another IPv4 address of eth1");
	is_str(c.reason, "the route to 10.0.0.9 leaves via eth1 with source "
			 "10.0.0.3, which has no GID there: another IPv4 "
			 "address of eth1", "reason");

	/* A route through a netdev with no GID on this port. */
	r = route_via("eth0", "192.168.1.5");
	is_int(pick(&f, "192.168.1.9", &r, NULL), 0, "route via eth0");
	is_int(c.index, 1, "the first IPv4 GID: nothing better");
	is_str(sgid_rule_name(c.rule), "family", "rule: family");
	is_str(c.reason, "the route was not usable (the route to 192.168.1.9 "
			 "leaves via eth0, which has no IPv4 GID on port 1): "
			 "the first RoCE v2 IPv4 GID", "reason names eth0");
	is_str(c.route_oif, "eth0", "route_oif is what the kernel said");

	/* No answer at all. */
	is_int(pick(&f, "10.9.9.9", NULL, "no route: Network is unreachable"),
	       0, "no route");
	is_int(c.index, 1, "the first IPv4 GID");
	is_str(c.reason, "the route was not usable (no route: Network is "
			 "unreachable): the first RoCE v2 IPv4 GID", "reason");
	ok(!c.route_known, "route_known false");
	is_str(c.route_oif, "", "no route_oif");

	/* A local destination: the route goes through lo, and the kernel
	 * takes the netdev that owns the address. */
	r = route_via("lo", "10.0.0.2");
	r.local = true;
	is_int(pick(&f, "10.0.0.2", &r, NULL), 0, "local destination");
	is_int(c.index, 2, "its own GID");
	is_str(sgid_rule_name(c.rule), "local", "rule: local");
	is_str(c.reason, "10.0.0.2 is a local address of eth1", "reason");
	r = route_via("lo", "10.5.0.1");
	r.local = true;
	is_int(pick(&f, "10.5.0.1", &r, NULL), 0, "local, another device's");
	is_int(c.index, 1, "first IPv4 GID");
	is_str(c.reason, "the route was not usable (10.5.0.1 is local to this "
			 "host but no IPv4 GID of port 1 has that address): the "
			 "first RoCE v2 IPv4 GID", "reason");

	/* IPv6 global on a v2-only table. */
	r = route_via("eth1", "2001:db8:1::1");
	is_int(pick(&f, "2001:db8:7::9", &r, NULL), 0, "IPv6 global");
	is_int(c.index, 3, "the global GID");
	/* IPv6 link-local: the global GID on the route's netdev never fits. */
	r = route_via("eth1", "fe80::1");
	is_int(pick(&f, "fe80::9", &r, NULL), 0, "IPv6 link-local");
	is_int(c.index, 0, "the link-local GID");
	is_str(c.reason, "the route to fe80::9 leaves via eth1 with source "
			 "fe80::1", "reason");
}

static void test_v1_only(void)
{
	static const struct gid_row v1_only[] = {
		{ 0, "fe80::1", V1, "eth1" },
		{ 1, "10.0.0.1", V1, "eth1" },
		{ 2, "fe80::1", V1, "eth2" },
		{ 3, "10.0.2.1", V1, "eth2" },
		{ 4, "10.0.2.1", V2, "eth9" },	/* used in the second half */
	};
	struct ah_port_facts f;
	struct route_info r;

	load(&f, v1_only, 4);
	r = route_via("eth2", "10.0.2.1");
	is_int(pick(&f, "10.0.2.9", &r, NULL), 0, "RoCE v1 only");
	is_int(c.index, 3, "the v1 GID on the route's netdev");
	is_int(c.kind, V1, "a v1 GID");
	is_str(c.reason, "the route to 10.0.2.9 leaves via eth2 with source "
			 "10.0.2.1; RoCE v1, as the port has no RoCE v2 GID of "
			 "the family", "reason says v1");

	/* ...and a v2 GID anywhere beats a v1 GID on the route's netdev. */
	load(&f, v1_only, 5);
	r = route_via("eth2", "10.0.2.1");
	is_int(pick(&f, "10.0.2.9", &r, NULL), 0, "v2 elsewhere");
	is_int(c.index, 4, "RoCE v1 only if no v2");
	is_str(sgid_rule_name(c.rule), "family", "route not followed");
}

static void test_refusals_and_ib(void)
{
	struct ah_port_facts f;
	struct route_info r = route_via("eth1", "10.0.0.1");
	char text[512];

	roce_facts(&f);
	f.gid_count = 2;	/* only the link-local ones */
	is_int(pick(&f, "10.0.0.9", &r, NULL), -1, "no IPv4 GID");
	ok(!c.chosen, "nothing chosen");
	is_str(sgid_rule_name(c.rule), "none", "rule: none");
	is_str(c.reason, "no RoCE GID of the destination's family (IPv4) on port "
			 "1; 'ibahprobe ports' lists the GID table", "reason");
	is_str(sgid_choice_describe(&c, text, sizeof(text)), c.reason,
	       "described as the reason alone");
	is_int(pick(&f, "2001:db8:7::9", NULL, "x"), -1,
	       "only link-local for a routed IPv6 destination");
	is_str(c.reason, "no RoCE GID of the destination's family (IPv6, not "
			 "link-local) on port 1; 'ibahprobe ports' lists the GID "
			 "table", "reason names link-local");

	roce_facts(&f);
	is_int(pick(&f, "10.0.0.9", &r, NULL), 0, "fixture port");
	is_str(sgid_choice_describe(&c, text, sizeof(text)),
	       "sgid_index 3 (::ffff:10.0.0.1, eth1, because the route to "
	       "10.0.0.9 leaves via eth1 with source 10.0.0.1)",
	       "-v: index, GID, netdev and why");

	/* IB: no route; the subnet prefix decides, as before. */
	ib_facts(&f);
	is_int(pick(&f, "fec0:0:0:1::10:3", NULL, NULL), 0, "IB, site prefix");
	is_int(c.index, 1, "the GID with the destination's prefix");
	is_str(sgid_rule_name(c.rule), "ib_prefix", "rule: ib_prefix");
	is_int(pick(&f, "fe80::10:3", NULL, NULL), 0, "IB, default prefix");
	is_int(c.index, 0, "GID 0");
	is_int(pick(&f, "fec0:0:0:9::1", NULL, NULL), 0, "IB, foreign prefix");
	is_int(c.index, 0, "the port GID");
	is_str(c.reason, "IB: GID 0, the port GID", "reason");
	is_str(sgid_choice_describe(&c, text, sizeof(text)),
	       "sgid_index 0 (fe80::10:1, because IB: GID 0, the port GID)",
	       "-v on IB: no netdev");
	ok(!c.route_known, "no route on IB");

	ah_port_facts_assumed(LINK_LAYER_ETHERNET, false, 1, &f);
	is_int(pick(&f, "10.0.0.9", NULL, NULL), 0, "no device: index 0");
	is_int(c.index, 0, "index 0");
	ok(!c.has_gid, "no GID known");
	is_str(c.reason, "GID table unknown (no device): index 0", "and says so");
	is_str(sgid_choice_describe(&c, text, sizeof(text)),
	       "sgid_index 0 (because GID table unknown (no device): index 0)",
	       "-v without a table");
}

/* -g N checked against the port's GID table before anything is sent. */
static void test_given_index(void)
{
	struct ah_port_facts f;
	char err[256] = "";

	roce_facts(&f);
	ok(sgid_index_check(&f, "rxe0", 3, err, sizeof(err)) == 0,
	   "a GID in the table: fine");
	ok(sgid_index_check(&f, "rxe0", 4, err, sizeof(err)) == -1,
	   "an empty entry is refused");
	is_str(err, "sgid_index 4 is empty on rxe0 port 1; 'ibahprobe ports' "
	       "lists the valid ones", "named with the device and port");
	ok(sgid_index_check(&f, "rxe0", 16, err, sizeof(err)) == -1,
	   "past the table is refused");
	is_str(err, "sgid_index 16 is beyond the GID table of rxe0 port 1 (16 "
	       "entries); 'ibahprobe ports' lists the valid ones",
	       "with the table's size");
	ib_facts(&f);
	ok(sgid_index_check(&f, "mlx5_0", 0, err, sizeof(err)) == 0,
	   "IB: the port GID");
	ok(sgid_index_check(&f, "mlx5_0", 9, err, sizeof(err)) == -1,
	   "IB: index 9 of a table of two GIDs is empty (%s)", err);
	f.gid_table_known = false;
	ok(sgid_index_check(&f, "mlx5_0", 9, err, sizeof(err)) == 0,
	   "no table known (a dry run without a device): not refused here");
}

int main(void)
{
	test_given_index();
	test_vlan();
	test_two_ips();
	test_v1_only();
	test_refusals_and_ib();
	return tap_done();
}

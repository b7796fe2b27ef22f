/* Unit tests of the AH rules: the three builds (fields, GID, path record
 * with the kernel's GRH rule), every rule firing on the attribute that
 * breaks it and only then, and errno explanations. */
#include <errno.h>

#include "port_fixture.h"
#include "tap.h"

/* The rules attr breaks, as "name:severity" words, in rule order. */
static const char *broken_rules(const struct ibv_ah_attr *attr,
				const struct ah_port_facts *f)
{
	static char line[512];
	struct ah_check check;
	size_t used = 0;

	ah_check(attr, f, &check);
	line[0] = '\0';
	for (size_t i = 0; i < check.count; i++)
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%s%s:%s", i ? " " : "",
					 ah_rule_name(check.items[i].rule),
					 ah_severity_name(check.items[i].severity));
	return line;
}

static void test_builds(void)
{
	struct ah_port_facts roce, ib;
	struct ah_fields fields = { 0 };
	struct ibv_ah_attr attr;
	union ibv_gid dgid = fixture_gid("10.0.0.2");
	struct ah_path path = { 0 };

	roce_facts(&roce);
	ib_facts(&ib);

	ah_build_from_fields(&fields, &ib, &attr);
	ok(!attr.is_global && attr.port_num == 1 && attr.dlid == 0 &&
	   attr.static_rate == 0, "fields: nothing given, no GRH, port 1");
	fields.has_dgid = true;
	fields.dgid = dgid;
	ah_build_from_fields(&fields, &ib, &attr);
	ok(attr.is_global && attr.grh.hop_limit == AH_DEFAULT_HOP_LIMIT,
	   "fields: a DGID makes a GRH with hop limit %d", AH_DEFAULT_HOP_LIMIT);

	memset(&fields, 0, sizeof(fields));
	fields.has_traffic_class = true;
	fields.traffic_class = 0x28;
	fields.has_sgid_index = true;
	fields.sgid_index = 3;
	ah_build_from_gid(&dgid, &fields, &roce, &attr);
	ok(attr.is_global && memcmp(attr.grh.dgid.raw, dgid.raw, 16) == 0 &&
	   attr.grh.hop_limit == 64 && attr.grh.traffic_class == 0x28 &&
	   attr.grh.sgid_index == 3 && attr.dlid == 0,
	   "gid: GRH always, overrides applied");
	is_str(broken_rules(&attr, &roce), "", "and valid on the RoCE port");

	/* The kernel's rule for path records. */
	path.dlid = 4;
	path.slid = 0x0006;	/* LID 4 + path bits 2 with LMC 2 */
	path.sl = 3;
	path.rate = IBV_RATE_56_GBPS;
	path.dgid = fixture_gid("fe80::10:3");
	ah_build_from_path(&path, &(struct ah_fields){ 0 }, &ib, &attr);
	ok(!attr.is_global, "path, hop limit 0 on IB: no GRH");
	ok(attr.dlid == 4 && attr.sl == 3 && attr.static_rate == IBV_RATE_56_GBPS,
	   "dlid, sl and rate from the path");
	is_int(attr.src_path_bits, 2, "src_path_bits from the SLID's low LMC bits");
	is_str(broken_rules(&attr, &ib), "", "valid");

	path.hop_limit = 255;
	path.flow_label = 0x12345;
	ah_build_from_path(&path, &(struct ah_fields){ 0 }, &ib, &attr);
	ok(attr.is_global && attr.grh.hop_limit == 255 &&
	   attr.grh.flow_label == 0x12345, "path, hop limit 255: GRH as given");

	path.hop_limit = 0;
	ib.grh_required = true;
	ah_build_from_path(&path, &(struct ah_fields){ 0 }, &ib, &attr);
	ok(attr.is_global && attr.grh.hop_limit == 0,
	   "path on a port that requires a GRH: GRH, hop limit kept at 0");
	ib.grh_required = false;

	ah_build_from_path(&path, &(struct ah_fields){ 0 }, &roce, &attr);
	ok(attr.is_global && attr.dlid == 0 && attr.grh.hop_limit == 64,
	   "path on RoCE: GRH, no DLID, hop limit 64");

	fields = (struct ah_fields){ .has_sl = true, .sl = 9, .has_dlid = true,
				     .dlid = 7 };
	ah_build_from_path(&path, &fields, &ib, &attr);
	ok(attr.sl == 9 && attr.dlid == 7, "fields override the path");
}

/* The kernel's init_ah_attr_grh_fields: the path's SGID, found in the
 * port's GID table, is the source; a path from a GID the port does not
 * have is refused. */
static void test_path_sgid_index(void)
{
	struct ah_port_facts ib, dry;
	struct ibv_ah_attr attr;
	struct ah_path path = {
		.dlid = 9, .slid = 1, .hop_limit = 255,
		.dgid = fixture_gid("fec0:0:0:2::1"),
		.sgid = fixture_gid("fec0:0:0:1::10:1"),
	};

	ib_facts(&ib);
	is_int(ah_build_from_path(&path, &(struct ah_fields){ 0 }, &ib, &attr),
	       0, "path from GID 1 of the port: built");
	ok(attr.is_global && attr.grh.sgid_index == 1,
	   "sgid_index 1: the index of the path's SGID, not 0");
	path.sgid = fixture_gid("fe80::10:1");
	ah_build_from_path(&path, &(struct ah_fields){ 0 }, &ib, &attr);
	is_int(attr.grh.sgid_index, 0, "SGID fe80::10:1 is index 0");
	path.sgid = fixture_gid("fe80::99");
	is_int(ah_build_from_path(&path, &(struct ah_fields){ 0 }, &ib, &attr),
	       -1, "an SGID the port lacks: refused");
	is_int(ah_facts_find_gid(&ib, &path.sgid), -1, "and not found");
	ib_gids[1].kind = GID_KIND_ROCE_V2;
	is_int(ah_facts_find_gid(&ib, &ib_gids[1].gid), -1,
	       "on IB only an IB GID counts");
	ib_facts(&ib);
	ah_port_facts_assumed(LINK_LAYER_IB, false, 1, &dry);
	is_int(ah_build_from_path(&path, &(struct ah_fields){ 0 }, &dry, &attr),
	       0, "an assumed port has no table to refuse from");
}

static void test_ipv4_mapped_on_ib(void)
{
	struct ah_port_facts ib, roce;
	struct ibv_ah_attr a;

	ib_facts(&ib);
	roce_facts(&roce);
	memset(&a, 0, sizeof(a));
	a.dlid = 4;
	a.port_num = 1;
	a.is_global = 1;
	a.grh.hop_limit = 64;
	a.grh.dgid = fixture_gid("10.0.0.2");
	is_str(broken_rules(&a, &ib), "dgid_not_ipv4_mapped_on_ib:error",
	       "an IPv4-mapped DGID on an IB port");
	a.grh.dgid = fixture_gid("fe80::10:3");
	is_str(broken_rules(&a, &ib), "", "the port GID instead: valid");
	a.dlid = 0;
	a.grh.dgid = fixture_gid("10.0.0.2");
	a.grh.sgid_index = 3;
	is_str(broken_rules(&a, &roce), "", "IPv4-mapped on RoCE: fine");
}

/* Starts from a valid IB or RoCE AH and breaks one thing at a time. */
static void test_rules(void)
{
	struct ah_port_facts roce, ib, dry;
	struct ibv_ah_attr good_ib, good_roce, a;

	roce_facts(&roce);
	ib_facts(&ib);
	memset(&good_ib, 0, sizeof(good_ib));
	good_ib.dlid = 4;
	good_ib.port_num = 1;
	memset(&good_roce, 0, sizeof(good_roce));
	good_roce.is_global = 1;
	good_roce.port_num = 1;
	good_roce.grh.dgid = fixture_gid("10.0.0.2");
	good_roce.grh.sgid_index = 3;
	good_roce.grh.hop_limit = 64;
	is_str(broken_rules(&good_ib, &ib), "", "a valid IB AH");
	is_str(broken_rules(&good_roce, &roce), "", "a valid RoCE AH");

	a = good_roce;
	a.is_global = 0;
	is_str(broken_rules(&a, &roce),
	       "roce_needs_grh:error port_requires_grh:error",
	       "RoCE without a GRH");
	a = good_ib;
	ib.grh_required = true;
	is_str(broken_rules(&a, &ib), "port_requires_grh:error",
	       "IB port with GRH_REQUIRED, no GRH");
	ib.grh_required = false;
	a = good_ib;
	a.is_global = 1;
	is_str(broken_rules(&a, &ib), "dgid_set:error", "GRH with dgid ::");
	a = good_ib;
	a.dlid = 0;
	is_str(broken_rules(&a, &ib), "dlid_valid:error", "IB dlid 0");
	a.dlid = 0xffff;
	is_str(broken_rules(&a, &ib), "dlid_valid:error", "IB permissive dlid");
	a.dlid = 0xc001;
	is_str(broken_rules(&a, &ib), "multicast_needs_grh:error",
	       "multicast dlid without a GRH");
	a.is_global = 1;
	a.grh.dgid = fixture_gid("ff12:401b::1");
	is_str(broken_rules(&a, &ib), "", "multicast dlid with an MGID");
	a.dlid = 4;
	is_str(broken_rules(&a, &ib), "multicast_needs_grh:error",
	       "MGID with a unicast dlid");
	a = good_roce;
	a.grh.flow_label = 0x100000;
	is_str(broken_rules(&a, &roce), "flow_label_20_bits:error",
	       "flow label over 20 bits");
	a = good_ib;
	a.sl = 16;
	is_str(broken_rules(&a, &ib), "sl_range:error", "sl 16");
	a = good_roce;
	a.sl = 9;
	is_str(broken_rules(&a, &roce), "sl_fits_roce_pcp:warning",
	       "sl 9 on RoCE only warns");
	a = good_ib;
	a.static_rate = 1;
	is_str(broken_rules(&a, &ib), "static_rate_valid:error", "rate 1");
	a.static_rate = IBV_RATE_1200_GBPS + 1;
	is_str(broken_rules(&a, &ib), "static_rate_valid:error", "rate 25");
	a.static_rate = IBV_RATE_1200_GBPS;
	is_str(broken_rules(&a, &ib), "", "rate 24 is valid");
	a = good_ib;
	a.port_num = 2;
	is_str(broken_rules(&a, &ib), "port_num_valid:error",
	       "not the port in use");
	a = good_roce;
	a.grh.sgid_index = 16;
	is_str(broken_rules(&a, &roce), "sgid_index_in_table:error",
	       "beyond the GID table");
	a.grh.sgid_index = 4;
	is_str(broken_rules(&a, &roce), "sgid_index_populated:error",
	       "an empty slot");
	a.grh.sgid_index = 5;
	is_str(broken_rules(&a, &roce), "sgid_dgid_same_family:error",
	       "IPv6 source, IPv4 destination");
	a = good_ib;
	a.is_global = 1;
	a.grh.dgid = fixture_gid("fe80::10:3");
	a.grh.sgid_index = 0;
	is_str(broken_rules(&a, &ib), "", "IB GRH from GID 0");
	roce_gids[3].kind = GID_KIND_IB;
	is_str(broken_rules(&good_roce, &roce),
	       "sgid_type_matches_link:error", "an IB GID on a RoCE port");
	roce_facts(&roce);
	a = good_roce;
	a.grh.dgid = fixture_gid("2001:db8:9::2");
	a.grh.sgid_index = 5;
	a.grh.hop_limit = 1;
	is_str(broken_rules(&a, &roce), "hop_limit_crosses_routers:warning",
	       "hop limit 1 towards another subnet");
	a.grh.dgid = fixture_gid("2001:db8:1::2");
	is_str(broken_rules(&a, &roce), "", "hop limit 1 on the own subnet");
	/* IPv4-mapped GIDs carry no prefix length: an on-link IPv4
	 * destination is no routed one (it was warned about before). */
	a.grh.dgid = fixture_gid("10.0.0.2");
	a.grh.sgid_index = 3;
	is_str(broken_rules(&a, &roce), "", "hop limit 1 to an IPv4 "
	       "destination: not visibly routed, no warning");
	a = good_ib;
	a.src_path_bits = 4;
	is_str(broken_rules(&a, &ib), "src_path_bits_within_lmc:warning",
	       "path bits wider than the LMC");

	/* A dry run knows no GID table: those rules are not applied. */
	ah_port_facts_assumed(LINK_LAYER_ETHERNET, false, 1, &dry);
	a = good_roce;
	a.grh.sgid_index = 200;
	is_str(broken_rules(&a, &dry), "", "dry run: sgid rules unknown");
	{
		struct ah_check check;

		ah_check(&a, &dry, &check);
		ok(!check.checked[AH_RULE_SGID_INDEX_RANGE] &&
		   check.checked[AH_RULE_ROCE_NEEDS_GRH],
		   "and marked as not checked");
	}
	{
		struct ah_check check;

		a = good_roce;
		a.is_global = 0;
		is_int(ah_check(&a, &roce, &check), 2, "the count of errors");
		is_str(check.items[0].message,
		       "RoCE (link layer Ethernet) needs a GRH: is_global is 0; "
		       "give --dgid or a GID/IP destination",
		       "the message in words");
	}
}

static void test_errno(void)
{
	struct ah_port_facts roce;
	struct ibv_ah_attr a = { .is_global = 1, .port_num = 1 };
	char buf[512];

	roce_facts(&roce);
	a.grh.sgid_index = 3;
	ah_explain_errno(ETIMEDOUT, &a, &roce, buf, sizeof(buf));
	is_str(buf, "resolving the next hop's MAC address timed out "
		    "(ARP/neighbour discovery on eth1): the destination or its "
		    "router does not answer", "ETIMEDOUT: neighbour");
	ah_explain_errno(ENETUNREACH, &a, &roce, buf, sizeof(buf));
	ok(strncmp(buf, "no route to the destination from eth1", 37) == 0,
	   "ENETUNREACH: no route: %s", buf);
	ah_explain_errno(EINVAL, &a, &roce, buf, sizeof(buf));
	ok(strstr(buf, "EINVAL") != NULL, "EINVAL: %s", buf);
	/* A provider that returns NULL without errno: not taken for EINVAL. */
	ah_explain_errno(0, &a, &roce, buf, sizeof(buf));
	ok(strstr(buf, "gave no reason") != NULL && !strstr(buf, "EINVAL"),
	   "errno 0: the driver gave no reason: %s", buf);
	ah_explain_errno(EPERM, &a, &roce, buf, sizeof(buf));
	ok(strstr(buf, "root") != NULL, "EPERM: %s", buf);
	ah_explain_errno(ENODATA, &a, &roce, buf, sizeof(buf));
	ok(strncmp(buf, "sgid_index 3 has no usable GID", 30) == 0, "ENODATA: %s", buf);
	ah_explain_errno(EIO, &a, &roce, buf, sizeof(buf));
	ok(strstr(buf, "Input/output error") != NULL, "others: strerror: %s", buf);
}

int main(void)
{
	test_builds();
	test_path_sgid_index();
	test_ipv4_mapped_on_ib();
	test_rules();
	test_errno();
	return tap_done();
}

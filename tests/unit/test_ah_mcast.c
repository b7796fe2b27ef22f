/* Unit tests of the multicast AH built from a group's MCMemberRecord
 * (kernel ib_init_ah_from_mcmember): dlid = MLID, is_global 1, dgid =
 * MGID, the record's SL, rate, hop limit, traffic class and flow label,
 * the port's own SGID; and ah_check's rules pass for it. */
#include <string.h>

#include "verbs/ah_mcast.h"
#include "port_fixture.h"
#include "tap.h"

static void group_record(struct mcmember_record *g)
{
	memset(g, 0, sizeof(*g));
	g->mgid = fixture_gid("ff12:401b:8001::ffff:ffff");
	g->mlid = 0xc001;
	g->sl = 3;
	g->rate = 7;
	g->mtu = 4;
	g->hop_limit = 0;
	g->traffic_class = 0x20;
	g->flow_label = 0x12345;
	g->qkey = 0x0b1b;
	g->pkey = 0x8001;
}

static void test_from_record(void)
{
	struct ah_port_facts facts;
	struct ah_fields none = { 0 };
	struct mcmember_record g;
	struct ibv_ah_attr attr;
	struct ah_check check;
	union ibv_gid sgid = fixture_gid("fec0:0:0:1::10:1");

	ib_facts(&facts);
	group_record(&g);
	ok(ah_build_from_mcmember(&g, &sgid, &none, &facts, &attr) == 0,
	   "built");
	is_int(attr.dlid, 0xc001, "dlid is the MLID");
	is_int(attr.is_global, 1, "is_global although hop limit is 0");
	ok(memcmp(attr.grh.dgid.raw, g.mgid.raw, 16) == 0, "dgid is the MGID");
	is_int(attr.grh.sgid_index, 1, "sgid_index of the port's GID");
	is_int(attr.sl, 3, "SL of the record");
	is_int(attr.static_rate, 7, "rate of the record");
	is_int(attr.grh.hop_limit, 0, "hop limit of the record");
	is_int(attr.grh.traffic_class, 0x20, "traffic class of the record");
	is_int(attr.grh.flow_label, 0x12345, "flow label of the record");
	is_int(attr.src_path_bits, 0, "no path bits, as the kernel's");
	is_int(ah_check(&attr, &facts, &check), 0, "no rule broken");
	ok(check.checked[AH_RULE_MULTICAST_NEEDS_GRH],
	   "multicast_needs_grh applied");
}

static void test_rule_still_bites(void)
{
	struct ah_port_facts facts;
	struct ah_fields none = { 0 };
	struct mcmember_record g;
	struct ibv_ah_attr attr;
	struct ah_check check;
	union ibv_gid sgid = fixture_gid("fe80::10:1");

	ib_facts(&facts);
	group_record(&g);
	g.mlid = 0x0005;	/* an SA that answered a unicast LID */
	ah_build_from_mcmember(&g, &sgid, &none, &facts, &attr);
	ok(ah_check(&attr, &facts, &check) > 0, "a unicast MLID is refused");
	ok(ah_build_from_mcmember(&g, &(union ibv_gid){ .raw = { 0xfe, 0x80 } },
				  &none, &facts, &attr) != 0,
	   "an SGID the port lacks is refused");
}

int main(void)
{
	test_from_record();
	test_rule_still_bites();
	return tap_done();
}

/* Unit tests of the MCMemberRecord codec (IBA 15.2.5.17): a record laid
 * out byte by byte from the IBA's table, decoded field by field and
 * encoded back; component masks and SM_Key of the request MADs; the
 * JoinState words; and IPoIB's MGIDs (base/mgid.h). */
#include <arpa/inet.h>
#include <string.h>

#include "base/gid.h"
#include "base/mgid.h"
#include "wire/mcmember.h"
#include "tap.h"

/* The IPoIB broadcast group of the default partition as a member's
 * record: MGID ff12:401b:ffff::ffff:ffff, PortGID fe80::2:c903:0:1,
 * Q_Key 0x0b1b, MLID 0xc001, MTU exactly 2048 (selector 2, code 4),
 * TClass 0x28, P_Key 0xffff, rate exactly 10 Gb/s (2, code 3),
 * packet life exactly code 18, SL 5, FlowLabel 0x12345, HopLimit 64,
 * Scope 2 (link-local), JoinState FullMember, ProxyJoin set. */
static const uint8_t golden[MCMEMBER_RECORD_BYTES] = {
	/* 0 MGID */
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	/* 16 PortGID */
	0xfe, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x02, 0xc9, 0x03, 0x00, 0x00, 0x00, 0x01,
	/* 32 Q_Key */
	0x00, 0x00, 0x0b, 0x1b,
	/* 36 MLID, 38 MTUSelector:2 MTU:6, 39 TClass */
	0xc0, 0x01, 0x84, 0x28,
	/* 40 P_Key, 42 RateSelector:2 Rate:6, 43 PacketLifeTime */
	0xff, 0xff, 0x83, 0x92,
	/* 44 SL:4 FlowLabel:20 HopLimit:8 */
	0x51, 0x23, 0x45, 0x40,
	/* 48 Scope:4 JoinState:4, 49 ProxyJoin:1 Reserved:7, 50 Reserved */
	0x21, 0x80, 0x00, 0x00,
};

static void test_decode(void)
{
	struct mcmember_record r;
	char text[GID_TEXT_MAX];

	mcmember_decode(golden, &r);
	is_str(gid_format(&r.mgid, text, sizeof(text)),
	       "ff12:401b:ffff::ffff:ffff", "MGID at 0");
	is_str(gid_format(&r.port_gid, text, sizeof(text)),
	       "fe80::2:c903:0:1", "PortGID at 16");
	is_int(r.qkey, 0x0b1b, "Q_Key at 32");
	is_int(r.mlid, 0xc001, "MLID at 36");
	is_int(r.mtu_selector, 2, "MTUSelector: bits 7..6 of 38");
	is_int(r.mtu, 4, "MTU: bits 5..0 of 38");
	is_int(r.traffic_class, 0x28, "TClass at 39");
	is_int(r.pkey, 0xffff, "P_Key at 40");
	is_int(r.rate_selector, 2, "RateSelector: bits 7..6 of 42");
	is_int(r.rate, 3, "Rate: bits 5..0 of 42");
	is_int(r.packet_life_selector, 2, "PacketLifeTimeSelector at 43");
	is_int(r.packet_life, 18, "PacketLifeTime: bits 5..0 of 43");
	is_int(r.sl, 5, "SL: the top 4 bits of 44");
	is_int(r.flow_label, 0x12345, "FlowLabel: the next 20 bits");
	is_int(r.hop_limit, 64, "HopLimit: byte 47");
	is_int(r.scope, 2, "Scope: the top nibble of 48");
	is_int(r.join_state, MC_JOIN_FULL_MEMBER, "JoinState: the low nibble");
	ok(r.proxy_join, "ProxyJoin: the top bit of 49");
}

static void test_encode_round_trip(void)
{
	struct mcmember_record r;
	uint8_t again[MCMEMBER_RECORD_BYTES];

	mcmember_decode(golden, &r);
	mcmember_encode(&r, again);
	is_mem(again, golden, sizeof(golden), "encode gives the IBA's bytes");
	/* Fields wider than their bits are cut, not spilled into the
	 * neighbours. */
	r.sl = 0x15;
	r.flow_label = 0xfffffff;
	r.hop_limit = 0;
	r.scope = 0x1e;
	r.join_state = 0x14;
	r.mtu = 0x44;
	mcmember_encode(&r, again);
	is_int(again[44], 0x5f, "SL cut to 4 bits, FlowLabel to 20");
	is_int(again[47], 0x00, "HopLimit alone in byte 47");
	is_int(again[48], 0xe4, "Scope and JoinState cut to a nibble each");
	is_int(again[38], 0x84, "MTU cut to 6 bits below its selector");
}

static void test_request(void)
{
	struct mcmember_record r;
	struct sa_header h;
	uint8_t mad[SA_MAD_BYTES];
	uint64_t mask = MCR_COMP_MGID | MCR_COMP_PORT_GID |
			MCR_COMP_JOIN_STATE;

	mcmember_decode(golden, &r);
	sa_encode_mcmember_request(mad, SA_METHOD_SET, 0x1234, &r, mask, 0);
	ok(sa_decode_header(mad, sizeof(mad), &h) == 0, "header decodes");
	is_int(h.method, SA_METHOD_SET, "SubnAdmSet");
	is_int(h.attr_id, 0x0038, "attribute 0x0038");
	is_int(h.mgmt_class, 0x03, "class SubnAdm");
	/* opensm's JOIN_MC_COMP_MASK: MGID, PortGID, JoinState. */
	is_int(mad[48 + 7], 0x03, "mask bits 0 and 1 in the last byte");
	is_int(mad[48 + 5], 0x01, "mask bit 16 (JoinState) in byte 5");
	is_int(mad[36], 0, "SM_Key 0: untrusted");
	is_mem(mad + 56, golden, sizeof(golden), "record at offset 56");
	sa_encode_mcmember_request(mad, SA_METHOD_GET_TABLE, 1, &r,
				   MCR_COMP_MGID, 0x0000000000000001ull);
	is_int(mad[43], 1, "SM_Key at 36..43, big-endian");
	is_int(mad[3], SA_METHOD_GET_TABLE, "SubnAdmGetTable");
	is_int(MCR_COMP_PROXY_JOIN, 1 << 17, "ProxyJoin is mask bit 17");
	is_int(MCR_COMP_SCOPE, 1 << 15, "Scope is mask bit 15");
}

static void test_join_state_words(void)
{
	char buf[96];

	is_str(mcmember_join_state_str(0, buf, sizeof(buf)), "none", "0");
	is_str(mcmember_join_state_str(MC_JOIN_FULL_MEMBER, buf, sizeof(buf)),
	       "FullMember", "bit 0");
	is_str(mcmember_join_state_str(MC_JOIN_FULL_MEMBER |
				       MC_JOIN_SEND_ONLY_NON_MEMBER,
				       buf, sizeof(buf)),
	       "FullMember+SendOnlyNonMember", "bits 0 and 2");
	is_str(mcmember_join_state_str(0xf, buf, 12), "FullMember+",
	       "cut to the buffer, NUL-terminated");
}

static void test_ipoib_mgids(void)
{
	union ibv_gid g;
	char text[GID_TEXT_MAX];
	uint16_t pkey = 0;

	ipoib_mgid(IPOIB_GROUP_IPV4_BROADCAST, 0xffff, MGID_SCOPE_LINK_LOCAL,
		   &g);
	is_str(gid_format(&g, text, sizeof(text)), "ff12:401b:ffff::ffff:ffff",
	       "IPv4 broadcast of the default partition");
	ipoib_mgid(IPOIB_GROUP_IPV4_BROADCAST, 0x0001, MGID_SCOPE_LINK_LOCAL,
		   &g);
	is_str(gid_format(&g, text, sizeof(text)), "ff12:401b:8001::ffff:ffff",
	       "a limited P_Key names the full member's group");
	ipoib_mgid(IPOIB_GROUP_IPV6_ALL_NODES, 0x8001, 5, &g);
	is_str(gid_format(&g, text, sizeof(text)), "ff15:601b:8001::1",
	       "IPv6 all-nodes, site-local scope");
	ok(mgid_is_ipoib(&g, &pkey) && pkey == 0x8001, "recognised, P_Key");
	is_int(mgid_scope(&g), 5, "scope nibble");
	ok(inet_pton(AF_INET6, "ff12:a01b:fe80::1:2", g.raw) == 1 &&
		   !mgid_is_ipoib(&g, NULL),
	   "an SA-assigned MGID (0xa01b) is not IPoIB's");
}

int main(void)
{
	test_decode();
	test_encode_round_trip();
	test_request();
	test_join_state_words();
	test_ipoib_mgids();
	return tap_done();
}

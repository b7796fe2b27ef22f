/* The reply AH of a probe that came through a group, from GRH bytes as
 * an HCA writes them (reverse_mcast_ah_build): InfiniBand, RoCE v2 over
 * IPv4 and IPv6, a unicast DGID left to ibv_init_ah_from_wc. */
#include <arpa/inet.h>
#include <string.h>

#include "tap.h"
#include "peer/reverse_ah.h"
#include "peer/reverse_mcast_ah.h"

static union ibv_gid gid_of(const char *text)
{
	union ibv_gid g;

	memset(&g, 0, sizeof(g));
	inet_pton(AF_INET6, text, g.raw);
	return g;
}

static struct gid_info entry(uint32_t index, const char *text,
			     enum gid_kind kind)
{
	struct gid_info g = { .index = index, .kind = kind };

	g.gid = gid_of(text);
	return g;
}

static void decode(const uint8_t *area, const struct gid_info *gids,
		   size_t count, struct grh_fields *grh)
{
	union ibv_gid local[8];
	struct grh_local_gids l = { local, count };
	char err[128];

	for (size_t i = 0; i < count; i++)
		local[i] = gids[i].gid;
	ok(grh_decode_local(area, true, &l, grh, err, sizeof(err)) == 0,
	   "the GRH decodes");
}

/* IB: version 6, tclass 0x12, flow 0x12345, hop limit 0x40, SGID
 * fe80::2:c903:0:1, DGID ff12:401b:ffff::ffff:ffff (the IPoIB group). */
static const uint8_t ib_grh[40] = {
	0x61, 0x21, 0x23, 0x45, 0x00, 0x28, 0x1b, 0x40,
	0xfe, 0x80, 0, 0, 0, 0, 0, 0, 0x00, 0x02, 0xc9, 0x03, 0, 0, 0, 0x01,
	0xff, 0x12, 0x40, 0x1b, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	0xff, 0xff,
};

static void test_ib(void)
{
	struct gid_info gids[] = {
		entry(0, "fe80::2:c903:0:9", GID_KIND_IB),
		entry(1, "fec0::2:c903:0:9", GID_KIND_IB),
	};
	struct ibv_wc wc = { .slid = 7, .sl = 3, .dlid_path_bits = 1 };
	const struct gid_info *chosen = NULL;
	struct ibv_ah_attr attr;
	struct grh_fields grh;
	union ibv_gid sender = gid_of("fe80::2:c903:0:1");

	decode(ib_grh, gids, 2, &grh);
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 2, LINK_LAYER_IB, 1,
				      &attr, &chosen),
	       REVERSE_MCAST_BUILT, "IB: a probe to a group gets a hand-made AH");
	is_int(attr.dlid, 7, "IB: dlid is wc.slid");
	is_int(attr.sl, 3, "IB: sl is wc.sl");
	is_int(attr.src_path_bits, 0, "IB: no path bits from the MLID");
	is_int(attr.is_global, 1, "IB: with a GRH");
	is_mem(attr.grh.dgid.raw, sender.raw, 16, "IB: dgid is the GRH's SGID");
	is_int(attr.grh.flow_label, 0x12345, "IB: flow label as received");
	is_int(attr.grh.traffic_class, 0x12, "IB: traffic class as received");
	is_int(attr.grh.sgid_index, 0, "IB: our GID of the sender's prefix");
	is_int(attr.port_num, 1, "IB: port_num");
	reverse_ah_finish(&attr, LINK_LAYER_IB, 0);
	is_int(attr.grh.hop_limit, REVERSE_HOP_LIMIT,
	       "IB: hop limit 255 after reverse_ah_finish, as for unicast");

	/* A sender of the other prefix: still index 0, the default GID. */
	memcpy(grh.sgid.raw, gid_of("fec0::2:c903:0:1").raw, 16);
	reverse_mcast_ah_build(&grh, &wc, gids, 2, LINK_LAYER_IB, 1, &attr,
			       &chosen);
	is_int(attr.grh.sgid_index, 1, "IB: the GID with the sender's prefix");
}

static void test_ib_unicast(void)
{
	struct gid_info gids[] = { entry(0, "fe80::2:c903:0:9", GID_KIND_IB) };
	struct ibv_wc wc = { .slid = 7 };
	const struct gid_info *chosen = NULL;
	struct ibv_ah_attr attr;
	struct grh_fields grh;
	uint8_t area[40];

	memcpy(area, ib_grh, 40);
	memcpy(area + 24, gids[0].gid.raw, 16);	/* our own GID */
	decode(area, gids, 1, &grh);
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 1, LINK_LAYER_IB, 1,
				      &attr, &chosen),
	       REVERSE_MCAST_UNICAST,
	       "IB: a DGID that is our GID is left to ibv_init_ah_from_wc");
	is_int(reverse_mcast_ah_build(NULL, &wc, gids, 1, LINK_LAYER_IB, 1,
				      &attr, &chosen),
	       REVERSE_MCAST_UNICAST, "no GRH: unicast");
}

/* RoCE v2 over IPv4: bytes 0..19 our sentinel (0xff, then zeros), the IPv4
 * header at 20: TOS 0x69 (DSCP 26, ECN 1), TTL 63, UDP, 10.0.0.1 ->
 * 239.1.2.3, checksum computed below. */
static void roce_v4_area(uint8_t *area, uint8_t last_dst_byte)
{
	uint8_t ip[20] = {
		0x45, 0x69, 0x00, 0x40, 0, 0, 0x40, 0x00, 63, 17, 0, 0,
		10, 0, 0, 1, 239, 1, 2, last_dst_byte,
	};
	uint32_t sum = 0;

	for (int i = 0; i < 20; i += 2)
		sum += (uint32_t)(ip[i] << 8 | ip[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	ip[10] = (uint8_t)(~sum >> 8);
	ip[11] = (uint8_t)~sum;
	memset(area, 0, 40);
	area[0] = GRH_SENTINEL;
	memcpy(area + 20, ip, 20);
}

static void test_roce_v4(void)
{
	struct gid_info gids[] = {
		entry(0, "fe80::5054:ff:fe12:3456", GID_KIND_ROCE_V1),
		entry(1, "fe80::5054:ff:fe12:3456", GID_KIND_ROCE_V2),
		entry(2, "::ffff:10.0.0.2", GID_KIND_ROCE_V1),
		entry(3, "::ffff:10.0.0.2", GID_KIND_ROCE_V2),
	};
	struct ibv_wc wc = { .slid = 0, .sl = 3 /* mlx5: IPv4 L3 type */ };
	union ibv_gid sender = gid_of("::ffff:10.0.0.1");
	const struct gid_info *chosen = NULL;
	struct ibv_ah_attr attr;
	struct grh_fields grh;
	uint8_t area[40];

	roce_v4_area(area, 3);
	decode(area, gids, 4, &grh);
	is_int(grh.form, GRH_FORM_IPV4, "RoCE v2/IPv4: the IPv4 form");
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 4, LINK_LAYER_ETHERNET,
				      1, &attr, &chosen),
	       REVERSE_MCAST_BUILT, "RoCE v2/IPv4: 239.1.2.3 is a group");
	is_int(attr.grh.sgid_index, 3,
	       "RoCE v2/IPv4: our IPv4-mapped RoCE v2 GID");
	ok(chosen == &gids[3], "RoCE v2/IPv4: chosen names the entry");
	is_mem(attr.grh.dgid.raw, sender.raw, 16,
	       "RoCE v2/IPv4: dgid is the sender's address");
	is_int(attr.grh.flow_label, 0,
	       "RoCE v2/IPv4: no flow label (bytes 0..3 are ours)");
	reverse_ah_finish(&attr, LINK_LAYER_ETHERNET, 5);
	is_int(attr.grh.traffic_class, 0x68,
	       "RoCE v2/IPv4: the DSCP only, as for unicast");
	is_int(attr.sl, 5, "RoCE: the asked SL, not wc.sl");
	is_int(attr.dlid, 0, "RoCE: no DLID");
	is_int(attr.grh.hop_limit, REVERSE_HOP_LIMIT, "RoCE: hop limit 255");

	/* To our own address: not a group. */
	roce_v4_area(area, 0);
	area[20 + 16] = 10, area[20 + 17] = 0, area[20 + 18] = 0;
	area[20 + 19] = 2;
	area[20 + 10] = area[20 + 11] = 0;
	{
		uint32_t sum = 0;

		for (int i = 0; i < 20; i += 2)
			sum += (uint32_t)(area[20 + i] << 8 | area[21 + i]);
		while (sum >> 16)
			sum = (sum & 0xffff) + (sum >> 16);
		area[30] = (uint8_t)(~sum >> 8);
		area[31] = (uint8_t)~sum;
	}
	decode(area, gids, 4, &grh);
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 4, LINK_LAYER_ETHERNET,
				      1, &attr, &chosen),
	       REVERSE_MCAST_UNICAST, "RoCE v2/IPv4: 10.0.0.2 is ours, no group");

	/* Without an IPv4 RoCE v2 GID there is nothing to answer from. */
	roce_v4_area(area, 3);
	decode(area, gids, 3, &grh);
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 3, LINK_LAYER_ETHERNET,
				      1, &attr, &chosen),
	       REVERSE_MCAST_NO_SGID,
	       "RoCE v2/IPv4: no IPv4 RoCE v2 GID of ours: said");
}

/* RoCE v2 over IPv6: version 6, tclass 0x88, flow 0xabcde, next header
 * UDP, hop limit 64, SGID 2001:db8::1 -> ff0e::1:2:3. */
static const uint8_t roce_v6_grh[40] = {
	0x68, 0x8a, 0xbc, 0xde, 0x00, 0x28, 17, 64,
	0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01,
	0xff, 0x0e, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01, 0, 0x02, 0, 0x03,
};

static void test_roce_v6(void)
{
	struct gid_info gids[] = {
		entry(0, "fe80::5054:ff:fe12:3456", GID_KIND_ROCE_V1),
		entry(1, "fe80::5054:ff:fe12:3456", GID_KIND_ROCE_V2),
		entry(2, "::ffff:10.0.0.2", GID_KIND_ROCE_V2),
		entry(3, "2001:db8::2", GID_KIND_ROCE_V1),
		entry(4, "2001:db8::2", GID_KIND_ROCE_V2),
	};
	struct ibv_wc wc = { .sl = 2 };
	union ibv_gid sender = gid_of("2001:db8::1");
	const struct gid_info *chosen = NULL;
	struct ibv_ah_attr attr;
	struct grh_fields grh;
	uint8_t area[40];

	decode(roce_v6_grh, gids, 5, &grh);
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 5, LINK_LAYER_ETHERNET,
				      1, &attr, &chosen),
	       REVERSE_MCAST_BUILT, "RoCE v2/IPv6: ff0e::1:2:3 is a group");
	is_int(attr.grh.sgid_index, 4,
	       "RoCE v2/IPv6: our RoCE v2 GID of the sender's prefix");
	is_mem(attr.grh.dgid.raw, sender.raw, 16,
	       "RoCE v2/IPv6: dgid is the sender's SGID");
	is_int(attr.grh.flow_label, 0xabcde,
	       "RoCE v2/IPv6: the flow label as received");

	/* A link-local sender: our link-local RoCE v2 GID. */
	memcpy(area, roce_v6_grh, 40);
	memcpy(area + 8, gid_of("fe80::1").raw, 16);
	decode(area, gids, 5, &grh);
	reverse_mcast_ah_build(&grh, &wc, gids, 5, LINK_LAYER_ETHERNET, 1,
			       &attr, &chosen);
	is_int(attr.grh.sgid_index, 1,
	       "RoCE v2/IPv6: link-local sender, our link-local v2 GID");

	/* RoCE v1: next header 0x1b, the v1 GID of the prefix. */
	area[6] = 0x1b;
	memcpy(area + 8, roce_v6_grh + 8, 16);
	decode(area, gids, 5, &grh);
	reverse_mcast_ah_build(&grh, &wc, gids, 5, LINK_LAYER_ETHERNET, 1,
			       &attr, &chosen);
	is_int(attr.grh.sgid_index, 3, "RoCE v1: our RoCE v1 GID");

	/* A DGID that is our own IPv6 GID: unicast. */
	memcpy(area, roce_v6_grh, 40);
	memcpy(area + 24, gids[4].gid.raw, 16);
	decode(area, gids, 5, &grh);
	is_int(reverse_mcast_ah_build(&grh, &wc, gids, 5, LINK_LAYER_ETHERNET,
				      1, &attr, &chosen),
	       REVERSE_MCAST_UNICAST, "RoCE v2/IPv6: our GID is no group");
}

/* The reply-AH cache keys a group's probe apart from a unicast one of
 * the same sender: they are built differently. */
static void test_key(void)
{
	struct gid_info gids[] = { entry(0, "fe80::2:c903:0:9", GID_KIND_IB) };
	struct ibv_wc wc = { .slid = 7, .sl = 3 };
	struct reverse_key group_key, unicast_key;
	struct grh_fields grh;
	uint8_t area[40];

	decode(ib_grh, gids, 1, &grh);
	reverse_key_build(&wc, &grh, LINK_LAYER_IB, 0, &group_key);
	memcpy(area, ib_grh, 40);
	memcpy(area + 24, gids[0].gid.raw, 16);
	decode(area, gids, 1, &grh);
	reverse_key_build(&wc, &grh, LINK_LAYER_IB, 0, &unicast_key);
	ok(!reverse_key_equal(&group_key, &unicast_key),
	   "the reply-AH cache keeps a group's and a unicast reply apart");
}

int main(void)
{
	test_ib();
	test_ib_unicast();
	test_roce_v4();
	test_roce_v6();
	test_key();
	return tap_done();
}

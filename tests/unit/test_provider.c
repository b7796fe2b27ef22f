/* Unit tests of provider identification and its rules, for the hardware
 * this machine does not have: each case is what the upstream driver code
 * named in lib/verbs/provider.c does. */
#include <string.h>

#include "verbs/provider.h"
#include "wire/roce_packet.h"
#include "tap.h"

static enum provider id(const char *driver, uint32_t vendor)
{
	struct provider_facts f = { driver, vendor };

	return provider_identify(&f);
}

static void test_identify(void)
{
	is_int(id("mlx5_core", 0x02c9), PROVIDER_MLX5, "mlx5_core");
	is_int(id("mlx4_core", 0x02c9), PROVIDER_MLX4,
	       "mlx4_core: the driver tells mlx4 from mlx5");
	is_int(id("", 0x02c9), PROVIDER_MLX5, "Mellanox OUI, no driver link");
	is_int(id("ice", 0x8086), PROVIDER_IRDMA, "E810 (ice): irdma");
	is_int(id("i40e", 0x8086), PROVIDER_IRDMA, "X722 (i40e): irdma");
	is_int(id("bnxt_en", 0x14e4), PROVIDER_BNXT_RE, "bnxt_en: bnxt_re");
	is_int(id("hns3", 0x19e5), PROVIDER_HNS, "hns3: hns");
	is_int(id("", 0xffffff), PROVIDER_RXE, "no parent, 0xffffff: rxe");
	is_int(id("mlx5_core", 0xffffff), PROVIDER_RXE,
	       "rxe on a ConnectX before 5.11 (parent = the NIC): still rxe");
	is_int(id(NULL, 0x626d74), PROVIDER_SIW, "siw");
	is_int(id("", 0x1234), PROVIDER_UNKNOWN, "anything else: unknown");
	is_int(id("somenic", 0x1234), PROVIDER_UNKNOWN, "unknown driver too");
	is_str(provider_name(PROVIDER_BNXT_RE), "bnxt_re", "names");
}

/* rdma-core hns_roce_u_verbs.c: check_qp_create_mask and
 * hns_roce_u_create_ah refuse UD below HNS_ROCE_HW_VER3 (0x130), the
 * device's ibv_query_device hw_ver. */
static void test_ud_unsupported(void)
{
	ok(provider_ud_unsupported(PROVIDER_HNS, 0x100),
	   "hns HIP08 (HNS_ROCE_HW_VER2 0x100): no UD");
	ok(provider_ud_unsupported(PROVIDER_HNS, 0x12f), "hns below 0x130: no UD");
	ok(!provider_ud_unsupported(PROVIDER_HNS, 0x130),
	   "hns HIP09 (HNS_ROCE_HW_VER3 0x130): UD");
	ok(!provider_ud_unsupported(PROVIDER_MLX5, 0),
	   "mlx5 hw_ver 0: UD (the rule is hns's alone)");
	ok(!provider_ud_unsupported(PROVIDER_RXE, 0), "rxe: UD");
	ok(!provider_ud_unsupported(PROVIDER_UNKNOWN, 0), "unknown: UD");
}

static enum hop_limit_rule rule(enum provider p, enum link_layer ll,
				bool v1, bool link_local)
{
	struct hop_limit_rule_input in = { p, ll, v1, link_local };
	char why[200];

	return provider_hop_limit_rule(&in, why, sizeof(why));
}

static void test_hop_limit_rules(void)
{
	struct hop_limit_rule_input in = { PROVIDER_IRDMA,
					   LINK_LAYER_ETHERNET, false, false };
	char why[200];

	is_int(rule(PROVIDER_MLX5, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_AH, "mlx5 RoCE: the AH's (user-space AV)");
	is_int(rule(PROVIDER_MLX4, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_AH, "mlx4 RoCE: the AH's");
	is_int(rule(PROVIDER_HNS, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_AH, "hns: the AH's");
	is_int(rule(PROVIDER_RXE, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_ROUTE, "rxe: the route's");
	is_int(rule(PROVIDER_IRDMA, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_ROUTE, "irdma: the route's");
	is_int(rule(PROVIDER_BNXT_RE, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_ROUTE, "bnxt_re: the route's");
	is_int(rule(PROVIDER_BNXT_RE, LINK_LAYER_ETHERNET, true, true),
	       HOP_LIMIT_RULE_AH, "RoCE v1 to a link-local GID skips the "
	       "route (ib_resolve_unicast_gid_dmac)");
	is_int(rule(PROVIDER_BNXT_RE, LINK_LAYER_ETHERNET, true, false),
	       HOP_LIMIT_RULE_ROUTE, "RoCE v1 to a global GID: the route's");
	is_int(rule(PROVIDER_UNKNOWN, LINK_LAYER_ETHERNET, false, false),
	       HOP_LIMIT_RULE_UNKNOWN, "unknown provider: judged by what "
	       "arrives");
	is_int(rule(PROVIDER_MLX5, LINK_LAYER_IB, false, false),
	       HOP_LIMIT_RULE_AH, "InfiniBand: the AH's");
	is_int(rule(PROVIDER_UNKNOWN, LINK_LAYER_IB, false, false),
	       HOP_LIMIT_RULE_AH, "InfiniBand, any provider: the AH's");
	provider_hop_limit_rule(&in, why, sizeof(why));
	ok(strstr(why, "irdma") && strstr(why, "kernel"),
	   "the reason names the provider and the kernel: %s", why);
	ok(!provider_wc_sl_is_sl(LINK_LAYER_ETHERNET),
	   "RoCE: wc.sl is no SL (mlx5 L3 type, bnxt_re IP version)");
	ok(provider_wc_sl_is_sl(LINK_LAYER_IB), "IB: wc.sl is the SL");
}

/* rxe's port per QPN, worked by hand from rxe_qp_init_req's formula
 * (17 * 0x61c88647 = 0x7e50eab7 mod 2^32, >> 18 = 0x1f94, & 0x3fff, +
 * 0xc000); tests/vm/probe.bats checks it against what rxe sends. */
static void test_wire_udp_sport(void)
{
	is_int(provider_rxe_qp_udp_sport(17), 0xdf94, "rxe QPN 17: 0xdf94");
	is_int(provider_rxe_qp_udp_sport(18), 0xf806, "rxe QPN 18: 0xf806");
	is_int(provider_rxe_qp_udp_sport(0xffffff), 0xf94d,
	       "rxe QPN 0xffffff: 0xf94d");
	is_int(provider_wire_udp_sport(PROVIDER_RXE, 0x12345, 17), 0xdf94,
	       "rxe: the QP's port whatever the flow label");
	is_int(provider_wire_udp_sport(PROVIDER_MLX5, 0x12345, 17),
	       roce_flow_label_to_udp_sport(0x12345),
	       "mlx5: the flow label's port");
	is_int(provider_wire_udp_sport(PROVIDER_HNS, 1, 17), 0xc001,
	       "hns: the flow label's port");
	is_int(provider_wire_udp_sport(PROVIDER_MLX5, 0, 17), -1,
	       "mlx5, flow label 0: a random port, not known");
	is_int(provider_wire_udp_sport(PROVIDER_IRDMA, 1, 17), -1,
	       "irdma: the firmware's choice, not known");
	is_int(provider_wire_udp_sport(PROVIDER_BNXT_RE, 1, 17), -1,
	       "bnxt_re: not known");
}

/* The decision from a probe's plain facts: UDP only from a RoCE v2
 * source GID with a GRH on Ethernet; the label's port, and the wire's
 * where the provider's rule knows it. */
static void test_probe_udp_sport_facts(void)
{
	struct udp_sport_facts f = {
		.provider = PROVIDER_MLX5, .link_layer = LINK_LAYER_ETHERNET,
		.grh = true, .sgid_roce_v2 = true, .flow_label = 0x12345,
		.qp_known = true, .qpn = 17,
	};

	ok(provider_sends_udp(&f), "RoCE v2 with a GRH: UDP");
	is_int(provider_label_udp_sport(&f),
	       roce_flow_label_to_udp_sport(0x12345), "the label's port");
	is_int(provider_probe_udp_sport(&f),
	       roce_flow_label_to_udp_sport(0x12345), "mlx5 sends it");
	f.provider = PROVIDER_RXE;
	is_int(provider_label_udp_sport(&f),
	       roce_flow_label_to_udp_sport(0x12345),
	       "rxe: the label still asks for its port");
	is_int(provider_probe_udp_sport(&f), 0xdf94, "rxe sends its QP's");
	f.qp_known = false;
	is_int(provider_probe_udp_sport(&f), -1, "no QP yet: not known");
	f.qp_known = true;
	f.sgid_roce_v2 = false;
	ok(!provider_sends_udp(&f), "RoCE v1: no UDP");
	is_int(provider_label_udp_sport(&f), -1, "RoCE v1: no label port");
	is_int(provider_probe_udp_sport(&f), -1, "RoCE v1: no wire port");
	f.sgid_roce_v2 = true;
	f.grh = false;
	ok(!provider_sends_udp(&f), "no GRH: no UDP");
	f.grh = true;
	f.link_layer = LINK_LAYER_IB;
	ok(!provider_sends_udp(&f), "InfiniBand: no UDP");
	f.link_layer = LINK_LAYER_ETHERNET;
	f.provider = PROVIDER_HNS;
	f.flow_label = 0;
	is_int(provider_label_udp_sport(&f), -1, "flow label 0: random");
	is_int(provider_probe_udp_sport(&f), -1, "hns, label 0: not known");
	ok(provider_sport_follows_flow_label(PROVIDER_MLX5) &&
	   provider_sport_follows_flow_label(PROVIDER_HNS) &&
	   !provider_sport_follows_flow_label(PROVIDER_RXE) &&
	   !provider_sport_follows_flow_label(PROVIDER_IRDMA),
	   "the label's port on the wire: mlx5 and hns only");
	ok(provider_sport_follows_qp(PROVIDER_RXE) &&
	   !provider_sport_follows_qp(PROVIDER_MLX5),
	   "the QP's port on the wire: rxe");
	is_int(provider_from_name("hns", 3), PROVIDER_HNS, "hns by name");
	is_int(provider_from_name("mlx5_0", 4), PROVIDER_MLX5,
	       "a name by its length");
	is_int(provider_from_name("mlx", 3), PROVIDER_UNKNOWN,
	       "no prefix matches");
	for (int p = 0; p < PROVIDER_COUNT; p++) {
		const char *name = provider_name((enum provider)p);

		ok(provider_from_name(name, strlen(name)) == (enum provider)p,
		   "%s reads back", name);
	}
}

int main(void)
{
	test_identify();
	test_ud_unsupported();
	test_hop_limit_rules();
	test_wire_udp_sport();
	test_probe_udp_sport_facts();
	return tap_done();
}

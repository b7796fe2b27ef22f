/* Unit tests of the VLAN rules: the reply's source GID by the VLAN a
 * request came in on (fe80::1 on eth0 and eth0.100), the decode of
 * mlx5-shaped and hns-shaped CVLAN values, /proc/net/vlan/DEV as the
 * kernel prints it, and the priority a probe leaves with. */
#include <string.h>

#include "verbs/gid_vlan.h"
#include "verbs/vlan_egress.h"
#include "verbs/wc_vlan.h"
#include "tap.h"

static union ibv_gid gid_of(uint8_t first, uint8_t last)
{
	union ibv_gid g;

	memset(&g, 0, sizeof(g));
	g.raw[0] = first;
	g.raw[1] = first == 0xfe ? 0x80 : 0;
	g.raw[15] = last;
	return g;
}

static void test_pick(void)
{
	union ibv_gid ll = gid_of(0xfe, 1), other = gid_of(0xfe, 2);
	/* As a mlx5 port lists them: v1 and v2 of eth0, then of eth0.100. */
	struct gid_vlan_entry t[] = {
		{ 0, ll, GID_KIND_ROCE_V1, "eth0", VLAN_ID_NONE },
		{ 1, ll, GID_KIND_ROCE_V2, "eth0", VLAN_ID_NONE },
		{ 2, ll, GID_KIND_ROCE_V1, "eth0.100", 100 },
		{ 3, ll, GID_KIND_ROCE_V2, "eth0.100", 100 },
		{ 4, other, GID_KIND_ROCE_V2, "eth1", VLAN_ID_NONE },
	};
	size_t n = sizeof(t) / sizeof(t[0]), chosen, cand;

	is_int(gid_vlan_pick(t, n, &ll, GID_KIND_ROCE_V2, true, 100, &chosen,
			     &cand),
	       GID_VLAN_MATCHED, "VLAN 100: matched");
	is_int(t[chosen].index, 3, "VLAN 100: index 3 on eth0.100, not 1");
	is_int(cand, 2, "two v2 entries hold fe80::1");
	is_int(gid_vlan_pick(t, n, &ll, GID_KIND_ROCE_V1, true, 100, &chosen,
			     &cand),
	       GID_VLAN_MATCHED, "RoCE v1 on VLAN 100: matched");
	is_int(t[chosen].index, 2, "RoCE v1 on VLAN 100: index 2");
	is_int(gid_vlan_pick(t, n, &ll, GID_KIND_ROCE_V2, true, 0, &chosen,
			     &cand),
	       GID_VLAN_MATCHED, "VID 0 (untagged): matched");
	is_int(t[chosen].index, 1, "untagged: eth0's index 1");
	is_int(gid_vlan_pick(t, n, &ll, GID_KIND_ROCE_V2, false, 0, &chosen,
			     &cand),
	       GID_VLAN_AMBIGUOUS, "VLAN unknown: ambiguous");
	is_int(t[chosen].index, 1, "VLAN unknown: the first, as libibverbs");
	is_int(gid_vlan_pick(t, n, &ll, GID_KIND_ROCE_V2, true, 200, &chosen,
			     &cand),
	       GID_VLAN_NO_NETDEV, "VLAN 200: no netdev has it");
	is_int(t[chosen].index, 1, "VLAN 200: the first is kept");
	is_int(gid_vlan_pick(t, n, &other, GID_KIND_ROCE_V2, false, 0,
			     &chosen, &cand),
	       GID_VLAN_ONLY_ONE, "a GID on one netdev: nothing to choose");
	is_int(t[chosen].index, 4, "its one index");
	is_int(gid_vlan_pick(t, n, &other, GID_KIND_ROCE_V1, true, 0, &chosen,
			     &cand),
	       GID_VLAN_NOT_FOUND, "no v1 entry of fe80::2: not found");
	is_int(gid_vlan_kind_of_packet(false, 17), GID_KIND_ROCE_V2,
	       "IPv6 + UDP: RoCE v2");
	is_int(gid_vlan_kind_of_packet(true, 0), GID_KIND_ROCE_V2,
	       "IPv4: RoCE v2");
	is_int(gid_vlan_kind_of_packet(false, 0x1b), GID_KIND_ROCE_V1,
	       "next header 0x1b: RoCE v1");
}

static void test_cvlan(void)
{
	struct wc_vlan v;

	/* mlx5: vlan_info is the TCI, PCP 3 VID 100. */
	wc_vlan_decode(0x6064, provider_cvlan_has_pcp(PROVIDER_MLX5), &v);
	ok(v.known && v.vid == 100 && v.pcp_known && v.pcp == 3,
	   "mlx5 0x6064: VID 100 PCP 3");
	/* DEI set, PCP 7 */
	wc_vlan_decode(0xf064, true, &v);
	ok(v.vid == 100 && v.pcp == 7, "0xf064: VID 100 PCP 7 (DEI apart)");
	/* A priority-tagged frame: VID 0, PCP 5. */
	wc_vlan_decode(0xa000, true, &v);
	ok(v.vid == 0 && v.pcp == 5, "0xa000: priority tag, VID 0 PCP 5");
	wc_vlan_decode(0, true, &v);
	ok(v.known && v.vid == 0 && v.pcp == 0, "0: untagged, PCP 0");
	/* hns returns the VID alone: no PCP to trust. */
	ok(!provider_cvlan_has_pcp(PROVIDER_HNS), "hns: no PCP in CVLAN");
	ok(!provider_cvlan_has_pcp(PROVIDER_RXE), "rxe: none either");
	wc_vlan_decode(0x0064, provider_cvlan_has_pcp(PROVIDER_HNS), &v);
	ok(v.known && v.vid == 100 && !v.pcp_known && v.pcp == 0,
	   "hns 0x0064: VID 100, PCP unknown");
}

/* As net/8021q/vlanproc.c prints it (vlandev_seq_show). */
static const char proc_eth0_100[] =
	"eth0.100  VID: 100\t REORDER_HDR: 1  dev->priv_flags: 1021\n"
	"         total frames received            0\n"
	"          total bytes received            0\n"
	"      Broadcast/Multicast Rcvd            0\n"
	"\n"
	"      total frames transmitted           12\n"
	"       total bytes transmitted          936\n"
	"Device: eth0\n"
	"INGRESS priority mappings: 0:0  1:0  2:0  3:0  4:0  5:0  6:0 7:0\n"
	" EGRESS priority mappings: 0:3 5:5 \n";
static const char proc_no_egress[] =
	"ens33.200  VID: 200\t REORDER_HDR: 1  dev->priv_flags: 1\n"
	"Device: ens33\n"
	"INGRESS priority mappings: 0:0  1:0  2:0  3:0  4:0  5:0  6:0 7:0\n"
	" EGRESS priority mappings: \n";

static void test_proc(void)
{
	struct vlan_netdev nd;
	char err[160];

	is_int(vlan_proc_parse(proc_eth0_100, &nd, err, sizeof(err)), 0,
	       "eth0.100 parses");
	ok(nd.is_vlan && nd.vid == 100, "VID 100");
	is_str(nd.real_dev, "eth0", "on eth0");
	is_int(nd.egress_count, 2, "two egress mappings");
	is_int(vlan_egress_pcp(&nd, 0), 3, "skb priority 0 -> PCP 3");
	is_int(vlan_egress_pcp(&nd, 5), 5, "skb priority 5 -> PCP 5");
	is_int(vlan_egress_pcp(&nd, 2), 0, "unmapped priority -> PCP 0");
	is_int(vlan_proc_parse(proc_no_egress, &nd, err, sizeof(err)), 0,
	       "no egress mappings parses");
	ok(nd.vid == 200 && nd.egress_count == 0, "VID 200, empty map");
	is_int(vlan_egress_pcp(&nd, 0), 0, "empty map -> PCP 0");
	is_int(vlan_proc_parse("eth0.100  VID: 5000\n", &nd, err, sizeof(err)),
	       -1, "VID 5000 is refused");
	is_int(vlan_proc_parse("Device: eth0\n", &nd, err, sizeof(err)), -1,
	       "no VID line is refused");
	ok(strstr(err, "VID") != NULL, "the message names the VID: %s", err);
	is_int(vlan_proc_parse("x  VID: 7\n EGRESS priority mappings: 1:9 \n",
			       &nd, err, sizeof(err)),
	       -1, "PCP 9 is refused");
}

static void test_priority_sent(void)
{
	struct vlan_netdev nd;
	struct priority_sent ps;
	char err[160];

	vlan_proc_parse(proc_eth0_100, &nd, err, sizeof(err));
	vlan_priority_sent(PROVIDER_MLX5, 3, "eth0.100", &nd, &ps);
	ok(ps.known && ps.on_vlan && ps.vid == 100 && ps.pcp == 3,
	   "mlx5 SL 3 on eth0.100: PCP 3 (%s)", ps.why);
	vlan_priority_sent(PROVIDER_MLX5, 11, "eth0.100", &nd, &ps);
	is_int(ps.pcp, 3, "mlx5 takes SL & 7");
	vlan_priority_sent(PROVIDER_RXE, 6, "eth0.100", &nd, &ps);
	ok(ps.known && ps.pcp == 3,
	   "rxe: the egress map's PCP for priority 0 (%s)", ps.why);
	vlan_priority_sent(PROVIDER_IRDMA, 3, "eth0.100", &nd, &ps);
	ok(!ps.known && ps.on_vlan && strstr(ps.why, "not known"),
	   "irdma: unknown (%s)", ps.why);
	vlan_priority_sent(PROVIDER_MLX5, 3, "eth0", NULL, &ps);
	ok(!ps.known && !ps.on_vlan && strstr(ps.why, "no VLAN"),
	   "no VLAN netdev: no PCP (%s)", ps.why);
}

int main(void)
{
	test_pick();
	test_cvlan();
	test_proc();
	test_priority_sent();
	return tap_done();
}

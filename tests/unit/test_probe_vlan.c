/* Unit tests of a result's VLAN and priority: the priority sent (mlx5's
 * SL on eth0.100), what mlx5-shaped, hns-shaped, rxe-shaped and older
 * responders report, the mismatch named, and unknown with its reason. */
#include <string.h>

#include "probe/probe_vlan.h"
#include "tap.h"

static const char proc_eth0_100[] =
	"eth0.100  VID: 100\t REORDER_HDR: 1  dev->priv_flags: 1021\n"
	"Device: eth0\n"
	"INGRESS priority mappings: 0:0  1:0  2:0  3:0  4:0  5:0  6:0 7:0\n"
	" EGRESS priority mappings: \n";

static struct probe_vlan_judgement judged(const struct vlan_netdev *nd,
					  enum provider p, bool roce,
					  bool replied,
					  const struct probe_observed *o,
					  int hops)
{
	struct probe_vlan_input in = {
		.provider = p, .roce = roce, .ah_sl = 3, .netdev = "eth0.100",
		.vlan = nd, .replied = replied, .observed = o, .hops = hops,
	};
	struct probe_vlan_judgement j;

	memset(&j, 0x5a, sizeof(j));
	probe_vlan_judge(&in, &j);
	return j;
}

int main(void)
{
	struct vlan_netdev nd;
	struct probe_observed o;
	struct probe_vlan_judgement j;
	char err[160];

	vlan_proc_parse(proc_eth0_100, &nd, err, sizeof(err));
	/* An mlx5 responder that saw VLAN 100 PCP 0 (0x0064). */
	memset(&o, 0, sizeof(o));
	o.vlan_reporter = o.vlan_known = o.pcp_known = true;
	o.vlan_id = 100;
	o.pcp = 0;
	j = judged(&nd, PROVIDER_MLX5, true, true, &o, 0);
	ok(j.sent.known && j.sent.pcp == 3 && j.sent.vid == 100,
	   "sent priority 3 on VLAN 100 (SL 3, mlx5)");
	ok(j.vlan_seen_known && j.vlan_seen == 100 && j.pcp_seen_known &&
		   j.pcp_seen == 0, "seen VLAN 100 priority 0");
	ok(j.mismatch, "a mismatch");
	is_str(j.mismatch_text,
	       "sent priority 3 on VLAN 100, arrived priority 0 on VLAN 100: "
	       "the PFC class was not kept", "named");
	is_str(j.seen_why, "", "no reason: known");
	/* Arrived untagged. */
	o.vlan_id = 0;
	j = judged(&nd, PROVIDER_MLX5, true, true, &o, 0);
	is_str(j.mismatch_text,
	       "sent priority 3 on VLAN 100, arrived priority 0: the PFC "
	       "class was not kept", "untagged arrival named");
	/* Behind routers. */
	o.vlan_id = 200;
	j = judged(&nd, PROVIDER_MLX5, true, true, &o, 2);
	ok(strstr(j.mismatch_text, "on VLAN 200 behind 2 routers") != NULL,
	   "routers said: %s", j.mismatch_text);
	/* Kept. */
	o.vlan_id = 100;
	o.pcp = 3;
	j = judged(&nd, PROVIDER_MLX5, true, true, &o, 0);
	ok(!j.mismatch && j.pcp_seen == 3, "priority 3 kept: no mismatch");
	/* hns: the VID alone. */
	o.pcp_known = false;
	o.pcp = 0;
	j = judged(&nd, PROVIDER_MLX5, true, true, &o, 0);
	ok(j.vlan_seen_known && !j.pcp_seen_known && !j.mismatch,
	   "VID without PCP: no mismatch claimed");
	ok(strstr(j.seen_why, "not the priority") != NULL, "why: %s",
	   j.seen_why);
	/* rxe: a reporter whose CQ cannot say. */
	memset(&o, 0, sizeof(o));
	o.vlan_reporter = true;
	j = judged(&nd, PROVIDER_RXE, true, true, &o, 0);
	ok(!j.vlan_seen_known && !j.pcp_seen_known && !j.mismatch,
	   "rxe responder: unknown, no mismatch");
	ok(strstr(j.seen_why, "IBV_WC_EX_WITH_CVLAN") != NULL, "why: %s",
	   j.seen_why);
	ok(j.sent.known && j.sent.pcp == 0,
	   "rxe sender: the egress map's PCP 0 (%s)", j.sent.why);
	/* An older responder. */
	o.vlan_reporter = false;
	j = judged(&nd, PROVIDER_MLX5, true, true, &o, 0);
	ok(!j.pcp_seen_known && strstr(j.seen_why, "older serve"),
	   "older responder: %s", j.seen_why);
	/* No reply. */
	j = judged(&nd, PROVIDER_MLX5, true, false, &o, -1);
	is_str(j.seen_why, "no reply", "no reply: unknown");
	/* InfiniBand. */
	j = judged(NULL, PROVIDER_MLX5, false, true, &o, 0);
	ok(!j.sent.known && !j.pcp_seen_known &&
		   strstr(j.seen_why, "InfiniBand"),
	   "InfiniBand: no VLANs");
	/* The source GID's netdev is no VLAN. */
	o.vlan_reporter = o.vlan_known = o.pcp_known = true;
	j = judged(NULL, PROVIDER_MLX5, true, true, &o, 0);
	ok(!j.sent.known && !j.sent.on_vlan && j.pcp_seen_known &&
		   !j.mismatch,
	   "untagged sender: priority sent unknown, no mismatch");
	return tap_done();
}

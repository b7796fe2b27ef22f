/* What an 802.1Q VLAN netdev does to the frames that leave through it: its
 * VLAN id and egress priority map, parsed from the kernel's
 * /proc/net/vlan/DEV (net/8021q/vlanproc.c, vlandev_seq_show), and the
 * priority (PCP) a RoCE probe leaves with on it, per provider. */
#ifndef IBAHPROBE_VLAN_EGRESS_H
#define IBAHPROBE_VLAN_EGRESS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/provider.h"

/* No VLAN: the netdev is none, or a frame carried no tag (the kernel's
 * rdma_read_gid_l2_fields leaves vlan_id 0xffff for a netdev that is no
 * VLAN; get_sgid_attr_from_eth compares with it). */
#define VLAN_ID_NONE 0xffffu
#define VLAN_EGRESS_MAX 32

struct vlan_egress_mapping {
	uint32_t skb_priority;
	uint8_t pcp;
};

struct vlan_netdev {
	bool is_vlan;		/* /proc/net/vlan/DEV exists */
	uint16_t vid;		/* VLAN_ID_NONE when !is_vlan */
	char real_dev[IF_NAMESIZE];
	size_t egress_count;
	struct vlan_egress_mapping egress[VLAN_EGRESS_MAX];
};

/* Parses the text of /proc/net/vlan/DEV: "NAME  VID: N ...",
 * "Device: REAL" and " EGRESS priority mappings: P:Q P:Q ". Returns 0,
 * or -1 with err set when the VID line or a mapping is malformed. */
int vlan_proc_parse(const char *text, struct vlan_netdev *out, char *err,
		    size_t errlen);

/* Reads /proc/net/vlan/NETDEV; a netdev without that file is no VLAN
 * (is_vlan false, return 0). -1 with err, and out left as no VLAN, for a
 * name that cannot be a netdev or a file that does not parse. */
int vlan_netdev_read(const char *netdev, struct vlan_netdev *out, char *err,
		     size_t errlen);

/* The PCP a frame of skb priority p gets: the kernel's
 * vlan_dev_get_egress_qos_mask looks the exact priority up in the map;
 * no mapping is PCP 0. */
uint8_t vlan_egress_pcp(const struct vlan_netdev *nd, uint32_t skb_priority);

/* Where a RoCE UD send's PCP comes from, read per provider:
 * - the AH's SL: the provider builds the address vector in user space
 *   and the device inserts the tag with PCP = SL & 7 (rdma-core
 *   mlx5_create_ah: stat_rate_sl = ... | ((sl & 0x7) << 1) on Ethernet;
 *   mlx4_create_ah: vlan = vid | ((sl & 7) << 13)). rdma_cm picks that SL
 *   from the TOS through the same egress map (kernel cma.c
 *   iboe_tos_to_sl, get_vlan_ndev_tc), so an SL set by hand must agree
 *   with the map for PFC to see the class the admin configured;
 * - the egress map: the frame goes through the VLAN netdev's
 *   transmit, skb priority 0 (rxe: rxe_init_packet allocates the skb
 *   without a priority, and the 8021q driver tags it through
 *   vlan_dev_get_egress_qos_mask);
 * - unknown: hns takes the kernel's priority (hns_roce_u_create_ah:
 *   av.sl = resp.priority, a DSCP mapping in DSCP mode), irdma,
 *   bnxt_re and others their firmware's rules. */
enum pcp_rule {
	PCP_RULE_AH_SL,
	PCP_RULE_EGRESS_MAP,
	PCP_RULE_UNKNOWN,
};

enum pcp_rule provider_pcp_rule(enum provider p);

/* The priority a probe left with: known only where the netdev of its
 * source GID is a VLAN and the provider's rule is known; why says which
 * rule applied or why it is unknown. */
struct priority_sent {
	bool known;
	bool on_vlan;		/* the source GID's netdev is a VLAN */
	uint16_t vid;
	uint8_t pcp;
	char why[200];
};

void vlan_priority_sent(enum provider p, uint8_t ah_sl, const char *netdev,
			const struct vlan_netdev *nd,
			struct priority_sent *out);

#endif

/* The responder's reverse path, as plain data: which received packets
 * share a reply AH (the key), and how the attributes that
 * ibv_init_ah_from_wc builds are finished for the reply. */
#ifndef IBAHPROBE_REVERSE_AH_H
#define IBAHPROBE_REVERSE_AH_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/device.h"
#include "wire/grh.h"
#include "verbs/provider.h"

/* Everything of a received packet that ibv_init_ah_from_wc reads, except
 * the hop limit and, on Ethernet, the ECN bits of the traffic class,
 * which the reply does not take over. Two packets with
 * equal keys get the same reply AH, so the call (and its scan of the GID
 * table) runs once per sender, not once per probe. */
struct reverse_key {
	uint16_t slid;
	uint8_t sl;		/* wc.sl on IB; the asked SL on RoCE */
	uint8_t dlid_path_bits;
	bool global;
	bool ipv4;
	uint8_t traffic_class;
	uint32_t flow_label;
	union ibv_gid sgid, dgid;	/* the sender's, and ours it reached */
	/* The VLAN it came on (VLAN_ID_NONE: none or not known): the
	 * same link-local GIDs meet on every VLAN, one reply AH each. */
	uint16_t vlan_id;
};

/* wc_has_grh is wc.wc_flags & IBV_WC_GRH; grh the decoded area (present
 * only with it). asked_sl is what the probe says it was sent with. */
void reverse_key_build(const struct ibv_wc *wc, const struct grh_fields *grh,
		       enum link_layer link_layer, uint8_t asked_sl,
		       struct reverse_key *key);
bool reverse_key_equal(const struct reverse_key *a,
		       const struct reverse_key *b);

/* The hop limit of a reply that must reach the prober: the kernel's
 * ib_init_ah_attr_from_wc uses 0xff. */
#define REVERSE_HOP_LIMIT 255

/* Finishes what ibv_init_ah_from_wc built for the reply:
 * - on Ethernet the DSCP of the received traffic class, without the
 *   ECN bits that libibverbs (set_ah_attr_by_ipv4) copies;
 * - hop limit 255, not the received, already decremented one that
 *   libibverbs copies (set_ah_attr_by_ipv4/ipv6): providers that build
 *   the AV in user space (mlx4, mlx5, hns) would send that and the reply
 *   would expire after as many routers as the probe crossed;
 * - on Ethernet the SL the probe was sent with: there wc.sl is no SL
 *   (mlx5 puts the RoCE L3 header type in it, bnxt_re the IP version,
 *   hns the packet type), and the LID fields mean nothing. */
void reverse_ah_finish(struct ibv_ah_attr *attr, enum link_layer link_layer,
		       uint8_t asked_sl);

/* The hop limit a reply leaves with, which the prober subtracts what it
 * saw from to count the routers on the way back. Whose it is follows the
 * responder's provider rule (provider_hop_limit_rule): the AH's where the
 * provider builds the address vector (mlx4/mlx5/hns: 255, set above), the
 * route's where the kernel overwrites it (rxe, irdma, bnxt_re:
 * ib_resolve_unicast_gid_dmac), and for those only when the route's value
 * is known (route_lookup). An unknown provider sends one of the two:
 * unknown, so the prober says so instead of a wrong count. No GRH on the
 * reply (InfiniBand inside the subnet): no hop limit at all. */
struct reverse_hop_limit_input {
	enum hop_limit_rule rule;
	bool is_global;		/* the reply carries a GRH */
	uint8_t ah_hop_limit;
	bool route_known;
	uint8_t route_hop_limit;
};

/* True with *sent set when known. */
bool reverse_hop_limit_sent(const struct reverse_hop_limit_input *in,
			    uint8_t *sent);

#endif

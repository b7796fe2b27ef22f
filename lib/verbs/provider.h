/* Which RDMA provider (driver) runs a device, and what that means for a
 * UD prober: whose hop limit leaves the host, and whether wc.sl holds an
 * SL. Each rule is read from the upstream code named beside it; the
 * decisions are functions of plain facts so they are tested for hardware
 * this machine does not have. */
#ifndef IBAHPROBE_PROVIDER_H
#define IBAHPROBE_PROVIDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/device.h"

enum provider {
	PROVIDER_UNKNOWN,
	PROVIDER_MLX4,
	PROVIDER_MLX5,
	PROVIDER_HNS,
	PROVIDER_RXE,
	PROVIDER_IRDMA,		/* also the older i40iw */
	PROVIDER_BNXT_RE,
	PROVIDER_OCRDMA,
	PROVIDER_QEDR,
	PROVIDER_ERDMA,
	PROVIDER_IONIC,
	PROVIDER_SIW,
	PROVIDER_EFA,
	PROVIDER_MANA,
	PROVIDER_COUNT,
};

/* What identifies the provider from user space: the kernel driver bound
 * to the device's parent (sysfs .../device/driver, "" when none, as for
 * rxe and siw) and ibv_query_device's vendor_id. */
struct provider_facts {
	const char *driver;
	uint32_t vendor_id;
};

enum provider provider_identify(const struct provider_facts *facts);
const char *provider_name(enum provider p);
/* The provider a name of provider_name stands for (a result's
 * "source.provider"); PROVIDER_UNKNOWN for any other text. */
enum provider provider_from_name(const char *name, size_t len);

/* Reads the facts of an open verbs device (sysfs for the driver). */
void provider_facts_read(const char *ibdev, uint32_t vendor_id, char *driver,
			 size_t driver_len, struct provider_facts *facts);

/* Whether provider p refuses UD QPs and AHs on this hardware, from
 * ibv_query_device's hw_ver: rdma-core's hns provider
 * (providers/hns/hns_roce_u_verbs.c) answers IBV_QPT_UD with EINVAL in
 * check_qp_create_mask and a NULL AH in hns_roce_u_create_ah ("HIP08
 * don't support create ah") when hr_dev->hw_version < HNS_ROCE_HW_VER3
 * (0x130); hw_version is the device's hw_ver (hns_roce_alloc_context),
 * which the kernel fills from hr_dev->hw_rev (hns_roce_query_device):
 * HIP08 is HNS_ROCE_HW_VER2 (0x100), HIP09 HNS_ROCE_HW_VER3. */
bool provider_ud_unsupported(enum provider p, uint32_t hw_ver);

/* Whose hop limit a RoCE or IB packet carries when it leaves the host. */
enum hop_limit_rule {
	HOP_LIMIT_RULE_AH,	/* the AH's: the provider builds the AV */
	HOP_LIMIT_RULE_ROUTE,	/* the kernel route's (ib_resolve_unicast_gid_dmac) */
	HOP_LIMIT_RULE_UNKNOWN,	/* provider unknown: judge by what arrives */
};

struct hop_limit_rule_input {
	enum provider provider;
	enum link_layer link_layer;
	bool sgid_roce_v1;	/* the AH's source GID is RoCE v1 */
	bool dgid_link_local;	/* fe80::/10 */
};

/* The rule, and a sentence saying why (for -v and JSON). */
enum hop_limit_rule provider_hop_limit_rule(const struct hop_limit_rule_input *in,
					    char *why, size_t len);
const char *hop_limit_rule_name(enum hop_limit_rule rule);

/* Whether wc.sl of a UD receive is the packet's SL. On Ethernet it is not:
 * mlx5 puts the RoCE L3 header type there (mlx5 cq.c: the CQE's
 * flags_rqpn bits 24..27), bnxt_re the IP version (bnxt_re_poll_success_
 * ud_rcqe), hns the packet type (parse_for_ud_qp), mlx4 the VLAN PCP,
 * irdma leaves it unset. On InfiniBand it is the SL from the LRH. */
bool provider_wc_sl_is_sl(enum link_layer link_layer);

/* The UDP source port rxe puts on every packet of a QP: its own, derived
 * from the QPN when the QP is created (rxe_qp_init_req,
 * drivers/infiniband/sw/rxe/rxe_qp.c: 0xC000 + (hash_32(qpn, 14) &
 * 0x3fff), hash_32 being the multiplication by GOLDEN_RATIO_32 of
 * include/linux/hash.h); for a UD QP no AH changes it (rxe_prepare takes
 * qp->src_port). */
uint16_t provider_rxe_qp_udp_sport(uint32_t qpn);

/* The UDP source port a RoCE v2 UD send of provider p carries for an AH
 * with this flow label, sent from QP qpn, where user space can know it:
 * mlx5 and hns the flow label's (mlx5_ah_set_udp_sport, providers/mlx5/
 * verbs.c; hns get_ah_udp_sport, providers/hns/hns_roce_u_verbs.c), but a
 * random one for flow label 0; rxe its QP's (provider_rxe_qp_udp_sport)
 * whatever the flow label. -1: not known (flow label 0 on mlx5/hns, or a
 * provider whose firmware chooses: irdma, bnxt_re, and the others). The
 * caller checks that the AH is RoCE v2 at all. */
int32_t provider_wire_udp_sport(enum provider p, uint32_t flow_label,
				uint32_t qpn);

/* Whether provider p puts the flow label's port on the wire
 * (roce_flow_label_to_udp_sport: mlx5_ah_set_udp_sport, hns
 * get_ah_udp_sport), so a trace of that port follows its probes. */
bool provider_sport_follows_flow_label(enum provider p);

/* Whether provider p puts its QP's own port on the wire whatever the
 * flow label (rxe: provider_rxe_qp_udp_sport). */
bool provider_sport_follows_qp(enum provider p);

/* What decides the UDP source port of a UD probe, as plain facts of its
 * AH and QP. */
struct udp_sport_facts {
	enum provider provider;
	enum link_layer link_layer;
	bool grh;		/* the AH has one (is_global) */
	bool sgid_roce_v2;	/* its source GID is of type RoCE v2 */
	uint32_t flow_label;	/* the AH's */
	bool qp_known;		/* the QP exists: qpn is its number */
	uint32_t qpn;
};

/* Whether the probes are UDP at all: only a RoCE v2 source GID on
 * Ethernet puts UDP on the wire (mlx5_create_ah sets the port for
 * IBV_GID_TYPE_SYSFS_ROCE_V2 alone); InfiniBand, RoCE v1 and an AH
 * without a GRH carry none. */
bool provider_sends_udp(const struct udp_sport_facts *f);

/* The port the flow label stands for (roce_flow_label_to_udp_sport), or
 * -1: no UDP (provider_sends_udp), or flow label 0 (mlx5_ah_set_udp_sport
 * and hns get_ah_udp_sport pick a random port then). It is what the flow
 * label asks for, not necessarily what the NIC sends. */
int32_t provider_label_udp_sport(const struct udp_sport_facts *f);

/* The port the probes carry on the wire where user space can know it
 * (provider_wire_udp_sport: mlx5 and hns the flow label's, rxe its QP's),
 * or -1: no UDP, no QP yet, a random or a firmware's port. The port ECMP
 * routers hash. */
int32_t provider_probe_udp_sport(const struct udp_sport_facts *f);

#endif

/* The VLAN tag a receive completion carried: where an extended CQ
 * reports it (IBV_WC_EX_WITH_CVLAN, ibv_wc_read_cvlan, libibverbs
 * verbs.h), its VID and priority (PCP, the PFC class). Pure: the raw
 * value and the provider come in as plain facts. */
#ifndef IBAHPROBE_WC_VLAN_H
#define IBAHPROBE_WC_VLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "verbs/provider.h"

struct wc_vlan {
	bool known;		/* the CQ reported the tag */
	uint16_t vid;		/* 0: untagged or priority-tagged */
	bool pcp_known;		/* the value carries the PCP too */
	uint8_t pcp;
};

/* Whether provider p's CVLAN reader returns the whole tag (TCI: VID in
 * bits 11..0, DEI 12, PCP 15..13) or the VID alone:
 * - mlx5: mlx5_cq_read_wc_cvlan returns be16toh(cqe64->vlan_info), the
 *   TCI as received (providers/mlx5/cq.c);
 * - hns: wc_read_cvlan returns CQE_VID (bits 221..210 of the CQE) when
 *   CQE_VID_VLD, else 0: the PCP is not there
 *   (providers/hns/hns_roce_u_hw_v2.c);
 * no other provider offers IBV_WC_EX_WITH_CVLAN (rxe's RXE_SUP_WC_FLAGS,
 * mlx4's and irdma's create_cq_ex masks lack it), so an unknown one is
 * not trusted with the PCP. */
bool provider_cvlan_has_pcp(enum provider p);

/* Decodes ibv_wc_read_cvlan's value. */
void wc_vlan_decode(uint16_t cvlan, bool has_pcp, struct wc_vlan *out);

#endif

/* The reply AH of a probe that arrived through a multicast group, built
 * by hand: libibverbs' ibv_init_ah_from_wc refuses a multicast DGID
 * (set_ah_attr_by_ipv4/ipv6: "No point searching multicast GIDs in GID
 * table", EINVAL), because it looks the received DGID up in our GID
 * table to find the reply's source. Here the source is chosen from our
 * GID table by the sender's GID instead. */
#ifndef IBAHPROBE_REVERSE_MCAST_AH_H
#define IBAHPROBE_REVERSE_MCAST_AH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/device.h"
#include "wire/grh.h"

enum reverse_mcast_result {
	REVERSE_MCAST_BUILT,
	/* The DGID is no group (or there is no GRH): ibv_init_ah_from_wc
	 * builds the reply as for any unicast probe. */
	REVERSE_MCAST_UNICAST,
	/* We have no GID of the sender's type and family to reply from. */
	REVERSE_MCAST_NO_SGID,
};

/* From the decoded GRH and the completion, as ibv_init_ah_from_wc would
 * for a unicast DGID (set_ah_attr_generic_fields): dgid = the sender's
 * SGID, flow label and traffic class as received, dlid = wc.slid and
 * sl = wc.sl (InfiniBand; reverse_ah_finish puts the asked SL and
 * dlid 0 on Ethernet), src_path_bits 0 (the DLID was the MLID, whose
 * path bits say nothing of ours), is_global = 1, port_num. The source
 * GID index (gids: the port's table, valid entries):
 * - InfiniBand: a GID with the sender's subnet prefix, else the first
 *   (index 0 is the port's default GID);
 * - RoCE v2 over IPv4: an IPv4-mapped RoCE v2 GID; over IPv6 (next
 *   header UDP): a RoCE v2 GID that is not IPv4-mapped; RoCE v1 (next
 *   header 0x1b, the BTH): a RoCE v1 GID that is not IPv4-mapped; of
 *   those, one with the sender's /64 prefix, else of the sender's scope
 *   (link-local or not), else the first.
 * The hop limit is left for reverse_ah_finish (255, the existing rule).
 * *chosen is the entry taken (REVERSE_MCAST_BUILT only). */
enum reverse_mcast_result
reverse_mcast_ah_build(const struct grh_fields *grh, const struct ibv_wc *wc,
		       const struct gid_info *gids, size_t gid_count,
		       enum link_layer link_layer, uint8_t port_num,
		       struct ibv_ah_attr *attr, const struct gid_info **chosen);

#endif

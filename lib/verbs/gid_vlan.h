/* The reply's source GID chosen by the VLAN a request arrived on. A
 * link-local (fe80::) GID, made from the MAC, sits on every VLAN netdev of
 * that port at once; libibverbs' ibv_init_ah_from_wc (verbs.c
 * set_ah_attr_by_ipv6 -> ibv_find_gid_index) takes the first GID equal to
 * the DGID of the right type and ignores the VLAN, so a reply may leave on
 * another VLAN than its request came in on. The kernel tells them apart
 * with the completion's VLAN (drivers/infiniband/core/verbs.c
 * ib_init_ah_attr_from_wc: vlan_id = wc->vlan_id when IB_WC_WITH_VLAN,
 * else 0xffff; get_sgid_attr_from_eth -> rdma_find_gid_by_filter with
 * find_gid_index matching the GID's netdev VLAN, rdma_read_gid_l2_fields);
 * this does the same over the GID table as plain data. */
#ifndef IBAHPROBE_GID_VLAN_H
#define IBAHPROBE_GID_VLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "verbs/device.h"

/* One GID table entry with its netdev's VLAN (VLAN_ID_NONE: no VLAN). */
struct gid_vlan_entry {
	uint32_t index;
	union ibv_gid gid;
	enum gid_kind kind;
	const char *netdev;
	uint16_t vlan_id;
};

enum gid_vlan_outcome {
	GID_VLAN_NOT_FOUND,	/* no entry equals the GID */
	GID_VLAN_ONLY_ONE,	/* one entry: nothing to choose */
	GID_VLAN_MATCHED,	/* the entry whose netdev has the VLAN */
	/* Several entries and the VLAN is not known (the CQ cannot say):
	 * the first is taken, as libibverbs does. */
	GID_VLAN_AMBIGUOUS,
	/* Several entries, the VLAN is known, no netdev has it (the
	 * kernel fails with ENOENT): the first is taken. */
	GID_VLAN_NO_NETDEV,
};

/* Among the entries equal to gid of kind, the one to answer from.
 * vlan_known: the completion reported its VLAN tag; vlan_id then is its
 * VID, VID 0 (untagged or priority-tagged) meaning no VLAN netdev, as the
 * kernel's mlx5 handle_responder leaves IB_WC_WITH_VLAN clear. *chosen is
 * a position in t (not a GID index) unless GID_VLAN_NOT_FOUND;
 * *candidates counts the equal entries. */
enum gid_vlan_outcome gid_vlan_pick(const struct gid_vlan_entry *t, size_t n,
				    const union ibv_gid *gid,
				    enum gid_kind kind, bool vlan_known,
				    uint16_t vlan_id, size_t *chosen,
				    size_t *candidates);

/* The GID kind a received GRH stands for, as the kernel's
 * ib_get_net_type_by_grh: IPv4 or a UDP next header is RoCE v2, any
 * other IPv6 header RoCE v1. */
enum gid_kind gid_vlan_kind_of_packet(bool grh_ipv4, uint8_t next_header);

#endif

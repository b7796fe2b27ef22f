/* Device and port discovery: what `ports` shows and what AH rules need to
 * know about the local port. libibverbs first; where verbs finds nothing
 * but libibumad does (the simulated subnet, a host without uverbs), the
 * umad view. */
#ifndef IBAHPROBE_DEVICE_H
#define IBAHPROBE_DEVICE_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

enum link_layer {
	LINK_LAYER_UNKNOWN,
	LINK_LAYER_IB,
	LINK_LAYER_ETHERNET,
};

enum gid_kind {
	GID_KIND_IB,
	GID_KIND_ROCE_V1,
	GID_KIND_ROCE_V2,
};

struct gid_info {
	uint32_t index;
	union ibv_gid gid;
	enum gid_kind kind;
	char netdev[IF_NAMESIZE];	/* "" when none (IB) */
};

struct port_info {
	uint8_t port_num;
	enum ibv_port_state state;
	uint8_t phys_state;
	enum link_layer link_layer;
	uint16_t lid;
	uint8_t lmc;
	uint16_t sm_lid;
	uint8_t sm_sl;
	uint16_t active_mtu;	/* bytes; 0 unknown */
	uint16_t max_mtu;	/* bytes; 0 unknown */
	uint32_t rate_mbps;	/* 0 unknown */
	bool grh_required;	/* IBV_QPF_GRH_REQUIRED */
	uint32_t gid_table_len;
	size_t gid_count;
	struct gid_info *gids;	/* valid entries only */
};

enum device_source {
	DEVICE_FROM_VERBS,
	DEVICE_FROM_UMAD,
};

struct device_info {
	char name[64];
	enum device_source source;
	uint64_t node_guid;	/* host order */
	size_t port_count;
	struct port_info *ports;
};

struct device_list {
	size_t count;
	struct device_info *devices;
};

/* Fills list from verbs, or from umad when verbs has no device. With
 * only_device set, just that device (an unknown name is an error that lists
 * the ones present). Returns 0, or -1 with err set: no device at all, or a
 * query failed. */
int device_discover(struct device_list *list, const char *only_device,
		    char *err, size_t errlen);
void device_list_free(struct device_list *list);

/* Chooses the device/port to work on: the requested ones, or the first
 * port in state ACTIVE. NULL with err set when there is none. */
const struct port_info *device_pick_port(const struct device_list *list,
					 const char *device, uint8_t port,
					 const struct device_info **dev_out,
					 char *err, size_t errlen);

const char *link_layer_name(enum link_layer ll);
const char *gid_kind_name(enum gid_kind kind);
const char *port_state_name(enum ibv_port_state state);
const char *device_source_name(enum device_source source);

#endif

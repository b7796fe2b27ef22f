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
	uint32_t netdev_mtu;		/* the netdev's MTU; 0 unknown */
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

/* Whether UD probes can run on a device, from what libibverbs knows of it
 * before it is opened (ibv_device node_type and transport_type, which
 * libibverbs' try_driver() derives from the sysfs node type, as the
 * kernel's rdma_node_get_transport() does). UD QPs exist on InfiniBand
 * and RoCE (transport IB) only. */
enum device_ud_support {
	DEVICE_UD_OK,
	DEVICE_UD_IWARP,	/* RNIC: iWARP is connected-only (RC over TCP) */
	DEVICE_UD_USNIC,	/* Cisco usNIC: its own UDP QPs, no IB UD */
	DEVICE_UD_OTHER,	/* unspecified or unknown transport */
	/* The provider refuses UD QPs and AHs on this hardware (hns HIP08:
	 * provider_ud_unsupported, from ibv_query_device's hw_ver). */
	DEVICE_UD_HNS_HIP08,
};
enum device_ud_support device_ud_support(enum ibv_node_type node_type,
					 enum ibv_transport_type transport);
/* Why not, in words ("iWARP has no UD QPs"); NULL for DEVICE_UD_OK. */
const char *device_ud_reason(enum device_ud_support support);

struct device_info {
	char name[64];
	enum device_source source;
	uint64_t node_guid;	/* host order */
	enum ibv_node_type node_type;
	enum ibv_transport_type transport;
	enum device_ud_support ud;
	/* Non-empty: the device could not be opened or queried (it has no
	 * ports then); the other devices are listed all the same. */
	char error[256];
	int error_errno;
	size_t port_count;
	struct port_info *ports;
	/* ibv_query_device's fw_ver (umad: the device's sysfs fw_ver); ""
	 * when the driver gives none (rxe). */
	char fw_ver[64];
};

struct device_list {
	size_t count;
	struct device_info *devices;
};

/* Fills list from verbs, or from umad when verbs has no device. With
 * only_device set, just that device (an unknown name is an error that lists
 * the ones present). A device that cannot be opened or queried stays in the
 * list with its error set and a warning naming it and the errno; the
 * others are read as if it were not there. Returns 0, or -1 with err set:
 * no device at all, or out of memory. */
int device_discover(struct device_list *list, const char *only_device,
		    char *err, size_t errlen);
void device_list_free(struct device_list *list);

/* Chooses the device/port to work on: the requested ones, or the first
 * port in state ACTIVE of a device that can run UD probes (never one that
 * failed, never iWARP). NULL with err set when there is none, or when the
 * requested device failed or cannot run UD probes (named with the
 * reason). No silent fallback: when the port chosen is not the one a user
 * expects (the first device's first port, or port -P of the first device)
 * note (may be NULL) gets a sentence naming both ("using rxe1 port 1:
 * rxe0 port 1 is DOWN"), else "". A pure function of the list. */
const struct port_info *device_pick_port(const struct device_list *list,
					 const char *device, uint8_t port,
					 const struct device_info **dev_out,
					 char *note, size_t notelen,
					 char *err, size_t errlen);

const char *link_layer_name(enum link_layer ll);
const char *gid_kind_name(enum gid_kind kind);
const char *port_state_name(enum ibv_port_state state);
const char *device_source_name(enum device_source source);
const char *device_transport_name(enum ibv_transport_type transport);

#endif

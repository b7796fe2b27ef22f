/* Device and port discovery through libibverbs, with libibumad as the
 * fallback view where verbs sees no device. */
#include <endian.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <infiniband/umad.h>

#include "verbs/device.h"
#include "base/diag.h"
#include "base/gid.h"
#include "verbs/provider.h"

const char *link_layer_name(enum link_layer ll)
{
	switch (ll) {
	case LINK_LAYER_IB: return "InfiniBand";
	case LINK_LAYER_ETHERNET: return "Ethernet";
	case LINK_LAYER_UNKNOWN: break;
	}
	return "unknown";
}

const char *gid_kind_name(enum gid_kind kind)
{
	switch (kind) {
	case GID_KIND_IB: return "IB";
	case GID_KIND_ROCE_V1: return "RoCE v1";
	case GID_KIND_ROCE_V2: return "RoCE v2";
	}
	return "unknown";
}

const char *port_state_name(enum ibv_port_state state)
{
	switch (state) {
	case IBV_PORT_NOP: return "NOP";
	case IBV_PORT_DOWN: return "DOWN";
	case IBV_PORT_INIT: return "INIT";
	case IBV_PORT_ARMED: return "ARMED";
	case IBV_PORT_ACTIVE: return "ACTIVE";
	case IBV_PORT_ACTIVE_DEFER: return "ACTIVE_DEFER";
	}
	return "unknown";
}

const char *device_source_name(enum device_source source)
{
	return source == DEVICE_FROM_UMAD ? "umad" : "verbs";
}

const char *device_transport_name(enum ibv_transport_type transport)
{
	switch (transport) {
	case IBV_TRANSPORT_IB: return "InfiniBand";
	case IBV_TRANSPORT_IWARP: return "iWARP";
	case IBV_TRANSPORT_USNIC: return "usNIC";
	case IBV_TRANSPORT_USNIC_UDP: return "usNIC UDP";
	case IBV_TRANSPORT_UNSPECIFIED: return "unspecified";
	case IBV_TRANSPORT_UNKNOWN: break;
	}
	return "unknown";
}

enum device_ud_support device_ud_support(enum ibv_node_type node_type,
					 enum ibv_transport_type transport)
{
	/* The node type decides (libibverbs try_driver() maps it to the
	 * transport); the transport covers a node type this build does not
	 * know. */
	switch (node_type) {
	case IBV_NODE_CA:
	case IBV_NODE_SWITCH:
	case IBV_NODE_ROUTER:
		return DEVICE_UD_OK;
	case IBV_NODE_RNIC:
		return DEVICE_UD_IWARP;
	case IBV_NODE_USNIC:
	case IBV_NODE_USNIC_UDP:
		return DEVICE_UD_USNIC;
	case IBV_NODE_UNSPECIFIED:
	case IBV_NODE_UNKNOWN:
		break;
	}
	switch (transport) {
	case IBV_TRANSPORT_IB: return DEVICE_UD_OK;
	case IBV_TRANSPORT_IWARP: return DEVICE_UD_IWARP;
	case IBV_TRANSPORT_USNIC:
	case IBV_TRANSPORT_USNIC_UDP: return DEVICE_UD_USNIC;
	default: return DEVICE_UD_OTHER;
	}
}

const char *device_ud_reason(enum device_ud_support support)
{
	switch (support) {
	case DEVICE_UD_OK: return NULL;
	case DEVICE_UD_IWARP:
		return "iWARP has no UD QPs (UD needs InfiniBand or RoCE)";
	case DEVICE_UD_USNIC:
		return "usNIC has no InfiniBand UD QPs (UD needs InfiniBand "
		       "or RoCE)";
	case DEVICE_UD_HNS_HIP08:
		return "unsupported hardware: hns HIP08 cannot create UD QPs "
		       "or AHs (rdma-core's hns provider allows them from "
		       "HIP09, hw_ver 0x130)";
	case DEVICE_UD_OTHER: break;
	}
	return "its transport is neither InfiniBand nor RoCE, and UD probes "
	       "need one of them";
}

static uint16_t mtu_enum_to_bytes(enum ibv_mtu mtu)
{
	return mtu >= IBV_MTU_256 && mtu <= IBV_MTU_4096
		       ? (uint16_t)(128u << mtu) : 0;
}

/* ibv_port_attr reports width and speed as IBA codes; the product is the
 * rate the port runs at. */
static uint32_t port_rate_mbps(uint8_t width, uint8_t speed)
{
	static const struct { uint8_t code; uint32_t lanes; } widths[] = {
		{ 1, 1 }, { 2, 4 }, { 4, 8 }, { 8, 12 }, { 16, 2 },
	};
	static const struct { uint8_t code; uint32_t mbps; } speeds[] = {
		{ 1, 2500 }, { 2, 5000 }, { 4, 10000 }, { 8, 10312 },
		{ 16, 14062 }, { 32, 25781 }, { 64, 53125 }, { 128, 106250 },
	};
	uint32_t lanes = 0, per_lane = 0;

	for (size_t i = 0; i < sizeof(widths) / sizeof(widths[0]); i++)
		if (widths[i].code == width)
			lanes = widths[i].lanes;
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].code == speed)
			per_lane = speeds[i].mbps;
	return lanes * per_lane;
}

static enum gid_kind gid_kind_from_verbs(uint32_t type)
{
	switch (type) {
	case IBV_GID_TYPE_ROCE_V1: return GID_KIND_ROCE_V1;
	case IBV_GID_TYPE_ROCE_V2: return GID_KIND_ROCE_V2;
	default: return GID_KIND_IB;
	}
}

/* The MTU of a netdev, 0 when it cannot be read: MTU discovery bounds
 * its search with it where the driver's active MTU does not take the
 * RoCE headers off (irdma; see probe/mtu_verdict.c). */
static uint32_t netdev_mtu(const char *name)
{
	struct ifreq ifr;
	int fd, rc;

	if (!name[0])
		return 0;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", name);
	rc = ioctl(fd, SIOCGIFMTU, &ifr);
	close(fd);
	return rc == 0 && ifr.ifr_mtu > 0 ? (uint32_t)ifr.ifr_mtu : 0;
}

/* One GID entry of the port into the next free slot of port->gids. */
static void port_add_gid(struct port_info *port,
			 const struct ibv_gid_entry *entry)
{
	struct gid_info *g;

	if (port->gid_count >= port->gid_table_len)
		return;
	g = &port->gids[port->gid_count++];
	g->index = entry->gid_index;
	g->gid = entry->gid;
	g->kind = gid_kind_from_verbs(entry->gid_type);
	if (entry->ndev_ifindex && !if_indextoname(entry->ndev_ifindex, g->netdev))
		g->netdev[0] = '\0';
	g->netdev_mtu = netdev_mtu(g->netdev);
}

/*
 * The kernel answers the whole device's valid GIDs in one ioctl, but the
 * answer buffer's length travels in a 16-bit field: ask for what fits
 * (2047 entries, far more than the valid GIDs of any real device; rxe's
 * table is 1024 slots per port, mostly empty). Should a device ever have
 * more valid GIDs, read this port's slots one by one instead.
 */
#define GID_TABLE_QUERY_MAX (UINT16_MAX / sizeof(struct ibv_gid_entry))

static int verbs_port_gids(struct ibv_context *ctx, struct port_info *port,
			   char *err, size_t errlen)
{
	struct ibv_gid_entry *entries, entry;
	ssize_t n;
	int rc;

	if (port->gid_table_len == 0)
		return 0;
	entries = calloc(GID_TABLE_QUERY_MAX, sizeof(*entries));
	port->gids = calloc(port->gid_table_len, sizeof(*port->gids));
	if (!entries || !port->gids) {
		free(entries);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	n = ibv_query_gid_table(ctx, entries, GID_TABLE_QUERY_MAX, 0);
	if (n >= 0) {
		for (ssize_t i = 0; i < n; i++)
			if (entries[i].port_num == port->port_num)
				port_add_gid(port, &entries[i]);
		free(entries);
		return 0;
	}
	free(entries);
	for (uint32_t index = 0; index < port->gid_table_len; index++) {
		rc = ibv_query_gid_ex(ctx, port->port_num, index,
				      &entry, 0);
		if (rc == ENODATA)	/* an empty slot */
			continue;
		if (rc) {
			snprintf(err, errlen,
				 "cannot read GID %u of %s port %u: %s", index,
				 ibv_get_device_name(ctx->device),
				 port->port_num, strerror(rc));
			return -1;
		}
		port_add_gid(port, &entry);
	}
	return 0;
}

/* The device could not be read: it stays listed, with why and no ports. */
static void device_failed(struct device_info *dev, int errnum,
			  const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void device_failed(struct device_info *dev, int errnum,
			  const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(dev->error, sizeof(dev->error), fmt, ap);
	va_end(ap);
	dev->error_errno = errnum;
	for (size_t p = 0; p < dev->port_count; p++)
		free(dev->ports[p].gids);
	free(dev->ports);
	dev->ports = NULL;
	dev->port_count = 0;
}

/* Reads one device. Returns 0 (with dev->error set when the device could
 * not be read), or -1 with err set when memory ran out. */
static int verbs_device(struct ibv_device *ibdev, struct device_info *dev,
			char *err, size_t errlen)
{
	struct ibv_device_attr attr;
	struct provider_facts facts;
	struct ibv_context *ctx;
	char driver[64];
	int rc = 0;

	snprintf(dev->name, sizeof(dev->name), "%s", ibv_get_device_name(ibdev));
	dev->source = DEVICE_FROM_VERBS;
	dev->node_guid = be64toh(ibv_get_device_guid(ibdev));
	/* Known before opening: an iWARP device is listed even when it
	 * cannot be opened. */
	dev->node_type = ibdev->node_type;
	dev->transport = ibdev->transport_type;
	dev->ud = device_ud_support(dev->node_type, dev->transport);
	ctx = ibv_open_device(ibdev);
	if (!ctx) {
		device_failed(dev, errno, "cannot open %s: %s (is ib_uverbs "
			      "loaded, and may you open /dev/infiniband?)",
			      dev->name, strerror(errno));
		return 0;
	}
	if (ibv_query_device(ctx, &attr)) {
		device_failed(dev, errno, "cannot query %s: %s", dev->name,
			      strerror(errno));
		goto out;
	}
	snprintf(dev->fw_ver, sizeof(dev->fw_ver), "%.*s",
		 (int)sizeof(attr.fw_ver), attr.fw_ver);
	provider_facts_read(dev->name, attr.vendor_id, driver, sizeof(driver),
			    &facts);
	if (dev->ud == DEVICE_UD_OK &&
	    provider_ud_unsupported(provider_identify(&facts), attr.hw_ver))
		dev->ud = DEVICE_UD_HNS_HIP08;
	dev->ports = calloc(attr.phys_port_cnt, sizeof(*dev->ports));
	if (!dev->ports && attr.phys_port_cnt) {
		snprintf(err, errlen, "out of memory");
		rc = -1;
		goto out;
	}
	for (uint8_t p = 1; p <= attr.phys_port_cnt; p++) {
		struct port_info *port = &dev->ports[dev->port_count];
		struct ibv_port_attr pa;
		char why[DIAG_MSG_MAX];

		if (ibv_query_port(ctx, p, &pa)) {
			device_failed(dev, errno, "cannot query %s port %u: %s",
				      dev->name, p, strerror(errno));
			goto out;
		}
		dev->port_count++;
		port->port_num = p;
		port->state = pa.state;
		port->phys_state = pa.phys_state;
		port->link_layer = pa.link_layer == IBV_LINK_LAYER_ETHERNET
					   ? LINK_LAYER_ETHERNET
					   : LINK_LAYER_IB;
		port->lid = pa.lid;
		port->lmc = pa.lmc;
		port->sm_lid = pa.sm_lid;
		port->sm_sl = pa.sm_sl;
		port->active_mtu = mtu_enum_to_bytes(pa.active_mtu);
		port->max_mtu = mtu_enum_to_bytes(pa.max_mtu);
		port->rate_mbps = port_rate_mbps(pa.active_width,
						 pa.active_speed);
		port->grh_required = pa.flags & IBV_QPF_GRH_REQUIRED;
		port->gid_table_len = pa.gid_tbl_len > 0 ? pa.gid_tbl_len : 0;
		if (verbs_port_gids(ctx, port, why, sizeof(why))) {
			device_failed(dev, errno, "%s", why);
			goto out;
		}
	}
out:
	ibv_close_device(ctx);
	return rc;
}

static int umad_device(const char *ca_name, struct device_info *dev,
		       char *err, size_t errlen)
{
	umad_ca_t ca;

	snprintf(dev->name, sizeof(dev->name), "%.*s", (int)sizeof(dev->name) - 1,
		 ca_name);
	dev->source = DEVICE_FROM_UMAD;
	/* umad serves InfiniBand and RoCE ports only (ib_umad binds to
	 * ports with IB MADs): no iWARP here. */
	dev->node_type = IBV_NODE_CA;
	dev->transport = IBV_TRANSPORT_IB;
	if (umad_get_ca(ca_name, &ca) < 0) {
		device_failed(dev, errno, "cannot query %s through umad: %s",
			      ca_name, strerror(errno));
		return 0;
	}
	snprintf(dev->name, sizeof(dev->name), "%s", ca.ca_name);
	dev->node_guid = be64toh(ca.node_guid);
	snprintf(dev->fw_ver, sizeof(dev->fw_ver), "%.*s",
		 (int)sizeof(ca.fw_ver), ca.fw_ver);
	dev->node_type = ca.node_type > 0 ? (enum ibv_node_type)ca.node_type
					  : IBV_NODE_CA;
	dev->ud = device_ud_support(dev->node_type, dev->transport);
	dev->ports = calloc(ca.numports > 0 ? ca.numports : 1,
			    sizeof(*dev->ports));
	if (!dev->ports) {
		umad_release_ca(&ca);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (int i = 0; i < UMAD_CA_MAX_PORTS; i++) {
		umad_port_t *up = ca.ports[i];
		struct port_info *port;
		uint64_t prefix, guid;

		if (!up || dev->port_count >= (size_t)ca.numports)
			continue;
		port = &dev->ports[dev->port_count++];
		port->port_num = (uint8_t)up->portnum;
		port->state = (enum ibv_port_state)up->state;
		port->phys_state = (uint8_t)up->phys_state;
		port->link_layer = strcmp(up->link_layer, "Ethernet") == 0
					   ? LINK_LAYER_ETHERNET
					   : LINK_LAYER_IB;
		port->lid = (uint16_t)up->base_lid;
		port->lmc = (uint8_t)up->lmc;
		port->sm_lid = (uint16_t)up->sm_lid;
		port->sm_sl = (uint8_t)up->sm_sl;
		port->rate_mbps = up->rate * 1000;
		/* umad shows only GID 0: the port's subnet prefix and GUID. */
		port->gids = calloc(1, sizeof(*port->gids));
		if (!port->gids) {
			umad_release_ca(&ca);
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		prefix = be64toh(up->gid_prefix);
		guid = be64toh(up->port_guid);
		for (int b = 0; b < 8; b++) {
			port->gids[0].gid.raw[b] = (uint8_t)(prefix >> (56 - 8 * b));
			port->gids[0].gid.raw[8 + b] =
				(uint8_t)(guid >> (56 - 8 * b));
		}
		port->gids[0].kind = GID_KIND_IB;
		port->gid_count = 1;
		port->gid_table_len = 1;
	}
	umad_release_ca(&ca);
	return 0;
}

static struct device_info *list_append(struct device_list *list)
{
	struct device_info *grown;

	grown = realloc(list->devices, (list->count + 1) * sizeof(*grown));
	if (!grown)
		return NULL;
	list->devices = grown;
	memset(&grown[list->count], 0, sizeof(*grown));
	return &grown[list->count++];
}

static int discover_verbs(struct device_list *list, const char *only,
			  bool *seen_any, char *err, size_t errlen)
{
	struct ibv_device **devs;
	int n, rc = 0;

	devs = ibv_get_device_list(&n);
	if (!devs)
		return 0;	/* no uverbs at all: let umad try */
	*seen_any = n > 0;
	for (int i = 0; i < n && rc == 0; i++) {
		struct device_info *dev;

		if (only && strcmp(only, ibv_get_device_name(devs[i])) != 0)
			continue;
		dev = list_append(list);
		if (!dev) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
			break;
		}
		rc = verbs_device(devs[i], dev, err, errlen);
		/* One bad device does not hide the others. */
		if (rc == 0 && dev->error[0])
			diag_warn("skipping %s: %s", dev->name, dev->error);
	}
	ibv_free_device_list(devs);
	return rc;
}

static int discover_umad(struct device_list *list, const char *only,
			 bool *seen_any, char *err, size_t errlen)
{
	char names[UMAD_MAX_DEVICES][UMAD_CA_NAME_LEN];
	int n;

	if (umad_init() < 0)
		return 0;
	n = umad_get_cas_names(names, UMAD_MAX_DEVICES);
	for (int i = 0; i < n; i++) {
		struct device_info *dev;
		umad_ca_t probe;

		/* Without sysfs, libibumad offers a default name that does
		 * not exist: count only CAs that answer. */
		if (umad_get_ca(names[i], &probe) < 0)
			continue;
		umad_release_ca(&probe);
		*seen_any = true;
		if (only && strcmp(only, names[i]) != 0)
			continue;
		dev = list_append(list);
		if (!dev) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
		if (umad_device(names[i], dev, err, errlen))
			return -1;
		if (dev->error[0])
			diag_warn("skipping %s: %s", dev->name, dev->error);
	}
	return 0;
}

int device_discover(struct device_list *list, const char *only_device,
		    char *err, size_t errlen)
{
	bool seen_any = false;

	memset(list, 0, sizeof(*list));
	if (discover_verbs(list, only_device, &seen_any, err, errlen))
		goto fail;
	if (!seen_any &&
	    discover_umad(list, only_device, &seen_any, err, errlen))
		goto fail;
	if (!seen_any) {
		snprintf(err, errlen,
			 "no RDMA device %s%s%sfound: neither libibverbs nor "
			 "libibumad sees one (is the driver loaded? "
			 "'rdma link' and /sys/class/infiniband tell)",
			 only_device ? "named '" : "",
			 only_device ? only_device : "",
			 only_device ? "' " : "");
		goto fail;
	}
	if (list->count == 0) {
		snprintf(err, errlen,
			 "no RDMA device named '%s'; 'ibahprobe ports' lists "
			 "the devices present",
			 only_device);
		goto fail;
	}
	return 0;
fail:
	device_list_free(list);
	return -1;
}

void device_list_free(struct device_list *list)
{
	for (size_t d = 0; d < list->count; d++) {
		for (size_t p = 0; p < list->devices[d].port_count; p++)
			free(list->devices[d].ports[p].gids);
		free(list->devices[d].ports);
	}
	free(list->devices);
	memset(list, 0, sizeof(*list));
}

/* The device's port to use: the one numbered port, or the first ACTIVE. */
static const struct port_info *port_of(const struct device_info *dev,
				       uint8_t port)
{
	for (size_t p = 0; p < dev->port_count; p++) {
		const struct port_info *pi = &dev->ports[p];

		if (port ? pi->port_num == port : pi->state == IBV_PORT_ACTIVE)
			return pi;
	}
	return NULL;
}

/* Why the first candidate was passed over, for the note. A device the
 * user named is no fallback; its own down port is (-d alone leaves the
 * port to us). */
static void note_passed_over(const struct device_info *dev, uint8_t port,
			     char *why, size_t len)
{
	if (dev->error[0])
		snprintf(why, len, "%s could not be read", dev->name);
	else if (dev->ud != DEVICE_UD_OK)
		snprintf(why, len, "%s cannot run UD probes (%s)", dev->name,
			 device_ud_reason(dev->ud));
	else if (port)
		snprintf(why, len, "%s has no port %u", dev->name, port);
	else if (dev->port_count == 0)
		snprintf(why, len, "%s has no port", dev->name);
	else
		snprintf(why, len, "%s port %u is %s", dev->name,
			 dev->ports[0].port_num,
			 port_state_name(dev->ports[0].state));
}

const struct port_info *device_pick_port(const struct device_list *list,
					 const char *device, uint8_t port,
					 const struct device_info **dev_out,
					 char *note, size_t notelen,
					 char *err, size_t errlen)
{
	size_t skipped = 0, candidates = 0;
	char why[160] = "", first[DIAG_MSG_MAX] = "";

	if (note && notelen)
		note[0] = '\0';
	for (size_t d = 0; d < list->count; d++) {
		const struct device_info *dev = &list->devices[d];
		const struct port_info *pi;

		if (device && strcmp(device, dev->name) != 0)
			continue;
		/* Asked for by name: say why it cannot serve. */
		if (device && dev->error[0]) {
			snprintf(err, errlen, "%s", dev->error);
			return NULL;
		}
		if (device && dev->ud != DEVICE_UD_OK) {
			snprintf(err, errlen, "%s is an %s device: %s; "
				 "'ibahprobe ports' lists the devices",
				 dev->name, device_transport_name(dev->transport),
				 device_ud_reason(dev->ud));
			return NULL;
		}
		/* Everything not taken from here on was passed over: the
		 * first of it is what the user would have expected. */
		if (candidates++ == 0)
			note_passed_over(dev, port, first, sizeof(first));
		/* Chosen automatically: never one that failed or cannot
		 * run UD, so a broken or iWARP device first in the list
		 * does not take the place of a good one. */
		if (dev->error[0] || dev->ud != DEVICE_UD_OK) {
			if (!skipped++)
				snprintf(why, sizeof(why), " (%s skipped: %s)",
					 dev->name, dev->error[0]
						 ? "it could not be read"
						 : device_ud_reason(dev->ud));
			continue;
		}
		pi = port_of(dev, port);
		if (pi) {
			*dev_out = dev;
			/* No silent fallback: the first device's first port
			 * (or port -P) is what a user expects; anything else
			 * is said. */
			if (note && notelen &&
			    (candidates > 1 ||
			     (!port && pi != &dev->ports[0])))
				snprintf(note, notelen, "using %s port %u: %s",
					 dev->name, pi->port_num, first);
			return pi;
		}
		if (port && device) {
			snprintf(err, errlen,
				 "%s has no port %u; 'ibahprobe ports' lists "
				 "its ports",
				 dev->name, port);
			return NULL;
		}
	}
	if (port)
		snprintf(err, errlen, "no device has a port %u%s; 'ibahprobe "
			 "ports' lists the ports", port, why);
	else
		snprintf(err, errlen,
			 "no ACTIVE port%s%s%s; 'ibahprobe ports' shows the port "
			 "states (is the link up, and is a subnet manager "
			 "running?)",
			 device ? " on " : "", device ? device : "", why);
	return NULL;
}

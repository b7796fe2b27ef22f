/* The fleet port audit (report --ports): `ports -j` documents of many
 * hosts read into one list of ports, and where the fleet agrees and where
 * not on the values a fleet-wide setting depends on (the RoCE v2 GID
 * index NCCL_IB_GID_INDEX names, the active MTU, firmware, rate, state). */
#ifndef IBAHPROBE_PORTS_AUDIT_H
#define IBAHPROBE_PORTS_AUDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/gid.h"
#include "verbs/device.h"

#define PORTS_AUDIT_SCHEMA "ibahprobe.report.ports.v1"
/* Bytes of one input file: a host's document is a few KiB, a fleet's
 * concatenation a few MiB. */
#define PORTS_AUDIT_FILE_BYTES_MAX ((size_t)256 << 20)

struct audit_gid {
	uint32_t index;
	char *text;		/* as ports wrote it */
	union ibv_gid gid;
	enum gid_kind kind;
	char *netdev;		/* NULL: none */
	bool vlan_known;	/* false: unreadable, or an older document */
	int vlan_id;		/* -1: no VLAN */
};

/* A netdev of a port and the RoCE v2 GIDs on it: what NCCL_IB_GID_INDEX
 * must name. -1: the netdev has no such GID. */
struct audit_netdev {
	const char *name;	/* the GIDs' string */
	bool vlan_known;
	int vlan_id;
	int v2_ipv4_index, v2_ipv6_index;
};

struct audit_port {
	const char *host, *device;	/* owned by the audit's strings */
	char *fw_ver;			/* NULL: none given */
	unsigned port_num;
	char *link_layer, *state;
	double rate_gbps;		/* < 0 unknown */
	unsigned active_mtu;		/* 0 unknown */
	unsigned lid, lmc;
	bool pkeys_known;
	size_t pkey_count;
	uint16_t pkeys[128];
	size_t gid_count;
	struct audit_gid *gids;
	size_t netdev_count;
	struct audit_netdev *netdevs;
	/* The lowest index of a routable RoCE v2 GID of each family on the
	 * port; -1 none. */
	int v2_ipv4_index, v2_ipv6_index;
};

/* One value of a fact and who has it. */
struct audit_value {
	char *value;
	size_t count;
	size_t member_count;
	char **members;		/* host, or "host device/port" */
};

enum audit_fact_id {
	AUDIT_FACT_GID_V2_IPV4,	/* per host */
	AUDIT_FACT_GID_V2_IPV6,	/* per host */
	AUDIT_FACT_MTU,		/* per port */
	AUDIT_FACT_FIRMWARE,	/* per device */
	AUDIT_FACT_RATE,	/* per port */
	AUDIT_FACT_STATE,	/* per port */
	AUDIT_FACT_COUNT,
};

struct audit_fact {
	const char *key;	/* JSON: "roce_v2_ipv4_gid_index", ... */
	const char *unit;	/* "host", "port", "device" */
	size_t value_count;
	struct audit_value *values;	/* most common first */
	bool pinned;		/* an --expect-* names the value */
	char *expected;
	/* Members not at the expected value. For the RoCE v2 IPv4 GID
	 * index: hosts where the GID at that index is no routable RoCE v2
	 * IPv4 GID on some RoCE port (a fleet-wide NCCL_IB_GID_INDEX fails
	 * there), whatever their lowest such index. */
	size_t disagreeing;
	/* The RoCE v2 IPv4 GID index alone: the index a fleet-wide setting
	 * takes (the expected one, else the most common), and on how many
	 * hosts it fails, as above. -1 / 0 when none. */
	long target_index;
	size_t target_failing;
};

struct ports_audit {
	size_t port_count, port_cap;
	struct audit_port *ports;
	size_t host_count;
	char **hosts;		/* in input order, each once */
	size_t device_count;	/* devices read, errors included */
	size_t device_errors;
	char **warnings;	/* devices that could not be read */
	size_t warning_count;
	struct audit_fact facts[AUDIT_FACT_COUNT];
	/* Pins: -1 none. */
	long expect_gid_index, expect_mtu;
};

void ports_audit_init(struct ports_audit *a);
void ports_audit_free(struct ports_audit *a);

/* Adds every `ports -j` document in len bytes of buf (one JSON array of
 * devices each, any number concatenated) to a. 0, or -1 with
 * "LABEL: document N: what is wrong" in err (a host given twice too). */
int ports_audit_read(struct ports_audit *a, const char *label,
		     const char *buf, size_t len, char *err, size_t errlen);
/* Reads f whole (at most PORTS_AUDIT_FILE_BYTES_MAX) and adds it. */
int ports_audit_read_stream(struct ports_audit *a, const char *label, FILE *f,
			    char *err, size_t errlen);

/* The consensus of each fact, after the last read. 0, or -1 when memory
 * ran out. An input with no port is an error (-1, err set). */
int ports_audit_build(struct ports_audit *a, char *err, size_t errlen);

/* Whether a routable GID: RoCE v2 or IB, and not link-local (RoCE v1 is
 * not routed; fe80:: never leaves the link). */
bool audit_gid_routable(const struct audit_gid *g);

/* Hosts on which GID index names no routable RoCE v2 IPv4 GID on some
 * RoCE port: where NCCL_IB_GID_INDEX=index fails. */
size_t ports_audit_index_fails(const struct ports_audit *a, long index);

/* Whether every pinned fact holds its expected value everywhere. */
bool ports_audit_as_expected(const struct ports_audit *a);

/* The value the fleet-wide setting would take (the most common, ties to
 * the first seen), NULL when the fact has no value. */
const struct audit_value *audit_fact_majority(const struct audit_fact *f);

#endif

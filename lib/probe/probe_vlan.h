/* The VLAN and priority (PCP, the PFC class) of a result: what the probes
 * left with (vlan_priority_sent over the source GID's netdev and its
 * egress map) and what the responder saw arrive (the reply's VLAN tag),
 * a mismatch named, and unknown said with its reason. The netdevs are
 * read once per run (probe_vlans_read); the judgement is pure. */
#ifndef IBAHPROBE_PROBE_VLAN_H
#define IBAHPROBE_PROBE_VLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe/probe_engine.h"
#include "verbs/ah_attr.h"
#include "verbs/provider.h"
#include "verbs/vlan_egress.h"
#include "wire/probe_wire.h"

/* The VLAN netdev of each of the probing port's GIDs, by GID index. */
struct probe_vlans {
	size_t count;
	struct probe_vlan_gid {
		uint32_t gid_index;
		struct vlan_netdev netdev;
	} *gids;
};

/* Reads /proc/net/vlan for the netdev of every GID in facts; a netdev
 * whose file cannot be read counts as no VLAN. -1 when out of memory. */
int probe_vlans_read(struct probe_vlans *pv,
		     const struct ah_port_facts *facts);
void probe_vlans_free(struct probe_vlans *pv);
/* The netdev facts of a GID index, NULL when not known. */
const struct vlan_netdev *probe_vlans_of(const struct probe_vlans *pv,
					 uint32_t gid_index);

struct probe_vlan_judgement {
	struct priority_sent sent;
	bool vlan_seen_known;
	uint16_t vlan_seen;	/* 0: untagged or priority-tagged */
	bool pcp_seen_known;
	uint8_t pcp_seen;
	char seen_why[160];	/* "" when both are known */
	bool mismatch;
	char mismatch_text[240];
};

struct probe_vlan_input {
	enum provider provider;
	bool roce;		/* the probing port is Ethernet */
	uint8_t ah_sl;
	const char *netdev;	/* the source GID's; NULL or "" none */
	const struct vlan_netdev *vlan;	/* its facts; NULL: no VLAN */
	bool replied;		/* observed holds a reply's facts */
	const struct probe_observed *observed;
	int hops;		/* routers on the way; -1 unknown */
};

/* Why the VLAN or PCP the responder saw is not known, "" when both are:
 * InfiniBand, no reply, an older responder, a device without CVLAN, a
 * device that reports the VID alone. */
const char *probe_vlan_seen_why(bool roce, bool replied,
				const struct probe_observed *o);

void probe_vlan_judge(const struct probe_vlan_input *in,
		      struct probe_vlan_judgement *out);

/* probe_vlan_judge for a cell of session s: its AH's SL and source GID,
 * the session's provider, its last reply; hops from its verdict (-1:
 * unknown). pv NULL: no netdev facts (every netdev taken as no VLAN). */
void probe_vlan_of_cell(const struct probe_session *s,
			const struct probe_vlans *pv,
			const struct probe_cell *c, int hops,
			struct probe_vlan_judgement *out);

#endif

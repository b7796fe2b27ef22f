/* serve's VLAN facts: which VLAN each of the port's GIDs sits on, the VLAN
 * tag a request arrived with (reported in the reply), and the reply's
 * source GID chosen by it (gid_vlan_pick), so a reply to a link-local GID
 * leaves on the VLAN its request came in on. */
#ifndef IBAHPROBE_RESPONDER_VLAN_H
#define IBAHPROBE_RESPONDER_VLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "verbs/device.h"
#include "verbs/gid_vlan.h"
#include "verbs/provider.h"
#include "verbs/ud_endpoint.h"
#include "wire/probe_wire.h"

struct responder_vlan {
	struct gid_vlan_entry *gids;	/* the port's, netdev names in it */
	size_t count;
	bool cvlan;		/* the CQ reports receives' VLAN tags */
	bool pcp_in_cvlan;	/* ... with the PCP (provider_cvlan_has_pcp) */
	const char *why_not;	/* !cvlan: why (for -v) */
};

/* Reads the VLAN of every GID's netdev (/proc/net/vlan); -1 when out of
 * memory. A netdev whose file does not parse counts as no VLAN, said at
 * -v. */
int responder_vlan_load(struct responder_vlan *rv,
			const struct port_info *port,
			const struct ud_endpoint *ep, enum provider provider);
void responder_vlan_free(struct responder_vlan *rv);

/* The request's VLAN tag into what the reply reports. */
void responder_vlan_observe(const struct responder_vlan *rv,
			    const struct ud_completion *c,
			    struct probe_observed *o);

/* The VLAN a reply AH is keyed and chosen by: the request's VID, or
 * VLAN_ID_NONE when untagged or not known. */
uint16_t responder_vlan_key(const struct probe_observed *o);

/* The reply's source: the position in port->gids of the GID the request
 * reached, chosen by its VLAN where several netdevs hold that GID
 * (gid_vlan_pick); says at -v when the VLAN cannot tell them apart.
 * next_header: the received IPv6 header's (RoCE v1 or v2). -1 when no
 * GID of ours equals the request's DGID. *by_vlan: the choice differs
 * from libibverbs' first equal GID. */
long responder_vlan_reply_gid(const struct responder_vlan *rv,
			      const struct probe_observed *o,
			      uint8_t next_header, bool *by_vlan);

#endif

/* serve's VLAN facts and the reply's source GID by VLAN; see
 * responder_vlan.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "base/gid.h"
#include "peer/responder_vlan.h"
#include "verbs/vlan_egress.h"
#include "verbs/wc_vlan.h"

int responder_vlan_load(struct responder_vlan *rv,
			const struct port_info *port,
			const struct ud_endpoint *ep, enum provider provider)
{
	struct gid_vlan_entry *gids = calloc(port->gid_count + 1,
					     sizeof(*gids));

	if (!gids)
		return -1;
	for (size_t i = 0; i < port->gid_count; i++) {
		const struct gid_info *g = &port->gids[i];
		struct vlan_netdev nd;
		char err[200];

		gids[i] = (struct gid_vlan_entry){
			.index = g->index, .gid = g->gid, .kind = g->kind,
			.netdev = g->netdev, .vlan_id = VLAN_ID_NONE,
		};
		if (!g->netdev[0])
			continue;
		if (vlan_netdev_read(g->netdev, &nd, err, sizeof(err)))
			diag_verbose(1, "VLAN of %s not known: %s", g->netdev,
				     err);
		else
			gids[i].vlan_id = nd.vid;
	}
	free(rv->gids);
	rv->gids = gids;
	rv->count = port->gid_count;
	rv->cvlan = ep->cvlan;
	rv->pcp_in_cvlan = provider_cvlan_has_pcp(provider);
	rv->why_not = port->link_layer == LINK_LAYER_ETHERNET
			      ? ep->cvlan_why_not
			      : "an InfiniBand port has no VLANs";
	return 0;
}

void responder_vlan_free(struct responder_vlan *rv)
{
	free(rv->gids);
	rv->gids = NULL;
	rv->count = 0;
}

void responder_vlan_observe(const struct responder_vlan *rv,
			    const struct ud_completion *c,
			    struct probe_observed *o)
{
	struct wc_vlan v;

	o->vlan_reporter = true;
	if (!c->cvlan_valid)
		return;
	wc_vlan_decode(c->cvlan, rv->pcp_in_cvlan, &v);
	o->vlan_known = v.known;
	o->vlan_id = v.vid;
	o->pcp_known = v.pcp_known;
	o->pcp = v.pcp;
}

uint16_t responder_vlan_key(const struct probe_observed *o)
{
	return o->vlan_known && o->vlan_id ? o->vlan_id : VLAN_ID_NONE;
}

/* "eth0, eth0.100" of the entries equal to the chosen one's GID. */
static void list_netdevs(const struct responder_vlan *rv, size_t chosen,
			 char *out, size_t len)
{
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; i < rv->count && used < len; i++) {
		if (rv->gids[i].kind != rv->gids[chosen].kind ||
		    memcmp(rv->gids[i].gid.raw, rv->gids[chosen].gid.raw, 16))
			continue;
		used += (size_t)snprintf(out + used, len - used, "%s%s",
					 used ? ", " : "",
					 rv->gids[i].netdev);
	}
}

long responder_vlan_reply_gid(const struct responder_vlan *rv,
			      const struct probe_observed *o,
			      uint8_t next_header, bool *by_vlan)
{
	enum gid_kind kind = gid_vlan_kind_of_packet(o->grh_ipv4, next_header);
	char gid[GID_TEXT_MAX], netdevs[128];
	size_t chosen, first, candidates;
	enum gid_vlan_outcome outcome;

	*by_vlan = false;
	if (!o->grh_present)
		return -1;
	/* libibverbs' answer: the first equal GID of the type. */
	if (gid_vlan_pick(rv->gids, rv->count, &o->dgid, kind, false, 0,
			  &first, &candidates) == GID_VLAN_NOT_FOUND)
		return -1;
	outcome = gid_vlan_pick(rv->gids, rv->count, &o->dgid, kind,
				o->vlan_known, o->vlan_id, &chosen,
				&candidates);
	if (outcome == GID_VLAN_ONLY_ONE)
		return (long)chosen;
	gid_format(&o->dgid, gid, sizeof(gid));
	list_netdevs(rv, chosen, netdevs, sizeof(netdevs));
	switch (outcome) {
	case GID_VLAN_MATCHED:
		*by_vlan = chosen != first;
		diag_verbose(2, "reply to qp 0x%x from %s on %s (index %u): "
			     "the request came on VLAN %u",
			     o->src_qp, gid, rv->gids[chosen].netdev,
			     rv->gids[chosen].index, o->vlan_id);
		break;
	case GID_VLAN_AMBIGUOUS:
		diag_verbose(1, "reply to qp 0x%x: %s is on %s and the VLAN "
			     "the request came on is not known (%s): "
			     "answering from %s (index %u), the first, as "
			     "ibv_init_ah_from_wc does",
			     o->src_qp, gid, netdevs,
			     rv->why_not && rv->why_not[0] ? rv->why_not
							   : "no tag reported",
			     rv->gids[chosen].netdev, rv->gids[chosen].index);
		break;
	case GID_VLAN_NO_NETDEV:
		diag_verbose(1, "reply to qp 0x%x: the request came on VLAN "
			     "%u, but none of %s holding %s is on it: "
			     "answering from %s (index %u), the first",
			     o->src_qp, o->vlan_id, netdevs, gid,
			     rv->gids[chosen].netdev, rv->gids[chosen].index);
		break;
	case GID_VLAN_NOT_FOUND:
	case GID_VLAN_ONLY_ONE:
		break;
	}
	return (long)chosen;
}

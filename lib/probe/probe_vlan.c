/* The VLAN and priority of a result; see probe_vlan.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "probe/probe_vlan.h"

int probe_vlans_read(struct probe_vlans *pv,
		     const struct ah_port_facts *facts)
{
	pv->count = 0;
	pv->gids = calloc(facts->gid_count + 1, sizeof(*pv->gids));
	if (!pv->gids)
		return -1;
	for (size_t i = 0; i < facts->gid_count; i++) {
		const struct gid_info *g = &facts->gids[i];
		struct probe_vlan_gid *v = &pv->gids[pv->count++];
		char err[200];

		v->gid_index = g->index;
		if (!g->netdev[0]) {
			v->netdev.vid = VLAN_ID_NONE;
			continue;
		}
		if (vlan_netdev_read(g->netdev, &v->netdev, err, sizeof(err)))
			diag_verbose(1, "VLAN of %s not known: %s", g->netdev,
				     err);
	}
	return 0;
}

void probe_vlans_free(struct probe_vlans *pv)
{
	free(pv->gids);
	pv->gids = NULL;
	pv->count = 0;
}

const struct vlan_netdev *probe_vlans_of(const struct probe_vlans *pv,
					 uint32_t gid_index)
{
	for (size_t i = 0; pv && i < pv->count; i++)
		if (pv->gids[i].gid_index == gid_index)
			return &pv->gids[i].netdev;
	return NULL;
}

const char *probe_vlan_seen_why(bool roce, bool replied,
				const struct probe_observed *o)
{
	const char *why = "";

	if (!roce)
		why = "InfiniBand has no VLANs";
	else if (!replied || !o)
		why = "no reply";
	else if (!o->vlan_reporter)
		why = "the responder does not report VLAN tags (an older "
		      "serve)";
	else if (!o->vlan_known)
		why = "the responder's device does not report the VLAN tag "
		      "of a receive (no IBV_WC_EX_WITH_CVLAN, as rxe)";
	else if (!o->pcp_known)
		why = "the responder's device reports the VLAN id but not the "
		      "priority";
	return why;
}

void probe_vlan_judge(const struct probe_vlan_input *in,
		      struct probe_vlan_judgement *out)
{
	const struct probe_observed *o = in->observed;
	char routers[64] = "";

	memset(out, 0, sizeof(*out));
	if (in->roce)
		vlan_priority_sent(in->provider, in->ah_sl, in->netdev,
				   in->vlan, &out->sent);
	else
		snprintf(out->sent.why, sizeof(out->sent.why),
			 "InfiniBand has no VLANs: the SL is the class");
	snprintf(out->seen_why, sizeof(out->seen_why), "%s",
		 probe_vlan_seen_why(in->roce, in->replied, o));
	if (in->roce && in->replied && o && o->vlan_reporter &&
	    o->vlan_known) {
		out->vlan_seen_known = true;
		out->vlan_seen = o->vlan_id;
		out->pcp_seen_known = o->pcp_known;
		out->pcp_seen = o->pcp;
	}
	if (!out->sent.known || !out->pcp_seen_known ||
	    out->sent.pcp == out->pcp_seen)
		return;
	/* Routers tag anew from the DSCP (trust DSCP): a different PCP
	 * behind one is their choice, still worth naming. */
	if (in->hops > 0)
		snprintf(routers, sizeof(routers), " behind %d router%s",
			 in->hops, in->hops == 1 ? "" : "s");
	out->mismatch = true;
	if (out->vlan_seen) {
		snprintf(out->mismatch_text, sizeof(out->mismatch_text),
			 "sent priority %u on VLAN %u, arrived priority %u on "
			 "VLAN %u%s: the PFC class was not kept",
			 out->sent.pcp, out->sent.vid, out->pcp_seen,
			 out->vlan_seen, routers);
	} else {
		snprintf(out->mismatch_text, sizeof(out->mismatch_text),
			 "sent priority %u on VLAN %u, arrived priority %u%s: "
			 "the PFC class was not kept",
			 out->sent.pcp, out->sent.vid, out->pcp_seen, routers);
	}
}

void probe_vlan_of_cell(const struct probe_session *s,
			const struct probe_vlans *pv,
			const struct probe_cell *c, int hops,
			struct probe_vlan_judgement *out)
{
	const struct gid_info *sgid = NULL;
	struct probe_vlan_input in = {
		.provider = s->provider,
		.roce = s->facts.link_layer == LINK_LAYER_ETHERNET,
		.ah_sl = c->attr.sl,
		.replied = c->observed_valid,
		.observed = &c->last_reply.observed,
		.hops = hops,
	};

	if (c->attr.is_global) {
		sgid = ah_facts_gid(&s->facts, c->attr.grh.sgid_index);
		in.vlan = probe_vlans_of(pv, c->attr.grh.sgid_index);
	}
	in.netdev = sgid ? sgid->netdev : NULL;
	probe_vlan_judge(&in, out);
}

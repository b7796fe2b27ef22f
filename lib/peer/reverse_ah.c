/* Reverse-path keys and the reply AH's finishing touches; see reverse_ah.h. */
#include <string.h>

#include "verbs/provider.h"
#include "peer/reverse_ah.h"

/* The traffic class a reply takes from a received one: on RoCE the DSCP
 * only. libibverbs' ibv_init_ah_from_wc (set_ah_attr_by_ipv4 and
 * set_ah_attr_generic_fields) copies the whole TOS / Traffic Class byte,
 * ECN bits included, so a probe marked CE on the way would get a reply
 * that leaves CE-marked (a congestion signal the reply never met), and a
 * key with the ECN bits would make one reply AH per codepoint. The ECN
 * the probe arrived with travels back as an observation
 * (probe_observed.traffic_class), which the prober judges. On InfiniBand
 * the traffic class has no ECN field: kept whole. */
static uint8_t reply_traffic_class(uint8_t received,
				   enum link_layer link_layer)
{
	return link_layer == LINK_LAYER_ETHERNET
		       ? received & (uint8_t)~GRH_TCLASS_ECN_MASK
		       : received;
}

void reverse_key_build(const struct ibv_wc *wc, const struct grh_fields *grh,
		       enum link_layer link_layer, uint8_t asked_sl,
		       struct reverse_key *key)
{
	memset(key, 0, sizeof(*key));
	key->slid = wc->slid;
	key->sl = provider_wc_sl_is_sl(link_layer) ? wc->sl : asked_sl & 0xf;
	key->dlid_path_bits = wc->dlid_path_bits;
	if (!grh || !grh->present)
		return;
	key->global = true;
	key->ipv4 = grh->form == GRH_FORM_IPV4;
	key->traffic_class = reply_traffic_class(grh->traffic_class,
						 link_layer);
	key->flow_label = grh->flow_label;
	key->sgid = grh->sgid;
	key->dgid = grh->dgid;
}

bool reverse_key_equal(const struct reverse_key *a,
		       const struct reverse_key *b)
{
	return a->slid == b->slid && a->sl == b->sl &&
	       a->dlid_path_bits == b->dlid_path_bits &&
	       a->global == b->global && a->ipv4 == b->ipv4 &&
	       a->traffic_class == b->traffic_class &&
	       a->flow_label == b->flow_label && a->vlan_id == b->vlan_id &&
	       memcmp(a->sgid.raw, b->sgid.raw, 16) == 0 &&
	       memcmp(a->dgid.raw, b->dgid.raw, 16) == 0;
}

void reverse_ah_finish(struct ibv_ah_attr *attr, enum link_layer link_layer,
		       uint8_t asked_sl)
{
	if (attr->is_global) {
		attr->grh.hop_limit = REVERSE_HOP_LIMIT;
		attr->grh.traffic_class =
			reply_traffic_class(attr->grh.traffic_class, link_layer);
	}
	if (link_layer == LINK_LAYER_ETHERNET) {
		/* The SL byte comes off the wire: 4 bits at most. */
		attr->sl = asked_sl & 0xf;
		attr->dlid = 0;
		attr->src_path_bits = 0;
	}
}

bool reverse_hop_limit_sent(const struct reverse_hop_limit_input *in,
			    uint8_t *sent)
{
	if (!in->is_global)
		return false;
	switch (in->rule) {
	case HOP_LIMIT_RULE_AH:
		*sent = in->ah_hop_limit;
		return true;
	case HOP_LIMIT_RULE_ROUTE:
		if (!in->route_known)
			return false;
		*sent = in->route_hop_limit;
		return true;
	case HOP_LIMIT_RULE_UNKNOWN:
		break;
	}
	return false;
}

/* The reply AH of a probe received through a group; see
 * reverse_mcast_ah.h. */
#include <string.h>

#include "base/gid.h"
#include "base/mcast_spec.h"
#include "peer/reverse_mcast_ah.h"

/* The IPv6 next header of RoCE v1's GRH: the IB BTH follows (IBA A16.4);
 * RoCE v2 over IPv6 carries UDP (17) there. */
#define GRH_NEXT_HEADER_BTH 0x1b

/* How well a candidate fits the sender: same /64 prefix best, then the
 * same scope, then any. */
static int fit(const union ibv_gid *ours, const union ibv_gid *sender)
{
	if (memcmp(ours->raw, sender->raw, 8) == 0)
		return 2;
	return gid_is_link_local(ours) == gid_is_link_local(sender) ? 1 : 0;
}

static bool candidate(const struct gid_info *g, enum link_layer link_layer,
		      const struct grh_fields *grh)
{
	bool mapped = gid_is_ipv4_mapped(&g->gid);

	if (link_layer != LINK_LAYER_ETHERNET)
		return g->kind == GID_KIND_IB;
	if (grh->form == GRH_FORM_IPV4)
		return g->kind == GID_KIND_ROCE_V2 && mapped;
	if (grh->next_header == GRH_NEXT_HEADER_BTH)
		return g->kind == GID_KIND_ROCE_V1 && !mapped;
	return g->kind == GID_KIND_ROCE_V2 && !mapped;
}

static const struct gid_info *pick_sgid(const struct grh_fields *grh,
					const struct gid_info *gids,
					size_t gid_count,
					enum link_layer link_layer)
{
	const struct gid_info *best = NULL;
	int best_fit = -1;

	for (size_t i = 0; i < gid_count; i++) {
		int f;

		if (!candidate(&gids[i], link_layer, grh) ||
		    gid_is_zero(&gids[i].gid))
			continue;
		/* An IPv4-mapped GID has no prefix or scope to match. */
		f = grh->form == GRH_FORM_IPV4 ? 0
					       : fit(&gids[i].gid, &grh->sgid);
		/* InfiniBand: another prefix than the sender's is no
		 * better for scope; index 0, the default GID, wins. */
		if (link_layer != LINK_LAYER_ETHERNET && f < 2)
			f = 0;
		if (f > best_fit) {
			best = &gids[i];
			best_fit = f;
		}
	}
	return best;
}

enum reverse_mcast_result
reverse_mcast_ah_build(const struct grh_fields *grh, const struct ibv_wc *wc,
		       const struct gid_info *gids, size_t gid_count,
		       enum link_layer link_layer, uint8_t port_num,
		       struct ibv_ah_attr *attr, const struct gid_info **chosen)
{
	const struct gid_info *sgid;

	if (!grh || !grh->present || !mcast_gid_is_group(&grh->dgid))
		return REVERSE_MCAST_UNICAST;
	sgid = pick_sgid(grh, gids, gid_count, link_layer);
	if (!sgid)
		return REVERSE_MCAST_NO_SGID;
	memset(attr, 0, sizeof(*attr));
	attr->dlid = wc->slid;
	attr->sl = wc->sl;
	attr->src_path_bits = 0;
	attr->port_num = port_num;
	attr->is_global = 1;
	attr->grh.dgid = grh->sgid;
	attr->grh.flow_label = grh->flow_label;
	attr->grh.traffic_class = grh->traffic_class;
	attr->grh.hop_limit = grh->hop_limit;
	attr->grh.sgid_index = (uint8_t)sgid->index;
	*chosen = sgid;
	return REVERSE_MCAST_BUILT;
}

/* Source GID selection; see sgid_select.h for the order of preference. */
#include <stdio.h>
#include <string.h>

#include "gid.h"
#include "sgid_select.h"

static int roce_score(const struct gid_info *g, const union ibv_gid *dgid)
{
	bool want_v4 = gid_is_ipv4_mapped(dgid);
	int score = 0;

	if (gid_is_ipv4_mapped(&g->gid) != want_v4)
		return -1;	/* RoCE v2 cannot mix IPv4 and IPv6 */
	if (!want_v4 && gid_is_link_local(&g->gid) != gid_is_link_local(dgid))
		return -1;	/* fe80:: does not cross a router */
	if (g->kind == GID_KIND_ROCE_V2)
		score += 2;
	else if (g->kind == GID_KIND_ROCE_V1)
		score += 1;
	else
		return -1;
	return score;
}

int sgid_select(const struct ah_port_facts *facts, const union ibv_gid *dgid,
		uint8_t *index, char *reason, size_t len)
{
	const struct gid_info *best = NULL;
	int best_score = -1;

	if (!facts->gid_table_known) {
		*index = 0;
		snprintf(reason, len, "GID table unknown (no device): index 0");
		return 0;
	}
	if (facts->link_layer != LINK_LAYER_ETHERNET) {
		for (size_t i = 0; i < facts->gid_count; i++) {
			if (memcmp(facts->gids[i].gid.raw, dgid->raw, 8) == 0) {
				*index = (uint8_t)facts->gids[i].index;
				snprintf(reason, len, "IB GID with the "
					 "destination's subnet prefix");
				return 0;
			}
		}
		*index = 0;
		snprintf(reason, len, "IB: GID 0, the port GID");
		return 0;
	}
	for (size_t i = 0; i < facts->gid_count; i++) {
		int score = roce_score(&facts->gids[i], dgid);

		if (score > best_score && facts->gids[i].index <= 255) {
			best = &facts->gids[i];
			best_score = score;
		}
	}
	if (!best) {
		snprintf(reason, len,
			 "no RoCE GID of the destination's family (%s%s) on "
			 "port %u; 'ibahprobe ports' lists the GID table",
			 gid_is_ipv4_mapped(dgid) ? "IPv4" : "IPv6",
			 gid_is_ipv4_mapped(dgid) ? ""
			 : gid_is_link_local(dgid) ? ", link-local"
						   : ", not link-local",
			 facts->port_num);
		return -1;
	}
	*index = (uint8_t)best->index;
	snprintf(reason, len, "%s %s GID%s%s", gid_kind_name(best->kind),
		 gid_is_ipv4_mapped(dgid) ? "IPv4" : "IPv6",
		 best->netdev[0] ? " on " : "", best->netdev);
	return 0;
}

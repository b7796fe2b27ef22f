/* The reply's source GID by the VLAN a request arrived on; see
 * gid_vlan.h. */
#include <netinet/in.h>
#include <string.h>

#include "verbs/gid_vlan.h"
#include "verbs/vlan_egress.h"

enum gid_vlan_outcome gid_vlan_pick(const struct gid_vlan_entry *t, size_t n,
				    const union ibv_gid *gid,
				    enum gid_kind kind, bool vlan_known,
				    uint16_t vlan_id, size_t *chosen,
				    size_t *candidates)
{
	uint16_t want = vlan_id == 0 ? VLAN_ID_NONE : vlan_id;
	bool found = false, matched = false;

	*candidates = 0;
	*chosen = 0;
	for (size_t i = 0; i < n; i++) {
		if (t[i].kind != kind || memcmp(t[i].gid.raw, gid->raw, 16))
			continue;
		if (!found) {
			found = true;
			*chosen = i;	/* libibverbs' choice: the first */
		}
		(*candidates)++;
		if (vlan_known && !matched && t[i].vlan_id == want) {
			matched = true;
			*chosen = i;
		}
	}
	if (!found)
		return GID_VLAN_NOT_FOUND;
	if (*candidates == 1)
		return GID_VLAN_ONLY_ONE;
	if (!vlan_known)
		return GID_VLAN_AMBIGUOUS;
	return matched ? GID_VLAN_MATCHED : GID_VLAN_NO_NETDEV;
}

enum gid_kind gid_vlan_kind_of_packet(bool grh_ipv4, uint8_t next_header)
{
	return grh_ipv4 || next_header == IPPROTO_UDP ? GID_KIND_ROCE_V2
						      : GID_KIND_ROCE_V1;
}

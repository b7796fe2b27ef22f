/* The VLAN tag of a receive completion; see wc_vlan.h. */
#include "verbs/wc_vlan.h"

bool provider_cvlan_has_pcp(enum provider p)
{
	return p == PROVIDER_MLX5;
}

void wc_vlan_decode(uint16_t cvlan, bool has_pcp, struct wc_vlan *out)
{
	out->known = true;
	out->vid = cvlan & 0x0fff;
	out->pcp_known = has_pcp;
	out->pcp = has_pcp ? (uint8_t)(cvlan >> 13) : 0;
}

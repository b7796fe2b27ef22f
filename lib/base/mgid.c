/* IPoIB multicast GIDs from a P_Key; layout in mgid.h. */
#include <stdbool.h>
#include <string.h>

#include "base/mgid.h"

void ipoib_mgid(enum ipoib_group group, uint16_t pkey, uint8_t scope,
		union ibv_gid *mgid)
{
	uint16_t signature = group == IPOIB_GROUP_IPV6_ALL_NODES
				     ? IPOIB_SIGNATURE_IPV6
				     : IPOIB_SIGNATURE_IPV4;

	pkey |= 0x8000;
	memset(mgid, 0, sizeof(*mgid));
	mgid->raw[0] = 0xff;
	mgid->raw[1] = (uint8_t)(0x10 | (scope & 0x0f));
	mgid->raw[2] = (uint8_t)(signature >> 8);
	mgid->raw[3] = (uint8_t)signature;
	mgid->raw[4] = (uint8_t)(pkey >> 8);
	mgid->raw[5] = (uint8_t)pkey;
	if (group == IPOIB_GROUP_IPV6_ALL_NODES) {
		mgid->raw[15] = 0x01;
	} else {
		memset(mgid->raw + 12, 0xff, 4);
	}
}

uint8_t mgid_scope(const union ibv_gid *mgid)
{
	return mgid->raw[1] & 0x0f;
}

bool mgid_is_ipoib(const union ibv_gid *mgid, uint16_t *pkey)
{
	uint16_t signature = (uint16_t)(mgid->raw[2] << 8 | mgid->raw[3]);

	if (mgid->raw[0] != 0xff || (signature != IPOIB_SIGNATURE_IPV4 &&
				     signature != IPOIB_SIGNATURE_IPV6))
		return false;
	if (pkey)
		*pkey = (uint16_t)(mgid->raw[4] << 8 | mgid->raw[5]);
	return true;
}

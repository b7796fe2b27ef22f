/* InfiniBand target decisions: see ib_target.h. */
#include <stdio.h>
#include <string.h>

#include "base/gid.h"
#include "sa/ib_target.h"

static bool is_ib_type(const char *type)
{
	return strcmp(type, "IB") == 0;
}

int ib_responder_dgid(const struct responder_info *info,
		      const union ibv_gid *named, union ibv_gid *dgid,
		      bool *listed, char *why, size_t len)
{
	int best = -1;

	*listed = false;
	if (named) {
		*dgid = *named;
		for (size_t i = 0; i < info->gid_count; i++)
			if (memcmp(info->gids[i].gid.raw, named->raw, 16) == 0)
				*listed = true;
		snprintf(why, len, "as given%s",
			 *listed ? "" : ", not among the responder's GIDs");
		return 0;
	}
	/* An IPv4-mapped entry is never an IB port GID, whatever its type
	 * says: the responder's ibv_init_ah_from_wc would not find it. */
	for (size_t i = 0; i < info->gid_count; i++)
		if (is_ib_type(info->gids[i].type) &&
		    !gid_is_ipv4_mapped(&info->gids[i].gid) &&
		    !gid_is_zero(&info->gids[i].gid) &&
		    (best < 0 || info->gids[i].index < info->gids[best].index))
			best = (int)i;
	if (best < 0) {
		snprintf(why, len, "the responder (%s port %u, link layer %s) "
			 "advertises no InfiniBand GID%s",
			 info->device[0] ? info->device : "?", info->port_num,
			 info->link_layer[0] ? info->link_layer : "unknown",
			 strcmp(info->link_layer, "Ethernet") == 0
				 ? ": it is on RoCE, probe it from a RoCE port"
				 : "");
		return -1;
	}
	*dgid = info->gids[best].gid;
	*listed = true;
	snprintf(why, len, "the responder's port GID, index %u",
		 info->gids[best].index);
	return 0;
}

int ib_partition_choose(bool has_user_pkey, uint16_t user_pkey,
			bool has_path_pkey, uint16_t path_pkey,
			const struct pkey_table *table, uint16_t *pkey,
			uint16_t *index, char *err, size_t errlen)
{
	int found;

	*index = 0;
	*pkey = has_user_pkey ? user_pkey : has_path_pkey ? path_pkey : 0;
	if (!has_user_pkey && !has_path_pkey)
		return 0;
	if (!table) {
		if (!has_user_pkey)
			return 0;	/* index 0, as before: nothing to look in */
		snprintf(err, errlen, "P_Key 0x%04x: the port's P_Key table "
			 "cannot be read, so its index is unknown", *pkey);
		return -1;
	}
	found = pkey_table_find(table, *pkey);
	if (found < 0) {
		snprintf(err, errlen, "this port is not a member of partition "
			 "0x%04x%s: its P_Key table has no entry with the low "
			 "15 bits 0x%04x", *pkey,
			 has_user_pkey ? " (--pkey)" : " (the path's P_Key)",
			 *pkey & PKEY_BASE_MASK);
		return -1;
	}
	*index = (uint16_t)found;
	return 0;
}

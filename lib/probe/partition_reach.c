/* Limited partition members: see partition_reach.h.
 *
 * IBA 10.9.3: a packet is accepted when the P_Keys match in their low 15
 * bits and at least one of the two is a full member. opensm follows it
 * when it answers paths: osm_physp_find_common_pkey and
 * osm_physp_share_this_pkey (osm_port.c) compare with match_pkey, which
 * refuses two limited members, so a PathRecord query between them in that
 * partition answers no records (pr_rcv_get_path_parms, ERR 1F1A/1F1B). */
#include "probe/partition_reach.h"

#include <stdio.h>
#include <string.h>

#include "out/text_layout.h"

enum partition_reach partition_reach_judge(enum pkey_membership local,
					   enum pkey_membership remote)
{
	if (local != PKEY_MEMBER_LIMITED)
		return PARTITION_REACH_OK;
	if (remote == PKEY_MEMBER_LIMITED)
		return PARTITION_REACH_BOTH_LIMITED;
	if (remote == PKEY_MEMBER_UNKNOWN)
		return PARTITION_REACH_LOCAL_LIMITED;
	return PARTITION_REACH_OK;
}

/* Short enough for one verdict sentence (160 bytes). */
bool partition_reach_words(enum partition_reach reach, uint16_t pkey,
			   char *buf, size_t len)
{
	uint16_t base = pkey & PKEY_BASE_MASK;

	if (len)
		buf[0] = '\0';
	switch (reach) {
	case PARTITION_REACH_BOTH_LIMITED:
		snprintf(buf, len, "this port and the responder are both "
			 "limited members of partition 0x%04x: two limited "
			 "members cannot talk (IBA 10.9.3)", base);
		return true;
	case PARTITION_REACH_LOCAL_LIMITED:
		snprintf(buf, len, "this port is a limited member of "
			 "partition 0x%04x: it cannot talk to another limited "
			 "member (IBA 10.9.3)", base);
		return true;
	case PARTITION_REACH_OK:
		break;
	}
	return false;
}

bool partition_reach_note_path(char *error, size_t len, uint16_t pkey,
			       const struct pkey_table *table)
{
	size_t used = strnlen(error, len);

	if (pkey_table_membership(table, pkey) != PKEY_MEMBER_LIMITED)
		return false;
	text_append(error, len, &used, "; this port is a limited member of "
		    "partition 0x%04x (P_Key bit 15 clear): the SA gives it no "
		    "path there to another limited member, since two limited "
		    "members cannot talk (IBA 10.9.3), nor to a non-member",
		    pkey & PKEY_BASE_MASK);
	return true;
}

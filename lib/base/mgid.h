/* Multicast GIDs of IPoIB, built from a P_Key: what `mcast:ipoib[:PKEY]`
 * and `mcast:ipoib6[:PKEY]` name, and what opensm creates for a
 * partitions.conf line with the `ipoib` flag.
 *
 * RFC 4391 section 4 and opensm's validate_requested_mgid()
 * (osm_sa_mcmember_record.c) lay them out as
 *   ff1S:401b:PPPP:0000:0000:0000:ffff:ffff  the IPv4 broadcast group
 *   ff1S:601b:PPPP:0000:0000:0000:0000:0001  the IPv6 all-nodes group
 * with S the scope nibble (2, link-local, unless partitions.conf says
 * `scope=`) and PPPP the P_Key with its full-member bit set: the kernel's
 * IPoIB driver writes `priv->pkey | 0x8000` into the broadcast address
 * (ipoib_main.c), and opensm's osm_prtn_config.c builds the group of a
 * partition the same way, so a limited member and a full member name the
 * same group. IPoIB joins the IPv4 broadcast group on every interface,
 * IPv6 or not (ipoib_mcast_join_task()); the IPv6 all-nodes group is the
 * one an IPv6 host joins next. */
#ifndef IBAHPROBE_MGID_H
#define IBAHPROBE_MGID_H

#include <stdbool.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#define IPOIB_SIGNATURE_IPV4 0x401b
#define IPOIB_SIGNATURE_IPV6 0x601b
#define MGID_SCOPE_LINK_LOCAL 0x2
#define IPOIB_DEFAULT_PKEY 0xffff

enum ipoib_group {
	IPOIB_GROUP_IPV4_BROADCAST,
	IPOIB_GROUP_IPV6_ALL_NODES,
};

/* The group's MGID for pkey (the full-member bit is set whatever pkey
 * says) and scope (4 bits). */
void ipoib_mgid(enum ipoib_group group, uint16_t pkey, uint8_t scope,
		union ibv_gid *mgid);
/* The scope nibble of an MGID (byte 1, low 4 bits). */
uint8_t mgid_scope(const union ibv_gid *mgid);
/* Whether mgid is an IPoIB group (signature 0x401b or 0x601b); with
 * its P_Key (bytes 4..5) then. */
bool mgid_is_ipoib(const union ibv_gid *mgid, uint16_t *pkey);

#endif

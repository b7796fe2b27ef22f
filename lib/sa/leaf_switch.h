/* A host port's leaf switch, decided from the SA's records (report
 * --groups sa): the LinkRecord out of the port names its peer, the peer's
 * NodeRecord says whether it is a switch and what it is called. Pure: the
 * record bytes as the SA returns them in, a verdict and a group name out.
 *
 * opensm answers a LinkRecord Get by FromLID and FromPort with the one
 * link of that port (osm_sa_link_record.c lr_rcv_get_end_points() finds
 * the port by any LID of its LMC range, lr_rcv_get_physp_link() builds
 * the record with both ends' base LIDs), or "no records" when the LID is
 * unknown, the port is not cabled, or the requester shares no P_Key with
 * both ends. A NodeRecord Get by a switch's LID names its port 0, whose
 * NodeType is 2 (IBA 14.2.5.3: 1 CA, 2 switch, 3 router). */
#ifndef IBAHPROBE_LEAF_SWITCH_H
#define IBAHPROBE_LEAF_SWITCH_H

#include <stddef.h>
#include <stdint.h>

#define NODE_TYPE_CA 1
#define NODE_TYPE_SWITCH 2
#define NODE_TYPE_ROUTER 3

/* Why a port has, or has no, leaf switch. The order is the order of the
 * ungrouped warning's reasons. */
enum leaf_status {
	LEAF_FOUND,
	LEAF_NO_LID,		/* the result names no LID (RoCE, old probe) */
	LEAF_NO_LINK,		/* the SA gives no link out of the port */
	LEAF_NOT_SWITCH,	/* cabled to a CA (back to back) or a router */
	LEAF_SA_FAILED,		/* no usable answer (timeout, odd record) */
	LEAF_STATUS_COUNT,
};

struct leaf_switch {
	enum leaf_status status;
	uint16_t lid;		/* the peer's LID (0: no link) */
	uint8_t peer_type;	/* its NodeType (0: not known) */
	uint64_t node_guid;	/* LEAF_FOUND: the switch's */
	char description[65];	/* LEAF_FOUND: its NodeDescription */
};

/* The leaf of port `port` with LID `lid`: link is the LinkRecord the SA
 * answered (NULL: it answered "no records"), node the NodeRecord of the
 * link's ToLID (NULL: none asked or "no records"). An answer for another
 * port, a link to LID 0, or a NodeRecord of another LID is LEAF_SA_FAILED:
 * the SA answered something else than what was asked. */
enum leaf_status leaf_switch_decide(uint16_t lid, uint8_t port,
				    const uint8_t *link, const uint8_t *node,
				    struct leaf_switch *out);

/* The ToLID of a LinkRecord: whose NodeRecord to ask next. */
uint16_t leaf_switch_peer_lid(const uint8_t *link);

/* The group name of each found switch (names[i] for leaves[i], malloc'ed;
 * NULL for a leaf not LEAF_FOUND): its NodeDescription, trailing blanks
 * dropped; "switch 0xGUID" when the description is empty; and
 * "DESCRIPTION (0xGUID)" when two switches (two node GUIDs) share one
 * description, so that no two switches fold into one group; also when the
 * description alone reads like another switch's name ("D (0xGUID)",
 * "switch 0xGUID"): names are unique by construction. A switch seen
 * through several ports is one switch. Returns 0, -1 when memory ran out
 * (names then all NULL). */
int leaf_switch_names(const struct leaf_switch *leaves, size_t n,
		      char **names);

const char *leaf_status_reason(enum leaf_status status);

#endif

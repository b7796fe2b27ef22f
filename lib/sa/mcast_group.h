/* Multicast groups through the SA: look a group up, join it, leave it,
 * and list its members, with the SA's refusals said in words. Built for
 * `ah mcast:`, `probe --dry-run mcast:` and the joinability audit now,
 * and for serve --mcast later: serve joins on start (mcast_group_join,
 * FullMember), leaves on exit (mcast_group_leave) and joins again after
 * a client reregister event (the SM lost its groups): the same call with
 * the same struct mcast_join, which is why the join keeps everything it
 * asked for in one value.
 *
 * What opensm does (osm_sa_mcmember_record.c, read for this):
 * - A join is a SubnAdmSet with at least MGID, PortGID and JoinState in
 *   the component mask (JOIN_MC_COMP_MASK; else INSUF_COMPS). A group
 *   that does not exist is created by the first FullMember join
 *   (mcmr_rcv_join_mgrp, o15-0.1.9: any other JoinState is refused with
 *   REQ_INVALID), which must also name Q_Key, TClass, P_Key, FlowLabel
 *   and SL (REQUIRED_MC_CREATE_COMP_MASK; else INSUF_COMPS); MTU and rate
 *   left out become the joining port's (mgrp_request_is_realizable).
 *   A group from partitions.conf (`ipoib`, `mgid=`) exists from the
 *   start with the MTU, rate, SL, scope and Q_Key written there.
 * - Every join, creating or not, is refused with REQ_INVALID when the
 *   port's MTUCap is below the group's MTU or its rate below the group's
 *   rate (validate_port_caps), or when a selector given with MTU or rate
 *   does not match the group (validate_more_comp_fields). The status
 *   alone does not say which: mcast_group_join asks for the group and
 *   the port's PortInfoRecord after a refusal, to say it.
 * - A leave is a SubnAdmDelete with the same three components; the
 *   JoinState bits must be a subset of the stored ones, and only the
 *   port itself (or a proxy in the group's partition) may remove it
 *   (validate_delete); an unknown group is REQ_INVALID too.
 * - A query (SubnAdmGet/GetTable, mcmr_query_mgrp) matches only groups
 *   whose P_Key the requester's port holds (osm_physp_has_pkey): a group
 *   of another partition is invisible, never "refused". An untrusted
 *   query (SM_Key 0, as every non-SM client sends) gets one record per
 *   group with PortGID, JoinState and ProxyJoin zeroed (IBA p923); with
 *   PortGID in the mask, a record only when that port is a member. Only a
 *   trusted query (the SM's SM_Key; opensm's default is 1) without
 *   PortGID gets one record per member with its PortGID and JoinState. */
#ifndef IBAHPROBE_MCAST_GROUP_H
#define IBAHPROBE_MCAST_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sa/path_resolve.h"
#include "wire/mcmember.h"

#define MCAST_RETRIES 2
/* The SA's status codes (bits 15..8 of the MAD status) a group meets. */
#define MCAST_SA_NO_RESOURCES 0x0100
#define MCAST_SA_REQ_INVALID 0x0200
#define MCAST_SA_NO_RECORDS 0x0300
#define MCAST_SA_INSUF_COMPS 0x0600

/* The IPoIB Q_Key (RFC 4391 section 5, opensm's OSM_IPOIB_BROADCAST_
 * MGRP_QKEY): what a group created without one in partitions.conf has. */
#define IPOIB_QKEY 0x0b1b

enum mcast_status {
	MCAST_OK,
	MCAST_NO_GROUP,	/* the SA has no such group, or hides it (P_Key) */
	MCAST_REFUSED,	/* the SA answered with an error status */
	MCAST_NO_ANSWER,	/* timeout, or the query could not be sent */
};

struct mcast_join {
	union ibv_gid mgid;
	uint8_t join_state;	/* MC_JOIN_FULL_MEMBER, _SEND_ONLY_NON_MEMBER */
	/* create: the join may create the group (FullMember only), so it
	 * names the group's Q_Key, P_Key, SL, TClass and FlowLabel (and MTU
	 * and rate when not 0) in the component mask. opensm ignores them
	 * for a group that exists (it copies the group's own, as
	 * copy_from_create_mc_rec() does), except MTU and rate, which must
	 * then match the group's exactly: serve leaves them 0. */
	bool create;
	uint32_t qkey;
	uint16_t pkey;
	uint8_t sl, traffic_class;
	uint32_t flow_label;
	uint8_t mtu, rate;	/* codes; 0: the SA gives the port's */
};

struct mcast_result {
	enum mcast_status status;
	uint16_t sa_status;	/* MCAST_REFUSED */
	struct mcmember_record record;	/* MCAST_OK: the SA's answer */
	char error[DIAG_MSG_MAX * 4];	/* anything but MCAST_OK, in words */
};

/* The group's record (one SubnAdmGetTable by MGID, untrusted): MGID,
 * Q_Key, MLID, MTU, TClass, P_Key, rate, packet life, SL, FlowLabel,
 * HopLimit and scope; PortGID and JoinState zero. */
void mcast_group_lookup(struct path_session *s, const union ibv_gid *mgid,
			uint32_t timeout_ms, unsigned retries,
			struct mcast_result *r);
/* SubnAdmSet for this port. On a refusal the error says why in words
 * when the group and this port's PortInfoRecord tell ("the SA refused the
 * join of ff12:401b:8001::ffff:ffff: the group's MTU 4096 is above this
 * port's 2048"). */
void mcast_group_join(struct path_session *s, const struct mcast_join *j,
		      uint32_t timeout_ms, unsigned retries,
		      struct mcast_result *r);
/* SubnAdmDelete of this port's join_state bits. MCAST_NO_GROUP when the
 * port was no member (or the group is gone: opensm answers both with
 * REQ_INVALID, so the error says both). */
void mcast_group_leave(struct path_session *s, const union ibv_gid *mgid,
		       uint8_t join_state, uint32_t timeout_ms,
		       unsigned retries, struct mcast_result *r);

/* The members as the SA lets this port see them. */
struct mcast_members {
	bool trusted;		/* asked with an SM_Key: every member named */
	uint64_t sa_key;	/* the key it was asked with (0: none) */
	size_t count;		/* records */
	struct mcmember_record *records;
	bool truncated;		/* the answer arrived cut (no RMPP) */
};
/* sm_key 0: untrusted, one record for the group (count 1, PortGIDs
 * hidden); else one record per member. Returns like lookup. */
void mcast_group_members(struct path_session *s, const union ibv_gid *mgid,
			 uint64_t sm_key, uint32_t timeout_ms,
			 unsigned retries, struct mcast_members *m,
			 struct mcast_result *r);
/* Whether port_gid is a member (SubnAdmGetTable on MGID and PortGID:
 * answered even untrusted, with the PortGID zeroed). Returns like lookup;
 * r->record.join_state is 0 then: opensm hides it. */
void mcast_group_member_of(struct path_session *s, const union ibv_gid *mgid,
			   const union ibv_gid *port_gid, uint32_t timeout_ms,
			   unsigned retries, struct mcast_result *r);
void mcast_members_free(struct mcast_members *m);

/* The records of an MCMemberRecord GetTableResp message, in order.
 * -1 with err set when the message is malformed. */
int mcast_members_from_table(const uint8_t *msg, size_t len,
			     struct mcast_members *m, char *err,
			     size_t errlen);

#endif

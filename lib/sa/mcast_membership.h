/* serve --mcast: the groups the responder's UD QP is a member of, joined
 * on start, attached to the QP, joined again after the SM asked
 * (client reregister) and left on exit.
 *
 * InfiniBand (through the SA, sa/mcast_group.h):
 * - A port that is a member already (MCMemberRecord GetTable on MGID and
 *   PortGID answers) is not joined and not left: serve only attaches its
 *   QP ("already_member"). The SA keeps one membership per port GID, not
 *   per program (opensm osm_sa_mcmember_record.c: mcmr_rcv_leave_mgrp
 *   removes the port's JoinState bits whoever set them), so serve's
 *   Delete would end the kernel's own membership (IPoIB, rdma_cm). The
 *   kernel knows this: core/multicast.c counts its clients per join
 *   state (adjust_membership) and leaves a state only when none holds it
 *   (get_leave_state); a umad Delete from serve bypasses that count.
 * - IPoIB groups (ipoib[6][:PKEY], or any MGID with the IPoIB signature)
 *   are never joined: they belong to the kernel's IPoIB driver. A
 *   FullMember join would create a missing broadcast group with serve's
 *   Q_Key and parameters, which IPoIB then inherits; a SendOnlyNonMember
 *   join is useless to a receiver: opensm puts no switch port toward a
 *   send-only member in the group's tree (osm_mcast_mgr.c: "Nothing to
 *   do for send only member"). So serve attaches to an IPoIB group only
 *   where the port is a member already (IPoIB is up), and otherwise
 *   fails with words.
 * - Any other group: a FullMember join that may create it
 *   (mcast_join.create) with serve's Q_Key, the QP's P_Key, SL 0, TClass
 *   0 and FlowLabel 0, MTU and rate the port's; a group that exists keeps
 *   its own (opensm copies them), and the record says which.
 * - The Q_Key: a UD QP receives only datagrams whose DETH Q_Key is its
 *   own, and senders to a group use the group's. So the QP takes the
 *   groups' Q_Key (mcast_membership_qkey): the groups must agree, and an
 *   explicit --qkey must be it.
 *
 * RoCE (no SA): an IP membership held by a socket on the netdev of a
 * RoCE v2 GID of the group's family (base/ip_mcast_join.h: IGMP/MLD), and
 * ibv_attach_mcast(qp, gid, 0) with the group's GID (the IPv4-mapped or
 * IPv6 address), as the kernel's cma_iboe_join_multicast does for
 * rdma_join_multicast. The Q_Key is serve's: RoCE groups have none
 * (rdma_cm uses RDMA_UDP_QKEY for its own). */
#ifndef IBAHPROBE_MCAST_MEMBERSHIP_H
#define IBAHPROBE_MCAST_MEMBERSHIP_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <infiniband/verbs.h>

#include "base/mcast_spec.h"
#include "peer/responder_print.h"
#include "sa/mcast_group.h"
#include "sa/path_resolve.h"
#include "verbs/device.h"

enum mcast_join_kind {
	MCAST_JOINED_FULL_MEMBER,	/* serve's SA join; left on exit */
	MCAST_JOINED_ALREADY_MEMBER,	/* the port's own; SA left alone */
	MCAST_JOINED_IGMP,		/* RoCE, IPv4 */
	MCAST_JOINED_MLD,		/* RoCE, IPv6 */
};

struct mcast_membership_group {
	struct mcast_spec spec;
	enum mcast_join_kind kind;
	uint16_t mlid;		/* InfiniBand: the record's */
	uint32_t qkey;		/* InfiniBand: the record's */
	bool joined;		/* serve's SA join or socket stands */
	bool attached;		/* to qp, with mlid */
	uint16_t attached_mlid;
	int ip_fd;		/* RoCE: holds the IP membership; -1 */
	char netdev[IF_NAMESIZE];
};

struct mcast_membership {
	size_t count;
	struct mcast_membership_group groups[MCAST_SPEC_MAX];
	struct ibv_qp *qp;	/* attached to; NULL before */
	/* InfiniBand: the SA client (the caller's), and what a join
	 * creates a group with. */
	struct path_session *sa;
	uint16_t pkey;
	uint32_t qkey;
	uint32_t timeout_ms;
};

/* InfiniBand: each group joined (or found joined) in the SA, in order.
 * -1 with err naming the group and the SA's reason; what was joined
 * before is left again. */
int mcast_membership_join_ib(struct mcast_membership *m,
			     const struct mcast_spec_list *specs,
			     struct path_session *sa, uint16_t pkey,
			     uint32_t qkey, uint32_t timeout_ms, char *err,
			     size_t errlen);
/* The Q_Key the QP must have to hear the groups (InfiniBand): theirs,
 * when they agree and qkey_given (--qkey) is either false or the same.
 * -1 with err otherwise. */
int mcast_membership_qkey(const struct mcast_membership *m, uint32_t qkey,
			  bool qkey_given, uint32_t *qp_qkey, char *err,
			  size_t errlen);
/* RoCE: each group's IP membership, on the netdev of a RoCE v2 GID of
 * its family. -1 with err (an InfiniBand-only group, no such GID, the
 * socket's refusal). qkey is serve's, for the ready line. */
int mcast_membership_join_roce(struct mcast_membership *m,
			       const struct mcast_spec_list *specs,
			       const struct port_info *port, uint32_t qkey,
			       char *err, size_t errlen);
/* ibv_attach_mcast of every group to qp. -1 with err. */
int mcast_membership_attach(struct mcast_membership *m, struct ibv_qp *qp,
			    char *err, size_t errlen);
/* After a client reregister (the SM lost its groups): serve's joins are
 * made again, and a group whose MLID changed attached anew. Failures are
 * warned about; the rest go on. For responder.port_changed (ctx: m). */
void mcast_membership_port_changed(void *ctx, const struct port_info *port,
				   bool reregister);
/* Detaches, deletes serve's SA joins, closes the IP memberships. */
void mcast_membership_leave(struct mcast_membership *m);

/* The groups for the ready line (out: m->count entries). */
void mcast_membership_view(const struct mcast_membership *m,
			   struct responder_group *out);
const char *mcast_join_kind_name(enum mcast_join_kind kind);

#endif

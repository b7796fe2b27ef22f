/* serve's multicast memberships; see mcast_membership.h. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/diag.h"
#include "base/gid.h"
#include "base/ip_mcast_join.h"
#include "base/mgid.h"
#include "sa/mcast_membership.h"

const char *mcast_join_kind_name(enum mcast_join_kind kind)
{
	switch (kind) {
	case MCAST_JOINED_FULL_MEMBER: return "full_member";
	case MCAST_JOINED_ALREADY_MEMBER: return "already_member";
	case MCAST_JOINED_IGMP: return "igmp";
	case MCAST_JOINED_MLD: return "mld";
	}
	return "?";
}

static void group_init(struct mcast_membership_group *g,
		       const struct mcast_spec *spec)
{
	memset(g, 0, sizeof(*g));
	g->spec = *spec;
	g->ip_fd = -1;
}

/* serve's FullMember join, creating the group if it is missing. */
static void join_full(struct mcast_membership *m,
		      struct mcast_membership_group *g, struct mcast_result *r)
{
	struct mcast_join j = {
		.mgid = g->spec.gid,
		.join_state = MC_JOIN_FULL_MEMBER,
		.create = true,
		.qkey = m->qkey,
		.pkey = m->pkey,
	};

	mcast_group_join(m->sa, &j, m->timeout_ms, MCAST_RETRIES, r);
}

/* One group: found joined, or joined now. 0, or -1 with err. */
static int join_ib_group(struct mcast_membership *m,
			 struct mcast_membership_group *g, char *err,
			 size_t errlen)
{
	struct mcast_result r;
	char text[GID_TEXT_MAX];
	uint16_t pkey;

	gid_format(&g->spec.gid, text, sizeof(text));
	mcast_group_member_of(m->sa, &g->spec.gid, &m->sa->sa.port_gid,
			      m->timeout_ms, MCAST_RETRIES, &r);
	if (r.status == MCAST_NO_ANSWER) {
		snprintf(err, errlen, "cannot join %s (%s): %s", g->spec.text,
			 text, r.error);
		return -1;
	}
	if (r.status == MCAST_OK) {
		/* The port's own membership: looked up for the MLID and
		 * Q_Key, never joined or left by serve. */
		mcast_group_lookup(m->sa, &g->spec.gid, m->timeout_ms,
				   MCAST_RETRIES, &r);
		if (r.status != MCAST_OK) {
			snprintf(err, errlen, "cannot read group %s (%s): %s",
				 g->spec.text, text, r.error);
			return -1;
		}
		g->kind = MCAST_JOINED_ALREADY_MEMBER;
	} else if (g->spec.family == MCAST_SPEC_IPOIB ||
		   mgid_is_ipoib(&g->spec.gid, &pkey)) {
		snprintf(err, errlen, "%s (%s) is an IPoIB group and this port "
			 "is no member of it (IPoIB not up on this partition?): "
			 "serve attaches to IPoIB groups the kernel joined, and "
			 "never joins or leaves them itself (ibahprobe-serve(8) "
			 "MULTICAST)", g->spec.text, text);
		return -1;
	} else {
		join_full(m, g, &r);
		if (r.status != MCAST_OK) {
			snprintf(err, errlen, "cannot join %s (%s): %s",
				 g->spec.text, text, r.error);
			return -1;
		}
		g->kind = MCAST_JOINED_FULL_MEMBER;
		g->joined = true;
	}
	g->mlid = r.record.mlid;
	g->qkey = r.record.qkey;
	return 0;
}

int mcast_membership_join_ib(struct mcast_membership *m,
			     const struct mcast_spec_list *specs,
			     struct path_session *sa, uint16_t pkey,
			     uint32_t qkey, uint32_t timeout_ms, char *err,
			     size_t errlen)
{
	m->sa = sa;
	m->pkey = pkey;
	m->qkey = qkey;
	m->timeout_ms = timeout_ms;
	for (m->count = 0; m->count < specs->count; m->count++) {
		struct mcast_membership_group *g = &m->groups[m->count];

		group_init(g, &specs->specs[m->count]);
		if (g->spec.family == MCAST_SPEC_IPV4) {
			snprintf(err, errlen, "%s is an IPv4 group, for RoCE: "
				 "this port is InfiniBand (give an MGID or "
				 "ipoib[:PKEY])", g->spec.text);
			mcast_membership_leave(m);
			return -1;
		}
		if (join_ib_group(m, g, err, errlen)) {
			mcast_membership_leave(m);
			return -1;
		}
	}
	return 0;
}

int mcast_membership_qkey(const struct mcast_membership *m, uint32_t qkey,
			  bool qkey_given, uint32_t *qp_qkey, char *err,
			  size_t errlen)
{
	*qp_qkey = qkey;
	for (size_t i = 0; i < m->count; i++) {
		const struct mcast_membership_group *g = &m->groups[i];
		const struct mcast_membership_group *first = &m->groups[0];

		if (g->qkey != first->qkey) {
			snprintf(err, errlen, "groups %s (Q_Key 0x%08x) and %s "
				 "(Q_Key 0x%08x) cannot share one QP: a UD QP "
				 "hears only its own Q_Key; run one serve per "
				 "Q_Key", first->spec.text, first->qkey,
				 g->spec.text, g->qkey);
			return -1;
		}
		if (qkey_given && g->qkey != qkey) {
			snprintf(err, errlen, "group %s has Q_Key 0x%08x, not "
				 "0x%08x (--qkey): a UD QP hears only datagrams "
				 "of its own Q_Key; leave out --qkey (serve "
				 "takes the group's) or give --qkey 0x%08x",
				 g->spec.text, g->qkey, qkey, g->qkey);
			return -1;
		}
		*qp_qkey = g->qkey;
	}
	return 0;
}

/* The netdev of a RoCE v2 GID of the group's family: where the kernel
 * sends RoCE v2 of that family from (the GID's netdev binds it). */
static const struct gid_info *roce_gid_for(const struct port_info *port,
					   bool ipv4)
{
	for (size_t i = 0; i < port->gid_count; i++) {
		const struct gid_info *g = &port->gids[i];

		if (g->kind == GID_KIND_ROCE_V2 && g->netdev[0] &&
		    gid_is_ipv4_mapped(&g->gid) == ipv4)
			return g;
	}
	return NULL;
}

int mcast_membership_join_roce(struct mcast_membership *m,
			       const struct mcast_spec_list *specs,
			       const struct port_info *port, uint32_t qkey,
			       char *err, size_t errlen)
{
	m->sa = NULL;
	m->qkey = qkey;
	for (m->count = 0; m->count < specs->count; m->count++) {
		struct mcast_membership_group *g = &m->groups[m->count];
		bool ipv4;
		const struct gid_info *local;

		group_init(g, &specs->specs[m->count]);
		ipv4 = g->spec.family == MCAST_SPEC_IPV4;
		if (g->spec.family == MCAST_SPEC_IPOIB) {
			snprintf(err, errlen, "%s is an IPoIB group, for "
				 "InfiniBand: this port is RoCE (give an IPv4 "
				 "or IPv6 multicast address)", g->spec.text);
			goto fail;
		}
		local = roce_gid_for(port, ipv4);
		if (!local) {
			snprintf(err, errlen, "cannot join %s: port %u has no "
				 "RoCE v2 GID of an %s address to receive it "
				 "on", g->spec.text, port->port_num,
				 ipv4 ? "IPv4" : "IPv6");
			goto fail;
		}
		g->ip_fd = ip_mcast_join(&g->spec.gid, local->netdev, err,
					 errlen);
		if (g->ip_fd < 0)
			goto fail;
		snprintf(g->netdev, sizeof(g->netdev), "%s", local->netdev);
		g->kind = ipv4 ? MCAST_JOINED_IGMP : MCAST_JOINED_MLD;
		g->joined = true;
		g->qkey = qkey;
	}
	return 0;
fail:
	mcast_membership_leave(m);
	return -1;
}

static int attach_group(struct ibv_qp *qp, struct mcast_membership_group *g,
			char *err, size_t errlen)
{
	char text[GID_TEXT_MAX];
	int rc = ibv_attach_mcast(qp, &g->spec.gid, g->mlid);

	if (rc) {
		snprintf(err, errlen, "cannot attach the QP to %s (%s, mlid "
			 "0x%04x): ibv_attach_mcast: %s", g->spec.text,
			 gid_format(&g->spec.gid, text, sizeof(text)), g->mlid,
			 strerror(rc > 0 ? rc : errno));
		return -1;
	}
	g->attached = true;
	g->attached_mlid = g->mlid;
	return 0;
}

int mcast_membership_attach(struct mcast_membership *m, struct ibv_qp *qp,
			    char *err, size_t errlen)
{
	m->qp = qp;
	for (size_t i = 0; i < m->count; i++)
		if (attach_group(qp, &m->groups[i], err, errlen))
			return -1;
	return 0;
}

static void detach_group(struct ibv_qp *qp, struct mcast_membership_group *g)
{
	if (!g->attached || !qp)
		return;
	if (ibv_detach_mcast(qp, &g->spec.gid, g->attached_mlid))
		diag_warn("cannot detach the QP from %s", g->spec.text);
	g->attached = false;
}

void mcast_membership_port_changed(void *ctx, const struct port_info *port,
				   bool reregister)
{
	struct mcast_membership *m = ctx;
	char err[DIAG_MSG_MAX * 4];

	(void)port;
	if (!reregister || !m->sa)
		return;
	for (size_t i = 0; i < m->count; i++) {
		struct mcast_membership_group *g = &m->groups[i];
		struct mcast_result r;

		if (g->kind == MCAST_JOINED_FULL_MEMBER) {
			join_full(m, g, &r);
		} else {
			/* The kernel joins its own again; its MLID may be
			 * new all the same. */
			mcast_group_lookup(m->sa, &g->spec.gid, m->timeout_ms,
					   MCAST_RETRIES, &r);
		}
		if (r.status != MCAST_OK) {
			diag_warn("after the SM's client reregister: %s: %s",
				  g->spec.text, r.error);
			continue;
		}
		g->mlid = r.record.mlid;
		if (g->attached && g->attached_mlid == g->mlid)
			continue;
		detach_group(m->qp, g);
		if (m->qp && attach_group(m->qp, g, err, sizeof(err)))
			diag_warn("after the SM's client reregister: %s", err);
	}
}

void mcast_membership_leave(struct mcast_membership *m)
{
	for (size_t i = 0; i < m->count; i++) {
		struct mcast_membership_group *g = &m->groups[i];
		struct mcast_result r;

		detach_group(m->qp, g);
		if (g->joined && g->kind == MCAST_JOINED_FULL_MEMBER && m->sa) {
			mcast_group_leave(m->sa, &g->spec.gid,
					  MC_JOIN_FULL_MEMBER, m->timeout_ms,
					  MCAST_RETRIES, &r);
			if (r.status != MCAST_OK)
				diag_warn("cannot leave %s: %s", g->spec.text,
					  r.error);
		}
		if (g->ip_fd >= 0)
			close(g->ip_fd);
		g->ip_fd = -1;
		g->joined = false;
	}
	m->count = 0;
	m->qp = NULL;
}

void mcast_membership_view(const struct mcast_membership *m,
			   struct responder_group *out)
{
	for (size_t i = 0; i < m->count; i++) {
		const struct mcast_membership_group *g = &m->groups[i];

		out[i] = (struct responder_group){
			.group = g->spec.text,
			.mgid = g->spec.gid,
			.mlid = g->mlid,
			.qkey = g->qkey,
			.join = mcast_join_kind_name(g->kind),
			.netdev = g->netdev[0] ? g->netdev : NULL,
		};
	}
}

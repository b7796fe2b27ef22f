/* Multicast group lookup, join, leave and members through the SA; what
 * opensm answers is in mcast_group.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gid.h"
#include "base/ibrate.h"
#include "base/mgid.h"
#include "sa/mcast_group.h"
#include "sa/mcast_joinable.h"

/* Runs one MCMemberRecord request to a result; fills r unless OK. */
static bool run_request(struct path_session *s, struct sa_query *q,
			const char *what, const union ibv_gid *mgid,
			uint32_t timeout_ms, unsigned retries,
			struct mcast_result *r)
{
	char why[DIAG_MSG_MAX * 2], err[DIAG_MSG_MAX], text[GID_TEXT_MAX];

	gid_format(mgid, text, sizeof(text));
	if (sa_client_run(&s->sa, q, 1, 1, timeout_ms, retries, err,
			  sizeof(err))) {
		r->status = MCAST_NO_ANSWER;
		snprintf(r->error, sizeof(r->error), "%s of %s: %s", what, text,
			 err);
		return false;
	}
	if (q->result == SA_RESULT_OK)
		return true;
	sa_query_describe(q, what, timeout_ms, why, sizeof(why));
	if (q->result == SA_RESULT_STATUS) {
		r->status = MCAST_REFUSED;
		r->sa_status = q->status;
	} else {
		r->status = MCAST_NO_ANSWER;
	}
	snprintf(r->error, sizeof(r->error), "%s of %s (SM LID %u via %s port "
		 "%u): %s", what, text, s->sa.sm_lid, s->sa.ca,
		 s->sa.port_num, why);
	return false;
}

int mcast_members_from_table(const uint8_t *msg, size_t len,
			     struct mcast_members *m, char *err,
			     size_t errlen)
{
	struct sa_table t;

	memset(m, 0, sizeof(*m));
	if (sa_table_layout(msg, len, MCMEMBER_RECORD_BYTES, &t, err, errlen))
		return -1;
	m->truncated = t.truncated;
	if (t.count == 0)
		return 0;
	m->records = calloc(t.count, sizeof(*m->records));
	if (!m->records) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < t.count; i++)
		mcmember_decode(msg + SA_HEADER_BYTES + i * t.stride,
				&m->records[i]);
	m->count = t.count;
	return 0;
}

void mcast_members_free(struct mcast_members *m)
{
	free(m->records);
	m->records = NULL;
	m->count = 0;
}

/* A GetTable on rec's fields named by mask, into m. */
static void query_table(struct path_session *s, const char *what,
			const struct mcmember_record *rec, uint64_t mask,
			uint64_t sm_key, uint32_t timeout_ms,
			unsigned retries, struct mcast_members *m,
			struct mcast_result *r)
{
	struct sa_query q = { 0 };
	char err[DIAG_MSG_MAX], text[GID_TEXT_MAX];
	const uint8_t *answer;
	size_t len;

	memset(r, 0, sizeof(*r));
	memset(m, 0, sizeof(*m));
	sa_encode_mcmember_request(q.request, SA_METHOD_GET_TABLE, 0, rec,
				   mask, sm_key);
	if (!run_request(s, &q, what, &rec->mgid, timeout_ms, retries, r))
		goto out;
	answer = sa_query_answer(&q, &len);
	if (mcast_members_from_table(answer, len, m, err, sizeof(err))) {
		r->status = MCAST_NO_ANSWER;
		snprintf(r->error, sizeof(r->error), "%s: %s", what, err);
		goto out;
	}
	if (m->count == 0) {
		/* mcmr_by_comp_mask() skips a group whose P_Key this port
		 * lacks, silently. */
		r->status = MCAST_NO_GROUP;
		snprintf(r->error, sizeof(r->error), "the SA has no multicast "
			 "group %s that this port may see (none, or one of a "
			 "partition this port is not in)",
			 gid_format(&rec->mgid, text, sizeof(text)));
		goto out;
	}
	r->status = MCAST_OK;
	r->record = m->records[0];
out:
	sa_queries_release(&q, 1);
}

void mcast_group_lookup(struct path_session *s, const union ibv_gid *mgid,
			uint32_t timeout_ms, unsigned retries,
			struct mcast_result *r)
{
	struct mcast_members m;

	mcast_group_members(s, mgid, 0, timeout_ms, retries, &m, r);
	mcast_members_free(&m);
}

void mcast_group_members(struct path_session *s, const union ibv_gid *mgid,
			 uint64_t sm_key, uint32_t timeout_ms,
			 unsigned retries, struct mcast_members *m,
			 struct mcast_result *r)
{
	struct mcmember_record rec = { .mgid = *mgid };

	query_table(s, "MCMemberRecord GetTable", &rec, MCR_COMP_MGID, sm_key,
		    timeout_ms, retries, m, r);
	m->trusted = sm_key != 0;
	m->sa_key = sm_key;
}

void mcast_group_member_of(struct path_session *s, const union ibv_gid *mgid,
			   const union ibv_gid *port_gid, uint32_t timeout_ms,
			   unsigned retries, struct mcast_result *r)
{
	struct mcmember_record rec = { .mgid = *mgid, .port_gid = *port_gid };
	struct mcast_members m;

	query_table(s, "MCMemberRecord GetTable", &rec,
		    MCR_COMP_MGID | MCR_COMP_PORT_GID, 0, timeout_ms, retries,
		    &m, r);
	mcast_members_free(&m);
}

/* After a REQ_INVALID join: why, from the group's record and this port's
 * facts, in the terms of opensm's checks; "" when they do not tell. */
static void explain_refused_join(struct path_session *s,
				 const struct mcast_join *j,
				 uint32_t timeout_ms, unsigned retries,
				 char *buf, size_t len)
{
	struct mcast_port_caps caps;
	struct mcast_joinability verdict;
	struct mcast_result group;
	char err[DIAG_MSG_MAX * 2], prate[16], grate[16];

	buf[0] = '\0';
	mcast_group_lookup(s, &j->mgid, timeout_ms, retries, &group);
	if (group.status == MCAST_NO_GROUP) {
		if (!(j->join_state & MC_JOIN_FULL_MEMBER))
			snprintf(buf, len, "the group does not exist, and only "
				 "a FullMember join creates one (o15-0.1.9)");
		else if (j->mgid.raw[2] == 0xa0 && j->mgid.raw[3] == 0x1b &&
			 mgid_scope(&j->mgid) == MGID_SCOPE_LINK_LOCAL)
			/* validate_requested_mgid(), o15-0.1.5 */
			snprintf(buf, len, "the group does not exist, and an "
				 "MGID with the SA's signature 0xa01b and "
				 "link-local scope is the SA's own to assign");
		else
			snprintf(buf, len, "the SA would not create the group "
				 "(its MGID, or the MTU or rate asked for, is "
				 "refused), or holds it in a partition this "
				 "port is not in");
		return;
	}
	if (group.status != MCAST_OK ||
	    mcast_port_caps_fetch(s, timeout_ms, retries, &caps, err,
				  sizeof(err)))
		return;
	mcast_joinable_judge(&group.record, &caps, &verdict);
	ibrate_format_gbps(caps.rate, prate, sizeof(prate));
	ibrate_format_gbps(group.record.rate, grate, sizeof(grate));
	if (verdict.mtu_short)
		snprintf(buf, len, "the group's MTU %u is above this port's %u",
			 ibrate_mtu_bytes(group.record.mtu),
			 ibrate_mtu_bytes(caps.mtu_cap));
	else if (verdict.rate_short)
		snprintf(buf, len, "the group's rate %s Gb/s is above this "
			 "port's %s Gb/s", grate, prate);
	else if (j->create && j->mtu && j->mtu != group.record.mtu)
		/* validate_more_comp_fields(): an exact MTU must match. */
		snprintf(buf, len, "the join asked for MTU %u exactly, the "
			 "group's is %u", ibrate_mtu_bytes(j->mtu),
			 ibrate_mtu_bytes(group.record.mtu));
	else if (j->create && j->rate && j->rate != group.record.rate)
		snprintf(buf, len, "the join asked for rate %s Gb/s exactly, "
			 "the group's is %s Gb/s",
			 ibrate_format_gbps(j->rate, prate, sizeof(prate)), grate);
}

void mcast_group_join(struct path_session *s, const struct mcast_join *j,
		      uint32_t timeout_ms, unsigned retries,
		      struct mcast_result *r)
{
	struct mcmember_record rec = { 0 };
	struct sa_query q = { 0 };
	uint64_t mask = MCR_COMP_MGID | MCR_COMP_PORT_GID | MCR_COMP_JOIN_STATE;
	char why[DIAG_MSG_MAX], text[GID_TEXT_MAX];

	memset(r, 0, sizeof(*r));
	rec.mgid = j->mgid;
	rec.port_gid = s->sa.port_gid;
	rec.join_state = j->join_state;
	/* The record's Scope is the MGID's scope nibble: opensm keeps the
	 * creator's byte (Scope:4 JoinState:4) in the group's record. */
	rec.scope = mgid_scope(&j->mgid);
	if (j->create) {
		/* REQUIRED_MC_CREATE_COMP_MASK; MTU and rate only when
		 * asked for, exactly. */
		rec.qkey = j->qkey;
		rec.pkey = j->pkey;
		rec.sl = j->sl;
		rec.traffic_class = j->traffic_class;
		rec.flow_label = j->flow_label;
		mask |= MCR_COMP_QKEY | MCR_COMP_PKEY | MCR_COMP_SL |
			MCR_COMP_TCLASS | MCR_COMP_FLOW_LABEL | MCR_COMP_SCOPE;
		if (j->mtu) {
			rec.mtu_selector = SA_SELECTOR_EXACTLY;
			rec.mtu = j->mtu;
			mask |= MCR_COMP_MTU_SELECTOR | MCR_COMP_MTU;
		}
		if (j->rate) {
			rec.rate_selector = SA_SELECTOR_EXACTLY;
			rec.rate = j->rate;
			mask |= MCR_COMP_RATE_SELECTOR | MCR_COMP_RATE;
		}
	}
	sa_encode_mcmember_request(q.request, SA_METHOD_SET, 0, &rec, mask, 0);
	if (run_request(s, &q, "MCMemberRecord Set", &j->mgid, timeout_ms,
			retries, r)) {
		mcmember_decode(q.response + SA_HEADER_BYTES, &r->record);
		r->status = MCAST_OK;
		goto out;
	}
	if (r->status != MCAST_REFUSED)
		goto out;
	gid_format(&j->mgid, text, sizeof(text));
	switch (r->sa_status & 0xff00) {
	case MCAST_SA_REQ_INVALID:
		explain_refused_join(s, j, timeout_ms, retries, why,
				     sizeof(why));
		break;
	case MCAST_SA_INSUF_COMPS:
		snprintf(why, sizeof(why), "the group does not exist, and "
			 "creating it needs its Q_Key, P_Key, SL, FlowLabel "
			 "and TClass");
		break;
	case MCAST_SA_NO_RESOURCES:
		snprintf(why, sizeof(why), "the SA has no multicast LID left "
			 "(an exhausted or leaking MLID table)");
		break;
	default:
		why[0] = '\0';
	}
	snprintf(r->error, sizeof(r->error), "the SA refused the join of %s "
		 "(status 0x%04x, %s)%s%s", text, r->sa_status,
		 sa_status_str(r->sa_status), why[0] ? ": " : "", why);
out:
	sa_queries_release(&q, 1);
}

void mcast_group_leave(struct path_session *s, const union ibv_gid *mgid,
		       uint8_t join_state, uint32_t timeout_ms,
		       unsigned retries, struct mcast_result *r)
{
	struct mcmember_record rec = { .mgid = *mgid };
	struct sa_query q = { 0 };
	char text[GID_TEXT_MAX];

	memset(r, 0, sizeof(*r));
	rec.port_gid = s->sa.port_gid;
	rec.join_state = join_state;
	sa_encode_mcmember_request(q.request, SA_METHOD_DELETE, 0, &rec,
				   MCR_COMP_MGID | MCR_COMP_PORT_GID |
					   MCR_COMP_JOIN_STATE,
				   0);
	if (run_request(s, &q, "MCMemberRecord Delete", mgid, timeout_ms,
			retries, r)) {
		mcmember_decode(q.response + SA_HEADER_BYTES, &r->record);
		r->status = MCAST_OK;
	} else if (r->status == MCAST_REFUSED &&
		   (r->sa_status & 0xff00) == MCAST_SA_REQ_INVALID) {
		/* validate_delete(): the same status for no group, no such
		 * member, and JoinState bits the member does not hold. */
		r->status = MCAST_NO_GROUP;
		snprintf(r->error, sizeof(r->error), "the SA refused to remove "
			 "this port from %s (status 0x%04x, %s): the port is "
			 "not a member with those JoinState bits, or the group "
			 "is gone", gid_format(mgid, text, sizeof(text)),
			 r->sa_status, sa_status_str(r->sa_status));
	}
	sa_queries_release(&q, 1);
}

/* A prober's part in a group through the SA: see mcast_sender.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/gid.h"
#include "sa/mcast_sender.h"

int mcast_listing_from_members(const struct mcast_members *m,
			       const union ibv_gid *self,
			       struct mcast_listing *l)
{
	memset(l, 0, sizeof(*l));
	if (!m->trusted) {
		snprintf(l->why_not, sizeof(l->why_not), "the SA lists "
			 "members to a trusted query only (an SA key)");
		return 0;
	}
	l->gids = calloc(m->count ? m->count : 1, sizeof(*l->gids));
	if (!l->gids)
		return -1;
	for (size_t i = 0; i < m->count; i++) {
		const struct mcmember_record *r = &m->records[i];

		/* A wrong key is taken for no key: one record, PortGID
		 * zeroed (mcmr_query_mgrp). */
		if (gid_is_zero(&r->port_gid)) {
			snprintf(l->why_not, sizeof(l->why_not),
				 "the SA hid the members (it did not take "
				 "the SA key 0x%" PRIx64 " as its own)",
				 m->sa_key);
			l->count = 0;
			return 0;
		}
		if (!(r->join_state & MC_JOIN_FULL_MEMBER) ||
		    (self && memcmp(&r->port_gid, self, sizeof(*self)) == 0))
			continue;
		l->gids[l->count++] = r->port_gid;
	}
	if (m->truncated) {
		snprintf(l->why_not, sizeof(l->why_not), "the SA's answer "
			 "was cut short (more members than one MAD holds)");
		l->count = 0;
		return 0;
	}
	l->known = true;
	return 0;
}

void mcast_listing_free(struct mcast_listing *l)
{
	free(l->gids);
	memset(l, 0, sizeof(*l));
}

void mcast_sender_join(struct path_session *s, const union ibv_gid *mgid,
		       uint32_t timeout_ms, struct mcast_result *r)
{
	const struct mcast_join j = {
		.mgid = *mgid,
		.join_state = MC_JOIN_SEND_ONLY_NON_MEMBER,
	};

	mcast_group_join(s, &j, timeout_ms, MCAST_RETRIES, r);
}

void mcast_sender_listing(struct path_session *s, const union ibv_gid *mgid,
			  uint64_t sa_key, uint32_t timeout_ms,
			  struct mcast_listing *l)
{
	struct mcast_members m;
	struct mcast_result r;

	mcast_group_members(s, mgid, sa_key, timeout_ms, MCAST_RETRIES, &m,
			    &r);
	if (r.status != MCAST_OK) {
		memset(l, 0, sizeof(*l));
		snprintf(l->why_not, sizeof(l->why_not), "%.*s",
			 (int)sizeof(l->why_not) - 1, r.error);
	} else if (mcast_listing_from_members(&m, &s->sa.port_gid, l)) {
		snprintf(l->why_not, sizeof(l->why_not), "out of memory");
	}
	mcast_members_free(&m);
}

void mcast_sender_leave(struct path_session *s, const union ibv_gid *mgid,
			uint32_t timeout_ms, struct mcast_result *r)
{
	mcast_group_leave(s, mgid, MC_JOIN_SEND_ONLY_NON_MEMBER, timeout_ms,
			  MCAST_RETRIES, r);
}

/* What a prober asks of the SA around probing a group: a
 * SendOnlyNonMember join (the SM adds this port to the group's spanning
 * tree as a sender only, so its sends reach the members and nothing sent
 * to the group comes back to it: osm_sa_mcmember_record.c
 * mcmr_rcv_join_mgrp), the members the SA lists (FullMembers, from a
 * trusted GetTable: an untrusted one hides every PortGID), and the leave
 * afterwards. */
#ifndef IBAHPROBE_MCAST_SENDER_H
#define IBAHPROBE_MCAST_SENDER_H

#include <stdbool.h>
#include <stddef.h>

#include "sa/mcast_group.h"

/* opensm's default SA key (osm_subnet.c: OSM_DEFAULT_SA_KEY, 1): what a
 * member listing is asked with unless probe --sa-key says another (the
 * SM's sa_key option in opensm.conf). opensm leaves a request with another
 * key than its own unanswered (seen against opensm in tests/sim), and
 * answers one without a key with the PortGIDs hidden: either way the
 * listing is unknown, with why. */
#define MCAST_LISTING_SA_KEY 1

/* The members a group's probe expects to hear from. */
struct mcast_listing {
	bool known;
	char why_not[DIAG_MSG_MAX];	/* !known */
	size_t count;
	union ibv_gid *gids;		/* FullMembers' port GIDs */
};

/* The listing from a GetTable's records: FullMember records only (a
 * sender, ourselves among them, never answers), without self. Hidden
 * PortGIDs (an untrusted answer) make it unknown, with why. Returns 0, or
 * -1 out of memory. */
int mcast_listing_from_members(const struct mcast_members *m,
			       const union ibv_gid *self,
			       struct mcast_listing *l);
void mcast_listing_free(struct mcast_listing *l);

/* Join (SendOnlyNonMember), the listing, each as the SA answered; the
 * leave of the join. */
void mcast_sender_join(struct path_session *s, const union ibv_gid *mgid,
		       uint32_t timeout_ms, struct mcast_result *r);
void mcast_sender_listing(struct path_session *s, const union ibv_gid *mgid,
			  uint64_t sa_key, uint32_t timeout_ms,
			  struct mcast_listing *l);
void mcast_sender_leave(struct path_session *s, const union ibv_gid *mgid,
			uint32_t timeout_ms, struct mcast_result *r);

#endif
